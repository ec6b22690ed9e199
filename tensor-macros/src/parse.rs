//! Parsing: the `t!` grammar into a syntax tree ([`TInput`]) that keeps the spans of its tokens.
//!
//! An index item is no Rust expression (`..;2`, `...`, `None`, `-1..`), so the input is split at
//! top-level punctuation first, token tree by token tree (a group is one token tree: commas and
//! ranges inside parentheses or brackets never split), and each bound, step and index that is no
//! integer literal is then parsed as a [`syn::Expr`]. The tensor and an assigned value stay the
//! tokens the user wrote (see [`TInput::parse`]). Only the grammar is checked here; the values
//! of literals (zero steps, bounds beyond `isize`, a start after its end) and the number of
//! `...` are checked by [`crate::lower`].

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};
use syn::parse::{Parse, ParseStream, Parser};
use syn::spanned::Spanned;
use syn::{token, Error, Expr, LitInt, Result, Token};

/// A whole `t!` input as the facade passes it: `$crate; [try] [mut] tensor[items] [op value]`.
pub(crate) struct TInput {
    /// The facade's path (`$crate`): the tokens before the first `;`.
    pub krate: TokenStream,
    /// `try`: the `Result` form of the read or the write.
    pub try_: Option<Token![try]>,
    /// `mut`: a mutable view (never with an assignment).
    pub mut_: Option<Token![mut]>,
    /// The indexed tensor: the tokens before the last bracket group, as written (see
    /// [`TInput::parse`]).
    pub target: TokenStream,
    /// The brackets around the items; their span is the span of the emitted code.
    pub bracket: token::Bracket,
    /// The index items, in order.
    pub items: Vec<Item>,
    /// `= value`, or a compound `op= value`; the value's tokens as written.
    pub assign: Option<(AssignOp, TokenStream)>,
}

/// One index item.
pub(crate) struct Item {
    /// The span of its first token (of all its tokens where the compiler can join spans): the
    /// span of the emitted index op, of its errors and of the compiler's errors about it.
    pub span: Span,
    /// What the item is.
    pub kind: ItemKind,
}

/// The forms of an index item.
pub(crate) enum ItemKind {
    /// `..`: the whole dim.
    Full,
    /// `...`: the dims the other items leave.
    Rest,
    /// `None`: a new dim of size 1.
    NewAxis,
    /// A literal index: `3`, `-1`.
    At(Lit),
    /// `&expr`: an index tensor (the expression includes its `&`).
    IndexTensor(Box<Expr>),
    /// Any other expression: an integer index checked at run time.
    Expr(Box<Expr>),
    /// Any range but a bare `..`: `a..b`, `a..=b`, `a..`, `..b` (each bound a literal or an
    /// expression), with an optional `;step`.
    Range(Range),
}

/// A range item.
pub(crate) struct Range {
    /// The start; `None` for `..b`.
    pub start: Option<Bound>,
    /// The end as written (`b` of `a..=b` too); `None` for `a..`. Never `None` when inclusive.
    pub end: Option<Bound>,
    /// `..=`.
    pub inclusive: bool,
    /// The step after `;`.
    pub step: Option<Bound>,
}

/// A bound or a step of a range.
pub(crate) enum Bound {
    /// An integer literal, maybe negated: a const generic of the op.
    Lit(Lit),
    /// Anything else (parentheses around it dropped): a run-time value.
    Expr(Box<Expr>),
}

/// An integer literal, maybe negated (`-1`), with its value (not yet checked against `isize`).
pub(crate) struct Lit {
    /// The value, sign included.
    pub value: i128,
    /// The span of its tokens (of the first, `-` when negated, where the compiler cannot join
    /// spans).
    pub span: Span,
}

/// An assignment operator after the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AssignOp {
    /// `=`.
    Assign,
    /// `+=`.
    Add,
    /// `-=`.
    Sub,
    /// `*=`.
    Mul,
    /// `/=`.
    Div,
    /// `%=`.
    Rem,
}

