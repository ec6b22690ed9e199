//! Generates the rank-combinatorial impls of the shape traits (tuple shapes of rank 0..=6) and the
//! typenum -> `Const<N>` table used by the few static rules that need arithmetic on sizes.
//! Everything generated lands in `OUT_DIR` and is `include!`d by `src/shape/*.rs`.
use std::fmt::Write as _;
use std::{env, fs, path::Path};

const MAX_RANK: usize = 6;
/// Largest size the typenum -> `Const` table covers (see `dim.rs`). Its cost grows
/// super-linearly (0.55 s of `cargo check` at 1024 in the prototype, 3.8 s at 4096).
const TABLE_MAX: usize = 1024;

fn main() {
    let out = env::var("OUT_DIR").unwrap();
    println!("cargo:rerun-if-changed=build.rs");
    let w = |name: &str, s: String| fs::write(Path::new(&out).join(name), s).unwrap();

    w("to_const.rs", to_const());
    w("shapes.rs", shapes());
    w("broadcast.rs", pairs("BroadcastDim", "BroadcastShape", "Output", true));
    w("expand.rs", pairs("ExpandDim", "ExpandShape", "Out", false));
    w("axes.rs", axes());
    w("permute.rs", do_not_recommend(permutations()));
    w("axes_more.rs", do_not_recommend(axes_more()));
    w("reduce_axes.rs", reduce_axes());
    w("matmul.rs", matmul());
    w("linalg.rs", linalg());
    w("batch_shape.rs", batch_shape());
    w("conv_channels.rs", conv_channels());
    w("axis_arg.rs", axis_arg());
    w("axis_list.rs", axis_list());
}

/// `NormAxis`: each axis of each rank in both spellings (`a` and `a - rank`) as the `Axis<a>` that
/// `PermuteShape` reads (`permute`'s tuple of axes), see `src/shape/axis_list.rs`.
fn axis_list() -> String {
    let mut s = String::new();
    for r in 1..=MAX_RANK {
        let ds = names("D", r);
        let (tup, gens) = (tuple(&ds), bounds(&ds, "Dim"));
        for a in 0..r {
            for sp in spell(a, r) {
                writeln!(s, "#[diagnostic::do_not_recommend] impl<{gens}> NormAxis<{sp}> for {tup} {{ type Axis = Axis<{a}>; }}").unwrap();
            }
        }
    }
    s
}

/// `FindName` (a name at each position of each rank), `Erase` and `EraseMore` (the all-`Dyn`
/// shapes of a runtime axis's results), see `src/shape/axis_arg.rs`.
fn axis_arg() -> String {
    let mut s = String::new();
    for r in 0..MAX_RANK {
        let ds = names("D", r);
        let more = tuple(&vec!["Dyn".to_string(); r + 1]);
        writeln!(
            s,
            "#[diagnostic::do_not_recommend] impl<{}> EraseMore for {} {{ type More = {more}; }}",
            bounds(&ds, "Dim"),
            tuple(&ds)
        )
        .unwrap();
    }
    for r in 1..=MAX_RANK {
        let ds = names("D", r);
        let tup = tuple(&ds);
        let gens = bounds(&ds, "Dim");
        let same = tuple(&vec!["Dyn".to_string(); r]);
        let less = tuple(&vec!["Dyn".to_string(); r - 1]);
        writeln!(s, "#[diagnostic::do_not_recommend] impl<{gens}> Erase for {tup} {{ type Same = {same}; type Less = {less}; type Unranked = DynShape; }}").unwrap();
        for p in 0..r {
            let others: Vec<String> = ds.iter().enumerate().filter(|&(i, _)| i != p).map(|(_, d)| d.clone()).collect();
            let mut with = ds.clone();
            with[p] = "NAME".into();
            let mut removed = ds.clone();
            removed.remove(p);
            let mut kept = ds.clone();
            kept[p] = "One".into();
            let g = if others.is_empty() {
                "NAME: DimName".to_string()
            } else {
                format!("NAME: DimName, {}", bounds(&others, "Dim"))
            };
            writeln!(s, "impl<{g}> sealed::NameSeal<NAME, Pos<{p}>> for {} {{}}", tuple(&with)).unwrap();
            writeln!(
                s,
                "#[diagnostic::do_not_recommend] impl<{g}> FindName<NAME, Pos<{p}>> for {} {{ type Removed = {}; type Kept = {}; }}",
                tuple(&with),
                tuple(&removed),
                tuple(&kept)
            )
            .unwrap();
        }
    }
    s
}

