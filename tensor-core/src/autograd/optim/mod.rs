//! Optimizers, learning-rate schedules and training state (PyTorch's `torch.optim` and
//! `torch.optim.lr_scheduler`): [`Sgd`], [`Adam`], [`AdamW`], [`RmsProp`] and [`Adagrad`] update
//! [`Param`]s in place from the [`Grads`] of a `backward`; [`StepLr`], [`CosineAnnealingLr`],
//! [`LinearLr`] (warm-up), [`ExponentialLr`] and [`OneCycleLr`] give the learning rate of each
//! epoch or step, [`LrScheduler`] steps one of them as PyTorch's schedulers do, and
//! [`ReduceLrOnPlateau`] lowers the rate when a metric stops improving. Every optimizer and
//! scheduler exports its state to a [`TrainState`] and loads it back, so that a run stopped after
//! step `k` and resumed continues bit for bit.
//!
//! * One call updates parameters of any shapes: `opt.step(&mut [&mut w, &mut b], &grads)` takes
//!   `&mut [&mut dyn AnyParam<T>]`, and `&mut Param<T, S>` coerces to `&mut dyn AnyParam<T>`
//!   inside the array literal (the expected type is known from the method's signature). A model's
//!   parameters come as that list from [`Module::parameters`](crate::nn::Module::parameters):
//!   `opt.step(&mut model.parameters(), &grads)`.
//! * The update equations are PyTorch's, in PyTorch's order of operations (its default
//!   `foreach=False` path on the CPU), so a step agrees with PyTorch's to round-off: the tests
//!   (`tests/optim_torch.rs`, `tests/optim_more.rs`) replay PyTorch's parameter trajectories to
//!   1e-12 relative in `f64`. Hyper-parameters are `f64` (PyTorch's Python floats); scalars
//!   derived from them (the bias corrections of Adam, `1 - dampening`, `-lr`) are computed in
//!   `f64` and then rounded to `T`, as PyTorch's kernels round their Python scalars to the
//!   tensor's type.
//! * **Parameter groups** (PyTorch's `param_groups`): every optimizer starts with one group (group
//!   0, whose `lr` and `weight_decay` are the config's) holding every parameter;
//!   `add_param_group(ids, GroupOptions { lr, weight_decay })` moves parameters into a new group
//!   with its own learning rate and weight decay (the other hyper-parameters stay the config's).
//!   [`ParamNames::ids_where`] picks parameters by name. Schedules set every group's rate.
//! * State (momentum buffers, moment estimates, step counts) is kept per [`ParamId`], so the
//!   order and the set of parameters may change between steps. A parameter that has no gradient
//!   in the [`Grads`] (it was not watched, or the loss does not depend on it) is skipped: neither
//!   it nor its state changes, as PyTorch skips a parameter whose `.grad` is `None`.
//! * There is no `zero_grad`: every `backward` makes fresh [`Grads`]. To accumulate gradients over
//!   several backward passes (micro-batches), as PyTorch's `.grad` does without `zero_grad`, sum
//!   them with [`Grads::accumulate`].
//! * Gradient clipping: by norm with [`Grads::clip_norm`] (PyTorch `nn.utils.clip_grad_norm_`),
//!   by value with [`Grads::clip_value`] (`nn.utils.clip_grad_value_`), between `backward` and
//!   `step`.
//! * Every step first checks everything (hyper-parameters, a gradient's length against its
//!   parameter's, state lengths, the same [`ParamId`] twice) and only then updates: a step that
//!   fails leaves every parameter and every state as they were.
//! * **Checkpoints**: [`ParamId`]s are not stable across processes, so the state is exported by
//!   parameter *name* ([`ParamNames`], from a model's dotted names:
//!   `ParamNames::of(model.named_parameters())`): `opt.state_dict(&names)`,
//!   `opt.load_state_dict(&state, &names)`, the same for [`LrScheduler`], [`ReduceLrOnPlateau`]
//!   and the data loader ([`crate::nn::data::DataLoader`]). Keys, dtypes and shapes are checked
//!   before anything changes; with the `safetensors` feature a [`TrainState`] is written to and
//!   read from a `.safetensors` file (`TrainState::save_safetensors`,
//!   `TrainState::load_safetensors`).
//!
//! | shaped | PyTorch |
//! |---|---|
//! | [`Sgd`], [`SgdConfig`] | `torch.optim.SGD` |
//! | [`Adam`], [`AdamConfig`] | `torch.optim.Adam` |
//! | [`AdamW`], [`AdamWConfig`] | `torch.optim.AdamW` |
//! | [`RmsProp`], [`RmsPropConfig`] | `torch.optim.RMSprop` |
//! | [`Adagrad`], [`AdagradConfig`] | `torch.optim.Adagrad` |
//! | `opt.add_param_group(ids, GroupOptions { .. })` | `optimizer.add_param_group({"params": .., "lr": ..})` |
//! | [`Grads::accumulate`], [`Grads::clip_norm`], [`Grads::clip_value`] | `.grad` accumulation, `clip_grad_norm_`, `clip_grad_value_` |
//! | [`StepLr`], [`CosineAnnealingLr`], [`LinearLr`], [`ExponentialLr`], [`OneCycleLr`] | `StepLR`, `CosineAnnealingLR`, `LinearLR`, `ExponentialLR`, `OneCycleLR` (their closed forms) |
//! | [`LrScheduler`] | `scheduler.step()`, `get_last_lr()`, `last_epoch` |
//! | [`ReduceLrOnPlateau`] | `ReduceLROnPlateau` |
//! | [`Optimizer::state_dict`], [`TrainState`] | `optimizer.state_dict()`, `load_state_dict` |
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
use alloc::format;
use alloc::vec::Vec;

