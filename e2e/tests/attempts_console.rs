//! End-to-end steps for the attempts figure (§4) and console on the real release build (run by
//! ./scripts/test.sh with `LOCKDIVE_DIST`): the real pointer and keyboard meet the EMQSTALE fence,
//! and real key presses drive the lost-lock console, a runaway script included, and a line entered
//! before the console's chunk has arrived.

use std::time::{Duration, Instant};

use fantoccini::key::Key;
use lockdive::scenarios::attempts::{AttemptsRun, Transition};
use lockdive::scenarios::console::{Console, ConsoleSeed, OutputLine, Tone};
use lockdive_contract::hooks::{PENDING, PENDING_SELECTOR, READOUT_SELECTOR};
use lockdive_contract::lab::{LabChunk, PendingAction};
use lockdive_e2e::hooks::{within, ATTEMPTS};
use lockdive_e2e::{with_page, E2eResult, Page};

const W1_COMPLETE: &str = r#"[data-complete="w1"]"#;
const W2_COMPLETE: &str = r#"[data-complete="w2"]"#;
const W1_RETRY: &str = r#"[data-retry="w1"]"#;

const CONSOLE: &str = r#"[data-console="lost-lock"]"#;

/// The readout sentence and the first evidence line (the call and its reply) the page must show
/// for `transition`, taken from the same scenario run the figure renders.
fn expected_readout(run: &AttemptsRun, transition: Transition) -> (String, String) {
    let outcome = run
        .outcome(transition)
        .unwrap_or_else(|| panic!("the attempts run has no outcome for {transition:?}"));
    let call = outcome
        .evidence()
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("{transition:?} has no evidence line"));
    (outcome.readout(), call)
}

#[test]
fn w1s_stale_complete_and_retry_are_refused_and_w2s_complete_is_accepted() {
    let run = AttemptsRun::run();
    let w1 = run.outcome(Transition::W1Complete).expect("W1's complete");
    assert_eq!(
        w1.error_text(),
        Some("EMQSTALE complete token mismatch"),
        "the brief's refusal, from the scenario layer"
    );
    let w2 = run.outcome(Transition::W2Complete).expect("W2's complete");
    assert!(w2.accepted(), "{:?}", w2.reply);
    let retry = run.outcome(Transition::W1Retry).expect("W1's retry");
    assert_eq!(retry.error_text(), Some("EMQSTALE retry token mismatch"));

    let readout = within(ATTEMPTS, READOUT_SELECTOR);
    with_page(|page| async move {
        let wait = Duration::from_secs(5);
        // The real pointer onto W1's complete: the fence refuses its stale att.
        page.hover(&within(ATTEMPTS, W1_COMPLETE)).await?;
        let (sentence, call) = expected_readout(&run, Transition::W1Complete);
        let text = page
            .wait_for_text(
                &readout,
                &["EMQSTALE complete token mismatch", &sentence, &call],
                wait,
            )
            .await?;
        assert!(text.contains("refused"), "{text}");
        page.screenshot(ATTEMPTS, "attempts-w1").await?;

        // Onto W2's complete: accepted, the job completed.
        page.hover(&within(ATTEMPTS, W2_COMPLETE)).await?;
        let (sentence, call) = expected_readout(&run, Transition::W2Complete);
        let text = page
            .wait_for_text(&readout, &[&sentence, &call], wait)
            .await?;
        assert!(text.contains("accepted"), "{text}");
        assert!(text.contains("is now completed"), "{text}");
        assert!(
            !text.contains("emqstale"),
            "W2's complete is not fenced: {text}"
        );
        page.screenshot(ATTEMPTS, "attempts-w2").await?;

        // Pointer off the figure: the idle readout.
        page.move_pointer_away().await?;
        page.wait_for_text(&readout, &[&run.idle_readout()], wait)
            .await?;

        // The keyboard: a click on the caption puts the focus-navigation start in the figure,
        // then Tab walks its buttons to W1's retry.
        page.scroll_into_view(&within(ATTEMPTS, "figcaption"))
            .await?;
        page.find(&within(ATTEMPTS, "figcaption"))
            .await?
            .click()
            .await?;
        page.tab_to(&within(ATTEMPTS, W1_RETRY), 20).await?;
        let (sentence, call) = expected_readout(&run, Transition::W1Retry);
        page.wait_for_text(
            &readout,
            &["EMQSTALE retry token mismatch", &sentence, &call],
            wait,
        )
        .await?;
        page.press(Key::Escape).await?;
        let idle = page
            .wait_for_text(&readout, &[&run.idle_readout()], wait)
            .await?;
        assert!(!idle.contains("emqstale"), "{idle}");
        Ok(())
    });
}

/// Types `line` into the console's prompt with real key presses and presses Enter.
async fn type_line(page: &Page, line: &str) -> E2eResult {
    let input = page.find(&within(CONSOLE, "input.console-input")).await?;
    input.send_keys(line).await?;
    page.press(Key::Enter).await?;
    Ok(())
}

/// The text of the console's newest log entry once it holds `input` and every line of `output`.
async fn wait_for_entry(
    page: &Page,
    count: usize,
    output: &[OutputLine],
    limit: Duration,
) -> E2eResult<String> {
    let entry = within(
        CONSOLE,
        &format!("[data-console-log] > .console-entry:nth-of-type({count})"),
    );
    let lines: Vec<&str> = output.iter().map(|line| line.text.as_str()).collect();
    page.wait_for_text(&entry, &lines, limit).await
}

