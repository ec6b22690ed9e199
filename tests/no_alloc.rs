//! Inline tensors allocate nothing (issue 10): a global allocator counts the allocations of this
//! thread while loops of 4x4 matmuls, vec3 adds, dots and crosses, 4x4 inverses and Kalman
//! filter steps run on `STensor`s, including products with transposed views (`p.matmul(&f.t())`).
use shaped::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

struct Counting;
thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}
// SAFETY: forwards every call to the system allocator unchanged; the counter is a const-initialised
// thread-local `Cell` (no allocation, no destructor), so counting cannot recurse into the allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: the caller's contract for `alloc` is passed on to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this `layout` (every allocation goes there).
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: as for `alloc` and `dealloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations made by `f` on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

type M4 = STensor<f64, Shape![4, 4]>;
type V4 = STensor<f64, Shape![4]>;

/// One predict/update step of a constant-velocity Kalman filter: 4-D state (x, y, vx, vy), 2-D
/// position measurements. Returns the new state and covariance.
#[allow(clippy::too_many_arguments)]
fn kalman_step(
    x: V4,
    p: M4,
    f: &M4,
    q: &M4,
    h: &STensor<f64, Shape![2, 4]>,
    r: &STensor<f64, Shape![2, 2]>,
    z: &STensor<f64, Shape![2]>,
    eye: &M4,
) -> (V4, M4) {
    // Predict.
    let x = f.mv(&x);
    let p = f.matmul(&p).matmul(&f.t()) + q;
    // Update.
    let y = *z - h.mv(&x);
    let s = h.matmul(&p).matmul(&h.t()) + r;
    let k = p.matmul(&h.t()).matmul(&s.inv());
    let x = x + k.mv(&y);
    let p = (*eye - k.matmul(h)).matmul(&p);
    (x, p)
}

#[test]
fn inline_tensor_math_allocates_nothing() {
    let a = M4::new([[1., 2., 0., 1.], [0., 1., 3., 0.], [2., 0., 1., 1.], [1., 1., 0., 2.]]);
    let b = M4::new([[0.5, 0., 1., 0.], [1., 1., 0., 0.], [0., 2., 1., 0.], [0., 0., 0., 1.]]);
    let u = stensor([1f32, 2., 3.]);
    let v = stensor([-2f32, 0.5, 4.]);
    let dt = 0.1;
    let f = M4::new([[1., 0., dt, 0.], [0., 1., 0., dt], [0., 0., 1., 0.], [0., 0., 0., 1.]]);
    let q = M4::new([[1e-4, 0., 0., 0.], [0., 1e-4, 0., 0.], [0., 0., 1e-2, 0.], [0., 0., 0., 1e-2]]);
    let h = stensor([[1., 0., 0., 0.], [0., 1., 0., 0.]]);
    let r = stensor([[0.05, 0.], [0., 0.05]]);
    let eye = M4::new([[1., 0., 0., 0.], [0., 1., 0., 0.], [0., 0., 1., 0.], [0., 0., 0., 1.]]);

    let mut sink = 0f64;
    let n = allocations(|| {
        let (mut x, mut p) = (V4::zeros(), eye);
        // Under Miri (which interprets every instruction) a few steps show the same thing.
        let steps = if cfg!(miri) { 5 } else { 200 };
        for i in 0..steps {
            let c = black_box(&a).matmul(black_box(&b));
            let s = u + v;
            let d = u.dot(&v);
            let x3 = u.cross(&v);
            let inv = black_box(&a).inv();
            let t = (0.01 * i as f64, 0.02 * i as f64);
            let z = stensor([t.0, t.1]);
            (x, p) = kalman_step(x, p, &f, &q, &h, &r, &z, &eye);
            sink += c.sum() + f64::from(s.sum() + d + x3.sum()) + inv.sum() + x.sum();
        }
        black_box(sink);
        // The filter tracked the measurements: position near the last one, velocity near (0.1, 0.2).
        if cfg!(miri) {
            return;
        }
        assert!((x.at([0]) - 1.99).abs() < 0.05 && (x.at([1]) - 3.98).abs() < 0.1, "{x}");
        assert!((x.at([2]) - 0.1).abs() < 0.05 && (x.at([3]) - 0.2).abs() < 0.05, "{x}");
    });
    assert_eq!(n, 0, "inline tensor math allocated {n} times");
    // The counter works: a heap tensor allocates.
    assert!(allocations(|| drop(black_box(Tensor::<f64, Shape![4, 4]>::zeros()))) > 0);
}

/// A 6 -> 6 function over any float element: element-wise functions, a 3x3 product and
/// inverse, reductions (what an EKF's models and a least-squares residual use).
fn model<E: shaped::derivative::Real>(v: &STensor<E, Shape![6]>) -> STensor<E, Shape![6]> {
    let [a, b, c, d, e, f] = *v.as_array();
    let m = STensor::<E, Shape![3, 3]>::new([[a + E::cst(3.0), b, c], [d, e + E::cst(3.0), f], [c, a, E::cst(4.0)]]);
    let w = m.inv().mv(&stensor([a.sin(), b.exp(), c.tanh()]));
    let g = v.gelu().erf();
    let s = v.sum();
    STensor::new([
        w.at([0]),
        w.at([1]) * d.atan2(e),
        w.at([2]) + f.hypot(a),
        g.sum(),
        s.exp() / (E::ONE + s * s),
        m.det(),
    ])
}

#[test]
fn derivatives_of_inline_tensors_allocate_nothing() {
    use shaped::derivative::{gradient, hessian, jacobian, Dual2Of, DualOf};
    let x: STensor<f64, Shape![6]> = STensor::new([0.1, -0.2, 0.3, 0.4, -0.5, 0.6]);
    let mut sink = 0.0;
    let n = allocations(|| {
        for _ in 0..10 {
            let (y, j) = jacobian(|v: &STensor<DualOf<f64, Shape![6]>, Shape![6]>| model(v), black_box(&x));
            let (v, g) = gradient(|v: &STensor<DualOf<f64, Shape![6]>, Shape![6]>| model(v).sum(), black_box(&x));
            let (w, gh, h) = hessian(|v: &STensor<Dual2Of<f64, Shape![6]>, Shape![6]>| model(v).sum(), black_box(&x));
            sink += y.sum() + j.sum() + v + g.sum() + w + gh.sum() + h.sum();
        }
    });
    black_box(sink);
    assert_eq!(n, 0, "jacobian/gradient/hessian of inline tensors allocated {n} times");
    // The Jacobian is the plain function's slope: a central difference agrees to 1e-6.
    let (_, j) = jacobian(|v: &STensor<DualOf<f64, Shape![6]>, Shape![6]>| model(v), &x);
    for k in 0..6 {
        let mut xp = x;
        let mut xm = x;
        xp.as_array_mut()[k] += 1e-6;
        xm.as_array_mut()[k] -= 1e-6;
        let (yp, ym) = (model(&xp), model(&xm));
        for i in 0..6 {
            let fd = (yp.at([i]) - ym.at([i])) / 2e-6;
            assert!((j.at([i, k]) - fd).abs() < 1e-6 * fd.abs().max(1.0), "J[{i}, {k}] = {} vs {fd}", j.at([i, k]));
        }
    }
}
