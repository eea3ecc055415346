//! `INFO [section …]`: Redis 7.0's sections in Redis's order and format (`# Name`, then
//! `field:value` lines, a blank line between sections), each with the fields this server can
//! state truly: what Redis reports of the store, the clients, pub/sub and the process, and the
//! settings a server without persistence, eviction, replication or cluster has (`loading:0`,
//! `maxmemory_policy:noeviction`, `role:master`, `cluster_enabled:0`). Fields that measure
//! Redis's own machinery (memory, CPU, command and error statistics, latency) are left out, as
//! are the sections made of nothing but them. Clients read it on connecting: ioredis's ready
//! check waits while `loading` is 1, and BullMQ reads `redis_version` and `maxmemory_policy`.

use std::sync::atomic::Ordering;
use std::time::{SystemTime, UNIX_EPOCH};

use super::conn::Conn;
use super::lock::lock;
use super::pubsub::Namespace;
use crate::frame::Frame;
use crate::Store;

/// The sections INFO prints, in Redis's order, each with the names a client asks for it by
/// (the modules section is `module_list` among the defaults). Every one is a default section.
const SECTIONS: [(&[&str], &str); 9] = [
    (&["server"], "Server"),
    (&["clients"], "Clients"),
    (&["memory"], "Memory"),
    (&["persistence"], "Persistence"),
    (&["stats"], "Stats"),
    (&["replication"], "Replication"),
    (&["modules", "module_list"], "Modules"),
    (&["cluster"], "Cluster"),
    (&["keyspace"], "Keyspace"),
];

impl Conn {
    /// `INFO [section …]`: a verbatim text (a bulk string in RESP2). Section names are read
    /// in any case; one this server does not print adds nothing.
    pub(super) fn info(&self, words: &[Vec<u8>]) -> Frame {
        let asked: Vec<Vec<u8>> = words[1..].iter().map(|w| w.to_ascii_lowercase()).collect();
        let every = asked.is_empty()
            || asked
                .iter()
                .any(|w| matches!(w.as_slice(), b"default" | b"all" | b"everything"));
        let wants = |names: &[&str]| {
            every
                || asked
                    .iter()
                    .any(|w| names.iter().any(|n| n.as_bytes() == w.as_slice()))
        };
        let mut text = String::new();
        for (names, title) in SECTIONS {
            if !wants(names) {
                continue;
            }
            if !text.is_empty() {
                text.push_str("\r\n");
            }
            text.push_str("# ");
            text.push_str(title);
            text.push_str("\r\n");
            for (field, value) in self.section(names[0]) {
                text.push_str(&format!("{field}:{value}\r\n"));
            }
        }
        Frame::verbatim_text(text.into_bytes())
    }

    /// One section's fields.
    fn section(&self, name: &str) -> Vec<(String, String)> {
        let pair = |field: &str, value: String| (field.to_string(), value);
        match name {
            "server" => {
                let uptime = self.shared.uptime().as_secs();
                let now_us = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_micros());
                let port = self.shared.listen_addr.get().map_or(0, |a| a.port());
                let executable = std::env::current_exe()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
                vec![
                    pair("redis_version", "7.0.15".into()),
                    pair("redis_mode", "standalone".into()),
                    pair("arch_bits", usize::BITS.to_string()),
                    pair("process_id", std::process::id().to_string()),
                    pair("tcp_port", port.to_string()),
                    pair("server_time_usec", now_us.to_string()),
                    pair("uptime_in_seconds", uptime.to_string()),
                    pair("uptime_in_days", (uptime / 86_400).to_string()),
                    pair("executable", executable),
                    pair("config_file", String::new()),
                ]
            }
            "clients" => vec![
                pair(
                    "connected_clients",
                    lock(&self.shared.clients).len().to_string(),
                ),
                pair(
                    "blocked_clients",
                    self.shared.blocked.load(Ordering::Acquire).to_string(),
                ),
            ],
            "memory" => {
                let (scripts, functions) = self.store_counts(Store::script_counts);
                vec![
                    pair("number_of_cached_scripts", scripts.to_string()),
                    pair("number_of_functions", functions.functions.to_string()),
                    pair("number_of_libraries", functions.libraries.to_string()),
                    pair("maxmemory", "0".into()),
                    pair("maxmemory_human", "0B".into()),
                    pair("maxmemory_policy", "noeviction".into()),
                ]
            }
            "persistence" => [
                "loading",
                "async_loading",
                "rdb_bgsave_in_progress",
                "aof_enabled",
            ]
            .into_iter()
            .map(|field| pair(field, "0".into()))
            .collect(),
            "stats" => {
                let registry = lock(&self.shared.pubsub);
                vec![
                    pair(
                        "pubsub_channels",
                        registry
                            .channel_names(Namespace::Channel, None)
                            .len()
                            .to_string(),
                    ),
                    pair("pubsub_patterns", registry.pattern_count().to_string()),
                    pair(
                        "pubsubshard_channels",
                        registry
                            .channel_names(Namespace::Shard, None)
                            .len()
                            .to_string(),
                    ),
                ]
            }
            "replication" => vec![
                pair("role", "master".into()),
                pair("connected_slaves", "0".into()),
            ],
            "cluster" => vec![pair("cluster_enabled", "0".into())],
            "keyspace" => self.store_counts(|store| {
                (0..Store::DATABASES)
                    .filter_map(|db| {
                        let (keys, expires, avg_ttl) = store.db_counts(db);
                        (keys > 0).then(|| {
                            pair(
                                &format!("db{db}"),
                                format!("keys={keys},expires={expires},avg_ttl={avg_ttl}"),
                            )
                        })
                    })
                    .collect()
            }),
            _ => Vec::new(),
        }
    }

    /// Reads the store under its lock, with its clock brought up to now.
    fn store_counts<T>(&self, read: impl FnOnce(&Store) -> T) -> T {
        let mut store = lock(&self.shared.store);
        self.shared.tick(&mut store);
        read(&store)
    }
}
