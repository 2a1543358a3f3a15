//! GPU spans for the timeline (`CUDART_RS_TIMELINE=PATH,gpu`): around each copy, memset,
//! kernel and graph launch, an event is recorded on its stream before and after; once the
//! second has completed, the pair's times, taken against an anchor event of the context
//! whose completion was seen on the host clock, give the span on the GPU.
//!
//! Spans are skipped on a stream that is capturing (the events would become graph nodes) and
//! when no context is current. They are collected when 256 are pending, at the program's
//! synchronizations, before a device reset and at exit; the anchor's host time is taken
//! right after it completes, so spans are placed to within that wait's granularity.

use std::collections::HashMap;
use std::ptr::null_mut;
use std::sync::MutexGuard;
use std::time::{Duration, Instant};

use super::config::config;
use super::lock::Lock;
use super::{clock, timeline};
use crate::driver::types::*;
use crate::driver::Fns;

/// A span begun: its context, stream and start event.
#[derive(Clone)]
pub struct Begin {
    ctx: usize,
    stream: usize,
    start: usize,
}

struct Pending {
    b: Begin,
    end: usize,
    name: String,
    cat: &'static str,
}

struct Ctx {
    /// The anchor event and the host time it completed at.
    anchor: usize,
    at: Instant,
    /// Events free for reuse.
    pool: Vec<usize>,
    device: i32,
}

#[derive(Default)]
struct State {
    ctxs: HashMap<usize, Ctx>,
    pending: Vec<Pending>,
    /// (context, stream) -> track number.
    tracks: HashMap<(usize, usize), i64>,
}

static STATE: Lock<Option<State>> = Lock::new(None);

fn fns() -> Option<&'static Fns> {
    crate::runtime::rt::driver().ok().map(|d| &d.legacy)
}

fn event(f: &Fns, ctx: &mut Ctx) -> Option<usize> {
    if let Some(e) = ctx.pool.pop() {
        return Some(e);
    }
    let mut e: CUevent = null_mut();
    // SAFETY: valid out pointer; a context is current.
    (unsafe { f.cuEventCreate(&mut e, 0) } == CUDA_SUCCESS).then_some(e as usize)
}

fn new_ctx(f: &Fns) -> Option<Ctx> {
    // The anchor: recorded on a stream of its own (which waits for nothing), waited for.
    let mut s: CUstream = null_mut();
    let mut a: CUevent = null_mut();
    let mut dev = 0;
    // SAFETY: valid out pointers; a context is current.
    unsafe {
        if f.cuStreamCreate(&mut s, 1) != CUDA_SUCCESS {
            return None;
        }
        let ok = f.cuEventCreate(&mut a, 0) == CUDA_SUCCESS
            && f.cuEventRecord(a, s) == CUDA_SUCCESS
            && f.cuEventSynchronize(a) == CUDA_SUCCESS;
        let at = Instant::now();
        f.cuStreamDestroy(s);
        f.cuCtxGetDevice(&mut dev);
        ok.then(|| Ctx { anchor: a as usize, at, pool: Vec::new(), device: dev })
    }
}

/// Records the start of a span on `stream`, if one can be measured there.
pub fn begin(stream: usize) -> Option<Begin> {
    let f = fns()?;
    crate::runtime::capture_mode::relaxed(f, || {
        let mut cur: CUcontext = null_mut();
        let mut capturing = 0;
        // SAFETY: valid out pointers; plain queries.
        unsafe {
            if f.cuCtxGetCurrent(&mut cur) != CUDA_SUCCESS || cur.is_null() {
                return None;
            }
            // Capturing, or the legacy stream while another captures (900-909: the capture
            // errors). A driver without capture says so otherwise (not supported).
            let r = f.cuStreamIsCapturing(stream as CUstream, &mut capturing);
            if (r == CUDA_SUCCESS && capturing != 0) || (900..910).contains(&r) {
                return None;
            }
        }
        let mut g = STATE.lock();
        let st = g.get_or_insert_with(State::default);
        let ctx = match st.ctxs.entry(cur as usize) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(new_ctx(f)?),
        };
        let e = event(f, ctx)?;
        // SAFETY: an event of the current context on the call's stream.
        if unsafe { f.cuEventRecord(e as CUevent, stream as CUstream) } != CUDA_SUCCESS {
            ctx.pool.push(e);
            return None;
        }
        Some(Begin { ctx: cur as usize, stream, start: e })
    })
}

