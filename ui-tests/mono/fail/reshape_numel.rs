// Reshaping `[2, 3]` (6 elements) into `[4, 2]` (8 elements) is a build error: a static reshape
// must keep the element count. The counts are compared when the program is built (`cargo build`,
// `cargo test`), for every static size. Pick a target with the same number of elements, or use
// `into_dyn()` and `reshape_dyn` when the sizes are only known at run time.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.reshape::<Shape![4, 2]>();
}
