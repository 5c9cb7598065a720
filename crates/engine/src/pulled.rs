//! The ordered parallel pipeline for a caller that asks for results a batch at a time
//! (an iterator, as the Python package's `iter_check`), rather than being handed them:
//! the same reading, splitting, numbering and errors as [`crate::pipeline`], with at most
//! a few batches read ahead of the caller, so memory stays bounded and nothing is read
//! before the first batch is asked for.
//!
//! With one thread ([`Threads::Caller`]) the calling thread reads and works on each batch
//! when it asks for it. With a pool, the pipeline runs on a thread of its own (its sink
//! hands each batch over a channel that holds one), as the binary's main thread runs
//! it: a scope of the pool's threads cannot outlive one call of the caller's.

use crate::Opened;
use crate::pipeline::{BatchConfig, InLine, Job, process_opened};
use planilla_parser::ReaderBuilder;
use planilla_parser::split::AtReader;
use std::io::{self, Read};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, sync_channel};

/// Where the games are worked on.
#[derive(Clone, Debug)]
pub enum Threads {
    /// On the calling thread, a batch when it asks for one.
    Caller,
    /// On the threads of a pool, from a thread of the pipeline's own.
    Pool(Arc<rayon::ThreadPool>),
}

/// The results of one input's games, a batch at a time, in input order.
pub struct Pulled<J: Job> {
    state: State<J>,
}

enum State<J: Job> {
    /// Read on the calling thread.
    Caller {
        job: Arc<J>,
        worker: J::Worker,
        in_line: Box<InLine<Box<dyn Read + Send>>>,
    },
    /// Read by a thread of its own; each batch, or the error that ends the input, comes
    /// through the channel. Dropping it stops that thread at its next batch.
    Ahead(Receiver<io::Result<Vec<J::Output>>>),
    /// Read to its end, or failed.
    Done,
}

impl<J> Pulled<J>
where
    J: Job + Send + 'static,
    J::Output: 'static,
{
    /// The results of the games of `input` (opened as [`crate::Source::open_to_read`]
    /// opens a source, read as `builder` says), worked on by `job`, in batches of
    /// `batching`'s bounds. Nothing is read before the first batch is asked for when
    /// the work is on the calling thread; with a pool, the pipeline starts at once.
    pub fn new(
        builder: ReaderBuilder,
        input: Opened,
        batching: BatchConfig,
        threads: &Threads,
        job: Arc<J>,
    ) -> Pulled<J> {
        let state = match threads {
            Threads::Caller => {
                let input: Box<dyn Read + Send> = match input {
                    Opened::Stream(input) => input,
                    // Reads of the reader's buffer size, at offsets, as a file's reads.
                    Opened::At(input) => Box::new(AtReader::new(input, 0)),
                };
                State::Caller {
                    worker: job.worker(),
                    job,
                    in_line: Box::new(InLine::new(builder.build(input), batching)),
                }
            }
            Threads::Pool(pool) => {
                let (batches, receiver) = sync_channel(1);
                let pool = Arc::clone(pool);
                std::thread::spawn(move || {
                    let sink = |results: &mut Vec<J::Output>| {
                        let stopped = || io::Error::other("the caller stopped");
                        batches
                            .send(Ok(std::mem::take(results)))
                            .map_err(|_| stopped())
                    };
                    let done = process_opened(builder, input, batching, &pool, &*job, sink);
                    if let Err(e) = done {
                        // Nobody to tell when the caller stopped.
                        let _ = batches.send(Err(e));
                    }
                });
                State::Ahead(receiver)
            }
        };
        Pulled { state }
    }

    /// The results of the next batch of games; `None` after the last.
    ///
    /// # Errors
    ///
    /// The read error that ended the input (after the batches of the games read before
    /// it); the input is then done.
    pub fn next_batch(&mut self) -> Option<io::Result<Vec<J::Output>>> {
        let next = match &mut self.state {
            State::Caller {
                job,
                worker,
                in_line,
            } => {
                let mut results = Vec::new();
                match in_line.next_batch(&**job, worker, &mut results) {
                    Ok(true) => Some(Ok(results)),
                    Ok(false) => None,
                    Err(e) => Some(Err(e)),
                }
            }
            // The pipeline's thread ends after its last batch or its error.
            State::Ahead(receiver) => receiver.recv().ok(),
            State::Done => None,
        };
        if !matches!(next, Some(Ok(_))) {
            self.state = State::Done;
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::tests::Each;
    use planilla_parser::Game;

    /// Every game's result comes in order in bounded batches, then the read error that
    /// cut the input short, for the calling thread and pools of 1 and 3 threads, read
    /// as a stream or at offsets; a caller that stops early stops the pipeline.
    #[test]
    fn batches_come_in_order_then_the_error() {
        let games = 2000u64;
        let data: Vec<u8> = (1..=games)
            .flat_map(|i| format!("[Event \"{i}\"]\n\n1. e4 e5 *\n\n").into_bytes())
            .collect();
        let pool = |n| {
            Threads::Pool(Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .unwrap(),
            ))
        };
        let batching = BatchConfig {
            max_games: 100,
            max_bytes: 4096,
        };
        for threads in [Threads::Caller, pool(1), pool(3)] {
            for at in [false, true] {
                let input = || match at {
                    true => Opened::At(Arc::new(data.clone())),
                    false => Opened::Stream(Box::new(io::Cursor::new(data.clone()))),
                };
                let builder = ReaderBuilder::new;
                let mut pulled = Pulled::new(
                    builder(),
                    input(),
                    batching,
                    &threads,
                    Arc::new(Each(Game::index as fn(&Game) -> u64)),
                );
                let mut seen = Vec::new();
                while let Some(batch) = pulled.next_batch() {
                    let batch = batch.unwrap();
                    // Pieces of several threads are bounded by their bytes.
                    assert!(!batch.is_empty() && batch.len() <= 200);
                    seen.extend(batch);
                }
                assert_eq!(
                    seen,
                    (1..=games).collect::<Vec<_>>(),
                    "{threads:?}, at {at}"
                );
                assert!(pulled.next_batch().is_none());
                // Taken one batch, then dropped: the pipeline's thread ends on its own.
                let mut early = Pulled::new(
                    builder(),
                    input(),
                    batching,
                    &threads,
                    Arc::new(Each(Game::index as fn(&Game) -> u64)),
                );
                assert!(early.next_batch().is_some());
                drop(early);
            }
        }
        // A stream that fails after its games: every game, then the error, then nothing.
        struct Fails;
        impl Read for Fails {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("incomplete deflate stream"))
            }
        }
        for threads in [Threads::Caller, pool(2)] {
            let input = Opened::Stream(Box::new(io::Cursor::new(data.clone()).chain(Fails)));
            let numbers = Arc::new(Each(Game::index as fn(&Game) -> u64));
            let mut pulled = Pulled::new(ReaderBuilder::new(), input, batching, &threads, numbers);
            let mut seen = Vec::new();
            let error = loop {
                match pulled.next_batch() {
                    Some(Ok(batch)) => seen.extend(batch),
                    Some(Err(e)) => break e,
                    None => panic!("no error after the games"),
                }
            };
            assert!(error.to_string().contains("incomplete deflate"), "{error}");
            assert_eq!(seen, (1..=games).collect::<Vec<_>>(), "{threads:?}");
            assert!(pulled.next_batch().is_none());
        }
    }
}
