// `flatten_range::<START, END>()` merges dims START..=END, so START may not come after END.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3, 4]> = Tensor::zeros();
    let _ = x.flatten_range(Ax::<2>, Ax::<1>);
}
