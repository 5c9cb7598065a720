//! The ordered parallel pipeline: games are read from an input, worked on by every
//! thread of a pool, and their results handed back in input order, so the output is
//! the same for one thread and many.
//!
//! What is done to each game is a [`Job`]: `check` replays and reports, `convert`
//! rewrites. Each worker thread owns the job's per-thread state and reuses it from game
//! to game. A panic while working on one game (a bug in planilla) is caught here, once,
//! around that game, and turned into the job's result for a failed game, so a run goes
//! on with the next one. A panic of the tokenizer while reading is caught here too, around
//! each read (`read_next`): it ends that input with an error naming the game, and the
//! run goes on with the next input.
//!
//! Two shapes of input: one large input streamed in bounded pieces
//! ([`process_stream`], with several threads in `pieces.rs`), and several small inputs
//! read whole, one on each thread ([`process_whole`]).

mod pieces;

use crate::Opened;
use planilla_parser::split::{AtReader, Splitter};
use planilla_parser::{Game, Reader, ReaderBuilder};
use rayon::prelude::*;
use std::any::Any;
use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The work done on each game, shared by the threads.
pub trait Job: Sync {
    /// What the work on one game gives.
    type Output: Send;
    /// The state one thread owns and reuses from game to game (its buffers).
    type Worker;

    /// A new worker's state; also built anew after a panic, which may have left the
    /// old one half-written.
    fn worker(&self) -> Self::Worker;

    /// Works on one game.
    fn run(&self, worker: &mut Self::Worker, game: &Game) -> Self::Output;

    /// The result for a game on which [`Job::run`] panicked, given what the panic said.
    fn failed(&self, game: &Game, panic: &str) -> Self::Output;
}

/// Runs `job` on one game, turning a panic into [`Job::failed`]. With [`read_next`],
/// the only place a panic is caught.
fn work_on<J: Job>(job: &J, worker: &mut J::Worker, game: &Game) -> J::Output {
    match catch_unwind(AssertUnwindSafe(|| job.run(worker, game))) {
        Ok(output) => output,
        Err(panic) => {
            *worker = job.worker();
            job.failed(game, &panic_message(panic.as_ref()))
        }
    }
}

/// Reads the next game of `reader` into `game`, turning a panic of the tokenizer (a
/// bug) into an error naming the game and its byte offset: the reader is then in an
/// unknown state, so its input is read no further, while the games before it stand and
/// the next input is read.
fn read_next<R: Read>(reader: &mut Reader<R>, game: &mut Game) -> io::Result<bool> {
    let (index, offset) = (reader.games_read() + 1, reader.offset());
    catch_unwind(AssertUnwindSafe(|| reader.read_game(game))).unwrap_or_else(|panic| {
        Err(reading_panicked(
            index,
            offset,
            &panic_message(panic.as_ref()),
        ))
    })
}

/// The error that ends an input when reading game `index`, at byte `offset`, panicked.
fn reading_panicked(index: u64, offset: u64, panic: &str) -> io::Error {
    io::Error::other(format!(
        "internal error reading game {index} at byte {offset} ({panic}): a bug in planilla, \
         please report it; the rest of this input is not read"
    ))
}

