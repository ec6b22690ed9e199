//! Kernels for fully static shapes: sizes and row-major strides are compile-time constants
//! computed from the shape types (in `const` blocks at the call sites), so the loops here have
//! constant bounds that the compiler unrolls and vectorises, with no [`Layout`](crate::Layout)
//! built, no broadcasting arithmetic at run time and no allocation. The operations use them for
//! inline operands ([`Inline`](crate::storage::Inline)), whose layout is the row-major one of
//! their static shape, and for small static matrix products of any storage. Everything else goes
//! through the shape-erased kernels of the parent module.
use crate::num::Num;
use crate::shape::{Shape, MAX_RANK};
use crate::storage::Element;

/// Whether every dim of `S` is static (which needs a static rank).
pub(crate) const fn is_static<S: Shape>() -> bool {
    let Some(r) = S::RANK else { return false };
    let mut i = 0;
    while i < r {
        if S::STATIC[i].is_none() {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `A` and `B` are the same fully static shape.
pub(crate) const fn same_static<A: Shape, B: Shape>() -> bool {
    if !is_static::<A>() || !is_static::<B>() {
        return false;
    }
    let (Some(ra), Some(rb)) = (A::RANK, B::RANK) else { return false };
    if ra != rb {
        return false;
    }
    let mut i = 0;
    while i < ra {
        match (A::STATIC[i], B::STATIC[i]) {
            (Some(x), Some(y)) if x == y => {}
            _ => return false,
        }
        i += 1;
    }
    true
}

/// The static size of dim `i` of `S` (0 when it is not static: callers check [`is_static`]).
const fn size<S: Shape>(i: usize) -> usize {
    match S::STATIC[i] {
        Some(n) => n,
        None => 0,
    }
}

/// The rank of `S` (0 when not static).
const fn rank<S: Shape>() -> usize {
    match S::RANK {
        Some(r) => r,
        None => 0,
    }
}

/// The element count of static `S`.
pub(crate) const fn numel<S: Shape>() -> usize {
    let mut n = 1;
    let mut i = 0;
    while i < rank::<S>() {
        n *= size::<S>(i);
        i += 1;
    }
    n
}

/// The sizes of static `S` right-aligned in `MAX_RANK` slots, leading slots 1.
pub(crate) const fn padded_sizes<S: Shape>() -> [usize; MAX_RANK] {
    let mut p = [1; MAX_RANK];
    let r = rank::<S>();
    let mut i = 0;
    while i < r {
        p[MAX_RANK - r + i] = size::<S>(i);
        i += 1;
    }
    p
}

/// The row-major strides of static `S` in the padded slots of [`padded_sizes`].
pub(crate) const fn padded_strides<S: Shape>() -> [usize; MAX_RANK] {
    let n = padded_sizes::<S>();
    let mut s = [0; MAX_RANK];
    let mut acc = 1;
    let mut i = MAX_RANK;
    while i > 0 {
        i -= 1;
        s[i] = acc;
        acc *= n[i];
    }
    s
}

/// The strides at which a row-major tensor of static shape `S` is read at each padded coordinate
/// of the static shape `SO` it broadcasts to (0 on the dims it is stretched along). `S` must
/// broadcast to `SO` (the type rules guarantee it).
pub(crate) const fn broadcast_strides<S: Shape, SO: Shape>() -> [usize; MAX_RANK] {
    let (n, no) = (padded_sizes::<S>(), padded_sizes::<SO>());
    let mut s = padded_strides::<S>();
    let mut i = 0;
    while i < MAX_RANK {
        if n[i] != no[i] {
            s[i] = 0;
        }
        i += 1;
    }
    s
}

/// The mask of `axes` (already normalised, below the rank).
pub(crate) const fn axes_mask(axes: &[usize]) -> [bool; MAX_RANK] {
    let mut m = [false; MAX_RANK];
    let mut i = 0;
    while i < axes.len() {
        m[axes[i]] = true;
        i += 1;
    }
    m
}

/// `f` at every padded coordinate of `n` (constants at the call site), given the element offsets
/// of `K` operands: offset `k` is the dot product of the coordinate with `st[k]`.
#[inline(always)]
pub(crate) fn walk<const K: usize>(n: &[usize; MAX_RANK], st: &[[usize; MAX_RANK]; K], mut f: impl FnMut([usize; K])) {
    let step = |o: [usize; K], d: usize, i: usize| -> [usize; K] { core::array::from_fn(|k| o[k] + i * st[k][d]) };
    for i0 in 0..n[0] {
        let o0 = step([0; K], 0, i0);
        for i1 in 0..n[1] {
            let o1 = step(o0, 1, i1);
            for i2 in 0..n[2] {
                let o2 = step(o1, 2, i2);
                for i3 in 0..n[3] {
                    let o3 = step(o2, 3, i3);
                    for i4 in 0..n[4] {
                        let o4 = step(o3, 4, i4);
                        for i5 in 0..n[5] {
                            f(step(o4, 5, i5));
                        }
                    }
                }
            }
        }
    }
}

/// `out = f(a, b)` element-wise for row-major operands of static shapes `SA` and `SB` broadcast
/// to the static shape `SO` (`out` is row-major `SO`).
#[inline(always)]
pub(crate) fn zip<SA: Shape, SB: Shape, SO: Shape, A: Element, B: Element, C: Element>(
    out: &mut [C],
    a: &[A],
    b: &[B],
    f: impl Fn(A, B) -> C,
) {
    if const { same_static::<SA, SO>() && same_static::<SB, SO>() } {
        for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
            *o = f(x, y);
        }
        return;
    }
    let n = const { padded_sizes::<SO>() };
    let st = const { [padded_strides::<SO>(), broadcast_strides::<SA, SO>(), broadcast_strides::<SB, SO>()] };
    walk(&n, &st, |[o, i, j]| out[o] = f(a[i], b[j]));
}

/// `f(&mut dst, src)` for every element of the row-major `dst` of static shape `SD`, `src`
/// (row-major, static shape `SS`) broadcast to it.
#[inline(always)]
pub(crate) fn zip_assign<SD: Shape, SS: Shape, T: Element, U: Element>(
    dst: &mut [T],
    src: &[U],
    f: impl Fn(&mut T, U),
) {
    if const { same_static::<SD, SS>() } {
        for (d, &x) in dst.iter_mut().zip(src) {
            f(d, x);
        }
        return;
    }
    let n = const { padded_sizes::<SD>() };
    let st = const { [padded_strides::<SD>(), broadcast_strides::<SS, SD>()] };
    walk(&n, &st, |[o, i]| f(&mut dst[o], src[i]));
}

/// `out = f(a)` element-wise over contiguous buffers of equal length.
#[inline(always)]
pub(crate) fn map<A: Element, C: Element>(out: &mut [C], a: &[A], mut f: impl FnMut(A) -> C) {
    for (o, &x) in out.iter_mut().zip(a) {
        *o = f(x);
    }
}

/// The largest `m * k * n` that static matrix products with an inline operand compute by direct
/// code (16x16 @ 16x16); larger ones go to the gemm.
pub(crate) const DIRECT_MATMUL: usize = 16 * 16 * 16;
/// The same for static products of heap tensors and views, whose strides are run-time values
/// (8x8 @ 8x8: above it the gemm's packed kernels win).
pub(crate) const DIRECT_MATMUL_STRIDED: usize = 8 * 8 * 8;

/// `out[m, n] = a[m, k] @ b[k, n]` by direct loops: `a` is read at `oa + i * sa[0] + p * sa[1]`,
/// `b` at `ob + p * sb[0] + j * sb[1]`, `out` is row-major and overwritten. The sizes are
/// constants at the call sites that the compiler unrolls; the strides are constants for inline
/// operands and run-time values for views, chosen so that the inner loop runs along `b`'s rows
/// when they are contiguous (vectorisable axpy form) and along `a`'s rows against `b`'s columns
/// otherwise (a transposed `b`, as in `p.matmul(&f.t())`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn matmul<T: Num>(
    (m, k, n): (usize, usize, usize),
    out: &mut [T],
    a: &[T],
    oa: usize,
    sa: [isize; 2],
    b: &[T],
    ob: usize,
    sb: [isize; 2],
) {
    if m == 0 || n == 0 {
        return;
    }
    let at = |i: usize, p: usize| a[(oa as isize + i as isize * sa[0] + p as isize * sa[1]) as usize];
    let bt = |p: usize, j: usize| b[(ob as isize + p as isize * sb[0] + j as isize * sb[1]) as usize];
    if (m, k, n) == (4, 4, 1) && sa == [4, 1] {
        let a: &[T; 16] = a[oa..oa + 16].try_into().expect("16 elements");
        out[..4].copy_from_slice(&mv4(a, [bt(0, 0), bt(1, 0), bt(2, 0), bt(3, 0)]));
    } else if n < 4 && k > 0 {
        // Narrow results (`[4, 2]` in a Kalman gain): one dot product per element in row-major
        // order, which the compiler vectorises across rows instead of over half-empty rows.
        for (idx, o) in out.iter_mut().enumerate().take(m * n) {
            let (i, j) = (idx / n, idx % n);
            let mut acc = T::mul(at(i, 0), bt(0, j));
            for p in 1..k {
                acc = T::add(acc, T::mul(at(i, p), bt(p, j)));
            }
            *o = acc;
        }
    } else if sb[1] == 1 {
        axpy_rows((m, k, n), out, at, b, ob, sb[0]);
    } else if k * n <= PACK {
        // Strided rows (a transposed operand, as in `p.matmul(&f.t())`): pack `b` row-major on
        // the stack once, then the axpy form (a gather per element of `b` instead of per product).
        let mut packed = [T::ZERO; PACK];
        for p in 0..k {
            for j in 0..n {
                packed[p * n + j] = bt(p, j);
            }
        }
        axpy_rows((m, k, n), out, at, &packed, 0, n as isize);
    } else {
        for (i, row) in out.chunks_exact_mut(n).enumerate().take(m) {
            for (j, o) in row.iter_mut().enumerate() {
                let mut acc = T::ZERO;
                for p in 0..k {
                    acc = T::add(acc, T::mul(at(i, p), bt(p, j)));
                }
                *o = acc;
            }
        }
    }
}

/// `a @ x` for a row-major 4x4 `a`: four dot products, whose terms must meet in the lane of their
/// row. The compiler vectorises the plain loops by transposing `a` in registers (12-15 shuffles,
/// 1.4x nalgebra's column-major broadcasts, which take 4); f32 on x86-64 takes [`mv4_sse`]
/// instead. The `Any` casts are resolved at compile time (both types are known there).
#[inline(always)]
fn mv4<T: Num>(a: &[T; 16], x: [T; 4]) -> [T; 4] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
    if let (Some(a32), Some(x32)) =
        ((a as &dyn core::any::Any).downcast_ref::<[f32; 16]>(), (&x as &dyn core::any::Any).downcast_ref::<[f32; 4]>())
    {
        // SAFETY: `mv4_sse` only requires the SSE target feature, and this line is compiled only
        // where it is enabled for the whole build (the `cfg` above; every x86-64 CPU has SSE).
        // It reads nothing but its arguments.
        let y = unsafe { mv4_sse(a32, *x32) };
        if let Some(y) = (&y as &dyn core::any::Any).downcast_ref::<[T; 4]>() {
            return *y;
        }
    }
    core::array::from_fn(|i| {
        let r = &a[4 * i..4 * i + 4];
        T::add(T::add(T::mul(r[0], x[0]), T::mul(r[1], x[1])), T::add(T::mul(r[2], x[2]), T::mul(r[3], x[3])))
    })
}

