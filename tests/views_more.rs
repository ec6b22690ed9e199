//! More zero-copy views: flip, flatten/flatten_range/unflatten, movedim, diagonal, broadcast_to,
//! chunk and split. Each typed result is annotated, values are checked element by element, and
//! views are checked to share the source's storage.
use shaped::prelude::*;

mod common;
use common::*;

fn x234() -> Tensor<i32, Shape![2, 3, 4]> {
    Tensor::<i32, Shape![24]>::arange().reshape::<Shape![2, 3, 4]>().into_owned()
}

fn a34() -> Tensor<i32, Shape![3, 4]> {
    Tensor::<i32, Shape![12]>::arange().reshape::<Shape![3, 4]>().into_owned()
}

// ------------------------------------------------------------------------------------------ flip
#[test]
fn flip_is_a_reversed_view() {
    let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[0, 1, 2], [3, 4, 5]]);
    let f: TensorView<i32, Shape![2, 3]> = x.flip(Ax::<1>);
    assert_eq!(f.to_vec(), [2, 1, 0, 5, 4, 3]);
    assert_eq!((f.strides(), f.storage_offset()), (&[3, -1][..], 2));
    assert!(same_storage(f.storage(), x.storage()));
    let f0: TensorView<i32, Shape![2, 3]> = x.flip(Ax::<0>);
    assert_eq!(f0.to_vec(), [3, 4, 5, 0, 1, 2]);
    assert_eq!((f0.strides(), f0.storage_offset()), (&[-3, 1][..], 3));
    // Flipping twice gives the original layout back.
    let ff = f.flip(Ax::<1>);
    assert_eq!((ff.strides(), ff.storage_offset(), ff.to_vec()), (&[3, 1][..], 0, x.to_vec()));
    // Same view as `t!` with a negative step.
    assert_eq!(f.layout(), t!(x[.., ..;-1]).layout());
    // Of a transpose: [[0, 3], [1, 4], [2, 5]] with its rows reversed.
    let xt = x.t();
    let tf: TensorView<i32, Shape![3, 2]> = xt.flip(Ax::<0>);
    assert_eq!(tf.to_vec(), [2, 5, 1, 4, 0, 3]);
    assert!(same_storage(tf.storage(), x.storage()));
}

#[test]
fn flip_sees_writes_to_the_source_unlike_pytorch() {
    let mut x: Tensor<f32, Shape![3]> = Tensor::from([1., 2., 3.]);
    x.set([0], 10.);
    let f = x.flip(Ax::<0>);
    assert_eq!(f.to_vec(), [3., 2., 10.]);
}

#[test]
fn flip_dyn_reverses_several_axes() {
    let x = x234();
    let f = x.try_flip_dyn(&[0, -1]).unwrap();
    assert_eq!(f.sizes(), [2, 3, 4]);
    assert_eq!(f.strides(), [-12, 4, -1]);
    assert_eq!(f.at([0, 0, 0]), 15);
    assert_eq!(f.at([1, 2, 3]), 8);
    assert!(same_storage(f.storage(), x.storage()));
    let all = x.try_flip_dyn(&[0, 1, 2]).unwrap();
    assert_eq!(all.to_vec(), (0..24).rev().collect::<Vec<_>>());
    assert_eq!(x.try_flip_dyn(&[]).unwrap().to_vec(), x.to_vec());
    assert_eq!(err(x.try_flip_dyn(&[0, -3])), "flip: axis 0 appears more than once in [0, -3]");
    assert_eq!(err(x.try_flip_dyn(&[3])), "axis 3 is out of range for a tensor of rank 3");
    // DynShape: the typed form checks the axis at run time.
    let d = x.clone().into_dyn();
    let fd: TensorView<i32, DynShape> = d.flip(Ax::<2>);
    assert_eq!(fd.to_vec(), f.try_flip_dyn(&[0]).unwrap().to_vec());
}

#[test]
#[should_panic(expected = "axis 2 is out of range for a tensor of rank 2")]
fn flip_of_dyn_shape_panics_on_a_missing_axis() {
    let d = Tensor::<f32, Shape![2, 3]>::zeros().into_dyn();
    let _ = d.flip(Ax::<2>);
}

