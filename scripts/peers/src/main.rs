//! planilla-peer: replays every main-line move of every game with pgn-reader 0.29 and
//! shakmaty 0.30, as an independent peer of `planilla check` (scripts/compare-peers)
//! and as a benchmark peer.
//!
//! Usage: planilla-peer [--quiet] [--variations] FILE...
//!
//! `--variations` replays the moves of every variation too (each from the position
//! before the move it replaces), as `planilla check` does: the same moves for both in a
//! benchmark. A variation stops at its first illegal move; the game's verdict stays the
//! main line's.
//!
//! Prints one line per game: `FILE\tGAME_INDEX\tSTATUS\tDETAIL` where STATUS is
//! - `ok`       every main-line move replayed (DETAIL: number of plies);
//! - `illegal`  DETAIL `PLY SAN`: the 1-based ply (from the game's start position) and
//!   the move that is illegal or ambiguous (`SAN ambiguous`) in its position; null moves
//!   (`--`) count as illegal;
//! - `badfen`   the FEN tag does not parse or is not a legal position (DETAIL: why);
//! - `variant`  a Variant tag other than standard / Chess960 / From Position (DETAIL: it);
//! - `error`    pgn-reader gave up on the game (unterminated tag or comment; DETAIL: why).
//!
//! Limits of the peer, as pgn-reader works: a token that does not parse as SAN is
//! skipped silently (the reader never reports it), so "fails to parse" shows up only as
//! a later illegal move, if at all; a game ends at a blank line or a line starting
//! with `[`, not at its termination marker.
//!
//! `--quiet` prints only `games N illegal N badfen N variant N error N plies N`
//! (main-line plies), and with `--variations` also `variation-plies N
//! variation-illegal N`.
//! Exit status 0 (1 when a file cannot be opened).

use std::{
    env,
    fs::File,
    io::{self, BufWriter, Write},
    ops::ControlFlow,
    process,
};

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Position, fen::Fen, san::SanError};

enum Verdict {
    Ok(u32),
    Illegal {
        ply: u32,
        san: SanPlus,
        ambiguous: bool,
    },
    BadFen(String),
    Variant(String),
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum VariantKind {
    Standard,
    Chess960,
    Other,
}

/// The same spellings `planilla check` accepts as standard chess or Chess960.
fn variant_kind(value: &[u8]) -> VariantKind {
    let mut buf = [0u8; 32];
    let mut n = 0;
    for &b in value {
        if b.is_ascii_whitespace() || b == b'-' || b == b'_' {
            continue;
        }
        if n == buf.len() {
            return VariantKind::Other;
        }
        buf[n] = b.to_ascii_lowercase();
        n += 1;
    }
    match &buf[..n] {
        b"" | b"standard" | b"chess" | b"normal" | b"fromposition" => VariantKind::Standard,
        b"chess960" | b"960" | b"fischerandom" | b"fischerrandom" => VariantKind::Chess960,
        _ => VariantKind::Other,
    }
}

struct Peer {
    /// Whether variations are replayed (`--variations`).
    variations: bool,
    /// Plies replayed in variations, and variations stopped by an illegal move.
    variation_plies: u64,
    variation_illegal: u64,
    /// FEN tag of the current game (buffer reused from game to game).
    fen: Vec<u8>,
    has_fen: bool,
    variant: VariantKind,
    variant_text: Vec<u8>,
}

struct Movetext {
    pos: Chess,
    ply: u32,
    /// With `--variations`: the main line's position before its last move.
    prev: Option<Chess>,
    /// The open variations, innermost last.
    lines: Vec<Line>,
}

/// An open variation: its position and the one before its last move, or `None` once
/// a move of it (or of the line it branches from) was illegal.
struct Line {
    pos: Option<(Chess, Option<Chess>)>,
}

impl Visitor for Peer {
    type Tags = ();
    type Movetext = Movetext;
    type Output = Verdict;

