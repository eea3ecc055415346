//! The script engine through its public API (`Script::compile` / `Script::run`) with a small
//! in-memory fake host: every construct, library function, conversion rule (both ways), the step
//! budget, the recursion cap and error line numbers.

use std::collections::HashMap;

use ministore::lua::{CommandHost, Script, DEFAULT_STEP_BUDGET};
use ministore::Reply;

/// A fake host: strings and hashes in maps, a command log, and Redis's replies for the handful of
/// commands the tests call (with its real error texts).
#[derive(Default)]
struct FakeHost {
    strings: HashMap<Vec<u8>, Vec<u8>>,
    hashes: HashMap<Vec<u8>, HashMap<Vec<u8>, i64>>,
    log: Vec<String>,
}

const WRONGTYPE: &str = "WRONGTYPE Operation against a key holding the wrong kind of value";

impl CommandHost for FakeHost {
    fn call(&mut self, args: &[&[u8]]) -> Reply {
        let words: Vec<String> = args
            .iter()
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        self.log.push(words.join(" "));
        let name = words[0].to_ascii_uppercase();
        let arity = |n: usize| words.len() == n;
        match name.as_str() {
            "GET" if arity(2) => {
                if self.hashes.contains_key(args[1]) {
                    return Reply::Error(WRONGTYPE.into());
                }
                self.strings
                    .get(args[1])
                    .map(|v| Reply::Bulk(v.clone()))
                    .unwrap_or(Reply::Nil)
            }
            "SET" if arity(3) => {
                self.strings.insert(args[1].to_vec(), args[2].to_vec());
                Reply::ok()
            }
            "DEL" if arity(2) => Reply::Integer(self.strings.remove(args[1]).is_some() as i64),
            "HINCRBY" if arity(4) => {
                if self.strings.contains_key(args[1]) {
                    return Reply::Error(WRONGTYPE.into());
                }
                let Ok(by) = words[3].parse::<i64>() else {
                    return Reply::Error("ERR value is not an integer or out of range".into());
                };
                let v = self
                    .hashes
                    .entry(args[1].to_vec())
                    .or_default()
                    .entry(args[2].to_vec())
                    .or_insert(0);
                *v += by;
                Reply::Integer(*v)
            }
            "PING" => Reply::Status("PONG".into()),
            "ECHOARRAY" => Reply::Array(vec![
                Reply::Integer(7),
                Reply::Bulk(b"x".to_vec()),
                Reply::Nil,
                Reply::Status("FINE".into()),
                Reply::Error("ERR inner".into()),
                Reply::Array(vec![Reply::Integer(1)]),
            ]),
            // The host plays Redis's scripting bridge, which checks arity and existence itself.
            "GET" | "SET" | "DEL" | "HINCRBY" => {
                Reply::Error("ERR Wrong number of args calling Redis command from script".into())
            }
            _ => Reply::Error("ERR Unknown Redis command called from script".into()),
        }
    }
}

const SHA: &str = "0123456789abcdef0123456789abcdef01234567";

fn run_with(src: &str, keys: &[&str], argv: &[&str], host: &mut FakeHost, budget: u64) -> Reply {
    let keys: Vec<Vec<u8>> = keys.iter().map(|k| k.as_bytes().to_vec()).collect();
    let argv: Vec<Vec<u8>> = argv.iter().map(|k| k.as_bytes().to_vec()).collect();
    match Script::compile(src.as_bytes()) {
        Ok(s) => s.run(SHA, &keys, &argv, host, budget),
        Err(e) => e.to_reply(),
    }
}

fn run(src: &str) -> Reply {
    run_with(src, &[], &[], &mut FakeHost::default(), DEFAULT_STEP_BUDGET)
}

fn bulk(s: &str) -> Reply {
    Reply::Bulk(s.as_bytes().to_vec())
}

fn int(i: i64) -> Reply {
    Reply::Integer(i)
}

fn err(s: &str) -> Reply {
    Reply::Error(s.to_string())
}

/// The decoration Redis 7.0 adds to errors raised inside a script.
fn raised(msg: &str, line: u32) -> Reply {
    Reply::Error(format!("{msg} script: {SHA}, on @user_script:{line}."))
}

fn error_text(r: &Reply) -> String {
    match r {
        Reply::Error(e) => e.clone(),
        other => panic!("expected an error reply, got {other:?}"),
    }
}

// ---- the lock scenarios of the brief ----

const RELEASE: &str =
    "if redis.call(\"GET\", KEYS[1]) == ARGV[1] then return redis.call(\"DEL\", KEYS[1]) else return 0 end";

#[test]
fn the_token_checked_release_deletes_only_the_owners_lock() {
    let mut host = FakeHost::default();
    host.strings.insert(b"lock".to_vec(), b"token-B".to_vec());
    assert_eq!(
        run_with(
            RELEASE,
            &["lock"],
            &["token-A"],
            &mut host,
            DEFAULT_STEP_BUDGET
        ),
        int(0)
    );
    assert!(
        host.strings.contains_key(&b"lock"[..]),
        "A's release must leave B's lock"
    );
    assert_eq!(
        run_with(
            RELEASE,
            &["lock"],
            &["token-B"],
            &mut host,
            DEFAULT_STEP_BUDGET
        ),
        int(1)
    );
    assert!(!host.strings.contains_key(&b"lock"[..]));
    assert_eq!(host.log, vec!["GET lock", "GET lock", "DEL lock"]);
}

