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
/// order (PyTorch's `nonzero` as used by mask indexing).
pub(crate) fn mask_coords(mask: &[bool], l: &Layout) -> (usize, Vec<Vec<isize>>) {
    let sizes = l.sizes();
    let mut coords: Vec<Vec<isize>> = sizes.iter().map(|_| Vec::new()).collect();
    let mut idx = [0usize; crate::MAX_RANK];
    let mut count = 0;
    for p in 0..l.numel() {
        let mut q = p;
        for d in (0..sizes.len()).rev() {
            idx[d] = q % sizes[d];
            q /= sizes[d];
        }
        if mask[l.offset_of(&idx[..sizes.len()])] {
            count += 1;
            for (c, &i) in coords.iter_mut().zip(&idx[..sizes.len()]) {
                c.push(i as isize);
            }
        }
    }
    (count, coords)
}
