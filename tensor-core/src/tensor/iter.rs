//! Iteration: elements in row-major logical order ([`iter`](TensorBase::iter),
//! [`iter_mut`](TensorBase::iter_mut), [`indexed_iter`](TensorBase::indexed_iter), `for x in &t`)
//! and typed views along an axis ([`axis_iter`](TensorBase::axis_iter),
//! [`outer_iter`](TensorBase::outer_iter), [`rows`](TensorBase::rows),
//! [`axis_iter_mut`](TensorBase::axis_iter_mut),
//! [`for_each_axis_mut`](TensorBase::for_each_axis_mut)).
//!
//! The order is always the logical one (the last coordinate moves fastest), whatever the strides:
//! a transposed, reversed (negative stride) or expanded (stride 0) view is visited as its
//! coordinates say, as PyTorch's `flatten().tolist()` and ndarray's `iter()` do. All of it is safe
//! code: mutable iteration hands out disjoint borrows split off the buffer (writable layouts never
//! overlap, which the crate checks where a layout is built).
use super::{TensorBase, TensorView, TensorViewMut};
use crate::dim::Dim;
use crate::error::ShapeError;
use crate::layout::{Layout, Offsets};
use crate::shape::{Ax, DropAxis, DynShape, RemoveAxis, Shape, MAX_RANK};
use crate::storage::{Data, DataMut, Element};
use alloc::vec::Vec;
use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;
use shaped_macros::try_twin;

/// Whether the row-major offsets of `l` strictly increase: every moving dim has a positive stride
/// that steps past everything the inner dims reach.
fn increasing(l: &Layout) -> bool {
    let mut reach: usize = 0;
    for (&n, &s) in l.sizes().iter().zip(l.strides()).rev() {
        if n <= 1 {
            continue;
        }
        if s <= 0 || (s as usize) <= reach {
            return false;
        }
        // Bounded by the layout's reach, which fits isize.
        reach += (n - 1) * s as usize;
    }
    true
}

// ------------------------------------------------------------------------------------ indices
/// The coordinate type of a shape, what [`indexed_iter`](TensorBase::indexed_iter) yields and
/// [`from_fn`](crate::Tensor::from_fn) passes: `[usize; R]` for a tuple shape of rank `R` (so a
/// closure can destructure it, `|[i, j]| ...`), [`DynIndex`] for [`DynShape`]. Both deref to
/// `&[usize]` through [`AsRef`].
pub trait ShapeIndex: Shape {
    /// `[usize; R]` or [`DynIndex`].
    type Index: Copy + fmt::Debug + PartialEq + AsRef<[usize]> + Send + Sync + 'static;
    /// The coordinate from its entries (as many as the rank).
    fn index_from(coords: &[usize]) -> Self::Index;
}

macro_rules! shape_index {
    ($r:literal; $($d:ident),*) => {
        impl<$($d: Dim),*> ShapeIndex for ($($d,)*) {
            type Index = [usize; $r];
            #[inline]
            fn index_from(coords: &[usize]) -> [usize; $r] {
                core::array::from_fn(|k| coords[k])
            }
        }
    };
}
shape_index!(0;);
shape_index!(1; A0);
shape_index!(2; A0, A1);
shape_index!(3; A0, A1, A2);
shape_index!(4; A0, A1, A2, A3);
shape_index!(5; A0, A1, A2, A3, A4);
shape_index!(6; A0, A1, A2, A3, A4, A5);

impl ShapeIndex for DynShape {
    type Index = DynIndex;
    #[inline]
    fn index_from(coords: &[usize]) -> DynIndex {
        let mut c = [0; MAX_RANK];
        c[..coords.len()].copy_from_slice(coords);
        DynIndex { coords: c, rank: coords.len() }
    }
}

