//! The parser: a recursive-descent parser from tokens to the [`ast`](super::ast), with Lua 5.1's
//! operator precedence, a nesting limit, and Lua 5.1's syntax error messages.

use std::sync::Arc;

use super::ast::{
    BinOp, Block, CondBlock, Expr, ExprKind, FuncBody, Stat, StatKind, TableField, UnOp, Vararg,
};
use super::lexer::{tok_name, tokenize, LexError, LexErrorKind, Tok, Token};

/// How deeply expressions and blocks may nest (Lua 5.1's LUAI_MAXCCALLS).
pub const MAX_SYNTAX_DEPTH: u32 = 200;

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
    NoLoopToBreak,
    EqualsOrIn,
    Syntax,
    FunctionArguments,
    /// `...` used in a function not declared with it.
    VarargOutsideVarargFunction,
    /// Nesting past [`MAX_SYNTAX_DEPTH`].
    TooManySyntaxLevels,
}

/// A syntax error: its kind, its line and the token it is near (none for the nesting limit).
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
            ParseErrorKind::NoLoopToBreak => f.write_str("no loop to break")?,
            ParseErrorKind::EqualsOrIn => f.write_str("'=' or 'in' expected")?,
            ParseErrorKind::Syntax => f.write_str("syntax error")?,
            ParseErrorKind::FunctionArguments => f.write_str("function arguments expected")?,
            ParseErrorKind::VarargOutsideVarargFunction => {
                f.write_str("cannot use '...' outside a vararg function")?
            }
            ParseErrorKind::TooManySyntaxLevels => {
                f.write_str("chunk has too many syntax levels")?
            }
        }
        match &self.near {
            Some(near) => write!(f, " near '{}'", near),
            None => Ok(()),
        }
    }
}

/// Parses a whole chunk (a vararg function of no parameters) compiled from `source`, the
/// chunk name errors and positions report (`@user_script` for a script).
pub fn parse_chunk(src: &[u8], source: &str) -> Result<Arc<FuncBody>, ParseError> {
    let tokens = tokenize(src)?;
    let mut p = Parser {
        tokens,
        pos: 0,
        depth: 0,
        loops: 0,
        vararg: true,
        used_vararg: false,
        source: Arc::from(source),
    };
    // Inside the parser errors are boxed: the recursion carries a `Result` in every frame.
    let block = p.block().map_err(|e| *e)?;
    if p.peek() != &Tok::Eof {
        return Err(*p.expected(&Tok::Eof));
    }
    Ok(Arc::new(FuncBody {
        params: Vec::new(),
        vararg: Vararg::Chunk,
        body: block,
        source: p.source,
    }))
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    depth: u32,
    loops: u32,
    /// The function being parsed was declared with `...`.
    vararg: bool,
    /// Its body uses `...`.
    used_vararg: bool,
    source: Arc<str>,
}

fn unary_op(t: &Tok) -> Option<UnOp> {
    match t {
        Tok::Minus => Some(UnOp::Neg),
        Tok::Not => Some(UnOp::Not),
        Tok::Hash => Some(UnOp::Len),
        _ => None,
    }
}

/// Binary operator and its (left, right) priorities, as in Lua 5.1's lparser.c.
fn binary_op(t: &Tok) -> Option<(BinOp, u8, u8)> {
    Some(match t {
        Tok::Or => (BinOp::Or, 1, 1),
        Tok::And => (BinOp::And, 2, 2),
        Tok::Lt => (BinOp::Lt, 3, 3),
        Tok::Gt => (BinOp::Gt, 3, 3),
        Tok::LtEq => (BinOp::Le, 3, 3),
        Tok::GtEq => (BinOp::Ge, 3, 3),
        Tok::NotEq => (BinOp::Ne, 3, 3),
        Tok::EqEq => (BinOp::Eq, 3, 3),
        Tok::DotDot => (BinOp::Concat, 5, 4),
        Tok::Plus => (BinOp::Add, 6, 6),
        Tok::Minus => (BinOp::Sub, 6, 6),
        Tok::Star => (BinOp::Mul, 7, 7),
        Tok::Slash => (BinOp::Div, 7, 7),
        Tok::Percent => (BinOp::Mod, 7, 7),
        Tok::Caret => (BinOp::Pow, 10, 9),
        _ => return None,
    })
}

