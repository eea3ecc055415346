//! The lock checker's section and figure, natively: where the section sits, that the sentences it
//! states about outcomes are what the explorer finds for every catalogue lock, and that the
//! figure's announced summary is read off the report.
#![cfg(not(target_arch = "wasm32"))]

use lockdive::components::figures::check_lock::{bound_words, summary};
use lockdive::content::check_lock::{lesson, CUSTOM_CONVENTION, SECTION};
use lockdive::content::DIVE;
use std::sync::OnceLock;

use lockdive::scenarios::lockcheck::{
    catalogue, check, Bound, CheckReport, FencingSource, LockSpec, Property, Verdict,
};
use lockdive::scenarios::RELEASE_SCRIPT;

/// Every catalogue lock with its report under the default bound, explored once for the tests
/// that read them all.
fn catalogue_reports() -> &'static [(LockSpec, CheckReport)] {
    static REPORTS: OnceLock<Vec<(LockSpec, CheckReport)>> = OnceLock::new();
    REPORTS.get_or_init(|| {
        catalogue::all()
            .into_iter()
            .map(|spec| {
                let report = check(&spec, Bound::default()).expect("checks");
                (spec, report)
            })
            .collect()
    })
}

#[test]
fn the_checker_comes_after_s5_and_the_briefs_sections_keep_their_numbers() {
    let order: Vec<&str> = DIVE.in_page_order().iter().map(|s| s.id).collect();
    assert_eq!(order, ["s1", "s2", "s3", "s4", "s5", "check", "s6"]);
    let numbers: Vec<&str> = DIVE.sections.iter().map(|s| s.number).collect();
    assert_eq!(numbers, ["§1", "§2", "§3", "§4", "§5", "§6"]);
    assert_eq!(SECTION.id, "check");
}

#[test]
fn each_property_points_to_the_section_that_teaches_it_and_the_stall_to_the_fence() {
    for property in Property::ALL {
        assert!(
            lesson(property).contains("](#s"),
            "{property:?} links a section"
        );
    }
    assert!(lesson(Property::ExclusionAcrossStall).contains("[§3](#s3)"));
    assert!(lesson(Property::FencedWrites).contains("[§3](#s3)"));
    assert!(lesson(Property::NeverDeletesAnothers).contains("[§1](#s1)"));
}

/// "a lease cannot stop it; the fence at the resource does": every catalogue lock breaks the
/// stall property, and of them only a lock that hands out a fencing token keeps fenced writes.
#[test]
fn the_stall_lesson_is_what_the_explorer_finds_for_every_catalogue_lock() {
    let mut fenced_seen = false;
    for (spec, report) in catalogue_reports() {
        assert_eq!(
            report.verdict(Property::ExclusionAcrossStall),
            Verdict::Broken,
            "{}: a lease alone stops a stalled holder?",
            spec.id
        );
        let fenced = spec.fencing != FencingSource::None;
        fenced_seen |= fenced;
        assert_eq!(
            report.verdict(Property::FencedWrites) == Verdict::Holds,
            fenced,
            "{}: fenced writes hold exactly when the lock hands out a fencing token",
            spec.id
        );
    }
    assert!(fenced_seen, "the catalogue has a fenced lock");
}

/// The custom entry's promise: the calling convention as the page states it runs §2's release
/// to the same verdicts as the catalogue's token-checked lock.
#[test]
fn the_token_checked_release_pasted_as_a_custom_lock_gets_the_same_verdicts() {
    assert!(CUSTOM_CONVENTION.contains("`KEYS[1]`") && CUSTOM_CONVENTION.contains("`ARGV[1]`"));
    let spec = catalogue::by_id("token-checked").expect("in the catalogue");
    let pasted =
        LockSpec::custom(None, RELEASE_SCRIPT, None, spec.ttl_ms).expect("the release parses");
    let want = check(&spec, Bound::default()).expect("checks");
    let got = check(&pasted, Bound::default()).expect("checks");
    let verdicts = |r: &lockdive::scenarios::lockcheck::CheckReport| {
        r.properties.iter().map(|p| p.verdict).collect::<Vec<_>>()
    };
    assert_eq!(verdicts(&got), verdicts(&want));
}

#[test]
fn a_script_that_does_not_compile_is_refused_with_ministores_error() {
    let error = LockSpec::custom(None, "return redis.call('DEL', KEYS[1]", None, 10_000)
        .expect_err("a broken script is refused");
    assert!(error.to_string().contains("release"), "{error}");
}

#[test]
fn the_summary_counts_and_names_what_the_report_says() {
    for (spec, report) in catalogue_reports() {
        let said = summary(&spec.name, report);
        let holding = report
            .properties
            .iter()
            .filter(|p| p.verdict == Verdict::Holds)
            .count();
        assert!(
            said.contains(&format!(
                "{holding} of 5 properties hold over {} schedules",
                report.schedules
            )),
            "{said}"
        );
        // A property that holds only because the lock lacks what it judges is counted as such.
        let vacuous: Vec<&str> = report
            .properties
            .iter()
            .filter_map(|p| p.holds_only_because())
            .collect();
        if let [why] = vacuous.as_slice() {
            assert!(
                said.contains(&format!("one of them only because {why}")),
                "{said}"
            );
        }
        if spec.extend.is_none() {
            assert!(
                said.contains("only because the lock has no extend"),
                "{said}"
            );
        }
        for p in &report.properties {
            assert_eq!(
                said.contains(p.property.label()),
                p.verdict == Verdict::Broken,
                "{said} / {:?}",
                p.property
            );
        }
    }
}

