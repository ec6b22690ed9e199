//! Matrix product of 2-D tensors, of batches of them, and of 1-D operands (PyTorch `matmul`),
//! through faer's `matmul` (or `matrixmultiply` without faer), directly on strided views. A 1-D operand is read in place as a
//! `[1, k]` row (left) or a `[k, 1]` column (right); the result's layout drops that dim.
use crate::error::ShapeError;
use crate::kernels::{self, small, Gemm};
use crate::layout::{Layout, LayoutRepr};
use crate::shape::{broadcast_sizes, MatMulShape, SameShape, Shape, MAX_RANK};
use crate::storage::{Data, DataMut, Element, Out2, OutData};
use crate::tensor::{OutTensor2, TensorBase};
use shaped_macros::try_twin;

/// `(m, k, n)` of a static product `S @ S2` of 1-D or 2-D operands (a 1-D left operand is a
/// `[1, k]` row, a 1-D right one a `[k, 1]` column) small enough for the direct kernel
/// ([`small::matmul`]), or `None`: up to [`small::DIRECT_MATMUL`] multiply-adds when an operand
/// is inline (its strides are constants, so the loops vectorise fully), up to
/// [`small::DIRECT_MATMUL_STRIDED`] otherwise (run-time strides; the gemm wins above).
pub(crate) const fn direct<S: Shape, S2: Shape>(inline: bool) -> Option<(usize, usize, usize)> {
    if !small::is_static::<S>() || !small::is_static::<S2>() {
        return None;
    }
    let limit = if inline { small::DIRECT_MATMUL } else { small::DIRECT_MATMUL_STRIDED };
    let (a, b) = (S::STATIC, S2::STATIC);
    let mkn = match (S::RANK, S2::RANK) {
        (Some(2), Some(2)) => (a[0], a[1], b[1]),
        (Some(1), Some(2)) => (Some(1), a[0], b[1]),
        (Some(2), Some(1)) => (a[0], a[1], Some(1)),
        (Some(1), Some(1)) => (Some(1), a[0], Some(1)),
        _ => return None,
    };
    match mkn {
        (Some(m), Some(k), Some(n)) if m * k * n <= limit => Some((m, k, n)),
        _ => None,
    }
}

/// The strides of a 1-D or 2-D operand read as a matrix: a 1-D left operand (`row`) as `[1, k]`,
/// a 1-D right one as `[k, 1]` (the inserted dim has size 1, so its stride is never used).
#[inline(always)]
fn strides2(l: &Layout, row: bool) -> [isize; 2] {
    match (l.strides(), row) {
        (&[s], true) => [0, s],
        (&[s], false) => [s, 0],
        (s, _) => [s[0], s[1]],
    }
}

impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: Gemm,
{
    /// The matrix product, following PyTorch `torch.matmul` (NumPy `np.matmul`) for every rank:
    ///
    /// | operands | result | PyTorch |
    /// |---|---|---|
    /// | `[m, k] @ [k, n]` | `[m, n]` | `mm` |
    /// | `[..b1, m, k] @ [..b2, k, n]` | `[..broadcast(b1, b2), m, n]` | `bmm` (3-D and more) |
    /// | `[k] @ [k]` | `[]` (0-d: the dot product) | `dot` |
    /// | `[..b, m, k] @ [k]` | `[..b, m]` | `mv` |
    /// | `[k] @ [..b, k, n]` | `[..b, n]` | |
    ///
    /// Ranks go up to 6 on either side. A 1-D operand is read as a `[1, k]` row on the left or a
    /// `[k, 1]` column on the right, and that dim is dropped from the result. Either operand may
    /// be any strided view (a transpose, a slice with steps, a broadcast batch): it is read in
    /// place, not copied. Static inner dims and batch dims are checked at compile time; a 0-d
    /// static operand is a compile error. (For 1-D operands, [`dot`](Self::dot) and
    /// [`mv`](Self::mv) return a scalar and a vector directly.)
    ///
    /// Integer products wrap on overflow (see [`crate::num`]).
    ///
    /// # Errors
    /// [`ShapeError::MatMul`] naming both shapes when runtime inner dims differ, an operand is
    /// 0-d, or the batch dims do not broadcast; [`ShapeError::RankTooLarge`] when the result would
    /// have more than 6 dims; [`ShapeError::Overflow`] when its element count does not fit
    /// `isize`; [`ShapeError::Alloc`] when it cannot be allocated.
    ///
    /// # Example
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let a: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    /// let v: Tensor<f32, Shape![3]> = Tensor::from([1., 0., -1.]);
    /// let av: Tensor<f32, Shape![2]> = a.matmul(&v); // [2, 3] @ [3] -> [2]
    /// assert_eq!(av.to_vec(), [-2., -2.]);
    /// let d: Tensor<f32, Shape![]> = v.matmul(&v); // [3] @ [3] -> [] (the dot product)
    /// assert_eq!(d.to_vec(), [2.]);
    /// let w = Tensor::<f32, Shape![2]>::from([1., 1.]).matmul(&a); // [2] @ [2, 3] -> [3]
    /// assert_eq!(w.to_vec(), [5., 7., 9.]);
    /// // Runtime shapes are checked at run time.
    /// assert!(a.as_dyn().try_matmul(&Tensor::<f32, Shape![2]>::from([1., 1.]).as_dyn()).is_err());
    /// ```
    #[doc(alias = "mm", alias = "bmm", alias = "mv")]
    #[inline(always)]
    #[try_twin(alias = "mm", alias = "bmm", alias = "mv", alias = "dot", alias = "gemm")]
    #[rustfmt::skip] // the bound on the signature's line: it is what an error shows
    pub fn try_matmul<D2: Data<Elem = D::Elem>, S2: Shape>(&self, rhs: &TensorBase<D2, S2>) -> Result<OutTensor2<D, D2, D::Elem, <S as MatMulShape<S2>>::Out>, ShapeError> where S: MatMulShape<S2> {
        type O<D, D2, S, S2> = Out2<D, D2, <D as Data>::Elem, <S as MatMulShape<S2>>::Out>;
        let (la, lb) = (self.layout(), rhs.layout());
        if let Some((m, k, n)) = const { direct::<S, S2>(D::INLINE || D2::INLINE) } {
            // Static sizes known to the compiler: direct loops, no gemm call, no layout work for
            // inline operands (their offsets and strides are constants too).
            let mut out = O::<D, D2, S, S2>::zeroed(m * n)?;
            self.matmul_direct(rhs, (m, k, n), out.as_mut_slice());
            // The result drops the `m` of a 1-D left operand and the `n` of a 1-D right one.
            let sizes = [m, n];
            let keep = &sizes[usize::from(la.rank() == 1)..2 - usize::from(lb.rank() == 1)];
            let lay = LayoutRepr::row_major::<<S as MatMulShape<S2>>::Out>(|| Layout::contiguous(keep))?;
            return Ok(TensorBase::from_lay(out, lay));
        }
        self.matmul_general(rhs)
    }

    /// `c = self @ rhs` into the row-major `c` (`m * n` long) by the direct loops of static sizes
    /// `(m, k, n)` (from [`direct`]), the operands read at their offsets and strides.
    #[inline(always)]
    fn matmul_direct<D2: Data<Elem = D::Elem>, S2: Shape>(
        &self,
        rhs: &TensorBase<D2, S2>,
        mkn: (usize, usize, usize),
        c: &mut [D::Elem],
    ) {
        let (la, lb) = (self.layout(), rhs.layout());
        let (sa, sb) = (strides2(la, true), strides2(lb, false));
        small::matmul(mkn, c, self.data.as_slice(), la.offset(), sa, rhs.data.as_slice(), lb.offset(), sb);
    }

    /// [`try_matmul`](Self::try_matmul) through the gemm: runtime sizes, large static ones and
    /// batches.
    fn matmul_general<D2: Data<Elem = D::Elem>, S2: Shape>(
        &self,
        rhs: &TensorBase<D2, S2>,
    ) -> Result<OutTensor2<D, D2, D::Elem, <S as MatMulShape<S2>>::Out>, ShapeError>
    where
        S: MatMulShape<S2>,
    {
        type O<D, D2, S, S2> = Out2<D, D2, <D as Data>::Elem, <S as MatMulShape<S2>>::Out>;
        let (la, lb) = (self.layout(), rhs.layout());
        let () = crate::shape::ProductCheck::<S, S2, 2>::OK;
        crate::shape::check_names::<S, S2>(la.sizes(), lb.sizes(), 2)?;
        if la.rank() == 2 && lb.rank() == 2 {
            // Two matrices: checked here and handed to the gemm, without the batched plan (as
            // `matmul_out` does; the plan's layouts cost 4% of a 64x64 product).
            let (m, _, n) = matrix_mkn(la, lb)?;
            let lay = LayoutRepr::try_from_layout::<<S as MatMulShape<S2>>::Out>(Layout::contiguous(&[m, n])?)?;
            let data = if O::<D, D2, S, S2>::INLINE {
                let mut data = crate::storage::for_overwrite::<D::Elem, O<D, D2, S, S2>>(m * n)?;
                kernels::gemm(self.data.as_slice(), la, rhs.data.as_slice(), lb, data.as_mut_slice());
                data
            } else {
                // A heap result: written by the kernel without a zero fill where it can.
                O::<D, D2, S, S2>::from_vec(kernels::gemm_new(self.data.as_slice(), la, rhs.data.as_slice(), lb)?)
            };
            return Ok(TensorBase::from_lay(data, lay));
        }
        let p = Plan::new(la, lb)?;
        let lay = LayoutRepr::try_from_layout::<<S as MatMulShape<S2>>::Out>(p.out)?;
        let mut data = crate::storage::for_overwrite::<D::Elem, O<D, D2, S, S2>>(p.out.numel())?;
        p.run(self.data.as_slice(), rhs.data.as_slice(), data.as_mut_slice())?;
        Ok(TensorBase::from_lay(data, lay))
    }

    /// Writes the matrix product `self @ rhs` into `out` instead of a new tensor (PyTorch
    /// `torch.matmul(a, b, out=c)`, NumPy `np.matmul(a, b, out=c)`): the shapes and rules of
    /// [`try_matmul`](Self::try_matmul), with `out` of exactly the product's shape (it is never
    /// resized or broadcast). `out` may be any strided view; a row-major `out` is written by the
    /// kernel directly, any other through one temporary buffer. Nothing is allocated for a
    /// row-major `out`, so a loop of products into one buffer pays no allocation or page faults.
    /// Static shapes that cannot match are a compile error.
    ///
    /// # Errors
    /// Those of [`try_matmul`](Self::try_matmul), and [`ShapeError::Mismatch`] naming both shapes
    /// when `out`'s runtime sizes are not the product's. `out` is unchanged on error.
    ///
    /// # Example
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let a: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    /// let b: Tensor<f32, Shape![3, 2]> = Tensor::from([[1., 0.], [0., 1.], [1., 1.]]);
    /// let mut c: Tensor<f32, Shape![2, 2]> = Tensor::zeros();
    /// a.matmul_out(&b, &mut c); // [2, 3] @ [3, 2] -> [2, 2], into c
    /// assert_eq!(c.to_vec(), [4., 5., 10., 11.]);
    /// let mut ct: Tensor<f32, Shape![2, 2]> = Tensor::zeros();
    /// a.matmul_out(&b, &mut ct.t_mut()); // into a transposed view: ct = (a @ b)^T
    /// assert_eq!(ct.to_vec(), [4., 10., 5., 11.]);
    /// ```
    #[doc(alias = "mm_out", alias = "general_mat_mul", alias = "gemm")]
    #[try_twin(alias = "mm_out", alias = "general_mat_mul", alias = "gemm")]
    #[rustfmt::skip] // the bound on the signature's line: it is what an error shows
    pub fn try_matmul_out<D2: Data<Elem = D::Elem>, S2: Shape, DO: DataMut<Elem = D::Elem>, SO: Shape>(&self, rhs: &TensorBase<D2, S2>, out: &mut TensorBase<DO, SO>) -> Result<(), ShapeError> where S: MatMulShape<S2>, <S as MatMulShape<S2>>::Out: SameShape<SO> {
        let () = crate::shape::ProductCheck::<S, S2, 2>::OK;
        crate::shape::check_names::<S, S2>(self.sizes(), rhs.sizes(), 2)?;
        if const { direct::<S, S2>(D::INLINE || D2::INLINE).is_none() }
            && self.rank() == 2
            && rhs.rank() == 2
            && out.layout().is_contiguous()
        {
            // Two matrices into a row-major matrix: checked here and handed to the gemm, without
            // the batched plan (its layouts cost 4% of a 64x64 product).
            let (la, lb) = (self.layout(), rhs.layout());
            let (m, _, n) = matrix_mkn(la, lb)?;
            if out.sizes() != [m, n] {
                return Err(out_mismatch(&[m, n], out.sizes()));
            }
            let off = out.layout().offset();
            kernels::gemm(
                self.data.as_slice(),
                la,
                rhs.data.as_slice(),
                lb,
                &mut out.data.as_mut_slice()[off..off + m * n],
            );
            return Ok(());
        }
        let p = Plan::new(self.layout(), rhs.layout())?;
        if out.sizes() != p.out.sizes() {
            return Err(out_mismatch(p.out.sizes(), out.sizes()));
        }
        let (a, b) = (self.data.as_slice(), rhs.data.as_slice());
        let lo = *out.layout();
        let numel = lo.numel();
        if numel == 0 {
            return Ok(());
        }
        let dst = out.data.as_mut_slice();
        if lo.is_contiguous() {
            let c = &mut dst[lo.offset()..lo.offset() + numel];
            if let Some(mkn) = const { direct::<S, S2>(D::INLINE || D2::INLINE) } {
                self.matmul_direct(rhs, mkn, c);
                return Ok(());
            }
            return p.run(a, b, c);
        }
        let mut tmp = kernels::try_vec(numel, D::Elem::ZERO)?;
        p.run(a, b, &mut tmp)?;
        kernels::copy_to(dst, &lo, &tmp, &p.out);
        Ok(())
    }
}

