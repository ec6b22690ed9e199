//! Einstein summation (NumPy `np.einsum`, PyTorch `torch.einsum`): the runtime form
//! [`einsum`]/[`try_einsum`] over [`DynShape`] operands, the lowering engine that both it and
//! the typed `einsum!` macro of the facade crate call, and the type-level rules of the macro
//! ([`EinsumRank`], [`EinsumDim`], the build-time check of static letter sizes).
//!
//! The engine never loops over elements. For each operand, a letter repeated in its subscripts
//! becomes a diagonal view (`ii->i`: `Layout::diagonal`, no copy); a letter that no other operand
//! and not the output names is summed out as a matrix-vector product with a vector of ones (the
//! summed axes permuted to the end of a `[rest, summed]` matrix). Operands are then contracted
//! **left to right**: the running result with the next operand, as one (batched) `matmul` of
//! `[batch, free_left, contracted] @ [batch, contracted, free_right]`, where `batch` are the
//! letters both name and that are still needed (by the output or a later operand), `contracted`
//! those both name and nothing later needs. Permutes are views; the regrouping of axes into the
//! three matrix dims copies only when the strides cannot express it (as `reshape`). The result is
//! finally permuted to the output's order and copied once unless it already is row-major.
use crate::dim::{Const, Dim, Dyn, One};
use crate::error::{ConstMsg, OrPanic, ShapeError};
use crate::kernels::{self, Gemm};
use crate::layout::Layout;
use crate::limits::MAX_RANK;
use crate::shape::{DynShape, Shape};
use crate::storage::{CowRepr, Data, Element};
use crate::tensor::{Tensor, TensorBase, TensorView};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The ellipsis in a term of a parsed equation (`...`, one byte); letters are their ASCII bytes.
pub(crate) const ELLIPSIS: u8 = b'.';
/// The internal label of ellipsis dim `k` (aligned from the right over all operands): above
/// every ASCII letter.
const ELL_BASE: u8 = 128;

/// An equation parsed at run time: the subscripts of each operand (ASCII letters, `.` for
/// `...`) and of the output (the implicit output already resolved).
pub(crate) struct Parsed {
    pub(crate) ops: Vec<Vec<u8>>,
    pub(crate) out: Vec<u8>,
}

fn invalid(eq: &str, what: impl core::fmt::Display) -> ShapeError {
    ShapeError::Invalid(format!("einsum \"{eq}\": {what}"))
}

/// One term: letters and at most one `...`, whitespace skipped.
fn parse_term(eq: &str, term: &str) -> Result<Vec<u8>, ShapeError> {
    let t: String = term.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::new();
    let mut rest = t.as_str();
    while let Some(c) = rest.chars().next() {
        if c.is_ascii_alphabetic() {
            out.push(c as u8);
            rest = &rest[1..];
        } else if let Some(r) = rest.strip_prefix("...") {
            if out.contains(&ELLIPSIS) {
                return Err(invalid(eq, format!("more than one `...` in the term \"{t}\"")));
            }
            out.push(ELLIPSIS);
            rest = r;
        } else {
            return Err(invalid(eq, format!("'{c}' in the term \"{t}\" is neither a letter nor `...`")));
        }
    }
    Ok(out)
}

/// Parses `eq` for `n` operands: `"ij,jk->ik"`, or without `->` the implicit output (`...` if
/// any operand has one, then the letters that appear once, in ASCII order: NumPy's rule).
pub(crate) fn parse(eq: &str, n: usize) -> Result<Parsed, ShapeError> {
    let (lhs, rhs) = match eq.split_once("->") {
        Some((l, r)) if r.contains("->") => return Err(invalid(eq, format!("more than one `->` in \"{l}->{r}\""))),
        Some((l, r)) => (l, Some(r)),
        None => (eq, None),
    };
    let ops = lhs.split(',').map(|t| parse_term(eq, t)).collect::<Result<Vec<_>, _>>()?;
    if ops.len() != n {
        return Err(invalid(eq, format!("{} operand subscripts for {n} operands", ops.len())));
    }
    let mut count = [0usize; 128];
    for &c in ops.iter().flatten().filter(|&&c| c != ELLIPSIS) {
        count[c as usize] += 1;
    }
    let any_ell = ops.iter().any(|t| t.contains(&ELLIPSIS));
    let out = match rhs {
        Some(r) => {
            let out = parse_term(eq, r)?;
            for (i, &c) in out.iter().enumerate() {
                if out[..i].contains(&c) {
                    return Err(invalid(eq, format!("the output names '{}' twice", c as char)));
                }
                if c != ELLIPSIS && count[c as usize] == 0 {
                    return Err(invalid(eq, format!("the output letter '{}' names no operand axis", c as char)));
                }
            }
            out
        }
        None => {
            let mut out: Vec<u8> = if any_ell { alloc::vec![ELLIPSIS] } else { Vec::new() };
            out.extend((0..128u8).filter(|&c| count[c as usize] == 1));
            out
        }
    };
    Ok(Parsed { ops, out })
}

