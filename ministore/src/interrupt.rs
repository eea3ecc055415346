//! A running script's line to other threads: the flag SCRIPT KILL / FUNCTION KILL raise to stop
//! it, and whether it has called a write command yet (Redis refuses to kill a script that wrote).
//! The store itself never raises the flag; a server shares one [`ScriptInterrupt`] with it.

use std::sync::atomic::{AtomicBool, Ordering};

/// Shared between the thread running scripts and the threads that may stop them.
#[derive(Debug, Default)]
pub struct ScriptInterrupt {
    kill: AtomicBool,
    wrote: AtomicBool,
}

impl ScriptInterrupt {
    /// Clears both flags; called as a script starts.
    pub fn reset(&self) {
        self.kill.store(false, Ordering::Release);
        self.wrote.store(false, Ordering::Release);
    }

    /// Asks the running script to stop at its next check.
    pub fn request_kill(&self) {
        self.kill.store(true, Ordering::Release);
    }

    /// Whether a stop was asked for.
    pub fn kill_requested(&self) -> bool {
        self.kill.load(Ordering::Acquire)
    }

    /// Whether the running script has called a write command.
    pub fn has_written(&self) -> bool {
        self.wrote.load(Ordering::Acquire)
    }

    /// Records that the running script called a write command.
    pub(crate) fn mark_written(&self) {
        self.wrote.store(true, Ordering::Release);
    }
}
