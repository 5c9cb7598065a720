//! The loop over the sources that `check`, `convert` and `fix` share: each source is opened,
//! its games are read and worked on in parallel, and the results are handed to the
//! caller in input order, source after source.
//!
//! A large file (or standard input) is streamed through
//! [`process_stream`]: cut into bounded pieces, each tokenized and worked on by one
//! thread, every thread at once.
//! A small file fits in one batch, so streaming it leaves all threads but one idle and
//! costs a hand-over between threads for every file (a directory of 4,000 one-game
//! files took ten times as long as the same games in one file). Runs of small files are
//! therefore read whole, one file per task, several files at a time on the pool
//! ([`process_whole`]); their results are kept until the files before them are handed
//! on. Output is the same either way and for every number of threads.

use crate::decode::Counting;
use crate::pipeline::{BatchConfig, Job, process_opened, process_whole};
use crate::range::{Index, locate, open_plain};
use crate::source::{GameReader, OpenError, Opened, Source, io_reason};
use planilla_parser::split::ReadAt;
use planilla_parser::{Encoding, ReaderBuilder};
use std::io;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// What the caller is handed, in input order.
pub enum Event<'a, T> {
    /// A source was opened: the results of its games follow.
    Opened(&'a Source),
    /// Results of the games of the source opened last, in input order.
    Results(&'a [T]),
    /// The source opened last is done: read to its end, or stopped by a read error
    /// (already handed to [`Progress::failed`]).
    Closed,
    /// A source could not be opened, or not read to its end: the message, already
    /// handed to [`Progress::failed`], for reports that carry it too.
    Failed(&'a str),
}

/// Where a front end follows a run: how far it has read, and the sources that failed
/// (the binary draws a progress bar and names failures on standard error).
pub trait Progress {
    /// `bytes` of the run's sources have been read (compressed bytes for a compressed
    /// file).
    fn read_to(&self, bytes: u64);
    /// A source could not be opened or read to its end: `message` says which and why.
    fn failed(&self, message: &str);
}

/// No one follows the run.
impl Progress for () {
    fn read_to(&self, _: u64) {}
    fn failed(&self, _: &str) {}
}

/// A file is read whole when it holds at most this many bytes: one batch's worth, so
/// streaming it would give only one thread work.
const SMALL_FILE: u64 = BatchConfig::DEFAULT_MAX_BYTES as u64;
/// The most bytes (counted decompressed, estimated for compressed files) and files in
/// one run of small files: the results of a run stay in memory until it is handed on.
const RUN_BYTES: u64 = 8 << 20;
const RUN_FILES: usize = 1024;
/// A compressed file is counted as this many times its size in a run.
const COMPRESSION_GUESS: u64 = 10;

/// How a source is read, decided from its metadata before the run starts.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// The size in bytes, when known (for the progress bar).
    pub size: Option<u64>,
    /// Bytes it counts for in a run of small files, when it is small enough to be
    /// read whole (a regular file only: a FIFO's length says nothing).
    whole: Option<u64>,
    /// Only the games whose first byte lies in this byte range are read
    /// ([`Plan::range`]).
    range: Option<(Range<u64>, Option<Arc<Index>>)>,
}

impl Plan {
    /// Reads only the games whose first byte lies in `range` (a plain file's), numbered
    /// as in the whole file ([`crate::range`]), finding where they start from the marks
    /// of `index` or else from the file's start.
    pub fn range(mut self, range: Range<u64>, index: Option<Arc<Index>>) -> Plan {
        // The bar counts the range's bytes.
        self.size = self
            .size
            .map(|size| size.min(range.end).saturating_sub(range.start));
        self.whole = None;
        self.range = Some((range, index));
        self
    }

    /// The plan of each source, and their total size when every size is known (for
    /// the progress bar).
    pub fn all(sources: &[Source]) -> (Vec<Plan>, Option<u64>) {
        let plans: Vec<Plan> = sources.iter().map(Plan::of).collect();
        let total = Plan::total(&plans);
        (plans, total)
    }

    /// The total size of the sources of `plans` (of a byte range, its length), when
    /// every size is known (for the progress bar).
    pub fn total(plans: &[Plan]) -> Option<u64> {
        plans.iter().map(|p| p.size).sum()
    }

    /// Looks at the source's metadata (once: a directory of thousands of small files
    /// makes every look-up count).
    pub fn of(source: &Source) -> Plan {
        let Source::File(path) = source else {
            return Plan::default();
        };
        let Ok(meta) = std::fs::metadata(path) else {
            return Plan::default();
        };
        let size = meta.len();
        let factor = match crate::decode::Compression::from_path(path) {
            crate::decode::Compression::None => 1,
            _ => COMPRESSION_GUESS,
        };
        let weight = size.saturating_mul(factor);
        Plan {
            size: Some(size),
            whole: (meta.is_file() && weight <= SMALL_FILE).then_some(weight),
            range: None,
        }
    }
}

/// Reads every source in order, runs `job` on each game (in parallel on `pool`) and
/// hands the results to `on`, in input order. A source that cannot be opened or read
/// is named on standard error and the run goes on with the next one; the games read
/// before a read error are handed on first.
///
/// Returns whether a source could not be opened or read.
///
/// # Errors
///
/// The first error `on` returns, which ends the run.
pub fn for_each_source<J, F>(
    sources: &[Source],
    plans: &[Plan],
    encoding: Encoding,
    pool: &rayon::ThreadPool,
    bar: &dyn Progress,
    job: &J,
    mut on: F,
) -> io::Result<bool>
where
    J: Job,
    F: FnMut(Event<'_, J::Output>) -> io::Result<()>,
{
    let mut failed = false;
    let mut done_bytes = 0u64;
    let mut i = 0;
    while i < sources.len() {
        // A run of small files: read whole, several at a time.
        let mut end = i;
        let mut weight = 0u64;
        while end < sources.len() && end - i < RUN_FILES && weight < RUN_BYTES {
            match plans[end].whole {
                Some(w) => weight += w,
                None => break,
            }
            end += 1;
        }
        if end > i + 1 {
            let open = |source: &Source| open(source, encoding, &Arc::new(AtomicU64::new(0)));
            let wholes = process_whole(&sources[i..end], pool, open, job);
            for ((source, plan), whole) in sources[i..end].iter().zip(&plans[i..end]).zip(wholes) {
                if let Some(e) = whole.unopened {
                    fail(bar, e.message(), &mut on, &mut failed)?;
                    continue;
                }
                on(Event::Opened(source))?;
                if !whole.results.is_empty() {
                    on(Event::Results(&whole.results))?;
                }
                if let Some(e) = whole.error {
                    fail(bar, read_failure(source, &e), &mut on, &mut failed)?;
                }
                done_bytes += plan.size.unwrap_or(0);
                bar.read_to(done_bytes);
                on(Event::Closed)?;
            }
            i = end;
            continue;
        }

        // One file streamed (a large one, standard input, or a small one alone).
        let source = &sources[i];
        i += 1;
        let run = Streamed { source, pool, bar };
        if let Some((range, index)) = &plans[i - 1].range {
            let ranged = RangeRun {
                source,
                range: range.clone(),
                index: index.as_deref(),
                encoding,
            };
            match ranged.open_span() {
                Ok((builder, text, read)) => {
                    run.stream(builder, text, read, job, &mut on, &mut failed)?;
                }
                Err(message) => fail(bar, message, &mut on, &mut failed)?,
            }
            continue;
        }
        let consumed = Arc::new(AtomicU64::new(0));
        // Several threads read a regular file's pieces themselves, at offsets.
        let at_offsets = pool.current_num_threads() > 1;
        let opened = source.open_to_read(Arc::clone(&consumed), at_offsets);
        let input = match opened {
            Ok(input) => input,
            Err(e) => {
                fail(bar, e.message(), &mut on, &mut failed)?;
                continue;
            }
        };
        let base = done_bytes;
        let read = || base + consumed.load(Ordering::Relaxed);
        let builder = ReaderBuilder::new().encoding(encoding);
        run.stream(builder, input, read, job, &mut on, &mut failed)?;
        done_bytes += plans[i - 1].size.unwrap_or(0);
    }
    Ok(failed)
}

/// A byte range of a plain file, to be read.
struct RangeRun<'a> {
    source: &'a Source,
    range: Range<u64>,
    index: Option<&'a Index>,
    encoding: Encoding,
}

impl RangeRun<'_> {
    /// The range's games to be read as [`for_each_source`] reads a source: how, the
    /// text from where the first of them starts, and how far into the range it has been
    /// read (the bar counts the range's bytes); or why the file cannot be opened, read,
    /// or read by byte ranges (compressed, UTF-16, or not the file its index was made of).
    fn open_span(&self) -> Result<(ReaderBuilder, Opened, impl Fn() -> u64 + use<>), String> {
        let input = self.open()?;
        let builder = ReaderBuilder::new().encoding(self.encoding);
        let span = locate(&input, self.range.clone(), self.index, &builder)
            .map_err(|e| read_failure(self.source, &e))?;
        let consumed = Arc::new(AtomicU64::new(0));
        let text = Counting::new(span.text(input), Arc::clone(&consumed));
        let (start, length) = (self.range.start, self.range.end - self.range.start);
        let read = move || {
            let at = span.origin.offset + consumed.load(Ordering::Relaxed);
            at.saturating_sub(start).min(length)
        };
        let text = Opened::Stream(Box::new(text));
        Ok((builder.origin(span.origin), text, read))
    }

    /// The file, to be read at offsets; or why it cannot be read by byte ranges.
    fn open(&self) -> Result<Arc<dyn ReadAt>, String> {
        let Source::File(path) = self.source else {
            let name = self.source.display_name();
            return Err(format!(
                "{name}: a byte range is read from a file, not a stream"
            ));
        };
        let (input, size) = open_plain(path)?;
        if let Some(index) = self.index
            && index.size != size
        {
            return Err(format!(
                "{}: the index was made of a file of {} bytes, and this one has {size}: \
                 index it again",
                path.display(),
                index.size
            ));
        }
        Ok(input)
    }
}

