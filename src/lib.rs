//! lockdive — dive R2.02.2 of the distributed-locking course, "The token makes release safe".
//!
//! # Layout
//! - `scenarios`: drive ministore through the brief's scenarios and turn replies into verdicts
//!   (pure Rust, tested natively).
//! - `content`: the dive's sections, in the brief's order.
//! - `components`: figures, readouts and code blocks; views render verdicts, never compute them.

pub mod scenarios;
