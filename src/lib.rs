//! # shaped
//!
//! Strided tensors whose rank and known sizes are part of the type. Shape bugs that the types
//! can see (broadcasting mismatches, matmul inner dims, reshape element counts, literal indices
//! out of bounds) are compile errors; sizes known only at run time (`Dyn`, spelled `_`) are
//! checked at run time with a [`ShapeError`] that names the shapes.
//!
//! ```
//! use shaped::prelude::*;
//!
//! let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
//! let b = Tensor::from([10., 20., 30.]);            // Shape![3]
//! let y = &x + &b;                                  // broadcast: Shape![2, 3]
//! assert_eq!(y.to_vec(), [11., 22., 33., 14., 25., 36.]);
//!
//! let col = t!(x[.., 1]);                           // a view of shape Shape![2], no copy
//! assert_eq!(col.to_vec(), [2., 5.]);
//!
//! let m = x.matmul(&x.t());                         // Shape![2, 2]
//! assert_eq!(m.at([0, 1]), 32.);
//! let s = x.sum_axis(Ax::<1>);                        // Shape![2]
//! assert_eq!(s.to_vec(), [6., 15.]);
//!
//! let d = x.clone().into_dyn();                     // rank and sizes at run time
//! let back: Tensor<f32, Shape![2, 3]> = d.try_into_static()?;
//! # Ok::<(), ShapeError>(())
//! ```
//!
//! # Where to find things
//!
//! [`TensorBase`] holds every method; the [`guide`] sorts them by topic, one page each:
//! [creation](guide::creation), [indexing and views](guide::indexing),
//! [element-wise math](guide::elementwise), [reductions](guide::reductions),
//! [shape operations](guide::shape_ops), [linear algebra](guide::linalg),
//! [convolution and pooling](guide::conv), [sorting and selection](guide::sorting),
//! [random tensors](guide::random), [training: gradients, layers, optimizers](guide::autograd),
//! [interop and files](guide::interop),
//! [small inline tensors](guide::small_tensors), [generic code](guide::generic),
//! [compile-time shape checks](guide::shape_checks), [safety](guide::safety),
//! [features](guide::features), [speed](guide::speed). Coming from PyTorch, NumPy, ndarray or
//! nalgebra? [`guide::for_pytorch_users`] (also at its old path, [`migration`]) maps their calls
//! to `shaped`.
//!
//! # Features
//!
//! Clean debug build of this crate on a 2-core machine, alone with `std` ([`guide::features`] has
//! the method):
//!
//! | feature | default | adds | build |
//! |---|---|---|---|
//! | `std` | yes | runtime CPU detection in matrixmultiply, `std::error::Error`; without it the crate is `no_std` + `alloc` | 25 s |
//! | `rayon` | yes | large element-wise kernels on rayon's pool | 27 s |
//! | `rand` | yes | random constructors and in-place fills from a caller's `rand::Rng` | 24 s |
//! | `linalg` | yes | decompositions and solvers through faer (`svd`, `eigh`, `lstsq`, ...); implies `faer` | 103 s |
//! | `faer` | no | `MatRef`/`MatMut` views of rank-2 tensors and back ([`interop`]) | 97 s |
//! | `ndarray` | no | views both ways without copying, owned arrays both ways ([`interop`]) | 29 s |
//! | `nalgebra` | no | `SMatrix`/`DMatrix`/`DVector` copies, views of column-major layouts ([`interop`]) | 33 s |
//! | `approx` | no | `AbsDiffEq`, `RelativeEq`, `UlpsEq` for tensors | 27 s |
//! | `serde` | no | `Serialize`/`Deserialize` as `{"shape": [..], "data": [..]}` (`io`) | 31 s |
//! | `npy` | no | NumPy `.npy`/`.npz` files (`io`) | 41 s |
//! | `safetensors` | no | model parameters to and from `.safetensors` files ([`autograd`]); implies `npy` | not measured |
//!
//! The default set builds in about 100 s (faer is most of it), the lean set
//! (`default-features = false, features = ["std"]`) in 25 s.
//!
//! Layers (see the repository's `ARCHITECTURE.md`): [`Shape!`]/[`t!`] -> shape types ([`shape`])
//! -> [`Layout`] -> [`kernels`] -> [`storage`].
#![no_std]
#![warn(missing_docs)]
// docs.rs (`--cfg docsrs`, nightly): each feature-gated item shows the features it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use shaped_core::{
    bf16, buffer_cache_bytes, dim, dims, error, f16, index, keep_threads_awake, kernels, layout, num,
    set_buffer_cache_limit, shape, stensor, storage, tensor, Ax, Axes, Axis, AxisArg, Bits, CastFrom, CastTo, Complex,
    Const, CowRepr, Data, DataMut, Dim, DimName, DropAxis, Dyn, DynIndex, DynShape, Element, FixedProduct, HasAxis,
    Inline, InlineArray, Int, KeepAxis, Layout, Num, One, OutTensor, OutTensor2, OwnedRepr, Prod, STensor, Scalar,
    Shape, ShapeError, ShapeIndex, SharedTensor, SliceArg, Tagged, Tensor, TensorBase, TensorCow, TensorView,
    TensorViewMut, ViewOf, LAST, MAX_INLINE_BYTES, MAX_RANK,
};

