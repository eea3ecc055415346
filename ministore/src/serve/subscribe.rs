//! SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, PUBLISH and PUBSUB as one connection runs
//! them against the shared [`PubSub`](super::pubsub::PubSub) registry.

use super::conn::Conn;
use super::pubsub::PubSub;
use crate::frame::Frame;
use std::sync::Mutex;

use super::lock::lock;

fn bulk(bytes: &[u8]) -> Frame {
    Frame::Bulk(bytes.to_vec())
}

/// Delivers `message` on `channel` to every listener; how many got it. The store calls this
/// for every PUBLISH, from a client or from a script.
pub fn deliver(registry: &Mutex<PubSub>, channel: &[u8], message: &[u8]) -> i64 {
    let deliveries = lock(registry).deliveries(channel, message);
    let count = i64::try_from(deliveries.len()).unwrap_or(i64::MAX);
    for (client, frame) in deliveries {
        client.push(&frame);
    }
    count
}

impl Conn {
    fn subscription_count(&self) -> i64 {
        i64::try_from(self.channels.len() + self.patterns.len()).unwrap_or(i64::MAX)
    }

    fn publish_counts(&self) {
        let mut state = lock(&self.info.state);
        state.sub = self.channels.len();
        state.psub = self.patterns.len();
    }

    /// `SUBSCRIBE ch …` / `PSUBSCRIBE pattern …`: one confirmation per name. The confirmations
    /// are sent before the subscription takes effect, so no message can overtake them.
    pub(super) fn subscribe(&mut self, words: &[Vec<u8>], pattern: bool, out: &mut Vec<u8>) {
        let kind: &[u8] = if pattern { b"psubscribe" } else { b"subscribe" };
        if words.len() < 2 {
            let name = String::from_utf8_lossy(kind);
            Frame::Error(format!(
                "ERR wrong number of arguments for '{name}' command"
            ))
            .encode(self.resp3, out);
            return;
        }
        for name in &words[1..] {
            let list = if pattern {
                &mut self.patterns
            } else {
                &mut self.channels
            };
            let new = !list.contains(name);
            if new {
                list.push(name.clone());
            }
            let count = self.subscription_count();
            Frame::Push(vec![bulk(kind), bulk(name), Frame::Integer(count)])
                .encode(self.resp3, out);
            if new {
                self.info.send(out);
                out.clear();
                lock(&self.shared.pubsub).subscribe(name, pattern, &self.info);
            }
        }
        self.publish_counts();
    }

    /// `UNSUBSCRIBE [ch …]` / `PUNSUBSCRIBE [pattern …]`: the named ones, or all; with none to
    /// drop, one confirmation with a nil name.
    pub(super) fn unsubscribe(&mut self, words: &[Vec<u8>], pattern: bool, out: &mut Vec<u8>) {
        let kind: &[u8] = if pattern {
            b"punsubscribe"
        } else {
            b"unsubscribe"
        };
        let names: Vec<Vec<u8>> = if words.len() > 1 {
            words[1..].to_vec()
        } else if pattern {
            self.patterns.clone()
        } else {
            self.channels.clone()
        };
        if names.is_empty() {
            let count = self.subscription_count();
            Frame::Push(vec![bulk(kind), Frame::NullBulk, Frame::Integer(count)])
                .encode(self.resp3, out);
            return;
        }
        for name in names {
            let list = if pattern {
                &mut self.patterns
            } else {
                &mut self.channels
            };
            if let Some(at) = list.iter().position(|n| *n == name) {
                list.remove(at);
                lock(&self.shared.pubsub).unsubscribe(&name, pattern, self.info.id);
            }
            let count = self.subscription_count();
            Frame::Push(vec![bulk(kind), bulk(&name), Frame::Integer(count)])
                .encode(self.resp3, out);
        }
        self.publish_counts();
    }

    /// Drops every subscription without confirmations (RESET).
    pub(super) fn drop_all_subscriptions(&mut self) {
        self.forget_subscriptions();
        self.channels.clear();
        self.patterns.clear();
        self.publish_counts();
    }

    /// Removes this client from the registry (it is closing or resetting).
    pub(super) fn forget_subscriptions(&self) {
        let mut registry = lock(&self.shared.pubsub);
        for name in &self.channels {
            registry.unsubscribe(name, false, self.info.id);
        }
        for name in &self.patterns {
            registry.unsubscribe(name, true, self.info.id);
        }
    }

    /// `PUBSUB CHANNELS [pattern]`, `PUBSUB NUMSUB [ch …]`, `PUBSUB NUMPAT`.
    pub(super) fn pubsub_command(&self, words: &[Vec<u8>]) -> Frame {
        if let Some((refusal, _)) = super::client_cmd::served_refusal(b"pubsub", words) {
            return refusal;
        }
        let sub = &words[1];
        let registry: std::sync::MutexGuard<'_, PubSub> = lock(&self.shared.pubsub);
        match (sub.to_ascii_lowercase().as_slice(), words.len()) {
            (b"help", 2) => {
                let container = String::from_utf8_lossy(&words[0]).to_ascii_uppercase();
                let header =
                    format!("{container} <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
                Frame::Array(
                    std::iter::once(header.as_str())
                        .chain(PUBSUB_HELP.iter().copied())
                        .chain(["HELP", "    Prints this help."])
                        .map(|line| Frame::Simple(line.into()))
                        .collect(),
                )
            }
            (b"channels", 2 | 3) => Frame::Array(
                registry
                    .channel_names(words.get(2).map(Vec::as_slice))
                    .iter()
                    .map(|name| bulk(name))
                    .collect(),
            ),
            (b"numsub", _) => Frame::Array(
                words[2..]
                    .iter()
                    .flat_map(|name| {
                        let count = registry.listeners_of(name);
                        [
                            bulk(name),
                            Frame::Integer(i64::try_from(count).unwrap_or(0)),
                        ]
                    })
                    .collect(),
            ),
            (b"numpat", 2) => {
                Frame::Integer(i64::try_from(registry.pattern_count()).unwrap_or(i64::MAX))
            }
            // CHANNELS with two or more patterns is refused by the command itself; every other
            // subcommand and word count was refused above.
            _ => Frame::Error(format!(
                "ERR unknown subcommand or wrong number of arguments for '{}'. Try PUBSUB HELP.",
                String::from_utf8_lossy(sub)
            )),
        }
    }
}

/// PUBSUB HELP's lines between its header and footer, as Redis 7.0 prints them.
const PUBSUB_HELP: &[&str] = &[
    "CHANNELS [<pattern>]",
    "    Return the currently active channels matching a <pattern> (default: '*').",
    "NUMPAT",
    "    Return number of subscriptions to patterns.",
    "NUMSUB [<channel> ...]",
    "    Return the number of subscribers for the specified channels, excluding",
    "    pattern subscriptions(default: no channels).",
    "SHARDCHANNELS [<pattern>]",
    "    Return the currently active shard level channels matching a <pattern> (default: '*').",
    "SHARDNUMSUB [<shardchannel> ...]",
    "    Return the number of subscribers for the specified shard level channel(s)",
];
