//! Views that never copy, each written once. The table in [`view_ops!`] lists every view method
//! (transpose, t, permute, squeeze, unsqueeze, narrow, select, flip, movedim, diagonal, slice,
//! view, expand, unflatten, and the `_dyn` forms taking runtime axes): its docs, its generics and
//! result shape, its errors, and the one expression that derives the new [`Layout`]. The macro
//! writes from each entry
//!
//! * on every tensor (`&self`): `try_x`, returning `Result<view, ShapeError>`, and `x`, which
//!   panics with the error's message;
//! * on a [`TensorViewMut`] (by value, keeping its lifetime, so calls chain:
//!   `x.t_mut().narrow_mut(Ax::<0>, 0, 2)`, as ndarray's `slice_move`): `try_x_mut` and `x_mut`;
//! * on [`Tensor`] and [`SharedTensor`] (`&mut self`): `try_x_mut` and `x_mut`, forwarding to
//!   the view's through [`as_view_mut`](TensorBase::as_view_mut).
//!
//! Every mutable form addresses distinct elements of a non-overlapping source, so none can give
//! two coordinates to one element: `expand`, whose stride-0 dims would, and `view`/`unflatten`
//! have no mutable entry. Typed forms take each axis as an argument (see [`crate::shape::axis_arg`]):
//! `Ax::<N>` or a dim name, checked at compile time for tuple shapes (negative counts from the
//! end), or an `isize`, checked at run time (the result's dims `Dyn`); the `_dyn` forms take
//! runtime axes and give [`DynShape`] views. `permute` takes a tuple of such axes, or an array
//! of `isize` ([`crate::shape::axis_list`]).
//!
//! The views that may copy (`reshape`, `flatten`) and those that give several views (`chunk`,
//! `split`) are in `reshape.rs`, written by hand.
use super::{SharedTensor, Tensor, TensorBase, TensorViewMut, ViewOf};
use crate::dim::{Const, Dyn};
use crate::element::Element;
use crate::error::{ConstMsg, OrPanic, ShapeError};
use crate::index::{apply_args, SliceArg};
use crate::layout::{normalize_axis, normalize_insert_axis, Layout};
use crate::shape::*;
use crate::storage::Data;
use crate::tensor::literal::static_dim;
use shaped_macros::try_twin;

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// Axis `a` of this tensor (negative counts from the end): the typed forms check it at compile
    /// time for tuple shapes, so this fails only for a [`DynShape`] tensor of another rank.
    #[inline]
    pub(crate) fn ax(&self, a: isize) -> Result<usize, ShapeError> {
        normalize_axis(a, self.rank())
    }

    #[inline]
    pub(crate) fn derive<S2: Shape>(&self, layout: Layout) -> ViewOf<'_, D, S2> {
        TensorBase::from_parts(self.data.view_data(), layout)
    }
}

impl<'a, T: Element, S: Shape> TensorViewMut<'a, T, S> {
    /// The same storage under a layout derived from this view's (a subset of its elements, so
    /// still non-overlapping and inside the buffer).
    #[inline]
    fn remap<S2: Shape>(self, layout: Layout) -> TensorViewMut<'a, T, S2> {
        TensorBase::from_parts(self.data, layout)
    }
}

/// The panicking form `$name` of a table's `try_x` `$try` (taking `&self`): the docs `$m`, a
/// "# Panics" paragraph naming `$try`'s error `$err`, and the call of `$try` with the same
/// arguments and `or_panic`. Written here for the tensor views and in `autograd/ops.rs` for
/// `Var`'s forms of the same table.
macro_rules! table_twin {
    (
        $(#[$m:meta])*
        $name:ident, $try:ident; [$($g:tt)*] [$($tf:tt)*] ($($arg:ident: $ty:ty),*) -> $Ret:ty
        where [$($w:tt)*] errors $err:literal
    ) => {
        $(#[$m])*
        ///
        /// # Panics
        #[doc = concat!("With the message of the error of [`", stringify!($try), "`](Self::",
            stringify!($try), "): ", $err)]
        #[track_caller]
        pub fn $name<$($g)*>(&self, $($arg: $ty),*) -> $Ret
        where $($w)*
        {
            self.$try::<$($tf)*>($($arg),*).or_panic()
        }
    };
}
pub(crate) use table_twin;

