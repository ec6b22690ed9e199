//! Optimizers and learning-rate schedules (PyTorch's `torch.optim` and
//! `torch.optim.lr_scheduler`): [`Sgd`], [`Adam`] and [`AdamW`] update [`Param`]s in place from
//! the [`Grads`] of a `backward`; [`StepLr`] and [`CosineAnnealingLr`] give the learning rate of
//! each epoch.
//!
//! * One call updates parameters of any shapes: `opt.step(&mut [&mut w, &mut b], &grads)` takes
//!   `&mut [&mut dyn AnyParam<T>]`, and `&mut Param<T, S>` coerces to `&mut dyn AnyParam<T>`
//!   inside the array literal (the expected type is known from the method's signature).
//! * The update equations are PyTorch's, in PyTorch's order of operations (its default
//!   `foreach=False` path on the CPU), so a step agrees with PyTorch's to round-off: the tests
//!   (`tests/optim_torch.rs`) replay PyTorch's parameter trajectories to 1e-12 relative in `f64`.
//!   Hyper-parameters are `f64` (PyTorch's Python floats); scalars derived from them (the bias
//!   corrections of Adam, `1 - dampening`, `-lr`) are computed in `f64` and then rounded to `T`,
//!   as PyTorch's kernels round their Python scalars to the tensor's type.
//! * State (momentum buffers, moment estimates, step counts) is kept per [`ParamId`], so the
//!   order and the set of parameters may change between steps. A parameter that has no gradient
//!   in the [`Grads`] (it was not watched, or the loss does not depend on it) is skipped: neither
//!   it nor its state changes, as PyTorch skips a parameter whose `.grad` is `None`.
//! * There is no `zero_grad`: every `backward` makes fresh [`Grads`], so gradients never
//!   accumulate across steps. To accumulate over several batches, add the losses before one
//!   `backward` (or scale and sum the losses of micro-batches).
//! * Gradient clipping by norm is [`Grads::clip_norm`] (PyTorch `nn.utils.clip_grad_norm_`),
//!   called between `backward` and `step`.
//! * Every step first checks everything (hyper-parameters, a gradient's length against its
//!   parameter's, state lengths, the same [`ParamId`] twice) and only then updates: a step that
//!   fails leaves every parameter and every state as they were.
//!
//! ```
//! # extern crate shaped_core as shaped;
//! use shaped::{Shape, Tensor};
//! use shaped::autograd::optim::{CosineAnnealingLr, Sgd, SgdConfig};
//! use shaped::autograd::{Param, Tape, Var};
//!
//! // Fit y = w x + b to y = 2 x + 1.
//! let mut w = Param::new(Tensor::<f64, Shape![1, 1]>::from([[0.0]]));
//! let mut b = Param::new(Tensor::<f64, Shape![1]>::from([0.0]));
//! let x = Var::constant(Tensor::<f64, Shape![1, 4]>::from([[0.0, 1.0, 2.0, 3.0]]));
//! let t = Var::constant(Tensor::<f64, Shape![1, 4]>::from([[1.0, 3.0, 5.0, 7.0]]));
//! let mut opt = Sgd::new(SgdConfig { lr: 0.05, momentum: 0.9, ..Default::default() });
//! let schedule = CosineAnnealingLr::new(opt.lr(), 300, 0.0);
//! for epoch in 0..300 {
//!     opt.set_lr(schedule.lr_at(epoch));
//!     let tape = Tape::new();
//!     let (wv, bv) = (tape.watch(&w), tape.watch(&b));
//!     let loss = (&(&wv.matmul(&x) + &bv) - &t).square().mean();
//!     let mut grads = loss.backward();
//!     grads.clip_norm(10.0);
//!     opt.step(&mut [&mut w, &mut b], &grads); // two shapes in one call
//! }
//! assert!((w.value().to_vec()[0] - 2.0).abs() < 1e-3);
//! assert!((b.value().to_vec()[0] - 1.0).abs() < 1e-3);
//! ```
//!
//! [`Param`]: super::Param
use super::tape::{AnyParam, Grads, ParamId};
use super::GradFloat;
use crate::error::{OrPanic, ShapeError};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::vec::Vec;

/// `v` rounded to `T` (how PyTorch's kernels take a Python float).
#[inline(always)]
fn c<T: GradFloat>(v: f64) -> T {
    <T as GradFloat>::from_f64(v)
}

/// What an optimizer does, for code generic over the optimizer (a training loop, a schedule
/// applied through [`LrSchedule::apply`]). [`Sgd`], [`Adam`] and [`AdamW`] implement it, and
/// have the same methods inherent, so calling them needs no import of this trait.
pub trait Optimizer<T: GradFloat> {
    /// Updates every parameter of `params` that has a gradient in `grads` (PyTorch
    /// `optimizer.step()`); parameters without one are skipped. The parameters may have
    /// different shapes; each gradient has its parameter's elements in row-major order.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for an invalid hyper-parameter (a negative or NaN learning rate
    /// set by [`set_lr`](Self::set_lr), ...); [`ShapeError::Autograd`] naming the [`ParamId`]
    /// and both lengths when a gradient's or a state's length differs from its parameter's, or
    /// when a [`ParamId`] appears twice in `params`. Nothing is changed then.
    fn try_step(&mut self, params: &mut [&mut dyn AnyParam<T>], grads: &Grads<T>) -> Result<(), ShapeError>;

