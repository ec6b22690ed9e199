// `permute` needs one entry per dimension: three axes for a rank-2 tensor is a compile error.
// Use `Axes![1, 0]` for a rank-2 tensor.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.permute::<Axes![2, 0, 1]>();
}
