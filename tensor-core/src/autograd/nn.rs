//! The functional layer of a network, differentiable (PyTorch `torch.nn.functional`): free
//! functions over [`Var`]s with typed result shapes.
//!
//! * Layers: [`linear`], [`layer_norm`] (over the last dim), [`batch_norm`] (training and
//!   evaluation, running statistics updated in place), [`dropout`] (feature `rand`),
//!   [`embedding`], [`scaled_dot_product_attention`].
//! * Losses, each a `Shape![]` value reduced by a [`Reduction`] (PyTorch's default is
//!   [`Reduction::Mean`]): [`mse_loss`], [`l1_loss`], [`huber_loss`], [`cross_entropy`] (class
//!   indices, label smoothing), [`nll_loss`], [`binary_cross_entropy_with_logits`].
//!
//! Each function records one node on the tape with a fused backward rule (the gradients of all
//! its inputs computed together from what the forward saved), so a layer costs one node, not
//! the half-dozen of its composition. Shapes follow the same rules as the operations they are
//! made of: `linear`'s inner dims must agree at compile time where static, as `matmul`'s; the
//! affine parameters of a normalisation have the normalised dim's type. Every function has a
//! `try_` form returning the runtime errors (sizes of `Dyn` dims, class indices, probabilities)
//! instead of panicking with their message.
//!
//! ```
//! # extern crate shaped_core as shaped;
//! use shaped::{Shape, Tensor};
//! use shaped::autograd::nn::{self, Reduction};
//! use shaped::autograd::{Param, Tape, Var};
//!
//! // A two-layer classifier on a batch of 4 inputs of 3 features, 2 classes.
//! let w1 = Param::new(Tensor::<f64, Shape![5, 3]>::full(0.1));
//! let b1 = Param::new(Tensor::<f64, Shape![5]>::zeros());
//! let w2 = Param::new(Tensor::<f64, Shape![2, 5]>::full(-0.2));
//! let x = Var::constant(Tensor::<f64, Shape![4, 3]>::full(1.0));
//! let y = Tensor::<i64, Shape![4]>::from([0, 1, 1, 0]);
//!
//! let tape = Tape::new();
//! let h = nn::linear(&x, &tape.watch(&w1), Some(&tape.watch(&b1))).relu(); // [4, 5]
//! let logits = nn::linear(&h, &tape.watch(&w2), None);                     // [4, 2]
//! let loss = nn::cross_entropy(&logits, &y, Reduction::Mean, 0.0);         // Shape![]
//! assert!((loss.item() - 2f64.ln()).abs() < 1e-12); // equal logits: ln 2
//! let grads = loss.backward();
//! let g1: &Tensor<f64, Shape![5, 3]> = grads.param(&w1).unwrap();
//! assert_eq!(g1.sizes(), [5, 3]);
//! ```
use super::ops::{c, sum_to, typed};
use super::tape::{BackFn, NodeRef, Sink};
use super::var::{back, Var};
use super::GradFloat;
use crate::dim::Dim;
use crate::element::{IndexElem, ToIndex};
use crate::error::{OrPanic, ShapeError};
use crate::kernels::reduce::{Mean, Sum};
use crate::shape::{DynShape, MatMulShape, MatrixBatch, PushDim, RemoveAxis, Shape};
use crate::storage::Data;
use crate::tensor::{Tensor, TensorBase, TensorView};
use alloc::format;
use alloc::sync::Arc;
use alloc::vec::Vec;

/// How a loss reduces its per-element values to one (PyTorch's `reduction=` argument). PyTorch's
/// `'none'` changes the result's shape, so it is a function of its own: [`mse_loss_unreduced`],
/// [`cross_entropy_unreduced_with`], ... The default is [`Mean`](Reduction::Mean), as PyTorch's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// The mean over the elements (the batch, for [`cross_entropy`] and [`nll_loss`]):
    /// PyTorch `reduction='mean'`. NaN when there are none, as PyTorch.
    #[default]
    Mean,
    /// The sum: PyTorch `reduction='sum'`.
    Sum,
}

impl Reduction {
    /// The factor that turns the sum of `n` values into the reduction.
    fn scale<T: GradFloat>(self, n: usize) -> T {
        match self {
            Reduction::Mean => T::one() / c::<T>(n as f64),
            Reduction::Sum => T::one(),
        }
    }
}

/// Records a node of inputs `parents` and value `value` (see `Var::record`).
fn record<'t, T: GradFloat, S: Shape, const N: usize>(
    parents: [Option<&NodeRef<'t, T>>; N],
    value: Tensor<T, S>,
    make: impl FnOnce([Option<usize>; N], &Arc<Tensor<T, S>>) -> BackFn<T>,
) -> Result<Var<'t, T, S>, ShapeError> {
    Var::<'t, T, S>::record(parents, value, make)
}

/// The node of an optional input.
fn node_of<'a, 't, T: GradFloat, S: Shape>(v: Option<&'a Var<'t, T, S>>) -> Option<&'a NodeRef<'t, T>> {
    v.and_then(|v| v.node())
}

/// A `Shape![]` tensor holding `v`.
fn scalar<T: GradFloat>(v: T) -> Tensor<T, ()> {
    Tensor::<T, ()>::from_vec(&[], alloc::vec![v])
}

/// Sizes as `isize`, for `reshape_dyn`.
fn isizes(sizes: &[usize]) -> Vec<isize> {
    sizes.iter().map(|&n| n as isize).collect()
}

/// Checks that the length of a per-feature vector (`what`: weight, bias, running mean, ...) is
/// `n`, the size of the dim it scales.
fn check_len(op: &'static str, what: &str, len: usize, n: usize, dim: &str) -> Result<(), ShapeError> {
    if len != n {
        return Err(ShapeError::Mismatch {
            op,
            what: format!("differ: the {what} must have one element per {dim}"),
            lhs: alloc::vec![len],
            rhs: alloc::vec![n],
        });
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Linear.

/// `x @ weight.T + bias` (PyTorch `torch.nn.functional.linear`), differentiable: `x` of shape
/// `[.., in]` (any leading dims, or none), `weight` `[out, in]`, `bias` `[out]` gives
/// `[.., out]`. One node; the gradients are `g @ weight`, `gᵀ x` summed over the leading dims and
/// `g` summed over them.
///
/// The result shape is `x.matmul(weight.t())`'s, so an `in` that differs from `x`'s last dim is a
/// compile error where both are static, naming `x`'s shape and the transposed weight's:
/// "cannot matmul `(Const<4>, Const<3>)` by `(Const<5>, Const<2>)`: inner dimensions `Const<3>`
/// and `Const<5>` differ" for a `[4, 3]` input and a `[2, 5]` weight.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn, Tape};
/// let tape = Tape::new();
/// let x = tape.var(Tensor::<f64, Shape![2, 3]>::from([[1., 2., 3.], [4., 5., 6.]]));
/// let w = tape.var(Tensor::<f64, Shape![1, 3]>::from([[1., 0., -1.]]));
/// let b = tape.var(Tensor::<f64, Shape![1]>::from([0.5]));
/// let y = nn::linear(&x, &w, Some(&b)); // Shape![2, 1]
/// assert_eq!(y.value().to_vec(), [-1.5, -1.5]);
/// let grads = y.sum().backward();
/// assert_eq!(grads.wrt(&w).unwrap().to_vec(), [5., 7., 9.]);
/// assert_eq!(grads.wrt(&b).unwrap().to_vec(), [2.]);
/// ```
///
/// # Panics
/// As the errors of [`try_linear`].
#[track_caller]
pub fn linear<'t, T: GradFloat, S, O: Dim, I: Dim>(
    x: &Var<'t, T, S>,
    weight: &Var<'t, T, (O, I)>,
    bias: Option<&Var<'t, T, (O,)>>,
) -> Var<'t, T, <S as MatMulShape<(I, O)>>::Out>
where
    S: MatMulShape<(I, O)>,
{
    try_linear(x, weight, bias).or_panic()
}

/// [`linear`], returning an error instead of panicking.
///
/// # Errors
/// [`ShapeError::MatMul`] when `x`'s last size differs from the weight's `in` at run time (a
/// `Dyn` dim), or `x` is 0-d; [`ShapeError::Mismatch`] when the bias's length is not `out`;
/// [`ShapeError::Autograd`] when the inputs are tracked by two tapes.
pub fn try_linear<'t, T: GradFloat, S, O: Dim, I: Dim>(
    x: &Var<'t, T, S>,
    weight: &Var<'t, T, (O, I)>,
    bias: Option<&Var<'t, T, (O,)>>,
) -> Result<Var<'t, T, <S as MatMulShape<(I, O)>>::Out>, ShapeError>
where
    S: MatMulShape<(I, O)>,
{
    let w = weight.value();
    let (o, i) = (w.sizes()[0], w.sizes()[1]);
    let mut y: Tensor<T, <S as MatMulShape<(I, O)>>::Out> = x.value().try_matmul(&w.t())?;
    if let Some(b) = bias {
        check_len("linear", "bias", b.sizes()[0], o, "output feature")?;
        let mut dst = y.as_view_mut().into_dyn();
        dst += &b.value().as_dyn();
    }
    let (xa, wa) = (x.arc().clone(), weight.arc().clone());
    record([x.node(), weight.node(), node_of(bias)], y, move |[ix, iw, ib], _| {
        back(move |g: Tensor<T, <S as MatMulShape<(I, O)>>::Out>, s: &mut Sink<T>| {
            let gd = g.as_dyn();
            // [.., out] @ [out, in] -> [.., in]; a 1-D `x` gives a 1-D `g`, and `[out] @ [out, in]`.
            s.add_with(ix, || typed::<T, S>(gd.matmul(&wa.as_dyn())));
            s.add_with(iw, || {
                // The leading dims of `x` (and `g`) flattened into one: `gᵀ x` sums over them.
                let rows: usize = xa.sizes()[..xa.rank() - 1].iter().product();
                let g2 = gd.reshape_dyn(&[rows as isize, o as isize]);
                let x2 = xa.reshape_dyn(&[rows as isize, i as isize]);
                typed::<T, (O, I)>(g2.transpose_dyn(0, 1).matmul(&x2))
            });
            s.add_with(ib, || sum_to::<T, (O,)>(gd, &[o]));
        })
    })
}

