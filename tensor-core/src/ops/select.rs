//! Selection by index tensors and masks, as PyTorch: `index_select`, `gather`, `scatter`(`_`),
//! `masked_select`, `masked_fill`(`_`), `where_`, `nonzero` and `one_hot`. The front ends here
//! compute the result shape types and layouts and check the shapes; the loops are in
//! `kernels/gather.rs`.
//!
//! Index tensors have any integer element type ([`IndexElem`]). For the reading operations
//! (`index_select`, `gather`) **negative entries count from the end**, as in PyTorch's `x[idx]`
//! advanced indexing (PyTorch's `index_select` and `gather` themselves reject negative
//! entries); any entry outside the dim is a [`ShapeError::Index`] naming the entry, the dim and
//! its size, never clamped. The writing ones (`scatter_`, `scatter_value_` and the
//! `scatter_add_` family) take entries in `0..n` only, as PyTorch's: anything else, negative
//! entries included, is a [`ShapeError::IndexEntry`] naming the entry and its position in the
//! index.
//!
//! The axis is an argument in PyTorch's position (`Ax::<0>`, an `isize`, or a dim name; checked
//! at compile time for tuple shapes and `Ax`/names): `x.index_select(Ax::<0>, &i)`,
//! `x.gather(1, &i)`, in place `x.scatter_(Ax::<0>, &i, &src)`. `index_select` and `gather`
//! type their result from the index tensor, which may be a [`DynShape`] tensor (its rank checked
//! at run time). The `_dyn` forms are deprecated forwarders.
use crate::dim::{Const, Dyn};
use crate::element::ToIndex;
use crate::error::{OrPanic, ShapeError};
use crate::index::IndexElem;
use crate::kernels;
use crate::layout::{normalize_axis, Layout};
use crate::num::Num;
use crate::shape::{
    broadcast_sizes, Broadcast, BroadcastShape, DynShape, ExpandsTo, InsertDim, RankDim, SameRank, Shape,
};
use crate::shape::{HasAxis, ReplaceAxis, VectorShape, MAX_RANK};
use crate::storage::{Data, DataMut, Element};
use crate::tensor::{Tensor, TensorBase};
use alloc::format;
use shaped_macros::try_twin;

/// `axis` checked against `rank` (the typed forms' axis is already checked for tuple shapes).
pub(super) fn check_axis(axis: isize, rank: usize) -> Result<usize, ShapeError> {
    normalize_axis(axis, rank)
}

/// The layout of an index of runtime rank 0 or 1 as a 1-D index (rank 0: one entry), or the
/// error naming `op` and the index's sizes.
fn index_1d(op: &str, li: &Layout) -> Result<Layout, ShapeError> {
    match li.rank() {
        0 => li.unsqueeze(0),
        1 => Ok(*li),
        _ => Err(ShapeError::Invalid(format!("{op}: the index must have at most 1 dim, got sizes {:?}", li.sizes()))),
    }
}

/// `axis` checked against `rank`, then the index's layout as a 1-D index ([`index_1d`]): the
/// first checks, in this order, of every op that takes a 1-D index along an axis.
pub(super) fn axis_and_index_1d(
    op: &str,
    axis: isize,
    rank: usize,
    li: &Layout,
) -> Result<(usize, Layout), ShapeError> {
    let axis = check_axis(axis, rank)?;
    Ok((axis, index_1d(op, li)?))
}

/// `small` (the index) fits in `big` (`names`: what the two are): same rank, and no larger in any
/// dim but `except`.
fn check_fits(
    op: &'static str,
    names: (&str, &str),
    small: &[usize],
    big: &[usize],
    except: Option<usize>,
) -> Result<(), ShapeError> {
    let err = |what| Err(ShapeError::Mismatch { op, what, lhs: small.into(), rhs: big.into() });
    if small.len() != big.len() {
        return err(format!("({} and {} sizes) differ in rank", names.0, names.1));
    }
    for (d, (&s, &b)) in small.iter().zip(big).enumerate() {
        if s > b && Some(d) != except {
            return err(format!(
                "({} and {} sizes) do not fit: {} size {s} exceeds {b} in dimension {d}",
                names.0, names.1, names.0
            ));
        }
    }
    Ok(())
}

/// The checks of a `scatter` write along `axis` into a tensor of sizes `dst`, in this order: the
/// axis, then `index` fits `dst` outside `axis`, and fits in `src` when there is one. Returns
/// the axis, normalised.
pub(super) fn check_scatter(
    op: &'static str,
    axis: isize,
    dst: &[usize],
    index: &[usize],
    src: Option<&[usize]>,
) -> Result<usize, ShapeError> {
    let axis = check_axis(axis, dst.len())?;
    check_fits(op, ("index", "self"), index, dst, Some(axis))?;
    if let Some(src) = src {
        check_fits(op, ("index", "src"), index, src, None)?;
    }
    Ok(axis)
}