/// One operand or intermediate result of the engine: its elements, layout and one label per
/// axis.
struct Term<'a, T: Element> {
    data: CowRepr<'a, T>,
    lay: Layout,
    labels: Vec<u8>,
}

impl<T: Element> Term<'_, T> {
    fn slice(&self) -> &[T] {
        match &self.data {
            CowRepr::Borrowed(s) => s,
            CowRepr::Owned(o) => o,
        }
    }
}

/// `lay` (over `src`) with its axes regrouped to `sizes` (same element count): a view when the
/// strides allow it, else a row-major copy.
fn regroup_cow<'b, T: Element>(
    src: &'b [T],
    lay: &Layout,
    sizes: &[usize],
) -> Result<(CowRepr<'b, T>, Layout), ShapeError> {
    match lay.view(sizes) {
        Ok(l) => Ok((CowRepr::Borrowed(src), l)),
        Err(_) => Ok((CowRepr::Owned(kernels::to_vec(src, lay)?.into()), Layout::contiguous(sizes)?)),
    }
}

/// The product of `sizes`, overflow-checked.
fn product(sizes: impl IntoIterator<Item = usize>, all: &[usize]) -> Result<usize, ShapeError> {
    sizes
        .into_iter()
        .try_fold(1usize, |a, n| a.checked_mul(n))
        .ok_or_else(|| ShapeError::Overflow { sizes: all.into() })
}

/// `t` with the axes whose labels fail `keep` summed out: `[keep.., summed..]` as a matrix times
/// a vector of ones.
fn sum_out<'a, T: Gemm>(t: Term<'a, T>, keep: impl Fn(u8) -> bool) -> Result<Term<'a, T>, ShapeError> {
    let (kept, summed): (Vec<usize>, Vec<usize>) = (0..t.labels.len()).partition(|&i| keep(t.labels[i]));
    if summed.is_empty() {
        return Ok(t);
    }
    let sizes = t.lay.sizes();
    let m = product(kept.iter().map(|&i| sizes[i]), sizes)?;
    let k = product(summed.iter().map(|&i| sizes[i]), sizes)?;
    let perm: Vec<usize> = kept.iter().chain(&summed).copied().collect();
    let out_sizes: Vec<usize> = kept.iter().map(|&i| sizes[i]).collect();
    let labels: Vec<u8> = kept.iter().map(|&i| t.labels[i]).collect();
    let p = t.lay.permute(&perm)?;
    let (data, lay) = regroup_cow(t.slice(), &p, &[m, k])?;
    let a = cow_view(&data, lay);
    let ones: Tensor<T, DynShape> = TensorBase::from_parts(kernels::try_vec(k, T::ONE)?, Layout::contiguous(&[k])?);
    let s = a.try_matmul(&ones)?;
    Ok(Term { data: CowRepr::Owned(s.data), lay: Layout::contiguous(&out_sizes)?, labels })
}

