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
use crate::dim::Dyn;
use crate::error::{OrPanic, ShapeError};
use crate::index::{apply_args, SliceArg};
use crate::kernels::reduce::Sum;
use crate::layout::normalize_insert_axis;
use crate::layout::{normalize_axis, Layout};
use crate::num::derivatives::{self, X, Y};
use crate::shape::{
    permutation, Broadcast, BroadcastShape, DiagonalAxes, DropAxis, DynShape, FlattenAxes, FlattenShape, HasAxis,
    MatMulShape, MoveAxisTo, PermuteAxes, ProdParts, RemoveAxis, ReplaceAxis, ReshapeTo, Shape, SplitProd, SqueezeAxis,
    SwapAxis, TransposeShape, Unflatten, UnflattenAxis, UnsqueezeAxis,
};
use crate::tensor::{Tensor, TensorView, TensorViewMut};
use alloc::sync::Arc;
use alloc::vec::Vec;
use num_traits::NumCast;
use shaped_macros::try_twin;

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

/// `Var`'s method of every entry of the derivative table (`num/derivatives.rs`, which forward
/// mode's `Dual` reads too): the value is the tensor method's of the same name, the gradient the
/// entry's rule, handed the input (`rule_x`) or the output (`rule_y`) as the entry reads.
macro_rules! var_unary {
    (@rule $s:ident, X, $y:expr, $f:expr) => { $s.rule_x($y, $f) };
    (@rule $s:ident, Y, $y:expr, $f:expr) => { $s.rule_y($y, $f) };
    ($(
        $(#[$doc:meta])*
        $name:ident($op:ident $v:ident) $torch:literal $(let $l:ident = $le:expr;)* => $e:expr;
    )*) => {
        impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {$(
            #[doc = concat!("Element-wise `", stringify!($name), "`, differentiable (PyTorch `", $torch, "`): same shape. The value is [`Tensor::", stringify!($name), "`](crate::TensorBase::", stringify!($name), ")'s; the derivative, the table's:")]
            #[doc = ""]
            $(#[$doc])*
            #[track_caller]
            pub fn $name(&self) -> Var<'t, T, S> {
                var_unary!(@rule self, $op, self.value().$name(), |g, v| derivatives::$name($op(v)).apply(g))
            }
        )*}
    };
}

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// An element-wise operation with value `y` whose input gradient is `d(g, x)` element by
    /// element.
    #[track_caller]
    pub(crate) fn rule_x(&self, y: Tensor<T, S>, d: impl Deriv<T>) -> Var<'t, T, S> {
        self.rule(y, false, d)
    }

    /// An element-wise operation with value `y` whose input gradient is `d(g, y)`.
    #[track_caller]
    pub(crate) fn rule_y(&self, y: Tensor<T, S>, d: impl Deriv<T>) -> Var<'t, T, S> {
        self.rule(y, true, d)
    }

    /// [`rule_x`](Self::rule_x) (`of_y` false: the input is saved) and [`rule_y`](Self::rule_y)
    /// (the output is).
    #[track_caller]
    fn rule(&self, y: Tensor<T, S>, of_y: bool, d: impl Deriv<T>) -> Var<'t, T, S> {
        // The input is held only when the rule reads it (`rule_y` keeps the output alone).
        let x = (!of_y).then(|| self.arc().clone());
        self.record1(y, move |i, y| {
            let saved = x.unwrap_or_else(|| y.clone());
            back(move |g: Tensor<T, S>, s| s.add_with(i, || g.zip_with(&*saved, d)))
        })
    }
}

/// An element-wise derivative rule `d(g, v)`: the input's gradient element from the output's
/// gradient element `g` and the saved value `v` (the input or the output).
pub(crate) trait Deriv<T>: Fn(T, T) -> T + Send + Sync + Copy + 'static {}
impl<T, F: Fn(T, T) -> T + Send + Sync + Copy + 'static> Deriv<T> for F {}

