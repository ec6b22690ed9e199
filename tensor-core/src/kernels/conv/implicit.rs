//! Large images without im2col: each image copied once into zero-bordered planes, one
//! accumulated product per window offset reading them in place ([`conv2d_implicit`]); with a
//! stride, the planes split by phase so that every offset still reads a plain matrix.

use super::{copy_into_padded, copy_short, sized, Geom, Operands, Scratch};
use crate::error::ShapeError;
use crate::layout::Layout;
use crate::memory::try_vec;
use crate::num::{Gemm, GemmMode, Num};

/// Output elements of one tile of [`conv2d_implicit`] (`og` channels by whole padded rows):
/// 2^16, 256 KiB of f32, which with the input rows it reads stays in a 2 MiB L2. Measured on the
/// large 3x3 layer (`[8, 64, 56, 56]`, 64 outputs, one thread, products alone): tiles of 8 to 16
/// rows within 2% of each other, 2 rows 8% slower.
const IMPLICIT_TILE: usize = 1 << 16;

/// The weights `[o, c / groups, kh, kw]` regrouped by window offset: `[kh * kw, o, c / groups]`,
/// so that offset `t`'s `[o / groups, c / groups]` block of group `gi` is a plain row-major matrix.
pub(super) fn by_offset<T: Num>(conv: Operands<'_, T>) -> Result<alloc::vec::Vec<T>, ShapeError> {
    let Operands { wt, g, o, groups, .. } = conv;
    let (cg, taps) = (g.c / groups, g.kh * g.kw);
    let mut out = try_vec(wt.len(), T::ZERO)?;
    for (oc, filters) in wt.chunks_exact((cg * taps).max(1)).enumerate().take(o) {
        for (ci, window) in filters.chunks_exact(taps.max(1)).enumerate() {
            for (t, &v) in window.iter().enumerate() {
                out[(t * o + oc) * cg + ci] = v;
            }
        }
    }
    Ok(out)
}

/// The phase planes of one image for [`conv2d_implicit`]: the zero-bordered plane (`hp x wp`,
/// the padding added) of each channel split by stride `[s0, s1]` into `s0 * s1` planes of
/// `hq x wq` (`hq = ceil(hp / s0)`, `wq = ceil(wp / s1)`), phase `(a, b)` holding the padded
/// positions `(s0 y + a, s1 x + b)` at `(y, x)`. With stride 1 it is the padded plane itself.
#[derive(Clone, Copy)]
struct Phases {
    s: [usize; 2],
    hq: usize,
    wq: usize,
}

impl Phases {
    fn of(g: &Geom) -> Self {
        let (hp, wp) = (g.h + 2 * g.pad[0], g.w + 2 * g.pad[1]);
        Phases { s: g.stride, hq: hp.div_ceil(g.stride[0]), wq: wp.div_ceil(g.stride[1]) }
    }
    /// Elements of one phase plane.
    fn plane(self) -> usize {
        self.hq * self.wq
    }
    /// Elements of one channel's phase planes.
    fn channel(self) -> usize {
        self.s[0] * self.s[1] * self.plane()
    }
    /// Where padded position `(r, q)` of a channel's planes lies among them.
    fn at(self, r: usize, q: usize) -> usize {
        ((r % self.s[0]) * self.s[1] + q % self.s[1]) * self.plane() + (r / self.s[0]) * self.wq + q / self.s[1]
    }
}

/// The plane `src` (rows of `w`) of one channel into its phase planes `dst` (`p.channel()`
/// elements) at padding `[ph, pw]`; the border is left as it is (zeros).
fn copy_into_phases<T: Copy>(p: Phases, dst: &mut [T], src: &[T], w: usize, [ph, pw]: [usize; 2]) {
    if p.s == [1, 1] {
        return copy_into_padded(dst, src, w, p.wq, [ph, pw]);
    }
    let (s1, plane) = (p.s[1], p.plane());
    // The first input column of phase 0, `(x0 + pw) % s1 == 0`: from there each group of `s1`
    // inputs lands at one column of phases `0..s1`, `plane` apart (`Phases::at`). A loop per
    // phase over `step_by(s1)` took 10% of a stride-2 layer (`[8, 64, 56, 56]` to 128).
    let x0 = ((s1 - pw % s1) % s1).min(w);
    for (r, row) in src.chunks_exact(w.max(1)).enumerate() {
        let (head, body) = row.split_at(x0);
        for (x, &v) in head.iter().enumerate() {
            dst[p.at(r + ph, x + pw)] = v;
        }
        let (groups, first) = (body.len() / s1, p.at(r + ph, x0 + pw));
        match s1 {
            1 => dst[first..first + groups].copy_from_slice(body),
            2 => {
                let (d0, d1) = dst[first..].split_at_mut(plane);
                let (d0, d1) = (&mut d0[..groups], &mut d1[..groups]);
                // Eight groups at a time through fixed-size arrays (vector shuffles), then the rest.
                let mut k = 0;
                for ((a, b), c) in d0.chunks_exact_mut(8).zip(d1.chunks_exact_mut(8)).zip(body.chunks_exact(16)) {
                    let c: &[T; 16] = c.try_into().expect("16 elements");
                    *<&mut [T; 8]>::try_from(a).expect("8 elements") = core::array::from_fn(|i| c[2 * i]);
                    *<&mut [T; 8]>::try_from(b).expect("8 elements") = core::array::from_fn(|i| c[2 * i + 1]);
                    k += 8;
                }
                for k in k..groups {
                    (d0[k], d1[k]) = (body[2 * k], body[2 * k + 1]);
                }
            }
            _ => {
                for (k, c) in body.chunks_exact(s1).enumerate() {
                    for (b, &v) in c.iter().enumerate() {
                        dst[first + b * plane + k] = v;
                    }
                }
            }
        }
        let done = x0 + groups * s1;
        for (x, &v) in row[done..].iter().enumerate() {
            dst[p.at(r + ph, done + x + pw)] = v;
        }
    }
}

