//! Gauss-Newton fit of a circle to 12 noisy points (issue 38): the residuals
//! `r_i = hypot(x_i - cx, y_i - cy) - r` of the parameters `(cx, cy, r)`, their typed Jacobian
//! `[12, 3]` from `shaped::derivative::jacobian`, and the normal equations `(JᵀJ) δ = -Jᵀr` solved
//! on inline tensors (no allocation). The answer agrees with scipy's `least_squares`
//! (tests/data/circle_fit.rs, written by scripts/circle_fit.py).
//!
//! Run with `cargo run --example circle_fit`.
use shaped::derivative::{jacobian, DualOf, Real};
use shaped::prelude::*;

#[path = "../tests/data/circle_fit.rs"]
mod data;

/// The residuals of the circle `p = (cx, cy, r)` at the data points, over any float element.
fn residuals<E: Real>(p: &STensor<E, Shape![3]>) -> STensor<E, Shape![12]> {
    let [cx, cy, r] = *p.as_array();
    STensor::from_fn(|[i]| (E::cst(data::X[i]) - cx).hypot(E::cst(data::Y[i]) - cy) - r)
}

/// Gauss-Newton from `p`: returns the parameters and the iterations taken.
fn fit(mut p: STensor<f64, Shape![3]>) -> (STensor<f64, Shape![3]>, usize) {
    for it in 1..=50 {
        let (r, j): (_, STensor<f64, Shape![12, 3]>) =
            jacobian(|q: &STensor<DualOf<f64, Shape![3]>, Shape![3]>| residuals(q), &p);
        let jt = j.t();
        let step = jt.matmul(&j).solve(&jt.mv(&r));
        p -= step;
        if step.abs().max() < 1e-14 * p.abs().max() {
            return (p, it);
        }
    }
    (p, 50)
}

fn main() {
    let (p, iterations) = fit(stensor([0.0, 0.0, 1.0]));
    let cost = residuals(&p).square().sum();
    println!(
        "Gauss-Newton: centre ({:.9}, {:.9}), radius {:.9} after {iterations} iterations; cost {cost:.6e}",
        p.at([0]),
        p.at([1]),
        p.at([2])
    );
    println!(
        "scipy:        centre ({:.9}, {:.9}), radius {:.9}; cost {:.6e}",
        data::FIT[0],
        data::FIT[1],
        data::FIT[2],
        data::COST
    );
    // scipy stops on its step tolerance with a gradient Jᵀr of 2e-9 (status 3); Gauss-Newton
    // here runs until the step is below 1e-14 relative: the two agree to 1e-9, and this fit's
    // cost is not above scipy's.
    for k in 0..3 {
        assert!((p.at([k]) - data::FIT[k]).abs() < 1e-9, "parameter {k}: {} vs scipy {}", p.at([k]), data::FIT[k]);
    }
    assert!(cost <= data::COST * (1.0 + 1e-12), "cost {cost} above scipy's {}", data::COST);
    let (_, j) = jacobian(|q: &STensor<DualOf<f64, Shape![3]>, Shape![3]>| residuals(q), &p);
    let grad = j.t().mv(&residuals(&p));
    println!("gradient Jᵀr at the fit: {:.1e} (scipy's: 2.0e-9)", grad.abs().max());
    assert!(grad.abs().max() < 1e-12);
}
