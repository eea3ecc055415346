//! The page's own parsers on text nobody wrote for them: the link's fragment (anyone can send a
//! link), the highlighter and the code block's markup (the lock checker shows the scripts a
//! reader pastes), and the content's inline markup. Each input is a seeded soup of the words its
//! parser cares about and stray characters, so near-valid and garbage inputs both come up; every
//! one must parse without a panic (in wasm, a panic kills the page) into something that says
//! exactly what the input said.

use lockdive::components::code::code_markup;
use lockdive::components::highlight::{highlight, Lang};
use lockdive::content::inline::{parse, Inline};
use lockdive::scenarios::fence::Writer;
use lockdive::scenarios::fence::MAX_FENCE_COMMITS;
use lockdive::scenarios::player::{LEASE_RANGE, STALL_RANGE, STEP_COUNT};
use lockdive::scenarios::share::SharedState;

/// A seeded xorshift generator of input soups.
struct Soup(u64);

/// Characters a soup mixes in between words: ASCII, markup's and JSON's specials, controls, and
/// text of two, three and four UTF-8 bytes.
const STRAYS: [char; 16] = [
    'a', 'Z', '7', ' ', '\n', '\r', '\t', '\0', '"', '\'', '\\', '<', '&', 'é', '≠', '🔒',
];

impl Soup {
    fn new(seed: u64) -> Soup {
        Soup(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Up to `max_pieces` pieces, each one of `words` or, one time in four, a stray character.
    fn text(&mut self, words: &[&str], max_pieces: usize) -> String {
        let pieces = self.below(max_pieces + 1);
        let mut text = String::new();
        for _ in 0..pieces {
            if self.below(4) == 0 {
                text.push(STRAYS[self.below(STRAYS.len())]);
            } else {
                text.push_str(words[self.below(words.len())]);
            }
        }
        text
    }
}

#[test]
fn any_link_opens_on_a_state_that_writes_back_to_a_link_of_itself() {
    const WORDS: [&str; 28] = [
        "#",
        "&",
        "=",
        ",",
        "play",
        "lease",
        "stall",
        "release",
        "fence",
        "token",
        "blind",
        "33",
        "34",
        "35",
        "36",
        "0",
        "-1",
        "3",
        "10000",
        "12500",
        "99999999999999999999",
        "s3",
        "%20",
        "+",
        "play=2",
        "fence=35,34",
        "&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&",
        "fence=35,35,35,35,35,35,35,35,35,35,35,35,35,35,35,35,35,35,35,35,35,35,35,35,35,35,35",
    ];
    let mut soup = Soup::new(0x5eed_0001);
    for _ in 0..3000 {
        let fragment = soup.text(&WORDS, 48);
        let state = SharedState::parse(&fragment);
        assert!(state.step.is_none_or(|s| s < STEP_COUNT), "{fragment:?}");
        assert!(
            state.lease_ms.is_none_or(|v| LEASE_RANGE.clamp(v) == v),
            "{fragment:?}"
        );
        assert!(
            state.stall_ms.is_none_or(|v| STALL_RANGE.clamp(v) == v),
            "{fragment:?}"
        );
        assert!(state.fence.len() <= MAX_FENCE_COMMITS, "{fragment:?}");
        assert!(
            state.fence.iter().all(|&t| Writer::with_token(t).is_some()),
            "{fragment:?}"
        );
        assert_eq!(
            SharedState::parse(&state.to_fragment()),
            state,
            "{fragment:?}"
        );
    }
}

#[test]
fn any_script_highlights_into_tokens_that_spell_it_and_markup_that_shows_it() {
    const WORDS: [&str; 40] = [
        "--",
        "--[[",
        "--[==[",
        "[[",
        "]]",
        "[=[",
        "]=]",
        "]==]",
        "\"",
        "'",
        "\\",
        "\\\"",
        "\n",
        " ",
        "redis.call(",
        "redis.pcall(",
        "KEYS[1]",
        "ARGV[2]",
        "if",
        "then",
        "else",
        "end",
        "return",
        "local",
        "0x1F",
        "1e5",
        "3.",
        ".5",
        "..",
        "==",
        "~=",
        "#",
        "DEL",
        "EVAL",
        "SET {key} {token} NX PX {ttl_ms}",
        "write(",
        ")",
        "<script>",
        "&amp;",
        "</code>",
    ];
    let mut soup = Soup::new(0x5eed_0002);
    for _ in 0..3000 {
        let source = soup.text(&WORDS, 40);
        for lang in [Lang::RedisCli, Lang::Lua, Lang::Pseudo] {
            let spelt: String = highlight(lang, &source).iter().map(|t| t.text).collect();
            assert_eq!(spelt, source, "{lang:?}");
            assert_eq!(
                shown_code(&code_markup(lang, &source).finish()),
                source.trim_end(),
                "{lang:?}"
            );
        }
    }
}

#[test]
fn any_inline_markup_parses_into_runs_that_write_it_back() {
    const WORDS: [&str; 16] = [
        "`",
        "[",
        "]",
        "(",
        ")",
        "](",
        "`DEL`",
        "[a](b)",
        "[a](b c)",
        "[](x)",
        "[a]()",
        "[[a](b)",
        "https://valkey.io/",
        "course:r2-02",
        " ",
        "text",
    ];
    let mut soup = Soup::new(0x5eed_0003);
    for _ in 0..5000 {
        let markup = soup.text(&WORDS, 24);
        let runs = parse(&markup);
        let written: String = runs
            .iter()
            .map(|run| match run {
                Inline::Text(text) => text.to_string(),
                Inline::Code(code) => format!("`{code}`"),
                Inline::Link { label, href } => format!("[{label}]({href})"),
            })
            .collect();
        assert_eq!(written, markup);
        assert!(
            runs.iter().all(|run| match run {
                Inline::Text(text) | Inline::Code(text) => !text.is_empty(),
                Inline::Link { label, href } => !label.is_empty() && !href.is_empty(),
            }),
            "{markup:?}: {runs:?}"
        );
    }
}

/// What a reader sees inside the block's `<code>`: its text with the tags gone and the
/// character references read back.
fn shown_code(html: &str) -> String {
    let start = html.find("<code>").expect("a code element") + "<code>".len();
    let end = html.rfind("</code>").expect("its end");
    let mut text = String::new();
    let mut in_tag = false;
    for c in html[start..end].chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}
