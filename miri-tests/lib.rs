//! Empty: the crate exists for its test binary, `miri.rs` (see Cargo.toml).
