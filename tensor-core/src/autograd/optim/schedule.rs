//! Learning-rate schedules (PyTorch's `torch.optim.lr_scheduler`): closed forms of the rate of
//! each epoch or step ([`LrSchedule`]: [`StepLr`], [`CosineAnnealingLr`], [`LinearLr`],
//! [`ExponentialLr`], [`OneCycleLr`]) and [`LrScheduler`], which steps one of them as PyTorch's
//! `scheduler.step()` does and saves its position.
use super::state::{check_specs, count_at, StateDtype, StateSpec, StateValue, TrainState};
use super::{nonneg, Optimizer};
use crate::autograd::GradFloat;
use crate::error::{OrPanic, ShapeError};
use alloc::format;
use alloc::vec::Vec;
use shaped_macros::try_twin;

/// A learning rate per epoch (or per step), in closed form (PyTorch's
/// `torch.optim.lr_scheduler` classes, their `_get_closed_form_lr`).
///
/// With parameter groups, group 0 follows [`lr_at`](Self::lr_at) (the schedule's own base rate,
/// usually built from `opt.lr()`), and every other group follows
/// [`lr_at_base`](Self::lr_at_base) from its own initial rate
/// ([`Optimizer::group_initial_lr`], PyTorch's `initial_lr`), as PyTorch's schedulers scale each
/// group's `base_lrs` entry.
pub trait LrSchedule {
    /// The learning rate of epoch `epoch` (0 is the first): the rate PyTorch's scheduler has set
    /// after `epoch` calls of `scheduler.step()`.
    fn lr_at(&self, epoch: usize) -> f64;

    /// The learning rate of epoch `epoch` for a group whose initial rate is `base_lr`. The
    /// schedules whose rate scales with the base ([`StepLr`], [`CosineAnnealingLr`],
    /// [`LinearLr`], [`ExponentialLr`]) put `base_lr` in place of their own; the default (and
    /// [`OneCycleLr`], whose `max_lr` is one number for every group, as PyTorch's with a scalar
    /// `max_lr`) ignores it and gives [`lr_at`](Self::lr_at).
    fn lr_at_base(&self, base_lr: f64, epoch: usize) -> f64 {
        let _ = base_lr;
        self.lr_at(epoch)
    }

    /// Sets the learning rate of every group of `opt` to that of `epoch` (what
    /// `scheduler.step()` does to the optimizer, without a counter to keep in sync): group 0 to
    /// [`lr_at`](Self::lr_at), group `g > 0` to `lr_at_base(opt.group_initial_lr(g), epoch)`.
    fn apply<T: GradFloat, O: Optimizer<T> + ?Sized>(&self, opt: &mut O, epoch: usize) {
        opt.set_group_lr(0, self.lr_at(epoch));
        for g in 1..opt.num_groups() {
            let base = opt.group_initial_lr(g);
            opt.set_group_lr(g, self.lr_at_base(base, epoch));
        }
    }
}

