//! NumPy `.npy` and `.npz` files (feature `npy`), through the npyz crate and, for archives, zip.
//!
//! Element types: those NumPy shares with this crate, `f32` (`<f4`), `f64` (`<f8`), `f16`
//! (`<f2`), `i8`..`i64`, `u8`..`u64`, `bool` (`|b1`), `Complex<f32>` (`<c8`) and `Complex<f64>`
//! (`<c16`) ([`NpyElement`]). `bf16` has no NumPy dtype and is not supported. Files are written
//! little-endian in C order; big-endian files are read too.
//!
//! Reading treats the file as hostile (issue 25): the header is parsed here by a strict,
//! linear parser of NumPy's three keys with its length capped at NumPy's 10000 bytes, element
//! and byte counts are checked, the element buffer is allocated fallibly and never beyond the
//! bytes present (when the length is known) or read (when not), and `.npz` members are read to
//! their end so that their CRC-32 is verified. npyz decodes the elements and writes files.
use crate::error::ShapeError;
use crate::layout::Layout;
use crate::shape::Shape;
use crate::storage::{Data, Element};
use crate::tensor::{Tensor, TensorBase};
use crate::{f16, Complex};
use npyz::{AutoSerialize, TypeRead, WriteOptions, WriterBuilder};
use std::boxed::Box;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
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
    /// element type (`<f4`), `found` the file's (`<i8`); for a `.safetensors` file, the
    /// safetensors dtypes (`F32`, `F64`). No conversion is made (NumPy's `np.load` neither
    /// converts).
    DType {
        /// The dtype of the requested element type.
        expected: String,
        /// The dtype in the file.
        found: String,
    },
    /// No array of this name in an `.npz` archive, or no tensor of this name in a
    /// `.safetensors` file (`names` lists the ones there are, in the file's order).
    NotFound {
        /// The name asked for.
        name: String,
        /// The names of the arrays (tensors) in the file.
        names: Vec<String>,
    },
    /// An array name given twice to [`NpzWriter::add`](super::NpzWriter::add), or a name given to two parameters by
    /// `autograd::save_params_npz` or `autograd::save_safetensors`.
    DuplicateName(String),
    /// An error reading the member `name` of an `.npz` archive ([`NpzReader::read`](super::NpzReader::read)): `error`
    /// is one of the other variants, and the message names the member first
    /// (`npz member "fc1_w": sizes [32, 64] do not match shape [64, 32]`).
    /// [`inner`](Self::inner) gives `error`.
    Member {
        /// The array name of the member.
        name: String,
        /// What went wrong in it.
        error: Box<IoError>,
    },
    /// A `.safetensors` file that breaks the format (feature `safetensors`): a header length
    /// over the limit or past the file, a header that is not a JSON object of tensors, tensors
    /// whose offsets overlap, leave gaps, reach past the data section or do not match their
    /// shape and dtype, a data section not fully covered (the message says which; errors about
    /// one tensor come inside [`IoError::SafetensorsTensor`]), or data that the `safetensors`
    /// crate refuses to write.
    Safetensors(String),
    /// An error about the tensor `name` of a `.safetensors` file: `error` is one of the other
    /// variants, and the message names the tensor first (`safetensors tensor "fc1.weight": ...`).
    SafetensorsTensor {
        /// The tensor's name in the file.
        name: String,
        /// What went wrong with it.
        error: Box<IoError>,
    },
    /// An error of a function that takes a path (`load_npy`, `save_npy`, [`NpzReader::open`](super::NpzReader::open),
    /// [`NpzWriter::create`](super::NpzWriter::create), [`load_npz`](super::load_npz), and `autograd`'s `save_params_npz`,
    /// `load_params_npz`, `save_safetensors`, `load_safetensors`): `error` is one of the other
    /// variants, and the message names the format and the file first, then gives `error` in
    /// that format's words, without its own format prefix
    /// (`safetensors file "w.safetensors": no tensor named "c" (the file holds ["a", "b"])`,
    /// `npz file "m.npz": array "w": CRC-32 mismatch (the stored bytes were changed)`).
    /// [`inner`](Self::inner) sees through it.
    File {
        /// The format the function reads or writes.
        format: FileFormat,
        /// The path it was given.
        path: PathBuf,
        /// What went wrong.
        error: Box<IoError>,
    },
    /// A tensor of a file that does not fit the model parameter `name` it is to be loaded into
    /// (`autograd::load_params_npz`, `autograd::load_safetensors`): `error` is an
    /// [`IoError::Shape`] holding a [`ShapeError::ShapeMismatch`] whose `expected` is the
    /// parameter's sizes and `got` the file's, or an [`IoError::DType`] whose `expected` is the
    /// parameter's dtype and `found` the file's. Inside [`IoError::File`] the message reads
    /// `tensor "w": shape [3, 2] in the file, the parameter is [2, 3]`.
    /// [`inner`](Self::inner) sees through it.
    Parameter {
        /// The parameter's name, which is the tensor's name in the file.
        name: String,
        /// The shape or dtype mismatch.
        error: Box<IoError>,
    },
    /// A strict state-dict load (`nn::Module::load_safetensors` with `strict`, PyTorch's
    /// `load_state_dict(strict=True)`) whose file does not hold exactly the model's keys:
    /// `missing` are the model's keys the file lacks, `unexpected` the file's keys the model
    /// lacks, each in order.
    Keys {
        /// The model's keys that the file lacks.
        missing: Vec<String>,
        /// The file's keys that the model lacks.
        unexpected: Vec<String>,
    },
}

