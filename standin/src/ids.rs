//! What names a stream in the model (the legacy stream of a device, a thread's per-thread
//! stream, a created stream), the calling thread, and the thread's stream capture mode.

use std::cell::Cell;
use std::ffi::c_int;
use std::sync::atomic::{AtomicU64, Ordering};

/// A stream as the registries know it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SKey {
    /// A device's legacy (null) stream.
    Legacy(c_int),
    /// A thread's per-thread default stream on a device.
    PerThread(c_int, u64),
    /// A stream made by `cuStreamCreate`.
    Handle(usize),
}

/// `CU_STREAM_CAPTURE_MODE_GLOBAL`, `_THREAD_LOCAL`, `_RELAXED`.
pub const MODE_GLOBAL: c_int = 0;
pub const MODE_THREAD_LOCAL: c_int = 1;
pub const MODE_RELAXED: c_int = 2;

thread_local! {
    static ID: Cell<u64> = const { Cell::new(0) };
    static MODE: Cell<c_int> = const { Cell::new(MODE_GLOBAL) };
}

/// This thread's number (from 1; 0 while the thread is being torn down).
pub fn thread_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    ID.try_with(|c| {
        if c.get() == 0 {
            c.set(NEXT.fetch_add(1, Ordering::Relaxed));
        }
        c.get()
    })
    .unwrap_or(0)
}

/// This thread's capture mode (any value `cuThreadExchangeStreamCaptureMode` was given; one
/// that is neither thread-local nor relaxed acts as global).
pub fn mode() -> c_int {
    MODE.try_with(Cell::get).unwrap_or(MODE_GLOBAL)
}

/// Sets this thread's capture mode; returns the one before.
pub fn exchange_mode(m: c_int) -> c_int {
    MODE.try_with(|c| c.replace(m)).unwrap_or(MODE_GLOBAL)
}
