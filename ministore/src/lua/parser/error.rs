//! Syntax errors as data: a kind, a line and the token they are near, displayed in Lua 5.1's
//! words without the chunk prefix (`'end' expected (to close 'if' at line 1) near '<eof>'`).

use super::{MAX_LOCALS, MAX_UPVALUES};
use crate::lua::lexer::{LexError, LexErrorKind};

/// What kind of syntax error the parser found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The lexer refused the input.
    Lex(LexErrorKind),
    /// `'then' expected`
    Expected(&'static str),
    /// `'end' expected (to close 'if' at line 3)`
    Unclosed {
        what: &'static str,
        who: &'static str,
        line: u32,
    },
    UnexpectedSymbol,
    /// A parameter list holding something other than a name or `...`.
    ParameterExpected,
    NoLoopToBreak,
    EqualsOrIn,
    Syntax,
    FunctionArguments,
    /// A call's `(` on a line after its function: Lua 5.1 cannot tell a call from a new statement.
    AmbiguousSyntax,
    /// `...` used in a function not declared with it.
    VarargOutsideVarargFunction,
    /// Nesting past `MAX_SYNTAX_DEPTH`.
    TooManySyntaxLevels,
    /// A compile-time limit gone over in one function: the main chunk (`None`) or the function
    /// Lua says is defined at that line.
    TooMany {
        what: LimitKind,
        function_line: Option<u32>,
    },
}

/// Lua 5.1's limits on one function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitKind {
    /// `MAX_LOCALS` locals in scope at once.
    Locals,
    /// `MAX_UPVALUES` locals of enclosing functions used.
    Upvalues,
    /// Targets of one assignment: `LUAI_MAXCCALLS` less the syntax levels it is nested in.
    AssignmentTargets(u32),
}

impl LimitKind {
    fn limit(self) -> u32 {
        match self {
            LimitKind::Locals => MAX_LOCALS,
            LimitKind::Upvalues => MAX_UPVALUES,
            LimitKind::AssignmentTargets(limit) => limit,
        }
    }

    fn what(self) -> &'static str {
        match self {
            LimitKind::Locals => "local variables",
            LimitKind::Upvalues => "upvalues",
            LimitKind::AssignmentTargets(_) => "variables in assignment",
        }
    }
}

/// A syntax error: its kind, its line and the token it is near (none for the limits).
/// It displays as Lua 5.1 words it, without the chunk prefix.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub kind: ParseErrorKind,
    pub line: u32,
    pub near: Option<String>,
}

impl From<LexError> for ParseError {
    fn from(e: LexError) -> Self {
        ParseError {
            kind: ParseErrorKind::Lex(e.kind),
            line: e.line,
            near: Some(e.near),
        }
    }
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.kind {
            ParseErrorKind::Lex(k) => f.write_str(k.text())?,
            ParseErrorKind::Expected(what) => write!(f, "'{}' expected", what)?,
            ParseErrorKind::Unclosed { what, who, line } => write!(
                f,
                "'{}' expected (to close '{}' at line {})",
                what, who, line
            )?,
            ParseErrorKind::UnexpectedSymbol => f.write_str("unexpected symbol")?,
            ParseErrorKind::ParameterExpected => f.write_str("<name> or '...' expected")?,
            ParseErrorKind::NoLoopToBreak => f.write_str("no loop to break")?,
            ParseErrorKind::EqualsOrIn => f.write_str("'=' or 'in' expected")?,
            ParseErrorKind::Syntax => f.write_str("syntax error")?,
            ParseErrorKind::FunctionArguments => f.write_str("function arguments expected")?,
            ParseErrorKind::AmbiguousSyntax => {
                f.write_str("ambiguous syntax (function call x new statement)")?
            }
            ParseErrorKind::VarargOutsideVarargFunction => {
                f.write_str("cannot use '...' outside a vararg function")?
            }
            ParseErrorKind::TooManySyntaxLevels => {
                f.write_str("chunk has too many syntax levels")?
            }
            ParseErrorKind::TooMany {
                what,
                function_line,
            } => {
                match function_line {
                    None => f.write_str("main function")?,
                    Some(line) => write!(f, "function at line {line}")?,
                }
                write!(f, " has more than {} {}", what.limit(), what.what())?
            }
        }
        match &self.near {
            Some(near) => write!(f, " near '{}'", near),
            None => Ok(()),
        }
    }
}
