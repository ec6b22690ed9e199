//! Named runtime dims (`dims!`, `DimName`): names meet themselves, `Dyn` and `One`; operations
//! that keep a dim keep its name; two sizes of one name are a `ShapeError::NamedDim`. The refusals
//! at compile time are trybuild cases (ui-tests/ui/named_*.rs).
use shaped::prelude::*;
use shaped::{dims, Const, Dyn, One, Prod, ShapeError, TensorBase};

dims! {
    /// The batch dim.
    Batch,
    /// The sequence dim of the queries.
    Seq,
}

/// Compiles only when `x` has shape type `S` exactly (any storage).
fn shape_is<S: Shape, D: Data>(x: &TensorBase<D, S>) -> &TensorBase<D, S> {
    x
}

fn iota(sizes: &[usize]) -> Vec<f32> {
    (0..sizes.iter().product::<usize>()).map(|i| i as f32).collect()
}

fn bsx(b: usize, s: usize) -> Tensor<f32, (Batch, Seq, Const<4>)> {
    Tensor::from_vec(&[b, s, 4], iota(&[b, s, 4]))
}

#[test]
fn names_show_in_the_shape_text() {
    assert_eq!(<(Batch, Seq, Const<4>)>::describe(), "[Batch, Seq, 4]");
    assert_eq!(<Shape![dyn Batch, _, 1]>::describe(), "[Batch, _, 1]");
    let x = bsx(2, 3);
    assert!(format!("{x:?}").contains("Batch"), "{x:?}");
}

#[test]
fn same_names_meet_and_keep_their_names() {
    let x = bsx(2, 3);
    let y = &x + &x;
    shape_is::<(Batch, Seq, Const<4>), _>(&y);
    assert_eq!(y.to_vec(), iota(&[2, 3, 4]).iter().map(|v| 2. * v).collect::<Vec<_>>());
    // A bias of the last dim broadcasts; a `[Batch, 1, 4]` stretches along `Seq`.
    let bias = Tensor::<f32, Shape![4]>::from([1., 2., 3., 4.]);
    let z = &x + &bias;
    shape_is::<(Batch, Seq, Const<4>), _>(&z);
    assert_eq!(z.to_vec()[..4], [1., 3., 5., 7.]);
    let mean = x.mean_axis(Ax::<1>);
    let m = mean.unsqueeze(Ax::<1>);
    shape_is::<(Batch, One, Const<4>), _>(&m);
    let centred = &x - m;
    shape_is::<(Batch, Seq, Const<4>), _>(&centred);
    assert_eq!(centred.sum(), 0.0);
}

#[test]
fn an_anonymous_dyn_meets_a_name_and_takes_it() {
    let x = bsx(2, 3);
    let d = Tensor::<f32, (Dyn, Dyn, Const<4>)>::ones_sized(&[2, 3, 4]);
    let y = &x * &d;
    shape_is::<(Batch, Seq, Const<4>), _>(&y);
    assert_eq!(y.to_vec(), x.to_vec());
    let y2 = &d * &x;
    shape_is::<(Batch, Seq, Const<4>), _>(&y2);
}

#[test]
fn two_sizes_of_one_name_are_an_error_naming_it() {
    let x = bsx(2, 3);
    let other = bsx(2, 5);
    let e = x.try_add(&other).unwrap_err();
    assert_eq!(e, ShapeError::NamedDim { name: "Seq", axis: 1, lhs: 3, rhs: 5 });
    assert!(e.to_string().starts_with("dim `Seq` has two sizes, 3 and 5 (dim 1)"), "{e}");
    // A runtime size 1 does not stretch a name (it would broadcast as `Dyn`).
    let one = bsx(1, 3);
    let e = x.try_add(&one).unwrap_err();
    assert_eq!(e, ShapeError::NamedDim { name: "Batch", axis: 0, lhs: 2, rhs: 1 });
    // The same sizes through anonymous dims broadcast as PyTorch does.
    let (a, b) = (x.clone().into_dyn(), one.into_dyn());
    assert_eq!((&a + &b).sizes(), [2, 3, 4]);
    // The panicking form says the same.
    let r = std::panic::catch_unwind(|| &x + &other);
    let msg = r.unwrap_err().downcast::<String>().unwrap();
    assert!(msg.contains("dim `Seq` has two sizes, 3 and 5"), "{msg}");
}

#[test]
fn reductions_views_and_transposes_keep_the_names_of_the_dims_they_keep() {
    let x = bsx(2, 3);
    let s = x.sum_axis(Ax::<1>);
    shape_is::<(Batch, Const<4>), _>(&s);
    let t = x.transpose(Ax::<0>, Ax::<1>);
    assert_eq!(t.sizes(), [3, 2, 4]);
    shape_is::<(Seq, Batch, Const<4>), _>(&t);
    let p = x.permute((Ax::<2>, Ax::<0>, Ax::<1>));
    shape_is::<(Const<4>, Batch, Seq), _>(&p);
    let col = t!(x[.., 0]);
    assert_eq!(col.sizes(), [2, 4]);
    shape_is::<(Batch, Const<4>), _>(&col);
    let e = x.exp();
    shape_is::<(Batch, Seq, Const<4>), _>(&e);
    let sm = x.softmax(Ax::<2>);
    shape_is::<(Batch, Seq, Const<4>), _>(&sm);
}

#[test]
fn matmul_keeps_batch_and_outer_names_and_checks_the_batch() {
    dims! { SeqK }
    let q = bsx(2, 3);
    let k = Tensor::<f32, (Batch, SeqK, Const<4>)>::from_vec(&[2, 5, 4], iota(&[2, 5, 4]));
    let scores = q.matmul(&k.transpose(Ax::<1>, Ax::<2>));
    shape_is::<(Batch, Seq, SeqK), _>(&scores);
    assert_eq!(scores.sizes(), [2, 3, 5]);
    // Against a plain loop.
    let (qv, kv, sv) = (q.to_vec(), k.to_vec(), scores.to_vec());
    for b in 0..2 {
        for i in 0..3 {
            for j in 0..5 {
                let want: f32 = (0..4).map(|c| qv[(b * 3 + i) * 4 + c] * kv[(b * 5 + j) * 4 + c]).sum();
                assert_eq!(sv[(b * 3 + i) * 5 + j], want);
            }
        }
    }
    let w = Tensor::<f32, Shape![4, 6]>::ones();
    let h = q.matmul(&w);
    shape_is::<(Batch, Seq, Const<6>), _>(&h);
    // Batch dims of one name with two sizes.
    let k1 = Tensor::<f32, (Batch, SeqK, Const<4>)>::zeros_sized(&[1, 5, 4]);
    let e = q.try_matmul(&k1.transpose(Ax::<1>, Ax::<2>)).unwrap_err();
    assert_eq!(e, ShapeError::NamedDim { name: "Batch", axis: 0, lhs: 2, rhs: 1 });
}

#[test]
fn cat_keeps_the_other_names_and_makes_a_new_size_along_its_axis() {
    let (a, b) = (bsx(2, 3), bsx(2, 5));
    let c = a.cat(&b, Ax::<1>);
    shape_is::<(Batch, Dyn, Const<4>), _>(&c);
    assert_eq!(c.sizes(), [2, 8, 4]);
    let d = a.cat(&a, Ax::<2>);
    shape_is::<(Batch, Seq, Const<8>), _>(&d);
    let e = a.try_cat(&bsx(2, 5), Ax::<2>).unwrap_err();
    assert_eq!(e, ShapeError::NamedDim { name: "Seq", axis: 1, lhs: 3, rhs: 5 });
}

#[test]
fn cast_shape_names_an_anonymous_dim() {
    let d = Tensor::<f32, Shape![_, 4]>::zeros_sized(&[7, 4]);
    let n: Tensor<f32, Shape![dyn Batch, 4]> = d.cast_shape();
    shape_is::<(Batch, Const<4>), _>(&n);
    let back: Tensor<f32, Shape![_, 4]> = n.cast_shape();
    assert_eq!(back.sizes(), [7, 4]);
}

#[test]
fn the_same_sizes_in_the_runtime_shape_api() {
    // A named tensor and its dynamic twin compute the same values.
    let x = bsx(2, 3);
    let y = &x * &x + &x;
    let xd = x.clone().into_dyn();
    let yd = &xd * &xd + &xd;
    assert_eq!(y.to_vec(), yd.to_vec());
    assert_eq!(y.into_dyn().sizes(), [2, 3, 4]);
}

