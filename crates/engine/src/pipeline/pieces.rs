//! [`process_stream`](super::process_stream) with several threads: the input is cut
//! into pieces by the parser's splitter, the only serial step, and every thread
//! tokenizes and works on whole pieces.
//!
//! Each thread of the pool runs the same loop: it takes the splitter (a lock) for the
//! next piece, which costs a read and a substring search, and lets it go (a regular
//! file's splitter reads only a window past the piece's size there, and the thread reads
//! the piece's bytes after letting the splitter go: `Piece::load`). It then reads
//! the piece a few games at a time and works on each few at once, while their text and
//! tokens are in the first-level cache, as one thread does (`process_in_line`). The
//! games' numbers and lines depend on every piece before, which other threads are still
//! reading, so the thread guesses them: from where the last piece handed on ends, plus
//! what each piece in between holds ([`Counts`]: counted by the thread that read it, or,
//! while it is still being read, guessed from its likely game starts and line ends by
//! the thread that took it, outside the splitter's lock). The calling thread hands the finished pieces to the sink in input order,
//! and holds each guess against where the games before really end: a piece whose guess
//! was wrong (a game without `Event` tag, a cut that was not a game start) is read and
//! worked on again there, by the calling thread, so the output is always one reader's.
//!
//! Once a guess from a piece's bytes has been wrong, the next [`TRUST_AFTER`] pieces are
//! not read on such guesses: a thread tokenizes its piece first (`read_ahead`),
//! publishes what it holds, and waits until every piece before it is counted before it
//! works on its games, as the pipeline did before guessing (about 10% more CPU time: the
//! games are no longer in the first-level cache when they are worked on). So an input
//! whose pieces are misjudged throughout is not worked on twice.
//!
//! Threads take pieces at most two each ahead of the oldest one not yet handed on, so
//! memory stays bounded. Where the splitter does not cut (UTF-16 input, a piece of
//! [`MAX_PIECE`] bytes without a likely game start), the thread that met it reads the
//! rest alone with a [`Reader`] from where the pieces before end, in batches, as one
//! thread reads.
//!
//! [`MAX_PIECE`]: planilla_parser::split::MAX_PIECE

use super::{BatchConfig, IN_LINE_BYTES, Job, panic_message, read_games, work_on};
use planilla_parser::split::{
    Counts, Link, Next, Piece, Splitter, Stopped, TextReader, read_ahead, read_from, settle,
};
use planilla_parser::{Game, Origin, Reader, ReaderBuilder, read_failure};
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Condvar, Mutex, MutexGuard};

/// After a piece whose guess from its bytes was wrong, how many pieces are read without
/// relying on such guesses.
const TRUST_AFTER: u64 = 16;

/// Runs [`process_stream`](super::process_stream) on `threads` threads (at least two).
pub(super) fn process_pieces<R, J, F>(
    builder: ReaderBuilder,
    splitter: Splitter<R>,
    batching: BatchConfig,
    pool: &rayon::ThreadPool,
    job: &J,
    mut sink: F,
) -> io::Result<()>
where
    R: Read + Send,
    J: Job,
    F: FnMut(&mut Vec<J::Output>) -> io::Result<()>,
{
    let threads = pool.current_num_threads().max(1);
    let shared = Shared {
        state: Mutex::new(State {
            splitter: Some(splitter),
            next: 0,
            handed_on: 0,
            window: 2 * threads as u64,
            done: false,
            stop: false,
            // The games before the first piece end where the input starts (a byte range
            // starts at a game of a larger input).
            settled: Link {
                origin: builder.starts_at(),
                tail: Vec::new(),
            },
            counts: BTreeMap::new(),
            missed: None,
        }),
        turn: Condvar::new(),
    };
    let (done_tx, done_rx) = channel::<Finished<J::Output>>();
    pool.in_place_scope(|scope| {
        for _ in 0..threads {
            let done_tx = done_tx.clone();
            let (shared, builder) = (&shared, &builder);
            scope.spawn(move |_| split_and_work(shared, builder, batching, job, done_tx));
        }
        drop(done_tx);
        // Whatever way this thread leaves (an error, a panic in `sink`), the workers
        // are told to stop, so the scope's end does not wait for the whole input.
        let _stop = StopOnDrop(&shared);
        let mut waiting: BTreeMap<u64, Finished<J::Output>> = BTreeMap::new();
        let mut next = 0u64;
        let mut again = ReadAgain {
            builder: &builder,
            job,
            own: None,
            link: Link {
                origin: builder.starts_at(),
                tail: Vec::new(),
            },
        };
        for finished in done_rx.iter() {
            waiting.insert(finished.seq, finished);
            while let Some(batch) = waiting.remove(&next) {
                next += 1;
                let (mut results, error, bytes) = match batch.work {
                    Work::Batch { results, error } => (results, error, None),
                    Work::Piece(done) => {
                        let (results, error, bytes) = again.settle(*done);
                        (results, error, Some(bytes))
                    }
                };
                if !results.is_empty() {
                    sink(&mut results)?;
                }
                if let Some(e) = error {
                    return Err(e);
                }
                let mut state = shared.lock();
                state.handed_on = next;
                if let Some(bytes) = bytes {
                    state.settle(next, &again.link);
                    if let Some(splitter) = state.splitter.as_mut() {
                        splitter.recycle(bytes);
                    }
                }
                drop(state);
                shared.turn.notify_all();
            }
        }
        Ok(())
    })
}