/// `Conv2dChannels` / `Conv1dChannels` (see `src/shape/conv.rs`) hold trivially for every pair of
/// shapes but the ranks the convolution takes (4 and 4, 3 and 3; those are in `conv.rs`), so that
/// an input of the wrong rank is reported once, by the output-shape rule, not as a channel
/// mismatch too.
fn conv_channels() -> String {
    let mut s = String::new();
    for (tr, rank) in [("Conv2dChannels", 4), ("Conv1dChannels", 3)] {
        for rx in 0..=MAX_RANK {
            let x = names("X", rx);
            // With a runtime-shaped other side.
            writeln!(
                s,
                "#[diagnostic::do_not_recommend] impl<{}{}const G: usize> {tr}<DynShape, G> for {} {{}}",
                bounds(&x, "Dim"),
                if rx > 0 { ", " } else { "" },
                tuple(&x)
            )
            .unwrap();
            writeln!(
                s,
                "#[diagnostic::do_not_recommend] impl<{}{}const G: usize> {tr}<{}, G> for DynShape {{}}",
                bounds(&x, "Dim"),
                if rx > 0 { ", " } else { "" },
                tuple(&x)
            )
            .unwrap();
            for rw in 0..=MAX_RANK {
                if rx == rank && rw == rank {
                    continue;
                }
                let w = names("W", rw);
                let all: Vec<String> = x.iter().chain(w.iter()).cloned().collect();
                writeln!(
                    s,
                    "#[diagnostic::do_not_recommend] impl<{}{}const G: usize> {tr}<{}, G> for {} {{}}",
                    bounds(&all, "Dim"),
                    if all.is_empty() { "" } else { ", " },
                    tuple(&w),
                    tuple(&x)
                )
                .unwrap();
            }
        }
    }
    s
}

/// `BatchShape` for tuple shapes (see `src/tensor/batch.rs`): it builds tensors, so it lives with
/// the tensor types, above the shape layer.
fn batch_shape() -> String {
    let mut s = String::new();
    for r in 1..=MAX_RANK {
        let b = names("B", r);
        writeln!(
            s,
            "impl<{}> BatchShape for {} {{ type Of<T: Element> = Tensor<T, Self>; #[inline] fn build<T: Element>(sizes: &[usize], fill: impl FnOnce(&mut [T]) -> Result<(), ShapeError>) -> Result<Self::Of<T>, ShapeError> {{ build_tensor(sizes, fill) }} }}",
            bounds(&b, "Dim"),
            tuple(&b)
        )
        .unwrap();
    }
    s
}

/// `MatrixBatch`, `SquareShape` and `SolveRhs` for tuple shapes (see `src/shape/linalg.rs`).
fn linalg() -> String {
    let mut s = String::new();
    for r in 2..=MAX_RANK {
        let a = names("A", r);
        let ta = tuple(&a);
        let gens = bounds(&a, "Dim");
        let lead = &a[..r - 2];
        let (m, n) = (&a[r - 2], &a[r - 1]);
        let with = |extra: &[&str]| {
            let mut v: Vec<String> = lead.to_vec();
            v.extend(extra.iter().map(|e| e.to_string()));
            tuple(&v)
        };
        writeln!(
            s,
            "#[diagnostic::do_not_recommend] impl<{gens}> MatrixBatch for {ta} {{ type Rows = {m}; type Cols = {n}; type Batch = {}; type Vectors<K: Dim> = {}; type Matrices<R: Dim, C: Dim> = {}; }}",
            tuple(lead),
            with(&["K"]),
            with(&["R", "C"])
        )
        .unwrap();
        writeln!(
            s,
            "#[diagnostic::do_not_recommend] impl<{gens}> SquareShape for {ta} where {m}: SquareDims<{n}, {ta}> {{}}"
        )
        .unwrap();
        // The right side of solve: a batch of vectors [..b, R] or of matrices [..b, R, K].
        for extra in [1usize, 2] {
            let mut bs = names("B", r - 2);
            bs.push("R".into());
            if extra == 2 {
                bs.push("K".into());
            }
            let tb = tuple(&bs);
            let mut wh: Vec<String> =
                bs[..r - 2].iter().zip(lead).map(|(x, y)| format!("{x}: SolveDim<{y}, {ta}, {tb}>")).collect();
            wh.push(format!("R: SolveDim<{m}, {ta}, {tb}>"));
            writeln!(
                s,
                "#[diagnostic::do_not_recommend] impl<{gens}, {}> SolveRhs<{ta}> for {tb} where {} {{}}",
                bounds(&bs, "Dim"),
                wh.join(", ")
            )
            .unwrap();
        }
    }
    s
}

