//! Test binary `tensors`: construction, indexing and views, element-wise arithmetic, reductions
//! and scans, the runtime-shape API and the second layer of operations, the kernels' paths,
//! hostile input and the fuzz target.
//!
//! Each topic is a module, tests/suite/<topic>.rs, and each file of tests/ a module of its topic,
//! included unchanged: a test is named `<topic>::<file>::<test>`, so that
//! `cargo test --test tensors construction::` runs a topic and a file's name runs that file. Three
//! binaries for the fifteen topics, so that the library's generic code is instantiated and linked
//! once for the topics that share it (Cargo.toml lists the binaries and says why).
#![allow(clippy::duplicate_mod)]

mod arithmetic;
mod construction;
mod indexing;
mod kernel_paths;
mod ops;
mod reductions;
mod robustness;
