//! Regression tests for bad input, one section per category of the hostile-input campaign
//! (issue 8). Each asserts the exact error, and every failed mutation leaves its tensor unchanged.
//! The property-based fuzz target that generalises these is `tests/fuzz.rs`.
//!
//! Tests that ask for terabytes are skipped under Miri, whose allocator is the host's memory.
mod common;
use common::err;
use shaped::prelude::*;
use shaped::Layout;

fn v3() -> Tensor<f32, DynShape> {
    Tensor::from([1., 2., 3.]).into_dyn()
}

// ------------------------------------------------------------------------------------------
// 1. The layout door: as_strided, Layout::from_parts, try_from_parts for every storage kind.
// ------------------------------------------------------------------------------------------

#[test]
fn as_strided_refuses_element_counts_past_isize() {
    let x = v3();
    assert_eq!(
        err(x.try_as_strided(&[1, usize::MAX], &[1, -1], 0)),
        "the element count of [1, 18446744073709551615] overflows isize"
    );
    assert_eq!(
        err(x.try_as_strided(&[usize::MAX], &[-1], 0)),
        "the element count of [18446744073709551615] overflows isize"
    );
    assert_eq!(
        err(x.try_as_strided(&[usize::MAX, 2], &[0, 0], 0)),
        "the element count of [18446744073709551615, 2] overflows isize"
    );
    // The fuzzer's case: a size past isize with negative strides.
    assert_eq!(
        err(x.try_as_strided(&[3, 9223372036854775809, 1, 1], &[-4, -4, 1, -4], 0)),
        "the element count of [3, 9223372036854775809, 1, 1] overflows isize"
    );
}

#[test]
fn as_strided_refuses_reach_past_isize_instead_of_panicking() {
    let one = Tensor::from([1.0f32]).into_dyn();
    assert_eq!(
        err(one.try_as_strided(&[5], &[1 << 62], 0)),
        "layout with sizes [5], strides [4611686018427387904] and offset 0 reaches past isize::MAX"
    );
    assert_eq!(
        err(one.try_as_strided(&[2, 2], &[isize::MAX, 1], 0)),
        "layout with sizes [2, 2], strides [9223372036854775807, 1] and offset 0 reaches past isize::MAX"
    );
    // A negative reach below the storage.
    assert_eq!(
        err(v3().try_as_strided(&[3], &[-1], 1)),
        "layout with sizes [3], strides [-1] and offset 1 reaches offset -1, below the start of the storage"
    );
    // A reach past the end of this storage (valid as a layout, not for 3 elements).
    assert_eq!(
        err(v3().try_as_strided(&[2], &[3], 0)),
        "layout with sizes [2], strides [3] and offset 0 reaches outside a storage of 3 elements"
    );
}

#[test]
fn valid_strided_views_still_work() {
    let x = Tensor::<i32, DynShape>::from_vec(&[6], (0..6).collect());
    let v = x.as_strided(&[2, 3], &[1, 2], 0);
    assert_eq!(v.to_vec(), [0, 2, 4, 1, 3, 5]);
    let r = x.as_strided(&[3], &[-2], 5);
    assert_eq!(r.to_vec(), [5, 3, 1]);
    // Expanded (stride 0) views are fine to read.
    let e = x.as_strided(&[2, 3], &[0, 1], 1);
    assert_eq!(e.to_vec(), [1, 2, 3, 1, 2, 3]);
    // Empty layouts reach nothing, whatever their offset.
    assert_eq!(x.as_strided(&[0, 3], &[1, 1], 6).numel(), 0);
}

