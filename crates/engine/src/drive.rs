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

use crate::pipeline::{BatchConfig, Job, process_at, process_stream, process_whole};
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
        self.whole = None;
        self.range = Some((range, index));
        self
    }

    /// The plan of each source, and their total size when every size is known (for
    /// the progress bar).
    pub fn all(sources: &[Source]) -> (Vec<Plan>, Option<u64>) {
        let plans: Vec<Plan> = sources.iter().map(Plan::of).collect();
        let total = plans.iter().map(|p| p.size).sum();
        (plans, total)
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
        if let Some((range, index)) = &plans[i - 1].range {
            let ranged = RangeRun {
                source,
                range: range.clone(),
                index: index.as_deref(),
                encoding,
            };
            ranged.run(pool, bar, job, &mut on, &mut failed)?;
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
        on(Event::Opened(source))?;
        let base = done_bytes;
        // What `on` returned, kept apart from a read error, which ends only this source.
        let mut stopped: Option<io::Error> = None;
        let builder = ReaderBuilder::new().encoding(encoding);
        let batching = BatchConfig::default();
        let sink = |results: &[J::Output]| {
            if let Err(e) = on(Event::Results(results)) {
                stopped = Some(e);
                return Err(io::Error::other("stopped"));
            }
            bar.read_to(base + consumed.load(Ordering::Relaxed));
            Ok(())
        };
        let streamed = match input {
            Opened::At(at) => process_at(builder, at, batching, pool, job, sink),
            Opened::Stream(input) => process_stream(builder, input, batching, pool, job, sink),
        };
        if let Some(e) = stopped {
            return Err(e);
        }
        if let Err(e) = streamed {
            fail(bar, read_failure(source, &e), &mut on, &mut failed)?;
        }
        done_bytes += plans[i - 1].size.unwrap_or(0);
        on(Event::Closed)?;
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
    /// Reads the range's games as [`for_each_source`] reads a source; a file that cannot
    /// be opened, read, or read by byte ranges (compressed, UTF-16, or not the file its
    /// index was made of) is a failure.
    fn run<J, F>(
        &self,
        pool: &rayon::ThreadPool,
        bar: &dyn Progress,
        job: &J,
        on: &mut F,
        failed: &mut bool,
    ) -> io::Result<()>
    where
        J: Job,
        F: FnMut(Event<'_, J::Output>) -> io::Result<()>,
    {
        let source = self.source;
        let input = match self.open() {
            Ok(input) => input,
            Err(message) => return fail(bar, message, on, failed),
        };
        let builder = ReaderBuilder::new().encoding(self.encoding);
        let span = match locate(&input, self.range.clone(), self.index, &builder) {
            Ok(span) => span,
            Err(e) => return fail(bar, read_failure(source, &e), on, failed),
        };
        on(Event::Opened(source))?;
        let mut stopped: Option<io::Error> = None;
        let sink = |results: &[J::Output]| {
            if let Err(e) = on(Event::Results(results)) {
                stopped = Some(e);
                return Err(io::Error::other("stopped"));
            }
            Ok(())
        };
        let text = span.text(input);
        let builder = builder.origin(span.origin);
        let streamed = process_stream(builder, text, BatchConfig::default(), pool, job, sink);
        if let Some(e) = stopped {
            return Err(e);
        }
        if let Err(e) = streamed {
            fail(bar, read_failure(source, &e), on, failed)?;
        }
        on(Event::Closed)
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
