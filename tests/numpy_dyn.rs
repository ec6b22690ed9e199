//! The runtime-axis operations of issue 35 against NumPy's answers (`scripts/dyn_api_data.py`
//! writes `tests/data/dyn_api_data.rs`): quantile with the 'linear' rule (infinities and NaN
//! included), kthvalue and the lower median, roll over several axes and flattened, repeat with
//! one count, diag, histc's counts, index_fill with negative entries, index_add with a repeated
//! entry. Each case runs on a `DynShape` tensor and, where a static form exists, on the same
//! data as a `Shape![3, 4, 5]` tensor.
use shaped::prelude::*;

#[path = "data/dyn_api_data.rs"]
mod data;

fn x() -> Tensor<f64, DynShape> {
    Tensor::<f64, DynShape>::from_vec(&[3, 4, 5], data::X.to_vec())
}

/// Equal to within a few ulps, NaN matching NaN and infinities matching exactly.
fn close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (i, (&g, &w)) in got.iter().zip(want).enumerate() {
        let ok = (g.is_nan() && w.is_nan()) || g == w || (g - w).abs() <= 1e-12 * w.abs().max(1.0);
        assert!(ok, "{what}: element {i} is {g}, NumPy gives {w}");
    }
}

#[test]
fn runtime_axis_operations_match_numpy() {
    let x = x();
    let xs: Tensor<f64, Shape![3, 4, 5]> = x.clone().try_into_static().unwrap();
    let rows = |v: &[f64; 12]| Tensor::<f64, DynShape>::from_vec(&[3, 4], v.to_vec());
    let mut seen = std::collections::BTreeSet::new();
    for &(name, args, sizes, want) in data::CASES {
        let what = format!("{name}{args:?}");
        let a = |i: usize| args[i] as isize;
        let got: Tensor<f64, DynShape> = match name {
            "quantile" => {
                let q = x.quantile(args[0], a(1));
                // The keepdim form holds the same values with a size-1 dim.
                assert_eq!(x.quantile_keepdim(args[0], a(1)).to_vec(), q.to_vec(), "{what} keepdim");
                q
            }
            "quantile_inf" => rows(&data::XF).quantile(args[0], a(1)),
            "nanquantile" => rows(&data::XN).nanquantile(args[0], a(1)),
            "kthvalue" => {
                let (v, i) = x.kthvalue(args[0] as usize, a(1));
                // The index points at an element holding the value.
                let back = x.gather(a(1), &i.unsqueeze(a(1)));
                assert_eq!(back.to_vec(), v.to_vec(), "{what} indices");
                v
            }
            "median" => {
                let (v, _) = x.median_axis(a(0));
                assert_eq!(x.median_keepdim(a(0)).0.to_vec(), v.to_vec(), "{what} keepdim");
                v
            }
            "roll_dims" => {
                let k = args.len() / 2;
                let shifts: Vec<isize> = args[..k].iter().map(|&s| s as isize).collect();
                let axes: Vec<isize> = args[k..].iter().map(|&s| s as isize).collect();
                x.roll_dims_dyn(&shifts, &axes)
            }
            "roll_flat" => {
                let r = x.roll_flat(a(0));
                assert_eq!(xs.roll_flat(a(0)).to_vec(), r.to_vec(), "{what} static");
                r.into_dyn()
            }
            "repeat" => x.repeat_interleave_dyn(args[0] as usize, a(1)),
            "repeat_flat" => x.repeat_interleave_flat(args[0] as usize).into_dyn(),
            "diag2" => x.select(0, 0).diag_dyn(a(0)),
            "diag1" => x.select(0, 0).select(0, 0).diag_dyn(a(0)),
            "histc" => {
                // Counts in the element type, as torch.histc.
                x.histc(args[0] as usize, args[1], args[2]).into_dyn()
            }
            "index_fill" => {
                let idx = Tensor::from([args[1] as i64, args[2] as i64, args[3] as i64]);
                x.index_fill(a(0), &idx, 7.5)
            }
            "index_add_src" => continue,
            "index_add" => {
                let (_, _, ssizes, src) = data::CASES
                    .iter()
                    .find(|c| c.0 == "index_add_src" && c.1[0] == args[0])
                    .expect("the source of the index_add case");
                let src = Tensor::<f64, DynShape>::from_vec(ssizes, src.to_vec());
                let idx = Tensor::from([args[1] as i64, args[2] as i64, args[3] as i64, args[4] as i64]);
                x.index_add(a(0), &idx, &src, 1.0)
            }
            other => panic!("no runner for {other}"),
        };
        assert_eq!(got.sizes(), sizes, "{what}: sizes");
        close(&got.to_vec(), want, &what);
        seen.insert(name);
    }
    assert_eq!(seen.len(), 14, "every operation of the fixture ran: {seen:?}");
}