/// The contraction of `a` and `b` over the letters both name that `needed` rejects; the letters
/// both name that `needed` accepts are batch dims. Result labels: batch, then `a`'s others, then
/// `b`'s others.
fn contract<'a, T: Gemm>(
    a: &Term<'_, T>,
    b: &Term<'_, T>,
    needed: impl Fn(u8) -> bool,
) -> Result<Term<'a, T>, ShapeError> {
    let (la, lb) = (&a.labels, &b.labels);
    let pos_b = |c: u8| lb.iter().position(|&x| x == c);
    let (mut batch, mut free_a, mut con) = (Vec::new(), Vec::new(), Vec::new());
    for (i, &c) in la.iter().enumerate() {
        match pos_b(c) {
            Some(j) if needed(c) => batch.push((i, j)),
            Some(j) => con.push((i, j)),
            None => free_a.push(i),
        }
    }
    let free_b: Vec<usize> = (0..lb.len()).filter(|&j| !la.contains(&lb[j])).collect();
    let rank = batch.len() + free_a.len() + free_b.len();
    if rank > MAX_RANK {
        return Err(ShapeError::RankTooLarge { rank });
    }
    let (sa, sb) = (a.lay.sizes(), b.lay.sizes());
    let nb = product(batch.iter().map(|&(i, _)| sa[i]), sa)?;
    let m = product(free_a.iter().map(|&i| sa[i]), sa)?;
    let k = product(con.iter().map(|&(i, _)| sa[i]), sa)?;
    let n = product(free_b.iter().map(|&j| sb[j]), sb)?;
    let pa: Vec<usize> =
        batch.iter().map(|p| p.0).chain(free_a.iter().copied()).chain(con.iter().map(|p| p.0)).collect();
    let pb: Vec<usize> =
        batch.iter().map(|p| p.1).chain(con.iter().map(|p| p.1)).chain(free_b.iter().copied()).collect();
    let (ga, gb): (&[usize], &[usize]) =
        if batch.is_empty() { (&[m, k][..], &[k, n][..]) } else { (&[nb, m, k][..], &[nb, k, n][..]) };
    let (ca, lay_a) = regroup_cow(a.slice(), &a.lay.permute(&pa)?, ga)?;
    let (cb, lay_b) = regroup_cow(b.slice(), &b.lay.permute(&pb)?, gb)?;
    let va = cow_view(&ca, lay_a);
    let vb = cow_view(&cb, lay_b);
    let p = va.try_matmul(&vb)?;
    let sizes: Vec<usize> = batch
        .iter()
        .map(|&(i, _)| sa[i])
        .chain(free_a.iter().map(|&i| sa[i]))
        .chain(free_b.iter().map(|&j| sb[j]))
        .collect();
    let labels = batch
        .iter()
        .map(|&(i, _)| la[i])
        .chain(free_a.iter().map(|&i| la[i]))
        .chain(free_b.iter().map(|&j| lb[j]))
        .collect();
    Ok(Term { data: CowRepr::Owned(p.data), lay: Layout::contiguous(&sizes)?, labels })
}

/// The labels of `contract(a, b, needed)`'s result.
fn product_labels(la: &[u8], lb: &[u8], needed: impl Fn(u8) -> bool) -> Vec<u8> {
    let batch = la.iter().filter(|&&c| lb.contains(&c) && needed(c));
    let free_a = la.iter().filter(|&&c| !lb.contains(&c));
    let free_b = lb.iter().filter(|&&c| !la.contains(&c));
    batch.chain(free_a).chain(free_b).copied().collect()
}

fn cow_view<'b, T: Element>(c: &'b CowRepr<'_, T>, lay: Layout) -> TensorView<'b, T, DynShape> {
    let s: &'b [T] = match c {
        CowRepr::Borrowed(s) => s,
        CowRepr::Owned(o) => o,
    };
    TensorBase::from_parts(s, lay)
}

/// The letter of a label, for messages (`...` dim `k` for an ellipsis dim).
fn label_name(c: u8) -> String {
    if c >= ELL_BASE {
        format!("`...` dim {}", c - ELL_BASE)
    } else {
        format!("letter '{}'", c as char)
    }
}

/// A term's labels with its `...` spelled out: the term has `ell` dims under `...` out of the
/// equation's `ell_rank`, right-aligned, labelled `ELL_BASE + k` for `k` in `ell_rank - ell..ell_rank`.
pub(crate) fn explicit_labels(term: &[u8], ell: usize, ell_rank: usize) -> Vec<u8> {
    let mut labels = Vec::with_capacity(term.len() + ell);
    for &c in term {
        if c == ELLIPSIS {
            labels.extend((ell_rank - ell..ell_rank).map(|k| ELL_BASE + k as u8));
        } else {
            labels.push(c);
        }
    }
    labels
}

