//! Differentiable linear algebra: `inv`, `solve`, `solve_triangular`, `cholesky`, `det` and
//! `logabsdet` (PyTorch's
//! `derivatives.yaml` rules). The rules multiply and solve with the same kernels as the forward
//! operations, on runtime-shaped views, and give each input's gradient its own shape type.
#[cfg(feature = "linalg")]
use super::ops::c;
use super::ops::{sum_to, typed};
use super::tape::Sink;
use super::var::{back, Var};
use super::GradFloat;
use crate::dim::Dim;
use crate::error::ShapeError;
use crate::shape::{DynShape, SolveRhs, SquareShape};
use crate::tensor::{Tensor, TensorView};
use shaped_macros::try_twin;

impl<'t, T: GradFloat, S: SquareShape> Var<'t, T, S> {
    /// The inverse of a square matrix or of each matrix of a batch (PyTorch `linalg.inv`),
    /// differentiable: same shape. The gradient is `-Yᵀ G Yᵀ` with `Y` the inverse.
    ///
    /// # Errors
    /// [`ShapeError::Singular`] for a matrix singular to working precision (as
    /// [`Tensor::try_inv`](crate::TensorBase::try_inv)); [`ShapeError::Autograd`] for a value of
    /// a finished tape.
    #[try_twin]
    pub fn try_inv(&self) -> Result<Var<'t, T, S>, ShapeError> {
        let y = self.value().try_inv()?;
        self.try_record_matrix(y, |g, y| {
            let yt = y.transpose(-1, -2);
            -&yt.matmul(&g).matmul(&yt)
        })
    }

    /// A node of value `y`, a matrix function of `self` of its shape, whose input gradient is
    /// `grad(g, y)` of the output's gradient and value (both `[..b, n, n]`, seen as runtime-shaped).
    fn try_record_matrix(
        &self,
        y: Tensor<T, S>,
        grad: impl Fn(TensorView<'_, T, DynShape>, TensorView<'_, T, DynShape>) -> Tensor<T, DynShape>
            + Send
            + Sync
            + 'static,
    ) -> Result<Var<'t, T, S>, ShapeError> {
        Self::record([self.node()], y, |[i], y| {
            let y = y.clone();
            back(move |g: Tensor<T, S>, s: &mut Sink<T>| s.add_with(i, || typed::<T, S>(grad(g.as_dyn(), y.as_dyn()))))
        })
    }

    /// The solution `X` of `A X = B` (PyTorch `linalg.solve`; `self` is `A`, square or a batch,
    /// `b` a matrix, a batch or a vector), differentiable in both: `gB = solve(Aᵀ, G)`,
    /// `gA = -gB Xᵀ`. Shapes as [`Tensor::solve`](crate::TensorBase::solve)'s.
    ///
    /// # Errors
    /// As [`Tensor::try_solve`](crate::TensorBase::try_solve) (a singular `A`, runtime sizes
    /// that do not fit); [`ShapeError::Autograd`] for two tapes.
    #[try_twin]
    pub fn try_solve<SB: SolveRhs<S>>(&self, b: &Var<'t, T, SB>) -> Result<Var<'t, T, SB>, ShapeError> {
        let x = self.value().try_solve(b.value())?;
        let a = self.arc().clone();
        // The forward's rule (`Tensor::try_solve`): `b` is a vector (per matrix) when it is 1-D
        // or has `a`'s shape without the last dim; batch dims broadcast.
        let (sa, sb) = (self.sizes(), b.sizes());
        let vector = sb.len() == 1 || (sb.len() + 1 == sa.len() && sb == &sa[..sa.len() - 1]);
        let (la, lb) = (*self.value().layout(), *b.value().layout());
        Self::record([self.node(), b.node()], x, move |[ia, ib], x| {
            let x = x.clone();
            back(move |g: Tensor<T, SB>, s: &mut Sink<T>| {
                // Every product in matrix form (`[.., n, 1]` columns for vectors), so that no
                // later rule has to guess what a rank-(r - 1) operand is.
                let at = a.as_dyn().transpose(-1, -2);
                let gv = g.as_dyn();
                let gb2: Tensor<T, DynShape> = at.solve(&if vector { gv.unsqueeze(-1) } else { gv });
                s.add_with(ia, || {
                    let xv = x.as_dyn();
                    let x2 = if vector { xv.unsqueeze(-1) } else { xv };
                    let ga = gb2.matmul(&x2.transpose(-1, -2));
                    sum_to::<T, S>((-&ga).as_dyn(), la.sizes())
                });
                s.add_with(ib, || {
                    let gb = if vector { gb2.as_dyn().squeeze(-1) } else { gb2.as_dyn() };
                    sum_to::<T, SB>(gb, lb.sizes())
                });
            })
        })
    }
}

