//! Layers and operations a network uses, beyond the ones the other benches measure, each timed
//! alone on the same data as `scripts/layers_torch.py` times PyTorch's (issue 51: "other layers
//! and networks against PyTorch"): the minimum of repeated runs over one second (at least 5, at
//! most 2,000), printed in µs, one line a case, in the script's order and names. Run both under
//! one thread (`RAYON_NUM_THREADS=1 cargo bench --bench layers`, `python3
//! scripts/layers_torch.py`) and compare line by line; `guide::speed` holds a run. Words after `--` keep the cases whose names
//! start with one. A plain timer,
//! not criterion: forty cases in about a minute, the minimum being what a survey of ratios needs.
use shaped::autograd::{nn, Tape, Var};
use shaped::prelude::*;
use shaped::rand::SeedableRng;
use std::hint::black_box;
use std::time::Instant;

fn time(name: &str, mut f: impl FnMut()) {
    // `cargo bench --bench layers -- max cumsum`: only the cases whose names start with a word
    // given.
    let words: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    if !words.is_empty() && !words.iter().any(|w| name.starts_with(w.as_str())) {
        return;
    }
    f();
    let mut best = f64::MAX;
    let t0 = Instant::now();
    let mut n = 0;
    while (t0.elapsed().as_secs_f64() < 1.0 || n < 5) && n < 2000 {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed().as_secs_f64());
        n += 1;
    }
    println!("{name:50} {:10.1} us", best * 1e6);
}