/// Writes each view method of the tables below in its receivers (see the module doc). An entry:
///
/// ```text
/// { /// docs of the plain form (shape in, shape out, the PyTorch function), #[doc(alias)]s
///   name, try_name; name_mut, try_name_mut;     (the second pair only in the `mut` table)
///   [generics] [turbofish] (args) -> result shape where [bounds]
///   errors "the # Errors text"
///   |layout, rank| expression of type Result<Layout, ShapeError> }
/// ```
macro_rules! view_ops {
    // The by-value forms on a mutable view, the `&mut self` forms on the owning tensors, and
    // then the shared forms of the same entries.
    (table $d:tt mut $($entries:tt)*) => {
        view_ops! { mut $($entries)* }
        /// The views that may be written through, handed to `$cb!` (see `view_ops!`'s first
        /// invocation).
        macro_rules! writable_views {
            ($d cb:ident) => {
                $d cb! { mut $($entries)* }
            };
        }
        pub(crate) use writable_views;
    };
    (mut $({
        $(@novar;)?
        $(#[$m:meta])*
        $name:ident, $try:ident; $mname:ident, $mtry:ident;
        [$($g:tt)*] [$($tf:tt)*] ($($arg:ident: $ty:ty),*) -> $Out:ty where [$($w:tt)*]
        errors $err:literal
        |$l:ident, $r:pat_param| $body:expr
    })*) => {
        impl<'a, T: Element, S: Shape> TensorViewMut<'a, T, S> {$(
            #[doc = concat!("[`", stringify!($mname), "`](Self::", stringify!($mname),
                "), returning an error instead of panicking.\n\n# Errors\n", $err)]
            pub fn $mtry<$($g)*>(self, $($arg: $ty),*) -> Result<TensorViewMut<'a, T, $Out>, ShapeError>
            where $($w)*
            {
                let out = {
                    let ($l, $r) = (self.layout(), self.rank());
                    $body?
                };
                Ok(self.remap(out))
            }
            #[doc = concat!("[`", stringify!($name), "`](TensorBase::", stringify!($name),
                ") as a mutable view, which writes through to the source. It takes the view by \
                value and keeps its lifetime, so calls chain.\n\n# Panics\nWith the message of \
                the error of [`", stringify!($mtry), "`](Self::", stringify!($mtry), "): ", $err)]
            #[track_caller]
            pub fn $mname<$($g)*>(self, $($arg: $ty),*) -> TensorViewMut<'a, T, $Out>
            where $($w)*
            {
                self.$mtry::<$($tf)*>($($arg),*).or_panic()
            }
        )*}
        view_ops!(@forward [Tensor SharedTensor]
            [$([$name $mname $mtry [$($g)*] [$($tf)*] ($($arg: $ty),*) $Out [$($w)*] $err])*]);
        view_ops!(shared $({
            $(#[$m])*
            $name, $try; [$($g)*] [$($tf)*] ($($arg: $ty),*) -> $Out where [$($w)*]
            errors $err
            |$l, $r| $body
        })*);
    };
    // `try_x` and `x` on every tensor.
    (shared $({
        $(#[$m:meta])*
        $name:ident, $try:ident;
        [$($g:tt)*] [$($tf:tt)*] ($($arg:ident: $ty:ty),*) -> $Out:ty where [$($w:tt)*]
        errors $err:literal
        |$l:ident, $r:pat_param| $body:expr
    })*) => {
        impl<D: Data, S: Shape> TensorBase<D, S> {$(
            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name),
                "), returning an error instead of panicking.\n\n# Errors\n", $err)]
            pub fn $try<$($g)*>(&self, $($arg: $ty),*) -> Result<ViewOf<'_, D, $Out>, ShapeError>
            where $($w)*
            {
                let ($l, $r) = (self.layout(), self.rank());
                Ok(self.derive($body?))
            }
            table_twin! {
                $(#[$m])*
                $name, $try; [$($g)*] [$($tf)*] ($($arg: $ty),*) -> ViewOf<'_, D, $Out> where [$($w)*] errors $err
            }
        )*}
    };
    // The `&mut self` forms on each owning tensor type: the mutable view's method on
    // `as_view_mut()`.
    (@forward [$($Kind:ident)*] $entries:tt) => { $(view_ops!(@forward_to $Kind $entries);)* };
    (@forward_to $Kind:ident [$([
        $name:ident $mname:ident $mtry:ident [$($g:tt)*] [$($tf:tt)*] ($($arg:ident: $ty:ty),*) $Out:ty
        [$($w:tt)*] $err:literal
    ])*]) => {
        impl<T: Element, S: Shape> $Kind<T, S> {$(
            #[doc = concat!("[`TensorViewMut::", stringify!($mtry), "`] of a mutable borrow of \
                the tensor.\n\n# Errors\n", $err)]
            pub fn $mtry<$($g)*>(&mut self, $($arg: $ty),*) -> Result<TensorViewMut<'_, T, $Out>, ShapeError>
            where $($w)*
            {
                self.as_view_mut().$mtry::<$($tf)*>($($arg),*)
            }
            #[doc = concat!("[`TensorViewMut::", stringify!($mname), "`] of a mutable borrow of \
                the tensor: [`", stringify!($name), "`](TensorBase::", stringify!($name),
                ") as a view that writes through.\n\n# Panics\nWith the message of the error of [`",
                stringify!($mtry), "`](Self::", stringify!($mtry), "): ", $err)]
            #[track_caller]
            pub fn $mname<$($g)*>(&mut self, $($arg: $ty),*) -> TensorViewMut<'_, T, $Out>
            where $($w)*
            {
                self.as_view_mut().$mtry::<$($tf)*>($($arg),*).or_panic()
            }
        )*}
    };
}