/// The coordinate of an element of a [`DynShape`] tensor (its rank known at run time): up to
/// [`MAX_RANK`] entries held inline, no allocation. Derefs to `&[usize]`, compares with slices
/// and arrays (`idx == [1, 2]`) and prints as a slice (`[1, 2]`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DynIndex {
    coords: [usize; MAX_RANK],
    rank: usize,
}
impl DynIndex {
    /// The entries, one per dim.
    #[inline]
    pub fn as_slice(&self) -> &[usize] {
        &self.coords[..self.rank]
    }
}
impl core::ops::Deref for DynIndex {
    type Target = [usize];
    #[inline]
    fn deref(&self) -> &[usize] {
        self.as_slice()
    }
}
impl AsRef<[usize]> for DynIndex {
    #[inline]
    fn as_ref(&self) -> &[usize] {
        self.as_slice()
    }
}
impl fmt::Debug for DynIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}
impl<const N: usize> PartialEq<[usize; N]> for DynIndex {
    fn eq(&self, other: &[usize; N]) -> bool {
        self.as_slice() == other
    }
}
impl PartialEq<[usize]> for DynIndex {
    fn eq(&self, other: &[usize]) -> bool {
        self.as_slice() == other
    }
}

// ------------------------------------------------------------------------------------ iterators
/// The elements of a tensor by reference, in row-major logical order: what
/// [`iter`](TensorBase::iter) returns.
#[derive(Clone, Debug)]
pub struct Iter<'a, T> {
    inner: IterRepr<'a, T>,
}
#[derive(Clone, Debug)]
enum IterRepr<'a, T> {
    Contiguous(core::slice::Iter<'a, T>),
    Strided { data: &'a [T], offsets: Offsets },
}
impl<'a, T> Iter<'a, T> {
    fn new(data: &'a [T], l: &Layout) -> Self {
        let inner = if l.is_contiguous() {
            IterRepr::Contiguous(data[l.offset()..l.offset() + l.numel()].iter())
        } else {
            IterRepr::Strided { data, offsets: Offsets::new(l) }
        };
        Iter { inner }
    }
}
impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;
    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        match &mut self.inner {
            IterRepr::Contiguous(it) => it.next(),
            IterRepr::Strided { data, offsets } => offsets.next().map(|o| &data[o]),
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.inner {
            IterRepr::Contiguous(it) => it.size_hint(),
            IterRepr::Strided { offsets, .. } => offsets.size_hint(),
        }
    }
}
impl<T> ExactSizeIterator for Iter<'_, T> {}
impl<T> FusedIterator for Iter<'_, T> {}

/// The elements of a tensor by mutable reference, in row-major logical order: what
/// [`iter_mut`](TensorBase::iter_mut) returns.
pub struct IterMut<'a, T> {
    inner: IterMutRepr<'a, T>,
}
enum IterMutRepr<'a, T> {
    Contiguous(core::slice::IterMut<'a, T>),
    /// Increasing offsets: each element is split off the front of the rest of the buffer.
    Increasing {
        rest: &'a mut [T],
        base: usize,
        offsets: Offsets,
    },
    /// Any other order (transposed, reversed): the borrows, split off in storage order and put
    /// back in logical order.
    Gathered(alloc::vec::IntoIter<Option<&'a mut T>>),
}
impl<T: fmt::Debug> fmt::Debug for IterMut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IterMut").field("remaining", &self.len()).finish()
    }
}
impl<'a, T> IterMut<'a, T> {
    fn new(data: &'a mut [T], l: &Layout) -> Self {
        let inner = if l.is_contiguous() {
            IterMutRepr::Contiguous(data[l.offset()..l.offset() + l.numel()].iter_mut())
        } else if increasing(l) {
            IterMutRepr::Increasing { rest: data, base: 0, offsets: Offsets::new(l) }
        } else {
            let offsets: Vec<usize> = Offsets::new(l).collect();
            let mut order: Vec<usize> = (0..offsets.len()).collect();
            order.sort_unstable_by_key(|&k| offsets[k]);
            let mut slots: Vec<Option<&'a mut T>> = (0..offsets.len()).map(|_| None).collect();
            let mut elems = data.iter_mut().enumerate();
            for k in order {
                // Distinct offsets (a writable layout never overlaps), visited in increasing order.
                let (_, e) = elems.find(|&(i, _)| i == offsets[k]).expect("a writable layout never overlaps");
                slots[k] = Some(e);
            }
            IterMutRepr::Gathered(slots.into_iter())
        };
        IterMut { inner }
    }
}
impl<'a, T> Iterator for IterMut<'a, T> {
    type Item = &'a mut T;
    #[inline]
    fn next(&mut self) -> Option<&'a mut T> {
        match &mut self.inner {
            IterMutRepr::Contiguous(it) => it.next(),
            IterMutRepr::Increasing { rest, base, offsets } => {
                let o = offsets.next()?;
                let tail = core::mem::take(rest).split_at_mut(o - *base).1;
                let (e, tail) = tail.split_first_mut().expect("offsets inside the buffer");
                *rest = tail;
                *base = o + 1;
                Some(e)
            }
            IterMutRepr::Gathered(it) => it.next().map(|e| e.expect("every slot is filled")),
        }
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.inner {
            IterMutRepr::Contiguous(it) => it.size_hint(),
            IterMutRepr::Increasing { offsets, .. } => offsets.size_hint(),
            IterMutRepr::Gathered(it) => it.size_hint(),
        }
    }
}
impl<T> ExactSizeIterator for IterMut<'_, T> {}
impl<T> FusedIterator for IterMut<'_, T> {}

