//! The store's deterministic random numbers (HRANDFIELD, ZRANDMEMBER, …): Redis draws from a
//! real random source; here a seedable SplitMix64 makes a page run reproducible.

/// A SplitMix64 generator.
#[derive(Debug, Clone)]
pub(crate) struct Rng(u64);

/// The seed of a fresh store.
const DEFAULT_SEED: u64 = 0x6c6f_636b_6469_7665;

impl Default for Rng {
    fn default() -> Rng {
        Rng(DEFAULT_SEED)
    }
}

impl Rng {
    /// A generator that starts from `seed`.
    pub(crate) fn seeded(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The generator's whole state: equal states draw the same numbers from here on.
    pub(crate) fn state(&self) -> u64 {
        self.0
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform index below `n` (`n > 0`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        let n = n.max(1) as u64;
        // Multiply-shift: unbiased enough for sampling and free of division.
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as usize
    }

    /// `count` distinct indices below `n` (`count <= n`), in random order.
    pub(crate) fn distinct(&mut self, n: usize, count: usize) -> Vec<usize> {
        let mut all: Vec<usize> = (0..n).collect();
        let count = count.min(n);
        for i in 0..count {
            let j = i + self.below(n - i);
            all.swap(i, j);
        }
        all.truncate(count);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn the_same_seed_gives_the_same_draws() {
        let mut a = Rng::seeded(7);
        let mut b = Rng::seeded(7);
        assert_eq!(a.next_u64(), b.next_u64());
        let picks = a.distinct(10, 4);
        assert_eq!(picks, b.distinct(10, 4));
        let mut sorted = picks.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 4);
        assert!(picks.iter().all(|&i| i < 10));
    }
}
