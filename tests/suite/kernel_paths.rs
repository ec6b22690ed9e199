//! Test binary `kernel_paths`: the kernels' loop choices and products, inline tensors' paths
//! against heap ones.
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`):
//! one binary per topic instead of one per file, so that the library's generic code is
//! instantiated and linked once per topic instead of once per file (Cargo.toml lists them).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../kernels.rs"]
mod kernels;
// Its random constructors need `rand`; CI's lean Miri run (`std` alone) builds this binary for
// the kernels' products.
#[cfg(feature = "rand")]
#[path = "../small.rs"]
mod small;