/// The elements of a tensor with their coordinates, in row-major logical order: what
/// [`indexed_iter`](TensorBase::indexed_iter) returns. Items are `(S::Index, &T)`; the index is
/// `[usize; R]` for a tuple shape, [`DynIndex`] for [`DynShape`].
pub struct IndexedIter<'a, T, S: ShapeIndex> {
    data: &'a [T],
    offsets: Offsets,
    _shape: PhantomData<S>,
}
impl<T, S: ShapeIndex> Clone for IndexedIter<'_, T, S> {
    fn clone(&self) -> Self {
        IndexedIter { data: self.data, offsets: self.offsets.clone(), _shape: PhantomData }
    }
}
impl<T, S: ShapeIndex> fmt::Debug for IndexedIter<'_, T, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IndexedIter").field("remaining", &self.offsets.len()).finish()
    }
}
impl<'a, T, S: ShapeIndex> Iterator for IndexedIter<'a, T, S> {
    type Item = (S::Index, &'a T);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let idx = S::index_from(self.offsets.index());
        let o = self.offsets.next()?;
        Some((idx, &self.data[o]))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.offsets.size_hint()
    }
}
impl<T, S: ShapeIndex> ExactSizeIterator for IndexedIter<'_, T, S> {}
impl<T, S: ShapeIndex> FusedIterator for IndexedIter<'_, T, S> {}

/// Views along one axis, in order: what [`axis_iter`](TensorBase::axis_iter),
/// [`outer_iter`](TensorBase::outer_iter), [`rows`](TensorBase::rows) and
/// [`axis_iter_dyn`](TensorBase::axis_iter_dyn) return. Each item is a view (storage `R`, a
/// borrowed slice) of shape `S2`, the source's shape without the axis. Double-ended.
pub struct AxisIter<R: Data + Copy, S2: Shape> {
    data: R,
    layout: Layout,
    axis: usize,
    /// 0: item `i` is index `i` of the axis (removed); otherwise the `chunk` elements from
    /// `i * chunk` (kept, for [`AxisChunksExact`](super::AxisChunksExact)).
    chunk: usize,
    front: usize,
    back: usize,
    _shape: PhantomData<S2>,
}
impl<R: Data + Copy, S2: Shape> Clone for AxisIter<R, S2> {
    fn clone(&self) -> Self {
        AxisIter { data: self.data, ..*self }
    }
}
impl<R: Data + Copy, S2: Shape> fmt::Debug for AxisIter<R, S2> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AxisIter").field("axis", &self.axis).field("remaining", &(self.back - self.front)).finish()
    }
}
impl<R: Data + Copy, S2: Shape> AxisIter<R, S2> {
    fn new(data: R, layout: Layout, axis: usize) -> Self {
        let back = layout.sizes()[axis];
        AxisIter { data, layout, axis, chunk: 0, front: 0, back, _shape: PhantomData }
    }
    /// The whole chunks of `chunk` (nonzero) elements along `axis`.
    pub(super) fn chunks(data: R, layout: Layout, axis: usize, chunk: usize) -> Self {
        let back = layout.sizes()[axis] / chunk;
        AxisIter { data, layout, axis, chunk, front: 0, back, _shape: PhantomData }
    }
    #[inline]
    fn view(&self, i: usize) -> TensorBase<R, S2> {
        // `i` (or `i * chunk + chunk`) is at most the axis size, which fits isize.
        let l = match self.chunk {
            0 => self.layout.select(self.axis, i as isize),
            c => self.layout.narrow(self.axis, (i * c) as isize, c),
        };
        TensorBase::from_parts(self.data, l.expect("a view inside the axis"))
    }
}
impl<R: Data + Copy, S2: Shape> Iterator for AxisIter<R, S2> {
    type Item = TensorBase<R, S2>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.front += 1;
            self.view(self.front - 1)
        })
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back - self.front;
        (n, Some(n))
    }
}
impl<R: Data + Copy, S2: Shape> DoubleEndedIterator for AxisIter<R, S2> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            self.view(self.back)
        })
    }
}
impl<R: Data + Copy, S2: Shape> ExactSizeIterator for AxisIter<R, S2> {}
impl<R: Data + Copy, S2: Shape> FusedIterator for AxisIter<R, S2> {}

