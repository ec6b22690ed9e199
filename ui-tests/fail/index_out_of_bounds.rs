// A literal index is checked against a static dim at compile time: index 3 of a dim of size 3 is
// out of bounds (valid indices are 0..3, or -3..=-1). Use an index in range; an index computed at
// run time is checked at run time instead.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = t!(x[.., 3]);
}
