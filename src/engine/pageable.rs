//! Copies between device memory and pageable host memory through a small pool of pinned
//! staging buffers, with the host-side copy split over a few threads and overlapped with the
//! DMA.
//!
//! The driver copies pageable memory through staging buffers of its own, on the calling
//! thread: about 8 to 12 GB/s on an H100 machine, where one thread copies pageable into pinned
//! memory at 10.5 GB/s, two at 19, sixteen at 31, and pinned memory moves at 55 GB/s. Here a
//! large copy (at least `min` bytes) is cut into chunks; each chunk is copied between the
//! caller's memory and one of four pinned buffers by the calling thread and up to
//! `threads - 1` helper threads, while the DMA of the chunk before (host to device) or after
//! (device to host) runs on the copy's stream.
//!
//! What the caller observes is what NVIDIA documents for pageable memory ("API
//! synchronization behavior"):
//! - host to device: the stream is synchronised before the copy starts; the call returns once
//!   the caller's buffer has been copied into staging memory, the DMAs may still be running
//!   (they are on the stream, so later work on it sees the data); a staging buffer is reused
//!   only once its DMA has completed (an event per buffer);
//! - device to host: the call returns once the data is in the caller's buffer;
//! - the `Async` forms behave the same way (the documentation allows them to be synchronous
//!   with pageable memory, and they are).
//!
//! A copy takes this path only when it would give the same result as the driver's call:
//! the host end is memory the driver does not know (pageable: not pinned, registered or
//! managed), the device end is device memory (not managed) whose allocation holds the whole
//! range, the stream is not capturing, and the pool is free. Anything else, any failure
//! before the first byte moves, and every copy smaller than `min`, is the driver's own call.
//!
//! `CUDART_RS_PAGEABLE`, read once, at the first copy large enough to take the pipeline: `0` or `off` turns this off;
//! else a comma-separated list of `threads=N` (copying threads, the caller included; default
//! half the CPUs, at most 8), `staging=SIZE` (pinned bytes in all, default 32M) and
//! `min=SIZE` (the smallest copy that takes this path, default 4M, at least 256k); sizes in
//! bytes with an optional `k`, `M` or `G`.

use std::ffi::c_void;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex as StdMutex, OnceLock};

use parking_lot::Mutex;

use crate::driver::types::*;
use crate::driver::Fns;
use crate::runtime::boundary::{cu, Res};
use crate::types::cudaStream_t;

/// The environment variable with the configuration.
pub const ENV: &str = "CUDART_RS_PAGEABLE";

/// Staging buffers in the pool.
const BUFFERS: usize = 4;
/// The smallest piece of a host copy a helper thread takes.
const MIN_PIECE: usize = 64 << 10;
/// The smallest chunk (one DMA).
const MIN_CHUNK: usize = 256 << 10;

/// The pipeline's limits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Config {
    /// Threads that copy on the host, the caller included; 0: the pipeline is off.
    pub threads: usize,
    /// Pinned staging bytes in all; 0: off.
    pub staging: usize,
    /// The smallest copy that takes the pipeline.
    pub min: usize,
}

impl Config {
    pub(crate) fn on(&self) -> bool {
        self.threads > 0 && self.staging >= BUFFERS * MIN_CHUNK
    }

    const OFF: Config = Config { threads: 0, staging: 0, min: usize::MAX };

    fn default_for(cpus: usize) -> Config {
        Config { threads: (cpus / 2).clamp(1, 8), staging: 32 << 20, min: 4 << 20 }
    }

