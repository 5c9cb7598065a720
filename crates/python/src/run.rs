//! `planilla.check`: every game of the sources checked on a rayon pool, a batch at a
//! time, the findings in input order whatever the number of threads.

use crate::options::{self, Filter};
use crate::py_values::{self, Totals};
use crate::source::{GameReader, Source, SourceError};
use planilla_core::Move;
use planilla_parser::{Encoding, Game};
use planilla_validator::archive::{Archive, GameRecord, Shard};
use planilla_validator::{Checker, Config, Finding};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

/// A batch holds at most this many games and about this many bytes (the binary's
/// batches): enough work to share among the threads, little memory.
const BATCH_GAMES: usize = 512;
const BATCH_BYTES: usize = 256 << 10;

/// The result of `planilla.check`: the findings reported, in input order, each a dict
/// with the fields of a `planilla check --format jsonl` line, and the summary line's.
#[pyclass(frozen, module = "planilla")]
pub struct Report {
    /// The findings: a list of dicts.
    #[pyo3(get)]
    findings: Py<PyList>,
    /// The totals: a dict.
    #[pyo3(get)]
    summary: Py<PyDict>,
}

#[pymethods]
impl Report {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "Report(findings={}, summary={})",
            self.findings.bind(py).len(),
            self.summary.bind(py).repr()?
        ))
    }
}

/// How games are checked.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// The checker's configuration.
    pub config: Config,
    /// How the input's bytes are decoded.
    pub encoding: Encoding,
}

impl Settings {
    /// The settings of the keywords `rules`, `lang` and `encoding`.
    ///
    /// # Errors
    ///
    /// A `ValueError` for an unknown value, with the command line's message.
    pub fn new(rules: &str, lang: &str, encoding: &str) -> PyResult<Settings> {
        Ok(Settings {
            config: Config {
                rules: options::rules(rules)?,
                lang: options::lang(lang)?,
            },
            encoding: options::encoding(encoding)?,
        })
    }
}

/// What a call to `check` or `iter_check` asked for, read from its arguments.
pub struct Job {
    /// The sources, in order.
    pub sources: Vec<Source>,
    settings: Settings,
    shard: Option<Shard>,
    /// `archive=True`: the archive checks across every game of the call.
    archive: bool,
    /// Which findings are reported.
    pub filter: Filter,
    workers: Workers,
}

impl Job {
    /// The job of `check`'s arguments.
    ///
    /// # Errors
    ///
    /// `ValueError` for an unknown option value, `TypeError` for a source of another type.
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per option.
    pub fn new(
        source: &Bound<'_, PyAny>,
        rules: &str,
        lang: &str,
        encoding: &str,
        select: Option<Vec<String>>,
        ignore: Option<Vec<String>>,
        threads: Option<usize>,
        shard: Option<&str>,
        archive: bool,
        range: Option<(u64, u64)>,
        index: Option<&str>,
    ) -> PyResult<Job> {
        Ok(Job {
            settings: Settings::new(rules, lang, encoding)?,
            filter: Filter::new(select, ignore)?,
            shard: shard
                .map(|s| s.parse::<Shard>().map_err(PyValueError::new_err))
                .transpose()?,
            archive,
            sources: Source::ranged(Source::all(source)?, range, index)?,
            workers: Workers::new(threads)?,
        })
    }
}

