// Result shapes of linear algebra are typed: K = min(M, N) is static when M and N are, batches
// keep their batch dims, a runtime dim makes K runtime. The result types are spelled out in full:
// that is what this case checks.
#![allow(clippy::type_complexity)]
use shaped::prelude::*;

pub fn main() {
    let a: Tensor<f64, Shape![5, 3]> = Tensor::ones();
    let (_u, _s, _vh): (Tensor<f64, Shape![5, 3]>, Tensor<f64, Shape![3]>, Tensor<f64, Shape![3, 3]>) = a.svd();
    let (_q, _r): (Tensor<f64, Shape![3, 3]>, Tensor<f64, Shape![3, 5]>) = a.t().qr();
    let (_p, _l, _u): (Tensor<f64, Shape![5, 5]>, Tensor<f64, Shape![5, 3]>, Tensor<f64, Shape![3, 3]>) = a.lu();
    let _pinv: Tensor<f64, Shape![3, 5]> = a.pinv();
    let _x: Tensor<f64, Shape![3, 2]> = a.lstsq(&Tensor::<f64, Shape![5, 2]>::ones()).solution;
    let _xv: Tensor<f64, Shape![3]> = a.lstsq(&Tensor::<f64, Shape![5]>::ones()).solution;
    let _rank: usize = a.matrix_rank();
    let b: Tensor<f64, Shape![7, 4, 4]> = Tensor::ones();
    let _dets: Tensor<f64, Shape![7]> = b.det();
    let _w: Tensor<f64, Shape![7, 4]> = b.eigvalsh();
    let _e: Tensor<shaped::Complex<f64>, Shape![7, 4]> = b.eigvals();
    let _n: Tensor<f64, Shape![7]> = b.matrix_norm(MatrixNorm::Fro);
    let _x: Tensor<f64, Shape![7, 4]> =
        (&b + &Tensor::<f64, Shape![4, 4]>::eye()).solve(&Tensor::<f64, Shape![7, 4]>::ones());
    let r: Tensor<f64, Shape![_, 3]> = Tensor::ones_sized(&[6, 3]);
    let (_u, _s, _vh): (Tensor<f64, Shape![_, _]>, Tensor<f64, Shape![_]>, Tensor<f64, Shape![_, 3]>) = r.svd();
    let d: Tensor<f64, DynShape> = a.clone().into_dyn();
    let _det: Tensor<f64, DynShape> = d.t().matmul(&d).det();
}
