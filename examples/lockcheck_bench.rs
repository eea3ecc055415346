//! The lock checker's native benchmark: for every catalogue entry, how long the default bound
//! takes to explore, as schedules and states per second.
//!
//! `cargo run --profile native-bench --example lockcheck_bench` (the release profile is tuned for
//! wasm size). `-- --stalls N --clients N --attempts N` explores another bound.

use std::time::Instant;

use lockdive::scenarios::lockcheck::{catalogue, Bound, Explorer};

fn main() {
    let mut bound = Bound::default();
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).and_then(|v| v.parse::<u8>().ok());
        match (pair[0].as_str(), value) {
            ("--stalls", Some(n)) => bound.stalls = n,
            ("--clients", Some(n)) => bound.clients = n,
            ("--attempts", Some(n)) => bound.acquire_attempts = n,
            _ => {
                eprintln!("usage: lockcheck_bench [--stalls N] [--clients N] [--attempts N]");
                std::process::exit(2);
            }
        }
    }
    println!(
        "bound: {} clients, {} stall(s), {} acquire attempt(s)",
        bound.clients, bound.stalls, bound.acquire_attempts
    );
    println!(
        "{:<14} {:>9} {:>11} {:>9} {:>14} {:>12}",
        "lock", "states", "schedules", "ms", "schedules/s", "states/s"
    );
    for spec in catalogue::all() {
        let mut explorer = match Explorer::new(&spec, bound) {
            Ok(explorer) => explorer,
            Err(error) => {
                eprintln!("{}: {error}", spec.id);
                std::process::exit(2);
            }
        };
        // Best of three runs: the first pays for cold caches.
        let mut best = f64::INFINITY;
        let mut report = None;
        for _ in 0..3 {
            let mut fresh = match Explorer::new(&spec, bound) {
                Ok(explorer) => explorer,
                Err(_) => break,
            };
            let started = Instant::now();
            while !fresh.run(usize::MAX).done {}
            best = best.min(started.elapsed().as_secs_f64());
            explorer = fresh;
        }
        report.get_or_insert(explorer.report());
        let Some(report) = report else { continue };
        println!(
            "{:<14} {:>9} {:>11} {:>9.1} {:>14.0} {:>12.0}",
            spec.id,
            report.states,
            report.schedules,
            best * 1000.0,
            report.schedules as f64 / best,
            report.states as f64 / best,
        );
    }
}
