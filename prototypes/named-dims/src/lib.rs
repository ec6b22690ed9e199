//! Issue 50's prototype: runtime dims with names in the type, in a miniature of shaped's dims
//! (ranks 1-3 written by hand). Not the product: it answers whether the rules fit stable Rust
//! 1.95 without overlapping impls, what the errors look like, and what a name costs the checker.
//!
//! - [`Const<N>`], [`One`] and [`Dyn`] as in shaped; a **name** is a unit struct declared by
//!   [`dims!`] that is a runtime dim (its size lives in the tensor, as `Dyn`'s) and implements
//!   [`Name`].
//! - **Meeting dims** ([`Meet`]): equal static sizes, a `Dyn` with anything (checked at run
//!   time), `One` with anything (broadcast), a name with itself. Two different names, or a name
//!   and a static size, have no impl: a compile error naming both. The impls do not overlap
//!   because `Name` is this crate's trait and `Const`, `One`, `Dyn` are its types (rustc may
//!   reason that they do not implement it; a user's crate can implement `Name` only for its own
//!   types).
//! - **A name's position** ([`Find`]): one impl per position, each with its own marker type
//!   (`P0`, `P1`, `P2`), so that they never overlap; rustc infers the marker when exactly one
//!   position holds the name (frunk's `Selector` technique). Absent: no impl. Present twice: two
//!   impls apply and inference fails (E0283/E0284, "type annotations needed").
//! - **Products** ([`Prod<A, B>`]): `flatten` of two dims makes their product, `unflatten` takes
//!   it apart again by the names; a product of two static sizes meets a static size through a
//!   check at type-check time (typenum's product of the two sizes; the error names the three).
use core::fmt::Debug;
use core::marker::PhantomData;

/// A dim whose size `N` is part of the type.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Const<const N: usize>;
/// The size-1 dim that broadcasting stretches.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct One;
/// A runtime size without a name: meets any dim, checked at run time.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Dyn;
/// The product of two dims (`flatten`); `unflatten` takes it apart by the same dims.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Prod<A, B>(PhantomData<(A, B)>);

/// Every dim type.
pub trait Dim: Copy + Default + Debug + 'static {
    /// `Some(N)` for a static size.
    const STATIC: Option<usize>;
    /// The name, for error messages at run time.
    const NAME: &'static str;
}
impl<const N: usize> Dim for Const<N> {
    const STATIC: Option<usize> = Some(N);
    const NAME: &'static str = "static";
}
impl Dim for One {
    const STATIC: Option<usize> = Some(1);
    const NAME: &'static str = "1";
}
impl Dim for Dyn {
    const STATIC: Option<usize> = None;
    const NAME: &'static str = "_";
}
impl<A: Dim, B: Dim> Dim for Prod<A, B> {
    const STATIC: Option<usize> = match (A::STATIC, B::STATIC) {
        (Some(a), Some(b)) => Some(a * b),
        _ => None,
    };
    const NAME: &'static str = "product";
}

/// A named runtime dim (declared with [`dims!`]).
pub trait Name: Dim {}

