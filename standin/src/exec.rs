//! Executable graphs: instantiation (the graph's nodes in an order its edges allow, checked as
//! the driver checks them, with the instantiate result), launch as host-side execution of the
//! nodes in that order (memsets and copies done, host functions called, events recorded,
//! child graphs and the taken bodies of conditional nodes run in turn; on a capturing stream
//! the launch is captured as a child graph node), upload, updates from a graph and of single
//! nodes, enabling nodes, destruction.

use std::collections::HashMap;
use std::ffi::{c_int, c_uint, c_void};

use crate::dag::*;
use crate::state::*;
use crate::types::*;
use crate::{export, export_pt, nonnull, CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE};

const INVAL: CUresult = CUDA_ERROR_INVALID_VALUE;

/// `CUDA_GRAPH_INSTANTIATE_FLAG_*`: auto free on launch, upload, device launch, node priority.
const AUTO_FREE: u64 = 1;
const UPLOAD: u64 = 2;
const DEVICE_LAUNCH: u64 = 4;
const NODE_PRIORITY: u64 = 8;

/// `CUgraphInstantiateResult`.
const RESULT_ERROR: c_int = 1;
const RESULT_INVALID_STRUCTURE: c_int = 2;
const RESULT_NODE_NOT_SUPPORTED: c_int = 3;
const RESULT_HANDLE_UNUSED: c_int = 5;

/// `CUgraphExecUpdateResult`.
const UPDATE_TOPOLOGY: c_int = 2;
const UPDATE_NODE_TYPE: c_int = 3;

/// `CUDA_GRAPH_INSTANTIATE_PARAMS`.
#[repr(C)]
pub struct InstantiateParams {
    pub flags: u64,
    pub hUploadStream: CUstream,
    pub hErrNode_out: CUgraphNode,
    pub result_out: c_int,
}

/// `CUgraphExecUpdateResultInfo`.
#[repr(C)]
pub struct UpdateResultInfo {
    pub result: c_int,
    pub errorNode: CUgraphNode,
    pub errorFromNode: CUgraphNode,
}

/// Why a graph cannot be instantiated: the result and the node at fault.
type Refusal = (c_int, usize);

impl State {
    /// The nodes of graph `g` as they run, in an order its edges allow.
    fn snapshot(&mut self, g: usize) -> Result<Snapshot, Refusal> {
        let graph = &self.graphs[&g];
        let order = graph.order().map_err(|n| (RESULT_INVALID_STRUCTURE, n))?;
        let index: HashMap<usize, usize> = order.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        let edges = graph.edges.iter().map(|e| (index[&e.0], index[&e.1])).collect();
        let mut nodes = Vec::with_capacity(order.len());
        for n in order {
            let p = self.nodes[&n].params.clone();
            let run = match p {
                Params::Memcpy(c) => Run::Memcpy(c),
                Params::Memset(m) => Run::Memset(m),
                Params::Host(h) => Run::Host(h),
                Params::Child(c) => Run::Child(self.snapshot(c)?),
                Params::Empty => Run::Empty,
                Params::Wait(_) => Run::Wait,
                Params::Record(e) => Run::Record(e),
                // No external semaphore exists here for a node to signal or wait on.
                Params::Signal(x) | Params::SemWait(x) if !x.sems.is_empty() => return Err((RESULT_ERROR, n)),
                Params::Signal(_) | Params::SemWait(_) => Run::Sems,
                Params::Alloc(a, _) => Run::Alloc(a.dptr as usize, a.bytesize),
                Params::Free(f) => Run::Free(f),
                Params::Cond(c) => {
                    let mut bodies = Vec::new();
                    for b in c.bodies {
                        bodies.push(self.snapshot(b)?);
                    }
                    Run::Cond(c.kind, c.handle, bodies)
                }
            };
            nodes.push(ExecNode { orig: n, run, enabled: true });
        }
        Ok(Snapshot { nodes, edges })
    }