    /// [`try_step`](Self::try_step), panicking with its error.
    ///
    /// # Panics
    /// When `try_step` returns an error.
    #[track_caller]
    fn step(&mut self, params: &mut [&mut dyn AnyParam<T>], grads: &Grads<T>) {
        self.try_step(params, grads).or_panic()
    }

    /// The learning rate of the next step (PyTorch `param_groups[0]["lr"]`).
    fn lr(&self) -> f64;

    /// Sets the learning rate of the next steps (what PyTorch's schedulers do to
    /// `param_groups[i]["lr"]`). Not checked here: the next step refuses a negative or NaN rate.
    fn set_lr(&mut self, lr: f64);
}

/// Refuses a hyper-parameter that is not `>= 0` (NaN included), as PyTorch's constructors do.
fn nonneg(name: &str, opt: &str, v: f64) -> Result<(), ShapeError> {
    if v >= 0.0 {
        Ok(())
    } else {
        Err(ShapeError::Invalid(format!("{opt}: invalid {name}: {v} (must be >= 0)")))
    }
}

/// The checks every step makes before it changes anything: no [`ParamId`] twice, every
/// gradient as long as its parameter, every existing state as long as its parameter.
fn check_step<T: GradFloat>(
    opt: &str,
    params: &[&mut dyn AnyParam<T>],
    grads: &Grads<T>,
    state_len: impl Fn(ParamId) -> Option<usize>,
) -> Result<(), ShapeError> {
    let mut ids: Vec<ParamId> = params.iter().map(|p| p.id()).collect();
    ids.sort_unstable();
    if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
        return Err(ShapeError::Autograd(format!(
            "{opt}: parameter {:?} appears twice in one step (a cloned Param keeps its id): each parameter must be passed once",
            w[0]
        )));
    }
    for p in params {
        let (id, n) = (p.id(), p.numel());
        let Some(g) = grads.param_slice(id) else { continue };
        if g.len() != n {
            return Err(ShapeError::Autograd(format!(
                "{opt}: the gradient of parameter {id:?} has {} elements but the parameter has {n}: the parameter's size changed after it was watched",
                g.len()
            )));
        }
        if let Some(s) = state_len(id) {
            if s != n {
                return Err(ShapeError::Autograd(format!(
                    "{opt}: the state of parameter {id:?} has {s} elements but the parameter has {n}: its size changed since the last step (clear_state({id:?}) starts it afresh)"
                )));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// SGD
// ---------------------------------------------------------------------------------------------

/// The hyper-parameters of [`Sgd`], with PyTorch's defaults (`torch.optim.SGD`): `lr = 1e-3`,
/// no momentum, no dampening, no weight decay, no Nesterov, minimising.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::SgdConfig;
/// let c = SgdConfig { lr: 0.1, momentum: 0.9, nesterov: true, ..Default::default() };
/// assert_eq!(c.dampening, 0.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgdConfig {
    /// The learning rate (`>= 0`).
    pub lr: f64,
    /// The momentum factor (`>= 0`; `0` keeps no buffer).
    pub momentum: f64,
    /// The dampening of the momentum: the buffer adds `(1 - dampening) * g` (not at the first
    /// step, whose buffer is the gradient itself).
    pub dampening: f64,
    /// The L2 penalty (`>= 0`): `weight_decay * p` is added to the gradient.
    pub weight_decay: f64,
    /// Nesterov momentum (needs `momentum > 0` and `dampening == 0`).
    pub nesterov: bool,
    /// Maximise the objective instead of minimising it (the gradient's sign is flipped).
    pub maximize: bool,
}

impl Default for SgdConfig {
    fn default() -> Self {
        SgdConfig { lr: 1e-3, momentum: 0.0, dampening: 0.0, weight_decay: 0.0, nesterov: false, maximize: false }
    }
}

impl SgdConfig {
    /// The checks of PyTorch's `SGD.__init__`.
    fn check(&self) -> Result<(), ShapeError> {
        nonneg("learning rate", "SGD", self.lr)?;
        nonneg("momentum", "SGD", self.momentum)?;
        nonneg("weight_decay", "SGD", self.weight_decay)?;
        if self.dampening.is_nan() {
            return Err(ShapeError::Invalid("SGD: invalid dampening: NaN".into()));
        }
        if self.nesterov && (self.momentum <= 0.0 || self.dampening != 0.0) {
            return Err(ShapeError::Invalid(format!(
                "SGD: Nesterov momentum requires a momentum and zero dampening (momentum {}, dampening {})",
                self.momentum, self.dampening
            )));
        }
        Ok(())
    }
}

/// Stochastic gradient descent with optional momentum, dampening, Nesterov momentum, weight
/// decay and maximisation: PyTorch `torch.optim.SGD`, the same update to round-off.
///
/// For each parameter `p` with gradient `g` (both of `p`'s shape, element by element):
///
/// ```text
/// g = -g                              if maximize
/// g = g + weight_decay * p            if weight_decay != 0
/// if momentum != 0:
///     buf = g                         at the parameter's first step
///     buf = momentum * buf + (1 - dampening) * g     afterwards
///     g = g + momentum * buf          if nesterov, else g = buf
/// p = p - lr * g
/// ```
///
/// The state is one momentum buffer per [`ParamId`] (none without momentum).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::optim::{Sgd, SgdConfig};
/// use shaped::autograd::{Param, Tape};
///
/// let mut w = Param::new(Tensor::<f32, Shape![2, 3]>::ones());
/// let mut b = Param::new(Tensor::<f32, Shape![3]>::zeros());
/// let tape = Tape::new();
/// let (wv, bv) = (tape.watch(&w), tape.watch(&b));
/// let loss = (&wv + &bv).sum(); // every gradient is 1 for w, 2 for b
/// let grads = loss.backward();
/// let mut opt = Sgd::new(SgdConfig { lr: 0.5, ..Default::default() });
/// opt.step(&mut [&mut w, &mut b], &grads);
/// assert_eq!(w.value().to_vec(), [0.5; 6]);
/// assert_eq!(b.value().to_vec(), [-1.0; 3]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Sgd<T> {
    config: SgdConfig,
    momentum_buffers: BTreeMap<ParamId, Vec<T>>,
}

impl<T: GradFloat> Sgd<T> {
    /// An optimizer with hyper-parameters `config` and no state yet.
    ///
    /// # Panics
    /// When `config` is invalid (see [`try_new`](Self::try_new)).
    #[track_caller]
    pub fn new(config: SgdConfig) -> Self {
        Self::try_new(config).or_panic()
    }

    /// [`new`](Self::new), with PyTorch's checks as an error.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `lr`, `momentum` or `weight_decay` is negative or NaN,
    /// `dampening` is NaN, or `nesterov` is set without a positive momentum and zero dampening
    /// (PyTorch's `ValueError`s).
    pub fn try_new(config: SgdConfig) -> Result<Self, ShapeError> {
        config.check()?;
        Ok(Sgd { config, momentum_buffers: BTreeMap::new() })
    }

    /// The hyper-parameters.
    pub fn config(&self) -> &SgdConfig {
        &self.config
    }

    /// The learning rate of the next step.
    pub fn lr(&self) -> f64 {
        self.config.lr
    }

    /// Sets the learning rate of the next steps (checked by the next step).
    pub fn set_lr(&mut self, lr: f64) {
        self.config.lr = lr;
    }

    /// The momentum buffer of parameter `id` (its elements in row-major order; PyTorch
    /// `optimizer.state[p]["momentum_buffer"]`), or `None` before its first step or without
    /// momentum.
    pub fn momentum_buffer(&self, id: ParamId) -> Option<&[T]> {
        self.momentum_buffers.get(&id).map(Vec::as_slice)
    }

    /// Forgets the state of parameter `id` (its next step is a first step again).
    pub fn clear_state(&mut self, id: ParamId) {
        self.momentum_buffers.remove(&id);
    }

    /// One step over `params` (PyTorch `optimizer.step()`), see [`Sgd`].
    ///
    /// # Panics
    /// When [`try_step`](Self::try_step) returns an error.
    #[track_caller]
    pub fn step(&mut self, params: &mut [&mut dyn AnyParam<T>], grads: &Grads<T>) {
        self.try_step(params, grads).or_panic()
    }

    /// One step over `params`, every parameter that has a gradient in `grads` updated in place
    /// (parameters of any shapes; those without a gradient are skipped).
    ///
    /// # Errors
    /// As [`Optimizer::try_step`]: an invalid hyper-parameter, a gradient or momentum buffer
    /// whose length differs from its parameter's (the error names the [`ParamId`] and both
    /// lengths), a [`ParamId`] twice. Nothing is changed then.
    pub fn try_step(&mut self, params: &mut [&mut dyn AnyParam<T>], grads: &Grads<T>) -> Result<(), ShapeError> {
        let cfg = self.config;
        cfg.check()?;
        check_step("SGD", params, grads, |id| self.momentum_buffers.get(&id).map(Vec::len))?;
        let lr: T = c(-cfg.lr);
        let wd: T = c(cfg.weight_decay);
        let mom: T = c(cfg.momentum);
        let damp: T = c(1.0 - cfg.dampening);
        let (decay, maximize, nesterov) = (cfg.weight_decay != 0.0, cfg.maximize, cfg.nesterov);
        // `maximize` negates the gradient: exact, so a product by -1 is the same.
        let sign: T = if maximize { -T::one() } else { T::one() };
        for p in params.iter_mut() {
            let id = p.id();
            let Some(g) = grads.param_slice(id) else { continue };
            if cfg.momentum == 0.0 {
                p.update(&mut |w: &mut [T]| {
                    for (w, &g) in w.iter_mut().zip(g) {
                        let mut d = sign * g;
                        if decay {
                            d += wd * *w;
                        }
                        *w += lr * d;
                    }
                });
                continue;
            }
            let first = !self.momentum_buffers.contains_key(&id);
            let buf = self.momentum_buffers.entry(id).or_insert_with(|| alloc::vec![T::zero(); g.len()]);
            p.update(&mut |w: &mut [T]| {
                for ((w, &g), b) in w.iter_mut().zip(g).zip(buf.iter_mut()) {
                    let mut d = sign * g;
                    if decay {
                        d += wd * *w;
                    }
                    *b = if first { d } else { *b * mom + damp * d };
                    d = if nesterov { d + mom * *b } else { *b };
                    *w += lr * d;
                }
            });
        }
        Ok(())
    }
}

impl<T: GradFloat> Optimizer<T> for Sgd<T> {
    fn try_step(&mut self, params: &mut [&mut dyn AnyParam<T>], grads: &Grads<T>) -> Result<(), ShapeError> {
        Sgd::try_step(self, params, grads)
    }
    fn lr(&self) -> f64 {
        self.config.lr
    }
    fn set_lr(&mut self, lr: f64) {
        self.config.lr = lr;
    }
}

// ---------------------------------------------------------------------------------------------
// Adam and AdamW
// ---------------------------------------------------------------------------------------------

/// The hyper-parameters of [`Adam`], with PyTorch's defaults (`torch.optim.Adam`): `lr = 1e-3`,
/// `betas = (0.9, 0.999)`, `eps = 1e-8`, no weight decay, no AMSGrad, minimising.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::AdamConfig;
/// let c = AdamConfig { lr: 3e-4, amsgrad: true, ..Default::default() };
/// assert_eq!(c.betas, (0.9, 0.999));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamConfig {
    /// The learning rate (`>= 0`).
    pub lr: f64,
    /// The decay rates of the first and second moment estimates (each in `[0, 1)`).
    pub betas: (f64, f64),
    /// Added to the square root of the bias-corrected second moment (`>= 0`).
    pub eps: f64,
    /// The L2 penalty (`>= 0`): `weight_decay * p` is added to the gradient (coupled, unlike
    /// [`AdamW`]).
    pub weight_decay: f64,
    /// AMSGrad: normalise by the running maximum of the second moment estimates.
    pub amsgrad: bool,
    /// Maximise the objective instead of minimising it.
    pub maximize: bool,
}

