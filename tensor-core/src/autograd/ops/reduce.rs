//! Reductions and scans of a `Var` (a module of `autograd::ops`): `sum`, `mean`, the axis forms
//! (const and `_dyn`), `max`/`min` and their arg forms, `var`/`std`, norms, `logsumexp`,
//! softmax and log-softmax, `prod`, `cumsum`/`cumprod`, ... with their backward rules.
#[allow(unused_imports)]
use super::*;
use crate::kernels::reduce::{Mean, Prod};
use crate::ops::reduce::Norm;
use crate::shape::{DropAxis, HasAxis, KeepAxis};
use shaped_macros::try_twin;

// ---------------------------------------------------------------------------------------------
// Reductions.

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// A one-element `Shape![]` tensor.
    fn scalar_tensor(v: T) -> Tensor<T, ()> {
        Tensor::<T, ()>::from_vec(&[], alloc::vec![v])
    }

    /// `t` (a reduction's output or its gradient, any shape type) as a view with the reduced
    /// `axes` (ascending) present as size-1 dims, which broadcasts against the input.
    fn kept<'a, S2: Shape>(t: &'a Tensor<T, S2>, axes: &[usize], keep: bool) -> TensorView<'a, T, DynShape> {
        let mut v = t.as_dyn();
        if !keep {
            for &a in axes {
                v = v.unsqueeze(a as isize);
            }
        }
        v
    }

    /// The sum of `t` over `axes`, kept as size-1 dims.
    #[track_caller]
    fn sum_kept(t: &Tensor<T, DynShape>, axes: &[usize]) -> Tensor<T, DynShape> {
        t.reduce_with(axes, true, &Sum).or_panic()
    }

    /// 1 where `v` is the extreme `m` (NaN counting as equal to NaN), else 0.
    fn hit(v: T, m: T) -> T {
        if v == m || (v.is_nan() && m.is_nan()) {
            T::one()
        } else {
            T::zero()
        }
    }

    /// The gradient `gk` (kept dims) of an extreme over `axes`, split evenly among the elements
    /// marked 1 in `hits` (PyTorch's `evenly_distribute_backward`).
    #[track_caller]
    fn split_evenly(hits: Tensor<T, DynShape>, gk: TensorView<'_, T, DynShape>, axes: &[usize]) -> Tensor<T, DynShape> {
        let share = gk.zip_with(&Self::sum_kept(&hits, axes), |g, n| g / n);
        hits.zip_with(&share, |h, s| h * s)
    }

    /// How many elements one output element of a reduction over `axes` reads.
    fn count(&self, axes: &[usize]) -> T {
        c::<T>(axes.iter().map(|&a| self.sizes()[a]).product::<usize>() as f64)
    }

    /// The rule of a sum or mean over `axes`: the output's gradient spread back over them (over
    /// their element count for a mean).
    #[track_caller]
    fn sum_rule<S2: Shape>(&self, out: Tensor<T, S2>, axes: Vec<usize>, keep: bool, mean: bool) -> Var<'t, T, S2> {
        let lay = *self.value().layout();
        let scale = if mean { T::one() / self.count(&axes) } else { T::one() };
        self.record1(out, move |i, _| {
            back(move |g: Tensor<T, S2>, s| {
                s.add_with(i, || {
                    let e = Self::kept(&g, &axes, keep).expand_dyn(lay.sizes());
                    typed::<T, S>(if mean { e.map(move |v| v * scale) } else { e.to_owned() })
                })
            })
        })
    }

    /// The rule of a reduction over `axes` whose input gradient is `f(x, gk, yk)`: the input
    /// `x`, and the output's gradient `gk` and value `yk` as [`kept`](Self::kept) views (the
    /// reduced dims present as size-1 dims, so that they broadcast against `x`). The scaffold of
    /// the rules below.
    #[track_caller]
    fn axes_rule<S2: Shape>(
        &self,
        out: Tensor<T, S2>,
        axes: Vec<usize>,
        keep: bool,
        f: impl Fn(
                TensorView<'_, T, DynShape>,
                TensorView<'_, T, DynShape>,
                TensorView<'_, T, DynShape>,
                &[usize],
            ) -> Tensor<T, DynShape>
            + Send
            + Sync
            + 'static,
    ) -> Var<'t, T, S2> {
        let x = self.arc().clone();
        self.record1(out, move |i, y| {
            let y = y.clone();
            back(move |g: Tensor<T, S2>, s| {
                s.add_with(i, || {
                    typed::<T, S>(f(x.as_dyn(), Self::kept(&g, &axes, keep), Self::kept(&y, &axes, keep), &axes))
                })
            })
        })
    }

    /// The rule of `nansum` or `nanmean` over `axes`: the sum's or mean's rule over the elements
    /// that are not NaN, 0 at a NaN (PyTorch's `grad * ~isnan(x)`, over the count for the mean).
    #[track_caller]
    fn nan_rule<S2: Shape>(&self, out: Tensor<T, S2>, axes: Vec<usize>, keep: bool, mean: bool) -> Var<'t, T, S2> {
        self.axes_rule(out, axes, keep, move |x, gk, _, axes| {
            let m = x.map(|v| if v.is_nan() { T::zero() } else { T::one() });
            let gk = if mean { gk.zip_with(&Self::sum_kept(&m, axes), |g, n| g / n) } else { gk.to_owned() };
            m.zip_with(&gk, |m, g| if m == T::zero() { T::zero() } else { g })
        })
    }

    /// The rule of a maximum or minimum over `axes`: each output's gradient split evenly among
    /// the elements equal to it (PyTorch's `amax`/`amin` and whole-tensor `max`/`min`).
    #[track_caller]
    fn extreme_rule<S2: Shape>(&self, out: Tensor<T, S2>, axes: Vec<usize>, keep: bool) -> Var<'t, T, S2> {
        self.axes_rule(out, axes, keep, |x, gk, yk, axes| {
            let hits = x.zip_with(&yk, |v, m| Self::hit(v, m));
            Self::split_evenly(hits, gk, axes)
        })
    }

    /// The rule of a product over `axes`: the gradient of each element is the product of the
    /// others in its line, exact with zeros (with one zero in the line only it gets a gradient,
    /// with two or more none does, as PyTorch's `prod_backward`).
    #[track_caller]
    fn prod_rule<S2: Shape>(&self, out: Tensor<T, S2>, axes: Vec<usize>, keep: bool) -> Var<'t, T, S2> {
        self.axes_rule(out, axes, keep, |xd, gk, yk, axes| {
            let zeros = Self::sum_kept(&xd.map(|v| if v == T::zero() { T::one() } else { T::zero() }), axes);
            let others: Tensor<T, DynShape> =
                xd.map(|v| if v == T::zero() { T::one() } else { v }).reduce_with(axes, true, &Prod).or_panic();
            let gy = gk.zip_with(&yk, |g, y| g * y);
            let go = gk.zip_with(&others, |g, o| g * o);
            // With no zero in the line, `g y / x`; with one, `g` times the others at the zero
            // and 0 elsewhere; with more, 0.
            let a =
                xd.zip_with(&gy, |v, gy| gy / v).zip_with(&zeros, |a, z| if z == T::zero() { a } else { T::zero() });
            let first = xd.zip_with(&zeros, |v, z| v == T::zero() && z == T::one());
            let b = first.zip_with(&go, |m, go| if m { go } else { T::zero() });
            a.zip_with(&b, |a, b| a + b)
        })
    }

    /// The rule of `logsumexp` over `axes`: `g · exp(x - y)`, the softmax over them.
    #[track_caller]
    fn logsumexp_rule<S2: Shape>(&self, out: Tensor<T, S2>, axes: Vec<usize>, keep: bool) -> Var<'t, T, S2> {
        self.axes_rule(out, axes, keep, |x, gk, yk, _| {
            x.zip_with(&yk, |v, l| (v - l).exp()).zip_with(&gk, |p, g| p * g)
        })
    }

    /// The rule of a variance over `axes` with Bessel's `correction`, `2 (x - mean) g / (n -
    /// correction)`, or of the standard deviation `y` (`std`), `(x - mean) g / ((n - correction)
    /// y)`, 0 where `y` is 0 (PyTorch's `std_backward`).
    #[track_caller]
    fn var_rule<S2: Shape>(
        &self,
        out: Tensor<T, S2>,
        axes: Vec<usize>,
        keep: bool,
        correction: usize,
        std: bool,
    ) -> Var<'t, T, S2> {
        let denom = self.count(&axes) - c::<T>(correction as f64);
        self.axes_rule(out, axes, keep, move |xd, gk, yk, axes| {
            let mean: Tensor<T, DynShape> = xd.reduce_with(axes, true, &Mean).or_panic();
            let gk = if std {
                gk.zip_with(&yk, |g, y| if y == T::zero() { T::zero() } else { g / y })
            } else {
                gk.map(|g| g + g)
            };
            xd.zip_with(&mean, |v, m| v - m).zip_with(&gk, move |d, g| d * g / denom)
        })
    }

    /// The rule of a vector norm `p` over `axes`: `g sgn(x)` for [`Norm::L1`], `g x / y` (0 where
    /// `y` is 0) for [`Norm::L2`] and [`Norm::Fro`], and for [`Norm::Inf`] `g sgn(x)` split evenly
    /// among the elements whose `|x|` is the norm (PyTorch's `linalg_vector_norm_backward`).
    #[track_caller]
    fn norm_rule<S2: Shape>(&self, out: Tensor<T, S2>, axes: Vec<usize>, keep: bool, p: Norm) -> Var<'t, T, S2> {
        self.axes_rule(out, axes, keep, move |xd, gk, yk, axes| {
            let sgn = |v: T| derivatives::abs(X(v)).apply(T::one());
            match p {
                Norm::L1 => xd.zip_with(&gk, move |v, g| g * sgn(v)),
                Norm::L2 | Norm::Fro => {
                    let k = gk.zip_with(&yk, |g, n| if n == T::zero() { T::zero() } else { g / n });
                    xd.zip_with(&k, |v, k| v * k)
                }
                Norm::Inf => {
                    let hits = xd.zip_with(&yk, |v, n| Self::hit(v.abs(), n));
                    Self::split_evenly(hits, gk, axes).zip_with(&xd, move |h, v| h * sgn(v))
                }
            }
        })
    }
}