/// The forms of an in-place write at the positions of an index tensor along an axis
/// (`scatter_`, `scatter_value_`, `scatter_add_`, `scatter_reduce_`, `index_add_`,
/// `index_copy_`, `index_fill_`), which differ only in their operands: the tensors, written
/// `&TensorBase<_, Shape>` (`index` of [`IndexElem`] entries, the others of `self`'s elements),
/// then after a `;` the other parameters. Each form's attributes (docs, `try_twin`,
/// `deprecated`) go before its `fn`; a `where` clause adds bounds to every form written.
///
/// - `fn try_scatter_(&mut self, axis, index: .., src: ..) => scatter_at;` writes the const-axis
///   form, whose `axis` is an [`AxisArg`](crate::shape::AxisArg) `X` of `S`, handed to the
///   runtime-axis body `scatter_at` as an `isize`.
/// - `fn try_scatter_dyn_; fn scatter_at(&mut self, axis: isize, index: .., src: ..) { .. }`
///   writes the deprecated `_dyn` form, which forwards to `scatter_at`, and `scatter_at` with its
///   body, of one signature.
macro_rules! axis_write {
    () => {};
    (
        $(#[$meta:meta])*
        fn $try_m:ident(&mut self, $axis:ident, $index:ident: &TensorBase<_, $IS:ty>
            $(, $t:ident: &TensorBase<_, $TS:ty>)* $(; $($p:ident: $pt:ty),+)?) => $at:ident
        $(where $($bt:ty: $bb:path),+)?;
        $($rest:tt)*
    ) => {
        $(#[$meta])*
        pub fn $try_m<X, M>(
            &mut self,
            $axis: X,
            $index: &TensorBase<impl Data<Elem: IndexElem>, $IS>,
            $($t: &TensorBase<impl Data<Elem = D::Elem>, $TS>,)*
            $($($p: $pt,)+)?
        ) -> Result<(), ShapeError>
        where
            D: DataMut,
            $($($bt: $bb,)+)?
            S: HasAxis<X, M>,
        {
            self.$at(<S as HasAxis<X, M>>::axis_index(&$axis), $index, $($t,)* $($($p),+)?)
        }
        axis_write! { $($rest)* }
    };
    (
        $(#[$meta:meta])*
        fn $try_dyn:ident;
        $(#[$at_meta:meta])*
        fn $at:ident(&mut $s:ident, $axis:ident: isize, $index:ident: &TensorBase<_, impl Shape>
            $(, $t:ident: &TensorBase<_, impl Shape>)* $(; $($p:ident: $pt:ty),+)?)
        $(where $($bt:ty: $bb:path),+)? $body:block
        $($rest:tt)*
    ) => {
        // `try_twin`'s twin names `self` with the hygiene of the attribute: the `_dyn` form's
        // attributes go on as tokens made here, beside the `self` written here.
        axis_write! {
            @runtime [$(#[$meta])*] pub fn $try_dyn(&mut self, $axis, $index $(, $t)*; $($($p: $pt),+)?)
            [$($($bt: $bb),+)?] { self.$at($axis, $index, $($t,)* $($($p),+)?) }
        }
        axis_write! {
            @runtime [$(#[$at_meta])*] pub(crate) fn $at(&mut $s, $axis, $index $(, $t)*; $($($p: $pt),+)?)
            [$($($bt: $bb),+)?] $body
        }
        axis_write! { $($rest)* }
    };
    // A runtime-axis form: the deprecated `_dyn` form or the body `_at`.
    (
        @runtime [$($attr:tt)*] $vis:vis fn $name:ident(&mut $s:ident, $axis:ident, $index:ident $(, $t:ident)*;
            $($p:ident: $pt:ty),*) [$($bt:ty: $bb:path),*] $body:block
    ) => {
        $($attr)*
        $vis fn $name(
            &mut $s,
            $axis: isize,
            $index: &TensorBase<impl Data<Elem: IndexElem>, impl Shape>,
            $($t: &TensorBase<impl Data<Elem = D::Elem>, impl Shape>,)*
            $($p: $pt,)*
        ) -> Result<(), ShapeError>
        where
            D: DataMut,
            $($bt: $bb,)*
        $body
    };
}
pub(super) use axis_write;

/// `sizes` with dim `axis` set to `n`, as a row-major layout.
fn with_size(sizes: &[usize], axis: usize, n: usize) -> Result<Layout, ShapeError> {
    let mut s = [0; MAX_RANK];
    s[..sizes.len()].copy_from_slice(sizes);
    s[axis] = n;
    Layout::contiguous(&s[..sizes.len()])
}

/// The names of `where_`'s three operands checked pairwise (see
/// [`check_names`](crate::shape::check_names)).
#[inline(always)]
fn check_names3<A: Shape, B: Shape, C: Shape>(a: &[usize], b: &[usize], c: &[usize]) -> Result<(), ShapeError> {
    use crate::shape::check_names;
    check_names::<A, B>(a, b, 0)?;
    check_names::<A, C>(a, c, 0)?;
    check_names::<B, C>(b, c, 0)
}

/// The runtime part of `where_` (method and free function): broadcast `cond`, `x`, `y` in that
/// order, then select.
fn where_impl<T: Element, SO: Shape>(
    cond: (&[bool], &Layout),
    x: (&[T], &Layout),
    y: (&[T], &Layout),
) -> Result<Tensor<T, SO>, ShapeError> {
    let (s1, r1) = broadcast_sizes(cond.1.sizes(), x.1.sizes())?;
    let (s2, r2) = broadcast_sizes(&s1[..r1], y.1.sizes())?;
    let sizes = &s2[..r2];
    let (lc, lx, ly) = (cond.1.expand(sizes)?, x.1.expand(sizes)?, y.1.expand(sizes)?);
    let out = Layout::contiguous(sizes)?;
    let data = kernels::where_select(cond.0, &lc, x.0, &lx, y.0, &ly)?;
    Ok(TensorBase::from_parts(data, out))
}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// The slices of dim `axis` at the entries of the 1-D index `idx` (layout `li`), copied.
    fn index_select_impl<S2: Shape, I: IndexElem>(
        &self,
        axis: usize,
        idx: &[I],
        li: &Layout,
    ) -> Result<Tensor<D::Elem, S2>, ShapeError> {
        let ol = with_size(self.sizes(), axis, li.numel())?;
        let data = kernels::index_select(self.data.as_slice(), self.layout(), axis, idx, li, &ol)?;
        Ok(TensorBase::from_parts(data, ol))
    }

    /// The slices of `axis` at the positions in the 1-D `index`, copied (PyTorch
    /// `index_select(axis, index)`): input `[.., n, ..]` (dim `axis` of size `n`) with an index of
    /// shape `[K]` gives `[.., K, ..]`, where `K` stays static when the index's length is.
    /// Entries may repeat and come in any order; negative ones count from the end.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Shape, Tensor};
    /// let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[1, 2, 3], [4, 5, 6]]);
    /// let cols = x.index_select(Ax::<1>, &Tensor::from([2i64, 0, -1, 2]));
    /// let _: &Tensor<i32, Shape![2, 4]> = &cols;
    /// assert_eq!(cols.to_vec(), [3, 1, 3, 3, 6, 4, 6, 6]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Index`] for an entry outside `-n..n`; [`ShapeError::Axis`] when a
    /// [`DynShape`] input has no `axis` (tuple shapes check `axis` at compile time).
    #[try_twin(
        doc = "PyTorch `index_select(A, index)`, `[.., n, ..]` with `[K]` gives `[.., K, ..]`.",
        alias = "take",
        alias = "select"
    )]
    pub fn try_index_select<X, M, Y: Shape, SI: VectorShape>(
        &self,
        axis: X,
        index: &TensorBase<impl Data<Elem: IndexElem>, SI>,
    ) -> Result<Tensor<D::Elem, Y>, ShapeError>
    where
        S: ReplaceAxis<X, M, SI::Len, Out = Y>,
    {
        // A rank-0 index selects one slice, keeping the dim (as PyTorch).
        let a = <S as ReplaceAxis<X, M, SI::Len>>::axis_index(&axis);
        let (axis, li) = axis_and_index_1d("index_select", a, self.rank(), index.layout())?;
        self.index_select_impl(axis, index.data.as_slice(), &li)
    }

    /// PyTorch `index_select(axis, index)` with a runtime axis (negative counts from the end) and
    /// an index of any shape type whose runtime rank is 1 (or 0: one slice, the dim kept as size
    /// 1, as PyTorch): `[.., n, ..]` with `[k]` gives `[.., k, ..]` as a [`DynShape`] tensor.
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for an axis outside `-rank..rank`; [`ShapeError::Invalid`] when the
    /// index has more than one dim; [`ShapeError::Index`] for an entry outside `-n..n`.
    #[deprecated(
        note = "the axis argument takes an `isize` and the index may be a `DynShape` tensor: `index_select(axis, &index)` (`.into_dyn()` on the result gives a `DynShape`)"
    )]
    #[try_twin]
    pub fn try_index_select_dyn<SI: Shape>(
        &self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, SI>,
    ) -> Result<Tensor<D::Elem, DynShape>, ShapeError> {
        let (axis, li) = axis_and_index_1d("index_select", axis, self.rank(), index.layout())?;
        self.index_select_impl(axis, index.data.as_slice(), &li)
    }

    /// Picks along `axis` with an index of the same rank (PyTorch `gather(axis, index)`): for
    /// `A = 0`, `out[i][j][k] = self[index[i][j][k]][j][k]`. The result has the index's shape
    /// `SI`; outside dim `axis` the index may be smaller than the input (never larger). Negative
    /// entries count from the end.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Ax, Shape, Tensor};
    /// let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[1, 2, 3], [4, 5, 6]]);
    /// let g = x.gather(Ax::<1>, &Tensor::from([[2i64, 0], [-1, 1]]));
    /// assert_eq!(g.to_vec(), [3, 1, 6, 5]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] when the ranks differ (only possible with a [`DynShape`] side) or
    /// an index dim other than `axis` exceeds the input's; [`ShapeError::Index`] for the first entry
    /// (row-major) outside `-n..n`, `n` the size of dim `axis`; [`ShapeError::Axis`] when a
    /// [`DynShape`] input has no `axis`.
    #[try_twin(
        doc = "PyTorch `gather(A, index)`, the result has the index's shape.",
        alias = "take_along_axis",
        alias = "take_along_dim"
    )]
    pub fn try_gather<X, M, SI: SameRank<S>>(
        &self,
        axis: X,
        index: &TensorBase<impl Data<Elem: IndexElem>, SI>,
    ) -> Result<Tensor<D::Elem, SI>, ShapeError>
    where
        S: HasAxis<X, M>,
    {
        self.gather_at(<S as HasAxis<X, M>>::axis_index(&axis), index)
    }

    axis_write! {
        /// Writes `src` along `axis` at the positions in `index`, in place (PyTorch
        /// `scatter_(axis, index, src)`): for `A = 0`, `self[index[i][j]][j] = src[i][j]`. `index` and
        /// `src` have the rank of `self`; `src` is at least as large as `index` in every dim, and
        /// `index` no larger than `self` outside dim `axis`. Entries are in `0..n`, `n` the size of dim
        /// `axis` (negative ones are an error, as in PyTorch). When an index repeats a position, the
        /// last write in the index's row-major order wins (PyTorch leaves it unspecified). Every
        /// entry is checked before the first write: an error leaves `self` unchanged.
        ///
        /// # Errors
        /// [`ShapeError::Mismatch`] when a rank differs or a size does not fit as above;
        /// [`ShapeError::IndexEntry`] for the first entry (row-major) outside `0..n`, naming it and
        /// its position in `index`; [`ShapeError::Axis`] when a [`DynShape`] tensor has no `axis`.
        #[try_twin(
            doc = "PyTorch `scatter_(A, index, src)` in place.",
            copy = "PyTorch `torch.scatter(self, A, index, src)`, same shape as `self`.",
            copy_alias = "put_along_axis"
        )]
        fn try_scatter_(&mut self, axis, index: &TensorBase<_, impl SameRank<S>>,
            src: &TensorBase<_, impl SameRank<S>>) => scatter_at;
        /// Writes `value` along `axis` at the positions in `index`, in place (PyTorch
        /// `scatter_(axis, index, value)`): for `A = 0`, `self[index[i][j]][j] = value`. `index` has the
        /// rank of `self` and is no larger outside dim `axis`; entries are in `0..n` (negative ones are
        /// an error, as in PyTorch). An error leaves `self` unchanged.
        ///
        /// # Errors
        /// [`ShapeError::Mismatch`] when the ranks differ or an index dim other than `axis` exceeds
        /// `self`'s; [`ShapeError::IndexEntry`] for the first entry (row-major) outside `0..n`;
        /// [`ShapeError::Axis`] when a [`DynShape`] tensor has no `axis`.
        #[try_twin(
            doc = "PyTorch `scatter_(A, index, value)` in place.",
            copy = "PyTorch `torch.scatter(self, A, index, value)`."
        )]
        fn try_scatter_value_(&mut self, axis, index: &TensorBase<_, impl SameRank<S>>; value: D::Elem)
            => scatter_value_at;
    }

    /// The elements where the bool `mask` is true, in row-major order, as a 1-D tensor of
    /// runtime length (PyTorch `masked_select(mask)`): `self` and `mask` broadcast with each
    /// other (static shapes that cannot are a compile error), so `[2, 3]` with a `[3]` mask
    /// reads the mask once per row.
    ///
    /// # Errors
    /// [`ShapeError::Broadcast`] naming both shapes when runtime sizes do not broadcast.
    #[try_twin(doc = "PyTorch `masked_select(mask)`, a `[_]` tensor.")]
    pub fn try_masked_select<SM: Shape>(
        &self,
        mask: &TensorBase<impl Data<Elem = bool>, SM>,
    ) -> Result<Tensor<D::Elem, (Dyn,)>, ShapeError>
    where
        S: BroadcastShape<SM>,
    {
        let (sizes, r) = broadcast_sizes(self.sizes(), mask.sizes())?;
        let (ls, lm) = (self.layout().expand(&sizes[..r])?, mask.layout().expand(&sizes[..r])?);
        let data = kernels::masked_select(self.data.as_slice(), &ls, mask.data.as_slice(), &lm)?;
        let l = Layout::contiguous(&[data.len()])?;
        Ok(TensorBase::from_parts(data, l))
    }

    /// A copy of `self` with `value` where the bool `mask` is true (PyTorch
    /// `masked_fill(mask, value)`): same shape as `self`. The mask broadcasts to `self`'s shape
    /// (`[3]` or `[1, 3]` for a `[2, 3]` tensor); unlike PyTorch's out-of-place form, a mask
    /// larger than `self` is an error rather than a larger result (static shapes: a compile
    /// error).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let x: Tensor<f32, Shape![2, 2]> = Tensor::from([[1., 2.], [3., 4.]]);
    /// let y = x.masked_fill(&Tensor::from([false, true]), 0.);
    /// assert_eq!(y.to_vec(), [1., 0., 3., 0.]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Expand`] when runtime sizes of the mask do not broadcast to `self`'s.
    #[try_twin(doc = "PyTorch `masked_fill(mask, value)`, same shape as `self`.")]
    pub fn try_masked_fill<SM: ExpandsTo<S>>(
        &self,
        mask: &TensorBase<impl Data<Elem = bool>, SM>,
        value: D::Elem,
    ) -> Result<Tensor<D::Elem, S>, ShapeError> {
        let lm = mask.layout().expand(self.sizes())?;
        let data = kernels::masked_fill(self.data.as_slice(), self.layout(), mask.data.as_slice(), &lm, value)?;
        Ok(TensorBase::from_parts(data, Layout::contiguous(self.sizes())?))
    }

    /// Sets the elements where the bool `mask` is true to `value`, in place (PyTorch
    /// `masked_fill_(mask, value)`). The mask broadcasts to `self`'s shape. An error leaves
    /// `self` unchanged.
    ///
    /// # Errors
    /// [`ShapeError::Expand`] when runtime sizes of the mask do not broadcast to `self`'s.
    #[try_twin(doc = "PyTorch `masked_fill_(mask, value)`.")]
    pub fn try_masked_fill_<SM: ExpandsTo<S>>(
        &mut self,
        mask: &TensorBase<impl Data<Elem = bool>, SM>,
        value: D::Elem,
    ) -> Result<(), ShapeError>
    where
        D: DataMut,
    {
        let (ld, lm) = (*self.layout(), mask.layout().expand(self.sizes())?);
        kernels::masked_fill_inplace(self.data.as_mut_slice(), &ld, mask.data.as_slice(), &lm, value);
        Ok(())
    }

    /// `self` where `cond` is true, `other` elsewhere (PyTorch `torch.where(cond, self, other)`,
    /// also `self.where(cond, other)`): the three shapes broadcast together, in the order
    /// `cond`, `self`, `other`; the result has the broadcast shape
    /// `Broadcast<Broadcast<SC, S>, SO>`. Static shapes that cannot broadcast are a compile
    /// error. The free function [`where_`] takes the operands in PyTorch's order.
    ///
    /// # Errors
    /// [`ShapeError::Broadcast`] when runtime sizes do not broadcast (naming `cond`'s and
    /// `self`'s shapes, or their broadcast and `other`'s).
    #[allow(clippy::type_complexity)]
    #[try_twin(doc = "PyTorch `torch.where(cond, self, other)` with the broadcast shape.")]
    pub fn try_where_<SC, SO: Shape>(
        &self,
        cond: &TensorBase<impl Data<Elem = bool>, SC>,
        other: &TensorBase<impl Data<Elem = D::Elem>, SO>,
    ) -> Result<Tensor<D::Elem, Broadcast<Broadcast<SC, S>, SO>>, ShapeError>
    where
        SC: Shape + BroadcastShape<S>,
        Broadcast<SC, S>: BroadcastShape<SO>,
    {
        check_names3::<SC, S, SO>(cond.sizes(), self.sizes(), other.sizes())?;
        where_impl(
            (cond.data.as_slice(), cond.layout()),
            (self.data.as_slice(), self.layout()),
            (other.data.as_slice(), other.layout()),
        )
    }

    /// The coordinates of the elements that are not zero (`T::ZERO`; `true` for bool; NaN counts
    /// as nonzero), one row per element in row-major order (PyTorch `nonzero()`, NumPy
    /// `argwhere`): shape `[count, rank]`, with `count` known at run time and `rank` static for
    /// tuple shapes (`Shape![_, 2]` for a matrix; `[_, _]` for a [`DynShape`] input).
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[0, 5, 0], [7, 0, 1]]);
    /// let nz = x.nonzero(); // Tensor<i64, Shape![_, 2]>
    /// assert_eq!((nz.sizes(), nz.to_vec()), (&[3, 2][..], vec![0, 1, 1, 0, 1, 2]));
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Alloc`] when the result cannot be allocated.
    #[try_twin(doc = "The coordinates of the elements that are not zero (`T::ZERO`.", alias = "argwhere")]
    pub fn try_nonzero(&self) -> Result<Tensor<i64, (Dyn, <S as RankDim>::Rank)>, ShapeError>
    where
        S: RankDim,
    {
        let (data, count) = kernels::nonzero(self.data.as_slice(), self.layout())?;
        let l = Layout::contiguous(&[count, self.rank()])?;
        Ok(TensorBase::from_parts(data, l))
    }
}

/// `x` where `cond` is true, `y` elsewhere: PyTorch `torch.where(cond, x, y)`. The three shapes
/// broadcast together (in the order `cond`, `x`, `y`); the result has the broadcast shape
/// `Broadcast<Broadcast<SC, SX>, SY>`, and static shapes that cannot broadcast are a compile
/// error. Same as `x.try_where_(cond, y)`.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{try_where_, Shape, Tensor};
/// let cond = Tensor::from([[true], [false]]);                 // [2, 1]
/// let x: Tensor<f32, Shape![3]> = Tensor::from([1., 2., 3.]);
/// let y = Tensor::scalar(0.);                                 // []
/// let w = try_where_(&cond, &x, &y)?;                         // [2, 3]
/// assert_eq!(w.to_vec(), [1., 2., 3., 0., 0., 0.]);
/// # Ok::<(), shaped::ShapeError>(())
/// ```
///
/// # Errors
/// [`ShapeError::Broadcast`] when runtime sizes do not broadcast.
#[allow(clippy::type_complexity)]
pub fn try_where_<T: Element, SC, SX: Shape, SY: Shape>(
    cond: &TensorBase<impl Data<Elem = bool>, SC>,
    x: &TensorBase<impl Data<Elem = T>, SX>,
    y: &TensorBase<impl Data<Elem = T>, SY>,
) -> Result<Tensor<T, Broadcast<Broadcast<SC, SX>, SY>>, ShapeError>
where
    SC: Shape + BroadcastShape<SX>,
    Broadcast<SC, SX>: BroadcastShape<SY>,
{
    check_names3::<SC, SX, SY>(cond.sizes(), x.sizes(), y.sizes())?;
    where_impl((cond.data.as_slice(), cond.layout()), (x.data.as_slice(), x.layout()), (y.data.as_slice(), y.layout()))
}