fn to_const() -> String {
    let mut s = String::new();
    for n in 0..=TABLE_MAX {
        let d = if n == 1 { "One".to_string() } else { format!("Const<{n}>") };
        writeln!(s, "impl ToConst for {} {{ type Out = {d}; }}", tn(n)).unwrap();
    }
    s
}

fn shapes() -> String {
    let mut s = String::new();
    for r in 0..=MAX_RANK {
        let ds = names("D", r);
        let tup = tuple(&ds);
        let gens = bounds(&ds, "Dim");
        let mut stat: Vec<String> = ds.iter().map(|d| format!("{d}::STATIC")).collect();
        stat.resize(MAX_RANK, "None".into());
        let mut nm: Vec<String> = ds.iter().map(|d| format!("{d}::NAME")).collect();
        nm.resize(MAX_RANK, "None".into());
        let mut pr: Vec<String> = ds.iter().map(|d| format!("{d}::PRODUCT")).collect();
        pr.resize(MAX_RANK, "None".into());
        let desc: String = ds
            .iter()
            .enumerate()
            .map(|(i, d)| {
                format!(
                    "{}let _ = write!(s, \"{{:?}}\", {d}::default());",
                    if i > 0 { "s.push_str(\", \");" } else { "" }
                )
            })
            .collect();
        let desc = if r == 0 {
            String::new()
        } else {
            format!("fn describe() -> alloc::string::String {{ use core::fmt::Write; let mut s = alloc::string::String::from(\"[\"); {desc} s.push(']'); s }}")
        };
        let list = hlist(&ds);
        writeln!(
            s,
            "impl<{gens}> Shape for {tup} {{ const RANK: Option<usize> = Some({r}); \
             const STATIC: [Option<usize>; MAX_RANK] = [{}]; const NAMES: [Option<&'static str>; MAX_RANK] = [{}]; \
             const PRODUCTS: [Option<usize>; MAX_RANK] = [{}]; \
             {desc} \
             type InlineLay = {}; type Arr<T: Element> = {}; }}",
            stat.join(", "),
            nm.join(", "),
            pr.join(", "),
            ds.iter().rev().fold("RowMajor".to_string(), |acc, d| format!("<{d} as Dim>::Fold<{acc}>")),
            ds.iter().rev().fold("Scalar<T>".to_string(), |acc, d| format!("<{d} as Dim>::Of<{acc}>"))
        )
        .unwrap();
        writeln!(s, "impl<{gens}> StaticRank for {tup} {{ type List = {list}; }}").unwrap();
        // Any integer type; rank 0 takes `[usize; 0]` so that `x.at([])` infers.
        if r == 0 {
            writeln!(
                s,
                "#[diagnostic::do_not_recommend] impl ElemIndex<()> for [usize; 0] {{ #[inline(always)] fn coords(&self) -> &[impl crate::index::ToIndex] {{ self }} }}"
            )
            .unwrap();
        } else {
            writeln!(
                s,
                "#[diagnostic::do_not_recommend] impl<{gens}, I: crate::index::ToIndex> ElemIndex<{tup}> for [I; {r}] {{ #[inline(always)] fn coords(&self) -> &[impl crate::index::ToIndex] {{ self }} }}"
            )
            .unwrap();
        }
        let g = if gens.is_empty() { "Sh".to_string() } else { format!("{gens}, Sh") };
        writeln!(s, "impl<{g}> ListToTuple<Sh> for {list} {{ type Tuple = {tup}; }}").unwrap();
        let cgens = bounds(&ds, "ConstDim");
        writeln!(s, "#[diagnostic::do_not_recommend] impl<{cgens}> AllStatic for {tup} {{}}").unwrap();
        // cast_shape: the same rank, each dim relabelled to one of the same size.
        let ts = names("T", r);
        let all: Vec<String> = ds.iter().chain(ts.iter()).cloned().collect();
        let wh: Vec<String> = ds.iter().zip(&ts).map(|(d, t)| format!("{d}: CastDim<{t}>")).collect();
        let wh = if wh.is_empty() { String::new() } else { format!("where {}", wh.join(", ")) };
        writeln!(
            s,
            "#[diagnostic::do_not_recommend] impl<{}> CastShape<{}> for {tup} {wh} {{}}",
            bounds(&all, "Dim"),
            tuple(&ts)
        )
        .unwrap();
        // Strict same-shape rule: same rank, dims pairwise equal (or Dyn); DynShape either way.
        let es = names("E", r);
        let te = tuple(&es);
        let all: Vec<String> = ds.iter().chain(es.iter()).cloned().collect();
        let wh: Vec<String> =
            ds.iter().zip(&es).map(|(d, e)| format!("{d}: SameDimStrict<{e}, {tup}, {te}>")).collect();
        let wh = if wh.is_empty() { String::new() } else { format!("where {}", wh.join(", ")) };
        writeln!(
            s,
            "#[diagnostic::do_not_recommend] impl<{}> SameShape<{te}> for {tup} {wh} {{}}",
            bounds(&all, "Dim")
        )
        .unwrap();
        writeln!(s, "#[diagnostic::do_not_recommend] impl<{gens}> SameShape<{tup}> for DynShape {{}}").unwrap();
        writeln!(s, "#[diagnostic::do_not_recommend] impl<{gens}> SameShape<DynShape> for {tup} {{}}").unwrap();
        let bgens = bounds(&ds, "BridgeDim");
        writeln!(s, "impl<{bgens}> BridgeShape for {tup} {{}}").unwrap();
        // A runtime shape mixes with every static one: the result is a runtime shape.
        writeln!(s, "#[diagnostic::do_not_recommend] impl<{gens}> BroadcastShape<{tup}> for DynShape {{ type Output = DynShape; }}").unwrap();
        writeln!(s, "#[diagnostic::do_not_recommend] impl<{gens}> BroadcastShape<DynShape> for {tup} {{ type Output = DynShape; }}").unwrap();
        // Numel: the product of the typenum twins, when every dim has one.
        let sgens = bounds(&ds, "StaticDim");
        let mut wh = Vec::new();
        let mut acc = "typenum::U1".to_string();
        for d in &ds {
            wh.push(format!("{acc}: core::ops::Mul<Tn<{d}>>"));
            acc = format!("typenum::Prod<{acc}, Tn<{d}>>");
        }
        wh.push(format!("{acc}: typenum::Unsigned"));
        writeln!(
            s,
            "#[diagnostic::do_not_recommend] impl<{sgens}> NumelShape for {tup} where {} {{ type Numel = {acc}; }}",
            wh.join(", ")
        )
        .unwrap();
    }
    s
}

