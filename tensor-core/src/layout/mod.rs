//! [`Layout`]: sizes, strides (in elements, possibly negative or zero) and an offset into a flat
//! buffer. Every piece of stride arithmetic in the crate lives in this file: view construction
//! (permute, select, narrow, slice, squeeze, unsqueeze, expand, view) and the strided walk that
//! the kernels use. Kernels see a `Layout` and a slice, never a shape type.
//!
//! # The layout invariant
//!
//! Every `Layout` value, however it was made, satisfies:
//!
//! 1. **rank** at most [`MAX_RANK`]; entries past the rank are size 1, stride 0;
//! 2. **element count**: the product of `max(size, 1)` over the dims is at most `isize::MAX`
//!    (so `numel()`, every row-major position and every contiguous stride fit `isize`);
//! 3. **bounded reach**: `offset + sum(max(size, 1) - 1) * |stride|` is at most `isize::MAX`,
//!    computed without overflow. Every offset that any coordinate of this layout (or of a layout
//!    derived from it) can produce is therefore an `isize` computed without overflow.
//!
//! Who checks it: [`Layout::contiguous`] and [`Layout::from_parts`], the only two ways to build a
//! layout from numbers, check 1-3 with overflow-checked arithmetic and return an error otherwise.
//! Every other method derives a layout from a valid one and keeps 1-3: views address a subset of
//! their source's elements (so their reach is no larger), `expand` adds stride-0 dims after
//! checking the new element count, and a stride that is never stepped along (a dim of size 0 or
//! 1) is kept from the source rather than multiplied. Each method's comment says which case it is.
//!
//! A tensor pairs a layout with a buffer only when [`Layout::fits`] its length: the layout is empty
//! (it addresses nothing, whatever its offset), or its lowest addressed offset is at least 0 and
//! its highest is below the length. `TensorBase::from_parts` (crate-private) debug-asserts it for
//! the layouts the crate derives; `TensorBase::try_from_parts` checks it for layouts a user brings,
//! and, for storage that can be written, also refuses layouts in which two coordinates may reach
//! the same element ([`Layout::may_overlap`]). Kernels, including the `unsafe` call into
//! `matrixmultiply`, rely on these two checks and on nothing else.
use crate::error::ShapeError;
use crate::limits::MAX_RANK;

/// Sizes, strides and offset of a strided tensor (rank at most [`MAX_RANK`]). See the module docs
/// for the invariant every value keeps.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Layout {
    sizes: [usize; MAX_RANK],
    strides: [isize; MAX_RANK],
    rank: usize,
    offset: usize,
}

pub use crate::storage::{LayoutRepr, RowMajor};

mod advanced;
mod index;
mod sizes;
mod views;
mod walk;

pub use advanced::AdvIndex;
pub(crate) use advanced::{advanced_plan, GatherLine, GatherPlan, Step};
pub(crate) use index::{index_offset, range_bounds, range_dim};
pub(crate) use sizes::kron_layouts;
pub use sizes::{broadcast_sizes, normalize_axis, normalize_insert_axis, window_out};
pub(crate) use walk::{for_each_line, walk, walk_rows, Line, Offsets, Rows};

/// The product of `max(size, 1)` (the element count of the non-empty part), if it fits `isize`.
pub(super) fn checked_count(sizes: &[usize]) -> Option<usize> {
    let mut n: usize = 1;
    for &s in sizes {
        n = n.checked_mul(s.max(1))?;
    }
    (n <= isize::MAX as usize).then_some(n)
}

/// `offset + sum(max(n, 1) - 1) * |s|` in 128 bits (it cannot overflow there: at most
/// 2^64 + 6 * 2^64 * 2^63).
pub(super) fn reach_i128(sizes: &[usize], strides: &[isize], offset: usize) -> i128 {
    sizes
        .iter()
        .zip(strides)
        .fold(offset as i128, |acc, (&n, &s)| acc + (n.max(1) as i128 - 1) * s.unsigned_abs() as i128)
}

impl Layout {
    /// The row-major layout of the static sizes `stat` (a `None` counts as size 1), computed at
    /// compile time for [`Shape::ROW_MAJOR`](crate::Shape::ROW_MAJOR). Only fully static shapes
    /// whose element count fits `isize` use it; the arithmetic saturates otherwise (such a layout
    /// is never read).
    pub const fn row_major_const(stat: &[Option<usize>; MAX_RANK], rank: usize) -> Layout {
        let mut l = Layout { sizes: [1; MAX_RANK], strides: [0; MAX_RANK], rank, offset: 0 };
        let mut s: usize = 1;
        let mut i = rank;
        while i > 0 {
            i -= 1;
            let n = match stat[i] {
                Some(n) => n,
                None => 1,
            };
            l.sizes[i] = n;
            l.strides[i] = if s > isize::MAX as usize { isize::MAX } else { s as isize };
            s = s.saturating_mul(if n == 0 { 1 } else { n });
        }
        l
    }

