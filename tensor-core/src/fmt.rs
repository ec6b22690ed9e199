//! PyTorch-style `Display` (`tensor([[1, 2], [3, 4]])`, summarised with `...` past 1000
//! elements) and a `Debug` that adds sizes and strides.
use crate::shape::Shape;
use crate::storage::Data;
use crate::tensor::TensorBase;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

/// Elements past which each dim is shown as its first and last 3 entries, as PyTorch does.
const SUMMARY_THRESHOLD: usize = 1000;
const EDGE: usize = 3;

/// The coordinates shown along a dim of `n` elements (`None` marks the `...`).
fn shown(n: usize, summarise: bool) -> Vec<Option<usize>> {
    if summarise && n > 2 * EDGE {
        (0..EDGE).map(Some).chain([None]).chain((n - EDGE..n).map(Some)).collect()
    } else {
        (0..n).map(Some).collect()
    }
}

impl<D: Data, S: Shape> fmt::Display for TensorBase<D, S> {
    /// `tensor([[1.0, 2.0], [3.0, 4.0]])`, one row per line; a precision (`{:.2}`) applies to
    /// every element.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.numel() == 0 {
            // PyTorch's form for empty tensors; no dim is walked (one may be huge).
            return if self.rank() == 1 {
                f.write_str("tensor([])")
            } else {
                write!(f, "tensor([], size={:?})", self.sizes())
            };
        }
        let summarise = self.numel() > SUMMARY_THRESHOLD;
        let data = self.data.as_slice();
        let precision = f.precision();
        let cell = |o: usize| -> String {
            let mut s = String::new();
            match precision {
                Some(p) => write!(s, "{:.*}", p, data[o]),
                None => write!(s, "{}", data[o]),
            }
            .unwrap();
            s
        };
        // Width of the widest shown element, for right alignment.
        let mut width = 0;
        visit(self, summarise, &mut Vec::new(), &mut |o| width = width.max(cell(o).chars().count()));
        f.write_str("tensor(")?;
        let mut out = String::new();
        render(self, summarise, &mut Vec::new(), 0, width, &cell, &mut out);
        f.write_str(&out)?;
        f.write_str(")")
    }
}

fn visit<D: Data, S: Shape>(t: &TensorBase<D, S>, summarise: bool, idx: &mut Vec<usize>, g: &mut impl FnMut(usize)) {
    if idx.len() == t.rank() {
        g(t.layout().offset_of(idx));
        return;
    }
    for i in shown(t.sizes()[idx.len()], summarise).into_iter().flatten() {
        idx.push(i);
        visit(t, summarise, idx, g);
        idx.pop();
    }
}

fn render<D: Data, S: Shape>(
    t: &TensorBase<D, S>,
    summarise: bool,
    idx: &mut Vec<usize>,
    depth: usize,
    width: usize,
    cell: &dyn Fn(usize) -> String,
    out: &mut String,
) {
    let rank = t.rank();
    if depth == rank {
        let c = cell(t.layout().offset_of(idx));
        let _ = write!(out, "{c:>width$}");
        return;
    }
    out.push('[');
    let last_dim = depth + 1 == rank;
    for (k, i) in shown(t.sizes()[depth], summarise).into_iter().enumerate() {
        if k > 0 {
            out.push(',');
            if last_dim {
                out.push(' ');
            } else {
                // Blank lines between blocks of higher dims, as PyTorch prints them.
                for _ in 0..rank - depth - 1 {
                    out.push('\n');
                }
                out.extend(core::iter::repeat_n(' ', "tensor(".len() + depth + 1));
            }
        }
        match i {
            Some(i) => {
                idx.push(i);
                render(t, summarise, idx, depth + 1, width, cell, out);
                idx.pop();
            }
            None => out.push_str("..."),
        }
    }
    out.push(']');
}

impl<D: Data, S: Shape> fmt::Debug for TensorBase<D, S> {
    /// The `Display` text followed by the shape type, sizes, strides and offset.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{self} shape={} sizes={:?} strides={:?} offset={}",
            S::describe(),
            self.sizes(),
            self.strides(),
            self.storage_offset()
        )
    }
}
