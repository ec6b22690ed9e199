//! Matrix product on strided operands. f32 and f64 go to faer's `matmul` when faer is compiled in
//! (features `linalg`, on by default, or `faer`) and to `matrixmultiply` otherwise; both take any
//! row and column strides, so transposed or sliced views are multiplied in place without a copy.
//! Other element types use a plain triple loop (integers wrap on overflow, as PyTorch's do).
use crate::layout::Layout;
use crate::storage::Element;

mod sealed {
    use crate::layout::Layout;
    /// The product itself, out of reach of users: only [`gemm`](super::gemm) calls it, after
    /// checking its preconditions.
    pub trait GemmImpl: crate::num::Num {
        /// `c = a @ b` for 2-D layouts already checked by [`gemm`](super::gemm).
        fn gemm_unchecked(a: &[Self], la: &Layout, b: &[Self], lb: &Layout, c: &mut [Self]);
    }
}

/// Element types with a matrix product (every numeric element type). A sealed marker: the product
/// runs through `matmul` only, which checks the operands' layouts first.
pub trait Gemm: sealed::GemmImpl {}
impl<T: sealed::GemmImpl> Gemm for T {}

/// `c = a @ b` for `a: [m, k]`, `b: [k, n]` and `c` a row-major `[m, n]` buffer, overwritten.
///
/// # Panics
/// When the layouts are not 2-D with matching inner dims, do not fit their buffers, or `c` is
/// not `m * n` long: the callers guarantee all of it, and the `unsafe` call into
/// `matrixmultiply` relies on it, so it is checked here too (a few comparisons per call).
pub(crate) fn gemm<T: Gemm>(a: &[T], la: &Layout, b: &[T], lb: &Layout, c: &mut [T]) {
    assert!(la.rank() == 2 && lb.rank() == 2, "gemm: operands must be 2-D");
    let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
    assert_eq!(lb.sizes()[0], k, "gemm: inner dimensions differ");
    assert!(la.fits(a.len()) && lb.fits(b.len()), "gemm: operand layout outside its buffer");
    assert_eq!(m.checked_mul(n), Some(c.len()), "gemm: output buffer of the wrong length");
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        c.fill(T::ZERO);
        return;
    }
    T::gemm_unchecked(a, la, b, lb, c)
}

fn naive<T: Element + num_traits::WrappingAdd + num_traits::WrappingMul>(
    a: &[T],
    la: &Layout,
    b: &[T],
    lb: &Layout,
    c: &mut [T],
) {
    let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
    c.fill(T::ZERO);
    for i in 0..m {
        for p in 0..k {
            let x = a[la.offset_of(&[i, p])];
            for (j, cij) in c[i * n..(i + 1) * n].iter_mut().enumerate() {
                *cij = cij.wrapping_add(&x.wrapping_mul(&b[lb.offset_of(&[p, j])]));
            }
        }
    }
}

macro_rules! naive_gemm {
    ($($t:ty),*) => { $(
        impl sealed::GemmImpl for $t {
            fn gemm_unchecked(a: &[$t], la: &Layout, b: &[$t], lb: &Layout, c: &mut [$t]) {
                naive(a, la, b, lb, c)
            }
        }
    )* };
}
naive_gemm!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! half_gemm {
    ($($t:ty),*) => { $(
        impl sealed::GemmImpl for $t {
            fn gemm_unchecked(a: &[$t], la: &Layout, b: &[$t], lb: &Layout, c: &mut [$t]) {
                let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
                c.fill(<$t>::ZERO);
                for i in 0..m {
                    for p in 0..k {
                        let x = a[la.offset_of(&[i, p])];
                        for (j, cij) in c[i * n..(i + 1) * n].iter_mut().enumerate() {
                            *cij += x * b[lb.offset_of(&[p, j])];
                        }
                    }
                }
            }
        }
    )* };
}
half_gemm!(half::f16, half::bf16);

#[cfg(not(any(feature = "faer", feature = "linalg")))]
macro_rules! blas_gemm {
    ($t:ty, $f:ident) => {
        impl sealed::GemmImpl for $t {
            fn gemm_unchecked(a: &[$t], la: &Layout, b: &[$t], lb: &Layout, c: &mut [$t]) {
                let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
                // SAFETY: `gemm` checked that `la` and `lb` are 2-D with inner dims `k`, that they
                // fit their buffers (so, with m, k, n > 0, every offset `offset + i*rs + j*cs` that
                // matrixmultiply reads is inside its slice, and `offset` itself is, so `add` stays
                // in the allocation), and that `c` holds exactly m*n elements, written with row
                // stride n and column stride 1. `c` is a unique `&mut` borrow, so it aliases
                // neither input.
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
                        0.0,
                        c.as_mut_ptr(),
                        n as isize,
                        1,
                    );
                }
            }
        }
    };
}
#[cfg(not(any(feature = "faer", feature = "linalg")))]
blas_gemm!(f32, sgemm);
#[cfg(not(any(feature = "faer", feature = "linalg")))]
blas_gemm!(f64, dgemm);

/// Products of at least this many multiply-adds (`m * k * n`) split across rayon's pool when it
/// has more than one thread; below it the hand-off costs more than it gains (`benches/kernels.rs`,
/// group `matmul_threads`).
#[cfg(all(any(feature = "faer", feature = "linalg"), feature = "rayon"))]
const PAR_FLOPS: usize = 1 << 21;

/// With faer compiled in (features `linalg` or `faer`), f32 and f64 products go to faer's
/// `matmul`: its kernels reach 0.9x the machine's FMA peak where matrixmultiply stays near 0.65x
/// (issue 13's table), it reads the operands in place through their strides, and it threads over
/// rayon's pool.
#[cfg(any(feature = "faer", feature = "linalg"))]
macro_rules! faer_gemm {
    ($($t:ty),*) => { $(
        impl sealed::GemmImpl for $t {
            fn gemm_unchecked(a: &[$t], la: &Layout, b: &[$t], lb: &Layout, c: &mut [$t]) {
                use crate::interop::faer::mat;
                let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
                let lhs = mat(a, la.offset(), [m, k], [la.strides()[0], la.strides()[1]]);
                let rhs = mat(b, lb.offset(), [k, n], [lb.strides()[0], lb.strides()[1]]);
                let dst = faer::MatMut::from_row_major_slice_mut(c, m, n);
                #[cfg(feature = "rayon")]
                let par = if m.saturating_mul(k).saturating_mul(n) >= PAR_FLOPS && rayon::current_num_threads() > 1 {
                    faer::Par::rayon(0)
                } else {
                    faer::Par::Seq
                };
                #[cfg(not(feature = "rayon"))]
                let par = faer::Par::Seq;
                faer::linalg::matmul::matmul(dst, faer::Accum::Replace, lhs, rhs, 1.0, par);
            }
        }
    )* };
}
#[cfg(any(feature = "faer", feature = "linalg"))]
faer_gemm!(f32, f64);