/// `missing key(s) [..]` and/or `unexpected key(s) [..]`.
fn fmt_keys(missing: &[String], unexpected: &[String], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str("a strict load needs the file's keys to be the model's:")?;
    if !missing.is_empty() {
        write!(f, " missing key(s) {missing:?}")?;
    }
    if !missing.is_empty() && !unexpected.is_empty() {
        f.write_str(";")?;
    }
    if !unexpected.is_empty() {
        write!(f, " unexpected key(s) {unexpected:?}")?;
    }
    Ok(())
}

/// The file format that an [`IoError::File`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FileFormat {
    /// A NumPy `.npy` file (one array).
    Npy,
    /// A NumPy `.npz` archive (a zip archive of `.npy` members, the arrays).
    Npz,
    /// A Hugging Face `.safetensors` file (a JSON header, then the tensors' bytes).
    Safetensors,
}

impl FileFormat {
    /// What the format calls one of the arrays it holds, and the whole.
    fn words(self) -> (&'static str, &'static str) {
        match self {
            FileFormat::Npy => ("array", "file"),
            FileFormat::Npz => ("array", "archive"),
            FileFormat::Safetensors => ("tensor", "file"),
        }
    }
}

impl fmt::Display for FileFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileFormat::Npy => "npy",
            FileFormat::Npz => "npz",
            FileFormat::Safetensors => "safetensors",
        })
    }
}

impl IoError {
    /// The error without the file, `.npz` member, tensor or parameter that it happened in:
    /// `error` of [`IoError::File`], [`IoError::Member`], [`IoError::SafetensorsTensor`] and
    /// [`IoError::Parameter`] (through any nesting of them), otherwise `self`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// # use shaped::{io::{IoError, NpzReader, NpzWriter}, Shape, ShapeError, Tensor};
    /// let mut npz = NpzWriter::new(std::io::Cursor::new(Vec::new()));
    /// npz.add("w", &Tensor::<f32, Shape![2, 3]>::zeros())?;
    /// let mut npz = NpzReader::new(std::io::Cursor::new(npz.finish()?.into_inner()))?;
    /// let e = npz.read::<f32, Shape![3, 2]>("w").unwrap_err();
    /// assert_eq!(e.to_string(), r#"npz member "w": sizes [2, 3] do not match shape [3, 2]"#);
    /// assert!(matches!(e.inner(), IoError::Shape(ShapeError::ShapeMismatch { .. })));
    /// # Ok::<(), IoError>(())
    /// ```
    pub fn inner(&self) -> &IoError {
        match self {
            IoError::Member { error, .. }
            | IoError::SafetensorsTensor { error, .. }
            | IoError::File { error, .. }
            | IoError::Parameter { error, .. } => error.inner(),
            e => e,
        }
    }

