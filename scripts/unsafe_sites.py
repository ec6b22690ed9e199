#!/usr/bin/env python3
"""The inventory check of the crate's `unsafe` code: every `unsafe` site in the library crates'
sources against the table of src/guide/safety.md, so that the page's count cannot go stale.

Usage:
    python3 scripts/unsafe_sites.py              # check: exit 1 on any mismatch
    python3 scripts/unsafe_sites.py --list       # print every site found (file:line kind item)
    python3 scripts/unsafe_sites.py --self-test  # the lexer and the classifier on tricky snippets

What is scanned: the `.rs` files under tensor-core/src, tensor-macros/src and src (the library
crates; tests/, benches/, examples/ and the ui-tests crates are not library code), with comments,
doc comments, string, byte, C-string and raw-string literals and char literals blanked first
(lines and columns kept), so `unsafe` in prose or in a literal is never a site. Unit tests inside
those files (`#[cfg(test)]`) are library sources and count.

What is a site, each with its kind:
    block      `unsafe { ... }` (once per occurrence in the source: a block in a macro body
               counts once, however many times the macro expands)
    fn         `unsafe fn NAME` (also `unsafe extern "C" fn NAME`); a function pointer type
               (`unsafe fn(..)`) is no site: calling through it takes an `unsafe` block
    impl       `unsafe impl ...`
    trait      `unsafe trait NAME`
    extern     `unsafe extern "C" { ... }`, and a bare `extern "C" { ... }` block (edition 2021
               spelling of the same thing)
    attribute  `#[unsafe(...)]` (also inside `cfg_attr`), and the bare `#[no_mangle]`,
               `#[export_name = ..]` and `#[link_section = ..]` of edition 2021
An `unsafe` followed by anything else is reported as an error rather than skipped.

Each site is named by its file and the item it is in, as a path of the named scopes around it:
inline modules, `impl` blocks (by their self type), traits, functions, `macro_rules!` (as
`name!`; a function named by a metavariable, `fn $name`, adds nothing) and const/static items;
an `unsafe fn`, `impl`, `trait` or attributed item adds its own name. For example
`f64k::erf_map`, `tail32::x86::Avx512::load`, `f64k::dispatch!`. Line numbers drift with every edit above a site,
so they are reported but never compared.

The table: the Markdown table in src/guide/safety.md whose header starts `| file | item | kind |`,
one row per site, the file and item in backticks, then the invariant the site relies on with
where it is checked, then the suites that reach it; the last two must not be empty. The check
compares the count of sites per (file, item, kind) in the code with the count of rows, and
fails listing each site missing from the table and each row without a site. The page must also
say how many sites there are, as "N `unsafe` sites" exactly once, with N the number of rows.

Also checked: every `unsafe` block and `unsafe impl` has a `// SAFETY:` comment in the comment
lines just above the line it starts on (attribute lines may sit between) or on its own first
line, and every `unsafe fn` a `# Safety` section in its doc comment (except a method of a trait
impl, whose contract is the trait's).
"""
import bisect
import os
import re
import sys
from collections import defaultdict

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SOURCE_DIRS = ["tensor-core/src", "tensor-macros/src", "src"]
PAGE = "src/guide/safety.md"
COUNT_RE = re.compile(r"\b(\d+) `unsafe` sites\b")
HEADER = ["file", "item", "kind"]
KINDS = ["block", "fn", "impl", "trait", "extern", "attribute"]


# ------------------------------------------------------------------------------------------
# Lexing: comments and literals blanked, the comments kept aside.
# ------------------------------------------------------------------------------------------

CHAR_RE = re.compile(r"'(\\u\{[0-9a-fA-F]{1,6}\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'\n])'")
RAW_RE = re.compile(r"(?:b|c)?r(#*)\"")


def blank(text):
    """`text` with every non-newline character turned into a space (lines and columns kept)."""
    return re.sub(r"[^\n]", " ", text)


