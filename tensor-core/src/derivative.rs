//! Derivatives of small functions of inline tensors by forward-mode automatic differentiation:
//! [`jacobian`], [`gradient`] and [`hessian`] (PyTorch's `torch.func.jacfwd` / `jacrev`,
//! `torch.func.grad` and `torch.func.hessian`; num-dual's `jacobian`, `gradient`, `hessian`),
//! with the shapes in the types, in one pass, without allocation and in `no_std`.
//!
//! The function is written once over the element type [`Dual`] (a value and one tangent per
//! input element): every element-wise function, reduction, small matmul, `inv`/`solve`/`det` and
//! `t!` view of [`STensor`] works on duals unchanged, and each computes its derivatives exactly
//! (to round-off, not by finite differences). The input is seeded with one tangent per element,
//! so a function of `Shape![N]` takes an `STensor<Dual<T, N>, Shape![N]>`; the alias [`DualOf`]
//! names that element type for any input shape.
//!
//! A tensor of any static shape is flattened in row-major order: the Jacobian of a function from
//! `Shape![2, 3]` to `Shape![4]` is an `STensor<T, Shape![4, 6]>`, row `i` the derivatives of
//! output element `i` (row-major), column `j` with respect to input element `j` (row-major); it
//! is PyTorch's `jacrev(f)(x)` of shape `[4, 2, 3]` reshaped to `[4, 6]`.
//!
//! ```
//! # extern crate shaped_core as shaped;
//! use shaped::derivative::{jacobian, DualOf};
//! use shaped::{stensor, Shape, STensor};
//! // Polar to Cartesian: (r, θ) -> (r cos θ, r sin θ).
//! let f = |x: &STensor<DualOf<f64, Shape![2]>, Shape![2]>| {
//!     let [r, th] = *x.as_array();
//!     stensor([r * th.cos(), r * th.sin()])
//! };
//! # use shaped::derivative::Float;
//! let (y, j) = jacobian(f, &stensor([2.0, 0.5]));
//! assert_eq!(y.to_vec(), [2.0 * 0.5f64.cos(), 2.0 * 0.5f64.sin()]);
//! // [[cos θ, -r sin θ], [sin θ, r cos θ]]
//! assert_eq!(j.to_vec(), [0.5f64.cos(), -2.0 * 0.5f64.sin(), 0.5f64.sin(), 2.0 * 0.5f64.cos()]);
//! let _: STensor<f64, Shape![2, 2]> = j;
//! ```
//!
//! Cost: a function of `N` inputs runs once on duals of `N` tangents, about `N + 1` times the
//! work of the plain function (a Hessian, on duals of duals, about `(N + 1)²` times); the tensors
//! stay inline, so nothing is allocated. For many inputs and one output, the reverse-mode tape of
//! [`autograd`](crate::autograd) costs a few times the function whatever `N` is; see the guide
//! page on derivatives for how the two combine.
use crate::dim::{Const, One, ToConst};
use crate::error::OrPanic;
use crate::layout::{Layout, LayoutRepr};
use crate::shape::{static_sizes, AllStatic, NumelShape};
use crate::storage::{ArrLevel, Data, DataMut, Element, OutData};
use crate::tensor::{STensor, TensorBase};

/// num-traits' `Float` (`sin`, `exp`, `hypot`, ...), re-exported beside the duals that implement it.
pub use crate::num::Float;
pub use crate::num::{Dual, Real};

/// A dual number with a fixed count of tangents, built and read back by [`jacobian`] and
/// friends: [`Dual<T, N>`] (first derivatives) and `Dual<Dual<T, N>, N>` (second derivatives,
/// [`hessian`]).
pub trait Seed<T: Real>: Real {
    /// How many tangents.
    const LEN: usize;
    /// Input `i`: value `v`, every first-order tangent seeded with direction `i`.
    fn seed(v: T, i: usize) -> Self;
    /// The value.
    fn value(&self) -> T;
    /// The first derivative along direction `i`.
    fn first(&self, i: usize) -> T;
    /// The second derivative along directions `i` and `j` (0 for a first-order dual).
    fn second(&self, i: usize, j: usize) -> T;
}

impl<T: Real, const N: usize> Seed<T> for Dual<T, N> {
    const LEN: usize = N;
    #[inline(always)]
    fn seed(v: T, i: usize) -> Self {
        Dual::variable(v, i)
    }
    #[inline(always)]
    fn value(&self) -> T {
        self.re
    }
    #[inline(always)]
    fn first(&self, i: usize) -> T {
        self.eps[i]
    }
    #[inline(always)]
    fn second(&self, _: usize, _: usize) -> T {
        T::ZERO
    }
}
impl<T: Real, const N: usize> Seed<T> for Dual<Dual<T, N>, N> {
    const LEN: usize = N;
    /// `(v + εᵢ) + (δᵢⱼ)ⱼ ε'`: the inner and outer tangents both seeded along `i`, so the outer
    /// tangents' inner tangents are the second derivatives.
    #[inline(always)]
    fn seed(v: T, i: usize) -> Self {
        Dual {
            re: Dual::variable(v, i),
            eps: core::array::from_fn(|j| Dual::constant(if i == j { T::ONE } else { T::ZERO })),
        }
    }
    #[inline(always)]
    fn value(&self) -> T {
        self.re.re
    }
    #[inline(always)]
    fn first(&self, i: usize) -> T {
        self.re.eps[i]
    }
    #[inline(always)]
    fn second(&self, i: usize, j: usize) -> T {
        self.eps[j].eps[i]
    }
}

