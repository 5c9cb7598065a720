//! End-to-end tests of the pipeline's pieces: a large input is cut into pieces that the
//! threads tokenize and check on their own (docs/architecture.md, "Data flow"), and the
//! output must be byte for byte that of one thread, whose reader reads the whole input.

mod util;

use util::{Dir, planilla, root};

/// Every committed PGN file (broken games, games without tags, unclosed comments,
/// tag sections without movetext, encodings), one after another and repeated to about
/// 2 MB: eight pieces and more, with cuts falling in every kind of text.
fn every_committed_file_repeated() -> Vec<u8> {
    let mut files = Vec::new();
    for corpus in ["check", "convert", "parser"] {
        for entry in std::fs::read_dir(root().join("corpora").join(corpus)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "pgn") {
                files.push(path);
            }
        }
    }
    files.sort();
    let mut once = Vec::new();
    for file in &files {
        once.extend_from_slice(&std::fs::read(file).unwrap());
        once.extend_from_slice(b"\n\n");
    }
    assert!(
        files.len() > 20 && !once.is_empty(),
        "{} files",
        files.len()
    );
    once.repeat((2 << 20) / once.len() + 1)
}

#[test]
fn pieces_give_the_output_of_one_thread() {
    let dir = Dir::new("pieces");
    let path = dir.create("large.pgn", every_committed_file_repeated());
    let path = path.to_str().unwrap();
    let runs: [&[&str]; 3] = [
        &["check", "--format", "jsonl"],
        &["check", "--format", "jsonl", "--rules", "fide-2005"],
        &["convert", "--to", "es"],
    ];
    for run in runs {
        let mut outputs = Vec::new();
        for threads in ["-j1", "-j2", "-j3"] {
            let mut args = run.to_vec();
            args.extend([threads, path]);
            let out = planilla(&args);
            outputs.push((out.status.code(), out.stdout, out.stderr));
        }
        assert!(outputs[0].1.len() > 100_000, "{run:?}: little output");
        for (threads, output) in ["-j2", "-j3"].iter().zip(&outputs[1..]) {
            assert!(*output == outputs[0], "{run:?}: -j1 and {threads} differ");
        }
    }
}
