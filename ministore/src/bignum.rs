//! Just enough of an unsigned big integer for exact decimal↔binary conversion: reading a
//! decimal number into an `f64` or an 80-bit `long double` (`float_parse`, `longdouble`) and
//! printing a `long double` with `%.17Lf`.

use std::cmp::Ordering;

/// An unsigned integer in little-endian 32-bit limbs, without high zero limbs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BigUint(Vec<u32>);

impl BigUint {
    pub(crate) fn from_u64(n: u64) -> BigUint {
        let mut limbs = vec![n as u32, (n >> 32) as u32];
        trim(&mut limbs);
        BigUint(limbs)
    }

    /// `5^exponent`.
    pub(crate) fn pow5(exponent: u64) -> BigUint {
        let mut power = BigUint::from_u64(1);
        power.mul_pow5(exponent);
        power
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.0.is_empty()
    }

    pub(crate) fn low_u64(&self) -> u64 {
        let low = u64::from(self.0.first().copied().unwrap_or(0));
        let high = u64::from(self.0.get(1).copied().unwrap_or(0));
        low | (high << 32)
    }

    /// The low 128 bits.
    pub(crate) fn low_u128(&self) -> u128 {
        self.0
            .iter()
            .take(4)
            .rev()
            .fold(0, |acc, &limb| (acc << 32) | u128::from(limb))
    }

    pub(crate) fn is_odd(&self) -> bool {
        self.0.first().is_some_and(|l| l & 1 == 1)
    }

    pub(crate) fn bit_len(&self) -> usize {
        match self.0.last() {
            None => 0,
            Some(top) => (self.0.len() - 1) * 32 + (32 - top.leading_zeros() as usize),
        }
    }

    /// `self = self * factor + addend`, in place.
    pub(crate) fn mul_small_add(&mut self, factor: u32, addend: u32) {
        let mut carry = u64::from(addend);
        for limb in &mut self.0 {
            let product = u64::from(*limb) * u64::from(factor) + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
        trim(&mut self.0);
    }

    /// `self *= 5^exponent`, in place.
    pub(crate) fn mul_pow5(&mut self, exponent: u64) {
        // The largest power of five in a limb.
        const FIVE_TO_THE_13: u32 = 1_220_703_125;
        for _ in 0..exponent / 13 {
            self.mul_small_add(FIVE_TO_THE_13, 0);
        }
        self.mul_small_add(5u32.pow((exponent % 13) as u32), 0);
    }

    pub(crate) fn mul(&self, other: &BigUint) -> BigUint {
        let mut limbs = vec![0u32; self.0.len() + other.0.len() + 1];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in other.0.iter().enumerate() {
                let at = u64::from(limbs[i + j]) + u64::from(a) * u64::from(b) + carry;
                limbs[i + j] = at as u32;
                carry = at >> 32;
            }
            let mut k = i + other.0.len();
            while carry > 0 {
                let at = u64::from(limbs[k]) + carry;
                limbs[k] = at as u32;
                carry = at >> 32;
                k += 1;
            }
        }
        trim(&mut limbs);
        BigUint(limbs)
    }

    pub(crate) fn add(&self, other: &BigUint) -> BigUint {
        let len = self.0.len().max(other.0.len()) + 1;
        let mut limbs = Vec::with_capacity(len);
        let mut carry = 0u64;
        for i in 0..len {
            let sum = u64::from(self.0.get(i).copied().unwrap_or(0))
                + u64::from(other.0.get(i).copied().unwrap_or(0))
                + carry;
            limbs.push(sum as u32);
            carry = sum >> 32;
        }
        trim(&mut limbs);
        BigUint(limbs)
    }

    /// `self - other`, for `self >= other`.
    pub(crate) fn sub(&self, other: &BigUint) -> BigUint {
        let mut difference = self.clone();
        difference.sub_assign(other);
        difference
    }