/// Shape-level impls of a dim-level rule for every pair of ranks. Broadcasting aligns both shapes
/// from the right (either may be longer); expanding needs the target at least as long.
fn pairs(dim_trait: &str, shape_trait: &str, assoc: &str, symmetric: bool) -> String {
    let mut s = String::new();
    for m in 0..=MAX_RANK {
        for n in 0..=MAX_RANK {
            if !symmetric && m > n {
                continue;
            }
            let a = names("A", m);
            let b = names("B", n);
            let r = m.max(n);
            let (ta, tb) = (tuple(&a), tuple(&b));
            let mut outs = Vec::new();
            let mut wh = Vec::new();
            for i in 0..r {
                let ai = (i + m).checked_sub(r).map(|k| a[k].clone());
                let bi = (i + n).checked_sub(r).map(|k| b[k].clone());
                match (ai, bi) {
                    (Some(x), Some(y)) => {
                        wh.push(format!("{x}: {dim_trait}<{y}, {ta}, {tb}>"));
                        outs.push(format!("<{x} as {dim_trait}<{y}, {ta}, {tb}>>::Out"));
                    }
                    (Some(x), None) | (None, Some(x)) => outs.push(x),
                    (None, None) => unreachable!(),
                }
            }
            let all: Vec<String> = a.iter().chain(b.iter()).cloned().collect();
            let gens = bounds(&all, "Dim");
            let wh = if wh.is_empty() { String::new() } else { format!("where {}", wh.join(", ")) };
            writeln!(
                s,
                "#[diagnostic::do_not_recommend] impl<{gens}> {shape_trait}<{tb}> for {ta} {wh} {{ type {assoc} = {}; }}",
                tuple(&outs)
            )
            .unwrap();
        }
    }
    s
}

