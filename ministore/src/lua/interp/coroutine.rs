//! Coroutines on a tree-walking interpreter that has one native stack and no way to switch it
//! (wasm32 has no threads and no stack switching).
//!
//! **Design: unwind on yield, replay on resume.** `coroutine.yield` returns
//! [`Fault::Yield`], which unwinds the Rust stack like an error. Every interpreter construct it
//! passes through on the way to the coroutine's base pushes one [`Saved`] record of its partial
//! state (the statement a block was at, the operand already evaluated, the arguments of a call
//! evaluated so far, a function's variables, …) onto [`Control::unwound`]; the records of one
//! yield, innermost first, become the suspended coroutine's [`Continuation`], which the
//! coroutine value keeps. Resuming calls the coroutine's function again with those records in
//! [`Control::replay`]: each construct on the
//! path pops its record first thing, restores its state instead of starting afresh (it
//! evaluates nothing already evaluated), and goes straight into the part that was running. The
//! innermost record is the call that yielded; it returns the values passed to `resume`, and
//! from there on the code runs normally. Constructs with no partial state of their own (`eval`
//! dispatching on an expression, a unary operator, `return`'s list) are passed through again,
//! which rebuilds the interpreter's native frames, its nesting count and its call stack.
//! Variables live in shared cells, so moving a function's variable list out and back keeps every
//! closure that captured one of them pointing at the same cell.
//!
//! **Where a coroutine can yield.** Lua 5.1 refuses to yield across a C call: inside `pcall`,
//! `xpcall`, a metamethod, a `table.sort` comparator, a `gsub` callback, `tostring`'s
//! `__tostring`, the iterator function a generic `for` calls, … Here every such call goes
//! through [`Interp::call_value`], which counts itself in [`Control::c_calls`]; `yield` refuses
//! with Lua's "attempt to yield across metamethod/C-call boundary" whenever that count is above
//! the one the running coroutine was resumed at, exactly as Lua 5.1 compares `nCcalls` with
//! `baseCcalls`. Calls the interpreter makes for the script itself (call expressions and
//! statements, method calls, `__call`) do not count, so a yield works from any depth of Lua
//! calls and from any position Lua 5.1 allows: statements, conditions, loop bounds, operands,
//! arguments, table constructors, assignments and returns. The main script is not a coroutine,
//! so a yield there gets the same error, as in Redis.
//!
//! **Limits.** A resume re-counts the handful of budget steps on the path back to the yield
//! (each statement and expression it passes through once more), so a coroutine's steps cost
//! slightly more than the same code run straight. The path is rebuilt on every resume, so a
//! resume costs time proportional to how deep the yield was. A coroutine that ends up holding
//! itself (through a variable its own function captured) is never freed, like any other
//! reference cycle between closures: values are reference-counted, not garbage-collected.
//!
//! [`Control::unwound`]: super::saved::Control::unwound
//! [`Control::replay`]: super::saved::Control::replay
//! [`Control::c_calls`]: super::saved::Control::c_calls

use std::rc::Rc;

use super::fault::{bare_error, Fault, C_BOUNDARY};
use super::saved::{lost_track, Active, Saved};
use super::{Callee, Interp};
use crate::lua::value::{Continuation, Coroutine, Progress, Value};

