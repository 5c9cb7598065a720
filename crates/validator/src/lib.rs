//! planilla-validator: replays parsed games through `planilla-core` and
//! reports findings with the codes, severities and locations of the
//! command-line contract.
//!
//! A [`Checker`] checks one game after another, keeping what the next game can
//! use: a worker owns one and reuses it. [`check_game`] checks a single game.
//!
//! ```
//! use planilla_parser::Game;
//! use planilla_validator::{Checker, Code, Config};
//!
//! let pgn = b"[Result \"1-0\"]\n\n1. e4 e5 2. Cf3 Cc6 3. Ab5 Cf6 4. Rd2 1-0\n";
//! let game = Game::from_bytes(&pgn[..], Default::default());
//! let mut checker = Checker::new(Config::default());
//! let mut findings = Vec::new();
//! checker.check(&game, &mut findings);
//! // Spanish notation, decided from the letters; "Rd2" is a king move onto its own pawn.
//! assert_eq!(findings[0].code, Code::NotationLanguage);
//! assert_eq!(findings[1].code, Code::IllegalMove);
//! assert_eq!(findings[1].ply, Some(7));
//! ```

#![warn(missing_docs)]

mod checker;
mod finding;
mod replay;
mod rules;

pub use checker::{Checker, Config, GameStats, PlayedMove, check_game, check_game_recording};
pub use finding::{Code, Finding, Severity, UnknownCode};
pub use rules::{Rules, UnknownRules};

use planilla_parser::{Game, Reader};
use std::any::Any;
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Condvar, Mutex, MutexGuard};

/// The results for one game: its findings (in order) and counts.
#[derive(Clone, Debug, Default)]
pub struct GameReport {
    /// 1-based index of the game in its file.
    pub game: u64,
    /// The findings, in the order they occur in the game.
    pub findings: Vec<Finding>,
    /// Counts.
    pub stats: GameStats,
}

/// Checks one game, turning a panic (a bug in planilla) into an
/// `internal-error` finding naming the game, so a run goes on.
pub fn check_game_guarded(game: &Game, config: &Config) -> GameReport {
    let mut findings = Vec::new();
    let result = catch_unwind(AssertUnwindSafe(|| check_game(game, config, &mut findings)));
    let stats = match result {
        Ok(stats) => stats,
        Err(panic) => {
            let what = panic_message(panic.as_ref());
            findings.clear();
            findings.push(internal_error(
                game,
                format!("planilla failed on this game ({what}); please report it"),
            ));
            GameStats::default()
        }
    };
    GameReport {
        game: game.index(),
        findings,
        stats,
    }
}