/// One source streamed through the pipeline, and where its progress and failures go.
struct Streamed<'a> {
    source: &'a Source,
    pool: &'a rayon::ThreadPool,
    bar: &'a dyn Progress,
}

impl Streamed<'_> {
    /// Hands on the source's opening, its games' results (with `read()`, how far the
    /// run has read, to the bar after each batch), a read error that stops it, and its
    /// end.
    ///
    /// # Errors
    ///
    /// The first error `on` returns.
    fn stream<J, F>(
        &self,
        builder: ReaderBuilder,
        input: Opened,
        read: impl Fn() -> u64,
        job: &J,
        on: &mut F,
        failed: &mut bool,
    ) -> io::Result<()>
    where
        J: Job,
        F: FnMut(Event<'_, J::Output>) -> io::Result<()>,
    {
        on(Event::Opened(self.source))?;
        // What `on` returned, kept apart from a read error, which ends only this source.
        let mut stopped: Option<io::Error> = None;
        let sink = |results: &mut Vec<J::Output>| {
            if let Err(e) = on(Event::Results(results.as_slice())) {
                stopped = Some(e);
                return Err(io::Error::other("stopped"));
            }
            self.bar.read_to(read());
            Ok(())
        };
        let batching = BatchConfig::default();
        let streamed = process_opened(builder, input, batching, self.pool, job, sink);
        if let Some(e) = stopped {
            return Err(e);
        }
        if let Err(e) = streamed {
            fail(self.bar, read_failure(self.source, &e), on, failed)?;
        }
        on(Event::Closed)
    }
}

