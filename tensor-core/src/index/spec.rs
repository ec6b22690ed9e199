//! The vocabulary of `t!` specs: one type per index kind (`..`, a literal index, a range with
//! literal or runtime bounds, `None`), and [`Spec`], the ops before and after an ellipsis.

/// `..`: the whole dim.
#[derive(Clone, Copy, Debug, Default)]
pub struct Full;
/// A literal index `I` (drops the dim).
#[derive(Clone, Copy, Debug, Default)]
pub struct At<const I: usize>;
/// A literal index `-K` (drops the dim; `-1` is the last element).
#[derive(Clone, Copy, Debug, Default)]
pub struct AtNeg<const K: usize>;
/// A runtime index (negative counts from the end; drops the dim).
#[derive(Clone, Copy, Debug)]
pub struct AtDyn(pub i128);
/// Literal `S..E;STEP` (`REV`: negative step). `LEN` is computed by the macro, which also sets
/// `ONE` when `LEN == 1` so that the result dim is the broadcastable [`One`](crate::One).
#[derive(Clone, Copy, Debug, Default)]
pub struct Range<const S: usize, const E: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool>;
/// Literal `S..;STEP` (and `..;STEP`): the length `ceil((N - S) / STEP)` is computed with typenum.
#[derive(Clone, Copy, Debug, Default)]
pub struct RangeFrom<const S: usize, const STEP: usize, const REV: bool>;
/// Literal `-KS..-KE;STEP` (`KE = 0`: open end), counted from the end of the dim.
#[derive(Clone, Copy, Debug, Default)]
pub struct RangeNeg<
    const KS: usize,
    const KE: usize,
    const STEP: usize,
    const LEN: usize,
    const REV: bool,
    const ONE: bool,
>;
/// A range with a runtime part (gives a `Dyn` dim).
#[derive(Clone, Copy, Debug)]
pub struct RangeDyn {
    /// Start (`None`: open; negative counts from the end), as given.
    pub start: Option<i128>,
    /// End, exclusive (`None`: open; negative counts from the end), as given.
    pub end: Option<i128>,
    /// Non-zero step; negative walks the range backwards.
    pub step: isize,
}
/// `None`: a new size-1 dim.
#[derive(Clone, Copy, Debug, Default)]
pub struct NewAxis;

/// What `t!` produces: the ops before `...` and the (reversed) ops after it.
#[derive(Clone, Copy, Debug)]
pub struct Spec<Pre, Post> {
    /// Ops applied from the front.
    pub pre: Pre,
    /// Ops applied from the back (reversed).
    pub post: Post,
}

pub use crate::element::{IndexElem, ToIndex};

/// The exclusive end of an inclusive runtime range `..=e` (`..=-1` runs to the end).
#[inline(always)]
pub fn inclusive_end(e: i128) -> Option<i128> {
    if e == -1 {
        None
    } else {
        Some(e.saturating_add(1))
    }
}
