//! Test binary `gradients`: shaped's backward rules against PyTorch's gradients (alone: with its
//! fixtures, tests/data/grad_data.rs and trust_data.rs, it is the slowest file of tests/ to
//! compile, about a minute, which in a larger binary made that binary the build's last step).
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`):
//! one binary per topic instead of one per file, so that the library's generic code is
//! instantiated and linked once per topic instead of once per file (Cargo.toml lists them).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../autograd_torch.rs"]
mod autograd_torch;
