//! Python libraries: redis-py's `Lock`, python-redis-lock, RQ's scheduler lock and celery_once.

use super::super::spec::{Extend, FencingSource, LockSpec, Op, Provenance, Success};
use super::set_nx_px;

const REDIS_PY_RELEASE: &str =
    include_str!("../../../../ministore/tests/locklibs/redis-py/release.lua");

const REDIS_PY_EXTEND: &str =
    include_str!("../../../../ministore/tests/locklibs/redis-py/extend.lua");

/// redis-py's `Lock` (master, its `lock.py` as in releases 8.0.0 to 8.1.0): `SET NX PX`, the
/// extend script (adding to the TTL, the default), the release script.
pub(super) fn redis_py() -> LockSpec {
    LockSpec {
        id: "redis-py".into(),
        name: "redis-py Lock".into(),
        key: "resource-lock".into(),
        ttl_ms: 10_000,
        tokens: [
            "8c5b0a4e6f2d11efa1b2525400c0ffee".into(),
            "9d6c1b5f702e11efa1b2525400c0ffee".into(),
            "ae7d2c60813f11efa1b2525400c0ffee".into(),
        ],
        acquire: set_nx_px(),
        extend: Some(Extend::then_releases(Op::script(
            "extend.lua",
            REDIS_PY_EXTEND,
            &["{key}"],
            &["{token}", "{ttl_ms}", "0"],
            Success::Truthy,
        ))),
        release: Op::script(
            "release.lua",
            REDIS_PY_RELEASE,
            &["{key}"],
            &["{token}"],
            Success::Always,
        ),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "redis-py master (lock.py as in 8.0.0–8.1.0)",
            repository: "github.com/redis/redis-py",
            source_file: "redis/lock.py",
            snapshot_commit: "34817ce2a2accc893a81180fe737e0c4f5ac6b0c",
            licence: "MIT",
            licence_files: &["LICENSE"],
            local_copy: "ministore/tests/locklibs/redis-py/",
        }),
        note: Some(
            "Lock(timeout=10): redis-py has no default timeout; extend adds to the TTL \
             (replace_ttl=False). redis-py keeps no lease of its own: the checker reckons the \
             client's from the extend, a full timeout from then, which is no longer than the \
             TTL the key has after it"
                .into(),
        ),
    }
}

const PYTHON_REDIS_LOCK_EXTEND: &str =
    include_str!("../../../../ministore/tests/locklibs/python-redis-lock/extend.lua");

const PYTHON_REDIS_LOCK_UNLOCK: &str =
    include_str!("../../../../ministore/tests/locklibs/python-redis-lock/unlock.lua");

/// python-redis-lock 4.0.1 (`redis_lock.Lock`): `SET NX EX` in whole seconds, the extend script
/// (0 when it extended) and the unlock script, which also signals a waiter.
pub(super) fn python_redis_lock() -> LockSpec {
    LockSpec {
        id: "python-redis-lock".into(),
        name: "python-redis-lock Lock".into(),
        key: "lock:report".into(),
        ttl_ms: 10_000,
        tokens: [
            "Vb0q4kX2m9TzR7cLw1NfY8sE".into(),
            "pH3dJ6uQ1aZ5gK0oW2yM7xCt".into(),
            "Ns8Ld2Rf5Ub1Xk9Gh3Tq0Ve6".into(),
        ],
        acquire: Op::command("SET {key} {token} NX EX {ttl_s}", Success::Ok),
        extend: Some(Extend::then_releases(Op::script(
            "extend.lua",
            PYTHON_REDIS_LOCK_EXTEND,
            &["{key}", "lock-signal:report"],
            &["{token}", "{ttl_s}"],
            Success::Zero,
        ))),
        release: Op::script(
            "unlock.lua",
            PYTHON_REDIS_LOCK_UNLOCK,
            &["{key}", "lock-signal:report"],
            &["{token}", "1000"],
            Success::Always,
        ),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "python-redis-lock 4.0.1",
            repository: "github.com/ionelmc/python-redis-lock",
            source_file: "src/redis_lock/__init__.py",
            snapshot_commit: "e448f12f49aa4a07885fe8cd02eae19a7e75fa51",
            licence: "BSD-2-Clause",
            licence_files: &["LICENSE"],
            local_copy: "ministore/tests/locklibs/python-redis-lock/",
        }),
        note: Some(
            "Lock(conn, \"report\", expire=10): without expire the lock never expires; the \
             unlock script also pushes onto lock-signal:report to wake a waiter's BLPOP. Extend \
             is a manual extend(): with auto_renewal a refused extend only stops the renewal \
             thread, and the holder goes on"
                .into(),
        ),
    }
}

