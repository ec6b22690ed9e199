// An output letter must label an axis of some operand: `z` names none, so its size is unknown.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![3, 4]> = Tensor::zeros();
    let _ = einsum!("ij,jk->iz", a, b);
}
