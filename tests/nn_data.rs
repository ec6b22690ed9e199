//! The seeded shuffled mini-batch loader (`shaped::nn::data::DataLoader`, PyTorch's
//! `DataLoader(TensorDataset(x, y), batch_size, shuffle=True, drop_last)`): every sample once
//! per epoch, the batch sizes with and without `drop_last`, the same batches for the same seed,
//! a new order per epoch, the inputs and targets kept together, the typed batches.
use shaped::nn::data::{Batch, DataLoader};
use shaped::prelude::*;
use shaped::rand::rngs::StdRng;
use shaped::rand::SeedableRng;

/// N samples: input row i is [i, 100 + i, 200 + i] (f32), target i is i (i64).
type Data<const N: usize> = (Tensor<f32, (Const<N>, Const<3>)>, Tensor<i64, (Const<N>,)>);

fn data<const N: usize>() -> Data<N> {
    let x = (0..N).flat_map(|i| [i as f32, 100.0 + i as f32, 200.0 + i as f32]).collect();
    (Tensor::from_vec(&[N, 3], x), Tensor::from_vec(&[N], (0..N as i64).collect()))
}

/// The targets of every batch of one epoch, checking that each input row is its target's.
fn epoch<SX, SY>(batches: impl Iterator<Item = (Tensor<f32, SX>, Tensor<i64, SY>)>) -> Vec<Vec<i64>>
where
    SX: Shape,
    SY: Shape,
{
    batches
        .map(|(x, y)| {
            let (xs, ys) = (x.to_vec(), y.to_vec());
            assert_eq!(xs.len(), 3 * ys.len());
            for (r, &t) in ys.iter().enumerate() {
                assert_eq!(&xs[3 * r..3 * r + 3], [t as f32, 100.0 + t as f32, 200.0 + t as f32]);
            }
            ys
        })
        .collect()
}

#[test]
fn every_sample_once_per_epoch_with_and_without_drop_last() {
    let (x, y) = data::<10>();
    for (drop_last, sizes) in [(false, vec![4, 4, 2]), (true, vec![4, 4])] {
        let mut loader = DataLoader::new(x.clone(), y.clone(), 4, StdRng::seed_from_u64(1)).drop_last(drop_last);
        assert_eq!(loader.len(), sizes.len());
        let mut orders = Vec::new();
        for e in 1..=5u64 {
            let it = loader.iter();
            assert_eq!(it.len(), sizes.len());
            let batches = epoch(it);
            assert_eq!(batches.iter().map(Vec::len).collect::<Vec<_>>(), sizes, "drop_last {drop_last}");
            let mut all: Vec<i64> = batches.concat();
            // With drop_last the 2 left over are this epoch's last 2 of the order.
            let order: Vec<i64> = loader.order().iter().map(|&i| i as i64).collect();
            assert_eq!(all, order[..all.len()]);
            all.sort();
            if drop_last {
                all.dedup();
                assert_eq!(all.len(), 8);
            } else {
                assert_eq!(all, (0..10).collect::<Vec<i64>>());
            }
            assert_eq!((loader.epoch(), loader.batches_done()), (e, sizes.len()));
            orders.push(order);
        }
        // A new permutation every epoch.
        for w in orders.windows(2) {
            assert_ne!(w[0], w[1]);
        }
    }
    // N a multiple of the batch size: drop_last drops nothing.
    let (x, y) = data::<12>();
    for drop_last in [false, true] {
        let mut loader = DataLoader::new(x.clone(), y.clone(), 4, StdRng::seed_from_u64(1)).drop_last(drop_last);
        let mut all = epoch(loader.iter()).concat();
        all.sort();
        assert_eq!(all, (0..12).collect::<Vec<i64>>());
    }
}

#[test]
fn the_same_seed_gives_the_same_batches() {
    let (x, y) = data::<17>();
    let run = |seed: u64| -> Vec<Vec<Vec<i64>>> {
        let mut loader = DataLoader::new(x.clone(), y.clone(), 5, StdRng::seed_from_u64(seed));
        (0..4).map(|_| epoch(loader.iter())).collect()
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7), run(8));
    // next_batch walks the same batches across epochs.
    let mut loader = DataLoader::new(x.clone(), y.clone(), 5, StdRng::seed_from_u64(7));
    let stream: Vec<Vec<i64>> = (0..16).map(|_| loader.next_batch().unwrap().1.to_vec()).collect();
    assert_eq!(stream, run(7).concat());
    assert_eq!((loader.epoch(), loader.batches_done()), (4, 4));
}

