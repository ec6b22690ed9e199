//! Square-matrix operations: `inv`, `det`, `solve` and `matrix_power`, for one matrix or a batch
//! `[..b, n, n]`. Up to 8x8 by direct code (closed forms up to 4x4, elimination with partial
//! pivoting above; see `kernels::dense`), allocation-free for inline tensors; above 8x8 through
//! faer's LU when the `linalg` feature is on (`kernels::lapack`), by the direct elimination
//! otherwise. Singular matrices are errors, never noise. Also `trace` for any matrix batch.
use crate::error::ShapeError;
use crate::kernels::{self, dense, small};
use crate::layout::{Layout, LayoutRepr, Offsets};
use crate::num::{MatrixFloat, Num};
use crate::shape::{broadcast_sizes, BatchShape, MatrixBatch, Shape, SolveRhs, SquareShape, MAX_RANK};
use crate::storage::{Data, DataMut, Element, Out, Out2, OutData};
use crate::tensor::{OutTensor, OutTensor2, TensorBase};
use alloc::vec::Vec;
use shaped_macros::try_twin;

/// The runtime shape of a batch of matrices `[..b, m, n]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mats {
    sizes: [usize; MAX_RANK],
    r: usize,
}

#[cfg_attr(not(feature = "linalg"), allow(dead_code))]
impl Mats {
    /// The batch of a tensor with these sizes, or the error naming `op` when it has fewer than 2
    /// dims.
    pub(crate) fn of(sizes: &[usize], op: &'static str) -> Result<Self, ShapeError> {
        if sizes.len() < 2 {
            return Err(ShapeError::Invalid(alloc::format!(
                "{op}: needs a matrix [m, n] or a batch [..b, m, n], got sizes {sizes:?}"
            )));
        }
        let mut s = [0; MAX_RANK];
        s[..sizes.len()].copy_from_slice(sizes);
        Ok(Mats { sizes: s, r: sizes.len() })
    }
    /// The batch of square matrices `[..b, n, n]`, and `n`.
    pub(crate) fn square(sizes: &[usize], op: &'static str) -> Result<(Self, usize), ShapeError> {
        let g = Self::of(sizes, op)?;
        match g.mn() {
            (m, n) if m == n => Ok((g, n)),
            _ => Err(ShapeError::Invalid(alloc::format!(
                "{op}: needs a square [n, n] matrix or a batch [..b, n, n], got sizes {sizes:?}"
            ))),
        }
    }
    /// `(m, n)`.
    pub(crate) fn mn(&self) -> (usize, usize) {
        (self.sizes[self.r - 2], self.sizes[self.r - 1])
    }
    /// The batch dims.
    pub(crate) fn batch(&self) -> &[usize] {
        &self.sizes[..self.r - 2]
    }
    /// The sizes `[..b, tail..]` (`tail` at most 2 long).
    pub(crate) fn with(&self, tail: &[usize]) -> ([usize; MAX_RANK], usize) {
        let mut s = [0; MAX_RANK];
        let b = self.r - 2;
        s[..b].copy_from_slice(self.batch());
        s[b..b + tail.len()].copy_from_slice(tail);
        (s, b + tail.len())
    }
    /// A zeroed buffer of sizes `[..b, r, c]` whose matrices are stored column-major (strides
    /// `[.., 1, r]`: what faer writes fastest), and its layout.
    pub(crate) fn zeros_col_major<T: Element>(&self, [r, c]: [usize; 2]) -> Result<(Vec<T>, Layout), ShapeError> {
        let (v, lay) = self.zeros(&[c, r])?;
        let rank = lay.rank();
        Ok((v, lay.transpose(rank - 2, rank - 1)?))
    }
    /// A zeroed row-major buffer of sizes `[..b, tail..]` and its layout (element count checked
    /// before anything is allocated).
    pub(crate) fn zeros<T: Element>(&self, tail: &[usize]) -> Result<(Vec<T>, Layout), ShapeError> {
        let (s, r) = self.with(tail);
        let lay = Layout::contiguous(&s[..r])?;
        Ok((kernels::try_vec(lay.numel(), T::ZERO)?, lay))
    }
}

/// One matrix of a batch: its buffer, offset, sizes and strides (inside the buffer).
#[derive(Clone, Copy)]
struct Mat<'a, T> {
    data: &'a [T],
    off: usize,
    sizes: [usize; 2],
    strides: [isize; 2],
}

