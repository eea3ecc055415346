//! The tables the benchmark prints, from the measurements the other modules return: the main
//! table (weight, loads, lab chunks, reaches), the slowest reaches, the harness's floor, the lock
//! checker and the live controls. Only formatting: nothing here touches the browser.

use lockdive_contract::lab::LabChunk;

use crate::checker::{CheckRun, CHECK_ROUNDS};
use crate::live::{LiveControls, CONSOLE_LINES};
use crate::loads::Loads;
use crate::reaches::{HoverCost, Reach, LOOP_HOVERS};
use crate::{percentile, HOVERS, LOADS, THROTTLE};

/// gzip bytes per file kind.
type Weight = [(&'static str, u64)];
/// gzip bytes per file kind of each lab chunk.
type LabWeights = [(LabChunk, Vec<(&'static str, u64)>)];
/// ms from a reach for each lab chunk's parts to the chunk being live.
type LabTimes = [(LabChunk, f64)];
/// Per hover: ms to the readout's change, None if it never changed.
type Hovers = [Option<f64>];
/// Per reach, in `Reach::ALL`'s order: each try's ms to the readout's change.
type Reaches = [Vec<Option<f64>>];

/// The frame-rate target for every live control, at `THROTTLE`× CPU (issue: "live controls at
/// frame rate").
const FRAME_MS: f64 = 16.0;

/// `p50 / p99 / max`, with how many inputs changed nothing; `judged`: marks a p99 over
/// `FRAME_MS` (the target is at `THROTTLE`×).
fn control_cell(times: &[Option<f64>], judged: bool) -> String {
    let mut measured: Vec<f64> = times.iter().flatten().copied().collect();
    if measured.is_empty() {
        return format!("no change in {} inputs", times.len());
    }
    let missed = times.len() - measured.len();
    let p50 = percentile(&mut measured, 50.0);
    let p99 = percentile(&mut measured, 99.0);
    let max = percentile(&mut measured, 100.0);
    let mut cell = format!("{p50:.1} / {p99:.1} / {max:.1} ms");
    if judged && p99 >= FRAME_MS {
        cell.push_str(" **over**");
    }
    if missed > 0 {
        cell.push_str(&format!(" ({missed} missed)"));
    }
    cell
}

/// The five slowest inputs of a run, each named by `name(index)`: is the tail a few cold
/// inputs, or one kind of input that is always slow?
fn slowest(times: &[Option<f64>], name: impl Fn(usize) -> String) -> String {
    let mut ranked: Vec<(usize, f64)> = times
        .iter()
        .enumerate()
        .filter_map(|(i, t)| t.map(|t| (i, t)))
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked
        .iter()
        .take(5)
        .map(|(i, t)| format!("#{i} ({}) {t:.1} ms", name(*i)))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn print_live_controls(fast: &LiveControls, slow: &LiveControls) {
    println!(
        "\nlive controls in the lab: input → last DOM change it caused (MutationObserver), p50 / p99 / max"
    );
    println!("| control | inputs | 1× CPU | {THROTTLE}× CPU | target |");
    println!("|---|---:|---|---|---|");
    let rows = [
        (
            "slider step (ArrowRight/ArrowLeft on stall and lease) → player frame",
            &fast.slider,
            &slow.slider,
        ),
        (
            "console: command + Enter → reply line",
            &fast.console,
            &slow.console,
        ),
        (
            "fence commit (writer activated) → readout and log",
            &fast.fence,
            &slow.fence,
        ),
    ];
    for (control, at_1x, at_slow) in rows {
        println!(
            "| {control} | {} | {} | {} | p99 < {FRAME_MS:.0} ms at {THROTTLE}× |",
            at_1x.len(),
            control_cell(at_1x, false),
            control_cell(at_slow, true),
        );
    }
    for (cpu, run) in [("1×", fast), (&format!("{THROTTLE}×"), slow)] {
        println!("\nslowest at {cpu} CPU:");
        println!(
            "  slider steps: {}",
            slowest(&run.slider, |i| run.slider_steps[i].clone())
        );
        println!(
            "  console lines: {}",
            slowest(&run.console, |i| CONSOLE_LINES[i % CONSOLE_LINES.len()]
                .to_string())
        );
        // The log is reset when full, so commit i finds i % MAX_FENCE_COMMITS lines in it.
        println!(
            "  fence commits: {}",
            slowest(&run.fence, |i| format!(
                "log of {}",
                i % lockdive::scenarios::fence::MAX_FENCE_COMMITS
            ))
        );
    }
}

fn hover_cell(times: &[Option<f64>]) -> String {
    let mut measured: Vec<f64> = times.iter().flatten().copied().collect();
    if measured.is_empty() {
        return format!("no readout change in {} hovers", times.len());
    }
    let missed = times.len() - measured.len();
    let p50 = percentile(&mut measured, 50.0);
    let p99 = percentile(&mut measured, 99.0);
    let mut cell = format!("{p50:.2} / {p99:.2} ms");
    if missed > 0 {
        cell.push_str(&format!(" ({missed} missed)"));
    }
    cell
}

/// Which reaches the tail is made of: a p99 from one cold first reach reads differently from
/// a target that is always slow. Reaches go round the five targets in page order.
pub fn print_slowest(fast: &Reaches, slow: &Reaches) {
    for (times, rate) in [(fast, 1.0), (slow, THROTTLE)] {
        println!("\nslowest at {rate}× CPU:");
        for (reach, times) in Reach::ALL.iter().zip(times) {
            let tail = slowest(times, |i| format!("target {}", i % 5));
            println!("  {}: {tail}", reach.name());
        }
    }
}

/// The page's reach rows alone, at both speeds (a `PAGEBENCH_ONLY=reaches` run).
pub fn print_reach_rows(fast: &Reaches, slow: &Reaches) {
    println!("\nreach → readout on the page's choices ({HOVERS} of each):");
    reach_rows(fast, slow);
}

/// The harness's floor: each reach on its own choice on the empty page, at both speeds.
pub fn print_harness_floor(fast: &Reaches, slow: &Reaches) {
    println!("\nthe harness's floor (its own choice on an empty page; {HOVERS} of each):");
    reach_rows(fast, slow);
}

/// One row per reach: p50 / p99 at 1× and at `THROTTLE`×.
fn reach_rows(fast: &Reaches, slow: &Reaches) {
    println!("| reach | 1× CPU p50 / p99 | {THROTTLE}× CPU p50 / p99 |");
    println!("|---|---|---|");
    for ((reach, fast), slow) in Reach::ALL.iter().zip(fast).zip(slow) {
        println!(
            "| {} | {} | {} |",
            reach.name(),
            hover_cell(fast),
            hover_cell(slow)
        );
    }
}

/// The hover's cost in a loop, beside the harness's own button.
pub fn print_hover_cost(fast: &HoverCost, slow: &HoverCost) {
    println!(
        "\nthe hover's cost in a loop ({LOOP_HOVERS} `pointerenter`s dispatched round the same \
         choices, the event's construction and dispatch included), µs per hover:"
    );
    println!("| handler | 1× CPU | {THROTTLE}× CPU |");
    println!("|---|---|---|");
    println!(
        "| the first wasm's, on the page's choices | {:.1} µs | {:.1} µs |",
        fast.page_us, slow.page_us
    );
    println!(
        "| the harness's own button (writes one text node) | {:.1} µs | {:.1} µs |",
        fast.own_us, slow.own_us
    );
}

fn kb(bytes: u64) -> String {
    format!("{:.1} KB", bytes as f64 / 1000.0)
}

fn weight_cell(sizes: &[(&str, u64)]) -> String {
    let total: u64 = sizes.iter().map(|(_, b)| b).sum();
    let parts: Vec<String> = sizes
        .iter()
        .map(|(k, b)| format!("{k} {}", kb(*b)))
        .collect();
    format!("{} ({})", kb(total), parts.join(" + "))
}

pub fn print_table(
    prerendered: bool,
    weights: (&Weight, &Weight),
    lab: (&LabWeights, &LabTimes),
    loads: (&Loads, &Loads),
    reaches: (&Reaches, &Reaches, &Hovers),
) {
    let mut rows = vec![
        (
            "page weight, gzip -9".to_string(),
            weight_cell(weights.0),
            weight_cell(weights.1),
            "≤ 120 KB in all",
        ),
        (
            format!("first contentful paint, {THROTTLE}× CPU (median of {LOADS})"),
            format!("{:.0} ms", loads.0.first_paint_ms),
            format!("{:.0} ms", loads.1.first_paint_ms),
            "not waiting for the wasm",
        ),
        (
            format!("figures interactive, {THROTTLE}× CPU (median of {LOADS})"),
            format!("{:.0} ms", loads.0.ready_ms),
            format!("never (load event {:.0} ms)", loads.1.ready_ms),
            "",
        ),
    ];
    // Each reach at both speeds; only a hover is tried on the static floor, where nothing
    // answers any of them.
    let (fast, slow, floor_hover) = reaches;
    for (i, reach) in Reach::ALL.iter().enumerate() {
        let name = reach.name();
        rows.push((
            format!("{name} → readout p50 / p99, {HOVERS} × {name}, 1× CPU"),
            hover_cell(&fast[i]),
            if *reach == Reach::Hover {
                hover_cell(floor_hover)
            } else {
                "—".to_string()
            },
            "",
        ));
        rows.push((
            format!("{name} → readout p50 / p99, {HOVERS} × {name}, {THROTTLE}× CPU"),
            hover_cell(&slow[i]),
            "—".to_string(),
            "p99 < 4 ms",
        ));
    }
    // Each lab chunk's weight and time to live, after the page-load rows.
    let (lab_weights, lab_ms) = lab;
    let lab_rows = lab_weights.iter().flat_map(|(chunk, weight)| {
        let (parts, reach) = match chunk {
            LabChunk::Figures => ("player, fence", "the player"),
            LabChunk::Store => ("whole store, consoles", "a console"),
            LabChunk::Check => ("whole store, lock checker", "a lock in the checker"),
        };
        let ms = lab_ms
            .iter()
            .find(|(c, _)| c == chunk)
            .map_or(f64::NAN, |(_, ms)| *ms);
        [
            (
                format!(
                    "lab chunk `{}` ({parts}), gzip -9, fetched on first reach",
                    chunk.bin()
                ),
                weight_cell(weight),
                "—".to_string(),
                "not on the page load",
            ),
            (
                format!(
                    "reach for {reach} → `{}` live, {THROTTLE}× CPU (median of {LOADS})",
                    chunk.bin()
                ),
                format!("{ms:.0} ms"),
                "—".to_string(),
                "",
            ),
        ]
    });
    let after_loads = 3;
    rows.splice(after_loads..after_loads, lab_rows);
    let floor = if prerendered {
        "static floor (prerendered HTML, no scripts)"
    } else {
        "static floor (DOM after mount, scripts removed)"
    };
    println!("| measure | release build (wasm) | {floor} | target |");
    println!("|---|---|---|---|");
    for (measure, live, stat, target) in rows {
        println!("| {measure} | {live} | {stat} | {target} |");
    }
}

pub fn print_check_lock(fast: &[CheckRun], slow: &[CheckRun]) {
    println!(
        "\nlock checker in the lab (default bound, best of {CHECK_ROUNDS}; frame gap: the worst over all rounds)"
    );
    println!(
        "| lock | states | schedules | 1× CPU: ms | schedules/s | max frame gap | {THROTTLE}× CPU: ms | max frame gap |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for run in fast {
        let slow = slow.iter().find(|s| s.lock == run.lock);
        println!(
            "| {} | {} | {} | {:.0} | {:.0} | {:.0} ms | {} | {} |",
            run.lock,
            run.states,
            run.schedules,
            run.ms,
            run.schedules as f64 / (run.ms.max(1.0) / 1000.0),
            run.max_frame_gap_ms,
            slow.map_or("—".to_string(), |s| format!("{:.0}", s.ms)),
            slow.map_or("—".to_string(), |s| format!(
                "{:.0} ms",
                s.max_frame_gap_ms
            )),
        );
    }
}
