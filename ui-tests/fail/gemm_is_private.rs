//! The matrix-product kernel is not callable from user code: `Gemm` is a sealed marker whose
//! product runs only through `matmul`, which checks the operands' layouts first (a layout that
//! fits its buffer is what the kernel's `unsafe` call relies on).
use shaped::kernels::Gemm;
use shaped::prelude::*;

fn product<T: Gemm>(a: &Tensor<T, Shape![2, 2]>) {
    let _ = T::gemm(a.storage(), a.layout(), a.storage(), a.layout());
}

fn main() {
    product(&Tensor::<f32, Shape![2, 2]>::zeros());
}