/// The sums of the rows of a row-major 4x4, each `(a_i0 + a_i2) + (a_i1 + a_i3)` (the order in
/// which [`pairwise`](crate::num::pairwise) sums four elements), for f32 on x86-64: [`mv4_sse`]
/// against ones (exact products, folded away), five shuffles instead of the ten of the
/// compiler's transpose. `None` for other types and targets.
#[inline(always)]
pub(crate) fn row_sums4<T: Copy + 'static>(a: &[T; 16]) -> Option<[T; 4]> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
    if let Some(a32) = (a as &dyn core::any::Any).downcast_ref::<[f32; 16]>() {
        // SAFETY: as in `mv4`: `mv4_sse` only requires the SSE target feature, enabled for the
        // whole build where this line is compiled (the `cfg` above). It reads only its arguments.
        let y = unsafe { mv4_sse(a32, [1.0; 4]) };
        return (&y as &dyn core::any::Any).downcast_ref::<[T; 4]>().copied();
    }
    let _ = a;
    None
}

/// [`mv4`] for f32 in SSE (the x86-64 baseline, so no feature detection). Windows of four
/// elements that straddle two rows (`a[2..6]`, `a[6..10]`, `a[10..14]`, times `x` rotated by two)
/// hold the right half of one row's terms beside the left half of the next, so each pair of rows
/// needs one two-source shuffle before its halves add up, and the two pair sums two more: five
/// shuffles with the rotation of `x`, four multiplies, three adds. Each row sums as
/// `(a_i0 x_0 + a_i2 x_2) + (a_i1 x_1 + a_i3 x_3)`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse"))]
#[target_feature(enable = "sse")]
#[inline]
fn mv4_sse(a: &[f32; 16], x: [f32; 4]) -> [f32; 4] {
    use core::arch::x86_64::*;
    let w = |o: usize| _mm_setr_ps(a[o], a[o + 1], a[o + 2], a[o + 3]);
    let xv = _mm_setr_ps(x[0], x[1], x[2], x[3]);
    let xr = _mm_shuffle_ps::<0b01_00_11_10>(xv, xv); // x2 x3 x0 x1

    // Lanes hold terms of l_i = (a_i0 x_0, a_i1 x_1) and r_i = (a_i2 x_2, a_i3 x_3). The ends
    // (l_0 and r_3) share one register, loaded whole: a half-register load would keep the other
    // half of its previous value, a dependency from one call to the next (4 ns against 2).
    let e = _mm_mul_ps(_mm_setr_ps(a[0], a[1], a[14], a[15]), xv); // l_0 | r_3
    let s = _mm_mul_ps(w(2), xr); // r_0 | l_1
    let t = _mm_mul_ps(w(6), xr); // r_1 | l_2
    let u = _mm_mul_ps(w(10), xr); // r_2 | l_3
    let r01 = _mm_add_ps(s, _mm_movelh_ps(e, t)); // row 0 | row 1, two lanes each
    let r23 = _mm_add_ps(u, _mm_movehl_ps(e, t)); // row 2 | row 3
    let even = _mm_shuffle_ps::<0b10_00_10_00>(r01, r23);
    let odd = _mm_shuffle_ps::<0b11_01_11_01>(r01, r23);
    bytemuck::cast(_mm_add_ps(even, odd))
}