/// Checks PGN games and reports findings.
///
/// `source` is PGN text (`bytes` or `str`), a path (`os.PathLike`), or a list of paths.
/// The keywords are `planilla check`'s options (`shard` is `--shard K/N`: N calls with
/// K = 0..N-1 split the games exactly; `archive=True` is `--archive`: the archive
/// findings across every game of the call follow the games' own; `range=(start, end)` is
/// `--range START:END`: the games of one file that start in that byte range, numbered as
/// in the whole file; `index` is `--index`: an index's text, from `index()`). The work runs on `threads` threads (all cores by
/// default) with the interpreter lock released.
///
/// Raises `ValueError` for an unknown option value and `OSError` (with the command
/// line's message, naming the path) for a file that cannot be read.
#[pyfunction]
#[pyo3(signature = (source, *, rules="fide-2023", lang="auto", encoding="auto", select=None, ignore=None, threads=None, shard=None, archive=false, range=None, index=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per option.
pub fn check(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    rules: &str,
    lang: &str,
    encoding: &str,
    select: Option<Vec<String>>,
    ignore: Option<Vec<String>>,
    threads: Option<usize>,
    shard: Option<&str>,
    archive: bool,
    range: Option<(u64, u64)>,
    index: Option<&str>,
) -> PyResult<Report> {
    let job = Job::new(
        source, rules, lang, encoding, select, ignore, threads, shard, archive, range, index,
    )?;
    let mut batches = Batches::new(job);
    let (reported, late, totals) = py.detach(|| -> Result<_, SourceError> {
        let mut reported: Vec<Vec<Finding>> = vec![Vec::new(); batches.job().sources.len()];
        let mut totals = Totals::default();
        while let Some((i, results)) = batches.next_batch()? {
            reported[i].extend(totals.add(results, &batches.job().filter));
        }
        totals.files = batches.opened();
        let late = totals.add_archive(batches.archive_findings()?, &batches.job().filter);
        Ok((reported, late, totals))
    })?;
    let findings = PyList::empty(py);
    for (source, list) in batches.job().sources.iter().zip(&reported) {
        let name = source.name();
        for f in list {
            findings.append(py_values::finding(py, &name, f)?)?;
        }
    }
    for (name, f) in &late {
        findings.append(py_values::finding(py, name, f)?)?;
    }
    Ok(Report {
        findings: findings.unbind(),
        summary: totals.to_dict(py)?.unbind(),
    })
}

/// Where the games are checked: the threads `threads=` asks for.
enum Workers {
    /// `None`: rayon's global pool, one thread a core.
    Global,
    /// `1`: the calling thread, with one `Checker` for every game (as `check -j1`).
    Caller,
    /// More: a pool of that many threads.
    Pool(ThreadPool),
}

impl Workers {
    /// The workers of `threads=`.
    fn new(threads: Option<usize>) -> PyResult<Workers> {
        match threads {
            None => Ok(Workers::Global),
            Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
            Some(1) => Ok(Workers::Caller),
            Some(n) => ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map(Workers::Pool)
                .map_err(|e| PyValueError::new_err(format!("cannot start {n} threads: {e}"))),
        }
    }
}

/// The findings and plies of a game checked, and its archive record under `archive=True`;
/// `None` for a game of another shard.
pub type Checked = Option<(Vec<Finding>, u64, Option<GameRecord>)>;

impl Totals {
    /// Counts the games of `results` and the findings `filter` keeps, and returns those.
    pub fn add(&mut self, results: Vec<Checked>, filter: &Filter) -> Vec<Finding> {
        let mut kept = Vec::new();
        for (findings, plies, _) in results.into_iter().flatten() {
            self.games += 1;
            self.plies += plies;
            for f in findings.into_iter().filter(|f| filter.keeps(f.code)) {
                self.count(f.severity());
                kept.push(f);
            }
        }
        kept
    }

    /// Counts the archive findings `filter` keeps (named by their file), and returns those.
    pub fn add_archive(
        &mut self,
        found: Vec<(String, Finding)>,
        filter: &Filter,
    ) -> Vec<(String, Finding)> {
        let kept: Vec<_> = found
            .into_iter()
            .filter(|(_, f)| filter.keeps(f.code))
            .collect();
        for (_, f) in &kept {
            self.count(f.severity());
        }
        kept
    }
}

/// The games of a job's sources, one source after another, read and checked a batch at a
/// time on the job's workers.
pub struct Batches {
    job: Job,
    /// The index of the source being read, and its reader.
    reader: Option<(usize, GameReader)>,
    /// The sources opened so far.
    opened: usize,
    /// The games of a batch, reused from batch to batch as the reader's caller should.
    batch: Vec<Game>,
    /// The calling thread's checker, kept from batch to batch (`Workers::Caller`), and
    /// its list of a game's main-line moves.
    caller: (Checker, Vec<Move>),
    /// The archive judge, under `archive=True`: the records of the games checked so far,
    /// in input order.
    archive: Option<Archive>,
}