    /// The configuration `CUDART_RS_PAGEABLE` gives (`None`: unset) on a machine of `cpus`
    /// CPUs. Values that make no sense are reported and ignored.
    pub(crate) fn parse(v: Option<&str>, cpus: usize) -> Config {
        let mut c = Config::default_for(cpus);
        let Some(v) = v.map(str::trim) else { return c };
        if v == "0" || v.eq_ignore_ascii_case("off") {
            return Config::OFF;
        }
        for item in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let parsed = item.split_once('=').and_then(|(k, val)| Some((k.trim(), size(val.trim())?)));
            match parsed {
                Some(("threads", n)) => c.threads = n.min(64),
                Some(("staging", n)) => c.staging = n.min(1 << 30),
                Some(("min", n)) => c.min = n.max(MIN_CHUNK),
                _ => tracing::warn!("{ENV}: ignoring {item:?} (expected threads=N, staging=SIZE or min=SIZE)"),
            }
        }
        if !c.on() {
            return Config::OFF;
        }
        c
    }
}

/// A size: digits and an optional `k`, `M` or `G` (binary multiples).
fn size(s: &str) -> Option<usize> {
    let (digits, mult) = match s.char_indices().last()? {
        (i, 'k' | 'K') => (&s[..i], 1usize << 10),
        (i, 'm' | 'M') => (&s[..i], 1 << 20),
        (i, 'g' | 'G') => (&s[..i], 1 << 30),
        _ => (s, 1),
    };
    digits.parse::<usize>().ok()?.checked_mul(mult)
}

static CONFIG: OnceLock<Config> = OnceLock::new();

/// `CUDART_RS_PAGEABLE`, read once: at the first copy large enough to take the pipeline.
fn config() -> Config {
    *CONFIG.get_or_init(|| {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let c = Config::parse(std::env::var(ENV).ok().as_deref(), cpus);
        tracing::debug!("pageable copies: {c:?}");
        c
    })
}

// ---- the pipeline, over any copy engine -------------------------------------------------

/// What the pipeline drives: staging buffers and DMAs between them and the device range of
/// the copy. The real one is [`DriverEngine`]; the tests use one that runs DMAs late.
#[allow(clippy::wrong_self_convention)] // from_device is a DMA direction, not a conversion
pub(crate) trait Engine {
    /// The staging buffer `b` (at least [`chunk`]-sized).
    fn staging(&self, b: usize) -> *mut u8;
    /// Starts the DMA of `n` bytes from staging buffer `b` to `off` bytes into the device range.
    fn to_device(&mut self, b: usize, off: usize, n: usize) -> Res;
    /// Starts the DMA of `n` bytes from `off` bytes into the device range to buffer `b`.
    fn from_device(&mut self, b: usize, off: usize, n: usize) -> Res;
    /// Waits until buffer `b`'s last DMA has completed (nothing if it has none).
    fn wait(&mut self, b: usize) -> Res;
}

/// The chunk size for a copy of `len` bytes with buffers of `buf` bytes: about a sixteenth of
/// the copy (so that the DMA that does not overlap host work is short), at least
/// [`MIN_CHUNK`], at most a buffer, a multiple of 64 KiB.
pub(crate) fn chunk(len: usize, buf: usize) -> usize {
    let c = (len / 16).next_multiple_of(64 << 10);
    c.clamp(MIN_CHUNK, buf.max(MIN_CHUNK))
}

/// Host to device: `len` bytes from `src`, in chunks of `chunk` bytes through `nbuf` buffers.
/// Returns once every chunk has been copied into staging memory and its DMA started.
pub(crate) fn to_device<E: Engine>(
    e: &mut E,
    copy: &dyn Fn(*mut u8, *const u8, usize),
    src: *const u8,
    len: usize,
    chunk: usize,
    nbuf: usize,
) -> Res {
    let mut off = 0;
    let mut k = 0;
    while off < len {
        let b = k % nbuf;
        let n = chunk.min(len - off);
        e.wait(b)?;
        // SAFETY: `src` holds `len` bytes (the caller's promise); the buffer holds `chunk`.
        copy(e.staging(b), unsafe { src.add(off) }, n);
        e.to_device(b, off, n)?;
        off += n;
        k += 1;
    }
    Ok(())
}

