//! What NVIDIA's tools (CUPTI, and through it Nsight Systems, PyTorch's profiler,
//! compute-sanitizer) see of the runtime: each runtime API call, on entry and on exit, with
//! its callback id, name, parameters and result.
//!
//! The protocol (observed on the H100 with driver 580 and NVIDIA's runtime 13.0):
//!
//! - At start-up the runtime asks the driver for its tools table
//!   (`cuGetExportTable`, [`HOOKS`]): word 0 is the table's size in bytes, then functions.
//!   Slot 2 `(u32 **enable, size_t *count)` hands out the driver's enable array: one `u32`
//!   per runtime callback id (1024 of them), non-zero while a tool wants that call (CUPTI
//!   sets them when a subscriber enables the runtime domain or one id, or when runtime API
//!   activity is on; all zero with no tool). Slot 6 hands out a second, 14-entry array that
//!   the runtime only keeps.
//! - A second table ([`CONTEXT`]): its slot 2 `(CUcontext *)` writes the current context
//!   (nothing when there is none) without the driver API's own callbacks.
//! - For a call whose enable entry is non-zero the runtime fills a 120-byte record
//!   ([`Record`]) and, on entry and on exit, fetches the current context into it, asks the
//!   tools table's slot 4 `(CUcontext, u64 *uid)` for the context's id, sets the site (0
//!   entry, 1 exit) and calls slot 1 `(cbid, &record)`. The driver builds the subscribers'
//!   `CUpti_CallbackData` from the record and gives the call its correlation id (the
//!   record's correlation-data slot is the subscriber's, kept between entry and exit); work
//!   the call issues in between carries that id in its activity records.
//!
//! With no tool attached the cost is the exports' shims' one load and one predictable
//! branch on `ENABLE[cbid]`: [`ENABLE`] points at the driver's array (all zero), or at
//! [`ZEROS`] when there is no such table (the stand-in driver) or no driver.

use std::ffi::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

use crate::driver::types::{CUctx_st, CUuuid};

/// The tools table: `{a094798c-2e74-2e74-93f2-0800200c0a66}`.
const HOOKS: CUuuid =
    CUuuid { bytes: [0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66] };
/// The table whose slot 2 reads the current context: `{42d85a81-23f6-cb47-8298-f6e78a3aecdc}`.
const CONTEXT: CUuuid =
    CUuuid { bytes: [0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc] };

/// Entries of every enable array this module points the shims at; callback ids are below.
pub const SLOTS: usize = 1024;

/// Enable entries of no tool: where [`ENABLE`] points without a driver table.
pub static ZEROS: [u32; SLOTS] = [0; SLOTS];
/// Every entry set: where [`ENABLE`] points until the driver's table is looked for (so that
/// the first calls take the slow path, which looks), and while the observer is on.
pub static ONES: [u32; SLOTS] = [1; SLOTS];

/// The enable array the exports' shims index by callback id (callback id 0, which no call
/// has, is the id of exports without a callback).
pub static ENABLE: AtomicPtr<u32> = AtomicPtr::new(ONES.as_ptr() as *mut u32);
/// The driver's enable array, once looked for (null: none).
static DRIVER_ENABLE: AtomicPtr<u32> = AtomicPtr::new(std::ptr::null_mut());
static RESOLVED: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// Whether this thread is inside a call the tool has been told of.
    static INSIDE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

use crate::driver::GetExportTable;
type Hook = unsafe extern "C" fn(cbid: u32, record: *mut Record) -> c_int;
type ContextUid = unsafe extern "C" fn(ctx: *mut CUctx_st, uid: *mut u64) -> c_int;
type CurrentContext = unsafe extern "C" fn(ctx: *mut *mut CUctx_st) -> c_int;
type Buffer = unsafe extern "C" fn(p: *mut *mut u32, n: *mut usize);

struct Tables {
    hook: Hook,
    uid: Option<ContextUid>,
    current: Option<CurrentContext>,
}
static TABLES: std::sync::OnceLock<Option<Tables>> = std::sync::OnceLock::new();

/// What the runtime hands the driver's hook for one call (120 bytes).
#[repr(C)]
pub struct Record {
    size: u64,
    context_uid: u64,
    stream_id: u64,
    _reserved0: u64,
    correlation_data: *mut u64,
    return_value: *mut c_void,
    function_name: *const c_char,
    function_params: *const c_void,
    context: *mut CUctx_st,
    stream: *mut c_void,
    cbid: u32,
    site: u32,
    symbol_name: *const c_char,
    _reserved1: u64,
    runtime_fn: *const c_void,
    _reserved2: u64,
}
const _: () = assert!(std::mem::size_of::<Record>() == 120);

/// Looks for the driver's tools tables (once, when the driver is loaded) and points the
/// shims at the driver's enable array. Called from the driver's loading.
pub fn attach(get_export_table: GetExportTable) {
    // SAFETY: the driver's entry point.
    TABLES.get_or_init(|| unsafe { look(get_export_table) });
}