/// Ends the span begun by `b` (after the call; `ok`: the call succeeded).
pub fn end(b: Begin, ok: bool, label: impl FnOnce() -> (String, &'static str)) {
    let Some(f) = fns() else { return };
    let (name, cat) = if ok { label() } else { (String::new(), "") };
    let full = crate::runtime::capture_mode::relaxed(f, || {
        let mut g = STATE.lock();
        let st = g.get_or_insert_with(State::default);
        let Some(ctx) = st.ctxs.get_mut(&b.ctx) else { return false };
        if !ok {
            ctx.pool.push(b.start);
            return false;
        }
        let Some(e) = event(f, ctx) else {
            ctx.pool.push(b.start);
            return false;
        };
        // SAFETY: an event of the span's context on its stream.
        if unsafe { f.cuEventRecord(e as CUevent, b.stream as CUstream) } != CUDA_SUCCESS {
            ctx.pool.push(e);
            ctx.pool.push(b.start);
            return false;
        }
        st.pending.push(Pending { b, end: e, name, cat });
        st.pending.len() >= 256
    });
    if full {
        collect(false);
    }
}

/// Writes the spans whose work has finished to the timeline (all of them, waiting, when
/// `wait`).
pub fn collect(wait: bool) {
    let Some(f) = fns() else { return };
    let Some(mut g) = STATE.within(Duration::from_secs(2)) else { return };
    let Some(st) = g.as_mut() else { return };
    crate::runtime::capture_mode::relaxed(f, || {
        let pending = std::mem::take(&mut st.pending);
        for p in pending {
            // SAFETY: events this module recorded; valid out pointers.
            unsafe {
                let done = if wait { f.cuEventSynchronize(p.end as CUevent) } else { f.cuEventQuery(p.end as CUevent) };
                if done == CUDA_ERROR_NOT_READY {
                    st.pending.push(p);
                    continue;
                }
                let Some(ctx) = st.ctxs.get_mut(&p.b.ctx) else { continue };
                let (mut from, mut dur) = (0f32, 0f32);
                let ok = done == CUDA_SUCCESS
                    && f.cuEventElapsedTime(&mut from, ctx.anchor as CUevent, p.b.start as CUevent) == CUDA_SUCCESS
                    && f.cuEventElapsedTime(&mut dur, p.b.start as CUevent, p.end as CUevent) == CUDA_SUCCESS;
                ctx.pool.push(p.b.start);
                ctx.pool.push(p.end);
                if !ok {
                    continue;
                }
                let n = st.tracks.len() as i64;
                let track = *st.tracks.entry((p.b.ctx, p.b.stream)).or_insert(1_000_000 + n);
                let stream = match p.b.stream {
                    0 | 1 => "legacy default stream".to_string(),
                    2 => "per-thread default stream".to_string(),
                    s => format!("stream {s:#x}"),
                };
                let ts = clock::abs_us(ctx.at) + from as f64 * 1e3;
                timeline::gpu_span(
                    track,
                    &format!("GPU {} {stream}", ctx.device),
                    &p.name,
                    p.cat,
                    ts,
                    dur as f64 * 1e3,
                );
            }
        }
    });
}

/// The spans' state, held across a fork.
pub struct Held(MutexGuard<'static, Option<State>>);

pub fn hold() -> Held {
    Held(STATE.lock())
}

impl Held {
    /// In the forked child: the parent's events and contexts are not the child's (they are
    /// forgotten, not destroyed).
    pub fn forked(mut self) {
        if let Some(st) = self.0.take() {
            std::mem::forget(st);
        }
    }
}

/// Before a device reset of the current context: its spans are collected and its events,
/// which the reset destroys, forgotten.
pub fn forget_current() {
    if !config().gpu {
        return;
    }
    collect(true);
    let Some(f) = fns() else { return };
    let mut cur: CUcontext = null_mut();
    // SAFETY: valid out pointer.
    unsafe { f.cuCtxGetCurrent(&mut cur) };
    if let Some(st) = STATE.lock().as_mut() {
        st.ctxs.remove(&(cur as usize));
        st.pending.retain(|p| p.b.ctx != cur as usize);
    }
}
