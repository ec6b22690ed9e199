//! The cache of large freed buffers (`set_buffer_cache_limit`, issue 13): a dropped tensor of
//! 128 KiB or more serves the next large result of its element type whose size it fits, and that
//! result holds exactly the values it would hold in a fresh buffer. One test function, because the
//! cache is process-wide: tests running beside it in this binary would move its byte counts.
use shaped::prelude::*;
use shaped::{buffer_cache_bytes, set_buffer_cache_limit, ConvArgs, ConvTransposeArgs, Data, TensorBase};

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

    overwriting_kernels_leave_nothing_of_the_old_values();
    set_buffer_cache_limit(default);
}

/// The kernels that write every element of a new result take a cached buffer as it is, with the
/// values of the tensor that was dropped, not zero-filled first (`memory::try_vec_for_overwrite`).
/// Each runs here on a buffer of NaN of its result's exact size, and its result must equal, bit
/// for bit, the same call on a fresh buffer (the cache off). Empty inner dims are included: a
/// product with `k = 0` must still write its zeros.
fn overwriting_kernels_leave_nothing_of_the_old_values() {
    use shaped::autograd::nn;
    /// `f()` with the cache off, then on a cached buffer of `n` NaN (asserting that the result's
    /// buffer is that one), compared.
    fn check(what: &str, n: usize, f: impl Fn() -> Tensor<f32, DynShape>) {
        set_buffer_cache_limit(0);
        let want = f().to_vec();
        assert_eq!(want.len(), n, "{what}: result size");
        set_buffer_cache_limit(256 * MB);
        let poison = Tensor::<f32, DynShape>::full_sized(&[n], f32::NAN);
        let old = ptr(&poison);
        drop(poison);
        let got = f();
        assert_eq!(ptr(&got), old, "{what}: the result takes the poisoned buffer");
        let got = got.to_vec();
        let same = got.iter().zip(&want).all(|(g, w)| g.to_bits() == w.to_bits());
        assert!(same, "{what}: a value of the poisoned buffer survives or the result differs");
    }
    let vals = |sizes: &[usize], k: usize| {
        let n: usize = sizes.iter().product();
        Tensor::<f32, DynShape>::from_vec(sizes, (0..n).map(|i| ((i * k) % 1019) as f32 / 509.0 - 1.0).collect())
    };
    let (a, b) = (vals(&[512, 96], 7), vals(&[96, 256], 11));
    check("2-D matmul", 512 * 256, || a.matmul(&b));
    check("2-D matmul of transposed views", 256 * 512, || b.t().matmul(&a.t()));
    let (e0, e1) = (vals(&[512, 0], 1), vals(&[0, 256], 1));
    check("2-D matmul, k = 0", 512 * 256, || e0.matmul(&e1));
    let (p, q) = (vals(&[16, 64, 48], 5), vals(&[16, 48, 64], 3));
    check("batched matmul", 16 * 64 * 64, || p.matmul(&q));
    check("batched matmul of transposed views", 16 * 64 * 64, || q.transpose(1, 2).matmul(&p.transpose(1, 2)));
    let (p0, q0) = (vals(&[16, 64, 0], 1), vals(&[16, 0, 64], 1));
    check("batched matmul, k = 0", 16 * 64 * 64, || p0.matmul(&q0));
    let x = vals(&[512, 256], 13);
    check("map of a transposed view", 512 * 256, || x.t().map(|v| v * 3.0));
    // Past the element-wise threshold: blocks of rows across the pool, each writing its run.
    let (big, col) = (vals(&[1024, 512], 3), vals(&[1024, 1], 5));
    check("broadcast product (blocks of rows)", 1024 * 512, || &big * &col);
    check("map of a large narrowed view (blocks of rows)", 1024 * 500, || big.narrow(1, 6, 500).map(|v| v * 3.0));
    for axis in [0, 1, -1] {
        check(&format!("softmax({axis})"), 512 * 256, || x.softmax(axis));
        check(&format!("log_softmax({axis})"), 512 * 256, || x.log_softmax(axis));
        check(&format!("cumsum({axis})"), 512 * 256, || x.cumsum(axis));
        check(&format!("logcumsumexp({axis})"), 512 * 256, || x.logcumsumexp(axis));
    }
    check("softmax of a transposed view", 512 * 256, || x.t().softmax(-1));
    let small = x.map(|v| 1.0 + v / 4096.0);
    check("cumprod", 512 * 256, || small.cumprod(1));
    // Each path of the convolution kernel (see `kernels/conv.rs`), and the transposed one.
    let conv = |x: &[usize], w: &[usize], stride: usize, groups: usize, pad: usize| {
        let (x, w, b) = (vals(x, 3), vals(w, 5), vals(&[w[0]], 7));
        let args = ConvArgs { stride: [stride; 2], padding: [pad; 2], dilation: [1, 1], groups };
        move || x.conv2d(&w, &b, args)
    };
    check("conv2d, small images (one unrolled product)", 360 * 16 * 16, conv(&[360, 8, 4, 4], &[16, 8, 3, 3], 1, 1, 1));
    check("conv2d, narrow rows (im2col of padded planes)", 360 * 8 * 64, conv(&[360, 1, 8, 8], &[8, 1, 3, 3], 1, 1, 1));
    check("conv2d, depthwise", 8 * 16 * 1024, conv(&[8, 16, 32, 32], &[16, 1, 3, 3], 1, 16, 1));
    check("conv2d, depthwise, stride 2", 8 * 16 * 256, conv(&[8, 16, 32, 32], &[16, 1, 3, 3], 2, 16, 1));
    check("conv2d, 1x1", 8 * 8 * 1024, conv(&[8, 16, 32, 32], &[8, 16, 1, 1], 1, 1, 0));
    check("conv2d, large image, stride 1 (no im2col)", 8 * 4096, conv(&[1, 8, 64, 64], &[8, 8, 3, 3], 1, 1, 1));
    check("conv2d, large image, stride 2 (phase planes)", 8 * 4096, conv(&[1, 8, 128, 128], &[8, 8, 3, 3], 2, 1, 1));
    check("conv2d, groups 2", 4 * 16 * 1024, conv(&[4, 8, 32, 32], &[16, 4, 3, 3], 1, 2, 1));
    let (xt, wt) = (vals(&[4, 8, 32, 32], 3), vals(&[8, 8, 3, 3], 5));
    let targs =
        ConvTransposeArgs { stride: [2, 2], padding: [1, 1], output_padding: [1, 1], dilation: [1, 1], groups: 1 };
    check("conv_transpose2d", 4 * 8 * 64 * 64, || xt.conv_transpose2d(&wt, shaped::NoBias, targs));

    // Layer norm writes three new buffers: the normalised values and the row scales (which the
    // backward pass reads) and the output. All three poisoned; the input's gradient (through
    // the first two) and the output compared.
    let rows = vals(&[1 << 15, 16], 17);
    let run = || {
        let tape = shaped::autograd::Tape::new();
        let x = tape.var(rows.clone());
        let y = nn::layer_norm(&x, None, None, 1e-5);
        let g = y.square().sum().backward();
        (y.into_value(), g.wrt(&x).expect("x is tracked").clone())
    };
    set_buffer_cache_limit(0);
    let (want_y, want_g) = run();
    set_buffer_cache_limit(256 * MB);
    // Two more of the rows' size for the backward pass (the fused kernel's input gradient).
    for n in [1 << 19, 1 << 19, 1 << 19, 1 << 19, 1 << 15] {
        drop(Tensor::<f32, DynShape>::full_sized(&[n], f32::NAN));
    }
    let (y, g) = run();
    assert_eq!(y.to_vec(), want_y.to_vec(), "layer_norm's output");
    assert_eq!(g.to_vec(), want_g.to_vec(), "layer_norm's input gradient");
    // Without a tracked input the forward writes `x̂` into the output and finishes it there:
    // the same values, from a poisoned buffer too.
    let run = || nn::layer_norm(&shaped::autograd::Var::constant(rows.clone()), None, None, 1e-5).into_value();
    set_buffer_cache_limit(0);
    let want = run();
    assert_eq!(want.to_vec(), want_y.to_vec(), "layer_norm without gradients");
    set_buffer_cache_limit(256 * MB);
    for n in [1 << 19, 1 << 19, 1 << 15] {
        drop(Tensor::<f32, DynShape>::full_sized(&[n], f32::NAN));
    }
    assert_eq!(run().to_vec(), want_y.to_vec(), "layer_norm without gradients, from the cache");

    // Batch norm's fused forward writes new buffers for `x̂` (when a backward pass will read it)
    // and the output, its fused backward one for the input's gradient.
    let images = vals(&[4, 8, 64, 64], 19);
    let run = |tracked: bool| {
        let tape = shaped::autograd::Tape::new();
        let x = if tracked { tape.var(images.clone()) } else { shaped::autograd::Var::constant(images.clone()) };
        let y = nn::batch_norm(&x, None, None, None, None, true, 0.1, 1e-5);
        let g = tracked.then(|| y.square().sum().backward().wrt(&x).expect("x is tracked").clone());
        (y.into_value().to_vec(), g.map(|g| g.to_vec()))
    };
    for tracked in [true, false] {
        set_buffer_cache_limit(0);
        let want = run(tracked);
        set_buffer_cache_limit(256 * MB);
        for n in [1 << 17, 1 << 17, 1 << 17, 1 << 17] {
            drop(Tensor::<f32, DynShape>::full_sized(&[n], f32::NAN));
        }
        assert_eq!(run(tracked), want, "batch_norm's output and input gradient (tracked: {tracked})");
    }

    // Softmax's and log-softmax's fused backward write a new buffer for the input's gradient.
    for log in [false, true] {
        let run = || {
            let tape = shaped::autograd::Tape::new();
            let x = tape.var(rows.clone());
            let y = if log { x.log_softmax(-1) } else { x.softmax(-1) };
            let g = y.square().sum().backward();
            g.wrt(&x).expect("x is tracked").clone()
        };
        set_buffer_cache_limit(0);
        let want = run();
        set_buffer_cache_limit(256 * MB);
        for _ in 0..4 {
            drop(Tensor::<f32, DynShape>::full_sized(&[1 << 19], f32::NAN));
        }
        assert_eq!(run().to_vec(), want.to_vec(), "softmax's input gradient (log {log})");
    }
}
