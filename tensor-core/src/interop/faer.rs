//! faer 0.24 (feature `faer`, or `linalg`, which uses the same dependency): `MatRef`/`MatMut`
//! views of rank-2 tensors with their strides (faer accepts any strides, negative and zero
//! included), and copies of faer matrices into tensors.
use crate::error::{OrPanic, ShapeError};
use crate::layout::Layout;
use crate::shape::Shape;
use crate::storage::{Data, DataMut, Element};
use crate::tensor::{Tensor, TensorBase};
use alloc::vec::Vec;
use faer::{MatMut, MatRef};

/// The lowest and highest offsets `offset + i * rs + j * cs` reaches for `i < m`, `j < n`
/// (`m`, `n` > 0), in 128 bits.
fn reach(offset: usize, [m, n]: [usize; 2], [rs, cs]: [isize; 2]) -> (i128, i128) {
    let r = |size: usize, stride: isize| (size as i128 - 1) * stride as i128;
    let (r, c) = (r(m, rs), r(n, cs));
    (offset as i128 + r.min(0) + c.min(0), offset as i128 + r.max(0) + c.max(0))
}

/// The stride faer is given for a dim of `size` elements: the layout's own, except that a
/// single-element dim (whose stride is never multiplied by anything but 0, so any value is a
/// valid layout, `isize::MIN` included) gets 1. faer negates strides to walk reversed views, and
/// `-isize::MIN` overflows (a debug-build panic inside faer, issue 25).
#[inline]
fn unit_stride(size: usize, stride: isize) -> isize {
    if size == 1 {
        1
    } else {
        stride
    }
}

/// faer's view of the `[m, n]` matrix at `offset` with strides `[rs, cs]` in `data`.
///
/// # Panics
/// When an element lies outside `data` (never for a tensor's layout: they fit their buffer).
#[inline]
pub(crate) fn mat<T>(data: &[T], offset: usize, [m, n]: [usize; 2], [rs, cs]: [isize; 2]) -> MatRef<'_, T> {
    if m == 0 || n == 0 {
        return MatRef::from_row_major_slice(&data[..0], m, n);
    }
    let (rs, cs) = (unit_stride(m, rs), unit_stride(n, cs));
    let (lo, hi) = reach(offset, [m, n], [rs, cs]);
    assert!(lo >= 0 && hi < data.len() as i128, "matrix view outside its buffer");
    // SAFETY: every element `offset + i * rs + j * cs` (i < m, j < n) lies in `lo..=hi`, inside
    // `data` (checked just above; `unit_stride` changed only the stride of a one-element dim,
    // which multiplies nothing but 0, so the offsets are the layout's own), and `data` is borrowed shared for the view's lifetime, so
    // nothing writes it meanwhile. faer accepts any strides, negative and zero included.
    unsafe { MatRef::from_raw_parts(data.as_ptr().add(offset), m, n, rs, cs) }
}

/// faer's mutable view of the `[m, n]` matrix of layout `l` (rank 2) in `data`.
///
/// # Panics
/// When an element lies outside `data` or two coordinates may reach one element (never for a
/// writable tensor's layout).
fn mat_mut<'a, T>(data: &'a mut [T], l: &Layout) -> MatMut<'a, T> {
    let ([m, n], [rs, cs]) = ([l.sizes()[0], l.sizes()[1]], [l.strides()[0], l.strides()[1]]);
    if m == 0 || n == 0 {
        return MatMut::from_row_major_slice_mut(&mut data[..0], m, n);
    }
    let (rs, cs) = (unit_stride(m, rs), unit_stride(n, cs));
    let (lo, hi) = reach(l.offset(), [m, n], [rs, cs]);
    assert!(lo >= 0 && hi < data.len() as i128, "matrix view outside its buffer");
    assert!(!l.may_overlap(), "mutable matrix view whose elements may overlap");
    // SAFETY: every element `offset + i * rs + j * cs` lies inside `data` (checked just above;
    // `unit_stride` changed only the stride of a one-element dim, which multiplies nothing but 0);
    // no two coordinates reach the same element (`may_overlap` is a proof when false, checked
    // above; writable tensors' layouts always pass it: `TensorBase::try_from_parts`); `data` is
    // borrowed mutably for the view's lifetime, so nothing else reads or writes it meanwhile.
    unsafe { MatMut::from_raw_parts_mut(data.as_mut_ptr().add(l.offset()), m, n, rs, cs) }
}

