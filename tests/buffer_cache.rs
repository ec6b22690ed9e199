//! The cache of large freed buffers (`set_buffer_cache_limit`, issue 13): a dropped tensor of
//! 128 KiB or more serves the next large result of its element type whose size it fits, and that
//! result holds exactly the values it would hold in a fresh buffer. One test function, because the
//! cache is process-wide: tests running beside it in this binary would move its byte counts.
use shaped::prelude::*;
use shaped::{buffer_cache_bytes, set_buffer_cache_limit, Data, TensorBase};

const MB: usize = 1 << 20;

/// A `[n]` f32 tensor of 2 MiB-element blocks of distinct values (no RNG needed: the values only
/// have to differ from what the reused buffer held before).
fn ramp(n: usize, scale: f32) -> Tensor<f32, DynShape> {
    Tensor::<f32, DynShape>::from_vec(&[n], (0..n).map(|i| (i % 1013) as f32 * scale).collect())
}

fn ptr<D: Data<Elem = f32>, S: Shape>(t: &TensorBase<D, S>) -> *const f32 {
    t.storage().as_ptr()
}

#[test]
fn large_buffers_are_reused_with_correct_values() {
    let default = set_buffer_cache_limit(256 * MB);
    assert_eq!(default, 256 * MB, "the documented default limit");
    set_buffer_cache_limit(0);
    set_buffer_cache_limit(256 * MB);
    assert_eq!(buffer_cache_bytes(), 0);

    // Below 128 KiB nothing is cached; from there on it is (1 MiB here, taken back below).
    drop(ramp(MB / 64, 1.0)); // 64 KiB
    assert_eq!(buffer_cache_bytes(), 0);
    drop(ramp(MB / 4, 1.0)); // 1 MiB
    assert_eq!(buffer_cache_bytes(), MB);
    let small = Tensor::<f32, DynShape>::zeros_sized(&[MB / 4]);
    assert_eq!(buffer_cache_bytes(), 0, "a 1 MiB result takes the cached 1 MiB buffer");
    drop(small);
    set_buffer_cache_limit(0);
    set_buffer_cache_limit(256 * MB);

    // A dropped 8 MiB tensor is cached, and the next 8 MiB result takes that very buffer.
    let n = 2 * MB; // 8 MiB of f32
    let (a, b) = (ramp(n, 0.5), ramp(n, 0.25));
    let garbage = Tensor::<f32, DynShape>::full_sized(&[n], f32::NAN);
    let old = ptr(&garbage);
    drop(garbage);
    assert_eq!(buffer_cache_bytes(), 8 * MB);
    let sum = &a + &b;
    assert_eq!(ptr(&sum), old, "the result reuses the cached buffer");
    assert_eq!(buffer_cache_bytes(), 0);
    let want: Vec<f32> = a.to_vec().iter().zip(b.to_vec()).map(|(x, y)| x + y).collect();
    assert_eq!(sum.to_vec(), want, "no value of the buffer's previous contents survives");

    // Other constructors and kernels that allocate: zeros, a map, a transposed copy, a clone.
    drop(sum);
    let z = Tensor::<f32, DynShape>::zeros_sized(&[n]);
    assert_eq!(ptr(&z), old);
    assert!(z.to_vec().iter().all(|&x| x == 0.0));
    drop(z);
    let m = a.map(|x| x * 2.0);
    assert_eq!(ptr(&m), old);
    assert_eq!(m.to_vec(), a.to_vec().iter().map(|x| x * 2.0).collect::<Vec<_>>());
    drop(m);
    let sq = Tensor::<f32, DynShape>::from_vec(&[1024, 2048], (0..n).map(|i| i as f32).collect());
    let sq_t = sq.t();
    let tr = sq_t.contiguous();
    assert_eq!(ptr(&tr), old);
    let (s, t) = (sq.to_vec(), tr.to_vec());
    assert!((0..2048).all(|i| (0..1024).all(|j| t[i * 1024 + j] == s[j * 2048 + i])));
    drop(tr);
    let cl = a.clone();
    assert_eq!(ptr(&cl), old);
    assert_eq!(cl.to_vec(), a.to_vec());
    drop(cl);
    drop(sq);
    assert_eq!(buffer_cache_bytes(), 16 * MB, "the copy's buffer and the reshaped tensor's");
    // A reduction's result too (the first cached of two equal buffers): the row sums of [n, 2].
    let pairs = Tensor::<f32, DynShape>::from_vec(&[n, 2], (0..2 * n).map(|i| (i % 7) as f32).collect());
    let sums = pairs.sum_axis(1);
    assert_eq!(ptr(&sums), old);
    let p = pairs.to_vec();
    assert!(sums.to_vec().iter().enumerate().all(|(i, &s)| s == p[2 * i] + p[2 * i + 1]));
    drop((sums, pairs));

    // A buffer serves only its element type, and only sizes it fits with at most a quarter
    // wasted: the 8 MiB f32 buffer does not serve an 8 MiB f64 result nor a 6 MiB f32 result.
    set_buffer_cache_limit(0);
    set_buffer_cache_limit(256 * MB);
    let big = ramp(n, 1.0);
    let big_ptr = ptr(&big);
    drop(big);
    let f64s = Tensor::<f64, DynShape>::zeros_sized(&[MB]);
    assert_eq!(buffer_cache_bytes(), 8 * MB);
    let r = ramp(MB / 2 * 3, 1.0);
    let small = &r + &r; // 6 MiB: the 8 MiB buffer would waste more than a quarter
    assert_ne!(ptr(&small), big_ptr);
    assert_eq!(buffer_cache_bytes(), 8 * MB);
    drop(r);
    assert_eq!(buffer_cache_bytes(), 14 * MB);
    let fits = Tensor::<f32, DynShape>::zeros_sized(&[n - n / 8]); // 7 MiB: a seventh wasted
    assert_eq!(ptr(&fits), big_ptr);
    drop((f64s, small, fits));

    // The limit: the oldest buffers go first; 0 empties the cache and stops caching.
    set_buffer_cache_limit(0);
    set_buffer_cache_limit(20 * MB);
    for _ in 0..3 {
        drop(ramp(n, 1.0));
    }
    assert_eq!(buffer_cache_bytes(), 16 * MB, "the third buffer evicted the first");
    assert_eq!(set_buffer_cache_limit(0), 20 * MB);
    assert_eq!(buffer_cache_bytes(), 0);
    drop(ramp(n, 1.0));
    assert_eq!(buffer_cache_bytes(), 0);

    // Process-wide: a buffer dropped on another thread serves this one.
    set_buffer_cache_limit(256 * MB);
    let other = std::thread::spawn(move || {
        let t = ramp(n, 1.0);
        let p = ptr(&t) as usize;
        drop(t);
        p
    })
    .join()
    .unwrap();
    let here = &a * &b;
    assert_eq!(ptr(&here) as usize, other);
    drop(here);
    set_buffer_cache_limit(default);
}
