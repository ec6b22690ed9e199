//! Advanced indexing in `t!`: integer and bool index tensors (passed by reference), PyTorch's
//! placement rule, copies, static result types, assignment (`index_put_`) and errors. Expected
//! values were computed with NumPy, whose rules PyTorch follows here (integers are basic indices,
//! as in PyTorch).
use shaped::prelude::*;

fn x() -> Tensor<i32, Shape![3, 4]> {
    Tensor::<i32, Shape![12]>::arange().reshape::<Shape![3, 4]>().into_owned()
}
fn y() -> Tensor<i32, Shape![2, 3, 4]> {
    Tensor::<i32, Shape![24]>::arange().reshape::<Shape![2, 3, 4]>().into_owned()
}

#[test]
fn integer_index_tensors() {
    let x = x();
    let (rows, cols) = (Tensor::from([0i64, 2]), Tensor::from([1i64, 3]));
    // x[[0, 2], [1, 3]]
    let p: Tensor<i32, Shape![2]> = t!(x[&rows, &cols]);
    assert_eq!(p.to_vec(), [1, 11]);
    // x[:, [0, 2]]: the result is a copy with a static dim from the index's shape
    let c: Tensor<i32, Shape![3, 2]> = t!(x[.., &Tensor::from([0usize, 2])]);
    assert_eq!(c.to_vec(), [0, 2, 4, 6, 8, 10]);
    assert_ne!(c.storage().as_ptr(), x.storage().as_ptr());
    // x[[[0], [2]], [1, 3]]: index shapes broadcast to [2, 2]
    let r2 = Tensor::from([[0i32], [2]]);
    let b: Tensor<i32, Shape![2, 2]> = t!(x[&r2, &cols]);
    assert_eq!(b.to_vec(), [1, 3, 9, 11]);
    // x[[-1, 0]]: negative entries count from the end
    let n: Tensor<i32, Shape![2, 4]> = t!(x[&Tensor::from([-1, 0])]);
    assert_eq!(n.to_vec(), [8, 9, 10, 11, 0, 1, 2, 3]);
    // A Dyn index tensor gives a Dyn dim.
    let d = Tensor::<u8, Shape![_]>::from_vec(&[3], vec![3, 3, 0]);
    let v: Tensor<i32, Shape![3, _]> = t!(x[.., &d]);
    assert_eq!(v.to_vec(), [3, 3, 0, 7, 7, 4, 11, 11, 8]);
}

#[test]
fn placement_of_the_index_dims() {
    let y = y();
    let (i, j) = (Tensor::from([0, 2]), Tensor::from([1, 3]));
    // Adjacent index tensors: the broadcast shape takes their place.
    let a: Tensor<i32, Shape![2, 2]> = t!(y[.., &i, &j]);
    assert_eq!(a.to_vec(), [1, 11, 13, 23]);
    // Separated by a slice: it comes first.
    let ij = Tensor::from([1, 0]);
    let b: Tensor<i32, Shape![2, 3]> = t!(y[&ij, .., &j]);
    assert_eq!(b.to_vec(), [13, 17, 21, 3, 7, 11]);
    // After an ellipsis, from the back.
    let c: Tensor<i32, Shape![2, 3, 2]> = t!(y[..., &Tensor::from([0, 1])]);
    assert_eq!(c.at([1, 2, 1]), 21);
    // An integer is a basic index (PyTorch applies it first), so these stay adjacent.
    let d: Tensor<i32, Shape![1, 2]> = t!(y[None, &Tensor::from([0, 1]), 0, &Tensor::from([1, 2])]);
    assert_eq!(d.to_vec(), [1, 14]);
    // Basic slices with steps around an index tensor, on a reversed view.
    let e: Tensor<i32, Shape![2, 2, 2]> = t!(y[.., ..;-2, &Tensor::from([3, 0])]);
    assert_eq!(e.to_vec(), [11, 8, 3, 0, 23, 20, 15, 12]);
}

