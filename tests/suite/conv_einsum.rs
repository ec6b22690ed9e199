//! Test binary `conv_einsum`: sliding windows, convolutions and pooling, einsum.
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`):
//! one binary per topic instead of one per file, so that the library's generic code is
//! instantiated and linked once per topic instead of once per file (Cargo.toml lists them).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../conv.rs"]
mod conv;
#[path = "../conv_pairs.rs"]
mod conv_pairs;
#[path = "../einsum.rs"]
mod einsum;
