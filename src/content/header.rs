//! The top of the dive: kicker, title, lede and the grounding line that ties it to EchoMQ's code.

use super::model::Header;

/// Kicker, title, lede and grounding, as the brief opens.
pub static HEADER: Header = Header {
    kicker: "R2.02.2 · Distributed locking — dive 2",
    title: "The token makes release safe.",
    lede: "A blind `DEL` deletes whatever lock is there now. After a lapsed lease, that is the successor's \
lock, not yours. The fix conditions the act on a token; the deeper fence pushes the same check into the \
protected resource.",
    grounding: "Grounding: the real fence — `echo/apps/echo_mq/jobs.ex:131`, attempts via `HINCRBY` in \
`@claim`; `@complete` (`jobs.ex:139`) / `@retry` (`jobs.ex:173`) refuse a stale token with `EMQSTALE`.",
};
