//! The sealed kernel trait's method stays callable through a `Gemm` bound (a sealed supertrait's
//! methods do), so it takes a token that only the crate's checked `gemm` can make: a call from
//! user code, which skips every layout check, cannot be written.
use shaped::kernels::Gemm;
use shaped::layout::Layout;

fn product<T: Gemm>(a: &[T], la: &Layout, b: &[T], lb: &Layout, c: &mut [T]) {
    T::gemm_unchecked(a, la, b, lb, c)
}

fn main() {
    let l = Layout::contiguous(&[2, 2]).unwrap();
    product(&[0f32; 4], &l, &[0f32; 4], &l, &mut [0f32; 4]);
}
