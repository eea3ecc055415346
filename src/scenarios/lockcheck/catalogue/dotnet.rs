//! .NET libraries: StackExchange.Redis's `LockTake` / `LockExtend` / `LockRelease`.

use super::super::spec::{Extend, FencingSource, LockSpec, Op, Provenance, Success};

/// StackExchange.Redis's `LockTake`, `LockExtend` and `LockRelease` on a server before Redis
/// 8.4 (without `DELEX` and `SET … IFEQ`): the take is `SET … EX … NX`; the extend and the
/// release are transactions with a `StringEqual` condition, sent as `WATCH` and `GET`, a
/// compare in the client, then `MULTI`, the `EXPIRE` or `DEL`, and `EXEC`, or `UNWATCH` when
/// the compare fails.
pub(super) fn stackexchange_redis() -> LockSpec {
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
        extend: Some(Extend::then_releases(checked("EXPIRE {key} {ttl_s}"))),
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
            licence_files: &["LICENSE"],
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
