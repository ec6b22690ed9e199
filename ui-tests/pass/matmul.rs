// Matrix products (and `kron`): the inner dims are checked at compile time, and a transposed view is read in
// place. The annotations prove the result types.
use shaped::prelude::*;

pub fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    let m: Tensor<f32, Shape![2, 2]> = x.matmul(&x.t());
    assert_eq!(m.to_vec(), [14., 32., 32., 77.]);

    let g: Tensor<f32, Shape![3, 3]> = x.t().matmul(&x);
    assert_eq!(g.at([0, 0]), 17.);

    // A runtime inner dim unifies with a static one (checked at run time).
    let d: Tensor<f32, Shape![_, 2]> = Tensor::zeros_sized(&[3, 2]);
    let e: Tensor<f32, Shape![2, 2]> = x.matmul(&d);
    assert_eq!(e.sum(), 0.);

    // 1-D operands (PyTorch `matmul`): the dot product is 0-d, a matrix-vector product drops
    // the matrix's columns, a vector-matrix product its rows, batches stay.
    let v: Tensor<f32, Shape![3]> = Tensor::from([1., 0., -1.]);
    let s: Tensor<f32, Shape![]> = v.matmul(&v);
    assert_eq!(s.item(), 2.);
    let xv: Tensor<f32, Shape![2]> = x.matmul(&v);
    assert_eq!(xv.to_vec(), [-2., -2.]);
    let vx: Tensor<f32, Shape![3]> = Tensor::<f32, Shape![2]>::ones().matmul(&x);
    assert_eq!(vx.to_vec(), [5., 7., 9.]);
    let b: Tensor<f32, Shape![4, 1, 3, 2]> = Tensor::ones();
    let vb: Tensor<f32, Shape![4, 1, 2]> = v.matmul(&b);
    assert_eq!(vb.sum(), 0.);
    let w: Tensor<f32, Shape![_]> = Tensor::zeros_sized(&[3]);
    let xw: Tensor<f32, Shape![2]> = x.matmul(&w);
    assert_eq!(xw.to_vec(), [0., 0.]);

    // Kronecker products multiply static sizes.
    let k: Tensor<f32, Shape![4, 6]> = x.kron(&Tensor::<f32, Shape![2, 2]>::ones());
    assert_eq!(k.sum(), 84.);
}
