// `stack::<A>()` inserts the new dim at position `A`, which may be at most the inputs' rank: two
// `[2, 3]` tensors stack along axes 0, 1 or 2, not 3.
use shaped::prelude::*;
use shaped::tensor::join::Stack;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = Tensor::stack([&x, &x], Ax::<3>);
}