#[test]
fn from_parts_checks_every_storage_kind() {
    let far = Layout::from_parts(&[3, 2], &[4, 1], 5).unwrap();
    let msg = "layout with sizes [3, 2], strides [4, 1] and offset 5 reaches outside a storage of 12 elements";
    let data: Vec<i32> = (0..12).collect();
    assert_eq!(err(TensorView::<i32, DynShape>::try_from_parts(&data[..], far)), msg);
    let mut buf = data.clone();
    assert_eq!(err(TensorViewMut::<i32, DynShape>::try_from_parts(&mut buf[..], far)), msg);
    assert_eq!(err(Tensor::<i32, DynShape>::try_from_parts(data.clone(), far)), msg);
    assert_eq!(err(SharedTensor::<i32, DynShape>::try_from_parts(std::sync::Arc::new(data.clone()), far)), msg);
    // The same layout fits a longer buffer.
    let long: Vec<i32> = (0..16).collect();
    assert_eq!(TensorView::<i32, DynShape>::try_from_parts(&long[..], far).unwrap().to_vec(), [5, 6, 9, 10, 13, 14]);
    // Layout::from_parts itself refuses the overflowing parts.
    assert_eq!(
        err(Layout::from_parts(&[2], &[isize::MIN], 0)),
        "layout with sizes [2], strides [-9223372036854775808] and offset 0 reaches past isize::MAX"
    );
    assert_eq!(err(Layout::from_parts(&[1; 7], &[1; 7], 0)), "rank 7 exceeds the maximum of 6 dims");
    assert_eq!(err(Layout::from_parts(&[2, 2], &[1], 0)), "2 sizes but 1 strides");
}

#[test]
fn writable_storage_refuses_overlapping_layouts() {
    let overlap = Layout::from_parts(&[2, 3], &[1, 1], 0).unwrap(); // 6 coordinates, 4 elements
    assert!(overlap.may_overlap());
    let msg = "cannot write through a layout with sizes [2, 3] and strides [1, 1]: two of its coordinates may reach the same element (call contiguous() or to_owned() first)";
    let mut buf = [1, 2, 3, 4];
    assert_eq!(err(TensorViewMut::<i32, DynShape>::try_from_parts(&mut buf[..], overlap)), msg);
    assert_eq!(err(Tensor::<i32, DynShape>::try_from_parts(vec![1, 2, 3, 4], overlap)), msg);
    // Stride 0 over a dim of size 2 (an expanded view).
    let expanded = Layout::from_parts(&[2, 2], &[0, 1], 0).unwrap();
    assert!(
        err(TensorViewMut::<i32, DynShape>::try_from_parts(&mut buf[..], expanded)).starts_with("cannot write through")
    );
    // Reading through the same layouts is fine.
    assert_eq!(TensorView::<i32, DynShape>::try_from_parts(&buf[..], overlap).unwrap().to_vec(), [1, 2, 3, 2, 3, 4]);
    assert_eq!(buf, [1, 2, 3, 4]);
    // Non-overlapping layouts of any order are accepted for writing.
    let t = Layout::from_parts(&[2, 2], &[1, 2], 0).unwrap();
    let mut v = TensorViewMut::<i32, DynShape>::try_from_parts(&mut buf[..], t).unwrap();
    v.fill(7);
    assert_eq!(buf, [7, 7, 7, 7]);
}

#[test]
fn sharing_an_expanded_view_is_refused() {
    let s = Tensor::from([1., 2.]).into_shared();
    let e = s.expand::<Shape![3, 2]>();
    assert!(err(s.try_share(&e)).starts_with("cannot write through a layout with sizes [3, 2] and strides [0, 1]"));
    let t = s.t();
    assert_eq!(s.share(&t).to_vec(), [1., 2.]);
}

// ------------------------------------------------------------------------------------------
// 2. Matmul: output sizes that overflow, empty strided operands, huge outputs.
// ------------------------------------------------------------------------------------------

#[test]
fn matmul_output_size_overflow_is_an_error() {
    let one = Tensor::<f32, DynShape>::ones_sized(&[1, 1]);
    let a = one.try_expand_dyn(&[1 << 32, 1]).unwrap();
    let b = one.try_expand_dyn(&[1, 1 << 32]).unwrap();
    assert_eq!(err(a.try_matmul(&b)), "the element count of [4294967296, 4294967296] overflows isize");
}

#[test]
#[cfg_attr(miri, ignore)]
fn matmul_output_that_cannot_be_allocated_is_an_error() {
    let one = Tensor::<f32, DynShape>::ones_sized(&[1, 1]);
    let a = one.try_expand_dyn(&[1 << 22, 1]).unwrap();
    let b = one.try_expand_dyn(&[1, 1 << 22]).unwrap();
    assert_eq!(
        err(a.try_matmul(&b)),
        "out of memory: cannot allocate 70368744177664 bytes (17592186044416 elements of 4 bytes)"
    );
}

