//! The archive against the tournament's own record: PGN games checked against the
//! pairings and results of a FIDE Tournament Report File (`check --trf`; the file is
//! read by [`planilla_parser::trf`]).
//!
//! A [`TrfCheck`] is made once from the file and shared by the workers: each asks
//! [`TrfCheck::judge`] about the game it has read (a pure function of the two: only its
//! tags and the main line's moves as written are looked at, no replay), which gives the
//! game's findings (`trf-result`, `trf-colours`, `trf-round`, `trf-unplayed`,
//! `trf-unknown-game`) and the pairings it is the game of. Whoever collects the results
//! marks those pairings; once every game is in, [`TrfCheck::missing`] lists, one note a
//! round, the played pairings left unmarked (`trf-missing-game`), and
//! [`TrfCheck::file_findings`] holds the faults of the file itself (`trf-file`). Memory
//! is the TRF's: a game leaves nothing behind but a mark on its pairing.
//!
//! Matching: a game's round is the first number of its Round tag; each of its players
//! is the TRF's player with the same FIDE number when the game's `WhiteFideId` /
//! `BlackFideId` names one, else the players whose name is the same, compared without
//! case, spaces, punctuation and accents, `Last, First` against `First Last`
//! ([`names`]), leaving out a player whose FIDE number differs from the game's.
//!
//! ```
//! use planilla_parser::Game;
//! use planilla_parser::trf;
//! use planilla_validator::Code;
//! use planilla_validator::trf::TrfCheck;
//!
//! let file = "\
//! 001    1      Carlsen, Magnus                                                    1.0    1     2 w 1
//! 001    2      Caruana, Fabiano                                                   0.0    2     1 b 0
//! ";
//! let check = TrfCheck::new("t.trf", &trf::read(file.as_bytes()));
//! let pgn = "[Round \"1\"]\n[White \"Magnus Carlsen\"]\n[Black \"Caruana,F\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 1/2-1/2";
//! let game = Game::from_bytes(pgn, Default::default());
//! let judged = check.judge(&game);
//! // "Caruana,F" is not "Caruana, Fabiano": an initial is not a name.
//! assert_eq!(judged.findings[0].code, Code::TrfUnknownGame);
//! let pgn = pgn.replace("Caruana,F", "Fabiano Caruana");
//! let game = Game::from_bytes(pgn, Default::default());
//! let judged = check.judge(&game);
//! assert_eq!(judged.findings[0].code, Code::TrfResult);
//! assert_eq!(
//!     judged.findings[0].message,
//!     "Round 1: Magnus Carlsen - Fabiano Caruana is 1/2-1/2 in the PGN, 1-0 in the TRF"
//! );
//! ```

mod names;

use crate::finding::{Code, Finding};
use planilla_parser::trf::{Colour, FIRST_ROUND_COLUMN, ROUND_WIDTH, Read, ResultCode, RoundField};
use planilla_parser::{Game, TokenKind};
use std::collections::HashMap;

/// What the TRF checks need of a game: its tags and the main line's moves as written,
/// without a replay (so that every shard of a run sees a game alike), and where each
/// is (byte offsets in the game, turned into a line and column only for a finding).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct TrfGame<'g> {
    /// The first number of the Round tag, when it has one.
    round: Option<u32>,
    /// The White and Black tags as written (decoded), trimmed; empty when missing.
    white: std::borrow::Cow<'g, str>,
    black: std::borrow::Cow<'g, str>,
    /// `WhiteFideId` and `BlackFideId`, when they are numbers other than 0.
    white_fide: Option<u64>,
    black_fide: Option<u64>,
    /// The result as written: the Result tag's value, else the result after the moves;
    /// empty when there is neither.
    result: std::borrow::Cow<'g, str>,
    /// The main line's moves as written (plies), whether they replay or not.
    plies: u32,
    /// Where the game starts (its first token).
    at_start: usize,
    /// Where its Round tag is (the game's start when it has none).
    at_round: usize,
    /// Where its White tag is (the game's start when it has none).
    at_white: usize,
    /// Where its result is: the Result tag, else the result after the moves, else the
    /// game's start.
    at_result: usize,
    /// Where its first main-line move is (the game's start when it has none).
    at_moves: usize,
}

