//! Topic `conv_einsum` of the test binary `numerics`: sliding windows, convolutions and pooling, einsum.
//!
//! Each module is one file of tests/, included unchanged (a test is named `conv_einsum::<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../conv.rs"]
mod conv;
#[path = "../conv_pairs.rs"]
mod conv_pairs;
#[path = "../einsum.rs"]
mod einsum;
