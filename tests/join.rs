//! Joining tensors: `cat` (static sizes added at compile time), `cat_all`, `stack` (static count),
//! `stack_all`, and the runtime-axis `cat_dyn`/`stack_dyn`. Contiguous, transposed, reversed and
//! dynamic-shape inputs, each runtime error with its message, and a property test against a
//! reference that builds the result one element at a time.
use proptest::prelude::*;
use shaped::prelude::*;

mod common;
use common::*;
use shaped::tensor::join::{Cat, Stack};

fn x234() -> Tensor<i32, Shape![2, 3, 4]> {
    Tensor::<i32, Shape![24]>::arange().reshape::<Shape![2, 3, 4]>().into_owned()
}

// ------------------------------------------------------------------------------------------- cat
#[test]
fn cat_of_static_shapes_adds_the_sizes_in_the_type() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    let y: Tensor<f32, Shape![3, 3]> = Tensor::from([[7., 8., 9.], [10., 11., 12.], [13., 14., 15.]]);
    let z: Tensor<f32, Shape![5, 3]> = x.cat(&y, Ax::<0>);
    assert_eq!(z.to_vec(), (1..=15).map(|v| v as f32).collect::<Vec<_>>());
    assert!(z.is_contiguous());
    let c: Tensor<f32, Shape![2, 1]> = Tensor::from([[-1.], [-2.]]);
    let w: Tensor<f32, Shape![2, 4]> = x.cat(&c, Ax::<1>);
    assert_eq!(w.to_vec(), [1., 2., 3., -1., 4., 5., 6., -2.]);
    let w2: Tensor<f32, Shape![2, 4]> = c.cat(&x, Ax::<1>);
    assert_eq!(w2.to_vec(), [-1., 1., 2., 3., -2., 4., 5., 6.]);
    // The largest static total the compile-time sum covers.
    let big: Tensor<u8, Shape![1000]> = Tensor::zeros();
    let more: Tensor<u8, Shape![24]> = Tensor::ones();
    let s: Tensor<u8, Shape![1024]> = big.cat(&more, Ax::<0>);
    assert_eq!((s.at([999]), s.at([1000]), s.at([1023])), (0, 1, 1));
    // Empty operands.
    let none: Tensor<f32, Shape![0, 3]> = Tensor::zeros();
    let same: Tensor<f32, Shape![2, 3]> = none.cat(&x, Ax::<0>);
    assert_eq!(same.to_vec(), x.to_vec());
}

#[test]
fn cat_along_a_middle_axis() {
    let x = x234();
    let y: Tensor<i32, Shape![2, 1, 4]> = Tensor::full(-1);
    let z: Tensor<i32, Shape![2, 4, 4]> = x.cat(&y, Ax::<1>);
    assert_eq!(&z.to_vec()[..16], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -1, -1, -1, -1]);
    assert_eq!(&z.to_vec()[16..], [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, -1, -1, -1, -1]);
    let l: Tensor<i32, Shape![2, 3, 8]> = x.cat(&x, Ax::<2>);
    assert_eq!(&l.to_vec()[..8], [0, 1, 2, 3, 0, 1, 2, 3]);
    assert_eq!(l.at([1, 2, 7]), 23);
}

#[test]
fn cat_of_non_contiguous_inputs() {
    let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[0, 1, 2], [3, 4, 5]]);
    // Transpose: [[0, 3], [1, 4], [2, 5]]; reversed rows: [[3, 4, 5], [0, 1, 2]].
    let t = x.t();
    let z: Tensor<i32, Shape![3, 4]> = t.cat(&t.flip(Ax::<1>), Ax::<1>);
    assert_eq!(z.to_vec(), [0, 3, 3, 0, 1, 4, 4, 1, 2, 5, 5, 2]);
    let r: Tensor<i32, Shape![4, 3]> = x.flip(Ax::<0>).cat(&x, Ax::<0>);
    assert_eq!(r.to_vec(), [3, 4, 5, 0, 1, 2, 0, 1, 2, 3, 4, 5]);
    // A stepped slice and an expanded (stride 0) view.
    let b: Tensor<i32, Shape![1, 3]> = Tensor::from([[7, 8, 9]]);
    let e = b.expand::<Shape![2, 3]>();
    let s: Tensor<i32, Shape![2, 5]> = e.cat(&t!(x[.., ..;2]), Ax::<1>);
    assert_eq!(s.to_vec(), [7, 8, 9, 0, 2, 7, 8, 9, 3, 5]);
    // An owned tensor with a view, and a view with an owned tensor.
    let v: Tensor<i32, Shape![3, 3]> = x.cat(&t!(x[0..1]), Ax::<0>);
    assert_eq!(v.to_vec(), [0, 1, 2, 3, 4, 5, 0, 1, 2]);
}

