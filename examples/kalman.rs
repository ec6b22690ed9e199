//! A constant-velocity Kalman filter tracking a point in the plane: 4-D state `[x, y, vx, vy]`,
//! 2-D position measurements. Every matrix has a static shape, so a wrong product (say `H P` for
//! `P Hᵀ`) is a compile error; the gain is computed with `solve` on the innovation covariance
//! (`K = P Hᵀ S⁻¹` as `Kᵀ = S⁻ᵀ H Pᵀ = solve(S, H P)` since `S` and `P` are symmetric), never an
//! explicit inverse. The inline tensors (`STensor`) live on the stack: the loop allocates nothing.
//!
//! Then an extended Kalman filter (issue 38): a constant-turn-rate-and-velocity (CTRV) vehicle,
//! state `[x, y, heading, speed, turn rate]`, observed by range and bearing to a landmark. Its
//! Jacobians come from `shaped::derivative::jacobian` (forward-mode automatic differentiation
//! through the model's own code, typed `[5, 5]` and `[2, 5]`) and are checked at every step
//! against the hand-derived ones, to round-off.
//!
//! Run with `cargo run --example kalman`.
use shaped::derivative::{jacobian, DualOf, Real};
use shaped::prelude::*;
use shaped::rand::rngs::StdRng;
use shaped::rand::SeedableRng;

type M4 = STensor<f64, Shape![4, 4]>;
type V4 = STensor<f64, Shape![4]>;

fn main() {
    let dt = 0.1;
    // State transition, process noise, observation and measurement noise.
    let f = M4::new([[1., 0., dt, 0.], [0., 1., 0., dt], [0., 0., 1., 0.], [0., 0., 0., 1.]]);
    let q = M4::new([[1e-4, 0., 0., 0.], [0., 1e-4, 0., 0.], [0., 0., 1e-2, 0.], [0., 0., 0., 1e-2]]);
    let h = STensor::<f64, Shape![2, 4]>::new([[1., 0., 0., 0.], [0., 1., 0., 0.]]);
    let r = STensor::<f64, Shape![2, 2]>::new([[0.05, 0.], [0., 0.05]]);
    let eye = M4::new([[1., 0., 0., 0.], [0., 1., 0., 0.], [0., 0., 1., 0.], [0., 0., 0., 1.]]);

    // The true motion: start at the origin, move with velocity (1, -0.5).
    let truth = |k: usize| [k as f64 * dt, -0.5 * k as f64 * dt];
    // Measurement noise drawn up front, with the measurement covariance's standard deviation.
    let mut rng = StdRng::seed_from_u64(12);
    let noise = Tensor::<f64, Shape![50, 2]>::normal(0.0, 0.05f64.sqrt(), &mut rng);

    let mut x = V4::new([0., 0., 0., 0.]);
    let mut p = M4::new([[1., 0., 0., 0.], [0., 1., 0., 0.], [0., 0., 10., 0.], [0., 0., 0., 10.]]);
    for k in 1..=50 {
        // Predict.
        x = f.mv(&x);
        p = f.matmul(&p).matmul(&f.t()) + q;
        // Update with a noisy position.
        let [tx, ty] = truth(k);
        let z = STensor::<f64, Shape![2]>::new([tx + noise.at([k - 1, 0]), ty + noise.at([k - 1, 1])]);
        let y = z - h.mv(&x);
        let s = h.matmul(&p).matmul(&h.t()) + r;
        // K = P Hᵀ S⁻¹, as the transpose of solve(S, H P): [2, 2] \ [2, 4] -> [2, 4].
        let kt = s.solve(&h.matmul(&p));
        let k_gain = kt.t();
        x += k_gain.mv(&y);
        p = (eye - k_gain.matmul(&h)).matmul(&p);
        if k % 10 == 0 {
            println!(
                "step {k:2}: position ({:+.3}, {:+.3}), velocity ({:+.3}, {:+.3}); truth ({tx:+.3}, {ty:+.3})",
                x.at([0]),
                x.at([1]),
                x.at([2]),
                x.at([3])
            );
        }
    }
    // After 50 steps the velocity estimate is close to the truth.
    assert!((x.at([2]) - 1.0).abs() < 0.3 && (x.at([3]) + 0.5).abs() < 0.3, "velocity {x}");
    // The same gain through an explicit inverse agrees.
    let s = h.matmul(&p).matmul(&h.t()) + r;
    let k_inv = p.matmul(&h.t()).matmul(&s.inv());
    let kt = s.solve(&h.matmul(&p));
    assert!(k_inv.allclose(&kt.t(), 1e-9, 1e-12));
    println!("P = {p}");
    ekf();
}

type S5 = Shape![5];
const DT: f64 = 0.1;
const LANDMARK: [f64; 2] = [4.0, 3.0];

/// CTRV motion over `DT` (turn rate away from 0, as in this run), over any float element:
/// plain `f64` for the filter, duals for its Jacobian.
fn ctrv<E: Real>(s: &STensor<E, S5>) -> STensor<E, S5> {
    let [x, y, th, v, w] = *s.as_array();
    let th2 = th + w * E::cst(DT);
    stensor([x + v / w * (th2.sin() - th.sin()), y + v / w * (th.cos() - th2.cos()), th2, v, w])
}

/// Range and bearing (relative to the heading) of the landmark.
fn range_bearing<E: Real>(s: &STensor<E, S5>) -> STensor<E, Shape![2]> {
    let [x, y, th, _, _] = *s.as_array();
    let (dx, dy) = (E::cst(LANDMARK[0]) - x, E::cst(LANDMARK[1]) - y);
    stensor([dx.hypot(dy), dy.atan2(dx) - th])
}

