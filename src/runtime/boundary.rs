//! The one boundary every export crosses: it catches panics and records the thread's last
//! error with NVIDIA's rules. (Calls are traced around it, by the observation shim every
//! exported symbol is bound to: `crate::observe`.)

use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::types::{cudaError, cudaError_t};

pub use crate::runtime::error::{cu, Res};

/// Records `e` as this thread's last error, as NVIDIA's runtime does for every failing
/// call except a query that answers "not ready". Every error replaces the one before, a
/// sticky one too: stickiness lives in the context (the driver reports the fault from every
/// later call that reaches it), not in this slot (measured on the H100,
/// `ctest/sticky_fault.c`).
#[inline]
pub fn record(e: cudaError) {
    if e == cudaError::cudaErrorNotReady {
        return;
    }
    crate::runtime::thread::me().last_error.set(e);
}

/// `cudaGetLastError`: returns and clears the last error, whatever it was.
#[inline]
pub fn take_last() -> cudaError {
    crate::runtime::thread::me().last_error.replace(cudaError::cudaSuccess)
}

/// `cudaPeekAtLastError`.
#[inline]
pub fn peek_last() -> cudaError {
    crate::runtime::thread::me().last_error.get()
}

/// Runs an export's body. Every `extern "C"` function that returns `cudaError_t` is
/// written as `boundary::run("name", || { ... })`. As in NVIDIA's runtime, the runtime is
/// initialised first: without a usable driver every such call fails with the
/// initialisation error (`cudaErrorInsufficientDriver`, `cudaErrorNoDevice`, ...), before
/// its arguments are looked at.
#[inline(always)]
pub fn run<F: FnOnce() -> Res>(name: &'static str, f: F) -> cudaError_t {
    run_uninitialised(name, || {
        crate::runtime::rt::driver()?;
        f()
    })
}

/// [`run`] for the few exports that need no driver (`cudaRuntimeGetVersion`,
/// `cudaDriverGetVersion`).
#[inline(always)]
pub fn run_uninitialised<F: FnOnce() -> Res>(name: &'static str, f: F) -> cudaError_t {
    let r = match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!("panic in {name}: {msg}");
            eprintln!("cudart-rs: internal error in {name}: {msg}");
            Err(cudaError::cudaErrorUnknown)
        }
    };
    match r {
        Ok(()) => cudaError::cudaSuccess,
        Err(e) => failed(e),
    }
}

/// The end of a failed call, out of the callers' way (their success path then needs fewer
/// registers).
#[cold]
#[inline(never)]
fn failed(e: cudaError) -> cudaError_t {
    record(e);
    e
}

/// Writes `v` through `p`, or fails with `cudaErrorInvalidValue` if `p` is null.
#[inline(always)]
pub fn out<T>(p: *mut T) -> Res<&'static mut T> {
    // SAFETY: the caller's out pointer; null is rejected, anything else is the caller's promise.
    unsafe { p.as_mut() }.ok_or(cudaError::cudaErrorInvalidValue)
}

/// A caller's pointer that must not be null: `e` (NVIDIA's code for that argument) when it is.
#[inline]
pub fn not_null<T>(p: *const T, e: cudaError) -> Res {
    if p.is_null() {
        Err(e)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_recorded_and_cleared() {
        assert_eq!(run_uninitialised("t", || Err(cudaError::cudaErrorInvalidValue)), cudaError::cudaErrorInvalidValue);
        assert_eq!(peek_last(), cudaError::cudaErrorInvalidValue);
        assert_eq!(take_last(), cudaError::cudaErrorInvalidValue);
        assert_eq!(take_last(), cudaError::cudaSuccess);
        // A success leaves the last error alone.
        run_uninitialised("t", || Err(cudaError::cudaErrorInvalidDevice));
        assert_eq!(run_uninitialised("t", || Ok(())), cudaError::cudaSuccess);
        assert_eq!(take_last(), cudaError::cudaErrorInvalidDevice);
    }

    #[test]
    fn not_ready_is_not_recorded() {
        take_last();
        assert_eq!(run_uninitialised("t", || Err(cudaError::cudaErrorNotReady)), cudaError::cudaErrorNotReady);
        assert_eq!(take_last(), cudaError::cudaSuccess);
    }

    #[test]
    fn sticky_errors_are_replaced_and_cleared_like_any_other() {
        run_uninitialised("t", || Err(cudaError::cudaErrorIllegalAddress));
        assert_eq!(peek_last(), cudaError::cudaErrorIllegalAddress);
        run_uninitialised("t", || Err(cudaError::cudaErrorInvalidValue));
        assert_eq!(take_last(), cudaError::cudaErrorInvalidValue);
        run_uninitialised("t", || Err(cudaError::cudaErrorLaunchFailure));
        assert_eq!(take_last(), cudaError::cudaErrorLaunchFailure);
        assert_eq!(take_last(), cudaError::cudaSuccess);
    }

    #[test]
    fn a_panic_becomes_cuda_error_unknown() {
        let r = run_uninitialised("t", || panic!("boom"));
        assert_eq!(r, cudaError::cudaErrorUnknown);
        assert_eq!(take_last(), cudaError::cudaErrorUnknown);
    }

    #[test]
    fn null_out_pointer_is_invalid_value() {
        assert_eq!(out::<i32>(std::ptr::null_mut()).err(), Some(cudaError::cudaErrorInvalidValue));
    }
}