    /// A row-major contiguous layout (PyTorch's default strides) at offset 0.
    ///
    /// # Errors
    /// [`ShapeError::RankTooLarge`] for more than 6 dims; [`ShapeError::Overflow`] when the
    /// element count does not fit `isize`.
    pub fn contiguous(sizes: &[usize]) -> Result<Layout, ShapeError> {
        if sizes.len() > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: sizes.len() });
        }
        // Invariant 2; then every contiguous stride is a partial product, below isize::MAX, and
        // the reach is (numel - 1) or 0 (invariant 3).
        checked_count(sizes).ok_or_else(|| ShapeError::Overflow { sizes: sizes.into() })?;
        let mut l = Layout { sizes: [1; MAX_RANK], strides: [0; MAX_RANK], rank: sizes.len(), offset: 0 };
        let mut s: usize = 1;
        for i in (0..sizes.len()).rev() {
            l.sizes[i] = sizes[i];
            l.strides[i] = s as isize;
            s *= sizes[i].max(1);
        }
        Ok(l)
    }

    /// Builds a layout from parts (PyTorch `as_strided`'s arguments), checking the invariant of
    /// the module docs with overflow-checked arithmetic and that no reachable offset is
    /// negative. Whether it fits a given buffer is checked where it meets one
    /// ([`TensorBase::try_from_parts`](crate::TensorBase::try_from_parts), `as_strided`).
    ///
    /// # Errors
    /// [`ShapeError::RankTooLarge`]; [`ShapeError::Invalid`] when the sizes and strides differ in
    /// length, a reachable offset is negative, or the reach passes `isize::MAX`;
    /// [`ShapeError::Overflow`] when the element count does not fit `isize`.
    pub fn from_parts(sizes: &[usize], strides: &[isize], offset: usize) -> Result<Layout, ShapeError> {
        if sizes.len() > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: sizes.len() });
        }
        if sizes.len() != strides.len() {
            return Err(ShapeError::Invalid(alloc::format!("{} sizes but {} strides", sizes.len(), strides.len())));
        }
        checked_count(sizes).ok_or_else(|| ShapeError::Overflow { sizes: sizes.into() })?;
        if reach_i128(sizes, strides, offset) > isize::MAX as i128 {
            return Err(ShapeError::Invalid(alloc::format!(
                "layout with sizes {sizes:?}, strides {strides:?} and offset {offset} reaches past isize::MAX"
            )));
        }
        let mut l = Layout { sizes: [1; MAX_RANK], strides: [0; MAX_RANK], rank: sizes.len(), offset };
        l.sizes[..sizes.len()].copy_from_slice(sizes);
        l.strides[..sizes.len()].copy_from_slice(strides);
        match l.span() {
            Some((lo, _)) if lo < 0 => Err(ShapeError::Invalid(alloc::format!(
                "layout with sizes {sizes:?}, strides {strides:?} and offset {offset} reaches offset {lo}, below the start of the storage"
            ))),
            _ => Ok(l),
        }
    }

    /// The sizes, one per dim.
    #[inline]
    pub fn sizes(&self) -> &[usize] {
        &self.sizes[..self.rank]
    }
    /// The strides in elements, one per dim (negative for reversed views, 0 for expanded dims).
    #[inline]
    pub fn strides(&self) -> &[isize] {
        &self.strides[..self.rank]
    }
    /// The number of dims.
    #[inline]
    pub fn rank(&self) -> usize {
        self.rank
    }
    /// The offset of the first element in the buffer.
    #[inline]
    pub fn offset(&self) -> usize {
        self.offset
    }
    /// The number of elements (sizes fit a buffer, so this cannot overflow).
    #[inline]
    pub fn numel(&self) -> usize {
        self.sizes().iter().product()
    }

    /// Whether the elements are row-major contiguous from `offset` (size-1 dims may have any
    /// stride, as in PyTorch).
    pub fn is_contiguous(&self) -> bool {
        let mut s = 1isize;
        for i in (0..self.rank).rev() {
            if self.sizes[i] != 1 && self.strides[i] != s {
                return self.numel() == 0;
            }
            s *= self.sizes[i] as isize;
        }
        true
    }

    /// The lowest and highest reachable offsets, or `None` for an empty layout. Exact: by the
    /// invariant both fit `isize`.
    pub fn span(&self) -> Option<(isize, isize)> {
        if self.sizes().contains(&0) {
            return None;
        }
        let (mut lo, mut hi) = (self.offset as i128, self.offset as i128);
        for (&n, &s) in self.sizes().iter().zip(self.strides()) {
            let reach = (n as i128 - 1) * s as i128;
            if reach < 0 {
                lo += reach;
            } else {
                hi += reach;
            }
        }
        Some((lo as isize, hi as isize))
    }

    /// Whether every reachable offset lies in a buffer of `len` elements (an empty layout reaches
    /// none, so it fits whatever its offset). The check every tensor's layout passed.
    pub fn fits(&self, len: usize) -> bool {
        match self.span() {
            None => true,
            Some((lo, hi)) => lo >= 0 && (hi as usize) < len,
        }
    }

    /// Whether two coordinates may reach the same element. `false` is a proof that they cannot:
    /// ordered by |stride|, each dim of size > 1 steps past everything the smaller ones reach
    /// (the sufficient test PyTorch also uses). `true` means they do (a stride-0 dim of size > 1,
    /// as `expand` makes) or the test cannot tell; an empty layout reaches nothing, so never
    /// overlaps.
    pub fn may_overlap(&self) -> bool {
        if self.numel() == 0 {
            return false;
        }
        let mut dims: [(usize, usize); MAX_RANK] = [(1, 0); MAX_RANK];
        let mut r = 0;
        for (&n, &s) in self.sizes().iter().zip(self.strides()) {
            if n > 1 {
                dims[r] = (s.unsigned_abs(), n);
                r += 1;
            }
        }
        let dims = &mut dims[..r];
        dims.sort_unstable();
        // Bounded by the reach (invariant 3), so no overflow.
        let mut reached: usize = 0;
        for &(s, n) in dims.iter() {
            if s <= reached {
                return true;
            }
            reached += (n - 1) * s;
        }
        false
    }

    /// The flat buffer offset of a coordinate (no bounds check on the coordinate).
    #[inline]
    pub(crate) fn offset_of(&self, index: &[usize]) -> usize {
        let mut o = self.offset as isize;
        for (i, &s) in index.iter().zip(self.strides()) {
            o += *i as isize * s;
        }
        o as usize
    }

    /// Checks a coordinate given as integers of any type (negative counts from the end, as
    /// PyTorch's `x[-1, 0]`) against the sizes and returns its buffer offset.
    ///
    /// # Errors
    /// As [`checked_offset`](Self::checked_offset); [`ShapeError::Index`] names the coordinate
    /// as given.
    pub fn checked_offset_of<I: crate::element::ToIndex>(&self, index: &[I]) -> Result<usize, ShapeError> {
        if index.len() != self.rank {
            return self.checked_offset(&[0; MAX_RANK + 1][..index.len().min(MAX_RANK + 1)]);
        }
        let mut c = [0usize; MAX_RANK];
        for (axis, (v, &n)) in index.iter().zip(self.sizes()).enumerate() {
            let given = v.to_i128();
            let j = if given < 0 { given + n as i128 } else { given };
            if j < 0 || j >= n as i128 {
                return Err(ShapeError::Index { index: given, axis, size: n });
            }
            c[axis] = j as usize;
        }
        Ok(self.offset_of(&c[..self.rank]))
    }

    /// Checks a coordinate against the sizes and returns its buffer offset.
    ///
    /// # Errors
    /// [`ShapeError::TooManyIndices`]/[`ShapeError::Invalid`] on a rank mismatch,
    /// [`ShapeError::Index`] on a coordinate out of bounds.
    pub fn checked_offset(&self, index: &[usize]) -> Result<usize, ShapeError> {
        if index.len() != self.rank {
            return Err(if index.len() > self.rank {
                ShapeError::TooManyIndices { given: index.len(), rank: self.rank }
            } else {
                ShapeError::Invalid(alloc::format!(
                    "an index of {} coordinates for a tensor of rank {}",
                    index.len(),
                    self.rank
                ))
            });
        }
        for (axis, (&i, &n)) in index.iter().zip(self.sizes()).enumerate() {
            if i >= n {
                return Err(ShapeError::Index { index: i as i128, axis, size: n });
            }
        }
        Ok(self.offset_of(index))
    }
}

impl Layout {
    /// A layout from full-length arrays that the caller derived from the valid layout at
    /// `source_offset` by basic indexing (each dim kept, sliced, or new with size 1; `offset` a
    /// reachable offset when the result is not empty), so it keeps the invariant; an empty result
    /// keeps the source's offset ([`settle`](Self::settle)). Entries past `rank` must be size 1,
    /// stride 0. Whole arrays, so no copy of run-time length.
    #[inline(always)]
    pub(crate) fn from_arrays(
        sizes: [usize; MAX_RANK],
        strides: [isize; MAX_RANK],
        rank: usize,
        offset: isize,
        source_offset: usize,
    ) -> Layout {
        Layout { sizes, strides, rank, offset: 0 }.settle(offset, source_offset)
    }
}
