//! Differential test of the script engine against real Redis 7.0: each script runs once through
//! Redis's own EVAL and once through ministore's engine with that same Redis server as the
//! command host, and the two replies must be identical (error texts included).
//! Needs `redis-server` (`redis_oracle` starts it); a missing one fails the test under CI=true and
//! skips it, saying why, elsewhere.

#[path = "lua_cases/core.rs"]
mod core_cases;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;

use ministore::lua::{CommandHost, Script, DEFAULT_STEP_BUDGET};
use ministore::Reply;
use redis_oracle::{required, RedisServer};

/// A minimal RESP client.
struct Resp {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    /// The script running through this host declared `#!lua flags=no-writes`.
    read_only: bool,
}

impl Resp {
    fn connect(port: u16) -> Resp {
        let s = TcpStream::connect(("127.0.0.1", port)).expect("connect to redis");
        Resp {
            reader: BufReader::new(s.try_clone().expect("clone stream")),
            writer: s,
            read_only: false,
        }
    }

    fn command(&mut self, args: &[Vec<u8>]) -> Reply {
        let mut out = format!("*{}\r\n", args.len()).into_bytes();
        for a in args {
            out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
            out.extend_from_slice(a);
            out.extend_from_slice(b"\r\n");
        }
        self.writer.write_all(&out).expect("write to redis");
        self.read()
    }

    fn line(&mut self) -> String {
        let mut l = String::new();
        self.reader.read_line(&mut l).expect("read from redis");
        l.trim_end_matches("\r\n").to_string()
    }

    fn read(&mut self) -> Reply {
        let l = self.line();
        let (kind, rest) = l.split_at(1);
        match kind {
            "+" => Reply::Status(rest.to_string()),
            "-" => Reply::Error(rest.to_string()),
            ":" => Reply::Integer(rest.parse().expect("integer reply")),
            "$" => {
                let n: i64 = rest.parse().expect("bulk length");
                if n < 0 {
                    return Reply::Nil;
                }
                let mut buf = vec![0; n as usize + 2];
                self.reader.read_exact(&mut buf).expect("bulk body");
                buf.truncate(n as usize);
                Reply::Bulk(buf)
            }
            "*" => {
                let n: i64 = rest.parse().expect("array length");
                if n < 0 {
                    return Reply::Nil;
                }
                Reply::Array((0..n).map(|_| self.read()).collect())
            }
            other => panic!("unexpected RESP type {other}"),
        }
    }
}

/// The real server as a script's keyspace. Commands sent over a client connection are checked
/// as a client's, so this host first does what Redis's scripting bridge does before running a
/// command — existence, arity and `noscript` from `COMMAND INFO`, and `write` for a `no-writes`
/// script — and answers with the bridge's texts; every other reply (HSET's own arity error
/// included) comes back from the server as it is.
impl CommandHost for Resp {
    fn call(&mut self, args: &[&[u8]]) -> Reply {
        let args: Vec<Vec<u8>> = args.iter().map(|a| a.to_vec()).collect();
        let info = self.command(&[b"COMMAND".to_vec(), b"INFO".to_vec(), args[0].clone()]);
        let Reply::Array(entries) = info else {
            panic!("COMMAND INFO replied {info:?}");
        };
        let Some(Reply::Array(spec)) = entries.into_iter().next() else {
            return Reply::Error("ERR Unknown Redis command called from script".into());
        };
        let arity = match spec.get(1) {
            Some(Reply::Integer(n)) => *n,
            other => panic!("COMMAND INFO arity {other:?}"),
        };
        let flags: Vec<Reply> = match spec.get(2) {
            Some(Reply::Array(flags)) => flags.clone(),
            other => panic!("COMMAND INFO flags {other:?}"),
        };
        let has = |flag: &str| flags.contains(&Reply::Status(flag.into()));
        let count = args.len() as i64;
        if (arity > 0 && count != arity) || (arity < 0 && count < -arity) {
            return Reply::Error(
                "ERR Wrong number of args calling Redis command from script".into(),
            );
        }
        if has("noscript") {
            return Reply::Error("ERR This Redis command is not allowed from script".into());
        }
        if self.read_only && has("write") {
            return Reply::Error(
                "ERR Write commands are not allowed from read-only scripts.".into(),
            );
        }
        self.command(&args)
    }

