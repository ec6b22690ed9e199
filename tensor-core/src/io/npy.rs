//! NumPy `.npy` and `.npz` files (feature `npy`), through the npyz crate and, for archives, zip.
//!
//! Element types: those NumPy shares with this crate, `f32` (`<f4`), `f64` (`<f8`), `f16`
//! (`<f2`), `i8`..`i64`, `u8`..`u64`, `bool` (`|b1`), `Complex<f32>` (`<c8`) and `Complex<f64>`
//! (`<c16`) ([`NpyElement`]). `bf16` has no NumPy dtype and is not supported. Files are written
//! little-endian in C order; big-endian files are read too.
use crate::error::ShapeError;
use crate::layout::Layout;
use crate::shape::Shape;
use crate::storage::{Data, Element};
use crate::tensor::{Tensor, TensorBase};
use crate::{f16, Complex};
use npyz::{AutoSerialize, NpyFile, Order, WriteOptions, WriterBuilder};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::Path;
use std::string::{String, ToString};
use std::vec::Vec;
use std::{fmt, format};

/// An error of a `.npy`/`.npz` read or write.
#[derive(Debug)]
#[non_exhaustive]
pub enum IoError {
    /// An error of the reader or writer, or a file that is not a valid `.npy`/`.npz` (a bad
    /// header, a truncated data section, an invalid `bool` byte).
    Io(io::Error),
    /// The file's shape does not fit the tensor's shape type (rank or a static size,
    /// [`ShapeError::ShapeMismatch`]), or its element count overflows.
    Shape(ShapeError),
    /// The file's dtype is not the element type asked for: `expected` is the NumPy dtype of the
    /// element type (`<f4`), `found` the file's (`<i8`). No conversion is made (NumPy's
    /// `np.load` neither converts).
    DType {
        /// The dtype of the requested element type.
        expected: String,
        /// The dtype in the file.
        found: String,
    },
    /// No array of this name in an `.npz` archive (`names` lists the ones there are).
    NotFound {
        /// The name asked for.
        name: String,
        /// The names of the arrays in the archive.
        names: Vec<String>,
    },
    /// An array name given twice to [`NpzWriter::add`].
    DuplicateName(String),
}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IoError::Io(e) => write!(f, "npy I/O error: {e}"),
            IoError::Shape(e) => write!(f, "npy shape error: {e}"),
            IoError::DType { expected, found } => {
                write!(f, "npy dtype mismatch: the file holds {found}, the tensor's element type is {expected}")
            }
            IoError::NotFound { name, names } => {
                write!(f, "no array named {name:?} in the npz archive (it holds {names:?})")
            }
            IoError::DuplicateName(name) => write!(f, "an array named {name:?} is already in the npz archive"),
        }
    }
}

