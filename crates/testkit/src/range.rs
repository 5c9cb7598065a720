//! The property of byte ranges: the ranges of any partition of a file, each read as
//! `planilla check --range` reads it ([`locate`] from the file's start or from the marks
//! of an [`Index`], then the span's text from its origin), checked and put together in
//! order, give the whole file's findings byte for byte, and their games and plies add up
//! to the whole file's.
//!
//! A file of 200 MB holds about 200,000 games: the whole file's games are kept as one
//! small [`GameDigest`] each (a hash of its findings rendered in full), never as text, and
//! a finding is rendered again only to name the first that differs.

use planilla_engine::range::{Index, Span, locate};
use planilla_parser::split::{AtReader, ReadAt};
use planilla_parser::{Game, ReaderBuilder};
use planilla_validator::{Checker, Config, Finding};
use std::fmt::{self, Write as _};
use std::hash::{DefaultHasher, Hasher};
use std::io::{self, Read};
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One game as `check` reports it, reduced to what the property compares: its number, its
/// offset, the plies replayed, and its findings (how many, and a hash of each rendered in
/// full: code, game, ply, line, column, move, message, FEN and variation, every field the
/// JSON Lines report writes but the file's name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameDigest {
    /// The game's number in the file.
    pub index: u64,
    /// The offset of its first byte in the file.
    pub offset: u64,
    /// Half-moves replayed.
    pub plies: u64,
    /// How many findings.
    pub findings: u64,
    /// A hash of the findings, in order, each rendered in full.
    pub hash: u64,
}

/// A finding rendered in full: every field, as the property compares it.
fn render(finding: &Finding) -> String {
    format!("{finding:?}")
}

/// Feeds what is written into a hasher.
struct HashWriter(DefaultHasher);

impl fmt::Write for HashWriter {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.write(s.as_bytes());
        Ok(())
    }
}

/// Checks every game of `text` (read by a reader built by `builder`) as `check` checks
/// it, with one checker reused game after game as a worker of the binary does, and hands
/// each game, its plies and findings to `each`.
fn check_games(
    builder: &ReaderBuilder,
    text: impl Read,
    mut each: impl FnMut(&Game, u64, &[Finding]),
) -> io::Result<()> {
    let mut reader = builder.clone().build(text);
    let mut checker = Checker::new(Config::default());
    let mut game = Game::new();
    let mut findings = Vec::new();
    while reader.read_game(&mut game)? {
        findings.clear();
        let stats = checker.check(&game, &mut findings);
        each(&game, stats.plies, &findings);
    }
    Ok(())
}

/// The digests of the games of `text`.
fn digests(builder: &ReaderBuilder, text: impl Read) -> io::Result<Vec<GameDigest>> {
    let mut games = Vec::new();
    check_games(builder, text, |game, plies, findings| {
        let mut hash = HashWriter(DefaultHasher::new());
        for finding in findings {
            let _ = writeln!(hash, "{finding:?}");
        }
        games.push(GameDigest {
            index: game.index(),
            offset: game.offset(),
            plies,
            findings: findings.len() as u64,
            hash: hash.0.finish(),
        });
    })?;
    Ok(games)
}

/// The findings of the `nth` game (from 0) of `text`, read by a reader built by `builder`.
fn findings_of(builder: &ReaderBuilder, text: impl Read, nth: usize) -> io::Result<Vec<String>> {
    let mut out = Vec::new();
    let mut seen = 0;
    check_games(builder, text, |_, _, findings| {
        if seen == nth {
            out = findings.iter().map(render).collect();
        }
        seen += 1;
    })?;
    Ok(out)
}

/// What the ranges of one partition gave, all of it equal to the whole file's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RangeTally {
    /// Ranges read.
    pub ranges: u64,
    /// Ranges that held no game start.
    pub empty: u64,
    /// Games, plies and findings, summed over the ranges.
    pub games: u64,
    /// See `games`.
    pub plies: u64,
    /// See `games`.
    pub findings: u64,
}

/// One file (or input) checked whole, against which partitions into ranges are checked.
pub struct RangeCheck {
    input: Arc<dyn ReadAt>,
    size: u64,
    builder: ReaderBuilder,
    whole: Vec<GameDigest>,
}

impl RangeCheck {
    /// Checks the whole input once, read as a stream from `whole` by a reader built by
    /// `builder` (as `check FILE` reads it); its ranges are then read at offsets from
    /// `input`, the same `size` bytes.
    ///
    /// # Errors
    ///
    /// A read error.
    pub fn new(
        whole: impl Read,
        input: Arc<dyn ReadAt>,
        size: u64,
        builder: ReaderBuilder,
    ) -> io::Result<RangeCheck> {
        Ok(RangeCheck {
            whole: digests(&builder, whole)?,
            input,
            size,
            builder,
        })
    }

    /// The whole input's games, in order.
    pub fn games(&self) -> &[GameDigest] {
        &self.whole
    }

