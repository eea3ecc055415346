//! The locks the figure offers: the brief's token-checked release, the two teaching foils (blind
//! `DEL`, `GET` then `DEL`), a fenced lock, and fifteen real libraries' unmodified scripts or
//! commands, each called the way its library calls it (keys, arguments, token shape, success rule)
//! and credited with its provenance. The library scripts are the test data under
//! `ministore/tests/locklibs/`, read in with `include_str!`, never copied.
//!
//! This file lists them ([`IDS`], [`all`], [`by_id`]); the brief's own locks are in `brief.rs`,
//! each library in the file of its language (`go.rs`, `python.rs`, `javascript.rs`, `java.rs`,
//! `php.rs`, `ruby.rs`, `dotnet.rs`).

mod brief;
mod dotnet;
mod go;
mod java;
mod javascript;
mod php;
mod python;
mod ruby;

use super::spec::{LockSpec, Op, SpecError, Success};
use dotnet::stackexchange_redis;
use go::{bsm_redislock, redsync};
use java::{redisson, shedlock, shedlock_safe, spring};
use javascript::{bullmq, node_redlock};
use php::{laravel, symfony_lock};
use python::{celery_once, python_redis_lock, redis_py, rq_scheduler};
use ruby::resque_scheduler;

pub use brief::{
    blind_del, fenced, get_then_del, token_checked, FENCED_ACQUIRE_SCRIPT, FENCING_COUNTER_KEY,
};

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