#[test]
fn batched_matmul_with_an_empty_strided_operand() {
    let store = Tensor::<f32, DynShape>::ones_sized(&[64]);
    // The fuzzer's case: an empty view with odd strides, and the same shapes contiguous.
    let a = store.as_strided(&[1, 3, 3, 1, 0, 3], &[0, 3, -1, -1, 1, 0], 10);
    let b = Tensor::<f32, DynShape>::ones_sized(&[1, 3, 3, 1, 3, 2]);
    let c = a.matmul(&b);
    assert_eq!(c.sizes(), [1, 3, 3, 1, 0, 2]);
    let a2 = Tensor::<f32, DynShape>::ones_sized(&[1, 3, 3, 1, 0, 3]);
    assert_eq!(a2.matmul(&b).sizes(), [1, 3, 3, 1, 0, 2]);
    // k = 0: the product is all zeros.
    let p = Tensor::<f32, DynShape>::ones_sized(&[2, 0]).matmul(&Tensor::<f32, DynShape>::ones_sized(&[0, 3]));
    assert_eq!(p.to_vec(), [0.; 6]);
}

#[test]
fn integer_matmul_wraps() {
    let a = Tensor::from([[200u8, 100]]);
    let b = Tensor::from([[2u8], [1]]);
    assert_eq!(a.matmul(&b).to_vec(), [(400u32 + 100) as u8]);
}

// ------------------------------------------------------------------------------------------
// 3. `try_` forms return errors instead of panicking or aborting.
// ------------------------------------------------------------------------------------------

#[test]
fn try_full_sized_past_the_address_space_is_an_alloc_error() {
    assert_eq!(
        err(Tensor::<f32, DynShape>::try_full_sized(&[1 << 62], 0.)),
        "out of memory: cannot allocate 18446744073709551616 bytes (4611686018427387904 elements of 4 bytes)"
    );
}

#[test]
#[cfg_attr(miri, ignore)]
fn try_full_sized_of_256_tib_is_an_alloc_error() {
    assert_eq!(
        err(Tensor::<f32, DynShape>::try_full_sized(&[1 << 46], 0.)),
        "out of memory: cannot allocate 281474976710656 bytes (70368744177664 elements of 4 bytes)"
    );
}

#[test]
fn chunks_past_the_address_space_are_alloc_errors() {
    let e = Tensor::<f32, DynShape>::zeros_sized(&[0]);
    assert!(
        err(e.try_chunk(usize::MAX, 0)).starts_with(
            "chunk: 18446744073709551615 chunks of the empty dim 0 of [0] are 18446744073709551615 empty views (as \
             PyTorch gives), and that many cannot be allocated (out of memory: cannot allocate"
        ),
        "{}",
        err(e.try_chunk(usize::MAX, 0))
    );
    assert_eq!(e.try_chunk(3, 0).unwrap().len(), 3);
}

#[test]
#[cfg_attr(miri, ignore)]
fn chunks_of_an_empty_dim_are_allocated_fallibly() {
    let e = Tensor::<f32, DynShape>::zeros_sized(&[0]);
    assert!(err(e.try_chunk(1 << 40, 0)).starts_with("chunk: 1099511627776 chunks of the empty dim 0 of [0]"));
    // split of a huge expanded dim into single elements: 2^40 views.
    let one = Tensor::<f32, DynShape>::zeros_sized(&[1]);
    let big = one.try_expand_dyn(&[1 << 40]).unwrap();
    assert!(err(big.try_split(1, 0)).starts_with("out of memory: cannot allocate"));
}

