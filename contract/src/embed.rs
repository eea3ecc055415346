//! What the page and a framing host say to each other: the height message the page posts to its
//! parent (`{type: "lockdive:height", height}`), the host's theme and font messages
//! (`{type: "lockdive:theme", theme}`, `{type: "lockdive:font", font}`) and the allow-list of origins
//! they are taken from (`?host-origin=` or `<meta name="lockdive:host-origin">`), the performance marks
//! the benchmark times, and the rule for a host's font stack. The first wasm (`lockdive-first`'s
//! `embed`) does the talking; embed mode itself (`?embed=1`) is applied by index.html's head script.

use crate::theme::ThemeChoice;

/// The `type` field of the height message a host listens for.
pub const HEIGHT_MESSAGE: &str = "lockdive:height";

/// The `type` of the host's theme message: `{type: "lockdive:theme", theme: "light" | "dark" | "system"}`.
pub const THEME_MESSAGE: &str = "lockdive:theme";

/// The `type` of the host's font message: `{type: "lockdive:font", font: "<font stack>"}`.
pub const FONT_MESSAGE: &str = "lockdive:font";

/// The query parameter naming the origins whose messages the page follows: `?host-origin=a,b`.
pub const HOST_ORIGIN_PARAM: &str = "host-origin";

/// The `<meta name=…>` naming them when the query does not: `content="https://learn.example.org"`.
pub const HOST_ORIGIN_META: &str = "lockdive:host-origin";

/// The meta tag, as a selector.
pub const HOST_ORIGIN_SELECTOR: &str = "meta[name=\"lockdive:host-origin\"]";

/// The one rule for a host's font stack, from `?font=` (the head script in `index.html` tests it
/// with this very regular expression, written out there; a unit test holds the two equal) or from a
/// font message (the first wasm tests it with a `RegExp` built from this string): plain family names
/// only, so a value can never close the custom property and smuggle in CSS.
pub const HOST_FONT_PATTERN: &str = r#"^[A-Za-z0-9 ,'"_-]{1,200}$"#;

/// The performance mark set once the figures answer the pointer and keyboard.
pub const INTERACTIVE_MARK: &str = "lockdive:interactive";

/// The element whose height is the content height: the page's `<main>`.
pub const CONTENT_SELECTOR: &str = "main.dive";

/// The height a host should give its iframe for content measuring `css_px` (rounded up, so the
/// frame never cuts the last sub-pixel line and never shows a scrollbar).
pub fn frame_height(css_px: f64) -> u32 {
    if css_px.is_finite() && css_px > 0.0 {
        css_px.ceil().min(f64::from(u32::MAX)) as u32
    } else {
        0
    }
}

/// The origins whose messages the page follows, from the `?host-origin=` value if the query has
/// one (even a malformed one: it never falls back to a wider list), else from the meta tag's content.
/// Empty: the page follows no host.
pub fn choose_host_origins(query: Option<&str>, meta: Option<&str>) -> Vec<String> {
    query.or(meta).map(parse_host_origins).unwrap_or_default()
}

/// A comma-separated list of origins, each exactly as the host's `location.origin` prints it
/// (`https://learn.example.org`, `http://127.0.0.1:8080`: http or https, a lower-case host, a port
/// only if not the scheme's default, no path or trailing slash), spaces around commas allowed. One
/// malformed entry — a wildcard, a path, `null`, an empty entry — makes the whole list accept
/// nothing, so a typo fails closed.
pub fn parse_host_origins(list: &str) -> Vec<String> {
    let entries: Option<Vec<String>> = list
        .split(',')
        .map(|entry| {
            let entry = entry.trim();
            is_serialized_origin(entry).then(|| entry.to_string())
        })
        .collect();
    entries.unwrap_or_default()
}

/// Whether `entry` is an http(s) origin in the form browsers serialize it (`MessageEvent.origin`).
fn is_serialized_origin(entry: &str) -> bool {
    let Some((scheme, authority)) = entry.split_once("://") else {
        return false;
    };
    let default_port = match scheme {
        "https" => "443",
        "http" => "80",
        _ => return false,
    };
    let (host, port) = match authority.rsplit_once(':') {
        // An IPv6 host without a port: its colons are inside the brackets.
        Some((host, port)) if !port.contains(']') => (host, Some(port)),
        _ => (authority, None),
    };
    // Digits by hand, not `str::parse`: its generic code would weigh on the first wasm.
    let port_ok = port.is_none_or(|port| {
        (1..=5).contains(&port.len())
            && !port.starts_with('0')
            && port != default_port
            && port.bytes().all(|b| b.is_ascii_digit())
            && port.bytes().fold(0u32, |n, b| n * 10 + u32::from(b - b'0')) <= u32::from(u16::MAX)
    });
    let host_ok = if let Some(inner) = host.strip_prefix('[') {
        inner.strip_suffix(']').is_some_and(|ip| {
            !ip.is_empty()
                && ip
                    .bytes()
                    .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f' | b':' | b'.'))
        })
    } else {
        !host.is_empty()
            && host.split('.').all(|label| {
                !label.is_empty()
                    && label
                        .bytes()
                        .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-'))
            })
    };
    port_ok && host_ok
}

/// What a host's message asks for, once its sender has passed the origin check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostMessage {
    Theme(ThemeChoice),
    /// A font stack, not yet checked against [`HOST_FONT_PATTERN`] (the browser's regular
    /// expressions check it, as they check `?font=`).
    Font(String),
}

