//! Nor can user code make the token that the unchecked kernel takes: it lives in a private module.
use shaped::kernels::Gemm;
use shaped::layout::Layout;

fn product<T: Gemm>(a: &[T], la: &Layout, b: &[T], lb: &Layout, c: &mut [T]) {
    T::gemm_unchecked(shaped::kernels::gemm::sealed::Checked(()), a, la, b, lb, c)
}

fn main() {
    let l = Layout::contiguous(&[2, 2]).unwrap();
    product(&[0f32; 4], &l, &[0f32; 4], &l, &mut [0f32; 4]);
}
