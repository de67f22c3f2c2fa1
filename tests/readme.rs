//! The README's examples run as shown. For now: the language example of
//! "The language", run by `refract run` over small maps and inputs, and
//! the shell session of "The database and its shell" on `SpecInput`.

mod common;

use common::refract_in;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).unwrap()
}

/// The first indented code block after the line `after` in `text`, with
/// its four-space indent removed.
fn block_after(text: &str, after: &str) -> String {
    let mut lines = text.lines().skip_while(|l| *l != after).skip(1);
    let mut out = String::new();
    let mut started = false;
    for l in lines.by_ref() {
        if let Some(code) = l.strip_prefix("    ") {
            started = true;
            out.push_str(code);
            out.push('\n');
        } else if started {
            break;
        }
    }
    assert!(started, "no code block after {after:?}");
    out
}

/// Runs refract in `dir` with `input` on stdin; returns stdout, after
/// asserting success.
fn refract(dir: &Path, args: &[&str], input: &str) -> String {
    let run = refract_in(dir, args, input);
    assert_eq!(run.code, 0, "refract {args:?}: {}", run.stderr);
    run.stdout
}

#[test]
fn the_language_example_runs() {
    let program = block_after(
        &readme(),
        "bddbddb's Datalog, so that bddbddb's programs run unmodified:",
    );
    assert!(
        program.starts_with("# comments start with '#'"),
        "{program}"
    );
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("example.dl"), &program).unwrap();
    std::fs::write(d.join("var.map"), "a\nb\n").unwrap();
    std::fs::write(d.join("heap.map"), "java.lang.String\nx\n").unwrap();
    std::fs::write(d.join("vP0.tuples"), "0\t0\n1\t1\n").unwrap();
    std::fs::write(d.join("assign.tuples"), "1\t0\n").unwrap();
    assert_eq!(
        refract(d, &["run", "example.dl"], ""),
        "vP: 3 tuples\nvP(v, \"java.lang.String\")? 2 tuples\nv\na\nb\n"
    );
}

#[test]
fn the_shell_session_prints_what_the_readme_shows() {
    let text = readme();
    let session = block_after(
        &text,
        "Errors print with their position and the shell goes on; Ctrl-C cancels a",
    );
    let mut lines = session.lines();
    let analyze = lines.next().unwrap();
    assert!(analyze.starts_with("$ refract analyze fixtures/classes/reflection --main SpecInput"));
    assert_eq!(lines.next(), Some("$ refract repl demo.db"));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db").display().to_string();
    let classes = root()
        .join("fixtures/classes/reflection")
        .display()
        .to_string();
    refract(
        root(),
        &[
            "analyze",
            &classes,
            "--main",
            "SpecInput",
            "--jdk",
            "none",
            "-q",
            "-o",
            &db,
        ],
        "",
    );
    // What the README types, and what it shows, in order.
    let (mut typed, mut shown) = (String::new(), String::new());
    for l in lines {
        match l.strip_prefix("refract> ") {
            Some(input) => {
                typed.push_str(input);
                typed.push('\n');
            }
            None => {
                shown.push_str(l);
                shown.push('\n');
            }
        }
    }
    assert_eq!(refract(root(), &["repl", &db], &typed), shown);
}
