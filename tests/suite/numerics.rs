//! Test binary `numerics`: linear algebra, convolutions, pooling and einsum, interop and files (ndarray, nalgebra,
//! faer, approx, serde, .npy/.npz, PyTorch's state dicts).
//!
//! Each topic is a module, tests/suite/<topic>.rs, and each file of tests/ a module of its topic,
//! included unchanged: a test is named `<topic>::<file>::<test>`, so that
//! `cargo test --test numerics linear_algebra::` runs a topic and a file's name runs that file. Three
//! binaries for the fifteen topics, so that the library's generic code is instantiated and linked
//! once for the topics that share it (Cargo.toml lists the binaries and says why).
#![allow(clippy::duplicate_mod)]

mod conv_einsum;
mod interop_io;
mod linear_algebra;
