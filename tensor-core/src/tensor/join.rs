//! Joining tensors: `cat` (PyTorch `torch.cat`) and `stack` (`torch.stack`), with static result
//! sizes when the inputs have them. Each copies its inputs into a new contiguous tensor through
//! the shape-erased copy kernel (`kernels::join`).
//!
//! | call | inputs | result |
//! |---|---|---|
//! | `x.cat(&y, Ax::<A>)` ([`Cat`]) | two tensors, any shapes that agree outside `A` | dim `A` is `Const<N + M>` when both are static (sums up to 1024), else `Dyn` |
//! | `Tensor::cat_all(&[&x, &y, ..], Ax::<A>)` | a slice of tensors of one shape type | dim `A` is `Dyn` |
//! | `Tensor::stack([&x, &y, ..], Ax::<A>)` ([`Stack`]) | an array of `K` tensors of one shape type | `Const<K>` inserted at `A` |
//! | `Tensor::stack_all(&[&x, &y, ..], Ax::<A>)` | a slice of tensors of one shape type | `Dyn` inserted at `A` |
//! | `Tensor::cat_all(&[..], axis)`, `Tensor::stack_all(&[..], axis)` | runtime axis | [`DynShape`] |
//!
//! `cat` and `stack` are trait methods ([`Cat`], [`Stack`]) rather than inherent ones so that
//! the axis is the only explicit generic argument: an inherent `cat::<A>` would also need the
//! right-hand shape and `stack::<A>` the array length spelled out (`::<A, _>`), because Rust
//! infers the remaining generic arguments of a function only when none is given.
use super::{Tensor, TensorBase};
use crate::dim::{Const, Dim, Dyn};
use crate::error::{OrPanic, ShapeError};
use crate::kernels;
use crate::layout::{normalize_axis, normalize_insert_axis, Layout};
use crate::shape::{cat_sizes, CatAxis, DynShape, ReplaceAxis, Shape, StackAxis};
use crate::storage::{Data, Element};
use alloc::vec::Vec;
use shaped_macros::try_twin;

/// The rank of the first operand, or 0 when there is none (the join then reports the empty list).
fn first_rank<D: Data, S: Shape>(xs: &[&TensorBase<D, S>]) -> usize {
    xs.first().map_or(0, |x| x.rank())
}

/// Checks the operands with [`cat_sizes`] and copies them into a new tensor of shape `SO` (the
/// static rule already computed it).
fn cat_layouts<T: Element, SO: Shape>(
    op: &'static str,
    inputs: &[(&[T], Layout)],
    axis: usize,
) -> Result<Tensor<T, SO>, ShapeError> {
    let (sizes, r) = cat_sizes(op, inputs.iter().map(|(_, l)| l.sizes()), axis)?;
    let out = Layout::contiguous(&sizes[..r])?;
    let data = kernels::join::cat(inputs, axis, &out)?;
    Ok(TensorBase::from_parts(data, out))
}

/// Stacking: every operand must have the same sizes; each gets a size-1 dim at `axis`
/// (`0..=rank`) and they are concatenated along it.
fn stack_layouts<T: Element, SO: Shape>(inputs: &[(&[T], Layout)], axis: usize) -> Result<Tensor<T, SO>, ShapeError> {
    let Some((_, first)) = inputs.first() else {
        return Err(ShapeError::Invalid("stack: expected a non-empty list of tensors".into()));
    };
    if let Some((_, l)) = inputs.iter().find(|(_, l)| l.sizes() != first.sizes()) {
        return Err(ShapeError::Mismatch {
            op: "stack",
            what: "differ: stack needs tensors of equal sizes".into(),
            lhs: first.sizes().into(),
            rhs: l.sizes().into(),
        });
    }
    let inputs = inputs.iter().map(|&(d, l)| Ok((d, l.unsqueeze(axis)?))).collect::<Result<Vec<_>, ShapeError>>()?;
    cat_layouts("stack", &inputs, axis)
}

