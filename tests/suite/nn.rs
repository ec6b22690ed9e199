//! Topic `nn` of the test binary `training`: the nn layer: modules, initialisation, attention, data loaders, the functional
//! layer against PyTorch.
//!
//! Each module is one file of tests/, included unchanged (a test is named `nn::<file>::<test>`).
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
