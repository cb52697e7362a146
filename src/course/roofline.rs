//! §1.2's compute layer, "look beyond raw FLOPS: memory bandwidth matters as much", as a roofline
//! (Williams, Waterman & Patterson, "Roofline", CACM 2009): an operation that does `I` FLOPs per
//! byte it moves through the GPU's memory runs at most at `min(peak FLOPS, I × memory bandwidth)`.
//! Below the ridge `peak / bandwidth` the memory sets the speed, and a GPU with more FLOPS but
//! less bandwidth is the slower one.
//!
//! ```
//! use allreduce_lab::course::roofline::{GPU_ROOFS, matmul_intensity};
//! let (a100, l40s) = (&GPU_ROOFS[1], &GPU_ROOFS[3]);
//! assert!(l40s.tflops > a100.tflops);
//! // A 4,096 × 4,096 weight over 64 tokens: 62 FLOPs a byte, under both ridges. The L40S, with
//! // more FLOPS and 0.86 TB/s, reaches 54 TFLOPS; the A100, with 2.04 TB/s, 127 (and a V100, with
//! // a third of the L40S's FLOPS and 0.9 TB/s, 56).
//! let i = matmul_intensity(64, 4096);
//! assert_eq!(i, 64.0 * 4096.0 / (2.0 * 64.0 + 4096.0));
//! assert!((l40s.attainable_tflops(i) - 53.6).abs() < 0.1);
//! assert!((a100.attainable_tflops(i) - 126.5).abs() < 0.1);
//! assert!(GPU_ROOFS[0].attainable_tflops(i) > l40s.attainable_tflops(i));
//! ```

/// One GPU's two roofs, from its datasheet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuRoofs {
    pub name: &'static str,
    /// Dense 16-bit tensor-core throughput (without sparsity), TFLOPS.
    pub tflops: f64,
    /// Memory bandwidth, GB/s (10⁹ bytes a second).
    pub memory_gbytes_per_sec: f64,
    /// The memory's kind, as the datasheet names it.
    pub memory: &'static str,
    /// The 16-bit format of [`tflops`](Self::tflops): BF16, or FP16 on a V100 (it has no BF16).
    pub format: &'static str,
}

/// The figure's GPUs (the SXM modules; the A100 with 80 GB). V100, A100 and H100 as in the intro's figure
/// ([`GPU_TFLOPS`](super::chapter::GPU_TFLOPS)); the L40S has more FLOPS than an A100 and
/// under half its bandwidth: the chapter's "high compute" card that memory holds back.
pub const GPU_ROOFS: [GpuRoofs; 4] = [
    GpuRoofs {
        name: "V100 SXM2",
        tflops: 125.0,
        memory_gbytes_per_sec: 900.0,
        memory: "HBM2",
        format: "FP16",
    },
    GpuRoofs {
        name: "A100 80GB",
        tflops: 312.0,
        memory_gbytes_per_sec: 2039.0,
        memory: "HBM2e",
        format: "BF16",
    },
    GpuRoofs {
        name: "H100 SXM",
        tflops: 989.0,
        memory_gbytes_per_sec: 3350.0,
        memory: "HBM3",
        format: "BF16",
    },
    GpuRoofs {
        name: "L40S",
        tflops: 362.0,
        memory_gbytes_per_sec: 864.0,
        memory: "GDDR6",
        format: "BF16",
    },
];

/// The matrix multiply's weight is `HIDDEN × HIDDEN` (one projection of a 7 B-class model's
/// layer).
pub const HIDDEN: u64 = 4096;

/// The tokens a matrix multiply takes at once that the figure offers: 1 (one token, as in
/// generating text) to 16,384 (a training micro-batch of 8 sequences of 2,048).
pub const TOKENS: [u64; 15] = [
    1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384,
];

/// Bytes moved per FLOP of an element-wise add in 16 bits (two numbers read, one written, one
/// FLOP): its intensity is 1/6 FLOP a byte.
pub const ELEMENTWISE_BYTES_PER_FLOP: f64 = 6.0;

/// FLOPs per byte of multiplying `tokens × hidden` activations by a `hidden × hidden` weight in
/// 16 bits: `2·t·h²` FLOPs over `2·(t·h + h² + t·h)` bytes (activations and weight read, the
/// result written), that is `t·h / (2t + h)`. It grows with the tokens, up to `h / 2`.
///
/// ```
/// use allreduce_lab::course::roofline::matmul_intensity;
/// assert!((matmul_intensity(1, 4096) - 1.0).abs() < 1e-3); // one token: about 1 FLOP a byte
/// assert!((matmul_intensity(4096, 4096) - 4096.0 / 3.0).abs() < 1e-9);
/// ```
pub fn matmul_intensity(tokens: u64, hidden: u64) -> f64 {
    let (t, h) = (tokens.max(1) as f64, hidden.max(1) as f64);
    t * h / (2.0 * t + h)
}

impl GpuRoofs {
    /// FLOPs per byte at which the two roofs meet.
    ///
    /// ```
    /// use allreduce_lab::course::roofline::GPU_ROOFS;
    /// assert!((GPU_ROOFS[1].ridge() - 153.0).abs() < 0.1); // A100: 312 T / 2.039 T
    /// ```
    pub fn ridge(&self) -> f64 {
        self.tflops * 1e3 / self.memory_gbytes_per_sec
    }