/// `Var`'s ten forms of each differentiable entry of the reduction table
/// ([`crate::ops::reduce`]'s `reductions!`): whole value, static axis (removed or kept), runtime
/// axis (removed or kept), each with its `try_` form, named as the tensor's. The value is the
/// tensor method's; the entry's rule gives the gradient. The two static-axis forms are written
/// once by the `@static` arm, the two runtime-axis forms by the `@dyn` arm.
macro_rules! var_reduction {
    (grad { $(
        $doc:literal, $torch:literal, $out:ty, [$($bound:tt)*], ($($p:ident: $pt:ty),*) |$s:ident, $axes:ident, $keep:ident| $run:expr,
        $w:ident $try_w:ident $ax:ident $try_ax:ident $kd:ident $try_kd:ident $dy:ident $try_dy:ident $kdy:ident $try_kdy:ident
        => |$gv:ident, $gy:ident, $ga:ident, $gk:ident| $grad:expr;
    )* } nograd { $($nograd:tt)* }) => {
        impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {$(
            #[doc = concat!("The ", $doc, " of all elements, differentiable (PyTorch `", $torch, "()`): any shape to a `Shape![]` value, the value of [`Tensor::", stringify!($w), "`](crate::TensorBase::", stringify!($w), ").")]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = concat!("The errors of [`Tensor::", stringify!($try_w), "`](crate::TensorBase::", stringify!($try_w), ").")]
            #[try_twin]
            pub fn $try_w(&self, $($p: $pt),*) -> Result<Var<'t, T, ()>, ShapeError> {
                let y = Self::scalar_tensor(self.value().$try_w($($p),*)?);
                let ($gv, $gy, $ga, $gk) = (self, y, (0..self.value().rank()).collect::<Vec<usize>>(), false);
                Ok($grad)
            }
            var_reduction! {
                @static
                #[doc = concat!("The ", $doc, " along `axis`, which is removed, differentiable (PyTorch `", $torch, "(dim=axis)`): `[2, 3]` with `Ax::<1>` (or `1`, or the dim's name) gives `[2]`. The axis as for [`Tensor::", stringify!($ax), "`](crate::TensorBase::", stringify!($ax), ").")]
                $try_ax, DropAxis<Removed>, false, ($($p: $pt),*) => |$gv, $gy, $ga, $gk| $grad
            }
            var_reduction! {
                @static
                #[doc = concat!("The ", $doc, " along `axis`, kept as a size-1 dim, differentiable (PyTorch `", $torch, "(dim=axis, keepdim=True)`): `[2, 3]` with `Ax::<1>` gives `[2, 1]`.")]
                $try_kd, KeepAxis<Kept>, true, ($($p: $pt),*) => |$gv, $gy, $ga, $gk| $grad
            }
            var_reduction! {
                @dyn
                #[doc = concat!("The ", $doc, " along a runtime axis (negative counts from the end), which is removed, differentiable (PyTorch `", $torch, "(dim=axis)`): a [`DynShape`] value.")]
                $try_dy, false, ($($p: $pt),*) => |$gv, $gy, $ga, $gk| $grad
            }
            var_reduction! {
                @dyn
                #[doc = concat!("The ", $doc, " along a runtime axis, kept as a size-1 dim, differentiable (PyTorch `", $torch, "(dim=axis, keepdim=True)`): a [`DynShape`] value.")]
                $try_kdy, true, ($($p: $pt),*) => |$gv, $gy, $ga, $gk| $grad
            }
        )*}
    };
    // One static-axis form, the axis removed (`DropAxis<Removed>`, `keep` false) or kept
    // (`KeepAxis<Kept>`, `keep` true): the tensor method `$try_f`'s value, the entry's rule over
    // that one axis.
    (@static #[$summary:meta] $try_f:ident, $axis_trait:ident<$out_shape:ident>, $keep:literal, ($($p:ident: $pt:ty),*)
     => |$gv:ident, $gy:ident, $ga:ident, $gk:ident| $grad:expr) => {
        #[$summary]
        #[doc = ""]
        #[doc = "# Errors"]
        #[doc = concat!("The errors of [`Tensor::", stringify!($try_f), "`](crate::TensorBase::", stringify!($try_f), ").")]
        #[try_twin]
        pub fn $try_f<X, M, Y: Shape>(&self, axis: X, $($p: $pt),*) -> Result<Var<'t, T, Y>, ShapeError>
        where
            S: $axis_trait<X, M, $out_shape = Y>,
        {
            let a = normalize_axis(S::axis_index(&axis), self.value().rank())?;
            let y = self.value().$try_f(axis, $($p),*)?;
            let ($gv, $gy, $ga, $gk) = (self, y, alloc::vec![a], $keep);
            Ok($grad)
        }
    };
    // One deprecated runtime-axis (`_dyn`) form, the axis removed (`keep` false) or kept: a
    // `DynShape` value, the tensor method `$try_f`'s, the entry's rule over that one axis.
    (@dyn #[$summary:meta] $try_f:ident, $keep:literal, ($($p:ident: $pt:ty),*)
     => |$gv:ident, $gy:ident, $ga:ident, $gk:ident| $grad:expr) => {
        #[$summary]
        #[doc = ""]
        #[doc = "# Errors"]
        #[doc = concat!("[`ShapeError::Axis`] when the value has no such axis; the errors of [`Tensor::", stringify!($try_f), "`](crate::TensorBase::", stringify!($try_f), ").")]
        #[try_twin]
        #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` value; for a static one the dims are `Dyn`)")]
        #[allow(deprecated)]
        pub fn $try_f(&self, axis: isize, $($p: $pt),*) -> Result<Var<'t, T, DynShape>, ShapeError> {
            let y = self.value().$try_f(axis, $($p),*)?;
            let ($gv, $gy, $ga, $gk) = (self, y, alloc::vec![normalize_axis(axis, self.value().rank())?], $keep);
            Ok($grad)
        }
    };
}