/// What a caught panic says: its message, or "unknown panic".
fn panic_message(panic: &(dyn Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}

/// How games are grouped for parallel work.
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

/// Reads every game of `input` (read as `builder` says: an input that starts at a game of
/// a larger one, its [`ReaderBuilder::origin`], is numbered as that one), runs `job` on bounded pieces
/// in parallel on `pool`, and calls `sink` with each piece's results in input order. At
/// most a few pieces are in memory at once, whatever the input size.
///
/// With several threads, the only serial step is cutting the input into pieces of about
/// `batching.max_bytes` bytes at likely game starts (the parser's splitter: a read and a
/// substring search); each thread tokenizes a whole piece and works on its games, while
/// their text and tokens are in that core's cache (`pieces.rs`). The calling thread only
/// receives the finished pieces and hands them to `sink` in input order.
///
/// With one thread there is nothing to share: the calling thread reads a few games and
/// works on them at once, while their text and tokens are still in the first-level
/// cache (a batch's are not: `check -j1` took 7% less CPU time than with a batch read
/// and then checked), and hands the results on in batches of the same bounds.
///
/// # Errors
///
/// A read error from the input (after `sink` has had every game read before it), or
/// the first error `sink` returns.
pub fn process_stream<R, J, F>(
    builder: ReaderBuilder,
    input: R,
    batching: BatchConfig,
    pool: &rayon::ThreadPool,
    job: &J,
    sink: F,
) -> io::Result<()>
where
    R: Read + Send,
    J: Job,
    F: FnMut(&mut Vec<J::Output>) -> io::Result<()>,
{
    if pool.current_num_threads() <= 1 {
        return process_in_line(builder.build(input), batching, job, sink);
    }
    let splitter = Splitter::new(input, batching.max_bytes).starting_at(builder.starts_at().offset);
    pieces::process_pieces(builder, splitter, batching, pool, job, sink)
}

/// [`process_stream`] over an input as [`crate::Source::open_to_read`] opened it: a
/// stream, or an input read at offsets (a regular file). For the latter, with several
/// threads the serial step only finds where to cut, reading a little past each piece's
/// size, and each thread reads its own pieces ([`Splitter::positional`]); the output
/// is the same as over the input read as a stream. One thread reads it as a stream.
///
/// # Errors
///
/// As [`process_stream`].
pub fn process_opened<J, F>(
    builder: ReaderBuilder,
    input: Opened,
    batching: BatchConfig,
    pool: &rayon::ThreadPool,
    job: &J,
    sink: F,
) -> io::Result<()>
where
    J: Job,
    F: FnMut(&mut Vec<J::Output>) -> io::Result<()>,
{
    let input = match input {
        Opened::Stream(input) => {
            return process_stream(builder, input, batching, pool, job, sink);
        }
        Opened::At(input) => input,
    };
    if pool.current_num_threads() <= 1 {
        // Reads of the reader's buffer size, at offsets, as a file's reads.
        let reader = builder.build(AtReader::new(input, 0));
        return process_in_line(reader, batching, job, sink);
    }
    let splitter = Splitter::positional(input, batching.max_bytes);
    pieces::process_pieces(builder, splitter, batching, pool, job, sink)
}

/// The games [`process_stream`] reads at a time with one thread: about 8 KiB of text.
const IN_LINE_BYTES: usize = 8 << 10;

/// [`process_stream`] with one thread: on the calling thread, a few games are read
/// (about [`IN_LINE_BYTES`]) and worked on at once, while their text and tokens are
/// still in the core's first-level cache, and the results are handed on in batches of
/// the same bounds as with more threads ([`InLine`]).
fn process_in_line<R, J, F>(
    reader: Reader<R>,
    batching: BatchConfig,
    job: &J,
    mut sink: F,
) -> io::Result<()>
where
    R: Read,
    J: Job,
    F: FnMut(&mut Vec<J::Output>) -> io::Result<()>,
{
    let mut worker = job.worker();
    let mut in_line = InLine::new(reader, batching);
    let mut results = Vec::new();
    while in_line.next_batch(job, &mut worker, &mut results)? {
        sink(&mut results)?;
    }
    Ok(())
}

/// One input read and worked on by one thread, a batch at a time as its caller asks:
/// a few games are read (about [`IN_LINE_BYTES`]) and worked on at once, while their
/// text and tokens are still in the core's first-level cache. A few games rather than
/// one keep the code of the tokenizer and of the work each in the instruction cache for
/// several games (cachegrind on 5 MB: 2.1 M instruction-cache misses one game at a
/// time, 0.64 M 8 KiB at a time, 0.36 M 64 KiB at a time, when data-cache misses grow;
/// 8 KiB took 1.5-2% less CPU time than one game at a time).
pub(crate) struct InLine<R> {
    reader: Reader<R>,
    batching: BatchConfig,
    /// The games read last, reused; those from `next` to `read` are not worked on yet.
    games: Vec<Game>,
    read: usize,
    next: usize,
    /// Whether the input ended (read to its end or failed), and the read error that
    /// ended it, handed on after the games before it.
    ended: bool,
    error: Option<io::Error>,
}

impl<R: Read> InLine<R> {
    pub(crate) fn new(reader: Reader<R>, batching: BatchConfig) -> Self {
        InLine {
            reader,
            batching,
            games: Vec::new(),
            read: 0,
            next: 0,
            ended: false,
            error: None,
        }
    }

    /// Puts the results of the next batch of games (at most `batching.max_games` games
    /// or about `batching.max_bytes` bytes) in `results` (emptied first): whether there
    /// was one (`false` once the input is done).
    ///
    /// # Errors
    ///
    /// The read error that ended the input, once the games before it were handed on.
    pub(crate) fn next_batch<J: Job>(
        &mut self,
        job: &J,
        worker: &mut J::Worker,
        results: &mut Vec<J::Output>,
    ) -> io::Result<bool> {
        results.clear();
        let mut bytes = 0;
        loop {
            while self.next < self.read {
                let game = &self.games[self.next];
                self.next += 1;
                bytes += game.bytes().len();
                results.push(work_on(job, worker, game));
                if results.len() >= self.batching.max_games || bytes >= self.batching.max_bytes {
                    return Ok(true);
                }
            }
            if self.ended {
                if !results.is_empty() {
                    return Ok(true);
                }
                return self.error.take().map_or(Ok(false), Err);
            }
            let max_games = self.batching.max_games;
            let (read, ended, error) =
                read_games(&mut self.reader, max_games, IN_LINE_BYTES, &mut self.games);
            (self.read, self.next, self.ended, self.error) = (read, 0, ended, error);
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
        match read_next(reader, &mut batch[used]) {
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

/// One small input read whole by [`process_whole`].
pub struct Whole<T, E> {
    /// Why it could not be opened.
    pub unopened: Option<E>,
    /// The results of its games, in order.
    pub results: Vec<T>,
    /// The read error that stopped it.
    pub error: Option<io::Error>,
}

/// Opens each input with `open` and reads it whole, several inputs at a time on `pool`,
/// each on one thread, working on every game as it is read; the results are returned
/// in input order. For inputs too small to share among threads: a file in one batch
/// streamed through [`process_stream`] would leave all threads but one idle.
pub fn process_whole<S, R, E, J, O>(
    inputs: &[S],
    pool: &rayon::ThreadPool,
    open: O,
    job: &J,
) -> Vec<Whole<J::Output, E>>
where
    S: Sync,
    R: Read,
    E: Send,
    J: Job,
    O: Fn(&S) -> Result<Reader<R>, E> + Sync,
{
    pool.install(|| {
        inputs
            .par_iter()
            .map_init(
                || (job.worker(), Game::new()),
                |(worker, game), input| read_whole(open(input), job, worker, game),
            )
            .collect()
    })
}

/// Reads one input whole on the current thread, working on each game as it is read.
fn read_whole<R: Read, E, J: Job>(
    reader: Result<Reader<R>, E>,
    job: &J,
    worker: &mut J::Worker,
    game: &mut Game,
) -> Whole<J::Output, E> {
    let mut whole = Whole {
        unopened: None,
        results: Vec::new(),
        error: None,
    };
    let mut reader = match reader {
        Ok(reader) => reader,
        Err(e) => {
            whole.unopened = Some(e);
            return whole;
        }
    };
    loop {
        match read_next(&mut reader, game) {
            Ok(true) => whole.results.push(work_on(job, worker, game)),
            Ok(false) => break,
            Err(e) => {
                whole.error = Some(e);
                break;
            }
        }
    }
    whole
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use planilla_parser::ReaderBuilder;
    use planilla_parser::split::ReadAt;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A job made of a function of the game, without state (the engine's tests share it).
    pub(crate) struct Each<F>(pub(crate) F);

    impl<T: Send, F: Fn(&Game) -> T + Sync> Job for Each<F> {
        type Output = T;
        type Worker = ();
        fn worker(&self) {}
        fn run(&self, _: &mut (), game: &Game) -> T {
            (self.0)(game)
        }
        fn failed(&self, _: &Game, panic: &str) -> T {
            panic!("unexpected panic: {panic}")
        }
    }

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

    /// Gives `data` at offsets, and fails past its end as a file on a failing disk does.
    struct FailsAtEnd(Vec<u8>);

    impl ReadAt for FailsAtEnd {
        fn read_at(&self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
            let start = offset as usize;
            if start >= self.0.len() {
                return Err(io::Error::other("incomplete deflate stream"));
            }
            self.0.read_at(buf, offset)
        }
    }

    /// [`process_stream`] over `data` read as a stream, or [`process_opened`] over it read
    /// at offsets; a read error after `data` when `fails`.
    fn process_both<J: Job, F: FnMut(&mut Vec<J::Output>) -> io::Result<()>>(
        at: bool,
        data: &[u8],
        fails: bool,
        (builder, batching): (ReaderBuilder, BatchConfig),
        pool: &rayon::ThreadPool,
        job: &J,
        sink: F,
    ) -> io::Result<()> {
        match (at, fails) {
            (true, true) => {
                let input = Opened::At(Arc::new(FailsAtEnd(data.to_vec())));
                process_opened(builder, input, batching, pool, job, sink)
            }
            (true, false) => {
                let input = Opened::At(Arc::new(data.to_vec()));
                process_opened(builder, input, batching, pool, job, sink)
            }
            (false, true) => {
                let input = CutShort(data.to_vec(), 0);
                process_stream(builder, input, batching, pool, job, sink)
            }
            (false, false) => process_stream(builder, data, batching, pool, job, sink),
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
    /// order, for any batch size (a whole batch, a batch cut short, one game a batch),
    /// any number of threads, and an input read as a stream or at offsets, and the error
    /// comes last.
    #[test]
    fn the_games_before_a_read_error_are_all_processed() {
        let games = 1200;
        let mut data = pgn_games(games);
        // The last game is cut in its movetext.
        data.truncate(data.len() - 6);
        for (threads, at) in [1, 2, 4].into_iter().flat_map(|t| [(t, false), (t, true)]) {
            let pool = pool(threads);
            for (max_games, max_bytes) in [(1, 1 << 20), (7, 64), (512, 4096), (5000, 1 << 20)] {
                let builder = ReaderBuilder::new().buffer_size(4096);
                let mut seen = Vec::new();
                let batching = BatchConfig {
                    max_games,
                    max_bytes,
                };
                let each = Each(Game::index);
                let how = (builder, batching);
                let result = process_both(at, &data, true, how, &pool, &each, |batch| {
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
                assert_eq!(
                    seen, expected,
                    "{threads} threads, {max_games} games, {max_bytes} bytes, at offsets: {at}"
                );
            }
        }
    }

    /// Pieces whose games' numbers a thread guessed wrong (games without tags, which the
    /// splitter does not count; a game over the size limit, whose text after its result
    /// is read as such) are numbered as one reader numbers them, for any piece size and
    /// number of threads: each wrong guess is read again, and the pieces after it are
    /// read ahead until guesses can be trusted again.
    #[test]
    fn games_are_numbered_as_one_reader_numbers_them_whatever_the_guesses() {
        let mut data = Vec::new();
        for i in 0..3000u64 {
            let game = match i % 7 {
                3 => "1. d4 d5 *\n\n".to_string(),
                5 => format!("[Event \"{i}\"]\n\n1. e4 {{a\n\nb}} e5 *\n\n"),
                6 if i % 500 == 6 => {
                    let moves = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(20);
                    format!("[Event \"{i}\"]\n\n{moves}1-0\n2. e4 *\n\n")
                }
                _ => format!("[Event \"{i}\"]\n[Site \"x\"]\n\n1. e4 e5 *\n\n"),
            };
            data.extend_from_slice(game.as_bytes());
        }
        let place = Each(|game: &Game| (game.index(), game.offset(), game.first_line()));
        let run = |threads: usize, max_bytes: usize, at: bool| {
            let builder = ReaderBuilder::new().max_game_size(300);
            let batching = BatchConfig {
                max_games: 512,
                max_bytes,
            };
            let mut seen = Vec::new();
            let how = (builder, batching);
            process_both(at, &data, false, how, &pool(threads), &place, |batch| {
                seen.extend_from_slice(batch);
                Ok(())
            })
            .unwrap();
            seen
        };
        let one = run(1, 4096, false);
        assert!(one.len() > 3000, "{} games", one.len());
        for (threads, at) in [(1, true), (2, false), (2, true), (3, false), (3, true)] {
            for max_bytes in [64, 700, 4096] {
                assert!(
                    run(threads, max_bytes, at) == one,
                    "{threads} threads, pieces of {max_bytes} bytes, at offsets: {at}"
                );
            }
        }
    }

    /// Counts the bytes taken from `data`.
    struct Counted<'a>(&'a [u8], &'a AtomicUsize);

    impl Read for Counted<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1.fetch_add(n, Ordering::Relaxed);
            Ok(n)
        }
    }

    /// A sink that fails stops the run: its error is returned, and the threads stop
    /// reading within a few batches of it (they neither hang nor read the whole input).
    #[test]
    fn an_error_of_the_sink_stops_the_reading() {
        let data = pgn_games(20_000);
        for threads in [1, 2, 4] {
            let taken = AtomicUsize::new(0);
            let builder = ReaderBuilder::new().buffer_size(512);
            let input = Counted(&data, &taken);
            let batching = BatchConfig {
                max_games: 10,
                max_bytes: 1024,
            };
            let mut calls = 0;
            let each = Each(Game::index);
            let result = process_stream(builder, input, batching, &pool(threads), &each, |_| {
                calls += 1;
                Err(io::Error::other("output closed"))
            });
            assert_eq!(result.unwrap_err().to_string(), "output closed");
            assert_eq!(calls, 1);
            let taken = taken.load(Ordering::Relaxed);
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
        let started = AtomicUsize::new(0);
        // Pieces of about ten games (of 28 to 31 bytes) with several threads.
        let batching = BatchConfig {
            max_games: 10,
            max_bytes: 280,
        };
        let most_ahead = AtomicUsize::new(0);
        let work = Each(|game: &Game| {
            started.fetch_add(1, Ordering::SeqCst);
            if game.index() == 1 {
                // Hold the first batch until the others can read no further.
                std::thread::sleep(std::time::Duration::from_millis(300));
                most_ahead.store(started.load(Ordering::SeqCst), Ordering::SeqCst);
            }
            game.index()
        });
        let mut seen = Vec::new();
        process_stream(
            ReaderBuilder::new(),
            &data[..],
            batching,
            &pool(threads),
            &work,
            |batch| {
                seen.extend_from_slice(batch);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen, (1..=2_000).collect::<Vec<u64>>());
        // The window is two pieces a thread, the held one included.
        let ahead = most_ahead.load(Ordering::SeqCst);
        let per_piece = batching.max_bytes / 28 + 1;
        assert!(
            ahead > per_piece && ahead <= 2 * threads * per_piece,
            "{ahead} games started while the first batch was held"
        );
    }

    /// Gives `data` 16 bytes at a time, and panics when asked for more than `limit` of
    /// them: a panic inside the reader, standing in for a bug in the tokenizer.
    struct Bomb(Vec<u8>, usize, usize);

    impl Read for Bomb {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            assert!(self.1 < self.2, "the input exploded");
            let n = buf.len().min(self.0.len() - self.1).min(16);
            buf[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
            self.1 += n;
            Ok(n)
        }
    }

    /// A panic inside the reader is an error naming the game and its byte offset; the
    /// games before it stand, the input is read no further, and the next input is read;
    /// the same for one thread and many, streamed or read whole.
    #[test]
    fn a_panic_while_reading_is_an_error_naming_the_game() {
        let data = pgn_games(3);
        let first = data.len() / 3;
        let builder = ReaderBuilder::new().buffer_size(16);
        let bomb = || builder.clone().build(Bomb(data.clone(), 0, first + 8));
        let named = |error: &io::Error| {
            let error = error.to_string();
            assert!(
                error.starts_with(&format!("internal error reading game 2 at byte {first} ("))
                    && error.contains("the input exploded")
                    && error.ends_with("the rest of this input is not read"),
                "{error}"
            );
        };
        for threads in [1, 2] {
            let pool = pool(threads);
            let mut seen = Vec::new();
            let result = process_stream(
                builder.clone(),
                Bomb(data.clone(), 0, first + 8),
                BatchConfig::default(),
                &pool,
                &Each(Game::index),
                |batch| {
                    seen.extend_from_slice(batch);
                    Ok(())
                },
            );
            named(&result.expect_err("the panic is an error"));
            assert_eq!(seen, [1], "{threads} threads");
            let open = |&explodes: &bool| {
                Ok::<_, ()>(if explodes {
                    bomb()
                } else {
                    ReaderBuilder::new().build(Bomb(data.clone(), 0, usize::MAX))
                })
            };
            let wholes = process_whole(&[true, false], &pool, open, &Each(Game::index));
            assert_eq!(wholes[0].results, [1]);
            named(wholes[0].error.as_ref().expect("the panic is an error"));
            assert_eq!(wholes[1].results, [1, 2, 3]);
            assert!(wholes[1].error.is_none());
        }
    }

    /// Counts the games a worker has seen, and panics on every seventh game.
    struct Fragile;

    impl Job for Fragile {
        type Output = String;
        type Worker = u64;
        fn worker(&self) -> u64 {
            0
        }
        fn run(&self, seen: &mut u64, game: &Game) -> String {
            *seen += 1;
            if game.index().is_multiple_of(7) {
                panic!("game {} exploded", game.index());
            }
            format!("{} after {}", game.index(), *seen - 1)
        }
        fn failed(&self, game: &Game, panic: &str) -> String {
            format!("{} failed: {panic}", game.index())
        }
    }

    /// A panic on one game is that game's failed result, in its place, with what the
    /// panic said; the worker's state is built anew after it and the run goes on; the
    /// same for one thread and many, streamed or read whole.
    #[test]
    fn a_panic_on_a_game_is_its_failed_result_and_the_run_goes_on() {
        let data = pgn_games(30);
        let check = |results: &[String]| {
            assert_eq!(results.len(), 30);
            for (i, result) in (1u64..).zip(results) {
                if i.is_multiple_of(7) {
                    assert_eq!(result, &format!("{i} failed: game {i} exploded"));
                } else {
                    assert!(result.starts_with(&format!("{i} after ")), "{result}");
                }
            }
        };
        for threads in [1, 3] {
            let pool = pool(threads);
            let batching = BatchConfig {
                max_games: 4,
                max_bytes: 100,
            };
            let mut seen = Vec::new();
            process_stream(
                ReaderBuilder::new(),
                &data[..],
                batching,
                &pool,
                &Fragile,
                |batch| {
                    seen.extend_from_slice(batch);
                    Ok(())
                },
            )
            .unwrap();
            check(&seen);
            // With one thread the worker that panicked on game 7 starts again at 0.
            if threads == 1 {
                assert_eq!(seen[7], "8 after 0");
            }
            let open = |data: &Vec<u8>| {
                Ok::<_, ()>(ReaderBuilder::new().build(io::Cursor::new(data.clone())))
            };
            let wholes = process_whole(&[data.clone(), data.clone()], &pool, open, &Fragile);
            for whole in wholes {
                assert!(whole.unopened.is_none() && whole.error.is_none());
                check(&whole.results);
            }
        }
    }
}
