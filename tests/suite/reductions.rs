//! Test binary `reductions`: reductions (IEEE special values, NaN-skipping), scans, sorting.
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`):
//! one binary per topic instead of one per file, so that the library's generic code is
//! instantiated and linked once per topic instead of once per file (Cargo.toml lists them).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../nan_reductions.rs"]
mod nan_reductions;
#[path = "../reduce.rs"]
mod reduce;
#[path = "../reduce_ieee.rs"]
mod reduce_ieee;
#[path = "../scans_more.rs"]
mod scans_more;
#[path = "../sort.rs"]
mod sort;
