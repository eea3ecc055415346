//! A small syntax highlighter for the dive's code blocks: redis-cli lines, Redis Lua and the
//! fencing pseudo-code. Pure Rust with no view code, so it is tested natively.
//!
//! The tokens always re-concatenate to the exact source: highlighting never changes what is shown.

/// Which rules a code block is highlighted with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// redis-cli input: one command a line, `#` comment lines.
    RedisCli,
    /// A Lua script as Redis runs it (`--` comments, `KEYS`/`ARGV`, `redis.call`).
    Lua,
    /// Pseudo-code with `#` comments and function calls.
    Pseudo,
}

impl Lang {
    /// A short label for the block's corner and its `data-lang` attribute.
    pub fn label(self) -> &'static str {
        match self {
            Lang::RedisCli => "redis",
            Lang::Lua => "lua",
            Lang::Pseudo => "pseudo-code",
        }
    }

    /// What the block holds, for the accessible name of its scrollable region.
    pub fn description(self) -> &'static str {
        match self {
            Lang::RedisCli => "Redis commands",
            Lang::Lua => "Lua script",
            Lang::Pseudo => "Pseudo-code",
        }
    }
}

/// What a run of source text is, for colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// Anything without a colour of its own (names, punctuation, spaces).
    Plain,
    /// A Lua keyword (`local`, `if`, `return`, `nil`, …).
    Keyword,
    /// A quoted string.
    Str,
    /// A numeric literal.
    Number,
    /// A comment, to the end of the line.
    Comment,
    /// A Redis command name at the start of a redis-cli line.
    Command,
    /// Redis's script inputs `KEYS` and `ARGV`.
    KeysArgv,
    /// A library call such as `redis.call` or `tonumber`.
    Builtin,
    /// A called name in pseudo-code (`write(...)`).
    Function,
}

impl TokenKind {
    /// The CSS class the page styles this kind with; `None` for plain text.
    pub fn class(self) -> Option<&'static str> {
        match self {
            TokenKind::Plain => None,
            TokenKind::Keyword => Some("tok-keyword"),
            TokenKind::Str => Some("tok-string"),
            TokenKind::Number => Some("tok-number"),
            TokenKind::Comment => Some("tok-comment"),
            TokenKind::Command => Some("tok-command"),
            TokenKind::KeysArgv => Some("tok-keys"),
            TokenKind::Builtin => Some("tok-builtin"),
            TokenKind::Function => Some("tok-function"),
        }
    }
}

/// A run of source text and its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// How to colour it.
    pub kind: TokenKind,
    /// The exact source text.
    pub text: &'a str,
}

const LUA_KEYWORDS: &[&str] = &[
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in", "local",
    "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
];

const LUA_BUILTINS: &[&str] = &[
    "tonumber", "tostring", "type", "pairs", "ipairs", "unpack", "table", "string", "math",
];

/// Splits `source` into coloured runs according to `lang`.
pub fn highlight(lang: Lang, source: &str) -> Vec<Token<'_>> {
    let mut out = Tokens::new(source);
    match lang {
        Lang::RedisCli => redis_cli(source, &mut out),
        Lang::Lua => lua(source, &mut out),
        Lang::Pseudo => pseudo(source, &mut out),
    }
    out.finish()
}

/// Collects tokens, merging neighbouring plain runs so the DOM stays small.
struct Tokens<'a> {
    source: &'a str,
    /// Kind and byte range in `source` of each run.
    runs: Vec<(TokenKind, usize, usize)>,
}

impl<'a> Tokens<'a> {
    fn new(source: &'a str) -> Self {
        Tokens {
            source,
            runs: Vec::new(),
        }
    }

    /// Records `text`, which must be a slice of `source` (every caller slices it).
    fn push(&mut self, kind: TokenKind, text: &'a str) {
        if text.is_empty() {
            return;
        }
        let start = text.as_ptr() as usize - self.source.as_ptr() as usize;
        let end = start + text.len();
        match self.runs.last_mut() {
            Some((TokenKind::Plain, _, last_end))
                if kind == TokenKind::Plain && *last_end == start =>
            {
                *last_end = end;
            }
            _ => self.runs.push((kind, start, end)),
        }
    }

