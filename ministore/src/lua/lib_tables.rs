//! What the library tables hold and what the builtins are called: for each of `redis`,
//! `string`, `table`, `math`, `cjson`, `bit`, `cmsgpack`, `struct` and `coroutine`, its fields
//! in the order `pairs` lists them and what each is (a builtin or a constant); the base
//! functions' global names; `redis` as FUNCTION LOAD sees it; and the name Lua's argument
//! errors give each builtin.
//!
//! The tables are the same in every run, so they are never built: indexing one is a static
//! lookup here, below the interpreter, which does one on every `redis.call`. What a builtin
//! does is its library's file under `lib/`.

use crate::lua::handle::{Builtin, Lib};
use crate::lua::value::{Table, TableRef, Value};

impl Builtin {
    /// The name Lua's argument errors call the function by.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Base(f) => f.name(),
            Builtin::Redis(f) => f.name(),
            Builtin::String(f) => f.name(),
            #[cfg(feature = "full")]
            Builtin::Table(f) => f.name(),
            #[cfg(feature = "full")]
            Builtin::Math(f) => f.name(),
            #[cfg(feature = "full")]
            Builtin::Cjson(f) => f.name(),
            #[cfg(feature = "full")]
            Builtin::Bit(f) => f.name(),
            #[cfg(feature = "full")]
            Builtin::Cmsgpack(f) => f.name(),
            #[cfg(feature = "full")]
            Builtin::Struct(f) => f.name(),
            #[cfg(feature = "full")]
            Builtin::Coroutine(f) => f.name(),
        }
    }
}

/// The base function a global name refers to, if any.
pub fn global_function(name: &str) -> Option<Builtin> {
    base::lookup(name).map(Builtin::Base)
}

/// `lib[key]`: a static lookup in a library table.
pub fn lib_get(lib: Lib, key: &Value) -> Value {
    match key {
        Value::Str(name) => lib_field(lib, name),
        _ => Value::Nil,
    }
}

/// `lib.name`: a static lookup by the field's name.
pub fn lib_field(lib: Lib, name: &[u8]) -> Value {
    match lib {
        Lib::Redis => redis::field(name),
        Lib::String => string::field(name),
        #[cfg(feature = "full")]
        Lib::Table => table::field(name),
        #[cfg(feature = "full")]
        Lib::Math => math::field(name),
        #[cfg(feature = "full")]
        Lib::Cjson => cjson::field(name),
        #[cfg(feature = "full")]
        Lib::Bit => bit::field(name),
        #[cfg(feature = "full")]
        Lib::Cmsgpack => cmsgpack::field(name),
        #[cfg(feature = "full")]
        Lib::Struct => lstruct::field(name),
        #[cfg(feature = "full")]
        Lib::Coroutine => coroutine::field(name),
        #[cfg(feature = "full")]
        Lib::RedisFunction if redis::eval_only(name) => Value::Nil,
        #[cfg(feature = "full")]
        Lib::RedisFunction => redis::field(name),
        #[cfg(feature = "full")]
        Lib::RedisLoad => redis::load_field(name).unwrap_or_default(),
    }
}

/// EVAL's `redis`, in the order Redis sets its fields; the last three are EVAL's alone
/// (`scriptingInit` adds them after `luaRegisterRedisAPI`).
const REDIS_FIELDS: &[&str] = &[
    "call",
    "pcall",
    "log",
    "LOG_DEBUG",
    "LOG_VERBOSE",
    "LOG_NOTICE",
    "LOG_WARNING",
    "REDIS_VERSION_NUM",
    "REDIS_VERSION",
    "setresp",
    "sha1hex",
    "error_reply",
    "status_reply",
    "set_repl",
    "REPL_NONE",
    "REPL_AOF",
    "REPL_SLAVE",
    "REPL_REPLICA",
    "REPL_ALL",
    "acl_check_cmd",
    "breakpoint",
    "debug",
    "replicate_commands",
];

/// FUNCTION LOAD's `redis` (`luaEngineInitEngine`): `register_function`, then what
/// `luaRegisterLogFunction` and `luaRegisterVersion` set, which EVAL's table holds at 2..9.
#[cfg(feature = "full")]
const LOAD_FIELDS: [&str; 8] = {
    let mut names = ["register_function"; 8];
    let mut i = 0;
    while i < 7 {
        names[i + 1] = REDIS_FIELDS[i + 2];
        i += 1;
    }
    names
};