/// Opens a source and builds its game reader; `consumed` counts the bytes read from
/// the file (compressed bytes for a compressed file).
fn open(
    source: &Source,
    encoding: Encoding,
    consumed: &Arc<AtomicU64>,
) -> Result<GameReader, OpenError> {
    let input = source.open(Arc::clone(consumed))?;
    Ok(ReaderBuilder::new().encoding(encoding).build(input))
}

/// The message for a source that could not be read to its end.
fn read_failure(source: &Source, e: &io::Error) -> String {
    format!("{}: cannot read: {}", source.display_name(), io_reason(e))
}

/// Tells `bar` of a failure, hands it on, and marks the run `failed`.
fn fail<T, F>(bar: &dyn Progress, message: String, on: &mut F, failed: &mut bool) -> io::Result<()>
where
    F: FnMut(Event<'_, T>) -> io::Result<()>,
{
    *failed = true;
    bar.failed(&message);
    on(Event::Failed(&message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::tests::Each;
    use planilla_parser::Game;
    use std::sync::Mutex;

    /// Remembers how far the run said it had read.
    #[derive(Default)]
    struct Seen(Mutex<Vec<u64>>);

    impl Progress for Seen {
        fn read_to(&self, bytes: u64) {
            self.0.lock().unwrap().push(bytes);
        }
        fn failed(&self, message: &str) {
            panic!("{message}");
        }
    }

    /// A byte range's progress counts the range's bytes: its plan's size is the range's
    /// length (cut at the file's end), and the run reads up to it, never past it, for
    /// one thread and several.
    #[test]
    fn a_range_counts_its_own_bytes() {
        let text: Vec<u8> = (1..=3000)
            .flat_map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 *\n\n").into_bytes())
            .collect();
        let path = std::env::temp_dir().join(format!("planilla-drive-{}.pgn", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        let source = Source::File(path.clone());
        let size = text.len() as u64;
        for (range, length) in [(1000..30_000, 29_000), (50_000..u64::MAX, size - 50_000)] {
            let plan = Plan::of(&source).range(range, None);
            assert_eq!(Plan::total(std::slice::from_ref(&plan)), Some(length));
            for threads in [1, 2] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let seen = Seen::default();
                let mut games = 0;
                let plans = [plan.clone()];
                let sources = [source.clone()];
                let on = |event: Event<'_, u64>| {
                    if let Event::Results(results) = event {
                        games += results.len();
                    }
                    Ok(())
                };
                let failed = for_each_source(
                    &sources,
                    &plans,
                    Encoding::default(),
                    &pool,
                    &seen,
                    &Each(Game::index),
                    on,
                )
                .unwrap();
                assert!(!failed && games > 0);
                let seen = seen.0.into_inner().unwrap();
                assert_eq!(seen.last(), Some(&length), "{threads} threads: {seen:?}");
                assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
            }
        }
        std::fs::remove_file(&path).unwrap();
    }
}
