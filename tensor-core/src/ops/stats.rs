//! Statistics and fused products, as PyTorch: `cov`, `corrcoef`, `trapezoid`, and the
//! scale-and-add forms `addmm`, `baddbmm` and `scaled_add` (ndarray's name for `axpy`).
//!
//! Means and integrals use the compensated sums of the reductions; the covariance's products
//! go through the crate's matrix product (gemm), as PyTorch's and NumPy's do.
use crate::dim::Dim;
use crate::error::ShapeError;
use crate::kernels;
use crate::layout::normalize_axis;
use crate::num::{Gemm, Num};
use crate::shape::{DropAxis, DynShape, ExpandsTo, MatMulShape, Shape, VectorShape};
use crate::storage::{Data, DataMut, Element};
use crate::tensor::{OutTensor2, Tensor, TensorBase};
use alloc::format;
use alloc::vec::Vec;
use num_traits::Float;
use shaped_macros::try_twin;

/// `T` from an `f64` count or constant (exact for the counts of any tensor that fits memory in
/// `f64`; rounded for `f32` and the half types, as PyTorch divides in the tensor's type).
fn c<T: Float>(v: f64) -> T {
    T::from(v).unwrap_or_else(T::nan)
}

/// The covariance of the rows of the row-major `[v, n]` values `x`, `[v, v]` row-major.
fn cov_rows<T: Float + Num<Sum = T> + Gemm>(
    x: &[T],
    v: usize,
    n: usize,
    correction: usize,
) -> Result<Vec<T>, ShapeError> {
    let mut centred = kernels::try_vec(v * n, T::ZERO)?;
    if n > 0 {
        for (row, out) in x.chunks_exact(n).zip(centred.chunks_exact_mut(n)) {
            let mean = T::acc_finish(T::acc_slice(row)).unwrap_or_else(T::nan) / c(n as f64);
            for (o, &e) in out.iter_mut().zip(row) {
                *o = e - mean;
            }
        }
    }
    let a = Tensor::<T, DynShape>::try_from_vec(&[v, n], centred)?;
    let p = a.try_matmul(&a.t())?;
    // n - correction <= 0 divides by zero: inf or NaN, as PyTorch and NumPy (with a warning).
    let div: T = c(n.saturating_sub(correction) as f64);
    Ok(p.to_vec().into_iter().map(|e| e / div).collect())
}

/// Covariance, correlation and the trapezoidal rule (float element types).
impl<D: Data, V: Dim, N: Dim> TensorBase<D, (V, N)>
where
    D::Elem: Float + Num<Sum = D::Elem> + Gemm,
{
    /// The covariance matrix of the `V` variables in the rows of `self`, each observed `N`
    /// times along the columns (PyTorch `torch.cov(self, correction=correction)`, NumPy
    /// `np.cov(self, ddof=correction)`): `[V, N]` gives `[V, V]`, entry `(i, j)` the sum of
    /// `(x_i - mean_i)(x_j - mean_j)` over the observations divided by `N - correction`
    /// (`correction = 1`: the unbiased estimate). `N <= correction` divides by zero, giving inf
    /// or NaN, as PyTorch. NaN in a row makes its row and column NaN.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let x: Tensor<f64, Shape![2, 3]> = Tensor::from([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]);
    /// let c: Tensor<f64, Shape![2, 2]> = x.cov(1);
    /// assert_eq!(c.to_vec(), [1.0, -1.0, -1.0, 1.0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_cov(&self, correction: usize) -> Result<Tensor<D::Elem, (V, V)>, ShapeError> {
        let (v, n) = (self.sizes()[0], self.sizes()[1]);
        let x = kernels::to_vec(self.data.as_slice(), self.layout())?;
        Tensor::try_from_vec(&[v, v], cov_rows(&x, v, n, correction)?)
    }
    /// The Pearson correlation coefficients of the rows of `self` (PyTorch `torch.corrcoef`,
    /// NumPy `np.corrcoef`): `[V, N]` gives `[V, V]`, the covariance divided by the outer product
    /// of the standard deviations, clipped to `[-1, 1]` as both do. A constant row gives NaN in
    /// its row and column (0 / 0).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let x: Tensor<f64, Shape![2, 4]> = Tensor::from([[1.0, 2.0, 3.0, 4.0], [8.0, 6.0, 4.0, 2.0]]);
    /// assert_eq!(x.corrcoef().to_vec(), [1.0, -1.0, -1.0, 1.0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_corrcoef(&self) -> Result<Tensor<D::Elem, (V, V)>, ShapeError> {
        let (v, n) = (self.sizes()[0], self.sizes()[1]);
        let x = kernels::to_vec(self.data.as_slice(), self.layout())?;
        let mut cv = cov_rows(&x, v, n, 1)?;
        let sd: Vec<D::Elem> = (0..v).map(|i| cv[i * v + i].sqrt()).collect();
        let one = <D::Elem as Element>::ONE;
        for i in 0..v {
            for j in 0..v {
                let r = cv[i * v + j] / sd[i] / sd[j];
                cv[i * v + j] = if r.is_nan() { r } else { r.max(-one).min(one) };
            }
        }
        Tensor::try_from_vec(&[v, v], cv)
    }
}

