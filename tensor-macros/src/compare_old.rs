//! TEMPORARY: the expansion of every `t!` input of the repository (and of malformed ones) by the
//! old single-file implementation and by parse -> lower -> emit, compared token by token with
//! their spans (proc-macro2's `span-locations`).

use proc_macro2::{TokenStream, TokenTree};

/// Every token with its span; groups recursively. A span outside the input (the call site, and
/// literals that `quote!` parses, each from a source of its own outside the compiler) is `X`.
fn dump(ts: TokenStream, out: &mut String) {
    let input = INPUT.with(|r| r.get());
    let sp = |s: proc_macro2::Span| {
        let r = s.byte_range();
        if r.start >= input.0 && r.end <= input.1 && r.end > r.start {
            format!("{r:?}")
        } else {
            "X".to_string()
        }
    };
    for t in ts {
        match t {
            TokenTree::Group(g) => {
                out.push_str(&format!("G{:?}@{}[", g.delimiter(), sp(g.span())));
                dump(g.stream(), out);
                out.push_str("] ");
            }
            TokenTree::Ident(i) => out.push_str(&format!("{}@{} ", i, sp(i.span()))),
            TokenTree::Punct(p) => out.push_str(&format!("{}{:?}@{} ", p.as_char(), p.spacing(), sp(p.span()))),
            TokenTree::Literal(l) => out.push_str(&format!("{}@{} ", l, sp(l.span()))),
        }
    }
}

fn render(r: std::thread::Result<syn::Result<TokenStream>>) -> (String, String) {
    match r {
        Err(_) => ("PANIC".into(), "PANIC".into()),
        Ok(Ok(ts)) => {
            let mut d = String::new();
            dump(ts.clone(), &mut d);
            (format!("OK {ts}"), d)
        }
        Ok(Err(e)) => {
            let ts = e.to_compile_error();
            let mut d = String::new();
            dump(ts, &mut d);
            (format!("ERR {e}"), d)
        }
    }
}

thread_local! {
    static INPUT: std::cell::Cell<(usize, usize)> = const { std::cell::Cell::new((0, 0)) };
}

const EXTRA: &[&str] = &[
    "",
    "x",
    "[0]",
    "x[0] =",
    "x[0] +=",
    "= 1",
    "mut x[0] = 1",
    "mut x[0] += 1",
    "x[,]",
    "x[0,,]",
    "x[0,,1]",
    "x[a;b;c]",
    "x[a;b c;d]",
    "x[1..2;]",
    "x[1..2;;]",
    "x[;]",
    "x[;2]",
    "x[3;2]",
    "x[0..4;0]",
    "x[..;0]",
    "x[..., 0, ...]",
    "x[...,...]",
    "x[3..1]",
    "x[-1..-3]",
    "x[5..=3]",
    "x[3..=2]",
    "x[....]",
    "x[1...]",
    "x[...;2]",
    "x[..=]",
    "x[1..=]",
    "x[99999999999999999999]",
    "x[-99999999999999999999]",
    "x[-9223372036854775808]",
    "x[-9223372036854775807]",
    "x[9223372036854775807]",
    "x[9223372036854775808]",
    "x[0..9223372036854775807]",
    "x[0..=9223372036854775807]",
    "x[..;99999999999999999999]",
    "x[..;-9223372036854775807]",
    "x[-9223372036854775807..]",
    "x[-9223372036854775807..;3]",
    "x[999999999999999999999999999999999999999999]",
    "x[1 +]",
    "x[(a, b)]",
    "x[(i - 1)..(i + 1)]",
    "x[&(a)]",
    "x[(&a)]",
    "x[&&a]",
    "x[&3]",
    "x[- 3]",
    "x[-(3)]",
    "x[0x10]",
    "x[0b11..0o7]",
    "x[1_000]",
    "x[3u8]",
    "x[-3i64..]",
    "x[1.5]",
    "x['a']",
    "x[a..b..c]",
    "x[..-1]",
    "x[0..-1]",
    "x[-3..2]",
    "x[-3..=-1]",
    "x[-3..=-2]",
    "x[..=-1]",
    "x[2..=-1]",
    "x[..=-2]",
    "x[-2..;-1]",
    "x[1..5;-2]",
    "x[..;-1]",
    "x[..;1]",
    "x[..;2]",
    "x[0..;1]",
    "x[0..;-3]",
    "x[3..;2]",
    "x[..3;2]",
    "x[..;k]",
    "x[a..;k]",
    "x[a..=b;2]",
    "x[..=b]",
    "x[i..]",
    "x[..n]",
    "x[i..i+1]",
    "x[None, ..., None]",
    "x[None..]",
    "x[1,]",
    "x[]",
    "try mut x[0]",
    "mut try x[0]",
    "try x[0]",
    "mut x[0]",
    "x[0] == 1",
    "x[0] <<= 1",
    "x[0] >>= 1",
    "x[0] <= 1",
    "x[0]=-1",
    "x[0] =-1",
    "x[0]=1",
    "x[0] = a == b",
    "x[0] -= -1",
    "x[0] %= 2",
    "x[0] /= 2",
    "x[0] *= 2",
    "x[0] &= 2",
    "x[0] ^= 2",
    "x[0] += 2",
    "x[0]+=2",
    "x[0] += a += b",
    "try x[0] = 1",
    "try x[0] -= 1",
    "try x[..] %= &y",
    "(a.b)[0]",
    "a.0.1[0]",
    "f(x)[0]",
    "x[0][1]",
    "&mut x[0]",
    "x[0] = 1 2",
    "x y[0]",
    "x[0] => 1",
    "x.y[1..;-1, ..]",
    "x[i, ..;s, 2..;-2, 1..7;-3, -1..;2]",
    "x[2..7;2, 1..2, 0..0, 5..5;3]",
    "x[a..=-1]",
    "x[a..=3]",
    "x[..=b;-1]",
    "x[0..b;c]",
    "x[-1..b]",
    "x[..;(k)]",
    "x[(2)]",
    "x[((2))]",
    "x[{ 2 }]",
    "x[..., None]",
    "x[..., 0, 1..2, &idx]",
    "x[.., ..]",
    "x[. .]",
    "x[. . .]",
    "x[None; 2]",
    "x[None..;2]",
    "x[0..1;2;]",
    "x[0.. ;2]",
    "x[r;2]",
    "x[::a::B]",
    "x[-a]",
    "x[-a..-b]",
    "x[a as usize]",
    "x[if c { 1 } else { 2 }]",
    "x[|| 1]",
    "x[0, ;]",
    "try",
    "mut",
    "try x",
    "x[0] = ",
];