    fn begin_tags(&mut self) -> ControlFlow<Verdict, ()> {
        self.has_fen = false;
        self.fen.clear();
        self.variant = VariantKind::Standard;
        self.variant_text.clear();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<Verdict> {
        if name.eq_ignore_ascii_case(b"FEN") {
            self.has_fen = true;
            self.fen.clear();
            self.fen.extend_from_slice(value.as_bytes());
        } else if name.eq_ignore_ascii_case(b"Variant") {
            self.variant = variant_kind(value.as_bytes());
            self.variant_text.clear();
            self.variant_text.extend_from_slice(value.as_bytes());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Verdict, Movetext> {
        if self.variant == VariantKind::Other {
            return ControlFlow::Break(Verdict::Variant(
                String::from_utf8_lossy(&self.variant_text).into_owned(),
            ));
        }
        let pos = if self.has_fen {
            let mode = if self.variant == VariantKind::Chess960 {
                CastlingMode::Chess960
            } else {
                CastlingMode::Standard
            };
            let fen = match Fen::from_ascii(self.fen.trim_ascii()) {
                Ok(fen) => fen,
                Err(e) => return ControlFlow::Break(Verdict::BadFen(e.to_string())),
            };
            match fen.into_position::<Chess>(mode) {
                Ok(pos) => pos,
                Err(e) => return ControlFlow::Break(Verdict::BadFen(e.to_string())),
            }
        } else {
            Chess::default()
        };
        ControlFlow::Continue(Movetext {
            pos,
            ply: 0,
            prev: None,
            lines: Vec::new(),
        })
    }

    fn begin_variation(&mut self, mt: &mut Movetext) -> ControlFlow<Verdict, Skip> {
        if !self.variations {
            return ControlFlow::Continue(Skip(true));
        }
        // A variation replaces the last move of the line it is in.
        let from = match mt.lines.last() {
            None => Some(mt.prev.as_ref().unwrap_or(&mt.pos)),
            Some(Line { pos: None }) => None,
            Some(Line {
                pos: Some((pos, prev)),
            }) => Some(prev.as_ref().unwrap_or(pos)),
        };
        let pos = from.map(|p| (p.clone(), None));
        mt.lines.push(Line { pos });
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, mt: &mut Movetext) -> ControlFlow<Verdict> {
        mt.lines.pop();
        ControlFlow::Continue(())
    }

    fn san(&mut self, mt: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Verdict> {
        if let Some(line) = mt.lines.last_mut() {
            if let Some((pos, prev)) = &mut line.pos {
                match san_plus.san.to_move(pos) {
                    Ok(m) => {
                        self.variation_plies += 1;
                        *prev = Some(pos.clone());
                        pos.play_unchecked(m);
                    }
                    Err(_) => {
                        self.variation_illegal += 1;
                        line.pos = None;
                    }
                }
            }
            return ControlFlow::Continue(());
        }
        mt.ply += 1;
        if self.variations {
            mt.prev = Some(mt.pos.clone());
        }
        match san_plus.san.to_move(&mt.pos) {
            Ok(m) => {
                mt.pos.play_unchecked(m);
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Verdict::Illegal {
                ply: mt.ply,
                san: san_plus,
                ambiguous: e == SanError::AmbiguousSan,
            }),
        }
    }

    fn end_game(&mut self, mt: Movetext) -> Verdict {
        Verdict::Ok(mt.ply)
    }
}

#[derive(Default)]
struct Totals {
    games: u64,
    illegal: u64,
    badfen: u64,
    variant: u64,
    error: u64,
    plies: u64,
}

fn run_file(
    path: &str,
    quiet: bool,
    peer: &mut Peer,
    totals: &mut Totals,
    out: &mut impl Write,
) -> io::Result<()> {
    let mut reader = Reader::new(File::open(path)?);
    let mut index = 0u64;
    loop {
        let verdict = match reader.read_game(peer) {
            Ok(None) => break,
            Ok(Some(v)) => Ok(v),
            // Unterminated tag or comment: the reader skips past it; the game counts.
            Err(e) if e.kind() == io::ErrorKind::InvalidData => Err(e.to_string()),
            Err(e) => return Err(e),
        };
        index += 1;
        totals.games += 1;
        match &verdict {
            Ok(Verdict::Ok(plies)) => totals.plies += u64::from(*plies),
            Ok(Verdict::Illegal { ply, .. }) => {
                totals.illegal += 1;
                totals.plies += u64::from(*ply - 1);
            }
            Ok(Verdict::BadFen(_)) => totals.badfen += 1,
            Ok(Verdict::Variant(_)) => totals.variant += 1,
            Err(_) => totals.error += 1,
        }
        if quiet {
            continue;
        }
        match verdict {
            Ok(Verdict::Ok(plies)) => writeln!(out, "{path}\t{index}\tok\t{plies}")?,
            Ok(Verdict::Illegal {
                ply,
                san,
                ambiguous,
            }) => writeln!(
                out,
                "{path}\t{index}\tillegal\t{ply} {san}{}",
                if ambiguous { " ambiguous" } else { "" }
            )?,
            Ok(Verdict::BadFen(why)) => writeln!(out, "{path}\t{index}\tbadfen\t{why}")?,
            Ok(Verdict::Variant(v)) => writeln!(out, "{path}\t{index}\tvariant\t{v}")?,
            Err(why) => writeln!(out, "{path}\t{index}\terror\t{why}")?,
        }
    }
    Ok(())
}

fn main() {
    let mut quiet = false;
    let mut variations = false;
    let mut files = Vec::new();
    for arg in env::args().skip(1) {
        match arg.as_str() {
            "--quiet" | "-q" => quiet = true,
            "--variations" => variations = true,
            "--help" | "-h" => {
                println!("usage: planilla-peer [--quiet] [--variations] FILE...");
                return;
            }
            _ => files.push(arg),
        }
    }
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut peer = Peer {
        variations,
        variation_plies: 0,
        variation_illegal: 0,
        fen: Vec::with_capacity(128),
        has_fen: false,
        variant: VariantKind::Standard,
        variant_text: Vec::new(),
    };
    let mut totals = Totals::default();
    let mut failed = false;
    for path in &files {
        if let Err(e) = run_file(path, quiet, &mut peer, &mut totals, &mut out) {
            let _ = out.flush();
            eprintln!("planilla-peer: {path}: {e}");
            failed = true;
        }
    }
    if quiet {
        let t = &totals;
        let _ = writeln!(
            out,
            "games {} illegal {} badfen {} variant {} error {} plies {}",
            t.games, t.illegal, t.badfen, t.variant, t.error, t.plies
        );
        if variations {
            let _ = writeln!(
                out,
                "variation-plies {} variation-illegal {}",
                peer.variation_plies, peer.variation_illegal
            );
        }
    }
    if out.flush().is_err() {
        process::exit(1);
    }
    if failed {
        process::exit(1);
    }
}
