//! The checked bridge from a tensor's buffer and layout to faer's raw strided views (`MatRef`,
//! `MatMut`): the only place faer sees a pointer of ours. Used by the product (`kernels::gemm`),
//! the decompositions (`kernels::lapack`) and the public faer interop (`interop::faer`). Each
//! view re-checks in O(1) that every element it can reach lies inside the buffer.
use crate::layout::Layout;
use faer::{MatMut, MatRef};

/// The lowest and highest offsets `offset + i * rs + j * cs` reaches for `i < m`, `j < n`
/// (`m`, `n` > 0), in 128 bits.
fn reach(offset: usize, [m, n]: [usize; 2], [rs, cs]: [isize; 2]) -> (i128, i128) {
    let r = |size: usize, stride: isize| (size as i128 - 1) * stride as i128;
    let (r, c) = (r(m, rs), r(n, cs));
    (offset as i128 + r.min(0) + c.min(0), offset as i128 + r.max(0) + c.max(0))
}

/// The stride faer is given for a dim of `size` elements: the layout's own, except that a
/// single-element dim (whose stride is never multiplied by anything but 0, so any value is a
/// valid layout, `isize::MIN` included) gets 1. faer negates strides to walk reversed views, and
/// `-isize::MIN` overflows (a debug-build panic inside faer, issue 25).
#[inline]
fn unit_stride(size: usize, stride: isize) -> isize {
    if size == 1 {
        1
    } else {
        stride
    }
}

/// faer's view of the `[m, n]` matrix at `offset` with strides `[rs, cs]` in `data`.
///
/// # Panics
/// When an element lies outside `data` (never for a tensor's layout: they fit their buffer).
#[inline]
pub(crate) fn mat<T>(data: &[T], offset: usize, [m, n]: [usize; 2], [rs, cs]: [isize; 2]) -> MatRef<'_, T> {
    if m == 0 || n == 0 {
        return MatRef::from_row_major_slice(&data[..0], m, n);
    }
    let (rs, cs) = (unit_stride(m, rs), unit_stride(n, cs));
    let (lo, hi) = reach(offset, [m, n], [rs, cs]);
    assert!(lo >= 0 && hi < data.len() as i128, "matrix view outside its buffer");
    // SAFETY: every element `offset + i * rs + j * cs` (i < m, j < n) lies in `lo..=hi`, inside
    // `data` (checked just above; `unit_stride` changed only the stride of a one-element dim,
    // which multiplies nothing but 0, so the offsets are the layout's own), and `data` is borrowed shared for the view's lifetime, so
    // nothing writes it meanwhile. faer accepts any strides, negative and zero included.
    unsafe { MatRef::from_raw_parts(data.as_ptr().add(offset), m, n, rs, cs) }
}

/// faer's mutable view of the `[m, n]` matrix of layout `l` (rank 2) in `data`.
///
/// # Panics
/// When an element lies outside `data` or two coordinates may reach one element (never for a
/// writable tensor's layout).
pub(crate) fn mat_mut<'a, T>(data: &'a mut [T], l: &Layout) -> MatMut<'a, T> {
    let ([m, n], [rs, cs]) = ([l.sizes()[0], l.sizes()[1]], [l.strides()[0], l.strides()[1]]);
    if m == 0 || n == 0 {
        return MatMut::from_row_major_slice_mut(&mut data[..0], m, n);
    }
    let (rs, cs) = (unit_stride(m, rs), unit_stride(n, cs));
    let (lo, hi) = reach(l.offset(), [m, n], [rs, cs]);
    assert!(lo >= 0 && hi < data.len() as i128, "matrix view outside its buffer");
    assert!(!l.may_overlap(), "mutable matrix view whose elements may overlap");
    // SAFETY: every element `offset + i * rs + j * cs` lies inside `data` (checked just above;
    // `unit_stride` changed only the stride of a one-element dim, which multiplies nothing but 0);
    // no two coordinates reach the same element (`may_overlap` is a proof when false, checked
    // above; writable tensors' layouts always pass it: `TensorBase::try_from_parts`); `data` is
    // borrowed mutably for the view's lifetime, so nothing else reads or writes it meanwhile.
    unsafe { MatMut::from_raw_parts_mut(data.as_mut_ptr().add(l.offset()), m, n, rs, cs) }
}
