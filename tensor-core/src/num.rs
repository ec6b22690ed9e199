//! Numeric element types and the arithmetic rule of element-wise operators.
//!
//! **Integer overflow wraps**, in every build profile: `255u8 + 1` is `0` in a `u8` tensor, as in
//! PyTorch and NumPy (and as Rust's `wrapping_add`; Rust's own `+` panics in debug builds and wraps
//! in release, which would make a tensor's result depend on the profile). **Integer division and
//! remainder by zero are errors** ([`ShapeError::DivisionByZero`](crate::ShapeError)), checked
//! before any element is written; `i32::MIN / -1` wraps to `i32::MIN`. Integer `/` truncates toward
//! zero and `%` takes the sign of the dividend (Rust's `/` and `%`, PyTorch's
//! `div(rounding_mode="trunc")` and `fmod`). Float arithmetic is IEEE 754.
use crate::element::Element;
/// num-traits' `Float` (the float methods: `sqrt`, `ln`, `is_nan`, ...), the bound of the
/// float-only tensor methods; re-exported so that generic code needs no num-traits dependency.
pub use num_traits::Float;

mod sealed {
    pub trait Sealed {}
}

pub(crate) mod derivatives;
pub(crate) mod dual;
pub(crate) mod real;
pub use dual::Dual;
pub use real::Real;

/// A float type faer decomposes: `f32` and `f64` (feature `linalg`). Sealed.
#[cfg(feature = "linalg")]
pub trait LinalgFloat: Num + num_traits::Float + faer::traits::RealField + sealed::Sealed {}
#[cfg(feature = "linalg")]
impl LinalgFloat for f32 {}
#[cfg(feature = "linalg")]
impl LinalgFloat for f64 {}

/// A float type with square-matrix routines (`inv`, `det`, `solve`, `matrix_power`): `f32` and
/// `f64` (through faer above 8x8 when the `linalg` feature is on), `f16` and `bf16` (direct
/// code). Sealed.
pub trait MatrixFloat: Num + num_traits::Float + Gemm + sealed::Sealed {
    /// The faer routines for this type, when it has them.
    #[doc(hidden)]
    const LAPACK: Option<Lapack<Self>> = None;
}
/// Entry points into `kernels::lapack` for one float type, each taking one matrix as its buffer,
/// offset, sizes and strides (a layout inside the buffer).
#[doc(hidden)]
pub struct Lapack<T: 'static> {
    pub(crate) inv: fn(&[T], usize, [usize; 2], [isize; 2], &mut [T]) -> bool,
    pub(crate) det: fn(&[T], usize, [usize; 2], [isize; 2]) -> T,
    #[allow(clippy::type_complexity)]
    pub(crate) solve: fn(&[T], usize, [usize; 2], [isize; 2], &[T], usize, [usize; 2], [isize; 2], &mut [T]) -> bool,
}

/// Element types with a matrix product (every numeric element type). Sealed: the product runs
/// through `matmul` only, which checks the operands' layouts first. The kernel is a function
/// pointer in a crate-private field of [`GemmKernel`], so not even a `T: Gemm` bound lets user
/// code call it (the methods of a sealed supertrait would stay callable through one).
pub trait Gemm: Num {
    /// This type's product kernel (implemented in `kernels::gemm`).
    #[doc(hidden)]
    const GEMM: GemmKernel<Self>;
}

/// How `kernels::gemm_into` writes its product: added to the destination's values or replacing them,
/// and whether the product may split across rayon's pool (past its own threshold) or must stay
/// on the calling thread (a product inside a block that the caller already runs in parallel:
/// faer's split inside the large 3x3 convolution's parallel blocks cost 9% on two threads).
#[derive(Clone, Copy, Debug)]
pub(crate) struct GemmMode {
    pub(crate) add: bool,
    // Read by faer's kernel only (matrixmultiply's runs on one thread).
    #[cfg_attr(not(any(feature = "faer", feature = "linalg")), allow(dead_code))]
    pub(crate) threads: bool,
}

/// The matrix-product kernel of one element type: `run(a, la, b, lb, c)` computes `c = a @ b`
/// for 2-D layouts that `kernels::gemm` has checked; `into`, where the kernel takes a strided
/// destination (faer's), writes or adds `c` through its own layout (`kernels::gemm_into`);
/// `fresh`, where the kernel writes a destination it never reads (faer's `Accum::Replace`),
/// writes `c = a @ b` into the uninitialised row-major `c` of a new result and returns `true`,
/// or returns `false` having written nothing (a product it leaves to another kernel;
/// `kernels::gemm_new`). Crate-private: user code can name the table but neither build one nor
/// call its functions.
#[doc(hidden)]
pub struct GemmKernel<T: 'static> {
    pub(crate) run: fn(&[T], &crate::layout::Layout, &[T], &crate::layout::Layout, &mut [T]),
    #[allow(clippy::type_complexity)]
    pub(crate) into: Option<
        fn(&[T], &crate::layout::Layout, &[T], &crate::layout::Layout, &mut [T], &crate::layout::Layout, GemmMode),
    >,
    #[allow(clippy::type_complexity)]
    pub(crate) fresh: Option<
        fn(&[T], &crate::layout::Layout, &[T], &crate::layout::Layout, &mut [core::mem::MaybeUninit<T>]) -> bool,
    >,
}

