// A typed reshape needs a target whose rank is in the type: `Shape![..]` (`DynShape`) has none.
// One `_` dim of a tuple target is inferred (`Shape![_, 3]`); for a run-time rank use
// `reshape_dyn(&[..])`.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![_, 3]> = Tensor::zeros_sized(&[2, 3]);
    let _ = x.reshape::<Shape![..]>();
}