// ---------------------------------------------------------------------------------------------
// Normalisation.

/// Layer normalisation over the last dim (PyTorch `torch.nn.functional.layer_norm(x, (d,),
/// weight, bias, eps)` with `normalized_shape` the last size only): each row of `d` elements
/// becomes `(x - mean) / sqrt(var + eps) * weight + bias`, with the biased (population) variance.
/// Same shape as `x`; `weight` and `bias` (each optional) have `x`'s last dim type `[d]`.
/// PyTorch's `eps` default is `1e-5`. To normalise over several trailing dims, reshape them into
/// one first. One node; the gradient of `x` is PyTorch's fused formula
/// `rstd (ĝ - mean(ĝ) - x̂ mean(ĝ x̂))`, `ĝ = g weight`.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn, Var};
/// let x = Var::constant(Tensor::<f64, Shape![2, 2]>::from([[1., 3.], [0., 10.]]));
/// let y = nn::layer_norm(&x, None, None, 0.0);
/// assert_eq!(y.value().to_vec(), [-1., 1., -1., 1.]);
/// ```
///
/// # Panics
/// As the errors of [`try_layer_norm`].
#[track_caller]
pub fn layer_norm<'t, T: GradFloat, S, D: Dim>(
    x: &Var<'t, T, S>,
    weight: Option<&Var<'t, T, (D,)>>,
    bias: Option<&Var<'t, T, (D,)>>,
    eps: T,
) -> Var<'t, T, S>
where
    S: RemoveAxis<-1, Removed = D>,
{
    try_layer_norm(x, weight, bias, eps).or_panic()
}

/// [`layer_norm`], returning an error instead of panicking.
///
/// # Errors
/// [`ShapeError::Axis`] for a 0-d [`DynShape`] input; [`ShapeError::Mismatch`] when the weight or
/// bias length is not `x`'s last size (at run time, for a `Dyn` dim); [`ShapeError::Autograd`]
/// when the inputs are tracked by two tapes.
pub fn try_layer_norm<'t, T: GradFloat, S, D: Dim>(
    x: &Var<'t, T, S>,
    weight: Option<&Var<'t, T, (D,)>>,
    bias: Option<&Var<'t, T, (D,)>>,
    eps: T,
) -> Result<Var<'t, T, S>, ShapeError>
where
    S: RemoveAxis<-1, Removed = D>,
{
    let xd = x.value().as_dyn();
    if xd.rank() == 0 {
        return Err(ShapeError::Axis { axis: -1, rank: 0 });
    }
    let d = xd.sizes()[xd.rank() - 1];
    if let Some(w) = weight {
        check_len("layer_norm", "weight", w.sizes()[0], d, "element of the last dim")?;
    }
    if let Some(b) = bias {
        check_len("layer_norm", "bias", b.sizes()[0], d, "element of the last dim")?;
    }
    let mean = xd.try_mean_keepdim_dyn(-1)?;
    let xc = xd.zip_with(&mean, |v, m| v - m);
    let var = xc.map(|v| v * v).try_mean_keepdim_dyn(-1)?;
    let rstd = var.map(move |v| T::one() / (v + eps).sqrt());
    let xhat = xc.zip_with(&rstd, |v, r| v * r);
    let y = affine(&xhat, weight.map(|w| w.value().as_dyn()), bias.map(|b| b.value().as_dyn()));
    let y = typed::<T, S>(y);
    let wa = weight.map(|w| w.arc().clone());
    record([x.node(), node_of(weight), node_of(bias)], y, move |[ix, iw, ib], _| {
        back(move |g: Tensor<T, S>, s: &mut Sink<T>| {
            let gd = g.as_dyn();
            s.add_with(iw, || sum_to::<T, (D,)>(gd.zip_with(&xhat, |g, h| g * h).as_dyn(), &[d]));
            s.add_with(ib, || sum_to::<T, (D,)>(gd, &[d]));
            s.add_with(ix, || {
                let gh = match &wa {
                    Some(w) => gd.zip_with(&w.as_dyn(), |g, w| g * w),
                    None => gd.to_owned(),
                };
                let m1 = gh.mean_keepdim_dyn(-1);
                let m2 = gh.zip_with(&xhat, |g, h| g * h).mean_keepdim_dyn(-1);
                typed::<T, S>(normalized_grad(&gh, &xhat, &m1, &m2, &rstd))
            });
        })
    })
}

/// `x̂ · weight + bias` (each optional), broadcast: `weight` and `bias` are already shaped to
/// broadcast against `xhat`.
fn affine<T: GradFloat>(
    xhat: &Tensor<T, DynShape>,
    weight: Option<TensorView<'_, T, DynShape>>,
    bias: Option<TensorView<'_, T, DynShape>>,
) -> Tensor<T, DynShape> {
    match (weight, bias) {
        (Some(w), Some(b)) => {
            let mut y = xhat.zip_with(&w, |h, w| h * w);
            y += &b;
            y
        }
        (Some(w), None) => xhat.zip_with(&w, |h, w| h * w),
        (None, Some(b)) => xhat.zip_with(&b, |h, b| h + b),
        (None, None) => xhat.clone(),
    }
}

/// The input gradient of a normalisation with batch statistics: `rstd (ĝ - m1 - x̂ m2)`, where
/// `m1` is the mean of `ĝ` and `m2` the mean of `ĝ x̂` over the normalised elements (kept dims).
fn normalized_grad<T: GradFloat>(
    gh: &Tensor<T, DynShape>,
    xhat: &Tensor<T, DynShape>,
    m1: &Tensor<T, DynShape>,
    m2: &Tensor<T, DynShape>,
    rstd: &Tensor<T, DynShape>,
) -> Tensor<T, DynShape> {
    let centred = gh.zip_with(m1, |g, m| g - m);
    let proj = xhat.zip_with(m2, |h, m| h * m);
    let t = centred.zip_with(&proj, |a, b| a - b);
    t.zip_with(rstd, |t, r| t * r)
}

/// Batch normalisation over the channel dim 1 of `x` `[N, C, ..]` (PyTorch
/// `torch.nn.functional.batch_norm(x, running_mean, running_var, weight, bias, training,
/// momentum, eps)`; `[N, C]`, `[N, C, L]`, `[N, C, H, W]`, ... up to rank 6): each channel becomes
/// `(x - mean) / sqrt(var + eps) * weight + bias`. Same shape as `x`; `weight`, `bias` and the
/// running statistics have `x`'s channel dim type `[C]`. PyTorch's defaults are `momentum = 0.1`,
/// `eps = 1e-5` (a `None` momentum, PyTorch's cumulative average, is not offered).
///
/// * Training (`training = true`): the mean and the biased variance of each channel over the
///   batch and the spatial dims normalise; `running_mean` and `running_var`, where given, are
///   updated in place as PyTorch's: `running = (1 - momentum) running + momentum stat`, with the
///   *unbiased* variance (`n / (n - 1)` times the biased one, `n` the elements per channel) for
///   `running_var`. The gradient flows through the batch statistics (PyTorch's formula).
/// * Evaluation (`training = false`): the running statistics normalise (both are required), and
///   are not changed; the gradient of `x` is `g weight / sqrt(running_var + eps)`.
///
/// One node. `momentum` and `eps` are element values (`0.1`, `1e-5` for `f32` and `f64`).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn, Var};
/// let x = Var::constant(Tensor::<f64, Shape![2, 2]>::from([[1., 10.], [3., 30.]]));
/// let mut mean = Tensor::<f64, Shape![2]>::zeros();
/// let mut var = Tensor::<f64, Shape![2]>::ones();
/// let y = nn::batch_norm(&x, Some(&mut mean), Some(&mut var), None, None, true, 0.1, 0.0);
/// assert_eq!(y.value().to_vec(), [-1., -1., 1., 1.]);
/// // 0.9 * 0 + 0.1 * [2, 20]; 0.9 * 1 + 0.1 * [2, 200] (the unbiased variances).
/// assert!((mean.to_vec()[1] - 2.0).abs() < 1e-12 && (var.to_vec()[1] - 20.9).abs() < 1e-12);
/// ```
///
/// # Panics
/// As the errors of [`try_batch_norm`].
#[allow(clippy::too_many_arguments)]
#[track_caller]
pub fn batch_norm<'t, T: GradFloat, S, C: Dim>(
    x: &Var<'t, T, S>,
    running_mean: Option<&mut Tensor<T, (C,)>>,
    running_var: Option<&mut Tensor<T, (C,)>>,
    weight: Option<&Var<'t, T, (C,)>>,
    bias: Option<&Var<'t, T, (C,)>>,
    training: bool,
    momentum: T,
    eps: T,
) -> Var<'t, T, S>
where
    S: RemoveAxis<1, Removed = C>,
{
    try_batch_norm(x, running_mean, running_var, weight, bias, training, momentum, eps).or_panic()
}

