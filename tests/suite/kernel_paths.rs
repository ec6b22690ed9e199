//! Topic `kernel_paths` of the test binary `tensors`: the kernels' loop choices and products, inline tensors' paths
//! against heap ones.
//!
//! Each module is one file of tests/, included unchanged (a test is named `kernel_paths::<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../kernels.rs"]
mod kernels;
#[cfg(feature = "rand")]
#[path = "../small.rs"]
mod small;
#[path = "../threads.rs"]
mod threads;
