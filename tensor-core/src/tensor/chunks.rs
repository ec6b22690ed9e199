//! Static-size batches: views of exactly `B` elements along an axis, typed `Const<B>` there, and
//! the shorter remainder ([`axis_chunks_exact`](TensorBase::axis_chunks_exact),
//! [`batches`](TensorBase::batches)). The typed counterpart of PyTorch's `x.split(B)` with the
//! last, shorter piece kept apart, as ndarray's `exact_chunks`/`axis_chunks_iter`.
use super::iter::AxisIter;
use super::TensorBase;
use crate::dim::{Const, Dyn};
use crate::error::{OrPanic, ShapeError};
use crate::layout::Layout;
use crate::shape::{ReplaceAxis, SetAxis, Shape};
use crate::storage::Data;
use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;
use shaped_macros::try_twin;

/// The views of `B` elements along one axis, in order, each of shape `S2` (the source's shape
/// with `Const<B>` at the axis): what [`axis_chunks_exact`](TensorBase::axis_chunks_exact) and
/// [`batches`](TensorBase::batches) return. The elements past the last whole chunk are
/// [`remainder`](Self::remainder), of shape `SR` (a `Dyn` dim at the axis). Double-ended; the
/// walk is [`AxisIter`]'s.
pub struct AxisChunksExact<R: Data + Copy, S2: Shape, SR: Shape> {
    chunks: AxisIter<R, S2>,
    rest: (R, Layout),
    _rest: PhantomData<SR>,
}
impl<R: Data + Copy, S2: Shape, SR: Shape> Clone for AxisChunksExact<R, S2, SR> {
    fn clone(&self) -> Self {
        AxisChunksExact { chunks: self.chunks.clone(), rest: self.rest, _rest: PhantomData }
    }
}
impl<R: Data + Copy, S2: Shape, SR: Shape> fmt::Debug for AxisChunksExact<R, S2, SR> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AxisChunksExact")
            .field("remaining", &self.chunks.len())
            .field("remainder", &self.rest.1.sizes())
            .finish()
    }
}
impl<R: Data + Copy, S2: Shape, SR: Shape> AxisChunksExact<R, S2, SR> {
    /// The elements after the last whole chunk, fewer than `B` along the axis (empty when `B`
    /// divides the axis length), as one view; the same whatever has been iterated.
    pub fn remainder(&self) -> TensorBase<R, SR> {
        TensorBase::from_parts(self.rest.0, self.rest.1)
    }
}
impl<R: Data + Copy, S2: Shape, SR: Shape> Iterator for AxisChunksExact<R, S2, SR> {
    type Item = TensorBase<R, S2>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.chunks.next()
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}
impl<R: Data + Copy, S2: Shape, SR: Shape> DoubleEndedIterator for AxisChunksExact<R, S2, SR> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        self.chunks.next_back()
    }
}
impl<R: Data + Copy, S2: Shape, SR: Shape> ExactSizeIterator for AxisChunksExact<R, S2, SR> {}
impl<R: Data + Copy, S2: Shape, SR: Shape> FusedIterator for AxisChunksExact<R, S2, SR> {}

/// The chunk iterator of a tensor of shape `S` cut in `B` along axis `A`.
pub type ChunksOf<'a, D, S, const A: isize, const B: usize> =
    AxisChunksExact<<D as Data>::Ref<'a>, <S as SetAxis<A, Const<B>>>::Out, <S as SetAxis<A, Dyn>>::Out>;

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Views of exactly `B` elements along `axis` (negative counts from the end), in order,
    /// typed `Const<B>` at the axis: `[n, ..]` along `(Ax::<0>, Const::<B>)` gives `n / B` views
    /// of `[B, ..]`, and [`remainder`](AxisChunksExact::remainder) the last `n % B` rows as `[_,
    /// ..]`. No copy. The axis is an `Ax::<N>` or a dim name (checked at compile time for tuple
    /// shapes; the other dims keep their types and names) or an `isize` (checked here; the
    /// views' dims all `Dyn`). Mirrors PyTorch `x.split(B, axis)` with the shorter last piece
    /// kept apart, ndarray `exact_chunks`; see [`batches`](Self::batches) for axis 0.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Const, Shape, Tensor, TensorView};
    /// let x: Tensor<i32, Shape![5, 2]> = Tensor::from([[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]);
    /// let mut it = x.axis_chunks_exact(Ax::<0>, Const::<2>);
    /// let first: TensorView<i32, Shape![2, 2]> = it.next().unwrap();
    /// assert_eq!(first.to_vec(), [0, 1, 2, 3]);
    /// assert_eq!(it.remainder().to_vec(), [8, 9]);
    /// assert_eq!(it.count(), 1);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `B` is 0; [`ShapeError::Axis`] for a runtime axis, or a
    /// [`DynShape`](crate::DynShape) tensor, whose rank has no such axis.
    #[try_twin(
        doc = "Views of exactly `B` elements along `axis` (negative counts from the end), in order, typed `Const<B>` at the axis.",
        alias = "exact_chunks",
        alias = "axis_chunks_iter"
    )]
    #[allow(clippy::type_complexity)]
    pub fn try_axis_chunks_exact<X, M, Y: Shape, YR: Shape, const B: usize>(
        &self,
        axis: X,
        size: Const<B>,
    ) -> Result<AxisChunksExact<D::Ref<'_>, Y, YR>, ShapeError>
    where
        S: ReplaceAxis<X, M, Const<B>, Out = Y> + ReplaceAxis<X, M, Dyn, Out = YR>,
    {
        let _ = size;
        self.chunks_exact_at(<S as ReplaceAxis<X, M, Dyn>>::axis_index(&axis), B)
    }

    /// The views of `b` elements along axis `a` and the remainder, typed by the caller.
    fn chunks_exact_at<Y: Shape, YR: Shape>(
        &self,
        a: isize,
        b: usize,
    ) -> Result<AxisChunksExact<D::Ref<'_>, Y, YR>, ShapeError> {
        let axis = self.ax(a)?;
        if b == 0 {
            return Err(ShapeError::Invalid("axis_chunks_exact: a chunk size of 0".into()));
        }
        let (data, layout) = (self.data.view_data(), *self.layout());
        let n = layout.sizes()[axis];
        let rest = layout.narrow(axis, (n - n % b) as isize, n % b)?;
        Ok(AxisChunksExact { chunks: AxisIter::chunks(data, layout, axis, b), rest: (data, rest), _rest: PhantomData })
    }

    /// Batches of exactly `B` rows (axis 0), typed `Const<B>`, plus the remainder: for a
    /// training loop over `[n, features]` data, `x.batches::<32>()` gives views of
    /// `[32, features]`. The same as [`axis_chunks_exact(Ax::<0>, Const::<B>)`](Self::axis_chunks_exact).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor, TensorView};
    /// let x: Tensor<f32, Shape![1500, 64]> = Tensor::zeros();
    /// let batches = x.batches::<32>();
    /// assert_eq!((batches.len(), batches.remainder().sizes()), (46, &[28, 64][..]));
    /// for b in batches {
    ///     let _: TensorView<f32, Shape![32, 64]> = b;
    /// }
    /// ```
    ///
    /// # Panics
    /// When `B` is 0, or for a rank-0 [`DynShape`](crate::DynShape) tensor.
    #[track_caller]
    pub fn batches<const B: usize>(&self) -> ChunksOf<'_, D, S, 0, B>
    where
        S: SetAxis<0, Const<B>> + SetAxis<0, Dyn>,
    {
        self.chunks_exact_at(0, B).or_panic()
    }
}