/// How Redis's Lua builds each library table: the size `luaL_register` gives it (its
/// functions' count; 0 for a table made with `lua_newtable`) and the order its fields are set
/// in, C's registration order and then the fields added after. `pairs` over a copy built this
/// way goes in Redis's order.
fn layout(lib: Lib) -> (usize, &'static [&'static str]) {
    match lib {
        Lib::Redis => (0, REDIS_FIELDS),
        // Built by `luaRegisterRedisAPI` alone: EVAL's fields but its last three.
        #[cfg(feature = "full")]
        Lib::RedisFunction => (0, &REDIS_FIELDS[..REDIS_FIELDS.len() - 3]),
        // FUNCTION LOAD's own table (`luaEngineInitEngine`).
        #[cfg(feature = "full")]
        Lib::RedisLoad => (0, &LOAD_FIELDS),
        Lib::String => (
            15,
            &[
                "byte", "char", "dump", "find", "format", "gfind", "gmatch", "gsub", "len",
                "lower", "match", "rep", "reverse", "sub", "upper",
            ],
        ),
        #[cfg(feature = "full")]
        Lib::Table => (
            9,
            &[
                "concat", "foreach", "foreachi", "getn", "maxn", "insert", "remove", "setn", "sort",
            ],
        ),
        #[cfg(feature = "full")]
        Lib::Math => (28, math::NAMES),
        #[cfg(feature = "full")]
        Lib::Cjson => (0, cjson::NAMES),
        #[cfg(feature = "full")]
        Lib::Bit => (12, bit::NAMES),
        #[cfg(feature = "full")]
        Lib::Cmsgpack => (0, cmsgpack::NAMES),
        #[cfg(feature = "full")]
        Lib::Struct => (3, lstruct::NAMES),
        #[cfg(feature = "full")]
        Lib::Coroutine => (
            6,
            &["create", "resume", "running", "status", "wrap", "yield"],
        ),
    }
}

/// Builds a copy of one library table (for the rare script that iterates over one), laid out
/// as Redis's is.
pub fn make_lib(lib: Lib) -> TableRef {
    let (size, names) = layout(lib);
    // A few dozen fields cannot exceed a table's size cap.
    let mut t = Table::with_sizes(0, size).unwrap_or_default();
    for name in names {
        let key = Value::str(name.as_bytes());
        let value = lib_get(lib, &key);
        if !value.is_nil() {
            let _ = t.set(key, value);
        }
    }
    TableRef::from_table(t)
}

/// The base functions' global names.
mod base {
    use crate::lua::handle::BaseFunc as Func;

    /// The base functions that are globals (`ipairs`'s step function and the stand-in for an
    /// undefined global are not).
    const GLOBALS: &[Func] = &[
        Func::ToNumber,
        Func::ToString,
        Func::Type,
        Func::Ipairs,
        Func::Pairs,
        Func::Next,
        Func::Unpack,
        Func::Select,
        Func::Pcall,
        Func::Error,
        Func::Assert,
        Func::RawGet,
        Func::RawSet,
        Func::RawEqual,
        Func::XPcall,
        Func::SetMetatable,
        Func::GetMetatable,
        Func::LoadString,
        Func::Load,
        Func::GcInfo,
        Func::CollectGarbage,
    ];

    /// The base function a global name refers to.
    pub fn lookup(name: &str) -> Option<Func> {
        GLOBALS.iter().find(|f| f.name() == name).copied()
    }

    impl Func {
        /// The function's name in Lua's argument errors.
        pub fn name(self) -> &'static str {
            match self {
                Func::ToNumber => "tonumber",
                Func::ToString => "tostring",
                Func::Type => "type",
                Func::Ipairs => "ipairs",
                Func::IpairsStep => "?",
                Func::Pairs => "pairs",
                Func::Next | Func::PairsNext => "next",
                Func::Unpack => "unpack",
                Func::Select => "select",
                Func::Pcall => "pcall",
                Func::Error => "error",
                Func::Assert => "assert",
                Func::RawGet => "rawget",
                Func::RawSet => "rawset",
                Func::RawEqual => "rawequal",
                Func::XPcall => "xpcall",
                Func::SetMetatable => "setmetatable",
                Func::GetMetatable => "getmetatable",
                Func::LoadString => "loadstring",
                Func::Load => "load",
                Func::GcInfo => "gcinfo",
                Func::CollectGarbage => "collectgarbage",
                Func::UndefinedGlobal => "?",
            }
        }
    }
}

