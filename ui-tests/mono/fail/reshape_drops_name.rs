// A reshape keeps every named dim: `[Batch, 4]` into `[_, 8]` would regroup the batch (a new
// user's `_` that silently mixes samples), so the program does not build, naming the dim. (With
// `Batch` in the target, `[Batch, 4]` into `[Batch, 2, 2]` builds; a name that would move, as
// `[Batch, Seq]` into `[Seq, Batch]`, is refused at run time by `try_reshape`.)
use shaped::prelude::*;

dims! { Batch }

fn main() {
    let x = Tensor::<f32, (Batch, Const<4>)>::zeros_sized(&[6, 4]);
    let _ = x.reshape::<Shape![_, 8]>();
}
