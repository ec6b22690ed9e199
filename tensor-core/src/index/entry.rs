//! The entry points `t!` expands to: the operand ([`TSource`]), the probe that carries a spec
//! to it, and the checked and loose slicing that returns a typed view.
use super::advanced::*;
use super::apply::*;
use super::checks::*;
use super::mono::*;
use super::rules::*;
use super::spec::*;
use crate::error::{OrPanic, ShapeError};
use crate::layout::Layout;
use crate::shape::*;
use crate::storage::{Data, DataMut};
use crate::tensor::{TensorBase, TensorViewMut};
use core::marker::PhantomData;

/// What `t!(x[...])` gives for a tensor of shape `S` under the rule set `M`.
type SliceOut<'a, T, S, Pre, Post, M> =
    <SpecKind<Pre, Post> as ResultKind>::Out<'a, T, <Spec<Pre, Post> as SliceShape<S, M>>::Out>;
/// What `t!(x[...])` gives under the [`Loose`] rules.
type LooseOut<'a, T, S, Pre, Post> = SliceOut<'a, T, S, Pre, Post, Loose>;
/// What `t!(mut x[...])` gives under the [`Loose`] rules.
type LooseOutMut<'a, T, S, Pre, Post> = SliceOutMut<'a, T, S, Pre, Post, Loose>;
/// What `t!(mut x[...])` gives.
type SliceOutMut<'a, T, S, Pre, Post, M> =
    <SpecKind<Pre, Post> as ResultKind>::OutMut<'a, T, <Spec<Pre, Post> as SliceShape<S, M>>::Out>;
pub(crate) type SpecKind<Pre, Post> = <(Pre, Post) as SpecKindOf>::Kind;

/// What `t!` indexes: its operand, taken by value when it is a view (so the result keeps the
/// view's lifetime) and borrowed otherwise (`t!` calls `t_source` through autoref). The probe
/// holds it and reads its layout in place (no copy on the hot path of view creation).
///
/// Tensors and views are [`TSourceView`]s and give views (or, with index tensors, copies).
/// Another operand (a tracked [`Var`](crate::autograd::Var)) implements [`TSliceChecked`] and
/// [`TSliceLooseOwned`] for its own probe and gives its own kind of result.
pub trait TSource<'a>: Sized {
    /// The element type.
    type Elem: crate::Element + 'a;
    /// The shape type.
    type Shape: Shape;
    /// The operand itself, as the probe holds it.
    #[inline(always)]
    fn t_source(self) -> Self {
        self
    }
}
/// A [`TSource`] that is a tensor or a view: `t!` slices its storage in place.
pub trait TSourceView<'a>: TSource<'a> {
    /// Its storage (for the lifetime of the original borrow) and its layout.
    fn t_parts(&self) -> (&'a [Self::Elem], &Layout);
}
impl<'a, D: Data, S: Shape> TSource<'a> for &'a TensorBase<D, S>
where
    D::Elem: 'a,
{
    type Elem = D::Elem;
    type Shape = S;
}
impl<'a, D: Data, S: Shape> TSourceView<'a> for &'a TensorBase<D, S>
where
    D::Elem: 'a,
{
    #[inline(always)]
    fn t_parts(&self) -> (&'a [D::Elem], &Layout) {
        let t: &'a TensorBase<D, S> = self;
        (t.data.as_slice(), t.layout())
    }
}
impl<'a, T: crate::Element, S: Shape> TSource<'a> for crate::TensorView<'a, T, S> {
    type Elem = T;
    type Shape = S;
}
impl<'a, T: crate::Element, S: Shape> TSourceView<'a> for crate::TensorView<'a, T, S> {
    #[inline(always)]
    fn t_parts(&self) -> (&'a [T], &Layout) {
        (self.data, self.layout())
    }
}
/// What `t!(mut ...)` and the assignment forms index: a mutable view of the operand (a mutable
/// view is moved, keeping its lifetime; anything else is borrowed mutably).
pub trait TSourceMut<'a> {
    /// The element type.
    type Elem: crate::Element;
    /// The shape type.
    type Shape: Shape;
    /// The mutable view.
    fn t_source_mut(self) -> TensorViewMut<'a, Self::Elem, Self::Shape>;
}
impl<'a, D: DataMut, S: Shape> TSourceMut<'a> for &'a mut TensorBase<D, S> {
    type Elem = D::Elem;
    type Shape = S;
    #[inline(always)]
    fn t_source_mut(self) -> TensorViewMut<'a, D::Elem, S> {
        self.as_view_mut()
    }
}
impl<'a, T: crate::Element, S: Shape> TSourceMut<'a> for TensorViewMut<'a, T, S> {
    type Elem = T;
    type Shape = S;
    #[inline(always)]
    fn t_source_mut(self) -> TensorViewMut<'a, T, S> {
        self
    }
}

