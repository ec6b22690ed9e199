// The batch dims of a batched product are names too: `Batch` against `Seq`.
use shaped::prelude::*;

dims! { Batch, Seq }

fn main() {
    let a = Tensor::<f32, (Batch, Const<3>, Const<4>)>::zeros_sized(&[2, 3, 4]);
    let b = Tensor::<f32, (Seq, Const<4>, Const<5>)>::zeros_sized(&[2, 4, 5]);
    let _ = a.matmul(&b);
}