/// What a caught panic says: its message, or "unknown panic".
pub fn panic_message(panic: &(dyn Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// An `internal-error` finding about a whole game, at its first byte: planilla
/// failed on it (a panic caught while working on it).
pub fn internal_error(game: &Game, message: String) -> Finding {
    let location = game.location(0);
    Finding {
        code: Code::InternalError,
        game: game.index(),
        ply: None,
        line: location.line,
        column: location.column,
        numbered_move: None,
        san: None,
        message,
        fen: None,
        variation: Vec::new(),
    }
}

/// How games are grouped for parallel replay.
#[derive(Clone, Copy, Debug)]
pub struct BatchConfig {
    /// Most games in one batch.
    pub max_games: usize,
    /// A batch is sent once its games hold this many bytes.
    pub max_bytes: usize,
}

impl BatchConfig {
    /// The default [`BatchConfig::max_bytes`].
    pub const DEFAULT_MAX_BYTES: usize = 256 << 10;
}

impl Default for BatchConfig {
    fn default() -> Self {
        // A batch is tokenized and then checked by one thread: at 256 KiB its text and
        // tokens stay in that core's L2 cache. `check -j2` on a 98 MB TWIC file, 8
        // alternating runs: 256 KiB 0.69 s median, 64 KiB 0.74 s, 1 MiB 0.77 s.
        BatchConfig {
            max_games: 512,
            max_bytes: BatchConfig::DEFAULT_MAX_BYTES,
        }
    }
}

/// Progress of a stream, handed to the caller with every batch.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// Bytes of input consumed so far.
    pub bytes: u64,
    /// Games read so far.
    pub games: u64,
}

/// Reads every game from `reader`, checks bounded batches in parallel on
/// `pool`, and calls `sink` with each batch's reports in input order. At
/// most a few batches are in memory at once, whatever the input size.
///
/// # Errors
///
/// A read error from the input, or the first error `sink` returns.
pub fn check_stream<R, F>(
    reader: Reader<R>,
    config: &Config,
    batching: BatchConfig,
    pool: &rayon::ThreadPool,
    sink: F,
) -> io::Result<()>
where
    R: Read + Send,
    F: FnMut(&[GameReport], Progress) -> io::Result<()>,
{
    process_stream(
        reader,
        batching,
        pool,
        |g| check_game_guarded(g, config),
        sink,
    )
}

/// The driver under [`check_stream`], for any per-game work.
///
/// Every thread of `pool` runs the same loop: it takes the reader (a lock), reads and
/// tokenizes the next batch, lets the reader go, and runs `work` on each game of its
/// batch. A game is thus tokenized and checked on the same core, while its text, tokens
/// and tags are still in that core's cache, and the tokenizer runs in parallel with the
/// checking of other batches. The calling thread only receives the finished batches and
/// hands them to `sink` in input order. Threads read at most a few batches ahead of the
/// oldest one not yet handed on, so memory stays bounded even when one batch takes long.
///
/// With one thread there is nothing to share: the calling thread reads a few games and
/// works on them at once, while their text and tokens are still in the first-level
/// cache (a batch's are not: `check -j1` took 7% less CPU time than with a batch read
/// and then checked), and hands the results on in batches of the same bounds. With two
/// threads, reading a few games at a time under the lock (8, 32 or 128 KiB) instead of a
/// batch made no difference in time (more waiting for the lock at 8 KiB), so the
/// threads keep reading whole batches.
///
/// # Errors
///
/// A read error from the input (after `sink` has had every game read
/// before it), or the first error `sink` returns.
pub fn process_stream<R, T, W, F>(
    reader: Reader<R>,
    batching: BatchConfig,
    pool: &rayon::ThreadPool,
    work: W,
    mut sink: F,
) -> io::Result<()>
where
    R: Read + Send,
    T: Send,
    W: Fn(&Game) -> T + Sync,
    F: FnMut(&[T], Progress) -> io::Result<()>,
{
    let threads = pool.current_num_threads().max(1);
    if threads == 1 {
        return process_in_line(reader, batching, work, sink);
    }
    let shared = Shared {
        state: Mutex::new(ReadState {
            reader,
            next: 0,
            handed_on: 0,
            window: 2 * threads as u64,
            progress: Progress::default(),
            done: false,
            stop: false,
        }),
        turn: Condvar::new(),
    };
    let (done_tx, done_rx) = channel::<Finished<T>>();
    pool.in_place_scope(|scope| {
        for _ in 0..threads {
            let done_tx = done_tx.clone();
            let (shared, work) = (&shared, &work);
            scope.spawn(move |_| read_and_work(shared, batching, work, done_tx));
        }
        drop(done_tx);
        // Whatever way this thread leaves (an error, a panic in `sink`), the workers
        // are told to stop, so the scope's end does not wait for the whole input.
        let _stop = StopOnDrop(&shared);
        let mut waiting: BTreeMap<u64, Finished<T>> = BTreeMap::new();
        let mut next = 0u64;
        for finished in done_rx.iter() {
            waiting.insert(finished.seq, finished);
            while let Some(batch) = waiting.remove(&next) {
                next += 1;
                if !batch.results.is_empty() {
                    sink(&batch.results, batch.progress)?;
                }
                if let Some(e) = batch.error {
                    return Err(e);
                }
                shared.lock().handed_on = next;
                shared.turn.notify_all();
            }
        }
        Ok(())
    })
}

/// The games [`process_stream`] reads at a time with one thread: about 8 KiB of text.
const IN_LINE_BYTES: usize = 8 << 10;

/// [`process_stream`] with one thread: on the calling thread, a few games are read
/// (about [`IN_LINE_BYTES`]) and worked on at once, while their text and tokens are
/// still in the core's first-level cache, and the results are handed on in batches of
/// the same bounds as with more threads. A few games rather than one keep the code of
/// the tokenizer and of the work each in the instruction cache for several games
/// (cachegrind on 5 MB: 2.1 M instruction-cache misses one game at a time, 0.64 M
/// 8 KiB at a time, 0.36 M 64 KiB at a time, when data-cache misses grow; 8 KiB took
/// 1.5-2% less CPU time than one game at a time).
fn process_in_line<R, T, W, F>(
    mut reader: Reader<R>,
    batching: BatchConfig,
    work: W,
    mut sink: F,
) -> io::Result<()>
where
    R: Read,
    W: Fn(&Game) -> T,
    F: FnMut(&[T], Progress) -> io::Result<()>,
{
    let mut games: Vec<Game> = Vec::new();
    let mut results = Vec::new();
    let mut bytes = 0;
    let mut progress = Progress::default();
    loop {
        let (read, ended, error) =
            read_games(&mut reader, batching.max_games, IN_LINE_BYTES, &mut games);
        for game in &games[..read] {
            bytes += game.bytes().len();
            progress.bytes = game.offset() + game.len_in_file();
            progress.games += 1;
            results.push(work(game));
            if results.len() >= batching.max_games || bytes >= batching.max_bytes {
                sink(&results, progress)?;
                results.clear();
                bytes = 0;
            }
        }
        if ended {
            if !results.is_empty() {
                sink(&results, progress)?;
            }
            return error.map_or(Ok(()), Err);
        }
    }
}

/// The reader and its bookkeeping, shared by the threads of [`process_stream`].
struct Shared<R> {
    state: Mutex<ReadState<R>>,
    /// Signalled when a batch is handed on or the stream stops.
    turn: Condvar,
}

impl<R> Shared<R> {
    fn lock(&self) -> MutexGuard<'_, ReadState<R>> {
        // A thread that panicked holding the lock left the state consistent (every
        // field is written whole), so a poisoned lock is used as it is.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

struct ReadState<R> {
    reader: Reader<R>,
    /// The number of the next batch to read.
    next: u64,
    /// Batches before this one have been handed to the sink.
    handed_on: u64,
    /// How many batches may be read ahead of the oldest one not handed on.
    window: u64,
    progress: Progress,
    /// The input is read to its end (or failed).
    done: bool,
    /// The caller stopped (an error): read no more.
    stop: bool,
}

/// A batch worked on: its number, its results, the progress when it was read, and the
/// read error that ended it, if any.
struct Finished<T> {
    seq: u64,
    results: Vec<T>,
    progress: Progress,
    error: Option<io::Error>,
}

struct StopOnDrop<'a, R>(&'a Shared<R>);

impl<R> Drop for StopOnDrop<'_, R> {
    fn drop(&mut self) {
        self.0.lock().stop = true;
        self.0.turn.notify_all();
    }
}