impl std::error::Error for IoError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IoError::Io(e) => Some(e),
            IoError::Shape(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for IoError {
    fn from(e: io::Error) -> Self {
        IoError::Io(e)
    }
}
impl From<ShapeError> for IoError {
    fn from(e: ShapeError) -> Self {
        IoError::Shape(e)
    }
}
impl From<zip::result::ZipError> for IoError {
    fn from(e: zip::result::ZipError) -> Self {
        IoError::Io(e.into())
    }
}

mod sealed {
    pub trait Sealed {}
}

/// An element type with a NumPy dtype: `f32`, `f64`, `f16`, `i8`, `i16`, `i32`, `i64`, `u8`,
/// `u16`, `u32`, `u64`, `bool`, `Complex<f32>`, `Complex<f64>`. Sealed; its supertraits from
/// npyz do the byte conversions.
pub trait NpyElement: Element + npyz::Deserialize + AutoSerialize + sealed::Sealed {}

macro_rules! npy_elements {
    ($($t:ty),*) => { $(impl sealed::Sealed for $t {} impl NpyElement for $t {})* };
}
npy_elements!(f32, f64, f16, i8, i16, i32, i64, u8, u16, u32, u64, bool, Complex<f32>, Complex<f64>);

/// The dtype string of an element type or a file (`<f4`), without the Python quotes.
fn dtype_name(d: &npyz::DType) -> String {
    d.descr().trim_matches('\'').to_string()
}

/// Reads the magic string, version and header dict of a `.npy` stream and checks that the
/// element count of its `shape` fits `u64` (npyz multiplies the sizes unchecked, a panic in debug
/// builds). Returns the bytes read, for npyz to parse; anything unexpected is left to npyz.
fn read_header_checked(r: &mut impl Read) -> Result<Vec<u8>, IoError> {
    let mut pre = std::vec![0u8; 10];
    r.read_exact(&mut pre)?;
    if &pre[..6] != b"\x93NUMPY" {
        return Ok(pre);
    }
    let len = match pre[6] {
        1 => u64::from(u16::from_le_bytes([pre[8], pre[9]])),
        2 | 3 => {
            let mut more = [0u8; 2];
            r.read_exact(&mut more)?;
            pre.extend(more);
            u64::from(u32::from_le_bytes([pre[8], pre[9], pre[10], pre[11]]))
        }
        _ => return Ok(pre),
    };
    let start = pre.len();
    // `take` + `read_to_end`: a bogus length cannot make this allocate more than the stream holds.
    r.take(len).read_to_end(&mut pre)?;
    let text = String::from_utf8_lossy(&pre[start..]);
    if let Some(sizes) = shape_in_header(&text) {
        if sizes.iter().try_fold(1u64, |acc, &n| acc.checked_mul(n)).is_none() {
            return Err(ShapeError::Invalid(format!("the element count of npy shape {sizes:?} overflows")).into());
        }
    }
    Ok(pre)
}

/// The sizes of the `'shape': (a, b, )` entry of a header dict, when it parses.
fn shape_in_header(text: &str) -> Option<Vec<u64>> {
    let at = text.find("'shape'").or_else(|| text.find("\"shape\""))?;
    let rest = &text[at + 7..];
    let open = rest.find('(')?;
    let close = open + rest[open..].find(')')?;
    rest[open + 1..close]
        .split(',')
        .map(|t| t.trim().trim_end_matches('L'))
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().ok())
        .collect()
}

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: NpyElement,
{
    /// Writes the tensor in the `.npy` format (NumPy `np.save(file, a)`): the header with the
    /// dtype and the sizes, then the elements in row-major logical order (C order, little-endian),
    /// whatever the strides; a transposed view is written as the tensor it shows. The writer is
    /// buffered internally.
    ///
    /// # Errors
    /// [`IoError::Io`] when the writer fails.
    pub fn write_npy<W: Write>(&self, writer: W) -> Result<(), IoError> {
        let shape: Vec<u64> = self.sizes().iter().map(|&n| n as u64).collect();
        let mut w =
            WriteOptions::<D::Elem>::new().default_dtype().shape(&shape).writer(BufWriter::new(writer)).begin_nd()?;
        w.extend(self.iter().copied())?;
        w.finish()?;
        Ok(())
    }

    /// Writes the tensor to a `.npy` file at `path`, creating or truncating it (NumPy
    /// `np.save(path, a)`, without adding the `.npy` extension). See
    /// [`write_npy`](Self::write_npy).
    ///
    /// # Errors
    /// [`IoError::Io`] when the file cannot be created or written.
    pub fn save_npy(&self, path: impl AsRef<Path>) -> Result<(), IoError> {
        self.write_npy(File::create(path)?)
    }
}

impl<T: NpyElement, S: Shape> Tensor<T, S> {
    /// Reads a `.npy` stream (NumPy `np.load(file)`). The file's sizes are checked against `S`
    /// before any data is read, and its dtype must be `T`'s (no conversion).
    ///
    /// A C-order file gives a row-major tensor. A Fortran-order file (`fortran_order: True`)
    /// gives a tensor with column-major strides over the elements as stored (`[m, n]` gets
    /// strides `[1, m]`): no copy beyond reading, and the same layout `np.load` returns (an
    /// F-contiguous array). Call [`contiguous`](TensorBase::contiguous) for row-major storage.
    /// The reader is buffered internally.
    ///
    /// # Errors
    /// [`IoError::Shape`] when the file's sizes do not fit `S` (a [`ShapeError::ShapeMismatch`]
    /// naming both shapes) or overflow; [`IoError::DType`] when the file's dtype is not `T`'s;
    /// [`IoError::Io`] when the reader fails or the file is not a valid `.npy` (truncated
    /// data included).
    pub fn read_npy<R: Read>(reader: R) -> Result<Self, IoError> {
        let mut reader = BufReader::new(reader);
        let header = read_header_checked(&mut reader)?;
        let npy = NpyFile::new(io::Cursor::new(header).chain(reader))?;
        let sizes = npy
            .shape()
            .iter()
            .map(|&n| usize::try_from(n))
            .collect::<Result<Vec<usize>, _>>()
            .map_err(|_| ShapeError::Invalid(format!("npy shape {:?} does not fit usize", npy.shape())))?;
        S::check_sizes(&sizes)?;
        let contiguous = Layout::contiguous(&sizes)?;
        let numel = contiguous.numel();
        let fortran = npy.order() == Order::Fortran;
        let found = npy.dtype();
        let elems = npy
            .data::<T>()
            .map_err(|_| IoError::DType { expected: dtype_name(&T::default_dtype()), found: dtype_name(&found) })?;
        // The header's size is not trusted for the allocation: a truncated file fails while
        // reading instead of after reserving its claimed size.
        let mut data = Vec::with_capacity(numel.min(1 << 16));
        for x in elems {
            data.push(x?);
        }
        if data.len() != numel {
            return Err(ShapeError::DataLength { len: data.len(), sizes }.into());
        }
        if !fortran {
            return Ok(TensorBase::try_from_parts(data, contiguous)?);
        }
        let mut strides = [0isize; crate::MAX_RANK];
        let mut s = 1usize;
        for (i, &n) in sizes.iter().enumerate() {
            strides[i] = s as isize;
            s *= n.max(1);
        }
        let layout = Layout::from_parts(&sizes, &strides[..sizes.len()], 0)?;
        Ok(TensorBase::try_from_parts(data, layout)?)
    }

