//! Element casts (`cast::<U>()`) and random tensors (constructors, in-place fills, shuffles).
use shaped::prelude::*;
use shaped::{bf16, f16};

// ------------------------------------------------------------------------------------ casts

#[test]
fn float_to_int_saturates() {
    let x = Tensor::from([-1.7f32, 2.5, -0.5, f32::NAN, 1e10, -1e10, f32::INFINITY, f32::NEG_INFINITY]);
    assert_eq!(x.cast::<i32>().to_vec(), [-1, 2, 0, 0, i32::MAX, i32::MIN, i32::MAX, i32::MIN]);
    assert_eq!(x.cast::<u8>().to_vec(), [0, 2, 0, 0, 255, 0, 255, 0]);
    assert_eq!(x.cast::<i64>().to_vec(), [-1, 2, 0, 0, 10_000_000_000, -10_000_000_000, i64::MAX, i64::MIN]);
    let y = Tensor::from([255.9f64, 256.0, -128.5, 127.99, 9.3e18, -9.3e18]);
    assert_eq!(y.cast::<u8>().to_vec(), [255, 255, 0, 127, 255, 0]);
    assert_eq!(y.cast::<i8>().to_vec(), [127, 127, -128, 127, 127, -128]);
    assert_eq!(y.cast::<i64>().to_vec()[4..], [i64::MAX, i64::MIN]);
    assert_eq!(y.cast::<u64>().to_vec()[4..], [9_300_000_000_000_000_000, 0]);
    assert_eq!(Tensor::from([2e19f64]).cast::<usize>().to_vec(), [usize::MAX]);
    // Half types saturate the same way (exact in f32 first).
    let h = Tensor::from([f16::from_f32(300.0), f16::INFINITY, f16::NAN, f16::from_f32(-2.75)]);
    assert_eq!(h.cast::<i8>().to_vec(), [127, 127, 0, -2]);
    assert_eq!(h.cast::<u8>().to_vec(), [255, 255, 0, 0]);
    let b = Tensor::from([bf16::from_f32(1e20), bf16::NEG_INFINITY, bf16::from_f32(70000.0)]);
    assert_eq!(b.cast::<i32>().to_vec(), [i32::MAX, i32::MIN, 70144]);
}

#[test]
fn int_to_int_wraps_and_int_to_float_rounds_to_nearest_even() {
    let x = Tensor::from([300i32, -1, 128, -129]);
    assert_eq!(x.cast::<u8>().to_vec(), [44, 255, 128, 127]);
    assert_eq!(x.cast::<i8>().to_vec(), [44, -1, -128, 127]);
    assert_eq!(x.cast::<u32>().to_vec(), [300, u32::MAX, 128, 4294967167]);
    let big = Tensor::from([i64::MAX, 16_777_217, 16_777_219, -16_777_217]);
    assert_eq!(big.cast::<f32>().to_vec(), [9.223372e18, 16_777_216.0, 16_777_220.0, -16_777_216.0]);
    assert_eq!(big.cast::<f64>().to_vec()[1..], [16_777_217.0, 16_777_219.0, -16_777_217.0]);
    let u = Tensor::from([u64::MAX, 2049, 2051, 100_000]);
    assert_eq!(u.cast::<f16>().to_vec(), [f16::INFINITY, f16::from_f32(2048.0), f16::from_f32(2052.0), f16::INFINITY]);
    assert_eq!(u.cast::<f64>().to_vec()[0], 18_446_744_073_709_551_615.0);
}

