//! The parser: a recursive-descent parser from tokens to the [`ast`](super::ast), with Lua 5.1's
//! operator precedence, a nesting limit, and Lua 5.1's syntax error messages.

use std::sync::Arc;

use super::ast::{Block, CondBlock, Expr, ExprKind, FuncBody, Stat, StatKind, Vararg};
use super::lexer::{tok_name, tokens_until_error, LexError, Tok, Token};

mod error;
mod expr;
mod scope;

pub use error::{LimitKind, ParseError, ParseErrorKind};
use scope::{OverLimit, Scopes};

/// How deeply expressions and blocks may nest (Lua 5.1's LUAI_MAXCCALLS).
pub const MAX_SYNTAX_DEPTH: u32 = 200;

/// How many locals a function may have in scope at once, its parameters and a loop's hidden
/// control variables included (Lua 5.1's LUAI_MAXVARS).
pub const MAX_LOCALS: u32 = 200;

/// How many locals of enclosing functions one function may use (Lua 5.1's LUAI_MAXUPVALUES).
pub const MAX_UPVALUES: u32 = 60;

/// The locals a for loop declares before its variables: a numeric loop's index, limit and step,
/// or a generic loop's generator, state and control.
const HIDDEN_FOR_LOCALS: usize = 3;

/// Parses a whole chunk (a vararg function of no parameters) compiled from `source`, the
/// chunk name errors and positions report (`@user_script` for a script).
pub fn parse_chunk(src: &[u8], source: &str) -> Result<Arc<FuncBody>, ParseError> {
    let (tokens, lex_error) = tokens_until_error(src);
    let mut p = Parser {
        tokens,
        lex_error,
        looked_ahead: usize::MAX,
        pos: 0,
        depth: 0,
        loops: 0,
        scopes: Scopes::new(),
        vararg: true,
        used_vararg: false,
        source: Arc::from(source),
        functions: 0,
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
        ordinal: 0,
    }))
}

