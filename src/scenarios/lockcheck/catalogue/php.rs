//! PHP libraries: Laravel's cache lock and Symfony's Lock component.

use super::super::spec::{Extend, FencingSource, LockSpec, Op, Provenance, Success};

const LARAVEL_REFRESH: &str =
    include_str!("../../../../ministore/tests/locklibs/laravel/refresh.lua");

const LARAVEL_RELEASE: &str =
    include_str!("../../../../ministore/tests/locklibs/laravel/release.lua");

/// Laravel's Redis cache lock (`Cache::lock`): `SET … EX … NX`, the refresh script (1 when it
/// refreshed) and the release script.
pub(super) fn laravel() -> LockSpec {
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
        extend: Some(Extend::then_releases(Op::script(
            "refresh.lua",
            LARAVEL_REFRESH,
            &["{key}"],
            &["{token}", "{ttl_s}"],
            Success::Truthy,
        ))),
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
            licence_files: &["LICENSE.md"],
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

const SYMFONY_SAVE: &str =
    include_str!("../../../../ministore/tests/locklibs/symfony-lock/save.lua");

const SYMFONY_PUT_OFF: &str =
    include_str!("../../../../ministore/tests/locklibs/symfony-lock/put_off_expiration.lua");

const SYMFONY_DELETE: &str =
    include_str!("../../../../ministore/tests/locklibs/symfony-lock/delete.lua");

const SYMFONY_EXISTS: &str =
    include_str!("../../../../ministore/tests/locklibs/symfony-lock/exists.lua");

/// What Symfony's scripts get as `ARGV[1]`: the client's `microtime(true)`, which they read only
/// when the store's probe finds that the server refuses writes after `TIME` in a script (Redis
/// before 5.0). One fixed reading stands for every call.
const SYMFONY_MICROTIME: &str = "1796547600.4821";

/// Symfony Lock's `RedisStore`: the lock is a sorted set of its holders' tokens, each scored with
/// its expiry by Redis's own clock (`TIME`), plus `__write__` for an exclusive lock; the key
/// expires with its latest member. `Lock::acquire()` saves with the store's initial TTL and then
/// puts the expiry off to the lock's TTL; `release()` deletes, then asks whether the key still
/// holds its token.
pub(super) fn symfony_lock() -> LockSpec {
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
        extend: Some(Extend::then_releases(put_off())),
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
            licence_files: &["LICENSE"],
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
