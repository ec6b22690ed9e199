//! NumPy `.npz` archives (feature `npy`): [`NpzWriter`], [`NpzReader`] and [`load_npz`], each
//! member an `.npy` file read and written by `npy.rs` (its hostile-input rules apply to every
//! member; a member is read to its end so that its CRC-32 is verified).
use super::npy::{fortran_layout, invalid, read_npy_data, read_npy_sized, FileFormat, IoError, NpyElement};
use crate::error::ShapeError;
use crate::shape::Shape;
use crate::storage::Data;
use crate::tensor::{Tensor, TensorBase};
use std::boxed::Box;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::Path;
use std::string::{String, ToString};
use std::vec::Vec;

/// Writes several named tensors into one `.npz` archive (NumPy `np.savez(file, a=a, b=b)`, or
/// `np.savez_compressed` with [`new_compressed`](Self::new_compressed)): each tensor is an
/// `<name>.npy` entry of a zip archive, readable with `np.load(file)["name"]` or
/// [`NpzReader`].
///
/// ```
/// # extern crate shaped_core as shaped;
/// # use shaped::{io::{NpzReader, NpzWriter}, Shape, Tensor};
/// let a = Tensor::<f32, Shape![2, 2]>::from([[1., 2.], [3., 4.]]);
/// let b = Tensor::<i64, Shape![3]>::from([7, 8, 9]);
/// let mut npz = NpzWriter::new(std::io::Cursor::new(Vec::new()));
/// npz.add("a", &a)?;
/// npz.add("b", &b.t())?;                   // any tensor or view
/// let bytes = npz.finish()?.into_inner();
///
/// let mut npz = NpzReader::new(std::io::Cursor::new(bytes))?;
/// assert_eq!(npz.names(), ["a", "b"]);
/// let b2: Tensor<i64, Shape![_]> = npz.read("b")?;
/// assert_eq!(b2.to_vec(), [7, 8, 9]);
/// # Ok::<(), shaped::io::IoError>(())
/// ```
pub struct NpzWriter<W: Write + Seek> {
    zip: zip::ZipWriter<W>,
    method: zip::CompressionMethod,
    names: Vec<String>,
}

impl NpzWriter<BufWriter<File>> {
    /// Creates (or truncates) an uncompressed `.npz` file at `path`. The writer does not keep
    /// the path: errors of [`add`](Self::add) and [`finish`](Self::finish) are not wrapped.
    ///
    /// # Errors
    /// An [`IoError::File`] naming the format ([`FileFormat::Npz`]) and `path`, around
    /// [`IoError::Io`], when the file cannot be created.
    pub fn create(path: impl AsRef<Path>) -> Result<Self, IoError> {
        let path = path.as_ref();
        let file = File::create(path).map_err(|e| IoError::from(e).in_file(FileFormat::Npz, path))?;
        Ok(Self::new(BufWriter::new(file)))
    }
}

impl<W: Write + Seek> NpzWriter<W> {
    /// An uncompressed archive (`np.savez`) written to `writer`.
    pub fn new(writer: W) -> Self {
        NpzWriter { zip: zip::ZipWriter::new(writer), method: zip::CompressionMethod::Stored, names: Vec::new() }
    }
    /// A deflate-compressed archive (`np.savez_compressed`) written to `writer`.
    pub fn new_compressed(writer: W) -> Self {
        NpzWriter { method: zip::CompressionMethod::Deflated, ..Self::new(writer) }
    }

    /// Adds `tensor` as the array `name` (the entry `<name>.npy`), written as by
    /// [`write_npy`](TensorBase::write_npy).
    ///
    /// # Errors
    /// [`IoError::DuplicateName`] when `name` was already added; [`IoError::Io`] when the writer
    /// fails.
    pub fn add<D: Data, S: Shape>(&mut self, name: &str, tensor: &TensorBase<D, S>) -> Result<(), IoError>
    where
        D::Elem: NpyElement,
    {
        if self.names.iter().any(|n| n == name) {
            return Err(IoError::DuplicateName(name.into()));
        }
        let bytes = tensor.numel() as u64 * core::mem::size_of::<D::Elem>() as u64;
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(self.method)
            .large_file(bytes >= u64::from(u32::MAX) - 4096);
        self.zip.start_file(npyz::npz::file_name_from_array_name(name), options)?;
        tensor.write_npy(&mut self.zip)?;
        self.names.push(name.into());
        Ok(())
    }

