//! Byte ranges from the command line: `--range START:END` and `--index FILE` of `check`
//! and `fix`, and `planilla index FILE`, which writes the index.

use anyhow::{Context, bail};
use clap::Args;
use planilla_engine::Source;
use planilla_engine::drive::Plan;
use planilla_engine::range::{Index, open_plain};
use planilla_parser::{Encoding, ReaderBuilder};
use std::ops::Range;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::Arc;

/// The options that read one byte range of a file.
#[derive(Args, Debug, Clone, Default)]
pub struct RangeArgs {
    /// Read only the games whose first byte lies in [START, END) of the one file named
    /// (END may be left out: to the file's end), cut and numbered (games, lines,
    /// columns) as a run over the whole file cuts and numbers them: the outputs of the
    /// ranges of any partition of a file, put together in order, are the whole file's.
    /// Without --index the file is read (tokenized, not checked) from its start to find
    /// the range's games.
    #[arg(long, value_name = "START:END")]
    pub range: Option<ByteRange>,
    /// The index of the file (written by `planilla index`), from which --range finds
    /// its games without reading the file from its start.
    #[arg(long, value_name = "FILE", requires = "range")]
    pub index: Option<PathBuf>,
}

/// `START:END`, bytes of a file; `START:` runs to its end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByteRange(pub Range<u64>);

impl FromStr for ByteRange {
    type Err = String;

    fn from_str(s: &str) -> Result<ByteRange, String> {
        let bad = || format!("bad range '{s}': write START:END in bytes (END may be left out)");
        let (start, end) = s.split_once(':').ok_or_else(bad)?;
        let start: u64 = start.parse().map_err(|_| bad())?;
        let end: u64 = match end {
            "" => u64::MAX,
            end => end.parse().map_err(|_| bad())?,
        };
        if end < start {
            return Err(format!("bad range '{s}': END is before START"));
        }
        Ok(ByteRange(start..end))
    }
}

impl RangeArgs {
    /// With `--range`, the plan of the one source reads only that range; the index, if
    /// given, is read here.
    ///
    /// # Errors
    ///
    /// `--range` with anything but one file, or an index that cannot be read.
    pub fn apply(&self, sources: &[Source], plans: &mut [Plan]) -> anyhow::Result<()> {
        let Some(ByteRange(range)) = &self.range else {
            return Ok(());
        };
        let ([Source::File(_)], [plan]) = (sources, plans) else {
            bail!(
                "--range reads one file: name exactly one file (not a directory or standard input)"
            );
        };
        let index = match &self.index {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read the index {}", path.display()))?;
                let index = Index::from_text(&text)
                    .map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))?;
                Some(Arc::new(index))
            }
            None => None,
        };
        *plan = plan.clone().range(range.clone(), index);
        Ok(())
    }
}

/// Arguments of `planilla index`.
#[derive(Args, Debug)]
pub struct IndexArgs {
    /// The PGN file to index (plain text: a compressed file is read whole, not by
    /// ranges).
    pub file: PathBuf,
    /// Where to write the index (default: FILE.idx beside the file; `-` for standard
    /// output).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// How the file's bytes are decoded (as `check` will read them).
    #[arg(long, default_value = "auto")]
    pub encoding: Encoding,
}

/// Runs `planilla index`: reads the file once (tokenizing, not checking) and writes where
/// games start, at most a mebibyte apart.
pub fn run_index(args: IndexArgs) -> anyhow::Result<ExitCode> {
    let (input, size) = open_plain(&args.file).map_err(anyhow::Error::msg)?;
    let builder = ReaderBuilder::new().encoding(args.encoding);
    let index = Index::build(input, size, &builder)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let text = index.to_text();
    match args.output.as_deref() {
        Some(path) if path.as_os_str() == "-" => {
            use std::io::Write;
            std::io::stdout()
                .write_all(text.as_bytes())
                .context("cannot write the index")?;
        }
        out => {
            let path = out.map_or_else(
                || {
                    let mut name = args.file.clone().into_os_string();
                    name.push(".idx");
                    PathBuf::from(name)
                },
                PathBuf::from,
            );
            let (staged, mut file) = crate::staged::Staged::create(&path)?;
            use std::io::Write;
            file.write_all(text.as_bytes())
                .and_then(|()| file.flush())
                .with_context(|| format!("cannot write {}", path.display()))?;
            drop(file);
            staged.commit()?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
