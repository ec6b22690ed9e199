//! Topic `reductions` of the test binary `tensors`: reductions (IEEE special values, NaN-skipping), scans, sorting.
//!
//! Each module is one file of tests/, included unchanged (a test is named `reductions::<file>::<test>`).
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
