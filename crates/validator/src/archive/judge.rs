//! The judgement at the end of a run: the keys that repeat pick the candidates, their
//! details are read back, and each question is decided on the details alone.

use super::detail::Detail;
use super::facts::Facts;
use super::record::{
    BLACK_IN_ROUND, BOARD_IN_ROUND, LINE, PAIR, PAIR_IN_ROUND, PAIR_OPENING, SLOTS, WHITE_IN_ROUND,
};
use super::{Archive, ArchiveFinding};
use crate::finding::{Code, Finding};
use std::collections::{BTreeMap, HashMap};
use std::io;

/// A game read back: its file's number, details and normalised tags.
struct Loaded {
    file: u32,
    detail: Detail,
    facts: Facts,
}

/// The games whose keys repeat, as groups of game numbers in input order.
type Groups = Vec<Vec<u32>>;

/// The findings so far: one per game and code, the one naming the earliest other game.
#[derive(Default)]
struct Found(BTreeMap<(u32, Code), (u32, Finding)>);

/// The run's games as read back, with the files' names, for the messages.
struct Run<'a> {
    loaded: &'a HashMap<u32, Loaded>,
    files: &'a [String],
}

impl Run<'_> {
    fn get(&self, game: u32) -> Option<&Loaded> {
        self.loaded.get(&game)
    }

    /// How a message names game `game`: its index and file.
    fn name(&self, game: &Loaded) -> String {
        format!(
            "game {} of {}",
            game.detail.index, self.files[game.file as usize]
        )
    }
}

impl Found {
    /// Records a finding about `game`, which names `other`, unless one naming an
    /// earlier game is already there.
    fn add(
        &mut self,
        game: u32,
        other: u32,
        about: &Loaded,
        code: Code,
        ply: Option<u32>,
        message: String,
    ) {
        let entry = self.0.entry((game, code));
        let finding = Finding {
            code,
            game: about.detail.index,
            ply,
            line: about.detail.line,
            column: 1,
            numbered_move: None,
            san: None,
            message,
            fen: None,
            variation: Vec::new(),
        };
        match entry {
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert((other, finding));
            }
            std::collections::btree_map::Entry::Occupied(mut o) => {
                if other < o.get().0 {
                    o.insert((other, finding));
                }
            }
        }
    }
}

/// Judges every game of `archive` (see [`Archive::finish`]).
pub(super) fn judge(mut archive: Archive) -> io::Result<Vec<ArchiveFinding>> {
    let mut wanted = vec![0u64; archive.keys[0].len().div_ceil(64)];
    // Each column goes once it is grouped, so that the keys and one sort's entries are
    // never all in memory at once.
    let mut column = |slot: usize| std::mem::take(&mut archive.keys[slot]);
    let lines = groups(&[column(LINE)], &mut wanted);
    let opening = column(PAIR_OPENING);
    let short = short_pairs(&column(PAIR), &opening, &mut wanted);
    let openings = groups(&[opening], &mut wanted);
    let in_round = groups(&[column(PAIR_IN_ROUND)], &mut wanted);
    let rounds = groups(
        &[
            column(WHITE_IN_ROUND),
            column(BLACK_IN_ROUND),
            column(BOARD_IN_ROUND),
        ],
        &mut wanted,
    );

    // Of ten million games, some twenty thousand share a 32-bit key by chance in each
    // slot: their full keys, computed again from their details, drop those groups
    // before any details are kept.
    let mut full: HashMap<u32, [u64; SLOTS]> = HashMap::new();
    archive.spill.read_back(&wanted, |game, _, _, bytes| {
        if let Some(detail) = Detail::decode(bytes, 0) {
            let fields = Facts::of(&detail).fields();
            full.insert(game, detail.keys(&fields));
        }
    })?;
    let lines = confirmed(lines, &[LINE], &full);
    let mut pairs = confirmed(short, &[PAIR], &full);
    pairs.extend(confirmed(openings, &[PAIR_OPENING], &full));
    pairs.extend(confirmed(in_round, &[PAIR_IN_ROUND], &full));
    let rounds = confirmed(
        rounds,
        &[WHITE_IN_ROUND, BLACK_IN_ROUND, BOARD_IN_ROUND],
        &full,
    );
    drop(full);
    wanted.fill(0);
    for &game in lines.iter().chain(&pairs).chain(&rounds).flatten() {
        wanted[game as usize / 64] |= 1 << (game % 64);
    }
    let (by_fide, by_name) = identity_groups(&archive.identities, &mut wanted);

    let mut loaded = HashMap::new();
    archive
        .spill
        .read_back(&wanted, |game, file, caller_key, bytes| {
            if let Some(detail) = Detail::decode(bytes, caller_key) {
                let facts = Facts::of(&detail);
                loaded.insert(
                    game,
                    Loaded {
                        file,
                        detail,
                        facts,
                    },
                );
            }
        })?;
    let run = Run {
        loaded: &loaded,
        files: &archive.files,
    };
    let mut found = Found::default();
    for group in &lines {
        duplicates(&run, group, &mut found);
    }
    for group in &pairs {
        copies(&run, group, &mut found);
    }
    for group in &rounds {
        round_conflicts(&run, group, &mut found);
    }
    identities(&run, &by_fide, &by_name, &mut found);
    Ok(found
        .0
        .into_iter()
        .map(|((game, _), (other, finding))| ArchiveFinding {
            file: run.files[loaded[&game].file as usize].clone(),
            finding,
            caller_key: loaded[&game].detail.caller_key,
            game_in_run: game,
            other_in_run: other,
        })
        .collect())
}

