// `permute((Ax::<0>, Ax::<0>))` is a compile error: a permutation must name each axis exactly once.
// Use `(Ax::<1>, Ax::<0>)` (or `(Ax::<0>, Ax::<1>)`, the identity) for a rank-2 tensor.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.permute((Ax::<0>, Ax::<0>));
}
