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
/// `ERR unknown command`, in byte order.
const LEFT_OUT: &[(&str, Group)] = &[
    ("ACL", Group::Server),
    ("ASKING", Group::Cluster),
    ("AUTH", Group::Connection),
    ("BGREWRITEAOF", Group::Server),
    ("BGSAVE", Group::Server),
    ("BITCOUNT", Group::Bitmap),
    ("BITFIELD", Group::Bitmap),
    ("BITFIELD_RO", Group::Bitmap),
    ("BITOP", Group::Bitmap),
    ("BITPOS", Group::Bitmap),
    ("CLIENT", Group::Connection),
    ("CLUSTER", Group::Cluster),
    ("COMMAND", Group::Server),
    ("CONFIG", Group::Server),
    ("DUMP", Group::Generic),
    ("FAILOVER", Group::Server),
    ("GEOADD", Group::Geo),
    ("GEODIST", Group::Geo),
    ("GEOHASH", Group::Geo),
    ("GEOPOS", Group::Geo),
    ("GEORADIUS", Group::Geo),
    ("GEORADIUSBYMEMBER", Group::Geo),
    ("GEORADIUSBYMEMBER_RO", Group::Geo),
    ("GEORADIUS_RO", Group::Geo),
    ("GEOSEARCH", Group::Geo),
    ("GEOSEARCHSTORE", Group::Geo),
    ("GETBIT", Group::Bitmap),
    ("HELLO", Group::Connection),
    ("INFO", Group::Server),
    ("LASTSAVE", Group::Server),
    ("LATENCY", Group::Server),
    ("LOLWUT", Group::Server),
    ("MEMORY", Group::Server),
    ("MIGRATE", Group::Generic),
    ("MODULE", Group::Server),
    ("MONITOR", Group::Server),
    ("PFADD", Group::HyperLogLog),
    ("PFCOUNT", Group::HyperLogLog),
    ("PFDEBUG", Group::HyperLogLog),
    ("PFMERGE", Group::HyperLogLog),
    ("PFSELFTEST", Group::HyperLogLog),
    ("PSUBSCRIBE", Group::PubSub),
    ("PSYNC", Group::Server),
    ("PUBSUB", Group::PubSub),
    ("PUNSUBSCRIBE", Group::PubSub),
    ("QUIT", Group::Connection),
    ("READONLY", Group::Cluster),
    ("READWRITE", Group::Cluster),
    ("REPLCONF", Group::Server),
    ("REPLICAOF", Group::Server),
    ("RESET", Group::Connection),
    ("RESTORE", Group::Generic),
    ("RESTORE-ASKING", Group::Server),
    ("ROLE", Group::Server),
    ("SAVE", Group::Server),
    ("SETBIT", Group::Bitmap),
    ("SHUTDOWN", Group::Server),
    ("SLAVEOF", Group::Server),
    ("SLOWLOG", Group::Server),
    ("SPUBLISH", Group::PubSub),
    ("SSUBSCRIBE", Group::PubSub),
    ("SUBSCRIBE", Group::PubSub),
    ("SUNSUBSCRIBE", Group::PubSub),
    ("SYNC", Group::Server),
    ("UNSUBSCRIBE", Group::PubSub),
    ("WAIT", Group::Generic),
    ("XACK", Group::Stream),
    ("XADD", Group::Stream),
    ("XAUTOCLAIM", Group::Stream),
    ("XCLAIM", Group::Stream),
    ("XDEL", Group::Stream),
    ("XGROUP", Group::Stream),
    ("XINFO", Group::Stream),
    ("XLEN", Group::Stream),
    ("XPENDING", Group::Stream),
    ("XRANGE", Group::Stream),
    ("XREAD", Group::Stream),
    ("XREADGROUP", Group::Stream),
    ("XREVRANGE", Group::Stream),
    ("XSETID", Group::Stream),
    ("XTRIM", Group::Stream),
];

/// The group of `name` (any case) if it is a Redis 7.0 command the store does not run; `None`
/// for a command it runs and for a name Redis does not know either.
pub fn left_out(name: &[u8]) -> Option<Group> {
    LEFT_OUT
        .iter()
        .find(|(command, _)| command.as_bytes().eq_ignore_ascii_case(name))
        .map(|&(_, group)| group)
}

/// Every left-out command with its group, for tests that hold the list against Redis.
pub fn all_left_out() -> impl Iterator<Item = (&'static str, Group)> {
    LEFT_OUT.iter().copied()
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
    fn the_list_is_in_byte_order_without_repeats() {
        assert!(LEFT_OUT.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