def strip(text):
    """(code, comments): `text` with comments, doc comments and literals blanked, and the list of
    comments as (line index from 0, text of the comment, whether code precedes it on its line).
    """
    out, comments = [], []
    i, n = 0, len(text)
    line = 0

    def ident_before(k):
        return k > 0 and (text[k - 1].isalnum() or text[k - 1] == "_")

    while i < n:
        c = text[i]
        if c == "\n":
            out.append(c)
            line += 1
            i += 1
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            start = text.rfind("\n", 0, i) + 1
            comments.append((line, text[i:j], text[start:i].strip() != ""))
            out.append(blank(text[i:j]))
            i = j
            continue
        if text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            start = text.rfind("\n", 0, i) + 1
            comments.append((line, text[i:j], text[start:i].strip() != ""))
            out.append(blank(text[i:j]))
            line += text.count("\n", i, j)
            i = j
            continue
        if c in "bcr" and not ident_before(i):
            m = RAW_RE.match(text, i)
            if m:
                end = '"' + m.group(1)
                j = text.find(end, m.end())
                j = n if j < 0 else j + len(end)
                out.append(blank(text[i:j]))
                line += text.count("\n", i, j)
                i = j
                continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(blank(text[i:j]))
            line += text.count("\n", i, j)
            i = j
            continue
        if c == "'":
            # A char literal ('a', '\n', '\u{..}', '"'), not a lifetime or label ('a, 'done:).
            m = CHAR_RE.match(text, i)
            if m:
                out.append(blank(m.group(0)))
                i = m.end()
                continue
        out.append(c)
        i += 1
    return "".join(out), comments


TOKEN_RE = re.compile(
    r"r#[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*|\$[A-Za-z_][A-Za-z0-9_]*|'[A-Za-z_][A-Za-z0-9_]*"
    r"|\d[A-Za-z0-9_.]*|::|->|=>|\S"
)


def tokens(code):
    """(text, line index from 0) of every token of blanked code."""
    starts = [0] + [m.end() for m in re.finditer("\n", code)]
    return [(m.group(0), bisect.bisect_right(starts, m.start()) - 1) for m in TOKEN_RE.finditer(code)]


# ------------------------------------------------------------------------------------------
# Sites and the items around them.
# ------------------------------------------------------------------------------------------

IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
ITEM_START = {"{", "}", ";", "]", "pub", ")", "unsafe", "default"}


def is_ident(t):
    return bool(IDENT.match(t))


def impl_name(toks, i):
    """The self type of the `impl` header starting at token `i` (`impl<..> Trait for Type<..>`)
    and its trait (or None), and the index of the `{` or `;` that ends the header."""
    j, depth, header = i + 1, 0, []  # header: (token, depth of the brackets around it)
    while j < len(toks):
        t = toks[j][0]
        if depth == 0 and t in ("{", ";"):
            break
        if t in ")]>":
            depth -= 1
        header.append((t, depth))
        if t in "([<":
            depth += 1
        j += 1
    # Drop the impl's own generics: `<` ... the matching `>` right after `impl`.
    k = 0
    if header and header[0][0] == "<":
        while k < len(header) and not (k > 0 and header[k][0] == ">" and header[k][1] == 0):
            k += 1
        k += 1
    rest = header[k:]
    # `where` clause off.
    for w, (t, d) in enumerate(rest):
        if t == "where" and d == 0:
            rest = rest[:w]
            break

    def last_ident(part):
        names = []
        for t, d in part:
            if d == 0 and t == "<":
                break
            if d == 0 and is_ident(t) and t not in ("dyn", "mut", "const", "for", "impl"):
                names.append(t)
        return names[-1] if names else "?"

    fors = [w for w, (t, d) in enumerate(rest) if t == "for" and d == 0]
    if fors:
        return last_ident(rest[fors[0] + 1:]), last_ident(rest[:fors[0]]), j
    return last_ident(rest), None, j