#[test]
fn a_release_of_a_missing_lock_compares_false_with_the_token_and_returns_0() {
    assert_eq!(
        run_with(
            RELEASE,
            &["lock"],
            &["t"],
            &mut FakeHost::default(),
            DEFAULT_STEP_BUDGET
        ),
        int(0)
    );
}

#[test]
fn a_fenced_write_refuses_a_stale_token() {
    let fence = "local cur = tonumber(redis.call('GET', KEYS[1]) or '0')\n\
                 if tonumber(ARGV[1]) <= cur then return redis.error_reply('STALE token ' .. ARGV[1] .. ' <= ' .. cur) end\n\
                 redis.call('SET', KEYS[1], ARGV[1])\n\
                 return 'OK ' .. ARGV[1]";
    let mut host = FakeHost::default();
    assert_eq!(
        run_with(fence, &["fence"], &["34"], &mut host, DEFAULT_STEP_BUDGET),
        bulk("OK 34")
    );
    assert_eq!(
        run_with(fence, &["fence"], &["33"], &mut host, DEFAULT_STEP_BUDGET),
        err("STALE token 33 <= 34")
    );
}

#[test]
fn an_echomq_completion_with_a_stale_attempt_count_is_refused() {
    let complete = "local attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 0)\n\
                    if attempts ~= tonumber(ARGV[1]) then\n\
                      return redis.error_reply('EMQSTALE complete token mismatch')\n\
                    end\n\
                    return redis.status_reply('COMPLETED')";
    let mut host = FakeHost::default();
    let claim = "return redis.call('HINCRBY', KEYS[1], 'attempts', 1)";
    assert_eq!(
        run_with(claim, &["job:1"], &[], &mut host, DEFAULT_STEP_BUDGET),
        int(1)
    );
    assert_eq!(
        run_with(claim, &["job:1"], &[], &mut host, DEFAULT_STEP_BUDGET),
        int(2)
    );
    assert_eq!(
        run_with(complete, &["job:1"], &["1"], &mut host, DEFAULT_STEP_BUDGET),
        err("EMQSTALE complete token mismatch")
    );
    assert_eq!(
        run_with(complete, &["job:1"], &["2"], &mut host, DEFAULT_STEP_BUDGET),
        Reply::Status("COMPLETED".into())
    );
}

// ---- conversions, Lua → Redis ----

#[test]
fn lua_values_become_redis_replies() {
    assert_eq!(run("return 3.99"), int(3));
    assert_eq!(run("return -3.99"), int(-3));
    assert_eq!(run("return 'x'"), bulk("x"));
    assert_eq!(run("return true"), int(1));
    assert_eq!(run("return false"), Reply::Nil);
    assert_eq!(run("return nil"), Reply::Nil);
    assert_eq!(run("return"), Reply::Nil);
    assert_eq!(run("local x = 1"), Reply::Nil);
    assert_eq!(run("return {ok = 'fine'}"), Reply::Status("fine".into()));
    assert_eq!(run("return {err = 'my err'}"), err("my err"));
    assert_eq!(run("return {err = 'x', ok = 'y'}"), err("x"));
    assert_eq!(run("return {a = 1}"), Reply::Array(vec![]));
    assert_eq!(run("return {err = 5}"), Reply::Array(vec![]));
    assert_eq!(
        run("return {1, 2, nil, 4}"),
        Reply::Array(vec![int(1), int(2)])
    );
    assert_eq!(
        run("return {1, 'a', {2, 3}, true, false}"),
        Reply::Array(vec![
            int(1),
            bulk("a"),
            Reply::Array(vec![int(2), int(3)]),
            int(1),
            Reply::Nil
        ])
    );
    assert_eq!(
        run("return {1, {err = 'inner'}, {ok = 'st'}}"),
        Reply::Array(vec![int(1), err("inner"), Reply::Status("st".into())])
    );
}

#[test]
fn numbers_out_of_integer_range_become_the_minimum_integer_like_redis_on_x86() {
    assert_eq!(run("return 1e300"), int(i64::MIN));
    assert_eq!(run("return 0/0"), int(i64::MIN));
}

#[test]
fn a_table_containing_itself_is_cut_off_not_overflowed() {
    let r = run("local t = {} t[1] = t return t");
    let mut depth = 0;
    let mut cur = &r;
    while let Reply::Array(items) = cur {
        depth += 1;
        cur = &items[0];
    }
    assert!(depth > 10);
    assert_eq!(cur, &err("ERR reached lua stack limit"));
}

// ---- conversions, Redis → Lua ----