impl<'g> TrfGame<'g> {
    fn new(game: &'g Game) -> TrfGame<'g> {
        let tokens = game.tokens();
        let at_start = tokens.first().map_or(0, |t| t.start as usize);
        let tag_at = |name: &str| {
            game.tags()
                .iter()
                .find(|t| &game.bytes()[t.name_span()] == name.as_bytes())
                .map(|t| tokens[t.token as usize].start as usize)
        };
        let mut depth = 0u32;
        let mut plies = 0u32;
        let mut first_move = None;
        let mut marker = None;
        for t in tokens {
            match t.kind {
                TokenKind::VariationStart => depth += 1,
                TokenKind::VariationEnd => depth = depth.saturating_sub(1),
                TokenKind::San if depth == 0 => {
                    plies += 1;
                    first_move.get_or_insert(t.start as usize);
                }
                TokenKind::Result if depth == 0 => marker = Some(*t),
                _ => {}
            }
        }
        let trimmed = |v: std::borrow::Cow<'g, str>| match v {
            std::borrow::Cow::Borrowed(b) => std::borrow::Cow::Borrowed(b.trim()),
            std::borrow::Cow::Owned(o) => std::borrow::Cow::Owned(o.trim().to_string()),
        };
        let tag_result = game.tag("Result").map(trimmed);
        let at_result = match (&tag_result, marker) {
            (Some(_), _) => tag_at("Result"),
            (None, Some(t)) => Some(t.start as usize),
            (None, None) => None,
        };
        let result = tag_result
            .or_else(|| marker.map(|t| game.decode(t.span())))
            .unwrap_or_default();
        let id = |name: &str| {
            game.tag(name)
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|&id| id != 0)
        };
        TrfGame {
            round: game.tag("Round").and_then(|r| first_number(&r)),
            white: game.tag("White").map(trimmed).unwrap_or_default(),
            black: game.tag("Black").map(trimmed).unwrap_or_default(),
            white_fide: id("WhiteFideId"),
            black_fide: id("BlackFideId"),
            result,
            plies,
            at_start,
            at_round: tag_at("Round").unwrap_or(at_start),
            at_white: tag_at("White").unwrap_or(at_start),
            at_result: at_result.unwrap_or(at_start),
            at_moves: first_move.unwrap_or(at_start),
        }
    }

    /// `Round 5: White - Black`, as the messages begin.
    fn title(&self) -> String {
        let name = |n: &str| {
            if n.is_empty() {
                "?".to_string()
            } else {
                n.to_string()
            }
        };
        match self.round {
            Some(r) => format!("Round {r}: {} - {}", name(&self.white), name(&self.black)),
            None => format!("{} - {}", name(&self.white), name(&self.black)),
        }
    }
}

/// The first number of a Round value (`5` of `5.12`), when it starts with one.
fn first_number(round: &str) -> Option<u32> {
    let round = round.trim();
    let digits = round.len() - round.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    round[..digits].parse().ok()
}

/// A result as PGN writes it, from the text of a game's result (`None`: no result
/// PGN writes, nor a spelling of one: kept as written in messages).
fn pgn_result(written: &str) -> Option<&'static str> {
    Some(match written.trim() {
        "1-0" | "+/-" | "+:-" | "1:0" => "1-0",
        "0-1" | "-/+" | "-:+" | "0:1" => "0-1",
        "1/2-1/2" | "½-½" | "1/2" | "=" | "0.5-0.5" | "½:½" => "1/2-1/2",
        "*" => "*",
        _ => return None,
    })
}

/// What the judge found about one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Judged {
    /// The findings, in the order of [`Code`].
    pub findings: Vec<Finding>,
    /// The pairings the game is the game of (by number, below [`TrfCheck::pairings`]).
    pub pairings: Vec<u32>,
    /// The result the TRF gives the game, as PGN writes it, when the game is its
    /// pairing's with the colours and round the TRF gives and the TRF knows the result
    /// (what `fix --trf` writes).
    pub trf_result: Option<&'static str>,
}

/// One player of the TRF.
#[derive(Clone, Debug)]
struct Entry {
    rank: u32,
    name: String,
    fide: Option<u64>,
    line: u64,
    rounds: Vec<RoundField>,
}

