// Reducing over several axes needs distinct axes of the shape, in increasing order.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![2, 3, 4]>::zeros();
    let _ = x.sum_axes((Ax::<2>, Ax::<0>));
}
