// A literal narrow that runs past the end of a static dim.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![5, 3]>::zeros();
    let _ = x.narrow_const::<0, 4, 2>();
}