/// The engine: `eq` (for messages), the subscripts of each operand and of the output (resolved;
/// `.` for `...`), and the operands.
pub(crate) fn run<T: Gemm>(
    eq: &str,
    subs: &[&[u8]],
    out: &[u8],
    xs: &[TensorView<'_, T, DynShape>],
) -> Result<Tensor<T, DynShape>, ShapeError> {
    if xs.is_empty() || subs.len() != xs.len() {
        return Err(invalid(eq, format!("{} operand subscripts for {} operands", subs.len(), xs.len())));
    }
    // The ellipsis dims of each operand: its rank minus its letters, right-aligned over all.
    let mut ell = Vec::with_capacity(xs.len());
    for (i, (s, x)) in subs.iter().zip(xs).enumerate() {
        let letters = s.iter().filter(|&&c| c != ELLIPSIS).count();
        let has = s.len() != letters;
        let r = x.rank();
        if (!has && r != letters) || r < letters {
            return Err(invalid(
                eq,
                format!(
                    "operand {i} of shape {:?} has rank {r}, but its subscripts \"{}\" name {letters} axes{}",
                    x.sizes(),
                    String::from_utf8_lossy(s).replace('.', "..."),
                    if has { " or more" } else { "" }
                ),
            ));
        }
        ell.push(r - letters);
    }
    let ell_rank = ell.iter().copied().max().unwrap_or(0);
    if ell_rank > 0 && !out.contains(&ELLIPSIS) {
        return Err(invalid(eq, format!("the operands have {ell_rank} dims under `...`, but the output has no `...`")));
    }
    // Labels per axis, and the size of each label: a size 1 broadcasts against another operand's
    // size (letters and ellipsis dims alike, as NumPy and PyTorch), a letter repeated in one
    // term (a diagonal) needs one size there.
    let mut size: [Option<(usize, usize)>; 256] = [None; 256];
    let mut terms = Vec::with_capacity(xs.len());
    for (i, (s, x)) in subs.iter().zip(xs).enumerate() {
        let labels = explicit_labels(s, ell[i], ell_rank);
        for (a, (&c, &n)) in labels.iter().zip(x.sizes()).enumerate() {
            let mismatch = |m: usize, j: usize| {
                let what = format!("differ in the size of {} ({m} and {n})", label_name(c));
                ShapeError::Mismatch { op: "einsum", what, lhs: xs[j].sizes().into(), rhs: x.sizes().into() }
            };
            // The sizes of a letter within this term: equal (no broadcasting inside a diagonal).
            if let Some(m) = labels[..a].iter().position(|&d| d == c).map(|p| x.sizes()[p]) {
                if m != n {
                    return Err(mismatch(m, i));
                }
                continue;
            }
            match &mut size[c as usize] {
                slot @ None => *slot = Some((n, i)),
                Some((m, j)) if *m == 1 && n != 1 => (*m, *j) = (n, i),
                Some((m, j)) if *m != n && n != 1 => return Err(mismatch(*m, *j)),
                Some(_) => {}
            }
        }
        terms.push(Term { data: CowRepr::Borrowed(x.storage()), lay: *x.layout(), labels });
    }
    let out = explicit_labels(out, ell_rank, ell_rank);
    // Broadcast dims of size 1 (stride-0 views), then take the diagonals of repeated letters.
    for t in &mut terms {
        let target: Vec<usize> = t.labels.iter().map(|&c| size[c as usize].map_or(0, |s| s.0)).collect();
        if target != t.lay.sizes() {
            t.lay = t.lay.expand(&target)?;
        }
        while let Some((i, j)) =
            (0..t.labels.len()).find_map(|j| t.labels[..j].iter().position(|&c| c == t.labels[j]).map(|i| (i, j)))
        {
            t.lay = t.lay.diagonal(i, j, 0)?;
            let c = t.labels.remove(j);
            t.labels.remove(i);
            t.labels.push(c);
        }
    }
    // Left to right: before each step, every axis that nothing later needs is summed out.
    let later = |from: usize, terms: &[Term<'_, T>], c: u8| {
        out.contains(&c) || terms[from..].iter().any(|t| t.labels.contains(&c))
    };
    let mut rest = terms.into_iter();
    let first = rest.next().expect("at least one operand");
    let rest: Vec<Term<'_, T>> = rest.collect();
    let mut cur = first;
    for (s, next) in rest.iter().enumerate() {
        cur = sum_out(cur, |c| later(s, &rest, c))?;
        let nx =
            sum_out(Term { data: CowRepr::Borrowed(next.slice()), lay: next.lay, labels: next.labels.clone() }, |c| {
                cur.labels.contains(&c) || later(s + 1, &rest, c)
            })?;
        let needed = |c| later(s + 1, &rest, c);
        // The product's labels are (batch, left's free, right's free): when the other order of
        // the operands gives the output's order and this one does not, swapping them saves the
        // final copy (`"ij,jk->ki"` is `b^T @ a^T`).
        let swap = s + 1 == rest.len()
            && product_labels(&cur.labels, &nx.labels, needed) != out
            && product_labels(&nx.labels, &cur.labels, needed) == out;
        cur = if swap { contract(&nx, &cur, needed)? } else { contract(&cur, &nx, needed)? };
    }
    let cur = sum_out(cur, |c| out.contains(&c))?;
    // To the output's order.
    let perm: Vec<usize> =
        out.iter().map(|c| cur.labels.iter().position(|x| x == c).expect("every output label is kept")).collect();
    let lay = cur.lay.permute(&perm)?;
    match cur.data {
        CowRepr::Owned(o) if lay.is_contiguous() && lay.offset() == 0 && o.len() == lay.numel() => {
            Ok(TensorBase::from_parts(o, lay))
        }
        _ => Ok(TensorBase::from_parts(kernels::to_vec(cur.slice(), &lay)?, Layout::contiguous(lay.sizes())?)),
    }
}

/// Einstein summation over tensors of runtime shapes (NumPy `np.einsum(eq, *operands)`,
/// PyTorch `torch.einsum(eq, *operands)`): `try_einsum("bij,bjk->bik", &[&a, &b])` is a batch
/// matmul. The result has the rank and sizes the output subscripts give, row-major.
///
/// The equation: one term of letters (`a-z`, `A-Z`) per operand, separated by commas, and
/// optionally `->` and the output's letters. A letter names one axis size throughout; letters
/// that are not in the output are summed over. Without `->`, the output is the letters that
/// appear exactly once, in ASCII order (NumPy's implicit mode: `"ij,jk"` is `"ij,jk->ik"`,
/// `"ji"` is the transpose `"ji->ij"`, `"ii"` the trace). A letter repeated in one term takes the
/// diagonal (`"ii->i"`, `"ii->"` the trace). `...` stands for the dims that the letters do not
/// name, aligned from the right and broadcast between operands; it must appear in the output
/// when it covers any dim (implicit mode puts it first). Whitespace is ignored.
///
/// A letter of size 1 in one operand broadcasts against its size in the others, as in NumPy and
/// PyTorch (`"ij,ij->ij"` of `[2, 1]` and `[2, 3]` is `[2, 3]`; `"ij,jk->ik"` of `[2, 1]` and
/// `[3, 4]` sums `a[i, 0] * b[j, k]` over `j`); other sizes must be equal. A letter repeated
/// within one term (a diagonal) needs one size there.
///
/// Lowering (no element loop of its own, see the module docs): diagonals are views, sums over a
/// letter of one operand are matrix-vector products with ones, and the operands are contracted
/// left to right, each step one (batched) `matmul`. Integer products and sums wrap, as in
/// `matmul`. Intermediate results have at most 6 dims.
///
/// Element types: every numeric type with a matrix product ([`Gemm`]: the floats, `f16`/`bf16`
/// and the integers).
///
/// # Errors
/// [`ShapeError::Invalid`] for a malformed equation (a character that is neither a letter nor
/// `...`, two `->`, two `...` in a term, an output letter repeated or naming no operand axis),
/// a term count other than the operand count, a term naming another number of axes than its
/// operand's rank, or `...` dims without `...` in the output; [`ShapeError::Mismatch`] when a
/// letter has two sizes other than 1 (or `...` dims do not broadcast), naming the letter, both
/// sizes and both shapes; [`ShapeError::RankTooLarge`] when the output or an intermediate would have more than
/// 6 dims; [`ShapeError::Overflow`]; [`ShapeError::Alloc`].
///
/// # Example
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{try_einsum, DynShape, Tensor};
/// let a = Tensor::<f64, DynShape>::from_vec(&[2, 3], (0..6).map(f64::from).collect());
/// let b = Tensor::<f64, DynShape>::from_vec(&[3, 2], (0..6).map(f64::from).collect());
/// let c = try_einsum("ij,jk->ik", &[&a, &b]).unwrap(); // [2, 3] @ [3, 2] -> [2, 2]
/// assert_eq!(c.to_vec(), a.matmul(&b).to_vec());
/// let t = try_einsum("ii", &[&c]).unwrap(); // the trace: [2, 2] -> []
/// assert_eq!(t.to_vec(), [c.to_vec()[0] + c.to_vec()[3]]);
/// assert_eq!(try_einsum("ij->ji", &[&a]).unwrap().sizes(), [3, 2]); // a transpose
/// let e = try_einsum("ij,jk->ik", &[&a, &a]).unwrap_err();
/// assert_eq!(e.to_string(), "einsum: [2, 3] and [2, 3] differ in the size of letter 'j' (3 and 2)");
/// ```
#[doc(alias = "einstein_sum")]
pub fn try_einsum<D: Data>(
    eq: &str,
    operands: &[&TensorBase<D, DynShape>],
) -> Result<Tensor<D::Elem, DynShape>, ShapeError>
where
    D::Elem: Gemm,
{
    let p = parse(eq, operands.len())?;
    let subs: Vec<&[u8]> = p.ops.iter().map(|t| &t[..]).collect();
    let xs: Vec<TensorView<'_, D::Elem, DynShape>> = operands.iter().map(|x| x.as_dyn_view()).collect();
    run(eq, &subs, &p.out, &xs)
}

/// [`try_einsum`], panicking with the error's message.
///
/// # Panics
/// On each error of [`try_einsum`].
///
/// # Example
/// ```
/// # extern crate shaped_core as shaped;
/// use shaped::{einsum, DynShape, Tensor};
/// let v = Tensor::<i32, DynShape>::from_vec(&[3], vec![1, 2, 3]);
/// assert_eq!(einsum("i,i->", &[&v, &v]).to_vec(), [14]); // the dot product
/// assert_eq!(einsum("i,j->ij", &[&v, &v]).sizes(), [3, 3]); // the outer product
/// ```
#[track_caller]
#[doc(alias = "einstein_sum")]
pub fn einsum<D: Data>(eq: &str, operands: &[&TensorBase<D, DynShape>]) -> Tensor<D::Elem, DynShape>
where
    D::Elem: Gemm,
{
    try_einsum(eq, operands).or_panic()
}

impl<D: Data, S: Shape> TensorBase<D, S> {
    /// A borrowed runtime-shape view, whatever the storage kind.
    #[inline]
    fn as_dyn_view(&self) -> TensorView<'_, D::Elem, DynShape> {
        TensorBase::from_parts(self.data.as_slice(), *self.layout())
    }
}