/// Device to host: `len` bytes into `dst`. Up to `nbuf` DMAs run ahead of the host copies.
/// Returns once every byte is in `dst`.
pub(crate) fn from_device<E: Engine>(
    e: &mut E,
    copy: &dyn Fn(*mut u8, *const u8, usize),
    dst: *mut u8,
    len: usize,
    chunk: usize,
    nbuf: usize,
) -> Res {
    let chunks = len.div_ceil(chunk);
    let size = |k: usize| chunk.min(len - k * chunk);
    for k in 0..chunks.min(nbuf) {
        e.wait(k)?;
        e.from_device(k, k * chunk, size(k))?;
    }
    for k in 0..chunks {
        let b = k % nbuf;
        e.wait(b)?;
        // SAFETY: `dst` holds `len` bytes (the caller's promise).
        copy(unsafe { dst.add(k * chunk) }, e.staging(b), size(k));
        if k + nbuf < chunks {
            e.from_device(b, (k + nbuf) * chunk, size(k + nbuf))?;
        }
    }
    Ok(())
}

// ---- the host copy, split over threads --------------------------------------------------

/// Addresses that cross threads.
#[derive(Copy, Clone)]
struct Job {
    dst: usize,
    src: usize,
    len: usize,
    piece: usize,
    pieces: usize,
}

/// The helper threads and the job they share. A job is published by writing its fields and
/// then `next` = (sequence << 32 | 0); a thread takes piece `i` by moving `next` from
/// (sequence, i) to (sequence, i + 1), so a thread that read an older job's fields cannot
/// take a piece of a newer one; `done` counts finished pieces.
struct Copier {
    dst: AtomicUsize,
    src: AtomicUsize,
    len: AtomicUsize,
    piece: AtomicUsize,
    pieces: AtomicUsize,
    next: AtomicU64,
    done: AtomicUsize,
    /// True while a pipelined copy runs: the helpers spin for pieces; false, they sleep.
    active: AtomicBool,
    wake: (StdMutex<()>, Condvar),
    helpers: usize,
    /// The process that started the helpers (a child of `fork` has none).
    pid: u32,
}

