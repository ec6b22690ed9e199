//! Allocation policy, low in the layers: every element buffer is reserved fallibly (an
//! allocation failure is [`ShapeError::Alloc`], never an abort), large ones are advised to use
//! transparent huge pages, and element buffers of 128 KiB or more are taken from and returned to
//! the process-wide cache of freed buffers ([`cache`]). Layouts, coordinates and accumulators are
//! not elements and use the `_uncached` forms.
use crate::element::Element;
use crate::error::ShapeError;
use alloc::vec::Vec;

pub(crate) mod cache;

/// An empty vector with room for `n` elements, or [`ShapeError::Alloc`] when the allocator cannot
/// provide it (the `try_` forms' answer to PyTorch's "not enough memory").
///
/// A buffer of 128 KiB or more comes from the cache of freed large buffers when it holds one that
/// fits ([`cache`]); [`try_with_capacity_uncached`] is the same for any `T`, without the cache.
pub(crate) fn try_with_capacity<T: Element>(n: usize) -> Result<Vec<T>, ShapeError> {
    match cache::take(n) {
        Some(v) => Ok(v),
        None => try_with_capacity_uncached(n),
    }
}

/// [`try_with_capacity`] for any `T` (coordinates, layouts, accumulators), from the allocator.
pub(crate) fn try_with_capacity_uncached<T>(n: usize) -> Result<Vec<T>, ShapeError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| ShapeError::Alloc { count: n, elem_size: core::mem::size_of::<T>() })?;
    advise_huge_pages(&v);
    Ok(v)
}

/// The values stored little-endian in `bytes`, `N` bytes each (a trailing partial value is
/// ignored; the file readers check the lengths first): how the safetensors readers decode a
/// tensor's bytes.
#[cfg(feature = "safetensors")]
pub(crate) fn le_iter<E: num_traits::FromBytes<Bytes = [u8; N]>, const N: usize>(
    bytes: &[u8],
) -> impl Iterator<Item = E> + '_ {
    bytes.chunks_exact(N).map(|c| {
        let mut a = [0u8; N];
        a.copy_from_slice(c);
        E::from_le_bytes(&a)
    })
}

/// [`le_iter`]'s values in a vector reserved as [`try_with_capacity`] reserves.
///
/// # Errors
/// [`ShapeError::Alloc`].
#[cfg(feature = "safetensors")]
pub(crate) fn le_values<E: Element + num_traits::FromBytes<Bytes = [u8; N]>, const N: usize>(
    bytes: &[u8],
) -> Result<Vec<E>, ShapeError> {
    let mut out = try_with_capacity(bytes.len() / N)?;
    out.extend(le_iter::<E, N>(bytes));
    Ok(out)
}

/// Buffers from this many bytes on are backed by transparent huge pages where the system allows
/// it (NumPy's threshold, 4 MiB).
#[cfg(all(feature = "std", target_os = "linux", not(miri)))]
const HUGE_PAGE_BYTES: usize = 1 << 22;

/// Asks Linux to back the whole pages of `v`'s fresh allocation by transparent huge pages
/// (`madvise(MADV_HUGEPAGE)`, as NumPy does for arrays from 4 MiB) when it holds at least
/// [`HUGE_PAGE_BYTES`]: the first writes then fault in 2 MiB pages instead of 4 KiB ones, 512
/// times fewer faults. Measured with `benches/kernels.rs` (`add_new_16m`, a 1.6e7 f32 add into a
/// new tensor): see the kernel table of `shaped::guide::speed`. Only advice: when the kernel declines (THP set to
/// `never`, an old kernel) nothing changes, and the result is ignored.
#[cfg(all(feature = "std", target_os = "linux", not(miri)))]
fn advise_huge_pages<T>(v: &Vec<T>) {
    let bytes = v.capacity().saturating_mul(core::mem::size_of::<T>());
    if bytes < HUGE_PAGE_BYTES {
        return;
    }
    const PAGE: usize = 4096;
    let start = v.as_ptr() as usize;
    let first = start.next_multiple_of(PAGE);
    let len = (start + bytes - first) / PAGE * PAGE;
    // SAFETY: `[first, first + len)` lies inside `v`'s allocation of `bytes` bytes (`first` is
    // `start` rounded up within the first page; `len` stops at the last whole page before
    // `start + bytes`; `bytes` >= 4 MiB keeps the range non-empty). MADV_HUGEPAGE changes only
    // how the kernel backs these pages, never their contents, mapping or protection, so no Rust
    // reference to them is affected; its return value (an error where THP is unavailable) is
    // deliberately ignored.
    unsafe {
        libc::madvise(first as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
}

/// Huge pages are a Linux facility (and Miri cannot call `madvise`): elsewhere nothing to do.
#[cfg(not(all(feature = "std", target_os = "linux", not(miri))))]
#[inline(always)]
fn advise_huge_pages<T>(_: &alloc::vec::Vec<T>) {}

/// `n` copies of `value` in a fallibly allocated vector.
pub(crate) fn try_vec<T: Element>(n: usize, value: T) -> Result<Vec<T>, ShapeError> {
    let mut v = try_with_capacity(n)?;
    v.resize(n, value);
    Ok(v)
}

/// `n` elements for a kernel that writes every one of them before the vector is read: a freed
/// buffer from the cache with its old values (no zero fill: 11% of a transformer block's forward
/// went to zero-filling results that a product then overwrote), otherwise `n` zeros.
///
/// The old values are a freed tensor's elements of the same type, so nothing uninitialised is
/// ever read; but a caller that leaves an element unwritten would show another tensor's value.
/// Only kernels that overwrite their whole output take this (the gemm, `map_into`, softmax, ...),
/// and `tests/buffer_cache.rs` runs each of them on buffers filled with NaN.
pub(crate) fn try_vec_for_overwrite<T: Element>(n: usize) -> Result<Vec<T>, ShapeError> {
    match cache::take_for_overwrite(n) {
        Some(v) => Ok(v),
        None => try_vec(n, T::ZERO),
    }
}

/// [`try_vec`] for any `T` (layouts, accumulators), from the allocator.
pub(crate) fn try_vec_uncached<T: Clone>(n: usize, value: T) -> Result<Vec<T>, ShapeError> {
    let mut v = try_with_capacity_uncached(n)?;
    v.resize(n, value);
    Ok(v)
}

/// The items of an exact-size iterator, collected into a fallibly allocated vector.
pub(crate) fn try_collect<T: Element>(it: impl ExactSizeIterator<Item = T>) -> Result<Vec<T>, ShapeError> {
    let mut v = try_with_capacity(it.len())?;
    v.extend(it);
    Ok(v)
}
