// An operation on inline tensors whose result would put more than 64 KiB on the stack: the
// broadcast of a [129] row against a [129, 1] column is [129, 129] (66,564 bytes of f32).
use shaped::prelude::*;

fn main() {
    let row = STensor::<f32, Shape![129]>::zeros();
    let col = STensor::<f32, Shape![129, 1]>::zeros();
    let _grid = &row + &col;
}
