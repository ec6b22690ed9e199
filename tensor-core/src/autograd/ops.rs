//! The differentiable operations of [`Var`]: each computes its value with the tensor operation
//! of the same name (same shape types, same compile errors) and records its backward rule.
//!
//! Backward rules that only scale element by element stay typed (`g` and `x` share the shape
//! type `S`). Rules that must broadcast, reduce or multiply operands of different shape types
//! compute on runtime-shaped views of the same storage (the same kernels) and give the
//! gradient back the input's own shape type, whose sizes they were computed from.
use super::tape::Sink;
use super::var::{back, Var};
use super::GradFloat;
use crate::error::{OrPanic, ShapeError};
use crate::kernels::reduce::Sum;
use crate::layout::{normalize_axis, Layout};
use crate::num::derivatives::{self, X, Y};
use crate::shape::{
    Broadcast, BroadcastShape, DynShape, InsertAxis, MatMulShape, PermuteShape, RemoveAxis, ReshapeTo, Shape, SwapAxes,
    TransposeShape,
};
use crate::tensor::{Tensor, TensorView, TensorViewMut};
use alloc::sync::Arc;
use alloc::vec::Vec;
use num_traits::NumCast;

/// `v` in the element type.
#[inline(always)]
pub(crate) fn c<T: GradFloat>(v: f64) -> T {
    <T as NumCast>::from(v).unwrap_or_else(T::nan)
}

/// A runtime-shaped tensor whose sizes are known to fit `S` (they were taken from a value of
/// type `S`), as `Tensor<T, S>`.
#[track_caller]
pub(crate) fn typed<T: GradFloat, S: Shape>(t: Tensor<T, DynShape>) -> Tensor<T, S> {
    t.try_into_static::<S>().or_panic()
}

/// `g` (any shape type) summed over the dims that broadcasting added or stretched, down to
/// `sizes` (PyTorch's `sum_to_size`), as the shape type `S` those sizes came from.
#[track_caller]
pub(crate) fn sum_to<T: GradFloat, S: Shape>(g: TensorView<'_, T, DynShape>, sizes: &[usize]) -> Tensor<T, S> {
    let gs = g.sizes();
    if gs == sizes {
        return typed(g.to_owned());
    }
    let lead = gs.len() - sizes.len();
    let mut axes: Vec<usize> = (0..lead).collect();
    axes.extend((0..sizes.len()).filter(|&j| sizes[j] == 1 && gs[lead + j] != 1).map(|j| lead + j));
    let r: Tensor<T, DynShape> = g.reduce_with(&axes, true, &Sum).or_panic();
    let isizes: Vec<isize> = sizes.iter().map(|&n| n as isize).collect();
    typed(r.reshape_dyn(&isizes).into_owned())
}

/// [`sum_to`] of an owned gradient: moves it when nothing is to be summed.
#[track_caller]
fn sum_to_owned<T: GradFloat, S: Shape, S0: Shape>(g: Tensor<T, S0>, sizes: &[usize]) -> Tensor<T, S> {
    if g.sizes() == sizes {
        typed(g.into_dyn())
    } else {
        sum_to(g.as_dyn(), sizes)
    }
}

