//! The views that may copy and the ones that cut a dim into several views, written by hand:
//! `reshape`/`view` into a typed target (one `_` dim inferred, as PyTorch's `-1`), the runtime
//! `reshape_dyn`, `flatten`/`flatten_range`, PyTorch's second name for `expand`
//! (`broadcast_to`, `expand_as`), and `chunk`/`split`. The zero-copy views of one result are in
//! `views.rs`.
use super::{TensorBase, TensorCow, ViewOf};
use crate::dim::Dyn;
use crate::error::{OrPanic, ShapeError};
use crate::kernels;
use crate::layout::{normalize_axis, Layout};
use crate::shape::*;
use crate::storage::{CowRepr, Data};
use alloc::vec::Vec;
use shaped_macros::try_twin;

// The views that may copy (reshape, flatten), PyTorch's second name for expand, and the ones
// that cut a dim into several views (chunk, split).
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// The same elements with the shape `S2` (PyTorch `reshape`): a view when the strides allow
    /// it, a contiguous copy otherwise. One `_` dim of `S2` is inferred from the element count,
    /// as PyTorch's `-1`, so static sizes survive: `[_, 16, 2, 2]` into `Shape![_, 64]` is
    /// `[n, 64]` with the 64 in the type.
    ///
    /// When `self`'s shape is fully static the element counts are compared when the program is
    /// built: `[6, 16, 2, 2]` into `[_, 7]` is a build error naming 384 and 7. With a run-time
    /// dim in `self` they are compared here, and the error names both shapes. `S2` must be a
    /// tuple shape with at most one `_`: for a run-time rank use
    /// [`reshape_dyn`](Self::reshape_dyn); to relabel dims without changing sizes,
    /// [`cast_shape`](Self::cast_shape).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor, TensorCow};
    ///
    /// let x: Tensor<f32, Shape![_, 16, 2, 2]> = Tensor::zeros_sized(&[6, 16, 2, 2]);
    /// let h: TensorCow<f32, Shape![_, 64]> = x.reshape::<Shape![_, 64]>();
    /// assert_eq!(h.sizes(), [6, 64]);
    /// let w: Tensor<f32, Shape![32, 64]> = Tensor::ones();
    /// let y: Tensor<f32, Shape![_, 32]> = h.matmul(&w.t()); // a forgotten `.t()` does not compile
    /// assert_eq!(y.sizes(), [6, 32]);
    /// ```
    ///
    /// # Panics
    /// With the message of [`try_reshape`](Self::try_reshape)'s error.
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
    /// [`ShapeError::Reshape`] naming both shapes (the `_` dim as `-1`) when `self` has a
    /// run-time dim and the element counts cannot match; [`ShapeError::Alloc`] when a copy is
    /// needed and cannot be allocated.
    pub fn try_reshape<S2: Shape>(&self) -> Result<TensorCow<'_, D::Elem, S2>, ShapeError>
    where
        S: ReshapeTo<S2>,
    {
        let () = NumelCheck::<S, S2>::OK;
        self.reshape_static()
    }
    /// The sizes of `S2` for this tensor: the type's when both shapes are fully static (the
    /// caller checked the counts), else the `_` dim inferred and the count checked here.
    fn reshape_sizes<S2: Shape>(&self) -> Result<([usize; MAX_RANK], usize), ShapeError>
    where
        S: ReshapeTo<S2>,
    {
        if NumelCheck::<S, S2>::BOTH_STATIC {
            Ok(static_sizes::<S2>())
        } else {
            let (mut to, rank) = reshape::request::<S2>();
            if const { S::NAMED && S2::NAMED } {
                reshape::fill_names::<S, S2>(&mut to[..rank], self.sizes());
            }
            let (sizes, r) = self.layout().infer_sizes_array(&to[..rank])?;
            if const { S::NAMED } {
                reshape::check_names_kept::<S, S2>(self.sizes(), &sizes[..r])?;
            }
            Ok((sizes, r))
        }
    }
    /// `reshape` to `S2`, whose static element counts the caller checked.
    fn reshape_static<S2: Shape>(&self) -> Result<TensorCow<'_, D::Elem, S2>, ShapeError>
    where
        S: ReshapeTo<S2>,
    {
        let (to, rank) = self.reshape_sizes::<S2>()?;
        self.reshape_to(&to[..rank])
    }

    /// The same elements with the shape `S2`, without copying (PyTorch `view`):
    /// `[2, 3] -> [3, 2]`, `[4, 6] -> [2, 2, 6]`, `[_, 16, 2, 2] -> [_, 64]`. One `_` dim of `S2`
    /// is inferred from the element count, as PyTorch's `-1`. The counts are compared as
    /// [`reshape`](Self::reshape) does: when the program is built for a fully static `self`
    /// (a mismatch names both shapes and counts), at run time otherwise.
    ///
    /// # Panics
    /// With the message of [`try_view`](Self::try_view)'s error.
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
    /// use [`reshape`](Self::reshape)); [`ShapeError::Reshape`] naming both shapes when `self`
    /// has a run-time dim and the element counts cannot match.
    pub fn try_view<S2: Shape>(&self) -> Result<ViewOf<'_, D, S2>, ShapeError>
    where
        S: ReshapeTo<S2>,
    {
        let () = NumelCheck::<S, S2>::OK;
        self.view_static()
    }
    /// `view` as `S2`, whose static element counts the caller checked (the layout checks the
    /// count again).
    fn view_static<S2: Shape>(&self) -> Result<ViewOf<'_, D, S2>, ShapeError>
    where
        S: ReshapeTo<S2>,
    {
        let (to, rank) = self.reshape_sizes::<S2>()?;
        Ok(self.derive(self.layout().view(&to[..rank])?))
    }

    /// Dim `axis` split into the dims `sizes` (PyTorch `unflatten(axis, sizes)`): `[2, 12]` with
    /// `(Ax::<1>, (Const::<3>, Const::<4>))` gives `[2, 3, 4]`. Always a view: splitting a dim
    /// never needs a copy. The sizes are a shape value, one of whose dims may be `Dyn` (its size
    /// inferred, as PyTorch's `-1`), or an array or slice of `isize` with at most one `-1`
    /// (`x.unflatten(1, [3, -1])`, PyTorch's spelling). With an `Ax::<N>` or a dim name and a
    /// shape value, the axis and the result rank (at most 6) are checked at compile time for
    /// tuple shapes and the sizes when the program is built where the dim is static (`[2, 12]`
    /// into `(Const::<5>, Dyn)` names 12 and 5; two `Dyn` sizes are refused); the result keeps
    /// the other dims' types and names. With an `isize` axis or runtime sizes everything is
    /// checked here and the result is a [`DynShape`].
    ///
    /// # Panics
    /// With the message of the error of [`try_unflatten`](Self::try_unflatten).
    #[track_caller]
    pub fn unflatten<X, M, U, Y: Shape>(&self, axis: X, sizes: U) -> ViewOf<'_, D, Y>
    where
        S: UnflattenAxis<X, M, U, Out = Y>,
    {
        let () = UnflattenCheck::<S, X, M, U>::OK;
        self.unflatten_checked::<X, M, U, Y>(&axis, &sizes).or_panic()
    }
    /// [`unflatten`](Self::unflatten), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::Reshape`] naming the requested sizes when dim `axis` is a run-time dim that
    /// they do not fit; [`ShapeError::Axis`] and [`ShapeError::RankTooLarge`] for a runtime axis,
    /// runtime sizes or a [`DynShape`] tensor; [`ShapeError::Invalid`] for more than 6 sizes.
    pub fn try_unflatten<X, M, U, Y: Shape>(&self, axis: X, sizes: U) -> Result<ViewOf<'_, D, Y>, ShapeError>
    where
        S: UnflattenAxis<X, M, U, Out = Y>,
    {
        let () = UnflattenCheck::<S, X, M, U>::OK;
        self.unflatten_checked::<X, M, U, Y>(&axis, &sizes)
    }
    /// `unflatten`, whose static sizes the caller checked (the layout checks every size again).
    fn unflatten_checked<X, M, U, Y: Shape>(&self, axis: &X, sizes: &U) -> Result<ViewOf<'_, D, Y>, ShapeError>
    where
        S: UnflattenAxis<X, M, U, Out = Y>,
    {
        let Some((sizes, k)) = <S as UnflattenAxis<X, M, U>>::sizes(sizes) else {
            return Err(ShapeError::Invalid("unflatten: more than 6 sizes".into()));
        };
        let a = normalize_axis(<S as UnflattenAxis<X, M, U>>::axis_index(axis), self.rank())?;
        let lay = self.layout().unflatten(a, &sizes[..k])?;
        // (A runtime axis or runtime sizes give a `DynShape`, which has no names to keep.)
        if const { S::NAMED && <S as UnflattenAxis<X, M, U>>::AT.is_some() } {
            reshape::check_names_kept::<S, Y>(self.sizes(), lay.sizes())?;
        }
        Ok(self.derive(lay))
    }

    /// Dim `axis`, a product dim `X×Y` ([`Prod`](crate::Prod), from [`flatten`](Self::flatten) or
    /// [`flatten_range`](Self::flatten_range)), split into its two factors `X` and `Y`: `[Batch×Seq,
    /// 384]` with `<0>` and the batch size gives `[Batch, Seq, 384]`, names and all. `outer` is
    /// the size of `X` (which must equal it when `X` is static); `Y`'s size is what the product
    /// leaves. Always a view. PyTorch `unflatten(axis, (outer, -1))`, with the two dims' types taken
    /// from the product. A dim `axis` that is not a product is a compile error; a nested product
    /// (`Prod<A, Prod<B, C>>`) comes apart one factor per call, or all at once with
    /// [`unflatten`](Self::unflatten) into static sizes.
    ///
    /// # Panics
    /// With the message of the error of [`try_unflatten_prod`](Self::try_unflatten_prod).
    #[track_caller]
    pub fn unflatten_prod<const A: isize>(
        &self,
        outer: usize,
    ) -> ViewOf<'_, D, <S as Unflatten<A, ProdParts<S, A>>>::Out>
    where
        S: RemoveAxis<A>,
        <S as RemoveAxis<A>>::Removed: SplitProd,
        S: Unflatten<A, ProdParts<S, A>>,
    {
        self.try_unflatten_prod::<A>(outer).or_panic()
    }
    /// [`unflatten_prod`](Self::unflatten_prod), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the sizes when `outer` is 0 or does not divide the
    /// product's size, or differs from the outer factor's static size, or the rest differs from
    /// the inner factor's static size; [`ShapeError::Axis`] for a runtime axis, or a [`DynShape`] tensor, whose rank has no such axis.
    pub fn try_unflatten_prod<const A: isize>(
        &self,
        outer: usize,
    ) -> Result<ViewOf<'_, D, <S as Unflatten<A, ProdParts<S, A>>>::Out>, ShapeError>
    where
        S: RemoveAxis<A>,
        <S as RemoveAxis<A>>::Removed: SplitProd,
        S: Unflatten<A, ProdParts<S, A>>,
    {
        type Parts<S, const A: isize> = ProdParts<S, A>;
        let a = normalize_axis(A, self.rank())?;
        let n = self.sizes()[a];
        let st = <Parts<S, A> as Shape>::STATIC;
        let pr = <Parts<S, A> as Shape>::PRODUCTS;
        let (fx, fy) = (st[0].or(pr[0]), st[1].or(pr[1]));
        let inner = n.checked_div(outer);
        let ok = matches!(inner, Some(y) if y * outer == n)
            && fx.is_none_or(|x| x == outer)
            && fy.is_none_or(|y| Some(y) == inner);
        if !ok {
            return Err(ShapeError::Invalid(alloc::format!(
                "unflatten_prod: dim {a} (size {n}) of {:?} does not split into an outer factor of size {outer}{}{}",
                self.sizes(),
                fx.map_or(alloc::string::String::new(), |x| alloc::format!(" (its type fixes {x})")),
                fy.map_or(alloc::string::String::new(), |y| alloc::format!(" and an inner factor of size {y}")),
            )));
        }
        let lay = self.layout().unflatten(a, &[outer as isize, -1])?;
        Ok(self.derive(lay))
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
    #[try_twin]
    pub fn try_reshape_dyn(&self, sizes: &[isize]) -> Result<TensorCow<'_, D::Elem, DynShape>, ShapeError> {
        let to = self.layout().infer_sizes(sizes)?;
        Layout::contiguous(&to)?;
        self.reshape_to(&to)
    }

    /// Every dim merged into one (PyTorch `flatten()`): `[2, 3, 4] -> [_]` (24 elements at run
    /// time; a rank-1 shape keeps its dim, a scalar becomes `[1]`). A view when the strides allow
    /// it (always for contiguous tensors), a contiguous copy otherwise, as
    /// [`reshape`](Self::reshape). The merged size is a run-time dim: stable Rust cannot compute
    /// a product of const generics as a type. To keep it static, name it:
    /// `x.reshape::<Shape![24]>()`, or `reshape::<Shape![_, 64]>()` for PyTorch's
    /// `x.reshape(n, -1)` (checked when the program is built for static sources).
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

    /// Dims `start..=end` merged into one (PyTorch `flatten(start_dim, end_dim)`, `end`
    /// inclusive): `[2, 3, 4, 5]` with `(Ax::<1>, Ax::<2>)` gives `[2, 3×4, 5]`, the merged dim
    /// a product ([`Prod`](crate::Prod); `12` at run time) that equals `Const<12>` where the next
    /// check needs it and that [`unflatten_prod`](Self::unflatten_prod) takes apart. A view when
    /// the strides allow it, a contiguous copy otherwise. The axes are `Ax::<N>` or dim names
    /// (checked at compile time for tuple shapes; the other dims keep their types and names), or
    /// `isize`s (PyTorch's `x.flatten(1, 2)`, checked at run time; the result a [`DynShape`]).
    ///
    /// # Errors
    /// For runtime axes or a [`DynShape`] tensor, [`ShapeError::Axis`] when an axis is out of
    /// range and [`ShapeError::Invalid`] when `start` comes after `end`; [`ShapeError::Alloc`]
    /// when a copy is needed and cannot be allocated.
    #[try_twin(doc = "Dims `start..=end` merged into one (PyTorch `flatten(start_dim, end_dim)`, `end` inclusive).")]
    pub fn try_flatten_range<X1, M1, X2, M2, Y: Shape>(
        &self,
        start: X1,
        end: X2,
    ) -> Result<TensorCow<'_, D::Elem, Y>, ShapeError>
    where
        S: FlattenAxes<X1, M1, X2, M2, Out = Y>,
    {
        let (a, b) = <S as FlattenAxes<X1, M1, X2, M2>>::axis_indices(&start, &end);
        self.flatten_between(a, b)
    }

    /// `flatten_range` with runtime axes (PyTorch `flatten(start_dim, end_dim)`, `end`
    /// inclusive, negative axes count from the end; a scalar flattens to `[1]`): a view when the
    /// strides allow it, a copy otherwise.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] when `start` comes after `end`;
    /// [`ShapeError::Alloc`] when a copy is needed and cannot be allocated.
    #[try_twin(
        doc = "`flatten_range` with runtime axes (PyTorch `flatten(start_dim, end_dim)`, `end` inclusive, negative axes count from the end."
    )]
    #[deprecated(note = "`flatten_range(start, end)` takes `isize` axes (PyTorch `flatten(start_dim, end_dim)`)")]
    #[allow(deprecated)]
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
    #[try_twin]
    pub fn try_expand_as<S2: Shape>(&self, other: &TensorBase<impl Data, S2>) -> Result<ViewOf<'_, D, S2>, ShapeError>
    where
        S: ExpandShape<S2>,
    {
        Ok(self.derive(self.layout().expand(other.sizes())?))
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
    /// Dim `axis` cut into views of the given section sizes, which must add up to it (PyTorch
    /// `split([s0, s1, ...], axis)`, NumPy `split` at the running sums): `[5, 2]` with `&[1, 4]`
    /// along `Ax::<0>` gives `[1, 2]` and `[4, 2]`. That dim of each view is `Dyn` (every dim,
    /// for an `isize` axis). No copy.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Shape, Tensor};
    /// let x: Tensor<i32, Shape![5]> = Tensor::from([1, 2, 3, 4, 5]);
    /// let p = x.split_sizes(&[2, 0, 3], Ax::<0>);
    /// assert_eq!((p[0].to_vec(), p[1].numel(), p[2].to_vec()), (vec![1, 2], 0, vec![3, 4, 5]));
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when the sections do not add up to the dim; for a runtime axis or a
    /// [`DynShape`] tensor also [`ShapeError::Axis`].
    #[allow(clippy::type_complexity)]
    #[try_twin]
    pub fn try_split_sizes<X, M, Y: Shape>(&self, sizes: &[usize], axis: X) -> Result<Vec<ViewOf<'_, D, Y>>, ShapeError>
    where
        S: ReplaceAxis<X, M, Dyn, Out = Y>,
    {
        self.sections(<S as ReplaceAxis<X, M, Dyn>>::axis_index(&axis), sizes)
    }
    /// [`try_split_sizes`](Self::try_split_sizes) with a runtime axis, as [`DynShape`] views.
    ///
    /// # Errors
    /// [`ShapeError::Axis`]; [`ShapeError::Invalid`] as [`try_split_sizes`](Self::try_split_sizes).
    #[try_twin]
    #[deprecated(
        note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)"
    )]
    #[allow(deprecated)]
    pub fn try_split_sizes_dyn(
        &self,
        sizes: &[usize],
        axis: isize,
    ) -> Result<Vec<ViewOf<'_, D, DynShape>>, ShapeError> {
        self.sections(axis, sizes)
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
/// with the axis argument (`Ax::<N>` or a name, checked at compile time for tuple shapes, or an
/// `isize`), `try_x_dyn` and `x_dyn` with a runtime axis and [`DynShape`] views.
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
            pub fn $try<X, M, Y: Shape>(&self, $by: usize, axis: X) -> Result<Vec<ViewOf<'_, D, Y>>, ShapeError>
            where
                S: ReplaceAxis<X, M, Dyn, Out = Y>,
            {
                self.pieces(<S as ReplaceAxis<X, M, Dyn>>::axis_index(&axis), $by, $chunk)
            }
            $(#[$m])*
            ///
            /// # Panics
            #[doc = concat!("With the message of the error of [`", stringify!($try), "`](Self::",
                stringify!($try), ").")]
            #[track_caller]
            pub fn $name<X, M, Y: Shape>(&self, $by: usize, axis: X) -> Vec<ViewOf<'_, D, Y>>
            where
                S: ReplaceAxis<X, M, Dyn, Out = Y>,
            {
                self.$try::<X, M, Y>($by, axis).or_panic()
            }
            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name),
                ") with a runtime axis (negative counts from the end), as [`DynShape`] views.\n\n\
                # Panics\nWith the message of the error of [`", stringify!($tdname), "`](Self::",
                stringify!($tdname), ").")]
            #[track_caller]
            #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
            #[allow(deprecated)]
            pub fn $dname(&self, $by: usize, axis: isize) -> Vec<ViewOf<'_, D, DynShape>> {
                self.$tdname($by, axis).or_panic()
            }
            #[doc = concat!("[`", stringify!($dname), "`](Self::", stringify!($dname),
                "), returning an error instead of panicking.\n\n# Errors\n[`ShapeError::Axis`]; ", $err)]
            #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` tensor; for a static one the dims are `Dyn`, and `.into_dyn()` gives a `DynShape`)")]
            #[allow(deprecated)]
            pub fn $tdname(&self, $by: usize, axis: isize) -> Result<Vec<ViewOf<'_, D, DynShape>>, ShapeError> {
                self.pieces(axis, $by, $chunk)
            }
        )*}
    };
}

