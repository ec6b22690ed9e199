//! Topic `optim` of the test binary `training`: optimizers, schedules and their saved state against PyTorch, resumed
//! training runs.
//!
//! Each module is one file of tests/, included unchanged (a test is named `optim::<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../optim_more.rs"]
mod optim_more;
#[cfg(feature = "rand")]
#[path = "../optim_resume.rs"]
mod optim_resume;
#[path = "../optim_torch.rs"]
mod optim_torch;
