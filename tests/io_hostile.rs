//! Hostile `.npy`/`.npz` input (issue 25): every read returns within a time bound, with bounded
//! memory, as `Ok` with the right values or an `Err`, never a hang, a panic or an abort. One
//! regression test per reported file, then a proptest fuzzer of mutated files. Needs
//! `--features npy`.
mod common;
use proptest::prelude::*;
use shaped::io::{IoError, NpzReader, NpzWriter};
use shaped::prelude::*;
use std::io::{Cursor, Write};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// The time any single read may take (the fuzzed files are a few KB at most).
const BOUND: Duration = Duration::from_secs(1);

/// Runs `f` and asserts it returned within [`BOUND`].
fn timed<R>(what: &str, f: impl FnOnce() -> R) -> R {
    let t = Instant::now();
    let r = f();
    let dt = t.elapsed();
    assert!(dt < BOUND, "{what} took {dt:?}");
    r
}

/// A version-1 `.npy` file from a header dict and data bytes (padded to 64 bytes like NumPy).
fn raw_npy(dict: &str, data: &[u8]) -> Vec<u8> {
    raw_npy_version(1, dict.as_bytes(), data)
}

/// A `.npy` file of `version` (1: 2-byte header length, 2 and 3: 4-byte) from a header and data.
fn raw_npy_version(version: u8, dict: &[u8], data: &[u8]) -> Vec<u8> {
    let pre = if version == 1 { 10 } else { 12 };
    let mut h = dict.to_vec();
    while !(pre + h.len() + 1).is_multiple_of(64) {
        h.push(b' ');
    }
    h.push(b'\n');
    let mut v = vec![0x93, b'N', b'U', b'M', b'P', b'Y', version, 0];
    if version == 1 {
        v.extend((h.len() as u16).to_le_bytes());
    } else {
        v.extend((h.len() as u32).to_le_bytes());
    }
    v.extend(h);
    v.extend(data);
    v
}

fn f32_bytes(xs: &[f32]) -> Vec<u8> {
    xs.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn read_le_f32(bytes: &[u8]) -> Vec<f32> {
    bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// An `.npz` archive holding the given members (`name.npy` entries with raw contents).
fn raw_npz(members: &[(&str, &[u8])], deflate: bool) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let method = if deflate { zip::CompressionMethod::Deflated } else { zip::CompressionMethod::Stored };
    for (name, bytes) in members {
        zip.start_file(format!("{name}.npy"), zip::write::SimpleFileOptions::default().compression_method(method))
            .unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn read_f32(bytes: &[u8]) -> Result<Tensor<f32, DynShape>, IoError> {
    timed("read_npy", || Tensor::<f32, DynShape>::read_npy(bytes))
}

fn read_npz_f32(bytes: &[u8], name: &str) -> Result<Tensor<f32, DynShape>, IoError> {
    timed("npz read", || NpzReader::new(Cursor::new(bytes))?.read(name))
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shaped-io-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `n` nested lists: `[[[...]]]`.
fn nested(n: usize) -> String {
    "[".repeat(n) + &"]".repeat(n)
}

/// Reruns the test `name` of this binary in a child process under `ulimit -v kib` (with
/// `SHAPED_HOSTILE_CHILD=1`, so that the child does the work) and asserts that it passed.
fn in_limited_child(name: &str, kib: u64) {
    let exe = std::env::current_exe().unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" --exact {name} --test-threads=1 --nocapture"))
        .arg(&exe)
        .env("SHAPED_HOSTILE_CHILD", "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && text.contains("1 passed"), "child {name} failed ({:?}):\n{text}", out.status);
}

fn is_child() -> bool {
    std::env::var_os("SHAPED_HOSTILE_CHILD").is_some()
}

// ---------------------------------------------------------------- 1. exponential header parse

#[test]
fn deeply_nested_header_value_is_rejected_quickly() {
    // 196 bytes: an extra key whose value nests 40 lists (npyz's grammar took 2^40 steps).
    let dict = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': {}}}", nested(40));
    let bytes = raw_npy(&dict, &f32_bytes(&[1., 2.]));
    assert!(bytes.len() <= 196 + 64);
    let e = read_f32(&bytes).unwrap_err();
    assert!(e.to_string().contains("unknown key 'x'"), "{e}");
    // Nesting inside a known key's value, and unbalanced brackets.
    for dict in [
        format!("{{'descr': {}, 'fortran_order': False, 'shape': (2,), }}", nested(40)),
        format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {}, }}", nested(40)),
        format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({}2,), }}", "(".repeat(40)),
        format!("{{'descr': '<f4', 'fortran_order': {}, 'shape': (2,), }}", "[".repeat(3000)),
    ] {
        assert!(read_f32(&raw_npy(&dict, &f32_bytes(&[1., 2.]))).is_err(), "{dict}");
    }
}

