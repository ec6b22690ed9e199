//! The losses of `torch.nn.functional` on `Var`s (a module of `autograd::nn`, whose paths they
//! keep: `autograd::nn::mse_loss`, ...): the point-wise losses (MSE, L1, Huber, binary cross
//! entropy with logits) and the class losses (cross entropy, NLL, with class weights, ignored
//! targets and label smoothing), each reduced ([`Reduction`]) or not ([`Unreduced`]) by one
//! argument ([`LossReduction`]), with `try_` forms.
use super::*;
use crate::autograd::ops::typed;
#[allow(unused_imports)]
use crate::shape::Ax;
use crate::shape::SameShape;
use shaped_macros::try_twin;

/// The sizes check of an element-wise loss: `input` and `target` of the same sizes.
fn same_sizes(op: &'static str, input: &[usize], target: &[usize]) -> Result<(), ShapeError> {
    if input != target {
        return Err(ShapeError::mismatch(op, "differ: the target must have the input's sizes", input, target));
    }
    Ok(())
}

/// The target's value under the input's shape type (the sizes are checked equal first; a
/// target's shape may differ from the input's in its runtime dims: `Dyn` against a name). A
/// relabel of the shared value when the types agree, else one copy of the target.
fn as_input_shape<T: GradFloat, S: Shape, S2: Shape>(target: &Var<'_, T, S2>) -> Result<Arc<Tensor<T, S>>, ShapeError> {
    let t: &dyn core::any::Any = target.arc();
    match t.downcast_ref::<Arc<Tensor<T, S>>>() {
        Some(same) => Ok(same.clone()),
        None => Ok(Arc::new(target.value().clone().into_dyn().try_into_static::<S>()?)),
    }
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

/// The checks of an element-wise loss (the dims' names, `kind`'s parameters, the sizes) and its
/// operands' values, the target's under the input's shape type.
fn pointwise_operands<T: GradFloat, S: Shape, S2: Shape>(
    kind: Pointwise<T>,
    input: &Var<'_, T, S>,
    target: &Var<'_, T, S2>,
) -> Result<(Arc<Tensor<T, S>>, Arc<Tensor<T, S>>), ShapeError> {
    crate::shape::check_names_equal::<S, S2>(input.sizes(), target.sizes(), usize::MAX)?;
    kind.check(input.sizes(), target.sizes())?;
    Ok((input.arc().clone(), as_input_shape::<T, S, S2>(target)?))
}

/// An element-wise loss `Σ f(x, t)` reduced by `reduction`; `input` and `target` of the same
/// sizes. One node.
fn pointwise_loss<'t, T: GradFloat, S: Shape, S2: Shape>(
    kind: Pointwise<T>,
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S2>,
    reduction: Reduction,
) -> Result<Var<'t, T, ()>, ShapeError> {
    let (x, t) = pointwise_operands(kind, input, target)?;
    let k: T = reduction.scale(x.numel());
    let total = x.zip_with(&*t, |x, t| kind.f(x, t)).sum() * k;
    record([input.node(), target.node()], scalar(total), move |[ix, it], _| {
        back(move |g: Tensor<T, ()>, s: &mut Sink<T>| {
            let gk = g.item() * k;
            s.add_with(ix, || x.zip_with(&*t, move |x, t| gk * kind.dx(x, t)));
            // The target's gradient under the target's own shape type (its leaf's slot is typed).
            s.add_with(it, || typed::<T, S2>(x.zip_with(&*t, move |x, t| gk * kind.dt(x, t)).into_dyn()));
        })
    })
}

/// An element-wise loss per element (PyTorch `reduction='none'`), of the input's shape. One node.
fn pointwise_unreduced<'t, T: GradFloat, S: Shape, S2: Shape>(
    kind: Pointwise<T>,
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S2>,
) -> Result<Var<'t, T, S>, ShapeError> {
    let (x, t) = pointwise_operands(kind, input, target)?;
    let out = x.zip_with(&*t, |x, t| kind.f(x, t));
    record([input.node(), target.node()], out, move |[ix, it], _| {
        back(move |g: Tensor<T, S>, s: &mut Sink<T>| {
            s.add_with(ix, || x.zip_with(&*t, |x, t| kind.dx(x, t)).zip_with(&g, |d, g| d * g));
            s.add_with(it, || {
                typed::<T, S2>(x.zip_with(&*t, |x, t| kind.dt(x, t)).zip_with(&g, |d, g| d * g).into_dyn())
            });
        })
    })
}

