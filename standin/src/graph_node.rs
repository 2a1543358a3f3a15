//! Graph nodes of every kind: adding them (by kind, and through `cuGraphAddNode`), their
//! parameters read back and set, with the checks the driver makes (memsets and copies as they
//! would run, events, child graphs, allocation and free nodes, conditional nodes and their
//! bodies). Kernel nodes cannot be made: the stand-in has no kernels, so every function handle
//! is invalid (as its launches are). External semaphore nodes keep what they are given; the
//! stand-in has no external semaphores for them to signal.

use std::ffi::{c_int, c_uint, c_void};

use crate::dag::*;
use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};

const INVAL: CUresult = CUDA_ERROR_INVALID_VALUE;

/// `CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS` and `_WAIT_PARAMS`: 144 bytes each.
const SEM_PARAMS_SIZE: usize = 144;

impl State {
    /// The node `h` if it is of kind `kind`.
    pub fn node_of(&self, h: usize, kind: c_int) -> Res<&Node> {
        let n = self.node(h)?;
        if n.params.kind() != kind {
            return Err(INVAL);
        }
        Ok(n)
    }

    /// Checks a memset node's parameters: 1, 2 or 4 byte elements, a pitch (for several rows)
    /// that holds a row and is a whole number of elements, memory the devices can write.
    pub fn check_memset_node(&self, m: &CUDA_MEMSET_NODE_PARAMS) -> Res {
        if m.dst == 0 || m.width == 0 || m.height == 0 || !matches!(m.elementSize, 1 | 2 | 4) {
            return Err(INVAL);
        }
        if m.height > 1 && (m.pitch == 0 || m.pitch % m.elementSize as usize != 0) {
            return Err(INVAL);
        }
        self.check_memset(m)
    }

    /// Checks a copy node's parameters: a whole extent, the copy as it would run.
    pub fn check_copy_node(&self, c: &CUDA_MEMCPY3D) -> Res {
        if c.WidthInBytes == 0 || c.Height == 0 || c.Depth == 0 {
            return Err(INVAL);
        }
        self.check_copy(c)
    }

    fn check_event(&self, ev: usize) -> Res {
        self.events.get(&ev).map(|_| ()).ok_or(INVAL)
    }

    /// A child graph: not the graph itself, nor one with allocation or free nodes.
    fn check_child(&self, graph: usize, child: usize) -> Res {
        let g = self.graph(child)?;
        if child == graph {
            return Err(CUDA_ERROR_NOT_SUPPORTED);
        }
        if g.nodes.iter().any(|n| matches!(self.nodes[n].params, Params::Alloc(..) | Params::Free(_))) {
            return Err(CUDA_ERROR_NOT_SUPPORTED);
        }
        Ok(())
    }

    /// An allocation node's parameters, checked; the memory, made.
    pub unsafe fn alloc_node(
        &mut self,
        p: &CUDA_MEM_ALLOC_NODE_PARAMS,
    ) -> Res<(CUDA_MEM_ALLOC_NODE_PARAMS, Vec<CUmemAccessDesc>)> {
        let props = &p.poolProps;
        // Pinned 1, managed 2 (CUDA 13); POSIX file descriptors and the like are not for graphs.
        if p.bytesize == 0 || !matches!(props.allocType, 1 | 2) || props.reserved != [0; 54] {
            return Err(INVAL);
        }
        if props.handleTypes != 0 {
            return Err(CUDA_ERROR_NOT_SUPPORTED);
        }
        let dev = match props.location.type_ {
            CU_MEM_LOCATION_TYPE_DEVICE if props.location.id >= 0 && props.location.id < self.ndev => props.location.id,
            CU_MEM_LOCATION_TYPE_DEVICE | CU_MEM_LOCATION_TYPE_INVALID => return Err(INVAL),
            _ => return Err(CUDA_ERROR_NOT_SUPPORTED),
        };
        let descs: Vec<CUmemAccessDesc> = if p.accessDescCount == 0 {
            Vec::new()
        } else {
            nonnull(p.accessDescs)?;
            if p.accessDescCount > self.ndev as usize {
                return Err(INVAL);
            }
            std::slice::from_raw_parts(p.accessDescs, p.accessDescCount).to_vec()
        };
        for d in &descs {
            if d.location.type_ != CU_MEM_LOCATION_TYPE_DEVICE {
                return Err(INVAL);
            }
            self.check_dev(d.location.id)?;
            // Read-write (3) only: read-only access is not supported, none is no access.
            if d.flags != 3 {
                return Err(CUDA_ERROR_NOT_SUPPORTED);
            }
        }
        if p.bytesize > TOTAL_MEM - self.used[dev as usize] {
            return Err(CUDA_ERROR_OUT_OF_MEMORY);
        }
        let (addr, mem) = self.backing(p.bytesize).ok_or(CUDA_ERROR_OUT_OF_MEMORY)?;
        let buffer_id = self.buffer_id();
        // The holders of a graph's allocation are counted in `flags`.
        self.allocs.insert(
            addr,
            Alloc {
                size: p.bytesize,
                kind: Kind::Device,
                flags: 1,
                dev,
                mem,
                buffer_id,
                sync_memops: false,
                pages: None,
                pool: GRAPH_MEMORY,
            },
        );
        self.used[dev as usize] += p.bytesize;
        let mut q = *p;
        q.dptr = addr as CUdeviceptr;
        q.poolProps.win32SecurityAttributes = std::ptr::null_mut();
        Ok((q, descs))
    }

