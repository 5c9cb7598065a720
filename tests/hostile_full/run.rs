//! Runs the binary with its address space capped, and measures what each run took:
//! exit status, outputs, wall time and peak memory (from `wait4`).

use serde_json::Value;
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::Dir;

/// The address space of one run: a runaway fails, not the machine.
const MEMORY_CAP: libc::rlim_t = 4 << 30;

/// What a run may take unless a case says otherwise: peak memory, seconds.
pub const MAX_MB: f64 = 256.0;
pub const MAX_SECS: f64 = 60.0;
/// The exit statuses of a run that read its input: no finding, findings.
pub const OK: &[i32] = &[0, 1];

/// What one run did.
pub struct Run {
    /// The exit status, or minus the signal that ended the run.
    pub code: i32,
    pub stdout: Vec<u8>,
    pub stderr: String,
    pub secs: f64,
    pub peak_mb: f64,
    pub timed_out: bool,
}

/// Where a run's standard input comes from.
pub enum Input<'a> {
    /// Nothing: the null device.
    Null,
    /// These bytes, written from a thread of their own.
    Bytes(&'a [u8]),
    /// Descriptor 0 closed.
    Closed,
}

/// Where a run's standard output goes.
pub enum Output<'a> {
    /// Kept, to look at.
    Kept,
    /// This file (`/dev/full`).
    To(&'a Path),
}

/// Runs `command` (from `util::command`) in `scratch`, killing it after `timeout`.
#[expect(
    clippy::zombie_processes,
    reason = "the child is reaped by wait4, for its resource usage"
)]
pub fn run(
    mut command: Command,
    scratch: &Path,
    input: Input,
    output: Output,
    timeout: Duration,
) -> Run {
    let out_path = scratch.join(".out");
    let stdout = match output {
        Output::Kept => File::create(&out_path).unwrap(),
        Output::To(path) => File::options().write(true).open(path).unwrap(),
    };
    command
        .stdout(stdout)
        .stderr(File::create(scratch.join(".err")).unwrap());
    let close_stdin = matches!(input, Input::Closed);
    command.stdin(match input {
        Input::Bytes(_) => Stdio::piped(),
        _ => Stdio::null(),
    });
    // Safety: between fork and exec the closure calls only setrlimit and close, which
    // are async-signal-safe and allocate nothing.
    unsafe {
        command.pre_exec(move || {
            let cap = libc::rlimit {
                rlim_cur: MEMORY_CAP,
                rlim_max: MEMORY_CAP,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &cap) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if close_stdin {
                libc::close(0);
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = command.spawn().expect("the planilla binary runs");
    let feeder = match input {
        Input::Bytes(bytes) => {
            let mut stdin = child.stdin.take().unwrap();
            let bytes = bytes.to_vec();
            Some(std::thread::spawn(move || {
                let _ = stdin.write_all(&bytes);
            }))
        }
        _ => None,
    };
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // Safety: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut timed_out = false;
    loop {
        // Safety: the pointers are to live locals; the child is ours and not yet reaped
        // (std's `Child` is never waited on).
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break;
        }
        assert!(done == 0, "wait4: {}", std::io::Error::last_os_error());
        if start.elapsed() > timeout && !timed_out {
            timed_out = true;
            let _ = child.kill();
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let secs = start.elapsed().as_secs_f64();
    if let Some(feeder) = feeder {
        feeder.join().unwrap();
    }
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -libc::WTERMSIG(status)
    };
    let mut stdout = Vec::new();
    if matches!(output, Output::Kept) {
        File::open(&out_path)
            .unwrap()
            .read_to_end(&mut stdout)
            .unwrap();
    }
    let stderr = String::from_utf8_lossy(&std::fs::read(scratch.join(".err")).unwrap()).into();
    Run {
        code,
        stdout,
        stderr,
        secs,
        // Linux counts in a child's peak the pages it shared with this process until its
        // exec: the figure is an upper bound, by at most what this test holds at the time.
        peak_mb: usage.ru_maxrss as f64 / 1024.0,
        timed_out,
    }
}

/// Runs `command` in `dir`, its standard output kept, killing it after `secs` seconds.
pub fn measured(command: Command, dir: &Dir, input: Input, secs: u64) -> Run {
    run(
        command,
        dir.path(),
        input,
        Output::Kept,
        Duration::from_secs(secs),
    )
}

impl Run {
    /// The findings of a `--format jsonl` run.
    pub fn findings(&self) -> Vec<Value> {
        self.lines()
            .into_iter()
            .filter(|v| v["type"] == "finding")
            .collect()
    }

    /// The summary line of a `--format jsonl` run.
    pub fn summary(&self) -> Value {
        self.lines()
            .into_iter()
            .find(|v| v["type"] == "summary")
            .unwrap_or(Value::Null)
    }

    fn lines(&self) -> Vec<Value> {
        self.stdout
            .split(|&b| b == b'\n')
            .filter(|l| l.starts_with(b"{"))
            .map(|l| serde_json::from_slice(l).expect("every line is JSON"))
            .collect()
    }

    /// Asserts the promises of every run: no hang, no signal, no panic, an allowed exit
    /// status, bounded memory and time.
    pub fn sane(&self, what: &str, max_mb: f64, max_secs: f64, codes: &[i32]) -> &Run {
        assert!(
            !self.timed_out,
            "{what}: no answer after {:.0} s (killed)",
            self.secs
        );
        assert!(!self.stderr.contains("panicked"), "{what}: {}", self.stderr);
        assert!(
            codes.contains(&self.code),
            "{what}: exit status {} (expected {codes:?}): {}",
            self.code,
            self.stderr
        );
        assert!(
            self.peak_mb <= max_mb,
            "{what}: peak memory {:.0} MB > {max_mb} MB",
            self.peak_mb
        );
        assert!(
            self.secs <= max_secs,
            "{what}: {:.1} s > {max_secs} s",
            self.secs
        );
        eprintln!(
            "{what}: exit {}, peak {:.0} MB, {:.2} s",
            self.code, self.peak_mb, self.secs
        );
        self
    }

    /// Asserts the number of games the summary reports.
    pub fn games(&self, what: &str, expected: u64) -> &Run {
        assert_eq!(self.summary()["games"], expected, "{what}: games reported");
        self
    }
}

/// Asserts that time grows roughly linearly: `factor` times the input takes at most 3
/// times `factor` the time (and half a second of slack).
pub fn linear(what: &str, small: &Run, big: &Run, factor: f64) {
    let allowed = 3.0 * factor * small.secs + 0.5;
    assert!(
        big.secs <= allowed,
        "{what}: {factor}x the input took {:.0}x the time ({:.2} s -> {:.2} s)",
        big.secs / small.secs.max(1e-3),
        small.secs,
        big.secs
    );
}
