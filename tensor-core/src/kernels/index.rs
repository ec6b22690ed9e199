//! Kernels of advanced indexing: gathering and scattering elements at the offsets a
//! [`GatherPlan`] computes (a bool mask's coordinates are `gather.rs`'s `mask_coords`).
use crate::error::ShapeError;
use crate::layout::{GatherLine, GatherPlan};
use crate::storage::Element;
use alloc::vec::Vec;

/// The elements a [`GatherPlan`] walks, in order: one `extend_from_slice` per run (a whole row
/// of a row gather), so a gather of contiguous rows runs at memory speed.
pub(crate) fn gather_runs<T: Element>(data: &[T], plan: &GatherPlan) -> Result<Vec<T>, ShapeError> {
    let mut out = super::try_with_capacity(plan.numel())?;
    let run = plan.run();
    if run == 1 {
        // Element by element: the last dim's line in a tight loop.
        plan.for_each_line(|start, line| match line {
            GatherLine::Stride(n, s) => out.extend((0..n as isize).map(|k| data[(start + k * s) as usize])),
            GatherLine::Table(t) => out.extend(t.iter().map(|&d| data[(start + d) as usize])),
        });
    } else {
        plan.for_each_start(|o| out.extend_from_slice(&data[o..o + run]));
    }
    Ok(out)
}

/// `f(slot, value)` for each element a [`GatherPlan`] walks, in order, `value` the next item of
/// `values`: the write side of a gather (`index_put_`, compound indexed assignment). Stops when
/// `values` runs out.
pub(crate) fn scatter_runs<T: Element>(
    data: &mut [T],
    plan: &GatherPlan,
    values: impl IntoIterator<Item = T>,
    mut f: impl FnMut(&mut T, T),
) {
    let mut values = values.into_iter();
    let run = plan.run();
    plan.for_each_start(|o| {
        for (slot, v) in data[o..o + run].iter_mut().zip(values.by_ref()) {
            f(slot, v);
        }
    });
}
