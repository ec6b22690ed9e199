//! What a new user types first (issue 27): the ndarray/NumPy spellings of the basic queries,
//! `clip`, `log(base)`, `one_hot`, a generic function with only the prelude imported, and the
//! printed `lstsq` result. Values are checked against NumPy/PyTorch semantics worked by hand.
use shaped::prelude::*;

#[test]
fn ndarray_and_numpy_spellings_of_the_queries() {
    let x: Tensor<f32, Shape![2, 3]> = Tensor::zeros();
    assert_eq!((x.shape(), x.ndim(), x.len(), x.is_empty()), (&[2, 3][..], 2, 6, false));
    assert_eq!(x.shape(), x.sizes());
    let e = Tensor::<f32, DynShape>::zeros_sized(&[4, 0]);
    assert_eq!((e.len(), e.is_empty(), e.ndim()), (0, true, 2));
    let s = Tensor::scalar(1.0f64);
    assert_eq!((s.shape(), s.len(), s.is_empty()), (&[][..], 1, false));
}

#[test]
fn clip_is_clamp() {
    let x: Tensor<f32, Shape![5]> = Tensor::from([-2., -0.5, 0.5, 2., f32::NAN]);
    let c = x.clip(-1., 1.);
    assert_eq!(&c.to_vec()[..4], &[-1., -0.5, 0.5, 1.]);
    assert!(c.to_vec()[4].is_nan());
    let mut y = x.clone();
    y.clip_(-1., 1.);
    assert_eq!(&y.to_vec()[..4], &x.clamp(-1., 1.).to_vec()[..4]);
}

#[test]
fn log_takes_a_base_as_rusts_float_log() {
    // `ln` is not correctly rounded (Rust leaves its precision unspecified, and Miri perturbs it
    // by several ulps), so the values are compared to 1e-12 relative; the infinity exactly.
    let close = |got: Vec<f64>, want: [f64; 4]| {
        for (g, w) in got.into_iter().zip(want) {
            assert!(g == w || (g - w).abs() <= 1e-12 * w.abs(), "{g} vs {w}");
        }
    };
    let x: Tensor<f64, Shape![4]> = Tensor::from([1., 8., 0.25, 0.]);
    close(x.log(2.).to_vec(), [0., 3., -2., f64::NEG_INFINITY]);
    let mut y = x.clone();
    y.log_(2.);
    close(y.to_vec(), [0., 3., -2., f64::NEG_INFINITY]);
    // The natural log is `ln`, Rust's name for PyTorch's `log`.
    assert!((x.ln().to_vec()[1] - 3.0 * core::f64::consts::LN_2).abs() <= 1e-12);
}

#[test]
fn one_hot_follows_pytorch() {
    // torch.nn.functional.one_hot(torch.tensor([[0, 2], [1, 1]]), 3)
    let y: Tensor<i64, Shape![2, 2]> = Tensor::from([[0, 2], [1, 1]]);
    let h: Tensor<i64, Shape![2, 2, 3]> = y.one_hot::<3, i64>();
    assert_eq!(h.to_vec(), [1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0]);
    // Any numeric output type, any integer index type, a transposed (strided) input.
    let f: Tensor<f32, Shape![2, 2, 3]> = y.t().one_hot::<3, f32>();
    assert_eq!(f.to_vec(), [1., 0., 0., 0., 1., 0., 0., 0., 1., 0., 1., 0.]);
    let u: Tensor<u8, Shape![3]> = Tensor::from([2, 0, 1]);
    assert_eq!(u.one_hot_dyn::<f64>(4).sizes(), &[3, 4]);
    assert_eq!(Tensor::scalar(1i32).one_hot::<2, u8>().to_vec(), [0, 1]);
    // The dynamic form on a DynShape tensor.
    let d = y.into_dyn();
    let hd = d.one_hot_dyn::<i64>(3);
    assert_eq!((hd.sizes(), hd.to_vec()), (&[2, 2, 3][..], h.to_vec()));
    // Classes outside 0..C are errors naming the value and where it is; negative ones too.
    let bad: Tensor<i32, Shape![3]> = Tensor::from([0, 3, 1]);
    assert_eq!(
        bad.try_one_hot::<3, f32>().unwrap_err().to_string(),
        "one_hot: class 3 (element 1 in row-major order) is outside 0..3"
    );
    let neg: Tensor<i32, Shape![2]> = Tensor::from([0, -1]);
    assert_eq!(
        neg.try_one_hot_dyn::<f32>(3).unwrap_err().to_string(),
        "one_hot: class -1 (element 1 in row-major order) is outside 0..3"
    );
    let r = std::panic::catch_unwind(|| Tensor::<i32, Shape![1]>::from([5]).one_hot::<2, f32>());
    assert!(r.is_err());
    // No classes: an empty last dim, and every index is out of range.
    let none: Tensor<i32, Shape![0]> = Tensor::zeros();
    assert_eq!(none.one_hot_dyn::<f32>(0).sizes(), &[0, 0]);
    assert!(bad.try_one_hot_dyn::<f32>(0).is_err());
}

