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
//! - `numtext`: C's `%e`, `%f` and `%g` text of a double, shared by replies and scripts (core's
//!   float formatting would link its own into the wasm).
//! - `float_parse`: decimal text to a correctly rounded `f64`, for every float ministore reads
//!   (core's own parser would link a 10 KB table into the wasm).
//! - `longdouble`: the 80-bit `long double` arithmetic of the INCRBYFLOAT family and of the
//!   blocking commands' timeouts.
//! - `bignum`: the big integers under `float_parse` and `longdouble`, for exact decimal → binary
//!   conversion.
//! - [`left_out`]: Redis 7.0's commands the store does not run, by their `COMMAND DOCS` group.
//! - `pubsub`: where PUBLISH delivers (nowhere, unless a server installs subscribers).
//! - `order`: the one sort every sorted reply goes through.
//! - `rng`: the seedable random numbers of HRANDFIELD, ZRANDMEMBER and the like.
//! - `error`: every Redis error text the commands can reply, in one place.
//! - [`reply`]: the RESP-style [`Reply`] and its `redis-cli --no-raw` rendering.
//! - [`frame`], `shape`: replies in RESP3's types, and which command Redis 7.0 answers with
//!   which (for RESP3 clients of `ministore serve` and scripts after `redis.setresp(3)`).
//! - `lua`: lexer → parser → interpreter for the Lua subset Redis scripts use, with the
//!   Redis⇄Lua conversion rules and a step budget.
//! - [`cli`]: redis-cli's line syntax (quoting and escapes), used by the `ministore` binary,
//!   the page's consoles and the lock checker's pasted command lines.
//! - [`serve`] (native only): `ministore serve`, a RESP2/RESP3 server over TCP around one store.
//! - `interrupt`: how another thread stops a running script ([`ScriptInterrupt`]).
//! - `keybytes`: how [`Store::state_key`] and [`Store::session_key`] write each field.
//!
//! The store never reads the wall clock, and nothing here touches the web: the caller advances
//! time (`serve`, with its real clock, moves the store's to the wall time).
//!
//! # Features
//! `full` (on by default) is everything above. Without it the command table keeps GET, SET, DEL
//! and PTTL, and scripts run only through [`Store::eval`] (and [`Store::evalsha`]), with the base,
//! `string` (without its pattern and format functions) and `redis` (without `setresp`: replies
//! reach scripts as RESP2) libraries; nothing is watched, and there is no `serve`: what a course
//! page's figures run, linked without the rest.

// Without `full`, the cut command families and Lua libraries are compiled out, but the shared
// layers under them (the keyspace's hash, list, set and sorted-set values and encodings, WATCH
// bookkeeping, glob patterns, the RESP3 shapes, the interpreter's coroutine and pattern support)
// keep items only those families used.
#![cfg_attr(not(feature = "full"), allow(dead_code))]

mod args;
mod bignum;
pub mod cli;
mod cmd;
mod error;
mod float_parse;
pub mod frame;
mod glob;
mod interrupt;
mod keybytes;
mod keyspace;
pub mod left_out;
#[cfg(feature = "full")]
mod longdouble;
pub mod lua;
mod numtext;
mod order;
mod pubsub;
pub mod reply;
mod rng;
#[cfg(all(not(target_arch = "wasm32"), feature = "full"))]
pub mod serve;
pub mod session;
mod shape;
pub mod store;
mod strtod;

pub use interrupt::ScriptInterrupt;
pub use keyspace::Readied;
pub use pubsub::{ChannelKind, Deliver};
pub use reply::Reply;
pub use session::Session;
pub use store::{KeySnapshot, Store, ValueSnapshot};
