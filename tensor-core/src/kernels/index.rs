//! Kernels of advanced indexing: gathering elements at computed offsets, and the coordinates of
//! the true elements of a bool mask.
use crate::layout::Layout;
use crate::storage::Element;
use alloc::vec::Vec;

/// The elements at `offsets`, in order (the offsets come from `layout::advanced_offsets`).
pub(crate) fn gather_offsets<T: Element>(data: &[T], offsets: &[usize]) -> Vec<T> {
    offsets.iter().map(|&o| data[o]).collect()
}

/// The number of true elements of a bool mask and, per dim, their coordinates in row-major
/// order (PyTorch's `nonzero` as used by mask indexing), from the `nonzero` kernel.
pub(crate) fn mask_coords(mask: &[bool], l: &Layout) -> (usize, Vec<Vec<isize>>) {
    let (flat, count) = super::nonzero(mask, l);
    let rank = l.rank();
    let coords = (0..rank).map(|d| (0..count).map(|k| flat[k * rank + d] as isize).collect()).collect();
    (count, coords)
}
