//! Concatenation: copies each input into its sub-range of a new row-major buffer (what `cat` and
//! `stack` run). Shape-erased: inputs are slices with [`Layout`]s.
use crate::error::ShapeError;
use crate::layout::{walk, Layout};
use crate::storage::Element;
use alloc::vec::Vec;

/// The inputs concatenated along `axis` into a new row-major buffer with `out`'s sizes. Each input
/// has `out`'s sizes except along `axis`, where they add up to `out`'s (the caller checked it).
///
/// Contiguous inputs are copied block by block (one block per input and index of the leading
/// dims); otherwise each input is walked into its narrowed view of the output.
pub(crate) fn cat<T: Element>(inputs: &[(&[T], Layout)], axis: usize, out: &Layout) -> Result<Vec<T>, ShapeError> {
    let n = out.numel();
    if n == 0 {
        return Ok(Vec::new());
    }
    if inputs.iter().all(|(_, l)| l.is_contiguous()) {
        let outer: usize = out.sizes()[..axis].iter().product();
        let mut v = super::try_with_capacity(n)?;
        for o in 0..outer {
            for (src, l) in inputs {
                let block = l.numel() / outer;
                if block > 0 {
                    let start = l.offset() + o * block;
                    v.extend_from_slice(&src[start..start + block]);
                }
            }
        }
        return Ok(v);
    }
    let mut v = super::try_vec(n, T::ZERO)?;
    let mut start = 0;
    for (src, l) in inputs {
        let len = l.sizes()[axis];
        let dst = out.narrow(axis, start as isize, len)?;
        walk(l.sizes(), [&dst, l], |[o, i]| v[o] = src[i]);
        start += len;
    }
    Ok(v)
}