def attributed_item(toks, i):
    """The name of the item that the attribute holding token `i` applies to ('?' if none)."""
    depth, j = 0, i
    while j < len(toks):  # to the `]` that closes the attribute
        t = toks[j][0]
        if t in "([":
            depth += 1
        elif t in ")]":
            depth -= 1
            if depth < 0:
                break
        j += 1
    j += 1
    while j < len(toks):
        t = toks[j][0]
        if t == "#":  # a further attribute: skip it
            depth, j = 0, j + 1
            while j < len(toks):
                if toks[j][0] == "[":
                    depth += 1
                elif toks[j][0] == "]":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            j += 1
            continue
        if t in ("fn", "static", "const", "struct", "enum", "union", "mod", "trait", "type"):
            k = j + 1
            while k < len(toks) and toks[k][0] == "mut":
                k += 1
            if k < len(toks) and is_ident(toks[k][0]):
                return toks[k][0]
        if t in ("{", ";", "}"):
            break
        j += 1
    return "?"


class Site:
    def __init__(self, path, line, kind, item, in_trait_impl=False):
        self.path, self.line, self.kind, self.item = path, line, kind, item
        # An `unsafe fn` implementing a trait's method: its contract is the trait's.
        self.in_trait_impl = in_trait_impl

    def key(self):
        return (self.path, self.item, self.kind)

    def __str__(self):
        return f"{self.path}:{self.line + 1}: {self.kind} in `{self.item or '(module)'}`"


def find_sites(path, text):
    """(sites, errors) of one file's text."""
    code, comments = strip(text)
    toks = tokens(code)
    sites, errors = [], []
    stack = []  # one entry per open `{`: (the scope's name or None, whether a trait impl)
    pending = None  # the name of the item whose `{` comes next
    pending_trait_impl = False
    nest = 0  # ( and [ depth since `pending` was set

    def scope_path(*extra):
        return "::".join([s for s, _ in stack if s] + [e for e in extra if e])

    def next_tok(k):
        return toks[k][0] if k < len(toks) else ""

    for i, (t, line) in enumerate(toks):
        prev = toks[i - 1][0] if i else "{"
        if t == "unsafe":
            nt = next_tok(i + 1)
            if nt == "{":
                sites.append(Site(path, line, "block", scope_path()))
            elif nt == "(":
                sites.append(Site(path, line, "attribute", scope_path(attributed_item(toks, i))))
            elif nt in ("fn", "extern", "impl", "trait", "auto"):
                k = i + 1
                if nt == "extern":
                    k += 1  # the ABI string is blanked
                    if next_tok(k) == "{":
                        sites.append(Site(path, line, "extern", scope_path("extern")))
                        continue
                if next_tok(k) == "auto":
                    k += 1
                what = next_tok(k)
                if what == "fn":
                    name = next_tok(k + 1)
                    if name == "(":
                        continue  # a function pointer type
                    in_impl = bool(stack) and stack[-1][1]
                    sites.append(Site(path, line, "fn", scope_path("" if name.startswith("$") else name), in_impl))
                elif what == "impl":
                    ty, tr, _ = impl_name(toks, k)
                    sites.append(Site(path, line, "impl", scope_path(f"impl {tr} for {ty}" if tr else f"impl {ty}")))
                elif what == "trait":
                    sites.append(Site(path, line, "trait", scope_path(next_tok(k + 1))))
                else:
                    errors.append(f"{path}:{line + 1}: `unsafe {nt} {what}`: not a kind of site this script knows")
            else:
                errors.append(f"{path}:{line + 1}: `unsafe` followed by `{nt}`: not a kind of site this script knows")
        elif t == "extern" and prev != "unsafe" and next_tok(i + 1) == "{":
            sites.append(Site(path, line, "extern", scope_path("extern")))
        elif t in ("no_mangle", "export_name", "link_section") and prev == "[" and i >= 2 and toks[i - 2][0] == "#":
            sites.append(Site(path, line, "attribute", scope_path(attributed_item(toks, i))))

        # Scopes.
        if t == "fn" and (is_ident(next_tok(i + 1)) or next_tok(i + 1).startswith("$")):
            name = next_tok(i + 1)
            pending, nest, pending_trait_impl = ("" if name.startswith("$") else name), 0, False
        elif t == "mod" and is_ident(next_tok(i + 1)) and prev in ITEM_START:
            pending, nest, pending_trait_impl = next_tok(i + 1), 0, False
        elif t == "trait" and is_ident(next_tok(i + 1)) and prev in ITEM_START | {"auto"}:
            pending, nest, pending_trait_impl = next_tok(i + 1), 0, False
        elif t == "impl" and prev in ITEM_START:
            ty, tr, _ = impl_name(toks, i)
            pending, nest, pending_trait_impl = ty, 0, tr is not None
        elif t == "macro_rules" and next_tok(i + 1) == "!" and is_ident(next_tok(i + 2)):
            pending, nest, pending_trait_impl = next_tok(i + 2) + "!", 0, False
        elif t in ("const", "static") and pending is None and prev in ITEM_START:
            k = i + 1
            while next_tok(k) == "mut":
                k += 1
            if is_ident(next_tok(k)) and next_tok(k + 1) == ":" and next_tok(k) != "_":
                pending, nest, pending_trait_impl = next_tok(k), 0, False
        if t in "([":
            nest += 1
        elif t in ")]":
            nest -= 1
        elif t == "{":
            if pending is not None and nest <= 0:
                stack.append((pending or None, pending_trait_impl))
                pending, pending_trait_impl = None, False
            else:
                stack.append((None, False))
        elif t == "}":
            if stack:
                stack.pop()
        elif t == ";" and nest <= 0:
            pending, pending_trait_impl = None, False
    return sites, errors, comments, code


