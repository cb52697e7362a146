//! A hint that memory will be read soon, so that a run can ask for what an event will need an
//! event or two before it needs it.
//!
//! A large run's per-transfer records (the transfer, its dependents, its times, the receiver's
//! cells) are each a cache miss, and the run's events read them in a chain: a transfer's
//! dependents, then their counts, then their records. Asked for ahead, they arrive while other
//! events run. The hint changes no value: only when the bytes arrive. On targets without a
//! prefetch instruction (wasm32) it does nothing.

/// Asks for `items[i]` to be brought into the cache; nothing if `i` is out of bounds.
#[inline(always)]
pub(crate) fn prefetch<T>(items: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = items.get(i) {
        // SAFETY: a prefetch of a valid address reads nothing architecturally and cannot fault;
        // SSE, which has it, is part of every x86_64 processor.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                (item as *const T).cast(),
            )
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, i);
}