/// `matmul_out`'s error for an `out` whose sizes are not the product's.
fn out_mismatch(product: &[usize], out: &[usize]) -> ShapeError {
    ShapeError::mismatch(
        "matmul_out",
        "the product's shape and out's differ: out must have exactly the product's shape",
        product,
        out,
    )
}

/// `(m, k, n)` of the product of the matrices `la` (`[m, k]`) and `lb` (`[k, n]`), both 2-D, or the
/// error naming both shapes when the inner sizes differ.
fn matrix_mkn(la: &Layout, lb: &Layout) -> Result<(usize, usize, usize), ShapeError> {
    let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
    if lb.sizes()[0] != k {
        return Err(ShapeError::MatMul { lhs: la.sizes().into(), rhs: lb.sizes().into() });
    }
    Ok((m, k, n))
}

/// The left operand `ea` (`[..batch, m, k]`, batch dims `r`) as one `[B m, k]` matrix when the
/// right operand `eb` is the same matrix for every batch (its batch strides 0) and the left's
/// batch and row dims step as one dim (each stride the next one's times its size, ignoring dims
/// of size 1), or `None`. The row-major product `[..batch, m, n]` is then the row-major
/// `[B m, n]`, so one product replaces `B`.
fn fold_rows(ea: &Layout, eb: &Layout, r: usize) -> Option<Layout> {
    let (sa, ta) = (ea.sizes(), ea.strides());
    if (0..r).any(|i| eb.sizes()[i] > 1 && eb.strides()[i] != 0) {
        return None;
    }
    // From the row dim outwards: the stride of the merged dim is that of its innermost dim of
    // more than one element; each outer dim must continue it.
    let mut stride: Option<isize> = None;
    let mut reach = 1isize; // elements (in strides of `stride`) spanned by the dims so far
    for i in (0..=r).rev() {
        if sa[i] == 1 {
            continue;
        }
        match stride {
            None => {
                if ta[i] == 0 {
                    return None;
                }
                stride = Some(ta[i]);
                reach = isize::try_from(sa[i]).ok()?;
            }
            Some(s) => {
                if ta[i] != s.checked_mul(reach)? {
                    return None;
                }
                reach = reach.checked_mul(isize::try_from(sa[i]).ok()?)?;
            }
        }
    }
    // A single row (`stride` still `None`) is never stepped along.
    let rows = sa[..=r].iter().product::<usize>();
    Layout::from_parts(&[rows, sa[r + 1]], &[stride.unwrap_or(0), ta[r + 1]], ea.offset()).ok()
}