impl<T: GradFloat> Sink<T> {
    /// Adds `f()` to node `i`'s gradient when `i` is tracked (an untracked input needs none, and
    /// `f` is not run).
    #[inline]
    pub(crate) fn add_with<S: Shape>(&mut self, i: Option<usize>, f: impl FnOnce() -> Tensor<T, S>) {
        if let Some(i) = i {
            let g = f();
            self.add(i, g);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Element-wise functions of one input.

/// Element-wise functions, each differentiated by its entry of the derivative table
/// (`num/derivatives.rs`, which forward mode's `Dual` reads too): `unary!(rule_x, X; ...)` lists
/// the entries that read the input `x`, `unary!(rule_y, Y; ...)` those that read the output `y`
/// (the other operand is a type error); each entry is `name, "PyTorch name"`.
macro_rules! unary {
    ($rule:ident, $op:ident; $($(#[$m:meta])* $name:ident, $torch:literal;)*) => {
        impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {$(
            #[doc = concat!("Element-wise `", stringify!($name), "`, differentiable (PyTorch `", $torch, "`): same shape. The value is [`Tensor::", stringify!($name), "`](crate::TensorBase::", stringify!($name), ")'s.")]
            $(#[$m])*
            #[track_caller]
            pub fn $name(&self) -> Var<'t, T, S> {
                self.$rule(self.value().$name(), |g, v| derivatives::$name($op(v)).apply(g))
            }
        )*}
    };
}

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// An element-wise operation with value `y` whose input gradient is `d(g, x)` element by
    /// element.
    #[track_caller]
    pub(crate) fn rule_x(
        &self,
        y: Tensor<T, S>,
        d: impl Fn(T, T) -> T + Send + Sync + Copy + 'static,
    ) -> Var<'t, T, S> {
        let x = self.arc().clone();
        self.record1(y, move |i, _| back(move |g: Tensor<T, S>, s| s.add_with(i, || g.zip_with(&*x, d))))
    }

    /// An element-wise operation with value `y` whose input gradient is `d(g, y)`.
    #[track_caller]
    pub(crate) fn rule_y(
        &self,
        y: Tensor<T, S>,
        d: impl Fn(T, T) -> T + Send + Sync + Copy + 'static,
    ) -> Var<'t, T, S> {
        self.record1(y, move |i, y| {
            let y = y.clone();
            back(move |g: Tensor<T, S>, s| s.add_with(i, || g.zip_with(&*y, d)))
        })
    }
}

unary! { rule_y, Y;
    exp, "exp";
    sqrt, "sqrt";
    tanh, "tanh";
    sigmoid, "sigmoid";
    /// The gradient is 0 where the output is 0 or below and passes elsewhere, NaN included
    /// (PyTorch's `threshold_backward(grad, result, 0)`: a NaN input gets gradient 1).
    relu, "relu";
    exp2, "exp2";
    tan, "tan";
    recip, "reciprocal";
    rsqrt, "rsqrt";
}

unary! { rule_x, X;
    ln, "log";
    log2, "log2";
    log10, "log10";
    ln_1p, "log1p";
    exp_m1, "expm1";
    sin, "sin";
    cos, "cos";
    asin, "asin";
    acos, "acos";
    atan, "atan";
    sinh, "sinh";
    cosh, "cosh";
    asinh, "asinh";
    acosh, "acosh";
    atanh, "atanh";
    square, "square";
    /// The gradient is `g sgn(x)`: 0 at ±0 and at NaN, as PyTorch's (`sgn(NaN)` is 0 there).
    abs, "abs";
    erf, "erf";
    erfc, "erfc";
    /// The derivative `Φ(x) + x φ(x)` of the exact form.
    gelu, "nn.functional.gelu";
    /// GELU with the tanh approximation, `0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³)))` (PyTorch
    /// `approximate='tanh'`).
    gelu_tanh, "nn.functional.gelu(approximate='tanh')";
    silu, "nn.functional.silu";
    /// Linear above 20, as the forward and PyTorch's threshold.
    softplus, "nn.functional.softplus";
    log_sigmoid, "nn.functional.logsigmoid";
    softsign, "nn.functional.softsign";
    /// PyTorch's `elu_backward` with SELU's constants: the linear branch unless `x <= 0`, so a
    /// NaN input gets the scale 1.0507, as PyTorch's.
    selu, "nn.functional.selu";
}

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// Element-wise negation, differentiable (PyTorch `neg`): same shape.
    #[track_caller]
    pub fn neg(&self) -> Var<'t, T, S> {
        self.rule_y(-self.value(), |g, _| -g)
    }

    /// Element-wise `x^p`, differentiable (PyTorch `pow` with a float exponent): same shape. The
    /// gradient `p x^(p-1)` is 0 for `p = 0`, as PyTorch's.
    #[track_caller]
    pub fn powf(&self, p: T) -> Var<'t, T, S> {
        self.rule_x(
            self.value().powf(p),
            move |g, x| if p == T::zero() { T::zero() } else { g * p * x.powf(p - T::one()) },
        )
    }

    /// Element-wise `x^n` for an integer `n`, differentiable (PyTorch `pow` with an int
    /// exponent): same shape.
    #[track_caller]
    pub fn powi(&self, n: i32) -> Var<'t, T, S> {
        self.rule_x(
            self.value().powi(n),
            move |g, x| if n == 0 { T::zero() } else { g * c::<T>(n as f64) * x.powi(n - 1) },
        )
    }

    /// Element-wise clamp to `[lo, hi]`, differentiable (PyTorch `clamp(min, max)`): same shape.
    /// The gradient passes strictly inside the bounds (`lo < x < hi`) and is 0 at a bound,
    /// outside and at NaN, as PyTorch 2.15's `clamp_backward` (earlier releases of both passed
    /// it at the bounds; the CHANGELOG lists the change).
    #[track_caller]
    pub fn clamp(&self, lo: T, hi: T) -> Var<'t, T, S> {
        self.rule_x(self.value().clamp(lo, hi), move |g, x| if x > lo && x < hi { g } else { T::zero() })
    }

    /// Element-wise leaky ReLU, differentiable (PyTorch `nn.functional.leaky_relu`): same shape.
    #[track_caller]
    pub fn leaky_relu(&self, negative_slope: T) -> Var<'t, T, S> {
        self.rule_x(
            self.value().leaky_relu(negative_slope),
            move |g, x| if x > T::zero() { g } else { g * negative_slope },
        )
    }

    /// Element-wise ELU, differentiable (PyTorch `nn.functional.elu`): same shape.
    #[track_caller]
    pub fn elu(&self, alpha: T) -> Var<'t, T, S> {
        // The linear branch unless `x <= 0` (NaN included), as PyTorch's `elu_backward`.
        self.rule_x(self.value().elu(alpha), move |g, x| if x <= T::zero() { g * alpha * x.exp() } else { g })
    }

    /// Element-wise clamp to `[min_val, max_val]`, differentiable (PyTorch
    /// `nn.functional.hardtanh`): same shape; the gradient passes strictly inside the bounds and
    /// at NaN (PyTorch's `hardtanh_backward` zeroes only `x <= min_val` and `x >= max_val`).
    #[track_caller]
    pub fn hardtanh(&self, min_val: T, max_val: T) -> Var<'t, T, S> {
        self.rule_x(
            self.value().hardtanh(min_val, max_val),
            move |g, x| if x <= min_val || x >= max_val { T::zero() } else { g },
        )
    }

    /// `self * k` for a scalar `k`, differentiable: same shape.
    #[track_caller]
    pub fn mul_scalar(&self, k: T) -> Var<'t, T, S> {
        self.rule_y(self.value().map(move |x| x * k), move |g, _| g * k)
    }

    /// `self + k` for a scalar `k`, differentiable: same shape.
    #[track_caller]
    pub fn add_scalar(&self, k: T) -> Var<'t, T, S> {
        self.rule_y(self.value().map(move |x| x + k), |g, _| g)
    }

    /// `k - self` for a scalar `k`, differentiable: same shape.
    #[track_caller]
    pub fn rsub_scalar(&self, k: T) -> Var<'t, T, S> {
        self.rule_y(self.value().map(move |x| k - x), |g, _| -g)
    }

    /// `k / self` for a scalar `k`, differentiable: same shape.
    #[track_caller]
    pub fn rdiv_scalar(&self, k: T) -> Var<'t, T, S> {
        self.rule_x(self.value().map(move |x| k / x), move |g, x| -g * k / (x * x))
    }
}

