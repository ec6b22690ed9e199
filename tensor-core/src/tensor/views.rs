//! Views that never copy, each written once. The table in [`view_ops!`] lists every view method
//! (transpose, t, permute, squeeze, unsqueeze, narrow, select, flip, movedim, diagonal, slice,
//! view, expand, unflatten, and the `_dyn` forms taking runtime axes): its docs, its generics and
//! result shape, its errors, and the one expression that derives the new [`Layout`]. The macro
//! writes from each entry
//!
//! * on every tensor (`&self`): `try_x`, returning `Result<view, ShapeError>`, and `x`, which
//!   panics with the error's message;
//! * on a [`TensorViewMut`] (by value, keeping its lifetime, so calls chain:
//!   `x.t_mut().narrow_mut::<0>(0, 2)`, as ndarray's `slice_move`): `try_x_mut` and `x_mut`;
//! * on [`Tensor`] and [`SharedTensor`] (`&mut self`): `try_x_mut` and `x_mut`, forwarding to
//!   the view's through [`as_view_mut`](TensorBase::as_view_mut).
//!
//! Every mutable form addresses distinct elements of a non-overlapping source, so none can give
//! two coordinates to one element: `expand`, whose stride-0 dims would, and `view`/`unflatten`
//! have no mutable entry. Typed forms take their axes as const generics (negative counts from the
//! end), checked at compile time for tuple shapes; the `_dyn` forms take runtime axes and give
//! [`DynShape`] views.
//!
//! The views that may copy (`reshape`, `flatten`) and those that give several views (`chunk`,
//! `split`) follow the table, written by hand.
use super::{SharedTensor, Tensor, TensorBase, TensorCow, TensorViewMut, ViewOf};
use crate::dim::Dyn;
use crate::element::Element;
use crate::error::{ConstMsg, OrPanic, ShapeError};
use crate::index::{apply_args, SliceArg};
use crate::kernels;
use crate::layout::{normalize_axis, normalize_insert_axis, Layout};
use crate::shape::*;
use crate::storage::{CowRepr, Data};
use crate::tensor::literal::static_dim;
use alloc::vec::Vec;

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
    (mut $({
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
            $(#[$m])*
            ///
            /// # Panics
            #[doc = concat!("With the message of the error of [`", stringify!($try), "`](Self::",
                stringify!($try), "): ", $err)]
            #[track_caller]
            pub fn $name<$($g)*>(&self, $($arg: $ty),*) -> ViewOf<'_, D, $Out>
            where $($w)*
            {
                self.$try::<$($tf)*>($($arg),*).or_panic()
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

// The views that may be written through: every form.
view_ops! {
    mut
    {
        /// Swaps axes `A` and `B` (PyTorch `transpose(A, B)`): `[2, 3, 4]` with `<0, 2>` gives
        /// `[4, 3, 2]`. A view. Axes are checked at compile time for tuple shapes.
        #[doc(alias = "swap_axes", alias = "swapaxes")]
        transpose, try_transpose; transpose_mut, try_transpose_mut;
        [const A: isize, const B: isize] [A, B] () -> <S as SwapAxes<A, B>>::Out where [S: SwapAxes<A, B>]
        errors "[`ShapeError::Axis`] for a [`DynShape`] tensor whose rank has no such axis."
        |l, r| l.transpose(normalize_axis(A, r)?, normalize_axis(B, r)?)
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
        /// Reorders the axes (PyTorch `permute`): `x.permute::<Axes![2, 0, 1]>()` takes
        /// `[a, b, c]` to `[c, a, b]`. A view. The permutation is checked at compile time.
        #[doc(alias = "permuted_axes")]
        permute, try_permute; permute_mut, try_permute_mut;
        [P: PermuteShape<S>] [P] () -> P::Out where []
        errors "[`ShapeError::Permutation`] for a [`DynShape`] tensor of another rank."
        |l, r| l.permute(&P::AXES[..r])
    }
    {
        /// Removes axis `A`, which must have size 1 (PyTorch `squeeze(A)`): `[2, 1, 3]` with
        /// `<1>` gives `[2, 3]`. A view. Squeezing a static dim whose size is not 1 is a compile
        /// error.
        #[doc(alias = "remove_axis")]
        squeeze, try_squeeze; squeeze_mut, try_squeeze_mut;
        [const A: isize] [A] () -> <S as RemoveAxis<A>>::Out
            where [S: RemoveAxis<A>, <S as RemoveAxis<A>>::Removed: Squeezable<S, A>]
        errors "[`ShapeError::Squeeze`] when a runtime dim is not 1; [`ShapeError::Axis`] for a \
            [`DynShape`] tensor without axis `A`."
        |l, r| l.squeeze(normalize_axis(A, r)?)
    }
    {
        /// Inserts a size-1 axis at `A` (PyTorch `unsqueeze(A)`; `-1` appends): `[2, 3]` with
        /// `<1>` gives `[2, 1, 3]`. A view.
        #[doc(alias = "insert_axis", alias = "expand_dims")]
        unsqueeze, try_unsqueeze; unsqueeze_mut, try_unsqueeze_mut;
        [const A: isize] [A] () -> <S as InsertAxis<A>>::Out where [S: InsertAxis<A>]
        errors "[`ShapeError::InsertAxis`] or [`ShapeError::RankTooLarge`] for a [`DynShape`] \
            tensor whose rank has no insertion point `A` or is already 6."
        |l, r| l.unsqueeze(normalize_insert_axis(A, r)?)
    }
    {
        /// Keeps `len` elements of axis `A` from `start` (negative counts from the end): PyTorch
        /// `narrow(A, start, len)`. A view; the narrowed dim becomes `Dyn` (use `t!` for static
        /// bounds).
        #[doc(alias = "slice_axis", alias = "slice_axis_move")]
        narrow, try_narrow; narrow_mut, try_narrow_mut;
        [const A: isize] [A] (start: isize, len: usize) -> <S as SetAxis<A, Dyn>>::Out
            where [S: SetAxis<A, Dyn>]
        errors "[`ShapeError::Range`] when the range leaves the dim; [`ShapeError::Axis`] for a \
            [`DynShape`] tensor without axis `A`."
        |l, r| l.narrow(normalize_axis(A, r)?, start, len)
    }
    {
        /// The slice at `index` along axis `A`, which is removed (PyTorch `select(A, index)`;
        /// negative counts from the end): `x.select::<1>(0)` is the column `x[:, 0]`. A view.
        #[doc(alias = "index_axis", alias = "index_axis_move")]
        select, try_select; select_mut, try_select_mut;
        [const A: isize] [A] (index: isize) -> <S as RemoveAxis<A>>::Out where [S: RemoveAxis<A>]
        errors "[`ShapeError::Index`] when the index is out of bounds; [`ShapeError::Axis`] for a \
            [`DynShape`] tensor without axis `A`."
        |l, r| l.select(normalize_axis(A, r)?, index)
    }
    {
        /// Axis `A` reversed, as a view with a negative stride: `[[1, 2], [3, 4]]` flipped along
        /// `<1>` reads `[[2, 1], [4, 3]]`. Same shape. The axis is checked at compile time for
        /// tuple shapes; `t!(x[.., ..;-1])` is the same view.
        ///
        /// Mirrors PyTorch `flip(A)` with one deliberate difference: PyTorch's `flip` copies, this
        /// one never does (as NumPy's `flip`), so writes through the source show in the view.
        #[doc(alias = "invert_axis")]
        flip, try_flip; flip_mut, try_flip_mut;
        [const A: isize] [A] () -> S where [S: RemoveAxis<A>]
        errors "[`ShapeError::Axis`] for a [`DynShape`] tensor whose rank has no axis `A`."
        |l, r| l.flip(normalize_axis(A, r)?)
    }
    {
        /// Dim `SRC` moved to position `DST`, the others keeping their order (PyTorch
        /// `torch.movedim(x, SRC, DST)`): `[2, 3, 4]` with `<0, 2>` gives `[3, 4, 2]`. A view;
        /// the axes are checked at compile time for tuple shapes.
        #[doc(alias = "moveaxis")]
        movedim, try_movedim; movedim_mut, try_movedim_mut;
        [const SRC: isize, const DST: isize] [SRC, DST] () -> <S as MoveAxis<SRC, DST>>::Out
            where [S: MoveAxis<SRC, DST>]
        errors "[`ShapeError::Axis`] for a [`DynShape`] tensor whose rank has no such axis."
        |l, r| l.movedim(normalize_axis(SRC, r)?, normalize_axis(DST, r)?)
    }
    {
        /// The diagonal of dims `D1` and `D2` as a view (PyTorch `diagonal(offset, D1, D2)`):
        /// both dims are removed and the diagonal becomes a new last dim of length
        /// `min(n1, n2 - offset)` for `offset >= 0` (`min(n1 + offset, n2)` below it), `Dyn` in
        /// the type: `[3, 4]` with `<0, 1>` and offset 1 gives `[_]` = `[3]` (elements `(0, 1),
        /// (1, 2), (2, 3)`). An offset past the edge gives an empty diagonal, as in PyTorch. The
        /// axes are checked at compile time for tuple shapes (they must differ). Its elements are
        /// distinct, so the mutable form may be written (to set a matrix's diagonal).
        #[doc(alias = "diag")]
        diagonal, try_diagonal; diagonal_mut, try_diagonal_mut;
        [const D1: isize, const D2: isize] [D1, D2] (offset: isize) -> <S as DiagonalShape<D1, D2>>::Out
            where [S: DiagonalShape<D1, D2>]
        errors "[`ShapeError::Axis`] for a [`DynShape`] tensor whose rank has no such axes; \
            [`ShapeError::Invalid`] when `D1` and `D2` name the same axis."
        |l, r| l.diagonal(normalize_axis(D1, r)?, normalize_axis(D2, r)?, offset)
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
        transpose_dyn, try_transpose_dyn; transpose_dyn_mut, try_transpose_dyn_mut;
        [] [] (a: isize, b: isize) -> DynShape where []
        errors "[`ShapeError::Axis`]."
        |l, r| l.transpose(normalize_axis(a, r)?, normalize_axis(b, r)?)
    }
    {
        /// `permute` with runtime axes (PyTorch `permute(axes)`).
        permute_dyn, try_permute_dyn; permute_dyn_mut, try_permute_dyn_mut;
        [] [] (axes: &[usize]) -> DynShape where []
        errors "[`ShapeError::Permutation`] when `axes` is not a permutation of the dims."
        |l, _| l.permute(axes)
    }
    {
        /// `squeeze` with a runtime axis (PyTorch `squeeze(axis)`).
        squeeze_dyn, try_squeeze_dyn; squeeze_dyn_mut, try_squeeze_dyn_mut;
        [] [] (axis: isize) -> DynShape where []
        errors "[`ShapeError::Axis`]; [`ShapeError::Squeeze`] when the dim is not 1."
        |l, r| l.squeeze(normalize_axis(axis, r)?)
    }
    {
        /// `unsqueeze` with a runtime axis (PyTorch `unsqueeze(axis)`: `0..=rank`, negative counts
        /// from the end).
        unsqueeze_dyn, try_unsqueeze_dyn; unsqueeze_dyn_mut, try_unsqueeze_dyn_mut;
        [] [] (axis: isize) -> DynShape where []
        errors "[`ShapeError::InsertAxis`]; [`ShapeError::RankTooLarge`] for a rank-6 tensor."
        |l, r| l.unsqueeze(normalize_insert_axis(axis, r)?)
    }
    {
        /// `narrow` with a runtime axis (PyTorch `narrow(axis, start, len)`).
        narrow_dyn, try_narrow_dyn; narrow_dyn_mut, try_narrow_dyn_mut;
        [] [] (axis: isize, start: isize, len: usize) -> DynShape where []
        errors "[`ShapeError::Axis`]; [`ShapeError::Range`] when the range leaves the dim."
        |l, r| l.narrow(normalize_axis(axis, r)?, start, len)
    }
    {
        /// `select` with a runtime axis (PyTorch `select(axis, index)`).
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
        movedim_dyn, try_movedim_dyn; movedim_dyn_mut, try_movedim_dyn_mut;
        [] [] (src: isize, dst: isize) -> DynShape where []
        errors "[`ShapeError::Axis`]."
        |l, r| l.movedim(normalize_axis(src, r)?, normalize_axis(dst, r)?)
    }
    {
        /// `diagonal` with runtime axes, in PyTorch's argument order `diagonal(offset, dim1,
        /// dim2)`.
        diagonal_dyn, try_diagonal_dyn; diagonal_dyn_mut, try_diagonal_dyn_mut;
        [] [] (offset: isize, dim1: isize, dim2: isize) -> DynShape where []
        errors "[`ShapeError::Axis`]; [`ShapeError::Invalid`] when the two axes are the same."
        |l, r| l.diagonal(normalize_axis(dim1, r)?, normalize_axis(dim2, r)?, offset)
    }
}

// The views whose mutable form could alias (expand) or that have none yet (unflatten).
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
        /// Dim `A` split into the dims of the tuple shape `S2` (PyTorch `unflatten(A, sizes)`):
        /// `[2, 12]` with `<1, Shape![3, 4]>` gives `[2, 3, 4]`. One dim of `S2` may be `Dyn`
        /// (`_`): its size is inferred, as PyTorch's `-1`. Always a view: splitting a dim never
        /// needs a copy. The axis and the result rank (at most 6) are checked at compile time for
        /// tuple shapes; the product of the sizes is checked here.
        unflatten, try_unflatten;
        [const A: isize, S2: Shape] [A, S2] () -> <S as Unflatten<A, S2>>::Out where [S: Unflatten<A, S2>]
        errors "[`ShapeError::Reshape`] naming the requested shape when the sizes of `S2` do not \
            multiply to dim `A` (or `S2` has more than one `Dyn` dim); for a [`DynShape`] tensor \
            also [`ShapeError::Axis`], [`ShapeError::RankTooLarge`]."
        |l, r| {
            let sizes = S2::STATIC.map(|d| d.map_or(-1, |n| n as isize));
            l.unflatten(normalize_axis(A, r)?, &sizes[..S2::RANK.unwrap_or(0)])
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
        unflatten_dyn, try_unflatten_dyn;
        [] [] (axis: isize, sizes: &[isize]) -> DynShape where []
        errors "[`ShapeError::Axis`]; [`ShapeError::Reshape`] when the sizes do not multiply to \
            the dim; [`ShapeError::Invalid`] for no sizes; [`ShapeError::RankTooLarge`]."
        |l, r| l.unflatten(normalize_axis(axis, r)?, sizes)
    }
}

/// The build-time check of `unfold::<A, SIZE, STEP>`: a positive step, and `SIZE` at most a
/// static dim `A`.
struct UnfoldCheck<S, const A: isize, const SIZE: usize, const STEP: usize>(core::marker::PhantomData<S>);
impl<S: Shape, const A: isize, const SIZE: usize, const STEP: usize> UnfoldCheck<S, A, SIZE, STEP> {
    const FITS: () = {
        if STEP == 0 {
            ConstMsg::new().str("unfold: step = 0 (the step between windows must be positive)").fail()
        }
        if let Some((axis, n)) = static_dim::<S>(A) {
            if SIZE > n {
                let m = ConstMsg::new().str("unfold: window size ").num(SIZE).str(" is larger than dimension ");
                m.num(axis).str(" of size ").num(n).fail()
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
    /// The windows of `SIZE` elements along axis `A`, `STEP` apart, as a view (PyTorch
    /// `unfold(A, SIZE, STEP)`): dim `A` of size `n` becomes `(n - SIZE) / STEP + 1` and a last
    /// dim of `SIZE` is appended, so `[2, 7]` with `<1, 3, 2>` gives `[2, 3, 3]`, whose
    /// `[i, j, k]` is `x[i, 2 * j + k]`. Dim `A` of the result is static when it is in the input
    /// (sizes in 0..=1024; a computed 1 is [`One`](crate::One)), `Dyn` otherwise. No copy;
    /// read-only (windows overlap when `STEP < SIZE`: writable storage never holds an
    /// overlapping layout). `SIZE` larger than a static dim, or `STEP = 0`, is an error when the
    /// program is built, naming the sizes.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor, TensorView};
    /// let x: Tensor<i32, Shape![5]> = Tensor::from([0, 1, 2, 3, 4]);
    /// let w: TensorView<'_, i32, Shape![3, 3]> = x.unfold::<0, 3, 1>();
    /// assert_eq!(w.to_vec(), [0, 1, 2, 1, 2, 3, 2, 3, 4]);
    /// ```
    ///
    /// # Panics
    /// With the message of the error of [`try_unfold`](Self::try_unfold).
    #[track_caller]
    #[doc(alias = "sliding_window_view")]
    pub fn unfold<const A: isize, const SIZE: usize, const STEP: usize>(
        &self,
    ) -> ViewOf<'_, D, <S as UnfoldShape<A, SIZE, STEP>>::Out>
    where
        S: UnfoldShape<A, SIZE, STEP>,
    {
        let () = UnfoldCheck::<S, A, SIZE, STEP>::FITS;
        self.unfold_rt(A, SIZE, STEP).or_panic()
    }
    /// [`unfold`](Self::unfold), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the sizes when `SIZE` is larger than a `Dyn` dim `A`; for a
    /// [`DynShape`] tensor [`ShapeError::Axis`] and [`ShapeError::RankTooLarge`].
    pub fn try_unfold<const A: isize, const SIZE: usize, const STEP: usize>(
        &self,
    ) -> Result<ViewOf<'_, D, <S as UnfoldShape<A, SIZE, STEP>>::Out>, ShapeError>
    where
        S: UnfoldShape<A, SIZE, STEP>,
    {
        let () = UnfoldCheck::<S, A, SIZE, STEP>::FITS;
        self.unfold_rt(A, SIZE, STEP)
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
    /// use shaped::{Shape, Tensor, TensorView};
    /// let x: Tensor<i32, Shape![3, 3]> = Tensor::from([[0, 1, 2], [3, 4, 5], [6, 7, 8]]);
    /// let w: TensorView<'_, i32, Shape![2, 2, 2, 2]> = x.windows::<Shape![2, 2]>();
    /// assert_eq!(w.select::<0>(1).select::<0>(1).to_vec(), [4, 5, 7, 8]);
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
    /// use shaped::{Shape, Tensor};
    /// let mut x: Tensor<i32, Shape![6]> = Tensor::zeros();
    /// x.as_view_mut().unfold_mut::<0, 2, 3>().fill(7);
    /// assert_eq!(x.to_vec(), [7, 7, 0, 7, 7, 0]);
    /// ```
    ///
    /// # Panics
    /// With the message of the error of [`try_unfold_mut`](Self::try_unfold_mut).
    #[track_caller]
    pub fn unfold_mut<const A: isize, const SIZE: usize, const STEP: usize>(
        self,
    ) -> TensorViewMut<'a, T, <S as UnfoldShape<A, SIZE, STEP>>::Out>
    where
        S: UnfoldShape<A, SIZE, STEP>,
    {
        let () = UnfoldCheck::<S, A, SIZE, STEP>::FITS;
        let l = self.unfold_disjoint(A, SIZE, STEP).or_panic();
        self.remap(l)
    }
    /// [`unfold_mut`](Self::unfold_mut), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::Overlap`] when the windows overlap (`STEP < SIZE` on a dim of more than
    /// one window); otherwise as [`try_unfold`](TensorBase::try_unfold).
    pub fn try_unfold_mut<const A: isize, const SIZE: usize, const STEP: usize>(
        self,
    ) -> Result<TensorViewMut<'a, T, <S as UnfoldShape<A, SIZE, STEP>>::Out>, ShapeError>
    where
        S: UnfoldShape<A, SIZE, STEP>,
    {
        let () = UnfoldCheck::<S, A, SIZE, STEP>::FITS;
        let l = self.unfold_disjoint(A, SIZE, STEP)?;
        Ok(self.remap(l))
    }
    /// [`unfold_mut`](Self::unfold_mut) with a runtime axis, size and step: a [`DynShape`]
    /// mutable view.
    ///
    /// # Panics
    /// With the message of the error of [`try_unfold_dyn_mut`](Self::try_unfold_dyn_mut).
    #[track_caller]
    pub fn unfold_dyn_mut(self, axis: isize, size: usize, step: usize) -> TensorViewMut<'a, T, DynShape> {
        self.try_unfold_dyn_mut(axis, size, step).or_panic()
    }
    /// [`unfold_dyn_mut`](Self::unfold_dyn_mut), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::Overlap`] when the windows overlap; otherwise as
    /// [`try_unfold_dyn`](TensorBase::try_unfold_dyn).
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

// The views that may copy (reshape, flatten), PyTorch's second name for expand, and the ones
// that cut a dim into several views (chunk, split).
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// The same elements with the static shape `S2` (PyTorch `reshape`): a view when the strides
    /// allow it, a contiguous copy otherwise. Element counts are checked at compile time.
    ///
    /// # Panics
    /// When a copy is needed and cannot be allocated (see [`try_reshape`](Self::try_reshape)).
    #[track_caller]
    #[doc(alias = "into_shape_with_order", alias = "to_shape", alias = "into_shape")]
    pub fn reshape<S2: Shape>(&self) -> TensorCow<'_, D::Elem, S2>
    where
        S: ReshapeTo<S2>,
    {
        // Here and in each public form (which call the unchecked inner form, so that a failure
        // is reported once), naming the user's call.
        let () = NumelCheck::<S, S2>::OK;
        self.reshape_static().or_panic()
    }
    /// [`reshape`](Self::reshape), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::Alloc`] when a copy is needed and cannot be allocated.
    pub fn try_reshape<S2: Shape>(&self) -> Result<TensorCow<'_, D::Elem, S2>, ShapeError>
    where
        S: ReshapeTo<S2>,
    {
        let () = NumelCheck::<S, S2>::OK;
        self.reshape_static()
    }
    /// `reshape` to the static sizes of `S2`, whose element count the caller checked.
    fn reshape_static<S2: Shape>(&self) -> Result<TensorCow<'_, D::Elem, S2>, ShapeError> {
        let (to, rank) = static_sizes::<S2>();
        self.reshape_to(&to[..rank])
    }

    /// The same elements with the static shape `S2`, without copying (PyTorch `view`):
    /// `[2, 3] -> [3, 2]`, `[4, 6] -> [2, 2, 6]`. Both shapes must be fully static (a `_` dim is
    /// a compile error pointing at `reshape_dyn`); the element counts are compared when the
    /// program is built, for every static size, and a mismatch names both shapes and counts.
    ///
    /// # Panics
    /// When the strides cannot express `S2` (see [`try_view`](Self::try_view)).
    #[track_caller]
    pub fn view<S2: Shape>(&self) -> ViewOf<'_, D, S2>
    where
        S: ReshapeTo<S2>,
    {
        let () = NumelCheck::<S, S2>::OK;
        self.view_static().or_panic()
    }
    /// [`view`](Self::view), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::View`] when the strides cannot express `S2` (call `contiguous()` first, or
    /// use [`reshape`](Self::reshape)).
    pub fn try_view<S2: Shape>(&self) -> Result<ViewOf<'_, D, S2>, ShapeError>
    where
        S: ReshapeTo<S2>,
    {
        let () = NumelCheck::<S, S2>::OK;
        self.view_static()
    }
    /// `view` as the static sizes of `S2`, whose element count the caller checked (the layout
    /// checks it again).
    fn view_static<S2: Shape>(&self) -> Result<ViewOf<'_, D, S2>, ShapeError> {
        let (to, rank) = static_sizes::<S2>();
        Ok(self.derive(self.layout().view(&to[..rank])?))
    }

    /// A view with sizes `to` (same element count, checked by the caller) when the strides allow
    /// it, a contiguous copy otherwise.
    fn reshape_to<S2: Shape>(&self, to: &[usize]) -> Result<TensorCow<'_, D::Elem, S2>, ShapeError> {
        Ok(match self.layout().view(to) {
            Ok(l) => TensorBase::from_parts(CowRepr::Borrowed(self.data.as_slice()), l),
            Err(e) => {
                let out = Layout::contiguous(to)?;
                if out.numel() != self.numel() {
                    // The copy below holds `self.numel()` elements: never a layout over more.
                    return Err(e);
                }
                let data = kernels::to_vec(self.data.as_slice(), self.layout())?;
                TensorBase::from_parts(CowRepr::Owned(data.into()), out)
            }
        })
    }

    /// Runtime sizes with one optional `-1` (PyTorch `reshape(sizes)`): a view when possible,
    /// a copy otherwise.
    ///
    /// # Errors
    /// [`ShapeError::Reshape`] when the element counts differ.
    pub fn try_reshape_dyn(&self, sizes: &[isize]) -> Result<TensorCow<'_, D::Elem, DynShape>, ShapeError> {
        let to = self.layout().infer_sizes(sizes)?;
        Layout::contiguous(&to)?;
        self.reshape_to(&to)
    }
    /// [`try_reshape_dyn`](Self::try_reshape_dyn), panicking with the error's message.
    #[track_caller]
    pub fn reshape_dyn(&self, sizes: &[isize]) -> TensorCow<'_, D::Elem, DynShape> {
        self.try_reshape_dyn(sizes).or_panic()
    }

    /// Every dim merged into one (PyTorch `flatten()`): `[2, 3, 4] -> [_]` (24 elements at run
    /// time; a rank-1 shape keeps its dim, a scalar becomes `[1]`). A view when the strides allow
    /// it (always for contiguous tensors), a contiguous copy otherwise, as
    /// [`reshape`](Self::reshape).
    ///
    /// # Panics
    /// When a copy is needed and cannot be allocated.
    #[track_caller]
    #[doc(alias = "ravel")]
    pub fn flatten(&self) -> TensorCow<'_, D::Elem, <S as FlattenShape>::Out>
    where
        S: FlattenShape,
    {
        self.flatten_between(0, -1).or_panic()
    }

    /// Dims `START..=END` merged into one `Dyn` dim (PyTorch `flatten(START, END)`, `END`
    /// inclusive): `[2, 3, 4, 5]` with `<1, 2>` gives `[2, _, 5]`. A view when the strides allow
    /// it, a contiguous copy otherwise. The axes are checked at compile time for tuple shapes.
    ///
    /// # Panics
    /// With the message of the error of [`try_flatten_range`](Self::try_flatten_range).
    #[track_caller]
    pub fn flatten_range<const START: isize, const END: isize>(
        &self,
    ) -> TensorCow<'_, D::Elem, <S as FlattenRange<START, END>>::Out>
    where
        S: FlattenRange<START, END>,
    {
        self.try_flatten_range::<START, END>().or_panic()
    }
    /// [`flatten_range`](Self::flatten_range), returning an error instead of panicking.
    ///
    /// # Errors
    /// For a [`DynShape`] tensor, [`ShapeError::Axis`] when an axis is out of range and
    /// [`ShapeError::Invalid`] when `START` comes after `END`; [`ShapeError::Alloc`] when a copy
    /// is needed and cannot be allocated.
    pub fn try_flatten_range<const START: isize, const END: isize>(
        &self,
    ) -> Result<TensorCow<'_, D::Elem, <S as FlattenRange<START, END>>::Out>, ShapeError>
    where
        S: FlattenRange<START, END>,
    {
        self.flatten_between(START, END)
    }

    /// `flatten_range` with runtime axes (PyTorch `flatten(start_dim, end_dim)`, `end`
    /// inclusive, negative axes count from the end; a scalar flattens to `[1]`): a view when the
    /// strides allow it, a copy otherwise.
    ///
    /// # Panics
    /// With the message of the error of [`try_flatten_dyn`](Self::try_flatten_dyn).
    #[track_caller]
    pub fn flatten_dyn(&self, start: isize, end: isize) -> TensorCow<'_, D::Elem, DynShape> {
        self.try_flatten_dyn(start, end).or_panic()
    }
    /// [`flatten_dyn`](Self::flatten_dyn), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when `start` comes after `end`;
    /// [`ShapeError::Alloc`] when a copy is needed and cannot be allocated.
    pub fn try_flatten_dyn(&self, start: isize, end: isize) -> Result<TensorCow<'_, D::Elem, DynShape>, ShapeError> {
        self.flatten_between(start, end)
    }

    /// Dims `start..=end` merged into one (a scalar counts as rank 1).
    fn flatten_between<S2: Shape>(&self, start: isize, end: isize) -> Result<TensorCow<'_, D::Elem, S2>, ShapeError> {
        let r = self.rank().max(1);
        let (sizes, k) = self.layout().flatten_sizes(normalize_axis(start, r)?, normalize_axis(end, r)?)?;
        self.reshape_to(&sizes[..k])
    }

    /// PyTorch's other name for [`try_expand`](Self::try_expand) (`broadcast_to(shape)`): the same
    /// zero-copy broadcast to the fully static shape `S2`, with the same compile-time check.
    ///
    /// # Errors
    /// As [`try_expand`](Self::try_expand).
    pub fn try_broadcast_to<S2: AllStatic>(&self) -> Result<ViewOf<'_, D, S2>, ShapeError>
    where
        S: ExpandShape<S2>,
    {
        self.try_expand()
    }
    /// PyTorch's other name for [`expand`](Self::expand) (`torch.broadcast_to`).
    ///
    /// # Panics
    /// As [`expand`](Self::expand).
    #[track_caller]
    #[doc(alias = "broadcast")]
    pub fn broadcast_to<S2: AllStatic>(&self) -> ViewOf<'_, D, S2>
    where
        S: ExpandShape<S2>,
    {
        self.expand()
    }

    /// A view of `self` broadcast to `other`'s shape (PyTorch `expand_as(other)`): the result
    /// has `other`'s shape type; size-1 dims repeat with stride 0 and new leading dims may be
    /// added. Static shapes that cannot broadcast are a compile error. No copy; no mutable form
    /// (the repeated elements would alias).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let row: Tensor<i32, Shape![3]> = Tensor::from([1, 2, 3]);
    /// let m: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    /// assert_eq!(row.expand_as(&m).to_vec(), [1, 2, 3, 1, 2, 3]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Expand`] when a runtime dim of `self` is neither 1 nor `other`'s.
    pub fn try_expand_as<S2: Shape>(&self, other: &TensorBase<impl Data, S2>) -> Result<ViewOf<'_, D, S2>, ShapeError>
    where
        S: ExpandShape<S2>,
    {
        Ok(self.derive(self.layout().expand(other.sizes())?))
    }
    /// [`try_expand_as`](Self::try_expand_as), panicking with the error's message.
    #[track_caller]
    pub fn expand_as<S2: Shape>(&self, other: &TensorBase<impl Data, S2>) -> ViewOf<'_, D, S2>
    where
        S: ExpandShape<S2>,
    {
        self.try_expand_as(other).or_panic()
    }

    /// A view without every size-1 dim (PyTorch `squeeze()` without a dim, NumPy `squeeze`): a
    /// [`DynShape`] view, since which runtime dims are 1 is known only now
    /// ([`squeeze`](Self::squeeze) removes one typed dim). No copy.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let x: Tensor<f32, Shape![1, 3, 1, 2]> = Tensor::zeros();
    /// assert_eq!(x.squeeze_all().sizes(), &[3, 2]);
    /// ```
    pub fn squeeze_all(&self) -> ViewOf<'_, D, DynShape> {
        let mut l = *self.layout();
        for a in (0..l.rank()).rev() {
            if l.sizes()[a] == 1 {
                l = l.squeeze(a).expect("a size-1 dim of the layout");
            }
        }
        self.derive(l)
    }

    /// The views of dim `axis` of the given sizes, in order (PyTorch `split(sizes, dim)` with a
    /// list).
    fn sections<S2: Shape>(&self, axis: isize, sizes: &[usize]) -> Result<Vec<ViewOf<'_, D, S2>>, ShapeError> {
        let a = self.ax(axis)?;
        let n = self.sizes()[a];
        let total = sizes.iter().try_fold(0usize, |t, &k| t.checked_add(k));
        if total != Some(n) {
            return Err(ShapeError::Invalid(alloc::format!(
                "split: sections {sizes:?} do not add up to dimension {a} of size {n} (shape {:?})",
                self.sizes()
            )));
        }
        let mut out = kernels::try_with_capacity_uncached(sizes.len())?;
        let mut start = 0usize;
        for &k in sizes {
            out.push(self.derive(self.layout().narrow(a, start as isize, k)?));
            start += k;
        }
        Ok(out)
    }
    /// Dim `A` cut into views of the given section sizes, which must add up to it (PyTorch
    /// `split([s0, s1, ...], A)`, NumPy `split` at the running sums): `[5, 2]` with `&[1, 4]`
    /// along `<0>` gives `[1, 2]` and `[4, 2]`. Dim `A` of each view is `Dyn`. No copy.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let x: Tensor<i32, Shape![5]> = Tensor::from([1, 2, 3, 4, 5]);
    /// let p = x.split_sizes::<0>(&[2, 0, 3]);
    /// assert_eq!((p[0].to_vec(), p[1].numel(), p[2].to_vec()), (vec![1, 2], 0, vec![3, 4, 5]));
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when the sections do not add up to dim `A`; for a [`DynShape`]
    /// tensor also [`ShapeError::Axis`].
    #[allow(clippy::type_complexity)]
    pub fn try_split_sizes<const A: isize>(
        &self,
        sizes: &[usize],
    ) -> Result<Vec<ViewOf<'_, D, <S as SetAxis<A, Dyn>>::Out>>, ShapeError>
    where
        S: SetAxis<A, Dyn>,
    {
        self.sections(A, sizes)
    }
    /// [`try_split_sizes`](Self::try_split_sizes), panicking with the error's message.
    #[track_caller]
    pub fn split_sizes<const A: isize>(&self, sizes: &[usize]) -> Vec<ViewOf<'_, D, <S as SetAxis<A, Dyn>>::Out>>
    where
        S: SetAxis<A, Dyn>,
    {
        self.try_split_sizes::<A>(sizes).or_panic()
    }
    /// [`try_split_sizes`](Self::try_split_sizes) with a runtime axis, as [`DynShape`] views.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] as [`try_split_sizes`](Self::try_split_sizes).
    pub fn try_split_sizes_dyn(
        &self,
        sizes: &[usize],
        axis: isize,
    ) -> Result<Vec<ViewOf<'_, D, DynShape>>, ShapeError> {
        self.sections(axis, sizes)
    }
    /// [`try_split_sizes_dyn`](Self::try_split_sizes_dyn), panicking with the error's message.
    #[track_caller]
    pub fn split_sizes_dyn(&self, sizes: &[usize], axis: isize) -> Vec<ViewOf<'_, D, DynShape>> {
        self.try_split_sizes_dyn(sizes, axis).or_panic()
    }

    /// The views of dim `axis` cut by `chunk` or `split`.
    fn pieces<S2: Shape>(&self, axis: isize, by: usize, chunk: bool) -> Result<Vec<ViewOf<'_, D, S2>>, ShapeError> {
        let a = self.ax(axis)?;
        let ls = if chunk { self.layout().chunk(a, by)? } else { self.layout().split(a, by)? };
        let mut out = kernels::try_with_capacity_uncached(ls.len())?;
        out.extend(ls.into_iter().map(|l| self.derive(l)));
        Ok(out)
    }
}

