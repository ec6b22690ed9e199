//! The methods of a sealed supertrait stay callable through a bound, so `Gemm` has no method at
//! all: `T::gemm_unchecked`, which skipped every layout check (issue 25), no longer exists.
use shaped::kernels::Gemm;
use shaped::layout::Layout;

fn product<T: Gemm>(a: &[T], la: &Layout, b: &[T], lb: &Layout, c: &mut [T]) {
    T::gemm_unchecked(a, la, b, lb, c)
}

fn main() {
    let l = Layout::contiguous(&[2, 2]).unwrap();
    product(&[0f32; 4], &l, &[0f32; 4], &l, &mut [0f32; 4]);
}
