//! [`Layout`]: sizes, strides (in elements, possibly negative or zero) and an offset into a flat
//! buffer. Every piece of stride arithmetic in the crate lives in this file: view construction
//! (permute, select, narrow, slice, squeeze, unsqueeze, expand, view) and the strided walk that
//! the kernels use. Kernels see a `Layout` and a slice, never a shape type.
//!
//! Invariant kept by every constructor here: for a layout with at least one element, every
//! reachable offset `offset + sum(i_k * stride_k)` is non-negative, and the tensor types only
//! pair a layout with a buffer it fits ([`Layout::fits`]).
use crate::error::ShapeError;
use crate::shape::MAX_RANK;
use alloc::vec::Vec;

/// Sizes, strides and offset of a strided tensor (rank at most [`MAX_RANK`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Layout {
    sizes: [usize; MAX_RANK],
    strides: [isize; MAX_RANK],
    rank: usize,
    offset: usize,
}

/// Normalises a possibly negative axis (`-1` is the last) against `rank` (PyTorch's `dim`
/// argument convention).
///
/// # Errors
/// [`ShapeError::Axis`] when `axis` is outside `-rank..rank`.
pub fn normalize_axis(axis: isize, rank: usize) -> Result<usize, ShapeError> {
    let a = if axis < 0 { axis + rank as isize } else { axis };
    if a < 0 || a as usize >= rank {
        return Err(ShapeError::Axis { axis, rank });
    }
    Ok(a as usize)
}