/// Declares named runtime dims: `dims! { Batch, Seq }`.
#[macro_export]
macro_rules! dims {
    ($($(#[$m:meta])* $n:ident),* $(,)?) => {$(
        $(#[$m])*
        #[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
        pub struct $n;
        impl $crate::Dim for $n {
            const STATIC: Option<usize> = None;
            const NAME: &'static str = stringify!($n);
        }
        impl $crate::Name for $n {}
    )*};
}

/// Two dims that meet (element-wise operands, broadcasting, matmul's inner dims): the result's
/// dim. No impl for two different names, or a name and a static size.
#[diagnostic::on_unimplemented(
    message = "dims `{Self}` and `{Rhs}` cannot meet",
    label = "two different names, or a name and a static size",
    note = "a name meets itself, `Dyn` (checked at run time) and a broadcast `One`; rename one side with `rename::<..>()` if the two really are the same dim"
)]
pub trait Meet<Rhs> {
    /// The dim of the result.
    type Out: Dim;
}
#[diagnostic::do_not_recommend]
impl<const N: usize> Meet<Const<N>> for Const<N> {
    type Out = Const<N>;
}
#[diagnostic::do_not_recommend]
impl<const N: usize> Meet<Dyn> for Const<N> {
    type Out = Const<N>;
}
#[diagnostic::do_not_recommend]
impl<const N: usize> Meet<Const<N>> for Dyn {
    type Out = Const<N>;
}
#[diagnostic::do_not_recommend]
impl<const N: usize> Meet<One> for Const<N> {
    type Out = Const<N>;
}
#[diagnostic::do_not_recommend]
impl<const N: usize> Meet<Const<N>> for One {
    type Out = Const<N>;
}
#[diagnostic::do_not_recommend]
impl Meet<Dyn> for Dyn {
    type Out = Dyn;
}
#[diagnostic::do_not_recommend]
impl Meet<One> for One {
    type Out = One;
}
#[diagnostic::do_not_recommend]
impl Meet<Dyn> for One {
    type Out = Dyn;
}
#[diagnostic::do_not_recommend]
impl Meet<One> for Dyn {
    type Out = Dyn;
}
// Names: with themselves, `Dyn` and `One`.
#[diagnostic::do_not_recommend]
impl<A: Name> Meet<A> for A {
    type Out = A;
}
#[diagnostic::do_not_recommend]
impl<A: Name> Meet<Dyn> for A {
    type Out = A;
}
#[diagnostic::do_not_recommend]
impl<A: Name> Meet<A> for Dyn {
    type Out = A;
}
#[diagnostic::do_not_recommend]
impl<A: Name> Meet<One> for A {
    type Out = A;
}
#[diagnostic::do_not_recommend]
impl<A: Name> Meet<A> for One {
    type Out = A;
}
// Products: of the same factors (names kept), with `Dyn`, and of two static sizes with a static
// size (the sizes are checked at type-check time: `ProductIs`).
#[diagnostic::do_not_recommend]
impl<A: Dim, B: Dim> Meet<Prod<A, B>> for Prod<A, B> {
    type Out = Prod<A, B>;
}
#[diagnostic::do_not_recommend]
impl<A: Dim, B: Dim> Meet<Dyn> for Prod<A, B> {
    type Out = Prod<A, B>;
}
#[diagnostic::do_not_recommend]
impl<const A: usize, const B: usize, const N: usize> Meet<Const<N>> for Prod<Const<A>, Const<B>> {
    type Out = Const<N>;
}

/// A shape: a tuple of dims.
pub trait Shape: Copy + Default + Debug + 'static {
    /// The number of dims.
    const RANK: usize;
    /// The dims' static sizes (`None` for runtime ones) and names, for run-time checks.
    fn dims() -> Vec<(Option<usize>, &'static str)>;
}
impl<A: Dim> Shape for (A,) {
    const RANK: usize = 1;
    fn dims() -> Vec<(Option<usize>, &'static str)> {
        vec![(A::STATIC, A::NAME)]
    }
}
impl<A: Dim, B: Dim> Shape for (A, B) {
    const RANK: usize = 2;
    fn dims() -> Vec<(Option<usize>, &'static str)> {
        vec![(A::STATIC, A::NAME), (B::STATIC, B::NAME)]
    }
}
impl<A: Dim, B: Dim, C: Dim> Shape for (A, B, C) {
    const RANK: usize = 3;
    fn dims() -> Vec<(Option<usize>, &'static str)> {
        vec![(A::STATIC, A::NAME), (B::STATIC, B::NAME), (C::STATIC, C::NAME)]
    }
}

/// Element-wise operands of one rank: each pair of dims meets.
pub trait Broadcast<Rhs: Shape>: Shape {
    /// The result's shape.
    type Out: Shape;
}
impl<A0: Dim + Meet<B0>, B0: Dim> Broadcast<(B0,)> for (A0,) {
    type Out = (<A0 as Meet<B0>>::Out,);
}
impl<A0: Dim + Meet<B0>, A1: Dim + Meet<B1>, B0: Dim, B1: Dim> Broadcast<(B0, B1)> for (A0, A1) {
    type Out = (<A0 as Meet<B0>>::Out, <A1 as Meet<B1>>::Out);
}
impl<A0: Dim + Meet<B0>, A1: Dim + Meet<B1>, A2: Dim + Meet<B2>, B0: Dim, B1: Dim, B2: Dim> Broadcast<(B0, B1, B2)>
    for (A0, A1, A2)
{
    type Out = (<A0 as Meet<B0>>::Out, <A1 as Meet<B1>>::Out, <A2 as Meet<B2>>::Out);
}

/// Batched matrix products of rank 3: the batch dims meet, and the inner dims meet.
pub trait MatMul<Rhs: Shape>: Shape {
    /// `(batch, m, n)`.
    type Out: Shape;
}
impl<B: Dim + Meet<B2>, M: Dim, K: Dim + Meet<K2>, B2: Dim, K2: Dim, N: Dim> MatMul<(B2, K2, N)> for (B, M, K) {
    type Out = (<B as Meet<B2>>::Out, M, N);
}

