//! Test binary `ops`: the runtime-shape API and the second layer of PyTorch operations, against
//! NumPy.
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`):
//! one binary per topic instead of one per file, so that the library's generic code is
//! instantiated and linked once per topic instead of once per file (Cargo.toml lists them).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../dyn_api.rs"]
mod dyn_api;
#[path = "../numpy_dyn.rs"]
mod numpy_dyn;
#[path = "../ops_more.rs"]
mod ops_more;
