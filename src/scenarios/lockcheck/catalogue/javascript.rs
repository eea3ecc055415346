//! Node.js libraries: node-redlock and BullMQ's job lock.

use super::super::spec::{Extend, FencingSource, LockSpec, Op, Provenance, Success};
use super::set_nx_px;

const REDLOCK_ACQUIRE: &str =
    include_str!("../../../../ministore/tests/locklibs/node-redlock/acquire.lua");

const REDLOCK_EXTEND: &str =
    include_str!("../../../../ministore/tests/locklibs/node-redlock/extend.lua");

const REDLOCK_RELEASE: &str =
    include_str!("../../../../ministore/tests/locklibs/node-redlock/release.lua");

/// node-redlock v5: its acquire, extend and release scripts on one instance.
pub(super) fn node_redlock() -> LockSpec {
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
        extend: Some(Extend::then_releases(Op::script(
            "extend.lua",
            REDLOCK_EXTEND,
            &["{key}"],
            &["{token}", "{ttl_ms}"],
            Success::Truthy,
        ))),
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
            licence_files: &["LICENSE"],
            local_copy: "ministore/tests/locklibs/node-redlock/",
        }),
        note: Some(
            "one Redis instance: the quorum over several is not modelled; duration 10 s".into(),
        ),
    }
}

const BULLMQ_EXTEND: &str =
    include_str!("../../../../ministore/tests/locklibs/bullmq/extendLock-2.lua");

const BULLMQ_RELEASE: &str =
    include_str!("../../../../ministore/tests/locklibs/bullmq/releaseLock-1.lua");

/// A BullMQ script as BullMQ sends it: its script loader drops every line that is blank or
/// only spaces and tabs (`removeEmptyLines`, `/^\s*[\r\n]/gm`, in `src/commands/script-loader.ts`)
/// before the text is sent, so its SHA1 is that of the shorter text. The files have `\n`
/// line ends, for which dropping each line of spaces and tabs is what the regex does.
fn sent_by_bullmq(file: &str) -> String {
    file.split_inclusive('\n')
        .filter(|line| !(line.ends_with('\n') && line.trim().is_empty()))
        .collect()
}

/// BullMQ 6.2.0: a job's lock, extended with `extendLock-2` (`Job.extendLock`), released with
/// `releaseLock-1`, each as BullMQ's script loader sends it; the note says where the worker
/// itself does the same checks.
pub(super) fn bullmq() -> LockSpec {
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
        extend: Some(Extend::then_releases(Op::script(
            "extendLock-2.lua",
            &sent_by_bullmq(BULLMQ_EXTEND),
            &["{key}", "bull:mail:stalled"],
            &["{token}", "{ttl_ms}", "1"],
            Success::Truthy,
        ))),
        release: Op::script(
            "releaseLock-1.lua",
            &sent_by_bullmq(BULLMQ_RELEASE),
            &["{key}"],
            &["{token}"],
            Success::Always,
        ),
        fencing: FencingSource::None,
        provenance: Some(Provenance {
            library: "BullMQ 6.2.0",
            repository: "github.com/taskforcesh/bullmq",
            source_file: "src/commands/extendLock-2.lua, src/commands/releaseLock-1.lua",
            snapshot_commit: "352d3c72bf2bc5ec851630a4cdcba7d44c313ed0",
            licence: "MIT",
            licence_files: &["LICENSE"],
            local_copy: "ministore/tests/locklibs/bullmq/",
        }),
        note: Some(
            "BullMQ's worker takes the job lock inside moveToActive, which is not in the data, \
             with SET … PX and no NX: moving the job out of the wait list is what makes it one \
             worker's, so the take is modelled as SET … NX PX. The extend is extendLock-2, which \
             Job.extendLock() sends; the worker's own renewals send extendLocks-1, which \
             compares each job's token the same way before its SET. The release is \
             releaseLock-1, BullMQ's script for dropping a job's lock, with the token alone as \
             BullMQ's Elixir port sends it (the Node worker does not send it); the Node worker \
             drops a job's lock inside the scripts that move a finished or failed job on (moveToFinished \
             and others), through includes/removeLock.lua, which compares the token before its \
             DEL as releaseLock-1 does"
                .into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ministore::{Reply, Store};

    /// What the checker sends for BullMQ is what BullMQ sends: the SHA1s SCRIPT LOAD gives are
    /// those of the files at the recorded commit after the loader's own regex (computed apart,
    /// with that regex).
    #[test]
    fn bullmq_scripts_are_sent_as_its_loader_sends_them() {
        let mut store = Store::new();
        for (file, sha) in [
            (BULLMQ_EXTEND, "dc9605328a4cc37f68acbf27cdd42e393f7b762e"),
            (BULLMQ_RELEASE, "8193548d62b0cd9223df46482777b662a185e8d6"),
        ] {
            let sent = sent_by_bullmq(file);
            assert!(sent.len() < file.len(), "the file has blank lines to drop");
            let reply = store.exec(&["SCRIPT", "LOAD", sent.as_str()]);
            assert_eq!(reply, Reply::Bulk(sha.as_bytes().to_vec()));
        }
    }
}
