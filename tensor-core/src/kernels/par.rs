//! When a contiguous kernel splits its work across rayon's pool: the thresholds measured per
//! kind of work, and the test against the current pool; [`keep_threads_awake`], inside which the
//! pool's other workers spin and the thresholds are lower.

/// Element count from which contiguous element-wise kernels of cheap operations (`+`, `*`,
/// comparisons, `abs`, `map`, their `_out` forms) split the work across rayon's pool.
/// Measured with `benches/kernels.rs` (`threads_add`, f32 `&a + &b`, two threads against one on
/// 2 cores, four runs): 0.99-1.05x at 2^16 elements, 1.00-1.68x at 2^17, 1.37-1.82x at 2^18
/// (2^12: 0.12x, the hand-off costs about 6 µs).
pub const PAR_THRESHOLD: usize = 1 << 18;

/// The same for the float functions (`exp`, `ln`, `sin`, `tanh`, `gelu`, `powf`, ... and their
/// `_out` forms), which cost tens of cycles per element: `threads_exp` measured 1.78x at 2^14
/// elements in both runs and 1.5-2.0x above (at 2^12, 1.69x in one run and 0.93x in the other).
pub const PAR_MATH_THRESHOLD: usize = 1 << 14;

/// Element count from which a contiguous reduction of one output (a sum, a maximum, a norm) splits
/// across rayon's pool: `threads_sum` measured 1.01x at 2^16, 1.11x at 2^17, 1.53x at 2^18 and
/// 1.65-1.8x above.
pub const PAR_REDUCE_THRESHOLD: usize = 1 << 17;

/// Element count from which a contiguous copy (`assign`, `copy_from`) splits across rayon's pool,
/// one piece per thread: `threads_assign` measured 1.66x at 2^18, 1.8-2.0x to 2^22, 1.2x at
/// 2^24. Below it, `memcpy` alone (whose speed on this machine also depends on the distance
/// between source and destination modulo 4 KiB).
pub const PAR_COPY_THRESHOLD: usize = 1 << 18;

/// Whether a contiguous kernel over `n` elements should split the work across rayon's pool: from
/// the kind's `threshold` on, and only when the current pool has more than one thread (a hand-off
/// to a single worker costs time and gains nothing). Inside [`keep_threads_awake`], from
/// `threshold /` [`AWAKE_DIV`].
#[cfg(feature = "rayon")]
#[inline]
pub(crate) fn parallel_from(n: usize, threshold: usize) -> bool {
    let threshold = if awake() { threshold / AWAKE_DIV } else { threshold };
    n >= threshold && rayon::current_num_threads() > 1
}

/// [`parallel_from`] with the same `threshold` inside [`keep_threads_awake`]: for the kernels
/// whose smaller splits lost there too (pooling: see [`AWAKE_DIV`]).
#[cfg(feature = "rayon")]
#[inline]
pub(crate) fn parallel_from_unchanged(n: usize, threshold: usize) -> bool {
    n >= threshold && rayon::current_num_threads() > 1
}

/// How much lower the thresholds of [`parallel_from`] are inside [`keep_threads_awake`], where a
/// hand-off costs a steal by a spinning worker instead of a wake-up: 16. Measured on the digits
/// CNN's forward at batch 360 (2026-12-01, two threads, stage medians of 500 forwards each
/// inside its own `keep_threads_awake`, against one thread; divisors 1, 4, 16, 64, 256): `relu`
/// of 184,320 elements 45 -> 28 µs from 16 on (29 at 4), of 46,080 elements 23 -> 14 µs from 16
/// on, the second convolution (1.2e7 multiply-adds) 207 -> 131-141 µs from 4 on, the first
/// (1.7e6) 215 -> 184 µs from 16 on; `gelu` and `log_softmax` of `[360, 32]`, `[360, 10]`
/// unchanged (6, 9 µs); pooling gained nothing and lost up to 2x (`[360, 16, 4, 4]` 41 -> 67-84
/// µs), so its threshold stays ([`parallel_from_unchanged`]).
#[cfg(feature = "rayon")]
const AWAKE_DIV: usize = 16;

