//! `cuGraphDebugDotPrint`: a graph as a DOT file, in the layout the driver writes (a cluster
//! named after the graph's number, each node named after its number in the graph, its type
//! and a summary; with the parameter flags, memset nodes as records of their parameters).

use std::ffi::{c_char, c_uint, CStr};
use std::fmt::Write;

use crate::dag::*;
use crate::state::*;
use crate::types::*;
use crate::{export, nonnull, CUDA_ERROR_OPERATING_SYSTEM};

/// `CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE` and `_MEMSET_NODE_PARAMS`.
const VERBOSE: c_uint = 1;
const MEMSET_PARAMS: c_uint = 1 << 4;

fn name(p: &Params) -> &'static str {
    match p {
        Params::Memcpy(_) => "MEMCPY",
        Params::Memset(_) => "MEMSET",
        Params::Host(_) => "HOST",
        Params::Child(_) => "GRAPH",
        Params::Empty => "EMPTY",
        Params::Wait(_) => "WAIT_EVENT",
        Params::Record(_) => "EVENT_RECORD",
        Params::Signal(_) => "EXT_SEMAS_SIGNAL",
        Params::SemWait(_) => "EXT_SEMAS_WAIT",
        Params::Alloc(..) => "MEM_ALLOC",
        Params::Free(_) => "MEM_FREE",
        Params::Cond(_) => "CONDITIONAL",
    }
}

fn node(o: &mut String, g: &Graph, n: &Node, flags: c_uint) {
    let id = format!("graph_{}_node_{}", g.id, n.local);
    match &n.params {
        Params::Memset(m) if flags & (VERBOSE | MEMSET_PARAMS) != 0 => {
            let _ = write!(
                o,
                "\"{id}\"[style=\"solid\" style=\"solid\" shape=\"record\" label=\"{{MEMSET\n| {{{{ID | dptr | pitch | value | elementSize | width | height}} | {{{} | {:#x} | {} | {} | {} | {} | {}}}}}}}\"];\n\n",
                n.local, m.dst, m.pitch, m.value, m.elementSize, m.width, m.height
            );
        }
        Params::Memset(m) => {
            let _ = write!(
                o,
                "\"{id}\"[style=\"solid\" shape=\"invtrapezium\"label=\"{}\nMEMSET\n({},{})\n\"];\n\n",
                n.local, m.value, m.width
            );
        }
        Params::Memcpy(c) => {
            let _ = write!(
                o,
                "\"{id}\"[style=\"solid\" shape=\"trapezium\"label=\"{}\nMEMCPY\n({}x{}x{})\n\"];\n\n",
                n.local, c.WidthInBytes, c.Height, c.Depth
            );
        }
        p => {
            let _ =
                write!(o, "\"{id}\"[style=\"solid\" shape=\"rectangle\" label=\"{}\n{}\n\"];\n\n", n.local, name(p));
        }
    }
}

fn dot(s: &State, g: &Graph, flags: c_uint) -> String {
    let mut o = String::from("digraph dot {\n");
    let _ = writeln!(o, "subgraph cluster_{} {{\nlabel=\"graph_{}\" graph[style=\"dashed\"];", g.id, g.id);
    for n in &g.nodes {
        node(&mut o, g, &s.nodes[n], flags);
    }
    for (a, b, _) in &g.edges {
        let _ =
            writeln!(o, "\"graph_{0}_node_{1}\" -> \"graph_{0}_node_{2}\";", g.id, s.nodes[a].local, s.nodes[b].local);
    }
    o.push_str("}\n}\n");
    o
}

export! {
    fn cuGraphDebugDotPrint(hGraph: CUgraph, path: *const c_char, flags: c_uint) {
        nonnull(path)?;
        let text = with(|s| {
            let g = s.graph(hGraph as usize)?;
            Ok(dot(s, g, flags))
        })?;
        let path = CStr::from_ptr(path).to_string_lossy().into_owned();
        std::fs::write(path, text).map_err(|_| CUDA_ERROR_OPERATING_SYSTEM)
    }
}