impl Copier {
    fn start(helpers: usize) -> &'static Copier {
        let c: &'static Copier = Box::leak(Box::new(Copier {
            dst: AtomicUsize::new(0),
            src: AtomicUsize::new(0),
            len: AtomicUsize::new(0),
            piece: AtomicUsize::new(1),
            pieces: AtomicUsize::new(0),
            next: AtomicU64::new(0),
            done: AtomicUsize::new(0),
            active: AtomicBool::new(false),
            wake: (StdMutex::new(()), Condvar::new()),
            helpers,
            pid: std::process::id(),
        }));
        let mut started = 0;
        for i in 0..helpers {
            let ok = std::thread::Builder::new().name(format!("cudart-rs-copy{i}")).spawn(move || c.helper()).is_ok();
            started += ok as usize;
        }
        if started < helpers {
            // Whoever did start helps; the job split only counts on the caller.
            tracing::warn!("pageable copies: {started} of {helpers} helper threads started");
        }
        c
    }

    fn helper(&self) {
        loop {
            {
                let mut g = self.wake.0.lock().unwrap_or_else(|e| e.into_inner());
                while !self.active.load(Ordering::Acquire) {
                    g = self.wake.1.wait(g).unwrap_or_else(|e| e.into_inner());
                }
            }
            let mut idle = 0u32;
            while self.active.load(Ordering::Acquire) {
                if self.take_piece() {
                    idle = 0;
                } else {
                    idle += 1;
                    if idle < 1 << 12 {
                        std::hint::spin_loop();
                    } else {
                        std::thread::yield_now();
                    }
                }
            }
        }
    }

    /// Copies one piece of the current job, if one is left; false if none.
    fn take_piece(&self) -> bool {
        let v = self.next.load(Ordering::Acquire);
        let i = (v & 0xffff_ffff) as usize;
        let job = Job {
            dst: self.dst.load(Ordering::Relaxed),
            src: self.src.load(Ordering::Relaxed),
            len: self.len.load(Ordering::Relaxed),
            piece: self.piece.load(Ordering::Relaxed),
            pieces: self.pieces.load(Ordering::Relaxed),
        };
        if i >= job.pieces {
            return false;
        }
        if self.next.compare_exchange(v, v + 1, Ordering::AcqRel, Ordering::Relaxed).is_err() {
            return true;
        }
        let off = i * job.piece;
        let n = job.piece.min(job.len - off);
        // SAFETY: piece `i` of the job the caller published and waits for: ranges it promised.
        unsafe { std::ptr::copy_nonoverlapping((job.src + off) as *const u8, (job.dst + off) as *mut u8, n) };
        self.done.fetch_add(1, Ordering::Release);
        true
    }

    /// Copies `len` bytes with the helpers' help; returns when all are copied.
    fn copy(&self, dst: *mut u8, src: *const u8, len: usize) {
        let threads = self.helpers + 1;
        let pieces = len.div_ceil(MIN_PIECE).min(threads);
        if pieces <= 1 || !self.active.load(Ordering::Relaxed) {
            // SAFETY: ranges the caller promised.
            unsafe { std::ptr::copy_nonoverlapping(src, dst, len) };
            return;
        }
        let piece = len.div_ceil(pieces).next_multiple_of(4096);
        let pieces = len.div_ceil(piece);
        let seq = (self.next.load(Ordering::Relaxed) >> 32) + 1;
        self.dst.store(dst as usize, Ordering::Relaxed);
        self.src.store(src as usize, Ordering::Relaxed);
        self.len.store(len, Ordering::Relaxed);
        self.piece.store(piece, Ordering::Relaxed);
        self.pieces.store(pieces, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
        self.next.store(seq << 32, Ordering::Release);
        while self.take_piece() {}
        while self.done.load(Ordering::Acquire) < pieces {
            std::hint::spin_loop();
        }
    }

    /// Wakes the helpers for a pipelined copy.
    fn begin(&self) {
        let _g = self.wake.0.lock().unwrap_or_else(|e| e.into_inner());
        self.active.store(true, Ordering::Release);
        self.wake.1.notify_all();
    }

    /// Lets the helpers sleep again.
    fn end(&self) {
        self.active.store(false, Ordering::Release);
    }
}

// ---- the pool and the driver engine -----------------------------------------------------

/// Host memory of our own, page-aligned, pinned by registration (so that it stays valid
/// memory if the context that pinned it goes away).
struct Buffer {
    ptr: *mut u8,
    len: usize,
}

struct Pool {
    bufs: Vec<Buffer>,
    /// The context the events belong to (null: none made yet).
    ctx: CUcontext,
    events: [CUevent; BUFFERS],
    /// Whether each buffer has a DMA that may not have completed (its event recorded since).
    pending: [bool; BUFFERS],
    copier: &'static Copier,
}

// SAFETY: the pool is only used under its mutex; its pointers are our own buffers and driver
// handles, which any thread may use.
unsafe impl Send for Pool {}

static POOL: Mutex<Option<Pool>> = Mutex::new(None);
/// Set when making the pool failed: not tried again.
static BROKEN: AtomicBool = AtomicBool::new(false);

const CU_MEMHOSTREGISTER_PORTABLE: std::ffi::c_uint = 1;
const CU_EVENT_DISABLE_TIMING: std::ffi::c_uint = 2;

