//! Reflection resolution on the fixture idioms (`fixtures/src/reflection`,
//! and `fixtures/src/internal` for the JDK's internal API): the exact
//! export of every idiom under every variant, the report, the
//! specification round trip, and runs against the JDK's java.base (most
//! of them one shared analysis of several fixtures: `JAVA_BASE_GROUP`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn refract(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_refract"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "refract {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn classes() -> String {
    root()
        .join("fixtures/classes/reflection")
        .display()
        .to_string()
}

const IDIOMS: &[&str] = &[
    "ConstantForName",
    "NameFlow",
    "Casts",
    "Invoke",
    "DeclaredMethods",
    "Fields",
    "Constructors",
    "SpecInput",
    "Arity",
    "ParameterTypes",
    "Properties",
    "Resources",
    "ResourceUrls",
    "Registries",
    "Holders",
    "ArrayElements",
    "TypedFields",
    "NewArrays",
    "Lookups",
    "StaticInit",
    "Proxies",
    "Handles",
    "BoundHandles",
    "HandleTypes",
    "VarHandles",
    "ServiceFiles",
    "Manifests",
    "Metaobjects",
    "Concatenated",
    "Completed",
    "FieldSetters",
    "ClassNames",
    "Inferred",
    "Introspection",
    "Selected",
    "Narrowed",
    "Beans",
    "Listeners",
    "Signatures",
    "Sinks",
    "Privileged",
    "ArgumentTypes",
    "SameNames",
    "SameHandles",
];

/// The idioms that read the arrays of `getDeclaredMethods()` and
/// `getConstructors()`: their expected targets are those of
/// `--member-arrays` (see
/// `calls_on_member_arrays_are_unresolved_without_member_arrays` for the
/// default).
const MEMBER_ARRAY_IDIOMS: &[&str] = &["DeclaredMethods", "Arity", "Metaobjects"];

/// The output of `refract run` on a script of `queries` against `db`.
fn query(dir: &Path, db: &Path, queries: &str) -> String {
    let script = dir.join("q.dl");
    std::fs::write(&script, queries).unwrap();
    refract(&[
        "run",
        &script.display().to_string(),
        "--db",
        &db.display().to_string(),
    ])
}

/// An empty specification file in `dir`.
fn empty_spec(dir: &Path) -> PathBuf {
    let spec = dir.join("empty.spec");
    std::fs::write(&spec, "").unwrap();
    spec
}

/// Analyzes fixture `main` under `variant` and asserts, by `refract
/// check` against its traced run (tests/data/traces/MAIN.tsv), that its
/// static edges at the run's sites are the run's `edges` there; returns
/// the exported targets.
fn assert_static_edges_are_the_traced(main: &str, variant: &str, edges: usize) -> String {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join(format!("{variant}.db"));
    analyze(main, variant, &empty_spec(dir.path()), &db);
    let trace = root().join(format!("tests/data/traces/{main}.tsv"));
    let db = db.display().to_string();
    let check = refract(&["check", &db, &trace.display().to_string()]);
    let want = format!("static edges at the traced sites: {edges} (the run took {edges} there)\n");
    assert!(check.contains(&want), "{variant}: {check}");
    refract(&["export", "targets", &db])
}

fn analyze(main: &str, variant: &str, spec: &Path, db: &Path) {
    analyze_with(main, variant, spec, db, &[]);
}

/// [`analyze`] with more options.
fn analyze_with(main: &str, variant: &str, spec: &Path, db: &Path, options: &[&str]) {
    let classes = classes();
    let spec = spec.display().to_string();
    let db = db.display().to_string();
    let mut args = vec![
        "analyze",
        &classes,
        "--main",
        main,
        "--jdk",
        "none",
        "--reflection",
        variant,
        "-q",
        "-o",
        &db,
    ];
    // The paper's variants: only `sound` reads a specification.
    if variant == "sound" {
        args.extend(["--spec", &spec]);
    }
    args.extend_from_slice(options);
    refract(&args);
}

#[test]
fn every_idiom_exports_exactly_the_expected_targets_in_every_variant() {
    let dir = tempfile::tempdir().unwrap();
    let empty = empty_spec(dir.path());
    let spec_input = root().join("fixtures/src/reflection/spec-input.spec");
    let mut failures = Vec::new();
    for main in IDIOMS {
        for variant in ["none", "local", "points-to", "casts", "sound", "infer"] {
            let spec = if *main == "SpecInput" {
                &spec_input
            } else {
                &empty
            };
            let db = dir.path().join(format!("{main}.{variant}.db"));
            let options: &[&str] = if MEMBER_ARRAY_IDIOMS.contains(main) {
                &["--member-arrays"]
            } else {
                &[]
            };
            analyze_with(main, variant, spec, &db, options);
            let got = refract(&["export", "targets", &db.display().to_string()]);
            let file = root().join(format!("tests/expected/reflection/{main}.{variant}.tsv"));
            let want = std::fs::read_to_string(&file).unwrap();
            if got != want {
                failures.push(format!(
                    "{}:\n--- want\n{want}--- got\n{got}",
                    file.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Without `--member-arrays` the arrays of `getDeclaredMethods()` stay
/// empty, as in the paper's implementation: the `Method.invoke` on their
/// elements resolves to nothing and the report counts it unresolved.
#[test]
fn calls_on_member_arrays_are_unresolved_without_member_arrays() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("declared.db");
    let spec = empty_spec(dir.path());
    analyze("DeclaredMethods", "points-to", &spec, &db);
    let db = db.display().to_string();
    assert_eq!(
        refract(&["export", "targets", &db]),
        "caller_class\tcaller_method\tcaller_desc\tbci\tline\tapi\ttarget\n\
         DeclaredMethods\tmain\t([Ljava/lang/String;)V\t2\t6\tClass.forName\tr.Lower\n\
         DeclaredMethods\tmain\t([Ljava/lang/String;)V\t7\t7\tClass.newInstance\tr.Lower\n\
         DeclaredMethods\tmain\t([Ljava/lang/String;)V\t12\t8\tClass.getDeclaredMethods\tr.Lower\n"
    );
    let report = refract(&["report", &db]);
    assert!(
        report.starts_with("reflection variant: points-to\n"),
        "{report}"
    );
    assert!(
        report.contains("Method.invoke                 1      0      0      1\n"),
        "{report}"
    );
    let with = dir.path().join("declared-arrays.db");
    analyze_with(
        "DeclaredMethods",
        "points-to",
        &spec,
        &with,
        &["--member-arrays"],
    );
    let report = refract(&["report", &with.display().to_string()]);
    assert!(
        report.starts_with("reflection variant: points-to, member arrays\n"),
        "{report}"
    );
    assert!(
        report.contains("Method.invoke                 1      1      0      0\n"),
        "{report}"
    );
}

/// `infer` reads the metaobjects model without `--member-arrays`: the
/// `Class` objects that `getParameterTypes()`, `getReturnType()`,
/// `getType()`, `getDeclaringClass()`, `getSuperclass()` and
/// `getInterfaces()` give resolve the lookups on them, as the flag's
/// expected export says.
#[test]
fn infer_gives_the_classes_metaobjects_name_without_member_arrays() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("meta.db");
    let spec = empty_spec(dir.path());
    analyze("Metaobjects", "infer", &spec, &db);
    let want =
        std::fs::read_to_string(root().join("tests/expected/reflection/Metaobjects.infer.tsv"))
            .unwrap();
    assert_eq!(
        refract(&["export", "targets", &db.display().to_string()]),
        want
    );
}

#[test]
fn report_counts_sites_call_graph_and_specification_points() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("casts.db");
    let spec = empty_spec(dir.path());
    analyze("Casts", "casts", &spec, &db);
    assert_eq!(
        refract(&["report", &db.display().to_string()]),
        "reflection variant: casts\n\
         \n\
         reflective sites          total   full partial unres.\n\
         Class.forName                 2      0      1      1\n\
         ClassLoader.loadClass         0      0      0      0\n\
         Class.newInstance             2      0      1      1\n\
         Constructor.newInstance       0      0      0      0\n\
         Method.invoke                 0      0      0      0\n\
         Field.get/set                 0      0      0      0\n\
         Class.get*Method              0      0      0      0\n\
         Class.get*Field               0      0      0      0\n\
         Class.get*Constructor         0      0      0      0\n\
         Class.get*s (arrays)          0      0      0      0\n\
         Array.newInstance             0      0      0      0\n\
         Proxy.newProxyInstance        0      0      0      0\n\
         Lookup.find*/unreflect*       0      0      0      0\n\
         MethodHandle.invoke*          0      0      0      0\n\
         \n\
         call graph: 3 classes, 10 methods\n\
         specification points: 2\n"
    );
    // The sites with more targets than asked for, most first.
    let report = refract(&["report", &db.display().to_string(), "--imprecise", "1"]);
    assert_eq!(
        report.split_once("specification points: 2\n").unwrap().1,
        "\n\
         imprecise sites (targets > 1): 2\n       \
         2 Class.forName            Casts.main([Ljava/lang/String;)V @ 7 (line 7)\n           \
         spec: Casts\tmain\t([Ljava/lang/String;)V\t7\t7\tClass.forName\t<class>\n       \
         2 Class.newInstance        Casts.main([Ljava/lang/String;)V @ 12 (line 8)\n           \
         spec: Casts\tmain\t([Ljava/lang/String;)V\t12\t8\tClass.newInstance\t<class>\n"
    );
    let m = "<Casts: void main(java.lang.String[])>";
    assert_eq!(
        refract(&["export", "specpoints", &db.display().to_string()]),
        format!(
            "source\tsite\tpath\n\
             {m}[2@L6] invokestatic <java.lang.System: java.lang.String getProperty(java.lang.String)>\t\
             {m}[7@L7] invokestatic <java.lang.Class: java.lang.Class forName(java.lang.String)>\t\
             {m}/l1@5\n\
             {m}[30@L10] invokestatic <java.lang.System: java.lang.String getProperty(java.lang.String)>\t\
             {m}[33@L10] invokestatic <java.lang.Class: java.lang.Class forName(java.lang.String)>\t\
             {m}/s@30\n"
        )
    );
}

/// `version(who)` returns its parameter: the front end records that
/// (`returnsParam`) instead of copying `who` into the return variable, and
/// the reflective call's result receives the argument from the parameter.
/// The methods that return a parameter through a call (`Lifted`) are only
/// in `returnedParam`, which the analysis derives.
#[test]
fn a_returned_parameter_reaches_the_call_not_the_return_variable() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("invoke.db");
    let spec = empty_spec(dir.path());
    analyze("Invoke", "points-to", &spec, &db);
    let out = query(
        dir.path(),
        &db,
        "returnsParam(m, z)?\n\
         returnedParam(m, z)?\n\
         vP(\"<r.Upper: java.lang.String version(java.lang.String)>/ret\", h)?\n\
         vP(\"<Invoke: void main(java.lang.String[])>/s@72\", h)?\n",
    );
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    assert_eq!(
        lines,
        [
            " m                                                     | z",
            "-------------------------------------------------------+---",
            " <Callbacks$Point: java.lang.Object readResolve()>     | 0",
            " <Dispatch$Circle: java.lang.Object self()>            | 0",
            " <Dispatch$Shape: java.lang.Object self()>             | 0",
            " <Lifted: java.lang.String pass(java.lang.String)>     | 0",
            " <NamePaths: java.lang.Object pass(java.lang.Object)>  | 0",
            " <r.Upper: java.lang.String version(java.lang.String)> | 0",
            "6 tuples",
            " m                                                                  | z",
            "--------------------------------------------------------------------+---",
            " <Callbacks$Point: java.lang.Object readResolve()>                  | 0",
            " <Dispatch$Circle: java.lang.Object self()>                         | 0",
            " <Dispatch$Shape: java.lang.Object self()>                          | 0",
            " <Lifted$Names: java.lang.String trimmed(java.lang.String)>         | 1",
            " <Lifted: java.lang.String pass(java.lang.String)>                  | 0",
            " <Lifted: java.lang.String wrap(java.lang.String)>                  | 0",
            " <Lifted: java.lang.String viaNames(Lifted$Names,java.lang.String)> | 1",
            " <NamePaths: java.lang.Object pass(java.lang.Object)>               | 0",
            " <r.Upper: java.lang.String version(java.lang.String)>              | 0",
            "9 tuples",
            "0 tuples",
            " h",
            "-------------------",
            " <string constant>",
            "1 tuple",
        ]
    );
}

/// A method entered by reflection makes its parameter stores on what the
/// reflective call passed (`reflArg`), and an ordinary call on what it
/// passed: `Box(v)` stores through `super(v)` (the store lifted to
/// `Box`'s callers), `assign(v)` into its receiver. Each object's field holds
/// only its own call's object, with and without contexts.
#[test]
fn reflective_calls_make_parameter_stores_on_what_they_pass() {
    let dir = tempfile::tempdir().unwrap();
    let spec = empty_spec(dir.path());
    let main = "<Stored: void main(java.lang.String[])>";
    let expected = [
        " a                                                               | b",
        "-----------------------------------------------------------------+--------------------------------------------------------------------------",
        &format!(" {main}[0@L36] new Stored$Box   | {main}[4@L36] new Stored$Plain"),
        &format!(" {main}[47@L38] new Stored$Base | {main}[51@L38] new Stored$Initial"),
        &format!(" {main}[47@L38] new Stored$Base | {main}[85@L39] new Stored$ByInvoke"),
        &format!(" <reflective new Stored$Box>                                     | {main}[35@L37] new Stored$ByConstructor"),
        "4 tuples",
    ];
    for context in ["insensitive", "1-object", "1-call-site"] {
        let db = dir.path().join(format!("stored.{context}.db"));
        analyze_with("Stored", "casts", &spec, &db, &["--context", context]);
        let out = query(
            dir.path(),
            &db,
            "hP(a, \"<Stored$Base: java.lang.Object value>\", b)?\n",
        );
        let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
        assert_eq!(lines, expected, "{context}");
    }
}

/// `wrap(s)` returns what `pass(s)` returns, and `pass` returns its
/// argument (or a new string): `wrap` returns its own parameter too, and so
/// does `viaNames`, through a virtual call of a final class's method. Each
/// `Class.forName` sees only the name its own call passed; through the
/// return variables, each saw all four.
#[test]
fn a_parameter_returned_through_a_call_reaches_only_its_own_caller() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("lifted.db");
    let spec = empty_spec(dir.path());
    analyze("Lifted", "points-to", &spec, &db);
    assert_eq!(
        refract(&["export", "targets", &db.display().to_string()]),
        "caller_class\tcaller_method\tcaller_desc\tbci\tline\tapi\ttarget\n\
         Lifted\tmain\t([Ljava/lang/String;)V\t5\t30\tClass.forName\tr.Upper\n\
         Lifted\tmain\t([Ljava/lang/String;)V\t14\t31\tClass.forName\tr.Lower\n\
         Lifted\tmain\t([Ljava/lang/String;)V\t32\t33\tClass.forName\tr.Bean\n"
    );
    // The same as JSON, the numbers as numbers.
    let row = |bci: u32, line: u32, target: &str| {
        format!(
            "  {{\"caller_class\": \"Lifted\", \"caller_method\": \"main\", \
             \"caller_desc\": \"([Ljava/lang/String;)V\", \"bci\": {bci}, \"line\": {line}, \
             \"api\": \"Class.forName\", \"target\": \"{target}\"}}"
        )
    };
    assert_eq!(
        refract(&[
            "export",
            "targets",
            &db.display().to_string(),
            "--format",
            "json"
        ]),
        format!(
            "[\n{},\n{},\n{}\n]\n",
            row(5, 30, "r.Upper"),
            row(14, 31, "r.Lower"),
            row(32, 33, "r.Bean")
        )
    );
    let out = query(dir.path(), &db, "liftedReturn(i, z)?\n");
    let lines: Vec<&str> = out.lines().skip(2).map(str::trim_end).collect();
    assert_eq!(
        lines,
        [
            " <Lifted$Names: java.lang.String trimmed(java.lang.String)>[1@L20] invokestatic <Lifted: java.lang.String wrap(java.lang.String)>                   | 0",
            " <Lifted: java.lang.String wrap(java.lang.String)>[1@L14] invokestatic <Lifted: java.lang.String pass(java.lang.String)>                            | 0",
            " <Lifted: java.lang.String viaNames(Lifted$Names,java.lang.String)>[2@L26] invokevirtual <Lifted$Names: java.lang.String trimmed(java.lang.String)> | 1",
            "3 tuples",
        ]
    );
}

/// A call on a dynamic proxy runs its handler's `invoke`, with the
/// handler as `this`, the Method object of the interface method called
/// and the call's arguments in the argument array; the handler's
/// `Method.invoke` then forwards to the target, which receives them.
#[test]
fn calls_on_a_dynamic_proxy_run_the_handler_with_the_call_and_its_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("proxies.db");
    let spec = empty_spec(dir.path());
    analyze("Proxies", "points-to", &spec, &db);
    let invoke = "<Proxies$Forward: java.lang.Object invoke(java.lang.Object,java.lang.reflect.Method,java.lang.Object[])>";
    let out = query(
        dir.path(),
        &db,
        &format!(
            "proxyEdge(m, t) :- mI(m, i, _), IEr(i, t).\n\
             proxyEdge(m, t)?\n\
             vP(\"{invoke}/this\", h)?\n\
             vP(\"{invoke}/p0\", h)?\n\
             vP(\"{invoke}/p1\", h)?\n\
             vP(\"<Proxies$Impl: java.lang.String greet(java.lang.String)>/p0\", h)?\n"
        ),
    );
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    assert_eq!(
        lines,
        [
            " m                                                                                                        | t",
            "----------------------------------------------------------------------------------------------------------+----------------------------------------------------------------------------------------------------------",
            " <Proxies$Forward: java.lang.Object invoke(java.lang.Object,java.lang.reflect.Method,java.lang.Object[])> | <Proxies$Impl: java.lang.String greet(java.lang.String)>",
            " <Proxies$Forward: java.lang.Object invoke(java.lang.Object,java.lang.reflect.Method,java.lang.Object[])> | <Proxies$Impl: int count()>",
            " <Proxies: void main(java.lang.String[])>                                                                 | <Proxies$Forward: java.lang.Object invoke(java.lang.Object,java.lang.reflect.Method,java.lang.Object[])>",
            "3 tuples",
            " h",
            "----------------------------------------------------------------------",
            " <Proxies: void main(java.lang.String[])>[19@L44] new Proxies$Forward",
            "1 tuple",
            " h",
            "-------------------------",
            " <proxy Proxies$Counter>",
            " <proxy Proxies$Greeter>",
            "2 tuples",
            " h",
            "--------------------------------------------------------------------------",
            " <reflective <Proxies$Counter: int count()>>",
            " <reflective <Proxies$Greeter: java.lang.String greet(java.lang.String)>>",
            "2 tuples",
            " h",
            "-------------------",
            " <string constant>",
            "1 tuple",
        ]
    );
}

