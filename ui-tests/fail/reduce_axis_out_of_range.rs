// A static reduction axis must exist: `max_axis::<2>()` on a rank-2 tensor is a compile error
// (axes 0 and 1, or -1 and -2, exist). Runtime axes (`max_axis_dyn(2)`) are checked at run time.
use shaped::prelude::*;

fn main() {
    let a: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    let _ = a.max_axis(Ax::<2>);
}