/// [`batch_norm`], returning an error instead of panicking. An error leaves the running
/// statistics unchanged.
///
/// # Errors
/// [`ShapeError::Invalid`] for a [`DynShape`] input of rank below 2, for training with one
/// element per channel (PyTorch's "Expected more than 1 value per channel when training"), and
/// for evaluation without both running statistics; [`ShapeError::Mismatch`] when a weight, bias or
/// running statistic does not have `C` elements (at run time, for a `Dyn` dim);
/// [`ShapeError::Autograd`] when the inputs are tracked by two tapes.
#[allow(clippy::too_many_arguments)]
pub fn try_batch_norm<'t, T: GradFloat, S, C: Dim>(
    x: &Var<'t, T, S>,
    running_mean: Option<&mut Tensor<T, (C,)>>,
    running_var: Option<&mut Tensor<T, (C,)>>,
    weight: Option<&Var<'t, T, (C,)>>,
    bias: Option<&Var<'t, T, (C,)>>,
    training: bool,
    momentum: T,
    eps: T,
) -> Result<Var<'t, T, S>, ShapeError>
where
    S: RemoveAxis<1, Removed = C>,
{
    const OP: &str = "batch_norm";
    let xd = x.value().as_dyn();
    let rank = xd.rank();
    if rank < 2 {
        return Err(ShapeError::Invalid(format!(
            "batch_norm: the input must have a batch and a channel dim [N, C, ..], got sizes {:?}",
            xd.sizes()
        )));
    }
    let ch = xd.sizes()[1];
    for (what, len) in [
        ("weight", weight.map(|w| w.sizes()[0])),
        ("bias", bias.map(|b| b.sizes()[0])),
        ("running mean", running_mean.as_ref().map(|m| m.sizes()[0])),
        ("running variance", running_var.as_ref().map(|v| v.sizes()[0])),
    ] {
        if let Some(len) = len {
            check_len(OP, what, len, ch, "channel (dim 1 of the input)")?;
        }
    }
    // Every dim but the channel one is reduced; per-channel vectors broadcast as [1, C, 1, ..].
    let axes: Vec<usize> = (0..rank).filter(|&a| a != 1).collect();
    let mut cshape = alloc::vec![1isize; rank];
    cshape[1] = ch as isize;
    let per_channel = |v: TensorView<'_, T, DynShape>| v.reshape_dyn(&cshape).into_owned();
    let n = xd.numel().checked_div(ch).unwrap_or(0);

    let (mean, rstd) = if training {
        if n <= 1 {
            return Err(ShapeError::Invalid(format!(
                "batch_norm: expected more than 1 value per channel when training, got input sizes {:?}",
                xd.sizes()
            )));
        }
        let mean: Tensor<T, DynShape> = xd.reduce_with(&axes, true, &Mean)?;
        let var: Tensor<T, DynShape> = xd.zip_with(&mean, |v, m| (v - m) * (v - m)).reduce_with(&axes, true, &Mean)?;
        let (m, bessel) = (momentum, c::<T>(n as f64 / (n - 1) as f64));
        if let Some(rm) = running_mean {
            rm.zip_inplace(&mean.reshape_dyn(&[ch as isize]), move |r, v| *r = (T::one() - m) * *r + m * v);
        }
        if let Some(rv) = running_var {
            rv.zip_inplace(&var.reshape_dyn(&[ch as isize]), move |r, v| *r = (T::one() - m) * *r + m * (v * bessel));
        }
        (mean, var.map(move |v| T::one() / (v + eps).sqrt()))
    } else {
        let (Some(rm), Some(rv)) = (running_mean, running_var) else {
            return Err(ShapeError::Invalid(
                "batch_norm: the running mean and variance must be given in evaluation mode (training = false)".into(),
            ));
        };
        (per_channel(rm.as_dyn()), per_channel(rv.as_dyn()).map(move |v| T::one() / (v + eps).sqrt()))
    };
    let xhat = xd.zip_with(&mean, |v, m| v - m).zip_with(&rstd, |v, r| v * r);
    let wd = weight.map(|w| per_channel(w.value().as_dyn()));
    let bd = bias.map(|b| per_channel(b.value().as_dyn()));
    let y = typed::<T, S>(affine(&xhat, wd.as_ref().map(|w| w.as_dyn()), bd.as_ref().map(|b| b.as_dyn())));
    record([x.node(), node_of(weight), node_of(bias)], y, move |[ix, iw, ib], _| {
        back(move |g: Tensor<T, S>, s: &mut Sink<T>| {
            let gd = g.as_dyn();
            let sum_c = |t: TensorView<'_, T, DynShape>| -> Tensor<T, (C,)> {
                typed(t.reduce_with(&axes, false, &Sum).or_panic())
            };
            s.add_with(iw, || sum_c(gd.zip_with(&xhat, |g, h| g * h).as_dyn()));
            s.add_with(ib, || sum_c(gd.as_dyn()));
            s.add_with(ix, || {
                let gh = match &wd {
                    Some(w) => gd.zip_with(w, |g, w| g * w),
                    None => gd.to_owned(),
                };
                if !training {
                    return typed::<T, S>(gh.zip_with(&rstd, |g, r| g * r));
                }
                let m1: Tensor<T, DynShape> = gh.reduce_with(&axes, true, &Mean).or_panic();
                let m2: Tensor<T, DynShape> =
                    gh.zip_with(&xhat, |g, h| g * h).reduce_with(&axes, true, &Mean).or_panic();
                typed::<T, S>(normalized_grad(&gh, &xhat, &m1, &m2, &rstd))
            });
        })
    })
}

// ---------------------------------------------------------------------------------------------
// Dropout.

/// Dropout (PyTorch `torch.nn.functional.dropout(x, p, training)`): in training, each element
/// is zeroed with probability `p` and the others are scaled by `1 / (1 - p)`, so the expected
/// value is unchanged; the gradient is masked and scaled the same way. The mask is drawn from
/// `rng` (a seeded generator gives the same mask every run). Same shape. Identity (the same
/// value and node, nothing drawn) when `training` is false or `p` is 0; zeros when `p` is 1.
/// PyTorch's defaults are `p = 0.5`, `training = true`.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn, Tape};
/// use shaped::rand::{rngs::StdRng, SeedableRng};
/// let mut rng = StdRng::seed_from_u64(7);
/// let tape = Tape::new();
/// let x = tape.var(Tensor::<f64, Shape![1000]>::ones());
/// let y = nn::dropout(&x, 0.25, true, &mut rng);
/// // Every element is 0 or 1 / 0.75.
/// assert!(y.value().iter().all(|&v| v == 0.0 || (v - 4.0 / 3.0).abs() < 1e-12));
/// let g = y.sum().backward();
/// assert_eq!(g.wrt(&x).unwrap().to_vec(), y.value().to_vec());
/// ```
///
/// # Panics
/// As the errors of [`try_dropout`].
#[cfg(feature = "rand")]
#[cfg_attr(docsrs, doc(cfg(feature = "rand")))]
#[track_caller]
pub fn dropout<'t, T: GradFloat, S: Shape>(
    x: &Var<'t, T, S>,
    p: f64,
    training: bool,
    rng: &mut (impl rand::Rng + ?Sized),
) -> Var<'t, T, S> {
    try_dropout(x, p, training, rng).or_panic()
}

/// [`dropout`], returning an error instead of panicking.
///
/// # Errors
/// [`ShapeError::Invalid`] for `p` outside `[0, 1]` or NaN (PyTorch's "dropout probability has
/// to be between 0 and 1"); [`ShapeError::Alloc`].
#[cfg(feature = "rand")]
#[cfg_attr(docsrs, doc(cfg(feature = "rand")))]
pub fn try_dropout<'t, T: GradFloat, S: Shape>(
    x: &Var<'t, T, S>,
    p: f64,
    training: bool,
    rng: &mut (impl rand::Rng + ?Sized),
) -> Result<Var<'t, T, S>, ShapeError> {
    if !(0.0..=1.0).contains(&p) {
        return Err(ShapeError::Invalid(format!("dropout probability has to be between 0 and 1, but got {p}")));
    }
    if !training || p == 0.0 {
        return Ok(x.clone());
    }
    let mask = if p == 1.0 {
        x.value().zeros_like()
    } else {
        let scale = c::<T>(1.0 / (1.0 - p));
        Tensor::<T, S>::try_bernoulli_sized(x.sizes(), 1.0 - p, rng)?.map(move |m| m * scale)
    };
    let y = x.value().zip_with(&mask, |v, m| v * m);
    record([x.node()], y, move |[i], _| {
        back(move |g: Tensor<T, S>, s: &mut Sink<T>| s.add_with(i, || g.zip_with(&mask, |g, m| g * m)))
    })
}

// ---------------------------------------------------------------------------------------------
// Embedding.

/// Rows of `weight` picked by `indices` (PyTorch `torch.nn.functional.embedding(indices,
/// weight)`): indices of any shape `S` (any integer type) and a weight `[num, dim]` give
/// `S + [dim]`, e.g. `[batch, seq]` indices give `[batch, seq, dim]`. The weight's gradient adds
/// each output row's gradient into its row, so repeated indices accumulate (PyTorch's
/// `index_add`); the indices get none. `padding_idx` is [`embedding_with`]'s; `max_norm` and
/// sparse gradients are not offered.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn, Tape};
/// let tape = Tape::new();
/// let w = tape.var(Tensor::<f64, Shape![3, 2]>::from([[0., 1.], [2., 3.], [4., 5.]]));
/// let idx = Tensor::<i64, Shape![2, 2]>::from([[2, 0], [2, 2]]);
/// let e = nn::embedding(&idx, &w); // Shape![2, 2, 2]
/// assert_eq!(e.value().to_vec(), [4., 5., 0., 1., 4., 5., 4., 5.]);
/// let g = e.sum().backward();
/// assert_eq!(g.wrt(&w).unwrap().to_vec(), [1., 1., 0., 0., 3., 3.]); // row 2 picked 3 times
/// ```
///
/// # Panics
/// As the errors of [`try_embedding`].
#[track_caller]
pub fn embedding<'t, T: GradFloat, S, N: Dim, E: Dim>(
    indices: &TensorBase<impl Data<Elem: IndexElem>, S>,
    weight: &Var<'t, T, (N, E)>,
) -> Var<'t, T, <S as PushDim<E>>::Out>
where
    S: PushDim<E>,
{
    try_embedding(indices, weight).or_panic()
}

