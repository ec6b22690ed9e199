//! Forward-mode derivatives of small functions (issue 38), in one process: shaped's `jacobian`
//! and `hessian` on inline tensors against num-dual 0.15 (`jacobian` / `hessian` on nalgebra's
//! `SVector`, the same functions written over its `DualNum`) and against central differences of
//! the plain f64 function (the Jacobian only: 12 evaluations). Run with `cargo bench --bench
//! jacobian`; the README's "Derivatives of small functions" quotes the ratios.
use criterion::{criterion_group, criterion_main, Criterion};
use nalgebra::SVector;
use num_dual::DualNum;
use shaped::derivative::{hessian, jacobian, Dual2Of, DualOf, Real};
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

/// The 6 -> 6 function, over shaped's element types.
#[inline(always)]
fn f6<E: Real>(x: &STensor<E, Shape![6]>) -> STensor<E, Shape![6]> {
    let [a, b, c, d, e, f] = *x.as_array();
    let one = E::ONE;
    stensor([
        a * b + c.sin(),
        d.exp() / (one + e * e),
        (f * f + a * a).sqrt(),
        (b * c * d).tanh(),
        (one + e * e).ln() * f,
        (a + f).cos() * c,
    ])
}

/// The same function over num-dual's numbers.
#[inline(always)]
fn f6_nd<D: DualNum<Primitive = f64> + Copy>(x: SVector<D, 6>) -> SVector<D, 6> {
    let (a, b, c, d, e, f) = (x[0], x[1], x[2], x[3], x[4], x[5]);
    SVector::from([
        a * b + c.sin(),
        d.exp() / (e * e + 1.0),
        (f * f + a * a).sqrt(),
        (b * c * d).tanh(),
        (e * e + 1.0).ln() * f,
        (a + f).cos() * c,
    ])
}

/// The scalar function whose Hessian is measured: a weighted sum of `f6`.
#[inline(always)]
fn g6<E: Real>(x: &STensor<E, Shape![6]>) -> E {
    let [p, q, r, s, t, u] = *f6(x).as_array();
    p + q * E::cst(2.0) + r * E::cst(3.0) + s * E::cst(4.0) + t * E::cst(5.0) + u * E::cst(6.0)
}
#[inline(always)]
fn g6_nd<D: DualNum<Primitive = f64> + Copy>(x: SVector<D, 6>) -> D {
    let y = f6_nd(x);
    y[0] + y[1] * 2.0 + y[2] * 3.0 + y[3] * 4.0 + y[4] * 5.0 + y[5] * 6.0
}

fn benches(c: &mut Criterion) {
    let x0 = [0.3, -0.4, 0.5, 0.2, -0.7, 0.9];
    let xs: STensor<f64, Shape![6]> = stensor(x0);
    let xn = SVector::<f64, 6>::from(x0);
    // Same answers first.
    let (_, j) = jacobian(|v: &STensor<DualOf<f64, Shape![6]>, Shape![6]>| f6(v), &xs);
    let (_, jn) = num_dual::jacobian(f6_nd, &xn);
    for i in 0..6 {
        for k in 0..6 {
            assert!((j.at([i, k]) - jn[(i, k)]).abs() <= 1e-14 * jn[(i, k)].abs().max(1.0));
        }
    }
    let (_, _, h) = hessian(|v: &STensor<Dual2Of<f64, Shape![6]>, Shape![6]>| g6(v), &xs);
    let (_, _, hn) = num_dual::hessian(g6_nd, &xn);
    for i in 0..6 {
        for k in 0..6 {
            assert!((h.at([i, k]) - hn[(i, k)]).abs() <= 1e-13 * hn[(i, k)].abs().max(1.0));
        }
    }

    let mut g = c.benchmark_group("jacobian_6x6");
    g.measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500)).sample_size(50);
    g.bench_function("shaped", |b| {
        b.iter(|| jacobian(|v: &STensor<DualOf<f64, Shape![6]>, Shape![6]>| f6(v), black_box(&xs)))
    });
    g.bench_function("num_dual", |b| b.iter(|| num_dual::jacobian(f6_nd, black_box(&xn))));
    g.bench_function("central_differences", |b| {
        b.iter(|| {
            let x = *black_box(&xs);
            let h = 1e-6;
            let mut jac = STensor::<f64, Shape![6, 6]>::zeros();
            for k in 0..6 {
                let (mut xp, mut xm) = (x, x);
                xp.as_array_mut()[k] += h;
                xm.as_array_mut()[k] -= h;
                let (yp, ym) = (f6(&xp), f6(&xm));
                for i in 0..6 {
                    jac.as_array_mut()[i][k] = (yp.at([i]) - ym.at([i])) / (2.0 * h);
                }
            }
            jac
        })
    });
    g.bench_function("plain_f64_function", |b| b.iter(|| f6(black_box(&xs))));
    g.finish();

    let mut g = c.benchmark_group("hessian_6");
    g.measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500)).sample_size(50);
    g.bench_function("shaped", |b| {
        b.iter(|| hessian(|v: &STensor<Dual2Of<f64, Shape![6]>, Shape![6]>| g6(v), black_box(&xs)))
    });
    g.bench_function("num_dual", |b| b.iter(|| num_dual::hessian(g6_nd, black_box(&xn))));
    g.finish();
}

criterion_group!(b, benches);
criterion_main!(b);
