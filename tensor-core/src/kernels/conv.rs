//! Convolution on contiguous NCHW buffers (pooling is `pool.rs`). A convolution is im2col (each image's
//! receptive fields copied to the columns of a `[C/G * KH * KW, OH * OW]` matrix, zeros for the
//! padding) followed by the crate's matrix product ([`gemm`](super::gemm): faer for f32/f64), one
//! product per block of images and group (small images are batched side by side into one
//! product), blocks on rayon's pool; a 1x1 convolution with stride 1 and no padding multiplies the
//! input in place; large images skip im2col (`implicit.rs`: one accumulated product per window
//! offset over zero-bordered planes, split by phase under a stride); small images take one product with an
//! unrolled weight, and depthwise convolutions a direct kernel.
//!
//! The front end (`ops::conv`) checks every size (channels, groups, output sizes, all with
//! overflow-checked arithmetic) and makes the operands contiguous before calling in; these
//! kernels index the buffers with the sizes it passes (slice indexing, so a wrong size panics
//! instead of reading outside a buffer).
use crate::error::ShapeError;
use crate::layout::Layout;
use crate::memory::try_vec;
use crate::num::{Gemm, Num};

use super::GemmMode;

mod implicit;
pub(crate) mod weight_grad;

/// The geometry of a 2-D sliding window, checked by the caller: `planes` images of `h x w`
/// (for a convolution `n` images of `c` channels), a `kh x kw` window with stride, padding and
/// dilation per spatial dim, and the output size `oh x ow` that
/// [`window_out`](crate::layout::window_out) gave.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geom {
    pub(crate) n: usize,
    pub(crate) c: usize,
    pub(crate) h: usize,
    pub(crate) w: usize,
    pub(crate) kh: usize,
    pub(crate) kw: usize,
    pub(crate) stride: [usize; 2],
    pub(crate) pad: [usize; 2],
    pub(crate) dil: [usize; 2],
    pub(crate) oh: usize,
    pub(crate) ow: usize,
}

/// The operands of a convolution (plain or transposed), checked by the caller: the input `x`,
/// the weights `wt`, an optional bias of one value per output channel, the geometry, `o` output
/// channels and `groups` channel groups; `x` and `wt` contiguous.
#[derive(Clone, Copy)]
pub(crate) struct Operands<'a, T> {
    pub(crate) x: &'a [T],
    pub(crate) wt: &'a [T],
    pub(crate) bias: Option<&'a [T]>,
    pub(crate) g: &'a Geom,
    pub(crate) o: usize,
    pub(crate) groups: usize,
}

impl Geom {
    /// The input rows `iy` that window row `i` of output row `y` reads (`None` in the padding).
    #[inline]
    pub(super) fn row(&self, y: usize, i: usize) -> Option<usize> {
        let py = y * self.stride[0] + i * self.dil[0];
        py.checked_sub(self.pad[0]).filter(|&iy| iy < self.h)
    }
    /// The output columns `x0..x1` whose window column `j` falls inside the input (the others
    /// read padding).
    #[inline]
    pub(super) fn cols(&self, j: usize) -> (usize, usize) {
        let (s, off, pw) = (self.stride[1], j * self.dil[1], self.pad[1]);
        let x0 = if pw > off { (pw - off).div_ceil(s) } else { 0 };
        let x1 = if pw + self.w > off { (pw + self.w - off).div_ceil(s) } else { 0 };
        let x1 = x1.min(self.ow);
        (x0.min(x1), x1)
    }
}

