// `Tensor::from` classifies each array length (to give length 1 the `One` dim), which needs
// typenum's range; a length of 2000 is outside it.
use shaped::prelude::*;

fn main() {
    let _ = Tensor::from([0.0f32; 2000]);
}