    /// Writes the archive's directory and returns the writer. Dropping the `NpzWriter` without
    /// calling it also finishes the archive, but ignores errors.
    ///
    /// # Errors
    /// [`IoError::Io`] when the writer fails.
    pub fn finish(self) -> Result<W, IoError> {
        Ok(self.zip.finish()?)
    }
}

/// Reads named tensors from an `.npz` archive (NumPy `np.load(file)[name]`); see [`NpzWriter`]
/// for an example. Stored and deflate-compressed entries are supported (what `np.savez` and
/// `np.savez_compressed` write).
pub struct NpzReader<R: Read + Seek> {
    zip: zip::ZipArchive<R>,
    /// The array names in archive order.
    names: Vec<String>,
}

impl NpzReader<BufReader<File>> {
    /// Opens the `.npz` file at `path`. The reader does not keep the path: errors of
    /// [`read`](NpzReader::read) are not wrapped ([`load_npz`] wraps them).
    ///
    /// # Errors
    /// An [`IoError::File`] naming the format ([`FileFormat::Npz`]) and `path`, around
    /// [`IoError::Io`], when the file cannot be opened or is not a zip archive.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, IoError> {
        let path = path.as_ref();
        Self::open_unwrapped(path).map_err(|e| e.in_file(FileFormat::Npz, path))
    }

    /// [`open`](Self::open) with its errors not wrapped in an [`IoError::File`].
    pub(crate) fn open_unwrapped(path: &Path) -> Result<Self, IoError> {
        Self::new(BufReader::new(File::open(path)?))
    }
}

impl<R: Read + Seek> NpzReader<R> {
    /// Reads the directory of an archive from `reader` (the array names are the entries ending
    /// in `.npy`).
    ///
    /// # Errors
    /// [`IoError::Io`] when the reader fails or the data is not a zip archive.
    pub fn new(reader: R) -> Result<Self, IoError> {
        let zip = zip::ZipArchive::new(reader)?;
        // The directory's names in archive order; one that does not decode cannot be asked for
        // by name either, and is left out.
        let names = zip
            .file_names()
            .filter_map(|n| Some(npyz::npz::array_name_from_file_name(&n.ok()?)?.to_string()))
            .collect();
        Ok(NpzReader { zip, names })
    }

    /// The names of the arrays in the archive, in archive order (NumPy `np.load(file).files`).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Reads the array `name` as a `Tensor<T, S>`, with the checks and layout of
    /// [`read_npy`](TensorBase::read_npy). The member is read to its end, so that its CRC-32 is
    /// verified (as NumPy's `zipfile` does). The claim of the header is bounded by the member's
    /// size (a stored member's stored bytes; a deflated member's size in the central
    /// directory, at most 1032 times its compressed size, deflate's largest ratio) before
    /// anything is allocated, and the read stops with an error where the data ends.
    ///
    /// # Errors
    /// [`IoError::NotFound`] when the archive has no array `name`. Every other error is an
    /// [`IoError::Member`] naming the member, around [`IoError::Io`] on a CRC-32 mismatch or a
    /// corrupt member, or otherwise an error of [`read_npy`](TensorBase::read_npy).
    pub fn read<T: NpyElement, S: Shape>(&mut self, name: &str) -> Result<Tensor<T, S>, IoError> {
        let member = |error: IoError| IoError::Member { name: name.into(), error: Box::new(error) };
        self.with_member(name, member, |file, size| read_npy_sized(file, Some(size)))
    }

