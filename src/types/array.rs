//! array types (NVIDIA's driver_types.h).

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {}
