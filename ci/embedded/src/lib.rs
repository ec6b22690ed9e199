//! shaped-core's forward-mode derivatives on a microcontroller: no `std`, and an allocator that
//! refuses every request (`alloc` returns null, so an allocation would end in the allocation
//! error handler, a panic). shaped-core is `no_std + alloc`, so a binary needs *some* global
//! allocator to link; this one has no memory to give. The functions below (an extended Kalman
//! filter's Jacobians and a Gauss-Newton step) run entirely on inline tensors, and the host test
//! `tests/no_alloc.rs` (`derivatives_of_inline_tensors_allocate_nothing`) counts zero allocations
//! on the same code paths.
#![no_std]

use core::alloc::{GlobalAlloc, Layout};
use shaped_core::derivative::{hessian, jacobian, Dual2Of, DualOf, Real};
use shaped_core::num::Float;
use shaped_core::{stensor, STensor, Shape};

/// The allocator with no memory.
struct NoHeap;
// SAFETY: `alloc` returns null, the documented way to report that an allocation failed; `dealloc`
// is never called with a pointer from `alloc` (there are none) and does nothing.
unsafe impl GlobalAlloc for NoHeap {
    unsafe fn alloc(&self, _: Layout) -> *mut u8 {
        core::ptr::null_mut()
    }
    unsafe fn dealloc(&self, _: *mut u8, _: Layout) {}
}
#[global_allocator]
static HEAP: NoHeap = NoHeap;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}

/// The constant-turn-rate-and-velocity motion over `dt`: state (x, y, heading, speed, turn rate).
fn ctrv<E: Real>(s: &STensor<E, Shape![5]>, dt: f32) -> STensor<E, Shape![5]> {
    let [x, y, th, v, w] = *s.as_array();
    let dt = E::cst(dt as f64);
    let th2 = th + w * dt;
    // w is never exactly 0 in this check's inputs; the example in the repository handles w -> 0.
    stensor([x + v / w * (th2.sin() - th.sin()), y + v / w * (th.cos() - th2.cos()), th2, v, w])
}

/// Range and bearing of the state from a sensor at the origin.
fn range_bearing<E: Real>(s: &STensor<E, Shape![5]>) -> STensor<E, Shape![2]> {
    let [x, y, th, _, _] = *s.as_array();
    stensor([x.hypot(y), y.atan2(x) - th])
}

/// The EKF's two Jacobians at `state` (5x5 motion, 2x5 measurement), written row-major to `out`
/// (35 floats). Returns the sum of the entries (so that nothing is optimised away).
///
/// # Safety
/// `state` points to 5 readable floats and `out` to 35 writable ones.
#[no_mangle]
pub unsafe extern "C" fn ekf_jacobians(state: *const f32, out: *mut f32) -> f32 {
    // SAFETY: the caller's contract.
    let (s, o) = unsafe { (&*(state as *const [f32; 5]), &mut *(out as *mut [f32; 35])) };
    let x: STensor<f32, Shape![5]> = stensor(*s);
    let (_, f) = jacobian(|v: &STensor<DualOf<f32, Shape![5]>, Shape![5]>| ctrv(v, 0.1), &x);
    let (_, h) = jacobian(|v: &STensor<DualOf<f32, Shape![5]>, Shape![5]>| range_bearing(v), &x);
    let mut sum = 0.0;
    for (k, v) in f.iter().chain(h.iter()).enumerate() {
        o[k] = *v;
        sum += *v;
    }
    sum
}

/// The Hessian of a scalar cost of 4 parameters (a circle fit's squared residuals at three fixed
/// points), and one Newton step `p - H⁻¹ g`, written to `out` (4 floats).
///
/// # Safety
/// `p` points to 3 readable floats and `out` to 3 writable ones.
#[no_mangle]
pub unsafe extern "C" fn circle_newton_step(p: *const f32, out: *mut f32) {
    // SAFETY: the caller's contract.
    let (p, o) = unsafe { (&*(p as *const [f32; 3]), &mut *(out as *mut [f32; 3])) };
    let pts = [(1.0f32, 0.1f32), (-0.1, 1.05), (-0.95, -0.1), (0.05, -1.0)];
    let cost = |q: &STensor<Dual2Of<f32, Shape![3]>, Shape![3]>| {
        let [cx, cy, r] = *q.as_array();
        let mut c = Dual2Of::<f32, Shape![3]>::cst(0.0);
        for &(x, y) in &pts {
            let d = (cx - Dual2Of::<f32, Shape![3]>::cst(x as f64)).hypot(cy - Dual2Of::<f32, Shape![3]>::cst(y as f64)) - r;
            c = c + d * d;
        }
        c
    };
    let (_, g, h) = hessian(cost, &stensor(*p));
    let step = h.solve(&g);
    for k in 0..3 {
        o[k] = p[k] - step.at([k]);
    }
}
