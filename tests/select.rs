//! Selection by index tensors and masks (PyTorch semantics): index_select, gather, scatter,
//! masked_select, masked_fill, where_, nonzero. Values, result types, non-contiguous operands,
//! dynamic shapes, every error message, and a differential check of gather/scatter against a
//! reference loop over row-major buffers.
use shaped::prelude::*;

mod common;
use common::*;
use shaped::Layout;

/// `[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]`.
fn x34() -> Tensor<i32, Shape![3, 4]> {
    Tensor::<i32, Shape![12]>::arange().reshape::<Shape![3, 4]>().into_owned()
}

// ---------------------------------------------------------------------------- index_select

#[test]
fn index_select_static_index_keeps_a_static_dim() {
    let x = x34();
    let rows: Tensor<i32, Shape![2, 4]> = x.index_select(Ax::<0>, &Tensor::from([2i64, 0]));
    assert_eq!(rows.to_vec(), [8, 9, 10, 11, 0, 1, 2, 3]);
    // Repeats and negative entries (counted from the end); any integer element type.
    let cols: Tensor<i32, Shape![3, 5]> = x.index_select(Ax::<1>, &Tensor::from([-1i32, 0, 0, 3, -4]));
    assert_eq!(cols.to_vec(), [3, 0, 0, 3, 0, 7, 4, 4, 7, 4, 11, 8, 8, 11, 8]);
    let u: Tensor<i32, Shape![3, 1]> = x.index_select(Ax::<1>, &Tensor::from([2u8]));
    assert_eq!(u.to_vec(), [2, 6, 10]);
    // An empty index gives an empty dim.
    let none: Tensor<i32, Shape![3, 0]> = x.index_select(Ax::<1>, &Tensor::<i64, Shape![0]>::zeros());
    assert_eq!((none.sizes(), none.numel()), (&[3, 0][..], 0));
}

#[test]
fn index_select_dyn_index_gives_a_dyn_dim() {
    let x = x34();
    let idx = Tensor::<i64, Shape![_]>::from_vec(&[3], vec![1, -1, 0]);
    let r: Tensor<i32, Shape![_, 4]> = x.index_select(Ax::<0>, &idx);
    assert_eq!(r.sizes(), [3, 4]);
    assert_eq!(r.to_vec(), [4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3]);
    // A non-contiguous index: a reversed view, [0, -1, 1].
    let rev = t!(idx[..;-1]);
    assert_eq!(rev.strides(), [-1]);
    let c: Tensor<i32, Shape![3, _]> = x.index_select(Ax::<1>, &rev);
    assert_eq!(c.to_vec(), [0, 3, 1, 4, 7, 5, 8, 11, 9]);
}

#[test]
fn index_select_reads_non_contiguous_inputs() {
    let x = x34();
    let xt = x.t(); // [4, 3], strides [1, 4]
    let r: Tensor<i32, Shape![2, 3]> = xt.index_select(Ax::<0>, &Tensor::from([3i64, 1]));
    assert_eq!(r.to_vec(), [3, 7, 11, 1, 5, 9]);
    let c: Tensor<i32, Shape![4, 2]> = xt.index_select(Ax::<1>, &Tensor::from([2i64, 0]));
    assert_eq!(c.to_vec(), [8, 0, 9, 1, 10, 2, 11, 3]);
    let flipped = t!(x[..;-1, ..]);
    let f: Tensor<i32, Shape![2, 4]> = flipped.index_select(Ax::<0>, &Tensor::from([0i64, -1]));
    assert_eq!(f.to_vec(), [8, 9, 10, 11, 0, 1, 2, 3]);
}

#[test]
fn index_select_copies_wide_blocks_and_narrow_columns_alike() {
    // Dims after the axis holding >= 16 elements take the block path; fewer the gather path.
    let x = Tensor::<i32, Shape![60]>::arange().reshape::<Shape![3, 20]>().into_owned();
    let idx = Tensor::from([2i64, -3, 2]);
    let rows = x.index_select(Ax::<0>, &idx);
    assert_eq!(rows.to_vec(), [&x.to_vec()[40..60], &x.to_vec()[..20], &x.to_vec()[40..60]].concat());
    let cols = x.t().index_select(Ax::<1>, &idx); // [20, 3], gather path on a transposed view
    assert_eq!(cols.to_vec(), rows.t().to_vec());
    let rev = t!(x[.., ..;-1]); // block path on negative strides
    let r = rev.index_select(Ax::<0>, &idx);
    let row = |k: i32| (0..20).rev().map(move |j| 20 * k + j);
    assert_eq!(r.to_vec(), row(2).chain(row(0)).chain(row(2)).collect::<Vec<_>>());
}

#[test]
fn index_select_on_dynamic_shapes_and_runtime_axes() {
    let d = x34().into_dyn();
    let r: Tensor<i32, DynShape> = d.index_select(Ax::<1>, &Tensor::from([3i64, -4]));
    assert_eq!((r.sizes(), r.to_vec()), (&[3, 2][..], vec![3, 0, 7, 4, 11, 8]));
    // Runtime axis (negative counts from the end), a `DynShape` index of runtime rank 1.
    let idx = Tensor::from([2i64, 2]).into_dyn();
    let a = x34().index_select(-2, &idx);
    assert_eq!((a.sizes(), a.to_vec()), (&[2, 4][..], vec![8, 9, 10, 11, 8, 9, 10, 11]));
    assert_eq!(d.try_index_select(1, &Tensor::from([1i32])).unwrap().to_vec(), [1, 5, 9]);
    // A rank-0 index selects one slice and keeps the dim, as PyTorch.
    let s = d.index_select(0, &Tensor::scalar(-1i64));
    assert_eq!((s.sizes(), s.to_vec()), (&[1, 4][..], vec![8, 9, 10, 11]));
}