    /// Instantiates graph `g`: a new executable (or the instantiate result and the node at
    /// fault).
    fn instantiate(&mut self, g: usize, flags: u64) -> Result<usize, Refusal> {
        if flags & !(AUTO_FREE | UPLOAD | DEVICE_LAUNCH | NODE_PRIORITY) != 0 {
            return Err((RESULT_ERROR, 0));
        }
        let snap = self.snapshot(g)?;
        // A graph launched from the device holds kernels only (and none can be made here).
        if flags & DEVICE_LAUNCH != 0 {
            return Err((RESULT_NODE_NOT_SUPPORTED, snap.nodes.first().map_or(0, |n| n.orig)));
        }
        // Every conditional handle of the graph must be used by a conditional node.
        let used: Vec<u64> =
            all_runs(&snap).filter_map(|r| if let Run::Cond(_, h, _) = r { Some(*h) } else { None }).collect();
        if self.conds.iter().any(|(h, c)| c.graph == g && !used.contains(h)) {
            return Err((RESULT_HANDLE_UNUSED, 0));
        }
        let conds = used.iter().filter_map(|h| self.conds.get(h).map(|c| (*h, (c.default, c.flags)))).collect();
        for r in all_runs(&snap) {
            if let Run::Alloc(p, _) = r {
                let p = *p;
                self.hold_graph_memory(p, 1);
            }
        }
        let objects = self.graphs[&g].objects.clone();
        for (&o, &r) in &objects {
            if let Some(u) = self.objects.get_mut(&o) {
                u.refs += r as u64;
            }
        }
        let h = new_handle();
        self.execs.insert(h, Exec { flags: flags & AUTO_FREE, snap, graph: g, objects, conds });
        Ok(h)
    }

    fn destroy_exec(&mut self, e: usize) -> Res {
        let x = self.execs.remove(&e).ok_or(INVAL)?;
        for r in all_runs(&x.snap) {
            if let Run::Alloc(p, _) = r {
                let p = *p;
                self.hold_graph_memory(p, -1);
            }
        }
        for (o, r) in x.objects {
            self.release_object(o, r as u64);
        }
        Ok(())
    }

    /// Exec `e`'s node made from graph node `node`, if it is of kind `kind`.
    fn exec_node(&mut self, e: usize, node: usize, kind: c_int) -> Res<&mut ExecNode> {
        let x = self.execs.get_mut(&e).ok_or(INVAL)?;
        let n = x.node_mut(node).ok_or(INVAL)?;
        if n.run.kind() != kind {
            return Err(INVAL);
        }
        Ok(n)
    }

    /// Sets exec `e`'s node `node` to what `p` (of the node's kind) describes, as far as an
    /// executable's node may change.
    fn exec_set(&mut self, e: usize, node: usize, p: Params) -> Res {
        let kind = p.kind();
        self.exec_node(e, node, kind)?;
        let run = match p {
            Params::Memset(m) => {
                self.check_memset_node(&m)?;
                // One row only, before and after.
                match &self.exec_node(e, node, kind)?.run {
                    Run::Memset(o) if o.height == 1 && m.height == 1 => Run::Memset(m),
                    _ => return Err(INVAL),
                }
            }
            Params::Memcpy(c) => {
                self.check_copy_node(&c)?;
                // One row only, between memory of the kinds it was instantiated with.
                let one_row = |c: &CUDA_MEMCPY3D| c.Height == 1 && c.Depth == 1;
                match &self.exec_node(e, node, kind)?.run {
                    Run::Memcpy(o)
                        if one_row(o)
                            && one_row(&c)
                            && o.srcMemoryType == c.srcMemoryType
                            && o.dstMemoryType == c.dstMemoryType =>
                    {
                        Run::Memcpy(c)
                    }
                    _ => return Err(INVAL),
                }
            }
            Params::Host(h) if h.fn_.is_none() => return Err(INVAL),
            Params::Host(h) => Run::Host(h),
            Params::Record(ev) | Params::Wait(ev) => {
                self.events.get(&ev).ok_or(INVAL)?;
                if kind == EVENT_RECORD {
                    Run::Record(ev)
                } else {
                    Run::Wait
                }
            }
            Params::Child(c) => {
                self.graph(c)?;
                let new = self.snapshot(c).map_err(|_| INVAL)?;
                match &self.exec_node(e, node, kind)?.run {
                    Run::Child(old) if same_shape(old, &new).is_none() => Run::Child(update(old, new)),
                    _ => return Err(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE),
                }
            }
            Params::Empty => Run::Empty,
            Params::Signal(_) | Params::SemWait(_) => Run::Sems,
            Params::Alloc(..) | Params::Free(_) | Params::Cond(_) => return Err(CUDA_ERROR_NOT_SUPPORTED),
        };
        self.exec_node(e, node, kind)?.run = run;
        Ok(())
    }
}

