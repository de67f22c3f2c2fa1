//! Shared test helpers.
#![allow(dead_code)]

pub mod naive;

use refract::datalog::parser::parse_str;
use refract::datalog::resolve::resolve;
use refract::datalog::solver::Solver;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Parses, checks and solves program text; panics on any error.
pub fn solve_text(text: &str) -> Solver {
    let parsed =
        parse_str(text, "test.dl", Path::new(".")).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let prog = resolve(&parsed).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut s = Solver::new(prog).unwrap_or_else(|e| panic!("{e}"));
    s.load_inputs(None).unwrap_or_else(|e| panic!("{e}"));
    s.solve().unwrap_or_else(|e| panic!("{e}"));
    s
}

/// The error of the first failing phase (parse, check, layout, load, solve).
pub fn error_of(text: &str) -> refract::datalog::Error {
    let parsed = match parse_str(text, "test.dl", Path::new(".")) {
        Ok(p) => p,
        Err(e) => return e,
    };
    let prog = match resolve(&parsed) {
        Ok(p) => p,
        Err(e) => return e,
    };
    match Solver::new(prog) {
        Ok(mut s) => match s.load_inputs(None).and_then(|_| s.solve()) {
            Ok(()) => panic!("expected an error for:\n{text}"),
            Err(e) => e,
        },
        Err(e) => e,
    }
}

/// Copies the directory `from` to `to`, recursively.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, dest).unwrap();
        }
    }
}

/// What a run of the refract binary printed, and its exit code.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Runs the refract binary in `dir` with `input` on stdin.
pub fn refract_in(dir: &Path, args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_refract"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Run {
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
        code: out.status.code().unwrap_or(-1),
    }
}