#[test]
fn index_select_errors_name_the_index_the_dim_and_its_size() {
    let x = x34();
    assert_eq!(
        err(x.try_index_select(Ax::<0>, &Tensor::from([0i64, 3]))),
        "index 3 is out of bounds for dimension 0 of size 3"
    );
    assert_eq!(
        err(x.try_index_select(Ax::<1>, &Tensor::from([-5i64]))),
        "index -5 is out of bounds for dimension 1 of size 4"
    );
    assert_eq!(
        err(x.try_index_select(Ax::<1>, &Tensor::from([u64::MAX]))),
        format!("index {} is out of bounds for dimension 1 of size 4", u64::MAX)
    );
    let d = x.clone().into_dyn();
    assert_eq!(
        err(d.try_index_select(Ax::<2>, &Tensor::from([0i64]))),
        "axis 2 is out of range for a tensor of rank 2"
    );
    assert_eq!(err(d.try_index_select(-3, &Tensor::from([0i64]))), "axis -3 is out of range for a tensor of rank 2");
    assert_eq!(
        err(x.try_index_select(0, &Tensor::from([[0i64, 1]]).into_dyn())),
        "index_select: the index must have at most 1 dim, got sizes [1, 2]"
    );
}

#[test]
#[should_panic(expected = "index 4 is out of bounds for dimension 1 of size 4")]
fn index_select_panics_with_the_message() {
    let _ = x34().index_select(Ax::<1>, &Tensor::from([4i64]));
}

// ---------------------------------------------------------------------------------- gather

#[test]
fn gather_picks_along_an_axis() {
    let x = x34();
    // out[i][j] = x[index[i][j]][j]
    let g0: Tensor<i32, Shape![2, 4]> = x.gather(Ax::<0>, &Tensor::from([[2i64, 0, 1, 1], [0, 0, -1, 2]]));
    assert_eq!(g0.to_vec(), [8, 1, 6, 7, 0, 1, 10, 11]);
    // out[i][j] = x[i][index[i][j]]
    let g1: Tensor<i32, Shape![3, 2]> = x.gather(Ax::<1>, &Tensor::from([[3i32, 0], [-1, 1], [2, 2]]));
    assert_eq!(g1.to_vec(), [3, 0, 7, 5, 10, 10]);
    // The index may be smaller than the input outside the axis, and longer along it.
    let small: Tensor<i32, Shape![2, 1]> = x.gather(Ax::<1>, &Tensor::from([[1u8], [2]]));
    assert_eq!(small.to_vec(), [1, 6]);
    let long: Tensor<i32, Shape![5, 1]> = x.gather(Ax::<0>, &Tensor::from([[0i64], [1], [2], [0], [1]]));
    assert_eq!(long.to_vec(), [0, 4, 8, 0, 4]);
    // Rank 3, last axis.
    let y = Tensor::<i32, Shape![24]>::arange().reshape::<Shape![2, 3, 4]>().into_owned();
    let g2 = y.gather(Ax::<2>, &Tensor::from([[[3i64], [2], [1]], [[0], [-1], [2]]]));
    assert_eq!(g2.to_vec(), [3, 6, 9, 12, 19, 22]);
}

#[test]
fn gather_reads_non_contiguous_inputs_and_indices() {
    let x = x34();
    let xt = x.t(); // [4, 3]: xt[i][j] = 4 j + i
    let idx = Tensor::from([[2i64, 1, 0, -1], [0, 1, 2, 0]]);
    let it = idx.t(); // [[2, 0], [1, 1], [0, 2], [-1, 0]], strides [1, 4]
    let g: Tensor<i32, Shape![4, 2]> = xt.gather(Ax::<1>, &it);
    assert_eq!(g.to_vec(), [8, 0, 5, 5, 2, 10, 11, 3]);
    let flipped = t!(x[..;-1, ..]);
    let f = flipped.gather(Ax::<0>, &Tensor::from([[0i64, 1, 2, -1]]));
    assert_eq!(f.to_vec(), [8, 5, 2, 3]);
}

#[test]
fn gather_on_dynamic_shapes() {
    let d = x34().into_dyn();
    let idx = Tensor::from([[1i64, 0, 3], [2, 2, -4]]).into_dyn();
    let g: Tensor<i32, DynShape> = d.gather(Ax::<1>, &idx);
    assert_eq!((g.sizes(), g.to_vec()), (&[2, 3][..], vec![1, 0, 3, 6, 6, 4]));
    // A static input with a dynamic index: the rank is checked at run time.
    let s = x34().gather(Ax::<1>, &idx);
    assert_eq!(s.to_vec(), g.to_vec());
    let partly: Tensor<i32, Shape![_, 2]> =
        x34().gather(Ax::<0>, &Tensor::<i64, Shape![_, 2]>::from_vec(&[1, 2], vec![2, 1]));
    assert_eq!(partly.to_vec(), [8, 5]);
}

