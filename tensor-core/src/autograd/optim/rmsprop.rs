//! RMSprop (PyTorch `torch.optim.RMSprop`).
use super::slots::{Core, Slot, SlotLayout};
use super::{
    c, check_step, coupled, nonneg, optimizer_common, GroupOptions, Optimizer, ParamNames, StateSpec, TrainState,
};
use crate::autograd::{AnyParam, GradFloat, Grads, ParamId};
use crate::error::{OrPanic, ShapeError};
use alloc::vec::Vec;

/// The hyper-parameters of [`RmsProp`], with PyTorch's defaults (`torch.optim.RMSprop`):
/// `lr = 1e-2`, `alpha = 0.99`, `eps = 1e-8`, no weight decay, no momentum, not centered,
/// minimising.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::RmsPropConfig;
/// let c = RmsPropConfig { momentum: 0.9, centered: true, ..Default::default() };
/// assert_eq!((c.lr, c.alpha, c.eps), (1e-2, 0.99, 1e-8));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RmsPropConfig {
    /// The learning rate (`>= 0`).
    pub lr: f64,
    /// The smoothing constant of the running average of squared gradients (`>= 0`).
    pub alpha: f64,
    /// Added to the root of the average (`>= 0`).
    pub eps: f64,
    /// The L2 penalty (`>= 0`): `weight_decay * p` is added to the gradient.
    pub weight_decay: f64,
    /// The momentum factor (`>= 0`; `0` keeps no buffer).
    pub momentum: f64,
    /// Centered RMSprop: the gradient is normalised by an estimate of its variance (the average
    /// of squares minus the square of the running average of gradients).
    pub centered: bool,
    /// Maximise the objective instead of minimising it.
    pub maximize: bool,
}

impl Default for RmsPropConfig {
    fn default() -> Self {
        RmsPropConfig {
            lr: 1e-2,
            alpha: 0.99,
            eps: 1e-8,
            weight_decay: 0.0,
            momentum: 0.0,
            centered: false,
            maximize: false,
        }
    }
}

impl RmsPropConfig {
    /// The checks of PyTorch's `RMSprop.__init__`.
    fn check(&self) -> Result<(), ShapeError> {
        nonneg("learning rate", "RMSprop", self.lr)?;
        nonneg("epsilon value", "RMSprop", self.eps)?;
        nonneg("momentum value", "RMSprop", self.momentum)?;
        nonneg("weight_decay value", "RMSprop", self.weight_decay)?;
        nonneg("alpha value", "RMSprop", self.alpha)
    }
}

/// RMSprop (Hinton's lecture 6e; centered as Graves, 2013): PyTorch `torch.optim.RMSprop`, the
/// same update to round-off.
///
/// For each parameter `p` with gradient `g` (element by element; `lr` and `weight_decay` are
/// those of `p`'s parameter group; `v`, `a` and `buf` start at zero):
///
/// ```text
/// g = -g                              if maximize
/// g = g + weight_decay * p            if weight_decay != 0
/// v = alpha * v + (1 - alpha) * g²
/// if centered:
///     a = lerp(a, g, 1 - alpha)       (= alpha a + (1 - alpha) g)
///     avg = sqrt(v - a²) + eps
/// else:
///     avg = sqrt(v) + eps
/// if momentum > 0:
///     buf = momentum * buf + g / avg
///     p = p - lr * buf
/// else:
///     p = p - lr * g / avg
/// ```
///
/// The state per [`ParamId`] is the step count, `v` (and `buf` with momentum, `a` when
/// centered), saved as PyTorch's `state.<name>.step`, `square_avg`, `momentum_buffer` and
/// `grad_avg`.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::optim::{RmsProp, RmsPropConfig};
/// use shaped::autograd::{Param, Tape};
///
/// let mut w = Param::new(Tensor::<f64, Shape![2]>::from([1.0, -2.0]));
/// let mut opt = RmsProp::new(RmsPropConfig::default());
/// let tape = Tape::new();
/// let grads = tape.watch(&w).square().sum().backward(); // 2 w
/// opt.step(&mut [&mut w], &grads);
/// // The first step divides the gradient by sqrt(0.01 g²) = 0.1 |g|: it moves by 10 lr.
/// let v = w.value().to_vec();
/// assert!((v[0] - 0.9).abs() < 1e-7 && (v[1] + 1.9).abs() < 1e-7);
/// assert_eq!(opt.step_count(w.id()), Some(1));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct RmsProp<T> {
    config: RmsPropConfig,
    core: Core<T>,
}

impl<T: GradFloat> RmsProp<T> {
    /// [`new`](Self::new), with PyTorch's checks as an error.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `lr`, `alpha`, `eps`, `weight_decay` or `momentum` is
    /// negative or NaN (PyTorch's `ValueError`s).
    pub fn try_new(config: RmsPropConfig) -> Result<Self, ShapeError> {
        config.check()?;
        Ok(RmsProp { config, core: Core::new(config.lr) })
    }