pub use shaped_core::autograd;

/// Models as typed values (PyTorch's `torch.nn`): [`Module`](nn::Module) and its derive, the
/// layers, [`Forward`](nn::Forward). See [`shaped_core::nn`] for the whole story.
pub mod nn {
    pub use shaped_core::nn::*;
    /// `#[derive(Module)]`: see [`shaped_macros::Module`](macro@shaped_macros::Module).
    pub use shaped_macros::Module;
}
pub use shaped_core::derivative;
pub use shaped_core::interop;
#[cfg(feature = "ndarray")]
pub use shaped_core::interop::ndarray::NdShape;
/// Serialisation: `serde` (feature `serde`) and NumPy `.npy`/`.npz` files (feature `npy`).
#[cfg(any(feature = "serde", feature = "npy"))]
pub use shaped_core::io;
pub use shaped_core::ops::accumulate::ScatterReduce;
pub use shaped_core::ops::binary::{ArithRhs, Operand};
pub use shaped_core::ops::conv::{
    Bias, Conv, Conv1dArg, Conv1dArgs, Conv2dArg, ConvArgs, ConvT, ConvTranspose2dArg, ConvTransposeArgs, NoBias, Pool,
    Pool2dArg, PoolArgs,
};
pub use shaped_core::ops::count::Unique;
pub use shaped_core::ops::diag::{meshgrid, try_meshgrid, Indexing};
pub use shaped_core::ops::einsum::{einsum, try_einsum, EinsumDim, EinsumRank};
pub use shaped_core::ops::out::OutOperand;
pub use shaped_core::ops::pad::PadMode;
pub use shaped_core::ops::reduce::Norm;
pub use shaped_core::ops::select::{try_where_, where_};
pub use shaped_core::tensor::join::{Cat, Stack};
pub use shaped_core::MatrixFloat;
pub use shaped_core::MeanElem;
#[cfg(feature = "rand")]
pub use shaped_core::{rand, RandFloat, RandInt};
#[cfg(feature = "linalg")]
pub use shaped_core::{CholeskyFactor, LinalgFloat, Lstsq, LuFactor, MatrixNorm};

/// The names most code needs: `use shaped::prelude::*;`.
///
/// It also holds what code generic over shapes, sizes and element types names in its bounds, so
/// that such a function needs no other import: the dim and element traits (`Dim`, `Element`,
/// `Num`, num-traits' `Float`, `MatrixFloat`), the storage traits (`Data`, `DataMut`), and the
/// shape rules of operations between two shape parameters (`BroadcastShape` with its result
/// `Broadcast`, `MatMulShape`, `SameShape`, `ExpandShape`, `RemoveAxis`, `SetAxis`).
///
/// ```
/// use shaped::prelude::*;
///
/// /// The mean of each row, for any number of rows and any float type.
/// fn row_means<T: Float + Num<Sum = T>, N: Dim>(x: &TensorView<T, (N, Const<64>)>) -> Tensor<T, (N,)> {
///     x.mean_axis(Ax::<1>)
/// }
/// let x: Tensor<f64, Shape![3, 64]> = Tensor::ones();
/// assert_eq!(row_means(&x.as_view()).to_vec(), [1.0; 3]);
/// ```
pub mod prelude {
    pub use crate::{
        dims, einsum, meshgrid, stensor, t, try_einsum, where_, Ax, Axes, Cat, Const, Conv, ConvT, Data, DataMut, Dim,
        DimName, Dyn, DynShape, Element, Indexing, MatrixFloat, MeanElem, NoBias, Norm, Num, One, PadMode, Pool, Prod,
        STensor, ScatterReduce, Shape, ShapeError, SharedTensor, SliceArg, Stack, Tensor, TensorCow, TensorView,
        TensorViewMut,
    };
    #[cfg(feature = "linalg")]
    pub use crate::{LinalgFloat, MatrixNorm};
    pub use shaped_core::num::Float;
    pub use shaped_core::ops::vector::MatrixDot;
    pub use shaped_core::shape::{
        Broadcast, BroadcastShape, ExpandShape, MatMulShape, MatrixBatch, MinOf, MinShape, PadShape, RemoveAxis,
        SameShape, SetAxis, SolveRhs, SquareShape,
    };
}

