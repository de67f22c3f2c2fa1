//! `refract check`: a database measured against traces, with exact
//! recall, missed edges and their reasons (`tests/data/traces/`, written
//! by hand from the formats' descriptions; `tests/expected/check/`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn refract(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_refract"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

/// The reflection fixtures analysed with these main classes, without
/// the JDK, into `db`, under `points-to`: the paper's variant leaves
/// SpecInput's name read from input unresolved, which the reports below
/// show.
fn analyze(mains: &[&str], db: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_refract"))
        .arg("analyze")
        .arg(root().join("fixtures/classes/reflection"))
        .args(mains.iter().flat_map(|m| ["--main", m]))
        .args(["--jdk", "none", "--reflection", "points-to", "-q", "-o"])
        .arg(db)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Invoke and SpecInput analysed together, once for all tests (built
/// under a lock; each test reads it only).
fn db() -> &'static PathBuf {
    static DB: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &DB.get_or_init(|| {
        // Statics are never dropped: the directory is kept under the
        // target directory, which `cargo clean` removes, not in /tmp.
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let db = dir.path().join("chk.db");
        analyze(&["Invoke", "SpecInput"], &db);
        (dir, db)
    })
    .1
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(root().join("tests/expected/check").join(name)).unwrap()
}

fn check(args: &[&str]) -> Output {
    let db = db().display().to_string();
    let mut all = vec!["check", &db];
    all.extend_from_slice(args);
    refract(&all)
}

/// `refract check DB TRACE... --format tsv`, which must succeed: its TSV.
fn check_tsv(db: &str, traces: &[&str]) -> String {
    let o = refract(&[&["check", db], traces, &["--format", "tsv"]].concat());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// The (api, target, outcome) of each application caller's edge in the
/// TSV of `refract check`.
fn application_outcomes(tsv: &str) -> Vec<(&str, &str, &str)> {
    tsv.lines()
        .skip(1)
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|c| c[7] == "application")
        .map(|c| (c[5], c[6], c[8]))
        .collect()
}

/// `refract check` of a trace of `rows` (after the TSV header), with
/// `options`, against the checked database: its output.
fn check_rows(rows: &str, options: &[&str]) -> String {
    let t = tempfile::tempdir().unwrap();
    let trace = t.path().join("trace.tsv");
    let header = "caller_class\tcaller_method\tcaller_desc\tbci\tapi\ttarget\n";
    std::fs::write(&trace, format!("{header}{rows}")).unwrap();
    let mut args = vec![trace.display().to_string()];
    args.extend(options.iter().map(|o| o.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = check(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

/// Each edge's target and outcome in [`check_rows`]' TSV output.
fn target_outcomes(rows: &str) -> Vec<(String, String)> {
    (check_rows(rows, &["--format", "tsv"]).lines().skip(1))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .map(|c| (c[6].to_string(), c[8].to_string()))
        .collect()
}

/// Owned pairs, to compare with [`target_outcomes`].
fn pairs(p: &[(&str, &str)]) -> Vec<(String, String)> {
    p.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn a_tsv_trace_gives_recall_and_every_missed_edge_with_its_reason() {
    let o = check(&["tests/data/traces/invoke-specinput.tsv"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        expected("invoke-specinput.txt")
    );
    let o = check(&["tests/data/traces/invoke-specinput.tsv", "--format", "tsv"]);
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        expected("invoke-specinput.tsv")
    );
}

#[test]
fn a_tamiflex_log_is_matched_by_method_and_line() {
    let o = check(&["tests/data/traces/invoke.refl.log"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        expected("invoke-refl.txt")
    );
    let o = check(&["tests/data/traces/invoke.refl.log", "--format", "json"]);
    let json = String::from_utf8(o.stdout).unwrap();
    assert!(
        json.starts_with("{\"found\": 3, \"traced\": 5, \"traced_sites\": 5, \"matched_sites\": 4, \"static_edges\": 3,"),
        "{json}"
    );
}

#[test]
fn min_recall_gates_the_exit_code() {
    let o = check(&["tests/data/traces/invoke.refl.log", "--min-recall", "0.9"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(o.stderr).unwrap(),
        "error: recall 3/5 is below --min-recall 0.9\n"
    );
    let o = check(&["tests/data/traces/invoke.refl.log", "--min-recall", "0.6"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn bad_traces_are_refused_with_their_line_and_foreign_ones_are_said() {
    let t = tempfile::tempdir().unwrap();
    let bad = t.path().join("bad.tsv");
    std::fs::write(
        &bad,
        "caller_class\tcaller_method\tcaller_desc\tbci\tapi\ttarget\nA\tm\t()V\t1\tClass.forName\n",
    )
    .unwrap();
    let o = check(&[&bad.display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(o.stderr).unwrap(),
        format!(
            "error: {}:2: 5 columns, but the header has 6\n",
            bad.display()
        )
    );
    let other = t.path().join("other.log");
    std::fs::write(&other, "Class.forName;x.Y;org.other.App.main;12\n").unwrap();
    let o = check(&[&other.display().to_string()]);
    assert_eq!(o.status.code(), Some(0));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("1 edges at 1 sites; 0 of the sites are reachable in the database\nnote: no traced site is a reachable site of this database (a trace of another program?)\n"),
        "{text}"
    );
}

/// A lookup of a member that the receiver's class and its supertypes do
/// not declare threw (NoSuchMethodException): it is counted with the
/// calls that threw, not as a missed edge; a member a supertype declares
/// (r.Upper's run, from r.Plugin too) is judged as usual.
#[test]
fn lookups_of_missing_members_are_calls_that_threw() {
    let rows = "Invoke\tmain\t([Ljava/lang/String;)V\t900\tClass.getMethod\tr.Upper.__get__\n\
                Invoke\tmain\t([Ljava/lang/String;)V\t901\tClass.getDeclaredField\tr.Upper.nosuch\n\
                Invoke\tmain\t([Ljava/lang/String;)V\t902\tClass.getMethod\tr.Upper.run\n\
                Invoke\tmain\t([Ljava/lang/String;)V\t903\tClass.getDeclaredField\tr.Upper.prefix\n";
    assert_eq!(
        target_outcomes(rows),
        pairs(&[
            ("r.Upper.__get__", "failed"),
            ("r.Upper.nosuch", "failed"),
            ("r.Upper.run", "not-in-class-path"),
            ("r.Upper.prefix", "not-in-class-path"),
        ])
    );
    let text = check_rows(rows, &[]);
    assert!(
        text.contains("calls that threw (a missing class or member): 2\n"),
        "{text}"
    );
}

/// A constructor lookup threw when the class has no constructor that
/// the lookup can return: `Introspection` asks each attribute type for a
/// `(String)` constructor at bci 80, which `Task` lacks and `Target` and
/// `Path` have; the interface `r.Plugin` has no constructor at all. (The
/// `points-to` variant leaves the site unresolved.)
#[test]
fn lookups_of_constructors_the_class_lacks_are_calls_that_threw() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ctors.db");
    analyze(&["Introspection"], &db);
    let t = dir.path().join("trace.tsv");
    let site = "Introspection\tmain\t([Ljava/lang/String;)V\t80\tClass.getConstructor";
    let rows = [
        "Introspection$Task",
        "Introspection$Target",
        "r.Plugin",
        "Introspection$Path",
    ]
    .map(|c| format!("{site}\t{c}.<init>\n"))
    .concat();
    let header = "caller_class\tcaller_method\tcaller_desc\tbci\tapi\ttarget\n";
    std::fs::write(&t, format!("{header}{rows}")).unwrap();
    let out = check_tsv(&db.display().to_string(), &[&t.display().to_string()]);
    let got: Vec<(&str, &str)> = (out.lines().skip(1))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .map(|c| (c[6], c[8]))
        .collect();
    assert_eq!(
        got,
        [
            ("Introspection$Task.<init>", "failed"),
            ("Introspection$Target.<init>", "unresolved"),
            ("r.Plugin.<init>", "failed"),
            ("Introspection$Path.<init>", "unresolved"),
        ],
        "{out}"
    );
}

/// A load by name of a class that the class path does not define threw
/// (ClassNotFoundException), as `ResourceBundle` loading a bundle kept in
/// a `.properties` file does; a tracer marks only a failed `forName`. A
/// defined class (here an interface) and an array class are judged as
/// usual.
#[test]
fn loads_of_classes_the_class_path_lacks_are_calls_that_threw() {
    let rows = "Invoke\tmain\t([Ljava/lang/String;)V\t900\tClassLoader.loadClass\tr.Messages_fr\n\
                Invoke\tmain\t([Ljava/lang/String;)V\t901\tClass.forName\tr.Plugin\n\
                Invoke\tmain\t([Ljava/lang/String;)V\t902\tClass.forName\t[Lr.Upper;\n";
    assert_eq!(
        target_outcomes(rows),
        pairs(&[
            ("r.Messages_fr", "failed"),
            ("r.Plugin", "not-in-class-path"),
            ("r.Upper[]", "not-in-class-path"),
        ])
    );
}

/// A trace is a specification in every variant (here `points-to`): its
/// edges resolve the sites the analysis alone leaves open; what the class path
/// lacks (a generated lambda, a JDK launcher) and forName calls that
/// threw are passed over.
#[test]
fn traces_are_specifications() {
    let t = tempfile::tempdir().unwrap();
    for spec in [
        "tests/data/traces/invoke.refl.log",
        "tests/data/traces/invoke-specinput.tsv",
    ] {
        let db = t.path().join("sp.db").display().to_string();
        let o = refract(&[
            "analyze",
            "fixtures/classes/reflection",
            "--main",
            "SpecInput",
            "--jdk",
            "none",
            "--reflection",
            "points-to",
            "-q",
            "--force",
            "--spec",
            spec,
            "-o",
            &db,
        ]);
        assert!(
            o.status.success(),
            "{spec}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let o = refract(&["export", "targets", &db]);
        assert_eq!(
            String::from_utf8(o.stdout).unwrap(),
            "caller_class\tcaller_method\tcaller_desc\tbci\tline\tapi\ttarget\n\
             SpecInput\tmain\t([Ljava/lang/String;)V\t29\t10\tClass.forName\tr.Lower\n\
             SpecInput\tmain\t([Ljava/lang/String;)V\t32\t10\tClass.newInstance\tr.Lower\n",
            "{spec}"
        );
        // The report says what the trace resolved that the strings did not.
        let o = refract(&["report", &db]);
        let report = String::from_utf8(o.stdout).unwrap();
        assert!(
            report.ends_with(
                "resolved by the specification alone: 1 forName site (no string naming a class reaches it)\n"
            ),
            "{report}"
        );
    }
}

/// The models of typed field accessors, `Array.newInstance`, member
/// lookups, dynamic proxies, provider files, manifests, resources
/// opened through their URLs, enumerated property keys and properties
/// bundles find every
/// application edge of their fixtures' real runs
/// (traced by reftrace against JDK 17; the JDK's own rows are not in the
/// class path of a `--jdk none` database).
#[test]
fn the_api_models_find_every_application_edge_of_their_traced_fixtures() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("apis.db");
    analyze(
        &[
            "TypedFields",
            "NewArrays",
            "Lookups",
            "Proxies",
            "ServiceFiles",
            "Manifests",
            "ResourceUrls",
            "Registries",
        ],
        &db,
    );
    let out = check_tsv(
        &db.display().to_string(),
        &[
            "tests/data/traces/TypedFields.tsv",
            "tests/data/traces/NewArrays.tsv",
            "tests/data/traces/Lookups.tsv",
            "tests/data/traces/Proxies.tsv",
            "tests/data/traces/ServiceFiles.tsv",
            "tests/data/traces/Manifests.tsv",
            "tests/data/traces/ResourceUrls.tsv",
            "tests/data/traces/Registries.tsv",
        ],
    );
    let mut got = application_outcomes(&out);
    let want = [
        ("Class.forName", "Lookups$Dog", "found"),
        ("Class.getMethod", "Lookups$Dog.speak", "found"),
        ("Class.getDeclaredMethod", "Lookups$Dog.fetch", "found"),
        ("Class.getField", "Lookups$Dog.legs", "found"),
        ("Class.getDeclaredField", "Lookups$Dog.name", "found"),
        ("Class.getConstructor", "Lookups$Dog.<init>", "found"),
        (
            "Class.getDeclaredConstructor",
            "Lookups$Dog.<init>",
            "found",
        ),
        ("Array.newInstance", "java.lang.String", "found"),
        ("Array.newInstance", "int", "found"),
        ("Array.newInstance", "java.lang.String", "found"),
        ("Class.forName", "r.Upper", "found"),
        ("Array.newInstance", "r.Upper", "found"),
        ("Class.forName", "r.Counter", "found"),
        ("Class.newInstance", "r.Counter", "found"),
        ("Class.getDeclaredField", "r.Counter.count", "found"),
        ("Field.get", "r.Counter.count", "found"),
        ("Field.set", "r.Counter.count", "found"),
        ("Field.get", "r.Counter.count", "found"),
        ("Proxy.newProxyInstance", "Proxies$Counter", "found"),
        ("Proxy.newProxyInstance", "Proxies$Greeter", "found"),
        ("Method.invoke", "Proxies$Counter.count()I", "found"),
        (
            "Method.invoke",
            "Proxies$Greeter.greet(Ljava/lang/String;)Ljava/lang/String;",
            "found",
        ),
        ("ClassLoader.loadClass", "r.Lower", "found"),
        ("ClassLoader.loadClass", "r.Upper", "found"),
        ("Class.getDeclaredConstructor", "r.Lower.<init>", "found"),
        ("Class.getDeclaredConstructor", "r.Upper.<init>", "found"),
        ("Constructor.newInstance", "r.Lower.<init>()V", "found"),
        ("Constructor.newInstance", "r.Upper.<init>()V", "found"),
        ("Class.forName", "r.Upper", "found"),
        ("Class.getDeclaredConstructor", "r.Upper.<init>", "found"),
        ("Constructor.newInstance", "r.Upper.<init>()V", "found"),
        ("Class.forName", "r.Upper", "found"),
        ("Class.forName", "r.Upper", "found"),
        ("Class.forName", "r.Lower", "found"),
        ("Class.forName", "r.Lower", "found"),
        ("Class.forName", "r.Upper", "found"),
        ("Class.newInstance", "r.Lower", "found"),
        ("Class.newInstance", "r.Upper", "found"),
        ("Class.forName", "r.Lower", "found"),
        ("Class.forName", "r.Upper", "found"),
        ("Class.forName", "r.Counter", "found"),
        ("Class.newInstance", "r.Counter", "found"),
        ("Class.forName", "r.Bag", "found"),
        ("Class.forName", "r.Sized", "found"),
        ("Class.forName", "r.Bag", "found"),
        ("Class.forName", "r.Sized", "found"),
    ];
    got.sort();
    let mut want = want.to_vec();
    want.sort();
    assert_eq!(got, want, "{out}");
}

/// With `--member-arrays`, the Class objects that metaobjects give
/// (getParameterTypes, getReturnType, getType, getDeclaringClass,
/// getSuperclass, getInterfaces) find every application edge of the
/// traced `Metaobjects`, and no other target at its sites.
#[test]
fn the_classes_metaobjects_give_find_every_edge_of_their_traced_fixture() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("meta.db").display().to_string();
    let o = refract(&[
        "analyze",
        "fixtures/classes/reflection",
        "--main",
        "Metaobjects",
        "--jdk",
        "none",
        "--member-arrays",
        "-q",
        "-o",
        &db,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = check_tsv(&db, &["tests/data/traces/Metaobjects.tsv"]);
    let mut got = application_outcomes(&out);
    let want = [
        ("Class.getMethod", "Metaobjects$Holder.use", "found"),
        ("Class.getConstructor", "r.Counter.<init>", "found"),
        ("Constructor.newInstance", "r.Counter.<init>(I)V", "found"),
        (
            "Method.invoke",
            "Metaobjects$Holder.use(Lr/Counter;)V",
            "found",
        ),
        ("Class.getMethod", "Metaobjects$Holder.make", "found"),
        ("Class.getDeclaredConstructor", "r.Upper.<init>", "found"),
        ("Constructor.newInstance", "r.Upper.<init>()V", "found"),
        ("Class.getField", "Metaobjects$Holder.lower", "found"),
        ("Class.getDeclaredConstructor", "r.Lower.<init>", "found"),
        ("Constructor.newInstance", "r.Lower.<init>()V", "found"),
        (
            "Class.getDeclaredConstructor",
            "Metaobjects$Holder.<init>",
            "found",
        ),
        (
            "Constructor.newInstance",
            "Metaobjects$Holder.<init>()V",
            "found",
        ),
        (
            "Class.getDeclaredConstructor",
            "Metaobjects$Base.<init>",
            "found",
        ),
        (
            "Constructor.newInstance",
            "Metaobjects$Base.<init>()V",
            "found",
        ),
        ("Class.getMethod", "Metaobjects$Named.name", "found"),
        (
            "Method.invoke",
            "Metaobjects$Named.name()Ljava/lang/String;",
            "found",
        ),
    ];
    got.sort();
    let mut want = want.to_vec();
    want.sort();
    assert_eq!(got, want, "{out}");
    let text =
        String::from_utf8(refract(&["check", &db, "tests/data/traces/Metaobjects.tsv"]).stdout)
            .unwrap();
    assert!(
        text.contains("static edges at the traced sites: 16 (the run took 16 there)\n"),
        "{text}"
    );
}

/// The inference of `--reflection infer` finds every application edge of
/// the runs of its fixtures: names built by concatenation (a forName of
/// `"r." + kind + "er"`, by invokedynamic and by a StringBuilder chain;
/// `"set" + capitalize(p)`; a helper's, a field's and an enum's names
/// between known text), and members the program does not spell (a
/// JUnit-style loop over getDeclaredMethods, getFields, a getMethod and a
/// getField by a name from input, getConstructor on an unknown class;
/// ant's setters found among getMethods(), their values built from
/// `getParameterTypes()[0].getConstructor(String.class)`; the methods
/// and fields a loop picks by annotation and modifier; the handlers,
/// text fields and constructor a loop picks by return, field and
/// parameter types), which the
/// paper's `casts` leaves unresolved. No edge the runs did not take is
/// in the `infer` exports of these fixtures (their exact expectations).
#[test]
fn inference_finds_every_application_edge_of_its_traced_fixtures() {
    let dir = tempfile::tempdir().unwrap();
    let traces = [
        "tests/data/traces/Concatenated.tsv",
        "tests/data/traces/Completed.tsv",
        "tests/data/traces/Inferred.tsv",
        "tests/data/traces/Introspection.tsv",
        "tests/data/traces/Selected.tsv",
        "tests/data/traces/Signatures.tsv",
    ];
    let mut found = Vec::new();
    for variant in ["casts", "infer"] {
        let db = dir.path().join(format!("{variant}.db"));
        let o = Command::new(env!("CARGO_BIN_EXE_refract"))
            .arg("analyze")
            .arg(root().join("fixtures/classes/reflection"))
            .args(["--main", "Concatenated", "--main", "Completed"])
            .args(["--main", "Inferred"])
            .args(["--main", "Introspection", "--main", "Selected"])
            .args(["--main", "Signatures"])
            .args(["--jdk", "none", "--reflection", variant, "-q", "-o"])
            .arg(&db)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let db = db.display().to_string();
        let out = check_tsv(&db, &traces);
        let rows: Vec<Vec<String>> = out
            .lines()
            .skip(1)
            .map(|l| l.split('\t').map(str::to_string).collect())
            .filter(|c: &Vec<String>| c[7] == "application")
            .collect();
        let hits = rows.iter().filter(|c| c[8] == "found").count();
        found.push((variant, hits, rows.len()));
    }
    // The runs took 72 application edges; `casts` finds the constant
    // forName of r.Upper, the class lookups of the loops and Selected's
    // constructor. The one `infer` does not find is Completed's forName
    // of java.util.ArrayList, a class not in this class path (`failed`:
    // the analysis runs without the JDK).
    assert_eq!(found, [("casts", 14, 72), ("infer", 71, 72)]);
}

/// A trace is a specification of members too: given its own trace,
/// `casts`, which infers nothing, finds every application edge of the
/// `Introspection` run (the setters found among `getMethods()`, their
/// values' constructors and the calls), as a TamiFlex log makes Doop's
/// and Tai-e's results sound for the run.
#[test]
fn a_trace_resolves_the_member_sites_it_saw() {
    let dir = tempfile::tempdir().unwrap();
    let trace = "tests/data/traces/Introspection.tsv";
    let db = dir.path().join("traced.db");
    let o = Command::new(env!("CARGO_BIN_EXE_refract"))
        .arg("analyze")
        .arg(root().join("fixtures/classes/reflection"))
        .args(["--main", "Introspection", "--jdk", "none"])
        .args(["--reflection", "casts", "-q", "--spec"])
        .arg(root().join(trace))
        .arg("-o")
        .arg(&db)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = check_tsv(&db.display().to_string(), &[trace]);
    let application: Vec<&str> = (out.lines().skip(1))
        .filter(|l| l.split('\t').nth(7) == Some("application"))
        .collect();
    assert_eq!(application.len(), 17, "{out}");
    assert!(
        application
            .iter()
            .all(|l| l.split('\t').nth(8) == Some("found")),
        "{out}"
    );
}

/// The precision proxy site by site: where the analysis gives a site
/// more targets than the run took, the report lists the site with both
/// counts, widest first, and the JSON report has every traced site.
#[test]
fn sites_with_more_static_targets_than_the_run_took_are_listed_widest_first() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("signatures.db").display().to_string();
    let o = refract(&[
        "analyze",
        "fixtures/classes/reflection",
        "--main",
        "Signatures",
        "--jdk",
        "none",
        "--reflection",
        "infer",
        "-q",
        "-o",
        &db,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A run that invoked one of the two handlers and read one of the two
    // text fields; the constructor's site took its one target.
    let trace = dir.path().join("one-each.tsv");
    let main = "Signatures\tmain\t([Ljava/lang/String;)V";
    std::fs::write(
        &trace,
        format!(
            "caller_class\tcaller_method\tcaller_desc\tbci\tapi\ttarget\n\
             {main}\t78\tMethod.invoke\tSignatures$Listener.onText(Ljava/lang/String;)V\n\
             {main}\t131\tField.get\tSignatures$Listener.seen\n\
             {main}\t202\tConstructor.newInstance\tSignatures$Listener.<init>(Ljava/lang/String;)V\n"
        ),
    )
    .unwrap();
    let trace = trace.display().to_string();
    let o = refract(&["check", &db, &trace]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let want = "static edges at the traced sites: 5 (the run took 3 there)\n\
        \x20 application callers: 5 (the run took 3); JDK callers: 0 (the run took 0)\n\
        sites with more static targets than the run took: 2; the widest 2 (static / traced):\n\
        \x20      2 / 1   Signatures.main([Ljava/lang/String;)V @ 131  Field.get\n\
        \x20      2 / 1   Signatures.main([Ljava/lang/String;)V @ 78  Method.invoke\n\
        generated at run time";
    assert!(text.contains(want), "{text}");
    let o = refract(&["check", &db, &trace, "--format", "json"]);
    let json = String::from_utf8(o.stdout).unwrap();
    let site = |bci: u32, api: &str, n: u32| {
        format!("{{\"site\": \"Signatures.main([Ljava/lang/String;)V @ {bci}\", \"api\": \"{api}\", \"static_targets\": {n}, \"traced\": 1, \"jdk_caller\": false}}")
    };
    let sites = format!(
        "\"sites\": [{}, {}, {}]",
        site(131, "Field.get", 2),
        site(78, "Method.invoke", 2),
        site(202, "Constructor.newInstance", 1)
    );
    assert!(json.contains(&sites), "{json}");
    assert!(
        json.contains("\"static_edges_by_caller\": {\"application\": {\"static\": 5, \"traced\": 3}, \"jdk\": {\"static\": 0, \"traced\": 0}}"),
        "{json}"
    );
}