    /// A free node of `graph`: the start of an allocation a node of the graph makes, not freed
    /// by another node of it.
    fn check_free(&self, graph: usize, p: usize) -> Res {
        let g = self.graph(graph)?;
        let made = g.nodes.iter().any(|n| matches!(&self.nodes[n].params, Params::Alloc(a, _) if a.dptr as usize == p));
        let freed = g.nodes.iter().any(|n| matches!(self.nodes[n].params, Params::Free(f) if f == p));
        if p == 0 || !made || freed {
            return Err(INVAL);
        }
        Ok(())
    }

    /// A conditional node's parameters: a handle of `graph`, IF (one or two bodies), WHILE
    /// (one) or SWITCH (any number); the bodies are made, empty.
    fn cond_node(&mut self, graph: usize, c: &CUDA_CONDITIONAL_NODE_PARAMS) -> Res<Cond> {
        match self.conds.get(&c.handle) {
            Some(h) if h.graph == graph => {}
            _ => return Err(INVAL),
        }
        let ok = match c.type_ {
            0 => matches!(c.size, 1 | 2),
            1 => c.size == 1,
            2 => c.size >= 1,
            _ => false,
        };
        if !ok {
            return Err(INVAL);
        }
        let dev = self.graphs[&graph].dev;
        let bodies = (0..c.size).map(|_| self.new_graph(dev)).collect();
        Ok(Cond { handle: c.handle, kind: c.type_, bodies })
    }

    /// The kind's parameters checked for a node of `graph` (what owns memory or graphs is made).
    unsafe fn make(&mut self, graph: usize, p: Params) -> Res<Params> {
        match &p {
            Params::Memcpy(c) => self.check_copy_node(c)?,
            Params::Memset(m) => self.check_memset_node(m)?,
            Params::Host(h) if h.fn_.is_none() => return Err(INVAL),
            Params::Wait(e) | Params::Record(e) => self.check_event(*e)?,
            Params::Child(c) => {
                self.check_child(graph, *c)?;
                return Ok(Params::Child(self.clone_graph(*c)));
            }
            Params::Free(f) => self.check_free(graph, *f)?,
            _ => {}
        }
        Ok(p)
    }

    /// Adds a node of `p` to `graph` after `deps` (out: its handle).
    unsafe fn add(
        &mut self,
        out: *mut CUgraphNode,
        graph: CUgraph,
        deps: *const CUgraphNode,
        data: *const EdgeData,
        n: usize,
        p: Params,
    ) -> Res {
        let g = graph as usize;
        let deps = self.deps(g, deps, data, n)?;
        nonnull(out)?;
        let p = self.make(g, p)?;
        *out = self.add_node(g, &deps, p) as CUgraphNode;
        Ok(())
    }

    /// Replaces the parameters of node `h` (of the same kind) with `p`.
    unsafe fn set(&mut self, h: usize, p: Params) -> Res {
        let graph = self.node_of(h, p.kind())?.graph;
        let p = match p {
            Params::Child(_) | Params::Alloc(..) | Params::Free(_) | Params::Cond(_) => {
                return Err(CUDA_ERROR_NOT_SUPPORTED)
            }
            p => self.make(graph, p)?,
        };
        self.nodes.get_mut(&h).expect("checked").params = p;
        Ok(())
    }
}

