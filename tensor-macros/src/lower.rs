//! Lowering: each parsed item becomes an index op of `shaped_core::index` ([`OpKind`]), with
//! literal indices and bounds as const generics, so that the compiler computes the result shape
//! and rejects literal out-of-bounds indices.
//!
//! The const arithmetic is here: a literal range's length (`LEN`, its step's sign as `REV`),
//! negative literals counted from the end (`AtNeg`, `RangeNeg`), `..=` as an exclusive end. So
//! are the checks of literal values: a literal beyond `isize` (out of bounds for every dim, and
//! it would wrap as a const generic), a zero step, a start after its end, two `...`. A range
//! with a run-time part (or literal bounds of mixed signs) becomes a `RangeDyn` value.

use proc_macro2::{Span, TokenStream};
use syn::{Error, Expr, Result};

use crate::parse::{AssignOp, Bound, Item, ItemKind, Lit, Range, TInput};

/// A `t!` input ready to emit.
pub(crate) struct Lowered {
    /// The facade's path (`$crate`).
    pub krate: TokenStream,
    /// `try`: the `Result` forms.
    pub fallible: bool,
    /// `mut`: a mutable view.
    pub mutable: bool,
    /// The indexed tensor's tokens.
    pub target: TokenStream,
    /// The span of the brackets: the span of the emitted code.
    pub span: Span,
    /// The ops before the `...` (all of them without one), in order.
    pub pre: Vec<Op>,
    /// The ops after the `...`, last first (they are applied from the back).
    pub post: Vec<Op>,
    /// An assignment and its value's tokens.
    pub write: Option<(Write, TokenStream)>,
}

/// A write through the view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Write {
    /// `=`: `TAssign`.
    Assign,
    /// `+= -= *= /= %=`: `TCompound` with this operation type of `shaped_core::index`.
    Compound(&'static str),
}

/// One index op.
pub(crate) struct Op {
    /// The item's span.
    pub span: Span,
    /// Which op.
    pub kind: OpKind,
}

/// The index op types of `shaped_core::index` and their const generics (or run-time values).
pub(crate) enum OpKind {
    /// `Full`: `..`.
    Full,
    /// `NewAxis`: `None`.
    NewAxis,
    /// `At<N>`: a literal index.
    At(usize),
    /// `AtNeg<K>`: a literal index `-K`, from the end.
    AtNeg(usize),
    /// `Range<S, E, STEP, LEN, REV, ONE>`: literal bounds from the front (the end exclusive).
    Range {
        /// `S`.
        start: usize,
        /// `E`.
        end: usize,
        /// `STEP`: the step's magnitude.
        step: usize,
        /// `LEN`: the number of elements, `ceil((E - S) / STEP)`.
        len: usize,
        /// `REV`: a negative step (a reversed view).
        rev: bool,
        /// `ONE`: `LEN == 1`.
        one: bool,
    },
    /// `RangeFrom<S, STEP, REV>`: a literal start from the front and no end (the length is
    /// computed by typenum from the dim).
    RangeFrom {
        /// `S`; `None` when the range has no start (emitted as `0`).
        start: Option<usize>,
        /// `STEP`: the step's magnitude.
        step: usize,
        /// `REV`: a negative step.
        rev: bool,
    },
    /// `RangeNeg<KS, KE, STEP, LEN, REV, ONE>`: the range `-KS..-KE` (`-KS..` when `KE` is 0).
    RangeNeg {
        /// `KS`.
        from_end_start: usize,
        /// `KE`; `None` when the range has no end (emitted as `0`).
        from_end_end: Option<usize>,
        /// `STEP`: the step's magnitude.
        step: usize,
        /// `LEN`: `ceil((KS - KE) / STEP)`.
        len: usize,
        /// `REV`: a negative step.
        rev: bool,
        /// `ONE`: `LEN == 1`.
        one: bool,
    },
    /// `AtDyn(expr)`: an integer index checked at run time.
    AtDyn(Box<Expr>),
    /// `IndexItem::index_op(&(expr))`: an index tensor (the expression includes its `&`).
    Index(Box<Expr>),
    /// `RangeDyn { start, end, step }`: checked at run time, a `Dyn` dim.
    RangeDyn {
        /// The start.
        start: DynBound,
        /// The exclusive end.
        end: DynBound,
        /// The step.
        step: DynStep,
    },
}