/// The matrices of the layout `l` of `data`.
fn mats<'a, T>(data: &'a [T], l: &Layout) -> impl Iterator<Item = Mat<'a, T>> {
    let (offs, sizes, strides): (Offsets, _, _) = l.matrices();
    offs.map(move |off| Mat { data, off, sizes, strides })
}

impl<T: Element> Mat<'_, T> {
    /// The matrix in row-major order: itself when contiguous, else copied into `buf`.
    fn rows<'b>(&'b self, buf: &'b mut [T]) -> Result<&'b [T], ShapeError> {
        let l = Layout::from_parts(&self.sizes, &self.strides, self.off)?;
        Ok(match kernels::contiguous_slice(self.data, &l) {
            Some(a) => a,
            None => {
                kernels::copy_into(buf, self.data, &l);
                buf
            }
        })
    }
}

/// `out = a⁻¹` for one `n`x`n` matrix (faer above [`dense::SMALL`] when available); false when
/// singular. `buf` holds `2 n²` elements for the direct code.
fn inv_one<T: MatrixFloat>(a: Mat<'_, T>, out: &mut [T], buf: &mut [T]) -> Result<bool, ShapeError> {
    let n = a.sizes[0];
    if let (true, Some(l)) = (n > dense::SMALL, T::LAPACK) {
        return Ok((l.inv)(a.data, a.off, a.sizes, a.strides, out));
    }
    let (copy, work) = buf.split_at_mut(n * n);
    let rows = a.rows(copy)?;
    Ok(dense::inv_into(out, rows, n, work))
}

/// The determinant of one `n`x`n` matrix.
fn det_one<T: MatrixFloat>(a: Mat<'_, T>, buf: &mut [T]) -> Result<T, ShapeError> {
    let n = a.sizes[0];
    if let (true, Some(l)) = (n > dense::SMALL, T::LAPACK) {
        return Ok((l.det)(a.data, a.off, a.sizes, a.strides));
    }
    let (copy, work) = buf.split_at_mut(n * n);
    let rows = a.rows(copy)?;
    Ok(dense::det(rows, n, work))
}

/// `out = a⁻¹ b` for one `n`x`n` matrix `a` and `[n, k]` right side `b`; false when singular.
/// `buf` holds `3 n²` elements for the direct code.
fn solve_one<T: MatrixFloat>(a: Mat<'_, T>, b: Mat<'_, T>, out: &mut [T], buf: &mut [T]) -> Result<bool, ShapeError> {
    let (n, k) = (a.sizes[0], b.sizes[1]);
    if let (true, Some(l)) = (n > dense::SMALL, T::LAPACK) {
        return Ok((l.solve)(a.data, a.off, a.sizes, a.strides, b.data, b.off, b.sizes, b.strides, out));
    }
    let (inv, buf) = buf.split_at_mut(n * n);
    if !inv_one(a, inv, buf)? {
        return Ok(false);
    }
    small::matmul((n, n, k), out, inv, 0, [n as isize, 1], b.data, b.off, b.strides);
    Ok(true)
}

