//! The inline markup the content modules write prose in: `` `code` `` and `[label](href)`.
//!
//! Parsing is pure and total: markup that does not close (a lone backtick, a `[` without `](…)`)
//! stays literal text, so a typo shows on the page instead of breaking it.

/// One run of inline content, borrowed from the markup string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Inline<'a> {
    /// Plain prose.
    Text(&'a str),
    /// A command, key, field or file reference: rendered as `<code>`.
    Code(&'a str),
    /// A link; `href` is as written (see `crate::links::resolve_href` for `course:` hrefs).
    Link { label: &'a str, href: &'a str },
}

/// Splits markup into runs, in order.
pub fn parse(markup: &str) -> Vec<Inline<'_>> {
    let mut runs = Vec::new();
    let mut text_start = 0;
    let mut at = 0;
    while at < markup.len() {
        let rest = &markup[at..];
        let found = if rest.starts_with('`') {
            code_span(rest)
        } else if rest.starts_with('[') {
            link(rest)
        } else {
            None
        };
        match found {
            Some((run, consumed)) => {
                if text_start < at {
                    runs.push(Inline::Text(&markup[text_start..at]));
                }
                runs.push(run);
                at += consumed;
                text_start = at;
            }
            None => at += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    if text_start < markup.len() {
        runs.push(Inline::Text(&markup[text_start..]));
    }
    runs
}

/// What a reader sees of the markup: the text of every run, markup removed.
pub fn visible_text(markup: &str) -> String {
    parse(markup)
        .into_iter()
        .map(|run| match run {
            Inline::Text(text) | Inline::Code(text) => text,
            Inline::Link { label, .. } => label,
        })
        .collect()
}

fn code_span(rest: &str) -> Option<(Inline<'_>, usize)> {
    let close = rest[1..].find('`')? + 1;
    let code = &rest[1..close];
    (!code.is_empty()).then_some((Inline::Code(code), close + 1))
}

fn link(rest: &str) -> Option<(Inline<'_>, usize)> {
    let label_end = rest.find("](")?;
    let label = &rest[1..label_end];
    if label.is_empty() || label.contains('[') {
        return None;
    }
    let href_start = label_end + 2;
    let href_len = rest[href_start..].find(')')?;
    let href = &rest[href_start..href_start + href_len];
    if href.is_empty() || href.contains(char::is_whitespace) {
        return None;
    }
    Some((Inline::Link { label, href }, href_start + href_len + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backticks_mark_commands_as_code() {
        assert_eq!(
            parse("the holder calls `DEL resource:lock`."),
            [
                Inline::Text("the holder calls "),
                Inline::Code("DEL resource:lock"),
                Inline::Text("."),
            ]
        );
    }

    #[test]
    fn a_link_keeps_its_label_and_href() {
        assert_eq!(
            parse("replied in [Is Redlock safe?](http://antirez.com/news/101)."),
            [
                Inline::Text("replied in "),
                Inline::Link {
                    label: "Is Redlock safe?",
                    href: "http://antirez.com/news/101"
                },
                Inline::Text("."),
            ]
        );
    }

    #[test]
    fn unclosed_markup_stays_literal() {
        assert_eq!(parse("a ` lone tick"), [Inline::Text("a ` lone tick")]);
        assert_eq!(
            parse("[not a link] here"),
            [Inline::Text("[not a link] here")]
        );
    }

    #[test]
    fn visible_text_drops_only_the_markup() {
        assert_eq!(
            visible_text("`HINCRBY`'d once — [valkey.io/commands/hincrby](https://valkey.io/commands/hincrby/)"),
            "HINCRBY'd once — valkey.io/commands/hincrby"
        );
    }

    #[test]
    fn multibyte_text_around_markup_is_kept_whole() {
        assert_eq!(
            parse("“reject” `att` ≠ §"),
            [
                Inline::Text("“reject” "),
                Inline::Code("att"),
                Inline::Text(" ≠ §")
            ]
        );
    }
}