/// One pairing of a round: two players who met or were to meet.
#[derive(Clone, Debug)]
struct Pairing {
    round: u32,
    /// The player with White (the first listed when `coloured` is false).
    white: usize,
    black: usize,
    /// Whether the TRF gives the colours (a forfeit's are often `-`).
    coloured: bool,
    white_code: Option<ResultCode>,
    black_code: Option<ResultCode>,
    /// Where White's field of the round is (line, column).
    at: (u64, u64),
}

impl Pairing {
    /// The result with White first, as PGN writes it (`None`: not known, or a double
    /// forfeit).
    fn result(&self) -> Option<&'static str> {
        use ResultCode::*;
        let from_white = |c: ResultCode| match c {
            Win | ShortWin | ForfeitWin => Some("1-0"),
            Draw | ShortDraw => Some("1/2-1/2"),
            Loss | ShortLoss | ForfeitLoss => Some("0-1"),
            _ => None,
        };
        if self.white_code == Some(ForfeitLoss) && self.black_code == Some(ForfeitLoss) {
            return None;
        }
        match (self.white_code, self.black_code) {
            (Some(c), _) if from_white(c).is_some() => from_white(c),
            (_, Some(c)) => from_white(c).map(|r| match r {
                "1-0" => "0-1",
                "0-1" => "1-0",
                draw => draw,
            }),
            _ => None,
        }
    }

    /// The codes that say no game was played (a forfeit, a bye), or that the game
    /// lasted less than one move: the code and whether it is the latter.
    fn unplayed(&self) -> Option<(ResultCode, bool)> {
        use ResultCode::*;
        let codes = [self.white_code, self.black_code];
        if let Some(c) = codes.iter().flatten().find(|c| {
            matches!(
                c,
                ForfeitWin | ForfeitLoss | HalfBye | FullBye | PairingBye | ZeroBye
            )
        }) {
            return Some((*c, false));
        }
        codes
            .iter()
            .flatten()
            .find(|c| matches!(c, ShortWin | ShortDraw | ShortLoss))
            .map(|c| (*c, true))
    }

    /// Whether a game was played over the board (`1 = 0` with colours): a game the
    /// PGN should hold.
    fn played(&self) -> bool {
        use ResultCode::*;
        let board = |c: Option<ResultCode>| matches!(c, Some(Win | Draw | Loss));
        self.coloured
            && self.unplayed().is_none()
            && (board(self.white_code) || board(self.black_code))
    }
}

/// A TRF file ready to judge games against: its players, its pairings round by round,
/// and the faults of the file.
#[derive(Clone, Debug, Default)]
pub struct TrfCheck {
    file: String,
    players: Vec<Entry>,
    by_fide: HashMap<u64, Vec<usize>>,
    by_name: HashMap<String, Vec<usize>>,
    pairings: Vec<Pairing>,
    /// The pairings of each two players (the lower player's index first).
    by_pair: HashMap<(usize, usize), Vec<u32>>,
    /// The byes of `240` records: (player, round) to the code.
    byes: HashMap<(usize, u32), ResultCode>,
    file_findings: Vec<Finding>,
}

impl TrfCheck {
    /// The TRF at `path` read and checked, its findings naming it `name`.
    ///
    /// # Errors
    ///
    /// The file cannot be read.
    pub fn from_file(path: &std::path::Path, name: &str) -> std::io::Result<TrfCheck> {
        let bytes = std::fs::read(path)?;
        Ok(TrfCheck::new(name, &planilla_parser::trf::read(&bytes)))
    }

