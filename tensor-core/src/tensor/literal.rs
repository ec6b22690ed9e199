//! `narrow_const` and `select_const`: views with literal bounds, in two forms that method
//! resolution picks between, so that the same call works in concrete and in generic code.
//!
//! * On a shape whose static dims are all inside typenum's bridge ([`BridgeShape`]: 0..=1024, 2^k,
//!   2^k - 1, 10^k, and every `Dyn` or [`One`](crate::One) dim), the inherent methods check the
//!   literals at compile time: an out-of-bounds `narrow_const::<0, 4, 2>()` on `Shape![5, 3]` is a
//!   compile error naming the shape.
//! * Otherwise (a generic `Const<N>`, or a size outside the bridge) those methods do not apply and
//!   the call resolves, through `Deref`, to the same methods on [`Unchecked`]: checked at run time,
//!   and for a static size outside the bridge also when the program is built (a
//!   post-monomorphisation check). Generic code instantiated with sizes inside the bridge is
//!   checked at run time only, as PyTorch checks it.
use super::{TensorBase, ViewOf};
use crate::dim::Const;
use crate::error::ConstMsg;
use crate::error::{OrPanic, ShapeError};
use crate::index::{in_bridge, NarrowFits, SelectFits};
use crate::shape::{BridgeShape, RemoveAxis, SetAxis, Shape};
use crate::storage::Data;
use core::ops::Deref;
use ref_cast::RefCast;
use shaped_macros::try_twin;

impl<D: Data, S: BridgeShape> TensorBase<D, S> {
    /// Keeps `LEN` elements of axis `A` from `START`, all three literal: PyTorch
    /// `narrow(A, START, LEN)` with a static result, `[5, 3]` with `<0, 1, 2>` gives `[2, 3]`. The
    /// result dim is `Const<LEN>`. `START + LEN` is checked at compile time against a static dim in
    /// typenum's bridge (see [`crate::dim`]) and at run time against a `Dyn` one; in generic code
    /// and for larger sizes the call resolves to [`Unchecked::try_narrow_const`].
    ///
    /// # Errors
    /// [`ShapeError::Range`] when a `Dyn` dim is too short; [`ShapeError::Axis`] when a
    /// [`DynShape`](crate::DynShape) tensor has no axis `A`.
    #[try_twin]
    pub fn try_narrow_const<const A: isize, const START: usize, const LEN: usize>(
        &self,
    ) -> Result<ViewOf<'_, D, <S as SetAxis<A, Const<LEN>>>::Out>, ShapeError>
    where
        S: SetAxis<A, Const<LEN>> + RemoveAxis<A>,
        <S as RemoveAxis<A>>::Removed: NarrowFits<START, LEN, S>,
    {
        narrow_rt::<D, S, _, START, LEN>(self, A)
    }

    /// The slice at the literal index `I` along axis `A`, which is removed: PyTorch
    /// `select(A, I)`, `[5, 3]` with `<1, 2>` gives `[5]`. `I` is checked at compile time against a
    /// static dim in typenum's bridge and at run time against a `Dyn` one; in generic code and for
    /// larger sizes the call resolves to [`Unchecked::try_select_const`].
    ///
    /// # Errors
    /// [`ShapeError::Index`] when a `Dyn` dim is too short; [`ShapeError::Axis`].
    #[try_twin]
    pub fn try_select_const<const A: isize, const I: usize>(
        &self,
    ) -> Result<ViewOf<'_, D, <S as RemoveAxis<A>>::Out>, ShapeError>
    where
        S: RemoveAxis<A>,
        <S as RemoveAxis<A>>::Removed: SelectFits<I, S>,
    {
        select_rt::<D, S, _, I>(self, A)
    }
}

fn narrow_rt<D: Data, S: Shape, S2: Shape, const START: usize, const LEN: usize>(
    t: &TensorBase<D, S>,
    a: isize,
) -> Result<ViewOf<'_, D, S2>, ShapeError> {
    let axis = t.ax(a)?;
    let n = t.sizes()[axis];
    let start = isize::try_from(START).map_err(|_| ShapeError::Range {
        start: START as i128,
        end: START as i128 + LEN as i128,
        axis,
        size: n,
    })?;
    Ok(t.derive(t.layout().narrow(axis, start, LEN)?))
}

fn select_rt<D: Data, S: Shape, S2: Shape, const I: usize>(
    t: &TensorBase<D, S>,
    a: isize,
) -> Result<ViewOf<'_, D, S2>, ShapeError> {
    let axis = t.ax(a)?;
    let n = t.sizes()[axis];
    let i = isize::try_from(I).map_err(|_| ShapeError::Index { index: I as i128, axis, size: n })?;
    Ok(t.derive(t.layout().select(axis, i)?))
}

