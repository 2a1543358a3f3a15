//! Batched copy types (NVIDIA's `driver_types.h`): the attributes of copies in a
//! `cudaMemcpyBatchAsync` and the operands of a `cudaMemcpy3DBatchAsync`.

use std::ffi::{c_uint, c_void};

use super::{cudaArray_t, cudaExtent, cudaMemLocation};

/// Flags to specify for copies within a batch. For more details see ::cudaMemcpyBatchAsync.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaMemcpyFlags {
    cudaMemcpyFlagDefault = 0x0,
    /// Hint to the driver to try and overlap the copy with compute work on the SMs.
    cudaMemcpyFlagPreferOverlapWithCompute = 0x1,
}

/// Source access ordering of a copy within a batch.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaMemcpySrcAccessOrder {
    /// Default invalid.
    cudaMemcpySrcAccessOrderInvalid = 0x0,
    /// Indicates that access to the source pointer must be in stream order.
    cudaMemcpySrcAccessOrderStream = 0x1,
    /// Indicates that access to the source pointer can be out of stream order and all accesses
    /// must be complete before the API call returns.
    cudaMemcpySrcAccessOrderDuringApiCall = 0x2,
    /// Indicates that access to the source pointer can be out of stream order and the accesses
    /// can happen even after the API call returns.
    cudaMemcpySrcAccessOrderAny = 0x3,
    cudaMemcpySrcAccessOrderMax = 0x7FFFFFFF,
}

/// Attributes specific to copies within a batch. For more details on usage see
/// ::cudaMemcpyBatchAsync.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct cudaMemcpyAttributes {
    /// Source access ordering to be observed for copies with this attribute.
    pub srcAccessOrder: raw::cudaMemcpySrcAccessOrder,
    /// Hint location for the source operand. Ignored when the pointers are not managed memory
    /// or memory allocated outside CUDA.
    pub srcLocHint: cudaMemLocation,
    /// Hint location for the destination operand. Ignored when the pointers are not managed
    /// memory or memory allocated outside CUDA.
    pub dstLocHint: cudaMemLocation,
    /// Additional flags for copies with this attribute. See ::cudaMemcpyFlags.
    pub flags: c_uint,
}

/// These flags allow applications to convey the operand type for individual copies specified
/// in ::cudaMemcpy3DBatchAsync.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum cudaMemcpy3DOperandType {
    /// Memcpy operand is a valid pointer.
    cudaMemcpyOperandTypePointer = 0x1,
    /// Memcpy operand is a CUarray.
    cudaMemcpyOperandTypeArray = 0x2,
    cudaMemcpyOperandTypeMax = 0x7FFFFFFF,
}

/// Struct representing offset into a ::cudaArray_t in elements
#[repr(C)]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct cudaOffset3D {
    pub x: usize,
    pub y: usize,
    pub z: usize,
}

/// Struct representing an operand when ::cudaMemcpy3DOperand::type is
/// ::cudaMemcpyOperandTypePointer (NVIDIA's field has an unnamed type).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaMemcpy3DOperandPtr {
    pub ptr: *mut c_void,
    /// Length of each row in elements.
    pub rowLength: usize,
    /// Height of each layer in elements.
    pub layerHeight: usize,
    /// Hint location for the operand. Ignored when the pointers are not managed memory or
    /// memory allocated outside CUDA.
    pub locHint: cudaMemLocation,
}

/// Struct representing an operand when ::cudaMemcpy3DOperand::type is
/// ::cudaMemcpyOperandTypeArray (NVIDIA's field has an unnamed type).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct cudaMemcpy3DOperandArray {
    pub array: cudaArray_t,
    pub offset: cudaOffset3D,
}

/// The operand of a ::cudaMemcpy3DOperand, by its type (NVIDIA's field has an unnamed type).
#[repr(C)]
#[derive(Copy, Clone)]
pub union cudaMemcpy3DOperandOp {
    /// Struct representing an operand when ::cudaMemcpy3DOperand::type is
    /// ::cudaMemcpyOperandTypePointer
    pub ptr: cudaMemcpy3DOperandPtr,
    /// Struct representing an operand when ::cudaMemcpy3DOperand::type is
    /// ::cudaMemcpyOperandTypeArray
    pub array: cudaMemcpy3DOperandArray,
}

/// Struct representing an operand for copy with ::cudaMemcpy3DBatchAsync
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaMemcpy3DOperand {
    pub r#type: raw::cudaMemcpy3DOperandType,
    pub op: cudaMemcpy3DOperandOp,
}

/// One copy of a ::cudaMemcpy3DBatchAsync.
#[repr(C)]
#[derive(Copy, Clone)]
pub struct cudaMemcpy3DBatchOp {
    /// Source memcpy operand.
    pub src: cudaMemcpy3DOperand,
    /// Destination memcpy operand.
    pub dst: cudaMemcpy3DOperand,
    /// Extents of the memcpy between src and dst. The width, height and depth components must
    /// not be 0.
    pub extent: cudaExtent,
    /// Source access ordering to be observed for copy from src to dst.
    pub srcAccessOrder: raw::cudaMemcpySrcAccessOrder,
    /// Additional flags for copy from src to dst. See ::cudaMemcpyFlags.
    pub flags: c_uint,
}

const _: () = {
    use std::mem::size_of;
    assert!(size_of::<cudaMemcpyAttributes>() == 24);
    assert!(size_of::<cudaMemcpy3DOperand>() == 40);
    assert!(size_of::<cudaMemcpy3DBatchOp>() == 112);
};

/// Integer views of this module's enums (see `types::raw`).
pub mod raw {
    super::super::raw_enum!(cudaMemcpyFlags, cudaMemcpySrcAccessOrder, cudaMemcpy3DOperandType);
}