#[test]
#[cfg_attr(miri, ignore)]
fn reductions_and_copies_of_huge_views_are_alloc_errors() {
    // [isize::MAX, 0] holds nothing; summing over its empty dim gives isize::MAX zeros.
    let e = Tensor::<f32, DynShape>::zeros_sized(&[isize::MAX as usize, 0]);
    assert!(err(e.try_sum_axis(1)).starts_with("out of memory: cannot allocate"));
    let one = Tensor::<f32, DynShape>::ones_sized(&[1]);
    let big = one.try_expand_dyn(&[1 << 40]).unwrap(); // 4 TiB
    assert_eq!(
        err(big.try_to_owned()),
        "out of memory: cannot allocate 4398046511104 bytes (1099511627776 elements of 4 bytes)"
    );
    assert!(err(big.try_to_vec()).starts_with("out of memory"));
    assert!(err(big.try_contiguous()).starts_with("out of memory"));
    assert!(err(big.try_add(&big)).starts_with("out of memory"));
    assert!(err(big.try_map(|v| v * 2.)).starts_with("out of memory"));
    // cat of 8 TiB.
    assert!(err(Tensor::try_cat_all(&[&big, &big], 0)).starts_with("out of memory"));
    // Comparing views does not copy them: a 4 TiB view against one that differs in size.
    assert!(big != one);
}

#[test]
fn arange_with_an_impossible_length_is_an_error_at_once() {
    assert_eq!(
        err(Tensor::<f32, _>::try_arange_with(0., 1e30, 1e-30)),
        "arange(0, 1000000000000000000000000000000, 0.000000000000000000000000000001): 1.000e60 elements, more than a \
         tensor can hold (isize::MAX)"
    );
    assert_eq!(Tensor::<f32, _>::try_arange_with(0., 1., 0.25).unwrap().to_vec(), [0., 0.25, 0.5, 0.75]);
}

#[test]
fn display_of_an_empty_tensor_with_a_huge_dim() {
    let e = Tensor::<f32, DynShape>::zeros_sized(&[1 << 40, 0]);
    assert_eq!(e.to_string(), "tensor([], size=[1099511627776, 0])");
    assert_eq!(Tensor::<f32, DynShape>::zeros_sized(&[0]).to_string(), "tensor([])");
}

#[test]
fn integer_division_by_zero_is_an_error() {
    let a = Tensor::from([7i32, 8, 9]);
    let z = Tensor::from([1i32, 0, 1]);
    assert_eq!(err(a.try_div(&z)), "div: integer division by zero");
    // A zero that no output element uses (an empty result) is not an error.
    let e = Tensor::<i32, DynShape>::zeros_sized(&[0, 3]);
    assert_eq!(e.try_div(&z.clone().into_dyn()).unwrap().sizes(), [0, 3]);
    // Float division follows IEEE.
    assert_eq!((&Tensor::from([1.0f32]) / &Tensor::from([0.0f32])).to_vec(), [f32::INFINITY]);
    // i32::MIN / -1 wraps.
    assert_eq!((&Tensor::from([i32::MIN]) / &Tensor::from([-1])).to_vec(), [i32::MIN]);
}

#[test]
#[should_panic(expected = "div: integer division by zero")]
fn integer_division_operator_by_zero_panics_with_the_message() {
    let _ = &Tensor::from([1i64, 2]) / &Tensor::from([0i64, 1]);
}

#[test]
#[should_panic(expected = "div: integer division by zero")]
fn integer_division_by_a_zero_scalar_panics_with_the_message() {
    let _ = &Tensor::from([1u8, 2]) / 0u8;
}

#[test]
fn integer_overflow_wraps_in_every_profile() {
    assert_eq!((&Tensor::from([255u8, 1]) + &Tensor::from([1u8, 1])).to_vec(), [0, 2]);
    assert_eq!((&Tensor::from([0u8]) - 1u8).to_vec(), [255]);
    assert_eq!((&Tensor::from([i64::MAX]) * 2i64).to_vec(), [-2]);
}

