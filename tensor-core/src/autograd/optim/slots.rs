//! What every optimizer keeps (its groups and a state slot per parameter: a step count and
//! buffers of the parameter's length), and its export to and import from a [`TrainState`] by
//! parameter name ([`ParamNames`]).
use super::groups::Groups;
use super::nonneg;
use super::state::{check_specs, count_at, f64_at, i64_at, StateDtype, StateSpec, StateValue, TrainState};
use crate::autograd::{AnyParam, GradFloat, ParamId};
use crate::error::ShapeError;
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Parameters by name: the stable half of a checkpoint (PyTorch keys an optimizer's state by the
/// parameter's position in `param_groups`, which `model.parameters()` makes stable; here a
/// [`ParamId`] is new in every process, so the state is saved under the model's dotted names and
/// found again by them). Each entry is a name, the parameter's [`ParamId`] in this process and
/// its sizes (what a loaded buffer's shape is checked against).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::ParamNames;
/// use shaped::autograd::Param;
/// use shaped::nn::{Linear, Module, Relu};
/// use shaped::rand::{rngs::StdRng, SeedableRng};
/// use shaped::{Const, Shape, Tensor};
///
/// let rng = &mut StdRng::seed_from_u64(0);
/// let mut model = (Linear::<Const<4>, Const<8>>::new(rng), Relu, Linear::<Const<8>, Const<2>>::new(rng));
/// let names = ParamNames::of(model.named_parameters());
/// assert_eq!(names.names().collect::<Vec<_>>(), ["0.weight", "0.bias", "2.weight", "2.bias"]);
/// assert_eq!(names.id("2.bias"), Some(model.2.bias.as_ref().unwrap().id()));
/// assert_eq!(names.ids_where(|n| n.ends_with("bias")).len(), 2);
///
/// // Loose parameters, named by hand.
/// let w = Param::new(Tensor::<f32, Shape![3]>::zeros());
/// let names = ParamNames::new().with("w", &w);
/// assert_eq!(names.sizes("w"), Some(&[3usize][..]));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParamNames {
    entries: Vec<(String, ParamId, Vec<usize>)>,
}

impl ParamNames {
    /// No names.
    pub fn new() -> Self {
        ParamNames { entries: Vec::new() }
    }

    /// The parameters `params` under their names: a model's under its dotted names with
    /// `ParamNames::of(model.named_parameters())` (PyTorch `model.named_parameters()`, see
    /// [`Module::named_parameters`](crate::nn::Module::named_parameters)).
    pub fn of<'a, T: GradFloat>(params: impl IntoIterator<Item = (String, &'a mut dyn AnyParam<T>)>) -> Self {
        let entries = params.into_iter().map(|(name, p)| (name, p.id(), p.sizes().to_vec())).collect();
        ParamNames { entries }
    }

    /// Adds `param` under `name`.
    pub fn push<T: GradFloat>(&mut self, name: impl Into<String>, param: &dyn AnyParam<T>) -> &mut Self {
        self.entries.push((name.into(), param.id(), param.sizes().to_vec()));
        self
    }

    /// [`push`](Self::push), by value.
    pub fn with<T: GradFloat>(mut self, name: impl Into<String>, param: &dyn AnyParam<T>) -> Self {
        self.push(name, param);
        self
    }

    /// The [`ParamId`] of `name`.
    pub fn id(&self, name: &str) -> Option<ParamId> {
        self.entries.iter().find(|(n, ..)| n == name).map(|&(_, id, _)| id)
    }

    /// The name of `id`.
    pub fn name(&self, id: ParamId) -> Option<&str> {
        self.entries.iter().find(|&&(_, i, _)| i == id).map(|(n, ..)| n.as_str())
    }

    /// The sizes of `name`'s parameter.
    pub fn sizes(&self, name: &str) -> Option<&[usize]> {
        self.entries.iter().find(|(n, ..)| n == name).map(|(_, _, s)| s.as_slice())
    }

    /// The ids of the parameters whose name `pick` accepts, in order (for `add_param_group`:
    /// `names.ids_where(|n| n.ends_with("bias"))`).
    pub fn ids_where(&self, mut pick: impl FnMut(&str) -> bool) -> Vec<ParamId> {
        self.entries.iter().filter(|(n, ..)| pick(n)).map(|&(_, id, _)| id).collect()
    }

    /// The names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(n, ..)| n.as_str())
    }

    /// The number of names.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// No name twice, no id under two names.
    pub(crate) fn check(&self, what: &str) -> Result<(), ShapeError> {
        let mut names = BTreeSet::new();
        let mut ids = BTreeMap::new();
        for (n, id, _) in &self.entries {
            if !names.insert(n.as_str()) {
                return Err(ShapeError::Invalid(format!("{what}: the parameter name {n:?} is given twice")));
            }
            if let Some(other) = ids.insert(*id, n.as_str()) {
                return Err(ShapeError::Invalid(format!(
                    "{what}: parameters {other:?} and {n:?} are one parameter ({id:?}): name it once"
                )));
            }
        }
        Ok(())
    }
}

