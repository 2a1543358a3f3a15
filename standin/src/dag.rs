//! Graphs as data: nodes with their parameters, edges with their edge data, executable
//! snapshots and user objects; the topology a graph answers with, and the orders, cycles and
//! shapes that instantiation, cloning and updates look at. Nothing here touches memory or the
//! model's other registries (`graph.rs`, `graph_node.rs` and `exec.rs` do).

use std::collections::{HashMap, HashSet};
use std::ffi::{c_int, c_uint, c_void};

use crate::types::*;

// Node types (`CUgraphNodeType`).
pub const KERNEL: c_int = 0;
pub const MEMCPY: c_int = 1;
pub const MEMSET: c_int = 2;
pub const HOST: c_int = 3;
pub const GRAPH: c_int = 4;
pub const EMPTY: c_int = 5;
pub const WAIT_EVENT: c_int = 6;
pub const EVENT_RECORD: c_int = 7;
pub const SEM_SIGNAL: c_int = 8;
pub const SEM_WAIT: c_int = 9;
pub const MEM_ALLOC: c_int = 10;
pub const MEM_FREE: c_int = 11;
pub const CONDITIONAL: c_int = 13;

/// `CUgraphEdgeData`.
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct EdgeData {
    pub from_port: u8,
    pub to_port: u8,
    pub type_: u8,
    pub reserved: [u8; 5],
}

/// `CUDA_EXT_SEM_SIGNAL_NODE_PARAMS` and `CUDA_EXT_SEM_WAIT_NODE_PARAMS` (the same layout).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct SemNodeParams {
    pub extSemArray: *mut CUexternalSemaphore,
    pub paramsArray: *const c_void,
    pub numExtSems: c_uint,
}

/// The semaphores and their parameters of an external semaphore node, copied (each
/// parameter struct is `param_size` bytes).
#[derive(Clone, Debug, Default)]
pub struct Sems {
    pub sems: Vec<usize>,
    pub params: Vec<u8>,
}

/// A memset node's parameters without the context of the `_v2` form.
pub fn memset_v1(m: &CUDA_MEMSET_NODE_PARAMS_v2) -> CUDA_MEMSET_NODE_PARAMS {
    CUDA_MEMSET_NODE_PARAMS {
        dst: m.dst,
        pitch: m.pitch,
        value: m.value,
        elementSize: m.elementSize,
        width: m.width,
        height: m.height,
    }
}

/// A conditional node: its handle, IF/WHILE/SWITCH, and its body graphs.
#[derive(Clone, Debug)]
pub struct Cond {
    pub handle: u64,
    pub kind: c_int,
    pub bodies: Vec<usize>,
}

/// What a node does.
#[derive(Clone, Debug)]
pub enum Params {
    Memcpy(CUDA_MEMCPY3D),
    Memset(CUDA_MEMSET_NODE_PARAMS),
    Host(CUDA_HOST_NODE_PARAMS),
    /// The node's own graph (a copy of the graph it was made with).
    Child(usize),
    Empty,
    Wait(usize),
    Record(usize),
    Signal(Sems),
    SemWait(Sems),
    /// The parameters (with the address handed out) and the access descriptors, copied.
    Alloc(CUDA_MEM_ALLOC_NODE_PARAMS, Vec<CUmemAccessDesc>),
    Free(usize),
    Cond(Cond),
}

impl Params {
    pub fn kind(&self) -> c_int {
        match self {
            Params::Memcpy(_) => MEMCPY,
            Params::Memset(_) => MEMSET,
            Params::Host(_) => HOST,
            Params::Child(_) => GRAPH,
            Params::Empty => EMPTY,
            Params::Wait(_) => WAIT_EVENT,
            Params::Record(_) => EVENT_RECORD,
            Params::Signal(_) => SEM_SIGNAL,
            Params::SemWait(_) => SEM_WAIT,
            Params::Alloc(..) => MEM_ALLOC,
            Params::Free(_) => MEM_FREE,
            Params::Cond(_) => CONDITIONAL,
        }
    }

