//! Context sensitivity (`--context`, `queries/contexts/`): what each
//! kind tells apart on the fixture `fixtures/src/contexts`, exactly, and
//! the projections that every export reads.

use std::path::Path;
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_refract"))
        .args(args)
        .output()
        .unwrap()
}

fn refract(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "refract {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Analyses fixture `Contexts` without a JDK under `variant` and context
/// `kind`; its database.
fn analyze(dir: &Path, variant: &str, kind: &str) -> String {
    let classes = root().join("fixtures/classes/contexts");
    let db = dir
        .join(format!("{variant}-{kind}.db"))
        .display()
        .to_string();
    refract(&[
        "analyze",
        &classes.display().to_string(),
        "--main",
        "Contexts",
        "--jdk",
        "none",
        "--reflection",
        variant,
        "--context",
        kind,
        "-q",
        "-o",
        &db,
    ]);
    db
}

/// The targets of the two `draw()` calls in `main`, as `bci target` lines.
fn draws(db: &str) -> Vec<String> {
    let out = refract(&[
        "query",
        db,
        r#"d(i, m) :- IE(i, m), Iref(i, "<Contexts$Shape: java.lang.String draw()>")."#,
        "d(i, m)?",
    ]);
    let mut rows: Vec<String> = (out.lines())
        .filter(|l| l.contains("invokeinterface"))
        .map(|l| {
            let bci = l.split("main(java.lang.String[])>[").nth(1).unwrap();
            let bci = bci.split('@').next().unwrap();
            let target = l.rsplit('|').next().unwrap().trim();
            format!("{bci} {target}")
        })
        .collect();
    rows.sort();
    rows
}

const HEADER: &str = "caller_class\tcaller_method\tcaller_desc\tbci\tline\tapi\ttarget\n";

/// Without contexts, `value()` returns both holders' values at each
/// call: both shapes are drawn at each `draw()`, and each `forName`
/// loads both classes. Under `1-object`, `value()` runs once per holder,
/// and each call gets its own holder's value.
#[test]
fn one_object_separates_the_calls_of_a_method_on_two_receivers() {
    let dir = tempfile::tempdir().unwrap();
    let main = "Contexts\tmain\t([Ljava/lang/String;)V";
    let db = analyze(dir.path(), "points-to", "insensitive");
    assert_eq!(
        draws(&db),
        [
            "37 <Contexts$Circle: java.lang.String draw()>",
            "37 <Contexts$Square: java.lang.String draw()>",
            "50 <Contexts$Circle: java.lang.String draw()>",
            "50 <Contexts$Square: java.lang.String draw()>",
        ]
    );
    assert_eq!(
        refract(&["export", "targets", &db]),
        format!(
            "{HEADER}{main}\t84\t48\tClass.forName\tContexts$Circle\n\
             {main}\t84\t48\tClass.forName\tContexts$Square\n\
             {main}\t96\t49\tClass.forName\tContexts$Circle\n\
             {main}\t96\t49\tClass.forName\tContexts$Square\n"
        )
    );
    let db = analyze(dir.path(), "points-to", "1-object");
    assert_eq!(
        draws(&db),
        [
            "37 <Contexts$Circle: java.lang.String draw()>",
            "50 <Contexts$Square: java.lang.String draw()>",
        ]
    );
    assert_eq!(
        refract(&["export", "targets", &db]),
        format!(
            "{HEADER}{main}\t84\t48\tClass.forName\tContexts$Circle\n\
             {main}\t96\t49\tClass.forName\tContexts$Square\n"
        )
    );
    // The relations with contexts are in the database beside their
    // projections: `value()` runs in the context of each holder object,
    // and its result holds that holder's value only. `main` and
    // `forName` (static) run in the context of no object; each holder's
    // `<init>`, `value()`, `same()` (static, its caller's context) and
    // `Object.<init>`, and each shape's `<init>`, `draw()` and
    // `Object.<init>`, in their object's: 2 + 4 * 4 + 2 * 3 = 24.
    let out = refract(&[
        "query",
        &db,
        r#"r(c, h) :- cvP(c, v, h), Mret("<Contexts$Holder: java.lang.Object value()>", v)."#,
        ".count r",
        ".count creach",
    ]);
    assert_eq!(out, "r: 4 tuples\ncreach: 24 tuples\n", "{out}");
}

/// Every variant that resolves reflection runs with contexts, and
/// reaches what it reaches without them on this fixture.
#[test]
fn every_variant_runs_with_contexts() {
    let dir = tempfile::tempdir().unwrap();
    for variant in ["none", "local", "casts", "infer"] {
        let insensitive = analyze(dir.path(), variant, "insensitive");
        let object = analyze(dir.path(), variant, "1-object");
        let count = |db: &str| refract(&["query", db, ".count reach"]);
        assert_eq!(count(&insensitive), count(&object), "{variant}");
    }
}

/// An unknown kind is a usage error that lists the kinds.
#[test]
fn an_unknown_context_kind_is_refused_with_the_kinds() {
    let out = run(&[
        "analyze",
        "x.jar",
        "--main",
        "A",
        "--context",
        "2-type",
        "-o",
        "x.db",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown context kind \"2-type\" (insensitive, 1-object)"),
        "{err}"
    );
}