/// Refuses a count of epochs that a schedule divides by when it is 0.
fn at_least_one(name: &str, schedule: &str, n: usize) -> Result<(), ShapeError> {
    if n == 0 {
        return Err(ShapeError::Invalid(format!("{schedule}: {name} must be at least 1")));
    }
    Ok(())
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
    /// # Errors
    /// [`ShapeError::Invalid`] when `step_size` is 0 (PyTorch divides by it), or `base_lr` or
    /// `gamma` is negative or NaN.
    #[try_twin(
        doc = "A schedule starting at `base_lr` (usually the optimizer's [`lr`](Optimizer::lr)), multiplied by `gamma` (PyTorch's default is `0.1`) every `step_size` epochs."
    )]
    pub fn try_new(base_lr: f64, step_size: usize, gamma: f64) -> Result<Self, ShapeError> {
        nonneg("base learning rate", "StepLR", base_lr)?;
        nonneg("gamma", "StepLR", gamma)?;
        at_least_one("step_size", "StepLR", step_size)?;
        Ok(StepLr { base_lr, step_size, gamma })
    }

    /// The learning rate of epoch `epoch`: `base_lr * gamma^(epoch / step_size)`.
    pub fn lr_at(&self, epoch: usize) -> f64 {
        self.lr_at_base(self.base_lr, epoch)
    }

    /// The learning rate of epoch `epoch` from `base_lr` instead of the schedule's own (a
    /// parameter group's): `base_lr * gamma^(epoch / step_size)`.
    pub fn lr_at_base(&self, base_lr: f64, epoch: usize) -> f64 {
        base_lr * libm::pow(self.gamma, (epoch / self.step_size) as f64)
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
    /// # Errors
    /// [`ShapeError::Invalid`] when `t_max` is 0 (PyTorch divides by it), or `base_lr` or
    /// `eta_min` is negative or NaN.
    #[try_twin(
        doc = "A schedule from `base_lr` (usually the optimizer's [`lr`](Optimizer::lr)) at epoch 0 to `eta_min` (PyTorch's default is `0.0`) at epoch `t_max`."
    )]
    pub fn try_new(base_lr: f64, t_max: usize, eta_min: f64) -> Result<Self, ShapeError> {
        nonneg("base learning rate", "CosineAnnealingLR", base_lr)?;
        nonneg("eta_min", "CosineAnnealingLR", eta_min)?;
        at_least_one("t_max", "CosineAnnealingLR", t_max)?;
        Ok(CosineAnnealingLr { base_lr, t_max, eta_min })
    }

    /// The learning rate of epoch `epoch`:
    /// `eta_min + (base_lr - eta_min) * (1 + cos(pi * epoch / t_max)) / 2`.
    pub fn lr_at(&self, epoch: usize) -> f64 {
        self.lr_at_base(self.base_lr, epoch)
    }

    /// The learning rate of epoch `epoch` from `base_lr` instead of the schedule's own (a
    /// parameter group's), to the same `eta_min`.
    pub fn lr_at_base(&self, base_lr: f64, epoch: usize) -> f64 {
        let x = core::f64::consts::PI * epoch as f64 / self.t_max as f64;
        self.eta_min + (base_lr - self.eta_min) * (1.0 + libm::cos(x)) / 2.0
    }
}

/// A linear change of the learning rate by a factor going from `start_factor` to `end_factor`
/// over `total_iters` epochs, then constant (PyTorch `torch.optim.lr_scheduler.LinearLR`, the
/// usual warm-up): `lr_at(e) = base_lr * (start + (end - start) * min(e, total_iters) /
/// total_iters)` (PyTorch's closed form, in its order of operations; its chained form agrees to
/// round-off).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::LinearLr;
///
/// // Warm up from 10% to the full rate over 5 steps.
/// let warmup = LinearLr::new(0.1, 0.1, 1.0, 5);
/// assert!((warmup.lr_at(0) - 0.01).abs() < 1e-15);
/// assert!((warmup.lr_at(1) - 0.028).abs() < 1e-15);
/// assert_eq!(warmup.lr_at(5), 0.1);
/// assert_eq!(warmup.lr_at(50), 0.1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearLr {
    base_lr: f64,
    start_factor: f64,
    end_factor: f64,
    total_iters: usize,
}