impl Pool {
    fn new(cfg: &Config) -> Option<Pool> {
        let each = (cfg.staging / BUFFERS).next_multiple_of(64 << 10);
        let layout = std::alloc::Layout::from_size_align(each, 4096).ok()?;
        let mut bufs: Vec<Buffer> = Vec::new();
        for _ in 0..BUFFERS {
            // SAFETY: a non-zero size.
            let p = unsafe { std::alloc::alloc(layout) };
            if p.is_null() {
                for b in &bufs {
                    // SAFETY: allocated above with this layout.
                    unsafe { std::alloc::dealloc(b.ptr, layout) };
                }
                return None;
            }
            bufs.push(Buffer { ptr: p, len: each });
        }
        let copier = Copier::start(cfg.threads.saturating_sub(1));
        Some(Pool { bufs, ctx: null_mut(), events: [null_mut(); BUFFERS], pending: [false; BUFFERS], copier })
    }

    fn buffer_len(&self) -> usize {
        self.bufs[0].len
    }

    /// Makes the pool usable in the current context `cur`: events of that context, and every
    /// buffer pinned. False if that cannot be done (the copy then takes the driver's path).
    fn ready(&mut self, f: &Fns, cur: CUcontext) -> bool {
        if self.ctx == cur && !cur.is_null() && self.events_valid(f) {
            return true;
        }
        self.drop_events(f);
        for i in 0..BUFFERS {
            let mut ev: CUevent = null_mut();
            // SAFETY: valid out pointer; a context is current.
            if unsafe { f.cuEventCreate(&mut ev, CU_EVENT_DISABLE_TIMING) } != CUDA_SUCCESS {
                self.drop_events(f);
                return false;
            }
            self.events[i] = ev;
        }
        for b in &self.bufs {
            let mut ty: std::ffi::c_uint = 0;
            // SAFETY: valid out pointer; our own buffer.
            let known = unsafe {
                f.cuPointerGetAttribute(
                    (&mut ty as *mut std::ffi::c_uint).cast(),
                    CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                    b.ptr as CUdeviceptr,
                )
            };
            if known == CUDA_SUCCESS {
                continue;
            }
            // SAFETY: our own buffer of `len` bytes.
            let r = unsafe { f.cuMemHostRegister(b.ptr.cast(), b.len, CU_MEMHOSTREGISTER_PORTABLE) };
            if r != CUDA_SUCCESS {
                tracing::debug!("pageable copies: cannot pin a staging buffer: {r}");
                self.drop_events(f);
                return false;
            }
        }
        self.ctx = cur;
        true
    }

    /// Whether every event is still a valid handle (a destroyed context takes its events).
    fn events_valid(&self, f: &Fns) -> bool {
        self.events.iter().all(|&ev| {
            // SAFETY: an event we made; the driver checks it.
            let r = unsafe { f.cuEventQuery(ev) };
            r == CUDA_SUCCESS || r == CUDA_ERROR_NOT_READY
        })
    }

    /// Waits for the DMAs still running and destroys the events (errors ignored: their
    /// context may be gone, and its work with it).
    fn drop_events(&mut self, f: &Fns) {
        for i in 0..BUFFERS {
            let ev = std::mem::replace(&mut self.events[i], null_mut());
            if !ev.is_null() {
                // SAFETY: an event we made.
                unsafe {
                    if self.pending[i] {
                        f.cuEventSynchronize(ev);
                    }
                    f.cuEventDestroy(ev);
                }
            }
            self.pending[i] = false;
        }
        self.ctx = null_mut();
    }
}

/// The engine over the driver: DMAs on the copy's stream, an event per buffer.
struct DriverEngine<'a> {
    f: &'a Fns,
    pool: &'a mut Pool,
    device: CUdeviceptr,
    stream: CUstream,
}