    /// Reads the array `name` for a parameter of `sizes`: its sizes (in row-major order) and
    /// elements, with the checks of [`read`](Self::read), and the header's sizes and dtype
    /// compared with `sizes` and `T` right after the header is parsed, before anything is
    /// allocated or decompressed beyond the header.
    ///
    /// # Errors
    /// As [`read`](Self::read), except that a shape or dtype mismatch is an
    /// [`IoError::Parameter`] (around [`IoError::Shape`] with a [`ShapeError::ShapeMismatch`]
    /// whose `expected` is `sizes`, or [`IoError::DType`]) instead of an [`IoError::Member`].
    pub(crate) fn read_expecting<T: NpyElement>(&mut self, name: &str, sizes: &[usize]) -> Result<Vec<T>, IoError> {
        let wrap = |error: IoError| match error {
            e @ (IoError::Shape(ShapeError::ShapeMismatch { .. }) | IoError::DType { .. }) => {
                IoError::Parameter { name: name.into(), error: Box::new(e) }
            }
            e => IoError::Member { name: name.into(), error: Box::new(e) },
        };
        self.with_member(name, wrap, |file, size| {
            let (got, data, fortran_order) = read_npy_data::<T, crate::shape::DynShape>(file, Some(size), Some(sizes))?;
            if !fortran_order || got.len() < 2 {
                return Ok(data);
            }
            // Column-major storage to row-major order (a copy of the parameter's size).
            Ok(Tensor::<T, crate::shape::DynShape>::try_from_parts(data, fortran_layout(&got)?)?.to_vec())
        })
    }

    /// Finds the member `name`, calls `read` with it and the bound on its uncompressed size,
    /// then reads the member to its end (its CRC-32 is checked there). Every error but a
    /// missing member goes through `wrap`.
    fn with_member<V>(
        &mut self,
        name: &str,
        wrap: impl Fn(IoError) -> IoError,
        read: impl FnOnce(&mut dyn Read, u64) -> Result<V, IoError>,
    ) -> Result<V, IoError> {
        let crc = |e: IoError| match e {
            // The zip crate's message for a CRC-32 mismatch.
            IoError::Io(e) if e.to_string() == "Invalid checksum" => {
                invalid("CRC-32 mismatch (the stored bytes were changed)")
            }
            e => e,
        };
        match self.zip.by_name(&npyz::npz::file_name_from_array_name(name)) {
            Ok(mut file) => {
                // What the member can hold: a stored member its stored bytes, a deflated one its
                // directory size within deflate's largest ratio (1032:1); the directory's size
                // is never trusted beyond that, and reading stops with an error where the data
                // ends.
                let size = match file.compression() {
                    zip::CompressionMethod::Stored => file.compressed_size(),
                    _ => file.size().min(file.compressed_size().saturating_mul(1032).saturating_add(1024)),
                };
                let t = read(&mut file, size).map_err(|e| wrap(crc(e)))?;
                // Read to the member's end: the zip reader checks the CRC-32 only there.
                io::copy(&mut file, &mut io::sink()).map_err(|e| wrap(crc(e.into())))?;
                Ok(t)
            }
            Err(zip::result::ZipError::FileNotFound) => {
                Err(IoError::NotFound { name: name.into(), names: self.names.clone() })
            }
            Err(e) => Err(wrap(e.into())),
        }
    }
}

/// Reads the array `name` from the `.npz` file at `path` (NumPy `np.load(path)[name]`): a
/// shorthand for [`NpzReader::open`] and [`NpzReader::read`].
///
/// # Errors
/// An [`IoError::File`] naming the format ([`FileFormat::Npz`]) and `path`, around an error of
/// [`NpzReader::open`] or [`NpzReader::read`]; the message gives the inner error in the
/// archive's words (`npz file "m.npz": no array named "c" (the archive holds ["a", "b"])`,
/// `npz file "m.npz": array "w": sizes [2, 3] do not match shape [3, 2]`).
pub fn load_npz<T: NpyElement, S: Shape>(path: impl AsRef<Path>, name: &str) -> Result<Tensor<T, S>, IoError> {
    let path = path.as_ref();
    NpzReader::open_unwrapped(path).and_then(|mut r| r.read(name)).map_err(|e| e.in_file(FileFormat::Npz, path))
}
