//! Opens a file as the language server opens a document (every game read and checked,
//! the archive judged), and prints what it found and how long each step took: the
//! server's own share of an open, without the protocol (for profiling).
//!
//! `cargo run --release -p planilla-lsp --example open -- FILE`

use planilla_lsp::Settings;
use planilla_lsp::document::Document;
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("usage: open FILE");
    let bytes = std::fs::read(&path).expect("a readable file");
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let started = Instant::now();
    let mut doc = Document::open(text, 0, path, Settings::default());
    let opened = started.elapsed();
    doc.judge_now();
    let judged = started.elapsed() - opened;
    let findings: usize = doc.games.iter().map(|g| g.findings.len()).sum();
    println!(
        "{} games, {findings} findings, {} archive findings; read and checked in {opened:.2?}, archive judged in {judged:.2?}",
        doc.games.len(),
        doc.archive.len()
    );
}