mod adagrad;
mod adam;
mod groups;
mod plateau;
mod rmsprop;
mod schedule;
mod sgd;
mod slots;
mod state;

pub use adagrad::{Adagrad, AdagradConfig};
pub use adam::{Adam, AdamConfig, AdamW, AdamWConfig};
pub use groups::GroupOptions;
pub use plateau::{PlateauConfig, PlateauMode, ReduceLrOnPlateau, ThresholdMode};
pub use rmsprop::{RmsProp, RmsPropConfig};
pub use schedule::{
    Anneal, CosineAnnealingLr, ExponentialLr, LinearLr, LrSchedule, LrScheduler, OneCycleConfig, OneCycleLr, StepLr,
};
pub use sgd::{Sgd, SgdConfig};
#[cfg(feature = "rand")]
pub(crate) use state::{check_specs, count_at};
pub use state::{ParamNames, StateDtype, StateSpec, StateValue, TrainState};

/// PyTorch's coupled gradient term of one element: `sign * g` (`sign` is -1 under `maximize`),
/// plus `wd * w` when the decay is on (`grad = grad.add(param, alpha=weight_decay)`).
#[inline(always)]
pub(crate) fn coupled<T: GradFloat>(sign: T, g: T, decay: bool, wd: T, w: T) -> T {
    let d = sign * g;
    if decay {
        d + wd * w
    } else {
        d
    }
}

/// `v` rounded to `T` (how PyTorch's kernels take a Python float).
#[inline(always)]
pub(crate) fn c<T: GradFloat>(v: f64) -> T {
    <T as GradFloat>::from_f64(v)
}

/// What an optimizer does, for code generic over the optimizer (a training loop, a schedule
/// applied through [`LrSchedule::apply`], a checkpoint). [`Sgd`], [`Adam`], [`AdamW`],
/// [`RmsProp`] and [`Adagrad`] implement it, and have the same methods inherent, so calling them
/// needs no import of this trait.
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

    /// The learning rate of group 0 (PyTorch `param_groups[0]["lr"]`): the config's `lr` until
    /// a schedule or [`set_lr`](Self::set_lr) changes it.
    fn lr(&self) -> f64;

    /// Sets the learning rate of group 0 for the next steps (what PyTorch's schedulers do to
    /// `param_groups[0]["lr"]`; [`set_group_lr`](Self::set_group_lr) sets another group's). Not
    /// checked here: the next step refuses a negative or NaN rate.
    fn set_lr(&mut self, lr: f64);

    /// The number of parameter groups (PyTorch `len(optimizer.param_groups)`): 1, plus one per
    /// `add_param_group`.
    fn num_groups(&self) -> usize;

    /// The learning rate of group `group` (PyTorch `param_groups[group]["lr"]`).
    ///
    /// # Panics
    /// When `group >= num_groups()`.
    fn group_lr(&self, group: usize) -> f64;

    /// Sets the learning rate of group `group` (checked by the next step).
    ///
    /// # Panics
    /// When `group >= num_groups()`.
    fn set_group_lr(&mut self, group: usize, lr: f64);

    /// The learning rate group `group` was created with (PyTorch's `initial_lr`, which schedules
    /// scale): the config's `lr` for group 0, the `lr` of its [`GroupOptions`] for the others.
    ///
    /// # Panics
    /// When `group >= num_groups()`.
    fn group_initial_lr(&self, group: usize) -> f64;

    /// The optimizer's state by parameter name (PyTorch `optimizer.state_dict()`): for every
    /// parameter with state, `state.<name>.step` (`I64 []`, for the optimizers that count steps)
    /// and one `state.<name>.<buffer>` of the parameter's shape per buffer (`exp_avg`, ...; `F32`
    /// or `F64` as `T`), then for each group `param_groups.<g>.lr`, `.weight_decay` and
    /// `.initial_lr` (`F64 []`, whatever `T`), and `param_group.<name>` (`I64 []`: the group's
    /// index) for each parameter of a group other than 0. The other hyper-parameters are not
    /// saved: build the optimizer with the same config (and the same groups).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when the optimizer holds state for, or has put in a group, a
    /// parameter that `names` does not name (its [`ParamId`] in the message), or when `names`
    /// gives one name twice.
    fn state_dict(&self, names: &ParamNames) -> Result<TrainState, ShapeError>;

    /// Replaces the optimizer's state by `state` (PyTorch `optimizer.load_state_dict`), the
    /// parameters found by name in `names` (the new process's [`ParamId`]s). Every key, dtype and
    /// shape is checked against [`state_specs`](Self::state_specs) first, then the values (step
    /// counts `>= 0`, each parameter's state complete, the same groups as this optimizer's, valid
    /// rates): nothing changes on error.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the unexpected or missing keys, or the key and both shapes
    /// or dtypes, or the value that is refused.
    fn load_state_dict(&mut self, state: &TrainState, names: &ParamNames) -> Result<(), ShapeError>;

    /// Every key [`state_dict`](Self::state_dict) may write for the parameters of `names`, with
    /// its dtype and shape: what `TrainState::load_safetensors` reads. The group entries are
    /// required, the per-parameter ones optional (a parameter that has not stepped has none).
    fn state_specs(&self, names: &ParamNames) -> Vec<StateSpec>;
}

