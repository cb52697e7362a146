//! How many channels a collective uses: fewer for small messages.
//!
//! A channel is one thread block on every GPU driving its own ring or tree over a share of every link.
//! NCCL starts from all its channels and, while the message is smaller than
//! `channels × threads × threshold` bytes, drops a channel (`enqueue.cc`, `topoGetAlgoInfo`): a small
//! message is not worth spreading thin. Fewer channels means fewer thread blocks copying, so each
//! channel's copy rate caps the collective — why mid sizes ramp up slowly. NVLS always uses its own
//! fixed number of channels.
//!
//! ```
//! use allreduce_sim::nccl::{channels::channels_for, protocol::{NcclAlgorithm, Protocol}};
//! // 8 ranks, Ring/LL: 64 B per thread × 8 ranks, 512 threads → 32 KiB per channel.
//! assert_eq!(channels_for(64 << 10, 24, NcclAlgorithm::Ring, Protocol::Ll, 8), 2);
//! assert_eq!(channels_for(8, 24, NcclAlgorithm::Ring, Protocol::Ll, 8), 1);
//! assert_eq!(channels_for(1 << 30, 24, NcclAlgorithm::Ring, Protocol::Simple, 8), 24);
//! ```

use super::protocol::{NcclAlgorithm, Protocol};

/// The channels NCCL uses for `bytes` with `max_channels` available.
///
/// # Examples
///
/// ```
/// use allreduce_sim::nccl::{channels::channels_for, protocol::{NcclAlgorithm, Protocol}};
/// // Simple: 64 B per thread × 512 threads = 32 KiB per channel: 1 MiB fills 32, 256 KiB 8.
/// assert_eq!(channels_for(1 << 20, 24, NcclAlgorithm::Tree, Protocol::Simple, 8), 24);
/// assert_eq!(channels_for(256 << 10, 24, NcclAlgorithm::Tree, Protocol::Simple, 8), 8);
/// assert_eq!(channels_for(8, 16, NcclAlgorithm::Nvls, Protocol::Simple, 8), 16); // NVLS keeps its own
/// ```
pub fn channels_for(
    bytes: u64,
    max_channels: usize,
    algorithm: NcclAlgorithm,
    protocol: Protocol,
    ranks: usize,
) -> usize {
    let mut nc = max_channels.max(1) as u64;
    if algorithm == NcclAlgorithm::Nvls {
        return nc as usize;
    }
    let per_channel = protocol.max_threads() * protocol.thread_threshold(algorithm, ranks.max(1));
    while nc >= 2 && bytes < nc * per_channel {
        nc -= 1;
    }
    nc as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_never_decrease_with_size() {
        for p in Protocol::ALL {
            let mut last = 0;
            for shift in 0..36 {
                let c = channels_for(1u64 << shift, 32, NcclAlgorithm::Ring, p, 16);
                assert!(c >= last && (1..=32).contains(&c));
                last = c;
            }
        }
    }
}