    /// `self -= other`, in place, for `self >= other`.
    fn sub_assign(&mut self, other: &BigUint) {
        let mut borrow = 0i64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let mut diff =
                i64::from(*limb) - i64::from(other.0.get(i).copied().unwrap_or(0)) - borrow;
            borrow = 0;
            if diff < 0 {
                diff += 1 << 32;
                borrow = 1;
            }
            *limb = diff as u32;
        }
        trim(&mut self.0);
    }

    pub(crate) fn shl(&self, bits: usize) -> BigUint {
        if self.0.is_empty() {
            return self.clone();
        }
        let (whole, part) = (bits / 32, bits % 32);
        let mut limbs = vec![0u32; whole];
        let mut carry = 0u32;
        for &limb in &self.0 {
            if part == 0 {
                limbs.push(limb);
            } else {
                limbs.push((limb << part) | carry);
                carry = limb >> (32 - part);
            }
        }
        limbs.push(carry);
        trim(&mut limbs);
        BigUint(limbs)
    }

    /// `(self >> bits, self mod 2^bits)`.
    pub(crate) fn split_low_bits(&self, bits: usize) -> (BigUint, BigUint) {
        let (whole, part) = (bits / 32, bits % 32);
        let mut low: Vec<u32> = self.0.iter().take(whole).copied().collect();
        if part > 0 {
            if let Some(&limb) = self.0.get(whole) {
                low.push(limb & ((1u32 << part) - 1));
            }
        }
        trim(&mut low);
        let mut high = Vec::new();
        for i in whole..self.0.len() {
            let limb = self.0[i];
            let next = self.0.get(i + 1).copied().unwrap_or(0);
            if part == 0 {
                high.push(limb);
            } else {
                high.push((limb >> part) | (next << (32 - part)));
            }
        }
        trim(&mut high);
        (BigUint(high), BigUint(low))
    }

    /// The quotient and whether a remainder is left: schoolbook long division a 32-bit limb
    /// at a time (Knuth's algorithm D, as in Hacker's Delight's `divmnu`).
    pub(crate) fn div_rem_is_nonzero(&self, divisor: &BigUint) -> (BigUint, bool) {
        assert!(!divisor.is_zero(), "division by zero");
        if self < divisor {
            return (BigUint(Vec::new()), !self.is_zero());
        }
        const BASE: u64 = 1 << 32;
        if let [single] = divisor.0[..] {
            let single = u64::from(single);
            let mut remainder = 0u64;
            let mut quotient = self.0.clone();
            for limb in quotient.iter_mut().rev() {
                let current = (remainder << 32) | u64::from(*limb);
                *limb = (current / single) as u32;
                remainder = current % single;
            }
            trim(&mut quotient);
            return (BigUint(quotient), remainder != 0);
        }
        // Both shifted so the divisor's top limb has its high bit set: then each quotient limb
        // estimated from the top two limbs is at most two too large.
        let shift = divisor
            .0
            .last()
            .map_or(0, |top| top.leading_zeros() as usize);
        let divisor = divisor.shl(shift).0;
        let mut rest = self.shl(shift).0;
        rest.push(0);
        let n = divisor.len();
        let (top, next) = (u64::from(divisor[n - 1]), u64::from(divisor[n - 2]));
        let mut quotient = vec![0u32; rest.len() - n];
        for j in (0..quotient.len()).rev() {
            let numerator = (u64::from(rest[j + n]) << 32) | u64::from(rest[j + n - 1]);
            let mut estimate = numerator / top;
            let mut estimate_rest = numerator % top;
            while estimate >= BASE
                || estimate * next > (estimate_rest << 32) | u64::from(rest[j + n - 2])
            {
                estimate -= 1;
                estimate_rest += top;
                if estimate_rest >= BASE {
                    break;
                }
            }
            // rest[j..=j+n] -= estimate × divisor.
            let (mut carry, mut borrow) = (0u64, 0i64);
            for (i, &limb) in divisor.iter().enumerate() {
                let product = estimate * u64::from(limb) + carry;
                carry = product >> 32;
                let difference = i64::from(rest[i + j]) - borrow - (product & 0xffff_ffff) as i64;
                rest[i + j] = difference as u32;
                borrow = i64::from(difference < 0);
            }
            let difference = i64::from(rest[j + n]) - borrow - carry as i64;
            rest[j + n] = difference as u32;
            if difference < 0 {
                // One too many: add the divisor back.
                estimate -= 1;
                let mut carry = 0u64;
                for (i, &limb) in divisor.iter().enumerate() {
                    let sum = u64::from(rest[i + j]) + u64::from(limb) + carry;
                    rest[i + j] = sum as u32;
                    carry = sum >> 32;
                }
                rest[j + n] = rest[j + n].wrapping_add(carry as u32);
            }
            quotient[j] = estimate as u32;
        }
        trim(&mut quotient);
        (BigUint(quotient), rest.iter().any(|&limb| limb != 0))
    }

    pub(crate) fn to_decimal(&self) -> String {
        if self.0.is_empty() {
            return "0".to_string();
        }
        let mut chunks = Vec::new();
        let mut rest = self.0.clone();
        while !rest.is_empty() {
            let mut remainder = 0u64;
            for limb in rest.iter_mut().rev() {
                let current = (remainder << 32) | u64::from(*limb);
                *limb = (current / 1_000_000_000) as u32;
                remainder = current % 1_000_000_000;
            }
            trim(&mut rest);
            chunks.push(remainder);
        }
        let mut text = String::new();
        for (i, chunk) in chunks.iter().rev().enumerate() {
            if i == 0 {
                text.push_str(&chunk.to_string());
            } else {
                text.push_str(&format!("{chunk:09}"));
            }
        }
        text
    }
}

