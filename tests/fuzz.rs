//! Property-based fuzz target: random *sequences* of dynamic-shape operations with random
//! parameters, deliberately including invalid ones, checked against an element-by-element
//! reference model.
//!
//! # What is checked
//!
//! 1. **No panics.** Every `try_` form (and every `_dyn` form that returns a `Result`) runs under
//!    `catch_unwind`; a panic fails the case and names the call with its resolved arguments, the
//!    panic message and its location.
//! 2. **Same answers as the reference.** When the reference says a call is valid, `shaped` must
//!    return `Ok` with the same sizes and the same elements in row-major order; when it says the
//!    call is invalid, `shaped` must return `Err` (the message text is not compared, but it must not
//!    be empty). Views are checked more strictly than by value: every element must read the very
//!    storage offset the reference names (computed by our own offset arithmetic from the view's
//!    strides, and through `to_vec`), the view must share its source's storage, and its layout must
//!    pass `Layout::from_parts` and fit the storage (the layout invariant of `layout/`).
//!
//! Operations: `try_slice` (full, index, range with any step, new axis, ellipsis; out-of-range,
//! zero-step, too-many-index and two-ellipsis cases), `permute_dyn`, `transpose_dyn`,
//! `try_reshape_dyn`, `try_view_dyn`, `expand_dyn`, `squeeze_dyn`, `unsqueeze_dyn`, `narrow_dyn`,
//! `flip_dyn`, `select_dyn`, `diagonal_dyn`, `movedim_dyn`, `unflatten_dyn`, `flatten_dyn`,
//! `chunk_dyn`, `split_dyn`, `try_as_strided`, `Tensor::cat_dyn`, `Tensor::stack_dyn`,
//! `try_gather`, `try_index_select`, `try_scatter_` (i64 and u64 index tensors),
//! `try_add`/`try_sub`/`try_mul`/`try_div` (f64, and i8 for wrapping and division by zero),
//! `sum`, `try_sum_axis_dyn`, `try_mean_axis_dyn`, `try_matmul` (1-D, 2-D and batched),
//! `try_to_owned`, `try_contiguous`, and writes: `try_assign`, `t!(try x[i] = v)`,
//! `t!(try x[.., a..b;s] = v)`, `t!(try x[i] = scalar)`. Axes, indices, sizes, strides and
//! offsets are mostly in range and sometimes extreme (`usize::MAX`, `isize::MAX`, `isize::MIN`,
//! `1 << 62`, ...); ranks go up to 6 and requests for rank 7 must fail.
//!
//! # The reference model
//!
//! A state is a flat storage (`Vec<f64>`, small integers -8..=8 so sums and products are exact)
//! and, on the `shaped` side, a [`Layout`] into it; on the reference side, the sizes and the list
//! of storage positions of the elements in row-major order ([`Model`]). The reference never sees a
//! stride: a view is a *coordinate map* (result coordinate -> source coordinate) written from the
//! operation's definition (a slice walks `a..b` by `|step|`, backwards for a negative step; a
//! permute reorders coordinates; an expand pins size-1 dims to 0; ...), and its positions are the
//! source's positions at the mapped coordinates. `as_strided` is the one operation defined by
//! strides, so its reference computes `offset + sum(coord * stride)` directly and decides
//! validity exactly as `layout/` documents (element count of `max(size, 1)` fits `isize`,
//! `offset + sum((max(n, 1) - 1) * |stride|) <= isize::MAX`, and for a non-empty layout lowest
//! offset >= 0 and highest < storage length). Owned results (arithmetic, reductions, matmul, cat,
//! stack, gather, index_select, copies) are computed element by element from the values.
//!
//! Each case holds two slots, `A` (the current value) and `B` (a second operand). A slot's
//! storage has one of four layouts (row-major, reversed, column-major, or padded with sentinels
//! between the elements). View results replace `A`'s layout and model over the same storage;
//! owned results become a new row-major slot. A result is adopted only when it has at most
//! [`CAP`] elements and (for owned results) holds integers of magnitude at most 2^20, so that later
//! sums and products stay exact; larger results (an `expand` to 2^62 elements, say) are checked
//! by their sizes and a few sampled coordinates, never materialised. Empty states may keep huge
//! sizes and offsets. An owned result that would need more than [`OUT_LIMIT`] elements but could
//! still be allocated is not requested at all (counted as skipped); one whose byte size passes
//! `isize::MAX` must be an error.
//!
//! Mutations go through a `TensorViewMut` built over `A`'s layout with `try_from_parts`;
//! afterwards the whole storage must equal the reference's storage, and a failed mutation must
//! leave it unchanged.
//!
//! # Semantic choices (the library's documented choice wins)
//!
//! * Negative indices count from the end everywhere, index-tensor entries of the reading
//!   operations included (gather, index_select); anything outside `-n..n` is an error. The
//!   writing scatter takes entries in `0..n` only, as PyTorch's (issue 35). Axes (runtime and the const
//!   axes of gather/scatter) are in `-rank..rank`; a scalar has none.
//! * Slice bounds outside `0..=n` (after adding `n` to negative ones) or `start > end` are errors,
//!   never clamped; a zero step is an error; `a..b;-k` walks `a..b` backwards from `b - 1`.
//! * `view` may fail with a `View` error on strides that cannot express the new shape. The
//!   reference accepts either `Ok` with the right elements or a `View` error, except that a view
//!   of at most one element, of unchanged sizes, or of elements stored contiguously in row-major
//!   order must succeed. `reshape` must always succeed when the element counts match.
//! * `unflatten` of an empty dim into sizes whose strides would reach past `isize::MAX` may be an
//!   `Overflow` error (the check looks at strides, which the reference does not have).
//! * A writable view is refused (`Overlap`) when two coordinates reach one element; the test is
//!   conservative, so a refusal of a layout without duplicates is accepted only as `Overlap`, and a
//!   layout *with* duplicate positions must be refused.
//! * `chunk`/`split` follow PyTorch (`ceil(n / chunks)`-sized pieces; an empty dim gives `chunks`
//!   empty pieces for chunk, one for split); scatter writes in the index's row-major order, the
//!   last duplicate wins; `try_assign` drops leading size-1 dims of the value beyond the target's
//!   rank, then expands it.
//! * Integer arithmetic wraps; integer division by zero is an error when the result is not empty.
//! * Rank-7 results are errors (`MAX_RANK` is 6).
//!
//! # Bugs it found
//!
//! The fuzzer found two bugs, both fixed and kept as regression tests in `tests/soundness.rs`:
//! `view`/`reshape`/`flatten` of an empty layout returned a layout whose reach passed
//! `isize::MAX` (later views then overflowed), and `try_add`/`try_sub`/`try_mul`/`try_div`
//! panicked with a multiply overflow, instead of returning `Overflow`, on an empty broadcast
//! whose sizes overflow.
//!
//! # Modes and environment
//!
//! * `cargo test --test tensors fuzz::` (this file is the `fuzz` module of the topic `robustness`
//!   of the `tensors` test binary): [`DEFAULT_CASES`] sequences of up to 24 operations, from the fixed seed
//!   [`DEFAULT_SEED`] (deterministic in CI, no persistence file). Failures are shrunk to a
//!   minimal sequence, printed one operation per line.
//! * `SHAPED_FUZZ_CASES=N` runs `N` sequences; `SHAPED_FUZZ_SEED=S` (a `u64`) changes the seed,
//!   for long local runs: `SHAPED_FUZZ_CASES=100000 SHAPED_FUZZ_SEED=7 cargo test --test
//!   tensors fuzz::` (about 8 minutes; keep the debug profile, whose overflow checks catch
//!   wrapped arithmetic).
//! * `SHAPED_FUZZ_STATS=1` also prints, per operation, how many calls returned `Ok` and `Err`.
//! * Under Miri (CI's `miri` binary of miri-tests/, `cargo +nightly miri test -p
//!   shaped-miri-tests --test miri -- fuzz::`) the run is [`MIRI_CASES`] sequences of at most 8
//!   operations, without shrinking: four sequences took 139 s of CI's Miri run on a 2-core
//!   machine, two take about half.
//!
//! A second target, `fuzz_ieee_reductions` (at the end of the file), reduces random views of slots
//! holding `±inf`, NaN, `1e308` and tiny values and checks `sum`, `sum_axis_dyn` and
//! `mean_axis_dyn` along every axis against an IEEE model.
//!
//! The test prints `fuzz: N sequences, M op calls, ...` at the end, straight to stderr (not through
//! the captured `eprintln!`), so a plain `cargo test` shows it.
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use shaped::index::IndexElem;
use shaped::prelude::*;
use shaped::{Layout, MAX_RANK};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

/// Sequences per run without `SHAPED_FUZZ_CASES` (about 35 s in a debug build on 2 cores).
const DEFAULT_CASES: u32 = 7000;
/// The proptest seed without `SHAPED_FUZZ_SEED`.
const DEFAULT_SEED: u64 = 0x5EED_F022;
/// Largest state (in elements) adopted for the next operation.
const CAP: usize = 1024;
/// Largest owned result requested from the library.
const OUT_LIMIT: u128 = 1 << 18;
/// Value between the elements of a padded storage (never an element of a view).
const SENTINEL: f64 = 99.0;

static OPS: AtomicU64 = AtomicU64::new(0);
static SEQS: AtomicU64 = AtomicU64::new(0);
static SKIPS: AtomicU64 = AtomicU64::new(0);
/// Per operation name: how many calls returned `Ok` and how many `Err` (printed with
/// `SHAPED_FUZZ_STATS=1`, to see that both paths of every operation are exercised).
static STATS: Mutex<BTreeMap<String, (u64, u64)>> = Mutex::new(BTreeMap::new());

fn record(what: &str, ok: bool) {
    let name = what.split(['(', ' ', '<']).next().unwrap_or(what).trim_end_matches("::").to_string();
    let mut m = STATS.lock().unwrap_or_else(|e| e.into_inner());
    let e = m.entry(name).or_default();
    if ok {
        e.0 += 1;
    } else {
        e.1 += 1;
    }
}

/// Sequences under Miri, where one op call takes about half a second to a second: about 80
/// calls (141 calls of 12 sequences of up to 10 took 157 s on a loaded machine). CI runs it
/// twice, with the default and the lean feature sets.
const MIRI_CASES: u32 = 2;

fn cases() -> u32 {
    if cfg!(miri) {
        return MIRI_CASES;
    }
    std::env::var("SHAPED_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or_else(|| {
        // CI's sample of the long tests (tests/common/mod.rs's `sample`): a share of the cases.
        let sample: u32 =
            std::env::var("SHAPED_TEST_SAMPLE").ok().and_then(|v| v.parse().ok()).filter(|&n| n >= 1).unwrap_or(1);
        DEFAULT_CASES.div_ceil(sample)
    })
}