#[test]
fn cat_with_runtime_dims() {
    let x: Tensor<f64, Shape![_, 3]> = Tensor::from_vec(&[2, 3], vec![1., 2., 3., 4., 5., 6.]);
    let y: Tensor<f64, Shape![1, 3]> = Tensor::from([[7., 8., 9.]]);
    // A `Dyn` cat axis gives a `Dyn` result dim.
    let z: Tensor<f64, Shape![_, 3]> = x.cat(&y, Ax::<0>);
    assert_eq!((z.sizes(), z.at([2, 2])), (&[3, 3][..], 9.));
    let z2: Tensor<f64, Shape![_, 3]> = y.cat(&x, Ax::<0>);
    assert_eq!(z2.at([0, 0]), 7.);
    // Outside the axis, a `Dyn` dim unifies with a static one (checked at run time).
    let c: Tensor<f64, Shape![2, 1]> = Tensor::from([[0.], [0.]]);
    let w: Tensor<f64, Shape![2, 4]> = x.cat(&c, Ax::<1>);
    assert_eq!(w.to_vec(), [1., 2., 3., 0., 4., 5., 6., 0.]);
    let tall: Tensor<f64, Shape![_, 3]> = Tensor::zeros_sized(&[4, 3]);
    assert_eq!(err(tall.try_cat(&c, Ax::<1>)), "cat: [4, 3] and [2, 1] differ outside dimension 1");
}

#[test]
#[should_panic(expected = "cat: [4, 3] and [2, 1] differ outside dimension 1")]
fn cat_panics_with_the_try_message() {
    let tall: Tensor<f64, Shape![_, 3]> = Tensor::zeros_sized(&[4, 3]);
    let c: Tensor<f64, Shape![2, 1]> = Tensor::zeros();
    let _ = tall.cat(&c, Ax::<1>);
}

#[test]
fn cat_of_dyn_shapes() {
    let x = x234().into_dyn();
    let y: Tensor<i32, DynShape> = Tensor::<i32, Shape![2, 3, 1]>::full(9).into_dyn();
    let z: Tensor<i32, DynShape> = x.cat(&y, Ax::<2>);
    assert_eq!(z.sizes(), [2, 3, 5]);
    assert_eq!(&z.to_vec()[..10], [0, 1, 2, 3, 9, 4, 5, 6, 7, 9]);
    assert_eq!(err(x.try_cat(&y, Ax::<0>)), "cat: [2, 3, 4] and [2, 3, 1] differ outside dimension 0");
    let v = Tensor::<i32, Shape![4]>::arange().into_dyn();
    assert_eq!(err(x.try_cat(&v, Ax::<0>)), "cat: [2, 3, 4] and [4] differ in rank");
    assert_eq!(err(x.try_cat(&x, Ax::<3>)), "axis 3 is out of range for a tensor of rank 3");
    let s = Tensor::scalar(1).into_dyn();
    assert_eq!(err(s.try_cat(&s, Ax::<0>)), "axis 0 is out of range for a tensor of rank 0");
}

