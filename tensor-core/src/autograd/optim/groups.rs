//! Parameter groups (PyTorch's `optimizer.param_groups`): group 0 holds every parameter that no
//! other group holds, with the config's learning rate and weight decay; each group added by
//! `add_param_group` holds the parameters given to it, with its own.
use super::{c, nonneg};
use crate::autograd::GradFloat;
use crate::autograd::ParamId;
use crate::error::ShapeError;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::vec::Vec;

/// The hyper-parameters of a new parameter group (PyTorch's keys of the dict given to
/// `optimizer.add_param_group`): each one left `None` takes the optimizer config's value, as
/// PyTorch fills a group's missing keys from the optimizer's defaults. The other
/// hyper-parameters (momentum, betas, eps, ...) are always the config's.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// use shaped::autograd::optim::{GroupOptions, Sgd, SgdConfig};
/// use shaped::autograd::{Param, Tape};
///
/// let mut w = Param::new(Tensor::<f64, Shape![2]>::from([1.0, 1.0]));
/// let mut b = Param::new(Tensor::<f64, Shape![1]>::from([1.0]));
/// let mut opt = Sgd::new(SgdConfig { lr: 0.1, weight_decay: 0.5, ..Default::default() });
/// // b: its own learning rate, no weight decay (PyTorch's usual "no decay on biases").
/// let g = opt.add_param_group([b.id()], GroupOptions { lr: Some(1.0), weight_decay: Some(0.0) }).unwrap();
/// assert_eq!((g, opt.num_groups(), opt.group_of(b.id()), opt.group_of(w.id())), (1, 2, 1, 0));
/// let tape = Tape::new();
/// let loss = &tape.watch(&w).sum() + &tape.watch(&b).sum(); // every gradient is 1
/// opt.step(&mut [&mut w, &mut b], &loss.backward());
/// assert_eq!(w.value().to_vec(), [1.0 - 0.1 * (1.0 + 0.5); 2]);
/// assert_eq!(b.value().to_vec(), [0.0]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GroupOptions {
    /// The group's learning rate (`>= 0`), PyTorch's `"lr"`; `None`: the config's.
    pub lr: Option<f64>,
    /// The group's weight decay (`>= 0`), PyTorch's `"weight_decay"`; `None`: the config's.
    pub weight_decay: Option<f64>,
}

/// One group added by `add_param_group`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Group {
    pub(crate) lr: f64,
    pub(crate) weight_decay: f64,
    pub(crate) initial_lr: f64,
    /// In the order given.
    pub(crate) params: Vec<ParamId>,
}

/// An optimizer's groups beyond group 0 (whose `lr` and `weight_decay` live in the config).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Groups {
    /// Group 0's `initial_lr`: the config's `lr` when the optimizer was made.
    pub(crate) initial_lr0: f64,
    /// Groups 1, 2, ...
    pub(crate) extra: Vec<Group>,
    /// The group (`>= 1`) of every parameter in one.
    pub(crate) member: BTreeMap<ParamId, usize>,
}

impl Groups {
    pub(crate) fn new(lr0: f64) -> Self {
        Groups { initial_lr0: lr0, extra: Vec::new(), member: BTreeMap::new() }
    }

    /// The number of groups, group 0 included.
    pub(crate) fn len(&self) -> usize {
        1 + self.extra.len()
    }

    /// The group of `id`.
    #[inline]
    pub(crate) fn of(&self, id: ParamId) -> usize {
        if self.extra.is_empty() {
            return 0;
        }
        self.member.get(&id).copied().unwrap_or(0)
    }

    /// Group `group` (at least 1) of the groups added after the first.
    ///
    /// # Panics
    /// When `group >= len()`.
    #[track_caller]
    fn extra(&self, group: usize) -> &Group {
        let len = self.len();
        assert!(group < len, "parameter group {group} does not exist: the optimizer has {len} group(s)");
        &self.extra[group - 1]
    }

    /// A field of `group`: `v0` for group 0 (its value is the optimizer's config), `field` of a
    /// later group.
    #[track_caller]
    fn get(&self, group: usize, v0: f64, field: fn(&Group) -> f64) -> f64 {
        if group == 0 {
            v0
        } else {
            field(self.extra(group))
        }
    }

