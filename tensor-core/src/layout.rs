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
use alloc::vec::Vec;

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

/// Runtime broadcast of two size lists (shared by the static and dynamic front ends).
///
/// # Errors
/// [`ShapeError::Broadcast`] when a pair of aligned sizes differs and neither is 1.
pub fn broadcast_sizes(a: &[usize], b: &[usize]) -> Result<([usize; MAX_RANK], usize), ShapeError> {
    let r = a.len().max(b.len());
    if r > MAX_RANK {
        return Err(ShapeError::RankTooLarge { rank: r });
    }
    let mut out = [1usize; MAX_RANK];
    for (i, o) in out.iter_mut().enumerate().take(r) {
        let da = if i + a.len() >= r { a[i + a.len() - r] } else { 1 };
        let db = if i + b.len() >= r { b[i + b.len() - r] } else { 1 };
        *o = if da == db || db == 1 {
            da
        } else if da == 1 {
            db
        } else {
            return Err(ShapeError::Broadcast { lhs: a.into(), rhs: b.into() });
        };
    }
    Ok((out, r))
}

/// Normalises a possibly negative axis (`-1` is the last) against `rank` (PyTorch's `dim`
/// argument convention).
///
/// # Errors
/// [`ShapeError::Axis`] when `axis` is outside `-rank..rank`.
pub fn normalize_axis(axis: isize, rank: usize) -> Result<usize, ShapeError> {
    let a = if axis < 0 { axis.checked_add(rank as isize) } else { Some(axis) };
    match a {
        Some(a) if a >= 0 && (a as usize) < rank => Ok(a as usize),
        _ => Err(ShapeError::Axis { axis, rank }),
    }
}

/// Normalises an insertion point (`unsqueeze`, `stack`: `0..=rank`, negative counts from past
/// the end, so `-1` inserts after the last dim, as PyTorch).
///
/// # Errors
/// [`ShapeError::InsertAxis`] when `axis` is outside `-(rank + 1)..=rank`.
pub fn normalize_insert_axis(axis: isize, rank: usize) -> Result<usize, ShapeError> {
    normalize_axis(axis, rank + 1).map_err(|_| ShapeError::InsertAxis { axis, rank })
}

/// The product of `max(size, 1)` (the element count of the non-empty part), if it fits `isize`.
fn checked_count(sizes: &[usize]) -> Option<usize> {
    let mut n: usize = 1;
    for &s in sizes {
        n = n.checked_mul(s.max(1))?;
    }
    (n <= isize::MAX as usize).then_some(n)
}

