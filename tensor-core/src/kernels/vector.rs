//! Vector kernels: dot, outer and cross products over strided 1-D operands, given as (buffer,
//! offset, stride) with a layout that fits the buffer; and the Kronecker product (an outer
//! product per block) over strided layouts of any rank.
use crate::layout::{walk, Layout};
use crate::num::Num;

/// A strided 1-D operand: its buffer, the offset of element 0 and the stride.
pub(crate) type Strided<'a, T> = (&'a [T], usize, isize);

#[inline(always)]
fn at<T: Copy>((b, o, s): Strided<'_, T>, i: usize) -> T {
    b[(o as isize + i as isize * s) as usize]
}

/// `Σ a[oa + i·sa] · b[ob + i·sb]` for `i < n`: eight independent accumulators over contiguous
/// operands (vectorisable, and a smaller rounding error than one running sum), one otherwise.
#[inline(always)]
pub(crate) fn dot<T: Num>(n: usize, a: &[T], oa: usize, sa: isize, b: &[T], ob: usize, sb: isize) -> T {
    if n == 0 {
        return T::ZERO;
    }
    if sa == 1 && sb == 1 {
        let (x, y) = (&a[oa..oa + n], &b[ob..ob + n]);
        if n < 16 {
            // From the first product, not from zero: `0 + x` is not `x` for x = -0.0, so the
            // compiler keeps that add (one more instruction in a vec3 dot, 1.02x nalgebra's).
            let mut acc = T::mul(x[0], y[0]);
            for (&p, &q) in x[1..].iter().zip(&y[1..]) {
                acc = T::add(acc, T::mul(p, q));
            }
            return acc;
        }
        let mut acc = [T::ZERO; 8];
        let (xc, yc) = (x.chunks_exact(8), y.chunks_exact(8));
        let (xr, yr) = (xc.remainder(), yc.remainder());
        for (p, q) in xc.zip(yc) {
            for k in 0..8 {
                acc[k] = T::add(acc[k], T::mul(p[k], q[k]));
            }
        }
        let mut t = T::ZERO;
        for (&p, &q) in xr.iter().zip(yr) {
            t = T::add(t, T::mul(p, q));
        }
        let pair = |i: usize| T::add(acc[i], acc[i + 1]);
        return T::add(T::add(T::add(pair(0), pair(2)), T::add(pair(4), pair(6))), t);
    }
    let term =
        |i: usize| T::mul(a[(oa as isize + i as isize * sa) as usize], b[(ob as isize + i as isize * sb) as usize]);
    (1..n).fold(term(0), |acc, i| T::add(acc, term(i)))
}

/// `out[i, j] = a[i] · b[j]` into the row-major `out` of `m * n` elements (`m = out.len() / n`).
#[inline(always)]
pub(crate) fn outer<T: Num>(out: &mut [T], n: usize, a: Strided<'_, T>, b: Strided<'_, T>) {
    if n == 0 {
        return;
    }
    for (i, row) in out.chunks_exact_mut(n).enumerate() {
        let x = at(a, i);
        for (j, o) in row.iter_mut().enumerate() {
            *o = T::mul(x, at(b, j));
        }
    }
}

/// The cross product of two 3-vectors.
#[inline(always)]
pub(crate) fn cross<T: Num>(a: Strided<'_, T>, b: Strided<'_, T>) -> [T; 3] {
    let f = |i: usize, j: usize| T::sub(T::mul(at(a, i), at(b, j)), T::mul(at(a, j), at(b, i)));
    [f(1, 2), f(2, 0), f(0, 1)]
}

/// The Kronecker product: `out[oi + oj] = a[ai] · b[bj]` for every element `i` of `a` (offset
/// `ai` in `la`, `oi` in `outer`) and `j` of `b` (offset `bj` in `lb`, `oj` in `inner`), with
/// `outer`/`inner` from `layout::kron_layouts` (they address `out`, which is row-major).
pub(crate) fn kron<T: Num>(
    out: &mut [T],
    (a, la, outer): (&[T], &Layout, &Layout),
    (b, lb, inner): (&[T], &Layout, &Layout),
) {
    walk(la.sizes(), [la, outer], |[ai, oi]| {
        let x = a[ai];
        walk(lb.sizes(), [lb, inner], |[bj, oj]| out[oi + oj] = T::mul(x, b[bj]));
    });
}
