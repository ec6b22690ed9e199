//! Kernels of advanced indexing: gathering elements at computed offsets, and the coordinates of
//! the true elements of a bool mask.
use crate::error::ShapeError;
use crate::layout::Layout;
use crate::storage::Element;
use alloc::vec::Vec;

/// The elements at `offsets`, in order (the offsets come from `layout::advanced_offsets`).
pub(crate) fn gather_offsets<T: Element>(data: &[T], offsets: &[usize]) -> Result<Vec<T>, ShapeError> {
    super::try_collect(offsets.iter().map(|&o| data[o]))
}

/// The number of true elements of a bool mask and, per dim, their coordinates in row-major
/// order (PyTorch's `nonzero` as used by mask indexing), from the `nonzero` kernel.
pub(crate) fn mask_coords(mask: &[bool], l: &Layout) -> Result<(usize, Vec<Vec<isize>>), ShapeError> {
    let (flat, count) = super::nonzero(mask, l)?;
    let rank = l.rank();
    let mut coords = super::try_with_capacity_uncached(rank)?;
    for d in 0..rank {
        coords.push(super::try_collect((0..count).map(|k| flat[k * rank + d] as isize))?);
    }
    Ok((count, coords))
}
