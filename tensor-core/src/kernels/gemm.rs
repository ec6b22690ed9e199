//! Matrix product on strided operands. f32 and f64 go to `matrixmultiply`, which takes any row
//! and column strides, so transposed or sliced views are multiplied in place without a copy.
//! Other element types use a plain triple loop.
use crate::layout::Layout;
use crate::storage::Element;
use alloc::vec;
use alloc::vec::Vec;
use core::ops::{Add, Mul};

/// Element types with a matrix product. `a` is `[m, k]`, `b` is `[k, n]` (checked by the caller,
/// and both layouts fit their buffers); returns the row-major `[m, n]` product.
pub trait Gemm: Element + Add<Output = Self> + Mul<Output = Self> {
    /// The product of two strided 2-D operands, as a row-major buffer.
    fn gemm(a: &[Self], la: &Layout, b: &[Self], lb: &Layout) -> Vec<Self> {
        let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
        let mut c = vec![Self::ZERO; m * n];
        for i in 0..m {
            for p in 0..k {
                let x = a[la.offset_of(&[i, p])];
                for (j, cij) in c[i * n..(i + 1) * n].iter_mut().enumerate() {
                    *cij = *cij + x * b[lb.offset_of(&[p, j])];
                }
            }
        }
        c
    }
}

macro_rules! naive_gemm {
    ($($t:ty),*) => { $(impl Gemm for $t {})* };
}
naive_gemm!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize, half::f16, half::bf16);

macro_rules! blas_gemm {
    ($t:ty, $f:ident) => {
        impl Gemm for $t {
            fn gemm(a: &[$t], la: &Layout, b: &[$t], lb: &Layout) -> Vec<$t> {
                let (m, k, n) = (la.sizes()[0], la.sizes()[1], lb.sizes()[1]);
                let mut c = vec![0.0; m * n];
                if m == 0 || n == 0 || k == 0 {
                    return c;
                }
                // The pointer arithmetic below relies on this; the tensor types guarantee it.
                assert!(la.fits(a.len()) && lb.fits(b.len()), "gemm operand layout outside its buffer");
                // SAFETY: `la` and `lb` fit their buffers (asserted above, and m, k, n > 0 so every
                // offset reachable by `offset + i*rs + j*cs` is inside the slice), so matrixmultiply
                // reads only in-bounds elements; `offset` itself is in bounds, so `add` stays inside
                // the allocation. `c` is a fresh m*n buffer written with row stride n and column
                // stride 1, so its elements do not alias each other or the inputs.
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
                c
            }
        }
    };
}
blas_gemm!(f32, sgemm);
blas_gemm!(f64, dgemm);