fn seed() -> u64 {
    std::env::var("SHAPED_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_SEED)
}

fn max_ops() -> usize {
    if cfg!(miri) {
        8
    } else {
        24
    }
}

type TV<'a> = TensorView<'a, f64, DynShape>;
type TD = Tensor<f64, DynShape>;

// ------------------------------------------------------------------------------------------
// Small arithmetic helpers (all overflow-free: sizes may be near usize::MAX in empty tensors).
// ------------------------------------------------------------------------------------------

/// The element count, saturating at `u128::MAX`.
fn numel(s: &[usize]) -> u128 {
    s.iter().try_fold(1u128, |a, &n| a.checked_mul(n as u128)).unwrap_or(u128::MAX)
}

/// Invariant 2 of `layout/`: the product of `max(size, 1)` fits `isize`.
fn count_fits(s: &[usize]) -> bool {
    s.iter().try_fold(1u128, |a, &n| a.checked_mul(n.max(1) as u128)).is_some_and(|c| c <= isize::MAX as u128)
}

fn unravel(mut p: usize, s: &[usize]) -> Vec<usize> {
    let mut c = vec![0; s.len()];
    for d in (0..s.len()).rev() {
        c[d] = p % s[d];
        p /= s[d];
    }
    c
}

fn ravel(c: &[usize], s: &[usize]) -> usize {
    c.iter().zip(s).fold(0, |a, (&i, &n)| a * n + i)
}

/// PyTorch's `dim` argument: `-rank..rank`.
fn norm_axis(a: isize, rank: usize) -> Result<usize, String> {
    let k = if a < 0 { a as i128 + rank as i128 } else { a as i128 };
    if 0 <= k && k < rank as i128 {
        Ok(k as usize)
    } else {
        Err(format!("axis {a} is outside -{rank}..{rank}"))
    }
}

/// An index into a dim of `n` elements, negative counting from the end.
fn norm_index(i: i128, n: usize) -> Option<usize> {
    let j = if i < 0 { i + n as i128 } else { i };
    (0 <= j && j < n as i128).then_some(j as usize)
}

fn to_isize(v: i128) -> isize {
    v.clamp(isize::MIN as i128, isize::MAX as i128) as isize
}

fn same(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

fn same_vals(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| same(x, y))
}

/// Integers small enough that sums and products of them stay exact in f64.
fn small_ints(v: &[f64]) -> bool {
    v.iter().all(|x| x.fract() == 0.0 && x.abs() <= (1u64 << 20) as f64)
}

/// Coordinate `c` of a broadcast result, read in an operand of sizes `s` (aligned right; size-1
/// dims pinned to 0).
fn bcast_coord(c: &[usize], s: &[usize]) -> Vec<usize> {
    let lead = c.len() - s.len();
    s.iter().enumerate().map(|(i, &n)| if n == 1 { 0 } else { c[lead + i] }).collect()
}

/// PyTorch broadcasting of two shapes.
fn broadcast(a: &[usize], b: &[usize]) -> Result<Vec<usize>, String> {
    let r = a.len().max(b.len());
    let mut out = vec![0; r];
    for (i, o) in out.iter_mut().enumerate() {
        let x = if i + a.len() >= r { a[i + a.len() - r] } else { 1 };
        let y = if i + b.len() >= r { b[i + b.len() - r] } else { 1 };
        *o = if x == y || y == 1 {
            x
        } else if x == 1 {
            y
        } else {
            return Err(format!("{a:?} and {b:?} do not broadcast"));
        };
    }
    Ok(out)
}

/// Whether an owned result of these sizes is requested (`Ok(true)`), skipped as too large to be
/// worth it (`Ok(false)`), or must be an error (too many dims, element count past `isize`, or a
/// byte count no allocator can give).
fn gate(sizes: &[usize]) -> Result<bool, String> {
    if sizes.len() > MAX_RANK {
        return Err(format!("rank {} > {MAX_RANK}", sizes.len()));
    }
    if !count_fits(sizes) {
        return Err(format!("the element count of {sizes:?} overflows isize"));
    }
    let n = numel(sizes);
    if n <= OUT_LIMIT {
        Ok(true)
    } else if n * 8 > isize::MAX as u128 {
        Err(format!("{n} f64 elements cannot be allocated"))
    } else {
        Ok(false)
    }
}

// ------------------------------------------------------------------------------------------
// The reference model.
// ------------------------------------------------------------------------------------------

/// A tensor in the reference: sizes and the storage position of each element, row-major.
#[derive(Clone, Debug)]
struct Model {
    sizes: Vec<usize>,
    pos: Vec<usize>,
}

type CoordMap = Box<dyn Fn(&[usize]) -> Vec<usize>>;

/// A reference view: result sizes and, per result coordinate, the source coordinate.
struct RView {
    sizes: Vec<usize>,
    map: CoordMap,
}

fn rv(sizes: Vec<usize>, map: impl Fn(&[usize]) -> Vec<usize> + 'static) -> Result<RView, String> {
    if sizes.len() > MAX_RANK {
        return Err(format!("the result would have {} dims", sizes.len()));
    }
    Ok(RView { sizes, map: Box::new(map) })
}

fn pos_at(src: &Model, v: &RView, c: &[usize]) -> usize {
    src.pos[ravel(&(v.map)(c), &src.sizes)]
}

/// The positions of a reference view (at most `CAP` elements).
fn materialize(src: &Model, v: &RView) -> Model {
    let n = numel(&v.sizes) as usize;
    Model { sizes: v.sizes.clone(), pos: (0..n).map(|p| pos_at(src, v, &unravel(p, &v.sizes))).collect() }
}

/// A dense reference value: sizes and row-major elements.
#[derive(Clone, Debug)]
struct Want {
    sizes: Vec<usize>,
    vals: Vec<f64>,
}

impl Want {
    fn at(&self, c: &[usize]) -> f64 {
        self.vals[ravel(c, &self.sizes)]
    }
}

/// The reference's verdict on an owned result: `Ok(Some)` valid, `Ok(None)` not requested (too
/// large), `Err` invalid.
type Expect = Result<Option<Want>, String>;

/// NumPy/PyTorch basic indexing with this crate's rules (see the module docs).
fn r_slice(src: &[usize], args: &[SliceArg]) -> Result<RView, String> {
    let r = src.len();
    let consumed = args.iter().filter(|a| !matches!(a, SliceArg::NewAxis | SliceArg::Ellipsis)).count();
    if consumed > r {
        return Err(format!("{consumed} indices for {r} dims"));
    }
    if args.iter().filter(|a| matches!(a, SliceArg::Ellipsis)).count() > 1 {
        return Err("two ellipses".into());
    }
    let mut expanded = Vec::new();
    for a in args {
        if *a == SliceArg::Ellipsis {
            expanded.extend(std::iter::repeat_n(SliceArg::Full, r - consumed));
        } else {
            expanded.push(*a);
        }
    }
    // Per result dim: the source dim, its first coordinate and the step between coordinates
    // (`None` for a new axis).
    let mut outs: Vec<Option<(usize, i128, i128)>> = Vec::new();
    let mut sizes = Vec::new();
    let mut fixed = vec![0usize; r];
    let mut d = 0;
    for a in &expanded {
        match *a {
            SliceArg::NewAxis => {
                outs.push(None);
                sizes.push(1);
            }
            SliceArg::Ellipsis => unreachable!(),
            SliceArg::Full => {
                outs.push(Some((d, 0, 1)));
                sizes.push(src[d]);
                d += 1;
            }
            SliceArg::Index(i) => {
                fixed[d] =
                    norm_index(i as i128, src[d]).ok_or_else(|| format!("index {i} outside dim {d} of {}", src[d]))?;
                d += 1;
            }
            SliceArg::Range { start, end, step } => {
                if step == 0 {
                    return Err("zero step".into());
                }
                let n = src[d] as i128;
                let norm = |v: isize| if v < 0 { v as i128 + n } else { v as i128 };
                let (s, e) = (start.map_or(0, norm), end.map_or(n, norm));
                if s < 0 || e > n || s > e {
                    return Err(format!("range {start:?}..{end:?} outside dim {d} of {n}"));
                }
                // s, s+k, s+2k, ... below e; backwards: e-1, e-1-k, ... down to s.
                let k = step.unsigned_abs() as i128;
                let len = (e - s + k - 1) / k;
                let (first, st) = if step > 0 { (s, k) } else { (e - 1, -k) };
                outs.push(Some((d, first, st)));
                sizes.push(len as usize);
                d += 1;
            }
        }
    }
    while d < r {
        outs.push(Some((d, 0, 1)));
        sizes.push(src[d]);
        d += 1;
    }
    rv(sizes, move |c| {
        let mut idx = fixed.clone();
        for (k, o) in outs.iter().enumerate() {
            if let Some((dim, first, st)) = *o {
                idx[dim] = (first + st * c[k] as i128) as usize;
            }
        }
        idx
    })
}

fn r_permute(src: &[usize], axes: &[usize]) -> Result<RView, String> {
    let r = src.len();
    let mut seen = vec![false; r];
    if axes.len() != r || axes.iter().any(|&a| a >= r || std::mem::replace(&mut seen[a], true)) {
        return Err(format!("{axes:?} is not a permutation of {r} axes"));
    }
    let sizes = axes.iter().map(|&a| src[a]).collect();
    let axes = axes.to_vec();
    rv(sizes, move |c| {
        let mut idx = vec![0; axes.len()];
        for (k, &a) in axes.iter().enumerate() {
            idx[a] = c[k];
        }
        idx
    })
}

fn r_transpose(src: &[usize], a: isize, b: isize) -> Result<RView, String> {
    let (a, b) = (norm_axis(a, src.len())?, norm_axis(b, src.len())?);
    let mut axes: Vec<usize> = (0..src.len()).collect();
    axes.swap(a, b);
    r_permute(src, &axes)
}

fn r_movedim(src: &[usize], s: isize, d: isize) -> Result<RView, String> {
    let (s, d) = (norm_axis(s, src.len())?, norm_axis(d, src.len())?);
    let mut axes: Vec<usize> = (0..src.len()).filter(|&a| a != s).collect();
    axes.insert(d, s);
    r_permute(src, &axes)
}

fn r_expand(src: &[usize], to: &[usize]) -> Result<RView, String> {
    if to.len() > MAX_RANK || to.len() < src.len() || !count_fits(to) {
        return Err(format!("cannot expand {src:?} to {to:?}"));
    }
    let lead = to.len() - src.len();
    if src.iter().enumerate().any(|(i, &n)| n != 1 && n != to[lead + i]) {
        return Err(format!("cannot expand {src:?} to {to:?}"));
    }
    let src = src.to_vec();
    rv(to.to_vec(), move |c| src.iter().enumerate().map(|(i, &n)| if n == 1 { 0 } else { c[lead + i] }).collect())
}

fn r_squeeze(src: &[usize], a: isize) -> Result<RView, String> {
    let a = norm_axis(a, src.len())?;
    if src[a] != 1 {
        return Err(format!("dim {a} of {src:?} is not 1"));
    }
    let mut sizes = src.to_vec();
    sizes.remove(a);
    rv(sizes, move |c| {
        let mut idx = c.to_vec();
        idx.insert(a, 0);
        idx
    })
}

fn r_unsqueeze(src: &[usize], a: isize) -> Result<RView, String> {
    let a = norm_axis(a, src.len() + 1)?;
    let mut sizes = src.to_vec();
    sizes.insert(a, 1);
    rv(sizes, move |c| {
        let mut idx = c.to_vec();
        idx.remove(a);
        idx
    })
}

/// Elements `start..start + len` of dim `a` (already checked).
fn part(src: &[usize], a: usize, start: usize, len: usize) -> Result<RView, String> {
    let mut sizes = src.to_vec();
    sizes[a] = len;
    rv(sizes, move |c| {
        let mut idx = c.to_vec();
        idx[a] += start;
        idx
    })
}

fn r_narrow(src: &[usize], a: isize, start: isize, len: usize) -> Result<RView, String> {
    let a = norm_axis(a, src.len())?;
    let n = src[a] as i128;
    let s = if start < 0 { start as i128 + n } else { start as i128 };
    if s < 0 || s > n || len as i128 > n - s {
        return Err(format!("narrow {start}, {len} leaves dim {a} of {n}"));
    }
    part(src, a, s as usize, len)
}

fn r_select(src: &[usize], a: isize, i: isize) -> Result<RView, String> {
    let a = norm_axis(a, src.len())?;
    let j = norm_index(i as i128, src[a]).ok_or_else(|| format!("index {i} outside dim {a} of {}", src[a]))?;
    let mut sizes = src.to_vec();
    sizes.remove(a);
    rv(sizes, move |c| {
        let mut idx = c.to_vec();
        idx.insert(a, j);
        idx
    })
}

fn r_flip(src: &[usize], axes: &[isize]) -> Result<RView, String> {
    let mut seen = vec![false; src.len()];
    let mut ks = Vec::new();
    for &a in axes {
        let k = norm_axis(a, src.len())?;
        if std::mem::replace(&mut seen[k], true) {
            return Err(format!("axis {k} twice"));
        }
        ks.push(k);
    }
    let sizes = src.to_vec();
    let n = sizes.clone();
    rv(sizes, move |c| {
        let mut idx = c.to_vec();
        for &k in &ks {
            idx[k] = n[k] - 1 - c[k];
        }
        idx
    })
}

fn r_diagonal(src: &[usize], off: isize, d1: isize, d2: isize) -> Result<RView, String> {
    let (d1, d2) = (norm_axis(d1, src.len())?, norm_axis(d2, src.len())?);
    if d1 == d2 {
        return Err("the same axis twice".into());
    }
    let (n1, n2, o) = (src[d1] as i128, src[d2] as i128, off as i128);
    let len = if o >= 0 { n1.min(n2 - o) } else { (n1 + o).min(n2) }.max(0) as usize;
    let rest: Vec<usize> = (0..src.len()).filter(|&d| d != d1 && d != d2).collect();
    let mut sizes: Vec<usize> = rest.iter().map(|&d| src[d]).collect();
    sizes.push(len);
    let (r, a1, a2) = (src.len(), (-o).max(0) as usize, o.max(0) as usize);
    rv(sizes, move |c| {
        let mut idx = vec![0; r];
        for (k, &d) in rest.iter().enumerate() {
            idx[d] = c[k];
        }
        let k = c[rest.len()];
        idx[d1] = k + a1;
        idx[d2] = k + a2;
        idx
    })
}

/// PyTorch's `infer_size`: one optional -1, every other size >= 0, counts equal.
fn infer(n: u128, req: &[isize]) -> Result<Vec<usize>, String> {
    let mut inferred = None;
    let mut known: u128 = 1;
    for (i, &d) in req.iter().enumerate() {
        if d == -1 && inferred.is_none() {
            inferred = Some(i);
        } else if d >= 0 {
            known = known.checked_mul(d as u128).ok_or("size product overflows")?;
        } else {
            return Err(format!("bad size {d} in {req:?}"));
        }
    }
    let mut out: Vec<usize> = req.iter().map(|&d| d.max(0) as usize).collect();
    match inferred {
        Some(i) if known != 0 && n.is_multiple_of(known) => out[i] = (n / known) as usize,
        None if known == n => {}
        _ => return Err(format!("{req:?} does not hold {n} elements")),
    }
    Ok(out)
}

/// Same elements in row-major order, new sizes.
fn reshape_map(src: &[usize], to: Vec<usize>) -> Result<RView, String> {
    let (src, t) = (src.to_vec(), to.clone());
    rv(to, move |c| unravel(ravel(c, &t), &src))
}

fn r_reshape(src: &[usize], req: &[isize]) -> Result<RView, String> {
    let to = infer(numel(src), req)?;
    if to.len() > MAX_RANK || !count_fits(&to) {
        return Err(format!("{to:?} is not a valid shape"));
    }
    reshape_map(src, to)
}

fn r_flatten(src: &[usize], start: isize, end: isize) -> Result<RView, String> {
    let r = src.len().max(1);
    let (s, e) = (norm_axis(start, r)?, norm_axis(end, r)?);
    if src.is_empty() {
        return reshape_map(src, vec![1]);
    }
    if s > e {
        return Err(format!("start {s} after end {e}"));
    }
    let mut to = src[..s].to_vec();
    to.push(src[s..=e].iter().product());
    to.extend_from_slice(&src[e + 1..]);
    reshape_map(src, to)
}

fn r_unflatten(src: &[usize], a: isize, req: &[isize]) -> Result<RView, String> {
    let a = norm_axis(a, src.len())?;
    if req.is_empty() {
        return Err("no sizes".into());
    }
    if src.len() - 1 + req.len() > MAX_RANK {
        return Err("too many dims".into());
    }
    let new = infer(src[a] as u128, req)?;
    let k = new.len();
    let mut sizes = src[..a].to_vec();
    sizes.extend_from_slice(&new);
    sizes.extend_from_slice(&src[a + 1..]);
    if !count_fits(&sizes) {
        return Err(format!("the element count of {sizes:?} overflows"));
    }
    rv(sizes, move |c| {
        let mut idx = c[..a].to_vec();
        idx.push(ravel(&c[a..a + k], &new));
        idx.extend_from_slice(&c[a + k..]);
        idx
    })
}

/// The `(start, len)` pieces of `split`, or an error.
fn split_pieces(n: usize, size: usize) -> Result<Vec<(usize, usize)>, String> {
    if size == 0 && n != 0 {
        return Err("split size 0 of a non-empty dim".into());
    }
    let count = if size == 0 { 1 } else { n.div_ceil(size).max(1) };
    Ok((0..count).map(|i| (i * size, size.min(n - i * size))).collect())
}

/// The number of pieces of `chunk(chunks)` / `split(size)` along a dim of `n`, to decide whether
/// the call is worth making.
fn piece_count(n: usize, chunks: Option<usize>, size: Option<usize>) -> u128 {
    match (chunks, size) {
        (Some(0), _) | (_, Some(0)) => 1,
        (Some(c), _) if n == 0 => c as u128,
        (Some(c), _) => n.div_ceil(n.div_ceil(c)) as u128,
        (_, Some(s)) => n.div_ceil(s).max(1) as u128,
        _ => 1,
    }
}

fn r_as_strided(len: usize, sizes: &[usize], strides: &[isize], offset: usize) -> Result<RView, String> {
    if sizes.len() > MAX_RANK || sizes.len() != strides.len() {
        return Err("bad rank".into());
    }
    if !count_fits(sizes) {
        return Err("element count overflows".into());
    }
    let mut reach = offset as i128;
    for (&n, &s) in sizes.iter().zip(strides) {
        reach += (n.max(1) as i128 - 1) * s.unsigned_abs() as i128;
    }
    if reach > isize::MAX as i128 {
        return Err(format!("reach {reach} passes isize::MAX"));
    }
    if !sizes.contains(&0) {
        let (mut lo, mut hi) = (offset as i128, offset as i128);
        for (&n, &s) in sizes.iter().zip(strides) {
            let step = (n as i128 - 1) * s as i128;
            if step < 0 {
                lo += step;
            } else {
                hi += step;
            }
        }
        if lo < 0 || hi >= len as i128 {
            return Err(format!("reaches {lo}..={hi}, outside a storage of {len}"));
        }
    }
    let strides = strides.to_vec();
    rv(sizes.to_vec(), move |c| {
        vec![(offset as i128 + c.iter().zip(&strides).map(|(&i, &s)| i as i128 * s as i128).sum::<i128>()) as usize]
    })
}

fn r_binary(op: Bin, a: &Want, b: &Want) -> Expect {
    let sizes = broadcast(&a.sizes, &b.sizes)?;
    if !gate(&sizes)? {
        return Ok(None);
    }
    let vals = (0..numel(&sizes) as usize)
        .map(|p| {
            let c = unravel(p, &sizes);
            let (x, y) = (a.at(&bcast_coord(&c, &a.sizes)), b.at(&bcast_coord(&c, &b.sizes)));
            match op {
                Bin::Add => x + y,
                Bin::Sub => x - y,
                Bin::Mul => x * y,
                Bin::Div => x / y,
            }
        })
        .collect();
    Ok(Some(Want { sizes, vals }))
}

/// Integer (`i8`) arithmetic with this crate's rules: wrapping, and division by a zero divisor
/// an error when the result is not empty. `Ok(None)`: not requested (too large).
/// The reference's verdict on an i8 result: sizes and elements, as [`Expect`].
type IntExpect = Result<Option<(Vec<usize>, Vec<i8>)>, String>;

fn r_int_binary(op: Bin, a: &Want, b: &Want) -> IntExpect {
    let sizes = broadcast(&a.sizes, &b.sizes)?;
    if !gate(&sizes)? {
        return Ok(None);
    }
    let n = numel(&sizes) as usize;
    if matches!(op, Bin::Div) && n > 0 && b.vals.iter().any(|&v| v as i8 == 0) {
        return Err("integer division by zero".into());
    }
    let vals = (0..n)
        .map(|p| {
            let c = unravel(p, &sizes);
            let (x, y) = (a.at(&bcast_coord(&c, &a.sizes)) as i8, b.at(&bcast_coord(&c, &b.sizes)) as i8);
            match op {
                Bin::Add => x.wrapping_add(y),
                Bin::Sub => x.wrapping_sub(y),
                Bin::Mul => x.wrapping_mul(y),
                Bin::Div => x.wrapping_div(y),
            }
        })
        .collect();
    Ok(Some((sizes, vals)))
}

fn r_sum_axis(a: &Want, axis: isize, mean: bool) -> Expect {
    let k = norm_axis(axis, a.sizes.len())?;
    let mut sizes = a.sizes.clone();
    let n = sizes.remove(k);
    if !gate(&sizes)? {
        return Ok(None);
    }
    let vals = (0..numel(&sizes) as usize)
        .map(|p| {
            let c = unravel(p, &sizes);
            let s = (0..n)
                .map(|j| {
                    let mut ci = c.clone();
                    ci.insert(k, j);
                    a.at(&ci)
                })
                .fold(0.0, |acc, v| acc + v);
            if mean {
                s / n as f64
            } else {
                s
            }
        })
        .collect();
    Ok(Some(Want { sizes, vals }))
}

/// PyTorch `matmul`: a 1-D left operand is a `[1, k]` row, a 1-D right one a `[k, 1]` column,
/// and that dim is dropped from the result (the row-major values are the same either way).
fn r_matmul(a: &Want, b: &Want) -> Expect {
    let (va, vb) = (a.sizes.len() == 1, b.sizes.len() == 1);
    if a.sizes.is_empty() || b.sizes.is_empty() {
        return Err("matmul of a 0-d operand".into());
    }
    if !va && !vb {
        return r_matmul2(a, b);
    }
    let row = |w: &Want, sizes: Vec<usize>| Want { sizes, vals: w.vals.clone() };
    let a2 = if va { row(a, vec![1, a.sizes[0]]) } else { row(a, a.sizes.clone()) };
    let b2 = if vb { row(b, vec![b.sizes[0], 1]) } else { row(b, b.sizes.clone()) };
    Ok(r_matmul2(&a2, &b2)?.map(|mut w| {
        let r = w.sizes.len();
        if vb {
            w.sizes.remove(r - 1);
        }
        if va {
            w.sizes.remove(r - 2);
        }
        w
    }))
}

/// `r_matmul` of operands with at least 2 dims each.
fn r_matmul2(a: &Want, b: &Want) -> Expect {
    let (ra, rb) = (a.sizes.len(), b.sizes.len());
    let (m, k, k2, n) = (a.sizes[ra - 2], a.sizes[ra - 1], b.sizes[rb - 2], b.sizes[rb - 1]);
    if k != k2 {
        return Err(format!("inner dims {k} and {k2}"));
    }
    let (ba, bb) = (&a.sizes[..ra - 2], &b.sizes[..rb - 2]);
    let batch = broadcast(ba, bb)?;
    let mut sizes = batch.clone();
    sizes.extend([m, n]);
    if !gate(&sizes)? {
        return Ok(None);
    }
    let r = batch.len();
    let vals = (0..numel(&sizes) as usize)
        .map(|p| {
            let c = unravel(p, &sizes);
            let (mut ca, mut cb) = (bcast_coord(&c[..r], ba), bcast_coord(&c[..r], bb));
            ca.extend([c[r], 0]);
            cb.extend([0, c[r + 1]]);
            (0..k)
                .map(|kk| {
                    ca[ra - 1] = kk;
                    cb[rb - 2] = kk;
                    a.at(&ca) * b.at(&cb)
                })
                .fold(0.0, |acc, v| acc + v)
        })
        .collect();
    Ok(Some(Want { sizes, vals }))
}

fn r_cat(xs: &[Want], axis: isize) -> Expect {
    let first = &xs[0].sizes;
    let ax = norm_axis(axis, first.len())?;
    let mut total: u128 = 0;
    for x in xs {
        if x.sizes.len() != first.len() || x.sizes.iter().zip(first).enumerate().any(|(i, (a, b))| i != ax && a != b) {
            return Err(format!("cat of {first:?} and {:?} along {ax}", x.sizes));
        }
        total += x.sizes[ax] as u128;
    }
    let mut sizes = first.clone();
    sizes[ax] = usize::try_from(total).map_err(|_| "cat size overflows")?;
    if !gate(&sizes)? {
        return Ok(None);
    }
    let vals = (0..numel(&sizes) as usize)
        .map(|p| {
            let mut c = unravel(p, &sizes);
            let mut i = 0;
            while c[ax] >= xs[i].sizes[ax] {
                c[ax] -= xs[i].sizes[ax];
                i += 1;
            }
            xs[i].at(&c)
        })
        .collect();
    Ok(Some(Want { sizes, vals }))
}

fn r_stack(xs: &[Want], axis: isize) -> Expect {
    let first = &xs[0].sizes;
    let ax = norm_axis(axis, first.len() + 1)?;
    if xs.iter().any(|x| &x.sizes != first) {
        return Err("stack of different sizes".into());
    }
    let mut sizes = first.clone();
    sizes.insert(ax, xs.len());
    if !gate(&sizes)? {
        return Ok(None);
    }
    let vals = (0..numel(&sizes) as usize)
        .map(|p| {
            let mut c = unravel(p, &sizes);
            let i = c.remove(ax);
            xs[i].at(&c)
        })
        .collect();
    Ok(Some(Want { sizes, vals }))
}

fn r_gather(a: &Want, k: isize, isz: &[usize], ent: &[i128]) -> Expect {
    let r = a.sizes.len();
    let k = norm_axis(k, r)?;
    if isz.len() != r || (0..r).any(|d| d != k && isz[d] > a.sizes[d]) {
        return Err(format!("gather along {k} of {:?} with an index {isz:?}", a.sizes));
    }
    let n = a.sizes[k];
    let mut vals = Vec::new();
    for (p, &e) in ent.iter().enumerate() {
        let j = norm_index(e, n).ok_or_else(|| format!("entry {e} outside {n}"))?;
        let mut c = unravel(p, isz);
        c[k] = j;
        vals.push(a.at(&c));
    }
    Ok(Some(Want { sizes: isz.to_vec(), vals }))
}

fn r_index_select(a: &Want, axis: isize, isz: &[usize], ent: &[i128]) -> Expect {
    let k = norm_axis(axis, a.sizes.len())?;
    if isz.len() > 1 {
        return Err("a 2-D index".into());
    }
    let n = a.sizes[k];
    let js: Vec<usize> = ent
        .iter()
        .map(|&e| norm_index(e, n).ok_or_else(|| format!("entry {e} outside {n}")))
        .collect::<Result<_, _>>()?;
    let mut sizes = a.sizes.clone();
    sizes[k] = js.len();
    if !gate(&sizes)? {
        return Ok(None);
    }
    let vals = (0..numel(&sizes) as usize)
        .map(|p| {
            let mut c = unravel(p, &sizes);
            c[k] = js[c[k]];
            a.at(&c)
        })
        .collect();
    Ok(Some(Want { sizes, vals }))
}

/// The writes of `dst[...] = src` as (storage position, value), or why it is invalid
/// (`try_assign`'s rule: leading size-1 dims of `src` beyond the target's rank are dropped, then
/// `src` must expand to the target's sizes).
fn r_assign(target: &Model, src: &Want) -> Result<Vec<(usize, f64)>, String> {
    let mut s = src.sizes.clone();
    while s.len() > target.sizes.len() && s[0] == 1 {
        s.remove(0);
    }
    let t = &target.sizes;
    let lead = t.len().checked_sub(s.len()).ok_or("the value has more dims")?;
    if s.iter().enumerate().any(|(i, &n)| n != 1 && n != t[lead + i]) {
        return Err(format!("cannot assign {:?} to {t:?}", src.sizes));
    }
    let view = Want { sizes: s.clone(), vals: src.vals.clone() };
    Ok(target.pos.iter().enumerate().map(|(p, &q)| (q, view.at(&bcast_coord(&unravel(p, t), &s)))).collect())
}

/// The writes of `scatter_(k, index, src)` in order, or why it is invalid.
fn r_scatter(dst: &Model, k: isize, isz: &[usize], ent: &[i128], src: &Want) -> Result<Vec<(usize, f64)>, String> {
    let r = dst.sizes.len();
    let k = norm_axis(k, r)?;
    if isz.len() != r || src.sizes.len() != r {
        return Err("scatter ranks or axis".into());
    }
    if (0..r).any(|d| (d != k && isz[d] > dst.sizes[d]) || isz[d] > src.sizes[d]) {
        return Err(format!("scatter index {isz:?} does not fit {:?} / src {:?}", dst.sizes, src.sizes));
    }
    let n = dst.sizes[k];
    let mut writes = Vec::new();
    for (p, &e) in ent.iter().enumerate() {
        // Writes take entries in `0..n` only, as PyTorch's scatter_ (issue 35).
        let j = usize::try_from(e).ok().filter(|&j| j < n).ok_or_else(|| format!("entry {e} outside 0..{n}"))?;
        let c = unravel(p, isz);
        let mut t = c.clone();
        t[k] = j;
        writes.push((dst.pos[ravel(&t, &dst.sizes)], src.at(&c)));
    }
    Ok(writes)
}

// ------------------------------------------------------------------------------------------
// Slots: a storage seen by both sides, shaped's layout over it and the reference's model.
// ------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Slot {
    /// The storage `shaped` reads and writes.
    data: Vec<f64>,
    /// The reference's copy of it (written only by the reference).
    rdata: Vec<f64>,
    layout: Layout,
    model: Model,
}

