// A dim name as an axis: `sum_axis(Seq)` on a `[Batch, 4]` tensor, which has no `Seq` dim.
use shaped::prelude::*;

dims! { Batch, Seq }

fn main() {
    let x = Tensor::<f32, (Batch, Const<4>)>::zeros_sized(&[2, 4]);
    let _ = x.sum_axis(Seq);
}