    /// Wraps `self` in an [`IoError::File`] of `format` and `path`.
    pub(crate) fn in_file(self, format: FileFormat, path: &Path) -> IoError {
        IoError::File { format, path: path.to_path_buf(), error: Box::new(self) }
    }
}

/// The message of a parameter's shape or dtype mismatch, after its name.
fn fmt_parameter(error: &IoError, f: &mut fmt::Formatter<'_>) -> Option<fmt::Result> {
    Some(match error {
        IoError::Shape(ShapeError::ShapeMismatch { expected, got }) => {
            write!(f, "shape {got:?} in the file, the parameter is {expected}")
        }
        IoError::DType { expected, found } => write!(f, "dtype {found} in the file, the parameter is {expected}"),
        _ => return None,
    })
}

/// A dtype mismatch: `{lead}{found}{mid}{expected}`, and a note when the file dtype is NumPy's
/// object dtype.
fn fmt_dtype(lead: &str, found: &str, mid: &str, expected: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    write!(f, "{lead}{found}{mid}{expected}")?;
    if found.trim_start_matches(['<', '>', '|', '=']).starts_with('O') {
        write!(f, " (object arrays hold pickled Python objects and are not supported)")?;
    }
    Ok(())
}

/// `error` inside an [`IoError::File`] of `format`: without a format prefix, in the format's
/// words.
fn fmt_in_file(error: &IoError, format: FileFormat, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let (item, whole) = format.words();
    match error {
        IoError::Io(e) => write!(f, "{e}"),
        IoError::Shape(e) => write!(f, "{e}"),
        IoError::DType { expected, found } => {
            fmt_dtype("dtype ", found, " in the file, the tensor's element type is ", expected, f)
        }
        IoError::NotFound { name, names } => write!(f, "no {item} named {name:?} (the {whole} holds {names:?})"),
        // Only the parameter savers wrap this variant in a file.
        IoError::DuplicateName(name) => {
            write!(f, "two parameters are named {name:?}, and the {whole} holds one {item} per name")
        }
        IoError::Member { name, error } | IoError::SafetensorsTensor { name, error } => {
            write!(f, "{item} {name:?}: ")?;
            fmt_in_file(error, format, f)
        }
        IoError::Parameter { name, error } => {
            write!(f, "{item} {name:?}: ")?;
            match fmt_parameter(error, f) {
                Some(r) => r,
                None => fmt_in_file(error, format, f),
            }
        }
        IoError::Safetensors(s) => f.write_str(s),
        IoError::Keys { missing, unexpected } => fmt_keys(missing, unexpected, f),
        e @ IoError::File { .. } => write!(f, "{e}"),
    }
}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IoError::Io(e) => write!(f, "npy I/O error: {e}"),
            IoError::Shape(e) => write!(f, "npy shape error: {e}"),
            IoError::DType { expected, found } => {
                fmt_dtype("npy dtype mismatch: the file holds ", found, ", the tensor's element type is ", expected, f)
            }
            IoError::NotFound { name, names } => {
                write!(f, "no array named {name:?} in the npz archive (it holds {names:?})")
            }
            IoError::DuplicateName(name) => write!(f, "an array named {name:?} is already in the npz archive"),
            IoError::Member { name, error } => match &**error {
                // The member's name takes the place of the "npy ... error" prefix.
                IoError::Io(e) => write!(f, "npz member {name:?}: {e}"),
                IoError::Shape(e) => write!(f, "npz member {name:?}: {e}"),
                e => write!(f, "npz member {name:?}: {e}"),
            },
            IoError::Safetensors(s) => write!(f, "safetensors: {s}"),
            IoError::SafetensorsTensor { name, error } => match &**error {
                IoError::Io(e) => write!(f, "safetensors tensor {name:?}: {e}"),
                IoError::Shape(e) => write!(f, "safetensors tensor {name:?}: {e}"),
                e => write!(f, "safetensors tensor {name:?}: {e}"),
            },
            IoError::File { format, path, error } => {
                write!(f, "{format} file {path:?}: ")?;
                fmt_in_file(error, *format, f)
            }
            IoError::Parameter { name, error } => {
                write!(f, "parameter {name:?}: ")?;
                match fmt_parameter(error, f) {
                    Some(r) => r,
                    None => write!(f, "{error}"),
                }
            }
            IoError::Keys { missing, unexpected } => fmt_keys(missing, unexpected, f),
        }
    }
}