/// Axis rules: remove one axis, insert a size-1 axis, swap two axes, replace one axis's dim. Each
/// axis in both spellings, `a` and `a - rank`.
fn axes() -> String {
    let mut s = String::new();
    for r in 0..=MAX_RANK {
        let ds = names("D", r);
        let tup = tuple(&ds);
        let gens = bounds(&ds, "Dim");
        for a in 0..r {
            let mut rest = ds.clone();
            let removed = rest.remove(a);
            let mut set = ds.clone();
            set[a] = "X".into();
            let g = if gens.is_empty() { "X: Dim".to_string() } else { format!("{gens}, X: Dim") };
            for sa in spell(a, r) {
                writeln!(
                    s,
                    "#[diagnostic::do_not_recommend] impl<{gens}> RemoveAxis<{sa}> for {tup} {{ type Out = {}; type Removed = {removed}; }}",
                    tuple(&rest)
                )
                .unwrap();
                writeln!(
                    s,
                    "#[diagnostic::do_not_recommend] impl<{g}> SetAxis<{sa}, X> for {tup} {{ type Out = {}; }}",
                    tuple(&set)
                )
                .unwrap();
                let mut padded = ds.clone();
                padded[a] = format!("<{removed} as PadDim<L, R>>::Out");
                writeln!(
                    s,
                    "#[diagnostic::do_not_recommend] impl<{gp}const L: usize, const R: usize> PadShape<{sa}, L, R> for {tup} where {removed}: PadDim<L, R> {{ type Out = {}; }}",
                    tuple(&padded),
                    gp = if gens.is_empty() { String::new() } else { format!("{gens}, ") },
                )
                .unwrap();
                let mut times = ds.clone();
                times[a] = format!("<{removed} as TimesDim<K>>::Out");
                writeln!(
                    s,
                    "#[diagnostic::do_not_recommend] impl<{gp}const K: usize> RepeatShape<{sa}, K> for {tup} where {removed}: TimesDim<K> {{ type Out = {}; }}",
                    tuple(&times),
                    gp = if gens.is_empty() { String::new() } else { format!("{gens}, ") },
                )
                .unwrap();
                for b in 0..r {
                    let mut sw = ds.clone();
                    sw.swap(a, b);
                    for sb in spell(b, r) {
                        writeln!(
                            s,
                            "#[diagnostic::do_not_recommend] impl<{gens}> SwapAxes<{sa}, {sb}> for {tup} {{ type Out = {}; }}",
                            tuple(&sw)
                        )
                        .unwrap();
                    }
                }
            }
        }
        if r < MAX_RANK {
            for a in 0..=r {
                let mut ins = ds.clone();
                ins.insert(a, "One".into());
                for sa in spell(a, r + 1) {
                    writeln!(
                        s,
                        "#[diagnostic::do_not_recommend] impl<{gens}> InsertAxis<{sa}> for {tup} {{ type Out = {}; }}",
                        tuple(&ins)
                    )
                    .unwrap();
                }
            }
        }
    }
    s
}

/// `PermuteShape<S>` for every permutation of 0..r, r <= 6 (874 impls, no arithmetic), and for
/// `DynShape` a tuple of `r` `AnyAxis`.
fn permutations() -> String {
    let mut s = String::new();
    for r in 0..=MAX_RANK {
        let ds = names("D", r);
        let tup = tuple(&ds);
        let gens = bounds(&ds, "Dim");
        let mut perm: Vec<usize> = (0..r).collect();
        loop {
            let axes: Vec<String> = perm.iter().map(|p| format!("Axis<{p}>")).collect();
            let out: Vec<String> = perm.iter().map(|&p| ds[p].clone()).collect();
            let mut arr: Vec<String> = perm.iter().map(|p| p.to_string()).collect();
            arr.resize(MAX_RANK, "0".into());
            writeln!(
                s,
                "impl<{gens}> PermuteShape<{tup}> for {} {{ type Out = {}; const AXES: [usize; MAX_RANK] = [{}]; }}",
                tuple(&axes),
                tuple(&out),
                arr.join(", ")
            )
            .unwrap();
            if !next_permutation(&mut perm) {
                break;
            }
        }
        // A `DynShape` takes `r` axes of any spelling (`AnyAxis`), checked at run time.
        writeln!(
            s,
            "impl PermuteShape<DynShape> for {} {{ type Out = DynShape; const AXES: [usize; MAX_RANK] = [0; MAX_RANK]; }}",
            tuple(&vec!["AnyAxis".to_string(); r])
        )
        .unwrap();
    }
    s
}

