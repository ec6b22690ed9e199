//! Test binary `miri` (package shaped-miri-tests): the suites of tests/ that reach the crate's
//! `unsafe` sites, gathered for CI's Miri step (.ci/run), which builds this one small binary under
//! Miri instead of the test binaries that hold them (most of their modules never reach an
//! `unsafe` site) with the facade's dev-dependencies. Natively it has no tests: each module is
//! `cfg(miri)`, and the same files run natively in their topics' test binaries.
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[cfg(miri)]
#[path = "../tests/arith.rs"]
mod arith;
#[cfg(miri)]
#[path = "../tests/fuzz.rs"]
mod fuzz;
#[cfg(miri)]
#[path = "../tests/kernels.rs"]
mod kernels;
#[cfg(miri)]
#[path = "../tests/linalg.rs"]
mod linalg;
#[cfg(miri)]
#[path = "../tests/reduce_ieee.rs"]
mod reduce_ieee;
#[cfg(all(miri, feature = "rand"))]
#[path = "../tests/small.rs"]
mod small;
#[cfg(miri)]
#[path = "../tests/soundness.rs"]
mod soundness;
#[cfg(miri)]
#[path = "../tests/static_ops.rs"]
mod static_ops;
