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
    analyze_scoped(dir, main, variant, kind, "all")
}

/// [`analyze_main`] with the objects of `--context-scope scope` as
/// contexts.
fn analyze_scoped(dir: &Path, main: &str, variant: &str, kind: &str, scope: &str) -> String {
    let classes = root().join("fixtures/classes/contexts");
    let db = dir
        .join(format!("{main}-{variant}-{kind}-{scope}.db"))
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
        "--context-scope",
        scope,
        "-q",
        "-o",
        &db,
    ]);
    db
}

/// The targets of the two `draw()` calls in `main`, as `bci target` lines.
fn draws(db: &str) -> Vec<String> {
    interface_calls(db, "<Contexts$Shape: java.lang.String draw()>")
}

/// The targets of `main`'s interface calls of `method`, as sorted
/// `bci target` lines.
fn interface_calls(db: &str, method: &str) -> Vec<String> {
    let out = refract(&[
        "query",
        db,
        &format!(r#"d(i, m) :- IE(i, m), Iref(i, "{method}")."#),
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
/// loads both classes. Under `1-object` and `2-object`, `value()` runs
/// once per holder, and each call gets its own holder's value. Under
/// `2-type` the holders, which one class makes, are one context.
#[test]
fn one_object_separates_the_calls_of_a_method_on_two_receivers() {
    let dir = tempfile::tempdir().unwrap();
    let main = "Contexts\tmain\t([Ljava/lang/String;)V";
    for kind in ["insensitive", "2-type"] {
        let db = analyze(dir.path(), "points-to", kind);
        assert_eq!(
            draws(&db),
            [
                "37 <Contexts$Circle: java.lang.String draw()>",
                "37 <Contexts$Square: java.lang.String draw()>",
                "50 <Contexts$Circle: java.lang.String draw()>",
                "50 <Contexts$Square: java.lang.String draw()>",
            ],
            "{kind}"
        );
        assert_eq!(
            refract(&["export", "targets", &db]),
            format!(
                "{HEADER}{main}\t84\t48\tClass.forName\tContexts$Circle\n\
                 {main}\t84\t48\tClass.forName\tContexts$Square\n\
                 {main}\t96\t49\tClass.forName\tContexts$Circle\n\
                 {main}\t96\t49\tClass.forName\tContexts$Square\n"
            ),
            "{kind}"
        );
    }
    for kind in [
        "2-object",
        "1-call-site",
        "2-call-site",
        "cloning",
        "1-object",
    ] {
        let db = analyze(dir.path(), "points-to", kind);
        assert_eq!(
            draws(&db),
            [
                "37 <Contexts$Circle: java.lang.String draw()>",
                "50 <Contexts$Square: java.lang.String draw()>",
            ],
            "{kind}"
        );
        assert_eq!(
            refract(&["export", "targets", &db]),
            format!(
                "{HEADER}{main}\t84\t48\tClass.forName\tContexts$Circle\n\
                 {main}\t96\t49\tClass.forName\tContexts$Square\n"
            ),
            "{kind}"
        );
    }
    let db = analyze(dir.path(), "points-to", "1-object");
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
/// both names at both calls without contexts and under the object and
/// type kinds (a static method runs in its caller's context, here no
/// object's). Under
/// `1-call-site`, `2-call-site` and `cloning` it runs once per site,
/// and each `Class.forName` loads its own class.
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
    for kind in ["insensitive", "1-object", "2-object", "2-type"] {
        let db = analyze_main(dir.path(), "CallSites", "points-to", kind);
        assert_eq!(refract(&["export", "targets", &db]), both, "{kind}");
    }
    for kind in ["cloning", "2-call-site", "1-call-site"] {
        let db = analyze_main(dir.path(), "CallSites", "points-to", kind);
        assert_eq!(
            refract(&["export", "targets", &db]),
            format!(
                "{HEADER}{main}\t8\t27\tClass.forName\tCallSites$First\n\
                 {main}\t20\t28\tClass.forName\tCallSites$Second\n"
            ),
            "{kind}"
        );
    }
    let db = analyze_main(dir.path(), "CallSites", "points-to", "1-call-site");
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

/// `Paths.wrap(o)` calls `id(o)` from its one site: one level of call
/// sites gives `id` one context, which returns both names to both calls
/// of `wrap`. Under `cloning` every path from `main` is a context, and
/// each `Class.forName` loads its own class; under `2-call-site`, each
/// pair of sites (`id`'s in `wrap`, `wrap`'s in `main`). The recursive `count` is a
/// cycle of the call graph: it shares the contexts of its calls from
/// `main`, two, with its own call.
#[test]
fn cloning_separates_the_paths_that_one_call_site_merges() {
    let dir = tempfile::tempdir().unwrap();
    let main = "Paths\tmain\t([Ljava/lang/String;)V";
    let row = |bci: u32, line: u32, class: &str| {
        format!("{main}\t{bci}\t{line}\tClass.forName\tPaths${class}\n")
    };
    for kind in refract::analysis::Context::ALL.map(|c| c.name()) {
        let db = analyze_main(dir.path(), "Paths", "points-to", kind);
        let expected = if ["cloning", "2-call-site"].contains(&kind) {
            format!("{HEADER}{}{}", row(8, 40, "First"), row(20, 41, "Second"))
        } else {
            format!(
                "{HEADER}{}{}{}{}",
                row(8, 40, "First"),
                row(8, 40, "Second"),
                row(20, 41, "First"),
                row(20, 41, "Second")
            )
        };
        assert_eq!(refract(&["export", "targets", &db]), expected, "{kind}");
    }
    // The maps of the call edges: caller's context, callee's. `main`'s
    // two calls of `wrap` (and of `forName`, and of `count`) give their
    // callee contexts 0 and 1; `wrap`'s call of `id` and `count`'s own
    // call keep each context.
    let db = analyze_main(dir.path(), "Paths", "points-to", "cloning");
    let wrap = "<Paths: java.lang.Object wrap(java.lang.Object)>";
    let id = "<Paths: java.lang.Object id(java.lang.Object)>";
    let count = "<Paths: int count(int)>";
    let for_name = "<java.lang.Class: java.lang.Class forName(java.lang.String)>";
    let at = |m: &str, bci: u32, line: u32, callee: &str| {
        format!("{m}[{bci}@L{line}] invokestatic {callee}\t{callee}")
    };
    let main_m = "<Paths: void main(java.lang.String[])>";
    assert_eq!(
        refract(&["export", "relation", "IEc", &db]),
        format!(
            "invoke\ttarget\tcaller\tcallee\n\
             {}\t0\t0\n{}\t1\t1\n{}\t0\t0\n{}\t1\t1\n\
             {}\t0\t0\n{}\t0\t0\n{}\t0\t1\n{}\t0\t1\n{}\t0\t0\n{}\t0\t1\n",
            at(wrap, 1, 30, id),
            at(wrap, 1, 30, id),
            at(count, 12, 36, count),
            at(count, 12, 36, count),
            at(main_m, 2, 40, wrap),
            at(main_m, 8, 40, for_name),
            at(main_m, 14, 41, wrap),
            at(main_m, 20, 41, for_name),
            at(main_m, 26, 42, count),
            at(main_m, 31, 43, count),
        )
    );
    // `main` in context 0; `wrap`, `id`, `count` and `forName` in two.
    let out = refract(&["query", &db, ".count creach"]);
    assert_eq!(out, "creach: 9 tuples\n");
    // The report names the kind.
    let report = refract(&["report", &db]);
    assert!(
        report.starts_with("reflection variant: points-to, context cloning\n"),
        "{report}"
    );
}

/// Reflection in contexts: `Wrappers.make(name)`, a static wrapper
/// around `Class.forName(name).newInstance()`, is called with two names,
/// and `Maker.make()` does the same with the name of its receiver. The
/// class a name loads, and the object a Class object makes, are returned
/// in the contexts where the argument holds that name or that Class
/// object: the call-site kinds give each call of either wrapper its own
/// class, the object kinds each maker (2-type merges the makers, which
/// one class allocates). The `name()` call on each result then
/// dispatches to its own class alone.
#[test]
fn a_reflective_wrapper_makes_each_caller_its_own_class() {
    let dir = tempfile::tempdir().unwrap();
    let name = |class: &str| format!("<Wrappers${class}: java.lang.String name()>");
    let (first, second) = (name("First"), name("Second"));
    for kind in refract::analysis::Context::ALL.map(|c| c.name()) {
        let db = analyze_main(dir.path(), "Wrappers", "points-to", kind);
        let rows = interface_calls(&db, "<Wrappers$Named: java.lang.String name()>");
        let statics_apart = kind.ends_with("-call-site") || kind == "cloning";
        let makers_apart = statics_apart || kind.ends_with("-object");
        let mut expected = Vec::new();
        for (bci, own, apart) in [
            (19, &first, statics_apart),
            (26, &second, statics_apart),
            (66, &first, makers_apart),
            (74, &second, makers_apart),
        ] {
            if apart {
                expected.push(format!("{bci} {own}"));
            } else {
                expected.push(format!("{bci} {first}"));
                expected.push(format!("{bci} {second}"));
            }
        }
        assert_eq!(rows, expected, "{kind}");
    }
}

/// Objects that reflection creates carry the heap context of the method
/// that creates them, and their constructor runs in their own context:
/// `NewObjects` makes two boxes by `Class.newInstance` (each in its own
/// factory) and two by `Constructor.newInstance` (each in its own
/// builder), and fills each with its own item. 2-object and 2-call-site
/// keep the boxes apart, so each `get()` dispatches to its own item's
/// `name()`; the other kinds merge them. The label that the box's
/// constructor stores is found in every kind, and every kind exports the
/// same reflective targets.
#[test]
fn objects_that_reflection_creates_take_the_heap_context_of_their_site() {
    let dir = tempfile::tempdir().unwrap();
    let name = |class: &str| format!("<NewObjects${class}: java.lang.String name()>");
    let (first, second, label) = (name("First"), name("Second"), name("Label"));
    let targets = format!(
        "{HEADER}\
         NewObjects$Builder\tmake\t()LNewObjects$Box;\t6\t62\tClass.getConstructor\tNewObjects$Box.<init>\n\
         NewObjects$Builder\tmake\t()LNewObjects$Box;\t13\t62\tConstructor.newInstance\tNewObjects$Box.<init>()V\n\
         NewObjects$Factory\tmake\t()LNewObjects$Box;\t2\t56\tClass.newInstance\tNewObjects$Box\n"
    );
    for kind in refract::analysis::Context::ALL.map(|c| c.name()) {
        let db = analyze_main(dir.path(), "NewObjects", "points-to", kind);
        let rows = interface_calls(&db, "<NewObjects$Named: java.lang.String name()>");
        let apart = kind == "2-object" || kind == "2-call-site";
        let mut expected = vec![format!("77 {label}"), format!("164 {label}")];
        for (bci, own) in [(51, &first), (64, &second), (136, &first), (150, &second)] {
            if apart {
                expected.push(format!("{bci} {own}"));
            } else {
                expected.push(format!("{bci} {first}"));
                expected.push(format!("{bci} {second}"));
            }
        }
        expected.sort();
        assert_eq!(rows, expected, "{kind}");
        assert_eq!(refract(&["export", "targets", &db]), targets, "{kind}");
    }
}

/// The heap contexts that `query`'s one-column answer `g` lists, sorted.
fn heap_contexts(db: &str, rule: &str) -> Vec<String> {
    let out = refract(&["query", db, rule, "g(x)?"]);
    let mut rows: Vec<String> = (out.lines().skip(2))
        .filter(|l| !l.ends_with("tuple") && !l.ends_with("tuples"))
        .map(|l| l.trim().to_string())
        .collect();
    rows.sort();
    rows
}

/// A lookup returns a fresh metaobject (the JVM copies a Constructor,
/// Method or Field object for every lookup), so under the kinds with a
/// heap context the Constructor object that `NewObjects$Builder.make`
/// looks up is an allocation of `make`: its heap contexts are the two
/// builders (2-object), the two calls of `make` (2-call-site), or the
/// class that allocates the builders (2-type). A Class object is one per
/// class, as in the JVM: the class that `Wrappers` loads by name has the
/// heap context of no object in every kind, as the class constants do.
#[test]
fn metaobjects_that_a_lookup_returns_take_the_heap_context_of_its_method() {
    let dir = tempfile::tempdir().unwrap();
    let main = "<NewObjects: void main(java.lang.String[])>";
    let ctor = r#"g(x) :- methodObject(k, "<NewObjects$Box: void <init>()>"), cvP(_, _, _, x, k)."#;
    let class = r#"g(x) :- classObject(c, "Wrappers$First"), cvP(_, _, _, x, c)."#;
    for (kind, contexts, none) in [
        (
            "2-object",
            vec![
                format!("{main}[83@L74] new NewObjects$Builder"),
                format!("{main}[94@L75] new NewObjects$Builder"),
            ],
            "<global>",
        ),
        (
            "2-call-site",
            vec![
                format!(
                    "{main}[101@L75] invokevirtual <NewObjects$Builder: NewObjects$Box make()>"
                ),
                format!("{main}[90@L74] invokevirtual <NewObjects$Builder: NewObjects$Box make()>"),
            ],
            "<no call site>",
        ),
        ("2-type", vec!["NewObjects".to_string()], "<no type>"),
    ] {
        let db = analyze_main(dir.path(), "NewObjects", "points-to", kind);
        assert_eq!(heap_contexts(&db, ctor), contexts, "{kind}");
        let db = analyze_main(dir.path(), "Wrappers", "points-to", kind);
        assert_eq!(heap_contexts(&db, class), vec![none.to_string()], "{kind}");
    }
}

/// Analyses the fixture `main` (`Containers`, `Factories`: two pairs,
/// each with a box that holds a class name) under every context kind.
/// The kinds of `apart` give each of `main`'s two `forName` calls (at
/// `calls`, bytecode index and line) its own pair's class, the others
/// both classes at both. Returns the database of `apart`'s last kind.
fn two_pairs(dir: &Path, main: &str, calls: [(u32, u32); 2], apart: &[&str]) -> String {
    let caller = format!("{main}\tmain\t([Ljava/lang/String;)V");
    let row = |k: usize, class: &str| {
        let (bci, line) = calls[k];
        format!("{caller}\t{bci}\t{line}\tClass.forName\t{main}${class}\n")
    };
    let separate = format!("{HEADER}{}{}", row(0, "First"), row(1, "Second"));
    let merged = format!(
        "{HEADER}{}{}{}{}",
        row(0, "First"),
        row(0, "Second"),
        row(1, "First"),
        row(1, "Second")
    );
    let mut last = String::new();
    for kind in refract::analysis::Context::ALL.map(|c| c.name()) {
        let db = analyze_main(dir, main, "points-to", kind);
        let expected = if apart.contains(&kind) {
            &separate
        } else {
            &merged
        };
        let got = refract(&["export", "targets", &db]);
        assert_eq!(&got, expected, "{main}, {kind}");
        if apart.last() == Some(&kind) {
            last = db;
        }
    }
    last
}

/// Two containers of one class, each made by its own object: without a
/// heap context the two boxes are one object, and both names reach both
/// `forName` calls under every kind but `2-object` and `2-call-site`.
/// Under `2-object` each box has its pair as heap context, its field
/// holds that pair's name only, and `set` and `get` run once per (box,
/// pair); under `2-call-site`, each box the site in `main` that called
/// its pair's constructor. Under `2-type` the two pairs, which one class
/// makes, are one context.
#[test]
fn two_object_separates_the_containers_that_two_objects_make() {
    let dir = tempfile::tempdir().unwrap();
    let db = two_pairs(
        dir.path(),
        "Containers",
        [(35, 46), (46, 47)],
        &["2-call-site", "2-object"],
    );
    // The fields with their heap contexts: `main`'s command line holds
    // input text; each pair (allocated by
    // `main`, in the context of no object) holds a box whose heap context
    // is that pair, and each box's item is its own pair's name.
    let one = "<Containers: void main(java.lang.String[])>[0@L42] new Containers$Pair";
    let two = "<Containers: void main(java.lang.String[])>[8@L43] new Containers$Pair";
    let boxed = "<Containers$Pair: void <init>()>[5@L30] new Containers$Box";
    let field = "<Containers$Pair: Containers$Box box>";
    let item = "<Containers$Box: java.lang.Object item>";
    assert_eq!(
        refract(&["export", "relation", "chP", &db]),
        format!(
            "baseContext\tbase\tfield\ttargetContext\ttarget\n\
             <global>\t<Containers: void main(java.lang.String[])> <command line>\t[]\t<global>\t<command line argument>\n\
             <global>\t{one}\t{field}\t{one}\t{boxed}\n\
             <global>\t{two}\t{field}\t{two}\t{boxed}\n\
             {one}\t{boxed}\t{item}\t<global>\t\"Containers$First\"\n\
             {two}\t{boxed}\t{item}\t<global>\t\"Containers$Second\"\n"
        )
    );
    // `main` and `forName` in the context of no object; each pair's four
    // methods in (pair, no object); each box's four in (box, pair).
    let out = refract(&["query", &db, ".count creach"]);
    assert_eq!(out, "creach: 18 tuples\n");
    // Under `2-call-site` the boxes' heap contexts are the calls of the
    // pairs' constructors.
    let db = analyze_main(dir.path(), "Containers", "points-to", "2-call-site");
    let new = |bci: u32, line: u32| {
        format!("<Containers: void main(java.lang.String[])>[{bci}@L{line}] invokespecial <Containers$Pair: void <init>()>")
    };
    assert_eq!(
        refract(&["export", "relation", "chP", &db]),
        format!(
            "baseContext\tbase\tfield\ttargetContext\ttarget\n\
             {}\t{boxed}\t{item}\t<no call site>\t\"Containers$First\"\n\
             {}\t{boxed}\t{item}\t<no call site>\t\"Containers$Second\"\n\
             <no call site>\t<Containers: void main(java.lang.String[])> <command line>\t[]\t<no call site>\t<command line argument>\n\
             <no call site>\t{one}\t{field}\t{}\t{boxed}\n\
             <no call site>\t{two}\t{field}\t{}\t{boxed}\n",
            new(4, 42),
            new(12, 43),
            new(4, 42),
            new(12, 43),
        )
    );
}

/// Two containers that two classes make: the boxes are one object
/// without a heap context, and both names reach both `forName` calls.
/// Under `2-object` each box has its pair as heap context; under
/// `2-type`, the class that made its pair, and `set` and `get` run once
/// per (box's class, pair's maker).
#[test]
fn two_type_separates_the_containers_that_two_classes_make() {
    let dir = tempfile::tempdir().unwrap();
    let apart = ["2-call-site", "2-object", "2-type"];
    let db = two_pairs(dir.path(), "Factories", [(41, 60), (52, 61)], &apart);
    // The heap contexts are classes: each pair's box has the class that
    // made the pair, and each pair the class whose `main` made it (in
    // the context of no type, as the names are).
    let boxed = "<Factories$Pair: void <init>()>[5@L32] new Factories$Box";
    let item = "<Factories$Box: java.lang.Object item>";
    let field = "<Factories$Pair: Factories$Box box>";
    let left = "<Factories$Left: Factories$Pair make()>[0@L45] new Factories$Pair";
    let right = "<Factories$Right: Factories$Pair make()>[0@L51] new Factories$Pair";
    assert_eq!(
        refract(&["export", "relation", "chP", &db]),
        format!(
            "baseContext\tbase\tfield\ttargetContext\ttarget\n\
             Factories$Left\t{boxed}\t{item}\t<no type>\t\"Factories$First\"\n\
             Factories$Right\t{boxed}\t{item}\t<no type>\t\"Factories$Second\"\n\
             Factories\t{left}\t{field}\tFactories$Left\t{boxed}\n\
             Factories\t{right}\t{field}\tFactories$Right\t{boxed}\n\
             <no type>\t<Factories: void main(java.lang.String[])> <command line>\t[]\t<no type>\t<command line argument>\n"
        )
    );
    // `main` and `forName` in the context of no type; the makers' two
    // methods and `Object.<init>` in (Factories, no type); each pair's
    // four in (its maker, Factories); each box's four in (Pair, its
    // pair's maker).
    let out = refract(&["query", &db, ".count creach"]);
    assert_eq!(out, "creach: 23 tuples\n");
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
    for kind in ["insensitive", "1-object", "2-object", "2-type"] {
        let db = analyze_main(dir.path(), "Copies", "points-to", kind);
        assert_eq!(refract(&["export", "targets", &db]), merged, "{kind}");
    }
    for kind in ["1-call-site", "2-call-site", "cloning"] {
        let db = analyze_main(dir.path(), "Copies", "points-to", kind);
        assert_eq!(
            refract(&["export", "targets", &db]),
            format!(
                "{direct}{main}\t73\t18\tClass.forName\tCopies$B\n\
                 {main}\t83\t19\tClass.forName\tCopies$C\n"
            ),
            "{kind}"
        );
    }
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
        for kind in [
            "1-call-site",
            "2-call-site",
            "1-object",
            "2-object",
            "2-type",
            "cloning",
        ] {
            let db = analyze(dir.path(), variant, kind);
            assert_eq!(count(&insensitive), count(&db), "{variant}, {kind}");
        }
        for kind in ["1-object", "2-object", "2-type"] {
            let db = analyze_scoped(dir.path(), "Contexts", variant, kind, "application");
            assert_eq!(
                count(&insensitive),
                count(&db),
                "{variant}, {kind}, application"
            );
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
        "3-type",
        "-o",
        "x.db",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "unknown context kind \"3-type\" (insensitive, 1-call-site, 2-call-site, 1-object, 2-object, 2-type, cloning)"
        ),
        "{err}"
    );
}

/// A JDK home under `dir` whose `jmods/` holds the local JDK's java.base
/// alone (scripts/install-test-deps.sh installs the JDK).
fn java_base(dir: &Path) -> String {
    let mods = refract::classpath::jdk::jmods(&refract::classpath::jdk::JdkChoice::Auto)
        .expect("a JDK with jmods (scripts/install-test-deps.sh)");
    let jmod = mods
        .iter()
        .find(|m| m.file_name().is_some_and(|n| n == "java.base.jmod"))
        .expect("java.base.jmod");
    let home = dir.join("jdk");
    std::fs::create_dir_all(home.join("jmods")).unwrap();
    std::os::unix::fs::symlink(jmod, home.join("jmods/java.base.jmod")).unwrap();
    home.display().to_string()
}

/// `--context-scope application` against java.base: the JDK's code runs
/// in contexts only under the application's objects (or, under 2-type,
/// their classes), so two holders that `Optional.of` makes for two
/// application objects are two objects under 2-object and 2-type, and
/// one without a heap context; and the contexts are exactly those.
#[test]
fn the_application_scope_gives_the_jdks_code_contexts_only_under_the_applications_objects() {
    let dir = tempfile::tempdir().unwrap();
    let jdk = java_base(dir.path());
    let classes = root().join("fixtures/classes/contexts");
    let main = "JdkHolders\tmain\t([Ljava/lang/String;)V";
    let merged = format!(
        "{HEADER}{main}\t25\t45\tClass.forName\tJdkHolders$First\n\
         {main}\t25\t45\tClass.forName\tJdkHolders$Second\n\
         {main}\t36\t46\tClass.forName\tJdkHolders$First\n\
         {main}\t36\t46\tClass.forName\tJdkHolders$Second\n"
    );
    let apart = format!(
        "{HEADER}{main}\t25\t45\tClass.forName\tJdkHolders$First\n\
         {main}\t36\t46\tClass.forName\tJdkHolders$Second\n"
    );
    let left = "<JdkHolders$Left: JdkHolders$Left create()>[0@L24] new JdkHolders$Left";
    let right = "<JdkHolders$Right: JdkHolders$Right create()>[0@L34] new JdkHolders$Right";
    let object_contexts = [
        ("<global>", "<global>"),
        ("<global>", left),
        ("<global>", right),
        (left, "<global>"),
        (right, "<global>"),
    ];
    let type_contexts = [
        ("JdkHolders$Left", "<no type>"),
        ("JdkHolders$Right", "<no type>"),
        ("<no type>", "JdkHolders$Left"),
        ("<no type>", "JdkHolders$Right"),
        ("<no type>", "<no type>"),
    ];
    for (kind, expected, contexts) in [
        ("insensitive", &merged, &[][..]),
        ("1-object", &merged, &[][..]),
        ("2-object", &apart, &object_contexts[..]),
        ("2-type", &apart, &type_contexts[..]),
    ] {
        let db = dir.path().join(format!("{kind}.db")).display().to_string();
        let mut args = vec![
            "analyze",
            classes.to_str().unwrap(),
            "--main",
            "JdkHolders",
            "--jdk",
            &jdk,
            "--reflection",
            "points-to",
            "--context",
            kind,
        ];
        if kind != "insensitive" {
            args.extend(["--context-scope", "application"]);
        }
        args.extend(["-q", "-o", &db]);
        refract(&args);
        let targets = refract(&["export", "targets", &db]);
        let ours: String = targets
            .lines()
            .filter(|l| l.starts_with("JdkHolders\t") || l.starts_with("caller_class"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(&ours, expected, "{kind}");
        if contexts.is_empty() {
            continue;
        }
        let found = refract(&[
            "query",
            &db,
            "k(c, d) :- creach(c, d, _).",
            "k(c, d)?",
            "--limit",
            "0",
        ]);
        let rows: Vec<(String, String)> = found
            .lines()
            .skip(2)
            .filter(|l| l.contains(" | "))
            .map(|l| {
                let (c, d) = l.split_once(" | ").unwrap();
                (c.trim().to_string(), d.trim().to_string())
            })
            .collect();
        let want: Vec<(String, String)> = contexts
            .iter()
            .map(|(c, d)| (c.to_string(), d.to_string()))
            .collect();
        assert_eq!(rows, want, "{kind}: {found}");
    }
    let report = refract(&[
        "report",
        &dir.path().join("2-type.db").display().to_string(),
    ]);
    assert!(
        report.contains("context 2-type (application objects)"),
        "{report}"
    );
}

/// The sorted rows of relation `rel` exported from `db` that start with
/// `prefix` (`<C: ` for the variables or methods of class `C`).
fn rows_of(db: &str, rel: &str, prefix: &str) -> Vec<String> {
    let mut rows: Vec<String> = refract(&["export", "relation", rel, db])
        .lines()
        .filter(|l| l.starts_with(prefix))
        .map(str::to_string)
        .collect();
    rows.sort();
    rows
}

/// Exceptions along call edges, against java.base (whose `Throwable`
/// the type filter needs). Without contexts, each method's `thrown`
/// variable holds in `vPthrown` all that the method throws, its own
/// `throw`s and its callees', and in `vP` its own `throw`s alone; the
/// handler in `caught()` receives what `relay()` passes up from
/// `fail()`, and its class chooses the `describe` that runs. Under
/// `1-call-site`, whose rules copy exceptions into `vP` along each call
/// edge, the handler holds the same object and the same methods run.
#[test]
fn a_method_throws_what_its_callees_throw_and_a_handler_catches_it() {
    let dir = tempfile::tempdir().unwrap();
    let jdk = java_base(dir.path());
    let classes = root().join("fixtures/classes/contexts");
    let analyze = |kind: &str| {
        let db = dir.path().join(format!("{kind}.db")).display().to_string();
        refract(&[
            "analyze",
            classes.to_str().unwrap(),
            "--main",
            "Exceptions",
            "--jdk",
            &jdk,
            "--reflection",
            "none",
            "--context",
            kind,
            "-q",
            "-o",
            &db,
        ]);
        db
    };
    let oops = "<exception Exceptions$Oops>";
    let other = "<exception Exceptions$Other>";
    let fail = "<Exceptions: void fail()>";
    let fail_other = "<Exceptions: void failOther()>";
    let relay = "<Exceptions: void relay()>";
    let caught = "<Exceptions: java.lang.String caught()>";
    let main = "<Exceptions: void main(java.lang.String[])>";
    let db = analyze("insensitive");
    assert_eq!(
        rows_of(&db, "vPthrown", "<Exceptions: "),
        vec![
            format!("{caught}/thrown\t{oops}"),
            format!("{fail}/thrown\t{oops}"),
            format!("{fail_other}/thrown\t{other}"),
            format!("{main}/thrown\t{oops}"),
            format!("{main}/thrown\t{other}"),
            format!("{relay}/thrown\t{oops}"),
        ]
    );
    // The handler's variable receives the call's exceptions directly.
    let caught_rows = [format!("{caught}/catch@6\t{oops}")];
    let exception_rows = |db: &str| -> Vec<String> {
        rows_of(db, "vP", "<Exceptions: ")
            .into_iter()
            .filter(|l| l.contains("<exception "))
            .collect()
    };
    // The allocations (`s@0`) and the two own `throw`s.
    let mut own = vec![
        format!("{fail}/s@0\t{oops}"),
        format!("{fail}/thrown\t{oops}"),
        format!("{fail_other}/s@0\t{other}"),
        format!("{fail_other}/thrown\t{other}"),
    ];
    own.extend(caught_rows.iter().cloned());
    own.sort();
    assert_eq!(exception_rows(&db), own);
    // The methods of Exceptions and of its nested classes.
    let reached = |db: &str| rows_of(db, "reach", "<Exceptions");
    let methods = vec![
        "<Exceptions$Oops: java.lang.String describe()>".to_string(),
        "<Exceptions$Oops: void <init>()>".to_string(),
        "<Exceptions$Other: void <init>()>".to_string(),
        caught.to_string(),
        fail.to_string(),
        fail_other.to_string(),
        main.to_string(),
        relay.to_string(),
    ];
    assert_eq!(reached(&db), methods);
    let db = analyze("1-call-site");
    assert_eq!(reached(&db), methods);
    let handler: Vec<String> = exception_rows(&db)
        .into_iter()
        .filter(|l| l.starts_with(&format!("{caught}/catch")))
        .collect();
    assert_eq!(handler, caught_rows);
}

/// The scope chooses among objects: with another kind it is refused.
#[test]
fn an_application_scope_needs_an_object_or_type_kind() {
    let out = run(&[
        "analyze",
        "x.jar",
        "--main",
        "A",
        "--context",
        "1-call-site",
        "--context-scope",
        "application",
        "-o",
        "x.db",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --context-scope application chooses among objects; it needs --context 1-object, 2-object or 2-type, not 1-call-site\n"
    );
}
