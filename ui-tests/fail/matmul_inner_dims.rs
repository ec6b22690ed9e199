// `[2, 3]` matmul `[4, 5]` is a compile error: the columns of the left matrix (3) must equal the
// rows of the right one (4). Transpose or reshape an operand so that the inner dims agree.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let b: Tensor<f32, Shape![4, 5]> = Tensor::zeros();
    let _ = a.matmul(&b);
}
