// Only one `_` dim of a reshape target can be inferred from the element count (PyTorch allows one
// `-1`): name the other sizes.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![_, 16, 2, 2]> = Tensor::zeros_sized(&[6, 16, 2, 2]);
    let _ = x.view::<Shape![_, _, 4]>();
}
