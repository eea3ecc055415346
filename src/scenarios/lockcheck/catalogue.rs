//! The locks the figure offers: the brief's token-checked release, the two teaching foils (blind
//! `DEL`, `GET` then `DEL`), a fenced lock, and fifteen real libraries' unmodified scripts or
//! commands, each called the way its library calls it (keys, arguments, token shape, success rule)
//! and credited with its provenance. The library scripts are the test data under
//! `ministore/tests/locklibs/`, read in with `include_str!`, never copied.

use super::spec::{FencingSource, LockSpec, Op, Provenance, SpecError, Success};
use crate::scenarios::lost_lock::{A_TOKEN, B_TOKEN, LEASE_MS, LOCK_KEY};
use crate::scenarios::RELEASE_SCRIPT;

/// The fenced acquire: `SET … NX PX`, then the next fencing token from a counter.
pub const FENCED_ACQUIRE_SCRIPT: &str = include_str!("../lua/fenced_acquire.lua");

/// The key the fenced acquire counts fencing tokens in.
pub const FENCING_COUNTER_KEY: &str = "resource:fencing";

/// Every catalogue id, in the order the figure lists them.
pub const IDS: [&str; 20] = [
    "token-checked",
    "blind-del",
    "get-then-del",
    "fenced",
    "redsync",
    "redis-py",
    "node-redlock",
    "redisson",
    "bsm-redislock",
    "spring",
    "bullmq",
    "python-redis-lock",
    "laravel",
    "symfony-lock",
    "shedlock",
    "shedlock-safe",
    "rq-scheduler",
    "resque-scheduler",
    "celery-once",
    "stackexchange-redis",
];

/// Every catalogue entry, in [`IDS`] order.
pub fn all() -> Vec<LockSpec> {
    IDS.iter().filter_map(|id| lookup(id)).collect()
}

/// The catalogue entry with this id.
pub fn by_id(id: &str) -> Result<LockSpec, SpecError> {
    lookup(id).ok_or_else(|| SpecError::UnknownLock(id.to_string()))
}

fn lookup(id: &str) -> Option<LockSpec> {
    Some(match id {
        "token-checked" => token_checked(),
        "blind-del" => blind_del(),
        "get-then-del" => get_then_del(),
        "fenced" => fenced(),
        "redsync" => redsync(),
        "redis-py" => redis_py(),
        "node-redlock" => node_redlock(),
        "redisson" => redisson(),
        "bsm-redislock" => bsm_redislock(),
        "spring" => spring(),
        "bullmq" => bullmq(),
        "python-redis-lock" => python_redis_lock(),
        "laravel" => laravel(),
        "symfony-lock" => symfony_lock(),
        "shedlock" => shedlock(),
        "shedlock-safe" => shedlock_safe(),
        "rq-scheduler" => rq_scheduler(),
        "resque-scheduler" => resque_scheduler(),
        "celery-once" => celery_once(),
        "stackexchange-redis" => stackexchange_redis(),
        _ => return None,
    })
}

/// The token the third client locks with in the brief's own locks.
pub const C_TOKEN: &str = "klm";

/// `SET {key} {token} NX PX {ttl_ms}`: how the brief (and most libraries) take a lock.
fn set_nx_px() -> Op {
    Op::command("SET {key} {token} NX PX {ttl_ms}", Success::Ok)
}

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

const REDSYNC_DELETE: &str = include_str!("../../../ministore/tests/locklibs/redsync/delete.lua");
const REDSYNC_TOUCH: &str = include_str!("../../../ministore/tests/locklibs/redsync/touch.lua");