/// The groups of `groups` split by the full keys of `slots` (see [`keys`]): the games of
/// each full key that two or more share, in input order.
fn confirmed(groups: Groups, slots: &[usize], full: &HashMap<u32, [u64; SLOTS]>) -> Groups {
    let mut out = Groups::new();
    for group in groups {
        let mut entries: Vec<(u64, u32)> = group
            .iter()
            .filter_map(|game| full.get(game).map(|keys| (game, keys)))
            .flat_map(|(&game, keys)| slots.iter().map(move |&slot| (keys[slot], game)))
            .filter(|&(key, _)| key != 0)
            .collect();
        entries.sort_unstable();
        for run in entries.chunk_by(|a, b| a.0 == b.0) {
            let mut games: Vec<u32> = run.iter().map(|&(_, game)| game).collect();
            games.dedup();
            if games.len() > 1 {
                out.push(games);
            }
        }
    }
    out
}

/// The groups of games that share a key in one of `columns` (one key space for them
/// all), each group in input order; marks their games as wanted.
fn groups(columns: &[Vec<u32>], wanted: &mut [u64]) -> Groups {
    let repeated = Repeated::of(columns);
    // Key and game in one number: a sort of plain integers, the fastest there is.
    let mut entries: Vec<u64> = Vec::new();
    for column in columns {
        for (game, &key) in column.iter().enumerate() {
            if key != 0 && repeated.may_repeat(key) {
                entries.push(u64::from(key) << 32 | game as u64);
            }
        }
    }
    entries.sort_unstable();
    let mut out = Vec::new();
    for run in entries.chunk_by(|a, b| a >> 32 == b >> 32) {
        if run.len() < 2 {
            continue;
        }
        let mut group: Vec<u32> = run.iter().map(|&entry| entry as u32).collect();
        group.dedup();
        if group.len() < 2 {
            continue;
        }
        for &game in &group {
            wanted[game as usize / 64] |= 1 << (game % 64);
        }
        out.push(group);
    }
    out
}

/// Which keys of some columns may repeat: a key's bucket (its low bits, of eight
/// buckets a key) met twice. Nearly every key is met once, so that only a few
/// percent of them go on to the sort, which would cost the most of the judge's time
/// on millions of games (a sort of ten million numbers takes about a second; two
/// passes over a bit set of 16 MB a tenth of that).
struct Repeated {
    mask: u32,
    twice: Vec<u64>,
}

impl Repeated {
    fn of(columns: &[Vec<u32>]) -> Repeated {
        let keys: usize = columns.iter().map(Vec::len).sum();
        let buckets = (keys.max(8).next_power_of_two() * 8).min(1 << 32);
        let mask = (buckets - 1) as u32;
        let (mut once, mut twice) = (vec![0u64; buckets / 64], vec![0u64; buckets / 64]);
        for &key in columns.iter().flatten().filter(|&&key| key != 0) {
            let bucket = (key & mask) as usize;
            let (word, bit) = (bucket / 64, 1u64 << (bucket % 64));
            twice[word] |= once[word] & bit;
            once[word] |= bit;
        }
        Repeated { mask, twice }
    }

    fn may_repeat(&self, key: u32) -> bool {
        let bucket = (key & self.mask) as usize;
        self.twice[bucket / 64] & (1 << (bucket % 64)) != 0
    }
}

/// The games of each pair of players that has a game shorter than the opening key's
/// plies (no [`PAIR_OPENING`] key: a game not played, a relay stopped at once): such a
/// game may be the start of any game of its players. Few pairs have one, so the pairs
/// are looked up in a map of theirs.
fn short_pairs(pairs: &[u32], openings: &[u32], wanted: &mut [u64]) -> Groups {
    let mut short: HashMap<u32, Vec<u32>> = pairs
        .iter()
        .zip(openings)
        .filter(|&(&pair, &opening)| pair != 0 && opening == 0)
        .map(|(&pair, _)| (pair, Vec::new()))
        .collect();
    for (game, pair) in pairs.iter().enumerate() {
        if let Some(group) = short.get_mut(pair) {
            group.push(game as u32);
        }
    }
    let mut out: Groups = short.into_values().filter(|g| g.len() > 1).collect();
    // The map's order is no input order: the groups are judged in a fixed one.
    out.sort_unstable();
    for &game in out.iter().flatten() {
        wanted[game as usize / 64] |= 1 << (game % 64);
    }
    out
}