#[test]
fn an_unfinished_epoch_is_continued() {
    let (x, y) = data::<10>();
    let mut loader = DataLoader::new(x, y, 3, StdRng::seed_from_u64(3));
    let first: Vec<i64> = loader.iter().next().unwrap().1.to_vec();
    // The loop stopped after one batch: iter gives the rest of the same epoch.
    let rest = epoch(loader.iter());
    assert_eq!(rest.len(), 3);
    let mut all = [vec![first], rest].concat().concat();
    all.sort();
    assert_eq!(all, (0..10).collect::<Vec<i64>>());
    assert_eq!(loader.epoch(), 1);
    // start_epoch draws a new order even in the middle of one.
    loader.next_batch();
    let before = loader.order().to_vec();
    loader.start_epoch();
    assert_eq!((loader.epoch(), loader.batches_done()), (3, 0));
    assert_ne!(loader.order(), before.as_slice());
}

#[test]
fn batches_are_typed_and_shuffle_false_keeps_the_order() {
    let (x, y) = data::<7>();
    let mut loader = DataLoader::new(x, y, 3, StdRng::seed_from_u64(0)).shuffle(false);
    let (xb, yb) = loader.next_batch().unwrap();
    let _: &Tensor<f32, Shape![_, 3]> = &xb;
    let _: &Tensor<i64, Shape![_]> = &yb;
    let _: &Batch<f32, Shape![7, 3]> = &xb;
    assert_eq!((xb.sizes(), yb.to_vec()), (&[3, 3][..], vec![0, 1, 2]));
    assert_eq!(epoch(loader.iter()), [vec![3, 4, 5], vec![6]]);
    assert_eq!(epoch(loader.iter()), [vec![0, 1, 2], vec![3, 4, 5], vec![6]]);

    // Images [N, 1, 2, 2] with one-hot targets [N, 2]: every trailing dim is kept.
    let imgs = Tensor::<f64, Shape![6, 1, 2, 2]>::from_vec(&[6, 1, 2, 2], (0..24).map(f64::from).collect());
    let onehot = Tensor::<f64, Shape![6, 2]>::from_vec(&[6, 2], (0..12).map(|i| (i % 2) as f64).collect());
    let mut loader = DataLoader::new(imgs, onehot, 4, StdRng::seed_from_u64(0)).drop_last(true);
    let (xb, yb) = loader.next_batch().unwrap();
    let _: &Tensor<f64, Shape![_, 1, 2, 2]> = &xb;
    let _: &Tensor<f64, Shape![_, 2]> = &yb;
    assert_eq!((xb.sizes(), yb.sizes()), (&[4, 1, 2, 2][..], &[4, 2][..]));
    assert_eq!(loader.len(), 1);
}

#[test]
fn invalid_loaders_are_refused() {
    let (x, y) = data::<10>();
    let err = |r: Result<(), ShapeError>, needle: &str| match r {
        Err(ShapeError::Invalid(m)) => assert!(m.contains(needle), "{m}"),
        other => panic!("{other:?}"),
    };
    err(DataLoader::try_new(x.clone(), y.clone(), 0, StdRng::seed_from_u64(0)).map(drop), "batch_size");
    let (_, y9) = data::<9>();
    err(
        DataLoader::try_new(x.clone(), y9, 2, StdRng::seed_from_u64(0)).map(drop),
        "10 inputs [10, 3] but 9 targets [9]",
    );
    let scalar = Tensor::<f32, DynShape>::from_vec(&[], vec![1.0]);
    err(DataLoader::try_new(scalar, y.clone(), 2, StdRng::seed_from_u64(0)).map(drop), "first (sample) dim");
    // An epoch without a batch: next_batch says so instead of looping.
    let mut few = DataLoader::new(x, y, 11, StdRng::seed_from_u64(0)).drop_last(true);
    assert!(few.is_empty());
    assert!(few.next_batch().is_none());
    assert_eq!(few.iter().count(), 0);
}