impl PartialOrd for BigUint {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for BigUint {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

fn trim(limbs: &mut Vec<u32>) {
    while limbs.last() == Some(&0) {
        limbs.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Where `n / d` goes wrong: unless `q × d <= n < (q + 1) × d` and the remainder flag
    /// says whether `q × d < n`, the quotient and flag it gave.
    fn division_error(n: &[u32], d: &[u32]) -> Option<(BigUint, bool)> {
        let (n, d) = (BigUint(n.to_vec()), BigUint(d.to_vec()));
        let (quotient, nonzero) = n.div_rem_is_nonzero(&d);
        let below = quotient.mul(&d);
        let right = below <= n
            && quotient.add(&BigUint::from_u64(1)).mul(&d) > n
            && nonzero == (below != n);
        (!right).then_some((quotient, nonzero))
    }

    #[test]
    fn division_adds_back_when_an_estimate_is_one_too_many() {
        // Hacker's Delight's test cases for `divmnu` that need the add-back step.
        let cases: [(&[u32], &[u32]); 4] = [
            (&[3, 0, 0x8000_0000], &[1, 0, 0x2000_0000]),
            (&[0, 0, 0x8000, 0x7fff], &[1, 0, 0x8000]),
            (&[0, 0xfffe, 0, 0x8000], &[0xffff, 0, 0x8000]),
            (
                &[0, 0xffff_fffe, 0, 0x8000_0000],
                &[0xffff_ffff, 0, 0x8000_0000],
            ),
        ];
        for (n, d) in cases {
            assert_eq!(division_error(n, d), None, "{n:x?} / {d:x?}");
        }
    }

    /// Limbs rich in the values that make long division's estimates go wrong.
    fn limbs() -> impl Strategy<Value = Vec<u32>> {
        let limb = prop_oneof![
            prop::sample::select(&[0, 1, 0x7fff_ffff, 0x8000_0000, 0xffff_fffe, 0xffff_ffff][..]),
            any::<u32>(),
        ];
        prop::collection::vec(limb, 0..7).prop_map(|mut limbs| {
            trim(&mut limbs);
            limbs
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2048, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn division_brackets_the_dividend(n in limbs(), d in limbs()) {
            let d = if d.is_empty() { vec![1] } else { d };
            prop_assert_eq!(division_error(&n, &d), None);
        }
    }

    #[test]
    fn powers_of_five_match_u128_and_multiply() {
        for exponent in 0..=55 {
            assert_eq!(
                BigUint::pow5(exponent).low_u128(),
                5u128.pow(exponent as u32)
            );
        }
        let product = BigUint::pow5(300).mul(&BigUint::pow5(77));
        assert_eq!(BigUint::pow5(377), product);
        assert_eq!(BigUint::pow5(27).to_decimal(), "7450580596923828125");
    }
}