impl LinearLr {
    /// A schedule from `base_lr * start_factor` at epoch 0 to `base_lr * end_factor` at epoch
    /// `total_iters` (PyTorch's defaults are `1/3`, `1.0` and `5`).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `start_factor` is not in `(0, 1]` or `end_factor` not in
    /// `[0, 1]` (PyTorch's `ValueError`s), `base_lr` is negative or NaN, or `total_iters` is 0
    /// (PyTorch's closed form divides by it).
    #[try_twin(
        doc = "A schedule from `base_lr * start_factor` at epoch 0 to `base_lr * end_factor` at epoch `total_iters` (PyTorch's defaults are `1/3`, `1.0` and `5`)."
    )]
    pub fn try_new(base_lr: f64, start_factor: f64, end_factor: f64, total_iters: usize) -> Result<Self, ShapeError> {
        nonneg("base learning rate", "LinearLR", base_lr)?;
        if !(start_factor > 0.0 && start_factor <= 1.0) {
            return Err(ShapeError::Invalid(format!(
                "LinearLR: starting multiplicative factor expected to be greater than 0 and less or equal to 1, got {start_factor}"
            )));
        }
        if !(0.0..=1.0).contains(&end_factor) {
            return Err(ShapeError::Invalid(format!(
                "LinearLR: ending multiplicative factor expected to be between 0 and 1, got {end_factor}"
            )));
        }
        at_least_one("total_iters", "LinearLR", total_iters)?;
        Ok(LinearLr { base_lr, start_factor, end_factor, total_iters })
    }

    /// The learning rate of epoch `epoch`.
    pub fn lr_at(&self, epoch: usize) -> f64 {
        self.lr_at_base(self.base_lr, epoch)
    }

    /// The learning rate of epoch `epoch` from `base_lr` instead of the schedule's own.
    pub fn lr_at_base(&self, base_lr: f64, epoch: usize) -> f64 {
        let (s, e) = (self.start_factor, self.end_factor);
        base_lr * (s + (e - s) * epoch.min(self.total_iters) as f64 / self.total_iters as f64)
    }
}

/// Decays the learning rate by `gamma` every epoch (PyTorch
/// `torch.optim.lr_scheduler.ExponentialLR`): `lr_at(e) = base_lr * gamma^e` (the closed form;
/// PyTorch's chained form, one product per step, agrees to round-off).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::ExponentialLr;
///
/// let s = ExponentialLr::new(0.1, 0.5);
/// assert_eq!((s.lr_at(0), s.lr_at(3)), (0.1, 0.0125));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExponentialLr {
    base_lr: f64,
    gamma: f64,
}

impl ExponentialLr {
    /// A schedule from `base_lr`, multiplied by `gamma` every epoch.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `base_lr` or `gamma` is negative or NaN.
    #[try_twin(doc = "A schedule from `base_lr`, multiplied by `gamma` every epoch.")]
    pub fn try_new(base_lr: f64, gamma: f64) -> Result<Self, ShapeError> {
        nonneg("base learning rate", "ExponentialLR", base_lr)?;
        nonneg("gamma", "ExponentialLR", gamma)?;
        Ok(ExponentialLr { base_lr, gamma })
    }

    /// The learning rate of epoch `epoch`: `base_lr * gamma^epoch`.
    pub fn lr_at(&self, epoch: usize) -> f64 {
        self.lr_at_base(self.base_lr, epoch)
    }

    /// The learning rate of epoch `epoch` from `base_lr` instead of the schedule's own.
    pub fn lr_at_base(&self, base_lr: f64, epoch: usize) -> f64 {
        base_lr * libm::pow(self.gamma, epoch as f64)
    }
}

/// [`LrSchedule`] for the schedules whose rate scales with the base: both methods are the
/// schedule's inherent methods of the same names.
macro_rules! scaled_schedule {
    ($($schedule:ident),*) => {$(
        impl LrSchedule for $schedule {
            fn lr_at(&self, epoch: usize) -> f64 {
                $schedule::lr_at(self, epoch)
            }
            fn lr_at_base(&self, base_lr: f64, epoch: usize) -> f64 {
                $schedule::lr_at_base(self, base_lr, epoch)
            }
        }
    )*};
}

scaled_schedule!(StepLr, CosineAnnealingLr, LinearLr, ExponentialLr);

/// How [`OneCycleLr`] goes from one rate to the next (PyTorch's `anneal_strategy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Anneal {
    /// Cosine annealing, `"cos"` (PyTorch's default).
    #[default]
    Cos,
    /// Linear, `"linear"`.
    Linear,
}

