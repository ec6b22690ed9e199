//! Reductions and scans of a `Var` (a module of `autograd::ops`): `sum`, `mean`, the axis forms
//! (const and `_dyn`), `max`/`min` and their arg forms, `var`/`std`, norms, `logsumexp`,
//! softmax and log-softmax, `prod`, `cumsum`/`cumprod`, ... with their backward rules.
#[allow(unused_imports)]
use super::*;

// ---------------------------------------------------------------------------------------------
// Reductions.

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// A one-element `Shape![]` tensor.
    fn scalar_tensor(v: T) -> Tensor<T, ()> {
        Tensor::<T, ()>::from_vec(&[], alloc::vec![v])
    }

    /// The sum of all elements, as a `Shape![]` value (PyTorch `sum()`), differentiable.
    #[track_caller]
    pub fn sum(&self) -> Var<'t, T, ()> {
        let out = Self::scalar_tensor(self.value().sum());
        let lay = *self.value().layout();
        self.record1(out, move |i, _| {
            back(move |g: Tensor<T, ()>, s| s.add_with(i, || Tensor::<T, S>::full_sized(lay.sizes(), g.item())))
        })
    }

    /// The mean of all elements, as a `Shape![]` value (PyTorch `mean()`), differentiable. NaN
    /// for no elements.
    #[track_caller]
    pub fn mean(&self) -> Var<'t, T, ()> {
        let out = Self::scalar_tensor(self.value().mean());
        let lay = *self.value().layout();
        self.record1(out, move |i, _| {
            back(move |g: Tensor<T, ()>, s| {
                s.add_with(i, || Tensor::<T, S>::full_sized(lay.sizes(), g.item() / c::<T>(lay.numel() as f64)))
            })
        })
    }

    /// `g`, whose sizes are `self`'s with axis `a` removed (or kept as 1), broadcast back to
    /// `self`'s sizes times `scale`.
    fn spread<S0: Shape>(g: &Tensor<T, S0>, lay: &Layout, a: usize, kept: bool, scale: T) -> Tensor<T, S> {
        let gd = g.as_dyn();
        let gu = if kept { gd } else { gd.unsqueeze_dyn(a as isize) };
        let e = gu.expand_dyn(lay.sizes());
        typed(if scale == T::one() { e.to_owned() } else { e.map(move |v| v * scale) })
    }

    /// The rule of a sum or mean along axis `a` (removed, or kept as 1): the output's gradient
    /// spread back over the axis, times `scale`.
    #[track_caller]
    fn sum_rule<S2: Shape>(&self, out: Tensor<T, S2>, a: usize, kept: bool, scale: T) -> Var<'t, T, S2> {
        let lay = *self.value().layout();
        self.record1(out, move |i, _| {
            back(move |g: Tensor<T, S2>, s| s.add_with(i, || Self::spread(&g, &lay, a, kept, scale)))
        })
    }

    /// The reciprocal of axis `a`'s size (a mean's scale).
    fn inv_len(&self, a: usize) -> T {
        T::one() / c::<T>(self.sizes()[a] as f64)
    }

    /// The rule of a maximum or minimum along axis `a` (removed): each line's gradient split
    /// evenly among the elements equal to its extreme.
    #[track_caller]
    fn extreme_rule<S2: Shape>(&self, out: Tensor<T, S2>, a: usize) -> Var<'t, T, S2> {
        let x = self.arc().clone();
        self.record1(out, move |i, y| {
            let y = y.clone();
            back(move |g: Tensor<T, S2>, s| {
                s.add_with(i, || {
                    let yd = y.as_dyn();
                    let ye = yd.unsqueeze_dyn(a as isize);
                    let hits = x.as_dyn().zip_with(&ye, |v, m| {
                        if v == m || (v.is_nan() && m.is_nan()) {
                            T::one()
                        } else {
                            T::zero()
                        }
                    });
                    let count = hits.sum_keepdim_dyn(a as isize);
                    let gd = g.as_dyn();
                    let share = gd.unsqueeze_dyn(a as isize).zip_with(&count, |g, n| g / n);
                    typed::<T, S>(hits.zip_with(&share, |h, s| h * s))
                })
            })
        })
    }

    /// The rule of `logsumexp` along axis `a` (removed): `g · softmax(x)`.
    #[track_caller]
    fn logsumexp_rule<S2: Shape>(&self, out: Tensor<T, S2>, a: usize) -> Var<'t, T, S2> {
        let x = self.arc().clone();
        self.record1(out, move |i, y| {
            let y = y.clone();
            back(move |g: Tensor<T, S2>, s| {
                s.add_with(i, || {
                    let ye = y.as_dyn().unsqueeze_dyn(a as isize).to_owned();
                    let ge = g.as_dyn().unsqueeze_dyn(a as isize).to_owned();
                    let p = x.as_dyn().zip_with(&ye, |v, l| (v - l).exp());
                    typed::<T, S>(p.zip_with(&ge, |p, g| p * g))
                })
            })
        })
    }

    /// The rule of softmax (`log` false: `y (g - Σ g y)`) or log-softmax (`g - exp(y) Σ g`)
    /// along axis `a`.
    #[track_caller]
    fn softmax_rule(&self, out: Tensor<T, S>, a: usize, log: bool) -> Var<'t, T, S> {
        self.record1(out, move |i, y| {
            let y = y.clone();
            back(move |g: Tensor<T, S>, s| {
                s.add_with(i, || {
                    if log {
                        let total = g.as_dyn().sum_keepdim_dyn(a as isize);
                        let t = y.as_dyn().zip_with(&total, |y, t| y.exp() * t);
                        typed::<T, S>(g.as_dyn().zip_with(&t, |g, t| g - t))
                    } else {
                        let gy = g.zip_with(&*y, |g, y| g * y);
                        let dot = gy.as_dyn().sum_keepdim_dyn(a as isize);
                        let t = g.as_dyn().zip_with(&dot, |g, d| g - d);
                        typed::<T, S>(t.zip_with(&y.as_dyn(), |t, y| t * y))
                    }
                })
            })
        })
    }

    /// The rule of a variance along axis `a` (removed): `2 (x - mean) g / (n - correction)`.
    #[track_caller]
    fn var_rule<S2: Shape>(&self, out: Tensor<T, S2>, a: usize, correction: usize) -> Var<'t, T, S2> {
        let x = self.arc().clone();
        self.record1(out, move |i, _| {
            back(move |g: Tensor<T, S2>, s| {
                s.add_with(i, || {
                    let n = x.sizes()[a];
                    let denom = c::<T>(n as f64 - correction as f64);
                    let mean = x.as_dyn().mean_keepdim_dyn(a as isize);
                    let ge = g.as_dyn().unsqueeze_dyn(a as isize).to_owned();
                    let centered = x.as_dyn().zip_with(&mean, |v, m| v - m);
                    let two = c::<T>(2.0);
                    typed::<T, S>(centered.zip_with(&ge, move |d, g| two * d * g / denom))
                })
            })
        })
    }

    /// Axis `A` of this value (checked at compile time for tuple shapes).
    #[track_caller]
    fn axis(&self, a: isize) -> usize {
        normalize_axis(a, self.value().rank()).or_panic()
    }

    /// The sum along axis `A`, which is removed (PyTorch `sum(dim=A)`), differentiable: `[2, 3]`
    /// with `<1>` gives `[2]`. The axis is checked at compile time for tuple shapes.
    #[track_caller]
    pub fn sum_axis<const A: isize>(&self) -> Var<'t, T, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
    {
        self.sum_rule(self.value().sum_axis::<A>(), self.axis(A), false, T::one())
    }

    /// The mean along axis `A`, which is removed (PyTorch `mean(dim=A)`), differentiable.
    #[track_caller]
    pub fn mean_axis<const A: isize>(&self) -> Var<'t, T, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
    {
        let a = self.axis(A);
        self.sum_rule(self.value().mean_axis::<A>(), a, false, self.inv_len(a))
    }

    /// The sum along axis `A`, kept as a size-1 dim (PyTorch `sum(dim=A, keepdim=True)`),
    /// differentiable.
    #[track_caller]
    pub fn sum_keepdim<const A: isize>(&self) -> Var<'t, T, <S as crate::shape::SetAxis<A, crate::dim::One>>::Out>
    where
        S: crate::shape::SetAxis<A, crate::dim::One>,
    {
        self.sum_rule(self.value().sum_keepdim::<A>(), self.axis(A), true, T::one())
    }

    /// The mean along axis `A`, kept as a size-1 dim (PyTorch `mean(dim=A, keepdim=True)`),
    /// differentiable.
    #[track_caller]
    pub fn mean_keepdim<const A: isize>(&self) -> Var<'t, T, <S as crate::shape::SetAxis<A, crate::dim::One>>::Out>
    where
        S: crate::shape::SetAxis<A, crate::dim::One>,
    {
        let a = self.axis(A);
        self.sum_rule(self.value().mean_keepdim::<A>(), a, true, self.inv_len(a))
    }

    /// The largest element as a `Shape![]` value (PyTorch `max()` / `amax()`), differentiable:
    /// the gradient is split evenly among the elements equal to the maximum (as PyTorch's).
    ///
    /// # Panics
    /// For a tensor with no elements.
    #[track_caller]
    pub fn max(&self) -> Var<'t, T, ()> {
        self.extreme_all(true)
    }

    /// The smallest element (PyTorch `min()` / `amin()`), as [`max`](Self::max).
    ///
    /// # Panics
    /// For a tensor with no elements.
    #[track_caller]
    pub fn min(&self) -> Var<'t, T, ()> {
        self.extreme_all(false)
    }

    #[track_caller]
    fn extreme_all(&self, max: bool) -> Var<'t, T, ()> {
        let m = if max { self.value().max() } else { self.value().min() };
        let x = self.arc().clone();
        self.record1(Self::scalar_tensor(m), move |i, _| {
            back(move |g: Tensor<T, ()>, s| {
                s.add_with(i, || {
                    let hits = x.map(|v| if v == m || (v.is_nan() && m.is_nan()) { T::one() } else { T::zero() });
                    let share = g.item() / hits.sum();
                    hits.map(move |h| h * share)
                })
            })
        })
    }

    /// The largest element along axis `A`, which is removed (PyTorch `amax(dim=A)`; the name of
    /// [`Tensor::max_axis`](crate::TensorBase::max_axis)), differentiable: the gradient is split
    /// evenly among each line's maxima.
    #[track_caller]
    #[doc(alias = "amax")]
    pub fn max_axis<const A: isize>(&self) -> Var<'t, T, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
    {
        self.extreme_rule(self.value().max_axis::<A>(), self.axis(A))
    }

    /// The smallest element along axis `A`, which is removed (PyTorch `amin(dim=A)`), as
    /// [`max_axis`](Self::max_axis).
    #[track_caller]
    #[doc(alias = "amin")]
    pub fn min_axis<const A: isize>(&self) -> Var<'t, T, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
    {
        self.extreme_rule(self.value().min_axis::<A>(), self.axis(A))
    }

    /// `log(sum(exp(x)))` along axis `A`, which is removed (PyTorch `logsumexp(dim=A)`),
    /// differentiable: the gradient is `g · softmax(x)` along the axis.
    #[track_caller]
    pub fn logsumexp_axis<const A: isize>(&self) -> Var<'t, T, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
    {
        self.logsumexp_rule(self.value().logsumexp_axis::<A>(), self.axis(A))
    }

    /// Softmax along axis `A` (PyTorch `softmax(dim=A)`), differentiable: same shape. The
    /// gradient is `y (g - Σ g y)` along the axis.
    #[track_caller]
    pub fn softmax<const A: isize>(&self) -> Var<'t, T, S>
    where
        S: RemoveAxis<A>,
    {
        self.softmax_rule(self.value().softmax::<A>(), self.axis(A), false)
    }

    /// Log-softmax along axis `A` (PyTorch `log_softmax(dim=A)`), differentiable: same shape.
    /// The gradient is `g - exp(y) Σ g` along the axis.
    #[track_caller]
    pub fn log_softmax<const A: isize>(&self) -> Var<'t, T, S>
    where
        S: RemoveAxis<A>,
    {
        self.softmax_rule(self.value().log_softmax::<A>(), self.axis(A), true)
    }

    /// The variance along axis `A`, which is removed, with Bessel's `correction` (PyTorch
    /// `var(dim=A, correction=...)`; 1 is its default), differentiable: the gradient is
    /// `2 (x - mean) g / (n - correction)`.
    #[track_caller]
    pub fn var_axis<const A: isize>(&self, correction: usize) -> Var<'t, T, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
    {
        self.var_rule(self.value().var_axis::<A>(correction), self.axis(A), correction)
    }
}

