//! Small static tensors (issue 10): the same work in one process as an inline `STensor`, a heap
//! `Tensor` of the same static shape, a `DynShape` tensor, ndarray, nalgebra's stack matrices
//! (`SMatrix`, the bar) and plain arrays (the floor). One criterion group per row of the speed guide's (src/guide/speed.md)
//! table, so the report puts the backends side by side. Run with `cargo bench --bench small`;
//! `scripts/bench_ratios.py` turns criterion's estimates into the speed guide's ratios.
use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BenchmarkGroup, Criterion};
use nalgebra as na;
use ndarray::{arr1, Array1, Array2};
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

mod common;

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.measurement_time(Duration::from_secs(1)).warm_up_time(Duration::from_millis(300)).sample_size(40);
    g
}

/// Deterministic well-conditioned values: `m[i][j]` near the identity times 4.
fn vals<const R: usize, const C: usize>(seed: usize) -> [[f32; C]; R] {
    let mut m = [[0f32; C]; R];
    for (i, row) in m.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = ((i * 7 + j * 13 + seed * 5) % 11) as f32 * 0.1 + if i == j { 4. } else { 0. };
        }
    }
    m
}

/// One backend's copy of a matrix.
struct Forms<const R: usize, const C: usize> {
    arr: [[f32; C]; R],
    inline: STensor<f32, (Const<R>, Const<C>)>,
    heap: Tensor<f32, (Const<R>, Const<C>)>,
    dynamic: Tensor<f32, DynShape>,
    nd: Array2<f32>,
    na: na::SMatrix<f32, R, C>,
}

fn forms<const R: usize, const C: usize>(seed: usize) -> Forms<R, C> {
    let arr = vals::<R, C>(seed);
    let flat: Vec<f32> = arr.iter().flatten().copied().collect();
    Forms {
        arr,
        inline: STensor::<f32, (Const<R>, Const<C>)>::new(arr),
        heap: Tensor::from_vec(&[R, C], flat.clone()),
        dynamic: Tensor::<f32, DynShape>::from_vec(&[R, C], flat.clone()),
        nd: Array2::from_shape_vec((R, C), flat).unwrap(),
        na: na::SMatrix::from_fn(|i, j| arr[i][j]),
    }
}

fn plain_matmul<const N: usize>(a: &[[f32; N]; N], b: &[[f32; N]; N]) -> [[f32; N]; N] {
    let mut c = [[0f32; N]; N];
    for i in 0..N {
        for p in 0..N {
            for j in 0..N {
                c[i][j] += a[i][p] * b[p][j];
            }
        }
    }
    c
}

macro_rules! matmul_group {
    ($c:expr, $name:literal, $n:literal) => {{
        let (a, b) = (forms::<$n, $n>(0), forms::<$n, $n>(1));
        let mut g = group($c, $name);
        g.bench_function("inline", |bn| bn.iter(|| black_box(black_box(&a.inline).matmul(black_box(&b.inline)))));
        g.bench_function("heap_static", |bn| bn.iter(|| black_box(black_box(&a.heap).matmul(black_box(&b.heap)))));
        g.bench_function("dynamic", |bn| bn.iter(|| black_box(black_box(&a.dynamic).matmul(black_box(&b.dynamic)))));
        g.bench_function("ndarray", |bn| bn.iter(|| black_box(black_box(&a.nd).dot(black_box(&b.nd)))));
        g.bench_function("nalgebra", |bn| bn.iter(|| black_box(black_box(&a.na) * black_box(&b.na))));
        g.bench_function("plain", |bn| bn.iter(|| black_box(plain_matmul(black_box(&a.arr), black_box(&b.arr)))));
        g.bench_function("paired_nalgebra", |bn| {
            common::paired_batch(
                bn,
                || black_box(black_box(&a.inline).matmul(black_box(&b.inline))),
                || black_box(black_box(&a.na) * black_box(&b.na)),
            )
        });
        g.finish();
    }};
}

fn matmul(c: &mut Criterion) {
    matmul_group!(c, "matmul_4x4", 4);
    matmul_group!(c, "matmul_16x16", 16);
}

