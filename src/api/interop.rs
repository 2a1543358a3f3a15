//! Graphics interoperability common to every graphics API (the runtime header's Graphics
//! Interoperability section): a `cudaGraphicsResource_t` is the driver's `CUgraphicsResource`,
//! registered by the OpenGL, EGL and VDPAU exports (`gl.rs`, `egl.rs`, `vdpau.rs`), and these
//! map, unmap, query and unregister it through the driver. Flag values are the driver's
//! (map flags other than read-only and write-discard become none: `map_flags`).
#![allow(non_snake_case)]

use cudart_rs_macros::{export, passthrough};
use std::ffi::{c_int, c_uint, c_void};

use crate::driver::types::*;
use crate::runtime::boundary::{cu, run, Res};
use crate::runtime::rt;
use crate::types::cudaError;
use crate::types::*;

/// The driver's handle of a runtime graphics resource.
#[inline(always)]
pub(crate) fn resource(r: cudaGraphicsResource_t) -> CUgraphicsResource {
    r as CUgraphicsResource
}

/// The device a graphics API's set-device call (`cudaGLSetGLDevice`, `cudaVDPAUSetVDPAUDevice`)
/// names, with the flags its primary context is to be made with: `cudaErrorInvalidDevice` for
/// no device, `cudaErrorSetOnActiveProcess` once that context is active, as NVIDIA documents
/// (the runtime header's "Interactions with the CUDA Driver API").
pub(crate) fn inactive_device(device: c_int) -> Res<(CUdevice, c_uint)> {
    let dev = rt::check_device(device)?;
    let (mut flags, mut active): (c_uint, c_int) = (0, 0);
    // SAFETY: valid out pointers, a checked ordinal.
    cu(unsafe { rt::fns()?.cuDevicePrimaryCtxGetState(dev, &mut flags, &mut active) })?;
    if active != 0 {
        return Err(cudaError::cudaErrorSetOnActiveProcess);
    }
    Ok((dev, flags))
}

/// The driver's map flags for the runtime's: read-only and write-discard are the same values;
/// anything else is none, as NVIDIA's runtime passes it (flags 3 and 0x100 go to the driver as
/// 0, and succeed).
fn map_flags(flags: c_uint) -> c_uint {
    match flags {
        1 => 1, // cudaGraphicsMapFlagsReadOnly: CU_GRAPHICS_MAP_RESOURCE_FLAGS_READ_ONLY
        2 => 2, // cudaGraphicsMapFlagsWriteDiscard: CU_GRAPHICS_MAP_RESOURCE_FLAGS_WRITE_DISCARD
        _ => 0,
    }
}

passthrough! {
    cudaGraphicsUnregisterResource(resource: cudaGraphicsResource_t)
        = ctx.cuGraphicsUnregisterResource(self::resource(resource)) [family = Interop]
        "Unregisters a graphics resource for access by CUDA.";
}

/// Set usage flags for mapping a graphics resource.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsResourceSetMapFlags(
    resource: cudaGraphicsResource_t,
    flags: c_uint,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphicsResourceSetMapFlags(self::resource(resource), map_flags(flags))))
}

/// Map graphics resources for access by CUDA.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsMapResources(
    count: c_int,
    resources: *mut cudaGraphicsResource_t,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphicsMapResources(count as c_uint, resources as *mut CUgraphicsResource, stream)))
}

/// Unmap graphics resources.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsUnmapResources(
    count: c_int,
    resources: *mut cudaGraphicsResource_t,
    stream: cudaStream_t,
) -> cudaError_t {
    run(|| cu(rt::ctx()?.cuGraphicsUnmapResources(count as c_uint, resources as *mut CUgraphicsResource, stream)))
}

/// Get an device pointer through which to access a mapped graphics resource.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsResourceGetMappedPointer(
    devPtr: *mut *mut c_void,
    size: *mut usize,
    resource: cudaGraphicsResource_t,
) -> cudaError_t {
    run(|| {
        cu(rt::ctx()?.cuGraphicsResourceGetMappedPointer(devPtr as *mut CUdeviceptr, size, self::resource(resource)))
    })
}

/// Get an array through which to access a subresource of a mapped graphics resource.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsSubResourceGetMappedArray(
    array: *mut cudaArray_t,
    resource: cudaGraphicsResource_t,
    arrayIndex: c_uint,
    mipLevel: c_uint,
) -> cudaError_t {
    run(|| {
        cu(rt::ctx()?.cuGraphicsSubResourceGetMappedArray(
            array as *mut CUarray,
            self::resource(resource),
            arrayIndex,
            mipLevel,
        ))
    })
}

/// Get a mipmapped array through which to access a mapped graphics resource.
#[export(family = Interop)]
#[no_mangle]
pub unsafe extern "C" fn cudaGraphicsResourceGetMappedMipmappedArray(
    mipmappedArray: *mut cudaMipmappedArray_t,
    resource: cudaGraphicsResource_t,
) -> cudaError_t {
    let resource = self::resource(resource);
    run(|| cu(rt::ctx()?.cuGraphicsResourceGetMappedMipmappedArray(mipmappedArray.cast(), resource)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn map_flags_other_than_read_only_and_write_discard_are_none() {
        assert_eq!([0, 1, 2, 3, 4, 0x100].map(super::map_flags), [0, 1, 2, 0, 0, 0]);
    }
}