/// `offset + sum(max(n, 1) - 1) * |s|` in 128 bits (it cannot overflow there: at most
/// 2^64 + 6 * 2^64 * 2^63).
fn reach_i128(sizes: &[usize], strides: &[isize], offset: usize) -> i128 {
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

    fn axis(&self, axis: usize) -> Result<usize, ShapeError> {
        if axis >= self.rank {
            return Err(ShapeError::Axis { axis: axis as isize, rank: self.rank });
        }
        Ok(axis)
    }

    /// Reorders the dims: dim `i` of the result is dim `axes[i]` (PyTorch `permute`).
    ///
    /// # Errors
    /// [`ShapeError::Permutation`] unless `axes` holds each of `0..rank` once.
    pub fn permute(&self, axes: &[usize]) -> Result<Layout, ShapeError> {
        let mut seen = [false; MAX_RANK];
        if axes.len() != self.rank || axes.iter().any(|&a| a >= self.rank || core::mem::replace(&mut seen[a], true)) {
            return Err(ShapeError::Permutation { axes: axes.into(), rank: self.rank });
        }
        let mut l = *self;
        for (i, &a) in axes.iter().enumerate() {
            l.sizes[i] = self.sizes[a];
            l.strides[i] = self.strides[a];
        }
        Ok(l)
    }

    /// Swaps dims `a` and `b` (PyTorch `transpose`).
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for an axis out of range.
    pub fn transpose(&self, a: usize, b: usize) -> Result<Layout, ShapeError> {
        let (a, b) = (self.axis(a)?, self.axis(b)?);
        let mut l = *self;
        l.sizes.swap(a, b);
        l.strides.swap(a, b);
        Ok(l)
    }

    /// Removes dim `axis` at position `index` (negative counts from the end): PyTorch `select`.
    ///
    /// # Errors
    /// [`ShapeError::Axis`], or [`ShapeError::Index`] when the index is out of bounds.
    pub fn select(&self, axis: usize, index: isize) -> Result<Layout, ShapeError> {
        let axis = self.axis(axis)?;
        let n = self.sizes[axis];
        let step = index_offset(index, n, self.strides[axis], axis)?;
        // A coordinate of `self` (bounded reach): no overflow; `settle` keeps the source offset
        // when the result is empty (then `step` may lead outside the buffer).
        Ok(self.remove(axis).settle(self.offset as isize + step, self.offset))
    }

    /// Sets the offset of a derived layout. A non-empty result's `offset` is a reachable offset
    /// of the source, so non-negative. An empty result's may lie outside the buffer (computed from
    /// an empty dim's neighbours), which is harmless (it is never read) unless it is negative:
    /// then the source's offset is kept. Either way the invariant holds: the offset and the
    /// result's reach stay within the source's.
    #[inline(always)]
    pub(crate) fn settle(mut self, offset: isize, source_offset: usize) -> Layout {
        debug_assert!(offset >= 0 || self.sizes.contains(&0), "a non-empty derived layout reaches a negative offset");
        self.offset = if offset < 0 { source_offset } else { offset as usize };
        self
    }

    /// Dim `axis` without any movement of the offset (the reductions' result layout).
    pub(crate) fn remove(&self, axis: usize) -> Layout {
        let mut l = *self;
        for k in axis..self.rank - 1 {
            l.sizes[k] = self.sizes[k + 1];
            l.strides[k] = self.strides[k + 1];
        }
        l.rank -= 1;
        l.sizes[l.rank] = 1;
        l.strides[l.rank] = 0;
        l
    }

    /// Keeps elements `start..start + len` of dim `axis` (PyTorch `narrow`; negative `start`
    /// counts from the end).
    ///
    /// # Errors
    /// [`ShapeError::Axis`], or [`ShapeError::Range`] when the range leaves the dim.
    pub fn narrow(&self, axis: usize, start: isize, len: usize) -> Result<Layout, ShapeError> {
        let axis = self.axis(axis)?;
        let n = self.sizes[axis];
        let s = if start < 0 { start + n as isize } else { start };
        if s < 0 || s as usize > n || len > n - s as usize {
            let s = if start < 0 { start as i128 + n as i128 } else { start as i128 };
            return Err(ShapeError::Range { start: start as i128, end: s + len as i128, axis, size: n });
        }
        self.slice(axis, Some(s), Some(s + len as isize), 1)
    }

    /// Slices dim `axis` with Python-style bounds `start..end` (negative bounds count from the
    /// end; `None` means the whole side) and a non-zero `step`. A negative step walks the range
    /// backwards, from its last element to its first (this crate's convention: the range
    /// `a..b` names the same elements for either sign of the step).
    ///
    /// # Errors
    /// [`ShapeError::Range`] when a bound is outside `0..=size` or start > end;
    /// [`ShapeError::ZeroStep`].
    pub fn slice(
        &self,
        axis: usize,
        start: Option<isize>,
        end: Option<isize>,
        step: isize,
    ) -> Result<Layout, ShapeError> {
        let axis = self.axis(axis)?;
        if step == 0 {
            return Err(ShapeError::ZeroStep { axis });
        }
        let (s, e) = range_bounds(start, end, self.sizes[axis], axis)?;
        let (off, len, stride) = range_dim(s, e, step, self.strides[axis]);
        let mut l = *self;
        l.sizes[axis] = len;
        l.strides[axis] = stride;
        Ok(l.settle(self.offset as isize + off, self.offset))
    }

    /// Inserts a size-1 dim at `axis` (`0..=rank`): PyTorch `unsqueeze`.
    ///
    /// # Errors
    /// [`ShapeError::Axis`], [`ShapeError::RankTooLarge`].
    pub fn unsqueeze(&self, axis: usize) -> Result<Layout, ShapeError> {
        if axis > self.rank {
            return Err(ShapeError::Axis { axis: axis as isize, rank: self.rank });
        }
        if self.rank == MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: self.rank + 1 });
        }
        let mut l = *self;
        for k in (axis..self.rank).rev() {
            l.sizes[k + 1] = self.sizes[k];
            l.strides[k + 1] = self.strides[k];
        }
        l.sizes[axis] = 1;
        // The stride of a size-1 dim is never used to step; PyTorch uses size*stride of the next
        // (1 where that product does not fit: any value addresses the same elements).
        l.strides[axis] =
            if axis < self.rank { self.strides[axis].checked_mul(self.sizes[axis] as isize).unwrap_or(1) } else { 1 };
        l.rank += 1;
        Ok(l)
    }

    /// Removes the size-1 dim `axis`: PyTorch `squeeze(dim)`.
    ///
    /// # Errors
    /// [`ShapeError::Axis`], or [`ShapeError::Squeeze`] when the size is not 1.
    pub fn squeeze(&self, axis: usize) -> Result<Layout, ShapeError> {
        let axis = self.axis(axis)?;
        if self.sizes[axis] != 1 {
            return Err(ShapeError::Squeeze { axis, sizes: self.sizes().into() });
        }
        Ok(self.remove(axis))
    }

    /// Broadcasts to `to` (aligned from the right; size-1 and missing dims get stride 0): PyTorch
    /// `expand`.
    ///
    /// # Errors
    /// [`ShapeError::Expand`] when a dim is neither equal to its target nor 1, or `to` is shorter;
    /// [`ShapeError::Overflow`] when the element count of `to` overflows.
    pub fn expand(&self, to: &[usize]) -> Result<Layout, ShapeError> {
        let err = || ShapeError::Expand { from: self.sizes().into(), to: to.into() };
        if to.len() > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: to.len() });
        }
        if to.len() < self.rank {
            return Err(err());
        }
        // Invariant 2 for the new element count; new and stretched dims get stride 0, kept dims
        // keep theirs, so the reach does not grow (invariant 3).
        Layout::contiguous(to)?;
        let lead = to.len() - self.rank;
        let mut l = Layout { sizes: [1; MAX_RANK], strides: [0; MAX_RANK], rank: to.len(), offset: self.offset };
        for (i, &t) in to.iter().enumerate() {
            l.sizes[i] = t;
            if i >= lead {
                let (n, s) = (self.sizes[i - lead], self.strides[i - lead]);
                l.strides[i] = if n == t {
                    s
                } else if n == 1 {
                    0
                } else {
                    return Err(err());
                };
            }
        }
        Ok(l)
    }

    /// A value's layout stretched to an assignment target of sizes `to` (PyTorch `copy_`,
    /// `x[idx] = v`, `x += v`): leading size-1 dims beyond the target's rank are dropped, then the
    /// value is expanded as [`expand`](Self::expand) does.
    ///
    /// # Errors
    /// [`ShapeError::Expand`] naming the value's and the target's sizes.
    pub fn expand_for_assign(&self, to: &[usize]) -> Result<Layout, ShapeError> {
        let mut l = *self;
        while l.rank > to.len() && l.sizes[0] == 1 {
            l = l.remove(0);
        }
        l.expand(to).map_err(|_| ShapeError::Expand { from: self.sizes().into(), to: to.into() })
    }

    /// The same elements with sizes `to`, without copying (PyTorch `view`, its `computeStride`
    /// rule: each run of merged dims must be contiguous with itself).
    ///
    /// # Errors
    /// [`ShapeError::Reshape`] when the element counts differ; [`ShapeError::View`] when the
    /// strides cannot express `to` (the data must be copied: `contiguous()` or `reshape`).
    pub fn view(&self, to: &[usize]) -> Result<Layout, ShapeError> {
        let numel = self.numel();
        let new = Layout::contiguous(to)?;
        if new.numel() != numel {
            return Err(ShapeError::Reshape {
                from: self.sizes().into(),
                to: to.iter().map(|&n| n as isize).collect(),
            });
        }
        if self.sizes() == to {
            return Ok(*self);
        }
        if numel == 0 {
            // Nothing is addressed, so the offset is free: 0, with the row-major strides of `to`,
            // keeps the reach inside isize (the source's offset plus those strides may not).
            return Ok(new);
        }
        let mut l = Layout { offset: self.offset, ..new };
        if self.rank == 0 {
            return Ok(l);
        }
        let (os, ost) = (self.sizes(), self.strides());
        let mut view_d = to.len() as isize - 1;
        let mut chunk_base = ost[self.rank - 1];
        let (mut tensor_numel, mut view_numel) = (1usize, 1usize);
        for td in (0..self.rank).rev() {
            tensor_numel *= os[td];
            // `tensor_numel * chunk_base` is one step past the chunk: it may not fit, and then it
            // cannot equal a stride either.
            let next = (tensor_numel as isize).checked_mul(chunk_base);
            if td == 0 || (os[td - 1] != 1 && Some(ost[td - 1]) != next) {
                while view_d >= 0 && (view_numel < tensor_numel || to[view_d as usize] == 1) {
                    // Inside the chunk's reach, except for a trailing size-1 dim, whose stride is
                    // never stepped along (any value then).
                    l.strides[view_d as usize] = (view_numel as isize).checked_mul(chunk_base).unwrap_or(1);
                    view_numel = view_numel.saturating_mul(to[view_d as usize]);
                    view_d -= 1;
                }
                if view_numel != tensor_numel {
                    return Err(ShapeError::View { sizes: os.into(), strides: ost.into(), to: to.into() });
                }
                if td > 0 {
                    chunk_base = ost[td - 1];
                    tensor_numel = 1;
                    view_numel = 1;
                }
            }
        }
        if view_d != -1 {
            return Err(ShapeError::View { sizes: os.into(), strides: ost.into(), to: to.into() });
        }
        Ok(l)
    }

    /// Resolves one `-1` in a requested shape against the element count (PyTorch `infer_size`).
    ///
    /// # Errors
    /// [`ShapeError::Reshape`] when the counts cannot match, or more than one `-1` is given, or a
    /// size is negative.
    pub fn infer_sizes(&self, to: &[isize]) -> Result<Vec<usize>, ShapeError> {
        let numel = self.numel();
        let err = || ShapeError::Reshape { from: self.sizes().into(), to: to.into() };
        let mut infer = None;
        let mut known: usize = 1;
        for (i, &d) in to.iter().enumerate() {
            match d {
                -1 if infer.is_none() => infer = Some(i),
                d if d >= 0 => known = known.checked_mul(d as usize).ok_or_else(err)?,
                _ => return Err(err()),
            }
        }
        let mut out: Vec<usize> = to.iter().map(|&d| d.max(0) as usize).collect();
        match infer {
            Some(i) if known != 0 && numel.is_multiple_of(known) => out[i] = numel / known,
            None if known == numel => {}
            _ => return Err(err()),
        }
        Ok(out)
    }

    /// The matrices of a `[..b, m, n]` layout (rank >= 2): the offset of each in row-major batch
    /// order (one offset for rank 2), and their `[m, n]` sizes and strides.
    pub(crate) fn matrices(&self) -> (Offsets, [usize; 2], [isize; 2]) {
        let r = self.rank;
        debug_assert!(r >= 2);
        let batch = Layout { rank: r - 2, ..*self };
        (Offsets::new(&batch), [self.sizes[r - 2], self.sizes[r - 1]], [self.strides[r - 2], self.strides[r - 1]])
    }

    /// The sub-layout at coordinate `idx` of the leading `idx.len()` dims, which are removed (a
    /// matrix of a batch). Each coordinate must be in range.
    ///
    /// # Errors
    /// [`ShapeError::Index`] for a coordinate out of range.
    pub(crate) fn select_leading(&self, idx: &[usize]) -> Result<Layout, ShapeError> {
        let mut l = *self;
        for &i in idx {
            l = l.select(0, i as isize)?;
        }
        Ok(l)
    }
}