/// One thread's loop in [`process_stream`]: read a batch (the buffers of the last one
/// reused), work on it, send the results; until the input ends or the caller stops.
fn read_and_work<R: Read, T, W: Fn(&Game) -> T>(
    shared: &Shared<R>,
    batching: BatchConfig,
    work: &W,
    done: Sender<Finished<T>>,
) {
    let mut batch: Vec<Game> = Vec::new();
    loop {
        let (seq, used, progress, error) = {
            let mut state = shared.lock();
            while !state.done && !state.stop && state.next >= state.handed_on + state.window {
                state = shared.turn.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            if state.done || state.stop {
                return;
            }
            let seq = state.next;
            state.next += 1;
            let (used, ended, error) = read_games(
                &mut state.reader,
                batching.max_games,
                batching.max_bytes,
                &mut batch,
            );
            if let Some(last) = batch[..used].last() {
                state.progress.bytes = last.offset() + last.len_in_file();
            }
            state.progress.games += used as u64;
            state.done |= ended;
            (seq, used, state.progress, error)
        };
        let results = batch[..used].iter().map(work).collect();
        let finished = Finished {
            seq,
            results,
            progress,
            error,
        };
        if done.send(finished).is_err() {
            return;
        }
    }
}

/// Reads games into `batch` (reusing its games' buffers) until it holds `max_games`
/// games or `max_bytes` bytes of text: how many were read, whether the input ended (read
/// to its end or failed), and the read error that ended it.
fn read_games<R: Read>(
    reader: &mut Reader<R>,
    max_games: usize,
    max_bytes: usize,
    batch: &mut Vec<Game>,
) -> (usize, bool, Option<io::Error>) {
    let mut used = 0;
    let mut bytes = 0;
    while used < max_games && bytes < max_bytes {
        if batch.len() <= used {
            batch.push(Game::new());
        }
        match reader.read_game(&mut batch[used]) {
            Ok(true) => {
                bytes += batch[used].bytes().len();
                used += 1;
            }
            Ok(false) => return (used, true, None),
            // The games read before the error are whole: they are worked on and
            // handed on first, then the error.
            Err(e) => return (used, true, Some(e)),
        }
    }
    (used, false, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use planilla_parser::ReaderBuilder;

    /// Gives `data`, then fails as a compressed file cut short does.
    struct CutShort(Vec<u8>, usize);

    impl Read for CutShort {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.1 == self.0.len() {
                return Err(io::Error::other("incomplete deflate stream"));
            }
            let n = buf.len().min(self.0.len() - self.1);
            buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
            self.1 += n;
            Ok(n)
        }
    }

    fn pgn_games(n: u64) -> Vec<u8> {
        (1..=n)
            .flat_map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 *\n\n").into_bytes())
            .collect()
    }

    fn pool(threads: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
    }

    /// Every game read before a read error reaches the sink (the one it cut too), in
    /// order, for any batch size (a whole batch, a batch cut short, one game a batch) and
    /// any number of threads, and the error comes last.
    #[test]
    fn the_games_before_a_read_error_are_all_processed() {
        let games = 1200;
        let mut data = pgn_games(games);
        // The last game is cut in its movetext.
        data.truncate(data.len() - 6);
        for threads in [1, 2, 4] {
            let pool = pool(threads);
            for max_games in [1, 7, 512, 5000] {
                let reader = ReaderBuilder::new()
                    .buffer_size(4096)
                    .build(CutShort(data.clone(), 0));
                let mut seen = Vec::new();
                let batching = BatchConfig {
                    max_games,
                    max_bytes: 1 << 20,
                };
                let result = process_stream(reader, batching, &pool, Game::index, |batch, _| {
                    seen.extend_from_slice(batch);
                    Ok(())
                });
                let error = result.expect_err("the read error is returned").to_string();
                // The game cut too: the text read before the error reads to its end.
                assert!(
                    error.contains(&format!("({games} games read)"))
                        && error.contains("incomplete deflate"),
                    "{error}"
                );
                let expected: Vec<u64> = (1..=games).collect();
                assert_eq!(seen, expected, "{threads} threads, batches of {max_games}");
            }
        }
    }

    /// Counts the bytes taken from `data`.
    struct Counted<'a>(&'a [u8], &'a std::sync::atomic::AtomicUsize);

    impl Read for Counted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
            Ok(n)
        }
    }

    /// A sink that fails stops the run: its error is returned, and the threads stop
    /// reading within a few batches of it (they neither hang nor read the whole input).
    #[test]
    fn an_error_of_the_sink_stops_the_reading() {
        let data = pgn_games(20_000);
        for threads in [1, 2, 4] {
            let taken = std::sync::atomic::AtomicUsize::new(0);
            let reader = ReaderBuilder::new()
                .buffer_size(512)
                .build(Counted(&data, &taken));
            let batching = BatchConfig {
                max_games: 10,
                max_bytes: 1 << 20,
            };
            let mut calls = 0;
            let result = process_stream(reader, batching, &pool(threads), Game::index, |_, _| {
                calls += 1;
                Err(io::Error::other("output closed"))
            });
            assert_eq!(result.unwrap_err().to_string(), "output closed");
            assert_eq!(calls, 1);
            let taken = taken.load(std::sync::atomic::Ordering::Relaxed);
            assert!(
                taken < data.len() / 10,
                "{threads} threads read {taken} bytes"
            );
        }
    }

    /// While the first batch is held up, the other threads read only a bounded number
    /// of batches ahead of it (memory stays bounded), and the order is kept.
    #[test]
    fn threads_read_a_bounded_number_of_batches_ahead() {
        let data = pgn_games(2_000);
        let threads = 3;
        let started = std::sync::atomic::AtomicUsize::new(0);
        let batching = BatchConfig {
            max_games: 10,
            max_bytes: 1 << 20,
        };
        let reader = ReaderBuilder::new().build(&data[..]);
        let most_ahead = std::sync::atomic::AtomicUsize::new(0);
        let work = |game: &Game| {
            started.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            if game.index() == 1 {
                // Hold the first batch until the others can read no further.
                std::thread::sleep(std::time::Duration::from_millis(300));
                most_ahead.store(
                    started.load(std::sync::atomic::Ordering::SeqCst),
                    std::sync::atomic::Ordering::SeqCst,
                );
            }
            game.index()
        };
        let mut seen = Vec::new();
        process_stream(reader, batching, &pool(threads), work, |batch, _| {
            seen.extend_from_slice(batch);
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, (1..=2_000).collect::<Vec<u64>>());
        // The window is two batches a thread, the held one included.
        let ahead = most_ahead.load(std::sync::atomic::Ordering::SeqCst);
        assert!(
            ahead > 10 && ahead <= 2 * threads * 10,
            "{ahead} games started while the first batch was held"
        );
    }
}