/// An element-wise loss reduced or not, as `reduction` says.
fn pointwise<'t, T: GradFloat, S: Shape, S2: Shape, R: LossReduction<S>>(
    kind: Pointwise<T>,
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S2>,
    reduction: R,
) -> Result<Var<'t, T, R::Out>, ShapeError> {
    reduction.pick(|r| pointwise_loss(kind, input, target, r), || pointwise_unreduced(kind, input, target))
}

/// The mean (or sum) of the squared differences (PyTorch `torch.nn.functional.mse_loss(input,
/// target, reduction=...)`): `input` and `target` have the same shape; a `Shape![]` value for a
/// [`Reduction`], each element's loss (shape `S`) for [`Unreduced`] (`reduction='none'`). Both
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
/// # Errors
/// [`ShapeError::Mismatch`] naming both sizes when they differ (`Dyn` dims);
/// [`ShapeError::Autograd`] when the inputs are tracked by two tapes.
#[try_twin(
    free,
    doc = "The mean (or sum) of the squared differences (PyTorch `torch.nn.functional.mse_loss(input, target, reduction=...)`)."
)]
pub fn try_mse_loss<'t, T: GradFloat, S: Shape + SameShape<S2>, S2: Shape, R: LossReduction<S>>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S2>,
    reduction: R,
) -> Result<Var<'t, T, R::Out>, ShapeError> {
    pointwise(Pointwise::Mse, input, target, reduction)
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
/// target, reduction=...)`): same shapes, a `Shape![]` value ([`Unreduced`]: of shape `S`); the gradient is `±sign(input -
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
/// # Errors
/// As [`try_mse_loss`].
#[try_twin(
    free,
    doc = "The mean (or sum) of the absolute differences (PyTorch `torch.nn.functional.l1_loss(input, target, reduction=...)`)."
)]
pub fn try_l1_loss<'t, T: GradFloat, S: Shape + SameShape<S2>, S2: Shape, R: LossReduction<S>>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S2>,
    reduction: R,
) -> Result<Var<'t, T, R::Out>, ShapeError> {
    pointwise(Pointwise::L1, input, target, reduction)
}

/// The Huber loss (PyTorch `torch.nn.functional.huber_loss(input, target, reduction=...,
/// delta=...)`, default `delta = 1.0`): for `z = |input - target|`, `z² / 2` where `z < delta`
/// and `delta (z - delta / 2)` beyond, reduced to a `Shape![]` value (or per element for
/// [`Unreduced`]). The gradient is
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
/// # Errors
/// [`ShapeError::Invalid`] for a `delta` that is not positive (PyTorch requires `delta > 0`);
/// otherwise as [`try_mse_loss`].
#[try_twin(
    free,
    doc = "The Huber loss (PyTorch `torch.nn.functional.huber_loss(input, target, reduction=..., delta=...)`, default `delta = 1.0`)."
)]
pub fn try_huber_loss<'t, T: GradFloat, S: Shape + SameShape<S2>, S2: Shape, R: LossReduction<S>>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S2>,
    reduction: R,
    delta: T,
) -> Result<Var<'t, T, R::Out>, ShapeError> {
    pointwise(Pointwise::Huber(delta), input, target, reduction)
}

/// Binary cross-entropy of logits (PyTorch
/// `torch.nn.functional.binary_cross_entropy_with_logits(input, target, reduction=...)`, without
/// `weight` and `pos_weight`): `-(t ln σ(x) + (1 - t) ln(1 - σ(x)))` in the stable form
/// `max(x, 0) - x t + ln(1 + exp(-|x|))`, reduced to a `Shape![]` value (or per element for
/// [`Unreduced`]). `input` and `target`
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
/// # Errors
/// As [`try_mse_loss`].
#[try_twin(
    free,
    doc = "Binary cross-entropy of logits (PyTorch `torch.nn.functional.binary_cross_entropy_with_logits(input, target, reduction=...)`, without `weight` and `pos_weight`)."
)]
pub fn try_binary_cross_entropy_with_logits<
    't,
    T: GradFloat,
    S: Shape + SameShape<S2>,
    S2: Shape,
    R: LossReduction<S>,
