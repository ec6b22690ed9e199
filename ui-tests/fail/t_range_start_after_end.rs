// A literal range whose start is greater than its end is rejected by `t!` (PyTorch and NumPy
// would silently give an empty view). To walk a dim backwards, use a negative step: `..;-1`.
use shaped::prelude::*;

fn main() {
    let x: Tensor<f32, Shape![4]> = Tensor::zeros();
    let _ = t!(x[3..1]);
}