impl Engine for DriverEngine<'_> {
    fn staging(&self, b: usize) -> *mut u8 {
        self.pool.bufs[b].ptr
    }

    fn to_device(&mut self, b: usize, off: usize, n: usize) -> Res {
        // SAFETY: a pinned buffer of at least `n` bytes; the device range was checked.
        cu(unsafe {
            self.f.cuMemcpyHtoDAsync(self.device + off as CUdeviceptr, self.staging(b).cast(), n, self.stream)
        })?;
        self.record(b)
    }

    fn from_device(&mut self, b: usize, off: usize, n: usize) -> Res {
        // SAFETY: as above.
        cu(unsafe {
            self.f.cuMemcpyDtoHAsync(self.staging(b).cast(), self.device + off as CUdeviceptr, n, self.stream)
        })?;
        self.record(b)
    }

    fn wait(&mut self, b: usize) -> Res {
        if !self.pool.pending[b] {
            return Ok(());
        }
        // SAFETY: an event of the current context.
        cu(unsafe { self.f.cuEventSynchronize(self.pool.events[b]) })?;
        self.pool.pending[b] = false;
        Ok(())
    }
}

impl DriverEngine<'_> {
    fn record(&mut self, b: usize) -> Res {
        // SAFETY: an event of the current context and the copy's stream.
        cu(unsafe { self.f.cuEventRecord(self.pool.events[b], self.stream) })?;
        self.pool.pending[b] = true;
        Ok(())
    }
}

// ---- when a copy takes the pipeline -----------------------------------------------------

/// The memory type of `p` as the driver knows it: `None` for memory it does not know
/// (pageable), `Some((type, managed))` otherwise. `Err` for any other failure.
fn kind_of(f: &Fns, p: usize) -> Result<Option<(CUmemorytype, bool)>, ()> {
    let mut ty: std::ffi::c_uint = 0;
    let mut managed: std::ffi::c_uint = 0;
    let mut attrs = [CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED];
    let mut data: [*mut c_void; 2] =
        [(&mut ty as *mut std::ffi::c_uint).cast(), (&mut managed as *mut std::ffi::c_uint).cast()];
    // SAFETY: valid arrays of two attributes and their out pointers.
    let r = unsafe { f.cuPointerGetAttributes(2, attrs.as_mut_ptr(), data.as_mut_ptr(), p as CUdeviceptr) };
    match r {
        CUDA_SUCCESS if ty == 0 => Ok(None),
        CUDA_SUCCESS => Ok(Some((ty as CUmemorytype, managed != 0))),
        _ => Err(()),
    }
}

/// Whether `[p, p + n)` is device memory (not managed) inside one allocation.
fn device_range(f: &Fns, p: usize, n: usize) -> bool {
    if !matches!(kind_of(f, p), Ok(Some((CU_MEMORYTYPE_DEVICE, false)))) {
        return false;
    }
    let (mut base, mut size): (CUdeviceptr, usize) = (0, 0);
    // SAFETY: valid out pointers.
    if unsafe { f.cuMemGetAddressRange(&mut base, &mut size, p as CUdeviceptr) } != CUDA_SUCCESS {
        return false;
    }
    let end = (p as u64).checked_add(n as u64);
    end.is_some_and(|e| e <= base.saturating_add(size as u64))
}

/// Which way a copy goes, when one end is pageable host memory and the other device memory.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Way {
    ToDevice,
    FromDevice,
}