    /// The check of the TRF `read` (named `file` in the findings): its players and
    /// pairings, and the faults of its lines (`trf-file`) with those of the pairings
    /// themselves (an opponent that is no player, two fields of one game that do not
    /// name each other, the same colour or results that do not add up on both sides).
    pub fn new(file: &str, read: &Read) -> TrfCheck {
        let mut check = TrfCheck {
            file: file.to_string(),
            ..TrfCheck::default()
        };
        for e in &read.errors {
            check.fault((e.line, e.column), e.message.clone());
        }
        if read.tournament.players.is_empty() {
            check.fault(
                (1, 1),
                "no player record (a line starting with 001) in the file: no game can be \
                 matched (is it a TRF?)"
                    .to_string(),
            );
        }
        let mut by_rank: HashMap<u32, usize> = HashMap::new();
        for p in &read.tournament.players {
            if let Some(&first) = by_rank.get(&p.rank) {
                let first_line = check.players[first].line;
                check.fault(
                    (p.line, 5),
                    format!(
                        "starting rank {} is given twice (line {first_line} and this line); \
                         this record is skipped",
                        p.rank
                    ),
                );
                continue;
            }
            let index = check.players.len();
            by_rank.insert(p.rank, index);
            if let Some(id) = p.fide_id {
                check.by_fide.entry(id).or_default().push(index);
            }
            let (joined, sorted) = names::keys(&p.name);
            if !joined.is_empty() {
                check.by_name.entry(joined).or_default().push(index);
                check.by_name.entry(sorted).or_default().push(index);
            }
            check.players.push(Entry {
                rank: p.rank,
                name: p.name.clone(),
                fide: p.fide_id,
                line: p.line,
                rounds: p.rounds.clone(),
            });
        }
        for b in &read.tournament.byes {
            for rank in &b.players {
                match by_rank.get(rank) {
                    Some(&p) => {
                        check.byes.insert((p, b.round), b.kind);
                    }
                    None => check.fault(
                        (b.line, 11),
                        format!("bye record: {rank} is no player's starting rank"),
                    ),
                }
            }
        }
        check.pair(&by_rank);
        check
    }

    /// A `trf-file` finding at `at`.
    fn fault(&mut self, at: (u64, u64), message: String) {
        self.file_findings.push(Finding {
            code: Code::TrfFile,
            game: 0,
            ply: None,
            line: at.0,
            column: at.1,
            numbered_move: None,
            san: None,
            message,
            fen: None,
            variation: Vec::new(),
        });
    }

    /// The pairings, from each player's round fields, and the faults of fields that do
    /// not agree with each other.
    fn pair(&mut self, by_rank: &HashMap<u32, usize>) {
        let column = |round: u32, offset: u64| {
            (FIRST_ROUND_COLUMN + (round as usize - 1) * ROUND_WIDTH) as u64 + offset
        };
        for p in 0..self.players.len() {
            for (r, field) in self.players[p].rounds.clone().iter().enumerate() {
                let round = r as u32 + 1;
                let line = self.players[p].line;
                let rank = self.players[p].rank;
                let Some(opponent) = field.opponent else {
                    continue;
                };
                let Some(&o) = by_rank.get(&opponent) else {
                    self.fault(
                        (line, column(round, 0)),
                        format!(
                            "player {rank}, round {round}: the opponent {opponent} is no \
                             player's starting rank"
                        ),
                    );
                    continue;
                };
                if o == p {
                    self.fault(
                        (line, column(round, 0)),
                        format!("player {rank}, round {round}: paired with themself"),
                    );
                    continue;
                }
                let theirs = self.players[o].rounds.get(r).copied().unwrap_or_default();
                if o < p {
                    // The pair was made from the other's field, which may not name this
                    // player back (reported there, at the other's line).
                    if theirs.opponent == Some(rank) {
                        continue;
                    }
                }
                match theirs.opponent {
                    Some(x) if x == rank => {}
                    Some(x) => {
                        self.fault(
                            (line, column(round, 0)),
                            format!(
                                "player {rank}, round {round}: the opponent is {opponent}, whose \
                                 round {round} field names {x} (line {})",
                                self.players[o].line
                            ),
                        );
                        continue;
                    }
                    None => {
                        // The other's field names nobody: cut short, or its opponent
                        // unreadable (already a fault there). The pairing is this field's.
                        let (their_line, start) = (self.players[o].line, column(round, 0));
                        let known = self.file_findings.iter().any(|f| {
                            f.line == their_line
                                && (start..start + ROUND_WIDTH as u64).contains(&f.column)
                        });
                        if !known {
                            let their_rank = self.players[o].rank;
                            self.fault(
                                (their_line, start),
                                format!(
                                    "player {their_rank}, round {round}: no opponent, but player \
                                     {rank} (line {line}) has {their_rank} as opponent"
                                ),
                            );
                        }
                    }
                }
                // This player comes first in the file: the pair is made once, here.
                let (coloured, white, black, white_code, black_code) =
                    match (field.colour, theirs.colour) {
                        (Some(Colour::White), _) | (None, Some(Colour::Black)) => {
                            (true, p, o, field.result, theirs.result)
                        }
                        (Some(Colour::Black), _) | (None, Some(Colour::White)) => {
                            (true, o, p, theirs.result, field.result)
                        }
                        (None, None) => (false, p, o, field.result, theirs.result),
                    };
                if field.colour.is_some() && field.colour == theirs.colour {
                    let their_rank = self.players[o].rank;
                    self.fault(
                        (self.players[o].line, column(round, 5)),
                        format!(
                            "player {their_rank}, round {round}: the same colour as their \
                             opponent {rank} (line {line})"
                        ),
                    );
                }
                if let (Some(a), Some(b)) = (field.result, theirs.result)
                    && !complementary(a, b)
                {
                    let their_rank = self.players[o].rank;
                    self.fault(
                        (self.players[o].line, column(round, 7)),
                        format!(
                            "player {their_rank}, round {round}: the result '{}' does not \
                             answer their opponent {rank}'s '{}' (line {line})",
                            b.as_char(),
                            a.as_char()
                        ),
                    );
                }
                let at = (self.players[white].line, column(round, 0));
                let id = self.pairings.len() as u32;
                self.pairings.push(Pairing {
                    round,
                    white,
                    black,
                    coloured,
                    white_code,
                    black_code,
                    at,
                });
                self.by_pair
                    .entry((p.min(o), p.max(o)))
                    .or_default()
                    .push(id);
            }
        }
    }

