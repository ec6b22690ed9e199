//! Training state by key (PyTorch's `optimizer.state_dict()` and `scheduler.state_dict()`):
//! [`TrainState`], an ordered list of named, typed tensors that optimizers, schedulers and the
//! data loader export and load back; [`StateSpec`], what a component expects to find; and the
//! `.safetensors` file form (feature `safetensors`).
//!
//! The values are typed as a `.safetensors` file types its tensors ([`StateDtype`]): the moment
//! buffers in the parameters' float type, step counts and positions as `I64`, learning rates and
//! other hyper-parameters as `F64` whatever the parameters' type, so that a resumed `f32` run
//! sees exactly the rates it saved.
use crate::error::ShapeError;
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

pub use super::slots::ParamNames;

/// The element type of a [`StateValue`] (the `.safetensors` dtypes `F32`, `F64`, `I64`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateDtype {
    /// `f32` (a moment buffer of `f32` parameters).
    F32,
    /// `f64` (a moment buffer of `f64` parameters, a learning rate, a metric).
    F64,
    /// `i64` (a step count, a counter, a permutation).
    I64,
}

impl StateDtype {
    /// The name as PyTorch prints it: `float32`, `float64`, `int64`.
    pub fn name(self) -> &'static str {
        match self {
            StateDtype::F32 => "float32",
            StateDtype::F64 => "float64",
            StateDtype::I64 => "int64",
        }
    }

    /// The dtype of a buffer of `T`.
    pub(crate) fn float<T: crate::autograd::GradFloat>() -> Self {
        if core::mem::size_of::<T>() == 4 {
            StateDtype::F32
        } else {
            StateDtype::F64
        }
    }
}

/// One tensor of a [`TrainState`]: its sizes (`[]` for a scalar) and row-major elements.
#[derive(Clone, Debug, PartialEq)]
pub enum StateValue {
    /// `f32` elements.
    F32 {
        /// The sizes.
        sizes: Vec<usize>,
        /// The elements, row-major.
        data: Vec<f32>,
    },
    /// `f64` elements.
    F64 {
        /// The sizes.
        sizes: Vec<usize>,
        /// The elements, row-major.
        data: Vec<f64>,
    },
    /// `i64` elements.
    I64 {
        /// The sizes.
        sizes: Vec<usize>,
        /// The elements, row-major.
        data: Vec<i64>,
    },
}

impl StateValue {
    /// A `float64` scalar (shape `[]`).
    pub fn f64_scalar(v: f64) -> Self {
        StateValue::F64 { sizes: Vec::new(), data: alloc::vec![v] }
    }

    /// An `int64` scalar (shape `[]`).
    pub fn i64_scalar(v: i64) -> Self {
        StateValue::I64 { sizes: Vec::new(), data: alloc::vec![v] }
    }

    /// The sizes.
    pub fn sizes(&self) -> &[usize] {
        match self {
            StateValue::F32 { sizes, .. } | StateValue::F64 { sizes, .. } | StateValue::I64 { sizes, .. } => sizes,
        }
    }

    /// The dtype.
    pub fn dtype(&self) -> StateDtype {
        match self {
            StateValue::F32 { .. } => StateDtype::F32,
            StateValue::F64 { .. } => StateDtype::F64,
            StateValue::I64 { .. } => StateDtype::I64,
        }
    }

    /// The number of elements held.
    pub fn len(&self) -> usize {
        match self {
            StateValue::F32 { data, .. } => data.len(),
            StateValue::F64 { data, .. } => data.len(),
            StateValue::I64 { data, .. } => data.len(),
        }
    }

    /// Whether it holds no element.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of a `float64` scalar, `None` for anything else.
    pub fn as_f64_scalar(&self) -> Option<f64> {
        match self {
            StateValue::F64 { sizes, data } if sizes.is_empty() && data.len() == 1 => Some(data[0]),
            _ => None,
        }
    }

    /// The value of an `int64` scalar, `None` for anything else.
    pub fn as_i64_scalar(&self) -> Option<i64> {
        match self {
            StateValue::I64 { sizes, data } if sizes.is_empty() && data.len() == 1 => Some(data[0]),
            _ => None,
        }
    }

    /// The elements of an `int64` tensor, `None` for another dtype.
    pub fn as_i64_slice(&self) -> Option<&[i64]> {
        match self {
            StateValue::I64 { data, .. } => Some(data),
            _ => None,
        }
    }