/// The splitter and the bookkeeping the threads share.
struct Shared<R> {
    state: Mutex<State<R>>,
    /// Signalled when a batch is handed on, a piece counted, or the stream stops.
    turn: Condvar,
}

impl<R> Shared<R> {
    fn lock(&self) -> MutexGuard<'_, State<R>> {
        // A thread that panicked holding the lock left the state consistent (every
        // field is written whole), so a poisoned lock is used as it is.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn wait<'a>(&self, state: MutexGuard<'a, State<R>>) -> MutexGuard<'a, State<R>> {
        self.turn.wait(state).unwrap_or_else(|e| e.into_inner())
    }
}

struct State<R> {
    /// `None` once a thread took it to read the rest alone.
    splitter: Option<Splitter<R>>,
    /// The number of the next piece.
    next: u64,
    /// Pieces before this one have been handed to the sink.
    handed_on: u64,
    /// How many pieces may be taken ahead of the oldest one not handed on.
    window: u64,
    /// The input is cut to its end, failed, or taken by one thread.
    done: bool,
    /// The caller stopped (an error): read no more.
    stop: bool,
    /// Where the games of the pieces handed on end (the pieces before `handed_on`).
    settled: Link,
    /// What each piece taken from `handed_on` on holds.
    counts: BTreeMap<u64, Held>,
    /// The last piece whose guess from its bytes was wrong.
    missed: Option<u64>,
}

/// What a piece taken holds, as far as the threads know.
#[derive(Clone, Copy)]
enum Held {
    /// Its thread has not guessed yet.
    Unknown,
    /// Guessed from its bytes ([`Piece::likely`]).
    Guessed(Counts),
    /// Counted by reading it.
    Read(Counts),
}

impl<R> State<R> {
    /// The guess of where the games of piece `seq`, which starts at byte `start`, start,
    /// and whether every piece between it and the pieces handed on has been counted;
    /// `None` while one of them is not guessed yet.
    fn guess(&self, seq: u64, start: u64) -> Option<(Link, bool)> {
        if seq == self.handed_on {
            return Some((self.settled.clone(), true));
        }
        let mut origin = self.settled.origin;
        let mut counted = true;
        for i in self.handed_on..seq {
            let counts = match *self.counts.get(&i)? {
                Held::Unknown => return None,
                Held::Guessed(counts) => {
                    counted = false;
                    counts
                }
                Held::Read(counts) => counts,
            };
            origin = counts.after(origin, start);
        }
        origin.offset = start;
        let guess = Link {
            origin,
            tail: Vec::new(),
        };
        Some((guess, counted))
    }

    /// Whether guesses from the pieces' bytes are to be relied on for piece `seq`.
    fn trusts_guesses(&self, seq: u64) -> bool {
        self.missed.is_none_or(|missed| seq > missed + TRUST_AFTER)
    }