struct Parser {
    /// The tokens, ending in `Eof`, or in `Unlexable` where lexing failed.
    tokens: Vec<Token>,
    /// Why lexing failed: reported in place of any syntax error found at `Unlexable`.
    lex_error: Option<LexError>,
    /// The token Lua's lexer last read ahead of the parser (after a table field's first name,
    /// to tell `name = value` from an expression); reading it moved Lua's idea of the line the
    /// parser is on.
    looked_ahead: usize,
    pos: usize,
    depth: u32,
    loops: u32,
    /// The locals in scope and the upvalues of each function being parsed.
    scopes: Scopes,
    /// The function being parsed was declared with `...`.
    vararg: bool,
    /// Its body uses `...`.
    used_vararg: bool,
    source: Arc<str>,
    /// The function literals met so far (each body's `ordinal`).
    functions: u32,
}

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

    /// A syntax error at the current token, worded as Lua's `luaX_syntaxerror`: on the line the
    /// token ends on, near its text as Lua's lexer holds it (none for a NUL byte). At the place
    /// lexing failed, the lexing error instead.
    fn error(&self, kind: ParseErrorKind) -> Box<ParseError> {
        if let Some(error) = self.pending_lex_error() {
            return error;
        }
        let t = self.current();
        Box::new(ParseError {
            kind,
            line: end_line(t),
            near: near_text(t),
        })
    }

    /// The lexing error, if the parser has reached the place lexing failed: Lua meets it before
    /// any check it makes there.
    fn pending_lex_error(&self) -> Option<Box<ParseError>> {
        match (&self.current().tok, &self.lex_error) {
            (Tok::Unlexable, Some(error)) => Some(Box::new(ParseError::from(error.clone()))),
            _ => None,
        }
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
        self.check_chain(0)
    }

    fn check_chain(&self, chain: u32) -> Result<(), Box<ParseError>> {
        if self.depth + chain > MAX_SYNTAX_DEPTH {
            return Err(self.limit_error(ParseErrorKind::TooManySyntaxLevels, self.line()));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Checks that the local declared `nth` (from 0) in one declaration, after those in scope,
    /// keeps the function within `MAX_LOCALS`.
    fn check_local(&self, nth: usize) -> Result<(), Box<ParseError>> {
        self.scopes
            .check_local(nth)
            .map_err(|over| self.over_limit(over))
    }

    /// Notes the use of `name`, just read, for `MAX_UPVALUES`.
    fn use_name(&mut self, name: &str) -> Result<(), Box<ParseError>> {
        self.scopes
            .use_name(name)
            .map_err(|over| self.over_limit(over))
    }

    /// A function's limit gone over: Lua checks as it reads a name, so the error is on the line
    /// of the token after it.
    fn over_limit(&self, over: OverLimit) -> Box<ParseError> {
        let kind = ParseErrorKind::TooMany {
            what: over.kind,
            function_line: over.function_line,
        };
        self.limit_error(kind, self.lexer_line())
    }

    /// A limit gone over (`kind`), on `line` and with no `near`; at the place lexing failed,
    /// the lexing error instead, which Lua meets first.
    fn limit_error(&self, kind: ParseErrorKind, line: u32) -> Box<ParseError> {
        if let Some(error) = self.pending_lex_error() {
            return error;
        }
        Box::new(ParseError {
            kind,
            line,
            near: None,
        })
    }

    /// The line Lua takes as a function's definition after reading its name or `function`:
    /// where its lexer stands, the end of the token after it.
    fn lexer_line(&self) -> u32 {
        end_line(self.current())
    }

    /// Lua's `lastline`: the line its lexer stood on when the last token was consumed — where
    /// that token ends, or, when the parser had looked one token past it (a table field's
    /// name), where that next token ends. Lua 5.1 gives an instruction that line when it emits
    /// it, so an operator's instruction, emitted once its operands are read, is on its last
    /// operand's line.
    fn last_line(&self) -> u32 {
        let Some(previous) = self.pos.checked_sub(1) else {
            return self.line();
        };
        let furthest = if self.looked_ahead == self.pos {
            self.pos
        } else {
            previous
        };
        self.tokens
            .get(furthest)
            .map_or_else(|| self.line(), end_line)
    }

    fn block_follow(&self) -> bool {
        matches!(
            self.peek(),
            Tok::Else | Tok::Elseif | Tok::End | Tok::Until | Tok::Eof
        )
    }

    /// A block: its locals go out of scope at its end.
    fn block(&mut self) -> Result<Block, Box<ParseError>> {
        let outer_locals = self.scopes.in_scope();
        let block = self.block_in_scope();
        self.scopes.close_block(outer_locals);
        block
    }

    /// A block whose locals the caller takes out of scope (a `repeat`'s, after `until`).
    fn block_in_scope(&mut self) -> Result<Block, Box<ParseError>> {
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
            Tok::Local => self.local_stat()?,
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
                // The body's locals stay in scope for the condition after `until`.
                let outer_locals = self.scopes.in_scope();
                self.loops += 1;
                let body = self.block_in_scope();
                self.loops -= 1;
                let cond = body.and_then(|body| {
                    self.check_match(&Tok::Until, &Tok::Repeat, line)?;
                    Ok((body, self.expr()?))
                });
                self.scopes.close_block(outer_locals);
                let (body, cond) = cond?;
                Ok(StatKind::Repeat { body, cond })
            }
        }
    }

    #[inline(never)]
    fn function_stat(&mut self, line: u32) -> Result<StatKind, Box<ParseError>> {
        self.advance();
        let name = self.name()?;
        self.use_name(&name)?;
        let mut target = Expr {
            line,
            kind: ExprKind::Name(name),
        };
        let mut is_method = false;
        while matches!(self.peek(), Tok::Dot | Tok::Colon) && !is_method {
            is_method = self.peek() == &Tok::Colon;
            self.advance();
            let key_line = self.line();
            let key = self.name()?;
            target = Expr {
                line: self.last_line(),
                kind: ExprKind::Index {
                    obj: Box::new(target),
                    key: Box::new(Expr {
                        line: key_line,
                        kind: ExprKind::Str(Arc::from(key.as_bytes())),
                    }),
                },
            };
        }
        // Lua 5.1 puts the store on the `function` keyword's line.
        target.line = line;
        let func = self.func_body(is_method, line)?;
        Ok(StatKind::Function { target, func })
    }

    #[inline(never)]
    fn local_stat(&mut self) -> Result<StatKind, Box<ParseError>> {
        self.advance();
        if self.test_next(&Tok::Function) {
            let name = self.name()?;
            self.check_local(0)?;
            // In scope in its own body, so that it can call itself.
            self.scopes.declare([name.clone()]);
            let func = self.func_body(false, self.lexer_line())?;
            return Ok(StatKind::LocalFunction { name, func });
        }
        let mut names = vec![self.name()?];
        self.check_local(0)?;
        while self.test_next(&Tok::Comma) {
            names.push(self.name()?);
            self.check_local(names.len() - 1)?;
        }
        let exprs = if self.test_next(&Tok::Assign) {
            self.expr_list()?
        } else {
            Vec::new()
        };
        // In scope from the next statement on: the values cannot see them.
        self.scopes.declare(names.iter().cloned());
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

    /// A for loop's body, with its hidden locals and its variables `names` in scope.
    fn for_body(&mut self, names: &[Arc<str>]) -> Result<Block, Box<ParseError>> {
        let outer_locals = self.scopes.in_scope();
        let hidden = (0..HIDDEN_FOR_LOCALS).map(|_| Arc::from("(for)"));
        self.scopes.declare(hidden.chain(names.iter().cloned()));
        let body = self.loop_block();
        self.scopes.close_block(outer_locals);
        body
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
                // The hidden index, limit and step, then the variable.
                self.check_local(HIDDEN_FOR_LOCALS)?;
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
                let prep_line = self.last_line();
                let body = self.for_body(std::slice::from_ref(&first))?;
                self.check_match(&Tok::End, &Tok::For, line)?;
                Ok(StatKind::NumericFor {
                    var: first,
                    start,
                    limit,
                    step,
                    body,
                    prep_line,
                })
            }
            Tok::Comma | Tok::In => {
                // The hidden generator, state and control, then the variables.
                self.check_local(HIDDEN_FOR_LOCALS)?;
                let mut names = vec![first];
                while self.test_next(&Tok::Comma) {
                    names.push(self.name()?);
                    self.check_local(HIDDEN_FOR_LOCALS + names.len() - 1)?;
                }
                self.check_next(&Tok::In)?;
                let call_line = self.lexer_line();
                let exprs = self.expr_list()?;
                self.check_next(&Tok::Do)?;
                let body = self.for_body(&names)?;
                self.check_match(&Tok::End, &Tok::For, line)?;
                Ok(StatKind::GenericFor {
                    names,
                    exprs,
                    body,
                    call_line,
                })
            }
            _ => Err(self.error(ParseErrorKind::EqualsOrIn)),
        }
    }

    /// A function's parameter list and body, from its `(`: `line` is where Lua says it is
    /// defined. Its locals are its own, counted from none.
    fn func_body(&mut self, is_method: bool, line: u32) -> Result<Arc<FuncBody>, Box<ParseError>> {
        self.scopes.open_function(line);
        let saved_loops = std::mem::replace(&mut self.loops, 0);
        let saved_vararg = self.vararg;
        let saved_used = std::mem::replace(&mut self.used_vararg, false);
        let func = self.function(is_method, line);
        self.used_vararg = saved_used;
        self.vararg = saved_vararg;
        self.loops = saved_loops;
        self.scopes.close_function();
        func
    }

    /// The function `func_body` parses, in its own scope. Its parameters, `self` for a method
    /// and the hidden `arg` of a vararg function (Lua 5.1's compatibility) are its first locals.
    fn function(&mut self, is_method: bool, line: u32) -> Result<Arc<FuncBody>, Box<ParseError>> {
        self.functions += 1;
        let ordinal = self.functions;
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
                    self.check_local(params.len())?;
                    break;
                }
                if !matches!(self.peek(), Tok::Name(_)) {
                    return Err(self.error(ParseErrorKind::ParameterExpected));
                }
                params.push(self.name()?);
                self.check_local(params.len() - 1)?;
                if !self.test_next(&Tok::Comma) {
                    break;
                }
            }
        }
        self.check_next(&Tok::RParen)?;
        self.scopes.declare(params.iter().cloned());
        if is_vararg {
            self.scopes.declare([Arc::from("arg")]);
        }
        self.vararg = is_vararg;
        let body = self.block()?;
        self.check_match(&Tok::End, &Tok::Function, line)?;
        let vararg = match (is_vararg, self.used_vararg) {
            (false, _) => Vararg::None,
            (true, true) => Vararg::Dots,
            (true, false) => Vararg::Arg,
        };
        Ok(Arc::new(FuncBody {
            params,
            vararg,
            body,
            source: self.source.clone(),
            ordinal,
        }))
    }

    #[inline(never)]
    fn expr_stat(&mut self) -> Result<StatKind, Box<ParseError>> {
        let first = self.suffixed_expr()?;
        // A call is a statement whatever follows it (`f() = 1` fails at the `=`, which cannot
        // start the next one); anything else is the first target of an assignment, each
        // target checked as soon as it is read.
        if first.is_multi() {
            return Ok(StatKind::Call(first));
        }
        let mut targets = Vec::new();
        let mut target = first;
        loop {
            if !matches!(target.kind, ExprKind::Name(_) | ExprKind::Index { .. }) {
                return Err(self.error(ParseErrorKind::Syntax));
            }
            targets.push(target);
            if !self.test_next(&Tok::Comma) {
                break;
            }
            target = self.suffixed_expr()?;
            // Lua parses each further target one C call deeper, and counts them against what
            // is left of its C call limit at this nesting.
            let limit = MAX_SYNTAX_DEPTH.saturating_sub(self.depth);
            if targets.len() > limit as usize {
                return Err(self.over_limit(OverLimit {
                    kind: LimitKind::AssignmentTargets(limit),
                    function_line: self.scopes.function_line(),
                }));
            }
        }
        self.check_next(&Tok::Assign)?;
        let values = self.expr_list()?;
        // Lua 5.1 stores into every target once the values are read.
        let stored = self.last_line();
        for target in &mut targets {
            target.line = stored;
        }
        Ok(StatKind::Assign {
            targets,
            exprs: values,
        })
    }
}