// The views that may be written through: `view_ops!` writes every form of each entry from them
// and defines `writable_views!`, which hands the table to another writer: `autograd/ops.rs`
// writes `Var`'s `try_x` and `x` from it (`writable_views!(var_view)`: the view's elements as the
// value, the gradient scattered back through the same layout), so that one entry gives both. An
// entry that starts `@novar;` has a `Var` form written by hand (`permute_dyn`, whose `Var` form
// takes negative axes too). (The leading `table $` lets `view_ops!` write a macro of its own.)
view_ops! { table $
    mut
    {
        /// Swaps axes `a` and `b` (PyTorch `transpose(a, b)`): `[2, 3, 4]` with `(Ax::<0>,
        /// Ax::<2>)` gives `[4, 3, 2]`. A view. Each axis is an `Ax::<N>` (checked at compile time
        /// for tuple shapes; the dims keep their types and names), a dim name (`x.transpose(Seq,
        /// Batch)`) or an `isize` (PyTorch's spelling, checked at run time; every dim of the
        /// result is `Dyn`).
        #[doc(alias = "swap_axes", alias = "swapaxes")]
        transpose, try_transpose; transpose_mut, try_transpose_mut;
        [X1, M1, X2, M2, Y: Shape] [X1, M1, X2, M2, Y] (a: X1, b: X2) -> Y where [S: SwapAxis<X1, M1, X2, M2, Out = Y>]
        errors "[`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has \
            no such axis."
        |l, r| {
            let (a, b) = <S as SwapAxis<X1, M1, X2, M2>>::axis_indices(&a, &b);
            l.transpose(normalize_axis(a, r)?, normalize_axis(b, r)?)
        }
    }
    {
        /// The transpose of a matrix (PyTorch `t()`): `[m, n] -> [n, m]`; rank 0 and 1 unchanged.
        /// A view.
        #[doc(alias = "reversed_axes", alias = "mT")]
        t, try_t; t_mut, try_t_mut;
        [] [] () -> <S as TransposeShape>::Out where [S: TransposeShape]
        errors "[`ShapeError::Invalid`] for a [`DynShape`] tensor with more than 2 dims."
        |l, r| match r {
            0 | 1 => Ok(*l),
            2 => l.transpose(0, 1),
            _ => Err(ShapeError::Invalid(alloc::format!(
                "t() expects a tensor with at most 2 dims, got {:?}",
                l.sizes()
            ))),
        }
    }
    {
        /// Reorders the axes (PyTorch `permute(dims)`): dim `i` of the result is dim `axes[i]`,
        /// so `(Ax::<2>, Ax::<0>, Ax::<1>)` takes `[a, b, c]` to `[c, a, b]`. A view. The axes are
        /// a tuple of `Ax::<N>` (negatives from the end) and dim names, one for each dim (checked
        /// at compile time for tuple shapes; the dims keep their types and names:
        /// `x.permute((Seq, Batch, Ax::<2>))`), or an array or slice of `isize` (PyTorch's
        /// `x.permute(2, 0, 1)` is `x.permute([2, 0, 1])`, checked at run time; every dim of the
        /// result `Dyn`).
        #[doc(alias = "permuted_axes")]
        permute, try_permute; permute_mut, try_permute_mut;
        [P, M, Y: Shape] [P, M, Y] (axes: P) -> Y where [S: PermuteAxes<P, M, Out = Y>]
        errors "[`ShapeError::Permutation`] when runtime axes, or the axes of a [`DynShape`] \
            tensor, are not a permutation of its dims; [`ShapeError::Invalid`] for a negative axis \
            below `-rank` or more than 6 axes."
        |l, r| {
            let (axes, k) = permutation(<S as PermuteAxes<P, M>>::axis_list(&axes), r)?;
            l.permute(&axes[..k])
        }
    }
    {
        /// Removes `axis`, which must have size 1 (PyTorch `squeeze(axis)`): `[2, 1, 3]` with
        /// `Ax::<1>` gives `[2, 3]`. A view. The axis is an `Ax::<N>` (squeezing a static dim whose
        /// size is not 1 is a compile error) or an `isize` (checked at run time; the result's
        /// dims are `Dyn`).
        #[doc(alias = "remove_axis")]
        squeeze, try_squeeze; squeeze_mut, try_squeeze_mut;
        [X, M, Y: Shape] [X, M, Y] (axis: X) -> Y where [S: SqueezeAxis<X, M, Out = Y>]
        errors "[`ShapeError::Squeeze`] when a runtime dim is not 1; [`ShapeError::Axis`] for a \
            runtime axis, or a [`DynShape`] tensor, whose rank has no such axis."
        |l, r| l.squeeze(normalize_axis(<S as SqueezeAxis<X, M>>::axis_index(&axis), r)?)
    }
    {
        /// Inserts a size-1 axis at `axis` (PyTorch `unsqueeze(axis)`; `0..=rank`, `-1` appends):
        /// `[2, 3]` with `Ax::<1>` gives `[2, 1, 3]`. A view. The insertion point is an `Ax::<N>`
        /// (checked at compile time for tuple shapes) or an `isize` (checked at run time; the
        /// result's dims are `Dyn`).
        #[doc(alias = "insert_axis", alias = "expand_dims")]
        unsqueeze, try_unsqueeze; unsqueeze_mut, try_unsqueeze_mut;
        [X, M, Y: Shape] [X, M, Y] (axis: X) -> Y where [S: UnsqueezeAxis<X, M, Out = Y>]
        errors "[`ShapeError::InsertAxis`] or [`ShapeError::RankTooLarge`] for a runtime axis, or \
            a [`DynShape`] tensor, whose rank has no such insertion point or is already 6."
        |l, r| l.unsqueeze(normalize_insert_axis(<S as UnsqueezeAxis<X, M>>::axis_index(&axis), r)?)
    }
    {
        /// Keeps `len` elements of `axis` from `start` (negative counts from the end): PyTorch
        /// `narrow(axis, start, len)`. A view; the narrowed dim becomes `Dyn` (a new size; use
        /// `t!` for static bounds). The axis is an `Ax::<N>` or a dim name (the other dims keep
        /// their types) or an `isize` (checked at run time; every dim `Dyn`).
        #[doc(alias = "slice_axis", alias = "slice_axis_move")]
        narrow, try_narrow; narrow_mut, try_narrow_mut;
        [X, M, Y: Shape] [X, M, Y] (axis: X, start: isize, len: usize) -> Y
            where [S: ReplaceAxis<X, M, Dyn, Out = Y>]
        errors "[`ShapeError::Range`] when the range leaves the dim; [`ShapeError::Axis`] for a \
            runtime axis, or a [`DynShape`] tensor, whose rank has no such axis."
        |l, r| l.narrow(normalize_axis(<S as ReplaceAxis<X, M, Dyn>>::axis_index(&axis), r)?, start, len)
    }
    {
        /// The slice at `index` along `axis`, which is removed (PyTorch `select(axis, index)`;
        /// negative counts from the end): `x.select(Ax::<1>, 0)` is the column `x[:, 0]`. A view.
        /// The axis is an `Ax::<N>` or a dim name (the other dims keep their types) or an `isize`
        /// (checked at run time; the result's dims are `Dyn`).
        #[doc(alias = "index_axis", alias = "index_axis_move")]
        select, try_select; select_mut, try_select_mut;
        [X, M, Y: Shape] [X, M, Y] (axis: X, index: isize) -> Y where [S: DropAxis<X, M, Removed = Y>]
        errors "[`ShapeError::Index`] when the index is out of bounds; [`ShapeError::Axis`] for a \
            runtime axis, or a [`DynShape`] tensor, whose rank has no such axis."
        |l, r| l.select(normalize_axis(<S as DropAxis<X, M>>::axis_index(&axis), r)?, index)
    }
    {
        /// `axis` reversed, as a view with a negative stride: `[[1, 2], [3, 4]]` flipped along
        /// `Ax::<1>` reads `[[2, 1], [4, 3]]`. Same shape (names kept). The axis is an `Ax::<N>`
        /// (checked at compile time for tuple shapes), a dim name or an `isize` (checked at run
        /// time); `t!(x[.., ..;-1])` is the same view.
        ///
        /// Mirrors PyTorch `flip(axis)` with one deliberate difference: PyTorch's `flip` copies,
        /// this one never does (as NumPy's `flip`), so writes through the source show in the view.
        #[doc(alias = "invert_axis")]
        flip, try_flip; flip_mut, try_flip_mut;
        [X, M] [X, M] (axis: X) -> S where [S: HasAxis<X, M>]
        errors "[`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has \
            no such axis."
        |l, r| l.flip(normalize_axis(<S as HasAxis<X, M>>::axis_index(&axis), r)?)
    }
    {
        /// Dim `src` moved to position `dst`, the others keeping their order (PyTorch
        /// `torch.movedim(x, src, dst)`): `[2, 3, 4]` with `(Ax::<0>, Ax::<2>)` gives `[3, 4, 2]`.
        /// A view. `Ax::<N>` and dim names are checked at compile time for tuple shapes (the dims
        /// keep their types and names); with an `isize` on either side every dim is `Dyn`.
        #[doc(alias = "moveaxis")]
        movedim, try_movedim; movedim_mut, try_movedim_mut;
        [X1, M1, X2, M2, Y: Shape] [X1, M1, X2, M2, Y] (src: X1, dst: X2) -> Y
            where [S: MoveAxisTo<X1, M1, X2, M2, Out = Y>]
        errors "[`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has \
            no such axis."
        |l, r| {
            let (a, b) = <S as MoveAxisTo<X1, M1, X2, M2>>::axis_indices(&src, &dst);
            l.movedim(normalize_axis(a, r)?, normalize_axis(b, r)?)
        }
    }
    {
        /// The diagonal of dims `dim1` and `dim2` as a view (PyTorch `diagonal(offset, dim1,
        /// dim2)`, in that order): both dims are removed and the diagonal becomes a new last dim
        /// of length `min(n1, n2 - offset)` for `offset >= 0` (`min(n1 + offset, n2)` below it),
        /// `Dyn` in the type: `[3, 4]` with `(1, Ax::<0>, Ax::<1>)` gives `[_]` = `[3]` (elements
        /// `(0, 1), (1, 2), (2, 3)`). An offset past the edge gives an empty diagonal, as in
        /// PyTorch. `Ax::<N>` and dim names are checked at compile time for tuple shapes (they
        /// must differ); with an `isize` on either side the result's dims are `Dyn`. Its elements
        /// are distinct, so the mutable form may be written (to set a matrix's diagonal).
        #[doc(alias = "diag")]
        diagonal, try_diagonal; diagonal_mut, try_diagonal_mut;
        [X1, M1, X2, M2, Y: Shape] [X1, M1, X2, M2, Y] (offset: isize, dim1: X1, dim2: X2) -> Y
            where [S: DiagonalAxes<X1, M1, X2, M2, Out = Y>]
        errors "[`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has \
            no such axes; [`ShapeError::Invalid`] when the two name the same axis."
        |l, r| {
            let (a, b) = <S as DiagonalAxes<X1, M1, X2, M2>>::axis_indices(&dim1, &dim2);
            l.diagonal(normalize_axis(a, r)?, normalize_axis(b, r)?, offset)
        }
    }
    {
        /// A view from runtime index items (PyTorch `x.index({...})` with `TensorIndex`); the
        /// result shape is dynamic: `x.slice(&[SliceArg::Index(-1), SliceArg::range(1.., 2)])`.
        #[doc(alias = "slice_move", alias = "getitem")]
        slice, try_slice; slice_mut, try_slice_mut;
        [] [] (args: &[SliceArg]) -> DynShape where []
        errors "As [`apply_args`]."
        |l, _| apply_args(l, args)
    }
    {
        /// `transpose` with runtime axes (PyTorch `transpose(a, b)`, negative axes count from the
        /// end).
        #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
        #[allow(deprecated)]
        transpose_dyn, try_transpose_dyn; transpose_dyn_mut, try_transpose_dyn_mut;
        [] [] (a: isize, b: isize) -> DynShape where []
        errors "[`ShapeError::Axis`]."
        |l, r| l.transpose(normalize_axis(a, r)?, normalize_axis(b, r)?)
    }
    {
        @novar;
        /// `permute` with runtime axes (PyTorch `permute(axes)`).
        #[deprecated(note = "`permute` takes the axes as an array of `isize`: `x.permute([2, 0, 1])` (negatives count from the end)")]
        #[allow(deprecated)]
        permute_dyn, try_permute_dyn; permute_dyn_mut, try_permute_dyn_mut;
        [] [] (axes: &[usize]) -> DynShape where []
        errors "[`ShapeError::Permutation`] when `axes` is not a permutation of the dims."
        |l, _| l.permute(axes)
    }
    {
        /// `squeeze` with a runtime axis (PyTorch `squeeze(axis)`).
        #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
        #[allow(deprecated)]
        squeeze_dyn, try_squeeze_dyn; squeeze_dyn_mut, try_squeeze_dyn_mut;
        [] [] (axis: isize) -> DynShape where []
        errors "[`ShapeError::Axis`]; [`ShapeError::Squeeze`] when the dim is not 1."
        |l, r| l.squeeze(normalize_axis(axis, r)?)
    }
    {
        /// `unsqueeze` with a runtime axis (PyTorch `unsqueeze(axis)`: `0..=rank`, negative counts
        /// from the end).
        #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
        #[allow(deprecated)]
        unsqueeze_dyn, try_unsqueeze_dyn; unsqueeze_dyn_mut, try_unsqueeze_dyn_mut;
        [] [] (axis: isize) -> DynShape where []
        errors "[`ShapeError::InsertAxis`]; [`ShapeError::RankTooLarge`] for a rank-6 tensor."
        |l, r| l.unsqueeze(normalize_insert_axis(axis, r)?)
    }
    {
        /// `narrow` with a runtime axis (PyTorch `narrow(axis, start, len)`).
        #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
        #[allow(deprecated)]
        narrow_dyn, try_narrow_dyn; narrow_dyn_mut, try_narrow_dyn_mut;
        [] [] (axis: isize, start: isize, len: usize) -> DynShape where []
        errors "[`ShapeError::Axis`]; [`ShapeError::Range`] when the range leaves the dim."
        |l, r| l.narrow(normalize_axis(axis, r)?, start, len)
    }
    {
        /// `select` with a runtime axis (PyTorch `select(axis, index)`).
        #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
        #[allow(deprecated)]
        select_dyn, try_select_dyn; select_dyn_mut, try_select_dyn_mut;
        [] [] (axis: isize, index: isize) -> DynShape where []
        errors "[`ShapeError::Axis`]; [`ShapeError::Index`] when the index is out of bounds."
        |l, r| l.select(normalize_axis(axis, r)?, index)
    }
    {
        /// `flip` of several runtime axes (PyTorch `flip(dims)`, negative axes count from the
        /// end): a reversed view, never a copy.
        flip_dyn, try_flip_dyn; flip_dyn_mut, try_flip_dyn_mut;
        [] [] (axes: &[isize]) -> DynShape where []
        errors "[`ShapeError::Axis`]; [`ShapeError::Invalid`] when an axis appears twice."
        |l, _| l.flip_axes(axes)
    }
    {
        /// `movedim` with runtime axes (PyTorch `movedim(src, dst)`).
        #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
        #[allow(deprecated)]
        movedim_dyn, try_movedim_dyn; movedim_dyn_mut, try_movedim_dyn_mut;
        [] [] (src: isize, dst: isize) -> DynShape where []
        errors "[`ShapeError::Axis`]."
        |l, r| l.movedim(normalize_axis(src, r)?, normalize_axis(dst, r)?)
    }
    {
        /// `diagonal` with runtime axes, in PyTorch's argument order `diagonal(offset, dim1,
        /// dim2)`.
        #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
        #[allow(deprecated)]
        diagonal_dyn, try_diagonal_dyn; diagonal_dyn_mut, try_diagonal_dyn_mut;
        [] [] (offset: isize, dim1: isize, dim2: isize) -> DynShape where []
        errors "[`ShapeError::Axis`]; [`ShapeError::Invalid`] when the two axes are the same."
        |l, r| l.diagonal(normalize_axis(dim1, r)?, normalize_axis(dim2, r)?, offset)
    }
}