impl Default for AdamConfig {
    fn default() -> Self {
        AdamConfig { lr: 1e-3, betas: (0.9, 0.999), eps: 1e-8, weight_decay: 0.0, amsgrad: false, maximize: false }
    }
}

/// The hyper-parameters of [`AdamW`], with PyTorch's defaults (`torch.optim.AdamW`): as
/// [`AdamConfig`] but `weight_decay = 1e-2`, decoupled from the gradient.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::AdamWConfig;
/// assert_eq!(AdamWConfig::default().weight_decay, 1e-2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamWConfig {
    /// The learning rate (`>= 0`).
    pub lr: f64,
    /// The decay rates of the first and second moment estimates (each in `[0, 1)`).
    pub betas: (f64, f64),
    /// Added to the square root of the bias-corrected second moment (`>= 0`).
    pub eps: f64,
    /// The decoupled weight decay (`>= 0`): `p *= 1 - lr * weight_decay` before each update.
    pub weight_decay: f64,
    /// AMSGrad: normalise by the running maximum of the second moment estimates.
    pub amsgrad: bool,
    /// Maximise the objective instead of minimising it.
    pub maximize: bool,
}

impl Default for AdamWConfig {
    fn default() -> Self {
        AdamWConfig { lr: 1e-3, betas: (0.9, 0.999), eps: 1e-8, weight_decay: 1e-2, amsgrad: false, maximize: false }
    }
}