/// Every node of a snapshot, at any depth.
fn all_runs(s: &Snapshot) -> Box<dyn Iterator<Item = &Run> + '_> {
    Box::new(s.nodes.iter().flat_map(|n| {
        let inner: Box<dyn Iterator<Item = &Run>> = match &n.run {
            Run::Child(c) => all_runs(c),
            Run::Cond(_, _, b) => Box::new(b.iter().flat_map(all_runs)),
            _ => Box::new(std::iter::empty()),
        };
        std::iter::once(&n.run).chain(inner)
    }))
}

/// Where two snapshots differ in shape: `Some((result, index of the node at fault))`.
fn same_shape(a: &Snapshot, b: &Snapshot) -> Option<(c_int, Option<usize>)> {
    if a.nodes.len() != b.nodes.len() {
        return Some((UPDATE_TOPOLOGY, None));
    }
    if let Some(i) = (0..a.nodes.len()).find(|&i| a.nodes[i].run.kind() != b.nodes[i].run.kind()) {
        return Some((UPDATE_NODE_TYPE, Some(i)));
    }
    let sorted = |s: &Snapshot| {
        let mut e = s.edges.clone();
        e.sort_unstable();
        e
    };
    if sorted(a) != sorted(b) {
        return Some((UPDATE_TOPOLOGY, None));
    }
    None
}

/// `old` with the parameters of `new` (of the same shape); each node keeps its identity and
/// whether it is enabled.
fn update(old: &Snapshot, new: Snapshot) -> Snapshot {
    let nodes = old
        .nodes
        .iter()
        .zip(new.nodes)
        .map(|(o, n)| ExecNode { orig: o.orig, run: n.run, enabled: o.enabled })
        .collect();
    Snapshot { nodes, edges: old.edges.clone() }
}

/// Runs the nodes of a snapshot in order (outside the model's lock: a host function may call
/// the driver).
fn run(snap: &Snapshot, conds: &mut HashMap<u64, (c_uint, c_uint)>) -> Res {
    for n in snap.nodes.iter().filter(|n| n.enabled) {
        match &n.run {
            Run::Memcpy(c) => with(|s| s.do_copy(c))?,
            Run::Memset(m) => with(|s| s.do_memset(m))?,
            Run::Host(h) => {
                if let Some(f) = h.fn_ {
                    // SAFETY: the program's host function with its argument.
                    unsafe { f(h.userData) };
                }
            }
            Run::Child(c) => run(c, conds)?,
            Run::Empty | Run::Wait | Run::Sems => {}
            Run::Record(ev) => with(|s| {
                if let Some(e) = s.events.get_mut(ev) {
                    e.recorded = Some(std::time::Instant::now());
                    e.captured = None;
                }
                Ok(())
            })?,
            Run::Alloc(p, size) => with(|s| {
                let dev = s.allocs.get(p).map_or(0, |a| a.dev) as usize;
                let m = &mut s.graph_mem[dev];
                m.used += *size as u64;
                m.used_high = m.used_high.max(m.used);
                m.reserved = m.reserved.max(m.used);
                m.reserved_high = m.reserved_high.max(m.reserved);
                Ok(())
            })?,
            Run::Free(p) => with(|s| {
                if let Some(a) = s.allocs.get(p) {
                    let (dev, size) = (a.dev as usize, a.size as u64);
                    let m = &mut s.graph_mem[dev];
                    m.used = m.used.saturating_sub(size);
                }
                Ok(())
            })?,
            Run::Cond(kind, h, bodies) => {
                // The value is the default: at each launch with CU_GRAPH_COND_ASSIGN_DEFAULT,
                // and otherwise from the start, as no kernel here can set it.
                let v = conds.get(h).map_or(0, |c| c.0) as usize;
                let body = match *kind {
                    // IF: the body when true, the second (else) body when false.
                    0 if v != 0 => bodies.first(),
                    0 => bodies.get(1),
                    // WHILE: the body once while true (no kernel can make it false).
                    1 if v != 0 => bodies.first(),
                    // SWITCH: the body of the value.
                    2 => bodies.get(v),
                    _ => None,
                };
                if let Some(b) = body {
                    run(b, conds)?;
                }
            }
        }
    }
    Ok(())
}

