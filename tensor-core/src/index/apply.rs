//! Applying a spec to a [`Layout`] at run time: each op takes its input dims from the front or
//! the back and pushes its output dims ([`RtOp`]); index tensors met on the way are collected
//! ([`AdvSink`]).
use super::adv_rules::KindOr;
use super::spec::*;
use crate::error::ShapeError;
use crate::layout::{index_offset, range_bounds, range_dim, AdvIndex, Layout};
use crate::shape::*;
use alloc::vec::Vec;
use typenum::B0;

// ------------------------------------------------------------------------------------ runtime
/// The dims a spec produces on one side.
#[derive(Clone, Copy, Debug)]
pub struct DimBuf {
    pub(super) len: usize,
    pub(super) sizes: [usize; MAX_RANK],
    pub(super) strides: [isize; MAX_RANK],
}
impl DimBuf {
    #[inline(always)]
    pub(super) fn new() -> Self {
        DimBuf { len: 0, sizes: [1; MAX_RANK], strides: [0; MAX_RANK] }
    }
    #[inline(always)]
    pub(super) fn push(&mut self, n: usize, s: isize) -> Result<(), ShapeError> {
        if self.len == MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: MAX_RANK + 1 });
        }
        self.sizes[self.len] = n;
        self.strides[self.len] = s;
        self.len += 1;
        Ok(())
    }
}

/// One input dim handed to an op: its size, stride, static size (if the type has one; literal
/// ops on static dims were checked at compile time) and position.
#[derive(Clone, Copy, Debug)]
pub struct DimIn {
    pub(super) size: usize,
    pub(super) stride: isize,
    pub(super) axis: usize,
}

/// Runtime behaviour of one op: it takes its input dims from the context (front or back) and
/// pushes its output dims.
pub trait RtOp {
    /// `B1` for an index tensor, `B0` for a basic index (see [`RtOps::Kind`]).
    type Kind;
    /// The number of input dims the op consumes: one for an index or range (the default), 0 for
    /// `None`, the mask's rank for a bool mask.
    #[inline(always)]
    fn consumes(&self) -> usize {
        1
    }
    /// Applies the op.
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError>;
}

/// Where the advanced indices met while applying a spec go: nowhere for basic specs (`()`, so
/// the hot path of view creation carries no vectors), an [`AdvList`] for specs with index tensors.
pub trait AdvSink: Default {
    /// Records an advanced index of the front (`true`) or back side.
    fn push(&mut self, front: bool, adv: AdvIndex);
    /// The advanced indices in view order, given the final numbers of dims per part.
    fn finish(self, rank: usize) -> Vec<AdvIndex>;
}
impl AdvSink for () {
    #[inline(always)]
    fn push(&mut self, _: bool, _: AdvIndex) {
        unreachable!("a spec typed as basic holds no index tensor")
    }
    #[inline(always)]
    fn finish(self, _: usize) -> Vec<AdvIndex> {
        Vec::new()
    }
}
/// The advanced indices of a spec with index tensors, per side.
#[derive(Default)]
pub struct AdvList {
    pre: Vec<AdvIndex>,
    post: Vec<AdvIndex>,
}
impl AdvSink for AdvList {
    fn push(&mut self, front: bool, adv: AdvIndex) {
        if front { &mut self.pre } else { &mut self.post }.push(adv);
    }
    fn finish(mut self, rank: usize) -> Vec<AdvIndex> {
        // The back side was built reversed: positions count from the end.
        for mut a in self.post {
            a.pos = rank - (a.pos + a.index.len());
            self.pre.push(a);
        }
        self.pre.sort_by_key(|a| a.pos);
        self.pre
    }
}

/// The state of applying a spec to a layout.
pub struct SliceCx<'l, A = ()> {
    pub(super) l: &'l Layout,
    pub(super) front: usize,
    pub(super) back: usize,
    pub(super) given: usize,
    pub(super) off: isize,
    pub(super) pre: DimBuf,
    pub(super) post: DimBuf,
    pub(super) adv: A,
}
impl<A: AdvSink> SliceCx<'_, A> {
    /// Takes the next `k` input dims from the front or the back; returns the first one's position.
    #[inline(always)]
    pub(super) fn take<const FRONT: bool>(&mut self, k: usize) -> Result<usize, ShapeError> {
        if self.back - self.front < k {
            return Err(too_many(self));
        }
        Ok(if FRONT {
            self.front += k;
            self.front - k
        } else {
            self.back -= k;
            self.back
        })
    }
    #[inline(always)]
    pub(super) fn dim(&self, i: usize) -> DimIn {
        DimIn { size: self.l.sizes()[i], stride: self.l.strides()[i], axis: i }
    }
    /// Takes one input dim.
    #[inline(always)]
    pub(super) fn take_one<const FRONT: bool>(&mut self) -> Result<DimIn, ShapeError> {
        let i = self.take::<FRONT>(1)?;
        Ok(self.dim(i))
    }
    #[inline(always)]
    pub(super) fn out<const FRONT: bool>(&mut self) -> &mut DimBuf {
        if FRONT {
            &mut self.pre
        } else {
            &mut self.post
        }
    }
    /// Keeps input dims `first..first + k` as they are and records an advanced index over them.
    pub(super) fn push_advanced<const FRONT: bool>(
        &mut self,
        first: usize,
        mut adv: AdvIndex,
    ) -> Result<(), ShapeError> {
        let k = adv.index.len();
        let l = self.l;
        let buf = self.out::<FRONT>();
        adv.pos = buf.len;
        // The back side is built in reverse and flipped at the end.
        for j in 0..k {
            let i = if FRONT { first + j } else { first + k - 1 - j };
            buf.push(l.sizes()[i], l.strides()[i])?;
        }
        adv.axis = first;
        self.adv.push(FRONT, adv);
        Ok(())
    }
}