#[test]
fn header_keys_are_exactly_numpys_three() {
    let data = f32_bytes(&[1., 2.]);
    let ok = |dict: &str| read_f32(&raw_npy(dict, &data)).map(|t| (t.sizes().to_vec(), t.to_vec()));
    let want = Some((vec![2usize], vec![1f32, 2.]));
    // Accepted spellings: any key order, either quote, no trailing comma, free whitespace, a
    // Python 2 `L` suffix (NumPy's reader filters it from version 1 headers).
    for dict in [
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
        "{'shape': (2,), 'descr': '<f4', 'fortran_order': False}",
        "{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (2,)}",
        " {\n'descr' :'<f4' ,\t'fortran_order':False,'shape':( 2 , ) , } ",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2L,), }",
    ] {
        assert_eq!(ok(dict).ok(), want, "{dict}");
    }
    // Rejected: unknown, missing and duplicate keys, trailing text, non-dicts.
    for dict in [
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1, }",
        "{'descr': '<f4', 'shape': (2,), }",
        "{'descr': '<f4', 'fortran_order': False, 'fortran_order': False, 'shape': (2,), }",
        "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }}",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), ,}",
        "{'descr': '<f4' 'fortran_order': False, 'shape': (2,), }",
        "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }",
        "{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2,), }",
        "{'descr': '<f4', 'fortran_order': None, 'shape': (2,), }",
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), ",
        "{'descr': '<f4, 'fortran_order': False, 'shape': (2,), }",
        "{descr: '<f4', 'fortran_order': False, 'shape': (2,), }",
        "['descr', '<f4']",
        "",
    ] {
        assert!(ok(dict).is_err(), "{dict:?} was accepted");
    }
}

// ---------------------------------------------------------------- 2. allocation from the header

#[test]
fn claimed_count_beyond_the_data_is_an_error_before_allocating() {
    // 2^38 f32 = 2^40 bytes claimed, 8 present: from a file (whose size is known) the claim is
    // refused before any allocation; from a stream, the read fails where the data ends.
    let bytes = raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (274877906944,), }", &[0; 8]);
    let p = tmp("claims-2-40.npy");
    std::fs::write(&p, &bytes).unwrap();
    let e = timed("load_npy", || Tensor::<f32, DynShape>::load_npy(&p)).unwrap_err();
    assert!(e.to_string().contains("1099511627776 bytes"), "{e}");
    let e = read_f32(&bytes).unwrap_err();
    assert!(e.to_string().contains("ends after 2 of 274877906944 elements"), "{e}");
    // As an npz member (stored and deflated): the member's size bounds the claim.
    for deflate in [false, true] {
        let npz = raw_npz(&[("a", &bytes)], deflate);
        let e = read_npz_f32(&npz, "a").unwrap_err();
        assert!(e.to_string().contains("1099511627776 bytes"), "{e}");
    }
    // A count whose byte count overflows isize.
    let bytes = raw_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }", &[]);
    assert!(matches!(read_f32(&bytes), Err(IoError::Shape(_) | IoError::DType { .. })));
    let e = timed("read", || Tensor::<f64, DynShape>::read_npy(&bytes[..])).unwrap_err();
    assert!(matches!(e, IoError::Shape(_)), "{e}");
}