#[test]
fn a_layer_and_a_loss_on_named_batches_match_the_anonymous_computation() {
    use shaped::autograd::nn::{mse_loss, Reduction};
    use shaped::autograd::{Tape, Var};
    use shaped::nn::{Forward, Linear, Relu};
    use shaped::rand::{rngs::StdRng, SeedableRng};
    let rng = &mut StdRng::seed_from_u64(5);
    let mut model = (Linear::<Const<4>, Const<8>, f64>::new(rng), Relu, Linear::<Const<8>, Const<2>, f64>::new(rng));
    let xs: Vec<f64> = (0..12).map(|v| v as f64 / 6.0 - 1.0).collect();
    let ts: Vec<f64> = (0..6).map(|v| v as f64 / 3.0).collect();
    // Named batch.
    let x = Tensor::<f64, (Batch, Const<4>)>::from_vec(&[3, 4], xs.clone());
    let t = Tensor::<f64, (Batch, Const<2>)>::from_vec(&[3, 2], ts.clone());
    let tape = Tape::new();
    let y = model.forward(&tape, &Var::constant(x));
    let y: &Var<'_, f64, (Batch, Const<2>)> = &y;
    let loss = mse_loss(y, &Var::constant(t), Reduction::Mean);
    let g = loss.backward();
    let gw: Vec<f64> = g.param(&model.0.weight).unwrap().to_vec();
    // The same with an anonymous batch.
    let x = Tensor::<f64, Shape![_, 4]>::from_vec(&[3, 4], xs);
    let t = Tensor::<f64, Shape![_, 2]>::from_vec(&[3, 2], ts);
    let tape = Tape::new();
    let y = model.forward(&tape, &Var::constant(x));
    let loss2 = mse_loss(&y, &Var::constant(t), Reduction::Mean);
    assert_eq!(loss.item(), loss2.item());
    let g2 = loss2.backward();
    assert_eq!(gw, g2.param(&model.0.weight).unwrap().to_vec());
}

#[test]
fn losses_take_targets_whose_runtime_dims_are_anonymous() {
    use shaped::autograd::nn::{cross_entropy, mse_loss, Reduction, Unreduced};
    use shaped::autograd::Var;
    let x = Var::constant(Tensor::<f64, (Batch, Const<2>)>::from_vec(&[3, 2], vec![0., 1., 2., 3., 4., 5.]));
    // A loader's target: an anonymous batch dim.
    let t = Var::constant(Tensor::<f64, Shape![_, 2]>::from_vec(&[3, 2], vec![1.; 6]));
    assert_eq!(mse_loss(&x, &t, Reduction::Sum).item(), 1. + 0. + 1. + 4. + 9. + 16.);
    let per: Var<'_, f64, (Batch, Const<2>)> = mse_loss(&x, &t, Unreduced);
    assert_eq!(per.value().to_vec(), [1., 0., 1., 4., 9., 16.]);
    // Sizes that differ are the loss's runtime error.
    let short = Var::constant(Tensor::<f64, Shape![_, 2]>::zeros_sized(&[2, 2]));
    assert!(shaped::autograd::nn::try_mse_loss(&x, &short, Reduction::Sum).is_err());
    // Class targets `[_]` against named rows `[Batch, C]`.
    let targets = Tensor::<i64, Shape![_]>::from_vec(&[3], vec![1, 0, 1]);
    let ce = cross_entropy(&x, &targets, Reduction::Sum, 0.0).item();
    let want: f64 = [(0., 1., 1), (2., 3., 0), (4., 5., 1)]
        .iter()
        .map(|&(a, b, k): &(f64, f64, usize)| {
            let lse = (a.exp() + b.exp()).ln();
            lse - [a, b][k]
        })
        .sum();
    assert!((ce - want).abs() < 1e-12, "{ce} vs {want}");
}

#[test]
fn reshape_keeps_every_name_whole() {
    dims! { SeqK }
    let x = bsx(2, 3);
    // The names of the target take the source's sizes: no `_` to infer.
    let y = x.reshape::<(Batch, Seq, Const<2>, Const<2>)>();
    shape_is::<(Batch, Seq, Const<2>, Const<2>), _>(&y);
    assert_eq!(y.sizes(), [2, 3, 2, 2]);
    assert_eq!(y.to_vec(), x.to_vec());
    // Merging the dims after the batch: a `_` would absorb `Seq` (refused when the program is
    // built, ui-tests/mono/fail/reshape_drops_name.rs); `flatten_range` merges on purpose, into
    // a product dim.
    let z = x.flatten_range(Ax::<1>, Ax::<2>);
    shape_is::<(Batch, Prod<Seq, Const<4>>), _>(&z);
    assert_eq!(z.sizes(), [2, 12]);
    let w = z.view::<Shape![dyn Batch, 3, 4]>();
    assert_eq!(w.sizes(), [2, 3, 4]);
    // A name that would move: `[Batch, Seq, 4] -> [Seq, Batch, 4]` (the classic transpose by
    // reshape) is refused at the reshape.
    let e = x.try_reshape::<(Seq, Batch, Const<4>)>().unwrap_err();
    assert_eq!(e, ShapeError::ReshapeName { name: "Batch", from: vec![2, 3, 4], to: vec![3, 2, 4] });
    assert!(e.to_string().contains("the named dim `Batch` would move or be regrouped"), "{e}");
    // A new name for an anonymous dim is inferred as `_` would be.
    let d = Tensor::<f32, Shape![_, 4]>::zeros_sized(&[6, 4]);
    let n = d.reshape::<(SeqK, Const<2>, Const<2>)>();
    assert_eq!(n.sizes(), [6, 2, 2]);
    // Unflatten splits an anonymous dim; splitting the batch away is refused.
    let u = x.unflatten(Ax::<2>, (Const::<2>, Const::<2>));
    shape_is::<(Batch, Seq, Const<2>, Const<2>), _>(&u);
    let flat = Tensor::<f32, (Batch, Const<4>)>::zeros_sized(&[6, 4]);
    let e = flat.try_unflatten(Ax::<0>, (Const::<2>, Dyn)).unwrap_err();
    assert!(matches!(e, ShapeError::ReshapeName { name: "Batch", .. }), "{e:?}");
}

#[test]
fn t_takes_any_index_expression() {
    let x = Tensor::<f32, Shape![4, 3]>::from_vec(&[4, 3], iota(&[4, 3]));
    // A turbofish with commas inside an item.
    let rows = t!(x[&Tensor::<i64, Shape![2]>::from([3, 1]), ..]);
    assert_eq!(rows.to_vec(), [9., 10., 11., 3., 4., 5.]);
    // An index tensor held in a variable.
    let idx = Tensor::<i64, Shape![2]>::from([2, 0]);
    let i = &idx;
    let picked = t!(x[i, 1]);
    assert_eq!(picked.to_vec(), [7., 1.]);
    // Integers in variables, typed and untyped, as before.
    let (k, n) = (2usize, 1);
    assert_eq!(t!(x[k, n]).item(), 7.);
    // Names are kept on the dims an index leaves whole.
    let named = Tensor::<f32, (Batch, Const<3>)>::from_vec(&[4, 3], iota(&[4, 3]));
    let cols = Tensor::<i64, Shape![2]>::from([2, 0]);
    let c = &cols;
    let g = t!(named[.., c]);
    assert_eq!(g.sizes(), [4, 2]);
    assert_eq!(g.to_vec()[..2], [2., 0.]);
}