#[test]
fn advanced_index_assignment_has_a_result_form_and_changes_nothing_on_error() {
    let mut x: Tensor<i32, Shape![3, 4]> = Tensor::from([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]);
    let before = x.clone();
    let rows = Tensor::from([0i64, 5]);
    assert_eq!(t!(try x[&rows] = 1).unwrap_err().to_string(), "index 5 is out of bounds for dimension 0 of size 3");
    assert_eq!(x, before);
    // A value of the wrong shape.
    let ok_rows = Tensor::from([0i64, 2]);
    let value = Tensor::from([1, 2, 3]).into_dyn();
    assert_eq!(
        t!(try x[&ok_rows] = &value).unwrap_err().to_string(),
        "cannot expand [3] to [2, 4]: only size-1 dims can be expanded"
    );
    assert_eq!(x, before);
    // A mask of the wrong shape.
    let mask = Tensor::<bool, Shape![_, _]>::full_sized(&[3, 3], true);
    assert_eq!(
        t!(try x[&mask] = 0).unwrap_err().to_string(),
        "mask index: [3, 3] and [3, 4] differ: the mask's shape must equal the dims it indexes"
    );
    assert_eq!(x, before);
    // And the successful forms.
    t!(try x[&ok_rows] = 1).unwrap();
    assert_eq!(t!(x[0]).to_vec(), [1; 4]);
    assert_eq!(t!(x[2]).to_vec(), [1; 4]);
    // Basic indices too, with a runtime index out of range.
    let i = 7;
    assert_eq!(t!(try x[i] = 3).unwrap_err().to_string(), "index 7 is out of bounds for dimension 0 of size 3");
}

#[test]
fn assignment_value_is_evaluated_before_the_target_is_borrowed() {
    let mut x: Tensor<f32, Shape![2, 2]> = Tensor::from([[1., 2.], [3., 4.]]);
    t!(x[.., 0] = &t!(x[.., 0]) * 2.0);
    assert_eq!(x.to_vec(), [2., 2., 6., 4.]);
    t!(try x[.., 1] = &t!(x[.., 1]) + 1.0).unwrap();
    assert_eq!(x.to_vec(), [2., 3., 6., 5.]);
}

#[test]
fn failed_assign_scatter_and_masked_fill_leave_the_tensor_unchanged() {
    let mut x = Tensor::<f32, DynShape>::zeros_sized(&[2, 3]);
    let before = x.clone();
    let wrong = Tensor::<f32, DynShape>::ones_sized(&[4]);
    assert_eq!(err(x.try_assign(&wrong)), "cannot expand [4] to [2, 3]: only size-1 dims can be expanded");
    assert_eq!(x, before);
    let idx = Tensor::from([[0i64, 1, 9]]).into_dyn();
    let src = Tensor::<f32, DynShape>::ones_sized(&[1, 3]);
    assert_eq!(
        err(x.try_scatter_(Ax::<0>, &idx, &src)),
        "index 9 at position [0, 2] is out of bounds for dimension 0 of size 2"
    );
    assert_eq!(x, before);
}

// ------------------------------------------------------------------------------------------
// 4. Messages: the rank limit, the exact index given, the shapes.
// ------------------------------------------------------------------------------------------

#[test]
fn rank_seven_requests_name_the_rank_limit() {
    let one = Tensor::<f32, DynShape>::ones_sized(&[1]);
    assert_eq!(err(one.try_expand_dyn(&[1; 7])), "rank 7 exceeds the maximum of 6 dims");
    assert_eq!(err(Tensor::<f32, DynShape>::try_full_sized(&[1; 7], 0.)), "rank 7 exceeds the maximum of 6 dims");
    assert_eq!(err(Tensor::<f32, DynShape>::try_from_vec(&[1; 7], vec![0.])), "rank 7 exceeds the maximum of 6 dims");
    let six = Tensor::<f32, DynShape>::ones_sized(&[1; 6]);
    assert_eq!(err(six.try_unsqueeze(0)), "rank 7 exceeds the maximum of 6 dims");
    assert_eq!(err(six.try_view_dyn(&[1; 7])), "rank 7 exceeds the maximum of 6 dims");
}