/// A method handle's call passes its arguments to the target found by
/// the lookup: the constructor gets the name and runs on a new object,
/// a virtual handle dispatches on its first argument (a `Loud` runs
/// `Loud.greet`), and a static one gets the string the virtual call
/// returned.
#[test]
fn method_handle_calls_pass_their_arguments_to_the_target() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("handles.db");
    let spec = empty_spec(dir.path());
    analyze("Handles", "points-to", &spec, &db);
    let out = query(
        dir.path(),
        &db,
        "vP(\"<Handles$Greeter: void <init>(java.lang.String)>/this\", h)?\n\
         vP(\"<Handles$Greeter: java.lang.String greet(java.lang.String)>/this\", h)?\n\
         vP(\"<Handles$Loud: java.lang.String greet(java.lang.String)>/this\", h)?\n\
         vP(\"<Handles$Greeter: java.lang.String shout(java.lang.String)>/p0\", h)?\n\
         vP(\"<Handles: void main(java.lang.String[])>/l3@25\", h)?\n",
    );
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    assert_eq!(
        lines,
        [
            " h",
            "--------------------------------------------------------------------",
            " <Handles: void main(java.lang.String[])>[107@L53] new Handles$Loud",
            " <reflective new Handles$Greeter>",
            "2 tuples",
            " h",
            "----------------------------------",
            " <reflective new Handles$Greeter>",
            "1 tuple",
            " h",
            "--------------------------------------------------------------------",
            " <Handles: void main(java.lang.String[])>[107@L53] new Handles$Loud",
            "1 tuple",
            " h",
            "-------------------",
            " <computed string>",
            "1 tuple",
            " h",
            "----------------------------------",
            " <reflective new Handles$Greeter>",
            "1 tuple",
        ]
    );
}

/// The methods the JVM calls without a call site: a shutdown hook's
/// `run` and an uncaught-exception handler from the calls that register
/// them, a finalizer once an object of its class exists, and the private
/// serialization hooks of the class the program writes and reads back,
/// with the object written as `this` and as what `readObject()` returns.
#[test]
fn jvm_callbacks_are_reached_from_what_registers_them() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("callbacks.db");
    let spec = empty_spec(dir.path());
    analyze("Callbacks", "points-to", &spec, &db);
    let main = "<Callbacks: void main(java.lang.String[])>";
    let out = query(
        dir.path(),
        &db,
        &format!(
            "ctor(m) :- constructor(_, m).\n\
             callback(m) :- reach(m), declaresMethod(t, m), t != \"Callbacks\", !ctor(m), applicationMethod(m).\n\
             callback(m)?\n\
             IEr(i, m)?\n\
             vP(\"<Callbacks$Point: void readObject(java.io.ObjectInputStream)>/this\", h)?\n\
             vP(\"{main}/l4@89\", h)?\n\
             vP(\"<Callbacks$Resource: void finalize()>/this\", h)?\n"
        ),
    );
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    let hook = format!(
        "{main}[10@L53] invokevirtual <java.lang.Runtime: void addShutdownHook(java.lang.Thread)>"
    );
    let handler = format!("{main}[20@L54] invokestatic <java.lang.Thread: void setDefaultUncaughtExceptionHandler(java.lang.Thread$UncaughtExceptionHandler)>");
    let point = format!(" {main}[49@L58] new Callbacks$Point");
    assert_eq!(
        lines[..9],
        [
            " m",
            "-----------------------------------------------------------------------------------",
            " <Callbacks$Handler: void uncaughtException(java.lang.Thread,java.lang.Throwable)>",
            " <Callbacks$Hook: void run()>",
            " <Callbacks$Point: void writeObject(java.io.ObjectOutputStream)>",
            " <Callbacks$Point: void readObject(java.io.ObjectInputStream)>",
            " <Callbacks$Point: java.lang.Object readResolve()>",
            " <Callbacks$Resource: void finalize()>",
            "6 tuples",
        ]
    );
    let edges: Vec<String> = lines[11..13]
        .iter()
        .map(|l| {
            l.split(" | ")
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" -> ")
        })
        .collect();
    assert_eq!(
        edges,
        [
            format!("{hook} -> <Callbacks$Hook: void run()>"),
            format!("{handler} -> <Callbacks$Handler: void uncaughtException(java.lang.Thread,java.lang.Throwable)>"),
        ]
    );
    // The object written is `this` of the read hooks and what readObject()
    // returns; a finalizer runs on the objects of its class.
    assert_eq!(lines[13], "2 tuples");
    assert_eq!(lines[16], point);
    assert_eq!(lines[20], point);
    assert_eq!(
        lines[24..],
        [
            format!(" {main}[23@L55] new Callbacks$Resource"),
            " <reflective new Callbacks$Resource>".to_string(),
            "2 tuples".to_string(),
        ]
    );
}

/// Beyond lookups of methods: a handle bound to a `Quiet` runs
/// `Quiet.describe` on it alone (not `Counter.describe`);
/// `invokeWithArguments` passes the elements of its array and its list
/// to `make`; a getter's call returns the field's values, a setter's
/// stores into the objects of its first argument, and a static getter's
/// reads the static field that `make` wrote; `make` with its argument
/// inserted (`insertArguments`) returns its object.
#[test]
fn bound_spread_and_field_handles_reach_their_targets() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bound.db");
    let spec = empty_spec(dir.path());
    analyze("BoundHandles", "points-to", &spec, &db);
    let main = "<BoundHandles: void main(java.lang.String[])>";
    let out = query(
        dir.path(),
        &db,
        &format!(
            "vP(\"<BoundHandles$Quiet: java.lang.String describe(java.lang.String)>/this\", h)?\n\
             reach(\"<BoundHandles$Counter: java.lang.String describe(java.lang.String)>\")?\n\
             vP(\"<BoundHandles$Counter: BoundHandles$Counter make(java.lang.String)>/p0\", h)?\n\
             vP(\"{main}/l9@110\", h)?\n\
             hP(b, \"<BoundHandles$Counter: java.lang.Object tag>\", h)?\n\
             vP(\"{main}/l12@157\", h)?\n\
             vP(\"{main}/l16@203\", h)?\n"
        ),
    );
    let quiet = format!(" {main}[21@L43] new BoundHandles$Quiet");
    let made = " <BoundHandles$Counter: BoundHandles$Counter make(java.lang.String)>[0@L25] new BoundHandles$Counter";
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    let strings = [
        " h",
        "-------------------",
        " <string constant>",
        " \"x\"",
        "2 tuples",
    ];
    let mut want: Vec<String> = vec![
        " h".into(),
        "-".repeat(78),
        quiet,
        "1 tuple".into(),
        "no".into(),
    ];
    want.extend(strings.iter().map(|l| l.to_string()));
    want.extend(strings.iter().map(|l| l.to_string()));
    want.extend([
        format!(" {:<99} | h", "b"),
        format!("{}+{}", "-".repeat(101), "-".repeat(84)),
        format!("{made} | {main}[128@L52] new java.lang.StringBuilder"),
        "1 tuple".into(),
        " h".into(),
        "-".repeat(101),
        made.to_string(),
        "1 tuple".into(),
        " h".into(),
        "-".repeat(101),
        made.to_string(),
        "1 tuple".into(),
    ]);
    assert_eq!(lines, want, "{out}");
}

/// The runtime-visible annotations of the class files are facts (not the
/// CLASS-retention `Hidden`; the fixture directory's other classes'
/// too); `getAnnotation` on a class and on a method
/// returns the proxy of the annotation type asked for, and the JDK's
/// parser makes the annotations read and those of their types.
#[test]
fn get_annotation_returns_the_proxy_of_the_annotation_the_element_carries() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("annotated.db");
    let spec = empty_spec(dir.path());
    analyze("Annotated", "points-to", &spec, &db);
    let main = "<Annotated: void main(java.lang.String[])>";
    let out = query(
        dir.path(),
        &db,
        &format!(
            "classAnnotation(t, a)?\n\
             methodAnnotation(m, a)?\n\
             parsedAnnotation(a)?\n\
             vP(\"{main}/l1@10\", h)?\n\
             vP(\"{main}/l3@44\", h)?\n"
        ),
    );
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    assert_eq!(
        lines,
        [
            " t                       | a",
            "-------------------------+--------------------------------",
            " Annotated$Command       | java.lang.annotation.Retention",
            " Annotated$Command       | java.lang.annotation.Target",
            " Annotated$Hello         | Annotated$Plugin",
            " Annotated$Plugin        | java.lang.annotation.Retention",
            " Annotated$Plugin        | java.lang.annotation.Target",
            " Annotated$Hidden        | java.lang.annotation.Retention",
            " ParamAnnotations$In     | java.lang.annotation.Retention",
            " ParamAnnotations$In     | java.lang.annotation.Target",
            " ParamAnnotations$Modes  | java.lang.annotation.Retention",
            " ParamAnnotations$Modes  | java.lang.annotation.Target",
            " ParamAnnotations$Out    | java.lang.annotation.Retention",
            " ParamAnnotations$Out    | java.lang.annotation.Target",
            " ParamAnnotations$Unread | java.lang.annotation.Retention",
            " ParamAnnotations$Unread | java.lang.annotation.Target",
            " ParamAnnotations$Tag    | java.lang.annotation.Retention",
            " r.Check                 | java.lang.annotation.Retention",
            " r.Check                 | java.lang.annotation.Target",
            "17 tuples",
            " m                                                      | a",
            "--------------------------------------------------------+------------------------",
            " <Annotated$Hello: void greet()>                        | Annotated$Command",
            " <ParamAnnotations$Library: int read(byte[],int,int[])> | ParamAnnotations$Modes",
            " <r.Suite: void first()>                                | r.Check",
            " <r.Suite: void second()>                               | r.Check",
            "4 tuples",
            " a",
            "--------------------------------",
            " Annotated$Command",
            " java.lang.annotation.Retention",
            " java.lang.annotation.Target",
            " Annotated$Plugin",
            "4 tuples",
            " h",
            "--------------------------",
            " <proxy Annotated$Plugin>",
            "1 tuple",
            " h",
            "---------------------------",
            " <proxy Annotated$Command>",
            "1 tuple",
        ]
    );
}

/// The annotations of a method's parameters are facts, with the index
/// of their parameter, and `getParameterAnnotations()` reads them: the
/// JDK's parser makes those of the method read (not `Unread`, on a
/// parameter of a method whose annotations nothing reads), with the
/// annotation types nested in the elements of `Modes` (`Tag`).
#[test]
fn parameter_annotations_are_read_with_their_method() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("params.db");
    let spec = empty_spec(dir.path());
    analyze("ParamAnnotations", "points-to", &spec, &db);
    let out = query(
        dir.path(),
        &db,
        "paramAnnotation(m, z, a)?\nparsedAnnotation(a)?\n",
    );
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    assert_eq!(
        lines,
        [
            " m                                                      | z | a",
            "--------------------------------------------------------+---+-------------------------",
            " <ParamAnnotations$Library: int read(byte[],int,int[])> | 0 | ParamAnnotations$In",
            " <ParamAnnotations$Library: int read(byte[],int,int[])> | 2 | ParamAnnotations$In",
            " <ParamAnnotations$Library: int read(byte[],int,int[])> | 2 | ParamAnnotations$Out",
            " <ParamAnnotations$Other: void skip(int)>               | 0 | ParamAnnotations$Unread",
            "4 tuples",
            " a",
            "--------------------------------",
            " java.lang.annotation.Retention",
            " java.lang.annotation.Target",
            " ParamAnnotations$In",
            " ParamAnnotations$Modes",
            " ParamAnnotations$Out",
            " ParamAnnotations$Tag",
            "6 tuples",
        ]
    );
}

/// Against java.base, the JDK's annotation parser makes the proxies of
/// the annotations that `getParameterAnnotations()` and `getAnnotation`
/// read, and of `Tag`, nested in `Modes`; it loads their types and the
/// enum type `Mode` by name, makes `Modes`'s arrays, and looks up
/// `Mode.values()` for `Enum.valueOf`. Every edge of the fixture's traced
/// run (`tests/data/traces/ParamAnnotations.tsv`) is found, and `Unread`
/// is nowhere.
#[test]
fn the_annotation_parser_makes_parameter_and_nested_annotations_against_java_base() {
    let db = java_base_db().display().to_string();
    let exported = refract(&["export", "targets", &db]);
    let at = |class: &str, method: &str, api: &str| -> Vec<String> {
        (exported.lines())
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .filter(|c| c[0] == class && c[1] == method && c[5] == api)
            .filter(|c| c[6].starts_with("ParamAnnotations$"))
            .map(|c| c[6].to_string())
            .collect()
    };
    let parser = "sun.reflect.annotation.AnnotationParser";
    assert_eq!(
        at(&format!("{parser}$1"), "run", "Proxy.newProxyInstance"),
        [
            "ParamAnnotations$In",
            "ParamAnnotations$Modes",
            "ParamAnnotations$Out",
            "ParamAnnotations$Tag"
        ]
    );
    assert_eq!(
        at(
            "sun.reflect.generics.factory.CoreReflectionFactory",
            "makeNamedType",
            "Class.forName"
        ),
        [
            "ParamAnnotations$In",
            "ParamAnnotations$Mode",
            "ParamAnnotations$Modes",
            "ParamAnnotations$Out",
            "ParamAnnotations$Tag"
        ]
    );
    assert!(
        at(parser, "parseEnumArray", "Array.newInstance").contains(&"ParamAnnotations$Mode".into())
    );
    assert!(at(parser, "parseAnnotationArray", "Array.newInstance")
        .contains(&"ParamAnnotations$Tag".into()));
    assert!(at(
        "java.lang.Class",
        "getEnumConstantsShared",
        "Class.getMethod"
    )
    .contains(&"ParamAnnotations$Mode.values".into()));
    assert!(!exported.contains("Unread"), "{exported}");
    let trace = root().join("tests/data/traces/ParamAnnotations.tsv");
    let check = refract(&["check", &db, &trace.display().to_string()]);
    let missed = check.split("missed edges").nth(1).unwrap_or("");
    assert!(!missed.contains("ParamAnnotations"), "{check}");
    assert!(!missed.contains("AnnotationParser"), "{check}");
}

/// A member test narrows the real metaobjects that reach it, in every
/// variant that makes them (`Narrowed`): the block behind
/// `m.getName().startsWith("al")` calls `alpha()` and not `beta()`, the
/// one behind `Modifier.isStatic` reads `count` and not `size`. The
/// static edges at the traced run's sites are then exactly its own
/// (tests/data/traces/Narrowed.tsv); before, the two blocks had both
/// members each.
#[test]
fn member_tests_narrow_real_metaobjects_to_the_traced_edges() {
    for variant in ["points-to", "infer"] {
        assert_static_edges_are_the_traced("Narrowed", variant, 4);
    }
}

