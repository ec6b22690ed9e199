//! State dicts (PyTorch's `state_dict()` and `load_state_dict`): a model's parameters and
//! buffers by their dotted keys, in memory ([`StateDict`]) and in `.safetensors` files (feature
//! `safetensors`), so that a checkpoint written by PyTorch's
//! `safetensors.torch.save_file(model.state_dict(), path)` loads into the same architecture
//! written with this module's layers, and the reverse.
//!
//! Every tensor is checked against its field's type before anything changes: a missing or an
//! unexpected key (with `strict`), a shape or a dtype that differs is an error naming the key
//! and both shapes or dtypes, and a failed load leaves the model unchanged. As PyTorch's, a
//! non-strict load skips the missing and unexpected keys and reports them ([`LoadReport`]);
//! shapes and dtypes are checked either way.
use super::{Item, Module};
use crate::autograd::GradFloat;
use crate::error::ShapeError;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// One tensor of a [`StateDict`].
#[derive(Clone, Debug, PartialEq)]
pub enum StateTensor<T> {
    /// A parameter or a float buffer: its sizes and row-major elements.
    Float {
        /// The sizes.
        sizes: Vec<usize>,
        /// The elements, row-major.
        data: Vec<T>,
    },
    /// An integer counter (batch norm's `num_batches_tracked`, an `int64` tensor of shape `[]`
    /// in PyTorch).
    Int(i64),
}

impl<T> StateTensor<T> {
    /// The sizes (`[]` for a counter).
    pub fn sizes(&self) -> &[usize] {
        match self {
            StateTensor::Float { sizes, .. } => sizes,
            StateTensor::Int(_) => &[],
        }
    }
    /// The dtype's name as PyTorch prints it (`float32`, `float64`, `int64`).
    fn dtype_name(&self) -> &'static str {
        match self {
            StateTensor::Float { .. } if core::mem::size_of::<T>() == 4 => "float32",
            StateTensor::Float { .. } => "float64",
            StateTensor::Int(_) => "int64",
        }
    }
}

/// A model's parameters and buffers by key, in the model's order (PyTorch's ordered
/// `state_dict()`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StateDict<T> {
    /// The entries, in order.
    pub entries: Vec<(String, StateTensor<T>)>,
}

impl<T> StateDict<T> {
    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_str())
    }
    /// The entry of `key`.
    pub fn get(&self, key: &str) -> Option<&StateTensor<T>> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, t)| t)
    }
    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// What a non-strict load skipped (PyTorch's `_IncompatibleKeys`): the model's keys that the
/// source lacks (left unchanged) and the source's keys that the model lacks (ignored). Both are
/// empty after a strict load.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoadReport {
    /// The model's keys that were not in the source.
    pub missing_keys: Vec<String>,
    /// The source's keys that are not the model's.
    pub unexpected_keys: Vec<String>,
}

/// The model's entries: key, sizes and whether it is a counter, in order; an error for a key
/// given twice.
pub(crate) fn layout<T: GradFloat>(
    model: &mut (impl Module<T> + ?Sized),
) -> Result<Vec<(String, Vec<usize>, bool)>, ShapeError> {
    let mut out: Vec<(String, Vec<usize>, bool)> = Vec::new();
    model.visit("", &mut |name, item| match item {
        Item::Param(p) => out.push((name.to_string(), p.sizes().to_vec(), false)),
        Item::Buffer(b) => out.push((name.to_string(), b.sizes().to_vec(), false)),
        Item::Count(_) => out.push((name.to_string(), Vec::new(), true)),
        Item::Training(_) => {}
    });
    let mut seen = alloc::collections::BTreeSet::new();
    if let Some((k, ..)) = out.iter().find(|(k, ..)| !seen.insert(k.clone())) {
        return Err(ShapeError::Invalid(format!("the model has two entries named {k:?}: keys must be unique")));
    }
    Ok(out)
}

/// The model's state (PyTorch `model.state_dict()`).
pub(crate) fn state_dict<T: GradFloat>(model: &mut (impl Module<T> + ?Sized)) -> StateDict<T> {
    let mut entries = Vec::new();
    model.visit("", &mut |name, item| match item {
        Item::Param(p) => {
            entries.push((name.to_string(), StateTensor::Float { sizes: p.sizes().to_vec(), data: p.to_vec() }))
        }
        Item::Buffer(b) => {
            entries.push((name.to_string(), StateTensor::Float { sizes: b.sizes().to_vec(), data: b.to_vec() }))
        }
        Item::Count(c) => entries.push((name.to_string(), StateTensor::Int(c.0))),
        Item::Training(_) => {}
    });
    StateDict { entries }
}

/// Assigns `values` (key -> entry, every one already checked against the model) to the model.
/// Cannot fail half way: sizes and kinds were checked.
pub(crate) fn assign<T: GradFloat>(model: &mut (impl Module<T> + ?Sized), mut values: Vec<(String, StateTensor<T>)>) {
    model.visit("", &mut |name, item| {
        let Some(i) = values.iter().position(|(k, _)| k == name) else { return };
        let (_, v) = values.swap_remove(i);
        match (item, v) {
            (Item::Param(p), StateTensor::Float { sizes, data }) => {
                let r = p.try_assign(&sizes, data);
                debug_assert!(r.is_ok());
            }
            (Item::Buffer(b), StateTensor::Float { sizes, data }) => {
                let r = b.try_assign(&sizes, data);
                debug_assert!(r.is_ok());
            }
            (Item::Count(c), StateTensor::Int(v)) => c.0 = v,
            _ => debug_assert!(false, "a state entry of the wrong kind reached assign"),
        }
    });
}

