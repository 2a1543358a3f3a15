//! A stream's capture status. The stand-in never captures (beginning a capture is not
//! supported, `graph.rs`), so every valid stream is not capturing: what the runtime asks
//! before it copies pageable memory through its staging pipeline.

use std::ffi::c_int;

use crate::state::*;
use crate::types::*;
use crate::{export, nonnull};

export! {
    fn cuStreamIsCapturing(hStream: CUstream, captureStatus: *mut c_int) {
        nonnull(captureStatus)?;
        with(|s| {
            s.cur()?;
            s.check_stream(hStream as usize)?;
            *captureStatus = 0;
            Ok(())
        })
    }
}