crate::ops::reduce::reductions!(var_reduction);

// ---------------------------------------------------------------------------------------------
// Scans: functions along one axis that keep the shape.

impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {
    /// `t` reversed along axis `a`, cumulatively summed and reversed back: `Σ_{j≥k} t_j`.
    #[track_caller]
    fn rev_cumsum(t: TensorView<'_, T, DynShape>, a: usize) -> Tensor<T, DynShape> {
        let a = a as isize;
        t.flip_dyn(&[a]).cumsum(a).flip_dyn(&[a]).to_owned()
    }

    /// The rule of a scan whose input gradient is `f(x, g, y)`: the input `x`, the output's
    /// gradient `g` and its value `y`. The scaffold of the scan rules that read both `x` and `y`.
    #[track_caller]
    fn scan_rule(
        &self,
        out: Tensor<T, S>,
        f: impl Fn(&Tensor<T, S>, &Tensor<T, S>, &Tensor<T, S>) -> Tensor<T, S> + Send + Sync + 'static,
    ) -> Var<'t, T, S> {
        let x = self.arc().clone();
        self.record1(out, move |i, y| {
            let y = y.clone();
            back(move |g: Tensor<T, S>, s| s.add_with(i, || f(&x, &g, &y)))
        })
    }

    /// The rule of `cumsum` along axis `a`: the reversed cumulative sum of the output's gradient.
    #[track_caller]
    fn cumsum_rule(&self, out: Tensor<T, S>, a: usize) -> Var<'t, T, S> {
        self.record1(out, move |i, _| {
            back(move |g: Tensor<T, S>, s| s.add_with(i, || typed::<T, S>(Self::rev_cumsum(g.as_dyn(), a))))
        })
    }

    /// The rule of `cumprod` along axis `a`: the gradient of `x_k` is `Σ_{j≥k} g_j Π_{i≤j, i≠k}
    /// x_i`, exact with zeros: before a line's first zero it is the reversed cumulative sum of `g
    /// y` over `x_k`; at the first zero the same sum with that zero read as 1; after it, 0 (as
    /// PyTorch's `cumprod_backward`).
    #[track_caller]
    fn cumprod_rule(&self, out: Tensor<T, S>, a: usize) -> Var<'t, T, S> {
        self.scan_rule(out, move |x, g, y| {
            let xd = x.as_dyn();
            // How many zeros each line has up to each position, and the first zero.
            let zeros_upto = xd.map(|v| if v == T::zero() { T::one() } else { T::zero() }).cumsum(a as isize);
            let first =
                xd.zip_with(&zeros_upto, |v, c| if v == T::zero() && c == T::one() { T::one() } else { T::zero() });
            let gy = g.zip_with(y, |g, y| g * y);
            let before = Self::rev_cumsum(gy.as_dyn(), a).zip_with(&xd, |t, v| t / v);
            let y1 = xd.zip_with(&first, |v, f| v + f).cumprod(a as isize);
            let at_first = Self::rev_cumsum(g.as_dyn().zip_with(&y1, |g, y| g * y).as_dyn(), a);
            let b = at_first.zip_with(&first, |f, m| f * m); // m is 1 at the first zero, else 0
            let before = before.zip_with(&zeros_upto, |b, c| if c == T::zero() { b } else { T::zero() });
            typed::<T, S>(before.zip_with(&b, |a, b| a + b))
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
                    // Contiguous rows along the last axis (the usual case): one pass per row.
                    let (gs, ys) = (
                        crate::kernels::contiguous_slice(g.data.as_slice(), g.layout()),
                        crate::kernels::contiguous_slice(y.data.as_slice(), y.layout()),
                    );
                    let n = g.sizes().get(a).copied().unwrap_or(0);
                    if let (Some(gs), Some(ys), true) = (gs, ys, a + 1 == g.rank() && n > 0 && g.numel() > 0) {
                        // The kernel writes every element (a cached buffer's old values never show).
                        let mut out = crate::memory::try_vec_for_overwrite(gs.len()).or_panic();
                        crate::kernels::scan::softmax_backward_rows(&mut out, gs, ys, n, log);
                        return typed::<T, S>(Tensor::<T, DynShape>::from_vec(g.sizes(), out));
                    }
                    if log {
                        let total = g.as_dyn().sum_keepdim(a as isize);
                        let t = y.as_dyn().zip_with(&total, |y, t| y.exp() * t);
                        typed::<T, S>(g.as_dyn().zip_with(&t, |g, t| g - t))
                    } else {
                        let gy = g.zip_with(&*y, |g, y| g * y);
                        let dot = gy.as_dyn().sum_keepdim(a as isize);
                        let t = g.as_dyn().zip_with(&dot, |g, d| g - d);
                        typed::<T, S>(t.zip_with(&y.as_dyn(), |t, y| t * y))
                    }
                })
            })
        })
    }

    /// The rule of `logcumsumexp` along axis `a`: `Σ_{j≥k} g_j exp(x_k - y_j)`, summed in log
    /// space for the positive and the negative `g` apart (PyTorch's `logcumsumexp_backward`), so
    /// that no `exp` overflows.
    #[track_caller]
    fn logcumsumexp_rule(&self, out: Tensor<T, S>, a: usize) -> Var<'t, T, S> {
        self.scan_rule(out, move |x, g, y| {
            let ai = a as isize;
            let part = |positive: bool| {
                let lg = g.zip_with(y, move |g, y| {
                    if (positive && g > T::zero()) || (!positive && g < T::zero()) {
                        g.abs().ln() - y
                    } else {
                        T::neg_infinity()
                    }
                });
                let r = lg.as_dyn().flip_dyn(&[ai]).logcumsumexp(ai).flip_dyn(&[ai]).to_owned();
                r.zip_with(&x.as_dyn(), |r, v| (r + v).exp())
            };
            typed::<T, S>(part(true).zip_with(&part(false), |p, n| p - n))
        })
    }
}

