//! Archives of distinct games with planted copies, for the archive checks' scale proof
//! (`archive-gen`, `scripts/check-archive`) and their sharding property (`tests/archive.rs`).
//!
//! Games are random legal playouts of realistic length (20 to 160 plies, fewer when the
//! game ends on the board) in tournaments of 64 players and 9 rounds, each round a fresh
//! pairing of the players, so the same two players meet again in other rounds (which is
//! no copy and no conflict). Every `plant_every` games one planted case follows (or, for
//! a truncated copy, precedes) the game it copies, in turn: an exact duplicate with
//! another Site, a truncated copy, a conflicting copy, a player twice in a round, two
//! games on one board, a FideId under a second name. Each planted case gives exactly one
//! finding; [`Planted`] counts them by code.

use crate::Seeded;
use planilla_core::san::{Lang, San, Suffix};
use planilla_core::{Color, Move, MoveList, Position};
use std::fmt::Write;

/// Players in one tournament.
const PLAYERS: usize = 64;
/// Rounds in one tournament.
const ROUNDS: u32 = 9;
/// The pool the tournaments' players come from.
const POOL: u32 = 20_000;

/// How many planted cases of each kind were written: the findings a run should give.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Planted {
    /// `duplicate-game`.
    pub duplicates: u64,
    /// `truncated-copy`.
    pub truncated: u64,
    /// `conflicting-copies`.
    pub conflicting: u64,
    /// `round-conflict` (a player twice in a round, or two games on one board).
    pub round_conflicts: u64,
    /// `player-identity`.
    pub identities: u64,
}

/// One game as the generator keeps it: tags, moves and result.
#[derive(Clone)]
struct Record {
    tags: Vec<(&'static str, String)>,
    moves: Vec<Move>,
    result: &'static str,
}

/// The generator: call [`ArchiveGen::next_games`] until enough games are written.
pub struct ArchiveGen {
    rng: Seeded,
    plant_every: u64,
    /// Original games written.
    games: u64,
    /// Planted cases written, the next kind chosen by their count.
    plants: u64,
    event: u64,
    round: u32,
    /// This event's players, and this round's order of them (boards in pairs).
    players: Vec<u32>,
    order: Vec<usize>,
    /// The next board of the round.
    board: usize,
    /// Players made up for planted cases, numbered above the pool.
    extra_players: u32,
    /// What was planted so far.
    pub planted: Planted,
}

impl ArchiveGen {
    /// A generator seeded with `seed` that plants a case after every `plant_every`
    /// games (0: none).
    pub fn new(seed: u64, plant_every: u64) -> ArchiveGen {
        let mut generator = ArchiveGen {
            rng: Seeded::new(seed),
            plant_every,
            games: 0,
            plants: 0,
            event: 0,
            round: ROUNDS,
            players: Vec::new(),
            order: Vec::new(),
            board: PLAYERS / 2,
            extra_players: POOL,
            planted: Planted::default(),
        };
        generator.next_pairing();
        generator
    }

    /// Original games written so far (planted cases not counted).
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Appends the next game to `out`, and a planted case with it when one is due.
    pub fn next_games(&mut self, out: &mut String) {
        if self.board == PLAYERS / 2 {
            self.next_pairing();
        }
        let board = self.board;
        self.board += 1;
        let (white, black) = (
            self.players[self.order[2 * board]],
            self.players[self.order[2 * board + 1]],
        );
        let mut game = self.game(white, black, board + 1);
        (game.moves, game.result) = self.random_line();
        self.games += 1;
        let due = self.plant_every > 0 && self.games.is_multiple_of(self.plant_every);
        if !due {
            write_game(&game, out);
            return;
        }
        self.plants += 1;
        match self.plants % 6 {
            0 => {
                write_game(&game, out);
                let mut copy = game.clone();
                set(
                    &mut copy,
                    "Site",
                    "Planilla City (second relay)".to_string(),
                );
                write_game(&copy, out);
                self.planted.duplicates += 1;
            }
            1 => {
                let mut cut = game.clone();
                cut.moves.truncate(self.rng.below(game.moves.len().max(1)));
                cut.result = "*";
                set(&mut cut, "Result", "*".to_string());
                // The shorter game first or second: it is reported either way.
                if self.rng.below(2) == 0 {
                    write_game(&cut, out);
                    write_game(&game, out);
                } else {
                    write_game(&game, out);
                    write_game(&cut, out);
                }
                self.planted.truncated += 1;
            }
            2 => {
                write_game(&game, out);
                let part = self.rng.below(game.moves.len());
                let (moves, result) = self.playout(&Position::new(), &game.moves[..=part], 20);
                let copy = Record {
                    moves,
                    result,
                    ..game.clone()
                };
                // A position with no other move would make a prefix, not a conflict.
                if copy.moves.len() > part && copy.moves[part] != game.moves[part] {
                    write_game(&copy, out);
                    self.planted.conflicting += 1;
                }
            }
            3 => {
                write_game(&game, out);
                let stranger = self.extra_player();
                let extra = self.extra_game(white, stranger, PLAYERS + 1 + board);
                write_game(&extra, out);
                self.planted.round_conflicts += 1;
            }
            4 => {
                write_game(&game, out);
                let (a, b) = (self.extra_player(), self.extra_player());
                let extra = self.extra_game(a, b, board + 1);
                write_game(&extra, out);
                self.planted.round_conflicts += 1;
            }
            _ => {
                write_game(&game, out);
                let stranger = self.extra_player();
                let mut extra = self.extra_game(white, stranger, 1);
                set(
                    &mut extra,
                    "Event",
                    format!("Generated Blitz {}", self.plants),
                );
                // A name of this case's own: a player planted twice gets two new names.
                set(
                    &mut extra,
                    "White",
                    format!("{} (relay {})", name(white), self.plants),
                );
                write_game(&extra, out);
                self.planted.identities += 1;
            }
        }
    }