#[test]
fn flip_of_empty_tensors() {
    let e: Tensor<f32, Shape![0, 3]> = Tensor::zeros();
    let f: TensorView<f32, Shape![0, 3]> = e.flip(Ax::<1>);
    assert_eq!((f.sizes(), f.to_vec()), (&[0, 3][..], vec![]));
    let g = e.try_flip_dyn(&[0, 1]).unwrap();
    assert_eq!(g.numel(), 0);
}

// --------------------------------------------------------------------------------------- flatten
/// What `flatten` makes of the dims `[2, 3, 4]`: a product dim, nested to the right.
type P234 = Prod<Const<2>, Prod<Const<3>, Const<4>>>;
type P32 = Prod<Const<3>, Const<2>>;
#[test]
fn flatten_views_contiguous_tensors_and_copies_others() {
    let x = x234();
    let f: TensorCow<i32, (P234,)> = x.flatten();
    assert_eq!(f.sizes(), [24]);
    assert_eq!(f.to_vec(), (0..24).collect::<Vec<_>>());
    assert!(same_storage(f.storage(), x.storage()), "flatten of a contiguous tensor is a view");
    let t = x.transpose(Ax::<0>, Ax::<2>);
    let ft: TensorCow<i32, (Prod<Const<4>, P32>,)> = t.flatten();
    assert!(!same_storage(ft.storage(), x.storage()), "flatten of a transpose copies");
    assert_eq!(ft.to_vec(), t.to_vec());
    assert_eq!(&ft.to_vec()[..4], [0, 12, 4, 16]);
    // Rank 1 keeps its static dim; a scalar becomes [1].
    let v = Tensor::<i32, Shape![5]>::arange();
    let fv: TensorCow<i32, Shape![5]> = v.flatten();
    assert_eq!(fv.to_vec(), [0, 1, 2, 3, 4]);
    let s = Tensor::scalar(7);
    let fs: TensorCow<i32, Shape![1]> = s.flatten();
    assert_eq!((fs.sizes(), fs.to_vec()), (&[1][..], vec![7]));
    // DynShape.
    let d = x.clone().into_dyn();
    let fd: TensorCow<i32, DynShape> = d.flatten();
    assert_eq!(fd.sizes(), [24]);
    assert!(same_storage(fd.storage(), d.storage()));
}

#[test]
fn flatten_range_merges_some_dims() {
    let x = x234();
    let a: TensorCow<i32, (Const<2>, Prod<Const<3>, Const<4>>)> = x.flatten_range(Ax::<1>, Ax::<2>);
    assert_eq!((a.sizes(), a.strides()), (&[2, 12][..], &[12, 1][..]));
    assert!(same_storage(a.storage(), x.storage()));
    let b: TensorCow<i32, (Prod<Const<2>, Const<3>>, Const<4>)> = x.flatten_range(Ax::<0>, Ax::<1>);
    assert_eq!((b.sizes(), b.at([5, 3])), (&[6, 4][..], 23));
    let c: TensorCow<i32, Shape![2, 3, 4]> = x.flatten_range(Ax::<1>, Ax::<1>);
    assert_eq!(c.to_vec(), x.to_vec());
    // Every other element of the last dim: [2, 3, 2] with strides [12, 4, 2]. Every dim steps
    // over the next one exactly (12 = 3 * 4, 4 = 2 * 2), so all merge into stride 2.
    let s = t!(x[.., .., ..;2]);
    let m: TensorCow<i32, (Prod<Const<2>, Const<3>>, Const<2>)> = s.flatten_range(Ax::<0>, Ax::<1>);
    assert!(same_storage(m.storage(), x.storage()), "mergeable strides give a view");
    assert_eq!((m.sizes(), m.strides()), (&[6, 2][..], &[4, 2][..]));
    let all: TensorCow<i32, (Prod<Const<2>, P32>,)> = s.flatten();
    assert!(same_storage(all.storage(), x.storage()));
    assert_eq!(all.strides(), [2]);
    assert_eq!(all.to_vec(), [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22]);
    // Rows 0..2 of each batch: [2, 2, 4] with strides [12, 4, 1]. Dims 1 and 2 merge, dims 0 and
    // 1 do not (12 != 2 * 4).
    let n = t!(x[.., 0..2, ..]);
    let inner: TensorCow<i32, (Const<2>, Prod<Const<2>, Const<4>>)> = n.flatten_range(Ax::<1>, Ax::<2>);
    assert!(same_storage(inner.storage(), x.storage()));
    assert_eq!((inner.sizes(), inner.strides()), (&[2, 8][..], &[12, 1][..]));
    let outer: TensorCow<i32, (Prod<Const<2>, Const<2>>, Const<4>)> = n.flatten_range(Ax::<0>, Ax::<1>);
    assert!(!same_storage(outer.storage(), x.storage()), "non-mergeable strides copy");
    assert_eq!(outer.to_vec(), [0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17, 18, 19]);
    // A reversed view copies when merged.
    let f2 = x.flip(Ax::<2>);
    let r: TensorCow<i32, (P234,)> = f2.flatten();
    assert_eq!(&r.to_vec()[..5], [3, 2, 1, 0, 7]);
}

