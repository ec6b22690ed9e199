//! Models, not single operations: a tiny attention block against PyTorch's gradients
//! (tests/data/models_data.rs, written by scripts/models_data.py), and an MLP trained on the
//! digits data to a test accuracy.
use shaped::autograd::nn::{layer_norm, linear, mse_loss, scaled_dot_product_attention, Reduction};
use shaped::autograd::{Param, Tape, Var};
use shaped::prelude::*;

#[rustfmt::skip]
#[path = "data/models_data.rs"]
mod data;

fn close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() <= 1e-10 * (1.0 + w.abs()), "{what}[{i}]: shaped {g}, PyTorch {w}");
    }
}

#[test]
fn an_attention_block_matches_pytorch() {
    type M = Shape![8, 8];
    type V8 = Shape![8];
    let p = |v: &[f64]| Param::new(Tensor::<f64, M>::from_vec(&[8, 8], v.to_vec()));
    let q8 = |v: &[f64]| Param::new(Tensor::<f64, V8>::from_vec(&[8], v.to_vec()));
    let (wq, wk, wv, wo) = (p(data::WQ), p(data::WK), p(data::WV), p(data::WO));
    let (bo, g, b) = (q8(data::BO), q8(data::G), q8(data::B));

    let tape = Tape::new();
    let x = tape.var(Tensor::<f64, Shape![2, 5, 8]>::from_vec(&[2, 5, 8], data::X.to_vec()));
    let target = Var::constant(Tensor::<f64, Shape![2, 5, 8]>::from_vec(&[2, 5, 8], data::TARGET.to_vec()));
    let (q, k, v) =
        (linear(&x, &tape.watch(&wq), None), linear(&x, &tape.watch(&wk), None), linear(&x, &tape.watch(&wv), None));
    let a: Var<f64, Shape![2, 5, 8]> = scaled_dot_product_attention(&q, &k, &v, true);
    let h = &x + &linear(&a, &tape.watch(&wo), Some(&tape.watch(&bo)));
    let y = layer_norm(&h, Some(&tape.watch(&g)), Some(&tape.watch(&b)), 1e-5);
    let loss = mse_loss(&y, &target, Reduction::Mean);
    assert!((loss.item() - data::LOSS).abs() < 1e-12, "loss {} vs {}", loss.item(), data::LOSS);
    let grads = loss.backward();
    close(&grads.wrt(&x).unwrap().to_vec(), data::GRAD_X, "x");
    for (name, w, want) in
        [("wq", &wq, data::GRAD_WQ), ("wk", &wk, data::GRAD_WK), ("wv", &wv, data::GRAD_WV), ("wo", &wo, data::GRAD_WO)]
    {
        close(&grads.param(w).unwrap().to_vec(), want, name);
    }
    for (name, w, want) in [("bo", &bo, data::GRAD_BO), ("g", &g, data::GRAD_G), ("b", &b, data::GRAD_B)] {
        close(&grads.param(w).unwrap().to_vec(), want, name);
    }
}

/// An MLP 64-32-10 on scikit-learn's digits (the split of examples/digits_cnn.rs), trained with
/// Adam for 20 epochs: at least 0.95 test accuracy.
#[cfg(feature = "npy")]
#[test]
fn an_mlp_learns_the_digits() {
    use shaped::autograd::nn::cross_entropy;
    use shaped::autograd::optim::{Adam, AdamConfig};
    use shaped::io::NpzReader;
    use shaped::rand::SeedableRng;

    let mut npz = NpzReader::open(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/data/digits.npz")).unwrap();
    let images: Tensor<u8, Shape![_, 8, 8]> = npz.read("images").unwrap();
    let labels: Tensor<i64, Shape![_]> = npz.read("labels").unwrap();
    let (train, test): (Tensor<i64, Shape![_]>, Tensor<i64, Shape![_]>) =
        (npz.read("train").unwrap(), npz.read("test").unwrap());
    let x: Tensor<f32, Shape![_, 64]> = images.cast::<f32>().map(|v| v / 16.0).reshape::<Shape![_, 64]>().into_owned();
    let (xt, yt) = (x.index_select(Ax::<0>, &train), labels.index_select(Ax::<0>, &train));
    let (xe, ye) = (Var::constant(x.index_select(Ax::<0>, &test)), labels.index_select(Ax::<0>, &test));

    let rng = &mut shaped::rand::rngs::StdRng::seed_from_u64(3);
    let mut w1 = Param::new(Tensor::<f32, Shape![32, 64]>::uniform(-0.125, 0.125, rng));
    let mut b1 = Param::new(Tensor::<f32, Shape![32]>::zeros());
    let mut w2 = Param::new(Tensor::<f32, Shape![10, 32]>::uniform(-0.18, 0.18, rng));
    let mut b2 = Param::new(Tensor::<f32, Shape![10]>::zeros());
    let forward = |tape: &Tape<f32>,
                   w1: &Param<f32, Shape![32, 64]>,
                   b1: &Param<f32, Shape![32]>,
                   w2: &Param<f32, Shape![10, 32]>,
                   b2: &Param<f32, Shape![10]>,
                   x: &Var<f32, Shape![_, 64]>| {
        let h = linear(x, &tape.watch(w1), Some(&tape.watch(b1))).relu();
        linear(&h, &tape.watch(w2), Some(&tape.watch(b2))).detach()
    };
    let mut opt = Adam::new(AdamConfig { lr: 1e-2, ..Default::default() });
    let n = train.numel();
    for _ in 0..20 {
        let order = Tensor::<i64, Shape![_]>::randperm(n, rng);
        for s in (0..n).step_by(64) {
            let idx = order.narrow(Ax::<0>, s as isize, 64.min(n - s));
            let xb = Var::constant(xt.index_select(Ax::<0>, &idx));
            let tape = Tape::new();
            let h = linear(&xb, &tape.watch(&w1), Some(&tape.watch(&b1))).relu();
            let logits = linear(&h, &tape.watch(&w2), Some(&tape.watch(&b2)));
            let grads = cross_entropy(&logits, &yt.index_select(Ax::<0>, &idx), Reduction::Mean, 0.0).backward();
            opt.step(&mut [&mut w1, &mut b1, &mut w2, &mut b2], &grads);
        }
    }
    let logits = forward(&Tape::no_grad(), &w1, &b1, &w2, &b2, &xe);
    let pred = logits.value().argmax_axis(Ax::<1>).to_vec();
    let acc = pred.iter().zip(ye.to_vec()).filter(|(p, l)| **p == *l).count() as f64 / ye.numel() as f64;
    assert!(acc >= 0.95, "test accuracy {acc}");
}