#[test]
fn redis_replies_become_lua_values() {
    let probe = "local r = redis.call('ECHOARRAY')\n\
                 return {type(r[1]), r[1] + 1, r[2], tostring(r[3]), r[4].ok, r[5].err, type(r[6]), r[6][1]}";
    assert_eq!(
        run(probe),
        Reply::Array(vec![
            bulk("number"),
            int(8),
            bulk("x"),
            bulk("false"),
            bulk("FINE"),
            bulk("ERR inner"),
            bulk("table"),
            int(1)
        ])
    );
    assert_eq!(
        run("return redis.call('PING')"),
        Reply::Status("PONG".into())
    );
    assert_eq!(run("return redis.call('GET', 'missing') == false"), int(1));
    assert_eq!(
        run("return redis.call('ECHOARRAY')"),
        Reply::Array(vec![
            int(7),
            bulk("x"),
            Reply::Nil,
            Reply::Status("FINE".into()),
            err("ERR inner"),
            Reply::Array(vec![int(1)])
        ])
    );
}

#[test]
fn numbers_passed_to_redis_call_keep_17_significant_digits() {
    let mut host = FakeHost::default();
    run_with(
        "redis.call('SET', 'a', 0.1) redis.call('SET', 'b', 3) redis.call('SET', 'c', 1.5)",
        &[],
        &[],
        &mut host,
        1000,
    );
    assert_eq!(host.strings[&b"a"[..]], b"0.10000000000000001");
    assert_eq!(host.strings[&b"b"[..]], b"3");
    assert_eq!(host.strings[&b"c"[..]], b"1.5");
}

// ---- redis.call / redis.pcall errors ----

#[test]
fn an_error_reply_from_redis_call_aborts_the_script_but_keeps_earlier_writes() {
    let mut host = FakeHost::default();
    host.strings.insert(b"s".to_vec(), b"v".to_vec());
    let src = "redis.call('SET', 'before', '1')\nredis.call('HINCRBY', 's', 'f', 1)\nredis.call('SET', 'after', '1')";
    assert_eq!(
        run_with(src, &[], &[], &mut host, 1000),
        raised(WRONGTYPE, 2)
    );
    assert!(host.strings.contains_key(&b"before"[..]));
    assert!(!host.strings.contains_key(&b"after"[..]));
}

#[test]
fn redis_pcall_returns_the_error_as_a_table() {
    let mut host = FakeHost::default();
    host.strings.insert(b"s".to_vec(), b"v".to_vec());
    assert_eq!(
        run_with(
            "return redis.pcall('HINCRBY', 's', 'f', 1)",
            &[],
            &[],
            &mut host,
            1000
        ),
        err(WRONGTYPE)
    );
    assert_eq!(
        run_with(
            "local r = redis.pcall('HINCRBY', 's', 'f', 1) return r.err",
            &[],
            &[],
            &mut host,
            1000
        ),
        bulk(WRONGTYPE)
    );
}

#[test]
fn the_scripting_bridge_words_its_own_errors_like_redis() {
    assert_eq!(
        run("return redis.call('NOPE')"),
        raised("ERR Unknown Redis command called from script", 1)
    );
    assert_eq!(
        run("return redis.pcall('NOPE')"),
        err("ERR Unknown Redis command called from script")
    );
    assert_eq!(
        run("return redis.call('GET')"),
        raised(
            "ERR Wrong number of args calling Redis command from script",
            1
        )
    );
    assert_eq!(
        run("return redis.call()"),
        raised(
            "ERR Please specify at least one argument for this redis lib call",
            1
        )
    );
    assert_eq!(
        run("return redis.pcall()"),
        err("ERR Please specify at least one argument for this redis lib call")
    );
    assert_eq!(
        run("return redis.call('GET', {})"),
        raised(
            "ERR Lua redis lib command arguments must be strings or integers",
            1
        )
    );
    assert_eq!(
        run("return redis.call('GET', nil)"),
        raised(
            "ERR Lua redis lib command arguments must be strings or integers",
            1
        )
    );
}

#[test]
fn error_reply_and_status_reply_build_reply_tables() {
    assert_eq!(
        run("return redis.error_reply('EMQSTALE complete token mismatch')"),
        err("EMQSTALE complete token mismatch")
    );
    assert_eq!(run("return redis.error_reply('oops')"), err("ERR oops"));
    assert_eq!(run("return redis.error_reply('-X y')"), err("X y"));
    assert_eq!(
        run("return redis.error_reply()"),
        err("ERR wrong number or type of arguments")
    );
    assert_eq!(
        run("return redis.status_reply('FINE')"),
        Reply::Status("FINE".into())
    );
    assert_eq!(
        run("return redis.status_reply(3)"),
        err("ERR wrong number or type of arguments")
    );
    assert_eq!(run("return redis.error_reply('E1 x').err"), bulk("E1 x"));
}

#[test]
fn lua_pcall_catches_errors_and_returns_the_err_text_of_redis_errors() {
    assert_eq!(
        run("local ok, e = pcall(function() redis.call('NOPE') end) return {tostring(ok), e}"),
        Reply::Array(vec![
            bulk("false"),
            bulk("ERR Unknown Redis command called from script")
        ])
    );
    assert_eq!(
        run("local ok, e = pcall(function() error('x') end) return {tostring(ok), e}"),
        Reply::Array(vec![bulk("false"), bulk("user_script:1: x")])
    );
    assert_eq!(
        run("local ok, v = pcall(function(a) return a * 2 end, 21) return v"),
        int(42)
    );
}

