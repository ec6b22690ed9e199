// A `Const<1>` (from `from_array` or generic code) is an ordinary size, not the broadcastable
// `One`: the compiler rejects it (a false alarm, never a wrong answer), and the note says how to
// relabel it.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![4, 3]>::zeros();
    let row: Tensor<f32, (Const<1>, Const<3>)> = Tensor::from_array([[1., 2., 3.]]);
    let _ = &x + &row;
}