/// The CTRV Jacobian by hand.
fn ctrv_jacobian(s: &STensor<f64, S5>) -> STensor<f64, Shape![5, 5]> {
    let [_, _, th, v, w] = *s.as_array();
    let th2 = th + w * DT;
    let (s1, c1, s2, c2) = (th.sin(), th.cos(), th2.sin(), th2.cos());
    STensor::new([
        [1., 0., v / w * (c2 - c1), (s2 - s1) / w, -v / (w * w) * (s2 - s1) + v * DT * c2 / w],
        [0., 1., v / w * (s2 - s1), (c1 - c2) / w, -v / (w * w) * (c1 - c2) + v * DT * s2 / w],
        [0., 0., 1., 0., DT],
        [0., 0., 0., 1., 0.],
        [0., 0., 0., 0., 1.],
    ])
}

/// The range-bearing Jacobian by hand.
fn range_bearing_jacobian(s: &STensor<f64, S5>) -> STensor<f64, Shape![2, 5]> {
    let [x, y, ..] = *s.as_array();
    let (dx, dy) = (LANDMARK[0] - x, LANDMARK[1] - y);
    let q = dx * dx + dy * dy;
    let r = q.sqrt();
    STensor::new([[-dx / r, -dy / r, 0., 0., 0.], [dy / q, -dx / q, -1., 0., 0.]])
}

/// Largest `|a - b| / max(1, |b|)` over the elements.
fn rel_diff<S: Shape>(a: &Tensor<f64, S>, b: &Tensor<f64, S>) -> f64 {
    a.iter().zip(b.iter()).map(|(a, b)| (a - b).abs() / b.abs().max(1.0)).fold(0.0, f64::max)
}

/// The extended Kalman filter on the CTRV model, Jacobians from `jacobian`.
fn ekf() {
    let mut rng = StdRng::seed_from_u64(38);
    let noise = Tensor::<f64, Shape![80, 2]>::normal(0.0, 1.0, &mut rng);
    let (sr, sb) = (0.05, 0.02); // range and bearing standard deviations
    let r = STensor::<f64, Shape![2, 2]>::new([[sr * sr, 0.], [0., sb * sb]]);
    let q = STensor::<f64, Shape![5, 5]>::from_fn(|[i, j]| if i == j { [1e-4, 1e-4, 1e-4, 1e-3, 1e-3][i] } else { 0. });
    let eye = STensor::<f64, Shape![5, 5]>::eye();
    // The truth turns at 0.3 rad/s at 1 m/s; the filter starts off in speed and turn rate.
    let mut truth = STensor::<f64, S5>::new([0., 0., 0., 1.0, 0.3]);
    let mut x = STensor::<f64, S5>::new([0.1, -0.1, 0.05, 0.7, 0.2]);
    let mut p = STensor::<f64, Shape![5, 5]>::from_fn(|[i, j]| if i == j { [0.1, 0.1, 0.1, 0.5, 0.5][i] } else { 0. });
    let mut worst = 0.0f64;
    for k in 0..80 {
        truth = ctrv(&truth);
        let z0 = range_bearing(&truth);
        let z =
            STensor::<f64, Shape![2]>::new([z0.at([0]) + sr * noise.at([k, 0]), z0.at([1]) + sb * noise.at([k, 1])]);
        // Predict, with F = ∂f/∂x at the current estimate: [5, 5] by its type.
        let (xp, f): (_, STensor<f64, Shape![5, 5]>) = jacobian(|s: &STensor<DualOf<f64, S5>, S5>| ctrv(s), &x);
        worst = worst.max(rel_diff(&f.to_heap(), &ctrv_jacobian(&x).to_heap()));
        x = xp;
        p = f.matmul(&p).matmul(&f.t()) + q;
        // Update, with H = ∂h/∂x at the prediction: [2, 5].
        let (zp, h): (_, STensor<f64, Shape![2, 5]>) =
            jacobian(|s: &STensor<DualOf<f64, S5>, S5>| range_bearing(s), &x);
        worst = worst.max(rel_diff(&h.to_heap(), &range_bearing_jacobian(&x).to_heap()));
        let mut y = z - zp;
        // The bearing innovation wrapped to (-π, π].
        let b = y.at([1]);
        y.as_array_mut()[1] = b - (b / std::f64::consts::TAU).round() * std::f64::consts::TAU;
        let s = h.matmul(&p).matmul(&h.t()) + r;
        let kt = s.solve(&h.matmul(&p));
        x += kt.t().mv(&y);
        p = (eye - kt.t().matmul(&h)).matmul(&p);
        if (k + 1) % 20 == 0 {
            println!(
                "EKF step {:2}: speed {:.3} (truth 1.000), turn rate {:.3} (truth 0.300), position error {:.3}",
                k + 1,
                x.at([3]),
                x.at([4]),
                (x.at([0]) - truth.at([0])).hypot(x.at([1]) - truth.at([1]))
            );
        }
    }
    println!("EKF: largest relative difference between jacobian() and the hand-derived Jacobians: {worst:.1e}");
    assert!(worst < 1e-13, "jacobian() differs from the hand-derived Jacobians by {worst}");
    assert!((x.at([3]) - 1.0).abs() < 0.1 && (x.at([4]) - 0.3).abs() < 0.05, "EKF estimate {x}");
}