/// [`try_where_`], panicking with the error's message: PyTorch `torch.where(cond, x, y)`, with
/// the broadcast shape of the three.
///
/// # Panics
/// When runtime sizes do not broadcast.
#[track_caller]
pub fn where_<T: Element, SC, SX: Shape, SY: Shape>(
    cond: &TensorBase<impl Data<Elem = bool>, SC>,
    x: &TensorBase<impl Data<Elem = T>, SX>,
    y: &TensorBase<impl Data<Elem = T>, SY>,
) -> Tensor<T, Broadcast<Broadcast<SC, SX>, SY>>
where
    SC: Shape + BroadcastShape<SX>,
    Broadcast<SC, SX>: BroadcastShape<SY>,
{
    try_where_(cond, x, y).or_panic()
}

/// One-hot encoding of class indices.
impl<D: Data, S: Shape> TensorBase<D, S>
where
    D::Elem: IndexElem,
{
    /// Each class index `i` of `self` becomes a row of `C` elements, one at `i` and zero
    /// elsewhere, in a new last dim (PyTorch `torch.nn.functional.one_hot(x, C)`): `[...]` of
    /// indices gives `[..., C]` of `T`, any numeric type (PyTorch gives `int64`;
    /// `x.one_hot::<10, f32>()` feeds a loss directly). A scalar gives `[C]`.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// let y: Tensor<i64, Shape![3]> = Tensor::from([2, 0, 1]);
    /// let h: Tensor<f32, Shape![3, 3]> = y.one_hot::<3, f32>();
    /// assert_eq!(h.to_vec(), [0., 0., 1., 1., 0., 0., 0., 1., 0.]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] naming the first index (row-major) outside `0..C` (negative
    /// indices are refused, as PyTorch's `one_hot` does); [`ShapeError::RankTooLarge`] for a
    /// rank-6 [`DynShape`] input; [`ShapeError::Overflow`], [`ShapeError::Alloc`].
    #[try_twin(
        doc = "Each class index `i` of `self` becomes a row of `C` elements, one at `i` and zero elsewhere, in a new last dim (PyTorch `torch.nn.functional.one_hot(x, C)`)."
    )]
    pub fn try_one_hot<const C: usize, T: Num>(
        &self,
    ) -> Result<Tensor<T, <S as InsertDim<-1, Const<C>>>::Out>, ShapeError>
    where
        S: InsertDim<-1, Const<C>>,
    {
        self.one_hot_into(C)
    }
    /// [`one_hot`](Self::one_hot) with the class count known at run time (PyTorch
    /// `one_hot(x, num_classes)`), as a [`DynShape`] tensor `[..., classes]`.
    ///
    /// # Errors
    /// As [`try_one_hot`](Self::try_one_hot).
    #[try_twin(
        doc = "[`one_hot`](Self::one_hot) with the class count known at run time (PyTorch `one_hot(x, num_classes)`), as a [`DynShape`] tensor `[..., classes]`."
    )]
    pub fn try_one_hot_dyn<T: Num>(&self, classes: usize) -> Result<Tensor<T, DynShape>, ShapeError> {
        self.one_hot_into(classes)
    }

    /// The one-hot rows of `self`'s indices over `classes` classes, shape `[..., classes]`.
    fn one_hot_into<T: Num, S2: Shape>(&self, classes: usize) -> Result<Tensor<T, S2>, ShapeError> {
        let rank = self.rank();
        let mut sizes = [0usize; MAX_RANK];
        if rank >= MAX_RANK {
            return Err(ShapeError::RankTooLarge { rank: rank + 1 });
        }
        sizes[..rank].copy_from_slice(self.sizes());
        sizes[rank] = classes;
        let layout = Layout::contiguous(&sizes[..=rank])?;
        let mut data = crate::memory::try_vec(layout.numel(), T::ZERO)?;
        for (k, &i) in self.iter().enumerate() {
            let (v, c) = (i.to_i128(), i.to_index());
            if v < 0 || c as usize >= classes {
                return Err(ShapeError::Invalid(format!(
                    "one_hot: class {v} (element {k} in row-major order) is outside 0..{classes}"
                )));
            }
            data[k * classes + c as usize] = T::ONE;
        }
        Ok(TensorBase::from_parts(data, layout))
    }
}

