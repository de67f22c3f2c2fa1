//! The database and its shell: the shell driven through piped stdin,
//! batch scripts, the shipped query scripts, exports, database round trips
//! and damaged databases. Expected outputs are exact; the longer ones are
//! in `tests/expected/shell/`.

mod common;

use common::{refract_in, Run};
use refract::database::{Database, DatabaseError};
use refract::session::{Output, Session};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn refract_with_input(args: &[&str], input: &str) -> Run {
    refract_in(root(), args, input)
}

fn refract(args: &[&str]) -> Run {
    refract_with_input(args, "")
}

fn expected(name: &str) -> String {
    let p = root().join("tests/expected/shell").join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Analyses a fixture idiom once per test binary, under the paper's
/// `points-to` (the shell's examples show what it leaves open); returns
/// the database. (Tests run in parallel: one analysis at a time writes a
/// database.)
fn fixture_db(main: &str) -> PathBuf {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    static WRITING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    // Statics are never dropped: the directory is kept under the target
    // directory, which `cargo clean` removes, not in /tmp.
    let dir = DIR.get_or_init(|| tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap());
    let db = dir.path().join(format!("{main}.db"));
    let _one = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    if !db.exists() {
        let classes = root().join("fixtures/classes/reflection");
        let r = refract(&[
            "analyze",
            &classes.display().to_string(),
            "--main",
            main,
            "--jdk",
            "none",
            "--reflection",
            "points-to",
            "-q",
            "-o",
            &db.display().to_string(),
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    db
}

/// A private copy of a fixture database, to damage or extend.
fn copy_db(main: &str, to: &Path) -> PathBuf {
    let from = fixture_db(main);
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(&from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    to.to_path_buf()
}

const SHELL_INPUT: &str = r#".count vP
IEr(i, m)?
# A rule over a new relation declares it from its body.
reflective(m) :- IEr(_, m).
.schema reflective
plain(m) :- reach(m),
    !reflective(m).
plain(m)?
IEr(i, "<r.Upper: void <init>()>")?
reach("<r.Upper: void <init>()>")?
reach("<r.Upper: void <nothere>()>")?
nosuch(x)?
.limit 1
reflective(m)?
.limit 0
.rules
.count plain
.quit
reach(m)?
"#;

/// `.schema R` says what a fact means (the front end's schema), or what
/// a derived relation means (the comment above its first rule) and which
/// rules derive it, with their file and line in `queries/`; a pattern
/// lists the matching declarations; `refract query` answers one command
/// line.
#[test]
fn schema_describes_relations_and_query_answers_once() {
    let db = fixture_db("Invoke");
    let db = db.display().to_string();
    let r = refract_with_input(
        &["repl", &db],
        ".schema vP0\n.schema newInstanceTargets\n.schema *Placeholder*\n.schema nosuch*\n",
    );
    assert_eq!(
        r.stdout,
        "vP0 (variable:V0, heap:H0)\n\
         \x20 variable = new/constant heap object\n\
         \x20 stored in vP0.bdd\n\
         newInstanceTargets (invoke:I0, type:T0)\n\
         \x20 stored in newInstanceTargets.bdd\n\
         \x20 queries/reflection.dl:200: newInstanceTargets(i, t) :- newInstanceCandidate(i, t), siteModule(i, y), !ctorDeniedFrom(y, t).\n\
         memberPlaceholder (invoke:I0, heap:H0)\n"
    );
    assert_eq!(
        r.stderr,
        "error: <stdin>:4: no relation matches (.tables lists them)\n"
    );
    let q = refract_with_input(&["query", &db, "r(m) :- IEr(_, m), reach(m).", "r(m)?"], "");
    assert_eq!(q.code, 0, "{}", q.stderr);
    assert_eq!(
        q.stdout,
        " m\n\
         -------------------------------------------------------\n\
         \x20<r.Upper: void <init>()>\n\
         \x20<r.Upper: java.lang.String run(java.lang.String)>\n\
         \x20<r.Upper: java.lang.String version(java.lang.String)>\n\
         \x20<r.Upper: void <clinit>()>\n\
         4 tuples\n"
    );
}

/// sqlite3's output settings: `.mode` csv, line and json (a cut answer
/// noted on stderr), `.headers off`, `.once` and `.output` into new files,
/// `.show` with every setting; a file the session did not create is never
/// overwritten.
#[test]
fn output_modes_and_redirection_print_as_sqlite3_does() {
    let db = fixture_db("Invoke").display().to_string();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("notes.txt"), "mine\n").unwrap();
    let init = "\"<r.Upper: void <init>()>\"";
    let input = format!(
        ".mode csv\nIEr(i, m)?\n.mode line\nIEr(i, {init})?\n.mode json\n.limit 1\nIEr(i, m)?\n\
         .limit 0\n.mode tsv\n.headers off\n.once once.tsv\nIEr(i, {init})?\n\
         .output out.txt\n.count vP\nreach({init})?\n.output\n.once notes.txt\n.show\n"
    );
    let r = refract_in(d, &["repl", &db], &input);
    let site =
        |bci: &str, rest: &str| format!("<Invoke: void main(java.lang.String[])>[{bci}] {rest}");
    let new_instance = site(
        "7@L7",
        "invokevirtual <java.lang.Class: java.lang.Object newInstance()>",
    );
    let invoke = "invokevirtual <java.lang.reflect.Method: java.lang.Object invoke(java.lang.Object,java.lang.Object[])>";
    assert_eq!(
        r.stdout,
        format!(
            "i,m\n\
             {},<r.Upper: void <clinit>()>\n\
             {new_instance},<r.Upper: void <init>()>\n\
             \"{}\",<r.Upper: java.lang.String run(java.lang.String)>\n\
             \"{}\",<r.Upper: java.lang.String version(java.lang.String)>\n\
             i = {new_instance}\n\
             [\n  {{\"i\": \"{}\", \"m\": \"<r.Upper: void <clinit>()>\"}}\n]\n\
             limit: 0 (all rows)\ntiming: off\nmode: tsv\nheaders: off\nwidth: no limits\n\
             output: stdout\n",
            site(
                "2@L6",
                "invokestatic <java.lang.Class: java.lang.Class forName(java.lang.String)>"
            ),
            site("38@L9", invoke),
            site("72@L11", invoke),
            site(
                "2@L6",
                "invokestatic <java.lang.Class: java.lang.Class forName(java.lang.String)>"
            ),
        )
    );
    assert_eq!(
        r.stderr,
        "note: 3 more rows left out (.limit 0 for all)\n\
         error: <stdin>:17: notes.txt exists: the shell writes only files it created (remove it or choose another name)\n"
    );
    let read = |f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    assert_eq!(read("once.tsv"), format!("{new_instance}\n"));
    assert_eq!(read("out.txt"), "vP: 30 tuples\nyes\n");
    assert_eq!(read("notes.txt"), "mine\n");
}

/// A statement goes on over lines while a parenthesis is open; an
/// unclosed one is reported where the text stops making sense, and a
/// command on the next line still runs.
#[test]
fn statements_span_lines_and_an_unclosed_parenthesis_is_reported() {
    let db = fixture_db("Invoke");
    let r = refract_with_input(
        &["repl", &db.display().to_string()],
        "IEr(i,\n    \"<r.Upper: void <init>()>\")?\nreach(m\nIEr(i, m)?\n.count IEr\nreach(m\n",
    );
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stdout,
        " i\n\
         ---------------------------------------------------------------------------------------------------------------\n\
         \x20<Invoke: void main(java.lang.String[])>[7@L7] invokevirtual <java.lang.Class: java.lang.Object newInstance()>\n\
         1 tuple\n\
         IEr: 4 tuples\n"
    );
    assert_eq!(
        r.stderr,
        "error: <stdin>:4:1: expected ',' or ')', found 'IEr'\n\
         error: <stdin>:6:8: expected ',' or ')', found end of statement\n"
    );
}

/// A name may be written plainly where that is unambiguous (the string
/// constant `"\"r.Lower\""` as `"r.Lower"`); otherwise the error says
/// what it may mean, or which names are near.
#[test]
fn plain_names_resolve_when_unambiguous_and_errors_suggest_names() {
    let db = fixture_db("Invoke");
    let r = refract_with_input(
        &["repl", &db.display().to_string()],
        "vP(v, \"run\")?\nvP(v, \"\\\"run\\\"\")?\nvP(v, \"r.Upper\")?\nvP(v, \"Uppe\")?\n",
    );
    assert_eq!(
        r.stdout,
        " v\n\
         ----------------------------------------------\n\
         \x20<Invoke: void main(java.lang.String[])>/s@12\n\
         1 tuple\n\
         \x20v\n\
         ----------------------------------------------\n\
         \x20<Invoke: void main(java.lang.String[])>/s@12\n\
         1 tuple\n"
    );
    assert_eq!(
        r.stderr,
        "error: <stdin>:3:7: \"r.Upper\" is not in the map of domain H: it may mean the string \
         constant \"\\\"r.Upper\\\"\" or the class object \"<class r.Upper>\"; write one of them\n\
         error: <stdin>:4:7: \"Uppe\" is not in the map of domain H (names that contain it: \
         \"r.Upper\", \"loadUpper\", <class r.Upper>)\n"
    );
}

/// `.rules` numbers the session's rules; `.drop` takes one back, or a
/// relation with its rules, and what was derived from them is derived
/// again. What the database holds cannot be dropped.
#[test]
fn drop_undoes_rules_and_relations_of_the_session() {
    let db = fixture_db("Invoke");
    let r = refract_with_input(
        &["repl", &db.display().to_string()],
        "twice(m) :- IEr(_, m).\ntwice(m) :- reach(m), !IEr(_, m).\nthrice(m) :- twice(m).\n\
         .rules\n.count thrice\n.drop 2\n.count thrice\n.drop twice\n.drop thrice\n\
         .drop twice\n.rules\n.drop vP\n.drop 1\n",
    );
    assert_eq!(
        r.stdout,
        "  1  twice(m) :- IEr(_, m).\n\
         \x20 2  twice(m) :- reach(m), !IEr(_, m).\n\
         \x20 3  thrice(m) :- twice(m).\n\
         thrice: 7 tuples\n\
         dropped rule 2: twice(m) :- reach(m), !IEr(_, m).\n\
         thrice: 4 tuples\n\
         dropped thrice and 1 rule\n\
         dropped twice and 1 rule\n\
         (no rules added in this session)\n"
    );
    assert_eq!(
        r.stderr,
        "error: <stdin>:8: rule 2 reads twice: drop it first (.drop 2)\n\
         error: <stdin>:12: vP is in the database; .drop removes only rules and relations that \
         this session added (.rules lists them)\n\
         error: <stdin>:13: no rule 1: this session added none\n"
    );
}

/// `.width` caps table columns; longer names wrap after a space, comma
/// or dot. `refract query` runs commands as the shell does.
#[test]
fn width_wraps_long_names_and_query_runs_commands() {
    let db = fixture_db("Invoke");
    let d = db.display().to_string();
    let r = refract_with_input(
        &[
            "query",
            &d,
            ".width 24 0",
            "IEr(i, \"<r.Upper: void <init>()>\")?",
            ".count IEr",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        " i\n\
         --------------------------\n\
         \x20<Invoke: void main(java.\n\
         \x20lang.String[])>[7@L7]\n\
         \x20invokevirtual <java.\n\
         \x20lang.Class: java.lang.\n\
         \x20Object newInstance()>\n\
         1 tuple\n\
         IEr: 4 tuples\n"
    );
    let r = refract_with_input(&["query", &d, ".count nosuch", ".count IEr"], "");
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        "error: <argument 1>:1: unknown relation nosuch (.relations lists them)\n"
    );
}

#[test]
fn shell_answers_piped_input_exactly() {
    let db = fixture_db("Invoke");
    let r = refract_with_input(&["repl", &db.display().to_string()], SHELL_INPUT);
    assert_eq!(r.stdout, expected("invoke-session.txt"));
    assert_eq!(
        r.stderr,
        "error: <stdin>:11:7: \"<r.Upper: void <nothere>()>\" is not in the map of domain M \
         (did you mean <r.Upper: void <init>()>, <r.Upper: void <clinit>()>, <r.Lower: void <init>()>?)\n\
         error: <stdin>:12:1: unknown relation nosuch\n"
    );
    // Errors do not stop the shell, but a piped session reports them.
    assert_eq!(r.code, 1);
}

#[test]
fn shell_commands_report_their_usage_and_bad_arguments() {
    let db = fixture_db("Invoke");
    let r = refract_with_input(
        &["repl", &db.display().to_string()],
        ".count\n.limit many\n.timing maybe\n.schema nosuch\n.help\n",
    );
    assert_eq!(
        r.stderr,
        "error: <stdin>:1: usage: .count R\n\
         error: <stdin>:2: .limit many: expected a number of rows (0: all)\n\
         error: <stdin>:3: .timing maybe: expected on or off\n\
         error: <stdin>:4: unknown relation nosuch (.relations lists them)\n"
    );
    assert!(r.stdout.contains(".export R FILE [--format tsv|csv|json]"));
}

/// sqlite3's habits: `.tables` lists the relations, `.show` the settings,
/// `.q` leaves; an unknown dot-command is an error that names the nearest
/// command, in the shell and in a batch script alike.
#[test]
fn shell_takes_sqlite3_commands_and_rejects_unknown_ones() {
    let db = fixture_db("Invoke");
    let r = refract_with_input(
        &["repl", &db.display().to_string()],
        ".show\n.limit 0\n.show\n.relatoins\n.tables x\n.q\n.show\n",
    );
    assert_eq!(
        r.stdout,
        "limit: 20\ntiming: off\nmode: table\nheaders: on\nwidth: no limits\noutput: stdout\n\
         limit: 0 (all rows)\ntiming: off\nmode: table\nheaders: on\nwidth: no limits\n\
         output: stdout\n"
    );
    assert_eq!(
        r.stderr,
        "error: <stdin>:4: unknown command .relatoins (did you mean .relations?) \
         (.help lists the commands)\n\
         error: <stdin>:5: usage: .relations\n"
    );
    let r = refract_with_input(&["repl", &db.display().to_string()], ".tables\n");
    assert!(r.stdout.starts_with(" relation "), "{}", r.stdout);
    assert!(r.stdout.contains("\n IEr "), "{}", r.stdout);
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("typo.dl");
    std::fs::write(&script, "reach(m)?\n.inclde \"x.dl\"\n").unwrap();
    let r = refract(&[
        "run",
        &script.display().to_string(),
        "--db",
        &db.display().to_string(),
    ]);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "error: {}:2: unknown command .inclde (did you mean .include?) \
             (.help lists the commands)\n",
            script.display()
        )
    );
}

#[test]
fn shell_without_a_database_starts_empty() {
    let r = refract_with_input(
        &["repl"],
        "N 8\nedge (a:N0, b:N1)\npath (a:N0, b:N1)\nedge(1, 2).\nedge(2, 3).\n\
         path(a, b) :- edge(a, b).\npath(a, c) :- path(a, b), edge(b, c).\npath(1, x)?\n",
    );
    assert_eq!(r.stderr, "");
    assert_eq!(r.stdout, " x\n---\n 2\n 3\n2 tuples\n");
}

#[test]
fn a_negated_relation_that_was_empty_holds_once_a_rule_fills_it() {
    // `blocked` is empty when `free` is first solved, and its negation is
    // then dropped from the plan; the rule added later fills it, and
    // `free` is solved again with the negation in place.
    let r = refract_with_input(
        &["repl"],
        "N 8\nnode (a:N0)\nblocked (a:N0)\nfree (a:N0)\nnode(1).\nnode(2).\nnode(3).\n\
         free(x) :- node(x), !blocked(x).\nfree(x)?\nblocked(x) :- node(x), x > 1.\nfree(x)?\n",
    );
    assert_eq!(r.stderr, "");
    assert_eq!(
        r.stdout,
        " x\n---\n 1\n 2\n 3\n3 tuples\n x\n---\n 1\n1 tuple\n"
    );
}

#[test]
fn session_re_solves_only_what_new_rules_reach() {
    let db = Database::open(&fixture_db("Invoke")).unwrap();
    let mut s = Session::new(db).unwrap();
    s.execute_text("a(m) :- IEr(_, m).\nb(m) :- reach(m).", "t", 1, 10)
        .unwrap();
    assert_eq!(s.db.solver.stats.iterations.len(), 2);
    // A rule over `a` re-runs its own stratum only; `b` keeps its tuples.
    let out = s
        .execute_text("c(m) :- a(m), !b(m).\nc(m)?", "t", 3, 10)
        .unwrap();
    assert_eq!(s.db.solver.stats.iterations.len(), 2, "c and the query");
    match &out[..] {
        [Output::Answer(a)] => assert_eq!(a.total, 0u32.into()),
        other => panic!("{other:?}"),
    }
    // A failing statement leaves the session as it was.
    let before = s.added_rules();
    assert!(s.execute_text("d(m) :- nosuch(m).", "t", 5, 10).is_err());
    assert!(s.execute_text("e(m) :- a(m", "t", 6, 10).is_err());
    assert_eq!(s.added_rules(), before);
    // A cancelled evaluation is an error, and the session is unchanged.
    s.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
    let cancelled = s.db.solver.solve();
    assert!(cancelled.unwrap_err().to_string().contains("cancelled"));
}

#[test]
fn batch_scripts_print_what_the_shell_prints() {
    let db = fixture_db("SpecInput");
    let r = refract(&[
        "run",
        "queries/unresolved-sites.dl",
        "--db",
        &db.display().to_string(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, expected("specinput-unresolved-sites.txt"));
    let script = std::fs::read_to_string(root().join("queries/unresolved-sites.dl")).unwrap();
    let shell = refract_with_input(&["repl", &db.display().to_string()], &script);
    assert_eq!(shell.stdout, r.stdout);

    let db = fixture_db("Invoke");
    for (script, file) in [
        ("queries/reflective-edges.dl", "invoke-reflective-edges.txt"),
        ("queries/reflection-only.dl", "invoke-reflection-only.txt"),
    ] {
        let r = refract(&["run", script, "--db", &db.display().to_string()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(r.stdout, expected(file), "{script}");
    }
}

/// A script runs as if piped into the shell: an error is printed with its
/// line and the script goes on (exit 1); `--bail` stops at the first.
#[test]
fn batch_scripts_go_on_after_an_error_unless_they_bail() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("bad.dl");
    std::fs::write(
        &script,
        "reach(m)?\nx(m) :- reach(m), y(m).\n.count reach\n",
    )
    .unwrap();
    let db = fixture_db("Invoke");
    let (s, d) = (script.display().to_string(), db.display().to_string());
    let run = |bail: bool| {
        let mut args = vec!["run", s.as_str(), "--db", d.as_str()];
        if bail {
            args.push("--bail");
        }
        refract(&args)
    };
    let error = format!("error: {s}:2:19: unknown relation y\n");
    let r = run(false);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout.ends_with("7 tuples\nreach: 7 tuples\n"),
        "{}",
        r.stdout
    );
    assert_eq!(r.stderr, error);
    let bailed = run(true);
    assert_eq!(bailed.code, 1);
    assert!(bailed.stdout.ends_with("7 tuples\n"), "{}", bailed.stdout);
    assert!(!bailed.stdout.contains("reach:"), "{}", bailed.stdout);
    assert_eq!(bailed.stderr, error);
    // The same script piped into the shell, with and without --bail.
    let text = std::fs::read_to_string(&script).unwrap();
    let piped = refract_with_input(&["repl", &d], &text);
    assert_eq!((piped.code, piped.stdout), (1, r.stdout));
    let piped = refract_with_input(&["repl", &d, "--bail"], &text);
    assert_eq!((piped.code, piped.stdout), (1, bailed.stdout));
}

/// Shell commands in a batch script run as in the shell, and a script
/// `.load`s another; errors there are placed by that file's lines.
#[test]
fn batch_scripts_run_shell_commands_and_load_scripts() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("count.dl"),
        ".count reach\n.load inner.dl\n.count twice\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("inner.dl"),
        "twice(m) :- IEr(_, m).\n\n.count nosuch\n.load inner.dl\n",
    )
    .unwrap();
    let db = fixture_db("Invoke");
    let r = refract_in(
        dir.path(),
        &["run", "count.dl", "--db", &db.display().to_string()],
        "",
    );
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "reach: 7 tuples\ntwice: 4 tuples\n");
    assert_eq!(
        r.stderr,
        "error: inner.dl:3: unknown relation nosuch (.relations lists them)\n\
         error: inner.dl:4: inner.dl loads itself\n"
    );
}

