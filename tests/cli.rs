//! The `refract run` command end to end: output, files, exit codes.

use std::fs;
use std::process::Command;

fn refract() -> Command {
    Command::new(env!("CARGO_BIN_EXE_refract"))
}

#[test]
fn run_prints_sizes_tuples_and_queries_and_writes_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("n.map"), "a\nb\nc\nd\n").unwrap();
    fs::write(
        d.join("p.dl"),
        "N 4 n.map\n\
         edge(x:N0, y:N1) input\n\
         path(x:N0, y:N1) output printsize printtuples\n\
         path(x, y) :- edge(x, y).\n\
         path(x, z) :- path(x, y), edge(y, z).\n\
         path(x, \"d\")?\n",
    )
    .unwrap();
    let facts = d.join("facts");
    fs::create_dir(&facts).unwrap();
    fs::write(facts.join("edge.facts"), "a\tb\nb\tc\nc\td\n").unwrap();
    let out = d.join("out");
    let r = refract()
        .args(["run", "p.dl", "-F", "facts", "-D", "out"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(
        String::from_utf8(r.stdout).unwrap(),
        "path: 6 tuples\n\
         path(x:N0, y:N1): 6 tuples\n\
         a\tb\na\tc\na\td\nb\tc\nb\td\nc\td\n\
         path(x, \"d\")? 3 tuples\n\
         x\n\
         a\nb\nc\n"
    );
    assert_eq!(
        fs::read_to_string(out.join("path.csv")).unwrap(),
        "a\tb\na\tc\na\td\nb\tc\nb\td\nc\td\n"
    );
    assert!(out.join("path.bdd").is_file() && out.join("bddinfo").is_file());
}

#[test]
fn errors_exit_1_with_location_and_usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("bad.dl"), "N 4\nr(x:N0)\nr(x) :- s(x).\n").unwrap();
    let r = refract()
        .args(["run", "bad.dl"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(r.stderr).unwrap(),
        "error: bad.dl:3:9: unknown relation s\n"
    );
    let r = refract().args(["run"]).output().unwrap();
    assert_eq!(r.status.code(), Some(2));
    let r = refract().args(["run", "--help"]).output().unwrap();
    assert!(String::from_utf8(r.stdout).unwrap().contains("Examples:"));
}

/// `--trace` (any command) prints where the time goes on stderr; without
/// it, nothing is traced, `REFRACT_TRACE_JOBS` included.
#[test]
fn trace_is_a_flag() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("p.dl"),
        "N 4\nedge(x:N0, y:N1)\npath(x:N0, y:N1) printsize\nedge(0, 1).\nedge(1, 2).\n\
         path(x, y) :- edge(x, y).\npath(x, z) :- path(x, y), edge(y, z).\n",
    )
    .unwrap();
    let run_with = |extra: &[&str], jobs: bool| {
        let mut cmd = refract();
        cmd.arg("run")
            .arg("p.dl")
            .args(extra)
            .env_remove("REFRACT_TRACE")
            .env_remove("REFRACT_TRACE_MS")
            .env_remove("REFRACT_TRACE_JOBS")
            .current_dir(d);
        if jobs {
            cmd.env("REFRACT_TRACE_JOBS", "1");
        }
        let r = cmd.output().unwrap();
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        String::from_utf8(r.stderr).unwrap()
    };
    let run = |extra: &[&str]| run_with(extra, false);
    let traced = run(&["--trace", "--trace-ms", "0"]);
    assert!(traced.contains("[trace] stratum path"), "{traced}");
    assert!(traced.contains("[trace] iteration 1 "), "{traced}");
    assert!(!traced.contains("job starts"), "{traced}");
    assert_eq!(run(&[]), "");
    // REFRACT_TRACE_JOBS adds each join as it starts, with its rule.
    let jobs = run_with(&["--trace", "--trace-ms", "0"], true);
    assert!(
        jobs.contains("job starts: delta path (")
            && jobs.contains("in path(x, z) :- path(x, y), edge(y, z)."),
        "{jobs}"
    );
    assert_eq!(run_with(&[], true), "");
}

/// `refract run --explain-plan` prints each rule's plan and runs nothing:
/// homes and their rename cost, how each subgoal is read, the joins of
/// each variant with the version of the relation they read and what they
/// project, and the head.
#[test]
fn explain_plan_prints_each_rules_plan() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("p.dl"),
        "N 4\nedge(x:N0, y:N1) input\npath(x:N0, y:N1) printsize\n\
         path(x, y) :- edge(x, y).\npath(x, z) :- path(x, y), edge(y, z).\n\
         lonely(x:N0)\nlonely(x) :- edge(x, _), !path(_, x), x != 0.\n",
    )
    .unwrap();
    let r = refract()
        .args(["run", "p.dl", "--explain-plan"])
        .current_dir(d)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(
        String::from_utf8(r.stdout).unwrap(),
        "stratum 1 (recursive): path\n\
         \x20 p.dl:4: path(x, y) :- edge(x, y).\n\
         \x20   homes: x in N0, y in N1 (rename cost 0)\n\
         \x20   subgoal #0: edge\n\
         \x20   evaluation: join factor #0\n\
         \x20   head: into path\n\
         \x20 p.dl:5: path(x, z) :- path(x, y), edge(y, z).\n\
         \x20   homes: x in N0, y in N1, z in N2 (rename cost 9)\n\
         \x20   subgoal #0: path (this stratum)\n\
         \x20   subgoal #1: edge, renamed keeping the order\n\
         \x20   variant 1 (new tuples of factor #0): join factor #0 (new tuples); join factor #1, projecting y\n\
         \x20   head: into path, renamed keeping the order\n\
         stratum 2 (not recursive): lonely\n\
         \x20 p.dl:7: lonely(x) :- edge(x, _), !path(_, x), x != 0.\n\
         \x20   homes: x in N0 (rename cost 1)\n\
         \x20   subgoal #0: edge, projecting 2 bits of wildcards and unused variables\n\
         \x20   negation #0: !path, projecting 2 bits of wildcards and unused variables, renamed keeping the order\n\
         \x20   factor #0: subgoal #0 with negation #0, comparison #0, once per stratum\n\
         \x20   evaluation: join factor #0\n\
         \x20   head: into lonely\n"
    );
    // Nothing ran: no input was read, no output written.
    assert!(!d.join("path.bdd").exists());
}
