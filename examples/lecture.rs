//! The tensor snippets of François Fleuret's lecture "Deep Learning #2 – PyTorch's Tensors"
//! (IfI Summer School 2018, <http://fleuret.org/ifi/>) with `shaped`: filling and reductions,
//! slicing, random fills, linear-system solving, the "pointwise math" and "math reduction" lists,
//! and `bernoulli_`. Each block quotes the PyTorch it mirrors. The random blocks use a seeded
//! `StdRng`, so the output is the same on every run (the values differ from the lecture's, which
//! came from PyTorch's own generator).
//!
//! Run with `cargo run --example lecture`.
use shaped::prelude::*;
use shaped::rand::rngs::StdRng;
use shaped::rand::SeedableRng;

fn main() -> Result<(), ShapeError> {
    let mut rng = StdRng::seed_from_u64(2018);

    // >>> x = torch.zeros(5)
    // >>> x.fill_(1.125)
    // >>> x.mean(), x.std(), x.sum(), x.sum().item()
    let mut x = Tensor::<f32, Shape![5]>::zeros();
    println!("x.size() = {:?}", x.sizes());
    x.fill_(1.125);
    println!("x = {x}");
    println!("x.mean() = {}", x.mean());
    println!("x.std() = {}", x.std(1)); // PyTorch's default correction is 1
    println!("x.sum() = {}", x.sum());
    assert_eq!((x.mean(), x.std(1), x.sum()), (1.125, 0.0, 5.625));

    // >>> x = torch.empty(3, 2).random_(10)
    // >>> x[0], x[0,:], x[:,0]
    let x = Tensor::<i64, Shape![3, 2]>::randint(0, 10, &mut rng).cast::<f32>();
    println!("x = {x}");
    println!("x[0] = {}", t!(x[0]));
    println!("x[0,:] = {}", t!(x[0, ..]));
    println!("x[:,0] = {}", t!(x[.., 0]));

    // >>> y = torch.empty(3).normal_()
    // >>> m = torch.empty(3, 3).normal_()
    // >>> q, _ = torch.gels(y, m)       (torch.linalg.lstsq(m, y) today)
    // >>> torch.mm(m, q)                (gives back y)
    let mut y = Tensor::<f64, Shape![3, 1]>::zeros();
    y.normal_(0.0, 1.0, &mut rng);
    let mut m = Tensor::<f64, Shape![3, 3]>::zeros();
    m.normal_(0.0, 1.0, &mut rng);
    let q = m.lstsq(&y).solution;
    let back = m.matmul(&q);
    println!("y = {}", y.t());
    println!("torch.mm(m, q) = {}", back.t());
    assert!(back.allclose(&y, 1e-9, 1e-12));

    // BLAS and LAPACK operations: torch.eig, torch.gels, torch.inverse, torch.mm, torch.mv
    // (torch.linalg.eig, lstsq, inv, matmul today).
    // >>> a = torch.tensor([[2., 1.], [1., 3.]])
    // >>> torch.eig(a, eigenvectors=False)     (torch.linalg.eigvals(a))
    let a: Tensor<f64, Shape![2, 2]> = Tensor::from([[2.0, 1.0], [1.0, 3.0]]);
    let w = a.eigvals();
    println!("torch.eig(a) = {w}");
    // A rotation has complex eigenvalues: ±i.
    let r: Tensor<f64, Shape![2, 2]> = Tensor::from([[0.0, -1.0], [1.0, 0.0]]);
    let (wr, vr) = r.eig();
    println!("torch.linalg.eig(r) = ({wr}, {vr})");
    assert!(wr.iter().all(|z| z.re.abs() < 1e-12 && (z.im.abs() - 1.0).abs() < 1e-12));
    // >>> torch.inverse(a), torch.mm(a, torch.inverse(a))
    let ai = a.inv();
    println!("torch.inverse(a) = {ai}");
    let id = a.matmul(&ai);
    println!("torch.mm(a, torch.inverse(a)) = {id}");
    assert!(id.allclose(&Tensor::<f64, Shape![2, 2]>::eye(), 1e-12, 1e-12));
    // >>> v = torch.tensor([1., -1.]); torch.mv(a, v)
    let v: Tensor<f64, Shape![2]> = Tensor::from([1.0, -1.0]);
    let av = a.mv(&v);
    println!("torch.mv(a, v) = {av}");
    assert_eq!(av.to_vec(), vec![1.0, -2.0]);
    // >>> q, _ = torch.gels(v, a)   (a solve: the system is square), and the rank-deficient case
    let q = a.lstsq(&v).solution;
    println!("torch.gels(v, a) = {q}");
    assert!(a.mv(&q).allclose(&v, 1e-12, 1e-12));
    let singular: Tensor<f64, Shape![2, 2]> = Tensor::from([[1.0, 2.0], [2.0, 4.0]]);
    println!("torch.inverse(singular) -> {}", singular.try_inv().unwrap_err());
    let ls = singular.lstsq(&v);
    println!("lstsq(singular, v): minimum-norm solution {}, rank {}", ls.solution, ls.rank);

    // Pointwise math: torch.abs, torch.add, torch.cos, torch.sigmoid (+ many operators).
    let a = Tensor::<f32, Shape![2, 3]>::randn(&mut rng);
    let b = Tensor::<f32, Shape![3]>::rand(&mut rng);
    println!("a = {a}");
    println!("a.abs() = {}", a.abs());
    println!("a + b = {}", &a + &b); // broadcast [2, 3] + [3]
    println!("a.cos() = {}", a.cos());
    println!("a.sigmoid() = {}", a.sigmoid());
    println!("-a * 2 + 1 = {}", -&a * 2.0 + 1.0);

    // Math reduction: torch.dist(a, b, p=2), torch.mean, torch.norm, torch.std, torch.sum.
    println!("dist(a, b) = {}", a.dist(&b, Norm::L2));
    println!("a.mean() = {}", a.mean());
    println!("a.norm() = {}", a.norm(Norm::L2));
    println!("a.std() = {}", a.std(1));
    println!("a.sum() = {}", a.sum());
    println!("a.sum(dim=1) = {}", a.sum_axis(Ax::<1>));
    println!("a.max(dim=0) = {}, argmax = {}", a.max_axis(Ax::<0>), a.argmax_axis(Ax::<0>));
    assert!((a.dist(&b, Norm::L2) - (&a - &b).norm(Norm::L2)).abs() < 1e-6);

    // Filling: Tensor.bernoulli_(p), torch.normal_().
    let mut coins = Tensor::<f32, Shape![2, 8]>::zeros();
    coins.bernoulli_(0.5, &mut rng);
    println!("coins = {coins}");
    println!("heads = {} of {}", coins.count_nonzero(), coins.numel());

    // A softmax over the last axis, rows summing to 1.
    let p = a.softmax(Ax::<1>);
    println!("a.softmax(dim=1) = {p}");
    assert!(p.sum_axis(Ax::<1>).allclose(&Tensor::from([1.0f32, 1.0]), 1e-5, 1e-6));
    Ok(())
}