    /// The whole input's totals, as a partition's are counted.
    pub fn totals(&self) -> RangeTally {
        RangeTally {
            ranges: 1,
            empty: u64::from(self.whole.is_empty()),
            games: self.whole.len() as u64,
            plies: self.whole.iter().map(|g| g.plies).sum(),
            findings: self.whole.iter().map(|g| g.findings).sum(),
        }
    }

    /// An index of the input with marks at most `every` bytes apart (`planilla index`'s
    /// with [`Index::EVERY`]), read by this input's reader; its text reads back as itself.
    ///
    /// # Errors
    ///
    /// A read error.
    ///
    /// # Panics
    ///
    /// If the index's text does not read back as the index.
    pub fn index(&self, every: u64) -> io::Result<Index> {
        let index = Index::build_every(Arc::clone(&self.input), self.size, &self.builder, every)?;
        assert_eq!(
            Index::from_text(&index.to_text()).as_ref(),
            Ok(&index),
            "an index's text reads back as the index"
        );
        Ok(index)
    }

    /// Reads one range as `check --range` does, and checks its games.
    fn read_range(
        &self,
        range: Range<u64>,
        index: Option<&Index>,
    ) -> io::Result<(Span, Vec<GameDigest>)> {
        let span = locate(&self.input, range, index, &self.builder)?;
        let (builder, text) = self.span_reader(&span);
        Ok((span, digests(&builder, text)?))
    }

    /// The reader's builder and the text of a span, as `check --range` reads it.
    fn span_reader(&self, span: &Span) -> (ReaderBuilder, impl Read + use<>) {
        let builder = self.builder.clone().origin(span.origin);
        (builder, span.text(Arc::clone(&self.input)))
    }

    /// Checks the partition of the input by `cuts` (sorted, the first 0, the last at or
    /// past the input's end; equal cuts are empty ranges), each range found with `index`
    /// or from the start, `threads` ranges read at once: the ranges' spans tile the text,
    /// each range's games start inside it (a range that holds no game start is empty),
    /// and their games, put together in order, are the whole input's, finding for finding.
    ///
    /// # Errors
    ///
    /// What differs: the range, and the first game and finding that differ (the caller
    /// names the input and the cuts); or a read error.
    pub fn partition(
        &self,
        cuts: &[u64],
        index: Option<&Index>,
        threads: usize,
    ) -> Result<RangeTally, String> {
        assert!(
            cuts.first() == Some(&0) && cuts.last() >= Some(&self.size) && cuts.is_sorted(),
            "a partition's cuts are sorted, from 0 to the end: {cuts:?}"
        );
        let ranges: Vec<Range<u64>> = cuts.windows(2).map(|w| w[0]..w[1]).collect();
        let read = self.read_all(&ranges, index, threads.max(1));
        let mut tally = RangeTally::default();
        let mut at = 0;
        for (range, read) in ranges.iter().zip(read) {
            let (span, games) = read.map_err(|e| format!("range {range:?}: {e}"))?;
            if (span.origin.offset, span.origin.games) != (at, tally.games) {
                return Err(format!(
                    "range {range:?}: its games start at {:?}, the ranges before end at byte \
                     {at} after {} games",
                    span.origin, tally.games
                ));
            }
            if let Some(game) = games.iter().find(|g| !range.contains(&g.offset)) {
                return Err(format!(
                    "range {range:?}: game {} starts at byte {}, outside it",
                    game.index, game.offset
                ));
            }
            if span.is_empty() != games.is_empty() {
                return Err(format!(
                    "range {range:?}: its span {span:?} holds {} games",
                    games.len()
                ));
            }
            let first = tally.games as usize;
            if self.whole.get(first..first + games.len()) != Some(&games[..]) {
                return Err(self.first_difference(range, &span, &games, first));
            }
            tally.ranges += 1;
            tally.empty += u64::from(games.is_empty());
            tally.games += games.len() as u64;
            tally.plies += games.iter().map(|g| g.plies).sum::<u64>();
            tally.findings += games.iter().map(|g| g.findings).sum::<u64>();
            at = span.end;
        }
        if tally.games != self.whole.len() as u64 {
            return Err(format!(
                "the ranges read {} games, the whole input {}",
                tally.games,
                self.whole.len()
            ));
        }
        Ok(tally)
    }