/// The layouts of the Kronecker product of operands with sizes `a` and `b` (same rank): the
/// row-major product `out` (dim `i` of size `a[i] * b[i]`), `outer` (sizes `a`, strides
/// `out.strides[i] * b[i]`: where each element of the left operand starts its block) and `inner`
/// (sizes `b`, the strides of `out`: each element of the right operand's offset in a block). Element
/// `(i, j)` of the product lands at `outer(i) + inner(j)`.
///
/// # Errors
/// [`ShapeError::Overflow`] when the product's element count does not fit `isize`;
/// [`ShapeError::RankTooLarge`].
pub(crate) fn kron_layouts(a: &[usize], b: &[usize]) -> Result<(Layout, Layout, Layout), ShapeError> {
    debug_assert_eq!(a.len(), b.len());
    let mut sizes = [0usize; MAX_RANK];
    for (i, (&x, &y)) in a.iter().zip(b).enumerate().take(MAX_RANK) {
        sizes[i] = x.checked_mul(y).ok_or_else(|| ShapeError::Overflow { sizes: [a, b].concat() })?;
    }
    let out = Layout::contiguous(&sizes[..a.len()])?;
    let (mut outer, mut inner) = (out, out);
    for i in 0..a.len() {
        outer.sizes[i] = a[i];
        inner.sizes[i] = b[i];
        // Within the product's reach when it has elements (a block of `b[i]` rows of stride
        // `out.strides[i]`); an empty product is never walked.
        outer.strides[i] = out.strides[i].checked_mul(b[i] as isize).unwrap_or(0);
    }
    Ok((out, outer, inner))
}

