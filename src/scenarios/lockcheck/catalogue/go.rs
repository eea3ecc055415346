//! Go libraries: go-redsync and bsm/redislock.

use super::super::spec::{Extend, FencingSource, LockSpec, Op, Provenance, Success};
use super::set_nx_px;

const REDSYNC_DELETE: &str =
    include_str!("../../../../ministore/tests/locklibs/redsync/delete.lua");

const REDSYNC_TOUCH: &str = include_str!("../../../../ministore/tests/locklibs/redsync/touch.lua");

/// go-redsync v4: `SET NX PX`, `touch` to extend, `delete` to unlock.
pub(super) fn redsync() -> LockSpec {
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
        extend: Some(Extend::then_releases(Op::script(
            "touch.lua",
            REDSYNC_TOUCH,
            &["{key}"],
            &["{token}", "{ttl_ms}"],
            Success::Truthy,
        ))),
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
            licence_files: &["LICENSE"],
            local_copy: "ministore/tests/locklibs/redsync/",
        }),
        note: Some("one Redis instance: the quorum over several is not modelled".into()),
    }
}

const REDISLOCK_OBTAIN: &str =
    include_str!("../../../../ministore/tests/locklibs/redislock/obtain.lua");

const REDISLOCK_REFRESH: &str =
    include_str!("../../../../ministore/tests/locklibs/redislock/refresh.lua");

const REDISLOCK_RELEASE: &str =
    include_str!("../../../../ministore/tests/locklibs/redislock/release.lua");

/// bsm/redislock: `obtain`, `refresh`, `release` scripts; the value is the 22-character token
/// (no metadata).
pub(super) fn bsm_redislock() -> LockSpec {
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
        extend: Some(Extend::then_releases(Op::script(
            "refresh.lua",
            REDISLOCK_REFRESH,
            &["{key}"],
            &["{token}", "{ttl_ms}"],
            Success::Ok,
        ))),
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
            licence_files: &["LICENSE"],
            local_copy: "ministore/tests/locklibs/redislock/",
        }),
        note: Some("Obtain's TTL is required; 10 s here, with no metadata".into()),
    }
}
