//! Typed front ends: they compute the result shape type and layout, then call a kernel. None of
//! them loops over elements itself (DESIGN rule 2).
mod arith;
#[cfg(feature = "linalg")]
mod linalg;
mod matmul;
mod reduce;
