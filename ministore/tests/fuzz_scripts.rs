//! Property tests over the script engine: Lua-ish token soups and generated programs (loops,
//! recursion, tables, redis.call, coroutines) never panic the compiler or the interpreter,
//! runaway programs are stopped by the step budget with an error reply, and a script's outcome
//! is deterministic and does not depend on the budget once it fits inside it.

use ministore::lua::{CommandHost, Script};
use ministore::{Reply, Store, ValueSnapshot};
use proptest::prelude::*;

/// A budget small enough that a runaway loop ends in microseconds.
const SMALL_BUDGET: u64 = 3_000;

/// A host that answers every `redis.call` with a fixed rotation of reply kinds, so the
/// conversion paths all get exercised without a keyspace.
struct RotatingHost {
    calls: usize,
}

impl CommandHost for RotatingHost {
    fn call(&mut self, args: &[&[u8]]) -> Reply {
        self.calls += 1;
        match self.calls % 6 {
            0 => Reply::Integer(args.len() as i64),
            1 => Reply::bulk("x"),
            2 => Reply::Nil,
            3 => Reply::Array(vec![Reply::Integer(1), Reply::bulk("a"), Reply::Nil]),
            4 => Reply::ok(),
            _ => Reply::Error("ERR rotating host error".to_string()),
        }
    }
}

const TOKENS: &[&str] = &[
    "local",
    "x",
    "y",
    "t",
    "f",
    "=",
    "==",
    "~=",
    "<",
    ">",
    "<=",
    ">=",
    "1",
    "0",
    "-1",
    "2.5",
    "1e308",
    "0x1F",
    "'s'",
    "\"q\"",
    "'%d'",
    "'%s'",
    "if",
    "then",
    "else",
    "elseif",
    "end",
    "while",
    "do",
    "for",
    "in",
    "ipairs",
    "pairs",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ";",
    ".",
    "..",
    "...",
    "+",
    "-",
    "*",
    "/",
    "%",
    "^",
    "#",
    "and",
    "or",
    "not",
    "function",
    "return",
    "break",
    "nil",
    "true",
    "false",
    "redis",
    "redis.call",
    "redis.pcall",
    "'GET'",
    "'SET'",
    "'INCR'",
    "KEYS",
    "KEYS[1]",
    "ARGV[1]",
    "tostring",
    "tonumber",
    "type",
    "unpack",
    "table.insert",
    "table.concat",
    "string.format",
    "string.sub",
    "string.len",
    "math.floor",
    "math.max",
    "math.min",
    "redis.error_reply",
    "redis.status_reply",
    "[[long]]",
    "[==[long]==]",
    "--[[c]]",
    "-- c\n",
    "\n",
    "repeat",
    "until",
    "goto",
    "::l::",
    "'\\x4",
    "\"\\",
    "'unterminated",
    "[[",
    "--[==[",
    "\u{0}",
    "é",
    ":",
    "setmetatable",
    "getmetatable",
    "{__index = t}",
    "{__call = f}",
    "__newindex",
    "__add",
    "__eq",
    "__lt",
    "__concat",
    "select",
    "'#'",
    "pcall",
    "xpcall",
    "error",
    "loadstring",
    "rawget",
    "rawset",
    "_G",
    "arg",
    "function(...)",
    "coroutine.create",
    "coroutine.resume",
    "coroutine.yield",
    "coroutine.wrap",
    "coroutine.status",
    "coroutine.running",
];

fn token_soup() -> impl Strategy<Value = String> {
    proptest::collection::vec(prop::sample::select(TOKENS), 0..40).prop_map(|t| t.join(" "))
}

