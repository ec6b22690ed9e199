//! Saving and loading a model's parameters (PyTorch `torch.save(model.state_dict())` /
//! `load_state_dict`): `.npz` archives (feature `npy`) and `.safetensors` files (feature
//! `safetensors`, the `safetensors` crate's types; files written by PyTorch's
//! `safetensors.torch.save_file` load). Every tensor is checked against its parameter's sizes,
//! whose static dims the type fixes, and every error names the format, the file and the
//! tensor ([`IoError::File`]). Loading is all or nothing: every tensor is read and checked
//! before any parameter changes.
//!
//! Files are hostile input, and what a load costs is bounded by what the model needs: the
//! `.npz` reader compares each member's header with its parameter's sizes and dtype before it
//! allocates or decompresses anything more, bounds every member by the bytes present and
//! verifies its CRC-32 ([`NpzReader`]); the `.safetensors` reader reads the 8-byte header
//! length, checks it (at most 100 MB, the `safetensors` crate's limit, and at most what the
//! file holds) before allocating, reads and checks only the JSON header (dtypes, shapes,
//! offsets in order, without gaps or overlaps and each matching its shape and dtype, the data
//! section exactly covering the rest of the file, whose length comes from its metadata), checks
//! every tensor the model needs against its parameter, and only then reads those tensors'
//! bytes.
use super::tape::{AnyParam, Parameters};
use super::GradFloat;
use crate::io::{FileFormat, IoError, NpyElement, NpzReader, NpzWriter};
use crate::shape::DynShape;
use crate::tensor::Tensor;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use std::path::Path;

/// The parameters' names, sizes and elements, in visiting order.
fn collect<T: GradFloat>(model: &mut impl Parameters<T>) -> Vec<(String, Vec<usize>, Vec<T>)> {
    let mut out = Vec::new();
    model.visit(&mut |name, p| out.push((name.to_string(), p.sizes().to_vec(), p.to_vec())));
    out
}

/// The parameters' names and sizes, in visiting order.
fn sizes<T: GradFloat>(model: &mut impl Parameters<T>) -> Vec<(String, Vec<usize>)> {
    let mut out = Vec::new();
    model.visit(&mut |name, p| out.push((name.to_string(), p.sizes().to_vec())));
    out
}

/// The first name that `names` gives twice.
fn duplicate<'a>(names: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut seen = std::collections::HashSet::new();
    names.into_iter().find(|n| !seen.insert(*n))
}

/// Assigns every loaded tensor (name, sizes, row-major elements) to its parameter. The sizes
/// were checked against the parameters before the data was read, so this cannot fail half
/// way.
fn assign_all<T: GradFloat>(model: &mut impl Parameters<T>, mut loaded: Vec<(String, Vec<usize>, Vec<T>)>) {
    model.visit(&mut |name, p: &mut dyn AnyParam<T>| {
        if let Some(i) = loaded.iter().position(|(n, _, _)| n == name) {
            let (_, sizes, data) = loaded.swap_remove(i);
            let r = p.try_assign(&sizes, data);
            debug_assert!(r.is_ok());
        }
    });
}

/// Writes the parameters of `model` (names, sizes and elements, in visiting order) with `write`,
/// its errors wrapped in an [`IoError::File`] naming `format` and `path`: the scaffold of the
/// savers.
fn save_with<T: GradFloat>(
    model: &mut impl Parameters<T>,
    path: &Path,
    format: FileFormat,
    write: impl FnOnce(Vec<(String, Vec<usize>, Vec<T>)>) -> Result<(), IoError>,
) -> Result<(), IoError> {
    write(collect(model)).map_err(|e| e.in_file(format, path))
}

/// Reads the tensors of the parameters of `model` with `read` (given their names and sizes, in
/// visiting order), its errors wrapped in an [`IoError::File`] naming `format` and `path`, then
/// assigns them all: the scaffold of the loaders, nothing changes on error.
fn load_with<T: GradFloat>(
    model: &mut impl Parameters<T>,
    path: &Path,
    format: FileFormat,
    read: impl FnOnce(&[(String, Vec<usize>)]) -> Result<Vec<(String, Vec<usize>, Vec<T>)>, IoError>,
) -> Result<(), IoError> {
    let loaded = read(&sizes(model)).map_err(|e| e.in_file(format, path))?;
    assign_all(model, loaded);
    Ok(())
}