    fn finish(self) -> Vec<Token<'a>> {
        self.runs
            .into_iter()
            .map(|(kind, start, end)| Token {
                kind,
                text: &self.source[start..end],
            })
            .collect()
    }
}

fn redis_cli<'a>(source: &'a str, out: &mut Tokens<'a>) {
    for line in source.split_inclusive('\n') {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        out.push(TokenKind::Plain, indent);
        if body.starts_with('#') {
            let (comment, newline) = split_newline(body);
            out.push(TokenKind::Comment, comment);
            out.push(TokenKind::Plain, newline);
            continue;
        }
        let mut scan = Scanner::new(body);
        let mut first_word = true;
        while let Some(c) = scan.peek() {
            if c.is_whitespace() {
                out.push(TokenKind::Plain, scan.take_while(char::is_whitespace));
            } else if c == '"' || c == '\'' {
                out.push(TokenKind::Str, scan.quoted(c));
                first_word = false;
            } else {
                let word = scan.take_while(|c| !c.is_whitespace());
                let kind = if first_word && word.chars().all(|c| c.is_ascii_alphabetic()) {
                    TokenKind::Command
                } else if is_integer(word) {
                    TokenKind::Number
                } else {
                    TokenKind::Plain
                };
                out.push(kind, word);
                first_word = false;
            }
        }
    }
}

fn lua<'a>(source: &'a str, out: &mut Tokens<'a>) {
    let mut scan = Scanner::new(source);
    while let Some(c) = scan.peek() {
        if scan.rest().starts_with("--") {
            let comment = if scan.rest().starts_with("--[[") {
                scan.through("]]")
            } else {
                scan.take_while(|c| c != '\n')
            };
            out.push(TokenKind::Comment, comment);
        } else if c == '"' || c == '\'' {
            out.push(TokenKind::Str, scan.quoted(c));
        } else if scan.rest().starts_with("[[") {
            out.push(TokenKind::Str, scan.through("]]"));
        } else if c.is_ascii_digit() {
            out.push(TokenKind::Number, scan.number());
        } else if c.is_alphabetic() || c == '_' {
            let word = scan.identifier();
            let kind = if LUA_KEYWORDS.contains(&word) {
                TokenKind::Keyword
            } else if word == "KEYS" || word == "ARGV" {
                TokenKind::KeysArgv
            } else if word == "redis" && scan.rest().starts_with('.') {
                // `redis.call` reads as one library name; colour the dot and method with it.
                let method = scan.dotted_member();
                out.push(TokenKind::Builtin, word);
                out.push(TokenKind::Builtin, method);
                continue;
            } else if LUA_BUILTINS.contains(&word) {
                TokenKind::Builtin
            } else {
                TokenKind::Plain
            };
            out.push(kind, word);
        } else {
            out.push(TokenKind::Plain, scan.advance_char());
        }
    }
}

fn pseudo<'a>(source: &'a str, out: &mut Tokens<'a>) {
    let mut scan = Scanner::new(source);
    while let Some(c) = scan.peek() {
        if c == '#' {
            out.push(TokenKind::Comment, scan.take_while(|c| c != '\n'));
        } else if c.is_ascii_digit() {
            out.push(TokenKind::Number, scan.number());
        } else if c.is_alphabetic() || c == '_' {
            let word = scan.identifier();
            let kind = if scan.rest().starts_with('(') {
                TokenKind::Function
            } else {
                TokenKind::Plain
            };
            out.push(kind, word);
        } else {
            out.push(TokenKind::Plain, scan.advance_char());
        }
    }
}

fn split_newline(line: &str) -> (&str, &str) {
    match line.strip_suffix('\n') {
        Some(body) => (body, &line[body.len()..]),
        None => (line, ""),
    }
}

fn is_integer(word: &str) -> bool {
    let digits = word.strip_prefix('-').unwrap_or(word);
    !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())
}

/// A cursor over source text that hands out borrowed slices.
struct Scanner<'a> {
    source: &'a str,
    at: usize,
}

impl<'a> Scanner<'a> {
    fn new(source: &'a str) -> Self {
        Scanner { source, at: 0 }
    }

