//! Core of `shaped`: dims and shapes (the type-level rules), [`Layout`] (all stride arithmetic),
//! storage, the tensor struct, indexing, shape-erased kernels and the typed operations. Use it
//! through the `shaped` facade crate.
//!
//! `no_std` + `alloc` with `default-features = false`; the `std` feature adds runtime CPU
//! detection in matrixmultiply, `rayon` parallel kernels, `linalg` decompositions and solvers
//! through faer, `serde` (no_std-compatible) and `npy` (NumPy `.npy`/`.npz` files) the `io`
//! module, `ndarray`/`nalgebra`/`faer`/`approx` the `interop` module.
#![no_std]
#![warn(missing_docs)]
// docs.rs (`--cfg docsrs`, nightly): each feature-gated item shows the features it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
// Result types spell out the shape rule and the storage rule of each operation (`OutTensor2<D, D2,
// T, <S as MatMulShape<S2>>::Out>`): aliases would hide what the signature documents.
#![allow(clippy::type_complexity)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod autograd;
mod cast;
pub mod derivative;
pub mod dim;
mod element;
pub mod error;
mod fmt;
pub mod index;
pub mod interop;
#[cfg(any(feature = "serde", feature = "npy"))]
pub mod io;
pub(crate) mod isa;
pub mod kernels;
pub mod layout;
mod limits;
mod memory;
pub mod nn;
pub mod num;
pub mod ops;
pub mod shape;
pub mod storage;
pub mod tensor;
mod vmath;

pub use dim::{Const, Dim, DimName, Dyn, FixedProduct, One, Prod, Tagged};
pub use error::ShapeError;
pub use half::{bf16, f16};
pub use index::SliceArg;
pub use kernels::keep_threads_awake;
pub use layout::Layout;
pub use memory::cache::{buffer_cache_bytes, set_buffer_cache_limit};
#[cfg(feature = "linalg")]
pub use num::LinalgFloat;
pub use num::MatrixFloat;
pub use num::MeanElem;
pub use num::{Bits, Int, Num};
pub use num_complex::Complex;
pub use ops::accumulate::ScatterReduce;
pub use ops::binary::{ArithRhs, Operand};
pub use ops::cast::{CastFrom, CastTo};
pub use ops::conv::{
    Bias, Conv, Conv1dArg, Conv1dArgs, Conv2dArg, ConvArgs, ConvT, ConvTranspose2dArg, ConvTransposeArgs, NoBias, Pool,
    Pool2dArg, PoolArgs,
};
pub use ops::count::Unique;
pub use ops::diag::{meshgrid, try_meshgrid, Indexing};
pub use ops::einsum::{einsum, try_einsum, EinsumDim, EinsumRank};
#[cfg(feature = "linalg")]
pub use ops::factor::{CholeskyFactor, LuFactor};
#[cfg(feature = "linalg")]
pub use ops::linalg::{Lstsq, MatrixNorm};
pub use ops::out::OutOperand;
pub use ops::pad::PadMode;
pub use ops::reduce::Norm;
pub use ops::select::{try_where_, where_};
/// The `rand` crate (0.10) the random constructors take their generators from, re-exported so
/// that a user's generator is always of the version this crate was built with
/// (`shaped::rand::rngs::StdRng`, `shaped::rand::rng()`): a separately added `rand` of another
/// major version gives generators these functions do not accept.
#[cfg(feature = "rand")]
pub use rand;
pub use shape::axes::Axis;
pub use shape::{Ax, AxisArg, DropAxis, DynShape, HasAxis, KeepAxis, Shape, LAST, MAX_RANK};
pub use storage::{BuildData, CowRepr, Data, DataMut, DataOwned, Element, Inline, InlineArray, OwnedRepr, Scalar};
pub use tensor::join::{Cat, Stack};
#[cfg(feature = "rand")]
pub use tensor::random::{RandFloat, RandInt};
pub use tensor::{
    stensor, DynIndex, MatrixShape, OutTensor, OutTensor2, STensor, ShapeIndex, SharedTensor, Tensor, TensorBase,
    TensorCow, TensorView, TensorViewMut, ViewOf, MAX_INLINE_BYTES,
};