    /// A buffer of `T` (exact: `F32` for `f32`, `F64` for `f64`).
    pub(crate) fn floats<T: crate::autograd::GradFloat>(sizes: &[usize], data: &[T]) -> Self {
        if core::mem::size_of::<T>() == 4 {
            StateValue::F32 { sizes: sizes.to_vec(), data: data.iter().map(|v| v.as_f64() as f32).collect() }
        } else {
            StateValue::F64 { sizes: sizes.to_vec(), data: data.iter().map(|v| v.as_f64()).collect() }
        }
    }

    /// The elements as `T`, exactly, when the dtype is `T`'s; `None` otherwise.
    pub(crate) fn to_floats<T: crate::autograd::GradFloat>(&self) -> Option<Vec<T>> {
        match (self, StateDtype::float::<T>()) {
            (StateValue::F32 { data, .. }, StateDtype::F32) => {
                Some(data.iter().map(|&v| T::from_f64(v as f64)).collect())
            }
            (StateValue::F64 { data, .. }, StateDtype::F64) => Some(data.iter().map(|&v| T::from_f64(v)).collect()),
            _ => None,
        }
    }
}

/// Training state by key, in order (PyTorch's `optimizer.state_dict()`,
/// `scheduler.state_dict()`, flattened to tensors): what [`Optimizer::state_dict`],
/// [`LrScheduler::state_dict`], [`ReduceLrOnPlateau::state_dict`] and the data loader's
/// `state_dict` return, and what their `load_state_dict` take. Several components go in one
/// state (one checkpoint file) under prefixes with [`merge`](Self::merge), and come out with
/// [`section`](Self::section).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::autograd::optim::{StateValue, TrainState};
/// let mut opt = TrainState::new();
/// opt.insert("param_groups.0.lr", StateValue::f64_scalar(0.1));
/// let mut all = TrainState::new();
/// all.merge("optimizer", opt.clone());
/// assert_eq!(all.keys().collect::<Vec<_>>(), ["optimizer.param_groups.0.lr"]);
/// assert_eq!(all.section("optimizer"), opt);
/// ```
///
/// [`Optimizer::state_dict`]: super::Optimizer::state_dict
/// [`LrScheduler::state_dict`]: super::LrScheduler::state_dict
/// [`ReduceLrOnPlateau::state_dict`]: super::ReduceLrOnPlateau::state_dict
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainState {
    /// The entries, in order; keys are unique.
    pub entries: Vec<(String, StateValue)>,
}

impl TrainState {
    /// An empty state.
    pub fn new() -> Self {
        TrainState { entries: Vec::new() }
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    /// The entry of `key`.
    pub fn get(&self, key: &str) -> Option<&StateValue> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Sets the entry of `key` (replacing one of the same key, in its place; appending
    /// otherwise).
    pub fn insert(&mut self, key: impl Into<String>, value: StateValue) {
        let key = key.into();
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some(e) => e.1 = value,
            None => self.entries.push((key, value)),
        }
    }

    /// Appends every entry of `other` under `prefix.` (`prefix` empty: as they are), replacing
    /// entries of the same key.
    pub fn merge(&mut self, prefix: &str, other: TrainState) {
        for (k, v) in other.entries {
            self.insert(join(prefix, &k), v);
        }
    }

    /// The entries under `prefix.`, with the prefix removed (the inverse of
    /// [`merge`](Self::merge)).
    pub fn section(&self, prefix: &str) -> TrainState {
        if prefix.is_empty() {
            return self.clone();
        }
        let entries = self
            .entries
            .iter()
            .filter_map(|(k, v)| {
                let rest = k.strip_prefix(prefix)?.strip_prefix('.')?;
                Some((rest.to_string(), v.clone()))
            })
            .collect();
        TrainState { entries }
    }
}

/// What a component expects of one key of a [`TrainState`]: its dtype and sizes, and whether it
/// must be there. The `state_specs` methods of the optimizers, schedulers and the data loader
/// list them; `TrainState::load_safetensors` reads a file against them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateSpec {
    /// The key.
    pub key: String,
    /// The dtype.
    pub dtype: StateDtype,
    /// The sizes (`[]` for a scalar).
    pub sizes: Vec<usize>,
    /// Whether the key must be present (a parameter's optimizer state is optional: a parameter
    /// that has not stepped has none).
    pub required: bool,
}