/// Writes every parameter of `model` to an `.npz` archive at `path`, one array per parameter
/// under its name (NumPy `np.savez`; `np.load(path)["w1"]` reads it back). Two parameters of
/// one name are refused before the file is created.
///
/// # Errors
/// An [`IoError::File`] naming the format ([`FileFormat::Npz`]) and `path`, around
/// [`IoError::DuplicateName`] when two parameters have one name
/// (`npz file "m.npz": two parameters are named "w", and the archive holds one array per
/// name`), or [`IoError::Io`] when the file cannot be created or written.
pub fn save_params_npz<T: GradFloat + NpyElement>(
    model: &mut impl Parameters<T>,
    path: impl AsRef<Path>,
) -> Result<(), IoError> {
    let path = path.as_ref();
    save_with(model, path, FileFormat::Npz, |params| {
        if let Some(name) = duplicate(params.iter().map(|(n, _, _)| n.as_str())) {
            return Err(IoError::DuplicateName(name.to_string()));
        }
        let mut npz = NpzWriter::new(std::io::BufWriter::new(std::fs::File::create(path)?));
        for (name, sizes, data) in params {
            npz.add(&name, &Tensor::<T, DynShape>::from_vec(&sizes, data))?;
        }
        npz.finish()?;
        Ok(())
    })
}

/// Loads every parameter of `model` from the `.npz` archive at `path` (PyTorch's strict
/// `load_state_dict`): each array must exist under the parameter's name, with its element type
/// and sizes. Arrays that no parameter names are ignored. Nothing changes on error.
///
/// Every parameter's array is looked up before any is read, and each member's header (its
/// first bytes) is compared with the parameter's sizes and dtype before anything more of it is
/// decompressed or allocated: memory is bounded by the parameters' sizes.
///
/// # Errors
/// An [`IoError::File`] naming the format ([`FileFormat::Npz`]) and `path`, around:
/// [`IoError::NotFound`] for a parameter without an array
/// (`npz file "m.npz": no array named "c" (the archive holds ["a", "b"])`);
/// [`IoError::Parameter`] for an array whose sizes or dtype differ from the parameter's
/// (`npz file "m.npz": array "w": shape [3, 2] in the file, the parameter is [2, 3]`,
/// `... array "w": dtype <f8 in the file, the parameter is <f4`); [`IoError::Member`] naming the
/// array that is truncated or corrupt; [`IoError::Io`] when the file cannot be opened or is not
/// a zip archive.
pub fn load_params_npz<T: GradFloat + NpyElement>(
    model: &mut impl Parameters<T>,
    path: impl AsRef<Path>,
) -> Result<(), IoError> {
    let path = path.as_ref();
    load_with(model, path, FileFormat::Npz, |wanted| {
        let mut npz = NpzReader::open_unwrapped(path)?;
        if let Some((name, _)) = wanted.iter().find(|(n, _)| !npz.names().contains(n)) {
            return Err(IoError::NotFound { name: name.clone(), names: npz.names().to_vec() });
        }
        let mut loaded = Vec::with_capacity(wanted.len());
        for (name, sizes) in wanted {
            let data = npz.read_expecting::<T>(name, sizes)?;
            loaded.push((name.clone(), sizes.clone(), data));
        }
        Ok(loaded)
    })
}

#[cfg(feature = "safetensors")]
mod st {
    use super::*;
    use alloc::boxed::Box;
    use alloc::collections::BTreeMap;
    use alloc::format;
    use core::fmt;
    use safetensors::tensor::{Dtype, TensorInfo, TensorView};
    use serde::de::{Deserializer, MapAccess, Visitor};
    use std::collections::HashMap;
    use std::fs::File;
    use std::io::{Read, Seek, SeekFrom};

    /// The longest header accepted, in bytes: the `safetensors` crate's limit.
    const MAX_HEADER_LEN: u64 = 100_000_000;

    /// The bytes read and decoded at a time from the data section (a multiple of 8).
    const CHUNK_BYTES: usize = 1 << 16;

    /// The longest piece of the JSON parser's message an error quotes, in characters.
    const MAX_ECHO: usize = 300;

    /// The safetensors dtype of `T` (f32 or f64 by its width).
    pub(crate) fn float_dtype<T: GradFloat>() -> Dtype {
        if core::mem::size_of::<T>() == 4 {
            Dtype::F32
        } else {
            Dtype::F64
        }
    }

