//! Helpers shared by the integration tests (each test file uses some of them).
#![allow(dead_code)]

use shaped::ShapeError;

/// The message of an expected error.
pub fn err<T>(r: Result<T, ShapeError>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

/// Whether two slices start at the same element (a view shares its source's storage).
pub fn same_storage<T>(a: &[T], b: &[T]) -> bool {
    a.as_ptr() == b.as_ptr()
}

/// The element count of `sizes`.
pub fn numel(sizes: &[usize]) -> usize {
    sizes.iter().product()
}

/// Row-major multi-index of flat position `p`.
pub fn unravel(mut p: usize, sizes: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; sizes.len()];
    for d in (0..sizes.len()).rev() {
        idx[d] = p % sizes[d];
        p /= sizes[d];
    }
    idx
}

/// Row-major flat position of a multi-index.
pub fn ravel(idx: &[usize], sizes: &[usize]) -> usize {
    idx.iter().zip(sizes).fold(0, |acc, (i, n)| acc * n + i)
}

/// The number of property-test cases: `default`, or `PROPTEST_CASES` from the environment (a
/// longer local run: `PROPTEST_CASES=20000 cargo test --release`); `miri` cases under Miri; a
/// `1 / sample()` share of `default` (at least one) when CI samples the long tests.
pub fn cases(default: u32, miri: u32) -> u32 {
    if cfg!(miri) {
        return miri;
    }
    let sampled = default.div_ceil(sample() as u32);
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(sampled)
}

/// How thinly the long tests sample their inputs: `SHAPED_TEST_SAMPLE` from the environment (CI
/// sets 4: a quarter of each property test's cases, every fourth input of a sweep), else 1 (all).
pub fn sample() -> usize {
    std::env::var("SHAPED_TEST_SAMPLE").ok().and_then(|v| v.parse().ok()).filter(|&n: &usize| n >= 1).unwrap_or(1)
}