// ---------------------------------------------------------------------------------------------
// Element-wise functions of two inputs, with broadcasting.

macro_rules! binary {
    ($($(#[$m:meta])* $name:ident, $try_name:ident, $Tr:ident, $op:tt, $torch:literal, |$g:ident, $a:ident, $b:ident, $y:ident, $ia:ident, $ib:ident, $la:ident, $lb:ident, $s:ident| $rule:block;)*) => {
        impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {$(
            #[doc = concat!("Element-wise `", stringify!($op), "` with broadcasting, differentiable (PyTorch `", $torch, "`): `[2, 3]` with `[3]` gives `[2, 3]`; the gradient of a broadcast operand is summed over the dims it was stretched along. Static shapes that do not broadcast are a compile error.")]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = "[`ShapeError::Broadcast`] when runtime sizes do not broadcast; [`ShapeError::Autograd`] when the operands are tracked by two tapes."]
            $(#[$m])*
            pub fn $try_name<S2: Shape>(&self, rhs: &Var<'t, T, S2>) -> Result<Var<'t, T, Broadcast<S, S2>>, ShapeError>
            where
                S: BroadcastShape<S2>,
            {
                let out = self.value().$try_name(rhs.value())?;
                let (a_arc, b_arc) = (self.arc().clone(), rhs.arc().clone());
                Self::record([self.node(), rhs.node()], out, move |[$ia, $ib], y| {
                    let $y = y.clone();
                    back(move |$g: Tensor<T, Broadcast<S, S2>>, $s: &mut Sink<T>| {
                        let ($a, $b): (Arc<Tensor<T, S>>, Arc<Tensor<T, S2>>) = (a_arc, b_arc);
                        let ($la, $lb) = (*$a.layout(), *$b.layout());
                        let _ = (&$y, &$la, &$lb);
                        $rule
                    })
                })
            }
            #[doc = concat!("[`", stringify!($try_name), "`](Self::", stringify!($try_name), "), panicking with the error's message (also `&a ", stringify!($op), " &b`).")]
            #[track_caller]
            pub fn $name<S2: Shape>(&self, rhs: &Var<'t, T, S2>) -> Var<'t, T, Broadcast<S, S2>>
            where
                S: BroadcastShape<S2>,
            {
                self.$try_name(rhs).or_panic()
            }
        )*}

        $(
        #[doc = concat!("`&a ", stringify!($op), " &b` of two values, with broadcasting (see [`Var::", stringify!($name), "`]).")]
        impl<'a, 'b, 't, T: GradFloat, S: Shape + BroadcastShape<S2>, S2: Shape> core::ops::$Tr<&'b Var<'t, T, S2>> for &'a Var<'t, T, S> {
            type Output = Var<'t, T, Broadcast<S, S2>>;
            #[track_caller]
            fn $name(self, rhs: &'b Var<'t, T, S2>) -> Self::Output {
                Var::$name(self, rhs)
            }
        }
        #[doc = concat!("`a ", stringify!($op), " b` of two values, with broadcasting (see [`Var::", stringify!($name), "`]).")]
        impl<'t, T: GradFloat, S: Shape + BroadcastShape<S2>, S2: Shape> core::ops::$Tr<Var<'t, T, S2>> for Var<'t, T, S> {
            type Output = Var<'t, T, Broadcast<S, S2>>;
            #[track_caller]
            fn $name(self, rhs: Var<'t, T, S2>) -> Self::Output {
                Var::$name(&self, &rhs)
            }
        }
        )*
    };
}

binary! {
    add, try_add, Add, +, "add", |g, a, b, y, ia, ib, la, lb, s| {
        match (ia, ib) {
            (Some(ia), Some(ib)) => {
                s.add(ia, sum_to::<T, S>(g.as_dyn(), la.sizes()));
                s.add(ib, sum_to_owned::<T, S2, _>(g, lb.sizes()));
            }
            (Some(ia), None) => s.add(ia, sum_to_owned::<T, S, _>(g, la.sizes())),
            (None, Some(ib)) => s.add(ib, sum_to_owned::<T, S2, _>(g, lb.sizes())),
            (None, None) => {}
        }
    };
    sub, try_sub, Sub, -, "sub", |g, a, b, y, ia, ib, la, lb, s| {
        s.add_with(ib, || sum_to::<T, S2>((-&g).as_dyn(), lb.sizes()));
        s.add_with(ia, || sum_to_owned::<T, S, _>(g, la.sizes()));
    };
    mul, try_mul, Mul, *, "mul", |g, a, b, y, ia, ib, la, lb, s| {
        s.add_with(ia, || sum_to_owned::<T, S, _>(g.as_dyn() * b.as_dyn(), la.sizes()));
        s.add_with(ib, || sum_to_owned::<T, S2, _>(g.as_dyn() * a.as_dyn(), lb.sizes()));
    };
    div, try_div, Div, /, "div", |g, a, b, y, ia, ib, la, lb, s| {
        // d/da = g / b; d/db = -g a / b² = -(g / b) y.
        let gb = g.as_dyn() / b.as_dyn();
        s.add_with(ib, || {
            let t = gb.zip_with(&y.as_dyn(), |q, y| -q * y);
            sum_to_owned::<T, S2, _>(t, lb.sizes())
        });
        s.add_with(ia, || sum_to_owned::<T, S, _>(gb, la.sizes()));
    };
}

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// Element-wise maximum of two values with broadcasting (PyTorch `maximum`): the gradient
    /// goes to the larger operand, split in half where they are equal (as PyTorch's); NaN where
    /// either is NaN.
    ///
    /// # Errors
    /// [`ShapeError::Broadcast`] when runtime sizes do not broadcast; [`ShapeError::Autograd`]
    /// when the operands are tracked by two tapes.
    pub fn try_maximum<S2: Shape>(&self, rhs: &Var<'t, T, S2>) -> Result<Var<'t, T, Broadcast<S, S2>>, ShapeError>
    where
        S: BroadcastShape<S2>,
    {
        self.extremum(rhs, true)
    }

    /// [`try_maximum`](Self::try_maximum), panicking with the error's message.
    #[track_caller]
    pub fn maximum<S2: Shape>(&self, rhs: &Var<'t, T, S2>) -> Var<'t, T, Broadcast<S, S2>>
    where
        S: BroadcastShape<S2>,
    {
        self.extremum(rhs, true).or_panic()
    }

    /// Element-wise minimum of two values with broadcasting (PyTorch `minimum`), as
    /// [`try_maximum`](Self::try_maximum).
    ///
    /// # Errors
    /// As [`try_maximum`](Self::try_maximum).
    pub fn try_minimum<S2: Shape>(&self, rhs: &Var<'t, T, S2>) -> Result<Var<'t, T, Broadcast<S, S2>>, ShapeError>
    where
        S: BroadcastShape<S2>,
    {
        self.extremum(rhs, false)
    }

    /// [`try_minimum`](Self::try_minimum), panicking with the error's message.
    #[track_caller]
    pub fn minimum<S2: Shape>(&self, rhs: &Var<'t, T, S2>) -> Var<'t, T, Broadcast<S, S2>>
    where
        S: BroadcastShape<S2>,
    {
        self.extremum(rhs, false).or_panic()
    }

    fn extremum<S2: Shape>(&self, rhs: &Var<'t, T, S2>, max: bool) -> Result<Var<'t, T, Broadcast<S, S2>>, ShapeError>
    where
        S: BroadcastShape<S2>,
    {
        let pick = move |a: T, b: T| {
            if a.is_nan() || b.is_nan() {
                T::nan()
            } else if (a > b) == max {
                a
            } else {
                b
            }
        };
        let out = self.value().try_zip_with(rhs.value(), pick)?;
        let (a, b) = (self.arc().clone(), rhs.arc().clone());
        Self::record([self.node(), rhs.node()], out, move |[ia, ib], _| {
            back(move |g: Tensor<T, Broadcast<S, S2>>, s: &mut Sink<T>| {
                // The share of `a`: 1 where a wins, 1/2 on ties, 0 where b wins.
                let wa = a.as_dyn().zip_with(&b.as_dyn(), move |x, y| {
                    if x == y {
                        c::<T>(0.5)
                    } else if (x > y) == max {
                        T::one()
                    } else {
                        T::zero()
                    }
                });
                let gd = g.as_dyn();
                s.add_with(ia, || sum_to_owned::<T, S, _>(gd.zip_with(&wa, |g, w| g * w), a.sizes()));
                s.add_with(ib, || sum_to_owned::<T, S2, _>(gd.zip_with(&wa, |g, w| g * (T::one() - w)), b.sizes()));
            })
        })
    }
}

/// Scalar operands: `&x * 2.0`, `1.0 - &x`, ... (same shape as `x`), for `f32` and `f64`.
macro_rules! scalar_ops {
    ($($t:ty),*) => {$(
        impl<'t, S: Shape> core::ops::Add<$t> for &Var<'t, $t, S> {
            type Output = Var<'t, $t, S>;
            #[track_caller]
            fn add(self, k: $t) -> Var<'t, $t, S> { self.add_scalar(k) }
        }
        impl<'t, S: Shape> core::ops::Sub<$t> for &Var<'t, $t, S> {
            type Output = Var<'t, $t, S>;
            #[track_caller]
            fn sub(self, k: $t) -> Var<'t, $t, S> { self.add_scalar(-k) }
        }
        impl<'t, S: Shape> core::ops::Mul<$t> for &Var<'t, $t, S> {
            type Output = Var<'t, $t, S>;
            #[track_caller]
            fn mul(self, k: $t) -> Var<'t, $t, S> { self.mul_scalar(k) }
        }
        impl<'t, S: Shape> core::ops::Div<$t> for &Var<'t, $t, S> {
            type Output = Var<'t, $t, S>;
            #[track_caller]
            fn div(self, k: $t) -> Var<'t, $t, S> { self.mul_scalar(1.0 / k) }
        }
        impl<'t, S: Shape> core::ops::Add<&Var<'t, $t, S>> for $t {
            type Output = Var<'t, $t, S>;
            #[track_caller]
            fn add(self, x: &Var<'t, $t, S>) -> Var<'t, $t, S> { x.add_scalar(self) }
        }
        impl<'t, S: Shape> core::ops::Sub<&Var<'t, $t, S>> for $t {
            type Output = Var<'t, $t, S>;
            #[track_caller]
            fn sub(self, x: &Var<'t, $t, S>) -> Var<'t, $t, S> { x.rsub_scalar(self) }
        }
        impl<'t, S: Shape> core::ops::Mul<&Var<'t, $t, S>> for $t {
            type Output = Var<'t, $t, S>;
            #[track_caller]
            fn mul(self, x: &Var<'t, $t, S>) -> Var<'t, $t, S> { x.mul_scalar(self) }
        }
        impl<'t, S: Shape> core::ops::Div<&Var<'t, $t, S>> for $t {
            type Output = Var<'t, $t, S>;
            #[track_caller]
            fn div(self, x: &Var<'t, $t, S>) -> Var<'t, $t, S> { x.rdiv_scalar(self) }
        }
    )*};
}
scalar_ops!(f32, f64);

impl<'t, T: GradFloat, S: Shape> core::ops::Neg for &Var<'t, T, S> {
    type Output = Var<'t, T, S>;
    #[track_caller]
    fn neg(self) -> Var<'t, T, S> {
        Var::neg(self)
    }
}
impl<'t, T: GradFloat, S: Shape> core::ops::Neg for Var<'t, T, S> {
    type Output = Var<'t, T, S>;
    #[track_caller]
    fn neg(self) -> Var<'t, T, S> {
        Var::neg(&self)
    }
}

// ---------------------------------------------------------------------------------------------
// Views and reshapes.

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// Any view of the value, differentiable: `f` receives a view of the value and returns a view
    /// of the same storage (`t!` slices with steps and negative strides, `narrow`, `select`,
    /// `diagonal`, `flip`, `permute`, ...), whose shape type is the result's. The result is a
    /// copy of the view (values are immutable); the gradient is the output gradient written back
    /// through the same view into zeros of the input's shape.
    ///
    /// ```
    /// # extern crate shaped_core as shaped;
    /// use shaped::{Shape, Tensor};
    /// use shaped::autograd::Tape;
    /// let tape = Tape::new();
    /// let x = tape.var(Tensor::<f64, Shape![2, 3]>::from([[1., 2., 3.], [4., 5., 6.]]));
    /// // Column 1 (with the `shaped` facade, `x.view_with(|v| t!(v[.., 1]))`).
    /// let col = x.view_with(|v| v.select::<1>(1)); // Shape![2]
    /// let grads = col.sum().backward();
    /// assert_eq!(grads.wrt(&x).unwrap().to_vec(), [0., 1., 0., 0., 1., 0.]);
    /// ```
    ///
    /// # Panics
    /// When `f` returns a view of another storage, or an overlapping one (an `expand`: use
    /// [`expand`](Self::expand), whose gradient sums).
    #[track_caller]
    pub fn view_with<S2: Shape>(
        &self,
        f: impl for<'v> FnOnce(TensorView<'v, T, S>) -> TensorView<'v, T, S2>,
    ) -> Var<'t, T, S2> {
        self.try_view_with(f).or_panic()
    }

    /// [`view_with`](Self::view_with), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `f` returns a view of another storage;
    /// [`ShapeError::Overlap`] when the view reaches an element twice.
    pub fn try_view_with<S2: Shape>(
        &self,
        f: impl for<'v> FnOnce(TensorView<'v, T, S>) -> TensorView<'v, T, S2>,
    ) -> Result<Var<'t, T, S2>, ShapeError> {
        let src = self.value();
        let v = f(src.as_view());
        if !core::ptr::eq(v.storage(), src.storage()) {
            return Err(ShapeError::Invalid(
                "view_with: the closure must return a view of the value it receives".into(),
            ));
        }
        let vl = *v.layout();
        self.record_view(vl)
    }

    /// The view of the value with layout `vl` (over the value's storage), recorded: its
    /// gradient is the output's, scattered back through the same layout.
    ///
    /// # Errors
    /// [`ShapeError::Overlap`] when the view reaches an element twice; the layout errors of
    /// [`TensorView::try_from_parts`] when `vl` does not fit the storage.
    pub(crate) fn record_view<S2: Shape>(&self, vl: Layout) -> Result<Var<'t, T, S2>, ShapeError> {
        if vl.may_overlap() {
            return Err(ShapeError::Overlap { sizes: vl.sizes().into(), strides: vl.strides().into() });
        }
        let src = self.value();
        let out = TensorView::<T, S2>::try_from_parts(src.storage(), vl)?.to_owned();
        let (xl, len) = (*src.layout(), src.storage().len());
        Self::record([self.node()], out, move |[i], _| {
            back(move |g: Tensor<T, S2>, s| s.add_with(i, || scatter_view::<T, S, S2>(&g, vl, xl, len)))
        })
    }

    /// The transpose of a matrix (PyTorch `t()`), differentiable: `[m, n] -> [n, m]`.
    #[track_caller]
    pub fn t(&self) -> Var<'t, T, <S as TransposeShape>::Out>
    where
        S: TransposeShape,
    {
        self.view_with(|v| v.t())
    }

    /// Axes `A` and `B` swapped (PyTorch `transpose(A, B)`), differentiable.
    #[track_caller]
    pub fn transpose<const A: isize, const B: isize>(&self) -> Var<'t, T, <S as SwapAxes<A, B>>::Out>
    where
        S: SwapAxes<A, B>,
    {
        self.view_with(|v| v.transpose::<A, B>())
    }

    /// The axes reordered (PyTorch `permute`), differentiable: `permute::<Axes![2, 0, 1]>()`.
    #[track_caller]
    pub fn permute<P: PermuteShape<S>>(&self) -> Var<'t, T, P::Out> {
        self.view_with(|v| v.permute::<P>())
    }

    /// A size-1 axis inserted at `A` (PyTorch `unsqueeze(A)`), differentiable.
    #[track_caller]
    pub fn unsqueeze<const A: isize>(&self) -> Var<'t, T, <S as InsertAxis<A>>::Out>
    where
        S: InsertAxis<A>,
    {
        self.view_with(|v| v.unsqueeze::<A>())
    }

    /// The slice at `index` along axis `A`, which is removed (PyTorch `select(A, index)`),
    /// differentiable.
    #[track_caller]
    pub fn select<const A: isize>(&self, index: isize) -> Var<'t, T, <S as RemoveAxis<A>>::Out>
    where
        S: RemoveAxis<A>,
    {
        self.view_with(|v| v.select::<A>(index))
    }

    /// `len` elements of axis `A` from `start` (PyTorch `narrow`), differentiable; the dim
    /// becomes `Dyn`.
    #[track_caller]
    pub fn narrow<const A: isize>(
        &self,
        start: isize,
        len: usize,
    ) -> Var<'t, T, <S as crate::shape::SetAxis<A, crate::dim::Dyn>>::Out>
    where
        S: crate::shape::SetAxis<A, crate::dim::Dyn>,
    {
        self.view_with(|v| v.narrow::<A>(start, len))
    }

    /// Axis `A` reversed (PyTorch `flip(A)`), differentiable: same shape.
    #[track_caller]
    pub fn flip<const A: isize>(&self) -> Var<'t, T, S>
    where
        S: RemoveAxis<A>,
    {
        self.view_with(|v| v.flip::<A>())
    }

    /// Every dim merged into one (PyTorch `x.flatten()`), differentiable: `[2, 3, 4] -> [_]`
    /// (24 at run time), as [`Tensor::flatten`](crate::TensorBase::flatten). To keep a batch dim,
    /// use [`nn::Flatten`](crate::nn::Flatten) (PyTorch's `nn.Flatten()`, `start_dim=1`), or
    /// name the shape: `reshape::<Shape![_, 64]>()`.
    ///
    /// # Errors
    /// [`ShapeError::Autograd`] for a value of a finished tape.
    pub fn try_flatten(&self) -> Result<Var<'t, T, (crate::dim::Dyn,)>, ShapeError> {
        self.try_reshape_sized::<(crate::dim::Dyn,)>(&[self.numel() as isize])
    }

    /// [`try_flatten`](Self::try_flatten), panicking with the error's message.
    #[track_caller]
    pub fn flatten(&self) -> Var<'t, T, (crate::dim::Dyn,)> {
        self.try_flatten().or_panic()
    }

    /// The value given the shape `S2` with runtime `sizes` (PyTorch `x.unflatten(dim, sizes)`,
    /// and the inverse of a flatten), differentiable: `sizes` must hold the value's element count
    /// and fit `S2`'s static dims; nothing is copied when the value is contiguous. Unlike a
    /// reshape with `-1`, every size is given, so a batch dim can never be regrouped silently.
    ///
    /// # Errors
    /// [`ShapeError::Reshape`] when the element counts differ; [`ShapeError::ShapeMismatch`]
    /// when `sizes` do not fit `S2`; [`ShapeError::Autograd`] for a value of a finished tape.
    pub fn try_unflatten<S2: Shape>(&self, sizes: &[usize]) -> Result<Var<'t, T, S2>, ShapeError> {
        let isizes: Vec<isize> = sizes.iter().map(|&n| isize::try_from(n).unwrap_or(isize::MAX)).collect();
        self.try_reshape_sized::<S2>(&isizes)
    }

    /// [`try_unflatten`](Self::try_unflatten), panicking with the error's message.
    #[track_caller]
    pub fn unflatten<S2: Shape>(&self, sizes: &[usize]) -> Var<'t, T, S2> {
        self.try_unflatten(sizes).or_panic()
    }

    /// A reshape to runtime `sizes` (one of them may be `-1`), typed as `S2`: the sizes are
    /// checked against `S2`'s static dims at run time. The gradient is reshaped back. What
    /// `nn::Flatten` runs.
    ///
    /// # Errors
    /// [`ShapeError::Reshape`] when the element counts differ;
    /// [`ShapeError::ShapeMismatch`] when the sizes do not fit `S2`.
    pub(crate) fn try_reshape_sized<S2: Shape>(&self, sizes: &[isize]) -> Result<Var<'t, T, S2>, ShapeError> {
        let out = self.value().as_dyn().try_reshape_dyn(sizes)?.into_owned().try_into_static::<S2>()?;
        let lay = *self.value().layout();
        Self::record([self.node()], out, move |[i], _| {
            back(move |g: Tensor<T, S2>, s: &mut Sink<T>| {
                s.add_with(i, || {
                    let isizes: Vec<isize> = lay.sizes().iter().map(|&n| n as isize).collect();
                    typed::<T, S>(g.as_dyn().reshape_dyn(&isizes).into_owned())
                })
            })
        })
    }

    /// The same elements in the row-major order of the shape `S2`, one of whose dims may be `_`
    /// (inferred, PyTorch's `-1`): PyTorch `reshape`, differentiable. Element counts are checked
    /// as [`Tensor::reshape`](crate::TensorBase::reshape)'s, at compile time where the shapes are
    /// static.
    #[track_caller]
    pub fn reshape<S2: Shape>(&self) -> Var<'t, T, S2>
    where
        S: ReshapeTo<S2>,
    {
        let out = self.value().reshape::<S2>().into_owned();
        let lay = *self.value().layout();
        self.record1(out, move |i, _| {
            back(move |g: Tensor<T, S2>, s| {
                s.add_with(i, || {
                    let isizes: Vec<isize> = lay.sizes().iter().map(|&n| n as isize).collect();
                    typed::<T, S>(g.as_dyn().reshape_dyn(&isizes).into_owned())
                })
            })
        })
    }

    /// Broadcast to the static shape `S2` (PyTorch `expand`), differentiable: the gradient is
    /// summed over the repeated dims.
    #[track_caller]
    pub fn expand<S2: crate::shape::AllStatic>(&self) -> Var<'t, T, S2>
    where
        S: crate::shape::ExpandShape<S2>,
    {
        let out = self.value().expand::<S2>().to_owned();
        let lay = *self.value().layout();
        self.record1(out, move |i, _| {
            back(move |g: Tensor<T, S2>, s| s.add_with(i, || sum_to_owned::<T, S, S2>(g, lay.sizes())))
        })
    }

    /// The value under another shape type with the same sizes (see
    /// [`Tensor::cast_shape`](crate::TensorBase::cast_shape)), differentiable.
    ///
    /// # Panics
    /// When the sizes do not fit `S2` (see [`try_cast_shape`](Self::try_cast_shape)).
    #[track_caller]
    pub fn cast_shape<S2: Shape>(&self) -> Var<'t, T, S2> {
        self.try_cast_shape::<S2>().or_panic()
    }

    /// [`cast_shape`](Self::cast_shape), returning an error instead of panicking.
    ///
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the sizes do not fit `S2`.
    pub fn try_cast_shape<S2: Shape>(&self) -> Result<Var<'t, T, S2>, ShapeError> {
        let out = self.value().clone().into_dyn().try_into_static::<S2>()?;
        Self::record([self.node()], out, move |[i], _| {
            back(move |g: Tensor<T, S2>, s| s.add_with(i, || typed::<T, S>(g.into_dyn())))
        })
    }
}

