//! Primary contexts (retain, release, reset, flags, state) and the thread's context stack
//! (current, push, pop), peer access between contexts; and what a context's end destroys.

use std::ffi::{c_int, c_uint};

use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};
use crate::{CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, CUDA_ERROR_PEER_ACCESS_NOT_ENABLED};

/// Destroys everything a device's primary context owns (on reset or the last release), in
/// every registry of the stand-in.
pub fn destroyed(s: &mut State, dev: c_int) {
    s.destroy_ctx_resources(dev);
    crate::devctl::context_destroyed(dev);
    crate::texture::context_destroyed(dev);
}

/// Valid context flags: scheduling (one of 1, 2, 4), MAP_HOST 8, LMEM_RESIZE_TO_MAX 0x10,
/// COREDUMP 0x20, USER_COREDUMP 0x40, SYNC_MEMOPS 0x80.
fn check_ctx_flags(flags: c_uint) -> Res {
    if flags & !0xff != 0 || !matches!(flags & 7, 0 | 1 | 2 | 4) {
        return Err(CUDA_ERROR_INVALID_VALUE);
    }
    Ok(())
}

export! {
    fn cuDevicePrimaryCtxRetain(pctx: *mut CUcontext, dev: CUdevice) {
        nonnull(pctx)?;
        with(|s| {
            s.check_dev(dev)?;
            let c = &mut s.ctxs[dev as usize];
            c.refcount += 1;
            c.active = true;
            *pctx = c.handle as CUcontext;
            Ok(())
        })
    }

    fn cuDevicePrimaryCtxRelease(dev: CUdevice) {
        with(|s| {
            s.check_dev(dev)?;
            let c = &mut s.ctxs[dev as usize];
            if c.refcount == 0 {
                return Err(CUDA_ERROR_INVALID_CONTEXT);
            }
            c.refcount -= 1;
            if c.refcount == 0 {
                c.active = false;
                destroyed(s, dev);
            }
            Ok(())
        })
    }

    fn cuDevicePrimaryCtxReset(dev: CUdevice) {
        with(|s| {
            s.check_dev(dev)?;
            // Destroys the context but does not release it: retains stay counted, so a later
            // cuDevicePrimaryCtxRelease is still safe, as documented.
            let c = &mut s.ctxs[dev as usize];
            c.active = false;
            c.flags = 0;
            destroyed(s, dev);
            Ok(())
        })
    }

    fn cuDevicePrimaryCtxSetFlags(dev: CUdevice, flags: c_uint) {
        with(|s| {
            s.check_dev(dev)?;
            check_ctx_flags(flags)?;
            s.ctxs[dev as usize].flags = flags;
            Ok(())
        })
    }

    fn cuDevicePrimaryCtxGetState(dev: CUdevice, flags: *mut c_uint, active: *mut c_int) {
        nonnull(flags)?;
        nonnull(active)?;
        with(|s| {
            s.check_dev(dev)?;
            let c = &s.ctxs[dev as usize];
            *flags = c.flags;
            *active = c.active as c_int;
            Ok(())
        })
    }

    fn cuCtxGetCurrent(pctx: *mut CUcontext) {
        nonnull(pctx)?;
        with(|_| {
            *pctx = stack_top() as CUcontext;
            Ok(())
        })
    }

    fn cuCtxSetCurrent(ctx: CUcontext) {
        with(|s| {
            if !ctx.is_null() {
                s.ctx_dev(ctx as usize).ok_or(CUDA_ERROR_INVALID_CONTEXT)?;
            }
            stack_set_top(ctx as usize);
            Ok(())
        })
    }

    fn cuCtxPushCurrent(ctx: CUcontext) {
        with(|s| {
            s.ctx_dev(ctx as usize).ok_or(CUDA_ERROR_INVALID_CONTEXT)?;
            stack_push(ctx as usize);
            Ok(())
        })
    }

    fn cuCtxPopCurrent(pctx: *mut CUcontext) {
        with(|_| {
            if stack_top() == 0 {
                return Err(CUDA_ERROR_INVALID_CONTEXT);
            }
            let c = stack_pop();
            if !pctx.is_null() {
                *pctx = c as CUcontext;
            }
            Ok(())
        })
    }

    fn cuCtxGetDevice(device: *mut CUdevice) {
        nonnull(device)?;
        with(|s| {
            *device = s.cur()?;
            Ok(())
        })
    }

    fn cuCtxSynchronize() {
        with(|s| {
            let d = s.cur()?;
            s.device_wait_gate(d)?;
            s.synced(None, None);
            Ok(())
        })
    }

    fn cuCtxGetFlags(flags: *mut c_uint) {
        nonnull(flags)?;
        with(|s| {
            let d = s.cur()?;
            *flags = s.ctxs[d as usize].flags;
            Ok(())
        })
    }

    fn cuCtxEnablePeerAccess(peerContext: CUcontext, flags: c_uint) {
        with(|s| {
            let d = s.cur()?;
            if flags != 0 {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            let p = s.live_ctx(peerContext as usize)?;
            if p == d {
                return Err(CUDA_ERROR_INVALID_CONTEXT);
            }
            let c = &mut s.ctxs[d as usize];
            if c.peers & (1 << p) != 0 {
                return Err(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED);
            }
            c.peers |= 1 << p;
            Ok(())
        })
    }

    fn cuCtxDisablePeerAccess(peerContext: CUcontext) {
        with(|s| {
            let d = s.cur()?;
            let p = s.live_ctx(peerContext as usize)?;
            let c = &mut s.ctxs[d as usize];
            if c.peers & (1 << p) == 0 {
                return Err(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED);
            }
            c.peers &= !(1 << p);
            Ok(())
        })
    }

    fn cuCtxGetStreamPriorityRange(leastPriority: *mut c_int, greatestPriority: *mut c_int) {
        with(|s| {
            s.cur()?;
            if !leastPriority.is_null() {
                *leastPriority = 0;
            }
            if !greatestPriority.is_null() {
                *greatestPriority = -5;
            }
            Ok(())
        })
    }
}
