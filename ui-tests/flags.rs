//! One set of rustc flags for all of trybuild's cargo runs.
//!
//! trybuild checks (or builds) a project's dependencies with the flags `--cfg trybuild --verbose
//! -A dead_code`, then the cases with the same flags and `--diagnostic-width=140`, all passed as
//! `--config build.rustflags=...`. Cargo's fingerprint of each dependency holds its flags, so the
//! second run compiled every dependency again (faer and shaped-core among them: about 100 of the
//! `ui` test's 220 s). `CARGO_ENCODED_RUSTFLAGS`, which trybuild leaves in place and which cargo
//! prefers to any `--config` rustflags, gives both runs the second set: the dependencies compile
//! once, and the cases see exactly the flags that trybuild gives them.

/// trybuild's flags for the cases (trybuild 1.0.122, `src/rustflags.rs` and `src/cargo.rs`).
const CASE_FLAGS: [&str; 6] = ["--cfg", "trybuild", "--verbose", "-A", "dead_code", "--diagnostic-width=140"];

/// Sets `CARGO_ENCODED_RUSTFLAGS` for the cargo runs that trybuild starts from this process; call
/// it first in the test, the binary's only one (no other thread reads the environment).
pub fn one_set_of_rustflags() {
    std::env::set_var("CARGO_ENCODED_RUSTFLAGS", CASE_FLAGS.join("\x1f"));
}