/// The objects in an argument array select among the members of its
/// count (`ArgumentTypes`, ELF's rule), and the Class objects that a
/// lookup's array holds select its parameter lists. Each lookup's
/// `Class[]` holds one of two Class objects, by a conditional: "square"
/// runs `Shape(String)` and not `Shape(int)`; an `Integer` runs
/// `scale(int)` (unboxed) and `scale(double)` (widened), and not
/// `scale(String)`; a `null` argument fits both of its methods. The
/// static edges at the traced run's sites are then its own and the null
/// call's other method (tests/data/traces/ArgumentTypes.tsv).
#[test]
fn argument_objects_select_among_the_members_of_one_count() {
    let dir = tempfile::tempdir().unwrap();
    let trace = root().join("tests/data/traces/ArgumentTypes.tsv");
    for variant in ["points-to", "infer"] {
        let db = dir.path().join(format!("{variant}.db"));
        analyze("ArgumentTypes", variant, &empty_spec(dir.path()), &db);
        let check = refract(&[
            "check",
            &db.display().to_string(),
            &trace.display().to_string(),
        ]);
        let want = "static edges at the traced sites: 10 (the run took 9 there)\n";
        assert!(check.contains(want), "{variant}: {check}");
    }
}

/// A count of parameters kept in a local (`Beans`, jython's idiom)
/// narrows `infer`'s placeholder of `getMethods()` with the tests of the
/// name: the adder of one parameter is called with an `Item`, and no
/// `Part` is made for the adder of two. The static edges at the traced
/// run's sites are exactly its own (tests/data/traces/Beans.tsv).
#[test]
fn a_count_of_parameters_kept_in_a_local_narrows_to_the_traced_edges() {
    let targets = assert_static_edges_are_the_traced("Beans", "infer", 4);
    assert!(!targets.contains("Part"));
}

/// `EventListener.class.isAssignableFrom(types[0])` (`Listeners`,
/// jython's test of a bean event's adder) narrows `infer`'s placeholder
/// of `getMethods()` to the adder whose parameter is a listener: the
/// argument, from an array that also holds a `String`, would admit
/// `setLabel(Object)` too. The static edges at the traced run's sites are
/// exactly its own (tests/data/traces/Listeners.tsv).
#[test]
fn a_parameter_assignable_to_a_class_narrows_to_the_traced_edges() {
    let targets = assert_static_edges_are_the_traced("Listeners", "infer", 2);
    assert!(!targets.contains("setLabel"));
}

/// `"set" + capitalize(f.getName())` over `getDeclaredFields()`
/// (`FieldSetters`, issue 34's capitalised-setter idiom) names the
/// setters of the fields, by their letters through the helper: not
/// `setup` nor `setPort`, which the known start "set" alone would fit.
/// The static edges at the traced run's sites are exactly its own
/// (tests/data/traces/FieldSetters.tsv), and the front end lists the
/// setters each field's name completes the concatenation into.
#[test]
fn a_setter_named_by_a_fields_name_resolves_to_that_fields_setter() {
    let targets = assert_static_edges_are_the_traced("FieldSetters", "infer", 5);
    assert!(!targets.contains("setup") && !targets.contains("setPort"));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fields.db");
    analyze("FieldSetters", "infer", &empty_spec(dir.path()), &db);
    let out = query(
        dir.path(),
        &db,
        "q(f, m) :- completesMethodByField(\"<FieldSetters: void main(java.lang.String[])>[42@L18] concat\", f, m), declaresField(\"FieldSetters$Settings\", f).\nq(f, m)?\n",
    );
    assert_eq!(
        out,
        " f                                              | m\n\
         ------------------------------------------------+---------------------------------------------------------\n\
         \x20<FieldSetters$Settings: java.lang.String host> | <FieldSetters$Settings: void setHost(java.lang.String)>\n\
         \x20<FieldSetters$Settings: java.lang.String user> | <FieldSetters$Settings: void setUser(java.lang.String)>\n\
         2 tuples\n"
    );
}

/// A class name built from another class's name (`ClassNames`, issue
/// 34's names derived from metaobjects): `kind.getName() + "Helper"`
/// names r.MessagesHelper, the companion of the Class objects that reach
/// `kind` (r.Counter has none), and `"r." + local.getSimpleName() +
/// "er"` names r.Upper by the simple name of a nested class, not the
/// r.Counter, r.Lower and r.MessagesHelper that the known text fits;
/// `messages.getCanonicalName() + "Helper"` names r.MessagesHelper too.
/// The static edges at the traced run's sites are exactly its own
/// (tests/data/traces/ClassNames.tsv), and the front end lists the
/// classes each class's name completes the concatenations into.
#[test]
fn a_class_named_by_another_classs_name_resolves_to_that_class() {
    let targets = assert_static_edges_are_the_traced("ClassNames", "infer", 4);
    assert!(!targets.contains("r.Lower") && !targets.contains("r.Counter"));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("names.db");
    analyze("ClassNames", "infer", &empty_spec(dir.path()), &db);
    let out = query(
        dir.path(),
        &db,
        "q(c, t) :- completesTypeByName(_, c, t).\nq(c, t)?\n\
         s(c, t) :- completesTypeBySimpleName(_, c, t).\ns(c, t)?\n",
    );
    assert_eq!(
        out,
        " c          | t\n\
         ------------+------------------\n\
         \x20r.Messages | r.MessagesHelper\n\
         1 tuple\n\
         \x20c              | t\n\
         ----------------+---------\n\
         \x20ClassNames$Upp | r.Upper\n\
         1 tuple\n"
    );
}

/// `infer --probe` (SOLAR's PROBE, seed 004 section 5.7): a placeholder
/// is resolved at its uses only where something of its member's
/// signature is known. In `Inferred`, the JUnit loop's
/// `startsWith("test")`, `getMethod(name, String.class)` and the
/// constructors keep their targets; the unfiltered `getFields()` loop and
/// `getField(input)`, whose cast `infer` reads, resolve nothing, and the
/// report says why. In `Arity` and `DeclaredMethods`, an unfiltered
/// `getDeclaredMethods()` loop calls nothing. The option needs `infer`.
#[test]
fn probe_resolves_only_the_placeholders_whose_signature_is_known_in_part() {
    let dir = tempfile::tempdir().unwrap();
    let spec = empty_spec(dir.path());
    for main in ["Inferred", "Arity", "DeclaredMethods"] {
        let db = dir.path().join(format!("{main}.db"));
        analyze_with(main, "infer", &spec, &db, &["--probe"]);
        let got = refract(&["export", "targets", &db.display().to_string()]);
        let file = root().join(format!("tests/expected/reflection/{main}.probe.tsv"));
        assert_eq!(got, std::fs::read_to_string(&file).unwrap(), "{main}");
    }
    let db = dir.path().join("Inferred.db").display().to_string();
    let report = refract(&["report", &db, "--unsound"]);
    assert!(
        report.starts_with("reflection variant: infer, probe\n"),
        "{report}"
    );
    for line in [
        "  Field.get               Inferred.main([Ljava/lang/String;)V @ 108 (line 25): a metaobject reaches it whose member's name and signature nothing tells; --probe leaves it unresolved\n",
        "    spec: Inferred\tmain\t([Ljava/lang/String;)V\t108\t25\tField.get\t<class>.<field>\n",
    ] {
        assert!(report.contains(line), "{report}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_refract"))
        .args(["analyze", &classes(), "--main", "Inferred", "--jdk", "none"])
        .args(["--reflection", "casts", "--probe", "-o"])
        .arg(dir.path().join("casts.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: --probe weakens infer's inference; it needs --reflection infer\n"
    );
}

/// A lambda made by `altMetafactory` with a marker interface and
/// `Serializable` implements both: the casts to them keep it, and the
/// call of `run` on the cast variable reaches the lambda's body.
#[test]
fn lambda_marker_interfaces_survive_casts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("markers.db");
    let spec = empty_spec(dir.path());
    analyze("Markers", "points-to", &spec, &db);
    let main = "<Markers: void main(java.lang.String[])>";
    let out = query(
        dir.path(),
        &db,
        &format!(
            "vP(\"{main}/l2@19\", h)?\n\
             vP(\"{main}/l3@24\", h)?\n\
             reach(\"<Markers: void lambda$main$d63682a$1()>\")?\n"
        ),
    );
    let lambda = format!(" {main}[0@L11] new Markers$$Lambda$0");
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    assert_eq!(lines[2], lambda);
    assert_eq!(lines[6], lambda);
    assert_eq!(lines[8], "yes", "{out}");
}

/// An array holds only objects of its element type: the fixture stores a
/// class name through an `Object[]` that may be a `String[]` or a
/// `StringBuilder[]`, and only the `String[]` keeps it (the JVM throws
/// `ArrayStoreException` for the other). The name then resolves the
/// `forName` reading the `String[]`, not the one reading the builders.
/// The command line that `main` receives holds input text.
#[test]
fn an_array_holds_only_objects_of_its_element_type() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("arrays.db");
    let spec = empty_spec(dir.path());
    analyze("ArrayElements", "points-to", &spec, &db);
    let out = query(
        dir.path(),
        &db,
        "elements(a, h) :- hP(a, \"[]\", h).\nelements(a, h)?\n",
    );
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    assert_eq!(
        lines,
        [
            " a                                                                                   | h",
            "-------------------------------------------------------------------------------------+-----------------------------------------------------------------------------------",
            " <ArrayElements: java.lang.Object[] builders()>[1@L14] new java.lang.StringBuilder[] | <ArrayElements: java.lang.Object[] builders()>[6@L14] new java.lang.StringBuilder",
            " <ArrayElements: void main(java.lang.String[])> <command line>                       | <command line argument>",
            " <ArrayElements: void main(java.lang.String[])>[1@L18] new java.lang.String[]        | \"r.Shape\"",
            " <ArrayElements: void main(java.lang.String[])>[1@L18] new java.lang.String[]        | \"r.Upper\"",
            "4 tuples",
        ]
    );
}

/// A setter reached through an interface stores into the receivers whose
/// class has its field: `feed`'s one `sink.accept(o)` calls both setters
/// with both sinks, and each sink's field holds what the call passed
/// (both names, context-insensitively), while no sink gets the other's
/// field.
#[test]
fn a_setter_stores_only_into_receivers_that_have_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("sinks.db");
    let spec = empty_spec(dir.path());
    analyze("Sinks", "points-to", &spec, &db);
    let out = query(
        dir.path(),
        &db,
        "sinkFields(a, f, h) :- hP(a, f, h), hT(a, t), aT(\"Sinks$Sink\", t).\n\
         sinkFields(a, f, h)?\n",
    );
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    assert_eq!(
        lines,
        [
            " a                                                              | f                                      | h",
            "----------------------------------------------------------------+----------------------------------------+-----------",
            " <Sinks: void main(java.lang.String[])>[0@L32] new Sinks$First  | <Sinks$First: java.lang.Object value>  | \"r.Lower\"",
            " <Sinks: void main(java.lang.String[])>[0@L32] new Sinks$First  | <Sinks$First: java.lang.Object value>  | \"r.Upper\"",
            " <Sinks: void main(java.lang.String[])>[8@L33] new Sinks$Second | <Sinks$Second: java.lang.Object other> | \"r.Lower\"",
            " <Sinks: void main(java.lang.String[])>[8@L33] new Sinks$Second | <Sinks$Second: java.lang.Object other> | \"r.Upper\"",
            "4 tuples",
        ]
    );
}

/// Field.set stores a value only where the JVM would: into an object of a
/// class that declares the field, a value of the field's type, and nothing
/// into a primitive field. The fixture offers each set a wrong object and
/// a wrong value beside the right ones. A load and Field.get then read
/// what a set stored: a class name, which resolves their forName calls.
#[test]
fn a_reflective_field_set_stores_only_what_the_field_admits() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fields.db");
    let spec = empty_spec(dir.path());
    analyze("FieldTypes", "points-to", &spec, &db);
    let out = query(dir.path(), &db, "setBase(i, f, o)?\nsetValue(i, f, h)?\n");
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    assert_eq!(
        lines,
        [
            " i                                                                                                                                         | f                                         | o",
            "-------------------------------------------------------------------------------------------------------------------------------------------+-------------------------------------------+--------------------------------------------------------------------------",
            " <FieldTypes: void main(java.lang.String[])>[56@L14] invokevirtual <java.lang.reflect.Field: void set(java.lang.Object,java.lang.Object)>  | <r.Upper: java.lang.String prefix>        | <FieldTypes: void main(java.lang.String[])>[5@L11] new r.Upper",
            " <FieldTypes: void main(java.lang.String[])>[81@L16] invokevirtual <java.lang.reflect.Field: void set(java.lang.Object,java.lang.Object)>  | <r.Counter: int count>                    | <FieldTypes: void main(java.lang.String[])>[73@L16] new r.Counter",
            " <FieldTypes: void main(java.lang.String[])>[111@L20] invokevirtual <java.lang.reflect.Field: void set(java.lang.Object,java.lang.Object)> | <FieldTypes$Named: java.lang.Object name> | <FieldTypes: void main(java.lang.String[])>[84@L18] new FieldTypes$Named",
            "3 tuples",
            " i                                                                                                                                         | f                                         | h",
            "-------------------------------------------------------------------------------------------------------------------------------------------+-------------------------------------------+-------------------",
            " <FieldTypes: void main(java.lang.String[])>[56@L14] invokevirtual <java.lang.reflect.Field: void set(java.lang.Object,java.lang.Object)>  | <r.Upper: java.lang.String prefix>        | <string constant>",
            " <FieldTypes: void main(java.lang.String[])>[111@L20] invokevirtual <java.lang.reflect.Field: void set(java.lang.Object,java.lang.Object)> | <FieldTypes$Named: java.lang.Object name> | \"r.Shape\"",
            "2 tuples",
        ]
    );
    let exported = refract(&["export", "targets", &db.display().to_string()]);
    assert_eq!(
        exported.lines().collect::<Vec<_>>(),
        [
            "caller_class\tcaller_method\tcaller_desc\tbci\tline\tapi\ttarget",
            "FieldTypes\tmain\t([Ljava/lang/String;)V\t44\t13\tClass.forName\tr.Upper",
            "FieldTypes\tmain\t([Ljava/lang/String;)V\t49\t13\tClass.getField\tr.Upper.prefix",
            "FieldTypes\tmain\t([Ljava/lang/String;)V\t56\t14\tField.set\tr.Upper.prefix",
            "FieldTypes\tmain\t([Ljava/lang/String;)V\t61\t15\tClass.forName\tr.Counter",
            "FieldTypes\tmain\t([Ljava/lang/String;)V\t66\t15\tClass.getDeclaredField\tr.Counter.count",
            "FieldTypes\tmain\t([Ljava/lang/String;)V\t81\t16\tField.set\tr.Counter.count",
            "FieldTypes\tmain\t([Ljava/lang/String;)V\t95\t19\tClass.forName\tFieldTypes$Named",
            "FieldTypes\tmain\t([Ljava/lang/String;)V\t100\t19\tClass.getField\tFieldTypes$Named.name",
            "FieldTypes\tmain\t([Ljava/lang/String;)V\t111\t20\tField.set\tFieldTypes$Named.name",
            "FieldTypes\tmain\t([Ljava/lang/String;)V\t122\t21\tClass.forName\tr.Shape",
            "FieldTypes\tmain\t([Ljava/lang/String;)V\t130\t22\tField.get\tFieldTypes$Named.name",
            "FieldTypes\tmain\t([Ljava/lang/String;)V\t136\t22\tClass.forName\tr.Shape",
        ]
    );
}

/// An export, edited or not, is a specification: feeding the casts
/// variant's targets back into the sound variant resolves the same sites.
#[test]
fn exported_targets_round_trip_as_a_specification() {
    let dir = tempfile::tempdir().unwrap();
    let empty = empty_spec(dir.path());
    let casts = dir.path().join("casts.db");
    analyze("Casts", "casts", &empty, &casts);
    let exported = refract(&["export", "targets", &casts.display().to_string()]);
    let spec = dir.path().join("casts.spec");
    std::fs::write(&spec, &exported).unwrap();
    let sound = dir.path().join("sound.db");
    analyze("Casts", "sound", &spec, &sound);
    assert_eq!(
        refract(&["export", "targets", &sound.display().to_string()]),
        exported
    );
    // And the Fig. 3 form.
    let fig3 = refract(&[
        "export",
        "targets",
        &casts.display().to_string(),
        "--format",
        "spec",
    ]);
    assert_eq!(
        fig3,
        "main() @ 7 Casts.java:7 => r.Lower\n\
         main() @ 7 Casts.java:7 => r.Upper\n\
         main() @ 12 Casts.java:8 => r.Lower\n\
         main() @ 12 Casts.java:8 => r.Upper\n"
    );
    std::fs::write(&spec, &fig3).unwrap();
    analyze("Casts", "sound", &spec, &sound);
    assert_eq!(
        refract(&["export", "targets", &sound.display().to_string()]),
        exported
    );
}