/// The fields Adam and AdamW share, and whether the decay is decoupled.
#[derive(Clone, Copy)]
struct AdamHyper {
    lr: f64,
    betas: (f64, f64),
    eps: f64,
    weight_decay: f64,
    amsgrad: bool,
    maximize: bool,
    decoupled: bool,
}

impl AdamHyper {
    fn name(&self) -> &'static str {
        if self.decoupled {
            "AdamW"
        } else {
            "Adam"
        }
    }

    /// The checks of PyTorch's `Adam.__init__`.
    fn check(&self) -> Result<(), ShapeError> {
        let opt = self.name();
        nonneg("learning rate", opt, self.lr)?;
        nonneg("epsilon value", opt, self.eps)?;
        for (i, b) in [self.betas.0, self.betas.1].into_iter().enumerate() {
            if !(0.0..1.0).contains(&b) {
                return Err(ShapeError::Invalid(format!(
                    "{opt}: invalid beta parameter at index {i}: {b} (must be in [0, 1))"
                )));
            }
        }
        nonneg("weight_decay", opt, self.weight_decay)
    }
}

/// The state of one parameter under Adam or AdamW (PyTorch `optimizer.state[p]`).
#[derive(Clone, Debug, PartialEq)]
struct AdamSlot<T> {
    /// The number of steps this parameter has taken.
    step: u64,
    exp_avg: Vec<T>,
    exp_avg_sq: Vec<T>,
    /// Empty without AMSGrad.
    max_exp_avg_sq: Vec<T>,
}

/// The state of Adam or AdamW, keyed by parameter.
#[derive(Clone, Debug, PartialEq)]
struct AdamState<T> {
    slots: BTreeMap<ParamId, AdamSlot<T>>,
}

/// `torch.maximum` of two elements: NaN when either is.
#[inline(always)]
fn nan_max<T: GradFloat>(a: T, b: T) -> T {
    if a.is_nan() {
        a
    } else if b > a || b.is_nan() {
        b
    } else {
        a
    }
}