/// The largest `k * n` of a strided right operand that [`matmul`] packs on the stack.
const PACK: usize = 64;

/// `out[m, n] = a @ b` for `b` with unit column stride and row stride `sb0` from offset `ob`: row
/// `i` of the result is the combination of `b`'s rows weighted by row `i` of `a`, starting from
/// the first product (no `0 + x` to keep), each step a vectorisable axpy over a row.
#[inline(always)]
fn axpy_rows<T: Num>(
    (m, k, n): (usize, usize, usize),
    out: &mut [T],
    at: impl Fn(usize, usize) -> T,
    b: &[T],
    ob: usize,
    sb0: isize,
) {
    let brow = |p: usize| {
        let start = (ob as isize + p as isize * sb0) as usize;
        &b[start..start + n]
    };
    for (i, row) in out.chunks_exact_mut(n).enumerate().take(m) {
        if k == 0 {
            row.fill(T::ZERO);
            continue;
        }
        let x = at(i, 0);
        for (o, &y) in row.iter_mut().zip(brow(0)) {
            *o = T::mul(x, y);
        }
        for p in 1..k {
            let x = at(i, p);
            for (o, &y) in row.iter_mut().zip(brow(p)) {
                *o = T::add(*o, T::mul(x, y));
            }
        }
    }
}
