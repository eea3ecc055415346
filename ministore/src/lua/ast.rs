//! The syntax tree the parser builds and the interpreter walks: statements and expressions, each
//! carrying the source line that runtime errors report.

use std::sync::Arc;

/// A sequence of statements (a chunk, a function body, or the inside of a `do`/`if`/loop).
pub type Block = Vec<Stat>;

/// A function's parameters and body, shared (not cloned) by every closure made from it.
#[derive(Debug)]
pub struct FuncBody {
    pub params: Vec<Arc<str>>,
    /// Whether it takes extra arguments, and what Lua 5.1's `arg` local holds.
    pub vararg: Vararg,
    pub body: Block,
    /// The chunk the function was compiled from (`@user_script`, or a `loadstring` source).
    pub source: Arc<str>,
    /// Which function of its chunk it is: 0 for the chunk itself, then 1, 2, … in the order
    /// their `function` keywords come. With `source`, it names the function apart from where
    /// its syntax tree lies in memory.
    pub ordinal: u32,
}

/// How a function takes extra arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vararg {
    /// No `...` in its parameters.
    None,
    /// A chunk: `...` holds the arguments of the call, and there is no `arg`.
    Chunk,
    /// `function(...)` whose body uses `...`: Lua 5.1 still declares a local `arg`, left nil.
    Dots,
    /// `function(...)` whose body never uses `...`: the local `arg` is a table of the extra
    /// arguments with their count in `n` (Lua 5.1's compatibility vararg).
    Arg,
}

impl Vararg {
    /// True when the function takes extra arguments.
    pub fn any(self) -> bool {
        self != Vararg::None
    }
}

/// A statement, with the line it starts on.
#[derive(Debug)]
pub struct Stat {
    pub line: u32,
    pub kind: StatKind,
}

/// One `if`/`elseif` arm.
#[derive(Debug)]
pub struct CondBlock {
    pub cond: Expr,
    pub body: Block,
}

/// The kinds of statement in Lua 5.1.
#[derive(Debug)]
pub enum StatKind {
    /// `local a, b = e1, e2`
    Local {
        names: Vec<Arc<str>>,
        exprs: Vec<Expr>,
    },
    /// `a, t.k, t[i] = e1, e2, e3`
    Assign {
        targets: Vec<Expr>,
        exprs: Vec<Expr>,
    },
    /// A function or method call used as a statement.
    Call(Expr),
    /// `if c then … elseif c then … else … end`
    If {
        arms: Vec<CondBlock>,
        otherwise: Option<Block>,
    },
    /// `while c do … end`
    While { cond: Expr, body: Block },
    /// `repeat … until c`
    Repeat { body: Block, cond: Expr },
    /// `for v = start, limit[, step] do … end`
    NumericFor {
        var: Arc<str>,
        start: Expr,
        limit: Expr,
        step: Option<Expr>,
        body: Block,
        /// The line of `do`, where Lua 5.1 checks that the bounds are numbers.
        prep_line: u32,
    },
    /// `for k, v in explist do … end`
    GenericFor {
        names: Vec<Arc<str>>,
        exprs: Vec<Expr>,
        body: Block,
        /// Where Lua 5.1 places each call of the generator: the line its lexer stood on after
        /// `in` (the end of the token after it).
        call_line: u32,
    },
    /// `do … end`
    Do(Block),
    /// `local function name(…) … end`
    LocalFunction { name: Arc<str>, func: Arc<FuncBody> },
    /// `function a.b.c(…) … end` / `function name(…) … end`: an assignment to `target`.
    Function { target: Expr, func: Arc<FuncBody> },
    /// `return e1, e2`
    Return(Vec<Expr>),
    /// `break`
    Break,
}

/// An expression, with the line runtime errors in it report. For a name or an index, whose read
/// Lua 5.1 emits only once the value is needed, that is the line of the last token the parser
/// had read by then: the key's, or the operator, comma or bracket its use comes after (and for
/// an assignment's target, the last token of the values).
#[derive(Debug)]
pub struct Expr {
    pub line: u32,
    pub kind: ExprKind,
}

/// The kinds of expression.
#[derive(Debug)]
pub enum ExprKind {
    Nil,
    True,
    False,
    Number(f64),
    Str(Arc<[u8]>),
    /// `...` in a vararg function: all of its extra arguments.
    Vararg,
    /// A variable reference, resolved at run time (local, captured, or global).
    Name(Arc<str>),
    /// `t[k]`; `t.k` is `t["k"]`.
    Index {
        obj: Box<Expr>,
        key: Box<Expr>,
    },
    /// `f(args)`
    Call {
        func: Box<Expr>,
        args: Vec<Expr>,
    },
    /// `obj:name(args)`
    Method {
        obj: Box<Expr>,
        name: Arc<str>,
        args: Vec<Expr>,
        /// Where Lua 5.1 looks the method up (`OP_SELF`): once the name is read.
        name_line: u32,
    },
    /// `function (…) … end`
    Function(Arc<FuncBody>),
    /// `(e)`: truncates multiple results to one.
    Paren(Box<Expr>),
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Unary {
        op: UnOp,
        operand: Box<Expr>,
    },
    /// `{ a, b, k = v, [e] = v }`
    Table(Vec<TableField>),
}

/// One field of a table constructor.
#[derive(Debug)]
pub enum TableField {
    /// A positional item (`a`), appended to the array part.
    Item(Expr),
    /// `name = e` or `[k] = e`, stored on `line`, where the value ends (Lua 5.1's `OP_SETTABLE`
    /// follows the value).
    Keyed { key: Expr, value: Expr, line: u32 },
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    Concat,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    Len,
}

impl Expr {
    /// True for expressions that can yield several values (calls, `...`) when last in a list.
    pub fn is_multi(&self) -> bool {
        matches!(
            self.kind,
            ExprKind::Call { .. } | ExprKind::Method { .. } | ExprKind::Vararg
        )
    }
}
