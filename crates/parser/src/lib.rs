//! planilla-parser: streaming, lossless PGN reader (work in progress, see issue 3).