/// The state of one parameter (PyTorch `optimizer.state[p]`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Slot<T> {
    /// The number of steps this parameter has taken (0 for the optimizers that do not count).
    pub(crate) step: u64,
    /// The buffers of [`SlotLayout::bufs`], each as long as the parameter.
    pub(crate) bufs: Vec<Vec<T>>,
}

/// What an optimizer keeps per parameter, for its state dict.
pub(crate) struct SlotLayout {
    /// PyTorch's class name, for errors.
    pub(crate) name: &'static str,
    /// Whether the slots' step counts are state (`state.<name>.step`).
    pub(crate) step: bool,
    /// The buffers' names, in the slots' order.
    pub(crate) bufs: Vec<&'static str>,
}

/// An optimizer's groups and per-parameter state.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Core<T> {
    pub(crate) groups: Groups,
    pub(crate) slots: BTreeMap<ParamId, Slot<T>>,
}

fn state_key(name: &str, field: &str) -> String {
    format!("state.{name}.{field}")
}

fn group_key(g: usize, field: &str) -> String {
    format!("param_groups.{g}.{field}")
}

fn member_key(name: &str) -> String {
    format!("param_group.{name}")
}

impl<T: GradFloat> Core<T> {
    pub(crate) fn new(lr0: f64) -> Self {
        Core { groups: Groups::new(lr0), slots: BTreeMap::new() }
    }

    /// The length of `id`'s buffers, if it has any.
    pub(crate) fn state_len(&self, id: ParamId) -> Option<usize> {
        self.slots.get(&id).and_then(|s| s.bufs.first()).map(Vec::len)
    }

    /// The keys the state of the parameters `names` may have.
    pub(crate) fn specs(&self, layout: &SlotLayout, names: &ParamNames) -> Vec<StateSpec> {
        let fd = StateDtype::float::<T>();
        let mut out = Vec::new();
        for (name, _, sizes) in &names.entries {
            if layout.step {
                out.push(StateSpec::optional(state_key(name, "step"), StateDtype::I64, &[]));
            }
            for b in &layout.bufs {
                out.push(StateSpec::optional(state_key(name, b), fd, sizes));
            }
        }
        for g in 0..self.groups.len() {
            for field in ["lr", "weight_decay", "initial_lr"] {
                out.push(StateSpec::required(group_key(g, field), StateDtype::F64, &[]));
            }
        }
        if self.groups.len() > 1 {
            for (name, ..) in &names.entries {
                out.push(StateSpec::optional(member_key(name), StateDtype::I64, &[]));
            }
        }
        out
    }