fn rank2(l: &Layout) -> Result<(), ShapeError> {
    if l.rank() == 2 {
        Ok(())
    } else {
        Err(ShapeError::ShapeMismatch { expected: "[_, _]".into(), got: l.sizes().into() })
    }
}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// A faer view of a rank-2 tensor: `[m, n]` -> `MatRef<T>` of `m` rows and `n` columns with
    /// the same strides (row stride `strides()[0]`, column stride `strides()[1]`), O(1), no copy.
    /// Mirrors faer's `MatRef::from_raw_parts`, checked.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the rank is not 2 (only possible for `Dyn`-rank shapes:
    /// static ranks other than 2 are still checked at run time here).
    #[doc(alias = "as_mat_ref")]
    #[doc(alias = "as_faer")]
    pub fn try_to_faer(&self) -> Result<MatRef<'_, D::Elem>, ShapeError> {
        let l = self.layout();
        rank2(l)?;
        Ok(mat(self.data.as_slice(), l.offset(), [l.sizes()[0], l.sizes()[1]], [l.strides()[0], l.strides()[1]]))
    }
    /// [`try_to_faer`](Self::try_to_faer), panicking with the error's message.
    ///
    /// # Panics
    /// When the rank is not 2.
    #[track_caller]
    pub fn to_faer(&self) -> MatRef<'_, D::Elem> {
        self.try_to_faer().or_panic()
    }
}

impl<'a, T: Element, S: Shape> crate::TensorView<'a, T, S> {
    /// [`try_to_faer`](TensorBase::try_to_faer) keeping the view's own lifetime `'a`
    /// (`x.t().try_into_faer()` outlives the temporary `x.t()`).
    ///
    /// # Errors
    /// As `try_to_faer`.
    pub fn try_into_faer(self) -> Result<MatRef<'a, T>, ShapeError> {
        let l = *self.layout();
        rank2(&l)?;
        Ok(mat(self.data, l.offset(), [l.sizes()[0], l.sizes()[1]], [l.strides()[0], l.strides()[1]]))
    }
}

impl<D: DataMut, S: Shape> TensorBase<D, S> {
    /// A mutable faer view of a rank-2 tensor (see [`try_to_faer`](Self::try_to_faer)); writes go
    /// to the tensor.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the rank is not 2.
    #[doc(alias = "as_mat_mut")]
    pub fn try_to_faer_mut(&mut self) -> Result<MatMut<'_, D::Elem>, ShapeError> {
        let l = *self.layout();
        rank2(&l)?;
        Ok(mat_mut(self.data.as_mut_slice(), &l))
    }
    /// [`try_to_faer_mut`](Self::try_to_faer_mut), panicking with the error's message.
    ///
    /// # Panics
    /// When the rank is not 2.
    #[track_caller]
    pub fn to_faer_mut(&mut self) -> MatMut<'_, D::Elem> {
        self.try_to_faer_mut().or_panic()
    }
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// A row-major copy of a faer matrix (pass `mat.as_ref()` for a `Mat`): `MatRef` of `m` rows
    /// and `n` columns -> `[m, n]`, O(m n), sizes checked against `S` at run time.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when `[m, n]` does not fit `S`; [`ShapeError::Alloc`].
    #[doc(alias = "from_mat")]
    pub fn try_from_faer(m: MatRef<'_, T>) -> Result<Self, ShapeError> {
        let sizes = [m.nrows(), m.ncols()];
        S::check_sizes(&sizes)?;
        let mut v: Vec<T> = crate::kernels::try_vec(0, T::ZERO)?;
        let n = sizes[0] * sizes[1];
        v.try_reserve_exact(n).map_err(|_| ShapeError::Alloc { count: n, elem_size: size_of::<T>() })?;
        for i in 0..sizes[0] {
            v.extend((0..sizes[1]).map(|j| *m.get(i, j)));
        }
        Tensor::try_from_vec(&sizes, v)
    }
    /// [`try_from_faer`](Self::try_from_faer), panicking with the error's message.
    ///
    /// # Panics
    /// When `try_from_faer` fails.
    #[track_caller]
    pub fn from_faer(m: MatRef<'_, T>) -> Self {
        Self::try_from_faer(m).or_panic()
    }
}