/// go-redsync v4: `SET NX PX`, `touch` to extend, `delete` to unlock.
pub fn redsync() -> LockSpec {
    LockSpec {
        id: "redsync".into(),
        name: "go-redsync v4 Mutex".into(),
        key: "redsync:order-42".into(),
        ttl_ms: 8_000,
        tokens: [
            "Zm9vYmFyYmF6cXV4MTIzNA==".into(),
            "QkJCQkJCQkJCQkJCQkJCQg==".into(),
            "Q0NDQ0NDQ0NDQ0NDQ0NDQw==".into(),
        ],
        acquire: set_nx_px(),
        extend: Some(Op::script(
            "touch.lua",
            REDSYNC_TOUCH,
            &["{key}"],
            &["{token}", "{ttl_ms}"],
            Success::Truthy,
        )),
        release: Op::script(
            "delete.lua",
            REDSYNC_DELETE,
            &["{key}"],
            &["{token}"],
            Success::Always,
        ),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "go-redsync v4",
            repository: "github.com/go-redsync/redsync",
            source_file: "scripts.go",
            snapshot_commit: "5560bd2d477db3ce962d5f052bf695543c826751",
            licence: "BSD-3-Clause",
            local_copy: "ministore/tests/locklibs/redsync/",
        }),
        note: Some("one Redis instance: the quorum over several is not modelled".into()),
    }
}

const REDIS_PY_RELEASE: &str =
    include_str!("../../../ministore/tests/locklibs/redis-py/release.lua");
const REDIS_PY_EXTEND: &str = include_str!("../../../ministore/tests/locklibs/redis-py/extend.lua");

/// redis-py 8.0.0 `Lock`: `SET NX PX`, the extend script (adding to the TTL, the default), the
/// release script.
pub fn redis_py() -> LockSpec {
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
        extend: Some(Op::script(
            "extend.lua",
            REDIS_PY_EXTEND,
            &["{key}"],
            &["{token}", "{ttl_ms}", "0"],
            Success::Truthy,
        )),
        release: Op::script(
            "release.lua",
            REDIS_PY_RELEASE,
            &["{key}"],
            &["{token}"],
            Success::Always,
        ),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "redis-py 8.0.0",
            repository: "github.com/redis/redis-py",
            source_file: "redis/lock.py",
            snapshot_commit: "34817ce2a2accc893a81180fe737e0c4f5ac6b0c",
            licence: "MIT",
            local_copy: "ministore/tests/locklibs/redis-py/",
        }),
        note: Some(
            "Lock(timeout=10): redis-py has no default timeout; extend adds to the TTL \
             (replace_ttl=False), and the client reckons its lease from the extend"
                .into(),
        ),
    }
}

const REDLOCK_ACQUIRE: &str =
    include_str!("../../../ministore/tests/locklibs/node-redlock/acquire.lua");
const REDLOCK_EXTEND: &str =
    include_str!("../../../ministore/tests/locklibs/node-redlock/extend.lua");
const REDLOCK_RELEASE: &str =
    include_str!("../../../ministore/tests/locklibs/node-redlock/release.lua");

/// node-redlock v5: its acquire, extend and release scripts on one instance.
pub fn node_redlock() -> LockSpec {
    LockSpec {
        id: "node-redlock".into(),
        name: "node-redlock v5".into(),
        key: "locks:report".into(),
        ttl_ms: 10_000,
        tokens: [
            "3f1c0e7a9b2d4c6e8f0a1b2c3d4e5f60".into(),
            "aaaaaaaabbbbbbbbccccccccdddddddd".into(),
            "5e4d3c2b1a09f8e7d6c5b4a392817065".into(),
        ],
        acquire: Op::script(
            "acquire.lua",
            REDLOCK_ACQUIRE,
            &["{key}"],
            &["{token}", "{ttl_ms}"],
            Success::Truthy,
        ),
        extend: Some(Op::script(
            "extend.lua",
            REDLOCK_EXTEND,
            &["{key}"],
            &["{token}", "{ttl_ms}"],
            Success::Truthy,
        )),
        release: Op::script(
            "release.lua",
            REDLOCK_RELEASE,
            &["{key}"],
            &["{token}"],
            Success::Always,
        ),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "node-redlock v5.0.0-beta.2",
            repository: "github.com/mike-marcacci/node-redlock",
            source_file: "src/index.ts",
            snapshot_commit: "afe5cf92c8247ba7b65b4ae36230f415493c44f0",
            licence: "MIT",
            local_copy: "ministore/tests/locklibs/node-redlock/",
        }),
        note: Some(
            "one Redis instance: the quorum over several is not modelled; duration 10 s".into(),
        ),
    }
}

const REDISSON_LOCK: &str = include_str!("../../../ministore/tests/locklibs/redisson/lock.lua");
const REDISSON_UNLOCK: &str = include_str!("../../../ministore/tests/locklibs/redisson/unlock.lua");
const REDISSON_RENEW: &str = include_str!("../../../ministore/tests/locklibs/redisson/renew.lua");

