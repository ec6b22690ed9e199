// The static size of `cat`'s axis is a compile-time sum, turned back into a `Const` through a
// table that stops at 1024: `[1000]` and `[100]` would make `[1100]`. Make the axis `Dyn`
// (`Shape![_]`, or `into_dyn()`) for larger sizes.
use shaped::prelude::*;
use shaped::tensor::join::Cat;

fn main() {
    let x: Tensor<f32, Shape![1000]> = Tensor::zeros();
    let y: Tensor<f32, Shape![100]> = Tensor::zeros();
    let _ = x.cat(&y, Ax::<0>);
}
