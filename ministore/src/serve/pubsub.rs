//! Pub/sub across connections: who listens on which channel or pattern, delivering a PUBLISH
//! to each of them as a `message` / `pmessage` push (patterns match with the store's glob).

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::client::ClientInfo;
use crate::frame::Frame;

type Listeners = BTreeMap<u64, Arc<ClientInfo>>;

/// Channel and pattern subscriptions of every client.
#[derive(Default)]
pub struct PubSub {
    channels: HashMap<Vec<u8>, Listeners>,
    patterns: BTreeMap<Vec<u8>, Listeners>,
}

impl PubSub {
    /// Adds `client` to `channel` (or to the pattern when `pattern`).
    pub fn subscribe(&mut self, name: &[u8], pattern: bool, client: &Arc<ClientInfo>) {
        let listeners = if pattern {
            self.patterns.entry(name.to_vec()).or_default()
        } else {
            self.channels.entry(name.to_vec()).or_default()
        };
        listeners.insert(client.id, client.clone());
    }

    /// Removes client `id` from a channel or pattern.
    pub fn unsubscribe(&mut self, name: &[u8], pattern: bool, id: u64) {
        if pattern {
            if let Some(listeners) = self.patterns.get_mut(name) {
                listeners.remove(&id);
                if listeners.is_empty() {
                    self.patterns.remove(name);
                }
            }
        } else if let Some(listeners) = self.channels.get_mut(name) {
            listeners.remove(&id);
            if listeners.is_empty() {
                self.channels.remove(name);
            }
        }
    }

    /// Who should get a message on `channel`: channel listeners first, then each matching
    /// pattern's listeners with the push each one gets.
    pub fn deliveries(&self, channel: &[u8], message: &[u8]) -> Vec<(Arc<ClientInfo>, Frame)> {
        let mut out = Vec::new();
        if let Some(listeners) = self.channels.get(channel) {
            for client in listeners.values() {
                out.push((client.clone(), message_frame(channel, message)));
            }
        }
        for (pattern, listeners) in &self.patterns {
            if crate::glob::matches(pattern, channel) {
                for client in listeners.values() {
                    out.push((client.clone(), pmessage_frame(pattern, channel, message)));
                }
            }
        }
        out
    }

    /// PUBSUB CHANNELS: active channels, those matching `pattern` if given.
    pub fn channel_names(&self, pattern: Option<&[u8]>) -> Vec<Vec<u8>> {
        let mut names: Vec<Vec<u8>> = self
            .channels
            .keys()
            .filter(|name| pattern.is_none_or(|p| crate::glob::matches(p, name)))
            .cloned()
            .collect();
        names.sort();
        names
    }

    /// PUBSUB NUMSUB's count for one channel.
    pub fn listeners_of(&self, channel: &[u8]) -> usize {
        self.channels.get(channel).map_or(0, BTreeMap::len)
    }

    /// PUBSUB NUMPAT: patterns with at least one listener.
    pub fn pattern_count(&self) -> usize {
        self.patterns.len()
    }
}

fn bulk(bytes: &[u8]) -> Frame {
    Frame::Bulk(bytes.to_vec())
}

/// `message channel payload`.
fn message_frame(channel: &[u8], message: &[u8]) -> Frame {
    Frame::Push(vec![bulk(b"message"), bulk(channel), bulk(message)])
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