#[test]
fn flatten_dyn_and_its_errors() {
    let x = x234();
    let d = x.clone().into_dyn();
    let a: TensorCow<i32, DynShape> = d.flatten_range(Ax::<1>, Ax::<2>);
    assert_eq!(a.sizes(), [2, 12]);
    assert_eq!(x.try_flatten_range(0, -1).unwrap().sizes(), [24]);
    assert_eq!(x.try_flatten_range(-2, -1).unwrap().sizes(), [2, 12]);
    assert_eq!(Tensor::scalar(1.5f32).as_dyn().try_flatten_range(0, -1).unwrap().to_vec(), [1.5]);
    assert_eq!(err(x.try_flatten_range(2, 1)), "flatten: start axis 2 comes after end axis 1");
    assert_eq!(err(x.try_flatten_range(0, 3)), "axis 3 is out of range for a tensor of rank 3");
}

#[test]
#[should_panic(expected = "flatten: start axis 2 comes after end axis 1")]
fn flatten_range_of_dyn_shape_panics_on_reversed_axes() {
    let _ = x234().into_dyn().flatten_range(Ax::<2>, Ax::<1>);
}

// ------------------------------------------------------------------------------------- unflatten
#[test]
fn unflatten_is_always_a_view() {
    let y: Tensor<i32, Shape![2, 12]> = x234().reshape().into_owned();
    let u: TensorView<i32, Shape![2, 3, 4]> = y.unflatten(Ax::<1>, (Const::<3>, Const::<4>));
    assert_eq!((u.sizes(), u.strides()), (&[2, 3, 4][..], &[12, 4, 1][..]));
    assert_eq!(u.to_vec(), (0..24).collect::<Vec<_>>());
    assert!(same_storage(u.storage(), y.storage()));
    // One `_` is inferred, as PyTorch's -1.
    let i: TensorView<i32, Shape![2, _, 4]> = y.unflatten(Ax::<1>, (Dyn, Const::<4>));
    assert_eq!(i.sizes(), [2, 3, 4]);
    let lead: TensorView<i32, Shape![1, 2, 12]> = y.unflatten(Ax::<0>, (One, Const::<2>));
    assert_eq!(lead.at([0, 1, 11]), 23);
    // A transpose: [12, 2] with strides [1, 12]; dim 0 splits into [3, 4] with strides [4, 1].
    let yt = y.t();
    let t: TensorView<i32, Shape![3, 4, 2]> = yt.unflatten(Ax::<0>, (Const::<3>, Const::<4>));
    assert_eq!(t.strides(), [4, 1, 12]);
    assert_eq!(t.at([1, 2, 1]), 18);
    assert!(same_storage(t.storage(), y.storage()));
    // A reversed view keeps its negative strides.
    let yf = y.flip(Ax::<1>);
    let r: TensorView<i32, Shape![2, 3, 4]> = yf.unflatten(Ax::<1>, (Const::<3>, Const::<4>));
    assert_eq!(r.strides(), [12, -4, -1]);
    assert_eq!(r.to_vec(), y.flip(Ax::<1>).to_vec());
    assert_eq!(r.at([1, 0, 0]), 23);
}