def safety_comment_problems(site, code_lines, comment_lines):
    """Why `site` (a block or an impl) lacks its `// SAFETY:` comment, or None."""
    ln = site.line
    safety = re.compile(r"//\s*SAFETY:")

    def only_comment(k):
        here = comment_lines.get(k, [])
        return code_lines[k].strip() == "" and any(not after_code for _, after_code in here)

    # On the block's own first line: after the `unsafe`, or, when the line ends with the block's
    # `{`, the comment lines that open the block.
    if any(safety.match(text) for text, _ in comment_lines.get(ln, [])):
        return None
    if code_lines[ln].rstrip().endswith("{"):
        k = ln + 1
        while k < len(code_lines) and only_comment(k):
            if any(safety.match(text) for text, _ in comment_lines[k]):
                return None
            k += 1
    # The comment lines just above (attribute lines may sit between).
    k = ln - 1
    while k >= 0:
        here = comment_lines.get(k, [])
        attribute = code_lines[k].strip().startswith("#[")
        if only_comment(k):
            if any(safety.match(text) for text, _ in here):
                return None
            k -= 1
        elif attribute:
            k -= 1
        else:
            break
    what = "`unsafe` block" if site.kind == "block" else "`unsafe impl`"
    return f"{site.path}:{ln + 1}: {what} in `{site.item or '(module)'}` has no `// SAFETY:` comment just above it or on its first line"


def safety_doc_problems(site, code_lines, comment_lines):
    """Why the `unsafe fn` of `site` lacks a `# Safety` doc section, or None."""
    k = site.line - 1
    while k >= 0:
        here = comment_lines.get(k, [])
        if code_lines[k].strip() == "" and here:
            if any(re.match(r"///\s*#\s*Safety\b", text) for text, _ in here):
                return None
            k -= 1
        elif code_lines[k].strip().startswith("#"):
            k -= 1
        else:
            break
    return f"{site.path}:{site.line + 1}: `unsafe fn` `{site.item}` has no `# Safety` section in its doc comment"