/// Visits the element offsets of `K` layouts over common `sizes`, one call per element, in an
/// order chosen from the strides of operand 0 (largest stride outermost) with mergeable dims
/// coalesced. Each layout gives its strides for `sizes` (use [`Layout::expand`] to broadcast).
pub(crate) fn walk<const K: usize>(sizes: &[usize], layouts: [&Layout; K], mut f: impl FnMut([usize; K])) {
    walk_rows(sizes, layouts, |mut o, n, st| {
        for _ in 0..n {
            f(o);
            for k in 0..K {
                // The last step may leave the reach; it is never used (wrapping, not UB).
                o[k] = o[k].wrapping_add_signed(st[k]);
            }
        }
    });
}

/// As [`walk`], one call per row of the innermost (merged) loop instead of per element:
/// `f(first, n, strides)` covers the elements `first[k] + i * strides[k]` for `i < n` of each
/// operand `k`. Kernels pick a loop for the row from its strides (all 1: slices the compiler
/// vectorises; 0: a broadcast value), which the per-element form cannot. Kernels whose row body
/// is large iterate [`Rows`] themselves, so that the body is inlined into their loop.
pub(crate) fn walk_rows<const K: usize>(
    sizes: &[usize],
    layouts: [&Layout; K],
    mut f: impl FnMut([usize; K], usize, [isize; K]),
) {
    for (first, n, st) in Rows::new(sizes, layouts) {
        f(first, n, st)
    }
}

/// The rows of [`walk_rows`] as an iterator: `(first, n, strides)` per row of the innermost
/// (merged) loop, rows in the order of operand 0's strides (largest outermost), dims that every
/// operand steps through evenly coalesced.
pub(crate) struct Rows<const K: usize> {
    /// The outer (merged) dims: size and each operand's stride.
    outer: [(usize, [isize; K]); MAX_RANK],
    /// How many of `outer` are used.
    m: usize,
    /// The row length and strides.
    inner: (usize, [isize; K]),
    /// The odometer over the outer dims, and the offsets of the next row.
    idx: [usize; MAX_RANK],
    off: [isize; K],
    /// No rows left.
    done: bool,
}

impl<const K: usize> Rows<K> {
    /// The rows of `K` layouts over common `sizes` (each layout's strides for `sizes`).
    #[inline]
    pub(crate) fn new(sizes: &[usize], layouts: [&Layout; K]) -> Self {
        let base: [isize; K] = core::array::from_fn(|k| layouts[k].offset as isize);
        let mut rows = Rows {
            outer: [(1, [0; K]); MAX_RANK],
            m: 0,
            inner: (1, [0; K]),
            idx: [0; MAX_RANK],
            off: base,
            done: false,
        };
        if sizes.contains(&0) {
            rows.done = true;
            return rows;
        }
        // Collect the dims that move (size > 1), then order them by operand 0's stride.
        let mut dims: [(usize, [isize; K]); MAX_RANK] = [(1, [0; K]); MAX_RANK];
        let mut r = 0;
        for (d, &n) in sizes.iter().enumerate() {
            if n != 1 {
                dims[r] = (n, core::array::from_fn(|k| layouts[k].strides[d]));
                r += 1;
            }
        }
        let dims = &mut dims[..r];
        // Stable insertion sort: descending |stride| of operand 0 (row-major kept on ties).
        for i in 1..dims.len() {
            let mut j = i;
            while j > 0 && dims[j - 1].1[0].unsigned_abs() < dims[j].1[0].unsigned_abs() {
                dims.swap(j - 1, j);
                j -= 1;
            }
        }
        // Coalesce: dim i and i+1 merge when every operand steps over i+1 exactly into i.
        let mut merged: [(usize, [isize; K]); MAX_RANK] = [(1, [0; K]); MAX_RANK];
        let mut m = 0;
        for &(n, st) in dims.iter() {
            if m > 0 {
                let (pn, pst) = merged[m - 1];
                if (0..K).all(|k| pst[k] == st[k] * n as isize) {
                    merged[m - 1] = (pn * n, st);
                    continue;
                }
            }
            merged[m] = (n, st);
            m += 1;
        }
        if m > 0 {
            rows.inner = merged[m - 1];
            rows.m = m - 1;
            rows.outer[..m - 1].copy_from_slice(&merged[..m - 1]);
        }
        rows
    }