impl<'t, T: GradFloat, S: SquareShape> Var<'t, T, S> {
    /// The solution `X` of `A X = B` for a triangular `A` (`self`; PyTorch
    /// `linalg.solve_triangular(A, B, upper=upper, unitriangular=unitriangular)`), differentiable
    /// in both: `gB = solve_triangular(Aᵀ, G)`, and `gA = -gB Xᵀ` kept to `A`'s triangle (its
    /// strict triangle when `unitriangular`: the diagonal is not read).
    ///
    /// # Errors
    /// As [`Tensor::try_solve_triangular`](crate::TensorBase::try_solve_triangular) (a zero on
    /// the diagonal, sizes that do not fit); [`ShapeError::Autograd`] for two tapes.
    #[try_twin]
    pub fn try_solve_triangular<SB: SolveRhs<S>>(
        &self,
        b: &Var<'t, T, SB>,
        upper: bool,
        unitriangular: bool,
    ) -> Result<Var<'t, T, SB>, ShapeError> {
        let x = self.value().try_solve_triangular(b.value(), upper, unitriangular)?;
        let a = self.arc().clone();
        // The forward's rule: `b` of rank `rank(a) - 1` is a vector per matrix; an unbatched `a`
        // serves every matrix of a batched `b` (its gradient is then summed over the batch).
        let vector = b.value().rank() + 1 == self.value().rank();
        let la = *self.value().layout();
        Self::record([self.node(), b.node()], x, move |[ia, ib], x| {
            let x = x.clone();
            back(move |g: Tensor<T, SB>, s: &mut Sink<T>| {
                let at = a.as_dyn().transpose(-1, -2);
                let gb: Tensor<T, DynShape> = at.solve_triangular(&g.as_dyn(), !upper, unitriangular);
                s.add_with(ia, || {
                    let (gb2, x2) = if vector {
                        (gb.as_dyn().unsqueeze(-1), x.as_dyn().unsqueeze(-1))
                    } else {
                        (gb.as_dyn(), x.as_dyn())
                    };
                    let ga = -&gb2.matmul(&x2.transpose(-1, -2));
                    let k = if unitriangular { 1 } else { 0 };
                    let ga = if upper { ga.triu(k) } else { ga.tril(-k) };
                    sum_to::<T, S>(ga.as_dyn(), la.sizes())
                });
                s.add_with(ib, || typed::<T, SB>(gb));
            })
        })
    }

    /// The lower Cholesky factor `L` of a symmetric positive-definite matrix or batch (PyTorch
    /// `linalg.cholesky`; feature `linalg`), differentiable: with `Φ(M)` the lower triangle of
    /// `M` with its diagonal halved, the gradient is the symmetric part of `L⁻ᵀ Φ(Lᵀ G) L⁻¹`
    /// (Murray 2016, PyTorch's rule). Only the matrix's lower triangle is read, but the gradient
    /// is symmetric, as PyTorch's.
    ///
    /// # Errors
    /// [`ShapeError::NotPositiveDefinite`] as
    /// [`Tensor::try_cholesky`](crate::TensorBase::try_cholesky); [`ShapeError::Autograd`] for a
    /// value of a finished tape.
    #[cfg(feature = "linalg")]
    #[try_twin]
    pub fn try_cholesky(&self) -> Result<Var<'t, T, S>, ShapeError> {
        let l = self.value().try_cholesky()?;
        self.try_record_matrix(l, |g, ld| {
            // The identity of `L`'s own shape, `[..b, n, n]`: one per matrix of a batch
            // (an unbatched `[n, n]` right side of rank r - 1 would be read as a batch
            // of vectors by `solve_triangular`).
            let eye = batched_eye::<T>(ld.sizes());
            let lt = ld.transpose(-1, -2);
            let half = c::<T>(0.5);
            let phi = lt.matmul(&g).tril(0);
            let phi = phi.zip_with(&eye.as_dyn(), move |v, e| if e == T::one() { v * half } else { v });
            // L⁻¹ by one triangular solve, then L⁻ᵀ Φ L⁻¹ by two products.
            let linv = ld.solve_triangular(&eye.as_dyn(), false, false);
            let linv_t = linv.as_dyn().transpose(-1, -2);
            let r = linv_t.matmul(&phi.as_dyn()).matmul(&linv.as_dyn());
            let rt = r.as_dyn().transpose(-1, -2);
            r.zip_with(&rt, move |a, b| (a + b) * half)
        })
    }
}

