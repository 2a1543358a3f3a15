//! Stream capture, as the driver rules it: work on a capturing stream becomes nodes of the
//! capture's graph instead of running; an event recorded in a capture carries the capture to
//! the streams that wait on it (a fork) and back (a join); a capture ends on the stream that
//! began it, with every fork joined. What would make a capture unsafe is refused and ends the
//! capture early (invalidated): work on the legacy stream while a stream it synchronises with
//! captures (`CUDA_ERROR_STREAM_CAPTURE_IMPLICIT`), waiting for a capturing stream or for
//! captured events, and, by the thread's mode and the captures' modes, the potentially unsafe
//! calls (allocations, frees, waits for other work).

use std::ffi::{c_int, c_uint};

use crate::dag::*;
use crate::ids::{self, thread_id, MODE_GLOBAL, MODE_RELAXED, MODE_THREAD_LOCAL};
use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};
use crate::{
    CUDA_ERROR_CAPTURED_EVENT, CUDA_ERROR_ILLEGAL_STATE, CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
    CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, CUDA_ERROR_STREAM_CAPTURE_ISOLATION, CUDA_ERROR_STREAM_CAPTURE_MERGE,
    CUDA_ERROR_STREAM_CAPTURE_UNJOINED, CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
    CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD,
};

const INVAL: CUresult = CUDA_ERROR_INVALID_VALUE;
const CU_STREAM_NON_BLOCKING: u32 = 1;
/// `CU_STREAM_CAPTURE_STATUS_NONE`, `_ACTIVE`, `_INVALIDATED`.
const STATUS_ACTIVE: c_int = 1;
const STATUS_INVALIDATED: c_int = 2;
/// `CU_STREAM_ADD_CAPTURE_DEPENDENCIES`, `CU_STREAM_SET_CAPTURE_DEPENDENCIES`.
const SET_DEPENDENCIES: c_uint = 1;

impl State {
    /// The stream handle `h` names (null: the legacy stream, or with `per_thread` the
    /// thread's own), on the current context's device.
    #[inline]
    pub fn skey(&self, h: usize, per_thread: bool) -> Res<SKey> {
        let dev = self.cur()?;
        Ok(match h {
            0 if per_thread => SKey::PerThread(dev, thread_id()),
            0 | 1 => SKey::Legacy(dev),
            2 => SKey::PerThread(dev, thread_id()),
            h if self.streams.contains_key(&h) => SKey::Handle(h),
            _ => return Err(CUDA_ERROR_INVALID_HANDLE),
        })
    }

    fn key_dev(&self, k: SKey) -> c_int {
        match k {
            SKey::Legacy(d) | SKey::PerThread(d, _) => d,
            SKey::Handle(h) => self.streams.get(&h).map_or(-1, |s| s.dev),
        }
    }

    /// Whether the legacy stream synchronises with stream `k` (the per-thread streams and
    /// streams created without `CU_STREAM_NON_BLOCKING`).
    fn blocking(&self, k: SKey) -> bool {
        match k {
            SKey::Legacy(_) => false,
            SKey::PerThread(..) => true,
            SKey::Handle(h) => self.streams.get(&h).is_some_and(|s| s.flags & CU_STREAM_NON_BLOCKING == 0),
        }
    }