/// The trapezoidal rule along an axis (float element types).
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Float + Num<Sum = D::Elem>,
{
    /// The integral of each line of samples along `axis`, `spacing` apart (`x` given, the
    /// points `x[i]` along the axis), into a tensor of shape `S2`.
    fn trapezoid_as<S2: Shape>(
        &self,
        axis: isize,
        spacing: Spacing<'_, D::Elem>,
    ) -> Result<Tensor<D::Elem, S2>, ShapeError> {
        let ax = normalize_axis(axis, self.rank())?;
        let n = self.sizes()[ax];
        if let Spacing::Points(x) = spacing {
            if x.len() != n {
                return Err(ShapeError::Mismatch {
                    op: "trapezoid",
                    what: format!("(one sample point per element of dimension {ax})"),
                    lhs: self.sizes().into(),
                    rhs: [x.len()].into(),
                });
            }
        }
        let lines = self.lines_last(ax)?;
        let mut sizes = self.sizes().to_vec();
        sizes.remove(ax);
        let count: usize = sizes.iter().product();
        let half = c::<D::Elem>(0.5);
        let mut out = kernels::try_with_capacity(count)?;
        let mut terms = kernels::try_with_capacity(n.saturating_sub(1))?;
        for k in 0..count {
            let line = &lines[k * n..(k + 1) * n];
            terms.clear();
            terms.extend((1..n).map(|i| {
                let width = match spacing {
                    Spacing::Uniform(dx) => dx,
                    Spacing::Points(x) => x[i] - x[i - 1],
                };
                width * (line[i] + line[i - 1]) * half
            }));
            out.push(<D::Elem as Num>::acc_finish(<D::Elem as Num>::acc_slice(&terms)).unwrap_or_else(D::Elem::nan));
        }
        Tensor::try_from_vec(&sizes, out)
    }

    /// The integral of the samples along `axis`, `dx` apart, by the trapezoidal rule (PyTorch
    /// `torch.trapezoid(self, dx=dx, dim=axis)`, NumPy `np.trapezoid`): the shape without `axis`. A
    /// line of fewer than two samples integrates to 0. Compensated summation.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Shape, Tensor};
    /// let y: Tensor<f64, Shape![2, 3]> = Tensor::from([[1.0, 2.0, 3.0], [0.0, 4.0, 0.0]]);
    /// assert_eq!(y.trapezoid(0.5, Ax::<1>).to_vec(), [2.0, 2.0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has no such axis; [`ShapeError::Alloc`].
    #[doc(alias = "trapz")]
    #[try_twin(alias = "trapz")]
    pub fn try_trapezoid<X, M, Y: Shape>(&self, dx: D::Elem, axis: X) -> Result<Tensor<D::Elem, Y>, ShapeError>
    where
        S: DropAxis<X, M, Removed = Y>,
    {
        self.trapezoid_as(<S as DropAxis<X, M>>::axis_index(&axis), Spacing::Uniform(dx))
    }
    /// [`try_trapezoid`](Self::try_trapezoid) at the sample points `x` along `axis` (PyTorch
    /// `torch.trapezoid(self, x, dim=axis)` with a 1-D `x`): the widths are `x[i] - x[i - 1]`.
    ///
    /// `x` is `(K,)`, or a [`DynShape`] tensor of rank 1 (checked at run time).
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when `x` does not have one point per element of dim `axis`;
    /// [`ShapeError::Invalid`] when `x` is not 1-D; [`ShapeError::Axis`]; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_trapezoid_x<X, M, Y: Shape>(
        &self,
        x: &TensorBase<impl Data<Elem = D::Elem>, impl VectorShape>,
        axis: X,
    ) -> Result<Tensor<D::Elem, Y>, ShapeError>
    where
        S: DropAxis<X, M, Removed = Y>,
    {
        self.trapezoid_x_at(x, <S as DropAxis<X, M>>::axis_index(&axis))
    }
    /// [`try_trapezoid`](Self::try_trapezoid) along a runtime axis: a [`DynShape`] result.
    ///
    /// # Errors
    /// As [`try_trapezoid`](Self::try_trapezoid).
    #[try_twin]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_trapezoid_dyn(&self, dx: D::Elem, axis: isize) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        self.trapezoid_as(axis, Spacing::Uniform(dx))
    }
    /// [`try_trapezoid_x`](Self::try_trapezoid_x) along a runtime axis (negative counts from the
    /// end; PyTorch `torch.trapezoid(self, x, dim=axis)` with a 1-D `x`): a [`DynShape`] result.
    /// `x` may have any shape type (a [`DynShape`] too, which `trapezoid_x` does not take); its
    /// runtime rank must be 1.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let y: Tensor<f64, DynShape> = Tensor::from([[1.0, 2.0, 3.0], [0.0, 4.0, 0.0]]).into_dyn();
    /// let x = Tensor::from([0.0, 1.0, 3.0]).into_dyn();
    /// assert_eq!(y.trapezoid_x_dyn(&x, -1).to_vec(), [6.5, 6.0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `x` is not 1-D; [`ShapeError::Mismatch`] when `x` does not
    /// have one point per element of the dim; [`ShapeError::Axis`] naming the axis and the rank;
    /// [`ShapeError::Alloc`].
    #[try_twin]
    #[deprecated(
        note = "the axis argument takes an `isize` and the sample points may be a `DynShape` tensor: `trapezoid_x(&x, axis)`"
    )]
    pub fn try_trapezoid_x_dyn(
        &self,
        x: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
        axis: isize,
    ) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        self.trapezoid_x_at(x, axis)
    }

    /// The body of `try_trapezoid_x` along a runtime axis (its deprecated `_dyn` form
    /// forwards here too).
    pub(crate) fn trapezoid_x_at<S2: Shape>(
        &self,
        x: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,
        axis: isize,
    ) -> Result<Tensor<D::Elem, S2>, ShapeError> {
        if x.rank() != 1 {
            return Err(ShapeError::Invalid(alloc::format!(
                "trapezoid: the sample points x must be 1-D, got sizes {:?}",
                x.sizes()
            )));
        }
        let x = kernels::to_vec(x.data.as_slice(), x.layout())?;
        self.trapezoid_as(axis, Spacing::Points(&x))
    }
}