#[test]
fn gather_errors() {
    let x = x34();
    assert_eq!(
        err(x.try_gather(Ax::<0>, &Tensor::<i64, Shape![2, 5]>::zeros())),
        "gather: [2, 5] and [3, 4] (index and input sizes) do not fit: index size 5 exceeds 4 in dimension 1"
    );
    assert_eq!(
        err(x.try_gather(Ax::<1>, &Tensor::from([0i64, 1]).into_dyn())),
        "gather: [2] and [3, 4] (index and input sizes) differ in rank"
    );
    assert_eq!(
        err(x.try_gather(Ax::<1>, &Tensor::from([[0i64], [4]]))),
        "index 4 is out of bounds for dimension 1 of size 4"
    );
    assert_eq!(
        err(x.try_gather(Ax::<0>, &Tensor::from([[0i64, -4]]))),
        "index -4 is out of bounds for dimension 0 of size 3"
    );
    // The first bad entry in the index's row-major order is reported.
    assert_eq!(
        err(x.try_gather(Ax::<0>, &Tensor::from([[0i64, 9], [7, 0]]).t())),
        "index 7 is out of bounds for dimension 0 of size 3"
    );
    // An empty dim: every entry is out of bounds.
    let e = Tensor::<i32, Shape![0, 2]>::zeros();
    assert_eq!(
        err(e.try_gather(Ax::<0>, &Tensor::from([[0i64, 0]]))),
        "index 0 is out of bounds for dimension 0 of size 0"
    );
    assert_eq!(e.gather(Ax::<0>, &Tensor::<i64, Shape![0, 2]>::zeros()).numel(), 0);
    assert_eq!(
        err(x.clone().into_dyn().try_gather(Ax::<2>, &Tensor::<i64, DynShape>::zeros_sized(&[1, 1]))),
        "axis 2 is out of range for a tensor of rank 2"
    );
}

#[test]
#[should_panic(
    expected = "gather: [4, 4] and [3, 4] (index and input sizes) do not fit: index size 4 exceeds 3 in dimension 0"
)]
fn gather_panics_with_the_message() {
    let _ = x34().gather(Ax::<1>, &Tensor::<i64, Shape![4, 4]>::zeros());
}

// --------------------------------------------------------------------------------- scatter

#[test]
fn scatter_matches_the_pytorch_examples() {
    // torch.zeros(3, 5).scatter_(0, tensor([[0, 1, 2, 0]]), arange(1, 11).reshape(2, 5))
    let src = Tensor::<i32, Shape![10]>::arange().reshape::<Shape![2, 5]>().into_owned() + 1;
    let mut x = Tensor::<i32, Shape![3, 5]>::zeros();
    x.scatter_(Ax::<0>, &Tensor::from([[0i64, 1, 2, 0]]), &src);
    assert_eq!(x.to_vec(), [1, 0, 0, 4, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0]);
    // torch.zeros(3, 5).scatter(1, tensor([[0, 1, 2], [0, 1, 4]]), src)
    let z = Tensor::<i32, Shape![3, 5]>::zeros();
    let y: Tensor<i32, Shape![3, 5]> = z.scatter(Ax::<1>, &Tensor::from([[0i64, 1, 2], [0, 1, 4]]), &src);
    assert_eq!(y.to_vec(), [1, 2, 3, 0, 0, 6, 7, 0, 0, 8, 0, 0, 0, 0, 0]);
    assert_eq!(z.to_vec(), [0; 15], "the out-of-place form leaves its input alone");
    // torch.full((2, 4), 2.).scatter_(1, tensor([[2], [3]]), 1.23)
    let mut f = Tensor::<f64, Shape![2, 4]>::full(2.);
    f.scatter_value_(Ax::<1>, &Tensor::from([[2i64], [3]]), 1.23);
    assert_eq!(f.to_vec(), [2., 2., 1.23, 2., 2., 2., 2., 1.23]);
}

#[test]
fn scatter_negative_and_duplicate_indices() {
    let z = Tensor::<i32, Shape![3, 5]>::zeros();
    let v = z.scatter_value(Ax::<1>, &Tensor::from([[4i64], [0], [3]]), 9);
    assert_eq!(v.to_vec(), [0, 0, 0, 0, 9, 9, 0, 0, 0, 0, 0, 0, 0, 9, 0]);
    // Negative entries are errors, as in PyTorch (issue 35; they counted from the end before).
    assert_eq!(
        err(z.try_scatter_value(Ax::<1>, &Tensor::from([[-1i64], [0], [-2]]), 9)),
        "index -1 at position [0, 0] is out of bounds for dimension 1 of size 5 \
         (negative indices are not counted from the end here, as in PyTorch)"
    );
    // Duplicates: the last in the index's row-major order wins.
    let mut d = Tensor::<i32, Shape![1, 3]>::zeros();
    d.scatter_(Ax::<1>, &Tensor::from([[0i64, 2, 0]]), &Tensor::from([[1, 2, 3]]));
    assert_eq!(d.to_vec(), [3, 0, 2]);
    // A src larger than the index: only its leading part is read.
    let big = Tensor::<i32, Shape![12]>::arange().reshape::<Shape![3, 4]>().into_owned();
    let s = Tensor::<i32, Shape![2, 2]>::zeros().scatter(Ax::<0>, &Tensor::from([[1i64, 0]]), &big);
    assert_eq!(s.to_vec(), [0, 1, 0, 0]);
}

