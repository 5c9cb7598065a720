//! `planilla.check`: every game of the sources read and checked by the engine's ordered
//! parallel pipeline and its `check` job, as the binary reads and checks them, a batch at
//! a time, the findings in input order whatever the number of threads.

use crate::options::{self, Filter};
use crate::py_values::{self, Totals};
use crate::source::{Source, SourceError, reason};
use planilla_engine::jobs::{CheckJob, GameReport};
use planilla_engine::pipeline::BatchConfig;
use planilla_engine::pulled::{Pulled, Threads};
use planilla_parser::{Encoding, Game};
use planilla_validator::archive::{Archive, GameRecord, Shard};
use planilla_validator::trf::TrfCheck;
use planilla_validator::{Config, Finding};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rayon::ThreadPoolBuilder;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

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
                notation: None,
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
    /// `trf=`: the tournament report every game is judged against, and its name.
    trf: Option<(String, Arc<TrfCheck>)>,
    /// Which findings are reported.
    pub filter: Filter,
    /// Where the games are checked.
    pub threads: Threads,
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
        trf: Option<PathBuf>,
    ) -> PyResult<Job> {
        if range.is_some() && trf.is_some() {
            return Err(PyValueError::new_err(
                "range cannot be used with trf: a range is a part of one file, and the TRF \
                 check needs every game of the run",
            ));
        }
        Ok(Job {
            trf: trf.as_deref().map(load_trf).transpose()?,
            settings: Settings::new(rules, lang, encoding)?,
            filter: Filter::new(select, ignore)?,
            shard: shard
                .map(|s| s.parse::<Shard>().map_err(PyValueError::new_err))
                .transpose()?,
            archive,
            sources: Source::ranged(Source::all(source)?, range, index)?,
            threads: threads_of(threads)?,
        })
    }
}

/// The tournament report at `path` (`trf=`), named as given.
///
/// # Errors
///
/// `OSError` (`FileNotFoundError`, ...) when the file cannot be read, worded as the
/// command line's.
fn load_trf(path: &Path) -> PyResult<(String, Arc<TrfCheck>)> {
    let name = path.display().to_string();
    let check = TrfCheck::from_file(path, &name).map_err(|e| {
        let message = format!("{name}: cannot read the TRF file: {}", reason(&e));
        SourceError::other(e.kind(), message)
    })?;
    Ok((name, Arc::new(check)))
}

