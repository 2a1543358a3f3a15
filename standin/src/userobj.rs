//! User objects: references held by the program, by graphs and by their executables; the
//! destructor runs on a thread of its own when the last goes (`State::release_object`).

use std::ffi::{c_uint, c_void};

use crate::dag::UserObject;
use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};

const INVAL: CUresult = CUDA_ERROR_INVALID_VALUE;
/// `CU_USER_OBJECT_NO_DESTRUCTOR_SYNC`, the one flag (and required).
const NO_DESTRUCTOR_SYNC: c_uint = 1;
/// `CU_GRAPH_USER_OBJECT_MOVE`.
const MOVE: c_uint = 1;

export! {
    fn cuUserObjectCreate(object_out: *mut CUuserObject, ptr: *mut c_void, destroy: CUhostFn, initialRefcount: c_uint, flags: c_uint) {
        nonnull(object_out)?;
        if destroy.is_none() || initialRefcount == 0 || flags != NO_DESTRUCTOR_SYNC {
            return Err(INVAL);
        }
        with(|s| {
            let h = new_handle();
            s.objects.insert(h, UserObject { refs: initialRefcount as u64, ptr: ptr as usize, destroy });
            *object_out = h as CUuserObject;
            Ok(())
        })
    }

    fn cuUserObjectRetain(object: CUuserObject, count: c_uint) {
        with(|s| {
            let o = s.objects.get_mut(&(object as usize)).ok_or(INVAL)?;
            if count == 0 {
                return Err(INVAL);
            }
            o.refs += count as u64;
            Ok(())
        })
    }

    fn cuUserObjectRelease(object: CUuserObject, count: c_uint) {
        with(|s| {
            if !s.objects.contains_key(&(object as usize)) || count == 0 {
                return Err(INVAL);
            }
            s.release_object(object as usize, count as u64);
            Ok(())
        })
    }

    fn cuGraphRetainUserObject(graph: CUgraph, object: CUuserObject, count: c_uint, flags: c_uint) {
        with(|s| {
            s.graph(graph as usize)?;
            if !s.objects.contains_key(&(object as usize)) || count == 0 || flags & !MOVE != 0 {
                return Err(INVAL);
            }
            // Moved references are the caller's given over; otherwise new ones.
            if flags & MOVE == 0 {
                s.objects.get_mut(&(object as usize)).expect("checked").refs += count as u64;
            }
            *s.graphs.get_mut(&(graph as usize)).expect("checked").objects.entry(object as usize).or_default() += count;
            Ok(())
        })
    }

    fn cuGraphReleaseUserObject(graph: CUgraph, object: CUuserObject, count: c_uint) {
        with(|s| {
            let g = s.graphs.get_mut(&(graph as usize)).ok_or(INVAL)?;
            let held = g.objects.get_mut(&(object as usize)).ok_or(INVAL)?;
            if count == 0 || count > *held {
                return Err(INVAL);
            }
            *held -= count;
            if *held == 0 {
                g.objects.remove(&(object as usize));
            }
            s.release_object(object as usize, count as u64);
            Ok(())
        })
    }
}
