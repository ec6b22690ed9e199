//! [`ShapeError`]: every runtime shape, index and layout error. The message names the shapes.
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// A shape, index or layout error found at run time. Each `try_` method returns it; the plain
/// method panics with the same message (`Display`).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
#[allow(missing_docs)] // the fields are the sizes and positions that each variant's doc names
pub enum ShapeError {
    /// Two shapes do not broadcast: `cannot broadcast [2, 3] with [4, 3]`.
    Broadcast { lhs: Vec<usize>, rhs: Vec<usize> },
    /// A shape cannot be expanded to a target.
    Expand { from: Vec<usize>, to: Vec<usize> },
    /// Matmul inner dims differ, batch dims do not broadcast, or an operand is 0-d.
    MatMul { lhs: Vec<usize>, rhs: Vec<usize> },
    /// Reshape/view to a shape with another element count.
    Reshape { from: Vec<usize>, to: Vec<isize> },
    /// `view` on strides that cannot express the new shape without a copy.
    View { sizes: Vec<usize>, strides: Vec<isize>, to: Vec<usize> },
    /// Runtime sizes that do not fit a shape type (`[2, _]` vs `[3, 4]`).
    ShapeMismatch { expected: String, got: Vec<usize> },
    /// A flat buffer whose length does not match the shape.
    DataLength { len: usize, sizes: Vec<usize> },
    /// An index outside its dimension. The index is the one given (an `i128` holds every
    /// integer index type exactly, `u64::MAX` included).
    Index { index: i128, axis: usize, size: usize },
    /// An entry of an index tensor outside `0..size`, in an operation that writes by index and
    /// does not count negative entries from the end (`scatter_`, `scatter_add_`,
    /// `scatter_reduce_`, `index_add_`, as PyTorch's): the entry as given, its coordinates in
    /// the index tensor, and the dim of the written tensor it indexes with that dim's size.
    IndexEntry { index: i128, position: Vec<usize>, axis: usize, size: usize },
    /// A range outside its dimension, with the bounds as given.
    Range { start: i128, end: i128, axis: usize, size: usize },
    /// A zero slice step.
    ZeroStep { axis: usize },
    /// More indices than dims.
    TooManyIndices { given: usize, rank: usize },
    /// An axis outside `-rank..rank`.
    Axis { axis: isize, rank: usize },
    /// An insertion point (`unsqueeze`, `stack`) outside `-(rank + 1)..=rank`.
    InsertAxis { axis: isize, rank: usize },
    /// Axes that do not form a permutation.
    Permutation { axes: Vec<usize>, rank: usize },
    /// `squeeze` of a dim whose size is not 1.
    Squeeze { axis: usize, sizes: Vec<usize> },
    /// More than [`MAX_RANK`](crate::MAX_RANK) dims.
    RankTooLarge { rank: usize },
    /// The element count does not fit `isize` (the largest buffer Rust can address).
    Overflow { sizes: Vec<usize> },
    /// A buffer that the allocator could not provide: `count` elements of `elem_size` bytes.
    /// PyTorch's "not enough memory" error; the `try_` forms return it instead of aborting.
    Alloc { count: usize, elem_size: usize },
    /// Integer division or remainder by zero (`op` names the operation).
    DivisionByZero { op: &'static str },
    /// A matrix that is singular to working precision (`op` names the operation, `n` the order):
    /// its reciprocal condition number in the 1-norm is at most `n · ε` or not finite, so an
    /// inverse or solution would be noise. NumPy's `LinAlgError: Singular matrix`, also for
    /// matrices that are only numerically singular.
    Singular { op: &'static str, n: usize },
    /// A Cholesky factorisation of a matrix that is not symmetric positive definite (NumPy's
    /// `LinAlgError: Matrix is not positive definite`).
    NotPositiveDefinite { op: &'static str, n: usize },
    /// An iterative decomposition (SVD, eigenvalues) did not converge.
    NoConvergence { op: &'static str },
    /// In-place writes through a layout in which two coordinates may reach the same element
    /// (an expanded or otherwise overlapping view): refused, as PyTorch refuses them.
    Overlap { sizes: Vec<usize>, strides: Vec<isize> },
    /// Two shapes that an operation needs to agree do not (`op` names the operation):
    /// `mask index: [2] and [3] differ: the mask's shape must equal the dims it indexes`.
    Mismatch { op: &'static str, what: String, lhs: Vec<usize>, rhs: Vec<usize> },
    /// Two dims of one name ([`DimName`](crate::DimName)) with different runtime sizes where
    /// two operands meet: the name, the dim's position in the result (counted from the front;
    /// for matmul's inner dims, in the left operand) and both sizes. A runtime size 1 does not
    /// stretch a name.
    NamedDim { name: &'static str, axis: usize, lhs: usize, rhs: usize },
    /// A reshape or view that would move or regroup a named dim: the dims before it do not hold
    /// as many elements in the target as in the source, or its size changes.
    ReshapeName { name: &'static str, from: Vec<usize>, to: Vec<usize> },
    /// An invalid argument, described in words.
    Invalid(String),
    /// A misuse of an autograd tape, described in words: values of two tapes combined, a tape
    /// used after its `backward`, a gradient asked of a value that was not tracked, a seed
    /// gradient of the wrong sizes (see `shaped::autograd`).
    Autograd(String),
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ShapeError::*;
        match self {
            Broadcast { lhs, rhs } => write!(f, "cannot broadcast {lhs:?} with {rhs:?}"),
            Expand { from, to } => write!(f, "cannot expand {from:?} to {to:?}: only size-1 dims can be expanded"),
            MatMul { lhs, rhs } => {
                let (ra, rb) = (lhs.len(), rhs.len());
                // The inner dims: a 1-D right operand is a column, so its only dim is `k`.
                if ra == 0 || rb == 0 {
                    write!(f, "cannot matmul {lhs:?} by {rhs:?}: a 0-d operand has no matrix product")
                } else if lhs[ra - 1] != rhs[rb.saturating_sub(2)] {
                    let (k, k2) = (lhs[ra - 1], rhs[rb.saturating_sub(2)]);
                    write!(f, "cannot matmul {lhs:?} by {rhs:?}: inner dimensions {k} and {k2} differ")
                } else {
                    write!(f, "cannot matmul {lhs:?} by {rhs:?}: the batch dimensions do not broadcast")
                }
            }
            Reshape { from, to } => write!(f, "cannot reshape {from:?} into {to:?}: element counts differ"),
            View { sizes, strides, to } => write!(
                f,
                "cannot view {sizes:?} (strides {strides:?}) as {to:?}: the strides cannot express it without a copy; call contiguous() first or use reshape"
            ),
            ShapeMismatch { expected, got } => write!(f, "sizes {got:?} do not match shape {expected}"),
            DataLength { len, sizes } => write!(f, "a buffer of {len} elements does not fit shape {sizes:?}"),
            Index { index, axis, size } => {
                write!(f, "index {index} is out of bounds for dimension {axis} of size {size}")
            }
            IndexEntry { index, position, axis, size } => {
                write!(
                    f,
                    "index {index} at position {position:?} is out of bounds for dimension {axis} of size {size}"
                )?;
                if *index < 0 {
                    f.write_str(" (negative indices are not counted from the end here, as in PyTorch)")?;
                }
                Ok(())
            }
            Range { start, end, axis, size } => {
                write!(f, "range {start}..{end} is out of bounds for dimension {axis} of size {size}")
            }
            ZeroStep { axis } => write!(f, "slice step cannot be zero (dimension {axis})"),
            TooManyIndices { given, rank } => {
                write!(f, "too many indices: {given} indices for a tensor of rank {rank}")
            }
            Axis { axis, rank } => write!(f, "axis {axis} is out of range for a tensor of rank {rank}"),
            InsertAxis { axis, rank } => write!(
                f,
                "cannot insert a dim at axis {axis} of a tensor of rank {rank} (valid positions: {}..={rank})",
                -(*rank as isize) - 1
            ),
            Permutation { axes, rank } => {
                write!(f, "{axes:?} is not a permutation of the axes of a tensor of rank {rank}")
            }
            Squeeze { axis, sizes } => write!(f, "cannot squeeze axis {axis} of {sizes:?}: its size is not 1"),
            RankTooLarge { rank } => {
                write!(f, "rank {rank} exceeds the maximum of {} dims", crate::MAX_RANK)
            }
            Overflow { sizes } if sizes.contains(&0) => write!(
                f,
                "the sizes {sizes:?} overflow isize: the tensor holds no element, but its strides are \
                 products of its sizes (an empty dim counted as 1), and they must fit isize"
            ),
            Overflow { sizes } => write!(f, "the element count of {sizes:?} overflows isize"),
            Alloc { count, elem_size } => {
                let bytes = *count as u128 * *elem_size as u128;
                write!(f, "out of memory: cannot allocate {bytes} bytes ({count} elements of {elem_size} bytes)")
            }
            DivisionByZero { op } => write!(f, "{op}: integer division by zero"),
            NotPositiveDefinite { op, n } => {
                write!(f, "{op}: the {n}x{n} matrix is not symmetric positive definite")
            }
            NoConvergence { op } => write!(f, "{op}: the iteration did not converge"),
            Singular { op, n } => write!(
                f,
                "{op}: the {n}x{n} matrix is singular to working precision (its 1-norm reciprocal condition number is at most {n}·ε)"
            ),
            Overlap { sizes, strides } => write!(
                f,
                "cannot write through a layout with sizes {sizes:?} and strides {strides:?}: two of its coordinates may reach the same element (call contiguous() or to_owned() first)"
            ),
            Mismatch { op, what, lhs, rhs } => write!(f, "{op}: {lhs:?} and {rhs:?} {what}"),
            NamedDim { name, axis, lhs, rhs } => {
                write!(f, "dim `{name}` has two sizes, {lhs} and {rhs} (dim {axis}): dims of one name must have one size")
            }
            ReshapeName { name, from, to } => write!(
                f,
                "cannot reshape {from:?} into {to:?}: the named dim `{name}` would move or be regrouped (the dims before it must hold as many elements in both)"
            ),
            Invalid(s) => f.write_str(s),
            Autograd(s) => write!(f, "autograd: {s}"),
        }
    }
}

impl core::error::Error for ShapeError {}

impl ShapeError {
    /// [`ShapeError::Mismatch`]: `op`'s two shapes `lhs` and `rhs` do not agree, `what` saying how
    /// (the message is `{op}: {lhs:?} and {rhs:?} {what}`).
    #[cold]
    #[inline(never)]
    pub(crate) fn mismatch(op: &'static str, what: impl Into<String>, lhs: &[usize], rhs: &[usize]) -> ShapeError {
        ShapeError::Mismatch { op, what: what.into(), lhs: lhs.into(), rhs: rhs.into() }
    }

    /// `Ok` when `op`'s kernel found its `n`x`n` matrix `usable`, else [`ShapeError::Singular`]:
    /// the check after each inversion, solve or determinant that can meet a singular matrix.
    #[inline]
    pub(crate) fn singular_unless(usable: bool, op: &'static str, n: usize) -> Result<(), ShapeError> {
        if usable {
            Ok(())
        } else {
            Err(ShapeError::Singular { op, n })
        }
    }
}

/// Panics with the error's message: the plain (non-`try_`) forms use it.
#[cold]
#[inline(never)]
#[track_caller]
pub(crate) fn fail(e: ShapeError) -> ! {
    panic!("{e}")
}

/// `Result` extension used by the plain forms.
pub(crate) trait OrPanic<T> {
    fn or_panic(self) -> T;
}
impl<T> OrPanic<T> for Result<T, ShapeError> {
    #[inline]
    #[track_caller]
    fn or_panic(self) -> T {
        match self {
            Ok(v) => v,
            Err(e) => fail(e),
        }
    }
}

/// A message built in a `const` evaluation (a const panic can print a `&str` but not format):
/// ASCII text and decimal numbers appended to a fixed buffer.
pub(crate) struct ConstMsg {
    buf: [u8; 192],
    len: usize,
}
impl ConstMsg {
    /// An empty message.
    pub(crate) const fn new() -> Self {
        ConstMsg { buf: [0; 192], len: 0 }
    }
    /// `s` appended (cut at the buffer's end).
    pub(crate) const fn str(mut self, s: &str) -> Self {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() && self.len < self.buf.len() {
            self.buf[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
        self
    }
    /// `n` in decimal appended.
    pub(crate) const fn num(mut self, n: usize) -> Self {
        let mut digits = [0u8; 20];
        let (mut k, mut v) = (0, n);
        loop {
            digits[k] = b'0' + (v % 10) as u8;
            k += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        while k > 0 && self.len < self.buf.len() {
            k -= 1;
            self.buf[self.len] = digits[k];
            self.len += 1;
        }
        self
    }
    /// A shape's static sizes appended as `[2, 3]`, with the names of named dims (`[Batch, 3]`).
    pub(crate) const fn shape_named(
        self,
        st: &[Option<usize>; crate::limits::MAX_RANK],
        names: &[Option<&'static str>; crate::limits::MAX_RANK],
        rank: Option<usize>,
    ) -> Self {
        let Some(rank) = rank else { return self.str("[..]") };
        let mut m = self.str("[");
        let mut i = 0;
        while i < rank {
            if i > 0 {
                m = m.str(", ");
            }
            m = match (st[i], names[i]) {
                (Some(n), _) => m.num(n),
                (None, Some(name)) => m.str(name),
                (None, None) => m.str("_"),
            };
            i += 1;
        }
        m.str("]")
    }
    /// A shape's static sizes appended as `[2, 3]` (`_` for a run-time dim, `[..]` for an
    /// unknown rank).
    pub(crate) const fn shape(self, st: &[Option<usize>; crate::limits::MAX_RANK], rank: Option<usize>) -> Self {
        self.shape_named(st, &[None; crate::limits::MAX_RANK], rank)
    }
    /// Panics with the message: the failure of a post-monomorphisation check.
    #[track_caller]
    pub(crate) const fn fail(&self) -> ! {
        panic!("{}", self.as_str())
    }
    /// The text (ASCII by construction, so always UTF-8).
    pub(crate) const fn as_str(&self) -> &str {
        let (bytes, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(bytes) {
            Ok(s) => s,
            Err(_) => "(message not UTF-8)",
        }
    }
}
