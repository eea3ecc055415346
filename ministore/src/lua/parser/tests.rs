//! Parser tests: precedence, every statement kind, Lua 5.1's syntax error texts, nesting limits.

use super::*;
use crate::lua::ast::{BinOp, TableField};
use crate::lua::lexer::LexErrorKind;

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

#[test]
fn a_byte_that_starts_no_token_is_met_where_the_parser_expects_something_else() {
    assert_eq!(err("return 1 & 2"), "1: '<eof>' expected near '&'");
    assert_eq!(err("if a != b then end"), "1: 'then' expected near '!'");
    assert_eq!(err("local @"), "1: '<name>' expected near '@'");
    assert_eq!(err("x = 1 \x01"), "1: unexpected symbol near 'char(1)'");
}

#[test]
fn a_lexing_error_counts_only_where_the_parser_reaches_it() {
    // The syntax error comes first, as in Lua, which lexes a token only when the parser asks.
    assert_eq!(err("return @ 'unfinished"), "1: unexpected symbol near '@'");
    assert_eq!(
        err("return 'unfinished @"),
        "1: unfinished string near '<eof>'"
    );
    assert_eq!(
        err("return 'a\\0b\\300'"),
        "1: escape sequence too large near ''a'"
    );
    assert_eq!(
        err("return [=="),
        "1: invalid long string delimiter near '[=='"
    );
}

#[test]
fn a_call_whose_parenthesis_opens_a_new_line_is_ambiguous() {
    assert_eq!(
        err("f\n(1)"),
        "2: ambiguous syntax (function call x new statement) near '('"
    );
    // A long string argument ends on the line its `(` is on: no ambiguity.
    assert!(parse(b"f[[a\nb]](1)").is_ok());
    assert!(parse(b"f()\n;(g)(1)").is_ok());
}

fn locals(n: usize) -> String {
    (0..n).map(|i| format!("local a{i} ")).collect()
}

#[test]
fn a_function_holds_at_most_200_locals_in_scope() {
    assert!(parse(format!("{}return 1", locals(200)).as_bytes()).is_ok());
    assert_eq!(
        err(&format!("{}return 1", locals(201))),
        "1: main function has more than 200 local variables"
    );
    // A block's locals leave at its end.
    assert!(parse(format!("do {} end {}", locals(150), locals(150)).as_bytes()).is_ok());
    // A for loop holds three hidden locals besides its variables.
    assert!(parse(format!("{}for i = 1, 2 do end", locals(196)).as_bytes()).is_ok());
    assert!(parse(format!("{}for i = 1, 2 do end", locals(197)).as_bytes()).is_err());
    assert!(parse(format!("{}for k, v in pairs(t) do end", locals(196)).as_bytes()).is_err());
    // A function counts its own: parameters, `self`, and a vararg function's hidden `arg`.
    assert!(
        parse(format!("{}f = function(x) {} end", locals(200), locals(199)).as_bytes()).is_ok()
    );
    assert_eq!(
        err(&format!("f = function(...) {} end", locals(200))),
        "1: function at line 1 has more than 200 local variables"
    );
    assert!(parse(format!("function t:m(x) {} end", locals(199)).as_bytes()).is_err());
    // The error is on the line after the name that went over: where Lua's lexer stands.
    assert_eq!(
        err(&format!("{}local function\ng() end", locals(200))),
        "2: main function has more than 200 local variables"
    );
}

#[test]
fn a_function_is_defined_where_the_lexer_stood_after_its_name() {
    assert_eq!(
        err("local function\ng( ) "),
        "2: 'end' expected near '<eof>'"
    );
    assert_eq!(err("f = function\n( ) "), "2: 'end' expected near '<eof>'");
    assert_eq!(
        err("function\nt.x( ) "),
        "2: 'end' expected (to close 'function' at line 1) near '<eof>'"
    );
}

#[test]
fn a_function_uses_at_most_60_locals_of_enclosing_functions() {
    let outer = (0..61)
        .map(|i| format!("local a{i} = 1 "))
        .collect::<String>();
    let sum = |n: usize| {
        (0..n)
            .map(|i| format!("a{i}"))
            .collect::<Vec<_>>()
            .join(" + ")
    };
    assert!(parse(format!("{outer}local function f() return {} end", sum(60)).as_bytes()).is_ok());
    assert_eq!(
        err(&format!("{outer}local function f() return {} end", sum(61))),
        "1: function at line 1 has more than 60 upvalues"
    );
    // A use counts once, and in every function between the local and the use.
    assert!(
        parse(format!("{outer}local function f() return {0} + {0} end", sum(60)).as_bytes())
            .is_ok()
    );
    assert_eq!(
        err(&format!(
            "{outer}local function f()\nlocal function g()\nreturn {} end end",
            sum(61)
        )),
        "3: function at line 1 has more than 60 upvalues"
    );
    // A function's own parameters are locals, not upvalues; a shadowing local hides the outer one.
    let params = (0..70)
        .map(|i| format!("a{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    assert!(
        parse(format!("{outer}local function f({params}) return {} end", sum(61)).as_bytes())
            .is_ok()
    );
    assert!(
        parse(b"local x local function f() local x return function() return x end end").is_ok()
    );
}

#[test]
fn a_read_or_a_store_spanning_lines_is_on_the_line_lua_emits_it() {
    // `return t.\nx`: the index is read once its key is.
    let b = parse(b"local t\nreturn t.\nx").unwrap();
    let StatKind::Return(exprs) = &b[1].kind else {
        panic!("not a return")
    };
    assert_eq!(exprs[0].line, 3);
    // `t.x =\n1`: stored once the values are read.
    let b = parse(b"local t\nt.x =\n1").unwrap();
    let StatKind::Assign { targets, .. } = &b[1].kind else {
        panic!("not an assignment")
    };
    assert_eq!(targets[0].line, 3);
    // `nosuch\n+ 1`: the left operand is read once the operator is.
    let b = parse(b"local x = nosuch\n+ 1").unwrap();
    let StatKind::Local { exprs, .. } = &b[0].kind else {
        panic!("not a local")
    };
    let ExprKind::Binary { lhs, .. } = &exprs[0].kind else {
        panic!("not a binary")
    };
    assert_eq!(lhs.line, 2);
    // A table field's name is read with the token after it looked ahead.
    let b = parse(b"return {\nnosuch\n. y }").unwrap();
    let StatKind::Return(exprs) = &b[0].kind else {
        panic!("not a return")
    };
    let ExprKind::Table(fields) = &exprs[0].kind else {
        panic!("not a table")
    };
    let [TableField::Item(item)] = &fields[..] else {
        panic!("not one item")
    };
    let ExprKind::Index { obj, .. } = &item.kind else {
        panic!("not an index")
    };
    assert_eq!(obj.line, 3);
    // The loops: a numeric for checks its bounds at `do`, a generic for calls where its lexer
    // stood after `in`.
    let b = parse(b"for i = {}, 2\ndo end\nfor k in\nnil do end").unwrap();
    let StatKind::NumericFor { prep_line, .. } = &b[0].kind else {
        panic!("not a numeric for")
    };
    assert_eq!(*prep_line, 2);
    let StatKind::GenericFor { call_line, .. } = &b[1].kind else {
        panic!("not a generic for")
    };
    assert_eq!(*call_line, 4);
}