// The views whose mutable form could alias (expand) or that have none yet (view_dyn, unflatten_dyn;
// the typed unflatten is in reshape.rs, beside reshape and view).
view_ops! {
    shared
    {
        /// Broadcasts to the fully static shape `S2` without copying (PyTorch `expand`, NumPy
        /// `broadcast_to`): size-1 dims repeat with stride 0; new leading dims may be added.
        /// Checked at compile time. No mutable form: the repeated elements would alias.
        #[doc(alias = "broadcast")]
        expand, try_expand;
        [S2: AllStatic] [S2] () -> S2 where [S: ExpandShape<S2>]
        errors "[`ShapeError::Expand`] when a runtime dim of `self` is neither 1 nor its target."
        |l, _| {
            let (to, rank) = static_sizes::<S2>();
            l.expand(&to[..rank])
        }
    }
    {
        /// A view with runtime sizes, one of which may be `-1` (inferred): PyTorch `view(sizes)`.
        view_dyn, try_view_dyn;
        [] [] (sizes: &[isize]) -> DynShape where []
        errors "[`ShapeError::Reshape`] when the element counts differ; [`ShapeError::View`] when \
            the strides cannot express the sizes without a copy."
        |l, _| l.view(&l.infer_sizes(sizes)?)
    }
    {
        /// `expand` to runtime sizes (PyTorch `expand(sizes)`).
        expand_dyn, try_expand_dyn;
        [] [] (sizes: &[usize]) -> DynShape where []
        errors "[`ShapeError::Expand`] when a dim is neither 1 nor its target."
        |l, _| l.expand(sizes)
    }
    {
        /// `unflatten` with a runtime axis and sizes (PyTorch `unflatten(axis, sizes)`; one size
        /// may be `-1`, inferred). Always a view.
        #[deprecated(note = "`unflatten` takes an `isize` axis and `isize` sizes: `x.unflatten(1, [3, -1])`")]
        #[allow(deprecated)]
        unflatten_dyn, try_unflatten_dyn;
        [] [] (axis: isize, sizes: &[isize]) -> DynShape where []
        errors "[`ShapeError::Axis`]; [`ShapeError::Reshape`] when the sizes do not multiply to \
            the dim; [`ShapeError::Invalid`] for no sizes; [`ShapeError::RankTooLarge`]."
        |l, r| l.unflatten(normalize_axis(axis, r)?, sizes)
    }
}