#[test]
fn half_rounding() {
    // 1/3 rounds to nearest even: f16 0x3555 (0.33325195), bf16 0x3EAB (0.333984375: the dropped bits 0xAAAB are above half).
    let third = Tensor::from([1.0f32 / 3.0]);
    assert_eq!(third.cast::<f16>().at([0]).to_bits(), 0x3555);
    assert_eq!(third.cast::<bf16>().at([0]).to_bits(), 0x3EAB);
    assert_eq!(Tensor::from([1.0f64 / 3.0]).cast::<f16>().at([0]).to_bits(), 0x3555);
    assert_eq!(third.cast::<f16>().cast::<f32>().at([0]), 0.333_251_95);
    // Overflow to infinity at the midpoint 65520 (ties to even: 65536), not below.
    let x = Tensor::from([65504.0f32, 65519.0, 65520.0, -70000.0, 1e-8, f32::NAN]);
    let h = x.cast::<f16>().cast::<f32>().to_vec();
    assert_eq!(h[..4], [65504.0, 65504.0, f32::INFINITY, f32::NEG_INFINITY]);
    assert_eq!(h[4], 0.0);
    assert!(h[5].is_nan());
    // f64 -> f16 rounds once: 1 + 2^-11 + 2^-40 is above the tie between 1 and 1 + 2^-10, so it
    // rounds up (through f32 it would first become the tie, then round down to even).
    let just_above_tie = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
    assert_eq!(Tensor::from([just_above_tie]).cast::<f16>().at([0]).to_bits(), 0x3C01);
    assert_eq!(Tensor::from([1.0 + 2f64.powi(-11)]).cast::<f16>().at([0]).to_bits(), 0x3C00);
    // Same for i64 -> bf16: 2^60 + 2^52 + 1 is above the tie 2^60 + 2^52.
    let v = (1i64 << 60) + (1 << 52) + 1;
    let want = bf16::from_f64(((1i64 << 60) + (1 << 53)) as f64);
    assert_eq!(Tensor::from([v]).cast::<bf16>().at([0]), want);
    assert_eq!(Tensor::from([(1i64 << 60) + (1 << 52)]).cast::<bf16>().at([0]), bf16::from_f64((1i64 << 60) as f64));
    // Between the half types: exact in f32, rounded once.
    let m = Tensor::from([f16::MAX]).cast::<bf16>();
    assert_eq!(m.at([0]).to_f32(), 65536.0);
    assert_eq!(Tensor::from([bf16::from_f32(1e5)]).cast::<f16>().at([0]), f16::INFINITY);
    assert_eq!(Tensor::from([f16::from_f32(0.1)]).cast::<f64>().at([0]), f16::from_f32(0.1).to_f64());
}

#[test]
fn bool_casts() {
    let b = Tensor::from([true, false, true]);
    assert_eq!(b.cast::<f32>().to_vec(), [1.0, 0.0, 1.0]);
    assert_eq!(b.cast::<i8>().to_vec(), [1, 0, 1]);
    assert_eq!(b.cast::<u64>().to_vec(), [1, 0, 1]);
    assert_eq!(b.cast::<f16>().to_vec(), [f16::ONE, f16::ZERO, f16::ONE]);
    assert_eq!(b.cast::<bf16>().to_vec(), [bf16::ONE, bf16::ZERO, bf16::ONE]);
    assert_eq!(b.cast::<bool>().to_vec(), [true, false, true]);
    // x != 0, as PyTorch's .bool(): NaN is true, -0.0 false.
    let f = Tensor::from([0.0f64, -0.0, f64::NAN, 0.5, -3.0, f64::INFINITY]);
    assert_eq!(f.cast::<bool>().to_vec(), [false, false, true, true, true, true]);
    assert_eq!(Tensor::from([0i32, -3, 7]).cast::<bool>().to_vec(), [false, true, true]);
    assert_eq!(Tensor::from([f16::NEG_ZERO, f16::MIN_POSITIVE_SUBNORMAL]).cast::<bool>().to_vec(), [false, true]);
}

