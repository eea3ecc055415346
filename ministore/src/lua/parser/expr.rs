//! Expressions: Lua 5.1's operator priorities, primary and suffixed expressions (indexing,
//! calls, method calls), `...`, function bodies' call arguments and table constructors.

use std::sync::Arc;

use super::{end_line, read_at, ParseError, ParseErrorKind, Parser};
use crate::lua::ast::{BinOp, Expr, ExprKind, TableField, UnOp};
use crate::lua::lexer::Tok;

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
    /// A list of expressions; each but the last is read once the comma after it is (the last, by
    /// whatever takes the list).
    pub(super) fn expr_list(&mut self) -> Result<Vec<Expr>, Box<ParseError>> {
        let mut v = vec![self.expr()?];
        while self.test_next(&Tok::Comma) {
            let comma = self.last_line();
            if let Some(before) = v.last_mut() {
                read_at(before, comma);
            }
            v.push(self.expr()?);
        }
        Ok(v)
    }

    pub(super) fn expr(&mut self) -> Result<Expr, Box<ParseError>> {
        self.sub_expr(0)
    }

    fn sub_expr(&mut self, limit: u8) -> Result<Expr, Box<ParseError>> {
        self.enter()?;
        let mut left = if let Some(op) = unary_op(self.peek()) {
            self.advance();
            let operand = self.sub_expr(UNARY_PRIORITY)?;
            Expr {
                line: self.last_line(),
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
            self.advance();
            // The left operand is read once the operator is.
            read_at(&mut left, self.last_line());
            let right = self.sub_expr(rp)?;
            left = Expr {
                line: self.last_line(),
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

    pub(super) fn simple_expr(&mut self) -> Result<Expr, Box<ParseError>> {
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
                let defined = self.lexer_line();
                return Ok(Expr {
                    line,
                    kind: ExprKind::Function(self.func_body(false, defined)?),
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
                self.use_name(&n)?;
                Ok(Expr {
                    line,
                    kind: ExprKind::Name(n),
                })
            }
            Tok::LParen => {
                self.advance();
                let mut inner = self.expr()?;
                self.check_match(&Tok::RParen, &Tok::LParen, line)?;
                read_at(&mut inner, self.last_line());
                Ok(Expr {
                    line,
                    kind: ExprKind::Paren(Box::new(inner)),
                })
            }
            _ => Err(self.error(ParseErrorKind::UnexpectedSymbol)),
        }
    }

    pub(super) fn suffixed_expr(&mut self) -> Result<Expr, Box<ParseError>> {
        let mut e = self.primary_expr()?;
        let mut chain = 0;
        loop {
            chain += 1;
            self.check_chain(chain)?;
            let line = self.line();
            // What a suffix applies to is read before the suffix's first token is consumed; a
            // method call's object once the method's name is.
            match self.peek() {
                Tok::Dot => {
                    read_at(&mut e, self.last_line());
                    self.advance();
                    let key = self.name()?;
                    let key = Expr {
                        line,
                        kind: ExprKind::Str(Arc::from(key.as_bytes())),
                    };
                    e = Expr {
                        line: self.last_line(),
                        kind: ExprKind::Index {
                            obj: Box::new(e),
                            key: Box::new(key),
                        },
                    };
                }
                Tok::LBracket => {
                    read_at(&mut e, self.last_line());
                    self.advance();
                    let key = self.expr()?;
                    self.check_next(&Tok::RBracket)?;
                    e = Expr {
                        line: self.last_line(),
                        kind: ExprKind::Index {
                            obj: Box::new(e),
                            key: Box::new(key),
                        },
                    };
                }
                Tok::Colon => {
                    self.advance();
                    let name = self.name()?;
                    let name_line = self.last_line();
                    read_at(&mut e, name_line);
                    let (args, line) = self.call_args()?;
                    e = Expr {
                        line,
                        kind: ExprKind::Method {
                            obj: Box::new(e),
                            name,
                            args,
                            name_line,
                        },
                    };
                }
                Tok::LParen | Tok::Str(_) | Tok::LBrace => {
                    read_at(&mut e, self.last_line());
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

    /// A call's arguments, and the call's line: where Lua's lexer stands on reaching them, the
    /// end of their first token (a long string's last line).
    fn call_args(&mut self) -> Result<(Vec<Expr>, u32), Box<ParseError>> {
        let line = self.lexer_line();
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
                // Lua compares the line of the `(` with the line its lexer was on after the
                // token before, which a read-ahead past that token has moved to the `(`.
                let previous = self.pos.checked_sub(1).and_then(|at| self.tokens.get(at));
                if self.looked_ahead != self.pos && previous.is_some_and(|t| end_line(t) != line) {
                    return Err(self.error(ParseErrorKind::AmbiguousSyntax));
                }
                self.advance();
                let mut args = if self.peek() == &Tok::RParen {
                    Vec::new()
                } else {
                    self.expr_list()?
                };
                self.check_match(&Tok::RParen, &Tok::LParen, line)?;
                // The last argument is read once the `)` is.
                if let Some(last) = args.last_mut() {
                    read_at(last, self.last_line());
                }
                Ok((args, line))
            }
            _ => Err(self.error(ParseErrorKind::FunctionArguments)),
        }
    }

    pub(super) fn table_constructor(&mut self) -> Result<Expr, Box<ParseError>> {
        let line = self.line();
        self.check_next(&Tok::LBrace)?;
        let mut fields = Vec::new();
        // A positional item is read when the next field begins (after its separator), or after
        // the `}` if it is the last.
        let mut unread_item = None;
        loop {
            if self.peek() == &Tok::RBrace {
                break;
            }
            if let Some(TableField::Item(item)) =
                unread_item.take().and_then(|at| fields.get_mut(at))
            {
                read_at(item, self.last_line());
            }
            if matches!(self.peek(), Tok::Name(_)) {
                self.looked_ahead = self.pos + 1;
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
                    let line = self.last_line();
                    fields.push(TableField::Keyed { key, value, line });
                }
                Tok::LBracket => {
                    self.advance();
                    // The key is read before its `]` (Lua's `yindex`).
                    let key = self.expr()?;
                    self.check_next(&Tok::RBracket)?;
                    self.check_next(&Tok::Assign)?;
                    let value = self.expr()?;
                    let line = self.last_line();
                    fields.push(TableField::Keyed { key, value, line });
                }
                _ => {
                    unread_item = Some(fields.len());
                    fields.push(TableField::Item(self.expr()?));
                }
            }
            if !self.test_next(&Tok::Comma) && !self.test_next(&Tok::Semi) {
                break;
            }
        }
        self.check_match(&Tok::RBrace, &Tok::LBrace, line)?;
        if let Some(TableField::Item(item)) = unread_item.and_then(|at| fields.get_mut(at)) {
            read_at(item, self.last_line());
        }
        Ok(Expr {
            line,
            kind: ExprKind::Table(fields),
        })
    }
}
