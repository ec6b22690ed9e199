//! The views of a layout: permutations, selections, slices, expansions, reshapes, flips,
//! diagonals, splits. Each returns a layout that keeps the invariant of the module docs.
use super::{index_offset, normalize_axis, range_bounds, range_dim, reach_i128, Layout, Offsets};
use crate::error::ShapeError;
use crate::limits::MAX_RANK;
use alloc::vec::Vec;

impl Layout {
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
        let (sizes, rank) = self.infer_sizes_array(to)?;
        Ok(sizes[..rank].to_vec())
    }

    /// [`infer_sizes`](Self::infer_sizes) without allocating: the sizes in the first `rank`
    /// entries of an array, and that rank.
    ///
    /// # Errors
    /// As [`infer_sizes`](Self::infer_sizes); [`ShapeError::RankTooLarge`] for more than
    /// [`MAX_RANK`] sizes.
    pub fn infer_sizes_array(&self, to: &[isize]) -> Result<([usize; MAX_RANK], usize), ShapeError> {
        if to.len() > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: to.len() });
        }
        let err = || ShapeError::Reshape { from: self.sizes().into(), to: to.into() };
        Ok((fill_sizes(to, self.numel(), err)?, to.len()))
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
        let new = fill_sizes(sizes, self.sizes[axis], err)?;
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

/// Sliding windows (`unfold`, `windows`).
impl Layout {
    /// The windows of `size` elements of dim `axis`, `step` apart (PyTorch `unfold(axis, size,
    /// step)`): dim `axis` becomes `(n - size) / step + 1` with `step` times its stride, and a
    /// last dim of `size` with the old stride is appended. The windows overlap when `step < size`
    /// ([`may_overlap`](Self::may_overlap) then holds): such a layout is for reading only.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] naming the sizes when `size > n` or
    /// `step == 0`; [`ShapeError::RankTooLarge`] for a rank-6 layout.
    pub fn unfold(&self, axis: usize, size: usize, step: usize) -> Result<Layout, ShapeError> {
        let axis = self.axis(axis)?;
        let n = self.sizes[axis];
        if step == 0 || size > n {
            return Err(ShapeError::Invalid(alloc::format!(
                "unfold: a window of size {size} with step {step} does not fit dimension {axis} of size {n} (sizes {:?}): \
                 the size must be at most the dim and the step positive",
                self.sizes()
            )));
        }
        if self.rank == MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: self.rank + 1 });
        }
        let count = (n - size) / step + 1;
        let s = self.strides[axis];
        let mut l = *self;
        l.sizes[axis] = count;
        let overflow = || ShapeError::Overflow { sizes: self.sizes().into() };
        // Stepped only when `count > 1`; otherwise any value addresses the same elements.
        l.strides[axis] = if count > 1 { s.checked_mul(step as isize).ok_or_else(overflow)? } else { s };
        l.sizes[self.rank] = size;
        l.strides[self.rank] = s;
        l.rank += 1;
        // For `size >= 1` every coordinate is `i * step + j <= n - 1` along the source dim, a
        // subset of the source's elements, so the reach is no larger. For `size == 0` (empty, as
        // PyTorch allows) the window starts reach one stride further: checked here (invariant 3).
        if reach_i128(l.sizes(), l.strides(), l.offset) > isize::MAX as i128 {
            return Err(overflow());
        }
        Ok(l)
    }

    /// All windows of sizes `window` (one size per dim, ndarray's `windows`): dims
    /// `[n0 - w0 + 1, .., nk - wk + 1, w0, .., wk]`, each window dim with its source's stride.
    /// Overlapping unless every window is 1 along every dim of size > 1: for reading only.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the sizes when `window` has another length than the rank,
    /// a window size is 0 or larger than its dim; [`ShapeError::RankTooLarge`] when the result
    /// would have more than 6 dims.
    pub fn windows(&self, window: &[usize]) -> Result<Layout, ShapeError> {
        let r = self.rank;
        if window.len() != r || window.iter().zip(self.sizes()).any(|(&w, &n)| w == 0 || w > n) {
            return Err(ShapeError::Invalid(alloc::format!(
                "windows: window {window:?} does not fit sizes {:?}: one size per dim, each from 1 to the dim",
                self.sizes()
            )));
        }
        if 2 * r > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: 2 * r });
        }
        let mut l = *self;
        for (i, &w) in window.iter().enumerate() {
            l.sizes[i] = self.sizes[i] - w + 1;
            l.sizes[r + i] = w;
            l.strides[r + i] = self.strides[i];
        }
        l.rank = 2 * r;
        // Coordinate `i + j <= n - 1` per dim: a subset of the source's elements, so the reach
        // is no larger (invariant 3).
        debug_assert!(reach_i128(l.sizes(), l.strides(), l.offset) <= isize::MAX as i128);
        Ok(l)
    }
}

/// Sizes of `to.len() <= MAX_RANK` entries holding `numel` elements in all, one `-1` entry
/// (PyTorch's inferred size) filled in: the first `to.len()` entries of the result (the rest 0).
///
/// # Errors
/// `err()` for a size below `-1`, a second `-1`, a product past `usize`, or a product other
/// than `numel` (for a `-1`, one that does not divide `numel`, or zero).
fn fill_sizes(to: &[isize], numel: usize, err: impl Fn() -> ShapeError) -> Result<[usize; MAX_RANK], ShapeError> {
    let (mut infer, mut known) = (None, 1usize);
    let mut out = [0usize; MAX_RANK];
    for (i, &d) in to.iter().enumerate() {
        match d {
            -1 if infer.is_none() => infer = Some(i),
            d if d >= 0 => {
                out[i] = d as usize;
                known = known.checked_mul(d as usize).ok_or_else(&err)?;
            }
            _ => return Err(err()),
        }
    }
    match infer {
        Some(i) if known != 0 && numel.is_multiple_of(known) => out[i] = numel / known,
        None if known == numel => {}
        _ => return Err(err()),
    }
    Ok(out)
}