struct Src<'a> {
    model: &'a Model,
    data: &'a [f64],
    rdata: &'a [f64],
}

impl Slot {
    fn view(&self) -> Result<TV<'_>, String> {
        TV::try_from_parts(&self.data[..], self.layout)
            .map_err(|e| format!("re-building a view with the library's own layout {:?} failed: {e}", self.layout))
    }
    fn want(&self) -> Want {
        Want { sizes: self.model.sizes.clone(), vals: self.model.pos.iter().map(|&p| self.rdata[p]).collect() }
    }
    fn src(&self) -> Src<'_> {
        Src { model: &self.model, data: &self.data, rdata: &self.rdata }
    }
    fn describe(&self) -> String {
        format!(
            "sizes {:?} strides {:?} offset {} over {} elements",
            self.layout.sizes(),
            self.layout.strides(),
            self.layout.offset(),
            self.data.len()
        )
    }
}

/// A slot holding `vals` (row-major) with storage layout `kind`: 0 row-major, 1 reversed
/// (negative strides), 2 column-major, 3 row-major with a sentinel between elements.
fn make_slot(sizes: &[usize], vals: Vec<f64>, kind: u8) -> Result<Slot, String> {
    let n = vals.len();
    let r = sizes.len();
    if n == 0 {
        // Empty (sizes may be huge): zero strides reach nothing past the offset.
        let layout = Layout::from_parts(sizes, &vec![0; r], 0).map_err(|e| format!("make_slot {sizes:?}: {e}"))?;
        let model = Model { sizes: sizes.to_vec(), pos: Vec::new() };
        return Ok(Slot { data: Vec::new(), rdata: Vec::new(), layout, model });
    }
    let mut rm = vec![1usize; r];
    for i in (0..r.saturating_sub(1)).rev() {
        rm[i] = rm[i + 1] * sizes[i + 1].max(1);
    }
    let mut cm = vec![1usize; r];
    for i in 1..r {
        cm[i] = cm[i - 1] * sizes[i - 1].max(1);
    }
    let kind = kind % 4;
    let pos: Vec<usize> = (0..n)
        .map(|p| match kind {
            0 => p,
            1 => n - 1 - p,
            2 => unravel(p, sizes).iter().zip(&cm).map(|(c, s)| c * s).sum(),
            _ => 2 * p,
        })
        .collect();
    let (strides, offset, len): (Vec<isize>, usize, usize) = match kind {
        0 => (rm.iter().map(|&s| s as isize).collect(), 0, n),
        1 => (rm.iter().map(|&s| -(s as isize)).collect(), n.saturating_sub(1), n),
        2 => (cm.iter().map(|&s| s as isize).collect(), 0, n),
        _ => (rm.iter().map(|&s| 2 * s as isize).collect(), 0, (2 * n).saturating_sub(1)),
    };
    let mut data = vec![SENTINEL; len];
    for (p, &q) in pos.iter().enumerate() {
        data[q] = vals[p];
    }
    let layout =
        Layout::from_parts(sizes, &strides, offset).map_err(|e| format!("make_slot {sizes:?} kind {kind}: {e}"))?;
    Ok(Slot { rdata: data.clone(), data, layout, model: Model { sizes: sizes.to_vec(), pos } })
}