#[test]
fn bad_specifications_and_roots_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bad.spec");
    std::fs::write(&spec, "main() @ 999 Casts.java:7 => r.Lower\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_refract"))
        .args([
            "analyze",
            &classes(),
            "--main",
            "Casts",
            "--jdk",
            "none",
            "--reflection",
            "sound",
            "--spec",
        ])
        .arg(&spec)
        .arg("-o")
        .arg(dir.path().join("x.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        format!(
            "error: {}:1: no call site of the class path matches `main() @ 999 Casts.java:7 => r.Lower`\n",
            spec.display()
        )
    );
    assert!(!dir.path().join("x.db").exists());
    // A missing main class: the application's classes with a main method,
    // or the nearest of them.
    let missing_main = |main: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_refract"))
            .args(["analyze", &classes(), "--main", main, "--jdk", "none", "-o"])
            .arg(dir.path().join("x.db"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8(out.stderr).unwrap()
    };
    assert_eq!(
        missing_main("NoSuch"),
        "error: --main NoSuch: the class path has no method <NoSuch: void main(java.lang.String[])> \
         (classes with a main method: Annotated, ArgumentTypes, Arity, ArrayElements, Assumed, Beans, \
         BoundHandles, Bundles, Callbacks, Casts, and 60 more)\n"
    );
    assert_eq!(
        missing_main("invoke"),
        "error: --main invoke: the class path has no method <invoke: void main(java.lang.String[])> \
         (did you mean Invoke?)\n"
    );
}

/// A JDK under `dir` holding only the local JDK's `modules` (the whole
/// JDK is what the benchmarks run; java.base alone keeps a test under a
/// minute).
fn jdk_of(dir: &Path, modules: &[&str]) -> PathBuf {
    let mods = refract::classpath::jdk::jmods(&refract::classpath::jdk::JdkChoice::Auto)
        .expect("a JDK with jmods (scripts/install-test-deps.sh)");
    let jdk: PathBuf = dir.join("jdk");
    std::fs::create_dir_all(jdk.join("jmods")).unwrap();
    for module in modules {
        let file = format!("{module}.jmod");
        let jmod = mods
            .iter()
            .find(|m| m.file_name().is_some_and(|n| *n == *file))
            .unwrap();
        std::os::unix::fs::symlink(jmod, jdk.join("jmods").join(&file)).unwrap();
    }
    jdk
}

/// Analyzes fixture `main` with `variant` against java.base alone, into
/// a database under `dir`.
fn analyze_against_java_base(dir: &Path, main: &str, variant: &str) -> PathBuf {
    analyze_against(dir, &classes(), main, variant, &["java.base"])
}

/// The fixtures that share one analysis against java.base (`points-to`):
/// the tests of these read only their own fixture's sites, or the JDK's
/// sites filtered by their own classes, so one program of all their
/// mains serves them all. A java.base analysis takes about a minute on a
/// 2-core machine whether it has one main or ten (the JDK's code reached
/// is much the same), and ten of them were half of this file's time.
/// Analysed together, each fixture must also keep its exact results
/// beside the others': what the JDK's shared code passes between them
/// would show in their own sites.
const JAVA_BASE_GROUP: &[&str] = &[
    "Properties",
    "Containers",
    "Immutable",
    "Stringified",
    "Computed",
    "Sealed",
    "Enums",
    "Services",
    "Bundles",
    "Trampolined",
    "ParamAnnotations",
    "UrlLoaders",
    "Futures",
    "Definer",
    "Modules",
];

/// The database of `JAVA_BASE_GROUP` (the fixture sets `reflection` and
/// `internal`) against java.base, made once per run of this file by the
/// first test that wants it; the others wait for it. Statics are never
/// dropped, so the directory is under cargo's target directory, not
/// /tmp.
fn java_base_db() -> &'static Path {
    static DB: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, db) = DB.get_or_init(|| {
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let internal = root().join("fixtures/classes/internal");
        let class_path = [classes(), internal.display().to_string()];
        let class_path: Vec<&str> = class_path.iter().map(String::as_str).collect();
        let db = analyze_mains(
            dir.path(),
            &class_path,
            JAVA_BASE_GROUP,
            "points-to",
            &["java.base"],
        );
        (dir, db)
    });
    db
}

/// The fixtures that share one analysis against java.base under `infer`
/// (see `JAVA_BASE_GROUP`): names that strings complete, and names that
/// metaobjects give.
const INFER_JAVA_BASE_GROUP: &[&str] = &["Completed", "SameNames"];

/// The database of `INFER_JAVA_BASE_GROUP` against java.base, made once
/// per run of this file (see `java_base_db`).
fn infer_java_base_db() -> &'static Path {
    static DB: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    let (_, db) = DB.get_or_init(|| {
        let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let classes = classes();
        let db = analyze_mains(
            dir.path(),
            &[&classes],
            INFER_JAVA_BASE_GROUP,
            "infer",
            &["java.base"],
        );
        (dir, db)
    });
    db
}

/// Analyzes `main` of the class directory `classes` with `variant`
/// against the JDK's `modules`, into a database under `dir`.
fn analyze_against(
    dir: &Path,
    classes: &str,
    main: &str,
    variant: &str,
    modules: &[&str],
) -> PathBuf {
    analyze_mains(dir, &[classes], &[main], variant, modules)
}

/// Analyzes the `mains` of `class_path` with `variant` against the JDK's
/// `modules`, into a database under `dir`.
fn analyze_mains(
    dir: &Path,
    class_path: &[&str],
    mains: &[&str],
    variant: &str,
    modules: &[&str],
) -> PathBuf {
    let jdk = jdk_of(dir, modules).display().to_string();
    let db = dir.join("jdk.db");
    let out = db.display().to_string();
    let mut args = vec!["analyze"];
    args.extend(class_path);
    for main in mains {
        args.extend(["--main", main]);
    }
    args.extend(["--jdk", &jdk, "--reflection", variant, "-q", "-o", &out]);
    refract(&args);
    db
}

/// The whole pipeline over a small program and the JDK's java.base
/// completes. The reflection variants over the JDK do not yet finish in
/// test time (the context-insensitive analysis resolves the JDK's own
/// reflection and grows); this runs the `none` variant.
#[test]
fn analysis_completes_against_the_jdk_java_base() {
    let dir = tempfile::tempdir().unwrap();
    let db = analyze_against_java_base(dir.path(), "ConstantForName", "none");
    assert_eq!(
        refract(&["export", "targets", &db.display().to_string()]),
        std::fs::read_to_string(root().join("tests/expected/reflection/ConstantForName.none.tsv"))
            .unwrap()
    );
    let reach = refract(&["export", "relation", "reach", &db.display().to_string()]);
    assert!(!reach.contains("<java.lang.System: void initPhase1()>"));
    let report = refract(&["report", &db.display().to_string()]);
    assert!(
        report.contains("Class.forName                 1      0      0      1"),
        "{report}"
    );
    assert!(
        report.contains("Class.newInstance             1      0      0      1"),
        "{report}"
    );
}

/// `--roots jvm` (queries/models/jvm-entry.dl) makes the methods that the
/// JVM calls itself roots, with no `--main`: the start-up phases, the
/// shutdown, invokedynamic's linking, and on the objects that exist a
/// thread's end and a loader's `loadClass`. A JDK 8 row that java.base
/// of JDK 17 lacks reaches nothing. Without the option none is reached
/// (the small program's run above).
#[test]
fn jvm_roots_are_the_methods_the_jvm_calls() {
    let dir = tempfile::tempdir().unwrap();
    let jdk = jdk_of(dir.path(), &["java.base"]);
    let db = dir.path().join("jvm.db");
    let db = db.display().to_string();
    refract(&[
        "analyze",
        &classes(),
        "--roots",
        "jvm",
        "--jdk",
        &jdk.display().to_string(),
        "--reflection",
        "none",
        "-q",
        "-o",
        &db,
    ]);
    let reach = refract(&["export", "relation", "reach", &db]);
    let reach: std::collections::HashSet<&str> = reach.lines().collect();
    for m in [
        "<java.lang.System: void initPhase1()>",
        "<java.lang.System: void initPhase3()>",
        "<java.lang.Shutdown: void shutdown()>",
        "<java.lang.Thread: void exit()>",
        "<java.lang.Thread: void dispatchUncaughtException(java.lang.Throwable)>",
        "<java.lang.ClassLoader: java.lang.Class loadClass(java.lang.String)>",
        "<java.lang.invoke.MethodHandleNatives: java.lang.invoke.MemberName linkCallSite(java.lang.Object,int,java.lang.Object,java.lang.Object,java.lang.Object,java.lang.Object,java.lang.Object[])>",
    ] {
        assert!(reach.contains(m), "{m} is not reached");
    }
    assert!(!reach.contains("<java.lang.System: void initializeSystemClass()>"));
    // No main: the application's own methods are not reached.
    assert!(!reach.iter().any(|m| m.starts_with("<ConstantForName:")));
    let manifest = std::fs::read_to_string(Path::new(&db).join("metadata.tsv")).unwrap();
    assert!(manifest.contains("option\troots\tjvm\n"), "{manifest}");
}

/// A dispatched call passes each receiver object to `this` of the method
/// its own class runs (fixture `Dispatch`): the Circle reaches
/// Circle.self() alone, though it is a Shape too, and the call's result
/// holds both objects.
#[test]
fn receivers_reach_the_method_their_own_type_dispatches_to() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("dispatch.db").display().to_string();
    let main = "<Dispatch: void main(java.lang.String[])>";
    refract(&[
        "analyze",
        &classes(),
        "--main",
        "Dispatch",
        "--jdk",
        "none",
        "-q",
        "-o",
        &db,
    ]);
    let this = refract(&[
        "query",
        &db,
        "s(m, h) :- methodSig(m, \"java.lang.Object self()\"), formal(m, 0, v), vP(v, h).",
        "s(m, h)?",
        &format!("r(h) :- mI(\"{main}\", i, _), Iret(i, r), vP(r, h)."),
        "r(h)?",
    ]);
    assert_eq!(
        this,
        format!(
            " m                                          | h\n\
             --------------------------------------------+-----------------------------------------------------------------------\n\
             \x20<Dispatch$Circle: java.lang.Object self()> | {main}[15@L22] new Dispatch$Circle\n\
             \x20<Dispatch$Shape: java.lang.Object self()>  | {main}[5@L22] new Dispatch$Shape\n\
             2 tuples\n\
             \x20h\n\
             -----------------------------------------------------------------------\n\
             \x20{main}[15@L22] new Dispatch$Circle\n\
             \x20{main}[5@L22] new Dispatch$Shape\n\
             2 tuples\n"
        )
    );
}

/// `--no-model` switches a model off on the same facts: without the
/// proxies' model, `Proxies` finds neither its proxy classes nor the
/// handler's Method.invoke (the handler is never called), and the
/// database says which models were off. Every model can be switched off
/// alone, in the variant that reads them all; an unknown name is a usage
/// error.
#[test]
fn models_switch_off_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("off.db").display().to_string();
    let analyze = |extra: &[&str]| {
        let mut args = vec![
            "analyze", "--main", "Proxies", "--jdk", "none", "-q", "-o", &db,
        ];
        args.extend_from_slice(extra);
        Command::new(env!("CARGO_BIN_EXE_refract"))
            .args(&args)
            .arg(classes())
            .output()
            .unwrap()
    };
    let out = analyze(&["--no-model", "proxies"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        refract(&["export", "targets", &db]),
        "caller_class\tcaller_method\tcaller_desc\tbci\tline\tapi\ttarget\n"
    );
    let manifest = std::fs::read_to_string(Path::new(&db).join("metadata.tsv")).unwrap();
    assert!(
        manifest.contains("option\tno-model\tproxies\n"),
        "{manifest}"
    );
    for model in refract::analysis::variant::MODEL_NAMES {
        let out = analyze(&["--reflection", "infer", "--no-model", model]);
        assert!(
            out.status.success(),
            "{model}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let out = analyze(&["--no-model", "proxy"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("invalid value 'proxy' for '--no-model <MODEL>'"));
}

/// With the JDK's own `System.getProperty` and `Properties` behind the
/// calls, a property is still input and its default a source: the
/// program's targets are those of the run without the JDK. Followed into
/// java.base, `getProperty`'s result had been the property table's
/// contents (and the default was lost: `System.props` is set by the VM).
#[test]
fn properties_are_input_against_the_jdk_java_base() {
    let db = java_base_db();
    // Only main's sites: the loader's own site also serves the JDK's
    // calls of loadClass on a loader of unknown origin.
    let mains = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("Properties\tmain\t"))
            .map(str::to_string)
            .collect()
    };
    let want =
        std::fs::read_to_string(root().join("tests/expected/reflection/Properties.points-to.tsv"))
            .unwrap();
    assert_eq!(
        mains(&refract(&["export", "targets", &db.display().to_string()])),
        mains(&want)
    );
}

/// Each of the JDK's collections keeps its own elements (see
/// `src/models/containers.rs`): against java.base, the name read from one map
/// is that map's, a list copied and iterated gives its own, and an entry
/// set gives its map's values. Followed into the JDK's code (before the
/// summaries), each of the three sites received seven names: all three of
/// the program's and four from java.base's own collections.
#[test]
fn collections_keep_their_own_elements_against_the_jdk_java_base() {
    let db = java_base_db();
    let exported = refract(&["export", "targets", &db.display().to_string()]);
    let mains: Vec<&str> = exported
        .lines()
        .filter(|l| l.starts_with("Containers\tmain\t"))
        .collect();
    assert_eq!(
        mains,
        [
            "Containers\tmain\t([Ljava/lang/String;)V\t50\t16\tClass.forName\tr.Upper",
            "Containers\tmain\t([Ljava/lang/String;)V\t114\t21\tClass.forName\tr.Lower",
            "Containers\tmain\t([Ljava/lang/String;)V\t166\t24\tClass.forName\tr.Shape",
        ]
    );
}

/// `--no-model containers` builds the facts without the model of the
/// collections (`queries/models/containers.tsv`): without a JDK the
/// model answers `put` and `get` at their call sites and each of
/// `Containers`' three sites finds its class; switched off, `get` has no
/// body to return anything, and the sites find none. `refract facts`
/// takes the switch too, and both databases record it.
#[test]
fn the_container_model_switches_off() {
    let dir = tempfile::tempdir().unwrap();
    let mut exports = Vec::new();
    for off in [false, true] {
        let db = dir.path().join(format!("{off}.db")).display().to_string();
        let mut args = vec!["analyze", "--main", "Containers", "--jdk", "none", "-q"];
        args.extend(["--reflection", "points-to", "-o", &db]);
        if off {
            args.extend(["--no-model", "containers"]);
        }
        let classes = classes();
        args.push(&classes);
        let exported = refract(&args);
        assert_eq!(exported, "");
        let targets = refract(&["export", "targets", &db]);
        exports.push(
            (targets.lines())
                .filter(|l| l.starts_with("Containers\tmain\t"))
                .map(|l| l.rsplit('\t').next().unwrap_or("").to_string())
                .collect::<Vec<_>>(),
        );
        let manifest = std::fs::read_to_string(Path::new(&db).join("metadata.tsv")).unwrap();
        assert_eq!(manifest.contains("option\tno-model\tcontainers\n"), off);
    }
    assert_eq!(exports, [vec!["r.Upper", "r.Lower", "r.Shape"], vec![]]);
    let facts = dir.path().join("facts.db").display().to_string();
    refract(&[
        "facts",
        &classes(),
        "--jdk",
        "none",
        "--no-model",
        "containers",
        "-q",
        "-o",
        &facts,
    ]);
    let manifest = std::fs::read_to_string(Path::new(&facts).join("metadata.tsv")).unwrap();
    assert!(
        manifest.contains("option\tno-model\tcontainers\n"),
        "{manifest}"
    );
}

/// The JDK's immutable and wrapped collections keep their own elements
/// too (the factories of `src/models/containers.rs`): against java.base, each
/// of `List.of`, `Set.of`, `Map.of`, `List.copyOf` and
/// `Collections.unmodifiableList(Arrays.asList(..))` gives its site the
/// one name the run loaded (tests/data/traces/Immutable.tsv). Before the
/// factories, java.base's own `List.of` and `Set.of` calls met the
/// program's in ImmutableCollections: each of the five sites took 7 names.
#[test]
fn immutable_collections_keep_their_own_elements_against_the_jdk_java_base() {
    exports_the_trace_against_java_base("Immutable", 5);
}