/// The dim of a static shape's element count: `Const<N>` (or [`One`] for one element), from
/// typenum's product of the sizes (element counts up to 1024).
pub trait FlatLen<T: Real> {
    /// `Dual<T, N>`.
    type Dual: Seed<T>;
    /// `Dual<Dual<T, N>, N>`.
    type Dual2: Seed<T>;
}
impl<T: Real, const N: usize> FlatLen<T> for Const<N> {
    type Dual = Dual<T, N>;
    type Dual2 = Dual<Dual<T, N>, N>;
}
impl<T: Real> FlatLen<T> for One {
    type Dual = Dual<T, 1>;
    type Dual2 = Dual<Dual<T, 1>, 1>;
}

/// A fully static shape whose elements a dual number can carry as tangents: its element count as
/// a dim ([`Len`](Flat::Len), `Const<N>`, or [`One`] for a single element, as `Shape![1]`
/// writes it) and the dual types with that many tangents. Every static shape of at most 1024
/// elements.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a static shape of at most 1024 elements",
    note = "derivatives take inline tensors (`STensor`) of fully static shapes"
)]
pub trait Flat<T: Real>: AllStatic {
    /// The element count as a dim.
    type Len: crate::dim::Dim;
    /// `Dual<T, numel>`: what [`jacobian`] and [`gradient`] pass the function.
    type Dual: Seed<T>;
    /// `Dual<Dual<T, numel>, numel>`: what [`hessian`] passes the function.
    type Dual2: Seed<T>;
}
impl<T: Real, S: AllStatic + NumelShape> Flat<T> for S
where
    S::Numel: ToConst,
    <S::Numel as ToConst>::Out: FlatLen<T>,
{
    type Len = <S::Numel as ToConst>::Out;
    type Dual = <<S::Numel as ToConst>::Out as FlatLen<T>>::Dual;
    type Dual2 = <<S::Numel as ToConst>::Out as FlatLen<T>>::Dual2;
}

/// The element type of a function that [`jacobian`] and [`gradient`] differentiate at an input of
/// shape `S`: `DualOf<f64, Shape![3]>` is `Dual<f64, 3>`, `DualOf<f64, Shape![2, 3]>` is
/// `Dual<f64, 6>`.
pub type DualOf<T, S> = <S as Flat<T>>::Dual;
/// The element type of a function that [`hessian`] differentiates at an input of shape `S`:
/// `Dual2Of<f64, Shape![3]>` is `Dual<Dual<f64, 3>, 3>`.
pub type Dual2Of<T, S> = <S as Flat<T>>::Dual2;
/// The Jacobian of a function from shape `SI` to shape `SO`: `[numel(SO), numel(SI)]`, both
/// flattened in row-major order.
pub type Jacobian<T, SO, SI> = STensor<T, (<SO as Flat<T>>::Len, <SI as Flat<T>>::Len)>;
/// The Hessian of a scalar function of shape `S`: `[numel(S), numel(S)]`.
pub type Hessian<T, S> = STensor<T, (<S as Flat<T>>::Len, <S as Flat<T>>::Len)>;

/// A new inline tensor of the static shape `S` whose row-major element `i` is `f(i)`.
#[inline(always)]
fn build<T: Element, S: AllStatic>(mut f: impl FnMut(usize) -> T) -> STensor<T, S> {
    let (sizes, rank) = static_sizes::<S>();
    let mut out =
        <<S::Arr<T> as ArrLevel>::Store as OutData<T>>::zeroed(crate::kernels::small::numel::<S>()).or_panic();
    for (i, o) in out.as_mut_slice().iter_mut().enumerate() {
        *o = f(i);
    }
    let lay = LayoutRepr::row_major::<S>(|| Layout::contiguous(&sizes[..rank])).or_panic();
    TensorBase::from_lay(out, lay)
}

/// The elements of an inline tensor in row-major order (its storage, always row-major).
#[inline(always)]
fn elems<T: Element, S: AllStatic>(x: &STensor<T, S>) -> &[T] {
    x.data.as_slice()
}

/// `x` with each element seeded as its own input (row-major position `i` along direction `i`).
#[inline(always)]
fn seeded<T: Real, E: Seed<T>, S: AllStatic>(x: &STensor<T, S>) -> STensor<E, S> {
    let xs = elems(x);
    build(|i| E::seed(xs[i], i))
}

