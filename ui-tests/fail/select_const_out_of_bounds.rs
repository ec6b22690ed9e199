// A literal select past the end of a static dim.
use shaped::prelude::*;

fn main() {
    let x = Tensor::<f32, Shape![5, 3]>::zeros();
    let _ = x.select_const::<1, 3>();
}
