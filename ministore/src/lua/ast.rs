//! The syntax tree the parser builds and the interpreter walks: statements and expressions, each
//! carrying the source line that runtime errors report.

use std::sync::Arc;

/// A sequence of statements (a chunk, a function body, or the inside of a `do`/`if`/loop).
pub type Block = Vec<Stat>;

/// A function's parameters and body, shared (not cloned) by every closure made from it.
#[derive(Debug)]
pub struct FuncBody {
    pub params: Vec<Arc<str>>,
    pub body: Block,
}

/// A statement, with the line it starts on.
#[derive(Debug)]
pub struct Stat {
    pub line: u32,
    pub kind: StatKind,
}

/// The kinds of statement in the supported Lua subset.
#[derive(Debug)]
pub enum StatKind {
    /// `local a, b = e1, e2`
    Local(Vec<Arc<str>>, Vec<Expr>),
    /// `a, t.k, t[i] = e1, e2, e3`
    Assign(Vec<Expr>, Vec<Expr>),
    /// A function or method call used as a statement.
    Call(Expr),
    /// `if c then … elseif c then … else … end`
    If(Vec<(Expr, Block)>, Option<Block>),
    /// `while c do … end`
    While(Expr, Block),
    /// `repeat … until c`
    Repeat(Block, Expr),
    /// `for v = start, limit[, step] do … end`
    NumericFor(Arc<str>, Expr, Expr, Option<Expr>, Block),
    /// `for k, v in explist do … end`
    GenericFor(Vec<Arc<str>>, Vec<Expr>, Block),
    /// `do … end`
    Do(Block),
    /// `local function name(…) … end`
    LocalFunction(Arc<str>, Arc<FuncBody>),
    /// `function a.b.c(…) … end` / `function name(…) … end`: an assignment to `target`.
    Function(Expr, Arc<FuncBody>),
    /// `return e1, e2`
    Return(Vec<Expr>),
    /// `break`
    Break,
}

/// An expression, with the line runtime errors in it report.
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
    /// A variable reference, resolved at run time (local, captured, or global).
    Name(Arc<str>),
    /// `t[k]`; `t.k` is `t["k"]`.
    Index(Box<Expr>, Box<Expr>),
    /// `f(args)`
    Call(Box<Expr>, Vec<Expr>),
    /// `obj:name(args)`
    Method(Box<Expr>, Arc<str>, Vec<Expr>),
    /// `function (…) … end`
    Function(Arc<FuncBody>),
    /// `(e)`: truncates multiple results to one.
    Paren(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Unary(UnOp, Box<Expr>),
    /// `{ a, b, k = v, [e] = v }`
    Table(Vec<TableField>),
}

/// One field of a table constructor.
#[derive(Debug)]
pub enum TableField {
    /// A positional item (`a`), appended to the array part.
    Item(Expr),
    /// `name = e` or `[k] = e`.
    Keyed(Expr, Expr),
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
    /// True for expressions that can yield several values (calls) when last in a list.
    pub fn is_multi(&self) -> bool {
        matches!(self.kind, ExprKind::Call(..) | ExprKind::Method(..))
    }
}
