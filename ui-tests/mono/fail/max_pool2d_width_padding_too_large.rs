// A 3x2 window with padding (1, 2): the height's padding is half its window, the width's is more
// than half its window of 2, which PyTorch refuses; a build error naming the width's numbers.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![1, 1, 8, 8]> = Tensor::zeros();
    let _ = x.max_pool2d(Pool::<3, 1, 1, 1, 2, 1, 2>);
}
