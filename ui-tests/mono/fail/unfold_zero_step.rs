// A step of 0 between windows is a build error: `unfold(axis, Const::<SIZE>, Const::<STEP>)` needs
// `STEP >= 1` (PyTorch: "step is 0 but must be > 0").
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![3, 4]> = Tensor::zeros();
    let _ = x.unfold(Ax::<1>, Const::<2>, Const::<0>);
}