    /// Piece `seq` was read and holds `counts`.
    fn counted(&mut self, seq: u64, counts: Counts) {
        if let Some(held) = self.counts.get_mut(&seq) {
            if matches!(*held, Held::Guessed(guessed) if guessed != counts) {
                self.missed = Some(seq);
            }
            *held = Held::Read(counts);
        }
    }

    /// The pieces before `next` are handed on, and their games end at `link`.
    fn settle(&mut self, next: u64, link: &Link) {
        self.settled = link.clone();
        self.counts.retain(|&seq, _| seq >= next);
    }
}

/// A piece (or a batch read after the splitter stopped) worked on, numbered.
struct Finished<T> {
    seq: u64,
    work: Work<T>,
}

/// What a thread sends for one number.
enum Work<T> {
    /// A batch read after the splitter stopped cutting: its results, and the error that
    /// ended the input after it, if any.
    Batch {
        results: Vec<T>,
        error: Option<io::Error>,
    },
    /// A piece read and worked on from a guess of where its games start.
    Piece(Box<PieceDone<T>>),
}

/// A piece worked on from a guess.
struct PieceDone<T> {
    piece: Piece,
    /// What the panic said if reading the input panicked after the piece.
    panicked: Option<String>,
    /// Where the thread guessed the piece's games start.
    guess: Box<Link>,
    /// The results of its games, numbered from the guess.
    results: Vec<T>,
    /// Where its games end (from the guess), or why reading it stopped.
    end: Result<Link, Stopped<ReadStop>>,
}

/// The calling thread's part in settling the pieces in order.
struct ReadAgain<'a, J: Job> {
    builder: &'a ReaderBuilder,
    job: &'a J,
    /// A worker and games to read a piece again with, made the first time it is needed.
    own: Option<(J::Worker, Vec<Game>)>,
    /// Where the games of the pieces handed on end.
    link: Link,
}

impl<J: Job> ReadAgain<'_, J> {
    /// The results of a piece worked on from a guess, the error that ends the input
    /// after it, and its bytes: its thread's results when the guess was where the games
    /// before it end, and otherwise those of the piece read and worked on again from
    /// there. Moves `link` on to where the piece's games end.
    fn settle(
        &mut self,
        done: PieceDone<J::Output>,
    ) -> (Vec<J::Output>, Option<io::Error>, Vec<u8>) {
        let PieceDone {
            mut piece,
            panicked,
            guess,
            results,
            end,
        } = done;
        let (results, end) = if *guess == self.link {
            (results, end)
        } else {
            let (worker, games) = self
                .own
                .get_or_insert_with(|| (self.job.worker(), Vec::new()));
            let mut results = Vec::new();
            let (_, end) = read_from(
                self.builder,
                &mut piece,
                &self.link,
                IN_LINE_BYTES,
                games,
                read_caught,
                |own| work_all(self.job, worker, own, &mut results),
            );
            (results, end)
        };
        let error = match end {
            Ok(link) => {
                let read = piece.start + piece.bytes.len() as u64;
                let error = match (&piece.error, panicked) {
                    (Some(e), _) => Some(read_failure(e, read, link.origin.games)),
                    (None, Some(message)) => Some(super::reading_panicked(
                        link.origin.games + 1,
                        link.origin.offset,
                        &message,
                    )),
                    (None, None) => None,
                };
                self.link = link;
                error
            }
            Err(stopped) => Some(stopped_error(stopped)),
        };
        (results, error, piece.bytes)
    }
}

/// Works on `games`, adding their results to `results`.
fn work_all<J: Job>(job: &J, worker: &mut J::Worker, games: &[Game], results: &mut Vec<J::Output>) {
    results.extend(games.iter().map(|game| work_on(job, worker, game)));
}

struct StopOnDrop<'a, R>(&'a Shared<R>);

impl<R> Drop for StopOnDrop<'_, R> {
    fn drop(&mut self) {
        self.0.lock().stop = true;
        self.0.turn.notify_all();
    }
}

struct StopOnPanic<'a, R>(&'a Shared<R>);

impl<R> Drop for StopOnPanic<'_, R> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.lock().stop = true;
            self.0.turn.notify_all();
        }
    }
}