/// External semaphore node parameters, copied.
unsafe fn sems(p: *const SemNodeParams) -> Res<Sems> {
    nonnull(p)?;
    let p = &*p;
    let n = p.numExtSems as usize;
    if n == 0 {
        return Ok(Sems::default());
    }
    nonnull(p.extSemArray)?;
    nonnull(p.paramsArray)?;
    Ok(Sems {
        sems: std::slice::from_raw_parts(p.extSemArray as *const usize, n).to_vec(),
        params: std::slice::from_raw_parts(p.paramsArray as *const u8, n * SEM_PARAMS_SIZE).to_vec(),
    })
}

unsafe fn sems_out(s: &Sems, out: *mut SemNodeParams) -> Res {
    nonnull(out)?;
    *out = SemNodeParams {
        extSemArray: s.sems.as_ptr() as *mut CUexternalSemaphore,
        paramsArray: s.params.as_ptr() as *const c_void,
        numExtSems: s.sems.len() as c_uint,
    };
    Ok(())
}

/// Reads node `h`'s parameters of kind `kind` with `get`.
fn get<T>(h: CUgraphNode, kind: c_int, get: impl FnOnce(&State, &Params) -> Res<T>) -> Res<T> {
    with(|s| {
        let n = s.node_of(h as usize, kind)?;
        get(s, &n.params)
    })
}

/// The bytes of a `CUgraphNodeParams` union past the parameters of its kind must be zero.
fn tail_zero(p: &CUgraphNodeParams, used: usize) -> Res {
    // SAFETY: the union is plain bytes.
    let bytes: &[u8; 232] = unsafe { &*(std::ptr::addr_of!(p.u) as *const [u8; 232]) };
    if p.reserved0 != [0; 3] || p.reserved2 != 0 || bytes[used..].iter().any(|&b| b != 0) {
        return Err(INVAL);
    }
    Ok(())
}

/// What a `CUgraphNodeParams` describes, for a node of `graph` (a conditional node's bodies
/// are made and written back).
unsafe fn from_generic(s: &mut State, graph: usize, p: *mut CUgraphNodeParams) -> Res<Params> {
    nonnull(p)?;
    let q = &*p;
    let words = q.u.reserved1;
    Ok(match q.type_ {
        KERNEL => {
            tail_zero(q, 72)?;
            return Err(CUDA_ERROR_INVALID_HANDLE);
        }
        MEMCPY => {
            tail_zero(q, std::mem::size_of::<CUDA_MEMCPY_NODE_PARAMS>())?;
            let m = q.u.memcpy;
            if m.flags != 0 || m.reserved != 0 {
                return Err(INVAL);
            }
            Params::Memcpy(m.copyParams)
        }
        MEMSET => {
            tail_zero(q, 48)?;
            Params::Memset(memset_v1(&q.u.memset))
        }
        HOST => {
            tail_zero(q, 24)?;
            Params::Host(q.u.host)
        }
        GRAPH => {
            tail_zero(q, 16)?;
            Params::Child(words[0] as usize)
        }
        EMPTY => {
            tail_zero(q, 0)?;
            Params::Empty
        }
        WAIT_EVENT | EVENT_RECORD => {
            tail_zero(q, 8)?;
            if q.type_ == WAIT_EVENT {
                Params::Wait(words[0] as usize)
            } else {
                Params::Record(words[0] as usize)
            }
        }
        SEM_SIGNAL | SEM_WAIT => {
            tail_zero(q, 24)?;
            let sp = SemNodeParams {
                extSemArray: words[0] as usize as *mut CUexternalSemaphore,
                paramsArray: words[1] as usize as *const c_void,
                numExtSems: words[2] as c_uint,
            };
            let v = sems(&sp)?;
            if q.type_ == SEM_SIGNAL {
                Params::Signal(v)
            } else {
                Params::SemWait(v)
            }
        }
        MEM_ALLOC => {
            tail_zero(q, 120)?;
            let (a, d) = s.alloc_node(&q.u.alloc)?;
            (*p).u.alloc.dptr = a.dptr;
            Params::Alloc(a, d)
        }
        MEM_FREE => {
            tail_zero(q, 8)?;
            Params::Free(words[0] as usize)
        }
        CONDITIONAL => {
            tail_zero(q, 32)?;
            let c = s.cond_node(graph, &q.u.conditional)?;
            (*p).u.conditional.phGraph_out = c.bodies.as_ptr() as *mut CUgraph;
            Params::Cond(c)
        }
        _ => return Err(INVAL),
    })
}

