//! 16-bit values kept two to a 32-bit word, the earlier in the low half; the high half of a last
//! word of its own is 0. A schedule's near dependency entries, a run's contributor counts, a
//! transfer's small byte distances and the distances in [`Starts`](super::starts::Starts) are
//! kept so: half the bytes of words, and words cross to another thread as they are.

/// Value `k`.
#[inline]
pub(crate) fn get(words: &[u32], k: usize) -> u32 {
    (words[k / 2] >> (16 * (k % 2))) & 0xFFFF
}

/// Sets value `k` to `x` (below 2¹⁶).
#[inline]
pub(crate) fn set(words: &mut [u32], k: usize, x: u32) {
    debug_assert!(x <= 0xFFFF);
    let (w, shift) = (&mut words[k / 2], 16 * (k % 2));
    *w = (*w & !(0xFFFF << shift)) | x << shift;
}

/// Appends `x` (below 2¹⁶) to the `len` values `words` holds.
#[inline]
pub(crate) fn push(words: &mut Vec<u32>, len: usize, x: u32) {
    debug_assert!(x <= 0xFFFF);
    if len % 2 == 0 {
        words.push(x);
    } else {
        *words.last_mut().expect("a half-filled word") |= x << 16;
    }
}

/// Whether `words` carry exactly `len` values: as many words as they take, and a lone last
/// value's high half 0 (the words came from another thread).
pub(crate) fn fit(words: &[u32], len: usize) -> bool {
    words.len() == len.div_ceil(2) && (len % 2 == 0 || words.last().is_some_and(|&w| w >> 16 == 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_go_two_to_a_word_low_half_first_and_are_taken_only_as_written() {
        let mut words = Vec::new();
        for (len, x) in [7, 0xFFFF, 1].into_iter().enumerate() {
            push(&mut words, len, x);
        }
        assert_eq!(words, [7 | 0xFFFF << 16, 1]);
        assert_eq!(
            (get(&words, 0), get(&words, 1), get(&words, 2)),
            (7, 0xFFFF, 1)
        );
        set(&mut words, 1, 3);
        set(&mut words, 2, 0xFFFF);
        assert_eq!(words, [7 | 3 << 16, 0xFFFF]);
        assert!(fit(&words, 3) && fit(&words, 4) && !fit(&words, 2) && !fit(&words, 5));
        // A lone last value's high half is 0.
        assert!(!fit(&[7, 1 | 1 << 16], 3));
        assert!(fit(&[], 0) && !fit(&[0], 0));
    }
}
