//! approx 0.5 (feature `approx`): [`AbsDiffEq`], [`RelativeEq`] and [`UlpsEq`] for tensors, so
//! that `assert_abs_diff_eq!(a, b, epsilon = 1e-6)` works as for ndarray and nalgebra.
//!
//! Two tensors are approximately equal when their sizes are equal (whatever their shape types
//! and storage kinds: a `Shape![2, 3]` tensor equals a `DynShape` one of sizes `[2, 3]`; sizes
//! `[2, 3]` never equal `[3, 2]` or `[6]`) and every pair of elements in row-major order is.
//! Strides do not matter.
use crate::storage::Data;
use crate::tensor::TensorBase;
use crate::Shape;
use approx::{AbsDiffEq, RelativeEq, UlpsEq};

impl<D: Data, S: Shape, D2: Data<Elem = D::Elem>, S2: Shape> AbsDiffEq<TensorBase<D2, S2>> for TensorBase<D, S>
where
    D::Elem: AbsDiffEq,
    <D::Elem as AbsDiffEq>::Epsilon: Clone,
{
    type Epsilon = <D::Elem as AbsDiffEq>::Epsilon;
    fn default_epsilon() -> Self::Epsilon {
        D::Elem::default_epsilon()
    }
    fn abs_diff_eq(&self, other: &TensorBase<D2, S2>, epsilon: Self::Epsilon) -> bool {
        self.sizes() == other.sizes() && self.iter().zip(other.iter()).all(|(a, b)| a.abs_diff_eq(b, epsilon.clone()))
    }
}

impl<D: Data, S: Shape, D2: Data<Elem = D::Elem>, S2: Shape> RelativeEq<TensorBase<D2, S2>> for TensorBase<D, S>
where
    D::Elem: RelativeEq,
    <D::Elem as AbsDiffEq>::Epsilon: Clone,
{
    fn default_max_relative() -> Self::Epsilon {
        D::Elem::default_max_relative()
    }
    fn relative_eq(&self, other: &TensorBase<D2, S2>, epsilon: Self::Epsilon, max_relative: Self::Epsilon) -> bool {
        self.sizes() == other.sizes()
            && self.iter().zip(other.iter()).all(|(a, b)| a.relative_eq(b, epsilon.clone(), max_relative.clone()))
    }
}

impl<D: Data, S: Shape, D2: Data<Elem = D::Elem>, S2: Shape> UlpsEq<TensorBase<D2, S2>> for TensorBase<D, S>
where
    D::Elem: UlpsEq,
    <D::Elem as AbsDiffEq>::Epsilon: Clone,
{
    fn default_max_ulps() -> u32 {
        D::Elem::default_max_ulps()
    }
    fn ulps_eq(&self, other: &TensorBase<D2, S2>, epsilon: Self::Epsilon, max_ulps: u32) -> bool {
        self.sizes() == other.sizes()
            && self.iter().zip(other.iter()).all(|(a, b)| a.ulps_eq(b, epsilon.clone(), max_ulps))
    }
}
