//! The functional layer of a network, differentiable (PyTorch `torch.nn.functional`): free
//! functions over [`Var`]s with typed result shapes.
//!
//! * Layers: [`linear`], [`layer_norm`] (over the last dim), [`batch_norm`] (training and
//!   evaluation, running statistics updated in place), [`dropout`] (feature `rand`),
//!   [`embedding`], [`scaled_dot_product_attention`].
//! * Losses, each a `Shape![]` value reduced by a [`Reduction`] (PyTorch's default is
//!   [`Reduction::Mean`]) or per element for [`Unreduced`] (`reduction='none'`): [`mse_loss`], [`l1_loss`], [`huber_loss`], [`cross_entropy`] (class
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
use shaped_macros::try_twin;

/// How a loss reduces its per-element values to one (PyTorch's `reduction=` argument): a
/// `Shape![]` result. PyTorch's `'none'`, which changes the result's shape, is [`Unreduced`], the
/// other value of the same argument ([`LossReduction`]). The default is
/// [`Mean`](Reduction::Mean), as PyTorch's.
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

/// PyTorch's `reduction='none'`: a loss given `Unreduced` as its reduction returns each
/// element's loss (the input's shape `S` for the point-wise losses, `[N]` for the class losses)
/// instead of a `Shape![]` value, and its gradient is each element's gradient times the seed's
/// element.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn::{self, Reduction, Unreduced}, Var};
/// let x = Var::constant(Tensor::<f64, Shape![3]>::from([1., 2., 3.]));
/// let t = Var::constant(Tensor::<f64, Shape![3]>::from([1., 0., 0.]));
/// let per: Var<f64, Shape![3]> = nn::mse_loss(&x, &t, Unreduced);
/// assert_eq!(per.value().to_vec(), [0., 4., 9.]);
/// let sum: Var<f64, Shape![]> = nn::mse_loss(&x, &t, Reduction::Sum);
/// assert_eq!(sum.item(), 13.0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Unreduced;

mod sealed {
    pub trait Reduce {}
    impl Reduce for super::Reduction {}
    impl Reduce for super::Unreduced {}
}

