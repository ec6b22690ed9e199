//! The post-monomorphisation check of literal indices on dims beyond typenum's bridge: each op
//! described as data ([`OpDesc`]) and checked in a `const` evaluated at `cargo build`.
use super::spec::*;
use crate::error::ConstMsg;
use crate::shape::*;

// ------------------------------------------------------------------- build-time check (loose)
/// Whether a static size is inside typenum's `const-generics` bridge: `0..=1024`, 3600, `2^k` and
/// `2^k - 1` from 2047 up, and powers of ten from 10^4 (the sizes the [`Checked`](super::Checked) rules can
/// compare at `cargo check` time).
pub const fn in_bridge(n: usize) -> bool {
    if n <= 1024 || n == 3600 || n.is_power_of_two() {
        return true;
    }
    if let Some(m) = n.checked_add(1) {
        if m.is_power_of_two() {
            return true;
        }
    }
    let mut p: usize = 10_000;
    loop {
        if p == n {
            return true;
        }
        match p.checked_mul(10) {
            Some(q) => p = q,
            None => return false,
        }
    }
}

/// What a literal op of `t!` asks of the dim it consumes, for the build-time check of the
/// [`Loose`](super::Loose) rules: `kind` 0 nothing (or a run-time value), 1 index `< n`, 2 index `-lit` (`lit <=
/// n`), 3 range end `<= n`, 4 negative start `-lit` (`lit <= n`), 5 open start `<= n`; `consumes`
/// input dims.
#[derive(Clone, Copy, Debug)]
pub struct OpDesc {
    kind: u8,
    lit: usize,
    consumes: usize,
}
impl OpDesc {
    pub(crate) const fn new(kind: u8, lit: usize, consumes: usize) -> Self {
        OpDesc { kind, lit, consumes }
    }
    /// Whether the op fits a static dim of size `n`, or cannot be checked at compile time
    /// because both `n` and the literal are inside the bridge (the [`Checked`](super::Checked) rules' domain:
    /// such a dim here comes from generic code, which is checked at run time).
    const fn ok_on(&self, n: usize) -> bool {
        if self.kind == 0 || (in_bridge(n) && in_bridge(self.lit)) {
            return true;
        }
        match self.kind {
            1 => self.lit < n,
            3 | 5 => self.lit <= n,
            _ => self.lit <= n,
        }
    }
}
/// The [`OpDesc`] of an op type.
pub trait DescOp {
    /// The description.
    const DESC: OpDesc;
}
macro_rules! desc_op {
    ($([$($p:tt)*] $t:ty => $kind:expr, $lit:expr, $n:expr;)*) => {$(
        impl<$($p)*> DescOp for $t {
            const DESC: OpDesc = OpDesc::new($kind, $lit, $n);
        }
    )*};
}
desc_op! {
    [] Full => 0, 0, 1;
    [const I: usize] At<I> => 1, I, 1;
    [const K: usize] AtNeg<K> => 2, K, 1;
    [] AtDyn => 0, 0, 1;
    [const S: usize, const E: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool]
        Range<S, E, STEP, LEN, REV, ONE> => 3, E, 1;
    [const S: usize, const STEP: usize, const REV: bool] RangeFrom<S, STEP, REV> => 5, S, 1;
    [const KS: usize, const KE: usize, const STEP: usize, const LEN: usize, const REV: bool, const ONE: bool]
        RangeNeg<KS, KE, STEP, LEN, REV, ONE> => 4, KS, 1;
    [] RangeDyn => 0, 0, 1;
    [] NewAxis => 0, 0, 0;
}
/// The most ops a `t!` spec may hold on one side of `...` for the build-time check.
const MAX_OPS: usize = 16;
/// The [`OpDesc`]s of a list of ops, in order.
pub trait DescList {
    /// How many ops.
    const LEN: usize;
    /// Their descriptions (`LEN` of them first).
    const DESCS: [OpDesc; MAX_OPS];
}
impl DescList for Nil {
    const LEN: usize = 0;
    const DESCS: [OpDesc; MAX_OPS] = [OpDesc::new(0, 0, 0); MAX_OPS];
}
impl<O: DescOp, R: DescList> DescList for Cons<O, R> {
    const LEN: usize = 1 + R::LEN;
    const DESCS: [OpDesc; MAX_OPS] = {
        let mut out = [OpDesc::new(0, 0, 0); MAX_OPS];
        out[0] = O::DESC;
        let mut i = 0;
        while i + 1 < MAX_OPS {
            out[i + 1] = R::DESCS[i];
            i += 1;
        }
        out
    };
}
/// The first literal of a spec that does not fit the static dim it consumes, where the
/// [`Checked`](super::Checked) rules could not have checked it (see [`OpDesc`]): the op, the
/// dim's position and its size.
const fn loose_fail(
    stat: &[Option<usize>; MAX_RANK],
    rank: Option<usize>,
    pre: &[OpDesc; MAX_OPS],
    npre: usize,
    post: &[OpDesc; MAX_OPS],
    npost: usize,
) -> Option<(OpDesc, usize, usize)> {
    let Some(rank) = rank else {
        return None;
    };
    let mut pos = 0;
    let mut i = 0;
    while i < npre && i < MAX_OPS {
        let d = pre[i];
        if d.consumes == 1 && pos < rank {
            if let Some(n) = stat[pos] {
                if !d.ok_on(n) {
                    return Some((d, pos, n));
                }
            }
        }
        pos += d.consumes;
        i += 1;
    }
    let mut back = rank;
    let mut j = 0;
    while j < npost && j < MAX_OPS {
        let d = post[j];
        if d.consumes > back {
            return None; // too many indices: a compile error elsewhere
        }
        back -= d.consumes;
        if d.consumes == 1 {
            if let Some(n) = stat[back] {
                if !d.ok_on(n) {
                    return Some((d, back, n));
                }
            }
        }
        j += 1;
    }
    None
}

/// The build-time error of a literal `d` on dim `axis` of size `n`, with the numbers first.
const fn loose_message(d: OpDesc, axis: usize, n: usize) -> ConstMsg {
    let m = ConstMsg::new().str("t!: ");
    let m = match d.kind {
        1 => m.str("index ").num(d.lit),
        2 => m.str("index -").num(d.lit),
        3 => m.str("range end ").num(d.lit),
        4 => m.str("range start -").num(d.lit),
        _ => m.str("range start ").num(d.lit),
    };
    m.str(" is out of bounds for dimension ").num(axis).str(" of size ").num(n)
}

/// The build-time check of the [`Loose`](super::Loose) rules: every literal index and bound on a static dim
/// outside typenum's bridge is in range (evaluated when the program is built, so `cargo build`
/// rejects `t!(x[5000])` on `Shape![3000]`; `cargo check` does not see it). Inside the bridge,
/// concrete code takes the [`Checked`](super::Checked) rules and generic code checks at run time.
pub trait LooseCheck {
    /// Evaluating it fails the build when a literal is out of bounds.
    const OK: ();
}
impl<S: Shape, Pre: DescList, Post: DescList> LooseCheck for (S, Pre, Post) {
    const OK: () =
        if let Some((d, axis, n)) = loose_fail(&S::STATIC, S::RANK, &Pre::DESCS, Pre::LEN, &Post::DESCS, Post::LEN) {
            loose_message(d, axis, n).fail()
        };
}
