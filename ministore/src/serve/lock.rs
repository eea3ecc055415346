//! The one way the server takes a mutex. Every lock in `serve` goes through [`lock`], so a
//! thread that panicked while holding one never poisons the state the other clients share.

use std::sync::{Mutex, MutexGuard};

/// Locks a mutex even if a thread panicked while holding it: one client's panic must not take
/// the others' data down with it.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