#[test]
fn relations_export_as_tsv_csv_and_json() {
    let db = fixture_db("Invoke");
    let db = db.display().to_string();
    let tsv = refract(&["export", "relation", "IEr", &db]);
    assert_eq!(tsv.stdout, expected("invoke-IEr.tsv"));
    let csv = refract(&["export", "relation", "IEr", &db, "--format", "csv"]);
    assert_eq!(csv.stdout, expected("invoke-IEr.csv"));
    let json = refract(&["export", "relation", "IEr", &db, "--format", "json"]);
    assert_eq!(json.stdout, expected("invoke-IEr.json"));
    // Argument positions are numbers in JSON, not strings.
    let actual = refract(&["export", "relation", "actual", &db, "--format", "json"]);
    assert!(
        actual.stdout.contains(", \"num\": 0, \"variable\": "),
        "{}",
        actual.stdout
    );
    let none = refract(&["export", "relation", "nosuch", &db]);
    assert_eq!(none.code, 1);
    assert!(
        none.stderr.contains("has no relation nosuch"),
        "{}",
        none.stderr
    );
}

#[test]
fn call_graph_exports_mark_reflective_edges() {
    let db = fixture_db("Invoke");
    let db = db.display().to_string();
    let tsv = refract(&["export", "callgraph", &db]);
    assert_eq!(tsv.code, 0, "{}", tsv.stderr);
    assert_eq!(tsv.stdout, expected("invoke-callgraph.tsv"));
    let dot = refract(&["export", "callgraph", &db, "--format", "dot"]);
    assert_eq!(dot.stdout, expected("invoke-callgraph.dot"));
    // The DOT renders with Graphviz (installed by scripts/install-test-deps.sh).
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("Graphviz `dot` (scripts/install-test-deps.sh installs it)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(dot.stdout.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("<svg"));
}

/// The call graph cut down to what a person reads: `--from`/`--to` with
/// `--depth`, `--reflective-only`, `--package`, and nodes collapsed to
/// classes; a method that is not there is named with its nearest.
#[test]
fn call_graph_filters_keep_what_is_asked_for() {
    let db = fixture_db("Invoke");
    let db = db.display().to_string();
    let main = "<Invoke: void main(java.lang.String[])>";
    let tsv = |extra: &[&str]| {
        let mut args = vec!["export", "callgraph", db.as_str()];
        args.extend_from_slice(extra);
        let r = refract(&args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        // Caller and callee, without the site.
        r.stdout
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                format!("{} -> {} {}", f[0], f[2], f[3])
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        tsv(&["--from", "Upper.<init>"]),
        ["<r.Upper: void <init>()> -> <java.lang.Object: void <init>()> call"]
    );
    assert_eq!(
        tsv(&["--to", "java.lang.Object.<init>"]),
        [
            "<r.Upper: void <init>()> -> <java.lang.Object: void <init>()> call".to_string(),
            format!("{main} -> <r.Upper: void <init>()> reflective"),
        ]
    );
    assert_eq!(
        tsv(&["--to", "java.lang.Object.<init>", "--depth", "1"]),
        ["<r.Upper: void <init>()> -> <java.lang.Object: void <init>()> call"]
    );
    assert_eq!(tsv(&["--reflective-only"]).len(), 4);
    assert_eq!(
        tsv(&["--package", "r"]),
        ["<r.Upper: void <init>()> -> <java.lang.Object: void <init>()> call"]
    );
    assert_eq!(tsv(&["--package", "r.Up"]).len(), 0);
    let classes = refract(&[
        "export",
        "callgraph",
        &db,
        "--format",
        "dot",
        "--collapse",
        "class",
    ]);
    assert_eq!(
        classes.stdout,
        "digraph callgraph {\n\
         \x20 rankdir=LR;\n\
         \x20 node [shape=box, style=rounded, fontname=\"monospace\", fontsize=10];\n\
         \x20 edge [color=\"#555555\", fontname=\"monospace\", fontsize=9];\n\
         \x20 graph [style=rounded, color=\"#aaaaaa\", fontname=\"monospace\", fontsize=10];\n\
         \x20 n0 [id=\"n0\", label=\"Invoke\", tooltip=\"Invoke\"];\n\
         \x20 n1 [id=\"n1\", label=\"java.lang.Class\", tooltip=\"java.lang.Class\"];\n\
         \x20 n2 [id=\"n2\", label=\"r.Upper\", tooltip=\"r.Upper\"];\n\
         \x20 n3 [id=\"n3\", label=\"java.lang.Object\", tooltip=\"java.lang.Object\"];\n\
         \x20 n0 -> n1;\n\
         \x20 n2 -> n3;\n\
         \x20 n0 -> n2 [style=dashed, color=red, fontcolor=red, label=\"reflective\"];\n\
         }\n"
    );
    let wrong = refract(&["export", "callgraph", &db, "--from", "Upper.rnu"]);
    assert_eq!(wrong.code, 1);
    assert_eq!(
        wrong.stderr,
        "error: --from Upper.rnu: no method of the call graph is called so (did you mean Upper.run?)\n"
    );
}

/// The HTML page renders in a real browser: headless Chromium runs its
/// script (which counts the nodes) and its screenshot shows the graph,
/// with the red reflective edges.
#[test]
fn call_graph_page_renders_in_a_headless_browser() {
    let db = fixture_db("Invoke");
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("cg.html");
    let html = refract(&[
        "export",
        "callgraph",
        &db.display().to_string(),
        "--format",
        "html",
    ]);
    assert_eq!(html.code, 0, "{}", html.stderr);
    assert!(html.stdout.starts_with("<!DOCTYPE html>"));
    assert!(
        !html.stdout.contains("<?xml"),
        "the SVG is embedded without its prolog"
    );
    std::fs::write(&page, &html.stdout).unwrap();
    let url = format!("file://{}", page.display());
    let chromium = |args: &[&str]| {
        let out = Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
            ])
            .arg(format!(
                "--user-data-dir={}",
                dir.path().join("profile").display()
            ))
            .args(args)
            .arg(&url)
            .output()
            .expect("Chromium (scripts/install-test-deps.sh installs it)");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let dom = String::from_utf8(chromium(&["--dump-dom"])).unwrap();
    assert!(
        dom.contains("data-nodes=\"7\""),
        "the page's script ran: {dom}"
    );
    let shot = dir.path().join("cg.png");
    chromium(&[
        "--window-size=1000,600",
        &format!("--screenshot={}", shot.display()),
    ]);
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let (mut red, mut dark) = (0, 0);
    for px in buf[..info.buffer_size()].chunks(channels) {
        let (r, g, b) = (px[0], px[1], px[2]);
        if r > 200 && g < 80 && b < 80 {
            red += 1;
        }
        if r < 90 && g < 90 && b < 90 {
            dark += 1;
        }
    }
    // Four dashed red edges with their labels, and boxes and names in black.
    assert!(red > 500, "red pixels: {red}");
    assert!(dark > 2000, "dark pixels: {dark}");
}

/// `refract explain` prints a tuple's derivation: each derived tuple with
/// the rule that made it (file and line in queries/), down to input
/// facts; what a depth bound cuts is marked; `.explain` in the shell
/// prints the same and leaves the session's rules as they were.
#[test]
fn explain_prints_the_derivation_of_a_tuple() {
    let db = fixture_db("Invoke");
    let d = db.display().to_string();
    let goal = "reach(\"<r.Upper: void <init>()>\")";
    let r = refract(&["explain", &d, goal]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, expected("invoke-explain-reach.txt"));
    let site = "<Invoke: void main(java.lang.String[])>[7@L7] invokevirtual \
                <java.lang.Class: java.lang.Object newInstance()>";
    let cut = refract(&["explain", &d, goal, "--depth", "3"]);
    assert_eq!(
        cut.stdout,
        format!(
            "reach(\"<r.Upper: void <init>()>\")  [queries/contexts/insensitive.dl:13]\n\
             \x20 IEr(\"{site}\", \"<r.Upper: void <init>()>\")  [queries/reflection.dl:273]\n\
             \x20   newInstanceTargets(\"{site}\", \"r.Upper\")  [queries/reflection.dl:200]\n\
             \x20     newInstanceCandidate(\"{site}\", \"r.Upper\")  \
             [not explained within the search's bounds]\n\
             \x20     siteModule(\"{site}\", \"<unnamed>\")  \
             [not explained within the search's bounds]\n\
             \x20     !ctorDeniedFrom(\"<unnamed>\", \"r.Upper\")  [holds]\n\
             \x20   defaultConstructor(\"r.Upper\", \"<r.Upper: void <init>()>\")  [fact]\n\
             \n\
             In words:\n\
             - Class.newInstance at Invoke.main, line 7 creates a new r.Upper.\n\
             - Class.newInstance at Invoke.main, line 7 calls r.Upper.<init>.\n"
        )
    );
    // The whole derivation's story names the string and the Class object.
    let full = refract(&["explain", &d, goal]);
    assert!(
        full.stdout.ends_with(
            "In words:\n\
             - Class.forName at Invoke.main, line 6 resolves to class r.Upper, because the string \
             \"r.Upper\" reaches its argument.\n\
             - Class.newInstance at Invoke.main, line 7 creates a new r.Upper, because <class r.Upper> \
             reaches its receiver.\n\
             - Class.newInstance at Invoke.main, line 7 calls r.Upper.<init>.\n"
        ),
        "{}",
        full.stdout
    );
    // Variables are bound by the first tuple.
    let first = refract(&["explain", &d, "reach(m)", "--depth", "1"]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(first.stdout.starts_with("reach(\""), "{}", first.stdout);
    let absent = refract(&["explain", &d, "reach(\"<r.Lower: void <init>()>\")"]);
    assert_eq!(absent.code, 1);
    assert_eq!(
        absent.stderr,
        "error: reach(\"<r.Lower: void <init>()>\") is not in the database\n"
    );
    // A string that travels through variables is followed.
    let lifted = fixture_db("Lifted");
    let story = refract(&[
        "explain",
        &lifted.display().to_string(),
        "classObjects(i, \"r.Lower\")",
    ]);
    assert!(
        story.stdout.ends_with(
            "In words:\n- Class.forName at Lifted.main, line 31 resolves to class r.Lower, because \
             the string \"r.Lower\" reaches its argument, through s@9 (in Lifted.main) and s@11 \
             (in Lifted.main).\n"
        ),
        "{}",
        story.stdout
    );
    let shell = refract_with_input(&["repl", &d], &format!(".explain {goal}\n.rules\n"));
    assert_eq!(
        shell.stdout,
        format!(
            "{}(no rules added in this session)\n",
            expected("invoke-explain-reach.txt")
        )
    );
}

/// A rule that feeds a relation the analysis reads re-runs the analysis's
/// rules over it: a new reachable method gets its points-to facts, as if
/// the analysis had found it; `.drop` takes it all back. Relations the
/// analysis derives but the database does not store are computed when a
/// statement asks for them.
#[test]
fn new_rules_keep_the_analysis_consistent() {
    let db = fixture_db("Invoke");
    let r = refract_with_input(
        &["repl", &db.display().to_string()],
        "lv(v, h) :- declaresMethod(\"r.Lower\", m), mV(m, v), vP(v, h).\n\
         .count lv\n\
         reach(m) :- declaresMethod(\"r.Lower\", m).\n\
         .count reach\n\
         lv(v, h)?\n\
         .drop 2\n\
         .count reach\n\
         .count lv\n\
         .count invokeTarget\n",
    );
    assert_eq!(r.stderr, "");
    assert_eq!(
        r.stdout,
        "lv: 0 tuples\n\
         reach: 10 tuples\n\
         \x20v                              | h\n\
         --------------------------------+-------------------\n\
         \x20<r.Lower: void <clinit>()>/s@3 | <string constant>\n\
         1 tuple\n\
         dropped rule 2: reach(m) :- declaresMethod(\"r.Lower\", m).\n\
         reach: 7 tuples\n\
         lv: 0 tuples\n\
         invokeTarget: 3 tuples\n"
    );
    // A rule that a negation reads: what the analysis derived through
    // `!modelledResult(i)` is derived again from nothing, and shrinks.
    let db = fixture_db("Lifted");
    let r = refract_with_input(
        &["repl", &db.display().to_string()],
        ".count assignCall\n.count vP\nmodelledResult(i) :- Iret(i, _).\n.count assignCall\n\
         .count vP\n.drop 1\n.count assignCall\n.count vP\n",
    );
    assert_eq!(r.stderr, "");
    assert_eq!(
        r.stdout,
        "assignCall: 20 tuples\nvP: 46 tuples\nassignCall: 9 tuples\nvP: 27 tuples\n\
         dropped rule 1: modelledResult(i) :- Iret(i, _).\nassignCall: 20 tuples\nvP: 46 tuples\n"
    );
}

/// The analysis's intermediate relations, which the database does not
/// store, computed on demand from the stored relations of their stratum
/// held fixed, equal what a full re-derivation of that stratum gives
/// (forced by a rule that adds nothing to `reach`): for every one of
/// them, on two fixtures.
#[test]
fn intermediate_relations_computed_on_demand_equal_a_full_rederivation() {
    for main in ["Invoke", "Lifted"] {
        let db = fixture_db(main);
        let program = std::fs::read_to_string(db.join("program.dl")).unwrap();
        let lazy: Vec<String> = program
            .lines()
            .filter_map(|l| l.split_once(" (").map(|(name, _)| name))
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
            .filter(|n| {
                !db.join(format!("{n}.bdd")).exists() && !db.join(format!("{n}.tuples")).exists()
            })
            .map(str::to_string)
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        assert!(lazy.len() > 100, "{main}: {}", lazy.len());
        let counts = |full: bool| -> Vec<String> {
            let mut s = Session::new(Database::open(&db).unwrap()).unwrap();
            if full {
                s.execute_text("reach(m) :- root(m).", "t", 1, 0).unwrap();
            }
            lazy.iter()
                .map(|n| {
                    let rel = s.load(n).unwrap();
                    format!("{n}: {}", s.db.solver.count(rel))
                })
                .collect()
        };
        assert_eq!(counts(false), counts(true), "{main}");
    }
}

#[test]
fn stored_relations_read_back_equal_and_saved_ones_persist() {
    let dir = tempfile::tempdir().unwrap();
    let db_dir = copy_db("Invoke", &dir.path().join("inv.db"));
    // Every stored relation of a reopened database loads.
    let mut db = Database::open(&db_dir).unwrap();
    let names = relation_names(&db);
    for n in &names {
        db.load(n).unwrap();
    }
    assert_eq!(db.tuples("IEr").unwrap().len(), 4);
    assert_eq!(db.tuples("vP").unwrap().len(), 30);

    // A relation saved from the shell is in the database next time.
    let r = refract_with_input(
        &["repl", &db_dir.display().to_string()],
        "reflective(m) :- IEr(_, m).\n.save reflective\n",
    );
    assert_eq!(r.stderr, "");
    assert_eq!(
        r.stdout,
        format!(
            "stored reflective in {}\n",
            db_dir.join("reflective.tuples").display()
        )
    );
    let again = refract_with_input(
        &["repl", &db_dir.display().to_string()],
        ".count reflective\n",
    );
    assert_eq!(again.stderr, "");
    assert_eq!(again.stdout, "reflective: 4 tuples\n");

    // A stored relation extended in a session and saved replaces the old.
    let r = refract_with_input(
        &["repl", &db_dir.display().to_string()],
        "IEr(i, m) :- IE(i, m).\n.save IEr\n",
    );
    assert_eq!(r.stderr, "");
    let again = refract_with_input(&["repl", &db_dir.display().to_string()], ".count IEr\n");
    assert_eq!(again.stderr, "");
    assert_eq!(again.stdout, "IEr: 6 tuples\n");
    assert!(!db_dir.join("IEr.bdd").exists());
}

fn relation_names(db: &Database) -> Vec<String> {
    db.solver
        .prog
        .relations
        .iter()
        .map(|r| r.name.clone())
        .collect()
}

fn open_err(dir: &Path) -> DatabaseError {
    match Database::open(dir) {
        Ok(_) => panic!("{} opened", dir.display()),
        Err(e) => e,
    }
}

#[test]
fn damaged_databases_are_rejected_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| copy_db("Invoke", &dir.path().join(name));

    let truncated = d("truncated");
    let vp = truncated.join("vP.bdd");
    let bytes = std::fs::read(&vp).unwrap();
    std::fs::write(&vp, &bytes[..bytes.len() / 2]).unwrap();
    assert!(matches!(
        open_err(&truncated),
        DatabaseError::Truncated { .. }
    ));
    let r = refract(&["report", &truncated.display().to_string()]);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        format!(
            "error: {}: {} bytes, but the database recorded {}: the file is truncated or damaged; write the database again\n",
            vp.display(),
            bytes.len() / 2,
            bytes.len()
        )
    );

    // Same size, other contents: caught when the relation is read.
    let flipped = d("flipped");
    let vp = flipped.join("vP.bdd");
    let mut bytes = std::fs::read(&vp).unwrap();
    let last = bytes.len() - 2;
    bytes[last] = if bytes[last] == b'1' { b'0' } else { b'1' };
    std::fs::write(&vp, &bytes).unwrap();
    let mut db = Database::open(&flipped).unwrap();
    assert!(matches!(db.load("vP"), Err(DatabaseError::Corrupt(_))));
    assert!(db.load("IEr").is_ok());

    let missing = d("missing");
    std::fs::remove_file(missing.join("IE.bdd")).unwrap();
    assert!(matches!(open_err(&missing), DatabaseError::Missing(_)));

    let incomplete = d("incomplete");
    std::fs::remove_file(incomplete.join("metadata.tsv")).unwrap();
    assert!(matches!(
        open_err(&incomplete),
        DatabaseError::Incomplete(_)
    ));

    let future = d("future");
    let m = future.join("metadata.tsv");
    let text = std::fs::read_to_string(&m).unwrap();
    std::fs::write(&m, text.replace("refract-db 2", "refract-db 99")).unwrap();
    let e = open_err(&future);
    assert!(
        e.to_string().contains("database format `refract-db 99`"),
        "{e}"
    );

    let garbled = d("garbled");
    let m = garbled.join("metadata.tsv");
    let text = std::fs::read_to_string(&m).unwrap();
    std::fs::write(&m, text.replacen("file\tA.bdd\t", "file\tA.bdd\tx", 1)).unwrap();
    assert!(matches!(
        open_err(&garbled),
        DatabaseError::BadManifest { .. }
    ));

    let schema = d("schema");
    let s = schema.join("database.dl");
    let text = std::fs::read_to_string(&s).unwrap();
    std::fs::write(&s, text.replacen("vP (", "vQ (", 1)).unwrap();
    assert!(matches!(
        open_err(&schema),
        DatabaseError::Corrupt(_) | DatabaseError::Truncated { .. }
    ));

    assert!(matches!(
        open_err(dir.path()),
        DatabaseError::NotADatabase(_)
    ));
}