#[test]
fn bool_masks() {
    let x = x();
    let m = x.map(|v| v > 5);
    let s: Tensor<i32, Shape![_]> = t!(x[&m]);
    assert_eq!(s.to_vec(), [6, 7, 8, 9, 10, 11]);
    let y = y();
    let m2 = Tensor::from([[true, false, true], [false, true, false]]);
    let r: Tensor<i32, Shape![_, 4]> = t!(y[&m2]);
    assert_eq!(r.sizes(), [3, 4]);
    assert_eq!(r.to_vec(), [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19]);
    let r: Tensor<i32, Shape![2, _, 4]> = t!(y[.., &Tensor::from([true, false, true])]);
    assert_eq!(r.sizes(), [2, 2, 4]);
    assert_eq!(r.at([1, 1, 0]), 20);
    let none = Tensor::from([false, false]);
    assert_eq!(t!(y[&none]).numel(), 0);
}

#[test]
fn dynamic_tensors_and_views() {
    let d = x().into_dyn();
    let r = t!(d[&Tensor::from([2, 0]), 1..]);
    assert_eq!(r.sizes(), [2, 3]);
    assert_eq!(r.to_vec(), [9, 10, 11, 1, 2, 3]);
    let xt = x();
    let v = xt.t(); // [4, 3] view with strides [1, 4]
    let g: Tensor<i32, Shape![2, 3]> = t!(v[&Tensor::from([3, 1])]);
    assert_eq!(g.to_vec(), [3, 7, 11, 1, 5, 9]);
}

#[test]
fn assignment_is_index_put() {
    let mut x = x();
    let (rows, cols) = (Tensor::from([0, 2]), Tensor::from([1, 3]));
    t!(x[&rows, &cols] = 10);
    assert_eq!(x.to_vec(), [0, 10, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10]);
    let mask = x.map(|v| v > 8);
    t!(x[&mask] = -1);
    assert_eq!(x.to_vec(), [0, -1, 2, 3, 4, 5, 6, 7, 8, -1, -1, -1]);
    // A tensor value broadcast to the indexed shape [3, 2].
    t!(x[.., &Tensor::from([0, 3])] = Tensor::from([100, 200]));
    assert_eq!(x.to_vec(), [100, -1, 2, 200, 100, 5, 6, 200, 100, -1, -1, 200]);
    let mut d = x.clone().into_dyn();
    t!(d[&Tensor::from([1])] = &Tensor::from([[1, 2, 3, 4]]));
    assert_eq!(t!(d[1]).to_vec(), [1, 2, 3, 4]);
}

#[test]
fn errors_name_the_dims_and_sizes() {
    let x = x();
    let bad = Tensor::from([0, 4]);
    let e = t!(try x[.., &bad]).unwrap_err();
    assert_eq!(e.to_string(), "index 4 is out of bounds for dimension 1 of size 4");
    let e = t!(try x[&Tensor::from([-4])]).unwrap_err();
    assert_eq!(e.to_string(), "index -4 is out of bounds for dimension 0 of size 3");
    // Static index shapes that cannot broadcast are a compile error (ui-tests); runtime ones:
    let (i2, i3) = (Tensor::from([0, 1]).into_dyn(), Tensor::from([0, 1, 2]).into_dyn());
    let xd = x.clone().into_dyn();
    let e = t!(try xd[&i2, &i3]).unwrap_err();
    assert_eq!(e.to_string(), "advanced indexing: [2] and [3] are index shapes that do not broadcast together");
    let e = t!(try x[&Tensor::from([true, false])]).unwrap_err();
    assert_eq!(e.to_string(), "mask index: [2] and [3] differ: the mask's shape must equal the dims it indexes");
    let r = std::panic::catch_unwind(|| {
        let mut x = x.clone();
        t!(x[&Tensor::from([0, 1])] = Tensor::from([1, 2, 3]));
    });
    assert_eq!(
        r.unwrap_err().downcast_ref::<String>().unwrap(),
        "cannot expand [3] to [2, 4]: only size-1 dims can be expanded"
    );
}