    /// The most TFLOPS an operation of `intensity` FLOPs a byte reaches.
    ///
    /// ```
    /// use allreduce_lab::course::roofline::GPU_ROOFS;
    /// let h100 = &GPU_ROOFS[2];
    /// assert_eq!(h100.attainable_tflops(10_000.0), 989.0); // compute-bound: the peak
    /// assert!((h100.attainable_tflops(1.0) - 3.35).abs() < 1e-9); // 1 FLOP/B × 3.35 TB/s
    /// ```
    pub fn attainable_tflops(&self, intensity: f64) -> f64 {
        (intensity * self.memory_gbytes_per_sec / 1e3).min(self.tflops)
    }

    /// The fewest tokens with which a matrix multiply of `hidden` reaches the peak, `None` when
    /// none does (the ridge at or above `hidden / 2`).
    ///
    /// ```
    /// use allreduce_lab::course::roofline::{GPU_ROOFS, matmul_intensity};
    /// let l40s = &GPU_ROOFS[3];
    /// let t = l40s.tokens_to_peak(4096).unwrap();
    /// assert_eq!(t, 527); // 419 FLOPs a byte: 527 × 4096 / (2 × 527 + 4096)
    /// assert!(matmul_intensity(t, 4096) >= l40s.ridge());
    /// assert!(matmul_intensity(t - 1, 4096) < l40s.ridge());
    /// assert_eq!(l40s.tokens_to_peak(512), None);
    /// ```
    pub fn tokens_to_peak(&self, hidden: u64) -> Option<u64> {
        let (r, h) = (self.ridge(), hidden as f64);
        if 2.0 * r >= h {
            return None;
        }
        // t·h / (2t + h) ≥ r  ⇔  t ≥ r·h / (h − 2r); the float's last bit is checked by counting.
        let mut t = (r * h / (h - 2.0 * r)).ceil().max(1.0) as u64;
        while t > 1 && matmul_intensity(t - 1, hidden) >= r {
            t -= 1;
        }
        while matmul_intensity(t, hidden) < r {
            t += 1;
        }
        Some(t)
    }
}

/// The figure's GPUs, fastest first at `intensity` (by peak FLOPS when `intensity` is infinite):
/// their indexes in [`GPU_ROOFS`]. Equals keep their order.
///
/// ```
/// use allreduce_lab::course::roofline::{by_speed_at, matmul_intensity};
/// // Ranked by peak: H100, L40S, A100, V100. A 64-token matrix multiply: the L40S falls to last,
/// // behind a V100 with a third of its FLOPS (900 GB/s against 864).
/// assert_eq!(by_speed_at(f64::INFINITY), [2, 3, 1, 0]);
/// assert_eq!(by_speed_at(matmul_intensity(64, 4096)), [2, 1, 0, 3]);
/// ```
pub fn by_speed_at(intensity: f64) -> [usize; 4] {
    let mut order = [0, 1, 2, 3];
    // The project's own stable sort: the standard library's brought 19 KB of wasm to the page.
    crate::sim::order::sort_by_key(&mut order, |&i| -GPU_ROOFS[i].attainable_tflops(intensity));
    order
}

/// Native only: proptest does not build for wasm32.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::course::chapter::GPU_TFLOPS;
    use proptest::prelude::*;

    #[test]
    fn the_intros_gpus_have_the_intros_peaks() {
        for (name, tflops) in GPU_TFLOPS {
            let roofs = (GPU_ROOFS.iter())
                .find(|g| g.name.starts_with(name))
                .expect(name);
            assert_eq!(roofs.tflops, tflops as f64, "{name}");
        }
    }

    #[test]
    fn an_elementwise_add_is_memory_bound_on_every_gpu() {
        let i = 1.0 / ELEMENTWISE_BYTES_PER_FLOP;
        for g in &GPU_ROOFS {
            assert!(i < g.ridge());
            // Under a hundredth of the peak, on every one.
            assert!(g.attainable_tflops(i) < g.tflops / 100.0, "{}", g.name);
        }
    }

    proptest! {
        /// The roofline's shape: never above either roof, on one of them, rising with the
        /// intensity; a matrix multiply's intensity rises with its tokens and stays under h/2.
        #[test]
        fn attainable_is_the_lower_roof(g in 0usize..4, i in 0.01f64..1e5, t in 1u64..100_000) {
            let g = &GPU_ROOFS[g];
            let a = g.attainable_tflops(i);
            prop_assert!(a <= g.tflops && a <= i * g.memory_gbytes_per_sec / 1e3);
            prop_assert!(a == g.tflops || a == i * g.memory_gbytes_per_sec / 1e3);
            prop_assert!(g.attainable_tflops(i * 1.5) >= a);
            prop_assert!(matmul_intensity(t + 1, HIDDEN) > matmul_intensity(t, HIDDEN));
            prop_assert!(matmul_intensity(t, HIDDEN) < HIDDEN as f64 / 2.0);
            // The tokens to the peak are the least that reach it.
            let t0 = g.tokens_to_peak(HIDDEN).unwrap();
            prop_assert_eq!(matmul_intensity(t, HIDDEN) >= g.ridge(), t >= t0);
        }
    }
}