/// The `redis` table.
mod redis {
    use super::{Builtin, Value};
    use crate::lua::handle::RedisFunc as Func;

    /// The Redis version scripts see (the oracle server's).
    const REDIS_VERSION: &str = "7.0.15";
    /// The same as a number: `0x00MMmmpp`.
    const REDIS_VERSION_NUM: u32 = 0x0007_000f;

    /// The numeric constants of the `redis` table.
    const NUMBERS: &[(&str, f64)] = &[
        ("REDIS_VERSION_NUM", REDIS_VERSION_NUM as f64),
        ("REPL_NONE", 0.0),
        ("REPL_AOF", 1.0),
        ("REPL_SLAVE", 2.0),
        ("REPL_REPLICA", 2.0),
        ("REPL_ALL", 3.0),
        ("LOG_DEBUG", 0.0),
        ("LOG_VERBOSE", 1.0),
        ("LOG_NOTICE", 2.0),
        ("LOG_WARNING", 3.0),
    ];

    /// The functions of the `redis` table (`register_function` is only in FUNCTION LOAD's).
    const FUNCS: &[Func] = &[
        Func::Call,
        Func::Pcall,
        Func::ErrorReply,
        Func::StatusReply,
        Func::Sha1Hex,
        Func::Log,
        Func::ReplicateCommands,
        Func::SetRepl,
        Func::AclCheckCmd,
        #[cfg(feature = "full")]
        Func::SetResp,
        Func::Breakpoint,
        Func::Debug,
    ];

    /// `redis.name`. The functions first, `call` at their head: a script looks `redis.call` up
    /// on every call it makes.
    pub fn field(name: &[u8]) -> Value {
        if let Some(f) = FUNCS.iter().find(|f| f.name().as_bytes() == name) {
            return Value::Builtin(Builtin::Redis(*f));
        }
        if name == b"REDIS_VERSION" {
            return Value::str(REDIS_VERSION.as_bytes());
        }
        match NUMBERS.iter().find(|(n, _)| n.as_bytes() == name) {
            Some((_, number)) => Value::Num(*number),
            None => Value::Nil,
        }
    }

    impl Func {
        /// The function's name in Lua's argument errors.
        pub fn name(self) -> &'static str {
            match self {
                Func::Call => "call",
                Func::Pcall => "pcall",
                Func::ErrorReply => "error_reply",
                Func::StatusReply => "status_reply",
                Func::Sha1Hex => "sha1hex",
                Func::Log => "log",
                Func::ReplicateCommands => "replicate_commands",
                Func::SetRepl => "set_repl",
                Func::AclCheckCmd => "acl_check_cmd",
                #[cfg(feature = "full")]
                Func::SetResp => "setresp",
                Func::Breakpoint => "breakpoint",
                Func::Debug => "debug",
                #[cfg(feature = "full")]
                Func::RegisterFunction => "register_function",
            }
        }
    }

    /// The fields of `redis` Redis adds for EVAL only (`scriptingInit`): a function's `redis`
    /// has none of them.
    pub fn eval_only(name: &[u8]) -> bool {
        [&b"breakpoint"[..], b"debug", b"replicate_commands"].contains(&name)
    }

    /// `redis.name` while FUNCTION LOAD runs a library's top level: only the fields of
    /// [`super::LOAD_FIELDS`] exist.
    #[cfg(feature = "full")]
    pub fn load_field(name: &[u8]) -> Option<Value> {
        if name == b"register_function" {
            return Some(Value::Builtin(Builtin::Redis(Func::RegisterFunction)));
        }
        super::LOAD_FIELDS
            .iter()
            .any(|f| f.as_bytes() == name)
            .then(|| field(name))
    }
}

/// The `string` table.
mod string {
    use super::{Builtin, Value};
    use crate::lua::handle::StringFunc as Func;

    /// The functions of the `string` table (`gmatch`'s iterator is not one).
    const FUNCS: &[Func] = &[
        #[cfg(feature = "full")]
        Func::Format,
        Func::Sub,
        Func::Len,
        Func::Upper,
        Func::Lower,
        Func::Rep,
        Func::Byte,
        Func::Char,
        Func::Reverse,
        #[cfg(feature = "full")]
        Func::Find,
        #[cfg(feature = "full")]
        Func::Match,
        #[cfg(feature = "full")]
        Func::Gmatch,
        #[cfg(feature = "full")]
        Func::Gsub,
        Func::Dump,
    ];

