//! Streams and events. Work is never pending, so a query succeeds and a host function runs at
//! once, unless the stream captures (then it is a node of the capture, `capture.rs`); events
//! record the host clock, or in a capture what a wait joins after. A synchronisation tells the
//! pools that the frees it waited for are done (their reuse rules need it).

use std::ffi::{c_int, c_uint, c_void};

use crate::dag::Params;
use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};

const CU_STREAM_NON_BLOCKING: c_uint = 1;
/// `CU_EVENT_RECORD_EXTERNAL`, `CU_EVENT_WAIT_EXTERNAL`.
const EXTERNAL: c_uint = 1;

impl State {
    /// The program waited for stream `k` up to its work `upto` (all of it when `None`), or
    /// for everything (`k` `None`): the pools' frees there are done, and memory above the
    /// pools' release thresholds goes back.
    pub fn synced(&mut self, k: Option<SKey>, upto: Option<u64>) {
        for p in self.pools.values_mut() {
            for b in p.free.iter_mut() {
                if k.is_none_or(|k| k == b.stream) && upto.is_none_or(|u| b.seq <= u) {
                    b.done = true;
                }
            }
            p.release();
        }
    }
}

unsafe fn create(ph: *mut CUstream, flags: c_uint, priority: c_int) -> Res {
    nonnull(ph)?;
    with(|s| {
        let dev = s.cur()?;
        if flags & !CU_STREAM_NON_BLOCKING != 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        // Priorities outside [greatest, least] = [-5, 0] are clamped, as documented.
        let priority = priority.clamp(-5, 0);
        let h = new_handle();
        s.streams.insert(h, Stream { dev, flags, priority });
        *ph = h as CUstream;
        Ok(())
    })
}

fn synchronize(h: CUstream, per_thread: bool) -> Res {
    with(|s| {
        let k = s.skey(h as usize, per_thread)?;
        s.stream_wait_gate(k)?;
        s.synced(Some(k), None);
        Ok(())
    })
}

fn query(h: CUstream, per_thread: bool) -> Res {
    with(|s| {
        let k = s.skey(h as usize, per_thread)?;
        s.stream_wait_gate(k)
    })
}

unsafe fn get_flags(h: CUstream, per_thread: bool, flags: *mut c_uint) -> Res {
    nonnull(flags)?;
    with(|s| {
        let k = s.skey(h as usize, per_thread)?;
        *flags = match k {
            SKey::Handle(h) => s.streams[&h].flags,
            _ => 0,
        };
        Ok(())
    })
}

unsafe fn get_priority(h: CUstream, per_thread: bool, priority: *mut c_int) -> Res {
    nonnull(priority)?;
    with(|s| {
        let k = s.skey(h as usize, per_thread)?;
        *priority = match k {
            SKey::Handle(h) => s.streams[&h].priority,
            _ => 0,
        };
        Ok(())
    })
}

fn wait_event(h: CUstream, per_thread: bool, ev: CUevent, flags: c_uint) -> Res {
    with(|s| {
        let k = s.skey(h as usize, per_thread)?;
        if !s.events.contains_key(&(ev as usize)) {
            return Err(CUDA_ERROR_INVALID_HANDLE);
        }
        if flags & !EXTERNAL != 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        s.wait(k, ev as usize, flags & EXTERNAL != 0)
    })
}

fn launch_host_func(h: CUstream, per_thread: bool, func: CUhostFn, user_data: *mut c_void) -> Res {
    let run = with(|s| {
        let k = s.skey(h as usize, per_thread)?;
        let f = func.ok_or(CUDA_ERROR_INVALID_VALUE)?;
        match s.gate(k)? {
            Some(_) => {
                s.capture_node(k, Params::Host(CUDA_HOST_NODE_PARAMS { fn_: Some(f), userData: user_data }));
                Ok(None)
            }
            None => Ok(Some(f)),
        }
    })?;
    // Outside the lock: the function may call back into the driver.
    if let Some(f) = run {
        // SAFETY: the program's host function with its argument.
        unsafe { f(user_data) };
    }
    Ok(())
}

fn record(ev: CUevent, h: CUstream, per_thread: bool, flags: c_uint) -> Res {
    with(|s| {
        let k = s.skey(h as usize, per_thread)?;
        if flags & !EXTERNAL != 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        // An external record is a node of a stream capture; outside one the H100's driver
        // refuses it and the event stays as it was.
        s.record(ev as usize, k, flags & EXTERNAL != 0)
    })
}

