// Padding names its axis as a const generic: an axis the shape lacks is a compile error naming
// the shape and the pads.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![4, 3]> = Tensor::zeros();
    let _ = x.pad((Const::<1>, Const::<1>), Ax::<2>, PadMode::Constant, 0.0);
}
