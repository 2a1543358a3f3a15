//! Graphs: creating, copying and destroying them, their nodes and edges as the driver lists
//! them (the count-query convention, roots latest first), adding and removing dependencies,
//! destroying nodes, node types, conditional handles and the devices' graph memory counters.
//! The nodes' parameters are `graph_node.rs`'s, executables `exec.rs`'s.

use std::ffi::{c_int, c_uint};

use crate::dag::*;
use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};

const INVAL: CUresult = CUDA_ERROR_INVALID_VALUE;

/// `CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC` and `CU_GRAPH_KERNEL_NODE_PORT_*`: only between
/// kernel nodes, which the stand-in cannot make.
fn check_edge(e: &EdgeData) -> Res {
    if e.type_ != 0 || e.from_port != 0 || e.to_port != 0 || e.reserved != [0; 5] {
        return Err(INVAL);
    }
    Ok(())
}

/// `n` edge data entries at `p`, default ones where `p` is NULL.
pub unsafe fn edge_data(p: *const EdgeData, n: usize) -> Vec<EdgeData> {
    if p.is_null() {
        vec![EdgeData::default(); n]
    } else {
        std::slice::from_raw_parts(p, n).to_vec()
    }
}

impl State {
    /// A new, empty graph of device `dev`, with the next graph number.
    pub fn new_graph(&mut self, dev: c_int) -> usize {
        self.graph_ids += 1;
        let h = new_handle();
        self.graphs.insert(h, Graph { id: self.graph_ids, dev, ..Default::default() });
        h
    }

    pub fn graph(&self, h: usize) -> Res<&Graph> {
        self.graphs.get(&h).ok_or(INVAL)
    }

    pub fn node(&self, h: usize) -> Res<&Node> {
        self.nodes.get(&h).ok_or(INVAL)
    }

    /// The dependencies a node of `graph` is to have: each a node of that graph, none twice,
    /// edge data the nodes allow.
    pub unsafe fn deps(
        &self,
        graph: usize,
        deps: *const CUgraphNode,
        data: *const EdgeData,
        n: usize,
    ) -> Res<Vec<(usize, EdgeData)>> {
        self.graph(graph)?;
        if n == 0 {
            return Ok(Vec::new());
        }
        nonnull(deps)?;
        let ds = std::slice::from_raw_parts(deps, n);
        let es = edge_data(data, n);
        let mut out: Vec<(usize, EdgeData)> = Vec::with_capacity(n);
        for (&d, e) in ds.iter().zip(es) {
            let d = d as usize;
            match self.nodes.get(&d) {
                Some(x) if x.graph == graph && !out.iter().any(|o| o.0 == d) => {}
                _ => return Err(INVAL),
            }
            check_edge(&e)?;
            out.push((d, e));
        }
        Ok(out)
    }

    /// Adds a node doing `p` after `deps` (checked) to `graph`.
    pub fn add_node(&mut self, graph: usize, deps: &[(usize, EdgeData)], p: Params) -> usize {
        let h = new_handle();
        for o in p.owned_graphs() {
            if let Some(g) = self.graphs.get_mut(&o) {
                g.owner = Some(h);
            }
        }
        let g = self.graphs.get_mut(&graph).expect("a checked graph");
        let local = g.next_local;
        g.next_local += 1;
        g.push_node(h);
        for &(d, e) in deps {
            g.add_edge(d, h, e);
        }
        self.nodes.insert(h, Node { graph, local, params: p });
        h
    }

