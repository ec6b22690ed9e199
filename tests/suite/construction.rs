//! Topic `construction` of the test binary `tensors`: constructors, element access, casts and random tensors, iteration,
//! storage sharing, the dynamic fallback, first-hour spellings, composed code.
//!
//! Each module is one file of tests/, included unchanged (a test is named `construction::<file>::<test>`).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../cast_rand.rs"]
mod cast_rand;
#[path = "../compose.rs"]
mod compose;
#[path = "../construct.rs"]
mod construct;
#[path = "../dynamic.rs"]
mod dynamic;
#[path = "../first_hour.rs"]
mod first_hour;
#[path = "../iter_construct.rs"]
mod iter_construct;
#[path = "../storage_sharing.rs"]
mod storage_sharing;
