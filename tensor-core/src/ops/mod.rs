//! Typed front ends: they compute the result shape type and layout, then call a kernel; the few
//! that loop over elements themselves are named in ARCHITECTURE.md's rule 2. The operations are
//! inherent methods of [`TensorBase`](crate::TensorBase) and operator impls, one file per topic;
//! this module holds only the `mod` lines.
//!
//! Which file holds each topic's `impl TensorBase` blocks, and the `shaped::guide` page of each
//! topic: the table "Operations, by topic" of the repository's `ARCHITECTURE.md`.
pub mod accumulate;
mod arith;
pub mod binary;
pub mod cast;
mod contract;
pub mod conv;
pub mod count;
pub mod diag;
pub mod einsum;
pub mod factor;
mod index_write;
#[cfg(feature = "linalg")]
pub mod linalg;
mod matmul;
mod order;
pub mod out;
pub mod pad;
mod pool;
pub mod reduce;
pub(crate) mod scan;
pub mod select;
pub mod square;
mod stats;
mod unary;
pub mod vector;
mod zip;