impl Parse for TInput {
    /// The tensor and the assigned value are kept as the tokens the user wrote, not parsed: they
    /// are spliced into the expansion as they are (an expression re-printed by `syn` would
    /// differ in its punctuation's spacing and in tuple fields such as `a.0.1`), and the
    /// compiler's own errors for a malformed expression are better than ours.
    fn parse(input: ParseStream) -> Result<Self> {
        let krate: TokenStream = tokens_until(input, ';')?.into_iter().collect();
        if input.is_empty() {
            return Err(Error::new(Span::call_site(), "internal: missing crate path"));
        }
        input.parse::<Token![;]>()?;
        // `t!(try x[...])`: the `Result` form, for runtime indices that may be out of range.
        let try_ = keyword(input, "try")?.map(token::Try);
        // `t!(mut x[...])`: a mutable view.
        let mut_ = keyword(input, "mut")?.map(token::Mut);
        let rest: Vec<TokenTree> = input.parse::<TokenStream>()?.into_iter().collect();

        let (target, value) = match find_assign(&rest) {
            Some((i, end, op)) => {
                if end == rest.len() {
                    return Err(Error::new(rest[i].span(), "expected a value after the assignment operator"));
                }
                (&rest[..i], Some((op, &rest[end..])))
            }
            None => (&rest[..], None),
        };
        if mut_.is_some() && value.is_some() {
            return Err(Error::new(
                rest[0].span(),
                "`t!(mut x[...])` makes a mutable view; write `t!(x[...] = value)` to assign",
            ));
        }
        let Some((last, target)) = target.split_last() else {
            return Err(Error::new(Span::call_site(), "expected `t!(tensor[indices])`"));
        };
        let group = match last {
            TokenTree::Group(g) if g.delimiter() == Delimiter::Bracket => g,
            other => {
                return Err(Error::new(other.span(), "expected `[indices]` after the tensor: `t!(tensor[indices])`"))
            }
        };
        if target.is_empty() {
            return Err(Error::new(group.span(), "expected a tensor expression before `[...]`"));
        }
        Ok(TInput {
            krate,
            try_,
            mut_,
            target: target.iter().cloned().collect(),
            bracket: token::Bracket(group.delim_span()),
            items: parse_items.parse2(group.stream())?,
            assign: value.map(|(op, value)| (op, value.iter().cloned().collect())),
        })
    }
}

