//! Run-time choice of instruction set for the generic kernels. The crate is built for the target's
//! baseline (SSE2 on x86-64), where an 8-lane compare-and-select loop (a NaN-propagating maximum)
//! becomes four-lane SSE with lane shuffles; [`avx2`] runs a kernel's body compiled for AVX2 when
//! the CPU has it, so that the same generic code runs eight f32 lanes a step. The element-wise
//! float functions have their own dispatch (`vmath`). In the foundation layer, so that any layer
//! can use it. The pairwise sums do not: their leaves through `avx2` ran no faster (row sums of
//! `[32, 64, 384]`: 71.8 µs through it against 73.2 µs as built, the minimum of five alternated
//! runs), being bound by memory and by the per-row work around the loop.

/// `f()`, compiled for AVX2 when the CPU has it (x86-64 with `std`, detected at run time: one
/// cached load and a branch), otherwise as built. `f` must be a small closure that calls an
/// `#[inline(always)]` kernel, so that the kernel is inlined into the AVX2 function; a kernel
/// that is not inlined runs as built (correct, only not faster).
///
/// Worth it for loops of compare-and-select over at least a few hundred elements: `max` along
/// the rows of 384 f32 of `[32, 64, 384]` (`benches/layers.rs`, one thread, AMD EPYC Zen 3)
/// took 205-247 µs as built with eight lanes, 102-120 µs through `avx2`, 78 µs with sixteen
/// lanes and the lanes combined eight at a time (PyTorch 2.15: 73 µs). Short slices call the
/// kernel directly (the check would cost more than it saves, and a small static tensor's loop
/// is unrolled inline).
#[inline(always)]
pub(crate) fn avx2<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(all(target_arch = "x86_64", feature = "std", not(miri)))]
    {
        #[target_feature(enable = "avx2")]
        fn run<R>(f: impl FnOnce() -> R) -> R {
            f()
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: `run` is compiled for AVX2, and the CPU has AVX2 (detected just above);
            // `run` only calls `f`, which is safe code.
            return unsafe { run(f) };
        }
    }
    f()
}
