//! Saving and loading a model's parameters (PyTorch `torch.save(model.state_dict())` /
//! `load_state_dict`): `.npz` archives (feature `npy`) and `.safetensors` files (feature
//! `safetensors`, the `safetensors` crate; files written by PyTorch's
//! `safetensors.torch.save_file` load). Every tensor is checked against its parameter's sizes,
//! whose static dims the type fixes, and every error names the tensor. Loading is all or
//! nothing: the file is read and checked whole before any parameter changes.
//!
//! Files are hostile input: the `.npz` reader bounds every member by the bytes present and
//! verifies its CRC-32 ([`NpzReader`]); the `.safetensors` file is read whole (its size bounds
//! memory) and the `safetensors` crate checks its header (at most 100 MB) and that every
//! tensor's byte range lies in the file and matches its shape and dtype.
use super::tape::{AnyParam, Parameters};
use super::GradFloat;
use crate::io::{IoError, NpyElement, NpzReader, NpzWriter};
use crate::shape::DynShape;
use crate::tensor::Tensor;
use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use std::path::Path;

/// The parameters' names, sizes and elements, in visiting order.
fn collect<T: GradFloat>(model: &mut impl Parameters<T>) -> Vec<(String, Vec<usize>, Vec<T>)> {
    let mut out = Vec::new();
    model.visit(&mut |name, p| out.push((name.to_string(), p.sizes().to_vec(), p.to_vec())));
    out
}

/// Checks every loaded tensor against its parameter, then assigns them all (nothing changes
/// on error). `loaded` maps names to sizes and elements; `member` wraps an error with the name.
fn assign_all<T: GradFloat>(
    model: &mut impl Parameters<T>,
    mut loaded: Vec<(String, Vec<usize>, Vec<T>)>,
    member: impl Fn(&str, IoError) -> IoError,
) -> Result<(), IoError> {
    // First pass: every parameter has a tensor of its sizes.
    let mut err: Option<IoError> = None;
    model.visit(&mut |name, p| {
        if err.is_some() {
            return;
        }
        match loaded.iter().find(|(n, _, _)| n == name) {
            None => {
                err = Some(IoError::NotFound {
                    name: name.to_string(),
                    names: loaded.iter().map(|(n, _, _)| n.clone()).collect(),
                })
            }
            Some((_, sizes, _)) if sizes.as_slice() != p.sizes() => {
                let e = crate::ShapeError::ShapeMismatch {
                    expected: format!("{:?} (the parameter, {})", p.sizes(), p.shape_name()),
                    got: sizes.clone(),
                };
                err = Some(member(name, IoError::Shape(e)));
            }
            Some(_) => {}
        }
    });
    if let Some(e) = err {
        return Err(e);
    }
    // Second pass: assign (sizes checked above, so this cannot fail half way).
    model.visit(&mut |name, p: &mut dyn AnyParam<T>| {
        if let Some(i) = loaded.iter().position(|(n, _, _)| n == name) {
            let (_, sizes, data) = loaded.swap_remove(i);
            let r = p.try_assign(&sizes, data);
            debug_assert!(r.is_ok());
        }
    });
    Ok(())
}

/// Writes every parameter of `model` to an `.npz` archive at `path`, one array per parameter
/// under its name (NumPy `np.savez`; `np.load(path)["w1"]` reads it back).
///
/// # Errors
/// [`IoError::Io`] when the file cannot be written; [`IoError::DuplicateName`] when two
/// parameters have one name.
pub fn save_params_npz<T: GradFloat + NpyElement>(
    model: &mut impl Parameters<T>,
    path: impl AsRef<Path>,
) -> Result<(), IoError> {
    let mut npz = NpzWriter::create(path)?;
    for (name, sizes, data) in collect(model) {
        npz.add(&name, &Tensor::<T, DynShape>::from_vec(&sizes, data))?;
    }
    npz.finish()?;
    Ok(())
}

/// Loads every parameter of `model` from the `.npz` archive at `path` (PyTorch's strict
/// `load_state_dict`): each array must exist under the parameter's name, with its element type
/// and sizes. Arrays that no parameter names are ignored. Nothing changes on error.
///
/// # Errors
/// [`IoError::NotFound`] for a parameter without an array; [`IoError::Member`] naming the array
/// whose sizes or dtype differ, or which is truncated or corrupt; [`IoError::Io`].
pub fn load_params_npz<T: GradFloat + NpyElement>(
    model: &mut impl Parameters<T>,
    path: impl AsRef<Path>,
) -> Result<(), IoError> {
    let mut npz = NpzReader::open(path)?;
    let mut names = Vec::new();
    model.visit(&mut |name, _| names.push(name.to_string()));
    let mut loaded = Vec::new();
    for name in names {
        if !npz.names().contains(&name) {
            return Err(IoError::NotFound { name, names: npz.names().to_vec() });
        }
        let t = npz.read::<T, DynShape>(&name)?;
        loaded.push((name, t.sizes().to_vec(), t.to_vec()));
    }
    assign_all(model, loaded, |name, e| IoError::Member { name: name.to_string(), error: Box::new(e) })
}