pub mod guide;

/// The old path of [`guide::for_pytorch_users`]: PyTorch, NumPy, ndarray and nalgebra calls beside
/// `shaped`'s.
#[doc(no_inline)]
pub use guide::for_pytorch_users as migration;

#[doc(hidden)]
pub mod __private {
    pub use shaped_core::index;
    pub use shaped_core::num::Gemm;
    pub use shaped_core::ops::einsum;
    pub use shaped_core::shape::{Cons, Nil};
    pub use shaped_macros::{einsum_impl, t_impl};
}

/// Typed indexing that lowers to a strided view, never a copy: `t!(x[.., 1, 0..2])`.
///
/// | item | meaning | result dim |
/// |---|---|---|
/// | `..` | the whole dim | kept |
/// | `2`, `-1` | one index (negative counts from the end) | dropped |
/// | `a..b`, `a..`, `..b`, `a..=b`, `-3..` | a range | its length |
/// | `a..b;2`, `..;-1` | with a step; a negative step walks the range backwards | its length |
/// | `None` | a new size-1 dim | `One` |
/// | `...` | the remaining dims | kept |
/// | any other expression | an index or bound computed at run time | `Dyn` |
///
/// Literal indices and bounds are checked at compile time against static dims; runtime ones
/// (and literals on `Dyn` dims) are checked at run time and panic with the [`ShapeError`]
/// message. Out-of-range bounds are errors, never clamped (NumPy clamps; this crate does not).
///
/// **A negative step walks the range `a..b` from its end**, as Rust's `(a..b).rev().step_by(k)`:
/// `t!(x[2..;-1])` is `x[2..]` reversed (indices `n-1, ..., 2`), which is **not** NumPy's
/// `x[2::-1]` (indices `2, 1, 0`, the start given first); write that one as `t!(x[..=2;-1])`.
///
/// `t!(x[.., 0] = value)` assigns a scalar or a broadcastable tensor through the view.
/// `t!(try x[i, ..])` returns `Result<TensorView, ShapeError>` instead of panicking.
/// A tracked [`autograd::Var`] is sliced the same way, with the same checks, into a `Var` of the
/// slice's shape whose gradient flows back through the slice ([`guide::autograd`]).
///
/// ```
/// use shaped::prelude::*;
/// let mut x: Tensor<f32, Shape![3, 4]> = Tensor::zeros();
/// t!(x[.., 0] = 1.0);
/// let v: TensorView<f32, Shape![3, 2]> = t!(x[.., 0..4;2]);
/// assert_eq!(v.to_vec(), [1., 0., 1., 0., 1., 0.]);
/// let r = t!(x[0, ..;-1]);                          // reversed view of row 0
/// assert_eq!(r.to_vec(), [0., 0., 0., 1.]);
/// let y: Tensor<i32, Shape![5]> = Tensor::from([0, 1, 2, 3, 4]);
/// assert_eq!(t!(y[2..;-1]).to_vec(), [4, 3, 2]);   // not NumPy's y[2::-1]
/// assert_eq!(t!(y[..=2;-1]).to_vec(), [2, 1, 0]);  // NumPy's y[2::-1]
/// let i = 5;
/// let e = t!(try x[i]).unwrap_err();
/// assert_eq!(e.to_string(), "index 5 is out of bounds for dimension 0 of size 3");
/// ```
#[macro_export]
macro_rules! t {
    ($($tt:tt)*) => { $crate::__private::t_impl!($crate; $($tt)*) };
}

