//! Vectorised kernels of element-wise functions, as a table per element type
//! ([`Element::VMATH`](crate::element::Element)): `f32` `exp`, `tanh`, `sigmoid` and `silu`
//! through rten-vecmath (AVX2/AVX-512/NEON chosen at run time) with the `simd` feature, outside
//! Miri. Every other type and function, and every build without the feature, takes the scalar
//! `libm` path of the same method. A leaf of the foundation layer: it uses no other module.
//!
//! Accuracy against the scalar functions (Rust's `f32::exp`, `f32::tanh`, and `1 / (1 + e^-x)`,
//! `x / (1 + e^-x)`), over every 13th `f32` bit pattern (NaN, +-inf, subnormals and the
//! overflow thresholds included): `exp` at most 1 ulp, `tanh`, `sigmoid` and `silu` at most 4
//! ulp; NaN in gives NaN out. `tests/vmath.rs` checks these bounds on random and edge inputs.

use core::mem::MaybeUninit;

/// An element-wise function with a vectorised kernel for some element types.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VecOp {
    /// `e^x`.
    Exp,
    /// `tanh x`.
    Tanh,
    /// `1 / (1 + e^-x)`.
    Sigmoid,
    /// `x / (1 + e^-x)`.
    Silu,
}

/// `op` of every element of `src` written to `dst` (of the same length), returned as the
/// initialised `dst`.
pub(crate) type MapFn<T> = for<'a> fn(VecOp, &[T], &'a mut [MaybeUninit<T>]) -> &'a mut [T];

/// The vectorised kernels of one element type: `apply(op, xs)` replaces every element of `xs` by
/// `op` of it; `map(op, src, dst)` writes `op` of `src` into the uninitialised `dst`. A table
/// that has them covers every [`VecOp`].
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct VecMath<T: 'static> {
    pub(crate) kernels: Option<(fn(VecOp, &mut [T]), MapFn<T>)>,
}

impl<T: 'static> VecMath<T> {
    /// No vectorised kernel: every function takes the scalar path.
    pub const NONE: VecMath<T> = VecMath { kernels: None };
}

/// The `f32` table: rten-vecmath's kernels where the feature is on (never under Miri, which
/// cannot run their intrinsics).
#[cfg(all(feature = "simd", not(miri)))]
pub(crate) const F32: VecMath<f32> = VecMath { kernels: Some((apply_f32, map_f32)) };
#[cfg(not(all(feature = "simd", not(miri))))]
pub(crate) const F32: VecMath<f32> = VecMath::NONE;

#[cfg(all(feature = "simd", not(miri)))]
fn apply_f32(op: VecOp, xs: &mut [f32]) {
    use rten_simd::SimdUnaryOp;
    match op {
        VecOp::Exp => rten_vecmath::Exp {}.map_mut(xs),
        VecOp::Tanh => {
            // rten's tanh returns -0 for +0: the sign of each input is put back (tanh is odd, so
            // its sign is always the input's), one stack block at a time.
            let mut signs = [0f32; 256];
            for block in xs.chunks_mut(256) {
                signs[..block.len()].copy_from_slice(block);
                rten_vecmath::Tanh {}.map_mut(block);
                for (r, &x) in block.iter_mut().zip(&signs) {
                    *r = r.copysign(x);
                }
            }
        }
        VecOp::Sigmoid => rten_vecmath::Sigmoid {}.map_mut(xs),
        VecOp::Silu => rten_vecmath::Silu {}.map_mut(xs),
    }
}

#[cfg(all(feature = "simd", not(miri)))]
fn map_f32<'a>(op: VecOp, src: &[f32], dst: &'a mut [MaybeUninit<f32>]) -> &'a mut [f32] {
    use rten_simd::SimdUnaryOp;
    match op {
        VecOp::Exp => rten_vecmath::Exp {}.map(src, dst),
        VecOp::Tanh => {
            let out = rten_vecmath::Tanh {}.map(src, dst);
            // The input's sign (see `apply_f32`).
            for (r, &x) in out.iter_mut().zip(src) {
                *r = r.copysign(x);
            }
            out
        }
        VecOp::Sigmoid => rten_vecmath::Sigmoid {}.map(src, dst),
        VecOp::Silu => rten_vecmath::Silu {}.map(src, dst),
    }
}
