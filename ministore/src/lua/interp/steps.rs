//! The step budget and SCRIPT KILL: every step of a run is counted against its budget, and
//! every so many steps the host is asked whether the script must stop. A script or function
//! then raises Redis 7.0's catchable kill error, raised again at each new line, function entry
//! or loop pass (Redis's line hook); a library's load is stopped outright.

use super::{convert, Fault, Interp};

/// The host is asked whether the script must stop once every this many steps (a power of two).
const INTERRUPT_EVERY: u64 = 1024;

/// The error a killed script raises (Redis's `luaPushError` adds the `ERR`).
pub const KILLED: &str = "ERR Script killed by user with SCRIPT KILL...";

impl Interp<'_> {
    /// Counts one step and stops the script once the budget is spent.
    #[inline]
    pub fn step(&mut self, line: u32) -> Result<(), Fault> {
        self.steps += 1;
        if self.steps > self.budget {
            return Err(Fault::Budget { line });
        }
        if let Some(raised_on) = self.killed {
            if raised_on != Some(line) {
                return Err(self.kill(line));
            }
        } else if self.steps.is_multiple_of(INTERRUPT_EVERY) && self.host.interrupted() {
            // A library's load is stopped outright (Redis's load timeout).
            if self.kind.is_load() {
                return Err(Fault::Killed { line });
            }
            return Err(self.kill(line));
        }
        Ok(())
    }

    /// A loop's step at the start of a pass that jumps back to it (every pass of a `for`, all
    /// but the first of a `while` or `repeat`): Lua's line hook fires on a jump back, even to
    /// the same line.
    pub(super) fn loop_step(&mut self, line: u32) -> Result<(), Fault> {
        self.entering_function();
        self.step(line)
    }

    /// Lua's line hook also fires on a function's first instruction: after a kill, the next
    /// step raises it again whatever its line.
    pub(super) fn entering_function(&mut self) {
        if let Some(raised_on) = &mut self.killed {
            *raised_on = None;
        }
    }

    /// Redis 7.0's kill: an error table a script's `pcall` can catch (`luaMaskCountHook`), which
    /// the next line raises again.
    fn kill(&mut self, line: u32) -> Fault {
        self.killed = Some(Some(line));
        Fault::Error {
            value: convert::error_table(KILLED.into()),
            line,
        }
    }

    /// Steps left before the budget runs out.
    pub fn remaining(&self) -> u64 {
        self.budget.saturating_sub(self.steps)
    }

    /// Charges `n` steps at once (for library functions doing work proportional to their input).
    pub fn charge(&mut self, n: u64, line: u32) -> Result<(), Fault> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.budget {
            return Err(Fault::Budget { line });
        }
        Ok(())
    }
}