/// The reduction argument of a loss, one value of either type: a [`Reduction`] (`Mean` or
/// `Sum`: a `Shape![]` result) or [`Unreduced`] (PyTorch's `reduction='none'`: the per-element
/// losses, of shape `S`). Sealed.
pub trait LossReduction<S: Shape>: sealed::Reduce + Copy {
    /// The loss's shape: `()` for [`Reduction`], `S` for [`Unreduced`].
    type Out: Shape;
    /// Runs `reduced` (with the reduction) or `unreduced`, whichever this value names.
    #[doc(hidden)]
    fn pick<'t, T: GradFloat>(
        self,
        reduced: impl FnOnce(Reduction) -> Result<Var<'t, T, ()>, ShapeError>,
        unreduced: impl FnOnce() -> Result<Var<'t, T, S>, ShapeError>,
    ) -> Result<Var<'t, T, Self::Out>, ShapeError>;
}
impl<S: Shape> LossReduction<S> for Reduction {
    type Out = ();
    fn pick<'t, T: GradFloat>(
        self,
        reduced: impl FnOnce(Reduction) -> Result<Var<'t, T, ()>, ShapeError>,
        _: impl FnOnce() -> Result<Var<'t, T, S>, ShapeError>,
    ) -> Result<Var<'t, T, ()>, ShapeError> {
        reduced(self)
    }
}
impl<S: Shape> LossReduction<S> for Unreduced {
    type Out = S;
    fn pick<'t, T: GradFloat>(
        self,
        _: impl FnOnce(Reduction) -> Result<Var<'t, T, ()>, ShapeError>,
        unreduced: impl FnOnce() -> Result<Var<'t, T, S>, ShapeError>,
    ) -> Result<Var<'t, T, S>, ShapeError> {
        unreduced()
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
        return Err(ShapeError::mismatch(
            op,
            format!("differ: the {what} must have one element per {dim}"),
            &[len],
            &[n],
        ));
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
/// # Errors
/// [`ShapeError::MatMul`] when `x`'s last size differs from the weight's `in` at run time (a
/// `Dyn` dim), or `x` is 0-d; [`ShapeError::Mismatch`] when the bias's length is not `out`;
/// [`ShapeError::Autograd`] when the inputs are tracked by two tapes.
#[try_twin(free, doc = "`x @ weight.T + bias` (PyTorch `torch.nn.functional.linear`), differentiable.")]
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
                typed::<T, (O, I)>(g2.transpose(0, 1).matmul(&x2))
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
/// # Errors
/// [`ShapeError::Axis`] for a 0-d [`DynShape`] input; [`ShapeError::Mismatch`] when the weight or
/// bias length is not `x`'s last size (at run time, for a `Dyn` dim); [`ShapeError::Autograd`]
/// when the inputs are tracked by two tapes.
#[try_twin(
    free,
    doc = "Layer normalisation over the last dim (PyTorch `torch.nn.functional.layer_norm(x, (d,), weight, bias, eps)` with `normalized_shape` the last size only)."
)]
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
    // Without a tracked input there is no backward pass to keep the statistics for.
    let keep = x.node().is_some() || node_of(weight).is_some() || node_of(bias).is_some();
    let (kept, y) = match layer_norm_rows(&xd, d, eps, weight, bias, keep)? {
        Some((mean, rstd, y)) => (Kept::Rows { x: x.arc().clone(), mean, rstd }, y),
        None => {
            let mean = xd.try_mean_keepdim(-1)?;
            let xc = xd.zip_with(&mean, |v, m| v - m);
            let var = xc.map(|v| v * v).try_mean_keepdim(-1)?;
            let rstd = var.map(move |v| T::one() / (v + eps).sqrt());
            let xhat = xc.zip_with(&rstd, |v, r| v * r);
            let y = affine(&xhat, weight.map(|w| w.value().as_dyn()), bias.map(|b| b.value().as_dyn()));
            (Kept::Tensors(alloc::boxed::Box::new([xhat, rstd])), y)
        }
    };
    let y = typed::<T, S>(y);
    let wa = weight.map(|w| w.arc().clone());
    record([x.node(), node_of(weight), node_of(bias)], y, move |[ix, iw, ib], _| {
        back(move |g: Tensor<T, S>, s: &mut Sink<T>| {
            // A broadcast seed (`.sum().backward()`) is copied into rows first: the row kernel
            // reads contiguous rows.
            let g = if g.is_contiguous() { g } else { typed::<T, S>(g.as_dyn().to_owned()) };
            let gd = g.as_dyn();
            let w = wa.as_ref().map(|w| crate::kernels::contiguous_slice(w.data.as_slice(), w.layout()));
            let gs = crate::kernels::contiguous_slice(g.data.as_slice(), g.layout());
            // The rows the kernel reads: `x` with each row's mean (the fused forward's), or `x̂`.
            let (xs, mean, rs) = match &kept {
                Kept::Rows { x, mean, rstd } => {
                    (crate::kernels::contiguous_slice(x.data.as_slice(), x.layout()), Some(&mean[..]), Some(&rstd[..]))
                }
                Kept::Tensors(t) => (
                    crate::kernels::contiguous_slice(t[0].data.as_slice(), t[0].layout()),
                    None,
                    crate::kernels::contiguous_slice(t[1].data.as_slice(), t[1].layout()),
                ),
            };
            if let (Some(gs), Some(xs), Some(rs), true) = (gs, xs, rs, w.is_none_or(|w| w.is_some())) {
                if d > 0 && !gs.is_empty() {
                    // Contiguous rows (the common case): the three gradients in one pass.
                    // The kernel writes every element of the input's gradient (a cached buffer's old
                    // values never show: `tests/buffer_cache.rs`).
                    let mut input = ix.map(|_| crate::memory::try_vec_for_overwrite(gs.len()).or_panic());
                    let (mut wg, mut bg) =
                        (iw.map(|_| alloc::vec![T::zero(); d]), ib.map(|_| alloc::vec![T::zero(); d]));
                    let grads = crate::kernels::norm::LayerNormGrads {
                        input: input.as_deref_mut(),
                        weight: wg.as_deref_mut(),
                        bias: bg.as_deref_mut(),
                    };
                    crate::kernels::norm::layer_norm_backward(gs, xs, (mean, rs), w.flatten(), d, grads);
                    let sizes = gd.sizes();
                    s.add_with(iw, || typed::<T, (D,)>(Tensor::<T, DynShape>::from_vec(&[d], wg.unwrap_or_default())));
                    s.add_with(ib, || typed::<T, (D,)>(Tensor::<T, DynShape>::from_vec(&[d], bg.unwrap_or_default())));
                    s.add_with(ix, || typed::<T, S>(Tensor::<T, DynShape>::from_vec(sizes, input.unwrap_or_default())));
                    return;
                }
            }
            // The tensor form (only after the tensor form's forward: the fused one's rows are
            // contiguous and not empty).
            let Kept::Tensors(t) = &kept else {
                unreachable!("layer_norm: the fused forward's rows are contiguous and not empty")
            };
            let [xhat, rstd] = &**t;
            s.add_with(iw, || sum_to::<T, (D,)>(gd.zip_with(xhat, |g, h| g * h).as_dyn(), &[d]));
            s.add_with(ib, || sum_to::<T, (D,)>(gd, &[d]));
            s.add_with(ix, || {
                let gh = match &wa {
                    Some(w) => gd.zip_with(&w.as_dyn(), |g, w| g * w),
                    None => gd.to_owned(),
                };
                let m1 = gh.mean_keepdim(-1);
                let m2 = gh.zip_with(xhat, |g, h| g * h).mean_keepdim(-1);
                typed::<T, S>(normalized_grad(&gh, xhat, &m1, &m2, rstd))
            });
        })
    })
}