>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S2>,
    reduction: R,
) -> Result<Var<'t, T, R::Out>, ShapeError> {
    pointwise(Pointwise::Bce, input, target, reduction)
}

/// The options of [`cross_entropy_with`] and [`nll_loss_with`]: PyTorch's keyword arguments `weight`, `ignore_index` and
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
/// the smoothing and the ignored rows folded in, held sparsely: `q[i, c] = spread[c] + [c = y_i]
/// hot_i` for a counted row, 0 for an ignored one. Each row's sum of `q`, and the mean's divisor.
struct ClassRows<T: GradFloat> {
    /// Per row: its target class `y` and `(1 - ε) w_y`, or `None` for an ignored row.
    hot: Vec<Option<(usize, T)>>,
    /// `ε / C · w_c` per class (empty without smoothing).
    spread: Vec<T>,
    qsum: Vec<T>,
    divisor: T,
}

impl<T: GradFloat> ClassRows<T> {
    /// `q[i, c]` of a counted row whose target is `y` with one-hot part `hot`.
    #[inline]
    fn q(&self, c: usize, y: usize, hot: T) -> T {
        let spread = self.spread.get(c).copied().unwrap_or(T::zero());
        if c == y {
            spread + hot
        } else {
            spread
        }
    }
}

/// Checks the targets and options of a class loss and builds its [`ClassRows`].
fn class_rows<T: GradFloat, C: Dim, N2: Dim>(
    op: &'static str,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N2,)>,
    rows: usize,
    classes: usize,
    opts: &ClassLossOptions<T, C>,
    log_probs: bool,
) -> Result<ClassRows<T>, ShapeError> {
    if targets.sizes()[0] != rows {
        return Err(ShapeError::mismatch(
            op,
            "differ: one target per row of the input",
            &[targets.sizes()[0]],
            &[rows],
        ));
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
    let (keep, spread_each) = (T::one() - eps, eps / c::<T>(classes as f64));
    let spread: Vec<T> = if eps == T::zero() { Vec::new() } else { weight.iter().map(|&w| spread_each * w).collect() };
    let spread_sum = crate::num::pairwise(&spread, |v| v);
    let mut hot = alloc::vec![None; rows];
    let mut qsum = alloc::vec![T::zero(); rows];
    let mut divisor = T::zero();
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
        let y = at as usize;
        let h = keep * weight[y];
        hot[i] = Some((y, h));
        qsum[i] = spread_sum + h;
        divisor += weight[y];
    }
    Ok(ClassRows { hot, spread, qsum, divisor })
}