/// [`embedding`], returning an error instead of panicking.
///
/// # Errors
/// [`ShapeError::IndexEntry`] for the first index (row-major) outside `0..num`, naming the index,
/// its position in `indices` and the weight's row count (negative indices are refused, as
/// PyTorch's "index out of range in self"); [`ShapeError::RankTooLarge`] for rank-6
/// [`DynShape`] indices; [`ShapeError::Alloc`].
pub fn try_embedding<'t, T: GradFloat, S, N: Dim, E: Dim>(
    indices: &TensorBase<impl Data<Elem: IndexElem>, S>,
    weight: &Var<'t, T, (N, E)>,
) -> Result<Var<'t, T, <S as PushDim<E>>::Out>, ShapeError>
where
    S: PushDim<E>,
{
    try_embedding_with(indices, weight, None)
}

/// [`embedding`] with PyTorch's `padding_idx` (`torch.nn.functional.embedding(indices, weight,
/// padding_idx=...)`): the row `padding_idx` (negative counts from the end) is looked up as any
/// other but gets no gradient, so an optimizer step leaves it as it is. `None` is [`embedding`].
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn, Tape};
/// let tape = Tape::new();
/// let w = tape.var(Tensor::<f64, Shape![3, 2]>::from([[0., 0.], [2., 3.], [4., 5.]]));
/// let idx = Tensor::<i64, Shape![3]>::from([0, 2, 0]);
/// let e = nn::embedding_with(&idx, &w, Some(0)); // Shape![3, 2]
/// let g = e.sum().backward();
/// assert_eq!(g.wrt(&w).unwrap().to_vec(), [0., 0., 0., 0., 1., 1.]); // row 0 pads
/// ```
///
/// # Panics
/// As the errors of [`try_embedding_with`].
#[track_caller]
pub fn embedding_with<'t, T: GradFloat, S, N: Dim, E: Dim>(
    indices: &TensorBase<impl Data<Elem: IndexElem>, S>,
    weight: &Var<'t, T, (N, E)>,
    padding_idx: Option<i64>,
) -> Var<'t, T, <S as PushDim<E>>::Out>
where
    S: PushDim<E>,
{
    try_embedding_with(indices, weight, padding_idx).or_panic()
}

/// [`embedding_with`], returning an error instead of panicking.
///
/// # Errors
/// As [`try_embedding`], and [`ShapeError::Invalid`] for a `padding_idx` outside `-num..num`
/// (PyTorch: "Padding_idx must be within num_embeddings").
pub fn try_embedding_with<'t, T: GradFloat, S, N: Dim, E: Dim>(
    indices: &TensorBase<impl Data<Elem: IndexElem>, S>,
    weight: &Var<'t, T, (N, E)>,
    padding_idx: Option<i64>,
) -> Result<Var<'t, T, <S as PushDim<E>>::Out>, ShapeError>
where
    S: PushDim<E>,
{
    let (num, dim) = (weight.sizes()[0], weight.sizes()[1]);
    let pad = match padding_idx {
        None => None,
        Some(p) => {
            let n = num as i128;
            let p = i128::from(p);
            if p < -n || p >= n {
                return Err(ShapeError::Invalid(format!(
                    "embedding: padding_idx {p} must be within the {num} rows (-{num}..{num})"
                )));
            }
            Some(if p < 0 { (p + n) as usize } else { p as usize })
        }
    };
    let isz = indices.sizes();
    if isz.len() >= crate::MAX_RANK {
        return Err(ShapeError::RankTooLarge { rank: isz.len() + 1 });
    }
    let count = indices.numel();
    let mut flat: Vec<i64> = crate::memory::try_with_capacity(count)?;
    for (k, &v) in indices.iter().enumerate() {
        let (wide, at) = (v.to_i128(), v.to_index());
        if wide < 0 || at as usize >= num {
            return Err(ShapeError::IndexEntry { index: wide, position: unravel(k, isz), axis: 0, size: num });
        }
        flat.push(at as i64);
    }
    let flat = Tensor::<i64, DynShape>::from_vec(&[count], flat);
    let rows = weight.value().try_index_select_dyn(0, &flat)?;
    let mut out_sizes = isizes(isz);
    out_sizes.push(dim as isize);
    let y = rows.try_reshape_dyn(&out_sizes)?.into_owned().try_into_static::<<S as PushDim<E>>::Out>()?;
    record([weight.node()], y, move |[iw], _| {
        back(move |g: Tensor<T, <S as PushDim<E>>::Out>, s: &mut Sink<T>| {
            s.add_with(iw, || {
                let g2 = g.as_dyn().reshape_dyn(&[count as isize, dim as isize]).into_owned();
                let mut gw = Tensor::<T, DynShape>::full_sized(&[num, dim], T::zero());
                gw.index_add_dyn_(0, &flat, &g2, T::one());
                if let Some(p) = pad {
                    gw.as_view_mut().select_dyn_mut(0, p as isize).fill(T::zero());
                }
                typed::<T, (N, E)>(gw)
            })
        })
    })
}

/// The coordinates of row-major element `k` of a tensor of `sizes`.
fn unravel(mut k: usize, sizes: &[usize]) -> Vec<usize> {
    let mut pos = alloc::vec![0; sizes.len()];
    for (p, &n) in pos.iter_mut().zip(sizes).rev() {
        if n > 0 {
            *p = k % n;
            k /= n;
        }
    }
    pos
}

// ---------------------------------------------------------------------------------------------
// Attention.

/// The shape of `q @ kᵀ` in [`scaled_dot_product_attention`]: `[.., L, S]`.
pub type AttentionScores<Q, K> =
    <Q as MatMulShape<<K as MatrixBatch>::Matrices<<K as MatrixBatch>::Cols, <K as MatrixBatch>::Rows>>>::Out;

/// The shape of [`scaled_dot_product_attention`]'s result: `[.., L, Ev]`.
pub type Attention<Q, K, V> = <AttentionScores<Q, K> as MatMulShape<V>>::Out;

/// Scaled dot-product attention (PyTorch
/// `torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=is_causal)` with no
/// mask, no dropout and the default scale): `softmax(q kᵀ / sqrt(E)) v`, the softmax over the
/// keys. `q` is `[.., L, E]`, `k` `[.., S, E]`, `v` `[.., S, Ev]`, the batch dims broadcasting as
/// `matmul`'s; the result is `[.., L, Ev]`. With `is_causal`, query `i` attends to keys `0..=i`
/// only (PyTorch's mask `ones(L, S).tril()`, aligned to the top left when `L != S`).
///
/// One node; the gradients are computed from the saved attention weights `P`:
/// `dv = Pᵀ g`, `dS = P (g vᵀ - rowsum(P g vᵀ))`, `dq = dS k / sqrt(E)`, `dk = dSᵀ q / sqrt(E)`,
/// each summed over the batch dims its operand was broadcast along. Static shapes whose dims
/// do not fit (`E` of `q` and `k`, `S` of `k` and `v`) are a compile error naming the shapes.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn, Var};
/// let q = Var::constant(Tensor::<f64, Shape![2, 4]>::zeros());
/// let k = Var::constant(Tensor::<f64, Shape![3, 4]>::ones());
/// let v = Var::constant(Tensor::<f64, Shape![3, 1]>::from([[3.], [6.], [9.]]));
/// let o = nn::scaled_dot_product_attention(&q, &k, &v, true); // Shape![2, 1]
/// // Equal scores: query 0 sees key 0 only, query 1 averages keys 0 and 1.
/// assert_eq!(o.value().to_vec(), [3., 4.5]);
/// ```
///
/// # Panics
/// As the errors of [`try_scaled_dot_product_attention`].
#[track_caller]
pub fn scaled_dot_product_attention<'t, T: GradFloat, Q, K, V>(
    q: &Var<'t, T, Q>,
    k: &Var<'t, T, K>,
    v: &Var<'t, T, V>,
    is_causal: bool,
) -> Var<'t, T, Attention<Q, K, V>>
where
    Q: MatrixBatch + MatMulShape<<K as MatrixBatch>::Matrices<<K as MatrixBatch>::Cols, <K as MatrixBatch>::Rows>>,
    K: MatrixBatch,
    V: MatrixBatch,
    AttentionScores<Q, K>: MatMulShape<V>,
{
    try_scaled_dot_product_attention(q, k, v, is_causal).or_panic()
}

