//! Every error a command can reply, as one typed enum holding Redis 7.0's exact wording.
//! Commands return `Result<Reply, CommandError>`; the dispatcher turns the error into a
//! [`Reply::Error`] here, so no error text is spelled anywhere else.

use crate::reply::Reply;

/// An error reply of some command, named for what went wrong.
#[derive(Debug, PartialEq)]
pub(crate) enum CommandError {
    /// The command name is not one the store knows; carries the words as typed.
    UnknownCommand { name: Vec<u8>, args: Vec<Vec<u8>> },
    /// `SCRIPT <sub>` (or another container) with a subcommand it does not have.
    UnknownSubcommand {
        container: &'static str,
        sub: Vec<u8>,
    },
    /// DEBUG's own wording for a subcommand it lacks or one given the wrong arguments.
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
    NotPositive,
    /// INCR/INCRBY/HINCRBY whose result leaves the i64 range.
    IncrementOverflow,
    /// DECRBY of i64::MIN, whose negation does not exist.
    DecrementOverflow,
    /// HINCRBY on a field whose value is not an integer.
    HashValueNotInteger,
    /// A score argument that is not a float (or is NaN).
    NotFloat,
    /// ZRANGEBYSCORE bounds that are not floats.
    MinMaxNotFloat,
    /// ZRANGE BYLEX bounds without `[`, `(`, `-` or `+`.
    MinMaxNotStringRange,
    /// An expire time that is not positive or overflows; carries the command (`set`, `expire`).
    InvalidExpireTime { command: &'static str },
    /// EXPIRE with an option it does not know; carries the option as typed.
    UnsupportedExpireOption { option: Vec<u8> },
    /// EXPIRE NX together with XX, GT or LT.
    ExpireNxConflict,
    /// EXPIRE GT together with LT.
    ExpireGtLtConflict,
    /// ZADD XX together with NX.
    ZAddXxNxConflict,
    /// ZADD GT/LT/NX in an impossible combination.
    ZAddGtLtNxConflict,
    /// ZADD INCR with more than one score-member pair.
    ZAddIncrSinglePair,
    /// ZADD INCR whose result is NaN (`inf` + `-inf`).
    ScoreIsNaN,
    /// ZRANGE by rank with LIMIT.
    LimitNeedsByScoreOrByLex,
    /// ZRANGE BYLEX with WITHSCORES.
    WithScoresWithByLex,
    /// EVAL or SINTERCARD numkeys larger than the arguments that follow.
    TooManyKeys,
    /// EVAL numkeys below zero.
    NegativeKeyCount,
    /// EVALSHA of a script that is not in the cache.
    NoScript,
    /// SCRIPT FLUSH with something other than SYNC or ASYNC.
    ScriptFlushOption,
    /// SCRIPT KILL while no script runs (always, here: scripts run to completion).
    NotBusy,
    /// SORT by a value that does not read as a double.
    SortNotDouble,
    /// RENAME of a missing key.
    NoSuchKey,
    /// OBJECT FREQ without an LFU eviction policy (never one here).
    NoLfuPolicy,
    /// INCRBYFLOAT whose result (or increment) is infinite.
    IncrementNaNOrInfinity,
    /// SETRANGE with a negative offset.
    OffsetOutOfRange,
    /// APPEND or SETRANGE making a string longer than 512 MB.
    StringTooLong,
    /// LCS of a key that holds something other than a string.
    LcsNeedsStrings,
    /// LCS with both LEN and IDX.
    LcsLenAndIdx,
    /// LCS whose table would exceed 512 MB.
    LcsTooLarge,
    /// An argument read as a C `int` (SELECT's index) that is an integer beyond its range.
    NotInt32,
    /// SELECT, MOVE, SWAPDB or COPY … DB with an index outside 0..16.
    DbIndexOutOfRange,
    /// SWAPDB's first index is not an integer.
    InvalidFirstDbIndex,
    /// SWAPDB's second index is not an integer.
    InvalidSecondDbIndex,
    /// MOVE or COPY onto the key itself.
    SameObject,
    /// MULTI inside MULTI.
    MultiNested,
    /// EXEC outside MULTI.
    ExecWithoutMulti,
    /// DISCARD outside MULTI.
    DiscardWithoutMulti,
    /// WATCH inside MULTI.
    WatchInsideMulti,
    /// EXEC of a block in which a command was refused while queuing.
    ExecAbort,
    /// EXEC itself refused (wrong arity); carries the refusal.
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
    InvalidCursor,
    /// HINCRBYFLOAT/INCRBYFLOAT on a value that is not a float.
    HashValueNotFloat,
    /// An INCRBYFLOAT-family result (or increment) that is NaN or infinite.
    NaNOrInfinity,
    /// A count outside `-LONG_MAX..=LONG_MAX` (HRANDFIELD, ZRANDMEMBER).
    CountOutOfRange,
    /// A WITHVALUES/WITHSCORES count whose doubled reply would overflow.
    ValueOutOfRange,
    /// ZMPOP/BZMPOP numkeys below 1 or not a number.
    NumkeysNotPositive,
    /// ZMPOP/BZMPOP COUNT below 1 or not a number.
    CountNotPositive,
    /// A blocking command's timeout that is not a number.
    TimeoutNotFloat,
    /// A blocking command's timeout below zero.
    TimeoutNegative,
    /// ZUNION/ZINTER/ZDIFF (and STORE forms) with numkeys below 1; carries the command.
    AtLeastOneInputKey { command: &'static str },
    /// A WEIGHTS value that is not a float.
    WeightNotFloat,
    /// ZINTERCARD LIMIT below 0 or not a number.
    LimitNegative,
    /// EVAL_RO/EVALSHA_RO/FCALL_RO of a script declaring flags without `no-writes`.
    WriteFlagWithRoCommand,
    /// FUNCTION LOAD of code that does not start with `#!`.
    MissingLibraryMetadata,
    /// FUNCTION LOAD of a `#!` line without a newline, or that does not split.
    InvalidLibraryMetadata,
    /// FUNCTION LOAD with `name=` given twice.
    LibraryNameRepeated,
    /// FUNCTION LOAD with a `#!` option other than `name=`.
    InvalidMetadataValue { part: Vec<u8> },
    /// FUNCTION LOAD without `name=`.
    LibraryNameMissing,
    /// A library (or function) name with other than letters, digits and `_`.
    BadLibraryName,
    /// FUNCTION LOAD for an engine other than Lua.
    EngineNotFound { engine: Vec<u8> },
    /// FUNCTION LOAD of a library that exists, without REPLACE.
    LibraryExists { name: Vec<u8> },
    /// FUNCTION LOAD of a function another library registered.
    FunctionExists { name: Vec<u8> },
    /// FUNCTION LOAD whose code did not compile or run; carries the engine's text.
    LibraryLoad { message: String },
    /// FUNCTION LOAD with an option other than REPLACE.
    UnknownFunctionLoadOption { option: Vec<u8> },
    /// FUNCTION DELETE of a library that does not exist.
    LibraryNotFound,
    /// FUNCTION FLUSH with something other than SYNC or ASYNC.
    FunctionFlushOption,
    /// FUNCTION LIST LIBRARYNAME without its pattern.
    LibraryNameArgMissing,
    /// FUNCTION LIST with an argument it does not take.
    UnknownArgument { arg: Vec<u8> },
    /// FCALL of a function no library registered.
    FunctionNotFound,
    /// FCALL numkeys that is not an integer.
    BadNumberOfKeys,
    /// A subcommand given more arguments than it takes (`FUNCTION FLUSH SYNC x`); carries
    /// the subcommand as typed.
    SubcommandSyntax {
        container: &'static str,
        sub: Vec<u8>,
    },
    /// LSET past either end of the list.
    IndexOutOfRange,
    /// LPOS RANK 0.
    LposRankZero,
    /// LPOS COUNT below zero (or not a number).
    LposCountNegative,
    /// LPOS MAXLEN below zero (or not a number).
    LposMaxlenNegative,
    /// A blocking command from a plain client with timeout 0 and nothing to pop: in a
    /// single-connection store nothing could ever arrive, so it would wait forever.
    WouldBlockForever { command: &'static str },
    /// A reply so large (SRANDMEMBER with a huge negative count) the store refuses to build it.
    ReplyTooLarge,
}

/// Redis caps the echoed command name and arguments of an unknown command at 128 bytes.
const ECHO_LIMIT: usize = 128;

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
            NotPositive => "ERR value is out of range, must be positive",
            IncrementOverflow => "ERR increment or decrement would overflow",
            DecrementOverflow => "ERR decrement would overflow",
            HashValueNotInteger => "ERR hash value is not an integer",
            NotFloat => "ERR value is not a valid float",
            MinMaxNotFloat => "ERR min or max is not a float",
            MinMaxNotStringRange => "ERR min or max not valid string range item",
            ExpireNxConflict => "ERR NX and XX, GT or LT options at the same time are not compatible",
            ExpireGtLtConflict => "ERR GT and LT options at the same time are not compatible",
            ZAddXxNxConflict => "ERR XX and NX options at the same time are not compatible",
            ZAddGtLtNxConflict => "ERR GT, LT, and/or NX options at the same time are not compatible",
            ZAddIncrSinglePair => "ERR INCR option supports a single increment-element pair",
            ScoreIsNaN => "ERR resulting score is not a number (NaN)",
            LimitNeedsByScoreOrByLex => "ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX",
            WithScoresWithByLex => "ERR syntax error, WITHSCORES not supported in combination with BYLEX",
            TooManyKeys => "ERR Number of keys can't be greater than number of args",
            NegativeKeyCount => "ERR Number of keys can't be negative",
            NoScript => "NOSCRIPT No matching script. Please use EVAL.",
            ScriptFlushOption => "ERR SCRIPT FLUSH only support SYNC|ASYNC option",
            NotBusy => "NOTBUSY No scripts in execution right now.",
            SortNotDouble => "ERR One or more scores can't be converted into double",
            NoSuchKey => "ERR no such key",
            NoLfuPolicy => "ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.",
            IncrementNaNOrInfinity => "ERR increment would produce NaN or Infinity",
            OffsetOutOfRange => "ERR offset is out of range",
            StringTooLong => "ERR string exceeds maximum allowed size (proto-max-bulk-len)",
            LcsNeedsStrings => "ERR The specified keys must contain string values",
            LcsLenAndIdx => "ERR If you want both the length and indexes, please just use IDX.",
            LcsTooLarge => "ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len",
            NotInt32 => "ERR value is out of range, value must between -2147483648 and 2147483647",
            DbIndexOutOfRange => "ERR DB index is out of range",
            InvalidFirstDbIndex => "ERR invalid first DB index",
            InvalidSecondDbIndex => "ERR invalid second DB index",
            SameObject => "ERR source and destination objects are the same",
            MultiNested => "ERR MULTI calls can not be nested",
            ExecWithoutMulti => "ERR EXEC without MULTI",
            DiscardWithoutMulti => "ERR DISCARD without MULTI",
            WatchInsideMulti => "ERR WATCH inside MULTI is not allowed",
            ExecAbort => "EXECABORT Transaction discarded because of previous errors.",
            NotAllowedFromScript => "ERR This Redis command is not allowed from script",
            UnknownFromScript => "ERR Unknown Redis command called from script",
            WrongArityFromScript => "ERR Wrong number of args calling Redis command from script",
            WriteFromReadOnlyScript => "ERR Write commands are not allowed from read-only scripts.",
            InvalidCursor => "ERR invalid cursor",
            HashValueNotFloat => "ERR hash value is not a float",
            NaNOrInfinity => "ERR value is NaN or Infinity",
            CountOutOfRange => "ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807",
            ValueOutOfRange => "ERR value is out of range",
            NumkeysNotPositive => "ERR numkeys should be greater than 0",
            CountNotPositive => "ERR count should be greater than 0",
            TimeoutNotFloat => "ERR timeout is not a float or out of range",
            TimeoutNegative => "ERR timeout is negative",
            WeightNotFloat => "ERR weight value is not a float",
            LimitNegative => "ERR LIMIT can't be negative",
            WriteFlagWithRoCommand => "ERR Can not execute a script with write flag using *_ro command.",
            MissingLibraryMetadata => "ERR Missing library metadata",
            InvalidLibraryMetadata => "ERR Invalid library metadata",
            LibraryNameRepeated => "ERR Invalid metadata value, name argument was given multiple times",
            LibraryNameMissing => "ERR Library name was not given",
            BadLibraryName => "ERR Library names can only contain letters, numbers, or underscores(_) and must be at least one character long",
            LibraryNotFound => "ERR Library not found",
            FunctionFlushOption => "ERR FUNCTION FLUSH only supports SYNC|ASYNC option",
            LibraryNameArgMissing => "ERR library name argument was not given",
            FunctionNotFound => "ERR Function not found",
            BadNumberOfKeys => "ERR Bad number of keys provided",
            IndexOutOfRange => "ERR index out of range",
            LposRankZero => "ERR RANK can't be zero: use 1 to start from the first match, 2 from \
                             the second ... or use negative to start from the end of the list",
            LposCountNegative => "ERR COUNT can't be negative",
            LposMaxlenNegative => "ERR MAXLEN can't be negative",
            ReplyTooLarge => "ERR reply too large for this store",
            UnknownCommand { .. }
            | UnknownSubcommand { .. }
            | UnknownDebugSubcommand { .. }
            | WrongArity { .. }
            | InvalidExpireTime { .. }
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
            UnknownSubcommand { container, sub } => format!(
                "ERR unknown subcommand '{}'. Try {container} HELP.",
                printable(c_str(sub), ECHO_LIMIT)
            ),
            UnknownDebugSubcommand { sub } => format!(
                "ERR unknown subcommand or wrong number of arguments for '{}'. Try DEBUG HELP.",
                printable(c_str(sub), usize::MAX)
            ),
            WrongArity { command } => {
                format!("ERR wrong number of arguments for '{command}' command")
            }
            InvalidExpireTime { command } => {
                format!("ERR invalid expire time in '{command}' command")
            }
            UnsupportedExpireOption { option } => {
                format!("ERR Unsupported option {}", printable(c_str(option), usize::MAX))
            }
            ExecAbortBecause { reason } => {
                let text = reason.message();
                let text = text.strip_prefix("ERR ").unwrap_or(&text).to_string();
                format!("EXECABORT Transaction discarded because of: {text}")
            }
            AtLeastOneInputKey { command } => {
                format!("ERR at least 1 input key is needed for '{command}' command")
            }
            InvalidMetadataValue { part } => format!(
                "ERR Invalid metadata value given: {}",
                printable(c_str(part), usize::MAX)
            ),
            EngineNotFound { engine } => format!(
                "ERR Engine '{}' not found",
                printable(engine, usize::MAX)
            ),
            LibraryExists { name } => format!(
                "ERR Library '{}' already exists",
                printable(name, usize::MAX)
            ),
            FunctionExists { name } => format!(
                "ERR Function {} already exists",
                printable(c_str(name), usize::MAX)
            ),
            LibraryLoad { message } => format!("ERR {}", message.replace(['\r', '\n'], " ")),
            UnknownFunctionLoadOption { option } => format!(
                "ERR Unknown option given: {}",
                printable(c_str(option), usize::MAX)
            ),
            UnknownArgument { arg } => format!(
                "ERR Unknown argument {}",
                printable(c_str(arg), usize::MAX)
            ),
            SubcommandSyntax { container, sub } => format!(
                "ERR unknown subcommand or wrong number of arguments for '{}'. Try {container} HELP.",
                printable(c_str(sub), ECHO_LIMIT)
            ),
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

/// `unknown command '%.128s', with args beginning with: ` then `'%.*s' ` per argument while
/// the list is shorter than 128 bytes, each argument cut to what is left of those 128.
fn unknown_command_message(name: &[u8], args: &[Vec<u8>]) -> String {
    let mut echoed: Vec<u8> = Vec::new();
    for arg in args {
        if echoed.len() >= ECHO_LIMIT {
            break;
        }
        let room = ECHO_LIMIT - echoed.len();
        let arg = c_str(arg);
        echoed.push(b'\'');
        echoed.extend_from_slice(&arg[..arg.len().min(room)]);
        echoed.extend_from_slice(b"' ");
    }
    format!(
        "ERR unknown command '{}', with args beginning with: {}",
        printable(c_str(name), ECHO_LIMIT),
        printable(&echoed, usize::MAX)
    )
}

/// The bytes up to the first NUL, as C's `%s` would print them.
fn c_str(bytes: &[u8]) -> &[u8] {
    match bytes.iter().position(|&b| b == 0) {
        Some(end) => &bytes[..end],
        None => bytes,
    }
}

/// At most `limit` bytes as text; Redis maps CR and LF to spaces so the reply stays one line.
fn printable(bytes: &[u8], limit: usize) -> String {
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