/// The axis rules of `flatten`, `flatten_range`, `unflatten`, `movedim`, `diagonal`, `stack`
/// (insert a given dim) and `cat`, each axis in both spellings (`a` and `a - rank`).
fn axes_more() -> String {
    let mut s = String::new();
    for r in 0..=MAX_RANK {
        let ds = names("D", r);
        let tup = tuple(&ds);
        let gens = bounds(&ds, "Dim");
        let with = |extra: &str| if gens.is_empty() { extra.to_string() } else { format!("{gens}, {extra}") };
        // flatten(): a scalar becomes `[1]`, a vector stays itself, more dims merge into one `Dyn`.
        // A product of the merged dims, nested to the right: `Prod<D0, Prod<D1, D2>>`.
        let prod = |ds: &[String]| {
            let mut it = ds.iter().rev();
            let last = it.next().unwrap().clone();
            it.fold(last, |acc, d| format!("Prod<{d}, {acc}>"))
        };
        let flat = match r {
            0 => "(One,)".to_string(),
            1 => tup.clone(),
            _ => format!("({},)", prod(&ds)),
        };
        writeln!(s, "impl<{gens}> FlattenShape for {tup} {{ type Out = {flat}; }}").unwrap();
        for start in 0..r {
            // flatten_range::<START, END>() (END inclusive); START == END keeps the dim as it is.
            for end in start..r {
                let mut out = ds[..start].to_vec();
                out.push(prod(&ds[start..=end]));
                out.extend_from_slice(&ds[end + 1..]);
                for ss in spell(start, r) {
                    for se in spell(end, r) {
                        writeln!(
                            s,
                            "impl<{gens}> FlattenRange<{ss}, {se}> for {tup} {{ type Out = {}; }}",
                            tuple(&out)
                        )
                        .unwrap();
                    }
                }
            }
            // unflatten::<A, (E0, ..)>(): splice a shape of rank k >= 1 in place of dim A.
            for k in 1..=MAX_RANK + 1 - r {
                let es = names("E", k);
                let mut out = ds[..start].to_vec();
                out.extend(es.iter().cloned());
                out.extend_from_slice(&ds[start + 1..]);
                for ss in spell(start, r) {
                    writeln!(
                        s,
                        "impl<{}> Unflatten<{ss}, {}> for {tup} {{ type Out = {}; }}",
                        with(&bounds(&es, "Dim")),
                        tuple(&es),
                        tuple(&out)
                    )
                    .unwrap();
                }
            }
            // movedim::<SRC, DST>(): remove dim SRC, insert it at DST.
            for dst in 0..r {
                let mut out = ds.clone();
                let d = out.remove(start);
                out.insert(dst, d);
                for ss in spell(start, r) {
                    for sd in spell(dst, r) {
                        writeln!(s, "impl<{gens}> MoveAxis<{ss}, {sd}> for {tup} {{ type Out = {}; }}", tuple(&out))
                            .unwrap();
                    }
                }
                // diagonal::<D1, D2>(): both dims removed, the diagonal's length appended.
                if dst != start {
                    let out: Vec<String> = ds
                        .iter()
                        .enumerate()
                        .filter(|&(i, _)| i != start && i != dst)
                        .map(|(_, d)| d.clone())
                        .chain(["Dyn".to_string()])
                        .collect();
                    for ss in spell(start, r) {
                        for sd in spell(dst, r) {
                            writeln!(
                                s,
                                "impl<{gens}> DiagonalShape<{ss}, {sd}> for {tup} {{ type Out = {}; }}",
                                tuple(&out)
                            )
                            .unwrap();
                        }
                    }
                }
            }
            // cat::<A>(): dims other than A unify, dim A adds up (dispatched on the right operand).
            let bs = names("B", r);
            let tb = tuple(&bs);
            for ss in spell(start, r) {
                let mut wh = Vec::new();
                let mut outs = Vec::new();
                for (i, (d, b)) in ds.iter().zip(&bs).enumerate() {
                    let tr = if i == start { "CatSumDim" } else { "CatSameDim" };
                    wh.push(format!("{d}: {tr}<{b}, {tup}, {tb}, {ss}>"));
                    outs.push(format!("<{d} as {tr}<{b}, {tup}, {tb}, {ss}>>::Out"));
                }
                writeln!(
                    s,
                    "impl<{}> CatRhs<{ss}, {tup}> for {tb} where {} {{ type Out = {}; }}",
                    with(&bounds(&bs, "Dim")),
                    wh.join(", "),
                    tuple(&outs)
                )
                .unwrap();
            }
        }
        // cat of a static shape with a runtime one, either way round: a runtime shape.
        if r > 0 {
            writeln!(s, "impl<const A: isize, {gens}> CatRhs<A, {tup}> for DynShape {{ type Out = DynShape; }}")
                .unwrap();
            writeln!(s, "impl<const A: isize, {gens}> CatRhs<A, DynShape> for {tup} {{ type Out = DynShape; }}")
                .unwrap();
        }
        // stack::<A>(): insert a given dim X at A (`0..=rank`).
        if r < MAX_RANK {
            for a in 0..=r {
                let mut ins = ds.clone();
                ins.insert(a, "X".into());
                for sa in spell(a, r + 1) {
                    writeln!(
                        s,
                        "impl<{}> InsertDim<{sa}, X> for {tup} {{ type Out = {}; }}",
                        with("X: Dim"),
                        tuple(&ins)
                    )
                    .unwrap();
                }
            }
        }
    }
    s
}