    /// `string.name`. `gfind` is `gmatch` itself, as Lua 5.1 sets it up (`LUA_COMPAT_GFIND`).
    pub fn field(name: &[u8]) -> Value {
        #[cfg(feature = "full")]
        if name == b"gfind" {
            return Value::Builtin(Builtin::String(Func::Gmatch));
        }
        match FUNCS.iter().find(|f| f.name().as_bytes() == name) {
            Some(f) => Value::Builtin(Builtin::String(*f)),
            None => Value::Nil,
        }
    }

    impl Func {
        /// The function's name in Lua's argument errors.
        pub fn name(self) -> &'static str {
            match self {
                #[cfg(feature = "full")]
                Func::Format => "format",
                Func::Sub => "sub",
                Func::Len => "len",
                Func::Upper => "upper",
                Func::Lower => "lower",
                Func::Rep => "rep",
                Func::Byte => "byte",
                Func::Char => "char",
                Func::Reverse => "reverse",
                #[cfg(feature = "full")]
                Func::Find => "find",
                #[cfg(feature = "full")]
                Func::Match => "match",
                #[cfg(feature = "full")]
                Func::Gmatch => "gmatch",
                #[cfg(feature = "full")]
                Func::Gsub => "gsub",
                Func::Dump => "dump",
                #[cfg(feature = "full")]
                Func::GmatchStep => "gmatch_aux",
            }
        }
    }
}

/// The `table` table.
#[cfg(feature = "full")]
mod table {
    use super::{Builtin, Value};
    use crate::lua::handle::TableFunc as Func;

    const FUNCS: &[Func] = &[
        Func::Insert,
        Func::Concat,
        Func::Remove,
        Func::Getn,
        Func::Setn,
        Func::Maxn,
        Func::Sort,
        Func::Foreach,
        Func::Foreachi,
    ];

    /// `table.name`.
    pub fn field(name: &[u8]) -> Value {
        match FUNCS.iter().find(|f| f.name().as_bytes() == name) {
            Some(f) => Value::Builtin(Builtin::Table(*f)),
            None => Value::Nil,
        }
    }

    impl Func {
        /// The function's name in Lua's argument errors.
        pub fn name(self) -> &'static str {
            match self {
                Func::Insert => "insert",
                Func::Concat => "concat",
                Func::Remove => "remove",
                Func::Getn => "getn",
                Func::Setn => "setn",
                Func::Maxn => "maxn",
                Func::Sort => "sort",
                Func::Foreach => "foreach",
                Func::Foreachi => "foreachi",
            }
        }
    }
}

/// The `math` table.
#[cfg(feature = "full")]
mod math {
    use super::{Builtin, Value};
    use crate::lua::handle::MathFunc as Func;

    /// Every field of the `math` table, in the order Redis's Lua sets them: its functions as
    /// C registers them, then the fields `luaopen_math` adds.
    pub const NAMES: &[&str] = &[
        "abs",
        "acos",
        "asin",
        "atan2",
        "atan",
        "ceil",
        "cosh",
        "cos",
        "deg",
        "exp",
        "floor",
        "fmod",
        "frexp",
        "ldexp",
        "log10",
        "log",
        "max",
        "min",
        "modf",
        "pow",
        "rad",
        "random",
        "randomseed",
        "sinh",
        "sin",
        "sqrt",
        "tanh",
        "tan",
        "pi",
        "huge",
        "mod",
    ];

    const FUNCS: &[Func] = &[
        Func::Abs,
        Func::Acos,
        Func::Asin,
        Func::Atan2,
        Func::Atan,
        Func::Ceil,
        Func::Cosh,
        Func::Cos,
        Func::Deg,
        Func::Exp,
        Func::Floor,
        Func::Fmod,
        Func::Frexp,
        Func::Ldexp,
        Func::Log10,
        Func::Log,
        Func::Max,
        Func::Min,
        Func::Modf,
        Func::Pow,
        Func::Rad,
        Func::Random,
        Func::RandomSeed,
        Func::Sinh,
        Func::Sin,
        Func::Sqrt,
        Func::Tanh,
        Func::Tan,
    ];

