//! The `planilla` binary (in progress).
fn main() {}