/// One image of [`conv2d`](super::conv2d) with large planes and a product that writes strided
/// blocks (faer's f32 and f64), without im2col. The image is copied once into zero-bordered
/// planes of `hp x wp` (`xb`), split by the stride into phase planes ([`Phases`]; with stride 1
/// the padded planes themselves). Window offset `(i, j)` at stride `s` reads padded position
/// `(s0 y + i dh, s1 x + j dw)`, which is phase `(i dh % s0, j dw % s1)` at
/// `(y + i dh / s0, x + j dw / s1)`: for each offset the input channels are a `[cg, n]` matrix
/// read in place (`n` over whole phase rows of `wq`), and the output tile `[og, n]` is the sum of
/// the `kh * kw` products `taps[offset] @ that` (faer accumulating), whose first `ow` columns of
/// each row are then copied out. The products run on `wq / ow` times the output's columns (58 /
/// 56 for a 56x56 plane with padding 1; 29 / 28 at stride 2) and read each input element where
/// im2col wrote it `kh * kw / (s0 s1)` times. The large 3x3 layer (`[8, 64, 56, 56]` by
/// `[64, 64, 3, 3]`, runs alternated with the im2col tiles in one session): 16.5-16.6 -> 15.1-15.3
/// ms on one thread, 8.8-9.2 -> 8.35-8.41 ms on two. faer packs each offset's strided input (12%
/// of the layer) and its kernels run near the machine's peak, so what is left against PyTorch's
/// direct kernels is that packing, the wider rows and the copy out.
pub(super) fn conv2d_implicit<T: Gemm>(
    conv: Operands<'_, T>,
    taps: &[T],
    img: usize,
    dst: &mut [T],
    scratch: &mut Scratch<T>,
) -> Result<(), ShapeError> {
    let Operands { x, bias, g, o, groups, .. } = conv;
    let (cg, og) = (g.c / groups, o / groups);
    let (hw, ohw) = (g.h * g.w, g.oh * g.ow);
    let p = Phases::of(g);
    let (wq, chan) = (p.wq, p.channel());
    let rows = (IMPLICIT_TILE / og.max(1).saturating_mul(wq).max(1)).clamp(1, g.oh);
    let Scratch { tmp, xb, threads, .. } = scratch;
    if xb.len() != g.c * chan {
        sized(xb, g.c * chan)?;
        xb.fill(T::ZERO);
    }
    sized(tmp, og * rows * wq)?;
    for (ci, src) in x[img * g.c * hw..][..g.c * hw].chunks_exact(hw.max(1)).enumerate() {
        copy_into_phases(p, &mut xb[ci * chan..(ci + 1) * chan], src, g.w, g.pad);
    }
    for gi in 0..groups {
        for y0 in (0..g.oh).step_by(rows) {
            let nr = rows.min(g.oh - y0);
            // Phase positions `y0 * wq ..` of the last row's `ow` outputs. With `r = i dh`, the
            // output size gives `s0 (oh - 1) + r <= hp - 1`, so the row read,
            // `oh - 1 + r / s0`, is at most `(hp - 1 - r % s0) / s0 <= hq - 1`; likewise the
            // column `ow - 1 + q / s1 <= wq - 1`: every element read lies in its phase plane.
            let n = (nr - 1) * wq + g.ow;
            let lt = Layout::from_parts(&[og, n], &[(rows * wq) as isize, 1], 0)?;
            for t in 0..g.kh * g.kw {
                let (r, q) = ((t / g.kw) * g.dil[0], (t % g.kw) * g.dil[1]);
                let la = Layout::from_parts(&[og, cg], &[cg as isize, 1], (t * o + gi * og) * cg)?;
                let off = gi * cg * chan + p.at(r, q) + y0 * wq;
                let lb = Layout::from_parts(&[cg, n], &[chan as isize, 1], off)?;
                crate::kernels::gemm_into(taps, &la, xb, &lb, tmp, &lt, GemmMode { add: t > 0, threads: *threads })?;
            }
            // The bias added on the way out (a pass of its own over the output was 3% of the
            // large 3x3 layer).
            for (oi, trow) in tmp.chunks_exact(rows * wq).enumerate() {
                let oc = gi * og + oi;
                let bk = bias.map_or(T::ZERO, |b| b[oc]);
                let ooff = oc * ohw + y0 * g.ow;
                for (y, d) in dst[ooff..ooff + nr * g.ow].chunks_exact_mut(g.ow).enumerate() {
                    let src = &trow[y * wq..y * wq + g.ow];
                    if bias.is_some() {
                        for (d, &v) in d.iter_mut().zip(src) {
                            *d = T::add(v, bk);
                        }
                    } else {
                        copy_short(d, src);
                    }
                }
            }
        }
    }
    Ok(())
}