    /// The faults of the file itself (`trf-file`), in file order; `game` is 0.
    pub fn file_findings(&self) -> Vec<Finding> {
        let mut found = self.file_findings.clone();
        found.sort_by_key(|f| (f.line, f.column));
        found
    }

    /// The file's name, as given to [`TrfCheck::new`].
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The players a game's side may be: the one with its FIDE number, else those of
    /// its name whose FIDE number does not differ from it.
    fn find(&self, name: &str, fide: Option<u64>) -> Vec<usize> {
        if let Some(found) = fide.and_then(|id| self.by_fide.get(&id)) {
            return found.clone();
        }
        let (joined, sorted) = names::keys(name);
        if joined.is_empty() {
            return Vec::new();
        }
        let mut found: Vec<usize> = [joined, sorted]
            .iter()
            .filter_map(|k| self.by_name.get(k))
            .flatten()
            .copied()
            .filter(|&p| !matches!((fide, self.players[p].fide), (Some(a), Some(b)) if a != b))
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// A player's name as the TRF writes it.
    fn name(&self, p: usize) -> &str {
        &self.players[p].name
    }

    /// Judges one game: its findings and the pairings it is the game of.
    pub fn judge(&self, game: &Game) -> Judged {
        let g = &TrfGame::new(game);
        let mut judged = Judged::default();
        let whites = self.find(&g.white, g.white_fide);
        let blacks = self.find(&g.black, g.black_fide);
        // Every pairing of the two players, as (pairing, whether the colours are the
        // game's or unknown, whether the game's White is the pairing's second player).
        let mut met: Vec<(u32, bool, bool)> = Vec::new();
        for &w in &whites {
            for &b in &blacks {
                if w == b {
                    continue;
                }
                for &id in self
                    .by_pair
                    .get(&(w.min(b), w.max(b)))
                    .into_iter()
                    .flatten()
                {
                    let p = &self.pairings[id as usize];
                    met.push((id, !p.coloured || p.white == w, p.white != w));
                }
            }
        }
        met.sort_unstable();
        met.dedup();
        if met.is_empty() {
            let title = g.title();
            judged.findings.push(Finding::in_game(
                Code::TrfUnknownGame,
                game,
                g.at_start,
                self.unknown(g, &title, &whites, &blacks),
            ));
            return judged;
        }
        let round_of = |id: u32| self.pairings[id as usize].round;
        // The pairing of the game's round, the colours as the game's first; with no
        // round, the one pairing whose colours are the game's, else the first.
        let in_round: Vec<&(u32, bool, bool)> = match g.round {
            Some(r) => met.iter().filter(|(id, _, _)| round_of(*id) == r).collect(),
            None => met.iter().collect(),
        };
        let chosen = in_round
            .iter()
            .find(|(_, same, _)| *same)
            .or_else(|| in_round.first())
            .copied();
        let Some(&(id, same, flipped)) = chosen else {
            // Paired, in another round: the nearest, the game's colours first.
            let r = g.round.unwrap_or(0);
            let (id, _, _) = *met
                .iter()
                .min_by_key(|(id, same, _)| (!same, round_of(*id).abs_diff(r), round_of(*id)))
                .expect("met is not empty");
            let mut rounds: Vec<u32> = met.iter().map(|(id, _, _)| round_of(*id)).collect();
            rounds.sort_unstable();
            rounds.dedup();
            let listed: Vec<String> = rounds.iter().map(u32::to_string).collect();
            let (word, list) = if listed.len() == 1 {
                ("round", listed[0].clone())
            } else {
                ("rounds", listed.join(", "))
            };
            let title = g.title();
            judged.findings.push(Finding::in_game(
                Code::TrfRound,
                game,
                g.at_round,
                format!("{title}: the TRF pairs these players in {word} {list}, not in round {r}"),
            ));
            judged.pairings.push(id);
            return judged;
        };
        judged.pairings.push(id);
        let p = &self.pairings[id as usize];
        // The TRF's result with the game's White first.
        let flip = |r: &'static str| match r {
            "1-0" => "0-1",
            "0-1" => "1-0",
            draw => draw,
        };
        let trf_result = p.result().map(|r| if flipped { flip(r) } else { r });
        if let Some((code, short)) = p.unplayed() {
            let enough = if short { 2 } else { 1 };
            if g.plies >= enough {
                let how = if short {
                    format!("a game of less than one move ({})", self.codes(p))
                } else {
                    let what = match code {
                        ResultCode::ForfeitWin | ResultCode::ForfeitLoss => "a forfeit",
                        bye => bye.meaning(),
                    };
                    format!("no game played ({what}: {})", self.codes(p))
                };
                let title = g.title();
                judged.findings.push(Finding::in_game(
                    Code::TrfUnplayed,
                    game,
                    g.at_moves,
                    format!(
                        "{title} has moves in the PGN ({} plies), but the TRF records {how}",
                        g.plies
                    ),
                ));
            }
        }
        // A forfeit's or a bye's colours were never played: the unplayed game says it.
        let moot = p.unplayed().is_some_and(|(_, short)| !short);
        if !same && !moot {
            let tr = p.result().map(|r| format!(", {r}")).unwrap_or_default();
            let title = g.title();
            judged.findings.push(Finding::in_game(
                Code::TrfColours,
                game,
                g.at_white,
                format!(
                    "{title}: the TRF has the colours the other way round: {} - {}{tr}",
                    self.name(p.white),
                    self.name(p.black)
                ),
            ));
            judged.findings.sort_by_key(|f| f.code);
            return judged;
        }
        // Here the colours are the game's, or a forfeit's that were never played: the
        // result is compared player by player.
        if let Some(trf) = trf_result {
            let written: &str = &g.result;
            let pgn = pgn_result(written);
            if pgn != Some(trf) {
                let is = match (pgn, written) {
                    (Some(r), _) => format!("is {r}"),
                    (None, "") => "has no result".to_string(),
                    (None, w) => format!("is '{w}'"),
                };
                let title = g.title();
                judged.findings.push(Finding::in_game(
                    Code::TrfResult,
                    game,
                    g.at_result,
                    format!("{title} {is} in the PGN, {trf} in the TRF"),
                ));
                judged.trf_result = Some(trf);
            }
        }
        judged.findings.sort_by_key(|f| f.code);
        judged
    }

