//! Test binary `miri`: the suites that reach the crate's `unsafe` sites, gathered for CI's Miri
//! step (.ci/run), which builds this one binary under Miri instead of the five topic binaries
//! that hold them (most of their modules never reach an `unsafe` site, and Miri's build of them
//! took longer than its run). Natively it has no tests: each module is `cfg(miri)`, and the same
//! files run natively in their topic binaries.
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[cfg(miri)]
#[path = "../arith.rs"]
mod arith;
#[cfg(miri)]
#[path = "../fuzz.rs"]
mod fuzz;
#[cfg(miri)]
#[path = "../kernels.rs"]
mod kernels;
#[cfg(miri)]
#[path = "../linalg.rs"]
mod linalg;
#[cfg(miri)]
#[path = "../reduce_ieee.rs"]
mod reduce_ieee;
#[cfg(all(miri, feature = "rand"))]
#[path = "../small.rs"]
mod small;
#[cfg(miri)]
#[path = "../soundness.rs"]
mod soundness;
#[cfg(miri)]
#[path = "../static_ops.rs"]
mod static_ops;
