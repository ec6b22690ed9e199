"""Writes examples/ops_{named,dyn}.rs: the same N operations (an add with a broadcast bias, an
add of two tensors, a batched product, a reduction) on `[Batch, Seq, 4]` tensors with names,
and on `[Dyn, Dyn, 4]` ones with const axes, for comparing `cargo check` times."""
import sys
n = int(sys.argv[1]) if len(sys.argv) > 1 else 250
for kind in ["named", "dyn"]:
    b, s, k = ("Batch", "Seq", "SeqK") if kind == "named" else ("Dyn", "Dyn", "Dyn")
    out = ["#![allow(unused)]", "use named_dims_proto::{dims, Const, Dyn, One, Tensor};", "dims! { Batch, Seq, SeqK }", "fn main() {"]
    out.append(f"    let x = Tensor::<({b}, {s}, Const<4>)>::from_fn(&[2, 3, 4], |i| i as f32).unwrap();")
    out.append(f"    let kt = Tensor::<({b}, Const<4>, {k})>::from_fn(&[2, 4, 3], |i| i as f32).unwrap();")
    out.append("    let bias = Tensor::<(One, One, Const<4>)>::from_fn(&[1, 1, 4], |i| i as f32).unwrap();")
    for i in range(n):
        out.append(f"    let a{i} = x.try_add(&bias).unwrap().try_add(&x).unwrap();")
        out.append(f"    let m{i} = a{i}.try_matmul(&kt).unwrap();")
        if kind == "named":
            out.append(f"    let r{i} = m{i}.sum(Seq);")
        else:
            out.append(f"    let r{i} = m{i}.sum_at::<1>();")
    out.append("}")
    open(f"examples/ops_{kind}.rs", "w").write("\n".join(out) + "\n")