impl StateSpec {
    /// A required spec.
    pub(crate) fn required(key: impl Into<String>, dtype: StateDtype, sizes: &[usize]) -> Self {
        StateSpec { key: key.into(), dtype, sizes: sizes.to_vec(), required: true }
    }

    /// An optional spec.
    pub(crate) fn optional(key: impl Into<String>, dtype: StateDtype, sizes: &[usize]) -> Self {
        StateSpec { key: key.into(), dtype, sizes: sizes.to_vec(), required: false }
    }

    /// `specs` with every key under `prefix.` (for a state [`merge`](TrainState::merge)d under
    /// `prefix`).
    pub fn with_prefix(specs: Vec<StateSpec>, prefix: &str) -> Vec<StateSpec> {
        specs.into_iter().map(|s| StateSpec { key: join(prefix, &s.key), ..s }).collect()
    }
}

/// `prefix.key`, or `key` under an empty prefix.
fn join(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// Checks `state` against `specs`: no key twice, no key outside `specs`, every required key
/// present, each present key of its spec's dtype and sizes and holding their product of
/// elements. `what` names the component in the errors.
pub(crate) fn check_specs(what: &str, state: &TrainState, specs: &[StateSpec]) -> Result<(), ShapeError> {
    let by_key: BTreeMap<&str, &StateSpec> = specs.iter().map(|s| (s.key.as_str(), s)).collect();
    let mut seen = BTreeSet::new();
    for k in state.keys() {
        if !seen.insert(k) {
            return Err(ShapeError::Invalid(format!("{what}: the state gives key {k:?} twice")));
        }
    }
    let unexpected: Vec<&str> = state.keys().filter(|k| !by_key.contains_key(k)).collect();
    if !unexpected.is_empty() {
        return Err(ShapeError::Invalid(format!(
            "{what}: unexpected key(s) {unexpected:?} in the state (not this {what}'s: another model, parameter names or configuration)"
        )));
    }
    let missing: Vec<&str> =
        specs.iter().filter(|s| s.required && !seen.contains(s.key.as_str())).map(|s| s.key.as_str()).collect();
    if !missing.is_empty() {
        return Err(ShapeError::Invalid(format!("{what}: missing key(s) {missing:?} in the state")));
    }
    for (k, v) in &state.entries {
        let s = by_key[k.as_str()];
        if v.dtype() != s.dtype {
            return Err(ShapeError::Invalid(format!(
                "{what}: {k:?} is {} in the state, {} in the {what}",
                v.dtype().name(),
                s.dtype.name()
            )));
        }
        if v.sizes() != s.sizes.as_slice() {
            return Err(ShapeError::Invalid(format!(
                "{what}: size mismatch for {k:?}: the state has shape {:?}, the {what} {:?}",
                v.sizes(),
                s.sizes
            )));
        }
        let n = s.sizes.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
        if n != Some(v.len()) {
            return Err(ShapeError::Invalid(format!(
                "{what}: {k:?} holds {} elements for shape {:?}",
                v.len(),
                s.sizes
            )));
        }
    }
    Ok(())
}

/// The scalar of a checked `F64 []` entry.
pub(crate) fn f64_at(state: &TrainState, key: &str) -> Option<f64> {
    state.get(key).and_then(StateValue::as_f64_scalar)
}

/// The scalar of a checked `I64 []` entry.
pub(crate) fn i64_at(state: &TrainState, key: &str) -> Option<i64> {
    state.get(key).and_then(StateValue::as_i64_scalar)
}

/// A counter read back: refuses a negative value.
pub(crate) fn count_at(what: &str, state: &TrainState, key: &str) -> Result<Option<u64>, ShapeError> {
    match i64_at(state, key) {
        None => Ok(None),
        Some(v) if v >= 0 => Ok(Some(v as u64)),
        Some(v) => Err(ShapeError::Invalid(format!("{what}: {key:?} is {v}, a count must be >= 0"))),
    }
}

#[cfg(feature = "safetensors")]
mod file {
    use super::*;
    use crate::autograd::{read_tensors, write_tensors, Keys};
    use crate::io::{FileFormat, IoError};
    use safetensors::Dtype;
    use std::path::Path;

    fn st_dtype(d: StateDtype) -> Dtype {
        match d {
            StateDtype::F32 => Dtype::F32,
            StateDtype::F64 => Dtype::F64,
            StateDtype::I64 => Dtype::I64,
        }
    }

    impl TrainState {
        /// Writes the state to a `.safetensors` file at `path`, one tensor per entry under its
        /// key (`F32`, `F64` or `I64`, little-endian), in order. Feature `safetensors`.
        ///
        /// # Errors
        /// An [`IoError::File`] naming the format and `path` around [`IoError::DuplicateName`]
        /// (a key given twice, refused before the file is created), [`IoError::Io`] or
        /// [`IoError::Safetensors`].
        pub fn save_safetensors(&self, path: impl AsRef<Path>) -> Result<(), IoError> {
            let path = path.as_ref();
            let tensors: Vec<(String, Dtype, Vec<usize>, Vec<u8>)> = self
                .entries
                .iter()
                .map(|(k, v)| {
                    let bytes: Vec<u8> = match v {
                        StateValue::F32 { data, .. } => data.iter().flat_map(|x| x.to_le_bytes()).collect(),
                        StateValue::F64 { data, .. } => data.iter().flat_map(|x| x.to_le_bytes()).collect(),
                        StateValue::I64 { data, .. } => data.iter().flat_map(|x| x.to_le_bytes()).collect(),
                    };
                    (k.clone(), st_dtype(v.dtype()), v.sizes().to_vec(), bytes)
                })
                .collect();
            write_tensors(path, &tensors).map_err(|e| e.in_file(FileFormat::Safetensors, path))
        }

        /// Reads a state written by [`save_safetensors`](Self::save_safetensors) (or by anyone)
        /// from the `.safetensors` file at `path`, against `specs` (a component's
        /// `state_specs`): the file is hostile input, checked as
        /// [`crate::autograd::load_safetensors`] checks it (the header first, then every tensor
        /// the specs name against its spec, dtype and shape, before any data is read). A key of
        /// the file that no spec names, or a required key the file lacks, is an error. Feature
        /// `safetensors`. Then hand the state to the component's `load_state_dict`, which checks
        /// the values.
        ///
        /// # Errors
        /// An [`IoError::File`] naming the format and `path`, around
        /// [`IoError::Keys`] (the unexpected or the missing keys),
        /// [`IoError::Parameter`] naming the key and both dtypes or shapes, or the file's own
        /// errors.
        pub fn load_safetensors(path: impl AsRef<Path>, specs: &[StateSpec]) -> Result<TrainState, IoError> {
            let path = path.as_ref();
            let run = || -> Result<TrainState, IoError> {
                let wanted: Vec<(String, Vec<usize>, Dtype)> =
                    specs.iter().map(|s| (s.key.clone(), s.sizes.clone(), st_dtype(s.dtype))).collect();
                let (bytes, names) = read_tensors(path, &wanted, Keys::Lenient)?;
                let known: BTreeSet<&str> = specs.iter().map(|s| s.key.as_str()).collect();
                let unexpected: Vec<String> = names.iter().filter(|n| !known.contains(n.as_str())).cloned().collect();
                let missing: Vec<String> = specs
                    .iter()
                    .zip(&bytes)
                    .filter(|(s, b)| s.required && b.is_none())
                    .map(|(s, _)| s.key.clone())
                    .collect();
                if !unexpected.is_empty() || !missing.is_empty() {
                    return Err(IoError::Keys { missing, unexpected });
                }
                // In the file's order.
                let mut found: Vec<(usize, String, StateValue)> = Vec::new();
                for (s, b) in specs.iter().zip(bytes) {
                    let Some(b) = b else { continue };
                    let sizes = s.sizes.clone();
                    let v = match s.dtype {
                        StateDtype::F32 => StateValue::F32 { sizes, data: crate::memory::le_values(&b)? },
                        StateDtype::F64 => StateValue::F64 { sizes, data: crate::memory::le_values(&b)? },
                        StateDtype::I64 => StateValue::I64 { sizes, data: crate::memory::le_values(&b)? },
                    };
                    let at = names.iter().position(|n| *n == s.key).unwrap_or(usize::MAX);
                    found.push((at, s.key.clone(), v));
                }
                found.sort_by_key(|(at, ..)| *at);
                Ok(TrainState { entries: found.into_iter().map(|(_, k, v)| (k, v)).collect() })
            };
            run().map_err(|e| e.in_file(FileFormat::Safetensors, path))
        }
    }
}
