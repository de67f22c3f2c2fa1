//! Nothing lost: `-o` replaces only refract databases, never an input,
//! never a file; interrupted runs leave no staging directories behind.

mod common;

use common::copy_tree;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn refract() -> Command {
    Command::new(env!("CARGO_BIN_EXE_refract"))
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/classes/reflection")
}

fn analyze_into(cwd: &Path, input: &Path, out: &str, extra: &[&str]) -> Output {
    refract()
        .arg("analyze")
        .arg(input)
        .args(["--main", "Invoke", "--jdk", "none", "-q", "-o", out])
        .args(extra)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Sends SIGINT (Ctrl-C) to `child` and waits for it to end, at most
/// `limit` (else it is killed and the test fails); returns its status and
/// what it wrote on stderr.
fn interrupt(
    child: &mut std::process::Child,
    limit: Duration,
) -> (std::process::ExitStatus, String) {
    signal(child, "INT", limit)
}

/// Sends the signal `name` (`INT`, `TERM`) to `child` and waits for it to
/// end, as [`interrupt`] does.
fn signal(
    child: &mut std::process::Child,
    name: &str,
    limit: Duration,
) -> (std::process::ExitStatus, String) {
    let sent = Instant::now();
    Command::new("kill")
        .arg(format!("-{name}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if sent.elapsed() > limit {
            let _ = child.kill();
            panic!("still running {limit:?} after SIG{name}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    (status, err)
}

/// Every file below `dir`, with its contents.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.clone(), fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn output_into_a_directory_of_notes_is_refused_and_the_notes_stay() {
    let t = tempfile::tempdir().unwrap();
    let precious = t.path().join("precious");
    fs::create_dir(&precious).unwrap();
    fs::write(precious.join("notes.txt"), "notes\n").unwrap();
    for cmd in ["analyze", "facts"] {
        let o = if cmd == "analyze" {
            analyze_into(t.path(), &fixture(), "precious", &[])
        } else {
            refract()
                .arg("facts")
                .arg(fixture())
                .args(["--jdk", "none", "-q", "-o", "precious"])
                .current_dir(t.path())
                .output()
                .unwrap()
        };
        assert_eq!(o.status.code(), Some(1), "{cmd}");
        assert_eq!(
            stderr(&o),
            "error: precious: exists and is not a refract database (it has no metadata.tsv with a format line); \
             refract will not replace it: choose another path with -o, or pass --force to replace it\n"
        );
        assert_eq!(
            fs::read_to_string(precious.join("notes.txt")).unwrap(),
            "notes\n"
        );
    }
    // With --force it is replaced by a database.
    let o = analyze_into(t.path(), &fixture(), "precious", &["--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(precious.join("metadata.tsv").is_file());
    assert!(!precious.join("notes.txt").exists());
    // A database is replaced without --force.
    let o = analyze_into(t.path(), &fixture(), "precious", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Nothing else is left beside it.
    let names: Vec<String> = fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["precious"]);
}

#[test]
fn output_that_is_an_input_is_refused_even_with_force() {
    let t = tempfile::tempdir().unwrap();
    let classes = t.path().join("classes");
    copy_tree(&fixture(), &classes);
    let before = snapshot(&classes);
    // Run from inside the class directory, writing to the directory itself.
    for extra in [&[][..], &["--force"][..]] {
        let o = analyze_into(&classes, Path::new("."), "../classes", extra);
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(
            stderr(&o),
            "error: ../classes: is or contains the input .; refract never replaces its own inputs, \
             even with --force: choose another path with -o\n"
        );
    }
    // A directory that holds an input (a parent of it), too.
    let o = analyze_into(t.path(), Path::new("classes"), ".", &["--force"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: .: not a path a database can be written to (it has no final name)\n"
    );
    let o = analyze_into(&classes, Path::new("."), "../..", &["--force"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(snapshot(&classes), before);
}

#[test]
fn output_that_is_a_file_is_refused_before_any_work() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("file"), "mine\n").unwrap();
    let o = analyze_into(t.path(), &fixture(), "file", &["--force"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: file: exists and is not a directory; a database is a directory, so choose another path with -o\n"
    );
    assert_eq!(fs::read_to_string(t.path().join("file")).unwrap(), "mine\n");
    let names: Vec<String> = fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["file"]);
}

#[test]
fn facts_of_an_unreadable_class_path_fail() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("emptyfile"), "").unwrap();
    let o = refract()
        .args(["facts", "emptyfile", "--jdk", "none", "-o", "d.db"])
        .current_dir(t.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with(
            "error: no class could be read from the application class path (1 skipped): emptyfile"
        ),
        "{}",
        stderr(&o)
    );
    assert!(!t.path().join("d.db").exists());
}

#[test]
fn stale_staging_directories_of_killed_runs_are_removed_by_the_next_run() {
    let t = tempfile::tempdir().unwrap();
    // What a run killed with SIGKILL leaves: a marked staging directory
    // whose process is gone.
    let stale = t.path().join(".old.db.tmp-4000000000");
    fs::create_dir(&stale).unwrap();
    fs::write(stale.join(".refract-staging"), "4000000000\n").unwrap();
    fs::write(stale.join("V.map"), "x\n").unwrap();
    // A user's directory with a similar name, but not refract's: kept.
    let lookalike = t.path().join(".mine.tmp-4000000001");
    fs::create_dir(&lookalike).unwrap();
    let o = analyze_into(t.path(), &fixture(), "new.db", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stale.exists());
    assert!(lookalike.exists());
}

/// Starts `refract analyze` against the JDK in `dir`, and returns once
/// it has staged its database (`.out.db.tmp-PID`) and is working.
fn staged_analyze(dir: &Path) -> std::process::Child {
    let mut child = refract()
        .arg("analyze")
        .arg(fixture())
        .args(["--main", "Invoke", "--jdk", "auto", "-q", "-o", "out.db"])
        .current_dir(dir)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until the staging directory exists (the facts are written
    // into it once the class path is read).
    let start = Instant::now();
    let staged = || {
        fs::read_dir(dir).unwrap().any(|e| {
            e.unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with(".out.db.tmp-")
        })
    };
    while !staged() && start.elapsed() < Duration::from_secs(120) {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(staged(), "the run never staged its database");
    std::thread::sleep(Duration::from_millis(500));
    child
}

/// The names in `dir`.
fn names_in(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

/// Ctrl-C during `analyze` against the JDK: the run stops promptly and
/// leaves neither a database nor its staging directory.
#[test]
fn ctrl_c_during_analyze_removes_the_staging_directory() {
    let t = tempfile::tempdir().unwrap();
    let mut child = staged_analyze(t.path());
    let (status, err) = interrupt(&mut child, Duration::from_secs(60));
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(err.contains("cancelled (Ctrl-C)"), "{err}");
    let left = names_in(t.path());
    assert!(left.is_empty(), "{left:?}");
}

/// SIGTERM (`timeout`, `kill`) ends the run at once with 143, as a shell
/// reports a process the signal ended, and leaves nothing behind.
#[test]
fn sigterm_during_analyze_removes_the_staging_directory() {
    let t = tempfile::tempdir().unwrap();
    let mut child = staged_analyze(t.path());
    let (status, err) = signal(&mut child, "TERM", Duration::from_secs(10));
    assert_eq!(status.code(), Some(143), "{err}");
    let left = names_in(t.path());
    assert!(left.is_empty(), "{left:?}");
}

/// A program with no method of two parameters and no string: every
/// variant analyses it (the rules' constants, such as argument position 2
/// and the type java.lang.String, are added to its domains).
#[test]
fn every_variant_analyses_the_smallest_program() {
    let t = tempfile::tempdir().unwrap();
    let classes = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/classes/minimal");
    fs::write(t.path().join("empty.spec"), "").unwrap();
    let runs: &[&[&str]] = &[
        &["--reflection", "none"],
        &["--reflection", "local"],
        &["--reflection", "points-to"],
        &["--reflection", "casts"],
        &["--reflection", "sound", "--spec", "empty.spec"],
        &["--reflection", "casts", "--member-arrays"],
    ];
    for args in runs {
        let o = refract()
            .arg("analyze")
            .arg(&classes)
            .args(["--main", "Hello", "--jdk", "none", "-q", "-o", "m.db"])
            .args(*args)
            .current_dir(t.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let report = refract()
            .args(["report", "m.db"])
            .current_dir(t.path())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&report.stdout);
        assert!(
            text.contains("call graph: 1 class, 2 methods\nspecification points: 0\n"),
            "{args:?}: {text}"
        );
    }
}

/// A transitive closure of a random graph of 300,000 edges over 2^17
/// nodes: minutes of work, most of it inside single relational products.
fn write_closure_program(dir: &Path) {
    let mut text = String::from("# x0:17 x1:17\n");
    let mut state: u64 = 1;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) % (1 << 17)
    };
    for _ in 0..300_000 {
        let (a, b) = (next(), next());
        text.push_str(&format!("{a} {b}\n"));
    }
    fs::write(dir.join("edge.tuples"), text).unwrap();
    fs::write(
        dir.join("tc.dl"),
        "X 131072\n\
         edge(a:X0, b:X1) inputtuples\n\
         path(a:X0, b:X1) outputtuples printsize\n\
         path(a, b) :- edge(a, b).\n\
         path(a, c) :- path(a, b), edge(b, c).\n",
    )
    .unwrap();
}

/// Ctrl-C stops `refract run` inside a long product, promptly, and
/// nothing is written.
#[test]
fn ctrl_c_stops_a_long_product_in_run() {
    let t = tempfile::tempdir().unwrap();
    write_closure_program(t.path());
    let mut child = refract()
        .args(["run", "tc.dl", "-D", "out"])
        .current_dir(t.path())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(2));
    assert!(child.try_wait().unwrap().is_none(), "finished too early");
    let (status, err) = interrupt(&mut child, Duration::from_secs(20));
    assert_eq!(status.code(), Some(1));
    assert!(
        err.ends_with(
            "error: cancelled (Ctrl-C), while solving the stratum of path (rules from tc.dl:4)\n"
        ),
        "{err}"
    );
    assert!(!t.path().join("out").exists());
}

/// Past `--max-memory`, the run stops with an error that names the
/// stratum, and writes nothing.
#[test]
fn a_run_over_its_memory_budget_stops_with_a_clear_error() {
    let t = tempfile::tempdir().unwrap();
    write_closure_program(t.path());
    let o = refract()
        .args(["run", "tc.dl", "-D", "out", "--max-memory", "200M"])
        .current_dir(t.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.starts_with("error: memory budget exceeded: ")
            && err.ends_with(
                ", budget 200 MB (raise it with --max-memory), while solving the stratum of path (rules from tc.dl:4)\n"
            ),
        "{err}"
    );
    assert!(!t.path().join("out").exists());
    // A size that is not one is a usage error.
    let o = refract()
        .args(["run", "tc.dl", "--max-memory", "lots"])
        .current_dir(t.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with(
            "error: invalid value 'lots' for '--max-memory <SIZE>': `lots`: not a size (such as 512M or 4G)\n"
        ),
        "{}",
        stderr(&o)
    );
}

/// Batch answers stream: four million tuples print, named row by row,
/// well inside a memory budget that holding them as a table would exceed.
#[test]
fn batch_answers_stream_in_constant_memory() {
    let t = tempfile::tempdir().unwrap();
    fs::write(t.path().join("d.tuples"), "# x0:11\n0-1999\n").unwrap();
    let program = "X 2048\n\
                   d(x:X0) inputtuples\n\
                   p(a:X0, b:X1)\n\
                   p(a, b) :- d(a), d(b).\n\
                   p(a, b)?\n";
    fs::write(t.path().join("q.dl"), program).unwrap();
    let o = refract()
        .args(["run", "q.dl", "--max-memory", "100M"])
        .current_dir(t.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.lines().count(), 4_000_002);
    assert!(text.starts_with("p(a, b)? 4000000 tuples\na\tb\n"));
    assert!(text.ends_with("1999\t1998\n1999\t1999\n"));
    // The shell's batch mode, every row.
    let mut child = refract()
        .args(["repl", "--max-memory", "100M"])
        .current_dir(t.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b".limit 0\n").unwrap();
        stdin.write_all(program.as_bytes()).unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.lines().count(), 4_000_003);
    assert!(
        text.starts_with(" a    | b\n------+------\n 0    | 0\n"),
        "{}",
        &text[..100]
    );
    assert!(text.ends_with(" 1999 | 1999\n4000000 tuples\n"));
}

#[test]
fn opening_a_path_that_does_not_exist_says_so() {
    let t = tempfile::tempdir().unwrap();
    for args in [&["repl", "nonexist.db"][..], &["report", "nonexist.db"][..]] {
        let o = refract()
            .args(args)
            .current_dir(t.path())
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(
            stderr(&o),
            "error: nonexist.db: no such file or directory; create a database with `refract facts` or `refract analyze`\n"
        );
    }
}

/// A command whose work has no stop of its own (`explain`'s search over a
/// database) stops at the memory budget with the reason, exit 1, not a
/// silent exit 101.
#[test]
fn explain_over_its_memory_budget_stops_with_a_clear_error() {
    let t = tempfile::tempdir().unwrap();
    let db = t.path().join("invoke.db");
    let o = refract()
        .args(["analyze", "fixtures/classes/reflection", "--main", "Invoke"])
        .args(["--jdk", "none", "-q", "-o"])
        .arg(&db)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let o = refract()
        .arg("explain")
        .arg(&db)
        .args(["vP(v, h)", "--max-memory", "1M"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with("error: memory budget exceeded: ")
            && err.ends_with(", budget 1 MB (raise it with --max-memory)\n"),
        "{err}"
    );
}
