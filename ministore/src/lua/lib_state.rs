//! What the libraries keep for the length of one script run: `math.random`'s generator, the
//! protocol `redis.setresp` chose, cjson's settings, the functions a FUNCTION LOAD registers,
//! and how the builtin about to run was called. The interpreter carries it for them (a library
//! function gets only the interpreter) without looking inside, so it is declared here, below
//! both.

use crate::lua::value::Value;

/// The libraries' state during one run.
#[derive(Debug)]
pub struct LibState {
    /// `math.random`'s generator for a run without a store to carry it (a host's own is used
    /// when it has one).
    pub rand: Rand48,
    /// The protocol `redis.setresp` chose (2 until a script asks for 3): how `redis.call`'s
    /// replies reach the script, and how its Lua booleans reach the client.
    pub resp: u8,
    /// What a run without a store to carry it keeps of [`LuaState`] (a host's own is used
    /// when it has one).
    pub local: LuaState,
    /// The builtin about to run is called by a library function (`pcall(f)`, a sort
    /// comparator, …), not by Lua code: Lua words its errors without a position.
    pub from_lib: bool,
    /// What `redis.register_function` registered while FUNCTION LOAD ran a library's top
    /// level.
    pub registered: Vec<Registered>,
}

/// What Redis's Lua interpreter keeps from one script to the next, until `SCRIPT FLUSH` makes
/// a new one (the function libraries' interpreter has its own): lua-cjson's settings and the
/// collector's.
#[derive(Debug, Clone)]
pub struct LuaState {
    /// The settings the `cjson.encode_*`/`decode_*` functions change.
    pub cjson: CjsonConfig,
    /// The settings `collectgarbage('setpause')` and `('setstepmul')` change.
    pub gc_pause: i32,
    pub gc_stepmul: i32,
}

impl LuaState {
    /// Its settings as bytes, equal exactly when the settings are (for a store's state key).
    pub fn write_key(&self, out: &mut Vec<u8>) {
        let c = &self.cjson;
        out.extend_from_slice(&[
            c.sparse_convert,
            c.keep_buffer,
            c.encode_invalid,
            c.decode_invalid,
        ]);
        for n in [
            c.sparse_ratio,
            c.sparse_safe,
            c.encode_max_depth,
            c.decode_max_depth,
            c.precision,
            i64::from(self.gc_pause),
            i64::from(self.gc_stepmul),
        ] {
            out.extend_from_slice(&n.to_le_bytes());
        }
    }
}

impl Default for LuaState {
    fn default() -> Self {
        LuaState {
            cjson: CjsonConfig::default(),
            gc_pause: 200,
            gc_stepmul: 200,
        }
    }
}

impl Default for LibState {
    fn default() -> Self {
        LibState {
            rand: Rand48::default(),
            resp: 2,
            local: LuaState::default(),
            from_lib: false,
            registered: Vec::new(),
        }
    }
}

/// A function a library registered while loading.
#[derive(Debug, Clone)]
pub struct Registered {
    /// Its name.
    pub name: Vec<u8>,
    /// The Lua function.
    pub callback: Value,
    /// Its `description`, if given.
    pub description: Option<Vec<u8>>,
    /// Its flags (`no-writes`, …), each once, in Redis's order.
    pub flags: Vec<&'static str>,
}

/// The `lrand48` state (48 bits) behind `math.random`: Redis's one generator for the whole
/// server, which no script and no `SCRIPT FLUSH` resets.
#[derive(Debug, Clone, Copy)]
pub struct Rand48(u64);

impl Default for Rand48 {
    /// rand48's state before any seeding, where Redis's generator starts.
    fn default() -> Self {
        Rand48(0x1234_abcd_330e)
    }
}

impl Rand48 {
    /// The state `srand48(seed)` sets.
    pub fn seeded(seed: i32) -> Rand48 {
        Rand48(((seed as u32 as u64) << 16) | 0x330e)
    }

    /// The 48 bits of state, for a store's state key.
    pub fn state(self) -> u64 {
        self.0
    }

    /// The next 31-bit draw.
    pub fn draw(&mut self) -> u32 {
        self.0 = (self.0.wrapping_mul(0x5_deec_e66d).wrapping_add(0xb)) & ((1 << 48) - 1);
        (self.0 >> 17) as u32
    }
}

/// lua-cjson's settings, with its defaults.
#[derive(Debug, Clone)]
pub struct CjsonConfig {
    /// `encode_sparse_array`'s first setting: an excessively sparse array is encoded as an
    /// object (1) rather than refused (0).
    pub sparse_convert: u8,
    /// Its second: an array is excessively sparse when its largest index is more than this
    /// many times its item count (0: never) …
    pub sparse_ratio: i64,
    /// … and more than this.
    pub sparse_safe: i64,
    /// How deep `encode` may nest.
    pub encode_max_depth: i64,
    /// How deep `decode` may nest.
    pub decode_max_depth: i64,
    /// The significant digits `encode` gives numbers.
    pub precision: i64,
    /// `encode_keep_buffer` (reported only: nothing here keeps a buffer).
    pub keep_buffer: u8,
    /// Whether `encode` takes NaN and infinities: off, on, or as `null`.
    pub encode_invalid: u8,
    /// Whether `decode` takes `nan`, `inf`, hex and leading zeros.
    pub decode_invalid: u8,
}

impl Default for CjsonConfig {
    fn default() -> Self {
        CjsonConfig {
            sparse_convert: 0,
            sparse_ratio: 2,
            sparse_safe: 10,
            encode_max_depth: 1000,
            decode_max_depth: 1000,
            precision: 14,
            keep_buffer: 1,
            encode_invalid: 0,
            decode_invalid: 1,
        }
    }
}
