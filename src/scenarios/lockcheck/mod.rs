//! The lock checker: runs a lock's acquire, extend and release — the brief's token-checked release,
//! the teaching foils, a real library's unmodified scripts or commands, or the learner's own — for
//! two or three clients against one `ministore::Store`, through every interleaving of their steps
//! and of the virtual clock passing a lease (a stall), and checks five properties after each step.
//!
//! - [`spec`]: what a lock is to the checker ([`LockSpec`]: operations, keys, arguments, token shape);
//! - [`catalogue`]: the locks the figure offers, with each script's provenance;
//! - [`custom`]: a lock built from pasted Lua or command templates (`{key}`, `{token}`, `{ttl_ms}`);
//! - [`explore`]: the schedule explorer ([`Explorer`], resumable in chunks so a browser tab stays
//!   responsive);
//! - [`report`]: what it finds ([`CheckReport`], each broken property's shortest
//!   [`Counterexample`] as replayable redis-cli lines).
//!
//! Pure Rust over ministore: the native tests, the `lockcheck` CLI, the prerender's static
//! verdicts and the lab's figure all run this same code.

pub mod catalogue;
pub mod custom;
pub mod explore;
pub mod report;
pub mod spec;

pub use explore::{check, Explorer, Progress, MAX_STATES};
pub use report::{
    CheckReport, Counterexample, PropertyReport, ScheduleStep, ScriptFault, SentCommand,
    StepAction, Verdict,
};
pub use spec::{
    lease_out_of_range, AfterRefusedExtend, Bound, Call, ClientId, Extend, FencingSource, LockSpec,
    Op, OpKind, OpStep, Property, Provenance, SpecError, Success, Template, MAX_TTL_MS,
};