fn mv(c: &mut Criterion) {
    let a = forms::<4, 4>(0);
    let v = [1f32, -2., 0.5, 3.];
    let vi = stensor(v);
    let vd = Tensor::<f32, DynShape>::from_vec(&[4], v.to_vec());
    let vn = arr1(&v);
    let vna = na::Vector4::from(v);
    let mut g = group(c, "mv_4x4");
    g.bench_function("inline", |bn| bn.iter(|| black_box(black_box(&a.inline).mv(black_box(&vi)))));
    g.bench_function("dynamic", |bn| {
        bn.iter(|| black_box(black_box(&a.dynamic).matmul(&black_box(&vd).try_unsqueeze(1).unwrap())))
    });
    g.bench_function("ndarray", |bn| bn.iter(|| black_box(black_box(&a.nd).dot(black_box(&vn)))));
    g.bench_function("nalgebra", |bn| bn.iter(|| black_box(black_box(&a.na) * black_box(&vna))));
    g.bench_function("plain", |bn| {
        bn.iter(|| {
            let (m, x) = (black_box(&a.arr), black_box(&v));
            black_box(core::array::from_fn::<f32, 4, _>(|i| (0..4).map(|j| m[i][j] * x[j]).sum()))
        })
    });
    // The ratio to nalgebra from batches of calls timed back to back (`1.05 ms` = 1.05x).
    g.bench_function("paired_nalgebra", |bn| {
        common::paired_batch(
            bn,
            || black_box(black_box(&a.inline).mv(black_box(&vi))),
            || black_box(black_box(&a.na) * black_box(&vna)),
        )
    });
    g.finish();
}

fn vec3(c: &mut Criterion) {
    let (p, q) = ([1f32, 2., 3.], [-0.5f32, 4., 0.25]);
    let (pi, qi) = (stensor(p), stensor(q));
    let (pd, qd) =
        (Tensor::<f32, DynShape>::from_vec(&[3], p.to_vec()), Tensor::<f32, DynShape>::from_vec(&[3], q.to_vec()));
    let (pn, qn): (Array1<f32>, Array1<f32>) = (arr1(&p), arr1(&q));
    let (pa, qa) = (na::Vector3::from(p), na::Vector3::from(q));

    let mut g = group(c, "vec3_add");
    g.bench_function("inline", |bn| bn.iter(|| black_box(*black_box(&pi) + *black_box(&qi))));
    g.bench_function("dynamic", |bn| bn.iter(|| black_box(black_box(&pd) + black_box(&qd))));
    g.bench_function("ndarray", |bn| bn.iter(|| black_box(black_box(&pn) + black_box(&qn))));
    g.bench_function("nalgebra", |bn| bn.iter(|| black_box(black_box(&pa) + black_box(&qa))));
    g.bench_function("plain", |bn| {
        bn.iter(|| {
            let (x, y) = (black_box(&p), black_box(&q));
            black_box([x[0] + y[0], x[1] + y[1], x[2] + y[2]])
        })
    });
    g.finish();

    let mut g = group(c, "vec3_dot");
    g.bench_function("inline", |bn| bn.iter(|| black_box(black_box(&pi).dot(black_box(&qi)))));
    g.bench_function("dynamic", |bn| {
        bn.iter(|| {
            black_box(
                black_box(&pd)
                    .as_view()
                    .into_static::<Shape![_]>()
                    .dot(&black_box(&qd).as_view().into_static::<Shape![_]>()),
            )
        })
    });
    g.bench_function("ndarray", |bn| bn.iter(|| black_box(black_box(&pn).dot(black_box(&qn)))));
    g.bench_function("nalgebra", |bn| bn.iter(|| black_box(black_box(&pa).dot(black_box(&qa)))));
    g.bench_function("plain", |bn| {
        bn.iter(|| {
            let (x, y) = (black_box(&p), black_box(&q));
            black_box(x[0] * y[0] + x[1] * y[1] + x[2] * y[2])
        })
    });
    g.finish();

    let mut g = group(c, "vec3_cross");
    g.bench_function("inline", |bn| bn.iter(|| black_box(black_box(&pi).cross(black_box(&qi)))));
    g.bench_function("dynamic", |bn| {
        bn.iter(|| {
            black_box(
                black_box(&pd)
                    .as_view()
                    .into_static::<Shape![_]>()
                    .cross(&black_box(&qd).as_view().into_static::<Shape![_]>()),
            )
        })
    });
    g.bench_function("nalgebra", |bn| bn.iter(|| black_box(black_box(&pa).cross(black_box(&qa)))));
    g.bench_function("plain", |bn| {
        bn.iter(|| {
            let (x, y) = (black_box(&p), black_box(&q));
            black_box([x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]])
        })
    });
    g.finish();
}

macro_rules! inv_group {
    ($c:expr, $name:literal, $n:literal) => {{
        let a = forms::<$n, $n>(3);
        let mut g = group($c, $name);
        g.bench_function("inline", |bn| bn.iter(|| black_box(black_box(&a.inline).inv())));
        g.bench_function("dynamic", |bn| bn.iter(|| black_box(black_box(&a.dynamic).inv())));
        g.bench_function("nalgebra", |bn| bn.iter(|| black_box((*black_box(&a.na)).try_inverse())));
        g.finish();
    }};
}

fn inv(c: &mut Criterion) {
    inv_group!(c, "inv_3x3", 3);
    inv_group!(c, "inv_4x4", 4);
}

