//! Pub/sub across connections: who listens on which channel, pattern or shard channel,
//! delivering a PUBLISH to each of them as a `message` / `pmessage` push (patterns match with
//! the store's glob) and an SPUBLISH as an `smessage` push to its shard channel's listeners.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::client::ClientInfo;
use crate::frame::Frame;
use crate::ChannelKind;

type Listeners = BTreeMap<u64, Arc<ClientInfo>>;

/// What a client can subscribe to: SUBSCRIBE's channels, PSUBSCRIBE's patterns, SSUBSCRIBE's
/// shard channels (a namespace of their own: `SPUBLISH ch` never reaches `SUBSCRIBE ch`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Namespace {
    Channel,
    Pattern,
    Shard,
}

impl Namespace {
    /// Every kind, in the order CLIENT LIST counts them.
    pub const ALL: [Namespace; 3] = [Namespace::Channel, Namespace::Pattern, Namespace::Shard];

    /// The kind a (lowercase) SUBSCRIBE-family command name is about, and whether it
    /// subscribes (rather than unsubscribes): the names are the confirmations' own.
    pub fn of_command(name: &[u8]) -> Option<(Namespace, bool)> {
        Namespace::ALL.into_iter().find_map(|namespace| {
            if name == namespace.subscribed() {
                Some((namespace, true))
            } else if name == namespace.unsubscribed() {
                Some((namespace, false))
            } else {
                None
            }
        })
    }

    /// The push confirming a subscription.
    pub fn subscribed(self) -> &'static [u8] {
        match self {
            Namespace::Channel => b"subscribe",
            Namespace::Pattern => b"psubscribe",
            Namespace::Shard => b"ssubscribe",
        }
    }

    /// The push confirming an unsubscription.
    pub fn unsubscribed(self) -> &'static [u8] {
        match self {
            Namespace::Channel => b"unsubscribe",
            Namespace::Pattern => b"punsubscribe",
            Namespace::Shard => b"sunsubscribe",
        }
    }
}

/// One message on its way to one listener: the push, and the subscription it came through.
pub struct Delivery {
    pub client: Arc<ClientInfo>,
    pub frame: Frame,
    pub namespace: Namespace,
    pub name: Vec<u8>,
}

/// Channel, pattern and shard-channel subscriptions of every client.
#[derive(Default)]
pub struct PubSub {
    channels: BTreeMap<Vec<u8>, Listeners>,
    patterns: BTreeMap<Vec<u8>, Listeners>,
    shard_channels: BTreeMap<Vec<u8>, Listeners>,
}

impl PubSub {
    fn names(&self, namespace: Namespace) -> &BTreeMap<Vec<u8>, Listeners> {
        match namespace {
            Namespace::Channel => &self.channels,
            Namespace::Pattern => &self.patterns,
            Namespace::Shard => &self.shard_channels,
        }
    }

    fn names_mut(&mut self, namespace: Namespace) -> &mut BTreeMap<Vec<u8>, Listeners> {
        match namespace {
            Namespace::Channel => &mut self.channels,
            Namespace::Pattern => &mut self.patterns,
            Namespace::Shard => &mut self.shard_channels,
        }
    }

    /// Adds `client` to `name` in `namespace`.
    pub fn subscribe(&mut self, name: &[u8], namespace: Namespace, client: &Arc<ClientInfo>) {
        self.names_mut(namespace)
            .entry(name.to_vec())
            .or_default()
            .insert(client.id, client.clone());
    }

    /// Removes client `id` from `name` in `namespace`; a name nobody listens to is forgotten.
    pub fn unsubscribe(&mut self, name: &[u8], namespace: Namespace, id: u64) {
        let names = self.names_mut(namespace);
        if let Some(listeners) = names.get_mut(name) {
            listeners.remove(&id);
            if listeners.is_empty() {
                names.remove(name);
            }
        }
    }

    /// Removes client `id` from every name it listens to, as Redis does when it frees a client
    /// (CLIENT KILL, an output over its limit) before its connection has wound down.
    pub fn forget_client(&mut self, id: u64) {
        for namespace in Namespace::ALL {
            let names = self.names_mut(namespace);
            names.retain(|_, listeners| {
                listeners.remove(&id);
                !listeners.is_empty()
            });
        }
    }

    /// Who should get a message published on `channel`, with the push each one gets: for
    /// PUBLISH the channel's listeners first, then each matching pattern's; for SPUBLISH the
    /// shard channel's listeners alone.
    pub fn deliveries(&self, kind: ChannelKind, channel: &[u8], message: &[u8]) -> Vec<Delivery> {
        let (namespace, push): (_, &[u8]) = match kind {
            ChannelKind::Global => (Namespace::Channel, b"message"),
            ChannelKind::Shard => (Namespace::Shard, b"smessage"),
        };
        let mut out = Vec::new();
        if let Some(listeners) = self.names(namespace).get(channel) {
            for client in listeners.values() {
                out.push(Delivery {
                    client: client.clone(),
                    frame: message_frame(push, channel, message),
                    namespace,
                    name: channel.to_vec(),
                });
            }
        }
        if kind == ChannelKind::Shard {
            return out;
        }
        for (pattern, listeners) in &self.patterns {
            if crate::glob::matches(pattern, channel) {
                for client in listeners.values() {
                    out.push(Delivery {
                        client: client.clone(),
                        frame: pmessage_frame(pattern, channel, message),
                        namespace: Namespace::Pattern,
                        name: pattern.clone(),
                    });
                }
            }
        }
        out
    }

    /// Whether client `id` listens to `name` in `namespace`.
    pub fn listens(&self, namespace: Namespace, name: &[u8], id: u64) -> bool {
        self.names(namespace)
            .get(name)
            .is_some_and(|listeners| listeners.contains_key(&id))
    }

    /// PUBSUB CHANNELS / SHARDCHANNELS: the active names, those matching `pattern` if given.
    pub fn channel_names(&self, namespace: Namespace, pattern: Option<&[u8]>) -> Vec<Vec<u8>> {
        self.names(namespace)
            .keys()
            .filter(|name| pattern.is_none_or(|p| crate::glob::matches(p, name)))
            .cloned()
            .collect()
    }

    /// PUBSUB NUMSUB's / SHARDNUMSUB's count for one channel.
    pub fn listeners_of(&self, namespace: Namespace, channel: &[u8]) -> usize {
        self.names(namespace).get(channel).map_or(0, BTreeMap::len)
    }

    /// PUBSUB NUMPAT: patterns with at least one listener.
    pub fn pattern_count(&self) -> usize {
        self.patterns.len()
    }
}

fn bulk(bytes: &[u8]) -> Frame {
    Frame::Bulk(bytes.to_vec())
}

/// `message channel payload` (`smessage` for a shard channel).
fn message_frame(push: &[u8], channel: &[u8], message: &[u8]) -> Frame {
    Frame::Push(vec![bulk(push), bulk(channel), bulk(message)])
}

/// `pmessage pattern channel payload`.
fn pmessage_frame(pattern: &[u8], channel: &[u8], message: &[u8]) -> Frame {
    Frame::Push(vec![
        bulk(b"pmessage"),
        bulk(pattern),
        bulk(channel),
        bulk(message),
    ])
}