impl std::error::Error for IoError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            IoError::Io(e) => Some(e),
            IoError::Shape(e) => Some(e),
            IoError::Member { error, .. }
            | IoError::SafetensorsTensor { error, .. }
            | IoError::File { error, .. }
            | IoError::Parameter { error, .. } => Some(&**error),
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

/// NumPy's cap on the header length (`max_header_size` of `numpy.lib.format.read_array`): a
/// longer header is refused before anything is allocated for it.
const MAX_HEADER_LEN: usize = 10_000;

/// The longest piece of a file that an error message quotes, in characters.
const MAX_ECHO: usize = 200;

/// At most [`MAX_ECHO`] characters of `text`, with `...` when cut.
fn echo(text: &str) -> String {
    match text.char_indices().nth(MAX_ECHO) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

pub(super) fn invalid(msg: impl Into<String>) -> IoError {
    IoError::Io(io::Error::new(io::ErrorKind::InvalidData, msg.into()))
}

/// The three entries of a `.npy` header dict.
#[derive(Debug)]
struct Header {
    /// The dtype string (`<f4`), or the unparsed text of a structured dtype (a list).
    descr: String,
    fortran_order: bool,
    shape: Vec<u64>,
}

/// A strict parser of the header dict, in one pass without backtracking: a Python dict literal
/// with exactly the keys `'descr'` (a string), `'fortran_order'` (`True`/`False`) and `'shape'`
/// (a tuple of decimal non-negative ints), each once, in any order, as NumPy's
/// `_read_array_header` requires after `ast.literal_eval`. Either quote, free whitespace,
/// trailing commas and a Python 2 `L` suffix on ints (which NumPy's reader filters) are
/// accepted; anything else (unknown or duplicate keys, lists or hex ints for the shape,
/// expressions) is an error quoting at most [`MAX_ECHO`] characters. Structured dtypes (a list
/// `descr`) are skipped as balanced brackets, to be refused as a dtype.
struct HeaderParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl HeaderParser<'_> {
    fn parse(s: &[u8]) -> Result<Header, IoError> {
        let mut p = HeaderParser { s, i: 0 };
        let (mut descr, mut fortran_order, mut shape) = (None, None, None);
        p.expect(b'{', "'{'")?;
        loop {
            if p.eat(b'}') {
                break;
            }
            let key = p.string()?;
            p.expect(b':', "':'")?;
            let dup = match &*key {
                "descr" => descr.replace(p.descr()?).is_some(),
                "fortran_order" => fortran_order.replace(p.boolean()?).is_some(),
                "shape" => shape.replace(p.shape()?).is_some(),
                _ => {
                    let what =
                        format!("unknown key '{}' (NumPy's keys are 'descr', 'fortran_order', 'shape')", echo(&key));
                    return Err(p.error(&what));
                }
            };
            if dup {
                return Err(p.error(&format!("duplicate key '{key}'")));
            }
            if !p.eat(b',') {
                p.expect(b'}', "',' or '}'")?;
                break;
            }
        }
        p.ws();
        if p.i != s.len() {
            return Err(p.error("text after the dict"));
        }
        match (descr, fortran_order, shape) {
            (Some(descr), Some(fortran_order), Some(shape)) => Ok(Header { descr, fortran_order, shape }),
            _ => Err(p.error("missing key (NumPy's keys are 'descr', 'fortran_order', 'shape')")),
        }
    }

    fn error(&self, what: &str) -> IoError {
        let text = String::from_utf8_lossy(self.s);
        invalid(format!("invalid npy header at byte {}: {what}; the header is {:?}", self.i, echo(text.trim_end())))
    }

    /// Skips Python whitespace.
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c') {
            self.i += 1;
        }
    }

    /// Skips whitespace, then consumes `c` if it comes next.
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        let hit = self.s.get(self.i) == Some(&c);
        self.i += usize::from(hit);
        hit
    }

    fn expect(&mut self, c: u8, what: &str) -> Result<(), IoError> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.error(&format!("expected {what}")))
        }
    }

    /// A quoted string without escapes or line breaks (what a dtype string or key needs).
    fn string(&mut self) -> Result<String, IoError> {
        self.ws();
        let q = match self.s.get(self.i) {
            Some(&q @ (b'\'' | b'"')) => q,
            _ => return Err(self.error("expected a quoted string")),
        };
        let start = self.i + 1;
        let len = self.s[start..]
            .iter()
            .position(|&c| c == q || matches!(c, b'\\' | b'\n' | b'\r'))
            .filter(|&n| self.s[start + n] == q)
            .ok_or_else(|| self.error("unterminated string, or one with an escape or line break"))?;
        self.i = start + len + 1;
        Ok(String::from_utf8_lossy(&self.s[start..start + len]).into_owned())
    }

    /// The `descr` value: a string, or a structured dtype's list, kept as (cut) text.
    fn descr(&mut self) -> Result<String, IoError> {
        self.ws();
        if self.s.get(self.i) != Some(&b'[') {
            return self.string();
        }
        // Balanced brackets and quotes: linear, with no nesting limit needed (a counter).
        let start = self.i;
        let mut depth = 0usize;
        while let Some(&c) = self.s.get(self.i) {
            match c {
                b'[' | b'(' => depth += 1,
                b']' | b')' => depth -= 1,
                b'\'' | b'"' => {
                    self.string()?;
                    continue;
                }
                _ => {}
            }
            self.i += 1;
            if depth == 0 {
                return Ok(echo(&String::from_utf8_lossy(&self.s[start..self.i])));
            }
        }
        Err(self.error("unbalanced brackets"))
    }

    fn boolean(&mut self) -> Result<bool, IoError> {
        self.ws();
        let rest = &self.s[self.i..];
        for (word, value) in [(&b"True"[..], true), (b"False", false)] {
            if rest.starts_with(word) && !rest.get(word.len()).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
            {
                self.i += word.len();
                return Ok(value);
            }
        }
        Err(self.error("expected True or False"))
    }

    /// A decimal non-negative int (no sign, no leading zeros, no `_`), with an optional `L`.
    fn int(&mut self) -> Result<u64, IoError> {
        self.ws();
        let start = self.i;
        while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        let digits = &self.s[start..self.i];
        if digits.is_empty() || (digits.len() > 1 && digits[0] == b'0') {
            self.i = start;
            return Err(self.error("expected a decimal int"));
        }
        if self.s.get(self.i) == Some(&b'L') {
            self.i += 1;
        }
        if self.s.get(self.i).is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.')) {
            return Err(self.error("expected a decimal int"));
        }
        // ASCII digits: valid UTF-8; too many digits overflow u64.
        core::str::from_utf8(digits).ok().and_then(|d| d.parse().ok()).ok_or_else(|| self.error("a size beyond u64"))
    }

    /// A tuple of ints: `()`, `(n,)`, `(n, m)`, `(n, m,)`; a list or a bare `(n)` is refused.
    fn shape(&mut self) -> Result<Vec<u64>, IoError> {
        self.expect(b'(', "a tuple '(' for the shape")?;
        let mut sizes = Vec::new();
        loop {
            if self.eat(b')') {
                break;
            }
            if sizes.len() > crate::MAX_RANK {
                return Err(self.error(&format!("more than {} dims", crate::MAX_RANK)));
            }
            sizes.push(self.int()?);
            if !self.eat(b',') {
                self.expect(b')', "',' or ')'")?;
                if sizes.len() == 1 {
                    return Err(self.error("'(n)' is an int, not a tuple: write '(n,)'"));
                }
                break;
            }
        }
        Ok(sizes)
    }
}