#[test]
fn cat_all_takes_any_number_of_one_shape_type() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    let z: Tensor<f32, Shape![_, 3]> = Tensor::cat_all(&[&x, &x, &x], Ax::<0>);
    assert_eq!(z.sizes(), [6, 3]);
    assert_eq!(z.at([5, 2]), 6.);
    let w: Tensor<f32, Shape![2, _]> = Tensor::cat_all(&[&x, &x], Ax::<1>);
    assert_eq!(w.to_vec(), [1., 2., 3., 1., 2., 3., 4., 5., 6., 4., 5., 6.]);
    // Views, including a transposed one: all of one storage kind and shape type.
    let t = x.t();
    let tt: Tensor<f32, Shape![_, 2]> = Tensor::cat_all(&[&t, &t.flip(Ax::<0>)], Ax::<0>);
    assert_eq!(tt.to_vec(), [1., 4., 2., 5., 3., 6., 3., 6., 2., 5., 1., 4.]);
    let one: Tensor<f32, Shape![_, 3]> = Tensor::cat_all(&[&x], Ax::<0>);
    assert_eq!(one.to_vec(), x.to_vec());
    let empty: [&Tensor<f32, Shape![2, 3]>; 0] = [];
    assert_eq!(err(Tensor::try_cat_all(&empty, Ax::<0>)), "cat: expected a non-empty list of tensors");
    let a: Tensor<f32, Shape![2, _]> = Tensor::zeros_sized(&[2, 3]);
    let b: Tensor<f32, Shape![2, _]> = Tensor::zeros_sized(&[2, 4]);
    assert_eq!(err(Tensor::try_cat_all(&[&a, &b], Ax::<0>)), "cat: [2, 3] and [2, 4] differ outside dimension 0");
    let ab: Tensor<f32, Shape![2, _]> = Tensor::cat_all(&[&a, &b], Ax::<1>);
    assert_eq!(ab.sizes(), [2, 7]);
}

#[test]
fn cat_dyn_takes_a_runtime_axis() {
    let x = x234();
    let z: Tensor<i32, DynShape> = Tensor::try_cat_all(&[&x, &x], -1).unwrap().into_dyn();
    assert_eq!(z.sizes(), [2, 3, 8]);
    assert_eq!(z.to_vec(), x.cat(&x, Ax::<2>).to_vec());
    let d = x.clone().into_dyn();
    assert_eq!(Tensor::try_cat_all(&[&d, &d, &d], 0).unwrap().sizes(), [6, 3, 4]);
    assert_eq!(err(Tensor::try_cat_all(&[&x], 3)), "axis 3 is out of range for a tensor of rank 3");
    let empty: [&Tensor<i32, DynShape>; 0] = [];
    assert_eq!(err(Tensor::try_cat_all(&empty, 0)), "cat: expected a non-empty list of tensors");
}

// ----------------------------------------------------------------------------------------- stack
#[test]
fn stack_inserts_a_static_count() {
    let a: Tensor<f32, Shape![2]> = Tensor::from([1., 2.]);
    let b: Tensor<f32, Shape![2]> = Tensor::from([3., 4.]);
    let c: Tensor<f32, Shape![2]> = Tensor::from([5., 6.]);
    let s: Tensor<f32, Shape![3, 2]> = Tensor::stack([&a, &b, &c], Ax::<0>);
    assert_eq!(s.to_vec(), [1., 2., 3., 4., 5., 6.]);
    let s1: Tensor<f32, Shape![2, 3]> = Tensor::stack([&a, &b, &c], Ax::<1>);
    assert_eq!(s1.to_vec(), [1., 3., 5., 2., 4., 6.]);
    // Matrices along each of the three positions.
    let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[0, 1, 2], [3, 4, 5]]);
    let y: Tensor<i32, Shape![2, 3]> = Tensor::from([[6, 7, 8], [9, 10, 11]]);
    let m0: Tensor<i32, Shape![2, 2, 3]> = Tensor::stack([&x, &y], Ax::<0>);
    assert_eq!(m0.to_vec(), (0..12).collect::<Vec<_>>());
    let m1: Tensor<i32, Shape![2, 2, 3]> = Tensor::stack([&x, &y], Ax::<1>);
    assert_eq!(m1.to_vec(), [0, 1, 2, 6, 7, 8, 3, 4, 5, 9, 10, 11]);
    let m2: Tensor<i32, Shape![2, 3, 2]> = Tensor::stack([&x, &y], Ax::<2>);
    assert_eq!(m2.to_vec(), [0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11]);
    // Non-contiguous views: a transpose and its reversal.
    let t = x.t();
    let f = t.flip(Ax::<0>);
    let v: Tensor<i32, Shape![2, 3, 2]> = Tensor::stack([&t, &f], Ax::<0>);
    assert_eq!(v.to_vec(), [0, 3, 1, 4, 2, 5, 2, 5, 1, 4, 0, 3]);
    // Scalars stack into a vector.
    let (p, q) = (Tensor::scalar(1u8), Tensor::scalar(2u8));
    let pq: Tensor<u8, Shape![2]> = Tensor::stack([&p, &q], Ax::<0>);
    assert_eq!(pq.to_vec(), [1, 2]);
}