/// VarHandles move references (queries/models/var-handles.dl): an
/// instance field found by name, a static field, a `Field` object's field
/// and an array's elements, each written by one access mode and read by
/// another. `compareAndSet` writes its second value and `getAndSet` its
/// one (`item` and `swapItem` read both objects), `setRelease` writes the
/// static field, `set` the `Field` object's, and `setVolatile` and
/// `compareAndExchange` the array's elements; an
/// `AtomicReferenceFieldUpdater`'s `compareAndSet` and `lazySet` write
/// its field. Without the model every read is empty.
#[test]
fn var_handles_write_and_read_fields_and_array_elements() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("vh.db");
    let spec = empty_spec(dir.path());
    analyze("VarHandles", "points-to", &spec, &db);
    let reads = "vP(\"<VarHandles: java.lang.Object item(VarHandles$Box)>/ret\", h)?\n\
                 vP(\"<VarHandles: java.lang.Object swapItem(VarHandles$Box,java.lang.Object)>/ret\", h)?\n\
                 vP(\"<VarHandles: java.lang.Object shared()>/ret\", h)?\n\
                 vP(\"<VarHandles: java.lang.Object text(VarHandles$Cell)>/ret\", h)?\n\
                 vP(\"<VarHandles: java.lang.Object slot(java.lang.Object[],int)>/ret\", h)?\n\
                 vP(\"<VarHandles: java.lang.Object exchangeSlot(java.lang.Object[],int,java.lang.Object)>/ret\", h)?\n\
                 vP(\"<VarHandles: java.lang.Object next(VarHandles$Node)>/ret\", h)?\n";
    let objects = |out: String| -> Vec<String> {
        out.lines()
            .map(str::trim_end)
            .filter(|l| {
                l.starts_with(" <")
                    || l.starts_with(" \"")
                    || l.ends_with("tuples")
                    || l.ends_with("tuple")
            })
            .map(|l| l.trim().to_string())
            .collect()
    };
    let main = "<VarHandles: void main(java.lang.String[])>";
    let new = |at: &str, class: &str| format!("{main}[{at}] new VarHandles${class}");
    let (first, second) = (new("13@L89", "First"), new("25@L90", "Second"));
    let (fourth, fifth) = (new("78@L95", "Fourth"), new("91@L96", "Fifth"));
    assert_eq!(
        objects(query(dir.path(), &db, reads)),
        [
            first.as_str(),
            &second,
            "2 tuples",
            &first,
            &second,
            "2 tuples",
            &new("39@L91", "Third"),
            "1 tuple",
            "\"text\"",
            "1 tuple",
            &fourth,
            &fifth,
            "2 tuples",
            &fourth,
            &fifth,
            "2 tuples",
            &new("117@L98", "Sixth"),
            &new("133@L99", "Seventh"),
            "2 tuples",
        ]
    );
    let off = dir.path().join("off.db");
    analyze_with(
        "VarHandles",
        "points-to",
        &spec,
        &off,
        &["--no-model", "var-handles"],
    );
    assert_eq!(objects(query(dir.path(), &off, reads)), ["0 tuples"; 7]);
}

/// A class name passed through a `CompletableFuture` (fixture `Futures`):
/// `complete` stores it with `RESULT.compareAndSet`, a `VarHandle`
/// (queries/models/var-handles.dl), and `join` reads the field back.
/// Against java.base the `forName` loads exactly the class the run
/// loaded; before the model the store was lost and the site had no
/// target.
#[test]
fn a_name_passed_through_a_completable_future_reaches_for_name_against_the_jdk_java_base() {
    exports_the_trace_against_java_base("Futures", 1);
}

/// A class loader that defines a class of the class path from its class
/// file's bytes under its name (fixture `Definer`,
/// `ClassLoader.defineClass(name, bytes, 0, n)`, `classNameArg` in
/// reflection.dl): the definition has that class, and the reflective
/// calls on it are exactly the run's (tests/data/traces/Definer.tsv;
/// reftrace does not trace `defineClass` itself). Before, the site was
/// reported as a class made during the run, and the calls on its class
/// had no target.
#[test]
fn a_class_defined_under_a_known_name_is_the_class_path_class_against_the_jdk_java_base() {
    assert_eq!(
        group_targets("Definer"),
        [
            "Definer\tdefine\t(Ljava/lang/String;)Ljava/lang/Class;\t30\t17\tClassLoader.defineClass\tr.Upper",
            "Definer\tmain\t([Ljava/lang/String;)V\t18\t23\tClass.getDeclaredConstructor\tr.Upper.<init>",
            "Definer\tmain\t([Ljava/lang/String;)V\t25\t23\tConstructor.newInstance\tr.Upper.<init>()V",
            "Definer\tmain\t([Ljava/lang/String;)V\t45\t24\tClass.forName\tr.Upper",
        ]
    );
}

/// `Class.forName(Module, String)` finds only the classes of the module
/// it is given (fixture `Modules`, reflection.dl's `moduleAdmits`): the
/// class path's `r.Upper` in the unnamed module of `Modules.class`, and
/// `java.util.ArrayList` in java.base, the module of `Object.class`. Asked
/// of the other module, each call returns null, and has no target. (The
/// traced run shows all four names: reftrace reports the name that
/// `forName(Module, String)` was given, as that overload never throws.)
/// Before, each call loaded both classes.
#[test]
fn for_name_with_a_module_finds_only_that_modules_classes_against_the_jdk_java_base() {
    assert_eq!(
        group_targets("Modules"),
        [
            "Modules\tmain\t([Ljava/lang/String;)V\t15\t11\tClass.forName\tr.Upper",
            "Modules\tmain\t([Ljava/lang/String;)V\t30\t13\tClass.forName\tjava.util.ArrayList",
        ]
    );
}

/// The exported targets of fixture `main`'s own sites in the shared
/// java.base database (`JAVA_BASE_GROUP`).
fn group_targets(main: &str) -> Vec<String> {
    let exported = refract(&["export", "targets", &java_base_db().display().to_string()]);
    let own = format!("{main}\t");
    (exported.lines())
        .filter(|l| l.starts_with(&own))
        .map(str::to_string)
        .collect()
}

/// A `URLClassLoader` loads by name as any class loader does (fixture
/// `UrlLoaders`): `loadClass` on a reference of type `URLClassLoader`,
/// which javac names `URLClassLoader.loadClass` and the class hierarchy
/// resolves to `ClassLoader`'s, and `Class.forName` with such a loader.
/// Against java.base the export is the run's four edges, the constructor
/// of the class loaded included; without the JDK the reference does not
/// resolve and the `loadClass` stays unresolved.
#[test]
fn a_url_class_loader_loads_by_name_against_the_jdk_java_base() {
    exports_the_trace_against_java_base("UrlLoaders", 4);
}

/// `String.valueOf(Object)` and `Objects.toString(Object)` give each call
/// its own argument's string (queries/models/string-of.dl): against
/// java.base the export is the run's two edges. Through valueOf's body,
/// each of the two sites took both names.
#[test]
fn string_value_of_gives_each_call_its_own_string_against_the_jdk_java_base() {
    exports_the_trace_against_java_base("Stringified", 2);
}

/// The functions given to `Map.computeIfAbsent` are called with their
/// own map's keys (fixture `Computed`, `src/models/containers.rs`): each of
/// its two `forName` sites loads exactly the class that the traced run
/// loaded there. When the collections' summaries passed the one `key`
/// parameter of `ConcurrentHashMap.computeIfAbsent` on to the function,
/// each site took both names.
#[test]
fn compute_if_absent_calls_each_function_with_its_own_key_against_the_jdk_java_base() {
    exports_the_trace_against_java_base("Computed", 2);
}

/// The fixture `Trampolined` (`fixtures/src/internal`) calls the JDK's
/// own `Method.invoke`, `sun.reflect.misc.MethodUtil.invoke`, twice, each
/// with its own method (`queries/models/method-util.dl`). Without the JDK
/// (the method is not there), each call still invokes exactly its own
/// method, and passes its argument and receiver; switched off, the calls
/// resolve nothing.
#[test]
fn each_call_of_method_util_invoke_invokes_its_own_method() {
    let dir = tempfile::tempdir().unwrap();
    let internal = root()
        .join("fixtures/classes/internal")
        .display()
        .to_string();
    let analyze = |name: &str, options: &[&str]| {
        let db = dir.path().join(name).display().to_string();
        let mut args = vec![
            "analyze",
            &internal,
            "--main",
            "Trampolined",
            "--jdk",
            "none",
            "-q",
            "-o",
            &db,
        ];
        args.extend(options);
        refract(&args);
        db
    };
    let db = analyze("on.db", &[]);
    let head = "caller_class\tcaller_method\tcaller_desc\tbci\tline\tapi\ttarget\n\
         Trampolined\tmain\t([Ljava/lang/String;)V\t13\t22\tClass.getMethod\tTrampolined.upper\n";
    assert_eq!(
        refract(&["export", "targets", &db]),
        format!(
            "{head}\
             Trampolined\tmain\t([Ljava/lang/String;)V\t28\t23\tMethod.invoke\tTrampolined.upper(Ljava/lang/String;)Ljava/lang/String;\n\
             Trampolined\tmain\t([Ljava/lang/String;)V\t45\t24\tClass.getMethod\tTrampolined.greet\n\
             Trampolined\tmain\t([Ljava/lang/String;)V\t66\t25\tMethod.invoke\tTrampolined.greet(Ljava/lang/String;)Ljava/lang/String;\n"
        )
    );
    // The receiver and the argument reach the target's parameters.
    let out = query(
        dir.path(),
        Path::new(&db),
        ".mode tsv\n\
         p(z, h) :- formal(\"<Trampolined: java.lang.String greet(java.lang.String)>\", z, v), vP(v, h).\n\
         p(z, h)?\n",
    );
    assert!(out.contains("0\t"), "{out}");
    assert!(out.contains("1\t"), "{out}");
    let off = analyze("off.db", &["--no-model", "method-util"]);
    let exported = refract(&["export", "targets", &off]);
    assert!(!exported.contains("\tMethod.invoke\t"), "{exported}");
}

/// Against java.base, each call of `MethodUtil.invoke` in `Trampolined`
/// invokes exactly its own method (analysed through the trampoline's
/// body, both calls' methods and arguments met in its one
/// `Method.invoke`). The trampoline's own sites, which the run's
/// trace names, stay reachable with the union of the calls' targets, so
/// that `refract check` finds every traced edge.
#[test]
fn method_util_invoke_against_java_base_keeps_the_trampoline_for_the_trace() {
    let db = java_base_db().display().to_string();
    let exported = refract(&["export", "targets", &db]);
    let invoked: Vec<&str> = exported
        .lines()
        .filter(|l| l.contains("\tMethod.invoke\t"))
        .filter(|l| l.starts_with("Trampolined\t") || l.starts_with("sun.reflect.misc."))
        .collect();
    let util = "sun.reflect.misc.MethodUtil\tinvoke\t(Ljava/lang/reflect/Method;Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;";
    let trampoline = "sun.reflect.misc.Trampoline\tinvoke\t(Ljava/lang/reflect/Method;Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;";
    assert_eq!(
        invoked,
        [
            "Trampolined\tmain\t([Ljava/lang/String;)V\t28\t23\tMethod.invoke\tTrampolined.upper(Ljava/lang/String;)Ljava/lang/String;".to_string(),
            "Trampolined\tmain\t([Ljava/lang/String;)V\t66\t25\tMethod.invoke\tTrampolined.greet(Ljava/lang/String;)Ljava/lang/String;".to_string(),
            format!("{util}\t20\t262\tMethod.invoke\tsun.reflect.misc.Trampoline.invoke(Ljava/lang/reflect/Method;Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;"),
            format!("{trampoline}\t7\t72\tMethod.invoke\tTrampolined.greet(Ljava/lang/String;)Ljava/lang/String;"),
            format!("{trampoline}\t7\t72\tMethod.invoke\tTrampolined.upper(Ljava/lang/String;)Ljava/lang/String;"),
        ],
        "{exported}"
    );
    let trace = root().join("tests/data/traces/Trampolined.tsv");
    let check = refract(&["check", &db, &trace.display().to_string()]);
    // MethodUtil.invoke calling the trampoline, and the trampoline
    // calling both methods.
    assert!(
        check.contains("Method.invoke                     0/0      -          3/3   1.00\n"),
        "{check}"
    );
}

/// Strong encapsulation: against java.base, the fixture Sealed's one
/// Method.invoke site calls String.isEmpty() and its own private
/// secret(), as the run did, and not jdk.internal.misc.VM.isBooted(),
/// whose package java.base does not export (the run's setAccessible
/// threw); its Field.get does not read the private String.hash, which
/// java.lang does not open. Before models/encapsulation.dl the export
/// had both.
#[test]
fn reflection_from_the_class_path_uses_only_what_the_jdk_exports_or_opens() {
    exports_the_trace_against_java_base("Sealed", 7);
    // Switched off, the model lets the calls through.
    let dir = tempfile::tempdir().unwrap();
    let jdk = jdk_of(dir.path(), &["java.base"]);
    let db = dir.path().join("open.db");
    refract(&[
        "analyze",
        &classes(),
        "--main",
        "Sealed",
        "--jdk",
        &jdk.display().to_string(),
        "--no-model",
        "encapsulation",
        "-q",
        "-o",
        &db.display().to_string(),
    ]);
    let exported = refract(&["export", "targets", &db.display().to_string()]);
    let denied: Vec<&str> = exported
        .lines()
        .filter(|l| l.starts_with("Sealed\tmain\t"))
        .filter(|l| l.contains("VM.isBooted()") || l.contains("\tField.get\t"))
        .map(|l| l.rsplit('\t').next().unwrap())
        .collect();
    assert_eq!(
        denied,
        ["jdk.internal.misc.VM.isBooted()Z", "java.lang.String.hash"],
        "{exported}"
    );
}

/// Analyses the fixture `main` against java.base (`points-to`): the
/// export at the sites of class `main` is exactly the `traced` edges of
/// tests/data/traces/MAIN.tsv, written by reftrace (less its
/// `Method.invoke.dispatch` rows: the export names the Method object's
/// method).
fn exports_the_trace_against_java_base(main: &str, traced: usize) {
    let db = java_base_db();
    let exported = refract(&["export", "targets", &db.display().to_string()]);
    let own = format!("{main}\t");
    let trace_file = root().join(format!("tests/data/traces/{main}.tsv"));
    let trace = std::fs::read_to_string(trace_file).unwrap();
    let want: Vec<String> = trace
        .lines()
        .filter(|l| l.starts_with(&own) && !l.contains("\tMethod.invoke.dispatch\t"))
        .map(|l| l.split('\t').take(6).collect::<Vec<_>>().join("\t"))
        .collect();
    assert_eq!(want.len(), traced, "{trace}");
    let got: Vec<String> = exported
        .lines()
        .filter(|l| l.starts_with(&own))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            // caller, method, descriptor, bci, (line,) api, target
            [f[0], f[1], f[2], f[3], f[5], f[6]].join("\t")
        })
        .collect();
    assert_eq!(got, want, "{exported}");
}

/// A specification takes effect in every variant that resolves
/// reflection, and is refused where reflection is ignored.
/// A site that the specification names yields what it says, in every
/// variant that resolves reflection: `casts` infers no class from the cast
/// of what it creates there (before, `(Plugin) o` added r.Upper), and
/// `infer` no class from the name's known text `"r."` (every class of
/// package r).
#[test]
fn a_specification_takes_effect_in_every_resolving_variant() {
    let dir = tempfile::tempdir().unwrap();
    let spec =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/src/reflection/spec-input.spec");
    let spec_arg = spec.display().to_string();
    let expected = "caller_class\tcaller_method\tcaller_desc\tbci\tline\tapi\ttarget\n\
                    SpecInput\tmain\t([Ljava/lang/String;)V\t29\t10\tClass.forName\tr.Lower\n\
                    SpecInput\tmain\t([Ljava/lang/String;)V\t32\t10\tClass.newInstance\tr.Lower\n";
    for variant in ["local", "points-to", "casts", "sound", "infer"] {
        let db = dir.path().join(format!("{variant}.db"));
        let options: &[&str] = if variant == "sound" {
            &[]
        } else {
            &["--spec", &spec_arg]
        };
        analyze_with("SpecInput", variant, &spec, &db, options);
        let targets = refract(&["export", "targets", &db.display().to_string()]);
        assert_eq!(targets, expected, "{variant}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_refract"))
        .args([
            "analyze",
            &classes(),
            "--main",
            "SpecInput",
            "--jdk",
            "none",
        ])
        .args(["--reflection", "none", "--spec"])
        .arg(&spec)
        .arg("-o")
        .arg(dir.path().join("none.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: --spec has no effect with --reflection none, which ignores reflection; choose another variant\n"
    );
}

/// A specification may name a member by a class that inherits it, as
/// `Class.getMethod` finds it and as `export targets` prints a lookup's
/// result: `Holders$NamedBox.get` is `Holders$Box.get`, and
/// `Holders$NamedBox.value` is `Holders$Box.value`. Constructors are not
/// inherited: `Holders$NamedBox.<init>(Ljava/lang/Object;)V` is an error.
#[test]
fn a_specification_names_inherited_members_by_a_subclass() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("inherited.spec");
    std::fs::write(
        &spec,
        "Inferred\tmain\t([Ljava/lang/String;)V\t175\t33\tClass.getMethod\tHolders$NamedBox.get\n\
         Inferred\tmain\t([Ljava/lang/String;)V\t138\t29\tField.get\tHolders$NamedBox.value\n",
    )
    .unwrap();
    let db = dir.path().join("inherited.db");
    let spec_arg = spec.display().to_string();
    analyze_with("Inferred", "casts", &spec, &db, &["--spec", &spec_arg]);
    let targets = refract(&["export", "targets", &db.display().to_string()]);
    let specified: Vec<&str> = targets
        .lines()
        .filter(|l| l.contains("\t175\t33\t") || l.contains("\t138\t29\t"))
        .collect();
    assert_eq!(
        specified,
        [
            "Inferred\tmain\t([Ljava/lang/String;)V\t138\t29\tField.get\tHolders$Box.value",
            "Inferred\tmain\t([Ljava/lang/String;)V\t175\t33\tClass.getMethod\tHolders$Box.get",
        ]
    );
    std::fs::write(
        &spec,
        "Inferred\tmain\t([Ljava/lang/String;)V\t13\t17\tConstructor.newInstance\tHolders$NamedBox.<init>(Ljava/lang/Object;)V\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_refract"))
        .args(["analyze", &classes(), "--main", "Inferred", "--jdk", "none"])
        .args(["--reflection", "casts", "-q", "--spec", &spec_arg, "-o"])
        .arg(dir.path().join("ctor.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "error: {spec_arg}:1: class Holders$NamedBox declares no member `<init>(Ljava/lang/Object;)V`\n"
        )
    );
}

