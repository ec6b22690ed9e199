//! Element offsets of advanced (index-tensor) indexing.
use super::{broadcast_sizes, index_offset, Layout};
use crate::error::ShapeError;
use crate::limits::MAX_RANK;
use alloc::vec::Vec;

/// An advanced (tensor) index over `k` consecutive dims of a view: `index[j]` holds the
/// coordinates along dim `pos + j` (negative counts from the end), laid out row-major over
/// `sizes`. An integer index tensor has `k = 1`; a bool mask of rank `k` becomes `k` coordinate
/// lists of its true elements (PyTorch converts masks the same way, with `nonzero`).
#[derive(Clone, Debug, Default)]
pub struct AdvIndex {
    /// Position of the first indexed dim in the view.
    pub(crate) pos: usize,
    /// The source tensor's dim that the first indexed dim came from (for error messages).
    pub(crate) axis: usize,
    /// The shape of the index.
    pub(crate) sizes: Vec<usize>,
    /// One coordinate list per indexed dim.
    pub(crate) index: Vec<Vec<isize>>,
}

fn ravel_broadcast(coord: &[usize], sizes: &[usize]) -> usize {
    let lead = coord.len() - sizes.len();
    coord[lead..].iter().zip(sizes).fold(0, |acc, (&c, &n)| acc * n + if n == 1 { 0 } else { c })
}

/// Advanced indexing (PyTorch/NumPy rules): the index tensors broadcast together to a shape `B`;
/// when they index adjacent dims of `v`, `B` replaces those dims in place, otherwise `B` comes
/// first. Returns the result sizes and, for each result element in row-major order, its offset in
/// `v`'s buffer. `adv` must be sorted by position.
///
/// # Errors
/// [`ShapeError::Mismatch`] when the index shapes do not broadcast; [`ShapeError::Index`] for an
/// index out of bounds; [`ShapeError::RankTooLarge`]/[`ShapeError::Overflow`] for the result.
pub(crate) fn advanced_offsets(v: &Layout, adv: &[AdvIndex]) -> Result<(Vec<usize>, Vec<usize>), ShapeError> {
    let mut b: Vec<usize> = Vec::new();
    for a in adv {
        let (s, r) = broadcast_sizes(&b, &a.sizes).map_err(|_| ShapeError::Mismatch {
            op: "advanced indexing",
            what: "are index shapes that do not broadcast together".into(),
            lhs: b.clone(),
            rhs: a.sizes.clone(),
        })?;
        b = s[..r].to_vec();
    }
    let adjacent = adv.windows(2).all(|w| w[1].pos == w[0].pos + w[0].index.len());
    let mut is_adv = [false; MAX_RANK];
    for a in adv {
        for j in 0..a.index.len() {
            is_adv[a.pos + j] = true;
        }
    }
    let basic: Vec<usize> = (0..v.rank).filter(|&d| !is_adv[d]).collect();
    let b_start = if adjacent { adv.first().map_or(0, |a| a.pos) } else { 0 };
    let mut out: Vec<usize> = basic.iter().map(|&d| v.sizes[d]).collect();
    let insert_at = basic.iter().take_while(|&&d| d < b_start).count();
    let b_start = if adjacent { insert_at } else { 0 };
    for (k, &n) in b.iter().enumerate() {
        out.insert(b_start + k, n);
    }
    let out_layout = Layout::contiguous(&out)?;
    let numel = out_layout.numel();
    let mut offsets = crate::memory::try_with_capacity(numel)?;
    let mut coord = alloc::vec![0usize; out.len()];
    for p in 0..numel {
        let mut q = p;
        for d in (0..out.len()).rev() {
            coord[d] = q % out[d];
            q /= out[d];
        }
        let mut off = v.offset as isize;
        let (bc, rest_before, rest_after) =
            (&coord[b_start..b_start + b.len()], &coord[..b_start], &coord[b_start + b.len()..]);
        for (&c, &d) in rest_before.iter().chain(rest_after).zip(&basic) {
            off += c as isize * v.strides[d];
        }
        for a in adv {
            let ia = ravel_broadcast(bc, &a.sizes);
            for (j, idx) in a.index.iter().enumerate() {
                let d = a.pos + j;
                off += index_offset(idx[ia], v.sizes[d], v.strides[d], a.axis + j)?;
            }
        }
        offsets.push(off as usize);
    }
    Ok((out, offsets))
}