#[test]
fn a_write_that_fails_leaves_the_old_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = copy_db("Invoke", &dir.path().join("inv.db"));
    // --main of a class without main fails after the facts are built.
    let r = refract(&[
        "analyze",
        &root()
            .join("fixtures/classes/reflection")
            .display()
            .to_string(),
        "--main",
        "r.Upper",
        "--jdk",
        "none",
        "-q",
        "-o",
        &db.display().to_string(),
    ]);
    assert_eq!(r.code, 1);
    assert!(Database::open(&db).is_ok());
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, vec![std::ffi::OsString::from("inv.db")]);
}

#[test]
fn the_shell_works_at_a_terminal() {
    // scripts/smoke-repl.sh types into the shell in tmux and checks the
    // screen: tables, completion, multi-line rules, errors, Ctrl-C, history.
    let out = Command::new("bash")
        .arg(root().join("scripts/smoke-repl.sh"))
        .env("REFRACT", env!("CARGO_BIN_EXE_refract"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn shell_exports_saves_loads_and_times() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("script.dl"),
        "twice(m) :- IEr(_, m), reach(m).\ntwice(m)?\n",
    )
    .unwrap();
    let db = fixture_db("Invoke");
    let out = refract_in(
        dir.path(),
        &["repl", &db.display().to_string()],
        ".export IEr ier.csv\n.export IEr ier.out --format json\n.save IEr ier.tuples\n\
         .limit 2\n.load script.dl\n.timing on\n.count twice\n.export IEr x --format xml\n",
    );
    let stdout = out.stdout;
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "wrote 4 tuples to ier.csv");
    assert_eq!(lines[1], "wrote 4 tuples to ier.out");
    assert_eq!(lines[2], "wrote ier.tuples");
    assert_eq!(lines[3], " m");
    assert_eq!(
        lines[7],
        "... 2 more rows (.limit N to show more, .limit 0 for all)"
    );
    assert_eq!(lines[8], "4 tuples");
    // `.timing on` times itself, then every statement.
    assert!(
        lines[9].starts_with("time: ") && lines[9].ends_with('s'),
        "{stdout}"
    );
    assert_eq!(lines[10], "twice: 4 tuples");
    assert!(lines[11].starts_with("time: "), "{stdout}");
    assert_eq!(
        out.stderr,
        "error: <stdin>:8: unknown format xml (tsv, csv or json)\n"
    );
    let read = |f: &str| std::fs::read_to_string(dir.path().join(f)).unwrap();
    assert_eq!(read("ier.csv"), expected("invoke-IEr.csv"));
    assert_eq!(read("ier.out"), expected("invoke-IEr.json"));
    let tuples = read("ier.tuples");
    assert_eq!(tuples.lines().count(), 5, "{tuples}");
    assert!(tuples.starts_with("# I0:"), "{tuples}");
}

