//! When a contiguous kernel splits its work across rayon's pool: the thresholds measured per
//! kind of work, and the test against the current pool.

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
/// to a single worker costs time and gains nothing).
#[cfg(feature = "rayon")]
#[inline]
pub(crate) fn parallel_from(n: usize, threshold: usize) -> bool {
    n >= threshold && rayon::current_num_threads() > 1
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
