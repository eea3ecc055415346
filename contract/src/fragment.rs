//! The URL fragment's shareable state, as far as both wasm modules need to agree on it: the keys a
//! link carries (`#play=3&lease=10000&stall=12500&release=token&fence=35,34`), how a fragment splits
//! into them, and [`first_shared_part`], which the first wasm asks to load the lab at once and to
//! open the page at the figure a link shows. The values' meaning (steps, ranges, release names,
//! fence tokens) is the page crate's `scenarios::share`. Only a fragment with `=` is state, so the
//! section anchors `#s1`…`#s6` keep working.

/// The player's step, 0-based.
pub const PLAY: &str = "play";
/// The player's lease slider, in ms.
pub const LEASE: &str = "lease";
/// The player's stall slider, in ms.
pub const STALL: &str = "stall";
/// The player's release choice.
pub const RELEASE: &str = "release";
/// The fence's committed writes, oldest first, as a comma list of tokens.
pub const FENCE: &str = "fence";

/// Every key a link carries; each is state only the store can compute.
pub const KEYS: [&str; 5] = [PLAY, LEASE, STALL, RELEASE, FENCE];

/// A part of the page whose state a link carries, in page order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedPart {
    /// Figure 1's player: its step, lease, stall and release choice.
    Player,
    /// Figure 2: the fence's committed writes.
    Fence,
}

impl SharedPart {
    /// Both parts, in page order.
    pub const ALL: [SharedPart; 2] = [SharedPart::Player, SharedPart::Fence];

    /// The keys that carry this part's state.
    pub fn keys(self) -> &'static [&'static str] {
        match self {
            SharedPart::Player => &[PLAY, LEASE, STALL, RELEASE],
            SharedPart::Fence => &[FENCE],
        }
    }

    /// Where the page shows this part: the player's panel in figure 1, or figure 2.
    pub fn selector(self) -> String {
        match self {
            SharedPart::Player => crate::hooks::PLAYER_SELECTOR.to_string(),
            SharedPart::Fence => crate::hooks::Figure::Fence.selector(),
        }
    }
}

/// A fragment longer than this is not a link anyone made by using the page; it is ignored.
pub const MAX_LEN: usize = 1024;

/// A fragment's `key=value` pairs (with or without its `#`); none for an anchor like `#s3`, for an
/// overlong fragment, and for a part without `=`.
pub fn pairs(fragment: &str) -> impl Iterator<Item = (&str, &str)> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let is_state = fragment.contains('=') && fragment.len() <= MAX_LEN;
    is_state
        .then_some(fragment)
        .into_iter()
        .flat_map(|f| f.split('&'))
        .filter_map(|pair| pair.split_once('='))
}

/// Whether a link's fragment names state of the player or the fence ([`first_shared_part`]),
/// which only the store (the lab's figures' chunk) can show: then the page goes for that chunk
/// at once.
pub fn carries_store_state(fragment: &str) -> bool {
    first_shared_part(fragment).is_some()
}

/// The first part of the page, in page order, one of whose keys a link's fragment gives a
/// value: where the page opens for that link. A value the page will not take still counts:
/// loading the figures' chunk early costs a download, never a wrong figure.
pub fn first_shared_part(fragment: &str) -> Option<SharedPart> {
    SharedPart::ALL.into_iter().find(|part| {
        pairs(fragment).any(|(key, value)| !value.is_empty() && part.keys().contains(&key))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_anchor_or_a_bare_fragment_carries_nothing() {
        for fragment in ["", "#", "#s3", "s3", "#check", "#play", "#=", "#play="] {
            assert!(!carries_store_state(fragment), "{fragment:?}");
        }
    }

    #[test]
    fn a_key_of_the_player_or_the_fence_carries_state() {
        for fragment in [
            "#play=3",
            "lease=10000",
            "#x=1&stall=12500",
            "#release=token",
            "#fence=35,34",
        ] {
            assert!(carries_store_state(fragment), "{fragment:?}");
        }
        assert!(!carries_store_state("#theme=dark&x=1"));
    }

    #[test]
    fn a_link_opens_at_the_first_part_in_page_order_whose_state_it_carries() {
        assert_eq!(first_shared_part("#fence=35,34"), Some(SharedPart::Fence));
        assert_eq!(first_shared_part("#stall=2000"), Some(SharedPart::Player));
        assert_eq!(
            first_shared_part("#fence=35&play=4&release=token"),
            Some(SharedPart::Player)
        );
        assert_eq!(
            first_shared_part("#fence=&play=4"),
            Some(SharedPart::Player)
        );
        assert_eq!(
            first_shared_part("#play=&fence=35"),
            Some(SharedPart::Fence)
        );
        assert_eq!(first_shared_part("#s3"), None);
        let every_key: Vec<&str> = SharedPart::ALL
            .iter()
            .flat_map(|part| part.keys().iter().copied())
            .collect();
        assert_eq!(every_key, KEYS);
    }

    #[test]
    fn an_overlong_fragment_is_ignored() {
        let long = format!("#play=1&{}", "x".repeat(MAX_LEN));
        assert!(!carries_store_state(&long));
        assert_eq!(pairs(&long).count(), 0);
    }

    #[test]
    fn pairs_split_on_the_first_equals_sign() {
        let split: Vec<_> = pairs("#play=3&odd&fence=35=x").collect();
        assert_eq!(split, [("play", "3"), ("fence", "35=x")]);
    }
}