pieces_ops! {
    /// Dim `axis` cut into at most `chunks` views of `ceil(n / chunks)` elements, the last one
    /// shorter (PyTorch `chunk(chunks, axis)`: a `[5, 2]` tensor in 3 chunks along `Ax::<0>`
    /// gives sizes 2, 2, 1; 6 elements in 4 chunks give 3 pieces of 2, as PyTorch; an empty dim
    /// gives `chunks` empty views). That dim of each view is `Dyn` (every dim, for an `isize`
    /// axis); the others keep their types and names. No copy.
    #[doc(alias = "axis_chunks_iter", alias = "array_split")]
    chunk, try_chunk, chunk_dyn, try_chunk_dyn (chunks), chunk = true,
    errors "[`ShapeError::Invalid`] when `chunks` is 0.";
    /// Dim `axis` cut into views of `size` elements, the last one possibly shorter (PyTorch
    /// `split(size, axis)`: `[5, 2]` split by 2 along `Ax::<0>` gives sizes 2, 2, 1; an empty dim
    /// gives one empty view). That dim of each view is `Dyn` (every dim, for an `isize` axis).
    /// No copy.
    split, try_split, split_dyn, try_split_dyn (size), chunk = false,
    errors "[`ShapeError::Invalid`] when `size` is 0 and the dim is not empty (as PyTorch).";
}