#[test]
fn cast_keeps_the_shape_type_and_storage_rule() {
    // Inline stays inline.
    let s = stensor([[1.5f32, -2.5], [3.9, 1e10]]);
    let c = s.cast::<i32>();
    let _: &STensor<i32, Shape![2, 2]> = &c;
    assert_eq!(c.to_vec(), [1, -2, 3, i32::MAX]);
    assert_eq!(size_of_val(&c), 16);
    // A strided view gives a heap tensor in row-major order of the view.
    let x: Tensor<f64, Shape![2, 3]> = Tensor::from([[0.5, 1.5, 2.5], [3.5, 4.5, 5.5]]);
    let t = x.t().cast::<i64>();
    let _: &Tensor<i64, Shape![3, 2]> = &t;
    assert_eq!(t.to_vec(), [0, 3, 1, 4, 2, 5]);
    let rev = t!(x[.., ..;-1]).cast::<u8>();
    assert_eq!(rev.to_vec(), [2, 1, 0, 5, 4, 3]);
    // Dynamic shapes keep theirs.
    let d = x.cast::<f32>().into_dyn().try_cast::<f64>().unwrap();
    let _: &Tensor<f64, DynShape> = &d;
    assert_eq!(d.sizes(), [2, 3]);
    let e = Tensor::<f32, Shape![_, 3]>::zeros_sized(&[0, 3]).cast::<bool>();
    let _: &Tensor<bool, Shape![_, 3]> = &e;
    assert_eq!(e.sizes(), [0, 3]);
    // Round trip through every type keeps small integers.
    let v = Tensor::from([0u8, 1, 7, 100]);
    assert_eq!(v.cast::<f16>().cast::<bf16>().cast::<i16>().cast::<f64>().cast::<usize>().cast::<u8>(), v);
}

// ----------------------------------------------------------------------------------- random
/// Random tensors (the `rand` feature, on by default).
#[cfg(feature = "rand")]
mod random {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// Sample counts for the statistical checks: large natively, small under Miri (the fixed seeds
    /// keep the checks deterministic either way).
    const N: usize = if cfg!(miri) { 400 } else { 100_000 };

    fn rng(seed: u64) -> StdRng {
        StdRng::seed_from_u64(seed)
    }

    #[test]
    fn seeded_generators_are_deterministic() {
        let a = Tensor::<f32, Shape![3, 4]>::rand(&mut rng(1));
        let b = Tensor::<f32, Shape![3, 4]>::rand(&mut rng(1));
        let c = Tensor::<f32, Shape![3, 4]>::rand(&mut rng(2));
        assert_eq!(a, b);
        assert_ne!(a, c);
        let n1 = Tensor::<f64, Shape![_, 5]>::randn_sized(&[7, 5], &mut rng(9));
        let n2 = Tensor::<f64, DynShape>::randn_sized(&[7, 5], &mut rng(9));
        assert_eq!(n1, n2);
        let mut g = rng(3);
        let p1 = Tensor::<i64, Shape![_]>::randperm(20, &mut g);
        let p2 = Tensor::<i64, Shape![_]>::randperm(20, &mut g);
        assert_ne!(p1, p2, "one generator advances");
        assert_eq!(p1, Tensor::<i64, Shape![_]>::randperm(20, &mut rng(3)));
    }