/// An element type with a mean: a float whose accurate sum has its own type (`f32`, `f64`,
/// `f16`, `bf16`). What `mean`, `var` and `std` need. The mean of integers is not an integer,
/// so, as PyTorch, these refuse integer tensors: cast first (`x.cast::<f64>().mean()`).
#[diagnostic::on_unimplemented(
    message = "`mean`, `var` and `std` need float elements, not `{Self}`",
    label = "the mean of integers is not an integer",
    note = "cast first: `x.cast::<f64>().mean()` (PyTorch refuses `mean` of an integer tensor too; NumPy casts to float64)"
)]
pub trait MeanElem: Num<Sum = Self> + num_traits::Float {}
#[diagnostic::do_not_recommend]
impl<T: Num<Sum = T> + num_traits::Float> MeanElem for T {}

/// A numeric element type (every element type but `bool`): what the arithmetic operators,
/// matmul and reductions need. Sealed; see the module docs for the overflow rule.
pub trait Num: Element + PartialOrd + sealed::Sealed {
    /// Whether the type is an integer (division by zero is then an error).
    const INTEGER: bool;
    /// `a + b` (wrapping for integers).
    fn add(a: Self, b: Self) -> Self;
    /// `a - b` (wrapping for integers).
    fn sub(a: Self, b: Self) -> Self;
    /// `a * b` (wrapping for integers).
    fn mul(a: Self, b: Self) -> Self;
    /// `a / b`; for integers the caller has checked that `b` is not zero (then it wraps).
    fn div(a: Self, b: Self) -> Self;
    /// `a % b` (sign of `a`); for integers the caller has checked that `b` is not zero.
    fn rem(a: Self, b: Self) -> Self;
    /// `floor(a / b)` (PyTorch `floor_divide`, Python's `//`); for integers the caller has
    /// checked that `b` is not zero.
    #[doc(hidden)]
    fn floor_div(a: Self, b: Self) -> Self;
    /// `a - floor(a / b) * b`, the sign of `b` (PyTorch `remainder`, Python's `%`); for integers
    /// the caller has checked that `b` is not zero.
    #[doc(hidden)]
    fn floor_rem(a: Self, b: Self) -> Self;

    /// The type of a sum or product: the element type for floats, `i64` for signed and `u64` for
    /// unsigned integers. Integers accumulate exactly (in 128 bits) and a result that does not
    /// fit is an error ([`ShapeError::Overflow`](crate::ShapeError)), never a wrapped value:
    /// `[200u8, 100].sum()` is `300u64` (PyTorch accumulates integers in `int64`).
    type Sum: Num;
    /// The running state of an accurate sum (Kahan-compensated for floats, in the next wider
    /// float for `f16`/`bf16`; 128-bit for integers). For floats the error term is always finite
    /// (0 once the sum is infinite or NaN), so the sum of non-finite or overflowing terms is the
    /// plain IEEE one.
    #[doc(hidden)]
    type Acc: Copy + Send + Sync + core::fmt::Debug;
    /// The empty sum.
    #[doc(hidden)]
    const ACC0: Self::Acc;
    /// Adds `x` to the running sum.
    #[doc(hidden)]
    fn acc(a: &mut Self::Acc, x: Self);
    /// The running state of a cumulative sum (`cumsum`): as [`Acc`](Num::Acc), except that
    /// `f32` adds plainly in `f64`, as PyTorch's CPU `cumsum` accumulates `float` in `double`
    /// (the same values, an overflowing prefix included, and a line's error far below one `f32`
    /// rounding). `f16` and `bf16` keep the compensated `f32` sum, whose overflow is PyTorch's
    /// (it accumulates them in `float`).
    #[doc(hidden)]
    type Run: Copy + Send + Sync + core::fmt::Debug;
    /// The empty cumulative sum.
    #[doc(hidden)]
    const RUN0: Self::Run;
    /// Adds `x` to the running cumulative sum and gives the sum so far, or `None` when an
    /// integer sum does not fit [`Sum`](Num::Sum).
    #[doc(hidden)]
    fn run(a: &mut Self::Run, x: Self) -> Option<Self::Sum>;
    /// Adds two running sums (`a` covers earlier elements).
    #[doc(hidden)]
    fn acc_merge(a: Self::Acc, b: Self::Acc) -> Self::Acc;
    /// The running sum of a contiguous slice (pairwise summation for floats, as NumPy).
    #[doc(hidden)]
    fn acc_slice(s: &[Self]) -> Self::Acc;
    /// Adds the rows of `rows` (row-major, `acc.len()` elements each) into `acc` element-wise:
    /// blocks of 64 rows summed plainly (vectorised) and each block added with compensation.
    #[doc(hidden)]
    fn acc_rows(acc: &mut [Self::Acc], rows: &[Self]);
    /// The smallest value (`-inf` for floats): the start of a running maximum.
    #[doc(hidden)]
    const LOWEST: Self;
    /// The largest value (`+inf` for floats): the start of a running minimum.
    #[doc(hidden)]
    const HIGHEST: Self;
    /// The sum, or `None` when an integer sum does not fit [`Sum`](Num::Sum).
    #[doc(hidden)]
    fn acc_finish(a: Self::Acc) -> Option<Self::Sum>;
    /// `x` as a [`Sum`](Num::Sum) (exact).
    #[doc(hidden)]
    fn to_sum(x: Self) -> Self::Sum;
    /// `a * b`, `None` on integer overflow.
    #[doc(hidden)]
    fn checked_mul(a: Self, b: Self) -> Option<Self>;
    /// `|a|` (wrapping for integers: `i8::MIN` stays `i8::MIN`, as PyTorch).
    fn abs(a: Self) -> Self;
    /// `-1`, `0` or `1` by the sign of `a` (NaN stays NaN; `0` for zero floats, as PyTorch's
    /// `sign`).
    fn signum(a: Self) -> Self;
    /// The larger of `a` and `b`, NaN if either is NaN (PyTorch `maximum`).
    fn max(a: Self, b: Self) -> Self;
    /// The smaller of `a` and `b`, NaN if either is NaN (PyTorch `minimum`).
    fn min(a: Self, b: Self) -> Self;
    /// Whether `a` is NaN (never for integers).
    fn is_nan(a: Self) -> bool;
    /// A key whose unsigned order is PyTorch's order of `sort`: numbers in their order (`-0.0`
    /// equal to `0.0`), every NaN above them and equal to each other.
    #[doc(hidden)]
    fn sort_key(a: Self) -> u64;
    /// Whether [`sort_key32`](Num::sort_key32) gives the order of `sort_key` in 32 bits (element
    /// types of at most 32 bits), so that a key and a 32-bit position pack into one `u64`.
    #[doc(hidden)]
    const KEY32: bool;
    /// [`sort_key`](Num::sort_key)'s order in 32 bits, where [`KEY32`](Num::KEY32) holds.
    #[doc(hidden)]
    fn sort_key32(a: Self) -> u32;
}

