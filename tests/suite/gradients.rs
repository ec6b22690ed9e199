//! Topic `gradients` of the test binary `training`: shaped's backward rules against PyTorch's
//! gradients, with their fixtures (tests/data/grad_data.rs and trust_data.rs).
//!
//! Each module is one file of tests/, included unchanged (a test is named `gradients::<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../autograd_torch.rs"]
mod autograd_torch;
