//! Reverse-mode automatic differentiation with typed gradients (PyTorch's `torch.autograd`).
//!
//! A layer above [`ops`](crate::ops): tracking, the graph and the backward rules live here, and
//! nothing below knows that a value is tracked. Backward rules call the same kernels as the
//! forward operations, so they share their speed and their tests.
//!
//! * [`Tape`]: the graph of one step (an arena of nodes). [`Tape::no_grad`] records nothing.
//! * [`Param`]: a trainable tensor with an identity; [`Tape::watch`] makes it a tracked [`Var`]
//!   without copying it.
//! * [`Var`]: a value in a differentiable computation. Its operations take and give the shape
//!   types of the same operations on [`Tensor`](crate::Tensor), with the same compile errors.
//! * `loss.backward()` gives [`Grads`]: `grads.param(&w)` is a tensor of `w`'s shape type, so
//!   asking for a gradient with the wrong shape does not compile.
//! * [`nn`]: the functional layer (PyTorch's `torch.nn.functional`): `linear`, `layer_norm`,
//!   `batch_norm`, `dropout`, `embedding`, `scaled_dot_product_attention` and the losses.
//! * [`gradcheck`]: central differences in `f64` against the backward rules (PyTorch
//!   `torch.autograd.gradcheck`).
//!
//! ```
//! # extern crate shaped_core as shaped;
//! use shaped::{Shape, Tensor};
//! use shaped::autograd::{Param, Tape, Var};
//!
//! // y = w x + b, squared error against t.
//! let w = Param::new(Tensor::<f64, Shape![1, 2]>::from([[1.0, 2.0]]));
//! let b = Param::new(Tensor::<f64, Shape![1]>::from([0.5]));
//! let x = Var::constant(Tensor::<f64, Shape![2, 3]>::from([[1., 2., 3.], [4., 5., 6.]]));
//! let t = Var::constant(Tensor::<f64, Shape![1, 3]>::from([[9., 12., 15.]]));
//!
//! let tape = Tape::new();
//! let (wv, bv) = (tape.watch(&w), tape.watch(&b));
//! let y = &wv.matmul(&x) + &bv;            // [1, 2] @ [2, 3] + [1] -> [1, 3]
//! let loss = (&y - &t).square().mean();     // Shape![]: a scalar
//! let grads = loss.backward();
//! let gw: &Tensor<f64, Shape![1, 2]> = grads.param(&w).unwrap();
//! let gb: &Tensor<f64, Shape![1]> = grads.param(&b).unwrap();
//! // y = [9.5, 12.5, 15.5]: every residual is 0.5, so d loss / d y = 1/3 each.
//! assert!((gb.to_vec()[0] - 1.0).abs() < 1e-12);
//! assert!((gw.to_vec()[0] - 2.0).abs() < 1e-12 && (gw.to_vec()[1] - 5.0).abs() < 1e-12);
//! ```
mod check;
mod conv;
mod einsum;
mod linalg;
pub mod nn;
mod ops;
#[cfg(feature = "npy")]
mod save;
mod select;
mod slice;
mod tape;
mod var;

pub mod optim;

pub use check::{gradcheck, try_gradcheck, GradcheckReport};
pub use conv::VarBias;
pub use einsum::{einsum, try_einsum};
pub use ops::PermuteAxis;
#[cfg(feature = "safetensors")]
pub(crate) use save::{decode_floats, float_dtype, read_tensors, to_bytes, write_tensors, Keys};
#[cfg(feature = "npy")]
pub use save::{load_params_npz, save_params_npz};
#[cfg(feature = "safetensors")]
pub use save::{load_safetensors, save_safetensors};
pub use slice::VarSliceKind;
pub use tape::{AnyParam, Grads, Param, ParamId, Parameters, Tape};
pub use var::{ScalarShape, Var};

use crate::element::Element;
use crate::num::{MatrixFloat, Num};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// With `linalg`, the decompositions' element bound, so that `Var::cholesky` needs no other.
#[cfg(feature = "linalg")]
pub trait MaybeLinalg: crate::num::LinalgFloat {}
#[cfg(feature = "linalg")]
impl<T: crate::num::LinalgFloat> MaybeLinalg for T {}
/// Without `linalg`, nothing.
#[cfg(not(feature = "linalg"))]
pub trait MaybeLinalg {}
#[cfg(not(feature = "linalg"))]
impl<T> MaybeLinalg for T {}

/// The element types that gradients flow through: `f32` and `f64`. [`Real`](crate::num::Real)
/// (the dual numbers' scalars) is a supertrait so that reverse mode reads the same derivative
/// table as forward mode.
pub trait GradFloat:
    MatrixFloat
    + crate::num::Real
    + Num<Sum = Self>
    + num_traits::NumAssign
    + Element
    + Send
    + Sync
    + 'static
    + MaybeLinalg
    + sealed::Sealed
{
    /// `v` rounded to this type.
    fn from_f64(v: f64) -> Self;
    /// This value as an `f64` (exact).
    fn as_f64(self) -> f64;
}
impl GradFloat for f32 {
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    #[inline(always)]
    fn as_f64(self) -> f64 {
        self as f64
    }
}
impl GradFloat for f64 {
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v
    }
    #[inline(always)]
    fn as_f64(self) -> f64 {
        self
    }
}