    /// Names the first game of a range that is not the whole input's game in its place
    /// (the range's games are the whole's from `first` on), and its first finding that
    /// differs, each side read again to render it.
    fn first_difference(
        &self,
        range: &Range<u64>,
        span: &Span,
        games: &[GameDigest],
        first: usize,
    ) -> String {
        let whole = &self.whole[first.min(self.whole.len())..];
        let k = games.iter().zip(whole).take_while(|(a, b)| a == b).count();
        let (Some(got), Some(want)) = (games.get(k), whole.get(k)) else {
            return format!(
                "range {range:?}: {} games, and the whole input has {} left after the ranges \
                 before: {:?} against {:?}",
                games.len(),
                whole.len(),
                games.get(k),
                whole.get(k)
            );
        };
        let text = AtReader::new(Arc::clone(&self.input), 0).take(self.size);
        let wanted = findings_of(&self.builder, text, first + k);
        let (builder, text) = self.span_reader(span);
        let found = findings_of(&builder, text, k);
        let (wanted, found) = match (wanted, found) {
            (Ok(w), Ok(f)) => (w, f),
            (Err(e), _) | (_, Err(e)) => return format!("range {range:?}: reading again: {e}"),
        };
        let j = wanted
            .iter()
            .zip(&found)
            .take_while(|(a, b)| a == b)
            .count();
        if wanted == found {
            return format!(
                "range {range:?}: game {} at byte {} ({} plies, {} findings) is read as {got:?}, \
                 yet the same findings when read again",
                want.index, want.offset, want.plies, want.findings
            );
        }
        format!(
            "range {range:?}: game {} at byte {} ({} plies, {} findings) is read as game {} at \
             byte {} ({} plies, {} findings); its finding {}: the whole file's {}, the range's {}",
            want.index,
            want.offset,
            want.plies,
            want.findings,
            got.index,
            got.offset,
            got.plies,
            got.findings,
            j + 1,
            wanted.get(j).map_or("none", String::as_str),
            found.get(j).map_or("none", String::as_str),
        )
    }

    /// Reads `ranges`, `threads` at a time, each result in its range's place.
    fn read_all(
        &self,
        ranges: &[Range<u64>],
        index: Option<&Index>,
        threads: usize,
    ) -> Vec<io::Result<(Span, Vec<GameDigest>)>> {
        if threads == 1 || ranges.len() < 2 {
            return ranges
                .iter()
                .map(|r| self.read_range(r.clone(), index))
                .collect();
        }
        // Each thread takes the next range not taken: ranges differ in size.
        let next = AtomicUsize::new(0);
        let mut read: Vec<_> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut read = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(range) = ranges.get(i) else {
                                return read;
                            };
                            read.push((i, self.read_range(range.clone(), index)));
                        }
                    })
                })
                .collect();
            workers
                .into_iter()
                .flat_map(|w| w.join().expect("a range's reader panicked"))
                .collect()
        });
        read.sort_by_key(|(i, _)| *i);
        read.into_iter().map(|(_, r)| r).collect()
    }
}

/// The cuts of a partition of an input of `size` bytes: `inner` (any offsets, in any
/// order, repeated or past the end) with the input's start and end, sorted, and last the
/// end as `START:` writes it (`u64::MAX`), so that the partition ends with the empty
/// range past the input's end.
pub fn partition_cuts(inner: &[u64], size: u64) -> Vec<u64> {
    let mut cuts = [&[0, size], inner].concat();
    cuts.sort_unstable();
    cuts.push(u64::MAX);
    cuts
}

/// The range fuzz target's property on one input: its first byte chooses the encoding
/// (bits 0–1: auto, UTF-8, Windows-1252, Latin-1), a small game-size limit (bit 2) and how
/// many cuts follow (the rest, modulo 13); its second byte the distance between the marks
/// of an index (1 + 4 × the byte); then each cut is two bytes (little-endian, modulo the
/// text's length + 2: 0 to the end, or past it); the rest is the text. The text cut there
/// gives the whole text's games and findings, its ranges found from the start and from the
/// index. UTF-16 text, which `--range` refuses, is left alone. `what` names the input in
/// the message.
///
/// # Panics
///
/// On the first difference.
pub fn range_fuzz(data: &[u8], what: &str) {
    let [options, distance, rest @ ..] = data else {
        return;
    };
    let n = usize::from(options >> 3) % 13;
    if rest.len() < 2 * n {
        return;
    }
    let (cuts, text) = rest.split_at(2 * n);
    if planilla_parser::utf16_text(&text[..text.len().min(4)]).is_some() {
        return;
    }
    let encoding = [
        planilla_parser::Encoding::Auto,
        planilla_parser::Encoding::Utf8,
        planilla_parser::Encoding::Windows1252,
        planilla_parser::Encoding::Latin1,
    ][usize::from(options & 3)];
    let mut builder = ReaderBuilder::new().encoding(encoding);
    if options & 4 != 0 {
        builder = builder.max_game_size(200);
    }
    let size = text.len() as u64;
    let inner: Vec<u64> = cuts
        .chunks(2)
        .map(
            |c| match u64::from(u16::from_le_bytes([c[0], c[1]])) % (size + 2) {
                past if past == size + 1 => u64::MAX,
                at => at,
            },
        )
        .collect();
    let cuts = partition_cuts(&inner, size);
    let input: Arc<dyn ReadAt> = Arc::new(text.to_vec());
    let check = RangeCheck::new(text, input, size, builder).expect("a slice reads");
    let index = check
        .index(1 + 4 * u64::from(*distance))
        .expect("a slice reads");
    for index in [None, Some(&index)] {
        if let Err(e) = check.partition(&cuts, index, 1) {
            let how = if index.is_some() { "with" } else { "without" };
            panic!("{what}: the ranges {cuts:?} {how} an index ({encoding:?}): {e}");
        }
    }
}