    /// The captures work on device `dev`'s legacy stream would depend on implicitly.
    fn implicit(&self, dev: c_int) -> Vec<u64> {
        let mut ids: Vec<u64> = self
            .caps
            .iter()
            .filter(|(k, _)| self.blocking(**k) && self.key_dev(**k) == dev)
            .map(|(_, c)| c.id)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Ends capture `id` early: its streams stay in it (their work is refused) until it ends.
    pub fn invalidate(&mut self, id: u64) {
        if let Some(c) = self.captures.get_mut(&id) {
            c.invalid = true;
        }
    }

    /// Where work on stream `k` goes: `None`, run it now; `Some(capture)`, into the capture's
    /// graph. Work on the legacy stream while a stream it synchronises with captures is
    /// refused (and ends those captures); work in an invalidated capture is refused.
    #[inline]
    pub fn gate(&mut self, k: SKey) -> Res<Option<u64>> {
        // Nothing captures: the common case, answered without a look-up.
        if self.caps.is_empty() {
            return Ok(None);
        }
        self.gate_capturing(k)
    }

    fn gate_capturing(&mut self, k: SKey) -> Res<Option<u64>> {
        if let SKey::Legacy(dev) = k {
            let ids = self.implicit(dev);
            if ids.is_empty() {
                return Ok(None);
            }
            for id in ids {
                self.invalidate(id);
            }
            return Err(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
        }
        match self.caps.get(&k) {
            Some(c) if self.captures.get(&c.id).is_some_and(|x| x.invalid) => {
                Err(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED)
            }
            Some(c) => Ok(Some(c.id)),
            None => Ok(None),
        }
    }

    /// A failed call in capture `id` ends it early.
    pub fn failed_in(&mut self, id: Option<u64>, e: CUresult) -> CUresult {
        if let Some(id) = id {
            self.invalidate(id);
        }
        e
    }

    /// Adds a node doing `p` to the capture stream `k` takes part in, after the stream's
    /// dependencies; the stream then depends on the new node.
    pub fn capture_node(&mut self, k: SKey, p: Params) -> usize {
        let sc = self.caps.get(&k).expect("a capturing stream");
        let graph = self.captures[&sc.id].graph;
        let deps = sc.deps.clone();
        let n = self.add_node(graph, &deps, p);
        self.set_deps(k, vec![(n, EdgeData::default())]);
        n
    }

    fn set_deps(&mut self, k: SKey, deps: Vec<(usize, EdgeData)>) {
        if let Some(sc) = self.caps.get_mut(&k) {
            sc.deps = deps;
        }
    }

    /// A potentially unsafe call by this thread: refused, and the captures that forbid it
    /// ended, when this thread's mode and the captures' modes say so (see `ids::mode`).
    pub fn unsafe_call(&mut self) -> Res {
        if self.captures.is_empty() {
            return Ok(());
        }
        let (me, mode) = (thread_id(), ids::mode());
        if mode == MODE_RELAXED {
            return Ok(());
        }
        let global = mode != MODE_THREAD_LOCAL;
        let bad: Vec<u64> = self
            .captures
            .iter()
            .filter(|(_, c)| {
                !c.invalid && if c.thread == me { c.mode != MODE_RELAXED } else { global && c.mode == MODE_GLOBAL }
            })
            .map(|(&id, _)| id)
            .collect();
        if bad.is_empty() {
            return Ok(());
        }
        for id in bad {
            self.invalidate(id);
        }
        Err(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED)
    }

    /// Before waiting for stream `k` (synchronize, query): never for a capturing stream, nor
    /// for the legacy stream while a stream it synchronises with captures; for another
    /// stream, a potentially unsafe call.
    pub fn stream_wait_gate(&mut self, k: SKey) -> Res {
        if self.captures.is_empty() {
            return Ok(());
        }
        if let Some(id) = self.caps.get(&k).map(|c| c.id) {
            self.invalidate(id);
            return Err(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
        }
        if let SKey::Legacy(_) = k {
            self.gate(k)?;
        }
        self.unsafe_call()
    }

    /// Before waiting for a whole device: never while a stream of it captures.
    pub fn device_wait_gate(&mut self, dev: c_int) -> Res {
        let ids: Vec<u64> = self.captures.iter().filter(|(_, c)| c.dev == dev).map(|(&id, _)| id).collect();
        if ids.is_empty() {
            return Ok(());
        }
        for id in ids {
            self.invalidate(id);
        }
        Err(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED)
    }

    /// Before waiting for event `ev`: never for one last recorded in a capture (that ends the
    /// capture); otherwise a potentially unsafe call.
    pub fn event_wait_gate(&mut self, ev: usize) -> Res {
        let e = self.events.get(&ev).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        if let Some((id, _)) = &e.captured {
            if self.captures.contains_key(id) {
                let id = *id;
                self.invalidate(id);
                return Err(CUDA_ERROR_CAPTURED_EVENT);
            }
        }
        self.unsafe_call()
    }

    /// Stream `k`'s count of work, one more.
    pub fn bump(&mut self, k: SKey) -> u64 {
        let s = self.seq.entry(k).or_default();
        *s += 1;
        *s
    }

    /// Records event `ev` in stream `k` (`external`: as a node of the capture).
    pub fn record(&mut self, ev: usize, k: SKey, external: bool) -> Res {
        self.events.get(&ev).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let cap = self.gate(k)?;
        let seq = self.bump(k);
        let e = self.events.get_mut(&ev).expect("checked");
        e.at = Some((k, seq));
        match cap {
            Some(id) if external => {
                self.capture_node(k, Params::Record(ev));
                let _ = id;
            }
            Some(id) => {
                let deps = self.caps[&k].deps.clone();
                e.captured = Some((id, deps));
            }
            None if external => return Err(CUDA_ERROR_ILLEGAL_STATE),
            None => {
                e.captured = None;
                e.recorded = Some(std::time::Instant::now());
            }
        }
        Ok(())
    }

    /// Makes stream `k` wait for event `ev` (`external`: as a node of the capture): a fork
    /// into, or a join within, the capture the event was recorded in.
    pub fn wait(&mut self, k: SKey, ev: usize, external: bool) -> Res {
        let e = self.events.get(&ev).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let captured = e.captured.clone().filter(|(id, _)| self.captures.contains_key(id));
        let at = e.at;
        let mine = self.caps.get(&k).map(|c| c.id);
        if let SKey::Legacy(dev) = k {
            if captured.is_some() || !self.implicit(dev).is_empty() {
                if let Some((id, _)) = captured {
                    self.invalidate(id);
                }
                self.gate(k)?;
                return Err(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
            }
        }
        if let Some(id) = mine {
            if self.captures[&id].invalid {
                return Err(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
            }
        }
        match (captured, mine) {
            (Some((id, deps)), None) => {
                self.caps.insert(k, StreamCap { id, deps, out_nodes: Vec::new(), out_edges: Vec::new() });
            }
            (Some((id, deps)), Some(m)) if id == m => {
                let cur = &mut self.caps.get_mut(&k).expect("capturing").deps;
                for d in deps {
                    if !cur.iter().any(|c| c.0 == d.0) {
                        cur.push(d);
                    }
                }
            }
            (Some((id, _)), Some(m)) => {
                self.invalidate(id);
                self.invalidate(m);
                return Err(CUDA_ERROR_STREAM_CAPTURE_MERGE);
            }
            (None, Some(m)) if external => {
                let _ = m;
                self.capture_node(k, Params::Wait(ev));
            }
            (None, Some(m)) => {
                self.invalidate(m);
                return Err(CUDA_ERROR_STREAM_CAPTURE_ISOLATION);
            }
            (None, None) => {
                // What the stream knows of the event's stream (for the pools' reuse rules).
                if let Some((from, seq)) = at {
                    let w = self.waited.entry(k).or_default().entry(from).or_default();
                    *w = (*w).max(seq);
                }
            }
        }
        Ok(())
    }

    /// Ends the capture `k` began: its graph, unless it was invalidated or a forked stream
    /// was not joined back (then the graph is gone, unless it was the caller's).
    fn end_capture(&mut self, k: SKey) -> Res<usize> {
        let id = self.caps.get(&k).map(|c| c.id).ok_or(CUDA_ERROR_ILLEGAL_STATE)?;
        let c = &self.captures[&id];
        if c.origin != k {
            self.invalidate(id);
            return Err(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED);
        }
        if c.mode != MODE_RELAXED && c.thread != thread_id() {
            return Err(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD);
        }
        let c = self.captures.remove(&id).expect("found above");
        let members: Vec<(SKey, Vec<usize>)> = self
            .caps
            .iter()
            .filter(|(_, x)| x.id == id)
            .map(|(k, x)| (*k, x.deps.iter().map(|d| d.0).collect()))
            .collect();
        self.caps.retain(|_, x| x.id != id);
        let origin: Vec<usize> = members.iter().find(|m| m.0 == k).map(|m| m.1.clone()).unwrap_or_default();
        let joined = {
            let g = &self.graphs[&c.graph];
            members.iter().all(|(_, deps)| deps.iter().all(|&d| origin.iter().any(|&o| g.reaches(d, o))))
        };
        for e in self.events.values_mut() {
            if e.captured.as_ref().is_some_and(|x| x.0 == id) {
                e.captured = None;
            }
        }
        let err = if c.invalid {
            CUDA_ERROR_STREAM_CAPTURE_INVALIDATED
        } else if !joined {
            CUDA_ERROR_STREAM_CAPTURE_UNJOINED
        } else {
            return Ok(c.graph);
        };
        if !c.existing {
            self.destroy_graph(c.graph);
        }
        Err(err)
    }

    /// Begins a capture on stream `k` into `graph` (a new one if `None`), after `deps`.
    fn begin_capture(&mut self, k: SKey, mode: c_int, graph: Option<usize>, deps: Vec<(usize, EdgeData)>) -> Res {
        if !(MODE_GLOBAL..=MODE_RELAXED).contains(&mode) {
            return Err(INVAL);
        }
        if let SKey::Legacy(_) = k {
            return Err(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED);
        }
        if self.caps.contains_key(&k) {
            return Err(CUDA_ERROR_ILLEGAL_STATE);
        }
        let dev = self.key_dev(k);
        let existing = graph.is_some();
        let graph = graph.unwrap_or_else(|| self.new_graph(dev));
        let id = self.next_capture;
        self.next_capture += 1;
        self.captures
            .insert(id, Capture { graph, mode, thread: thread_id(), origin: k, dev, invalid: false, existing });
        self.caps.insert(k, StreamCap { id, deps, out_nodes: Vec::new(), out_edges: Vec::new() });
        Ok(())
    }

    /// The capture status of stream `k` and the capture it takes part in; the legacy stream
    /// cannot be asked while a stream it synchronises with captures.
    fn status(&self, k: SKey) -> Res<(c_int, Option<u64>)> {
        if let SKey::Legacy(dev) = k {
            if !self.implicit(dev).is_empty() {
                return Err(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT);
            }
        }
        Ok(match self.caps.get(&k) {
            None => (0, None),
            Some(c) if self.captures[&c.id].invalid => (STATUS_INVALIDATED, Some(c.id)),
            Some(c) => (STATUS_ACTIVE, Some(c.id)),
        })
    }
}

/// `cuStreamGetCaptureInfo` (`_v2` without edge data, `_v3` with it).
#[allow(clippy::too_many_arguments)]
unsafe fn capture_info(
    stream: CUstream,
    per_thread: bool,
    status: *mut c_int,
    id_out: *mut u64,
    graph_out: *mut CUgraph,
    deps_out: *mut *const CUgraphNode,
    edges_out: *mut *const EdgeData,
    count_out: *mut usize,
) -> Res {
    nonnull(status)?;
    with(|s| {
        let k = s.skey(stream as usize, per_thread)?;
        let (st, id) = s.status(k)?;
        *status = st;
        let Some(id) = id else { return Ok(()) };
        if !id_out.is_null() {
            *id_out = id;
        }
        if st != STATUS_ACTIVE {
            return Ok(());
        }
        if !graph_out.is_null() {
            *graph_out = s.captures[&id].graph as CUgraph;
        }
        // Edge data only together with the nodes.
        if !edges_out.is_null() && deps_out.is_null() {
            return Err(INVAL);
        }
        let sc = s.caps.get_mut(&k).expect("capturing");
        sc.out_nodes = sc.deps.iter().map(|d| d.0).collect();
        sc.out_edges = sc.deps.iter().map(|d| d.1).collect();
        if !deps_out.is_null() {
            *deps_out =
                if sc.out_nodes.is_empty() { std::ptr::null() } else { sc.out_nodes.as_ptr() as *const CUgraphNode };
        }
        if !edges_out.is_null() {
            *edges_out = if sc.out_edges.is_empty() { std::ptr::null() } else { sc.out_edges.as_ptr() };
        }
        if !count_out.is_null() {
            *count_out = sc.deps.len();
        }
        Ok(())
    })
}

unsafe fn update_deps(
    stream: CUstream,
    per_thread: bool,
    nodes: *mut CUgraphNode,
    data: *const EdgeData,
    n: usize,
    flags: c_uint,
) -> Res {
    with(|s| {
        if flags > SET_DEPENDENCIES || (n > 0 && nodes.is_null()) {
            return Err(INVAL);
        }
        let k = s.skey(stream as usize, per_thread)?;
        let id = s.caps.get(&k).map(|c| c.id).ok_or(CUDA_ERROR_ILLEGAL_STATE)?;
        if s.captures[&id].invalid {
            return Err(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED);
        }
        let graph = s.captures[&id].graph;
        let given = s.deps(graph, nodes, data, n)?;
        let sc = s.caps.get_mut(&k).expect("capturing");
        if flags == SET_DEPENDENCIES {
            sc.deps = given;
        } else {
            for d in given {
                if !sc.deps.iter().any(|x| x.0 == d.0) {
                    sc.deps.push(d);
                }
            }
        }
        Ok(())
    })
}

unsafe fn begin(
    stream: CUstream,
    per_thread: bool,
    graph: CUgraph,
    deps: *const CUgraphNode,
    data: *const EdgeData,
    n: usize,
    mode: c_int,
    to_graph: bool,
) -> Res {
    with(|s| {
        let k = s.skey(stream as usize, per_thread)?;
        let (graph, deps) = if to_graph {
            s.graph(graph as usize)?;
            (Some(graph as usize), s.deps(graph as usize, deps, data, n)?)
        } else {
            (None, Vec::new())
        };
        s.begin_capture(k, mode, graph, deps)
    })
}

unsafe fn end(stream: CUstream, per_thread: bool, out: *mut CUgraph) -> Res {
    nonnull(out)?;
    with(|s| {
        let k = s.skey(stream as usize, per_thread)?;
        let r = s.end_capture(k);
        // A capture that failed at its end leaves no graph; one that could not end yet
        // (another thread's) leaves the output as it was.
        if r != Err(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD) {
            *out = r.unwrap_or(0) as CUgraph;
        }
        r.map(|_| ())
    })
}

unsafe fn is_capturing(stream: CUstream, per_thread: bool, status: *mut c_int) -> Res {
    nonnull(status)?;
    with(|s| {
        let k = s.skey(stream as usize, per_thread)?;
        *status = s.status(k)?.0;
        Ok(())
    })
}

export! {
    fn cuStreamBeginCapture(hStream: CUstream, mode: c_int) {
        begin(hStream, false, std::ptr::null_mut(), std::ptr::null(), std::ptr::null(), 0, mode, false)
    }
    fn cuStreamBeginCapture_ptsz(hStream: CUstream, mode: c_int) {
        begin(hStream, true, std::ptr::null_mut(), std::ptr::null(), std::ptr::null(), 0, mode, false)
    }
    fn cuStreamBeginCaptureToGraph(hStream: CUstream, hGraph: CUgraph, dependencies: *const CUgraphNode, dependencyData: *const EdgeData, numDependencies: usize, mode: c_int) {
        begin(hStream, false, hGraph, dependencies, dependencyData, numDependencies, mode, true)
    }
    fn cuStreamBeginCaptureToGraph_ptsz(hStream: CUstream, hGraph: CUgraph, dependencies: *const CUgraphNode, dependencyData: *const EdgeData, numDependencies: usize, mode: c_int) {
        begin(hStream, true, hGraph, dependencies, dependencyData, numDependencies, mode, true)
    }
    fn cuStreamEndCapture(hStream: CUstream, phGraph: *mut CUgraph) {
        end(hStream, false, phGraph)
    }
    fn cuStreamEndCapture_ptsz(hStream: CUstream, phGraph: *mut CUgraph) {
        end(hStream, true, phGraph)
    }
    fn cuStreamIsCapturing(hStream: CUstream, captureStatus: *mut c_int) {
        is_capturing(hStream, false, captureStatus)
    }
    fn cuStreamIsCapturing_ptsz(hStream: CUstream, captureStatus: *mut c_int) {
        is_capturing(hStream, true, captureStatus)
    }
    // The CUDA 10.1 form (what the driver still exports under the plain name).
    fn cuStreamGetCaptureInfo(hStream: CUstream, captureStatus_out: *mut c_int, id_out: *mut u64) {
        capture_info(hStream, false, captureStatus_out, id_out, std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::null_mut())
    }
    fn cuStreamGetCaptureInfo_v2(hStream: CUstream, captureStatus_out: *mut c_int, id_out: *mut u64, graph_out: *mut CUgraph, dependencies_out: *mut *const CUgraphNode, numDependencies_out: *mut usize) {
        capture_info(hStream, false, captureStatus_out, id_out, graph_out, dependencies_out, std::ptr::null_mut(), numDependencies_out)
    }
    fn cuStreamGetCaptureInfo_v2_ptsz(hStream: CUstream, captureStatus_out: *mut c_int, id_out: *mut u64, graph_out: *mut CUgraph, dependencies_out: *mut *const CUgraphNode, numDependencies_out: *mut usize) {
        capture_info(hStream, true, captureStatus_out, id_out, graph_out, dependencies_out, std::ptr::null_mut(), numDependencies_out)
    }
    fn cuStreamGetCaptureInfo_v3(hStream: CUstream, captureStatus_out: *mut c_int, id_out: *mut u64, graph_out: *mut CUgraph, dependencies_out: *mut *const CUgraphNode, edgeData_out: *mut *const EdgeData, numDependencies_out: *mut usize) {
        capture_info(hStream, false, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out, numDependencies_out)
    }
    fn cuStreamGetCaptureInfo_v3_ptsz(hStream: CUstream, captureStatus_out: *mut c_int, id_out: *mut u64, graph_out: *mut CUgraph, dependencies_out: *mut *const CUgraphNode, edgeData_out: *mut *const EdgeData, numDependencies_out: *mut usize) {
        capture_info(hStream, true, captureStatus_out, id_out, graph_out, dependencies_out, edgeData_out, numDependencies_out)
    }
    fn cuStreamUpdateCaptureDependencies(hStream: CUstream, dependencies: *mut CUgraphNode, numDependencies: usize, flags: c_uint) {
        update_deps(hStream, false, dependencies, std::ptr::null(), numDependencies, flags)
    }
    fn cuStreamUpdateCaptureDependencies_ptsz(hStream: CUstream, dependencies: *mut CUgraphNode, numDependencies: usize, flags: c_uint) {
        update_deps(hStream, true, dependencies, std::ptr::null(), numDependencies, flags)
    }
    fn cuStreamUpdateCaptureDependencies_v2(hStream: CUstream, dependencies: *mut CUgraphNode, dependencyData: *const EdgeData, numDependencies: usize, flags: c_uint) {
        update_deps(hStream, false, dependencies, dependencyData, numDependencies, flags)
    }
    fn cuStreamUpdateCaptureDependencies_v2_ptsz(hStream: CUstream, dependencies: *mut CUgraphNode, dependencyData: *const EdgeData, numDependencies: usize, flags: c_uint) {
        update_deps(hStream, true, dependencies, dependencyData, numDependencies, flags)
    }
    fn cuThreadExchangeStreamCaptureMode(mode: *mut c_int) {
        nonnull(mode)?;
        *mode = ids::exchange_mode(*mode);
        Ok(())
    }
}