/// What `layer_norm`'s backward pass reads.
enum Kept<T: GradFloat, S: Shape> {
    /// After the fused forward: the input (contiguous rows) and each row's mean and `rstd`, from
    /// which the kernel recomputes `x̂` to the forward's bits (PyTorch keeps the same two
    /// statistics): no buffer of the input's size besides the output.
    Rows { x: Arc<Tensor<T, S>>, mean: Vec<T>, rstd: Vec<T> },
    /// After the tensor form: `x̂` and `rstd` (the input's sizes with the last 1), boxed (the
    /// rarer case).
    Tensors(alloc::boxed::Box<[Tensor<T, DynShape>; 2]>),
}

/// `(mean, rstd, y)` of [`try_layer_norm`] by the fused row kernel when `x` and the parameters
/// are contiguous and the rows not empty (one mean and `rstd` per row, `y` of `x`'s sizes), or
/// `None` for the tensor form. Without `keep` (no tracked input) the means are not written.
#[allow(clippy::type_complexity)]
fn layer_norm_rows<'t, T: GradFloat, D: Dim>(
    x: &TensorView<'_, T, DynShape>,
    d: usize,
    eps: T,
    weight: Option<&Var<'t, T, (D,)>>,
    bias: Option<&Var<'t, T, (D,)>>,
    keep: bool,
) -> Result<Option<(Vec<T>, Vec<T>, Tensor<T, DynShape>)>, ShapeError> {
    fn slice<T: GradFloat, D: Dim>(t: &Tensor<T, (D,)>) -> Option<&[T]> {
        crate::kernels::contiguous_slice(t.data.as_slice(), t.layout())
    }
    let (w, b) = (weight.map(|w| slice(w.value())), bias.map(|b| slice(b.value())));
    let Some(xs) = crate::kernels::contiguous_slice(x.data, x.layout()) else { return Ok(None) };
    if d == 0 || xs.is_empty() || w.is_some_and(|w| w.is_none()) || b.is_some_and(|b| b.is_none()) {
        return Ok(None);
    }
    let (n, rows) = (xs.len(), xs.len() / d);
    let (mut mean, mut y, mut rstd) = (
        if keep { crate::memory::try_vec_uncached(rows, T::zero())? } else { Vec::new() },
        crate::memory::try_vec_for_overwrite(n)?,
        crate::memory::try_vec_uncached(rows, T::zero())?,
    );
    // `layer_norm_rows` writes every element of `y`.
    let mean_out = if keep { Some(&mut mean[..]) } else { None };
    crate::kernels::norm::layer_norm_rows(xs, d, eps, (w.flatten(), b.flatten()), (mean_out, &mut y, &mut rstd));
    Ok(Some((mean, rstd, Tensor::try_from_vec(x.sizes(), y)?)))
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
/// # Errors
/// [`ShapeError::Invalid`] for a [`DynShape`] input of rank below 2, for training with one
/// element per channel (PyTorch's "Expected more than 1 value per channel when training"), and
/// for evaluation without both running statistics; [`ShapeError::Mismatch`] when a weight, bias or
/// running statistic does not have `C` elements (at run time, for a `Dyn` dim);
/// [`ShapeError::Autograd`] when the inputs are tracked by two tapes. An error leaves the running
/// statistics unchanged.
#[allow(clippy::too_many_arguments)]
#[try_twin(free, doc = "Batch normalisation (PyTorch `torch.nn.functional.batch_norm`).")]
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

    if training && n <= 1 {
        return Err(ShapeError::Invalid(format!(
            "batch_norm: expected more than 1 value per channel when training, got input sizes {:?}",
            xd.sizes()
        )));
    }
    let given = match (running_mean.as_deref(), running_var.as_deref()) {
        (Some(rm), Some(rv)) if !training => Some((rm.to_vec(), rv.to_vec())),
        _ if !training => {
            return Err(ShapeError::Invalid(
                "batch_norm: the running mean and variance must be given in evaluation mode (training = false)".into(),
            ))
        }
        _ => None,
    };
    let wd = weight.map(|w| per_channel(w.value().as_dyn()));
    let bd = bias.map(|b| per_channel(b.value().as_dyn()));
    // Without a tracked input there is no backward pass to keep `x̂` for.
    let keep = x.node().is_some() || node_of(weight).is_some() || node_of(bias).is_some();
    let parts = (wd.as_ref(), bd.as_ref());
    let (mean, var, rstd, xhat, y) =
        match batch_norm_fused(&xd, ch, training, eps, given.clone(), parts, keep, &cshape)? {
            Some(fused) => fused,
            None => {
                let (mean, var): (Tensor<T, DynShape>, Tensor<T, DynShape>) = match given {
                    None => {
                        let mean: Tensor<T, DynShape> = xd.reduce_with(&axes, true, &Mean)?;
                        let var = xd.zip_with(&mean, |v, m| (v - m) * (v - m)).reduce_with(&axes, true, &Mean)?;
                        (mean, var)
                    }
                    Some((rm, rv)) => (
                        Tensor::<T, DynShape>::from_vec(&[ch], rm).reshape_dyn(&cshape).into_owned(),
                        Tensor::<T, DynShape>::from_vec(&[ch], rv).reshape_dyn(&cshape).into_owned(),
                    ),
                };
                let rstd = var.map(move |v| T::one() / (v + eps).sqrt());
                let xhat = xd.zip_with(&mean, |v, m| v - m).zip_with(&rstd, |v, r| v * r);
                let y = affine(&xhat, wd.as_ref().map(|w| w.as_dyn()), bd.as_ref().map(|b| b.as_dyn()));
                (mean, var, rstd, xhat, y)
            }
        };
    if training {
        let (m, bessel) = (momentum, c::<T>(n as f64 / (n - 1) as f64));
        if let Some(rm) = running_mean {
            rm.zip_inplace(&mean.reshape_dyn(&[ch as isize]), move |r, v| *r = (T::one() - m) * *r + m * v);
        }
        if let Some(rv) = running_var {
            rv.zip_inplace(&var.reshape_dyn(&[ch as isize]), move |r, v| *r = (T::one() - m) * *r + m * (v * bessel));
        }
    }
    let y = typed::<T, S>(y);
    record([x.node(), node_of(weight), node_of(bias)], y, move |[ix, iw, ib], _| {
        back(move |g: Tensor<T, S>, s: &mut Sink<T>| {
            // A broadcast seed (`.sum().backward()`) is copied into rows first: the fused
            // kernel reads contiguous rows.
            let g = if g.is_contiguous() { g } else { typed::<T, S>(g.as_dyn().to_owned()) };
            let gd = g.as_dyn();
            fn slice<T: GradFloat>(t: &Tensor<T, DynShape>) -> Option<&[T]> {
                crate::kernels::contiguous_slice(t.data.as_slice(), t.layout())
            }
            let gs = crate::kernels::contiguous_slice(g.data.as_slice(), g.layout());
            let w = wd.as_ref().map(slice);
            let inner = gd.numel().checked_div(gd.sizes()[0] * ch).unwrap_or(0);
            if let (Some(gs), Some(hs), Some(rs), true, true) =
                (gs, slice(&xhat), slice(&rstd), w.is_none_or(|w| w.is_some()), inner > 0)
            {
                // Contiguous rows (the common case): the three gradients in two passes. The
                // kernel writes every element of the input's gradient (a cached buffer's old
                // values never show: `tests/buffer_cache.rs`).
                let mut input = ix.map(|_| crate::memory::try_vec_for_overwrite(gs.len()).or_panic());
                let (mut wg, mut bg) = (iw.map(|_| alloc::vec![T::zero(); ch]), ib.map(|_| alloc::vec![T::zero(); ch]));
                let grads = crate::kernels::norm::LayerNormGrads {
                    input: input.as_deref_mut(),
                    weight: wg.as_deref_mut(),
                    bias: bg.as_deref_mut(),
                };
                crate::kernels::norm::batch_norm_backward(gs, hs, w.flatten(), rs, (ch, inner), training, grads);
                let sizes = gd.sizes();
                s.add_with(iw, || typed::<T, (C,)>(Tensor::<T, DynShape>::from_vec(&[ch], wg.unwrap_or_default())));
                s.add_with(ib, || typed::<T, (C,)>(Tensor::<T, DynShape>::from_vec(&[ch], bg.unwrap_or_default())));
                s.add_with(ix, || typed::<T, S>(Tensor::<T, DynShape>::from_vec(sizes, input.unwrap_or_default())));
                return;
            }
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

/// `(mean, var, rstd, x̂, y)` of [`try_batch_norm`] by the fused kernel
/// ([`batch_norm_rows`](crate::kernels::norm::batch_norm_rows)) when `x`, the weight and the bias
/// are contiguous and not empty (the statistics of sizes `cshape`, `[1, C, 1, ..]`; `x̂` and `y`
/// of `x`'s sizes), or `None` for the tensor form. `given` holds the running statistics in
/// evaluation mode. Without `keep` (no tracked input) `x̂` is not written: an empty tensor
/// stands for it.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn batch_norm_fused<T: GradFloat>(
    x: &TensorView<'_, T, DynShape>,
    ch: usize,
    training: bool,
    eps: T,
    given: Option<(Vec<T>, Vec<T>)>,
    (weight, bias): (Option<&Tensor<T, DynShape>>, Option<&Tensor<T, DynShape>>),
    keep: bool,
    cshape: &[isize],
) -> Result<
    Option<(Tensor<T, DynShape>, Tensor<T, DynShape>, Tensor<T, DynShape>, Tensor<T, DynShape>, Tensor<T, DynShape>)>,
    ShapeError,
> {
    fn slice<T: GradFloat>(t: &Tensor<T, DynShape>) -> Option<&[T]> {
        crate::kernels::contiguous_slice(t.data.as_slice(), t.layout())
    }
    let (w, b) = (weight.map(slice), bias.map(slice));
    let Some(xs) = crate::kernels::contiguous_slice(x.data, x.layout()) else { return Ok(None) };
    let inner = xs.len().checked_div(x.sizes()[0] * ch).unwrap_or(0);
    if inner == 0 || w.is_some_and(|w| w.is_none()) || b.is_some_and(|b| b.is_none()) {
        return Ok(None);
    }
    let (mut mean, mut var) = given.unwrap_or_else(|| (alloc::vec![T::zero(); ch], alloc::vec![T::zero(); ch]));
    let mut rstd = alloc::vec![T::zero(); ch];
    let (mut xhat, mut y) = (
        if keep { crate::memory::try_vec_for_overwrite(xs.len())? } else { Vec::new() },
        crate::memory::try_vec_for_overwrite(xs.len())?,
    );
    // `batch_norm_rows` writes every element of `y` (and of `x̂` when kept).
    let xhat_out = if keep { Some(&mut xhat[..]) } else { None };
    crate::kernels::norm::batch_norm_rows(
        xs,
        (ch, inner),
        training,
        eps,
        (&mut mean, &mut var, &mut rstd),
        (w.flatten(), b.flatten()),
        (xhat_out, &mut y),
    );
    let stats: Vec<usize> = cshape.iter().map(|&v| v as usize).collect();
    let xhat_sizes = if keep { x.sizes() } else { &[0] };
    Ok(Some((
        Tensor::try_from_vec(&stats, mean)?,
        Tensor::try_from_vec(&stats, var)?,
        Tensor::try_from_vec(&stats, rstd)?,
        Tensor::try_from_vec(xhat_sizes, xhat)?,
        Tensor::try_from_vec(x.sizes(), y)?,
    )))
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
/// # Errors
/// [`ShapeError::Invalid`] for `p` outside `[0, 1]` or NaN (PyTorch's "dropout probability has
/// to be between 0 and 1"); [`ShapeError::Alloc`].
#[cfg(feature = "rand")]
#[cfg_attr(docsrs, doc(cfg(feature = "rand")))]
#[try_twin(free, doc = "Dropout (PyTorch `torch.nn.functional.dropout(x, p, training)`).")]
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
/// # Errors
/// [`ShapeError::IndexEntry`] for the first index (row-major) outside `0..num`, naming the index,
/// its position in `indices` and the weight's row count (negative indices are refused, as
/// PyTorch's "index out of range in self"); [`ShapeError::RankTooLarge`] for rank-6
/// [`DynShape`] indices; [`ShapeError::Alloc`].
#[try_twin(
    free,
    doc = "Rows of `weight` picked by `indices` (PyTorch `torch.nn.functional.embedding(indices, weight)`)."
)]
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
/// # Errors
/// As [`try_embedding`], and [`ShapeError::Invalid`] for a `padding_idx` outside `-num..num`
/// (PyTorch: "Padding_idx must be within num_embeddings").
#[try_twin(
    free,
    doc = "[`embedding`] with PyTorch's `padding_idx` (`torch.nn.functional.embedding(indices, weight, padding_idx=...)`)."
)]
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
    let rows = weight.value().try_index_select(0, &flat)?.into_dyn();
    let y = if rows.is_contiguous() && rows.layout().offset() == 0 && rows.data.len() == rows.numel() {
        // The new rows' buffer takes the output's sizes as it is (a reshape of an owned tensor
        // gave a view, which `into_owned` copied).
        let mut out_sizes = isz.to_vec();
        out_sizes.push(dim);
        Tensor::<T, DynShape>::try_from_vec(&out_sizes, rows.data.into_vec())?
    } else {
        let mut out_sizes = isizes(isz);
        out_sizes.push(dim as isize);
        rows.try_reshape_dyn(&out_sizes)?.into_owned()
    };
    let y = y.try_into_static::<<S as PushDim<E>>::Out>()?;
    record([weight.node()], y, move |[iw], _| {
        back(move |g: Tensor<T, <S as PushDim<E>>::Out>, s: &mut Sink<T>| {
            s.add_with(iw, || {
                let g2 = g.as_dyn().reshape_dyn(&[count as isize, dim as isize]).into_owned();
                let mut gw = Tensor::<T, DynShape>::full_sized(&[num, dim], T::zero());
                gw.index_add_at(0, &flat, &g2, T::one()).or_panic();
                if let Some(p) = pad {
                    gw.as_view_mut().select_mut(0, p as isize).fill(T::zero());
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
/// # Errors
/// [`ShapeError::Invalid`] for a [`DynShape`] operand of rank below 2; [`ShapeError::MatMul`]
/// when runtime sizes do not fit (`E` of `q` and `k`, `S` of `k` and `v`, batch dims that do not
/// broadcast); [`ShapeError::Autograd`] when the inputs are tracked by two tapes.
#[try_twin(
    free,
    doc = "Scaled dot-product attention (PyTorch `torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=is_causal)` with no mask, no dropout and the default scale)."
)]
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
    let mut scores = qd.try_matmul(&kd.transpose(-2, -1))?;
    scores.map_inplace(move |v| v * scale);
    if is_causal {
        let r = scores.rank();
        let (l, s) = (scores.sizes()[r - 2], scores.sizes()[r - 1]);
        // -inf above the diagonal (key j > query i), 0 on and below it.
        let mask = Tensor::<T, DynShape>::try_full_sized(&[l, s], T::neg_infinity())?.try_triu(1)?;
        scores = scores.zip_with(&mask, |v, m| v + m);
    }
    let p = scores.try_softmax(-1)?;
    let out = p.try_matmul(&vd)?.try_into_static::<Attention<Q, K, V>>()?;
    let (qa, ka, va) = (q.arc().clone(), k.arc().clone(), v.arc().clone());
    record([q.node(), k.node(), v.node()], out, move |[iq, ik, iv], _| {
        back(move |g: Tensor<T, Attention<Q, K, V>>, s: &mut Sink<T>| {
            let gd = g.as_dyn();
            s.add_with(iv, || {
                let gv = p.as_dyn().transpose(-2, -1).matmul(&gd);
                sum_to::<T, V>(gv.as_dyn(), va.sizes())
            });
            if iq.is_none() && ik.is_none() {
                return;
            }
            let ds = attention_scores_grad(&gd, &p, &va.as_dyn(), scale);
            s.add_with(iq, || sum_to::<T, Q>(ds.matmul(&ka.as_dyn()).as_dyn(), qa.sizes()));
            s.add_with(ik, || sum_to::<T, K>(ds.transpose(-2, -1).matmul(&qa.as_dyn()).as_dyn(), ka.sizes()));
        })
    })
}

/// The gradient of attention's scaled scores `S` (`P = softmax(S / scale⁻¹)` over the last dim)
/// from the output's gradient `g` `[.., L, Ev]`, the saved weights `p` `[.., L, S]` and the values
/// `v` `[.., S, Ev]`: `dS = P (dP - rowsum(dP P)) scale`, `dP = g vᵀ`, the scale folded in once.
/// Shared by [`try_scaled_dot_product_attention`] and the packed heads' node (`heads.rs`).
fn attention_scores_grad<T: GradFloat>(
    g: &TensorView<'_, T, DynShape>,
    p: &Tensor<T, DynShape>,
    v: &TensorView<'_, T, DynShape>,
    scale: T,
) -> Tensor<T, DynShape> {
    let dp = g.matmul(&v.transpose(-2, -1));
    let dot = dp.zip_with(p, |d, p| d * p).sum_keepdim(-1);
    dp.zip_with(&dot, |d, r| d - r).zip_with(p, move |t, p| t * p * scale)
}

// ---------------------------------------------------------------------------------------------
// Losses: `nn/loss.rs`.

mod loss;
pub use loss::*;

mod heads;
/// `nn::attention`'s (built with `rand`, which its layers' initialisation needs).
#[cfg(feature = "rand")]
pub(crate) use heads::try_attention_blocks;
pub(crate) use heads::try_packed_attention;
