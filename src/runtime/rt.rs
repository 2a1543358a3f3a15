//! Runtime state: lazy driver initialisation, primary contexts, the per-thread current
//! device and default-stream mode.
//!
//! Hot path: [`ctx`] is an atomic load (driver and init already done), a read of the
//! thread's block ([`crate::runtime::thread`]) and one `cuCtxGetCurrent`. No lock, no allocation, no
//! environment.

use std::ffi::c_int;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, Ordering};
use std::sync::OnceLock;

use parking_lot::Mutex;

use crate::driver::{self, types::*, Driver, Fns};
use crate::runtime::error::{cu, Res};
use crate::types::cudaError;

/// Devices beyond this ordinal are not supported.
pub(crate) const MAX_DEVICES: usize = 64;

/// The device of a thread that has not chosen one: the first of the list
/// `cudaSetValidDevices` gave, else 0.
static DEFAULT_DEVICE: AtomicI32 = AtomicI32::new(0);

/// This thread's device: the one it chose, else the default.
#[inline]
fn thread_device() -> c_int {
    // The thread's block holds the chosen device plus one, 0 for none.
    match crate::runtime::thread::me().device.get() {
        0 => DEFAULT_DEVICE.load(Ordering::Relaxed),
        d => d - 1,
    }
}

/// `cudaSetValidDevices`: the device threads that have not chosen one use (the first of the
/// list; `None` for the default list, which starts at device 0).
pub fn set_default_device(first: Option<c_int>) {
    DEFAULT_DEVICE.store(first.unwrap_or(0), Ordering::Relaxed);
}

static INIT: OnceLock<Result<c_int, cudaError>> = OnceLock::new();
static PRIMARY: [AtomicPtr<CUctx_st>; MAX_DEVICES] = [const { AtomicPtr::new(null_mut()) }; MAX_DEVICES];
/// Every device's primary context handle once retained, kept after `cudaDeviceReset` (the
/// driver's handle of a device's primary context never changes): a thread that had it
/// current keeps it current through a reset, as with NVIDIA's runtime, and the next call
/// that needs a context retains it again ([`ctx`]).
static KNOWN: [AtomicPtr<CUctx_st>; MAX_DEVICES] = [const { AtomicPtr::new(null_mut()) }; MAX_DEVICES];
/// Whether any primary context was ever reset (until then no current context can be a
/// reset primary one, and [`ctx`] does not look).
static RESET: AtomicBool = AtomicBool::new(false);
static RETAIN: Mutex<()> = Mutex::new(());
/// Told before a primary context this runtime retained is released and reset, so that an
/// engine keeping resources in it lets go of them first (the pageable pipeline's events).
static BEFORE_RESET: OnceLock<fn(&Fns, CUcontext)> = OnceLock::new();

/// Sets what is told before a primary context is reset (the engine that needs it sets it,
/// once, when it first keeps something in a context).
pub fn before_reset(f: fn(&Fns, CUcontext)) {
    let _ = BEFORE_RESET.set(f);
}
/// The driver once it is loaded and initialised (null before, and for good when that failed):
/// the one load the hot path makes.
static READY: AtomicPtr<Driver> = AtomicPtr::new(null_mut());

/// The driver, loaded and `cuInit`-ed. Errors are NVIDIA's: no driver or an old one gives
/// `cudaErrorInsufficientDriver`, no device `cudaErrorNoDevice`.
#[inline(always)]
pub fn driver() -> Res<&'static Driver> {
    let p = READY.load(Ordering::Acquire);
    if !p.is_null() {
        // SAFETY: set once from the `&'static Driver` below.
        return Ok(unsafe { &*p });
    }
    driver_slow()
}

#[cold]
#[inline(never)]
fn driver_slow() -> Res<&'static Driver> {
    let d = driver::get()?;
    // Under the driver's initialisation lock: a fork waits for it.
    match INIT.get().unwrap_or_else(|| driver::initialising(|| INIT.get_or_init(|| init(d)))) {
        Ok(_) => {
            READY.store(d as *const Driver as *mut Driver, Ordering::Release);
            Ok(d)
        }
        Err(e) => Err(*e),
    }
}

