//! event exports.
#![allow(non_snake_case)]