unsafe fn table(get: GetExportTable, id: &CUuuid, slots: usize) -> Option<*const usize> {
    let mut t: *const c_void = std::ptr::null();
    if get(&mut t, id) != 0 || t.is_null() {
        return None;
    }
    let t = t as *const usize;
    // Word 0: the table's size in bytes.
    if *t < (slots + 1) * std::mem::size_of::<usize>() {
        return None;
    }
    Some(t)
}

unsafe fn look(get: GetExportTable) -> Option<Tables> {
    let t = table(get, &HOOKS, 6)?;
    let slot = |i: usize| *t.add(i);
    if slot(1) == 0 || slot(2) == 0 {
        return None;
    }
    let buffer: Buffer = std::mem::transmute::<usize, Buffer>(slot(2));
    let (mut enable, mut n) = (std::ptr::null_mut(), 0usize);
    buffer(&mut enable, &mut n);
    if slot(6) != 0 {
        // The second array: NVIDIA's runtime asks for it too (and only keeps it).
        let other: Buffer = std::mem::transmute::<usize, Buffer>(slot(6));
        let (mut p, mut m) = (std::ptr::null_mut(), 0usize);
        other(&mut p, &mut m);
    }
    if enable.is_null() || n < SLOTS {
        tracing::debug!("tools table without an enable array of {SLOTS} ({n})");
        return None;
    }
    let current = table(get, &CONTEXT, 2).and_then(|c| {
        let f = *c.add(2);
        (f != 0).then(|| std::mem::transmute::<usize, CurrentContext>(f))
    });
    let uid = (slot(4) != 0).then(|| std::mem::transmute::<usize, ContextUid>(slot(4)));
    DRIVER_ENABLE.store(enable, Ordering::Release);
    Some(Tables { hook: std::mem::transmute::<usize, Hook>(slot(1)), uid, current })
}

/// The slow path's first step, once: loads the driver (which looks for the tables) and
/// points the shims at what they are to read from now on.
#[cold]
#[inline(never)]
fn resolve() {
    let _ = crate::driver::get();
    let p = if super::config::on() {
        ONES.as_ptr()
    } else {
        let d = DRIVER_ENABLE.load(Ordering::Acquire);
        if d.is_null() {
            ZEROS.as_ptr()
        } else {
            d as *const u32
        }
    };
    ENABLE.store(p as *mut u32, Ordering::Release);
    RESOLVED.store(true, Ordering::Release);
}

/// Whether a tool wants call `cbid` (the slow path's question; looks for the tables first).
#[inline]
pub fn hooked(cbid: u32) -> bool {
    if !RESOLVED.load(Ordering::Acquire) {
        resolve();
    }
    if cbid == 0 {
        return false;
    }
    let d = DRIVER_ENABLE.load(Ordering::Relaxed);
    // SAFETY: the driver's array of SLOTS entries; callback ids are below SLOTS.
    !d.is_null() && unsafe { std::ptr::read_volatile(d.add(cbid as usize)) } != 0
}

/// Whether the shims' slow path is to be taken for `cbid` (what the shims read, for the
/// exports that are plain Rust functions).
#[inline(always)]
pub fn slow(cbid: u32) -> bool {
    // SAFETY: ENABLE always points at an array of SLOTS entries; cbid < SLOTS.
    unsafe { *ENABLE.load(Ordering::Relaxed).add(cbid as usize) != 0 }
}

impl Record {
    fn refresh(&mut self, t: &Tables) {
        // SAFETY: the driver's functions, with the arguments NVIDIA's runtime gives them.
        unsafe {
            if let Some(cur) = t.current {
                cur(&mut self.context);
            }
            if let Some(uid) = t.uid {
                uid(self.context, &mut self.context_uid);
            }
        }
    }
}

