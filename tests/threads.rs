//! `keep_threads_awake`: the pool's other workers spinning while a closure runs. What it returns,
//! nesting, panics, one-thread pools, and results equal to the same work outside it (where the
//! kernels split at lower sizes: their splits give the one-thread bits).
use shaped::prelude::*;

type X = Tensor<f32, Shape![96, 4, 8, 8]>;
type W = Tensor<f32, Shape![8, 4, 3, 3]>;

/// A digits-sized convolution, `relu`, pooling and a product, whose splits inside the region
/// differ from outside it.
fn work(x: &X, w: &W) -> Vec<f32> {
    let h = x.conv2d(w, NoBias, Conv::<1, 1>).relu().max_pool2d(Pool::<2>);
    let h = h.reshape::<Shape![96, 128]>();
    (h.matmul(&h.t()).gelu() + 1.0).to_vec()
}

fn inputs() -> (X, W) {
    let x = Tensor::from_fn(|[n, c, i, j]| ((n * 31 + c * 7 + i * 3 + j) % 17) as f32 * 0.25 - 2.0);
    let w = Tensor::from_fn(|[o, c, i, j]| ((o * 5 + c * 3 + i + j) % 7) as f32 * 0.5 - 1.5);
    (x, w)
}

#[test]
fn awake_results_equal_the_same_work_outside() {
    let (x, w) = inputs();
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let want = one.install(|| work(&x, &w));
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let plain = pool.install(|| work(&x, &w));
        let awake = pool.install(|| shaped::keep_threads_awake(|| work(&x, &w)));
        assert_eq!(plain, want, "{threads} threads");
        assert_eq!(awake, want, "{threads} threads, awake");
        // From outside the pool's threads too (the global pool), nested, and again after.
        let nested = shaped::keep_threads_awake(|| shaped::keep_threads_awake(|| work(&x, &w)));
        assert_eq!(nested, want);
        assert_eq!(shaped::keep_threads_awake(|| 7), 7);
    }
}

#[test]
fn awake_passes_a_panic_on_and_can_run_again() {
    let (x, w) = inputs();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        pool.install(|| shaped::keep_threads_awake(|| -> u8 { panic!("inside") }))
    }));
    assert!(r.is_err());
    let want = work(&x, &w);
    assert_eq!(pool.install(|| shaped::keep_threads_awake(|| work(&x, &w))), want);
}

/// `f` on pools of one, two and three threads: the same bits each time.
fn same_on_every_pool(what: &str, f: impl Fn() -> Vec<f32> + Sync) -> Vec<f32> {
    let on = |threads: usize| rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(&f);
    let one = on(1);
    for threads in [2, 3] {
        let got = on(threads);
        assert!(one.iter().zip(&got).all(|(a, b)| a.to_bits() == b.to_bits()), "{what}: {threads} threads differ");
    }
    one
}

/// In-place operators whose right side broadcasts (a bias row, a column, a size-1 leading dim, a
/// transposed view) split across the pool by blocks of rows past the threshold: on one, two and
/// three threads the same bits, and the values of a plain loop.
#[test]
fn broadcast_compound_assignment_splits_by_rows() {
    let (r, c) = (700usize, 600usize);
    let base: Vec<f32> = (0..r * c).map(|i| ((i * 37) % 101) as f32 * 0.25 - 12.0).collect();
    let row: Tensor<f32, DynShape> = Tensor::from_vec(&[c], (0..c).map(|j| j as f32 * 0.5 - 3.0).collect());
    let col: Tensor<f32, DynShape> = Tensor::from_vec(&[r, 1], (0..r).map(|i| i as f32 - 7.0).collect());
    let square: Tensor<f32, DynShape> = Tensor::from_vec(&[c, r], (0..r * c).map(|i| (i % 13) as f32).collect());
    let lead = |v: &[f32]| Tensor::<f32, DynShape>::from_vec(&[1, r, c], v.to_vec());
    // The right side's value at `(i, j)` for case `k`, and the case's name.
    let rhs = |k: usize, i: usize, j: usize| match k {
        1 => i as f32 - 7.0,
        3 => ((j * r + i) % 13) as f32,
        _ => j as f32 * 0.5 - 3.0,
    };
    for (k, what) in ["row", "column", "row under a leading 1", "transposed view"].into_iter().enumerate() {
        let got = same_on_every_pool(what, || {
            let mut x = Tensor::<f32, DynShape>::from_vec(&[r, c], base.clone());
            match k {
                0 => x += &row,
                1 => x *= &col,
                2 => {
                    let mut y = lead(&base);
                    y -= &row;
                    return y.to_vec();
                }
                _ => x += &square.t(),
            }
            x.to_vec()
        });
        for (n, &g) in got.iter().enumerate() {
            let (i, j) = (n / c, n % c);
            let want = match k {
                1 => base[n] * rhs(k, i, j),
                2 => base[n] - rhs(k, i, j),
                _ => base[n] + rhs(k, i, j),
            };
            assert_eq!(g.to_bits(), want.to_bits(), "{what} at ({i}, {j})");
        }
    }
}

