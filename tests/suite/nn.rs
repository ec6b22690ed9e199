//! Test binary `nn`: the nn layer: modules, initialisation, attention, data loaders, the functional
//! layer against PyTorch.
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`):
//! one binary per topic instead of one per file, so that the library's generic code is
//! instantiated and linked once per topic instead of once per file (Cargo.toml lists them).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[cfg(feature = "rand")]
#[path = "../nn_attention.rs"]
mod nn_attention;
#[cfg(feature = "rand")]
#[path = "../nn_data.rs"]
mod nn_data;
#[path = "../nn_init.rs"]
mod nn_init;
#[path = "../nn_modules.rs"]
mod nn_modules;
#[path = "../nn_torch.rs"]
mod nn_torch;