/// `Var`'s four forms of each entry of the scan table ([`crate::ops::scan`]'s `scans!`): static
/// and runtime axis, each with its `try_` form, named as the tensor's; same shape. The value is
/// the tensor method's; the entry's rule gives the gradient.
macro_rules! var_scan {
    ($($doc:literal, $torch:literal, $out:ty, [$($bound:tt)*], |$s:ident, $ax:ident| $run:expr,
     $m:ident $try_m:ident $dy:ident $try_dy:ident => |$gv:ident, $gy:ident, $ga:ident| $grad:expr;)*) => {
        impl<'t, T: GradFloat, S: Shape> Var<'t, T, S> {$(
            #[doc = concat!($doc, " along `axis`, differentiable (PyTorch `", $torch, "(dim=axis)`): same shape, the value of [`Tensor::", stringify!($m), "`](crate::TensorBase::", stringify!($m), "). The axis is `Ax::<1>`, an `isize` or a dim name, as the tensor method's.")]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = concat!("The errors of [`Tensor::", stringify!($try_m), "`](crate::TensorBase::", stringify!($try_m), ").")]
            #[try_twin]
            pub fn $try_m<X, M>(&self, axis: X) -> Result<Var<'t, T, S>, ShapeError>
            where
                S: HasAxis<X, M>,
            {
                let a = normalize_axis(S::axis_index(&axis), self.value().rank())?;
                let y = self.value().$try_m(axis)?;
                let ($gv, $gy, $ga) = (self, y, a);
                Ok($grad)
            }
            #[doc = concat!($doc, " along a runtime axis (negative counts from the end), differentiable (PyTorch `", $torch, "(dim=axis)`): same shape.")]
            #[doc = ""]
            #[doc = "# Errors"]
            #[doc = concat!("[`ShapeError::Axis`] when the value has no such axis; the errors of [`Tensor::", stringify!($try_dy), "`](crate::TensorBase::", stringify!($try_dy), ").")]
            #[try_twin]
            #[deprecated(note = "the axis argument takes an `isize`: call the method without `_dyn` (the same result for a `DynShape` value; for a static one the dims are `Dyn`)")]
            #[allow(deprecated)]
            pub fn $try_dy(&self, axis: isize) -> Result<Var<'t, T, S>, ShapeError> {
                let y = self.value().$try_dy(axis)?;
                let ($gv, $gy, $ga) = (self, y, normalize_axis(axis, self.value().rank())?);
                Ok($grad)
            }
        )*}
    };
}

crate::ops::scan::scans!(var_scan);