/// A class loss's per-row values `-Σ_c q[i, c] z[i, c]` (`z` the log-probabilities) and the
/// gradient of `Σ_i g_i loss_i` for per-row factors `g` (`s_i softmax - q` for cross-entropy, `-q`
/// for the NLL losses; rows with no weight get none). Without smoothing a row's loss reads one
/// element; the gradient takes the exponential of `z` in the crate's vector kernel and one pass.
fn class_loss_parts<T: GradFloat, N: Dim, C: Dim, N2: Dim>(
    op: &'static str,
    input: &Var<'_, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N2,)>,
    opts: &ClassLossOptions<T, C>,
    log_softmax: bool,
) -> Result<(Tensor<T, DynShape>, impl Fn(&[T]) -> Tensor<T, (N, C)> + Send + Sync + 'static, T), ShapeError> {
    let (rows, classes) = (input.sizes()[0], input.sizes()[1]);
    crate::shape::check_names_equal::<(N,), (N2,)>(&[rows], targets.sizes(), usize::MAX)?;
    let cr = class_rows(op, targets, rows, classes, opts, log_softmax)?;
    let divisor = cr.divisor;
    let z = if log_softmax {
        input.value().try_log_softmax(Ax::<1>)?.into_dyn()
    } else {
        input.value().as_dyn().to_owned()
    };
    // 0 · (-inf) is 0 here: a class with no weight adds nothing, even at probability 0.
    let term = |l: T, q: T| if q == T::zero() { T::zero() } else { -(l * q) };
    let mut terms = Vec::with_capacity(if cr.spread.is_empty() { 0 } else { classes });
    let per_row: Vec<T> = (0..rows)
        .map(|i| {
            let Some((y, h)) = cr.hot[i] else { return T::zero() };
            let zr = &z.storage()[i * classes..(i + 1) * classes];
            if cr.spread.is_empty() {
                return term(zr[y], h);
            }
            terms.clear();
            terms.extend(zr.iter().enumerate().map(|(c, &l)| term(l, cr.q(c, y, h))));
            crate::num::pairwise(&terms, |v| v)
        })
        .collect();
    let per_row = Tensor::<T, DynShape>::from_vec(&[rows], per_row);
    let grad = move |g: &[T]| {
        let mut out = if log_softmax {
            z.exp()
        } else {
            Tensor::<T, DynShape>::from_vec(&[rows, classes], alloc::vec![T::zero(); rows * classes])
        };
        let data = out.as_slice_mut().expect("a new tensor is contiguous");
        for (i, row) in data.chunks_exact_mut(classes.max(1)).enumerate().take(rows) {
            let (gi, si) = (g[i], cr.qsum[i]);
            let Some((y, h)) = cr.hot[i].filter(|_| si != T::zero()) else {
                row.fill(T::zero());
                continue;
            };
            if !log_softmax {
                row[y] = -(gi * cr.q(y, y, h));
                continue;
            }
            let ey = row[y];
            if cr.spread.is_empty() {
                row.iter_mut().for_each(|e| *e = gi * (si * *e));
            } else {
                row.iter_mut().zip(&cr.spread).for_each(|(e, &q)| *e = gi * (si * *e - q));
            }
            row[y] = gi * (si * ey - cr.q(y, y, h));
        }
        typed::<T, (N, C)>(out)
    };
    Ok((per_row, grad, divisor))
}

/// A class loss reduced to a `Shape![]` value: one node.
fn class_loss_reduced<'t, T: GradFloat, N: Dim, C: Dim, N2: Dim>(
    op: &'static str,
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N2,)>,
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
fn class_loss_unreduced<'t, T: GradFloat, N: Dim, C: Dim, N2: Dim>(
    op: &'static str,
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N2,)>,
    opts: &ClassLossOptions<T, C>,
    log_softmax: bool,
) -> Result<Var<'t, T, (N,)>, ShapeError> {
    let (per_row, grad, _) = class_loss_parts(op, input, targets, opts, log_softmax)?;
    record([input.node()], typed::<T, (N,)>(per_row), move |[i], _| {
        back(move |g: Tensor<T, (N,)>, s: &mut Sink<T>| s.add_with(i, || grad(&g.to_vec())))
    })
}

/// A class loss reduced or not, as `reduction` says.
fn class_loss<'t, T: GradFloat, N: Dim, C: Dim, N2: Dim, R: LossReduction<(N,)>>(
    op: &'static str,
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N2,)>,
    reduction: R,
    opts: &ClassLossOptions<T, C>,
    log_softmax: bool,
) -> Result<Var<'t, T, R::Out>, ShapeError> {
    reduction.pick(
        |r| class_loss_reduced(op, input, targets, r, opts, log_softmax),
        || class_loss_unreduced(op, input, targets, opts, log_softmax),
    )
}