/// The im2col matrix of `cg` channels of one image (`x`: `cg * h * w` elements, row-major) for
/// the output rows `ys` into the columns `coff..coff + ys.len() * ow` of `col`, a row-major
/// `[cg * kh * kw, ld]` matrix: zeros where the window reads padding.
fn im2col<T: Num>(x: &[T], g: &Geom, cg: usize, col: &mut [T], ld: usize, coff: usize, ys: core::ops::Range<usize>) {
    let hw = g.h * g.w;
    let ohw = ys.len() * g.ow;
    for c in 0..cg {
        let plane = &x[c * hw..(c + 1) * hw];
        for i in 0..g.kh {
            for j in 0..g.kw {
                let r = (c * g.kh + i) * g.kw + j;
                let dst = &mut col[r * ld + coff..r * ld + coff + ohw];
                let (x0, x1) = g.cols(j);
                let off = j * g.dil[1];
                for (y, drow) in ys.clone().zip(dst.chunks_exact_mut(g.ow)) {
                    let Some(iy) = g.row(y, i) else {
                        drow.fill(T::ZERO);
                        continue;
                    };
                    let src = &plane[iy * g.w..(iy + 1) * g.w];
                    // Element by element: the padding is a column or two, and `fill` (as
                    // `copy_from_slice` below) calls `memset` for it.
                    for v in &mut drow[..x0] {
                        *v = T::ZERO;
                    }
                    for v in &mut drow[x1..] {
                        *v = T::ZERO;
                    }
                    if x0 < x1 {
                        // `x * s + off - pw` for x in x0..x1: inside 0..w by `cols`.
                        let first = x0 * g.stride[1] + off - g.pad[1];
                        if g.stride[1] == 1 {
                            copy_short(&mut drow[x0..x1], &src[first..first + (x1 - x0)]);
                        } else {
                            for (d, &v) in drow[x0..x1].iter_mut().zip(src[first..].iter().step_by(g.stride[1])) {
                                *d = v;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Output rows narrower than this take [`gather_table`]'s im2col: per window offset, a table of
/// source positions, instead of a copy per output row (which costs more than it moves when the
/// rows are a few elements long: 8x8 digits).
const NARROW_ROWS: usize = 16;

/// The im2col table of a geometry with narrow output rows: for window offset `(i, j)` (row
/// `i * kw + j`) and output position `p`, the position in an image plane that it reads, or
/// `h * w` for padding (a zero appended to the plane's copy).
fn gather_table(g: &Geom) -> Result<alloc::vec::Vec<usize>, ShapeError> {
    let (hw, ohw) = (g.h * g.w, g.oh * g.ow);
    let mut t = try_vec(g.kh * g.kw * ohw, hw)?;
    for i in 0..g.kh {
        for j in 0..g.kw {
            let row = &mut t[(i * g.kw + j) * ohw..(i * g.kw + j + 1) * ohw];
            for y in 0..g.oh {
                let Some(iy) = g.row(y, i) else { continue };
                for xo in 0..g.ow {
                    let px = xo * g.stride[1] + j * g.dil[1];
                    if let Some(ix) = px.checked_sub(g.pad[1]).filter(|&ix| ix < g.w) {
                        row[y * g.ow + xo] = iy * g.w + ix;
                    }
                }
            }
        }
    }
    Ok(t)
}

/// The images and channels whose im2col matrix one product of [`conv2d_block`] takes: channels
/// `c0..c0 + cg` of images `img0..img0 + nimg`.
#[derive(Clone, Copy)]
struct Block {
    c0: usize,
    cg: usize,
    img0: usize,
    nimg: usize,
}

/// The im2col matrix of a [`Block`] of images through a [`gather_table`] into `col`
/// (`[cg * kh * kw, nimg * oh * ow]`, row-major). The planes are first copied to `xb`, each
/// followed by a zero (what padding reads); then each row of `col` is written in order, its
/// images side by side, reading the planes (a few KiB) through the table.
fn im2col_table<T: Num>(x: &[T], g: &Geom, blk: Block, table: &[usize], xb: &mut [T], col: &mut [T]) {
    let Block { c0, cg, img0, nimg } = blk;
    let (hw, ohw, kk) = (g.h * g.w, g.oh * g.ow, g.kh * g.kw);
    let hw1 = hw + 1;
    for b in 0..nimg {
        for c in 0..cg {
            let src = ((img0 + b) * g.c + c0 + c) * hw;
            let dst = &mut xb[(b * cg + c) * hw1..(b * cg + c + 1) * hw1];
            dst[..hw].copy_from_slice(&x[src..src + hw]);
            dst[hw] = T::ZERO;
        }
    }
    let cols = nimg * ohw;
    for c in 0..cg {
        for (k, idx) in table.chunks_exact(ohw).enumerate().take(kk) {
            let r = c * kk + k;
            for (b, seg) in col[r * cols..(r + 1) * cols].chunks_exact_mut(ohw).enumerate() {
                let plane = &xb[(b * cg + c) * hw1..(b * cg + c + 1) * hw1];
                for (d, &at) in seg.iter_mut().zip(idx) {
                    *d = plane[at];
                }
            }
        }
    }
}

/// The im2col matrix of a [`Block`] of images with narrow output rows and stride 1 into `col`
/// (`[cg * kh * kw, nimg * oh * ow]`, row-major). Each plane is copied into `padded`, a
/// zero-bordered plane of `(h + 2 ph) x (w + 2 pw)` whose border is never written; with stride 1,
/// window offset `(i, j)` of output row `y` then reads the `ow` consecutive elements from row
/// `y + i dh`, column `j dw` of it, moved in pieces of 8. (The table of [`im2col_table`] read each element through an index: about five
/// cycles an element, 53% of the digits' first layer.)
fn im2col_padded<T: Num>(x: &[T], g: &Geom, blk: Block, padded: &mut [T], col: &mut [T]) {
    let Block { c0, cg, img0, nimg } = blk;
    let (hw, ohw) = (g.h * g.w, g.oh * g.ow);
    let (ph, pw, wp) = (g.pad[0], g.pad[1], g.w + 2 * g.pad[1]);
    let cols = nimg * ohw;
    for b in 0..nimg {
        for c in 0..cg {
            let src = &x[((img0 + b) * g.c + c0 + c) * hw..][..hw];
            copy_into_padded(padded, src, g.w, wp, [ph, pw]);
            for i in 0..g.kh {
                for j in 0..g.kw {
                    let r = (c * g.kh + i) * g.kw + j;
                    let dst = &mut col[r * cols + b * ohw..][..ohw];
                    for (y, drow) in dst.chunks_exact_mut(g.ow).enumerate() {
                        // Inside the padded plane: `y + i dh <= oh - 1 + (kh - 1) dh < h + 2 ph`
                        // and `j dw + ow <= w + 2 pw` for stride 1.
                        copy_short(drow, &padded[(y + i * g.dil[0]) * wp + j * g.dil[1]..][..g.ow]);
                    }
                }
            }
        }
    }
}

/// The im2col columns of one image's `cg` channels `x` in tiles of `tile_rows` output rows:
/// `f(y0, tc, colt)` for the tile from output row `y0`, its columns `colt` (`[cg kh kw, tc]`,
/// row-major, at the start of `col`).
fn column_tiles<T: Num>(
    x: &[T],
    g: &Geom,
    cg: usize,
    tile_rows: usize,
    col: &mut [T],
    mut f: impl FnMut(usize, usize, &mut [T]) -> Result<(), ShapeError>,
) -> Result<(), ShapeError> {
    let kk = cg * g.kh * g.kw;
    for y0 in (0..g.oh).step_by(tile_rows.max(1)) {
        let y1 = (y0 + tile_rows).min(g.oh);
        let tc = (y1 - y0) * g.ow;
        let colt = &mut col[..kk * tc];
        im2col(x, g, cg, colt, tc, 0, y0..y1);
        f(y0, tc, colt)?;
    }
    Ok(())
}

/// The im2col columns of a [`Block`] of whole images into `col` (`[cg kh kw, nimg oh ow]`,
/// row-major), by the path the geometry takes: a zero-bordered plane ([`im2col_padded`]) for
/// output rows narrower than [`NARROW_ROWS`] with stride 1, the gather table ([`im2col_table`])
/// for other narrow rows, row copies ([`im2col`]) otherwise. `xb` and `table` are the narrow
/// paths' scratch, sized here. (The forward's blocks and the weights' gradient's.)
fn block_columns<T: Num>(
    x: &[T],
    g: &Geom,
    blk: Block,
    xb: &mut alloc::vec::Vec<T>,
    table: &mut alloc::vec::Vec<usize>,
    col: &mut [T],
) -> Result<(), ShapeError> {
    let (hw, ohw) = (g.h * g.w, g.oh * g.ow);
    if g.ow < NARROW_ROWS && g.stride == [1, 1] {
        // One zero-bordered plane; its border is never written.
        sized(xb, (g.h + 2 * g.pad[0]) * (g.w + 2 * g.pad[1]))?;
        im2col_padded(x, g, blk, xb, col);
    } else if g.ow < NARROW_ROWS {
        sized(xb, blk.nimg * blk.cg * (hw + 1))?;
        if table.is_empty() {
            *table = gather_table(g)?;
        }
        im2col_table(x, g, blk, table, xb, col);
    } else {
        let cols = blk.nimg * ohw;
        for b in 0..blk.nimg {
            let xoff = ((blk.img0 + b) * g.c + blk.c0) * hw;
            im2col(&x[xoff..xoff + blk.cg * hw], g, blk.cg, col, cols, b * ohw, 0..g.oh);
        }
    }
    Ok(())
}

/// Elements of im2col columns that one product covers: images are batched into one product until
/// their columns fill about 256 KiB of `f32` (the L2 cache), so that small images with few
/// channels (8x8 digits: 576 elements an image) pay one product per block, not one per image.
const COL_BLOCK: usize = 1 << 16;

/// Elements of the im2col tile of one large image (whole output rows): 2^17, 512 KiB of f32, an
/// L2 cache of this machine's cores.
const COL_TILE: usize = 1 << 17;

/// Multiply-adds of a convolution from which its blocks of images run on rayon's pool: 2^24.
/// Measured in the digits CNN's forward (2026-11-30, two threads, stages separated by serial
/// work, so the workers sleep between them): at 2^20 its first layer (1.7e6, 177 µs on one
/// thread) took 205 µs on two and the second (the unrolled product, 1.2e7) 221 against 183 µs;
/// the large 3x3 layer (9.2e8) gains 1.8x.
#[cfg(feature = "rayon")]
const PAR_CONV_FLOPS: usize = 1 << 24;

/// [`PAR_CONV_FLOPS`] for a convolution called on one of the pool's own threads (inside
/// `pool.install`, `rayon::scope` or a parallel iterator), outside
/// [`keep_threads_awake`](crate::keep_threads_awake): 2^20. A split called from outside the pool
/// wakes a worker and then the caller, which waits asleep; on a pool thread the caller works on,
/// and only the other worker has to wake. Measured on the digits CNN (2026-12-03, a 2-core AVX2
/// virtual machine, two threads, criterion medians, old and new builds alternated four times):
/// its forward inside `rayon::scope` 693-762 -> 503-635 µs, the plain forward unchanged (653-693
/// against 654-691 µs, one run 820). The lower threshold for every caller had made the plain forward slower
/// (684-848 -> 755-824 µs: its stages, with serial work between them, wake the sleeping
/// worker and the caller each time), while the layers called back to back gained
/// (191-228 -> 117-134 µs and 311-363 -> 197-226 µs).
#[cfg(feature = "rayon")]
const PAR_CONV_FLOPS_IN_POOL: usize = 1 << 20;

/// Whether a convolution of `flops` multiply-adds splits its work across rayon's pool:
/// [`PAR_CONV_FLOPS`], or [`PAR_CONV_FLOPS_IN_POOL`] when called on a pool thread.
#[cfg(feature = "rayon")]
fn conv_parallel(flops: usize) -> bool {
    let in_pool = rayon::current_thread_index().is_some() && !super::par::awake();
    super::par::parallel_from(flops, if in_pool { PAR_CONV_FLOPS_IN_POOL } else { PAR_CONV_FLOPS })
}

/// `out = conv2d(x, w) + bias`: `x` `[n, c, h, w]`, `w` `[o, c / groups, kh, kw]`, `bias` `[o]`,
/// `out` `[n, o, oh, ow]`, all contiguous; sizes checked by the caller. The images go in blocks
/// ([`COL_BLOCK`]): per block and group, the im2col columns of its images side by side, one
/// product, and its rows copied to each image's output planes (straight into the output for a
/// block of one image). Blocks run on rayon's pool when there are several and the work is large.
///
/// # Errors
/// [`ShapeError::Alloc`] when a column buffer cannot be allocated.
pub(crate) fn conv2d<T: Gemm>(conv: Operands<'_, T>, out: &mut [T]) -> Result<(), ShapeError> {
    let Operands { g, o, groups, .. } = conv;
    let (ohw, kk) = (g.oh * g.ow, (g.c / groups) * g.kh * g.kw);
    let plane_out = o * ohw;
    if plane_out == 0 || g.n == 0 {
        return Ok(());
    }
    // A 1x1 window, stride 1, no padding: the channels of an image are already the columns.
    let direct = g.kh == 1 && g.kw == 1 && g.stride == [1, 1] && g.pad == [0, 0];
    if !direct && unrolled_fits(g, o, groups) {
        return conv2d_unrolled(conv, out);
    }
    if g.c == groups && groups > 1 && g.kw <= MAX_DEPTHWISE_KW {
        return conv2d_depthwise(conv, out);
    }
    let nb = if direct { 1 } else { (COL_BLOCK / kk.max(1).saturating_mul(ohw)).clamp(1, g.n) };
    // Large images and a kernel that writes strided blocks: no im2col (see
    // `implicit::conv2d_implicit`), the weights regrouped by window offset once for every image.
    let implicit = !direct && T::GEMM.into.is_some() && kk.saturating_mul(ohw) > COL_TILE;
    let taps = if implicit { implicit::by_offset(conv)? } else { alloc::vec::Vec::new() };
    let block = |nb: usize, b: usize, dst: &mut [T], scratch: &mut Scratch<T>| {
        if implicit {
            (b * nb..)
                .zip(dst.chunks_exact_mut(plane_out))
                .try_for_each(|(img, d)| implicit::conv2d_implicit(conv, &taps, img, d, scratch))
        } else {
            conv2d_block(conv, direct, b * nb, dst, scratch)
        }
    };
    #[cfg(feature = "rayon")]
    {
        let flops = g.n.saturating_mul(plane_out).saturating_mul(kk);
        if g.n > 1 && conv_parallel(flops) {
            use rayon::prelude::*;
            // At least four blocks per thread, so that a short last block leaves no thread idle
            // for long (the digits' first layer made four blocks: 113 images thrice, then 21).
            let nb = nb.min(g.n.div_ceil(4 * rayon::current_num_threads())).max(1);
            return out
                .par_chunks_mut(nb * plane_out)
                .enumerate()
                .try_for_each_init(|| Scratch::new(false), |scratch, (b, dst)| block(nb, b, dst, scratch));
        }
    }
    let mut scratch = Scratch::new(true);
    for (b, dst) in out.chunks_mut(nb * plane_out).enumerate() {
        block(nb, b, dst, &mut scratch)?;
    }
    Ok(())
}

/// Whether [`conv2d_unrolled`] serves a convolution: one group, images small enough that the
/// unrolled weight's zeros cost at most twice the window's work (`h * w <= 2 * kh * kw`: 4x4
/// images under a 3x3 window, 7x7 under 5x5), an unrolled matrix of at most 2^18 elements (1 MiB
/// of f32, built once per call) and at least 8 images to share it.
fn unrolled_fits(g: &Geom, o: usize, groups: usize) -> bool {
    let (hw, ohw) = (g.h * g.w, g.oh * g.ow);
    let elems = (g.c.saturating_mul(hw)).saturating_mul(o.saturating_mul(ohw));
    groups == 1 && g.n >= 8 && hw <= 2 * g.kh * g.kw && elems <= 1 << 18
}

/// `out = conv2d(x, w) + bias` for small images ([`unrolled_fits`]) as one product: each image
/// `x[b]` read as a row of `c * h * w` elements times the unrolled weight `u`
/// (`[c * h * w, o * oh * ow]`: `u[(ci, iy, ix), (oc, y, x)] = w[oc, ci, i, j]` where window
/// offset `(i, j)` of output `(y, x)` reads input `(iy, ix)`, zero elsewhere) gives the row of
/// `o * oh * ow` outputs `out[b]`. Input and output stay in their own layout: no im2col and no
/// copy of the results (for the digits' second layer, 8x4x4 to 16x4x4 over 360 images: 1.8 times
/// the window's multiply-adds, against the im2col path's gather of 415,000 elements that took
/// 60% of its time).
fn conv2d_unrolled<T: Gemm>(conv: Operands<'_, T>, out: &mut [T]) -> Result<(), ShapeError> {
    let Operands { x, wt, bias, g, o, .. } = conv;
    let (hw, ohw, kk) = (g.h * g.w, g.oh * g.ow, g.kh * g.kw);
    let (rows, cols) = (g.c * hw, o * ohw);
    // At most 2^18 elements (`unrolled_fits`): below the buffer cache's size, so a plain buffer.
    let mut u = try_vec(rows * cols, T::ZERO)?;
    // The rows of input channel `ci` (`hw` of them): its taps for every output channel.
    let unroll = |ci: usize, urows: &mut [T]| {
        for oc in 0..o {
            let wk = &wt[(oc * g.c + ci) * kk..(oc * g.c + ci + 1) * kk];
            for i in 0..g.kh {
                for j in 0..g.kw {
                    let v = wk[i * g.kw + j];
                    let (x0, x1) = g.cols(j);
                    for y in 0..g.oh {
                        let Some(iy) = g.row(y, i) else { continue };
                        for xo in x0..x1 {
                            // Inside 0..w by `cols`.
                            let ix = xo * g.stride[1] + j * g.dil[1] - g.pad[1];
                            urows[(iy * g.w + ix) * cols + oc * ohw + y * g.ow + xo] = v;
                        }
                    }
                }
            }
        }
    };
    #[cfg(feature = "rayon")]
    let parallel = g.n > 1 && conv_parallel(g.n.saturating_mul(rows * cols));
    #[cfg(not(feature = "rayon"))]
    let parallel = false;
    if parallel {
        // The unrolling split by input channel too (a tenth of the layer's time on one thread).
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            u.par_chunks_mut(hw * cols).enumerate().for_each(|(ci, urows)| unroll(ci, urows));
        }
    } else {
        for (ci, urows) in u.chunks_mut(hw * cols).enumerate() {
            unroll(ci, urows);
        }
    }
    let lu = Layout::contiguous(&[rows, cols])?;
    // The images of `dst`'s rows (`dst.len() / cols` of them) from the start of `xs`.
    let product = |xs: &[T], dst: &mut [T]| -> Result<(), ShapeError> {
        let lx = Layout::contiguous(&[dst.len() / cols, rows])?;
        // On this thread: faer's threads inside the one product of the digits' second layer
        // (`[360, 128] x [128, 256]`) made the network's forward from `main` on two threads
        // 613-632 -> 702-798 µs (a probe program, three runs each).
        product_into(xs, &lx, &u, &lu, dst, false)?;
        add_bias(dst, bias, o, ohw);
        Ok(())
    };
    #[cfg(feature = "rayon")]
    {
        let per_image = rows * cols;
        if parallel {
            use rayon::prelude::*;
            // The images split across the pool in blocks whose products stay below the product's
            // own parallel threshold, so that each runs on one thread: faer's threads inside the
            // one product of the digits' second layer (`[360, 128] x [128, 256]`) ran slower than
            // one thread (379 against 362 µs). At least two blocks per thread.
            let nb = (UNROLLED_BLOCK_FLOPS / per_image.max(1)).clamp(1, g.n.div_ceil(2 * rayon::current_num_threads()));
            return out
                .par_chunks_mut(nb * cols)
                .zip(x.par_chunks(nb * rows))
                .try_for_each(|(dst, xs)| product(xs, dst));
        }
    }
    product(x, out)
}

/// Multiply-adds of one block of images of [`conv2d_unrolled`] on rayon's pool: below the
/// product's own threshold for threads (`kernels::gemm`, 2^21), so that each block's product
/// runs on the thread that took the block.
#[cfg(feature = "rayon")]
const UNROLLED_BLOCK_FLOPS: usize = (1 << 21) - 1;

/// Output elements of a depthwise convolution from which its planes split across rayon's pool
/// (a window of 9 costs about as much as a float function per output: that threshold, 2^14).
#[cfg(feature = "rayon")]
const PAR_DEPTHWISE: usize = 1 << 14;

/// `out = conv2d(x, w) + bias` with one input channel per group (`groups == c`, depthwise; `o` a
/// multiple of `c`), directly: output plane `(b, oc)` is its bias plus, per window offset `(i, j)`,
/// `w[oc, 0, i, j]` times the shifted input plane `(b, oc / (o / c))`, a row at a time so that the
/// inner loop runs along the row and vectorises. An im2col product would multiply a `[1, kh * kw]`
/// row by the columns (a matrix-vector product, 2.5 times PyTorch's time on `[8, 64, 56, 56]`).
fn conv2d_depthwise<T: Num>(conv: Operands<'_, T>, out: &mut [T]) -> Result<(), ShapeError> {
    let g = conv.g;
    let (hw, ohw) = (g.h * g.w, g.oh * g.ow);
    if ohw == 0 || hw == 0 {
        return Ok(());
    }
    // Per window column `j`: the output columns `x0..x1` that read input, and the input column
    // the first of them reads (a division each: once per call, not per row).
    // The caller keeps `kw <= MAX_DEPTHWISE_KW`; a wider window panics at `spans[..g.kw]`.
    let mut spans = [(0usize, 0usize, 0usize); MAX_DEPTHWISE_KW];
    for (j, span) in spans.iter_mut().enumerate().take(g.kw) {
        let (x0, x1) = g.cols(j);
        // `x * s + j * dil - pw` for x in x0..x1: inside 0..w by `cols`.
        let first = if x0 < x1 { x0 * g.stride[1] + j * g.dil[1] - g.pad[1] } else { 0 };
        *span = (x0, x1, first);
    }
    let d = Depthwise { conv, spans: &spans[..g.kw] };
    #[cfg(feature = "rayon")]
    if super::par::parallel_from(out.len(), PAR_DEPTHWISE) {
        use rayon::prelude::*;
        let per = (PAR_DEPTHWISE / 4).div_ceil(ohw);
        return out
            .par_chunks_mut(per * ohw)
            .enumerate()
            .try_for_each(|(t, chunk)| depthwise_planes(&d, t * per, chunk));
    }
    depthwise_planes(&d, 0, out)
}

/// The widest window [`conv2d_depthwise`] takes (the caller sends wider ones to im2col).
const MAX_DEPTHWISE_KW: usize = 16;

/// The operands of [`conv2d_depthwise`], shared by its pieces: the convolution's, and per window
/// column its `(x0, x1, first input column)` span.
struct Depthwise<'a, T> {
    conv: Operands<'a, T>,
    spans: &'a [(usize, usize, usize)],
}

/// The output planes `p0..` of [`conv2d_depthwise`] that `chunk` holds, compiled for AVX-512 in
/// pieces of 16 elements when the CPU has it (1.84 -> 1.60 ms on the depthwise bench, one
/// thread), for AVX2 in pieces of 8 (8 f32 lanes per operation instead of SSE's 4: 5.2 -> 2.1 ms,
/// with the spans hoisted out of the rows), for the target's baseline otherwise.
fn depthwise_planes<T: Num>(d: &Depthwise<'_, T>, p0: usize, chunk: &mut [T]) -> Result<(), ShapeError> {
    #[cfg(all(feature = "std", target_arch = "x86_64", not(miri)))]
    {
        #[target_feature(enable = "avx512f")]
        fn avx512<T: Num>(d: &Depthwise<'_, T>, p0: usize, chunk: &mut [T]) -> Result<(), ShapeError> {
            depthwise_chunk::<T, 16>(d, p0, chunk)
        }
        #[target_feature(enable = "avx2")]
        fn avx2<T: Num>(d: &Depthwise<'_, T>, p0: usize, chunk: &mut [T]) -> Result<(), ShapeError> {
            depthwise_chunk::<T, 8>(d, p0, chunk)
        }
        if std::is_x86_feature_detected!("avx512f") {
            // SAFETY: `avx512` needs AVX-512F, detected just above.
            return unsafe { avx512(d, p0, chunk) };
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: `avx2` needs AVX2, detected just above.
            return unsafe { avx2(d, p0, chunk) };
        }
    }
    depthwise_chunk::<T, 8>(d, p0, chunk)
}

/// Output planes `p0..` (`(b, oc)` each) of [`conv2d_depthwise`] into `chunk`.
///
/// With stride 1 each input plane is first copied into a zero-bordered plane wide enough for
/// rows of whole vectors (`LANES` outputs): each window row is then one pass over the output
/// row's vectors, adding its three taps per load and store of the row (fixed-size pieces that
/// compile to one vector operation each), with no scalar tail and no bounds to clip (a pass over
/// the clipped span per tap loaded and stored the row nine times and left a 4-wide and a scalar
/// tail on each). Other strides take a pass per tap over the clipped spans.
#[inline(always)]
fn depthwise_chunk<T: Num, const LANES: usize>(
    d: &Depthwise<'_, T>,
    p0: usize,
    chunk: &mut [T],
) -> Result<(), ShapeError> {
    let Depthwise { conv: Operands { x, wt, bias, g, o, .. }, spans } = *d;
    let (hw, ohw, kk, og) = (g.h * g.w, g.oh * g.ow, g.kh * g.kw, o / g.c);
    let (ph, pw) = (g.pad[0], g.pad[1]);
    let unit = g.stride == [1, 1];
    // The padded plane: `hp` rows of `wp`, the input at row `ph`, column `pw`; zeros elsewhere
    // (never written). Wide enough that the last vector of a row, at `ow` rounded up, plus the
    // window's reach stays inside its row.
    let owr = g.ow.next_multiple_of(LANES);
    let wp = (owr + (g.kw - 1) * g.dil[1]).max(g.w + 2 * pw);
    let hp = g.h + 2 * ph;
    let len =
        hp.checked_mul(wp).ok_or(ShapeError::Alloc { count: usize::MAX, elem_size: core::mem::size_of::<T>() })?;
    let mut padded = if unit { crate::memory::try_vec_uncached(len, T::ZERO)? } else { alloc::vec::Vec::new() };
    let mut rowbuf = if unit { crate::memory::try_vec_uncached(owr, T::ZERO)? } else { alloc::vec::Vec::new() };
    // The input plane now in `padded` (the `og` output planes of one input plane share it).
    let mut in_padded = usize::MAX;
    // The image and output channel of the chunk's first plane, then counted up (no division per
    // plane: the digits' first layer has 2,880 planes of 64 outputs).
    let (mut b, mut oc) = (p0 / o, p0 % o);
    for dst in chunk.chunks_exact_mut(ohw) {
        let ic = b * g.c + oc / og;
        let src = &x[ic * hw..(ic + 1) * hw];
        let wk = &wt[oc * kk..(oc + 1) * kk];
        let b0 = bias.map_or(T::ZERO, |b| b[oc]);
        oc += 1;
        if oc == o {
            (b, oc) = (b + 1, 0);
        }
        if unit {
            if in_padded != ic {
                copy_into_padded(&mut padded, src, g.w, wp, [ph, pw]);
                in_padded = ic;
            }
            for (y, drow) in dst.chunks_exact_mut(g.ow).enumerate() {
                // The row's sums, in `drow` itself when it is whole vectors long.
                let acc = if g.ow == owr { &mut drow[..] } else { &mut rowbuf[..] };
                for a in acc.chunks_exact_mut(LANES) {
                    a.copy_from_slice(&[b0; LANES]);
                }
                for i in 0..g.kh {
                    let prow = &padded[(y + i * g.dil[0]) * wp..(y + i * g.dil[0] + 1) * wp];
                    let taps = &wk[i * g.kw..(i + 1) * g.kw];
                    if let [v0, v1, v2] = *taps {
                        // A 3-wide window row in one pass: a third of the loads and stores.
                        let d1 = g.dil[1];
                        let (s0, s1, s2) = (&prow[..owr], &prow[d1..d1 + owr], &prow[2 * d1..2 * d1 + owr]);
                        for (k, d) in acc.chunks_exact_mut(LANES).enumerate() {
                            let r = k * LANES..(k + 1) * LANES;
                            lanes_fma::<T, 3, LANES>(d, [&s0[r.clone()], &s1[r.clone()], &s2[r]], [v0, v1, v2]);
                        }
                        continue;
                    }
                    for (j, &v) in taps.iter().enumerate() {
                        let at = j * g.dil[1];
                        for (d, s) in acc.chunks_exact_mut(LANES).zip(prow[at..at + owr].chunks_exact(LANES)) {
                            lanes_fma::<T, 1, LANES>(d, [s], [v]);
                        }
                    }
                }
                if g.ow != owr {
                    copy_short(drow, &rowbuf[..g.ow]);
                }
            }
            continue;
        }
        dst.fill(b0);
        for (y, drow) in dst.chunks_exact_mut(g.ow).enumerate() {
            for i in 0..g.kh {
                let Some(iy) = g.row(y, i) else { continue };
                let srow = &src[iy * g.w..(iy + 1) * g.w];
                for (j, &(x0, x1, first)) in spans.iter().enumerate() {
                    if x0 >= x1 {
                        continue;
                    }
                    let v = wk[i * g.kw + j];
                    for (d, &a) in drow[x0..x1].iter_mut().zip(srow[first..].iter().step_by(g.stride[1])) {
                        *d = T::add(*d, T::mul(a, v));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The plane `src` (rows of `w`) into the interior of the zero-bordered plane `padded` (rows of
/// `wp`, after `ph` rows and `pw` columns of border), row by row: the copy of [`im2col_padded`]
/// and of the depthwise kernel.
#[inline(always)]
fn copy_into_padded<T: Copy>(padded: &mut [T], src: &[T], w: usize, wp: usize, [ph, pw]: [usize; 2]) {
    for (r, row) in src.chunks_exact(w).enumerate() {
        copy_short(&mut padded[(r + ph) * wp + pw..][..w], row);
    }
}

/// `dst.copy_from_slice(src)` for the short rows of small images, in pieces of 8 elements and
/// then one at a time: `copy_from_slice` calls `memcpy`, which costs more than it moves for a row
/// of 8 (each plane of the digits' first layer took eight such calls).
#[inline(always)]
fn copy_short<T: Copy>(dst: &mut [T], src: &[T]) {
    let mut d8 = dst.chunks_exact_mut(8);
    let mut s8 = src.chunks_exact(8);
    for (d, s) in (&mut d8).zip(&mut s8) {
        // Array to array: two vector moves (through a local array the compiler kept a copy on
        // the stack, 3% of a stride-2 layer's copy out of its tiles).
        *<&mut [T; 8]>::try_from(d).expect("8 elements") = *<&[T; 8]>::try_from(s).expect("8 elements");
    }
    let (mut d, mut s) = (d8.into_remainder(), s8.remainder());
    // Then four (the rows of 4x4 planes: the digits' second layer), then one at a time.
    if d.len() >= 4 && s.len() >= 4 {
        let (d4, dr) = d.split_at_mut(4);
        *<&mut [T; 4]>::try_from(d4).expect("4 elements") = *<&[T; 4]>::try_from(&s[..4]).expect("4 elements");
        (d, s) = (dr, &s[4..]);
    }
    for (d, &v) in d.iter_mut().zip(s) {
        *d = v;
    }
}

/// `d[l] += s[0][l] * v[0] + ... + s[N - 1][l] * v[N - 1]` (added in that order) for the 8
/// lanes of [`depthwise_chunk`]'s vectors: every load into local arrays first, then the
/// arithmetic, then one store, so that the lanes compile to vector operations (with the loads and
/// stores interleaved the compiler cannot tell the slices apart and keeps them scalar).
#[inline(always)]
fn lanes_fma<T: Num, const N: usize, const LANES: usize>(d: &mut [T], s: [&[T]; N], v: [T; N]) {
    let mut dv = [T::ZERO; LANES];
    dv.copy_from_slice(d);
    let mut sv = [[T::ZERO; LANES]; N];
    for (a, b) in sv.iter_mut().zip(s) {
        a.copy_from_slice(b);
    }
    for (row, &w) in sv.iter().zip(&v) {
        for (a, &e) in dv.iter_mut().zip(row) {
            *a = T::add(*a, T::mul(e, w));
        }
    }
    d.copy_from_slice(&dv);
}

/// The buffers of [`conv2d_block`], kept from one block to the next (a fresh buffer per block
/// costs its page faults and its zeroing each time), and handed to the cache of freed buffers
/// when dropped, for the next call (those of 512 KiB or more: a large image's columns).
struct Scratch<T: Num> {
    col: alloc::vec::Vec<T>,
    tmp: alloc::vec::Vec<T>,
    xb: alloc::vec::Vec<T>,
    table: alloc::vec::Vec<usize>,
    /// Whether the blocks' products may split across rayon's pool: not when the blocks
    /// themselves run on it.
    threads: bool,
}

impl<T: Num> Drop for Scratch<T> {
    fn drop(&mut self) {
        crate::memory::cache::give(&mut self.col);
        crate::memory::cache::give(&mut self.tmp);
        crate::memory::cache::give(&mut self.xb);
    }
}

impl<T: Num> Scratch<T> {
    /// Empty buffers; products on rayon's pool past their own threshold when `threads`.
    fn new(threads: bool) -> Self {
        Scratch {
            col: alloc::vec::Vec::new(),
            tmp: alloc::vec::Vec::new(),
            xb: alloc::vec::Vec::new(),
            table: alloc::vec::Vec::new(),
            threads,
        }
    }
}

/// `c = a @ b` into the row-major `c` (`[m, n]`, contiguous), split across rayon's pool past the
/// product's threshold only when `threads`.
fn product_into<T: Gemm>(
    a: &[T],
    la: &Layout,
    b: &[T],
    lb: &Layout,
    c: &mut [T],
    threads: bool,
) -> Result<(), ShapeError> {
    let lc = Layout::contiguous(&[la.sizes()[0], lb.sizes()[1]])?;
    super::gemm_into(a, la, b, lb, c, &lc, GemmMode { add: false, threads })
}

/// `buf` with exactly `n` elements, reusing its allocation (a new one only when it grows).
fn sized<T: Num>(buf: &mut alloc::vec::Vec<T>, n: usize) -> Result<(), ShapeError> {
    if buf.len() != n {
        if n > buf.capacity() {
            *buf = try_vec(n, T::ZERO)?;
        } else {
            buf.resize(n, T::ZERO);
        }
    }
    Ok(())
}

/// `bias[k]` added to every output plane of channel `k` (`ohw` elements each) of whole images of
/// `o` channels in `out`.
fn add_bias<T: Num>(out: &mut [T], bias: Option<&[T]>, o: usize, ohw: usize) {
    let Some(b) = bias else { return };
    // Image by image, so that each plane's channel comes without a division (a `% o` per plane
    // of 16 was 10% of the digits' second layer).
    for img in out.chunks_exact_mut((o * ohw).max(1)) {
        for (plane, &bk) in img.chunks_exact_mut(ohw.max(1)).zip(b) {
            for v in plane {
                *v = T::add(*v, bk);
            }
        }
    }
}

/// One block of [`conv2d`]: the images `img0..` whose outputs `dst` holds (whole images).
fn conv2d_block<T: Gemm>(
    conv: Operands<'_, T>,
    direct: bool,
    img0: usize,
    dst: &mut [T],
    scratch: &mut Scratch<T>,
) -> Result<(), ShapeError> {
    let Operands { x, wt, bias, g, o, groups } = conv;
    let (cg, og) = (g.c / groups, o / groups);
    let (hw, ohw, kk) = (g.h * g.w, g.oh * g.ow, cg * g.kh * g.kw);
    let nimg = dst.len() / (o * ohw);
    let cols = nimg * ohw;
    let narrow = !direct && g.ow < NARROW_ROWS;
    // A single image whose columns exceed a tile: its output rows in tiles of `tile_rows`.
    let tiled = !direct && !narrow && nimg == 1 && kk.saturating_mul(ohw) > COL_TILE;
    let tile_rows = (COL_TILE / kk.saturating_mul(g.ow).max(1)).max(1);
    let Scratch { col, tmp, xb, table, threads } = scratch;
    let threads = *threads;
    if tiled {
        sized(col, kk * tile_rows.min(g.oh) * g.ow)?;
    } else {
        if !direct {
            sized(col, kk * cols)?;
        }
        if nimg > 1 {
            sized(tmp, og * cols)?;
        }
    }
    let (col, tmp) = (&mut col[..], &mut tmp[..]);
    let lcol = Layout::contiguous(&[kk, cols])?;
    for gi in 0..groups {
        let la = Layout::from_parts(&[og, kk], &[kk as isize, 1], gi * og * kk)?;
        if direct {
            for b in 0..nimg {
                let xoff = ((img0 + b) * g.c + gi * cg) * hw;
                let lb = Layout::from_parts(&[cg, hw], &[hw as isize, 1], xoff)?;
                let ooff = (b * o + gi * og) * ohw;
                product_into(wt, &la, x, &lb, &mut dst[ooff..ooff + og * ohw], threads)?;
            }
            continue;
        }
        if tiled {
            // One image's columns in tiles of whole output rows, each product reading its tile
            // from the cache (the whole `[576, 3136]` im2col of a 64-channel 56x56 image is
            // 7 MiB: written to memory and read back).
            let xoff = (img0 * g.c + gi * cg) * hw;
            column_tiles(&x[xoff..xoff + cg * hw], g, cg, tile_rows, col, |y0, tc, colt| {
                // Straight into the output planes' rows `y0..` (a block of the image's
                // `[o, oh * ow]` matrix).
                let lo = Layout::from_parts(&[og, tc], &[ohw as isize, 1], gi * og * ohw + y0 * g.ow)?;
                let mode = GemmMode { add: false, threads };
                super::gemm_into(wt, &la, colt, &Layout::contiguous(&[kk, tc])?, dst, &lo, mode)
            })?;
            continue;
        }
        block_columns(x, g, Block { c0: gi * cg, cg, img0, nimg }, xb, table, col)?;
        if nimg == 1 {
            product_into(wt, &la, col, &lcol, &mut dst[gi * og * ohw..(gi + 1) * og * ohw], threads)?;
            continue;
        }
        // `tmp` is `[og, nimg * ohw]`: row `oi` holds output channel `oi` of every image.
        product_into(wt, &la, col, &lcol, tmp, threads)?;
        for (oi, row) in tmp.chunks_exact(cols).enumerate() {
            for (b, plane) in row.chunks_exact(ohw).enumerate() {
                let ooff = (b * o + gi * og + oi) * ohw;
                dst[ooff..ooff + ohw].copy_from_slice(plane);
            }
        }
    }
    add_bias(dst, bias, o, ohw);
    Ok(())
}

/// The input positions `v` in `0..n` whose output position `v * stride + off - pad` lies in
/// `0..out` (one dim of a transposed convolution's scatter; `stride >= 1`, checked by the
/// front ends).
fn landing(n: usize, stride: usize, off: usize, pad: usize, out: usize) -> core::ops::Range<usize> {
    let stride = stride.max(1);
    // `v s + off >= pad` from `v = ceil((pad - off) / s)`; `v s + off < out + pad` below
    // `ceil((out + pad - off) / s)`.
    let hi = (out + pad).saturating_sub(off).div_ceil(stride).min(n);
    let lo = pad.saturating_sub(off).div_ceil(stride).min(hi);
    lo..hi
}

/// `out = conv_transpose2d(x, w) + bias` (the gradient of `conv2d` with respect to its input):
/// `x` `[n, c, h, w]`, `w` `[c, o / groups, kh, kw]`, `bias` `[o]`, `out` `[n, o, oh, ow]`, all
/// contiguous, sizes checked by the caller (`oh`, `ow` include the output padding). Per image
/// and group, the product `w_gᵀ @ x_g` (`[o/g * kh * kw, h * w]`, through the crate's gemm) is
/// scattered and summed into the output (col2im).
///
/// # Errors
/// [`ShapeError::Alloc`] when the column buffer cannot be allocated.
pub(crate) fn conv_transpose2d<T: Gemm>(conv: Operands<'_, T>, out: &mut [T]) -> Result<(), ShapeError> {
    let Operands { x, wt, bias, g, o, groups } = conv;
    let (cg, og) = (g.c / groups, o / groups);
    let (hw, ohw, kk) = (g.h * g.w, g.oh * g.ow, og * g.kh * g.kw);
    out.fill(T::ZERO);
    // `w_g` is `[cg, kk]` row-major at row `gi * cg`; each group's transpose `[kk, cg]` is copied
    // row-major once, for every image's product (faer's kernels took the column-major view
    // more slowly).
    let mut wt_t = crate::memory::try_vec_for_overwrite::<T>(wt.len())?;
    for (dst, src) in wt_t.chunks_exact_mut(kk * cg).zip(wt.chunks_exact(kk * cg)).take(groups) {
        for (ci, row) in src.chunks_exact(kk).enumerate() {
            for (r, &v) in row.iter().enumerate() {
                dst[r * cg + ci] = v;
            }
        }
    }
    let wt_t = &wt_t;
    // Image `img` into its output planes `dst` (`[o, oh, ow]`), through the scratch's columns.
    let image = |img: usize, dst: &mut [T], scratch: &mut Scratch<T>| -> Result<(), ShapeError> {
        let Scratch { col, threads, .. } = scratch;
        sized(col, kk * hw)?;
        for gi in 0..groups {
            let la = Layout::from_parts(&[kk, cg], &[cg as isize, 1], gi * cg * kk)?;
            let lb = Layout::from_parts(&[cg, hw], &[hw as isize, 1], (img * g.c + gi * cg) * hw)?;
            product_into(wt_t, &la, x, &lb, col, *threads)?;
            let base = gi * og * ohw;
            // Input pixel `(y, x)` of kernel tap `(i, j)` lands on `(y s + i d - p, x s + j d - p)`:
            // the rows and columns that land inside the output are two ranges, so each input
            // row is one run of adds (a step of `s` apart in the output row), with no test per
            // element. Each output element takes its terms in the same order as a walk over
            // every `(r, y, x)`.
            for (r, row) in col.chunks_exact(hw.max(1)).enumerate().take(kk) {
                let (oc, i, j) = (r / (g.kh * g.kw), (r / g.kw) % g.kh, r % g.kw);
                let plane = &mut dst[base + oc * ohw..base + (oc + 1) * ohw];
                let ys = landing(g.h, g.stride[0], i * g.dil[0], g.pad[0], g.oh);
                let xs = landing(g.w, g.stride[1], j * g.dil[1], g.pad[1], g.ow);
                if xs.is_empty() {
                    continue;
                }
                let ox0 = xs.start * g.stride[1] + j * g.dil[1] - g.pad[1];
                for y in ys {
                    let oy = y * g.stride[0] + i * g.dil[0] - g.pad[0];
                    let src = &row[y * g.w + xs.start..y * g.w + xs.end];
                    let out_row = &mut plane[oy * g.ow + ox0..(oy + 1) * g.ow];
                    if g.stride[1] == 1 {
                        for (d, &v) in out_row.iter_mut().zip(src) {
                            *d = T::add(*d, v);
                        }
                    } else if g.stride[1] == 2 {
                        // Pairs of output elements, the first of each taking the term: a fixed
                        // step the compiler unrolls (`step_by` kept a branch per element).
                        let (pairs, last) = out_row[..2 * src.len() - 1].split_at_mut(2 * (src.len() - 1));
                        for (d, &v) in pairs.chunks_exact_mut(2).zip(src) {
                            d[0] = T::add(d[0], v);
                        }
                        last[0] = T::add(last[0], src[src.len() - 1]);
                    } else {
                        for (d, &v) in out_row.iter_mut().step_by(g.stride[1]).zip(src) {
                            *d = T::add(*d, v);
                        }
                    }
                }
            }
        }
        Ok(())
    };
    let per_image = (o * ohw).max(1);
    #[cfg(feature = "rayon")]
    {
        // The images on rayon's pool, each with its own columns (the input gradient of a
        // strided convolution: `[8, 64, 56, 56]` by `[128, 64, 3, 3]` with stride 2 ran one
        // image at a time).
        let flops = g.n.saturating_mul(hw).saturating_mul(kk).saturating_mul(cg);
        if g.n > 1 && conv_parallel(flops) {
            use rayon::prelude::*;
            out.par_chunks_mut(per_image)
                .enumerate()
                .try_for_each_init(|| Scratch::new(false), |scratch, (img, dst)| image(img, dst, scratch))?;
            add_bias(out, bias, o, ohw);
            return Ok(());
        }
    }
    let mut scratch = Scratch::new(true);
    for (img, dst) in out.chunks_mut(per_image).enumerate().take(g.n) {
        image(img, dst, &mut scratch)?;
    }
    add_bias(out, bias, o, ohw);
    Ok(())
}