impl Interp<'_> {
    /// While a resumed coroutine re-enters the path to its yield: the record this construct
    /// saved, picked out by `pick`. `None` when running normally, which every construct asks
    /// on its hot path, so that answer is inlined and the rest kept out of line.
    #[inline(always)]
    pub(super) fn resumed<T>(
        &mut self,
        line: u32,
        pick: impl FnOnce(Saved) -> Option<T>,
    ) -> Result<Option<T>, Fault> {
        if self.co.replay.is_empty() {
            return Ok(None);
        }
        self.take_saved(line, pick)
    }

    #[cold]
    #[inline(never)]
    fn take_saved<T>(
        &mut self,
        line: u32,
        pick: impl FnOnce(Saved) -> Option<T>,
    ) -> Result<Option<T>, Fault> {
        match self.co.replay.pop() {
            None => Ok(None),
            Some(saved) => pick(saved).map(Some).ok_or_else(|| lost_track(line)),
        }
    }

    /// Passes a fault on; a yield first records the state of the construct it leaves. Only
    /// ever on an error path, so kept out of the hot code; the record is built by the caller
    /// (and dropped here for any other fault), so that one function serves every construct.
    #[cold]
    #[inline(never)]
    pub(super) fn suspend(&mut self, fault: Fault, saved: Saved) -> Fault {
        if let Fault::Yield = fault {
            self.co.unwound.push(saved);
        }
        fault
    }

    /// True while a resume is still on its way back to the yield.
    #[inline]
    pub(super) fn replaying(&self) -> bool {
        !self.co.replay.is_empty()
    }

    /// What a resumed `yield` returns: the values passed to `resume`.
    pub(super) fn resumed_values(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.co.transfer)
    }

    /// The lowest call-stack entry the running coroutine may look at (error levels).
    pub(super) fn stack_floor(&self) -> usize {
        self.co.active.last().map_or(0, |a| a.stack_base)
    }

    /// `coroutine.yield(...)`: suspends the running coroutine with `values`, unless there is
    /// none or a library call lies between it and its resume.
    pub fn yield_values(&mut self, values: Vec<Value>, line: u32) -> Fault {
        match self.co.active.last() {
            Some(active) if active.c_calls == self.co.c_calls => {
                self.co.transfer = values;
                Fault::Yield
            }
            _ => bare_error(line, C_BOUNDARY),
        }
    }

    /// `coroutine.resume(co, ...)`: runs `co` until it yields or ends. `Ok(Ok(values))` with
    /// what it yielded or returned, `Ok(Err(value))` when it cannot be resumed or fails (it is
    /// then dead); only the budget and SCRIPT KILL stop the caller as well.
    pub fn resume(
        &mut self,
        co: &Rc<Coroutine>,
        args: Vec<Value>,
        line: u32,
    ) -> Result<Result<Vec<Value>, Value>, Fault> {
        let status = self.status(co);
        if status != "suspended" {
            let msg = format!("cannot resume {status} coroutine");
            return Ok(Err(Value::str(msg.as_bytes())));
        }
        let call_args = match co.advance(Progress::Active) {
            Progress::Yielded(continuation) => {
                let Some(saved) = continuation.into_records::<Vec<Saved>>() else {
                    co.advance(Progress::Dead);
                    return Err(lost_track(line));
                };
                self.co.replay = saved;
                self.co.transfer = args;
                Vec::new()
            }
            _ => args,
        };
        self.co.active.push(Active {
            co: co.clone(),
            c_calls: self.co.c_calls,
            stack_base: self.stack.len(),
        });
        let result = self.call_yieldable(
            &Value::Func(co.function().clone()),
            call_args,
            line,
            Callee::Unnamed,
            false,
        );
        self.co.active.pop();
        // Left over only when the replay failed part way (stack overflow, budget).
        self.co.replay.clear();
        let (progress, outcome) = match result {
            Ok(values) => (Progress::Dead, Ok(Ok(values))),
            Err(Fault::Yield) => {
                let saved = std::mem::take(&mut self.co.unwound);
                let continuation = Continuation::new(saved);
                (
                    Progress::Yielded(continuation),
                    Ok(Ok(self.resumed_values())),
                )
            }
            Err(fault) => {
                self.co.unwound.clear();
                (Progress::Dead, self.catch(fault).map(Err))
            }
        };
        co.advance(progress);
        outcome
    }

    /// `coroutine.status(co)`.
    pub fn status(&self, co: &Rc<Coroutine>) -> &'static str {
        match &*co.progress() {
            Progress::Fresh | Progress::Yielded(_) => "suspended",
            Progress::Dead => "dead",
            Progress::Active => match self.co.active.last() {
                Some(a) if Rc::ptr_eq(&a.co, co) => "running",
                _ => "normal",
            },
        }
    }

    /// `coroutine.running()`: the running coroutine, nil in the main script.
    pub fn running(&self) -> Value {
        match self.co.active.last() {
            Some(a) => Value::Thread(a.co.clone()),
            None => Value::Nil,
        }
    }
}