/// The analysis keeping every relation (`keep_relations`) stores what it
/// computed; freeing them during the solve, as the command line does,
/// stores the same tuples.
#[test]
fn a_database_reads_back_exactly_what_the_analysis_computed() {
    use refract::analysis::driver::{analyze, AnalysisOptions};
    use refract::analysis::Variant;
    use refract::bdd::sorted_tuples;
    use refract::classpath::ClassPath;
    use refract::database::manifest::ManifestBuilder;

    let mut cp = ClassPath::default();
    cp.push_application(root().join("fixtures/classes/reflection"));
    let facts = || refract::facts::generate(&cp, &|_| {});
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fields.db");
    let mut opts = AnalysisOptions {
        variant: Variant::PointsTo,
        context: Default::default(),
        context_scope: Default::default(),
        mains: vec!["Fields".into()],
        library_roots: false,
        jvm_roots: false,
        spec: None,
        member_arrays: false,
        probe: false,
        assume: None,
        locales: Vec::new(),
        models_off: Vec::new(),
        var_order: None,
        observer: Default::default(),
        keep_relations: true,
    };
    let (solver, _, _) = analyze(
        facts(),
        &opts,
        &path,
        false,
        ManifestBuilder::new("analyze"),
    )
    .unwrap();
    let mut db = Database::open(&path).unwrap();
    let names = relation_names(&db);
    assert!(names.len() > 60, "{names:?}");
    let read = refract::analysis::driver::relations_read(&solver.prog);
    let mut compared = 0;
    for name in &names {
        let Some(rel) = solver.prog.relation_id(name) else {
            continue;
        };
        let stored = db.tuples(name).unwrap();
        // A fact no rule reads is only in the database (it loaded above).
        if !solver.prog.relations[rel].options.input || read.contains(&rel) {
            let computed = sorted_tuples(&solver.rels[rel], &solver.blocks(rel));
            assert_eq!(stored, computed, "{name}");
        }
        // A result loads as the very BDD the analysis computed: the
        // session has the analysis's variable order, so nothing is rebuilt.
        if solver.prog.relations[rel].options.output {
            let here = db.solver.prog.relation_id(name).unwrap();
            assert_eq!(
                db.solver.rels[here].size(),
                solver.rels[rel].size(),
                "{name}"
            );
        }
        compared += 1;
    }
    assert_eq!(compared, names.len());
    assert_eq!(
        db.solver.layout.describe_order(),
        solver.layout.describe_order()
    );
    assert_eq!(db.option("variant"), Some("points-to"));
    assert_eq!(db.manifest.command, "analyze");
    // Freed during the solve, the relations are stored all the same; the
    // returned solver has them empty.
    opts.keep_relations = false;
    let freed_path = dir.path().join("freed.db");
    let (freed, _, _) = analyze(
        facts(),
        &opts,
        &freed_path,
        false,
        ManifestBuilder::new("analyze"),
    )
    .unwrap();
    let mut freed_db = Database::open(&freed_path).unwrap();
    assert_eq!(relation_names(&freed_db), names);
    let mut retired = 0;
    for name in &names {
        assert_eq!(
            freed_db.tuples(name).unwrap(),
            db.tuples(name).unwrap(),
            "{name}"
        );
        let rel = freed.prog.relation_id(name).unwrap();
        if freed.retired(rel) {
            assert!(freed.rels[rel].is_false(), "{name}");
            retired += 1;
        }
    }
    assert!(retired > 10, "{retired}");
}