/// Generic over the row count and the float type, with only the prelude imported.
fn standardise_rows<T: Float + Num<Sum = T>, N: Dim>(x: &TensorView<T, (N, Const<4>)>) -> Tensor<T, (N, Const<4>)> {
    let centred = x - &x.mean_keepdim(Ax::<1>);
    let sd = centred.map(|v| v * v).mean_keepdim(Ax::<1>).sqrt();
    &centred / &sd
}

#[test]
fn generic_code_needs_only_the_prelude() {
    let x: Tensor<f64, Shape![2, 4]> = Tensor::from([[1., 2., 3., 4.], [2., 2., 4., 4.]]);
    let z = standardise_rows(&x.as_view());
    let s = 1.25f64.sqrt();
    let want = [-1.5 / s, -0.5 / s, 0.5 / s, 1.5 / s, -1., -1., 1., 1.];
    for (a, b) in z.to_vec().iter().zip(want) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }
    let d: Tensor<f32, (Dyn, Const<4>)> = Tensor::ones_sized(&[3, 4]);
    assert!(standardise_rows(&d.as_view()).to_vec().iter().all(|v| v.is_nan()));
}

#[cfg(feature = "linalg")]
#[test]
fn lstsq_result_prints() {
    let a: Tensor<f64, Shape![3, 2]> = Tensor::from([[1., 0.], [0., 1.], [0., 0.]]);
    let b: Tensor<f64, Shape![3]> = Tensor::from([1., 2., 3.]);
    let r = a.lstsq(&b);
    let text = r.to_string();
    assert!(text.starts_with("solution: tensor([1., 2.]"), "{text}");
    assert!(text.contains("\nrank: 2\n"), "{text}");
    assert!(text.contains("singular_values: tensor([1., 1.]"), "{text}");
}

#[test]
fn static_batches_and_their_remainder() {
    let x: Tensor<i32, Shape![7, 2]> = Tensor::<i32, Shape![14]>::arange().reshape::<Shape![7, 2]>().into_owned();
    let b = x.batches::<3>();
    assert_eq!(b.len(), 2);
    let rest: TensorView<i32, Shape![_, 2]> = b.remainder();
    assert_eq!(rest.to_vec(), [12, 13]);
    let got: Vec<Vec<i32>> = b.map(|v: TensorView<i32, Shape![3, 2]>| v.to_vec()).collect();
    assert_eq!(got, [vec![0, 1, 2, 3, 4, 5], vec![6, 7, 8, 9, 10, 11]]);
    // Along axis 1 of a transposed view, from the back, and for a dim B divides.
    let t = x.t(); // [2, 7]
    let mut cols = t.axis_chunks_exact(Ax::<1>, Const::<2>);
    let last: TensorView<i32, Shape![2, 2]> = cols.next_back().unwrap();
    assert_eq!(last.to_vec(), [8, 10, 9, 11]);
    assert_eq!((cols.len(), cols.remainder().to_vec()), (2, vec![12, 13]));
    let even: Tensor<f32, Shape![4, 3]> = Tensor::zeros();
    assert_eq!((even.batches::<2>().count(), even.batches::<2>().remainder().sizes()), (2, &[0, 3][..]));
    // A batch larger than the dim: no batches, everything in the remainder.
    assert_eq!((x.batches::<8>().count(), x.batches::<8>().remainder().sizes()), (0, &[7, 2][..]));
    // DynShape sources check the axis at run time; a chunk size of 0 is an error.
    let d = x.clone().into_dyn();
    assert_eq!(d.batches::<4>().map(|v| v.sizes().to_vec()).collect::<Vec<_>>(), [vec![4, 2]]);
    assert_eq!(
        d.try_axis_chunks_exact(Ax::<2>, Const::<1>).unwrap_err().to_string(),
        "axis 2 is out of range for a tensor of rank 2"
    );
    assert_eq!(
        x.try_axis_chunks_exact(Ax::<0>, Const::<0>).unwrap_err().to_string(),
        "axis_chunks_exact: a chunk size of 0"
    );
}

