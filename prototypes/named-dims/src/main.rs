//! What compiles, what runs, and (with `--features err_*`) what must not compile.
use named_dims_proto::{dims, Const, Dyn, Linear, One, Prod, Tensor};

dims! {
    /// The batch.
    Batch,
    /// The sequence (queries).
    Seq,
    /// The keys' sequence: same runtime size as `Seq` in self-attention, another name.
    SeqK
}

fn main() {
    // Element-wise: a name meets itself, `Dyn` and a broadcast `One`; names are kept.
    let x = Tensor::<(Batch, Seq, Const<4>)>::from_fn(&[2, 3, 4], |i| i as f32).unwrap();
    let bias = Tensor::<(One, One, Const<4>)>::from_fn(&[1, 1, 4], |i| i as f32).unwrap();
    let y: Tensor<(Batch, Seq, Const<4>)> = x.try_add(&bias).unwrap();
    let anon = Tensor::<(Dyn, Dyn, Const<4>)>::from_fn(&[2, 3, 4], |_| 1.0).unwrap();
    let z: Tensor<(Batch, Seq, Const<4>)> = y.try_add(&anon).unwrap();
    // The same name with two runtime sizes: an error at run time naming it.
    let short = Tensor::<(Batch, Seq, Const<4>)>::from_fn(&[2, 5, 4], |_| 0.0).unwrap();
    println!("{:?}", z.try_add(&short).unwrap_err());

    // A reduction by name: the position is found in the type; the other dims keep theirs.
    let s: Tensor<(Batch, Const<4>)> = z.sum(Seq);
    let b: Tensor<(Seq, Const<4>)> = z.sum(Batch);
    println!("sum over Seq: {:?}; over Batch: {:?}", s.sizes(), b.sizes());

    // Attention scores with two sequence names: `[Batch, Seq, SeqK] @ [Batch, SeqK, 4]`.
    let q = Tensor::<(Batch, Seq, Const<4>)>::from_fn(&[2, 3, 4], |i| (i % 5) as f32).unwrap();
    let k = Tensor::<(Batch, SeqK, Const<4>)>::from_fn(&[2, 3, 4], |i| (i % 3) as f32).unwrap();
    let v = Tensor::<(Batch, SeqK, Const<4>)>::from_fn(&[2, 3, 4], |i| (i % 7) as f32).unwrap();
    let scores: Tensor<(Batch, Seq, SeqK)> = q.try_matmul(&k.transpose_last()).unwrap();
    let out: Tensor<(Batch, Seq, Const<4>)> = scores.try_matmul(&v).unwrap();
    println!("attention out {:?}", out.sizes());

    // Flatten keeps both names in a product dim; unflatten takes it apart by them.
    let flat: Tensor<(Prod<Batch, Seq>, Const<4>)> = out.flatten01();
    let back: Tensor<(Batch, Seq, Const<4>)> = flat.try_unflatten0(3).unwrap();
    println!("flatten {:?} -> unflatten {:?}", flat.sizes(), back.sizes());

    // A product of static sizes meets the next layer's static input size (16 * 4 = 64).
    let conv_out = Tensor::<(Batch, Const<16>, Const<4>)>::from_fn(&[2, 16, 4], |_| 1.0).unwrap();
    let h: Tensor<(Batch, Const<8>)> = Linear::<64, 8>.forward(&conv_out.flatten12());
    println!("linear {:?}", h.sizes());

    #[cfg(feature = "err_mix_names")]
    {
        // `[Batch, Seq] + [Seq, Batch]`: two names meet.
        let a = Tensor::<(Batch, Seq)>::from_fn(&[3, 3], |_| 0.0).unwrap();
        let b = Tensor::<(Seq, Batch)>::from_fn(&[3, 3], |_| 0.0).unwrap();
        let _ = a.try_add(&b);
    }
    #[cfg(feature = "err_matmul_names")]
    {
        // Batch dims of two names in a batched product.
        let a = Tensor::<(Batch, Seq, Const<4>)>::from_fn(&[2, 3, 4], |_| 0.0).unwrap();
        let b = Tensor::<(Seq, Const<4>, Const<2>)>::from_fn(&[2, 4, 2], |_| 0.0).unwrap();
        let _ = a.try_matmul(&b);
    }
    #[cfg(feature = "err_transposed_scores")]
    {
        // The scores transposed by mistake: `[Batch, SeqK, Seq] @ [Batch, SeqK, 4]`.
        let _ = scores.transpose_last().try_matmul(&v);
    }
    #[cfg(feature = "err_absent_name")]
    {
        let _ = s.sum(Seq);
    }
    #[cfg(feature = "err_name_twice")]
    {
        // `[Batch, Seq, Seq]`: which `Seq`?
        let twice = Tensor::<(Batch, Seq, Seq)>::from_fn(&[2, 3, 3], |_| 0.0).unwrap();
        let _ = twice.sum(Seq);
    }
    #[cfg(feature = "err_name_vs_static")]
    {
        let a = Tensor::<(Batch, Const<4>)>::from_fn(&[2, 4], |_| 0.0).unwrap();
        let b = Tensor::<(Const<2>, Const<4>)>::from_fn(&[2, 4], |_| 0.0).unwrap();
        let _ = a.try_add(&b);
    }
    #[cfg(feature = "err_flatten_wrong")]
    {
        // 16 * 4 = 64 flattened into a layer that takes 60.
        let _ = Linear::<60, 8>.forward(&conv_out.flatten12());
    }
}
