//! Every error a command can reply, as one typed enum holding Redis 7.0's exact wording.
//! Commands return `Result<Reply, CommandError>`; the dispatcher turns the error into a
//! [`Reply::Error`] here, so no error text is spelled anywhere else. Without the `full`
//! feature the errors only its commands reply are left out with them.

use crate::args::c_string;
use crate::reply::Reply;

/// An error reply of some command, named for what went wrong.
#[derive(Debug, PartialEq)]
pub(crate) enum CommandError {
    /// The command name is not one the store knows; carries the words as typed.
    UnknownCommand { name: Vec<u8>, args: Vec<Vec<u8>> },
    /// `SCRIPT <sub>` (or another container) with a subcommand it does not have.
    #[cfg(feature = "full")]
    UnknownSubcommand {
        container: &'static str,
        sub: Vec<u8>,
    },
    /// DEBUG's own wording for a subcommand it lacks or one given the wrong arguments.
    #[cfg(feature = "full")]
    UnknownDebugSubcommand { sub: Vec<u8> },
    /// Arity mismatch; carries the command's full lowercase name (`get`, `script|load`).
    WrongArity { command: &'static str },
    /// The key holds another type than the command works on.
    WrongType,
    /// Options that do not parse or do not combine.
    Syntax,
    /// An argument (or stored value) that is not a 64-bit integer in Redis's strict form.
    NotInteger,
    /// A count that must be positive (`ZPOPMIN key -1`).
    #[cfg(feature = "full")]
    NotPositive,
    /// INCR/INCRBY/HINCRBY whose result leaves the i64 range.
    #[cfg(feature = "full")]
    IncrementOverflow,
    /// DECRBY of i64::MIN, whose negation does not exist.
    #[cfg(feature = "full")]
    DecrementOverflow,
    /// HINCRBY on a field whose value is not an integer.
    #[cfg(feature = "full")]
    HashValueNotInteger,
    /// A score argument that is not a float (or is NaN).
    #[cfg(feature = "full")]
    NotFloat,
    /// ZRANGEBYSCORE bounds that are not floats.
    #[cfg(feature = "full")]
    MinMaxNotFloat,
    /// ZRANGE BYLEX bounds without `[`, `(`, `-` or `+`.
    #[cfg(feature = "full")]
    MinMaxNotStringRange,
    /// An expire time that is not positive or overflows; carries the command (`set`, `expire`).
    InvalidExpireTime { command: &'static str },
    /// EXPIRE with an option it does not know; carries the option as typed.
    #[cfg(feature = "full")]
    UnsupportedExpireOption { option: Vec<u8> },
    /// EXPIRE NX together with XX, GT or LT.
    #[cfg(feature = "full")]
    ExpireNxConflict,
    /// EXPIRE GT together with LT.
    #[cfg(feature = "full")]
    ExpireGtLtConflict,
    /// ZADD XX together with NX.
    #[cfg(feature = "full")]
    ZAddXxNxConflict,
    /// ZADD GT/LT/NX in an impossible combination.
    #[cfg(feature = "full")]
    ZAddGtLtNxConflict,
    /// ZADD INCR with more than one score-member pair.
    #[cfg(feature = "full")]
    ZAddIncrSinglePair,
    /// ZADD INCR whose result is NaN (`inf` + `-inf`).
    #[cfg(feature = "full")]
    ScoreIsNaN,
    /// ZRANGE by rank with LIMIT.
    #[cfg(feature = "full")]
    LimitNeedsByScoreOrByLex,
    /// ZRANGE BYLEX with WITHSCORES.
    #[cfg(feature = "full")]
    WithScoresWithByLex,
    /// EVAL or SINTERCARD numkeys larger than the arguments that follow.
    #[cfg(feature = "full")]
    TooManyKeys,
    /// EVAL numkeys below zero.
    #[cfg(feature = "full")]
    NegativeKeyCount,
    /// EVALSHA of a script that is not in the cache.
    NoScript,
    /// SCRIPT FLUSH with something other than SYNC or ASYNC.
    #[cfg(feature = "full")]
    ScriptFlushOption,
    /// SCRIPT KILL while no script runs (always, here: scripts run to completion).
    #[cfg(feature = "full")]
    NotBusy,
    /// SORT by a value that does not read as a double.
    #[cfg(feature = "full")]
    SortNotDouble,
    /// RENAME of a missing key.
    #[cfg(feature = "full")]
    NoSuchKey,
    /// OBJECT FREQ without an LFU eviction policy (never one here).
    #[cfg(feature = "full")]
    NoLfuPolicy,
    /// INCRBYFLOAT whose result (or increment) is infinite.
    #[cfg(feature = "full")]
    IncrementNaNOrInfinity,
    /// SETRANGE with a negative offset.
    #[cfg(feature = "full")]
    OffsetOutOfRange,
    /// APPEND or SETRANGE making a string longer than 512 MB.
    #[cfg(feature = "full")]
    StringTooLong,
    /// LCS of a key that holds something other than a string.
    #[cfg(feature = "full")]
    LcsNeedsStrings,
    /// LCS with both LEN and IDX.
    #[cfg(feature = "full")]
    LcsLenAndIdx,
    /// LCS whose table would exceed 512 MB.
    #[cfg(feature = "full")]
    LcsTooLarge,
    /// An argument read as a C `int` (SELECT's index) that is an integer beyond its range.
    #[cfg(feature = "full")]
    NotInt32,
    /// SELECT, MOVE, SWAPDB or COPY … DB with an index outside 0..16.
    #[cfg(feature = "full")]
    DbIndexOutOfRange,
    /// SWAPDB's first index is not an integer.
    #[cfg(feature = "full")]
    InvalidFirstDbIndex,
    /// SWAPDB's second index is not an integer.
    #[cfg(feature = "full")]
    InvalidSecondDbIndex,
    /// MOVE or COPY onto the key itself.
    #[cfg(feature = "full")]
    SameObject,
    /// MULTI inside MULTI.
    #[cfg(feature = "full")]
    MultiNested,
    /// EXEC outside MULTI.
    #[cfg(feature = "full")]
    ExecWithoutMulti,
    /// DISCARD outside MULTI.
    #[cfg(feature = "full")]
    DiscardWithoutMulti,
    /// WATCH inside MULTI.
    #[cfg(feature = "full")]
    WatchInsideMulti,
    /// EXEC of a block in which a command was refused while queuing.
    #[cfg(feature = "full")]
    ExecAbort,
    /// EXEC itself refused (wrong arity); carries the refusal.
    #[cfg(feature = "full")]
    ExecAbortBecause { reason: Box<CommandError> },
    /// `redis.call` of a command that scripts may not run (EVAL, SCRIPT, DEBUG…).
    NotAllowedFromScript,
    /// `redis.call` of a command the store does not know.
    UnknownFromScript,
    /// `redis.call` with the wrong number of arguments for its command.
    WrongArityFromScript,
    /// `redis.call` of a write command from a script declared `#!lua flags=no-writes`.
    WriteFromReadOnlyScript,
    /// A SCAN-family cursor that is not an unsigned number.
    #[cfg(feature = "full")]
    InvalidCursor,
    /// HINCRBYFLOAT/INCRBYFLOAT on a value that is not a float.
    #[cfg(feature = "full")]
    HashValueNotFloat,
    /// An INCRBYFLOAT-family result (or increment) that is NaN or infinite.
    #[cfg(feature = "full")]
    NaNOrInfinity,
    /// A count outside `-LONG_MAX..=LONG_MAX` (HRANDFIELD, ZRANDMEMBER).
    #[cfg(feature = "full")]
    CountOutOfRange,
    /// A WITHVALUES/WITHSCORES count whose doubled reply would overflow.
    #[cfg(feature = "full")]
    ValueOutOfRange,
    /// ZMPOP/BZMPOP numkeys below 1 or not a number.
    #[cfg(feature = "full")]
    NumkeysNotPositive,
    /// ZMPOP/BZMPOP COUNT below 1 or not a number.
    #[cfg(feature = "full")]
    CountNotPositive,
    /// A blocking command's timeout that is not a number.
    #[cfg(feature = "full")]
    TimeoutNotFloat,
    /// A blocking command's timeout below zero.
    #[cfg(feature = "full")]
    TimeoutNegative,
    /// ZUNION/ZINTER/ZDIFF (and STORE forms) with numkeys below 1; carries the command.
    #[cfg(feature = "full")]
    AtLeastOneInputKey { command: &'static str },
    /// A WEIGHTS value that is not a float.
    #[cfg(feature = "full")]
    WeightNotFloat,
    /// ZINTERCARD LIMIT below 0 or not a number.
    #[cfg(feature = "full")]
    LimitNegative,
    /// EVAL_RO/EVALSHA_RO/FCALL_RO of a script declaring flags without `no-writes`.
    WriteFlagWithRoCommand,
    /// FUNCTION LOAD of code that does not start with `#!`.
    #[cfg(feature = "full")]
    MissingLibraryMetadata,
    /// FUNCTION LOAD of a `#!` line without a newline, or that does not split.
    #[cfg(feature = "full")]
    InvalidLibraryMetadata,
    /// FUNCTION LOAD with `name=` given twice.
    #[cfg(feature = "full")]
    LibraryNameRepeated,
    /// FUNCTION LOAD with a `#!` option other than `name=`.
    #[cfg(feature = "full")]
    InvalidMetadataValue { part: Vec<u8> },
    /// FUNCTION LOAD without `name=`.
    #[cfg(feature = "full")]
    LibraryNameMissing,
    /// A library (or function) name with other than letters, digits and `_`.
    #[cfg(feature = "full")]
    BadLibraryName,
    /// FUNCTION LOAD for an engine other than Lua.
    #[cfg(feature = "full")]
    EngineNotFound { engine: Vec<u8> },
    /// FUNCTION LOAD of a library that exists, without REPLACE.
    #[cfg(feature = "full")]
    LibraryExists { name: Vec<u8> },
    /// FUNCTION LOAD of a function another library registered.
    #[cfg(feature = "full")]
    FunctionExists { name: Vec<u8> },
    /// FUNCTION LOAD whose code did not compile or run; carries the engine's text.
    #[cfg(feature = "full")]
    LibraryLoad { message: String },
    /// FUNCTION LOAD with an option other than REPLACE.
    #[cfg(feature = "full")]
    UnknownFunctionLoadOption { option: Vec<u8> },
    /// FUNCTION DELETE of a library that does not exist.
    #[cfg(feature = "full")]
    LibraryNotFound,
    /// FUNCTION FLUSH with something other than SYNC or ASYNC.
    #[cfg(feature = "full")]
    FunctionFlushOption,
    /// FUNCTION LIST LIBRARYNAME without its pattern.
    #[cfg(feature = "full")]
    LibraryNameArgMissing,
    /// FUNCTION LIST with an argument it does not take.
    #[cfg(feature = "full")]
    UnknownArgument { arg: Vec<u8> },
    /// FCALL of a function no library registered.
    #[cfg(feature = "full")]
    FunctionNotFound,
    /// FCALL numkeys that is not an integer.
    #[cfg(feature = "full")]
    BadNumberOfKeys,
    /// A subcommand given more arguments than it takes (`FUNCTION FLUSH SYNC x`); carries
    /// the subcommand as typed.
    #[cfg(feature = "full")]
    SubcommandSyntax {
        container: &'static str,
        sub: Vec<u8>,
    },
    /// LSET past either end of the list.
    #[cfg(feature = "full")]
    IndexOutOfRange,
    /// LPOS RANK 0.
    #[cfg(feature = "full")]
    LposRankZero,
    /// LPOS COUNT below zero (or not a number).
    #[cfg(feature = "full")]
    LposCountNegative,
    /// LPOS MAXLEN below zero (or not a number).
    #[cfg(feature = "full")]
    LposMaxlenNegative,
    /// A blocking command from a plain client with timeout 0 and nothing to pop: in a
    /// single-connection store nothing could ever arrive, so it would wait forever.
    #[cfg(feature = "full")]
    WouldBlockForever { command: &'static str },
    /// A reply so large (SRANDMEMBER with a huge negative count) the store refuses to build it.
    #[cfg(feature = "full")]
    ReplyTooLarge,
}

/// Redis caps the echoed command name and arguments of an unknown command at 128 bytes.
pub(crate) const ECHO_LIMIT: usize = 128;

impl CommandError {
    /// The error text exactly as Redis 7.0 sends it (without the leading `-`).
    pub(crate) fn message(&self) -> String {
        match self.fixed_text() {
            Some(text) => text.to_string(),
            None => self.formatted_text(),
        }
    }

    /// The text of an error whose wording never changes; `None` for those that quote the
    /// command, an argument or another error.
    fn fixed_text(&self) -> Option<&'static str> {
        use CommandError::*;
        let text = match self {
            WrongType => "WRONGTYPE Operation against a key holding the wrong kind of value",
            Syntax => "ERR syntax error",
            NotInteger => "ERR value is not an integer or out of range",
            #[cfg(feature = "full")]
            NotPositive => "ERR value is out of range, must be positive",
            #[cfg(feature = "full")]
            IncrementOverflow => "ERR increment or decrement would overflow",
            #[cfg(feature = "full")]
            DecrementOverflow => "ERR decrement would overflow",
            #[cfg(feature = "full")]
            HashValueNotInteger => "ERR hash value is not an integer",
            #[cfg(feature = "full")]
            NotFloat => "ERR value is not a valid float",
            #[cfg(feature = "full")]
            MinMaxNotFloat => "ERR min or max is not a float",
            #[cfg(feature = "full")]
            MinMaxNotStringRange => "ERR min or max not valid string range item",
            #[cfg(feature = "full")]
            ExpireNxConflict => "ERR NX and XX, GT or LT options at the same time are not compatible",
            #[cfg(feature = "full")]
            ExpireGtLtConflict => "ERR GT and LT options at the same time are not compatible",
            #[cfg(feature = "full")]
            ZAddXxNxConflict => "ERR XX and NX options at the same time are not compatible",
            #[cfg(feature = "full")]
            ZAddGtLtNxConflict => "ERR GT, LT, and/or NX options at the same time are not compatible",
            #[cfg(feature = "full")]
            ZAddIncrSinglePair => "ERR INCR option supports a single increment-element pair",
            #[cfg(feature = "full")]
            ScoreIsNaN => "ERR resulting score is not a number (NaN)",
            #[cfg(feature = "full")]
            LimitNeedsByScoreOrByLex => "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX",
            #[cfg(feature = "full")]
            WithScoresWithByLex => "ERR syntax error, WITHSCORES not supported in combination with BYLEX",
            #[cfg(feature = "full")]
            TooManyKeys => "ERR Number of keys can't be greater than number of args",
            #[cfg(feature = "full")]
            NegativeKeyCount => "ERR Number of keys can't be negative",
            NoScript => "NOSCRIPT No matching script. Please use EVAL.",
            #[cfg(feature = "full")]
            ScriptFlushOption => "ERR SCRIPT FLUSH only support SYNC|ASYNC option",
            #[cfg(feature = "full")]
            NotBusy => "NOTBUSY No scripts in execution right now.",
            #[cfg(feature = "full")]
            SortNotDouble => "ERR One or more scores can't be converted into double",
            #[cfg(feature = "full")]
            NoSuchKey => "ERR no such key",
            #[cfg(feature = "full")]
            NoLfuPolicy => "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.",
            #[cfg(feature = "full")]
            IncrementNaNOrInfinity => "ERR increment would produce NaN or Infinity",
            #[cfg(feature = "full")]
            OffsetOutOfRange => "ERR offset is out of range",
            #[cfg(feature = "full")]
            StringTooLong => "ERR string exceeds maximum allowed size (proto-max-bulk-len)",
            #[cfg(feature = "full")]
            LcsNeedsStrings => "ERR The specified keys must contain string values",
            #[cfg(feature = "full")]
            LcsLenAndIdx => "ERR If you want both the length and indexes, please just use IDX.",
            #[cfg(feature = "full")]
            LcsTooLarge => "ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len",
            #[cfg(feature = "full")]
            NotInt32 => "ERR value is out of range, value must between -2147483648 and 2147483647",
            #[cfg(feature = "full")]
            DbIndexOutOfRange => "ERR DB index is out of range",
            #[cfg(feature = "full")]
            InvalidFirstDbIndex => "ERR invalid first DB index",
            #[cfg(feature = "full")]
            InvalidSecondDbIndex => "ERR invalid second DB index",
            #[cfg(feature = "full")]
            SameObject => "ERR source and destination objects are the same",
            #[cfg(feature = "full")]
            MultiNested => "ERR MULTI calls can not be nested",
            #[cfg(feature = "full")]
            ExecWithoutMulti => "ERR EXEC without MULTI",
            #[cfg(feature = "full")]
            DiscardWithoutMulti => "ERR DISCARD without MULTI",
            #[cfg(feature = "full")]
            WatchInsideMulti => "ERR WATCH inside MULTI is not allowed",
            #[cfg(feature = "full")]
            ExecAbort => "EXECABORT Transaction discarded because of previous errors.",
            NotAllowedFromScript => "ERR This Redis command is not allowed from script",
            UnknownFromScript => "ERR Unknown Redis command called from script",
            WrongArityFromScript => "ERR Wrong number of args calling Redis command from script",
            WriteFromReadOnlyScript => "ERR Write commands are not allowed from read-only scripts.",
            #[cfg(feature = "full")]
            InvalidCursor => "ERR invalid cursor",
            #[cfg(feature = "full")]
            HashValueNotFloat => "ERR hash value is not a float",
            #[cfg(feature = "full")]
            NaNOrInfinity => "ERR value is NaN or Infinity",
            #[cfg(feature = "full")]
            CountOutOfRange => "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807",
            #[cfg(feature = "full")]
            ValueOutOfRange => "ERR value is out of range",
            #[cfg(feature = "full")]
            NumkeysNotPositive => "ERR numkeys should be greater than 0",
            #[cfg(feature = "full")]
            CountNotPositive => "ERR count should be greater than 0",
            #[cfg(feature = "full")]
            TimeoutNotFloat => "ERR timeout is not a float or out of range",
            #[cfg(feature = "full")]
            TimeoutNegative => "ERR timeout is negative",
            #[cfg(feature = "full")]
            WeightNotFloat => "ERR weight value is not a float",
            #[cfg(feature = "full")]
            LimitNegative => "ERR LIMIT can't be negative",
            WriteFlagWithRoCommand => "ERR Can not execute a script with write flag using *_ro command.",
            #[cfg(feature = "full")]
            MissingLibraryMetadata => "ERR Missing library metadata",
            #[cfg(feature = "full")]
            InvalidLibraryMetadata => "ERR Invalid library metadata",
            #[cfg(feature = "full")]
            LibraryNameRepeated => "ERR Invalid metadata value, name argument was given multiple times",
            #[cfg(feature = "full")]
            LibraryNameMissing => "ERR Library name was not given",
            #[cfg(feature = "full")]
            BadLibraryName => "ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long",
            #[cfg(feature = "full")]
            LibraryNotFound => "ERR Library not found",
            #[cfg(feature = "full")]
            FunctionFlushOption => "ERR FUNCTION FLUSH only supports SYNC|ASYNC option",
            #[cfg(feature = "full")]
            LibraryNameArgMissing => "ERR library name argument was not given",
            #[cfg(feature = "full")]
            FunctionNotFound => "ERR Function not found",
            #[cfg(feature = "full")]
            BadNumberOfKeys => "ERR Bad number of keys provided",
            #[cfg(feature = "full")]
            IndexOutOfRange => "ERR index out of range",
            #[cfg(feature = "full")]
            LposRankZero => "ERR RANK can't be zero: use 1 to start from the first match, 2 from \
                             the second ... or use negative to start from the end of the list",
            #[cfg(feature = "full")]
            LposCountNegative => "ERR COUNT can't be negative",
            #[cfg(feature = "full")]
            LposMaxlenNegative => "ERR MAXLEN can't be negative",
            #[cfg(feature = "full")]
            ReplyTooLarge => "ERR reply too large for this store",
            UnknownCommand { .. }
            | WrongArity { .. }
            | InvalidExpireTime { .. } => return None,
            #[cfg(feature = "full")]
            UnknownSubcommand { .. }
            | UnknownDebugSubcommand { .. }
            | UnsupportedExpireOption { .. }
            | ExecAbortBecause { .. }
            | AtLeastOneInputKey { .. }
            | InvalidMetadataValue { .. }
            | EngineNotFound { .. }
            | LibraryExists { .. }
            | FunctionExists { .. }
            | LibraryLoad { .. }
            | UnknownFunctionLoadOption { .. }
            | UnknownArgument { .. }
            | SubcommandSyntax { .. }
            | WouldBlockForever { .. } => return None,
        };
        Some(text)
    }

    /// The text of an error that quotes the command, an argument or another error.
    fn formatted_text(&self) -> String {
        use CommandError::*;
        match self {
            UnknownCommand { name, args } => unknown_command_message(name, args),
            #[cfg(feature = "full")]
            UnknownSubcommand { container, sub } => format!(
                "ERR unknown subcommand '{}'. Try {container} HELP.",
                printable(c_string(sub), ECHO_LIMIT)
            ),
            #[cfg(feature = "full")]
            UnknownDebugSubcommand { sub } => format!(
                "ERR unknown subcommand or wrong number of arguments for '{}'. Try DEBUG HELP.",
                printable(c_string(sub), usize::MAX)
            ),
            WrongArity { command } => {
                format!("ERR wrong number of arguments for '{command}' command")
            }
            InvalidExpireTime { command } => {
                format!("ERR invalid expire time in '{command}' command")
            }
            #[cfg(feature = "full")]
            UnsupportedExpireOption { option } => {
                ending_with_argument("ERR Unsupported option ", option)
            }
            #[cfg(feature = "full")]
            ExecAbortBecause { reason } => {
                let text = reason.message();
                let text = text.strip_prefix("ERR ").unwrap_or(&text).to_string();
                format!("EXECABORT Transaction discarded because of: {text}")
            }
            #[cfg(feature = "full")]
            AtLeastOneInputKey { command } => {
                format!("ERR at least 1 input key is needed for '{command}' command")
            }
            #[cfg(feature = "full")]
            InvalidMetadataValue { part } => format!(
                "ERR Invalid metadata value given: {}",
                printable(c_string(part), usize::MAX)
            ),
            #[cfg(feature = "full")]
            EngineNotFound { engine } => format!(
                "ERR Engine '{}' not found",
                printable(engine, usize::MAX)
            ),
            #[cfg(feature = "full")]
            LibraryExists { name } => format!(
                "ERR Library '{}' already exists",
                printable(name, usize::MAX)
            ),
            #[cfg(feature = "full")]
            FunctionExists { name } => format!(
                "ERR Function {} already exists",
                printable(c_string(name), usize::MAX)
            ),
            #[cfg(feature = "full")]
            LibraryLoad { message } => format!("ERR {}", message.replace(['\r', '\n'], " ")),
            #[cfg(feature = "full")]
            UnknownFunctionLoadOption { option } => {
                ending_with_argument("ERR Unknown option given: ", option)
            }
            #[cfg(feature = "full")]
            UnknownArgument { arg } => format!(
                "ERR Unknown argument {}",
                printable(c_string(arg), usize::MAX)
            ),
            #[cfg(feature = "full")]
            SubcommandSyntax { container, sub } => format!(
                "ERR unknown subcommand or wrong number of arguments for '{}'. Try {container} HELP.",
                printable(c_string(sub), ECHO_LIMIT)
            ),
            #[cfg(feature = "full")]
            WouldBlockForever { command } => format!(
                "ERR {command} with timeout 0 would block forever: no other client can push here"
            ),
            _ => unreachable!("fixed_text covers every error without fields"),
        }
    }
}

impl From<CommandError> for Reply {
    fn from(error: CommandError) -> Reply {
        Reply::Error(error.message())
    }
}

/// How Redis's error for a command it does not know begins; [`Reply::is_unknown_command`]
/// reads it.
pub(crate) const UNKNOWN_COMMAND: &str = "ERR unknown command ";

/// `unknown command '%.128s', with args beginning with: ` then `'%.*s' ` per argument while
/// the list is shorter than 128 bytes, each argument cut to what is left of those 128.
fn unknown_command_message(name: &[u8], args: &[Vec<u8>]) -> String {
    let mut echoed: Vec<u8> = Vec::new();
    for arg in args {
        if echoed.len() >= ECHO_LIMIT {
            break;
        }
        let room = ECHO_LIMIT - echoed.len();
        let arg = c_string(arg);
        echoed.push(b'\'');
        echoed.extend_from_slice(&arg[..arg.len().min(room)]);
        echoed.extend_from_slice(b"' ");
    }
    format!(
        "{UNKNOWN_COMMAND}'{}', with args beginning with: {}",
        printable(c_string(name), ECHO_LIMIT),
        printable(&echoed, usize::MAX)
    )
}

/// An error Redis builds with `addReplyErrorFormat`, from its text as formatted: CR and LF at the
/// end trimmed, those left made spaces, so the reply stays one line (`sdstrim`, `sdsmapchars`).
/// Redis trims the start too, but its texts start with a code word or with the `-` a script's
/// error table is sent behind, so only the end is trimmed here.
pub(crate) fn error_line(formatted: &[u8]) -> String {
    let end = formatted
        .iter()
        .rposition(|b| !matches!(b, b'\r' | b'\n'))
        .map_or(0, |last| last + 1);
    String::from_utf8_lossy(&formatted[..end]).replace(['\r', '\n'], " ")
}

/// An error text `prefix` followed by an argument read as a C string, as `addReplyErrorFormat`
/// sends it ([`error_line`]).
fn ending_with_argument(prefix: &str, argument: &[u8]) -> String {
    let mut text = prefix.as_bytes().to_vec();
    text.extend_from_slice(c_string(argument));
    error_line(&text)
}

/// At most `limit` bytes as text; Redis maps CR and LF to spaces so the reply stays one line.
pub(crate) fn printable(bytes: &[u8], limit: usize) -> String {
    let cut = &bytes[..bytes.len().min(limit)];
    String::from_utf8_lossy(cut).replace(['\r', '\n'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_command_echoes_quoted_args_with_a_trailing_space() {
        let error = CommandError::UnknownCommand {
            name: b"foo".to_vec(),
            args: vec![b"a".to_vec(), b"b".to_vec()],
        };
        assert_eq!(
            error.message(),
            "ERR unknown command 'foo', with args beginning with: 'a' 'b' "
        );
    }

    #[test]
    fn unknown_command_echo_stops_at_128_bytes() {
        let error = CommandError::UnknownCommand {
            name: b"foo".to_vec(),
            args: vec![vec![b'a'; 111], vec![b'b'; 51], b"c".to_vec()],
        };
        let expected = format!(
            "ERR unknown command 'foo', with args beginning with: '{}' '{}' ",
            "a".repeat(111),
            "b".repeat(14)
        );
        assert_eq!(error.message(), expected);
    }

    #[test]
    fn newlines_in_echoed_words_become_spaces() {
        let error = CommandError::UnknownCommand {
            name: b"foo".to_vec(),
            args: vec![b"a\nb".to_vec()],
        };
        assert_eq!(
            error.message(),
            "ERR unknown command 'foo', with args beginning with: 'a b' "
        );
    }
}