/// Redisson `RLock`: a hash whose field `<client UUID>:<thread id>` counts holds; the
/// watchdog's renewal is the extend.
pub fn redisson() -> LockSpec {
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
        extend: Some(Op::script(
            "renew.lua",
            REDISSON_RENEW,
            &["{key}"],
            &["{ttl_ms}", "{token}"],
            Success::Truthy,
        )),
        release: Op::script(
            "unlock.lua",
            REDISSON_UNLOCK,
            &[
                "{key}",
                "redisson_lock__channel:{{{key}}}",
                "redisson_unlock_latch:{{{key}}}:9f0e1d2c3b4a5968776655443322110{client}",
            ],
            &["0", "{ttl_ms}", "{token}", "PUBLISH", "13400"],
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
            local_copy: "ministore/tests/locklibs/redisson/",
        }),
        note: Some(
            "the watchdog's renewal (every lease/3) is one extend step; the unlock latch is \
             13.4 s, each client's request id fixed"
                .into(),
        ),
    }
}

const REDISLOCK_OBTAIN: &str =
    include_str!("../../../ministore/tests/locklibs/redislock/obtain.lua");
const REDISLOCK_REFRESH: &str =
    include_str!("../../../ministore/tests/locklibs/redislock/refresh.lua");
const REDISLOCK_RELEASE: &str =
    include_str!("../../../ministore/tests/locklibs/redislock/release.lua");

/// bsm/redislock: `obtain`, `refresh`, `release` scripts; the value is the 22-character token
/// (no metadata).
pub fn bsm_redislock() -> LockSpec {
    LockSpec {
        id: "bsm-redislock".into(),
        name: "bsm/redislock".into(),
        key: "redislock:job".into(),
        ttl_ms: 10_000,
        tokens: [
            "q83vEjRWeJqrze8SNFZ4mg".into(),
            "ZmZmZmZmZmZmZmZmZmZmZg".into(),
            "c2Vjb25kLXRva2VuLWNjYw".into(),
        ],
        acquire: Op::script(
            "obtain.lua",
            REDISLOCK_OBTAIN,
            &["{key}"],
            &["{token}", "22", "{ttl_ms}"],
            Success::Ok,
        ),
        extend: Some(Op::script(
            "refresh.lua",
            REDISLOCK_REFRESH,
            &["{key}"],
            &["{token}", "{ttl_ms}"],
            Success::Ok,
        )),
        release: Op::script(
            "release.lua",
            REDISLOCK_RELEASE,
            &["{key}"],
            &["{token}"],
            Success::Always,
        ),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "bsm/redislock v0.10.0+",
            repository: "github.com/bsm/redislock",
            source_file: "obtain.lua, release.lua, refresh.lua",
            snapshot_commit: "76760bd8b28471f9c2a71f27406b7e825c912b95",
            licence: "Apache-2.0",
            local_copy: "ministore/tests/locklibs/redislock/",
        }),
        note: Some("Obtain's TTL is required; 10 s here, with no metadata".into()),
    }
}

const SPRING_OBTAIN: &str =
    include_str!("../../../ministore/tests/locklibs/spring-integration/obtain.lua");
const SPRING_RENEW: &str =
    include_str!("../../../ministore/tests/locklibs/spring-integration/renew.lua");
const SPRING_UNLOCK: &str =
    include_str!("../../../ministore/tests/locklibs/spring-integration/unlock_spin.lua");

/// Spring Integration `RedisLockRegistry` (`RedisSpinLock`): `obtain`, `renew`, `unlock`.
pub fn spring() -> LockSpec {
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
        extend: Some(Op::script(
            "renew.lua",
            SPRING_RENEW,
            &["{key}"],
            &["{token}", "{ttl_ms}"],
            Success::Truthy,
        )),
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
            local_copy: "ministore/tests/locklibs/spring-integration/",
        }),
        note: Some(
            "each client is its own registry with its own clientId; unlock is RedisSpinLock's"
                .into(),
        ),
    }
}

const BULLMQ_EXTEND: &str =
    include_str!("../../../ministore/tests/locklibs/bullmq/extendLock-2.lua");
