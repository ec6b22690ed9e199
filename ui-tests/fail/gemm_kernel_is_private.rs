//! `Gemm`'s kernel is a function pointer in a crate-private field: a `T: Gemm` bound names the
//! table (`T::GEMM`) but cannot call the unchecked product in it.
use shaped::kernels::Gemm;
use shaped::layout::Layout;

fn product<T: Gemm>(a: &[T], la: &Layout, b: &[T], lb: &Layout, c: &mut [T]) {
    (T::GEMM.run)(a, la, b, lb, c)
}

fn main() {
    let l = Layout::contiguous(&[2, 2]).unwrap();
    product(&[0f32; 4], &l, &[0f32; 4], &l, &mut [0f32; 4]);
}