    #[test]
    fn ranges_are_respected() {
        let mut g = rng(4);
        let u = Tensor::<f32, Shape![_]>::rand_sized(&[N], &mut g).to_vec();
        assert!(u.iter().all(|&v| (0.0..1.0).contains(&v)));
        let w = Tensor::<f64, Shape![_]>::uniform_sized(&[N], -2.0, 3.0, &mut g).to_vec();
        assert!(w.iter().all(|&v| (-2.0..3.0).contains(&v)));
        assert!(w.iter().any(|&v| v < -1.9) && w.iter().any(|&v| v > 2.9));
        // Half types: a range one ulp wide never rounds up to `high`.
        let one = f16::ONE;
        let next = f16::from_bits(one.to_bits() + 1);
        let h = Tensor::<f16, Shape![_]>::uniform_sized(&[1000], one, next, &mut g);
        assert!(h.to_vec().iter().all(|&v| v == one));
        let hb = Tensor::<bf16, Shape![64]>::rand(&mut g).to_vec();
        assert!(hb.iter().all(|&v| v >= bf16::ZERO && v < bf16::ONE));
        let r = Tensor::<i32, Shape![_]>::randint_sized(&[N], -3, 4, &mut g).to_vec();
        assert!(r.iter().all(|v| (-3..4).contains(v)));
        for k in -3..4 {
            assert!(r.contains(&k), "{k} never drawn");
        }
        let z = Tensor::<usize, Shape![100]>::randint(5, 7, &mut g).to_vec();
        assert!(z.iter().all(|v| (5..7).contains(v)) && z.contains(&5) && z.contains(&6));
        let i = Tensor::<isize, Shape![100]>::randint(-1, 1, &mut g).to_vec();
        assert!(i.contains(&-1) && i.contains(&0) && !i.contains(&1));
        let e = Tensor::<u8, Shape![4]>::try_randint(5, 5, &mut g).unwrap_err();
        assert_eq!(e.to_string(), "randint: needs low < high, got low = 5, high = 5");
    }

    /// Mean and standard deviation of samples.
    fn moments(v: &[f64]) -> (f64, f64) {
        let n = v.len() as f64;
        let mean = v.iter().sum::<f64>() / n;
        let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
        (mean, var.sqrt())
    }

    #[test]
    fn normal_moments_within_four_standard_errors() {
        let n = N as f64;
        let z = Tensor::<f64, Shape![_]>::randn_sized(&[N], &mut rng(5)).to_vec();
        let (m, s) = moments(&z);
        assert!(m.abs() < 4.0 / n.sqrt(), "mean {m}");
        assert!((s - 1.0).abs() < 4.0 / (2.0 * n).sqrt(), "std {s}");
        let x = Tensor::<f32, Shape![_]>::normal_sized(&[N], 3.0, 2.0, &mut rng(6)).cast::<f64>().to_vec();
        let (m, s) = moments(&x);
        assert!((m - 3.0).abs() < 4.0 * 2.0 / n.sqrt(), "mean {m}");
        assert!((s - 2.0).abs() < 4.0 * 2.0 / (2.0 * n).sqrt(), "std {s}");
        let h = Tensor::<f16, Shape![_]>::randn_sized(&[N], &mut rng(7)).cast::<f64>().to_vec();
        let (m, s) = moments(&h);
        assert!(m.abs() < 4.0 / n.sqrt() + 1e-3 && (s - 1.0).abs() < 4.0 / (2.0 * n).sqrt() + 1e-3);
        // std 0 gives the mean everywhere.
        assert_eq!(Tensor::<f32, Shape![3]>::normal(1.5, 0.0, &mut rng(0)).to_vec(), [1.5; 3]);
        // Uniform moments too: mean 1/2, std 1/sqrt(12).
        let u = Tensor::<f64, Shape![_]>::rand_sized(&[N], &mut rng(8)).to_vec();
        let (m, s) = moments(&u);
        let sd = (1.0f64 / 12.0).sqrt();
        assert!((m - 0.5).abs() < 4.0 * sd / n.sqrt() && (s - sd).abs() < 0.01, "{m} {s}");
    }

    #[test]
    fn bernoulli_frequency() {
        let n = N as f64;
        let p = 0.3;
        let b = Tensor::<bool, Shape![_]>::bernoulli_sized(&[N], p, &mut rng(10));
        let freq = b.to_vec().iter().filter(|&&x| x).count() as f64 / n;
        assert!((freq - p).abs() < 4.0 * (p * (1.0 - p) / n).sqrt(), "frequency {freq}");
        let f = Tensor::<f32, Shape![_]>::bernoulli_sized(&[N], p, &mut rng(11)).to_vec();
        assert!(f.iter().all(|&x| x == 0.0 || x == 1.0));
        let freq = f.iter().sum::<f32>() as f64 / n;
        assert!((freq - p).abs() < 4.0 * (p * (1.0 - p) / n).sqrt(), "frequency {freq}");
        assert_eq!(Tensor::<i32, Shape![5]>::bernoulli(0.0, &mut rng(0)).to_vec(), [0; 5]);
        assert_eq!(Tensor::<u8, Shape![5]>::bernoulli(1.0, &mut rng(0)).to_vec(), [1; 5]);
        for bad in [-0.1, 1.5, f64::NAN] {
            let e = Tensor::<f32, Shape![2]>::try_bernoulli(bad, &mut rng(0)).unwrap_err();
            assert!(e.to_string().starts_with("bernoulli: needs a probability p in [0, 1]"), "{e}");
        }
    }

