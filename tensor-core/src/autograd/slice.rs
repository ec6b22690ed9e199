//! `t!` on a tracked value: `t!(x[.., 1, 0..2;2])` of a [`Var`] is a [`Var`] of the shape the same
//! slice of a tensor has, with the same compile-time checks of literal bounds. Basic indices give
//! a view of the value, recorded as [`Var::view_with`] records one (its gradient is the output's,
//! scattered back through the same layout); index tensors give a gathered copy, whose gradient
//! adds each output's gradient to the element it read (repeated indices accumulate, as PyTorch's
//! `index_put_(accumulate=True)` backward of advanced indexing).
use super::ops::from_storage_grad;
use super::var::{back, Var};
use super::GradFloat;
use crate::error::{OrPanic, ShapeError};
use crate::index::{
    apply_spec_advanced, AdvList, AllInBounds, Checked, Loose, LooseCheck, LooseOps, Probe, RtOps, SliceShape, Spec,
    SpecKind, SpecKindOf, TSliceChecked, TSliceLooseOwned, TSource,
};
use crate::kernels::{gather_runs, scatter_runs};
use crate::layout::advanced_plan;
use crate::shape::Shape;
use crate::tensor::{Tensor, TensorBase};
use typenum::{B0, B1};

impl<'a, 't, T: GradFloat, S: Shape> TSource<'a> for &'a Var<'t, T, S> {
    type Elem = T;
    type Shape = S;
}

/// How `t!` records a slice of a [`Var`]: a view for basic indices (`B0`), a gather for index
/// tensors (`B1`). Implemented for both; not for use outside `t!`.
#[doc(hidden)]
pub trait VarSliceKind {
    /// The slice of `x` by `spec`, recorded.
    ///
    /// # Errors
    /// Any runtime index or range error.
    fn var_slice<'t, T: GradFloat, S: Shape, S2: Shape, Pre: RtOps, Post: RtOps>(
        x: &Var<'t, T, S>,
        spec: &Spec<Pre, Post>,
    ) -> Result<Var<'t, T, S2>, ShapeError>;
}
impl VarSliceKind for B0 {
    fn var_slice<'t, T: GradFloat, S: Shape, S2: Shape, Pre: RtOps, Post: RtOps>(
        x: &Var<'t, T, S>,
        spec: &Spec<Pre, Post>,
    ) -> Result<Var<'t, T, S2>, ShapeError> {
        let (l, _) = apply_spec_advanced::<Pre, Post, ()>(x.value().layout(), spec)?;
        x.record_view(l)
    }
}
impl VarSliceKind for B1 {
    fn var_slice<'t, T: GradFloat, S: Shape, S2: Shape, Pre: RtOps, Post: RtOps>(
        x: &Var<'t, T, S>,
        spec: &Spec<Pre, Post>,
    ) -> Result<Var<'t, T, S2>, ShapeError> {
        let v = x.value();
        let (l, adv) = apply_spec_advanced::<Pre, Post, AdvList>(v.layout(), spec)?;
        let (ol, plan) = advanced_plan(&l, &adv)?;
        let out: Tensor<T, S2> = TensorBase::try_from_parts(gather_runs(v.storage(), &plan)?, ol)?;
        let (xl, len) = (*v.layout(), v.storage().len());
        Var::<T, S>::record([x.node()], out, move |[i], _| {
            back(move |g: Tensor<T, S2>, s| {
                s.add_with(i, || {
                    let mut buf = alloc::vec![T::zero(); len];
                    // The plan's positions are inside the value's storage (`advanced_plan` checks
                    // every index against the view); `g` has the plan's element count.
                    scatter_runs(&mut buf, &plan, g.to_vec(), |slot, d| *slot += d);
                    from_storage_grad::<T, S>(buf, xl, len)
                })
            })
        })
    }
}

/// The slice of the [`Var`] in `probe` by its spec, recorded (both rule sets).
fn probe_slice<'a, 't, T: GradFloat, S: Shape, S2: Shape, Pre: RtOps, Post: RtOps>(
    probe: &Probe<'a, &'a Var<'t, T, S>, T, S, Pre, Post>,
) -> Result<Var<'t, T, S2>, ShapeError>
where
    (Pre, Post): SpecKindOf,
    SpecKind<Pre, Post>: VarSliceKind,
{
    let (x, spec) = probe.parts();
    <SpecKind<Pre, Post> as VarSliceKind>::var_slice(*x, spec)
}

/// `t!(x[...])` of a [`Var`] under the checked rules: the slice's shape as for a tensor, and every
/// literal checked against static dims at compile time, with the same error.
impl<'a, 't, T: GradFloat, S: Shape, Pre: RtOps, Post: RtOps> TSliceChecked
    for Probe<'a, &'a Var<'t, T, S>, T, S, Pre, Post>
where
    Spec<Pre, Post>: SliceShape<S, Checked>,
    (Pre, Post): SpecKindOf,
    SpecKind<Pre, Post>: VarSliceKind,
{
    type Output = Var<'t, T, <Spec<Pre, Post> as SliceShape<S, Checked>>::Out>;
    type Checks = <Spec<Pre, Post> as SliceShape<S, Checked>>::Checks;
    #[track_caller]
    fn t_slice(&self) -> Self::Output
    where
        Self::Checks: AllInBounds,
    {
        self.t_try_slice().or_panic()
    }
    fn t_try_slice(&self) -> Result<Self::Output, ShapeError>
    where
        Self::Checks: AllInBounds,
    {
        probe_slice(self)
    }
}

/// `t!(x[...])` of a [`Var`] under the loose rules (generic or runtime sizes): checked at run time.
impl<'a, 't, T: GradFloat, S: Shape, Pre, Post> TSliceLooseOwned<S, Pre, Post>
    for &Probe<'a, &'a Var<'t, T, S>, T, S, Pre, Post>
where
    (Pre, Post): SpecKindOf,
    SpecKind<Pre, Post>: VarSliceKind,
{
    type Out<S2: Shape> = Var<'t, T, S2>;
    // The trait's `(Pre, Post): SpecKindOf` is already a bound of the impl.
    #[track_caller]
    fn t_slice(&self) -> Var<'t, T, <Spec<Pre, Post> as SliceShape<S, Loose>>::Out>
    where
        Spec<Pre, Post>: SliceShape<S, Loose>,
        Pre: LooseOps,
        Post: LooseOps,
    {
        // Evaluated here, in the function the user's `t!` instantiates, so that a failure names
        // that call.
        let () = <(S, Pre, Post) as LooseCheck>::OK;
        probe_slice(*self).or_panic()
    }
    fn t_try_slice(&self) -> Result<Var<'t, T, <Spec<Pre, Post> as SliceShape<S, Loose>>::Out>, ShapeError>
    where
        Spec<Pre, Post>: SliceShape<S, Loose>,
        Pre: LooseOps,
        Post: LooseOps,
    {
        let () = <(S, Pre, Post) as LooseCheck>::OK;
        probe_slice(*self)
    }
}
