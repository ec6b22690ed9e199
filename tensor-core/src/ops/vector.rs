//! Vector products: `dot`, `mv`, `outer` and `cross`, for every storage kind. Static sizes are
//! checked at compile time (a `Dyn` size at run time); inline operands of static shapes run with
//! constant sizes and strides and give inline results (see [`STensor`](crate::STensor)).
use crate::dim::{Const, Dim, Dyn, SameDim};
use crate::error::ShapeError;
use crate::kernels::{self, small, Gemm};
use crate::layout::{Layout, LayoutRepr};
use crate::num::Num;
use crate::storage::{Data, DataMut, Out2, OutData};
use crate::tensor::{OutTensor2, TensorBase};
use shaped_macros::try_twin;

/// The offset, stride and length of a 1-D tensor's elements.
#[inline(always)]
fn parts1<D: Data, N: Dim>(x: &TensorBase<D, (N,)>) -> (usize, isize, usize) {
    let l = x.layout();
    (l.offset(), l.strides()[0], l.sizes()[0])
}

impl<D: Data, N: Dim> TensorBase<D, (N,)>
where
    D::Elem: Num,
{
    /// The dot product of two vectors, `[n] · [n] -> scalar` (PyTorch `torch.dot`, NumPy
    /// `np.dot` of 1-D arrays). Static lengths are checked at compile time. Integer products and
    /// sums wrap (see [`crate::num`]).
    ///
    /// # Errors
    /// [`ShapeError::MatMul`] naming both shapes when runtime lengths differ.
    #[doc(alias = "inner")]
    #[inline]
    #[try_twin(alias = "inner")]
    #[rustfmt::skip] // the bound on the signature's line: it is what an error shows
    pub fn try_dot<D2: Data<Elem = D::Elem>, N2: Dim>(&self, rhs: &TensorBase<D2, (N2,)>) -> Result<D::Elem, ShapeError> where N: SameDim<N2, (N,), (N2,)> {
        let ((oa, sa, n), (ob, sb, n2)) = (parts1(self), parts1(rhs));
        if n != n2 {
            return Err(ShapeError::MatMul { lhs: self.sizes().into(), rhs: rhs.sizes().into() });
        }
        Ok(kernels::vector::dot(n, self.data.as_slice(), oa, sa, rhs.data.as_slice(), ob, sb))
    }

    /// The outer product `[m] ⊗ [n] -> [m, n]`, `out[i, j] = self[i] · rhs[j]` (PyTorch
    /// `torch.outer`, NumPy `np.outer`). Inline when either operand is inline and both lengths
    /// are static.
    ///
    /// # Errors
    /// [`ShapeError::Overflow`] when `m · n` does not fit `isize`; [`ShapeError::Alloc`].
    #[inline]
    #[try_twin(alias = "ger")]
    pub fn try_outer<D2: Data<Elem = D::Elem>, N2: Dim>(
        &self,
        rhs: &TensorBase<D2, (N2,)>,
    ) -> Result<OutTensor2<D, D2, D::Elem, (N, N2)>, ShapeError> {
        let ((oa, sa, m), (ob, sb, n)) = (parts1(self), parts1(rhs));
        let lay = LayoutRepr::row_major::<(N, N2)>(|| Layout::contiguous(&[m, n]))?;
        let mut out = Out2::<D, D2, D::Elem, (N, N2)>::zeroed(m * n)?;
        kernels::vector::outer(out.as_mut_slice(), n, (self.data.as_slice(), oa, sa), (rhs.data.as_slice(), ob, sb));
        Ok(TensorBase::from_lay(out, lay))
    }

    /// The cross product of 3-vectors, `[3] × [3] -> [3]` (PyTorch `torch.linalg.cross`, NumPy
    /// `np.cross`). A static length other than 3 is a compile error; a `Dyn` one is checked here.
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when a runtime length is not 3.
    #[inline]
    #[try_twin]
    pub fn try_cross<D2: Data<Elem = D::Elem>, N2: Dim>(
        &self,
        rhs: &TensorBase<D2, (N2,)>,
    ) -> Result<OutTensor2<D, D2, D::Elem, (<N as Cross3<N2>>::Out,)>, ShapeError>
    where
        N: Cross3<N2>,
    {
        let ((oa, sa, n), (ob, sb, n2)) = (parts1(self), parts1(rhs));
        if n != 3 || n2 != 3 {
            // Built here, not through `ShapeError::mismatch`: with the call, the 3-vector product
            // of runtime-shaped operands took 1.4x the time (benches/small.rs `vec3_cross`,
            // 2026-11-30), its result moved through memcpy.
            return Err(ShapeError::Mismatch {
                op: "cross",
                what: "are not both 3-vectors".into(),
                lhs: self.sizes().into(),
                rhs: rhs.sizes().into(),
            });
        }
        let mut out = Out2::<D, D2, D::Elem, (<N as Cross3<N2>>::Out,)>::zeroed(3)?;
        let c = kernels::vector::cross((self.data.as_slice(), oa, sa), (rhs.data.as_slice(), ob, sb));
        out.as_mut_slice().copy_from_slice(&c);
        let lay = LayoutRepr::row_major::<(<N as Cross3<N2>>::Out,)>(|| Layout::contiguous(&[3]))?;
        Ok(TensorBase::from_lay(out, lay))
    }
}