unsafe fn instantiate(
    out: *mut CUgraphExec,
    graph: CUgraph,
    flags: u64,
    params: *mut InstantiateParams,
    with_params: bool,
    pt: bool,
) -> Res {
    with(|s| {
        s.cur()?;
        let g = graph as usize;
        s.graph(g)?;
        // The driver numbers the executable's copy of the graph before it looks further.
        s.graph_ids += 1;
        if with_params {
            nonnull(params)?;
        }
        nonnull(out)?;
        let flags = if with_params { (*params).flags } else { flags };
        if with_params {
            let up = (*params).hUploadStream as usize;
            if flags & UPLOAD != 0 {
                s.skey(up, pt)?;
            }
        } else if flags & (UPLOAD | DEVICE_LAUNCH) != 0 {
            // Upload and device launch need the parameters' form.
            return Err(INVAL);
        }
        let r = s.instantiate(g, flags);
        if with_params {
            let p = &mut *params;
            match r {
                Ok(_) => {
                    p.result_out = 0;
                    p.hErrNode_out = std::ptr::null_mut();
                }
                Err((res, node)) => {
                    p.result_out = res;
                    p.hErrNode_out = node as CUgraphNode;
                }
            }
        }
        *out = r.map_err(|_| INVAL)? as CUgraphExec;
        Ok(())
    })
}

fn launch(exec: CUgraphExec, stream: CUstream, pt: bool) -> Res {
    let job = with(|s| {
        let x = s.execs.get(&(exec as usize)).ok_or(INVAL)?;
        let (snap, conds, graph) = (x.snap.clone(), x.conds.clone(), x.graph);
        let k = s.skey(stream as usize, pt)?;
        match s.gate(k)? {
            // Launched into a capture: a child graph node of what the executable was made from.
            Some(_) => {
                if s.graphs.contains_key(&graph) {
                    let c = s.clone_graph(graph);
                    s.capture_node(k, Params::Child(c));
                    return Ok(None);
                }
                Err(CUDA_ERROR_NOT_SUPPORTED)
            }
            None => Ok(Some((snap, conds))),
        }
    })?;
    match job {
        Some((snap, mut conds)) => run(&snap, &mut conds),
        None => Ok(()),
    }
}

fn upload(exec: CUgraphExec, stream: CUstream, pt: bool) -> Res {
    with(|s| {
        s.execs.get(&(exec as usize)).ok_or(INVAL)?;
        let k = s.skey(stream as usize, pt)?;
        s.gate(k).map(|_| ())
    })
}