fn values(pool: &[i8], seed: u8, n: usize) -> Vec<f64> {
    (0..n).map(|i| f64::from(pool[(seed as usize + i) % pool.len()])).collect()
}

/// Whether a fresh operand of these sizes can be made: at most `CAP` elements of at most `CAP`
/// each, or empty (then any sizes whose count fits).
fn fresh_ok(sizes: &[usize]) -> bool {
    sizes.len() <= MAX_RANK
        && count_fits(sizes)
        && (numel(sizes) == 0 || (numel(sizes) <= CAP as u128 && sizes.iter().all(|&n| n <= CAP)))
}

/// Decrements the largest size until the element count is at most `CAP`.
fn shrink_to_cap(sizes: &mut [usize]) {
    while numel(sizes) > CAP as u128 {
        let i = (0..sizes.len()).max_by_key(|&i| sizes[i]).unwrap();
        sizes[i] = (sizes[i] - 1).min(64);
    }
}

struct State {
    a: Slot,
    b: Slot,
}

// ------------------------------------------------------------------------------------------
// Calling the library and comparing.
// ------------------------------------------------------------------------------------------

thread_local! {
    /// Whether a library call is running (its panics are recorded, not printed).
    static IN_CALL: Cell<bool> = const { Cell::new(false) };
    /// The last recorded panic: message and location.
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// A panic hook that records panics inside [`call`] (shrinking would otherwise print one report,
/// with backtrace, per attempt) and hands every other panic to the previous hook.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if IN_CALL.get() {
            LAST_PANIC.set(Some(info.to_string()));
        } else {
            previous(info);
        }
    }));
}

/// Runs one library call, counting it; a panic becomes an error naming the call, with the
/// panic's message and location.
fn call<R>(what: &str, f: impl FnOnce() -> R) -> Result<R, String> {
    OPS.fetch_add(1, Relaxed);
    let outer = IN_CALL.replace(true);
    let r = catch_unwind(AssertUnwindSafe(f));
    IN_CALL.set(outer);
    r.map_err(|_| {
        let msg = LAST_PANIC.take().unwrap_or_else(|| "(no message)".into());
        format!("{what} PANICKED: {msg}")
    })
}

fn nonempty(what: &str, e: &ShapeError) -> Result<(), String> {
    if e.to_string().trim().is_empty() {
        return Err(format!("{what}: the error {e:?} has an empty message"));
    }
    Ok(())
}

/// The storage offset of coordinate `c` by our own arithmetic on the view's strides.
fn offset_of(l: &Layout, c: &[usize]) -> i128 {
    l.offset() as i128 + c.iter().zip(l.strides()).map(|(&i, &s)| i as i128 * s as i128).sum::<i128>()
}

/// A few coordinates of a large view: first, middle, last.
fn samples(sizes: &[usize]) -> Vec<Vec<usize>> {
    if sizes.contains(&0) {
        return Vec::new();
    }
    vec![vec![0; sizes.len()], sizes.iter().map(|n| n / 2).collect(), sizes.iter().map(|n| n - 1).collect()]
}

/// A view result against a reference view over the same source: sizes, shared storage, the layout
/// invariant, the storage offset of every element (sampled above `CAP`), and `to_vec`. Returns
/// the new layout and model to adopt when small enough.
fn compare_view(what: &str, v: &TV<'_>, want: &RView, src: &Src<'_>) -> Result<Option<(Layout, Model)>, String> {
    if v.sizes() != want.sizes.as_slice() {
        return Err(format!("{what}: sizes {:?}, the reference says {:?}", v.sizes(), want.sizes));
    }
    if v.storage().as_ptr() != src.data.as_ptr() || v.storage().len() != src.data.len() {
        return Err(format!("{what}: the result does not view its source's storage"));
    }
    let l = *v.layout();
    match Layout::from_parts(l.sizes(), l.strides(), l.offset()) {
        Ok(l2) if l2.fits(src.data.len()) => {}
        other => {
            return Err(format!(
                "{what}: the result's layout {l:?} breaks the invariant for a storage of {} ({other:?})",
                src.data.len()
            ))
        }
    }
    if numel(&want.sizes) > CAP as u128 {
        for c in samples(&want.sizes) {
            let (got, exp) = (offset_of(&l, &c), pos_at(src.model, want, &c));
            if got != exp as i128 {
                return Err(format!("{what}: element {c:?} is at storage offset {got}, the reference says {exp}"));
            }
        }
        return Ok(None);
    }
    let m = materialize(src.model, want);
    for (p, &exp) in m.pos.iter().enumerate() {
        let c = unravel(p, &m.sizes);
        let got = offset_of(&l, &c);
        if got != exp as i128 {
            return Err(format!(
                "{what}: element {c:?} is at storage offset {got}, the reference says {exp} (layout {l:?})"
            ));
        }
    }
    let got =
        call(&format!("to_vec of {what}"), || v.try_to_vec())?.map_err(|e| format!("{what}: to_vec failed: {e}"))?;
    let exp: Vec<f64> = m.pos.iter().map(|&p| src.rdata[p]).collect();
    if !same_vals(&got, &exp) {
        return Err(format!("{what}: to_vec gives {got:?}, the reference {exp:?}"));
    }
    Ok(Some((l, m)))
}

fn mismatch(what: &str, got: Result<&[usize], &ShapeError>, why: Result<&[usize], &str>) -> String {
    match (got, why) {
        (Ok(s), Err(why)) => format!("{what}: Ok with sizes {s:?}, but the reference says it is invalid ({why})"),
        (Err(e), Ok(s)) => format!("{what}: Err(\"{e}\"), but the reference expects Ok with sizes {s:?}"),
        _ => unreachable!(),
    }
}

fn check_view(
    what: &str,
    got: Result<TV<'_>, ShapeError>,
    want: Result<RView, String>,
    src: &Src<'_>,
    allow: &dyn Fn(&ShapeError) -> bool,
) -> Result<Option<(Layout, Model)>, String> {
    record(what, got.is_ok());
    match (got, want) {
        (Err(e), Err(_)) => nonempty(what, &e).map(|()| None),
        (Err(e), Ok(_)) if allow(&e) => nonempty(what, &e).map(|()| None),
        (Ok(v), Err(why)) => Err(mismatch(what, Ok(v.sizes()), Err(&why))),
        (Err(e), Ok(w)) => Err(mismatch(what, Err(&e), Ok(&w.sizes))),
        (Ok(v), Ok(w)) => compare_view(what, &v, &w, src),
    }
}

/// Compares an owned result with dense reference values; returns a slot to adopt.
fn check_owned(what: &str, got: Result<TD, ShapeError>, want: Result<Want, String>) -> Result<Option<Slot>, String> {
    record(what, got.is_ok());
    match (got, want) {
        (Err(e), Err(_)) => nonempty(what, &e).map(|()| None),
        (Ok(t), Err(why)) => Err(mismatch(what, Ok(t.sizes()), Err(&why))),
        (Err(e), Ok(w)) => Err(mismatch(what, Err(&e), Ok(&w.sizes))),
        (Ok(t), Ok(w)) => {
            if t.sizes() != w.sizes.as_slice() {
                return Err(format!("{what}: sizes {:?}, the reference says {:?}", t.sizes(), w.sizes));
            }
            let got =
                call(&format!("to_vec of {what}"), || t.try_to_vec())?.map_err(|e| format!("{what}: to_vec: {e}"))?;
            if !same_vals(&got, &w.vals) {
                return Err(format!("{what}: elements {got:?}, the reference says {:?}", w.vals));
            }
            adopt_owned(w)
        }
    }
}

/// A new row-major slot for an owned value, if small enough and exact.
fn adopt_owned(w: Want) -> Result<Option<Slot>, String> {
    if w.vals.len() <= CAP && small_ints(&w.vals) && w.sizes.iter().all(|&n| n <= CAP) {
        make_slot(&w.sizes, w.vals, 0).map(Some)
    } else {
        Ok(None)
    }
}

enum Adopt {
    Keep,
    View(Layout, Model),
    Owned(Slot),
}

/// A borrowed-or-copied result (reshape, flatten, contiguous).
fn check_cow(
    what: &str,
    got: Result<TensorCow<'_, f64, DynShape>, ShapeError>,
    want: Result<RView, String>,
    src: &Src<'_>,
) -> Result<Adopt, String> {
    record(what, got.is_ok());
    match (got, want) {
        (Err(e), Err(_)) => nonempty(what, &e).map(|()| Adopt::Keep),
        (Ok(c), Err(why)) => Err(mismatch(what, Ok(c.sizes()), Err(&why))),
        (Err(e), Ok(w)) => Err(mismatch(what, Err(&e), Ok(&w.sizes))),
        (Ok(c), Ok(w)) => {
            if c.storage().as_ptr() == src.data.as_ptr() {
                return Ok(match compare_view(what, &c.as_view(), &w, src)? {
                    Some((l, m)) => Adopt::View(l, m),
                    None => Adopt::Keep,
                });
            }
            if c.sizes() != w.sizes.as_slice() {
                return Err(format!("{what}: sizes {:?}, the reference says {:?}", c.sizes(), w.sizes));
            }
            let m = materialize(src.model, &w);
            let vals: Vec<f64> = m.pos.iter().map(|&p| src.rdata[p]).collect();
            let got =
                call(&format!("to_vec of {what}"), || c.try_to_vec())?.map_err(|e| format!("{what}: to_vec: {e}"))?;
            if !same_vals(&got, &vals) {
                return Err(format!("{what}: elements {got:?}, the reference says {vals:?}"));
            }
            Ok(adopt_owned(Want { sizes: w.sizes, vals })?.map_or(Adopt::Keep, Adopt::Owned))
        }
    }
}