/// The settings of [`OneCycleLr`], with PyTorch's defaults (`OneCycleLR`): `pct_start = 0.3`,
/// cosine annealing, `div_factor = 25`, `final_div_factor = 1e4`, two phases.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OneCycleConfig {
    /// The highest learning rate, reached at the end of the first phase (`>= 0`; one for every
    /// parameter group: PyTorch's list form of `max_lr` is not supported).
    pub max_lr: f64,
    /// The number of steps of the cycle (`>= 1`; PyTorch's `epochs * steps_per_epoch` form is
    /// that product). The schedule is defined up to step `total_steps`.
    pub total_steps: usize,
    /// The fraction of the steps spent raising the rate (in `[0, 1]`).
    pub pct_start: f64,
    /// Cosine or linear annealing.
    pub anneal: Anneal,
    /// The initial rate is `max_lr / div_factor` (`> 0`).
    pub div_factor: f64,
    /// The final rate is `initial_lr / final_div_factor` (`> 0`).
    pub final_div_factor: f64,
    /// Three phases (up, down to the initial rate, down to the final one) instead of two (up,
    /// down to the final rate): the original paper's schedule rather than fastai's.
    pub three_phase: bool,
}

impl OneCycleConfig {
    /// PyTorch's defaults for `max_lr` and `total_steps`.
    pub fn new(max_lr: f64, total_steps: usize) -> Self {
        OneCycleConfig {
            max_lr,
            total_steps,
            pct_start: 0.3,
            anneal: Anneal::Cos,
            div_factor: 25.0,
            final_div_factor: 1e4,
            three_phase: false,
        }
    }
}

/// The 1cycle policy (Smith and Topin, 2017): the rate rises from `max_lr / div_factor` to
/// `max_lr` over the first `pct_start` of the steps, then falls to `max_lr / div_factor /
/// final_div_factor` (PyTorch `torch.optim.lr_scheduler.OneCycleLR`, the same phases and
/// annealing formulas in the same order of operations). Call it per batch: `lr_at(k)` is the
/// rate after `k` calls of PyTorch's `scheduler.step()`, defined for `k <= total_steps`.
///
/// **Momentum is not cycled**: this is PyTorch's `OneCycleLR(..., cycle_momentum=False)`. With
/// PyTorch's default `cycle_momentum=True`, its scheduler also moves SGD's momentum (or Adam's
/// `beta1`) between 0.95 and 0.85; shaped's optimizers keep theirs.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::{OneCycleConfig, OneCycleLr};
///
/// let s = OneCycleLr::new(OneCycleConfig::new(0.1, 100));
/// assert!((s.lr_at(0) - 0.004).abs() < 1e-15); // max_lr / 25
/// assert!((s.lr_at(29) - 0.1).abs() < 1e-15); // the peak: step pct_start * 100 - 1
/// assert!((s.lr_at(99) - 4e-7).abs() < 1e-18); // 0.004 / 1e4
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct OneCycleLr {
    config: OneCycleConfig,
    /// PyTorch's `_schedule_phases`: (end_step, start_lr, end_lr).
    phases: Vec<(f64, f64, f64)>,
}

