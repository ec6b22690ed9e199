//! ReduceLROnPlateau (PyTorch `torch.optim.lr_scheduler.ReduceLROnPlateau`).
use super::state::{check_specs, count_at, f64_at, StateDtype, StateSpec, StateValue, TrainState};
use super::{nonneg, Optimizer};
use crate::autograd::GradFloat;
use crate::error::ShapeError;
use alloc::format;
use alloc::vec::Vec;
use shaped_macros::try_twin;

/// Whether [`ReduceLrOnPlateau`] waits for the metric to fall or to rise (PyTorch's `mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PlateauMode {
    /// `"min"`: a loss (PyTorch's default).
    #[default]
    Min,
    /// `"max"`: an accuracy.
    Max,
}

/// How [`ReduceLrOnPlateau`] measures an improvement (PyTorch's `threshold_mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ThresholdMode {
    /// `"rel"`: better than `best * (1 - threshold)` (`min`) or `best * (1 + threshold)`
    /// (`max`); PyTorch's default.
    #[default]
    Rel,
    /// `"abs"`: better than `best - threshold` (`min`) or `best + threshold` (`max`).
    Abs,
}

/// The settings of [`ReduceLrOnPlateau`], with PyTorch's defaults: mode `min`, `factor = 0.1`,
/// `patience = 10`, `threshold = 1e-4` relative, no cooldown, `min_lr = 0`, `eps = 1e-8`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlateauConfig {
    /// Minimise or maximise the metric.
    pub mode: PlateauMode,
    /// The factor of a reduction: `new_lr = lr * factor` (`< 1`).
    pub factor: f64,
    /// The number of steps without improvement tolerated: the rate is reduced at the
    /// `patience + 1`-th.
    pub patience: usize,
    /// The improvement that counts (`>= 0`), relative or absolute by `threshold_mode`.
    pub threshold: f64,
    /// Relative or absolute threshold.
    pub threshold_mode: ThresholdMode,
    /// The number of steps after a reduction during which bad steps are not counted.
    pub cooldown: usize,
    /// The lowest rate of every group (`>= 0`; PyTorch's per-group list form is not supported).
    pub min_lr: f64,
    /// A reduction smaller than `eps` is not made (`>= 0`).
    pub eps: f64,
}

impl Default for PlateauConfig {
    fn default() -> Self {
        PlateauConfig {
            mode: PlateauMode::Min,
            factor: 0.1,
            patience: 10,
            threshold: 1e-4,
            threshold_mode: ThresholdMode::Rel,
            cooldown: 0,
            min_lr: 0.0,
            eps: 1e-8,
        }
    }
}

/// Lowers the learning rate of every parameter group by `factor` when a metric has not improved
/// for more than `patience` steps (PyTorch `torch.optim.lr_scheduler.ReduceLROnPlateau`, the
/// same decisions and the same rates: `new_lr = max(lr * factor, min_lr)`, made only when it
/// lowers the rate by more than `eps`).
///
/// Stateful: [`step`](Self::step) takes the metric of the epoch and the optimizer whose rates
/// it lowers. Its state (`best`, `num_bad_epochs`, `cooldown_counter`, `last_epoch`) is saved by
/// [`state_dict`](Self::state_dict); the rates are the optimizer's. A NaN metric counts as no
/// improvement (as PyTorch's comparisons).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::{Optimizer, PlateauConfig, ReduceLrOnPlateau, Sgd, SgdConfig};
///
/// let mut opt = Sgd::<f32>::new(SgdConfig { lr: 0.1, ..Default::default() });
/// let mut plateau = ReduceLrOnPlateau::new(PlateauConfig { patience: 1, factor: 0.5, ..Default::default() });
/// for loss in [1.0, 0.8, 0.8, 0.8] {
///     plateau.step(loss, &mut opt);
/// }
/// // 0.8 twice without improvement: more than `patience`, the rate is halved.
/// assert_eq!(opt.lr(), 0.05);
/// assert_eq!((plateau.best(), plateau.num_bad_epochs()), (0.8, 0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ReduceLrOnPlateau {
    config: PlateauConfig,
    best: f64,
    num_bad_epochs: usize,
    cooldown_counter: usize,
    last_epoch: usize,
}

const WHAT: &str = "ReduceLROnPlateau";

impl ReduceLrOnPlateau {
    /// A scheduler with settings `config`, nothing seen yet (`best` is the worst value of the
    /// mode: `+inf` for `min`, `-inf` for `max`).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `factor >= 1` (PyTorch's "Factor should be < 1.0.") or NaN,
    /// or `threshold`, `min_lr` or `eps` is negative or NaN.
    #[try_twin(doc = "A scheduler with settings `config`, nothing seen yet (`best` is the worst value of the mode.")]
    pub fn try_new(config: PlateauConfig) -> Result<Self, ShapeError> {
        if config.factor.is_nan() || config.factor >= 1.0 {
            return Err(ShapeError::Invalid(format!("{WHAT}: factor should be < 1.0, got {}", config.factor)));
        }
        nonneg("threshold", WHAT, config.threshold)?;
        nonneg("min_lr", WHAT, config.min_lr)?;
        nonneg("eps", WHAT, config.eps)?;
        let best = Self::worse(config.mode);
        Ok(ReduceLrOnPlateau { config, best, num_bad_epochs: 0, cooldown_counter: 0, last_epoch: 0 })
    }

