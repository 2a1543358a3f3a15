//! Memory management types (`driver_types.h`).

/// CUDA memory copy types.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaMemcpyKind {
    /// Host -> Host
    cudaMemcpyHostToHost = 0,
    /// Host -> Device
    cudaMemcpyHostToDevice = 1,
    /// Device -> Host
    cudaMemcpyDeviceToHost = 2,
    /// Device -> Device
    cudaMemcpyDeviceToDevice = 3,
    /// Direction of the transfer is inferred from the pointer values. Requires unified
    /// virtual addressing
    cudaMemcpyDefault = 4,
}

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(cudaMemcpyKind);
}