/// What `einsum!` expands to: the engine on subscripts parsed by the macro (`.` for `...`, the
/// output resolved), the result checked against the shape type `O` that the macro computed from
/// the operands' types.
#[doc(hidden)]
pub fn typed<T: Gemm, O: Shape>(
    eq: &str,
    subs: &[&[u8]],
    out: &[u8],
    xs: &[TensorView<'_, T, DynShape>],
) -> Result<Tensor<T, O>, ShapeError> {
    // The macro's parser made these; re-checked here (cheap) since this function is public.
    let letter_or_dots = |t: &[u8]| {
        t.iter().all(|c| c.is_ascii_alphabetic() || *c == ELLIPSIS) && t.iter().filter(|&&c| c == ELLIPSIS).count() <= 1
    };
    let named = |c: &u8| *c == ELLIPSIS || subs.iter().any(|t| t.contains(c));
    let distinct = out.iter().enumerate().all(|(i, c)| !out[..i].contains(c));
    if !subs.iter().all(|t| letter_or_dots(t)) || !letter_or_dots(out) || !out.iter().all(named) || !distinct {
        return Err(invalid(eq, "malformed parsed subscripts"));
    }
    run(eq, subs, out, xs)?.try_into_static::<O>()
}

/// A borrowed runtime-shape view of an operand of `einsum!`.
#[doc(hidden)]
#[inline]
pub fn operand<D: Data, S: Shape>(x: &TensorBase<D, S>) -> TensorView<'_, D::Elem, DynShape> {
    x.as_dyn_view()
}