    /// `math.name`.
    pub fn field(name: &[u8]) -> Value {
        match name {
            b"huge" => Value::Num(f64::INFINITY),
            b"pi" => Value::Num(std::f64::consts::PI),
            // `fmod` itself, as Lua 5.1 sets it up (`LUA_COMPAT_MOD`).
            b"mod" => Value::Builtin(Builtin::Math(Func::Fmod)),
            _ => match FUNCS.iter().find(|f| f.name().as_bytes() == name) {
                Some(f) => Value::Builtin(Builtin::Math(*f)),
                None => Value::Nil,
            },
        }
    }

    impl Func {
        /// The function's name in Lua's argument errors.
        pub fn name(self) -> &'static str {
            NAMES[self as usize]
        }
    }
}

/// The `cjson` table.
#[cfg(feature = "full")]
mod cjson {
    use super::{Builtin, Value};
    use crate::lua::handle::CjsonFunc as Func;

    /// Every field of the `cjson` table, in the order lua-cjson sets them.
    pub const NAMES: &[&str] = &[
        "encode",
        "decode",
        "encode_sparse_array",
        "encode_max_depth",
        "decode_max_depth",
        "encode_number_precision",
        "encode_keep_buffer",
        "encode_invalid_numbers",
        "decode_invalid_numbers",
        "new",
        "null",
        "_NAME",
        "_VERSION",
    ];

    const FUNCS: &[Func] = &[
        Func::Encode,
        Func::Decode,
        Func::EncodeSparseArray,
        Func::EncodeMaxDepth,
        Func::DecodeMaxDepth,
        Func::EncodeNumberPrecision,
        Func::EncodeKeepBuffer,
        Func::EncodeInvalidNumbers,
        Func::DecodeInvalidNumbers,
        Func::New,
    ];

    /// `cjson.name`.
    pub fn field(name: &[u8]) -> Value {
        match name {
            b"null" => Value::Null,
            b"_NAME" => Value::str(b"cjson"),
            b"_VERSION" => Value::str(b"2.1.0"),
            _ => match FUNCS.iter().find(|f| f.name().as_bytes() == name) {
                Some(f) => Value::Builtin(Builtin::Cjson(*f)),
                None => Value::Nil,
            },
        }
    }

    impl Func {
        /// The function's name in Lua's argument errors.
        pub fn name(self) -> &'static str {
            NAMES[self as usize]
        }
    }
}

/// The `bit` table.
#[cfg(feature = "full")]
mod bit {
    use super::{Builtin, Value};
    use crate::lua::handle::BitFunc as Func;

    /// Every field of the `bit` table, in C's registration order.
    pub const NAMES: &[&str] = &[
        "tobit", "bnot", "band", "bor", "bxor", "lshift", "rshift", "arshift", "rol", "ror",
        "bswap", "tohex",
    ];

    const FUNCS: &[Func] = &[
        Func::Tobit,
        Func::Bnot,
        Func::Band,
        Func::Bor,
        Func::Bxor,
        Func::Lshift,
        Func::Rshift,
        Func::Arshift,
        Func::Rol,
        Func::Ror,
        Func::Bswap,
        Func::Tohex,
    ];

    /// `bit.name`.
    pub fn field(name: &[u8]) -> Value {
        match FUNCS.iter().find(|f| f.name().as_bytes() == name) {
            Some(f) => Value::Builtin(Builtin::Bit(*f)),
            None => Value::Nil,
        }
    }

    impl Func {
        /// The function's name in Lua's argument errors.
        pub fn name(self) -> &'static str {
            NAMES[self as usize]
        }
    }
}

/// The `cmsgpack` table.
#[cfg(feature = "full")]
mod cmsgpack {
    use super::{Builtin, Value};
    use crate::lua::handle::CmsgpackFunc as Func;

    /// Every field of the `cmsgpack` table.
    pub const NAMES: &[&str] = &[
        "pack",
        "unpack",
        "unpack_one",
        "unpack_limit",
        "_NAME",
        "_VERSION",
        "_COPYRIGHT",
        "_DESCRIPTION",
    ];

    /// The string constants of the `cmsgpack` table.
    const TEXTS: &[(&str, &str)] = &[
        ("_NAME", "cmsgpack"),
        ("_VERSION", "lua-cmsgpack 0.4.0"),
        ("_COPYRIGHT", "Copyright (C) 2012, Salvatore Sanfilippo"),
        ("_DESCRIPTION", "MessagePack C implementation for Lua"),
    ];

