//! The lock checker's native benchmark: for every catalogue entry, how long the default bound
//! takes to explore, as schedules and states per second.
//!
//! `cargo run --profile native-bench --example lockcheck_bench` (the release profile is tuned for
//! wasm size). `-- --stalls N --clients N --attempts N` explores another bound.

use std::time::Instant;

use lockdive::scenarios::lockcheck::{catalogue, Bound, Call, Explorer, OpKind};
use ministore::Store;

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
        "{:<18} {:>9} {:>11} {:>9} {:>14} {:>12}",
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
            "{:<18} {:>9} {:>11} {:>9.1} {:>14.0} {:>12.0}",
            spec.id,
            report.states,
            report.schedules,
            best * 1000.0,
            report.schedules as f64 / best,
            report.states as f64 / best,
        );
    }
    clone_cost();
}

/// What one `Store` clone costs (the explorer makes one per step): a store holding a lock key
/// and three cached scripts, the shape of a library lock's states.
fn clone_cost() {
    let mut store = Store::new();
    for spec in catalogue::all().iter().filter(|s| s.id == "redisson") {
        for kind in [OpKind::Acquire, OpKind::Extend, OpKind::Release] {
            for step in spec.op(kind).iter().flat_map(|op| &op.steps) {
                if let Call::Script { text, .. } = &step.call {
                    store.script_load(text);
                }
            }
        }
    }
    store.exec(&[
        "HSET",
        "myLock",
        "6b4c2f0e-8a1d-4e5b-9c3f-0123456789ab:1",
        "1",
    ]);
    store.exec(&["PEXPIRE", "myLock", "30000"]);
    const CLONES: u32 = 200_000;
    let started = Instant::now();
    for _ in 0..CLONES {
        drop(std::hint::black_box(store.clone()));
    }
    let ns = started.elapsed().as_nanos() as f64 / f64::from(CLONES);
    println!("Store clone (one hash key, three cached scripts): {ns:.0} ns");
}