    /// Starts the next round, or the next event after the last round.
    fn next_pairing(&mut self) {
        self.round += 1;
        if self.round > ROUNDS {
            self.round = 1;
            self.event += 1;
            self.players.clear();
            while self.players.len() < PLAYERS {
                let p = self.rng.below(POOL as usize) as u32;
                if !self.players.contains(&p) {
                    self.players.push(p);
                }
            }
        }
        self.order = (0..PLAYERS).collect();
        for i in (1..PLAYERS).rev() {
            self.order.swap(i, self.rng.below(i + 1));
        }
        self.board = 0;
    }

    fn extra_player(&mut self) -> u32 {
        self.extra_players += 1;
        self.extra_players
    }

    /// A game of this round between `white` and `black` on `board`, with no moves yet.
    fn game(&mut self, white: u32, black: u32, board: usize) -> Record {
        let day = 1 + (self.event % 28) as u32;
        Record {
            tags: vec![
                ("Event", format!("Generated Open {}", self.event)),
                ("Site", "Planilla City".to_string()),
                ("Date", format!("2025.{:02}.{day:02}", 1 + self.round)),
                ("Round", self.round.to_string()),
                ("White", name(white)),
                ("Black", name(black)),
                ("Result", String::new()),
                ("WhiteFideId", (1_000_000 + white).to_string()),
                ("BlackFideId", (1_000_000 + black).to_string()),
                ("Board", board.to_string()),
            ],
            moves: Vec::new(),
            result: "*",
        }
    }

    /// A planted game of this round, with moves of its own.
    fn extra_game(&mut self, white: u32, black: u32, board: usize) -> Record {
        let mut game = self.game(white, black, board);
        (game.moves, game.result) = self.random_line();
        game
    }

    /// A game's moves of realistic length from the start, and its result. A playout
    /// that ends on the board within 16 plies is drawn again: a few such short mates
    /// exist (the fool's mate, 4 plies), and two of them would be no distinct games.
    fn random_line(&mut self) -> (Vec<Move>, &'static str) {
        loop {
            let plies = 20 + self.rng.below(141);
            let line = self.playout(&Position::new(), &[], plies);
            if line.0.len() >= 16 {
                return line;
            }
        }
    }

    /// `prefix` played from `start`, then random legal moves up to `plies` in all (at
    /// least one more, unlike the last move of `prefix`, when the position allows), and
    /// the result: the board's when the game ends there, else one of the three.
    fn playout(
        &mut self,
        start: &Position,
        prefix: &[Move],
        plies: usize,
    ) -> (Vec<Move>, &'static str) {
        let mut pos = *start;
        let (last, kept) = match prefix.split_last() {
            Some((last, kept)) => (Some(*last), kept),
            None => (None, prefix),
        };
        for m in kept {
            pos.play_unchecked(m);
        }
        let mut moves = kept.to_vec();
        let mut list = MoveList::new();
        while moves.len() < plies.max(kept.len() + 1) {
            list.clear();
            pos.legal_moves_into(&mut list);
            let choices: Vec<Move> = list
                .iter()
                .copied()
                .filter(|m| moves.len() != kept.len() || Some(*m) != last)
                .collect();
            if choices.is_empty() {
                break;
            }
            let m = choices[self.rng.below(choices.len())];
            pos.play_unchecked(&m);
            moves.push(m);
            if let Some(end) = pos.game_end() {
                let result = match end.winner() {
                    Some(Color::White) => "1-0",
                    Some(Color::Black) => "0-1",
                    None => "1/2-1/2",
                };
                return (moves, result);
            }
        }
        (moves, ["1-0", "0-1", "1/2-1/2"][self.rng.below(3)])
    }
}

/// A player's name: surname and initial, as archives write them.
fn name(player: u32) -> String {
    let initial = (b'A' + (player % 26) as u8) as char;
    format!("Player{player}, {initial}.")
}

fn set(game: &mut Record, tag: &str, value: String) {
    if let Some(t) = game.tags.iter_mut().find(|(n, _)| *n == tag) {
        t.1 = value;
    }
}

/// Writes `game` as PGN: its tags, its moves in lines of about 80 characters, its result.
fn write_game(game: &Record, out: &mut String) {
    for (tag, value) in &game.tags {
        let value = if *tag == "Result" { game.result } else { value };
        let _ = writeln!(out, "[{tag} \"{value}\"]");
    }
    out.push('\n');
    let mut pos = Position::new();
    let mut line = 0;
    for (i, m) in game.moves.iter().enumerate() {
        let before = out.len();
        if i % 2 == 0 {
            let _ = write!(out, "{}. ", pos.fullmoves());
        }
        let after = pos.play(m);
        let san = San::from_move(&pos, m).with_suffix(Suffix::deserved(&after));
        out.push_str(&san.to_string_in(Lang::En));
        pos = after;
        line += out.len() - before;
        if line > 72 {
            out.push('\n');
            line = 0;
        } else {
            out.push(' ');
            line += 1;
        }
    }
    out.push_str(game.result);
    out.push_str("\n\n");
}
