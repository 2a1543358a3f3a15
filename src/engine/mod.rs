//! The engines under the copy calls: the conversion of copy descriptions and the 3D copy
//! (`copy3d`), channel descriptors and array formats (`formats`), 2D and 3D copies and
//! memsets whose rows follow each other as one linear operation (`linear`), and the pipeline
//! of pinned staging buffers for copies between pageable host memory and the device
//! (`pageable`).

pub(crate) mod copy3d;
pub(crate) mod formats;
pub(crate) mod linear;
pub(crate) mod pageable;
