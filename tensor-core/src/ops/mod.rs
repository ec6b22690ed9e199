//! Typed front ends: they compute the result shape type and layout, then call a kernel. None of
//! them loops over elements itself (DESIGN rule 2). The operations are inherent methods of
//! [`TensorBase`](crate::TensorBase) and operator impls; this module holds only the traits they
//! need.
mod arith;
pub mod binary;
pub mod cast;
mod contract;
pub mod einsum;
#[cfg(feature = "linalg")]
pub mod linalg;
mod matmul;
pub mod out;
pub mod reduce;
mod scan;
pub mod select;
pub mod square;
mod unary;
pub mod vector;