/// Makes call `cbid` with the tool's hook around it: `params` points at its parameter
/// struct, `ret` (when the function returns a `cudaError_t`) says where its result is.
#[inline(never)]
pub fn call<R>(
    cbid: u32,
    name: &'static std::ffi::CStr,
    params: *const c_void,
    symbol: *const c_char,
    returns_error: bool,
    f: impl FnOnce() -> R,
) -> R {
    let Some(Some(t)) = TABLES.get() else { return f() };
    // A call this runtime makes to its own exports (through their symbols) is part of the
    // outer call: the tool sees the one call the program made.
    if INSIDE.with(|i| i.replace(true)) {
        return f();
    }
    struct Leave;
    impl Drop for Leave {
        fn drop(&mut self) {
            INSIDE.with(|i| i.set(false));
        }
    }
    let _leave = Leave;
    let mut correlation: u64 = 0;
    let mut result = std::mem::MaybeUninit::<R>::zeroed();
    let mut rec = Record {
        size: std::mem::size_of::<Record>() as u64,
        context_uid: 0,
        stream_id: 0,
        _reserved0: 0,
        correlation_data: &mut correlation,
        return_value: if returns_error { result.as_mut_ptr() as *mut c_void } else { std::ptr::null_mut() },
        function_name: name.as_ptr(),
        function_params: params,
        context: std::ptr::null_mut(),
        stream: std::ptr::null_mut(),
        cbid,
        site: 0,
        symbol_name: symbol,
        _reserved1: 0,
        runtime_fn: crate::runtime::export_table::runtime_fn as *const c_void,
        _reserved2: 0,
    };
    rec.refresh(t);
    // SAFETY: the driver's hook, with the record it reads (and the subscriber writes).
    unsafe { (t.hook)(cbid, &mut rec) };
    result.write(f());
    rec.refresh(t);
    rec.site = 1;
    // SAFETY: as above.
    unsafe { (t.hook)(cbid, &mut rec) };
    // SAFETY: written above.
    unsafe { result.assume_init() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// One call the hook saw: (callback id, site, function name, parameters' address, result,
    /// correlation slot's address, its value).
    type Seen = (u32, u32, String, usize, i32, usize, u64);
    // A driver's tables, as observed: what the hook saw, call by call.
    static SEEN: Mutex<Vec<Seen>> = Mutex::new(Vec::new());
    static mut FAKE_ENABLE: [u32; SLOTS] = [0; SLOTS];
    unsafe extern "C" fn fake_hook(cbid: u32, r: *mut Record) -> c_int {
        let r = &*r;
        assert_eq!(r.size, 120);
        assert_eq!(r.cbid, cbid);
        let ret = if r.return_value.is_null() { -1 } else { *(r.return_value as *const i32) };
        if r.site == 0 {
            *r.correlation_data = 42;
        }
        let name = std::ffi::CStr::from_ptr(r.function_name).to_string_lossy().into_owned();
        SEEN.lock().unwrap().push((
            cbid,
            r.site,
            name,
            r.function_params as usize,
            ret,
            r.correlation_data as usize,
            *r.correlation_data,
        ));
        0
    }
    unsafe extern "C" fn fake_enable(p: *mut *mut u32, n: *mut usize) {
        *p = std::ptr::addr_of_mut!(FAKE_ENABLE) as *mut u32;
        *n = SLOTS;
    }
    unsafe extern "C" fn fake_uid(_c: *mut CUctx_st, uid: *mut u64) -> c_int {
        *uid = 1;
        0
    }
    unsafe extern "C" fn fake_current(_c: *mut *mut CUctx_st) -> c_int {
        0
    }
    static HOOKS_TABLE: [usize; 7] = [56, 0, 0, 0, 0, 0, 0];
    static CONTEXT_TABLE: [usize; 3] = [24, 0, 0];
    unsafe extern "C" fn fake_get(t: *mut *const c_void, id: *const CUuuid) -> crate::driver::types::CUresult {
        static FILLED: std::sync::Once = std::sync::Once::new();
        static mut H: [usize; 7] = [0; 7];
        static mut C: [usize; 3] = [0; 3];
        FILLED.call_once(|| {
            H = HOOKS_TABLE;
            H[1] = fake_hook as *const () as usize;
            H[2] = fake_enable as *const () as usize;
            H[4] = fake_uid as *const () as usize;
            C = CONTEXT_TABLE;
            C[2] = fake_current as *const () as usize;
        });
        *t = if (*id).bytes == HOOKS.bytes {
            std::ptr::addr_of!(H) as *const c_void
        } else if (*id).bytes == CONTEXT.bytes {
            std::ptr::addr_of!(C) as *const c_void
        } else {
            return 1;
        };
        0
    }

    #[test]
    fn the_hook_sees_entry_and_exit_with_the_record_filled() {
        attach(fake_get);
        assert!(TABLES.get().is_some_and(|t| t.is_some()), "another test attached tables first");
        // SAFETY: the test's array.
        unsafe { FAKE_ENABLE[20] = 1 };
        assert!(hooked(20));
        assert!(!hooked(21));
        let params = [7u64, 4096];
        let r = call(20, c"cudaMalloc", params.as_ptr() as *const c_void, std::ptr::null(), true, || 2i32);
        assert_eq!(r, 2);
        let seen = SEEN.lock().unwrap().clone();
        assert_eq!(seen.len(), 2);
        let p = params.as_ptr() as usize;
        assert_eq!((seen[0].0, seen[0].1, seen[0].2.as_str(), seen[0].3), (20, 0, "cudaMalloc", p));
        assert_eq!((seen[1].0, seen[1].1, seen[1].4), (20, 1, 2), "exit sees the result");
        assert_eq!(seen[0].5, seen[1].5, "one correlation slot for entry and exit");
        assert_eq!(seen[1].6, 42, "the subscriber's correlation data is kept");
        // A call made inside a hooked call is not shown again.
        SEEN.lock().unwrap().clear();
        call(20, c"cudaMalloc", std::ptr::null(), std::ptr::null(), true, || {
            call(20, c"cudaMalloc", std::ptr::null(), std::ptr::null(), true, || 0i32)
        });
        assert_eq!(SEEN.lock().unwrap().len(), 2);
    }

    #[test]
    fn callback_id_zero_is_never_hooked() {
        assert!(!hooked(0));
    }
}