const BULLMQ_RELEASE: &str =
    include_str!("../../../ministore/tests/locklibs/bullmq/releaseLock-1.lua");

/// BullMQ 6.2.0: a worker's job lock, extended with `extendLock-2`, released with
/// `releaseLock-1`.
pub fn bullmq() -> LockSpec {
    LockSpec {
        id: "bullmq".into(),
        name: "BullMQ job lock".into(),
        key: "bull:mail:1:lock".into(),
        ttl_ms: 30_000,
        tokens: [
            "3c9d2e1f-5a6b-4c7d-8e9f-0a1b2c3d4e5f:0".into(),
            "0f0f0f0f-1a1a-4b2b-8c3c-4d4d4d4d4d4d:0".into(),
            "7e7e7e7e-2b2b-4c3c-9d4d-5e5e5e5e5e5e:0".into(),
        ],
        acquire: set_nx_px(),
        extend: Some(Op::script(
            "extendLock-2.lua",
            BULLMQ_EXTEND,
            &["{key}", "bull:mail:stalled"],
            &["{token}", "{ttl_ms}", "1"],
            Success::Truthy,
        )),
        release: Op::script(
            "releaseLock-1.lua",
            BULLMQ_RELEASE,
            &["{key}"],
            &["{token}", "{ttl_ms}"],
            Success::Always,
        ),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "BullMQ 6.2.0",
            repository: "github.com/taskforcesh/bullmq",
            source_file: "src/commands/extendLock-2.lua, src/commands/releaseLock-1.lua",
            snapshot_commit: "352d3c72bf2bc5ec851630a4cdcba7d44c313ed0",
            licence: "MIT",
            local_copy: "ministore/tests/locklibs/bullmq/",
        }),
        note: Some(
            "BullMQ takes the job lock inside moveToActive, which is not in the data: the take \
             is modelled as SET … NX PX"
                .into(),
        ),
    }
}

const PYTHON_REDIS_LOCK_EXTEND: &str =
    include_str!("../../../ministore/tests/locklibs/python-redis-lock/extend.lua");
const PYTHON_REDIS_LOCK_UNLOCK: &str =
    include_str!("../../../ministore/tests/locklibs/python-redis-lock/unlock.lua");

/// python-redis-lock 4.0.1 (`redis_lock.Lock`): `SET NX EX` in whole seconds, the extend script
/// (0 when it extended) and the unlock script, which also signals a waiter.
pub fn python_redis_lock() -> LockSpec {
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
        extend: Some(Op::script(
            "extend.lua",
            PYTHON_REDIS_LOCK_EXTEND,
            &["{key}", "lock-signal:report"],
            &["{token}", "{ttl_s}"],
            Success::Zero,
        )),
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

const LARAVEL_REFRESH: &str = include_str!("../../../ministore/tests/locklibs/laravel/refresh.lua");
const LARAVEL_RELEASE: &str = include_str!("../../../ministore/tests/locklibs/laravel/release.lua");

/// Laravel's Redis cache lock (`Cache::lock`): `SET … EX … NX`, the refresh script (1 when it
/// refreshed) and the release script.
pub fn laravel() -> LockSpec {
    LockSpec {
        id: "laravel".into(),
        name: "Laravel Cache::lock (Redis)".into(),
        key: "laravel-database-laravel-cache-report".into(),
        ttl_ms: 10_000,
        tokens: [
            "Qm7tZx2LpW9cVb4N".into(),
            "r8KfJ3sYh6DnT1gE".into(),
            "Xa5uP0wCe2HjM9qL".into(),
        ],
        acquire: Op::command("SET {key} {token} EX {ttl_s} NX", Success::Ok),
        extend: Some(Op::script(
            "refresh.lua",
            LARAVEL_REFRESH,
            &["{key}"],
            &["{token}", "{ttl_s}"],
            Success::Truthy,
        )),
        release: Op::script(
            "release.lua",
            LARAVEL_RELEASE,
            &["{key}"],
            &["{token}"],
            Success::Always,
        ),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "Laravel 13.26.1",
            repository: "github.com/laravel/framework",
            source_file: "src/Illuminate/Cache/LuaScripts.php, src/Illuminate/Cache/RedisLock.php",
            snapshot_commit: "bd71b45fbb7e672957bf6ff61baddefe15fbca6a",
            licence: "MIT",
            local_copy: "ministore/tests/locklibs/laravel/",
        }),
        note: Some(
            "Cache::lock('report', 10) with the default Redis and cache prefixes; without the 10 \
             the lock never expires. Extend is refresh(); forceRelease() is a plain DEL and is not \
             modelled"
                .into(),
        ),
    }
}