    /// The number of steps parameter `id` has taken (PyTorch `optimizer.state[p]["step"]`), or
    /// `None` before its first.
    pub fn step_count(&self, id: ParamId) -> Option<u64> {
        self.core.slots.get(&id).map(|s| s.step)
    }

    /// The running average of squared gradients of parameter `id`, row-major (PyTorch
    /// `optimizer.state[p]["square_avg"]`), or `None` before its first step.
    pub fn square_avg(&self, id: ParamId) -> Option<&[T]> {
        self.buffer(id, "square_avg")
    }

    /// The momentum buffer of parameter `id` (PyTorch `optimizer.state[p]["momentum_buffer"]`),
    /// or `None` before its first step or without momentum.
    pub fn momentum_buffer(&self, id: ParamId) -> Option<&[T]> {
        self.buffer(id, "momentum_buffer")
    }

    /// The running average of gradients of parameter `id` (PyTorch
    /// `optimizer.state[p]["grad_avg"]`), or `None` before its first step or when not centered.
    pub fn grad_avg(&self, id: ParamId) -> Option<&[T]> {
        self.buffer(id, "grad_avg")
    }

    fn buffer(&self, id: ParamId, name: &str) -> Option<&[T]> {
        let i = self.layout().bufs.iter().position(|b| *b == name)?;
        self.core.slots.get(&id).map(|s| s.bufs[i].as_slice())
    }

    fn check(&self) -> Result<(), ShapeError> {
        self.config.check()
    }

    fn layout(&self) -> SlotLayout {
        let mut bufs = alloc::vec!["square_avg"];
        if self.config.momentum > 0.0 {
            bufs.push("momentum_buffer");
        }
        if self.config.centered {
            bufs.push("grad_avg");
        }
        SlotLayout { name: "RMSprop", step: true, bufs }
    }

    /// The update, everything checked: PyTorch's `_single_tensor_rmsprop` in its order of
    /// operations.
    fn step_impl(&mut self, params: &mut [&mut dyn AnyParam<T>], grads: &Grads<T>) {
        let cfg = self.config;
        let nbufs = self.layout().bufs.len();
        let sign: T = if cfg.maximize { -T::one() } else { T::one() };
        let alpha: T = c(cfg.alpha);
        let one_minus_alpha: T = c(1.0 - cfg.alpha);
        // ATen's lerp picks its side by the weight as the tensor's type holds it.
        let small_weight = one_minus_alpha.abs() < c(0.5);
        let eps: T = c(cfg.eps);
        let mom: T = c(cfg.momentum);
        let (momentum, centered) = (cfg.momentum > 0.0, cfg.centered);
        for p in params.iter_mut() {
            let id = p.id();
            let Some(g) = grads.param_slice(id) else { continue };
            let (lr, wd, decay) = self.core.groups.hyper_t::<T>(id, cfg.lr, cfg.weight_decay);
            let neg_lr: T = c(-lr);
            let n = g.len();
            let slot = self
                .core
                .slots
                .entry(id)
                .or_insert_with(|| Slot { step: 0, bufs: alloc::vec![alloc::vec![T::zero(); n]; nbufs] });
            slot.step += 1;
            let (square_avg, rest) = slot.bufs.split_first_mut().expect("an RMSprop slot holds square_avg");
            let (mut buf, mut grad_avg) = (None, None);
            let mut rest = rest.iter_mut();
            if momentum {
                buf = rest.next();
            }
            if centered {
                grad_avg = rest.next();
            }
            p.update(&mut |w: &mut [T]| {
                for i in 0..w.len().min(n) {
                    let d = coupled(sign, g[i], decay, wd, w[i]);
                    // square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
                    let v = square_avg[i] * alpha + one_minus_alpha * d * d;
                    square_avg[i] = v;
                    let avg = match grad_avg.as_deref_mut() {
                        Some(ga) => {
                            // grad_avg.lerp_(grad, 1 - alpha), ATen's two-sided lerp.
                            let a = ga[i];
                            let a = if small_weight {
                                a + one_minus_alpha * (d - a)
                            } else {
                                d - (d - a) * (T::one() - one_minus_alpha)
                            };
                            ga[i] = a;
                            // square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
                            (v + -T::one() * a * a).sqrt()
                        }
                        None => v.sqrt(),
                    } + eps;
                    match buf.as_deref_mut() {
                        Some(b) => {
                            // buf.mul_(momentum).addcdiv_(grad, avg); param.add_(buf, alpha=-lr)
                            let bi = b[i] * mom + d / avg;
                            b[i] = bi;
                            w[i] += neg_lr * bi;
                        }
                        // param.addcdiv_(grad, avg, value=-lr)
                        None => w[i] += neg_lr * d / avg,
                    }
                }
            });
        }
    }
}

optimizer_common!(RmsProp, RmsPropConfig, "RMSprop");
