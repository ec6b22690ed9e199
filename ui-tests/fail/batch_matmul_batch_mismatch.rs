// Batched matmul: the batch dims [2] and [3] do not broadcast.
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 4, 5]>::zeros();
    let b = Tensor::<f32, Shape![3, 5, 6]>::zeros();
    let _ = a.matmul(&b);
}