impl RtOp for Full {
    type Kind = B0;
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        let d = cx.take_one::<FRONT>()?;
        cx.out::<FRONT>().push(d.size, d.stride)
    }
}
/// Takes one input dim and moves the offset to index `i` of it (negative counts from the end),
/// checked against its size.
#[inline(always)]
fn push_index<const FRONT: bool, A: AdvSink>(cx: &mut SliceCx<A>, i: isize) -> Result<(), ShapeError> {
    let d = cx.take_one::<FRONT>()?;
    cx.off += index_offset(i, d.size, d.stride, d.axis)?;
    Ok(())
}
impl<const I: usize> RtOp for At<I> {
    type Kind = B0;
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        // Checked here too: a literal on a generic or out-of-bridge dim is only checked at run
        // time (the macro refuses literals beyond isize, so the cast is exact).
        push_index::<FRONT, A>(cx, I as isize)
    }
}
impl<const K: usize> RtOp for AtNeg<K> {
    type Kind = B0;
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        push_index::<FRONT, A>(cx, -(K as isize))
    }
}
impl RtOp for AtDyn {
    type Kind = B0;
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        match isize::try_from(self.0) {
            Ok(i) => push_index::<FRONT, A>(cx, i),
            // An index beyond isize is outside every dim: name it as given.
            Err(_) => {
                let d = cx.take_one::<FRONT>()?;
                Err(ShapeError::Index { index: self.0, axis: d.axis, size: d.size })
            }
        }
    }
}
#[inline(always)]
fn step_of(step: usize, rev: bool) -> isize {
    if rev {
        -(step as isize)
    } else {
        step as isize
    }
}
#[inline(always)]
fn push_range<const FRONT: bool, A: AdvSink>(
    cx: &mut SliceCx<A>,
    start: Option<isize>,
    end: Option<isize>,
    step: isize,
) -> Result<(), ShapeError> {
    let d = cx.take_one::<FRONT>()?;
    if step == 0 {
        return Err(ShapeError::ZeroStep { axis: d.axis });
    }
    let (s, e) = range_bounds(start, end, d.size, d.axis)?;
    let (o, len, stride) = range_dim(s, e, step, d.stride);
    cx.off += o;
    cx.out::<FRONT>().push(len, stride)
}
impl<const S: usize, const E: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool> RtOp
    for Range<S, E, STEP, LEN, REV, ONE>
{
    type Kind = B0;
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        push_range::<FRONT, A>(cx, Some(S as isize), Some(E as isize), step_of(STEP, REV))
    }
}
impl<const S: usize, const STEP: usize, const REV: bool> RtOp for RangeFrom<S, STEP, REV> {
    type Kind = B0;
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        push_range::<FRONT, A>(cx, Some(S as isize), None, step_of(STEP, REV))
    }
}
impl<const KS: usize, const KE: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool> RtOp
    for RangeNeg<KS, KE, STEP, LEN, REV, ONE>
{
    type Kind = B0;
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        let end = if KE == 0 { None } else { Some(-(KE as isize)) };
        push_range::<FRONT, A>(cx, Some(-(KS as isize)), end, step_of(STEP, REV))
    }
}
impl RtOp for RangeDyn {
    type Kind = B0;
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        let fit = |b: Option<i128>| b.map(isize::try_from).transpose();
        match (fit(self.start), fit(self.end)) {
            (Ok(start), Ok(end)) => push_range::<FRONT, A>(cx, start, end, self.step),
            // A bound beyond isize is outside every dim: name it as given.
            _ => {
                let d = cx.take_one::<FRONT>()?;
                let n = d.size as i128;
                Err(ShapeError::Range {
                    start: self.start.unwrap_or(0),
                    end: self.end.unwrap_or(n),
                    axis: d.axis,
                    size: d.size,
                })
            }
        }
    }
}
impl RtOp for NewAxis {
    type Kind = B0;
    #[inline(always)]
    fn consumes(&self) -> usize {
        0
    }
    #[inline(always)]
    fn apply<const FRONT: bool, A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        cx.out::<FRONT>().push(1, 0)
    }
}

