//! nalgebra 0.35 (feature `nalgebra`): strided matrix views of rank-2 tensors, and copies to and
//! from `SMatrix`, `DMatrix` and `DVector`.
//!
//! nalgebra stores matrices column-major, and its strided views are only sound in that layout:
//! with a row stride above 1, nalgebra's iterators step their pointer past the end of the
//! buffer (undefined behaviour that Miri reports; dimforge/nalgebra#1562, found on 0.34) and `axpy` on a
//! strided vector view reads and writes out of bounds (dimforge/nalgebra#1616). So the view
//! methods take column-major layouts only: row stride 1 and columns that do not overlap, as a
//! transposed row-major tensor (`x.t()`) or a column slice of one has. A row-major tensor, a
//! stepped row slice or a negative stride is an error naming the layout; the copying methods
//! (`to_smatrix`, `to_dmatrix`) work for every layout. Into this crate, every conversion copies (nalgebra views expose no slice that
//! could be borrowed safely when they have gaps).
use crate::dim::Const;
use crate::error::ShapeError;
use crate::layout::Layout;
use crate::shape::Shape;
use crate::storage::{Data, DataMut, Element};
use crate::tensor::{Tensor, TensorBase};
use alloc::format;
use alloc::vec::Vec;
use nalgebra::{DMatrix, DVector, Dyn, Matrix, MatrixView, MatrixViewMut, RawStorage, SMatrix};
use shaped_macros::try_twin;

/// The sizes, unsigned strides and offset of the rank-2 layout `l` as nalgebra takes them, with
/// the strides of an empty matrix chosen to pass nalgebra's length check on an empty slice.
fn parts(l: &Layout) -> Result<([usize; 2], [usize; 2], usize), ShapeError> {
    if l.rank() != 2 {
        return Err(ShapeError::ShapeMismatch { expected: "[_, _]".into(), got: l.sizes().into() });
    }
    let (m, n) = (l.sizes()[0], l.sizes()[1]);
    if m == 0 {
        return Ok(([m, n], [1, 0], 0));
    }
    if n == 0 {
        return Ok(([m, n], [0, 1], 0));
    }
    let (rs, cs) = (l.strides()[0], l.strides()[1]);
    // A stride along a size-1 dim is never stepped along: any non-negative value is exact.
    let fix = |n: usize, s: isize| if n == 1 { Some(0) } else { usize::try_from(s).ok() };
    match (fix(m, rs), fix(n, cs)) {
        // Column-major: unit row stride (or one row), columns at least `m` apart (or one column).
        (Some(rs), Some(cs)) if (m == 1 || rs == 1) && (n == 1 || cs >= m) => Ok(([m, n], [rs.max(1), cs], l.offset())),
        _ => Err(ShapeError::Invalid(format!(
            "nalgebra views need a column-major layout (row stride 1), not strides {:?} for sizes {:?}: view the transpose (x.t()), or copy with to_dmatrix/to_smatrix",
            l.strides(),
            l.sizes()
        ))),
    }
}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// A nalgebra view of a rank-2 tensor: `[m, n]` -> `MatrixView<T, Dyn, Dyn, Dyn, Dyn>` with
    /// the same strides (row stride `strides()[0]`, column stride `strides()[1]`), O(1), no copy.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the rank is not 2; [`ShapeError::Invalid`] when a
    /// layout is not column-major (see the module docs: copy with [`to_dmatrix`](Self::to_dmatrix)).
    #[doc(alias = "as_matrix_view")]
    #[doc(alias = "view")]
    pub fn try_to_nalgebra_view(&self) -> Result<MatrixView<'_, D::Elem, Dyn, Dyn, Dyn, Dyn>, ShapeError> {
        let ([m, n], [rs, cs], off) = parts(self.layout())?;
        // nalgebra checks the slice length itself (and panics, which the layout makes impossible).
        Ok(MatrixView::from_slice_with_strides_generic(&self.data.as_slice()[off..], Dyn(m), Dyn(n), Dyn(rs), Dyn(cs)))
    }

    /// A copy as a nalgebra `DMatrix` (column-major): `[m, n]` -> `m x n`, any strides.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the rank is not 2.
    #[doc(alias = "to_matrix")]
    #[try_twin]
    pub fn try_to_dmatrix(&self) -> Result<DMatrix<D::Elem>, ShapeError> {
        let l = self.layout();
        if l.rank() != 2 {
            return Err(ShapeError::ShapeMismatch { expected: "[_, _]".into(), got: l.sizes().into() });
        }
        Ok(DMatrix::from_row_iterator(l.sizes()[0], l.sizes()[1], self.iter().copied()))
    }

    /// A copy of a rank-1 tensor as a nalgebra `DVector`: `[n]` -> `n x 1`.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the rank is not 1.
    #[doc(alias = "to_vector")]
    #[try_twin]
    pub fn try_to_dvector(&self) -> Result<DVector<D::Elem>, ShapeError> {
        if self.rank() != 1 {
            return Err(ShapeError::ShapeMismatch { expected: "[_]".into(), got: self.sizes().into() });
        }
        Ok(DVector::from_iterator(self.numel(), self.iter().copied()))
    }
}