/// The items between the brackets: separated by top-level commas, a trailing one allowed.
fn parse_items(input: ParseStream) -> Result<Vec<Item>> {
    let mut items = Vec::new();
    while !input.is_empty() {
        items.push(input.parse()?);
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    Ok(items)
}

impl Parse for Item {
    /// The tokens up to the next top-level comma.
    fn parse(input: ParseStream) -> Result<Self> {
        let tokens = tokens_until(input, ',')?;
        let span = span_of(&tokens);
        let kind = item_kind(tokens, span)?;
        Ok(Item { span, kind })
    }
}

/// The form of the item made of `tokens` (spanning `span`).
fn item_kind(tokens: Vec<TokenTree>, span: Span) -> Result<ItemKind> {
    if tokens.is_empty() {
        return Err(Error::new(span, "empty index item"));
    }
    if tokens.len() == 3 && tokens.iter().all(|t| is_punct(t, '.')) {
        return Ok(ItemKind::Rest);
    }
    if let [TokenTree::Ident(i)] = tokens.as_slice() {
        if i == "None" {
            return Ok(ItemKind::NewAxis);
        }
    }
    let mut parts = split(tokens, ';');
    if parts.len() > 2 {
        return Err(Error::new(span, "at most one `;step` per index item"));
    }
    let step = match parts.len() {
        2 => match parse_bound(&parts.pop().unwrap())? {
            None => return Err(Error::new(span, "expected a step after `;`")),
            step => step,
        },
        _ => None,
    };
    let range = parts.pop().unwrap();
    // A top-level `..` or `..=`.
    let dots = (0..range.len().saturating_sub(1)).find(|&i| is_punct(&range[i], '.') && is_punct(&range[i + 1], '.'));
    let Some(i) = dots else {
        if step.is_some() {
            return Err(Error::new(span, "a step needs a range (`a..b;step`)"));
        }
        return Ok(match parse_bound(&range)? {
            // `x[;]`: nothing before the (ignored) trailing `;`.
            None => return Err(Error::new(span, "empty index item")),
            Some(Bound::Lit(lit)) => ItemKind::At(lit),
            // `&rows`: an index tensor (advanced indexing); other expressions are integers. The
            // `&` marks the tensor so that the op type is known before an integer's type is
            // inferred.
            Some(Bound::Expr(e)) if is_punct(&range[0], '&') => ItemKind::IndexTensor(e),
            Some(Bound::Expr(e)) => ItemKind::Expr(e),
        });
    };
    let inclusive = range.get(i + 2).is_some_and(|t| is_punct(t, '='));
    if range.get(i + 2).is_some_and(|t| is_punct(t, '.')) {
        return Err(Error::new(span, "`...` (ellipsis) cannot be combined with other tokens"));
    }
    let start = parse_bound(&range[..i])?;
    let end = parse_bound(&range[i + if inclusive { 3 } else { 2 }..])?;
    if inclusive && end.is_none() {
        return Err(Error::new(span, "`..=` needs an end"));
    }
    Ok(match (start, end, step) {
        (None, None, None) => ItemKind::Full,
        (start, end, step) => ItemKind::Range(Range { start, end, inclusive, step }),
    })
}

/// A bound or a step: `None` when there are no tokens.
fn parse_bound(tokens: &[TokenTree]) -> Result<Option<Bound>> {
    let value = match tokens {
        [] => return Ok(None),
        [lit] => int(lit),
        [minus, lit] if is_punct(minus, '-') => int(lit).map(|v| -v),
        _ => None,
    };
    if let Some(value) = value {
        return Ok(Some(Bound::Lit(Lit { value, span: span_of(tokens) })));
    }
    let expr = match tokens {
        // `(i - 1)..(i + 1)`: the parentheses only delimit the bound; dropping them keeps the
        // expansion free of `unused_parens` warnings in the user's code.
        [TokenTree::Group(g)] if g.delimiter() == Delimiter::Parenthesis => syn::parse2(g.stream())?,
        _ => syn::parse2(tokens.iter().cloned().collect())?,
    };
    Ok(Some(Bound::Expr(Box::new(expr))))
}

/// The value of an integer literal token (suffix ignored); `None` for other tokens and for
/// integers beyond `i128` (those are left to the compiler as expressions).
fn int(token: &TokenTree) -> Option<i128> {
    let TokenTree::Literal(lit) = token else { return None };
    syn::parse_str::<LitInt>(&lit.to_string()).ok()?.base10_parse().ok()
}

/// The first top-level assignment operator, `=` or a compound `+= -= *= /= %=` (not `==`, `<=`,
/// `>=`, `!=`, `=>`, `&=`, `<<=`, ...): the indices of its first token and of the token after it.
fn find_assign(tokens: &[TokenTree]) -> Option<(usize, usize, AssignOp)> {
    // The punctuation at `i` when it is joined to the next token.
    let joint = |i: Option<usize>| match i.and_then(|i| tokens.get(i)) {
        Some(TokenTree::Punct(p)) if p.spacing() == Spacing::Joint => Some(p),
        _ => None,
    };
    tokens.iter().enumerate().find_map(|(i, t)| {
        let TokenTree::Punct(eq) = t else { return None };
        // `=` joined to a following `=` or `>` is `==` or `=>`; joined to anything else
        // (`x[0]=-1`, `x[0]+=-1`, `x[0]=*p`) it is still the assignment.
        let joined_op = matches!(tokens.get(i + 1), Some(TokenTree::Punct(n)) if matches!(n.as_char(), '=' | '>'));
        if eq.as_char() != '=' || (eq.spacing() == Spacing::Joint && joined_op) {
            return None;
        }
        let Some(q) = joint(i.checked_sub(1)) else {
            return Some((i, i + 1, AssignOp::Assign));
        };
        let op = match q.as_char() {
            '+' => AssignOp::Add,
            '-' => AssignOp::Sub,
            '*' => AssignOp::Mul,
            '/' => AssignOp::Div,
            '%' => AssignOp::Rem,
            _ => return None,
        };
        // `x[i] += v`, not `+=` at the end of a longer operator.
        match joint(i.checked_sub(2)) {
            Some(_) => None,
            None => Some((i - 1, i + 1, op)),
        }
    })
}

/// Consumes the next token tree when it is the identifier `word`, returning its span.
fn keyword(input: ParseStream, word: &str) -> Result<Option<Span>> {
    input.step(|cursor| match cursor.token_tree() {
        Some((TokenTree::Ident(i), next)) if i == word => Ok((Some(i.span()), next)),
        _ => Ok((None, *cursor)),
    })
}

/// Consumes the token trees before the first top-level punctuation `c`, leaving that one. The
/// generic arguments of a turbofish (`Tensor::<i64, Shape![3]>::from(..)`, from `::<` to its
/// matching `>`) are not top level: their commas do not end an index item.
fn tokens_until(input: ParseStream, c: char) -> Result<Vec<TokenTree>> {
    input.step(|cursor| {
        let (mut tokens, mut rest) = (Vec::<TokenTree>::new(), *cursor);
        let mut depth = 0usize;
        while let Some((t, next)) = rest.token_tree() {
            if depth == 0 && is_punct(&t, c) {
                break;
            }
            let n = tokens.len();
            let after = |k: usize, ch: char| n >= k && is_punct(&tokens[n - k], ch);
            if is_punct(&t, '<') && (depth > 0 || (after(1, ':') && after(2, ':'))) {
                depth += 1;
            } else if is_punct(&t, '>') && depth > 0 && !after(1, '-') {
                depth -= 1;
            }
            tokens.push(t);
            rest = next;
        }
        Ok((tokens, rest))
    })
}

/// Splits at top-level punctuation `c`, dropping one trailing separator: `a..b;` is `a..b`.
fn split(tokens: Vec<TokenTree>, c: char) -> Vec<Vec<TokenTree>> {
    let mut out = vec![vec![]];
    for t in tokens {
        if is_punct(&t, c) {
            out.push(vec![]);
        } else {
            out.last_mut().unwrap().push(t);
        }
    }
    if out.len() > 1 && out.last().is_some_and(|v| v.is_empty()) {
        out.pop();
    }
    out
}

/// Whether `t` is the punctuation `c` (joint or not).
fn is_punct(t: &TokenTree, c: char) -> bool {
    matches!(t, TokenTree::Punct(p) if p.as_char() == c)
}

/// The span of `tokens`: the first token's (all of them where the compiler joins spans); the
/// call site when there are none.
fn span_of(tokens: &[TokenTree]) -> Span {
    match tokens {
        [] => Span::call_site(),
        _ => tokens.iter().cloned().collect::<TokenStream>().span(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    /// `s` as the facade passes it.
    fn input(s: &str) -> Result<TInput> {
        syn::parse_str(&format!("k; {s}"))
    }

    /// The items of `x[s]`, each shown as [`show`] does.
    fn items(s: &str) -> Vec<String> {
        input(&format!("x[{s}]")).unwrap_or_else(|e| panic!("x[{s}]: {e}")).items.iter().map(show).collect()
    }

    /// The single item `s`.
    fn item(s: &str) -> String {
        let mut items = items(s);
        assert_eq!(items.len(), 1, "{s}");
        items.remove(0)
    }

    /// The error message for `s`.
    fn error(s: &str) -> String {
        match input(s) {
            Ok(_) => panic!("`{s}` parsed"),
            Err(e) => e.to_string(),
        }
    }

    /// An item in a compact form: `Range({a}..=3;2)` (an expression in braces).
    fn show(item: &Item) -> String {
        match &item.kind {
            ItemKind::Full => "Full".into(),
            ItemKind::Rest => "Rest".into(),
            ItemKind::NewAxis => "NewAxis".into(),
            ItemKind::At(lit) => format!("At({})", lit.value),
            ItemKind::IndexTensor(e) => format!("IndexTensor({})", e.to_token_stream()),
            ItemKind::Expr(e) => format!("Expr({})", e.to_token_stream()),
            ItemKind::Range(r) => {
                let step = r.step.as_ref().map(|s| format!(";{}", show_bound(s))).unwrap_or_default();
                let dots = if r.inclusive { "..=" } else { ".." };
                let bound = |b: &Option<Bound>| b.as_ref().map(show_bound).unwrap_or_default();
                format!("Range({}{dots}{}{step})", bound(&r.start), bound(&r.end))
            }
        }
    }

    /// A literal as its value, an expression in braces.
    fn show_bound(b: &Bound) -> String {
        match b {
            Bound::Lit(lit) => lit.value.to_string(),
            Bound::Expr(e) => format!("{{{}}}", e.to_token_stream()),
        }
    }

    #[test]
    fn single_items() {
        assert_eq!(item(".."), "Full");
        assert_eq!(item("..."), "Rest");
        assert_eq!(item("None"), "NewAxis");
        assert_eq!(item("3"), "At(3)");
        assert_eq!(item("-1"), "At(-1)");
        assert_eq!(item("- 2"), "At(-2)");
        assert_eq!(item("3u8"), "At(3)");
        assert_eq!(item("0x10"), "At(16)");
        assert_eq!(item("1_000"), "At(1000)");
        assert_eq!(item("&rows"), "IndexTensor(& rows)");
        assert_eq!(item("&t!(y[0])"), "IndexTensor(& t ! (y [0]))");
        assert_eq!(item("i"), "Expr(i)");
        assert_eq!(item("i + 1"), "Expr(i + 1)");
        assert_eq!(item("-a"), "Expr(- a)");
        assert_eq!(item("f(a, b)"), "Expr(f (a , b))");
        // The commas of a turbofish's generic arguments do not split items.
        assert_eq!(
            items("&Tensor::<i64, Shape![3]>::from([0, 2, 1]), ..").len(),
            2,
            "a turbofish's commas split the item"
        );
        assert_eq!(item("f::<u8, Vec<(i8, i16)>>(a)"), "Expr(f :: < u8 , Vec < (i8 , i16) > > (a))");
        assert_eq!(item("g::<fn(u8) -> u8, 2>()"), "Expr(g :: < fn (u8) -> u8 , 2 > ())");
        // Comparisons outside a turbofish are not generics: `a < b` splits at its comma as before.
        assert_eq!(items("a < b, c > d").len(), 2);
        // Parentheses only delimit: `(&a)` is an integer expression, not an index tensor.
        assert_eq!(item("(i)"), "Expr(i)");
        assert_eq!(item("(&a)"), "Expr(& a)");
        assert_eq!(item("-(3)"), "Expr(- (3))");
        // Not integer literals: left to the compiler.
        assert_eq!(item("1.5"), "Expr(1.5)");
        assert_eq!(
            item("999999999999999999999999999999999999999999"),
            "Expr(999999999999999999999999999999999999999999)"
        );
    }

    #[test]
    fn ranges() {
        assert_eq!(item("1..3"), "Range(1..3)");
        assert_eq!(item("..3"), "Range(..3)");
        assert_eq!(item("1.."), "Range(1..)");
        assert_eq!(item("1..=2"), "Range(1..=2)");
        assert_eq!(item("..=-1"), "Range(..=-1)");
        assert_eq!(item("-2.."), "Range(-2..)");
        assert_eq!(item("-3..-1"), "Range(-3..-1)");
        assert_eq!(item("..;2"), "Range(..;2)");
        assert_eq!(item("..;1"), "Range(..;1)"); // `Full` only once lowered
        assert_eq!(item("1..4;-2"), "Range(1..4;-2)");
        assert_eq!(item("a..=b;k"), "Range({a}..={b};{k})");
        assert_eq!(item("i..i + 1"), "Range({i}..{i + 1})");
        assert_eq!(item("(i - 1)..(i + 1)"), "Range({i - 1}..{i + 1})");
        assert_eq!(item("..;(k)"), "Range(..;{k})");
        // The first top-level `..` splits; the rest is an expression.
        assert_eq!(item("a..b..c"), "Range({a}..{b .. c})");
        // A trailing `;` is dropped.
        assert_eq!(item("1..2;"), "Range(1..2)");
        assert_eq!(item("..;"), "Full");
    }

    #[test]
    fn item_lists() {
        assert_eq!(items(".., 1, 0..2"), ["Full", "At(1)", "Range(0..2)"]);
        assert_eq!(items("None, ..., -1"), ["NewAxis", "Rest", "At(-1)"]);
        assert_eq!(items("1,"), ["At(1)"]);
        assert_eq!(items(""), [""; 0]);
        // Commas and ranges inside groups do not split.
        assert_eq!(items("f(a, 0..2), [1, 2]"), ["Expr(f (a , 0 .. 2))", "Expr([1 , 2])"]);
        // The items of `...` and `..` need no spaces around commas.
        assert_eq!(items("...,..,1"), ["Rest", "Full", "At(1)"]);
    }

    #[test]
    fn forms() {
        let t = input("x[0]").unwrap();
        assert_eq!(t.krate.to_string(), "k");
        assert!(t.try_.is_none() && t.mut_.is_none() && t.assign.is_none());
        assert_eq!(t.target.to_string(), "x");
        let t = input("try mut a.b()[..]").unwrap();
        assert!(t.try_.is_some() && t.mut_.is_some());
        assert_eq!(t.target.to_string(), "a . b ()");
        let t = syn::parse_str::<TInput>(":: shaped; &mut y[..][0]").unwrap();
        assert_eq!(t.krate.to_string(), ":: shaped");
        assert_eq!(t.target.to_string(), "& mut y [..]");
        let assign = |s: &str| {
            let (op, value) = input(s).unwrap().assign.unwrap();
            (op, value.to_string())
        };
        assert_eq!(assign("x[0] = v"), (AssignOp::Assign, "v".into()));
        assert_eq!(assign("x[0]=1"), (AssignOp::Assign, "1".into()));
        assert_eq!(assign("x[0] += &y"), (AssignOp::Add, "& y".into()));
        assert_eq!(assign("x[0] -= -1"), (AssignOp::Sub, "- 1".into()));
        assert_eq!(assign("x[0] *= 2.0"), (AssignOp::Mul, "2.0".into()));
        assert_eq!(assign("x[0] /= 2"), (AssignOp::Div, "2".into()));
        assert_eq!(assign("x[0] %= 2"), (AssignOp::Rem, "2".into()));
        // The first top-level `=`: comparisons in the value are the value's.
        assert_eq!(assign("x[0] = a == b"), (AssignOp::Assign, "a == b".into()));
        assert_eq!(assign("x[i == j] = a <= b"), (AssignOp::Assign, "a <= b".into()));
        assert_eq!(assign("try x[..] %= v"), (AssignOp::Rem, "v".into()));
        // An `=` joined to the value's first token is still the assignment (it was "expected
        // `[indices]`" before 0.2).
        assert_eq!(assign("x[0]=-1"), (AssignOp::Assign, "- 1".into()));
        assert_eq!(assign("x[0] =-1"), (AssignOp::Assign, "- 1".into()));
        assert_eq!(assign("x[0]+=-1"), (AssignOp::Add, "- 1".into()));
        assert_eq!(assign("x[0]*=*p"), (AssignOp::Mul, "* p".into()));
        assert_eq!(assign("x[0]=&y"), (AssignOp::Assign, "& y".into()));
    }

    #[test]
    fn malformed_inputs() {
        let missing = syn::parse_str::<TInput>("x[0]").err().unwrap().to_string();
        assert_eq!(missing, "internal: missing crate path");
        assert_eq!(error(""), "expected `t!(tensor[indices])`");
        assert_eq!(error("= 1"), "expected `t!(tensor[indices])`");
        assert_eq!(error("x"), "expected `[indices]` after the tensor: `t!(tensor[indices])`");
        assert_eq!(error("x(0)"), "expected `[indices]` after the tensor: `t!(tensor[indices])`");
        // Not assignments: `<<=`, `==`, `=>`.
        assert_eq!(error("x[0] <<= 1"), "expected `[indices]` after the tensor: `t!(tensor[indices])`");
        assert_eq!(error("x[0] == 1"), "expected `[indices]` after the tensor: `t!(tensor[indices])`");
        assert_eq!(error("x[0] => 1"), "expected `[indices]` after the tensor: `t!(tensor[indices])`");
        assert_eq!(error("[0]"), "expected a tensor expression before `[...]`");
        assert_eq!(error("x[0] ="), "expected a value after the assignment operator");
        assert_eq!(error("x[0] +="), "expected a value after the assignment operator");
        let mut_assign = "`t!(mut x[...])` makes a mutable view; write `t!(x[...] = value)` to assign";
        assert_eq!(error("mut x[0] = 1"), mut_assign);
        assert_eq!(error("mut x[0] *= 2"), mut_assign);
        assert_eq!(error("x[,]"), "empty index item");
        assert_eq!(error("x[0,,]"), "empty index item");
        assert_eq!(error("x[0,,1]"), "empty index item");
        assert_eq!(error("x[;]"), "empty index item");
        assert_eq!(error("x[0, ;]"), "empty index item");
        assert_eq!(error("x[a;b;c]"), "at most one `;step` per index item");
        assert_eq!(error("x[1..2;;]"), "expected a step after `;`");
        assert_eq!(error("x[3;2]"), "a step needs a range (`a..b;step`)");
        assert_eq!(error("x[;2]"), "a step needs a range (`a..b;step`)");
        assert_eq!(error("x[None;2]"), "a step needs a range (`a..b;step`)");
        assert_eq!(error("x[1...]"), "`...` (ellipsis) cannot be combined with other tokens");
        assert_eq!(error("x[....]"), "`...` (ellipsis) cannot be combined with other tokens");
        assert_eq!(error("x[...;2]"), "`...` (ellipsis) cannot be combined with other tokens");
        assert_eq!(error("x[..=]"), "`..=` needs an end");
        assert_eq!(error("x[1..=;2]"), "`..=` needs an end");
        // A bound that is no expression: syn's message.
        assert_eq!(error("x[1 +]"), "unexpected end of input, expected an expression");
        assert_eq!(error("x[(a, b)]"), "unexpected token");
    }
}
