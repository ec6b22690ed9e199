//! Shape-erased kernels: each takes flat slices and [`Layout`](crate::Layout)s and is generic over the element
//! type only, so static and dynamic tensors share them (ARCHITECTURE.md's rule 1). Contiguous inputs take a
//! slice fast path (and rayon, with the `rayon` feature and a pool of more than one thread, from a
//! threshold measured per kind: [`PAR_THRESHOLD`], [`PAR_MATH_THRESHOLD`],
//! [`PAR_REDUCE_THRESHOLD`], [`PAR_COPY_THRESHOLD`]); strided ones go through `layout::walk_rows`, which orders and
//! merges the loops from the strides and hands each kernel one row at a time with its strides, so
//! the kernel picks a loop the compiler vectorises (contiguous or broadcast rows).
//!
//! The kernel functions are crate-private: they index their buffers through layouts that the
//! tensor types proved to fit (see `layout/`, "The layout invariant"). Every buffer they create
//! is allocated fallibly (`try_vec`), so the `try_` forms return [`ShapeError::Alloc`](crate::ShapeError::Alloc) instead
//! of aborting when memory runs out.

pub(crate) mod conv;
pub(crate) mod count;
pub(crate) mod dense;
#[cfg(any(feature = "faer", feature = "linalg"))]
pub(crate) mod faer_view;
pub(crate) mod fold;
mod gather;
mod gemm;
mod index;
pub(crate) mod join;
#[cfg(feature = "linalg")]
pub(crate) mod lapack;
pub(crate) mod norm;
pub(crate) mod pool;
pub(crate) mod reduce;
pub(crate) mod scale;
pub(crate) mod scan;
pub(crate) mod small;
pub(crate) mod vector;
pub(crate) use crate::num::GemmMode;
pub(crate) use gather::{
    check_write_indices, gather, index_select, mask_coords, masked_fill, masked_fill_inplace, masked_select, nonzero,
    scatter, scatter_value, scatter_with, where_select,
};
pub(crate) use gemm::gemm;
pub(crate) use gemm::gemm_into;
pub(crate) use gemm::gemm_new;
pub use gemm::Gemm;
#[cfg(feature = "rayon")]
pub(crate) use gemm::GEMM_PAR_FLOPS;
pub(crate) use index::{gather_runs, scatter_runs};

pub(crate) use crate::memory::{try_collect, try_vec, try_with_capacity, try_with_capacity_uncached};

mod copy;
mod elementwise;
mod par;
pub(crate) use copy::*;
pub(crate) use elementwise::*;
pub use par::{keep_threads_awake, PAR_COPY_THRESHOLD, PAR_MATH_THRESHOLD, PAR_REDUCE_THRESHOLD, PAR_THRESHOLD};
#[cfg(feature = "rayon")]
pub(crate) use par::{parallel, parallel_from, PAR_CHUNK};