#[cfg(feature = "safetensors")]
mod st {
    use super::*;
    use safetensors::tensor::{Dtype, TensorView};

    /// The safetensors dtype of `T` and its bytes per element.
    fn dtype<T: GradFloat>() -> (Dtype, usize) {
        if core::mem::size_of::<T>() == 4 {
            (Dtype::F32, 4)
        } else {
            (Dtype::F64, 8)
        }
    }

    fn to_bytes<T: GradFloat>(data: &[T]) -> Vec<u8> {
        let mut out = Vec::with_capacity(core::mem::size_of_val(data));
        for &v in data {
            if core::mem::size_of::<T>() == 4 {
                out.extend_from_slice(&(v.as_f64() as f32).to_le_bytes());
            } else {
                out.extend_from_slice(&v.as_f64().to_le_bytes());
            }
        }
        out
    }

    fn from_bytes<T: GradFloat>(bytes: &[u8]) -> Vec<T> {
        if core::mem::size_of::<T>() == 4 {
            bytes.chunks_exact(4).map(|c| T::from_f64(f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64)).collect()
        } else {
            bytes
                .chunks_exact(8)
                .map(|c| T::from_f64(f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])))
                .collect()
        }
    }

    /// Writes every parameter of `model` to a `.safetensors` file at `path` (the format of
    /// Hugging Face's `safetensors`; PyTorch `safetensors.torch.load_file` reads it), one tensor
    /// per parameter under its name, as `F32` or `F64`.
    ///
    /// # Errors
    /// [`IoError::Io`] when the file cannot be written; [`IoError::Safetensors`] when the
    /// `safetensors` crate refuses the data (two parameters with one name).
    pub fn save_safetensors<T: GradFloat>(
        model: &mut impl Parameters<T>,
        path: impl AsRef<Path>,
    ) -> Result<(), IoError> {
        let params = collect(model);
        let (dt, _) = dtype::<T>();
        let bytes: Vec<(String, Vec<usize>, Vec<u8>)> =
            params.into_iter().map(|(n, s, d)| (n, s, to_bytes(&d))).collect();
        for (i, (n, _, _)) in bytes.iter().enumerate() {
            if bytes[..i].iter().any(|(m, _, _)| m == n) {
                return Err(IoError::DuplicateName(n.clone()));
            }
        }
        let views = bytes
            .iter()
            .map(|(n, s, b)| TensorView::new(dt, s.clone(), b).map(|v| (n.as_str(), v)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| IoError::Safetensors(e.to_string()))?;
        let out = safetensors::tensor::serialize(views, None).map_err(|e| IoError::Safetensors(e.to_string()))?;
        std::fs::write(path, out)?;
        Ok(())
    }

    /// Loads every parameter of `model` from the `.safetensors` file at `path` (PyTorch's
    /// strict `load_state_dict`): each tensor must exist under the parameter's name, as `F32`
    /// for `f32` parameters and `F64` for `f64` ones (no conversion), with the parameter's
    /// sizes. Tensors that no parameter names are ignored. Nothing changes on error.
    ///
    /// # Errors
    /// [`IoError::Safetensors`] for a file the `safetensors` crate refuses;
    /// [`IoError::NotFound`] for a parameter without a tensor; [`IoError::SafetensorsTensor`]
    /// naming the tensor whose dtype or sizes differ; [`IoError::Io`].
    pub fn load_safetensors<T: GradFloat>(
        model: &mut impl Parameters<T>,
        path: impl AsRef<Path>,
    ) -> Result<(), IoError> {
        let buf = std::fs::read(path)?;
        let file = safetensors::SafeTensors::deserialize(&buf).map_err(|e| IoError::Safetensors(e.to_string()))?;
        let (dt, _) = dtype::<T>();
        let mut names = Vec::new();
        model.visit(&mut |name, _| names.push(name.to_string()));
        let mut loaded = Vec::new();
        for name in names {
            let view = match file.tensor(&name) {
                Ok(v) => v,
                Err(_) => {
                    return Err(IoError::NotFound {
                        name,
                        names: file.names().into_iter().map(str::to_string).collect(),
                    });
                }
            };
            if view.dtype() != dt {
                let e = IoError::DType { expected: format!("{dt:?}"), found: format!("{:?}", view.dtype()) };
                return Err(IoError::SafetensorsTensor { name, error: Box::new(e) });
            }
            loaded.push((name, view.shape().to_vec(), from_bytes::<T>(view.data())));
        }
        assign_all(model, loaded, |name, e| IoError::SafetensorsTensor { name: name.to_string(), error: Box::new(e) })
    }
}
#[cfg(feature = "safetensors")]
pub use st::{load_safetensors, save_safetensors};