#[test]
fn index_errors_name_the_index_as_given() {
    let x = Tensor::from([1., 2., 3., 4.]).into_dyn();
    assert_eq!(
        err(x.try_index_select(0, &Tensor::from([u64::MAX]))),
        "index 18446744073709551615 is out of bounds for dimension 0 of size 4"
    );
    let i = u64::MAX;
    assert_eq!(
        t!(try x[i]).unwrap_err().to_string(),
        "index 18446744073709551615 is out of bounds for dimension 0 of size 4"
    );
    let j = i128::MIN;
    assert_eq!(
        t!(try x[j]).unwrap_err().to_string(),
        "index -170141183460469231731687303715884105728 is out of bounds for dimension 0 of size 4"
    );
    assert_eq!(
        t!(try x[..i]).unwrap_err().to_string(),
        "range 0..18446744073709551615 is out of bounds for dimension 0 of size 4"
    );
    let idx = Tensor::from([0u64, u64::MAX]);
    assert_eq!(
        t!(try x[&idx]).unwrap_err().to_string(),
        "index 18446744073709551615 is out of bounds for dimension 0 of size 4"
    );
    assert_eq!(
        err(x.try_narrow(0, isize::MIN, 2)),
        "range -9223372036854775808..-9223372036854775802 is out of bounds for dimension 0 of size 4"
    );
    assert_eq!(err(x.try_select(isize::MIN, 0)), "axis -9223372036854775808 is out of range for a tensor of rank 1");
}

// ------------------------------------------------------------------------------------------
// 5. Layout arithmetic at the extremes (overflow checks are on in the test profile).
// ------------------------------------------------------------------------------------------

#[test]
fn extreme_steps_and_strides_do_not_overflow() {
    let x = Tensor::<i32, DynShape>::from_vec(&[2, 3], (0..6).collect());
    // A step far larger than the dim: one element, the stride kept.
    let s = x.slice(&[SliceArg::Full, SliceArg::range(0..3, isize::MAX)]);
    assert_eq!(s.to_vec(), [0, 3]);
    let s = x.slice(&[SliceArg::Full, SliceArg::range(0..3, isize::MIN)]);
    assert_eq!(s.to_vec(), [2, 5]);
    assert_eq!(
        err(x.try_slice(&[SliceArg::range(..=isize::MAX, 1)])),
        "range 0..9223372036854775807 is out of bounds for dimension 0 of size 2"
    );
    // A size-1 dim may carry any stride, even isize::MIN; flipping and unsqueezing it is fine.
    let store = Tensor::<i32, DynShape>::from_vec(&[4], vec![1, 2, 3, 4]);
    let odd = store.as_strided(&[1, 4], &[isize::MIN, 1], 0);
    assert_eq!(odd.try_flip_dyn(&[0, 1]).unwrap().to_vec(), [4, 3, 2, 1]);
    assert_eq!(odd.try_unsqueeze(0).unwrap().to_vec(), [1, 2, 3, 4]);
    let big = store.as_strided(&[2, 1], &[1, isize::MAX], 0);
    assert_eq!(big.try_unsqueeze(1).unwrap().sizes(), [2, 1, 1]);
    // Empty views of reversed layouts keep a valid offset through further views.
    let e = store.as_strided(&[0, 4], &[1, -1], 3);
    let sel = e.try_select(1, 3).unwrap();
    assert_eq!((sel.sizes(), sel.numel()), (&[0][..], 0));
    assert_eq!(e.try_flip_dyn(&[1]).unwrap().try_unsqueeze(2).unwrap().sizes(), [0, 4, 1]);
    // Diagonal offsets at the extremes give empty diagonals.
    let m = Tensor::<i32, DynShape>::zeros_sized(&[3, 3]);
    assert_eq!(m.try_diagonal(isize::MIN, 0, 1).unwrap().sizes(), [0]);
    assert_eq!(m.try_diagonal(isize::MAX, 0, 1).unwrap().sizes(), [0]);
    // unflatten of an empty dim into a huge one is refused by reach, not wrapped.
    let z = Tensor::<i32, DynShape>::zeros_sized(&[0]);
    let w = z.as_strided(&[0], &[1 << 40], 0);
    assert!(w.try_unflatten_dyn(0, &[0, isize::MAX]).is_err());
}

