//! §4 — the applied form: EchoMQ's `attempts` counter is the fencing token, set in `@claim` and
//! checked in `@complete` / `@retry`. The excerpts are real Lua (`--` comments); the attempts
//! figure follows the paragraph that explains the chain.

use super::model::{Aside, Block, Callout, CodeSample, Door, Figure, Section};
use crate::components::highlight::Lang;

/// `@claim` (jobs.ex:131): the fence is bumped once per grant.
pub const CLAIM_EXCERPT: &str = "\
-- echo/apps/echo_mq/lib/echo_mq/jobs.ex:131 — the fence is set in @claim.
local att = redis.call('HINCRBY', jk, 'attempts', 1)   -- the fence: +1 per grant
redis.call('HSET', jk, 'state', 'active')
-- ... ZADD the job into emq:{q}:active scored now + lease_ms ...
return {id, redis.call('HGET', jk, 'payload'), att}     -- the worker carries att, presents it back";

/// `@complete` (jobs.ex:139): a stale `att` is refused with EMQSTALE.
pub const COMPLETE_EXCERPT: &str = "\
-- echo/apps/echo_mq/lib/echo_mq/jobs.ex:139 — @complete refuses a stale token.
local att = redis.call('HGET', KEYS[2], 'attempts')
if not att then return 0 end
if att ~= ARGV[2] then
  return redis.error_reply('EMQSTALE complete token mismatch')
end";

/// §4 · The applied form — `attempts` is the fence.
pub static SECTION: Section = Section {
    id: "s4",
    number: "§4",
    heading: "The applied form — `attempts` is the fence",
    source: "`echo_mq/jobs.ex:131,139` · `@claim` · `@complete`",
    blocks: &[
        Block::Para(
            "EchoMQ does not run a separate string lock with an owner token. Its fence is the monotone \
attempt count built into every claim, and it is precisely the fencing-token idea Kleppmann describes — a \
number that increases each time the job is granted, presented back on every transition. \
`EchoMQ.Jobs.claim/3`'s `@claim` script increments it as it leases the job; the worker now holds `att` and \
must present it back.",
        ),
        Block::Code(CodeSample {
            lang: Lang::Lua,
            text: CLAIM_EXCERPT,
        }),
        Block::Para(
            "Those scripts fence on it. `@complete` reads the stored `attempts` and refuses a mismatch:",
        ),
        Block::Code(CodeSample {
            lang: Lang::Lua,
            text: COMPLETE_EXCERPT,
        }),
        Block::Para(
            "`@retry` (`jobs.ex:173`) carries the same `EMQSTALE retry token mismatch` fence. The chain is \
the whole fence: a worker whose lease was reaped and re-claimed by another worker carries a stale `att`, \
because the re-claim ran `HINCRBY attempts 1` again and bumped the stored value past the paused worker's \
copy. When the paused worker resumes and calls complete with its old `att`, the stored `attempts` is higher, \
the comparison fails, and the transition is refused — exactly Kleppmann's “reject the lower token.” \
`EchoMQ.Jobs.complete/4` surfaces this as `{:error, :stale}`.",
        ),
        Block::Figure(Figure::Attempts),
        Block::Aside(Aside {
            label: "Notes on Valkey",
            body: "`HINCRBY` increments a hash field atomically and returns the new value, so the attempt \
count is a monotone counter with no read-then-write race — \
[valkey.io/commands/hincrby](https://valkey.io/commands/hincrby/).",
        }),
        Block::Callout(Callout {
            title: "the pattern",
            body: "Owner-token release: never `DEL` blindly; delete only if the value under the key is still \
your token. A monotone fencing token extends the check into the resource, which rejects any write below the \
highest it has accepted.",
        }),
        Block::Callout(Callout {
            title: "`attempts` in EchoMQ",
            body: "`attempts` (`HINCRBY` in `@claim`) is the monotone fence; the worker carries it and \
presents it back, and `@complete` / `@retry` refuse a stale token with `EMQSTALE` — a re-claimed job fences \
out the lapsed worker.",
        }),
        Block::Door(Door {
            kicker: "door · the EchoMQ course",
            title: "The worker-side lock plane",
            body: "This dive cites the `attempts` fence as proof the pattern is real. The worker-side \
lock-subkey plane — `emq:{q}:job:<id>:lock`, the §6 subkey `remove_job` already refuses to clear with the \
`EMQLOCK` class — is taught in the [dedicated EchoMQ course](course:echomq/protocol/). Keeping the lease \
fresh so a long job is not reaped mid-work is the next dive, [R2.02.3 · Lease renewal](course:r2.02.3/).",
        }),
    ],
};
