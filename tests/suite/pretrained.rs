//! Test binary `pretrained`: pretrained models against their reference implementations
//! (all-MiniLM-L6-v2, a BERT, against sentence-transformers), and the checkpoint loader's errors.
//!
//! Each module is one file of tests/, included unchanged (a test is named `<file>::<test>`):
//! one binary per topic instead of one per file, so that the library's generic code is
//! instantiated and linked once per topic instead of once per file (Cargo.toml lists them).
// Each file keeps its own `mod common;` (tests/common/mod.rs), as when it was a binary alone.
#![allow(clippy::duplicate_mod)]

// Loads `.safetensors` checkpoints.
#[cfg(feature = "safetensors")]
#[path = "../bert_minilm.rs"]
mod bert_minilm;
