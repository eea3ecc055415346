//! Redis 7.0's commands that ministore does not run, each in the group Redis's `COMMAND DOCS`
//! puts it in, so that a front end which shows the store's `ERR unknown command` (the page's
//! consoles) can say that Redis has the command and this store has not. The store itself replies
//! to each exactly as Redis replies to a command it does not know; the README's "Left out on
//! purpose" says why each group is left out.

/// A group of Redis 7.0's commands, as `COMMAND DOCS` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Bitmap,
    Cluster,
    Connection,
    Generic,
    Geo,
    HyperLogLog,
    PubSub,
    Server,
    Stream,
}

impl Group {
    /// The group's name in `COMMAND DOCS` (`server`, `pubsub`, …).
    pub fn docs_name(self) -> &'static str {
        match self {
            Group::Bitmap => "bitmap",
            Group::Cluster => "cluster",
            Group::Connection => "connection",
            Group::Generic => "generic",
            Group::Geo => "geo",
            Group::HyperLogLog => "hyperloglog",
            Group::PubSub => "pubsub",
            Group::Server => "server",
            Group::Stream => "stream",
        }
    }

    /// The group as a reader names it: `server`, `pub/sub`, `HyperLogLog`, ….
    pub fn words(self) -> &'static str {
        match self {
            Group::HyperLogLog => "HyperLogLog",
            Group::PubSub => "pub/sub",
            other => other.docs_name(),
        }
    }
}

/// Every command of Redis 7.0.15's `COMMAND LIST` that the store (with `full`) answers with
/// `ERR unknown command`, by group, each group's names in one space-separated string (a table
/// of one string per command would cost the wasm a pointer and length for each).
const LEFT_OUT: &[(Group, &str)] = &[
    (
        Group::Bitmap,
        "BITCOUNT BITFIELD BITFIELD_RO BITOP BITPOS GETBIT SETBIT",
    ),
    (Group::Cluster, "ASKING CLUSTER READONLY READWRITE"),
    (Group::Connection, "AUTH CLIENT HELLO QUIT RESET"),
    (Group::Generic, "DUMP MIGRATE RESTORE WAIT"),
    (
        Group::Geo,
        "GEOADD GEODIST GEOHASH GEOPOS GEORADIUS GEORADIUSBYMEMBER \
         GEORADIUSBYMEMBER_RO GEORADIUS_RO GEOSEARCH GEOSEARCHSTORE",
    ),
    (
        Group::HyperLogLog,
        "PFADD PFCOUNT PFDEBUG PFMERGE PFSELFTEST",
    ),
    (
        Group::PubSub,
        "PSUBSCRIBE PUBSUB PUNSUBSCRIBE SSUBSCRIBE SUBSCRIBE \
         SUNSUBSCRIBE UNSUBSCRIBE",
    ),
    (
        Group::Server,
        "ACL BGREWRITEAOF BGSAVE COMMAND CONFIG FAILOVER INFO LASTSAVE LATENCY \
         LOLWUT MEMORY MODULE MONITOR PSYNC REPLCONF REPLICAOF RESTORE-ASKING \
         ROLE SAVE SHUTDOWN SLAVEOF SLOWLOG SYNC",
    ),
    (
        Group::Stream,
        "XACK XADD XAUTOCLAIM XCLAIM XDEL XGROUP XINFO XLEN XPENDING XRANGE \
         XREAD XREADGROUP XREVRANGE XSETID XTRIM",
    ),
];

/// The group of `name` (any case) if it is a Redis 7.0 command the store does not run; `None`
/// for a command it runs and for a name Redis does not know either.
pub fn left_out(name: &[u8]) -> Option<Group> {
    all_left_out()
        .find(|(command, _)| command.as_bytes().eq_ignore_ascii_case(name))
        .map(|(_, group)| group)
}

/// Every left-out command with its group, for tests that hold the list against Redis.
pub fn all_left_out() -> impl Iterator<Item = (&'static str, Group)> {
    LEFT_OUT
        .iter()
        .flat_map(|&(group, names)| names.split(' ').map(move |name| (name, group)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_out_commands_are_found_in_any_case() {
        assert_eq!(left_out(b"INFO"), Some(Group::Server));
        assert_eq!(left_out(b"subscribe"), Some(Group::PubSub));
        assert_eq!(left_out(b"PfAdd"), Some(Group::HyperLogLog));
        assert_eq!(left_out(b"GET"), None);
        assert_eq!(left_out(b"NOSUCHCOMMAND"), None);
    }

    #[test]
    fn no_command_is_listed_twice() {
        let mut names: Vec<&str> = all_left_out().map(|(name, _)| name).collect();
        let listed = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), listed);
        assert!(names.iter().all(|name| !name.is_empty()));
    }
}