/// The lengths of a cross product's operands: 3, or `Dyn` (checked at run time).
#[diagnostic::on_unimplemented(
    message = "`cross` needs 3-vectors, not `[{Self}]` and `[{Rhs}]`",
    label = "the cross product is defined for 3-vectors only"
)]
pub trait Cross3<Rhs>: Dim {
    /// `Const<3>` (or `Dyn` when both are).
    type Out: Dim;
}
impl Cross3<Const<3>> for Const<3> {
    type Out = Const<3>;
}
impl Cross3<Dyn> for Const<3> {
    type Out = Const<3>;
}
impl Cross3<Const<3>> for Dyn {
    type Out = Const<3>;
}
impl Cross3<Dyn> for Dyn {
    type Out = Dyn;
}

impl<D: Data, M: Dim, K: Dim> TensorBase<D, (M, K)>
where
    D::Elem: Gemm,
{
    /// The matrix-vector product `[m, k] @ [k] -> [m]` (PyTorch `torch.mv`, and `matmul` of a
    /// matrix by a 1-D tensor). Static inner dims are checked at compile time. Inline when either
    /// operand is inline and `m` is static; small static sizes run by direct code, larger ones
    /// through the gemm. Integer products wrap.
    ///
    /// # Errors
    /// [`ShapeError::MatMul`] naming both shapes when the runtime inner dims differ;
    /// [`ShapeError::Alloc`].
    #[inline]
    #[try_twin(alias = "gemv", alias = "dot")]
    pub fn try_mv<D2: Data<Elem = D::Elem>, K2: Dim>(
        &self,
        rhs: &TensorBase<D2, (K2,)>,
    ) -> Result<OutTensor2<D, D2, D::Elem, (M,)>, ShapeError>
    where
        K: SameDim<K2, (M, K), (K2,)>,
    {
        let (la, (ob, sb, k2)) = (self.layout(), parts1(rhs));
        let (m, k) = (la.sizes()[0], la.sizes()[1]);
        if k != k2 {
            return Err(ShapeError::MatMul { lhs: self.sizes().into(), rhs: rhs.sizes().into() });
        }
        let lay = LayoutRepr::row_major::<(M,)>(|| Layout::contiguous(&[m]))?;
        let mut out = Out2::<D, D2, D::Elem, (M,)>::zeroed(m)?;
        let (a, b) = (self.data.as_slice(), rhs.data.as_slice());
        let (sa, oa) = ([la.strides()[0], la.strides()[1]], la.offset());
        if const { crate::ops::matmul::direct::<(M, K), (K, Const<1>)>(D::INLINE || D2::INLINE).is_some() } {
            small::matmul((m, k, 1), out.as_mut_slice(), a, oa, sa, b, ob, [sb, 1]);
        } else if m > 0 {
            // The vector as a [k, 1] matrix, read in place by the gemm.
            let lb = Layout::from_parts(&[k, 1], &[sb, 1], ob)?;
            kernels::gemm(a, la, b, &lb, out.as_mut_slice());
        }
        Ok(TensorBase::from_lay(out, lay))
    }
}

