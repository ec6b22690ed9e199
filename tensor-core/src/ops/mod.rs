//! Typed front ends: they compute the result shape type and layout, then call a kernel. None of
//! them loops over elements itself (ARCHITECTURE.md's rule 2). The operations are inherent methods of
//! [`TensorBase`](crate::TensorBase) and operator impls; this module holds only the traits they
//! need.
//!
//! Where each topic's `impl TensorBase` blocks live (the facade's `shaped::guide` pages follow
//! the same topics):
//!
//! | topic (guide page) | files |
//! |---|---|
//! | creation | `tensor/construct.rs`, `tensor/fill.rs`, `tensor/literal.rs`, `tensor/small.rs`, `tensor/shared.rs` |
//! | indexing and views | `tensor/views.rs`, `tensor/iter.rs`, `tensor/chunks.rs`, `tensor/batch.rs`, `index/`, `select.rs`, `accumulate.rs`, `index_write.rs` |
//! | element-wise math | `arith.rs`, `binary.rs`, `zip.rs`, `unary.rs`, `out.rs`, `cast.rs` |
//! | reductions | `reduce.rs`, `scan.rs` (scans, softmax), `stats.rs` |
//! | shape operations | `tensor/join.rs`, `tensor/reshape.rs` (reshape, flatten, split), `pad.rs`, `diag.rs`, `scan.rs` (`roll`, `tril`, `triu`) |
//! | linear algebra | `matmul.rs`, `vector.rs`, `contract.rs`, `einsum.rs`, `square.rs`, `linalg.rs`, `factor.rs` |
//! | convolution and pooling | `conv.rs`, `pool.rs` |
//! | sorting and selection | `order.rs` (sort, top-k, medians, quantiles), `count.rs` |
//! | random tensors | `tensor/random.rs` |
//! | interop and files | `interop/`, `io/` |
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
mod scan;
pub mod select;
pub mod square;
mod stats;
mod unary;
pub mod vector;
mod zip;
