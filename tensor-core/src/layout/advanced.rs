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

/// One loop dim of a [`GatherPlan`]: a stride of the source, or the dim whose offsets are the
/// plan's precomputed table (the broadcast index positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Coordinate `c` adds `c * stride`.
    Stride(isize),
    /// Coordinate `c` adds `table[c]`.
    Table,
}

/// The walk of a gather over its result in row-major order: the result's dims as loop dims, each
/// a stride of the source or the one dim read from a table of precomputed offsets, with the
/// trailing dims that are contiguous in the source merged into runs of [`run`](Self::run)
/// elements. [`for_each_start`](Self::for_each_start) yields each run's first offset without a
/// division: the loop dims advance as an odometer, and a row gather of `[1500, 64]` is 1500 runs
/// of 64 elements, each one `copy_from_slice`.
///
/// Every offset it yields is an element of the source layout the plan was built from (each
/// table entry is a checked [`index_offset`] sum), so a run `start..start + run` is inside the
/// buffer that layout fits.
#[derive(Clone, Debug)]
pub(crate) struct GatherPlan {
    base: isize,
    dims: Vec<(usize, Step)>,
    table: Vec<isize>,
    run: usize,
    numel: usize,
}

impl GatherPlan {
    /// The plan of `dims` (row-major order of the result) from `base`, with `table` the offsets of
    /// the [`Step::Table`] dim (at most one, of `table.len()` entries).
    ///
    /// # Errors
    /// [`ShapeError::Overflow`] when the element count does not fit `usize`.
    pub(crate) fn new(base: usize, mut dims: Vec<(usize, Step)>, table: Vec<isize>) -> Result<Self, ShapeError> {
        let numel = dims
            .iter()
            .try_fold(1usize, |n, &(d, _)| n.checked_mul(d))
            .ok_or_else(|| ShapeError::Overflow { sizes: dims.iter().map(|&(d, _)| d).collect() })?;
        // The trailing dims whose strides are those of a row-major block: one run.
        let mut run = 1usize;
        while let Some(&(n, step)) = dims.last() {
            match step {
                Step::Stride(s) if n == 1 || s == run as isize => {
                    run *= n;
                    dims.pop();
                }
                _ => break,
            }
        }
        if numel == 0 {
            run = 0;
        }
        // A layout's offset is within isize (invariant 3 of `Layout`).
        Ok(GatherPlan { base: base as isize, dims, table, run, numel })
    }
    /// The number of elements of each run (0 for an empty result).
    pub(crate) fn run(&self) -> usize {
        self.run
    }
    /// The result's element count.
    pub(crate) fn numel(&self) -> usize {
        self.numel
    }
    /// Calls `f` with the first offset of each run, in the result's row-major order.
    #[inline]
    pub(crate) fn for_each_start(&self, f: impl FnMut(usize)) {
        self.odometer(self.dims.len(), f);
    }
    /// Calls `f` once per line of the last loop dim (the run being 1 element), with the line's
    /// first offset and the dim as a [`GatherLine`], in the result's row-major order: the inner loop
    /// of a gather that reads element by element, without the odometer per element.
    #[inline]
    pub(crate) fn for_each_line(&self, mut f: impl FnMut(isize, GatherLine<'_>)) {
        let Some(&(n, step)) = self.dims.last() else {
            self.odometer(0, |o| f(o as isize, GatherLine::Stride(1, 0)));
            return;
        };
        let line = match step {
            Step::Stride(s) => GatherLine::Stride(n, s),
            Step::Table => GatherLine::Table(&self.table[..n]),
        };
        // The line's own offsets start at its first coordinate: the table's entry 0 is added per
        // element, so the odometer leaves it out.
        let t0 = if step == Step::Table { self.table[0] } else { 0 };
        self.odometer(self.dims.len() - 1, |o| f(o as isize - t0, line));
    }
    /// Calls `f` with the offset of each coordinate of the first `k` loop dims (the others at 0),
    /// in row-major order: an odometer, the last of the `k` dims fastest.
    #[inline]
    fn odometer(&self, k: usize, mut f: impl FnMut(usize)) {
        if self.numel == 0 {
            return;
        }
        let table0 = |step: Step| match step {
            Step::Stride(_) => 0,
            Step::Table => self.table[0],
        };
        let mut coord = [0usize; MAX_RANK];
        let mut off = self.base + self.dims.iter().map(|&(_, s)| table0(s)).sum::<isize>();
        loop {
            f(off as usize);
            let mut d = k;
            loop {
                if d == 0 {
                    return;
                }
                d -= 1;
                let (n, step) = self.dims[d];
                let c = coord[d];
                if c + 1 < n {
                    coord[d] = c + 1;
                    off += match step {
                        Step::Stride(s) => s,
                        Step::Table => self.table[c + 1] - self.table[c],
                    };
                    break;
                }
                coord[d] = 0;
                off -= match step {
                    Step::Stride(s) => s * c as isize,
                    Step::Table => self.table[c] - self.table[0],
                };
            }
        }
    }
}

/// The last loop dim of a [`GatherPlan`] as [`for_each_line`](GatherPlan::for_each_line) gives
/// it: `n` elements `stride` apart, or the offsets of a table (each added to the line's start).
#[derive(Clone, Copy, Debug)]
pub(crate) enum GatherLine<'a> {
    /// `(n, stride)`.
    Stride(usize, isize),
    /// The offsets.
    Table(&'a [isize]),
}

/// The coordinate `coord` of a broadcast shape read in an index of `sizes` (right-aligned,
/// size-1 dims repeat), raveled row-major.
fn ravel_broadcast(coord: &[usize], sizes: &[usize]) -> usize {
    let lead = coord.len() - sizes.len();
    coord[lead..].iter().zip(sizes).fold(0, |acc, (&c, &n)| acc * n + if n == 1 { 0 } else { c })
}

/// Advanced indexing (PyTorch/NumPy rules): the index tensors broadcast together to a shape `B`;
/// when they index adjacent dims of `v`, `B` replaces those dims in place, otherwise `B` comes
/// first. Returns the result's row-major layout and its [`GatherPlan`] over `v`'s buffer: the offsets of the
/// index positions are computed once each (an odometer over `B`, no division), the other dims
/// are strides. `adv` must be sorted by position.
///
/// # Errors
/// [`ShapeError::Mismatch`] when the index shapes do not broadcast; [`ShapeError::Index`] for an
/// index out of bounds (the first in `B`'s row-major order); [`ShapeError::RankTooLarge`]/
/// [`ShapeError::Overflow`] for the result.
pub(crate) fn advanced_plan(v: &Layout, adv: &[AdvIndex]) -> Result<(Layout, GatherPlan), ShapeError> {
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
    let insert_at = if adjacent { basic.iter().take_while(|&&d| d < b_start).count() } else { 0 };
    let mut out: Vec<usize> = basic.iter().map(|&d| v.sizes[d]).collect();
    for (k, &n) in b.iter().enumerate() {
        out.insert(insert_at + k, n);
    }
    let out_layout = Layout::contiguous(&out)?;
    // The offset of each position of `B` (row-major), summed over the index tensors.
    let nb =
        b.iter().try_fold(1usize, |n, &d| n.checked_mul(d)).ok_or_else(|| ShapeError::Overflow { sizes: b.clone() })?;
    let mut table = crate::memory::try_with_capacity(nb)?;
    let mut bc = alloc::vec![0usize; b.len()];
    for p in 0..nb {
        let mut off = 0isize;
        for a in adv {
            let ia = if a.sizes == b { p } else { ravel_broadcast(&bc, &a.sizes) };
            for (j, idx) in a.index.iter().enumerate() {
                let d = a.pos + j;
                off += index_offset(idx[ia], v.sizes[d], v.strides[d], a.axis + j)?;
            }
        }
        table.push(off);
        for d in (0..b.len()).rev() {
            bc[d] += 1;
            if bc[d] < b[d] {
                break;
            }
            bc[d] = 0;
        }
    }
    let mut dims: Vec<(usize, Step)> = basic.iter().map(|&d| (v.sizes[d], Step::Stride(v.strides[d]))).collect();
    dims.insert(insert_at, (nb, Step::Table));
    let plan = GatherPlan::new(v.offset, dims, table)?;
    Ok((out_layout, plan))
}