    /// Reads the `.npy` file at `path` (NumPy `np.load(path)`). See [`read_npy`](Self::read_npy)
    /// for the checks and the layout of Fortran-order files.
    ///
    /// # Errors
    /// As [`read_npy`](Self::read_npy), and [`IoError::Io`] when the file cannot be opened.
    pub fn load_npy(path: impl AsRef<Path>) -> Result<Self, IoError> {
        Self::read_npy(File::open(path)?)
    }
}

/// Writes several named tensors into one `.npz` archive (NumPy `np.savez(file, a=a, b=b)`, or
/// `np.savez_compressed` with [`new_compressed`](Self::new_compressed)): each tensor is an
/// `<name>.npy` entry of a zip archive, readable with `np.load(file)["name"]` or
/// [`NpzReader`].
///
/// ```
/// # use shaped_core::{io::{NpzReader, NpzWriter}, Shape, Tensor};
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
/// # Ok::<(), shaped_core::io::IoError>(())
/// ```
pub struct NpzWriter<W: Write + Seek> {
    zip: zip::ZipWriter<W>,
    method: zip::CompressionMethod,
    names: Vec<String>,
}

impl NpzWriter<BufWriter<File>> {
    /// Creates (or truncates) an uncompressed `.npz` file at `path`.
    ///
    /// # Errors
    /// [`IoError::Io`] when the file cannot be created.
    pub fn create(path: impl AsRef<Path>) -> Result<Self, IoError> {
        Ok(Self::new(BufWriter::new(File::create(path)?)))
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
        let options = zip::write::FileOptions::default()
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
    pub fn finish(mut self) -> Result<W, IoError> {
        Ok(self.zip.finish()?)
    }
}

/// Reads named tensors from an `.npz` archive (NumPy `np.load(file)[name]`); see [`NpzWriter`]
/// for an example. Stored and deflate-compressed entries are supported (what `np.savez` and
/// `np.savez_compressed` write).
pub struct NpzReader<R: Read + Seek> {
    zip: zip::ZipArchive<R>,
    /// The array names in archive order (the zip crate keeps its name map unordered).
    names: Vec<String>,
}

impl NpzReader<BufReader<File>> {
    /// Opens the `.npz` file at `path`.
    ///
    /// # Errors
    /// [`IoError::Io`] when the file cannot be opened or is not a zip archive.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, IoError> {
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
        let mut zip = zip::ZipArchive::new(reader)?;
        let mut names = Vec::new();
        for i in 0..zip.len() {
            let entry = zip.by_index_raw(i)?;
            if let Some(name) = npyz::npz::array_name_from_file_name(entry.name()) {
                names.push(name.to_string());
            }
        }
        Ok(NpzReader { zip, names })
    }

    /// The names of the arrays in the archive, in archive order (NumPy `np.load(file).files`).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Reads the array `name` as a `Tensor<T, S>`, with the checks and layout of
    /// [`read_npy`](TensorBase::read_npy).
    ///
    /// # Errors
    /// [`IoError::NotFound`] when the archive has no array `name`; otherwise as
    /// [`read_npy`](TensorBase::read_npy).
    pub fn read<T: NpyElement, S: Shape>(&mut self, name: &str) -> Result<Tensor<T, S>, IoError> {
        match self.zip.by_name(&npyz::npz::file_name_from_array_name(name)) {
            Ok(file) => Tensor::read_npy(file),
            Err(zip::result::ZipError::FileNotFound) => {
                Err(IoError::NotFound { name: name.into(), names: self.names.clone() })
            }
            Err(e) => Err(e.into()),
        }
    }
}

/// Reads the array `name` from the `.npz` file at `path` (NumPy `np.load(path)[name]`): a
/// shorthand for [`NpzReader::open`] and [`NpzReader::read`].
///
/// # Errors
/// As [`NpzReader::open`] and [`NpzReader::read`].
pub fn load_npz<T: NpyElement, S: Shape>(path: impl AsRef<Path>, name: &str) -> Result<Tensor<T, S>, IoError> {
    NpzReader::open(path)?.read(name)
}