// ---- runtime errors and their lines ----

#[test]
fn runtime_errors_name_the_variable_and_the_line() {
    assert_eq!(
        run("local x = nil; return x()"),
        raised(
            "ERR user_script:1: attempt to call local 'x' (a nil value)",
            1
        )
    );
    assert_eq!(
        run("return nil + 1"),
        raised(
            "ERR user_script:1: attempt to perform arithmetic on a nil value",
            1
        )
    );
    assert_eq!(
        run("local t = nil; return t.x"),
        raised(
            "ERR user_script:1: attempt to index local 't' (a nil value)",
            1
        )
    );
    assert_eq!(
        run("local t = {} return t.a.b"),
        raised(
            "ERR user_script:1: attempt to index field 'a' (a nil value)",
            1
        )
    );
    assert_eq!(
        run("local t = {} return t.a + 1"),
        raised(
            "ERR user_script:1: attempt to perform arithmetic on field 'a' (a nil value)",
            1
        )
    );
    assert_eq!(
        run("local x return x .. 'a'"),
        raised(
            "ERR user_script:1: attempt to concatenate local 'x' (a nil value)",
            1
        )
    );
    assert_eq!(
        run("local x return #x"),
        raised(
            "ERR user_script:1: attempt to get length of local 'x' (a nil value)",
            1
        )
    );
    assert_eq!(
        run("return redis.foo()"),
        raised(
            "ERR user_script:1: attempt to call field 'foo' (a nil value)",
            1
        )
    );
    assert_eq!(
        run("local x = 1 local function f() return x() end return f()"),
        raised(
            "ERR user_script:1: attempt to call upvalue 'x' (a number value)",
            1
        )
    );
    assert_eq!(
        run("return ('x'):nope()"),
        raised(
            "ERR user_script:1: attempt to call method 'nope' (a nil value)",
            1
        )
    );
    assert_eq!(
        run("return 1 < 'x'"),
        raised(
            "ERR user_script:1: attempt to compare number with string",
            1
        )
    );
    assert_eq!(
        run("return {} < {}"),
        raised("ERR user_script:1: attempt to compare two table values", 1)
    );
    assert_eq!(
        run("return 'a' + 1"),
        raised(
            "ERR user_script:1: attempt to perform arithmetic on a string value",
            1
        )
    );
    assert_eq!(
        run("local x = 1\nlocal y = nil\nreturn x + y"),
        raised(
            "ERR user_script:3: attempt to perform arithmetic on local 'y' (a nil value)",
            3
        )
    );
    assert_eq!(
        run("local function f()\n error('deep')\nend\n\nf()"),
        raised("ERR user_script:2: deep", 2)
    );
    assert_eq!(run("error({err='boom2'})"), raised("boom2", 1));
    assert_eq!(run("error()"), raised("ERR nil", 1));
    assert_eq!(run("error('x', 0)"), raised("ERR x", 1));
    assert_eq!(
        run("assert(false)"),
        raised("ERR user_script:1: assertion failed!", 1)
    );
    assert_eq!(
        run("assert(1 == 2, 'msg')"),
        raised("ERR user_script:1: msg", 1)
    );
    assert_eq!(
        run("local t = {} t[nil] = 1"),
        raised("ERR user_script:1: table index is nil", 1)
    );
    assert_eq!(
        run("for i = 1, 'x' do end"),
        raised("ERR user_script:1: 'for' limit must be a number", 1)
    );
}

#[test]
fn globals_are_read_only_and_undeclared_ones_do_not_exist() {
    assert_eq!(
        run("return x"),
        raised(
            "ERR user_script:1: Script attempted to access nonexistent global variable 'x'",
            1
        )
    );
    assert_eq!(
        run("x = 5"),
        raised("ERR user_script:1: Attempt to modify a readonly table", 1)
    );
    assert_eq!(
        run("function f() end"),
        raised("ERR user_script:1: Attempt to modify a readonly table", 1)
    );
    assert_eq!(
        run("return type(print)"),
        raised(
            "ERR user_script:1: Script attempted to access nonexistent global variable 'print'",
            1
        )
    );
}

#[test]
fn library_argument_errors_read_like_lua() {
    assert_eq!(
        run("return math.floor('x')"),
        raised(
            "ERR user_script:1: bad argument #1 to 'floor' (number expected, got string)",
            1
        )
    );
    assert_eq!(
        run("return string.format('%d', 'x')"),
        raised(
            "ERR user_script:1: bad argument #2 to 'format' (number expected, got string)",
            1
        )
    );
    assert_eq!(
        run("return string.format('%d')"),
        raised(
            "ERR user_script:1: bad argument #2 to 'format' (no value)",
            1
        )
    );
    assert_eq!(
        run("return string.format('%s', nil)"),
        raised(
            "ERR user_script:1: bad argument #2 to 'format' (string expected, got nil)",
            1
        )
    );
    assert_eq!(
        run("return tostring()"),
        raised(
            "ERR user_script:1: bad argument #1 to 'tostring' (value expected)",
            1
        )
    );
    assert_eq!(
        run("return string.sub('hello')"),
        raised(
            "ERR user_script:1: bad argument #2 to 'sub' (number expected, got no value)",
            1
        )
    );
    assert_eq!(
        run("return table.concat({1, {}, 3})"),
        raised(
            "ERR user_script:1: invalid value (table) at index 2 in table for 'concat'",
            1
        )
    );
    assert_eq!(
        run("return ipairs(nil)"),
        raised(
            "ERR user_script:1: bad argument #1 to 'ipairs' (table expected, got nil)",
            1
        )
    );
}