impl OneCycleLr {
    /// The schedule of `config`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `total_steps` is 0 or `pct_start` is outside `[0, 1]`
    /// (PyTorch's `ValueError`s); `max_lr` is negative or NaN, or a divisor is not positive and
    /// finite; or a phase is empty where PyTorch divides by zero (`pct_start * total_steps ==
    /// 1`, or a last phase of no steps, as with `pct_start == 1`).
    #[try_twin(doc = "The schedule of `config`.")]
    pub fn try_new(config: OneCycleConfig) -> Result<Self, ShapeError> {
        let c = config;
        if c.total_steps == 0 {
            return Err(ShapeError::Invalid("OneCycleLR: expected a positive total_steps, got 0".into()));
        }
        if !(0.0..=1.0).contains(&c.pct_start) {
            return Err(ShapeError::Invalid(format!(
                "OneCycleLR: expected a pct_start between 0 and 1, got {}",
                c.pct_start
            )));
        }
        nonneg("max_lr", "OneCycleLR", c.max_lr)?;
        for (name, v) in [("div_factor", c.div_factor), ("final_div_factor", c.final_div_factor)] {
            if !(v > 0.0 && v.is_finite()) {
                return Err(ShapeError::Invalid(format!("OneCycleLR: {name} must be positive and finite, got {v}")));
            }
        }
        let total = c.total_steps as f64;
        let initial = c.max_lr / c.div_factor;
        let min = initial / c.final_div_factor;
        let phases = if c.three_phase {
            alloc::vec![
                (c.pct_start * total - 1.0, initial, c.max_lr),
                (2.0 * c.pct_start * total - 2.0, c.max_lr, initial),
                (total - 1.0, initial, min),
            ]
        } else {
            alloc::vec![(c.pct_start * total - 1.0, initial, c.max_lr), (total - 1.0, c.max_lr, min)]
        };
        if phases[0].0 == 0.0 {
            return Err(ShapeError::Invalid(format!(
                "OneCycleLR: pct_start * total_steps = {} * {} = 1 leaves the first phase empty (PyTorch divides by zero at step 0)",
                c.pct_start, c.total_steps
            )));
        }
        let n = phases.len();
        if phases[n - 1].0 == phases[n - 2].0 {
            return Err(ShapeError::Invalid(format!(
                "OneCycleLR: pct_start {} with {} steps leaves the last phase empty (PyTorch divides by zero at step {})",
                c.pct_start, c.total_steps, c.total_steps
            )));
        }
        Ok(OneCycleLr { config, phases })
    }

    /// The settings.
    pub fn config(&self) -> &OneCycleConfig {
        &self.config
    }

    /// The rate of step 0, `max_lr / div_factor` (PyTorch's `initial_lr`).
    pub fn initial_lr(&self) -> f64 {
        self.phases[0].1
    }

    /// The final rate, `initial_lr / final_div_factor` (PyTorch's `min_lr`).
    pub fn min_lr(&self) -> f64 {
        self.phases[self.phases.len() - 1].2
    }

    /// The rate of step `step` (PyTorch's `get_lr` at `last_epoch == step`).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `step > total_steps` (PyTorch's "Tried to step ... times"
    /// `ValueError`).
    pub fn try_lr_at(&self, step: usize) -> Result<f64, ShapeError> {
        if step > self.config.total_steps {
            return Err(ShapeError::Invalid(format!(
                "OneCycleLR: tried to step {step} times; the specified number of total steps is {}",
                self.config.total_steps
            )));
        }
        let n = step as f64;
        let mut start_step = 0.0;
        for (i, &(end_step, start, end)) in self.phases.iter().enumerate() {
            if n <= end_step || i == self.phases.len() - 1 {
                let pct = (n - start_step) / (end_step - start_step);
                return Ok(match self.config.anneal {
                    Anneal::Cos => {
                        let cos_out = libm::cos(core::f64::consts::PI * pct) + 1.0;
                        end + (start - end) / 2.0 * cos_out
                    }
                    Anneal::Linear => (end - start) * pct + start,
                });
            }
            start_step = end_step;
        }
        unreachable!("the last phase takes every step")
    }

    /// [`try_lr_at`](Self::try_lr_at), panicking with its error.
    ///
    /// # Panics
    /// When `step > total_steps`, as PyTorch's scheduler raises past its last step.
    #[track_caller]
    pub fn lr_at(&self, step: usize) -> f64 {
        self.try_lr_at(step).or_panic()
    }
}

impl LrSchedule for OneCycleLr {
    fn lr_at(&self, epoch: usize) -> f64 {
        OneCycleLr::lr_at(self, epoch)
    }
}