/// The gradient of a view: `g` written through the view's layout `vl` into zeros of the
/// source's storage (`len` elements), then read back through the source's layout `xl`.
pub(crate) fn scatter_view<T: GradFloat, S: Shape, S2: Shape>(
    g: &Tensor<T, S2>,
    vl: Layout,
    xl: Layout,
    len: usize,
) -> Tensor<T, S> {
    let mut buf = alloc::vec![T::zero(); len];
    {
        // The view's layout fits a buffer of `len` elements and does not overlap (checked by
        // `record_view`; einsum's diagonals reach each element once); `try_from_parts` checks
        // both again.
        let mut dst = TensorViewMut::<T, DynShape>::try_from_parts(&mut buf[..], vl).or_panic();
        dst += &g.as_dyn();
    }
    from_storage_grad(buf, xl, len)
}

/// A gradient given per element of a value's storage (`buf`, `len` elements) as a tensor of the
/// value's shape, read through its layout `xl`.
pub(crate) fn from_storage_grad<T: GradFloat, S: Shape>(buf: Vec<T>, xl: Layout, len: usize) -> Tensor<T, S> {
    if xl.offset() == 0 && xl.is_contiguous() && xl.numel() == len {
        return typed(Tensor::<T, DynShape>::from_vec(xl.sizes(), buf));
    }
    typed(TensorView::<T, DynShape>::try_from_parts(&buf[..], xl).or_panic().to_owned())
}

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// Axes `a` and `b` swapped (PyTorch `transpose(a, b)`, runtime axes), differentiable.
    ///
    /// # Errors
    /// [`ShapeError::Axis`] for an axis the value lacks.
    pub fn try_transpose_dyn(&self, a: isize, b: isize) -> Result<Var<'t, T, DynShape>, ShapeError> {
        self.value().try_transpose_dyn(a, b)?;
        self.try_view_with(|v| v.transpose_dyn(a, b))
    }
    /// [`try_transpose_dyn`](Self::try_transpose_dyn), panicking with the error's message.
    #[track_caller]
    pub fn transpose_dyn(&self, a: isize, b: isize) -> Var<'t, T, DynShape> {
        self.try_transpose_dyn(a, b).or_panic()
    }
    /// The axes reordered (PyTorch `permute(axes)`, runtime axes), differentiable. An axis is a
    /// `usize` or a signed integer, negative counting from the end as PyTorch's
    /// (`permute_dyn(&[-1, 0, 1])`).
    ///
    /// # Errors
    /// [`ShapeError::Permutation`] when `axes` (made non-negative) is not a permutation of the
    /// value's dims; [`ShapeError::Invalid`] for a negative axis below `-rank`.
    pub fn try_permute_dyn<A: PermuteAxis>(&self, axes: &[A]) -> Result<Var<'t, T, DynShape>, ShapeError> {
        let r = self.value().rank() as isize;
        let signed: Vec<isize> = axes.iter().map(|a| a.as_isize()).collect();
        if signed.iter().any(|&a| a < -r) {
            return Err(ShapeError::Invalid(alloc::format!(
                "{signed:?} is not a permutation of the axes of a tensor of rank {r}"
            )));
        }
        // Non-negative axes as given (an error names them as given), negative ones from the end.
        let ax: Vec<usize> = signed.iter().map(|&a| if a < 0 { (a + r) as usize } else { a as usize }).collect();
        self.value().try_permute_dyn(&ax)?;
        self.try_view_with(|v| v.permute_dyn(&ax))
    }
    /// [`try_permute_dyn`](Self::try_permute_dyn), panicking with the error's message.
    #[track_caller]
    pub fn permute_dyn<A: PermuteAxis>(&self, axes: &[A]) -> Var<'t, T, DynShape> {
        self.try_permute_dyn(axes).or_panic()
    }
}

