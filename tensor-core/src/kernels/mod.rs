//! Shape-erased kernels: each takes flat slices and [`Layout`]s and is generic over the element
//! type only, so static and dynamic tensors share them (DESIGN rule 1). Contiguous inputs take a
//! slice fast path (and rayon above [`PAR_THRESHOLD`] elements with the `rayon` feature); strided
//! ones go through `layout::walk`, which orders and merges the loops from the strides.
use crate::layout::{walk, Layout};
use crate::storage::Element;
use alloc::vec;
use alloc::vec::Vec;

mod gather;
mod gemm;
mod index;
pub(crate) mod join;
mod reduce;
pub(crate) use gather::{
    gather, index_select, masked_fill, masked_fill_inplace, masked_select, nonzero, scatter, scatter_value,
    where_select,
};
pub use gemm::Gemm;
pub(crate) use index::{gather_offsets, mask_coords};
pub(crate) use reduce::{sum, sum_axis};

/// Element count at which contiguous element-wise kernels split the work across rayon's pool.
/// Measured with `benches/ops.rs` (`threshold` group, f32 add, 2 cores): rayon was 1.4-1.6x
/// slower than the serial loop at 2^17 elements, even at 2^18, and 1.3-1.65x faster from 2^19.
pub const PAR_THRESHOLD: usize = 1 << 19;

/// The tensor's elements as one slice, when its layout is contiguous.
#[inline]
pub(crate) fn contiguous_slice<'a, T>(data: &'a [T], l: &Layout) -> Option<&'a [T]> {
    match l.numel() {
        // An empty view may carry any offset (even past the end): it reads nothing.
        0 => Some(&[]),
        n => l.is_contiguous().then(|| &data[l.offset()..l.offset() + n]),
    }
}

/// The tensor's elements in row-major order, in a new buffer.
pub(crate) fn to_vec<T: Element>(src: &[T], l: &Layout) -> Vec<T> {
    map(src, l, |x| x)
}

/// `f` applied to every element, in a new row-major buffer.
pub(crate) fn map<T: Element, U: Element>(src: &[T], l: &Layout, f: impl Fn(T) -> U + Sync + Send) -> Vec<U> {
    if let Some(s) = contiguous_slice(src, l) {
        #[cfg(feature = "rayon")]
        if s.len() >= PAR_THRESHOLD {
            use rayon::prelude::*;
            return s.par_iter().map(|&x| f(x)).collect();
        }
        return s.iter().map(|&x| f(x)).collect();
    }
    let n = l.numel();
    let mut out = vec![U::ZERO; n];
    if n == 0 {
        return out;
    }
    let ol = Layout::contiguous(l.sizes()).expect("sizes of an existing tensor");
    walk(l.sizes(), [&ol, l], |[o, i]| out[o] = f(src[i]));
    out
}

/// `f(a, b)` over `sizes`, into a new row-major buffer. `la` and `lb` must already be expanded to
/// `sizes` (stride 0 on broadcast dims).
pub(crate) fn zip<A: Element, B: Element, C: Element>(
    a: &[A],
    la: &Layout,
    b: &[B],
    lb: &Layout,
    f: impl Fn(A, B) -> C + Sync + Send,
) -> Vec<C> {
    debug_assert_eq!(la.sizes(), lb.sizes());
    if let (Some(x), Some(y)) = (contiguous_slice(a, la), contiguous_slice(b, lb)) {
        #[cfg(feature = "rayon")]
        if x.len() >= PAR_THRESHOLD {
            use rayon::prelude::*;
            return x.par_iter().zip(y.par_iter()).map(|(&p, &q)| f(p, q)).collect();
        }
        return x.iter().zip(y).map(|(&p, &q)| f(p, q)).collect();
    }
    let n = la.numel();
    if n == 0 {
        return Vec::new();
    }
    // Row-major tensor broadcast against a row (the bias-add case): one pass over `a`, no walk.
    if let (Some(x), true) = (contiguous_slice(a, la), lb.rank() > 0) {
        let r = lb.rank();
        let inner = lb.sizes()[r - 1];
        let rows_broadcast = lb.strides()[..r - 1].iter().all(|&s| s == 0);
        if rows_broadcast && lb.strides()[r - 1] == 1 && inner > 0 {
            let row = &b[lb.offset()..lb.offset() + inner];
            let mut out = Vec::with_capacity(n);
            for xs in x.chunks_exact(inner) {
                out.extend(xs.iter().zip(row).map(|(&p, &q)| f(p, q)));
            }
            return out;
        }
    }
    let mut out = vec![C::ZERO; n];
    let ol = Layout::contiguous(la.sizes()).expect("sizes of an existing tensor");
    walk(la.sizes(), [&ol, la, lb], |[o, i, j]| out[o] = f(a[i], b[j]));
    out
}

/// `f(&mut dst, src)` for every element of `ld`; `ls` must already be expanded to `ld`'s sizes.
pub(crate) fn zip_assign<T: Element, U: Element>(
    dst: &mut [T],
    ld: &Layout,
    src: &[U],
    ls: &Layout,
    f: impl Fn(&mut T, U),
) {
    debug_assert_eq!(ld.sizes(), ls.sizes());
    walk(ld.sizes(), [ld, ls], |[o, i]| f(&mut dst[o], src[i]));
}

/// Sets every element of `ld` to `v`.
pub(crate) fn fill<T: Element>(dst: &mut [T], ld: &Layout, v: T) {
    let (o, n) = (ld.offset(), ld.numel());
    if n == 0 {
        return;
    }
    if ld.is_contiguous() {
        dst[o..o + n].fill(v);
        return;
    }
    walk(ld.sizes(), [ld], |[o]| dst[o] = v);
}
