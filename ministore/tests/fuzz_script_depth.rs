//! Depth limits of the script engine: deeply nested source and unbounded recursion must end
//! in an error reply, never a native stack overflow (which would abort the process, or kill the
//! page in wasm). Kept apart from `fuzz_scripts.rs` because an overflow aborts every test in
//! the binary. Real Redis answers these with Lua's "chunk has too many syntax levels" (200
//! levels) and "stack overflow" errors.

use ministore::{Reply, Store};

fn eval(source: &str, budget: u64) -> Reply {
    let mut store = Store::new();
    store.set_step_budget(budget);
    store.eval(source, &["k"], &["arg"])
}

#[test]
fn deep_nesting_is_refused_or_run_without_overflowing_the_stack() {
    let depth = 100_000;
    let sources = [
        format!("return {}1{}", "(".repeat(depth), ")".repeat(depth)),
        format!("return {}1{}", "{".repeat(depth), "}".repeat(depth)),
        format!("return {}1", "not ".repeat(depth)),
        format!("return {}1", "- ".repeat(depth)),
        format!("return 1{}", " .. 1".repeat(depth)),
        format!("return 1{}", " ^ 1".repeat(depth)),
        format!("{}{}", "do ".repeat(depth), "end ".repeat(depth)),
        format!("{}{}", "if true then ".repeat(depth), "end ".repeat(depth)),
        format!("return {}1{}", "tostring(".repeat(depth), ")".repeat(depth)),
        format!("local t = {{}} return t{}", "[1]".repeat(depth)),
    ];
    for source in &sources {
        let reply = eval(source, 3_000);
        assert!(!reply.to_cli_text().is_empty(), "every outcome renders");
    }
}

#[test]
fn moderate_nesting_still_compiles_and_runs() {
    let depth = 100;
    let parens = format!("return {}1{}", "(".repeat(depth), ")".repeat(depth));
    assert_eq!(eval(&parens, 10_000), Reply::Integer(1));
    let blocks = format!("{}return 7 {}", "do ".repeat(depth), "end ".repeat(depth));
    assert_eq!(eval(&blocks, 10_000), Reply::Integer(7));
}

#[test]
fn moderate_recursion_still_runs() {
    let source =
        "local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end return f(100)";
    assert_eq!(eval(source, 1_000_000), Reply::Integer(100));
}

#[test]
fn unbounded_recursion_is_stopped_with_an_error() {
    for source in [
        "local function f(n) return f(n + 1) + 1 end return f(1)",
        "local function f(n) return 1 + f(n + 1) end return f(1)",
        "local t = {} local function f() t[#t + 1] = f() end f()",
    ] {
        let reply = eval(source, 1_000_000);
        assert!(reply.is_error(), "{source} returned {reply:?}");
    }
}

#[test]
fn a_tail_call_spin_is_stopped_by_the_budget() {
    // Lua's proper tail calls make this an endless loop in real Redis (it ends in BUSY); here
    // the step budget (or a call-depth limit) must end it with an error reply.
    let reply = eval(
        "local function spin() return spin() end return spin()",
        3_000,
    );
    assert!(reply.is_error(), "{reply:?}");
}

