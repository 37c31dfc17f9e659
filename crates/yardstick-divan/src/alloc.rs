//! [`AllocProfiler`]: divan's allocation-counting global allocator, built on
//! yardstick's [`CountingAllocator`].

use std::alloc::{GlobalAlloc, Layout, System};

use yardstick::meters::CountingAllocator;

/// Counts allocations so that each benchmark's table shows divan's rows,
/// per iteration: the most allocations and bytes live at once in a sample
/// (divided by its iterations, as divan does), then the allocations,
/// deallocations, and growing and shrinking reallocations, each with its
/// bytes. Install it as the global allocator:
///
/// ```
/// # extern crate yardstick_divan as divan;
/// #[global_allocator]
/// static ALLOC: divan::AllocProfiler = divan::AllocProfiler::system();
/// # fn main() {}
/// ```
///
/// Counting is per thread and lock-free: one thread-local update per call
/// (see [`CountingAllocator`] for what is counted and its cost). In
/// multi-threaded runs each thread's counts are a sample of their own.
#[derive(Debug, Default, Clone, Copy)]
pub struct AllocProfiler<A = System> {
    inner: CountingAllocator<A>,
}

impl AllocProfiler<System> {
    /// Profiles the system allocator.
    pub const fn system() -> Self {
        Self {
            inner: CountingAllocator::system(),
        }
    }
}

impl<A> AllocProfiler<A> {
    /// Profiles `allocator`.
    pub const fn new(allocator: A) -> Self {
        Self {
            inner: CountingAllocator::new(allocator),
        }
    }
}

// SAFETY: every method forwards to `CountingAllocator`, which keeps the
// wrapped allocator's guarantees, with the caller's arguments unchanged.
unsafe impl<A: GlobalAlloc> GlobalAlloc for AllocProfiler<A> {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { self.inner.alloc(layout) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        unsafe { self.inner.alloc_zeroed(layout) }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller upholds `GlobalAlloc::dealloc`'s contract.
        unsafe { self.inner.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::realloc`'s contract.
        unsafe { self.inner.realloc(ptr, layout, new_size) }
    }
}

/// The library's own tests run on the profiler, so that they count for real.
#[cfg(test)]
#[global_allocator]
static TEST_ALLOCATOR: AllocProfiler = AllocProfiler::system();

#[cfg(test)]
mod tests {
    use std::hint::black_box;

    use yardstick::frontend::{alloc_counts, alloc_counts_from_here};

    /// Makes a `Vec<u8>` with room for 100, reserves room for 200, shrinks
    /// it to 10 and drops it.
    fn grow_and_shrink() {
        let mut v: Vec<u8> = Vec::with_capacity(100);
        black_box(&mut v).reserve_exact(200);
        black_box(&mut v).shrink_to(10);
        drop(black_box(v));
    }

    /// divan's figures for 4 runs of the body, by hand: each run allocates
    /// 100 bytes, grows them by 100 to 200, shrinks them by 190 to 10 and
    /// frees those 10. Never more than one allocation and 200 bytes live
    /// at once above the start; nothing left live at the end.
    #[test]
    fn counts_a_vec_grown_and_shrunk() {
        let start = alloc_counts_from_here();
        for _ in 0..4 {
            grow_and_shrink();
        }
        let end = alloc_counts();
        let d = |a: [i128; 2], b: [i128; 2]| [b[0] - a[0], b[1] - a[1]];
        assert_eq!(d(start.alloc, end.alloc), [4, 400]);
        assert_eq!(d(start.dealloc, end.dealloc), [4, 40]);
        assert_eq!(d(start.grow, end.grow), [4, 400]);
        assert_eq!(d(start.shrink, end.shrink), [4, 760]);
        assert_eq!(d(start.live, end.live), [0, 0]);
        assert_eq!(d(start.live, end.peak), [1, 200]);
    }

    /// A reallocation to the same size is a grow of 0 bytes, as in divan;
    /// frees alone leave the peak at the start (divan's `max alloc` of 0).
    #[test]
    fn same_size_reallocations_grow_and_frees_do_not_peak() {
        use std::alloc::{alloc, dealloc, realloc, Layout};
        let layout = Layout::from_size_align(30, 1).unwrap();
        let kept = black_box(vec![0u8; 64]);
        let start = alloc_counts_from_here();
        // SAFETY: `p` comes from `alloc` with `layout` (30 bytes, not
        // zero) and is freed once, with the layout of its last size.
        unsafe {
            let p = alloc(layout);
            assert!(!p.is_null());
            let p = realloc(black_box(p), layout, 30);
            assert!(!p.is_null());
            dealloc(black_box(p), layout);
        }
        let mid = alloc_counts();
        assert_eq!(mid.grow[0] - start.grow[0], 1);
        assert_eq!(mid.grow[1] - start.grow[1], 0);
        assert_eq!(mid.shrink, start.shrink);
        assert_eq!(
            [mid.peak[0] - start.live[0], mid.peak[1] - start.live[1]],
            [1, 30]
        );

        let start = alloc_counts_from_here();
        drop(kept);
        let end = alloc_counts();
        assert_eq!(end.dealloc[1] - start.dealloc[1], 64);
        assert_eq!(
            [end.peak[0] - start.live[0], end.peak[1] - start.live[1]],
            [0, 0]
        );
    }
}