/// Position markers of [`Find`].
pub struct P0;
/// Position 1.
pub struct P1;
/// Position 2.
pub struct P2;

/// The position of the name `N` in the shape (one impl per position, told apart by `I`, which
/// rustc infers when exactly one position holds `N`).
#[diagnostic::on_unimplemented(
    message = "the shape `{Self}` has no dim named `{N}`",
    label = "a name that is not in the tensor's type"
)]
pub trait Find<N: Name, I>: Shape {
    /// The position.
    const POS: usize;
    /// The shape without that dim.
    type Removed: Shape;
}
impl<N: Name> Find<N, P0> for (N,) {
    const POS: usize = 0;
    type Removed = ();
}
impl<N: Name, B: Dim> Find<N, P0> for (N, B) {
    const POS: usize = 0;
    type Removed = (B,);
}
impl<N: Name, A: Dim> Find<N, P1> for (A, N) {
    const POS: usize = 1;
    type Removed = (A,);
}
impl<N: Name, B: Dim, C: Dim> Find<N, P0> for (N, B, C) {
    const POS: usize = 0;
    type Removed = (B, C);
}
impl<N: Name, A: Dim, C: Dim> Find<N, P1> for (A, N, C) {
    const POS: usize = 1;
    type Removed = (A, C);
}
impl<N: Name, A: Dim, B: Dim> Find<N, P2> for (A, B, N) {
    const POS: usize = 2;
    type Removed = (A, B);
}
impl Shape for () {
    const RANK: usize = 0;
    fn dims() -> Vec<(Option<usize>, &'static str)> {
        vec![]
    }
}

/// The shape without the dim at the const position `A` (the baseline's rule).
pub trait At<const A: usize>: Shape {
    /// The shape without that dim.
    type Removed: Shape;
}
impl<A: Dim, B: Dim, C: Dim> At<0> for (A, B, C) {
    type Removed = (B, C);
}
impl<A: Dim, B: Dim, C: Dim> At<1> for (A, B, C) {
    type Removed = (A, C);
}
impl<A: Dim, B: Dim, C: Dim> At<2> for (A, B, C) {
    type Removed = (A, B);
}

/// A run-time size mismatch: a name (or `_`) and both sizes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeError(pub String);

/// A row-major f32 tensor of shape type `S` (sizes at run time, checked against `S`).
#[derive(Clone, Debug)]
pub struct Tensor<S: Shape> {
    sizes: Vec<usize>,
    data: Vec<f32>,
    _s: PhantomData<S>,
}

impl<S: Shape> Tensor<S> {
    /// A tensor of `sizes` filled by `f(i)` (row-major index).
    ///
    /// # Errors
    /// When a size differs from a static dim's.
    pub fn from_fn(sizes: &[usize], f: impl FnMut(usize) -> f32) -> Result<Self, ShapeError> {
        if sizes.len() != S::RANK {
            return Err(ShapeError(format!("rank {} for a shape of rank {}", sizes.len(), S::RANK)));
        }
        for (k, ((st, name), &n)) in S::dims().into_iter().zip(sizes).enumerate() {
            if st.is_some_and(|s| s != n) {
                return Err(ShapeError(format!("dim {k} ({name}) is {n}, the type says {}", st.unwrap_or(0))));
            }
        }
        Ok(Tensor { sizes: sizes.to_vec(), data: (0..sizes.iter().product()).map(f).collect(), _s: PhantomData })
    }
    /// The sizes.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }
    /// The elements, row-major.
    pub fn to_vec(&self) -> Vec<f32> {
        self.data.clone()
    }

