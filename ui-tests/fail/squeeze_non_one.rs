// `squeeze::<0>()` on `[2, 3]` is a compile error: only a size-1 dim can be squeezed, and dim 0
// has size 2. Squeeze a size-1 axis, or `select::<0>(i)` / `t!(x[i, ..])` to drop a dim by
// picking one index.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = x.squeeze(Ax::<0>);
}
