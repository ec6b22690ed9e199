//! Typed front ends: they compute the result shape type and layout, then call a kernel. None of
//! them loops over elements itself (DESIGN rule 2). The operations are inherent methods of
//! [`TensorBase`](crate::TensorBase) and operator impls; this module holds only the traits they
//! need.
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
#[cfg(feature = "linalg")]
pub mod linalg;
mod matmul;
pub mod out;
pub mod pad;
pub mod reduce;
mod scan;
pub mod select;
pub mod square;
mod stats;
mod unary;
pub mod vector;
mod zip;
