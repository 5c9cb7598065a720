//! The repair property (issue 21): take a clean game, change one character of one
//! main-line move so that the move becomes illegal, and require that the repair search
//! gives back the original move or no repair, never a different one. The recovery rate
//! (given back / tried, by edit kind) is what the search is worth on one-character errors.

use planilla_core::san::{Lang, San, Suffix};
use planilla_core::{MoveList, Position, Validation};
use planilla_parser::{Game, TokenKind};
use planilla_validator::repair::{move_characters, piece_letters};
use planilla_validator::{Candidate, Checker, Code, Config, Edit, Repair, RepairOutcome};
use std::fmt::Write;

/// A small deterministic generator of pseudo-random numbers (xorshift64*), so that a
/// seed names one run.
#[derive(Clone, Debug)]
pub struct Seeded(u64);

impl Seeded {
    /// A generator started from `seed` (any value; zero is moved off zero).
    pub fn new(seed: u64) -> Seeded {
        Seeded(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

/// What became of the errors of one edit kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Errors made (each made its move illegal or ambiguous).
    pub tried: u64,
    /// The search gave back the original move.
    pub recovered: u64,
    /// The search repaired another move, in a language the damage made the game read in
    /// (a Portuguese `B` put into a Spanish game: the game is then read in Portuguese and
    /// its next `A` is the move that does not read); the repaired game's moves are the
    /// original's, so the game is given back, in the other letters.
    pub same_moves: u64,
    /// Two or more moves replayed the game.
    pub ambiguous: u64,
    /// No move did (or the search stopped at its limits).
    pub unrepaired: u64,
    /// The search named another move, or another ply: the property fails.
    pub wrong: u64,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.tried += other.tried;
        self.recovered += other.recovered;
        self.same_moves += other.same_moves;
        self.ambiguous += other.ambiguous;
        self.unrepaired += other.unrepaired;
        self.wrong += other.wrong;
    }
}

/// The counts of a run, by edit kind.
#[derive(Clone, Debug, Default)]
pub struct RepairTally {
    /// The counts of each edit kind, in the order of [`Edit::ALL`].
    pub by_edit: [Counts; 7],
    /// Games not tried: not clean (an illegal or ambiguous move, a move after the end, a
    /// result the final position contradicts, a syntax error, two readings of the
    /// language), or no change of the kind drawn made a move illegal.
    pub skipped: u64,
    /// Each wrong repair, described (the property holds when this is empty).
    pub wrong: Vec<String>,
}

impl RepairTally {
    /// The counts of every edit kind together.
    pub fn total(&self) -> Counts {
        let mut total = Counts::default();
        for counts in &self.by_edit {
            total.add(counts);
        }
        total
    }

    /// A table of the counts, one line per edit kind and a total.
    pub fn report(&self) -> String {
        let mut out =
            String::from("edit             tried  recovered  same moves  ambiguous  none  wrong\n");
        let rows = Edit::ALL
            .iter()
            .map(|e| (e.name(), self.by_edit[e_index(*e)]))
            .chain([("total", self.total())]);
        for (name, c) in rows {
            let rate = if c.tried == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", 100.0 * c.recovered as f64 / c.tried as f64)
            };
            let _ = writeln!(
                out,
                "{name:<16} {:>5}  {:>9}  {:>10}  {:>9}  {:>4}  {:>5}  ({rate} given back)",
                c.tried, c.recovered, c.same_moves, c.ambiguous, c.unrepaired, c.wrong
            );
        }
        let _ = writeln!(out, "games skipped: {}", self.skipped);
        out
    }
}

/// The index of `edit` in [`Edit::ALL`].
fn e_index(edit: Edit) -> usize {
    Edit::ALL.iter().position(|e| *e == edit).unwrap_or(0)
}

/// Findings that make a game unfit for the property: its main line must replay to its
/// end and agree with its result before a move is damaged.
const UNCLEAN: [Code; 9] = [
    Code::SyntaxError,
    Code::InvalidFen,
    Code::IllegalMove,
    Code::AmbiguousMove,
    Code::MoveAfterGameEnd,
    Code::MoveAfterDraw,
    Code::ResultMismatch,
    Code::DgtResultSignal,
    Code::InternalError,
];