/// `cuGraphAddNode` (`data`: the CUDA 12.3 form's edge data).
unsafe fn add_generic(
    out: *mut CUgraphNode,
    graph: CUgraph,
    deps: *const CUgraphNode,
    data: *const EdgeData,
    n: usize,
    p: *mut CUgraphNodeParams,
) -> Res {
    with(|s| {
        let g = graph as usize;
        let d = s.deps(g, deps, data, n)?;
        nonnull(out)?;
        let params = from_generic(s, g, p)?;
        let params = match params {
            // Made already (their memory, their bodies).
            p @ (Params::Alloc(..) | Params::Cond(_)) => p,
            p => s.make(g, p)?,
        };
        // A conditional node's bodies point back at it once it exists.
        *out = s.add_node(g, &d, params) as CUgraphNode;
        Ok(())
    })
}

export! {
    // ---- kernel nodes: never made ----
    fn cuGraphAddKernelNode(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, numDependencies: usize, nodeParams: *const CUDA_KERNEL_NODE_PARAMS) {
        nonnull(nodeParams)?;
        with(|s| {
            s.deps(hGraph as usize, dependencies, std::ptr::null(), numDependencies)?;
            nonnull(phGraphNode)?;
            Err(CUDA_ERROR_INVALID_HANDLE)
        })
    }
    fn cuGraphKernelNodeGetParams(hNode: CUgraphNode, nodeParams: *mut CUDA_KERNEL_NODE_PARAMS) {
        let _ = nodeParams;
        get(hNode, KERNEL, |_, _| Ok(()))
    }
    fn cuGraphKernelNodeSetParams(hNode: CUgraphNode, nodeParams: *const CUDA_KERNEL_NODE_PARAMS) {
        let _ = nodeParams;
        get(hNode, KERNEL, |_, _| Ok(()))
    }
    fn cuGraphKernelNodeCopyAttributes(dst: CUgraphNode, src: CUgraphNode) {
        let _ = src;
        get(dst, KERNEL, |_, _| Ok(()))
    }
    fn cuGraphKernelNodeGetAttribute(hNode: CUgraphNode, attr: c_int, value_out: *mut c_void) {
        let _ = (attr, value_out);
        get(hNode, KERNEL, |_, _| Ok(()))
    }
    fn cuGraphKernelNodeSetAttribute(hNode: CUgraphNode, attr: c_int, value: *const c_void) {
        let _ = (attr, value);
        get(hNode, KERNEL, |_, _| Ok(()))
    }

    // ---- copies ----
    fn cuGraphAddMemcpyNode(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, numDependencies: usize, copyParams: *const CUDA_MEMCPY3D, ctx: CUcontext) {
        let _ = ctx;
        nonnull(copyParams)?;
        with(|s| s.add(phGraphNode, hGraph, dependencies, std::ptr::null(), numDependencies, Params::Memcpy(*copyParams)))
    }
    fn cuGraphMemcpyNodeGetParams(hNode: CUgraphNode, nodeParams: *mut CUDA_MEMCPY3D) {
        nonnull(nodeParams)?;
        get(hNode, MEMCPY, |_, p| {
            if let Params::Memcpy(c) = p {
                *nodeParams = *c;
            }
            Ok(())
        })
    }
    fn cuGraphMemcpyNodeSetParams(hNode: CUgraphNode, nodeParams: *const CUDA_MEMCPY3D) {
        nonnull(nodeParams)?;
        with(|s| s.set(hNode as usize, Params::Memcpy(*nodeParams)))
    }

    // ---- memsets ----
    fn cuGraphAddMemsetNode(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, numDependencies: usize, memsetParams: *const CUDA_MEMSET_NODE_PARAMS, ctx: CUcontext) {
        let _ = ctx;
        nonnull(memsetParams)?;
        with(|s| s.add(phGraphNode, hGraph, dependencies, std::ptr::null(), numDependencies, Params::Memset(*memsetParams)))
    }
    fn cuGraphMemsetNodeGetParams(hNode: CUgraphNode, nodeParams: *mut CUDA_MEMSET_NODE_PARAMS) {
        nonnull(nodeParams)?;
        get(hNode, MEMSET, |_, p| {
            if let Params::Memset(m) = p {
                *nodeParams = *m;
            }
            Ok(())
        })
    }
    fn cuGraphMemsetNodeSetParams(hNode: CUgraphNode, nodeParams: *const CUDA_MEMSET_NODE_PARAMS) {
        nonnull(nodeParams)?;
        with(|s| s.set(hNode as usize, Params::Memset(*nodeParams)))
    }

    // ---- host functions ----
    fn cuGraphAddHostNode(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, numDependencies: usize, nodeParams: *const CUDA_HOST_NODE_PARAMS) {
        nonnull(nodeParams)?;
        with(|s| s.add(phGraphNode, hGraph, dependencies, std::ptr::null(), numDependencies, Params::Host(*nodeParams)))
    }
    fn cuGraphHostNodeGetParams(hNode: CUgraphNode, nodeParams: *mut CUDA_HOST_NODE_PARAMS) {
        nonnull(nodeParams)?;
        get(hNode, HOST, |_, p| {
            if let Params::Host(h) = p {
                *nodeParams = *h;
            }
            Ok(())
        })
    }
    fn cuGraphHostNodeSetParams(hNode: CUgraphNode, nodeParams: *const CUDA_HOST_NODE_PARAMS) {
        nonnull(nodeParams)?;
        with(|s| s.set(hNode as usize, Params::Host(*nodeParams)))
    }

    // ---- child graphs ----
    fn cuGraphAddChildGraphNode(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, numDependencies: usize, childGraph: CUgraph) {
        with(|s| s.add(phGraphNode, hGraph, dependencies, std::ptr::null(), numDependencies, Params::Child(childGraph as usize)))
    }
    fn cuGraphChildGraphNodeGetGraph(hNode: CUgraphNode, phGraph: *mut CUgraph) {
        nonnull(phGraph)?;
        get(hNode, GRAPH, |_, p| {
            if let Params::Child(g) = p {
                *phGraph = *g as CUgraph;
            }
            Ok(())
        })
    }

    // ---- empty nodes ----
    fn cuGraphAddEmptyNode(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, numDependencies: usize) {
        with(|s| s.add(phGraphNode, hGraph, dependencies, std::ptr::null(), numDependencies, Params::Empty))
    }

    // ---- events ----
    fn cuGraphAddEventRecordNode(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, numDependencies: usize, event: CUevent) {
        with(|s| s.add(phGraphNode, hGraph, dependencies, std::ptr::null(), numDependencies, Params::Record(event as usize)))
    }
    fn cuGraphEventRecordNodeGetEvent(hNode: CUgraphNode, event_out: *mut CUevent) {
        nonnull(event_out)?;
        get(hNode, EVENT_RECORD, |_, p| {
            if let Params::Record(e) = p {
                *event_out = *e as CUevent;
            }
            Ok(())
        })
    }
    fn cuGraphEventRecordNodeSetEvent(hNode: CUgraphNode, event: CUevent) {
        with(|s| s.set(hNode as usize, Params::Record(event as usize)))
    }
    fn cuGraphAddEventWaitNode(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, numDependencies: usize, event: CUevent) {
        with(|s| s.add(phGraphNode, hGraph, dependencies, std::ptr::null(), numDependencies, Params::Wait(event as usize)))
    }
    fn cuGraphEventWaitNodeGetEvent(hNode: CUgraphNode, event_out: *mut CUevent) {
        nonnull(event_out)?;
        get(hNode, WAIT_EVENT, |_, p| {
            if let Params::Wait(e) = p {
                *event_out = *e as CUevent;
            }
            Ok(())
        })
    }
    fn cuGraphEventWaitNodeSetEvent(hNode: CUgraphNode, event: CUevent) {
        with(|s| s.set(hNode as usize, Params::Wait(event as usize)))
    }

    // ---- external semaphores ----
    fn cuGraphAddExternalSemaphoresSignalNode(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, numDependencies: usize, nodeParams: *const SemNodeParams) {
        let p = sems(nodeParams)?;
        with(|s| s.add(phGraphNode, hGraph, dependencies, std::ptr::null(), numDependencies, Params::Signal(p)))
    }
    fn cuGraphExternalSemaphoresSignalNodeGetParams(hNode: CUgraphNode, params_out: *mut SemNodeParams) {
        nonnull(params_out)?;
        get(hNode, SEM_SIGNAL, |_, p| match p {
            Params::Signal(x) => sems_out(x, params_out),
            _ => Err(INVAL),
        })
    }
    fn cuGraphExternalSemaphoresSignalNodeSetParams(hNode: CUgraphNode, nodeParams: *const SemNodeParams) {
        let p = sems(nodeParams)?;
        with(|s| s.set(hNode as usize, Params::Signal(p)))
    }
    fn cuGraphAddExternalSemaphoresWaitNode(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, numDependencies: usize, nodeParams: *const SemNodeParams) {
        let p = sems(nodeParams)?;
        with(|s| s.add(phGraphNode, hGraph, dependencies, std::ptr::null(), numDependencies, Params::SemWait(p)))
    }
    fn cuGraphExternalSemaphoresWaitNodeGetParams(hNode: CUgraphNode, params_out: *mut SemNodeParams) {
        nonnull(params_out)?;
        get(hNode, SEM_WAIT, |_, p| match p {
            Params::SemWait(x) => sems_out(x, params_out),
            _ => Err(INVAL),
        })
    }
    fn cuGraphExternalSemaphoresWaitNodeSetParams(hNode: CUgraphNode, nodeParams: *const SemNodeParams) {
        let p = sems(nodeParams)?;
        with(|s| s.set(hNode as usize, Params::SemWait(p)))
    }

    // ---- graph memory ----
    fn cuGraphAddMemAllocNode(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, numDependencies: usize, nodeParams: *mut CUDA_MEM_ALLOC_NODE_PARAMS) {
        nonnull(nodeParams)?;
        with(|s| {
            let g = hGraph as usize;
            let deps = s.deps(g, dependencies, std::ptr::null(), numDependencies)?;
            nonnull(phGraphNode)?;
            let (a, d) = s.alloc_node(&*nodeParams)?;
            (*nodeParams).dptr = a.dptr;
            *phGraphNode = s.add_node(g, &deps, Params::Alloc(a, d)) as CUgraphNode;
            Ok(())
        })
    }
    fn cuGraphMemAllocNodeGetParams(hNode: CUgraphNode, params_out: *mut CUDA_MEM_ALLOC_NODE_PARAMS) {
        nonnull(params_out)?;
        get(hNode, MEM_ALLOC, |_, p| {
            if let Params::Alloc(a, d) = p {
                let mut a = *a;
                a.accessDescs = if d.is_empty() { std::ptr::null() } else { d.as_ptr() };
                a.accessDescCount = d.len();
                *params_out = a;
            }
            Ok(())
        })
    }
    fn cuGraphAddMemFreeNode(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, numDependencies: usize, dptr: CUdeviceptr) {
        with(|s| s.add(phGraphNode, hGraph, dependencies, std::ptr::null(), numDependencies, Params::Free(dptr as usize)))
    }
    fn cuGraphMemFreeNodeGetParams(hNode: CUgraphNode, dptr_out: *mut CUdeviceptr) {
        nonnull(dptr_out)?;
        get(hNode, MEM_FREE, |_, p| {
            if let Params::Free(f) = p {
                *dptr_out = *f as CUdeviceptr;
            }
            Ok(())
        })
    }

    // ---- any kind ----
    fn cuGraphAddNode(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, numDependencies: usize, nodeParams: *mut CUgraphNodeParams) {
        add_generic(phGraphNode, hGraph, dependencies, std::ptr::null(), numDependencies, nodeParams)
    }
    fn cuGraphAddNode_v2(phGraphNode: *mut CUgraphNode, hGraph: CUgraph, dependencies: *const CUgraphNode, dependencyData: *const EdgeData, numDependencies: usize, nodeParams: *mut CUgraphNodeParams) {
        add_generic(phGraphNode, hGraph, dependencies, dependencyData, numDependencies, nodeParams)
    }
    fn cuGraphNodeSetParams(hNode: CUgraphNode, nodeParams: *mut CUgraphNodeParams) {
        nonnull(nodeParams)?;
        with(|s| {
            let graph = s.node(hNode as usize)?.graph;
            if s.nodes[&(hNode as usize)].params.kind() != (*nodeParams).type_ {
                return Err(INVAL);
            }
            match (*nodeParams).type_ {
                GRAPH | MEM_ALLOC | MEM_FREE | CONDITIONAL => return Err(CUDA_ERROR_NOT_SUPPORTED),
                _ => {}
            }
            let p = from_generic(s, graph, nodeParams)?;
            s.set(hNode as usize, p)
        })
    }
}