const SYMFONY_SAVE: &str = include_str!("../../../ministore/tests/locklibs/symfony-lock/save.lua");
const SYMFONY_PUT_OFF: &str =
    include_str!("../../../ministore/tests/locklibs/symfony-lock/put_off_expiration.lua");
const SYMFONY_DELETE: &str =
    include_str!("../../../ministore/tests/locklibs/symfony-lock/delete.lua");
const SYMFONY_EXISTS: &str =
    include_str!("../../../ministore/tests/locklibs/symfony-lock/exists.lua");

/// What Symfony's scripts get as `ARGV[1]`: the client's `microtime(true)`, which they read only
/// when the store's probe finds that the server refuses writes after `TIME` in a script (Redis
/// before 5.0). One fixed reading stands for every call.
const SYMFONY_MICROTIME: &str = "1796547600.4821";

/// Symfony Lock's `RedisStore`: the lock is a sorted set of its holders' tokens, each scored with
/// its expiry by Redis's own clock (`TIME`), plus `__write__` for an exclusive lock; the key
/// expires with its latest member. `Lock::acquire()` saves with the store's initial TTL and then
/// puts the expiry off to the lock's TTL; `release()` deletes, then asks whether the key still
/// holds its token.
pub fn symfony_lock() -> LockSpec {
    let put_off = || {
        Op::script(
            "put_off_expiration.lua",
            SYMFONY_PUT_OFF,
            &["{key}"],
            &[SYMFONY_MICROTIME, "{token}", "{ttl_ms}"],
            Success::Truthy,
        )
    };
    LockSpec {
        id: "symfony-lock".into(),
        name: "Symfony Lock RedisStore".into(),
        key: "pdf-creation".into(),
        ttl_ms: 300_000,
        tokens: [
            "1E1cD/ow4NgrOl3otcQ32/JO2KlqIeeDqYKlR3S6w+w=".into(),
            "s+Cp9CZfuBSzVQqjQF60kkMJBLvoTsV01e8URP9oELA=".into(),
            "PGjqitufv4gIrzjGWAmZBbc7prSG6tTxQkLM2tb3Llc=".into(),
        ],
        acquire: Op::script(
            "save.lua",
            SYMFONY_SAVE,
            &["{key}"],
            &[SYMFONY_MICROTIME, "{token}", "{ttl_ms}"],
            Success::Truthy,
        )
        .then(put_off()),
        extend: Some(put_off()),
        release: Op::script(
            "delete.lua",
            SYMFONY_DELETE,
            &["{key}"],
            &["{token}"],
            Success::Always,
        )
        .then(Op::script(
            "exists.lua",
            SYMFONY_EXISTS,
            &["{key}"],
            &[SYMFONY_MICROTIME, "{token}"],
            Success::Always,
        )),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "Symfony Lock 7.2-dev",
            repository: "github.com/symfony/lock",
            source_file: "Store/RedisStore.php, Lock.php, LockFactory.php",
            snapshot_commit: "ec0e86b97c3ab2bc67df2713d863eb63ea5ba972",
            licence: "MIT",
            local_copy: "ministore/tests/locklibs/symfony-lock/",
        }),
        note: Some(
            "createLock('pdf-creation') over new RedisStore($redis): the store's initial TTL and \
             the lock's TTL are both 300 s by default. Acquire is save, then putOffExpiration to \
             the lock's TTL; extend is refresh(); release is delete, then exists, which throws \
             if the token is still there. The scripts read the time with TIME; ARGV[1], the \
             client's microtime(true), is read only where a script may not write after TIME \
             (Redis before 5.0) and shows one fixed value. Shared (read) locks are not modelled"
                .into(),
        ),
    }
}