/// Marks `e`, if it is a name or an index, as read at `line`: Lua 5.1 emits such a read only once
/// its value is needed, on the line of the last token consumed by then.
fn read_at(e: &mut Expr, line: u32) {
    if matches!(e.kind, ExprKind::Name(_) | ExprKind::Index { .. }) {
        e.line = line;
    }
}

/// The line a token ends on: a long string or an escaped newline carries the line on. As in
/// the lexer, `\r\n` and `\n\r` are one line break each.
fn end_line(token: &Token) -> u32 {
    let mut line = token.line;
    let mut bytes = token.text.bytes().peekable();
    while let Some(b) = bytes.next() {
        if matches!(b, b'\n' | b'\r') {
            line = line.saturating_add(1);
            bytes.next_if(|&next| matches!(next, b'\n' | b'\r') && next != b);
        }
    }
    line
}

/// A token's text as Lua's lexer holds it for `near '…'`: a string with its delimiters around
/// what it decoded to, cut at a NUL as a C string is; a NUL byte has none.
fn near_text(t: &Token) -> Option<String> {
    match &t.tok {
        Tok::Char(0) => None,
        Tok::Str(decoded) => {
            let text = t.text.as_bytes();
            let (open, close) = if text.first() == Some(&b'[') {
                let level = text.iter().skip(1).take_while(|&&b| b == b'=').count();
                let close = format!("]{}]", "=".repeat(level));
                (t.text.get(..level + 2).unwrap_or_default(), close)
            } else {
                let quote = t.text.get(..1).unwrap_or_default();
                (quote, quote.to_string())
            };
            let mut near = open.to_string();
            match decoded.iter().position(|&b| b == 0) {
                Some(nul) => near.push_str(&String::from_utf8_lossy(&decoded[..nul])),
                None => {
                    near.push_str(&String::from_utf8_lossy(decoded));
                    near.push_str(&close);
                }
            }
            Some(near)
        }
        _ => Some(t.text.clone()),
    }
}

#[cfg(test)]
mod tests;