/// A main line shorter than this says too little to tell two games apart (the same
/// first moves and a resignation, an abandoned online game after `1. e4`): it makes a
/// duplicate only of a game of the same players.
const SHORT_LINE: usize = 12;

/// `duplicate-game`: each game whose start and main line an earlier game has, naming
/// the first of them.
fn duplicates(run: &Run<'_>, group: &[u32], found: &mut Found) {
    type Line<'a> = (u64, &'a [u16], Option<(&'a str, &'a str)>);
    let mut first: HashMap<Line<'_>, u32> = HashMap::new();
    for &game in group {
        let Some(g) = run.get(game) else { continue };
        let players = (g.detail.moves.len() < SHORT_LINE)
            .then_some((g.facts.white.as_str(), g.facts.black.as_str()));
        let line = (g.detail.start, g.detail.moves.as_slice(), players);
        let &mut earlier = first.entry(line).or_insert(game);
        if earlier == game {
            continue;
        }
        let e = &run.loaded[&earlier];
        let differ = tags_that_differ(&g.detail, &e.detail);
        let tags = if differ.is_empty() {
            "no tag differs".to_string()
        } else {
            format!("tags that differ: {}", differ.join(", "))
        };
        let message = format!(
            "same start and main line ({} plies) as {} ({tags})",
            g.detail.moves.len(),
            run.name(e)
        );
        found.add(game, earlier, g, Code::DuplicateGame, None, message);
    }
}

/// The names of the tags whose values differ between two games (or that one of them
/// lacks), in the order they first appear.
fn tags_that_differ(a: &Detail, b: &Detail) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (name, _) in a.tags.iter().chain(&b.tags) {
        if !names.contains(name) && a.tag(name) != b.tag(name) {
            names.push(name.clone());
        }
    }
    names
}

/// `truncated-copy` and `conflicting-copies` among games with the same players.
fn copies(run: &Run<'_>, group: &[u32], found: &mut Found) {
    // Each game's start and main line as a class: two copies of one class are neither
    // a truncated copy nor a conflict of each other, so a group of many identical copies
    // (one game in a thousand relays) is passed over pair by pair without comparing
    // their moves again.
    let mut classes: HashMap<(u64, &[u16]), usize> = HashMap::new();
    let lines: Vec<usize> = group
        .iter()
        .map(|game| match run.get(*game) {
            Some(g) => {
                let next = classes.len() + 1;
                *classes
                    .entry((g.detail.start, g.detail.moves.as_slice()))
                    .or_insert(next)
            }
            None => 0,
        })
        .collect();
    let games: Vec<Option<&Loaded>> = group.iter().map(|&game| run.get(game)).collect();
    for (i, &game) in group.iter().enumerate() {
        let Some(g) = games[i] else { continue };
        for (j, &other) in group.iter().enumerate() {
            if i == j || lines[i] == lines[j] && lines[i] != 0 {
                continue;
            }
            let Some(o) = games[j] else { continue };
            if g.facts.white != o.facts.white || g.facts.black != o.facts.black {
                continue;
            }
            let (a, b) = (&g.detail.moves, &o.detail.moves);
            let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
            let same_start = g.detail.start == o.detail.start;
            if same_start && common == a.len() && a.len() < b.len() {
                // A game of another round is another game, however it starts.
                let rounds_differ = !g.facts.round.is_empty()
                    && !o.facts.round.is_empty()
                    && g.facts.round != o.facts.round;
                if !rounds_differ {
                    let message = format!(
                        "this game's main line ({} plies) is the start of {} ({} plies), same players",
                        a.len(),
                        run.name(o),
                        b.len()
                    );
                    found.add(game, other, g, Code::TruncatedCopy, None, message);
                }
            } else if j < i
                && g.facts.round_known()
                && g.facts.event == o.facts.event
                && g.facts.round == o.facts.round
                && (!same_start || (common < a.len() && common < b.len()))
            {
                let ply = if same_start { common as u32 + 1 } else { 1 };
                let message = format!(
                    "same Event, Round, White and Black as {}, but the main lines part at ply {ply}",
                    run.name(o)
                );
                found.add(game, other, g, Code::ConflictingCopies, Some(ply), message);
            }
        }
    }
}