#[test]
fn unflatten_errors_name_the_requested_shape() {
    // Dim 1 is a run-time dim, so the sizes are compared here (a static one is compared when
    // the program is built: ui-tests/mono/fail/unflatten_numel.rs).
    let y: Tensor<i32, Shape![2, _]> = x234().reshape::<Shape![2, 12]>().into_owned().cast_shape();
    assert_eq!(
        err(y.try_unflatten(Ax::<1>, (Const::<5>, Const::<2>))),
        "cannot reshape [2, 12] into [2, 5, 2]: element counts differ"
    );
    assert_eq!(
        err(y.try_unflatten(Ax::<1>, (Const::<5>, Dyn))),
        "cannot reshape [2, 12] into [2, 5, -1]: element counts differ"
    );
    // Two `_` dims are a build error (ui-tests/mono/fail/reshape_two_inferred.rs); at run time
    // two `-1`s are refused.
    assert_eq!(
        err(y.clone().into_dyn().try_unflatten_dyn(1, &[-1, -1])),
        "cannot reshape [2, 12] into [2, -1, -1]: element counts differ"
    );
    let d = y.clone().into_dyn();
    assert_eq!(err(d.try_unflatten_dyn(1, &[])), "unflatten: the new sizes must not be empty");
    assert_eq!(err(d.try_unflatten_dyn(2, &[2, 6])), "axis 2 is out of range for a tensor of rank 2");
    assert_eq!(err(d.try_unflatten_dyn(-1, &[3, -2])), "cannot reshape [2, 12] into [2, 3, -2]: element counts differ");
    let six = Tensor::<f32, Shape![1, 1, 1, 1, 1, 2]>::zeros().into_dyn();
    assert_eq!(err(six.try_unflatten_dyn(5, &[2, 1])), "rank 7 exceeds the maximum of 6 dims");
}

#[test]
#[should_panic(expected = "cannot reshape [2, 12] into [2, 5, 2]: element counts differ")]
fn unflatten_panics_with_the_try_message() {
    let y: Tensor<i32, Shape![2, _]> = Tensor::zeros_sized(&[2, 12]);
    let _ = y.unflatten(Ax::<1>, (Const::<5>, Const::<2>));
}

#[test]
fn unflatten_dyn_shapes() {
    let y: Tensor<i32, Shape![2, 12]> = x234().reshape().into_owned();
    let d = y.clone().into_dyn();
    let u: TensorView<i32, DynShape> = d.unflatten(Ax::<1>, (Const::<2>, Const::<2>, Const::<3>));
    assert_eq!((u.sizes(), u.strides()), (&[2, 2, 2, 3][..], &[12, 6, 3, 1][..]));
    let v = d.try_unflatten_dyn(-1, &[-1, 6]).unwrap();
    assert_eq!((v.sizes(), v.at([1, 1, 5])), (&[2, 2, 6][..], 23));
    assert!(same_storage(v.storage(), d.storage()));
    // Empty dims: the inferred size of a 0 dim cannot be resolved, a static split can.
    let e: Tensor<f32, Shape![2, 0]> = Tensor::zeros();
    let ok: TensorView<f32, Shape![2, 0, 5]> = e.unflatten(Ax::<1>, (Const::<0>, Const::<5>));
    assert_eq!(ok.numel(), 0);
    // (With a static 0 the ambiguity is a build error; a run-time 0 is refused here.)
    let ed: Tensor<f32, Shape![2, _]> = e.cast_shape();
    assert_eq!(
        err(ed.try_unflatten(Ax::<1>, (Const::<0>, Dyn))),
        "cannot reshape [2, 0] into [2, 0, -1]: element counts differ"
    );
}

// --------------------------------------------------------------------------------------- movedim
#[test]
fn movedim_moves_one_axis() {
    let x = x234();
    let m: TensorView<i32, Shape![3, 4, 2]> = x.movedim(Ax::<0>, Ax::<2>);
    assert_eq!(m.strides(), [4, 1, 12]);
    assert_eq!(m.at([1, 2, 1]), 18);
    assert_eq!(m.to_vec(), x.permute((Ax::<1>, Ax::<2>, Ax::<0>)).to_vec());
    let b: TensorView<i32, Shape![4, 2, 3]> = x.movedim(Ax::<2>, Ax::<0>);
    assert_eq!((b.strides(), b.at([3, 1, 2])), (&[1, 12, 4][..], 23));
    let same: TensorView<i32, Shape![2, 3, 4]> = x.movedim(Ax::<1>, Ax::<1>);
    assert_eq!(same.layout(), x.layout());
    let mid: TensorView<i32, Shape![2, 4, 3]> = x.movedim(Ax::<2>, Ax::<1>);
    assert_eq!(mid.to_vec(), x.transpose(Ax::<1>, Ax::<2>).to_vec());
    assert!(same_storage(mid.storage(), x.storage()));
    // Of a reversed view.
    let f0 = x.flip(Ax::<0>);
    let r: TensorView<i32, Shape![3, 4, 2]> = f0.movedim(Ax::<0>, Ax::<2>);
    assert_eq!(r.at([0, 0, 0]), 12);
    assert_eq!(r.strides(), [4, 1, -12]);
}