/// The build-time check of `unfold(axis, Const::<SIZE>, Const::<STEP>)`: a positive step, and `SIZE` at most a
/// static dim `A`.
struct UnfoldCheck<S, X, M, const SIZE: usize, const STEP: usize>(core::marker::PhantomData<(S, X, M)>);
impl<S: UnfoldAxis<X, M, SIZE, STEP>, X, M, const SIZE: usize, const STEP: usize> UnfoldCheck<S, X, M, SIZE, STEP> {
    const FITS: () = {
        if STEP == 0 {
            ConstMsg::new().str("unfold: step = 0 (the step between windows must be positive)").fail()
        }
        if let Some(a) = <S as UnfoldAxis<X, M, SIZE, STEP>>::AT {
            if let Some((axis, n)) = static_dim::<S>(a) {
                if SIZE > n {
                    let m = ConstMsg::new().str("unfold: window size ").num(SIZE).str(" is larger than dimension ");
                    m.num(axis).str(" of size ").num(n).fail()
                }
            }
        }
    };
}

/// The build-time check of `windows::<W>`: each window size from 1 to its static dim.
struct WindowsCheck<S, W>(core::marker::PhantomData<(S, W)>);
impl<S: Shape, W: Shape> WindowsCheck<S, W> {
    const FITS: () = {
        let rank = match W::RANK {
            Some(r) => r,
            None => 0,
        };
        let mut i = 0;
        while i < rank {
            if let (Some(w), Some(n)) = (W::STATIC[i], S::STATIC[i]) {
                if w == 0 || w > n {
                    let m =
                        ConstMsg::new().str("windows: window ").shape(&W::STATIC, W::RANK).str(" does not fit shape ");
                    let m = m.shape(&S::STATIC, S::RANK).str(": window size ").num(w);
                    m.str(" at dimension ").num(i).str(" of size ").num(n).fail()
                }
            }
            i += 1;
        }
    };
}

