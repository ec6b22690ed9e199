// Element indices take any integer type, and negative coordinates count from the end.
use shaped::prelude::*;

pub fn main() {
    let x: Tensor<f32, Shape![4, 2]> = Tensor::from([[0., 1.], [2., 3.], [4., 5.], [6., 7.]]);
    let mut sum = 0.;
    for i in 0u32..8 {
        sum += x.at([i % 4, 0]);
    }
    assert_eq!(sum, 24.);
    assert_eq!(x.at([-1i64, -1]), 7.);
    assert_eq!(x[[1u8, 1]], 3.);
}
