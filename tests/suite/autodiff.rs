//! Test binary `autodiff`: autograd and the training layer (tape, slices, models, nn modules,
//! initialisation and data loaders, optimizers and their saved state, gradients, nn and optim
//! against PyTorch) and forward-mode jacobians.
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`):
//! one binary per topic instead of one per file, so that the library's generic code is
//! instantiated and linked a dozen times instead of fifty (Cargo.toml lists the binaries).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary of its own.
#![allow(clippy::duplicate_mod)]

#[path = "../autograd.rs"]
mod autograd;
#[path = "../autograd_models.rs"]
mod autograd_models;
#[path = "../autograd_slice.rs"]
mod autograd_slice;
#[path = "../autograd_torch.rs"]
mod autograd_torch;
#[path = "../grads_accumulate.rs"]
mod grads_accumulate;
#[path = "../jacobian.rs"]
mod jacobian;
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
#[path = "../optim_more.rs"]
mod optim_more;
#[cfg(feature = "rand")]
#[path = "../optim_resume.rs"]
mod optim_resume;
#[path = "../optim_torch.rs"]
mod optim_torch;
