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
    analyze_main(dir, "Contexts", variant, kind)
}

/// Analyses the fixtures of `fixtures/classes/contexts` from `main`,
/// without a JDK, under `variant` and context `kind`; its database.
fn analyze_main(dir: &Path, main: &str, variant: &str, kind: &str) -> String {
    let classes = root().join("fixtures/classes/contexts");
    let db = dir
        .join(format!("{main}-{variant}-{kind}.db"))
        .display()
        .to_string();
    refract(&[
        "analyze",
        &classes.display().to_string(),
        "--main",
        main,
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
    // They are stored, so `export relation` reads them as it reads `vP`.
    let rows = refract(&["export", "relation", "creach", &db]);
    assert!(rows.starts_with("context\tmethod\n"), "{rows}");
    assert_eq!(rows.lines().count(), 1 + 24, "{rows}");
    assert!(
        rows.contains("<global>\t<Contexts: void main(java.lang.String[])>\n"),
        "{rows}"
    );
}

/// `CallSites.id(o)`, a static method called from two sites, returns
/// both names at both calls without contexts and under `1-object` (a
/// static method runs in its caller's context, here no object's). Under
/// `1-call-site` it runs once per site, and each `Class.forName` loads
/// its own class.
#[test]
fn one_call_site_separates_the_calls_of_a_static_method() {
    let dir = tempfile::tempdir().unwrap();
    let main = "CallSites\tmain\t([Ljava/lang/String;)V";
    let both = format!(
        "{HEADER}{main}\t8\t27\tClass.forName\tCallSites$First\n\
         {main}\t8\t27\tClass.forName\tCallSites$Second\n\
         {main}\t20\t28\tClass.forName\tCallSites$First\n\
         {main}\t20\t28\tClass.forName\tCallSites$Second\n"
    );
    for kind in ["insensitive", "1-object"] {
        let db = analyze_main(dir.path(), "CallSites", "points-to", kind);
        assert_eq!(refract(&["export", "targets", &db]), both, "{kind}");
    }
    let db = analyze_main(dir.path(), "CallSites", "points-to", "1-call-site");
    assert_eq!(
        refract(&["export", "targets", &db]),
        format!(
            "{HEADER}{main}\t8\t27\tClass.forName\tCallSites$First\n\
             {main}\t20\t28\tClass.forName\tCallSites$Second\n"
        )
    );
    // `main` runs in the context of no call site; `id` and `forName` in
    // each of their sites'; `o` holds one name in each context, the
    // first site's its own.
    let id = "<CallSites: java.lang.Object id(java.lang.Object)>";
    let site = format!("<CallSites: void main(java.lang.String[])>[2@L27] invokestatic {id}");
    let out = refract(&[
        "query",
        &db,
        &format!(r#"o(c, h) :- cvP(c, v, h), formal("{id}", 0, v)."#),
        &format!(r#"first(h) :- cvP("{site}", v, h), formal("{id}", 0, v)."#),
        "first(h)?",
        ".count o",
        ".count creach",
    ]);
    assert_eq!(
        out,
        " h\n-------------------\n \"CallSites$First\"\n1 tuple\no: 2 tuples\ncreach: 5 tuples\n"
    );
}

/// Every variant that resolves reflection runs with contexts, and
/// reaches what it reaches without them on this fixture.
#[test]
fn array_copies_are_made_at_each_call_in_its_context() {
    // queries/models/arraycopy.dl: each System.arraycopy copies its own
    // call's elements; through the helper `copy`, called from two sites,
    // only a call-site context keeps the two copies apart.
    let dir = tempfile::tempdir().unwrap();
    let main = "Copies\tmain\t([Ljava/lang/String;)V";
    let direct = format!("{HEADER}{main}\t27\t12\tClass.forName\tCopies$A\n");
    let merged = format!(
        "{direct}{main}\t73\t18\tClass.forName\tCopies$B\n\
         {main}\t73\t18\tClass.forName\tCopies$C\n\
         {main}\t83\t19\tClass.forName\tCopies$B\n\
         {main}\t83\t19\tClass.forName\tCopies$C\n"
    );
    for kind in ["insensitive", "1-object"] {
        let db = analyze_main(dir.path(), "Copies", "points-to", kind);
        assert_eq!(refract(&["export", "targets", &db]), merged, "{kind}");
    }
    let db = analyze_main(dir.path(), "Copies", "points-to", "1-call-site");
    assert_eq!(
        refract(&["export", "targets", &db]),
        format!(
            "{direct}{main}\t73\t18\tClass.forName\tCopies$B\n\
             {main}\t83\t19\tClass.forName\tCopies$C\n"
        )
    );
    // Switched off, nothing is copied: the facts hold no copy.
    let off = dir.path().join("off.db").display().to_string();
    let classes = root().join("fixtures/classes/contexts");
    refract(&[
        "analyze",
        &classes.display().to_string(),
        "--main",
        "Copies",
        "--jdk",
        "none",
        "--no-model",
        "arraycopy",
        "-q",
        "-o",
        &off,
    ]);
    assert_eq!(refract(&["export", "targets", &off]), HEADER);
}

#[test]
fn every_variant_runs_with_contexts() {
    let dir = tempfile::tempdir().unwrap();
    for variant in ["none", "local", "casts", "infer"] {
        let insensitive = analyze(dir.path(), variant, "insensitive");
        let count = |db: &str| refract(&["query", db, ".count reach"]);
        for kind in ["1-call-site", "1-object"] {
            let db = analyze(dir.path(), variant, kind);
            assert_eq!(count(&insensitive), count(&db), "{variant}, {kind}");
        }
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
        err.contains("unknown context kind \"2-type\" (insensitive, 1-call-site, 1-object)"),
        "{err}"
    );
}
