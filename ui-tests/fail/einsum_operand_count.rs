// The equation names two operands (two terms) but one follows it.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = einsum!("ij,jk->ik", a);
}