/// Reads the magic string, the version and the header of a `.npy` stream, with the length
/// checked against [`MAX_HEADER_LEN`] before the header is read. Returns the header and the
/// number of bytes read.
fn read_header(r: &mut impl Read) -> Result<(Header, u64), IoError> {
    let mut pre = [0u8; 12];
    r.read_exact(&mut pre[..8]).map_err(|e| eof_as(e, "the file is shorter than the npy magic string"))?;
    if &pre[..6] != b"\x93NUMPY" {
        return Err(invalid(format!("not an npy file: it starts with {:?}, not \\x93NUMPY", &pre[..6])));
    }
    let (len, pre_len) = match (pre[6], pre[7]) {
        (1, 0) => {
            r.read_exact(&mut pre[8..10]).map_err(|e| eof_as(e, "the npy preamble is cut"))?;
            (u64::from(u16::from_le_bytes([pre[8], pre[9]])), 10)
        }
        (2 | 3, 0) => {
            r.read_exact(&mut pre[8..12]).map_err(|e| eof_as(e, "the npy preamble is cut"))?;
            (u64::from(u32::from_le_bytes([pre[8], pre[9], pre[10], pre[11]])), 12)
        }
        (major, minor) => {
            return Err(invalid(format!("npy format version {major}.{minor}: only 1.0, 2.0 and 3.0 are known")))
        }
    };
    if len > MAX_HEADER_LEN as u64 {
        return Err(invalid(format!(
            "npy header of {len} bytes: more than NumPy's limit of {MAX_HEADER_LEN} (max_header_size)"
        )));
    }
    let mut header = std::vec![0u8; len as usize];
    r.read_exact(&mut header).map_err(|e| eof_as(e, "the npy header is cut"))?;
    Ok((HeaderParser::parse(&header)?, pre_len + len))
}

