//! The same benchmark tool against both servers: `redis-benchmark` (50 clients, loopback) runs
//! `-t set,get,incr,lpush,zadd` and EVALSHA of the page's token-checked release, without and
//! with `-P 64` pipelining, against `ministore serve` (started in this process on a free port)
//! and against a redis-server it starts, and prints one table with the ratio per row.
//!
//! Run: `cargo run --profile native-bench -p ministore --example serve_bench` (add `-- -n N` to
//! change the requests per test, 100000 by default). There is no target: the table is a
//! measurement.

use std::process::{Command, ExitCode};

use ministore::serve::{ClockMode, Config, Server};
use redis_oracle::{require, required, RedisServer};

/// The brief's safe release (§2), exactly as the page ships it.
const RELEASE: &str = include_str!("../../src/scenarios/lua/release.lua");

/// redis-benchmark's concurrent connections, as the issue asks.
const CLIENTS: &str = "50";

fn main() -> ExitCode {
    let requests = std::env::args()
        .skip_while(|a| a != "-n")
        .nth(1)
        .unwrap_or_else(|| "100000".to_string());
    // The oracle's policy for a missing program: a panic under CI=true, one line and exit 2 here.
    if require("redis-benchmark").is_none() {
        return ExitCode::from(2);
    }
    let Some(redis) = required(RedisServer::start()) else {
        return ExitCode::from(2);
    };
    let ministore_port = match start_ministore() {
        Ok(port) => port,
        Err(err) => {
            eprintln!("serve_bench: {err}");
            return ExitCode::from(2);
        }
    };
    let sha = sha1_smol::Sha1::from(RELEASE).digest().to_string();
    for port in [ministore_port, redis.port()] {
        let loaded = redis_cli(port, &["SCRIPT", "LOAD", RELEASE]);
        if loaded != sha {
            eprintln!("serve_bench: SCRIPT LOAD on port {port} replied {loaded:?}, expected {sha}");
            return ExitCode::from(2);
        }
    }

    println!(
        "redis-benchmark -c {CLIENTS} -n {requests}, loopback; ministore serve (real clock) vs {}",
        redis_version()
    );
    println!();
    println!(
        "| test                   | pipeline | ministore ops/s | redis-server ops/s | ratio |"
    );
    println!(
        "|------------------------|----------|-----------------|--------------------|-------|"
    );
    for pipeline in ["1", "64"] {
        let ours = run_suite(ministore_port, &requests, pipeline, &sha);
        let theirs = run_suite(redis.port(), &requests, pipeline, &sha);
        for (name, redis_rps) in &theirs {
            let ministore_rps = ours.iter().find(|(n, _)| n == name).map(|(_, r)| *r);
            let shown = ministore_rps.map_or("n/a".to_string(), |r| format!("{r:.0}"));
            let ratio =
                ministore_rps.map_or("n/a".to_string(), |r| format!("{:.2}", r / redis_rps));
            println!(
                "| {name:<22} | {pipeline:>8} | {shown:>15} | {redis_rps:>18.0} | {ratio:>5} |"
            );
        }
    }
    println!();
    for (port, name) in [
        (ministore_port, "ministore"),
        (redis.port(), "redis-server"),
    ] {
        let checks = [
            redis_cli(port, &["TYPE", "mylist"]),
            redis_cli(port, &["TYPE", "myzset"]),
        ];
        println!(
            "after the runs on {name}: TYPE mylist = {}, TYPE myzset = {}",
            checks[0], checks[1]
        );
    }
    let _ = redis_cli(ministore_port, &["SHUTDOWN", "NOSAVE"]);
    ExitCode::SUCCESS
}

/// The whole suite against one port: (test name, requests per second) per test.
fn run_suite(port: u16, requests: &str, pipeline: &str, sha: &str) -> Vec<(String, f64)> {
    let port = port.to_string();
    let common = [
        "-p", &port, "-c", CLIENTS, "-n", requests, "-P", pipeline, "--csv",
    ];
    // One run per test: redis-benchmark stops at the first error reply, and a command the
    // server lacks must cost only its own row.
    let mut results = Vec::new();
    for test in ["set", "get", "incr", "lpush", "zadd"] {
        results.extend(redis_benchmark(&common, &["-t", test]));
    }
    let release = redis_benchmark(&common, &["EVALSHA", sha, "1", "resource:lock", "abc"]);
    results.extend(
        release
            .into_iter()
            .map(|(_, rps)| ("EVALSHA release".to_string(), rps)),
    );
    results
}

/// Runs redis-benchmark with `--csv` and reads `"TEST","rps",…` lines.
fn redis_benchmark(common: &[&str], test: &[&str]) -> Vec<(String, f64)> {
    let output = match Command::new("redis-benchmark")
        .args(common)
        .args(test)
        .output()
    {
        Ok(output) => output,
        Err(err) => {
            eprintln!("serve_bench: redis-benchmark failed to start: {err}");
            return Vec::new();
        }
    };
    let text = String::from_utf8_lossy(&output.stdout);
    text.lines()
        .filter_map(|line| {
            let mut fields = line.split(',').map(|f| f.trim_matches('"'));
            let name = fields.next()?.to_string();
            let rps: f64 = fields.next()?.parse().ok()?;
            Some((name, rps))
        })
        .collect()
}

fn redis_cli(port: u16, args: &[&str]) -> String {
    redis_oracle::redis_cli(port, args)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

fn redis_version() -> String {
    Command::new("redis-server")
        .arg("--version")
        .output()
        .map(|o| {
            let text = String::from_utf8_lossy(&o.stdout).to_string();
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// `ministore serve` in this process on a free port; it stops with the process.
fn start_ministore() -> Result<u16, String> {
    let config = Config {
        port: 0,
        clock: ClockMode::Real,
        ..Config::default()
    };
    let server = Server::bind(&config).map_err(|e| format!("bind: {e}"))?;
    let port = server.local_addr().map_err(|e| e.to_string())?.port();
    std::thread::spawn(move || server.run());
    Ok(port)
}
