//! Markup as a string, for a part whose live side needs no view library (the player, figure 2's
//! parts, the lock checker, the readouts): one function renders it, the build puts the string in the prerendered page and the lab chunk puts
//! it in the DOM (`innerHTML`), so the two cannot drift. Text and attribute values are escaped
//! here, and only here.

/// An HTML fragment being written.
#[derive(Default)]
pub struct Markup(String);

impl Markup {
    /// An empty fragment.
    pub fn new() -> Self {
        Markup(String::new())
    }

    /// `<tag name="value" …>`; an empty value writes the attribute bare (`data-check`).
    pub fn open(&mut self, tag: &str, attributes: &[(&str, &str)]) -> &mut Self {
        self.0.push('<');
        self.0.push_str(tag);
        for (name, value) in attributes {
            self.0.push(' ');
            self.0.push_str(name);
            if !value.is_empty() {
                self.0.push_str("=\"");
                escape_into(&mut self.0, value, true);
                self.0.push('"');
            }
        }
        self.0.push('>');
        self
    }

    /// `</tag>`.
    pub fn close(&mut self, tag: &str) -> &mut Self {
        self.0.push_str("</");
        self.0.push_str(tag);
        self.0.push('>');
        self
    }

    /// Text, escaped.
    pub fn text(&mut self, text: &str) -> &mut Self {
        escape_into(&mut self.0, text, false);
        self
    }

    /// `<tag …>text</tag>`.
    pub fn element(&mut self, tag: &str, attributes: &[(&str, &str)], text: &str) -> &mut Self {
        self.open(tag, attributes).text(text).close(tag)
    }

    /// Markup another function wrote.
    pub fn append(&mut self, markup: Markup) -> &mut Self {
        self.0.push_str(&markup.0);
        self
    }

    /// The fragment.
    pub fn finish(self) -> String {
        self.0
    }
}

/// `"true"` or `"false"`: an ARIA state's value.
pub fn truth(value: bool) -> &'static str {
    if value {
        "true"
    } else {
        "false"
    }
}

/// `&`, `<` and `>` as character references, and `"` too in a (double-quoted) attribute value.
fn escape_into(out: &mut String, text: &str, in_value: bool) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if in_value => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

/// Markup with each tag's attributes sorted, bare and empty values alike and Leptos's `<!>`
/// markers gone: what the tests compare when they hold a view's markup equal to this module's.
#[cfg(test)]
pub fn normalized(html: &str) -> String {
    let html = html.replace("<!>", "");
    let mut out = String::new();
    let mut rest = html.as_str();
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let end = start + rest[start..].find('>').expect("a closed tag");
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('/') || tag.starts_with('!') {
            out.push_str(&format!("<{tag}>"));
            continue;
        }
        let (name, attributes) = tag.split_once(' ').unwrap_or((tag, ""));
        let mut parts = Vec::new();
        let mut chars = attributes.trim().chars().peekable();
        while chars.peek().is_some() {
            let mut part = String::new();
            let mut quoted = false;
            for c in chars.by_ref() {
                if c == '"' {
                    quoted = !quoted;
                } else if c == ' ' && !quoted {
                    break;
                }
                part.push(c);
            }
            if !part.is_empty() {
                parts.push(part.trim_end_matches("=\"\"").to_string());
            }
        }
        parts.sort();
        out.push('<');
        out.push_str(name);
        for part in parts {
            out.push(' ');
            out.push_str(&part);
        }
        out.push('>');
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::Markup;

    #[test]
    fn text_and_values_are_escaped_and_an_empty_value_is_written_bare() {
        let mut m = Markup::new();
        m.open("p", &[("data-check", ""), ("title", "a \"b\" & <c>")])
            .text("x < y && z > \"w\"")
            .close("p");
        assert_eq!(
            m.finish(),
            r#"<p data-check title="a &quot;b&quot; &amp; &lt;c&gt;">x &lt; y &amp;&amp; z &gt; "w"</p>"#
        );
    }
}

#[cfg(test)]
mod normalized_tests {
    #[test]
    fn attribute_order_bare_values_and_markers_do_not_count() {
        assert_eq!(
            super::normalized(r#"<p class="a b" data-x="">t<!></p>"#),
            super::normalized(r#"<p data-x class="a b">t</p>"#)
        );
    }
}