    fn command_exists(&mut self, words: &[&[u8]]) -> bool {
        let info = self.command(&[b"COMMAND".to_vec(), b"INFO".to_vec(), words[0].to_vec()]);
        matches!(info, Reply::Array(entries) if matches!(entries.first(), Some(Reply::Array(_))))
    }
}

fn words(args: &[&str]) -> Vec<Vec<u8>> {
    args.iter().map(|a| a.as_bytes().to_vec()).collect()
}

/// Scripts whose replies must match real Redis exactly. (Scripts that loop forever are not
/// here: real Redis would run them until SCRIPT KILL.)
const SCRIPTS: &[(&str, &[&str], &[&str])] = &[
    ("return redis.call('HGET', KEYS[1], 'f')", &["s"], &[]),
    ("return redis.call('NOPE')", &[], &[]),
    ("return redis.pcall('NOPE')", &[], &[]),
    ("return redis.pcall('HGET', KEYS[1], 'f')", &["s"], &[]),
    ("local x = nil; return x()", &[], &[]),
    ("return nil + 1", &[], &[]),
    ("local t = nil; return t.x", &[], &[]),
    ("return x", &[], &[]),
    ("x = 5", &[], &[]),
    ("function f() return 1 end return f()", &[], &[]),
    ("return redis.error_reply('EMQSTALE complete token mismatch')", &[], &[]),
    ("return redis.error_reply('oops')", &[], &[]),
    ("return redis.error_reply('-X y')", &[], &[]),
    ("return redis.error_reply()", &[], &[]),
    ("return redis.status_reply('FINE')", &[], &[]),
    ("return redis.status_reply()", &[], &[]),
    ("return {err='my err'}", &[], &[]),
    ("return {ok='fine'}", &[], &[]),
    ("return {err = 5}", &[], &[]),
    ("return {err = 'x', 'a'}", &[], &[]),
    ("return {1, {err='inner'}, {ok='st'}}", &[], &[]),
    ("if true then return 1", &[], &[]),
    ("if true return 1 end", &[], &[]),
    ("return 'abc", &[], &[]),
    ("return )", &[], &[]),
    ("local = 3", &[], &[]),
    ("return 1 +", &[], &[]),
    ("if true then\nreturn 1\n", &[], &[]),
    ("return 3x", &[], &[]),
    ("return \"abc\ndef\"", &[], &[]),
    ("break", &[], &[]),
    ("return 1 2", &[], &[]),
    ("for i = 1 do end", &[], &[]),
    ("for i in 1 2 do end", &[], &[]),
    ("return (1", &[], &[]),
    ("local t = {1, 2", &[], &[]),
    ("return [[abc", &[], &[]),
    ("--[[ abc", &[], &[]),
    ("return redis.call('GET')", &[], &[]),
    ("return redis.call('SET', 'a')", &[], &[]),
    ("return redis.call()", &[], &[]),
    ("return redis.pcall()", &[], &[]),
    ("return redis.call('GET', {})", &[], &[]),
    ("return redis.call('GET', nil)", &[], &[]),
    ("return redis.call('GET', true)", &[], &[]),
    ("return 'a' + 1", &[], &[]),
    ("return {} .. 'x'", &[], &[]),
    ("error('boom')", &[], &[]),
    ("error({err='boom2'})", &[], &[]),
    ("error()", &[], &[]),
    ("error('x', 0)", &[], &[]),
    ("local function f()\n error('deep')\nend\n\nf()", &[], &[]),
    ("local function f()\n redis.call('NOPE')\nend\n\nf()", &[], &[]),
    ("return 3.99", &[], &[]),
    ("return -3.99", &[], &[]),
    ("return {1,2,nil,4}", &[], &[]),
    ("return {1,'a',{2,3},true,false}", &[], &[]),
    ("return true", &[], &[]),
    ("return false", &[], &[]),
    ("return nil", &[], &[]),
    ("return {a=1}", &[], &[]),
    ("return 1e300", &[], &[]),
    ("return 0/0", &[], &[]),
    ("return tostring(0.1) .. tostring(1e100) .. tostring(3) .. tostring(-0)", &[], &[]),
    ("return tostring(0/0) .. ' ' .. tostring(-(0/0)) .. ' ' .. tostring(1/0) .. ' ' .. tostring(-1/0)", &[], &[]),
    ("return tostring(123456789012345) .. ' ' .. tostring(1234567890123456) .. ' ' .. tostring(2^53) .. ' ' .. tostring(1e-5) .. ' ' .. tostring(12.5)", &[], &[]),
    ("return tostring(1e15) .. ' ' .. tostring(-1e15) .. ' ' .. tostring(0.1+0.2) .. ' ' .. tostring(100) .. ' ' .. tostring(-2.5e-10)", &[], &[]),
    ("return 1 < 'x'", &[], &[]),
    ("return {} < {}", &[], &[]),
    ("return nil < 1", &[], &[]),
    ("return #nil", &[], &[]),
    ("return math.floor('x')", &[], &[]),
    ("local function f() return f() + 1 end return f()", &[], &[]),
    ("return redis.call('GET', KEYS[1])", &["nokey"], &[]),
    ("return redis.pcall('INCR', 's')", &[], &[]),
    ("local r = redis.pcall('INCR', 's'); return r.err", &[], &[]),
    ("return string.format('%d %s %%', 3.7, 'x')", &[], &[]),
    ("return string.format('%d', 'x')", &[], &[]),
    ("return string.format('%5.2f|%x|%q|%s', 3.14159, 255, 'a\"b', 12)", &[], &[]),
    ("return string.format('%d', 2^63)", &[], &[]),
    ("return string.format('%s %s', 1.5, true)", &[], &[]),
    ("return string.format('%s', nil)", &[], &[]),
    ("return string.format('%d')", &[], &[]),
    ("return string.format('%05d|%-4s|%+d|%.3s', 42, 'ab', 7, 'abcdef')", &[], &[]),
    ("return tonumber('0x10') .. tonumber(' 12 ') .. tostring(tonumber('z'))", &[], &[]),
    ("return tonumber('10', 2)", &[], &[]),
    ("return type(nil) .. type({}) .. type('') .. type(1) .. type(type)", &[], &[]),
    ("return type(print)", &[], &[]),
    ("return redis.foo()", &[], &[]),
    ("return string.foo('x')", &[], &[]),
    ("local t = {} return t.a.b", &[], &[]),
    ("local t = {} return t.a + 1", &[], &[]),
    ("local x return x .. 'a'", &[], &[]),
    ("local x return #x", &[], &[]),
    ("return 10 .. 20", &[], &[]),
    ("return '10' + 1", &[], &[]),
    ("return '0x10' + 0", &[], &[]),
    ("return {1, nil, 3}", &[], &[]),
    ("local t = {n = 1, 'a', 'b'} return t", &[], &[]),
    ("local ok, e = pcall(function() redis.call('NOPE') end) return {tostring(ok), type(e), e}", &[], &[]),
    ("local ok, e = pcall(function() error('x') end) return {tostring(ok), e}", &[], &[]),
    ("local ok, e = pcall(function() local x = nil; return x.y end) return e", &[], &[]),
    ("return pcall(error)", &[], &[]),
    ("redis.call('SET', 'k', 1.5) return redis.call('GET', 'k')", &[], &[]),
    ("redis.call('SET', 'k', 0.1) return redis.call('GET', 'k')", &[], &[]),
    ("redis.call('SET', 'k', 123456789012345678) return redis.call('GET', 'k')", &[], &[]),
    ("return redis.call('SET', 'k', 'v', 'XX', 'NX')", &[], &[]),
    ("return redis.call('SET', 'k', 'v')", &[], &[]),
    ("return redis.call('HSET', 'h', 'a', '1', 'b', '2')", &[], &[]),
    ("return redis.call('HGETALL', 'h')", &[], &[]),
    ("return redis.call('HINCRBY', 'h', 'a', 5)", &[], &[]),
    ("return redis.call('HINCRBY', 'h', 'a', 'x')", &[], &[]),
    ("return redis.pcall('HINCRBY', 'h', 'a', 'x')", &[], &[]),
    ("return redis.call('ZADD', 'z', 1, 'a', 2.5, 'b')", &[], &[]),
    ("return redis.call('ZRANGE', 'z', 0, -1, 'WITHSCORES')", &[], &[]),
    ("return redis.call('GET', 'missing')", &[], &[]),
    ("return redis.call('MGET', 'k', 'missing', 'k')", &[], &[]),
    ("return redis.call('EXISTS', 'missing') == 0", &[], &[]),
    ("return redis.call('GET', 'missing') == false", &[], &[]),
    ("return redis.call('PING')", &[], &[]),
    ("return redis.call('PING').ok", &[], &[]),
    ("return string.sub('hello', 2, -2) .. string.sub('hello', -3) .. string.len('abc')", &[], &[]),
    ("return string.sub('hello', 0) .. string.sub('hello', 10) .. '|' .. string.sub('hello', 2, 100)", &[], &[]),
    ("return string.sub('hello')", &[], &[]),
    ("return math.max(1, 5, 3) .. math.min(4, 2) .. math.floor(-3.5)", &[], &[]),
    ("return math.floor(3.7) .. math.max('3', 2)", &[], &[]),
    ("return table.concat({1, 2, 'x'}, ',')", &[], &[]),
    ("return table.concat({1, {}, 3})", &[], &[]),
    ("local t = {} table.insert(t, 'a') table.insert(t, 1, 'b') return t", &[], &[]),
    ("return unpack({1, 2, 3})", &[], &[]),
    ("return {unpack({1, 2, 3})}", &[], &[]),
    ("return 7 % 3 .. ' ' .. -7 % 3 .. ' ' .. 2^10 .. ' ' .. 7 / 2", &[], &[]),
    ("return 1 == 1.0", &[], &[]),
    ("return '3' == 3", &[], &[]),
    ("local s = 'abc' return s:upper() .. s:len()", &[], &[]),
    ("if x then return 1 end", &[], &[]),
    ("return tostring(nil) .. tostring(true) .. tostring(false)", &[], &[]),
    ("return tostring({}):sub(1, 6)", &[], &[]),
    ("return tostring()", &[], &[]),
    ("return 'a' < 'b'", &[], &[]),
    ("return not nil", &[], &[]),
    ("local x = 1\nlocal y = nil\nreturn x + y", &[], &[]),
    ("local x = 1\n\nreturn redis.call('INCR', 'k')", &[], &[]),
    ("return 'a\\q'", &[], &[]),
    ("return '\\65\\066x\\n'", &[], &[]),
    ("assert(false)", &[], &[]),
    ("assert(false, 'msg')", &[], &[]),
    ("return KEYS", &["a", "b"], &["c"]),
    ("return ARGV", &["a", "b"], &["c", "d"]),
    ("return #KEYS + #ARGV", &["a", "b"], &["c"]),
    ("return {KEYS[1], ARGV[1], KEYS[3]}", &["a"], &["b"]),
    ("local sum = 0 for i = 1, 10 do sum = sum + i end return sum", &[], &[]),
    ("local s = '' for i = 10, 1, -3 do s = s .. i .. ',' end return s", &[], &[]),
    ("local t = {} for i, v in ipairs({'a', 'b', 'c'}) do t[#t + 1] = v .. i end return t", &[], &[]),
    ("local n = 0 for k, v in pairs({a = 1, b = 2, 3}) do n = n + v end return n", &[], &[]),
    ("local i = 0 while true do i = i + 1 if i > 5 then break end end return i", &[], &[]),
    ("local i = 0 repeat local j = i i = i + 1 until j >= 3 return i", &[], &[]),
    ("local a, b, c = 1, 2 return {a, b, tostring(c)}", &[], &[]),
    ("local a, b = 1, 2 a, b = b, a return {a, b}", &[], &[]),
    ("local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end return fib(15)", &[], &[]),
    ("local function counter() local c = 0 return function() c = c + 1 return c end end local f = counter() f() f() return f()", &[], &[]),
    ("local t = {x = {y = {z = 'deep'}}} return t.x.y.z", &[], &[]),
    ("local t = {} t['a b'] = 1 t[1.5] = 2 return t['a b'] + t[1.5]", &[], &[]),
    ("local t = {10, 20, 30, [5] = 50} return #t", &[], &[]),
    ("local t = {} t.name = 'x' function t.greet(self) return 'hi ' .. self.name end return t:greet()", &[], &[]),
    ("local t = {name = 'y'} function t:greet() return 'hi ' .. self.name end return t:greet()", &[], &[]),
    ("do local x = 1 end return x", &[], &[]),
    ("local x = 1 do local x = 2 end return x", &[], &[]),
    ("if false then return 1 elseif nil then return 2 else return 3 end", &[], &[]),
    ("return 1 and 2 or 3", &[], &[]),
    ("return nil and 2 or 3", &[], &[]),
    ("return false or nil", &[], &[]),
    ("return 2 ^ 3 ^ 2", &[], &[]),
    ("return -2 ^ 2", &[], &[]),
    ("return 'a' .. 'b' == 'ab'", &[], &[]),
    ("return 1 .. ''", &[], &[]),
    ("return 1.5 .. ''", &[], &[]),
    ("return -0.0 .. ''", &[], &[]),
    ("return [==[a]]b]==]", &[], &[]),
    ("return [[\nfirst\nsecond]]", &[], &[]),
    ("-- a comment\nreturn 1 --[[ inline ]] + 1", &[], &[]),
    ("return #'hello'", &[], &[]),
    ("return string.rep('ab', 3)", &[], &[]),
    ("return {string.byte('AB', 1, 2)}", &[], &[]),
    ("return string.char(72, 105)", &[], &[]),
    ("return select('#', 1, 2, 3)", &[], &[]),
    ("return select(2, 'a', 'b', 'c')", &[], &[]),
    ("return next({})", &[], &[]),
    ("return rawequal('a', 'a')", &[], &[]),
    ("return table.remove({1, 2, 3})", &[], &[]),
    ("return math.abs(-3) + math.ceil(1.2)", &[], &[]),
    ("return tostring(math.huge)", &[], &[]),
    ("return redis.sha1hex('abc')", &[], &[]),
    ("return redis.replicate_commands()", &[], &[]),
    ("#!lua\nreturn 1", &[], &[]),
    // A command's own arity check (odd field/value or score/member words) is not the bridge's.
    ("return redis.call('HSET', KEYS[1], 'a')", &["h"], &[]),
    ("return redis.call('HSET', KEYS[1], 'a', 'b', 'c')", &["h"], &[]),
    ("return redis.pcall('HSET', KEYS[1], 'a', 'b', 'c')", &["h"], &[]),
    ("return redis.call('ZADD', KEYS[1], '1', 'a', '2')", &["z"], &[]),
    ("return redis.call('MSET', 'a', '1', 'b')", &[], &[]),
    ("return redis.call('GET', 'a', 'b')", &[], &[]),
    ("return redis.call('EVAL', 'return 1', '0')", &[], &[]),
    // Shebangs: read-only scripts, other engines, unknown flags and options.
    ("#!lua flags=no-writes\nreturn redis.call('SET', KEYS[1], 'v')", &["k"], &[]),
    ("#!lua flags=no-writes\nreturn redis.pcall('DEL', KEYS[1])", &["k"], &[]),
    ("#!lua flags=no-writes\nreturn redis.call('GET', 's')", &[], &[]),
    ("#!lua flags=no-writes\nreturn redis.call('SET', 'k')", &[], &[]),
    ("#!lua flags=no-writes,allow-oom\nreturn 1", &[], &[]),
    ("#!lua flags=\nreturn 1", &[], &[]),
    ("#!python\nreturn 1", &[], &[]),
    ("#!lua flags=bogus\nreturn 1", &[], &[]),
    ("#!lua name=x\nreturn 1", &[], &[]),
    ("#!\nreturn 1", &[], &[]),
    ("#!lua", &[], &[]),
    ("#!lua\nreturn x", &[], &[]),
    ("redis.set_repl(redis.REPL_ALL) return {redis.REPL_NONE, redis.REPL_AOF, redis.REPL_SLAVE, redis.REPL_REPLICA, redis.REPL_ALL}", &[], &[]),
    ("return redis.set_repl()", &[], &[]),
    ("return redis.log(redis.LOG_WARNING, 'x')", &[], &[]),
    ("return ipairs(nil)", &[], &[]),
    ("return pairs()", &[], &[]),
    ("for i = 1, 'x' do end", &[], &[]),
    ("local t = {} t[nil] = 1", &[], &[]),
    ("local a = 1\nlocal b = 'x' .. {}\n", &[], &[]),
    ("return table.concat({}, ',')", &[], &[]),
    ("return string.format('%5s|%-5s|', 'a', 'b')", &[], &[]),
    ("return string.format('%.2f %g %g %e', 1/3, 0.1, 1e20, 12345.678)", &[], &[]),
];

