// A name and a static size do not meet (use `Dyn` or `cast_shape` to drop or add a name).
use shaped::prelude::*;

dims! { Batch }

fn main() {
    let a = Tensor::<f32, (Batch, Const<4>)>::zeros_sized(&[2, 4]);
    let b = Tensor::<f32, Shape![2, 4]>::zeros();
    let _ = &a + &b;
}
