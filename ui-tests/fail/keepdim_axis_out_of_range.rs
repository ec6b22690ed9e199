// keepdim reduction along an axis the shape does not have.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![2, 3]>::zeros();
    let _ = x.mean_keepdim(Ax::<2>);
}