/// Runs each script through real Redis and through the engine (same starting state: a string
/// key "s" and nothing else) and describes every pair of replies that differ.
fn mismatches<'a>(
    host: &mut Resp,
    cases: impl IntoIterator<Item = (&'a str, Vec<Vec<u8>>, Vec<Vec<u8>>)>,
) -> Vec<String> {
    let mut mismatches = Vec::new();
    for (src, keys, argv) in cases {
        host.command(&words(&["FLUSHALL"]));
        host.command(&words(&["SET", "s", "v"]));
        let mut eval = words(&["EVAL", src, &keys.len().to_string()]);
        eval.extend(keys.iter().cloned());
        eval.extend(argv.iter().cloned());
        let expected = host.command(&eval);
        let sha = sha1_smol::Sha1::from(src.as_bytes()).digest().to_string();
        host.command(&words(&["FLUSHALL"]));
        host.command(&words(&["SET", "s", "v"]));
        let actual = match Script::compile(src.as_bytes()) {
            Ok(script) => {
                host.read_only = script.is_read_only();
                script.run(&sha, &keys, &argv, host, DEFAULT_STEP_BUDGET)
            }
            Err(e) => e.to_reply(),
        };
        if actual != expected {
            mismatches.push(format!(
                "{src:?}\n  redis:     {expected:?}\n  ministore: {actual:?}"
            ));
        }
    }
    mismatches
}