crate::num::derivatives::derivative_table!(var_unary);

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

/// `Var`'s method of every entry of the table of element-wise functions of two inputs
/// (`num/derivatives.rs`'s `binary_derivative_table!`, which forward mode reads too), with its
/// `try_` form: the value is the tensor method's, the gradient of each operand `g` times the
/// entry's partial derivative, summed over the dims the operand was broadcast along.
macro_rules! var_binary {
    ($(
        $(#[$doc:meta])*
        $name:ident $try_name:ident($x:ident, $y:ident) $torch:literal $(let $l:ident = $le:expr;)* => ($dx:expr, $dy:expr);
    )*) => {
        impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {$(
            #[doc = concat!("Element-wise `", stringify!($name), "` of two values with broadcasting, differentiable (PyTorch `", $torch, "`): `[2, 3]` with `[3]` gives `[2, 3]`. The value is [`Tensor::", stringify!($name), "`](crate::TensorBase::", stringify!($name), ")'s; the partial derivatives, the table's:")]
            #[doc = ""]
            $(#[$doc])*
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = "[`ShapeError::Broadcast`] when runtime sizes do not broadcast (static ones are a compile error); [`ShapeError::Autograd`] when the operands are tracked by two tapes."]
            #[try_twin]
            pub fn $try_name<S2: Shape>(&self, rhs: &Var<'t, T, S2>) -> Result<Var<'t, T, Broadcast<S, S2>>, ShapeError>
            where
                S: BroadcastShape<S2>,
            {
                self.binary_rule(rhs, self.value().$try_name(rhs.value())?, derivatives::$name)
            }
        )*}
    };
}

crate::num::derivatives::binary_derivative_table!(var_binary);

/// `Var`'s `try_x` and `x` of each entry of the table of views that may be written through
/// (`tensor/views.rs`'s `writable_views!`): the value is the view's elements (copied out), the
/// gradient the output's, scattered back through the same layout ([`Var::record_view`]), 0 at
/// the elements the view leaves out. Entries marked `@novar` have a hand-written form.
macro_rules! var_view {
    (mut $({ $($entry:tt)* })*) => {
        $(var_view!(@one $($entry)*);)*
    };
    (@one @novar; $($rest:tt)*) => {};
    (@one
        $(#[$m:meta])*
        $name:ident, $try:ident; $mname:ident, $mtry:ident;
        [$($g:tt)*] [$($tf:tt)*] ($($arg:ident: $ty:ty),*) -> $Out:ty where [$($w:tt)*]
        errors $err:literal
        |$l:ident, $r:pat_param| $body:expr
    ) => {
        impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
            #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name),
                "), returning an error instead of panicking.\n\n# Errors\n", $err)]
            pub fn $try<$($g)*>(&self, $($arg: $ty),*) -> Result<Var<'t, T, $Out>, ShapeError>
            where $($w)*
            {
                let vl = {
                    let ($l, $r) = (self.value().layout(), self.value().rank());
                    $body?
                };
                self.record_view(vl)
            }
            crate::tensor::views::table_twin! {
                $(#[$m])*
                #[doc = ""]
                #[doc = concat!("On a `Var`, differentiable: the value is [`Tensor::", stringify!($name), "`](crate::TensorBase::", stringify!($name), ")'s elements, and their gradient goes back through the same view.")]
                $name, $try; [$($g)*] [$($tf)*] ($($arg: $ty),*) -> Var<'t, T, $Out> where [$($w)*] errors $err
            }
        }
    };
}

crate::tensor::views::writable_views!(var_view);

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// A function of two values with value `out` (their broadcast shape) whose partial
    /// derivatives at `(a, b)` are `d(a, b)`. Generic over `d`, so that each operand's pass
    /// inlines the table entry and computes only its own partial.
    fn binary_rule<S2: Shape>(
        &self,
        rhs: &Var<'t, T, S2>,
        out: Tensor<T, Broadcast<S, S2>>,
        d: impl Fn(T, T) -> (T, T) + Copy + Send + Sync + 'static,
    ) -> Result<Var<'t, T, Broadcast<S, S2>>, ShapeError>
    where
        S: BroadcastShape<S2>,
    {
        let (a, b) = (self.arc().clone(), rhs.arc().clone());
        Self::record([self.node(), rhs.node()], out, move |[ia, ib], _| {
            back(move |g: Tensor<T, Broadcast<S, S2>>, s: &mut Sink<T>| {
                let gd = g.as_dyn();
                let part = |first: bool| {
                    let p = a.as_dyn().zip_with(&b.as_dyn(), move |x, y| if first { d(x, y).0 } else { d(x, y).1 });
                    gd.zip_with(&p, |g, p| g * p)
                };
                s.add_with(ia, || sum_to_owned::<T, S, _>(part(true), a.sizes()));
                s.add_with(ib, || sum_to_owned::<T, S2, _>(part(false), b.sizes()));
            })
        })
    }
}