/// Mutable views along one axis, in order: what [`axis_iter_mut`](TensorBase::axis_iter_mut)
/// returns. The views are split off the buffer as disjoint slices, so they may all live at once
/// (collect them, zip them with other iterators).
pub struct AxisIterMut<'a, T, S2: Shape> {
    /// The part of the buffer the remaining views lie in.
    rest: &'a mut [T],
    /// The storage offset of `rest[0]`.
    base: usize,
    /// The layout of view 0; view `i` is it moved by `i * stride`.
    first: Layout,
    /// The offsets view 0 spans (relative to its offset), `None` when the views are empty.
    span: Option<(isize, isize)>,
    stride: isize,
    front: usize,
    len: usize,
    _shape: PhantomData<S2>,
}
impl<T, S2: Shape> fmt::Debug for AxisIterMut<'_, T, S2> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AxisIterMut").field("remaining", &(self.len - self.front)).finish()
    }
}
impl<'a, T: Element, S2: Shape> AxisIterMut<'a, T, S2> {
    fn new(data: &'a mut [T], layout: &Layout, axis: usize) -> Result<Self, ShapeError> {
        let len = layout.sizes()[axis];
        let stride = layout.strides()[axis];
        let first = if len == 0 { layout.remove(axis) } else { layout.select(axis, 0)? };
        let span = first.span().map(|(lo, hi)| (lo - first.offset() as isize, hi - first.offset() as isize));
        if let Some((lo, hi)) = span {
            if len > 1 && stride.unsigned_abs() <= (hi - lo) as usize {
                return Err(ShapeError::Invalid(alloc::format!(
                    "axis_iter_mut: the views along axis {axis} of a tensor with sizes {:?} and strides {:?} \
                     interleave in memory, so they cannot be split into separate borrows; use \
                     for_each_axis_mut, or iterate over a contiguous copy",
                    layout.sizes(),
                    layout.strides()
                )));
            }
        }
        Ok(AxisIterMut { rest: data, base: 0, first, span, stride, front: 0, len, _shape: PhantomData })
    }
}
impl<'a, T: Element, S2: Shape> Iterator for AxisIterMut<'a, T, S2> {
    type Item = TensorViewMut<'a, T, S2>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.front == self.len {
            return None;
        }
        let i = self.front;
        self.front += 1;
        let Some((lo, hi)) = self.span else {
            // Empty views reach nothing: an empty slice holds them.
            return Some(TensorBase::from_parts(<&mut [T]>::default(), self.first));
        };
        // View i's offset and the storage range [start, end] it spans (inside the source's reach).
        let off = self.first.offset() as isize + i as isize * self.stride;
        let (start, end) = ((off + lo) as usize, (off + hi) as usize);
        let rest = core::mem::take(&mut self.rest);
        let chunk = if self.stride >= 0 {
            // Views move up the buffer: split view i off the front of the rest.
            let (head, tail) = rest.split_at_mut(end + 1 - self.base);
            self.rest = tail;
            let chunk = head.split_at_mut(start - self.base).1;
            self.base = end + 1;
            chunk
        } else {
            // Views move down the buffer (`rest` starts at offset 0): split view i off the end.
            let (head, tail) = rest.split_at_mut(start);
            self.rest = head;
            tail.split_at_mut(end + 1 - start).0
        };
        let l = Layout::from_parts(self.first.sizes(), self.first.strides(), (off - start as isize) as usize)
            .expect("a sub-layout of a valid layout");
        Some(TensorBase::from_parts(chunk, l))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.len - self.front;
        (n, Some(n))
    }
}
impl<T: Element, S2: Shape> ExactSizeIterator for AxisIterMut<'_, T, S2> {}
impl<T: Element, S2: Shape> FusedIterator for AxisIterMut<'_, T, S2> {}

