// Reshaping `[2, 3]` (6 elements) into `[4, 2]` (8 elements) is a build error: a static reshape
// must keep the element count. The counts are compared when the program is built (`cargo build`,
// `cargo test`), for every static size. Pick a target with the same number of elements, or use
// a `_` dim (`Shape![_, 2]`, PyTorch's `-1`) to have it inferred.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.reshape::<Shape![4, 2]>();
}