/// One change of kind `edit` to the move `text` of `lang`, drawn by `rng`: the inverse of
/// the readings the search tries (a letter of another language put in, where the search
/// reads one back). `None` when the text has nothing to change that way.
pub fn damage(text: &str, lang: Lang, edit: Edit, rng: &mut Seeded) -> Option<String> {
    let mut chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let alphabet = move_characters(lang);
    let is_capture = |c: &char| matches!(c, 'x' | ':' | '×');
    match edit {
        Edit::Replaced => {
            let i = rng.below(n);
            let c = alphabet[rng.below(alphabet.len())];
            (c != chars[i]).then(|| chars[i] = c)?;
        }
        Edit::Deleted => {
            chars.remove(rng.below(n));
        }
        Edit::Inserted => {
            let c = alphabet[rng.below(alphabet.len())];
            (c != 'x').then(|| chars.insert(rng.below(n + 1), c))?;
        }
        Edit::Swapped => {
            let i = rng.below(n.checked_sub(1).filter(|&m| m > 0)?);
            (chars[i] != chars[i + 1]).then(|| chars.swap(i, i + 1))?;
        }
        Edit::OtherLanguage => {
            let ours: Vec<_> = piece_letters(lang).collect();
            let at: Vec<usize> = (0..n)
                .filter(|&i| ours.iter().any(|(_, c)| *c == chars[i]))
                .collect();
            let i = *at.get(rng.below(at.len().max(1)))?;
            let role = ours.iter().find(|(_, c)| *c == chars[i])?.0;
            let theirs: Vec<char> = Lang::ALL
                .into_iter()
                .filter(|&l| l != Lang::Figurine)
                .filter_map(|l| piece_letters(l).find(|(r, _)| *r == role))
                .map(|(_, c)| c)
                .filter(|&c| c != chars[i])
                .collect();
            chars[i] = *theirs.get(rng.below(theirs.len().max(1)))?;
        }
        Edit::CaptureAdded => {
            (!chars.iter().any(is_capture)).then(|| chars.insert(rng.below(n + 1), 'x'))?;
        }
        Edit::CaptureRemoved => {
            let i = chars.iter().position(is_capture)?;
            chars.remove(i);
        }
    }
    Some(chars.into_iter().collect())
}

/// Damages one main-line move of `game` with an edit of kind `edit` so that the move no
/// longer plays, runs the repair search on the damaged game through `checker`, and counts
/// what it gave back in `tally` (a wrong repair is also described there). Up to 24 draws
/// of a move and a change are tried; a game that is not clean, or that no draw damages, is
/// counted as skipped.
pub fn repair_trial(
    checker: &mut Checker,
    game: &Game,
    edit: Edit,
    rng: &mut Seeded,
    tally: &mut RepairTally,
) {
    let (mut out, mut played) = (Vec::new(), Vec::new());
    let stats = checker.check_recording(game, &mut out, &mut played);
    let lang = match stats.lang {
        Some(lang) if !stats.lang_ambiguous && !out.iter().any(|f| UNCLEAN.contains(&f.code)) => {
            lang
        }
        _ => {
            tally.skipped += 1;
            return;
        }
    };
    let Some(main) = main_line(game, &played) else {
        tally.skipped += 1;
        return;
    };
    for _ in 0..24 {
        let k = rng.below(main.len().max(1));
        let Some(&(start, end, san, ref before)) = main.get(k) else {
            break;
        };
        let text = game.decode(start as usize..end as usize);
        let Some(damaged) = damage(&text, lang, edit, rng) else {
            continue;
        };
        // Only damage that makes the move not play: a change that leaves a legal move is
        // another game, not an error.
        let plays = San::parse(damaged.as_bytes(), lang)
            .is_ok_and(|s| !s.is_null() && s.resolve(before).is_ok());
        if plays {
            continue;
        }
        let mut bytes = game.bytes()[..start as usize].to_vec();
        bytes.extend_from_slice(damaged.as_bytes());
        bytes.extend_from_slice(&game.bytes()[end as usize..]);
        let broken = Game::from_bytes(bytes, game.encoding_choice());
        // The damaged text must stay one token in place: a move, or text the tokenizer
        // cannot read (`Ke`, `N3f`, a syntax error the search reads before the move that
        // then fails); text it splits is another kind of damage.
        let one_token = broken.tokens().iter().any(|t| {
            matches!(t.kind, TokenKind::San | TokenKind::Unknown)
                && t.start == start
                && t.end as usize == start as usize + damaged.len()
        });
        if !one_token {
            continue;
        }
        let counts = &mut tally.by_edit[e_index(edit)];
        counts.tried += 1;
        let (mut out, mut played) = (Vec::new(), Vec::new());
        let (_, repair) = checker.check_repairing(&broken, &mut out, &mut played);
        let ply = k as u32 + 1;
        match repair.as_ref().map(|r| (r, &r.outcome)) {
            Some((r, RepairOutcome::Unique(c))) if r.ply == ply && c.san == san => {
                counts.recovered += 1;
            }
            Some((r, RepairOutcome::Unique(c))) => {
                let original: Vec<San> = main.iter().map(|m| m.2).collect();
                if repaired_moves(&broken, r, c).is_some_and(|moves| moves == original) {
                    counts.same_moves += 1;
                } else {
                    counts.wrong += 1;
                    tally.wrong.push(format!(
                        "game {} (White: {}), ply {ply}: {text} damaged to {damaged} ({edit}) was repaired as {} at ply {}",
                        game.index(),
                        game.tag("White").unwrap_or_default(),
                        c.san.to_string_in(r.lang),
                        r.ply
                    ));
                }
            }
            Some((_, RepairOutcome::Ambiguous(_))) => counts.ambiguous += 1,
            _ => counts.unrepaired += 1,
        }
        return;
    }
    tally.skipped += 1;
}

