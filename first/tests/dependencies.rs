//! The first wasm's dependency tree, as `cargo metadata` resolves it for the browser's target,
//! holds neither Leptos nor ministore: what every reader downloads stays small because the
//! compiler never sees those crates, not because the linker drops what went unused.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeSet, HashMap};
use std::process::Command;

use serde_json::Value;

/// Crates the first wasm must never build on.
const FORBIDDEN: [&str; 2] = ["leptos", "ministore"];

/// The names of every package `lockdive-first` builds on for wasm32 (normal and build
/// dependencies, transitively; dev-dependencies are the tests', not the wasm's).
fn first_wasm_dependencies() -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--offline",
            "--filter-platform",
            "wasm32-unknown-unknown",
            "--manifest-path",
            concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"),
        ])
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: Value = serde_json::from_slice(&output.stdout).expect("cargo metadata's JSON");
    let names: HashMap<&str, &str> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter_map(|p| Some((p["id"].as_str()?, p["name"].as_str()?)))
        .collect();
    let nodes: HashMap<&str, &Value> = metadata["resolve"]["nodes"]
        .as_array()
        .expect("a resolved graph")
        .iter()
        .filter_map(|node| Some((node["id"].as_str()?, node)))
        .collect();
    let root = names
        .iter()
        .find(|(_, name)| **name == "lockdive-first")
        .map(|(id, _)| *id)
        .expect("lockdive-first is in the workspace");

    let mut seen = BTreeSet::new();
    let mut to_visit = vec![root];
    while let Some(id) = to_visit.pop() {
        let Some(node) = nodes.get(id) else { continue };
        for dep in node["deps"].as_array().into_iter().flatten() {
            let not_dev_only = dep["dep_kinds"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|kind| kind["kind"].as_str() != Some("dev"));
            let Some(dep_id) = dep["pkg"].as_str() else {
                continue;
            };
            if not_dev_only && seen.insert(names[dep_id].to_string()) {
                to_visit.push(dep_id);
            }
        }
    }
    seen
}

#[test]
fn the_first_wasm_builds_on_neither_leptos_nor_ministore() {
    let dependencies = first_wasm_dependencies();
    assert!(
        dependencies.contains("lockdive-contract") && dependencies.contains("web-sys"),
        "the walk found the first wasm's real dependencies: {dependencies:?}"
    );
    for forbidden in FORBIDDEN {
        let found: Vec<&String> = dependencies
            .iter()
            .filter(|name| *name == forbidden || name.starts_with(&format!("{forbidden}_")))
            .collect();
        assert!(
            found.is_empty(),
            "the first wasm depends on {found:?}: {dependencies:?}"
        );
    }
}