/// A mutation through a `TensorViewMut` over `A`'s layout. `want` is the reference's list of
/// writes (in order) or why the call is invalid.
fn mutate(
    slot: &mut Slot,
    what: &str,
    want: Result<Vec<(usize, f64)>, String>,
    f: impl FnOnce(TensorViewMut<'_, f64, DynShape>) -> Result<(), ShapeError>,
) -> Result<(), String> {
    let before = slot.data.clone();
    let mut seen = vec![false; slot.data.len()];
    let dup = slot.model.pos.iter().any(|&p| std::mem::replace(&mut seen[p], true));
    let layout = slot.layout;
    let make = format!("TensorViewMut::try_from_parts(.., {layout:?})");
    let mv = match call(&make, || TensorViewMut::<f64, DynShape>::try_from_parts(&mut slot.data[..], layout))? {
        Ok(_) if dup => return Err(format!("{make}: a writable view over duplicate positions was accepted")),
        Ok(mv) => mv,
        Err(e) if dup || matches!(e, ShapeError::Overlap { .. }) => return nonempty(&make, &e),
        Err(e) => return Err(format!("{make}: unexpected error {e}")),
    };
    let got = call(what, move || f(mv))?;
    record(what, got.is_ok());
    match (got, want) {
        (Ok(()), Ok(writes)) => {
            for (p, x) in writes {
                slot.rdata[p] = x;
            }
            if !same_vals(&slot.data, &slot.rdata) {
                return Err(format!("{what}: storage afterwards {:?}, the reference says {:?}", slot.data, slot.rdata));
            }
            Ok(())
        }
        (Err(e), Err(_)) => {
            nonempty(what, &e)?;
            if !same_vals(&slot.data, &before) {
                return Err(format!("{what}: failed ({e}) but changed the storage from {before:?} to {:?}", slot.data));
            }
            Ok(())
        }
        (Ok(()), Err(why)) => Err(format!("{what}: Ok, but the reference says it is invalid ({why})")),
        (Err(e), Ok(_)) => Err(format!("{what}: Err(\"{e}\"), but the reference expects Ok")),
    }
}

// ------------------------------------------------------------------------------------------
// Random parameters, resolved against the current state at run time.
// ------------------------------------------------------------------------------------------

/// An axis: mostly in range (counted from either end), sometimes a literal (extremes included).
#[derive(Clone, Copy, Debug)]
enum Ax {
    Pos(u8),
    Neg(u8),
    Lit(isize),
}

impl Ax {
    fn resolve(self, rank: usize) -> isize {
        match self {
            Ax::Pos(k) => (k as usize % rank.max(1)) as isize,
            Ax::Neg(k) => (k as usize % rank.max(1)) as isize - rank.max(1) as isize,
            Ax::Lit(v) => v,
        }
    }
}

/// An index or bound relative to a dim of `n`: mostly in range, sometimes at or past an edge, or
/// a literal (extremes included).
#[derive(Clone, Copy, Debug)]
enum Ix {
    In(u16),
    Edge(u8),
    Lit(i64),
}

impl Ix {
    /// `inclusive`: `-n..=n` (bounds) instead of `-n..n` (indices).
    fn resolve(self, n: usize, inclusive: bool) -> i128 {
        let n = n as i128;
        match self {
            Ix::In(k) if inclusive => k as i128 % (2 * n + 1) - n,
            Ix::In(_) if n == 0 => 0,
            Ix::In(k) => k as i128 % (2 * n) - n,
            Ix::Edge(k) => match k % 4 {
                0 => n,
                1 => -n - 1,
                2 => n + 1,
                _ => -2 * n - 1,
            },
            Ix::Lit(v) => v as i128,
        }
    }
}

/// A count (a length, a chunk count, a split size): mostly small, sometimes extreme.
#[derive(Clone, Copy, Debug)]
enum Cnt {
    Small(u8),
    Lit(usize),
}

impl Cnt {
    fn resolve(self, n: usize) -> usize {
        match self {
            Cnt::Small(k) => k as usize % (n.min(6) + 2),
            Cnt::Lit(v) => v,
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum SArg {
    Full,
    Index(Ix),
    Range(Option<Ix>, Option<Ix>, isize),
    NewAxis,
    Ellipsis,
}

/// Resolves slice items against the sizes; unless `keep_all`, items that consume a dim are
/// dropped past the rank (so most slices are not simply "too many indices").
fn resolve_slice(spec: &[SArg], keep_all: bool, sizes: &[usize]) -> Vec<SliceArg> {
    let mut spec = spec.to_vec();
    if !keep_all {
        let mut consumed = 0;
        spec.retain(|a| {
            consumed += usize::from(!matches!(a, SArg::NewAxis | SArg::Ellipsis));
            matches!(a, SArg::NewAxis | SArg::Ellipsis) || consumed <= sizes.len()
        });
    }
    let consumed = spec.iter().filter(|a| !matches!(a, SArg::NewAxis | SArg::Ellipsis)).count();
    let mut d = 0;
    spec.iter()
        .map(|a| match *a {
            SArg::Ellipsis => {
                d += sizes.len().saturating_sub(consumed);
                SliceArg::Ellipsis
            }
            SArg::NewAxis => SliceArg::NewAxis,
            SArg::Full => {
                d += 1;
                SliceArg::Full
            }
            SArg::Index(i) => {
                let n = sizes.get(d).copied().unwrap_or(0);
                d += 1;
                SliceArg::Index(to_isize(i.resolve(n, false)))
            }
            SArg::Range(s, e, step) => {
                let n = sizes.get(d).copied().unwrap_or(0);
                d += 1;
                let (mut s, mut e) = (s.map(|x| to_isize(x.resolve(n, true))), e.map(|x| to_isize(x.resolve(n, true))));
                // Mostly ordered bounds (an inverted range is an error; keep some of those).
                let norm = |v: isize| if v < 0 { v as i128 + n as i128 } else { v as i128 };
                if let (Some(x), Some(y)) = (s, e) {
                    if norm(x) > norm(y) && (x ^ y) & 7 != 0 {
                        (s, e) = (Some(y), Some(x));
                    }
                }
                SliceArg::Range { start: s, end: e, step }
            }
        })
        .collect()
}

/// A permutation from sort keys, possibly corrupted (duplicate, out of range, too short/long).
#[derive(Clone, Debug)]
struct Perm {
    keys: Vec<u8>,
    corrupt: Option<(u8, u8)>,
}

impl Perm {
    fn resolve(&self, r: usize) -> Vec<usize> {
        let mut axes: Vec<usize> = (0..r).collect();
        axes.sort_by_key(|&i| self.keys[i % self.keys.len()]);
        if let Some((kind, at)) = self.corrupt {
            let i = at as usize % r.max(1);
            match kind % 5 {
                0 if r >= 2 => axes[i] = axes[(i + 1) % r],
                1 if r >= 1 => axes[i] = r,
                2 if r >= 1 => axes[i] = usize::MAX,
                3 => {
                    axes.pop();
                }
                _ => axes.push(at as usize % (r + 1)),
            }
        }
        axes
    }
}

/// Sizes for reshape/view/unflatten: a factorisation of the element count (often valid), or raw
/// sizes (mostly invalid).
#[derive(Clone, Debug)]
enum ShapeReq {
    Factor { rank: u8, picks: Vec<u8>, infer: Option<u8> },
    Raw(Vec<isize>),
}

impl ShapeReq {
    fn resolve(&self, n: u128) -> Vec<isize> {
        match self {
            ShapeReq::Raw(v) => v.clone(),
            ShapeReq::Factor { rank, picks, infer } => {
                let r = *rank as usize;
                if r == 0 {
                    return Vec::new();
                }
                let pick = |i: usize| picks[i % picks.len()] as usize;
                let mut sizes = vec![1isize; r];
                if n == 0 {
                    for (i, s) in sizes.iter_mut().enumerate() {
                        *s = (pick(i) % 4) as isize;
                    }
                    sizes[pick(0) % r] = 0;
                } else if n > 1 << 16 {
                    sizes[0] = to_isize(n as i128);
                } else {
                    let (mut m, mut p, mut j) = (n as usize, 2, 0);
                    while m > 1 {
                        while m % p == 0 {
                            sizes[pick(j) % r] *= p as isize;
                            m /= p;
                            j += 1;
                        }
                        p += 1;
                    }
                }
                if let Some(k) = infer {
                    sizes[*k as usize % r] = -1;
                }
                sizes
            }
        }
    }
}

/// A size for a new or changed dim: small, or extreme.
#[derive(Clone, Copy, Debug)]
enum Sz {
    Small(u8),
    Huge(usize),
}

impl Sz {
    fn get(self) -> usize {
        match self {
            Sz::Small(k) => k as usize,
            Sz::Huge(h) => h,
        }
    }
}

/// Per-dim change of a shape derived from another one.
#[derive(Clone, Copy, Debug)]
enum Md {
    Keep,
    One,
    Set(Sz),
}

/// A shape derived from a base shape: new leading dims, some leading dims dropped, each kept dim
/// kept, set to 1, or changed. Mostly broadcast-compatible with the base.
#[derive(Clone, Debug)]
struct Derive {
    lead: Vec<Sz>,
    drop: u8,
    mods: Vec<Md>,
}

impl Derive {
    fn resolve(&self, base: &[usize]) -> Vec<usize> {
        let drop = (self.drop as usize).min(base.len());
        let mut out: Vec<usize> = self.lead.iter().map(|s| s.get()).collect();
        for (i, &n) in base[drop..].iter().enumerate() {
            out.push(match self.mods.get(i).copied().unwrap_or(Md::Keep) {
                Md::Keep => n,
                Md::One => 1,
                Md::Set(s) => s.get(),
            });
        }
        out
    }
}

/// A second operand: `A` itself, `B`, or a fresh tensor of a shape derived from `A`'s (with one of
/// the four storage layouts and values from the pool).
#[derive(Clone, Debug)]
enum Opnd {
    Itself,
    Other,
    Fresh(Derive, u8, u8),
}

/// An index tensor: its axis (see `const_axis`; a const generic for gather/scatter), rank
/// change, sizes, a dim made too large, entries, and element type (i64 or u64).
#[derive(Clone, Debug)]
struct IdxSpec {
    axis: u8,
    rank_delta: i8,
    dims: Vec<u8>,
    over: Option<u8>,
    entries: Vec<Ix>,
    unsigned: bool,
}

/// The index tensor's sizes and entries (exact values as stored).
struct Index {
    sizes: Vec<usize>,
    i64s: Vec<i64>,
    unsigned: bool,
}

impl Index {
    fn entries(&self) -> Vec<i128> {
        self.i64s.iter().map(|&v| if self.unsigned { v as u64 as i128 } else { v as i128 }).collect()
    }
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ty = if self.unsigned { "u64" } else { "i64" };
        write!(f, "{ty} index {:?} = {:?}", self.sizes, self.entries())
    }
}

impl IdxSpec {
    /// The const axis for gather/scatter: mostly in range (from either end), sometimes any of
    /// `-7..=6`.
    fn const_axis(&self, r: usize) -> isize {
        let (a, r) = (self.axis as isize, r.max(1) as isize);
        match self.axis {
            0..150 => a % r,
            150..220 => a % r - r,
            _ => a % 14 - 7,
        }
    }
    /// An index for gather/scatter along `k` of a tensor of sizes `s`.
    fn for_gather(&self, s: &[usize], k: isize) -> Index {
        let k = norm_axis(k, s.len()).unwrap_or(usize::MAX);
        let r = (s.len() as isize + self.rank_delta as isize).clamp(0, MAX_RANK as isize) as usize;
        let pick = |d: usize| self.dims.get(d).copied().unwrap_or(1) as usize;
        let mut sizes: Vec<usize> = (0..r)
            .map(|d| {
                let n = s.get(d).copied().unwrap_or(1);
                if d == k {
                    pick(d) % 4
                } else {
                    pick(d) % (n.min(3) + 1)
                }
            })
            .collect();
        if let (Some(o), true) = (self.over, r > 0) {
            let d = o as usize % r;
            sizes[d] = s.get(d).copied().unwrap_or(1).min(3) + 1;
        }
        self.fill(sizes, s.get(k).copied().unwrap_or(0))
    }
    /// A rank-0, 1 or 2 index for index_select along a dim of `n`.
    fn for_select(&self, n: usize) -> Index {
        let pick = |d: usize| self.dims.get(d).copied().unwrap_or(1) as usize;
        let sizes = match self.rank_delta {
            -1 => vec![],
            0 => vec![pick(0) % 6],
            _ => vec![pick(0) % 3, pick(1) % 3],
        };
        self.fill(sizes, n)
    }
    fn fill(&self, sizes: Vec<usize>, n: usize) -> Index {
        let count = numel(&sizes) as usize;
        let i64s = (0..count)
            .map(|p| {
                let v = self.entries[p % self.entries.len()].resolve(n, false);
                v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
            })
            .collect();
        Index { sizes, i64s, unsigned: self.unsigned }
    }
}

/// The source of a scatter, derived from the index's sizes.
#[derive(Clone, Debug)]
struct SrcSpec {
    extra: Vec<u8>,
    short: Option<u8>,
    rank_delta: i8,
    kind: u8,
    seed: u8,
}

#[derive(Clone, Debug)]
struct AsStr {
    sizes: Vec<Sz>,
    strides: Vec<isize>,
    offset: Cnt,
    len_delta: i8,
    /// Sets one size to 0: an empty layout, valid with any offset and huge sizes.
    empty_at: Option<u8>,
}

#[derive(Clone, Copy, Debug)]
enum Bin {
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Clone, Copy, Debug)]
enum Red {
    Sum,
    SumAxis(Ax),
    MeanAxis(Ax),
}

/// The write of an assignment.
#[derive(Clone, Copy, Debug)]
enum AForm {
    /// `mv.try_assign(&src)`.
    Whole,
    /// `t!(try mv[i] = &src)`.
    Index(Ix),
    /// `t!(try mv[.., a..b;s] = &src)`.
    Range(Ix, Ix, isize),
    /// `t!(try mv[i] = x)`.
    Scalar(Ix, i8),
}

#[derive(Clone, Debug)]
struct Init {
    sizes: Vec<usize>,
    kind: u8,
    seed: u8,
}

#[derive(Clone, Debug)]
enum Op {
    Slice(Vec<SArg>, bool),
    Permute(Perm),
    Transpose(Ax, Ax),
    Reshape(ShapeReq),
    View(ShapeReq),
    Expand(Derive),
    Squeeze(Ax),
    Unsqueeze(Ax),
    Narrow(Ax, Ix, Cnt),
    Flip(Vec<Ax>),
    Select(Ax, Ix),
    Diagonal(Ix, Ax, Ax),
    Movedim(Ax, Ax),
    Unflatten(Ax, ShapeReq),
    Flatten(Ax, Ax),
    Chunk(Cnt, Ax, u8),
    Split(Cnt, Ax, u8),
    AsStrided(AsStr),
    Cat(Vec<Opnd>, Ax),
    Stack(Vec<Opnd>, Ax),
    Gather(IdxSpec),
    IndexSelect(Ax, IdxSpec),
    Scatter(IdxSpec, SrcSpec),
    Binary(Bin, Opnd, bool),
    IntBinary(Bin, Opnd, bool),
    Reduce(Red),
    Matmul(Opnd, bool, bool),
    Materialize(bool),
    Assign(Opnd, AForm),
    Swap,
    Dup,
    Reset(Init),
}

#[derive(Clone)]
struct Case {
    a: Init,
    b: Init,
    pool: Vec<i8>,
    ops: Vec<Op>,
}

/// One line per operation (proptest prints the minimal failing case with this).
impl std::fmt::Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Case {{\n  a: {:?},\n  b: {:?},\n  pool: {:?},", self.a, self.b, self.pool)?;
        for (i, op) in self.ops.iter().enumerate() {
            writeln!(f, "  op #{i}: {op:?},")?;
        }
        write!(f, "}}")
    }
}

// ------------------------------------------------------------------------------------------
// Strategies.
// ------------------------------------------------------------------------------------------

fn ax() -> BoxedStrategy<Ax> {
    prop_oneof![
        6 => any::<u8>().prop_map(Ax::Pos),
        3 => any::<u8>().prop_map(Ax::Neg),
        1 => prop_oneof![Just(6isize), Just(7), Just(-7), Just(isize::MIN), Just(isize::MAX), -8isize..8].prop_map(Ax::Lit),
    ]
    .boxed()
}

fn ix() -> BoxedStrategy<Ix> {
    prop_oneof![
        8 => any::<u16>().prop_map(Ix::In),
        2 => any::<u8>().prop_map(Ix::Edge),
        1 => prop_oneof![
            Just(i64::MIN),
            Just(i64::MAX),
            Just(i64::MIN + 1),
            Just(i64::from(i32::MAX)),
            Just(1i64 << 62),
            -9i64..9
        ]
        .prop_map(Ix::Lit),
    ]
    .boxed()
}

fn huge() -> BoxedStrategy<usize> {
    prop_oneof![
        Just(usize::MAX),
        Just(isize::MAX as usize),
        Just(isize::MAX as usize + 1),
        Just(1usize << 32),
        Just(1usize << 62),
        Just((1usize << 31) + 1),
    ]
    .boxed()
}

fn cnt() -> BoxedStrategy<Cnt> {
    prop_oneof![9 => any::<u8>().prop_map(Cnt::Small), 1 => huge().prop_map(Cnt::Lit)].boxed()
}

fn step() -> BoxedStrategy<isize> {
    prop_oneof![
        5 => Just(1isize),
        4 => 2isize..=3,
        5 => -3isize..=-1,
        1 => Just(0),
        1 => prop_oneof![Just(isize::MIN), Just(isize::MAX), Just(5), Just(-5)],
    ]
    .boxed()
}

fn sarg() -> BoxedStrategy<SArg> {
    prop_oneof![
        3 => Just(SArg::Full),
        3 => ix().prop_map(SArg::Index),
        4 => (option::weighted(0.7, ix()), option::weighted(0.7, ix()), step()).prop_map(|(s, e, k)| SArg::Range(s, e, k)),
        1 => Just(SArg::NewAxis),
        1 => Just(SArg::Ellipsis),
    ]
    .boxed()
}

fn sz() -> BoxedStrategy<Sz> {
    prop_oneof![12 => (0u8..=4).prop_map(Sz::Small), 1 => huge().prop_map(Sz::Huge)].boxed()
}

fn derive() -> BoxedStrategy<Derive> {
    let md = prop_oneof![12 => Just(Md::Keep), 2 => Just(Md::One), 3 => sz().prop_map(Md::Set)];
    (
        prop_oneof![5 => Just(vec![]), 2 => vec(sz(), 1..=2), 1 => vec(sz(), 3..=4)],
        prop_oneof![8 => Just(0u8), 1 => 1u8..=2],
        vec(md, 0..=6),
    )
        .prop_map(|(lead, drop, mods)| Derive { lead, drop, mods })
        .boxed()
}

fn opnd() -> BoxedStrategy<Opnd> {
    prop_oneof![
        2 => Just(Opnd::Itself),
        2 => Just(Opnd::Other),
        6 => (derive(), any::<u8>(), any::<u8>()).prop_map(|(d, k, s)| Opnd::Fresh(d, k, s)),
    ]
    .boxed()
}

fn shape_req() -> BoxedStrategy<ShapeReq> {
    let raw = prop_oneof![
        6 => 0isize..=4,
        2 => Just(-1isize),
        1 => Just(-2isize),
        1 => prop_oneof![Just(isize::MAX), Just(isize::MIN), Just(1isize << 32), Just(1isize << 62)],
    ];
    prop_oneof![
        6 => (prop_oneof![1 => Just(0u8), 8 => 1u8..=4, 2 => 5u8..=6, 1 => Just(7u8)], vec(any::<u8>(), 1..=6), option::weighted(0.3, any::<u8>()))
            .prop_map(|(rank, picks, infer)| ShapeReq::Factor { rank, picks, infer }),
        1 => vec(raw, 0..=7).prop_map(ShapeReq::Raw),
    ]
    .boxed()
}

fn idx_spec() -> BoxedStrategy<IdxSpec> {
    (
        any::<u8>(),
        prop_oneof![12 => Just(0i8), 1 => Just(-1i8), 1 => Just(1i8)],
        vec(any::<u8>(), 0..=6),
        option::weighted(0.1, any::<u8>()),
        vec(ix(), 1..=6),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(axis, rank_delta, dims, over, entries, unsigned)| IdxSpec {
            axis,
            rank_delta,
            dims,
            over,
            entries,
            unsigned,
        })
        .boxed()
}

fn src_spec() -> BoxedStrategy<SrcSpec> {
    (
        vec(any::<u8>(), 0..=6),
        option::weighted(0.1, any::<u8>()),
        prop_oneof![15 => Just(0i8), 1 => Just(1i8), 1 => Just(-1i8)],
        any::<u8>(),
        any::<u8>(),
    )
        .prop_map(|(extra, short, rank_delta, kind, seed)| SrcSpec { extra, short, rank_delta, kind, seed })
        .boxed()
}

fn as_str() -> BoxedStrategy<AsStr> {
    let stride = |w| {
        prop_oneof![
            12 => -4isize..=4,
            w => prop_oneof![Just(isize::MIN), Just(isize::MAX), Just(1isize << 62), Just(-(1isize << 62)), Just(1isize << 32), Just(-3 << 40)],
        ]
    };
    let ordinary = (
        prop_oneof![1 => Just(0usize), 8 => 1usize..=4, 1 => Just(7usize)].prop_flat_map(|r| vec(sz(), r)),
        vec(stride(1), 8),
        prop_oneof![9 => any::<u8>().prop_map(Cnt::Small), 1 => huge().prop_map(Cnt::Lit)],
        prop_oneof![14 => Just(0i8), 1 => Just(1i8), 1 => Just(-1i8)],
    )
        .prop_map(|(sizes, strides, offset, len_delta)| AsStr {
            sizes,
            strides,
            offset,
            len_delta,
            empty_at: None,
        });
    // Empty layouts with huge sizes, strides and offsets: valid when the counts and reach fit.
    let empty = (
        (1usize..=4)
            .prop_flat_map(|r| vec(prop_oneof![2 => (1u8..=3).prop_map(Sz::Small), 1 => huge().prop_map(Sz::Huge)], r)),
        vec(stride(6), 8),
        prop_oneof![1 => any::<u8>().prop_map(Cnt::Small), 2 => huge().prop_map(Cnt::Lit)],
        any::<u8>(),
    )
        .prop_map(|(sizes, strides, offset, e)| AsStr { sizes, strides, offset, len_delta: 0, empty_at: Some(e) });
    prop_oneof![3 => ordinary, 1 => empty].boxed()
}

fn init() -> BoxedStrategy<Init> {
    let size = prop_oneof![1 => Just(0usize), 3 => Just(1usize), 6 => 2usize..=3, 2 => Just(4usize)];
    let rank = prop_oneof![1 => Just(0usize), 2 => Just(1usize), 3 => Just(2usize), 3 => Just(3usize), 2 => Just(4usize), 1 => 5usize..=6];
    (rank.prop_flat_map(move |r| vec(size.clone(), r)), any::<u8>(), any::<u8>())
        .prop_map(|(mut sizes, kind, seed)| {
            shrink_to_cap(&mut sizes);
            Init { sizes, kind, seed }
        })
        .boxed()
}

fn op() -> BoxedStrategy<Op> {
    let bin = prop_oneof![Just(Bin::Add), Just(Bin::Sub), Just(Bin::Mul), Just(Bin::Div)];
    let red = prop_oneof![Just(Red::Sum), ax().prop_map(Red::SumAxis), ax().prop_map(Red::MeanAxis)];
    let aform = prop_oneof![
        3 => Just(AForm::Whole),
        2 => ix().prop_map(AForm::Index),
        2 => (ix(), ix(), step()).prop_map(|(a, b, s)| AForm::Range(a, b, s)),
        1 => (ix(), -8i8..=8).prop_map(|(i, x)| AForm::Scalar(i, x)),
    ];
    prop_oneof![
        8 => (vec(sarg(), 0..=6), prop::bool::weighted(0.1)).prop_map(|(a, k)| Op::Slice(a, k)),
        3 => (vec(any::<u8>(), 7), option::weighted(0.15, (any::<u8>(), any::<u8>())))
            .prop_map(|(keys, corrupt)| Op::Permute(Perm { keys, corrupt })),
        3 => (ax(), ax()).prop_map(|(a, b)| Op::Transpose(a, b)),
        3 => shape_req().prop_map(Op::Reshape),
        3 => shape_req().prop_map(Op::View),
        3 => derive().prop_map(Op::Expand),
        2 => ax().prop_map(Op::Squeeze),
        3 => ax().prop_map(Op::Unsqueeze),
        3 => (ax(), ix(), cnt()).prop_map(|(a, s, l)| Op::Narrow(a, s, l)),
        2 => vec(ax(), 0..=3).prop_map(Op::Flip),
        3 => (ax(), ix()).prop_map(|(a, i)| Op::Select(a, i)),
        2 => (ix(), ax(), ax()).prop_map(|(o, a, b)| Op::Diagonal(o, a, b)),
        2 => (ax(), ax()).prop_map(|(a, b)| Op::Movedim(a, b)),
        2 => (ax(), shape_req()).prop_map(|(a, q)| Op::Unflatten(a, q)),
        2 => (ax(), ax()).prop_map(|(a, b)| Op::Flatten(a, b)),
        2 => (cnt(), ax(), any::<u8>()).prop_map(|(c, a, p)| Op::Chunk(c, a, p)),
        2 => (cnt(), ax(), any::<u8>()).prop_map(|(c, a, p)| Op::Split(c, a, p)),
        4 => as_str().prop_map(Op::AsStrided),
        2 => (vec(opnd(), 0..=2), ax()).prop_map(|(o, a)| Op::Cat(o, a)),
        2 => (vec(opnd(), 0..=2), ax()).prop_map(|(o, a)| Op::Stack(o, a)),
        3 => idx_spec().prop_map(Op::Gather),
        2 => (ax(), idx_spec()).prop_map(|(a, i)| Op::IndexSelect(a, i)),
        3 => (idx_spec(), src_spec()).prop_map(|(i, s)| Op::Scatter(i, s)),
        5 => (bin.clone(), opnd(), any::<bool>()).prop_map(|(b, o, s)| Op::Binary(b, o, s)),
        2 => (bin, opnd(), any::<bool>()).prop_map(|(b, o, s)| Op::IntBinary(b, o, s)),
        3 => red.prop_map(Op::Reduce),
        3 => (opnd(), prop::bool::weighted(0.8), any::<bool>()).prop_map(|(o, f, s)| Op::Matmul(o, f, s)),
        1 => any::<bool>().prop_map(Op::Materialize),
        4 => (opnd(), aform).prop_map(|(o, f)| Op::Assign(o, f)),
        1 => Just(Op::Swap),
        1 => Just(Op::Dup),
        1 => init().prop_map(Op::Reset),
    ]
    .boxed()
}

fn case() -> impl Strategy<Value = Case> {
    (init(), init(), vec(-8i8..=8, 64), vec(op(), 1..=max_ops())).prop_map(|(a, b, pool, ops)| Case { a, b, pool, ops })
}

// ------------------------------------------------------------------------------------------
// Running a sequence.
// ------------------------------------------------------------------------------------------

fn init_slot(i: &Init, pool: &[i8]) -> Result<Slot, String> {
    make_slot(&i.sizes, values(pool, i.seed, numel(&i.sizes) as usize), i.kind)
}

/// An operand as an owned slot (a copy of `A` or `B`, or a fresh tensor). `adjust` edits a
/// fresh operand's sizes (matmul's inner dim); a fresh shape too large falls back to `A`.
fn operand(st: &State, o: &Opnd, pool: &[i8], adjust: impl Fn(&mut Vec<usize>)) -> Result<Slot, String> {
    match o {
        Opnd::Itself => Ok(st.a.clone()),
        Opnd::Other => Ok(st.b.clone()),
        Opnd::Fresh(d, kind, seed) => {
            let mut sizes = d.resolve(&st.a.model.sizes);
            adjust(&mut sizes);
            if !fresh_ok(&sizes) {
                return Ok(st.a.clone());
            }
            make_slot(&sizes, values(pool, *seed, numel(&sizes) as usize), *kind)
        }
    }
}

/// A view op on `A`: `$call` with the view bound to `$v`, checked against `$want`; the result is
/// adopted as `A`'s new layout. `$allow` accepts an error the reference cannot rule out.
macro_rules! view_op {
    ($st:ident, $what:expr, $want:expr, |$v:ident| $call:expr) => {
        view_op!($st, $what, $want, |$v| $call, |_: &ShapeError| false)
    };
    ($st:ident, $what:expr, $want:expr, |$v:ident| $call:expr, $allow:expr) => {{
        let what: String = $what;
        let want: Result<RView, String> = $want;
        let adopt = {
            let $v = $st.a.view()?;
            let got = call(&what, || $call)?;
            check_view(&what, got, want, &$st.a.src(), &$allow)?
        };
        if let Some((l, m)) = adopt {
            $st.a.layout = l;
            $st.a.model = m;
        }
        Ok(())
    }};
}

/// A reshape-like op on `A` returning a `TensorCow`.
macro_rules! cow_op {
    ($st:ident, $what:expr, $want:expr, |$v:ident| $call:expr) => {{
        let what: String = $what;
        let want: Result<RView, String> = $want;
        let adopt = {
            let $v = $st.a.view()?;
            let got = call(&what, || $call)?;
            check_cow(&what, got, want, &$st.a.src())?
        };
        match adopt {
            Adopt::Keep => {}
            Adopt::View(l, m) => {
                $st.a.layout = l;
                $st.a.model = m;
            }
            Adopt::Owned(s) => $st.a = s,
        }
        Ok(())
    }};
}

/// An op with an owned result: skipped when the reference says it is too large to request.
macro_rules! owned_op {
    ($st:ident, $what:expr, $want:expr, $call:expr) => {{
        let what: String = $what;
        let want: Expect = $want;
        let want = match want {
            Ok(None) => {
                SKIPS.fetch_add(1, Relaxed);
                return Ok(());
            }
            Ok(Some(w)) => Ok(w),
            Err(e) => Err(e),
        };
        let got = call(&what, || $call)?;
        if let Some(s) = check_owned(&what, got, want)? {
            $st.a = s;
        }
        Ok(())
    }};
}

/// Dispatches a runtime axis in `-7..=6` to a const generic `$K: isize` (6 for anything else).
macro_rules! with_const_axis {
    ($k:expr, $K:ident => $body:expr) => {
        with_const_axis!(@arms $k, $K, $body, [-7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5])
    };
    (@arms $k:expr, $K:ident, $body:expr, [$($v:literal),*]) => {
        match $k {
            $($v => {
                const $K: isize = $v;
                $body
            })*
            _ => {
                const $K: isize = 6;
                $body
            }
        }
    };
}

fn gather_call<I: IndexElem>(v: &TV<'_>, k: isize, idx: &Tensor<I, DynShape>) -> Result<TD, ShapeError> {
    with_const_axis!(k, K => v.try_gather(Ax::<K>, idx))
}

fn scatter_call<I: IndexElem>(
    mut mv: TensorViewMut<'_, f64, DynShape>,
    k: isize,
    idx: &Tensor<I, DynShape>,
    src: &TV<'_>,
) -> Result<(), ShapeError> {
    with_const_axis!(k, K => mv.try_scatter_(Ax::<K>, idx, src))
}

/// The index as an i64 and as a u64 tensor (same bits).
type IndexPair = (Tensor<i64, DynShape>, Tensor<u64, DynShape>);

fn index_tensors(ix: &Index) -> Result<IndexPair, String> {
    let i = Tensor::<i64, DynShape>::try_from_vec(&ix.sizes, ix.i64s.clone()).map_err(|e| e.to_string())?;
    let u = Tensor::<u64, DynShape>::try_from_vec(&ix.sizes, ix.i64s.iter().map(|&v| v as u64).collect())
        .map_err(|e| e.to_string())?;
    Ok((i, u))
}

fn apply(st: &mut State, op: &Op, pool: &[i8]) -> Result<(), String> {
    let sizes = st.a.model.sizes.clone();
    let r = sizes.len();
    let dim = |a: isize| norm_axis(a, r).map_or(0, |k| sizes[k]);
    match op {
        Op::Slice(spec, keep_all) => {
            let args = resolve_slice(spec, *keep_all, &sizes);
            view_op!(st, format!("try_slice(&{args:?})"), r_slice(&sizes, &args), |v| v.try_slice(&args))
        }
        Op::Permute(p) => {
            let axes = p.resolve(r);
            view_op!(st, format!("permute_dyn(&{axes:?})"), r_permute(&sizes, &axes), |v| v.try_permute_dyn(&axes))
        }
        Op::Transpose(a, b) => {
            let (a, b) = (a.resolve(r), b.resolve(r));
            view_op!(st, format!("transpose_dyn({a}, {b})"), r_transpose(&sizes, a, b), |v| v.try_transpose(a, b))
        }
        Op::Reshape(q) => {
            let to = q.resolve(numel(&sizes));
            cow_op!(st, format!("try_reshape_dyn(&{to:?})"), r_reshape(&sizes, &to), |v| v.try_reshape_dyn(&to))
        }
        Op::View(q) => {
            let to = q.resolve(numel(&sizes));
            let want = r_reshape(&sizes, &to);
            // A View error is acceptable unless the view is trivially possible (module docs).
            let pos = &st.a.model.pos;
            let trivial = pos.len() <= 1
                || want.as_ref().is_ok_and(|w| w.sizes == sizes)
                || pos.windows(2).all(|w| w[1] == w[0] + 1);
            let allow = move |e: &ShapeError| !trivial && matches!(e, ShapeError::View { .. });
            view_op!(st, format!("try_view_dyn(&{to:?})"), want, |v| v.try_view_dyn(&to), allow)
        }
        Op::Expand(d) => {
            let to = d.resolve(&sizes);
            view_op!(st, format!("expand_dyn(&{to:?})"), r_expand(&sizes, &to), |v| v.try_expand_dyn(&to))
        }
        Op::Squeeze(a) => {
            let a = a.resolve(r);
            view_op!(st, format!("squeeze_dyn({a})"), r_squeeze(&sizes, a), |v| v.try_squeeze(a))
        }
        Op::Unsqueeze(a) => {
            let a = a.resolve(r + 1);
            view_op!(st, format!("unsqueeze_dyn({a})"), r_unsqueeze(&sizes, a), |v| v.try_unsqueeze(a))
        }
        Op::Narrow(a, s, l) => {
            let a = a.resolve(r);
            let n = dim(a);
            let (s, l) = (to_isize(s.resolve(n, true)), l.resolve(n));
            view_op!(st, format!("narrow_dyn({a}, {s}, {l})"), r_narrow(&sizes, a, s, l), |v| v.try_narrow(a, s, l))
        }
        Op::Flip(axes) => {
            let axes: Vec<isize> = axes.iter().map(|a| a.resolve(r)).collect();
            view_op!(st, format!("flip_dyn(&{axes:?})"), r_flip(&sizes, &axes), |v| v.try_flip_dyn(&axes))
        }
        Op::Select(a, i) => {
            let a = a.resolve(r);
            let i = to_isize(i.resolve(dim(a), false));
            view_op!(st, format!("select_dyn({a}, {i})"), r_select(&sizes, a, i), |v| v.try_select(a, i))
        }
        Op::Diagonal(o, a, b) => {
            let (a, b) = (a.resolve(r), b.resolve(r));
            let o = to_isize(o.resolve(dim(a).max(dim(b)), true));
            view_op!(st, format!("diagonal_dyn({o}, {a}, {b})"), r_diagonal(&sizes, o, a, b), |v| v
                .try_diagonal(o, a, b))
        }
        Op::Movedim(a, b) => {
            let (a, b) = (a.resolve(r), b.resolve(r));
            view_op!(st, format!("movedim_dyn({a}, {b})"), r_movedim(&sizes, a, b), |v| v.try_movedim(a, b))
        }
        Op::Unflatten(a, q) => {
            let a = a.resolve(r);
            let n = dim(a);
            let req = q.resolve(n as u128);
            // The split dim is empty: the library may refuse by its strides' reach (module docs).
            let allow = move |e: &ShapeError| n == 0 && matches!(e, ShapeError::Overflow { .. });
            view_op!(
                st,
                format!("unflatten_dyn({a}, &{req:?})"),
                r_unflatten(&sizes, a, &req),
                |v| v.try_unflatten_dyn(a, &req),
                allow
            )
        }
        Op::Flatten(a, b) => {
            let (a, b) = (a.resolve(r.max(1)), b.resolve(r.max(1)));
            let (a, b) = if norm_axis(a, r.max(1)).ok() > norm_axis(b, r.max(1)).ok() && (a ^ b) & 1 == 0 {
                (b, a)
            } else {
                (a, b)
            };
            cow_op!(st, format!("flatten_dyn({a}, {b})"), r_flatten(&sizes, a, b), |v| v.try_flatten_range(a, b))
        }
        Op::Chunk(c, a, pick) | Op::Split(c, a, pick) => {
            let is_chunk = matches!(op, Op::Chunk(..));
            let a = a.resolve(r);
            let n = dim(a);
            let c = c.resolve(n);
            let name = if is_chunk { "chunk_dyn" } else { "split_dyn" };
            let what = format!("{name}({c}, {a})");
            // Piece lists that are huge but allocatable are not requested; past isize::MAX bytes
            // they must be refused.
            let count = if norm_axis(a, r).is_ok() {
                piece_count(n, is_chunk.then_some(c), (!is_chunk).then_some(c))
            } else {
                0
            };
            let want: Result<Vec<RView>, String> = if count * std::mem::size_of::<Layout>() as u128 > isize::MAX as u128
            {
                Err(format!("{count} pieces cannot be allocated"))
            } else if count > 4096 {
                SKIPS.fetch_add(1, Relaxed);
                return Ok(());
            } else {
                norm_axis(a, r).and_then(|k| {
                    let pieces = if is_chunk {
                        match (c, n) {
                            (0, _) => return Err("0 chunks".into()),
                            (_, 0) => vec![(0, 0); c],
                            _ => split_pieces(n, n.div_ceil(c))?,
                        }
                    } else {
                        split_pieces(n, c)?
                    };
                    pieces.into_iter().map(|(s, l)| part(&sizes, k, s, l)).collect()
                })
            };
            let adopt = {
                let v = st.a.view()?;
                let got = call(&what, || if is_chunk { v.try_chunk(c, a) } else { v.try_split(c, a) })?;
                record(&what, got.is_ok());
                match (got, want) {
                    (Err(e), Err(_)) => {
                        nonempty(&what, &e)?;
                        None
                    }
                    (Ok(ps), Err(why)) => {
                        return Err(format!(
                            "{what}: Ok with {} pieces, but the reference says invalid ({why})",
                            ps.len()
                        ))
                    }
                    (Err(e), Ok(ws)) => {
                        return Err(format!("{what}: Err(\"{e}\"), but the reference expects {} pieces", ws.len()))
                    }
                    (Ok(ps), Ok(ws)) => {
                        if ps.len() != ws.len() {
                            return Err(format!("{what}: {} pieces, the reference says {}", ps.len(), ws.len()));
                        }
                        let mut adopt = None;
                        let chosen = *pick as usize % ps.len().max(1);
                        for (i, (p, w)) in ps.iter().zip(&ws).enumerate() {
                            let got = compare_view(&format!("{what} piece {i}"), p, w, &st.a.src())?;
                            if i == chosen {
                                adopt = got;
                            }
                        }
                        adopt
                    }
                }
            };
            if let Some((l, m)) = adopt {
                st.a.layout = l;
                st.a.model = m;
            }
            Ok(())
        }
        Op::AsStrided(s) => {
            let len = st.a.data.len();
            let mut sz: Vec<usize> = s.sizes.iter().map(|x| x.get()).collect();
            if let (Some(e), false) = (s.empty_at, sz.is_empty()) {
                let k = e as usize % sz.len();
                sz[k] = 0;
            }
            let k = (sz.len() as isize + s.len_delta as isize).max(0) as usize;
            let strides: Vec<isize> = (0..k).map(|i| s.strides[i % s.strides.len()]).collect();
            let offset = match s.offset {
                Cnt::Small(k) => k as usize % (len + 2),
                Cnt::Lit(v) => v,
            };
            let what = format!("try_as_strided(&{sz:?}, &{strides:?}, {offset})");
            let want = r_as_strided(len, &sz, &strides, offset);
            let flat = Model { sizes: vec![len], pos: (0..len).collect() };
            let adopt = {
                let v = st.a.view()?;
                let got = call(&what, || v.try_as_strided(&sz, &strides, offset))?;
                let src = Src { model: &flat, data: &st.a.data, rdata: &st.a.rdata };
                check_view(&what, got, want, &src, &|_| false)?
            };
            if let Some((l, m)) = adopt {
                st.a.layout = l;
                st.a.model = m;
            }
            Ok(())
        }
        Op::Cat(others, a) | Op::Stack(others, a) => {
            let is_cat = matches!(op, Op::Cat(..));
            let a = if is_cat { a.resolve(r) } else { a.resolve(r + 1) };
            let slots = others.iter().map(|o| operand(st, o, pool, |_| {})).collect::<Result<Vec<_>, _>>()?;
            let mut wants = vec![st.a.want()];
            wants.extend(slots.iter().map(Slot::want));
            let shapes: Vec<&[usize]> = wants.iter().map(|w| w.sizes.as_slice()).collect();
            let name = if is_cat { "cat_dyn" } else { "stack_dyn" };
            let want = if is_cat { r_cat(&wants, a) } else { r_stack(&wants, a) };
            let v = st.a.view()?;
            let mut xs = vec![v];
            for s in &slots {
                xs.push(s.view()?);
            }
            let refs: Vec<&TV<'_>> = xs.iter().collect();
            owned_op!(
                st,
                format!("Tensor::{name}(&{shapes:?}, {a})"),
                want,
                if is_cat { TD::try_cat_all(&refs, a) } else { TD::try_stack_all(&refs, a) }
            )
        }
        Op::Gather(g) => {
            let k = g.const_axis(r);
            let ix = g.for_gather(&sizes, k);
            let want = r_gather(&st.a.want(), k, &ix.sizes, &ix.entries());
            let (ti, tu) = index_tensors(&ix)?;
            let v = st.a.view()?;
            owned_op!(
                st,
                format!("try_gather(Ax::<{k}>, {ix:?})"),
                want,
                if ix.unsigned { gather_call(&v, k, &tu) } else { gather_call(&v, k, &ti) }
            )
        }
        Op::IndexSelect(a, g) => {
            let a = a.resolve(r);
            let ix = g.for_select(dim(a));
            let want = r_index_select(&st.a.want(), a, &ix.sizes, &ix.entries());
            let (ti, tu) = index_tensors(&ix)?;
            let v = st.a.view()?;
            owned_op!(
                st,
                format!("try_index_select({a}, {ix:?})"),
                want,
                if ix.unsigned { v.try_index_select(a, &tu) } else { v.try_index_select(a, &ti) }
            )
        }
        Op::Scatter(g, s) => {
            let k = g.const_axis(r);
            let ix = g.for_gather(&sizes, k);
            let rs = (ix.sizes.len() as isize + s.rank_delta as isize).clamp(0, MAX_RANK as isize) as usize;
            let mut ss: Vec<usize> = (0..rs)
                .map(|d| ix.sizes.get(d).copied().unwrap_or(1) + s.extra.get(d).map_or(0, |&e| (e % 2) as usize))
                .collect();
            if let (Some(o), true) = (s.short, rs > 0) {
                let d = o as usize % rs;
                ss[d] = ss[d].saturating_sub(1);
            }
            shrink_to_cap(&mut ss);
            let src = make_slot(&ss, values(pool, s.seed, numel(&ss) as usize), s.kind)?;
            let want = r_scatter(&st.a.model, k, &ix.sizes, &ix.entries(), &src.want());
            let (ti, tu) = index_tensors(&ix)?;
            let sv = src.view()?;
            let what = format!("try_scatter_(Ax::<{k}>, {ix:?}, src {ss:?})");
            mutate(&mut st.a, &what, want, |mv| {
                if ix.unsigned {
                    scatter_call(mv, k, &tu, &sv)
                } else {
                    scatter_call(mv, k, &ti, &sv)
                }
            })
        }
        Op::Binary(b, o, swap) => {
            let other = operand(st, o, pool, |_| {})?;
            let (x, y) = if *swap { (&other, &st.a) } else { (&st.a, &other) };
            let want = r_binary(*b, &x.want(), &y.want());
            let (xv, yv) = (x.view()?, y.view()?);
            let what = format!("try_{b:?}({:?}, {:?})", xv.sizes(), yv.sizes()).to_lowercase();
            owned_op!(
                st,
                what,
                want,
                match b {
                    Bin::Add => xv.try_add(&yv),
                    Bin::Sub => xv.try_sub(&yv),
                    Bin::Mul => xv.try_mul(&yv),
                    Bin::Div => xv.try_div(&yv),
                }
            )
        }
        Op::IntBinary(b, o, swap) => {
            // The same storages and layouts as i8 (`as` saturates; both sides see the same i8s).
            let other = operand(st, o, pool, |_| {})?;
            let (x, y) = if *swap { (&other, &st.a) } else { (&st.a, &other) };
            let want = r_int_binary(*b, &x.want(), &y.want());
            if let Ok(None) = want {
                SKIPS.fetch_add(1, Relaxed);
                return Ok(());
            }
            let ints = |s: &Slot| -> Vec<i8> { s.data.iter().map(|&v| v as i8).collect() };
            let (xd, yd) = (ints(x), ints(y));
            let iv = |d, l| TensorView::<i8, DynShape>::try_from_parts(d, l).map_err(|e| format!("an i8 view: {e}"));
            let (xv, yv) = (iv(&xd[..], x.layout)?, iv(&yd[..], y.layout)?);
            let what = format!("try_{b:?}::<i8>({:?}, {:?})", xv.sizes(), yv.sizes()).to_lowercase();
            let got = call(&what, || match b {
                Bin::Add => xv.try_add(&yv),
                Bin::Sub => xv.try_sub(&yv),
                Bin::Mul => xv.try_mul(&yv),
                Bin::Div => xv.try_div(&yv),
            })?;
            record(&what, got.is_ok());
            match (got, want) {
                (Err(e), Err(_)) => nonempty(&what, &e),
                (Ok(t), Err(why)) => Err(mismatch(&what, Ok(t.sizes()), Err(&why))),
                (Err(e), Ok(w)) => Err(mismatch(&what, Err(&e), Ok(&w.map(|w| w.0).unwrap_or_default()))),
                (Ok(t), Ok(w)) => {
                    let (sizes, vals) = w.unwrap_or_default();
                    let got = call(&format!("to_vec of {what}"), || t.try_to_vec())?.map_err(|e| e.to_string())?;
                    if t.sizes() != sizes.as_slice() || got != vals {
                        return Err(format!("{what}: {:?} {got:?}, the reference says {sizes:?} {vals:?}", t.sizes()));
                    }
                    Ok(())
                }
            }
        }
        Op::Reduce(Red::Sum) => {
            let v = st.a.view()?;
            let got = call("sum()", || v.sum())?;
            let exp = st.a.want().vals.iter().fold(0.0, |acc, v| acc + v);
            if !same(got, exp) {
                return Err(format!("sum() = {got}, the reference says {exp}"));
            }
            Ok(())
        }
        Op::Reduce(Red::SumAxis(a) | Red::MeanAxis(a)) => {
            let mean = matches!(op, Op::Reduce(Red::MeanAxis(_)));
            let a = a.resolve(r);
            let want = r_sum_axis(&st.a.want(), a, mean);
            let v = st.a.view()?;
            let name = if mean { "try_mean_axis_dyn" } else { "try_sum_axis_dyn" };
            owned_op!(st, format!("{name}({a})"), want, if mean { v.try_mean_axis(a) } else { v.try_sum_axis(a) })
        }
        Op::Matmul(o, fit, swap) => {
            let (fit, swap) = (*fit, *swap);
            let other = operand(st, o, pool, |s| {
                let l = s.len();
                // The inner dim of a 1-D operand is its only dim (PyTorch `matmul`).
                if fit && l >= 1 && r >= 1 {
                    if swap {
                        s[l - 1] = sizes[r.saturating_sub(2)];
                    } else {
                        s[l.saturating_sub(2)] = sizes[r - 1];
                    }
                }
            })?;
            let (x, y) = if swap { (&other, &st.a) } else { (&st.a, &other) };
            let want = r_matmul(&x.want(), &y.want());
            let (xv, yv) = (x.view()?, y.view()?);
            owned_op!(st, format!("try_matmul({:?}, {:?})", xv.sizes(), yv.sizes()), want, xv.try_matmul(&yv))
        }
        Op::Materialize(contiguous) => {
            if *contiguous {
                cow_op!(st, "try_contiguous()".to_string(), reshape_map(&sizes, sizes.clone()), |v| v.try_contiguous())
            } else {
                let want = Ok(Some(st.a.want()));
                let v = st.a.view()?;
                owned_op!(st, "try_to_owned()".to_string(), want, v.try_to_owned())
            }
        }
        Op::Assign(o, form) => {
            // The target: all of A, or A[i], or A[.., a..b;s].
            let (args, what): (Vec<SliceArg>, String) = match *form {
                AForm::Whole => (vec![], "try_assign".into()),
                AForm::Index(i) | AForm::Scalar(i, _) => {
                    let i = to_isize(i.resolve(sizes.first().copied().unwrap_or(0), false));
                    (vec![SliceArg::Index(i)], format!("t!(try x[{i}] = ..)"))
                }
                AForm::Range(a, b, s) => {
                    let n = sizes.get(1).copied().unwrap_or(0);
                    let (a, b) = (to_isize(a.resolve(n, true)), to_isize(b.resolve(n, true)));
                    let args = vec![SliceArg::Full, SliceArg::Range { start: Some(a), end: Some(b), step: s }];
                    (args, format!("t!(try x[.., {a}..{b};{s}] = ..)"))
                }
            };
            let target = r_slice(&sizes, &args).map(|t| materialize(&st.a.model, &t));
            let base = target.as_ref().map_or(sizes.clone(), |t| t.sizes.clone());
            let src = match o {
                Opnd::Fresh(d, kind, seed) => {
                    let ss = d.resolve(&base);
                    if !fresh_ok(&ss) {
                        st.b.clone()
                    } else {
                        make_slot(&ss, values(pool, *seed, numel(&ss) as usize), *kind)?
                    }
                }
                // A copy of A as it is now (the value is read before the write).
                _ => operand(st, o, pool, |_| {})?,
            };
            let sw = src.want();
            let sv = src.view()?;
            match *form {
                AForm::Scalar(_, x) => {
                    let x = f64::from(x);
                    let want = target.map(|t| t.pos.iter().map(|&p| (p, x)).collect());
                    let [SliceArg::Index(i)] = args[..] else { unreachable!() };
                    mutate(&mut st.a, &format!("{what} with {x}"), want, |mut mv| t!(try mv[i] = x))
                }
                _ => {
                    let want = target.and_then(|t| r_assign(&t, &sw));
                    let what = format!("{what} with a value of sizes {:?}", sw.sizes);
                    mutate(&mut st.a, &what, want, |mut mv| match args[..] {
                        [] => mv.try_assign(&sv),
                        [SliceArg::Index(i)] => t!(try mv[i] = &sv),
                        [_, SliceArg::Range { start: Some(a), end: Some(b), step: s }] => t!(try mv[.., a..b;s] = &sv),
                        _ => unreachable!(),
                    })
                }
            }
        }
        Op::Swap => {
            std::mem::swap(&mut st.a, &mut st.b);
            Ok(())
        }
        Op::Dup => {
            st.b = st.a.clone();
            Ok(())
        }
        Op::Reset(i) => {
            st.a = init_slot(i, pool)?;
            Ok(())
        }
    }
}

fn run_case(c: &Case) -> Result<(), String> {
    SEQS.fetch_add(1, Relaxed);
    let mut st = State { a: init_slot(&c.a, &c.pool)?, b: init_slot(&c.b, &c.pool)? };
    for (i, op) in c.ops.iter().enumerate() {
        let before = st.a.describe();
        apply(&mut st, op, &c.pool).map_err(|e| format!("op #{i} on A = {before}:\n  {e}"))?;
    }
    Ok(())
}

#[test]
fn fuzz_dynamic_op_sequences() {
    let (cases, seed) = (cases(), seed());
    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        max_shrink_iters: if cfg!(miri) { 0 } else { 4096 },
        ..Config::default()
    };
    install_panic_hook();
    let start = std::time::Instant::now();
    let result = TestRunner::new(config).run(&case(), |c| run_case(&c).map_err(TestCaseError::fail));
    drop(std::panic::take_hook());
    // Straight to stderr, past libtest's capture, so a passing run shows its size too.
    let _ = writeln!(
        std::io::stderr(),
        "fuzz: {} sequences, {} op calls ({} oversized calls skipped) in {:.1?}; seed {seed}, {cases} cases \
         (SHAPED_FUZZ_SEED / SHAPED_FUZZ_CASES)",
        SEQS.load(Relaxed),
        OPS.load(Relaxed),
        SKIPS.load(Relaxed),
        start.elapsed(),
    );
    if std::env::var_os("SHAPED_FUZZ_STATS").is_some() {
        let m = STATS.lock().unwrap_or_else(|e| e.into_inner());
        for (name, (ok, err)) in m.iter() {
            let _ = writeln!(std::io::stderr(), "  {name:<28} ok {ok:>7}  err {err:>7}");
        }
    }
    if let Err(e) = result {
        panic!("{e}");
    }
}

// ------------------------------------------------------------------------------------------
// Reductions over IEEE special values (issue 25).
// ------------------------------------------------------------------------------------------
//
// A second differential target: a slot whose values include +-inf, NaN, huge (1e308, so two of
// them overflow) and tiny ones, taken through a random sequence of the view operations above
// (each checked by `apply` as usual), then reduced whole and along every axis with `sum`,
// `try_sum_axis_dyn` and `try_mean_axis_dyn`. The model of a sum is IEEE's, in any order: NaN
// with a NaN or both infinities, the infinity's sign with one of them, a finite sum within an
// error bound when its terms cannot leave the range, the infinity of the sign when all terms
// share it and the total passes the range; where huge terms of both signs may overflow in an
// order-dependent way, a non-finite result is accepted too.

/// Values of the IEEE reduction target: ordinary, huge, tiny and non-finite.
const IEEE_POOL: [f64; 12] =
    [1.0, -2.5, 3.0, 0.0, 1e308, -1e308, 1.5e308, 1e-310, -1e-300, f64::INFINITY, f64::NEG_INFINITY, f64::NAN];

/// Whether the IEEE sum of `xs`, in any order, may be `got`.
fn ieee_sum_ok(xs: &[f64], got: f64, mean: bool) -> bool {
    let n = xs.len();
    let div = if mean { n as f64 } else { 1.0 };
    if mean && n == 0 {
        return got.is_nan();
    }
    let (pinf, ninf) = (xs.contains(&f64::INFINITY), xs.contains(&f64::NEG_INFINITY));
    if xs.iter().any(|x| x.is_nan()) || (pinf && ninf) {
        return got.is_nan();
    }
    // Scaled by 2^-600 so the model itself never overflows.
    let sc = 2f64.powi(-600);
    let max = f64::MAX * sc;
    if pinf || ninf {
        let inf = if pinf { f64::INFINITY } else { f64::NEG_INFINITY };
        let other: f64 = xs.iter().filter(|x| x.is_finite() && x.signum() != inf.signum()).map(|x| x.abs() * sc).sum();
        return got == inf || (other >= max * 0.999 && got.is_nan());
    }
    let a: f64 = xs.iter().map(|x| x.abs() * sc).sum();
    let s: f64 = xs.iter().map(|x| x * sc).sum();
    let tol = (n as f64 + 2.0) * f64::EPSILON * a;
    // A mean rounds once more, in the division.
    let near = got.is_finite() && ((got * div * sc) - s).abs() <= tol + 2.0 * f64::EPSILON * s.abs() + 1e-300;
    if a < max * 0.999 {
        return near;
    }
    let same_sign = xs.iter().all(|&x| x >= 0.0) || xs.iter().all(|&x| x <= 0.0);
    if same_sign && s.abs() > max * 1.001 {
        return got == s.signum() * f64::INFINITY;
    }
    near || !got.is_finite()
}

#[derive(Clone, Debug)]
struct IeeeCase {
    init: Init,
    vals: Vec<u8>,
    ops: Vec<Op>,
}

/// The view operations of [`op`] (no owned results, so the special values stay in the slot).
fn view_op() -> BoxedStrategy<Op> {
    prop_oneof![
        4 => (vec(sarg(), 0..=6), prop::bool::weighted(0.1)).prop_map(|(a, k)| Op::Slice(a, k)),
        3 => (vec(any::<u8>(), 7), Just(None)).prop_map(|(keys, corrupt)| Op::Permute(Perm { keys, corrupt })),
        3 => (ax(), ax()).prop_map(|(a, b)| Op::Transpose(a, b)),
        2 => derive().prop_map(Op::Expand),
        2 => (ax(), ix(), cnt()).prop_map(|(a, s, l)| Op::Narrow(a, s, l)),
        2 => vec(ax(), 0..=3).prop_map(Op::Flip),
        2 => (ax(), ix()).prop_map(|(a, i)| Op::Select(a, i)),
        1 => (ix(), ax(), ax()).prop_map(|(o, a, b)| Op::Diagonal(o, a, b)),
        2 => (ax(), ax()).prop_map(|(a, b)| Op::Movedim(a, b)),
    ]
    .boxed()
}

fn ieee_case() -> impl Strategy<Value = IeeeCase> {
    (init(), vec(any::<u8>(), CAP), vec(view_op(), 0..=4)).prop_map(|(init, vals, ops)| IeeeCase { init, vals, ops })
}

fn run_ieee_case(c: &IeeeCase) -> Result<(), String> {
    let n = numel(&c.init.sizes) as usize;
    // Mostly ordinary values, so that many lines stay finite.
    let vals: Vec<f64> = (0..n)
        .map(|i| {
            let b = c.vals[i % c.vals.len()] as usize;
            if b.is_multiple_of(3) {
                IEEE_POOL[(b / 3) % IEEE_POOL.len()]
            } else {
                IEEE_POOL[b % 4]
            }
        })
        .collect();
    let slot = make_slot(&c.init.sizes, vals, c.init.kind)?;
    let mut st = State { b: make_slot(&[], vec![0.0], 0)?, a: slot };
    let pool = vec![1i8; 64];
    for (i, op) in c.ops.iter().enumerate() {
        apply(&mut st, op, &pool).map_err(|e| format!("view op #{i}: {e}"))?;
    }
    let want = st.a.want();
    let v = st.a.view()?;
    let sizes = want.sizes.clone();
    let got = call("sum()", || v.sum())?;
    if !ieee_sum_ok(&want.vals, got, false) {
        return Err(format!("sum() of {sizes:?} {:?} = {got}", want.vals));
    }
    for a in 0..sizes.len() {
        let mut out_sizes = sizes.clone();
        out_sizes.remove(a);
        let outs = numel(&out_sizes) as usize;
        for mean in [false, true] {
            let name = if mean { "try_mean_axis_dyn" } else { "try_sum_axis_dyn" };
            let r = call(name, || if mean { v.try_mean_axis(a as isize) } else { v.try_sum_axis(a as isize) })?
                .map_err(|e| format!("{name}({a}) of {sizes:?}: {e}"))?;
            let r = r.to_vec();
            if r.len() != outs {
                return Err(format!("{name}({a}) of {sizes:?}: {} results, want {outs}", r.len()));
            }
            for (o, &g) in r.iter().enumerate() {
                let mut c0 = unravel(o, &out_sizes);
                c0.insert(a, 0);
                let line: Vec<f64> = (0..sizes[a])
                    .map(|k| {
                        c0[a] = k;
                        want.at(&c0)
                    })
                    .collect();
                if !ieee_sum_ok(&line, g, mean) {
                    return Err(format!("{name}({a}) of {sizes:?}, output {o}: {g}, the line is {line:?}"));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn fuzz_ieee_reductions() {
    let cases = if cfg!(miri) { 4 } else { 512 };
    let config = Config {
        cases,
        rng_seed: RngSeed::Fixed(seed()),
        failure_persistence: None,
        max_shrink_iters: if cfg!(miri) { 0 } else { 1024 },
        ..Config::default()
    };
    let result = TestRunner::new(config).run(&ieee_case(), |c| run_ieee_case(&c).map_err(TestCaseError::fail));
    if let Err(e) = result {
        panic!("{e}");
    }
}