/// The same products for [`DynShape`](crate::DynShape) tensors: ranks and lengths are checked at
/// run time, then the typed forms above run on `[_]`/`[_, _]` views.
impl<D: Data> TensorBase<D, crate::DynShape>
where
    D::Elem: Num,
{
    /// The 1-D view `[_]` of a runtime-shaped tensor, or the error naming `op`.
    fn vector_view(&self, op: &str) -> Result<crate::TensorView<'_, D::Elem, (Dyn,)>, ShapeError> {
        match self.rank() {
            1 => Ok(TensorBase::from_parts(self.data.as_slice(), *self.layout())),
            _ => Err(ShapeError::Invalid(alloc::format!("{op}: needs a 1-D tensor, got sizes {:?}", self.sizes()))),
        }
    }

    /// The dot product of two 1-D tensors (PyTorch `torch.dot`, NumPy `np.dot` of 1-D arrays);
    /// see the typed [`try_dot`](TensorBase::try_dot).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when an operand is not 1-D; [`ShapeError::MatMul`] when the lengths
    /// differ.
    #[doc(alias = "inner")]
    #[try_twin(alias = "inner")]
    pub fn try_dot<D2: Data<Elem = D::Elem>>(
        &self,
        rhs: &TensorBase<D2, crate::DynShape>,
    ) -> Result<D::Elem, ShapeError> {
        self.vector_view("dot")?.try_dot(&rhs.vector_view("dot")?)
    }

    /// The outer product of two 1-D tensors, `[m] ⊗ [n] -> [m, n]` (PyTorch `torch.outer`, NumPy
    /// `np.outer`).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when an operand is not 1-D; [`ShapeError::Overflow`];
    /// [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_outer<D2: Data<Elem = D::Elem>>(
        &self,
        rhs: &TensorBase<D2, crate::DynShape>,
    ) -> Result<crate::Tensor<D::Elem, crate::DynShape>, ShapeError> {
        let o = self.vector_view("outer")?.try_outer(&rhs.vector_view("outer")?)?;
        Ok(o.into_dyn())
    }

    /// The cross product of two 3-vectors (PyTorch `torch.linalg.cross`, NumPy `np.cross`).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when an operand is not a 1-D tensor of 3 elements.
    #[try_twin]
    pub fn try_cross<D2: Data<Elem = D::Elem>>(
        &self,
        rhs: &TensorBase<D2, crate::DynShape>,
    ) -> Result<crate::Tensor<D::Elem, crate::DynShape>, ShapeError> {
        let (a, b) = (self.vector_view("cross")?, rhs.vector_view("cross")?);
        Ok(a.try_cross(&b)?.into_dyn())
    }

    /// The matrix-vector product `[m, k] · [k] -> [m]` (PyTorch `torch.mv`).
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `self` is not 2-D or `rhs` not 1-D; [`ShapeError::MatMul`]
    /// when the lengths differ; [`ShapeError::Alloc`].
    #[try_twin(alias = "gemv", alias = "dot")]
    pub fn try_mv<D2: Data<Elem = D::Elem>>(
        &self,
        rhs: &TensorBase<D2, crate::DynShape>,
    ) -> Result<crate::Tensor<D::Elem, crate::DynShape>, ShapeError>
    where
        D::Elem: Gemm,
    {
        if self.rank() != 2 {
            return Err(ShapeError::Invalid(alloc::format!("mv: needs a 2-D matrix, got sizes {:?}", self.sizes())));
        }
        let a: crate::TensorView<'_, D::Elem, (Dyn, Dyn)> =
            TensorBase::from_parts(self.data.as_slice(), *self.layout());
        Ok(a.try_mv(&rhs.vector_view("mv")?)?.into_dyn())
    }
}

/// Never implemented: the bound of [`MatrixDot::dot`], whose message says what `dot` takes and
/// what to call for matrices.
#[diagnostic::on_unimplemented(
    message = "`dot` takes two 1-D tensors of numbers (PyTorch `torch.dot`), not shape `{Self}`",
    label = "`dot` of this tensor",
    note = "for matrices use `a.matmul(&b)` (ndarray's `dot`); for the sum of all products of two same-shape tensors, `(&a * &b).sum()`"
)]
pub trait DotShape {}

/// `dot` on every tensor that has no `dot` of its own (all but 1-D and
/// [`DynShape`](crate::DynShape) tensors of numbers), so that the mistake lands on
/// [`DotShape`]'s message instead of rustc's "a method with a similar name: `det`". In the
/// prelude. It cannot be called: its bound never holds.
pub trait MatrixDot {
    /// The tensor's shape, named in the error.
    type Shape;
    /// Refused at compile time; see [`DotShape`].
    fn dot<R>(&self, rhs: &R) -> !
    where
        Self::Shape: DotShape;
}
impl<D: Data, S: crate::shape::Shape> MatrixDot for TensorBase<D, S> {
    type Shape = S;
    fn dot<R>(&self, _: &R) -> !
    where
        S: DotShape,
    {
        unreachable!("DotShape has no implementations")
    }
}