/// What a thread took from the splitter.
enum Taken<R> {
    /// A piece, and what the panic said if reading the input panicked after it.
    Piece(Piece, Option<String>),
    /// The splitter stops cutting: the rest is this thread's to read alone.
    Rest(Box<Splitter<R>>),
}

/// One thread's loop: take a piece, read and work on it, send the results; until the
/// input ends or the caller stops.
fn split_and_work<R: Read, J: Job>(
    shared: &Shared<R>,
    builder: &ReaderBuilder,
    batching: BatchConfig,
    job: &J,
    done: Sender<Finished<J::Output>>,
) {
    // A panic outside the places that catch one (a bug here) would leave the other
    // threads waiting: stop them all instead, and the pool passes the panic on.
    let _stop_on_panic = StopOnPanic(shared);
    let mut worker = job.worker();
    let mut games: Vec<Game> = Vec::new();
    loop {
        let Some((seq, taken)) = take(shared) else {
            return;
        };
        let (mut piece, panicked) = match taken {
            Taken::Piece(mut piece, panicked) => {
                // A piece of a file read at offsets is read here, by the thread that
                // works on it, outside the splitter's lock.
                piece.load();
                (piece, panicked)
            }
            Taken::Rest(splitter) => {
                let Some(link) = settled_before(shared, seq) else {
                    return;
                };
                let reader = (*splitter).into_reader(link, builder);
                read_rest(shared, reader, seq, batching, job, &mut worker, &done);
                return;
            }
        };
        let likely = piece.likely();
        let Some((guess, at_once)) = first_guess(shared, seq, piece.start, likely) else {
            return;
        };
        // Sized for the games guessed, so that it seldom grows.
        let mut results = Vec::with_capacity(likely.games as usize);
        let (guess, end) = if at_once {
            let (_, end) = read_from(
                builder,
                &mut piece,
                &guess,
                IN_LINE_BYTES,
                &mut games,
                read_caught,
                |own| work_all(job, &mut worker, own, &mut results),
            );
            if let Ok(link) = &end {
                let counts = Counts::between(guess.origin, link.origin);
                shared.lock().counted(seq, counts);
                shared.turn.notify_all();
            }
            (guess, end)
        } else {
            let ahead = read_ahead(builder, &mut piece, &mut games, read_caught);
            if let Ok(end) = &ahead {
                shared
                    .lock()
                    .counted(seq, Counts::between(Origin::default(), end.next));
                shared.turn.notify_all();
            }
            let Some(guess) = counted_guess(shared, seq, piece.start) else {
                return;
            };
            let (count, end) = settle(builder, &mut piece, ahead, &guess, &mut games, read_caught);
            work_all(job, &mut worker, &games[..count], &mut results);
            (guess, end)
        };
        let work = Work::Piece(Box::new(PieceDone {
            piece,
            panicked,
            guess: Box::new(guess),
            results,
            end,
        }));
        if done.send(Finished { seq, work }).is_err() {
            return;
        }
    }
}

/// Takes the next piece, once the window has room, with the guess of where its games
/// start; `None` when there is no more.
fn take<R: Read>(shared: &Shared<R>) -> Option<(u64, Taken<R>)> {
    let mut state = shared.lock();
    while !state.done && !state.stop && state.next >= state.handed_on + state.window {
        state = shared.wait(state);
    }
    if state.done || state.stop {
        return None;
    }
    let seq = state.next;
    let splitter = state.splitter.as_mut()?;
    let (piece, panicked) = match catch_unwind(AssertUnwindSafe(|| splitter.next_piece())) {
        Ok(Next::Piece(piece)) => (piece, None),
        Ok(Next::End) => {
            // The pieces before are the input's end: nothing is sent for this number.
            state.done = true;
            return None;
        }
        Ok(Next::Unsplittable) => {
            state.done = true;
            state.next += 1;
            return Some((seq, Taken::Rest(Box::new(state.splitter.take()?))));
        }
        Err(panic) => {
            // A panic while reading the input (a bug, in a decoder or here): what was read
            // is read to its last whole game, and the game it cut short is named.
            let piece = splitter.unread();
            state.done = true;
            (piece, Some(panic_message(panic.as_ref())))
        }
    };
    state.next += 1;
    state.counts.insert(seq, Held::Unknown);
    Some((seq, Taken::Piece(piece, panicked)))
}