    /// A copy of graph `g` (its nodes, edges, owned graphs, user object references), with
    /// the next graph number; the copy remembers which node is which.
    pub fn clone_graph(&mut self, g: usize) -> usize {
        let dev = self.graphs[&g].dev;
        let copy = self.new_graph(dev);
        let (nodes, edges, objects, next_local) = {
            let src = &self.graphs[&g];
            (src.nodes.clone(), src.edges.clone(), src.objects.clone(), src.next_local)
        };
        let mut map = std::collections::HashMap::new();
        for &n in &nodes {
            let (local, mut p) = {
                let x = &self.nodes[&n];
                (x.local, x.params.clone())
            };
            match &mut p {
                Params::Child(c) => *c = self.clone_graph(*c),
                Params::Cond(c) => c.bodies = c.bodies.iter().map(|&b| self.clone_graph(b)).collect(),
                _ => {}
            }
            let h = new_handle();
            for o in p.owned_graphs() {
                if let Some(x) = self.graphs.get_mut(&o) {
                    x.owner = Some(h);
                }
            }
            if let Params::Alloc(a, _) = &p {
                self.hold_graph_memory(a.dptr as usize, 1);
            }
            self.nodes.insert(h, Node { graph: copy, local, params: p });
            map.insert(n, h);
        }
        for (&o, &r) in &objects {
            if let Some(u) = self.objects.get_mut(&o) {
                u.refs += r as u64;
            }
        }
        let c = self.graphs.get_mut(&copy).expect("made above");
        c.nodes = nodes.iter().map(|n| map[n]).collect();
        c.edges = edges.iter().map(|&(a, b, e)| (map[&a], map[&b], e)).collect();
        // The copy's nodes are added in creation order, each a root first: the latest first.
        c.roots = c.nodes.iter().rev().copied().filter(|n| !c.edges.iter().any(|e| e.1 == *n)).collect();
        c.next_local = next_local;
        c.objects = objects;
        c.cloned_from = map;
        copy
    }

    /// Destroys graph `g`, its nodes and the graphs they own.
    pub fn destroy_graph(&mut self, g: usize) {
        let Some(graph) = self.graphs.remove(&g) else { return };
        for n in graph.nodes {
            self.drop_node(n);
        }
        for (o, r) in graph.objects {
            self.release_object(o, r as u64);
        }
        self.conds.retain(|_, h| h.graph != g);
    }

    /// Forgets node `n` (already out of its graph's lists) and what it owns.
    fn drop_node(&mut self, n: usize) {
        if let Some(node) = self.nodes.remove(&n) {
            for o in node.params.owned_graphs() {
                self.destroy_graph(o);
            }
            if let Params::Alloc(a, _) = node.params {
                self.hold_graph_memory(a.dptr as usize, -1);
            }
        }
    }

    pub fn destroy_node(&mut self, n: usize) {
        if let Some(g) = self.nodes.get(&n).map(|x| x.graph) {
            if let Some(graph) = self.graphs.get_mut(&g) {
                graph.remove_node(n);
            }
        }
        self.drop_node(n);
    }

    /// Counts a holder more (or less) of the graph memory at `p`; the last one lets it go.
    pub fn hold_graph_memory(&mut self, p: usize, by: i32) {
        let Some(a) = self.allocs.get_mut(&p) else { return };
        if a.pool != GRAPH_MEMORY {
            return;
        }
        // A graph allocation counts its holders in `flags`.
        a.flags = (a.flags as i64 + by as i64).max(0) as u32;
        if a.flags == 0 {
            let a = self.allocs.remove(&p).expect("found above");
            self.used[a.dev as usize] -= a.size;
        }
    }

    /// Releases `count` references on user object `o`; its destructor runs (on a thread of its
    /// own, as the driver's do) when none are left.
    pub fn release_object(&mut self, o: usize, count: u64) {
        let Some(u) = self.objects.get_mut(&o) else { return };
        u.refs = u.refs.saturating_sub(count);
        if u.refs == 0 {
            let u = self.objects.remove(&o).expect("found above");
            if let Some(f) = u.destroy {
                let ptr = u.ptr;
                // SAFETY: the program's destructor with the program's argument.
                let _ = std::thread::Builder::new()
                    .name("cuda-standin-dtor".into())
                    .spawn(move || unsafe { f(ptr as *mut std::ffi::c_void) });
            }
        }
    }
}