const SHEDLOCK_DELETE: &str = include_str!("../../../ministore/tests/locklibs/shedlock/delete.lua");
const SHEDLOCK_UPDATE: &str = include_str!("../../../ministore/tests/locklibs/shedlock/update.lua");

/// Where ShedLock's Redis providers keep their lock and its two scripts.
fn shedlock_provenance() -> Provenance {
    Provenance {
        library: "ShedLock 7.9.1-SNAPSHOT",
        repository: "github.com/lukas-krecan/ShedLock",
        source_file: "providers/redis/shedlock-support-redis/src/main/java/net/javacrumbs/\
                      shedlock/provider/redis/support/InternalRedisLockProvider.java",
        snapshot_commit: "2495b1406d85323b8deadbe75d7a5dd3e8b8e844",
        licence: "Apache-2.0",
        local_copy: "ministore/tests/locklibs/shedlock/",
    }
}

/// ShedLock's Redis lock providers as configured by default (`safeUpdate` false): `SET NX PX`
/// to lock, `SET XX PX` to extend, `DEL` to unlock — neither of the last two compares the value.
pub fn shedlock() -> LockSpec {
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
        extend: Some(Op::command("SET {key} {token} XX PX {ttl_ms}", Success::Ok)),
        release: Op::command("DEL {key}", Success::Always),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            local_copy: "ministore/tests/locklibs/shedlock.cases",
            ..shedlock_provenance()
        }),
        note: Some(
            "safeUpdate false, the providers' default; lockAtMostFor 10 min and lockAtLeastFor 0, \
             so unlock is DEL; extend is LockExtender's (KeepAliveLockProvider checks its own \
             clock first, so with it the takeover needs a pause after that check). \
             ShedLock's README asks for a lockAtMostFor much longer than the task's normal run \
             and warns that past it more than one process may hold the lock"
                .into(),
        ),
    }
}

/// ShedLock with `safeUpdate(true)`: extend and unlock run its two scripts, which compare the
/// value first.
pub fn shedlock_safe() -> LockSpec {
    let mut spec = shedlock();
    spec.id = "shedlock-safe".into();
    spec.name = "ShedLock RedisLockProvider, safeUpdate".into();
    spec.provenance = Some(shedlock_provenance());
    spec.extend = Some(Op::script(
        "update.lua",
        SHEDLOCK_UPDATE,
        &["{key}"],
        &["{token}", "{ttl_ms}"],
        Success::Truthy,
    ));
    spec.release = Op::script(
        "delete.lua",
        SHEDLOCK_DELETE,
        &["{key}"],
        &["{token}"],
        Success::Always,
    );
    spec.note = Some(
        "safeUpdate(true); lockAtMostFor 10 min and lockAtLeastFor 0, so unlock is the delete \
         script"
            .into(),
    );
    spec
}

/// RQ's scheduler lock (`RQScheduler`): `SET NX EX` per queue, renewed by a blind `EXPIRE` every
/// interval and released with a blind `DEL`.
pub fn rq_scheduler() -> LockSpec {
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
        extend: Some(Op::command("EXPIRE {key} {ttl_s}", Success::Always)),
        release: Op::command("DEL {key}", Success::Always),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "RQ 2.10.0",
            repository: "github.com/rq/rq",
            source_file: "rq/scheduler.py",
            snapshot_commit: "aa666a8a60dbc5e8bb43f166cda869c67426a11a",
            licence: "BSD-2-Clause",
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

const RESQUE_ACQUIRE: &str =
    include_str!("../../../ministore/tests/locklibs/resque-scheduler/acquire.lua");
const RESQUE_LOCKED: &str =
    include_str!("../../../ministore/tests/locklibs/resque-scheduler/locked.lua");

/// resque-scheduler's master lock (`Lock::Resilient`): a script takes it (`SETNX`, `EXPIRE`) and
/// a script renews it only for its holder, but the release asks in a script whether it still holds
/// the lock and then sends `DEL` as a command of its own: the separate check and delete §2 warns
/// about, with the check in a script.
pub fn resque_scheduler() -> LockSpec {
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
        extend: Some(locked()),
        release: locked().then(Op::command("DEL {key}", Success::Always)),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "resque-scheduler 5.0.0",
            repository: "github.com/resque/resque-scheduler",
            source_file: "lib/resque/scheduler/lock/resilient.rb, \
                          lib/resque/scheduler/lock/base.rb, lib/resque/scheduler/locking.rb",
            snapshot_commit: "786653ee46448ecf03483315f8c8a770455a7cb2",
            licence: "MIT",
            local_copy: "ministore/tests/locklibs/resque-scheduler/",
        }),
        note: Some(
            "Lock::Resilient, used on Redis 2.5 and later, with the default LOCK_TIMEOUT of 180 s, \
             which the scripts carry as a number, and Resque's default namespace, which the key \
             carries twice (the library puts it in the key and redis-namespace adds it again). \
             Each pass of the scheduler's loop sends acquire and, when that answers 0, locked, \
             which renews the holder's lock: extend is locked. release_master_lock, at shutdown \
             and after a Redis connection or timeout error, sends locked and then, when it \
             answered 1, DEL as a command of its own. locked has just renewed the lease, so the \
             first DEL that deletes another scheduler's lock needs a pause of more than 180 s \
             between the two"
                .into(),
        ),
    }
}