/// A scratch buffer of `len` elements for the direct code: on the stack up to `2 · SMALL²`.
fn with_buf<T: Element, R>(len: usize, f: impl FnOnce(&mut [T]) -> Result<R, ShapeError>) -> Result<R, ShapeError> {
    if len <= 3 * dense::SMALL * dense::SMALL {
        let mut stack = [T::ZERO; 3 * dense::SMALL * dense::SMALL];
        f(&mut stack[..len])
    } else {
        f(&mut kernels::try_vec(len, T::ZERO)?)
    }
}

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: MatrixFloat,
{
    /// `n` for one square matrix small enough for the direct code.
    #[inline]
    fn small_order(&self) -> Option<usize>
    where
        S: SquareShape,
    {
        match *self.sizes() {
            [m, n] if m == n && n <= dense::SMALL => Some(n),
            _ => None,
        }
    }

    /// Runs `f(a, n, work)` on one small square matrix (`n <= SMALL`) as a row-major `n * n`
    /// slice (in place when it is contiguous, else a copy on the stack) with a work buffer of
    /// `n * n` elements on the stack, none for contiguous matrices up to 4x4 (the closed forms
    /// need none).
    #[inline]
    fn with_rows<R>(
        &self,
        n: usize,
        f: impl FnOnce(&[D::Elem], usize, &mut [D::Elem]) -> Result<R, ShapeError>,
    ) -> Result<R, ShapeError>
    where
        S: SquareShape,
    {
        let nn = n * n;
        let contiguous = if const { D::INLINE && small::is_static::<S>() } {
            Some(&self.data.as_slice()[..nn])
        } else {
            kernels::contiguous_slice(self.data.as_slice(), self.layout())
        };
        if let (Some(a), true) = (contiguous, n <= 4) {
            return f(a, n, &mut []);
        }
        let mut stack = [D::Elem::ZERO; 2 * dense::SMALL * dense::SMALL];
        let (copy, work) = stack[..2 * nn].split_at_mut(nn);
        match contiguous {
            Some(a) => f(a, n, work),
            None => {
                kernels::copy_into(copy, self.data.as_slice(), self.layout());
                f(copy, n, work)
            }
        }
    }

    /// Elements of scratch the direct code needs per matrix of order `n`: `per · n²`, none when
    /// faer takes it.
    #[inline]
    fn scratch(n: usize, per: usize) -> usize
    where
        S: SquareShape,
    {
        if n > dense::SMALL && D::Elem::LAPACK.is_some() {
            0
        } else {
            per * n * n
        }
    }

    /// The inverse of a square matrix, `[n, n] -> [n, n]`, or of each matrix of a batch
    /// `[..b, n, n]` (PyTorch `torch.linalg.inv`, NumPy `np.linalg.inv`). Up to 8x8: closed forms
    /// up to 4x4 (cofactors), Gauss-Jordan elimination with partial pivoting above, inline and
    /// allocation-free for an inline matrix. Above 8x8: faer's LU with partial pivoting (feature
    /// `linalg`; the direct elimination without it). Any strided view is read in place. Float
    /// element types. A non-square static shape is a compile error.
    ///
    /// # Errors
    /// [`ShapeError::Singular`] when a matrix is singular to working precision: its reciprocal
    /// condition number `1 / (‖A‖₁ ‖A⁻¹‖₁)` is at most `n · ε`, an LU pivot is at most `n · ε`
    /// times the largest, or the inverse is not finite (NumPy raises `LinAlgError` only for
    /// exact singularity and returns noise otherwise); [`ShapeError::Invalid`] when runtime sizes
    /// are not square; [`ShapeError::Alloc`].
    #[doc(alias = "inverse")]
    #[doc(alias = "try_inverse")]
    #[inline]
    #[try_twin(alias = "inverse")]
    pub fn try_inv(&self) -> Result<OutTensor<D, D::Elem, S>, ShapeError>
    where
        S: SquareShape,
    {
        let lay = LayoutRepr::row_major::<S>(|| Layout::contiguous(self.sizes()))?;
        if let Some(n) = self.small_order() {
            return self.with_rows(n, |a, n, work| {
                let mut out = Out::<D, D::Elem, S>::zeroed(n * n)?;
                ShapeError::singular_unless(dense::inv_into(out.as_mut_slice(), a, n, work), "inv", n)?;
                Ok(TensorBase::from_lay(out, lay))
            });
        }
        let (_, n) = Mats::square(self.sizes(), "inv")?;
        let mut out = Out::<D, D::Elem, S>::zeroed(self.numel())?;
        if self.numel() == 0 {
            return Ok(TensorBase::from_lay(out, lay));
        }
        with_buf(Self::scratch(n, 2), |buf| {
            let chunks = out.as_mut_slice().chunks_exact_mut(n * n);
            for (o, a) in chunks.zip(mats(self.data.as_slice(), self.layout())) {
                ShapeError::singular_unless(inv_one(a, o, buf)?, "inv", n)?;
            }
            Ok(())
        })?;
        Ok(TensorBase::from_lay(out, lay))
    }

    /// The determinant of a square matrix, `[n, n] -> scalar`, or of each matrix of a batch,
    /// `[..b, n, n] -> [..b]` (a [`DynShape`](crate::DynShape) tensor gives a tensor, 0-d for one
    /// matrix, as PyTorch) (PyTorch `torch.linalg.det`, NumPy `np.linalg.det`): closed forms up to
    /// 4x4, elimination with partial pivoting up to 8x8, faer's LU above (feature `linalg`); 0
    /// for a singular matrix (within rounding), 1 for `0x0`.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when runtime sizes are not square; [`ShapeError::Alloc`].
    #[doc(alias = "determinant")]
    #[inline]
    #[try_twin(alias = "determinant")]
    pub fn try_det(&self) -> Result<<S::Batch as BatchShape>::Of<D::Elem>, ShapeError>
    where
        S: SquareShape,
    {
        if let Some(n) = self.small_order() {
            let d = self.with_rows(n, |a, n, work| Ok(dense::det(a, n, work)))?;
            return S::Batch::build(&[], |v| {
                v[0] = d;
                Ok(())
            });
        }
        let (g, n) = Mats::square(self.sizes(), "det")?;
        S::Batch::build(g.batch(), |vals| {
            with_buf(Self::scratch(n, 2), |buf| {
                for (v, a) in vals.iter_mut().zip(mats(self.data.as_slice(), self.layout())) {
                    *v = det_one(a, buf)?;
                }
                Ok(())
            })
        })
    }

    /// Solves `self · x = b` for a square `self` and returns `x` (PyTorch `torch.linalg.solve`,
    /// NumPy `np.linalg.solve`). For one matrix `[n, n]`, `b` is a vector `[n]` or a matrix
    /// `[n, k]` and `x` has `b`'s shape; for a batch `[..b, n, n]`, `b` is `[..b, n]` (a vector
    /// per matrix: `b` has `self`'s shape without the last dim, or is 1-D) or `[..b, n, k]`, and
    /// runtime batch dims broadcast. Up to 8x8 as `A⁻¹ · b` with the inverse of
    /// [`try_inv`](Self::try_inv) (its singularity check; inline and allocation-free when an
    /// operand is inline and `b`'s shape static); above, faer's LU (feature `linalg`). A static
    /// row count or batch dim that differs is a compile error.
    ///
    /// # Errors
    /// [`ShapeError::Singular`] as [`try_inv`](Self::try_inv); [`ShapeError::MatMul`] when the
    /// runtime row counts differ or batch dims do not broadcast; [`ShapeError::Invalid`] when
    /// `self` is not square or `b` is 0-d; [`ShapeError::Alloc`].
    #[inline]
    #[try_twin]
    pub fn try_solve<D2: Data<Elem = D::Elem>, SB: SolveRhs<S>>(
        &self,
        b: &TensorBase<D2, SB>,
    ) -> Result<OutTensor2<D, D2, D::Elem, SB>, ShapeError>
    where
        S: SquareShape,
    {
        let lb = b.layout();
        let err = || ShapeError::MatMul { lhs: self.sizes().into(), rhs: lb.sizes().into() };
        if let (Some(n), &[rows, ..], true) = (self.small_order(), lb.sizes(), lb.rank() <= 2) {
            if rows != n {
                return Err(err());
            }
            let (k, sb) = match *lb.strides() {
                [s] => (1, [s, 1]),
                [s0, s1] => (lb.sizes()[1], [s0, s1]),
                _ => unreachable!(),
            };
            return self.with_rows(n, |a, n, work| {
                let lay = LayoutRepr::row_major::<SB>(|| Layout::contiguous(lb.sizes()))?;
                let mut out = Out2::<D, D2, D::Elem, SB>::zeroed(n * k)?;
                let mut inv = [D::Elem::ZERO; dense::SMALL * dense::SMALL];
                ShapeError::singular_unless(dense::inv_into(&mut inv[..n * n], a, n, work), "solve", n)?;
                small::matmul(
                    (n, n, k),
                    out.as_mut_slice(),
                    &inv,
                    0,
                    [n as isize, 1],
                    b.data.as_slice(),
                    lb.offset(),
                    sb,
                );
                Ok(TensorBase::from_lay(out, lay))
            });
        }
        let (g, n) = Mats::square(self.sizes(), "solve")?;
        let (sa, bs, r) = (self.sizes(), lb.sizes(), self.rank());
        if bs.is_empty() {
            return Err(ShapeError::Invalid("solve: the right side must have at least 1 dim".into()));
        }
        // A vector per matrix becomes an `[n, 1]` column, read in place.
        let vector = bs.len() == 1 || (bs.len() == r - 1 && bs == &sa[..r - 1]);
        let bl = if vector { lb.unsqueeze(bs.len())? } else { *lb };
        let br = bl.rank();
        let (rows, k) = (bl.sizes()[br - 2], bl.sizes()[br - 1]);
        if rows != n {
            return Err(err());
        }
        let (batch, nb) = broadcast_sizes(g.batch(), &bl.sizes()[..br - 2]).map_err(|_| err())?;
        if nb + 2 > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: nb + 2 });
        }
        let full = |tail: &[usize]| {
            let mut s = [0usize; MAX_RANK];
            s[..nb].copy_from_slice(&batch[..nb]);
            s[nb..nb + tail.len()].copy_from_slice(tail);
            s
        };
        let out_sizes = if vector { full(&[n]) } else { full(&[n, k]) };
        let out_l = Layout::contiguous(&out_sizes[..nb + if vector { 1 } else { 2 }])?;
        let lay = LayoutRepr::try_from_layout::<SB>(out_l)?;
        let mut out = Out2::<D, D2, D::Elem, SB>::zeroed(out_l.numel())?;
        if out_l.numel() > 0 {
            let (ea, eb) = (self.layout().expand(&full(&[n, n])[..nb + 2])?, bl.expand(&full(&[n, k])[..nb + 2])?);
            with_buf(Self::scratch(n, 3), |buf| {
                let (am, bm) = (mats(self.data.as_slice(), &ea), mats(b.data.as_slice(), &eb));
                for ((o, a), bmat) in out.as_mut_slice().chunks_exact_mut(n * k).zip(am).zip(bm) {
                    ShapeError::singular_unless(solve_one(a, bmat, o, buf)?, "solve", n)?;
                }
                Ok(())
            })?;
        }
        Ok(TensorBase::from_lay(out, lay))
    }

    /// The `k`-th power of a square matrix or of each matrix of a batch, `[..b, n, n] ->
    /// [..b, n, n]` (PyTorch `torch.linalg.matrix_power`, NumPy `np.linalg.matrix_power`):
    /// the identity for `k = 0`, repeated squaring (about `2 log₂ k` matrix products) for `k > 0`,
    /// the power of the inverse for `k < 0`.
    ///
    /// # Errors
    /// [`ShapeError::Singular`] for `k < 0` and a singular matrix (see [`try_inv`](Self::try_inv));
    /// [`ShapeError::Invalid`] when runtime sizes are not square; [`ShapeError::Alloc`].
    #[doc(alias = "pow")]
    #[try_twin]
    pub fn try_matrix_power(&self, k: i64) -> Result<OutTensor<D, D::Elem, S>, ShapeError>
    where
        S: SquareShape,
    {
        let (_, n) = Mats::square(self.sizes(), "matrix_power")?;
        let lay = LayoutRepr::row_major::<S>(|| Layout::contiguous(self.sizes()))?;
        let mut out = Out::<D, D::Elem, S>::zeroed(self.numel())?;
        if self.numel() == 0 {
            return Ok(TensorBase::from_lay(out, lay));
        }
        let mut work = kernels::try_vec(3 * n * n, D::Elem::ZERO)?;
        let mut buf = kernels::try_vec(Self::scratch(n, 2), D::Elem::ZERO)?;
        for (o, a) in out.as_mut_slice().chunks_exact_mut(n * n).zip(mats(self.data.as_slice(), self.layout())) {
            let (base, tmp) = work.split_at_mut(n * n);
            if k < 0 {
                ShapeError::singular_unless(inv_one(a, base, &mut buf)?, "matrix_power", n)?;
            } else {
                base.copy_from_slice(a.rows(&mut tmp[..n * n])?);
            }
            dense::power(base, n, k.unsigned_abs(), o, tmp);
        }
        Ok(TensorBase::from_lay(out, lay))
    }
}

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Num,
{
    /// The sum of the main diagonal of a matrix, `[m, n] -> scalar`, or of each matrix of a
    /// batch, `[..b, m, n] -> [..b]` (PyTorch `torch.trace` for 2-D input and
    /// `x.diagonal(dim1=-2, dim2=-1).sum(-1)` for batches; NumPy `np.trace(x, axis1=-2,
    /// axis2=-1)`). Accumulated as [`sum`](Self::sum): integers in `i64`/`u64`, exactly.
    ///
    /// # Errors
    /// [`ShapeError::Overflow`] when an integer trace does not fit its sum type;
    /// [`ShapeError::Invalid`] when a runtime shape has fewer than 2 dims; [`ShapeError::Alloc`].
    #[try_twin]
    pub fn try_trace(&self) -> Result<<S::Batch as BatchShape>::Of<<D::Elem as Num>::Sum>, ShapeError>
    where
        S: MatrixBatch,
    {
        let g = Mats::of(self.sizes(), "trace")?;
        let r = self.rank();
        let diag = self.layout().diagonal(r - 2, r - 1, 0)?;
        let mut mask = [false; MAX_RANK];
        mask[r - 2] = true;
        let sums = kernels::fold::reduce(self.data.as_slice(), &diag, &mask, &kernels::reduce::Sum)?;
        S::Batch::build(g.batch(), |v| {
            v.copy_from_slice(&sums);
            Ok(())
        })
    }
}