/// Writes the first `*count` of `items` to `out` (NULL: only the count), the driver's
/// count-query convention: asked for more, the rest is NULL and the count is the number there
/// are; an array with a count of 0 is an invalid value.
unsafe fn list(items: &[usize], out: *mut CUgraphNode, count: *mut usize) -> Res {
    nonnull(count)?;
    if out.is_null() {
        *count = items.len();
        return Ok(());
    }
    if *count == 0 {
        return Err(INVAL);
    }
    let n = *count;
    for i in 0..n {
        *out.add(i) = items.get(i).copied().unwrap_or(0) as CUgraphNode;
    }
    *count = n.min(items.len());
    Ok(())
}

/// The same for edges: `from` and `to` both or neither; edge data only with them.
unsafe fn edges(
    es: &[(usize, usize, EdgeData)],
    from: *mut CUgraphNode,
    to: *mut CUgraphNode,
    data: *mut EdgeData,
    count: *mut usize,
) -> Res {
    nonnull(count)?;
    if from.is_null() != to.is_null() || (from.is_null() && !data.is_null()) {
        return Err(INVAL);
    }
    if from.is_null() {
        *count = es.len();
        return Ok(());
    }
    if *count == 0 {
        return Err(INVAL);
    }
    let n = *count;
    for i in 0..n {
        let (a, b, e) = es.get(i).copied().unwrap_or((0, 0, EdgeData::default()));
        *from.add(i) = a as CUgraphNode;
        *to.add(i) = b as CUgraphNode;
        if !data.is_null() {
            *data.add(i) = e;
        }
    }
    *count = n.min(es.len());
    Ok(())
}

/// A node's dependencies or dependents (with their edge data), by the count-query convention.
unsafe fn neighbours(
    node: CUgraphNode,
    out: *mut CUgraphNode,
    data: *mut EdgeData,
    count: *mut usize,
    deps: bool,
) -> Res {
    with(|s| {
        let n = s.node(node as usize)?;
        let g = s.graph(n.graph)?;
        let ns = if deps { g.deps_of(node as usize) } else { g.dependents_of(node as usize) };
        nonnull(count)?;
        if out.is_null() {
            if !data.is_null() {
                return Err(INVAL);
            }
            *count = ns.len();
            return Ok(());
        }
        let nodes: Vec<usize> = ns.iter().map(|x| x.0).collect();
        list(&nodes, out, count)?;
        if !data.is_null() {
            for (i, x) in ns.iter().take(*count).enumerate() {
                *data.add(i) = x.1;
            }
        }
        Ok(())
    })
}

/// Adds (or removes) the edges `from[i] -> to[i]` of graph `g`.
unsafe fn change_edges(
    g: CUgraph,
    from: *const CUgraphNode,
    to: *const CUgraphNode,
    data: *const EdgeData,
    n: usize,
    add: bool,
) -> Res {
    with(|s| {
        let g = g as usize;
        s.graph(g)?;
        if n == 0 {
            return Ok(());
        }
        nonnull(from)?;
        nonnull(to)?;
        let (fs, ts) = (std::slice::from_raw_parts(from, n), std::slice::from_raw_parts(to, n));
        let es = edge_data(data, n);
        let mut pairs = Vec::with_capacity(n);
        for i in 0..n {
            let (a, b) = (fs[i] as usize, ts[i] as usize);
            let in_g = |x: usize| s.nodes.get(&x).is_some_and(|y| y.graph == g);
            if !in_g(a) || !in_g(b) || a == b {
                return Err(INVAL);
            }
            let exists = s.graphs[&g].has_edge(a, b);
            if add {
                check_edge(&es[i])?;
                if exists || pairs.iter().any(|&(x, y)| x == a && y == b) {
                    return Err(INVAL);
                }
            } else if !exists {
                return Err(INVAL);
            }
            pairs.push((a, b));
        }
        let graph = s.graphs.get_mut(&g).expect("checked");
        for (i, (a, b)) in pairs.into_iter().enumerate() {
            if add {
                graph.add_edge(a, b, es[i]);
            } else {
                graph.remove_edge(a, b);
            }
        }
        Ok(())
    })
}

