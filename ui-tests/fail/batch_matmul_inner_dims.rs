// Batched matmul: the inner dims 4 and 5 differ; the message names both (issue 47).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3, 4]>::zeros();
    let b = Tensor::<f32, Shape![2, 5, 6]>::zeros();
    let _ = a.matmul(&b);
}