/// The value and the Jacobian of `f` at `x` (PyTorch `torch.func.jacfwd(f)(x)`, equal to
/// `jacrev`; num-dual `jacobian`): `f` runs once, on `x` seeded with one tangent per element.
///
/// Shapes: `x: [..SI]`, `f(x): [..SO]`, the value `[..SO]` and the Jacobian
/// `[numel(SO), numel(SI)]`, both sides flattened in row-major order (PyTorch's `[..SO, ..SI]`
/// reshaped), its element `[i, j]` the derivative of output `i` with respect to input `j`.
/// Inline tensors of static shapes of at most 1024 elements each: no allocation.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::derivative::{jacobian, DualOf};
/// use shaped::{stensor, Shape, STensor};
/// // f(A) = A @ v for a 2x3 matrix A: the Jacobian [2, 6] has v on the block diagonal.
/// let v = stensor([1.0, 2.0, 3.0]);
/// let (y, j) = jacobian(
///     |a: &STensor<DualOf<f64, Shape![2, 3]>, Shape![2, 3]>| a.mv(&v.map(shaped::derivative::Dual::constant)),
///     &stensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]),
/// );
/// assert_eq!(y.to_vec(), [1.0, 2.0]);
/// assert_eq!(j.to_vec(), [1., 2., 3., 0., 0., 0., 0., 0., 0., 1., 2., 3.]);
/// ```
#[doc(alias = "jacfwd")]
#[doc(alias = "jacrev")]
pub fn jacobian<T, SI, SO, F>(f: F, x: &STensor<T, SI>) -> (STensor<T, SO>, Jacobian<T, SO, SI>)
where
    T: Real,
    SI: Flat<T>,
    SO: Flat<T>,
    (SO::Len, SI::Len): AllStatic,
    F: FnOnce(&STensor<SI::Dual, SI>) -> STensor<SI::Dual, SO>,
{
    let y = f(&seeded::<T, SI::Dual, SI>(x));
    let ys = elems(&y);
    let n = <SI::Dual as Seed<T>>::LEN;
    let value = build(|i| ys[i].value());
    let jac = build(|k| ys[k / n].first(k % n));
    (value, jac)
}

/// The value and the gradient of the scalar function `f` at `x` (PyTorch
/// `torch.func.grad_and_value(f)(x)`; num-dual `gradient`), by forward mode: `f` runs once, on
/// `x` seeded with one tangent per element. The gradient has `x`'s shape.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::derivative::{gradient, DualOf};
/// use shaped::{stensor, Shape, STensor};
/// // f(x) = Σ x² / 2 has gradient x.
/// let (v, g) = gradient(|x: &STensor<DualOf<f64, Shape![3]>, Shape![3]>| x.square().sum() / 2.0, &stensor([1.0, -2.0, 3.0]));
/// assert_eq!(v, 7.0);
/// assert_eq!(g.to_vec(), [1.0, -2.0, 3.0]);
/// ```
#[doc(alias = "grad")]
pub fn gradient<T, S, F>(f: F, x: &STensor<T, S>) -> (T, STensor<T, S>)
where
    T: Real,
    S: Flat<T>,
    F: FnOnce(&STensor<S::Dual, S>) -> S::Dual,
{
    let y = f(&seeded::<T, S::Dual, S>(x));
    (y.value(), build(|i| y.first(i)))
}

/// The value, the gradient and the Hessian of the scalar function `f` at `x` (PyTorch
/// `torch.func.hessian(f)(x)`; num-dual `hessian`): `f` runs once, on duals of duals
/// ([`Dual2Of`], `Dual<Dual<T, N>, N>`), both levels seeded with one tangent per element.
///
/// Shapes: `x: [..S]`, the gradient `[..S]`, the Hessian `[numel(S), numel(S)]` (flattened in
/// row-major order; PyTorch's `[..S, ..S]` reshaped), its element `[i, j]` the derivative along
/// input `i` of the derivative along input `j`.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::derivative::{hessian, Dual2Of};
/// use shaped::{stensor, Shape, STensor};
/// # use shaped::derivative::Float;
/// // f(x, y) = x² y + sin y.
/// let f = |v: &STensor<Dual2Of<f64, Shape![2]>, Shape![2]>| {
///     let [x, y] = *v.as_array();
///     x * x * y + y.sin()
/// };
/// let (_, g, h) = hessian(f, &stensor([3.0, 0.5]));
/// assert_eq!(g.to_vec(), [2.0 * 3.0 * 0.5, 9.0 + 0.5f64.cos()]);
/// assert_eq!(h.to_vec(), [2.0 * 0.5, 6.0, 6.0, -0.5f64.sin()]);
/// ```
pub fn hessian<T, S, F>(f: F, x: &STensor<T, S>) -> (T, STensor<T, S>, Hessian<T, S>)
where
    T: Real,
    S: Flat<T>,
    (S::Len, S::Len): AllStatic,
    F: FnOnce(&STensor<S::Dual2, S>) -> S::Dual2,
{
    let y = f(&seeded::<T, S::Dual2, S>(x));
    let n = <S::Dual2 as Seed<T>>::LEN;
    let g = build(|i| y.first(i));
    let h = build(|k| y.second(k / n, k % n));
    (y.value(), g, h)
}
