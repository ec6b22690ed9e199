//! Axis arguments that name more than one axis or a target shape, in the grammar of
//! [`axis_arg`](super::axis_arg): `permute`'s tuple of axes ([`PermuteAxes`]: `(Ax::<2>, Ax::<0>,
//! Ax::<1>)`, names, or a list of `isize`), the axes of a reduction over several
//! ([`ReduceAxesArg`]: `sum_axes((Ax::<0>, Ax::<2>))`), and `unflatten`'s axis with the sizes it splits into
//! ([`UnflattenAxis`]: a shape value such as `(Const::<3>, Const::<4>)`, or a list of `isize`
//! with one `-1`).
use super::axis_arg::{sealed, ByIndex, Erase, FindName, Pos, RuntimeAxis};
use super::{AnyAxis, Axis, DynShape, PermuteShape, ReduceAxes, Shape, Unflatten, MAX_RANK};
use crate::dim::{Dim, DimName};
use crate::error::ShapeError;

/// Axis `A` of `Self` (negative from the end) as the [`Axis`] type that [`PermuteShape`] reads:
/// one impl per rank and spelling (generated), [`AnyAxis`] for a [`DynShape`].
#[diagnostic::on_unimplemented(
    message = "`Ax<{A}>` is not an axis of shape `{Self}`",
    label = "no such axis in this shape"
)]
pub trait NormAxis<const A: isize>: Shape {
    /// `Axis<a>` with `0 <= a < rank`.
    type Axis;
}
#[diagnostic::do_not_recommend]
impl<const A: isize> NormAxis<A> for DynShape {
    type Axis = AnyAxis;
}
include!(concat!(env!("OUT_DIR"), "/axis_list.rs"));

/// An entry of `permute`'s tuple for shape `S`: [`Ax::<A>`](super::Ax) or a dim name of `S`
/// (`M` is [`Pos`], inferred). Implemented by the crate only.
pub trait PermuteEntry<S, M>: sealed::Entry<S, M> {
    /// The position as the [`Axis`] type of [`PermuteShape`].
    type Axis;
    /// The position as given (negative counts from the end).
    const INDEX: isize;
}
impl<S: NormAxis<A>, const A: isize> sealed::Entry<S, Pos<A>> for super::Ax<A> {}
impl<S: NormAxis<A>, const A: isize> PermuteEntry<S, Pos<A>> for super::Ax<A> {
    type Axis = <S as NormAxis<A>>::Axis;
    const INDEX: isize = A;
}
impl<S: FindName<N, Pos<I>> + NormAxis<I>, N: DimName, const I: isize> sealed::Entry<S, Pos<I>> for N {}
impl<S: FindName<N, Pos<I>> + NormAxis<I>, N: DimName, const I: isize> PermuteEntry<S, Pos<I>> for N {
    type Axis = <S as NormAxis<I>>::Axis;
    const INDEX: isize = I;
}

/// `P` lists the axes of `Self` in the order `permute` puts them (PyTorch `permute(dims)`): a
/// tuple of [`Ax::<N>`](super::Ax) and dim names, one for each dim, checked at compile time for
/// tuple shapes (the dims keep their types and names); or an array or slice of `isize`, checked
/// at run time (every dim of the result `Dyn`).
#[diagnostic::on_unimplemented(
    message = "`{P}` is not a permutation of the axes of `{Self}`",
    label = "permute needs each axis of the shape exactly once",
    note = "the axes are a tuple of `Ax::<N>` and dim names (`(Ax::<2>, Ax::<0>, Ax::<1>)`), or an array of `isize` (`[2, 0, 1]`, checked at run time)"
)]
pub trait PermuteAxes<P, M>: Shape + sealed::ListSeal<P, M> {
    /// The permuted shape.
    type Out: Shape;
    /// The axes as given (negative counts from the end) and how many; `None` for more than
    /// [`MAX_RANK`].
    fn axis_list(p: &P) -> Option<([isize; MAX_RANK], usize)>;
}

/// The positions a tuple of [`PermuteEntry`]s names, as given, and how many.
trait EntryList<S, M> {
    const LIST: ([isize; MAX_RANK], usize);
}

