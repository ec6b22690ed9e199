// Functions generic over a shape or over const sizes, naming only `Shape`, `Const` and the
// shape traits the README documents.
use shaped::prelude::*;

/// Any shape: only `Shape` is needed.
fn normalize<S: Shape>(x: &Tensor<f32, S>) -> Tensor<f32, S> {
    let (lo, hi) = x.to_vec().iter().fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    x.map(|v| (v - lo) / (hi - lo))
}

/// Every static `N` and `M`: keepdim gives `One`, which broadcasts back against `M`.
fn centre_rows<const N: usize, const M: usize>(x: &Tensor<f32, Shape![N, M]>) -> Tensor<f32, Shape![N, M]> {
    x - &x.mean_keepdim(Ax::<1>)
}

/// Inner dims tied by the same `K`: the product type follows.
fn linear<const B: usize, const K: usize, const O: usize>(
    x: &Tensor<f32, Shape![B, K]>,
    w: &Tensor<f32, Shape![K, O]>,
    b: &Tensor<f32, Shape![O]>,
) -> Tensor<f32, Shape![B, O]> {
    &x.matmul(w) + b
}

/// A reshape between shapes of generic sizes: the element counts are compared for each
/// instantiation when the program is built (`[N, M] -> [M, N]` always agrees).
fn flip_shape<const N: usize, const M: usize>(x: &Tensor<f32, Shape![N, M]>) -> Tensor<f32, Shape![M, N]> {
    x.reshape::<Shape![M, N]>().into_owned()
}

pub fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    assert_eq!(normalize(&x).to_vec(), [0., 0.2, 0.4, 0.6, 0.8, 1.]);
    assert_eq!(centre_rows(&x).to_vec(), [-1., 0., 1., -1., 0., 1.]);
    let y: Tensor<f32, Shape![2, 2]> = linear(&x, &Tensor::<f32, Shape![3, 2]>::ones(), &Tensor::from([1., -1.]));
    assert_eq!(y.to_vec(), [7., 5., 16., 14.]);
    let big: Tensor<f32, Shape![5000, 2]> = centre_rows(&Tensor::ones());
    assert_eq!(big.sum(), 0.);
    let f: Tensor<f32, Shape![3, 2]> = flip_shape(&x);
    assert_eq!((f.sizes(), f.to_vec()), (&[3, 2][..], vec![1., 2., 3., 4., 5., 6.]));
    let g: Tensor<f32, Shape![2, 5000]> = flip_shape(&big);
    assert_eq!(g.sizes(), [2, 5000]);
}