#[test]
fn names_survive_the_operations_that_keep_their_dims() {
    use shaped::Stack;
    let x = bsx(2, 3);
    // stack: a new static dim in front, the names kept.
    let s = Tensor::stack([&x, &x], Ax::<0>);
    shape_is::<(Const<2>, Batch, Seq, Const<4>), _>(&s);
    // sort, cumsum, softmax along the last axis keep the shape type.
    let (v, _i) = x.sort(Ax::<2>, true);
    shape_is::<(Batch, Seq, Const<4>), _>(&v);
    let c = x.cumsum(Ax::<1>);
    shape_is::<(Batch, Seq, Const<4>), _>(&c);
    // topk along the last axis: the named dims kept.
    let (t, _) = x.topk(Const::<2>, Ax::<2>, true);
    shape_is::<(Batch, Seq, Const<2>), _>(&t);
    // index_select along another axis keeps the names of the others.
    let idx = Tensor::<i64, Shape![2]>::from([3, 0]);
    let g = x.index_select(Ax::<2>, &idx);
    shape_is::<(Batch, Seq, Const<2>), _>(&g);
    assert_eq!(g.to_vec()[..2], [3., 0.]);
    // max over an axis and argmax keep the other names.
    let m = x.max_axis(Ax::<2>);
    shape_is::<(Batch, Seq), _>(&m);
    // A pool over the spatial dims keeps a named batch.
    let img = Tensor::<f32, (Batch, Const<1>, Const<4>, Const<4>)>::from_vec(&[2, 1, 4, 4], iota(&[2, 1, 4, 4]));
    let p = img.max_pool2d(shaped::Pool::<2>);
    shape_is::<(Batch, Const<1>, Const<2>, Const<2>), _>(&p);
    assert_eq!(p.to_vec()[..4], [5., 7., 13., 15.]);
    // Shapes with names in errors: a static check's text names them.
    let e = Tensor::<f32, (Batch, Const<4>)>::try_from_vec(&[2, 5], vec![0.; 10]).unwrap_err();
    assert!(e.to_string().contains("[Batch, 4]"), "{e}");
}

#[test]
fn var_operations_check_one_size_per_name_too() {
    use shaped::autograd::Var;
    let (a, b) = (Var::constant(bsx(2, 3)), Var::constant(bsx(1, 3)));
    let e = a.try_add(&b).unwrap_err();
    assert_eq!(e, ShapeError::NamedDim { name: "Batch", axis: 0, lhs: 2, rhs: 1 });
    // Matmul's inner dims of one name with two sizes name it too.
    dims! { SeqK }
    let scores = Tensor::<f32, (Batch, Seq, SeqK)>::zeros_sized(&[2, 3, 5]);
    let v = Tensor::<f32, (Batch, SeqK, Const<4>)>::zeros_sized(&[2, 6, 4]);
    let e = scores.try_matmul(&v).unwrap_err();
    assert_eq!(e, ShapeError::NamedDim { name: "SeqK", axis: 2, lhs: 5, rhs: 6 });
}

#[test]
fn cat_and_losses_name_a_dim_with_two_sizes() {
    use shaped::autograd::nn::{try_cross_entropy, try_mse_loss, Reduction};
    use shaped::autograd::Var;
    let (a, b) = (bsx(2, 3), bsx(4, 3));
    let e = a.try_cat(&b, Ax::<2>).unwrap_err();
    assert_eq!(e, ShapeError::NamedDim { name: "Batch", axis: 0, lhs: 2, rhs: 4 });
    // Along the named axis itself the sizes may differ: the result's dim is `Dyn`.
    assert_eq!(a.try_cat(&b, Ax::<0>).unwrap().sizes(), [6, 3, 4]);
    let (x, t) = (Var::constant(bsx(2, 3)), Var::constant(bsx(2, 5)));
    let e = try_mse_loss(&x, &t, Reduction::Mean).unwrap_err();
    assert_eq!(e, ShapeError::NamedDim { name: "Seq", axis: 1, lhs: 3, rhs: 5 });
    let logits = Var::constant(Tensor::<f64, (Batch, Const<3>)>::zeros_sized(&[2, 3]));
    let labels = Tensor::<i64, (Batch,)>::from_vec(&[3], vec![0, 1, 2]);
    let e = try_cross_entropy(&logits, &labels, Reduction::Mean, 0.0).unwrap_err();
    assert_eq!(e, ShapeError::NamedDim { name: "Batch", axis: 0, lhs: 2, rhs: 3 });
}

#[test]
fn a_transformer_encoder_layer_keeps_batch_and_sequence_names() {
    use shaped::autograd::{Tape, Var};
    use shaped::nn::{EncoderLayerOptions, Forward, TransformerEncoderLayer};
    use shaped::rand::{rngs::StdRng, SeedableRng};
    let rng = &mut StdRng::seed_from_u64(9);
    let opts = EncoderLayerOptions { dropout: 0.0, ..Default::default() };
    let mut layer = TransformerEncoderLayer::<Const<8>, 2, Const<16>, f64>::new_with(opts, rng);
    let xs: Vec<f64> = (0..2 * 5 * 8).map(|i| ((i * 37 % 19) as f64 - 9.0) / 10.0).collect();
    let tape = Tape::new();
    let x = Var::constant(Tensor::<f64, (Batch, Seq, Const<8>)>::from_vec(&[2, 5, 8], xs.clone()));
    let y: Var<'_, f64, (Batch, Seq, Const<8>)> = layer.forward(&tape, &x);
    // The same layer on anonymous dims computes the same values.
    let tape2 = Tape::new();
    let xd = Var::constant(Tensor::<f64, Shape![_, _, 8]>::from_vec(&[2, 5, 8], xs));
    let yd = layer.forward(&tape2, &xd);
    assert_eq!(y.value().to_vec(), yd.value().to_vec());
    assert_eq!(y.value().sizes(), [2, 5, 8]);
}