/// The spacing of `trapezoid`'s samples.
#[derive(Clone, Copy)]
enum Spacing<'a, T> {
    Uniform(T),
    Points(&'a [T]),
}

/// `try_addmm` and `try_baddbmm`: one operation (the product batches) under PyTorch's two
/// names, with one signature. Each takes its docs and the names of its operands; `#[try_twin]`
/// writes its panicking twin.
macro_rules! addmm_forms {
    ($($(#[$doc:meta])* fn $name:ident($m1:ident, $m2:ident);)*) => {$(
        $(#[$doc])*
        #[allow(clippy::type_complexity)]
        #[try_twin]
        pub fn $name<D1: Data<Elem = D::Elem>, S1, D2: Data<Elem = D::Elem>, S2: Shape>(
            &self,
            $m1: &TensorBase<D1, S1>,
            $m2: &TensorBase<D2, S2>,
            beta: D::Elem,
            alpha: D::Elem,
        ) -> Result<OutTensor2<D1, D2, D::Elem, <S1 as MatMulShape<S2>>::Out>, ShapeError>
        where
            S1: MatMulShape<S2>,
            S: ExpandsTo<<S1 as MatMulShape<S2>>::Out>,
        {
            let mut p = $m1.try_matmul($m2)?;
            self.scale_add_into(&mut p, beta, alpha)?;
            Ok(p)
        }
    )*};
}

/// Scale-and-add products (element types with a matrix product).
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Gemm,
{
    /// `p = alpha * p + beta * self`, `self` broadcast to `p`'s shape (the scale-and-add of
    /// `addmm` on its product `p`). With `beta == 0`, `self` is not read.
    fn scale_add_into(
        &self,
        p: &mut TensorBase<impl DataMut<Elem = D::Elem>, impl Shape>,
        beta: D::Elem,
        alpha: D::Elem,
    ) -> Result<(), ShapeError> {
        let lp = *p.layout();
        let li = self.layout().expand(lp.sizes())?;
        let skip = beta == D::Elem::ZERO;
        kernels::zip_assign(p.data.as_mut_slice(), &lp, self.data.as_slice(), &li, |d, s| {
            let scaled = Num::mul(alpha, *d);
            *d = if skip { scaled } else { Num::add(scaled, Num::mul(beta, s)) };
        });
        Ok(())
    }

    addmm_forms! {
        /// `beta * self + alpha * (m1 @ m2)` (PyTorch `torch.addmm(self, m1, m2, beta=beta,
        /// alpha=alpha)`): the shape of the product (`[M, K] @ [K, P]` is `[M, P]`), `self`
        /// broadcast to it. With `beta == 0`, `self` is not read, so its NaNs do not propagate (as
        /// PyTorch). Batched operands work as for [`matmul`](Self::matmul), which makes this
        /// `baddbmm` too.
        ///
        /// ```
        /// # extern crate shaped_core as shaped;
        /// use shaped::{Shape, Tensor};
        /// let bias: Tensor<f32, Shape![2]> = Tensor::from([1.0, -1.0]);
        /// let x: Tensor<f32, Shape![1, 2]> = Tensor::from([[1.0, 2.0]]);
        /// let w: Tensor<f32, Shape![2, 2]> = Tensor::from([[1.0, 0.0], [0.0, 1.0]]);
        /// let y: Tensor<f32, Shape![1, 2]> = bias.addmm(&x, &w, 1.0, 2.0);
        /// assert_eq!(y.to_vec(), [3.0, 3.0]);
        /// ```
        ///
        /// # Errors
        /// [`ShapeError::MatMul`] naming both shapes when the product's runtime inner dims differ
        /// (static ones are a compile error); [`ShapeError::Expand`] when `self` does not broadcast
        /// to the product's runtime shape; [`ShapeError::Alloc`].
        fn try_addmm(m1, m2);
        /// `beta * self + alpha * (b1 @ b2)` over batches of matrices (PyTorch `torch.baddbmm`):
        /// `[B, M, K] @ [B, K, P]` is `[B, M, P]`, `self` broadcast to it. The same operation as
        /// [`addmm`](Self::addmm), whose product batches.
        ///
        /// # Errors
        /// As [`try_addmm`](Self::try_addmm).
        fn try_baddbmm(b1, b2);
    }
}

/// `scaled_add` (every numeric element type).
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// `self += alpha * rhs` in place, `rhs` broadcast to `self`'s shape (ndarray's
    /// `scaled_add`, BLAS `axpy`, PyTorch `self.add_(rhs, alpha=alpha)`). Shapes are unchanged;
    /// integers wrap.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let mut y: Tensor<f32, Shape![2, 2]> = Tensor::ones();
    /// y.scaled_add(2.0, &Tensor::from([1.0f32, -1.0]));
    /// assert_eq!(y.to_vec(), [3.0, -1.0, 3.0, -1.0]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Expand`] when `rhs` does not broadcast to `self`'s runtime shape (static
    /// shapes that cannot are a compile error). Nothing is written then.
    #[doc(alias = "axpy")]
    #[try_twin(alias = "axpy")]
    pub fn try_scaled_add<S2: ExpandsTo<S>>(
        &mut self,
        alpha: D::Elem,
        rhs: &TensorBase<impl Data<Elem = D::Elem>, S2>,
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
    {
        let ld = *self.layout();
        let lr = rhs.layout().expand(ld.sizes())?;
        kernels::zip_assign_par(self.data.as_mut_slice(), &ld, rhs.data.as_slice(), &lr, move |d, s| {
            *d = Num::add(*d, Num::mul(alpha, s))
        });
        Ok(())
    }
}