    #[test]
    fn randperm_is_a_permutation() {
        let mut g = rng(12);
        let n = if cfg!(miri) { 50 } else { 1000 };
        let p = Tensor::<usize, Shape![_]>::randperm(n, &mut g);
        assert_eq!(p.sizes(), [n]);
        let mut v = p.to_vec();
        assert_ne!(v, (0..n).collect::<Vec<_>>(), "shuffled");
        v.sort_unstable();
        assert_eq!(v, (0..n).collect::<Vec<_>>());
        assert_eq!(Tensor::<i64, Shape![_]>::randperm(0, &mut g).sizes(), [0]);
        assert_eq!(Tensor::<i64, Shape![_]>::randperm(1, &mut g).to_vec(), [0]);
        let mut w = Tensor::<u8, Shape![_]>::randperm(256, &mut g).to_vec();
        w.sort_unstable();
        assert_eq!(w, (0..=255).collect::<Vec<u8>>());
        let e = Tensor::<u8, Shape![_]>::try_randperm(257, &mut g).unwrap_err();
        assert_eq!(
            e.to_string(),
            "randperm(257): 256 is not exactly representable in the element type u8, so the values would repeat"
        );
        let f = Tensor::<f32, Shape![_]>::randperm(4, &mut g).to_vec();
        assert_eq!(f.iter().sum::<f32>(), 6.0);
    }

    /// A float type holds the integers up to `2^p` exactly and no odd one beyond: a permutation
    /// past that would repeat values (f16 with n = 5000 gave 3,299 distinct values, f32 with
    /// n = 2^24 + 3 gave 2^24 + 2), so it is refused before anything is sampled, as PyTorch does.
    #[test]
    fn randperm_refuses_floats_that_cannot_hold_every_index() {
        let mut g = rng(14);
        for n in [2050, 5000] {
            let e = Tensor::<f16, Shape![_]>::try_randperm(n, &mut g).unwrap_err();
            assert!(e.to_string().starts_with(&format!("randperm({n}): ")), "{e}");
            assert!(e.to_string().contains("element type f16"), "{e}");
        }
        assert!(Tensor::<bf16, Shape![_]>::try_randperm(258, &mut g).is_err());
        for n in [(1 << 24) + 2, (1 << 24) + 3] {
            let e = Tensor::<f32, Shape![_]>::try_randperm(n, &mut g).unwrap_err();
            assert!(e.to_string().contains("element type f32"), "{e}");
        }
        assert!(Tensor::<f64, Shape![_]>::try_randperm((1 << 53) + 2, &mut g).is_err());
        // The largest permutations that fit: every value distinct.
        let mut h: Vec<f32> =
            Tensor::<f16, Shape![_]>::randperm(2049, &mut g).to_vec().iter().map(|x| x.to_f32()).collect();
        h.sort_by(f32::total_cmp);
        assert_eq!(h, (0..2049).map(|i| i as f32).collect::<Vec<_>>());
        let mut b: Vec<f32> =
            Tensor::<bf16, Shape![_]>::randperm(257, &mut g).to_vec().iter().map(|x| x.to_f32()).collect();
        b.sort_by(f32::total_cmp);
        assert_eq!(b, (0..257).map(|i| i as f32).collect::<Vec<_>>());
    }