/// RQ's scheduler lock (`RQScheduler`): `SET NX EX` per queue, renewed by a blind `EXPIRE` every
/// interval and released with a blind `DEL`.
pub(super) fn rq_scheduler() -> LockSpec {
    LockSpec {
        id: "rq-scheduler".into(),
        name: "RQ scheduler lock".into(),
        key: "rq:scheduler-lock:default".into(),
        ttl_ms: 61_000,
        tokens: [
            "5f2c9e1a7b3d4c6e8f0a1b2c3d4e5f60".into(),
            "9a8b7c6d5e4f4031af1e0d9c8b7a6b5c".into(),
            "c0ffee00d15e45e5b0a710ad5eed1e55".into(),
        ],
        acquire: Op::command("SET {key} {token} NX EX {ttl_s}", Success::Ok),
        extend: Some(Extend::then_releases(Op::command(
            "EXPIRE {key} {ttl_s}",
            Success::Always,
        ))),
        release: Op::command("DEL {key}", Success::Always),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "RQ 2.10.0",
            repository: "github.com/rq/rq",
            source_file: "rq/scheduler.py",
            snapshot_commit: "aa666a8a60dbc5e8bb43f166cda869c67426a11a",
            licence: "BSD-2-Clause",
            licence_files: &["LICENSE"],
            local_copy: "ministore/tests/locklibs/rq.cases",
        }),
        note: Some(
            "the lock of a worker run with --with-scheduler, for the default queue; interval 1 s, \
             so the lock lasts 61 s and the heartbeat renews it every second with EXPIRE, its \
             reply unread; the scheduler DELs its locks when it stops. RQ's docs say only one \
             scheduler can run for a queue at a time; a pause past 61 s lets a second one in when \
             its worker next tries (at start, then every 10 minutes)"
                .into(),
        ),
    }
}

/// celery_once's task lock: redis-py's `Lock` takes it when a task is queued, and the worker
/// frees it with a plain `DEL` when the task returns — §1's blind `DEL`, in a library.
pub(super) fn celery_once() -> LockSpec {
    LockSpec {
        id: "celery-once".into(),
        name: "celery_once QueueOnce (Redis)".into(),
        key: "qo_reports.build_report_report_id-7".into(),
        ttl_ms: 3_600_000,
        tokens: [
            "b1be381cf14211f1bb6e02fc9a3c5e01".into(),
            "c47d2e10f14211f1a2d10242ac110004".into(),
            "d0931f6af14211f19c4e0242ac110007".into(),
        ],
        acquire: set_nx_px(),
        extend: None,
        release: Op::command("DEL {key}", Success::Always),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "celery_once 3.0.1",
            repository: "github.com/cameronmaske/celery-once",
            source_file: "celery_once/backends/redis.py, celery_once/tasks.py, \
                          celery_once/helpers.py",
            snapshot_commit: "4f68b6b3c8503b9360179a246521b07315cdf577",
            licence: "BSD-2-Clause",
            licence_files: &["LICENSE"],
            local_copy: "ministore/tests/locklibs/celery-once.cases",
        }),
        note: Some(
            "a QueueOnce task build_report(report_id=7) with the Redis backend and the default \
             timeout of one hour: apply_async takes the lock through redis-py's Lock, and the \
             worker's after_return DELs it once the task has run, whoever's token it holds (a \
             retry keeps the lock). A task still queued or running after an hour lets the same \
             task, with the same arguments, be queued again, and when the first one returns its \
             DEL frees the lock the second took. Not modelled: task.apply(), which takes no lock \
             and still DELs it on return"
                .into(),
        ),
    }
}
