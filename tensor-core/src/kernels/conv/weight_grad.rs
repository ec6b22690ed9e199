//! The weights' gradient of a 2-D convolution, as one product per block of images: the im2col
//! columns of the block (the forward's) times the output's gradient, accumulated.
use super::{block_columns, column_tiles, sized, Block, Geom, Scratch, COL_BLOCK, COL_TILE, NARROW_ROWS};
use crate::error::ShapeError;
use crate::layout::Layout;
use crate::num::{Gemm, GemmMode};

/// Elements of the partial gradients that [`conv2d_weight_grad`] keeps at once (one per part of
/// the images, summed in order at the end): 2^22, 16 MiB of f32.
const PARTIALS: usize = 1 << 22;

/// Parts of the images at most (each a partial gradient, a task of rayon's pool).
const MAX_PARTS: usize = 16;

/// `gw = ∂(Σ gy · conv2d(x, w)) / ∂w`: the gradient of a 2-D convolution's weights
/// (`[o, c / groups, kh, kw]`, overwritten) for the input `x` `[n, c, h, w]` and the output's
/// gradient `gy` `[n, o, oh, ow]`, all contiguous, sizes checked by the caller (PyTorch's
/// `torch.nn.grad.conv2d_weight`, the weight output of `convolution_backward`). Per block of
/// images (as the forward's blocks, [`COL_BLOCK`]) and group, the block's im2col columns `col`
/// (`[cg kh kw, cols]`) and the gradient's rows `gy_g` (`[og, cols]`, read in place for a
/// block of one image) give `gw_g += gy_g @ colᵀ`; one large image takes its output rows in
/// tiles ([`COL_TILE`]). The images split into at most [`MAX_PARTS`] parts, by their sizes
/// alone, each summing into a partial gradient (rayon's tasks when the work is large), and the
/// partials are added in order: the result does not depend on the number of threads.
///
/// (It replaced a convolution of the input, batch and channels swapped, by the output's
/// gradient as a window of `oh x ow`: 347 ms for the forward and the weights' gradient of the
/// large 3x3 layer, `[8, 64, 56, 56]` by `[64, 64, 3, 3]`, against PyTorch's 27.8 ms.)
///
/// # Errors
/// [`ShapeError::Alloc`] when a buffer cannot be allocated.
pub(crate) fn conv2d_weight_grad<T: Gemm>(
    x: &[T],
    gy: &[T],
    g: &Geom,
    o: usize,
    groups: usize,
    gw: &mut [T],
) -> Result<(), ShapeError> {
    gw.fill(T::ZERO);
    let (cg, ohw) = (g.c / groups, g.oh * g.ow);
    let kk = cg * g.kh * g.kw;
    if g.n == 0 || ohw == 0 || kk == 0 || o == 0 {
        return Ok(());
    }
    let nb = (COL_BLOCK / kk.saturating_mul(ohw).max(1)).clamp(1, g.n);
    let blocks = g.n.div_ceil(nb);
    let parts = blocks.min(MAX_PARTS).min((PARTIALS / gw.len()).max(1));
    let per = blocks.div_ceil(parts);
    // Part `p`: blocks `p per..`, summed into `acc`.
    let part = |p: usize, acc: &mut [T], threads: bool| -> Result<(), ShapeError> {
        let mut scratch = Scratch::new(threads);
        for blk in p * per..((p + 1) * per).min(blocks) {
            let img0 = blk * nb;
            block(x, gy, g, [o, groups], img0, nb.min(g.n - img0), acc, &mut scratch)?;
        }
        Ok(())
    };
    // The partial gradients `acc` of parts 1.. added into part 0's, in order.
    let add = |gw: &mut [T], acc: &[T]| {
        for (d, &v) in gw.iter_mut().zip(acc) {
            *d = T::add(*d, v);
        }
    };
    #[cfg(feature = "rayon")]
    {
        let flops = g.n.saturating_mul(ohw).saturating_mul(kk).saturating_mul(o / groups.max(1));
        if parts > 1 && super::conv_parallel(flops) {
            use rayon::prelude::*;
            // Part 0 into `gw` beside the others (each into a partial of its own).
            let len = gw.len();
            let (first, partials) = rayon::join(
                || part(0, gw, false),
                || {
                    (1..parts)
                        .into_par_iter()
                        .map(|p| {
                            let mut acc = crate::memory::try_vec(len, T::ZERO)?;
                            part(p, &mut acc, false)?;
                            Ok(acc)
                        })
                        .collect::<Result<alloc::vec::Vec<_>, ShapeError>>()
                },
            );
            first?;
            for acc in partials? {
                add(gw, &acc);
            }
            return Ok(());
        }
    }
    part(0, gw, parts == 1)?;
    if parts > 1 {
        let mut acc = crate::memory::try_vec(gw.len(), T::ZERO)?;
        for p in 1..parts {
            acc.fill(T::ZERO);
            part(p, &mut acc, true)?;
            add(gw, &acc);
        }
    }
    Ok(())
}