impl Batches {
    /// Nothing read yet.
    pub fn new(job: Job) -> Batches {
        Batches {
            caller: (Checker::new(job.settings.config), Vec::new()),
            archive: job.archive.then(Archive::new),
            job,
            reader: None,
            opened: 0,
            batch: Vec::new(),
        }
    }

    /// What is read and how.
    pub fn job(&self) -> &Job {
        &self.job
    }

    /// The sources opened so far: the summary's `files`.
    pub fn opened(&self) -> u64 {
        self.opened as u64
    }

    /// The results of the next batch, in input order, with the index of their source;
    /// `None` after the last source.
    ///
    /// # Errors
    ///
    /// A source that cannot be opened or read to its end.
    pub fn next_batch(&mut self) -> Result<Option<(usize, Vec<Checked>)>, SourceError> {
        loop {
            let Some((index, reader)) = &mut self.reader else {
                let Some(source) = self.job.sources.get(self.opened) else {
                    return Ok(None);
                };
                self.reader = Some((self.opened, source.open(self.job.settings.encoding)?));
                self.opened += 1;
                continue;
            };
            let index = *index;
            let source = &self.job.sources[index];
            let (mut count, mut bytes) = (0, 0);
            while count < BATCH_GAMES && bytes < BATCH_BYTES {
                if self.batch.len() == count {
                    self.batch.push(Game::new());
                }
                let read = reader
                    .read_game(&mut self.batch[count])
                    .map_err(|e| SourceError::reading(source, &e))?;
                if !read {
                    self.reader = None;
                    break;
                }
                bytes += self.batch[count].bytes().len();
                count += 1;
            }
            if count > 0 {
                let results = self.check(count);
                if let Some(archive) = &mut self.archive {
                    let name = self.job.sources[index].name();
                    for (_, _, record) in results.iter().flatten() {
                        if let Some(record) = record {
                            archive.push(&name, record).map_err(SourceError::archive)?;
                        }
                    }
                }
                return Ok(Some((index, results)));
            }
        }
    }

    /// The archive findings, each with its file's name, once every batch was read
    /// (none without `archive=True`); the judge is used up.
    ///
    /// # Errors
    ///
    /// The judge's temporary file cannot be read back.
    pub fn archive_findings(&mut self) -> Result<Vec<(String, Finding)>, SourceError> {
        let Some(archive) = self.archive.take() else {
            return Ok(Vec::new());
        };
        let found = archive.finish().map_err(SourceError::archive)?;
        Ok(found.into_iter().map(|a| (a.file, a.finding)).collect())
    }

    /// Checks the first `count` games of the batch.
    fn check(&mut self, count: usize) -> Vec<Checked> {
        let (config, shard) = (self.job.settings.config, self.job.shard);
        let archive = self.job.archive;
        let check = |(checker, main_line): &mut (Checker, Vec<Move>), game: &Game| -> Checked {
            if shard.is_some_and(|s| !s.keeps(game.index())) {
                return None;
            }
            let mut findings = Vec::new();
            if archive {
                let stats = checker.check_main_line(game, &mut findings, main_line);
                let record = GameRecord::new(game, main_line);
                return Some((findings, stats.plies, Some(record)));
            }
            let stats = checker.check(game, &mut findings);
            Some((findings, stats.plies, None))
        };
        let worker = || (Checker::new(config), Vec::new());
        let games = &self.batch[..count];
        match &self.job.workers {
            Workers::Caller => games.iter().map(|g| check(&mut self.caller, g)).collect(),
            Workers::Pool(pool) => {
                pool.install(|| games.par_iter().map_init(worker, check).collect())
            }
            Workers::Global => games.par_iter().map_init(worker, check).collect(),
        }
    }
}
