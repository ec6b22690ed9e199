//! Compile errors of `shaped` that appear when the program is built (`cargo build`, `cargo test`,
//! `cargo run`) but not under `cargo check` or rust-analyzer: checks of static sizes that the type
//! system cannot express as trait bounds, written as `const` assertions evaluated for the concrete
//! shapes (literal indices into dims outside the compile-time size range, `narrow_const` on them,
//! the element counts of static `reshape`/`view`, `topk::<K, A>` with `K` past a static dim,
//! `einsum!` letters bound to two static sizes, and inline results larger than 64 KiB).
//!
//! `pass/in_range.rs` runs the in-range versions of the same calls; it is also what makes trybuild
//! build the cases rather than check them.
//!
//! Regenerate the snapshots with `TRYBUILD=overwrite cargo test -p shaped-ui-mono --test ui_mono`
//! and review every changed `.stderr` before committing it.

#[path = "../flags.rs"]
mod flags;

#[test]
fn ui_mono() {
    flags::one_set_of_rustflags();
    let t = trybuild::TestCases::new();
    t.compile_fail("fail/*.rs");
    t.pass("pass/*.rs");
}