/// softmax and log_softmax over short rows (the attention weights' 64) split across the pool
/// in whole blocks: the same bits on one, two and three threads, each row summing to 1.
#[test]
fn short_row_softmax_splits_in_whole_blocks() {
    let x: Tensor<f32, DynShape> =
        Tensor::from_vec(&[96, 64, 64], (0..96 * 64 * 64).map(|i| ((i * 29) % 97) as f32 * 0.125 - 6.0).collect());
    let y = same_on_every_pool("softmax", || x.softmax(-1).to_vec());
    same_on_every_pool("log_softmax", || x.log_softmax(-1).to_vec());
    for row in y.chunks_exact(64) {
        assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }
}

/// Out-of-place operators with a broadcast or strided operand (`&x * &col`, `&row - &x`, a
/// transposed view plus a matrix) and a map of a narrowed view split across the pool by blocks of
/// rows past the threshold: on one, two and three threads the same bits, and a plain loop's
/// values, every element written (the results take recycled buffers).
#[test]
fn broadcast_zip_into_a_new_tensor_splits_by_rows() {
    let (r, c) = (700usize, 600usize);
    let base: Vec<f32> = (0..r * c).map(|i| ((i * 37) % 101) as f32 * 0.25 - 12.0).collect();
    let x = Tensor::<f32, DynShape>::from_vec(&[r, c], base.clone());
    let row: Tensor<f32, DynShape> = Tensor::from_vec(&[c], (0..c).map(|j| j as f32 * 0.5 - 3.0).collect());
    let col: Tensor<f32, DynShape> = Tensor::from_vec(&[r, 1], (0..r).map(|i| i as f32 - 7.0).collect());
    let square: Tensor<f32, DynShape> = Tensor::from_vec(&[c, r], (0..r * c).map(|i| (i % 13) as f32).collect());
    let lead = Tensor::<f32, DynShape>::from_vec(&[1, r, c], base.clone());
    let wide: Tensor<f32, DynShape> =
        Tensor::from_vec(&[r, c + 2], (0..r * (c + 2)).map(|i| (i % 13) as f32).collect());
    let cases = ["times a column", "row minus", "transposed view plus", "under a leading 1", "map of a narrowed view"];
    for (k, what) in cases.into_iter().enumerate() {
        let got = same_on_every_pool(what, || match k {
            0 => (&x * &col).to_vec(),
            1 => (&row - &x).to_vec(),
            2 => (square.t() + &x).to_vec(),
            3 => (&lead + &row).to_vec(),
            _ => wide.narrow(1, 1, c).map(|v| v * 3.0 - 1.0).to_vec(),
        });
        assert_eq!(got.len(), r * c, "{what}: size");
        for (n, &g) in got.iter().enumerate() {
            let (i, j) = (n / c, n % c);
            let want = match k {
                0 => base[n] * (i as f32 - 7.0),
                1 => (j as f32 * 0.5 - 3.0) - base[n],
                2 => ((j * r + i) % 13) as f32 + base[n],
                3 => base[n] + (j as f32 * 0.5 - 3.0),
                _ => ((i * (c + 2) + j + 1) % 13) as f32 * 3.0 - 1.0,
            };
            assert_eq!(g.to_bits(), want.to_bits(), "{what} at ({i}, {j})");
        }
    }
}
