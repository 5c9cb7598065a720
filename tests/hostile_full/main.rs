//! Hostile and broken input at full size, with memory and time measured: the cases of
//! `tests/hostile.rs` grown until a quadratic path, a token a byte or a buffer the size
//! of the input would show (a 200 MB comment, a 50 MB line, 100,000 nested variations,
//! a million tags, random bytes, cut and damaged files, closed pipes, full disks,
//! signals, unreadable files).
//!
//! Each run keeps the promises of every run (no crash or hang, an allowed exit status,
//! peak memory and time bounded), time grows linearly with the input, and the good games
//! around the damage are reported clean while the damage is found at its line and
//! column. Too large for `cargo test` (~650 MB of files in the target directory, about
//! 10 s on 2 cores), so `#[ignore]`d; `.ci/run` runs them:
//! `cargo test --test hostile_full -- --ignored --test-threads 1` (one at a time, so
//! the times compare).

#[path = "../util/mod.rs"]
mod util;

mod cases;
mod damaged;
mod process;
mod run;