/// A zip member whose directory claims more bytes than its data holds: the read stops with an
/// error where the data ends (the directory's size is never trusted beyond the reading).
#[test]
fn npz_member_shorter_than_its_directory_size_is_an_error() {
    // The header claims 2048 elements, the member holds 1024.
    let npy = raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2048,), }", &f32_bytes(&[1.5; 1024]));
    for deflate in [false, true] {
        let mut npz = raw_npz(&[("a", &npy)], deflate);
        assert!(read_npz_f32(&npz, "a").is_err());
        // The uncompressed size in the central directory (offset 24 of its entry) grows by 4 KB,
        // to what the header claims.
        let cd = npz.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
        let size = u32::from_le_bytes(npz[cd + 24..cd + 28].try_into().unwrap());
        npz[cd + 24..cd + 28].copy_from_slice(&(size + 4096).to_le_bytes());
        let e = read_npz_f32(&npz, "a").unwrap_err();
        if deflate {
            assert!(e.to_string().contains("ends after 1024 of 2048 elements"), "{e}");
        }
    }
}

/// The child half of [`sparse_file_claiming_2_gib_gives_an_alloc_error_under_a_1_gib_limit`].
#[test]
fn child_sparse_alloc() {
    if !is_child() {
        return;
    }
    // 2^29 f32 (2 GiB) of data, as a sparse file: the bytes are there, the memory is not.
    let p = tmp("sparse-2gib.npy");
    let mut bytes = raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (536870912,), }", &[]);
    let header = bytes.len() as u64;
    bytes.truncate(header as usize);
    std::fs::write(&p, &bytes).unwrap();
    std::fs::OpenOptions::new().write(true).open(&p).unwrap().set_len(header + (1 << 31)).unwrap();
    let r = timed("load_npy", || Tensor::<f32, DynShape>::load_npy(&p));
    std::fs::remove_file(&p).unwrap();
    let e = r.map(|t| t.sizes().to_vec()).unwrap_err();
    assert!(e.to_string().starts_with(&format!("npy file {p:?}: out of memory")), "{e}");
    match e.inner() {
        IoError::Shape(ShapeError::Alloc { count, elem_size }) => assert_eq!((*count, *elem_size), (1 << 29, 4)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn sparse_file_claiming_2_gib_gives_an_alloc_error_under_a_1_gib_limit() {
    in_limited_child("child_sparse_alloc", 1 << 20);
}

/// The child half of [`npz_bomb_gives_an_alloc_error_under_a_512_mib_limit`].
#[test]
fn child_npz_bomb() {
    if !is_child() {
        return;
    }
    // A deflated member whose header claims 2^28 f32 (1 GiB) and whose directory claims that
    // size too, with ~1.1 MB of compressed data (within deflate's 1032:1 ratio of the claim).
    // Random bytes (rand's `SmallRng`, fixed seed) do not compress.
    use rand::{rngs::SmallRng, RngExt, SeedableRng};
    let mut rng = SmallRng::seed_from_u64(0x2545_f491_4f6c_dd1d);
    let body: Vec<u8> = (0..4 * ((1 << 18) + 4096)).map(|_| rng.random::<u8>()).collect();
    let npy = raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (268435456,), }", &body);
    let mut npz = raw_npz(&[("a", &npy)], true);
    let cd = npz.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
    npz[cd + 24..cd + 28].copy_from_slice(&((1u32 << 30) + 128).to_le_bytes());
    let e = read_npz_f32(&npz, "a").map(|t| t.sizes().to_vec()).unwrap_err();
    assert!(e.to_string().starts_with(r#"npz member "a": out of memory"#), "{e}");
    match e.inner() {
        IoError::Shape(ShapeError::Alloc { count, elem_size }) => assert_eq!((*count, *elem_size), (1 << 28, 4)),
        other => panic!("{other}"),
    }
}

#[test]
fn npz_bomb_gives_an_alloc_error_under_a_512_mib_limit() {
    in_limited_child("child_npz_bomb", 1 << 19);
}

// ---------------------------------------------------------------- 3. the header length

/// The child half of [`header_length_is_capped_before_allocating`].
#[test]
fn child_header_length() {
    if !is_child() {
        return;
    }
    // 12 bytes: a version 2 preamble claiming a 4 GiB header.
    let bytes = b"\x93NUMPY\x02\x00\xff\xff\xff\xff";
    let e = read_f32(bytes).unwrap_err();
    assert!(e.to_string().contains("4294967295") && e.to_string().contains("10000"), "{e}");
}

#[test]
fn header_length_is_capped_before_allocating() {
    in_limited_child("child_header_length", 1 << 20);
    // In process too, and the cap at NumPy's 10000 bytes (a 9 KB header is fine).
    let e = read_f32(b"\x93NUMPY\x02\x00\xff\xff\xff\xff").unwrap_err();
    assert!(e.to_string().contains("header of 4294967295 bytes"), "{e}");
    let long = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({}1,), }}", " ".repeat(9000));
    assert_eq!(read_f32(&raw_npy_version(2, long.as_bytes(), &f32_bytes(&[7.]))).unwrap().to_vec(), [7.]);
    let long = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({}1,), }}", " ".repeat(10000));
    assert!(read_f32(&raw_npy_version(2, long.as_bytes(), &f32_bytes(&[7.]))).is_err());
    // Versions other than 1.0, 2.0, 3.0 are refused as NumPy does.
    let mut v = raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", &f32_bytes(&[7.]));
    v[7] = 1;
    assert!(read_f32(&v).is_err());
    v[7] = 0;
    v[6] = 4;
    assert!(read_f32(&v).is_err());
}