export! {
    fn cuGraphCreate(phGraph: *mut CUgraph, flags: c_uint) {
        with(|s| {
            let dev = s.cur()?;
            if phGraph.is_null() || flags != 0 {
                return Err(INVAL);
            }
            *phGraph = s.new_graph(dev) as CUgraph;
            Ok(())
        })
    }

    fn cuGraphDestroy(hGraph: CUgraph) {
        with(|s| {
            match s.graphs.get(&(hGraph as usize)) {
                // A child graph or a conditional body goes with the node that owns it.
                Some(g) if g.owner.is_none() => {}
                _ => return Err(INVAL),
            }
            s.destroy_graph(hGraph as usize);
            Ok(())
        })
    }

    fn cuGraphClone(phGraphClone: *mut CUgraph, originalGraph: CUgraph) {
        nonnull(phGraphClone)?;
        with(|s| {
            s.graph(originalGraph as usize)?;
            *phGraphClone = s.clone_graph(originalGraph as usize) as CUgraph;
            Ok(())
        })
    }

    fn cuGraphNodeFindInClone(phNode: *mut CUgraphNode, hOriginalNode: CUgraphNode, hClonedGraph: CUgraph) {
        nonnull(phNode)?;
        let r = with(|s| {
            let g = s.graph(hClonedGraph as usize)?;
            let c = g.cloned_from.get(&(hOriginalNode as usize)).copied().ok_or(INVAL)?;
            // A copy since destroyed is not found.
            s.node(c)?;
            Ok(c)
        });
        *phNode = r.unwrap_or(0) as CUgraphNode;
        r.map(|_| ())
    }

    fn cuGraphGetNodes(hGraph: CUgraph, nodes: *mut CUgraphNode, numNodes: *mut usize) {
        with(|s| list(&s.graph(hGraph as usize)?.nodes, nodes, numNodes))
    }

    fn cuGraphGetRootNodes(hGraph: CUgraph, rootNodes: *mut CUgraphNode, numRootNodes: *mut usize) {
        with(|s| list(&s.graph(hGraph as usize)?.roots, rootNodes, numRootNodes))
    }

    fn cuGraphGetEdges(hGraph: CUgraph, from: *mut CUgraphNode, to: *mut CUgraphNode, numEdges: *mut usize) {
        with(|s| edges(&s.graph(hGraph as usize)?.edges, from, to, std::ptr::null_mut(), numEdges))
    }

    fn cuGraphGetEdges_v2(hGraph: CUgraph, from: *mut CUgraphNode, to: *mut CUgraphNode, edgeData: *mut EdgeData, numEdges: *mut usize) {
        with(|s| edges(&s.graph(hGraph as usize)?.edges, from, to, edgeData, numEdges))
    }

    fn cuGraphNodeGetDependencies(hNode: CUgraphNode, dependencies: *mut CUgraphNode, numDependencies: *mut usize) {
        neighbours(hNode, dependencies, std::ptr::null_mut(), numDependencies, true)
    }

    fn cuGraphNodeGetDependencies_v2(hNode: CUgraphNode, dependencies: *mut CUgraphNode, edgeData: *mut EdgeData, numDependencies: *mut usize) {
        neighbours(hNode, dependencies, edgeData, numDependencies, true)
    }

    fn cuGraphNodeGetDependentNodes(hNode: CUgraphNode, dependentNodes: *mut CUgraphNode, numDependentNodes: *mut usize) {
        neighbours(hNode, dependentNodes, std::ptr::null_mut(), numDependentNodes, false)
    }

    fn cuGraphNodeGetDependentNodes_v2(hNode: CUgraphNode, dependentNodes: *mut CUgraphNode, edgeData: *mut EdgeData, numDependentNodes: *mut usize) {
        neighbours(hNode, dependentNodes, edgeData, numDependentNodes, false)
    }

    fn cuGraphAddDependencies(hGraph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, numDependencies: usize) {
        change_edges(hGraph, from, to, std::ptr::null(), numDependencies, true)
    }

    fn cuGraphAddDependencies_v2(hGraph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, edgeData: *const EdgeData, numDependencies: usize) {
        change_edges(hGraph, from, to, edgeData, numDependencies, true)
    }

    fn cuGraphRemoveDependencies(hGraph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, numDependencies: usize) {
        change_edges(hGraph, from, to, std::ptr::null(), numDependencies, false)
    }

    fn cuGraphRemoveDependencies_v2(hGraph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, edgeData: *const EdgeData, numDependencies: usize) {
        change_edges(hGraph, from, to, edgeData, numDependencies, false)
    }

    fn cuGraphDestroyNode(hNode: CUgraphNode) {
        with(|s| {
            s.node(hNode as usize)?;
            s.destroy_node(hNode as usize);
            Ok(())
        })
    }

    fn cuGraphNodeGetType(hNode: CUgraphNode, type_: *mut c_int) {
        nonnull(type_)?;
        with(|s| {
            *type_ = s.node(hNode as usize)?.params.kind();
            Ok(())
        })
    }

    fn cuGraphConditionalHandleCreate(pHandle_out: *mut u64, hGraph: CUgraph, ctx: CUcontext, defaultLaunchValue: c_uint, flags: c_uint) {
        with(|s| {
            // The context: the one given, else the current one.
            if ctx.is_null() {
                s.cur()?;
            } else {
                s.live_ctx(ctx as usize)?;
            }
            s.graph(hGraph as usize)?;
            // CU_GRAPH_COND_ASSIGN_DEFAULT is the one flag.
            if pHandle_out.is_null() || flags & !1 != 0 {
                return Err(INVAL);
            }
            let h = s.next_cond;
            s.next_cond += 1;
            s.conds.insert(h, Handle { graph: hGraph as usize, default: defaultLaunchValue, flags });
            *pHandle_out = h;
            Ok(())
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Graph memory of the devices
// ---------------------------------------------------------------------------------------------

/// `CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT` .. `_RESERVED_MEM_HIGH`.
fn graph_mem_attr(m: &mut GraphMem, attr: c_int) -> Res<&mut u64> {
    Ok(match attr {
        0 => &mut m.used,
        1 => &mut m.used_high,
        2 => &mut m.reserved,
        3 => &mut m.reserved_high,
        _ => return Err(INVAL),
    })
}

export! {
    fn cuDeviceGetGraphMemAttribute(device: CUdevice, attr: c_int, value: *mut std::ffi::c_void) {
        with(|s| {
            s.check_dev(device)?;
            nonnull(value)?;
            let v = *graph_mem_attr(&mut s.graph_mem[device as usize], attr)?;
            *(value as *mut u64) = v;
            Ok(())
        })
    }

    fn cuDeviceSetGraphMemAttribute(device: CUdevice, attr: c_int, value: *mut std::ffi::c_void) {
        with(|s| {
            s.check_dev(device)?;
            nonnull(value)?;
            // Only the high-water marks, and only back to the current value (given as 0).
            if (attr != 1 && attr != 3) || *(value as *const u64) != 0 {
                return Err(INVAL);
            }
            let m = &mut s.graph_mem[device as usize];
            let cur = if attr == 1 { m.used } else { m.reserved };
            *graph_mem_attr(m, attr)? = cur;
            Ok(())
        })
    }

    fn cuDeviceGraphMemTrim(device: CUdevice) {
        with(|s| {
            s.check_dev(device)?;
            let m = &mut s.graph_mem[device as usize];
            m.reserved = m.used;
            Ok(())
        })
    }
}