/// `PermuteAxes` and `ReduceAxesArg` for the tuples of 0 to 6 entries.
macro_rules! permute_tuples {
    ($(($($X:ident $M:ident),*))*) => {$(
        #[allow(unused_mut)]
        impl<S, $($X: PermuteEntry<S, $M>, $M,)*> EntryList<S, ($($M,)*)> for ($($X,)*) {
            const LIST: ([isize; MAX_RANK], usize) = {
                let mut out = [0; MAX_RANK];
                let mut k = 0;
                $(
                    out[k] = <$X as PermuteEntry<S, $M>>::INDEX;
                    k += 1;
                )*
                (out, k)
            };
        }
        impl<S: Shape, $($X: PermuteEntry<S, $M>, $M,)*> sealed::ListSeal<($($X,)*), ($($M,)*)> for S {}
        #[diagnostic::do_not_recommend]
        impl<S: Shape, $($X: PermuteEntry<S, $M>, $M,)*> PermuteAxes<($($X,)*), ($($M,)*)> for S
        where
            ($(<$X as PermuteEntry<S, $M>>::Axis,)*): PermuteShape<S>,
        {
            type Out = <($(<$X as PermuteEntry<S, $M>>::Axis,)*) as PermuteShape<S>>::Out;
            #[inline(always)]
            fn axis_list(_: &($($X,)*)) -> Option<([isize; MAX_RANK], usize)> {
                Some(<($($X,)*) as EntryList<S, ($($M,)*)>>::LIST)
            }
        }
        #[diagnostic::do_not_recommend]
        impl<S: Shape, $($X: PermuteEntry<S, $M>, $M,)*> ReduceAxesArg<($($X,)*), ($($M,)*)> for S
        where
            ($(<$X as PermuteEntry<S, $M>>::Axis,)*): ReduceAxes<S>,
        {
            type Out = <($(<$X as PermuteEntry<S, $M>>::Axis,)*) as ReduceAxes<S>>::Out;
            type Keep = <($(<$X as PermuteEntry<S, $M>>::Axis,)*) as ReduceAxes<S>>::Keep;
            #[inline(always)]
            fn axis_list(_: &($($X,)*)) -> Option<([isize; MAX_RANK], usize)> {
                Some(<($($X,)*) as EntryList<S, ($($M,)*)>>::LIST)
            }
        }
    )*};
}
permute_tuples! {
    ()
    (X0 M0)
    (X0 M0, X1 M1)
    (X0 M0, X1 M1, X2 M2)
    (X0 M0, X1 M1, X2 M2, X3 M3)
    (X0 M0, X1 M1, X2 M2, X3 M3, X4 M4)
    (X0 M0, X1 M1, X2 M2, X3 M3, X4 M4, X5 M5)
}

/// Runtime axes in a list (at most [`MAX_RANK`] of them), as given.
fn runtime_list<I: RuntimeAxis>(p: &[I]) -> Option<([isize; MAX_RANK], usize)> {
    let mut out = [0; MAX_RANK];
    for (o, a) in out.iter_mut().zip(p) {
        *o = a.get();
    }
    (p.len() <= MAX_RANK).then_some((out, p.len()))
}
impl<S: Erase, I: RuntimeAxis, const K: usize> sealed::ListSeal<[I; K], ByIndex> for S {}
#[diagnostic::do_not_recommend]
impl<S: Erase, I: RuntimeAxis, const K: usize> PermuteAxes<[I; K], ByIndex> for S {
    type Out = <S as Erase>::Same;
    #[inline]
    fn axis_list(p: &[I; K]) -> Option<([isize; MAX_RANK], usize)> {
        runtime_list(p)
    }
}
impl<S: Erase, I: RuntimeAxis> sealed::ListSeal<&[I], ByIndex> for S {}
#[diagnostic::do_not_recommend]
impl<S: Erase, I: RuntimeAxis, const K: usize> ReduceAxesArg<[I; K], ByIndex> for S {
    type Out = <S as Erase>::Unranked;
    type Keep = <S as Erase>::Same;
    #[inline]
    fn axis_list(p: &[I; K]) -> Option<([isize; MAX_RANK], usize)> {
        runtime_list(p)
    }
}
#[diagnostic::do_not_recommend]
impl<S: Erase, I: RuntimeAxis> ReduceAxesArg<&[I], ByIndex> for S {
    type Out = <S as Erase>::Unranked;
    type Keep = <S as Erase>::Same;
    #[inline]
    fn axis_list(p: &&[I]) -> Option<([isize; MAX_RANK], usize)> {
        runtime_list(p)
    }
}
#[diagnostic::do_not_recommend]
impl<S: Erase, I: RuntimeAxis> PermuteAxes<&[I], ByIndex> for S {
    type Out = <S as Erase>::Same;
    #[inline]
    fn axis_list(p: &&[I]) -> Option<([isize; MAX_RANK], usize)> {
        runtime_list(p)
    }
}