#[test]
fn strict_compound_assignment_never_broadcasts() {
    let mut w: Tensor<f32, Shape![2, 3]> = Tensor::ones();
    let g: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
    w.sub_assign_same(&g);
    assert_eq!(w.to_vec(), [0., -1., -2., -3., -4., -5.]);
    w.add_assign_same(&g);
    w.mul_assign_same(&g);
    w.div_assign_same(&g.t().t());
    assert_eq!(w.to_vec(), [1.; 6]);
    // Runtime sizes that differ: an error naming the operation, nothing written.
    let mut d = w.clone().into_dyn();
    let row = Tensor::<f32, Shape![3]>::ones().into_dyn();
    assert_eq!(
        d.try_sub_assign_same(&row).unwrap_err().to_string(),
        "sub_assign_same: [2, 3] and [3] differ: the `*_same` forms need equal shapes (they never broadcast)"
    );
    assert_eq!(d.to_vec(), [1.; 6]);
    let mut i: Tensor<i32, Shape![2]> = Tensor::from([4, 6]);
    assert!(i.try_div_assign_same(&Tensor::from([2, 0])).is_err());
    assert_eq!(i.to_vec(), [4, 6]);
    // The broadcasting operator's run-time error names the operator and both shapes.
    let mut a = Tensor::<f32, Shape![10]>::zeros().into_dyn();
    let b = Tensor::<f32, Shape![5]>::ones().into_dyn();
    assert_eq!(
        a.try_sub_assign(&b).unwrap_err().to_string(),
        "sub_assign (`-=`): [10] and [5] do not broadcast: the right side must broadcast to the left side's shape"
    );
}

#[test]
fn hostile_arguments_to_the_new_entry_points_are_errors() {
    let y: Tensor<u64, Shape![2]> = Tensor::from([0, u64::MAX]);
    // A class count whose product with the element count overflows, and one past every index.
    let e = y.try_one_hot_dyn::<f32>(usize::MAX).unwrap_err().to_string();
    assert!(e.contains("overflow"), "{e}");
    assert_eq!(
        y.try_one_hot_dyn::<f32>(3).unwrap_err().to_string(),
        "one_hot: class 18446744073709551615 (element 1 in row-major order) is outside 0..3"
    );
    // One dim more than the rank limit.
    let six = Tensor::<i32, DynShape>::zeros_sized(&[1, 1, 1, 1, 1, 2]);
    assert_eq!(six.try_one_hot_dyn::<f32>(2).unwrap_err().to_string(), "rank 7 exceeds the maximum of 6 dims");
    // A chunk size past any dim: no chunks, the whole tensor is the remainder.
    let x: Tensor<f32, Shape![3, 2]> = Tensor::ones();
    let c = x.axis_chunks_exact(Ax::<0>, Const::<{ usize::MAX }>);
    assert_eq!((c.len(), c.remainder().sizes()), (0, &[3, 2][..]));
    // Empty tensors: strict compound assignment of nothing, batches of an empty dim.
    let mut z = Tensor::<f32, DynShape>::zeros_sized(&[0, 3]);
    z.add_assign_same(&Tensor::<f32, DynShape>::zeros_sized(&[0, 3]));
    assert_eq!((z.batches::<4>().count(), z.batches::<4>().remainder().sizes()), (0, &[0, 3][..]));
}

/// The storage constructor behind the inferred constructors is callable through a `BuildData`
/// bound: an inline array of the wrong length and a heap buffer past memory are errors, never a
/// buffer shorter than asked.
#[test]
fn build_data_through_a_bound_is_checked() {
    use shaped::storage::{BuildData, Inline, OwnedRepr};
    use shaped::Data;
    fn build<D: BuildData>(n: usize) -> Result<D, ShapeError>
    where
        D::Elem: Default,
    {
        D::try_from_fn(n, |_| Default::default())
    }
    let ok = build::<Inline<[f32; 3]>>(3).unwrap();
    assert_eq!(ok.as_slice(), [0.0; 3]);
    assert!(build::<Inline<[f32; 3]>>(4).is_err());
    assert!(build::<Inline<[f32; 3]>>(0).is_err());
    assert!(build::<OwnedRepr<f64>>(usize::MAX).is_err());
    assert_eq!(build::<OwnedRepr<i32>>(5).unwrap().as_slice(), [0; 5]);
    // A static shape whose element count overflows is refused by the inferred constructors'
    // shared builder before anything is allocated.
    let huge = std::panic::catch_unwind(|| Tensor::<u8, Shape![{ usize::MAX }, 2]>::zeros());
    assert!(huge.is_err());
}