/// An operand of `einsum!` whose subscripts name `R` axes: a tuple shape of rank `R` (its dims
/// are `D0`.. in order, `Dyn` past the rank) or [`DynShape`] (every dim `Dyn`, the rank checked at
/// run time).
#[diagnostic::on_unimplemented(
    message = "einsum: an operand of shape `{Self}` does not have the {R} axes its subscripts name",
    label = "the subscripts of this operand name {R} axes",
    note = "each letter of an operand's term names one of its axes, in order"
)]
pub trait EinsumRank<const R: usize>: Shape {
    /// The dim of axis 0.
    type D0: Dim;
    /// The dim of axis 1.
    type D1: Dim;
    /// The dim of axis 2.
    type D2: Dim;
    /// The dim of axis 3.
    type D3: Dim;
    /// The dim of axis 4.
    type D4: Dim;
    /// The dim of axis 5.
    type D5: Dim;
}
macro_rules! einsum_rank {
    ($r:literal; $($d:ident),*; $($pad:ident),*) => {
        #[diagnostic::do_not_recommend]
        impl<$($d: Dim),*> EinsumRank<$r> for ($($d,)*) {
            einsum_rank!(@assoc [D0, D1, D2, D3, D4, D5] [$($d,)* $($pad,)*]);
        }
    };
    (@assoc [$($n:ident),*] [$($t:ty,)*]) => { $(type $n = $t;)* };
}
einsum_rank!(0; ; Dyn, Dyn, Dyn, Dyn, Dyn, Dyn);
einsum_rank!(1; A0; Dyn, Dyn, Dyn, Dyn, Dyn);
einsum_rank!(2; A0, A1; Dyn, Dyn, Dyn, Dyn);
einsum_rank!(3; A0, A1, A2; Dyn, Dyn, Dyn);
einsum_rank!(4; A0, A1, A2, A3; Dyn, Dyn);
einsum_rank!(5; A0, A1, A2, A3, A4; Dyn);
einsum_rank!(6; A0, A1, A2, A3, A4, A5; );
#[diagnostic::do_not_recommend]
impl<const R: usize> EinsumRank<R> for DynShape {
    type D0 = Dyn;
    type D1 = Dyn;
    type D2 = Dyn;
    type D3 = Dyn;
    type D4 = Dyn;
    type D5 = Dyn;
}