/// The images `img0..img0 + nimg` of [`conv2d_weight_grad`], added into `acc` (`[o, kk]`).
#[allow(clippy::too_many_arguments)]
fn block<T: Gemm>(
    x: &[T],
    gy: &[T],
    g: &Geom,
    [o, groups]: [usize; 2],
    img0: usize,
    nimg: usize,
    acc: &mut [T],
    scratch: &mut Scratch<T>,
) -> Result<(), ShapeError> {
    let (cg, og) = (g.c / groups, o / groups);
    let (hw, ohw, kk) = (g.h * g.w, g.oh * g.ow, cg * g.kh * g.kw);
    let cols = nimg * ohw;
    let narrow = g.ow < NARROW_ROWS;
    let tiled = !narrow && nimg == 1 && kk.saturating_mul(ohw) > COL_TILE;
    let tile_rows = if tiled { (COL_TILE / kk.saturating_mul(g.ow).max(1)).clamp(1, g.oh) } else { g.oh };
    let Scratch { col, tmp, xb, table, threads } = scratch;
    let mode = GemmMode { add: true, threads: *threads };
    sized(col, kk * tile_rows * g.ow * nimg)?;
    if nimg > 1 {
        sized(tmp, og * cols)?;
    }
    for gi in 0..groups {
        let lc = Layout::from_parts(&[og, kk], &[kk as isize, 1], gi * og * kk)?;
        // The gradient's rows of one image, in place.
        let goff = (img0 * o + gi * og) * ohw;
        if nimg == 1 && !narrow {
            // Its output rows in tiles (one tile unless the image is large).
            let xoff = (img0 * g.c + gi * cg) * hw;
            column_tiles(&x[xoff..xoff + cg * hw], g, cg, tile_rows, col, |y0, tc, colt| {
                let la = Layout::from_parts(&[og, tc], &[ohw as isize, 1], goff + y0 * g.ow)?;
                let lb = Layout::from_parts(&[tc, kk], &[1, tc as isize], 0)?;
                crate::kernels::gemm_into(gy, &la, colt, &lb, acc, &lc, mode)
            })?;
            continue;
        }
        let col = &mut col[..kk * cols];
        block_columns(x, g, Block { c0: gi * cg, cg, img0, nimg }, xb, table, col)?;
        let lb = Layout::from_parts(&[cols, kk], &[1, cols as isize], 0)?;
        if nimg == 1 {
            let la = Layout::from_parts(&[og, ohw], &[ohw as isize, 1], goff)?;
            crate::kernels::gemm_into(gy, &la, col, &lb, acc, &lc, mode)?;
            continue;
        }
        // The block's gradient rows side by side: row `oi` holds output channel `oi` of every
        // image, as the columns of `col`.
        let tmp = &mut tmp[..og * cols];
        for (oi, row) in tmp.chunks_exact_mut(cols).enumerate() {
            for (b, plane) in row.chunks_exact_mut(ohw).enumerate() {
                let goff = ((img0 + b) * o + gi * og + oi) * ohw;
                plane.copy_from_slice(&gy[goff..goff + ohw]);
            }
        }
        crate::kernels::gemm_into(tmp, &Layout::contiguous(&[og, cols])?, col, &lb, acc, &lc, mode)?;
    }
    Ok(())
}