    /// `data` as little-endian bytes of `T`'s width (the inverse of [`decode_floats`]).
    pub(crate) fn to_bytes<T: GradFloat>(data: &[T]) -> Vec<u8> {
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

    /// The little-endian floats in `bytes` (a whole number of them, each of `T`'s width: f32 or
    /// f64) as `T`.
    ///
    /// # Errors
    /// [`ShapeError::Alloc`](crate::ShapeError::Alloc).
    pub(crate) fn decode_floats<T: GradFloat>(bytes: &[u8]) -> Result<Vec<T>, crate::ShapeError> {
        use crate::memory::le_iter;
        let width = core::mem::size_of::<T>();
        let mut out: Vec<T> = crate::memory::try_with_capacity(bytes.len() / width)?;
        if width == 4 {
            out.extend(le_iter::<f32, 4>(bytes).map(|v| T::from_f64(v as f64)));
        } else {
            out.extend(le_iter::<f64, 8>(bytes).map(T::from_f64));
        }
        Ok(out)
    }

    /// An error about the file as a whole.
    fn bad(msg: String) -> IoError {
        IoError::Safetensors(msg)
    }

    /// An error about the tensor `name`.
    fn bad_tensor(name: &str, msg: String) -> IoError {
        IoError::SafetensorsTensor { name: name.to_string(), error: Box::new(IoError::Safetensors(msg)) }
    }

    /// At most [`MAX_ECHO`] characters of `text`, with `...` when cut.
    fn echo(text: &str) -> String {
        match text.char_indices().nth(MAX_ECHO) {
            Some((at, _)) => format!("{}...", &text[..at]),
            None => text.to_string(),
        }
    }

    /// Sizes as `[2, 3]`, with at most [`crate::MAX_RANK`] of them shown.
    fn dims(shape: &[usize]) -> String {
        if shape.len() <= crate::MAX_RANK {
            format!("{shape:?}")
        } else {
            format!("{:?} ({} dims)", &shape[..crate::MAX_RANK], shape.len()).replacen(']', ", ...]", 1)
        }
    }

    /// The entries of the header in file order: `(name, Some(info))` for a tensor,
    /// `("__metadata__", None)` for the metadata.
    type Entries = Vec<(String, Option<TensorInfo>)>;

    /// The header's top-level object as its entries, keeping duplicate keys (a map would keep
    /// one of them silently). On an error in an entry's value, `key` holds its name.
    struct HeaderVisitor<'a> {
        key: &'a mut Option<String>,
    }

