//! End-to-end steps for the lock checker (`#check`) on the real release build, run by
//! ./scripts/test.sh with `LOCKDIVE_DIST` (see the harness, `e2e/src/lib.rs`): the real pointer picks each catalogue
//! lock (the first pick before the lab is live, kept and replayed), and every verdict row and the
//! live line must be the native explorer's report for it; keyboard and touch pick too; a broken
//! property's counterexample opens and steps by button and keyboard; a pasted token-checked release
//! gets token-checked's verdicts, and a pasted WATCH/MULTI/EXEC release the native explorer's; a
//! script that does not compile gets ministore's error inline.

use std::time::{Duration, Instant};

use fantoccini::key::Key;
use lockdive::components::figures::check_lock::hooks::{self, FIGURE};
use lockdive::scenarios::cli_text;
use lockdive::scenarios::lockcheck::{
    catalogue, check, Bound, CheckReport, LockSpec, Property, Verdict,
};
use lockdive::scenarios::RELEASE_SCRIPT;
use lockdive_e2e::{normalize, with_page, E2eResult, Page};
use serde_json::json;

/// A release pasted as command lines: WATCH, GET compared with the token (UNWATCH when it is
/// another's), then MULTI, DEL, EXEC.
const TRANSACTION_RELEASE: &str =
    "WATCH {key}\nGET {key} == {token} else UNWATCH\nMULTI\nDEL {key}\nEXEC";

/// How long one exploration may take in the browser here (the default bound takes well under a
/// second in the benchmark; the shared test machine is slower).
const EXPLORE_WAIT: Duration = Duration::from_secs(60);

fn within(target: &str) -> String {
    format!("{FIGURE} {target}")
}

/// The native explorer's report for a catalogue lock: what the page must show.
fn native(id: &str) -> CheckReport {
    let spec = catalogue::by_id(id).expect("in the catalogue");
    check(&spec, Bound::default()).expect("checks")
}

/// A JSON value the page computes.
async fn js(page: &Page, script: &str) -> E2eResult<serde_json::Value> {
    Ok(page.client.execute(script, vec![]).await?)
}

