//! Topic `arithmetic` of the test binary `tensors`: element-wise operators and functions, the vectorised functions,
//! bitwise operations, statically typed operations.
//!
//! Each module is one file of tests/, included unchanged (a test is named `arithmetic::<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../arith.rs"]
mod arith;
#[path = "../bitwise.rs"]
mod bitwise;
#[path = "../elementwise.rs"]
mod elementwise;
#[path = "../elementwise_more.rs"]
mod elementwise_more;
#[path = "../static_ops.rs"]
mod static_ops;
#[path = "../vmath.rs"]
mod vmath;
