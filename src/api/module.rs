//! module exports.
#![allow(non_snake_case)]