/// A checked product `a @ b` of layouts of any ranks: the operands read as matrices (a 1-D
/// operand as a `[1, k]` row or `[k, 1]` column), the broadcast batch, and the result's row-major
/// layout (that dim dropped).
struct Plan {
    la: Layout,
    lb: Layout,
    mkn: (usize, usize, usize),
    batch: [usize; MAX_RANK],
    r: usize,
    out: Layout,
}

impl Plan {
    /// The plan of `la0 @ lb0`, or the error naming both shapes.
    fn new(la0: &Layout, lb0: &Layout) -> Result<Self, ShapeError> {
        let err = || ShapeError::MatMul { lhs: la0.sizes().into(), rhs: lb0.sizes().into() };
        let (vec_a, vec_b) = (la0.rank() == 1, lb0.rank() == 1);
        if la0.rank() == 0 || lb0.rank() == 0 {
            return Err(err());
        }
        // A 1-D operand read in place as a `[1, k]` row (left) or a `[k, 1]` column (right).
        let la = if vec_a { la0.unsqueeze(0)? } else { *la0 };
        let lb = if vec_b { lb0.unsqueeze(1)? } else { *lb0 };
        let (ra, rb) = (la.rank(), lb.rank());
        if la.sizes()[ra - 1] != lb.sizes()[rb - 2] {
            return Err(err());
        }
        let (m, k, n) = (la.sizes()[ra - 2], la.sizes()[ra - 1], lb.sizes()[rb - 1]);
        let (batch, r) = if ra == 2 && rb == 2 {
            ([0; MAX_RANK], 0)
        } else {
            broadcast_sizes(&la.sizes()[..ra - 2], &lb.sizes()[..rb - 2]).map_err(|_| err())?
        };
        if r + 2 > MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: r + 2 });
        }
        // The product's sizes: the batch, then `m` unless the left operand is 1-D, then `n` unless
        // the right one is. Row-major, so the buffer is that of `[..batch, m, n]`.
        let mut sizes = [0usize; MAX_RANK];
        sizes[..r].copy_from_slice(&batch[..r]);
        let mut ro = r;
        for (x, dropped) in [(m, vec_a), (n, vec_b)] {
            if !dropped {
                sizes[ro] = x;
                ro += 1;
            }
        }
        // The output's element count is checked before anything is allocated.
        let out = Layout::contiguous(&sizes[..ro])?;
        Ok(Plan { la, lb, mkn: (m, k, n), batch, r, out })
    }

    /// `c = a @ b` into the row-major `c` of `self.out.numel()` elements.
    fn run<T: Gemm>(&self, a: &[T], b: &[T], c: &mut [T]) -> Result<(), ShapeError> {
        let (Plan { la, lb, r, .. }, (m, k, n)) = (self, self.mkn);
        if *r == 0 {
            kernels::gemm(a, la, b, lb, c);
            return Ok(());
        }
        if c.is_empty() {
            // No product to compute (an empty operand's offset and strides are never used).
            return Ok(());
        }
        let batch = &self.batch[..*r];
        let full = |last: [usize; 2]| {
            let mut s = [0usize; MAX_RANK];
            s[..*r].copy_from_slice(batch);
            s[*r..*r + 2].copy_from_slice(&last);
            s
        };
        // Broadcast batch dims get stride 0: every batch reads its operands in place.
        let (ea, eb) = (la.expand(&full([m, k])[..r + 2])?, lb.expand(&full([k, n])[..r + 2])?);
        if let Some(rows) = fold_rows(&ea, &eb, *r) {
            // One matrix on the right for every batch (`[.., m, k] @ [k, n]`, a linear layer)
            // and the left's batch and row dims one strided dim: one product `[B m, k] @ [k, n]`
            // into the row-major `c`, as PyTorch folds it. Split per batch, each product packed
            // the whole right operand again (MiniLM's linear layers at batch 32: a fifth of
            // the forward's time in packing).
            let lb2 = eb.select_leading(&[0; MAX_RANK][..*r])?;
            kernels::gemm(a, &rows, b, &lb2, c);
            return Ok(());
        }
        // Product `j` of the batch (its coordinates unravelled from `j`, so that any product can
        // run on any thread).
        let one = |j: usize, c: &mut [T]| -> Result<(), ShapeError> {
            let mut idx = [0usize; MAX_RANK];
            let mut f = j;
            for i in (0..*r).rev() {
                idx[i] = f % batch[i];
                f /= batch[i];
            }
            let (sa, sb) = (ea.select_leading(&idx[..*r])?, eb.select_leading(&idx[..*r])?);
            kernels::gemm(a, &sa, b, &sb, c);
            Ok(())
        };
        #[cfg(feature = "rayon")]
        {
            // Many products each too small for the gemm's own threads (attention's heads:
            // MiniLM's `[32, 12, 21, 32] @ [32, 12, 32, 21]` is 384 products of 14k multiply-adds):
            // whole products per thread, from the gemm's own threshold of work in all.
            let each = m.saturating_mul(k).saturating_mul(n);
            let total = each.saturating_mul(c.len() / (m * n));
            if each < kernels::GEMM_PAR_FLOPS && kernels::parallel_from(total, kernels::GEMM_PAR_FLOPS) {
                use rayon::prelude::*;
                return c.par_chunks_exact_mut(m * n).enumerate().try_for_each(|(j, c)| one(j, c));
            }
        }
        c.chunks_exact_mut(m * n).enumerate().try_for_each(|(j, c)| one(j, c))
    }
}