export_pt! {
    fn cuGraphLaunch / cuGraphLaunch_ptsz(hGraphExec: CUgraphExec, hStream: CUstream) |pt| {
        launch(hGraphExec, hStream, pt)
    }
    fn cuGraphUpload / cuGraphUpload_ptsz(hGraphExec: CUgraphExec, hStream: CUstream) |pt| {
        upload(hGraphExec, hStream, pt)
    }
    fn cuGraphInstantiateWithParams / cuGraphInstantiateWithParams_ptsz(phGraphExec: *mut CUgraphExec, hGraph: CUgraph, instantiateParams: *mut InstantiateParams) |pt| {
        instantiate(phGraphExec, hGraph, 0, instantiateParams, true, pt)
    }
}

/// A node's generic parameters, for an executable's node (`cuGraphExecNodeSetParams`).
unsafe fn generic(p: *mut CUgraphNodeParams) -> Res<Params> {
    nonnull(p)?;
    let q = &*p;
    let w = q.u.reserved1;
    Ok(match q.type_ {
        MEMCPY => Params::Memcpy(q.u.memcpy.copyParams),
        MEMSET => Params::Memset(memset_v1(&q.u.memset)),
        HOST => Params::Host(q.u.host),
        GRAPH => Params::Child(w[0] as usize),
        EMPTY => Params::Empty,
        WAIT_EVENT => Params::Wait(w[0] as usize),
        EVENT_RECORD => Params::Record(w[0] as usize),
        SEM_SIGNAL => Params::Signal(Sems::default()),
        SEM_WAIT => Params::SemWait(Sems::default()),
        MEM_ALLOC | MEM_FREE | CONDITIONAL => return Err(CUDA_ERROR_NOT_SUPPORTED),
        _ => return Err(INVAL),
    })
}

fn exec_set(e: CUgraphExec, n: CUgraphNode, p: Params) -> Res {
    with(|s| s.exec_set(e as usize, n as usize, p))
}

