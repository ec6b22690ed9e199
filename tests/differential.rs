//! Differential property tests: random shapes, chains of views (slices with steps, negative
//! steps, indices, new axes, permutes, expands, views of views) and broadcasting, compared
//! against a reference that indexes a flat buffer one element at a time.
//!
//! The base tensor holds `0..numel`, so a view's elements are the flat offsets it reaches, and
//! the reference is a list of those offsets in row-major order.
use proptest::prelude::*;
use rand::{rngs::SmallRng, RngExt, SeedableRng};
use shaped::prelude::*;

mod common;
use common::*;

/// Random cases per property: 3000, or `PROPTEST_CASES`; 4 under Miri, which interprets every
/// instruction (and does not see the host's environment).
/// The reference model of a view: its sizes and the base offset of each element (row-major).
#[derive(Clone, Debug)]
struct RefView {
    sizes: Vec<usize>,
    elems: Vec<usize>,
}

impl RefView {
    fn base(sizes: &[usize]) -> Self {
        RefView { sizes: sizes.to_vec(), elems: (0..numel(sizes)).collect() }
    }
    /// Builds a view whose element at `out` is this view's element at `map(out)`.
    fn derive(&self, sizes: Vec<usize>, map: impl Fn(&[usize]) -> Vec<usize>) -> Self {
        let elems = (0..numel(&sizes)).map(|p| self.elems[ravel(&map(&unravel(p, &sizes)), &self.sizes)]).collect();
        RefView { sizes, elems }
    }

    /// NumPy/PyTorch basic indexing, element by element; `None` where the index is invalid.
    fn slice(&self, args: &[SliceArg]) -> Option<Self> {
        let consumed = args.iter().filter(|a| !matches!(a, SliceArg::NewAxis | SliceArg::Ellipsis)).count();
        if consumed > self.sizes.len() || args.iter().filter(|a| matches!(a, SliceArg::Ellipsis)).count() > 1 {
            return None;
        }
        // Per output dim: where it comes from (input dim and the positions it walks), or a new axis.
        enum Out {
            From(usize, Vec<usize>),
            New,
        }
        let mut outs = Vec::new();
        let mut fixed = vec![None; self.sizes.len()];
        let mut d = 0;
        let mut expanded: Vec<SliceArg> = Vec::new();
        for a in args {
            if *a == SliceArg::Ellipsis {
                expanded.extend(std::iter::repeat_n(SliceArg::Full, self.sizes.len() - consumed));
            } else {
                expanded.push(*a);
            }
        }
        for a in &expanded {
            match *a {
                SliceArg::NewAxis => outs.push(Out::New),
                SliceArg::Ellipsis => unreachable!(),
                SliceArg::Full => {
                    outs.push(Out::From(d, (0..self.sizes[d]).collect()));
                    d += 1;
                }
                SliceArg::Index(i) => {
                    let n = self.sizes[d] as isize;
                    let j = if i < 0 { i + n } else { i };
                    if j < 0 || j >= n {
                        return None;
                    }
                    fixed[d] = Some(j as usize);
                    d += 1;
                }
                SliceArg::Range { start, end, step } => {
                    let n = self.sizes[d] as isize;
                    let norm = |v: isize| if v < 0 { v + n } else { v };
                    let (s, e) = (start.map_or(0, norm), end.map_or(n, norm));
                    if step == 0 || s < 0 || e > n || s > e {
                        return None;
                    }
                    let fwd: Vec<usize> = (s as usize..e as usize).collect();
                    let pos: Vec<usize> = if step > 0 {
                        fwd.into_iter().step_by(step as usize).collect()
                    } else {
                        fwd.into_iter().rev().step_by(step.unsigned_abs()).collect()
                    };
                    outs.push(Out::From(d, pos));
                    d += 1;
                }
            }
        }
        while d < self.sizes.len() {
            outs.push(Out::From(d, (0..self.sizes[d]).collect()));
            d += 1;
        }
        if outs.len() > shaped::MAX_RANK {
            return None;
        }
        let sizes: Vec<usize> = outs.iter().map(|o| if let Out::From(_, p) = o { p.len() } else { 1 }).collect();
        Some(self.derive(sizes, |out| {
            let mut idx: Vec<usize> = fixed.iter().map(|f| f.unwrap_or(0)).collect();
            for (k, o) in outs.iter().enumerate() {
                if let Out::From(dim, pos) = o {
                    idx[*dim] = pos[out[k]];
                }
            }
            idx
        }))
    }