/// One predict/update step of a constant-velocity Kalman filter (4-D state, 2-D measurement).
fn kalman(c: &mut Criterion) {
    type M4 = STensor<f32, Shape![4, 4]>;
    let dt = 0.1f32;
    let f_arr = [[1., 0., dt, 0.], [0., 1., 0., dt], [0., 0., 1., 0.], [0., 0., 0., 1.]];
    let q_arr = [[1e-4, 0., 0., 0.], [0., 1e-4, 0., 0.], [0., 0., 1e-2, 0.], [0., 0., 0., 1e-2]];
    let h_arr = [[1f32, 0., 0., 0.], [0., 1., 0., 0.]];
    let r_arr = [[0.05f32, 0.], [0., 0.05]];
    let eye_arr = [[1f32, 0., 0., 0.], [0., 1., 0., 0.], [0., 0., 1., 0.], [0., 0., 0., 1.]];
    let p0 = vals::<4, 4>(2);
    let x0 = [0.1f32, 0.2, 1., -1.];
    let z = [0.3f32, 0.1];

    let (f, q, h, r, eye) = (M4::new(f_arr), M4::new(q_arr), stensor(h_arr), stensor(r_arr), M4::new(eye_arr));
    let (zi, xi, pi) = (stensor(z), stensor(x0), M4::new(p0));
    let step_inline = |x: STensor<f32, Shape![4]>, p: M4| {
        let x = f.mv(&x);
        let p = f.matmul(&p).matmul(&f.t()) + q;
        let y = zi - h.mv(&x);
        let s = h.matmul(&p).matmul(&h.t()) + r;
        let k = p.matmul(&h.t()).matmul(&s.inv());
        (x + k.mv(&y), (eye - k.matmul(&h)).matmul(&p))
    };

    let dy = |a: &[[f32; 4]]| Tensor::<f32, DynShape>::from_vec(&[a.len(), 4], a.iter().flatten().copied().collect());
    let (fd, qd, hd, eyed, pd) = (dy(&f_arr), dy(&q_arr), dy(&h_arr), dy(&eye_arr), dy(&p0));
    let rd = Tensor::<f32, DynShape>::from_vec(&[2, 2], r_arr.iter().flatten().copied().collect());
    let xd = Tensor::<f32, DynShape>::from_vec(&[4, 1], x0.to_vec());
    let zd = Tensor::<f32, DynShape>::from_vec(&[2, 1], z.to_vec());
    let step_dyn = |x: &Tensor<f32, DynShape>, p: &Tensor<f32, DynShape>| {
        let ft = fd.try_transpose(0, 1).unwrap();
        let ht = hd.try_transpose(0, 1).unwrap();
        let x = fd.matmul(x);
        let p = &fd.matmul(p).matmul(&ft) + &qd;
        let y = &zd - &hd.matmul(&x);
        let s = &hd.matmul(&p).matmul(&ht) + &rd;
        let k = p.matmul(&ht).matmul(&s.inv());
        (&x + &k.matmul(&y), (&eyed - &k.matmul(&hd)).matmul(&p))
    };

    type N4 = na::Matrix4<f32>;
    let (fa, qa, ha, ra) = (
        N4::from_fn(|i, j| f_arr[i][j]),
        N4::from_fn(|i, j| q_arr[i][j]),
        na::Matrix2x4::from_fn(|i, j| h_arr[i][j]),
        na::Matrix2::from_fn(|i, j| r_arr[i][j]),
    );
    let (xa, pa, za) = (na::Vector4::from(x0), N4::from_fn(|i, j| p0[i][j]), na::Vector2::from(z));
    let step_na = |x: na::Vector4<f32>, p: N4| {
        let x = fa * x;
        let p = fa * p * fa.transpose() + qa;
        let y = za - ha * x;
        let s = ha * p * ha.transpose() + ra;
        let k = p * ha.transpose() * s.try_inverse().unwrap();
        (x + k * y, (N4::identity() - k * ha) * p)
    };

    let mut g = group(c, "kalman_step");
    g.bench_function("inline", |bn| bn.iter(|| black_box(step_inline(black_box(xi), black_box(pi)))));
    g.bench_function("dynamic", |bn| bn.iter(|| black_box(step_dyn(black_box(&xd), black_box(&pd)))));
    g.bench_function("nalgebra", |bn| bn.iter(|| black_box(step_na(black_box(xa), black_box(pa)))));
    g.finish();

    // The three forms compute the same step.
    let (xs, _) = step_inline(xi, pi);
    let (xn, _) = step_na(xa, pa);
    let (xdd, _) = step_dyn(&xd, &pd);
    for i in 0..4 {
        assert!((xs.at([i]) - xn[i]).abs() < 1e-4 && (xdd.at([i, 0]) - xn[i]).abs() < 1e-4);
    }
}

criterion_group!(benches, matmul, mv, vec3, inv, kalman);
criterion_main!(benches);