    /// `self + rhs` (same rank; each pair of dims meets, a `One` broadcasts).
    ///
    /// # Errors
    /// A runtime size mismatch, naming the dim's name and both sizes.
    pub fn try_add<S2: Shape>(&self, rhs: &Tensor<S2>) -> Result<Tensor<<S as Broadcast<S2>>::Out>, ShapeError>
    where
        S: Broadcast<S2>,
    {
        let names = <<S as Broadcast<S2>>::Out as Shape>::dims();
        let mut out = Vec::with_capacity(S::RANK);
        for (k, (&a, &b)) in self.sizes.iter().zip(&rhs.sizes).enumerate() {
            let n = match (a, b) {
                (a, b) if a == b => a,
                (1, b) => b,
                (a, 1) => a,
                _ => return Err(ShapeError(format!("{}: sizes {a} and {b} differ (dim {k})", names[k].1))),
            };
            out.push(n);
        }
        let at = |sz: &[usize], idx: &[usize]| {
            idx.iter().zip(sz).fold(0, |acc, (&i, &n)| acc * n + if n == 1 { 0 } else { i })
        };
        let mut idx = vec![0; out.len()];
        let total: usize = out.iter().product();
        let mut data = Vec::with_capacity(total);
        for _ in 0..total {
            data.push(self.data[at(&self.sizes, &idx)] + rhs.data[at(&rhs.sizes, &idx)]);
            for d in (0..idx.len()).rev() {
                idx[d] += 1;
                if idx[d] < out[d] {
                    break;
                }
                idx[d] = 0;
            }
        }
        Ok(Tensor { sizes: out, data, _s: PhantomData })
    }

    /// The sum over the dim named `N` (found in the type), which is removed.
    pub fn sum<N: Name, I>(&self, _name: N) -> Tensor<<S as Find<N, I>>::Removed>
    where
        S: Find<N, I>,
    {
        let a = <S as Find<N, I>>::POS;
        let (outer, n, inner) =
            (self.sizes[..a].iter().product::<usize>(), self.sizes[a], self.sizes[a + 1..].iter().product::<usize>());
        let mut data = vec![0.0; outer * inner];
        for o in 0..outer {
            for k in 0..n {
                for i in 0..inner {
                    data[o * inner + i] += self.data[(o * n + k) * inner + i];
                }
            }
        }
        let mut sizes = self.sizes.clone();
        sizes.remove(a);
        Tensor { sizes, data, _s: PhantomData }
    }

    /// The sum over the const axis `A` (today's `sum_axis::<A>()`, the baseline of the check-time
    /// comparison; the result's dims are written by position).
    pub fn sum_at<const A: usize>(&self) -> Tensor<<S as At<A>>::Removed>
    where
        S: At<A>,
    {
        let mut sizes = self.sizes.clone();
        let n = sizes.remove(A);
        let (outer, inner) = (sizes[..A].iter().product::<usize>(), sizes[A..].iter().product::<usize>());
        let mut data = vec![0.0; outer * inner];
        for o in 0..outer {
            for k in 0..n {
                for i in 0..inner {
                    data[o * inner + i] += self.data[(o * n + k) * inner + i];
                }
            }
        }
        Tensor { sizes, data, _s: PhantomData }
    }

    /// The batched product `self @ rhs` (`[B, M, K] @ [B, K, N]`): batch dims and inner dims
    /// meet, so a name on one side must be the same name on the other.
    ///
    /// # Errors
    /// A runtime size mismatch of a batch or inner dim.
    pub fn try_matmul<S2: Shape>(&self, rhs: &Tensor<S2>) -> Result<Tensor<<S as MatMul<S2>>::Out>, ShapeError>
    where
        S: MatMul<S2>,
    {
        let (b, m, k) = (self.sizes[0], self.sizes[1], self.sizes[2]);
        let (b2, k2, n) = (rhs.sizes[0], rhs.sizes[1], rhs.sizes[2]);
        if b != b2 || k != k2 {
            return Err(ShapeError(format!("matmul of [{b}, {m}, {k}] by [{b2}, {k2}, {n}]")));
        }
        let mut data = vec![0.0; b * m * n];
        for x in 0..b {
            for i in 0..m {
                for p in 0..k {
                    let a = self.data[(x * m + i) * k + p];
                    for j in 0..n {
                        data[(x * m + i) * n + j] += a * rhs.data[(x * k + p) * n + j];
                    }
                }
            }
        }
        Ok(Tensor { sizes: vec![b, m, n], data, _s: PhantomData })
    }
}

impl<B: Dim, M: Dim, K: Dim> Tensor<(B, M, K)> {
    /// Swaps the last two dims; their names go with them (PyTorch `transpose(-2, -1)`).
    pub fn transpose_last(&self) -> Tensor<(B, K, M)> {
        let (b, m, k) = (self.sizes[0], self.sizes[1], self.sizes[2]);
        let mut data = vec![0.0; b * m * k];
        for x in 0..b {
            for i in 0..m {
                for j in 0..k {
                    data[(x * k + j) * m + i] = self.data[(x * m + i) * k + j];
                }
            }
        }
        Tensor { sizes: vec![b, k, m], data, _s: PhantomData }
    }
}

