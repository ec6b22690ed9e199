// Generic over both operand shapes, `matmul` needs `MatMulShape` as a bound; the error names it.
use shaped::prelude::*;

fn mm<S1: Shape, S2: Shape>(a: &Tensor<f32, S1>, b: &Tensor<f32, S2>) {
    let _ = a.matmul(b);
}

fn main() {}
