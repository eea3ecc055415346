//! SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, SSUBSCRIBE, SUNSUBSCRIBE and PUBSUB as one
//! connection runs them against the shared [`PubSub`](super::pubsub::PubSub) registry, and the
//! delivery the store calls for PUBLISH and SPUBLISH.

use super::conn::Conn;
use super::pubsub::{Delivery, Namespace, PubSub};
use crate::frame::Frame;
use crate::ChannelKind;
use std::sync::Mutex;

use super::lock::lock;

fn bulk(bytes: &[u8]) -> Frame {
    Frame::Bulk(bytes.to_vec())
}

/// Delivers `message` on `channel` to every listener; how many got it. The store calls this
/// for every PUBLISH and SPUBLISH, from a client or from a script. The listeners are read, then
/// each given it with its output held and only while it still listens, so a message never
/// follows the confirmation of an UNSUBSCRIBE that ran meanwhile (nor precedes a SUBSCRIBE's:
/// `ClientInfo::register_then_send`).
pub fn deliver(registry: &Mutex<PubSub>, kind: ChannelKind, channel: &[u8], message: &[u8]) -> i64 {
    let deliveries = lock(registry).deliveries(kind, channel, message);
    let mut count = 0;
    for delivery in deliveries {
        let Delivery {
            client,
            frame,
            namespace,
            name,
        } = delivery;
        let still_listens = || lock(registry).listens(namespace, &name, client.id);
        if client.push_if(still_listens, &frame) {
            count += 1;
        }
        // A subscriber this message took past its output limit is closed: later messages
        // do not count it.
        if client.killed.load(std::sync::atomic::Ordering::Acquire) {
            lock(registry).forget_client(client.id);
        }
    }
    count
}

/// One connection's subscriptions, each kind in the order it was subscribed.
#[derive(Debug, Default)]
pub struct Subscriptions {
    channels: Vec<Vec<u8>>,
    patterns: Vec<Vec<u8>>,
    shard_channels: Vec<Vec<u8>>,
}

impl Subscriptions {
    fn list(&self, namespace: Namespace) -> &Vec<Vec<u8>> {
        match namespace {
            Namespace::Channel => &self.channels,
            Namespace::Pattern => &self.patterns,
            Namespace::Shard => &self.shard_channels,
        }
    }

    fn list_mut(&mut self, namespace: Namespace) -> &mut Vec<Vec<u8>> {
        match namespace {
            Namespace::Channel => &mut self.channels,
            Namespace::Pattern => &mut self.patterns,
            Namespace::Shard => &mut self.shard_channels,
        }
    }

    /// The count a confirmation carries: Redis counts channels and patterns together, and
    /// shard channels apart.
    fn count(&self, namespace: Namespace) -> i64 {
        let count = match namespace {
            Namespace::Channel | Namespace::Pattern => self.channels.len() + self.patterns.len(),
            Namespace::Shard => self.shard_channels.len(),
        };
        i64::try_from(count).unwrap_or(i64::MAX)
    }

    /// Whether the connection is in subscribed mode: it listens to anything, of any kind.
    pub fn any(&self) -> bool {
        !(self.channels.is_empty() && self.patterns.is_empty() && self.shard_channels.is_empty())
    }
}

impl Conn {
    fn publish_counts(&self) {
        let mut state = lock(&self.info.state);
        state.sub = self.subscriptions.channels.len();
        state.psub = self.subscriptions.patterns.len();
        state.ssub = self.subscriptions.shard_channels.len();
    }

    /// `SUBSCRIBE ch …` / `PSUBSCRIBE pattern …` / `SSUBSCRIBE ch …`: one confirmation per
    /// name, sent as the subscription takes effect: no message can overtake it, and none
    /// published after the client read it can miss the client.
    pub(super) fn subscribe(&mut self, words: &[Vec<u8>], namespace: Namespace, out: &mut Vec<u8>) {
        let kind = namespace.subscribed();
        if words.len() < 2 {
            let name = String::from_utf8_lossy(kind);
            Frame::Error(format!(
                "ERR wrong number of arguments for '{name}' command"
            ))
            .encode(self.resp3, out);
            return;
        }
        for name in &words[1..] {
            let list = self.subscriptions.list_mut(namespace);
            let new = !list.contains(name);
            if new {
                list.push(name.clone());
            }
            let count = self.subscriptions.count(namespace);
            Frame::Push(vec![bulk(kind), bulk(name), Frame::Integer(count)])
                .encode(self.resp3, out);
            if new {
                let registry = &self.shared.pubsub;
                self.info.register_then_send(
                    || lock(registry).subscribe(name, namespace, &self.info),
                    out,
                );
                out.clear();
            }
        }
        self.publish_counts();
    }