macro_rules! int_num {
    ($($t:ty => $s:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Num for $t {
            const INTEGER: bool = true;
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self { a.wrapping_add(b) }
            #[inline(always)]
            fn sub(a: Self, b: Self) -> Self { a.wrapping_sub(b) }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self { a.wrapping_mul(b) }
            #[inline(always)]
            fn div(a: Self, b: Self) -> Self { if b == 0 { 0 } else { a.wrapping_div(b) } }
            #[inline(always)]
            fn rem(a: Self, b: Self) -> Self { if b == 0 { 0 } else { a.wrapping_rem(b) } }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn floor_div(a: Self, b: Self) -> Self {
                let (q, r) = (Self::div(a, b), Self::rem(a, b));
                // Truncation rounded toward zero: one step down when the signs differ.
                if r != 0 && ((r < 0) != (b < 0)) { q.wrapping_sub(1) } else { q }
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn floor_rem(a: Self, b: Self) -> Self {
                let r = Self::rem(a, b);
                if r != 0 && ((r < 0) != (b < 0)) { r.wrapping_add(b) } else { r }
            }
            type Sum = $s;
            type Acc = i128;
            const ACC0: i128 = 0;
            #[inline(always)]
            fn acc(a: &mut i128, x: Self) { *a = a.wrapping_add(x as i128); }
            type Run = i128;
            const RUN0: i128 = 0;
            #[inline(always)]
            fn run(a: &mut i128, x: Self) -> Option<$s> { Self::acc(a, x); Self::acc_finish(*a) }
            #[inline(always)]
            fn acc_merge(a: i128, b: i128) -> i128 { a.wrapping_add(b) }
            fn acc_slice(s: &[Self]) -> i128 {
                if core::mem::size_of::<Self>() <= 4 {
                    // Blocks of 2^16 elements of at most 32 bits cannot overflow an i64 sum,
                    // which vectorises; the blocks add up in 128 bits.
                    s.chunks(1 << 16).map(|c| c.iter().map(|&x| x as i64).fold(0i64, i64::wrapping_add) as i128).fold(0, i128::wrapping_add)
                } else {
                    s.iter().fold(0i128, |a, &x| a.wrapping_add(x as i128))
                }
            }
            fn acc_rows(acc: &mut [i128], rows: &[Self]) {
                for row in rows.chunks_exact(acc.len().max(1)) {
                    for (a, &x) in acc.iter_mut().zip(row) {
                        *a = a.wrapping_add(x as i128);
                    }
                }
            }
            const LOWEST: Self = <$t>::MIN;
            const HIGHEST: Self = <$t>::MAX;
            #[inline(always)]
            fn acc_finish(a: i128) -> Option<$s> { <$s>::try_from(a).ok() }
            #[inline(always)]
            fn to_sum(x: Self) -> $s { x as $s }
            #[inline(always)]
            fn checked_mul(a: Self, b: Self) -> Option<Self> { a.checked_mul(b) }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn abs(a: Self) -> Self { if a < 0 { (0 as Self).wrapping_sub(a) } else { a } }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn signum(a: Self) -> Self { if a > 0 { 1 } else if a < 0 { (0 as Self).wrapping_sub(1) } else { 0 } }
            #[inline(always)]
            fn max(a: Self, b: Self) -> Self { Ord::max(a, b) }
            #[inline(always)]
            fn min(a: Self, b: Self) -> Self { Ord::min(a, b) }
            #[inline(always)]
            fn is_nan(_: Self) -> bool { false }
            #[inline(always)]
            fn sort_key(a: Self) -> u64 { (a as $s as i128 - <$s>::MIN as i128) as u64 }
            const KEY32: bool = core::mem::size_of::<Self>() <= 4;
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn sort_key32(a: Self) -> u32 {
                // Signed: shifted by 2^31 (exact for types of at most 32 bits); unsigned: itself.
                if <$s>::MIN < 0 as $s { (a as i64 - i32::MIN as i64) as u32 } else { a as u32 }
            }
        }
    )*};
}
int_num!(i8 => i64, i16 => i64, i32 => i64, i64 => i64, isize => i64, u8 => u64, u16 => u64, u32 => u64, u64 => u64, usize => u64);

/// Pairwise summation of a contiguous slice, as NumPy does it but on 32 lanes at once: the
/// slice is split in halves down to leaves of 64 rows of `L` lanes (32 f32 lanes, eight SSE
/// registers; 16 for f64), each leaf summed four rows at a time as a small tree into `L`
/// independent accumulators, and the halves' lane sums added as a binary tree; the lanes are
/// added together once, at the end. Every lane is a pairwise sum, so the rounding error grows as
/// `O(log n)` instead of `O(n)` (2e7 copies of `0.1f32` sum to 2000000.4, relative error 1.7e-7;
/// NumPy 2000000.25), and the independent adds hide the add latency: the loop runs at a plain
/// 32-accumulator loop's speed (`benches/kernels.rs`, `sum_full`).
#[inline(always)]
pub(crate) fn pairwise<T: Copy, W: num_traits::Float>(s: &[T], cv: impl Fn(T) -> W + Copy) -> W {
    // Short slices (a small tensor's rows, an inline 4x4) take four lanes, inlined so that a
    // static length unrolls: a tree of depth log2(n) as the long form, in one or two vector adds
    // instead of a sequential tail.
    if s.len() < 64 {
        pairwise_in_lanes::<T, W, 4>(s, cv)
    } else {
        pairwise_long(s, cv)
    }
}

/// [`pairwise`] of 64 elements or more, out of line.
fn pairwise_long<T: Copy, W: num_traits::Float>(s: &[T], cv: impl Fn(T) -> W + Copy) -> W {
    if core::mem::size_of::<W>() <= 4 {
        pairwise_in_lanes::<T, W, 32>(s, cv)
    } else {
        pairwise_in_lanes::<T, W, 16>(s, cv)
    }
}

/// The lane sums of `s` ([`pairwise_lanes`] over the longest prefix of whole rows of `L`), as a
/// tree, then the tail (fewer than `L` elements).
#[inline(always)]
fn pairwise_in_lanes<T: Copy, W: num_traits::Float, const L: usize>(s: &[T], cv: impl Fn(T) -> W + Copy) -> W {
    let cut = s.len() / L * L;
    let mut acc = pairwise_lanes::<T, W, L>(&s[..cut], cv);
    let mut w = L;
    while w > 1 {
        w /= 2;
        for k in 0..w {
            acc[k] = acc[k] + acc[k + w];
        }
    }
    s[cut..].iter().fold(acc[0], |a, &x| a + cv(x))
}

/// Rows of lanes in a leaf of [`pairwise`]: each lane's running sum there takes 16 terms (one per
/// four rows), so a leaf's error is that of a two-level tree and a 16-term sum, as NumPy's leaves
/// (8 accumulators of 16 terms), then `log2` of the leaf count for the tree. On 2e7 x `0.1f32`
/// (`sum_full` paired ratios against the plain 32-accumulator loop, same session): leaves of 128
/// rows added one by one (the former code) erred 9.9e-7 (ratio 1.00); of 128 rows four at a
/// time, 3.3e-7 (1.01); of 64 rows four at a time, 1.7e-7 (1.00); of 32 rows, 4.8e-8 but 26%
/// slower, in the tree's calls and adds.
const PAIRWISE_TERMS: usize = 64;

/// The lane sums of [`pairwise`]: lane `k` sums elements `k, k + L, k + 2L, ...` of `s`, whose
/// length is a multiple of `L`.
#[inline]
fn pairwise_lanes<T: Copy, W: num_traits::Float, const L: usize>(s: &[T], cv: impl Fn(T) -> W + Copy) -> [W; L] {
    if s.len() <= PAIRWISE_TERMS * L {
        let mut acc = [W::zero(); L];
        // Four rows of lanes per step, added as a tree before they reach the lanes' running
        // sums: as many adds as a plain loop, but each running sum takes one term per four rows
        // (the rows as slices of length L, so that the indexing needs no bounds checks; eight
        // rows per step ran 13% slower, with SSE registers only). Then the rows left.
        let quads = s.chunks_exact(4 * L);
        let rest = quads.remainder();
        for c in quads {
            let (r0, c) = c.split_at(L);
            let (r1, c) = c.split_at(L);
            let (r2, r3) = c.split_at(L);
            for k in 0..L {
                acc[k] = acc[k] + ((cv(r0[k]) + cv(r1[k])) + (cv(r2[k]) + cv(r3[k])));
            }
        }
        for row in rest.chunks_exact(L) {
            for (a, &x) in acc.iter_mut().zip(row) {
                *a = *a + cv(x);
            }
        }
        return acc;
    }
    let h = s.len() / 2 / L * L;
    let (mut a, b) = (pairwise_lanes::<T, W, L>(&s[..h], cv), pairwise_lanes::<T, W, L>(&s[h..], cv));
    for k in 0..L {
        a[k] = a[k] + b[k];
    }
    a
}

/// Rows summed plainly per block in [`Num::acc_rows`] before one compensated add: four rows at a
/// time as a small tree, then the sixteen quads in order, so an error of up to about `18 ε` per
/// block (the pairwise sums' leaves allow `128 ε`), and the compensated adds cost a sixty-fourth
/// of the rows.
const ROW_BLOCK: usize = 64;

/// A zeroed work array of `n` elements for [`Num::acc_rows`], or an error when it cannot be
/// allocated.
fn kernels_vec<W: Copy + num_traits::Zero>(n: usize) -> Result<alloc::vec::Vec<W>, crate::ShapeError> {
    crate::memory::try_vec_uncached(n, W::zero())
}

/// Rows at most this long take [`rows_compensated`]'s work arrays on the stack (a small static
/// tensor's column sums allocate nothing).
const SHORT_ROWS: usize = 16;

/// [`Num::acc_rows`] for floats: the rows of `rows` (`acc.len()` elements each) added into the
/// compensated running sums `acc`, converted by `cv`. Blocks of [`ROW_BLOCK`] rows are summed
/// plainly (vectorised), each block added to the running sums with compensation; sums and errors
/// are kept as two arrays meanwhile, so that the compensated adds vectorise too.
#[inline(always)]
fn rows_compensated<T: Copy, W: num_traits::Float>(acc: &mut [(W, W)], rows: &[T], cv: impl Fn(T) -> W + Copy) {
    let inner = acc.len();
    if inner == 0 {
        return;
    }
    if inner <= SHORT_ROWS {
        let mut work = [[W::zero(); SHORT_ROWS]; 3];
        let [block, sum, err] = &mut work;
        return rows_blocked(acc, rows, cv, &mut block[..inner], &mut sum[..inner], &mut err[..inner]);
    }
    rows_long(acc, rows, cv)
}

/// [`rows_compensated`] of rows longer than [`SHORT_ROWS`], with its work arrays on the heap.
fn rows_long<T: Copy, W: num_traits::Float>(acc: &mut [(W, W)], rows: &[T], cv: impl Fn(T) -> W + Copy) {
    let inner = acc.len();
    let (Ok(mut block), Ok(mut sum), Ok(mut err)) = (kernels_vec(inner), kernels_vec(inner), kernels_vec(inner)) else {
        // No room for the work arrays: compensated adds row by row, in place.
        for row in rows.chunks_exact(inner) {
            for (a, &x) in acc.iter_mut().zip(row) {
                kahan(a, cv(x));
            }
        }
        return;
    };
    rows_blocked(acc, rows, cv, &mut block, &mut sum, &mut err)
}

/// The loop of [`rows_compensated`] with its work arrays (`acc.len()` elements each).
#[inline(always)]
fn rows_blocked<T: Copy, W: num_traits::Float>(
    acc: &mut [(W, W)],
    rows: &[T],
    cv: impl Fn(T) -> W + Copy,
    block: &mut [W],
    sum: &mut [W],
    err: &mut [W],
) {
    let inner = acc.len();
    for (k, a) in acc.iter().enumerate() {
        (sum[k], err[k]) = *a;
    }
    for chunk in rows.chunks(ROW_BLOCK * inner) {
        block.fill(W::zero());
        // Four rows per pass, added as a small tree: a quarter of the block's loads and stores
        // per row, and the block's error is that of a sixteen-term sum.
        let quads = chunk.chunks_exact(4 * inner);
        let rest = quads.remainder();
        for q in quads {
            let (r01, r23) = q.split_at(2 * inner);
            let (r0, r1) = r01.split_at(inner);
            let (r2, r3) = r23.split_at(inner);
            for ((((b, &x0), &x1), &x2), &x3) in block.iter_mut().zip(r0).zip(r1).zip(r2).zip(r3) {
                *b = *b + ((cv(x0) + cv(x1)) + (cv(x2) + cv(x3)));
            }
        }
        for row in rest.chunks_exact(inner) {
            for (b, &x) in block.iter_mut().zip(row) {
                *b = *b + cv(x);
            }
        }
        for ((s, e), &b) in sum.iter_mut().zip(err.iter_mut()).zip(block.iter()) {
            // From a zero sum with no error, Kahan's step is exactly `(s + b, 0)` (its error term
            // is `(t - s) - b` = 0 for finite `b`, and set to 0 otherwise): said outright, the
            // compiler drops the compensation of a first block that it knows starts from zero
            // (a small static tensor's column sums), and elsewhere it is one select per output
            // per block.
            if *s == W::zero() && *e == W::zero() {
                *s = *s + b;
            } else {
                let mut a = (*s, *e);
                kahan(&mut a, b);
                (*s, *e) = a;
            }
        }
    }
    for (k, a) in acc.iter_mut().enumerate() {
        *a = (sum[k], err[k]);
    }
}

/// Kahan's compensated step: `a.0` the sum, `a.1` the running error.
///
/// The error is kept finite: once the sum is infinite or NaN (an infinite or NaN term, or a
/// finite sum past the type's range), `(t - a.0) - y` would be `inf - inf` = NaN and poison
/// every later step and the final `a.0 - a.1`; the error is then 0 instead, so the running sum
/// is the plain IEEE sum (`+inf` with finite terms, NaN with both infinities or a NaN), as
/// PyTorch's and NumPy's. The test is a compare and a select, no branch: loops of it still
/// vectorise.
#[inline(always)]
pub(crate) fn kahan<W: num_traits::Float>(a: &mut (W, W), x: W) {
    let y = x - a.1;
    let t = a.0 + y;
    let e = (t - a.0) - y;
    a.1 = if e.is_finite() { e } else { W::zero() };
    a.0 = t;
}

/// PyTorch's `lerp` kernel (`ATen/native/Lerp.h`): `a + w (b - a)` for `|w| < 0.5`, else
/// `b - (b - a)(1 - w)`, so that `w = 1` gives `b` exactly and `w = 0` gives `a` (the one-sided
/// form rounds away from the far end). `f16`/`bf16` compute in `f32` and round once, as
/// PyTorch's `opmath_t`.
#[inline]
pub(crate) fn lerp<T: num_traits::Float>(a: T, b: T, w: T) -> T {
    #[inline(always)]
    fn kernel<W: num_traits::Float>(a: W, b: W, w: W) -> W {
        let half = W::one() / (W::one() + W::one());
        if w.abs() < half {
            a + w * (b - a)
        } else {
            b - (b - a) * (W::one() - w)
        }
    }
    if core::mem::size_of::<T>() < 4 {
        // The half types (every value converts to and from f32 exactly or by one rounding).
        let f = |x: T| x.to_f32().unwrap_or(f32::NAN);
        <T as num_traits::NumCast>::from(kernel(f(a), f(b), f(w))).unwrap_or_else(T::nan)
    } else {
        kernel(a, b, w)
    }
}

/// Python's float floor division `(a // b, a % b)` (CPython's `float_divmod`, which PyTorch's
/// `div(rounding_mode='floor')` and `remainder` follow): the remainder from `fmod` takes the
/// sign of `b`, the quotient is `(a - r) / b` rounded to the nearest integer, so that
/// `q * b + r == a` as nearly as floats allow; a zero takes the sign the exact result would have.
/// `b == 0` gives `a / b` (±inf or NaN) and NaN, as IEEE and PyTorch.
#[inline]
fn py_floor_div(a: f64, b: f64) -> (f64, f64) {
    if b == 0.0 {
        return (a / b, f64::NAN);
    }
    let mut m = a % b;
    let mut div = (a - m) / b;
    if m != 0.0 {
        if (b < 0.0) != (m < 0.0) {
            m += b;
            div -= 1.0;
        }
    } else {
        m = 0.0f64.copysign(b);
    }
    let q = if div != 0.0 {
        let f = div.floor();
        if div - f > 0.5 {
            f + 1.0
        } else {
            f
        }
    } else {
        0.0f64.copysign(a / b)
    };
    (q, m)
}

macro_rules! float_num {
    ($($t:ty => $w:ty, $to:expr, $from:expr, run $r:ty = $r0:expr, $run:expr);*) => {$(
        impl sealed::Sealed for $t {}
        impl Num for $t {
            const INTEGER: bool = false;
            #[inline(always)]
            fn add(a: Self, b: Self) -> Self { a + b }
            #[inline(always)]
            fn sub(a: Self, b: Self) -> Self { a - b }
            #[inline(always)]
            fn mul(a: Self, b: Self) -> Self { a * b }
            #[inline(always)]
            fn div(a: Self, b: Self) -> Self { a / b }
            #[inline(always)]
            fn rem(a: Self, b: Self) -> Self { a % b }
            #[inline(always)]
            fn floor_div(a: Self, b: Self) -> Self { $from(py_floor_div($to(a) as f64, $to(b) as f64).0 as $w) }
            #[inline(always)]
            fn floor_rem(a: Self, b: Self) -> Self { $from(py_floor_div($to(a) as f64, $to(b) as f64).1 as $w) }
            type Sum = Self;
            type Acc = ($w, $w);
            const ACC0: ($w, $w) = (0.0, 0.0);
            #[inline(always)]
            fn acc(a: &mut ($w, $w), x: Self) { kahan(a, $to(x)); }
            type Run = $r;
            const RUN0: $r = $r0;
            #[inline(always)]
            fn run(a: &mut $r, x: Self) -> Option<Self> { Some($run(a, x)) }
            #[inline(always)]
            fn acc_merge(mut a: ($w, $w), b: ($w, $w)) -> ($w, $w) { kahan(&mut a, b.0 - b.1); a }
            #[inline(always)]
            fn acc_slice(s: &[Self]) -> ($w, $w) { (pairwise(s, $to), 0.0) }
            #[inline(always)]
            fn acc_rows(acc: &mut [($w, $w)], rows: &[Self]) {
                rows_compensated(acc, rows, $to)
            }
            const LOWEST: Self = <$t>::NEG_INFINITY;
            const HIGHEST: Self = <$t>::INFINITY;
            #[inline(always)]
            fn acc_finish(a: ($w, $w)) -> Option<Self> { Some($from(a.0 - a.1)) }
            #[inline(always)]
            fn to_sum(x: Self) -> Self { x }
            #[inline(always)]
            fn checked_mul(a: Self, b: Self) -> Option<Self> { Some(a * b) }
            #[inline(always)]
            fn abs(a: Self) -> Self { num_traits::Float::abs(a) }
            #[inline(always)]
            fn signum(a: Self) -> Self {
                if a > Self::ZERO { Self::ONE } else if a < Self::ZERO { -Self::ONE } else { a }
            }
            #[inline(always)]
            fn max(a: Self, b: Self) -> Self { if a != a || a > b { a } else if b != b { b } else if a == b && num_traits::Float::is_sign_negative(b) { a } else { b } }
            #[inline(always)]
            fn min(a: Self, b: Self) -> Self { if a != a || a < b { a } else if b != b { b } else if a == b && num_traits::Float::is_sign_positive(b) { a } else { b } }
            #[inline(always)]
            #[allow(clippy::eq_op)]
            fn is_nan(a: Self) -> bool { a != a }
            #[inline(always)]
            #[allow(clippy::eq_op)]
            fn sort_key(a: Self) -> u64 {
                // Widened exactly to f64; `+ 0.0` turns -0.0 into 0.0; then the IEEE total order
                // as unsigned bits (negative numbers' bits flipped).
                let x = ($to)(a) as f64 + 0.0;
                let b = x.to_bits();
                if x != x { u64::MAX } else if b >> 63 == 1 { !b } else { b | (1 << 63) }
            }
            const KEY32: bool = core::mem::size_of::<Self>() <= 4;
            #[inline(always)]
            fn sort_key32(a: Self) -> u32 {
                // The same order from the f32 bits (every f32, f16 and bf16 is an f32).
                let x = ($to)(a) as f32 + 0.0;
                let b = x.to_bits();
                if x != x { u32::MAX } else if b >> 31 == 1 { !b } else { b | (1 << 31) }
            }
        }
    )*};
}
float_num!(
    f32 => f32, |x| x, |x| x, run f64 = 0.0, |a: &mut f64, x: f32| { *a += x as f64; *a as f32 };
    f64 => f64, |x| x, |x| x, run (f64, f64) = (0.0, 0.0), |a: &mut (f64, f64), x: f64| { kahan(a, x); a.0 - a.1 };
    half::f16 => f32, half::f16::to_f32, half::f16::from_f32,
        run (f32, f32) = (0.0, 0.0), |a: &mut (f32, f32), x: half::f16| { kahan(a, x.to_f32()); half::f16::from_f32(a.0 - a.1) };
    half::bf16 => f32, half::bf16::to_f32, half::bf16::from_f32,
        run (f32, f32) = (0.0, 0.0), |a: &mut (f32, f32), x: half::bf16| { kahan(a, x.to_f32()); half::bf16::from_f32(a.0 - a.1) }
);

/// An element type with bitwise operations: the integers and `bool` (PyTorch's `bitwise_and`,
/// `bitwise_or`, `bitwise_xor`, `bitwise_not`, and the `&`, `|`, `^`, `!` operators on
/// tensors). Sealed.
pub trait Bits: Element + sealed::Sealed {
    /// `a & b`.
    fn and(a: Self, b: Self) -> Self;
    /// `a | b`.
    fn or(a: Self, b: Self) -> Self;
    /// `a ^ b`.
    fn xor(a: Self, b: Self) -> Self;
    /// `!a` (logical not for `bool`).
    fn not(a: Self) -> Self;
}

/// An integer element type: [`Bits`] and [`Num`], with shifts. Sealed.
pub trait Int: Bits + Num {
    /// `a << b`; 0 when `b` is negative or not below the bit width (NumPy and PyTorch on CPU).
    fn shl(a: Self, b: Self) -> Self;
    /// `a >> b`, arithmetic for signed types; for `b` negative or not below the bit width, 0,
    /// or -1 for a negative signed `a` (the sign filled in).
    fn shr(a: Self, b: Self) -> Self;
}

impl sealed::Sealed for bool {}
impl Bits for bool {
    #[inline(always)]
    fn and(a: bool, b: bool) -> bool {
        a & b
    }
    #[inline(always)]
    fn or(a: bool, b: bool) -> bool {
        a | b
    }
    #[inline(always)]
    fn xor(a: bool, b: bool) -> bool {
        a ^ b
    }
    #[inline(always)]
    fn not(a: bool) -> bool {
        !a
    }
}

macro_rules! int_bits {
    ($($t:ty),*) => {$(
        impl Bits for $t {
            #[inline(always)]
            fn and(a: $t, b: $t) -> $t {
                a & b
            }
            #[inline(always)]
            fn or(a: $t, b: $t) -> $t {
                a | b
            }
            #[inline(always)]
            fn xor(a: $t, b: $t) -> $t {
                a ^ b
            }
            #[inline(always)]
            fn not(a: $t) -> $t {
                !a
            }
        }
        impl Int for $t {
            #[inline(always)]
            fn shl(a: $t, b: $t) -> $t {
                u32::try_from(b).ok().and_then(|s| a.checked_shl(s)).unwrap_or(0)
            }
            #[inline(always)]
            fn shr(a: $t, b: $t) -> $t {
                #[allow(unused_comparisons)] // unsigned types are never below 0
                let fill = if a < 0 { !0 } else { 0 };
                u32::try_from(b).ok().and_then(|s| a.checked_shr(s)).unwrap_or(fill)
            }
        }
    )*};
}
int_bits!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

/// `ln(e^a + e^b)`: the larger plus `ln(1 + e^-|a - b|)`; `-inf` when both are `-inf`, `+inf`
/// when either is `+inf`, NaN when either is NaN (PyTorch and NumPy): the binary
/// `logaddexp` and the running step of `logcumsumexp`.
#[inline(always)]
pub(crate) fn logaddexp<T: Float>(a: T, b: T) -> T {
    let m = a.max(b);
    if a.is_nan() || b.is_nan() {
        return T::nan();
    }
    if m.is_infinite() {
        return m;
    }
    m + (-(a - b).abs()).exp().ln_1p()
}

/// The digamma function `ψ(x) = Γ'(x)/Γ(x)` (PyTorch's `calc_digamma`, Cephes' `psi`): the
/// recurrence `ψ(x) = ψ(x + 1) - 1/x` up to 10, then the asymptotic series; reflection
/// `ψ(1 - x) - π / tan(πx)` below 0. Poles: NaN at the negative integers, `-inf` at `+0` and
/// `+inf` at `-0` (PyTorch's choice).
pub(crate) fn digamma(x: f64) -> f64 {
    if x == 0.0 {
        return f64::INFINITY.copysign(-x);
    }
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x < 0.0 {
        if x == x.trunc() {
            return f64::NAN;
        }
        // The reflection; tan has period π, and `x - round(x)` (exact, in [-1/2, 1/2]) keeps
        // its argument small and exact, so x near an integer keeps its digits.
        let r = x - x.round();
        return digamma(1.0 - x) - core::f64::consts::PI / (core::f64::consts::PI * r).tan();
    }
    let (mut x, mut result) = (x, 0.0);
    while x < 10.0 {
        result -= 1.0 / x;
        x += 1.0;
    }
    if x == 10.0 {
        return result + 2.251_752_589_066_721;
    }
    const A: [f64; 7] = [
        8.333_333_333_333_333e-2,
        -2.109_279_609_279_609_3e-2,
        7.575_757_575_757_576e-3,
        -4.166_666_666_666_667e-3,
        3.968_253_968_253_968e-3,
        -8.333_333_333_333_333e-3,
        8.333_333_333_333_333e-2,
    ];
    let y = if x < 1e17 {
        let z = 1.0 / (x * x);
        z * A.iter().fold(0.0, |p, &c| p * z + c)
    } else {
        0.0
    };
    result + libm::log(x) - 0.5 / x - y
}

/// The inverse error function (`erf(erfinv(y)) = y`): Giles' single-precision approximation
/// ("Approximating the erfinv function", 2010) refined by Newton steps on `erf` (on
/// `ln(erfc)` above 0.5, where `1 - |y|` is exact) until a step is below the last digit. `±inf` at `±1`, NaN
/// beyond and for NaN; odd, so `erfinv(-0.0)` is `-0.0`.
pub(crate) fn erfinv(y: f64) -> f64 {
    let a = y.abs();
    if a.is_nan() || a > 1.0 {
        return f64::NAN;
    }
    if a == 1.0 {
        return f64::INFINITY.copysign(y);
    }
    if a == 0.0 {
        return y;
    }
    let w = -libm::log((1.0 - a) * (1.0 + a));
    let mut x = if w < 5.0 {
        let w = w - 2.5;
        [
            3.432_739_39e-7,
            -3.523_387_7e-6,
            -4.391_506_54e-6,
            2.185_808_7e-4,
            -1.253_725_03e-3,
            -4.177_681_64e-3,
            2.466_407_27e-1,
            1.501_409_41,
        ]
        .iter()
        .fold(2.810_226_36e-8, |p, &c| c + p * w)
    } else {
        let w = libm::sqrt(w) - 3.0;
        [
            1.009_505_58e-4,
            1.349_343_22e-3,
            -3.673_428_44e-3,
            5.739_507_73e-3,
            -7.622_461_3e-3,
            9.438_870_47e-3,
            1.001_674_06,
            2.832_976_82,
        ]
        .iter()
        .fold(-2.002_142_57e-4, |p, &c| c + p * w)
    } * a;
    // Newton's method on erf(x) = a, or above 0.5 on ln(erfc(x)) = ln(1 - a), whose slope
    // changes slowly in the tail where erfc falls by orders of magnitude per unit of x.
    let scale = 2.0 / core::f64::consts::PI.sqrt();
    let target = libm::log(1.0 - a);
    for _ in 0..8 {
        let d = scale * libm::exp(-x * x);
        // The Newton step x_new - x: -(erf(x) - a) / erf'(x), or for g(x) = ln(erfc(x)) -
        // ln(1 - a), with g' = -erf'(x) / erfc(x), -g / g' = g erfc(x) / erf'(x).
        let step = if a > 0.5 {
            let c = libm::erfc(x);
            (libm::log(c) - target) * c / d
        } else {
            (a - libm::erf(x)) / d
        };
        if !step.is_finite() {
            break;
        }
        x += step;
        if step.abs() <= 1e-17 * x.abs() {
            break;
        }
    }
    x.copysign(y)
}
