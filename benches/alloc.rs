//! Large new outputs under an allocator that keeps freed memory for reuse (mimalloc as this
//! binary's global allocator), against the same work under the system allocator in
//! `benches/kernels.rs` (`add_new_16m`, `add_out_16m`).
//!
//! A new 1.6e7-element f32 output is 64 MB. glibc's malloc serves it by `mmap` and returns it by
//! `munmap` on drop (its dynamic mmap threshold stops at 32 MB), so every `&a + &b` faults in fresh
//! pages that the kernel zeroes first: about 5 ms of the new-output add's 13-15 ms on the
//! development machine, however the kernel is written (huge pages make the faults 512 times fewer,
//! not the zeroing cheaper). An allocator that keeps freed segments mapped hands the next output
//! pages that are already there: a program that allocates large outputs in a loop can choose one
//! (shaped, a library, leaves the global allocator to the program).
//!
//! Group `add_new_16m_mimalloc`: `shaped` (`&a + &b` into a new tensor, one thread),
//! `shaped_2threads`, `shaped_out` (`add_out` into a preallocated tensor, the DRAM bound), `loop`
//! (a plain loop collecting into a new `Vec`).
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shaped::prelude::*;
use std::hint::black_box;
use std::time::Duration;

#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

const N: usize = 16_000_000;

fn data(len: usize, seed: usize) -> Vec<f32> {
    (0..len).map(|i| (((i + seed) * 7919) % 1009) as f32 * 0.001 + 0.5).collect()
}

fn add_new(c: &mut Criterion) {
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let mut g = c.benchmark_group("add_new_16m_mimalloc");
    g.measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500)).sample_size(20);
    g.throughput(Throughput::Elements(N as u64));
    let (a, b) =
        (Tensor::<f32, DynShape>::from_vec(&[N], data(N, 0)), Tensor::<f32, DynShape>::from_vec(&[N], data(N, 7)));
    let mut out = Tensor::<f32, DynShape>::zeros_sized(&[N]);
    let (av, bv) = (data(N, 0), data(N, 7));
    g.bench_function("shaped", |x| one.install(|| x.iter(|| black_box(black_box(&a) + black_box(&b)))));
    g.bench_function("shaped_2threads", |x| two.install(|| x.iter(|| black_box(black_box(&a) + black_box(&b)))));
    g.bench_function("shaped_out", |x| one.install(|| x.iter(|| black_box(&a).add_out(black_box(&b), &mut out))));
    g.bench_function("loop", |x| {
        x.iter(|| black_box(black_box(&av).iter().zip(black_box(&bv)).map(|(&p, &q)| p + q).collect::<Vec<f32>>()))
    });
    g.finish();
}

criterion_group!(benches, add_new);
criterion_main!(benches);
