//! Matrix product on strided operands. f32 and f64 go to faer's `matmul` when faer is compiled in
//! (features `linalg`, on by default, or `faer`; on CPUs without AVX-512 a long column-major left
//! operand goes to matrixmultiply, see `use_matrixmultiply`) and to `matrixmultiply` otherwise; both take any
//! row and column strides, so transposed or sliced views are multiplied in place without a copy.
//! f16/bf16 go through the f32 kernel (widened, accumulated in f32, rounded once); integers use a
//! cache-blocked, vectorised loop of our own (no maintained library multiplies integer matrices;
//! they wrap on overflow, as PyTorch's do).
use crate::layout::Layout;
use crate::storage::Element;

pub use crate::num::Gemm;
use crate::num::{GemmKernel, GemmMode};

/// `c = a @ b` for `a: [m, k]`, `b: [k, n]` and `c` a row-major `[m, n]` buffer, overwritten.
///
/// # Panics
/// When the layouts are not 2-D with matching inner dims, do not fit their buffers, or `c` is
/// not `m * n` long: the callers guarantee all of it, and it is checked here anyway (a few
/// comparisons per call); the matrixmultiply kernel checks once more beside its `unsafe` call.
pub(crate) fn gemm<T: Gemm>(a: &[T], la: &Layout, b: &[T], lb: &Layout, c: &mut [T]) {
    let (m, k, n) = checked_dims(a, la, b, lb, c);
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        c.fill(T::ZERO);
        return;
    }
    (T::GEMM.run)(a, la, b, lb, c)
}

/// `a @ b` as a new row-major `m * n` vector, for `a: [m, k]` and `b: [k, n]`: into a cached
/// buffer with its old values when the cache holds one (as `memory::try_vec_for_overwrite`), else, where the type's
/// kernel writes a destination it never reads (faer's f32 and f64, `m` and `n` above 1), into
/// new uninitialised memory, else into zeros through [`gemm`]. The zero fill that this skips
/// was 0.4-0.5 µs of a 64x64 f32 product's 6.4 µs (2-core AMD EPYC Zen 3, 2026-12-03).
///
/// # Panics
/// As [`gemm`].
///
/// # Errors
/// [`ShapeError::Alloc`](crate::error::ShapeError) when the result cannot be allocated.
pub(crate) fn gemm_new<T: Gemm>(
    a: &[T],
    la: &Layout,
    b: &[T],
    lb: &Layout,
) -> Result<alloc::vec::Vec<T>, crate::error::ShapeError> {
    let (m, k, n) = operand_dims(a, la, b, lb);
    let elem_size = core::mem::size_of::<T>();
    let len = m.checked_mul(n).ok_or(crate::error::ShapeError::Alloc { count: usize::MAX, elem_size })?;
    let mut v = match crate::memory::cache::take_for_overwrite(len) {
        Some(v) => v,
        None => {
            let mut v = crate::memory::try_with_capacity_uncached::<T>(len)?;
            if let (Some(fresh), true) = (T::GEMM.fresh, m > 1 && n > 1 && k > 0) {
                if fresh(a, la, b, lb, &mut v.spare_capacity_mut()[..len]) {
                    // SAFETY: `fresh` returned `true`: it wrote all `len` elements of the spare
                    // capacity (faer's product with `Accum::Replace` writes every element of its
                    // `[m, n]` destination, `mat_mut_fresh`'s view of exactly those `m * n`
                    // elements), and `try_with_capacity_uncached(len)` gave room for `len`.
                    unsafe { v.set_len(len) };
                    return Ok(v);
                }
            }
            // The same vector zero-filled where the kernel needs an initialised destination.
            v.resize(len, T::ZERO);
            v
        }
    };
    gemm(a, la, b, lb, &mut v);
    Ok(v)
}

/// `c = a @ b`, or `c += a @ b` with `mode.add`, for `a: [m, k]`, `b: [k, n]` and `c` the `[m, n]`
/// matrix of layout `lc` in its buffer (a block of a larger row-major matrix, say); the rest of
/// `c` untouched. Straight into `c` where the kernel takes a strided destination (faer's f32 and
/// f64), otherwise through a row-major buffer copied or added into place.
///
/// # Panics
/// As [`gemm`], and when `lc` is not `[m, n]`, does not fit `c` or may reach one element twice.
///
/// # Errors
/// [`ShapeError::Alloc`](crate::error::ShapeError) when the fallback's buffer cannot be allocated.
pub(crate) fn gemm_into<T: Gemm>(
    a: &[T],
    la: &Layout,
    b: &[T],
    lb: &Layout,
    c: &mut [T],
    lc: &Layout,
    mode: GemmMode,
) -> Result<(), crate::error::ShapeError> {
    assert!(lc.rank() == 2 && lc.fits(c.len()) && !lc.may_overlap(), "gemm_into: destination layout");
    assert!(lc.sizes() == [la.sizes()[0], lb.sizes()[1]], "gemm_into: destination of the wrong shape");
    let (m, k, n) = operand_dims(a, la, b, lb);
    if m == 0 || n == 0 {
        return Ok(());
    }
    if k == 0 {
        if !mode.add {
            super::fill(c, lc, T::ZERO);
        }
        return Ok(());
    }
    if let Some(into) = T::GEMM.into {
        into(a, la, b, lb, c, lc, mode);
        return Ok(());
    }
    let mut tmp = crate::memory::try_vec(m * n, T::ZERO)?;
    gemm(a, la, b, lb, &mut tmp);
    let lt = Layout::contiguous(&[m, n])?;
    if mode.add {
        super::zip_assign(c, lc, &tmp, &lt, |d, v| *d = T::add(*d, v));
    } else {
        super::copy_to(c, lc, &tmp, &lt);
    }
    Ok(())
}

/// `(m, k, n)` of `c[m, n] = a[m, k] @ b[k, n]` after checking what every kernel relies on.
///
/// # Panics
/// When a layout is not 2-D, the inner dims differ, a layout does not fit its buffer, or `c` is
/// not `m * n` long.
fn checked_dims<T>(a: &[T], la: &Layout, b: &[T], lb: &Layout, c: &[T]) -> (usize, usize, usize) {
    let (m, k, n) = operand_dims(a, la, b, lb);
    assert_eq!(m.checked_mul(n), Some(c.len()), "gemm: output buffer of the wrong length");
    (m, k, n)
}

