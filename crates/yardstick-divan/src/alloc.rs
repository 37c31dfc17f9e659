//! [`AllocProfiler`]: divan's allocation-counting global allocator, built on
//! yardstick's [`CountingAllocator`].

use std::alloc::{GlobalAlloc, Layout, System};

use yardstick::meters::CountingAllocator;

/// Counts allocations so that each benchmark's table shows, per iteration,
/// how many allocations, deallocations and reallocations it made and how
/// many bytes they moved. Install it as the global allocator:
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
/// multi-threaded runs the rows are the mean per thread.
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