impl Layout {
    /// A row-major contiguous layout (PyTorch's default strides) at offset 0.
    ///
    /// # Errors
    /// [`ShapeError::RankTooLarge`] for more than 6 dims; [`ShapeError::Overflow`] when the
    /// element count does not fit `isize`.
    pub fn contiguous(sizes: &[usize]) -> Result<Layout, ShapeError> {
        if sizes.len() > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: sizes.len() });
        }
        let mut l = Layout { sizes: [1; MAX_RANK], strides: [0; MAX_RANK], rank: sizes.len(), offset: 0 };
        let mut s: usize = 1;
        for i in (0..sizes.len()).rev() {
            l.sizes[i] = sizes[i];
            l.strides[i] = s as isize;
            s = s.checked_mul(sizes[i].max(1)).ok_or_else(|| ShapeError::Overflow { sizes: sizes.into() })?;
        }
        if s > isize::MAX as usize {
            return Err(ShapeError::Overflow { sizes: sizes.into() });
        }
        Ok(l)
    }

    /// Builds a layout from parts, checking the rank and that no reachable offset is negative.
    ///
    /// # Errors
    /// [`ShapeError::RankTooLarge`], [`ShapeError::Overflow`], or [`ShapeError::Invalid`] when a
    /// reachable offset is negative.
    pub fn from_parts(sizes: &[usize], strides: &[isize], offset: usize) -> Result<Layout, ShapeError> {
        if sizes.len() > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: sizes.len() });
        }
        if sizes.len() != strides.len() {
            return Err(ShapeError::Invalid(alloc::format!("{} sizes but {} strides", sizes.len(), strides.len())));
        }
        let mut l = Layout { sizes: [1; MAX_RANK], strides: [0; MAX_RANK], rank: sizes.len(), offset };
        l.sizes[..sizes.len()].copy_from_slice(sizes);
        l.strides[..sizes.len()].copy_from_slice(strides);
        match l.span() {
            Some((lo, _)) if lo < 0 => {
                Err(ShapeError::Invalid(alloc::format!("layout {l:?} reaches a negative offset")))
            }
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

    /// The lowest and highest reachable offsets, or `None` for an empty layout.
    pub fn span(&self) -> Option<(isize, isize)> {
        if self.sizes().contains(&0) {
            return None;
        }
        let (mut lo, mut hi) = (self.offset as isize, self.offset as isize);
        for (&n, &s) in self.sizes().iter().zip(self.strides()) {
            let reach = (n as isize - 1) * s;
            if reach < 0 {
                lo += reach;
            } else {
                hi += reach;
            }
        }
        Some((lo, hi))
    }

    /// Whether every reachable offset lies in a buffer of `len` elements.
    pub fn fits(&self, len: usize) -> bool {
        match self.span() {
            None => self.offset <= len,
            Some((lo, hi)) => lo >= 0 && (hi as usize) < len,
        }
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
                return Err(ShapeError::Index { index: i as isize, axis, size: n });
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
        let i = if index < 0 { index + n as isize } else { index };
        if i < 0 || i as usize >= n {
            return Err(ShapeError::Index { index, axis, size: n });
        }
        let mut l = self.remove(axis);
        l.offset = (self.offset as isize + i * self.strides[axis]) as usize;
        Ok(l)
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
            return Err(ShapeError::Range { start, end: s.saturating_add(len as isize), axis, size: n });
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
        l.offset = (self.offset as isize + off) as usize;
        l.sizes[axis] = len;
        l.strides[axis] = stride;
        Ok(l)
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
        // The stride of a size-1 dim is never used to step; PyTorch uses size*stride of the next.
        l.strides[axis] = if axis < self.rank { self.strides[axis] * self.sizes[axis] as isize } else { 1 };
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
        if to.len() < self.rank || to.len() > MAX_RANK {
            return Err(err());
        }
        // The element count must stay representable, as for every other layout.
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
        let mut l = Layout { offset: self.offset, ..new };
        if numel == 0 || self.rank == 0 || self.sizes() == to {
            if self.sizes() == to {
                return Ok(*self);
            }
            return Ok(l);
        }
        let (os, ost) = (self.sizes(), self.strides());
        let mut view_d = to.len() as isize - 1;
        let mut chunk_base = ost[self.rank - 1];
        let (mut tensor_numel, mut view_numel) = (1usize, 1usize);
        for td in (0..self.rank).rev() {
            tensor_numel *= os[td];
            if td == 0 || (os[td - 1] != 1 && ost[td - 1] != tensor_numel as isize * chunk_base) {
                while view_d >= 0 && (view_numel < tensor_numel || to[view_d as usize] == 1) {
                    l.strides[view_d as usize] = view_numel as isize * chunk_base;
                    view_numel *= to[view_d as usize];
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

    /// Gives `axis` stride 0 (an accumulator that every position along `axis` maps to).
    pub(crate) fn zero_stride(&self, axis: usize) -> Layout {
        let mut l = *self;
        l.strides[axis] = 0;
        l
    }
}

/// Visits the element offsets of `K` layouts over common `sizes`, one call per element, in an
/// order chosen from the strides of operand 0 (largest stride outermost) with mergeable dims
/// coalesced. Each layout gives its strides for `sizes` (use [`Layout::expand`] to broadcast).
pub(crate) fn walk<const K: usize>(sizes: &[usize], layouts: [&Layout; K], mut f: impl FnMut([usize; K])) {
    if sizes.contains(&0) {
        return;
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
    let base: [isize; K] = core::array::from_fn(|k| layouts[k].offset as isize);
    if m == 0 {
        f(base.map(|o| o as usize));
        return;
    }
    let (inner_n, inner_st) = merged[m - 1];
    let outer = &merged[..m - 1];
    let mut idx = [0usize; MAX_RANK];
    let mut off = base;
    loop {
        let mut o = off;
        for _ in 0..inner_n {
            f(o.map(|v| v as usize));
            for k in 0..K {
                o[k] += inner_st[k];
            }
        }
        // Odometer over the outer dims.
        let mut d = outer.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            let (n, st) = outer[d];
            for (o, s) in off.iter_mut().zip(st) {
                *o += s;
            }
            if idx[d] < n {
                break;
            }
            for (o, s) in off.iter_mut().zip(st) {
                *o -= s * n as isize;
            }
            idx[d] = 0;
        }
    }
}

/// Per-dim index arithmetic shared by `t!` and [`SliceArg`](crate::SliceArg): the offset step of
/// index `i` (negative counts from the end) in a dim of `size` elements and `stride`.
#[inline(always)]
pub(crate) fn index_offset(i: isize, size: usize, stride: isize, axis: usize) -> Result<isize, ShapeError> {
    let j = if i < 0 { i + size as isize } else { i };
    if j < 0 || j as usize >= size {
        return Err(ShapeError::Index { index: i, axis, size });
    }
    Ok(j * stride)
}

/// Per-dim range arithmetic shared by `t!` and [`SliceArg`](crate::SliceArg): for `start..end`
/// (already normalised, `0 <= start <= end <= size`) and a non-zero `step` (negative walks from the
/// last element back to the first), returns `(offset step, length, new stride)`.
#[inline(always)]
pub(crate) fn range_dim(start: usize, end: usize, step: isize, stride: isize) -> (isize, usize, isize) {
    let len = (end - start).div_ceil(step.unsigned_abs());
    let first = if step > 0 || len == 0 { start } else { end - 1 };
    let off = if len == 0 { 0 } else { first as isize * stride };
    (off, len, stride * step)
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
        return Err(ShapeError::Range { start: start.unwrap_or(0), end: end.unwrap_or(n), axis, size });
    }
    Ok((s as usize, e as usize))
}

impl Layout {
    /// A layout from full-length arrays that the caller derived from a valid layout (no checks;
    /// entries past `rank` must be size 1, stride 0). Whole arrays, so no copy of run-time length.
    #[inline(always)]
    pub(crate) fn from_arrays(
        sizes: [usize; MAX_RANK],
        strides: [isize; MAX_RANK],
        rank: usize,
        offset: isize,
    ) -> Layout {
        Layout { sizes, strides, rank, offset: offset as usize }
    }
}