/// `(m, k, n)` of `a[m, k] @ b[k, n]` after checking the operands' part of [`checked_dims`].
fn operand_dims<T>(a: &[T], la: &Layout, b: &[T], lb: &Layout) -> (usize, usize, usize) {
    assert!(la.rank() == 2 && lb.rank() == 2, "gemm: operands must be 2-D");
    let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
    assert_eq!(lb.sizes()[0], k, "gemm: inner dimensions differ");
    assert!(la.fits(a.len()) && lb.fits(b.len()), "gemm: operand layout outside its buffer");
    (m, k, n)
}

/// Bytes of `b` rows that [`int_gemm`] keeps in the cache while it sweeps the rows of `a`
/// (half of a 512 KiB L2).
const PANEL_BYTES: usize = 1 << 18;

/// Integer products, wrapping as PyTorch's do. No maintained Rust library multiplies integer
/// matrices (matrixmultiply, faer and gemm are float-only), so this is the loop that a compiler
/// vectorises: each row of `c` gets `a[i, p] * b[p, ..]` for every `p`, a contiguous row of `b`
/// read as a slice, over panels of `b` rows that stay in the cache across the rows of `a`.
fn int_gemm<T: Element + num_traits::WrappingAdd + num_traits::WrappingMul>(
    a: &[T],
    la: &Layout,
    b: &[T],
    lb: &Layout,
    c: &mut [T],
) {
    let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
    c.fill(T::ZERO);
    let sb = lb.strides()[1];
    let kc = (PANEL_BYTES / n.saturating_mul(core::mem::size_of::<T>()).max(1)).clamp(1, k);
    for p0 in (0..k).step_by(kc) {
        for (i, crow) in c.chunks_exact_mut(n).enumerate().take(m) {
            for p in p0..(p0 + kc).min(k) {
                let x = a[la.offset_of(&[i, p])];
                let o = lb.offset_of(&[p, 0]);
                if sb == 1 {
                    for (cij, bj) in crow.iter_mut().zip(&b[o..o + n]) {
                        *cij = cij.wrapping_add(&x.wrapping_mul(bj));
                    }
                } else {
                    for (j, cij) in crow.iter_mut().enumerate() {
                        *cij = cij.wrapping_add(&x.wrapping_mul(&b[super::at(o, sb, j)]));
                    }
                }
            }
        }
    }
}

macro_rules! int_gemm {
    ($($t:ty),*) => { $(
        impl Gemm for $t {
            const GEMM: GemmKernel<$t> = GemmKernel { run: int_gemm::<$t>, into: None, fresh: None };
        }
    )* };
}
int_gemm!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// Dual-number products ([`Dual`](crate::num::Dual)): the plain triple loop in safe code, each
/// element of `c` one dot product in order (no vectorised or `unsafe` kernel takes duals; the
/// matrices that forward-mode derivatives multiply are small).
fn dual_gemm<T: crate::num::Num>(a: &[T], la: &Layout, b: &[T], lb: &Layout, c: &mut [T]) {
    let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
    for (i, crow) in c.chunks_exact_mut(n).enumerate().take(m) {
        for (j, cij) in crow.iter_mut().enumerate() {
            let mut acc = T::ZERO;
            for p in 0..k {
                acc = T::add(acc, T::mul(a[la.offset_of(&[i, p])], b[lb.offset_of(&[p, j])]));
            }
            *cij = acc;
        }
    }
}
impl<T: crate::num::Real, const N: usize> Gemm for crate::num::Dual<T, N> {
    const GEMM: GemmKernel<Self> = GemmKernel { run: dual_gemm::<Self>, into: None, fresh: None };
}

/// f16/bf16 products through the f32 kernel (faer or matrixmultiply): the operands widened to
/// f32 in one pass each, the product accumulated in f32 and rounded once (PyTorch's CPU half
/// matmul also accumulates in f32). When the f32 copies cannot be allocated, a direct loop with
/// f32 accumulation per element gives the same result without them.
fn half_gemm<T: Element>(
    a: &[T],
    la: &Layout,
    b: &[T],
    lb: &Layout,
    c: &mut [T],
    to: fn(T) -> f32,
    from: fn(f32) -> T,
) {
    let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
    let wide = |x: &[T], l: &Layout| {
        let mut w = super::try_vec(l.numel(), 0f32).ok()?;
        super::map_into(&mut w, x, l, to);
        Some((w, Layout::contiguous(l.sizes()).ok()?))
    };
    if let (Some((a32, la32)), Some((b32, lb32)), Ok(mut c32)) = (wide(a, la), wide(b, lb), super::try_vec(m * n, 0f32))
    {
        (f32::GEMM.run)(&a32, &la32, &b32, &lb32, &mut c32);
        for (o, &v) in c.iter_mut().zip(&c32) {
            *o = from(v);
        }
        return;
    }
    for (i, crow) in c.chunks_exact_mut(n).enumerate().take(m) {
        for (j, cij) in crow.iter_mut().enumerate() {
            let dot: f32 = (0..k).map(|p| to(a[la.offset_of(&[i, p])]) * to(b[lb.offset_of(&[p, j])])).sum();
            *cij = from(dot);
        }
    }
}

impl Gemm for half::f16 {
    const GEMM: GemmKernel<Self> = GemmKernel {
        run: |a, la, b, lb, c| half_gemm(a, la, b, lb, c, half::f16::to_f32, half::f16::from_f32),
        into: None,
        fresh: None,
    };
}
impl Gemm for half::bf16 {
    const GEMM: GemmKernel<Self> = GemmKernel {
        run: |a, la, b, lb, c| half_gemm(a, la, b, lb, c, half::bf16::to_f32, half::bf16::from_f32),
        into: None,
        fresh: None,
    };
}