/// An axis of [`Var::permute_dyn`]: `usize`, or `isize`, `i32`, `i64` (negative counts from the
/// end, as PyTorch's). Sealed.
pub trait PermuteAxis: Copy + sealed_axis::Sealed {
    /// The axis as a signed position (negative from the end). An axis past `isize::MAX` is
    /// `isize::MAX`, out of range for every rank.
    fn as_isize(self) -> isize;
}
mod sealed_axis {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for isize {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
}
impl PermuteAxis for usize {
    fn as_isize(self) -> isize {
        isize::try_from(self).unwrap_or(isize::MAX)
    }
}
impl PermuteAxis for isize {
    fn as_isize(self) -> isize {
        self
    }
}
impl PermuteAxis for i32 {
    fn as_isize(self) -> isize {
        self as isize
    }
}
impl PermuteAxis for i64 {
    fn as_isize(self) -> isize {
        isize::try_from(self).unwrap_or(if self < 0 { isize::MIN } else { isize::MAX })
    }
}

// ---------------------------------------------------------------------------------------------
// Matrix products.

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// The matrix product with PyTorch's `matmul` rules (1-D operands, batch dims that
    /// broadcast), differentiable: `[.., m, k] @ [.., k, n] -> [.., m, n]`. Inner dims that differ
    /// are a compile error where static.
    ///
    /// # Errors
    /// [`ShapeError::MatMul`] when runtime sizes do not fit; [`ShapeError::Autograd`] when the
    /// operands are tracked by two tapes.
    pub fn try_matmul<S2: Shape>(
        &self,
        rhs: &Var<'t, T, S2>,
    ) -> Result<Var<'t, T, <S as MatMulShape<S2>>::Out>, ShapeError>
    where
        S: MatMulShape<S2>,
    {
        let out = self.value().try_matmul(rhs.value())?;
        let (a, b) = (self.arc().clone(), rhs.arc().clone());
        Self::record([self.node(), rhs.node()], out, move |[ia, ib], _| {
            back(move |g: Tensor<T, <S as MatMulShape<S2>>::Out>, s: &mut Sink<T>| {
                let (ad, bd) = (a.as_dyn(), b.as_dyn());
                // Both operands as matrices (a 1-D `a` is a row, a 1-D `b` a column), and the
                // output gradient with the dims that 1-D operands dropped put back.
                let a2 = if ad.rank() == 1 { ad.unsqueeze_dyn(0) } else { ad };
                let b2 = if bd.rank() == 1 { bd.unsqueeze_dyn(1) } else { bd };
                let mut gd = g.as_dyn();
                if a.rank() == 1 {
                    gd = gd.unsqueeze_dyn(-2 + (b.rank() == 1) as isize);
                }
                if b.rank() == 1 {
                    gd = gd.unsqueeze_dyn(-1);
                }
                s.add_with(ia, || {
                    let ga = gd.matmul(&b2.transpose_dyn(-1, -2));
                    let ga: Tensor<T, DynShape> = sum_to(ga.as_dyn(), a2.sizes());
                    let isizes: Vec<isize> = a.sizes().iter().map(|&n| n as isize).collect();
                    typed::<T, S>(ga.reshape_dyn(&isizes).into_owned())
                });
                s.add_with(ib, || {
                    let gb = a2.transpose_dyn(-1, -2).matmul(&gd);
                    let gb: Tensor<T, DynShape> = sum_to(gb.as_dyn(), b2.sizes());
                    let isizes: Vec<isize> = b.sizes().iter().map(|&n| n as isize).collect();
                    typed::<T, S2>(gb.reshape_dyn(&isizes).into_owned())
                });
            })
        })
    }

    /// [`try_matmul`](Self::try_matmul), panicking with the error's message.
    #[track_caller]
    pub fn matmul<S2: Shape>(&self, rhs: &Var<'t, T, S2>) -> Var<'t, T, <S as MatMulShape<S2>>::Out>
    where
        S: MatMulShape<S2>,
    {
        self.try_matmul(rhs).or_panic()
    }
}

// ---------------------------------------------------------------------------------------------
// Reductions and scans: `ops/reduce.rs`.

mod reduce;
