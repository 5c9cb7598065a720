//! planilla from Python: the extension module `planilla._planilla`, which the pure-Python
//! package `planilla` (python/planilla) re-exports.
//!
//! The module is a thin layer over the library crates: the engine reads the sources as
//! the binary reads them (its decoders, its ordered parallel pipeline on a rayon pool, a
//! batch of games at a time, results in input order) and runs the binary's per-game jobs
//! on them: the validator's `Checker` replays them, the converter's `Converter` and
//! `Fixer` rewrite them, and the engine's `merge` run merges them (read twice). Python objects are built only at the boundary (`py_values`),
//! and the interpreter lock is released while Rust works (`Python::detach`).
//!
//! ```python
//! import planilla
//! report = planilla.check(b"1. e4 e5 2. Ke3 *")
//! assert report.findings[0]["code"] == "illegal-move"
//! ```
//!
//! The Python tests (tests/, run by `scripts/test-python`) prove that every finding equals
//! the one `planilla check --format jsonl` writes.

#![warn(missing_docs)]

mod arrow;
mod games;
mod merge;
mod options;
mod py_values;
mod pyfile;
mod rewrite;
mod run;
mod source;
mod stream;

use pyo3::prelude::*;

/// planilla: validate and convert chess game records (PGN) in any notation language.
#[pymodule]
mod _planilla {
    #[pymodule_export]
    use crate::arrow::{FindingBatches, check_arrow};
    #[pymodule_export]
    use crate::games::{Games, games};
    #[pymodule_export]
    use crate::merge::{Merged, merge};
    #[pymodule_export]
    use crate::rewrite::{Fixed, convert, fix};
    #[pymodule_export]
    use crate::run::{Report, check};
    #[pymodule_export]
    use crate::source::index;
    #[pymodule_export]
    use crate::stream::{Findings, iter_check};
}