#[test]
fn stack_checks_runtime_sizes() {
    let a: Tensor<f32, Shape![_]> = Tensor::zeros_sized(&[2]);
    let b: Tensor<f32, Shape![_]> = Tensor::zeros_sized(&[3]);
    assert_eq!(
        err(Tensor::try_stack([&a, &b], Ax::<0>)),
        "stack: [2] and [3] differ: stack needs tensors of equal sizes"
    );
    let ok: Tensor<f32, Shape![2, _]> = Tensor::stack([&a, &a], Ax::<0>);
    assert_eq!(ok.sizes(), [2, 2]);
    let none: [&Tensor<f32, Shape![2]>; 0] = [];
    assert_eq!(err(Tensor::try_stack(none, Ax::<0>)), "stack: expected a non-empty list of tensors");
    let d = Tensor::<f32, Shape![2, 3]>::zeros().into_dyn();
    let dd: Tensor<f32, DynShape> = Tensor::stack([&d, &d], Ax::<2>);
    assert_eq!(dd.sizes(), [2, 3, 2]);
    assert_eq!(
        err(Tensor::try_stack([&d, &d], Ax::<3>)),
        "cannot insert a dim at axis 3 of a tensor of rank 2 (valid positions: -3..=2)"
    );
    let back: Tensor<f32, DynShape> = Tensor::stack([&d, &d], Ax::<-1>);
    assert_eq!(back.sizes(), [2, 3, 2]);
    let six = Tensor::<f32, Shape![1, 1, 1, 1, 1, 1]>::zeros().into_dyn();
    assert_eq!(err(Tensor::try_stack([&six], Ax::<0>)), "rank 7 exceeds the maximum of 6 dims");
}

#[test]
#[should_panic(expected = "stack: [2] and [3] differ: stack needs tensors of equal sizes")]
fn stack_panics_with_the_try_message() {
    let a: Tensor<f32, Shape![_]> = Tensor::zeros_sized(&[2]);
    let b: Tensor<f32, Shape![_]> = Tensor::zeros_sized(&[3]);
    let _ = Tensor::stack([&a, &b], Ax::<0>);
}