/// The dim of a letter that labels an axis of dim `Self` and another of dim `Rhs`, where a size
/// 1 broadcasts: a `Const<N>` when either is one (the first when both are: their sizes are
/// compared when the program is built), [`One`] when both are `One`, `Dyn` otherwise (`One`
/// with `Dyn`: the run-time size wins).
pub trait EinsumDim<Rhs>: Dim {
    /// The letter's dim in the result.
    type Out: Dim;
}
/// The impls of [`EinsumDim`], one a line: `[generics] Self, Rhs => Out`.
macro_rules! einsum_dim {
    ($([$($g:tt)*] $D:ty, $Rhs:ty => $Out:ty;)*) => {$(
        impl<$($g)*> EinsumDim<$Rhs> for $D {
            type Out = $Out;
        }
    )*};
}
einsum_dim! {
    [const N: usize, X: Dim] Const<N>, X => Const<N>;
    [const N: usize] One, Const<N> => Const<N>;
    [] One, One => One;
    [] One, Dyn => Dyn;
    [const N: usize] Dyn, Const<N> => Const<N>;
    [] Dyn, One => Dyn;
    [] Dyn, Dyn => Dyn;
    [N: crate::Tagged] N, N => N;
    [N: crate::Tagged] N, Dyn => N;
    [N: crate::Tagged] N, One => N;
    [N: crate::Tagged] Dyn, N => N;
    [N: crate::Tagged] One, N => N;
}