/// The storage and layout of each operand.
fn parts<'a, T: Element, D: Data<Elem = T> + 'a, S: Shape>(
    xs: impl IntoIterator<Item = &'a TensorBase<D, S>>,
) -> Vec<(&'a [T], Layout)> {
    xs.into_iter().map(|x| (x.data.as_slice(), *x.layout())).collect()
}

/// `x.cat(&y, axis)`: concatenation of two tensors along `axis` (PyTorch `torch.cat([x, y],
/// axis)`), into a new contiguous tensor. Implemented for every pair of tensors and views with the
/// same element type; import it with `use shaped::Cat` (it is in the prelude). The axis is an
/// `Ax::<N>` or a dim name (static result types) or an `isize` (every dim of the result `Dyn`).
///
/// The shapes must have the same rank and equal dims outside `axis`: checked at compile time for
/// static dims (the error names both shapes), at run time for `Dyn` dims and [`DynShape`]. That dim
/// of the result is `Const<N + M>` when both are static: `[2, 3]` and `[4, 3]` along `Ax::<0>` give
/// `[6, 3]`. The sum goes through typenum and back to a `Const`, which covers totals up to 1024; a
/// larger static total is a compile error that suggests `Dyn`. When either is `Dyn`, so is the
/// result's. Either operand may be any strided view (a transpose, a reversed view).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Ax, Cat};
/// use shaped::{Shape, Tensor};
/// let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
/// let y: Tensor<f32, Shape![1, 3]> = Tensor::ones();
/// let z: Tensor<f32, Shape![3, 3]> = x.cat(&y, Ax::<0>);
/// assert_eq!(z.to_vec()[5..], [0., 1., 1., 1.]);
/// // A transposed, narrowed view: its dim 1 is `Dyn`, so the sum is too.
/// let w: Tensor<f32, Shape![3, _]> = z.cat(&z.t().narrow(Ax::<0>, 0, 2).t(), Ax::<1>);
/// assert_eq!(w.sizes(), [3, 5]);
/// ```
pub trait Cat<Rhs> {
    /// The element type.
    type Elem: Element;
    /// The left operand's shape.
    type LhsShape: Shape;
    /// The right operand's shape.
    type RhsShape: Shape;

    /// The concatenation along `axis` (see the [trait docs](Cat)): PyTorch `torch.cat([self,
    /// rhs], axis)`.
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] naming both shapes when runtime sizes differ outside the axis
    /// (`cat: [2, 3] and [2, 4] differ outside dimension 0`) or, for an `isize` axis or
    /// [`DynShape`], the ranks differ; [`ShapeError::Axis`] for a runtime axis out of range.
    fn try_cat<X, M, Y: Shape>(&self, rhs: &Rhs, axis: X) -> Result<Tensor<Self::Elem, Y>, ShapeError>
    where
        Self::LhsShape: CatAxis<X, M, Self::RhsShape, Out = Y>;

    /// [`try_cat`](Self::try_cat), panicking with the error's message.
    #[doc(alias = "concatenate", alias = "concat")]
    #[track_caller]
    fn cat<X, M, Y: Shape>(&self, rhs: &Rhs, axis: X) -> Tensor<Self::Elem, Y>
    where
        Self::LhsShape: CatAxis<X, M, Self::RhsShape, Out = Y>,
    {
        self.try_cat::<X, M, Y>(rhs, axis).or_panic()
    }
}

impl<D: Data, S: Shape, D2: Data<Elem = D::Elem>, S2: Shape> Cat<TensorBase<D2, S2>> for TensorBase<D, S> {
    type Elem = D::Elem;
    type LhsShape = S;
    type RhsShape = S2;

    fn try_cat<X, M, Y: Shape>(&self, rhs: &TensorBase<D2, S2>, axis: X) -> Result<Tensor<D::Elem, Y>, ShapeError>
    where
        S: CatAxis<X, M, S2, Out = Y>,
    {
        let a = normalize_axis(<S as CatAxis<X, M, S2>>::axis_index(&axis), self.rank())?;
        crate::shape::check_names_equal::<S, S2>(self.sizes(), rhs.sizes(), a)?;
        cat_layouts("cat", &[(self.data.as_slice(), *self.layout()), (rhs.data.as_slice(), *rhs.layout())], a)
    }
}