    fn worse(mode: PlateauMode) -> f64 {
        match mode {
            PlateauMode::Min => f64::INFINITY,
            PlateauMode::Max => f64::NEG_INFINITY,
        }
    }

    /// The settings.
    pub fn config(&self) -> &PlateauConfig {
        &self.config
    }

    /// The best metric seen (PyTorch `scheduler.best`).
    pub fn best(&self) -> f64 {
        self.best
    }

    /// The number of steps since the last improvement, not counting cooldown (PyTorch
    /// `scheduler.num_bad_epochs`).
    pub fn num_bad_epochs(&self) -> usize {
        self.num_bad_epochs
    }

    /// The cooldown steps left (PyTorch `scheduler.cooldown_counter`).
    pub fn cooldown_counter(&self) -> usize {
        self.cooldown_counter
    }

    /// Whether a cooldown is running (PyTorch `scheduler.in_cooldown`).
    pub fn in_cooldown(&self) -> bool {
        self.cooldown_counter > 0
    }

    /// The number of steps taken (PyTorch `scheduler.last_epoch`).
    pub fn last_epoch(&self) -> usize {
        self.last_epoch
    }

    /// Whether `a` improves on `best` (PyTorch's `is_better`).
    fn is_better(&self, a: f64, best: f64) -> bool {
        let t = self.config.threshold;
        match (self.config.mode, self.config.threshold_mode) {
            (PlateauMode::Min, ThresholdMode::Rel) => a < best * (1.0 - t),
            (PlateauMode::Min, ThresholdMode::Abs) => a < best - t,
            (PlateauMode::Max, ThresholdMode::Rel) => a > best * (t + 1.0),
            (PlateauMode::Max, ThresholdMode::Abs) => a > best + t,
        }
    }

    /// One epoch's metric (PyTorch `scheduler.step(metric)`): counts it as an improvement or
    /// not, and lowers every group's rate of `opt` after more than `patience` bad steps.
    pub fn step<T: GradFloat, O: Optimizer<T> + ?Sized>(&mut self, metric: f64, opt: &mut O) {
        self.last_epoch += 1;
        if self.is_better(metric, self.best) {
            self.best = metric;
            self.num_bad_epochs = 0;
        } else {
            self.num_bad_epochs += 1;
        }
        if self.in_cooldown() {
            self.cooldown_counter -= 1;
            // Bad epochs in cooldown are ignored.
            self.num_bad_epochs = 0;
        }
        if self.num_bad_epochs > self.config.patience {
            for g in 0..opt.num_groups() {
                let old = opt.group_lr(g);
                // Python's max(old * factor, min_lr): the first unless the second is greater.
                let (reduced, min_lr) = (old * self.config.factor, self.config.min_lr);
                let new = if min_lr > reduced { min_lr } else { reduced };
                if old - new > self.config.eps {
                    opt.set_group_lr(g, new);
                }
            }
            self.cooldown_counter = self.config.cooldown;
            self.num_bad_epochs = 0;
        }
    }

    /// The state: `best` (`F64 []`), `num_bad_epochs`, `cooldown_counter` and `last_epoch`
    /// (`I64 []`). The settings are not saved: build the scheduler with the same config.
    pub fn state_dict(&self) -> TrainState {
        let mut out = TrainState::new();
        out.insert("best", StateValue::f64_scalar(self.best));
        out.insert("num_bad_epochs", StateValue::i64_scalar(self.num_bad_epochs as i64));
        out.insert("cooldown_counter", StateValue::i64_scalar(self.cooldown_counter as i64));
        out.insert("last_epoch", StateValue::i64_scalar(self.last_epoch as i64));
        out
    }

    /// Loads a state of [`state_dict`](Self::state_dict).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for an unexpected or a missing key, a dtype or shape other than
    /// the spec's (naming the key and both), or a negative count. Nothing changes then.
    pub fn load_state_dict(&mut self, state: &TrainState) -> Result<(), ShapeError> {
        check_specs(WHAT, state, &self.state_specs())?;
        let count = |key: &str| -> Result<usize, ShapeError> {
            let v = count_at(WHAT, state, key)?.expect("checked by the specs");
            usize::try_from(v).map_err(|_| ShapeError::Invalid(format!("{WHAT}: {key} {v} does not fit this target")))
        };
        let (bad, cooldown, last) = (count("num_bad_epochs")?, count("cooldown_counter")?, count("last_epoch")?);
        self.best = f64_at(state, "best").expect("checked by the specs");
        self.num_bad_epochs = bad;
        self.cooldown_counter = cooldown;
        self.last_epoch = last;
        Ok(())
    }

    /// The keys of [`state_dict`](Self::state_dict), all required.
    pub fn state_specs(&self) -> Vec<StateSpec> {
        alloc::vec![
            StateSpec::required("best", StateDtype::F64, &[]),
            StateSpec::required("num_bad_epochs", StateDtype::I64, &[]),
            StateSpec::required("cooldown_counter", StateDtype::I64, &[]),
            StateSpec::required("last_epoch", StateDtype::I64, &[]),
        ]
    }
}