#[test]
fn the_engine_matches_real_redis_script_for_script() {
    let Some(server) = required(RedisServer::start()) else {
        return;
    };
    let mut host = Resp::connect(server.port());
    let cases = SCRIPTS
        .iter()
        .chain(core_cases::SCRIPTS)
        .map(|(src, keys, argv)| (*src, words(keys), words(argv)));
    let mismatches = mismatches(&mut host, cases);
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
}

/// The library cases in `tests/lua_cases/*.lua`: one script per line (no KEYS or ARGV); lines
/// that start with `--` are comments. `CASES_FILE=name` runs one file.
#[test]
fn the_libraries_match_real_redis_case_for_case() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/lua_cases");
    let only = std::env::var("CASES_FILE").ok();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/lua_cases")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "lua"))
        .filter(|p| {
            only.as_deref()
                .is_none_or(|o| p.file_stem().is_some_and(|s| s == o))
        })
        .collect();
    files.sort();
    let Some(server) = required(RedisServer::start()) else {
        return;
    };
    let mut host = Resp::connect(server.port());
    let mut all = Vec::new();
    let mut count = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).expect("case file");
        let cases: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with("--"))
            .collect();
        count += cases.len();
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
        for m in mismatches(
            &mut host,
            cases.into_iter().map(|c| (c, Vec::new(), Vec::new())),
        ) {
            all.push(format!("{}: {m}", name.as_deref().unwrap_or("?")));
        }
    }
    assert!(count > 0, "no cases found in {}", dir.display());
    assert!(
        all.is_empty(),
        "{} of {count} cases differ:\n{}",
        all.len(),
        all.join("\n")
    );
}