/// `chunk` and `split`, which cut one dim into many views, each in four forms: `try_x` and `x`
/// with the axis as a const generic (checked at compile time for tuple shapes), `try_x_dyn` and
/// `x_dyn` with a runtime axis and [`DynShape`] views.
macro_rules! pieces_ops {
    ($(
        $(#[$m:meta])*
        $name:ident, $try:ident, $dname:ident, $tdname:ident ($by:ident), chunk = $chunk:literal,
        errors $err:literal;
    )*) => {
        impl<D: Data, S: Shape> TensorBase<D, S> {$(
            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name),
                "), returning an error instead of panicking.\n\n# Errors\n", $err,
                " For a [`DynShape`] tensor also [`ShapeError::Axis`].")]
            #[allow(clippy::type_complexity)]
            pub fn $try<const A: isize>(&self, $by: usize) -> Result<Vec<ViewOf<'_, D, <S as SetAxis<A, Dyn>>::Out>>, ShapeError>
            where
                S: SetAxis<A, Dyn>,
            {
                self.pieces(A, $by, $chunk)
            }
            $(#[$m])*
            ///
            /// # Panics
            #[doc = concat!("With the message of the error of [`", stringify!($try), "`](Self::",
                stringify!($try), ").")]
            #[track_caller]
            pub fn $name<const A: isize>(&self, $by: usize) -> Vec<ViewOf<'_, D, <S as SetAxis<A, Dyn>>::Out>>
            where
                S: SetAxis<A, Dyn>,
            {
                self.$try::<A>($by).or_panic()
            }
            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name),
                ") with a runtime axis (negative counts from the end), as [`DynShape`] views.\n\n\
                # Panics\nWith the message of the error of [`", stringify!($tdname), "`](Self::",
                stringify!($tdname), ").")]
            #[track_caller]
            pub fn $dname(&self, $by: usize, axis: isize) -> Vec<ViewOf<'_, D, DynShape>> {
                self.$tdname($by, axis).or_panic()
            }
            #[doc = concat!("[`", stringify!($dname), "`](Self::", stringify!($dname),
                "), returning an error instead of panicking.\n\n# Errors\n[`ShapeError::Axis`]; ", $err)]
            pub fn $tdname(&self, $by: usize, axis: isize) -> Result<Vec<ViewOf<'_, D, DynShape>>, ShapeError> {
                self.pieces(axis, $by, $chunk)
            }
        )*}
    };
}

pieces_ops! {
    /// Dim `A` cut into at most `chunks` views of `ceil(n / chunks)` elements, the last one
    /// shorter (PyTorch `chunk(chunks, A)`: a `[5, 2]` tensor in 3 chunks along `<0>` gives sizes
    /// 2, 2, 1; 6 elements in 4 chunks give 3 pieces of 2, as PyTorch; an empty dim gives `chunks`
    /// empty views). Dim `A` of each view is `Dyn`. No copy.
    #[doc(alias = "axis_chunks_iter", alias = "array_split")]
    chunk, try_chunk, chunk_dyn, try_chunk_dyn (chunks), chunk = true,
    errors "[`ShapeError::Invalid`] when `chunks` is 0.";
    /// Dim `A` cut into views of `size` elements, the last one possibly shorter (PyTorch
    /// `split(size, A)`: `[5, 2]` split by 2 along `<0>` gives sizes 2, 2, 1; an empty dim gives
    /// one empty view). Dim `A` of each view is `Dyn`. No copy.
    split, try_split, split_dyn, try_split_dyn (size), chunk = false,
    errors "[`ShapeError::Invalid`] when `size` is 0 and the dim is not empty (as PyTorch).";
}