// ---- compile errors ----

#[test]
fn compile_errors_are_reported_like_redis() {
    let c = |src: &str| error_text(&run(src));
    assert_eq!(
        c("if true then return 1"),
        "ERR Error compiling script (new function): user_script:1: 'end' expected near '<eof>'"
    );
    assert_eq!(c("if true\nthen\nreturn 1\n"), "ERR Error compiling script (new function): user_script:4: 'end' expected (to close 'if' at line 1) near '<eof>'");
    assert_eq!(
        c("if true return 1 end"),
        "ERR Error compiling script (new function): user_script:1: 'then' expected near 'return'"
    );
    assert_eq!(
        c("return 'abc"),
        "ERR Error compiling script (new function): user_script:1: unfinished string near '<eof>'"
    );
    assert_eq!(
        c("return )"),
        "ERR Error compiling script (new function): user_script:1: unexpected symbol near ')'"
    );
    assert_eq!(
        c("x = = 1"),
        "ERR Error compiling script (new function): user_script:1: unexpected symbol near '='"
    );
    assert_eq!(c("local function f()\n  return 1\n"), "ERR Error compiling script (new function): user_script:3: 'end' expected (to close 'function' at line 1) near '<eof>'");
}

// ---- language constructs ----

#[test]
fn locals_assignment_and_scoping() {
    assert_eq!(
        run("local a, b, c = 1, 2 return {a, b, tostring(c)}"),
        Reply::Array(vec![int(1), int(2), bulk("nil")])
    );
    assert_eq!(
        run("local a, b = 1, 2 a, b = b, a return {a, b}"),
        Reply::Array(vec![int(2), int(1)])
    );
    assert_eq!(run("local x = 1 do local x = 2 end return x"), int(1));
    assert_eq!(run("local x = 1 local x = x + 1 return x"), int(2));
    assert_eq!(
        run("local t = {} local i = 1 i, t[i] = i + 1, 20 return {i, t[1]}"),
        Reply::Array(vec![int(2), int(20)])
    );
}

#[test]
fn control_flow() {
    assert_eq!(
        run("if false then return 1 elseif nil then return 2 else return 3 end"),
        int(3)
    );
    assert_eq!(
        run("if 0 then return 'zero is true' end"),
        bulk("zero is true")
    );
    assert_eq!(
        run("if '' then return 'empty string is true' end"),
        bulk("empty string is true")
    );
    assert_eq!(
        run("local i = 0 while true do i = i + 1 if i > 5 then break end end return i"),
        int(6)
    );
    assert_eq!(
        run("local i = 0 repeat local j = i i = i + 1 until j >= 3 return i"),
        int(4)
    );
    assert_eq!(
        run("local s = 0 for i = 1, 10 do s = s + i end return s"),
        int(55)
    );
    assert_eq!(
        run("local s = '' for i = 10, 1, -3 do s = s .. i .. ',' end return s"),
        bulk("10,7,4,1,")
    );
    assert_eq!(
        run("local n = 0 for i = 1, 0 do n = n + 1 end return n"),
        int(0)
    );
    assert_eq!(
        run("local t = {} for i, v in ipairs({'a', 'b', nil, 'd'}) do t[#t + 1] = v .. i end return t"),
        Reply::Array(vec![bulk("a1"), bulk("b2")])
    );
    assert_eq!(
        run("local n = 0 for k, v in pairs({a = 1, b = 2, 3}) do n = n + v end return n"),
        int(6)
    );
    assert_eq!(
        run("local keys = {} for k in pairs({x = 1}) do keys[#keys + 1] = k end return keys"),
        Reply::Array(vec![bulk("x")])
    );
    assert_eq!(
        run("for i = 1, 3 do if i == 2 then return i end end"),
        int(2)
    );
}

#[test]
fn functions_closures_and_recursion() {
    assert_eq!(run("local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end return fib(15)"), int(610));
    assert_eq!(
        run("local function counter() local c = 0 return function() c = c + 1 return c end end local f = counter() f() f() return f()"),
        int(3)
    );
    assert_eq!(
        run("local function two() return 1, 2 end local a, b = two() return {a, b, two()}"),
        Reply::Array(vec![int(1), int(2), int(1), int(2)])
    );
    assert_eq!(
        run("local function two() return 1, 2 end return {(two())}"),
        Reply::Array(vec![int(1)])
    );
    assert_eq!(
        run("local function two() return 1, 2 end return {two(), 'x'}"),
        Reply::Array(vec![int(1), bulk("x")])
    );
    assert_eq!(run("local t = {name = 'y'} function t:greet(p) return p .. self.name end return t:greet('hi ')"), bulk("hi y"));
    assert_eq!(
        run("local t = {} function t.f(a) return a end return t.f(5)"),
        int(5)
    );
    assert_eq!(
        run("local f = function(...) return 1 end return f()"),
        int(1)
    );
}