    /// The rows as at most two levels, when the merged dims are that few: `(count, strides)` of
    /// the rows, `(length, strides)` within a row, and the first row's offsets, so that a kernel
    /// can loop over them without the odometer. `None` for three or more levels or no rows.
    #[inline]
    pub(crate) fn two_level(&self) -> Option<((usize, [isize; K]), (usize, [isize; K]), [usize; K])> {
        if self.done || self.m > 1 {
            return None;
        }
        let outer = if self.m == 1 { self.outer[0] } else { (1, [0; K]) };
        // Every row start is an element of its layout: inside the buffer (the layout invariant).
        Some((outer, self.inner, self.off.map(|v| v as usize)))
    }
}

impl<const K: usize> Iterator for Rows<K> {
    type Item = ([usize; K], usize, [isize; K]);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        // Every row start is an element of its layout: inside the buffer (the layout invariant).
        let row = (self.off.map(|v| v as usize), self.inner.0, self.inner.1);
        // Odometer over the outer dims.
        let mut d = self.m;
        loop {
            if d == 0 {
                self.done = true;
                break;
            }
            d -= 1;
            self.idx[d] += 1;
            let (n, st) = self.outer[d];
            for (o, s) in self.off.iter_mut().zip(st) {
                *o += s;
            }
            if self.idx[d] < n {
                break;
            }
            for (o, s) in self.off.iter_mut().zip(st) {
                *o -= s * n as isize;
            }
            self.idx[d] = 0;
        }
        Some(row)
    }
}

/// Per-dim index arithmetic shared by `t!` and [`SliceArg`](crate::SliceArg): the offset step of
/// index `i` (negative counts from the end) in a dim of `size` elements and `stride`.
#[inline(always)]
pub(crate) fn index_offset(i: isize, size: usize, stride: isize, axis: usize) -> Result<isize, ShapeError> {
    let j = if i < 0 { i + size as isize } else { i };
    if j < 0 || j as usize >= size {
        return Err(ShapeError::Index { index: i as i128, axis, size });
    }
    // `j` is a coordinate of the dim: within the reach (invariant 3).
    Ok(j * stride)
}

/// Per-dim range arithmetic shared by `t!` and [`SliceArg`](crate::SliceArg): for `start..end`
/// (already normalised, `0 <= start <= end <= size`) and a non-zero `step` (negative walks from the
/// last element back to the first), returns `(offset step, length, new stride)`.
#[inline(always)]
pub(crate) fn range_dim(start: usize, end: usize, step: isize, stride: isize) -> (isize, usize, isize) {
    let len = (end - start).div_ceil(step.unsigned_abs());
    let first = if step > 0 || len == 0 { start } else { end - 1 };
    // `first` is a coordinate of the dim when len > 0, so `first * stride` is within the reach.
    let off = if len == 0 { 0 } else { first as isize * stride };
    // With len >= 2, |step| < end - start <= size, so |stride * step| * (len - 1) stays within
    // the dim's reach; with len <= 1 the stride is never stepped along and is kept as it is.
    (off, len, if len > 1 { stride * step } else { stride })
}