/// A schedule stepped as PyTorch's schedulers are (`scheduler.step()` after each
/// `optimizer.step()`), counting the steps (`last_epoch`) and saving the count.
///
/// [`new`](Self::new) sets the optimizer's rates to those of epoch 0 (as PyTorch's constructor
/// does), each [`step`](Self::step) to those of the next epoch, for every parameter group (see
/// [`LrSchedule::apply`]). Its state is `last_epoch` (`I64 []`); the rates themselves are the
/// optimizer's state. To resume, build the optimizer and the scheduler as at the start, then
/// load both states.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::{LinearLr, LrScheduler, Optimizer, Sgd, SgdConfig};
///
/// let mut opt = Sgd::<f32>::new(SgdConfig { lr: 0.1, ..Default::default() });
/// let mut sched = LrScheduler::new(LinearLr::new(opt.lr(), 0.5, 1.0, 2), &mut opt);
/// assert_eq!(opt.lr(), 0.05);
/// // ... opt.step(..) ...
/// sched.step(&mut opt);
/// assert!((opt.lr() - 0.075).abs() < 1e-15);
/// sched.step(&mut opt);
/// assert_eq!((opt.lr(), sched.last_epoch()), (0.1, 2));
///
/// let state = sched.state_dict();
/// let mut again = LrScheduler::new(LinearLr::new(0.1, 0.5, 1.0, 2), &mut opt);
/// again.load_state_dict(&state).unwrap();
/// assert_eq!(again.last_epoch(), 2);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct LrScheduler<S> {
    schedule: S,
    last_epoch: usize,
}

impl<S: LrSchedule> LrScheduler<S> {
    /// Starts `schedule` on `opt`: sets its rates to those of epoch 0.
    ///
    /// # Panics
    /// When the schedule does (a [`OneCycleLr`] past its last step; not at epoch 0).
    pub fn new<T: GradFloat, O: Optimizer<T> + ?Sized>(schedule: S, opt: &mut O) -> Self {
        schedule.apply(opt, 0);
        LrScheduler { schedule, last_epoch: 0 }
    }

    /// Moves to the next epoch (PyTorch `scheduler.step()`): sets `opt`'s rates to its.
    ///
    /// # Panics
    /// When the schedule does ([`OneCycleLr`] past `total_steps`, as PyTorch raises).
    pub fn step<T: GradFloat, O: Optimizer<T> + ?Sized>(&mut self, opt: &mut O) {
        self.last_epoch += 1;
        self.schedule.apply(opt, self.last_epoch);
    }

    /// The number of steps taken (PyTorch `scheduler.last_epoch`).
    pub fn last_epoch(&self) -> usize {
        self.last_epoch
    }

    /// Group 0's rate at the current epoch (PyTorch `scheduler.get_last_lr()[0]`; the other
    /// groups' are the optimizer's [`group_lr`](Optimizer::group_lr)).
    pub fn last_lr(&self) -> f64 {
        self.schedule.lr_at(self.last_epoch)
    }

    /// The schedule.
    pub fn schedule(&self) -> &S {
        &self.schedule
    }

    /// The state: `last_epoch` (`I64 []`).
    pub fn state_dict(&self) -> TrainState {
        let mut out = TrainState::new();
        out.insert("last_epoch", StateValue::i64_scalar(self.last_epoch as i64));
        out
    }

    /// Loads a state of [`state_dict`](Self::state_dict). The optimizer is not touched: its own
    /// state holds its rates.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for a key other than `last_epoch`, a missing one, a dtype or
    /// shape that is not `I64 []` (naming the key and both), or a negative count. Nothing
    /// changes then.
    pub fn load_state_dict(&mut self, state: &TrainState) -> Result<(), ShapeError> {
        check_specs("LrScheduler", state, &self.state_specs())?;
        let e = count_at("LrScheduler", state, "last_epoch")?.expect("checked by the specs");
        self.last_epoch = usize::try_from(e)
            .map_err(|_| ShapeError::Invalid(format!("LrScheduler: last_epoch {e} does not fit this target")))?;
        Ok(())
    }

    /// The keys of [`state_dict`](Self::state_dict): `last_epoch`, `I64 []`.
    pub fn state_specs(&self) -> Vec<StateSpec> {
        alloc::vec![StateSpec::required("last_epoch", StateDtype::I64, &[])]
    }
}