/// A bound of a `RangeDyn` (an `Option<i128>`).
pub(crate) enum DynBound {
    /// No bound: `None`.
    Open,
    /// A literal: `Some(v)`.
    Lit(i128),
    /// An expression: `Some(ToIndex::to_i128(e))`.
    Expr(Box<Expr>),
    /// The end of `a..=e`: `inclusive_end(ToIndex::to_i128(e))` (`None` for `-1`).
    InclusiveEnd(Box<Expr>),
}

/// The step of a `RangeDyn` (an `isize`).
pub(crate) enum DynStep {
    /// No step: `1`.
    One,
    /// A literal step.
    Lit(isize),
    /// An expression: `ToIndex::to_index(e)`.
    Expr(Box<Expr>),
}

/// Lowers every item; the items after a `...` go to [`Lowered::post`], reversed.
pub(crate) fn lower(input: TInput) -> Result<Lowered> {
    let (mut pre, mut post) = (Vec::new(), Vec::new());
    let mut seen_rest = false;
    for item in input.items {
        let span = item.span;
        match lower_item(item)? {
            None if seen_rest => return Err(Error::new(span, "an index can only have a single ellipsis (`...`)")),
            None => seen_rest = true,
            Some(op) if seen_rest => post.push(op),
            Some(op) => pre.push(op),
        }
    }
    post.reverse(); // applied from the back
    let write = input.assign.map(|(op, value)| {
        let write = match op {
            AssignOp::Assign => Write::Assign,
            AssignOp::Add => Write::Compound("OpAdd"),
            AssignOp::Sub => Write::Compound("OpSub"),
            AssignOp::Mul => Write::Compound("OpMul"),
            AssignOp::Div => Write::Compound("OpDiv"),
            AssignOp::Rem => Write::Compound("OpRem"),
        };
        (write, value)
    });
    Ok(Lowered {
        krate: input.krate,
        fallible: input.try_.is_some(),
        mutable: input.mut_.is_some(),
        target: input.target,
        span: input.bracket.span.join(),
        pre,
        post,
        write,
    })
}

/// The op of one item; `None` for `...`.
fn lower_item(item: Item) -> Result<Option<Op>> {
    let kind = match item.kind {
        ItemKind::Rest => return Ok(None),
        ItemKind::Full => OpKind::Full,
        ItemKind::NewAxis => OpKind::NewAxis,
        ItemKind::At(lit) => match fits(&lit)? {
            v if v >= 0 => OpKind::At(v as usize),
            v => OpKind::AtNeg(-v as usize),
        },
        ItemKind::IndexTensor(e) => OpKind::Index(e),
        ItemKind::Expr(e) => OpKind::AtDyn(e),
        ItemKind::Range(range) => lower_range(range, item.span)?,
    };
    Ok(Some(Op { span: item.span, kind }))
}

/// A literal's value, if it fits `isize`: a larger one is out of bounds for every dim (and would
/// wrap as a const generic).
fn fits(lit: &Lit) -> Result<i128> {
    if lit.value.unsigned_abs() > isize::MAX as u128 {
        let msg = format!("index {} is out of bounds for every dimension (it does not fit isize)", lit.value);
        return Err(Error::new(lit.span, msg));
    }
    Ok(lit.value)
}

/// A bound as a `RangeDyn` bound, its literal checked.
fn dyn_bound(bound: Option<Bound>) -> Result<DynBound> {
    Ok(match bound {
        None => DynBound::Open,
        Some(Bound::Lit(lit)) => DynBound::Lit(fits(&lit)?),
        Some(Bound::Expr(e)) => DynBound::Expr(e),
    })
}