/// An array lookup's line names the class whose members the array holds,
/// as `export targets` prints it: `Inferred`'s three array lines, fed
/// back under `casts` (which leaves the arrays empty), fill them with
/// r.Checks's members, and their uses resolve by them.
#[test]
fn a_specification_fills_member_arrays_with_the_named_class() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("arrays.spec");
    let arrays: String =
        std::fs::read_to_string(root().join("tests/expected/reflection/Inferred.casts.tsv"))
            .unwrap()
            .lines()
            .filter(|l| l.contains("\tClass.get") && l.contains("s\tr.Checks"))
            .map(|l| format!("{l}\n"))
            .collect();
    assert_eq!(arrays.lines().count(), 3, "{arrays}");
    std::fs::write(&spec, &arrays).unwrap();
    let db = dir.path().join("arrays.db");
    let spec_arg = spec.display().to_string();
    analyze_with("Inferred", "casts", &spec, &db, &["--spec", &spec_arg]);
    let targets = refract(&["export", "targets", &db.display().to_string()]);
    let filled: Vec<&str> = targets.lines().filter(|l| l.contains("r.Checks")).collect();
    // The same rows as `infer` gives there with its placeholders.
    let site = "Inferred\tmain\t([Ljava/lang/String;)V";
    let expected: Vec<String> = [
        "4\t17\tClass.getConstructors\tr.Checks",
        "13\t17\tConstructor.newInstance\tr.Checks.<init>()V",
        "18\t18\tClass.getDeclaredMethods\tr.Checks",
        "62\t20\tMethod.invoke\tr.Checks.testFirst()V",
        "62\t20\tMethod.invoke\tr.Checks.testSecond()V",
        "73\t24\tClass.getFields\tr.Checks",
        "108\t25\tField.get\tr.Checks.runs",
        "108\t25\tField.get\tr.Checks.seen",
    ]
    .iter()
    .map(|row| format!("{site}\t{row}"))
    .collect();
    assert_eq!(filled, expected);
}

/// Under `infer`, a specified lookup gets no placeholder and a specified
/// use resolves no placeholder (SOLAR's annotations, seed 004 section
/// 7.4): naming `r.Upper.run` at the `getMethod` of an input name (line
/// 33) leaves `version` out of the lookup and of its `invoke` (line 34),
/// and naming `r.Checks.seen` at the `Field.get` of line 29 leaves its
/// lookup's placeholder unused. Every other line of `Inferred.infer.tsv`
/// stays.
#[test]
fn a_specified_site_gets_no_placeholder_under_infer() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("annotations.spec");
    std::fs::write(
        &spec,
        "Inferred\tmain\t([Ljava/lang/String;)V\t175\t33\tClass.getMethod\tr.Upper.run\n\
         Inferred\tmain\t([Ljava/lang/String;)V\t138\t29\tField.get\tr.Checks.seen\n",
    )
    .unwrap();
    let db = dir.path().join("annotated.db");
    let spec_arg = spec.display().to_string();
    analyze_with("Inferred", "infer", &spec, &db, &["--spec", &spec_arg]);
    let targets = refract(&["export", "targets", &db.display().to_string()]);
    let full = std::fs::read_to_string(root().join("tests/expected/reflection/Inferred.infer.tsv"))
        .unwrap();
    let withheld = [
        "Inferred\tmain\t([Ljava/lang/String;)V\t134\t29\tClass.getField\tr.Checks.seen",
        "Inferred\tmain\t([Ljava/lang/String;)V\t175\t33\tClass.getMethod\tr.Upper.version",
        "Inferred\tmain\t([Ljava/lang/String;)V\t201\t34\tMethod.invoke\tr.Upper.version(Ljava/lang/String;)Ljava/lang/String;",
    ];
    for line in withheld {
        assert!(full.lines().any(|l| l == line), "{line}");
    }
    let expected: String = full
        .lines()
        .filter(|l| !withheld.contains(l))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(targets, expected);
}

/// Against java.base, `Arrays.copyOf(T[], int)` reaches the JDK's own
/// `Array.newInstance` with the Class object of its argument's class
/// (`original.getClass()`, then `getComponentType()`): the site makes
/// exactly the String and Integer arrays that the traced run made
/// (`tests/data/traces/CopyOf.tsv`, by reftrace), and the `r.Upper[]`
/// that `ArrayList.toArray(new Upper[0])` asks for with its argument's
/// class (the summary of `toArray` keeps `a.getClass()`). The launcher
/// loads the main class and looks up its `main` (`queries/models/launcher.dl`).
/// The run's fourth array, made in `HashMap.prepareArray` for
/// `keySet().toArray(new String[0])`, is in code that the container model
/// answers at the program's call: `refract check` counts it apart.
#[test]
fn arrays_copy_of_in_java_base_makes_arrays_of_its_arguments_components() {
    let dir = tempfile::tempdir().unwrap();
    let db = analyze_against_java_base(dir.path(), "CopyOf", "points-to");
    let db = db.display().to_string();
    assert_eq!(
        refract(&["export", "targets", &db]),
        "caller_class\tcaller_method\tcaller_desc\tbci\tline\tapi\ttarget\n\
         java.util.Arrays\tcopyOf\t([Ljava/lang/Object;ILjava/lang/Class;)[Ljava/lang/Object;\t18\t3513\tArray.newInstance\tjava.lang.Integer\n\
         java.util.Arrays\tcopyOf\t([Ljava/lang/Object;ILjava/lang/Class;)[Ljava/lang/Object;\t18\t3513\tArray.newInstance\tjava.lang.String\n\
         java.util.Arrays\tcopyOf\t([Ljava/lang/Object;ILjava/lang/Class;)[Ljava/lang/Object;\t18\t3513\tArray.newInstance\tr.Upper\n\
         sun.launcher.LauncherHelper\tloadMainClass\t(ILjava/lang/String;)Ljava/lang/Class;\t95\t808\tClass.forName\tCopyOf\n\
         sun.launcher.LauncherHelper\tloadMainClass\t(ILjava/lang/String;)Ljava/lang/Class;\t145\t818\tClass.forName\tCopyOf\n\
         sun.launcher.LauncherHelper\tvalidateMainClass\t(Ljava/lang/Class;)V\t16\t864\tClass.getMethod\tCopyOf.main\n"
    );
    let trace = root().join("tests/data/traces/CopyOf.tsv");
    let trace = trace.display().to_string();
    let check = refract(&["check", &db, &trace]);
    assert!(
        check.contains("Array.newInstance                 0/0      -          3/3   1.00\n"),
        "{check}"
    );
    assert!(
        check.ends_with(
            "edges in the JDK's collection code, which the container model answers at its callers: 1\n"
        ),
        "{check}"
    );
    let rows = refract(&["check", &db, &trace, "--format", "tsv"]);
    assert!(
        rows.contains(
            "java.util.HashMap\tprepareArray\t([Ljava/lang/Object;)[Ljava/lang/Object;\t19\t-\tArray.newInstance\tjava.lang.String\tjdk\tsummarised\n"
        ),
        "{rows}"
    );
}

/// Against java.base, `EnumSet.allOf`, `Enum.valueOf` and
/// `Class.getEnumConstants` reach `Class.getEnumConstantsShared`, whose
/// `getMethod("values")` and `Method.invoke` resolve to the `values()` of
/// exactly the enums whose Class objects the program passes, among the
/// JDK's own: the three edges of the traced run
/// (`tests/data/traces/Enums.tsv`).
#[test]
fn enum_constants_in_java_base_call_the_enums_values() {
    let db = java_base_db().display().to_string();
    let exported = refract(&["export", "targets", &db]);
    let invoked: Vec<&str> = exported
        .lines()
        .filter(|l| {
            l.starts_with("java.lang.Class\tgetEnumConstantsShared\t")
                && l.contains("\tMethod.invoke\tEnums$")
        })
        .map(|l| l.rsplit('\t').next().unwrap())
        .collect();
    assert_eq!(
        invoked,
        [
            "Enums$Color.values()[LEnums$Color;",
            "Enums$Shape.values()[LEnums$Shape;",
            "Enums$Size.values()[LEnums$Size;",
        ]
    );
    let trace = root().join("tests/data/traces/Enums.tsv");
    let check = refract(&["check", &db, &trace.display().to_string()]);
    assert!(
        check.contains("Method.invoke                     0/0      -          3/3   1.00\n"),
        "{check}"
    );
}

/// Against java.base, `ServiceLoader.load(Plugin.class)` loads the
/// providers that `META-INF/services/r.Plugin` names: the JDK's own
/// `Class.forName` calls in ServiceLoader resolve to exactly those
/// classes, their constructors are found and run reflectively, and the
/// program's `p.run(...)` calls their methods. The traced run
/// (`tests/data/traces/Services.tsv`) took each of these edges.
#[test]
fn service_loader_in_java_base_instantiates_the_declared_providers() {
    let dir = tempfile::tempdir().unwrap();
    let db = java_base_db().display().to_string();
    let exported = refract(&["export", "targets", &db]);
    let loader: Vec<&str> = exported
        .lines()
        .filter(|l| l.starts_with("java.util.ServiceLoader"))
        .map(|l| l.rsplit('\t').next().unwrap())
        .collect();
    // With the JavaLangAccess object installed, java.base loads a service
    // of its own too: FileSystemProvider, provided by jrtfs. The loader's
    // privileged actions (`if (acc != null) doPrivileged(...)`, a
    // `Class.forName` and a `Constructor.newInstance`) need an access
    // control context, which ServiceLoader takes only under a security
    // manager: their null guards keep them unreached, as in the run.
    let jrt = "jdk.internal.jrtfs.JrtFileSystemProvider";
    let want: Vec<String> = [
        "",
        "r.Lower",
        "r.Upper",
        ".<init>",
        "r.Lower.<init>",
        "r.Upper.<init>",
        "",
        "r.Lower",
        "r.Upper",
        ".<init>()V",
        "r.Lower.<init>()V",
        "r.Upper.<init>()V",
    ]
    .iter()
    .map(|t| {
        if t.starts_with('r') {
            t.to_string()
        } else {
            format!("{jrt}{t}")
        }
    })
    .collect();
    assert_eq!(loader, want, "{exported}");
    let trace = root().join("tests/data/traces/Services.tsv");
    let check = refract(&["check", &db, &trace.display().to_string()]);
    for line in [
        "Class.getConstructor              0/0      -          2/2   1.00\n",
        "Constructor.newInstance           0/0      -          2/2   1.00\n",
        // The third is the launcher's (queries/models/launcher.dl).
        "Class.forName                     0/0      -          3/3   1.00\n",
        // EnumMap's enum constants (StreamOpFlag$Type.values()), read
        // through the JavaLangAccess object that System installs, and the
        // launcher's lookup of `main`.
        "Class.getMethod                   0/0      -          2/2   1.00\n",
        "Method.invoke                     0/0      -          1/1   1.00\n",
    ] {
        assert!(check.contains(line), "{check}");
    }
    let calls = query(
        dir.path(),
        Path::new(&db),
        "IE(i, \"<r.Upper: java.lang.String run(java.lang.String)>\")?\n\
         IE(i, \"<r.Lower: java.lang.String run(java.lang.String)>\")?\n",
    );
    assert_eq!(
        calls
            .matches("<Services: void main(java.lang.String[])>[34@L11]")
            .count(),
        2,
        "{calls}"
    );
}