/// Expressions over a few variables; any of them may be nil at run time (a runtime error).
fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        (-5i64..50).prop_map(|n| n.to_string()),
        Just("2.5".to_string()),
        Just("'7'".to_string()),
        Just("'abc'".to_string()),
        Just("nil".to_string()),
        Just("true".to_string()),
        Just("false".to_string()),
        Just("v0".to_string()),
        Just("v1".to_string()),
        Just("#t".to_string()),
        Just("t[1]".to_string()),
        Just("KEYS[1]".to_string()),
        Just("ARGV[1]".to_string()),
        Just("redis.call('INCR', KEYS[1])".to_string()),
        Just("redis.pcall('GET', KEYS[1])".to_string()),
        Just("o".to_string()),
        Just("o.x".to_string()),
        Just("o(2)".to_string()),
        Just("(...)".to_string()),
        Just("select('#', ...)".to_string()),
        Just("arg".to_string()),
        Just("_G.v".to_string()),
        Just("select(2, pcall(error, 'e', 2))".to_string()),
        Just("coroutine.yield(v0)".to_string()),
    ];
    leaf.prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec![
                    "+", "-", "*", "/", "%", "..", "==", "~=", "<", "and", "or"
                ]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            inner.clone().prop_map(|a| format!("not {a}")),
            inner.clone().prop_map(|a| format!("tostring({a})")),
            inner.clone().prop_map(|a| format!("tonumber({a})")),
            inner.clone().prop_map(|a| format!("type({a})")),
            inner
                .clone()
                .prop_map(|a| format!("string.format('%d-%s', {a}, {a})")),
            inner.clone().prop_map(|a| format!("math.floor({a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!(
                "(function(...) return select('#', ...), ... end)({a}, {b})"
            )),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(o + {a}) .. (o .. {b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("(o == {a}) or (o < {b})")),
            inner
                .clone()
                .prop_map(|a| format!("select(2, xpcall(function() return {a} end, tostring))")),
            inner
                .clone()
                .prop_map(|a| format!("setmetatable({{}}, {{__index = o}})[{a}]")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("{{{a}, {b}, k = {a}}}")),
        ]
    })
}

/// Statements, including loops whose condition may never turn false (the budget ends those).
fn block() -> impl Strategy<Value = String> {
    let simple = prop_oneof![
        expr().prop_map(|e| format!("v0 = {e}")),
        expr().prop_map(|e| format!("v1 = {e}")),
        expr().prop_map(|e| format!("t[#t + 1] = {e}")),
        expr().prop_map(|e| format!("table.insert(t, {e})")),
        expr().prop_map(|e| format!("redis.call('SET', KEYS[1], tostring({e}))")),
        expr().prop_map(|e| format!("redis.pcall('HSET', 'h', 'f', {e})")),
        Just("break".to_string()),
        expr().prop_map(|e| format!("o[{e}] = {e}")),
        expr().prop_map(|e| format!("error({e}, 2)")),
        expr().prop_map(|e| format!("v0 = select(2, pcall(error, {e}))")),
    ];
    simple.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 1..4).prop_map(|s| s.join("\n")),
            (expr(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| format!("if {c} then\n{a}\nelse\n{b}\nend")),
            (0i64..20, inner.clone()).prop_map(|(n, b)| format!("for i = 1, {n} do\n{b}\nend")),
            inner.clone().prop_map(|b| format!("for i, v in ipairs(t) do\n{b}\nend")),
            inner.clone().prop_map(|b| format!("for k, v in pairs(t) do\n{b}\nend")),
            (expr(), inner.clone()).prop_map(|(c, b)| format!("while {c} do\n{b}\nend")),
            inner.clone().prop_map(|b| format!("do\n{b}\nend")),
            inner.clone().prop_map(|b| format!("local function g(n)\nif n > 3 then return n end\n{b}\nreturn g(n + 1)\nend\nv1 = g(0)")),
            // The block in a coroutine, resumed until it ends or fails: its yields (and the
            // refusals inside pcall, metamethods and iterators) all get exercised.
            inner.prop_map(|b| format!("local co = coroutine.wrap(function()\n{b}\nend)\nfor i = 1, 4 do if not pcall(co, i) then break end end")),
        ]
    })
}

/// An object whose metamethods every generated program can reach.
const PRELUDE: &str = "local store = {}\nlocal mt = {__index = function(t, k) return k end, \
    __newindex = store, __call = function(self, x) return x end, \
    __add = function(a, b) return 1 end, __concat = function(a, b) return 'c' end, \
    __eq = function() return true end, __lt = function() return false end}\n\
    local o = setmetatable({}, mt)\n";