/// [`scaled_dot_product_attention`], returning an error instead of panicking.
///
/// # Errors
/// [`ShapeError::Invalid`] for a [`DynShape`] operand of rank below 2; [`ShapeError::MatMul`]
/// when runtime sizes do not fit (`E` of `q` and `k`, `S` of `k` and `v`, batch dims that do not
/// broadcast); [`ShapeError::Autograd`] when the inputs are tracked by two tapes.
pub fn try_scaled_dot_product_attention<'t, T: GradFloat, Q, K, V>(
    q: &Var<'t, T, Q>,
    k: &Var<'t, T, K>,
    v: &Var<'t, T, V>,
    is_causal: bool,
) -> Result<Var<'t, T, Attention<Q, K, V>>, ShapeError>
where
    Q: MatrixBatch + MatMulShape<<K as MatrixBatch>::Matrices<<K as MatrixBatch>::Cols, <K as MatrixBatch>::Rows>>,
    K: MatrixBatch,
    V: MatrixBatch,
    AttentionScores<Q, K>: MatMulShape<V>,
{
    let (qd, kd, vd) = (q.value().as_dyn(), k.value().as_dyn(), v.value().as_dyn());
    for (name, t) in [("query", &qd), ("key", &kd), ("value", &vd)] {
        if t.rank() < 2 {
            return Err(ShapeError::Invalid(format!(
                "scaled_dot_product_attention: the {name} must be [.., n, d] (at least 2 dims), got sizes {:?}",
                t.sizes()
            )));
        }
    }
    let e = qd.sizes()[qd.rank() - 1];
    let scale = T::one() / c::<T>(e as f64).sqrt();
    let mut scores = qd.try_matmul(&kd.transpose_dyn(-2, -1))?;
    scores.map_inplace(move |v| v * scale);
    if is_causal {
        let r = scores.rank();
        let (l, s) = (scores.sizes()[r - 2], scores.sizes()[r - 1]);
        // -inf above the diagonal (key j > query i), 0 on and below it.
        let mask = Tensor::<T, DynShape>::try_full_sized(&[l, s], T::neg_infinity())?.try_triu(1)?;
        scores = scores.zip_with(&mask, |v, m| v + m);
    }
    let p = scores.try_softmax_dyn(-1)?;
    let out = p.try_matmul(&vd)?.try_into_static::<Attention<Q, K, V>>()?;
    let (qa, ka, va) = (q.arc().clone(), k.arc().clone(), v.arc().clone());
    record([q.node(), k.node(), v.node()], out, move |[iq, ik, iv], _| {
        back(move |g: Tensor<T, Attention<Q, K, V>>, s: &mut Sink<T>| {
            let gd = g.as_dyn();
            s.add_with(iv, || {
                let gv = p.as_dyn().transpose_dyn(-2, -1).matmul(&gd);
                sum_to::<T, V>(gv.as_dyn(), va.sizes())
            });
            if iq.is_none() && ik.is_none() {
                return;
            }
            // dS = P (dP - rowsum(dP P)), dP = g vᵀ; the scale folded in once.
            let dp = gd.matmul(&va.as_dyn().transpose_dyn(-2, -1));
            let dot = dp.zip_with(&p, |d, p| d * p).sum_keepdim_dyn(-1);
            let ds = dp.zip_with(&dot, |d, r| d - r).zip_with(&p, move |t, p| t * p * scale);
            s.add_with(iq, || sum_to::<T, Q>(ds.matmul(&ka.as_dyn()).as_dyn(), qa.sizes()));
            s.add_with(ik, || sum_to::<T, K>(ds.transpose_dyn(-2, -1).matmul(&qa.as_dyn()).as_dyn(), ka.sizes()));
        })
    })
}

// ---------------------------------------------------------------------------------------------
// Losses.

/// The sizes check of an element-wise loss: `input` and `target` of the same sizes.
fn same_sizes(op: &'static str, input: &[usize], target: &[usize]) -> Result<(), ShapeError> {
    if input != target {
        return Err(ShapeError::Mismatch {
            op,
            what: "differ: the target must have the input's sizes".into(),
            lhs: input.into(),
            rhs: target.into(),
        });
    }
    Ok(())
}

/// The element-wise losses: each element's loss `f(x, t)` and its derivatives.
#[derive(Clone, Copy)]
enum Pointwise<T> {
    Mse,
    L1,
    Huber(T),
    Bce,
}

impl<T: GradFloat> Pointwise<T> {
    fn name(self) -> &'static str {
        match self {
            Pointwise::Mse => "mse_loss",
            Pointwise::L1 => "l1_loss",
            Pointwise::Huber(_) => "huber_loss",
            Pointwise::Bce => "binary_cross_entropy_with_logits",
        }
    }
    /// The parameter checks and the sizes check.
    fn check(self, input: &[usize], target: &[usize]) -> Result<(), ShapeError> {
        if let Pointwise::Huber(delta) = self {
            if delta.is_nan() || delta <= T::zero() {
                return Err(ShapeError::Invalid(format!("huber_loss: delta must be positive, got {}", delta.as_f64())));
            }
        }
        same_sizes(self.name(), input, target)
    }
    #[inline]
    fn f(self, x: T, t: T) -> T {
        match self {
            Pointwise::Mse => (x - t) * (x - t),
            Pointwise::L1 => (x - t).abs(),
            Pointwise::Huber(delta) => {
                let (z, half) = ((x - t).abs(), c::<T>(0.5));
                if z < delta {
                    half * z * z
                } else {
                    delta * (z - half * delta)
                }
            }
            // The stable form max(x, 0) - x t + ln(1 + exp(-|x|)).
            Pointwise::Bce => {
                let relu = if x > T::zero() { x } else { T::zero() };
                relu - x * t + (-x.abs()).exp().ln_1p()
            }
        }
    }
    #[inline]
    fn dx(self, x: T, t: T) -> T {
        match self {
            Pointwise::Mse => c::<T>(2.0) * (x - t),
            Pointwise::L1 => sign(x - t),
            Pointwise::Huber(delta) => {
                let d = x - t;
                if d < -delta {
                    -delta
                } else if d > delta {
                    delta
                } else {
                    d
                }
            }
            Pointwise::Bce => T::one() / (T::one() + (-x).exp()) - t,
        }
    }
    #[inline]
    fn dt(self, x: T, t: T) -> T {
        match self {
            Pointwise::Bce => -x,
            _ => -self.dx(x, t),
        }
    }
}

/// An element-wise loss `Σ f(x, t)` reduced by `reduction`; `input` and `target` of the same
/// sizes. One node.
fn pointwise_loss<'t, T: GradFloat, S: Shape>(
    kind: Pointwise<T>,
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
    reduction: Reduction,
) -> Result<Var<'t, T, ()>, ShapeError> {
    kind.check(input.sizes(), target.sizes())?;
    let (x, t) = (input.arc().clone(), target.arc().clone());
    let k: T = reduction.scale(x.numel());
    let total = x.zip_with(&*t, |x, t| kind.f(x, t)).sum() * k;
    record([input.node(), target.node()], scalar(total), move |[ix, it], _| {
        back(move |g: Tensor<T, ()>, s: &mut Sink<T>| {
            let gk = g.item() * k;
            s.add_with(ix, || x.zip_with(&*t, move |x, t| gk * kind.dx(x, t)));
            s.add_with(it, || x.zip_with(&*t, move |x, t| gk * kind.dt(x, t)));
        })
    })
}

/// An element-wise loss per element (PyTorch `reduction='none'`), of the input's shape. One node.
fn pointwise_unreduced<'t, T: GradFloat, S: Shape>(
    kind: Pointwise<T>,
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
) -> Result<Var<'t, T, S>, ShapeError> {
    kind.check(input.sizes(), target.sizes())?;
    let (x, t) = (input.arc().clone(), target.arc().clone());
    let out = x.zip_with(&*t, |x, t| kind.f(x, t));
    record([input.node(), target.node()], out, move |[ix, it], _| {
        back(move |g: Tensor<T, S>, s: &mut Sink<T>| {
            s.add_with(ix, || x.zip_with(&*t, |x, t| kind.dx(x, t)).zip_with(&g, |d, g| d * g));
            s.add_with(it, || x.zip_with(&*t, |x, t| kind.dt(x, t)).zip_with(&g, |d, g| d * g));
        })
    })
}

/// The mean (or sum) of the squared differences (PyTorch `torch.nn.functional.mse_loss(input,
/// target, reduction=...)`): `input` and `target` have the same shape; a `Shape![]` value. Both
/// get gradients (`±2 (input - target) / n`).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn::{self, Reduction}, Var};
/// let x = Var::constant(Tensor::<f64, Shape![3]>::from([1., 2., 3.]));
/// let t = Var::constant(Tensor::<f64, Shape![3]>::from([1., 0., 0.]));
/// assert_eq!(nn::mse_loss(&x, &t, Reduction::Mean).item(), 13.0 / 3.0);
/// assert_eq!(nn::mse_loss(&x, &t, Reduction::Sum).item(), 13.0);
/// ```
///
/// # Panics
/// As the errors of [`try_mse_loss`].
#[track_caller]
pub fn mse_loss<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
    reduction: Reduction,
) -> Var<'t, T, ()> {
    try_mse_loss(input, target, reduction).or_panic()
}

/// [`mse_loss`], returning an error instead of panicking.
///
/// # Errors
/// [`ShapeError::Mismatch`] naming both sizes when they differ (`Dyn` dims);
/// [`ShapeError::Autograd`] when the inputs are tracked by two tapes.
pub fn try_mse_loss<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
    reduction: Reduction,
) -> Result<Var<'t, T, ()>, ShapeError> {
    pointwise_loss(Pointwise::Mse, input, target, reduction)
}

/// The sign of `d`, 0 at 0 (and NaN for NaN).
#[inline(always)]
fn sign<T: GradFloat>(d: T) -> T {
    if d > T::zero() {
        T::one()
    } else if d < T::zero() {
        -T::one()
    } else {
        d * T::zero()
    }
}

/// The mean (or sum) of the absolute differences (PyTorch `torch.nn.functional.l1_loss(input,
/// target, reduction=...)`): same shapes, a `Shape![]` value; the gradient is `±sign(input -
/// target) / n`, 0 where they are equal (as PyTorch's).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn::{self, Reduction}, Var};
/// let x = Var::constant(Tensor::<f64, Shape![2]>::from([1., -2.]));
/// let t = Var::constant(Tensor::<f64, Shape![2]>::from([0., 0.]));
/// assert_eq!(nn::l1_loss(&x, &t, Reduction::Mean).item(), 1.5);
/// ```
///
/// # Panics
/// As the errors of [`try_l1_loss`].
#[track_caller]
pub fn l1_loss<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
    reduction: Reduction,
) -> Var<'t, T, ()> {
    try_l1_loss(input, target, reduction).or_panic()
}

/// [`l1_loss`], returning an error instead of panicking.
///
/// # Errors
/// As [`try_mse_loss`].
pub fn try_l1_loss<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
    reduction: Reduction,
) -> Result<Var<'t, T, ()>, ShapeError> {
    pointwise_loss(Pointwise::L1, input, target, reduction)
}

