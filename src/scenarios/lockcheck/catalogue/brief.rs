//! The brief's own locks: the token-checked release of §2, the two teaching foils (blind
//! `DEL`, `GET` then `DEL`) and a lock whose acquire hands out a fencing token.

use super::super::spec::{FencingSource, LockSpec, Op, Success};
use super::{set_nx_px, C_TOKEN};
use crate::scenarios::lost_lock::{A_TOKEN, B_TOKEN, LEASE_MS, LOCK_KEY};
use crate::scenarios::RELEASE_SCRIPT;

/// The fenced acquire: `SET … NX PX`, then the next fencing token from a counter.
pub const FENCED_ACQUIRE_SCRIPT: &str = include_str!("../../lua/fenced_acquire.lua");

/// The key the fenced acquire counts fencing tokens in.
pub const FENCING_COUNTER_KEY: &str = "resource:fencing";

/// A lock of the brief's own: key `resource:lock`, tokens abc / xyz / klm, a 10 s lease.
fn brief_lock(id: &str, name: &str, release: Op) -> LockSpec {
    LockSpec {
        id: id.to_string(),
        name: name.to_string(),
        key: LOCK_KEY.to_string(),
        ttl_ms: LEASE_MS,
        tokens: [A_TOKEN.into(), B_TOKEN.into(), C_TOKEN.into()],
        acquire: set_nx_px(),
        extend: None,
        release,
        fencing: FencingSource::None,
        provenance: None,
        note: None,
    }
}

/// §2's release: `DEL` only if the stored token is still the client's.
pub fn token_checked() -> LockSpec {
    let release = Op::script(
        "release.lua",
        RELEASE_SCRIPT,
        &["{key}"],
        &["{token}"],
        Success::Always,
    );
    brief_lock("token-checked", "token-checked release", release)
}

/// The first foil: `DEL {key}`, whoever holds it.
pub fn blind_del() -> LockSpec {
    brief_lock(
        "blind-del",
        "blind DEL",
        Op::command("DEL {key}", Success::Always),
    )
}

/// The second foil: `GET`, compare in the client, then `DEL` as a separate command — another
/// client may take the key between the two.
pub fn get_then_del() -> LockSpec {
    let release = Op::command("GET {key}", Success::EqualsToken)
        .then(Op::command("DEL {key}", Success::Always));
    brief_lock("get-then-del", "GET, compare, then DEL", release)
}

/// Token-checked release plus a fencing counter: the acquire hands out a growing token the
/// resource checks (§3).
pub fn fenced() -> LockSpec {
    let mut spec = token_checked();
    spec.id = "fenced".into();
    spec.name = "token-checked release with a fencing token".into();
    spec.acquire = Op::script(
        "fenced_acquire.lua",
        FENCED_ACQUIRE_SCRIPT,
        &["{key}", FENCING_COUNTER_KEY],
        &["{token}", "{ttl_ms}"],
        Success::Truthy,
    );
    spec.fencing = FencingSource::AcquireReply;
    spec
}