fn init(d: &Driver) -> Result<c_int, cudaError> {
    // SAFETY: plain driver calls with valid out pointers.
    unsafe {
        cu(d.legacy.cuInit(0))?;
        let mut n = 0;
        cu(d.legacy.cuDeviceGetCount(&mut n))?;
        if n <= 0 {
            return Err(cudaError::cudaErrorNoDevice);
        }
        Ok(n.min(MAX_DEVICES as c_int))
    }
}

/// Number of devices (after initialisation).
#[inline]
pub fn device_count() -> Res<c_int> {
    driver()?;
    Ok(*INIT.get().and_then(|r| r.as_ref().ok()).unwrap_or(&0))
}

/// Checks a device ordinal: `cudaErrorInvalidDevice` if out of range.
#[inline]
pub fn check_device(dev: c_int) -> Res<CUdevice> {
    if dev < 0 || dev >= device_count()? {
        return Err(cudaError::cudaErrorInvalidDevice);
    }
    Ok(dev)
}

/// The table to call for this thread's default-stream mode (legacy or per-thread).
#[inline(always)]
pub fn fns_of(d: &'static Driver) -> &'static Fns {
    if crate::runtime::thread::me().per_thread_stream.get() {
        &d.ptds
    } else {
        &d.legacy
    }
}

/// The driver table, initialised, without requiring a current context.
#[inline(always)]
pub fn fns() -> Res<&'static Fns> {
    Ok(fns_of(driver()?))
}

/// The driver table with a context current on this thread: the caller's own driver context
/// if it made one current, else the primary context of this thread's device. A primary
/// context reset while current (`cudaDeviceReset`) is retained again, as NVIDIA's runtime
/// does (its errors are [`primary`]'s).
///
/// The driver is asked every time (`cuCtxGetCurrent`): the program may change the thread's
/// context with the driver API between two runtime calls, and the runtime follows
/// (`ctest/interop_driver.c`), so no cache of it could be trusted without asking.
#[inline(always)]
pub fn ctx() -> Res<&'static Fns> {
    ctx_current().map(|(f, _)| f)
}

/// [`ctx`], and the context it leaves current (for [`device_of`]).
#[inline(always)]
pub fn ctx_current() -> Res<(&'static Fns, CUcontext)> {
    let f = fns()?;
    let mut cur: CUcontext = null_mut();
    // SAFETY: valid out pointer.
    cu(unsafe { f.cuCtxGetCurrent(&mut cur) })?;
    if cur.is_null() || RESET.load(Ordering::Relaxed) {
        cur = make_primary_current(f, cur)?;
    }
    Ok((f, cur))
}

/// [`ctx`]'s rare part: no context current, or one that may be a reset primary context.
/// Returns the context current after it.
#[cold]
#[inline(never)]
fn make_primary_current(f: &Fns, cur: CUcontext) -> Res<CUcontext> {
    let dev = if cur.is_null() {
        thread_device()
    } else {
        match reset_primary_device(cur) {
            Some(d) => d,
            None => return Ok(cur),
        }
    };
    let c = primary(dev)?;
    // SAFETY: a retained primary context.
    cu(unsafe { f.cuCtxSetCurrent(c) })?;
    Ok(c)
}

/// The device of `cur`, the context [`ctx_current`] left current: what [`current_device`]
/// answers, without asking the driver again when `cur` is the primary context of this
/// thread's device (the common case).
#[inline]
pub fn device_of(f: &Fns, cur: CUcontext) -> Res<c_int> {
    let td = thread_device();
    if (td as usize) < MAX_DEVICES && !cur.is_null() && PRIMARY[td as usize].load(Ordering::Acquire) == cur {
        return Ok(td);
    }
    if RESET.load(Ordering::Relaxed) {
        if let Some(d) = reset_primary_device(cur) {
            return Ok(d);
        }
    }
    let mut dev = 0;
    // SAFETY: valid out pointer; `cur` is current.
    cu(unsafe { f.cuCtxGetDevice(&mut dev) })?;
    Ok(dev)
}

/// The device whose primary context `c` was, if that context has been reset and not retained
/// again since.
fn reset_primary_device(c: CUcontext) -> Option<c_int> {
    let n = (*INIT.get()?.as_ref().ok()?).max(0) as usize;
    (0..n.min(MAX_DEVICES))
        .find(|&d| KNOWN[d].load(Ordering::Acquire) == c && PRIMARY[d].load(Ordering::Acquire).is_null())
        .map(|d| d as c_int)
}