    fn permute(&self, axes: &[usize]) -> Self {
        let sizes = axes.iter().map(|&a| self.sizes[a]).collect();
        self.derive(sizes, |out| {
            let mut idx = vec![0; axes.len()];
            for (k, &a) in axes.iter().enumerate() {
                idx[a] = out[k];
            }
            idx
        })
    }

    fn expand(&self, to: &[usize]) -> Self {
        let lead = to.len() - self.sizes.len();
        let sizes = self.sizes.clone();
        self.derive(to.to_vec(), |out| {
            (0..sizes.len()).map(|d| if sizes[d] == 1 { 0 } else { out[d + lead] }).collect()
        })
    }
}

/// Arguments that fit the current sizes (mostly valid, sometimes out of range), drawn by rand's
/// `SmallRng` from a seed that proptest draws (so that a failure replays from its seed).
struct Gen(SmallRng);
impl Gen {
    fn new(seed: u64) -> Self {
        Gen(SmallRng::seed_from_u64(seed))
    }
    fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n.max(1))
    }
    fn int(&mut self, lo: isize, hi: isize) -> isize {
        self.0.random_range(lo as i64..=hi as i64) as isize
    }
    fn arg(&mut self, n: usize) -> SliceArg {
        let n = n as isize;
        let bound = |g: &mut Gen| match g.below(4) {
            0 => None,
            _ => Some(g.int(-n - 1, n + 1)),
        };
        match self.below(6) {
            0 => SliceArg::Full,
            1 => SliceArg::Index(self.int(-n - 1, n)),
            2 => SliceArg::NewAxis,
            _ => {
                let mut step = self.int(-3, 3);
                if step == 0 && self.below(8) != 0 {
                    step = 1;
                }
                SliceArg::Range { start: bound(self), end: bound(self), step }
            }
        }
    }
}

fn base_tensor(sizes: &[usize]) -> Tensor<i64, DynShape> {
    Tensor::from_vec(sizes, (0..numel(sizes) as i64).collect())
}

fn as_offsets(v: &[i64]) -> Vec<usize> {
    v.iter().map(|&x| x as usize).collect()
}