/// An unexpected end of file as an error saying `what`, other errors unchanged.
fn eof_as(e: io::Error, what: &str) -> io::Error {
    match e.kind() {
        io::ErrorKind::UnexpectedEof => io::Error::new(io::ErrorKind::UnexpectedEof, what.to_string()),
        _ => e,
    }
}

/// Reads as many bytes as `buf` holds unless the stream ends first; the count read.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The bytes decoded per read of the data section.
const CHUNK_BYTES: usize = 1 << 16;

/// Reads a `.npy` stream as `read_npy` documents. `size` is the stream's length when known (a
/// file's, a zip member's bound): a header claiming more data bytes than follow it is then an
/// error before anything is allocated, and the elements are allocated at once (fallibly).
/// Otherwise the buffer grows (fallibly) with the data actually read, so a claimed count never
/// reserves more than about twice the bytes present.
pub(super) fn read_npy_sized<T: NpyElement, S: Shape>(
    reader: impl Read,
    size: Option<u64>,
) -> Result<Tensor<T, S>, IoError> {
    let (sizes, data, fortran_order) = read_npy_data::<T, S>(reader, size, None)?;
    let layout = if fortran_order { fortran_layout(&sizes)? } else { Layout::contiguous(&sizes)? };
    Ok(TensorBase::try_from_parts(data, layout)?)
}

