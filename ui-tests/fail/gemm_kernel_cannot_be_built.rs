//! Nor can user code build a kernel table (its fields are crate-private), so no type outside the
//! crate can implement `Gemm` with a kernel of its own.
use shaped::layout::Layout;
use shaped::num::GemmKernel;

fn unchecked(_: &[f32], _: &Layout, _: &[f32], _: &Layout, _: &mut [f32]) {}

fn main() {
    let _k = GemmKernel::<f32> { run: unchecked };
}