#[test]
fn scatter_writes_through_non_contiguous_views() {
    // A transposed [3, 2] view of a [2, 3] buffer.
    let mut buf = vec![0i32; 6];
    {
        let l = Layout::from_parts(&[3, 2], &[1, 3], 0).unwrap();
        let mut v = TensorViewMut::<i32, Shape![3, 2]>::try_from_parts(&mut buf[..], l).unwrap();
        v.scatter_(Ax::<0>, &Tensor::from([[2i64, 0]]), &Tensor::from([[7, 8]]));
        v.scatter_value_(Ax::<1>, &Tensor::from([[0i64], [1]]), 5);
    }
    assert_eq!(buf, [5, 0, 7, 8, 5, 0]);
    // A reversed view (negative stride), with a reversed src.
    let mut rbuf = vec![0i32; 3];
    {
        let l = Layout::from_parts(&[3], &[-1], 2).unwrap();
        let mut v = TensorViewMut::<i32, Shape![3]>::try_from_parts(&mut rbuf[..], l).unwrap();
        let src = Tensor::from([6, 5]);
        v.scatter_(Ax::<0>, &Tensor::from([2i64, 0]), &t!(src[..;-1]));
    }
    assert_eq!(rbuf, [5, 0, 6]);
    // Non-contiguous index and src, dynamic shapes.
    let mut d = Tensor::<i32, DynShape>::zeros_sized(&[2, 3]);
    let idx = Tensor::from([[2i64, 0], [1, 2]]);
    let src = Tensor::from([[1, 2], [3, 4]]);
    d.scatter_(Ax::<1>, &idx.t(), &src.t()); // index [[2, 1], [0, 2]], src [[1, 3], [2, 4]]
    assert_eq!(d.to_vec(), [0, 3, 1, 2, 0, 4]);
}

#[test]
fn scatter_errors_leave_the_tensor_unchanged() {
    let mut x = Tensor::<i32, Shape![3, 4]>::zeros();
    assert_eq!(
        err(x.try_scatter_(Ax::<1>, &Tensor::from([[0i64, 7]]), &Tensor::from([[1, 2]]))),
        "index 7 at position [0, 1] is out of bounds for dimension 1 of size 4"
    );
    assert_eq!(x.to_vec(), [0; 12], "no write before every index is checked");
    assert_eq!(
        err(x.try_scatter_value_(Ax::<0>, &Tensor::from([[1i64], [-4]]), 1)),
        "index -4 at position [1, 0] is out of bounds for dimension 0 of size 3 \
         (negative indices are not counted from the end here, as in PyTorch)"
    );
    assert_eq!(x.to_vec(), [0; 12]);
    assert_eq!(
        err(x.try_scatter_(Ax::<0>, &Tensor::<i64, Shape![2, 2]>::zeros(), &Tensor::from([[1, 2]]))),
        "scatter: [2, 2] and [1, 2] (index and src sizes) do not fit: index size 2 exceeds 1 in dimension 0"
    );
    assert_eq!(
        err(x.try_scatter(Ax::<0>, &Tensor::<i64, Shape![1, 5]>::zeros(), &Tensor::<i32, Shape![1, 5]>::zeros())),
        "scatter: [1, 5] and [3, 4] (index and self sizes) do not fit: index size 5 exceeds 4 in dimension 1"
    );
    assert_eq!(
        err(x.try_scatter_value(Ax::<0>, &Tensor::from([0i64, 1]).into_dyn(), 1)),
        "scatter: [2] and [3, 4] (index and self sizes) differ in rank"
    );
    assert_eq!(
        err(x.try_scatter_(
            Ax::<0>,
            &Tensor::<i64, Shape![1, 2]>::zeros(),
            &Tensor::<i32, DynShape>::zeros_sized(&[1, 2, 1])
        )),
        "scatter: [1, 2] and [1, 2, 1] (index and src sizes) differ in rank"
    );
    let mut d = x.clone().into_dyn();
    assert_eq!(
        err(d.try_scatter_value_(Ax::<5>, &Tensor::<i64, DynShape>::zeros_sized(&[1, 1]), 1)),
        "axis 5 is out of range for a tensor of rank 2"
    );
}

#[test]
#[should_panic(expected = "index 3 at position [0, 0] is out of bounds for dimension 0 of size 3")]
fn scatter_panics_with_the_message() {
    let mut x = Tensor::<i32, Shape![3, 4]>::zeros();
    x.scatter_(Ax::<0>, &Tensor::from([[3i64]]), &Tensor::from([[1]]));
}

// ---------------------------------------------------------------------------- masked ops

#[test]
fn masked_select_broadcasts_the_mask() {
    let x = x34();
    let row = Tensor::from([true, false, false, true]);
    let s: Tensor<i32, Shape![_]> = x.masked_select(&row);
    assert_eq!(s.to_vec(), [0, 3, 4, 7, 8, 11]);
    let col = Tensor::from([[true], [false], [true]]);
    assert_eq!(x.masked_select(&col).to_vec(), [0, 1, 2, 3, 8, 9, 10, 11]);
    // The mask may be larger than the tensor: both broadcast, as PyTorch.
    let v = Tensor::from([10, 20, 30, 40]);
    let m = Tensor::from([[true, false, false, false], [false, false, true, true]]);
    assert_eq!(v.masked_select(&m).to_vec(), [10, 30, 40]);
    assert_eq!(v.masked_select(&Tensor::from([false; 4])).sizes(), [0]);
}

