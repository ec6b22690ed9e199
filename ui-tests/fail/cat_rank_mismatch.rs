// `cat` needs operands of the same rank: `[2, 3]` and `[3]` cannot be concatenated along any axis
// (PyTorch raises at run time; here it is a compile error naming both shapes).
use shaped::prelude::*;
use shaped::tensor::join::Cat;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let y: Tensor<f32, Shape![3]> = Tensor::zeros();
    let _ = x.cat(&y, Ax::<0>);
}
