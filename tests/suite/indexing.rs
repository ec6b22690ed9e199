//! Test binary `indexing`: views, `t!` slicing and advanced indexing, reshapes, joins, selection by
//! index tensors and masks, scatter/index accumulation.
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`):
//! one binary per topic instead of one per file, so that the library's generic code is
//! instantiated and linked once per topic instead of once per file (Cargo.toml lists them).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

#[path = "../accumulate.rs"]
mod accumulate;
#[path = "../advanced.rs"]
mod advanced;
#[path = "../join.rs"]
mod join;
#[path = "../reshape_infer.rs"]
mod reshape_infer;
#[path = "../select.rs"]
mod select;
#[path = "../slicing.rs"]
mod slicing;
#[path = "../view_forms.rs"]
mod view_forms;
#[path = "../views.rs"]
mod views;
#[path = "../views_more.rs"]
mod views_more;
