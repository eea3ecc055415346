//! Ruby libraries: resque-scheduler's master lock.

use super::super::spec::{Extend, FencingSource, LockSpec, Op, Provenance, Success};

const RESQUE_ACQUIRE: &str =
    include_str!("../../../../ministore/tests/locklibs/resque-scheduler/acquire.lua");

const RESQUE_LOCKED: &str =
    include_str!("../../../../ministore/tests/locklibs/resque-scheduler/locked.lua");

/// resque-scheduler's master lock (`Lock::Resilient`): a script takes it (`SETNX`, `EXPIRE`) and
/// a script renews it only for its holder, but the release asks in a script whether it still holds
/// the lock and then sends `DEL` as a command of its own: the separate check and delete §2 warns
/// about, with the check in a script.
pub(super) fn resque_scheduler() -> LockSpec {
    let locked = || {
        Op::script(
            "locked.lua",
            RESQUE_LOCKED,
            &["{key}"],
            &["{token}"],
            Success::Truthy,
        )
    };
    LockSpec {
        id: "resque-scheduler".into(),
        name: "resque-scheduler master lock".into(),
        key: "resque:resque:resque_scheduler_master_lock".into(),
        ttl_ms: 180_000,
        tokens: [
            "scheduler-a.internal:4021".into(),
            "scheduler-b.internal:3977".into(),
            "scheduler-c.internal:4410".into(),
        ],
        acquire: Op::script(
            "acquire.lua",
            RESQUE_ACQUIRE,
            &["{key}"],
            &["{token}"],
            Success::Truthy,
        ),
        extend: Some(Extend::then_releases(locked())),
        release: locked().then(Op::command("DEL {key}", Success::Always)),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "resque-scheduler 5.0.0",
            repository: "github.com/resque/resque-scheduler",
            source_file: "lib/resque/scheduler/lock/resilient.rb, \
                          lib/resque/scheduler/lock/base.rb, lib/resque/scheduler/locking.rb, \
                          lib/resque/scheduler.rb, lib/resque/scheduler/configuration.rb",
            snapshot_commit: "786653ee46448ecf03483315f8c8a770455a7cb2",
            licence: "MIT",
            licence_files: &["LICENSE"],
            local_copy: "ministore/tests/locklibs/resque-scheduler/",
        }),
        note: Some(
            "Lock::Resilient, used on Redis 2.5 and later, with the default LOCK_TIMEOUT of 180 s, \
             which the scripts carry as a number, and Resque's default namespace, which the key \
             carries twice: the library puts it in the key and redis-namespace adds it again \
             (resque 3.0.0, redis-namespace 1.11.0, no RESQUE_SCHEDULER_MASTER_LOCK_PREFIX). \
             Each pass of the scheduler's loop sends acquire and, when that answers 0, locked, \
             which renews the holder's lock: extend is locked. release_master_lock, at shutdown \
             and after a connection, EAGAIN or timeout error, sends locked and then, when it \
             answered 1, DEL as a command of its own. locked has just renewed the lease, so the \
             first DEL that deletes another scheduler's lock needs a pause of more than 180 s \
             between the two"
                .into(),
        ),
    }
}
