//! JVM libraries: Redisson, Spring Integration's `RedisLockRegistry` and ShedLock.

use super::super::spec::{Extend, FencingSource, LockSpec, Op, Provenance, Success};
use super::set_nx_px;

const REDISSON_LOCK: &str = include_str!("../../../../ministore/tests/locklibs/redisson/lock.lua");

const REDISSON_UNLOCK: &str =
    include_str!("../../../../ministore/tests/locklibs/redisson/unlock.lua");

const REDISSON_RENEW: &str =
    include_str!("../../../../ministore/tests/locklibs/redisson/renew.lua");

/// Redisson `RLock`: a hash whose field `<client UUID>:<thread id>` counts holds; the
/// watchdog's renewal is the extend.
pub(super) fn redisson() -> LockSpec {
    LockSpec {
        id: "redisson".into(),
        name: "Redisson RLock".into(),
        key: "myLock".into(),
        ttl_ms: 30_000,
        tokens: [
            "6b4c2f0e-8a1d-4e5b-9c3f-0123456789ab:1".into(),
            "0f9e8d7c-6b5a-4321-8fed-cba987654321:1".into(),
            "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d:1".into(),
        ],
        acquire: Op::script(
            "lock.lua",
            REDISSON_LOCK,
            &["{key}"],
            &["{ttl_ms}", "{token}"],
            Success::Nil,
        ),
        extend: Some(Extend::then_releases(Op::script(
            "renew.lua",
            REDISSON_RENEW,
            &["{key}"],
            &["{ttl_ms}", "{token}"],
            Success::Truthy,
        ))),
        release: Op::script(
            "unlock.lua",
            REDISSON_UNLOCK,
            &[
                "{key}",
                "redisson_lock__channel:{{{key}}}",
                "redisson_unlock_latch:{{{key}}}:9f0e1d2c3b4a5968776655443322110{client}",
            ],
            &["0", "{ttl_ms}", "{token}", "PUBLISH", "16000"],
            Success::Always,
        ),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "Redisson 4.7.1-SNAPSHOT",
            repository: "github.com/redisson/redisson",
            source_file: "redisson/src/main/java/org/redisson/RedissonLock.java, \
                          redisson/src/main/java/org/redisson/renewal/LockTask.java",
            snapshot_commit: "66863978b4a92093b97c1f8c96f182a77e81d50e",
            licence: "Apache-2.0",
            licence_files: &["LICENSE.txt"],
            local_copy: "ministore/tests/locklibs/redisson/",
        }),
        note: Some(
            "the watchdog's renewal (every lease/3) is one extend step. The unlock latch lives \
             (timeout + retry delay) × retry attempts: 16–20 s with the default config (3 s, a \
             jittered 1–2 s, 4 attempts), 16 s here. Redisson makes a request id per unlock and \
             DELs that unlock's latch once the script answers; here each client's id is fixed \
             and the DEL, which touches no lock key, is not sent"
                .into(),
        ),
    }
}

const SPRING_OBTAIN: &str =
    include_str!("../../../../ministore/tests/locklibs/spring-integration/obtain.lua");

const SPRING_RENEW: &str =
    include_str!("../../../../ministore/tests/locklibs/spring-integration/renew.lua");

const SPRING_UNLOCK: &str =
    include_str!("../../../../ministore/tests/locklibs/spring-integration/unlock_spin.lua");

/// Spring Integration `RedisLockRegistry` (`RedisSpinLock`): `obtain`, `renew`, `unlock`.
pub(super) fn spring() -> LockSpec {
    LockSpec {
        id: "spring".into(),
        name: "Spring Integration RedisLockRegistry".into(),
        key: "registry:orders:42".into(),
        ttl_ms: 60_000,
        tokens: [
            "2f8c1d3e-4b5a-4c6d-8e7f-901a2b3c4d5e".into(),
            "7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d".into(),
            "c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f".into(),
        ],
        acquire: Op::script(
            "obtain.lua",
            SPRING_OBTAIN,
            &["{key}"],
            &["{token}", "{ttl_ms}"],
            Success::Truthy,
        ),
        extend: Some(Extend::then_releases(Op::script(
            "renew.lua",
            SPRING_RENEW,
            &["{key}"],
            &["{token}", "{ttl_ms}"],
            Success::Truthy,
        ))),
        release: Op::script(
            "unlock_spin.lua",
            SPRING_UNLOCK,
            &["{key}"],
            &["{token}"],
            Success::Always,
        ),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "Spring Integration 7.2.0-SNAPSHOT",
            repository: "github.com/spring-projects/spring-integration",
            source_file: "spring-integration-redis/src/main/java/org/springframework/\
                          integration/redis/util/RedisLockRegistry.java",
            snapshot_commit: "f369e899dd3007756e4da49273e201b85afa5cc7",
            licence: "Apache-2.0",
            licence_files: &["LICENSE.txt", "src/dist/notice.txt"],
            local_copy: "ministore/tests/locklibs/spring-integration/",
        }),
        note: Some(
            "each client is its own registry with its own clientId; unlock is RedisSpinLock's. \
             Against Redis 7.0, as here, a registry's first renew or unlock tries Redis 8.4's \
             SET … IFEQ or DELEX … IFEQ, which 7.0 refuses with an error, and from then on sends \
             the scripts modelled here"
                .into(),
        ),
    }
}