    /// The graphs a node owns (a child graph, a conditional node's bodies).
    pub fn owned_graphs(&self) -> Vec<usize> {
        match self {
            Params::Child(g) => vec![*g],
            Params::Cond(c) => c.bodies.clone(),
            _ => Vec::new(),
        }
    }
}

pub struct Node {
    pub graph: usize,
    /// The node's number in its graph, in creation order (what DOT output shows).
    pub local: u32,
    pub params: Params,
}

/// A conditional handle: its graph, its value at each launch (with `CU_GRAPH_COND_ASSIGN_DEFAULT`)
/// and whether a node uses it.
#[derive(Clone, Copy, Debug)]
pub struct Handle {
    pub graph: usize,
    pub default: c_uint,
    pub flags: c_uint,
}

#[derive(Default)]
pub struct Graph {
    /// The process-wide graph number (what DOT output shows).
    pub id: u32,
    pub dev: c_int,
    /// Nodes in creation order.
    pub nodes: Vec<usize>,
    /// Edges in the order they were added.
    pub edges: Vec<(usize, usize, EdgeData)>,
    /// Nodes without dependencies, the latest to become one first (the order the driver
    /// lists them in).
    pub roots: Vec<usize>,
    pub next_local: u32,
    /// References held on user objects.
    pub objects: HashMap<usize, u32>,
    /// The node that owns this graph (a child graph node, a conditional body): such a graph
    /// is not destroyed by itself.
    pub owner: Option<usize>,
    /// For a clone: the original's nodes and their copies here.
    pub cloned_from: HashMap<usize, usize>,
}

impl Graph {
    pub fn deps_of(&self, n: usize) -> Vec<(usize, EdgeData)> {
        self.edges.iter().filter(|e| e.1 == n).map(|e| (e.0, e.2)).collect()
    }
    pub fn dependents_of(&self, n: usize) -> Vec<(usize, EdgeData)> {
        self.edges.iter().filter(|e| e.0 == n).map(|e| (e.1, e.2)).collect()
    }
    /// Adds node `n` (a root until an edge leads to it).
    pub fn push_node(&mut self, n: usize) {
        self.nodes.push(n);
        self.roots.insert(0, n);
    }

    pub fn add_edge(&mut self, from: usize, to: usize, e: EdgeData) {
        self.roots.retain(|&r| r != to);
        self.edges.push((from, to, e));
    }

    /// Removes the edge `from -> to`; `to` is a root again if it was its last dependency.
    pub fn remove_edge(&mut self, from: usize, to: usize) -> bool {
        let Some(i) = self.edges.iter().position(|e| e.0 == from && e.1 == to) else { return false };
        self.edges.remove(i);
        if !self.edges.iter().any(|e| e.1 == to) {
            self.roots.insert(0, to);
        }
        true
    }

    /// Removes node `n` and its edges.
    pub fn remove_node(&mut self, n: usize) {
        let outs: Vec<usize> = self.edges.iter().filter(|e| e.0 == n).map(|e| e.1).collect();
        for to in outs {
            self.remove_edge(n, to);
        }
        self.edges.retain(|e| e.1 != n);
        self.nodes.retain(|&x| x != n);
        self.roots.retain(|&x| x != n);
    }
    pub fn has_edge(&self, from: usize, to: usize) -> bool {
        self.edges.iter().any(|e| e.0 == from && e.1 == to)
    }

    /// The nodes in an order every edge agrees with (creation order where free to choose),
    /// or `Err(node)` with a node on a cycle.
    pub fn order(&self) -> Result<Vec<usize>, usize> {
        let mut indeg: HashMap<usize, usize> = self.nodes.iter().map(|&n| (n, 0)).collect();
        for e in &self.edges {
            *indeg.entry(e.1).or_default() += 1;
        }
        let mut done = Vec::with_capacity(self.nodes.len());
        let mut placed: HashSet<usize> = HashSet::new();
        while done.len() < self.nodes.len() {
            let Some(&n) = self.nodes.iter().find(|n| !placed.contains(n) && indeg[n] == 0) else {
                let on_cycle = self.nodes.iter().copied().find(|n| !placed.contains(n)).unwrap_or(0);
                return Err(on_cycle);
            };
            placed.insert(n);
            done.push(n);
            for e in self.edges.iter().filter(|e| e.0 == n) {
                if let Some(d) = indeg.get_mut(&e.1) {
                    *d -= 1;
                }
            }
        }
        Ok(done)
    }

