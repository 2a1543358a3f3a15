//! The stand-in's global model: devices, primary contexts, the allocation registry, and the
//! registries of streams, events, arrays, graphs and their executables, user objects, stream
//! captures and memory pools. One `parking_lot::Mutex` guards it all; the current-context
//! stack is thread-local.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::ffi::c_int;
use std::time::Instant;

use parking_lot::Mutex;

use crate::dag::{EdgeData, Exec, Graph, Handle, Node, UserObject};
pub use crate::ids::SKey;
use crate::mempool::Pool;
use crate::types::*;

pub type Res<T = ()> = Result<T, CUresult>;

/// Memory every device reports as its total.
pub const TOTAL_MEM: usize = 16 << 30;
/// Pinned host memory the stand-in hands out before it reports `CUDA_ERROR_OUT_OF_MEMORY`.
pub const HOST_LIMIT: usize = 64 << 30;
pub use crate::backing::{Arena, Backing, Buf, PAGE};
pub const MAX_DEVICES: c_int = 4;

pub const CU_DEVICE_CPU: c_int = -1;
pub const CU_DEVICE_INVALID: c_int = -2;

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
    /// From a memory pool of page-locked host memory: host memory the devices reach only
    /// where the pool gives them access (they never get it here).
    PoolHost,
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
    /// The memory pool it came from ([`GRAPH_MEMORY`] for a graph's allocation node; 0: none).
    pub pool: usize,
}

/// `Alloc::pool` of memory an allocation node of a graph handed out.
pub const GRAPH_MEMORY: usize = 1;

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
    /// Last recorded in a capturing stream: the capture and what a wait joins after.
    pub captured: Option<(u64, Vec<(usize, EdgeData)>)>,
    /// The stream it was last recorded in, and that stream's count of work then.
    pub at: Option<(SKey, u64)>,
}

/// A stream capture: its graph (made by the capture or the caller's), the mode it began in,
/// the thread and stream that began it, whether an error ended it early.
pub struct Capture {
    pub graph: usize,
    pub mode: c_int,
    pub thread: u64,
    pub origin: SKey,
    pub dev: c_int,
    pub invalid: bool,
    /// Captured into a graph the caller made (`cuStreamBeginCaptureToGraph`).
    pub existing: bool,
}

/// A stream taking part in a capture: the capture and the nodes its next work depends on.
pub struct StreamCap {
    pub id: u64,
    pub deps: Vec<(usize, EdgeData)>,
    /// The same, as the arrays `cuStreamGetCaptureInfo` hands out.
    pub out_nodes: Vec<usize>,
    pub out_edges: Vec<EdgeData>,
}

/// Graph memory of a device: in use by graphs' allocations, and reserved for them.
#[derive(Clone, Copy, Default)]
pub struct GraphMem {
    pub used: u64,
    pub used_high: u64,
    pub reserved: u64,
    pub reserved_high: u64,
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
    pub graphs: HashMap<usize, Graph>,
    pub nodes: HashMap<usize, Node>,
    pub execs: HashMap<usize, Exec>,
    pub objects: HashMap<usize, UserObject>,
    pub conds: HashMap<u64, Handle>,
    pub next_cond: u64,
    /// The last graph number handed out (graphs, their copies and executables are numbered).
    pub graph_ids: u32,
    pub graph_mem: Vec<GraphMem>,
    pub captures: HashMap<u64, Capture>,
    pub next_capture: u64,
    pub caps: HashMap<SKey, StreamCap>,
    /// Each stream's count of work so far, and what each stream has waited for of others.
    pub seq: HashMap<SKey, u64>,
    pub waited: HashMap<SKey, HashMap<SKey, u64>>,
    pub pools: HashMap<usize, Pool>,
    /// The current pool of each (location type, location id, allocation type).
    pub current_pools: HashMap<(c_int, c_int, c_int), usize>,
    /// The default pools, made on first use.
    pub default_pools: HashMap<(c_int, c_int, c_int), usize>,
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
        graphs: HashMap::new(),
        nodes: HashMap::new(),
        execs: HashMap::new(),
        objects: HashMap::new(),
        conds: HashMap::new(),
        next_cond: 1,
        graph_ids: 0,
        graph_mem: vec![GraphMem::default(); ndev as usize],
        captures: HashMap::new(),
        next_capture: 1,
        caps: HashMap::new(),
        seq: HashMap::new(),
        waited: HashMap::new(),
        pools: HashMap::new(),
        current_pools: HashMap::new(),
        default_pools: HashMap::new(),
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