// ---------------------------------------------------------------- 4. shapes

#[test]
fn shapes_are_tuples_of_decimal_counts_that_fit() {
    let bad = [
        // A list (NumPy's reader requires a tuple), hex and other literals, signs.
        "[4294967296, 4294967296]",
        "[2]",
        "(0x100000000, 0x100000000)",
        "(0x2,)",
        "(2.0,)",
        "(-2,)",
        "(+2,)",
        "(True,)",
        "('2',)",
        "(02,)",
        "(2)",
        "(2,,)",
        "(,)",
        "2",
        "(1_0,)",
        // Products that overflow u64, usize, isize, and the byte count.
        "(4294967296, 4294967296)",
        "(18446744073709551616,)",
        "(99999999999999999999999999,)",
        "(3037000500, 3037000500)",
        "(2305843009213693952,)",
    ];
    for shape in bad {
        let dict = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {shape}, }}");
        assert!(read_f32(&raw_npy(&dict, &f32_bytes(&[1., 2.]))).is_err(), "{shape} was accepted");
    }
    // A duplicate 'shape' key whose second value overflows.
    let dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'shape': [4294967296, 4294967296], }";
    assert!(read_f32(&raw_npy(dict, &f32_bytes(&[1., 2.]))).is_err());
    // Good ones: rank 0, an empty dim, rank 2.
    let t = read_f32(&raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", &f32_bytes(&[3.]))).unwrap();
    assert_eq!((t.sizes(), t.to_vec()), (&[][..], vec![3.]));
    let dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4294967296), }";
    assert_eq!(read_f32(&raw_npy(dict, &[])).unwrap().sizes(), [0, 4294967296]);
    let t = read_f32(&raw_npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", &f32_bytes(&[1., 2.])));
    assert_eq!(t.unwrap().sizes(), [1, 2]);
}

// ---------------------------------------------------------------- 5. bounded messages

#[test]
fn error_messages_echo_a_bounded_part_of_the_header() {
    // A 400 KB header (refused by its length), a 9 KB one (refused by its grammar) and a 9 KB
    // descr (refused as a dtype): every message stays short.
    let deep = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': {}}}", nested(200_000));
    let garbage = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': (2,{}), }}", "x".repeat(9000));
    let descr = format!("{{'descr': '{}', 'fortran_order': False, 'shape': (2,), }}", "<".repeat(9000));
    for dict in [deep, garbage, descr] {
        let e = read_f32(&raw_npy_version(2, dict.as_bytes(), &f32_bytes(&[1., 2.]))).unwrap_err();
        let msg = e.to_string();
        assert!(msg.len() < 600, "{} bytes: {}", msg.len(), &msg[..600]);
    }
}

// ---------------------------------------------------------------- 6. object dtype