    #[test]
    fn shuffle_keeps_slices_intact() {
        let x = Tensor::<i32, Shape![6, 10]>::from_vec(&[6, 10], (0..60).collect());
        let y = x.shuffle_axis(Ax::<0>, &mut rng(13));
        let _: &Tensor<i32, Shape![6, 10]> = &y;
        let rows: Vec<Vec<i32>> = y.to_vec().chunks(10).map(<[i32]>::to_vec).collect();
        for r in &rows {
            assert!(r.windows(2).all(|w| w[1] == w[0] + 1) && r[0] % 10 == 0, "row {r:?} split");
        }
        let mut firsts: Vec<i32> = rows.iter().map(|r| r[0]).collect();
        assert_ne!(firsts, [0, 10, 20, 30, 40, 50], "shuffled");
        firsts.sort_unstable();
        assert_eq!(firsts, [0, 10, 20, 30, 40, 50]);
        // Columns along axis 1 (also of a transposed view, and with a negative runtime axis).
        let z = x.shuffle_axis(Ax::<-1>, &mut rng(14));
        let d = x.shuffle_axis(1, &mut rng(14));
        assert_eq!(z, d);
        for c in 0..10 {
            let col = t!(z[.., c]).to_vec();
            assert!(col.windows(2).all(|w| w[1] == w[0] + 10), "column {col:?} split");
        }
        let t = x.t().shuffle_axis(Ax::<0>, &mut rng(15));
        assert_eq!(t.sizes(), [10, 6]);
        for r in t.to_vec().chunks(6) {
            assert!(r.windows(2).all(|w| w[1] == w[0] + 10));
        }
        let e = x.clone().into_dyn().try_shuffle_axis(2, &mut rng(0)).unwrap_err();
        assert_eq!(e.to_string(), "axis 2 is out of range for a tensor of rank 2");
        let e = x.clone().into_dyn().try_shuffle_axis(Ax::<-3>, &mut rng(0)).unwrap_err();
        assert_eq!(e.to_string(), "axis -3 is out of range for a tensor of rank 2");
    }

    #[test]
    fn fills_through_a_strided_view_touch_only_the_view() {
        let mut x: Tensor<f32, Shape![4, 6]> = Tensor::full(-7.0);
        t!(mut x[.., 1..5;2]).uniform_(10.0, 11.0, &mut rng(16));
        for i in 0..4 {
            for j in 0..6 {
                let v = x.at([i, j]);
                if j == 1 || j == 3 {
                    assert!((10.0..11.0).contains(&v), "{i} {j} {v}");
                } else {
                    assert_eq!(v, -7.0, "{i} {j} written");
                }
            }
        }
        let mut y: Tensor<f64, Shape![3, 3]> = Tensor::zeros();
        y.select_mut(Ax::<0>, 1).normal_(5.0, 1.0, &mut rng(17));
        assert_eq!(t!(y[0, ..]).to_vec(), [0.0; 3]);
        assert_eq!(t!(y[2, ..]).to_vec(), [0.0; 3]);
        assert!(t!(y[1, ..]).to_vec().iter().all(|&v| v != 0.0));
        let mut b: Tensor<bool, Shape![2, 4]> = Tensor::zeros();
        b.narrow_mut(Ax::<1>, 2, 2).bernoulli_(1.0, &mut rng(18));
        assert_eq!(b.to_vec(), [false, false, true, true, false, false, true, true]);
        // Samples go to the coordinates in row-major order whatever the strides: filling the
        // transpose of a contiguous tensor takes the samples a contiguous [6, 4] fill takes.
        let mut c: Tensor<f32, Shape![4, 6]> = Tensor::zeros();
        c.t_mut().normal_(0.0, 1.0, &mut rng(19));
        let mut d: Tensor<f32, Shape![6, 4]> = Tensor::zeros();
        d.normal_(0.0, 1.0, &mut rng(19));
        assert_eq!(c.t(), d);
        // Inline tensors fill in place too.
        let mut s = stensor([0.0f64; 3]);
        s.uniform_(1.0, 2.0, &mut rng(20));
        assert!(s.to_vec().iter().all(|v| (1.0..2.0).contains(v)));
    }