#[test]
fn tables_indexing_and_length() {
    assert_eq!(
        run("local t = {x = {y = {z = 'deep'}}} return t.x.y.z"),
        bulk("deep")
    );
    assert_eq!(
        run("local t = {} t['a b'] = 1 t[1.5] = 2 return t['a b'] + t[1.5]"),
        int(3)
    );
    assert_eq!(run("local t = {10, 20, 30, [5] = 50} return #t"), int(3));
    assert_eq!(run("local t = {} t[1] = 'a' t[2] = 'b' return #t"), int(2));
    assert_eq!(
        run("local t = {[1] = 'a', [2] = 'b'} return t"),
        Reply::Array(vec![bulk("a"), bulk("b")])
    );
    assert_eq!(run("local t = {1, 2, 3} t[3] = nil return #t"), int(2));
    assert_eq!(
        run("local t = {} t[2.0] = 'x' t[1] = 'y' return t"),
        Reply::Array(vec![bulk("y"), bulk("x")])
    );
    assert_eq!(run("return #'hello'"), int(5));
    assert_eq!(run("return #KEYS"), int(0));
}

#[test]
fn operators_follow_lua_semantics() {
    assert_eq!(run("return '3' == 3"), Reply::Nil);
    assert_eq!(run("return 1 == 1.0"), int(1));
    assert_eq!(run("return '10' + 1"), int(11));
    assert_eq!(run("return '0x10' + 0"), int(16));
    assert_eq!(run("return 10 .. 20"), bulk("1020"));
    assert_eq!(run("return 1.5 .. ''"), bulk("1.5"));
    assert_eq!(
        run("return 7 % 3 .. ' ' .. -7 % 3 .. ' ' .. 2^10 .. ' ' .. 7 / 2"),
        bulk("1 2 1024 3.5")
    );
    assert_eq!(run("return 2 ^ 3 ^ 2"), int(512));
    assert_eq!(run("return -2 ^ 2"), int(-4));
    assert_eq!(run("return 1 + 2 * 3"), int(7));
    assert_eq!(run("return 1 and 2 or 3"), int(2));
    assert_eq!(run("return nil and 2 or 3"), int(3));
    assert_eq!(run("return not nil"), int(1));
    assert_eq!(run("return not 0"), Reply::Nil);
    assert_eq!(
        run("return 'a' < 'b' and 'b' <= 'b' and 2 > 1 and 2 >= 2 and 1 ~= 2"),
        int(1)
    );
    assert_eq!(run("return 'a' .. 'b' == 'ab'"), int(1));
}