#[test]
fn unbounded_recursion_through_metamethods_and_library_calls_is_stopped_with_an_error() {
    for source in [
        "local t = setmetatable({}, {__index = function(t, k) return t[k] end}) return t.x",
        "local t = setmetatable({}, {__index = function(t, k) return t[k] .. '' end}) return t.x",
        "local t = setmetatable({}, {__newindex = function(t, k, v) t[k] = v end}) t.x = 1",
        "local mt = {} mt.__add = function(a, b) return a + b end local t = setmetatable({}, mt) return t + 1",
        "local mt = {} mt.__concat = function(a, b) return a .. b end local t = setmetatable({}, mt) return t .. 'x'",
        "local mt = {} mt.__unm = function(a) return -a end local t = setmetatable({}, mt) return -t",
        "local mt = {} mt.__eq = function(a, b) return a == b end local x, y = setmetatable({}, mt), setmetatable({}, mt) return x == y",
        "local mt = {} mt.__lt = function(a, b) return a < b end local x, y = setmetatable({}, mt), setmetatable({}, mt) return x < y",
        "local mt = {} mt.__le = function(a, b) return a <= b end local x, y = setmetatable({}, mt), setmetatable({}, mt) return x <= y",
        "local mt = {} mt.__call = function(self) return self() end local t = setmetatable({}, mt) return t()",
        "local mt = {} mt.__tostring = function(self) return tostring(self) end return tostring(setmetatable({}, mt))",
        "local function f() local ok, e = pcall(f) error(e, 0) end f()",
        "local function f(...) return f(1, ...) end return f()",
        "local function f() return loadstring('return ...')(f()) end return f()",
        "local function f() return unpack({f()}) end return f()",
        "local function f() return setmetatable({}, {__index = f}).x end return f()",
        "local t = setmetatable({}, {}) getmetatable(t).__index = t return t.x",
        "local a, b = {}, {} setmetatable(a, {__index = b}) setmetatable(b, {__index = a}) return a.x",
        "local a, b = {}, {} setmetatable(a, {__newindex = b}) setmetatable(b, {__newindex = a}) a.x = 1",
    ] {
        let reply = eval(source, 5_000_000);
        assert!(reply.is_error(), "{source} returned {reply:?}");
    }
}

#[test]
fn recursion_a_pcall_catches_ends_without_overflowing() {
    for source in [
        "local function f() return pcall(f) end return f()",
        "local function f() return xpcall(f, f) end return f()",
        "local function f() return select(2, pcall(f)) end return f()",
        "local function f() return {pcall(f)} end return f()",
    ] {
        let reply = eval(source, 5_000_000);
        assert!(!reply.to_cli_text().is_empty(), "{source}");
    }
}

#[test]
fn runaway_varargs_and_metamethods_are_stopped_by_the_budget() {
    for source in [
        "local function f(...) return select('#', ...) end while true do f(1, 2, 3) end",
        "local t = setmetatable({}, {__index = function(t, k) return k end}) local i = 0 while true do i = i + t[i] end",
        "local function f(...) local t = {...} return f(unpack(t)) end return f(1, 2, 3)",
        "while true do pcall(error, 'x') end",
        "while true do loadstring('return 1')() end",
    ] {
        let reply = eval(source, 20_000);
        assert!(reply.is_error(), "{source} returned {reply:?}");
    }
}

#[test]
fn unbounded_nesting_of_coroutines_is_stopped_with_an_error() {
    for source in [
        "local function r() return coroutine.wrap(r)() end return r()",
        "local function r() local co = coroutine.create(r) local ok, e = coroutine.resume(co) \
         if not ok then error(e, 0) end return e end return r()",
        "local function f(n) return 1 + f(n + 1) end return coroutine.wrap(f)(1)",
        "local function r() local co = coroutine.wrap(function() coroutine.yield(r()) end) \
         return co() end return r()",
        "local function f(n) if n % 50 == 0 then coroutine.yield() end return 1 + f(n + 1) end \
         local co = coroutine.wrap(f) while true do co(1) end",
    ] {
        let reply = eval(source, 1_000_000);
        assert!(reply.is_error(), "{source} returned {reply:?}");
    }
}

#[test]
fn a_yield_at_the_recursion_limit_resumes_without_overflowing() {
    // Each resume rebuilds the whole path back to the yield, at whatever depth it was.
    let source = "local function f(n) if n == 0 then coroutine.yield(0) return 0 end \
        return 1 + f(n - 1) end \
        local depth = 0 \
        for n = 1, 200 do local co = coroutine.wrap(function() return f(n) end) \
          if not pcall(co) then break end depth = n co() end \
        return depth";
    let Reply::Integer(depth) = eval(source, 10_000_000) else {
        panic!("no depth");
    };
    assert!(depth > 50, "{depth}");
}