    fn rest(&self) -> &'a str {
        &self.source[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn advance_char(&mut self) -> &'a str {
        let start = self.at;
        self.at += self.peek().map_or(0, char::len_utf8);
        &self.source[start..self.at]
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &'a str {
        let start = self.at;
        let len = self
            .rest()
            .char_indices()
            .find(|&(_, c)| !keep(c))
            .map_or(self.rest().len(), |(i, _)| i);
        self.at += len;
        &self.source[start..self.at]
    }

    fn identifier(&mut self) -> &'a str {
        self.take_while(|c| c.is_alphanumeric() || c == '_')
    }

    /// `.call` after `redis`: the dot and the member name.
    fn dotted_member(&mut self) -> &'a str {
        let start = self.at;
        self.advance_char();
        self.identifier();
        &self.source[start..self.at]
    }

    fn number(&mut self) -> &'a str {
        self.take_while(|c| c.is_ascii_hexdigit() || c == '.' || c == 'x' || c == 'X')
    }

    /// A quoted string up to its closing quote (backslash escapes honoured) or the end of line.
    fn quoted(&mut self, quote: char) -> &'a str {
        let start = self.at;
        self.advance_char();
        let mut escaped = false;
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            self.advance_char();
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == quote {
                break;
            }
        }
        &self.source[start..self.at]
    }

    /// Everything through the next `close` (or to the end if it never closes).
    fn through(&mut self, close: &str) -> &'a str {
        let start = self.at;
        let skip = 2.min(self.rest().len());
        let end = self.rest()[skip..]
            .find(close)
            .map_or(self.rest().len(), |i| skip + i + close.len());
        self.at += end;
        &self.source[start..self.at]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TokenKind::*;

    /// The coloured runs only, as (kind, text) — plain text is what is left between them.
    fn coloured(lang: Lang, source: &str) -> Vec<(TokenKind, &str)> {
        highlight(lang, source)
            .into_iter()
            .filter(|t| t.kind != Plain)
            .map(|t| (t.kind, t.text))
            .collect()
    }

    fn rebuilt(lang: Lang, source: &str) -> String {
        highlight(lang, source).iter().map(|t| t.text).collect()
    }

    const RELEASE: &str = "-- safe release: DEL only if the stored token is still ours\n\
if redis.call(\"GET\", KEYS[1]) == ARGV[1] then\n  return redis.call(\"DEL\", KEYS[1])\nelse\n  return 0\nend\n";

    #[test]
    fn tokens_rebuild_every_source_exactly() {
        for (lang, source) in [
            (Lang::Lua, RELEASE),
            (Lang::RedisCli, "# c\nDEL resource:lock\n  GET \"k y\"\n"),
            (
                Lang::Pseudo,
                "write(payload, fencing_token)   # rejected when fencing_token < max_seen",
            ),
            (
                Lang::Lua,
                "local s = 'unclosed\nreturn [[long\nstring]] --[[ block\ncomment ]] x",
            ),
            (Lang::Lua, "“curly” ≠ é"),
        ] {
            assert_eq!(rebuilt(lang, source), source, "{lang:?}");
        }
    }

    #[test]
    fn a_blind_del_line_shows_the_comment_and_the_command() {
        assert_eq!(
            highlight(
                Lang::RedisCli,
                "# DANGEROUS: deletes whatever lock is under the key right now\nDEL resource:lock"
            ),
            [
                Token {
                    kind: Comment,
                    text: "# DANGEROUS: deletes whatever lock is under the key right now"
                },
                Token {
                    kind: Plain,
                    text: "\n"
                },
                Token {
                    kind: Command,
                    text: "DEL"
                },
                Token {
                    kind: Plain,
                    text: " resource:lock"
                },
            ]
        );
    }

    #[test]
    fn an_eval_line_colours_the_key_count_but_not_digits_inside_a_token() {
        assert_eq!(
            coloured(
                Lang::RedisCli,
                "EVAL <script> 1 resource:lock abc-token-123"
            ),
            [(Command, "EVAL"), (Number, "1")]
        );
        assert_eq!(
            coloured(Lang::RedisCli, "SET resource:lock \"my token\" NX PX 30000"),
            [(Command, "SET"), (Str, "\"my token\""), (Number, "30000")]
        );
    }

    #[test]
    fn the_release_script_colours_keywords_calls_strings_and_script_inputs() {
        assert_eq!(
            coloured(Lang::Lua, RELEASE),
            [
                (
                    Comment,
                    "-- safe release: DEL only if the stored token is still ours"
                ),
                (Keyword, "if"),
                (Builtin, "redis"),
                (Builtin, ".call"),
                (Str, "\"GET\""),
                (KeysArgv, "KEYS"),
                (Number, "1"),
                (KeysArgv, "ARGV"),
                (Number, "1"),
                (Keyword, "then"),
                (Keyword, "return"),
                (Builtin, "redis"),
                (Builtin, ".call"),
                (Str, "\"DEL\""),
                (KeysArgv, "KEYS"),
                (Number, "1"),
                (Keyword, "else"),
                (Keyword, "return"),
                (Number, "0"),
                (Keyword, "end"),
            ]
        );
    }

    #[test]
    fn the_complete_excerpt_colours_the_stale_refusal() {
        let source = "if att ~= ARGV[2] then\n  return redis.error_reply('EMQSTALE complete token mismatch')\nend";
        assert_eq!(
            coloured(Lang::Lua, source),
            [
                (Keyword, "if"),
                (KeysArgv, "ARGV"),
                (Number, "2"),
                (Keyword, "then"),
                (Keyword, "return"),
                (Builtin, "redis"),
                (Builtin, ".error_reply"),
                (Str, "'EMQSTALE complete token mismatch'"),
                (Keyword, "end"),
            ]
        );
    }

    #[test]
    fn lua_names_with_digits_or_keyword_prefixes_stay_plain() {
        assert_eq!(
            coloured(Lang::Lua, "local att2 = endless"),
            [(Keyword, "local")]
        );
    }

    #[test]
    fn a_trailing_lua_comment_runs_to_the_end_of_its_line_only() {
        assert_eq!(
            coloured(
                Lang::Lua,
                "local att = 1   -- the fence: +1 per grant\nreturn att"
            ),
            [
                (Keyword, "local"),
                (Number, "1"),
                (Comment, "-- the fence: +1 per grant"),
                (Keyword, "return"),
            ]
        );
    }

    #[test]
    fn strings_honour_escapes_and_stop_at_an_unclosed_line_end() {
        assert_eq!(
            coloured(Lang::Lua, r#"x = "a \" b" y = 'open"#),
            [(Str, r#""a \" b""#), (Str, "'open")]
        );
        assert_eq!(
            coloured(Lang::Lua, "x = 'open\nreturn"),
            [(Str, "'open"), (Keyword, "return")]
        );
    }

    #[test]
    fn long_strings_and_block_comments_span_lines() {
        assert_eq!(
            coloured(Lang::Lua, "--[[ a\nb ]] return [[x\ny]]"),
            [
                (Comment, "--[[ a\nb ]]"),
                (Keyword, "return"),
                (Str, "[[x\ny]]")
            ]
        );
    }

    #[test]
    fn fencing_pseudo_code_colours_the_call_numbers_and_comments() {
        let source =
            "grant = 34\nwrite(payload, fencing_token)   # rejected when fencing_token < max_seen";
        assert_eq!(
            coloured(Lang::Pseudo, source),
            [
                (Number, "34"),
                (Function, "write"),
                (Comment, "# rejected when fencing_token < max_seen"),
            ]
        );
    }

    #[test]
    fn neighbouring_plain_runs_are_merged() {
        let tokens = highlight(Lang::Pseudo, "a, b; c");
        assert_eq!(
            tokens,
            [Token {
                kind: Plain,
                text: "a, b; c"
            }]
        );
    }

    #[test]
    fn every_coloured_kind_has_its_own_class_and_plain_has_none() {
        let kinds = [
            Keyword, Str, Number, Comment, Command, KeysArgv, Builtin, Function,
        ];
        let mut classes: Vec<&str> = kinds.iter().filter_map(|k| k.class()).collect();
        assert_eq!(classes.len(), kinds.len());
        classes.sort_unstable();
        classes.dedup();
        assert_eq!(classes.len(), kinds.len());
        assert!(classes.iter().all(|c| c.starts_with("tok-")));
        assert_eq!(Plain.class(), None);
    }
}