/// The run-time-checked forms of [`narrow_const`](TensorBase::narrow_const) and
/// [`select_const`](TensorBase::select_const), which every tensor reaches through `Deref` when
/// the checked forms do not apply: in code generic over sizes (`fn f<const N: usize>(x:
/// &Tensor<f32, Shape![N]>) { x.narrow_const::<0, 1, 2>(); }`) and for static sizes outside
/// typenum's bridge. See the [module docs](self). Not meant to be named.
#[derive(RefCast)]
#[repr(transparent)]
pub struct Unchecked<D: Data, S: Shape>(TensorBase<D, S>);

impl<D: Data, S: Shape> Deref for TensorBase<D, S> {
    type Target = Unchecked<D, S>;
    #[inline(always)]
    fn deref(&self) -> &Unchecked<D, S> {
        Unchecked::ref_cast(self)
    }
}

pub(crate) use crate::shape::static_dim;

/// The build-time check of the [`Unchecked`] forms: literal bounds on a static dim outside the
/// bridge (inside it, concrete code takes the checked forms and generic code checks at run time).
struct LiteralCheck<S, const A: isize, const START: usize, const LEN: usize>(core::marker::PhantomData<S>);
impl<S: Shape, const A: isize, const START: usize, const LEN: usize> LiteralCheck<S, A, START, LEN> {
    const NARROW: () = if let Some((axis, n)) = static_dim::<S>(A) {
        if !(in_bridge(n) && in_bridge(START) && in_bridge(LEN)) && !(START <= n && LEN <= n - START) {
            let m = ConstMsg::new().str("narrow_const: START + LEN = ").num(START.saturating_add(LEN));
            m.str(" is past the end of dimension ").num(axis).str(" of size ").num(n).fail()
        }
    };
    const SELECT: () = if let Some((axis, n)) = static_dim::<S>(A) {
        if !(in_bridge(n) && in_bridge(START)) && START >= n {
            let m = ConstMsg::new().str("select_const: index ").num(START).str(" is out of bounds for dimension ");
            m.num(axis).str(" of size ").num(n).fail()
        }
    };
}

impl<D: Data, S: Shape> Unchecked<D, S> {
    /// [`TensorBase::try_narrow_const`] checked at run time (and, for a static size outside the
    /// bridge, when the program is built).
    ///
    /// # Errors
    /// [`ShapeError::Range`] when `START + LEN` passes the dim; [`ShapeError::Axis`].
    pub fn try_narrow_const<const A: isize, const START: usize, const LEN: usize>(
        &self,
    ) -> Result<ViewOf<'_, D, <S as SetAxis<A, Const<LEN>>>::Out>, ShapeError>
    where
        S: SetAxis<A, Const<LEN>>,
    {
        let () = LiteralCheck::<S, A, START, LEN>::NARROW;
        narrow_rt::<D, S, _, START, LEN>(&self.0, A)
    }
    /// [`try_narrow_const`](Self::try_narrow_const), panicking with the error's message.
    #[track_caller]
    pub fn narrow_const<const A: isize, const START: usize, const LEN: usize>(
        &self,
    ) -> ViewOf<'_, D, <S as SetAxis<A, Const<LEN>>>::Out>
    where
        S: SetAxis<A, Const<LEN>>,
    {
        let () = LiteralCheck::<S, A, START, LEN>::NARROW;
        narrow_rt::<D, S, _, START, LEN>(&self.0, A).or_panic()
    }
    /// [`TensorBase::try_select_const`] checked at run time (and, for a static size outside the
    /// bridge, when the program is built).
    ///
    /// # Errors
    /// [`ShapeError::Index`] when `I` is past the dim; [`ShapeError::Axis`].
    pub fn try_select_const<const A: isize, const I: usize>(
        &self,
    ) -> Result<ViewOf<'_, D, <S as RemoveAxis<A>>::Out>, ShapeError>
    where
        S: RemoveAxis<A>,
    {
        let () = LiteralCheck::<S, A, I, 0>::SELECT;
        select_rt::<D, S, _, I>(&self.0, A)
    }
    /// [`try_select_const`](Self::try_select_const), panicking with the error's message.
    #[track_caller]
    pub fn select_const<const A: isize, const I: usize>(&self) -> ViewOf<'_, D, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
    {
        let () = LiteralCheck::<S, A, I, 0>::SELECT;
        select_rt::<D, S, _, I>(&self.0, A).or_panic()
    }
}
