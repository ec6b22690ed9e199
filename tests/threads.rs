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