/// Records what piece `seq`, which starts at byte `start`, likely holds, and waits until
/// every piece before it is guessed (by the threads that took them, at once): the guess of
/// where its games start, and whether to read it from that guess at once (every piece
/// before is counted, or the guesses have been right lately); `None` when the caller
/// stopped.
fn first_guess<R>(
    shared: &Shared<R>,
    seq: u64,
    start: u64,
    likely: Counts,
) -> Option<(Link, bool)> {
    let mut state = shared.lock();
    if let Some(held) = state.counts.get_mut(&seq)
        && matches!(held, Held::Unknown)
    {
        *held = Held::Guessed(likely);
    }
    shared.turn.notify_all();
    loop {
        if state.stop {
            return None;
        }
        if let Some((guess, counted)) = state.guess(seq, start) {
            let at_once = counted || state.trusts_guesses(seq);
            return Some((guess, at_once));
        }
        state = shared.wait(state);
    }
}

/// Waits until every piece before `seq` is counted, and gives the guess of where the
/// games of `seq` start (right unless a cut was not a game start); `None` when the
/// caller stopped.
fn counted_guess<R>(shared: &Shared<R>, seq: u64, start: u64) -> Option<Link> {
    let mut state = shared.lock();
    loop {
        if state.stop {
            return None;
        }
        if let Some((guess, true)) = state.guess(seq, start) {
            return Some(guess);
        }
        state = shared.wait(state);
    }
}

/// Waits until every piece before `seq` is handed on and takes where their games end;
/// `None` when the caller stopped.
fn settled_before<R>(shared: &Shared<R>, seq: u64) -> Option<Link> {
    let mut state = shared.lock();
    loop {
        if state.stop {
            return None;
        }
        if state.handed_on == seq {
            return Some(state.settled.clone());
        }
        state = shared.wait(state);
    }
}

/// Reads the rest of the input alone, in batches numbered from `seq`, as one thread
/// reads, keeping to the window.
fn read_rest<S, R: Read, J: Job>(
    shared: &Shared<S>,
    mut reader: Reader<R>,
    mut seq: u64,
    batching: BatchConfig,
    job: &J,
    worker: &mut J::Worker,
    done: &Sender<Finished<J::Output>>,
) {
    let mut batch = Vec::new();
    loop {
        {
            let mut state = shared.lock();
            while !state.stop && seq >= state.handed_on + state.window {
                state = shared.wait(state);
            }
            if state.stop {
                return;
            }
        }
        let (used, ended, error) = read_games(
            &mut reader,
            batching.max_games,
            batching.max_bytes,
            &mut batch,
        );
        let mut results = Vec::new();
        work_all(job, worker, &batch[..used], &mut results);
        let work = Work::Batch { results, error };
        if done.send(Finished { seq, work }).is_err() || ended {
            return;
        }
        seq += 1;
    }
}

/// Why reading a piece stopped: a read error (none from memory, but the reader's
/// signature has one) or a panic of the tokenizer, at the game it was reading.
enum ReadStop {
    Io(io::Error),
    Panic { at: Origin, message: String },
}

/// Reads one game of a piece, turning a panic of the tokenizer (a bug) into
/// [`ReadStop::Panic`] with where the game starts (as the piece's reader counts).
fn read_caught(reader: &mut TextReader, game: &mut Game) -> Result<bool, ReadStop> {
    let at = reader.origin();
    match catch_unwind(AssertUnwindSafe(|| reader.read_game(game))) {
        Ok(read) => read.map_err(ReadStop::Io),
        Err(panic) => Err(ReadStop::Panic {
            at,
            message: panic_message(panic.as_ref()),
        }),
    }
}

/// The error that ends the input at a stopped piece: for a panic, the message of
/// [`read_next`](super::read_next), naming the game and its byte offset in the input.
fn stopped_error(stopped: Stopped<ReadStop>) -> io::Error {
    match stopped.error {
        ReadStop::Io(e) => e,
        ReadStop::Panic { at, message } => {
            let at = at.after(stopped.counted_from);
            super::reading_panicked(at.games + 1, at.offset, &message)
        }
    }
}
