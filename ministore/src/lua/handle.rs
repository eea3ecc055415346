//! The handles values carry for what the engine provides natively: the read-only library
//! tables ([`Lib`]) and every built-in function ([`Builtin`], one enum per library). This
//! module depends on nothing, so values, the interpreter, the libraries and the conversions
//! can all name them without depending on one another. What each library table holds and what
//! each function is called is in `lib_tables.rs`; a library's functions are run by its file
//! under `lib/`.
//!
//! Without the `full` feature the handles of the libraries that build leaves out (`table`,
//! `math`, `cjson`, `bit`, `cmsgpack`, `struct`, `coroutine`, `string`'s `format` and pattern
//! functions, and `redis.setresp` and `redis.register_function`) do not exist, so nothing can
//! reach their code.

/// The library tables. They are read-only and identical in every run, so they are not built as
/// tables at all: indexing one is a static lookup (see `lib_tables::lib_get`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lib {
    Redis = 0,
    String = 1,
    #[cfg(feature = "full")]
    Table = 2,
    #[cfg(feature = "full")]
    Math = 3,
    #[cfg(feature = "full")]
    Cjson = 4,
    #[cfg(feature = "full")]
    Bit = 5,
    #[cfg(feature = "full")]
    Cmsgpack = 6,
    #[cfg(feature = "full")]
    Struct = 7,
    #[cfg(feature = "full")]
    Coroutine = 8,
    /// A function's `redis` (FCALL): EVAL's without the fields Redis adds for EVAL alone.
    #[cfg(feature = "full")]
    RedisFunction = 9,
    /// `redis` while FUNCTION LOAD runs a library's top level: `register_function`, `log`
    /// and the version, and nothing else.
    #[cfg(feature = "full")]
    RedisLoad = 10,
}

/// Every built-in function, by library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builtin {
    Base(BaseFunc),
    Redis(RedisFunc),
    String(StringFunc),
    #[cfg(feature = "full")]
    Table(TableFunc),
    #[cfg(feature = "full")]
    Math(MathFunc),
    #[cfg(feature = "full")]
    Cjson(CjsonFunc),
    #[cfg(feature = "full")]
    Bit(BitFunc),
    #[cfg(feature = "full")]
    Cmsgpack(CmsgpackFunc),
    #[cfg(feature = "full")]
    Struct(StructFunc),
    #[cfg(feature = "full")]
    Coroutine(CoroutineFunc),
}

impl Builtin {
    /// `redis.call`.
    pub const REDIS_CALL: Builtin = Builtin::Redis(RedisFunc::Call);
    /// `redis.pcall`.
    pub const REDIS_PCALL: Builtin = Builtin::Redis(RedisFunc::Pcall);

    /// A small number unique to this builtin (for table keys and printed addresses).
    pub fn id(self) -> u64 {
        let (family, f) = match self {
            Builtin::Base(f) => (0, f as u64),
            Builtin::Redis(f) => (1, f as u64),
            Builtin::String(f) => (2, f as u64),
            #[cfg(feature = "full")]
            Builtin::Table(f) => (3, f as u64),
            #[cfg(feature = "full")]
            Builtin::Math(f) => (4, f as u64),
            #[cfg(feature = "full")]
            Builtin::Cjson(f) => (5, f as u64),
            #[cfg(feature = "full")]
            Builtin::Bit(f) => (6, f as u64),
            #[cfg(feature = "full")]
            Builtin::Cmsgpack(f) => (7, f as u64),
            #[cfg(feature = "full")]
            Builtin::Struct(f) => (8, f as u64),
            #[cfg(feature = "full")]
            Builtin::Coroutine(f) => (9, f as u64),
        };
        family << 6 | f
    }
}

/// A base function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BaseFunc {
    ToNumber,
    ToString,
    Type,
    Ipairs,
    IpairsStep,
    Pairs,
    Next,
    /// The `next` `pairs` hands out: Lua 5.1 gives `pairs` a `next` of its own, equal in
    /// behaviour but not the global (`pairs({}) == next` is false).
    PairsNext,
    Unpack,
    Select,
    Pcall,
    Error,
    Assert,
    RawGet,
    RawSet,
    RawEqual,
    XPcall,
    SetMetatable,
    GetMetatable,
    LoadString,
    Load,
    GcInfo,
    CollectGarbage,
    /// `_G`'s `__index`.
    UndefinedGlobal,
}

/// A `redis.*` function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedisFunc {
    Call,
    Pcall,
    ErrorReply,
    StatusReply,
    Sha1Hex,
    Log,
    ReplicateCommands,
    SetRepl,
    AclCheckCmd,
    #[cfg(feature = "full")]
    SetResp,
    Breakpoint,
    Debug,
    #[cfg(feature = "full")]
    RegisterFunction,
}

/// A `string.*` function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StringFunc {
    #[cfg(feature = "full")]
    Format,
    Sub,
    Len,
    Upper,
    Lower,
    Rep,
    Byte,
    Char,
    Reverse,
    #[cfg(feature = "full")]
    Find,
    #[cfg(feature = "full")]
    Match,
    #[cfg(feature = "full")]
    Gmatch,
    #[cfg(feature = "full")]
    Gsub,
    Dump,
    /// The step of a gmatch iterator (reachable only through the iterator).
    #[cfg(feature = "full")]
    GmatchStep,
}

/// A `table.*` function.
#[cfg(feature = "full")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFunc {
    Insert,
    Concat,
    Remove,
    Getn,
    Setn,
    Maxn,
    Sort,
    Foreach,
    Foreachi,
}

/// A `math.*` function.
#[cfg(feature = "full")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MathFunc {
    Abs,
    Acos,
    Asin,
    Atan2,
    Atan,
    Ceil,
    Cosh,
    Cos,
    Deg,
    Exp,
    Floor,
    Fmod,
    Frexp,
    Ldexp,
    Log10,
    Log,
    Max,
    Min,
    Modf,
    Pow,
    Rad,
    Random,
    RandomSeed,
    Sinh,
    Sin,
    Sqrt,
    Tanh,
    Tan,
}

/// A `cjson.*` function.
#[cfg(feature = "full")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CjsonFunc {
    Encode,
    Decode,
    EncodeSparseArray,
    EncodeMaxDepth,
    DecodeMaxDepth,
    EncodeNumberPrecision,
    EncodeKeepBuffer,
    EncodeInvalidNumbers,
    DecodeInvalidNumbers,
    New,
}

/// A `bit.*` function.
#[cfg(feature = "full")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BitFunc {
    Tobit,
    Bnot,
    Band,
    Bor,
    Bxor,
    Lshift,
    Rshift,
    Arshift,
    Rol,
    Ror,
    Bswap,
    Tohex,
}

/// A `cmsgpack.*` function.
#[cfg(feature = "full")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmsgpackFunc {
    Pack,
    Unpack,
    UnpackOne,
    UnpackLimit,
}

/// A `struct.*` function.
#[cfg(feature = "full")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StructFunc {
    Pack,
    Unpack,
    Size,
}

/// A `coroutine.*` function.
#[cfg(feature = "full")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoroutineFunc {
    Create,
    Resume,
    Yield,
    Status,
    Wrap,
    Running,
    /// The body of every function `coroutine.wrap` makes (reachable only through one).
    WrapResume,
}