/// The Huber loss (PyTorch `torch.nn.functional.huber_loss(input, target, reduction=...,
/// delta=...)`, default `delta = 1.0`): for `z = |input - target|`, `z² / 2` where `z < delta`
/// and `delta (z - delta / 2)` beyond, reduced to a `Shape![]` value. The gradient is
/// `input - target` clamped to `[-delta, delta]` (negated for the target).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn::{self, Reduction}, Var};
/// let x = Var::constant(Tensor::<f64, Shape![2]>::from([0.5, 3.0]));
/// let t = Var::constant(Tensor::<f64, Shape![2]>::zeros());
/// assert_eq!(nn::huber_loss(&x, &t, Reduction::Sum, 1.0).item(), 0.125 + 2.5);
/// ```
///
/// # Panics
/// As the errors of [`try_huber_loss`].
#[track_caller]
pub fn huber_loss<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
    reduction: Reduction,
    delta: T,
) -> Var<'t, T, ()> {
    try_huber_loss(input, target, reduction, delta).or_panic()
}

/// [`huber_loss`], returning an error instead of panicking.
///
/// # Errors
/// [`ShapeError::Invalid`] for a `delta` that is not positive (PyTorch requires `delta > 0`);
/// otherwise as [`try_mse_loss`].
pub fn try_huber_loss<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
    reduction: Reduction,
    delta: T,
) -> Result<Var<'t, T, ()>, ShapeError> {
    pointwise_loss(Pointwise::Huber(delta), input, target, reduction)
}

/// Binary cross-entropy of logits (PyTorch
/// `torch.nn.functional.binary_cross_entropy_with_logits(input, target, reduction=...)`, without
/// `weight` and `pos_weight`): `-(t ln σ(x) + (1 - t) ln(1 - σ(x)))` in the stable form
/// `max(x, 0) - x t + ln(1 + exp(-|x|))`, reduced to a `Shape![]` value. `input` and `target`
/// (probabilities, soft labels allowed) have the same shape; the gradients are `σ(x) - t` and
/// `-x` (over `n` for the mean).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn::{self, Reduction}, Var};
/// let x = Var::constant(Tensor::<f64, Shape![2]>::from([0.0, 800.0]));
/// let t = Var::constant(Tensor::<f64, Shape![2]>::from([1.0, 1.0]));
/// // ln 2 for the first; the second is exactly 0 (no overflow in exp).
/// let l = nn::binary_cross_entropy_with_logits(&x, &t, Reduction::Sum).item();
/// assert!((l - 2f64.ln()).abs() < 1e-15);
/// ```
///
/// # Panics
/// As the errors of [`try_binary_cross_entropy_with_logits`].
#[track_caller]
pub fn binary_cross_entropy_with_logits<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
    reduction: Reduction,
) -> Var<'t, T, ()> {
    try_binary_cross_entropy_with_logits(input, target, reduction).or_panic()
}

/// [`binary_cross_entropy_with_logits`], returning an error instead of panicking.
///
/// # Errors
/// As [`try_mse_loss`].
pub fn try_binary_cross_entropy_with_logits<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
    reduction: Reduction,
) -> Result<Var<'t, T, ()>, ShapeError> {
    pointwise_loss(Pointwise::Bce, input, target, reduction)
}

/// The options of [`cross_entropy_with`], [`cross_entropy_unreduced_with`], [`nll_loss_with`] and
/// [`nll_loss_unreduced_with`]: PyTorch's keyword arguments `weight`, `ignore_index` and
/// `label_smoothing`, with PyTorch's defaults from [`Default`] (no weights, `ignore_index =
/// -100`, no smoothing).
#[derive(Clone, Debug)]
pub struct ClassLossOptions<T: GradFloat, C: Dim> {
    /// One weight per class, `[C]` (PyTorch `weight=`): a row's loss is scaled by its target's
    /// weight, and the mean divides by the sum of the counted rows' target weights.
    pub weight: Option<Tensor<T, (C,)>>,
    /// A target value whose rows count for nothing: no loss, no gradient, and not in the mean's
    /// divisor (PyTorch `ignore_index=`, default `-100`). `None` refuses every target outside
    /// `0..C`.
    pub ignore_index: Option<i64>,
    /// `ε` in `[0, 1]`: the target distribution is `(1 - ε) onehot + ε / C` (PyTorch
    /// `label_smoothing=`; [`cross_entropy_with`] only, `0.0` for the NLL losses).
    pub label_smoothing: T,
}

impl<T: GradFloat, C: Dim> Default for ClassLossOptions<T, C> {
    fn default() -> Self {
        ClassLossOptions { weight: None, ignore_index: Some(-100), label_smoothing: T::zero() }
    }
}

/// What a class loss's rows need: per row `i` and class `c` the coefficient `q[i, c]` of
/// `-input[i, c]` (of `-log_softmax(input)[i, c]` for cross-entropy), with the class weights,
/// the smoothing and the ignored rows folded in; each row's sum of `q`; and the mean's divisor.
struct ClassRows<T: GradFloat> {
    q: Tensor<T, DynShape>,
    qsum: Vec<T>,
    divisor: T,
}

/// Checks the targets and options of a class loss and builds its [`ClassRows`].
fn class_rows<T: GradFloat, N: Dim, C: Dim>(
    op: &'static str,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    rows: usize,
    classes: usize,
    opts: &ClassLossOptions<T, C>,
    log_probs: bool,
) -> Result<ClassRows<T>, ShapeError> {
    if targets.sizes()[0] != rows {
        return Err(ShapeError::Mismatch {
            op,
            what: "differ: one target per row of the input".into(),
            lhs: alloc::vec![targets.sizes()[0]],
            rhs: alloc::vec![rows],
        });
    }
    let eps = opts.label_smoothing;
    if eps.is_nan() || eps < T::zero() || eps > T::one() {
        return Err(ShapeError::Invalid(format!(
            "{op}: label_smoothing must be between 0.0 and 1.0, got {}",
            eps.as_f64()
        )));
    }
    if !log_probs && eps != T::zero() {
        return Err(ShapeError::Invalid(format!("{op}: label_smoothing is cross_entropy's; it must be 0.0 here")));
    }
    let weight: Vec<T> = match &opts.weight {
        Some(w) => {
            check_len(op, "weight", w.numel(), classes, "class")?;
            w.to_vec()
        }
        None => alloc::vec![T::one(); classes],
    };
    // The input's element count: it exists, so the product does not overflow.
    let mut q: Vec<T> = crate::memory::try_vec(rows * classes, T::zero())?;
    let mut qsum = alloc::vec![T::zero(); rows];
    let mut divisor = T::zero();
    let (keep, spread) = (T::one() - eps, eps / c::<T>(classes as f64));
    for (i, &v) in targets.iter().enumerate() {
        let (wide, at) = (v.to_i128(), v.to_index());
        if opts.ignore_index.is_some_and(|k| i128::from(k) == wide) {
            continue;
        }
        if wide < 0 || at as usize >= classes {
            return Err(ShapeError::Invalid(format!(
                "{op}: target {wide} at position {i} is out of bounds: the classes are 0..{classes}"
            )));
        }
        let (y, row) = (at as usize, &mut q[i * classes..(i + 1) * classes]);
        if eps != T::zero() {
            for (qc, &wc) in row.iter_mut().zip(&weight) {
                *qc = spread * wc;
            }
        }
        row[y] += keep * weight[y];
        qsum[i] = row.iter().fold(T::zero(), |a, &b| a + b);
        divisor += weight[y];
    }
    Ok(ClassRows { q: Tensor::<T, DynShape>::from_vec(&[rows, classes], q), qsum, divisor })
}

/// A class loss's per-row values `-Σ_c q[i, c] z[i, c]` (`z` the log-probabilities) and the
/// gradient of `Σ_i g_i loss_i` for per-row factors `g` (`s_i softmax - q` for cross-entropy, `-q`
/// for the NLL losses; rows with no weight get none).
fn class_loss_parts<T: GradFloat, N: Dim, C: Dim>(
    op: &'static str,
    input: &Var<'_, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    opts: &ClassLossOptions<T, C>,
    log_softmax: bool,
) -> Result<(Tensor<T, DynShape>, impl Fn(&[T]) -> Tensor<T, (N, C)> + Send + Sync + 'static, T), ShapeError> {
    let (rows, classes) = (input.sizes()[0], input.sizes()[1]);
    let ClassRows { q, qsum, divisor } = class_rows(op, targets, rows, classes, opts, log_softmax)?;
    let z =
        if log_softmax { input.value().try_log_softmax::<1>()?.into_dyn() } else { input.value().as_dyn().to_owned() };
    // 0 · (-inf) is 0 here: a class with no weight adds nothing, even at probability 0.
    let per_row = z.zip_with(&q, |l, q| if q == T::zero() { T::zero() } else { -(l * q) }).sum_axis_dyn(1);
    let grad = move |g: &[T]| {
        let (z, q, qsum) = (&z, &q, &qsum);
        let data: Vec<T> = (0..rows)
            .flat_map(|i| {
                let (zr, qr) =
                    (&z.storage()[i * classes..(i + 1) * classes], &q.storage()[i * classes..(i + 1) * classes]);
                let (gi, si) = (g[i], qsum[i]);
                zr.iter().zip(qr).map(move |(&l, &qc)| {
                    if si == T::zero() {
                        T::zero()
                    } else if log_softmax {
                        gi * (si * l.exp() - qc)
                    } else {
                        -(gi * qc)
                    }
                })
            })
            .collect();
        typed::<T, (N, C)>(Tensor::<T, DynShape>::from_vec(&[rows, classes], data))
    };
    Ok((per_row, grad, divisor))
}

/// A class loss reduced to a `Shape![]` value: one node.
fn class_loss_reduced<'t, T: GradFloat, N: Dim, C: Dim>(
    op: &'static str,
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    reduction: Reduction,
    opts: &ClassLossOptions<T, C>,
    log_softmax: bool,
) -> Result<Var<'t, T, ()>, ShapeError> {
    let (per_row, grad, divisor) = class_loss_parts(op, input, targets, opts, log_softmax)?;
    let k = match reduction {
        Reduction::Mean => T::one() / divisor,
        Reduction::Sum => T::one(),
    };
    let rows = per_row.numel();
    let total = per_row.sum() * k;
    record([input.node()], scalar(total), move |[i], _| {
        back(move |g: Tensor<T, ()>, s: &mut Sink<T>| {
            let gk = g.item() * k;
            s.add_with(i, || grad(&alloc::vec![gk; rows]))
        })
    })
}