fn shape_strategy() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(1usize..=5, 1..=4)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(3000, 4), failure_persistence: None, ..ProptestConfig::default() })]

    /// Chains of up to four view operations on a random shape, against the reference.
    #[test]
    fn view_chains_match_reference(sizes in shape_strategy(), seed in any::<u64>(), steps in 1usize..=4) {
        let base = base_tensor(&sizes);
        let mut g = Gen::new(seed);
        let mut reference = RefView::base(&sizes);
        let mut layout = *base.layout();
        for _ in 0..steps {
            let view = TensorView::<i64, DynShape>::try_from_parts(base.storage(), layout).unwrap();
            match g.below(4) {
                0 | 1 => {
                    let k = g.below(view.rank() + 2);
                    let mut args: Vec<SliceArg> = (0..k).map(|i| g.arg(view.sizes().get(i).copied().unwrap_or(3))).collect();
                    if g.below(4) == 0 && !args.is_empty() {
                        let at = g.below(args.len() + 1);
                        args.insert(at, SliceArg::Ellipsis);
                    }
                    let got = view.try_slice(&args);
                    let want = reference.slice(&args);
                    prop_assert_eq!(got.is_ok(), want.is_some(), "args {:?} on {:?}: {:?}", args, view.sizes(), got.as_ref().err());
                    if let (Ok(v), Some(r)) = (got, want) {
                        layout = *v.layout();
                        reference = r;
                    }
                }
                2 => {
                    let mut axes: Vec<usize> = (0..view.rank()).collect();
                    for i in (1..axes.len()).rev() {
                        axes.swap(i, g.below(i + 1));
                    }
                    layout = *view.try_permute_dyn(&axes).unwrap().layout();
                    reference = reference.permute(&axes);
                }
                _ => {
                    if view.rank() < shaped::MAX_RANK {
                        let mut to: Vec<usize> = view.sizes().iter().map(|&n| if n == 1 { g.below(3) + 1 } else { n }).collect();
                        if g.below(2) == 0 {
                            to.insert(0, g.below(3) + 1);
                        }
                        layout = *view.try_expand_dyn(&to).unwrap().layout();
                        reference = reference.expand(&to);
                    }
                }
            }
            let view = TensorView::<i64, DynShape>::try_from_parts(base.storage(), layout).unwrap();
            prop_assert_eq!(view.sizes(), &reference.sizes[..]);
            prop_assert_eq!(as_offsets(&view.to_vec()), reference.elems.clone());
            // contiguous() and a reshape to 1-D agree with the reference too.
            prop_assert_eq!(as_offsets(&view.contiguous().to_vec()), reference.elems.clone());
            prop_assert_eq!(as_offsets(&view.reshape_dyn(&[-1]).to_vec()), reference.elems.clone());
        }
    }

    /// The `t!` macro with runtime bounds lowers to the same layouts as the reference.
    #[test]
    fn t_macro_matches_reference(seed in any::<u64>()) {
        let mut g = Gen::new(seed);
        let sizes = [g.below(4) + 2, g.below(4) + 2, g.below(4) + 2];
        let x = base_tensor(&sizes);
        let i = g.int(-(sizes[0] as isize), sizes[0] as isize - 1);
        let (a, b) = (g.int(0, sizes[1] as isize), g.int(0, sizes[1] as isize));
        let (a, b) = (a.min(b), a.max(b));
        let st = if g.below(2) == 0 { 1 + g.below(2) as isize } else { -1 - g.below(2) as isize };
        let j = g.int(0, sizes[2] as isize - 1);
        let v = t!(x[i, a..b;st, None, j]);
        let r = RefView::base(&sizes)
            .slice(&[SliceArg::Index(i), SliceArg::Range { start: Some(a), end: Some(b), step: st }, SliceArg::NewAxis, SliceArg::Index(j)])
            .unwrap();
        prop_assert_eq!(v.sizes(), &r.sizes[..]);
        prop_assert_eq!(as_offsets(&v.to_vec()), r.elems);
        let c = g.int(0, sizes[2] as isize);
        let w = t!(x[..;st, ..., c..]);
        let r = RefView::base(&sizes)
            .slice(&[SliceArg::Range { start: None, end: None, step: st }, SliceArg::Ellipsis, SliceArg::Range { start: Some(c), end: None, step: 1 }])
            .unwrap();
        prop_assert_eq!(as_offsets(&w.to_vec()), r.elems);
    }

    /// Broadcasting arithmetic on random compatible shapes (operands may be permuted or reversed
    /// views) against an element-by-element reference.
    #[test]
    fn broadcasting_matches_reference(out in shape_strategy(), seed in any::<u64>()) {
        let mut g = Gen::new(seed);
        let operand = |g: &mut Gen| -> Vec<usize> {
            let drop = g.below(out.len());
            out[drop..].iter().map(|&n| if g.below(3) == 0 { 1 } else { n }).collect()
        };
        let (sa, sb) = (operand(&mut g), operand(&mut g));
        let (a, b) = (base_tensor(&sa), base_tensor(&sb));
        // Reverse the last dim of `a` through a view: broadcasting must read the strides.
        let av = a.slice(&[SliceArg::Ellipsis, SliceArg::range(.., -1)]);
        let ar = RefView::base(&sa).slice(&[SliceArg::Ellipsis, SliceArg::range(.., -1)]).unwrap();
        let sum = av.try_add(&b).unwrap();
        let rank = sa.len().max(sb.len());
        let full: Vec<usize> = (0..rank)
            .map(|i| {
                let da = if i + sa.len() >= rank { sa[i + sa.len() - rank] } else { 1 };
                let db = if i + sb.len() >= rank { sb[i + sb.len() - rank] } else { 1 };
                da.max(db)
            })
            .collect();
        prop_assert_eq!(sum.sizes(), &full[..]);
        let want: Vec<i64> = (0..numel(&full))
            .map(|p| {
                let idx = unravel(p, &full);
                let pick = |s: &[usize]| -> Vec<usize> {
                    idx[rank - s.len()..].iter().zip(s).map(|(&i, &n)| if n == 1 { 0 } else { i }).collect()
                };
                ar.elems[ravel(&pick(&sa), &sa)] as i64 + ravel(&pick(&sb), &sb) as i64
            })
            .collect();
        prop_assert_eq!(sum.to_vec(), want);
        // A shape that cannot broadcast is an error naming both shapes, never a wrong answer.
        let mut bad = sb.clone();
        let a_dim = |k: usize| (rank - bad.len() + k).checked_sub(rank - sa.len()).map(|i| sa[i]);
        if let Some(k) = (0..bad.len()).find(|&k| full[rank - bad.len() + k] > 1 && a_dim(k) == Some(full[rank - bad.len() + k])) {
            bad[k] = full[rank - bad.len() + k] + 1;
            let e = av.try_add(&base_tensor(&bad)).unwrap_err();
            prop_assert_eq!(e.to_string(), format!("cannot broadcast {:?} with {:?}", sa, bad));
        }
    }

    /// Sums along a random axis of a random (possibly permuted) view, against a naive loop.
    #[test]
    fn sum_axis_matches_reference(sizes in shape_strategy(), seed in any::<u64>()) {
        let mut g = Gen::new(seed);
        let base = base_tensor(&sizes);
        let mut axes: Vec<usize> = (0..sizes.len()).collect();
        if g.below(2) == 0 {
            for i in (1..axes.len()).rev() {
                axes.swap(i, g.below(i + 1));
            }
        }
        let view = base.try_permute_dyn(&axes).unwrap();
        let r = RefView::base(&sizes).permute(&axes);
        let axis = g.below(sizes.len());
        let got = view.sum_axis(axis as isize);
        let mut out_sizes = r.sizes.clone();
        out_sizes.remove(axis);
        let want: Vec<i64> = (0..numel(&out_sizes))
            .map(|p| {
                let mut idx = unravel(p, &out_sizes);
                idx.insert(axis, 0);
                (0..r.sizes[axis])
                    .map(|k| {
                        idx[axis] = k;
                        r.elems[ravel(&idx, &r.sizes)] as i64
                    })
                    .sum()
            })
            .collect();
        prop_assert_eq!(got.sizes(), &out_sizes[..]);
        prop_assert_eq!(got.to_vec(), want);
    }

    /// Advanced indexing (index tensors, adjacent or separated, and masks) on random shapes,
    /// against a reference that applies PyTorch's placement rule element by element.
    #[test]
    fn advanced_indexing_matches_reference(seed in any::<u64>()) {
        let mut g = Gen::new(seed);
        let sizes = [g.below(4) + 1, g.below(4) + 1, g.below(4) + 1];
        let x = base_tensor(&sizes);
        // Two index tensors of broadcastable shapes [n] and [1] or [n], with entries that may be
        // negative and, rarely, out of range.
        let n = g.below(4) + 1;
        let idx = |g: &mut Gen, dim: usize, len: usize| -> Vec<i64> {
            (0..len)
                .map(|_| {
                    let s = sizes[dim] as isize;
                    (if g.below(20) == 0 { s } else { g.int(-s, s - 1) }) as i64
                })
                .collect()
        };
        let ok = |v: &[i64], dim: usize| v.iter().all(|&i| i >= -(sizes[dim] as i64) && i < sizes[dim] as i64);
        let norm = |i: i64, dim: usize| if i < 0 { (i + sizes[dim] as i64) as usize } else { i as usize };
        let len_j = if g.below(3) == 0 { 1 } else { n };
        let (a, c) = (idx(&mut g, 0, n), idx(&mut g, 2, len_j));
        let b = idx(&mut g, 1, len_j);
        let ta = Tensor::<i64, Shape![_]>::from_vec(&[n], a.clone());
        let tb = Tensor::<i64, Shape![_]>::from_vec(&[len_j], b.clone());
        let tc = Tensor::<i64, Shape![_]>::from_vec(&[len_j], c.clone());
        let pick = |v: &[i64], k: usize| v[if v.len() == 1 { 0 } else { k }];
        // Separated: x[a, :, c] -> [n, sizes[1]] (the broadcast dim first).
        let got = t!(try x[&ta, .., &tc]);
        prop_assert_eq!(got.is_ok(), ok(&a, 0) && ok(&c, 2));
        if let Ok(t) = got {
            prop_assert_eq!(t.sizes(), &[n, sizes[1]][..]);
            let want: Vec<i64> = (0..n)
                .flat_map(|k| (0..sizes[1]).map(move |m| (k, m)))
                .map(|(k, m)| ravel(&[norm(a[k], 0), m, norm(pick(&c, k), 2)], &sizes) as i64)
                .collect();
            prop_assert_eq!(t.to_vec(), want);
        }
        // Adjacent: x[:, b, c] -> [sizes[0], len_j] (in place).
        let got = t!(try x[.., &tb, &tc]);
        prop_assert_eq!(got.is_ok(), ok(&b, 1) && ok(&c, 2));
        if let Ok(t) = got {
            prop_assert_eq!(t.sizes(), &[sizes[0], len_j][..]);
            let want: Vec<i64> = (0..sizes[0])
                .flat_map(|m| (0..len_j).map(move |k| (m, k)))
                .map(|(m, k)| ravel(&[m, norm(b[k], 1), norm(c[k], 2)], &sizes) as i64)
                .collect();
            prop_assert_eq!(t.to_vec(), want);
        }
        // A row gather x[a] -> [n, sizes[1], sizes[2]] (whole contiguous rows, copied as runs),
        // and the same on a view whose last two dims are swapped (no run: element by element).
        let got = t!(try x[&ta]);
        prop_assert_eq!(got.is_ok(), ok(&a, 0));
        if let Ok(t) = got {
            prop_assert_eq!(t.sizes(), &[n, sizes[1], sizes[2]][..]);
            let want: Vec<i64> = (0..n)
                .flat_map(|k| (0..sizes[1] * sizes[2]).map(move |q| (k, q)))
                .map(|(k, q)| (norm(a[k], 0) * sizes[1] * sizes[2] + q) as i64)
                .collect();
            prop_assert_eq!(t.to_vec(), want);
            let swapped = x.try_transpose(1, 2).unwrap();
            let ts = t!(swapped[&ta]);
            let want: Vec<i64> = (0..n)
                .flat_map(|k| (0..sizes[2]).flat_map(move |j| (0..sizes[1]).map(move |i| (k, j, i))))
                .map(|(k, j, i)| ravel(&[norm(a[k], 0), i, j], &sizes) as i64)
                .collect();
            prop_assert_eq!(ts.to_vec(), want);
        }
        // A mask over the first two dims of a reversed view: x[::-1][mask] -> [count, sizes[2]].
        let mask: Vec<bool> = (0..sizes[0] * sizes[1]).map(|_| g.below(2) == 0).collect();
        let tm = Tensor::<bool, Shape![_, _]>::from_vec(&[sizes[0], sizes[1]], mask.clone());
        let rev = x.slice(&[SliceArg::range(.., -1)]);
        let t = t!(rev[&tm]);
        let want: Vec<i64> = (0..sizes[0] * sizes[1])
            .filter(|&p| mask[p])
            .flat_map(|p| (0..sizes[2]).map(move |k| (p, k)))
            .map(|(p, k)| ravel(&[sizes[0] - 1 - p / sizes[1], p % sizes[1], k], &sizes) as i64)
            .collect();
        prop_assert_eq!(t.to_vec(), want);
        // Writing through the same indices (index_put_) changes exactly those elements.
        if ok(&b, 1) && ok(&c, 2) {
            let mut y = x.clone();
            t!(y[.., &tb, &tc] = -1);
            let hit: std::collections::HashSet<usize> = (0..sizes[0])
                .flat_map(|m| (0..len_j).map(move |k| (m, k)))
                .map(|(m, k)| ravel(&[m, norm(b[k], 1), norm(c[k], 2)], &sizes))
                .collect();
            let want: Vec<i64> = (0..numel(&sizes)).map(|p| if hit.contains(&p) { -1 } else { p as i64 }).collect();
            prop_assert_eq!(y.to_vec(), want);
        }
    }
}
