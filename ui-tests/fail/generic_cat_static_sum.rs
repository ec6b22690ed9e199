// A static `cat` result needs a compile-time sum, which generic sizes do not have; the error
// names the run-time form (`cat_all`, a `Dyn` dim).
use shaped::prelude::*;

fn join<const N: usize, const M: usize>(a: &Tensor<f32, Shape![N, 3]>, b: &Tensor<f32, Shape![M, 3]>) {
    let _ = a.cat(b, Ax::<0>);
}

fn main() {}
