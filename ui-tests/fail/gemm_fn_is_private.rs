//! The crate's checked product function is internal too: user code multiplies through `matmul`.
use shaped::layout::Layout;

fn main() {
    let l = Layout::contiguous(&[2, 2]).unwrap();
    let (a, mut c) = ([0f32; 4], [0f32; 4]);
    shaped::kernels::gemm(&a, &l, &a, &l, &mut c);
}