/// The main-line moves of `broken` with `repair` applied (its span replaced by the
/// candidate's SAN, read in the repair's language), as [`main_line`] gives them.
fn repaired_moves(broken: &Game, repair: &Repair, candidate: &Candidate) -> Option<Vec<San>> {
    let (start, end) = (repair.span.0 as usize, repair.span.1 as usize);
    let mut bytes = broken.bytes()[..start].to_vec();
    bytes.extend_from_slice(candidate.san.to_string_in(repair.lang).as_bytes());
    bytes.extend_from_slice(&broken.bytes()[end..]);
    let repaired = Game::from_bytes(bytes, broken.encoding_choice());
    let config = Config {
        lang: Some(repair.lang),
        ..Config::default()
    };
    let (mut out, mut played) = (Vec::new(), Vec::new());
    Checker::new(config).check_recording(&repaired, &mut out, &mut played);
    Some(
        main_line(&repaired, &played)?
            .into_iter()
            .map(|m| m.2)
            .collect(),
    )
}

/// Each main-line move of a clean game: its span in the game (the move token alone), its
/// canonical SAN, and the position before it. `None` when a main-line move did not
/// replay or the start position does not read.
fn main_line(
    game: &Game,
    played: &[planilla_validator::PlayedMove],
) -> Option<Vec<(u32, u32, San, Position)>> {
    let mut pos = match game.tag("FEN") {
        Some(fen) => Position::from_fen(&fen, Validation::Strict).ok()?,
        None => Position::new(),
    };
    let mut moves = Vec::new();
    let mut depth = 0u32;
    let mut recorded = played.iter();
    for token in game.tokens() {
        match token.kind {
            TokenKind::VariationStart => depth += 1,
            TokenKind::VariationEnd => depth = depth.saturating_sub(1),
            TokenKind::San if depth == 0 => {
                let move_ = recorded.find(|p| p.span.0 == token.start)?;
                let san = move_.san?;
                let m = san.resolve(&pos).ok()?;
                moves.push((token.start, token.end, san, pos));
                pos.play_unchecked(&m);
            }
            _ => {}
        }
    }
    Some(moves)
}

/// A game of `plies` random legal moves from the start (fewer when it ends on the board),
/// written in `lang` with move numbers and its result: data for the property that needs
/// no file.
pub fn random_game(rng: &mut Seeded, plies: usize, lang: Lang) -> String {
    let mut pos = Position::new();
    let mut text = String::new();
    let mut moves = MoveList::new();
    let mut result = "*";
    for ply in 0..plies {
        moves.clear();
        pos.legal_moves_into(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        let after = pos.play(&m);
        if ply % 2 == 0 {
            let _ = write!(text, "{}. ", pos.fullmoves());
        }
        let san = San::from_move(&pos, &m).with_suffix(Suffix::deserved(&after));
        let _ = write!(text, "{} ", san.to_string_in(lang));
        pos = after;
        if let Some(end) = pos.game_end() {
            result = match end.winner() {
                Some(planilla_core::Color::White) => "1-0",
                Some(planilla_core::Color::Black) => "0-1",
                None => "1/2-1/2",
            };
            break;
        }
    }
    format!("[Result \"{result}\"]\n\n{text}{result}\n")
}
