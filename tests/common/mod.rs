//! Set-up shared by the end-to-end test crates.

use std::path::Path;

/// Fills `dir` with three copies of every `.pgn` file of `corpus` (small files, read
/// whole several at a time) and `1zz-large.pgn`: the file `repeated` written over and over
/// past 300 KiB (streamed in batches), whose name sorts between the copies.
pub fn small_files_and_a_large_one(corpus: &Path, repeated: &Path, dir: &Path) {
    let mut originals: Vec<_> = std::fs::read_dir(corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    originals.sort();
    for round in 0..3 {
        for (k, original) in originals.iter().enumerate() {
            std::fs::copy(original, dir.join(format!("{round}{k:02}.pgn"))).unwrap();
        }
    }
    let text = std::fs::read(repeated).unwrap();
    std::fs::write(
        dir.join("1zz-large.pgn"),
        text.repeat((300 << 10) / text.len() + 1),
    )
    .unwrap();
}