#[test]
fn stack_all_and_stack_dyn() {
    let x: Tensor<i32, Shape![2, 3]> = Tensor::from([[0, 1, 2], [3, 4, 5]]);
    let rows: Vec<TensorView<i32, Shape![3]>> = (0..2).map(|i| x.select(Ax::<0>, i)).collect();
    let refs: Vec<&TensorView<i32, Shape![3]>> = rows.iter().collect();
    let s: Tensor<i32, Shape![_, 3]> = Tensor::stack_all(&refs, Ax::<0>);
    assert_eq!(s.to_vec(), x.to_vec());
    let s1: Tensor<i32, Shape![3, _]> = Tensor::stack_all(&refs, Ax::<1>);
    assert_eq!(s1.to_vec(), x.t().to_vec());
    let empty: [&Tensor<i32, Shape![3]>; 0] = [];
    assert_eq!(err(Tensor::try_stack_all(&empty, Ax::<0>)), "stack: expected a non-empty list of tensors");
    let d: Tensor<i32, DynShape> = Tensor::try_stack_all(&[&x, &x], -1).unwrap().into_dyn();
    assert_eq!(d.sizes(), [2, 3, 2]);
    assert_eq!(d.to_vec(), [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    assert_eq!(Tensor::try_stack_all(&[&x, &x], 0).unwrap().sizes(), [2, 2, 3]);
    assert_eq!(
        err(Tensor::try_stack_all(&[&x], 3)),
        "cannot insert a dim at axis 3 of a tensor of rank 2 (valid positions: -3..=2)"
    );
    let empty: [&Tensor<i32, DynShape>; 0] = [];
    assert_eq!(err(Tensor::try_stack_all(&empty, 0)), "stack: expected a non-empty list of tensors");
}

// ------------------------------------------------------------------------------------- property

/// A fresh `DynShape` tensor holding `base, base + 1, ...`; with `transpose`, its first two sizes
/// are swapped, so that its `transpose_dyn(0, 1)` view has `sizes`.
fn make(sizes: &[usize], base: i64, transpose: bool) -> Tensor<i64, DynShape> {
    let mut sz = sizes.to_vec();
    if transpose && sz.len() >= 2 {
        sz.swap(0, 1);
    }
    let n: usize = sz.iter().product();
    Tensor::<i64, DynShape>::from_vec(&sz, (0..n as i64).map(|v| base + v).collect())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: common::cases(500, 4),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]
    /// `cat` of strided views equals the reference: element `i` of the result along `axis` comes
    /// from the input whose range holds `i`, at `i` minus the start of that range.
    #[test]
    fn cat_matches_reference(
        rank in 1usize..=4,
        sizes in proptest::collection::vec(0usize..4, 4),
        lens in proptest::collection::vec(0usize..4, 1..4),
        axis_pick in 0usize..4,
        flips in proptest::collection::vec(any::<bool>(), 3),
        transposes in proptest::collection::vec(any::<bool>(), 3),
    ) {
        let axis = axis_pick % rank;
        let owned: Vec<Tensor<i64, DynShape>> = lens.iter().enumerate().map(|(k, &len)| {
            let mut s = sizes[..rank].to_vec();
            s[axis] = len;
            make(&s, 1000 * k as i64, transposes[k])
        }).collect();
        let oriented: Vec<TensorView<i64, DynShape>> = owned.iter().enumerate().map(|(k, o)| {
            if transposes[k] && rank >= 2 { o.try_transpose(0, 1).unwrap() } else { o.as_view() }
        }).collect();
        let views: Vec<TensorView<i64, DynShape>> = oriented.iter().enumerate().map(|(k, v)| {
            if flips[k] { v.try_flip_dyn(&[-1]).unwrap() } else { v.as_view() }
        }).collect();
        // The reference reads each (transposed, reversed) view element by element.
        let refs: Vec<&TensorView<i64, DynShape>> = views.iter().collect();
        let z = Tensor::try_cat_all(&refs, axis as isize).unwrap();
        let mut want_sizes = sizes[..rank].to_vec();
        want_sizes[axis] = lens.iter().sum();
        prop_assert_eq!(z.sizes(), &want_sizes[..]);
        let got = z.to_vec();
        for (p, g) in got.iter().enumerate() {
            let mut idx = unravel(p, &want_sizes);
            let mut k = 0;
            while idx[axis] >= lens[k] {
                idx[axis] -= lens[k];
                k += 1;
            }
            prop_assert_eq!(*g, views[k].try_at_dyn(&idx));
        }
        // Stacking equal-size inputs is cat of their unsqueezed views.
        let same: Vec<&TensorView<i64, DynShape>> = views.iter().filter(|v| v.sizes() == views[0].sizes()).collect();
        let st = Tensor::try_stack_all(&same, axis as isize).unwrap();
        let un: Vec<TensorView<i64, DynShape>> = same.iter().map(|v| v.try_unsqueeze(axis as isize).unwrap()).collect();
        let un: Vec<&TensorView<i64, DynShape>> = un.iter().collect();
        prop_assert_eq!(st.to_vec(), Tensor::try_cat_all(&un, axis as isize).unwrap().to_vec());
    }
}

/// Element access by a runtime coordinate of any length, for the reference.
trait AtDyn {
    fn try_at_dyn(&self, idx: &[usize]) -> i64;
}
impl AtDyn for TensorView<'_, i64, DynShape> {
    fn try_at_dyn(&self, idx: &[usize]) -> i64 {
        self.storage()[self.layout().checked_offset(idx).unwrap()]
    }
}