#[test]
fn masked_select_reads_non_contiguous_operands_in_row_major_order() {
    let x = x34();
    let xt = x.t(); // [[0, 4, 8], [1, 5, 9], [2, 6, 10], [3, 7, 11]]
    let m = Tensor::from([[false, true, false], [false, false, false], [true, false, false], [false, false, true]]);
    assert_eq!(xt.masked_select(&m).to_vec(), [4, 2, 11]);
    let mt = Tensor::from([[false, false, true, false], [true, false, false, false], [false, false, false, true]]);
    assert_eq!(xt.masked_select(&mt.t()).to_vec(), [4, 2, 11]);
    let d = xt.to_owned().into_dyn();
    assert_eq!(d.masked_select(&m.into_dyn()).to_vec(), [4, 2, 11]);
}

#[test]
fn masked_select_error() {
    let x = Tensor::<i32, Shape![_, 4]>::zeros_sized(&[3, 4]);
    let m = Tensor::<bool, Shape![_]>::full_sized(&[3], true);
    assert_eq!(err(x.try_masked_select(&m)), "cannot broadcast [3, 4] with [3]");
}

#[test]
fn masked_fill_keeps_the_shape() {
    let x = x34();
    let f: Tensor<i32, Shape![3, 4]> = x.masked_fill(&Tensor::from([false, true, false, true]), -1);
    assert_eq!(f.to_vec(), [0, -1, 2, -1, 4, -1, 6, -1, 8, -1, 10, -1]);
    let g = x.t().masked_fill(&Tensor::from([[true], [false], [false], [true]]), 0);
    assert_eq!(g.to_vec(), [0, 0, 0, 1, 5, 9, 2, 6, 10, 0, 0, 0]);
    let mut y = x.clone();
    y.masked_fill_(&Tensor::from([[true], [false], [true]]), 7);
    assert_eq!(y.to_vec(), [7, 7, 7, 7, 4, 5, 6, 7, 7, 7, 7, 7]);
    // In place through a transposed view, with a scalar (rank-0) mask.
    let mut buf = vec![1.0f32; 6];
    {
        let l = Layout::from_parts(&[3, 2], &[1, 3], 0).unwrap();
        let mut v = TensorViewMut::<f32, Shape![3, 2]>::try_from_parts(&mut buf[..], l).unwrap();
        v.masked_fill_(&Tensor::from([true, false]), 0.5);
        v.masked_fill_(&Tensor::scalar(false), 9.);
    }
    assert_eq!(buf, [0.5, 0.5, 0.5, 1., 1., 1.]);
    let d = x.clone().into_dyn().masked_fill(&Tensor::from([false, false, false, true]).into_dyn(), 0);
    assert_eq!(d.to_vec(), [0, 1, 2, 0, 4, 5, 6, 0, 8, 9, 10, 0]);
}

#[test]
fn masked_fill_errors() {
    let mut x = Tensor::<i32, Shape![_]>::zeros_sized(&[3]);
    let m = Tensor::<bool, Shape![_]>::full_sized(&[2], true);
    assert_eq!(err(x.try_masked_fill(&m, 1)), "cannot expand [2] to [3]: only size-1 dims can be expanded");
    assert_eq!(err(x.try_masked_fill_(&m, 1)), "cannot expand [2] to [3]: only size-1 dims can be expanded");
    assert_eq!(x.to_vec(), [0, 0, 0]);
    // A mask larger than the tensor (only reachable with dynamic shapes: static ones do not compile).
    let d = Tensor::<i32, DynShape>::zeros_sized(&[3]);
    let big = Tensor::<bool, DynShape>::full_sized(&[2, 3], true);
    assert_eq!(err(d.try_masked_fill(&big, 1)), "cannot expand [2, 3] to [3]: only size-1 dims can be expanded");
}

#[test]
#[should_panic(expected = "cannot expand [2] to [3]: only size-1 dims can be expanded")]
fn masked_fill_panics_with_the_message() {
    let mut x = Tensor::<i32, Shape![_]>::zeros_sized(&[3]);
    x.masked_fill_(&Tensor::<bool, Shape![_]>::full_sized(&[2], true), 1);
}

// ------------------------------------------------------------------------------------ where

#[test]
fn where_broadcasts_all_three() {
    let cond = Tensor::from([[true], [false]]); // [2, 1]
    let x = Tensor::from([1., 2., 3.]); // [3]
    let y = Tensor::scalar(0.); // []
    let w: Tensor<f64, Shape![2, 3]> = x.where_(&cond, &y);
    assert_eq!(w.to_vec(), [1., 2., 3., 0., 0., 0.]);
    let other = Tensor::from([[-1., -2., -3.], [-4., -5., -6.]]);
    let v: Tensor<f64, Shape![2, 3]> = x.where_(&Tensor::from([true, false, true]), &other);
    assert_eq!(v.to_vec(), [1., -2., 3., 1., -5., 3.]);
    // Non-contiguous operands.
    let a = x34();
    let b = Tensor::<i32, Shape![4, 3]>::full(-1);
    let c = Tensor::from([[true, false, false], [false, true, false], [false, false, true], [true, true, true]]);
    let r: Tensor<i32, Shape![4, 3]> = a.t().where_(&c, &b);
    assert_eq!(r.to_vec(), [0, -1, -1, -1, 5, -1, -1, -1, 10, 3, 7, 11]);
    // The same cond as a transposed view, and other as a row-reversed view.
    let ct = Tensor::from([[true, false, false, true], [false, true, false, true], [false, false, true, true]]);
    let b2 = Tensor::<i32, Shape![12]>::arange().reshape::<Shape![4, 3]>().into_owned() * -1;
    let r2 = a.t().where_(&ct.t(), &t!(b2[..;-1, ..]));
    assert_eq!(r2.to_vec(), [0, -10, -11, -6, 5, -8, -3, -4, 10, 3, 7, 11]);
}