    /// `UNSUBSCRIBE [ch …]` / `PUNSUBSCRIBE [pattern …]` / `SUNSUBSCRIBE [ch …]`: the named
    /// ones, or all of that kind; with none to drop, one confirmation with a nil name.
    pub(super) fn unsubscribe(
        &mut self,
        words: &[Vec<u8>],
        namespace: Namespace,
        out: &mut Vec<u8>,
    ) {
        let kind = namespace.unsubscribed();
        let names: Vec<Vec<u8>> = if words.len() > 1 {
            words[1..].to_vec()
        } else {
            self.subscriptions.list(namespace).clone()
        };
        if names.is_empty() {
            let count = self.subscriptions.count(namespace);
            Frame::Push(vec![bulk(kind), Frame::NullBulk, Frame::Integer(count)])
                .encode(self.resp3, out);
            return;
        }
        for name in names {
            let list = self.subscriptions.list_mut(namespace);
            if let Some(at) = list.iter().position(|n| *n == name) {
                list.remove(at);
                lock(&self.shared.pubsub).unsubscribe(&name, namespace, self.info.id);
            }
            let count = self.subscriptions.count(namespace);
            Frame::Push(vec![bulk(kind), bulk(&name), Frame::Integer(count)])
                .encode(self.resp3, out);
        }
        self.publish_counts();
    }

    /// Drops every subscription without confirmations (RESET).
    pub(super) fn drop_all_subscriptions(&mut self) {
        self.forget_subscriptions();
        self.subscriptions = Subscriptions::default();
        self.publish_counts();
    }

    /// Removes this client from the registry (it is closing or resetting).
    pub(super) fn forget_subscriptions(&self) {
        let mut registry = lock(&self.shared.pubsub);
        for namespace in Namespace::ALL {
            for name in self.subscriptions.list(namespace) {
                registry.unsubscribe(name, namespace, self.info.id);
            }
        }
    }

    /// `PUBSUB CHANNELS [pattern]`, `PUBSUB NUMSUB [ch …]`, `PUBSUB NUMPAT`, and the shard
    /// channels' `PUBSUB SHARDCHANNELS [pattern]` and `PUBSUB SHARDNUMSUB [ch …]`.
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
            (b"channels", 2 | 3) => channel_names(&registry, Namespace::Channel, words),
            (b"shardchannels", 2 | 3) => channel_names(&registry, Namespace::Shard, words),
            (b"numsub", _) => listener_counts(&registry, Namespace::Channel, words),
            (b"shardnumsub", _) => listener_counts(&registry, Namespace::Shard, words),
            (b"numpat", 2) => {
                Frame::Integer(i64::try_from(registry.pattern_count()).unwrap_or(i64::MAX))
            }
            // (SHARD)CHANNELS with two or more patterns is refused by the command itself; every
            // other subcommand and word count was refused above.
            _ => Frame::Error(format!(
                "ERR unknown subcommand or wrong number of arguments for '{}'. Try PUBSUB HELP.",
                String::from_utf8_lossy(sub)
            )),
        }
    }
}

/// PUBSUB (SHARD)CHANNELS: the active names of `namespace`, those matching the pattern if one
/// is given.
fn channel_names(registry: &PubSub, namespace: Namespace, words: &[Vec<u8>]) -> Frame {
    Frame::Array(
        registry
            .channel_names(namespace, words.get(2).map(Vec::as_slice))
            .iter()
            .map(|name| bulk(name))
            .collect(),
    )
}

/// PUBSUB (SHARD)NUMSUB: each named channel of `namespace` and how many listen to it.
fn listener_counts(registry: &PubSub, namespace: Namespace, words: &[Vec<u8>]) -> Frame {
    Frame::Array(
        words[2..]
            .iter()
            .flat_map(|name| {
                let count = registry.listeners_of(namespace, name);
                [
                    bulk(name),
                    Frame::Integer(i64::try_from(count).unwrap_or(i64::MAX)),
                ]
            })
            .collect(),
    )
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