#[test]
fn movedim_dyn_and_its_errors() {
    let x = x234();
    let d = x.clone().into_dyn();
    let m: TensorView<i32, DynShape> = d.movedim(Ax::<0>, Ax::<2>);
    assert_eq!(m.sizes(), [3, 4, 2]);
    let n = x.try_movedim(-1, 0).unwrap();
    assert_eq!(n.sizes(), [4, 2, 3]);
    assert_eq!(n.to_vec(), x.movedim(Ax::<2>, Ax::<0>).to_vec());
    assert_eq!(err(x.try_movedim(0, 3)), "axis 3 is out of range for a tensor of rank 3");
    assert_eq!(err(x.try_movedim(-4, 0)), "axis -4 is out of range for a tensor of rank 3");
}

#[test]
#[should_panic(expected = "axis 3 is out of range for a tensor of rank 3")]
fn movedim_of_dyn_shape_panics_on_a_missing_axis() {
    let _ = x234().into_dyn().movedim(Ax::<3>, Ax::<0>);
}

// -------------------------------------------------------------------------------------- diagonal
#[test]
fn diagonal_of_a_matrix_with_offsets() {
    // [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    let a = a34();
    let d: TensorView<i32, Shape![_]> = a.diagonal(0, Ax::<0>, Ax::<1>);
    assert_eq!((d.to_vec(), d.strides()), (vec![0, 5, 10], &[5][..]));
    assert!(same_storage(d.storage(), a.storage()));
    let cases: [(isize, &[i32]); 8] =
        [(1, &[1, 6, 11]), (2, &[2, 7]), (3, &[3]), (4, &[]), (100, &[]), (-1, &[4, 9]), (-2, &[8]), (-3, &[])];
    for (off, want) in cases {
        assert_eq!(a.diagonal(off, Ax::<0>, Ax::<1>).to_vec(), want, "offset {off}");
    }
    // Swapped axes: offset 1 of (dim 1, dim 0) is offset -1 of (dim 0, dim 1).
    assert_eq!(a.diagonal(1, Ax::<1>, Ax::<0>).to_vec(), [4, 9]);
    // Of a transpose and of a reversed view (the anti-diagonal).
    assert_eq!(a.t().diagonal(1, Ax::<0>, Ax::<1>).to_vec(), [4, 9]);
    let af = a.flip(Ax::<1>);
    let anti = af.diagonal(0, Ax::<0>, Ax::<1>);
    assert_eq!((anti.to_vec(), anti.strides()), (vec![3, 6, 9], &[3][..]));
}

#[test]
fn diagonal_of_higher_ranks() {
    let x = x234();
    let d: TensorView<i32, Shape![2, _]> = x.diagonal(0, Ax::<1>, Ax::<2>);
    assert_eq!(d.sizes(), [2, 3]);
    assert_eq!(d.to_vec(), [0, 5, 10, 12, 17, 22]);
    // dims 0 (2) and 2 (4), offset 1: result[j, i] = x[i, j, i + 1].
    let e: TensorView<i32, Shape![3, _]> = x.diagonal(1, Ax::<0>, Ax::<2>);
    assert_eq!(e.to_vec(), [1, 14, 5, 18, 9, 22]);
    assert!(same_storage(e.storage(), x.storage()));
    let dd = x.clone().into_dyn();
    let g: TensorView<i32, DynShape> = dd.diagonal(-1, Ax::<2>, Ax::<0>);
    assert_eq!(g.to_vec(), x.try_diagonal(-1, 2, 0).unwrap().to_vec());
    // offset -1 of (dim 2, dim 0) picks x[i, j, i + 1]: the same elements as offset 1 of (0, 2).
    assert_eq!(g.to_vec(), [1, 14, 5, 18, 9, 22]);
    assert_eq!(g.to_vec(), e.to_vec());
    // An empty batch keeps an empty view.
    let z: Tensor<f32, Shape![0, 3, 3]> = Tensor::zeros();
    let zd: TensorView<f32, Shape![0, _]> = z.diagonal(1, Ax::<1>, Ax::<2>);
    assert_eq!(zd.sizes(), [0, 2]);
}