/// `round-conflict`: a player in two games of one Event and Round, or two games of one
/// Event and Round on one Board; copies (the same pairing) are judged as copies.
fn round_conflicts(run: &Run<'_>, group: &[u32], found: &mut Found) {
    // Each game's Event and Round, and its pairing in them, as numbers (0: Round
    // unknown), so that the pairs of a large group are told apart without comparing
    // their names again: many copies of one game are one pairing, judged as copies.
    let games: Vec<Option<&Loaded>> = group.iter().map(|&game| run.get(game)).collect();
    let mut rounds: HashMap<(&str, &str), usize> = HashMap::new();
    let mut pairings: HashMap<(&str, &str, &str, &str), usize> = HashMap::new();
    let ids: Vec<(usize, usize)> = games
        .iter()
        .map(|g| match g {
            Some(g) if g.facts.round_known() => {
                let f = &g.facts;
                let next = (rounds.len() + 1, pairings.len() + 1);
                let round = *rounds.entry((&f.event, &f.round)).or_insert(next.0);
                let pairing = *pairings
                    .entry((&f.event, &f.round, &f.white, &f.black))
                    .or_insert(next.1);
                (round, pairing)
            }
            _ => (0, 0),
        })
        .collect();
    for (i, &game) in group.iter().enumerate() {
        let Some(g) = games[i] else { continue };
        let (gf, gd) = (&g.facts, &g.detail);
        for (j, &other) in group[..i].iter().enumerate() {
            if ids[i].0 == 0 || ids[i].0 != ids[j].0 || ids[i].1 == ids[j].1 {
                continue;
            }
            let Some(o) = games[j] else { continue };
            let of = &o.facts;
            let shared = [("White", &gf.white), ("Black", &gf.black)]
                .into_iter()
                .find(|(_, name)| !name.is_empty() && (**name == of.white || **name == of.black));
            let message = if let Some((side, _)) = shared {
                let written = gd.tag(side).unwrap_or_default().trim();
                format!(
                    "'{written}' also plays in {}, of the same Event and Round",
                    run.name(o)
                )
            } else if !gf.board.is_empty() && gf.board == of.board {
                format!(
                    "board {} of this Event and Round is also {}",
                    gf.board,
                    run.name(o)
                )
            } else {
                continue;
            };
            found.add(game, other, g, Code::RoundConflict, None, message);
        }
    }
}

/// The distinct (FideId, name) pairs grouped by FideId and by name, where a FideId has
/// two names or a name two FideIds: each group's pairs by their first game, in order.
type IdentityGroups = Vec<Vec<((u64, u64), u32)>>;

fn identity_groups<S>(
    identities: &HashMap<(u64, u64), u32, S>,
    wanted: &mut [u64],
) -> (IdentityGroups, IdentityGroups) {
    let mut pairs: Vec<((u64, u64), u32)> = identities.iter().map(|(&k, &g)| (k, g)).collect();
    let mut grouped = |key: fn(&((u64, u64), u32)) -> u64| {
        pairs.sort_unstable_by_key(|p| (key(p), p.1));
        let mut out = Vec::new();
        for run in pairs.chunk_by(|a, b| key(a) == key(b)) {
            if run.len() > 1 {
                for &(_, game) in run {
                    wanted[game as usize / 64] |= 1 << (game % 64);
                }
                out.push(run.to_vec());
            }
        }
        out
    };
    let by_fide = grouped(|p| p.0.0);
    let by_name = grouped(|p| p.0.1);
    (by_fide, by_name)
}

/// `player-identity`: a FideId under a second name, or a name under a second FideId,
/// reported on the first game that shows it, naming the first game of the first.
fn identities(
    run: &Run<'_>,
    by_fide: &IdentityGroups,
    by_name: &IdentityGroups,
    found: &mut Found,
) {
    // The side of a game whose player has this FideId and normalised name hash.
    let side = |g: &Loaded, fide: u64| {
        if g.facts.white_fide == Some(fide) {
            g.detail.tag("White").unwrap_or_default().trim().to_string()
        } else {
            g.detail.tag("Black").unwrap_or_default().trim().to_string()
        }
    };
    for group in by_fide {
        let ((fide, _), first) = group[0];
        let Some(f) = run.get(first) else { continue };
        for &((_, _), game) in &group[1..] {
            let Some(g) = run.get(game) else { continue };
            let message = format!(
                "FideId {fide} is '{}' here and '{}' in {}",
                side(g, fide),
                side(f, fide),
                run.name(f)
            );
            found.add(game, first, g, Code::PlayerIdentity, None, message);
        }
    }
    for group in by_name {
        let ((first_fide, _), first) = group[0];
        let Some(f) = run.get(first) else { continue };
        for &((fide, _), game) in &group[1..] {
            let Some(g) = run.get(game) else { continue };
            let message = format!(
                "'{}' has FideId {fide} here and {first_fide} in {}",
                side(g, fide),
                run.name(f)
            );
            found.add(game, first, g, Code::PlayerIdentity, None, message);
        }
    }
}