    const FUNCS: &[Func] = &[Func::Pack, Func::Unpack, Func::UnpackOne, Func::UnpackLimit];

    /// `cmsgpack.name`.
    pub fn field(name: &[u8]) -> Value {
        if let Some((_, text)) = TEXTS.iter().find(|(n, _)| n.as_bytes() == name) {
            return Value::str(text.as_bytes());
        }
        match FUNCS.iter().find(|f| f.name().as_bytes() == name) {
            Some(f) => Value::Builtin(Builtin::Cmsgpack(*f)),
            None => Value::Nil,
        }
    }

    impl Func {
        /// The function's name in Lua's argument errors.
        pub fn name(self) -> &'static str {
            NAMES[self as usize]
        }
    }
}

/// The `struct` table.
#[cfg(feature = "full")]
mod lstruct {
    use super::{Builtin, Value};
    use crate::lua::handle::StructFunc as Func;

    /// Every field of the `struct` table.
    pub const NAMES: &[&str] = &["pack", "unpack", "size"];

    const FUNCS: &[Func] = &[Func::Pack, Func::Unpack, Func::Size];

    /// `struct.name`.
    pub fn field(name: &[u8]) -> Value {
        match FUNCS.iter().find(|f| f.name().as_bytes() == name) {
            Some(f) => Value::Builtin(Builtin::Struct(*f)),
            None => Value::Nil,
        }
    }

    impl Func {
        /// The function's name in Lua's argument errors.
        pub fn name(self) -> &'static str {
            NAMES[self as usize]
        }
    }
}

/// The `coroutine` table.
#[cfg(feature = "full")]
mod coroutine {
    use super::{Builtin, Value};
    use crate::lua::handle::CoroutineFunc as Func;

    /// The functions of the `coroutine` table (`wrap`'s resumer is not one).
    const FUNCS: &[Func] = &[
        Func::Create,
        Func::Resume,
        Func::Running,
        Func::Status,
        Func::Wrap,
        Func::Yield,
    ];

    /// `coroutine.name`.
    pub fn field(name: &[u8]) -> Value {
        match FUNCS.iter().find(|f| f.name().as_bytes() == name) {
            Some(f) => Value::Builtin(Builtin::Coroutine(*f)),
            None => Value::Nil,
        }
    }

    impl Func {
        /// The function's name in Lua's argument errors.
        pub fn name(self) -> &'static str {
            match self {
                Func::Create => "create",
                Func::Resume => "resume",
                Func::Yield => "yield",
                Func::Status => "status",
                Func::Wrap => "wrap",
                Func::Running => "running",
                Func::WrapResume => "?",
            }
        }
    }
}

#[cfg(all(test, feature = "full"))]
mod tests {
    use super::{global_function, lib_field, Lib, Value};

    #[test]
    fn every_listed_field_is_found_under_its_name() {
        let libs = [
            Lib::Redis,
            Lib::String,
            Lib::Table,
            Lib::Math,
            Lib::Cjson,
            Lib::Bit,
            Lib::Cmsgpack,
            Lib::Struct,
            Lib::Coroutine,
            Lib::RedisFunction,
            Lib::RedisLoad,
        ];
        for lib in libs {
            for name in super::layout(lib).1 {
                match lib_field(lib, name.as_bytes()) {
                    Value::Nil => panic!("{lib:?} has no {name}"),
                    // `math.mod` is `math.fmod` and `string.gfind` is `string.gmatch`, as in
                    // Lua 5.1: the same function under a second name.
                    Value::Builtin(f) => match *name {
                        "mod" => assert_eq!(f.name(), "fmod"),
                        "gfind" => assert_eq!(f.name(), "gmatch"),
                        _ => assert_eq!(f.name(), *name),
                    },
                    _ => {}
                }
            }
            assert!(matches!(lib_field(lib, b"nosuch"), Value::Nil));
        }
    }

    #[test]
    fn base_globals_are_found_under_their_names() {
        for name in ["tonumber", "pairs", "xpcall", "collectgarbage"] {
            assert_eq!(global_function(name).map(|f| f.name()), Some(name));
        }
        assert!(global_function("?").is_none());
        assert!(global_function("print").is_none());
    }
}
