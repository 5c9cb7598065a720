//! `planilla.check`: every game of the sources checked on a rayon pool, a batch at a
//! time, the findings in input order whatever the number of threads.

use crate::options::{self, Filter};
use crate::py_values::{self, Totals};
use crate::source::{Source, SourceError};
use planilla_parser::{Encoding, Game};
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

/// `shard="K/N"`: only the games whose 1-based index in their file, modulo N, is K are
/// checked (the others are read, not checked, nor counted), as `--shard K/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    k: u64,
    n: u64,
}

impl Shard {
    /// Reads `K/N`, with the command line's message for anything else.
    fn parse(s: &str) -> PyResult<Shard> {
        let bad = || {
            PyValueError::new_err(format!(
                "bad shard '{s}': write K/N with 0 <= K < N, e.g. 0/4"
            ))
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k: u64 = k.trim().parse().map_err(|_| bad())?;
        let n: u64 = n.trim().parse().map_err(|_| bad())?;
        if n == 0 || k >= n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// Whether the game of 1-based index `game` is this shard's.
    fn keeps(self, game: u64) -> bool {
        game % self.n == self.k
    }
}

/// Checks PGN games and reports findings.
///
/// `source` is PGN text (`bytes` or `str`), a path (`os.PathLike`), or a list of paths.
/// The keywords are `planilla check`'s options (`shard` is `--shard K/N`: N calls with
/// K = 0..N-1 split the games exactly). The work runs on `threads` threads (all cores by
/// default) with the interpreter lock released.
///
/// Raises `ValueError` for an unknown option value and `OSError` (with the command
/// line's message, naming the path) for a file that cannot be read.
#[pyfunction]
#[pyo3(signature = (source, *, rules="fide-2023", lang="auto", encoding="auto", select=None, ignore=None, threads=None, shard=None))]
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
) -> PyResult<Report> {
    let settings = Settings::new(rules, lang, encoding)?;
    let filter = Filter::new(select, ignore)?;
    let shard = shard.map(Shard::parse).transpose()?;
    let sources = Source::all(source)?;
    let workers = Workers::new(threads)?;
    let (reported, totals) =
        py.detach(|| check_all(&sources, settings, shard, &filter, &workers))?;
    let findings = PyList::empty(py);
    for (i, list) in reported.iter().enumerate() {
        let name = sources[i].name();
        for f in list {
            findings.append(py_values::finding(py, &name, f)?)?;
        }
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

/// Checks every source in order: the findings `filter` keeps, source by source, and the
/// totals.
fn check_all(
    sources: &[Source],
    settings: Settings,
    shard: Option<Shard>,
    filter: &Filter,
    workers: &Workers,
) -> Result<(Vec<Vec<Finding>>, Totals), SourceError> {
    let mut totals = Totals::default();
    let mut reported = Vec::with_capacity(sources.len());
    for source in sources {
        let mut kept = Vec::new();
        totals.files += 1;
        for_each_batch(source, settings, shard, workers, |games| {
            for (findings, plies) in games.into_iter().flatten() {
                totals.games += 1;
                totals.plies += plies;
                for f in findings.into_iter().filter(|f| filter.keeps(f.code)) {
                    totals.count(f.severity());
                    kept.push(f);
                }
            }
        })?;
        reported.push(kept);
    }
    Ok((reported, totals))
}

/// The findings and plies of a game checked; `None` for a game of another shard.
type Checked = Option<(Vec<Finding>, u64)>;

/// Reads `source` a batch of games at a time, checks each batch on `workers`, and hands
/// `on` each game's result in input order.
fn for_each_batch(
    source: &Source,
    settings: Settings,
    shard: Option<Shard>,
    workers: &Workers,
    mut on: impl FnMut(Vec<Checked>),
) -> Result<(), SourceError> {
    let mut reader = source.open(settings.encoding)?;
    // The games of a batch, reused from batch to batch as the reader's caller should.
    let mut batch: Vec<Game> = Vec::new();
    let mut done = false;
    // The calling thread's checker, kept from batch to batch (`Workers::Caller`).
    let mut caller = Checker::new(settings.config);
    while !done {
        let (mut count, mut bytes) = (0, 0);
        while count < BATCH_GAMES && bytes < BATCH_BYTES {
            if batch.len() == count {
                batch.push(Game::new());
            }
            let read = reader
                .read_game(&mut batch[count])
                .map_err(|e| SourceError::reading(source, &e))?;
            if !read {
                done = true;
                break;
            }
            bytes += batch[count].bytes().len();
            count += 1;
        }
        let check = |checker: &mut Checker, game: &Game| -> Checked {
            if shard.is_some_and(|s| !s.keeps(game.index())) {
                return None;
            }
            let mut findings = Vec::new();
            let stats = checker.check(game, &mut findings);
            Some((findings, stats.plies))
        };
        let games = &batch[..count];
        let results = match workers {
            Workers::Caller => games.iter().map(|g| check(&mut caller, g)).collect(),
            Workers::Pool(pool) => pool.install(|| {
                games
                    .par_iter()
                    .map_init(|| Checker::new(settings.config), check)
                    .collect()
            }),
            Workers::Global => games
                .par_iter()
                .map_init(|| Checker::new(settings.config), check)
                .collect(),
        };
        on(results);
    }
    Ok(())
}