/// The column-major layout of `sizes` (a Fortran-order file's elements as stored).
pub(super) fn fortran_layout(sizes: &[usize]) -> Result<Layout, ShapeError> {
    let mut strides = [0isize; crate::MAX_RANK];
    let mut s = 1usize;
    for (i, &n) in sizes.iter().enumerate() {
        strides[i] = s as isize;
        s *= n.max(1);
    }
    Layout::from_parts(sizes, &strides[..sizes.len()], 0)
}

/// The sizes, the elements in storage order and the `fortran_order` flag of a `.npy` stream,
/// read as [`read_npy_sized`] documents. `expect`, when given, is the sizes the file must have
/// (a parameter's): they are compared right after the header is parsed, before anything is
/// allocated, and a difference is an [`IoError::Shape`] holding a
/// [`ShapeError::ShapeMismatch`] with `expected` the sizes as `[2, 3]`.
pub(super) fn read_npy_data<T: NpyElement, S: Shape>(
    reader: impl Read,
    size: Option<u64>,
    expect: Option<&[usize]>,
) -> Result<(Vec<usize>, Vec<T>, bool), IoError> {
    let mut reader = BufReader::new(reader);
    let (header, header_len) = read_header(&mut reader)?;
    let shape = &header.shape;
    if shape.iter().try_fold(1u64, |acc, &n| acc.checked_mul(n)).is_none() {
        return Err(ShapeError::Invalid(format!("the element count of npy shape {shape:?} overflows")).into());
    }
    let sizes = shape
        .iter()
        .map(|&n| usize::try_from(n))
        .collect::<Result<Vec<usize>, _>>()
        .map_err(|_| ShapeError::Invalid(format!("npy shape {shape:?} does not fit usize")))?;
    if let Some(expect) = expect.filter(|&e| e != sizes.as_slice()) {
        return Err(ShapeError::ShapeMismatch { expected: format!("{expect:?}"), got: sizes }.into());
    }
    S::check_sizes(&sizes)?;
    let contiguous = Layout::contiguous(&sizes)?;
    let numel = contiguous.numel();
    // The shape is checked first, the dtype second (the order of the checks before issue 25).
    let expected = || dtype_name(&T::default_dtype());
    let dtype_error = || IoError::DType { expected: expected(), found: echo(&header.descr) };
    let type_str: npyz::TypeStr = header.descr.parse().map_err(|_| dtype_error())?;
    let elem_bytes = type_str.num_bytes().filter(|&n| n > 0).ok_or_else(dtype_error)?;
    let dtype = npyz::DType::Plain(type_str);
    let decoder = T::reader(&dtype).map_err(|_| dtype_error())?;
    let bytes = numel.checked_mul(elem_bytes).filter(|&b| b <= isize::MAX as usize).ok_or_else(|| {
        ShapeError::Invalid(format!("the byte count of npy shape {shape:?} of {} overflows isize", echo(&header.descr)))
    })?;
    let mut data: Vec<T> = match size {
        Some(size) => {
            let left = size.saturating_sub(header_len);
            if bytes as u64 > left {
                return Err(invalid(format!(
                    "the npy header claims {bytes} bytes of data (shape {shape:?} of {}), the file holds {left} after the header",
                    echo(&header.descr)
                )));
            }
            crate::memory::try_with_capacity(numel)?
        }
        None => crate::memory::try_with_capacity(numel.min(CHUNK_BYTES / elem_bytes.min(CHUNK_BYTES)))?,
    };
    let per_chunk = (CHUNK_BYTES / elem_bytes).max(1);
    let mut buf = std::vec![0u8; per_chunk.min(numel) * elem_bytes];
    while data.len() < numel {
        let k = per_chunk.min(numel - data.len());
        data.try_reserve(k).map_err(|_| ShapeError::Alloc { count: numel, elem_size: core::mem::size_of::<T>() })?;
        let chunk = &mut buf[..k * elem_bytes];
        let got = read_full(&mut reader, chunk)?;
        for c in chunk[..got - got % elem_bytes].chunks_exact(elem_bytes) {
            data.push(decoder.read_one(c)?);
        }
        if got < chunk.len() {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("the npy data section ends after {} of {numel} elements", data.len()),
            )
            .into());
        }
    }
    Ok((sizes, data, header.fortran_order))
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
    /// An [`IoError::File`] naming the format ([`FileFormat::Npy`]) and `path`, around
    /// [`IoError::Io`] when the file cannot be created or written
    /// (`npy file "x.npy": No such file or directory (os error 2)`).
    pub fn save_npy(&self, path: impl AsRef<Path>) -> Result<(), IoError> {
        let path = path.as_ref();
        File::create(path)
            .map_err(IoError::from)
            .and_then(|f| self.write_npy(f))
            .map_err(|e| e.in_file(FileFormat::Npy, path))
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
    /// The input is untrusted: the header is at most NumPy's 10000 bytes (`max_header_size`)
    /// and is parsed in one linear pass by a strict grammar of NumPy's three keys, `'descr'` (a
    /// dtype string), `'fortran_order'` (`True`/`False`) and `'shape'` (a tuple of decimal ints,
    /// as NumPy writes; a list is refused as by NumPy's reader), each exactly once (NumPy would
    /// take the last of duplicate keys and hex ints; no writer produces them). The element and
    /// byte counts must fit `isize`. The buffer grows fallibly with the data actually read (a
    /// stream's length is unknown), so a header claiming more than the stream holds costs
    /// about twice the bytes present before the error; error messages quote at most 200
    /// characters of the file.
    ///
    /// # Errors
    /// [`IoError::Shape`] when the file's sizes do not fit `S` (a [`ShapeError::ShapeMismatch`]
    /// naming both shapes) or their element or byte count overflows, or
    /// [`ShapeError::Alloc`] when the allocator cannot provide the elements;
    /// [`IoError::DType`] when the file's dtype is not `T`'s (object arrays, `|O`, and
    /// structured dtypes included); [`IoError::Io`] when the reader fails or the file is not a
    /// valid `.npy` (a bad magic string or version, a header over 10000 bytes or outside the
    /// grammar above, truncated data).
    pub fn read_npy<R: Read>(reader: R) -> Result<Self, IoError> {
        read_npy_sized(reader, None)
    }

    /// Reads the `.npy` file at `path` (NumPy `np.load(path)`). See [`read_npy`](Self::read_npy)
    /// for the checks and the layout of Fortran-order files.
    ///
    /// The file's length bounds the header's claim: a header whose shape needs more bytes than
    /// follow it is an [`IoError::Io`] before anything is allocated, and otherwise the elements
    /// are allocated at once (fallibly).
    ///
    /// # Errors
    /// An [`IoError::File`] naming the format ([`FileFormat::Npy`]) and `path`, around an error
    /// of [`read_npy`](Self::read_npy) or an [`IoError::Io`] when the file cannot be opened;
    /// the message gives the inner error without its `npy ...` prefix
    /// (`npy file "x.npy": sizes [2, 3] do not match shape [3, 2]`).
    pub fn load_npy(path: impl AsRef<Path>) -> Result<Self, IoError> {
        let path = path.as_ref();
        let load = || {
            let file = File::open(path)?;
            let meta = file.metadata()?;
            // The length bounds the claimed data of a regular file only (a pipe reports 0).
            read_npy_sized(file, meta.is_file().then_some(meta.len()))
        };
        load().map_err(|e| e.in_file(FileFormat::Npy, path))
    }
}