impl HostMessage {
    /// Reads a message from its `type` and its `theme` and `font` fields; `None` for an unknown
    /// type or a value of the wrong kind, which the page ignores without a word.
    pub fn read(kind: Option<&str>, theme: Option<&str>, font: Option<String>) -> Option<Self> {
        match kind? {
            THEME_MESSAGE => ThemeChoice::from_key(theme?).map(HostMessage::Theme),
            FONT_MESSAGE => font.map(HostMessage::Font),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frame_height_rounds_up_so_no_line_is_cut() {
        assert_eq!(frame_height(1234.01), 1235);
        assert_eq!(frame_height(1234.0), 1234);
    }

    #[test]
    fn a_nonsense_measure_asks_for_no_height() {
        assert_eq!(frame_height(f64::NAN), 0);
        assert_eq!(frame_height(-3.0), 0);
        assert_eq!(frame_height(f64::INFINITY), 0);
    }

    #[test]
    fn the_head_script_checks_a_query_font_with_the_same_rule_as_a_font_message() {
        let head_script = include_str!("../../index.html");
        assert!(
            head_script.contains(&format!("/{HOST_FONT_PATTERN}/.test(font)")),
            "index.html's head script must test ?font= with /{HOST_FONT_PATTERN}/"
        );
    }

    #[test]
    fn the_meta_selector_names_the_meta_tag() {
        assert_eq!(
            HOST_ORIGIN_SELECTOR,
            format!("meta[name=\"{HOST_ORIGIN_META}\"]")
        );
        assert!(include_str!("../../index.html")
            .contains(&format!("<meta name=\"{HOST_ORIGIN_META}\"")));
    }

    #[test]
    fn an_allow_list_takes_origins_as_browsers_print_them() {
        assert_eq!(
            parse_host_origins("https://learn.example.org"),
            ["https://learn.example.org"]
        );
        assert_eq!(
            parse_host_origins(" https://a.example , http://127.0.0.1:8080,http://[::1]:3000 "),
            [
                "https://a.example",
                "http://127.0.0.1:8080",
                "http://[::1]:3000"
            ]
        );
        assert_eq!(parse_host_origins("https://[::1]"), ["https://[::1]"]);
        assert_eq!(
            parse_host_origins("http://localhost:65535"),
            ["http://localhost:65535"]
        );
    }

    #[test]
    fn one_malformed_entry_makes_the_allow_list_accept_nothing() {
        for list in [
            "",
            " ",
            "*",
            "null",
            "https://*.example.org",
            "https://learn.example.org/",
            "https://learn.example.org/course",
            "https://Learn.example.org",
            "HTTPS://learn.example.org",
            "https://learn.example.org:443",
            "http://learn.example.org:80",
            "https://learn.example.org:0443",
            "https://learn.example.org:",
            "https://learn.example.org:99999",
            "https://learn.example.org:65536",
            "https://learn.example.org:123456",
            "https://learn.example.org:8o80",
            "https://learn..example.org",
            "https://user@learn.example.org",
            "https://learn.example.org?x",
            "learn.example.org",
            "//learn.example.org",
            "javascript://learn.example.org",
            "file://",
            "https://",
            "https://ok.example,",
            "https://ok.example,,https://also.example",
            "https://ok.example,https://bad.example/",
            "https://ok.example https://also.example",
            "https://[::1",
            "https://[]",
        ] {
            assert!(
                parse_host_origins(list).is_empty(),
                "{list:?} should accept nothing"
            );
        }
    }

    #[test]
    fn the_query_allow_list_wins_over_the_meta_tag_and_never_falls_back_to_it() {
        let meta = Some("https://meta.example");
        assert_eq!(
            choose_host_origins(Some("https://query.example"), meta),
            ["https://query.example"]
        );
        assert_eq!(choose_host_origins(None, meta), ["https://meta.example"]);
        assert!(choose_host_origins(Some("*"), meta).is_empty());
        assert!(choose_host_origins(Some(""), meta).is_empty());
        assert!(choose_host_origins(None, Some("")).is_empty());
        assert!(choose_host_origins(None, None).is_empty());
    }

    #[test]
    fn a_host_message_is_read_only_when_its_type_and_value_are_known() {
        let font = || Some("Georgia, serif".to_string());
        assert_eq!(
            HostMessage::read(Some(THEME_MESSAGE), Some("dark"), None),
            Some(HostMessage::Theme(ThemeChoice::Dark))
        );
        assert_eq!(
            HostMessage::read(Some(THEME_MESSAGE), Some("system"), font()),
            Some(HostMessage::Theme(ThemeChoice::System))
        );
        assert_eq!(
            HostMessage::read(Some(FONT_MESSAGE), Some("dark"), font()),
            Some(HostMessage::Font("Georgia, serif".into()))
        );
        assert_eq!(
            HostMessage::read(Some(THEME_MESSAGE), Some("sepia"), None),
            None
        );
        assert_eq!(
            HostMessage::read(Some(THEME_MESSAGE), Some("Dark"), None),
            None
        );
        assert_eq!(HostMessage::read(Some(THEME_MESSAGE), None, font()), None);
        assert_eq!(
            HostMessage::read(Some(FONT_MESSAGE), Some("dark"), None),
            None
        );
        assert_eq!(
            HostMessage::read(Some(HEIGHT_MESSAGE), Some("dark"), font()),
            None
        );
        assert_eq!(
            HostMessage::read(Some("lockdive:reset"), Some("dark"), font()),
            None
        );
        assert_eq!(HostMessage::read(None, Some("dark"), font()), None);
    }
}