impl<A: Dim, B: Dim, C: Dim> Tensor<(A, B, C)> {
    /// `[A, B, C] -> [A x B, C]`: the product dim keeps both names (PyTorch `flatten(0, 1)`).
    pub fn flatten01(&self) -> Tensor<(Prod<A, B>, C)> {
        Tensor { sizes: vec![self.sizes[0] * self.sizes[1], self.sizes[2]], data: self.data.clone(), _s: PhantomData }
    }
    /// `[A, B, C] -> [A, B x C]`: for static `B` and `C`, a product of static sizes, which
    /// meets `Const<B * C>` (PyTorch `flatten(1)`).
    pub fn flatten12(&self) -> Tensor<(A, Prod<B, C>)> {
        Tensor { sizes: vec![self.sizes[0], self.sizes[1] * self.sizes[2]], data: self.data.clone(), _s: PhantomData }
    }
}

impl<A: Dim, B: Dim, C: Dim> Tensor<(Prod<A, B>, C)> {
    /// `[A x B, C] -> [A, B, C]` with `B`'s runtime size `b` (PyTorch `unflatten(0, (-1, b))`):
    /// only a product of `A` and `B` comes apart as `A` and `B`.
    ///
    /// # Errors
    /// When `b` does not divide the product's size.
    pub fn try_unflatten0(&self, b: usize) -> Result<Tensor<(A, B, C)>, ShapeError> {
        let ab = self.sizes[0];
        if b == 0 || !ab.is_multiple_of(b) || B::STATIC.is_some_and(|s| s != b) {
            return Err(ShapeError(format!("{} x {}: {ab} is not a multiple of {b}", A::NAME, B::NAME)));
        }
        Ok(Tensor { sizes: vec![ab / b, b, self.sizes[1]], data: self.data.clone(), _s: PhantomData })
    }
}

/// A linear layer `[.., IN] -> [.., OUT]` whose input dim must meet `IN` (the model-shapes
/// issue's `Linear<IN, OUT>`): a product of static sizes meets `Const<IN>` only when the product
/// is `IN`, checked at type-check time.
pub struct Linear<const IN: usize, const OUT: usize>;
impl<const IN: usize, const OUT: usize> Linear<IN, OUT> {
    /// `[N, D] @ W`: `D` meets `Const<IN>`.
    pub fn forward<N: Dim, D>(&self, x: &Tensor<(N, D)>) -> Tensor<(N, Const<OUT>)>
    where
        D: Dim + Meet<Const<IN>> + ProductIs<IN>,
    {
        let () = <D as ProductIs<IN>>::CHECK;
        let n = x.sizes[0];
        Tensor { sizes: vec![n, OUT], data: vec![0.0; n * OUT], _s: PhantomData }
    }
}

/// The build-time part of a dim meeting `Const<IN>`: for a product of static sizes, their
/// product must be `IN` (checked by [`SameProduct`] at type-check time); for any other dim,
/// nothing.
pub trait ProductIs<const IN: usize> {
    /// Evaluated by `forward`.
    const CHECK: ();
}
impl<const A: usize, const B: usize, const IN: usize> ProductIs<IN> for Prod<Const<A>, Const<B>>
where
    (): SameProduct<A, B, IN>,
{
    const CHECK: () = ();
}
impl<const N: usize, const IN: usize> ProductIs<IN> for Const<N> {
    const CHECK: () = ();
}
impl<const IN: usize> ProductIs<IN> for Dyn {
    const CHECK: () = ();
}

/// `A * B == IN`, through typenum's numbers (sizes `0..=1024` and a few larger): the refusal's
/// first line names the three sizes.
#[diagnostic::on_unimplemented(
    message = "a flattened `{A} x {B}` dim meets a static size `{IN}`: the product differs",
    label = "the flattened sizes must multiply to the layer's input size"
)]
pub trait SameProduct<const A: usize, const B: usize, const IN: usize> {}
#[diagnostic::do_not_recommend]
impl<const A: usize, const B: usize, const IN: usize> SameProduct<A, B, IN> for ()
where
    typenum::Const<A>: typenum::ToUInt,
    typenum::Const<B>: typenum::ToUInt,
    typenum::Const<IN>: typenum::ToUInt,
    typenum::U<A>: core::ops::Mul<typenum::U<B>>,
    typenum::Prod<typenum::U<A>, typenum::U<B>>: typenum::IsEqual<typenum::U<IN>, Output = typenum::B1>,
{
}