def scan(root):
    """(sites, problems) over the library sources under `root`."""
    sites, problems = [], []
    for d in SOURCE_DIRS:
        base = os.path.join(root, d)
        if not os.path.isdir(base):
            problems.append(f"{d}: no such directory (the script's SOURCE_DIRS are out of date)")
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for f in sorted(filenames):
                if not f.endswith(".rs"):
                    continue
                full = os.path.join(dirpath, f)
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                with open(full, encoding="utf-8") as fh:
                    text = fh.read()
                found, errors, comments, code = find_sites(rel, text)
                problems.extend(errors)
                code_lines = code.split("\n")
                comment_lines = defaultdict(list)
                for line, ctext, after_code in comments:
                    comment_lines[line].append((ctext, after_code))
                for s in found:
                    if s.kind in ("block", "impl"):
                        p = safety_comment_problems(s, code_lines, comment_lines)
                        if p:
                            problems.append(p)
                    elif s.kind == "fn" and not s.in_trait_impl:
                        p = safety_doc_problems(s, code_lines, comment_lines)
                        if p:
                            problems.append(p)
                sites.extend(found)
    sites.sort(key=lambda s: (s.path, s.line))
    return sites, problems


# ------------------------------------------------------------------------------------------
# The table of the guide page.
# ------------------------------------------------------------------------------------------


def cells(row):
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|"):
        row = row[:-1]
    return [c.strip() for c in row.split("|")]


def unquote(cell):
    m = re.fullmatch(r"`([^`]*)`", cell)
    return m.group(1) if m else cell


def read_table(root):
    """(rows as (line from 0, file, item, kind), stated count or None, problems)."""
    path = os.path.join(root, PAGE)
    problems = []
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    heads = [k for k, l in enumerate(lines) if [c.lower() for c in cells(l)][:3] == HEADER and l.strip().startswith("|")]
    if len(heads) != 1:
        return [], None, [f"{PAGE}: expected one table whose header starts `| file | item | kind |`, found {len(heads)}"]
    h = heads[0]
    width = len(cells(lines[h]))
    rows = []
    k = h + 2
    while k < len(lines) and lines[k].strip().startswith("|"):
        c = cells(lines[k])
        if len(c) != width:
            problems.append(f"{PAGE}:{k + 1}: {len(c)} cells where the header has {width} (a `|` inside a cell?)")
        else:
            file, item, kind = unquote(c[0]), unquote(c[1]), c[2].strip("`")
            if kind not in KINDS:
                problems.append(f"{PAGE}:{k + 1}: kind `{kind}` is none of {', '.join(KINDS)}")
            if any(not x for x in c[3:]):
                problems.append(f"{PAGE}:{k + 1}: empty cell (every row names its invariant and the suites that reach it)")
            rows.append((k, file, "" if item == "(module)" else item, kind))
        k += 1
    text = "\n".join(lines)
    counts = COUNT_RE.findall(text)
    if len(counts) != 1:
        problems.append(f"{PAGE}: expected the sentence stating \"N `unsafe` sites\" once, found it {len(counts)} times")
        return rows, None, problems
    return rows, int(counts[0]), problems


def check(root):
    sites, problems = scan(root)
    rows, stated, table_problems = read_table(root)
    problems.extend(table_problems)

    by_key = defaultdict(list)
    for s in sites:
        by_key[s.key()].append(s)
    rows_by_key = defaultdict(list)
    for r in rows:
        rows_by_key[(r[1], r[2], r[3])].append(r)

    missing, extra = [], []
    for key in sorted(set(by_key) | set(rows_by_key)):
        found, listed = by_key.get(key, []), rows_by_key.get(key, [])
        if len(found) > len(listed):
            tail = f" ({len(found)} such sites in the code, {len(listed)} rows in the table)" if listed else ""
            for s in found:
                missing.append(f"  {s}{tail}")
        elif len(listed) > len(found):
            tail = f" ({len(listed)} rows, {len(found)} such sites in the code)" if found else ""
            for r in listed:
                extra.append(f"  {PAGE}:{r[0] + 1}: {r[3]} in `{r[2] or '(module)'}` of {r[1]}{tail}")
    if missing:
        problems.append(f"sites missing from the table of {PAGE} (add a row each):\n" + "\n".join(missing))
    if extra:
        problems.append(f"rows of the table of {PAGE} with no such site in the code (remove or rename them):\n" + "\n".join(extra))
    if stated is not None and stated != len(rows):
        problems.append(f"{PAGE}: the text says {stated} `unsafe` sites, the table has {len(rows)} rows")
    if stated is not None and stated != len(sites):
        problems.append(f"{PAGE}: the text says {stated} `unsafe` sites, the code has {len(sites)}")
    return sites, problems