export! {
    fn cuGraphInstantiateWithFlags(phGraphExec: *mut CUgraphExec, hGraph: CUgraph, flags: u64) {
        instantiate(phGraphExec, hGraph, flags, std::ptr::null_mut(), false, false)
    }

    fn cuGraphExecDestroy(hGraphExec: CUgraphExec) {
        with(|s| s.destroy_exec(hGraphExec as usize))
    }

    fn cuGraphExecGetFlags(hGraphExec: CUgraphExec, flags: *mut u64) {
        with(|s| {
            let x = s.execs.get(&(hGraphExec as usize)).ok_or(INVAL)?;
            nonnull(flags)?;
            *flags = x.flags;
            Ok(())
        })
    }

    fn cuGraphExecUpdate(hGraphExec: CUgraphExec, hGraph: CUgraph, resultInfo: *mut UpdateResultInfo) {
        with(|s| {
            let (e, g) = (hGraphExec as usize, hGraph as usize);
            s.execs.get(&e).ok_or(INVAL)?;
            s.graph(g)?;
            let new = match s.snapshot(g) {
                Ok(n) => n,
                Err(_) => return Err(INVAL),
            };
            let old = &s.execs[&e].snap;
            let fault = same_shape(old, &new);
            if !resultInfo.is_null() {
                let (result, at) = fault.unwrap_or((0, None));
                *resultInfo = UpdateResultInfo {
                    result,
                    errorNode: at.map_or(0, |i| new.nodes[i].orig) as CUgraphNode,
                    errorFromNode: std::ptr::null_mut(),
                };
            }
            if fault.is_some() {
                return Err(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
            }
            let x = s.execs.get_mut(&e).expect("checked");
            x.snap = update(&x.snap, new);
            Ok(())
        })
    }

    fn cuGraphNodeGetEnabled(hGraphExec: CUgraphExec, hNode: CUgraphNode, isEnabled: *mut c_uint) {
        with(|s| {
            let x = s.execs.get_mut(&(hGraphExec as usize)).ok_or(INVAL)?;
            let n = x.node_mut(hNode as usize).ok_or(INVAL)?;
            if !matches!(n.run.kind(), KERNEL | MEMCPY | MEMSET) {
                return Err(INVAL);
            }
            nonnull(isEnabled)?;
            *isEnabled = n.enabled as c_uint;
            Ok(())
        })
    }

    fn cuGraphNodeSetEnabled(hGraphExec: CUgraphExec, hNode: CUgraphNode, isEnabled: c_uint) {
        with(|s| {
            let x = s.execs.get_mut(&(hGraphExec as usize)).ok_or(INVAL)?;
            let n = x.node_mut(hNode as usize).ok_or(INVAL)?;
            if !matches!(n.run.kind(), KERNEL | MEMCPY | MEMSET) {
                return Err(INVAL);
            }
            n.enabled = isEnabled != 0;
            Ok(())
        })
    }

    fn cuGraphExecKernelNodeSetParams(hGraphExec: CUgraphExec, hNode: CUgraphNode, nodeParams: *const CUDA_KERNEL_NODE_PARAMS) {
        let _ = nodeParams;
        with(|s| s.exec_node(hGraphExec as usize, hNode as usize, KERNEL).map(|_| ()))
    }
    fn cuGraphExecMemcpyNodeSetParams(hGraphExec: CUgraphExec, hNode: CUgraphNode, copyParams: *const CUDA_MEMCPY3D, ctx: CUcontext) {
        let _ = ctx;
        nonnull(copyParams)?;
        exec_set(hGraphExec, hNode, Params::Memcpy(*copyParams))
    }
    fn cuGraphExecMemsetNodeSetParams(hGraphExec: CUgraphExec, hNode: CUgraphNode, memsetParams: *const CUDA_MEMSET_NODE_PARAMS, ctx: CUcontext) {
        let _ = ctx;
        nonnull(memsetParams)?;
        exec_set(hGraphExec, hNode, Params::Memset(*memsetParams))
    }
    fn cuGraphExecHostNodeSetParams(hGraphExec: CUgraphExec, hNode: CUgraphNode, nodeParams: *const CUDA_HOST_NODE_PARAMS) {
        nonnull(nodeParams)?;
        exec_set(hGraphExec, hNode, Params::Host(*nodeParams))
    }
    fn cuGraphExecChildGraphNodeSetParams(hGraphExec: CUgraphExec, hNode: CUgraphNode, childGraph: CUgraph) {
        exec_set(hGraphExec, hNode, Params::Child(childGraph as usize))
    }
    fn cuGraphExecEventRecordNodeSetEvent(hGraphExec: CUgraphExec, hNode: CUgraphNode, event: CUevent) {
        exec_set(hGraphExec, hNode, Params::Record(event as usize))
    }
    fn cuGraphExecEventWaitNodeSetEvent(hGraphExec: CUgraphExec, hNode: CUgraphNode, event: CUevent) {
        exec_set(hGraphExec, hNode, Params::Wait(event as usize))
    }
    fn cuGraphExecExternalSemaphoresSignalNodeSetParams(hGraphExec: CUgraphExec, hNode: CUgraphNode, nodeParams: *const c_void) {
        nonnull(nodeParams)?;
        exec_set(hGraphExec, hNode, Params::Signal(Sems::default()))
    }
    fn cuGraphExecExternalSemaphoresWaitNodeSetParams(hGraphExec: CUgraphExec, hNode: CUgraphNode, nodeParams: *const c_void) {
        nonnull(nodeParams)?;
        exec_set(hGraphExec, hNode, Params::SemWait(Sems::default()))
    }
    fn cuGraphExecNodeSetParams(hGraphExec: CUgraphExec, hNode: CUgraphNode, nodeParams: *mut CUgraphNodeParams) {
        with(|s| {
            s.execs.get(&(hGraphExec as usize)).ok_or(INVAL)?;
            let x = s.execs.get_mut(&(hGraphExec as usize)).expect("checked");
            let kind = x.node_mut(hNode as usize).ok_or(INVAL)?.run.kind();
            nonnull(nodeParams)?;
            if (*nodeParams).type_ != kind {
                return Err(INVAL);
            }
            let p = generic(nodeParams)?;
            s.exec_set(hGraphExec as usize, hNode as usize, p)
        })
    }
}