/// The scalars of one Adam step of one parameter, rounded to `T`.
struct AdamScalars<T> {
    sign: T,
    one_minus_b1: T,
    /// Whether `1 - beta1 < 0.5`: which side ATen's `lerp` computes from.
    small_weight: bool,
    beta2: T,
    one_minus_b2: T,
    eps: T,
    coupled: bool,
    wd: T,
    decoupled: bool,
    decay_factor: T,
    neg_step_size: T,
    bc2_sqrt: T,
}

impl<T: GradFloat> AdamScalars<T> {
    /// One element of PyTorch's `_single_tensor_adam`, in its order of operations.
    #[inline(always)]
    fn update(&self, w: &mut T, g: T, m: &mut T, v: &mut T, v_max: Option<&mut T>) {
        let mut p = *w;
        if self.decoupled {
            // param.mul_(1 - lr * weight_decay).
            p *= self.decay_factor;
        }
        let mut d = self.sign * g;
        if self.coupled {
            // grad = grad.add(param, alpha=weight_decay).
            d += self.wd * p;
        }
        // exp_avg.lerp_(grad, 1 - beta1), ATen's two-sided lerp.
        let w1 = self.one_minus_b1;
        *m = if self.small_weight { *m + w1 * (d - *m) } else { d - (d - *m) * (T::one() - w1) };
        // exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2).
        *v = *v * self.beta2 + self.one_minus_b2 * d * d;
        let second = match v_max {
            // torch.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq).
            Some(vm) => {
                *vm = nan_max(*vm, *v);
                *vm
            }
            None => *v,
        };
        // denom = (second.sqrt() / bias_correction2_sqrt).add_(eps);
        // param.addcdiv_(exp_avg, denom, value=-step_size).
        let denom = second.sqrt() / self.bc2_sqrt + self.eps;
        *w = p + self.neg_step_size * *m / denom;
    }
}

impl<T: GradFloat> AdamScalars<T> {
    /// [`update`](Self::update) of every element (no AMSGrad), with the options fixed outside
    /// the loop and the slices cut to one length, so that the loop compiles to vector operations
    /// (with the options tested per element it stayed scalar: 1.9 of the 3.4 ms of the MLP's
    /// training step, 85,000 parameters, on an AVX-512 machine).
    #[inline(always)]
    fn update_all(&self, w: &mut [T], g: &[T], m: &mut [T], v: &mut [T]) {
        match (self.decoupled, self.coupled, self.small_weight) {
            (false, false, true) => self.update_each::<false, false, true>(w, g, m, v),
            (false, false, false) => self.update_each::<false, false, false>(w, g, m, v),
            (true, false, true) => self.update_each::<true, false, true>(w, g, m, v),
            (true, false, false) => self.update_each::<true, false, false>(w, g, m, v),
            (false, true, true) => self.update_each::<false, true, true>(w, g, m, v),
            (false, true, false) => self.update_each::<false, true, false>(w, g, m, v),
            (true, true, true) => self.update_each::<true, true, true>(w, g, m, v),
            (true, true, false) => self.update_each::<true, true, false>(w, g, m, v),
        }
    }
    /// The loop of [`update_all`](Self::update_all) for one choice of the options (`DEC`:
    /// decoupled weight decay, `COUP`: coupled, `SMALL`: the lerp's small-weight form), the same
    /// operations in the same order as [`update`](Self::update).
    #[inline(always)]
    fn update_each<const DEC: bool, const COUP: bool, const SMALL: bool>(
        &self,
        w: &mut [T],
        g: &[T],
        m: &mut [T],
        v: &mut [T],
    ) {
        let n = w.len().min(g.len()).min(m.len()).min(v.len());
        let (w, g, m, v) = (&mut w[..n], &g[..n], &mut m[..n], &mut v[..n]);
        let w1 = self.one_minus_b1;
        for i in 0..n {
            let mut p = w[i];
            if DEC {
                p *= self.decay_factor;
            }
            let mut d = self.sign * g[i];
            if COUP {
                d += self.wd * p;
            }
            let mi = m[i];
            let mi = if SMALL { mi + w1 * (d - mi) } else { d - (d - mi) * (T::one() - w1) };
            m[i] = mi;
            let vi = v[i] * self.beta2 + self.one_minus_b2 * d * d;
            v[i] = vi;
            let denom = vi.sqrt() / self.bc2_sqrt + self.eps;
            w[i] = p + self.neg_step_size * mi / denom;
        }
    }
}

impl<T: GradFloat> AdamState<T> {
    fn new() -> Self {
        AdamState { slots: BTreeMap::new() }
    }

