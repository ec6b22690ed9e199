// A padded static dim is computed at compile time, up to 1024: `[1000]` padded by (20, 20) has
// no static size, and the error says to make the dim `Dyn` or use `pad_dyn`.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![1000]> = Tensor::zeros();
    let _ = x.pad((Const::<20>, Const::<20>), Ax::<0>, PadMode::Constant, 0.0);
}
