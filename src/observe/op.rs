//! What an export does, as far as the observer cares: each export's declaration says it
//! (`#[export(sem = ...)]`), build.rs puts it in the export's row ([`super::call::Export`]),
//! and [`super::sem`] acts on it.

use super::registry::Kind;

#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum Op {
    None,
    /// Allocates memory: (kind, out pointer parameter).
    Malloc(Kind, &'static str),
    MallocPitch,
    Malloc3D,
    HostRegister,
    MallocArray,
    Malloc3DArray,
    MallocMipmapped,
    /// Makes a handle: (kind, out parameter).
    Create(Kind, &'static str),
    /// Frees memory of one of the kinds: (kinds, parameter).
    Free(&'static [Kind], &'static str),
    /// Destroys a handle: (kind, parameter).
    Destroy(Kind, &'static str),
    Copy(CopyOp),
    Memset(MemsetOp),
    /// Launches a kernel named by parameter `func`/`kernel`.
    Launch,
    GraphLaunch,
    Reset,
    RegisterFunction,
    /// Hands out a kernel handle for a host stub: (out parameter, stub parameter).
    GetKernel(&'static str, &'static str),
    LibraryGetKernel,
    /// Waits for work: a good time to collect finished GPU spans.
    Sync,
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum CopyOp {
    Linear,
    Peer,
    TwoD,
    ThreeD,
    ThreeDPeer,
    ToArray2D,
    FromArray2D,
    ArrayToArray2D,
    ToArray,
    FromArray,
    ArrayToArray,
    ToSymbol,
    FromSymbol,
    Batch,
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) enum MemsetOp {
    Linear,
    TwoD,
    ThreeD,
}