fn main() {
    let rng = &mut shaped::rand::rngs::StdRng::seed_from_u64(1);
    // layer norm
    let x = Tensor::<f32, Shape![2048, 384]>::randn(rng);
    let w = Tensor::<f32, Shape![384]>::randn(rng);
    let b = Tensor::<f32, Shape![384]>::randn(rng);
    let (xc0, wc0, bc0) = (Var::constant(x.clone()), Var::constant(w.clone()), Var::constant(b.clone()));
    time("layer_norm [2048,384] fwd", || {
        black_box(nn::layer_norm(&xc0, Some(&wc0), Some(&bc0), 1e-5).into_value());
    });
    time("layer_norm [2048,384] fwd+bwd", || {
        let t = Tape::new();
        let (xv, wv, bv) = (t.var(x.clone()), t.var(w.clone()), t.var(b.clone()));
        black_box(nn::layer_norm(&xv, Some(&wv), Some(&bv), 1e-5).sum().backward());
    });
    // batch norm
    let xb = Tensor::<f32, Shape![32, 64, 28, 28]>::randn(rng);
    let wc = Tensor::<f32, Shape![64]>::randn(rng);
    let bc = Tensor::<f32, Shape![64]>::randn(rng);
    let (xbc, wcc, bcc) = (Var::constant(xb.clone()), Var::constant(wc.clone()), Var::constant(bc.clone()));
    time("batch_norm train [32,64,28,28] fwd", || {
        black_box(nn::batch_norm(&xbc, None, None, Some(&wcc), Some(&bcc), true, 0.1, 1e-5).into_value());
    });
    time("batch_norm train [32,64,28,28] fwd+bwd", || {
        let t = Tape::new();
        let (xv, wv, bv) = (t.var(xb.clone()), t.var(wc.clone()), t.var(bc.clone()));
        black_box(nn::batch_norm(&xv, None, None, Some(&wv), Some(&bv), true, 0.1, 1e-5).sum().backward());
    });
    // softmax
    let xs = Tensor::<f32, Shape![32, 12, 64, 64]>::randn(rng);
    time("softmax [32,12,64,64] -1 fwd", || {
        black_box(xs.softmax(Ax::<-1>));
    });
    // The weights as one constant, as the script's `xs` (a clone per run was 6 MB of copying
    // that PyTorch's case does not do).
    let xs_const = Var::constant(xs.clone());
    time("softmax [32,12,64,64] -1 fwd+bwd", || {
        let t = Tape::new();
        let xv = t.var(xs.clone());
        black_box((xv.softmax(Ax::<-1>) * xs_const.clone()).sum().backward());
    });
    let xl = Tensor::<f32, Shape![4096, 1000]>::randn(rng);
    let tg = Tensor::<i64, Shape![4096]>::from_vec(&[4096], (0..4096).map(|i| (i * 37 % 1000) as i64).collect());
    time("log_softmax [4096,1000] fwd", || {
        black_box(xl.log_softmax(Ax::<1>));
    });
    time("cross_entropy [4096,1000] fwd+bwd", || {
        let t = Tape::new();
        let xv = t.var(xl.clone());
        black_box(nn::cross_entropy(&xv, &tg, nn::Reduction::Mean, 0.0).backward());
    });
    // embedding
    let emb = Tensor::<f32, Shape![30522, 384]>::randn(rng);
    let ids =
        Tensor::<i64, Shape![32, 64]>::from_vec(&[32, 64], (0..2048).map(|i| (i * 7919 % 30522) as i64).collect());
    let embc = Var::constant(emb.clone());
    time("embedding [32,64] of [30522,384] fwd", || {
        black_box(nn::embedding(&ids, &embc).into_value());
    });
    time("embedding [32,64] of [30522,384] fwd+bwd", || {
        let t = Tape::new();
        let ev = t.var(emb.clone());
        black_box(nn::embedding(&ids, &ev).sum().backward());
    });
    // elementwise
    let e = Tensor::<f32, Shape![1000000]>::randn(rng);
    time("sigmoid [1e6]", || {
        black_box(e.sigmoid());
    });
    time("tanh [1e6]", || {
        black_box(e.tanh());
    });
    time("silu [1e6]", || {
        black_box(e.silu());
    });
    time("exp [1e6]", || {
        black_box(e.exp());
    });
    time("relu [1e6]", || {
        black_box(e.relu());
    });
    time("sigmoid [1e6] fwd+bwd", || {
        let t = Tape::new();
        black_box(t.var(e.clone()).sigmoid().sum().backward());
    });
    time("tanh [1e6] fwd+bwd", || {
        let t = Tape::new();
        black_box(t.var(e.clone()).tanh().sum().backward());
    });
    // reductions
    let r = Tensor::<f32, Shape![32, 64, 384]>::randn(rng);
    time("sum -1 [32,64,384]", || {
        black_box(r.sum_axis(Ax::<-1>));
    });
    time("sum 1 [32,64,384]", || {
        black_box(r.sum_axis(Ax::<1>));
    });
    time("mean all [32,64,384]", || {
        black_box(r.mean());
    });
    time("var -1 [32,64,384]", || {
        black_box(r.var_axis(Ax::<-1>, 1));
    });
    time("max -1 [32,64,384]", || {
        black_box(r.max_axis(Ax::<-1>));
    });
    time("argmax -1 [32,64,384]", || {
        black_box(r.argmax_axis(Ax::<-1>));
    });
    time("cumsum -1 [32,64,384]", || {
        black_box(r.cumsum(Ax::<-1>));
    });
    // batched matmul
    let q = Tensor::<f32, Shape![32, 12, 64, 64]>::randn(rng);
    time("bmm [32,12,64,64]@[32,12,64,64]", || {
        black_box(q.matmul(&q));
    });
    // transpose copy
    time("transpose(1,2).contiguous [32,12,64,64]", || {
        black_box(q.transpose(Ax::<1>, Ax::<2>).contiguous());
    });
    // sort
    let s = Tensor::<f32, Shape![1000, 1000]>::randn(rng);
    time("sort -1 [1000,1000]", || {
        black_box(s.sort(Ax::<-1>, false));
    });
    time("topk 10 -1 [1000,1000]", || {
        black_box(s.topk(Const::<10>, Ax::<-1>, true));
    });
    // conv transpose
    let xc = Tensor::<f32, Shape![16, 64, 16, 16]>::randn(rng);
    let wt = Tensor::<f32, Shape![64, 32, 4, 4]>::randn(rng);
    time("conv_transpose2d [16,64,16,16] 64->32 k4 s2 p1", || {
        black_box(xc.conv_transpose2d(
            &wt,
            shaped::NoBias,
            shaped::ConvTransposeArgs { stride: [2, 2], padding: [1, 1], ..Default::default() },
        ));
    });
    // adaptive avg pool
    let xa = Tensor::<f32, Shape![32, 512, 7, 7]>::randn(rng);
    time("adaptive_avg_pool2d [32,512,7,7] -> 1", || {
        black_box(xa.adaptive_avg_pool2d::<1, 1>());
    });
    let xp = Tensor::<f32, Shape![32, 64, 56, 56]>::randn(rng);
    time("avg_pool2d 2 [32,64,56,56]", || {
        black_box(xp.avg_pool2d(Pool::<2>, false));
    });
    time("max_pool2d 2 [32,64,56,56] fwd+bwd", || {
        let t = Tape::new();
        black_box(t.var(xp.clone()).max_pool2d(Pool::<2>).sum().backward());
    });
    time("add bcast [32,64,56,56]+[64,1,1]", || {
        black_box(&xp + &Tensor::<f32, Shape![64, 1, 1]>::ones());
    });
}