/// A class loss per row, `[N]`: one node.
fn class_loss_unreduced<'t, T: GradFloat, N: Dim, C: Dim>(
    op: &'static str,
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    opts: &ClassLossOptions<T, C>,
    log_softmax: bool,
) -> Result<Var<'t, T, (N,)>, ShapeError> {
    let (per_row, grad, _) = class_loss_parts(op, input, targets, opts, log_softmax)?;
    record([input.node()], typed::<T, (N,)>(per_row), move |[i], _| {
        back(move |g: Tensor<T, (N,)>, s: &mut Sink<T>| s.add_with(i, || grad(&g.to_vec())))
    })
}

/// Cross-entropy of unnormalised scores against class indices (PyTorch
/// `torch.nn.functional.cross_entropy(input, target, reduction=..., label_smoothing=...)`;
/// defaults `Reduction::Mean`, `0.0`): `input` `[N, C]`, `targets` `[N]` of class indices (any
/// integer type) give a `Shape![]` value, `-Σ_c q_c log_softmax(input)_c` per row, where `q` is
/// the one-hot target mixed with the uniform distribution: `q = (1 - ε) onehot + ε / C` for
/// `label_smoothing = ε`. The mean is over the `N` rows. One node (fused log-softmax and NLL):
/// the gradient is `softmax(input) - q` (over `N` for the mean). Every target must be a class:
/// class weights and `ignore_index` are [`cross_entropy_with`]'s, `reduction='none'`
/// [`cross_entropy_unreduced_with`].
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn::{self, Reduction}, Tape};
/// let tape = Tape::new();
/// let logits = tape.var(Tensor::<f64, Shape![2, 3]>::from([[0., 0., 0.], [10., 0., 0.]]));
/// let targets = Tensor::<i64, Shape![2]>::from([1, 0]);
/// let loss = nn::cross_entropy(&logits, &targets, Reduction::Sum, 0.0);
/// assert!((loss.item() - (3f64.ln() + (1.0 + 2.0 * (-10f64).exp()).ln())).abs() < 1e-12);
/// let g = loss.backward();
/// let g0 = &g.wrt(&logits).unwrap().to_vec()[..3];
/// assert!((g0[0] - 1. / 3.).abs() < 1e-12 && (g0[1] + 2. / 3.).abs() < 1e-12);
/// ```
///
/// # Panics
/// As the errors of [`try_cross_entropy`].
#[track_caller]
pub fn cross_entropy<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    reduction: Reduction,
    label_smoothing: T,
) -> Var<'t, T, ()> {
    try_cross_entropy(input, targets, reduction, label_smoothing).or_panic()
}

/// [`cross_entropy`], returning an error instead of panicking.
///
/// # Errors
/// [`ShapeError::Invalid`] naming the first target outside `0..C` and its position, or a
/// `label_smoothing` outside `[0, 1]`; [`ShapeError::Mismatch`] when `targets` does not have `N`
/// elements (at run time, for a `Dyn` dim); [`ShapeError::Alloc`].
pub fn try_cross_entropy<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    reduction: Reduction,
    label_smoothing: T,
) -> Result<Var<'t, T, ()>, ShapeError> {
    let opts = ClassLossOptions::<T, C> { weight: None, ignore_index: None, label_smoothing };
    class_loss_reduced("cross_entropy", input, targets, reduction, &opts, true)
}

/// The negative log-likelihood of class indices (PyTorch `torch.nn.functional.nll_loss(input,
/// target, reduction=...)`): `input` `[N, C]` of log-probabilities, `targets` `[N]` of class
/// indices give a `Shape![]` value, `-Σ_i input[i, targets[i]]` (over `N` for the mean). The
/// gradient is `-1` (over `N`) at each row's target, 0 elsewhere. Class weights and
/// `ignore_index` are [`nll_loss_with`]'s, `reduction='none'` [`nll_loss_unreduced`].
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn::{self, Reduction}, Var};
/// let lp = Var::constant(Tensor::<f64, Shape![2, 2]>::from([[-0.1, -2.0], [-3.0, -0.5]]));
/// let l = nn::nll_loss(&lp, &Tensor::<i64, Shape![2]>::from([0, 1]), Reduction::Mean);
/// assert!((l.item() - 0.3).abs() < 1e-15);
/// ```
///
/// # Panics
/// As the errors of [`try_nll_loss`].
#[track_caller]
pub fn nll_loss<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    reduction: Reduction,
) -> Var<'t, T, ()> {
    try_nll_loss(input, targets, reduction).or_panic()
}

/// [`nll_loss`], returning an error instead of panicking.
///
/// # Errors
/// [`ShapeError::Invalid`] naming the first target outside `0..C` and its position;
/// [`ShapeError::Mismatch`] when `targets` does not have `N` elements; [`ShapeError::Alloc`].
pub fn try_nll_loss<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    reduction: Reduction,
) -> Result<Var<'t, T, ()>, ShapeError> {
    let opts = ClassLossOptions::<T, C> { weight: None, ignore_index: None, label_smoothing: T::zero() };
    class_loss_reduced("nll_loss", input, targets, reduction, &opts, false)
}

/// Cross-entropy with PyTorch's full options (PyTorch
/// `torch.nn.functional.cross_entropy(input, target, weight=..., ignore_index=...,
/// reduction=..., label_smoothing=...)`): `input` `[N, C]` of unnormalised scores, `targets`
/// `[N]` of class indices give a `Shape![]` value. Row `i` with target `y` (not `ignore_index`)
/// loses `-Σ_c q_c log_softmax(input)_c` with `q_c = (1 - ε) w_y [c = y] + ε w_c / C` (`w` the
/// class weights, all 1 without them); the mean divides the sum by `Σ w_y` over the counted rows,
/// as PyTorch's (NaN when no row counts). One node.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn::{self, ClassLossOptions, Reduction}, Tape};
/// let tape = Tape::new();
/// let x = tape.var(Tensor::<f64, Shape![3, 2]>::from([[0., 0.], [0., 0.], [5., 0.]]));
/// let targets = Tensor::<i64, Shape![3]>::from([0, 1, -100]); // the last row is ignored
/// let opts = ClassLossOptions { weight: Some(Tensor::from([1.0, 3.0])), ..Default::default() };
/// let loss = nn::cross_entropy_with(&x, &targets, Reduction::Mean, &opts);
/// // (1 ln 2 + 3 ln 2) / (1 + 3)
/// assert!((loss.item() - 2f64.ln()).abs() < 1e-12);
/// ```
///
/// # Panics
/// As the errors of [`try_cross_entropy_with`].
#[track_caller]
pub fn cross_entropy_with<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    reduction: Reduction,
    opts: &ClassLossOptions<T, C>,
) -> Var<'t, T, ()> {
    try_cross_entropy_with(input, targets, reduction, opts).or_panic()
}

/// [`cross_entropy_with`], returning an error instead of panicking.
///
/// # Errors
/// [`ShapeError::Invalid`] naming the first target that is neither `ignore_index` nor in
/// `0..C`, and its position, or a `label_smoothing` outside `[0, 1]`; [`ShapeError::Mismatch`]
/// when `targets` does not have `N` elements or the weight not `C` (runtime sizes);
/// [`ShapeError::Alloc`].
pub fn try_cross_entropy_with<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    reduction: Reduction,
    opts: &ClassLossOptions<T, C>,
) -> Result<Var<'t, T, ()>, ShapeError> {
    class_loss_reduced("cross_entropy", input, targets, reduction, opts, true)
}

/// Cross-entropy per row, `[N]` (PyTorch `torch.nn.functional.cross_entropy(...,
/// reduction='none')`): each row's loss as in [`cross_entropy_with`], weighted, 0 for an ignored
/// row (not divided by anything). One node.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn::{self, ClassLossOptions}, Var};
/// let x = Var::constant(Tensor::<f64, Shape![2, 2]>::from([[0., 0.], [0., 0.]]));
/// let l = nn::cross_entropy_unreduced_with(&x, &Tensor::<i64, Shape![2]>::from([1, -100]), &ClassLossOptions::default());
/// assert_eq!(l.value().to_vec(), [2f64.ln(), 0.0]);
/// ```
///
/// # Panics
/// As the errors of [`try_cross_entropy_unreduced_with`].
#[track_caller]
pub fn cross_entropy_unreduced_with<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    opts: &ClassLossOptions<T, C>,
) -> Var<'t, T, (N,)> {
    try_cross_entropy_unreduced_with(input, targets, opts).or_panic()
}

/// [`cross_entropy_unreduced_with`], returning an error instead of panicking.
///
/// # Errors
/// As [`try_cross_entropy_with`].
pub fn try_cross_entropy_unreduced_with<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    opts: &ClassLossOptions<T, C>,
) -> Result<Var<'t, T, (N,)>, ShapeError> {
    class_loss_unreduced("cross_entropy", input, targets, opts, true)
}

/// Cross-entropy per row, `[N]` (PyTorch `torch.nn.functional.cross_entropy(input, target,
/// reduction='none', label_smoothing=...)`): the arguments of [`cross_entropy`] without the
/// reduction. Class weights and `ignore_index` are [`cross_entropy_unreduced_with`]'s.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn, Var};
/// let x = Var::constant(Tensor::<f64, Shape![2, 2]>::from([[0., 0.], [1., 0.]]));
/// let l = nn::cross_entropy_unreduced(&x, &Tensor::<i64, Shape![2]>::from([1, 0]), 0.0);
/// assert_eq!(l.value().to_vec()[0], 2f64.ln());
/// ```
///
/// # Panics
/// As the errors of [`try_cross_entropy_unreduced`].
#[track_caller]
pub fn cross_entropy_unreduced<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    label_smoothing: T,
) -> Var<'t, T, (N,)> {
    try_cross_entropy_unreduced(input, targets, label_smoothing).or_panic()
}