/// A `t!` operand with its spec, on which the macro calls `t_slice`: through [`TSliceChecked`]
/// when the spec's literals and static dims are inside typenum's bridge (then every literal is
/// checked at compile time, as a bound of that method), through [`TSliceLoose`] (on `&Probe`,
/// reached by autoref only when the checked impl does not apply) otherwise. See [`Checked`] and
/// [`Loose`].
pub struct Probe<'a, X, T, S: Shape, Pre, Post> {
    src: X,
    spec: Spec<Pre, Post>,
    _source: PhantomData<(&'a [T], S)>,
}
impl<'a, X, T, S: Shape, Pre, Post> Probe<'a, X, T, S, Pre, Post> {
    /// The operand and the spec (for the impls of operands other than views).
    #[inline(always)]
    pub(crate) fn parts(&self) -> (&X, &Spec<Pre, Post>) {
        (&self.src, &self.spec)
    }
}
/// The probe of `t!(x[...])` (called by the macro).
#[inline(always)]
pub fn probe<'a, X: TSource<'a>, Pre, Post>(x: X, spec: Spec<Pre, Post>) -> Probe<'a, X, X::Elem, X::Shape, Pre, Post> {
    Probe { src: x, spec, _source: PhantomData }
}
/// The mutable form of [`Probe`] (`t!(mut ...)` and the assignment forms).
pub struct ProbeMut<'a, T, S: Shape, Pre, Post> {
    data: &'a mut [T],
    layout: Layout,
    spec: Spec<Pre, Post>,
    _shape: PhantomData<S>,
}
/// The probe of `t!(mut x[...])` and `t!(x[...] = v)` (called by the macro).
#[inline(always)]
pub fn probe_mut<'a, X: TSourceMut<'a>, Pre, Post>(
    x: X,
    spec: Spec<Pre, Post>,
) -> ProbeMut<'a, X::Elem, X::Shape, Pre, Post> {
    let v = x.t_source_mut();
    let layout = *v.layout();
    ProbeMut { data: v.data, layout, spec, _shape: PhantomData }
}

/// Applies a spec to a probe's view: a view for basic indices, a copy for index tensors.
#[inline(always)]
fn slice_spec<'a, T: crate::Element, S2: Shape, Pre: RtOps, Post: RtOps>(
    data: &'a [T],
    layout: &Layout,
    spec: &Spec<Pre, Post>,
) -> Result<<SpecKind<Pre, Post> as ResultKind>::Out<'a, T, S2>, ShapeError>
where
    (Pre, Post): SpecKindOf,
{
    let (l, adv) = apply_spec_advanced::<Pre, Post, <SpecKind<Pre, Post> as ResultKind>::Sink>(layout, spec)?;
    <SpecKind<Pre, Post> as ResultKind>::make(data, l, adv)
}
/// [`slice_spec`] for a mutable target: a mutable view, or the pending write of index tensors.
#[inline(always)]
fn slice_spec_mut<'a, T: crate::Element, S2: Shape, Pre: RtOps, Post: RtOps>(
    data: &'a mut [T],
    layout: &Layout,
    spec: &Spec<Pre, Post>,
) -> Result<<SpecKind<Pre, Post> as ResultKind>::OutMut<'a, T, S2>, ShapeError>
where
    (Pre, Post): SpecKindOf,
{
    let (l, adv) = apply_spec_advanced::<Pre, Post, <SpecKind<Pre, Post> as ResultKind>::Sink>(layout, spec)?;
    Ok(<SpecKind<Pre, Post> as ResultKind>::make_mut(data, l, adv))
}

/// `t!(x[...])` under the [`Checked`] rules: the result shape computed with compile-time size
/// arithmetic, every literal checked by the `Checks: AllInBounds` bound of the method (a compile
/// error naming the literal, the size and the shape). Indices are checked at run time as well.
pub trait TSliceChecked {
    /// The resulting view or tensor.
    type Output;
    /// The spec's recorded checks.
    type Checks;
    /// Applies the spec, panicking on a runtime index error.
    #[track_caller]
    fn t_slice(&self) -> Self::Output
    where
        Self::Checks: AllInBounds;
    /// Applies the spec (`t!(try x[...])`).
    ///
    /// # Errors
    /// Any runtime index or range error, as [`apply_spec`].
    fn t_try_slice(&self) -> Result<Self::Output, ShapeError>
    where
        Self::Checks: AllInBounds;
}
impl<'a, X: TSourceView<'a, Elem = T, Shape = S>, T: crate::Element, S: Shape, Pre: RtOps, Post: RtOps> TSliceChecked
    for Probe<'a, X, T, S, Pre, Post>
