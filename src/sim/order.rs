//! Stable sorting by a number, with one compiled sort for the whole program.
//!
//! The standard library's stable sort is generic: every call site with its own element type or
//! comparison compiles a copy of it, about 4 KB of WebAssembly each (measured with `twiggy` on the
//! page's wasm: 16 copies, 67 KB of the 1.66 MB). The sorts here sort the keys' order once, in a
//! single copy ([`order_by_key`]); what each call site compiles is only the small loop that reads
//! its keys and moves its elements. The order is exactly the standard stable sort's with
//! `f64::total_cmp` on the keys: equal keys keep their order.
//!
//! Also [`max_num`], `f64::max` without the call it is on WebAssembly.

/// Whether time `t` is as fast as `best`, to rounding: no more than a relative 1e-9 above it
/// (the noise of the same times summed in another order). The one tie rule of `auto`'s reason
/// ([`AutoChoice::tied`](crate::scenario::AutoChoice::tied)) and of the NCCL model's
/// ([`Choice::tied`](crate::nccl::model::Choice::tied)).
///
/// ```
/// use allreduce_sim::order::as_fast;
/// assert!(as_fast(4e-4 * (1.0 + 1e-15), 4e-4) && as_fast(3e-4, 4e-4));
/// assert!(!as_fast(4.001e-4, 4e-4));
/// ```
pub fn as_fast(t: f64, best: f64) -> bool {
    t <= best * (1.0 + 1e-9)
}

/// The indexes of `keys` in the order of a stable sort by [`f64::total_cmp`].
///
/// ```
/// use allreduce_sim::order::order_by_key;
/// assert_eq!(order_by_key(&[3.0, 1.0, 2.0, 1.0]), [1, 3, 2, 0]);
/// ```
pub fn order_by_key(keys: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
    order
}

/// Sorts `v` by `key`, stably, as `v.sort_by(|a, b| key(a).total_cmp(&key(b)))` would. Integer
/// keys below 2⁵³ (GPU counts, byte sizes, transfer counts) are exact as `f64`.
///
/// ```
/// use allreduce_sim::order::sort_by_key;
/// let mut v = [(2, 'a'), (1, 'b'), (2, 'c'), (0, 'd')];
/// sort_by_key(&mut v, |p| p.0 as f64);
/// assert_eq!(v, [(0, 'd'), (1, 'b'), (2, 'a'), (2, 'c')]);
/// ```
pub fn sort_by_key<T>(v: &mut [T], key: impl Fn(&T) -> f64) {
    let keys: Vec<f64> = v.iter().map(key).collect();
    let order = order_by_key(&keys);
    // Position i takes the element first at order[i]. Those before i are in place; if order[i]
    // is one of them, its element has since moved to where that position's own source was:
    // follow the chain until it leads past i.
    for i in 0..order.len() {
        let mut j = order[i];
        while j < i {
            j = order[j];
        }
        v.swap(i, j);
    }
}

/// `x.max(y)`, as WebAssembly computes it, in two comparisons: the larger, or the other one when
/// one is NaN. WebAssembly's own `f64.max` gives NaN for a NaN, so there `f64::max` is a call to
/// `fmax` (perf, the chart's 1,024-GPU ring in Node's V8: `fmax` was 1.4 % of the run, called from
/// the network's rates and the event loop). Of two zeros it gives `x`, as `fmax` does.
///
/// ```
/// use allreduce_sim::order::max_num;
/// assert_eq!(max_num(1.0, 2.0), 2.0);
/// assert_eq!(max_num(-3.0, 0.0), 0.0);
/// assert_eq!(max_num(f64::NAN, 0.0), 0.0);
/// assert_eq!(max_num(5.0, f64::NAN), 5.0);
/// ```
#[inline]
pub fn max_num(x: f64, y: f64) -> f64 {
    if x.is_nan() || x < y { y } else { x }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_num_is_f64_max_apart_from_the_sign_of_zero() {
        let values = [
            f64::NEG_INFINITY,
            -1e300,
            -2.5,
            -f64::MIN_POSITIVE,
            0.0,
            f64::MIN_POSITIVE,
            1e-300,
            1.0,
            2.5,
            1e300,
            f64::INFINITY,
            f64::NAN,
        ];
        for x in values {
            for y in values {
                let (ours, std) = (max_num(x, y), x.max(y));
                assert!(ours == std || (ours.is_nan() && std.is_nan()), "{x} {y}");
            }
        }
        // Of two zeros, the first, as WebAssembly's `fmax` gives it.
        assert!(max_num(-0.0, 0.0).is_sign_negative() && max_num(0.0, -0.0).is_sign_positive());
    }

    #[test]
    fn sorts_as_the_standard_stable_sort() {
        // 2,000 sequences of up to 40 keys out of 6 values: many ties, whose order must be kept.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 41) as usize;
            let mut ours: Vec<(u64, usize)> =
                (0..len).map(|i| ((x >> (i % 20 * 3)) % 6, i)).collect();
            let mut std = ours.clone();
            sort_by_key(&mut ours, |p| p.0 as f64);
            std.sort_by_key(|p| p.0);
            assert_eq!(ours, std);
        }
    }

    #[test]
    fn orders_negative_zero_and_nan_as_total_cmp_does() {
        let keys = [f64::NAN, 0.0, -0.0, f64::NEG_INFINITY, 1.0];
        let mut std: Vec<usize> = (0..keys.len()).collect();
        std.sort_by(|&a, &b| keys[a].total_cmp(&keys[b]));
        assert_eq!(order_by_key(&keys), std);
    }
}