/// `c = a @ b` (or `c += a @ b` with `add`) through matrixmultiply, for `a: [m, k]`, `b: [k, n]`
/// and `c` the `[m, n]` matrix of layout `lc` in its buffer: the kernel of every f32 and f64
/// product without faer, and with faer of the products whose left operand is column-major on
/// CPUs without AVX-512 (see `use_matrixmultiply`). Checked here, beside the `unsafe` call that relies
/// on it (a few comparisons against an O(mkn) product).
///
/// # Panics
/// As [`gemm_into`].
macro_rules! blas_gemm {
    ($t:ty, $f:ident, $mm:ident) => {
        #[cfg(not(any(feature = "faer", feature = "linalg")))]
        impl Gemm for $t {
            const GEMM: GemmKernel<$t> = GemmKernel { run: $f, into: None, fresh: None };
        }
        /// `c = a @ b` into the row-major `c` through [`$mm`].
        #[cfg(not(any(feature = "faer", feature = "linalg")))]
        fn $f(a: &[$t], la: &Layout, b: &[$t], lb: &Layout, c: &mut [$t]) {
            let (m, _, n) = checked_dims(a, la, b, lb, c);
            let lc = Layout::contiguous(&[m, n]).expect("gemm: `c` holds m * n elements");
            $mm(a, la, b, lb, c, &lc, false)
        }
        fn $mm(a: &[$t], la: &Layout, b: &[$t], lb: &Layout, c: &mut [$t], lc: &Layout, add: bool) {
            let (m, k, n) = operand_dims(a, la, b, lb);
            assert!(lc.rank() == 2 && lc.sizes() == [m, n], "gemm: destination of the wrong shape");
            assert!(lc.fits(c.len()) && !lc.may_overlap(), "gemm: destination layout");
            if m == 0 || n == 0 {
                return;
            }
            if k == 0 {
                if !add {
                    super::fill(c, lc, 0.0);
                }
                return;
            }
            // SAFETY: `operand_dims` just above asserted that `la` and `lb` are 2-D with inner
            // dims `k` and fit their buffers, and the asserts after it that `lc` is `[m, n]`,
            // fits `c` and reaches no element twice; so, with m, k, n > 0 (checked above),
            // every offset `offset + i*rs + j*cs` that matrixmultiply reads or writes is inside
            // its slice, and `offset` itself is, so `add` stays in the allocation. `c` is a
            // unique `&mut` borrow, so it aliases neither input, and matrixmultiply writes each
            // of its elements once.
            unsafe {
                matrixmultiply::$f(
                    m,
                    k,
                    n,
                    1.0,
                    a.as_ptr().add(la.offset()),
                    la.strides()[0],
                    la.strides()[1],
                    b.as_ptr().add(lb.offset()),
                    lb.strides()[0],
                    lb.strides()[1],
                    if add { 1.0 } else { 0.0 },
                    c.as_mut_ptr().add(lc.offset()),
                    lc.strides()[0],
                    lc.strides()[1],
                );
            }
        }
    };
}
blas_gemm!(f32, sgemm, mm_sgemm);
blas_gemm!(f64, dgemm, mm_dgemm);

/// Products of at least this many multiply-adds (`m * k * n`) split across rayon's pool when it
/// has more than one thread; below it the hand-off costs more than it gains (`benches/kernels.rs`,
/// group `matmul_threads`).
#[cfg(all(any(feature = "faer", feature = "linalg"), feature = "rayon"))]
const PAR_FLOPS: usize = GEMM_PAR_FLOPS;

/// Multiply-adds (`m * k * n`) from which one product is split across rayon's pool (with faer),
/// and from which a batch of smaller products is run a product per task (`ops::matmul`).
#[cfg(feature = "rayon")]
pub(crate) const GEMM_PAR_FLOPS: usize = 1 << 21;

/// The element count of a column-major left operand from which [`faer_gemm`]'s products copy it
/// row-major first (see there): 512².
#[cfg(any(feature = "faer", feature = "linalg"))]
const TRANSPOSED_LHS_COPY: usize = 1 << 18;

/// With faer compiled in (features `linalg` or `faer`), f32 and f64 products go to faer's
/// `matmul`: its kernels reach 0.9x the machine's FMA peak where matrixmultiply stays near 0.65x
/// (issue 13's table), it reads the operands in place through their strides, and it threads over
/// rayon's pool.
#[cfg(any(feature = "faer", feature = "linalg"))]
macro_rules! faer_gemm {
    ($($t:ty => $f:ident, $into:ident, $fresh:ident, $mm:ident),*) => { $(
        impl Gemm for $t {
            const GEMM: GemmKernel<$t> = GemmKernel { run: $f, into: Some($into), fresh: Some($fresh) };
        }
        /// `c = a @ b` through faer into the row-major `c`, for operands `gemm` has checked (it
        /// alone calls this, through the crate-private `GemmKernel::run`).
        fn $f(a: &[$t], la: &Layout, b: &[$t], lb: &Layout, c: &mut [$t]) {
            let (m, n) = (la.sizes()[0], lb.sizes()[1]);
            if use_matrixmultiply(la, lb, true) {
                let lc = Layout::contiguous(&[m, n]).expect("gemm: `c` holds m * n elements");
                return $mm(a, la, b, lb, c, &lc, false);
            }
            let dst = faer::MatMut::from_row_major_slice_mut(c, m, n);
            faer_product(a, la, b, lb, dst, faer::Accum::Replace, true);
        }
        /// `c = a @ b` (or `c += a @ b` with `add`) through faer into `c`'s strided layout `lc`,
        /// for operands `gemm_into` has checked; the view comes from the checked bridge `mat_mut`
        /// (not faer's `MatMut::from_row_major_slice_with_stride_mut`, which in faer 0.24.4
        /// passes the row stride as the column stride and writes outside its slice: faer-rs
        /// pull request 267, open).
        fn $into(a: &[$t], la: &Layout, b: &[$t], lb: &Layout, c: &mut [$t], lc: &Layout, mode: GemmMode) {
            if use_matrixmultiply(la, lb, mode.threads) {
                return $mm(a, la, b, lb, c, lc, mode.add);
            }
            let accum = if mode.add { faer::Accum::Add } else { faer::Accum::Replace };
            faer_product(a, la, b, lb, super::faer_view::mat_mut(c, lc), accum, mode.threads);
        }
        /// `c = a @ b` through faer into the uninitialised row-major `c` (`m * n`, `m` and `n`
        /// above 1), for operands `gemm_new` has checked: `true` once written, `false` (nothing
        /// written) for a product that goes to matrixmultiply, which takes an initialised
        /// destination.
        fn $fresh(a: &[$t], la: &Layout, b: &[$t], lb: &Layout, c: &mut [core::mem::MaybeUninit<$t>]) -> bool {
            if use_matrixmultiply(la, lb, true) {
                return false;
            }
            let (m, n) = (la.sizes()[0], lb.sizes()[1]);
            faer_product(a, la, b, lb, super::faer_view::mat_mut_fresh(c, m, n), faer::Accum::Replace, true);
            true
        }
    )* };
}