/// The JDK's bodies of the reflective methods that the rules model at
/// their calls call nothing (`queries/models/api-bodies.dl`): against
/// java.base, `Method.invoke` and `Class.getMethod` are reached, and the
/// program's and the JDK's calls of them keep their reflective targets
/// (EnumMap's and the ServiceLoader's, in the shared analysis), but no
/// call leaves their bodies. Switched off, `Method.invoke`'s body calls
/// the access check and `getClass()`.
#[test]
fn the_reflective_apis_bodies_give_way_to_their_models_against_java_base() {
    let dir = tempfile::tempdir().unwrap();
    let invoke =
        "<java.lang.reflect.Method: java.lang.Object invoke(java.lang.Object,java.lang.Object[])>";
    let get_method =
        "<java.lang.Class: java.lang.reflect.Method getMethod(java.lang.String,java.lang.Class[])>";
    let from = |db: &Path| {
        refract(&[
            "query",
            &db.display().to_string(),
            &format!(r#"fromInvoke(i) :- mI("{invoke}", i, _), IE(i, _)."#),
            &format!(r#"fromGetMethod(i) :- mI("{get_method}", i, _), IE(i, _)."#),
            &format!(r#"reach("{invoke}")?"#),
            &format!(r#"reach("{get_method}")?"#),
            ".count fromInvoke",
            ".count fromGetMethod",
        ])
    };
    assert_eq!(
        from(java_base_db()),
        "yes\nyes\nfromInvoke: 0 tuples\nfromGetMethod: 0 tuples\n"
    );
    let targets = refract(&["export", "targets", &java_base_db().display().to_string()]);
    for site in [
        "java.lang.Class\tgetEnumConstantsShared\t()[Ljava/lang/Object;\t49\t",
        "java.util.ServiceLoader$ProviderImpl\tnewInstance\t()Ljava/lang/Object;\t",
    ] {
        assert!(targets.contains(site), "{site}: {targets}");
    }
    let db = dir.path().join("bodies.db");
    let jdk = jdk_of(dir.path(), &["java.base"]);
    refract(&[
        "analyze",
        &classes(),
        "--main",
        "Invoke",
        "--jdk",
        &jdk.display().to_string(),
        "--reflection",
        "points-to",
        "--no-model",
        "api-bodies",
        "-q",
        "-o",
        &db.display().to_string(),
    ]);
    let calls = query(
        dir.path(),
        &db,
        &format!("body(i, m) :- mI(\"{invoke}\", i, _), IE(i, m).\nbody(i, m)?\n"),
    );
    for callee in [
        "<java.lang.reflect.AccessibleObject: void checkAccess(java.lang.Class,java.lang.Class,java.lang.Class,int)>",
        "<java.lang.Object: java.lang.Class getClass()>",
    ] {
        assert!(calls.contains(callee), "{callee}: {calls}");
    }
}

/// Provenance: a name read by `System.getenv` reaches its `forName`
/// through a field, and the `getenv` call is that site's specification
/// point, found through the store of its result, and the chain the
/// export gives goes from the store to the load. The other site's name,
/// a constant kept in the same field of another object, names its class:
/// no provenance starts there.
#[test]
fn provenance_starts_at_unknown_names_and_goes_through_stores_of_text() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("provenance.db");
    let spec = empty_spec(dir.path());
    analyze("Provenance", "points-to", &spec, &db);
    let m = "<Provenance: void main(java.lang.String[])>";
    let site = format!(
        "{m}[35@L18] invokestatic <java.lang.Class: java.lang.Class forName(java.lang.String)>"
    );
    assert_eq!(
        refract(&["export", "specpoints", &db.display().to_string()]),
        format!(
            "source\tsite\tpath\n\
             {m}[11@L15] invokestatic <java.lang.System: java.lang.String getenv(java.lang.String)>\t\
             {site}\t{m}/s@11 -> {m}/s@32\n"
        )
    );
    let out = query(dir.path(), &db, "leadsToForName(v, i)?\n");
    let rows: Vec<&str> = out.lines().skip(2).map(str::trim_end).collect();
    assert_eq!(
        rows,
        [
            format!(" {m}/s@11 | {site}"),
            format!(" {m}/s@32 | {site}"),
            "2 tuples".to_string(),
        ]
    );
}

/// Paths to a name through calls (`NamePaths`): the name read from the
/// environment comes back out of `pass(Object)`, and the path reaches
/// `getenv`. The Integer appended to it is on the path (through the
/// concatenation), but the path does not follow it back into `count`:
/// only copies into variables that can hold text are followed.
#[test]
fn name_paths_follow_calls_only_into_variables_that_can_hold_text() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("paths.db");
    let spec = empty_spec(dir.path());
    analyze("NamePaths", "points-to", &spec, &db);
    let m = "<NamePaths: void main(java.lang.String[])>";
    let site = format!(
        "{m}[24@L23] invokestatic <java.lang.Class: java.lang.Class forName(java.lang.String)>"
    );
    let out = query(dir.path(), &db, "leadsToForName(v, _)?\n");
    let rows: Vec<&str> = out.lines().skip(2).map(str::trim_end).collect();
    assert_eq!(
        rows,
        [
            " <NamePaths: java.lang.Object pass(java.lang.Object)>/ret".to_string(),
            format!(" {m}/s@2"),
            format!(" {m}/s@5"),
            format!(" {m}/l1@11"),
            format!(" {m}/l2@16"),
            format!(" {m}/s@19"),
            "6 tuples".to_string(),
        ]
    );
    assert_eq!(
        refract(&["export", "specpoints", &db.display().to_string()]),
        format!(
            "source\tsite\tpath\n\
             {m}[2@L21] invokestatic <java.lang.System: java.lang.String getenv(java.lang.String)>\t\
             {site}\t{m}/s@2 -> {m}/s@5 -> {m}/l1@11 -> {m}/s@19\n"
        )
    );
}

/// A program that reads META-INF/services/r.Plugin itself
/// (`ServiceFiles`): the class path's provider lines reach its
/// `loadClass`, through `readLine`, `substring` and `trim` on a reader
/// built over `URL.openStream()`, while the name it reads from standard
/// input stays input: its `Class.forName` is unresolved, with the
/// `readLine` as its specification point.
#[test]
fn lines_of_resource_files_name_classes_but_standard_input_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("files.db");
    let spec = empty_spec(dir.path());
    analyze("ServiceFiles", "points-to", &spec, &db);
    let db = db.display().to_string();
    let report = refract(&["report", &db]);
    assert!(
        report.contains("Class.forName                 1      0      0      1\n"),
        "{report}"
    );
    assert!(
        report.contains("ClassLoader.loadClass         1      0      1      0\n"),
        "{report}"
    );
    let points = refract(&["export", "specpoints", &db]);
    assert!(
        points.starts_with(
            "source\tsite\tpath\n\
             <ServiceFiles: void main(java.lang.String[])>[29@L46] invokevirtual <java.io.BufferedReader: java.lang.String readLine()>\t\
             <ServiceFiles: void main(java.lang.String[])>[44@L48] invokestatic <java.lang.Class: java.lang.Class forName(java.lang.String)>\t"
        ),
        "{points}"
    );
}

/// Under `infer`, the sites whose targets were inferred from their use (a
/// lookup of an unknown name or on an unknown class, and the calls on
/// placeholder members) are partially resolved: found, but not named by
/// the program.
#[test]
fn inferred_sites_are_reported_partially_resolved() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("inferred.db");
    let spec = empty_spec(dir.path());
    analyze("Inferred", "infer", &spec, &db);
    let report = refract(&["report", &db.display().to_string()]);
    let rows: Vec<&str> = report.lines().skip(2).take(12).collect();
    assert_eq!(
        rows,
        [
            "reflective sites          total   full partial unres.",
            "Class.forName                 3      1      2      0",
            "ClassLoader.loadClass         0      0      0      0",
            "Class.newInstance             0      0      0      0",
            "Constructor.newInstance       2      0      2      0",
            "Method.invoke                 3      0      3      0",
            "Field.get/set                 2      0      2      0",
            "Class.get*Method              2      0      2      0",
            "Class.get*Field               1      0      1      0",
            "Class.get*Constructor         1      0      1      0",
            "Class.get*s (arrays)          3      3      0      0",
            "Array.newInstance             0      0      0      0",
        ],
        "{report}"
    );
}

/// `refract report --unsound` lists, as SOLAR and Tai-e report them, the
/// sites the analysis left unresolved with the reason, and the
/// application's classes defined from bytes; a site comes with the
/// specification line that resolves it, which, filled in, does (under
/// `points-to`, which leaves SpecInput's name read from input open).
#[test]
fn the_unsound_report_gives_reasons_and_specification_lines() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("unsound.db").display().to_string();
    refract(&[
        "analyze",
        &classes(),
        "--main",
        "SpecInput",
        "--main",
        "Generated",
        "--jdk",
        "none",
        "--reflection",
        "points-to",
        "-q",
        "-o",
        &db,
    ]);
    let report = refract(&["report", &db, "--unsound"]);
    let (_, unsound) = report.split_once("\nunsound sites").expect(&report);
    let main = "main([Ljava/lang/String;)V";
    let desc = "([Ljava/lang/String;)V";
    let method = "<class>.<method>(<descriptor>)";
    let reason = "no resolved metaobject reaches it";
    assert_eq!(
        unsound,
        format!(
            ": 7\n\
             in the application:\n  \
             MethodHandles.Lookup.defineClass Generated.{main} @ 26 (line 17): \
             the class is made at run time from bytes; no specification resolves it\n  \
             Class.getMethod                  Generated.{main} @ 37 (line 18): {reason}\n    \
             spec: Generated\tmain\t{desc}\t37\t18\tClass.getMethod\t{method}\n  \
             Class.getDeclaredConstructor     Generated.{main} @ 45 (line 18): {reason}\n    \
             spec: Generated\tmain\t{desc}\t45\t18\tClass.getDeclaredConstructor\t{method}\n  \
             Constructor.newInstance          Generated.{main} @ 52 (line 18): {reason}\n    \
             spec: Generated\tmain\t{desc}\t52\t18\tConstructor.newInstance\t{method}\n  \
             Method.invoke                    Generated.{main} @ 59 (line 18): {reason}\n    \
             spec: Generated\tmain\t{desc}\t59\t18\tMethod.invoke\t{method}\n  \
             Class.forName                    SpecInput.{main} @ 29 (line 10): the name comes \
             from java.io.BufferedReader.readLine()Ljava/lang/String; at SpecInput.{main} @ 19 (line 9)\n    \
             spec: SpecInput\tmain\t{desc}\t29\t10\tClass.forName\t<class>\n  \
             Class.newInstance                SpecInput.{main} @ 32 (line 10): {reason}\n    \
             spec: SpecInput\tmain\t{desc}\t32\t10\tClass.newInstance\t<class>\n"
        )
    );

    // The specification line, its class filled in, resolves the site.
    let line = report
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("spec: "))
        .find(|l| l.contains("\tClass.forName\t"))
        .expect(&report)
        .replace("<class>", "r.Lower");
    let spec = dir.path().join("filled.spec");
    std::fs::write(&spec, format!("{line}\n")).unwrap();
    let resolved = dir.path().join("resolved.db");
    analyze_with("SpecInput", "sound", &spec, &resolved, &[]);
    let targets = refract(&["export", "targets", &resolved.display().to_string()]);
    assert!(
        targets
            .contains("SpecInput\tmain\t([Ljava/lang/String;)V\t29\t10\tClass.forName\tr.Lower\n"),
        "{targets}"
    );
}

/// A specification names members too: a lookup's line gives the member
/// whose metaobject the lookup returns, a use's line the member called,
/// constructed, read or written. Under `casts`, which infers nothing,
/// the lines of the unsound report, filled in, resolve `Assumed`'s
/// lookups by a name read from input, and the lookup's method reaches
/// the `invoke` that follows it.
#[test]
fn specification_lines_of_members_resolve_member_sites() {
    let dir = tempfile::tempdir().unwrap();
    let empty = empty_spec(dir.path());
    let db = dir.path().join("assumed.db");
    analyze("Assumed", "casts", &empty, &db);
    let report = refract(&["report", &db.display().to_string(), "--unsound"]);
    let blanks: Vec<&str> = report
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("spec: "))
        .collect();
    assert_eq!(blanks.len(), 5, "{report}");
    let fill = [
        ("41", "r.Knob.turn(I)V"),
        ("83", "r.Knob.turns"),
        ("120", "Assumed.secret"),
    ];
    let mut spec = String::new();
    for (bci, member) in fill {
        let line = blanks
            .iter()
            .find(|l| l.split('\t').nth(3) == Some(bci))
            .expect(&report);
        let (site, _) = line.rsplit_once('\t').unwrap();
        spec.push_str(&format!("{site}\t{member}\n"));
    }
    let spec_file = dir.path().join("members.spec");
    std::fs::write(&spec_file, &spec).unwrap();
    let resolved = dir.path().join("resolved.db");
    analyze_with(
        "Assumed",
        "casts",
        &empty,
        &resolved,
        &["--spec", &spec_file.display().to_string()],
    );
    let targets = refract(&["export", "targets", &resolved.display().to_string()]);
    let rows: Vec<String> = (targets.lines().skip(1))
        .map(|l| l.split('\t').skip(3).collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        rows,
        [
            "25 17 Class.forName r.Knob",
            "41 18 Class.getDeclaredMethod r.Knob.turn",
            "53 19 Class.getConstructor r.Knob.<init>",
            "60 19 Constructor.newInstance r.Knob.<init>()V",
            "74 19 Method.invoke r.Knob.turn(I)V",
            "83 20 Class.getDeclaredField r.Knob.turns",
            "120 21 Method.invoke Assumed.secret(I)V",
        ]
    );
    // A member the class does not declare is an error with its line.
    std::fs::write(&spec_file, spec.replace("r.Knob.turns", "r.Knob.level")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_refract"))
        .args(["analyze", &classes(), "--main", "Assumed", "--jdk", "none"])
        .args(["--reflection", "casts", "-q", "--spec"])
        .arg(&spec_file)
        .arg("-o")
        .arg(dir.path().join("bad.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!dir.path().join("bad.db").exists());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "error: {}:2: class r.Knob declares no member `level`\n",
            spec_file.display()
        )
    );
}

/// Against the JDK, a loader's own `defineClass` call resolves to
/// `ClassLoader.defineClass`, and the report lists it as unsound.
#[test]
fn a_class_defined_by_a_loader_is_unsound_against_the_jdk_java_base() {
    let dir = tempfile::tempdir().unwrap();
    let db = analyze_against_java_base(dir.path(), "Generated", "none");
    let report = refract(&["report", &db.display().to_string(), "--unsound"]);
    // Words only: the API column is as wide as the JDK's longest label.
    let defined: Vec<String> = report
        .lines()
        .filter(|l| l.contains("from bytes"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let tail = "the class is made at run time from bytes; no specification resolves it";
    assert_eq!(
        defined,
        [
            format!("ClassLoader.defineClass Generated.define([B)Ljava/lang/Class; @ 6 (line 11): {tail}"),
            format!("MethodHandles.Lookup.defineClass Generated.main([Ljava/lang/String;)V @ 26 (line 17): {tail}"),
        ],
        "{report}"
    );
}

/// Each `AccessController.doPrivileged` call runs its own action
/// (`queries/models/privileged.dl`): the call's edge goes to that
/// action's `run()`, not into doPrivileged, and the name each action
/// returns reaches only its own call's `forName` (the exported targets
/// are the traced run's, `tests/data/traces/Privileged.tsv`).
#[test]
fn each_privileged_call_runs_its_own_action() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("privileged.db");
    analyze("Privileged", "points-to", &empty_spec(dir.path()), &db);
    let calls = query(
        dir.path(),
        &db,
        "e(i, m) :- IE(i, m), mI(\"<Privileged: void main(java.lang.String[])>\", i, _), \
         methodSig(m, \"java.lang.Object run()\").\n\
         e(i, m)?\n",
    );
    let rows: Vec<&str> = calls.lines().skip(2).map(str::trim).collect();
    assert_eq!(
        rows,
        [
            "<Privileged: void main(java.lang.String[])>[7@L28] invokestatic <java.security.AccessController: java.lang.Object doPrivileged(java.security.PrivilegedAction)>           | <Privileged$UpperName: java.lang.Object run()>",
            "<Privileged: void main(java.lang.String[])>[43@L30] invokestatic <java.security.AccessController: java.lang.Object doPrivileged(java.security.PrivilegedExceptionAction)> | <Privileged$LowerName: java.lang.Object run()>",
            "2 tuples",
        ],
        "{calls}"
    );
    let check = refract(&[
        "check",
        &db.display().to_string(),
        &root()
            .join("tests/data/traces/Privileged.tsv")
            .display()
            .to_string(),
    ]);
    assert!(
        check.contains("all                                   6/6   1.00\n"),
        "{check}"
    );
}

/// The java launcher's `Class.forName` of the main class, which every
/// traced run makes (`queries/models/launcher.dl`):
/// `LauncherHelper.loadMainClass` loads the classes given with `--main`
/// (bci 95, the traced row of `tests/data/traces/Bundles.tsv`, and its
/// retry at 145 with the name in another Unicode form), then
/// `validateMainClass` looks up their `main` (bci 16), and nothing else
/// of the launcher is reached. `check` finds both traced edges.
#[test]
fn the_launcher_loads_the_main_class() {
    let db = java_base_db().display().to_string();
    let exported = refract(&["export", "targets", &db]);
    let launcher: Vec<String> = (exported.lines())
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|c| c[0] == "sun.launcher.LauncherHelper")
        .map(|c| format!("{} {} {} {}", c[1], c[3], c[5], c[6]))
        .collect();
    let mut mains = JAVA_BASE_GROUP.to_vec();
    mains.sort_unstable();
    let want: Vec<String> = [
        ("loadMainClass 95 Class.forName", ""),
        ("loadMainClass 145 Class.forName", ""),
        ("validateMainClass 16 Class.getMethod", ".main"),
    ]
    .iter()
    .flat_map(|(site, member)| mains.iter().map(move |m| format!("{site} {m}{member}")))
    .collect();
    assert_eq!(launcher, want, "{exported}");
    let reached = refract(&["export", "relation", "reach", &db]);
    assert!(
        !reached.contains("sun.launcher.LauncherHelper: "),
        "{reached}"
    );
    let trace = root().join("tests/data/traces/Bundles.tsv");
    let check = refract(&["check", &db, &trace.display().to_string()]);
    // The launcher's sites are wide (one target per main), but no edge
    // of theirs is missed.
    let missed = check.split("missed edges").nth(1).unwrap_or("");
    assert!(!missed.contains("sun.launcher.LauncherHelper"), "{check}");
    assert!(
        check.contains("Class.forName                         0/0      -          2/2   1.00\n"),
        "{check}"
    );
}

/// The fixture classes that `ResourceBundle.Control.newBundle0` loads in
/// an exported targets table.
fn bundle_classes_loaded(exported: &str) -> Vec<&str> {
    (exported.lines())
        .filter(|l| l.starts_with("java.util.ResourceBundle$Control\tnewBundle0\t"))
        .filter(|l| l.contains("\tClassLoader.loadClass\tr."))
        .map(|l| l.rsplit('\t').next().unwrap())
        .collect()
}

/// Against java.base, `ResourceBundle.getBundle("r.Messages")` loads the
/// bundle and its locale variants in `Control.newBundle0`: the traced
/// English run's `r.Messages` and `r.Messages_en`, and `r.Messages_de_CH`,
/// which another locale's run would load (`queries/models/bundles.dl`).
/// `r.MessagesHelper` is no locale of it.
#[test]
fn resource_bundles_in_java_base_load_their_locale_variants() {
    let db = java_base_db().display().to_string();
    let exported = refract(&["export", "targets", &db]);
    let loaded = bundle_classes_loaded(&exported);
    assert_eq!(loaded, ["r.Messages", "r.Messages_de_CH", "r.Messages_en"]);
    assert!(!exported.contains("r.MessagesHelper"), "{exported}");
    let trace = root().join("tests/data/traces/Bundles.tsv");
    let check = refract(&["check", &db, &trace.display().to_string()]);
    for line in [
        "ClassLoader.loadClass                 0/0      -          2/2   1.00\n",
        "Constructor.newInstance               0/0      -          2/2   1.00\n",
    ] {
        assert!(check.contains(line), "{check}");
    }
}