    impl<'de> Visitor<'de> for HeaderVisitor<'_> {
        type Value = Entries;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a JSON object of tensors")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
            let mut out = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                // `__metadata__` as the `safetensors` crate takes it: a map of strings, or null.
                let value = if key == "__metadata__" {
                    map.next_value::<Option<BTreeMap<String, String>>>().map(|_| None)
                } else {
                    map.next_value::<TensorInfo>().map(Some)
                };
                match value {
                    Ok(v) => out.push((key, v)),
                    Err(e) => {
                        *self.key = Some(key);
                        return Err(e);
                    }
                }
            }
            Ok(out)
        }
    }

    /// Parses the JSON header.
    fn parse_header(bytes: &[u8]) -> Result<Entries, IoError> {
        let text = core::str::from_utf8(bytes).map_err(|e| bad(format!("the header is not UTF-8: {e}")))?;
        let mut key = None;
        let mut de = serde_json::Deserializer::from_str(text);
        let r = (&mut de).deserialize_map(HeaderVisitor { key: &mut key }).and_then(|v| de.end().map(|()| v));
        r.map_err(|e| {
            let e = echo(&e.to_string());
            match key {
                Some(k) if k == "__metadata__" => bad(format!("invalid __metadata__ entry in the header: {e}")),
                Some(name) => bad_tensor(&name, format!("invalid header entry: {e}")),
                None => bad(format!("invalid JSON header: {e}")),
            }
        })
    }

    /// The tensors of a parsed header, checked as [`load_safetensors`] documents against a
    /// data section of `data_len` bytes; in header order.
    fn check_header(entries: Entries, data_len: u64) -> Result<Vec<(String, TensorInfo)>, IoError> {
        let mut metadata = 0;
        let mut tensors = Vec::with_capacity(entries.len());
        for (name, info) in entries {
            match info {
                Some(info) => tensors.push((name, info)),
                None => metadata += 1,
            }
        }
        if metadata > 1 {
            return Err(bad(format!("the header has {metadata} __metadata__ entries")));
        }
        if let Some(name) = duplicate(tensors.iter().map(|(n, _)| n.as_str())) {
            return Err(bad_tensor(name, "the header names this tensor twice".to_string()));
        }
        // In the order of their offsets (ties by end: empty tensors first).
        let mut order: Vec<usize> = (0..tensors.len()).collect();
        order.sort_by_key(|&i| tensors[i].1.data_offsets);
        let mut end = 0u64;
        let mut prev: Option<usize> = None;
        for i in order {
            let (name, info) = &tensors[i];
            let (s, e) = info.data_offsets;
            let offsets = format!("data offsets [{s}, {e}]");
            let (s, e) = (s as u64, e as u64);
            if e < s {
                return Err(bad_tensor(name, format!("{offsets} end before they start")));
            }
            if e > data_len {
                return Err(bad_tensor(
                    name,
                    format!("{offsets} reach past the end of the data section ({data_len} bytes)"),
                ));
            }
            if s < end {
                let (other, o) = &tensors[prev.expect("end > 0 after a tensor")];
                let (os, oe) = o.data_offsets;
                return Err(bad_tensor(name, format!("{offsets} overlap those of tensor {other:?}, [{os}, {oe}]")));
            }
            if s > end {
                return Err(bad_tensor(
                    name,
                    format!("{offsets} leave a gap after byte {end}, where the tensors before end"),
                ));
            }
            let shape = &info.shape;
            let bits = shape
                .iter()
                .try_fold(1usize, |n, &d| n.checked_mul(d))
                .and_then(|n| n.checked_mul(info.dtype.bitsize()))
                .ok_or_else(|| {
                    bad_tensor(name, format!("the byte count of shape {} of {} overflows", dims(shape), info.dtype))
                })?;
            if bits % 8 != 0 || (bits / 8) as u64 != e - s {
                let needs = if bits % 8 == 0 { format!("{}", bits / 8) } else { format!("{bits} bits") };
                return Err(bad_tensor(
                    name,
                    format!("{offsets} hold {} bytes, shape {} of {} needs {needs}", e - s, dims(shape), info.dtype),
                ));
            }
            end = e;
            prev = Some(i);
        }
        if end != data_len {
            return Err(bad(format!(
                "the data section is not fully covered: the tensors end at byte {end} of it, the file holds {data_len} bytes after the header"
            )));
        }
        Ok(tensors)
    }

    /// Writes every parameter of `model` to a `.safetensors` file at `path` (the format of
    /// Hugging Face's `safetensors`; PyTorch `safetensors.torch.load_file` reads it), one tensor
    /// per parameter under its name, as `F32` or `F64`. Two parameters of one name are refused
    /// before the file is created.
    ///
    /// # Errors
    /// An [`IoError::File`] naming the format ([`FileFormat::Safetensors`]) and `path`, around
    /// [`IoError::DuplicateName`] when two parameters have one name
    /// (`safetensors file "m.safetensors": two parameters are named "w", and the file holds one
    /// tensor per name`), [`IoError::Io`] when the file cannot be written, or
    /// [`IoError::Safetensors`] when the `safetensors` crate refuses the data.
    pub fn save_safetensors<T: GradFloat>(
        model: &mut impl Parameters<T>,
        path: impl AsRef<Path>,
    ) -> Result<(), IoError> {
        let path = path.as_ref();
        save_with(model, path, FileFormat::Safetensors, |params| {
            let dt = float_dtype::<T>();
            let tensors: Vec<(String, Dtype, Vec<usize>, Vec<u8>)> =
                params.into_iter().map(|(n, s, d)| (n, dt, s, to_bytes(&d))).collect();
            write_tensors(path, &tensors)
        })
    }

    /// Loads every parameter of `model` from the `.safetensors` file at `path` (PyTorch's
    /// strict `load_state_dict`): each tensor must exist under the parameter's name, as `F32`
    /// for `f32` parameters and `F64` for `f64` ones (no conversion), with the parameter's
    /// sizes. Tensors that no parameter names are ignored. Nothing changes on error.
    ///
    /// The file is hostile input, and a load costs what the model needs: the 8-byte header
    /// length is checked (at most 100 MB, the `safetensors` crate's limit, and at most what the
    /// file holds after it) before the header is allocated; the JSON header is parsed (a name
    /// given twice is an error) and checked (known dtypes, every tensor's offsets within the
    /// data section, in order without gaps or overlaps and holding exactly its shape times its
    /// dtype's size, the data section exactly covering the rest of the file, whose length comes
    /// from its metadata); every tensor the model needs is compared with its parameter
    /// (present, dtype, shape); only then are those tensors' bytes read, by seeking to each.
    /// Memory is bounded by the header and the parameters' sizes; the rest of the file is never
    /// read. `path` must be a regular file (its length bounds the reads).
    ///
    /// # Errors
    /// An [`IoError::File`] naming the format ([`FileFormat::Safetensors`]) and `path`, around:
    /// [`IoError::Safetensors`] for a file that breaks the format as a whole (a header length
    /// over the limit or past the file, a header that is not a JSON object of tensors, the data
    /// section not fully covered); [`IoError::SafetensorsTensor`] naming the tensor whose header
    /// entry is invalid, given twice, or whose offsets are out of order, overlap, leave a gap,
    /// reach past the end or do not match its shape and dtype
    /// (`safetensors file "m.safetensors": tensor "w": the header names this tensor twice`);
    /// [`IoError::NotFound`] for a parameter without a tensor
    /// (`safetensors file "m.safetensors": no tensor named "c" (the file holds ["a", "b"])`);
    /// [`IoError::Parameter`] naming the tensor whose dtype or sizes differ from its
    /// parameter's (`... tensor "w": dtype F64 in the file, the parameter is F32`,
    /// `... tensor "w": shape [3, 2] in the file, the parameter is [2, 3]`); [`IoError::Io`]
    /// when the file cannot be opened or read; [`IoError::Shape`] with
    /// [`ShapeError::Alloc`](crate::ShapeError::Alloc) when the parameters' memory cannot be
    /// allocated.
    pub fn load_safetensors<T: GradFloat>(
        model: &mut impl Parameters<T>,
        path: impl AsRef<Path>,
    ) -> Result<(), IoError> {
        let path = path.as_ref();
        load_with(model, path, FileFormat::Safetensors, |wanted| read_params::<T>(path, wanted))
    }

    /// Reads the tensors of the parameters `wanted` (names and sizes) as [`load_safetensors`]
    /// documents, with errors not wrapped in [`IoError::File`].
    fn read_params<T: GradFloat>(
        path: &Path,
        wanted: &[(String, Vec<usize>)],
    ) -> Result<Vec<(String, Vec<usize>, Vec<T>)>, IoError> {
        let dt = float_dtype::<T>();
        let want: Vec<(String, Vec<usize>, Dtype)> = wanted.iter().map(|(n, s)| (n.clone(), s.clone(), dt)).collect();
        let (bytes, _) = read_tensors(path, &want, Keys::AllWanted)?;
        let mut loaded = Vec::with_capacity(wanted.len());
        for ((name, sizes), b) in wanted.iter().zip(bytes) {
            let b = b.unwrap_or_default();
            loaded.push((name.clone(), sizes.clone(), decode_floats(&b)?));
        }
        Ok(loaded)
    }

    /// Reads the tensors `wanted` (name, sizes, dtype) from the `.safetensors` file at `path`,
    /// with every check of [`load_safetensors`]: the header is read and checked first, then
    /// every wanted tensor is compared with its entry (present, dtype, shape), and only then are
    /// the wanted tensors' little-endian bytes read. `keys` says what a wanted tensor that the
    /// file lacks, or a tensor of the file that is not wanted, is ([`Keys`]); a missing one is
    /// `None` where it is allowed. Also returns every name in the file, in the header's order.
    /// Errors are not wrapped in [`IoError::File`].
    pub(crate) fn read_tensors(
        path: &Path,
        wanted: &[(String, Vec<usize>, Dtype)],
        keys: Keys,
    ) -> Result<(Vec<Option<Vec<u8>>>, Vec<String>), IoError> {
        let mut file = File::open(path)?;
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(bad("not a regular file (its length bounds the reads)".to_string()));
        }
        let len = meta.len();
        if len < 8 {
            return Err(bad(format!("the file is {len} bytes long, shorter than the 8-byte header length")));
        }
        let mut n = [0u8; 8];
        file.read_exact(&mut n)?;
        let n = u64::from_le_bytes(n);
        if n > MAX_HEADER_LEN {
            return Err(bad(format!("a header length of {n} bytes, more than the limit of {MAX_HEADER_LEN}")));
        }
        if n > len - 8 {
            return Err(bad(format!("a header length of {n} bytes, but the file holds {} after it", len - 8)));
        }
        let mut header = Vec::new();
        header
            .try_reserve_exact(n as usize)
            .map_err(|_| crate::ShapeError::Alloc { count: n as usize, elem_size: 1 })?;
        header.resize(n as usize, 0);
        file.read_exact(&mut header)?;
        let tensors = check_header(parse_header(&header)?, len - 8 - n)?;
        drop(header);
        let names: Vec<String> = tensors.iter().map(|(n, _)| n.clone()).collect();

        // The keys, then every wanted tensor against its entry, before any data is read.
        let index: HashMap<&str, usize> = tensors.iter().enumerate().map(|(i, (n, _))| (n.as_str(), i)).collect();
        if keys == Keys::Strict {
            let missing: Vec<String> =
                wanted.iter().filter(|(n, ..)| !index.contains_key(n.as_str())).map(|(n, ..)| n.clone()).collect();
            let want: std::collections::HashSet<&str> = wanted.iter().map(|(n, ..)| n.as_str()).collect();
            let unexpected: Vec<String> = names.iter().filter(|n| !want.contains(n.as_str())).cloned().collect();
            if !missing.is_empty() || !unexpected.is_empty() {
                return Err(IoError::Keys { missing, unexpected });
            }
        }
        let mut plan = Vec::with_capacity(wanted.len());
        for (name, sizes, dt) in wanted {
            let Some(&i) = index.get(name.as_str()) else {
                if keys == Keys::Lenient {
                    plan.push(None);
                    continue;
                }
                return Err(IoError::NotFound { name: name.clone(), names: names.clone() });
            };
            let info = &tensors[i].1;
            let mismatch = |e: IoError| IoError::Parameter { name: name.clone(), error: Box::new(e) };
            if info.dtype != *dt {
                return Err(mismatch(IoError::DType { expected: dt.to_string(), found: info.dtype.to_string() }));
            }
            if info.shape != *sizes {
                let e = if info.shape.len() <= crate::MAX_RANK {
                    crate::ShapeError::ShapeMismatch { expected: format!("{sizes:?}"), got: info.shape.clone() }
                } else {
                    crate::ShapeError::Invalid(format!(
                        "shape {} in the file, the parameter is {sizes:?}",
                        dims(&info.shape)
                    ))
                };
                return Err(mismatch(IoError::Shape(e)));
            }
            plan.push(Some(info.data_offsets));
        }

        // Only the needed bytes, one chunk at a time.
        let data_start = 8 + n;
        let mut out = Vec::with_capacity(plan.len());
        for range in plan {
            let Some((s, e)) = range else {
                out.push(None);
                continue;
            };
            let mut data: Vec<u8> = crate::memory::try_with_capacity(e - s)?;
            file.seek(SeekFrom::Start(data_start + s as u64))?;
            let mut left = e - s;
            while left > 0 {
                let k = left.min(CHUNK_BYTES);
                let at = data.len();
                data.resize(at + k, 0);
                file.read_exact(&mut data[at..])?;
                left -= k;
            }
            out.push(Some(data));
        }
        Ok((out, names))
    }

    /// What a key that is in only one of the model and the file is, for [`read_tensors`].
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(crate) enum Keys {
        /// Every wanted tensor must be in the file (the first missing one is an
        /// [`IoError::NotFound`]); the file's other tensors are ignored.
        AllWanted,
        /// The file's keys must be the wanted ones: an [`IoError::Keys`] lists the missing and
        /// the unexpected ones (PyTorch's `load_state_dict(strict=True)`).
        Strict,
        /// A wanted tensor the file lacks is `None`; the file's other tensors are ignored
        /// (PyTorch's `strict=False`).
        Lenient,
    }

    /// Writes named little-endian tensors (name, dtype, sizes, bytes) as a `.safetensors` file
    /// at `path`, refusing a name given twice before the file is created. Errors are not wrapped
    /// in [`IoError::File`].
    pub(crate) fn write_tensors(path: &Path, tensors: &[(String, Dtype, Vec<usize>, Vec<u8>)]) -> Result<(), IoError> {
        if let Some(name) = duplicate(tensors.iter().map(|(n, ..)| n.as_str())) {
            return Err(IoError::DuplicateName(name.to_string()));
        }
        let views = tensors
            .iter()
            .map(|(n, dt, s, b)| TensorView::new(*dt, s.clone(), b).map(|v| (n.as_str(), v)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| bad(e.to_string()))?;
        let out = safetensors::tensor::serialize(views, None).map_err(|e| bad(e.to_string()))?;
        std::fs::write(path, out)?;
        Ok(())
    }
}
#[cfg(feature = "safetensors")]
pub(crate) use st::{decode_floats, float_dtype, read_tensors, to_bytes, write_tensors, Keys};
#[cfg(feature = "safetensors")]
pub use st::{load_safetensors, save_safetensors};
