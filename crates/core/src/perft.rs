//! Perft: counting the leaves of the legal move tree, and perft suites.

use crate::fen::Validation;
use crate::position::{MoveList, Position};

/// The number of leaf nodes `depth` plies below `pos`. The last ply is
/// counted without making the moves.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let mut list = MoveList::new();
            pos.legal_moves_into(&mut list);
            list.iter().map(|m| perft(&pos.play(m), depth - 1)).sum()
        }
    }
}

/// One position of a suite with its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The 1-based line of the FEN in the suite file.
    pub line: usize,
    /// An identifier when the suite gives one (`id ...`), else empty.
    pub id: String,
    /// The position as written.
    pub fen: String,
    /// `(depth, nodes)` pairs.
    pub counts: Vec<(u32, u64)>,
    /// The 1-based line of each count: its own `perft` line in a `.perft` file, the
    /// FEN's line in an `.epd` file.
    pub count_lines: Vec<usize>,
}

/// A malformed line of a suite file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong, in lower case.
    pub message: String,
}

impl std::fmt::Display for SuiteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SuiteError {}

/// Reads a perft suite: `.perft` files (`id NAME`, `epd FEN`, then
/// `perft DEPTH NODES` lines) or `.epd` files (`FEN ;D1 20 ;D2 400 ...`).
/// Lines starting with `#` and blank lines are skipped; CRLF is accepted.
///
/// # Errors
///
/// The first malformed line.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteEntry>, SuiteError> {
    let mut entries: Vec<SuiteEntry> = Vec::new();
    let mut pending_id = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let err = |message: String| SuiteError { line, message };
        if let Some(id) = l.strip_prefix("id ") {
            pending_id = id.trim().to_string();
        } else if let Some(fen) = l.strip_prefix("epd ") {
            entries.push(SuiteEntry {
                line,
                id: std::mem::take(&mut pending_id),
                fen: fen.trim().to_string(),
                counts: Vec::new(),
                count_lines: Vec::new(),
            });
        } else if let Some(rest) = l.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let depth = it.next().and_then(|d| d.parse().ok());
            let nodes = it.next().and_then(|n| n.parse().ok());
            match (entries.last_mut(), depth, nodes) {
                (Some(e), Some(d), Some(n)) => {
                    e.counts.push((d, n));
                    e.count_lines.push(line);
                }
                (None, ..) => return Err(err("perft line before any epd line".into())),
                _ => return Err(err(format!("expected 'perft DEPTH NODES', found '{l}'"))),
            }
        } else if l.contains(';') {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap_or("").trim().to_string();
            let mut counts = Vec::new();
            for p in parts {
                let p = p.trim();
                let mut it = p.split_whitespace();
                let depth = it
                    .next()
                    .and_then(|d| d.strip_prefix('D'))
                    .and_then(|d| d.parse().ok());
                let nodes = it.next().and_then(|n| n.parse().ok());
                match (depth, nodes) {
                    (Some(d), Some(n)) => counts.push((d, n)),
                    _ => return Err(err(format!("expected 'D<depth> <nodes>', found '{p}'"))),
                }
            }
            entries.push(SuiteEntry {
                line,
                id: std::mem::take(&mut pending_id),
                fen,
                count_lines: vec![line; counts.len()],
                counts,
            });
        } else {
            return Err(err(format!("unrecognised line '{l}'")));
        }
    }
    Ok(entries)
}

/// Reads a suite position: any position whose moves are well defined.
///
/// # Errors
///
/// As [`Position::from_fen`] with [`Validation::Relaxed`].
pub fn suite_position(entry: &SuiteEntry) -> Result<Position, crate::FenError> {
    Position::from_fen(&entry.fen, Validation::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_formats() {
        let perft = "# c\nid x\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3\nperft 2 9\n";
        let e = parse_suite(perft).unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].id, "x");
        assert_eq!(e[0].counts, vec![(1, 3), (2, 9)]);
        // A mismatch is reported at the line of its count.
        assert_eq!(e[0].count_lines, vec![4, 5]);
        let epd = "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9\r\n";
        let e = parse_suite(epd).unwrap();
        assert_eq!(e[0].fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
        assert_eq!(e[0].counts, vec![(1, 3), (2, 9)]);
        assert_eq!(e[0].count_lines, vec![1, 1]);
        assert!(parse_suite("perft 1 2\n").is_err());
        assert!(parse_suite("hello\n").is_err());
    }
}