fn program() -> impl Strategy<Value = String> {
    (block(), expr()).prop_map(|(body, ret)| {
        format!("{PRELUDE}local t = {{}}\nlocal v0, v1 = 1, 'a'\n{body}\nreturn {ret}")
    })
}

/// Runs a script on a fresh store, returning its reply and what the store holds afterwards.
fn run_fresh(source: &str, budget: u64) -> (Reply, Vec<ministore::KeySnapshot>) {
    let mut store = Store::new();
    store.set_step_budget(budget);
    let reply = store.eval(source, &["k"], &["arg"]);
    (reply, store.snapshot())
}

/// `tostring` of a table or function prints its address, which differs between runs (in real
/// Lua and Redis too); outcomes that show one are left out of the determinism checks.
fn shows_an_address(outcome: &(Reply, Vec<ministore::KeySnapshot>)) -> bool {
    let mut texts = vec![outcome.0.to_cli_text()];
    for entry in &outcome.1 {
        match &entry.value {
            ValueSnapshot::String(v) => texts.push(String::from_utf8_lossy(v).into_owned()),
            ValueSnapshot::Hash(fields) => {
                for (f, v) in fields {
                    texts.push(String::from_utf8_lossy(f).into_owned());
                    texts.push(String::from_utf8_lossy(v).into_owned());
                }
            }
            ValueSnapshot::ZSet(members) => {
                texts.extend(
                    members
                        .iter()
                        .map(|(m, _)| String::from_utf8_lossy(m).into_owned()),
                );
            }
            ValueSnapshot::List(items) | ValueSnapshot::Set(items) => {
                texts.extend(
                    items
                        .iter()
                        .map(|m| String::from_utf8_lossy(m).into_owned()),
                );
            }
        }
    }
    texts
        .iter()
        .any(|t| t.contains("table: ") || t.contains("function: "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn token_soups_never_panic_the_compiler_or_the_engine(source in token_soup()) {
        if let Ok(script) = Script::compile(source.as_bytes()) {
            let mut host = RotatingHost { calls: 0 };
            let reply = script.run("0000000000000000000000000000000000000000", &[b"k".to_vec()], &[b"a".to_vec()], &mut host, SMALL_BUDGET);
            let _ = reply.to_cli_text();
        }
        let (reply, _) = run_fresh(&source, SMALL_BUDGET);
        let _ = reply.to_cli_text();
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_compiler(source in proptest::collection::vec(any::<u8>(), 0..120)) {
        let _ = Script::compile(&source);
    }

    #[test]
    fn generated_programs_are_deterministic(source in program()) {
        let first = run_fresh(&source, SMALL_BUDGET);
        if !shows_an_address(&first) {
            prop_assert_eq!(first, run_fresh(&source, SMALL_BUDGET));
        }
    }

    #[test]
    fn a_program_that_fits_the_budget_gives_the_same_outcome_under_a_larger_one(source in program()) {
        let small = run_fresh(&source, SMALL_BUDGET);
        if !small.0.is_error() && !shows_an_address(&small) {
            prop_assert_eq!(small, run_fresh(&source, SMALL_BUDGET * 100), "{}", source);
        }
    }

    #[test]
    fn unbounded_loops_are_stopped_by_the_budget(body in block(), kind in 0u8..2) {
        // `break` inside the body could end the loop legitimately, so it is taken out.
        let body = body.replace("break", "v0 = v0");
        let source = match kind {
            0 => format!("local t = {{}}\nlocal v0, v1 = 1, 'a'\nwhile true do\n{body}\nend"),
            _ => format!("local t = {{}}\nlocal v0, v1 = 1, 'a'\nrepeat\n{body}\nuntil false"),
        };
        let (reply, _) = run_fresh(&source, SMALL_BUDGET);
        prop_assert!(reply.is_error(), "{} returned {:?}", source, reply);
    }
}

#[test]
fn writes_before_a_budget_stop_stay_like_redis_keeps_them() {
    let mut store = Store::new();
    store.set_step_budget(SMALL_BUDGET);
    let reply = store.eval(
        "redis.call('SET', KEYS[1], 'written') while true do end",
        &["k"],
        &[] as &[&str],
    );
    assert!(reply.is_error());
    assert_eq!(store.exec(&["GET", "k"]), Reply::bulk("written"));
}