    /// Whether `a` is `b` or comes before it.
    pub fn reaches(&self, a: usize, b: usize) -> bool {
        let mut stack = vec![a];
        let mut seen = HashSet::new();
        while let Some(n) = stack.pop() {
            if n == b {
                return true;
            }
            if seen.insert(n) {
                stack.extend(self.edges.iter().filter(|e| e.0 == n).map(|e| e.1));
            }
        }
        false
    }
}

/// A node of an executable graph: the node of the graph it was made from, what it does, and
/// whether it runs.
#[derive(Clone, Debug)]
pub struct ExecNode {
    pub orig: usize,
    pub run: Run,
    pub enabled: bool,
}

/// What an executable node does (a child graph and conditional bodies as snapshots of their
/// own).
#[derive(Clone, Debug)]
pub enum Run {
    Memcpy(CUDA_MEMCPY3D),
    Memset(CUDA_MEMSET_NODE_PARAMS),
    Host(CUDA_HOST_NODE_PARAMS),
    Child(Snapshot),
    Empty,
    Wait,
    Record(usize),
    Sems,
    Alloc(usize, usize),
    Free(usize),
    Cond(c_int, u64, Vec<Snapshot>),
}

impl Run {
    pub fn kind(&self) -> c_int {
        match self {
            Run::Memcpy(_) => MEMCPY,
            Run::Memset(_) => MEMSET,
            Run::Host(_) => HOST,
            Run::Child(_) => GRAPH,
            Run::Empty => EMPTY,
            Run::Wait => WAIT_EVENT,
            Run::Record(_) => EVENT_RECORD,
            Run::Sems => SEM_SIGNAL,
            Run::Alloc(..) => MEM_ALLOC,
            Run::Free(_) => MEM_FREE,
            Run::Cond(..) => CONDITIONAL,
        }
    }
}

/// The nodes of a graph in an order that respects its edges, and the edges (as indices into
/// the nodes) that its shape is compared by.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    pub nodes: Vec<ExecNode>,
    pub edges: Vec<(usize, usize)>,
}

pub struct Exec {
    pub flags: u64,
    pub snap: Snapshot,
    /// The graph it was instantiated from (its nodes name the executable's nodes).
    pub graph: usize,
    pub objects: HashMap<usize, u32>,
    /// Conditional handles of the graph and their values.
    pub conds: HashMap<u64, (c_uint, c_uint)>,
}

impl Exec {
    /// The executable node made from graph node `orig`, at any depth of child graphs.
    pub fn node_mut(&mut self, orig: usize) -> Option<&mut ExecNode> {
        self.snap.nodes.iter_mut().find(|n| n.orig == orig)
    }
}

/// A user object: references, the destructor and its argument.
pub struct UserObject {
    pub refs: u64,
    pub ptr: usize,
    pub destroy: CUhostFn,
}

// SAFETY (the three impls): the pointers inside node parameters are the program's, kept to be
// handed back or used when a graph runs; the model's mutex serialises every access to them.
unsafe impl Send for Params {}
unsafe impl Send for Run {}
unsafe impl Send for Exec {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_order_and_cycles() {
        let mut g = Graph::default();
        for n in 1..=4 {
            g.push_node(n);
        }
        g.add_edge(1, 2, EdgeData::default());
        g.add_edge(1, 3, EdgeData::default());
        g.add_edge(2, 4, EdgeData::default());
        // The latest root first; a node with a dependency is no root.
        assert_eq!(g.roots, vec![1]);
        assert_eq!(g.order(), Ok(vec![1, 2, 3, 4]));
        assert!(g.reaches(1, 4) && !g.reaches(3, 4));
        g.add_edge(4, 1, EdgeData::default());
        assert!(g.order().is_err());
        assert!(g.remove_edge(4, 1));
        // Losing its last dependency makes a node a root again, first.
        g.remove_node(2);
        assert_eq!(g.roots, vec![4, 1]);
        assert_eq!(g.edges.len(), 1);
    }
}