// The tests run scripts through the `coroutine` library, which only `full` has.
#[cfg(all(test, feature = "full"))]
mod tests {
    use super::*;
    use crate::lua::{parser, CommandHost, Script};
    use crate::reply::Reply;

    /// A host that counts the commands it is sent and answers each with its count.
    #[derive(Default)]
    struct Counter {
        calls: i64,
    }

    impl CommandHost for Counter {
        fn call(&mut self, _: &[&[u8]]) -> Reply {
            self.calls += 1;
            Reply::Integer(self.calls)
        }
    }

    fn run_with(source: &str, budget: u64) -> Reply {
        let script = match Script::compile(source.as_bytes()) {
            Ok(script) => script,
            Err(e) => panic!("{source}: {e}"),
        };
        let none: [&[u8]; 0] = [];
        script.run_inputs(
            "sha",
            &&none[..],
            &&none[..],
            &mut Counter::default(),
            budget,
        )
    }

    fn run(source: &str) -> Reply {
        run_with(source, crate::lua::DEFAULT_STEP_BUDGET)
    }

    fn text(s: &str) -> Reply {
        Reply::bulk(s)
    }

    #[test]
    fn a_yield_carries_on_from_every_position_lua_allows() {
        let cases = [
            // statement call, local, assignment, return
            ("coroutine.yield() return 'x'", "x"),
            ("local a = coroutine.yield() return a", "R"),
            ("local a a = coroutine.yield() return a", "R"),
            ("local t = {} t.k = coroutine.yield() return t.k", "R"),
            ("local a, b = 1, coroutine.yield() return b", "R"),
            ("return coroutine.yield()", "R"),
            // operands, conditions, loop bounds, constructors, arguments
            ("return 'a' .. coroutine.yield() .. 'b'", "aRb"),
            ("return (coroutine.yield())", "R"),
            ("return false or coroutine.yield()", "R"),
            ("if coroutine.yield() then return 'then' end", "then"),
            ("while coroutine.yield() do return 'body' end", "body"),
            ("repeat local v = 1 until coroutine.yield() return 'out'", "out"),
            ("local s = '' for i = 1, 2 do s = s .. coroutine.yield() end return s", "RR"),
            ("for k in pairs({a = 1}) do return k .. coroutine.yield() end", "aR"),
            ("return ({coroutine.yield()})[1]", "R"),
            ("return ({k = coroutine.yield()}).k", "R"),
            ("return ({[coroutine.yield()] = 'v'}).R", "v"),
            ("return string.lower(coroutine.yield())", "r"),
            ("return ('%s'):format(coroutine.yield())", "R"),
            ("local t = {} t[coroutine.yield()] = 'v' return t.R", "v"),
            // from nested Lua calls, a method and `__call`
            ("local function f() return coroutine.yield() end return f()", "R"),
            ("local o = {} function o:m() return coroutine.yield() end return o:m()", "R"),
            (
                "local c = setmetatable({}, {__call = function() return coroutine.yield() end}) return c()",
                "R",
            ),
        ];
        for (body, expected) in cases {
            let source = format!(
                "local co = coroutine.wrap(function() {body} end) co() \
                 local r = co('R') for i = 1, 3 do if r ~= nil then break end r = co('R') end return r"
            );
            assert_eq!(run(&source), text(expected), "{body}");
        }
    }

