// Two different names never meet: `[Batch, 4] + [Seq, 4]` is refused even when the runtime sizes
// happen to be equal, with both names in the first line. (Swapping two names, `[Batch, Seq] +
// [Seq, Batch]`, gives this error once for each pair.)
use shaped::prelude::*;

dims! { Batch, Seq }

fn main() {
    let a = Tensor::<f32, (Batch, Const<4>)>::zeros_sized(&[4, 4]);
    let b = Tensor::<f32, (Seq, Const<4>)>::zeros_sized(&[4, 4]);
    let _ = &a + &b;
}