    /// The state of the parameters `names` (see `Optimizer::state_dict`).
    pub(crate) fn export(
        &self,
        layout: &SlotLayout,
        names: &ParamNames,
        lr0: f64,
        wd0: f64,
    ) -> Result<TrainState, ShapeError> {
        let what = layout.name;
        names.check(what)?;
        let named: BTreeMap<ParamId, &str> = names.entries.iter().map(|(n, id, _)| (*id, n.as_str())).collect();
        if let Some(id) = self.slots.keys().find(|id| !named.contains_key(id)) {
            return Err(ShapeError::Invalid(format!(
                "{what}: the optimizer holds state for parameter {id:?}, which the names do not name: name every parameter it has stepped"
            )));
        }
        if let Some(id) = self.groups.member.keys().find(|id| !named.contains_key(id)) {
            return Err(ShapeError::Invalid(format!(
                "{what}: parameter group {} holds parameter {id:?}, which the names do not name",
                self.groups.of(*id)
            )));
        }
        let mut out = TrainState::new();
        for (name, id, sizes) in &names.entries {
            let Some(slot) = self.slots.get(id) else { continue };
            if layout.step {
                out.insert(state_key(name, "step"), StateValue::i64_scalar(slot.step as i64));
            }
            for (b, data) in layout.bufs.iter().zip(&slot.bufs) {
                out.insert(state_key(name, b), StateValue::floats(sizes, data));
            }
        }
        for g in 0..self.groups.len() {
            out.insert(group_key(g, "lr"), StateValue::f64_scalar(self.groups.lr(g, lr0)));
            out.insert(group_key(g, "weight_decay"), StateValue::f64_scalar(self.groups.weight_decay(g, wd0)));
            out.insert(group_key(g, "initial_lr"), StateValue::f64_scalar(self.groups.initial_lr(g)));
        }
        for (name, id, _) in &names.entries {
            let g = self.groups.of(*id);
            if g != 0 {
                out.insert(member_key(name), StateValue::i64_scalar(g as i64));
            }
        }
        Ok(out)
    }

    /// Replaces the state by `state` (see `Optimizer::load_state_dict`); returns group 0's
    /// `(lr, weight_decay)`, which the caller puts in its config.
    pub(crate) fn import(
        &mut self,
        layout: &SlotLayout,
        state: &TrainState,
        names: &ParamNames,
    ) -> Result<(f64, f64), ShapeError> {
        let what = layout.name;
        names.check(what)?;
        check_specs(what, state, &self.specs(layout, names))?;
        // The groups: the same membership, valid rates.
        let mut hyper = Vec::with_capacity(self.groups.len());
        for g in 0..self.groups.len() {
            let get = |field| f64_at(state, &group_key(g, field)).expect("checked by the specs");
            let (lr, wd, initial) = (get("lr"), get("weight_decay"), get("initial_lr"));
            nonneg(&format!("learning rate of parameter group {g}"), what, lr)?;
            nonneg(&format!("weight_decay of parameter group {g}"), what, wd)?;
            nonneg(&format!("initial_lr of parameter group {g}"), what, initial)?;
            hyper.push((lr, wd, initial));
        }
        for (name, id, _) in &names.entries {
            let saved = i64_at(state, &member_key(name)).unwrap_or(0);
            let now = self.groups.of(*id);
            if saved != now as i64 {
                return Err(ShapeError::Invalid(format!(
                    "{what}: the state puts parameter {name:?} in parameter group {saved}, this optimizer in group {now}: add the same groups before loading"
                )));
            }
        }
        // The slots: each parameter's state complete or absent.
        let mut slots = BTreeMap::new();
        for (name, id, _) in &names.entries {
            let step_key = state_key(name, "step");
            let mut keys: Vec<String> = layout.bufs.iter().map(|b| state_key(name, b)).collect();
            if layout.step {
                keys.push(step_key.clone());
            }
            let present: Vec<&String> = keys.iter().filter(|k| state.get(k).is_some()).collect();
            if present.is_empty() {
                continue;
            }
            if present.len() != keys.len() {
                let missing: Vec<&String> = keys.iter().filter(|k| state.get(k).is_none()).collect();
                return Err(ShapeError::Invalid(format!(
                    "{what}: the state of parameter {name:?} is incomplete: it has {present:?} but not {missing:?}"
                )));
            }
            let step = if layout.step { count_at(what, state, &step_key)?.unwrap_or(0) } else { 0 };
            let bufs = layout
                .bufs
                .iter()
                .map(|b| {
                    state.get(&state_key(name, b)).and_then(StateValue::to_floats::<T>).expect("checked by the specs")
                })
                .collect();
            slots.insert(*id, Slot { step, bufs });
        }
        // Nothing can fail from here.
        self.slots = slots;
        let (lr0, wd0, initial0) = hyper[0];
        self.groups.initial_lr0 = initial0;
        for (g, &(lr, wd, initial)) in self.groups.extra.iter_mut().zip(&hyper[1..]) {
            g.lr = lr;
            g.weight_decay = wd;
            g.initial_lr = initial;
        }
        Ok((lr0, wd0))
    }
}