// Sliding windows: read-only, since windows that overlap give two coordinates to one element.
view_ops! {
    shared
    {
        /// [`unfold`](Self::unfold) with a runtime axis, size and step (PyTorch `unfold(dim,
        /// size, step)`; a negative axis counts from the end): a [`DynShape`] view, read-only.
        unfold_dyn, try_unfold_dyn;
        [] [] (axis: isize, size: usize, step: usize) -> DynShape where []
        errors "[`ShapeError::Invalid`] naming the sizes when `size` is larger than the dim or \
            `step` is 0; [`ShapeError::Axis`]; [`ShapeError::RankTooLarge`] for a rank-6 tensor."
        |l, r| l.unfold(normalize_axis(axis, r)?, size, step)
    }
    {
        /// [`windows`](Self::windows) with runtime window sizes (one per dim, rank at most 3): a
        /// [`DynShape`] view, read-only.
        windows_dyn, try_windows_dyn;
        [] [] (window: &[usize]) -> DynShape where []
        errors "[`ShapeError::Invalid`] naming the sizes when `window` has another length than \
            the rank or a size is 0 or larger than its dim; [`ShapeError::RankTooLarge`] for a \
            rank above 3."
        |l, _| l.windows(window)
    }
}

// The typed window views, by hand so that the build-time check sits in each public form (a
// failure then names the user's call, once).
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// The windows of `SIZE` elements along `axis`, `STEP` apart, as a view (PyTorch
    /// `unfold(axis, SIZE, STEP)`; `size = Const::<SIZE>`, `step = Const::<STEP>`): the dim of
    /// size `n` becomes `(n - SIZE) / STEP + 1` and a last dim of `SIZE` is appended, so `[2, 7]`
    /// with `(Ax::<1>, Const::<3>, Const::<2>)` gives `[2, 3, 3]`, whose `[i, j, k]` is
    /// `x[i, 2 * j + k]`. That dim of the result is static when it is in the input (sizes in
    /// 0..=1024; a computed 1 is [`One`](crate::One)), `Dyn` otherwise (every dim `Dyn` for an
    /// `isize` axis). No copy;
    /// read-only (windows overlap when `STEP < SIZE`: writable storage never holds an
    /// overlapping layout). `SIZE` larger than a static dim, or `STEP = 0`, is an error when the
    /// program is built, naming the sizes.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Const, Shape, Tensor, TensorView};
    /// let x: Tensor<i32, Shape![5]> = Tensor::from([0, 1, 2, 3, 4]);
    /// let w: TensorView<'_, i32, Shape![3, 3]> = x.unfold(Ax::<0>, Const::<3>, Const::<1>);
    /// assert_eq!(w.to_vec(), [0, 1, 2, 1, 2, 3, 2, 3, 4]);
    /// ```
    ///
    /// # Panics
    /// With the message of the error of [`try_unfold`](Self::try_unfold).
    #[track_caller]
    #[doc(alias = "sliding_window_view")]
    pub fn unfold<const SIZE: usize, const STEP: usize, X, M, Y: Shape>(
        &self,
        axis: X,
        size: Const<SIZE>,
        step: Const<STEP>,
    ) -> ViewOf<'_, D, Y>
    where
        S: UnfoldAxis<X, M, SIZE, STEP, Out = Y>,
    {
        let _ = (size, step);
        let () = UnfoldCheck::<S, X, M, SIZE, STEP>::FITS;
        self.unfold_rt(<S as UnfoldAxis<X, M, SIZE, STEP>>::axis_index(&axis), SIZE, STEP).or_panic()
    }
    /// [`unfold`](Self::unfold), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the sizes when `SIZE` is larger than a `Dyn` dim at `axis`;
    /// for a runtime axis or a [`DynShape`] tensor [`ShapeError::Axis`] and
    /// [`ShapeError::RankTooLarge`].
    pub fn try_unfold<const SIZE: usize, const STEP: usize, X, M, Y: Shape>(
        &self,
        axis: X,
        size: Const<SIZE>,
        step: Const<STEP>,
    ) -> Result<ViewOf<'_, D, Y>, ShapeError>
    where
        S: UnfoldAxis<X, M, SIZE, STEP, Out = Y>,
    {
        let _ = (size, step);
        let () = UnfoldCheck::<S, X, M, SIZE, STEP>::FITS;
        self.unfold_rt(<S as UnfoldAxis<X, M, SIZE, STEP>>::axis_index(&axis), SIZE, STEP)
    }
    fn unfold_rt<S2: Shape>(&self, axis: isize, size: usize, step: usize) -> Result<ViewOf<'_, D, S2>, ShapeError> {
        Ok(self.derive(self.layout().unfold(self.ax(axis)?, size, step)?))
    }

    /// Every window of the static shape `W` as a view (ndarray `windows(W)`, NumPy
    /// `sliding_window_view(x, W)`): for `[n0, .., nk]` and `W = [w0, .., wk]` of the same rank
    /// (at most 3), `[n0 - w0 + 1, .., nk - wk + 1, w0, .., wk]`, the first dims static when the
    /// input's are. `[4, 5]` with `Shape![2, 3]` gives `[3, 3, 2, 3]`, whose `[i, j, a, b]` is
    /// `x[i + a, j + b]`. No copy; read-only (windows overlap). A window size of 0 or larger than
    /// a static dim is an error when the program is built, naming both shapes.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Shape, Tensor, TensorView};
    /// let x: Tensor<i32, Shape![3, 3]> = Tensor::from([[0, 1, 2], [3, 4, 5], [6, 7, 8]]);
    /// let w: TensorView<'_, i32, Shape![2, 2, 2, 2]> = x.windows::<Shape![2, 2]>();
    /// assert_eq!(w.select(Ax::<0>, 1).select(Ax::<0>, 1).to_vec(), [4, 5, 7, 8]);
    /// ```
    ///
    /// # Panics
    /// With the message of the error of [`try_windows`](Self::try_windows).
    #[track_caller]
    #[doc(alias = "sliding_window_view")]
    pub fn windows<W: AllStatic>(&self) -> ViewOf<'_, D, <S as WindowsShape<W>>::Out>
    where
        S: WindowsShape<W>,
    {
        let () = WindowsCheck::<S, W>::FITS;
        self.windows_rt::<W, _>().or_panic()
    }
    /// [`windows`](Self::windows), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the sizes when a window is larger than a `Dyn` dim.
    pub fn try_windows<W: AllStatic>(&self) -> Result<ViewOf<'_, D, <S as WindowsShape<W>>::Out>, ShapeError>
    where
        S: WindowsShape<W>,
    {
        let () = WindowsCheck::<S, W>::FITS;
        self.windows_rt::<W, _>()
    }
    fn windows_rt<W: Shape, S2: Shape>(&self) -> Result<ViewOf<'_, D, S2>, ShapeError> {
        let (w, rank) = static_sizes::<W>();
        Ok(self.derive(self.layout().windows(&w[..rank])?))
    }
}

