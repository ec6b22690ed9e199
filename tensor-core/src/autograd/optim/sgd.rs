//! Stochastic gradient descent (PyTorch `torch.optim.SGD`).
use super::slots::{Core, Slot, SlotLayout};
use super::{
    c, check_step, coupled, nonneg, optimizer_common, GroupOptions, Optimizer, ParamNames, StateSpec, TrainState,
};
use crate::autograd::{AnyParam, GradFloat, Grads, ParamId};
use crate::error::{OrPanic, ShapeError};
use alloc::format;
use alloc::vec::Vec;

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
/// For each parameter `p` with gradient `g` (both of `p`'s shape, element by element; `lr` and
/// `weight_decay` are those of `p`'s parameter group):
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
/// The state is one momentum buffer per [`ParamId`] (none without momentum), saved as
/// `state.<name>.momentum_buffer` (PyTorch's key; SGD counts no steps).
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
    core: Core<T>,
}

impl<T: GradFloat> Sgd<T> {
    /// [`new`](Self::new), with PyTorch's checks as an error.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `lr`, `momentum` or `weight_decay` is negative or NaN,
    /// `dampening` is NaN, or `nesterov` is set without a positive momentum and zero dampening
    /// (PyTorch's `ValueError`s).
    pub fn try_new(config: SgdConfig) -> Result<Self, ShapeError> {
        config.check()?;
        Ok(Sgd { config, core: Core::new(config.lr) })
    }

    /// The momentum buffer of parameter `id` (its elements in row-major order; PyTorch
    /// `optimizer.state[p]["momentum_buffer"]`), or `None` before its first step or without
    /// momentum.
    pub fn momentum_buffer(&self, id: ParamId) -> Option<&[T]> {
        self.core.slots.get(&id).and_then(|s| s.bufs.first()).map(Vec::as_slice)
    }

    fn check(&self) -> Result<(), ShapeError> {
        self.config.check()
    }

    fn layout(&self) -> SlotLayout {
        let bufs = if self.config.momentum != 0.0 { alloc::vec!["momentum_buffer"] } else { Vec::new() };
        SlotLayout { name: "SGD", step: false, bufs }
    }

    /// The update, everything checked.
    fn step_impl(&mut self, params: &mut [&mut dyn AnyParam<T>], grads: &Grads<T>) {
        let cfg = self.config;
        let mom: T = c(cfg.momentum);
        let damp: T = c(1.0 - cfg.dampening);
        let (maximize, nesterov) = (cfg.maximize, cfg.nesterov);
        // `maximize` negates the gradient: exact, so a product by -1 is the same.
        let sign: T = if maximize { -T::one() } else { T::one() };
        for p in params.iter_mut() {
            let id = p.id();
            let Some(g) = grads.param_slice(id) else { continue };
            let (lr, wd, decay) = self.core.groups.hyper_t::<T>(id, cfg.lr, cfg.weight_decay);
            let lr: T = c(-lr);
            if cfg.momentum == 0.0 {
                p.update(&mut |w: &mut [T]| {
                    for (w, &g) in w.iter_mut().zip(g) {
                        *w += lr * coupled(sign, g, decay, wd, *w);
                    }
                });
                continue;
            }
            let first = !self.core.slots.contains_key(&id);
            let slot = self
                .core
                .slots
                .entry(id)
                .or_insert_with(|| Slot { step: 0, bufs: alloc::vec![alloc::vec![T::zero(); g.len()]] });
            let buf = &mut slot.bufs[0];
            p.update(&mut |w: &mut [T]| {
                for ((w, &g), b) in w.iter_mut().zip(g).zip(buf.iter_mut()) {
                    let mut d = coupled(sign, g, decay, wd, *w);
                    *b = if first { d } else { *b * mom + damp * d };
                    d = if nesterov { d + mom * *b } else { *b };
                    *w += lr * d;
                }
            });
        }
    }
}

optimizer_common!(Sgd, SgdConfig, "SGD");