    /// The message of a game whose players the TRF never pairs.
    fn unknown(&self, g: &TrfGame<'_>, title: &str, whites: &[usize], blacks: &[usize]) -> String {
        let side = |name: &str, found: &[usize]| -> Option<String> {
            found.is_empty().then(|| {
                if name.is_empty() {
                    "no name".to_string()
                } else {
                    format!("'{name}'")
                }
            })
        };
        match (side(&g.white, whites), side(&g.black, blacks)) {
            (Some(w), Some(b)) => {
                format!("{title}: neither player is in the TRF ({w}, {b})")
            }
            (Some(one), None) | (None, Some(one)) => {
                format!("{title}: {one} is not a player of the TRF")
            }
            (None, None) => {
                let mut message = format!("{title}: the TRF never pairs these players");
                if let Some(r) = g.round {
                    let byes: Vec<String> = whites
                        .iter()
                        .chain(blacks)
                        .filter_map(|&p| {
                            let code = self.byes.get(&(p, r)).copied().or_else(|| {
                                let f = self.players[p].rounds.get(r as usize - 1)?;
                                f.opponent.is_none().then_some(f.result?)
                            })?;
                            Some(format!(
                                "{} has {} in round {r}",
                                self.name(p),
                                code.meaning()
                            ))
                        })
                        .collect();
                    if !byes.is_empty() {
                        message.push_str(&format!(" ({})", byes.join("; ")));
                    }
                }
                message
            }
        }
    }

