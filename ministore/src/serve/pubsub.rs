//! Pub/sub across connections: who listens on which channel or pattern, delivering a PUBLISH
//! to each of them as a `message` / `pmessage` push, and Redis's glob matching for patterns.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::frame::Frame;
use super::shared::ClientInfo;

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
            if glob_match(pattern, channel) {
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
            .filter(|name| pattern.is_none_or(|p| glob_match(p, name)))
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

/// Redis's glob: `*` any run, `?` one byte, `[abc]`, `[^a-z]` classes, `\` escapes the next
/// byte. Case-sensitive.
pub fn glob_match(pattern: &[u8], text: &[u8]) -> bool {
    // Backtracking only to the last `*`: that is enough for globs, and linear-ish in practice.
    let (mut p, mut t) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() {
            match pattern[p] {
                b'*' => {
                    star = Some((p, t));
                    p += 1;
                    continue;
                }
                b'?' => {
                    p += 1;
                    t += 1;
                    continue;
                }
                _ => {
                    if let Some((matched, next)) = single(pattern, p, text[t]) {
                        if matched {
                            p = next;
                            t += 1;
                            continue;
                        }
                    }
                }
            }
        }
        match star {
            Some((sp, st)) => {
                p = sp + 1;
                t = st + 1;
                star = Some((sp, st + 1));
            }
            None => return false,
        }
    }
    pattern[p..].iter().all(|&b| b == b'*')
}

/// Whether the pattern element at `p` (a literal, an escape or a class) matches `byte`, and
/// where the next element starts.
fn single(pattern: &[u8], p: usize, byte: u8) -> Option<(bool, usize)> {
    match pattern[p] {
        b'\\' if p + 1 < pattern.len() => Some((pattern[p + 1] == byte, p + 2)),
        b'[' => {
            let mut i = p + 1;
            let negate = pattern.get(i) == Some(&b'^');
            if negate {
                i += 1;
            }
            let mut matched = false;
            while i < pattern.len() && pattern[i] != b']' {
                if pattern[i] == b'\\' && i + 1 < pattern.len() {
                    matched |= pattern[i + 1] == byte;
                    i += 2;
                } else if i + 2 < pattern.len() && pattern[i + 1] == b'-' && pattern[i + 2] != b']'
                {
                    let (lo, hi) = (
                        pattern[i].min(pattern[i + 2]),
                        pattern[i].max(pattern[i + 2]),
                    );
                    matched |= (lo..=hi).contains(&byte);
                    i += 3;
                } else {
                    matched |= pattern[i] == byte;
                    i += 1;
                }
            }
            // An unclosed class runs to the end of the pattern, as in Redis.
            let next = (i + 1).min(pattern.len());
            Some((matched != negate, next))
        }
        literal => Some((literal == byte, p + 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    #[test]
    fn globs_match_like_redis() {
        assert!(glob_match(b"c*", b"c1"));
        assert!(glob_match(b"*", b""));
        assert!(glob_match(b"h?llo", b"hello"));
        assert!(glob_match(b"h[ae]llo", b"hallo"));
        assert!(!glob_match(b"h[^e]llo", b"hello"));
        assert!(glob_match(b"h[a-c]llo", b"hbllo"));
        assert!(glob_match(b"a\\*b", b"a*b"));
        assert!(!glob_match(b"a\\*b", b"axb"));
        assert!(glob_match(b"*lock*", b"redisson_lock__channel:{x}"));
        assert!(!glob_match(b"c?", b"c"));
    }
}