/// [`cross_entropy_unreduced`], returning an error instead of panicking.
///
/// # Errors
/// As [`try_cross_entropy`].
pub fn try_cross_entropy_unreduced<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    label_smoothing: T,
) -> Result<Var<'t, T, (N,)>, ShapeError> {
    let opts = ClassLossOptions::<T, C> { weight: None, ignore_index: None, label_smoothing };
    class_loss_unreduced("cross_entropy", input, targets, &opts, true)
}

/// The negative log-likelihood per row, `[N]` (PyTorch `torch.nn.functional.nll_loss(input,
/// target, reduction='none')`): the arguments of [`nll_loss`] without the reduction. Class
/// weights and `ignore_index` are [`nll_loss_unreduced_with`]'s.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn, Var};
/// let lp = Var::constant(Tensor::<f64, Shape![2, 2]>::from([[-0.1, -2.0], [-3.0, -0.5]]));
/// let l = nn::nll_loss_unreduced(&lp, &Tensor::<i64, Shape![2]>::from([1, 0]));
/// assert_eq!(l.value().to_vec(), [2.0, 3.0]);
/// ```
///
/// # Panics
/// As the errors of [`try_nll_loss_unreduced`].
#[track_caller]
pub fn nll_loss_unreduced<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
) -> Var<'t, T, (N,)> {
    try_nll_loss_unreduced(input, targets).or_panic()
}

/// [`nll_loss_unreduced`], returning an error instead of panicking.
///
/// # Errors
/// As [`try_nll_loss`].
pub fn try_nll_loss_unreduced<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
) -> Result<Var<'t, T, (N,)>, ShapeError> {
    let opts = ClassLossOptions::<T, C> { weight: None, ignore_index: None, label_smoothing: T::zero() };
    class_loss_unreduced("nll_loss", input, targets, &opts, false)
}

/// The negative log-likelihood with class weights and `ignore_index` (PyTorch
/// `torch.nn.functional.nll_loss(input, target, weight=..., ignore_index=..., reduction=...)`):
/// `input` `[N, C]` of log-probabilities; row `i` with target `y` loses `-w_y input[i, y]`, and the
/// mean divides by `Σ w_y` over the counted rows. `opts.label_smoothing` must be `0.0`.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn::{self, ClassLossOptions, Reduction}, Var};
/// let lp = Var::constant(Tensor::<f64, Shape![2, 2]>::from([[-0.1, -2.0], [-3.0, -0.5]]));
/// let opts = ClassLossOptions { weight: Some(Tensor::from([2.0, 1.0])), ..Default::default() };
/// let l = nn::nll_loss_with(&lp, &Tensor::<i64, Shape![2]>::from([0, 1]), Reduction::Mean, &opts);
/// assert!((l.item() - (2.0 * 0.1 + 0.5) / 3.0).abs() < 1e-15);
/// ```
///
/// # Panics
/// As the errors of [`try_nll_loss_with`].
#[track_caller]
pub fn nll_loss_with<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    reduction: Reduction,
    opts: &ClassLossOptions<T, C>,
) -> Var<'t, T, ()> {
    try_nll_loss_with(input, targets, reduction, opts).or_panic()
}

/// [`nll_loss_with`], returning an error instead of panicking.
///
/// # Errors
/// As [`try_cross_entropy_with`], and [`ShapeError::Invalid`] for a nonzero `label_smoothing`.
pub fn try_nll_loss_with<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    reduction: Reduction,
    opts: &ClassLossOptions<T, C>,
) -> Result<Var<'t, T, ()>, ShapeError> {
    class_loss_reduced("nll_loss", input, targets, reduction, opts, false)
}

/// The negative log-likelihood per row, `[N]` (PyTorch `torch.nn.functional.nll_loss(...,
/// reduction='none')`): `-w_y input[i, y]`, 0 for an ignored row.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn::{self, ClassLossOptions}, Var};
/// let lp = Var::constant(Tensor::<f64, Shape![2, 2]>::from([[-0.1, -2.0], [-3.0, -0.5]]));
/// let l = nn::nll_loss_unreduced_with(&lp, &Tensor::<i64, Shape![2]>::from([1, 0]), &ClassLossOptions::default());
/// assert_eq!(l.value().to_vec(), [2.0, 3.0]);
/// ```
///
/// # Panics
/// As the errors of [`try_nll_loss_unreduced_with`].
#[track_caller]
pub fn nll_loss_unreduced_with<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    opts: &ClassLossOptions<T, C>,
) -> Var<'t, T, (N,)> {
    try_nll_loss_unreduced_with(input, targets, opts).or_panic()
}

/// [`nll_loss_unreduced_with`], returning an error instead of panicking.
///
/// # Errors
/// As [`try_nll_loss_with`].
pub fn try_nll_loss_unreduced_with<'t, T: GradFloat, N: Dim, C: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N,)>,
    opts: &ClassLossOptions<T, C>,
) -> Result<Var<'t, T, (N,)>, ShapeError> {
    class_loss_unreduced("nll_loss", input, targets, opts, false)
}

/// [`mse_loss`] per element, of the input's shape `S` (PyTorch `torch.nn.functional.mse_loss(..., reduction='none')`):
/// each element's loss, and its gradient times the seed's element. One node.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn, Var};
/// let x = Var::constant(Tensor::<f64, Shape![3]>::from([1., 2., 3.]));
/// let t = Var::constant(Tensor::<f64, Shape![3]>::from([1., 0., 0.]));
/// assert_eq!(nn::mse_loss_unreduced(&x, &t).value().to_vec(), [0., 4., 9.]);
/// ```
///
/// # Panics
/// As the errors of [`try_mse_loss_unreduced`].
#[track_caller]
pub fn mse_loss_unreduced<'t, T: GradFloat, S: Shape>(input: &Var<'t, T, S>, target: &Var<'t, T, S>) -> Var<'t, T, S> {
    try_mse_loss_unreduced(input, target).or_panic()
}

/// [`mse_loss_unreduced`], returning an error instead of panicking.
///
/// # Errors
/// As [`try_mse_loss`].
pub fn try_mse_loss_unreduced<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
) -> Result<Var<'t, T, S>, ShapeError> {
    pointwise_unreduced(Pointwise::Mse, input, target)
}

/// [`l1_loss`] per element, of the input's shape `S` (PyTorch `torch.nn.functional.l1_loss(..., reduction='none')`):
/// each element's loss, and its gradient times the seed's element. One node.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn, Var};
/// let x = Var::constant(Tensor::<f64, Shape![2]>::from([1., -2.]));
/// let t = Var::constant(Tensor::<f64, Shape![2]>::from([0., 0.]));
/// assert_eq!(nn::l1_loss_unreduced(&x, &t).value().to_vec(), [1., 2.]);
/// ```
///
/// # Panics
/// As the errors of [`try_l1_loss_unreduced`].
#[track_caller]
pub fn l1_loss_unreduced<'t, T: GradFloat, S: Shape>(input: &Var<'t, T, S>, target: &Var<'t, T, S>) -> Var<'t, T, S> {
    try_l1_loss_unreduced(input, target).or_panic()
}

/// [`l1_loss_unreduced`], returning an error instead of panicking.
///
/// # Errors
/// As [`try_l1_loss`].
pub fn try_l1_loss_unreduced<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
) -> Result<Var<'t, T, S>, ShapeError> {
    pointwise_unreduced(Pointwise::L1, input, target)
}

/// [`huber_loss`] per element, of the input's shape `S` (PyTorch `torch.nn.functional.huber_loss(..., reduction='none')`):
/// each element's loss, and its gradient times the seed's element. One node.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn, Var};
/// let x = Var::constant(Tensor::<f64, Shape![2]>::from([0.5, 3.0]));
/// let t = Var::constant(Tensor::<f64, Shape![2]>::zeros());
/// assert_eq!(nn::huber_loss_unreduced(&x, &t, 1.0).value().to_vec(), [0.125, 2.5]);
/// ```
///
/// # Panics
/// As the errors of [`try_huber_loss_unreduced`].
#[track_caller]
pub fn huber_loss_unreduced<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
    delta: T,
) -> Var<'t, T, S> {
    try_huber_loss_unreduced(input, target, delta).or_panic()
}

/// [`huber_loss_unreduced`], returning an error instead of panicking.
///
/// # Errors
/// As [`try_huber_loss`].
pub fn try_huber_loss_unreduced<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
    delta: T,
) -> Result<Var<'t, T, S>, ShapeError> {
    pointwise_unreduced(Pointwise::Huber(delta), input, target)
}

/// [`binary_cross_entropy_with_logits`] per element, of the input's shape `S` (PyTorch `torch.nn.functional.binary_cross_entropy_with_logits(..., reduction='none')`):
/// each element's loss, and its gradient times the seed's element. One node.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn, Var};
/// let x = Var::constant(Tensor::<f64, Shape![2]>::from([0.0, 800.0]));
/// let t = Var::constant(Tensor::<f64, Shape![2]>::from([1.0, 1.0]));
/// assert_eq!(nn::binary_cross_entropy_with_logits_unreduced(&x, &t).value().to_vec(), [2f64.ln(), 0.0]);
/// ```
///
/// # Panics
/// As the errors of [`try_binary_cross_entropy_with_logits_unreduced`].
#[track_caller]
pub fn binary_cross_entropy_with_logits_unreduced<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
) -> Var<'t, T, S> {
    try_binary_cross_entropy_with_logits_unreduced(input, target).or_panic()
}

/// [`binary_cross_entropy_with_logits_unreduced`], returning an error instead of panicking.
///
/// # Errors
/// As [`try_binary_cross_entropy_with_logits`].
pub fn try_binary_cross_entropy_with_logits_unreduced<'t, T: GradFloat, S: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S>,
) -> Result<Var<'t, T, S>, ShapeError> {
    pointwise_unreduced(Pointwise::Bce, input, target)
}