#[test]
fn views_of_views_keep_the_invariant() {
    // A chain through every view kind on a layout with negative and zero strides.
    let base = Tensor::<f32, DynShape>::from_vec(&[24], (0..24).map(|v| v as f32).collect());
    let v = base.as_strided(&[2, 3, 4], &[12, -4, 1], 8);
    let chain = v.try_flip_dyn(&[2]).unwrap();
    let chain = chain.try_transpose(0, 2).unwrap();
    let chain = chain.try_narrow(1, 1, 2).unwrap();
    let chain = chain.try_unsqueeze(0).unwrap();
    let chain = chain.try_expand_dyn(&[2, 4, 2, 2]).unwrap();
    let chain = chain.try_diagonal(0, 0, 3).unwrap();
    assert_eq!(chain.sizes(), [4, 2, 2]);
    let owned = chain.to_owned();
    assert!(owned.to_vec().iter().all(|&x| (0.0..24.0).contains(&x)));
}

// ------------------------------------------------------------------------------------------
// 6. Found by the fuzz target (tests/fuzz.rs).
// ------------------------------------------------------------------------------------------

#[test]
fn view_of_an_empty_layout_keeps_the_reach_inside_isize() {
    // An empty layout may sit at any offset; its reshaped view gets row-major strides, so it must
    // not keep that offset (offset + reach would pass isize::MAX and later views overflow).
    let x = Tensor::<f64, DynShape>::from_vec(&[1], vec![0.]);
    let e = x.try_as_strided(&[0], &[1], isize::MAX as usize).unwrap();
    let v = e.try_view_dyn(&[0, 3]).unwrap();
    assert_eq!(v.sizes(), [0, 3]);
    assert_eq!(v.try_select(1, 2).unwrap().sizes(), [0]);
    assert_eq!(v.try_narrow(1, 2, 1).unwrap().sizes(), [0, 1]);
    assert_eq!(v.slice(&[SliceArg::Full, SliceArg::Index(2)]).sizes(), [0]);
    assert_eq!(e.try_reshape_dyn(&[3, 0]).unwrap().try_select(0, 2).unwrap().sizes(), [0]);
}

/// The message of an overflowing empty broadcast `[4, 2^62, 0]`.
const EMPTY_OVERFLOW: &str =
    "the sizes [4, 4611686018427387904, 0] overflow isize: the tensor holds no element, but its \
                              strides are products of its sizes (an empty dim counted as 1), and they must fit isize";

#[test]
fn binary_ops_on_an_overflowing_empty_broadcast_return_an_error() {
    let a = Tensor::<f64, DynShape>::zeros_sized(&[0]).try_reshape_dyn(&[1 << 62, 0]).unwrap().into_owned();
    let b = Tensor::<f64, DynShape>::zeros_sized(&[4, 1, 0]);
    assert_eq!(err(a.try_add(&b)), EMPTY_OVERFLOW);
    assert_eq!(err(a.try_div(&b)), EMPTY_OVERFLOW);
    let ai = Tensor::<i8, DynShape>::zeros_sized(&[0]).try_reshape_dyn(&[1 << 62, 0]).unwrap().into_owned();
    let bi = Tensor::<i8, DynShape>::zeros_sized(&[4, 1, 0]);
    assert!(err(ai.try_div(&bi)).starts_with("the sizes [4, 4611686018427387904, 0] overflow isize"));
}

// ------------------------------------------------------------------------------------------
// Issue 25: the second hostile-input campaign.
// ------------------------------------------------------------------------------------------

