//! A counting global allocator for the tests that measure memory or check
//! that a hot path allocates nothing. It counts the live heap bytes, their
//! peak and the number of allocations of the whole test binary, so a test
//! binary that includes it holds one test (no other thread allocates).
//!
//! Included by path (`#[path = ".../support/counting_alloc.rs"] mod
//! counting_alloc;`) from friction-sim's and friction-analysis' tests; the
//! module installs itself as the binary's `#[global_allocator]`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(l) };
        if !p.is_null() {
            ALLOCATIONS.fetch_add(1, Relaxed);
            grew(l.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, l, new) };
        if !q.is_null() {
            ALLOCATIONS.fetch_add(1, Relaxed);
            if new >= l.size() {
                grew(new - l.size());
            } else {
                LIVE.fetch_sub(l.size() - new, Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The peak of live heap bytes during `f`, above what was live before it.
#[allow(dead_code)]
pub fn peak_of<R>(f: impl FnOnce() -> R) -> (f64, R) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let r = f();
    ((PEAK.load(Relaxed) - base) as f64, r)
}

/// The number of allocations and reallocations made during `f`.
#[allow(dead_code)]
pub fn allocations_of<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = ALLOCATIONS.load(Relaxed);
    let r = f();
    (ALLOCATIONS.load(Relaxed) - before, r)
}
