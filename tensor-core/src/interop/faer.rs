//! faer 0.24 (feature `faer`, or `linalg`, which uses the same dependency): `MatRef`/`MatMut`
//! views of rank-2 tensors with their strides (faer accepts any strides, negative and zero
//! included), and copies of faer matrices into tensors.
use crate::error::ShapeError;
use crate::layout::Layout;
use crate::shape::Shape;
use crate::storage::{Data, DataMut, Element};
use crate::tensor::{Tensor, TensorBase};
use alloc::vec::Vec;
use faer::{MatMut, MatRef};
use shaped_macros::try_twin;

use crate::kernels::faer_view::{mat, mat_mut};

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
    #[try_twin]
    pub fn try_to_faer(&self) -> Result<MatRef<'_, D::Elem>, ShapeError> {
        let l = self.layout();
        rank2(l)?;
        Ok(mat(self.data.as_slice(), l.offset(), [l.sizes()[0], l.sizes()[1]], [l.strides()[0], l.strides()[1]]))
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
    #[try_twin]
    pub fn try_to_faer_mut(&mut self) -> Result<MatMut<'_, D::Elem>, ShapeError> {
        let l = *self.layout();
        rank2(&l)?;
        Ok(mat_mut(self.data.as_mut_slice(), &l))
    }
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// A row-major copy of a faer matrix (pass `mat.as_ref()` for a `Mat`): `MatRef` of `m` rows
    /// and `n` columns -> `[m, n]`, O(m n), sizes checked against `S` at run time.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when `[m, n]` does not fit `S`; [`ShapeError::Alloc`].
    #[doc(alias = "from_mat")]
    #[try_twin]
    pub fn try_from_faer(m: MatRef<'_, T>) -> Result<Self, ShapeError> {
        let sizes = [m.nrows(), m.ncols()];
        S::check_sizes(&sizes)?;
        let mut v: Vec<T> = crate::memory::try_vec(0, T::ZERO)?;
        let n = sizes[0] * sizes[1];
        v.try_reserve_exact(n).map_err(|_| ShapeError::Alloc { count: n, elem_size: size_of::<T>() })?;
        for i in 0..sizes[0] {
            v.extend((0..sizes[1]).map(|j| *m.get(i, j)));
        }
        Tensor::try_from_vec(&sizes, v)
    }
}