#[test]
fn where_free_function_and_dynamic_shapes() {
    // `where_` is `shaped_core::ops::select::where_` until the facade re-exports it.
    use shaped_core::ops::select::{try_where_, where_};
    let cond = Tensor::from([true, false, true]);
    let x = Tensor::from([[1, 2, 3], [4, 5, 6]]);
    let y = Tensor::from([[0], [10]]);
    let w: Tensor<i32, Shape![2, 3]> = where_(&cond, &x, &y);
    assert_eq!(w.to_vec(), [1, 0, 3, 4, 10, 6]);
    let d = where_(&cond.clone().into_dyn(), &x.clone().into_dyn(), &y.clone().into_dyn());
    assert_eq!((d.sizes(), d.to_vec()), (&[2, 3][..], w.to_vec()));
    let c2 = Tensor::<bool, Shape![_]>::full_sized(&[2], true);
    let x2 = Tensor::<i32, Shape![_]>::zeros_sized(&[2]);
    let y3 = Tensor::<i32, Shape![_]>::zeros_sized(&[3]);
    assert_eq!(err(try_where_(&c2, &x2, &y3)), "cannot broadcast [2] with [3]");
    assert_eq!(err(x2.try_where_(&c2, &y3)), "cannot broadcast [2] with [3]");
    assert_eq!(err(y3.try_where_(&c2, &x2)), "cannot broadcast [2] with [3]");
}

#[test]
#[should_panic(expected = "cannot broadcast [2] with [3]")]
fn where_panics_with_the_message() {
    let c = Tensor::<bool, Shape![_]>::full_sized(&[2], true);
    let _ = Tensor::<i32, Shape![_]>::zeros_sized(&[3]).where_(&c, &Tensor::scalar(0));
}

// ---------------------------------------------------------------------------------- nonzero

#[test]
fn nonzero_coordinates_with_a_static_column_count() {
    let b = Tensor::from([[true, false], [false, true]]);
    let nz: Tensor<i64, Shape![_, 2]> = b.nonzero();
    assert_eq!((nz.sizes(), nz.to_vec()), (&[2, 2][..], vec![0, 0, 1, 1]));
    let f = Tensor::from([f32::NAN, -0.0, 0.0, 1.5]);
    let nf: Tensor<i64, (Dyn, Const<1>)> = f.nonzero(); // one column per dim of `f`
    assert_eq!(nf.to_vec(), [0, 3], "NaN is nonzero, -0.0 is zero");
    // Row-major order of the (transposed) view, not of its storage.
    let x = Tensor::from([[0, 1], [2, 0]]);
    assert_eq!(x.t().nonzero().to_vec(), [0, 1, 1, 0]);
    let y = Tensor::<i32, Shape![24]>::arange().reshape::<Shape![2, 3, 4]>().into_owned();
    let n3: Tensor<i64, Shape![_, 3]> = t!(y[.., ..;-1, ..]).nonzero();
    assert_eq!(n3.sizes(), [23, 3]);
    assert_eq!(&n3.to_vec()[..6], [0, 0, 0, 0, 0, 1], "view[0, 0, 0] = y[0, 2, 0] = 8 comes first");
    assert_eq!(Tensor::<i32, Shape![2, 2]>::zeros().nonzero().sizes(), [0, 2]);
    // Rank 0: [1, 0] or [0, 0], as PyTorch.
    let s: Tensor<i64, Shape![_, 0]> = Tensor::scalar(5).nonzero();
    assert_eq!(s.sizes(), [1, 0]);
    assert_eq!(Tensor::scalar(0u8).nonzero().sizes(), [0, 0]);
    // Dynamic rank: [count, rank] with both at run time.
    let d: Tensor<i64, (Dyn, Dyn)> = b.into_dyn().nonzero();
    assert_eq!((d.sizes(), d.to_vec()), (&[2, 2][..], vec![0, 0, 1, 1]));
}

// ------------------------------------------------------------------ differential: reference

/// A tiny deterministic generator (no proptest: the cases are cheap and fixed).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn norm(i: i64, n: usize) -> usize {
    (if i < 0 { i + n as i64 } else { i }) as usize
}

/// A `DynShape` tensor of `sizes` holding `values` in row-major order, stored transposed (a
/// permuted view of a buffer with the reversed sizes) when `strided`.
fn make<T: shaped::Element>(sizes: &[usize], values: Vec<T>, strided: bool) -> Tensor<T, DynShape> {
    let t = Tensor::<T, DynShape>::from_vec(sizes, values);
    if !strided {
        return t;
    }
    let rev: Vec<usize> = (0..sizes.len()).rev().collect();
    let stored = t.try_permute_dyn(&rev).unwrap().to_owned(); // reversed sizes, contiguous
    let back = stored.try_permute_dyn(&rev).unwrap();
    // Own the strided layout: the same layout over a copy of the stored buffer.
    Tensor::try_from_parts(stored.storage().to_vec(), *back.layout()).unwrap()
}

