//! External memory and semaphores and graphics interoperability (OpenGL, EGL, VDPAU): not
//! modelled. Host memory has no file descriptors to import, and there is no graphics API to
//! share objects with, so every such entry point answers `CUDA_ERROR_NOT_SUPPORTED` (the
//! interop tests need a real GPU).

/// The external resource and graphics interop entry points the runtime resolves.
const ENTRY_POINTS: &[&str] = &[
    "cuImportExternalMemory",
    "cuExternalMemoryGetMappedBuffer",
    "cuExternalMemoryGetMappedMipmappedArray",
    "cuDestroyExternalMemory",
    "cuImportExternalSemaphore",
    "cuSignalExternalSemaphoresAsync",
    "cuWaitExternalSemaphoresAsync",
    "cuDestroyExternalSemaphore",
    "cuDeviceGetNvSciSyncAttributes",
    "cuGraphicsUnregisterResource",
    "cuGraphicsSubResourceGetMappedArray",
    "cuGraphicsResourceGetMappedMipmappedArray",
    "cuGraphicsResourceGetMappedPointer",
    "cuGraphicsResourceSetMapFlags",
    "cuGraphicsMapResources",
    "cuGraphicsUnmapResources",
    "cuGraphicsGLRegisterBuffer",
    "cuGraphicsGLRegisterImage",
    "cuGLGetDevices",
    "cuGLInit",
    "cuGLRegisterBufferObject",
    "cuGLMapBufferObject",
    "cuGLMapBufferObjectAsync",
    "cuGLUnmapBufferObject",
    "cuGLUnmapBufferObjectAsync",
    "cuGLUnregisterBufferObject",
    "cuGLSetBufferObjectMapFlags",
    "cuGraphicsEGLRegisterImage",
    "cuEGLStreamConsumerConnect",
    "cuEGLStreamConsumerConnectWithFlags",
    "cuEGLStreamConsumerDisconnect",
    "cuEGLStreamConsumerAcquireFrame",
    "cuEGLStreamConsumerReleaseFrame",
    "cuEGLStreamProducerConnect",
    "cuEGLStreamProducerDisconnect",
    "cuEGLStreamProducerPresentFrame",
    "cuEGLStreamProducerReturnFrame",
    "cuGraphicsResourceGetMappedEglFrame",
    "cuEventCreateFromEGLSync",
    "cuVDPAUGetDevice",
    "cuVDPAUCtxCreate",
    "cuGraphicsVDPAURegisterVideoSurface",
    "cuGraphicsVDPAURegisterOutputSurface",
];

/// Whether `name` is one of [`ENTRY_POINTS`]; they share the graph entry points' one
/// implementation, `crate::unsupported`.
pub(crate) fn is_entry(name: &str) -> bool {
    ENTRY_POINTS.contains(&name)
}

#[cfg(test)]
mod tests {
    #[test]
    fn interop_entry_points_are_unsupported() {
        assert!(super::is_entry("cuImportExternalMemory") && super::is_entry("cuGLGetDevices"));
        assert!(!super::is_entry("cuMemAlloc"));
    }
}