/// With `--locale en_US`, the run's locale is known: the bundle loads
/// `r.Messages_en` (a candidate of `en_US`) and not `r.Messages_de_CH`;
/// the database says which locale it assumed, and a BCP 47 tag is a
/// usage error that names the spelling bundles use.
#[test]
fn a_given_locale_loads_only_its_bundle_variants() {
    let dir = tempfile::tempdir().unwrap();
    let jdk = jdk_of(dir.path(), &["java.base"]);
    let db = dir.path().join("en.db").display().to_string();
    let jdk = jdk.display().to_string();
    let args = [
        "analyze",
        &classes(),
        "--main",
        "Bundles",
        "--jdk",
        &jdk,
        "-q",
        "-o",
        &db,
    ];
    refract(&[&args[..], &["--locale", "en_US"]].concat());
    let exported = refract(&["export", "targets", &db]);
    let loaded = bundle_classes_loaded(&exported);
    assert_eq!(loaded, ["r.Messages", "r.Messages_en"]);
    let manifest = std::fs::read_to_string(Path::new(&db).join("metadata.tsv")).unwrap();
    assert!(manifest.contains("option\tlocale\ten_US\n"), "{manifest}");
    let out = Command::new(env!("CARGO_BIN_EXE_refract"))
        .args(args)
        .args(["--locale", "en-US"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("; did you mean en_US?"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Bundle classes named by computed names (`LocaleData.load`: a name,
/// then `newInstance` and a cast to `ResourceBundle`, as the JDK's
/// `LocaleDataProvider` loads its bundles; the names are `"r.Messages_"`
/// and the default locale's language, and `"r.Dates_"` and `Locale.UK`'s
/// parts): without `--locale` every locale's bundle fits the names' start
/// and the cast. With `--locale en_US` those of other locales do not
/// (`reflection.dl`'s `otherLocaleBundle`), here or at the JDK's own
/// sites, but for the locale that the code names (`Locale.UK`:
/// `r.Dates_en_GB`); the traced run's edges stay.
#[test]
fn a_given_locale_drops_other_locales_bundles_found_without_their_name() {
    let dir = tempfile::tempdir().unwrap();
    let jdk = jdk_of(dir.path(), &["java.base"]).display().to_string();
    let classes = classes();
    let run = |locale: &[&str]| {
        let db = dir.path().join(format!("{}.db", locale.len()));
        let db = db.display().to_string();
        let args = ["analyze", &classes, "--main", "LocaleData", "--jdk", &jdk];
        refract(
            &[
                &args[..],
                &["--reflection", "infer", "-q", "-o", &db],
                locale,
            ]
            .concat(),
        );
        let exported = refract(&["export", "targets", &db]);
        let rows: Vec<String> = (exported.lines())
            .filter(|l| l.starts_with("LocaleData\tload\t"))
            .map(|l| l.split('\t').skip(5).collect::<Vec<_>>().join(" "))
            .filter(|l| l.contains(" r."))
            .collect();
        (db, exported, rows)
    };
    let (_, all, rows) = run(&[]);
    let bundles = [
        "Dates_en_GB",
        "Dates_fr",
        "Messages",
        "Messages_de_CH",
        "Messages_en",
    ];
    let at_both = |bundles: &[&str]| -> Vec<String> {
        (["Class.forName", "Class.newInstance"].iter())
            .flat_map(|api| bundles.iter().map(move |b| format!("{api} r.{b}")))
            .collect()
    };
    assert_eq!(rows, at_both(&bundles));
    assert!(
        all.contains("\tsun.launcher.resources.launcher_de\n"),
        "{all}"
    );
    let (db, en, rows) = run(&["--locale", "en_US"]);
    assert_eq!(rows, at_both(&["Dates_en_GB", "Messages", "Messages_en"]));
    assert!(
        !en.contains("\tsun.launcher.resources.launcher_de\n"),
        "{en}"
    );
    assert!(
        en.contains("\tsun.text.resources.FormatData_en_US\n"),
        "{en}"
    );
    assert!(
        !en.contains("\tsun.text.resources.cldr.FormatData_en_US_POSIX\n"),
        "{en}"
    );
    let trace = root().join("tests/data/traces/LocaleData.tsv");
    let check = refract(&["check", &db, &trace.display().to_string()]);
    for line in [
        "Class.forName                     2/2   1.00          1/1   1.00\n",
        "Class.newInstance                 2/2   1.00          0/0      -\n",
        "all                             13/13   1.00\n",
    ] {
        assert!(check.contains(line), "{check}");
    }
}

/// Properties files as resource bundles follow `--locale` too:
/// `Registries` reads `r.drivers`, whose base file names r.Counter and
/// whose German file r.Shape. Without a locale both count; in `en_US`
/// only the base file (no English file exists); in `de_CH` the German
/// file and its parent, the base file.
#[test]
fn a_given_locale_reads_only_its_properties_bundles() {
    let dir = tempfile::tempdir().unwrap();
    let drivers = |locale: Option<&str>| {
        let db = dir
            .path()
            .join(format!("{}.db", locale.unwrap_or("all")))
            .display()
            .to_string();
        let classes = classes();
        let mut args = vec![
            "analyze",
            &classes,
            "--main",
            "Registries",
            "--jdk",
            "none",
            "-q",
            "-o",
            &db,
        ];
        if let Some(l) = locale {
            args.extend(["--locale", l]);
        }
        refract(&args);
        let exported = refract(&["export", "targets", &db]);
        let mut loaded: Vec<String> = (exported.lines())
            .filter(|l| l.contains("\t31\tClass.forName\t"))
            .filter_map(|l| l.rsplit('\t').next().map(str::to_string))
            .collect();
        loaded.sort();
        loaded
    };
    assert_eq!(drivers(None), ["r.Counter", "r.Shape"]);
    assert_eq!(drivers(Some("en_US")), ["r.Counter"]);
    assert_eq!(drivers(Some("de_CH")), ["r.Counter", "r.Shape"]);
}

/// The fixtures whose reflection the JDK's own configuration drives
/// (`fixtures/src/configuration`).
fn configuration_classes() -> String {
    root()
        .join("fixtures/classes/configuration")
        .display()
        .to_string()
}

/// The exported rows whose caller class is `class`, as `method bci api
/// target`.
fn rows_of(exported: &str, class: &str) -> Vec<String> {
    (exported.lines())
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|c| c[0] == class)
        .map(|c| format!("{} {} {} {}", c[1], c[3], c[5], c[6]))
        .collect()
}

/// Against java.base and java.logging, the first use of a logger makes
/// `LogManager` load what `conf/logging.properties` (in java.logging's
/// jmod) names: its `handlers` at `createLoggerHandlers` and the
/// console handler's formatter at `getFormatterProperty`
/// (`queries/models/configuration.dl`). Each site loads only the
/// classes of the type it casts to: the file's third class,
/// `XMLFormatter`, is a formatter. The four traced rows of
/// `tests/data/traces/Logging.tsv` (by reftrace) are found.
#[test]
fn log_manager_loads_the_classes_its_configuration_names() {
    let dir = tempfile::tempdir().unwrap();
    let db = analyze_against(
        dir.path(),
        &configuration_classes(),
        "Logging",
        "points-to",
        &["java.base", "java.logging"],
    );
    let db = db.display().to_string();
    let exported = refract(&["export", "targets", &db]);
    assert_eq!(
        rows_of(&exported, "java.util.logging.LogManager"),
        [
            "createLoggerHandlers 47 ClassLoader.loadClass java.util.logging.ConsoleHandler",
            "createLoggerHandlers 50 Class.newInstance java.util.logging.ConsoleHandler",
            "getFormatterProperty 14 ClassLoader.loadClass java.util.logging.SimpleFormatter",
            "getFormatterProperty 14 ClassLoader.loadClass java.util.logging.XMLFormatter",
            "getFormatterProperty 17 Class.newInstance java.util.logging.SimpleFormatter",
            "getFormatterProperty 17 Class.newInstance java.util.logging.XMLFormatter",
        ],
        "{exported}"
    );
    let trace = root().join("tests/data/traces/Logging.tsv");
    let check = refract(&["check", &db, &trace.display().to_string()]);
    assert!(!check.contains("java.util.logging.LogManager."), "{check}");
}

/// Against java.base and java.xml, `XMLReaderFactory.createXMLReader()`
/// loads the driver that the class path's
/// `META-INF/services/org.xml.sax.driver` names, in SAX's own
/// `NewInstance.newInstance`, and makes it through its constructor
/// (`queries/models/services.dl`): the three traced rows of
/// `tests/data/traces/Sax.tsv`, and the `Class.forName` that the same
/// method calls when no loader is given.
#[test]
fn xml_reader_factory_loads_the_driver_its_provider_file_names() {
    let dir = tempfile::tempdir().unwrap();
    let db = analyze_against(
        dir.path(),
        &configuration_classes(),
        "Sax",
        "points-to",
        &["java.base", "java.xml"],
    );
    let db = db.display().to_string();
    let exported = refract(&["export", "targets", &db]);
    assert_eq!(
        rows_of(&exported, "org.xml.sax.helpers.NewInstance"),
        [
            "newInstance 77 Class.forName sax.Driver",
            "newInstance 88 ClassLoader.loadClass sax.Driver",
            "newInstance 100 Class.getConstructor sax.Driver.<init>",
            "newInstance 107 Constructor.newInstance sax.Driver.<init>()V",
        ],
        "{exported}"
    );
    let trace = root().join("tests/data/traces/Sax.tsv");
    let check = refract(&["check", &db, &trace.display().to_string()]);
    assert!(
        !check.contains("org.xml.sax.helpers.NewInstance."),
        "{check}"
    );
}

/// `--assume LEVEL` completes what the level does not trust
/// (`queries/reflection-assume.dl`). `Assumed` looks up a method and a
/// field of r.Knob, and a method of its own class, by a name read from
/// input. Under `strings` only those open lookups are completed, with the
/// members Assumed may access: r.Knob's public ones, and its own private
/// `secret`. Under `encapsulation` every site is completed (the constant
/// `r.Knob` too, with every class), still with accessible members only;
/// under `behaved-loaders` with any member, whose private method
/// `Method.invoke` then calls as it is.
#[test]
fn assume_completes_what_each_level_does_not_trust() {
    let dir = tempfile::tempdir().unwrap();
    let spec = empty_spec(dir.path());
    let run = |level: &str| {
        let db = dir.path().join(format!("assumed-{level}.db"));
        analyze_with("Assumed", "points-to", &spec, &db, &["--assume", level]);
        let db = db.display().to_string();
        (
            refract(&["export", "targets", &db]),
            refract(&["report", &db]),
        )
    };
    let (strings, report) = run("strings");
    let want =
        std::fs::read_to_string(root().join("tests/expected/reflection/Assumed.strings.tsv"))
            .unwrap();
    assert_eq!(strings, want);
    assert!(
        report.starts_with("reflection variant: points-to, assume strings\n"),
        "{report}"
    );
    assert!(
        report.ends_with(
            "completed under --assume strings: 0 classes at 0 class-name sites, \
             2 methods at 2 member sites, 1 field at 1 member site\n"
        ),
        "{report}"
    );
    // The rows of r.Knob's members at the lookups (bci 41, 83) and the
    // invoke (74).
    let knob = |exported: &str| -> Vec<String> {
        (exported.lines())
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .filter(|c| ["41", "74", "83"].contains(&c[3]) && c[6].starts_with("r.Knob."))
            .map(|c| format!("{} {} {}", c[3], c[5], c[6]))
            .collect()
    };
    let (encapsulation, report) = run("encapsulation");
    assert_eq!(
        knob(&encapsulation),
        [
            "41 Class.getDeclaredMethod r.Knob.turn",
            "74 Method.invoke r.Knob.turn(I)V",
            "83 Class.getDeclaredField r.Knob.turns",
        ]
    );
    assert!(
        encapsulation.contains("\t25\t17\tClass.forName\tr.Sized\n"),
        "{encapsulation}"
    );
    assert!(
        report.contains("completed under --assume encapsulation: "),
        "{report}"
    );
    let (behaved, _) = run("behaved-loaders");
    assert_eq!(
        knob(&behaved),
        [
            "41 Class.getDeclaredMethod r.Knob.click",
            "41 Class.getDeclaredMethod r.Knob.jam",
            "41 Class.getDeclaredMethod r.Knob.nudge",
            "41 Class.getDeclaredMethod r.Knob.turn",
            "74 Method.invoke r.Knob.click(I)V",
            "74 Method.invoke r.Knob.jam(I)V",
            "74 Method.invoke r.Knob.nudge(I)V",
            "74 Method.invoke r.Knob.turn(I)V",
            "83 Class.getDeclaredField r.Knob.detents",
            "83 Class.getDeclaredField r.Knob.stops",
            "83 Class.getDeclaredField r.Knob.turns",
        ]
    );
    // Without --assume the lookups stay unresolved.
    let db = dir.path().join("assumed.db");
    analyze("Assumed", "points-to", &spec, &db);
    let plain = refract(&["export", "targets", &db.display().to_string()]);
    assert!(knob(&plain).is_empty(), "{plain}");
    // `casts` trusts casts, which points-to does not use.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_refract"))
        .args(["analyze", &classes(), "--main", "Assumed", "--jdk", "none"])
        .args(["--reflection", "points-to", "--assume", "casts", "-q", "-o"])
        .arg(dir.path().join("casts.db"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --assume casts trusts the casts of created objects, which \
         --reflection points-to does not use: use --reflection casts or infer\n"
    );
    assert!(!dir.path().join("casts.db").exists());
}

/// A class name completed by an enum constant's name (`Completed`:
/// `"r." + part.name() + "er"`). Through the JDK's `Enum`, `name()`
/// returns the name of every enum constant of the program (its one
/// constructor stores them all), and of those only `"Upp"` and `"Low"`
/// complete the name into a class: the site loads r.Lower and r.Upper,
/// not the r.Counter and r.MessagesHelper that the known text alone fits
/// (as without the JDK, where nothing reaches `name()`: the expected
/// export `Completed.infer.tsv`). The command line's text still leaves
/// the known text to name the classes. `"java.util." + util` fits more
/// of java.base's classes than the budget allows: it names none, and the
/// report says so at its site. The report names the command line as
/// the source of a name built from `main`'s arguments.
#[test]
fn names_completed_by_strings_against_java_base() {
    let db = infer_java_base_db().display().to_string();
    let exported = refract(&["export", "targets", &db]);
    let at = |bci: &str| -> Vec<String> {
        let site = format!("Completed\tmain\t([Ljava/lang/String;)V\t{bci}\t");
        (exported.lines())
            .filter(|l| l.starts_with(&site))
            .map(|l| l.rsplit('\t').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(at("103"), ["r.Lower", "r.Upper"], "{exported}");
    assert_eq!(at("10"), ["r.Lower", "r.Upper"], "{exported}");
    assert_eq!(
        at("137"),
        ["r.Counter", "r.Lower", "r.MessagesHelper", "r.Upper"],
        "{exported}"
    );
    assert!(at("172").is_empty(), "{exported}");
    let report = refract(&["report", &db, "--unsound"]);
    let typed = "Completed.main([Ljava/lang/String;)V @ 137 (line 41): partly resolved; the name comes from the command line (main's arguments)\n";
    assert!(report.contains(typed), "{report}");
    let line = "Completed.main([Ljava/lang/String;)V @ 172 (line 46): the known text of a concatenation that reaches the name fits more names than the budget allows (200 classes, 5000 methods or fields), and names none of them";
    assert!(report.contains(line), "{report}");
}

/// Members found by the name of another metaobject (`SameNames`) against
/// java.base, under `infer`: `Method.getName()` and `Field.getName()`
/// give the name of each metaobject that reaches them, so the delegating
/// lookup finds `Impl.greet()` (not its overload of other parameters, nor
/// the other methods), the copier's lookup `Copy.host`, and the canonical
/// name of a top-level class loads it, of a nested one nothing, and a
/// proxy's handler that calls the target's method of the called method's
/// name calls `Resource.close()`, not `Resource.open()`, and a copier's
/// `"set" + getter.getName().substring(3)` finds and calls
/// `Pair.setLabel`, not `Pair.setOther`, and the getter's property,
/// `Character.toLowerCase(name.charAt(3)) + name.substring(4)`, the field
/// `Pair.label`, not `Pair.other`: the JDK's own code for `getName()`
/// adds no target. Without the JDK, the static edges at the traced run's
/// sites are exactly the run's.
#[test]
fn members_found_by_other_metaobjects_names_against_java_base() {
    assert_static_edges_are_the_traced("SameNames", "infer", 24);
    let exported = refract(&[
        "export",
        "targets",
        &infer_java_base_db().display().to_string(),
    ]);
    let own: Vec<&str> = (exported.lines())
        .filter(|l| l.starts_with("SameNames\t"))
        .collect();
    let want =
        std::fs::read_to_string(root().join("tests/expected/reflection/SameNames.infer.tsv"))
            .unwrap();
    let want: Vec<&str> = want.lines().skip(1).collect();
    assert_eq!(own, want, "{exported}");
}