#[test]
fn diagonal_dyn_errors() {
    let a = a34();
    assert_eq!(err(a.try_diagonal(0, 0, -2)), "diagonal: the two axes must differ, got 0 and 0");
    assert_eq!(err(a.try_diagonal(0, 0, 2)), "axis 2 is out of range for a tensor of rank 2");
}

#[test]
#[should_panic(expected = "diagonal: the two axes must differ, got 1 and 1")]
fn diagonal_of_dyn_shape_panics_on_equal_axes() {
    let _ = a34().into_dyn().diagonal(0, Ax::<1>, Ax::<1>);
}

// ---------------------------------------------------------------------------------- broadcast_to
#[test]
fn broadcast_to_is_expand() {
    let b: Tensor<f32, Shape![1, 3]> = Tensor::from([[1., 2., 3.]]);
    let e: TensorView<f32, Shape![4, 3]> = b.broadcast_to::<Shape![4, 3]>();
    assert_eq!(e.layout(), b.expand::<Shape![4, 3]>().layout());
    assert_eq!((e.strides(), e.sum()), (&[0, 1][..], 24.));
    let lead: TensorView<f32, Shape![2, 4, 3]> = b.broadcast_to();
    assert_eq!(lead.at([1, 3, 2]), 3.);
    assert!(same_storage(lead.storage(), b.storage()));
    let d: Tensor<f32, Shape![_, 3]> = Tensor::zeros_sized(&[2, 3]);
    assert_eq!(
        err(d.try_broadcast_to::<Shape![4, 3]>()),
        "cannot expand [2, 3] to [4, 3]: only size-1 dims can be expanded"
    );
}

// ------------------------------------------------------------------------------- chunk and split
#[test]
fn chunk_follows_pytorch() {
    let x: Tensor<i32, Shape![5, 2]> = Tensor::<i32, Shape![10]>::arange().reshape().into_owned();
    let c: Vec<TensorView<i32, Shape![_, 2]>> = x.chunk(3, Ax::<0>);
    let got: Vec<_> = c.iter().map(|v| (v.sizes().to_vec(), v.to_vec())).collect();
    assert_eq!(got, [(vec![2, 2], vec![0, 1, 2, 3]), (vec![2, 2], vec![4, 5, 6, 7]), (vec![1, 2], vec![8, 9])]);
    assert!(c.iter().all(|v| same_storage(v.storage(), x.storage())));
    // 6 elements in 4 chunks: pieces of 2, so only 3 of them (as torch.chunk).
    let six = Tensor::<i32, Shape![6]>::arange();
    let s: Vec<TensorView<i32, Shape![_]>> = six.chunk(4, Ax::<0>);
    assert_eq!(s.iter().map(|v| v.to_vec()).collect::<Vec<_>>(), [vec![0, 1], vec![2, 3], vec![4, 5]]);
    // More chunks than elements: one element each.
    assert_eq!(six.chunk(10, Ax::<0>).len(), 6);
    // Columns.
    let cols: Vec<TensorView<i32, Shape![5, _]>> = x.chunk(2, Ax::<1>);
    assert_eq!((cols[0].to_vec(), cols[1].to_vec()), (vec![0, 2, 4, 6, 8], vec![1, 3, 5, 7, 9]));
    // Of a reversed view.
    let f0 = x.flip(Ax::<0>);
    let r = f0.chunk(2, Ax::<0>);
    assert_eq!((r[0].to_vec(), r[1].to_vec()), (vec![8, 9, 6, 7, 4, 5], vec![2, 3, 0, 1]));
    assert_eq!(err(x.try_chunk(0, Ax::<0>)), "chunk: the number of chunks must be positive, got 0");
}