#[test]
fn comments_long_strings_and_escapes() {
    assert_eq!(run("-- a comment\nreturn 1 --[[ inline ]] + 1"), int(2));
    assert_eq!(run("--[==[ long\ncomment ]==] return 'ok'"), bulk("ok"));
    assert_eq!(run("return [==[a]]b]==]"), bulk("a]]b"));
    assert_eq!(run("return [[\nfirst\nsecond]]"), bulk("first\nsecond"));
    assert_eq!(run(r#"return '\65\066x\n\t\\\'"'"#), bulk("ABx\n\t\\'\""));
}

// ---- the library ----

#[test]
fn base_functions() {
    assert_eq!(
        run("return tonumber('0x10') .. tonumber(' 12 ') .. tostring(tonumber('z'))"),
        bulk("1612nil")
    );
    assert_eq!(run("return tonumber('10', 2)"), int(2));
    assert_eq!(run("return tonumber(5)"), int(5));
    assert_eq!(
        run("return type(nil) .. type({}) .. type('') .. type(1) .. type(type) .. type(true)"),
        bulk("niltablestringnumberfunctionboolean")
    );
    assert_eq!(
        run("return tostring(0.1) .. tostring(1e100) .. tostring(3) .. tostring(-0)"),
        bulk("0.11e+1003-0")
    );
    assert_eq!(
        run("return tostring(nil) .. tostring(true) .. tostring(false)"),
        bulk("niltruefalse")
    );
    assert_eq!(run("return tostring({}):sub(1, 6)"), bulk("table:"));
    assert_eq!(run("return unpack({1, 2, 3})"), int(1));
    assert_eq!(
        run("return {unpack({1, 2, 3})}"),
        Reply::Array(vec![int(1), int(2), int(3)])
    );
    assert_eq!(
        run("return {unpack({1, 2, 3}, 2)}"),
        Reply::Array(vec![int(2), int(3)])
    );
    assert_eq!(run("return select('#', 1, 2, 3)"), int(3));
    assert_eq!(run("return select(2, 'a', 'b', 'c')"), bulk("b"));
    assert_eq!(run("return next({})"), Reply::Nil);
    assert_eq!(run("return rawequal('a', 'a')"), int(1));
    assert_eq!(
        run("local t = {} rawset(t, 'k', 'v') return rawget(t, 'k')"),
        bulk("v")
    );
}

#[test]
fn table_functions() {
    assert_eq!(
        run("local t = {} table.insert(t, 'a') table.insert(t, 1, 'b') return t"),
        Reply::Array(vec![bulk("b"), bulk("a")])
    );
    assert_eq!(run("return table.concat({1, 2, 'x'}, ',')"), bulk("1,2,x"));
    assert_eq!(
        run("return table.concat({1, 2, 3}, '-', 2, 3)"),
        bulk("2-3")
    );
    assert_eq!(run("return table.concat({})"), bulk(""));
    assert_eq!(
        run("local t = {1, 2, 3} local r = table.remove(t) return {r, #t}"),
        Reply::Array(vec![int(3), int(2)])
    );
    assert_eq!(
        run("local t = {1, 2, 3} table.remove(t, 1) return t"),
        Reply::Array(vec![int(2), int(3)])
    );
    assert_eq!(run("return table.getn({1, 2})"), int(2));
}

#[test]
fn string_functions() {
    assert_eq!(
        run("return string.format('%d %s %%', 3.7, 'x')"),
        bulk("3 x %")
    );
    assert_eq!(
        run("return string.format('%5.2f|%x|%q|%s', 3.14159, 255, 'a\"b', 12)"),
        bulk(" 3.14|ff|\"a\\\"b\"|12")
    );
    assert_eq!(
        run("return string.format('%05d|%-4s|%+d|%.3s', 42, 'ab', 7, 'abcdef')"),
        bulk("00042|ab  |+7|abc")
    );
    assert_eq!(
        run("return string.format('%.2f %g %g %e', 1/3, 0.1, 1e20, 12345.678)"),
        bulk("0.33 0.1 1e+20 1.234568e+04")
    );
    assert_eq!(
        run("return string.format('%d', 2^63)"),
        bulk("-9223372036854775808")
    );
    assert_eq!(
        run("return string.sub('hello', 2, -2) .. string.sub('hello', -3) .. string.len('abc')"),
        bulk("ellllo3")
    );
    assert_eq!(run("return string.sub('hello', 0) .. string.sub('hello', 10) .. '|' .. string.sub('hello', 2, 100)"), bulk("hello|ello"));
    assert_eq!(
        run("local s = 'abc' return s:upper() .. s:len() .. s:sub(2)"),
        bulk("ABC3bc")
    );
    assert_eq!(
        run("return string.lower('AbC') .. string.rep('ab', 3) .. string.reverse('xyz')"),
        bulk("abcabababzyx")
    );
    assert_eq!(
        run("return {string.byte('AB', 1, 2)}"),
        Reply::Array(vec![int(65), int(66)])
    );
    assert_eq!(run("return string.char(72, 105)"), bulk("Hi"));
}

#[test]
fn math_functions() {
    assert_eq!(
        run("return math.max(1, 5, 3) .. math.min(4, 2) .. math.floor(-3.5)"),
        bulk("52-4")
    );
    assert_eq!(
        run("return math.floor(3.7) .. math.max('3', 2)"),
        bulk("33")
    );
    assert_eq!(
        run("return math.abs(-3) + math.ceil(1.2) + math.sqrt(16)"),
        int(9)
    );
    assert_eq!(
        run("return tostring(math.huge) .. ' ' .. tostring(-math.huge)"),
        bulk("inf -inf")
    );
    assert_eq!(run("return math.fmod(7, 3)"), int(1));
}

#[test]
fn keys_and_argv_are_bound() {
    let mut host = FakeHost::default();
    assert_eq!(
        run_with(
            "return {KEYS[1], KEYS[2], ARGV[1], #KEYS, #ARGV}",
            &["a", "b"],
            &["c"],
            &mut host,
            1000
        ),
        Reply::Array(vec![bulk("a"), bulk("b"), bulk("c"), int(2), int(1)])
    );
    assert_eq!(
        run_with("return KEYS[3]", &["a"], &[], &mut host, 1000),
        Reply::Nil
    );
}

// ---- the step budget and resource caps ----

fn assert_budget_stop(r: &Reply, budget: u64) {
    assert!(r.is_step_budget_stop(), "{r:?}");
    let e = error_text(r);
    assert!(
        e.starts_with(&format!(
            "ERR script stopped: it ran past its step budget of {budget} steps"
        )),
        "not a budget stop: {e}"
    );
}

#[test]
fn a_runaway_loop_is_stopped_by_the_step_budget() {
    assert_budget_stop(
        &run_with(
            "while true do end",
            &[],
            &[],
            &mut FakeHost::default(),
            10_000,
        ),
        10_000,
    );
    assert_budget_stop(
        &run_with(
            "repeat until false",
            &[],
            &[],
            &mut FakeHost::default(),
            10_000,
        ),
        10_000,
    );
    assert_budget_stop(
        &run_with(
            "for i = 1, 0, 0 do end",
            &[],
            &[],
            &mut FakeHost::default(),
            10_000,
        ),
        10_000,
    );
    assert_budget_stop(
        &run("local i = 0 while true do i = i + 1 end"),
        DEFAULT_STEP_BUDGET,
    );
}

#[test]
fn the_budget_line_is_where_the_script_was_when_it_ran_out() {
    let e = error_text(&run_with(
        "local x = 1\nwhile true do\n  x = x + 1\nend",
        &[],
        &[],
        &mut FakeHost::default(),
        1000,
    ));
    assert!(
        e.ends_with(&format!("script: {SHA}, on @user_script:3."))
            || e.ends_with(&format!("script: {SHA}, on @user_script:2.")),
        "{e}"
    );
}

#[test]
fn pcall_cannot_swallow_a_budget_stop() {
    let r = run_with(
        "pcall(function() while true do end end) return 'escaped'",
        &[],
        &[],
        &mut FakeHost::default(),
        10_000,
    );
    assert_budget_stop(&r, 10_000);
}

#[test]
fn a_budget_fits_the_release_script_many_times_over() {
    let mut host = FakeHost::default();
    host.strings.insert(b"lock".to_vec(), b"t".to_vec());
    assert_eq!(run_with(RELEASE, &["lock"], &["t"], &mut host, 100), int(1));
}

#[test]
fn recursion_a_hundred_calls_deep_still_runs() {
    let src =
        "local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end return f(100)";
    assert_eq!(run(src), int(100));
}

#[test]
fn infinite_recursion_is_a_stack_overflow_error() {
    assert_eq!(
        run("local function f() return f() + 1 end return f()"),
        raised("ERR user_script:1: stack overflow", 1)
    );
    assert_eq!(
        run("local function f(n) return f(n + 1) end return f(1)"),
        raised("ERR user_script:1: stack overflow", 1)
    );
    let r = run("local ok, e = pcall(function() local function f() return f() + 1 end return f() end) return e");
    assert_eq!(r, bulk("user_script:1: stack overflow"));
}

#[test]
fn deep_recursion_stops_before_a_one_mebibyte_stack_runs_out() {
    // wasm32 gives the page a 1 MiB stack; the nesting cap must trigger before it runs out, even
    // with a deeply nested expression in every frame. The page ships a release build; unoptimised
    // frames are about twice as large, so a debug test run gets twice the stack.
    let stack = if cfg!(debug_assertions) { 2 } else { 1 } * 1024 * 1024;
    let nested = format!(
        "local function f() return {}f(){} end return f()",
        "(1 + ".repeat(30),
        ")".repeat(30)
    );
    let deep_expression = format!("return {}1{}", "(".repeat(190), ")".repeat(190));
    let deep_blocks = format!(
        "{}return 7 {}",
        "if true then ".repeat(190),
        "end ".repeat(190)
    );
    let handle = std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let a = run("local function f() return f() + 1 end return f()");
            let b = run(&nested);
            let c = run(&deep_expression);
            let d = run(&deep_blocks);
            (a, b, c, d)
        })
        .expect("spawn");
    let (a, b, c, d) = handle.join().expect("the engine overflowed its stack");
    assert_eq!(c, int(1));
    assert_eq!(d, int(7));
    assert_eq!(a, raised("ERR user_script:1: stack overflow", 1));
    assert_eq!(b, raised("ERR user_script:1: stack overflow", 1));
}