/// The runtime-axis forms of `gather`, `scatter` and `scatter` of one value, for
/// [`DynShape`] programs; the const-axis forms call these.
impl<D: Data, S: Shape> TensorBase<D, S> {
    /// [`try_gather`](Self::try_gather) along a runtime `axis` (negative counts from the end):
    /// PyTorch `gather(axis, index)`. The result has the index's shape type `SI`; its runtime
    /// rank must be `self`'s.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let x: Tensor<i32, DynShape> = Tensor::from([[1, 2, 3], [4, 5, 6]]).into_dyn();
    /// let g = x.gather_dyn(-1, &Tensor::from([[2i64, 0], [1, 1]]).into_dyn());
    /// assert_eq!((g.sizes(), g.to_vec()), (&[2, 2][..], vec![3, 1, 5, 5]));
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Axis`] naming the axis and the rank for an axis outside `-rank..rank`; the
    /// others as [`try_gather`](Self::try_gather).
    #[doc(alias = "take_along_axis", alias = "take_along_dim")]
    #[try_twin(alias = "take_along_axis", alias = "take_along_dim")]
    #[deprecated(note = "the axis argument takes an `isize`: `gather(axis, &index)`")]
    pub fn try_gather_dyn<SI: Shape>(
        &self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, SI>,
    ) -> Result<Tensor<D::Elem, SI>, ShapeError> {
        self.gather_at(axis, index)
    }

    /// The body of `try_gather` along a runtime axis (its deprecated `_dyn` form
    /// forwards here too).
    pub(crate) fn gather_at<SI: Shape>(
        &self,
        axis: isize,
        index: &TensorBase<impl Data<Elem: IndexElem>, SI>,
    ) -> Result<Tensor<D::Elem, SI>, ShapeError> {
        let axis = check_axis(axis, self.rank())?;
        check_fits("gather", ("index", "input"), index.sizes(), self.sizes(), Some(axis))?;
        let data = kernels::gather(self.data.as_slice(), self.layout(), axis, index.data.as_slice(), index.layout())?;
        Ok(TensorBase::from_parts(data, Layout::contiguous(index.sizes())?))
    }

    axis_write! {
        /// [`try_scatter_`](Self::try_scatter_) along a runtime `axis` (negative counts from the
        /// end): PyTorch `scatter_(axis, index, src)`. `index` and `src` may have any shape type;
        /// their runtime ranks must be `self`'s.
        ///
        /// ```
        /// # extern crate shaped_core as shaped;
        /// use shaped::{DynShape, Tensor};
        /// let mut x: Tensor<i32, DynShape> = Tensor::zeros_sized(&[2, 3]);
        /// x.scatter_dyn_(1, &Tensor::from([[2i64], [0]]), &Tensor::from([[7], [8]]));
        /// assert_eq!(x.to_vec(), [0, 0, 7, 8, 0, 0]);
        /// ```
        ///
        /// # Errors
        /// [`ShapeError::Axis`] naming the axis and the rank; the others as
        /// [`try_scatter_`](Self::try_scatter_). An error leaves `self` unchanged.
        #[try_twin(copy = "PyTorch `torch.scatter(self, axis, index, src)`.", copy_alias = "put_along_axis")]
        #[deprecated(
            note = "the axis argument takes an `isize` and the index a `DynShape` tensor: `scatter_(axis, &index, &src)`"
        )]
        fn try_scatter_dyn_;
        /// The body of `try_scatter_` along a runtime axis (its deprecated `_dyn` form
        /// forwards here too).
        fn scatter_at(&mut self, axis: isize, index: &TensorBase<_, impl Shape>, src: &TensorBase<_, impl Shape>) {
            let axis = check_scatter("scatter", axis, self.sizes(), index.sizes(), Some(src.sizes()))?;
            let ld = *self.layout();
            let (idx, li) = (index.data.as_slice(), index.layout());
            kernels::scatter(self.data.as_mut_slice(), &ld, axis, idx, li, src.data.as_slice(), src.layout())
        }

        /// [`try_scatter_value_`](Self::try_scatter_value_) along a runtime `axis` (negative counts
        /// from the end): PyTorch `scatter_(axis, index, value)`.
        ///
        /// ```
        /// # extern crate shaped_core as shaped;
        /// use shaped::{DynShape, Tensor};
        /// let mut x: Tensor<i32, DynShape> = Tensor::zeros_sized(&[2, 2]);
        /// x.scatter_value_dyn_(-2, &Tensor::from([[1i64, 0]]), 9);
        /// assert_eq!(x.to_vec(), [0, 9, 9, 0]);
        /// ```
        ///
        /// # Errors
        /// [`ShapeError::Axis`] naming the axis and the rank; the others as
        /// [`try_scatter_value_`](Self::try_scatter_value_). An error leaves `self` unchanged.
        #[try_twin(copy = "PyTorch `torch.scatter(self, axis, index, value)`.")]
        #[deprecated(
            note = "the axis argument takes an `isize` and the index a `DynShape` tensor: `scatter_value_(axis, &index, value)`"
        )]
        fn try_scatter_value_dyn_;
        /// The body of `try_scatter_value_` along a runtime axis (its deprecated `_dyn` form
        /// forwards here too).
        fn scatter_value_at(&mut self, axis: isize, index: &TensorBase<_, impl Shape>; value: D::Elem) {
            let axis = check_scatter("scatter", axis, self.sizes(), index.sizes(), None)?;
            let ld = *self.layout();
            kernels::scatter_value(self.data.as_mut_slice(), &ld, axis, index.data.as_slice(), index.layout(), value)
        }
    }
}