/// Cross-entropy of unnormalised scores against class indices (PyTorch
/// `torch.nn.functional.cross_entropy(input, target, reduction=..., label_smoothing=...)`;
/// defaults `Reduction::Mean`, `0.0`): `input` `[N, C]`, `targets` `[N]` of class indices (any
/// integer type) give a `Shape![]` value (`[N]`, a loss per row, for [`Unreduced`]),
/// `-Σ_c q_c log_softmax(input)_c` per row, where `q` is
/// the one-hot target mixed with the uniform distribution: `q = (1 - ε) onehot + ε / C` for
/// `label_smoothing = ε`. The mean is over the `N` rows. One node (fused log-softmax and NLL):
/// the gradient is `softmax(input) - q` (over `N` for the mean). Every target must be a class:
/// class weights and `ignore_index` are [`cross_entropy_with`]'s.
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
/// # Errors
/// [`ShapeError::Invalid`] naming the first target outside `0..C` and its position, or a
/// `label_smoothing` outside `[0, 1]`; [`ShapeError::Mismatch`] when `targets` does not have `N`
/// elements (at run time, for a `Dyn` dim); [`ShapeError::Alloc`].
#[try_twin(
    free,
    doc = "Cross-entropy of unnormalised scores against class indices (PyTorch `torch.nn.functional.cross_entropy(input, target, reduction=..., label_smoothing=...)`."
)]
pub fn try_cross_entropy<'t, T: GradFloat, N: Dim, C: Dim, N2: Dim, R: LossReduction<(N,)>>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N2,)>,
    reduction: R,
    label_smoothing: T,
) -> Result<Var<'t, T, R::Out>, ShapeError>
where
    (N,): SameShape<(N2,)>,
{
    let opts = ClassLossOptions::<T, C> { weight: None, ignore_index: None, label_smoothing };
    class_loss("cross_entropy", input, targets, reduction, &opts, true)
}

/// The negative log-likelihood of class indices (PyTorch `torch.nn.functional.nll_loss(input,
/// target, reduction=...)`): `input` `[N, C]` of log-probabilities, `targets` `[N]` of class
/// indices give a `Shape![]` value (`[N]` for [`Unreduced`]), `-Σ_i input[i, targets[i]]` (over
/// `N` for the mean). The
/// gradient is `-1` (over `N`) at each row's target, 0 elsewhere. Class weights and
/// `ignore_index` are [`nll_loss_with`]'s.
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
/// # Errors
/// [`ShapeError::Invalid`] naming the first target outside `0..C` and its position;
/// [`ShapeError::Mismatch`] when `targets` does not have `N` elements; [`ShapeError::Alloc`].
#[try_twin(
    free,
    doc = "The negative log-likelihood of class indices (PyTorch `torch.nn.functional.nll_loss(input, target, reduction=...)`)."
)]
pub fn try_nll_loss<'t, T: GradFloat, N: Dim, C: Dim, N2: Dim, R: LossReduction<(N,)>>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N2,)>,
    reduction: R,
) -> Result<Var<'t, T, R::Out>, ShapeError>
where
    (N,): SameShape<(N2,)>,
{
    let opts = ClassLossOptions::<T, C> { weight: None, ignore_index: None, label_smoothing: T::zero() };
    class_loss("nll_loss", input, targets, reduction, &opts, false)
}