/// `dst = a @ b` (or `dst += a @ b`) through faer's `matmul`, on rayon's pool past [`PAR_FLOPS`]
/// when `threads`; faer's views of the operands come from the checked bridge `mat`.
#[cfg(any(feature = "faer", feature = "linalg"))]
fn faer_product<T>(
    a: &[T],
    la: &Layout,
    b: &[T],
    lb: &Layout,
    dst: faer::MatMut<'_, T>,
    accum: faer::Accum,
    threads: bool,
) where
    T: Element + faer::traits::ComplexField + num_traits::One,
{
    use super::faer_view::mat;
    let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
    let parts = product_parts(m, k, n, threads);
    if la.strides()[0] == 1 && k > 1 && lb.strides()[1] == 1 && dst.col_stride() == 1 && n <= m {
        // A column-major left operand (a `.t()` view: `gᵀ x`, a linear layer's weight gradient)
        // times a row-major right one into a row-major result at least as tall as it is wide:
        // the transposed product `dstᵀ = bᵀ aᵀ`, whose destination and left operand are then
        // column-major, faer's own layout, with no copy (`[1536, 2048] x [2048, 384]`, one
        // thread, runs alternated: 25.9-26.3 ms with the copy below, 22.3-22.6 ms so; the wide
        // `[384, 2048] x [2048, 1536]` ran 3% slower so than with the copy, and keeps it).
        let lhs = mat(b, lb.offset(), [n, k], [lb.strides()[1], lb.strides()[0]]);
        let rhs = mat(a, la.offset(), [k, m], [la.strides()[1], la.strides()[0]]);
        split_product(dst.transpose_mut(), accum, lhs, rhs, parts);
        return;
    }
    // A column-major left operand (a `.t()` view) past the caches: faer's product into the
    // row-major output reads it at half speed (1024², one thread: 25 ms against 13 ms), so it is
    // copied row-major first (tiled; 1.5 ms at 1024²), when the copy can be allocated. Measured
    // break-even: about 512².
    let copied = if la.strides()[0] == 1 && k > 1 && m.saturating_mul(k) >= TRANSPOSED_LHS_COPY {
        super::to_vec(a, la).ok()
    } else {
        None
    };
    let lhs = match &copied {
        Some(rows) => mat(rows, 0, [m, k], [k as isize, 1]),
        None => mat(a, la.offset(), [m, k], [la.strides()[0], la.strides()[1]]),
    };
    let rhs = mat(b, lb.offset(), [k, n], [lb.strides()[0], lb.strides()[1]]);
    split_product(dst, accum, lhs, rhs, parts);
}

/// How many blocks [`faer_product`] splits a `[m, k] x [k, n]` product into: the pool's threads
/// when `threads` allows it and the product reaches [`PAR_FLOPS`], else 1 (also the test of
/// [`use_matrixmultiply`], which leaves split products to faer).
#[cfg(any(feature = "faer", feature = "linalg"))]
fn product_parts(m: usize, k: usize, n: usize, threads: bool) -> usize {
    #[cfg(feature = "rayon")]
    if threads && m.saturating_mul(k).saturating_mul(n) >= PAR_FLOPS {
        return rayon::current_num_threads();
    }
    let _ = (m, k, n, threads);
    1
}

/// The side of faer's one-thread products that becomes the rows of its kernel (the unit-stride
/// side of the destination) is cut into blocks of this many, one call each, on x86-64 CPUs
/// without AVX-512 ([`faer_block`]). faer's x86 kernels (private-gemm-x86 0.1.22) nest those rows
/// in chunks rounded to multiples of 16, the innermost from the L2 size and the inner size (176
/// rows for `k = 384`, 128 for `k >= 512` on an AMD EPYC Zen 3), while its AVX2 tiles are 24
/// rows (f32) or 12 (f64): each chunk ended in an 8-row edge tile, which does a third of the
/// multiply-adds per instruction. 96 is a multiple of both tiles and below those chunks, so an
/// edge tile is left only where the side itself is not a multiple of the tile.
///
/// Measured on that CPU (one thread, f32, 2026-12-03, a probe program alternating 45 runs of
/// each, medians): `[2048, 384] x [384, 384 | 1152 | 1536]` 10.49 / 27.7 / 38.6 ms in one call
/// against 9.78 / 27.2 / 36.2 ms in blocks of 96, `[2048, 1536] x [1536, 384]` 38.9 -> 36.7 ms,
/// `[672, 384] x [384, 1536]` 10.15 -> 9.53 ms, 1024² 27.4 -> 25.5 ms, 512² 3.27 -> 3.08 ms
/// (blocks of 168 gained less); but `k = 128` 8.85 -> 10.2 ms and `k = 64` 1% slower, where the
/// chunks are long (512 rows and more) and the edges few, and `k = 256` no change: hence
/// [`FAER_BLOCK_MIN_K`]. In the transformer block's forward (`perf`) the 8-row kernel went from
/// 7.6% of the samples to none; paired runs of the forward (58 pairs, three runs) gave median
/// ratios 0.98-0.99 on one thread and 0.96 on two, its training step 1.01 (the host noisy).
#[cfg(any(feature = "faer", feature = "linalg"))]
const FAER_BLOCK: usize = 96;