where
    Spec<Pre, Post>: SliceShape<S, Checked>,
    (Pre, Post): SpecKindOf,
{
    type Output = SliceOut<'a, T, S, Pre, Post, Checked>;
    type Checks = <Spec<Pre, Post> as SliceShape<S, Checked>>::Checks;
    #[inline(always)]
    #[track_caller]
    fn t_slice(&self) -> Self::Output
    where
        Self::Checks: AllInBounds,
    {
        self.t_try_slice().or_panic()
    }
    #[inline(always)]
    fn t_try_slice(&self) -> Result<Self::Output, ShapeError>
    where
        Self::Checks: AllInBounds,
    {
        let (data, layout) = self.src.t_parts();
        slice_spec(data, layout, &self.spec)
    }
}
/// `t!(x[...])` under the [`Loose`] rules (generic sizes, or sizes outside typenum's bridge):
/// checked at run time, and literals on static dims outside the bridge also when the program is
/// built ([`LooseCheck`]). Implemented for every probe, with the shape rule as a bound of the
/// method, so a spec that fits no rule (too many indices, index tensors that do not broadcast) is
/// an error naming that rule.
pub trait TSliceLoose<'a, T: crate::Element, S: Shape, Pre, Post> {
    /// Applies the spec, panicking on a runtime index error.
    #[track_caller]
    #[rustfmt::skip] // one line: the bound is what an error shows
    fn t_slice(&self) -> LooseOut<'a, T, S, Pre, Post> where Spec<Pre, Post>: SliceShape<S, Loose>, Pre: LooseOps, Post: LooseOps, (Pre, Post): SpecKindOf;
    /// Applies the spec (`t!(try x[...])`).
    ///
    /// # Errors
    /// Any runtime index or range error, as [`apply_spec`].
    #[rustfmt::skip]
    fn t_try_slice(&self) -> Result<LooseOut<'a, T, S, Pre, Post>, ShapeError> where Spec<Pre, Post>: SliceShape<S, Loose>, Pre: LooseOps, Post: LooseOps, (Pre, Post): SpecKindOf;
}
impl<'a, X: TSourceView<'a, Elem = T, Shape = S>, T: crate::Element, S: Shape, Pre, Post>
    TSliceLoose<'a, T, S, Pre, Post> for &Probe<'a, X, T, S, Pre, Post>
{
    #[inline(always)]
    #[track_caller]
    fn t_slice(&self) -> LooseOut<'a, T, S, Pre, Post>
    where
        Spec<Pre, Post>: SliceShape<S, Loose>,
        Pre: LooseOps,
        Post: LooseOps,
        (Pre, Post): SpecKindOf,
    {
        // Evaluated here, in the function the user's `t!` instantiates, so that a failure names
        // that call.
        let () = <(S, Pre, Post) as LooseCheck>::OK;
        let (data, layout) = self.src.t_parts();
        slice_spec(data, layout, &self.spec).or_panic()
    }
    #[inline(always)]
    fn t_try_slice(&self) -> Result<LooseOut<'a, T, S, Pre, Post>, ShapeError>
    where
        Spec<Pre, Post>: SliceShape<S, Loose>,
        Pre: LooseOps,
        Post: LooseOps,
        (Pre, Post): SpecKindOf,
    {
        let () = <(S, Pre, Post) as LooseCheck>::OK;
        let (data, layout) = self.src.t_parts();
        slice_spec(data, layout, &self.spec)
    }
}

/// `t!(x[...])` under the [`Loose`] rules for an operand that is not a view (a tracked
/// [`Var`](crate::autograd::Var)): the rules and checks of [`TSliceLoose`], with the operand's
/// own kind of result, [`Out`](Self::Out) of the result shape.
pub trait TSliceLooseOwned<S: Shape, Pre, Post> {
    /// The result for a result shape `S2`.
    type Out<S2: Shape>;
    /// Applies the spec, panicking on a runtime index error.
    #[track_caller]
    #[rustfmt::skip] // one line: the bound is what an error shows
    fn t_slice(&self) -> Self::Out<<Spec<Pre, Post> as SliceShape<S, Loose>>::Out> where Spec<Pre, Post>: SliceShape<S, Loose>, Pre: LooseOps, Post: LooseOps, (Pre, Post): SpecKindOf;
    /// Applies the spec (`t!(try x[...])`).
    ///
    /// # Errors
    /// Any runtime index or range error, as [`apply_spec`].
    #[rustfmt::skip]
    fn t_try_slice(&self) -> Result<Self::Out<<Spec<Pre, Post> as SliceShape<S, Loose>>::Out>, ShapeError> where Spec<Pre, Post>: SliceShape<S, Loose>, Pre: LooseOps, Post: LooseOps, (Pre, Post): SpecKindOf;
}