/// Checks PGN games and reports findings.
///
/// `source` is PGN text (`bytes` or `str`), a path (`os.PathLike`), or a list of paths.
/// The keywords are `planilla check`'s options (`shard` is `--shard K/N`: N calls with
/// K = 0..N-1 split the games exactly; `archive=True` is `--archive`: the archive
/// findings across every game of the call follow the games' own; `range=(start, end)` is
/// `--range START:END`: the games of one file that start in that byte range, numbered as
/// in the whole file; `index` is `--index`: an index's text, from `index()`; `trf` is
/// `--trf`: a tournament report's path, the TRF findings after the archive's). The work
/// runs on `threads` threads (all cores by default) with the interpreter lock released.
///
/// Raises `ValueError` for an unknown option value and `OSError` (with the command
/// line's message, naming the path) for a file that cannot be read.
#[pyfunction]
#[pyo3(signature = (source, *, rules="by-date", lang="auto", encoding="auto", select=None, ignore=None, threads=None, shard=None, archive=false, range=None, index=None, trf=None))]
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
    trf: Option<PathBuf>,
) -> PyResult<Report> {
    let job = Job::new(
        source, rules, lang, encoding, select, ignore, threads, shard, archive, range, index, trf,
    )?;
    let mut batches = Batches::new(job);
    let (reported, late, totals) = py.detach(|| -> Result<_, SourceError> {
        let mut reported: Vec<Vec<Finding>> = vec![Vec::new(); batches.job().sources.len()];
        let mut totals = Totals::default();
        while let Some((i, results)) = batches.next_batch()? {
            reported[i].extend(totals.add(results, &batches.job().filter));
        }
        totals.files = batches.opened();
        let late = totals.add_archive(batches.late_findings()?, &batches.job().filter);
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

/// Where the games are checked: the threads `threads=` asks for. `None`: a pool of one
/// thread a core shared by every call (built once; `RAYON_NUM_THREADS` is heeded, as by
/// rayon's global pool); `1`: the calling thread, with one `Checker` for every game (as
/// `check -j1`); more: a pool of that many threads.
///
/// # Errors
///
/// A `ValueError` for 0, or for a pool that cannot be started.
pub fn threads_of(threads: Option<usize>) -> PyResult<Threads> {
    static SHARED: OnceLock<Arc<rayon::ThreadPool>> = OnceLock::new();
    let build = |n: Option<usize>| {
        let builder = ThreadPoolBuilder::new().num_threads(n.unwrap_or(0));
        builder.build().map(Arc::new)
    };
    match threads {
        None => {
            if let Some(pool) = SHARED.get() {
                return Ok(Threads::Pool(Arc::clone(pool)));
            }
            let pool = build(None)
                .map_err(|e| PyRuntimeError::new_err(format!("cannot start the threads: {e}")))?;
            Ok(Threads::Pool(Arc::clone(SHARED.get_or_init(|| pool))))
        }
        Some(0) => Err(PyValueError::new_err("threads must be at least 1")),
        Some(1) => Ok(Threads::Caller),
        Some(n) => build(Some(n))
            .map(Threads::Pool)
            .map_err(|e| PyValueError::new_err(format!("cannot start {n} threads: {e}"))),
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

/// A finding with the name of its file.
type Named = (String, Finding);

/// The engine's `check` job, with nothing kept beside the findings.
type Check = CheckJob<fn(&Game, &[Finding])>;

/// The games of a job's sources, one source after another, read and checked a batch at a
/// time by the engine's pipeline on the job's threads.
pub struct Batches {
    job: Job,
    /// The engine's job of every game.
    check: Arc<Check>,
    /// The index of the source being read, and its batches.
    current: Option<(usize, Pulled<Check>)>,
    /// The sources opened so far.
    opened: usize,
    /// Under `trf=`: which pairings of the report have a game, and the games' findings
    /// about it, each with its file's name, in input order.
    trf: Option<(Vec<bool>, Vec<Named>)>,
    /// The archive judge, under `archive=True`: the records of the games checked so far,
    /// in input order.
    archive: Option<Archive>,
}

impl Batches {
    /// Nothing read yet.
    pub fn new(job: Job) -> Batches {
        let check = CheckJob {
            shard: job.shard,
            archive: job.archive,
            trf: job.trf.as_ref().map(|(_, trf)| Arc::clone(trf)),
            ..CheckJob::new(job.settings.config)
        };
        Batches {
            trf: job
                .trf
                .as_ref()
                .map(|(_, trf)| (vec![false; trf.pairings()], Vec::new())),
            check: Arc::new(check),
            archive: job.archive.then(Archive::new),
            job,
            current: None,
            opened: 0,
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
    /// A source that cannot be opened or read to its end (after the batches of the games
    /// read before the error); the next call goes on with the next source, as the binary
    /// does.
    pub fn next_batch(&mut self) -> Result<Option<(usize, Vec<Checked>)>, SourceError> {
        loop {
            let Some((index, pulled)) = &mut self.current else {
                let Some(source) = self.job.sources.get(self.opened) else {
                    return Ok(None);
                };
                self.opened += 1;
                // Several threads read a plain file at offsets, as the binary does.
                let at_offsets = matches!(self.job.threads, Threads::Pool(_));
                let (builder, input) = source.open(self.job.settings.encoding, at_offsets)?;
                let batching = BatchConfig::default();
                let check = Arc::clone(&self.check);
                let pulled = Pulled::new(builder, input, batching, &self.job.threads, check);
                self.current = Some((self.opened - 1, pulled));
                continue;
            };
            let index = *index;
            let results = match pulled.next_batch() {
                Some(Ok(results)) => results,
                Some(Err(e)) => {
                    self.current = None;
                    return Err(SourceError::reading(&self.job.sources[index], &e));
                }
                None => {
                    self.current = None;
                    continue;
                }
            };
            // A game of another shard comes back with its TRF judgement alone: its
            // pairings marked, nothing else of it counted.
            if let Some((marked, found)) = &mut self.trf {
                let name = self.job.sources[index].name();
                for report in results.iter().flatten() {
                    let Some(judged) = &report.trf else { continue };
                    for &id in &judged.pairings {
                        marked[id as usize] = true;
                    }
                    if report.home {
                        found.extend(judged.findings.iter().map(|f| (name.clone(), f.clone())));
                    }
                }
            }
            let results: Vec<Checked> = results
                .into_iter()
                .map(|r| r.filter(|r| r.home).map(checked))
                .collect();
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

    /// The findings that follow the games' own once every batch was read, each with its
    /// file's name, as `check` orders them: the archive's (under `archive=True`), then
    /// the TRF's (under `trf=`): the games', in input order, then the report's own, its
    /// faults and one `trf-missing-game` a round (left to shard 0 under `shard`). The
    /// judges are used up.
    ///
    /// # Errors
    ///
    /// The archive judge's temporary file cannot be read back.
    pub fn late_findings(&mut self) -> Result<Vec<Named>, SourceError> {
        let mut late = Vec::new();
        if let Some(archive) = self.archive.take() {
            let found = archive.finish().map_err(SourceError::archive)?;
            late.extend(found.into_iter().map(|a| (a.file, a.finding)));
        }
        if let (Some((marked, found)), Some((name, trf))) = (self.trf.take(), &self.job.trf) {
            late.extend(found);
            if self.job.shard.is_none_or(|s| s.k == 0) {
                let own = trf.file_findings().into_iter().chain(trf.missing(&marked));
                late.extend(own.map(|f| (name.clone(), f)));
            }
        }
        Ok(late)
    }
}

/// A game's report as the package hands it on.
fn checked(report: GameReport<()>) -> (Vec<Finding>, u64, Option<GameRecord>) {
    (report.findings, report.stats.plies, report.record)
}
