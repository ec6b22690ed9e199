//! Adagrad (PyTorch `torch.optim.Adagrad`).
use super::slots::{Core, Slot, SlotLayout};
use super::{
    c, check_step, coupled, nonneg, optimizer_common, GroupOptions, Optimizer, ParamNames, StateSpec, TrainState,
};
use crate::autograd::{AnyParam, GradFloat, Grads, ParamId};
use crate::error::{OrPanic, ShapeError};
use alloc::vec::Vec;

/// The hyper-parameters of [`Adagrad`], with PyTorch's defaults (`torch.optim.Adagrad`):
/// `lr = 1e-2`, no learning-rate decay, no weight decay, accumulators starting at 0,
/// `eps = 1e-10`, minimising.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::AdagradConfig;
/// let c = AdagradConfig { initial_accumulator_value: 0.1, ..Default::default() };
/// assert_eq!((c.lr, c.eps), (1e-2, 1e-10));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdagradConfig {
    /// The learning rate (`>= 0`).
    pub lr: f64,
    /// The learning-rate decay (`>= 0`): step `t` (from 1) uses `lr / (1 + (t - 1) * lr_decay)`.
    pub lr_decay: f64,
    /// The L2 penalty (`>= 0`): `weight_decay * p` is added to the gradient.
    pub weight_decay: f64,
    /// The starting value of every accumulator (`>= 0`).
    pub initial_accumulator_value: f64,
    /// Added to the root of the accumulator (`>= 0`).
    pub eps: f64,
    /// Maximise the objective instead of minimising it.
    pub maximize: bool,
}

impl Default for AdagradConfig {
    fn default() -> Self {
        AdagradConfig {
            lr: 1e-2,
            lr_decay: 0.0,
            weight_decay: 0.0,
            initial_accumulator_value: 0.0,
            eps: 1e-10,
            maximize: false,
        }
    }
}

impl AdagradConfig {
    /// The checks of PyTorch's `Adagrad.__init__`.
    fn check(&self) -> Result<(), ShapeError> {
        nonneg("learning rate", "Adagrad", self.lr)?;
        nonneg("lr_decay value", "Adagrad", self.lr_decay)?;
        nonneg("weight_decay value", "Adagrad", self.weight_decay)?;
        nonneg("initial_accumulator_value value", "Adagrad", self.initial_accumulator_value)?;
        nonneg("epsilon value", "Adagrad", self.eps)
    }
}

/// Adagrad (Duchi, Hazan and Singer, 2011): PyTorch `torch.optim.Adagrad`, the same update to
/// round-off (dense gradients).
///
/// For each parameter `p` with gradient `g` (element by element; `t` counts this parameter's
/// steps from 1; `lr` and `weight_decay` are those of `p`'s parameter group; `sum` starts at
/// `initial_accumulator_value`):
///
/// ```text
/// g = -g                              if maximize
/// g = g + weight_decay * p            if weight_decay != 0
/// clr = lr / (1 + (t - 1) * lr_decay)
/// sum = sum + g²
/// p = p - clr * g / (sqrt(sum) + eps)
/// ```
///
/// The state per [`ParamId`] is the step count and `sum`, saved as PyTorch's
/// `state.<name>.step` and `sum`. PyTorch creates the state of every parameter in its
/// constructor; here it is created at the parameter's first step, with the same values.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::optim::{Adagrad, AdagradConfig};
/// use shaped::autograd::{Param, Tape};
///
/// let mut w = Param::new(Tensor::<f64, Shape![2]>::from([1.0, -2.0]));
/// let mut opt = Adagrad::new(AdagradConfig { lr: 0.5, ..Default::default() });
/// let tape = Tape::new();
/// let grads = tape.watch(&w).square().sum().backward();
/// opt.step(&mut [&mut w], &grads);
/// // The first step divides the gradient by its own magnitude: it moves by lr.
/// let v = w.value().to_vec();
/// assert!((v[0] - 0.5).abs() < 1e-9 && (v[1] + 1.5).abs() < 1e-9);
/// assert_eq!(opt.sum(w.id()).unwrap(), [4.0, 16.0]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Adagrad<T> {
    config: AdagradConfig,
    core: Core<T>,
}

impl<T: GradFloat> Adagrad<T> {
    /// [`new`](Self::new), with PyTorch's checks as an error.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `lr`, `lr_decay`, `weight_decay`,
    /// `initial_accumulator_value` or `eps` is negative or NaN (PyTorch's `ValueError`s).
    pub fn try_new(config: AdagradConfig) -> Result<Self, ShapeError> {
        config.check()?;
        Ok(Adagrad { config, core: Core::new(config.lr) })
    }

    /// The number of steps parameter `id` has taken (PyTorch `optimizer.state[p]["step"]`), or
    /// `None` before its first.
    pub fn step_count(&self, id: ParamId) -> Option<u64> {
        self.core.slots.get(&id).map(|s| s.step)
    }

    /// The accumulated squared gradients of parameter `id`, row-major (PyTorch
    /// `optimizer.state[p]["sum"]`), or `None` before its first step.
    pub fn sum(&self, id: ParamId) -> Option<&[T]> {
        self.core.slots.get(&id).map(|s| s.bufs[0].as_slice())
    }

    fn check(&self) -> Result<(), ShapeError> {
        self.config.check()
    }

    fn layout(&self) -> SlotLayout {
        SlotLayout { name: "Adagrad", step: true, bufs: alloc::vec!["sum"] }
    }

    /// The update, everything checked: PyTorch's `_single_tensor_adagrad` in its order of
    /// operations.
    fn step_impl(&mut self, params: &mut [&mut dyn AnyParam<T>], grads: &Grads<T>) {
        let cfg = self.config;
        let sign: T = if cfg.maximize { -T::one() } else { T::one() };
        let eps: T = c(cfg.eps);
        let init: T = c(cfg.initial_accumulator_value);
        for p in params.iter_mut() {
            let id = p.id();
            let Some(g) = grads.param_slice(id) else { continue };
            let (lr, wd, decay) = self.core.groups.hyper_t::<T>(id, cfg.lr, cfg.weight_decay);
            let n = g.len();
            let slot =
                self.core.slots.entry(id).or_insert_with(|| Slot { step: 0, bufs: alloc::vec![alloc::vec![init; n]] });
            slot.step += 1;
            // clr = lr / (1 + (step - 1) * lr_decay), in Python floats.
            let clr = lr / (1.0 + (slot.step as f64 - 1.0) * cfg.lr_decay);
            let neg_clr: T = c(-clr);
            let sum = &mut slot.bufs[0];
            p.update(&mut |w: &mut [T]| {
                for ((w, &g), s) in w.iter_mut().zip(g).zip(sum.iter_mut()) {
                    let d = coupled(sign, g, decay, wd, *w);
                    // state_sum.addcmul_(grad, grad, value=1)
                    *s += d * d;
                    // std = state_sum.sqrt().add_(eps); param.addcdiv_(grad, std, value=-clr)
                    let std = s.sqrt() + eps;
                    *w += neg_clr * d / std;
                }
            });
        }
    }
}

optimizer_common!(Adagrad, AdagradConfig, "Adagrad");