/// The run-time requirements of an op list on the [`Loose`] path, as one bound: ops that apply at
/// run time and describe themselves for the build-time check.
pub trait LooseOps: RtOps + DescList {}
impl<L: RtOps + DescList> LooseOps for L {}

/// `t!(mut x[...])` and the target of `t!(x[...] = v)` under the [`Checked`] rules (see
/// [`TSliceChecked`]).
pub trait TSliceMutChecked {
    /// The resulting mutable view or pending write.
    type Output;
    /// The spec's recorded checks.
    type Checks;
    /// Applies the spec, panicking on a runtime index error.
    #[track_caller]
    fn t_slice_mut(&mut self) -> Self::Output
    where
        Self::Checks: AllInBounds;
    /// Applies the spec (`t!(try mut x[...])`, `t!(try x[...] = v)`).
    ///
    /// # Errors
    /// Any runtime index or range error, as [`apply_spec`].
    fn t_try_slice_mut(&mut self) -> Result<Self::Output, ShapeError>
    where
        Self::Checks: AllInBounds;
}
impl<'a, T: crate::Element, S: Shape, Pre: RtOps, Post: RtOps> TSliceMutChecked for ProbeMut<'a, T, S, Pre, Post>
where
    Spec<Pre, Post>: SliceShape<S, Checked>,
    (Pre, Post): SpecKindOf,
{
    type Output = SliceOutMut<'a, T, S, Pre, Post, Checked>;
    type Checks = <Spec<Pre, Post> as SliceShape<S, Checked>>::Checks;
    #[inline(always)]
    #[track_caller]
    fn t_slice_mut(&mut self) -> Self::Output
    where
        Self::Checks: AllInBounds,
    {
        self.t_try_slice_mut().or_panic()
    }
    #[inline(always)]
    fn t_try_slice_mut(&mut self) -> Result<Self::Output, ShapeError>
    where
        Self::Checks: AllInBounds,
    {
        // The probe is used once: its borrow moves into the result.
        slice_spec_mut(core::mem::take(&mut self.data), &self.layout, &self.spec)
    }
}
/// The [`Loose`] form of [`TSliceMutChecked`] (see [`TSliceLoose`]).
pub trait TSliceMutLoose<'a, T: crate::Element, S: Shape, Pre, Post> {
    /// Applies the spec, panicking on a runtime index error.
    #[track_caller]
    #[rustfmt::skip] // one line: the bound is what an error shows
    fn t_slice_mut(&mut self) -> LooseOutMut<'a, T, S, Pre, Post> where Spec<Pre, Post>: SliceShape<S, Loose>, Pre: LooseOps, Post: LooseOps, (Pre, Post): SpecKindOf;
    /// Applies the spec.
    ///
    /// # Errors
    /// Any runtime index or range error, as [`apply_spec`].
    #[rustfmt::skip]
    fn t_try_slice_mut(&mut self) -> Result<LooseOutMut<'a, T, S, Pre, Post>, ShapeError> where Spec<Pre, Post>: SliceShape<S, Loose>, Pre: LooseOps, Post: LooseOps, (Pre, Post): SpecKindOf;
}
impl<'a, T: crate::Element, S: Shape, Pre, Post> TSliceMutLoose<'a, T, S, Pre, Post>
    for &mut ProbeMut<'a, T, S, Pre, Post>
{
    #[inline(always)]
    #[track_caller]
    fn t_slice_mut(&mut self) -> LooseOutMut<'a, T, S, Pre, Post>
    where
        Spec<Pre, Post>: SliceShape<S, Loose>,
        Pre: LooseOps,
        Post: LooseOps,
        (Pre, Post): SpecKindOf,
    {
        let () = <(S, Pre, Post) as LooseCheck>::OK;
        slice_spec_mut(core::mem::take(&mut self.data), &self.layout, &self.spec).or_panic()
    }
    #[inline(always)]
    fn t_try_slice_mut(&mut self) -> Result<LooseOutMut<'a, T, S, Pre, Post>, ShapeError>
    where
        Spec<Pre, Post>: SliceShape<S, Loose>,
        Pre: LooseOps,
        Post: LooseOps,
        (Pre, Post): SpecKindOf,
    {
        let () = <(S, Pre, Post) as LooseCheck>::OK;
        slice_spec_mut(core::mem::take(&mut self.data), &self.layout, &self.spec)
    }
}