#[test]
fn gather_and_scatter_match_a_reference_loop() {
    let mut g = Lcg(0x5eed);
    for case in 0..if cfg!(miri) { 8 } else { 400 } {
        let rank = 1 + g.next(3);
        // Now and then a wide last dim, so that index_select also takes its block-copy path.
        let sizes: Vec<usize> =
            (0..rank).map(|d| if d == rank - 1 && g.next(4) == 0 { 16 + g.next(5) } else { 1 + g.next(4) }).collect();
        let axis = g.next(rank);
        let n = sizes[axis];
        let isizes: Vec<usize> =
            (0..rank).map(|d| if d == axis { 1 + g.next(5) } else { 1 + g.next(sizes[d]) }).collect();
        let ssizes: Vec<usize> = isizes.iter().map(|&k| k + g.next(2)).collect();
        let numel = |s: &[usize]| s.iter().product::<usize>();
        let xv: Vec<i64> = (0..numel(&sizes) as i64).map(|v| 100 + v).collect();
        let iv: Vec<i64> = (0..numel(&isizes)).map(|_| g.next(2 * n) as i64 - n as i64).collect();
        let sv: Vec<i64> = (0..numel(&ssizes) as i64).map(|v| -v - 1).collect();
        let x = make(&sizes, xv.clone(), g.next(2) == 1);
        let transposed = g.next(2) == 1;
        let idx = make(&isizes, iv.clone(), transposed);
        // The writing scatter takes no negative entry (issue 35): the same positions from 0.
        let idxp = make(&isizes, iv.iter().map(|&i| norm(i, n) as i64).collect(), transposed);
        let src = make(&ssizes, sv.clone(), g.next(2) == 1);

        // gather: out[c] = x[c with c[axis] = idx[c]]
        let want: Vec<i64> = (0..iv.len())
            .map(|p| {
                let mut c = unravel(p, &isizes);
                c[axis] = norm(iv[p], n);
                xv[ravel(&c, &sizes)]
            })
            .collect();
        let got = match axis {
            0 => x.gather(Ax::<0>, &idx),
            1 => x.gather(Ax::<1>, &idx),
            _ => x.gather(Ax::<2>, &idx),
        };
        assert_eq!((got.sizes(), got.to_vec()), (&isizes[..], want), "gather case {case}: {sizes:?} axis {axis}");

        // scatter: x[c with c[axis] = idx[c]] = src[c], in the index's row-major order
        let mut want = xv.clone();
        for (p, &i) in iv.iter().enumerate() {
            let c = unravel(p, &isizes);
            let mut t = c.clone();
            t[axis] = norm(i, n);
            want[ravel(&t, &sizes)] = sv[ravel(&c, &ssizes)];
        }
        let got = match axis {
            0 => x.scatter(Ax::<0>, &idxp, &src),
            1 => x.scatter(Ax::<1>, &idxp, &src),
            _ => x.scatter(Ax::<2>, &idxp, &src),
        };
        assert_eq!(got.to_vec(), want, "scatter case {case}: {sizes:?} axis {axis} index {isizes:?}");
        // In place on the (possibly strided) tensor itself gives the same values.
        let mut y = x.clone();
        match axis {
            0 => y.scatter_(Ax::<0>, &idxp, &src),
            1 => y.scatter_(Ax::<1>, &idxp, &src),
            _ => y.scatter_(Ax::<2>, &idxp, &src),
        }
        assert_eq!(y.to_vec(), want, "scatter_ case {case}");
        // With the negative entries, an error naming the first, and nothing written.
        if let Some(p) = iv.iter().position(|&i| i < 0) {
            let mut y = x.clone();
            let e = match axis {
                0 => y.try_scatter_(Ax::<0>, &idx, &src),
                1 => y.try_scatter_(Ax::<1>, &idx, &src),
                _ => y.try_scatter_(Ax::<2>, &idx, &src),
            };
            let at = format!("index {} at position {:?} ", iv[p], unravel(p, &isizes));
            assert!(err(e).starts_with(&at), "scatter_ case {case}: {at}");
            assert_eq!(y.to_vec(), x.to_vec());
        }

        // index_select with a 1-D index along the axis.
        let sel: Vec<i64> = (0..1 + g.next(4)).map(|_| g.next(2 * n) as i64 - n as i64).collect();
        let mut osizes = sizes.clone();
        osizes[axis] = sel.len();
        let want: Vec<i64> = (0..numel(&osizes))
            .map(|p| {
                let mut c = unravel(p, &osizes);
                c[axis] = norm(sel[c[axis]], n);
                xv[ravel(&c, &sizes)]
            })
            .collect();
        let got = x.index_select(axis as isize, &Tensor::<i64, DynShape>::from_vec(&[sel.len()], sel));
        assert_eq!((got.sizes(), got.to_vec()), (&osizes[..], want), "index_select case {case}");
    }
}