/// `Tensor::stack([&x, &y, &z], Ax::<A>)`: `K` tensors of one shape type stacked along a new `axis`
/// (PyTorch `torch.stack([x, y, z], A)`), into a new contiguous tensor with `Const<K>` inserted at
/// `axis` (`0..=rank`; the result has at most 6 dims). `K` is the array length, so no arithmetic is
/// involved. Import it with `use shaped::Stack` (it is in the prelude); [`Tensor::stack_all`] takes
/// a slice instead (a `Dyn` new dim).
///
/// Every input must have the same sizes: guaranteed by the type for static shapes, checked at run
/// time for `Dyn` dims and [`DynShape`]. The inputs may be views (any strides), all of one storage
/// kind (use `as_view()` to mix owned tensors and views).
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Ax, Stack};
/// use shaped::{Shape, Tensor};
/// let a = Tensor::from([1., 2.]);
/// let b = Tensor::from([3., 4.]);
/// let s: Tensor<f64, Shape![2, 2]> = Tensor::stack([&a, &b], Ax::<1>);
/// assert_eq!(s.to_vec(), [1., 3., 2., 4.]);
/// ```
pub trait Stack<Xs>: Sized {
    /// The element type.
    type Elem: Element;
    /// The inputs' shape.
    type ItemShape: Shape;
    /// The number of inputs as a dim: `Const<K>`.
    type Count: Dim;

    /// The stacked tensor (see the [trait docs](Stack)).
    ///
    /// # Errors
    /// [`ShapeError::Mismatch`] naming two inputs whose runtime sizes differ (`stack: [2, 3] and
    /// [2, 4] differ: stack needs tensors of equal sizes`); [`ShapeError::Invalid`] for no inputs;
    /// [`ShapeError::Axis`] or [`ShapeError::RankTooLarge`] for a [`DynShape`] axis out of range.
    fn try_stack<X, M, Y: Shape>(xs: Xs, axis: X) -> Result<Tensor<Self::Elem, Y>, ShapeError>
    where
        Self::ItemShape: StackAxis<X, M, Self::Count, Out = Y>;

    /// [`try_stack`](Self::try_stack), panicking with the error's message.
    #[track_caller]
    #[rustfmt::skip] // one line: the bound is what an error shows
    fn stack<X, M, Y: Shape>(xs: Xs, axis: X) -> Tensor<Self::Elem, Y> where Self::ItemShape: StackAxis<X, M, Self::Count, Out = Y> {
        Self::try_stack::<X, M, Y>(xs, axis).or_panic()
    }
}