/// Refuses a hyper-parameter that is not `>= 0` (NaN included), as PyTorch's constructors do.
pub(crate) fn nonneg(name: &str, opt: &str, v: f64) -> Result<(), ShapeError> {
    if v >= 0.0 {
        Ok(())
    } else {
        Err(ShapeError::Invalid(format!("{opt}: invalid {name}: {v} (must be >= 0)")))
    }
}

/// The checks every step makes before it changes anything: no [`ParamId`] twice, every
/// gradient as long as its parameter, every existing state buffer as long as its parameter.
pub(crate) fn check_step<T: GradFloat>(
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

/// The methods every optimizer shares, inherent and as [`Optimizer`]: the learning rates, the
/// groups, the state's export and import. `$Opt<T>` has fields `config: $Config` (with `lr` and
/// `weight_decay`) and `core: state::Core<T>`, and inherent `fn layout(&self) -> SlotLayout`,
/// `fn check(&self) -> Result<(), ShapeError>` and `fn step_impl(..)`.
macro_rules! optimizer_common {
    ($Opt:ident, $Config:ident, $torch:literal) => {
        impl<T: GradFloat> $Opt<T> {
            /// An optimizer with hyper-parameters `config`, one parameter group and no state yet.
            ///
            /// # Panics
            /// When `config` is invalid (see [`try_new`](Self::try_new)).
            #[track_caller]
            pub fn new(config: $Config) -> Self {
                Self::try_new(config).or_panic()
            }

            /// The hyper-parameters of group 0 (and the defaults of the other groups).
            pub fn config(&self) -> &$Config {
                &self.config
            }

            /// The learning rate of the next step of group 0 (PyTorch `param_groups[0]["lr"]`).
            pub fn lr(&self) -> f64 {
                self.config.lr
            }

            /// Sets the learning rate of group 0 for the next steps (checked by the next step).
            pub fn set_lr(&mut self, lr: f64) {
                self.config.lr = lr;
            }

            #[doc = concat!("Moves the parameters `ids` into a new group with its own learning rate and weight decay (PyTorch `optimizer.add_param_group({\"params\": .., \"lr\": .., \"weight_decay\": ..})` on a `", $torch, "`), and returns the group's index (1 for the first).")]
            /// A field of `options` left `None` takes the config's value; the other
            /// hyper-parameters are the config's. Every parameter not in a group of its own is in
            /// group 0. Pick parameters by name with [`ParamNames::ids_where`].
            ///
            /// # Errors
            /// [`ShapeError::Invalid`] when an id is already in a group other than 0 or given
            /// twice (PyTorch's "some parameters appear in more than one parameter group"), or
            /// the group's `lr` or `weight_decay` is negative or NaN. Nothing changes then.
            pub fn add_param_group(
                &mut self,
                ids: impl IntoIterator<Item = ParamId>,
                options: GroupOptions,
            ) -> Result<usize, ShapeError> {
                self.core.groups.add($torch, ids, options, self.config.lr, self.config.weight_decay)
            }

            /// The number of parameter groups (PyTorch `len(optimizer.param_groups)`).
            pub fn num_groups(&self) -> usize {
                self.core.groups.len()
            }

            /// The group of parameter `id`: 0 unless [`add_param_group`](Self::add_param_group)
            /// put it in another.
            pub fn group_of(&self, id: ParamId) -> usize {
                self.core.groups.of(id)
            }

            /// The learning rate of group `group` (PyTorch `param_groups[group]["lr"]`).
            ///
            /// # Panics
            /// When `group >= num_groups()`.
            #[track_caller]
            pub fn group_lr(&self, group: usize) -> f64 {
                self.core.groups.lr(group, self.config.lr)
            }

            /// Sets the learning rate of group `group` (checked by the next step).
            ///
            /// # Panics
            /// When `group >= num_groups()`.
            #[track_caller]
            pub fn set_group_lr(&mut self, group: usize, lr: f64) {
                self.core.groups.set_lr(group, lr, &mut self.config.lr)
            }

            /// The weight decay of group `group` (PyTorch `param_groups[group]["weight_decay"]`).
            ///
            /// # Panics
            /// When `group >= num_groups()`.
            #[track_caller]
            pub fn group_weight_decay(&self, group: usize) -> f64 {
                self.core.groups.weight_decay(group, self.config.weight_decay)
            }

            /// Sets the weight decay of group `group` (checked by the next step).
            ///
            /// # Panics
            /// When `group >= num_groups()`.
            #[track_caller]
            pub fn set_group_weight_decay(&mut self, group: usize, weight_decay: f64) {
                self.core.groups.set_weight_decay(group, weight_decay, &mut self.config.weight_decay)
            }

            /// The learning rate group `group` was created with (PyTorch's `initial_lr`).
            ///
            /// # Panics
            /// When `group >= num_groups()`.
            #[track_caller]
            pub fn group_initial_lr(&self, group: usize) -> f64 {
                self.core.groups.initial_lr(group)
            }

            /// Forgets the state of parameter `id` (its next step is a first step again).
            pub fn clear_state(&mut self, id: ParamId) {
                self.core.slots.remove(&id);
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
            /// place with its group's learning rate and weight decay (parameters of any shapes;
            /// those without a gradient are skipped).
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
                self.check()?;
                self.core.groups.check($torch)?;
                let core = &self.core;
                check_step($torch, params, grads, |id| core.state_len(id))?;
                self.step_impl(params, grads);
                Ok(())
            }

            /// See [`Optimizer::state_dict`].
            ///
            /// # Errors
            /// As [`Optimizer::state_dict`].
            pub fn state_dict(&self, names: &ParamNames) -> Result<TrainState, ShapeError> {
                self.core.export(&self.layout(), names, self.config.lr, self.config.weight_decay)
            }

            /// See [`Optimizer::load_state_dict`].
            ///
            /// # Errors
            /// As [`Optimizer::load_state_dict`].
            pub fn load_state_dict(&mut self, state: &TrainState, names: &ParamNames) -> Result<(), ShapeError> {
                let layout = self.layout();
                let (lr, wd) = self.core.import(&layout, state, names)?;
                self.config.lr = lr;
                self.config.weight_decay = wd;
                Ok(())
            }

            /// See [`Optimizer::state_specs`].
            pub fn state_specs(&self, names: &ParamNames) -> Vec<StateSpec> {
                self.core.specs(&self.layout(), names)
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
            fn num_groups(&self) -> usize {
                $Opt::num_groups(self)
            }
            fn group_lr(&self, group: usize) -> f64 {
                $Opt::group_lr(self, group)
            }
            fn set_group_lr(&mut self, group: usize, lr: f64) {
                $Opt::set_group_lr(self, group, lr)
            }
            fn group_initial_lr(&self, group: usize) -> f64 {
                $Opt::group_initial_lr(self, group)
            }
            fn state_dict(&self, names: &ParamNames) -> Result<TrainState, ShapeError> {
                $Opt::state_dict(self, names)
            }
            fn load_state_dict(&mut self, state: &TrainState, names: &ParamNames) -> Result<(), ShapeError> {
                $Opt::load_state_dict(self, state, names)
            }
            fn state_specs(&self, names: &ParamNames) -> Vec<StateSpec> {
                $Opt::state_specs(self, names)
            }
        }
    };
}
pub(crate) use optimizer_common;
