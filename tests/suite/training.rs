//! Test binary `training`: derivatives and the training layer: reverse-mode autograd and forward-mode jacobians,
//! the backward rules against PyTorch, the nn modules, the optimizers, the pretrained MiniLM.
//!
//! Each topic is a module, tests/suite/<topic>.rs, and each file of tests/ a module of its topic,
//! included unchanged: a test is named `<topic>::<file>::<test>`, so that
//! `cargo test --test training autograd::` runs a topic and a file's name runs that file. Three
//! binaries for the fifteen topics, so that the library's generic code is instantiated and linked
//! once for the topics that share it (Cargo.toml lists the binaries and says why).
#![allow(clippy::duplicate_mod)]

mod autograd;
mod gradients;
mod nn;
mod optim;
mod pretrained;