/// The operand shapes of one `einsum!` call, as a tuple (up to 8): their static ranks and sizes
/// for the build-time check.
#[doc(hidden)]
pub trait EinsumShapes {
    /// Each operand's rank (`None` for [`DynShape`]), `None` past the operand count.
    const RANKS: [Option<usize>; 8];
    /// Each operand's static sizes.
    const STATIC: [[Option<usize>; MAX_RANK]; 8];
}
macro_rules! einsum_shapes {
    ($($s:ident),*) => {
        impl<$($s: Shape),*> EinsumShapes for ($($s,)*) {
            const RANKS: [Option<usize>; 8] = {
                let mut r = [None; 8];
                let src = [$($s::RANK),*];
                let mut i = 0;
                while i < src.len() {
                    r[i] = src[i];
                    i += 1;
                }
                r
            };
            const STATIC: [[Option<usize>; MAX_RANK]; 8] = {
                let mut r = [[None; MAX_RANK]; 8];
                let src = [$($s::STATIC),*];
                let mut i = 0;
                while i < src.len() {
                    r[i] = src[i];
                    i += 1;
                }
                r
            };
        }
    };
}
einsum_shapes!(S0);
einsum_shapes!(S0, S1);
einsum_shapes!(S0, S1, S2);
einsum_shapes!(S0, S1, S2, S3);
einsum_shapes!(S0, S1, S2, S3, S4);
einsum_shapes!(S0, S1, S2, S3, S4, S5);
einsum_shapes!(S0, S1, S2, S3, S4, S5, S6);
einsum_shapes!(S0, S1, S2, S3, S4, S5, S6, S7);

/// The equation of one `einsum!` call, as the macro parsed it (implemented by a type the macro
/// defines).
#[doc(hidden)]
pub trait EinsumEquation {
    /// The equation as written.
    const TEXT: &'static str;
    /// Each operand's subscripts (ASCII letters, `.` for `...`).
    const OPS: &'static [&'static [u8]];
}

/// The build-time check of `einsum!`: a letter bound to two different static sizes, neither of
/// them 1 (which broadcasts), is an error naming the letter and both sizes.
#[doc(hidden)]
pub struct EinsumCheck<E, Ss>(core::marker::PhantomData<(E, Ss)>);
impl<E: EinsumEquation, Ss: EinsumShapes> EinsumCheck<E, Ss> {
    /// Evaluated (and failing the build) where `einsum!` is instantiated.
    pub const OK: () = if let Some(m) = check(E::TEXT, E::OPS, &Ss::RANKS, &Ss::STATIC) {
        m.fail()
    };
}

/// The static size of each axis a subscript position names, compared per letter: the message of
/// the first letter with two sizes that do not broadcast (a size 1 stretches to another
/// operand's; within one operand, a repeated letter's sizes must be equal).
const fn check(
    text: &str,
    ops: &[&[u8]],
    ranks: &[Option<usize>; 8],
    st: &[[Option<usize>; MAX_RANK]; 8],
) -> Option<ConstMsg> {
    // The first static size seen for each letter, and its operand.
    let mut first: [Option<(usize, usize)>; 128] = [None; 128];
    let mut i = 0;
    while i < ops.len() {
        let s = ops[i];
        if let Some(r) = ranks[i] {
            let mut ell = s.len();
            let mut p = 0;
            while p < s.len() {
                if s[p] == ELLIPSIS {
                    ell = p;
                }
                p += 1;
            }
            let letters = if ell < s.len() { s.len() - 1 } else { s.len() };
            if r >= letters {
                let mut p = 0;
                while p < s.len() {
                    let c = s[p];
                    // Letters before `...` count from the front, after it from the back.
                    let axis = if p < ell { p } else { r - (s.len() - p) };
                    if c != ELLIPSIS && axis < MAX_RANK {
                        if let Some(n) = st[i][axis] {
                            match first[c as usize] {
                                None => first[c as usize] = Some((n, i)),
                                Some((1, j)) if n != 1 && j != i => first[c as usize] = Some((n, i)),
                                Some((m, j)) if m != n && (n != 1 || j == i) => {
                                    let msg = ConstMsg::new().str("einsum \"").str(text).str("\": letter '");
                                    let msg = msg.str(letter(c)).str("' has size ").num(m).str(" in operand ").num(j);
                                    return Some(msg.str(" and size ").num(n).str(" in operand ").num(i));
                                }
                                Some(_) => {}
                            }
                        }
                    }
                    p += 1;
                }
            }
        }
        i += 1;
    }
    None
}

/// A one-letter string of an ASCII letter (const).
const fn letter(c: u8) -> &'static str {
    const ALL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let i = match c {
        b'A'..=b'Z' => (c - b'A') as usize,
        b'a'..=b'z' => (c - b'a') as usize + 26,
        _ => return "?",
    };
    let (_, tail) = ALL.split_at(i);
    let (one, _) = tail.split_at(1);
    one
}
