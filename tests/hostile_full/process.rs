//! The world around a run going wrong: unreadable files and links in a directory,
//! standard input cut, empty or not open, the output pipe closed, the disk full, a
//! signal in the middle of `convert -o`.

use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::cases::{CHECK_JSONL, write_with};
use crate::run::{Input, MAX_MB, MAX_SECS, OK, Output, measured, run};
use crate::util::hostile::{assert_clean, good, illegal_games, into_a_closed_pipe};
use crate::util::{Dir, command, command_for};

fn is_root() -> bool {
    // Safety: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// `games` good games in `dir` (about 130 bytes each).
fn big_input(dir: &Dir, name: &str, games: usize) -> PathBuf {
    let chunk: String = (0..1000).map(good).collect();
    write_with(&dir.path().join(name), |w| {
        for _ in 0..games / 1000 {
            std::io::Write::write_all(w, chunk.as_bytes()).unwrap();
        }
    })
}

#[test]
#[ignore = "full size: .ci/run runs it with --ignored"]
fn unreadable_files_symlink_loops_a_dangling_link_and_a_fifo() {
    // As root the run drops to `nobody`, for whom a mode-000 file is unreadable. `nobody`
    // must reach the binary and the tree, and the clone may sit in a directory only its
    // owner can enter (root's home, a `mktemp -d`): both go to a directory of their own
    // under the system's temporary directory, open to all.
    let public = std::env::temp_dir().join(format!("planilla-hostile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&public);
    std::fs::create_dir_all(public.join("tree/sub/deeper")).unwrap();
    let binary = public.join("planilla");
    std::fs::copy(env!("CARGO_BIN_EXE_planilla"), &binary).unwrap();
    let d = public.join("tree");
    let write = |name: &str, text: String| std::fs::write(d.join(name), text).unwrap();
    write("a.pgn", good(1) + &good(2));
    write("sub/b.pgn", good(1));
    write("sub/deeper/c.pgn", good(1));
    write("secret.pgn", good(1));
    std::fs::create_dir(d.join("closed")).unwrap();
    write("closed/d.pgn", good(1));
    let link = |target: &str, name: &str| std::os::unix::fs::symlink(target, d.join(name)).unwrap();
    link("..", "sub/loop");
    link(".", "sub/deeper/self");
    link("nowhere.pgn", "dangling.pgn");
    link("ping.pgn", "pong.pgn");
    link("pong.pgn", "ping.pgn");
    for dir in [&public, &d, &d.join("sub"), &d.join("sub/deeper")] {
        chmod(dir, 0o755);
    }
    chmod(&binary, 0o755);
    chmod(&d.join("secret.pgn"), 0);
    chmod(&d.join("closed"), 0);
    let scratch = Dir::new("directory");
    let tree = |what: &str| {
        let mut check = command_for(&binary, &public);
        check.args(CHECK_JSONL).arg(&d);
        if is_root() {
            check.uid(65534).gid(65534);
        }
        let r = measured(check, &scratch, Input::Null, 30);
        r.sane(what, MAX_MB, MAX_SECS, &[2]).games(what, 4);
        r
    };
    let r = tree("tree");
    for name in ["secret.pgn", "closed", "dangling.pgn", "ping.pgn"] {
        assert!(
            r.stderr.contains(name),
            "tree: {name} not named: {}",
            r.stderr
        );
    }
    // A FIFO: opening it for reading would wait for a writer that never comes. Found in a
    // directory it is named and skipped; named on the command line it is read.
    let fifo = d.join("sub/fifo.pgn");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let r = tree("tree with a FIFO");
    assert!(
        r.stderr.contains("fifo.pgn: skipped: a FIFO"),
        "{}",
        r.stderr
    );
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::write(fifo, good(1) + &good(2)))
    };
    let mut named = command();
    named.args(CHECK_JSONL).arg(&fifo);
    let r = measured(named, &scratch, Input::Null, 20);
    if !writer.is_finished() {
        // Unblocks the writer if planilla never opened the FIFO.
        let _ = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo);
    }
    writer.join().unwrap().unwrap();
    r.sane("a FIFO named", MAX_MB, MAX_SECS, OK)
        .games("a FIFO named", 2);
    chmod(&d.join("closed"), 0o755);
    std::fs::remove_dir_all(&public).unwrap();
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
#[ignore = "full size: .ci/run runs it with --ignored"]
fn standard_input_closed_early_empty_or_not_open() {
    let dir = Dir::new("stdin");
    let data = format!("{}{}{}", good(1), good(2), good(3));
    let cut = good(1).len() + good(2).len() + 60; // inside the third game's movetext
    let stdin_check = || {
        let mut check = command();
        check.args(CHECK_JSONL);
        check
    };
    let input = Input::Bytes(&data.as_bytes()[..cut]);
    let r = measured(stdin_check(), &dir, input, 60);
    r.sane("closed early", MAX_MB, MAX_SECS, OK)
        .games("closed early", 3);
    assert_clean(&r.findings(), &[1, 2]);
    assert!(
        r.findings().iter().any(|f| f["game"] == 3),
        "no finding for the cut game"
    );
    let r = measured(stdin_check(), &dir, Input::Null, 60);
    r.sane("empty", MAX_MB, MAX_SECS, OK).games("empty", 0);
    // Rust's standard library reads a closed descriptor 0 as empty input.
    let r = measured(stdin_check(), &dir, Input::Closed, 60);
    r.sane("not open", MAX_MB, MAX_SECS, &[0, 2]);
    if r.code == 2 {
        assert!(
            r.stderr.contains("planilla"),
            "not open: exit 2 without a message"
        );
    } else {
        r.games("not open", 0);
    }
}

#[test]
#[ignore = "full size: .ci/run runs it with --ignored"]
fn check_and_convert_into_a_pipe_closed_after_100_bytes() {
    let dir = Dir::new("closed-pipe");
    let big = big_input(&dir, "big.pgn", 200_000);
    let illegal = dir.create("illegal.pgn", illegal_games(100_000));
    for (what, args, path) in [
        (
            "check | head",
            &["check", "--format", "jsonl"][..],
            &illegal,
        ),
        ("convert | head", &["convert"][..], &big),
    ] {
        let (status, said) = into_a_closed_pipe(args, path, 100);
        assert_eq!(status.code(), Some(0), "{what}");
        assert!(said.trim().is_empty(), "{what}: said {said:?}");
    }
}

/// A 1 MiB tmpfs (root only), or `None` when none can be mounted.
fn small_tmpfs(dir: &Dir) -> Option<PathBuf> {
    let mount = dir.path().join("tiny");
    std::fs::create_dir_all(&mount).unwrap();
    let mounted = is_root()
        && Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=1048576", "tmpfs"])
            .arg(&mount)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
    mounted.then_some(mount)
}

#[test]
#[ignore = "full size: .ci/run runs it with --ignored"]
fn output_to_a_full_disk() {
    let dir = Dir::new("disk-full");
    let big = big_input(&dir, "big.pgn", 200_000);
    let illegal = dir.create("illegal.pgn", illegal_games(10_000));
    for (what, args) in [
        ("check > /dev/full", ["check", illegal.to_str().unwrap()]),
        ("convert > /dev/full", ["convert", big.to_str().unwrap()]),
    ] {
        let mut full = command();
        full.args(args);
        let to = Output::To(Path::new("/dev/full"));
        let r = run(full, dir.path(), Input::Null, to, Duration::from_secs(60));
        r.sane(what, MAX_MB, MAX_SECS, &[2]);
        assert!(
            r.stderr.to_lowercase().contains("space"),
            "{what}: {}",
            r.stderr
        );
    }
    // A full file system, or where none can be mounted, a file size limit.
    let tmpfs = small_tmpfs(&dir);
    let dest = match &tmpfs {
        Some(mount) => mount.join("out.pgn"),
        None => dir.path().join("fsize-out.pgn"),
    };
    let old = good(0);
    std::fs::write(&dest, &old).unwrap();
    let mut convert = command();
    convert.arg("convert").arg("-o").arg(&dest).arg(&big);
    if tmpfs.is_none() {
        // Safety: signal and setrlimit are async-signal-safe and allocate nothing.
        unsafe {
            convert.pre_exec(|| {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                let limit = libc::rlimit {
                    rlim_cur: 1 << 20,
                    rlim_max: 1 << 20,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let r = measured(convert, &dir, Input::Null, 60);
    r.sane("convert -o on a full disk", MAX_MB, MAX_SECS, &[2]);
    assert!(
        !r.stderr.trim().is_empty(),
        "convert -o on a full disk: no message"
    );
    assert_eq!(
        std::fs::read_to_string(&dest).unwrap(),
        old,
        "the old file changed"
    );
    let left: Vec<_> = std::fs::read_dir(dest.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp"))
        .collect();
    if let Some(mount) = &tmpfs {
        Command::new("umount").arg(mount).status().unwrap();
    }
    assert!(left.is_empty(), "temporary file left: {left:?}");
}

#[test]
#[ignore = "full size: .ci/run runs it with --ignored"]
fn convert_to_a_file_interrupted_by_every_signal() {
    // Large enough that converting it takes well over the 0.3 s before the signal, even
    // on a fast machine (24 MB took 0.5 s here: the signal could come as the output was
    // renamed into place).
    let dir = Dir::new("interrupted");
    let big = big_input(&dir, "bigger.pgn", 800_000);
    let out = Dir::new("interrupted-out");
    let old = good(0);
    let mut interrupted = 0;
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGKILL] {
        for in_place in [false, true] {
            let what = format!("signal {signal}, in place: {in_place}");
            let dest = if in_place {
                let dest = out.path().join("inplace.pgn");
                std::fs::copy(&big, &dest).unwrap();
                dest
            } else {
                out.create("out.pgn", &old)
            };
            let source = if in_place { dest.clone() } else { big.clone() };
            let mut child = command()
                .arg("convert")
                .arg("-o")
                .arg(&dest)
                .arg(&source)
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(Duration::from_millis(300));
            if child.try_wait().unwrap().is_some() {
                eprintln!("{what}: finished before the signal");
                continue;
            }
            // Safety: kill has no memory preconditions; the child is ours and not reaped.
            assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
            interrupted += 1;
            // It ends by the signal, as without a handler.
            let status = child.wait().unwrap();
            assert_eq!(status.signal(), Some(signal), "{what}: {status:?}");
            if in_place {
                let (now, before) = (std::fs::read(&dest).unwrap(), std::fs::read(&big).unwrap());
                assert!(now == before, "{what}: the input was changed");
            } else {
                assert_eq!(std::fs::read_to_string(&dest).unwrap(), old, "{what}");
            }
            for entry in std::fs::read_dir(out.path()).unwrap() {
                let name = entry.unwrap().file_name().to_string_lossy().into_owned();
                if name.contains(".tmp") {
                    assert_eq!(signal, libc::SIGKILL, "{what}: temporary file {name} left");
                    std::fs::remove_file(out.path().join(name)).unwrap();
                }
            }
        }
    }
    assert!(
        interrupted > 0,
        "every run finished before its signal: input too small"
    );
}