#[test]
fn the_caption_states_the_explorers_default_bound() {
    let bound = Bound::default();
    let words = bound_words(bound);
    assert!(words.contains(&format!(
        "{} clients",
        ["no", "one", "two", "three", "four"][usize::from(bound.clients)]
    )));
}

/// A lock whose step answers an error only in some interleavings is checked, and the summary
/// says so, with the store's error, read off the report.
#[test]
fn the_summary_says_when_a_step_of_the_lock_answered_an_error() {
    let release = "if redis.call('GET', KEYS[1]) ~= ARGV[1] then return redis.error_reply('ERR not mine') end \
return redis.call('DEL', KEYS[1])";
    let spec = LockSpec::custom(None, release, None, 10_000).expect("parses");
    let report = check(&spec, Bound::default()).expect("one client alone never sees the error");
    let fault = report
        .script_error
        .as_ref()
        .expect("a stall lets another take the key, so some release answers the error");
    let said = summary(&report.lock_name, &report);
    assert!(said.contains("answered an error"), "{said}");
    assert!(said.contains(&fault.error), "{said}");
}

#[test]
fn each_librarys_scripts_link_its_licence_files_and_the_copies_here_keep_them() {
    use lockdive::components::figures::check_lock::scripts::lock_scripts;
    for spec in catalogue::all() {
        let Some(provenance) = &spec.provenance else {
            continue;
        };
        assert!(!provenance.licence_files.is_empty(), "{}", spec.id);
        let html = lock_scripts(&spec).finish();
        for file in provenance.licence_files {
            let href = format!(
                "href=\"https://{}/blob/{}/{file}\"",
                provenance.repository, provenance.snapshot_commit
            );
            assert!(html.contains(&href), "{}: {href}", spec.id);
        }
        // A folder of the library's scripts carries its licence, and its notice file where the
        // library has one (Apache-2.0 asks for both to go with copies).
        if let Some(folder) = provenance.local_copy.strip_suffix('/') {
            let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
            assert!(folder.join("LICENSE").is_file(), "{}", spec.id);
            let has_notice = provenance
                .licence_files
                .iter()
                .any(|f| f.to_ascii_lowercase().contains("notice"));
            assert_eq!(folder.join("NOTICE").is_file(), has_notice, "{}", spec.id);
        }
    }
}

/// Schedules are counted as exploring reaches its last states: while it runs, and when it stopped
/// at its cap, the live line and the summary speak of the states explored, not of 0 schedules.
#[test]
fn a_run_in_progress_or_stopped_at_the_cap_counts_states_not_schedules() {
    use lockdive::components::figures::check_lock::explore::line;
    use lockdive::components::figures::check_lock::{CheckState, Counts};
    use lockdive::scenarios::lockcheck::Explorer;
    use std::sync::Arc;

    let spec = catalogue::by_id("redisson").expect("entry");
    let mut explorer = Explorer::new(&spec, Bound::default()).expect("valid");
    explorer.set_state_cap(500);
    let mut progress = explorer.run(64);
    let running = Counts::of(progress, 12.0);
    assert_eq!(
        running.schedules, 0,
        "no schedule is counted before the last states"
    );
    assert_eq!(
        line(&CheckState::Running(running)),
        format!("explored {} states in 12 ms so far…", running.states)
    );
    while !progress.done {
        progress = explorer.run(64);
    }
    let report = explorer.report();
    assert!(report.cap_reached);
    let counts = Counts::of(progress, 40.0);
    let said = line(&CheckState::Done(Arc::new(report.clone()), counts));
    assert_eq!(
        said,
        format!(
            "explored {} states in 40 ms, stopped at the cap before every schedule was counted",
            report.states
        )
    );
    let summary = summary(&spec.name, &report);
    assert!(
        summary.contains(&format!("over the {} states explored", report.states)),
        "{summary}"
    );
    assert!(!summary.contains("over 0 schedules"), "{summary}");
}

/// The lease field: a whole number outside 1 ms to a day gets the range, whatever its size or
/// sign; anything else is not a whole number.
#[test]
fn the_custom_lease_field_says_range_for_whole_numbers_and_form_for_the_rest() {
    use lockdive::components::figures::check_lock::custom::custom_spec;
    let lease = |text: &str| custom_spec("", RELEASE_SCRIPT, "", text).map(|spec| spec.ttl_ms);
    assert_eq!(lease(" 30000 "), Ok(30_000));
    for out_of_range in ["0", "86400001", "-1", "99999999999999999999"] {
        assert_eq!(
            lease(out_of_range),
            Err(format!(
                "the lease must be 1 to 86400000 ms, not {out_of_range}"
            )),
        );
    }
    for malformed in ["ten", "1.5", "-", ""] {
        assert_eq!(
            lease(malformed),
            Err(format!(
                "the lease must be a whole number of milliseconds, not {malformed:?}"
            )),
        );
    }
}
