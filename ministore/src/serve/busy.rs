//! The busy script: which script is running and since when, so that once it has run past the
//! busy-reply threshold other clients get Redis's `BUSY` reply, FUNCTION STATS describes a
//! running function, and SCRIPT KILL / FUNCTION KILL can stop it (unless it already wrote)
//! through the store's [`ScriptInterrupt`].

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::lock::lock;
use crate::cmd::functions::{running_function, stats_reply};
use crate::cmd::libraries::FunctionCounts;
use crate::frame::Frame;
use crate::{Reply, ScriptInterrupt};

/// Redis's `busy-reply-threshold` default (`lua-time-limit`), 5 seconds.
pub const DEFAULT_BUSY_THRESHOLD: Duration = Duration::from_secs(5);

/// What other clients get while an EVAL script runs past the threshold.
pub const BUSY_EVAL: &str =
    "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
/// …and while a function (FCALL) does.
pub const BUSY_FUNCTION: &str =
    "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";
const NOT_BUSY: &str = "NOTBUSY No scripts in execution right now.";
const UNKILLABLE: &str = "UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.";

/// The script in progress, shared by all connections.
pub struct ScriptRun {
    threshold: Duration,
    current: Mutex<Option<Running>>,
    /// Handed to the store so the running script sees kill requests.
    pub interrupt: Arc<ScriptInterrupt>,
}

#[derive(Clone)]
struct Running {
    since: Instant,
    /// EVAL/EVALSHA (true) or FCALL (false): each KILL only stops its own kind.
    eval: bool,
    /// For an FCALL, what FUNCTION STATS shows while it runs.
    function: Option<Arc<RunningFunction>>,
}

/// A running FCALL as FUNCTION STATS describes it: the function's registered name, the command,
/// and the libraries' counts as they stood when it began (no library can be loaded or deleted
/// while it runs).
pub struct RunningFunction {
    /// The function's name as registered (FCALL finds it in any case).
    pub name: Vec<u8>,
    /// The FCALL's words.
    pub command: Vec<Vec<u8>>,
    /// How many libraries and functions are loaded.
    pub counts: FunctionCounts,
}

impl ScriptRun {
    /// No script running; BUSY after `threshold`.
    pub fn new(threshold: Duration) -> ScriptRun {
        ScriptRun {
            threshold,
            current: Mutex::new(None),
            interrupt: Arc::new(ScriptInterrupt::default()),
        }
    }

    /// A script starts (called with the store locked); `function` for an FCALL.
    pub fn begin(&self, eval: bool, function: Option<RunningFunction>) {
        self.interrupt.reset();
        *lock(&self.current) = Some(Running {
            since: Instant::now(),
            eval,
            function: function.map(Arc::new),
        });
    }

    /// The script ended.
    pub fn end(&self) {
        *lock(&self.current) = None;
    }

    /// Whether a script runs at all.
    pub fn running(&self) -> bool {
        lock(&self.current).is_some()
    }

    /// The BUSY reply, once the running script has passed the threshold.
    pub fn busy_reply(&self) -> Option<Frame> {
        let current = lock(&self.current).clone();
        current
            .filter(|run| run.since.elapsed() >= self.threshold)
            .map(|run| Frame::Error(if run.eval { BUSY_EVAL } else { BUSY_FUNCTION }.into()))
    }

    /// FUNCTION STATS while a function runs (Redis flags it `allow-busy`): the function's
    /// name, its command and how long it has run, with the libraries' counts; `None` while an
    /// EVAL script runs (which gets BUSY) or none does.
    pub fn function_stats(&self) -> Option<Reply> {
        let run = lock(&self.current).clone()?;
        let function = run.function?;
        let ms = i64::try_from(run.since.elapsed().as_millis()).unwrap_or(i64::MAX);
        let running = running_function(&function.name, &function.command, ms);
        Some(stats_reply(Some(running), function.counts))
    }

    /// SCRIPT KILL (`eval`) or FUNCTION KILL. Before the threshold Redis is not serving other
    /// clients at all, so this waits for the threshold or for the script to end first.
    pub fn kill(&self, eval: bool) -> Frame {
        loop {
            let current = lock(&self.current).clone();
            let Some(run) = current else {
                return Frame::Error(NOT_BUSY.into());
            };
            if run.since.elapsed() < self.threshold {
                std::thread::sleep(Duration::from_millis(5));
                continue;
            }
            if self.interrupt.has_written() {
                return Frame::Error(UNKILLABLE.into());
            }
            if run.eval != eval {
                return Frame::Error(if run.eval { BUSY_EVAL } else { BUSY_FUNCTION }.into());
            }
            self.interrupt.request_kill();
            return Frame::Simple("OK".into());
        }
    }
}