/// Einstein summation with a typed result (NumPy `np.einsum`, PyTorch `torch.einsum`):
/// `einsum!("bij,bjk->bik", a, b)` is a batch matmul of `[B, I, J]` and `[B, J, K]` giving a
/// [`Tensor`] of shape `[B, I, K]`. The equation is a string literal parsed when the macro
/// expands; the operands are tensors of any storage (owned, views, inline) and shape, with one
/// element type.
///
/// **Equation**: one term of letters (`a-z`, `A-Z`) per operand, separated by commas, then
/// optionally `->` and the output's letters. Letters not in the output are summed over; a letter
/// repeated in one term takes the diagonal (`"ii->i"`, the trace `"ii->"`); without `->` the
/// output is the letters that appear exactly once, in ASCII order (NumPy's implicit mode: `"ij,jk"`
/// is a matmul, `"ji"` a transpose). `...` stands for the dims the letters do not name (aligned
/// from the right, broadcast between operands); see [`einsum()`](crate::einsum()) for the runtime
/// rules, which this macro shares.
///
/// **Result type**: for equations without `...`, `Tensor<T, (D0, D1, ..)>` with one dim per
/// output letter: the dim type of an operand axis that letter labels, static when any of them is
/// (`Const<N>`), `Dyn` when all are. A size-1 axis ([`One`]) broadcasts against the letter's
/// other sizes, as in NumPy and PyTorch: `One` with `Const<N>` gives `Const<N>`, `One` with `Dyn`
/// gives `Dyn`, `One` alone stays `One`. With `...`, a [`DynShape`] tensor (its rank depends on
/// the operands').
///
/// **Compile errors**: a malformed equation (a character other than letters, `,`, `->` and
/// `...`; two `->`; an output letter repeated or in no operand term; more terms than operands or
/// fewer) is an error on the string literal when the macro expands. An operand whose static rank
/// differs from its term's letter count is a `cargo check` error. A letter bound to two
/// different static sizes, neither of them 1, fails the build (`cargo build`, not `cargo check`: a post-
/// monomorphisation check, also in generic code once instantiated) with
/// `einsum "ij,jk->ik": letter 'j' has size 3 in operand 0 and size 4 in operand 1`. Sizes that
/// are `Dyn` are checked at run time: `einsum!` then panics with the [`ShapeError`] message and
/// [`try_einsum!`] returns it.
///
/// **Lowering**: diagonal views for repeated letters, matrix-vector products with ones for
/// letters of one operand that nothing else names, then the operands contracted left to right,
/// each step one (batched) `matmul` (see [`einsum()`](crate::einsum())). Integer sums wrap, as in
/// `matmul`. At most 8 operands (the runtime [`einsum()`](crate::einsum()) takes any number).
///
/// # Panics
/// On a runtime size mismatch (a `Dyn` letter), and when the result cannot be allocated.
///
/// ```
/// use shaped::prelude::*;
/// let a: Tensor<f32, Shape![2, 3, 4]> = Tensor::ones();
/// let b: Tensor<f32, Shape![2, 4, 5]> = Tensor::ones();
/// let c: Tensor<f32, Shape![2, 3, 5]> = einsum!("bij,bjk->bik", a, b); // batch matmul
/// assert_eq!(c.to_vec(), [4.0; 30]);
/// let m: Tensor<i64, Shape![3, 3]> = Tensor::from([[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
/// let tr: Tensor<i64, Shape![]> = einsum!("ii", m); // the trace (implicit output)
/// assert_eq!(tr.to_vec(), [15]);
/// let mt: Tensor<i64, Shape![3, 3]> = einsum!("ij->ji", m.as_view());
/// assert_eq!(mt.to_vec(), m.t().to_vec());
/// // A runtime dim is checked at run time: `Dyn` rows here.
/// let d = Tensor::<f32, Shape![_, 4]>::ones_sized(&[3, 4]);
/// let e: Result<Tensor<f32, Shape![_, _]>, ShapeError> = try_einsum!("ij,jk->ik", d, b.as_dyn());
/// assert!(e.is_err()); // `b.as_dyn()` has rank 3, not 2
/// ```
#[macro_export]
macro_rules! einsum {
    ($($tt:tt)*) => { $crate::__private::einsum_impl!($crate; $($tt)*) };
}

/// [`einsum!`] returning `Result<Tensor<T, S>, ShapeError>` instead of panicking on a runtime
/// size mismatch: `try_einsum!("ij,jk->ik", a, b)`. Same equation, types and compile errors.
///
/// # Errors
/// Those of [`try_einsum()`](crate::try_einsum()): a `Dyn` letter whose sizes differ
/// ([`ShapeError::Mismatch`]), a [`DynShape`] operand of another rank than its term
/// ([`ShapeError::Invalid`]), allocation failures.
///
/// ```
/// use shaped::prelude::*;
/// let x = Tensor::<f64, Shape![_]>::ones_sized(&[3]);
/// let y = Tensor::<f64, Shape![_]>::ones_sized(&[4]);
/// let e = try_einsum!("i,i->", x, y).unwrap_err();
/// assert_eq!(e.to_string(), "einsum: [3] and [4] differ in the size of letter 'i' (3 and 4)");
/// let outer: Tensor<f64, Shape![_, _]> = try_einsum!("i,j->ij", x, y).unwrap();
/// assert_eq!(outer.sizes(), [3, 4]);
/// ```
#[macro_export]
macro_rules! try_einsum {
    ($($tt:tt)*) => { $crate::__private::einsum_impl!($crate; try $($tt)*) };
}

/// The README's examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
