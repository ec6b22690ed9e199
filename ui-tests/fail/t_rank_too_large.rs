// Tensors have at most 6 dims: inserting five new axes with `None` into a rank-2 tensor would give
// rank 7. Reshape or index away some dims first.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = t!(x[None, None, None, None, None, ...]);
}