    /// Both players' codes of a pairing: `Carlsen, Magnus +, Caruana, Fabiano -`.
    fn codes(&self, p: &Pairing) -> String {
        let code =
            |c: Option<ResultCode>| c.map_or("blank".to_string(), |c| c.as_char().to_string());
        format!(
            "{} {}, {} {}",
            self.name(p.white),
            code(p.white_code),
            self.name(p.black),
            code(p.black_code)
        )
    }

    /// The number of pairings: [`Judged::pairings`] are below it, and
    /// [`TrfCheck::missing`] takes a mark for each.
    pub fn pairings(&self) -> usize {
        self.pairings.len()
    }

    /// One `trf-missing-game` note a round, in round order: the pairings played over
    /// the board (results `1 = 0` with colours) not `marked` (a mark a pairing, set for
    /// the [`Judged::pairings`] of every game judged), at the field of the round of the
    /// first one's White.
    pub fn missing(&self, marked: &[bool]) -> Vec<Finding> {
        let mut by_round: Vec<(u32, Vec<&Pairing>)> = Vec::new();
        let mut open: Vec<&Pairing> = self
            .pairings
            .iter()
            .zip(marked)
            .filter(|(p, marked)| !**marked && p.played())
            .map(|(p, _)| p)
            .collect();
        open.sort_by_key(|p| (p.round, p.at));
        for p in open {
            match by_round.last_mut() {
                Some((r, list)) if *r == p.round => list.push(p),
                _ => by_round.push((p.round, vec![p])),
            }
        }
        by_round
            .into_iter()
            .map(|(round, list)| {
                let games: Vec<String> = list
                    .iter()
                    .map(|p| {
                        let result = p.result().unwrap_or("*");
                        format!("{} - {} ({result})", self.name(p.white), self.name(p.black))
                    })
                    .collect();
                let count = if games.len() == 1 {
                    "1 game played has".to_string()
                } else {
                    format!("{} games played have", games.len())
                };
                Finding {
                    code: Code::TrfMissingGame,
                    game: 0,
                    ply: None,
                    line: list[0].at.0,
                    column: list[0].at.1,
                    numbered_move: None,
                    san: None,
                    message: format!(
                        "Round {round}: {count} no game in the PGN: {}",
                        games.join(", ")
                    ),
                    fen: None,
                    variation: Vec::new(),
                }
            })
            .collect()
    }
}

/// Whether two players' results of one game add up.
fn complementary(a: ResultCode, b: ResultCode) -> bool {
    use ResultCode::*;
    matches!(
        (a, b),
        (Win, Loss)
            | (Loss, Win)
            | (Draw, Draw)
            | (ForfeitWin, ForfeitLoss)
            | (ForfeitLoss, ForfeitWin)
            | (ForfeitLoss, ForfeitLoss)
            | (ShortWin, ShortLoss)
            | (ShortLoss, ShortWin)
            | (ShortDraw, ShortDraw)
    )
}

#[cfg(test)]
mod tests;
