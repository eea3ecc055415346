//! How the state and session keys ([`crate::Store::state_key`], [`crate::Store::session_key`])
//! write their fields: each with its length first, so a sequence of fields reads back one way.
//! The store and the script cache both write into them.

/// Appends `bytes` to a key with its length first.
pub(crate) fn put(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}
