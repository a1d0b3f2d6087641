//! The workspace's tasks as a library, so that tests can run them too (`tests/it/eval.rs` runs the eval on the
//! sample); `src/main.rs` is `cargo xtask`.

pub mod eval;
pub mod quality;