/// The spellings of axis `a` of a rank-`r` shape: `a` and `a - r` (PyTorch's negative axes, `-1`
/// the last). For an insertion point (`0..=r`), pass `r + 1`.
fn spell(a: usize, r: usize) -> [isize; 2] {
    [a as isize, a as isize - r as isize]
}

fn next_permutation(p: &mut [usize]) -> bool {
    if p.len() < 2 {
        return false;
    }
    let mut i = p.len() - 1;
    while i > 0 && p[i - 1] >= p[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = p.len() - 1;
    while p[j] <= p[i - 1] {
        j -= 1;
    }
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

/// Reductions over several axes: every non-empty increasing list of axes of every rank (127 impls).
fn reduce_axes() -> String {
    let mut s = String::new();
    for r in 1..=MAX_RANK {
        let ds = names("D", r);
        let tup = tuple(&ds);
        let gens = bounds(&ds, "Dim");
        for mask in 1u32..(1 << r) {
            let axes: Vec<usize> = (0..r).filter(|a| mask & (1 << a) != 0).collect();
            let ax: Vec<String> = axes.iter().map(|a| format!("Axis<{a}>")).collect();
            let kept: Vec<String> = (0..r).filter(|a| mask & (1 << a) == 0).map(|a| ds[a].clone()).collect();
            let keep: Vec<String> =
                (0..r).map(|a| if mask & (1 << a) != 0 { "One".to_string() } else { ds[a].clone() }).collect();
            let nums: Vec<String> = axes.iter().map(|a| a.to_string()).collect();
            writeln!(
                s,
                "impl<{gens}> ReduceAxes<{tup}> for {} {{ type Out = {}; type Keep = {}; const AXES: &'static [usize] = &[{}]; }}",
                tuple(&ax),
                tuple(&kept),
                tuple(&keep),
                nums.join(", ")
            )
            .unwrap();
        }
        // A `DynShape` takes `r` axes of any spelling (`AnyAxis`), checked at run time.
        writeln!(
            s,
            "impl ReduceAxes<DynShape> for {} {{ type Out = DynShape; type Keep = DynShape; const AXES: &'static [usize] = &[]; }}",
            tuple(&vec!["AnyAxis".to_string(); r])
        )
        .unwrap();
    }
    s
}

/// Matmul shapes: a left operand of rank 1..=6 by a 2-D right one (`MatLhs`) or by a 1-D one
/// (`MatVecLhs`), and every pair of ranks 1..=6 / 3..=6 with a batched right operand (`MatRhs`);
/// batch dims broadcast; a 1-D operand's missing `m` or `n` is dropped from the result.
fn matmul() -> String {
    let mut s = String::new();
    // A runtime-shaped operand on either side: the product is a runtime shape, checked at run time.
    writeln!(s, "impl<K2, N, RS> MatLhs<K2, N, RS> for DynShape {{ type Out = DynShape; }}").unwrap();
    writeln!(s, "impl<K2, RS> MatVecLhs<K2, RS> for DynShape {{ type Out = DynShape; }}").unwrap();
    for r in 1..=MAX_RANK {
        let a = names("A", r);
        writeln!(
            s,
            "#[diagnostic::do_not_recommend] impl<{}> MatRhs<{}> for DynShape {{ type Out = DynShape; }}",
            bounds(&a, "Dim"),
            tuple(&a)
        )
        .unwrap();
        if r >= 3 {
            writeln!(
                s,
                "#[diagnostic::do_not_recommend] impl<{}> MatRhs<DynShape> for {} {{ type Out = DynShape; }}",
                bounds(&a, "Dim"),
                tuple(&a)
            )
            .unwrap();
        }
    }
    for ra in 1..=MAX_RANK {
        let a = names("A", ra);
        let k = &a[ra - 1];
        // The left operand's dims kept in the product: its batch dims and `m` (none for 1-D).
        let lead: Vec<String> = a[..ra - 1].to_vec();
        let ta = tuple(&a);
        let mut out = lead.clone();
        out.push("N".into());
        writeln!(
            s,
            "impl<{}, K2: Dim, N: Dim, RS> MatLhs<K2, N, RS> for {ta} where {k}: SameDim<K2, {ta}, RS> {{ type Out = {}; }}",
            bounds(&a, "Dim"),
            tuple(&out)
        )
        .unwrap();
        writeln!(
            s,
            "impl<{}, K2: Dim, RS> MatVecLhs<K2, RS> for {ta} where {k}: SameDim<K2, {ta}, RS> {{ type Out = {}; }}",
            bounds(&a, "Dim"),
            tuple(&lead)
        )
        .unwrap();
        let (ba, m) = if ra >= 2 { (&a[..ra - 2], Some(&a[ra - 2])) } else { (&a[..0], None) };
        for rb in 3..=MAX_RANK {
            let b = names("B", rb);
            let (k2, n) = (&b[rb - 2], &b[rb - 1]);
            let tb = tuple(&b);
            let bb = &b[..rb - 2];
            let r = ba.len().max(bb.len());
            if r + 2 > MAX_RANK {
                continue;
            }
            let mut wh = vec![format!("{k}: SameDim<{k2}, {ta}, {tb}>")];
            let mut outs = Vec::new();
            for i in 0..r {
                let x = (i + ba.len()).checked_sub(r).map(|j| &ba[j]);
                let y = (i + bb.len()).checked_sub(r).map(|j| &bb[j]);
                match (x, y) {
                    (Some(x), Some(y)) => {
                        wh.push(format!("{x}: BatchDim<{y}, {ta}, {tb}>"));
                        outs.push(format!("<{x} as BatchDim<{y}, {ta}, {tb}>>::Out"));
                    }
                    (Some(x), None) | (None, Some(x)) => outs.push(x.clone()),
                    (None, None) => unreachable!(),
                }
            }
            outs.extend(m.cloned());
            // `n` behind the inner dims' projection, so that a mismatch is reported by `SameDim`
            // (naming the two inner sizes) as a batch mismatch is by `BatchDim`, rather than as
            // this impl's failure (it is `do_not_recommend`, so rustc would name only `MatRhs`).
            outs.push(format!("<{n} as AfterDim<<{k} as SameDim<{k2}, {ta}, {tb}>>::Out>>::Out"));
            let all: Vec<String> = a.iter().chain(b.iter()).cloned().collect();
            writeln!(
                s,
                "#[diagnostic::do_not_recommend] impl<{}> MatRhs<{ta}> for {tb} where {} {{ type Out = {}; }}",
                bounds(&all, "Dim"),
                wh.join(", "),
                tuple(&outs)
            )
            .unwrap();
        }
    }
    s
}

/// Marks every impl `#[diagnostic::do_not_recommend]`: an error then names the rule's own trait
/// (whose message names the shapes) instead of listing the impls that did not match.
fn do_not_recommend(s: String) -> String {
    s.lines()
        .map(
            |l| if l.starts_with("impl") { format!("#[diagnostic::do_not_recommend] {l}\n") } else { format!("{l}\n") },
        )
        .collect()
}

fn names(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

fn bounds(xs: &[String], tr: &str) -> String {
    xs.iter().map(|d| format!("{d}: {tr}")).collect::<Vec<_>>().join(", ")
}

fn tuple(xs: &[String]) -> String {
    if xs.is_empty() {
        "()".into()
    } else {
        format!("({},)", xs.join(", "))
    }
}

fn hlist(xs: &[String]) -> String {
    xs.iter().rev().fold("Nil".to_string(), |acc, x| format!("Cons<{x}, {acc}>"))
}

/// typenum spelling of n: `UInt<UInt<UTerm, B1>, B0>` is 2.
fn tn(n: usize) -> String {
    let mut s = "typenum::UTerm".to_string();
    for bit in (0..usize::BITS - n.leading_zeros()).rev() {
        let b = if (n >> bit) & 1 == 1 { "typenum::B1" } else { "typenum::B0" };
        s = format!("typenum::UInt<{s}, {b}>");
    }
    s
}