    fn try_step(
        &mut self,
        h: AdamHyper,
        params: &mut [&mut dyn AnyParam<T>],
        grads: &Grads<T>,
    ) -> Result<(), ShapeError> {
        h.check()?;
        check_step(h.name(), params, grads, |id| self.slots.get(&id).map(|s| s.exp_avg.len()))?;
        let (b1, b2) = h.betas;
        let mut k = AdamScalars {
            sign: if h.maximize { -T::one() } else { T::one() },
            one_minus_b1: c(1.0 - b1),
            small_weight: (1.0 - b1).abs() < 0.5,
            beta2: c(b2),
            one_minus_b2: c(1.0 - b2),
            eps: c(h.eps),
            coupled: !h.decoupled && h.weight_decay != 0.0,
            wd: c(h.weight_decay),
            decoupled: h.decoupled && h.weight_decay != 0.0,
            decay_factor: c(1.0 - h.lr * h.weight_decay),
            neg_step_size: T::zero(),
            bc2_sqrt: T::one(),
        };
        for p in params.iter_mut() {
            let id = p.id();
            let Some(g) = grads.param_slice(id) else { continue };
            let n = g.len();
            let slot = self.slots.entry(id).or_insert_with(|| AdamSlot {
                step: 0,
                exp_avg: alloc::vec![T::zero(); n],
                exp_avg_sq: alloc::vec![T::zero(); n],
                max_exp_avg_sq: Vec::new(),
            });
            if h.amsgrad && slot.max_exp_avg_sq.len() != n {
                // PyTorch creates it (zeros) with the rest of the state.
                slot.max_exp_avg_sq = alloc::vec![T::zero(); n];
            }
            slot.step += 1;
            // As PyTorch: the scalars in f64 (Python floats), then rounded to T.
            let t = slot.step as f64;
            let bias_correction1 = 1.0 - libm::pow(b1, t);
            let bias_correction2 = 1.0 - libm::pow(b2, t);
            k.neg_step_size = c(-(h.lr / bias_correction1));
            k.bc2_sqrt = c(libm::pow(bias_correction2, 0.5));
            let AdamSlot { exp_avg, exp_avg_sq, max_exp_avg_sq, .. } = slot;
            let amsgrad = h.amsgrad;
            let k = &k;
            p.update(&mut |w: &mut [T]| {
                if amsgrad {
                    let wgmv = w.iter_mut().zip(g).zip(exp_avg.iter_mut()).zip(exp_avg_sq.iter_mut());
                    for ((((w, &g), m), v), vm) in wgmv.zip(max_exp_avg_sq.iter_mut()) {
                        k.update(w, g, m, v, Some(vm));
                    }
                } else {
                    k.update_all(w, g, exp_avg, exp_avg_sq);
                }
            });
        }
        Ok(())
    }

    fn clear(&mut self, id: ParamId) {
        self.slots.remove(&id);
    }
}

/// Adam (Kingma and Ba, 2015): PyTorch `torch.optim.Adam`, the same update to round-off.
///
/// For each parameter `p` with gradient `g` (element by element; `t` counts this parameter's
/// steps from 1; `m`, `v` and `v_max` start at zero):
///
/// ```text
/// g = -g                              if maximize
/// g = g + weight_decay * p            if weight_decay != 0
/// m = lerp(m, g, 1 - beta1)           (= beta1 m + (1 - beta1) g)
/// v = beta2 v + (1 - beta2) g²
/// v_max = max(v_max, v); v = v_max    if amsgrad
/// p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
/// ```
///
/// `eps` is added after the square root of the bias-corrected second moment, as PyTorch does.
/// The state per [`ParamId`] is the step count and `m`, `v` (and `v_max` with AMSGrad).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::optim::{Adam, AdamConfig};
/// use shaped::autograd::{Param, Tape};
///
/// let mut w = Param::new(Tensor::<f64, Shape![2]>::from([1.0, -2.0]));
/// let mut opt = Adam::new(AdamConfig { lr: 0.1, ..Default::default() });
/// let tape = Tape::new();
/// let loss = tape.watch(&w).square().sum();
/// let grads = loss.backward();
/// opt.step(&mut [&mut w], &grads);
/// // The first Adam step moves each element by about lr against its gradient's sign.
/// let v = w.value().to_vec();
/// assert!((v[0] - 0.9).abs() < 1e-6 && (v[1] + 1.9).abs() < 1e-6);
/// assert_eq!(opt.step_count(w.id()), Some(1));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Adam<T> {
    config: AdamConfig,
    state: AdamState<T>,
}

/// AdamW (Loshchilov and Hutter, 2019): Adam with decoupled weight decay, PyTorch
/// `torch.optim.AdamW`, the same update to round-off.
///
/// As [`Adam`], except that the weight decay does not enter the gradient: before the update,
/// `p = p * (1 - lr * weight_decay)` (the factor computed in `f64`, then rounded to `T`).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::optim::{AdamW, AdamWConfig};
/// use shaped::autograd::{Param, Tape};
///
/// let mut w = Param::new(Tensor::<f32, Shape![3]>::from([1.0, 2.0, 3.0]));
/// let mut b = Param::new(Tensor::<f32, Shape![2, 2]>::zeros());
/// let mut opt = AdamW::new(AdamWConfig { lr: 1e-2, ..Default::default() });
/// let tape = Tape::new();
/// let loss = tape.watch(&w).sum(); // b is not watched: no gradient, skipped
/// let grads = loss.backward();
/// opt.step(&mut [&mut w, &mut b], &grads);
/// assert_eq!(b.value().to_vec(), [0.0; 4]);
/// assert_eq!(opt.step_count(b.id()), None);
/// assert!((w.value().to_vec()[0] - (1.0 * (1.0 - 1e-4) - 1e-2)).abs() < 1e-6);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW<T> {
    config: AdamWConfig,
    state: AdamState<T>,
}