    /// Sets a field of `group` to `v`: `v0` for group 0, `field` of a later group.
    #[track_caller]
    fn set(&mut self, group: usize, v: f64, v0: &mut f64, field: fn(&mut Group) -> &mut f64) {
        if group == 0 {
            *v0 = v;
        } else {
            let _ = self.extra(group);
            *field(&mut self.extra[group - 1]) = v;
        }
    }

    /// The learning rate of `group`, `lr0` being group 0's.
    #[track_caller]
    pub(crate) fn lr(&self, group: usize, lr0: f64) -> f64 {
        self.get(group, lr0, |g| g.lr)
    }

    /// The weight decay of `group`, `wd0` being group 0's.
    #[track_caller]
    pub(crate) fn weight_decay(&self, group: usize, wd0: f64) -> f64 {
        self.get(group, wd0, |g| g.weight_decay)
    }

    /// The learning rate `group` was created with (PyTorch's `initial_lr`).
    #[track_caller]
    pub(crate) fn initial_lr(&self, group: usize) -> f64 {
        self.get(group, self.initial_lr0, |g| g.initial_lr)
    }

    /// Sets the learning rate of `group`, `lr0` being group 0's.
    #[track_caller]
    pub(crate) fn set_lr(&mut self, group: usize, lr: f64, lr0: &mut f64) {
        self.set(group, lr, lr0, |g| &mut g.lr)
    }

    /// Sets the weight decay of `group`, `wd0` being group 0's.
    #[track_caller]
    pub(crate) fn set_weight_decay(&mut self, group: usize, wd: f64, wd0: &mut f64) {
        self.set(group, wd, wd0, |g| &mut g.weight_decay)
    }

    /// The `(lr, weight_decay)` of parameter `id`'s group.
    #[inline]
    pub(crate) fn hyper(&self, id: ParamId, lr0: f64, wd0: f64) -> (f64, f64) {
        match self.of(id) {
            0 => (lr0, wd0),
            g => (self.extra[g - 1].lr, self.extra[g - 1].weight_decay),
        }
    }

    /// [`hyper`](Self::hyper) as a step uses it: the learning rate, the weight decay in `T`, and
    /// whether the decay is on (not zero).
    #[inline]
    pub(crate) fn hyper_t<T: GradFloat>(&self, id: ParamId, lr0: f64, wd0: f64) -> (f64, T, bool) {
        let (lr, wd) = self.hyper(id, lr0, wd0);
        (lr, c(wd), wd != 0.0)
    }

    /// Adds a group (see the optimizers' `add_param_group`).
    pub(crate) fn add(
        &mut self,
        opt: &str,
        ids: impl IntoIterator<Item = ParamId>,
        options: GroupOptions,
        lr0: f64,
        wd0: f64,
    ) -> Result<usize, ShapeError> {
        let lr = options.lr.unwrap_or(lr0);
        let weight_decay = options.weight_decay.unwrap_or(wd0);
        nonneg("learning rate of the new group", opt, lr)?;
        nonneg("weight_decay of the new group", opt, weight_decay)?;
        let params: Vec<ParamId> = ids.into_iter().collect();
        let g = self.len();
        let mut seen = alloc::collections::BTreeSet::new();
        for &id in &params {
            if let Some(&other) = self.member.get(&id) {
                return Err(ShapeError::Invalid(format!(
                    "{opt}: some parameters appear in more than one parameter group: {id:?} is in group {other} already"
                )));
            }
            if !seen.insert(id) {
                return Err(ShapeError::Invalid(format!(
                    "{opt}: some parameters appear in more than one parameter group: {id:?} is given twice to the new group"
                )));
            }
        }
        for &id in &params {
            self.member.insert(id, g);
        }
        self.extra.push(Group { lr, weight_decay, initial_lr: lr, params });
        Ok(g)
    }

    /// The checks of every step: each added group's rate and decay `>= 0` (group 0's are the
    /// config's, checked with it).
    pub(crate) fn check(&self, opt: &str) -> Result<(), ShapeError> {
        for (i, g) in self.extra.iter().enumerate() {
            nonneg(&format!("learning rate of parameter group {}", i + 1), opt, g.lr)?;
            nonneg(&format!("weight_decay of parameter group {}", i + 1), opt, g.weight_decay)?;
        }
        Ok(())
    }
}
