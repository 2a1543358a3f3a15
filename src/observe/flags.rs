//! The flags a call's `flags` parameter holds, as the trace names them: the set its export's
//! declaration gives (`flags = HostAlloc`), each flag written once, as its constant.

/// The sets of flags (a declaration's `flags = ...`: the build reads the variants).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FlagSet {
    HostAlloc,
    HostRegister,
    Attach,
    Stream,
    Event,
    Record,
    Wait,
    Device,
    Array,
    Ipc,
    Instantiate,
}

/// `[(name, value)]` of the constants named.
macro_rules! named {
    ($($f:ident),* $(,)?) => {
        &[$((stringify!($f), $f as u64)),*]
    };
}

impl FlagSet {
    /// Each flag of the set: (name, value).
    pub fn names(self) -> &'static [(&'static str, u64)] {
        use crate::types::cudaGraphInstantiateFlags::*;
        use crate::types::*;
        match self {
            FlagSet::HostAlloc => named!(cudaHostAllocPortable, cudaHostAllocMapped, cudaHostAllocWriteCombined),
            FlagSet::HostRegister => named!(
                cudaHostRegisterPortable,
                cudaHostRegisterMapped,
                cudaHostRegisterIoMemory,
                cudaHostRegisterReadOnly
            ),
            FlagSet::Attach => named!(cudaMemAttachGlobal, cudaMemAttachHost, cudaMemAttachSingle),
            FlagSet::Stream => named!(cudaStreamNonBlocking),
            FlagSet::Event => named!(cudaEventBlockingSync, cudaEventDisableTiming, cudaEventInterprocess),
            FlagSet::Record => named!(cudaEventRecordExternal),
            FlagSet::Wait => named!(cudaEventWaitExternal),
            FlagSet::Device => named!(
                cudaDeviceScheduleSpin,
                cudaDeviceScheduleYield,
                cudaDeviceScheduleBlockingSync,
                cudaDeviceMapHost,
                cudaDeviceLmemResizeToMax,
                cudaDeviceSyncMemops
            ),
            FlagSet::Array => named!(
                cudaArrayLayered,
                cudaArraySurfaceLoadStore,
                cudaArrayCubemap,
                cudaArrayTextureGather,
                cudaArrayColorAttachment,
                cudaArraySparse,
                cudaArrayDeferredMapping
            ),
            FlagSet::Ipc => named!(cudaIpcMemLazyEnablePeerAccess),
            FlagSet::Instantiate => named!(
                cudaGraphInstantiateFlagAutoFreeOnLaunch,
                cudaGraphInstantiateFlagUpload,
                cudaGraphInstantiateFlagDeviceLaunch,
                cudaGraphInstantiateFlagUseNodePriority
            ),
        }
    }
}