#[test]
fn doubling_a_string_hits_the_memory_cap_not_the_allocator() {
    let r = run("local s = 'x' while true do s = s .. s end");
    assert_eq!(r, raised("ERR not enough memory", 1));
    // The largest count a C int holds (a larger one is cut to a C int first, as Lua does).
    let r = run("return string.rep('x', 2^31 - 1)");
    assert_eq!(r, raised("ERR not enough memory", 1));
}

#[test]
fn work_on_huge_strings_is_charged_by_length() {
    // Each upper() of a 10 MB string costs about 10k steps, so a 100k budget stops this loop
    // after a handful of copies instead of letting one step do unbounded work.
    for body in [
        "local u = s:upper()",
        "local b = (s == s .. '')",
        "local t = {} t[s] = 1",
    ] {
        let src = format!("local s = string.rep('x', 1e7) for i = 1, 1e6 do {body} end");
        assert_budget_stop(
            &run_with(&src, &[], &[], &mut FakeHost::default(), 100_000),
            100_000,
        );
    }
}

#[test]
fn a_chain_of_a_million_nested_tables_is_freed_without_overflowing() {
    let r = run("local t = {} for i = 1, 1000000 do t = {t} end return 'built'");
    assert_eq!(r, bulk("built"));
    let r = run("local f = function() return 0 end for i = 1, 300000 do local g = f f = function() return g() end end return 'built'");
    assert_eq!(r, bulk("built"));
}

#[test]
fn a_growing_table_is_stopped_by_the_budget_or_the_cap() {
    let e = error_text(&run(
        "local t = {} local i = 0 while true do i = i + 1 t[i] = i end",
    ));
    assert!(
        e.contains("step budget") || e.contains("not enough memory"),
        "{e}"
    );
}

#[test]
fn a_compiled_script_runs_many_times_with_fresh_state() {
    let script = Script::compile(b"local t = {} t[#t + 1] = ARGV[1] return #t").expect("compiles");
    let mut host = FakeHost::default();
    for _ in 0..3 {
        assert_eq!(
            script.run(SHA, &[], &[b"x".to_vec()], &mut host, 1000),
            int(1)
        );
    }
}