/// Scalar operands: `&x * 2.0`, `1.0 - &x`, ... (same shape as `x`), for `f32` and `f64`: each
/// operator with the scalar on the right (`|x, k|`) and on the left (`|k, x|`).
macro_rules! scalar_ops {
    ($($t:ty),*; $ops:tt) => {
        $(scalar_ops!(@one $t; $ops);)*
    };
    (@one $t:ty; { $($Tr:ident $m:ident |$x:ident, $k:ident| $right:expr, |$k2:ident, $x2:ident| $left:expr;)* }) => {$(
        impl<'t, S: Shape> core::ops::$Tr<$t> for &Var<'t, $t, S> {
            type Output = Var<'t, $t, S>;
            #[track_caller]
            fn $m(self, $k: $t) -> Var<'t, $t, S> {
                let $x = self;
                $right
            }
        }
        impl<'t, S: Shape> core::ops::$Tr<&Var<'t, $t, S>> for $t {
            type Output = Var<'t, $t, S>;
            #[track_caller]
            fn $m(self, $x2: &Var<'t, $t, S>) -> Var<'t, $t, S> {
                let $k2 = self;
                $left
            }
        }
    )*};
}
scalar_ops! { f32, f64; {
    Add add |x, k| x.add_scalar(k), |k, x| x.add_scalar(k);
    Sub sub |x, k| x.add_scalar(-k), |k, x| x.rsub_scalar(k);
    Mul mul |x, k| x.mul_scalar(k), |k, x| x.mul_scalar(k);
    Div div |x, k| x.mul_scalar(1.0 / k), |k, x| x.rdiv_scalar(k);
} }

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
    /// use shaped::{Ax, Shape, Tensor};
    /// use shaped::autograd::Tape;
    /// let tape = Tape::new();
    /// let x = tape.var(Tensor::<f64, Shape![2, 3]>::from([[1., 2., 3.], [4., 5., 6.]]));
    /// // Column 1 (with the `shaped` facade, `x.view_with(|v| t!(v[.., 1]))`).
    /// let col = x.view_with(|v| v.select(Ax::<1>, 1)); // Shape![2]
    /// let grads = col.sum().backward();
    /// assert_eq!(grads.wrt(&x).unwrap().to_vec(), [0., 1., 0., 0., 1., 0.]);
    /// ```
    ///
    /// # Errors
    /// [`ShapeError::Invalid`] when `f` returns a view of another storage;
    /// [`ShapeError::Overlap`] when the view reaches an element twice.
    #[try_twin(doc = "Any view of the value, differentiable.")]
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

    /// Every dim merged into one (PyTorch `x.flatten()`), differentiable: `[2, 3, 4] -> [2×3×4]`,
    /// a product dim ([`Prod`](crate::Prod), 24 at run time), as
    /// [`Tensor::flatten`](crate::TensorBase::flatten). To keep a batch dim, use
    /// [`flatten_range`](Self::flatten_range) or [`nn::Flatten`](crate::nn::Flatten) (PyTorch's
    /// `nn.Flatten()`, `start_dim=1`), or name the shape: `reshape::<Shape![_, 64]>()`.
    ///
    /// # Errors
    /// [`ShapeError::Autograd`] for a value of a finished tape.
    #[try_twin]
    pub fn try_flatten(&self) -> Result<Var<'t, T, <S as FlattenShape>::Out>, ShapeError>
    where
        S: FlattenShape,
    {
        self.try_reshape_sized::<<S as FlattenShape>::Out>(&[self.numel() as isize])
    }

    /// Dims `start..=end` merged into one product dim ([`Prod`](crate::Prod); PyTorch
    /// `flatten(start_dim, end_dim)`, `end` inclusive), differentiable, as
    /// [`Tensor::flatten_range`](crate::TensorBase::flatten_range): `[Batch, Seq, 384]` with
    /// `(Batch, Seq)` or `(Ax::<0>, Ax::<1>)` is `[Batch×Seq, 384]`. `Ax::<N>` and dim names are
    /// checked at compile time for tuple shapes; `isize` axes at run time (the result a
    /// [`DynShape`](crate::DynShape)).
    ///
    /// # Errors
    /// [`ShapeError::Axis`] and [`ShapeError::Invalid`] for runtime axes, or a
    /// [`DynShape`](crate::DynShape) value, out of range or reversed; [`ShapeError::Autograd`] for
    /// a value of a finished tape.
    #[try_twin]
    pub fn try_flatten_range<X1, M1, X2, M2, Y: Shape>(&self, start: X1, end: X2) -> Result<Var<'t, T, Y>, ShapeError>
    where
        S: FlattenAxes<X1, M1, X2, M2, Out = Y>,
    {
        let (a, b) = <S as FlattenAxes<X1, M1, X2, M2>>::axis_indices(&start, &end);
        let r = self.sizes().len().max(1);
        let (sizes, k) = self.value().layout().flatten_sizes(normalize_axis(a, r)?, normalize_axis(b, r)?)?;
        let isizes: Vec<isize> = sizes[..k].iter().map(|&n| n as isize).collect();
        self.try_reshape_sized::<Y>(&isizes)
    }

    /// Dim `A`, a product dim `X×Y`, split into its factors `X` and `Y` (`outer` is `X`'s size),
    /// differentiable, as [`Tensor::unflatten_prod`](crate::TensorBase::unflatten_prod):
    /// `[Batch×Seq, 384]` with `<0>` and the batch size is `[Batch, Seq, 384]`.
    ///
    /// # Errors
    /// As [`Tensor::try_unflatten_prod`](crate::TensorBase::try_unflatten_prod);
    /// [`ShapeError::Autograd`] for a value of a finished tape.
    #[try_twin]
    pub fn try_unflatten_prod<const A: isize>(
        &self,
        outer: usize,
    ) -> Result<Var<'t, T, <S as Unflatten<A, ProdParts<S, A>>>::Out>, ShapeError>
    where
        S: RemoveAxis<A>,
        <S as RemoveAxis<A>>::Removed: SplitProd,
        S: Unflatten<A, ProdParts<S, A>>,
    {
        let v = self.value().try_unflatten_prod::<A>(outer)?;
        let isizes: Vec<isize> = v.sizes().iter().map(|&n| n as isize).collect();
        self.try_reshape_sized::<<S as Unflatten<A, ProdParts<S, A>>>::Out>(&isizes)
    }

    /// Dim `axis` split into the dims `sizes` (PyTorch `unflatten(dim, sizes)`), differentiable,
    /// as [`Tensor::unflatten`](crate::TensorBase::unflatten): `[2, 12]` with `(Ax::<1>,
    /// (Const::<3>, Const::<4>))` is `[2, 3, 4]`; an `isize` axis or `isize` sizes (`[3, -1]`) give
    /// a [`DynShape`](crate::DynShape) value. The gradient is reshaped back.
    ///
    /// # Errors
    /// As [`Tensor::try_unflatten`](crate::TensorBase::try_unflatten); [`ShapeError::Autograd`]
    /// for a value of a finished tape.
    #[try_twin]
    pub fn try_unflatten<X, M, U, Y: Shape>(&self, axis: X, sizes: U) -> Result<Var<'t, T, Y>, ShapeError>
    where
        S: UnflattenAxis<X, M, U, Out = Y>,
    {
        let v = self.value().try_unflatten(axis, sizes)?;
        let isizes: Vec<isize> = v.sizes().iter().map(|&n| n as isize).collect();
        self.try_reshape_sized::<Y>(&isizes)
    }

    /// The value given the shape `S2` with runtime `sizes`, one of which may be `-1` (PyTorch
    /// `x.reshape(sizes)`, typed), differentiable: the sizes must hold the value's element count
    /// and fit `S2`'s static dims (checked here); nothing is copied when the value is contiguous.
    /// The gradient is reshaped back. What `nn::Flatten` runs; where every size is given, a batch
    /// dim can never be regrouped silently.
    ///
    /// # Errors
    /// [`ShapeError::Reshape`] when the element counts differ; [`ShapeError::ShapeMismatch`]
    /// when the sizes do not fit `S2`; [`ShapeError::Autograd`] for a value of a finished tape.
    #[try_twin]
    pub fn try_reshape_sized<S2: Shape>(&self, sizes: &[isize]) -> Result<Var<'t, T, S2>, ShapeError> {
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
    /// # Errors
    /// [`ShapeError::ShapeMismatch`] when the sizes do not fit `S2`.
    #[try_twin(
        doc = "The value under another shape type with the same sizes (see [`Tensor::cast_shape`](crate::TensorBase::cast_shape)), differentiable."
    )]
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
    /// The axes reordered (PyTorch `permute(axes)`, runtime axes), differentiable. An axis is a
    /// `usize` or a signed integer, negative counting from the end as PyTorch's
    /// (`permute_dyn(&[-1, 0, 1])`).
    ///
    /// # Errors
    /// [`ShapeError::Permutation`] when `axes` (made non-negative) is not a permutation of the
    /// value's dims; [`ShapeError::Invalid`] for a negative axis below `-rank`.
    #[try_twin]
    #[deprecated(
        note = "`permute` takes the axes as an array of `isize`: `v.permute([2, 0, 1])` (negatives count from the end)"
    )]
    #[allow(deprecated)]
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
    #[try_twin]
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
                let a2 = if ad.rank() == 1 { ad.unsqueeze(0) } else { ad };
                let b2 = if bd.rank() == 1 { bd.unsqueeze(1) } else { bd };
                let mut gd = g.as_dyn();
                if a.rank() == 1 {
                    gd = gd.unsqueeze(-2 + (b.rank() == 1) as isize);
                }
                if b.rank() == 1 {
                    gd = gd.unsqueeze(-1);
                }
                s.add_with(ia, || {
                    let ga = gd.matmul(&b2.transpose(-1, -2));
                    let ga: Tensor<T, DynShape> = sum_to(ga.as_dyn(), a2.sizes());
                    let isizes: Vec<isize> = a.sizes().iter().map(|&n| n as isize).collect();
                    typed::<T, S>(ga.reshape_dyn(&isizes).into_owned())
                });
                s.add_with(ib, || {
                    let gb = a2.transpose(-1, -2).matmul(&gd);
                    let gb: Tensor<T, DynShape> = sum_to(gb.as_dyn(), b2.sizes());
                    let isizes: Vec<isize> = b.sizes().iter().map(|&n| n as isize).collect();
                    typed::<T, S2>(gb.reshape_dyn(&isizes).into_owned())
                });
            })
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Reductions and scans: `ops/reduce.rs`.

mod reduce;