#[test]
fn object_dtype_is_named_in_the_error() {
    // What np.save writes for np.array([None, 1], dtype=object) (the pickle follows).
    let bytes = raw_npy("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", b"\x80\x04\x95");
    match read_f32(&bytes) {
        Err(e @ IoError::DType { .. }) => {
            let IoError::DType { expected, found } = &e else { unreachable!() };
            assert_eq!((&**expected, &**found), ("<f4", "|O"));
            assert!(e.to_string().contains("object arrays"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    // A structured dtype (a list descr) is a dtype error too.
    let bytes = raw_npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", &[0; 8]);
    assert!(matches!(read_f32(&bytes), Err(IoError::DType { .. })));
}

// ---------------------------------------------------------------- 7. npz checksums

#[test]
fn npz_crc_mismatch_is_an_error() {
    let x = Tensor::<f32, Shape![4]>::from([1., 2., 3., 4.]);
    let mut w = NpzWriter::new(Cursor::new(Vec::new()));
    w.add("x", &x).unwrap();
    let mut npz = w.finish().unwrap().into_inner();
    assert_eq!(read_npz_f32(&npz, "x").unwrap().to_vec(), [1., 2., 3., 4.]);
    // Change the stored bytes of the element 3.0 (0x40400000) to 5.0 (0x40a00000).
    let at = npz.windows(4).position(|w| w == 3f32.to_le_bytes()).unwrap();
    npz[at..at + 4].copy_from_slice(&5f32.to_le_bytes());
    let e = read_npz_f32(&npz, "x").unwrap_err();
    assert_eq!(e.to_string(), r#"npz member "x": CRC-32 mismatch (the stored bytes were changed)"#);
    assert!(matches!(e.inner(), IoError::Io(_)), "{e:?}");
}

// ---------------------------------------------------------------- 8. fuzzing

/// Whether the bits of two f32 vectors agree (NaN payloads included).
fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

fn values() -> impl Strategy<Value = Vec<f32>> {
    let special = prop_oneof![
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(f32::MAX),
        Just(f32::MIN_POSITIVE),
        Just(1e-45f32),
        Just(-0.0f32),
        any::<f32>(),
    ];
    proptest::collection::vec(special, 0..40)
}

/// A mutation of a file's bytes.
#[derive(Clone, Debug)]
enum Mutation {
    Flip { at: usize, mask: u8 },
    Set { at: usize, byte: u8 },
    Truncate { len: usize },
    Insert { at: usize, bytes: Vec<u8> },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1..=255u8).prop_map(|(at, mask)| Mutation::Flip { at, mask }),
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Set { at, byte }),
        any::<usize>().prop_map(|len| Mutation::Truncate { len }),
        (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
    ]
}

/// Applies `m` to `v` (positions taken modulo the length); whether the bytes changed.
fn apply(v: &mut Vec<u8>, m: &Mutation) -> bool {
    let n = v.len();
    if n == 0 && !matches!(m, Mutation::Insert { .. }) {
        return false;
    }
    match m {
        Mutation::Flip { at, mask } => v[at % n] ^= mask,
        Mutation::Set { at, byte } => {
            let old = std::mem::replace(&mut v[at % n], *byte);
            return old != *byte;
        }
        Mutation::Truncate { len } => v.truncate(len % n),
        Mutation::Insert { at, bytes } => {
            let at = at % (n + 1);
            v.splice(at..at, bytes.iter().copied());
        }
    }
    true
}

/// One entry of a generated header dict: its text, and whether it is the valid entry for `key`.
#[derive(Clone, Debug)]
struct Entry {
    text: String,
    key: &'static str,
    valid: bool,
}

/// A header entry: a valid or invalid value for one of the three keys, or an unknown key with a
/// random (possibly deeply nested or long) value.
fn entry(n: usize) -> impl Strategy<Value = Entry> {
    let q = prop_oneof![Just('\''), Just('"')];
    let junk = prop_oneof![
        (0..300usize).prop_map(nested),
        (0..300usize).prop_map(|d| "(".repeat(d) + &")".repeat(d)),
        (0..300usize).prop_map(|d| "[".repeat(d)),
        (0..3000usize).prop_map(|l| format!("'{}'", "a".repeat(l))),
        "[ -~]{0,40}",
        Just("None".to_string()),
        Just("{}".to_string()),
    ];
    let descr = prop_oneof![
        q.clone().prop_map(|q| (format!("{q}<f4{q}"), true)),
        Just(("'|O'".to_string(), false)),
        Just(("'<f8'".to_string(), false)),
        Just(("'<f4 '".to_string(), false)),
        Just(("[('a', '<f4')]".to_string(), false)),
        junk.clone().prop_map(|j| (j, false)),
    ];
    let fortran = prop_oneof![
        Just(("False".to_string(), true)),
        Just(("0".to_string(), false)),
        Just(("None".to_string(), false)),
        Just(("false".to_string(), false)),
        junk.clone().prop_map(|j| (j, false)),
    ];
    let shape = prop_oneof![
        Just((format!("({n},)"), true)),
        Just((format!("( {n} , )"), true)),
        Just((format!("({n}, 1)"), true)),
        Just((format!("(1, {n})"), true)),
        Just((format!("({n})"), false)),
        Just((format!("[{n}]"), false)),
        Just((format!("({:#x},)", n), false)),
        Just((format!("({},)", n + 1), false)),
        Just(("(4294967296, 4294967296)".to_string(), false)),
        junk.clone().prop_map(|j| (j, false)),
    ];
    prop_oneof![
        (q.clone(), descr).prop_map(|(q, (v, valid))| Entry { text: format!("{q}descr{q}: {v}"), key: "descr", valid }),
        (q.clone(), fortran).prop_map(|(q, (v, valid))| Entry {
            text: format!("{q}fortran_order{q}: {v}"),
            key: "fortran_order",
            valid
        }),
        (q.clone(), shape).prop_map(|(q, (v, valid))| Entry { text: format!("{q}shape{q}: {v}"), key: "shape", valid }),
        (q, "[a-z_]{0,12}", junk).prop_map(|(q, k, v)| Entry {
            text: format!("{q}{k}{q}: {v}"),
            key: "other",
            valid: false
        }),
    ]
}

/// A header dict from entries, and whether NumPy's reader (and ours) must accept it: exactly the
/// three keys, once each, with valid values.
fn dict(entries: &[Entry], trailing_comma: bool, ws: &str) -> (String, bool) {
    let body: Vec<&str> = entries.iter().map(|e| &*e.text).collect();
    let mut text = format!("{{{ws}{}{ws}", body.join(&format!(",{ws}")));
    if trailing_comma && !entries.is_empty() {
        text.push(',');
    }
    text.push('}');
    let mut keys: Vec<&str> = entries.iter().map(|e| e.key).collect();
    keys.sort();
    let valid = keys == ["descr", "fortran_order", "shape"] && entries.iter().all(|e| e.valid);
    (text, valid)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(512, 512), failure_persistence: None, ..ProptestConfig::default() })]

    /// Files from the writer with byte mutations: `Ok` only with the stored values, or an error.
    #[test]
    fn npy_mutations(xs in values(), ms in proptest::collection::vec(mutation(), 1..4)) {
        let t = Tensor::<f32, Shape![_]>::from_vec(&[xs.len()], xs.clone());
        let mut bytes = Vec::new();
        t.write_npy(&mut bytes).unwrap();
        let original = bytes.clone();
        let header_end = original.len() - 4 * xs.len();
        for m in &ms {
            apply(&mut bytes, m);
        }
        let r = read_f32(&bytes);
        if bytes.len() < original.len() && original.starts_with(&bytes[..header_end.min(bytes.len())]) {
            prop_assert!(r.is_err(), "a truncated file was read");
        }
        if bytes.len() == original.len() && bytes[..header_end] == original[..header_end] {
            // Only the data changed: the read gives exactly the mutated elements.
            let got = r.unwrap();
            let want: Vec<f32> =
                bytes[header_end..].chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
            prop_assert_eq!(got.sizes(), &[xs.len()][..]);
            prop_assert!(same_bits(&got.to_vec(), &want));
        }
        // Any other Ok is a valid file by construction; the bound on time was checked.
    }

    /// Archives from the writer (stored or deflated) with byte mutations: the CRC makes any
    /// `Ok` the original array.
    #[test]
    fn npz_mutations(xs in values(), deflate in any::<bool>(), ms in proptest::collection::vec(mutation(), 1..4)) {
        let t = Tensor::<f32, Shape![_]>::from_vec(&[xs.len()], xs.clone());
        let mut w = if deflate { NpzWriter::new_compressed(Cursor::new(Vec::new())) } else { NpzWriter::new(Cursor::new(Vec::new())) };
        w.add("a", &t).unwrap();
        w.add("b", &Tensor::from([1f32, 2.])).unwrap();
        let mut bytes = w.finish().unwrap().into_inner();
        let mut changed = false;
        for m in &ms {
            changed |= apply(&mut bytes, m);
        }
        for (name, want) in [("a", xs.clone()), ("b", vec![1., 2.])] {
            match read_npz_f32(&bytes, name) {
                Ok(got) => {
                    prop_assert_eq!(got.sizes(), &[want.len()][..]);
                    prop_assert!(same_bits(&got.to_vec(), &want), "{:?} != {:?}", got.to_vec(), want);
                }
                Err(_) => prop_assert!(changed),
            }
        }
    }

    /// Rewritten headers (random keys, values, nesting, lengths, versions) over valid data, as
    /// `.npy` and as an `.npz` member: accepted exactly when NumPy's reader would accept them
    /// (except duplicate keys, which NumPy resolves to the last), then with the right shape and
    /// values.
    #[test]
    fn header_rewrites(
        xs in values(),
        picks in proptest::collection::vec(0..64usize, 0..5),
        entries in proptest::collection::vec(entry(7), 64),
        trailing_comma in any::<bool>(),
        ws in prop_oneof![Just(""), Just(" "), Just("\n\t ")],
        version in 1..=3u8,
        len_delta in prop_oneof![6 => Just(0i64), 2 => -70..70i64, 1 => Just(1 << 20), 1 => Just(u32::MAX as i64)],
        deflate in any::<bool>(),
        mode in 0..4u8,
    ) {
        let mut xs = xs;
        xs.resize(7, 0.5);
        // The three valid entries (in some order), one of them replaced by a random entry, with
        // a random entry added, or random picks.
        let mut three: Vec<Entry> = entries.iter().filter(|e| e.valid).cloned().collect();
        three.sort_by_key(|e| e.key);
        three.dedup_by_key(|e| e.key);
        let mut chosen: Vec<Entry> = picks.iter().map(|&i| entries[i].clone()).collect();
        if three.len() == 3 && mode < 3 {
            three.rotate_left(picks.len() % 3);
            let extra = entries[picks.first().copied().unwrap_or(0)].clone();
            match mode {
                1 => three[picks.len() % 3] = extra,
                2 => three.insert(picks.len() % 4, extra),
                _ => {}
            }
            chosen = three;
        }
        let (text, valid) = dict(&chosen, trailing_comma, ws);
        let mut bytes = raw_npy_version(version, text.as_bytes(), &f32_bytes(&xs));
        let pre = if version == 1 { 8..10 } else { 8..12 };
        let valid = valid && len_delta == 0 && bytes.len() - 7 * 4 - pre.end <= 10_000;
        if len_delta != 0 {
            let len = (bytes.len() - 7 * 4 - pre.end) as i64 + len_delta;
            if version == 1 {
                bytes[pre.clone()].copy_from_slice(&(len.clamp(0, 65535) as u16).to_le_bytes());
            } else {
                bytes[pre.clone()].copy_from_slice(&(len.clamp(0, u32::MAX as i64) as u32).to_le_bytes());
            }
        }
        // Where the data starts by the (possibly rewritten) header length.
        let declared = if version == 1 {
            u16::from_le_bytes([bytes[8], bytes[9]]) as usize
        } else {
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize
        };
        let data_start = pre.end.saturating_add(declared);
        let check = |r: Result<Tensor<f32, DynShape>, IoError>| -> Result<(), TestCaseError> {
            match r {
                // With a wrong header length, an accepted header starts the data elsewhere (a
                // shorter length moves padding into the data, which an `'shape': (8,)` entry
                // then describes correctly): the values must be the bytes from there on.
                Ok(t) if len_delta != 0 => {
                    let n = t.numel();
                    prop_assert!(data_start + 4 * n <= bytes.len(), "{} values past the end", n);
                    prop_assert!(same_bits(&t.to_vec(), &read_le_f32(&bytes[data_start..data_start + 4 * n])));
                }
                Ok(t) => {
                    prop_assert!(valid, "accepted {:?}", text);
                    prop_assert_eq!(t.numel(), 7);
                    prop_assert!(same_bits(&t.to_vec(), &xs));
                }
                Err(e) => {
                    prop_assert!(!valid, "refused {:?}: {}", text, e);
                    prop_assert!(e.to_string().len() < 600);
                }
            }
            Ok(())
        };
        check(read_f32(&bytes))?;
        check(read_npz_f32(&raw_npz(&[("a", &bytes)], deflate), "a"))?;
    }
}
