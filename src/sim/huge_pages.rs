//! A hint that a large vector should be backed by huge pages (2 MB instead of 4 KB), so that a
//! large run's arrays indexed by transfer cost fewer TLB misses and page faults.
//!
//! A run reads its per-transfer records (the transfer, its dependency counts and dependents, its
//! times, the receiver's cells) where its ranks are, up to a few hundred steps apart in a ring:
//! over more 4 KB pages than the TLB holds. Linux backs memory with huge pages only where asked (`madvise`)
//! unless configured to always; asked for here, before the vector's memory is first written (perf:
//! a 1024-rank ring, best of 5 CPU, 0.68 → 0.62 s; kernel page faults from 11 % of its samples to
//! under 1 %). The hint changes no value, only how memory is mapped; on other targets (wasm32) it
//! does nothing.

/// Vectors smaller than this are left alone: a huge page they could not fill is not worth asking.
#[cfg(target_os = "linux")]
const LEAST_BYTES: usize = 4 << 20;

/// `Vec::with_capacity(n)`, advised (see [`advise`]).
pub(crate) fn with_capacity<T>(n: usize) -> Vec<T> {
    let v = Vec::with_capacity(n);
    advise(&v);
    v
}

/// `vec![value; len]`, advised (see [`advise`]) before it is written. Elsewhere than on Linux, that
/// very macro, so that the wasm build's code stays as it was.
pub(crate) fn filled<T: Clone>(len: usize, value: T) -> Vec<T> {
    #[cfg(target_os = "linux")]
    {
        let mut v = with_capacity(len);
        v.resize(len, value);
        v
    }
    #[cfg(not(target_os = "linux"))]
    vec![value; len]
}

/// Asks for the memory `v` has room for to be backed by huge pages where it spans whole ones.
/// Call it before the room is first written: memory already touched keeps its pages.
pub(crate) fn advise<T>(v: &Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        const MADV_HUGEPAGE: std::ffi::c_int = 14;
        unsafe extern "C" {
            fn madvise(
                addr: *mut std::ffi::c_void,
                len: usize,
                advice: std::ffi::c_int,
            ) -> std::ffi::c_int;
        }
        let bytes = v.capacity() * std::mem::size_of::<T>();
        let start = v.as_ptr() as usize;
        let first = start.next_multiple_of(PAGE);
        let end = (start + bytes) / PAGE * PAGE;
        if bytes >= LEAST_BYTES && end > first {
            // SAFETY: the range lies inside the vector's own allocation, and MADV_HUGEPAGE
            // changes no byte of it, only how it is mapped; a refusal (an old kernel, huge pages
            // off) leaves everything as it was, so its result needs no check.
            unsafe {
                madvise(first as *mut std::ffi::c_void, end - first, MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}