/// The point-wise losses with a target whose shape type differs from the input's (`[_, 2]`
/// against `[Batch, 2]`): the gradients of both, reduced and unreduced (summed with weights),
/// equal those of the same-type call (the formulas PyTorch's fixtures check) and f64 central
/// differences.
#[test]
fn loss_gradients_with_a_target_of_another_shape_type() {
    use shaped::autograd::nn::{binary_cross_entropy_with_logits, huber_loss, l1_loss, mse_loss, Reduction, Unreduced};
    use shaped::autograd::{Param, Tape, Var};
    type In = (Batch, Const<2>);
    type Tg = Shape![_, 2];
    let xs = vec![0.3, -1.2, 2.5, 0.7, -0.4, 1.9];
    let ts = vec![0.1, 0.25, 0.9, -0.6, 0.5, 0.05];
    let w = Tensor::<f64, In>::from_vec(&[3, 2], vec![1.0, -0.5, 2.0, 0.25, -1.5, 0.75]);
    // The loss as a scalar, for kind `k` (0 mse, 1 l1, 2 huber, 3 bce with logits), reduced or
    // unreduced (weighted by `w` and summed), on a tape or not.
    fn loss<'t>(
        k: usize,
        unreduced: bool,
        x: &Var<'t, f64, In>,
        t: &Var<'t, f64, Tg>,
        w: &Tensor<f64, In>,
    ) -> Var<'t, f64, ()> {
        if unreduced {
            let per: Var<'t, f64, In> = match k {
                0 => mse_loss(x, t, Unreduced),
                1 => l1_loss(x, t, Unreduced),
                2 => huber_loss(x, t, Unreduced, 1.0),
                _ => binary_cross_entropy_with_logits(x, t, Unreduced),
            };
            (&per * &Var::constant(w.clone())).sum()
        } else {
            match k {
                0 => mse_loss(x, t, Reduction::Mean),
                1 => l1_loss(x, t, Reduction::Mean),
                2 => huber_loss(x, t, Reduction::Mean, 1.0),
                _ => binary_cross_entropy_with_logits(x, t, Reduction::Mean),
            }
        }
    }
    let value = |k: usize, un: bool, x: &[f64], t: &[f64]| {
        let x = Var::constant(Tensor::<f64, In>::from_vec(&[3, 2], x.to_vec()));
        let t = Var::constant(Tensor::<f64, Tg>::from_vec(&[3, 2], t.to_vec()));
        loss(k, un, &x, &t, &w).item()
    };
    for k in 0..4 {
        for un in [false, true] {
            let (px, pt) = (
                Param::new(Tensor::<f64, In>::from_vec(&[3, 2], xs.clone())),
                Param::new(Tensor::<f64, Tg>::from_vec(&[3, 2], ts.clone())),
            );
            let tape = Tape::new();
            let g = loss(k, un, &tape.watch(&px), &tape.watch(&pt), &w).backward();
            let (gx, gt) = (g.param(&px).unwrap().to_vec(), g.param(&pt).unwrap().to_vec());
            // The same call with the target under the input's shape type.
            let pt2 = Param::new(Tensor::<f64, In>::from_vec(&[3, 2], ts.clone()));
            let tape2 = Tape::new();
            let t2 = tape2.watch(&pt2);
            let x2 = tape2.watch(&px);
            let same = match (k, un) {
                (0, false) => mse_loss(&x2, &t2, Reduction::Mean),
                (1, false) => l1_loss(&x2, &t2, Reduction::Mean),
                (2, false) => huber_loss(&x2, &t2, Reduction::Mean, 1.0),
                (_, false) => binary_cross_entropy_with_logits(&x2, &t2, Reduction::Mean),
                (0, true) => (&mse_loss(&x2, &t2, Unreduced) * &Var::constant(w.clone())).sum(),
                (1, true) => (&l1_loss(&x2, &t2, Unreduced) * &Var::constant(w.clone())).sum(),
                (2, true) => (&huber_loss(&x2, &t2, Unreduced, 1.0) * &Var::constant(w.clone())).sum(),
                _ => (&binary_cross_entropy_with_logits(&x2, &t2, Unreduced) * &Var::constant(w.clone())).sum(),
            };
            let g2 = same.backward();
            assert_eq!(gx, g2.param(&px).unwrap().to_vec(), "kind {k} unreduced {un}: input");
            assert_eq!(gt, g2.param(&pt2).unwrap().to_vec(), "kind {k} unreduced {un}: target");
            // Central differences (no element sits at a kink of l1 or huber).
            let h = 1e-6;
            for i in 0..6 {
                for (which, grad) in [(0, &gx), (1, &gt)] {
                    let (mut xp, mut xm, mut tp, mut tm) = (xs.clone(), xs.clone(), ts.clone(), ts.clone());
                    if which == 0 {
                        xp[i] += h;
                        xm[i] -= h;
                    } else {
                        tp[i] += h;
                        tm[i] -= h;
                    }
                    let fd = (value(k, un, &xp, &tp) - value(k, un, &xm, &tm)) / (2.0 * h);
                    assert!(
                        (fd - grad[i]).abs() <= 1e-6 * (1.0 + fd.abs()),
                        "kind {k} unreduced {un} arg {which} [{i}]: {fd} vs {}",
                        grad[i]
                    );
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------- product dims

#[test]
fn flatten_makes_product_dims_that_unflatten_takes_apart() {
    let x = bsx(2, 3);
    // [Batch, Seq, 4] over its first two dims: [Batch×Seq, 4], a view of the same values.
    let f = x.flatten_range(Ax::<0>, Ax::<1>);
    shape_is::<(Prod<Batch, Seq>, Const<4>), _>(&f);
    assert_eq!(<(Prod<Batch, Seq>, Const<4>)>::describe(), "[Batch×Seq, 4]");
    assert_eq!((f.sizes(), f.to_vec()), (&[6, 4][..], x.to_vec()));
    // The product comes apart into its two names again, given the batch size.
    let u = f.unflatten_prod::<0>(2);
    shape_is::<(Batch, Seq, Const<4>), _>(&u);
    assert_eq!((u.sizes(), u.to_vec()), (&[2, 3, 4][..], x.to_vec()));
    let e = f.try_unflatten_prod::<0>(4).unwrap_err();
    assert!(e.to_string().contains("does not split into an outer factor of size 4"), "{e}");
    assert!(f.try_unflatten_prod::<0>(0).is_err());
    // Every dim: right-nested products; a static product knows its size.
    let all = x.flatten();
    shape_is::<(Prod<Batch, Prod<Seq, Const<4>>>,), _>(&all);
    assert_eq!(<Prod<Const<16>, Prod<Const<4>, Const<4>>> as shaped::Dim>::PRODUCT, Some(256));
    assert_eq!(<Prod<Batch, Const<4>> as shaped::Dim>::PRODUCT, None);
    // Products meet themselves and `_`, and keep their type.
    let g = &f + &f;
    shape_is::<(Prod<Batch, Seq>, Const<4>), _>(&g);
    let d = Tensor::<f32, Shape![_, 4]>::ones_sized(&[6, 4]);
    let h = &f + &d;
    shape_is::<(Prod<Batch, Seq>, Const<4>), _>(&h);
    assert_eq!(h.to_vec(), x.to_vec().iter().map(|v| v + 1.).collect::<Vec<_>>());
    let e = f.try_add(&Tensor::<f32, Shape![_, 4]>::ones_sized(&[5, 4])).unwrap_err();
    assert!(matches!(e, ShapeError::Broadcast { .. }), "{e:?}");
}

#[test]
fn a_product_of_static_sizes_meets_the_static_size_it_equals() {
    // A feature map [Batch, 16, 4, 4] flattened from dim 1 keeps `Batch` and gives 16×4×4,
    // which meets the 256 of the next layer's weight.
    let x = Tensor::<f32, (Batch, Const<16>, Const<4>, Const<4>)>::from_vec(&[2, 16, 4, 4], iota(&[2, 16, 4, 4]));
    let f = x.flatten_range(Ax::<1>, Ax::<3>);
    shape_is::<(Batch, Prod<Const<16>, Prod<Const<4>, Const<4>>>), _>(&f);
    let w = Tensor::<f32, Shape![256, 3]>::from_fn(|[i, j]| ((i * 3 + j) % 7) as f32 - 3.0);
    let y = f.matmul(&w);
    shape_is::<(Batch, Const<3>), _>(&y);
    let plain = x.reshape::<(Batch, Const<256>)>().matmul(&w);
    assert_eq!(y.to_vec(), plain.to_vec());
    // ... broadcasts against it, and casts to it without a copy.
    let b = Tensor::<f32, Shape![256]>::ones();
    shape_is::<(Batch, Const<256>), _>(&(&f + &b));
    let c = f.clone().into_owned().cast_shape::<(Batch, Const<256>)>();
    assert_eq!(c.to_vec(), x.to_vec());
    // A product dim whose runtime size is not its static one does not exist.
    let e = Tensor::<f32, (Prod<Const<2>, Const<3>>,)>::try_full_sized(&[5], 0.0).unwrap_err();
    assert!(matches!(e, ShapeError::ShapeMismatch { .. }), "{e:?}");
    // Unflatten takes a static product apart too (into its two factors, or into all sizes).
    let u = f.unflatten_prod::<1>(16);
    shape_is::<(Batch, Const<16>, Prod<Const<4>, Const<4>>), _>(&u);
    assert!(f.try_unflatten_prod::<1>(8).is_err(), "the outer factor is 16");
    let v = f.unflatten(Ax::<1>, (Const::<16>, Const::<4>, Const::<4>));
    assert_eq!(v.to_vec(), x.to_vec());
}

#[test]
fn token_losses_meet_on_the_product_of_batch_and_sequence() {
    use shaped::autograd::nn::{cross_entropy, Reduction};
    use shaped::autograd::Var;
    // Logits [Batch, Seq, 5] and targets [Batch, Seq], both flattened to Batch×Seq.
    let logits = Tensor::<f64, (Batch, Seq, Const<5>)>::from_vec(
        &[2, 3, 5],
        (0..30).map(|v| ((v * 7) % 11) as f64 / 5.0).collect(),
    );
    let targets = Tensor::<i64, (Batch, Seq)>::from_vec(&[2, 3], vec![0, 4, 2, 1, 3, 3]);
    let tape = shaped::autograd::Tape::new();
    let l = tape.var(logits.clone());
    let flat = l.flatten_range(Ax::<0>, Ax::<1>);
    let t = targets.flatten();
    let loss = cross_entropy(&flat, &t, Reduction::Mean, 0.0);
    // The same on anonymous dims.
    let tape2 = shaped::autograd::Tape::new();
    let l2 = tape2.var(logits.clone().cast_shape::<Shape![_, _, 5]>());
    let plain = cross_entropy(
        &l2.reshape::<Shape![_, 5]>(),
        &targets.clone().cast_shape::<Shape![_, _]>().reshape::<Shape![_]>(),
        Reduction::Mean,
        0.0,
    );
    assert_eq!(loss.item(), plain.item());
    let g = loss.backward();
    let g2 = plain.backward();
    assert_eq!(g.wrt(&l).unwrap().to_vec(), g2.wrt(&l2).unwrap().to_vec());
    // The per-token losses come back as [Batch, Seq].
    let per = Var::constant(Tensor::<f64, (Prod<Batch, Seq>,)>::from_vec(&[6], vec![1., 2., 3., 4., 5., 6.]));
    let back = per.unflatten_prod::<0>(2);
    let _: &Var<'_, f64, (Batch, Seq)> = &back;
    assert_eq!(back.value().to_vec(), [1., 2., 3., 4., 5., 6.]);
}

// ------------------------------------------------------------------------- one axis grammar

#[test]
fn an_axis_is_a_const_position_a_runtime_position_or_a_name() {
    use shaped::LAST;
    let x = bsx(2, 3);
    // Reductions: the const position and the name keep the other dims' types; a runtime
    // position gives the same rank with `Dyn` dims.
    let a: Tensor<f32, (Batch, Const<4>)> = x.sum_axis(Ax::<1>);
    let b: Tensor<f32, (Batch, Const<4>)> = x.sum_axis(Seq);
    let c: Tensor<f32, (Dyn, Dyn)> = x.sum_axis(1);
    let d: Tensor<f32, (Batch, Const<4>)> = x.sum_axis(Ax::<-2>);
    assert_eq!(a.to_vec(), b.to_vec());
    assert_eq!(a.to_vec(), c.to_vec());
    assert_eq!(a.to_vec(), d.to_vec());
    assert_eq!(a.to_vec(), x.sum_axis(1).to_vec(), "the runtime twin agrees");
    let m: Tensor<f32, (Batch, One, Const<4>)> = x.mean_keepdim(Seq);
    let m2: Tensor<f32, (Dyn, Dyn, Dyn)> = x.mean_keepdim(-2);
    assert_eq!((m.sizes(), m.to_vec()), (m2.sizes(), m2.to_vec()));
    let (l1, l2, l3) = (x.max_axis(LAST), x.max_axis(-1), x.max_axis(Ax::<2>));
    let _: &Tensor<f32, (Batch, Seq)> = &l1;
    assert_eq!((l1.to_vec(), l2.to_vec()), (l3.to_vec(), l3.to_vec()));
    assert_eq!(x.argmax_axis(Batch).to_vec(), x.argmax_axis(0).to_vec());
    // A runtime position out of range is an error naming it.
    assert_eq!(x.try_sum_axis(3).unwrap_err(), ShapeError::Axis { axis: 3, rank: 3 });
    assert_eq!(x.try_var_keepdim(-4, 1).unwrap_err(), ShapeError::Axis { axis: -4, rank: 3 });
    // Shape-preserving operations keep the shape type whatever the kind of axis.
    let s1: Tensor<f32, (Batch, Seq, Const<4>)> = x.softmax(Seq);
    let s2: Tensor<f32, (Batch, Seq, Const<4>)> = x.softmax(1);
    let s3: Tensor<f32, (Batch, Seq, Const<4>)> = x.softmax(Ax::<1>);
    assert_eq!((s1.to_vec(), s2.to_vec()), (s3.to_vec(), s3.to_vec()));
    assert_eq!(x.log_softmax(LAST).to_vec(), x.log_softmax(-1).to_vec());
    assert_eq!(x.cumsum(Batch).to_vec(), x.cumsum(Ax::<0>).to_vec());
    let (v, i) = x.cummax(Seq);
    let (v2, i2) = x.cummax(1);
    assert_eq!((v.to_vec(), i.to_vec()), (v2.to_vec(), i2.to_vec()));
    assert!(x.try_cumprod(7).is_err());
}

/// A scalar function of a `[Batch, Seq, 4]` value, for the gradient tests of the axis spellings.
type NamedLoss =
    dyn for<'t> Fn(&shaped::autograd::Var<'t, f64, (Batch, Seq, Const<4>)>) -> shaped::autograd::Var<'t, f64, ()>;

/// `f(x)` and its gradient with respect to `x`.
fn value_and_grad(x: &Tensor<f64, (Batch, Seq, Const<4>)>, f: &NamedLoss) -> (f64, Vec<f64>) {
    let tape = shaped::autograd::Tape::new();
    let v = tape.var(x.clone());
    let y = f(&v);
    let g = y.backward();
    (y.item(), g.wrt(&v).unwrap().to_vec())
}

#[test]
fn var_axes_in_every_spelling_give_the_same_values_and_gradients() {
    let x =
        Tensor::<f64, (Batch, Seq, Const<4>)>::from_vec(&[2, 3, 4], (0..24).map(|v| (v as f64 / 7.0).sin()).collect());
    let grads = |f: &NamedLoss| value_and_grad(&x, f);
    let by_const = grads(&|v| v.softmax(Ax::<1>).mul_scalar(3.0).logsumexp_axis(Ax::<2>).sum_axis(Ax::<0>).sum());
    let by_name = grads(&|v| v.softmax(Seq).mul_scalar(3.0).logsumexp_axis(LAST_OF).sum_axis(Batch).sum());
    let by_index = grads(&|v| v.softmax(1).mul_scalar(3.0).logsumexp_axis(-1).sum_axis(0).sum());
    assert_eq!(by_const, by_name);
    assert_eq!(by_const, by_index);
    const LAST_OF: Ax<-1> = Ax;
}

#[test]
fn views_take_an_axis_in_every_spelling() {
    let x = bsx(2, 3);
    // transpose: names and `Ax` keep the dims' types (swapped); an `isize` gives `Dyn` dims.
    let a: Tensor<f32, (Seq, Batch, Const<4>)> = x.transpose(Seq, Batch).to_owned();
    let b: Tensor<f32, (Seq, Batch, Const<4>)> = x.transpose(Ax::<0>, Seq).to_owned();
    let c: Tensor<f32, (Dyn, Dyn, Dyn)> = x.transpose(1, Ax::<0>).to_owned();
    let d = x.transpose(0, 1).to_owned();
    assert_eq!(a.sizes(), &[3, 2, 4]);
    assert_eq!(a.to_vec(), b.to_vec());
    assert_eq!(a.to_vec(), c.to_vec());
    assert_eq!(a.to_vec(), d.to_vec());
    assert_eq!(a.to_vec(), x.transpose(Batch, -2).to_vec());
    // The values: element (s, b, k) of the transpose is (b, s, k) of x.
    assert_eq!(a.to_vec()[2 * 8 + 4 + 3], x.to_vec()[12 + 2 * 4 + 3]);
    // select removes the axis; narrow makes it a new size; flip keeps the shape.
    let s1: TensorView<'_, f32, (Batch, Const<4>)> = x.select(Seq, 2);
    let s2: TensorView<'_, f32, (Dyn, Dyn)> = x.select(1, -1);
    assert_eq!(s1.to_vec(), s2.to_vec());
    assert_eq!(s1.to_vec(), x.select(Ax::<1>, 2).to_vec());
    let n1: TensorView<'_, f32, (Batch, Dyn, Const<4>)> = x.narrow(Seq, 1, 2);
    let n2: TensorView<'_, f32, (Dyn, Dyn, Dyn)> = x.narrow(1, 1, 2);
    assert_eq!((n1.sizes(), n1.to_vec()), (n2.sizes(), n2.to_vec()));
    assert_eq!(n1.to_vec(), x.narrow(Ax::<-2>, 1, 2).to_vec());
    let f1: TensorView<'_, f32, (Batch, Seq, Const<4>)> = x.flip(Seq);
    let f2: TensorView<'_, f32, (Batch, Seq, Const<4>)> = x.flip(1);
    assert_eq!(f1.to_vec(), f2.to_vec());
    assert_eq!(f1.to_vec(), x.flip_dyn(&[1]).to_vec());
    // squeeze and unsqueeze take `Ax` or an `isize`.
    let u1: TensorView<'_, f32, (Batch, One, Seq, Const<4>)> = x.unsqueeze(Ax::<1>);
    let u2: TensorView<'_, f32, (Dyn, Dyn, Dyn, Dyn)> = x.unsqueeze(-1);
    assert_eq!(u2.sizes(), &[2, 3, 4, 1]);
    let q1: TensorView<'_, f32, (Batch, Seq, Const<4>)> = u1.squeeze(Ax::<1>);
    let q2: TensorView<'_, f32, (Dyn, Dyn, Dyn)> = u1.squeeze(1);
    assert_eq!((q1.to_vec(), q2.sizes()), (x.to_vec(), &[2usize, 3, 4][..]));
    assert_eq!(u1.try_squeeze(0).unwrap_err(), ShapeError::Squeeze { axis: 0, sizes: vec![2, 1, 3, 4] });
    // movedim and diagonal (PyTorch's order: offset, dim1, dim2).
    let m1: TensorView<'_, f32, (Seq, Const<4>, Batch)> = x.movedim(Batch, Ax::<2>);
    let m2: TensorView<'_, f32, (Dyn, Dyn, Dyn)> = x.movedim(0, -1);
    assert_eq!(m1.to_vec(), m2.to_vec());
    assert_eq!(m1.to_vec(), x.movedim(0, 2).to_vec());
    let g1: TensorView<'_, f32, (Batch, Dyn)> = x.diagonal(1, Seq, Ax::<2>);
    let g2: TensorView<'_, f32, (Dyn, Dyn)> = x.diagonal(1, 1, 2);
    assert_eq!((g1.sizes(), g1.to_vec()), (g2.sizes(), g2.to_vec()));
    assert_eq!(g1.to_vec(), x.diagonal(1, 1, 2).to_vec());
    // Runtime axes out of range are errors naming them; the mutable forms take the same axes.
    assert_eq!(x.try_transpose(0, 3).unwrap_err(), ShapeError::Axis { axis: 3, rank: 3 });
    assert_eq!(x.try_select(-4, 0).unwrap_err(), ShapeError::Axis { axis: -4, rank: 3 });
    assert!(x.try_unsqueeze(4).is_err());
    assert!(x.try_diagonal(0, Seq, 1).is_err(), "the same axis twice");
    let mut y = x.clone();
    y.select_mut(Seq, 0).fill(0.0);
    y.narrow_mut(2, 0, 1).fill(-1.0);
    let (yv, xv) = (y.to_vec(), x.to_vec());
    assert_eq!(yv[12 + 2], 0.0); // (1, 0, 2)
    assert_eq!(yv[12 + 8], -1.0); // (1, 2, 0)
    assert_eq!(yv[12 + 8 + 1], xv[12 + 8 + 1]); // (1, 2, 1) untouched
}

#[test]
fn var_views_in_every_spelling_give_the_same_values_and_gradients() {
    let x =
        Tensor::<f64, (Batch, Seq, Const<4>)>::from_vec(&[2, 3, 4], (0..24).map(|v| (v as f64 / 5.0).cos()).collect());
    let grads = |f: &NamedLoss| value_and_grad(&x, f);
    fn w(k: usize) -> Tensor<f64, (Dyn,)> {
        Tensor::from_vec(&[k], (0..k).map(|i| 1.0 + i as f64).collect())
    }
    let by_const = grads(&|v| {
        let t = v.transpose(Ax::<0>, Ax::<1>).narrow(Ax::<2>, 1, 2).flip(Ax::<0>);
        let d = v.diagonal(0, Ax::<1>, Ax::<2>).select(Ax::<0>, 1);
        t.mul_scalar(2.0).sum() + d.mul(&shaped::autograd::Var::constant(w(3))).sum()
    });
    let by_name = grads(&|v| {
        let t = v.transpose(Batch, Seq).narrow(LAST_OF, 1, 2).flip(Seq);
        let d = v.diagonal(0, Seq, Ax::<2>).select(Batch, 1);
        t.mul_scalar(2.0).sum() + d.mul(&shaped::autograd::Var::constant(w(3))).sum()
    });
    let by_index = grads(&|v| {
        let t = v.transpose(0, 1).narrow(2, 1, 2).flip(0);
        let d = v.diagonal(0, 1, 2).select(0, 1);
        t.mul_scalar(2.0).sum() + d.mul(&shaped::autograd::Var::constant(w(3))).sum()
    });
    assert_eq!(by_const, by_name);
    assert_eq!(by_const, by_index);
    // The gradient: 2 on the narrowed elements (k = 1, 2), plus the weights on batch 1's diagonal.
    let g = &by_const.1;
    assert_eq!(g[1], 2.0); // (0, 0, 1)
    assert_eq!(g[12 + 4 + 1], 2.0 + 2.0); // (1, 1, 1): narrowed, and diagonal element 1 (weight 2)
    assert_eq!(g[12], 1.0); // (1, 0, 0): diagonal element 0 only
    const LAST_OF: Ax<-1> = Ax;
}

#[test]
fn joins_order_statistics_and_gathers_take_an_axis_in_every_spelling() {
    let x = bsx(2, 3);
    // cat: along a name the other dims keep their types; an `isize` gives `Dyn` dims.
    let c1: Tensor<f32, (Batch, Dyn, Const<4>)> = x.cat(&x, Seq);
    let c2: Tensor<f32, (Dyn, Dyn, Dyn)> = x.cat(&x, 1);
    let c3 = x.cat(&x, Ax::<1>);
    assert_eq!((c1.sizes(), c1.to_vec()), (c2.sizes(), c2.to_vec()));
    assert_eq!(c1.to_vec(), c3.to_vec());
    assert_eq!(c1.sizes(), &[2, 6, 4]);
    assert_eq!(x.try_cat(&x, 3).unwrap_err(), ShapeError::Axis { axis: 3, rank: 3 });
    let all: Tensor<f32, (Batch, Dyn, Const<4>)> = Tensor::cat_all(&[&x, &x, &x], Seq);
    assert_eq!(all.sizes(), &[2, 9, 4]);
    // stack: an insertion point, `Ax` or an `isize`.
    let s1: Tensor<f32, (Batch, Seq, Const<2>, Const<4>)> = Tensor::stack([&x, &x], Ax::<2>);
    let s2: Tensor<f32, (Dyn, Dyn, Dyn, Dyn)> = Tensor::stack([&x, &x], -2);
    assert_eq!((s1.sizes(), s1.to_vec()), (s2.sizes(), s2.to_vec()));
    // chunk and split: the cut dim becomes `Dyn`, the others keep their names.
    let ch: Vec<TensorView<'_, f32, (Batch, Dyn, Const<4>)>> = x.chunk(2, Seq);
    let ch2 = x.chunk(2, 1);
    assert_eq!(ch.len(), 2);
    assert_eq!((ch[0].sizes(), ch[1].to_vec()), (ch2[0].sizes(), ch2[1].to_vec()));
    assert_eq!(x.split_sizes(&[1, 2], Seq)[1].to_vec(), x.narrow(1, 1, 2).to_vec());
    // Order statistics: values along a name equal those along its position.
    let y = x.map(|v| -v);
    let (v1, i1) = y.sort(Seq, false);
    let (v2, i2) = y.sort(1, false);
    assert_eq!((v1.to_vec(), i1.to_vec()), (v2.to_vec(), i2.to_vec()));
    let (t1, _): (Tensor<f32, (Batch, Const<2>, Const<4>)>, _) = y.topk(Const::<2>, Seq, true);
    let (t2, _) = y.topk_axis(2, 1, true);
    assert_eq!(t1.to_vec(), t2.to_vec());
    let (k1, _): (Tensor<f32, (Batch, Const<4>)>, _) = y.kthvalue(2, Seq);
    let (k2, _) = y.kthvalue(2, 1);
    assert_eq!(k1.to_vec(), k2.to_vec());
    let q: Tensor<f32, (Batch, One, Const<4>)> = y.quantile_keepdim(0.5, Seq);
    assert_eq!(q.to_vec(), y.quantile_keepdim(0.5, 1).to_vec());
    assert_eq!(x.roll(1, Seq).to_vec(), x.roll(1, 1).to_vec());
    // Gathers: index_select replaces the dim by the index's; gather keeps the index's shape.
    let idx = Tensor::<i64, Shape![2]>::from([2, 0]);
    let g1: Tensor<f32, (Batch, Const<2>, Const<4>)> = x.index_select(Seq, &idx);
    let g2: Tensor<f32, (Dyn, Dyn, Dyn)> = x.index_select(1, &idx);
    assert_eq!(g1.to_vec(), g2.to_vec());
    assert_eq!(g1.to_vec(), x.index_select(1, &idx).to_vec());
    let gi = Tensor::<i64, (Batch, Const<1>, Const<4>)>::from_vec(&[2, 1, 4], vec![2, 1, 0, 2, 0, 0, 1, 2]);
    assert_eq!(x.gather(Seq, &gi).to_vec(), x.gather(1, &gi).to_vec());
    let mut z = Tensor::<f32, (Batch, Seq, Const<4>)>::zeros_sized(&[2, 3, 4]);
    z.scatter_add_(Seq, &gi, &Tensor::<f32, (Batch, Const<1>, Const<4>)>::ones_sized(&[2, 1, 4]));
    assert_eq!(z.sum(), 8.0);
    // pad, repeat and repeat_interleave: static sizes as `Const` values, the axis after them.
    let p1: Tensor<f32, (Batch, Seq, Const<5>)> = x.pad((Const::<1>, Const::<0>), Ax::<2>, PadMode::Constant, 0.0);
    let p2: Tensor<f32, (Dyn, Dyn, Dyn)> = x.pad((Const::<1>, Const::<0>), -1, PadMode::Constant, 0.0);
    assert_eq!((p1.sizes(), p1.to_vec()), (p2.sizes(), p2.to_vec()));
    let r1: Tensor<f32, (Batch, Seq, Const<8>)> = x.repeat_interleave(Const::<2>, Ax::<2>);
    let r2 = x.repeat_interleave(Const::<2>, 2);
    assert_eq!(r1.to_vec(), r2.to_vec());
    assert_eq!(x.repeat(Const::<2>, Ax::<2>).to_vec(), x.repeat(Const::<2>, -1).to_vec());
    // unfold: the axis first, then the window's size and step as `Const` values.
    let w1: TensorView<'_, f32, (Batch, Seq, Const<2>, Const<2>)> = x.unfold(Ax::<2>, Const::<2>, Const::<2>);
    let w2: TensorView<'_, f32, (Dyn, Dyn, Dyn, Dyn)> = x.unfold(-1, Const::<2>, Const::<2>);
    assert_eq!((w1.sizes(), w1.to_vec()), (w2.sizes(), w2.to_vec()));
    assert_eq!(w1.to_vec(), x.unfold_dyn(2, 2, 2).to_vec());
    assert!(x.try_unfold(3, Const::<2>, Const::<1>).is_err());
    // Iterators and shuffle_axis.
    let rows: Vec<_> = x.axis_iter(Seq).map(|v| v.to_vec()).collect();
    assert_eq!(rows, x.axis_iter(1).map(|v| v.to_vec()).collect::<Vec<_>>());
    assert_eq!(rows[2], x.select(Seq, 2).to_vec());
}

#[test]
fn var_cat_stack_and_gathers_by_name_give_the_gradients_of_the_const_forms() {
    use shaped::autograd::{Tape, Var};
    let x =
        Tensor::<f64, (Batch, Seq, Const<4>)>::from_vec(&[2, 3, 4], (0..24).map(|v| (v as f64 * 0.3).sin()).collect());
    let idx = Tensor::<i64, Shape![2]>::from([2, 0]);
    let run = |by_name: bool| {
        let tape = Tape::new();
        let v = tape.var(x.clone());
        let y = if by_name {
            let c = v.cat(&v.mul_scalar(2.0), Seq);
            let s = Var::stack([&v, &v.exp()], Ax::<0>);
            c.sum() + s.sum() + v.index_select(Seq, &idx).powi(2).sum()
        } else {
            let c = v.cat(&v.mul_scalar(2.0), Ax::<1>);
            let s = Var::stack([&v, &v.exp()], 0);
            c.sum() + s.sum() + v.index_select(1, &idx).powi(2).sum()
        };
        let g = y.backward();
        (y.item(), g.wrt(&v).unwrap().to_vec())
    };
    let (a, b) = (run(true), run(false));
    assert_eq!(a, b);
    // d/dx of x + 2x + x + exp(x) + [x selected]^2: 4 + exp(x) + 2x where selected (s = 0, 2).
    let xv = x.to_vec();
    for (k, g) in b.1.iter().enumerate() {
        let s = (k / 4) % 3;
        let want = 4.0 + xv[k].exp() + if s != 1 { 2.0 * xv[k] } else { 0.0 };
        assert!((g - want).abs() < 1e-12, "{k}: {g} vs {want}");
    }
}

#[test]
fn permute_flatten_unflatten_and_chunks_take_axes_in_every_spelling() {
    let x = bsx(2, 3);
    // permute: a tuple of `Ax` and names keeps the dims' types; an array of `isize` (PyTorch's
    // `x.permute(2, 0, 1)`) gives `Dyn` dims; a `DynShape` takes a tuple too, checked here.
    let p1: TensorView<'_, f32, (Const<4>, Batch, Seq)> = x.permute((Ax::<2>, Batch, Seq));
    let p2: TensorView<'_, f32, (Const<4>, Batch, Seq)> = x.permute((Ax::<-1>, Ax::<0>, Ax::<1>));
    let p3: TensorView<'_, f32, (Dyn, Dyn, Dyn)> = x.permute([2, 0, 1]);
    let p4: TensorView<'_, f32, (Dyn, Dyn, Dyn)> = x.permute(&[-1isize, 0, 1][..]);
    let d = x.as_dyn();
    let p5: TensorView<'_, f32, DynShape> = d.permute((Ax::<2>, Ax::<0>, Ax::<1>));
    assert_eq!(p1.sizes(), &[4, 2, 3]);
    for p in [p2.to_vec(), p3.to_vec(), p4.to_vec(), p5.to_vec(), x.as_dyn().permute([2, 0, 1]).to_vec()] {
        assert_eq!(p, p1.to_vec());
    }
    // Element (k, b, s) of the permutation is (b, s, k) of x.
    assert_eq!(p1.to_vec()[3 * 6 + 4], x.to_vec()[12 + 4 + 3]);
    assert_eq!(x.try_permute([0, 0, 1]).unwrap_err(), ShapeError::Permutation { axes: vec![0, 0, 1], rank: 3 });
    assert!(x.try_permute([0, 1]).is_err());
    assert!(matches!(x.try_permute([-4, 0, 1]), Err(ShapeError::Invalid(_))));
    assert!(d.try_permute((Ax::<0>, Ax::<1>)).is_err(), "two axes for a rank-3 DynShape");
    let mut y = x.clone();
    y.permute_mut((Seq, Ax::<2>, Batch)).select_mut(Ax::<0>, 0).fill(-1.0);
    // Every (b, 0, k) written, (0, 1, 0) untouched.
    assert_eq!((y.to_vec()[0], y.to_vec()[12 + 3], y.to_vec()[4]), (-1.0, -1.0, x.to_vec()[4]));
    // flatten_range: `Ax` and names give the product dim; `isize`s a `DynShape`.
    let f1: TensorCow<'_, f32, (Prod<Batch, Seq>, Const<4>)> = x.flatten_range(Batch, Seq);
    let f2: TensorCow<'_, f32, (Prod<Batch, Seq>, Const<4>)> = x.flatten_range(Ax::<0>, Ax::<-2>);
    let f3: TensorCow<'_, f32, DynShape> = x.flatten_range(0, 1);
    assert_eq!((f1.sizes(), f3.sizes()), (&[6usize, 4][..], &[6usize, 4][..]));
    assert_eq!(f1.to_vec(), f2.to_vec());
    assert_eq!(f1.to_vec(), f3.to_vec());
    assert_eq!(x.try_flatten_range(2, 1).unwrap_err(), x.as_dyn().try_flatten_range(2, 1).unwrap_err());
    // unflatten: a name or `Ax` with a shape value keeps the other names; runtime sizes (PyTorch's
    // `unflatten(2, (2, -1))`) give a `DynShape`.
    let u1: TensorView<'_, f32, (Batch, Seq, Const<2>, Dyn)> = x.unflatten(Ax::<2>, (Const::<2>, Dyn));
    let u2: TensorView<'_, f32, DynShape> = x.unflatten(2, [2, -1]);
    let u3: TensorView<'_, f32, DynShape> = x.unflatten(Ax::<-1>, [2, 2]);
    assert_eq!((u1.sizes(), u2.sizes()), (&[2usize, 3, 2, 2][..], &[2usize, 3, 2, 2][..]));
    assert_eq!(u1.to_vec(), u2.to_vec());
    assert_eq!(u1.to_vec(), u3.to_vec());
    let back: TensorView<'_, f32, (Batch, Seq, Const<4>)> = f1.unflatten_prod::<0>(2);
    assert_eq!(back.to_vec(), x.to_vec());
    // A name split by name keeps it where the target names it; split into anonymous sizes, the
    // name would be lost: refused at the unflatten.
    let s: TensorView<'_, f32, (Batch, Seq, One, Const<4>)> = x.unflatten(Seq, (Seq, One));
    assert_eq!(s.sizes(), &[2, 3, 1, 4]);
    assert!(matches!(x.try_unflatten(Seq, (Const::<3>, One)), Err(ShapeError::ReshapeName { name: "Seq", .. })));
    assert!(matches!(x.try_unflatten(1, [2, -1]), Err(ShapeError::Reshape { .. })));
    assert!(x.try_unflatten(3, [1, -1]).is_err());
    assert!(x.try_unflatten(0, [1, 1, 1, 1, 1, 1, 2]).is_err(), "past rank 6");
    // axis_chunks_exact: views of `Const<B>` at the axis, the rest apart, in every spelling.
    let c1: Vec<TensorView<'_, f32, (Batch, Const<2>, Const<4>)>> = x.axis_chunks_exact(Seq, Const::<2>).collect();
    let c2 = x.axis_chunks_exact(Ax::<1>, Const::<2>);
    let c3 = x.axis_chunks_exact(-2, Const::<2>);
    assert_eq!(
        (c1.len(), c2.remainder().sizes(), c3.remainder().sizes()),
        (1, &[2usize, 1, 4][..], &[2usize, 1, 4][..])
    );
    let c3: Vec<TensorView<'_, f32, (Dyn, Dyn, Dyn)>> = c3.collect();
    assert_eq!(c1[0].to_vec(), c3[0].to_vec());
    assert_eq!(c1[0].to_vec(), x.narrow(Seq, 0, 2).to_vec());
    assert_eq!(x.try_axis_chunks_exact(3, Const::<1>).unwrap_err(), ShapeError::Axis { axis: 3, rank: 3 });
    // Reductions over several axes: a tuple in increasing order keeps the other dims' types; an
    // array of `isize` in any order (PyTorch's `x.sum(dim=(2, 0))`) gives a `DynShape`.
    let s1: Tensor<f32, (Seq,)> = x.sum_axes((Batch, Ax::<2>));
    let s2: Tensor<f32, DynShape> = x.sum_axes([2, 0]);
    let s3: Tensor<f32, (Batch, One, One)> = x.sum_axes_keepdim((Seq, Ax::<-1>));
    let s4: Tensor<f32, (Dyn, Dyn, Dyn)> = x.sum_axes_keepdim([-1, 1]);
    assert_eq!((s1.sizes(), s2.to_vec()), (&[3usize][..], s1.to_vec()));
    assert_eq!(s1.to_vec(), x.sum_axis(Ax::<0>).sum_axis(Ax::<1>).to_vec());
    assert_eq!((s3.to_vec(), s4.sizes()), (x.sum_axis(Seq).sum_axis(Ax::<1>).to_vec(), &[2usize, 1, 1][..]));
    assert_eq!(s3.to_vec(), s4.to_vec());
    let m: Tensor<f32, (Const<4>,)> = x.mean_axes((Batch, Seq));
    assert_eq!(m.to_vec(), x.mean_axes([0, 1]).to_vec());
    assert_eq!(m.to_vec()[1], (0..6).map(|i| (i * 4 + 1) as f32).sum::<f32>() / 6.0);
    assert_eq!(x.try_sum_axes([0, 3]).unwrap_err(), ShapeError::Axis { axis: 3, rank: 3 });
    assert!(matches!(x.try_mean_axes_keepdim([1, -2]), Err(ShapeError::Invalid(_))), "one axis twice");
}

#[test]
fn var_permute_flatten_range_and_unflatten_in_every_spelling_give_the_same_gradients() {
    let x =
        Tensor::<f64, (Batch, Seq, Const<4>)>::from_vec(&[2, 3, 4], (0..24).map(|v| (v as f64 / 3.0).sin()).collect());
    let grads = |f: &NamedLoss| value_and_grad(&x, f);
    fn w(n: usize) -> Tensor<f64, DynShape> {
        Tensor::from_vec(&[n], (0..n).map(|i| 1.0 + i as f64).collect())
    }
    let by_const = grads(&|v| {
        let p = v.permute((Ax::<2>, Ax::<0>, Ax::<1>)).flatten_range(Ax::<1>, Ax::<2>);
        let u = v.unflatten(Ax::<2>, (Const::<2>, Const::<2>)).select(Ax::<3>, 1);
        p.flatten().mul(&shaped::autograd::Var::constant(w(24))).sum() + u.mul_scalar(3.0).sum()
    });
    let by_name = grads(&|v| {
        let p = v.permute((Ax::<-1>, Batch, Seq)).flatten_range(Batch, Seq);
        let u = v.unflatten(Ax::<-1>, (Const::<2>, Dyn)).select(Ax::<3>, 1);
        p.flatten().mul(&shaped::autograd::Var::constant(w(24))).sum() + u.mul_scalar(3.0).sum()
    });
    let by_index = grads(&|v| {
        let p = v.permute([2, 0, 1]).flatten_range(1, 2);
        let u = v.unflatten(2, [2, -1]).select(3, 1);
        p.flatten().mul(&shaped::autograd::Var::constant(w(24))).sum() + u.mul_scalar(3.0).sum()
    });
    assert_eq!(by_const, by_name);
    assert_eq!(by_const, by_index);
    // Element (b, s, k) of x is element k * 6 + b * 3 + s of the flattened permutation (weight
    // 1 + that), plus 3 where k is odd (the selected half of each unflattened pair).
    let g = &by_const.1;
    for (b, s, k) in [(0, 0, 0), (1, 2, 3), (0, 1, 1), (1, 0, 2)] {
        let expect = 1.0 + (k * 6 + b * 3 + s) as f64 + if k % 2 == 1 { 3.0 } else { 0.0 };
        assert_eq!(g[b * 12 + s * 4 + k], expect, "({b}, {s}, {k})");
    }
}

/// `pad` and `repeat_interleave` take a dim name as their axis too (and `Ax::<N>` on a named
/// dim); the named dim's new size is a new runtime size (`Dyn`), the other dims keep their names. `squeeze` refuses a name (a
/// named dim varies at run time), as it refuses `Ax::<N>` on one.
#[test]
fn pad_and_repeat_interleave_take_a_name() {
    let x = Tensor::<i32, (Batch, Seq)>::from_vec(&[2, 3], vec![1, 2, 3, 4, 5, 6]);
    let p: Tensor<i32, (Batch, Dyn)> = x.pad((Const::<1>, Const::<2>), Seq, PadMode::Constant, 0);
    assert_eq!((p.sizes(), p.to_vec()), (&[2, 6][..], vec![0, 1, 2, 3, 0, 0, 0, 4, 5, 6, 0, 0]));
    assert_eq!(p.to_vec(), x.pad((Const::<1>, Const::<2>), 1, PadMode::Constant, 0).to_vec());
    // `Ax::<N>` on a named dim likewise (`dims!` makes padding and repeating a name `Dyn`).
    let q: Tensor<i32, (Batch, Dyn)> = x.pad((Const::<1>, Const::<2>), Ax::<1>, PadMode::Constant, 0);
    assert_eq!(q.to_vec(), p.to_vec());
    let r: Tensor<i32, (Dyn, Seq)> = x.repeat_interleave(Const::<2>, Batch);
    assert_eq!((r.sizes(), r.to_vec()), (&[4, 3][..], vec![1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6]));
    assert_eq!(r.to_vec(), x.repeat_interleave(Const::<2>, Ax::<0>).to_vec());
    // Reflect padding along a name (PyTorch `F.pad(x, (1, 1), mode='reflect')`).
    let f: Tensor<i32, (Batch, Dyn)> = x.pad((Const::<1>, Const::<1>), Seq, PadMode::Reflect, 0);
    assert_eq!(f.to_vec(), [2, 1, 2, 3, 2, 5, 4, 5, 6, 5]);
}

/// `unsqueeze` and `stack` take a dim name as their insertion point: the new dim goes before the
/// named one (its position, as PyTorch's `unsqueeze(i)` puts the new dim at index `i`), and every
/// name is kept.
#[test]
fn unsqueeze_and_stack_insert_before_a_name() {
    let x = Tensor::<i32, (Batch, Seq)>::from_vec(&[2, 3], vec![1, 2, 3, 4, 5, 6]);
    let u: TensorView<'_, i32, (Batch, One, Seq)> = x.unsqueeze(Seq);
    assert_eq!((u.sizes(), u.to_vec()), (&[2, 1, 3][..], x.to_vec()));
    assert_eq!(u.sizes(), x.unsqueeze(Ax::<1>).sizes());
    let y = x.map(|v| v * 10);
    let s: Tensor<i32, (Batch, Const<2>, Seq)> = Tensor::stack([&x, &y], Seq);
    // torch.stack([x, y], dim=1)
    assert_eq!(s.to_vec(), [1, 2, 3, 10, 20, 30, 4, 5, 6, 40, 50, 60]);
    assert_eq!(s.to_vec(), Tensor::stack([&x, &y], 1).to_vec());
    // `Var` likewise (its views come from the same table).
    let v: shaped::autograd::Var<'_, f64, (Batch, One, Seq)> =
        shaped::autograd::Var::constant(x.map(|v| v as f64)).unsqueeze(Seq);
    assert_eq!(v.sizes(), [2, 1, 3]);
}