/// Cross-entropy with PyTorch's full options (PyTorch
/// `torch.nn.functional.cross_entropy(input, target, weight=..., ignore_index=...,
/// reduction=..., label_smoothing=...)`): `input` `[N, C]` of unnormalised scores, `targets`
/// `[N]` of class indices give a `Shape![]` value (`[N]` for [`Unreduced`], an ignored row 0).
/// Row `i` with target `y` (not `ignore_index`)
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
/// # Errors
/// [`ShapeError::Invalid`] naming the first target that is neither `ignore_index` nor in
/// `0..C`, and its position, or a `label_smoothing` outside `[0, 1]`; [`ShapeError::Mismatch`]
/// when `targets` does not have `N` elements or the weight not `C` (runtime sizes);
/// [`ShapeError::Alloc`].
#[try_twin(
    free,
    doc = "Cross-entropy with PyTorch's full options (PyTorch `torch.nn.functional.cross_entropy(input, target, weight=..., ignore_index=..., reduction=..., label_smoothing=...)`)."
)]
pub fn try_cross_entropy_with<'t, T: GradFloat, N: Dim, C: Dim, N2: Dim, R: LossReduction<(N,)>>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N2,)>,
    reduction: R,
    opts: &ClassLossOptions<T, C>,
) -> Result<Var<'t, T, R::Out>, ShapeError>
where
    (N,): SameShape<(N2,)>,
{
    class_loss("cross_entropy", input, targets, reduction, opts, true)
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
/// let l = nn::cross_entropy_with(&x, &Tensor::<i64, Shape![2]>::from([1, -100]), nn::Unreduced, &ClassLossOptions::default());
/// assert_eq!(l.value().to_vec(), [2f64.ln(), 0.0]);
/// ```
///
/// # Errors
/// As [`try_cross_entropy_with`].
#[deprecated(note = "the reduction is one argument: `cross_entropy_with(&x, &y, Unreduced, &opts)`")]
#[try_twin(
    free,
    doc = "Cross-entropy per row, `[N]` (PyTorch `torch.nn.functional.cross_entropy(..., reduction='none')`)."
)]
pub fn try_cross_entropy_unreduced_with<'t, T: GradFloat, N: Dim, C: Dim, N2: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N2,)>,
    opts: &ClassLossOptions<T, C>,
) -> Result<Var<'t, T, (N,)>, ShapeError>
where
    (N,): SameShape<(N2,)>,
{
    try_cross_entropy_with(input, targets, Unreduced, opts)
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
/// let l = nn::cross_entropy(&x, &Tensor::<i64, Shape![2]>::from([1, 0]), nn::Unreduced, 0.0);
/// assert_eq!(l.value().to_vec()[0], 2f64.ln());
/// ```
///
/// # Errors
/// As [`try_cross_entropy`].
#[deprecated(note = "the reduction is one argument: `cross_entropy(&x, &y, Unreduced, label_smoothing)`")]
#[try_twin(
    free,
    doc = "Cross-entropy per row, `[N]` (PyTorch `torch.nn.functional.cross_entropy(input, target, reduction='none', label_smoothing=...)`)."
)]
pub fn try_cross_entropy_unreduced<'t, T: GradFloat, N: Dim, C: Dim, N2: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N2,)>,
    label_smoothing: T,
) -> Result<Var<'t, T, (N,)>, ShapeError>
where
    (N,): SameShape<(N2,)>,
{
    try_cross_entropy(input, targets, Unreduced, label_smoothing)
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
/// let l = nn::nll_loss(&lp, &Tensor::<i64, Shape![2]>::from([1, 0]), nn::Unreduced);
/// assert_eq!(l.value().to_vec(), [2.0, 3.0]);
/// ```
///
/// # Errors
/// As [`try_nll_loss`].
#[deprecated(note = "the reduction is one argument: `nll_loss(&x, &y, Unreduced)`")]
#[try_twin(
    free,
    doc = "The negative log-likelihood per row, `[N]` (PyTorch `torch.nn.functional.nll_loss(input, target, reduction='none')`)."
)]
pub fn try_nll_loss_unreduced<'t, T: GradFloat, N: Dim, C: Dim, N2: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N2,)>,
) -> Result<Var<'t, T, (N,)>, ShapeError>
where
    (N,): SameShape<(N2,)>,
{
    try_nll_loss(input, targets, Unreduced)
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
/// # Errors
/// As [`try_cross_entropy_with`], and [`ShapeError::Invalid`] for a nonzero `label_smoothing`.
#[try_twin(
    free,
    doc = "The negative log-likelihood with class weights and `ignore_index` (PyTorch `torch.nn.functional.nll_loss(input, target, weight=..., ignore_index=..., reduction=...)`)."
)]
pub fn try_nll_loss_with<'t, T: GradFloat, N: Dim, C: Dim, N2: Dim, R: LossReduction<(N,)>>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N2,)>,
    reduction: R,
    opts: &ClassLossOptions<T, C>,
) -> Result<Var<'t, T, R::Out>, ShapeError>
where
    (N,): SameShape<(N2,)>,
{
    class_loss("nll_loss", input, targets, reduction, opts, false)
}