/// Waits until the live line says the exploration is done; returns its text.
async fn wait_until_explored(page: &Page) -> E2eResult<String> {
    let started = Instant::now();
    loop {
        let done = js(
            page,
            &format!(
                "const e = document.querySelector('{}'); \
                 return e && e.dataset.state === 'done' ? e.innerText : null;",
                within(hooks::PROGRESS)
            ),
        )
        .await?;
        if let Some(text) = done.as_str() {
            return Ok(text.to_string());
        }
        if started.elapsed() > EXPLORE_WAIT {
            let error = page
                .text_of(&within(hooks::ERROR))
                .await
                .unwrap_or_default();
            return Err(
                format!("the exploration did not finish in {EXPLORE_WAIT:?} {error}").into(),
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The verdict rows as (property hook, verdict hook), in page order.
async fn shown_verdicts(page: &Page) -> E2eResult<Vec<(String, String)>> {
    let rows = js(
        page,
        &format!(
            "return [...document.querySelectorAll('{}')].map(r => [r.dataset.property, r.dataset.verdict]);",
            within(hooks::PROPERTIES)
        ),
    )
    .await?;
    Ok(rows
        .as_array()
        .ok_or("no rows")?
        .iter()
        .map(|r| {
            (
                r[0].as_str().unwrap_or_default().to_string(),
                r[1].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect())
}

fn expected_verdicts(report: &CheckReport) -> Vec<(String, String)> {
    report
        .properties
        .iter()
        .map(|p| (p.property.hook().to_string(), p.verdict.hook().to_string()))
        .collect()
}

/// After a pick: the rows, the live line and the announcement are the native report's.
async fn assert_shows_report(page: &Page, id: &str, report: &CheckReport) -> E2eResult {
    let line = wait_until_explored(page).await?;
    assert!(
        line.contains(&format!(
            "explored {} schedules ({} states)",
            report.schedules, report.states
        )),
        "{id}: the live line {line:?} vs the native {} schedules, {} states",
        report.schedules,
        report.states
    );
    assert_eq!(
        shown_verdicts(page).await?,
        expected_verdicts(report),
        "{id}: the page's verdicts vs the native explorer's"
    );
    let readout = normalize(&page.text_of(&within(hooks::READOUT)).await?);
    let holding = report
        .properties
        .iter()
        .filter(|p| p.verdict == Verdict::Holds)
        .count();
    assert!(
        readout.contains(&format!(
            "{holding} of 5 properties hold over {} schedules",
            report.schedules
        )),
        "{id}: the announcement says {readout:?}"
    );
    Ok(())
}

#[test]
fn picking_each_catalogue_lock_shows_the_native_explorers_verdicts() {
    let locks: Vec<LockSpec> = catalogue::all();
    let reports: Vec<CheckReport> = locks.iter().map(|s| native(&s.id)).collect();
    with_page(|page| async move {
        assert_eq!(page.count(FIGURE).await?, 1);
        let live = page
            .find(&within(hooks::READOUT))
            .await?
            .attr("aria-live")
            .await?;
        assert_eq!(live.as_deref(), Some("polite"));
        // The first pick is made before the lab is live: the first wasm keeps the click for it.
        assert_eq!(
            page.lab_state().await?,
            None,
            "the lab is not asked for yet"
        );
        for (index, (spec, report)) in locks.iter().zip(&reports).enumerate() {
            let button = within(&hooks::lock(&spec.id));
            match index {
                // A finger, then the keyboard, for two of them; the mouse for the rest.
                1 => page.tap(&button).await?,
                2 => {
                    page.client
                        .execute(
                            "document.querySelector(arguments[0]).focus();",
                            vec![json!(button)],
                        )
                        .await?;
                    page.press(Key::Enter).await?;
                }
                _ => page.click(&button).await?,
            }
            if index == 0 {
                page.wait_for_lab().await?;
            }
            assert_shows_report(&page, &spec.id, report).await?;
            // The stall property's note points to §3's fence.
            let stall = within(&format!(
                "{} a[href=\"#s3\"]",
                hooks::property(Property::ExclusionAcrossStall.hook())
            ));
            assert!(
                page.count(&stall).await? >= 1,
                "{}: the stall row links §3",
                spec.id
            );
            let pressed = page.find(&button).await?.attr("aria-pressed").await?;
            assert_eq!(pressed.as_deref(), Some("true"), "{} is pressed", spec.id);
            // Its scripts as they run, with the provenance of a library's.
            let scripts = page.text_of(&within(hooks::SCRIPTS)).await?;
            assert!(scripts.contains(&spec.key), "{}: the key is shown", spec.id);
            if let Some(provenance) = &spec.provenance {
                let credit = page.text_of(&within(hooks::PROVENANCE)).await?;
                for part in [
                    provenance.repository,
                    provenance.snapshot_commit,
                    provenance.licence,
                ] {
                    assert!(credit.contains(part), "{}: provenance says {part}", spec.id);
                }
            }
        }
        page.screenshot(FIGURE, "check-lock-picked").await?;
        Ok(())
    });
}

#[test]
fn a_broken_propertys_counterexample_opens_and_steps_in_the_player() {
    let report = native("blind-del");
    let property = Property::NeverDeletesAnothers;
    let steps = report
        .property(property)
        .counterexample
        .clone()
        .expect("blind DEL deletes another's lock")
        .steps;
    assert!(steps.len() >= 2);
    with_page(|page| async move {
        page.click(&within(&hooks::lock("blind-del"))).await?;
        page.wait_for_lab().await?;
        wait_until_explored(&page).await?;
        page.click(&within(&hooks::open_counterexample(property.hook())))
            .await?;
        page.wait_for_text(
            &within(hooks::STEP_NOW),
            &[&format!("Step 1 of {}", steps.len())],
            Duration::from_secs(5),
        )
        .await?;
        assert_eq!(
            page.count(&within(hooks::COUNTEREXAMPLE_STEPS)).await?,
            steps.len()
        );
        let list = normalize(&page.text_of(&within(hooks::COUNTEREXAMPLE)).await?);
        for step in &steps {
            assert!(
                list.contains(&normalize(&step.sent.short)),
                "the list shows {}",
                step.sent.short
            );
            assert!(list.contains(&normalize(&cli_text(&step.sent.reply))));
        }
        // Forward by the button: step 2, its clock and its keys.
        page.click(&within(hooks::STEP_FORWARD)).await?;
        page.wait_for_text(
            &within(hooks::STEP_NOW),
            &[&format!("Step 2 of {}", steps.len()), &steps[1].note],
            Duration::from_secs(5),
        )
        .await?;
        let clock = page.text_of(&within(hooks::STEP_CLOCK)).await?;
        assert_eq!(clock, format!("t = {} ms", steps[1].clock_ms));
        // The keyboard: End on the step list jumps to the breaking step.
        page.client
            .execute(
                "document.querySelector(arguments[0]).focus();",
                vec![json!(within("[data-counterexample] ol"))],
            )
            .await?;
        page.press(Key::End).await?;
        let last = steps.last().expect("steps");
        page.wait_for_text(
            &within(hooks::STEP_NOW),
            &[
                &format!("Step {} of {}", steps.len(), steps.len()),
                &last.note,
            ],
            Duration::from_secs(5),
        )
        .await?;
        let keys = normalize(&page.text_of(&within(hooks::STEP_KEYS)).await?);
        for row in &last.keys_after {
            assert!(
                keys.contains(&normalize(&row.key)),
                "the store table shows {}",
                row.key
            );
        }
        page.click(&within(hooks::STEP_BACK)).await?;
        page.wait_for_text(
            &within(hooks::STEP_NOW),
            &[&format!("Step {} of {}", steps.len() - 1, steps.len())],
            Duration::from_secs(5),
        )
        .await?;
        page.screenshot(FIGURE, "check-lock-counterexample").await?;
        Ok(())
    });
}

#[test]
fn a_pasted_release_is_checked_and_a_broken_script_gets_ministores_error_inline() {
    let token_checked = native("token-checked");
    let transaction = LockSpec::custom(None, TRANSACTION_RELEASE, None, 10_000)
        .map(|spec| check(&spec, Bound::default()))
        .expect("parses")
        .expect("checks");
    assert_eq!(
        transaction.verdict(Property::NeverDeletesAnothers),
        Verdict::Holds
    );
    let broken = "return redis.call('DEL', KEYS[1]";
    let refusal = LockSpec::custom(None, broken, None, 10_000)
        .expect_err("does not compile")
        .to_string();
    with_page(|page| async move {
        page.click(&within(&hooks::lock("custom"))).await?;
        page.wait_for_lab().await?;
        let release = within(&hooks::script("release"));
        assert_eq!(page.count(&within(&hooks::script("acquire"))).await?, 1);
        assert_eq!(page.count(&within(&hooks::script("extend"))).await?, 1);
        page.click(&release).await?;
        page.find(&release).await?.send_keys(RELEASE_SCRIPT).await?;
        page.click(&within(hooks::CHECK_BUTTON)).await?;
        let line = wait_until_explored(&page).await?;
        assert!(line.contains(&format!("explored {} schedules", token_checked.schedules)));
        assert_eq!(
            shown_verdicts(&page).await?,
            expected_verdicts(&token_checked),
            "the pasted token-checked release gets token-checked's verdicts"
        );

        // A transaction pasted as command lines, each client on a connection of its own: the
        // native explorer's report for the same text.
        page.find(&release).await?.clear().await?;
        page.find(&release)
            .await?
            .send_keys(TRANSACTION_RELEASE)
            .await?;
        page.click(&within(hooks::CHECK_BUTTON)).await?;
        let explored = format!("explored {} schedules", transaction.schedules);
        page.wait_for_text(&within(hooks::PROGRESS), &[&explored], EXPLORE_WAIT)
            .await?;
        assert_eq!(
            shown_verdicts(&page).await?,
            expected_verdicts(&transaction),
            "the pasted transaction gets the native explorer's verdicts"
        );

        // A script that does not compile: the error inline, the figure still there.
        page.find(&release).await?.clear().await?;
        page.find(&release).await?.send_keys(broken).await?;
        page.click(&within(hooks::CHECK_BUTTON)).await?;
        let error = page
            .wait_for_text(
                &within(hooks::ERROR),
                &["not checked"],
                Duration::from_secs(5),
            )
            .await?;
        assert!(
            error.contains(&normalize(&refusal)),
            "the page says {error:?}, the native check {refusal:?}"
        );
        assert_eq!(
            page.count(&within(hooks::PROPERTIES)).await?,
            0,
            "no stale verdicts"
        );
        assert_eq!(page.count(&within(&hooks::lock("token-checked"))).await?, 1);
        page.screenshot(FIGURE, "check-lock-custom-error").await?;
        Ok(())
    });
}