/// celery_once's task lock: redis-py's `Lock` takes it when a task is queued, and the worker
/// frees it with a plain `DEL` when the task returns — §1's blind `DEL`, in a library.
pub fn celery_once() -> LockSpec {
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

/// StackExchange.Redis's `LockTake`, `LockExtend` and `LockRelease` on a server before Redis
/// 8.4 (without `DELEX` and `SET … IFEQ`): the take is `SET … EX … NX`; the extend and the
/// release are transactions with a `StringEqual` condition, sent as `WATCH` and `GET`, a
/// compare in the client, then `MULTI`, the `EXPIRE` or `DEL`, and `EXEC`, or `UNWATCH` when
/// the compare fails.
pub fn stackexchange_redis() -> LockSpec {
    let checked = |command: &str| {
        Op::command("WATCH {key}", Success::Always)
            .then(Op::command("GET {key}", Success::EqualsToken).on_refusal("UNWATCH"))
            .then(Op::command("MULTI", Success::Ok))
            .then(Op::command(command, Success::Always))
            .then(Op::command("EXEC", Success::Committed))
    };
    LockSpec {
        id: "stackexchange-redis".into(),
        name: "StackExchange.Redis LockTake / LockExtend / LockRelease".into(),
        key: "lock:nightly-invoice-export".into(),
        ttl_ms: 30_000,
        tokens: [
            "web-01:8f14e45f-ceea-467f-a0e6-1b2c3d4e5f60".into(),
            "web-02:c9f0f895-fb98-4ab9-b1e2-3c4d5e6f7081".into(),
            "web-03:45c48cce-2e2d-4fbd-a7c8-9d0e1f2a3b4c".into(),
        ],
        acquire: Op::command("SET {key} {token} EX {ttl_s} NX", Success::Ok),
        extend: Some(checked("EXPIRE {key} {ttl_s}")),
        release: checked("DEL {key}"),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "StackExchange.Redis 3.1.31",
            repository: "github.com/StackExchange/StackExchange.Redis",
            source_file: "src/StackExchange.Redis/RedisDatabase.cs, \
                          src/StackExchange.Redis/RedisTransaction.cs, \
                          src/StackExchange.Redis/Condition.cs, \
                          src/StackExchange.Redis/Expiration.cs, \
                          src/StackExchange.Redis/RedisFeatures.cs",
            snapshot_commit: "90bbf1fcba1c9cc464c94b96d16c2706f590383f",
            licence: "MIT",
            local_copy: "ministore/tests/locklibs/stackexchange-redis.cases",
        }),
        note: Some(
            "db.LockTake(key, token, TimeSpan.FromSeconds(30)), LockExtend with the same lease and \
             LockRelease, each client on its own connection, against Redis 7.0: before Redis 8.4, \
             whose DELEX and SET IFEQ the library uses where it can, the extend and the release \
             are transactions. WATCH and GET go out \
             together; the client compares the value with its token and sends MULTI, the \
             EXPIRE or DEL, and EXEC, or UNWATCH when they differ. A write to the key, or its \
             lease running out, between the WATCH and the EXEC makes EXEC answer nil: nothing \
             is deleted or extended"
                .into(),
        ),
    }
}
