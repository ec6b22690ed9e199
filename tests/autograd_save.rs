//! Parameters to and from `.npz` and `.safetensors` files: round trips, a file written by
//! PyTorch, and errors that name the tensor and leave the model unchanged.
use shaped::autograd::{
    load_params_npz, load_safetensors, save_params_npz, save_safetensors, AnyParam, Param, Parameters,
};
use shaped::io::IoError;
use shaped::prelude::*;

struct Model {
    w: Param<f32, Shape![2, 3]>,
    b: Param<f32, Shape![3]>,
}
impl Parameters<f32> for Model {
    fn visit(&mut self, f: &mut dyn FnMut(&str, &mut dyn AnyParam<f32>)) {
        f("w", &mut self.w);
        f("b", &mut self.b);
    }
}
fn model(k: f32) -> Model {
    Model {
        w: Param::new(Tensor::from_vec(&[2, 3], (0..6).map(|i| i as f32 * k).collect())),
        b: Param::new(Tensor::from_vec(&[3], vec![k; 3])),
    }
}

/// The same names with other shapes.
struct Transposed {
    w: Param<f32, Shape![3, 2]>,
    b: Param<f32, Shape![3]>,
}
impl Parameters<f32> for Transposed {
    fn visit(&mut self, f: &mut dyn FnMut(&str, &mut dyn AnyParam<f32>)) {
        f("w", &mut self.w);
        f("b", &mut self.b);
    }
}

fn tmp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("shaped-autograd-save-{}-{name}", std::process::id()))
}

#[test]
fn npz_and_safetensors_round_trip() {
    for (i, kind) in ["npz", "safetensors"].iter().enumerate() {
        let path = tmp(&format!("rt{i}.{kind}"));
        let mut a = model(0.5);
        let mut b = model(0.0);
        if *kind == "npz" {
            save_params_npz(&mut a, &path).unwrap();
            load_params_npz(&mut b, &path).unwrap();
        } else {
            save_safetensors(&mut a, &path).unwrap();
            load_safetensors(&mut b, &path).unwrap();
        }
        assert_eq!(b.w.value().to_vec(), a.w.value().to_vec());
        assert_eq!(b.b.value().to_vec(), [0.5; 3]);
        std::fs::remove_file(&path).ok();
    }
}

#[test]
fn a_file_written_by_pytorch_loads() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/torch_params.safetensors");
    let mut m = model(0.0);
    load_safetensors(&mut m, path).unwrap();
    assert_eq!(m.w.value().to_vec(), [0.0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    assert_eq!(m.b.value().to_vec(), [1.0, 2.0, 3.0]);
}

#[test]
fn errors_name_the_tensor_and_change_nothing() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/torch_params.safetensors");
    let mut t = Transposed { w: Param::new(Tensor::full(7.0)), b: Param::new(Tensor::full(7.0)) };
    let e = load_safetensors(&mut t, path).unwrap_err();
    let msg = e.to_string();
    assert!(msg.starts_with("safetensors tensor \"w\"") && msg.contains("[2, 3]") && msg.contains("[3, 2]"), "{msg}");
    assert!(matches!(e.inner(), IoError::Shape(_)));
    assert_eq!((t.w.value().to_vec(), t.b.value().to_vec()), (vec![7.0; 6], vec![7.0; 3]), "nothing loaded");

    // The same through .npz.
    let npz = tmp("err.npz");
    save_params_npz(&mut model(1.0), &npz).unwrap();
    let msg = load_params_npz(&mut t, &npz).unwrap_err().to_string();
    assert!(msg.starts_with("npz member \"w\"") && msg.contains("[2, 3]"), "{msg}");
    std::fs::remove_file(&npz).ok();

    // A parameter the file lacks.
    struct Other {
        v: Param<f32, Shape![2]>,
    }
    impl Parameters<f32> for Other {
        fn visit(&mut self, f: &mut dyn FnMut(&str, &mut dyn AnyParam<f32>)) {
            f("v", &mut self.v);
        }
    }
    let msg = load_safetensors(&mut Other { v: Param::new(Tensor::zeros()) }, path).unwrap_err().to_string();
    assert!(msg.contains("\"v\""), "{msg}");

    // f64 parameters do not read F32 tensors (no silent conversion).
    struct Wide {
        w: Param<f64, Shape![2, 3]>,
    }
    impl Parameters<f64> for Wide {
        fn visit(&mut self, f: &mut dyn FnMut(&str, &mut dyn AnyParam<f64>)) {
            f("w", &mut self.w);
        }
    }
    let msg = load_safetensors(&mut Wide { w: Param::new(Tensor::zeros()) }, path).unwrap_err().to_string();
    assert!(msg.contains("\"w\"") && msg.contains("F32") && msg.contains("F64"), "{msg}");
}

#[test]
fn hostile_safetensors_files_are_refused() {
    let good = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/torch_params.safetensors")).unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", good[..good.len() - 4].to_vec()),
        ("empty", vec![]),
        ("header length past the file", {
            let mut v = good.clone();
            v[..8].copy_from_slice(&(1u64 << 40).to_le_bytes());
            v
        }),
        ("garbage header", {
            let mut v = good.clone();
            v[8] = b'!';
            v
        }),
    ];
    for (what, bytes) in cases {
        let path = tmp(&format!("hostile-{}.safetensors", what.replace(' ', "_")));
        std::fs::write(&path, bytes).unwrap();
        let mut m = model(3.0);
        let e = load_safetensors(&mut m, &path).unwrap_err();
        assert!(matches!(e, IoError::Safetensors(_)), "{what}: {e}");
        assert_eq!(m.b.value().to_vec(), [3.0; 3], "{what}: nothing loaded");
        std::fs::remove_file(&path).ok();
    }
}