#[cfg(feature = "linalg")]
impl<'t, T: GradFloat, S: crate::shape::MatrixBatch> Var<'t, T, S> {
    /// The least-squares solution `X` of `A X ≈ B` (`self` is `A`, `[m, n]` or a batch, of full
    /// rank; PyTorch `linalg.lstsq(A, B).solution`; feature `linalg`), differentiable in both.
    /// A tall or square `A` (`m >= n`): with `Z = (AᵀA)⁻¹ G` and the residual `R = B - A X`,
    /// `gB = A Z` and `gA = R Zᵀ - A Z Xᵀ`. A wide one (`m < n`, `X` the minimum-norm solution
    /// `A⁺ B`): with `Z = (AAᵀ)⁻¹ A G` and `Y = (AAᵀ)⁻¹ B`, `gB = Z` and
    /// `gA = Y (G - Aᵀ Z)ᵀ - Z Xᵀ` (PyTorch's rule through the pseudo-inverse). Shapes as
    /// [`Tensor::lstsq`](crate::TensorBase::lstsq)'s solution.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for a matrix whose rank is below `min(m, n)` (the solution is
    /// not differentiable there); the errors of
    /// [`Tensor::try_lstsq`](crate::TensorBase::try_lstsq); [`ShapeError::Autograd`] for two
    /// tapes.
    #[try_twin]
    pub fn try_lstsq<SB: crate::ops::linalg::LstsqRhs<S>>(
        &self,
        b: &Var<'t, T, SB>,
    ) -> Result<Var<'t, T, SB::Out>, ShapeError> {
        let r = self.value().try_lstsq(b.value())?;
        let sizes = self.sizes();
        let (m, n) = (sizes[sizes.len() - 2], sizes[sizes.len() - 1]);
        // Full rank, as `rank` counts it: every singular value above rtol σ_max, with
        // rtol = ε max(m, n) (the default of `lstsq`, NumPy and PyTorch).
        let k = m.min(n);
        let rtol = T::epsilon() * c::<T>(m.max(n) as f64);
        let sv = r.singular_values.to_vec();
        let rank_ok = k == 0 || sv.chunks(k).all(|c| c.iter().all(|&v| v > rtol * c[0]));
        if !rank_ok {
            return Err(ShapeError::Invalid(alloc::format!(
                "lstsq of a [{m}, {n}] matrix of rank below {k}: the solution is not differentiable there"
            )));
        }
        let wide = m < n;
        let (a, bv) = (self.arc().clone(), b.arc().clone());
        // The forward's rule (`Tensor::try_lstsq`): `b` is a vector per matrix when it is 1-D
        // or has `a`'s batch dims and one more; its batch dims may broadcast to `a`'s.
        let (sa, sb) = (self.sizes(), b.sizes());
        let vector = sb.len() == 1 || (sb.len() + 1 == sa.len() && sb[..sb.len() - 1] == sa[..sa.len() - 2]);
        let lb = *b.value().layout();
        Self::record([self.node(), b.node()], r.solution, move |[ia, ib], x| {
            let x = x.clone();
            back(move |g: Tensor<T, SB::Out>, s: &mut Sink<T>| {
                let ad = a.as_dyn();
                let at = ad.transpose(-1, -2);
                let (g2, x2, b2) = if vector {
                    (g.as_dyn().unsqueeze(-1), x.as_dyn().unsqueeze(-1), bv.as_dyn().unsqueeze(-1))
                } else {
                    (g.as_dyn(), x.as_dyn(), bv.as_dyn())
                };
                if wide {
                    let aat = ad.matmul(&at);
                    let z = aat.solve(&ad.matmul(&g2)); // (AAᵀ)⁻¹ A G
                    s.add_with(ia, || {
                        let y = aat.solve(&b2); // (AAᵀ)⁻¹ B
                        let pg = g2 - &at.matmul(&z); // (I - A⁺A) G
                        let ga = &y.matmul(&pg.transpose(-1, -2)) - &z.matmul(&x2.transpose(-1, -2));
                        typed::<T, S>(ga)
                    });
                    s.add_with(ib, || {
                        let gb = if vector { z.as_dyn().squeeze(-1) } else { z.as_dyn() };
                        sum_to::<T, SB>(gb, lb.sizes())
                    });
                    return;
                }
                let z = at.matmul(&ad).solve(&g2); // (AᵀA)⁻¹ G
                let az = ad.matmul(&z);
                s.add_with(ia, || {
                    let resid = b2 - &ad.matmul(&x2);
                    let ga = &resid.matmul(&z.as_dyn().transpose(-1, -2)) - &az.matmul(&x2.transpose(-1, -2));
                    typed::<T, S>(ga)
                });
                s.add_with(ib, || {
                    let gb = if vector { az.as_dyn().squeeze(-1) } else { az.as_dyn() };
                    sum_to::<T, SB>(gb, lb.sizes())
                });
            })
        })
    }
}