/// Normalises Python-style range bounds (`None` is open; negative counts from the end) against
/// `size`, checking them (never clamping).
#[inline(always)]
pub(crate) fn range_bounds(
    start: Option<isize>,
    end: Option<isize>,
    size: usize,
    axis: usize,
) -> Result<(usize, usize), ShapeError> {
    let n = size as isize;
    let norm = |v: isize| if v < 0 { v + n } else { v };
    let (s, e) = (start.map_or(0, norm), end.map_or(n, norm));
    if s < 0 || e > n || s > e {
        let (start, end) = (start.unwrap_or(0), end.unwrap_or(n));
        return Err(ShapeError::Range { start: start as i128, end: end as i128, axis, size });
    }
    Ok((s as usize, e as usize))
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

/// An advanced (tensor) index over `k` consecutive dims of a view: `index[j]` holds the
/// coordinates along dim `pos + j` (negative counts from the end), laid out row-major over
/// `sizes`. An integer index tensor has `k = 1`; a bool mask of rank `k` becomes `k` coordinate
/// lists of its true elements (PyTorch converts masks the same way, with `nonzero`).
#[derive(Clone, Debug, Default)]
pub struct AdvIndex {
    /// Position of the first indexed dim in the view.
    pub(crate) pos: usize,
    /// The source tensor's dim that the first indexed dim came from (for error messages).
    pub(crate) axis: usize,
    /// The shape of the index.
    pub(crate) sizes: Vec<usize>,
    /// One coordinate list per indexed dim.
    pub(crate) index: Vec<Vec<isize>>,
}

fn ravel_broadcast(coord: &[usize], sizes: &[usize]) -> usize {
    let lead = coord.len() - sizes.len();
    coord[lead..].iter().zip(sizes).fold(0, |acc, (&c, &n)| acc * n + if n == 1 { 0 } else { c })
}

/// Advanced indexing (PyTorch/NumPy rules): the index tensors broadcast together to a shape `B`;
/// when they index adjacent dims of `v`, `B` replaces those dims in place, otherwise `B` comes
/// first. Returns the result sizes and, for each result element in row-major order, its offset in
/// `v`'s buffer. `adv` must be sorted by position.
///
/// # Errors
/// [`ShapeError::Mismatch`] when the index shapes do not broadcast; [`ShapeError::Index`] for an
/// index out of bounds; [`ShapeError::RankTooLarge`]/[`ShapeError::Overflow`] for the result.
pub(crate) fn advanced_offsets(v: &Layout, adv: &[AdvIndex]) -> Result<(Vec<usize>, Vec<usize>), ShapeError> {
    let mut b: Vec<usize> = Vec::new();
    for a in adv {
        let (s, r) = broadcast_sizes(&b, &a.sizes).map_err(|_| ShapeError::Mismatch {
            op: "advanced indexing",
            what: "are index shapes that do not broadcast together".into(),
            lhs: b.clone(),
            rhs: a.sizes.clone(),
        })?;
        b = s[..r].to_vec();
    }
    let adjacent = adv.windows(2).all(|w| w[1].pos == w[0].pos + w[0].index.len());
    let mut is_adv = [false; MAX_RANK];
    for a in adv {
        for j in 0..a.index.len() {
            is_adv[a.pos + j] = true;
        }
    }
    let basic: Vec<usize> = (0..v.rank).filter(|&d| !is_adv[d]).collect();
    let b_start = if adjacent { adv.first().map_or(0, |a| a.pos) } else { 0 };
    let mut out: Vec<usize> = basic.iter().map(|&d| v.sizes[d]).collect();
    let insert_at = basic.iter().take_while(|&&d| d < b_start).count();
    let b_start = if adjacent { insert_at } else { 0 };
    for (k, &n) in b.iter().enumerate() {
        out.insert(b_start + k, n);
    }
    let out_layout = Layout::contiguous(&out)?;
    let numel = out_layout.numel();
    let mut offsets = crate::memory::try_with_capacity(numel)?;
    let mut coord = alloc::vec![0usize; out.len()];
    for p in 0..numel {
        let mut q = p;
        for d in (0..out.len()).rev() {
            coord[d] = q % out[d];
            q /= out[d];
        }
        let mut off = v.offset as isize;
        let (bc, rest_before, rest_after) =
            (&coord[b_start..b_start + b.len()], &coord[..b_start], &coord[b_start + b.len()..]);
        for (&c, &d) in rest_before.iter().chain(rest_after).zip(&basic) {
            off += c as isize * v.strides[d];
        }
        for a in adv {
            let ia = ravel_broadcast(bc, &a.sizes);
            for (j, idx) in a.index.iter().enumerate() {
                let d = a.pos + j;
                off += index_offset(idx[ia], v.sizes[d], v.strides[d], a.axis + j)?;
            }
        }
        offsets.push(off as usize);
    }
    Ok((out, offsets))
}

/// Stride arithmetic of `flip`, `movedim`, `diagonal`, `flatten`, `unflatten`, `split` and
/// `chunk`. Each result keeps the invariant of the module docs; an empty result keeps the source's
/// offset (no element is reachable, and the offset must stay inside the buffer).
impl Layout {
    /// Dim `axis` reversed: its stride negated and the offset moved to its last element (PyTorch
    /// `flip(axis)`, but a view: PyTorch copies).
    ///
    /// # Errors
    /// [`ShapeError::Axis`].
    pub fn flip(&self, axis: usize) -> Result<Layout, ShapeError> {
        let axis = self.axis(axis)?;
        let mut l = *self;
        // Exact for a dim of size >= 2 (|stride| is bounded by the reach); a stride that is never
        // stepped along (size <= 1) may be isize::MIN, and then any value will do.
        l.strides[axis] = self.strides[axis].wrapping_neg();
        if self.numel() > 0 {
            // The last coordinate of the dim: within the reach.
            l.offset = (self.offset as isize + (self.sizes[axis] as isize - 1) * self.strides[axis]) as usize;
        }
        Ok(l)
    }

    /// Every dim of `axes` reversed (negative axes count from the end): PyTorch `flip(dims)`, as a
    /// view.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when an axis appears twice.
    pub fn flip_axes(&self, axes: &[isize]) -> Result<Layout, ShapeError> {
        let mut seen = [false; MAX_RANK];
        let mut l = *self;
        for &a in axes {
            let k = normalize_axis(a, self.rank)?;
            if core::mem::replace(&mut seen[k], true) {
                return Err(ShapeError::Invalid(alloc::format!("flip: axis {k} appears more than once in {axes:?}")));
            }
            l = l.flip(k)?;
        }
        Ok(l)
    }

    /// Dim `src` moved to position `dst`, the others keeping their order (PyTorch `movedim`).
    ///
    /// # Errors
    /// [`ShapeError::Axis`].
    pub fn movedim(&self, src: usize, dst: usize) -> Result<Layout, ShapeError> {
        let (src, dst) = (self.axis(src)?, self.axis(dst)?);
        let mut l = *self;
        if src < dst {
            for k in src..dst {
                (l.sizes[k], l.strides[k]) = (self.sizes[k + 1], self.strides[k + 1]);
            }
        } else {
            for k in (dst + 1..=src).rev() {
                (l.sizes[k], l.strides[k]) = (self.sizes[k - 1], self.strides[k - 1]);
            }
        }
        (l.sizes[dst], l.strides[dst]) = (self.sizes[src], self.strides[src]);
        Ok(l)
    }

    /// The diagonal of dims `d1` and `d2` (PyTorch `diagonal(offset, d1, d2)`): both dims removed,
    /// a last dim appended with stride `stride[d1] + stride[d2]`. `offset > 0` starts above the
    /// main diagonal (at column `offset` of dim `d2`), `offset < 0` below it; an offset past the
    /// edge gives an empty diagonal, as in PyTorch.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when `d1 == d2`.
    pub fn diagonal(&self, d1: usize, d2: usize, offset: isize) -> Result<Layout, ShapeError> {
        let (d1, d2) = (self.axis(d1)?, self.axis(d2)?);
        if d1 == d2 {
            return Err(ShapeError::Invalid(alloc::format!("diagonal: the two axes must differ, got {d1} and {d2}")));
        }
        let (n1, n2) = (self.sizes[d1] as isize, self.sizes[d2] as isize);
        let (s1, s2) = (self.strides[d1], self.strides[d2]);
        let len = if offset >= 0 { n1.min(n2.saturating_sub(offset)) } else { n1.saturating_add(offset).min(n2) };
        let len = len.max(0) as usize;
        let mut l = self.remove(d1.max(d2)).remove(d1.min(d2));
        l.sizes[l.rank] = len;
        // Only stepped along when len > 1, and then (len - 1) * |s1 + s2| is at most the reach of
        // the two dims; with len <= 1 any value will do.
        l.strides[l.rank] = s1.wrapping_add(s2);
        l.rank += 1;
        if l.numel() > 0 {
            let shift = if offset >= 0 { offset * s2 } else { -offset * s1 };
            l.offset = (self.offset as isize + shift) as usize;
        }
        Ok(l)
    }

    /// The sizes after merging dims `start..=end` into one (PyTorch `flatten(start, end)`); a
    /// scalar flattens to `[1]` whatever the axes. Returns the sizes and the new rank; the caller
    /// views or copies ([`Layout::view`]).
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when `start > end`.
    pub fn flatten_sizes(&self, start: usize, end: usize) -> Result<([usize; MAX_RANK], usize), ShapeError> {
        let mut out = [1usize; MAX_RANK];
        if self.rank == 0 {
            return Ok((out, 1));
        }
        let (start, end) = (self.axis(start)?, self.axis(end)?);
        if start > end {
            return Err(ShapeError::Invalid(alloc::format!("flatten: start axis {start} comes after end axis {end}")));
        }
        let mut k = 0;
        for i in 0..self.rank {
            if i <= start || i > end {
                out[k] = self.sizes[i];
                k += 1;
            } else {
                out[k - 1] *= self.sizes[i];
            }
        }
        Ok((out, k))
    }

    /// Dim `axis` split into `sizes` (one of them may be `-1`, inferred): PyTorch
    /// `unflatten(axis, sizes)`. Always a view: each new dim steps over the ones after it.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] for no sizes; [`ShapeError::RankTooLarge`];
    /// [`ShapeError::Reshape`] (naming the whole requested shape) when the sizes do not multiply
    /// to the dim, more than one is `-1`, or one is below `-1`; [`ShapeError::Overflow`].
    pub fn unflatten(&self, axis: usize, sizes: &[isize]) -> Result<Layout, ShapeError> {
        let axis = self.axis(axis)?;
        if sizes.is_empty() {
            return Err(ShapeError::Invalid("unflatten: the new sizes must not be empty".into()));
        }
        let rank = self.rank - 1 + sizes.len();
        if rank > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank });
        }
        let err = || {
            let old = self.sizes().iter().map(|&n| n as isize);
            let to = old.clone().take(axis).chain(sizes.iter().copied()).chain(old.skip(axis + 1)).collect();
            ShapeError::Reshape { from: self.sizes().into(), to }
        };
        let n = self.sizes[axis];
        let (mut infer, mut known) = (None, 1usize);
        let mut new = [1usize; MAX_RANK];
        for (i, &d) in sizes.iter().enumerate() {
            match d {
                -1 if infer.is_none() => infer = Some(i),
                d if d >= 0 => {
                    new[i] = d as usize;
                    known = known.checked_mul(d as usize).ok_or_else(err)?;
                }
                _ => return Err(err()),
            }
        }
        match infer {
            Some(i) if known != 0 && n.is_multiple_of(known) => new[i] = n / known,
            None if known == n => {}
            _ => return Err(err()),
        }
        let mut l = Layout { sizes: [1; MAX_RANK], strides: [0; MAX_RANK], rank, offset: self.offset };
        let k = sizes.len();
        for i in 0..self.rank {
            let j = if i < axis {
                i
            } else if i > axis {
                i + k - 1
            } else {
                continue;
            };
            (l.sizes[j], l.strides[j]) = (self.sizes[i], self.strides[i]);
        }
        l.sizes[axis..axis + k].copy_from_slice(&new[..k]);
        // The element count stays representable (sizes next to a 0 could be anything).
        Layout::contiguous(l.sizes())?;
        let mut st = self.strides[axis];
        for j in (axis..axis + k).rev() {
            l.strides[j] = st;
            // Exact unless the dim is empty (then never stepped along); the reach is checked below.
            st = st.wrapping_mul(l.sizes[j] as isize);
        }
        // The new dims reach (n - 1) * |stride| when none is empty; when the split dim is empty
        // the other new sizes are arbitrary, so the reach is checked (invariant 3).
        if reach_i128(l.sizes(), l.strides(), l.offset) > isize::MAX as i128 {
            return Err(ShapeError::Overflow { sizes: l.sizes().into() });
        }
        Ok(l)
    }

    /// Elements `start..start + len` of dim `axis`, already checked to lie in it.
    fn part(&self, axis: usize, start: usize, len: usize) -> Layout {
        let mut l = *self;
        l.sizes[axis] = len;
        if l.numel() > 0 {
            l.offset = (self.offset as isize + start as isize * self.strides[axis]) as usize;
        }
        l
    }

    /// Dim `axis` cut into pieces of `size` elements, the last one possibly shorter (PyTorch
    /// `split(size, axis)`). An empty dim gives one empty piece, whatever the size.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when `size` is 0 and the dim is not empty.
    pub fn split(&self, axis: usize, size: usize) -> Result<Vec<Layout>, ShapeError> {
        let axis = self.axis(axis)?;
        let n = self.sizes[axis];
        if size == 0 && n != 0 {
            return Err(ShapeError::Invalid(alloc::format!(
                "split: the split size must be positive for dimension {axis} of size {n}, got 0"
            )));
        }
        let count = if size == 0 { 1 } else { n.div_ceil(size).max(1) };
        let mut out = crate::memory::try_with_capacity_uncached(count)?;
        out.extend((0..count).map(|i| self.part(axis, i * size, size.min(n - i * size))));
        Ok(out)
    }

    /// Dim `axis` cut into at most `chunks` pieces of `ceil(size / chunks)` elements (PyTorch
    /// `chunk(chunks, axis)`: fewer pieces when the division leaves some empty; an empty dim gives
    /// `chunks` empty pieces).
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when `chunks` is 0.
    pub fn chunk(&self, axis: usize, chunks: usize) -> Result<Vec<Layout>, ShapeError> {
        let axis = self.axis(axis)?;
        if chunks == 0 {
            return Err(ShapeError::Invalid("chunk: the number of chunks must be positive, got 0".into()));
        }
        let n = self.sizes[axis];
        if n == 0 {
            // PyTorch gives `chunks` empty pieces here; a count whose views cannot be allocated
            // is an error that says so.
            return crate::memory::try_vec_uncached(chunks, self.part(axis, 0, 0)).map_err(|e| {
                ShapeError::Invalid(alloc::format!(
                    "chunk: {chunks} chunks of the empty dim {axis} of {:?} are {chunks} empty views (as PyTorch \
                     gives), and that many cannot be allocated ({e})",
                    self.sizes()
                ))
            });
        }
        self.split(axis, n.div_ceil(chunks))
    }
}

