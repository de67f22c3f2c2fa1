//! The README's examples run as shown: every block of `$ refract ...`
//! commands, in order, in one directory where the repository's
//! `fixtures`, `queries` and `tests` are at hand, each command's output
//! compared with the lines that follow it; and the language example, run by
//! `refract run` over small maps and inputs.

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

/// The indented code blocks that start with a `$ refract` command, with
/// their indent removed and the README line each starts at. A block runs
/// on through blank lines to the next line that is not indented.
fn command_blocks(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, Vec<String>)> = None;
    for (k, l) in text.lines().enumerate() {
        match (&mut current, l.strip_prefix("    ")) {
            (Some((_, lines)), Some(code)) => lines.push(code.to_string()),
            (Some(_), None) if l.trim().is_empty() => {
                if let Some((_, lines)) = &mut current {
                    lines.push(String::new());
                }
            }
            (Some(_), None) => blocks.extend(current.take()),
            (None, Some(code)) if code.starts_with("$ refract ") => {
                current = Some((k + 1, vec![code.to_string()]))
            }
            (None, _) => {}
        }
    }
    blocks.extend(current);
    for (_, lines) in &mut blocks {
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
    }
    blocks
}

/// A command line's words, as a shell splits them: at spaces, except
/// inside single quotes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            ' ' if !quoted => out.extend(word.take()),
            _ => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word);
    out
}

/// Whether an output line is what the README shows: equal, or, where the
/// README writes `...`, anything there.
fn matches(shown: &str, printed: &str) -> bool {
    match shown.split_once("...") {
        Some((start, end)) => {
            printed.len() >= start.len() + end.len()
                && printed.starts_with(start)
                && printed.ends_with(end)
        }
        None => shown == printed,
    }
}

#[test]
fn every_command_block_prints_what_the_readme_shows() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for name in ["fixtures", "queries", "tests"] {
        std::os::unix::fs::symlink(root().join(name), d.join(name)).unwrap();
    }
    let blocks = command_blocks(&readme());
    assert!(blocks.len() >= 5, "{} command blocks", blocks.len());
    for (line, block) in blocks {
        let mut k = 0;
        while k < block.len() {
            let command = block[k].strip_prefix("$ refract ").unwrap_or_else(|| {
                panic!("README.md:{}: expected a `$ refract` command", line + k)
            });
            let args = words(command);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let at = line + k;
            k += 1;
            let (mut typed, mut shown) = (String::new(), Vec::new());
            while k < block.len() && !block[k].starts_with("$ ") {
                match block[k].strip_prefix("refract> ") {
                    Some(input) if args[0] == "repl" => {
                        typed.push_str(input);
                        typed.push('\n');
                    }
                    _ => shown.push(block[k].as_str()),
                }
                k += 1;
            }
            let run = refract_in(d, &args, &typed);
            assert_eq!(
                run.code, 0,
                "README.md:{at}: refract {command}: {}",
                run.stderr
            );
            let printed: Vec<&str> = run.stdout.lines().map(str::trim_end).collect();
            let agree = printed.len() == shown.len()
                && shown.iter().zip(&printed).all(|(s, p)| matches(s, p));
            assert!(
                agree,
                "README.md:{at}: refract {command}\nthe README shows:\n{}\nit printed:\n{}",
                shown.join("\n"),
                printed.join("\n")
            );
        }
    }
}

#[test]
fn the_language_example_runs() {
    let program = block_after(
        &readme(),
        "`--explain-plan` prints how each rule will be evaluated instead.",
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
    let run = refract_in(d, &["run", "example.dl"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "vP: 3 tuples\nvP(v, \"java.lang.String\")? 2 tuples\nv\na\nb\n"
    );
}