#[test]
fn old_and_new_expand_alike() {
    std::panic::set_hook(Box::new(|_| {}));
    let corpus = include_str!("corpus.txt");
    let mut n = 0;
    let mut diffs = Vec::new();
    let mut improved = Vec::new();
    for line in corpus.lines().filter(|l| !l.trim().is_empty()).chain(EXTRA.iter().copied()) {
        let Ok(input) = format!("::shaped; {line}").parse::<TokenStream>() else {
            diffs.push(format!("{line}: does not tokenize"));
            continue;
        };
        n += 1;
        let range = |t: TokenTree| t.span().byte_range();
        let (lo, hi) = (input.clone().into_iter().next().map(range), input.clone().into_iter().last().map(range));
        INPUT.with(|r| r.set((lo.unwrap().start, hi.unwrap().end)));
        let (old_s, old_d) = render(std::panic::catch_unwind(|| crate::old::expand(input.clone())));
        let (new_s, new_d) = render(std::panic::catch_unwind(|| crate::expand(input.clone())));
        if line == "x[1..4;-2]" {
            eprintln!("sample: {line}: {new_d}");
        }
        // Improvements: the old code panicked on an item that is only `;`.
        if old_s == "PANIC" && new_s == "ERR empty index item" && line.contains(";]") {
            improved.push(line);
            continue;
        }
        if old_s != new_s {
            diffs.push(format!("{line}\n  old: {old_s}\n  new: {new_s}"));
        } else if old_d != new_d {
            diffs.push(format!("{line}: spans differ\n  old: {old_d}\n  new: {new_d}"));
        }
    }
    let _ = std::panic::take_hook();
    eprintln!("compared {n} inputs, {} differ, improved: {improved:?}", diffs.len());
    for d in &diffs {
        eprintln!("{d}\n");
    }
    assert!(diffs.is_empty());
}

#[test]
fn print_goldens() {
    for s in GOLDEN {
        let ts = crate::old::expand(format!("::shaped; {s}").parse().unwrap()).unwrap();
        println!("GOLDEN {s}\n{ts}");
    }
}

const GOLDEN: &[&str] = &[
    "x[.., 1, 0..2]",
    "x[None, ..., -1..;2]",
    "try x[i, a..=b;k, &rows]",
    "mut x[1..=-1;-1, -3..-1]",
    "x[.., 0] += v",
    "try x[..] = 1.0",
    "try x[&mask] *= 2",
    "try mut x[...]",
];