    #[test]
    fn resuming_evaluates_nothing_twice() {
        let source = "local n = 0 local function bump() n = n + 1 return n end \
            local t = {} \
            local co = coroutine.wrap(function() \
              t[bump()] = bump() + coroutine.yield() + bump() \
              local x = {bump(), coroutine.yield(), bump()} \
              redis.call('incr', bump(), coroutine.yield()) \
              return n end) \
            co() co(10) co(20) return co(30)";
        assert_eq!(run(source), Reply::Integer(6));
    }

    #[test]
    fn variables_and_closures_survive_a_yield() {
        let source = "local co = coroutine.wrap(function() \
              local fs = {} for i = 1, 3 do local j = i * 10 fs[i] = function() return j end coroutine.yield() end \
              return fs[1]() + fs[2]() + fs[3]() end) \
            co() co() co() return co()";
        assert_eq!(run(source), Reply::Integer(60));
    }

    #[test]
    fn a_yield_deep_in_recursion_comes_back_to_the_same_depth() {
        let source = "local function deep(n) if n == 0 then return coroutine.yield('bottom') end \
              return deep(n - 1) + 1 end \
            local co = coroutine.create(function() return deep(100) end) \
            local _, a = coroutine.resume(co) local _, b = coroutine.resume(co, 1) return {a, b}";
        assert_eq!(
            run(source),
            Reply::Array(vec![text("bottom"), Reply::Integer(101)])
        );
    }

    #[test]
    fn the_main_script_cannot_yield() {
        let Reply::Error(e) = run("return coroutine.yield(1)") else {
            panic!("a yield in the main script must fail");
        };
        assert!(e.starts_with(&format!("ERR {C_BOUNDARY} ")), "{e}");
    }

    #[test]
    fn the_budget_stops_a_runaway_loop_inside_a_coroutine() {
        for source in [
            "local co = coroutine.create(function() while true do end end) return coroutine.resume(co)",
            "return pcall(coroutine.wrap(function() local i = 0 while true do i = i + 1 end end))",
            "local f = coroutine.wrap(function() while true do coroutine.yield() end end) while true do f() end",
            "local function r() local co = coroutine.wrap(function() while true do coroutine.yield(r) end end) \
             for i = 1, 1e9 do co() end end r()",
        ] {
            let Reply::Error(e) = run_with(source, 20_000) else {
                panic!("{source}: not stopped");
            };
            assert!(e.starts_with("ERR script stopped"), "{source}: {e}");
        }
    }

    #[test]
    fn resumes_nested_past_the_native_limit_fail_as_errors() {
        let source = "local function r() local co = coroutine.create(r) \
            local ok, e = coroutine.resume(co) if not ok then error(e, 0) end return e end return r()";
        let Reply::Error(e) = run(source) else {
            panic!("endless nesting must fail");
        };
        assert!(e.contains("stack overflow"), "{e}");
    }

    #[test]
    fn error_levels_stop_at_the_coroutine() {
        let source = "local co = coroutine.create(function() error('x', 3) end) \
            local _, e = coroutine.resume(co) return e";
        assert_eq!(run(source), text("x"));
    }

    #[test]
    fn a_replay_that_loses_its_way_is_an_error_not_a_panic() {
        let Ok(chunk) = parser::parse_chunk(b"local a = 1 return a", "@user_script") else {
            panic!("parse");
        };
        let none: &[&[u8]] = &[];
        let mut host = Counter::default();
        let mut interp = Interp::new(&mut host, &none, &none, 1000, crate::lua::lib::NATIVES);
        interp.co.replay = vec![Saved::While { in_body: true }];
        match interp.run_chunk(&chunk) {
            Err(Fault::Error { value, .. }) => {
                let msg = value.to_str_bytes().unwrap_or_default();
                assert!(String::from_utf8_lossy(&msg).contains("inconsistent"));
            }
            other => panic!("expected an error, got {other:?}"),
        }
    }
}