# ------------------------------------------------------------------------------------------
# Self-test.
# ------------------------------------------------------------------------------------------

SELF_TEST = r'''
//! No `unsafe { }` here.
/* unsafe { /* nested unsafe fn */ } */
const S: &str = r#"unsafe { "quoted" } "#;
const B: &[u8] = br"unsafe {";
const Q: char = '"';
fn lifetimes<'a>(x: &'a str) -> &'a str { let _ = "unsafe {\" escaped"; x }
/// # Safety
/// None needed.
pub unsafe fn raw() {}
type P = unsafe fn(u8);
mod inner {
    struct T;
    impl<'a, U: Fn(usize) -> usize> core::fmt::Debug for T where U: Copy {
        fn fmt(&self) {
            // SAFETY: a test.
            let _ = unsafe { 1 };
            let _ = unsafe { 2 };
        }
    }
    // SAFETY: a test.
    unsafe impl Send for T {}
    macro_rules! m {
        ($e:expr) => {
            fn $name() {
                unsafe { $e } // SAFETY: on its line.
            }
        };
    }
    #[unsafe(no_mangle)]
    pub extern "C" fn exported() {}
    unsafe extern "C" {
        fn ffi();
    }
    fn labels() -> u8 {
        let q = b'"';
        'done: {
            break 'done;
        }
        unsafe {
            // SAFETY: the block's first line.
            q
        }
    }
    /** unsafe { } in a block doc comment */
    #[no_mangle]
    static X: u8 = 0;
    extern "C" {}
}
'''

SELF_TEST_WANT = [
    ("fn", "raw", 9),
    ("block", "inner::T::fmt", 16),
    ("block", "inner::T::fmt", 17),
    ("impl", "inner::impl Send for T", 21),
    ("block", "inner::m!", 25),
    ("attribute", "inner::exported", 29),
    ("extern", "inner::extern", 31),
    ("block", "inner::labels", 39),
    ("attribute", "inner::X", 45),
    ("extern", "inner::extern", 47),
]


def self_test():
    sites, errors, comments, code = find_sites("t.rs", SELF_TEST)
    got = [(s.kind, s.item, s.line) for s in sites]
    ok = got == SELF_TEST_WANT and not errors
    code_lines = code.split("\n")
    comment_lines = defaultdict(list)
    for line, ctext, after_code in comments:
        comment_lines[line].append((ctext, after_code))
    undocumented = [s.line for s in sites if s.kind in ("block", "impl") and safety_comment_problems(s, code_lines, comment_lines)]
    ok = ok and undocumented == [17]
    ok = ok and safety_doc_problems(sites[0], code_lines, comment_lines) is None
    if not ok:
        print("self-test FAILED")
        print("  got:   ", got, errors, "undocumented:", undocumented)
        print("  wanted:", SELF_TEST_WANT, "undocumented: [17]")
        return 1
    print(f"self-test passed ({len(got)} sites)")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    sites, problems = check(ROOT)
    if "--list" in argv:
        for s in sites:
            print(s)
    if problems:
        for p in problems:
            print(p, file=sys.stderr)
        print(f"unsafe_sites: FAILED: {len(sites)} unsafe sites found, {len(problems)} problem(s) above", file=sys.stderr)
        return 1
    print(f"{len(sites)} unsafe sites, all listed in {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