    #[test]
    fn invalid_parameters_are_errors_and_write_nothing() {
        let mut x: Tensor<f32, Shape![2, 3]> = Tensor::from([[1., 2., 3.], [4., 5., 6.]]);
        let before = x.clone();
        let mut g = rng(21);
        let fresh: u64 = rng(21).random();
        let cases: Vec<(Result<(), ShapeError>, &str)> = vec![
            (x.try_uniform_(1.0, 1.0, &mut g), "uniform: needs finite bounds with low < high, got low = 1, high = 1"),
            (x.try_uniform_(2.0, 1.0, &mut g), "uniform: needs finite bounds with low < high, got low = 2, high = 1"),
            (
                x.try_uniform_(f32::NAN, 1.0, &mut g),
                "uniform: needs finite bounds with low < high, got low = NaN, high = 1",
            ),
            (
                x.try_uniform_(0.0, f32::INFINITY, &mut g),
                "uniform: needs finite bounds with low < high, got low = 0, high = inf",
            ),
            (
                x.try_normal_(0.0, -1.0, &mut g),
                "normal: needs a finite mean and a finite std >= 0, got mean = 0, std = -1",
            ),
            (
                x.try_normal_(0.0, f32::NAN, &mut g),
                "normal: needs a finite mean and a finite std >= 0, got mean = 0, std = NaN",
            ),
            (
                x.try_normal_(f32::NAN, 1.0, &mut g),
                "normal: needs a finite mean and a finite std >= 0, got mean = NaN, std = 1",
            ),
            (x.try_bernoulli_(1.5, &mut g), "bernoulli: needs a probability p in [0, 1], got p = 1.5"),
            (x.try_bernoulli_(f64::NAN, &mut g), "bernoulli: needs a probability p in [0, 1], got p = NaN"),
            (
                x.t_mut().try_normal_(0.0, -1.0, &mut g),
                "normal: needs a finite mean and a finite std >= 0, got mean = 0, std = -1",
            ),
        ];
        for (r, msg) in cases {
            assert_eq!(r.unwrap_err().to_string(), msg);
        }
        assert_eq!(x, before, "a failed fill wrote");
        assert_eq!(g.random::<u64>(), fresh, "a failed fill sampled");
        // A range too wide for the type is refused by rand_distr, also before writing.
        let e = x.try_uniform_(f32::MIN, f32::MAX, &mut g).unwrap_err();
        assert!(e.to_string().starts_with("uniform: "), "{e}");
        assert_eq!(x, before);
        // Constructors: parameters and sizes.
        let e = Tensor::<f64, Shape![_, 3]>::try_uniform_sized(&[2, 4], 0.0, 1.0, &mut g).unwrap_err();
        assert_eq!(e.to_string(), "sizes [2, 4] do not match shape [_, 3]");
        assert!(Tensor::<f64, Shape![2]>::try_normal(0.0, -2.0, &mut g).is_err());
        assert!(Tensor::<f16, Shape![2]>::try_uniform(f16::ONE, f16::ZERO, &mut g).is_err());
    }

    #[test]
    #[should_panic(expected = "normal: needs a finite mean and a finite std >= 0, got mean = 0, std = -1")]
    fn plain_fill_panics_with_the_message() {
        let mut x: Tensor<f64, Shape![2]> = Tensor::zeros();
        x.normal_(0.0, -1.0, &mut rng(0));
    }

    #[test]
    #[should_panic(expected = "uniform: needs finite bounds with low < high, got low = 3, high = 1")]
    fn plain_constructor_panics_with_the_message() {
        let _ = Tensor::<f32, Shape![_]>::uniform_sized(&[3], 3.0, 1.0, &mut rng(0));
    }
}
