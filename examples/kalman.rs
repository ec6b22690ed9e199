//! A constant-velocity Kalman filter tracking a point in the plane: 4-D state `[x, y, vx, vy]`,
//! 2-D position measurements. Every matrix has a static shape, so a wrong product (say `H P` for
//! `P Hᵀ`) is a compile error; the gain is computed with `solve` on the innovation covariance
//! (`K = P Hᵀ S⁻¹` as `Kᵀ = S⁻ᵀ H Pᵀ = solve(S, H P)` since `S` and `P` are symmetric), never an
//! explicit inverse. The inline tensors (`STensor`) live on the stack: the loop allocates nothing.
//!
//! Run with `cargo run --example kalman`.
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
}
