//! The crate's one sort. Each call of the standard library's `sort*` with another element type
//! or comparator is another copy of the whole sort in the wasm (3–4 KB each), so ministore
//! sorts through [`sort_by`]: its generic part only compares and moves elements, and the sort
//! itself, [`sorted_order`], is compiled once.

use std::cmp::Ordering;

/// Sorts `items` by `compare`, stably: elements that compare equal keep their order.
/// `compare` must be a total order, as for the standard library's sorts.
pub(crate) fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    let order = sorted_order(items.len(), &mut |a, b| compare(&items[a], &items[b]));
    permute(items, order);
}

/// The positions `0..n` in the order `compare` puts them, ties in position order. With that
/// tie-break no two positions compare equal, so the unstable sort it uses gives the stable
/// order.
#[inline(never)]
fn sorted_order(n: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_unstable_by(|&a, &b| compare(a, b).then(a.cmp(&b)));
    order
}

/// Rearranges `items` so that position `k` holds what was at `order[k]`, following each cycle
/// of the permutation with swaps; `order` is a permutation of `0..items.len()`.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..order.len() {
        let mut at = start;
        loop {
            let from = order[at];
            // A visited position points at itself, so each cycle is followed once.
            order[at] = at;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sort_by;

    #[test]
    fn sorts_like_the_standard_stable_sort() {
        // Pairs sorted by their first half only, so the second half shows stability.
        let mut seed = 12345u64;
        for len in 0..60 {
            let items: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 60) as u8, i)
                })
                .collect();
            let mut ours = items.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = items.clone();
            std.sort_by_key(|item| item.0);
            assert_eq!(ours, std);
            let mut ours = items.clone();
            sort_by(&mut ours, |a, b| b.0.cmp(&a.0));
            let mut std = items;
            std.sort_by_key(|item| std::cmp::Reverse(item.0));
            assert_eq!(ours, std);
        }
    }
}