const UNARY_PRIORITY: u8 = 8;

impl Parser {
    fn peek(&self) -> &Tok {
        &self.tokens[self.pos.min(self.tokens.len() - 1)].tok
    }

    fn current(&self) -> &Token {
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn line(&self) -> u32 {
        self.current().line
    }

    fn advance(&mut self) -> Token {
        let t = self.current().clone();
        if self.pos < self.tokens.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn error(&self, kind: ParseErrorKind) -> Box<ParseError> {
        let t = self.current();
        Box::new(ParseError {
            kind,
            line: t.line,
            near: Some(t.text.clone()),
        })
    }

    fn expected(&self, what: &Tok) -> Box<ParseError> {
        self.error(ParseErrorKind::Expected(tok_name(what)))
    }

    fn test_next(&mut self, t: &Tok) -> bool {
        if self.peek() == t {
            self.advance();
            true
        } else {
            false
        }
    }

    fn check_next(&mut self, t: &Tok) -> Result<(), Box<ParseError>> {
        if self.test_next(t) {
            Ok(())
        } else {
            Err(self.expected(t))
        }
    }

    /// Expects the token closing `who` opened at line `where_`, worded like Lua's check_match.
    fn check_match(&mut self, what: &Tok, who: &Tok, where_: u32) -> Result<(), Box<ParseError>> {
        if self.test_next(what) {
            return Ok(());
        }
        if where_ == self.line() {
            Err(self.expected(what))
        } else {
            Err(self.error(ParseErrorKind::Unclosed {
                what: tok_name(what),
                who: tok_name(who),
                line: where_,
            }))
        }
    }

    fn name(&mut self) -> Result<Arc<str>, Box<ParseError>> {
        if let Tok::Name(n) = self.peek() {
            let n = n.clone();
            self.advance();
            Ok(n)
        } else {
            Err(self.expected(&Tok::Name(Arc::from(""))))
        }
    }

    fn enter(&mut self) -> Result<(), Box<ParseError>> {
        self.depth += 1;
        if self.depth > MAX_SYNTAX_DEPTH {
            return Err(Box::new(ParseError {
                kind: ParseErrorKind::TooManySyntaxLevels,
                line: self.line(),
                near: None,
            }));
        }
        Ok(())
    }

    fn check_chain(&self, chain: u32) -> Result<(), Box<ParseError>> {
        if self.depth + chain > MAX_SYNTAX_DEPTH {
            return Err(Box::new(ParseError {
                kind: ParseErrorKind::TooManySyntaxLevels,
                line: self.line(),
                near: None,
            }));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn block_follow(&self) -> bool {
        matches!(
            self.peek(),
            Tok::Else | Tok::Elseif | Tok::End | Tok::Until | Tok::Eof
        )
    }

    fn block(&mut self) -> Result<Block, Box<ParseError>> {
        self.enter()?;
        let mut stats = Vec::new();
        while !self.block_follow() {
            let is_last = matches!(self.peek(), Tok::Return | Tok::Break);
            stats.push(self.statement()?);
            self.test_next(&Tok::Semi);
            if is_last {
                break;
            }
        }
        self.leave();
        Ok(stats)
    }

    // Statement kinds are parsed in their own non-inlined functions so that the recursion
    // block → statement → if/while/… → block keeps small frames (a deep nest must reach the
    // syntax-level limit long before the native stack's end, even unoptimised).
    fn statement(&mut self) -> Result<Stat, Box<ParseError>> {
        let line = self.line();
        let kind = match self.peek() {
            Tok::If => self.if_stat(line)?,
            Tok::While | Tok::Do | Tok::Repeat => self.loop_stat(line)?,
            Tok::For => self.for_stat(line)?,
            Tok::Function => self.function_stat(line)?,
            Tok::Local => self.local_stat(line)?,
            Tok::Return => self.return_stat()?,
            Tok::Break => {
                self.advance();
                if self.loops == 0 {
                    return Err(self.error(ParseErrorKind::NoLoopToBreak));
                }
                StatKind::Break
            }
            _ => self.expr_stat()?,
        };
        Ok(Stat { line, kind })
    }

    #[inline(never)]
    fn loop_stat(&mut self, line: u32) -> Result<StatKind, Box<ParseError>> {
        match self.advance().tok {
            Tok::While => {
                let cond = self.expr()?;
                self.check_next(&Tok::Do)?;
                let body = self.loop_block()?;
                self.check_match(&Tok::End, &Tok::While, line)?;
                Ok(StatKind::While { cond, body })
            }
            Tok::Do => {
                let body = self.block()?;
                self.check_match(&Tok::End, &Tok::Do, line)?;
                Ok(StatKind::Do(body))
            }
            _ => {
                let body = self.loop_block()?;
                self.check_match(&Tok::Until, &Tok::Repeat, line)?;
                let cond = self.expr()?;
                Ok(StatKind::Repeat { body, cond })
            }
        }
    }

    #[inline(never)]
    fn function_stat(&mut self, line: u32) -> Result<StatKind, Box<ParseError>> {
        self.advance();
        let mut target = Expr {
            line,
            kind: ExprKind::Name(self.name()?),
        };
        let mut is_method = false;
        while matches!(self.peek(), Tok::Dot | Tok::Colon) && !is_method {
            is_method = self.peek() == &Tok::Colon;
            self.advance();
            let key_line = self.line();
            let key = self.name()?;
            target = Expr {
                line: key_line,
                kind: ExprKind::Index {
                    obj: Box::new(target),
                    key: Box::new(Expr {
                        line: key_line,
                        kind: ExprKind::Str(Arc::from(key.as_bytes())),
                    }),
                },
            };
        }
        let func = self.func_body(is_method, line)?;
        Ok(StatKind::Function { target, func })
    }

    #[inline(never)]
    fn local_stat(&mut self, line: u32) -> Result<StatKind, Box<ParseError>> {
        self.advance();
        if self.test_next(&Tok::Function) {
            let name = self.name()?;
            let func = self.func_body(false, line)?;
            return Ok(StatKind::LocalFunction { name, func });
        }
        let mut names = vec![self.name()?];
        while self.test_next(&Tok::Comma) {
            names.push(self.name()?);
        }
        let exprs = if self.test_next(&Tok::Assign) {
            self.expr_list()?
        } else {
            Vec::new()
        };
        Ok(StatKind::Local { names, exprs })
    }

    #[inline(never)]
    fn return_stat(&mut self) -> Result<StatKind, Box<ParseError>> {
        self.advance();
        let exprs = if self.block_follow() || self.peek() == &Tok::Semi {
            Vec::new()
        } else {
            self.expr_list()?
        };
        Ok(StatKind::Return(exprs))
    }

    fn loop_block(&mut self) -> Result<Block, Box<ParseError>> {
        self.loops += 1;
        let b = self.block();
        self.loops -= 1;
        b
    }

    #[inline(never)]
    fn if_stat(&mut self, line: u32) -> Result<StatKind, Box<ParseError>> {
        let mut arms = Vec::new();
        self.advance();
        let cond = self.expr()?;
        self.check_next(&Tok::Then)?;
        arms.push(CondBlock {
            cond,
            body: self.block()?,
        });
        let mut otherwise = None;
        loop {
            match self.peek() {
                Tok::Elseif => {
                    self.advance();
                    let cond = self.expr()?;
                    self.check_next(&Tok::Then)?;
                    arms.push(CondBlock {
                        cond,
                        body: self.block()?,
                    });
                }
                Tok::Else => {
                    self.advance();
                    otherwise = Some(self.block()?);
                    break;
                }
                _ => break,
            }
        }
        self.check_match(&Tok::End, &Tok::If, line)?;
        Ok(StatKind::If { arms, otherwise })
    }

    #[inline(never)]
    fn for_stat(&mut self, line: u32) -> Result<StatKind, Box<ParseError>> {
        self.advance();
        let first = self.name()?;
        match self.peek() {
            Tok::Assign => {
                self.advance();
                let start = self.expr()?;
                self.check_next(&Tok::Comma)?;
                let limit = self.expr()?;
                let step = if self.test_next(&Tok::Comma) {
                    Some(self.expr()?)
                } else {
                    None
                };
                self.check_next(&Tok::Do)?;
                let body = self.loop_block()?;
                self.check_match(&Tok::End, &Tok::For, line)?;
                Ok(StatKind::NumericFor {
                    var: first,
                    start,
                    limit,
                    step,
                    body,
                })
            }
            Tok::Comma | Tok::In => {
                let mut names = vec![first];
                while self.test_next(&Tok::Comma) {
                    names.push(self.name()?);
                }
                self.check_next(&Tok::In)?;
                let exprs = self.expr_list()?;
                self.check_next(&Tok::Do)?;
                let body = self.loop_block()?;
                self.check_match(&Tok::End, &Tok::For, line)?;
                Ok(StatKind::GenericFor { names, exprs, body })
            }
            _ => Err(self.error(ParseErrorKind::EqualsOrIn)),
        }
    }

    fn func_body(&mut self, is_method: bool, line: u32) -> Result<Arc<FuncBody>, Box<ParseError>> {
        let mut params: Vec<Arc<str>> = Vec::new();
        if is_method {
            params.push(Arc::from("self"));
        }
        self.check_next(&Tok::LParen)?;
        let mut is_vararg = false;
        if self.peek() != &Tok::RParen {
            loop {
                if self.test_next(&Tok::Ellipsis) {
                    is_vararg = true;
                    break;
                }
                params.push(self.name()?);
                if !self.test_next(&Tok::Comma) {
                    break;
                }
            }
        }
        self.check_next(&Tok::RParen)?;
        let saved_loops = std::mem::replace(&mut self.loops, 0);
        let saved_vararg = std::mem::replace(&mut self.vararg, is_vararg);
        let saved_used = std::mem::replace(&mut self.used_vararg, false);
        let body = self.block();
        let used_vararg = std::mem::replace(&mut self.used_vararg, saved_used);
        self.vararg = saved_vararg;
        self.loops = saved_loops;
        let body = body?;
        self.check_match(&Tok::End, &Tok::Function, line)?;
        let vararg = match (is_vararg, used_vararg) {
            (false, _) => Vararg::None,
            (true, true) => Vararg::Dots,
            (true, false) => Vararg::Arg,
        };
        Ok(Arc::new(FuncBody {
            params,
            vararg,
            body,
            source: self.source.clone(),
        }))
    }

    #[inline(never)]
    fn expr_stat(&mut self) -> Result<StatKind, Box<ParseError>> {
        let first = self.suffixed_expr()?;
        if matches!(self.peek(), Tok::Assign | Tok::Comma) {
            let mut targets = vec![first];
            while self.test_next(&Tok::Comma) {
                targets.push(self.suffixed_expr()?);
            }
            for t in &targets {
                if !matches!(t.kind, ExprKind::Name(_) | ExprKind::Index { .. }) {
                    return Err(self.error(ParseErrorKind::Syntax));
                }
            }
            self.check_next(&Tok::Assign)?;
            let values = self.expr_list()?;
            Ok(StatKind::Assign {
                targets,
                exprs: values,
            })
        } else if first.is_multi() {
            Ok(StatKind::Call(first))
        } else if matches!(first.kind, ExprKind::Name(_) | ExprKind::Index { .. }) {
            Err(self.expected(&Tok::Assign))
        } else {
            Err(self.error(ParseErrorKind::Syntax))
        }
    }

    fn expr_list(&mut self) -> Result<Vec<Expr>, Box<ParseError>> {
        let mut v = vec![self.expr()?];
        while self.test_next(&Tok::Comma) {
            v.push(self.expr()?);
        }
        Ok(v)
    }

    fn expr(&mut self) -> Result<Expr, Box<ParseError>> {
        self.sub_expr(0)
    }

    fn sub_expr(&mut self, limit: u8) -> Result<Expr, Box<ParseError>> {
        self.enter()?;
        let mut left = if let Some(op) = unary_op(self.peek()) {
            let line = self.line();
            self.advance();
            let operand = self.sub_expr(UNARY_PRIORITY)?;
            Expr {
                line,
                kind: ExprKind::Unary {
                    op,
                    operand: Box::new(operand),
                },
            }
        } else {
            self.simple_expr()?
        };
        let mut chain = 0;
        while let Some((op, lp, rp)) = binary_op(self.peek()) {
            if lp <= limit {
                break;
            }
            // A long operator chain nests the tree as deeply as parentheses would.
            chain += 1;
            self.check_chain(chain)?;
            let line = self.line();
            self.advance();
            let right = self.sub_expr(rp)?;
            left = Expr {
                line,
                kind: ExprKind::Binary {
                    op,
                    lhs: Box::new(left),
                    rhs: Box::new(right),
                },
            };
        }
        self.leave();
        Ok(left)
    }

    fn simple_expr(&mut self) -> Result<Expr, Box<ParseError>> {
        let line = self.line();
        let kind = match self.peek().clone() {
            Tok::Number(n) => ExprKind::Number(n),
            Tok::Str(s) => ExprKind::Str(s),
            Tok::Nil => ExprKind::Nil,
            Tok::True => ExprKind::True,
            Tok::False => ExprKind::False,
            Tok::Ellipsis => {
                if !self.vararg {
                    return Err(self.error(ParseErrorKind::VarargOutsideVarargFunction));
                }
                self.used_vararg = true;
                ExprKind::Vararg
            }
            Tok::LBrace => return self.table_constructor(),
            Tok::Function => {
                self.advance();
                return Ok(Expr {
                    line,
                    kind: ExprKind::Function(self.func_body(false, line)?),
                });
            }
            _ => return self.suffixed_expr(),
        };
        self.advance();
        Ok(Expr { line, kind })
    }

    fn primary_expr(&mut self) -> Result<Expr, Box<ParseError>> {
        let line = self.line();
        match self.peek().clone() {
            Tok::Name(n) => {
                self.advance();
                Ok(Expr {
                    line,
                    kind: ExprKind::Name(n),
                })
            }
            Tok::LParen => {
                self.advance();
                let inner = self.expr()?;
                self.check_match(&Tok::RParen, &Tok::LParen, line)?;
                Ok(Expr {
                    line,
                    kind: ExprKind::Paren(Box::new(inner)),
                })
            }
            _ => Err(self.error(ParseErrorKind::UnexpectedSymbol)),
        }
    }

    fn suffixed_expr(&mut self) -> Result<Expr, Box<ParseError>> {
        let mut e = self.primary_expr()?;
        let mut chain = 0;
        loop {
            chain += 1;
            self.check_chain(chain)?;
            let line = self.line();
            match self.peek() {
                Tok::Dot => {
                    self.advance();
                    let key = self.name()?;
                    let key = Expr {
                        line,
                        kind: ExprKind::Str(Arc::from(key.as_bytes())),
                    };
                    e = Expr {
                        line,
                        kind: ExprKind::Index {
                            obj: Box::new(e),
                            key: Box::new(key),
                        },
                    };
                }
                Tok::LBracket => {
                    self.advance();
                    let key = self.expr()?;
                    self.check_next(&Tok::RBracket)?;
                    e = Expr {
                        line,
                        kind: ExprKind::Index {
                            obj: Box::new(e),
                            key: Box::new(key),
                        },
                    };
                }
                Tok::Colon => {
                    self.advance();
                    let name = self.name()?;
                    let (args, line) = self.call_args()?;
                    e = Expr {
                        line,
                        kind: ExprKind::Method {
                            obj: Box::new(e),
                            name,
                            args,
                        },
                    };
                }
                Tok::LParen | Tok::Str(_) | Tok::LBrace => {
                    let (args, line) = self.call_args()?;
                    e = Expr {
                        line,
                        kind: ExprKind::Call {
                            func: Box::new(e),
                            args,
                        },
                    };
                }
                _ => return Ok(e),
            }
        }
    }

    fn call_args(&mut self) -> Result<(Vec<Expr>, u32), Box<ParseError>> {
        let line = self.line();
        match self.peek().clone() {
            Tok::Str(s) => {
                self.advance();
                Ok((
                    vec![Expr {
                        line,
                        kind: ExprKind::Str(s),
                    }],
                    line,
                ))
            }
            Tok::LBrace => Ok((vec![self.table_constructor()?], line)),
            Tok::LParen => {
                self.advance();
                let args = if self.peek() == &Tok::RParen {
                    Vec::new()
                } else {
                    self.expr_list()?
                };
                self.check_match(&Tok::RParen, &Tok::LParen, line)?;
                Ok((args, line))
            }
            _ => Err(self.error(ParseErrorKind::FunctionArguments)),
        }
    }

    fn table_constructor(&mut self) -> Result<Expr, Box<ParseError>> {
        let line = self.line();
        self.check_next(&Tok::LBrace)?;
        let mut fields = Vec::new();
        loop {
            if self.peek() == &Tok::RBrace {
                break;
            }
            match self.peek().clone() {
                Tok::Name(n)
                    if self.tokens.get(self.pos + 1).map(|t| &t.tok) == Some(&Tok::Assign) =>
                {
                    let kline = self.line();
                    self.advance();
                    self.advance();
                    let value = self.expr()?;
                    let key = Expr {
                        line: kline,
                        kind: ExprKind::Str(Arc::from(n.as_bytes())),
                    };
                    fields.push(TableField::Keyed { key, value });
                }
                Tok::LBracket => {
                    self.advance();
                    let key = self.expr()?;
                    self.check_next(&Tok::RBracket)?;
                    self.check_next(&Tok::Assign)?;
                    let value = self.expr()?;
                    fields.push(TableField::Keyed { key, value });
                }
                _ => fields.push(TableField::Item(self.expr()?)),
            }
            if !self.test_next(&Tok::Comma) && !self.test_next(&Tok::Semi) {
                break;
            }
        }
        self.check_match(&Tok::RBrace, &Tok::LBrace, line)?;
        Ok(Expr {
            line,
            kind: ExprKind::Table(fields),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &[u8]) -> Result<Block, ParseError> {
        parse_chunk(src, "@t").map(|f| match Arc::try_unwrap(f) {
            Ok(f) => f.body,
            Err(_) => unreachable!("a fresh chunk has one owner"),
        })
    }

    fn err(src: &str) -> String {
        let e = parse(src.as_bytes()).unwrap_err();
        format!("{}: {}", e.line, e)
    }

    #[test]
    fn precedence_follows_lua() {
        let b = parse(b"return 1 + 2 * 3 ^ 2 ^ 2 .. 'x' .. 'y'").unwrap();
        let StatKind::Return(exprs) = &b[0].kind else {
            panic!("not a return")
        };
        // `..` binds looser than arithmetic and is right-associative.
        let ExprKind::Binary {
            op: BinOp::Concat,
            lhs: left,
            rhs: right,
        } = &exprs[0].kind
        else {
            panic!("not concat")
        };
        assert!(matches!(left.kind, ExprKind::Binary { op: BinOp::Add, .. }));
        assert!(matches!(
            right.kind,
            ExprKind::Binary {
                op: BinOp::Concat,
                ..
            }
        ));
    }

    #[test]
    fn comparison_binds_looser_than_concat_and_and_looser_than_comparison() {
        let b = parse(b"return a == b and c or d").unwrap();
        let StatKind::Return(exprs) = &b[0].kind else {
            panic!("not a return")
        };
        let ExprKind::Binary {
            op: BinOp::Or,
            lhs: left,
            ..
        } = &exprs[0].kind
        else {
            panic!("not or")
        };
        assert!(matches!(left.kind, ExprKind::Binary { op: BinOp::And, .. }));
    }

    #[test]
    fn every_statement_kind_parses() {
        let src = "local a, b = 1, 2\n a, b = b, a\n if a then elseif b then else end\n while false do break end\n\
                   repeat local z = 1 until true\n for i = 1, 3, 1 do end\n for k, v in pairs({}) do end\n\
                   do end\n local function f(x) return x end\n function g() end\n local t = {1, 2; x = 1, ['y'] = 2}\n\
                   t.x = t['y'] f(1) f'str' f{1}; ('s'):sub(1)\n return";
        let b = parse(src.as_bytes()).unwrap();
        assert_eq!(b.len(), 17);
        assert_eq!(b[1].line, 2);
        assert_eq!(b.last().map(|s| s.line), Some(13));
    }

    #[test]
    fn syntax_errors_read_like_lua_5_1() {
        assert_eq!(
            err("if true then return 1"),
            "1: 'end' expected near '<eof>'"
        );
        assert_eq!(
            err("if true\nthen\nreturn 1\n"),
            "4: 'end' expected (to close 'if' at line 1) near '<eof>'"
        );
        assert_eq!(
            err("if true return 1 end"),
            "1: 'then' expected near 'return'"
        );
        assert_eq!(err("return )"), "1: unexpected symbol near ')'");
        assert_eq!(err("local = 3"), "1: '<name>' expected near '='");
        assert_eq!(err("return 1 +"), "1: unexpected symbol near '<eof>'");
        assert_eq!(err("break"), "1: no loop to break near '<eof>'");
        assert_eq!(err("return 1 2"), "1: '<eof>' expected near '2'");
        assert_eq!(err("for i = 1 do end"), "1: ',' expected near 'do'");
        assert_eq!(err("for i in 1 2 do end"), "1: 'do' expected near '2'");
        assert_eq!(err("return (1"), "1: ')' expected near '<eof>'");
        assert_eq!(err("local t = {1, 2"), "1: '}' expected near '<eof>'");
        assert_eq!(err("x"), "1: '=' expected near '<eof>'");
        assert_eq!(
            err("local function f() return ... end"),
            "1: cannot use '...' outside a vararg function near '...'"
        );
        assert_eq!(
            err("local function f(...) return function() return ... end end"),
            "1: cannot use '...' outside a vararg function near '...'"
        );
        assert_eq!(
            err("local function f(..., a) end"),
            "1: ')' expected near ','"
        );
    }

    #[test]
    fn errors_are_typed() {
        let e = parse(b"if x then").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::Expected("end"));
        assert_eq!(e.near.as_deref(), Some("<eof>"));
        let e = parse(b"return 'abc").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::Lex(LexErrorKind::UnfinishedString));
        let e = parse(format!("return {}1", "(".repeat(300)).as_bytes()).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::TooManySyntaxLevels);
        assert_eq!(e.near, None);
    }

    #[test]
    fn varargs_mark_the_function() {
        let f = parse_chunk(
            b"local function f(a, ...) return ... end local function g(...) end",
            "@t",
        )
        .unwrap();
        assert_eq!(f.vararg, Vararg::Chunk);
        let StatKind::LocalFunction { func, .. } = &f.body[0].kind else {
            panic!("not a local function")
        };
        assert_eq!(func.params.len(), 1);
        assert_eq!(func.vararg, Vararg::Dots);
        let StatKind::LocalFunction { func, .. } = &f.body[1].kind else {
            panic!("not a local function")
        };
        assert_eq!(func.vararg, Vararg::Arg);
        let StatKind::Return(exprs) = &parse(b"return ...").unwrap()[0].kind else {
            panic!("not a return")
        };
        assert!(matches!(exprs[0].kind, ExprKind::Vararg));
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let src = format!("return {}1{}", "(".repeat(5000), ")".repeat(5000));
        assert!(err(&src).contains("chunk has too many syntax levels"));
        let src = format!("return {}1", "not ".repeat(5000));
        assert!(err(&src).contains("chunk has too many syntax levels"));
        let src = format!("return 1{}", "+1".repeat(5000));
        assert!(err(&src).contains("chunk has too many syntax levels"));
        let src = format!("return t{}", ".x".repeat(5000));
        assert!(err(&src).contains("chunk has too many syntax levels"));
        for (prefix, open, close) in [
            ("", "if true then ", "end "),
            ("", "do ", "end "),
            ("", "while true do ", "end "),
            ("", "local f = function() ", "end "),
            ("return ", "{", "}"),
            ("return ", "f(", ")"),
        ] {
            let src = format!("{prefix}{}{}", open.repeat(100_000), close.repeat(100_000));
            assert!(
                err(&src).contains("chunk has too many syntax levels"),
                "{open}"
            );
        }
    }
}
