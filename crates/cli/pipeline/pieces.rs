//! [`process_stream`](super::process_stream) with several threads: the input is cut
//! into pieces by the parser's splitter, the only serial step, and every thread
//! tokenizes and works on whole pieces.
//!
//! Each thread of the pool runs the same loop: it takes the splitter (a lock) for the
//! next piece, which costs a read and a substring search, lets it go, and tokenizes the
//! piece on its own (`read_ahead`), with game numbers and lines counted from zero. Then
//! it waits until the piece before is settled (its `Link`: where its games end, what the
//! reading before left), settles its own (the games moved to their place, or the piece
//! read again when its cut was not a game start), hands the link to the next piece, and
//! works on the games. A piece is read and worked on by one core while its text and
//! tokens are in that core's cache, and only settling, which costs nothing when the cut
//! was right, waits for the piece before. The calling thread hands the finished pieces
//! to the sink in input order; threads take pieces at most two each ahead of the oldest
//! one not yet handed on, so memory stays bounded.
//!
//! Where the splitter does not cut (UTF-16 input, a piece of [`MAX_PIECE`] bytes without
//! a line end), the thread that met it reads the rest alone with a [`Reader`] from where
//! the pieces before end, in batches, as one thread reads.
//!
//! [`MAX_PIECE`]: planilla_parser::split::MAX_PIECE

use super::{BatchConfig, Job, panic_message, read_games, work_on};
use planilla_parser::split::{Link, Next, Piece, Splitter, Stopped, read_ahead, settle};
use planilla_parser::{Game, Origin, Reader, ReaderBuilder, read_failure};
use std::collections::BTreeMap;
use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Condvar, Mutex, MutexGuard};

/// Runs [`process_stream`](super::process_stream) on `threads` threads (at least two).
pub(super) fn process_pieces<R, J, F>(
    builder: ReaderBuilder,
    input: R,
    batching: BatchConfig,
    pool: &rayon::ThreadPool,
    job: &J,
    mut sink: F,
) -> io::Result<()>
where
    R: Read + Send,
    J: Job,
    F: FnMut(&[J::Output]) -> io::Result<()>,
{
    let threads = pool.current_num_threads().max(1);
    let shared = Shared {
        state: Mutex::new(State {
            splitter: Some(Splitter::new(input, batching.max_bytes)),
            next: 0,
            handed_on: 0,
            window: 2 * threads as u64,
            done: false,
            stop: false,
            links: BTreeMap::new(),
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
        for finished in done_rx.iter() {
            waiting.insert(finished.seq, finished);
            while let Some(batch) = waiting.remove(&next) {
                next += 1;
                if !batch.results.is_empty() {
                    sink(&batch.results)?;
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

/// The splitter and the bookkeeping the threads share.
struct Shared<R> {
    state: Mutex<State<R>>,
    /// Signalled when a batch is handed on, a piece settled, or the stream stops.
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
    /// Where the games of each settled piece end, until the piece after it takes it;
    /// `None` when the piece stopped the input (an error), so the ones after it are not
    /// read.
    links: BTreeMap<u64, Option<Link>>,
}

/// A piece (or a batch read after the splitter stopped) worked on: its number, its
/// results, and the error that ended the input after it, if any.
struct Finished<T> {
    seq: u64,
    results: Vec<T>,
    error: Option<io::Error>,
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
    Rest(Splitter<R>),
}

/// One thread's loop: take a piece, tokenize it, settle it, work on its games, send the
/// results; until the input ends or the caller stops.
fn split_and_work<R: Read, J: Job>(
    shared: &Shared<R>,
    builder: &ReaderBuilder,
    batching: BatchConfig,
    job: &J,
    done: Sender<Finished<J::Output>>,
) {
    // A panic outside the places that catch one (a bug here) would leave the threads
    // holding later pieces waiting for this one's link: stop them all instead, and the
    // pool passes the panic on.
    let _stop_on_panic = StopOnPanic(shared);
    let mut worker = job.worker();
    let mut games: Vec<Game> = Vec::new();
    loop {
        let Some((seq, taken)) = take(shared) else {
            return;
        };
        let (piece, panicked) = match taken {
            Taken::Piece(piece, panicked) => (piece, panicked),
            Taken::Rest(splitter) => {
                let Some(link) = link_before(shared, seq) else {
                    return;
                };
                let reader = splitter.into_reader(link, builder);
                read_rest(shared, reader, seq, batching, job, &mut worker, &done);
                return;
            }
        };
        let ahead = read_ahead(builder, &piece, &mut games, read_caught);
        let Some(link) = link_before(shared, seq) else {
            return;
        };
        let (count, settled) = settle(builder, &piece, ahead, &link, &mut games, read_caught);
        let (link, error) = match settled {
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
                (Some(link), error)
            }
            Err(stopped) => (None, Some(stopped_error(stopped))),
        };
        let last = link.is_none() || error.is_some() || piece.cut.is_none();
        {
            let mut state = shared.lock();
            state.links.insert(seq, link);
            state.done |= last;
        }
        shared.turn.notify_all();
        if !work_and_send(job, &mut worker, &games[..count], seq, error, &done) {
            return;
        }
    }
}

/// Works on `games` and sends their results as number `seq`, with the error that ends
/// the input after them; false when the caller no longer listens.
fn work_and_send<J: Job>(
    job: &J,
    worker: &mut J::Worker,
    games: &[Game],
    seq: u64,
    error: Option<io::Error>,
    done: &Sender<Finished<J::Output>>,
) -> bool {
    let results = games
        .iter()
        .map(|game| work_on(job, worker, game))
        .collect();
    done.send(Finished {
        seq,
        results,
        error,
    })
    .is_ok()
}

/// Takes the next piece, once the window has room; `None` when there is no more.
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
    let taken = match catch_unwind(AssertUnwindSafe(|| splitter.next_piece())) {
        Ok(Next::Piece(piece)) => Taken::Piece(piece, None),
        Ok(Next::End) => {
            // The pieces before are the input's end: nothing is sent for this number.
            state.done = true;
            return None;
        }
        Ok(Next::Unsplittable) => {
            state.done = true;
            Taken::Rest(state.splitter.take()?)
        }
        Err(panic) => {
            // A panic while reading the input (a bug, in a decoder or here): what was read
            // is read to its last whole game, and the game it cut short is named.
            let piece = splitter.unread();
            state.done = true;
            Taken::Piece(piece, Some(panic_message(panic.as_ref())))
        }
    };
    state.next += 1;
    Some((seq, taken))
}

/// Waits until the piece before `seq` is settled and takes where its games end; `None`
/// when it stopped the input or the caller stopped.
fn link_before<R>(shared: &Shared<R>, seq: u64) -> Option<Link> {
    if seq == 0 {
        return Some(Link::default());
    }
    let mut state = shared.lock();
    loop {
        if state.stop {
            return None;
        }
        if let Some(link) = state.links.remove(&(seq - 1)) {
            return link;
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
        if !work_and_send(job, worker, &batch[..used], seq, error, done) || ended {
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
fn read_caught(reader: &mut Reader<&[u8]>, game: &mut Game) -> Result<bool, ReadStop> {
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
