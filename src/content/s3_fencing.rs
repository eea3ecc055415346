//! §3 — fencing tokens: the resource itself rejects a writer whose lease has lapsed, once a newer
//! holder's token has reached it.
//!
//! Holds the slot for the fenced-write figure, where the brief prompts "Run a fenced write".

use super::model::{Block, CodeSample, Figure, Section};
use crate::components::highlight::Lang;

/// §3 · Fencing a stale writer.
pub static SECTION: Section = Section {
    id: "s3",
    number: "§3",
    heading: "Fencing a stale writer",
    source: "[Kleppmann](https://martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html) · \
[Sanfilippo](http://antirez.com/news/101)",
    blocks: &[
        Block::Para(
            "The token-checked release closes the in-the-store hazard, but a longer argument remains. \
Suppose a holder is paused — a long garbage-collection pause, a scheduler stall, a network partition — past \
the end of its lease. While it is paused, the lease expires, another worker takes the lock, and that worker \
starts writing to the protected resource. Then the first holder resumes. It still carries its lock value. It \
writes.",
        ),
        Block::Para(
            "A lock alone cannot stop that write, because from the resource's side the late write arrives \
like any other. [Martin Kleppmann's argument](https://martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html) \
is that the resource itself must reject the stale writer, and the mechanism is a fencing token: a number that \
increases every time the lock is granted. Each writer presents its token with every write; the resource keeps \
the highest token it has accepted and rejects any write carrying a lower one.",
        ),
        Block::Code(CodeSample {
            lang: Lang::Pseudo,
            text: "# grant 1 -> token 33; grant 2 -> token 34; ...\n\
# the resource accepts a write only if its token >= the highest seen\n\
write(payload, fencing_token)   # rejected when fencing_token < max_seen",
        }),
        Block::Para(
            "The paused holder acquired with token N. While it was paused, the next holder acquired with \
token N+1 and wrote. The resource has now seen N+1. When the paused holder resumes and writes with token N, \
the resource compares N against the N+1 it has already accepted and rejects the write. The lease being a \
wall-clock guess no longer decides correctness. Hover a writer below to run the check against a resource that \
has seen token 34.",
        ),
        Block::Figure(Figure::Fence),
        Block::Para(
            "Salvatore Sanfilippo, Redis's author, replied to that critique in \
[Is Redlock safe?](http://antirez.com/news/101). The honest summary is that a monotonic fencing counter and an \
owner token solve overlapping but not identical problems — the owner token stops the wrong client's lock \
being deleted; the fencing token stops a holder whose lease has already lapsed.",
        ),
        Block::PullQuote(
            "A fencing token moves correctness into the resource: it rejects anything older than what it has \
already accepted, so a wall-clock lease no longer has to be exact.",
        ),
    ],
};