#[cfg(feature = "rayon")]
std::thread_local! {
    /// Whether this thread runs the closure of [`keep_threads_awake`].
    static AWAKE: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Whether the calling thread runs inside [`keep_threads_awake`] (where the pool's other
/// workers are spinning, so that a hand-off costs a steal, not a wake-up).
#[cfg(feature = "rayon")]
pub(crate) fn awake() -> bool {
    AWAKE.with(|a| a.get())
}

/// How long a worker kept awake by [`keep_threads_awake`] spins with nothing to do before it
/// goes back to rayon's own idle loop (and then to sleep): 1 ms.
#[cfg(feature = "rayon")]
const MAX_SPIN: std::time::Duration = std::time::Duration::from_millis(1);

/// The loop of a worker kept awake by [`keep_threads_awake`] until `done`: it takes any piece of
/// work handed to the pool (`rayon::yield_now`), and between attempts pauses for about a
/// microsecond (`spin_loop` hints), so that its probes of the other workers' queues do not slow
/// the thread that runs the work; after [`MAX_SPIN`] without work it returns.
#[cfg(feature = "rayon")]
fn spin(done: &core::sync::atomic::AtomicBool) {
    use core::sync::atomic::Ordering;
    let mut idle_since: Option<std::time::Instant> = None;
    let mut probes = 0u32;
    while !done.load(Ordering::Acquire) {
        if let Some(rayon::Yield::Executed) = rayon::yield_now() {
            idle_since = None;
            continue;
        }
        for _ in 0..16 {
            core::hint::spin_loop();
        }
        probes = probes.wrapping_add(1);
        // The clock read every 64 probes (a read per probe was 4% of a forward pass's cycles).
        if probes.is_multiple_of(64) {
            let now = std::time::Instant::now();
            match idle_since {
                None => idle_since = Some(now),
                // Bounded: a helper taken by a worker waiting inside a join delays that join
                // by at most this.
                Some(t) if now.duration_since(t) > MAX_SPIN => return,
                Some(_) => {}
            }
        }
    }
}

/// Runs `f` on rayon's pool with the pool's other workers kept awake until `f` returns, and
/// returns what `f` returns: for work made of many short operations (a model's forward pass, a
/// training step), each of which splits across the pool.
///
/// Between two operations rayon's idle workers go to sleep within tens of microseconds, and
/// waking them again costs tens of microseconds more (on a virtual machine, where the idle
/// processor is halted, up to a hundred): a forward pass of 0.1-0.2 ms stages gained nothing from
/// a second thread, or lost. Inside this call the other workers spin, taking every piece of
/// work handed to the pool at once, as PyTorch's OpenMP threads spin between operations
/// (`OMP_WAIT_POLICY`); a worker that found nothing for 1 ms goes back to sleep. The spinning
/// costs the other cores' time while `f` runs. With one thread in the pool, or called from
/// inside another `keep_threads_awake`, this is `f()`. Without the `rayon` feature it is `f()`.
///
/// `f` runs on one of the pool's threads, so it and its result must be `Send`: a tape and its
/// `Var`s (which are not `Sync`) are made inside it, from tensors it borrows.
///
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{Shape, Tensor};
/// let x = Tensor::<f32, Shape![64, 64]>::ones();
/// let y = shaped::keep_threads_awake(|| (x.matmul(&x) + 1.0).relu().sum());
/// assert_eq!(y, 64.0 * 64.0 * 65.0);
/// ```
#[cfg(feature = "rayon")]
pub fn keep_threads_awake<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    use core::sync::atomic::{AtomicBool, Ordering};
    if awake() || rayon::current_num_threads() < 2 {
        return f();
    }
    let done = AtomicBool::new(false);
    rayon::scope(|s| {
        let owner = rayon::current_thread_index();
        let done = &done;
        for _ in 1..rayon::current_num_threads() {
            s.spawn(move |_| {
                // A helper taken by the thread that runs `f` (while `f` waits inside a join)
                // would spin on top of `f`'s own frame: it returns at once.
                if rayon::current_thread_index() == owner {
                    return;
                }
                spin(done);
            });
        }
        struct Reset<'a>(&'a AtomicBool);
        impl Drop for Reset<'_> {
            fn drop(&mut self) {
                AWAKE.with(|a| a.set(false));
                self.0.store(true, Ordering::Release);
            }
        }
        AWAKE.with(|a| a.set(true));
        let _reset = Reset(done);
        f()
    })
}

/// Without the `rayon` feature: `f()` (with the bounds of the `rayon` form, so that turning the
/// feature on breaks no caller).
#[cfg(not(feature = "rayon"))]
pub fn keep_threads_awake<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    f()
}

/// [`parallel_from`] for element-wise kernels ([`PAR_THRESHOLD`]).
#[cfg(feature = "rayon")]
#[inline]
pub(crate) fn parallel(n: usize) -> bool {
    parallel_from(n, PAR_THRESHOLD)
}

/// Elements per rayon task of the contiguous `_out` kernels: 64 KiB of f32, enough to hide the
/// hand-off and small enough to balance two to sixteen threads at [`PAR_THRESHOLD`].
#[cfg(feature = "rayon")]
pub(crate) const PAR_CHUNK: usize = 1 << 14;