impl<'a, T: Element, S: Shape, D: Data<Elem = T> + 'a, const K: usize> Stack<[&'a TensorBase<D, S>; K]>
    for Tensor<T, S>
{
    type Elem = T;
    type ItemShape = S;
    type Count = Const<K>;

    fn try_stack<X, M, Y: Shape>(xs: [&'a TensorBase<D, S>; K], axis: X) -> Result<Tensor<T, Y>, ShapeError>
    where
        S: StackAxis<X, M, Const<K>, Out = Y>,
    {
        let a = <S as StackAxis<X, M, Const<K>>>::axis_index(&axis);
        stack_layouts(&parts(xs), normalize_insert_axis(a, first_rank(&xs))?)
    }
}

impl<T: Element, S: Shape> Tensor<T, S> {
    /// Any number of tensors of one shape type concatenated along `axis` (PyTorch
    /// `torch.cat(xs, axis)`), into a new contiguous tensor whose dim at `axis` is `Dyn` (the
    /// count is only known at run time). The axis is an `Ax::<N>` or a dim name (the other dims
    /// keep their types) or an `isize` (every dim `Dyn`). Use [`Cat::cat`] for two tensors with a
    /// static result.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for an empty slice; [`ShapeError::Mismatch`] naming the first input
    /// and the first one whose runtime sizes differ outside the axis; [`ShapeError::Axis`] for a
    /// runtime axis, or a [`DynShape`] input, whose rank has no such axis.
    #[try_twin(alias = "concatenate", alias = "concat")]
    pub fn try_cat_all<X, M, Y: Shape>(
        xs: &[&TensorBase<impl Data<Elem = T>, S>],
        axis: X,
    ) -> Result<Tensor<T, Y>, ShapeError>
    where
        S: ReplaceAxis<X, M, Dyn, Out = Y>,
    {
        let a = <S as ReplaceAxis<X, M, Dyn>>::axis_index(&axis);
        cat_layouts("cat", &parts(xs.iter().copied()), normalize_axis(a, first_rank(xs).max(1))?)
    }

    /// Any number of tensors of one shape type stacked along a new axis at `axis` (PyTorch
    /// `torch.stack(xs, axis)`), into a new contiguous tensor with a `Dyn` dim inserted there
    /// (`Ax::<N>`, `0..=rank`; or an `isize`, every dim `Dyn`). Use [`Stack::stack`] with an
    /// array for a static count.
    ///
    /// # Errors
    /// As [`Stack::try_stack`].
    #[try_twin(alias = "stack")]
    pub fn try_stack_all<X, M, Y: Shape>(
        xs: &[&TensorBase<impl Data<Elem = T>, S>],
        axis: X,
    ) -> Result<Tensor<T, Y>, ShapeError>
    where
        S: StackAxis<X, M, Dyn, Out = Y>,
    {
        let a = <S as StackAxis<X, M, Dyn>>::axis_index(&axis);
        stack_layouts(&parts(xs.iter().copied()), normalize_insert_axis(a, first_rank(xs))?)
    }
}

impl<T: Element> Tensor<T, DynShape> {
    /// Runtime-axis `cat` (PyTorch `torch.cat(xs, axis)`, negative counts from the end) of tensors
    /// of any one shape type, as a [`DynShape`] tensor.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] for an empty slice; [`ShapeError::Axis`]; [`ShapeError::Mismatch`]
    /// as [`try_cat_all`](TensorBase::try_cat_all).
    #[try_twin(
        doc = "Runtime-axis `cat` (PyTorch `torch.cat(xs, axis)`, negative counts from the end) of tensors of any one shape type, as a [`DynShape`] tensor."
    )]
    #[deprecated(note = "`Tensor::cat_all(&xs, axis)` takes an `isize` axis (PyTorch `torch.cat(xs, dim)`)")]
    #[allow(deprecated)]
    pub fn try_cat_dyn<S: Shape>(xs: &[&TensorBase<impl Data<Elem = T>, S>], axis: isize) -> Result<Self, ShapeError> {
        let inputs = parts(xs.iter().copied());
        if inputs.is_empty() {
            return cat_layouts("cat", &inputs, 0);
        }
        cat_layouts("cat", &inputs, normalize_axis(axis, first_rank(xs))?)
    }
    /// Runtime-axis `stack` (PyTorch `torch.stack(xs, axis)`; the axis is in `-(rank + 1)..=rank`)
    /// of tensors of any one shape type, as a [`DynShape`] tensor.
    ///
    /// # Errors
    /// As [`Stack::try_stack`], and [`ShapeError::Axis`].
    #[try_twin(doc = "Runtime-axis `stack` (PyTorch `torch.stack(xs, axis)`.")]
    #[deprecated(note = "`Tensor::stack_all(&xs, axis)` takes an `isize` axis (PyTorch `torch.stack(xs, dim)`)")]
    #[allow(deprecated)]
    pub fn try_stack_dyn<S: Shape>(
        xs: &[&TensorBase<impl Data<Elem = T>, S>],
        axis: isize,
    ) -> Result<Self, ShapeError> {
        let inputs = parts(xs.iter().copied());
        if inputs.is_empty() {
            return stack_layouts(&inputs, 0);
        }
        stack_layouts(&inputs, normalize_insert_axis(axis, first_rank(xs))?)
    }

    /// NumPy's `hstack`/`vstack`/`dstack` (PyTorch's too): each operand made at least `rank`-D
    /// by `grow` (a layout of its sizes), then concatenated along `axis`.
    fn stack_nd<S: Shape>(
        op: &'static str,
        xs: &[&TensorBase<impl Data<Elem = T>, S>],
        grow: impl Fn(&Layout) -> Result<Layout, ShapeError>,
        axis: impl Fn(usize) -> usize,
    ) -> Result<Self, ShapeError> {
        let mut inputs = Vec::new();
        for x in xs {
            inputs.push((x.data.as_slice(), grow(x.layout())?));
        }
        let rank = inputs.first().map_or(0, |(_, l)| l.rank());
        cat_layouts(op, &inputs, axis(rank))
    }
    /// The operands side by side (NumPy and PyTorch `hstack`): concatenated along axis 1, or
    /// along axis 0 when they are 1-D (a rank-0 operand counts as `[1]`). A [`DynShape`] result;
    /// [`Cat::cat`] gives the typed one.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let (a, b) = (Tensor::from([[1, 2], [3, 4]]), Tensor::from([[5], [6]]));
    /// let h = Tensor::<i32, DynShape>::hstack(&[&a.as_dyn(), &b.as_dyn()]);
    /// assert_eq!((h.sizes(), h.to_vec()), (&[2, 3][..], vec![1, 2, 5, 3, 4, 6]));
    /// ```
    ///
    /// # Errors
    /// As [`try_cat_dyn`](Self::try_cat_dyn).
    #[try_twin]
    pub fn try_hstack<S: Shape>(xs: &[&TensorBase<impl Data<Elem = T>, S>]) -> Result<Self, ShapeError> {
        Self::stack_nd("hstack", xs, |l| at_least(l, 1, 0), |r| usize::from(r > 1))
    }
    /// The operands on top of each other (NumPy and PyTorch `vstack`, `row_stack`): made at
    /// least 2-D (`[N]` becomes `[1, N]`), then concatenated along axis 0. A [`DynShape`] result.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let v = Tensor::<i32, DynShape>::vstack(&[&Tensor::from([1, 2]), &Tensor::from([3, 4])]);
    /// assert_eq!((v.sizes(), v.to_vec()), (&[2, 2][..], vec![1, 2, 3, 4]));
    /// ```
    ///
    /// # Errors
    /// As [`try_cat_dyn`](Self::try_cat_dyn).
    #[doc(alias = "row_stack")]
    #[try_twin(alias = "row_stack")]
    pub fn try_vstack<S: Shape>(xs: &[&TensorBase<impl Data<Elem = T>, S>]) -> Result<Self, ShapeError> {
        Self::stack_nd("vstack", xs, |l| at_least(l, 2, 0), |_| 0)
    }
    /// The operands along a third axis (NumPy and PyTorch `dstack`): made at least 3-D (`[N]`
    /// becomes `[1, N, 1]`, `[M, N]` becomes `[M, N, 1]`), then concatenated along axis 2. A
    /// [`DynShape`] result.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{DynShape, Tensor};
    /// let d = Tensor::<i32, DynShape>::dstack(&[&Tensor::from([1, 2]), &Tensor::from([3, 4])]);
    /// assert_eq!((d.sizes(), d.to_vec()), (&[1, 2, 2][..], vec![1, 3, 2, 4]));
    /// ```
    ///
    /// # Errors
    /// As [`try_cat_dyn`](Self::try_cat_dyn).
    #[try_twin]
    pub fn try_dstack<S: Shape>(xs: &[&TensorBase<impl Data<Elem = T>, S>]) -> Result<Self, ShapeError> {
        Self::stack_nd("dstack", xs, |l| at_least(&at_least(l, 2, 0)?, 3, 2), |_| 2)
    }
}

/// `l` with size-1 dims inserted at `at` (0: in front, NumPy's `atleast_1d`/`atleast_2d`; 2:
/// after the two dims, `atleast_3d` of a matrix) until it has `rank` dims. A 1-D layout made
/// 3-D gets one in front first (the caller's `at_least(.., 2, 0)`), as NumPy's `atleast_3d`.
fn at_least(l: &Layout, rank: usize, at: usize) -> Result<Layout, ShapeError> {
    let mut l = *l;
    while l.rank() < rank {
        l = l.unsqueeze(at.min(l.rank()))?;
    }
    Ok(l)
}