#[test]
fn split_follows_pytorch() {
    let x: Tensor<i32, Shape![5, 2]> = Tensor::<i32, Shape![10]>::arange().reshape().into_owned();
    let s: Vec<TensorView<i32, Shape![_, 2]>> = x.split(2, Ax::<0>);
    assert_eq!(s.iter().map(|v| v.sizes()[0]).collect::<Vec<_>>(), [2, 2, 1]);
    assert_eq!(s[2].to_vec(), [8, 9]);
    assert_eq!(x.split(5, Ax::<0>).len(), 1);
    assert_eq!(x.split(10, Ax::<0>)[0].sizes(), [5, 2]);
    // Of a transpose: [[0, 2, 4, 6, 8], [1, 3, 5, 7, 9]] in column blocks of 2.
    let xt = x.t();
    let t: Vec<TensorView<i32, Shape![2, _]>> = xt.split(2, Ax::<1>);
    let got: Vec<_> = t.iter().map(|v| v.to_vec()).collect();
    assert_eq!(got, [vec![0, 2, 1, 3], vec![4, 6, 5, 7], vec![8, 9]]);
    assert!(t.iter().all(|v| same_storage(v.storage(), x.storage())));
    assert_eq!(err(x.try_split(0, Ax::<0>)), "split: the split size must be positive for dimension 0 of size 5, got 0");
}

#[test]
#[should_panic(expected = "split: the split size must be positive for dimension 1 of size 2, got 0")]
fn split_panics_with_the_try_message() {
    let x: Tensor<i32, Shape![5, 2]> = Tensor::zeros();
    let _ = x.split(0, Ax::<1>);
}

#[test]
fn chunk_and_split_of_empty_dims() {
    let e: Tensor<f32, Shape![0, 2]> = Tensor::zeros();
    let c = e.chunk(3, Ax::<0>);
    assert_eq!(c.iter().map(|v| v.sizes().to_vec()).collect::<Vec<_>>(), [vec![0, 2], vec![0, 2], vec![0, 2]]);
    assert_eq!(e.split(0, Ax::<0>).len(), 1);
    assert_eq!(e.split(4, Ax::<0>)[0].sizes(), [0, 2]);
    // A non-empty axis of an empty tensor.
    let cols = e.chunk(2, Ax::<1>);
    assert_eq!(cols.iter().map(|v| v.sizes().to_vec()).collect::<Vec<_>>(), [vec![0, 1], vec![0, 1]]);
}

#[test]
fn chunk_and_split_dyn() {
    let x = x234();
    let d = x.clone().into_dyn();
    let c: Vec<TensorView<i32, DynShape>> = d.chunk(2, Ax::<1>);
    assert_eq!((c[0].sizes(), c[1].sizes()), (&[2, 2, 4][..], &[2, 1, 4][..]));
    assert_eq!(c[1].to_vec(), [8, 9, 10, 11, 20, 21, 22, 23]);
    let s = x.try_split(3, -1).unwrap();
    assert_eq!(s.iter().map(|v| v.sizes().to_vec()).collect::<Vec<_>>(), [vec![2, 3, 3], vec![2, 3, 1]]);
    assert_eq!(s[1].to_vec(), [3, 7, 11, 15, 19, 23]);
    assert_eq!(x.try_chunk(2, 0).unwrap()[1].at([0, 0, 0]), 12);
    assert_eq!(err(x.try_split(2, 3)), "axis 3 is out of range for a tensor of rank 3");
    assert_eq!(err(x.try_chunk(0, 0)), "chunk: the number of chunks must be positive, got 0");
    assert_eq!(err(d.try_chunk(2, Ax::<3>)), "axis 3 is out of range for a tensor of rank 3");
}

#[test]
fn views_of_empty_tensors_keep_a_valid_offset() {
    let e = Tensor::<i32, Shape![0, 3]>::zeros();
    let r = t!(e[.., ..;-1]);
    assert_eq!(r.sizes(), [0, 3]);
    // Whatever offset an empty view carries, nothing reads through it.
    assert_eq!((r.to_vec(), r.contiguous().numel(), r.sum()), (vec![], 0, 0));
    let mut m = Tensor::<i32, Shape![0, 3]>::zeros();
    t!(m[.., ..;-1] = 5);
    assert_eq!(t!(m[.., 2..]).to_owned().numel(), 0);
    let f = Tensor::<i32, Shape![4, 0]>::zeros();
    assert_eq!(f.narrow(Ax::<0>, 2, 2).sizes(), [2, 0]);
    assert_eq!(f.select(Ax::<0>, 3).numel(), 0);
    let d = e.into_dyn();
    assert_eq!(d.slice(&[SliceArg::Full, SliceArg::Index(2)]).sizes(), [0]);
}
