// `permute::<Axes![0, 0]>()` is a compile error: a permutation must name each axis exactly once.
// Use `Axes![1, 0]` (or `Axes![0, 1]`, the identity) for a rank-2 tensor.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.permute::<Axes![0, 0]>();
}
