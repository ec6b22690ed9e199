//! Parameters to and from `.npz` and `.safetensors` files: round trips, a file written by
//! PyTorch, errors that name the format, the file and the tensor and leave the model
//! unchanged, and hostile files (issue 46) refused in bounded time and memory.
use shaped::autograd::{
    load_params_npz, load_safetensors, save_params_npz, save_safetensors, AnyParam, Param, Parameters,
};
use shaped::io::{FileFormat, IoError};
use shaped::prelude::*;
use std::error::Error as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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

fn tmp(name: &str) -> PathBuf {
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

/// The values of a [`model`], to check that a failed load changed nothing.
fn values(m: &Model) -> (Vec<f32>, Vec<f32>) {
    (m.w.value().to_vec(), m.b.value().to_vec())
}

/// The message of a failed load of `path` into a fresh `model(3.0)`, after checking that the
/// model is unchanged.
fn load_err(load: fn(&mut Model, &Path) -> Result<(), IoError>, path: &Path) -> IoError {
    let mut m = model(3.0);
    let e = load(&mut m, path).unwrap_err();
    assert_eq!(values(&m), values(&model(3.0)), "{e}: nothing loaded");
    e
}

fn load_st(m: &mut Model, p: &Path) -> Result<(), IoError> {
    load_safetensors(m, p)
}

fn load_npz(m: &mut Model, p: &Path) -> Result<(), IoError> {
    load_params_npz(m, p)
}

/// The peak resident set of this process (`VmHWM`), in KiB; 0 where `/proc` is missing.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// Runs `f`, returning its result, the time it took and the growth of the peak resident set
/// (MiB) it caused.
fn measured<R>(f: impl FnOnce() -> R) -> (R, Duration, u64) {
    let (hwm, t) = (peak_rss_kib(), Instant::now());
    let r = f();
    let dt = t.elapsed();
    (r, dt, peak_rss_kib().saturating_sub(hwm) >> 10)
}

#[test]
fn errors_name_the_format_the_file_and_the_tensor_and_change_nothing() {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/torch_params.safetensors"));
    let mut t = Transposed { w: Param::new(Tensor::full(7.0)), b: Param::new(Tensor::full(7.0)) };
    let e = load_safetensors(&mut t, path).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(r#"safetensors file {path:?}: tensor "w": shape [2, 3] in the file, the parameter is [3, 2]"#)
    );
    assert!(matches!(&e, IoError::File { format: FileFormat::Safetensors, path: p, .. } if p == path), "{e:?}");
    match e.inner() {
        IoError::Shape(ShapeError::ShapeMismatch { expected, got }) => {
            assert_eq!((&**expected, &got[..]), ("[3, 2]", &[2, 3][..]))
        }
        other => panic!("{other:?}"),
    }
    // The chain of sources: the file, the parameter, the shape error.
    let param = e.source().unwrap();
    assert!(param.to_string().starts_with(r#"parameter "w": shape [2, 3]"#), "{param}");
    assert_eq!(param.source().unwrap().to_string(), "npy shape error: sizes [2, 3] do not match shape [3, 2]");
    assert_eq!((t.w.value().to_vec(), t.b.value().to_vec()), (vec![7.0; 6], vec![7.0; 3]), "nothing loaded");

    // The same through .npz.
    let npz = tmp("err.npz");
    save_params_npz(&mut model(1.0), &npz).unwrap();
    let e = load_params_npz(&mut t, &npz).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(r#"npz file {npz:?}: array "w": shape [2, 3] in the file, the parameter is [3, 2]"#)
    );
    assert!(matches!(e.inner(), IoError::Shape(ShapeError::ShapeMismatch { .. })), "{e:?}");
    assert_eq!((t.w.value().to_vec(), t.b.value().to_vec()), (vec![7.0; 6], vec![7.0; 3]), "nothing loaded");

    // A parameter the file lacks.
    struct Other {
        v: Param<f32, Shape![2]>,
    }
    impl Parameters<f32> for Other {
        fn visit(&mut self, f: &mut dyn FnMut(&str, &mut dyn AnyParam<f32>)) {
            f("v", &mut self.v);
        }
    }
    let e = load_safetensors(&mut Other { v: Param::new(Tensor::zeros()) }, path).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(r#"safetensors file {path:?}: no tensor named "v" (the file holds ["b", "extra", "w"])"#)
    );
    assert!(matches!(e.inner(), IoError::NotFound { name, .. } if name == "v"), "{e:?}");
    let e = load_params_npz(&mut Other { v: Param::new(Tensor::zeros()) }, &npz).unwrap_err();
    assert_eq!(e.to_string(), format!(r#"npz file {npz:?}: no array named "v" (the archive holds ["w", "b"])"#));

    // f64 parameters do not read F32 tensors (no silent conversion).
    struct Wide {
        w: Param<f64, Shape![2, 3]>,
    }
    impl Parameters<f64> for Wide {
        fn visit(&mut self, f: &mut dyn FnMut(&str, &mut dyn AnyParam<f64>)) {
            f("w", &mut self.w);
        }
    }
    let e = load_safetensors(&mut Wide { w: Param::new(Tensor::zeros()) }, path).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(r#"safetensors file {path:?}: tensor "w": dtype F32 in the file, the parameter is F64"#)
    );
    assert!(matches!(e.inner(), IoError::DType { expected, found } if expected == "F64" && found == "F32"));
    let e = load_params_npz(&mut Wide { w: Param::new(Tensor::zeros()) }, &npz).unwrap_err();
    assert_eq!(e.to_string(), format!(r#"npz file {npz:?}: array "w": dtype <f4 in the file, the parameter is <f8"#));
    assert!(matches!(e.inner(), IoError::DType { expected, found } if expected == "<f8" && found == "<f4"));
    std::fs::remove_file(&npz).ok();

    // A path that does not exist: the message names the format and the file.
    let missing = tmp("no-such-dir").join("m.safetensors");
    let e = load_err(load_st, &missing);
    assert_eq!(e.to_string(), format!("safetensors file {missing:?}: No such file or directory (os error 2)"));
    assert!(matches!(e.inner(), IoError::Io(e) if e.kind() == std::io::ErrorKind::NotFound), "{e:?}");
    let e = save_safetensors(&mut model(1.0), &missing).unwrap_err();
    assert_eq!(e.to_string(), format!("safetensors file {missing:?}: No such file or directory (os error 2)"));
    let missing = missing.with_extension("npz");
    let e = load_err(load_npz, &missing);
    assert_eq!(e.to_string(), format!("npz file {missing:?}: No such file or directory (os error 2)"));
    let e = save_params_npz(&mut model(1.0), &missing).unwrap_err();
    assert_eq!(e.to_string(), format!("npz file {missing:?}: No such file or directory (os error 2)"));
}

/// Two parameters of one name.
struct Twice {
    a: Param<f32, Shape![2]>,
    b: Param<f32, Shape![2]>,
}
impl Parameters<f32> for Twice {
    fn visit(&mut self, f: &mut dyn FnMut(&str, &mut dyn AnyParam<f32>)) {
        f("w", &mut self.a);
        f("w", &mut self.b);
    }
}

#[test]
fn saving_two_parameters_of_one_name_is_refused_before_writing() {
    let mut m = Twice { a: Param::new(Tensor::zeros()), b: Param::new(Tensor::zeros()) };
    let p = tmp("twice.safetensors");
    let e = save_safetensors(&mut m, &p).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(r#"safetensors file {p:?}: two parameters are named "w", and the file holds one tensor per name"#)
    );
    assert!(matches!(e.inner(), IoError::DuplicateName(n) if n == "w"), "{e:?}");
    assert!(!p.exists(), "no file written");
    let p = tmp("twice.npz");
    let e = save_params_npz(&mut m, &p).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(r#"npz file {p:?}: two parameters are named "w", and the archive holds one array per name"#)
    );
    assert!(matches!(e.inner(), IoError::DuplicateName(n) if n == "w"), "{e:?}");
    assert!(!p.exists(), "no file written");
}

/// A `.safetensors` file from its JSON header and data section.
fn st_file(header: &str, data: &[u8]) -> Vec<u8> {
    let mut v = (header.len() as u64).to_le_bytes().to_vec();
    v.extend(header.as_bytes());
    v.extend(data);
    v
}

/// The `F32` entry of a tensor in a header.
fn entry(name: &str, shape: &[usize], start: usize, end: usize) -> String {
    format!(r#""{name}":{{"dtype":"F32","shape":{shape:?},"data_offsets":[{start},{end}]}}"#)
}

#[test]
fn hostile_safetensors_files_are_refused() {
    let good = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/torch_params.safetensors")).unwrap();
    let header_len = u64::from_le_bytes(good[..8].try_into().unwrap());
    let data = vec![0u8; 36];
    let (w, b) = (entry("w", &[2, 3], 12, 36), entry("b", &[3], 0, 12));
    // (what, file, the message after `safetensors file "...": `)
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        ("truncated", good[..good.len() - 4].to_vec(), {
            let after = good.len() as u64 - 4 - 8 - header_len;
            format!(r#"tensor "w": data offsets [20, 44] reach past the end of the data section ({after} bytes)"#)
        }),
        ("empty", vec![], "the file is 0 bytes long, shorter than the 8-byte header length".into()),
        ("header length u64::MAX", {
            let mut v = good.clone();
            v[..8].copy_from_slice(&u64::MAX.to_le_bytes());
            v
        }, format!("a header length of {} bytes, more than the limit of 100000000", u64::MAX)),
        ("header length 2^40", {
            let mut v = good.clone();
            v[..8].copy_from_slice(&(1u64 << 40).to_le_bytes());
            v
        }, "a header length of 1099511627776 bytes, more than the limit of 100000000".into()),
        ("header length past the file", {
            let mut v = good.clone();
            v[..8].copy_from_slice(&(good.len() as u64 - 7).to_le_bytes());
            v
        }, format!("a header length of {} bytes, but the file holds {} after it", good.len() - 7, good.len() - 8)),
        ("garbage header", {
            let mut v = good.clone();
            v[8] = b'!';
            v
        }, "invalid JSON header: expected value at line 1 column 1".into()),
        ("not an object", st_file("[1, 2]", &[]), "invalid JSON header: invalid type: sequence, expected a JSON object of tensors at line 1 column 0".into()),
        ("offsets past the end", st_file(&format!("{{{}}}", entry("w", &[1024], 0, 4096)), &data),
            r#"tensor "w": data offsets [0, 4096] reach past the end of the data section (36 bytes)"#.into()),
        ("overlapping offsets", st_file(&format!("{{{},{}}}", entry("b", &[3], 0, 12), entry("w", &[2, 3], 8, 32)), &data[..32]),
            r#"tensor "w": data offsets [8, 32] overlap those of tensor "b", [0, 12]"#.into()),
        ("a tensor inside another", st_file(&format!("{{{},{}}}", entry("w", &[9], 0, 36), entry("b", &[3], 12, 24)), &data),
            r#"tensor "b": data offsets [12, 24] overlap those of tensor "w", [0, 36]"#.into()),
        ("a gap", st_file(&format!("{{{},{}}}", entry("b", &[3], 0, 12), entry("w", &[2, 3], 16, 40)), &[0; 40]),
            r#"tensor "w": data offsets [16, 40] leave a gap after byte 12, where the tensors before end"#.into()),
        ("offsets that do not fit the shape", st_file(&format!("{{{},{}}}", entry("b", &[3], 0, 12), entry("w", &[2, 3], 12, 32)), &data[..32]),
            r#"tensor "w": data offsets [12, 32] hold 20 bytes, shape [2, 3] of F32 needs 24"#.into()),
        ("offsets backwards", st_file(&format!("{{{}}}", entry("w", &[0], 4, 0)), &[]),
            r#"tensor "w": data offsets [4, 0] end before they start"#.into()),
        ("an extra byte", st_file(&format!("{{{b},{w}}}"), &[0; 37]),
            "the data section is not fully covered: the tensors end at byte 36 of it, the file holds 37 bytes after the header".into()),
        ("a duplicate key", st_file(&format!("{{{b},{w},{w}}}"), &data),
            r#"tensor "w": the header names this tensor twice"#.into()),
        ("an unknown dtype", st_file(&format!("{{{b},{}}}", w.replace("F32", "F128")), &data),
            r#"tensor "w": invalid header entry: unknown variant `F128`, expected one of"#.into()),
        ("two __metadata__", st_file(&format!(r#"{{"__metadata__":{{}},{b},{w},"__metadata__":null}}"#), &data),
            "the header has 2 __metadata__ entries".into()),
        ("bad __metadata__", st_file(&format!(r#"{{"__metadata__":{{"a":1}},{b},{w}}}"#), &data),
            "invalid __metadata__ entry in the header: invalid type: integer `1`, expected a string at line 1 column 22".into()),
    ];
    for (what, bytes, want) in cases {
        let path = tmp(&format!("hostile-{}.safetensors", what.replace(' ', "_")));
        std::fs::write(&path, bytes).unwrap();
        let (e, dt, _) = measured(|| load_err(load_st, &path));
        let msg = e.to_string();
        let prefix = format!("safetensors file {path:?}: ");
        assert!(msg.starts_with(&prefix) && msg[prefix.len()..].starts_with(&want), "{what}: {msg}\nwanted {want}");
        assert!(matches!(e.inner(), IoError::Safetensors(_)), "{what}: {e:?}");
        assert!(dt < Duration::from_secs(1), "{what}: {dt:?}");
        std::fs::remove_file(&path).ok();
    }
    // The same header with `__metadata__` and in another key order loads.
    let path = tmp("hostile-ok.safetensors");
    let f32s: Vec<u8> = (0..9).flat_map(|i| (i as f32).to_le_bytes()).collect();
    std::fs::write(&path, st_file(&format!(r#"{{{w}, "__metadata__": {{"format": "pt"}}, {b}}}"#), &f32s)).unwrap();
    let mut m = model(3.0);
    load_safetensors(&mut m, &path).unwrap();
    assert_eq!(values(&m), (vec![3., 4., 5., 6., 7., 8.], vec![0., 1., 2.]));
    std::fs::remove_file(&path).ok();
}

/// Issue 46, item 2: a valid file with a 2 GiB sparse tail is refused from its metadata, in
/// bounded time and memory (the old reader read the whole file first: 2 GiB and seconds).
#[test]
fn safetensors_file_with_a_sparse_2_gib_tail_is_refused_without_reading_it() {
    let path = tmp("sparse-tail.safetensors");
    save_safetensors(&mut model(1.0), &path).unwrap();
    let len = std::fs::metadata(&path).unwrap().len();
    let header_len = u64::from_le_bytes(std::fs::read(&path).unwrap()[..8].try_into().unwrap());
    std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(len + (2 << 30)).unwrap();
    let (e, dt, grew) = measured(|| load_err(load_st, &path));
    std::fs::remove_file(&path).ok();
    eprintln!("sparse tail: {dt:?}, peak RSS +{grew} MiB");
    let data = len - 8 - header_len;
    assert_eq!(
        e.to_string(),
        format!(
            "safetensors file {path:?}: the data section is not fully covered: the tensors end at byte {data} of it, the file holds {} bytes after the header",
            data + (2 << 30)
        )
    );
    assert!(dt < Duration::from_secs(1), "{dt:?}");
    assert!(grew < 100, "peak RSS grew by {grew} MiB");
}

/// A version-1 `.npy` header of `<f4` elements of `shape` (padded to 64 bytes like NumPy's).
fn npy_header(shape: &str) -> Vec<u8> {
    npy_header_of(&format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {shape}, }}"))
}

/// A version-1 `.npy` header of the header dict `dict`.
fn npy_header_of(dict: &str) -> Vec<u8> {
    let mut h = dict.as_bytes().to_vec();
    while !(10 + h.len() + 1).is_multiple_of(64) {
        h.push(b' ');
    }
    h.push(b'\n');
    let mut v = b"\x93NUMPY\x01\x00".to_vec();
    v.extend((h.len() as u16).to_le_bytes());
    v.extend(h);
    v
}

/// The CRC-32 of `bytes`, continuing `crc` (bitwise; for short inputs).
fn crc32(crc: u32, bytes: &[u8]) -> u32 {
    let mut c = !crc;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 { (c >> 1) ^ 0xedb8_8320 } else { c >> 1 };
        }
    }
    !c
}

/// `a * b` modulo the CRC-32 polynomial, in its reflected form (bit 31 is x^0).
fn mul_mod_p(a: u32, mut b: u32) -> u32 {
    let mut p = 0;
    for i in (0..32).rev() {
        if a >> i & 1 != 0 {
            p ^= b;
        }
        b = if b & 1 != 0 { (b >> 1) ^ 0xedb8_8320 } else { b >> 1 };
    }
    p
}

/// The CRC-32 of the bytes of `crc` followed by `n` zero bytes, in O(log n): the register
/// times x^(8n).
fn crc32_zeros(crc: u32, n: u64) -> u32 {
    let (mut x, mut base, mut k) = (1u32 << 31, 1u32 << 30, 8 * n);
    while k != 0 {
        if k & 1 != 0 {
            x = mul_mod_p(base, x);
        }
        base = mul_mod_p(base, base);
        k >>= 1;
    }
    !mul_mod_p(x, !crc)
}

/// Bits written as deflate packs them (from the least significant bit of each byte).
#[derive(Default)]
struct Bits {
    out: Vec<u8>,
    acc: u64,
    n: u32,
}
impl Bits {
    /// The `len` (at most 32) low bits of `value`, least significant first.
    fn put(&mut self, value: u64, len: u32) {
        self.acc |= value << self.n;
        self.n += len;
        while self.n >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }
    /// A Huffman code of `len` bits, most significant first.
    fn code(&mut self, code: u64, len: u32) {
        for i in (0..len).rev() {
            self.put(code >> i & 1, 1);
        }
    }
    fn align(&mut self) {
        if self.n > 0 {
            self.put(0, 8 - self.n);
        }
    }
}

/// A raw deflate stream of `prefix` (a stored block, under 64 KiB) then `zeros` zero bytes (one
/// dynamic-Huffman block whose length-258 code and one distance code are a bit each: 2 bits per
/// 258 bytes, deflate's largest ratio), built in O(zeros / 4096) steps rather than by
/// compressing.
fn deflate_zeros(prefix: &[u8], zeros: u64) -> Vec<u8> {
    let mut b = Bits::default();
    b.put(0, 3); // not the last block, stored
    b.align();
    b.put(prefix.len() as u64, 16);
    b.put(u64::from(!(prefix.len() as u16)), 16);
    for &c in prefix {
        b.put(u64::from(c), 8);
    }
    b.put(1, 1); // the last block
    b.put(2, 2); // dynamic Huffman codes
    b.put(29, 5); // 286 literal/length codes
    b.put(0, 5); // 1 distance code
    b.put(14, 4); // 18 code length codes, in the order of RFC 1951
    for sym in [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1] {
        b.put(
            match sym {
                0 => 1,
                1 | 2 => 2,
                _ => 0,
            },
            3,
        );
    }
    // The code lengths' codes: 0 "0", 1 "10", 2 "11". Literal 0 and end of block get 2 bits
    // ("10", "11"), length 258 (symbol 285) 1 bit ("0"); distance 1 (code 0) 1 bit ("0").
    let length = |b: &mut Bits, len: u32| match len {
        0 => b.code(0, 1),
        1 => b.code(0b10, 2),
        _ => b.code(0b11, 2),
    };
    for sym in 0..286 {
        length(
            &mut b,
            match sym {
                0 | 256 => 2,
                285 => 1,
                _ => 0,
            },
        );
    }
    length(&mut b, 1);
    if zeros > 0 {
        b.code(0b10, 2); // a literal 0
        let (matches, rest) = ((zeros - 1) / 258, (zeros - 1) % 258);
        for _ in 0..matches / 16 {
            b.put(0, 32); // 16 matches "0" + "0"
        }
        b.put(0, 2 * (matches % 16) as u32);
        for _ in 0..rest {
            b.code(0b10, 2);
        }
    }
    b.code(0b11, 2); // end of block
    b.align();
    b.out
}

/// A zip archive of `(name, method, crc, uncompressed size, data)` members (method 0 stored,
/// 8 deflated).
fn zip_archive(members: &[(&str, u16, u32, u32, Vec<u8>)]) -> Vec<u8> {
    fn fields(v: &mut Vec<u8>, method: u16, crc: u32, size: u32, data: &[u8], name: &str) {
        v.extend(20u16.to_le_bytes()); // version needed
        v.extend(0u16.to_le_bytes()); // flags
        v.extend(method.to_le_bytes());
        v.extend([0, 0, 0x21, 0]); // 1980-01-01 00:00
        v.extend(crc.to_le_bytes());
        v.extend((data.len() as u32).to_le_bytes());
        v.extend(size.to_le_bytes());
        v.extend((name.len() as u16).to_le_bytes());
        v.extend(0u16.to_le_bytes()); // extra field length
    }
    let (mut v, mut dir) = (Vec::new(), Vec::new());
    for (name, method, crc, size, data) in members {
        let at = v.len() as u32;
        v.extend(b"PK\x03\x04");
        fields(&mut v, *method, *crc, *size, data, name);
        v.extend(name.as_bytes());
        v.extend(data);
        dir.extend(b"PK\x01\x02");
        dir.extend(20u16.to_le_bytes()); // version made by
        fields(&mut dir, *method, *crc, *size, data, name);
        dir.extend([0; 10]); // comment length, disk, internal and external attributes
        dir.extend(at.to_le_bytes());
        dir.extend(name.as_bytes());
    }
    let at = v.len() as u32;
    v.extend(&dir);
    v.extend(b"PK\x05\x06\0\0\0\0");
    v.extend((members.len() as u16).to_le_bytes());
    v.extend((members.len() as u16).to_le_bytes());
    v.extend((dir.len() as u32).to_le_bytes());
    v.extend(at.to_le_bytes());
    v.extend(0u16.to_le_bytes());
    v
}

/// An `.npz` archive whose member `w` is deflated: an `f32` header of `shape` and `zeros`
/// zero bytes; and whose member `b` holds three stored zeros.
fn npz_of_zeros(shape: &str, zeros: u64) -> Vec<u8> {
    let header = npy_header(shape);
    let w = deflate_zeros(&header, zeros);
    let size = header.len() as u64 + zeros;
    let b = [npy_header("(3,)"), vec![0; 12]].concat();
    zip_archive(&[
        ("w.npy", 8, crc32_zeros(crc32(0, &header), zeros), size as u32, w),
        ("b.npy", 0, crc32(0, &b), b.len() as u32, b.clone()),
    ])
}

/// The hand-made archives of [`npz_member_of_another_shape_is_refused_from_its_header`] are
/// valid: NumPy's layout, deflate stream and CRC-32 check out for a small one.
#[test]
fn hand_made_deflated_npz_reads() {
    for n in [1u64, 7, 258, 259, 1000, 20_000] {
        assert_eq!(crc32_zeros(crc32(0, b"ab"), n), crc32(0, &[&b"ab"[..], &vec![0; n as usize]].concat()), "{n}");
    }
    let path = tmp("hand-made.npz");
    std::fs::write(&path, npz_of_zeros("(5000,)", 20_000)).unwrap();
    let w: Tensor<f32, Shape![5000]> = shaped::io::load_npz(&path, "w").unwrap();
    assert!(w.to_vec().iter().all(|&x| x == 0.0));
    std::fs::remove_file(&path).ok();
}

/// Issue 46, item 2: a deflated member of 1 MiB whose header claims [2^28] f32 (1 GiB, all
/// present as zeros, with the right CRC-32) is refused by its header's shape before anything is
/// decompressed or allocated (the old reader decompressed and copied it whole: +2 GiB of peak
/// memory and over a second in a release build).
#[test]
fn npz_member_of_another_shape_is_refused_from_its_header() {
    let bytes = npz_of_zeros("(268435456,)", 1 << 30);
    assert!(bytes.len() < 1 << 20, "{} bytes", bytes.len());
    let path = tmp("bomb.npz");
    std::fs::write(&path, &bytes).unwrap();
    drop(bytes);
    let (e, dt, grew) = measured(|| load_err(load_npz, &path));
    std::fs::remove_file(&path).ok();
    eprintln!("npz member of [2^28]: {dt:?}, peak RSS +{grew} MiB");
    assert_eq!(
        e.to_string(),
        format!(r#"npz file {path:?}: array "w": shape [268435456] in the file, the parameter is [2, 3]"#)
    );
    assert!(matches!(e.inner(), IoError::Shape(ShapeError::ShapeMismatch { .. })), "{e:?}");
    assert!(dt < Duration::from_secs(1), "{dt:?}");
    assert!(grew < 100, "peak RSS grew by {grew} MiB");
}

/// A parameter's array stored in Fortran order (as `np.save` writes an F-contiguous array)
/// loads in row-major order; its dtype and shape are checked as for C order.
#[test]
fn npz_fortran_order_member_loads_in_row_major_order() {
    // w = [[0, 1, 2], [3, 4, 5]] stored column by column.
    let w: Vec<u8> = [
        npy_header_of("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }"),
        [0f32, 3., 1., 4., 2., 5.].iter().flat_map(|x| x.to_le_bytes()).collect(),
    ]
    .concat();
    let b = [npy_header("(3,)"), [7f32, 8., 9.].iter().flat_map(|x| x.to_le_bytes()).collect()].concat();
    let path = tmp("fortran.npz");
    std::fs::write(
        &path,
        zip_archive(&[
            ("w.npy", 0, crc32(0, &w), w.len() as u32, w.clone()),
            ("b.npy", 0, crc32(0, &b), b.len() as u32, b.clone()),
        ]),
    )
    .unwrap();
    let mut m = model(3.0);
    load_params_npz(&mut m, &path).unwrap();
    assert_eq!(values(&m), (vec![0., 1., 2., 3., 4., 5.], vec![7., 8., 9.]));
    let mut t = Transposed { w: Param::new(Tensor::full(7.0)), b: Param::new(Tensor::full(7.0)) };
    let e = load_params_npz(&mut t, &path).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(r#"npz file {path:?}: array "w": shape [2, 3] in the file, the parameter is [3, 2]"#)
    );
    std::fs::remove_file(&path).ok();
}