impl<'t, T: GradFloat, M: Dim, N: Dim> Var<'t, T, (M, N)>
where
    (M, N): SquareShape,
{
    /// The determinant of a square matrix as a `Shape![]` value (PyTorch `linalg.det`),
    /// differentiable: the gradient is `g det(A) A⁻ᵀ`.
    ///
    /// # Errors
    /// [`ShapeError::Singular`] for a matrix singular to working precision: the gradient there
    /// (the adjugate) needs a decomposition this rule does not make, so the matrix is refused
    /// when recorded rather than given a wrong gradient at `backward` (PyTorch goes through an
    /// SVD); [`ShapeError::Autograd`] for a value of a finished tape.
    #[try_twin]
    pub fn try_det(&self) -> Result<Var<'t, T, ()>, ShapeError> {
        let inv = self.value().as_dyn().try_inv()?;
        let d = self.value().as_dyn().try_det()?.item();
        let out = Tensor::<T, ()>::from_vec(&[], alloc::vec![d]);
        Self::record([self.node()], out, move |[i], _| {
            back(move |g: Tensor<T, ()>, s: &mut Sink<T>| {
                let k = g.item() * d;
                s.add_with(i, || typed::<T, (M, N)>(inv.as_dyn().transpose(0, 1).map(move |v| v * k)))
            })
        })
    }

    /// `ln |det A|` of a square matrix as a `Shape![]` value (PyTorch `linalg.slogdet`'s
    /// `logabsdet`), differentiable: the gradient is `g A⁻ᵀ`.
    ///
    /// # Errors
    /// [`ShapeError::Singular`] for a matrix singular to working precision (whose `logabsdet`
    /// is `-inf` and has no gradient); [`ShapeError::Autograd`] for a value of a finished tape.
    #[try_twin]
    pub fn try_logabsdet(&self) -> Result<Var<'t, T, ()>, ShapeError> {
        let inv = self.value().as_dyn().try_inv()?;
        let d = self.value().as_dyn().try_det()?.item();
        ShapeError::singular_unless(d != T::zero(), "logabsdet", self.sizes()[0])?;
        let out = Tensor::<T, ()>::from_vec(&[], alloc::vec![d.abs().ln()]);
        Self::record([self.node()], out, move |[i], _| {
            back(move |g: Tensor<T, ()>, s: &mut Sink<T>| {
                let k = g.item();
                s.add_with(i, || typed::<T, (M, N)>(inv.as_dyn().transpose(0, 1).map(move |v| v * k)))
            })
        })
    }
}

/// The identity of shape `sizes` (`[..b, n, n]`): a batch of identity matrices, row-major.
#[cfg(feature = "linalg")]
fn batched_eye<T: GradFloat>(sizes: &[usize]) -> Tensor<T, DynShape> {
    let n = sizes[sizes.len() - 1];
    let count: usize = sizes.iter().product();
    let mut data = alloc::vec![T::zero(); count];
    for (k, v) in data.iter_mut().enumerate() {
        let (i, j) = ((k / n) % n, k % n);
        if i == j {
            *v = T::one();
        }
    }
    Tensor::from_vec(sizes, data)
}
