// `cat` along the last axis needs the other dims equal: `Batch` against `Seq`.
use shaped::prelude::*;

dims! { Batch, Seq }

fn main() {
    let a = Tensor::<f32, (Batch, Const<4>)>::zeros_sized(&[2, 4]);
    let b = Tensor::<f32, (Seq, Const<4>)>::zeros_sized(&[2, 4]);
    let _ = a.cat(&b, Ax::<1>);
}