/// [`Module::load_state_dict`]'s work.
pub(crate) fn load_state_dict<T: GradFloat>(
    model: &mut (impl Module<T> + ?Sized),
    sd: &StateDict<T>,
    strict: bool,
) -> Result<LoadReport, ShapeError> {
    let want = layout(model)?;
    let mut report = LoadReport::default();
    for (k, ..) in &want {
        if sd.get(k).is_none() {
            report.missing_keys.push(k.clone());
        }
    }
    for k in sd.keys() {
        if !want.iter().any(|(w, ..)| w == k) {
            report.unexpected_keys.push(k.to_string());
        }
    }
    if strict && (!report.missing_keys.is_empty() || !report.unexpected_keys.is_empty()) {
        return Err(ShapeError::Invalid(format!(
            "load_state_dict (strict): missing key(s) {:?}, unexpected key(s) {:?}",
            report.missing_keys, report.unexpected_keys
        )));
    }
    let mut values = Vec::new();
    for (k, sizes, count) in &want {
        let Some(v) = sd.get(k) else { continue };
        let expected =
            if *count { "int64" } else { StateTensor::<T>::Float { sizes: Vec::new(), data: Vec::new() }.dtype_name() };
        if v.dtype_name() != expected {
            return Err(ShapeError::Invalid(format!(
                "load_state_dict: {k:?} is {} in the state dict, {expected} in the model",
                v.dtype_name()
            )));
        }
        if v.sizes() != sizes.as_slice() {
            return Err(ShapeError::Invalid(format!(
                "load_state_dict: size mismatch for {k:?}: the state dict has shape {:?}, the model {sizes:?}",
                v.sizes()
            )));
        }
        if let StateTensor::Float { data, .. } = v {
            let n: usize = sizes.iter().product();
            if data.len() != n {
                return Err(ShapeError::Invalid(format!(
                    "load_state_dict: {k:?} holds {} elements for shape {sizes:?} ({n})",
                    data.len()
                )));
            }
        }
        values.push((k.clone(), v.clone()));
    }
    assign(model, values);
    Ok(report)
}

#[cfg(feature = "safetensors")]
mod file {
    use super::*;
    use crate::autograd::{decode_floats, float_dtype, read_tensors, to_bytes, write_tensors, Keys};
    use crate::io::{FileFormat, IoError};
    use safetensors::Dtype;
    use std::path::Path;

    /// [`Module::save_safetensors`]'s work.
    pub(crate) fn save<T: GradFloat>(model: &mut (impl Module<T> + ?Sized), path: &Path) -> Result<(), IoError> {
        let sd = state_dict(model);
        let run = || {
            let mut tensors = Vec::with_capacity(sd.entries.len());
            for (k, v) in sd.entries {
                let (dt, sizes, bytes) = match v {
                    StateTensor::Float { sizes, data } => (float_dtype::<T>(), sizes, to_bytes(&data)),
                    StateTensor::Int(v) => (Dtype::I64, Vec::new(), v.to_le_bytes().to_vec()),
                };
                tensors.push((k, dt, sizes, bytes));
            }
            write_tensors(path, &tensors)
        };
        run().map_err(|e| e.in_file(FileFormat::Safetensors, path))
    }

    /// [`Module::load_safetensors`]'s work.
    pub(crate) fn load<T: GradFloat>(
        model: &mut (impl Module<T> + ?Sized),
        path: &Path,
        strict: bool,
    ) -> Result<LoadReport, IoError> {
        let mut run = || -> Result<LoadReport, IoError> {
            let want = layout(model)?;
            let wanted: Vec<(String, Vec<usize>, Dtype)> = want
                .iter()
                .map(|(k, s, count)| (k.clone(), s.clone(), if *count { Dtype::I64 } else { float_dtype::<T>() }))
                .collect();
            let keys = if strict { Keys::Strict } else { Keys::Lenient };
            let (bytes, names) = read_tensors(path, &wanted, keys)?;
            let mut report = LoadReport::default();
            let mut values = Vec::new();
            for ((k, sizes, count), b) in want.into_iter().zip(bytes) {
                let Some(b) = b else {
                    report.missing_keys.push(k);
                    continue;
                };
                let v = if count {
                    let mut a = [0u8; 8];
                    a.copy_from_slice(&b[..8]);
                    StateTensor::Int(i64::from_le_bytes(a))
                } else {
                    let data = decode_floats::<T>(&b)?;
                    StateTensor::Float { sizes, data }
                };
                values.push((k, v));
            }
            report.unexpected_keys = names.into_iter().filter(|n| !values.iter().any(|(k, _)| k == n)).collect();
            assign(model, values);
            Ok(report)
        };
        run().map_err(|e| e.in_file(FileFormat::Safetensors, path))
    }
}
#[cfg(feature = "safetensors")]
pub(crate) use file::{load as load_safetensors, save as save_safetensors};
