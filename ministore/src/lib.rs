//! ministore — an in-memory store with Redis 7.0 command semantics, a Lua 5.1-semantics script
//! engine, and a virtual clock, small enough to run inside a course page compiled to wasm.
//!
//! # Layout
//! - [`store`]: the public face — [`Store`] runs commands and scripts and hands out snapshots.
//! - [`session`]: one client connection's state ([`Session`]: selected database, MULTI queue,
//!   WATCH list), for a server holding many clients over one store.
//! - `keyspace`: keys, values and per-key expiry on the virtual clock (lazy expiry, like Redis).
//! - `cmd`: one module per command family; `cmd::dispatch` routes a parsed command line.
//! - `args`: the argument cursor commands parse with.
//! - `glob`: Redis's glob patterns (MATCH options).
//! - `numtext`: C's `%g` number text, shared by replies and scripts.
//! - `longdouble`: the 80-bit `long double` arithmetic of the INCRBYFLOAT family.
//! - `pubsub`: where PUBLISH delivers (nowhere, unless a server installs subscribers).
//! - `rng`: the seedable random numbers of HRANDFIELD, ZRANDMEMBER and the like.
//! - `error`: every Redis error text the commands can reply, in one place.
//! - [`reply`]: the RESP-style [`Reply`] and its `redis-cli --no-raw` rendering.
//! - [`frame`], `shape`: replies in RESP3's types, and which command Redis 7.0 answers with
//!   which (for RESP3 clients of `ministore serve` and scripts after `redis.setresp(3)`).
//! - `lua`: lexer → parser → interpreter for the Lua subset Redis scripts use, with the
//!   Redis⇄Lua conversion rules and a step budget.
//! - [`cli`]: redis-cli's line syntax (quoting and escapes), used by the `ministore` binary.
//! - [`serve`] (native only): `ministore serve`, a RESP2/RESP3 server over TCP around one store.
//! - `interrupt`: how another thread stops a running script ([`ScriptInterrupt`]).
//!
//! Nothing here reads the wall clock or touches the web: the caller advances time.

mod args;
pub mod cli;
mod cmd;
mod error;
pub mod frame;
mod glob;
mod interrupt;
mod keyspace;
mod longdouble;
pub mod lua;
mod numtext;
mod pubsub;
pub mod reply;
mod rng;
#[cfg(not(target_arch = "wasm32"))]
pub mod serve;
pub mod session;
mod shape;
pub mod store;

pub use interrupt::ScriptInterrupt;
pub use pubsub::Deliver;
pub use reply::Reply;
pub use session::Session;
pub use store::{KeySnapshot, Store, ValueSnapshot};