/// The positions `list` names in a shape of rank `rank`, made non-negative, if they are a
/// permutation of `0..rank` (which [`Layout::permute`](crate::layout::Layout::permute) checks).
///
/// # Errors
/// [`ShapeError::Invalid`] for more than [`MAX_RANK`] axes or a negative axis below `-rank`.
pub(crate) fn permutation(
    list: Option<([isize; MAX_RANK], usize)>,
    rank: usize,
) -> Result<([usize; MAX_RANK], usize), ShapeError> {
    let Some((given, k)) = list else {
        return Err(ShapeError::Invalid(alloc::format!(
            "permute: more than {MAX_RANK} axes for a tensor of rank {rank}"
        )));
    };
    let r = rank as isize;
    let mut out = [0; MAX_RANK];
    for (o, &a) in out.iter_mut().zip(&given[..k]) {
        if a < -r {
            return Err(ShapeError::Invalid(alloc::format!(
                "{:?} is not a permutation of the axes of a tensor of rank {rank}",
                &given[..k]
            )));
        }
        // Non-negative axes as given (an error names them as given), negative ones from the end.
        *o = if a < 0 { (a + r) as usize } else { a as usize };
    }
    Ok((out, k))
}

/// `P` lists distinct axes of `Self` that a reduction over several axes removes or keeps as
/// size 1 (`sum_axes`, `mean_axes` and their `_keepdim` forms; PyTorch `sum(dim=(0, 2))`): a
/// tuple of [`Ax::<N>`](super::Ax) and dim names in increasing order (checked at compile time for
/// tuple shapes; the other dims keep their types and names), or an array or slice of `isize` in
/// any order (checked at run time; the result a [`DynShape`], or every dim `Dyn` with
/// `_keepdim`).
#[diagnostic::on_unimplemented(
    message = "cannot reduce shape `{Self}` over the axes `{P}`",
    label = "the axes must exist in the shape, be distinct, and be listed in increasing order",
    note = "the axes are a tuple of `Ax::<N>` and dim names (`(Ax::<0>, Ax::<2>)`), or an array of `isize` (`[0, 2]`, checked at run time)"
)]
pub trait ReduceAxesArg<P, M>: Shape + sealed::ListSeal<P, M> {
    /// `Self` without the reduced axes.
    type Out: Shape;
    /// `Self` with each reduced axis replaced by [`One`](crate::One) (`keepdim=True`).
    type Keep: Shape;
    /// The axes as given (negative counts from the end) and how many; `None` for more than
    /// [`MAX_RANK`].
    fn axis_list(p: &P) -> Option<([isize; MAX_RANK], usize)>;
}

/// The positions `list` names in a shape of rank `rank`, made non-negative and sorted, for a
/// reduction over several axes.
///
/// # Errors
/// [`ShapeError::Axis`] naming an axis out of range; [`ShapeError::Invalid`] for an axis listed
/// twice or more than [`MAX_RANK`] axes.
pub(crate) fn reduction_axes(
    list: Option<([isize; MAX_RANK], usize)>,
    rank: usize,
) -> Result<([usize; MAX_RANK], usize), ShapeError> {
    let Some((given, k)) = list else {
        return Err(ShapeError::Invalid(alloc::format!("more than {MAX_RANK} axes to reduce")));
    };
    let mut out = [0; MAX_RANK];
    for (o, &a) in out.iter_mut().zip(&given[..k]) {
        *o = crate::layout::normalize_axis(a, rank)?;
    }
    out[..k].sort_unstable();
    if out[..k].windows(2).any(|w| w[0] == w[1]) {
        return Err(ShapeError::Invalid(alloc::format!("the axes {:?} name one axis twice", &given[..k])));
    }
    Ok((out, k))
}

/// `X` is an axis of `Self` that `unflatten` splits into the sizes `U` (PyTorch `unflatten(dim,
/// sizes)`): `U` is a shape value (`(Const::<3>, Const::<4>)`, one dim may be `Dyn` for an
/// inferred size) or a list of `isize` sizes (one may be `-1`). The result shape is `Out`:
/// [`Unflatten`]'s for an `Ax::<N>` or a name with a shape (checked at compile time, the sizes
/// when the program is built where the dim is static), a [`DynShape`] for a runtime axis or
/// runtime sizes.
#[diagnostic::on_unimplemented(
    message = "cannot unflatten `{Self}` along `{X}` into `{U}`",
    label = "no such axis, an empty target, or a result with more than 6 dims",
    note = "the sizes are a shape value (`(Const::<3>, Const::<4>)`, `Dyn` for one inferred size) or an array of `isize` (`[3, -1]`, checked at run time)"
)]
pub trait UnflattenAxis<X, M, U>: Shape + sealed::AxisSeal<X, M> + sealed::SizesSeal<U> {
    /// The unflattened shape.
    type Out: Shape;
    /// The target shape when the axis's position and the sizes are known when the program is
    /// built ([`DynShape`] otherwise): what the build-time check compares with the dim.
    type Target: Shape;
    /// The position when the program is built and the sizes are a shape (`None` otherwise).
    const AT: Option<isize>;
    /// The axis as given (negative counts from the end).
    fn axis_index(x: &X) -> isize;
    /// The requested sizes (`-1` for an inferred one) and how many; `None` for more than
    /// [`MAX_RANK`].
    fn sizes(u: &U) -> Option<([isize; MAX_RANK], usize)>;
}
impl<S, U: Shape> sealed::SizesSeal<U> for S {}
impl<S, const K: usize> sealed::SizesSeal<[isize; K]> for S {}
impl<S> sealed::SizesSeal<&[isize]> for S {}

