//! Runtime slice arguments for code whose indices are data (PyTorch's C++ `TensorIndex`).
use super::apply::DimBuf;
use crate::error::ShapeError;
use crate::layout::{index_offset, range_bounds, range_dim, Layout};
use core::ops::{Bound, RangeBounds};

/// One index item built at run time: `SliceArg::Index(-1)`, `SliceArg::range(1.., 2)`,
/// `SliceArg::Full`, `SliceArg::NewAxis`, `SliceArg::Ellipsis`. Mirrors PyTorch's `TensorIndex`
/// (`Slice`, `None`, `Ellipsis`, integers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliceArg {
    /// `:`, the whole dim.
    Full,
    /// An integer index (negative counts from the end); drops the dim.
    Index(isize),
    /// `start:end:step` (`None` is open; negative bounds count from the end; a negative step
    /// walks the range backwards).
    Range {
        /// Start bound.
        start: Option<isize>,
        /// End bound, exclusive.
        end: Option<isize>,
        /// Non-zero step.
        step: isize,
    },
    /// `None`: a new size-1 dim.
    NewAxis,
    /// `...`: as many `Full` as the other items leave.
    Ellipsis,
}

impl SliceArg {
    /// A range item from any Rust range of `isize` (`1..`, `..-1`, `2..=4`) and a step.
    pub fn range(r: impl RangeBounds<isize>, step: isize) -> SliceArg {
        let start = match r.start_bound() {
            Bound::Included(&s) => Some(s),
            Bound::Excluded(&s) => Some(s.saturating_add(1)),
            Bound::Unbounded => None,
        };
        let end = match r.end_bound() {
            Bound::Included(&-1) => None,
            Bound::Included(&e) => Some(e.saturating_add(1)),
            Bound::Excluded(&e) => Some(e),
            Bound::Unbounded => None,
        };
        SliceArg::Range { start, end, step }
    }
}

/// Applies runtime slice arguments to a layout.
///
/// # Errors
/// Index and range errors; [`ShapeError::TooManyIndices`]; [`ShapeError::Invalid`] for two
/// ellipses; [`ShapeError::ZeroStep`]; [`ShapeError::RankTooLarge`].
pub fn apply_args(l: &Layout, args: &[SliceArg]) -> Result<Layout, ShapeError> {
    let consumed = args.iter().filter(|a| !matches!(a, SliceArg::NewAxis | SliceArg::Ellipsis)).count();
    if consumed > l.rank() {
        return Err(ShapeError::TooManyIndices { given: consumed, rank: l.rank() });
    }
    if args.iter().filter(|a| matches!(a, SliceArg::Ellipsis)).count() > 1 {
        return Err(ShapeError::Invalid("an index can only have a single ellipsis (`...`)".into()));
    }
    let mut out = DimBuf::new();
    let mut off = l.offset() as isize;
    let mut d = 0;
    for a in args {
        match *a {
            SliceArg::Ellipsis => {
                for _ in 0..l.rank() - consumed {
                    out.push(l.sizes()[d], l.strides()[d])?;
                    d += 1;
                }
                continue;
            }
            SliceArg::NewAxis => {
                out.push(1, 0)?;
                continue;
            }
            SliceArg::Full => out.push(l.sizes()[d], l.strides()[d])?,
            SliceArg::Index(i) => off += index_offset(i, l.sizes()[d], l.strides()[d], d)?,
            SliceArg::Range { start, end, step } => {
                if step == 0 {
                    return Err(ShapeError::ZeroStep { axis: d });
                }
                let (s, e) = range_bounds(start, end, l.sizes()[d], d)?;
                let (o, n, st) = range_dim(s, e, step, l.strides()[d]);
                off += o;
                out.push(n, st)?;
            }
        }
        d += 1;
    }
    while d < l.rank() {
        out.push(l.sizes()[d], l.strides()[d])?;
        d += 1;
    }
    Ok(Layout::from_arrays(out.sizes, out.strides, out.len, off, l.offset()))
}
