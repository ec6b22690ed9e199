//! Topic `ops` of the test binary `tensors`: the runtime-shape API, named runtime dims and the second layer of PyTorch operations, against
//! NumPy.
//!
//! Each module is one file of tests/, included unchanged (a test is named `ops::<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../dyn_api.rs"]
mod dyn_api;
#[path = "../named_dims.rs"]
mod named_dims;
#[path = "../numpy_dyn.rs"]
mod numpy_dyn;
#[path = "../ops_more.rs"]
mod ops_more;