/// The primary context of `dev`, retained once for the life of the process (or until
/// `cudaDeviceReset`).
pub fn primary(dev: c_int) -> Res<CUcontext> {
    let dev = check_device(dev)?;
    let slot = &PRIMARY[dev as usize];
    let p = slot.load(Ordering::Acquire);
    if !p.is_null() {
        return Ok(p);
    }
    let _g = RETAIN.lock();
    let p = slot.load(Ordering::Acquire);
    if !p.is_null() {
        return Ok(p);
    }
    let d = driver()?;
    let mut c: CUcontext = null_mut();
    // SAFETY: valid out pointer, checked ordinal.
    cu(unsafe { d.legacy.cuDevicePrimaryCtxRetain(&mut c, dev) }).map_err(retain_error)?;
    KNOWN[dev as usize].store(c, Ordering::Release);
    slot.store(c, Ordering::Release);
    Ok(c)
}

/// Whether this runtime holds `dev`'s primary context (retained, not reset since).
pub fn primary_retained(dev: CUdevice) -> bool {
    (dev as usize) < MAX_DEVICES && !PRIMARY[dev as usize].load(Ordering::Acquire).is_null()
}

/// The device whose primary context (as this runtime holds it) `c` is.
pub fn primary_device_of(c: CUcontext) -> Option<CUdevice> {
    if c.is_null() {
        return None;
    }
    (0..MAX_DEVICES).find(|&d| PRIMARY[d].load(Ordering::Acquire) == c).map(|d| d as CUdevice)
}

/// What a failed primary-context retain reports. After a fault and `cudaDeviceReset` the
/// driver refuses a new primary context with the fault's (sticky) error, and NVIDIA's
/// runtime reports the device as unavailable instead, from every call that needs a
/// context (measured on the H100, `ctest/sticky_fault.c`).
fn retain_error(e: cudaError) -> cudaError {
    if crate::runtime::error::is_sticky(e) {
        cudaError::cudaErrorDevicesUnavailable
    } else {
        e
    }
}

/// Releases and resets the primary context of `dev` (`cudaDeviceReset`). As with NVIDIA's
/// runtime the context stays current where it was (so calls that go to the driver without
/// making a context current get the driver's answer for a reset context), and the next call
/// that needs a context retains it again ([`ctx`]).
pub fn reset_primary(dev: c_int) -> Res {
    let dev = check_device(dev)?;
    let d = driver()?;
    let _g = RETAIN.lock();
    let p = PRIMARY[dev as usize].swap(null_mut(), Ordering::AcqRel);
    RESET.store(true, Ordering::Relaxed);
    // SAFETY: plain driver calls; `p` was retained by us.
    let r = unsafe {
        if !p.is_null() {
            if let Some(forget) = BEFORE_RESET.get() {
                forget(&d.legacy, p);
            }
            d.legacy.cuDevicePrimaryCtxRelease(dev);
        }
        cu(d.legacy.cuDevicePrimaryCtxReset(dev))
    };
    // What was read of kernels before the reset is not answered after it.
    crate::runtime::kattr::forget_all();
    r
}

/// `cudaSetDevice`: chooses the thread's device and makes its primary context current.
pub fn set_device(dev: c_int) -> Res {
    let c = primary(dev)?;
    crate::runtime::thread::me().device.set(dev + 1);
    let f = fns()?;
    // SAFETY: a retained primary context.
    cu(unsafe { f.cuCtxSetCurrent(c) })
}

/// The device of the current context (a reset primary one's too), or the thread's chosen
/// device if none is current.
pub fn current_device() -> Res<c_int> {
    let f = fns()?;
    let mut cur: CUcontext = null_mut();
    // SAFETY: valid out pointer.
    cu(unsafe { f.cuCtxGetCurrent(&mut cur) })?;
    if cur.is_null() {
        return Ok(thread_device());
    }
    device_of(f, cur)
}

/// Runs `f` with the per-thread default stream as this thread's null stream: the body of
/// every generated `_ptds`/`_ptsz` export.
#[inline(always)]
pub fn per_thread_stream<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            crate::runtime::thread::me().per_thread_stream.set(self.0);
        }
    }
    let _reset = Reset(crate::runtime::thread::me().per_thread_stream.replace(true));
    f()
}

/// Whether the null stream currently means the per-thread stream.
#[inline(always)]
pub fn null_stream_is_per_thread() -> bool {
    crate::runtime::thread::me().per_thread_stream.get()
}
