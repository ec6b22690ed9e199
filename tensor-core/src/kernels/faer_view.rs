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

/// faer's mutable view of the row-major `[m, n]` matrix filling the uninitialised `data`, for a
/// product that writes every element and reads none (faer's `matmul` with `Accum::Replace`,
/// whose documentation promises that it does not read the destination; faer allows a view of
/// uninitialised memory whose elements are written before they are read).
///
/// # Panics
/// When `data` is not `m * n` long.
pub(crate) fn mat_mut_fresh<T>(data: &mut [core::mem::MaybeUninit<T>], m: usize, n: usize) -> MatMut<'_, T> {
    assert_eq!(Some(data.len()), m.checked_mul(n), "fresh matrix view of the wrong length");
    // SAFETY: `MaybeUninit<T>` has `T`'s layout; the `m * n` elements `i * n + j` are exactly
    // `data` (its length checked just above; `n <= data.len() <= isize::MAX` for a nonzero `m`,
    // and an empty view reaches nothing), each once; `data` is borrowed mutably for the view's
    // lifetime. Nothing reads an element before it is written: the only caller hands the view to
    // faer's product with `Accum::Replace`, and `gemm_new` marks the vector initialised only
    // after it returned.
    unsafe { MatMut::from_raw_parts_mut(data.as_mut_ptr().cast::<T>(), m, n, n as isize, 1) }
}

/// Clears the upper halves of the calling thread's vector registers (`vzeroupper`) after a call
/// into faer's kernels, which can return with them dirty (AVX-512 code, no `vzeroupper` on the
/// way out). While they stay dirty, every later legacy-SSE instruction of the thread, which is
/// all code built for baseline x86-64 (the crate's own element-wise loops, libm, the caller's
/// code), pays a merge with the upper halves: `relu` of `[360, 16, 4, 4]` ran at 31 µs after a
/// 64x64 product and at 19-22 µs after this (the probe is in `guide::speed`, on an AVX-512
/// Xeon). oneDNN ends its primitives the same way. A no-op on CPUs without AVX, other
/// architectures and under Miri.
///
/// Only the calling thread is cleaned: after a product that faer split across rayon's pool, the
/// other workers keep their state until they next run code that clears it (any of the crate's
/// vectorised kernels, or a product of their own). Broadcasting the clean to them was tried: from
/// inside a worker it waits for every other worker to finish its current task, which made the
/// parallel blocks of a large convolution run one after the other (188 against 53 ms in one
/// paired run on two threads).
#[inline]
pub(crate) fn clean_vector_state() {
    #[cfg(all(target_arch = "x86_64", feature = "std", not(miri)))]
    if std::is_x86_feature_detected!("avx") {
        #[target_feature(enable = "avx")]
        fn zero_upper() {
            core::arch::x86_64::_mm256_zeroupper()
        }
        // SAFETY: `zero_upper` needs AVX, detected just above; it writes no memory.
        unsafe { zero_upper() }
    }
}

/// Runs [`clean_vector_state`] when dropped: the first line of a routine that calls faer, so
/// that every return path leaves the registers clean.
pub(crate) struct CleanOnDrop;

impl Drop for CleanOnDrop {
    #[inline]
    fn drop(&mut self) {
        clean_vector_state();
    }
}