/// The negative log-likelihood per row, `[N]` (PyTorch `torch.nn.functional.nll_loss(...,
/// reduction='none')`): `-w_y input[i, y]`, 0 for an ignored row.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::{nn::{self, ClassLossOptions}, Var};
/// let lp = Var::constant(Tensor::<f64, Shape![2, 2]>::from([[-0.1, -2.0], [-3.0, -0.5]]));
/// let l = nn::nll_loss_with(&lp, &Tensor::<i64, Shape![2]>::from([1, 0]), nn::Unreduced, &ClassLossOptions::default());
/// assert_eq!(l.value().to_vec(), [2.0, 3.0]);
/// ```
///
/// # Errors
/// As [`try_nll_loss_with`].
#[deprecated(note = "the reduction is one argument: `nll_loss_with(&x, &y, Unreduced, &opts)`")]
#[try_twin(
    free,
    doc = "The negative log-likelihood per row, `[N]` (PyTorch `torch.nn.functional.nll_loss(..., reduction='none')`)."
)]
pub fn try_nll_loss_unreduced_with<'t, T: GradFloat, N: Dim, C: Dim, N2: Dim>(
    input: &Var<'t, T, (N, C)>,
    targets: &TensorBase<impl Data<Elem: IndexElem>, (N2,)>,
    opts: &ClassLossOptions<T, C>,
) -> Result<Var<'t, T, (N,)>, ShapeError>
where
    (N,): SameShape<(N2,)>,
{
    try_nll_loss_with(input, targets, Unreduced, opts)
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
/// assert_eq!(nn::mse_loss(&x, &t, nn::Unreduced).value().to_vec(), [0., 4., 9.]);
/// ```
///
/// # Errors
/// As [`try_mse_loss`].
#[deprecated(note = "the reduction is one argument: `mse_loss(&x, &t, Unreduced)`")]
#[try_twin(
    free,
    doc = "[`mse_loss`] per element, of the input's shape `S` (PyTorch `torch.nn.functional.mse_loss(..., reduction='none')`)."
)]
pub fn try_mse_loss_unreduced<'t, T: GradFloat, S: Shape + SameShape<S2>, S2: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S2>,
) -> Result<Var<'t, T, S>, ShapeError> {
    try_mse_loss(input, target, Unreduced)
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
/// assert_eq!(nn::l1_loss(&x, &t, nn::Unreduced).value().to_vec(), [1., 2.]);
/// ```
///
/// # Errors
/// As [`try_l1_loss`].
#[deprecated(note = "the reduction is one argument: `l1_loss(&x, &t, Unreduced)`")]
#[try_twin(
    free,
    doc = "[`l1_loss`] per element, of the input's shape `S` (PyTorch `torch.nn.functional.l1_loss(..., reduction='none')`)."
)]
pub fn try_l1_loss_unreduced<'t, T: GradFloat, S: Shape + SameShape<S2>, S2: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S2>,
) -> Result<Var<'t, T, S>, ShapeError> {
    try_l1_loss(input, target, Unreduced)
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
/// assert_eq!(nn::huber_loss(&x, &t, nn::Unreduced, 1.0).value().to_vec(), [0.125, 2.5]);
/// ```
///
/// # Errors
/// As [`try_huber_loss`].
#[deprecated(note = "the reduction is one argument: `huber_loss(&x, &t, Unreduced, delta)`")]
#[try_twin(
    free,
    doc = "[`huber_loss`] per element, of the input's shape `S` (PyTorch `torch.nn.functional.huber_loss(..., reduction='none')`)."
)]
pub fn try_huber_loss_unreduced<'t, T: GradFloat, S: Shape + SameShape<S2>, S2: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S2>,
    delta: T,
) -> Result<Var<'t, T, S>, ShapeError> {
    try_huber_loss(input, target, Unreduced, delta)
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
/// assert_eq!(nn::binary_cross_entropy_with_logits(&x, &t, nn::Unreduced).value().to_vec(), [2f64.ln(), 0.0]);
/// ```
///
/// # Errors
/// As [`try_binary_cross_entropy_with_logits`].
#[deprecated(note = "the reduction is one argument: `binary_cross_entropy_with_logits(&x, &t, Unreduced)`")]
#[try_twin(
    free,
    doc = "[`binary_cross_entropy_with_logits`] per element, of the input's shape `S` (PyTorch `torch.nn.functional.binary_cross_entropy_with_logits(..., reduction='none')`)."
)]
pub fn try_binary_cross_entropy_with_logits_unreduced<'t, T: GradFloat, S: Shape + SameShape<S2>, S2: Shape>(
    input: &Var<'t, T, S>,
    target: &Var<'t, T, S2>,
) -> Result<Var<'t, T, S>, ShapeError> {
    try_binary_cross_entropy_with_logits(input, target, Unreduced)
}
