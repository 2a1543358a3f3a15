//! The stand-in's global model: devices, primary contexts, the allocation registry, and the
//! registries of streams, events and arrays. One `parking_lot::Mutex` guards it all; the
//! current-context stack is thread-local.

use std::alloc::Layout;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::ffi::c_int;
use std::time::Instant;

use parking_lot::Mutex;

use crate::types::*;

pub type Res<T = ()> = Result<T, CUresult>;

/// Memory every device reports as its total.
pub const TOTAL_MEM: usize = 16 << 30;
/// Pinned host memory the stand-in hands out before it reports `CUDA_ERROR_OUT_OF_MEMORY`.
pub const HOST_LIMIT: usize = 64 << 30;
/// Alignment of every allocation (the real driver's `cuMemAlloc` gives 512 bytes; we give pages).
pub const ALIGN: usize = 4096;
/// The page size unified-memory advice is tracked at.
pub const PAGE: usize = 4096;
pub const MAX_DEVICES: c_int = 4;

pub const CU_DEVICE_CPU: c_int = -1;
pub const CU_DEVICE_INVALID: c_int = -2;

/// Memory owned by the stand-in: a raw, aligned host allocation freed on drop.
pub struct Buf {
    pub ptr: *mut u8,
    layout: Layout,
}
// SAFETY: a plain owned allocation; access is synchronised by the state mutex.
unsafe impl Send for Buf {}

impl Buf {
    /// Allocates `size` bytes (at least one), aligned to [`ALIGN`]; `None` when the host has none.
    pub fn new(size: usize, zeroed: bool) -> Option<Buf> {
        let layout = Layout::from_size_align(size.max(1), ALIGN).ok()?;
        // SAFETY: non-zero size layout.
        let ptr = unsafe {
            if zeroed {
                std::alloc::alloc_zeroed(layout)
            } else {
                std::alloc::alloc(layout)
            }
        };
        if ptr.is_null() {
            None
        } else {
            Some(Buf { ptr, layout })
        }
    }
}

impl Drop for Buf {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr, self.layout) }
    }
}

/// The address range every allocation a caller sees (device, managed, pinned host) is carved
/// from: reserved once, handed out front to back and never reused, so a freed or made-up
/// pointer inside it is recognised as invalid instead of being read as host memory.
pub struct Arena {
    pub base: usize,
    pub len: usize,
    next: usize,
}

/// Reserved address space: 1 TiB (less if the system refuses), no memory behind it until used.
const ARENA_SIZES: [usize; 4] = [1 << 40, 1 << 38, 1 << 36, 1 << 34];

impl Arena {
    fn reserve() -> Option<Arena> {
        for len in ARENA_SIZES {
            // SAFETY: an anonymous, inaccessible reservation; nothing else refers to it.
            let p = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_NONE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                    -1,
                    0,
                )
            };
            if p != libc::MAP_FAILED {
                return Some(Arena { base: p as usize, len, next: p as usize });
            }
        }
        None
    }

    pub fn contains(&self, addr: usize) -> bool {
        addr >= self.base && addr < self.base + self.len
    }

    /// Maps `size` bytes (page-rounded) at the next free address, a guard page after it.
    fn take(&mut self, size: usize) -> Option<Mapped> {
        let len = size.max(1).checked_add(PAGE - 1)? / PAGE * PAGE;
        let end = self.next.checked_add(len)?.checked_add(PAGE)?;
        if end > self.base + self.len {
            return None;
        }
        let addr = self.next;
        // SAFETY: a page-aligned range inside our own reservation.
        let r = unsafe { libc::mprotect(addr as *mut libc::c_void, len, libc::PROT_READ | libc::PROT_WRITE) };
        if r != 0 {
            return None;
        }
        self.next = end;
        Some(Mapped { addr, len })
    }
}

/// Pages of the arena backing one allocation; returned to the system (and made inaccessible)
/// on drop. The addresses are not handed out again.
pub struct Mapped {
    pub addr: usize,
    len: usize,
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: pages of our reservation that nothing refers to any more.
        unsafe {
            libc::madvise(self.addr as *mut libc::c_void, self.len, libc::MADV_DONTNEED);
            libc::mprotect(self.addr as *mut libc::c_void, self.len, libc::PROT_NONE);
        }
    }
}

/// The memory behind an allocation.
pub enum Backing {
    Arena(#[allow(dead_code)] Mapped),
    Heap(#[allow(dead_code)] Buf),
    /// Registered host memory: the caller's.
    None,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `cuMemAlloc`, `cuMemAllocPitch`.
    Device,
    /// `cuMemAllocHost`, `cuMemHostAlloc`.
    Pinned,
    /// `cuMemHostRegister`: memory the caller owns.
    Registered,
    /// `cuMemAllocManaged`.
    Managed,
}

/// A unified-memory location as advice and prefetches record it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Loc {
    #[default]
    None,
    Host,
    HostNuma(c_int),
    Dev(c_int),
}

/// Per-page unified-memory state.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Page {
    pub read_mostly: bool,
    pub preferred: Loc,
    /// Bit `d` for device `d`, bit 7 for the CPU.
    pub accessed_by: u8,
    pub prefetch: Loc,
}