// ------------------------------------------------------------------------------------ methods
/// A matrix shape (rank 2, as a tuple): what [`rows`](TensorBase::rows) needs.
#[diagnostic::on_unimplemented(
    message = "`rows()` needs a matrix (rank 2), not shape `{Self}`",
    label = "not a rank-2 tuple shape",
    note = "use `outer_iter()` or `axis_iter::<A>()` for other ranks, `axis_iter_dyn(0)` for a DynShape tensor"
)]
pub trait MatrixShape: RemoveAxis<0> {}
impl<A0: Dim, A1: Dim> MatrixShape for (A0, A1) where (A0, A1): RemoveAxis<0> {}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// The elements by reference in row-major logical order (the last coordinate moves fastest),
    /// whatever the strides: `[2, 3]` gives 6 items. A transposed view yields the transpose's
    /// order, a reversed one (negative stride) its reversed order, an expanded one (stride 0) each
    /// repeated element again. Mirrors PyTorch `x.flatten().tolist()` / `iter(x.flatten())` and
    /// NumPy `x.flat`; O(1) to create, no copy.
    #[doc(alias = "flat")]
    #[inline]
    pub fn iter(&self) -> Iter<'_, D::Elem> {
        Iter::new(self.data.as_slice(), self.layout())
    }

    /// The elements with their coordinates, in row-major logical order: `([i, j], &x[[i, j]])` for
    /// a `[m, n]` tensor (a `[usize; R]` for a tuple shape of rank `R`, a [`DynIndex`] for a
    /// [`DynShape`] tensor). Mirrors NumPy `np.ndenumerate(x)`; ndarray `indexed_iter`.
    #[doc(alias = "ndenumerate")]
    #[inline]
    pub fn indexed_iter(&self) -> IndexedIter<'_, D::Elem, S>
    where
        S: ShapeIndex,
    {
        IndexedIter { data: self.data.as_slice(), offsets: Offsets::new(self.layout()), _shape: PhantomData }
    }

    /// The elements by mutable reference in row-major logical order (the order of
    /// [`iter`](Self::iter)): `for x in t.iter_mut() { *x *= 2. }`. Writes go to the tensor (and,
    /// for a mutable view, to the tensor it views; shared storage is made private first, as every
    /// write to a [`SharedTensor`](crate::SharedTensor) is).
    ///
    /// O(1) to create for contiguous tensors and for layouts whose offsets increase in logical
    /// order (narrowed or stepped views); other orders (transposed, reversed) first collect the
    /// element borrows in logical order, O(n) extra memory. Mirrors ndarray `iter_mut`
    /// (PyTorch and NumPy have no mutable element iterator; `x.flat[i] = v` is the closest).
    ///
    /// # Panics
    /// When the borrows for a non-increasing layout cannot be allocated.
    #[inline]
    pub fn iter_mut(&mut self) -> IterMut<'_, D::Elem>
    where
        D: DataMut,
    {
        let layout = *self.layout();
        IterMut::new(self.data.as_mut_slice(), &layout)
    }

    /// Views along `axis` (negative counts from the end), in order: item `i` is
    /// [`select(axis, i)`](Self::select), typed `[.., n, ..] -> [.., ..]` (`axis_iter(Ax::<1>)` of
    /// a `[2, 3]` tensor gives 3 views of shape `[2]`). Mirrors PyTorch `x.unbind(axis)` (without
    /// the tuple) and NumPy `np.moveaxis(x, axis, 0)` iteration; ndarray `axis_iter(Axis(axis))`.
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has no such axis (tuple shapes
    /// check it at compile time).
    #[doc(alias = "unbind")]
    #[try_twin(alias = "unbind")]
    pub fn try_axis_iter<X, M, Y: Shape>(&self, axis: X) -> Result<AxisIter<D::Ref<'_>, Y>, ShapeError>
    where
        S: DropAxis<X, M, Removed = Y>,
    {
        let axis = self.ax(<S as DropAxis<X, M>>::axis_index(&axis))?;
        Ok(AxisIter::new(self.data.view_data(), *self.layout(), axis))
    }

    /// Views along axis 0, in order: `[n, ..] -> n` views of `[..]`, each what
    /// [`select::<0>(i)`](Self::select) gives. Mirrors Python's `for row in x` over a PyTorch
    /// tensor or NumPy array; ndarray `outer_iter`.
    ///
    /// # Panics
    /// For a rank-0 [`DynShape`] tensor (tuple shapes of rank 0 do not compile).
    #[track_caller]
    pub fn outer_iter(&self) -> AxisIter<D::Ref<'_>, <S as RemoveAxis<0>>::Out>
    where
        S: RemoveAxis<0>,
    {
        self.axis_iter(Ax::<0>)
    }

    /// The rows of a matrix as views, in order: `[m, n] -> m` views of shape `[n]`. Mirrors
    /// `for row in x` over a 2-D PyTorch tensor or NumPy array; ndarray `rows()`, nalgebra
    /// `row_iter()`. Only for rank-2 tuple shapes (checked at compile time).
    #[doc(alias = "row_iter")]
    pub fn rows(&self) -> AxisIter<D::Ref<'_>, <S as RemoveAxis<0>>::Out>
    where
        S: MatrixShape,
    {
        AxisIter::new(self.data.view_data(), *self.layout(), 0)
    }

    /// Views along a runtime axis (negative counts from the end), each of shape [`DynShape`]:
    /// `[.., n, ..] -> n` views of `[.., ..]`. Mirrors PyTorch `x.unbind(axis)`; ndarray
    /// `axis_iter`.
    ///
    /// # Errors
    /// [`ShapeError::Axis`] when `axis` is outside `-rank..rank`.
    #[doc(alias = "unbind")]
    #[try_twin(alias = "unbind")]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_axis_iter_dyn(&self, axis: isize) -> Result<AxisIter<D::Ref<'_>, DynShape>, ShapeError> {
        let axis = self.ax(axis)?;
        Ok(AxisIter::new(self.data.view_data(), *self.layout(), axis))
    }

    /// Mutable views along `axis` (negative counts from the end), in order: item `i` is
    /// [`select_mut(axis, i)`](crate::TensorViewMut::select_mut), `[.., n, ..] -> n` views of
    /// `[.., ..]`, all alive at once (an ordinary [`Iterator`]). Each view owns a disjoint slice
    /// of the buffer, which needs the views to occupy disjoint ranges of memory: true along axis
    /// 0 of a row-major tensor, false for the columns of one (there
    /// [`for_each_axis_mut`](Self::for_each_axis_mut) works for every axis). Mirrors ndarray
    /// `axis_iter_mut`/`outer_iter_mut`; PyTorch `for row in x: row += 1` and NumPy's equivalent
    /// write through views in the same way.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when the views interleave in memory (the layout's other dims reach
    /// past `axis`'s stride, as for the columns of a row-major matrix); [`ShapeError::Axis`]
    /// for a runtime axis, or a [`DynShape`] tensor, with no such axis.
    #[try_twin(alias = "outer_iter_mut")]
    pub fn try_axis_iter_mut<X, M, Y: Shape>(&mut self, axis: X) -> Result<AxisIterMut<'_, D::Elem, Y>, ShapeError>
    where
        D: DataMut,
        S: DropAxis<X, M, Removed = Y>,
    {
        let axis = self.ax(<S as DropAxis<X, M>>::axis_index(&axis))?;
        let layout = *self.layout();
        AxisIterMut::new(self.data.as_mut_slice(), &layout, axis)
    }

    /// Calls `f(i, view)` with the mutable view [`select_mut(axis, i)`](crate::TensorViewMut::select_mut)
    /// for each `i` in order: `[.., n, ..] -> n` calls with views of `[.., ..]`. Works for
    /// every layout and axis (columns of a row-major matrix too), because one view lives at a
    /// time; use [`axis_iter_mut`](Self::axis_iter_mut) when the views must coexist. Mirrors
    /// `for i in range(n): f(x.select(axis, i))` in PyTorch; ndarray `axis_iter_mut(..).for_each`.
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, with no such axis.
    #[try_twin(
        doc = "Calls `f(i, view)` with the mutable view [`select_mut::<A>(i)`](crate::TensorViewMut::select_mut) for each `i` in order."
    )]
    pub fn try_for_each_axis_mut<X, M, Y: Shape>(
        &mut self,
        axis: X,
        f: impl FnMut(usize, TensorViewMut<'_, D::Elem, Y>),
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
        S: DropAxis<X, M, Removed = Y>,
    {
        let axis = self.ax(<S as DropAxis<X, M>>::axis_index(&axis))?;
        self.for_each_select_mut(axis, f)
    }

    /// [`try_axis_iter_mut`](Self::try_axis_iter_mut) along a runtime axis (negative counts from
    /// the end): mutable [`DynShape`] views, all alive at once.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let mut x: Tensor<i32, DynShape> = Tensor::from([[1, 2], [3, 4]]).into_dyn();
    /// for (k, mut row) in x.axis_iter_mut(0).enumerate() {
    ///     row.fill_(k as i32);
    /// }
    /// assert_eq!(x.to_vec(), [0, 0, 1, 1]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] naming the axis and the rank for an axis outside `-rank..rank`;
    /// [`ShapeError::Invalid`] when the views interleave in memory (as for the columns of a
    /// row-major matrix: use [`for_each_axis_dyn_mut`](Self::for_each_axis_dyn_mut)).
    #[try_twin]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_axis_iter_dyn_mut(&mut self, axis: isize) -> Result<AxisIterMut<'_, D::Elem, DynShape>, ShapeError>
    where
        D: DataMut,
    {
        let axis = self.ax(axis)?;
        let layout = *self.layout();
        AxisIterMut::new(self.data.as_mut_slice(), &layout, axis)
    }

    /// [`for_each_axis_mut`](Self::for_each_axis_mut) along a runtime axis (negative counts from
    /// the end): `f(i, view)` with the mutable [`DynShape`] view at position `i`, one at a time
    /// (every layout and axis).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let mut x: Tensor<i32, DynShape> = Tensor::from([[1, 2], [3, 4]]).into_dyn();
    /// x.for_each_axis_mut(-1, |k, mut col| col.fill_(10 * k as i32));
    /// assert_eq!(x.to_vec(), [0, 10, 0, 10]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] naming the axis and the rank for an axis outside `-rank..rank`.
    #[try_twin(
        doc = "[`for_each_axis_mut`](Self::for_each_axis_mut) along a runtime axis (negative counts from the end)."
    )]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_for_each_axis_dyn_mut(
        &mut self,
        axis: isize,
        f: impl FnMut(usize, TensorViewMut<'_, D::Elem, DynShape>),
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
    {
        let axis = self.ax(axis)?;
        self.for_each_select_mut(axis, f)
    }

    /// `f(i, view)` with the mutable view of position `i` of the (checked) axis `axis`, as a
    /// tensor of shape type `S2`, for each `i` in order: the loop of the `for_each_axis` forms.
    fn for_each_select_mut<S2: Shape>(
        &mut self,
        axis: usize,
        mut f: impl FnMut(usize, TensorViewMut<'_, D::Elem, S2>),
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
    {
        let layout = *self.layout();
        let data = self.data.as_mut_slice();
        for i in 0..layout.sizes()[axis] {
            f(i, TensorBase::from_parts(&mut *data, layout.select(axis, i as isize)?));
        }
        Ok(())
    }
}

/// `for x in &t`: the elements by reference, in row-major logical order ([`TensorBase::iter`]).
impl<'a, D: Data, S: Shape> IntoIterator for &'a TensorBase<D, S> {
    type Item = &'a D::Elem;
    type IntoIter = Iter<'a, D::Elem>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
/// `for x in &mut t`: the elements by mutable reference, in row-major logical order
/// ([`TensorBase::iter_mut`]).
impl<'a, D: DataMut, S: Shape> IntoIterator for &'a mut TensorBase<D, S> {
    type Item = &'a mut D::Elem;
    type IntoIter = IterMut<'a, D::Elem>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}
/// `for x in view`: a view's elements by reference with the view's own lifetime (so
/// `t!(x[.., 0])` can be iterated directly).
impl<'a, T: Element, S: Shape> IntoIterator for TensorView<'a, T, S> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        Iter::new(self.data, self.layout())
    }
}
/// `for x in view_mut`: a mutable view's elements by mutable reference, with the view's lifetime.
impl<'a, T: Element, S: Shape> IntoIterator for TensorViewMut<'a, T, S> {
    type Item = &'a mut T;
    type IntoIter = IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        let layout = *self.layout();
        IterMut::new(self.data, &layout)
    }
}