#[test]
fn the_console_answers_typed_commands_and_survives_a_runaway_script() {
    // What the page's console must print, from the same console logic run natively.
    let mut native = Console::new(ConsoleSeed::LostLock);
    let reply = |text: &str| OutputLine {
        text: text.to_string(),
        tone: Tone::Reply,
    };
    let get = native.run("GET resource:lock");
    assert_eq!(get, [reply("\"xyz\"")]);
    let runaway = native.run(r#"EVAL "while true do end" 0"#);
    assert!(
        runaway
            .iter()
            .any(|l| l.tone == Tone::Error && l.text.contains("step budget")),
        "{runaway:?}"
    );
    let ping = native.run("PING");
    assert_eq!(ping, [reply("PONG")]);
    let unknown = native.run("FOO");
    assert!(
        unknown
            .iter()
            .any(|l| l.tone == Tone::Error && l.text.starts_with("(error) ERR unknown command")),
        "{unknown:?}"
    );

    with_page(|page| async move {
        let wait = Duration::from_secs(5);
        let input = within(CONSOLE, "input.console-input");
        page.scroll_into_view(&input).await?;
        page.find(&input).await?.click().await?;
        // Clicking the console reached for the lab; type into its live console (typing before it
        // arrives is carried over: tests/lab_wasm.rs).
        page.wait_for_lab().await?;

        type_line(&page, "GET resource:lock").await?;
        let text = wait_for_entry(&page, 1, &get, wait).await?;
        assert!(text.contains("\"xyz\""), "{text}");

        // The runaway script: the step budget stops it and the page keeps answering. The limit is a
        // liveness bound (a hung tab never prints), not a speed target: two shared cores run this.
        type_line(&page, r#"EVAL "while true do end" 0"#).await?;
        let text = wait_for_entry(&page, 2, &runaway, Duration::from_secs(10)).await?;
        assert!(text.contains("step budget"), "{text}");
        let red = within(
            CONSOLE,
            "[data-console-log] > .console-entry:nth-of-type(2) .console-error",
        );
        assert_eq!(
            page.count(&red).await?,
            1,
            "the budget error is shown as an error"
        );
        // What real Redis would do follows as a note, styled apart from the replies.
        let note = within(
            CONSOLE,
            "[data-console-log] > .console-entry:nth-of-type(2) .console-note",
        );
        assert_eq!(page.count(&note).await?, 1, "the runaway note is a note");
        assert!(text.contains("not a reply"), "{text}");
        type_line(&page, "PING").await?;
        wait_for_entry(&page, 3, &ping, wait).await?;

        // ↑ brings back the last command into the prompt.
        page.press(Key::Up).await?;
        let started = Instant::now();
        loop {
            let value = page.find(&input).await?.prop("value").await?;
            if value.as_deref() == Some("PING") {
                break;
            }
            if started.elapsed() > wait {
                return Err(format!("↑ recalled {value:?}, not PING").into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Clear the recalled line the way a learner would before typing the next one.
        for _ in 0.."PING".len() {
            page.press(Key::Backspace).await?;
        }
        type_line(&page, "FOO").await?;
        let text = wait_for_entry(&page, 4, &unknown, wait).await?;
        assert!(text.contains("(error) err unknown command"), "{text}");
        page.screenshot(CONSOLE, "console").await?;
        Ok(())
    });
}

#[test]
fn a_line_entered_before_the_consoles_chunk_arrives_runs_once_when_it_does() {
    let get = Console::new(ConsoleSeed::LostLock).run("GET resource:lock");
    let store = LabChunk::ALL
        .iter()
        .position(|chunk| *chunk == LabChunk::Store)
        .expect("the store's chunk is a chunk");

    with_page(|page| async move {
        let input = within(CONSOLE, "input.console-input");
        page.scroll_into_view(&input).await?;
        // From here on every request waits 2 s for its answer: the store's chunk (its loader, JS
        // and wasm, one after another) is still on its way while the reader types and presses Enter.
        page.cdp("Network.enable", serde_json::json!({})).await?;
        page.cdp(
            "Network.emulateNetworkConditions",
            serde_json::json!({ "offline": false, "latency": 2000,
                                "downloadThroughput": -1, "uploadThroughput": -1 }),
        )
        .await?;
        page.find(&input).await?.click().await?;
        type_line(&page, "GET resource:lock").await?;
        assert_eq!(
            page.lab_states().await?[store].as_deref(),
            Some("loading"),
            "the line was entered before the console's chunk arrived"
        );
        assert_eq!(
            page.find(&input).await?.attr(PENDING).await?.as_deref(),
            Some(PendingAction::Enter.attribute()),
            "the first wasm kept the Enter"
        );

        let text = wait_for_entry(&page, 1, &get, Duration::from_secs(30)).await?;
        assert!(text.contains("get resource:lock"), "{text}");
        assert_eq!(
            page.count(&within(CONSOLE, ".console-entry")).await?,
            1,
            "the kept Enter ran the line once"
        );
        assert_eq!(
            page.count(PENDING_SELECTOR).await?,
            0,
            "nothing is left to replay"
        );
        assert_eq!(
            page.find(&input).await?.prop("value").await?.as_deref(),
            Some(""),
            "the prompt is cleared"
        );
        let focused = page
            .client
            .execute(
                "return document.activeElement === document.querySelector(arguments[0]);",
                vec![serde_json::json!(input)],
            )
            .await?;
        assert_eq!(
            focused,
            serde_json::json!(true),
            "the focus stays in the prompt"
        );
        Ok(())
    });
}