/// One line of a tensor along an axis: `n` elements of `src` from `start` at `stride` (the
/// layout's own values, so every position is inside the buffer the layout was checked against).
pub(crate) struct Line<'a, T> {
    src: &'a [T],
    start: usize,
    stride: isize,
    /// The number of elements.
    pub(crate) n: usize,
}
impl<T: Copy> Line<'_, T> {
    /// Element `k < n` of the line.
    #[inline(always)]
    pub(crate) fn get(&self, k: usize) -> T {
        self.src[self.start.wrapping_add_signed(k as isize * self.stride)]
    }
    /// The line as a slice when its elements are adjacent.
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> Option<&[T]> {
        (self.stride == 1 || self.n <= 1).then(|| &self.src[self.start..self.start + self.n])
    }
}

/// Calls `f(line, out_line)` for every line of `src` (layout `l`) along `axis`, where `out_line`
/// is the same line of `out`, the row-major buffer of `l`'s sizes, as `(out, start, stride)`:
/// what scans (cumsum) and per-line normalisations (softmax) need.
pub(crate) fn for_each_line<T: Copy, U>(
    out: &mut [U],
    src: &[T],
    l: &Layout,
    axis: usize,
    mut f: impl FnMut(&Line<'_, T>, &mut [U], usize, usize),
) -> Result<(), ShapeError> {
    let sizes = l.sizes();
    let n = sizes[axis];
    if l.numel() == 0 {
        return Ok(());
    }
    let ol = Layout::contiguous(sizes)?;
    let mut lines = [1usize; MAX_RANK];
    lines[..sizes.len()].copy_from_slice(sizes);
    lines[axis] = 1;
    let (stride, ostride) = (l.strides()[axis], ol.strides()[axis] as usize);
    walk(&lines[..sizes.len()], [l, &ol], |[i, o]| {
        f(&Line { src, start: i, stride, n }, out, o, ostride);
    });
    Ok(())
}

/// The storage offsets of a layout in row-major logical order (an odometer over the
/// coordinates), with the coordinate of the next element.
#[derive(Clone, Debug)]
pub(crate) struct Offsets {
    sizes: [usize; MAX_RANK],
    strides: [isize; MAX_RANK],
    rank: usize,
    /// The coordinate of the element `next` addresses.
    idx: [usize; MAX_RANK],
    next: isize,
    remaining: usize,
}

impl Offsets {
    pub(crate) fn new(l: &Layout) -> Self {
        let mut sizes = [1; MAX_RANK];
        let mut strides = [0; MAX_RANK];
        sizes[..l.rank()].copy_from_slice(l.sizes());
        strides[..l.rank()].copy_from_slice(l.strides());
        Offsets { sizes, strides, rank: l.rank(), idx: [0; MAX_RANK], next: l.offset() as isize, remaining: l.numel() }
    }
    /// The coordinate of the element the next call to `next` returns.
    #[inline]
    pub(crate) fn index(&self) -> &[usize] {
        &self.idx[..self.rank]
    }
}

impl Iterator for Offsets {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        let o = self.next;
        self.remaining -= 1;
        if self.remaining > 0 {
            // Some coordinate is still below its size, so the odometer stops before dim 0 wraps.
            // Every offset it reaches is one of the layout's (bounded reach: no overflow).
            let mut d = self.rank;
            loop {
                d -= 1;
                self.idx[d] += 1;
                self.next += self.strides[d];
                if self.idx[d] < self.sizes[d] {
                    break;
                }
                self.next -= self.strides[d] * self.sizes[d] as isize;
                self.idx[d] = 0;
            }
        }
        Some(o as usize)
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}
impl ExactSizeIterator for Offsets {}
