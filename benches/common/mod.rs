//! What the benches share: the paired measurement of a subject against its baseline.
use std::time::Duration;

/// Criterion's `iter_custom` for the `paired` benchmarks of each group: per iteration,
/// `subject` (shaped) and `baseline` (the group's plain loop, `memcpy` or ndarray) timed back to
/// back, the baseline first on odd iterations; returns the median ratio of the
/// sample, in milliseconds per iteration (`1.03 ms` = shaped took 1.03x the baseline's time).
/// Calls microseconds apart see the same load from the machine's other tenants, which the
/// sequential benchmarks of a group, seconds apart, do not.
#[allow(dead_code)] // each bench binary compiles this module; not every one uses both forms
pub fn paired<A, B>(x: &mut criterion::Bencher<'_>, mut subject: impl FnMut() -> A, mut baseline: impl FnMut() -> B) {
    let time = |f: &mut dyn FnMut()| {
        let t = std::time::Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    x.iter_custom(|iters| {
        let mut ratios: Vec<f64> = (0..iters)
            .map(|i| {
                let (mut s, mut b) = (|| drop(subject()), || drop(baseline()));
                if i % 2 == 0 {
                    let ts = time(&mut s);
                    ts / time(&mut b)
                } else {
                    let tb = time(&mut b);
                    time(&mut s) / tb
                }
            })
            .collect();
        ratios.sort_by(f64::total_cmp);
        Duration::from_secs_f64(ratios[ratios.len() / 2] * 1e-3 * iters as f64)
    });
}

/// [`paired`] for work of a few nanoseconds, where one call is shorter than the clock's own
/// overhead: per iteration, `BATCH` calls of `subject` and `BATCH` calls of `baseline` timed back
/// to back (the baseline's batch first on odd iterations), and the median ratio of the sample,
/// in milliseconds per iteration as [`paired`] reports it (`1.03 ms` = 1.03x the baseline).
#[allow(dead_code)] // each bench binary compiles this module; not every one uses both forms
pub fn paired_batch<A, B>(
    x: &mut criterion::Bencher<'_>,
    mut subject: impl FnMut() -> A,
    mut baseline: impl FnMut() -> B,
) {
    const BATCH: usize = 256;
    let mut time = |which: bool| {
        let t = std::time::Instant::now();
        for _ in 0..BATCH {
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