/// The inner size from which [`faer_block`] cuts a product into blocks (measured there).
#[cfg(any(feature = "faer", feature = "linalg"))]
const FAER_BLOCK_MIN_K: usize = 384;

/// [`FAER_BLOCK`] when a sequential faer product of inner size `k`, whose kernel rows are `side`
/// and whose other destination side is `other`, is cut into blocks (an x86-64 CPU without
/// AVX-512, `side` past two blocks, `other` at least 256 and `k` at least [`FAER_BLOCK_MIN_K`],
/// as measured), else 0.
#[cfg(any(feature = "faer", feature = "linalg"))]
fn faer_block([side, other]: [usize; 2], k: usize) -> usize {
    if side < 2 * FAER_BLOCK || other < 256 || k < FAER_BLOCK_MIN_K || !avx2_class_x86() {
        return 0;
    }
    FAER_BLOCK
}

/// An x86-64 CPU without AVX-512: where faer's AVX2 kernels run, which [`faer_block`] and
/// [`use_matrixmultiply`] work around.
#[cfg(any(feature = "faer", feature = "linalg"))]
fn avx2_class_x86() -> bool {
    #[cfg(target_arch = "x86_64")]
    return !std::is_x86_feature_detected!("avx512f");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The fewest rows (or columns) of `dst` that [`split_product`] gives one task.
#[cfg(all(any(feature = "faer", feature = "linalg"), feature = "rayon"))]
const SPLIT_MIN: usize = 32;

/// faer's `dst = lhs @ rhs` (or `+=`) in `parts` blocks of `dst`'s rows (of its columns when it has
/// fewer than `min(n, 128 parts)` rows), each block one sequential product on its own task of
/// rayon's pool, then the vector registers of each thread cleaned
/// ([`clean_vector_state`](super::faer_view::clean_vector_state)); where the side to split does
/// not hold two blocks of [`SPLIT_MIN`], faer's own split (`Par::rayon`). Measured against
/// faer's split of the whole product on two threads (f32, AVX-512 Xeon, 2026-12-02, a probe
/// program, medians of 41 alternated runs, speed-up over one thread): the transformer's
/// `[2048, 384] x [384, 1536]` 1.46-1.64x -> 1.69-1.92x, `[2048, 1536] x [1536, 384]` 1.34-1.57x
/// -> 1.81-1.95x, but `[2048, 384] x [384, 384]` 1.41-1.56x against 1.31-1.66x and
/// `[2048, 384] x [384, 1152]` 1.52-1.58x against 1.38-1.64x over four runs, 1024² 1.52x -> 1.74x,
/// 2048² 1.55x -> 1.92x, `[128, 4096] x [4096, 128]` 1.15x -> 1.42x, `[64, 2048] x [2048, 2048]`
/// (by columns) 1.57x -> 1.64x; `[672, 384] x [384, 1536]` by columns 1.75x -> 1.67x, by rows
/// 1.76x -> 1.88x (hence rows unless they are few). In the crate's benches on two threads:
/// `matmul_threads` (1024²) 7.82-7.95 -> 6.72-7.14 ms, the MiniLM fine-tuning step 752-788 ->
/// 339-350 ms (faer's split had made it slower than on one thread, 497 ms), its batch-32 forward
/// 72.4-72.9 -> 68.2-68.9 ms, the transformer block's forward 36.1-37.1 -> 35.6-36.4 ms and
/// training step 118-119 -> 113-117 ms (old and new builds alternated).
#[cfg(any(feature = "faer", feature = "linalg"))]
fn split_product<T>(
    dst: faer::MatMut<'_, T>,
    accum: faer::Accum,
    lhs: faer::MatRef<'_, T>,
    rhs: faer::MatRef<'_, T>,
    parts: usize,
) where
    T: Element + faer::traits::ComplexField + num_traits::One,
{
    #[cfg(feature = "rayon")]
    if parts > 1 {
        let (m, n) = (dst.nrows(), dst.ncols());
        let by_rows = m >= n.min(128 * parts);
        let side = if by_rows { m } else { n };
        if side < 2 * SPLIT_MIN {
            faer::linalg::matmul::matmul(dst, accum, lhs, rhs, T::one(), faer::Par::rayon(0));
            super::faer_view::clean_vector_state();
            return;
        }
        let parts = parts.min(side / SPLIT_MIN);
        let left = parts / 2;
        // A multiple of 16 rows: whole vector tiles of faer's kernels in the first block.
        let cut = (side * left / parts).next_multiple_of(16).min(side - 1);
        if by_rows {
            let (d0, d1) = dst.split_at_row_mut(cut);
            let (l0, l1) = lhs.split_at_row(cut);
            rayon::join(|| split_product(d0, accum, l0, rhs, left), || split_product(d1, accum, l1, rhs, parts - left));
        } else {
            let (d0, d1) = dst.split_at_col_mut(cut);
            let (r0, r1) = rhs.split_at_col(cut);
            rayon::join(|| split_product(d0, accum, lhs, r0, left), || split_product(d1, accum, lhs, r1, parts - left));
        }
        return;
    }
    let _ = parts;
    let (m, k, n) = (dst.nrows(), lhs.ncols(), dst.ncols());
    // faer's kernel takes the unit-stride side of `dst` as its rows.
    let by_rows = dst.row_stride() == 1;
    let block = faer_block(if by_rows { [m, n] } else { [n, m] }, k);
    if block > 0 {
        // One sequential product per block of that side; each element's sum runs over `k` as in
        // one product, so the values do not change.
        let mut dst = dst;
        let side = if by_rows { m } else { n };
        for start in (0..side).step_by(block) {
            let len = block.min(side - start);
            let d = faer::reborrow::ReborrowMut::rb_mut(&mut dst);
            if by_rows {
                let (d, l) = (d.submatrix_mut(start, 0, len, n), lhs.submatrix(start, 0, len, k));
                faer::linalg::matmul::matmul(d, accum, l, rhs, T::one(), faer::Par::Seq);
            } else {
                let (d, r) = (d.submatrix_mut(0, start, m, len), rhs.submatrix(0, start, k, len));
                faer::linalg::matmul::matmul(d, accum, lhs, r, T::one(), faer::Par::Seq);
            }
        }
        super::faer_view::clean_vector_state();
        return;
    }
    faer::linalg::matmul::matmul(dst, accum, lhs, rhs, T::one(), faer::Par::Seq);
    super::faer_view::clean_vector_state();
}
#[cfg(any(feature = "faer", feature = "linalg"))]
faer_gemm!(
    f32 => faer_sgemm, faer_sgemm_into, faer_sgemm_fresh, mm_sgemm,
    f64 => faer_dgemm, faer_dgemm_into, faer_dgemm_fresh, mm_dgemm
);

/// The inner size from which [`use_matrixmultiply`] takes a column-major left operand to
/// matrixmultiply (measured there).
#[cfg(any(feature = "faer", feature = "linalg"))]
const MM_MIN_K: usize = 512;

/// Whether a product goes to matrixmultiply rather than faer: a column-major left operand (a
/// `.t()` view: `gᵀ x`, a linear layer's weight gradient) of at least [`MM_MIN_K`] columns and
/// 128 rows on an x86-64 CPU without AVX-512, where faer's AVX2 kernels run it at 58-73 GFLOP/s
/// and matrixmultiply's at 80-84 (AMD EPYC Zen 3, one thread, f32, `[384..1536, 2048]ᵀ` by
/// `[2048, 384..1536]`, quiet machine: faer with the transposed or copied left operand of
/// `faer_product` included; with row-major operands faer stays ahead, 80-93 against 74-79, and
/// with 64 inner columns or 64 rows too, 74-85 against 56-73), and on one thread only
/// (matrixmultiply does not use rayon's pool): a product that `faer_product` would split
/// (`threads`, past [`PAR_FLOPS`], a pool of more than one) stays with faer. With AVX-512,
/// faer's kernels are the faster (issue 13's table).
#[cfg(any(feature = "faer", feature = "linalg"))]
fn use_matrixmultiply(la: &Layout, lb: &Layout, threads: bool) -> bool {
    let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
    if la.strides()[0] != 1 || k < MM_MIN_K || m < 128 {
        return false;
    }
    product_parts(m, k, n, threads) == 1 && avx2_class_x86()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `gemm_into` writes (or adds into) the block its layout names and nothing else, through
    /// faer's strided destination (f64) and through the buffer of the other kernels (i32): a
    /// `[3, 4]` product into columns 2..6 of rows 1..4 of a `[5, 7]` matrix.
    #[test]
    fn gemm_into_writes_only_its_block() {
        fn check<T: Gemm + core::fmt::Debug + From<i8>>() {
            let a: alloc::vec::Vec<T> = (0..6).map(|i| T::from(i as i8 - 2)).collect();
            let b: alloc::vec::Vec<T> = (0..8).map(|i| T::from(3 - i as i8)).collect();
            let (la, lb) = (Layout::contiguous(&[3, 2]).unwrap(), Layout::contiguous(&[2, 4]).unwrap());
            let lc = Layout::from_parts(&[3, 4], &[7, 1], 7 + 2).unwrap();
            let want = |i: usize, j: usize| T::add(T::mul(a[2 * i], b[j]), T::mul(a[2 * i + 1], b[4 + j]));
            for add in [false, true] {
                let mut c: alloc::vec::Vec<T> = (0..35).map(|i| T::from(i as i8)).collect();
                gemm_into(&a, &la, &b, &lb, &mut c, &lc, GemmMode { add, threads: true }).unwrap();
                for (e, &v) in c.iter().enumerate() {
                    let (r, col) = (e / 7, e % 7);
                    let inside = (1..4).contains(&r) && (2..6).contains(&col);
                    let old = T::from(e as i8);
                    let expect = match (inside, add) {
                        (false, _) => old,
                        (true, false) => want(r - 1, col - 2),
                        (true, true) => T::add(old, want(r - 1, col - 2)),
                    };
                    assert_eq!(v, expect, "element {e}, add {add}");
                }
            }
        }
        check::<f64>();
        check::<i32>();
    }

    /// `a` `[m, k]` (row-major, or column-major: read from its buffer as `[k, m]`) times `b`
    /// `[k, n]`, integers in f64 (exact), against the plain loop: [`gemm`] into a row-major
    /// buffer, then [`gemm_into`] into a strided block (rows `n + 3` apart, from offset 2) of a
    /// buffer of ones, replacing or adding, on each `(add, threads)` of `modes`.
    fn products_equal_the_loop(m: usize, k: usize, n: usize, col_major: bool, modes: &[(bool, bool)]) {
        let a: alloc::vec::Vec<f64> = (0..m * k).map(|i| ((i * 7) % 11) as f64 - 5.0).collect();
        let b: alloc::vec::Vec<f64> = (0..k * n).map(|i| ((i * 5) % 13) as f64 - 6.0).collect();
        let (rs, cs) = if col_major { (1, m) } else { (k, 1) };
        let la = Layout::from_parts(&[m, k], &[rs as isize, cs as isize], 0).unwrap();
        let lb = Layout::contiguous(&[k, n]).unwrap();
        let want = |i: usize, j: usize| (0..k).map(|p| a[i * rs + p * cs] * b[p * n + j]).sum::<f64>();
        let mut c = alloc::vec![f64::NAN; m * n];
        gemm(&a, &la, &b, &lb, &mut c);
        assert!((0..m * n).all(|e| c[e] == want(e / n, e % n)), "{m}x{k}x{n}");
        let lc = Layout::from_parts(&[m, n], &[(n + 3) as isize, 1], 2).unwrap();
        for &(add, threads) in modes {
            let mut c = alloc::vec![1.0; (n + 3) * m + 2];
            gemm_into(&a, &la, &b, &lb, &mut c, &lc, GemmMode { add, threads }).unwrap();
            for (e, &v) in c.iter().enumerate() {
                let (i, j) = ((e.wrapping_sub(2)) / (n + 3), (e.wrapping_sub(2)) % (n + 3));
                let expect = if e >= 2 && j < n { want(i, j) + if add { 1.0 } else { 0.0 } } else { 1.0 };
                assert_eq!(v, expect, "{m}x{k}x{n} element {e}, add {add}, threads {threads}");
            }
        }
    }

    /// A column-major left operand (a transposed view) times a row-major right one, tall and wide
    /// results, into a row-major buffer and into a strided block with and without adding: faer's
    /// transposed product for the tall ones, the copy for the wide, matrixmultiply for the tall
    /// one on one thread without AVX-512, against the plain loop (integers in f64: exact).
    #[test]
    fn transposed_left_operands_equal_the_loop() {
        for (m, k, n) in [(7, 5, 3), (3, 5, 7), (600, 520, 40), (40, 700, 600)] {
            if cfg!(miri) && m * k * n > 1000 {
                continue;
            }
            // On one thread (`threads: false`) the tall `[600, 520]` operand goes to matrixmultiply
            // on a CPU without AVX-512 (`use_matrixmultiply`), to faer's split otherwise.
            products_equal_the_loop(m, k, n, true, &[(false, true), (true, true), (false, false), (true, false)]);
        }
    }

    /// `gemm_new` against the plain loop (integers in f64 and i32: exact) over its three
    /// routes: new uninitialised memory (faer's f64 with `m`, `n` above 1: row-major and
    /// column-major left operands), zeros (a row or a column, `k = 0`, i32, and the tall
    /// column-major operand that goes to matrixmultiply on a CPU without AVX-512), and a cached
    /// buffer of old values (a product of 2^15 elements, whose 256 KiB pass the cache's minimum).
    #[test]
    fn new_products_equal_the_loop() {
        fn check<T: Gemm + core::fmt::Debug + From<i8> + Into<f64>>(m: usize, k: usize, n: usize, column_major: bool) {
            let a: alloc::vec::Vec<T> = (0..m * k).map(|i| T::from(((i * 7) % 11) as i8 - 5)).collect();
            let b: alloc::vec::Vec<T> = (0..k * n).map(|i| T::from(((i * 5) % 13) as i8 - 6)).collect();
            let la = if column_major {
                Layout::from_parts(&[m, k], &[1, m as isize], 0).unwrap()
            } else {
                Layout::contiguous(&[m, k]).unwrap()
            };
            let lb = Layout::contiguous(&[k, n]).unwrap();
            let at = |i: usize, p: usize| if column_major { a[p * m + i] } else { a[i * k + p] };
            let want = |i: usize, j: usize| (0..k).map(|p| at(i, p).into() * b[p * n + j].into()).sum::<f64>();
            let c = gemm_new(&a, &la, &b, &lb).unwrap();
            assert_eq!(c.len(), m * n);
            assert!((0..m * n).all(|e| c[e].into() == want(e / n, e % n)), "{m}x{k}x{n}, column-major {column_major}");
        }
        let big = if cfg!(miri) { 3 } else { 600 };
        for (m, k, n) in [(2, 3, 2), (7, 5, 3), (1, 4, 6), (6, 4, 1), (3, 0, 4), (64, 64, 64), (big, 520, 40)] {
            if cfg!(miri) && m * k * n > 1000 {
                continue;
            }
            for column_major in [false, true] {
                check::<f64>(m, k, n, column_major);
                check::<f32>(m, k, n, column_major);
                check::<i32>(m, k, n, column_major);
            }
        }
        #[cfg(feature = "std")]
        if !cfg!(miri) {
            // A freed 2^15-element f64 result goes to the cache (256 KiB), and the next product
            // of that size takes it with its old values.
            let (m, k, n) = (128, 8, 256);
            // (Tests on other threads may take it first: the check holds on every route.)
            crate::memory::cache::give(&mut alloc::vec![f64::NAN; m * n]);
            check::<f64>(m, k, n, false);
        }
    }

    /// Products past `PAR_FLOPS` on a pool of three threads (`split_product`): split by rows into
    /// uneven thirds (`[300, 80] x [80, 100]`), by columns (`[40, 600] x [600, 200]`), through the
    /// transposed product of a column-major left operand (`[600, 70]ᵀ`-style, its `[90, 600]`
    /// destination split by columns), and left to faer's own split where no side reaches two
    /// blocks (`[40, 2000] x [2000, 40]`), into a row-major buffer and into a strided block,
    /// replacing and adding, against the loop (integers in f64: exact).
    #[cfg(all(feature = "rayon", any(feature = "faer", feature = "linalg")))]
    #[test]
    fn split_products_equal_the_loop() {
        if cfg!(miri) {
            return;
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
        pool.install(|| {
            for (m, k, n, col_major) in
                [(300, 80, 100, false), (40, 600, 200, false), (40, 2000, 40, false), (600, 70, 90, true)]
            {
                assert!(m * k * n >= PAR_FLOPS);
                products_equal_the_loop(m, k, n, col_major, &[(false, true), (true, true)]);
            }
        });
    }

    /// Sequential faer products cut into [`FAER_BLOCK`]s of their kernel rows ([`faer_block`]:
    /// taken on x86-64 CPUs without AVX-512, one product elsewhere): a row-major destination cut
    /// by columns (`[300, 384] x [384, 200]`: blocks of 96, 96 and 8) and the transposed product
    /// of a column-major left operand, whose destination is cut by rows (`[260, 384]ᵀ`-style
    /// times `[384, 200]`), into a row-major buffer and into a strided block, replacing and
    /// adding, against the loop (integers in f64: exact); and with fractions in f32, the bits of
    /// one faer product.
    #[cfg(any(feature = "faer", feature = "linalg"))]
    #[test]
    fn blocked_products_equal_the_loop() {
        if cfg!(miri) {
            return;
        }
        assert_eq!(faer_block([100, 300], 384), 0);
        assert_eq!(faer_block([200, 300], 256), 0);
        assert_eq!(faer_block([200, 300], 384), if avx2_class_x86() { FAER_BLOCK } else { 0 });
        for (m, k, n, col_major) in [(300, 384, 200, false), (260, 384, 200, true)] {
            assert!(2 * FAER_BLOCK <= n && m >= 256 && k >= FAER_BLOCK_MIN_K);
            products_equal_the_loop(m, k, n, col_major, &[(false, false), (true, false)]);
        }
        // Fractions (f32, rounding at every step): the blocks give one product's bits.
        let (m, k, n) = (300, 400, 250);
        let a: alloc::vec::Vec<f32> = (0..m * k).map(|i| ((i * 37) % 101) as f32 / 7.0 - 7.0).collect();
        let b: alloc::vec::Vec<f32> = (0..k * n).map(|i| ((i * 53) % 97) as f32 / 3.0 - 16.0).collect();
        let (la, lb) = (Layout::contiguous(&[m, k]).unwrap(), Layout::contiguous(&[k, n]).unwrap());
        let mut c = alloc::vec![0f32; m * n];
        gemm_into(
            &a,
            &la,
            &b,
            &lb,
            &mut c,
            &Layout::contiguous(&[m, n]).unwrap(),
            GemmMode { add: false, threads: false },
        )
        .unwrap();
        let mut one = alloc::vec![0f32; m * n];
        let (fa, fb) = (faer::MatRef::from_row_major_slice(&a, m, k), faer::MatRef::from_row_major_slice(&b, k, n));
        let dst = faer::MatMut::from_row_major_slice_mut(&mut one, m, n);
        faer::linalg::matmul::matmul(dst, faer::Accum::Replace, fa, fb, 1.0, faer::Par::Seq);
        for (e, (&v, &w)) in c.iter().zip(&one).enumerate() {
            assert_eq!(v.to_bits(), w.to_bits(), "element {e}");
        }
    }

    /// matrixmultiply's call into a strided destination, replacing and adding (`gemm_into`'s
    /// path on CPUs without AVX-512, reached natively only by large products): a `[3, 2]`
    /// product into a column block of a `[4, 5]` buffer, against the loop (and below: a
    /// destination layout reaching past its buffer is refused before the `unsafe` call).
    #[test]
    fn matrixmultiply_writes_a_strided_block() {
        let (a, b) = ([1f32, -2., 3., 0.5, -1., 4.], [2f32, -1., 0.25, 3.]);
        let (la, lb) = (Layout::contiguous(&[3, 2]).unwrap(), Layout::contiguous(&[2, 2]).unwrap());
        let lc = Layout::from_parts(&[3, 2], &[5, 1], 5 + 2).unwrap();
        for add in [false, true] {
            let mut c = [1f32; 20];
            mm_sgemm(&a, &la, &b, &lb, &mut c, &lc, add);
            for (e, &v) in c.iter().enumerate() {
                let (r, col) = (e / 5, e % 5);
                let expect = if (1..4).contains(&r) && (2..4).contains(&col) {
                    let (i, j) = (r - 1, col - 2);
                    a[2 * i] * b[j] + a[2 * i + 1] * b[2 + j] + if add { 1.0 } else { 0.0 }
                } else {
                    1.0
                };
                assert_eq!(v, expect, "element {e}, add {add}");
            }
        }
    }

    #[test]
    #[should_panic(expected = "gemm: destination layout")]
    fn matrixmultiply_refuses_a_destination_past_its_buffer() {
        let (la, lb) = (Layout::contiguous(&[3, 2]).unwrap(), Layout::contiguous(&[2, 2]).unwrap());
        let past = Layout::from_parts(&[3, 2], &[5, 1], 10).unwrap();
        mm_sgemm(&[1f32; 6], &la, &[1f32; 4], &lb, &mut [0f32; 20], &past, false);
    }

    /// The matrixmultiply kernel (no faer) re-checks what `gemm` checked: its `unsafe` call would
    /// otherwise read or write outside the buffers for each of these. (faer's kernel has no
    /// `unsafe` of its own to guard: its views are built by the checked `interop::faer::mat`.)
    #[cfg(not(any(feature = "faer", feature = "linalg")))]
    fn call(la: &[usize], lb: &[usize], c_len: usize) {
        use alloc::vec;
        let (la, lb) = (Layout::contiguous(la).unwrap(), Layout::contiguous(lb).unwrap());
        let (a, b) = (vec![1f32; la.numel()], vec![1f32; lb.numel()]);
        let mut c = vec![0f32; c_len];
        (f32::GEMM.run)(&a, &la, &b, &lb, &mut c);
    }

    #[test]
    #[cfg(not(any(feature = "faer", feature = "linalg")))]
    #[should_panic(expected = "inner dimensions differ")]
    fn unchecked_kernel_refuses_inner_dims_that_differ() {
        call(&[2, 3], &[4, 2], 4);
    }

    #[test]
    #[cfg(not(any(feature = "faer", feature = "linalg")))]
    #[should_panic(expected = "must be 2-D")]
    fn unchecked_kernel_refuses_a_rank_3_layout() {
        call(&[2, 2, 2], &[2, 2], 4);
    }

    #[test]
    #[cfg(not(any(feature = "faer", feature = "linalg")))]
    #[should_panic(expected = "output buffer of the wrong length")]
    fn unchecked_kernel_refuses_a_short_output() {
        call(&[8, 8], &[8, 8], 3);
    }

    #[test]
    #[cfg(not(any(feature = "faer", feature = "linalg")))]
    #[should_panic(expected = "outside its buffer")]
    fn unchecked_kernel_refuses_a_layout_outside_its_buffer() {
        let la = Layout::contiguous(&[4, 4]).unwrap();
        let mut c = [0f32; 16];
        (f32::GEMM.run)(&[1f32; 8], &la, &[1f32; 16], &la, &mut c);
    }

    #[test]
    fn unchecked_kernel_multiplies_checked_operands() {
        let la = Layout::contiguous(&[2, 3]).unwrap();
        let lb = Layout::contiguous(&[3, 2]).unwrap();
        let mut c = [0f64; 4];
        let (a, b) = ([1., 2., 3., 4., 5., 6.], [7., 8., 9., 10., 11., 12.]);
        (f64::GEMM.run)(&a, &la, &b, &lb, &mut c);
        assert_eq!(c, [58., 64., 139., 154.]);
    }
}