export! {
    fn cuStreamCreate(phStream: *mut CUstream, flags: c_uint) {
        create(phStream, flags, 0)
    }

    fn cuStreamCreateWithPriority(phStream: *mut CUstream, flags: c_uint, priority: c_int) {
        create(phStream, flags, priority)
    }

    fn cuStreamDestroy(hStream: CUstream) {
        with(|s| {
            s.cur()?;
            s.streams.remove(&(hStream as usize)).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            // A stream destroyed in a capture ends the capture early.
            if let Some(c) = s.caps.remove(&SKey::Handle(hStream as usize)) {
                s.invalidate(c.id);
            }
            Ok(())
        })
    }

    fn cuStreamSynchronize(hStream: CUstream) { synchronize(hStream, false) }
    fn cuStreamSynchronize_ptsz(hStream: CUstream) { synchronize(hStream, true) }
    fn cuStreamQuery(hStream: CUstream) { query(hStream, false) }
    fn cuStreamQuery_ptsz(hStream: CUstream) { query(hStream, true) }
    fn cuStreamGetFlags(hStream: CUstream, flags: *mut c_uint) { get_flags(hStream, false, flags) }
    fn cuStreamGetFlags_ptsz(hStream: CUstream, flags: *mut c_uint) { get_flags(hStream, true, flags) }
    fn cuStreamGetPriority(hStream: CUstream, priority: *mut c_int) { get_priority(hStream, false, priority) }
    fn cuStreamGetPriority_ptsz(hStream: CUstream, priority: *mut c_int) { get_priority(hStream, true, priority) }
    fn cuStreamWaitEvent(hStream: CUstream, hEvent: CUevent, flags: c_uint) { wait_event(hStream, false, hEvent, flags) }
    fn cuStreamWaitEvent_ptsz(hStream: CUstream, hEvent: CUevent, flags: c_uint) { wait_event(hStream, true, hEvent, flags) }
    fn cuLaunchHostFunc(hStream: CUstream, func: CUhostFn, userData: *mut c_void) { launch_host_func(hStream, false, func, userData) }
    fn cuLaunchHostFunc_ptsz(hStream: CUstream, func: CUhostFn, userData: *mut c_void) { launch_host_func(hStream, true, func, userData) }

    fn cuEventCreate(phEvent: *mut CUevent, flags: c_uint) {
        nonnull(phEvent)?;
        with(|s| {
            let dev = s.cur()?;
            // DEFAULT 0, BLOCKING_SYNC 1, DISABLE_TIMING 2, INTERPROCESS 4 (needs DISABLE_TIMING).
            if flags & !7 != 0 || (flags & 4 != 0 && flags & 2 == 0) {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            let h = new_handle();
            s.events.insert(h, Event { dev, flags, recorded: None, captured: None, at: None });
            *phEvent = h as CUevent;
            Ok(())
        })
    }

    fn cuEventRecord(hEvent: CUevent, hStream: CUstream) { record(hEvent, hStream, false, 0) }
    fn cuEventRecord_ptsz(hEvent: CUevent, hStream: CUstream) { record(hEvent, hStream, true, 0) }
    fn cuEventRecordWithFlags(hEvent: CUevent, hStream: CUstream, flags: c_uint) { record(hEvent, hStream, false, flags) }
    fn cuEventRecordWithFlags_ptsz(hEvent: CUevent, hStream: CUstream, flags: c_uint) { record(hEvent, hStream, true, flags) }

    fn cuEventQuery(hEvent: CUevent) {
        with(|s| s.event_wait_gate(hEvent as usize))
    }

    fn cuEventSynchronize(hEvent: CUevent) {
        with(|s| {
            s.event_wait_gate(hEvent as usize)?;
            if let Some((k, seq)) = s.events[&(hEvent as usize)].at {
                s.synced(Some(k), Some(seq));
            }
            Ok(())
        })
    }

    fn cuEventElapsedTime(pMilliseconds: *mut f32, hStart: CUevent, hEnd: CUevent) {
        nonnull(pMilliseconds)?;
        with(|s| {
            let a = s.events.get(&(hStart as usize)).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            let b = s.events.get(&(hEnd as usize)).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            if a.flags & 2 != 0 || b.flags & 2 != 0 {
                return Err(CUDA_ERROR_INVALID_HANDLE);
            }
            match (a.recorded, b.recorded) {
                (Some(x), Some(y)) => {
                    let ms = if y >= x {
                        y.duration_since(x).as_secs_f64() * 1e3
                    } else {
                        -(x.duration_since(y).as_secs_f64() * 1e3)
                    };
                    *pMilliseconds = ms as f32;
                    Ok(())
                }
                // A never-recorded event: the real driver (CUDA 13, H100) says invalid handle.
                _ => Err(CUDA_ERROR_INVALID_HANDLE),
            }
        })
    }

    fn cuEventDestroy(hEvent: CUevent) {
        with(|s| {
            s.events.remove(&(hEvent as usize)).map(|_| ()).ok_or(CUDA_ERROR_INVALID_HANDLE)
        })
    }
}
