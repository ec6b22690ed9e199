//! A long training loop holds constant memory: the graph is freed by each backward, nothing
//! accumulates across steps. Live heap bytes are counted by a global allocator.
use shaped::autograd::{Param, Tape, Var};
use shaped::prelude::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;
static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts the bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on to the system allocator.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static A: Counting = Counting;

#[test]
fn ten_thousand_steps_hold_constant_memory() {
    let mut w = Param::new(Tensor::<f32, Shape![16, 8]>::full(0.01));
    let mut b = Param::new(Tensor::<f32, Shape![16]>::zeros());
    let x = Var::constant(Tensor::<f32, Shape![32, 8]>::from_vec(
        &[32, 8],
        (0..256).map(|i| (i % 7) as f32 / 7.0).collect(),
    ));
    let y = Var::constant(Tensor::<f32, Shape![32, 16]>::full(0.5));
    let step = |w: &mut Param<f32, Shape![16, 8]>, b: &mut Param<f32, Shape![16]>| {
        let tape = Tape::new();
        let (wv, bv) = (tape.watch(w), tape.watch(b));
        let out = (&x.matmul(&wv.t()) + &bv).tanh();
        let loss = (&out - &y).square().mean();
        let grads = loss.backward();
        let (gw, gb) = (grads.param(w).unwrap().clone(), grads.param(b).unwrap().clone());
        drop((wv, bv, out, loss, grads));
        *w.value_mut() -= &(&gw * 0.1);
        *b.value_mut() -= &(&gb * 0.1);
    };
    for _ in 0..100 {
        step(&mut w, &mut b);
    }
    let after_100 = LIVE.load(Ordering::Relaxed);
    for _ in 100..10_000 {
        step(&mut w, &mut b);
    }
    let after_10k = LIVE.load(Ordering::Relaxed);
    assert_eq!(after_10k, after_100, "live heap bytes grew from {after_100} to {after_10k} over 9,900 steps");
}
