// `w.sub_assign_same(&g)` never broadcasts: a `[10]` gradient for a `[64, 10]` weight does not
// compile (`w -= &g` would broadcast it over the 64 rows).
use shaped::prelude::*;

fn main() {
    let mut w: Tensor<f32, Shape![64, 10]> = Tensor::zeros();
    let g: Tensor<f32, Shape![10]> = Tensor::zeros();
    w.sub_assign_same(&g);
}