/// The runtime-axis forms (negative axes count from the end), each with its `try_` form: a
/// [`DynShape`] result, as the tensor methods of the same names.
macro_rules! dyn_axis_ops {
    ($($(#[$m:meta])* $name:ident, $try_name:ident ($($p:ident: $pt:ty),*) -> $Out:ty = |$x:ident, $a:ident| $value:expr => $rule:expr;)*) => {
        impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {$(
            $(#[$m])*
            ///
            /// # Errors
            /// [`ShapeError::Axis`] when the value has no such axis; the tensor method's errors.
            pub fn $try_name(&self, axis: isize, $($p: $pt),*) -> Result<Var<'t, T, $Out>, ShapeError> {
                let $a = normalize_axis(axis, self.value().rank())?;
                let $x = self;
                let out = $value?;
                Ok($rule(out))
            }
            #[doc = concat!("[`", stringify!($try_name), "`](Self::", stringify!($try_name), "), panicking with the error's message.")]
            #[track_caller]
            pub fn $name(&self, axis: isize, $($p: $pt),*) -> Var<'t, T, $Out> {
                self.$try_name(axis, $($p),*).or_panic()
            }
        )*}
    };
}

dyn_axis_ops! {
    /// The sum along a runtime axis, which is removed (PyTorch `sum(dim=axis)`), differentiable.
    sum_axis_dyn, try_sum_axis_dyn () -> DynShape = |x, a| x.value().try_sum_axis_dyn(a as isize) => |o| x.sum_rule(o, a, false, T::one());
    /// The mean along a runtime axis, which is removed (PyTorch `mean(dim=axis)`), differentiable.
    mean_axis_dyn, try_mean_axis_dyn () -> DynShape = |x, a| x.value().try_mean_axis_dyn(a as isize) => |o| x.sum_rule(o, a, false, x.inv_len(a));
    /// The sum along a runtime axis, kept as size 1 (PyTorch `sum(dim=axis, keepdim=True)`),
    /// differentiable.
    sum_keepdim_dyn, try_sum_keepdim_dyn () -> DynShape = |x, a| x.value().try_sum_keepdim_dyn(a as isize) => |o| x.sum_rule(o, a, true, T::one());
    /// The mean along a runtime axis, kept as size 1 (PyTorch `mean(dim=axis, keepdim=True)`),
    /// differentiable.
    mean_keepdim_dyn, try_mean_keepdim_dyn () -> DynShape = |x, a| x.value().try_mean_keepdim_dyn(a as isize) => |o| x.sum_rule(o, a, true, x.inv_len(a));
    /// The largest element along a runtime axis, which is removed (PyTorch `amax(dim=axis)`),
    /// differentiable (ties split evenly).
    max_axis_dyn, try_max_axis_dyn () -> DynShape = |x, a| x.value().try_max_axis_dyn(a as isize) => |o| x.extreme_rule(o, a);
    /// The smallest element along a runtime axis, which is removed (PyTorch `amin(dim=axis)`),
    /// differentiable (ties split evenly).
    min_axis_dyn, try_min_axis_dyn () -> DynShape = |x, a| x.value().try_min_axis_dyn(a as isize) => |o| x.extreme_rule(o, a);
    /// `logsumexp` along a runtime axis, which is removed (PyTorch `logsumexp(dim=axis)`),
    /// differentiable.
    logsumexp_axis_dyn, try_logsumexp_axis_dyn () -> DynShape = |x, a| x.value().try_logsumexp_axis_dyn(a as isize) => |o| x.logsumexp_rule(o, a);
    /// The variance along a runtime axis, which is removed, with Bessel's `correction` (PyTorch
    /// `var(dim=axis, correction=...)`), differentiable.
    var_axis_dyn, try_var_axis_dyn (correction: usize) -> DynShape = |x, a| x.value().try_var_axis_dyn(a as isize, correction) => |o| x.var_rule(o, a, correction);
    /// Softmax along a runtime axis (PyTorch `softmax(dim=axis)`), differentiable: same shape.
    softmax_dyn, try_softmax_dyn () -> S = |x, a| x.value().try_softmax_dyn(a as isize) => |o| x.softmax_rule(o, a, false);
    /// Log-softmax along a runtime axis (PyTorch `log_softmax(dim=axis)`), differentiable: same
    /// shape.
    log_softmax_dyn, try_log_softmax_dyn () -> S = |x, a| x.value().try_log_softmax_dyn(a as isize) => |o| x.softmax_rule(o, a, true);
}

// ---------------------------------------------------------------------------------------------
// More reductions and scans.

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// The product of all elements as a `Shape![]` value (PyTorch `prod()`), differentiable:
    /// the gradient of each element is the product of the others (exact with zeros: with one
    /// zero only it gets a gradient, with two or more none does, as PyTorch's).
    #[track_caller]
    pub fn prod(&self) -> Var<'t, T, ()> {
        let p = self.value().prod();
        let x = self.arc().clone();
        self.record1(Self::scalar_tensor(p), move |i, _| {
            back(move |g: Tensor<T, ()>, s| {
                s.add_with(i, || {
                    let g = g.item();
                    let zeros = x.map(|v| if v == T::zero() { T::one() } else { T::zero() }).sum();
                    if zeros == T::zero() {
                        x.map(move |v| g * p / v)
                    } else if zeros == T::one() {
                        // Only the zero gets a gradient: the product of the others.
                        let others = x.map(|v| if v == T::zero() { T::one() } else { v }).prod();
                        x.map(move |v| if v == T::zero() { g * others } else { T::zero() })
                    } else {
                        x.map(|_| T::zero())
                    }
                })
            })
        })
    }

    /// The standard deviation along axis `A`, which is removed, with Bessel's `correction`
    /// (PyTorch `std(dim=A, correction=...)`), differentiable: `sqrt(var_axis)`.
    #[track_caller]
    pub fn std_axis<const A: isize>(&self, correction: usize) -> Var<'t, T, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
    {
        self.var_axis::<A>(correction).sqrt()
    }

    /// The 2-norm of all elements as a `Shape![]` value (PyTorch `linalg.vector_norm(x)`),
    /// differentiable: the gradient is `g x / ‖x‖`, and 0 at `x = 0` (PyTorch's subgradient).
    #[track_caller]
    pub fn norm(&self) -> Var<'t, T, ()> {
        let n = self.value().norm(crate::ops::reduce::Norm::L2);
        let x = self.arc().clone();
        self.record1(Self::scalar_tensor(n), move |i, _| {
            back(move |g: Tensor<T, ()>, s| {
                let k = if n == T::zero() { T::zero() } else { g.item() / n };
                s.add_with(i, || x.map(move |v| v * k))
            })
        })
    }

    /// The cumulative product along axis `A` (PyTorch `cumprod(dim=A)`), differentiable: same
    /// shape. The gradient of `x_k` is `Σ_{j≥k} g_j Π_{i≤j, i≠k} x_i`, exact with zeros: before a
    /// line's first zero it is the reversed cumulative sum of `g y` over `x_k`; at the first zero
    /// the same sum with that zero read as 1; after it, 0.
    #[track_caller]
    pub fn cumprod<const A: isize>(&self) -> Var<'t, T, S>
    where
        S: RemoveAxis<A>,
    {
        let out = self.value().cumprod::<A>();
        let x = self.arc().clone();
        self.record1(out, move |i, y| {
            let y = y.clone();
            back(move |g: Tensor<T, S>, s| {
                s.add_with(i, || {
                    let rev_cumsum = |t: Tensor<T, S>| t.flip::<A>().cumsum::<A>().flip::<A>().to_owned();
                    // How many zeros each line has up to each position, and the first zero.
                    let zeros_upto = x.map(|v| if v == T::zero() { T::one() } else { T::zero() }).cumsum::<A>();
                    let first =
                        x.zip_with(
                            &zeros_upto,
                            |v, c| if v == T::zero() && c == T::one() { T::one() } else { T::zero() },
                        );
                    let before = rev_cumsum(g.zip_with(&*y, |g, y| g * y)).zip_with(&*x, |t, v| t / v);
                    let y1 = (&*x + &first).cumprod::<A>();
                    let at_first = rev_cumsum(g.zip_with(&y1, |g, y| g * y));
                    let a = before.zip_with(&zeros_upto, |b, c| if c == T::zero() { b } else { T::zero() });
                    let b = at_first.zip_with(&first, |f, m| f * m); // m is 1 at the first zero, else 0
                    a.zip_with(&b, |a, b| a + b)
                })
            })
        })
    }

    /// The cumulative sum along axis `A` (PyTorch `cumsum(dim=A)`), differentiable: same shape;
    /// the gradient is the reversed cumulative sum of the output's gradient.
    #[track_caller]
    pub fn cumsum<const A: isize>(&self) -> Var<'t, T, S>
    where
        S: RemoveAxis<A>,
    {
        let out = self.value().cumsum::<A>();
        self.record1(out, move |i, _| {
            back(move |g: Tensor<T, S>, s| s.add_with(i, || g.flip::<A>().cumsum::<A>().flip::<A>().to_owned()))
        })
    }
}