/// The pipeline's way for a copy whose ends have these memory types (from the copy's kind),
/// or `None` if it is no copy between pageable and device memory.
fn way(f: &Fns, dst: usize, src: usize, n: usize, smem: CUmemorytype, dmem: CUmemorytype) -> Option<Way> {
    let pageable = |p| matches!(kind_of(f, p), Ok(None));
    match (smem, dmem) {
        (CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE) => {
            (pageable(src) && device_range(f, dst, n)).then_some(Way::ToDevice)
        }
        (CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_HOST) => {
            (pageable(dst) && device_range(f, src, n)).then_some(Way::FromDevice)
        }
        (CU_MEMORYTYPE_UNIFIED, CU_MEMORYTYPE_UNIFIED) => {
            if pageable(src) && device_range(f, dst, n) {
                Some(Way::ToDevice)
            } else if pageable(dst) && device_range(f, src, n) {
                Some(Way::FromDevice)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Runs a checked copy of `count` bytes (ends of memory types `smem`, `dmem` from its kind)
/// through the pipeline if it is one the pipeline takes (see the module documentation);
/// `None` if it is not, and the caller makes the driver's call.
#[inline]
pub(crate) fn memcpy(
    f: &Fns,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    smem: CUmemorytype,
    dmem: CUmemorytype,
    stream: Option<cudaStream_t>,
) -> Option<Res> {
    if count < MIN_CHUNK || smem == dmem && smem != CU_MEMORYTYPE_UNIFIED {
        return None;
    }
    let cfg = config();
    if count < cfg.min || !cfg.on() {
        return None;
    }
    pipelined(f, dst as usize, src as usize, count, smem, dmem, stream.unwrap_or(null_mut()), &cfg)
}

#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)] // the copy's own arguments, passed on as they came
fn pipelined(
    f: &Fns,
    dst: usize,
    src: usize,
    n: usize,
    smem: CUmemorytype,
    dmem: CUmemorytype,
    stream: CUstream,
    cfg: &Config,
) -> Option<Res> {
    let way = way(f, dst, src, n, smem, dmem)?;
    let mut status = 0;
    // SAFETY: valid out pointer; the driver checks the stream.
    if unsafe { f.cuStreamIsCapturing(stream, &mut status) } != CUDA_SUCCESS || status != 0 {
        return None;
    }
    let mut cur: CUcontext = null_mut();
    // SAFETY: valid out pointer.
    if unsafe { f.cuCtxGetCurrent(&mut cur) } != CUDA_SUCCESS || cur.is_null() || BROKEN.load(Ordering::Relaxed) {
        return None;
    }
    // Another thread's pipelined copy holds the pool: this one takes the driver's path.
    let mut guard = POOL.try_lock()?;
    if guard.is_none() {
        *guard = Pool::new(cfg);
        if guard.is_none() {
            BROKEN.store(true, Ordering::Relaxed);
            return None;
        }
        // The pool's events live in a context: a device reset is told to let go of them.
        crate::runtime::rt::before_reset(forget_context);
    }
    let pool = guard.as_mut()?;
    if pool.copier.pid != std::process::id() {
        return None;
    }
    if !pool.ready(f, cur) {
        // Pinning or events failed: the driver's path from now on, rather than a failed
        // attempt before every large copy.
        BROKEN.store(true, Ordering::Relaxed);
        return None;
    }
    if way == Way::ToDevice {
        // "A stream sync is performed before the copy is initiated."
        // SAFETY: the driver checks the stream.
        if unsafe { f.cuStreamSynchronize(stream) } != CUDA_SUCCESS {
            return None;
        }
    }
    let chunk = chunk(n, pool.buffer_len());
    let copier = pool.copier;
    let copy = |d: *mut u8, s: *const u8, len: usize| copier.copy(d, s, len);
    tracing::debug!("pageable copy of {n} bytes {way:?} through the staging pipeline (chunks of {chunk})");
    copier.begin();
    let device = if way == Way::ToDevice { dst } else { src } as CUdeviceptr;
    let mut e = DriverEngine { f, pool, device, stream };
    let r = match way {
        Way::ToDevice => to_device(&mut e, &copy, src as *const u8, n, chunk, BUFFERS),
        Way::FromDevice => from_device(&mut e, &copy, dst as *mut u8, n, chunk, BUFFERS),
    };
    copier.end();
    Some(r)
}

/// Called before a primary context is reset by the runtime (`cudaDeviceReset`, through
/// [`crate::runtime::rt::before_reset`]): the pool lets go of its events there, and pins its
/// buffers again in the next context.
pub(crate) fn forget_context(f: &Fns, ctx: CUcontext) {
    let mut g = POOL.lock();
    if let Some(p) = g.as_mut().filter(|p| p.ctx == ctx && !ctx.is_null()) {
        // The context's own teardown unpins the buffers.
        p.drop_events(f);
    }
}

#[cfg(test)]
mod tests;