impl<'a, T: Element, S: Shape> crate::TensorView<'a, T, S> {
    /// [`try_to_nalgebra_view`](TensorBase::try_to_nalgebra_view) keeping the view's own lifetime
    /// `'a` (`x.t().try_into_nalgebra_view()` outlives the temporary `x.t()`).
    ///
    /// # Errors
    /// As `try_to_nalgebra_view`.
    pub fn try_into_nalgebra_view(self) -> Result<MatrixView<'a, T, Dyn, Dyn, Dyn, Dyn>, ShapeError> {
        let ([m, n], [rs, cs], off) = parts(self.layout())?;
        Ok(MatrixView::from_slice_with_strides_generic(&self.data[off..], Dyn(m), Dyn(n), Dyn(rs), Dyn(cs)))
    }
}

impl<D: DataMut, S: Shape> TensorBase<D, S> {
    /// A mutable nalgebra view of a rank-2 tensor (see
    /// [`try_to_nalgebra_view`](Self::try_to_nalgebra_view)); writes go to the tensor.
    ///
    /// # Errors
    /// As `try_to_nalgebra_view`.
    #[doc(alias = "as_matrix_view_mut")]
    pub fn try_to_nalgebra_view_mut(&mut self) -> Result<MatrixViewMut<'_, D::Elem, Dyn, Dyn, Dyn, Dyn>, ShapeError> {
        let ([m, n], [rs, cs], off) = parts(self.layout())?;
        // Writable layouts never overlap, so nalgebra's aliasing assertion holds.
        Ok(MatrixViewMut::from_slice_with_strides_generic(
            &mut self.data.as_mut_slice()[off..],
            Dyn(m),
            Dyn(n),
            Dyn(rs),
            Dyn(cs),
        ))
    }
}

impl<D: Data, const R: usize, const C: usize> TensorBase<D, (Const<R>, Const<C>)> {
    /// A nalgebra view with static sizes of a `[R, C]` tensor: `MatrixView<T, Const<R>,
    /// Const<C>, Dyn, Dyn>` (nalgebra's `SMatrixView` with runtime strides), O(1), no copy. The
    /// static counterpart of [`try_to_nalgebra_view`](TensorBase::try_to_nalgebra_view).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when a stride is negative (copy with
    /// [`to_smatrix`](Self::to_smatrix)).
    #[doc(alias = "as_smatrix_view")]
    pub fn try_to_smatrix_view(
        &self,
    ) -> Result<MatrixView<'_, D::Elem, nalgebra::Const<R>, nalgebra::Const<C>, Dyn, Dyn>, ShapeError> {
        let (_, [rs, cs], off) = parts(self.layout())?;
        Ok(MatrixView::from_slice_with_strides_generic(
            &self.data.as_slice()[off..],
            nalgebra::Const::<R>,
            nalgebra::Const::<C>,
            Dyn(rs),
            Dyn(cs),
        ))
    }
    /// A copy as a nalgebra `SMatrix<T, R, C>` (column-major): `[R, C]` -> `R x C`, any strides.
    /// Mirrors nalgebra's `SMatrix::from_row_slice`.
    #[doc(alias = "to_matrix")]
    pub fn to_smatrix(&self) -> SMatrix<D::Elem, R, C> {
        SMatrix::from_row_iterator(self.iter().copied())
    }
}

impl<T: Element, const R: usize, const C: usize> From<SMatrix<T, R, C>> for Tensor<T, (Const<R>, Const<C>)> {
    /// A row-major copy of a nalgebra static matrix: `R x C` -> `[R, C]`.
    fn from(m: SMatrix<T, R, C>) -> Self {
        Tensor::from_nalgebra(&m)
    }
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// A row-major copy of any nalgebra matrix, vector or view: `m x n` -> `[m, n]`, or `[m]`
    /// when `S` has rank 1 (then `n` must be 1: a column vector). Sizes checked against `S` at
    /// run time (`DynShape` gives rank 2).
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the sizes do not fit `S`; [`ShapeError::Alloc`].
    #[doc(alias = "from_matrix")]
    #[doc(alias = "from_dmatrix")]
    #[try_twin]
    pub fn try_from_nalgebra<R: nalgebra::Dim, C: nalgebra::Dim, St: RawStorage<T, R, C>>(
        m: &Matrix<T, R, C, St>,
    ) -> Result<Self, ShapeError> {
        let (r, c) = m.shape();
        let sizes: Vec<usize> = if S::RANK == Some(1) && c == 1 { alloc::vec![r] } else { alloc::vec![r, c] };
        S::check_sizes(&sizes)?;
        let mut v: Vec<T> = crate::memory::try_vec(0, T::ZERO)?;
        v.try_reserve_exact(r * c).map_err(|_| ShapeError::Alloc { count: r * c, elem_size: size_of::<T>() })?;
        for i in 0..r {
            v.extend((0..c).map(|j| m[(i, j)]));
        }
        Tensor::try_from_vec(&sizes, v)
    }
}