const SHEDLOCK_DELETE: &str =
    include_str!("../../../../ministore/tests/locklibs/shedlock/delete.lua");

const SHEDLOCK_UPDATE: &str =
    include_str!("../../../../ministore/tests/locklibs/shedlock/update.lua");

/// Where ShedLock's Redis providers keep their lock and its two scripts.
fn shedlock_provenance() -> Provenance {
    Provenance {
        library: "ShedLock 7.9.1-SNAPSHOT",
        repository: "github.com/lukas-krecan/ShedLock",
        source_file: "providers/redis/shedlock-support-redis/src/main/java/net/javacrumbs/\
                      shedlock/provider/redis/support/InternalRedisLockProvider.java",
        snapshot_commit: "2495b1406d85323b8deadbe75d7a5dd3e8b8e844",
        licence: "Apache-2.0",
        licence_files: &["LICENSE.txt"],
        local_copy: "ministore/tests/locklibs/shedlock/",
    }
}

/// ShedLock's Redis lock providers as configured by default (`safeUpdate` false): `SET NX PX`
/// to lock, `SET XX PX` to extend, `DEL` to unlock — neither of the last two compares the value.
pub(super) fn shedlock() -> LockSpec {
    LockSpec {
        id: "shedlock".into(),
        name: "ShedLock RedisLockProvider".into(),
        key: "job-lock:default:reportTask".into(),
        ttl_ms: 600_000,
        tokens: [
            "ADDED:2026-12-06T09:00:00.000Z@node-a:3f1c0e7a-9b2d-4c6e-8f0a-1b2c3d4e5f60".into(),
            "ADDED:2026-12-06T09:00:00.200Z@node-b:7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d".into(),
            "ADDED:2026-12-06T09:00:00.400Z@node-c:c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f".into(),
        ],
        acquire: set_nx_px(),
        extend: Some(Extend::then_sends_nothing(
            Op::command("SET {key} {token} XX PX {ttl_ms}", Success::Ok),
        )),
        release: Op::command("DEL {key}", Success::Always),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            local_copy: "ministore/tests/locklibs/shedlock.cases",
            ..shedlock_provenance()
        }),
        note: Some(
            "safeUpdate false, the providers' default; lockAtMostFor 10 min and lockAtLeastFor 0, \
             so unlock is DEL; extend is LockExtender's (KeepAliveLockProvider checks its own \
             clock first, so with it the takeover needs a pause after that check); after a \
             refused extend nothing more is sent, as ShedLock's unlock of that lock throws \
             before reaching Redis. ShedLock's README asks for a lockAtMostFor much longer than the task's normal run \
             and warns that past it more than one process may hold the lock"
                .into(),
        ),
    }
}

/// ShedLock with `safeUpdate(true)`: extend and unlock run its two scripts, which compare the
/// value first.
pub(super) fn shedlock_safe() -> LockSpec {
    let mut spec = shedlock();
    spec.id = "shedlock-safe".into();
    spec.name = "ShedLock RedisLockProvider, safeUpdate".into();
    spec.provenance = Some(shedlock_provenance());
    spec.extend = Some(Extend::then_sends_nothing(Op::script(
        "update.lua",
        SHEDLOCK_UPDATE,
        &["{key}"],
        &["{token}", "{ttl_ms}"],
        Success::Truthy,
    )));
    spec.release = Op::script(
        "delete.lua",
        SHEDLOCK_DELETE,
        &["{key}"],
        &["{token}"],
        Success::Always,
    );
    spec.note = Some(
        "safeUpdate(true); lockAtMostFor 10 min and lockAtLeastFor 0, so unlock is the delete \
         script; after a refused extend nothing more is sent, as ShedLock's unlock of that lock \
         throws before reaching Redis"
            .into(),
    );
    spec
}