/// A one-element dim may carry any stride, `isize::MIN` included; faer negates strides to walk
/// reversed views, and `-isize::MIN` overflowed inside it (a debug-build panic, the right answer
/// in release). The bridge hands faer stride 1 for such dims.
#[test]
fn a_unit_dim_with_stride_isize_min_reaches_no_kernel() {
    let store = Tensor::<f64, DynShape>::from_vec(&[4], vec![1., 2., 3., 4.]);
    // [[2], [1]]: column vector read backwards, its unit dim strided by isize::MIN.
    let a = store.try_as_strided(&[2, 1], &[-1, isize::MIN], 1).unwrap();
    assert_eq!(a.to_vec(), [2., 1.]);
    let b = store.try_as_strided(&[1, 2], &[isize::MIN, -1], 3).unwrap(); // [[4, 3]]
    assert_eq!(a.try_matmul(&b).unwrap().to_vec(), [8., 6., 4., 3.]);
    assert_eq!(b.try_matmul(&a).unwrap().to_vec(), [11.]);
    let s = store.try_as_strided(&[1, 1], &[isize::MIN, isize::MIN], 2).unwrap(); // [[3]]
    assert_eq!(s.try_matmul(&b).unwrap().to_vec(), [12., 9.]);
    #[cfg(feature = "linalg")]
    {
        let s = s.try_into_static::<Shape![1, 1]>().unwrap();
        let s2 = s.to_owned();
        assert_eq!(s.try_inv().unwrap().to_vec(), [1. / 3.]);
        assert_eq!(s.try_det().unwrap(), 3.);
        assert_eq!(s.try_solve(&s2).unwrap().to_vec(), [1.]);
        let big = Tensor::<f64, DynShape>::from_vec(
            &[81],
            (0..81).map(|i| (i % 7) as f64 + if i % 10 == 0 { 9. } else { 0. }).collect(),
        );
        let m = big.try_as_strided(&[9, 9], &[9, 1], 0).unwrap().try_into_static::<Shape![9, 9]>().unwrap();
        let col =
            store.try_as_strided(&[9, 1], &[0, isize::MIN], 0).unwrap().try_into_static::<Shape![9, 1]>().unwrap();
        let x = m.try_solve(&col).unwrap();
        let back = m.try_matmul(&x).unwrap();
        for v in back.to_vec() {
            assert!((v - 1.).abs() < 1e-9, "{v}");
        }
    }
}

/// An empty tensor whose nominal sizes overflow is still refused (its strides would), with a
/// message that says why instead of calling a 0-element tensor's element count too large.
#[test]
fn empty_layouts_with_huge_sizes_say_why_they_overflow() {
    let z = Tensor::<i32, DynShape>::zeros_sized(&[0]);
    assert_eq!(
        err(z.try_as_strided(&[0, usize::MAX, 2], &[1, 1, 1], 0)),
        "the sizes [0, 18446744073709551615, 2] overflow isize: the tensor holds no element, but its strides are \
         products of its sizes (an empty dim counted as 1), and they must fit isize"
    );
    let e = err(z.try_unflatten_dyn(0, &[0, isize::MAX, 4]));
    assert!(e.starts_with("the sizes [0, 9223372036854775807, 4] overflow isize: the tensor holds no element"), "{e}");
    // A plain non-empty overflow keeps the short message.
    assert_eq!(
        err(v3().try_as_strided(&[usize::MAX, 2], &[0, 0], 0)),
        "the element count of [18446744073709551615, 2] overflows isize"
    );
}

/// The entry points this round made public, given hostile input: `layout::broadcast_sizes` with
/// too many dims and sizes that do not broadcast, and the `t!` support trait's
/// `CompoundOp::assign` called directly with a divisor holding a zero and a value that does not
/// broadcast (errors, nothing written).
#[test]
fn new_entry_points_refuse_hostile_input() {
    use shaped::index::{CompoundOp, OpDiv, OpSub};
    use shaped::layout::broadcast_sizes;
    assert_eq!(err(broadcast_sizes(&[1; 7], &[1])), "rank 7 exceeds the maximum of 6 dims");
    assert!(broadcast_sizes(&[usize::MAX, 3], &[2, 3]).is_err());
    let (s, r) = broadcast_sizes(&[usize::MAX, 1], &[1, 0]).unwrap();
    assert_eq!(&s[..r], [usize::MAX, 0]);
    let mut x = Tensor::<i32, DynShape>::from_vec(&[4], vec![1, 2, 3, 4]);
    let z = Tensor::<i32, DynShape>::from_vec(&[4], vec![1, 1, 0, 1]);
    assert_eq!(err(OpDiv::assign(&mut x.as_view_mut(), &z)), "div: integer division by zero");
    let w = Tensor::<i32, DynShape>::from_vec(&[3], vec![1, 1, 1]);
    assert!(OpSub::assign(&mut x.as_view_mut(), &w).is_err());
    assert_eq!(x.to_vec(), [1, 2, 3, 4]);
}
