// Constructors infer their storage and shape from the annotated target type, as nalgebra's
// `Matrix4::eye()` does: `STensor::eye()`, `STensor::new([[..]])` and `STensor::from_fn(..)` with
// the type on the binding or on a struct field, and the same calls on the heap `Tensor`.
use shaped::prelude::*;

/// A rigid transform of a `no_std`-style library: inline storage in the fields.
struct Pose {
    rotation: STensor<f32, Shape![3, 3]>,
    translation: STensor<f32, Shape![3]>,
}

impl Pose {
    fn identity() -> Self {
        Pose { rotation: STensor::eye(), translation: STensor::zeros() }
    }
    fn about_z(c: f32, s: f32, t: [f32; 3]) -> Self {
        Pose { rotation: STensor::new([[c, -s, 0.], [s, c, 0.], [0., 0., 1.]]), translation: STensor::new(t) }
    }
}

pub fn main() {
    let m: STensor<f32, Shape![4, 4]> = STensor::eye();
    assert_eq!(m.sum(), 4.);
    let h: Tensor<f32, Shape![4, 4]> = Tensor::eye();
    assert_eq!(h.to_vec(), m.to_vec());

    let a: STensor<f64, Shape![2, 2]> = STensor::new([[1., 2.], [3., 4.]]);
    assert_eq!(a.as_array(), &[[1., 2.], [3., 4.]]);
    let b: Tensor<f64, Shape![2, 2]> = Tensor::new([[1., 2.], [3., 4.]]);
    assert_eq!(b.to_vec(), a.to_vec());

    let f: STensor<i32, Shape![2, 3]> = STensor::from_fn(|[i, j]| 10 * i as i32 + j as i32);
    assert_eq!(f.as_array(), &[[0, 1, 2], [10, 11, 12]]);
    let g: Tensor<i32, Shape![2, 3]> = Tensor::from_fn(|[i, j]| 10 * i as i32 + j as i32);
    assert_eq!(g.to_vec(), f.to_vec());

    type V3 = STensor<f32, Shape![3]>;
    let (z, o, v): (V3, V3, V3) = (STensor::zeros(), STensor::ones(), STensor::full(7.));
    assert_eq!((z.sum(), o.sum(), v.sum()), (0., 3., 21.));
    let (l, r): (STensor<f64, Shape![5]>, STensor<u8, Shape![4]>) = (STensor::linspace(0., 1.), STensor::arange());
    assert_eq!((l.to_vec(), r.to_vec()), (vec![0., 0.25, 0.5, 0.75, 1.], vec![0, 1, 2, 3]));
    let d: STensor<f32, Shape![2, 2]> = Default::default();
    assert_eq!(d.sum(), 0.);

    // Random constructors: the same samples heap and inline for one seed.
    use shaped::rand::{rngs::SmallRng, SeedableRng};
    let w: STensor<f32, Shape![3, 3]> = STensor::randn(&mut SmallRng::seed_from_u64(7));
    let wh: Tensor<f32, Shape![3, 3]> = Tensor::randn(&mut SmallRng::seed_from_u64(7));
    assert_eq!(w.to_vec(), wh.to_vec());
    let k: STensor<i64, Shape![8]> = STensor::randint(0, 10, &mut SmallRng::seed_from_u64(1));
    assert!(k.to_vec().iter().all(|v| (0..10).contains(v)));

    let p = Pose::identity();
    assert_eq!((p.rotation.sum(), p.translation.sum()), (3., 0.));
    let q = Pose::about_z(0., 1., [1., 2., 3.]);
    let moved: STensor<f32, Shape![3]> =
        q.rotation.matmul(&STensor::<f32, Shape![3]>::new([1., 0., 0.])) + q.translation;
    assert_eq!(moved.to_vec(), [1., 3., 3.]);
}
