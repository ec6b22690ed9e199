// `_out` forms follow NumPy's `out=` rule: each input must broadcast to `out`'s shape, which is
// never changed. A [2, 3] operand cannot be written into a [3, 2] buffer (the [2] one can).
use shaped::prelude::*;

fn main() {
    let a = Tensor::<f32, Shape![2, 3]>::zeros();
    let b = Tensor::<f32, Shape![2]>::zeros();
    let mut out = Tensor::<f32, Shape![3, 2]>::zeros();
    a.add_out(&b, &mut out);
}
