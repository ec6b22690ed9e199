// A repeated static dim is computed at compile time, up to 1024: `[300, 2]` repeated 4 times
// along axis 0 has no static size, and the error says to make the dim `Dyn` or use
// `repeat_dyn`.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![300, 2]> = Tensor::zeros();
    let _ = x.repeat(Const::<4>, Ax::<0>);
}