/// The sizes a shape type asks for, as `reshape_dyn` takes them: its static sizes, `-1` for a
/// runtime dim; and the rank.
fn shape_sizes<U: Shape>() -> Option<([isize; MAX_RANK], usize)> {
    Some((U::STATIC.map(|d| d.map_or(-1, |n| n as isize)), U::RANK.unwrap_or(0)))
}
/// Runtime sizes in a list (at most [`MAX_RANK`] of them).
fn size_list(u: &[isize]) -> Option<([isize; MAX_RANK], usize)> {
    let mut out = [0; MAX_RANK];
    out.iter_mut().zip(u).for_each(|(o, &n)| *o = n);
    (u.len() <= MAX_RANK).then_some((out, u.len()))
}

#[diagnostic::do_not_recommend]
impl<S: Unflatten<A, U>, U: Shape, const A: isize> UnflattenAxis<super::Ax<A>, Pos<A>, U> for S {
    type Out = <S as Unflatten<A, U>>::Out;
    type Target = U;
    const AT: Option<isize> = Some(A);
    #[inline(always)]
    fn axis_index(_: &super::Ax<A>) -> isize {
        A
    }
    #[inline(always)]
    fn sizes(_: &U) -> Option<([isize; MAX_RANK], usize)> {
        shape_sizes::<U>()
    }
}
#[diagnostic::do_not_recommend]
impl<S, N: DimName, U: Shape, const A: isize> UnflattenAxis<N, Pos<A>, U> for S
where
    S: Unflatten<A, U> + FindName<N, Pos<A>>,
{
    type Out = <S as Unflatten<A, U>>::Out;
    type Target = U;
    const AT: Option<isize> = Some(A);
    #[inline(always)]
    fn axis_index(_: &N) -> isize {
        A
    }
    #[inline(always)]
    fn sizes(_: &U) -> Option<([isize; MAX_RANK], usize)> {
        shape_sizes::<U>()
    }
}
#[diagnostic::do_not_recommend]
impl<S: Erase, I: RuntimeAxis, U: Shape> UnflattenAxis<I, ByIndex, U> for S {
    type Out = DynShape;
    type Target = DynShape;
    const AT: Option<isize> = None;
    #[inline(always)]
    fn axis_index(x: &I) -> isize {
        x.get()
    }
    #[inline(always)]
    fn sizes(_: &U) -> Option<([isize; MAX_RANK], usize)> {
        shape_sizes::<U>()
    }
}
/// Runtime sizes after an axis of any kind: `UnflattenAxis` for `[isize; K]` and `&[isize]`.
macro_rules! unflatten_runtime_sizes {
    ($([$($g:tt)*] $U:ty;)*) => {$(
        #[diagnostic::do_not_recommend]
        impl<$($g)* S: Erase, const A: isize> UnflattenAxis<super::Ax<A>, Pos<A>, $U> for S {
            type Out = DynShape;
            type Target = DynShape;
            const AT: Option<isize> = None;
            #[inline(always)]
            fn axis_index(_: &super::Ax<A>) -> isize {
                A
            }
            #[inline(always)]
            fn sizes(u: &$U) -> Option<([isize; MAX_RANK], usize)> {
                size_list(&u[..])
            }
        }
        #[diagnostic::do_not_recommend]
        impl<$($g)* S: Erase + FindName<N, Pos<A>>, N: DimName, const A: isize> UnflattenAxis<N, Pos<A>, $U> for S {
            type Out = DynShape;
            type Target = DynShape;
            const AT: Option<isize> = None;
            #[inline(always)]
            fn axis_index(_: &N) -> isize {
                A
            }
            #[inline(always)]
            fn sizes(u: &$U) -> Option<([isize; MAX_RANK], usize)> {
                size_list(&u[..])
            }
        }
        #[diagnostic::do_not_recommend]
        impl<$($g)* S: Erase, I: RuntimeAxis> UnflattenAxis<I, ByIndex, $U> for S {
            type Out = DynShape;
            type Target = DynShape;
            const AT: Option<isize> = None;
            #[inline(always)]
            fn axis_index(x: &I) -> isize {
                x.get()
            }
            #[inline(always)]
            fn sizes(u: &$U) -> Option<([isize; MAX_RANK], usize)> {
                size_list(&u[..])
            }
        }
    )*};
}
unflatten_runtime_sizes! {
    [const K: usize,] [isize; K];
    ['a,] &'a [isize];
}
