//! Benchmark: our reader + tokenizer against pgn-reader 0.29.0 on the same input.
//!
//! Usage: `cargo bench -p planilla-parser --bench read -- CORPUS_DIR DATA_FILE [ROUNDS]`
//! (`scripts/bench parser [ROUNDS]` gives the arguments). When DATA_FILE is missing it is built
//! from the `*.pgn` files of CORPUS_DIR, concatenated and repeated to at least 100 MB.
//! Each round reads the whole file with both readers, alternating which goes first;
//! prints MB/s per round, the medians and the ratio. Both sides see every token: ours
//! tokenizes every game, and the pgn-reader visitor receives every tag, move, comment,
//! NAG, variation (none skipped) and outcome.
//!
//! Speeds are given by wall-clock time and by the CPU time of the reading thread (from
//! `/proc/thread-self/schedstat`, where available). Both readers are single-threaded, so
//! on an idle machine the two agree; on a shared machine CPU time is the steadier
//! measure, and the ratio is computed from it when it is available.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::Path;
use std::time::Instant;

use pgn_reader::{Nag, Outcome, RawComment, RawTag, SanPlus, Skip, Visitor};
use planilla_parser::{Game, Reader};

const TARGET_SIZE: u64 = 100_000_000;

fn main() -> io::Result<()> {
    // cargo passes `--bench` to a benchmark without the test harness.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    if args.len() < 2 {
        eprintln!("usage: read CORPUS_DIR DATA_FILE [ROUNDS]");
        std::process::exit(2);
    }
    let data = Path::new(&args[1]);
    if !data.exists() {
        build_data(Path::new(&args[0]), data)?;
    }
    let rounds: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(5);
    let size = std::fs::metadata(data)?.len() as f64 / 1e6;
    println!("input: {} ({size:.1} MB), {rounds} rounds", data.display());

    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let (mut ours_cpu, mut theirs_cpu) = (Vec::new(), Vec::new());
    for round in 0..rounds {
        let (a, b) = if round % 2 == 0 {
            let a = timed(|| run_ours(data))?;
            (a, timed(|| run_pgn_reader(data))?)
        } else {
            let b = timed(|| run_pgn_reader(data))?;
            (timed(|| run_ours(data))?, b)
        };
        println!(
            "round {}: planilla-parser {:6.1} MB/s (cpu {:6.1}; {} games, {} tokens)   \
             pgn-reader {:6.1} MB/s (cpu {:6.1}; {} games, {} events)",
            round + 1,
            size / a.wall,
            size / a.cpu,
            a.games,
            a.items,
            size / b.wall,
            size / b.cpu,
            b.games,
            b.items
        );
        ours.push(size / a.wall);
        theirs.push(size / b.wall);
        ours_cpu.push(size / a.cpu);
        theirs_cpu.push(size / b.cpu);
    }
    let (ours, theirs) = (median(ours), median(theirs));
    println!(
        "median wall: planilla-parser {ours:.1} MB/s, pgn-reader {theirs:.1} MB/s, ratio {:.2}x",
        ours / theirs
    );
    if cpu_seconds().is_some() {
        let (ours, theirs) = (median(ours_cpu), median(theirs_cpu));
        println!(
            "median cpu:  planilla-parser {ours:.1} MB/s, pgn-reader {theirs:.1} MB/s, ratio {:.2}x",
            ours / theirs
        );
    }
    Ok(())
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Concatenates the corpus files, repeated, to at least 100 MB.
fn build_data(corpus: &Path, out: &Path) -> io::Result<()> {
    let mut files: Vec<_> = std::fs::read_dir(corpus)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    let mut chunk = Vec::new();
    for file in &files {
        let bytes = std::fs::read(file)?;
        chunk.extend_from_slice(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes));
        chunk.extend_from_slice(b"\n\n");
    }
    if chunk.is_empty() {
        return Err(io::Error::other(format!(
            "no .pgn files in {}",
            corpus.display()
        )));
    }
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let tmp = out.with_extension("tmp");
    let mut writer = BufWriter::new(File::create(&tmp)?);
    let mut written = 0u64;
    while written < TARGET_SIZE {
        writer.write_all(&chunk)?;
        written += chunk.len() as u64;
    }
    writer.flush()?;
    std::fs::rename(tmp, out)?;
    eprintln!(
        "built {} ({written} bytes from {} files)",
        out.display(),
        files.len()
    );
    Ok(())
}

/// Games, tokens.
fn run_ours(path: &Path) -> io::Result<(u64, u64)> {
    let mut reader = Reader::new(File::open(path)?);
    let mut game = Game::new();
    let mut tokens = 0u64;
    while reader.read_game(&mut game)? {
        tokens += game.tokens().len() as u64;
    }
    Ok((reader.games_read(), tokens))
}

/// Games, visited events.
fn run_pgn_reader(path: &Path) -> io::Result<(u64, u64)> {
    let mut reader = pgn_reader::Reader::new(File::open(path)?);
    let mut visitor = EveryToken::default();
    reader.visit_all_games(&mut visitor)?;
    Ok((visitor.games, visitor.events))
}

/// A visitor that takes every token pgn-reader offers and looks at its bytes.
#[derive(Default)]
struct EveryToken {
    games: u64,
    events: u64,
    bytes: u64,
}

impl Visitor for EveryToken {
    type Tags = ();
    type Movetext = ();
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _tags: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        self.events += 1;
        self.bytes += (name.len() + value.as_bytes().len()) as u64;
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _tags: ()) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _movetext: &mut (), san: SanPlus) -> ControlFlow<Self::Output> {
        self.events += 1;
        self.bytes += u64::from(san.suffix.is_some());
        ControlFlow::Continue(())
    }

    fn nag(&mut self, _movetext: &mut (), nag: Nag) -> ControlFlow<Self::Output> {
        self.events += 1;
        self.bytes += u64::from(nag.0);
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        _movetext: &mut (),
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        self.events += 1;
        self.bytes += comment.as_bytes().len() as u64;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _movetext: &mut ()) -> ControlFlow<Self::Output, Skip> {
        self.events += 1;
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, _movetext: &mut ()) -> ControlFlow<Self::Output> {
        self.events += 1;
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, _movetext: &mut (), _outcome: Outcome) -> ControlFlow<Self::Output> {
        self.events += 1;
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _movetext: ()) -> Self::Output {
        self.games += 1;
    }
}

struct Timing {
    wall: f64,
    cpu: f64,
    games: u64,
    items: u64,
}

/// Runs one read, timing it by the wall clock and by this thread's CPU time.
fn timed(run: impl FnOnce() -> io::Result<(u64, u64)>) -> io::Result<Timing> {
    let cpu_start = cpu_seconds();
    let start = Instant::now();
    let (games, items) = run()?;
    let wall = start.elapsed().as_secs_f64();
    let cpu = match (cpu_start, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => wall,
    };
    Ok(Timing {
        wall,
        cpu,
        games,
        items,
    })
}

/// CPU time of the current thread, from `/proc/thread-self/schedstat` (nanoseconds).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(nanos as f64 / 1e9)
}
