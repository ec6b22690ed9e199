//! What the benches share: the paired measurement of a subject against its baseline.
use std::time::Duration;

/// Criterion's `iter_custom` for the `paired` benchmarks of each group: per iteration,
/// `subject` (shaped) and `baseline` (the group's plain loop, `memcpy` or ndarray) timed back to
/// back, the baseline first on odd iterations; returns the median ratio of the
/// sample, in milliseconds per iteration (`1.03 ms` = shaped took 1.03x the baseline's time).
/// Calls microseconds apart see the same load from the machine's other tenants, which the
/// sequential benchmarks of a group, seconds apart, do not.
#[allow(dead_code)] // each bench binary compiles this module; not every one uses both forms
pub fn paired<A, B>(x: &mut criterion::Bencher<'_>, subject: impl FnMut() -> A, baseline: impl FnMut() -> B) {
    paired_calls(x, 1, subject, baseline)
}

/// [`paired`] for work of a few nanoseconds, where one call is shorter than the clock's own
/// overhead: batches of 256 calls of each side timed back to back.
#[allow(dead_code)] // each bench binary compiles this module; not every one uses both forms
pub fn paired_batch<A, B>(x: &mut criterion::Bencher<'_>, subject: impl FnMut() -> A, baseline: impl FnMut() -> B) {
    paired_calls(x, 256, subject, baseline)
}

/// The measurement of [`paired`] and [`paired_batch`]: per iteration, `calls` calls of `subject`
/// and `calls` calls of `baseline` timed back to back (the baseline's first on odd iterations);
/// the median ratio of the sample, in milliseconds per iteration.
fn paired_calls<A, B>(
    x: &mut criterion::Bencher<'_>,
    calls: usize,
    mut subject: impl FnMut() -> A,
    mut baseline: impl FnMut() -> B,
) {
    let mut time = |which: bool| {
        let t = std::time::Instant::now();
        for _ in 0..calls {
            if which {
                drop(std::hint::black_box(subject()));
            } else {
                drop(std::hint::black_box(baseline()));
            }
        }
        t.elapsed().as_secs_f64()
    };
    x.iter_custom(|iters| {
        let mut ratios: Vec<f64> = (0..iters)
            .map(|i| {
                if i % 2 == 0 {
                    let ts = time(true);
                    ts / time(false)
                } else {
                    let tb = time(false);
                    time(true) / tb
                }
            })
            .collect();
        ratios.sort_by(f64::total_cmp);
        Duration::from_secs_f64(ratios[ratios.len() / 2] * 1e-3 * iters as f64)
    });
}
