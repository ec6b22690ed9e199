// A literal range start past the dim is a compile error: `5..` on a dim of size 4 (the start may
// be at most 4, giving an empty range). Use a start in `0..=4`.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![4]> = Tensor::zeros();
    let _ = t!(x[5..]);
}
