//! Where a PUBLISH or SPUBLISH goes. This store has a single client, which cannot be subscribed
//! while it publishes, so by default nobody hears a message and both reply 0 as Redis does then;
//! a server holding real subscribers installs its own delivery with
//! [`Store::on_publish`](crate::Store::on_publish).

use std::sync::Arc;

/// Which of Redis's two channel namespaces a message is published in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChannelKind {
    /// PUBLISH: heard by SUBSCRIBE's channels and PSUBSCRIBE's patterns.
    Global,
    /// SPUBLISH: heard by SSUBSCRIBE's shard channels only (patterns never match them).
    Shard,
}

/// Delivers `message` on `channel` of `kind` and returns how many subscribers received it.
pub type Deliver = Arc<dyn Fn(ChannelKind, &[u8], &[u8]) -> i64 + Send + Sync>;

/// The store's PUBLISH delivery.
#[derive(Clone, Default)]
pub(crate) struct PubSub {
    deliver: Option<Deliver>,
}

impl std::fmt::Debug for PubSub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PubSub")
            .field("installed", &self.deliver.is_some())
            .finish()
    }
}

impl PubSub {
    /// Replaces the delivery.
    pub(crate) fn install(&mut self, deliver: Deliver) {
        self.deliver = Some(deliver);
    }

    /// Publishes; how many subscribers received the message (0 without a delivery).
    pub(crate) fn publish(&self, kind: ChannelKind, channel: &[u8], message: &[u8]) -> i64 {
        self.deliver
            .as_ref()
            .map_or(0, |deliver| deliver(kind, channel, message))
    }
}
