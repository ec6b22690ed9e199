// `matmul_out` writes into a tensor of exactly the product's shape: [2, 3] @ [3, 4] is [2, 4],
// so a [4, 2] buffer is refused at compile time (it is never resized or broadcast).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let b = Tensor::<f32, Shape![3, 4]>::zeros();
    let mut out = Tensor::<f32, Shape![4, 2]>::zeros();
    a.matmul_out(&b, &mut out);
}