/// A list of ops at run time.
pub trait RtOps {
    /// Whether the list holds an index tensor (`B1`) or only basic indices (`B0`): what `t!`
    /// gives (a view or a copy) and whether its rules place index dims.
    type Kind;
    /// The number of input dims the list consumes.
    fn count(&self) -> usize;
    /// Applies the list from the front.
    fn apply_front<A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError>;
    /// Applies the list from the back.
    fn apply_back<A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError>;
}
impl RtOps for Nil {
    type Kind = B0;
    #[inline(always)]
    fn count(&self) -> usize {
        0
    }
    #[inline(always)]
    fn apply_front<A: AdvSink>(&self, _: &mut SliceCx<A>) -> Result<(), ShapeError> {
        Ok(())
    }
    #[inline(always)]
    fn apply_back<A: AdvSink>(&self, _: &mut SliceCx<A>) -> Result<(), ShapeError> {
        Ok(())
    }
}
#[cold]
#[inline(never)]
fn too_many<A: AdvSink>(cx: &SliceCx<A>) -> ShapeError {
    ShapeError::TooManyIndices { given: cx.given, rank: cx.l.rank() }
}
impl<O: RtOp, R: RtOps> RtOps for Cons<O, R>
where
    (O::Kind, R::Kind): KindOr,
{
    type Kind = <(O::Kind, R::Kind) as KindOr>::Out;
    #[inline(always)]
    fn count(&self) -> usize {
        self.0.consumes() + self.1.count()
    }
    #[inline(always)]
    fn apply_front<A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        self.0.apply::<true, A>(cx)?;
        self.1.apply_front(cx)
    }
    #[inline(always)]
    fn apply_back<A: AdvSink>(&self, cx: &mut SliceCx<A>) -> Result<(), ShapeError> {
        self.0.apply::<false, A>(cx)?;
        self.1.apply_back(cx)
    }
}

/// Applies a spec to a layout (shared by the static and dynamic front ends), checking every index
/// and bound at run time. Advanced (tensor) indices keep their dims in the returned layout and
/// are returned beside it, with their positions in it.
///
/// # Errors
/// Any index or range error, [`ShapeError::TooManyIndices`], [`ShapeError::RankTooLarge`].
#[inline(always)]
pub fn apply_spec_advanced<Pre: RtOps, Post: RtOps, A: AdvSink>(
    l: &Layout,
    spec: &Spec<Pre, Post>,
) -> Result<(Layout, Vec<AdvIndex>), ShapeError> {
    let given = spec.pre.count() + spec.post.count();
    let mut cx = SliceCx {
        l,
        front: 0,
        back: l.rank(),
        given,
        off: l.offset() as isize,
        pre: DimBuf::new(),
        post: DimBuf::new(),
        adv: A::default(),
    };
    spec.pre.apply_front(&mut cx)?;
    spec.post.apply_back(&mut cx)?;
    let mid = cx.back - cx.front;
    let rank = cx.pre.len + mid + cx.post.len;
    if rank > MAX_RANK {
        return Err(ShapeError::RankTooLarge { rank });
    }
    let mut sizes = [1usize; MAX_RANK];
    let mut strides = [0isize; MAX_RANK];
    let mut k = 0;
    for i in 0..cx.pre.len {
        (sizes[k], strides[k]) = (cx.pre.sizes[i], cx.pre.strides[i]);
        k += 1;
    }
    for i in cx.front..cx.back {
        (sizes[k], strides[k]) = (l.sizes()[i], l.strides()[i]);
        k += 1;
    }
    for i in (0..cx.post.len).rev() {
        (sizes[k], strides[k]) = (cx.post.sizes[i], cx.post.strides[i]);
        k += 1;
    }
    // An empty result keeps the source's offset; nothing is ever read through it.
    let layout = Layout::from_arrays(sizes, strides, rank, cx.off, l.offset());
    Ok((layout, cx.adv.finish(rank)))
}

/// Applies a spec of basic indices (no index tensors) to a layout.
///
/// # Errors
/// As [`apply_spec_advanced`].
#[inline(always)]
pub fn apply_spec<Pre: RtOps, Post: RtOps>(l: &Layout, spec: &Spec<Pre, Post>) -> Result<Layout, ShapeError> {
    Ok(apply_spec_advanced::<Pre, Post, ()>(l, spec)?.0)
}