/// Issue 50: the index families take the axis argument with an index of any 1-D shape type
/// (`(K,)`, `()`, or a `DynShape` whose rank is checked at run time), so their `_dyn` forms are
/// deprecated forwarders giving the same values.
#[test]
#[allow(deprecated)]
fn index_families_take_a_dyn_index_with_the_axis_argument() {
    let x = x34();
    let (ti, di) = (Tensor::<i64, Shape![3]>::from([2, -1, 0]), Tensor::<i64, Shape![3]>::from([2, -1, 0]).into_dyn());
    // index_select: a DynShape index gives a Dyn dim in place of the axis, the other dims kept.
    let t: Tensor<i32, Shape![3, 3]> = x.index_select(Ax::<1>, &ti);
    let d: Tensor<i32, Shape![3, _]> = x.index_select(Ax::<1>, &di);
    let r: Tensor<i32, Shape![_, _]> = x.index_select(1, &di);
    assert_eq!(t.to_vec(), [2, 3, 0, 6, 7, 4, 10, 11, 8]);
    assert_eq!((d.to_vec(), r.to_vec()), (t.to_vec(), t.to_vec()));
    assert_eq!(x.index_select_dyn(1, &di).to_vec(), t.to_vec());
    // A rank-0 index keeps the dim with size 1, as PyTorch's.
    let one: Tensor<i32, Shape![3, 1]> = x.index_select(Ax::<1>, &Tensor::<i64, ()>::scalar(-1));
    assert_eq!(one.to_vec(), [3, 7, 11]);
    // A DynShape index of rank 2 is refused at run time.
    let e = err(x.try_index_select(Ax::<0>, &Tensor::<i64, Shape![1, 2]>::from([[0, 1]]).into_dyn()));
    assert_eq!(e, "index_select: the index must have at most 1 dim, got sizes [1, 2]");
    // gather and the scatter family (an index of the input's rank; `DynShape` allowed).
    let gi = Tensor::<i64, Shape![3, 1]>::from([[1], [0], [3]]);
    let g: Tensor<i32, Shape![3, 1]> = x.gather(Ax::<1>, &gi);
    assert_eq!(g.to_vec(), [1, 4, 11]);
    assert_eq!(x.gather(1, &gi.clone().into_dyn()).to_vec(), g.to_vec());
    assert_eq!(x.gather_dyn(1, &gi).to_vec(), g.to_vec());
    let src = Tensor::<i32, Shape![3, 1]>::from([[100], [200], [300]]);
    let (mut a, mut b) = (x.clone(), x.clone().into_dyn());
    a.scatter_add_(Ax::<1>, &gi, &src);
    b.scatter_add_(-1, &gi.clone().into_dyn(), &src);
    assert_eq!(a.to_vec(), b.to_vec());
    assert_eq!(a.to_vec(), [0, 101, 2, 3, 204, 5, 6, 7, 8, 9, 10, 311]);
    // index_add_ / index_copy_ / index_fill_ with a DynShape index, against the (K,) index.
    // (Entries in 0..n: PyTorch's index_add_ and index_copy_ refuse negative ones.)
    let (ti, di) = (Tensor::<i64, Shape![3]>::from([2, 3, 0]), Tensor::<i64, Shape![3]>::from([2, 3, 0]).into_dyn());
    let s3: Tensor<i32, Shape![3, 3]> = Tensor::from([[1, 2, 3], [4, 5, 6], [7, 8, 9]]);
    let mut a = x.clone();
    a.index_add_(Ax::<1>, &ti, &s3, 10);
    let mut b = x.clone();
    b.index_add_(1, &di, &s3, 10);
    assert_eq!(a.to_vec(), b.to_vec());
    // torch.arange(12).reshape(3, 4).index_add_(1, tensor([2, 3, 0]), src, alpha=10)
    assert_eq!(a.to_vec(), [30, 1, 12, 23, 64, 5, 46, 57, 98, 9, 80, 91]);
    assert_eq!(x.index_copy(Ax::<1>, &di, &s3).to_vec(), x.index_copy(Ax::<1>, &ti, &s3).to_vec());
    assert_eq!(x.index_fill(Ax::<0>, &di.narrow(0, 0, 1), -7).to_vec(), [0, 1, 2, 3, 4, 5, 6, 7, -7, -7, -7, -7]);
    assert_eq!(
        x.index_fill_dyn(0, &di.narrow(0, 0, 1), -7).to_vec(),
        x.index_fill(0, &di.narrow(0, 0, 1), -7).to_vec()
    );
    // trapezoid_x: sample points as a DynShape tensor.
    let y: Tensor<f64, Shape![2, 3]> = Tensor::from([[1.0, 2.0, 3.0], [0.0, 4.0, 0.0]]);
    let pts = Tensor::<f64, Shape![3]>::from([0.0, 1.0, 3.0]);
    let t: Tensor<f64, Shape![2]> = y.trapezoid_x(&pts, Ax::<1>);
    assert_eq!(t.to_vec(), [1.5 + 5.0, 2.0 + 4.0]);
    assert_eq!(y.trapezoid_x(&pts.clone().into_dyn(), 1).to_vec(), t.to_vec());
    assert_eq!(y.trapezoid_x_dyn(&pts.clone().into_dyn(), 1).to_vec(), t.to_vec());
    assert!(err(y.try_trapezoid_x(&y.clone().into_dyn(), Ax::<1>)).contains("must be 1-D"));
}