macro_rules! adam_like {
    ($Opt:ident, $Config:ident, $decoupled:expr, $name:literal) => {
        impl<T: GradFloat> $Opt<T> {
            /// An optimizer with hyper-parameters `config` and no state yet.
            ///
            /// # Panics
            /// When `config` is invalid (see [`try_new`](Self::try_new)).
            #[track_caller]
            pub fn new(config: $Config) -> Self {
                Self::try_new(config).or_panic()
            }

            #[doc = concat!("[`new`](Self::new), with the checks of PyTorch's `", $name, ".__init__` as an error.")]
            ///
            /// # Errors
            /// [`ShapeError::Invalid`] when `lr`, `eps` or `weight_decay` is negative or NaN, or
            /// a beta is outside `[0, 1)` (PyTorch's `ValueError`s).
            pub fn try_new(config: $Config) -> Result<Self, ShapeError> {
                let s = $Opt { config, state: AdamState::new() };
                s.hyper().check()?;
                Ok(s)
            }

            fn hyper(&self) -> AdamHyper {
                let c = &self.config;
                AdamHyper {
                    lr: c.lr,
                    betas: c.betas,
                    eps: c.eps,
                    weight_decay: c.weight_decay,
                    amsgrad: c.amsgrad,
                    maximize: c.maximize,
                    decoupled: $decoupled,
                }
            }

            /// The hyper-parameters.
            pub fn config(&self) -> &$Config {
                &self.config
            }

            /// The learning rate of the next step.
            pub fn lr(&self) -> f64 {
                self.config.lr
            }

            /// Sets the learning rate of the next steps (checked by the next step).
            pub fn set_lr(&mut self, lr: f64) {
                self.config.lr = lr;
            }

            /// The number of steps parameter `id` has taken (PyTorch `optimizer.state[p]["step"]`),
            /// or `None` before its first.
            pub fn step_count(&self, id: ParamId) -> Option<u64> {
                self.state.slots.get(&id).map(|s| s.step)
            }

            /// The first moment estimate of parameter `id`, row-major (PyTorch
            /// `optimizer.state[p]["exp_avg"]`), or `None` before its first step.
            pub fn exp_avg(&self, id: ParamId) -> Option<&[T]> {
                self.state.slots.get(&id).map(|s| s.exp_avg.as_slice())
            }

            /// The second moment estimate of parameter `id`, row-major (PyTorch
            /// `optimizer.state[p]["exp_avg_sq"]`), or `None` before its first step.
            pub fn exp_avg_sq(&self, id: ParamId) -> Option<&[T]> {
                self.state.slots.get(&id).map(|s| s.exp_avg_sq.as_slice())
            }

            /// The running maximum of the second moment estimates of parameter `id`, row-major
            /// (PyTorch `optimizer.state[p]["max_exp_avg_sq"]`), or `None` before its first step
            /// or without AMSGrad.
            pub fn max_exp_avg_sq(&self, id: ParamId) -> Option<&[T]> {
                if !self.config.amsgrad {
                    return None;
                }
                self.state.slots.get(&id).map(|s| s.max_exp_avg_sq.as_slice())
            }

            /// Forgets the state of parameter `id` (its next step is a first step again).
            pub fn clear_state(&mut self, id: ParamId) {
                self.state.clear(id);
            }

            #[doc = concat!("One step over `params` (PyTorch `optimizer.step()`), see [`", stringify!($Opt), "`].")]
            ///
            /// # Panics
            /// When [`try_step`](Self::try_step) returns an error.
            #[track_caller]
            pub fn step(&mut self, params: &mut [&mut dyn AnyParam<T>], grads: &Grads<T>) {
                self.try_step(params, grads).or_panic()
            }

            /// One step over `params`, every parameter that has a gradient in `grads` updated in
            /// place (parameters of any shapes; those without a gradient are skipped).
            ///
            /// # Errors
            /// As [`Optimizer::try_step`]: an invalid hyper-parameter, a gradient or state whose
            /// length differs from its parameter's (the error names the [`ParamId`] and both
            /// lengths), a [`ParamId`] twice. Nothing is changed then.
            pub fn try_step(
                &mut self,
                params: &mut [&mut dyn AnyParam<T>],
                grads: &Grads<T>,
            ) -> Result<(), ShapeError> {
                let h = self.hyper();
                self.state.try_step(h, params, grads)
            }
        }

        impl<T: GradFloat> Optimizer<T> for $Opt<T> {
            fn try_step(&mut self, params: &mut [&mut dyn AnyParam<T>], grads: &Grads<T>) -> Result<(), ShapeError> {
                $Opt::try_step(self, params, grads)
            }
            fn lr(&self) -> f64 {
                self.config.lr
            }
            fn set_lr(&mut self, lr: f64) {
                self.config.lr = lr;
            }
        }
    };
}

adam_like!(Adam, AdamConfig, false, "Adam");
adam_like!(AdamW, AdamWConfig, true, "AdamW");

// ---------------------------------------------------------------------------------------------
// Learning-rate schedules
// ---------------------------------------------------------------------------------------------

/// A learning rate per epoch, in closed form (PyTorch's `torch.optim.lr_scheduler` classes,
/// their `_get_closed_form_lr`).
pub trait LrSchedule {
    /// The learning rate of epoch `epoch` (0 is the first): the rate PyTorch's scheduler has set
    /// after `epoch` calls of `scheduler.step()`.
    fn lr_at(&self, epoch: usize) -> f64;