pub const ACCESS_CPU_BIT: u8 = 0x80;

pub struct Alloc {
    pub size: usize,
    pub kind: Kind,
    pub flags: u32,
    pub dev: c_int,
    /// Owns the memory of stand-in allocations.
    #[allow(dead_code)]
    pub mem: Backing,
    pub buffer_id: u64,
    pub sync_memops: bool,
    /// Advice and prefetch state, one entry per [`PAGE`]; created on first use.
    pub pages: Option<Vec<Page>>,
}

pub struct Primary {
    pub handle: usize,
    pub refcount: u32,
    pub active: bool,
    pub flags: u32,
    /// Bit `d`: peer access to device `d` enabled from this context.
    pub peers: u8,
}

pub struct Stream {
    pub dev: c_int,
    pub flags: u32,
    pub priority: c_int,
}

pub struct Event {
    pub dev: c_int,
    pub flags: u32,
    pub recorded: Option<Instant>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Desc {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub format: CUarray_format,
    pub channels: u32,
    pub flags: u32,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    /// Created by `cuArrayCreate`/`cuArray3DCreate`; destroyed by `cuArrayDestroy`.
    User,
    /// A level of a mipmapped array.
    Level(usize),
    /// A plane of a multi-planar array.
    Plane(usize),
}

pub struct Array {
    pub desc: Desc,
    pub dev: c_int,
    pub owner: Owner,
    /// Bytes per row, rows per slice, slices.
    pub row_bytes: usize,
    pub rows: usize,
    pub slices: usize,
    /// Start of the contents (inside `buf`, or inside the parent's buffer for a plane).
    pub data: usize,
    pub buf: Option<Buf>,
    pub planes: Vec<usize>,
}

impl Array {
    pub fn bytes(&self) -> usize {
        self.row_bytes * self.rows * self.slices
    }
}

pub struct Mipmap {
    pub desc: Desc,
    pub dev: c_int,
    pub levels: Vec<usize>,
}

pub struct State {
    pub ndev: c_int,
    pub ctxs: Vec<Primary>,
    pub allocs: BTreeMap<usize, Alloc>,
    /// Device memory in use per device (device allocations and arrays).
    pub used: Vec<usize>,
    pub host_used: usize,
    pub streams: HashMap<usize, Stream>,
    pub events: HashMap<usize, Event>,
    pub arrays: HashMap<usize, Array>,
    pub mipmaps: HashMap<usize, Mipmap>,
    pub next_buffer_id: u64,
    pub arena: Option<Arena>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

thread_local! {
    /// This thread's context stack; the last entry is the current context.
    static STACK: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// A fresh opaque handle: a small heap object that is never freed, so a handle is never
/// reused and a destroyed one stays invalid.
pub fn new_handle() -> usize {
    Box::into_raw(Box::new(0u64)) as usize
}

/// Initialises the model (idempotent). Devices: `CUDART_STANDIN_DEVICES` (1..4), default 1.
pub fn init() {
    let mut g = STATE.lock();
    if g.is_some() {
        return;
    }
    let ndev = std::env::var("CUDART_STANDIN_DEVICES")
        .ok()
        .and_then(|v| v.trim().parse::<c_int>().ok())
        .map(|n| n.clamp(1, MAX_DEVICES))
        .unwrap_or(1);
    let ctxs =
        (0..ndev).map(|_| Primary { handle: new_handle(), refcount: 0, active: false, flags: 0, peers: 0 }).collect();
    *g = Some(State {
        ndev,
        ctxs,
        allocs: BTreeMap::new(),
        used: vec![0; ndev as usize],
        host_used: 0,
        streams: HashMap::new(),
        events: HashMap::new(),
        arrays: HashMap::new(),
        mipmaps: HashMap::new(),
        next_buffer_id: 1,
        arena: Arena::reserve(),
    });
}

/// Runs `f` on the initialised state; `CUDA_ERROR_NOT_INITIALIZED` before `cuInit`.
pub fn with<T>(f: impl FnOnce(&mut State) -> Res<T>) -> Res<T> {
    let mut g = STATE.lock();
    match g.as_mut() {
        Some(s) => f(s),
        None => Err(CUDA_ERROR_NOT_INITIALIZED),
    }
}

// The context stack is read with `try_with`: during thread exit (after its destructor ran)
// it reads as empty instead of panicking.

pub fn stack_top() -> usize {
    STACK.try_with(|s| s.borrow().last().copied().unwrap_or(0)).unwrap_or(0)
}

pub fn stack_set_top(ctx: usize) {
    let _ = STACK.try_with(|s| {
        let mut s = s.borrow_mut();
        if ctx == 0 {
            s.pop();
        } else if let Some(t) = s.last_mut() {
            *t = ctx;
        } else {
            s.push(ctx);
        }
    });
}

pub fn stack_push(ctx: usize) {
    let _ = STACK.try_with(|s| s.borrow_mut().push(ctx));
}

pub fn stack_pop() -> usize {
    STACK.try_with(|s| s.borrow_mut().pop().unwrap_or(0)).unwrap_or(0)
}

impl State {
    pub fn check_dev(&self, dev: c_int) -> Res<c_int> {
        if dev < 0 || dev >= self.ndev {
            Err(CUDA_ERROR_INVALID_DEVICE)
        } else {
            Ok(dev)
        }
    }

    /// The device of a context handle, if it names a primary context.
    pub fn ctx_dev(&self, ctx: usize) -> Option<c_int> {
        self.ctxs.iter().position(|c| c.handle == ctx).map(|d| d as c_int)
    }

    /// The device of a live context handle: `CUDA_ERROR_INVALID_CONTEXT` otherwise.
    pub fn live_ctx(&self, ctx: usize) -> Res<c_int> {
        match self.ctx_dev(ctx) {
            Some(d) if self.ctxs[d as usize].active => Ok(d),
            _ => Err(CUDA_ERROR_INVALID_CONTEXT),
        }
    }

    /// The device of this thread's current context: `CUDA_ERROR_INVALID_CONTEXT` if none;
    /// `CUDA_ERROR_CONTEXT_IS_DESTROYED` for a primary context reset (or released) while it
    /// was current, as the H100's driver answers the calls NVIDIA's runtime makes after
    /// `cudaDeviceReset` without retaining a context (`ctest/reset_current.c`).
    pub fn cur(&self) -> Res<c_int> {
        let top = stack_top();
        if top == 0 {
            return Err(CUDA_ERROR_INVALID_CONTEXT);
        }
        match self.ctx_dev(top) {
            Some(d) if self.ctxs[d as usize].active => Ok(d),
            Some(_) => Err(CUDA_ERROR_CONTEXT_IS_DESTROYED),
            None => Err(CUDA_ERROR_INVALID_CONTEXT),
        }
    }

    /// Memory for a new allocation: from the arena, or the heap if there is no arena or it
    /// is used up.
    pub fn backing(&mut self, size: usize) -> Option<(usize, Backing)> {
        if let Some(m) = self.arena.as_mut().and_then(|a| a.take(size)) {
            return Some((m.addr, Backing::Arena(m)));
        }
        Buf::new(size, false).map(|b| (b.ptr as usize, Backing::Heap(b)))
    }

    /// Whether `addr` is in the stand-in's allocation range but in no live allocation: a
    /// freed or made-up device pointer, never to be read as host memory.
    pub fn stale(&self, addr: usize) -> bool {
        self.arena.as_ref().is_some_and(|a| a.contains(addr)) && self.find(addr).is_none()
    }

    pub fn buffer_id(&mut self) -> u64 {
        let id = self.next_buffer_id;
        self.next_buffer_id += 1;
        id
    }

    /// The allocation containing `addr`: (base, allocation).
    pub fn find(&self, addr: usize) -> Option<(usize, &Alloc)> {
        let (&base, a) = self.allocs.range(..=addr).next_back()?;
        if addr < base + a.size.max(1) {
            Some((base, a))
        } else {
            None
        }
    }

    pub fn find_mut(&mut self, addr: usize) -> Option<(usize, &mut Alloc)> {
        let (&base, a) = self.allocs.range_mut(..=addr).next_back()?;
        if addr < base + a.size.max(1) {
            Some((base, a))
        } else {
            None
        }
    }

    /// Checks that `[addr, addr + len)` lies inside one registered allocation.
    pub fn check_range(&self, addr: usize, len: usize) -> Res<(usize, &Alloc)> {
        let (base, a) = self.find(addr).ok_or(CUDA_ERROR_INVALID_VALUE)?;
        let end = addr.checked_add(len).ok_or(CUDA_ERROR_INVALID_VALUE)?;
        if end > base + a.size {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        Ok((base, a))
    }

    /// Validates a stream handle: null, `CU_STREAM_LEGACY`, `CU_STREAM_PER_THREAD` or a live
    /// stream; `CUDA_ERROR_INVALID_HANDLE` otherwise.
    pub fn check_stream(&self, s: usize) -> Res {
        if s <= 2 || self.streams.contains_key(&s) {
            Ok(())
        } else {
            Err(CUDA_ERROR_INVALID_HANDLE)
        }
    }

    /// Destroys what this registry holds of a device's primary context (on reset or the last
    /// release; `context::destroyed` does the rest).
    pub fn destroy_ctx_resources(&mut self, dev: c_int) {
        // Registrations are forgotten too (without freeing the caller's memory).
        self.allocs.retain(|_, a| a.dev != dev);
        self.used[dev as usize] = 0;
        self.host_used = self.allocs.values().filter(|a| a.kind == Kind::Pinned).map(|a| a.size).sum();
        self.streams.retain(|_, s| s.dev != dev);
        self.events.retain(|_, e| e.dev != dev);
        self.arrays.retain(|_, a| a.dev != dev);
        self.mipmaps.retain(|_, m| m.dev != dev);
        self.ctxs[dev as usize].peers = 0;
        for o in self.ctxs.iter_mut() {
            o.peers &= !(1u8 << dev);
        }
    }
}