/// Writable windows: only when they do not overlap (`STEP >= SIZE`), since writable storage never
/// holds a layout in which two coordinates reach one element.
impl<'a, T: Element, S: Shape> TensorViewMut<'a, T, S> {
    /// The layout of `unfold`, refused when its windows may overlap.
    fn unfold_disjoint(&self, axis: isize, size: usize, step: usize) -> Result<Layout, ShapeError> {
        let l = self.layout().unfold(self.ax(axis)?, size, step)?;
        if l.may_overlap() {
            return Err(ShapeError::Overlap { sizes: l.sizes().into(), strides: l.strides().into() });
        }
        Ok(l)
    }
    /// [`unfold`](TensorBase::unfold) as a mutable view (by value, keeping the lifetime), which
    /// writes through to the source: non-overlapping windows only (`STEP >= SIZE`), as
    /// chunks of `SIZE` elements `STEP` apart.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Const, Shape, Tensor};
    /// let mut x: Tensor<i32, Shape![6]> = Tensor::zeros();
    /// x.as_view_mut().unfold_mut(Ax::<0>, Const::<2>, Const::<3>).fill(7);
    /// assert_eq!(x.to_vec(), [7, 7, 0, 7, 7, 0]);
    /// ```
    ///
    /// # Panics
    /// With the message of the error of [`try_unfold_mut`](Self::try_unfold_mut).
    #[track_caller]
    pub fn unfold_mut<const SIZE: usize, const STEP: usize, X, M, Y: Shape>(
        self,
        axis: X,
        size: Const<SIZE>,
        step: Const<STEP>,
    ) -> TensorViewMut<'a, T, Y>
    where
        S: UnfoldAxis<X, M, SIZE, STEP, Out = Y>,
    {
        let _ = (size, step);
        let () = UnfoldCheck::<S, X, M, SIZE, STEP>::FITS;
        let l = self.unfold_disjoint(<S as UnfoldAxis<X, M, SIZE, STEP>>::axis_index(&axis), SIZE, STEP).or_panic();
        self.remap(l)
    }
    /// [`unfold_mut`](Self::unfold_mut), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::Overlap`] when the windows overlap (`STEP < SIZE` on a dim of more than
    /// one window); otherwise as [`try_unfold`](TensorBase::try_unfold).
    pub fn try_unfold_mut<const SIZE: usize, const STEP: usize, X, M, Y: Shape>(
        self,
        axis: X,
        size: Const<SIZE>,
        step: Const<STEP>,
    ) -> Result<TensorViewMut<'a, T, Y>, ShapeError>
    where
        S: UnfoldAxis<X, M, SIZE, STEP, Out = Y>,
    {
        let _ = (size, step);
        let () = UnfoldCheck::<S, X, M, SIZE, STEP>::FITS;
        let l = self.unfold_disjoint(<S as UnfoldAxis<X, M, SIZE, STEP>>::axis_index(&axis), SIZE, STEP)?;
        Ok(self.remap(l))
    }
    /// [`unfold_mut`](Self::unfold_mut) with a runtime axis, size and step: a [`DynShape`]
    /// mutable view.
    ///
    /// # Errors
    /// [`ShapeError::Overlap`] when the windows overlap; otherwise as
    /// [`try_unfold_dyn`](TensorBase::try_unfold_dyn).
    #[try_twin(doc = "[`unfold_mut`](Self::unfold_mut) with a runtime axis, size and step.")]
    pub fn try_unfold_dyn_mut(
        self,
        axis: isize,
        size: usize,
        step: usize,
    ) -> Result<TensorViewMut<'a, T, DynShape>, ShapeError> {
        let l = self.unfold_disjoint(axis, size, step)?;
        Ok(self.remap(l))
    }
}