    /// Sets `opt`'s learning rate to that of `epoch` (what `scheduler.step()` does to the
    /// optimizer, without a counter to keep in sync).
    fn apply<T: GradFloat, O: Optimizer<T> + ?Sized>(&self, opt: &mut O, epoch: usize) {
        opt.set_lr(self.lr_at(epoch));
    }
}

/// Decays the learning rate by `gamma` every `step_size` epochs (PyTorch
/// `torch.optim.lr_scheduler.StepLR`): `lr_at(e) = base_lr * gamma^(e / step_size)` (integer
/// division).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::{LrSchedule, Sgd, SgdConfig, StepLr};
///
/// let mut opt = Sgd::<f32>::new(SgdConfig { lr: 0.1, ..Default::default() });
/// let schedule = StepLr::new(opt.lr(), 30, 0.1);
/// assert_eq!(schedule.lr_at(29), 0.1);
/// schedule.apply(&mut opt, 30);
/// assert!((opt.lr() - 0.01).abs() < 1e-15);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepLr {
    base_lr: f64,
    step_size: usize,
    gamma: f64,
}

impl StepLr {
    /// A schedule starting at `base_lr` (usually the optimizer's [`lr`](Optimizer::lr)),
    /// multiplied by `gamma` (PyTorch's default is `0.1`) every `step_size` epochs.
    ///
    /// # Panics
    /// When the arguments are invalid (see [`try_new`](Self::try_new)).
    #[track_caller]
    pub fn new(base_lr: f64, step_size: usize, gamma: f64) -> Self {
        Self::try_new(base_lr, step_size, gamma).or_panic()
    }

    /// [`new`](Self::new), with the checks as an error.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `step_size` is 0 (PyTorch divides by it), or `base_lr` or
    /// `gamma` is negative or NaN.
    pub fn try_new(base_lr: f64, step_size: usize, gamma: f64) -> Result<Self, ShapeError> {
        nonneg("base learning rate", "StepLR", base_lr)?;
        nonneg("gamma", "StepLR", gamma)?;
        if step_size == 0 {
            return Err(ShapeError::Invalid("StepLR: step_size must be at least 1".into()));
        }
        Ok(StepLr { base_lr, step_size, gamma })
    }

    /// The learning rate of epoch `epoch`: `base_lr * gamma^(epoch / step_size)`.
    pub fn lr_at(&self, epoch: usize) -> f64 {
        self.base_lr * libm::pow(self.gamma, (epoch / self.step_size) as f64)
    }
}

impl LrSchedule for StepLr {
    fn lr_at(&self, epoch: usize) -> f64 {
        StepLr::lr_at(self, epoch)
    }
}

/// Cosine annealing from `base_lr` down to `eta_min` over `t_max` epochs (PyTorch
/// `torch.optim.lr_scheduler.CosineAnnealingLR`, without restarts):
/// `lr_at(e) = eta_min + (base_lr - eta_min) * (1 + cos(pi * e / t_max)) / 2`. Past `t_max` the
/// cosine goes on (the rate rises again, period `2 * t_max`), as PyTorch's does.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::CosineAnnealingLr;
///
/// let schedule = CosineAnnealingLr::new(0.1, 10, 0.001);
/// assert_eq!(schedule.lr_at(0), 0.1);
/// assert!((schedule.lr_at(5) - 0.0505).abs() < 1e-15);
/// assert_eq!(schedule.lr_at(10), 0.001);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CosineAnnealingLr {
    base_lr: f64,
    t_max: usize,
    eta_min: f64,
}

impl CosineAnnealingLr {
    /// A schedule from `base_lr` (usually the optimizer's [`lr`](Optimizer::lr)) at epoch 0 to
    /// `eta_min` (PyTorch's default is `0.0`) at epoch `t_max`.
    ///
    /// # Panics
    /// When the arguments are invalid (see [`try_new`](Self::try_new)).
    #[track_caller]
    pub fn new(base_lr: f64, t_max: usize, eta_min: f64) -> Self {
        Self::try_new(base_lr, t_max, eta_min).or_panic()
    }

    /// [`new`](Self::new), with the checks as an error.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `t_max` is 0 (PyTorch divides by it), or `base_lr` or
    /// `eta_min` is negative or NaN.
    pub fn try_new(base_lr: f64, t_max: usize, eta_min: f64) -> Result<Self, ShapeError> {
        nonneg("base learning rate", "CosineAnnealingLR", base_lr)?;
        nonneg("eta_min", "CosineAnnealingLR", eta_min)?;
        if t_max == 0 {
            return Err(ShapeError::Invalid("CosineAnnealingLR: t_max must be at least 1".into()));
        }
        Ok(CosineAnnealingLr { base_lr, t_max, eta_min })
    }

    /// The learning rate of epoch `epoch`:
    /// `eta_min + (base_lr - eta_min) * (1 + cos(pi * epoch / t_max)) / 2`.
    pub fn lr_at(&self, epoch: usize) -> f64 {
        let x = core::f64::consts::PI * epoch as f64 / self.t_max as f64;
        self.eta_min + (self.base_lr - self.eta_min) * (1.0 + libm::cos(x)) / 2.0
    }
}

impl LrSchedule for CosineAnnealingLr {
    fn lr_at(&self, epoch: usize) -> f64 {
        CosineAnnealingLr::lr_at(self, epoch)
    }
}