/// A range's op: a static one when the step and the bounds are literals of one sign (or
/// missing), otherwise `RangeDyn`.
fn lower_range(range: Range, span: Span) -> Result<OpKind> {
    let step = match range.step {
        None => DynStep::One,
        Some(Bound::Lit(lit)) => match fits(&lit)? {
            0 => return Err(Error::new(lit.span, "slice step cannot be zero")),
            v => DynStep::Lit(v as isize),
        },
        Some(Bound::Expr(e)) => DynStep::Expr(e),
    };
    let start = dyn_bound(range.start)?;
    let inclusive = range.inclusive;
    let mut end = dyn_bound(range.end)?;
    if inclusive {
        end = match end {
            DynBound::Lit(-1) => DynBound::Open, // `..=-1` runs to the end
            DynBound::Lit(v) => DynBound::Lit(v + 1),
            DynBound::Expr(e) => DynBound::InclusiveEnd(e),
            open => open, // not parsed (`..=` needs an end)
        };
    }
    let step_lit = match step {
        DynStep::One => Some(1),
        DynStep::Lit(v) => Some(v as i128),
        DynStep::Expr(_) => None,
    };
    if let Some(st) = step_lit {
        let (rev, abs) = (st < 0, st.abs());
        // The number of elements of a span of `n` indices.
        let len = |n: i128| (n + abs - 1) / abs;
        let step = abs as usize;
        // A literal range whose start is after its end is rejected (PyTorch and NumPy would give
        // an empty view): a reversed range is written with a negative step.
        let order = |s: i128, e: i128| {
            if s > e {
                let msg = if inclusive {
                    format!("range start {s} is greater than its inclusive end {}", e - 1)
                } else {
                    format!("range start {s} is greater than its end {e}")
                };
                return Err(Error::new(span, msg));
            }
            Ok(())
        };
        // `-ks..-ke` (`-ks..` without `ke`) of `len` elements.
        let neg = |ks: i128, ke: Option<i128>, len: i128| OpKind::RangeNeg {
            from_end_start: ks as usize,
            from_end_end: ke.map(|k| k as usize),
            step,
            len: len as usize,
            rev,
            one: len == 1,
        };
        match (&start, &end) {
            (DynBound::Open, DynBound::Open) if st == 1 => return Ok(OpKind::Full),
            (DynBound::Open, DynBound::Open) => return Ok(OpKind::RangeFrom { start: None, step, rev }),
            (&DynBound::Lit(s), DynBound::Open) if s >= 0 => {
                return Ok(OpKind::RangeFrom { start: Some(s as usize), step, rev })
            }
            (&DynBound::Lit(s), DynBound::Open) => return Ok(neg(-s, None, len(-s))),
            (s @ (DynBound::Open | DynBound::Lit(0..)), &DynBound::Lit(e)) if e >= 0 => {
                let s = match s {
                    &DynBound::Lit(s) => s,
                    _ => 0,
                };
                order(s, e)?;
                let len = len(e - s);
                let (start, end) = (s as usize, e as usize);
                return Ok(OpKind::Range { start, end, step, len: len as usize, rev, one: len == 1 });
            }
            (&DynBound::Lit(s), &DynBound::Lit(e)) if s < 0 && e < 0 => {
                order(s, e)?;
                return Ok(neg(-s, Some(-e), len(e - s)));
            }
            _ => {}
        }
    }
    // A range with a run-time part (or mixed-sign literal bounds): a `Dyn` dim.
    Ok(OpKind::RangeDyn { start, end, step })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    /// `s` parsed and lowered.
    fn lowered(s: &str) -> Result<Lowered> {
        lower(syn::parse_str(&format!("k; {s}"))?)
    }

    /// The op of the single item `s`, shown as [`show`] does.
    fn op(s: &str) -> String {
        let l = lowered(&format!("x[{s}]")).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert_eq!((l.pre.len(), l.post.len()), (1, 0), "{s}");
        show(&l.pre[0].kind)
    }

    /// The error message for the items `s`.
    fn error(s: &str) -> String {
        match lowered(&format!("x[{s}]")) {
            Ok(_) => panic!("`{s}` lowered"),
            Err(e) => e.to_string(),
        }
    }

    /// An op in a compact form: its type and const generics (`None` for a missing bound), or
    /// `RangeDyn(start..end;step)` with `_` for a missing bound and expressions in braces.
    fn show(op: &OpKind) -> String {
        match op {
            OpKind::Full => "Full".into(),
            OpKind::NewAxis => "NewAxis".into(),
            OpKind::At(n) => format!("At<{n}>"),
            OpKind::AtNeg(k) => format!("AtNeg<{k}>"),
            OpKind::Range { start, end, step, len, rev, one } => {
                format!("Range<{start}, {end}, {step}, {len}, {rev}, {one}>")
            }
            OpKind::RangeFrom { start, step, rev } => format!("RangeFrom<{start:?}, {step}, {rev}>"),
            OpKind::RangeNeg { from_end_start, from_end_end, step, len, rev, one } => {
                format!("RangeNeg<{from_end_start}, {from_end_end:?}, {step}, {len}, {rev}, {one}>")
            }
            OpKind::AtDyn(e) => format!("AtDyn({})", e.to_token_stream()),
            OpKind::Index(e) => format!("Index({})", e.to_token_stream()),
            OpKind::RangeDyn { start, end, step } => {
                let bound = |b: &DynBound| match b {
                    DynBound::Open => "_".to_string(),
                    DynBound::Lit(v) => v.to_string(),
                    DynBound::Expr(e) => format!("{{{}}}", e.to_token_stream()),
                    DynBound::InclusiveEnd(e) => format!("={{{}}}", e.to_token_stream()),
                };
                let step = match step {
                    DynStep::One => "1".to_string(),
                    DynStep::Lit(v) => v.to_string(),
                    DynStep::Expr(e) => format!("{{{}}}", e.to_token_stream()),
                };
                format!("RangeDyn({}..{};{step})", bound(start), bound(end))
            }
        }
    }

    #[test]
    fn indices() {
        assert_eq!(op("3"), "At<3>");
        assert_eq!(op("0"), "At<0>");
        assert_eq!(op("-1"), "AtNeg<1>");
        assert_eq!(op("-4"), "AtNeg<4>");
        assert_eq!(op("9223372036854775807"), "At<9223372036854775807>");
        assert_eq!(op("-9223372036854775807"), "AtNeg<9223372036854775807>");
        assert_eq!(op("i"), "AtDyn(i)");
        assert_eq!(op("&rows"), "Index(& rows)");
        assert_eq!(op("None"), "NewAxis");
        assert_eq!(op(".."), "Full");
    }

    #[test]
    fn static_ranges() {
        // LEN = ceil((E - S) / |STEP|).
        assert_eq!(op("2..7;2"), "Range<2, 7, 2, 3, false, false>");
        assert_eq!(op("2..8;2"), "Range<2, 8, 2, 3, false, false>");
        assert_eq!(op("1..3"), "Range<1, 3, 1, 2, false, false>");
        assert_eq!(op("..3"), "Range<0, 3, 1, 3, false, false>");
        assert_eq!(op("..5;2"), "Range<0, 5, 2, 3, false, false>");
        assert_eq!(op("2..3"), "Range<2, 3, 1, 1, false, true>");
        assert_eq!(op("0..0"), "Range<0, 0, 1, 0, false, false>");
        // `a..=b` is `a..b + 1`.
        assert_eq!(op("1..=2"), "Range<1, 3, 1, 2, false, false>");
        assert_eq!(op("2..=2"), "Range<2, 3, 1, 1, false, true>");
        assert_eq!(op("3..=2"), "Range<3, 3, 1, 0, false, false>");
        // A negative step: the same elements, reversed (REV).
        assert_eq!(op("1..4;-2"), "Range<1, 4, 2, 2, true, false>");
        assert_eq!(op("..;-1"), "RangeFrom<None, 1, true>");
        assert_eq!(op("3..;-2"), "RangeFrom<Some(3), 2, true>");
        // No bounds: Full with step 1 (also `..=-1`, which runs to the end), else RangeFrom.
        assert_eq!(op("..;1"), "Full");
        assert_eq!(op("..=-1"), "Full");
        assert_eq!(op("..;2"), "RangeFrom<None, 2, false>");
        assert_eq!(op("0..;1"), "RangeFrom<Some(0), 1, false>");
        assert_eq!(op("2..=-1"), "RangeFrom<Some(2), 1, false>");
        // Negative bounds count from the end: `-KS..-KE`.
        assert_eq!(op("-3.."), "RangeNeg<3, None, 1, 3, false, false>");
        assert_eq!(op("-1.."), "RangeNeg<1, None, 1, 1, false, true>");
        assert_eq!(op("-5..;2"), "RangeNeg<5, None, 2, 3, false, false>");
        assert_eq!(op("-3..-1"), "RangeNeg<3, Some(1), 1, 2, false, false>");
        assert_eq!(op("-3..=-2"), "RangeNeg<3, Some(1), 1, 2, false, false>");
        assert_eq!(op("-3..=-1"), "RangeNeg<3, None, 1, 3, false, false>");
        assert_eq!(op("-4..-1;-2"), "RangeNeg<4, Some(1), 2, 2, true, false>");
    }

    #[test]
    fn run_time_ranges() {
        assert_eq!(op("a..b"), "RangeDyn({a}..{b};1)");
        assert_eq!(op("i.."), "RangeDyn({i}.._;1)");
        assert_eq!(op("..n"), "RangeDyn(_..{n};1)");
        assert_eq!(op("a..=b"), "RangeDyn({a}..={b};1)");
        assert_eq!(op("1..=b;2"), "RangeDyn(1..={b};2)");
        assert_eq!(op("a..=3"), "RangeDyn({a}..4;1)");
        assert_eq!(op("a..=-1"), "RangeDyn({a}.._;1)");
        assert_eq!(op("..;k"), "RangeDyn(_.._;{k})");
        assert_eq!(op("1..5;k"), "RangeDyn(1..5;{k})");
        assert_eq!(op("..3;-k"), "RangeDyn(_..3;{- k})");
        // Literal bounds of mixed signs (or an end from the end with no start) are checked at
        // run time.
        assert_eq!(op("-3..2"), "RangeDyn(-3..2;1)");
        assert_eq!(op("0..-1"), "RangeDyn(0..-1;1)");
        assert_eq!(op("..-1"), "RangeDyn(_..-1;1)");
        assert_eq!(op("..=-2"), "RangeDyn(_..-1;1)");
        assert_eq!(op("-1..b"), "RangeDyn(-1..{b};1)");
        assert_eq!(op("1..b;-1"), "RangeDyn(1..{b};-1)");
    }

    #[test]
    fn ellipsis_splits_pre_and_post() {
        let l = lowered("x[None, ..., 0, -1..]").unwrap();
        assert_eq!(l.pre.iter().map(|op| show(&op.kind)).collect::<Vec<_>>(), ["NewAxis"]);
        // Applied from the back: the last item first.
        let post: Vec<_> = l.post.iter().map(|op| show(&op.kind)).collect();
        assert_eq!(post, ["RangeNeg<1, None, 1, 1, false, true>", "At<0>"]);
        let l = lowered("x[..., 1]").unwrap();
        assert_eq!((l.pre.len(), l.post.len()), (0, 1));
        let l = lowered("x[...]").unwrap();
        assert_eq!((l.pre.len(), l.post.len()), (0, 0));
    }

    #[test]
    fn forms() {
        let l = lowered("try x[0] += v").unwrap();
        assert!(l.fallible && !l.mutable);
        assert_eq!(l.write.map(|(w, v)| (w, v.to_string())), Some((Write::Compound("OpAdd"), "v".into())));
        let l = lowered("mut x[0]").unwrap();
        assert!(!l.fallible && l.mutable && l.write.is_none());
        let write = |s: &str| lowered(s).unwrap().write.unwrap().0;
        assert_eq!(write("x[0] = 1"), Write::Assign);
        assert_eq!(write("x[0] -= 1"), Write::Compound("OpSub"));
        assert_eq!(write("x[0] *= 1"), Write::Compound("OpMul"));
        assert_eq!(write("x[0] /= 1"), Write::Compound("OpDiv"));
        assert_eq!(write("x[0] %= 1"), Write::Compound("OpRem"));
    }

    #[test]
    fn literal_errors() {
        assert_eq!(error("3..1"), "range start 3 is greater than its end 1");
        // `a..=b` is reported as written (it was the exclusive `b + 1` before 0.2).
        assert_eq!(error("5..=3"), "range start 5 is greater than its inclusive end 3");
        assert_eq!(error("-1..-3"), "range start -1 is greater than its end -3");
        assert_eq!(error("0..4;0"), "slice step cannot be zero");
        assert_eq!(error("..;-0"), "slice step cannot be zero");
        assert_eq!(error("..., 0, ..."), "an index can only have a single ellipsis (`...`)");
        assert_eq!(error("...,..."), "an index can only have a single ellipsis (`...`)");
        let beyond = |v: &str| format!("index {v} is out of bounds for every dimension (it does not fit isize)");
        assert_eq!(error("9223372036854775808"), beyond("9223372036854775808"));
        assert_eq!(error("-9223372036854775808"), beyond("-9223372036854775808"));
        assert_eq!(error("0..99999999999999999999"), beyond("99999999999999999999"));
        assert_eq!(error("-99999999999999999999..;2"), beyond("-99999999999999999999"));
        assert_eq!(error("..;9223372036854775808"), beyond("9223372036854775808"));
        assert_eq!(error("a..9223372036854775808"), beyond("9223372036854775808"));
        // The largest literals that fit.
        assert_eq!(
            op("0..=9223372036854775807"),
            "Range<0, 9223372036854775808, 1, 9223372036854775808, false, false>"
        );
        assert_eq!(op("..;-9223372036854775807"), "RangeFrom<None, 9223372036854775807, true>");
    }
}
