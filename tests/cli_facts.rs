//! `refract facts` end to end: the database it writes loads into the
//! engine, and bad input fails with a clear message.

use std::path::Path;
use std::process::Command;

fn refract() -> Command {
    Command::new(env!("CARGO_BIN_EXE_refract"))
}

fn fixture(set: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/classes")
        .join(set)
        .display()
        .to_string()
}

#[test]
fn facts_writes_a_database_the_engine_queries() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("basic.db");
    let r = refract()
        .args(["facts", &fixture("basic"), "--jdk", "none", "-o"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let out = String::from_utf8(r.stdout).unwrap();
    assert!(out.starts_with(
        "4 classes (4 application, 0 library), 19 methods with code, 0 skipped, 0 duplicate"
    ));
    let lines = [
        "4 string concatenations, 0 of them fitting too many names to name any".to_string(),
        format!("  {:<5} {:>10}", "M", 195),
        format!("  {:<19} {:>10}", "stringType", 1),
        format!("  {:<19} {:>10}", "mainMethod", 1),
    ];
    for line in lines {
        assert!(
            out.contains(&format!("{line}\n")),
            "missing {line:?} in\n{out}"
        );
    }
    for f in [
        "schema.dl",
        "V.map.zst",
        "H.map.zst",
        "M.map.zst",
        "I.map.zst",
        "vP0.tuples.zst",
        "actual.tuples.zst",
    ] {
        assert!(db.join(f).is_file(), "{f} missing");
    }
    // A query over the database, by name.
    std::fs::write(
        dir.path().join("q.dl"),
        ".include \"basic.db/schema.dl\"\n\
         forNameArg(v:V) printtuples\n\
         forNameArg(v) :- IE0(i, \"<java.lang.Class: java.lang.Class forName(java.lang.String)>\"), actual(i, 0, v).\n\
         named(v:V, h:H) printtuples\n\
         named(v, h) :- forNameArg(v), vP0(v, h), stringType(h, _).\n",
    )
    .unwrap();
    let r = refract()
        .args(["run", "q.dl", "-F", "basic.db"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(
        String::from_utf8(r.stdout).unwrap(),
        "forNameArg(v:V0): 2 tuples\n\
         <Flow: java.lang.Object tryCatch()>/s@2\n\
         <ForName: void main(java.lang.String[])>/l1@2\n\
         named(v:V0, h:H0): 2 tuples\n\
         <Flow: java.lang.Object tryCatch()>/s@2\t\"a.B\"\n\
         <ForName: void main(java.lang.String[])>/l1@2\t\"a.B\"\n"
    );
}

#[test]
fn facts_rejects_missing_inputs_and_bad_jdks() {
    let dir = tempfile::tempdir().unwrap();
    let r = refract()
        .args(["facts", "no/such.jar", "--jdk", "none", "-o"])
        .arg(dir.path().join("x.db"))
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(r.stderr).unwrap(),
        "error: no/such.jar: no such file or directory\n"
    );
    // The directory itself as the JDK: exit 1, and no database.
    let with_dir_as_jdk = || {
        let r = refract()
            .args(["facts", &fixture("basic"), "--jdk"])
            .arg(dir.path())
            .arg("-o")
            .arg(dir.path().join("x.db"))
            .output()
            .unwrap();
        assert_eq!(r.status.code(), Some(1));
        assert!(!dir.path().join("x.db").exists());
        String::from_utf8(r.stderr).unwrap()
    };
    let err = with_dir_as_jdk();
    assert!(err.contains("has no jmods directory"), "{err}");
    // A jmods directory without a .jmod file says so.
    std::fs::create_dir(dir.path().join("jmods")).unwrap();
    assert_eq!(
        with_dir_as_jdk(),
        format!(
            "error: {}/jmods holds no .jmod file; pass --jdk PATH to a JDK whose jmods \
             directory has them, or use --jdk none\n",
            dir.path().display()
        )
    );
    // A usage error is exit code 2.
    let r = refract().args(["facts", "-o", "x"]).output().unwrap();
    assert_eq!(r.status.code(), Some(2));
}

/// `refract facts --dump R` prints a relation's tuples with names (a
/// header, then sorted rows) and writes nothing; an unknown relation is
/// named with its nearest.
#[test]
fn facts_dump_prints_named_tuples() {
    let class = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/classes/reflection/Invoke.class"
    );
    let run = |rel: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_refract"))
            .args(["facts", class, "--jdk", "none", "-q", "--dump", rel])
            .output()
            .unwrap()
    };
    let out = run("Iret");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "invoke\tvariable");
    assert_eq!(
        lines[1],
        "<Invoke: void main(java.lang.String[])>[23@L8] invokevirtual \
         <java.lang.Class: java.lang.reflect.Method getMethod(java.lang.String,java.lang.Class[])>\t\
         <Invoke: void main(java.lang.String[])>/l3@26"
    );
    let wrong = run("Irf");
    assert_eq!(wrong.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(wrong.stderr).unwrap(),
        "error: --dump Irf: the facts have no relation Irf (did you mean Iref?)\n"
    );
}

/// The strings that name a resource of the class path (`resourceNamed`):
/// a constant with a leading `/` (the whole name), one without (the name,
/// or its end after a package), and a concatenation whose known start
/// fits (`"META-INF/services/" + service.getName()`), and the whole name
/// of a provider file (`ResourceUrls`' `getResources`). The class name
/// `"r.Plugin"` does not name `META-INF/services/r.Plugin`: `META-INF` is
/// not a package. The keys of a properties file that name classes have
/// an object of their own (`resourceKeys`), and a bundle's base name
/// names each locale's file (`bundleNamed`: `"r.drivers"` names
/// r/drivers.properties and r/drivers_de.properties; SpecInput's `"r." +
/// input` names every bundle of package r). Each value of a properties
/// file that names a class has an object of its own, under its key
/// (`resourceProperty`): `getProperty("tool")` names r.Upper, not the
/// editor r.Lower.
#[test]
fn strings_name_the_resources_of_the_class_path() {
    let r = refract()
        .args(["facts", &fixture("reflection"), "--jdk", "none", "-q"])
        .args(["--dump", "resourceNamed", "--dump", "resourceTextClass"])
        .args(["--dump", "resourceKeys", "--dump", "bundleNamed"])
        .args(["--dump", "resourceProperty"])
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(
        String::from_utf8(r.stdout).unwrap(),
        "# resourceNamed\n\
         name\tstream\n\
         \"/r/registry.properties\"\t<resource r/registry.properties>\n\
         \"/r/tools.properties\"\t<resource r/tools.properties>\n\
         \"META-INF/services/r.Plugin\"\t<resource META-INF/services/r.Plugin>\n\
         \"r/shapes.properties\"\t<resource r/shapes.properties>\n\
         <ServiceFiles: void runProviders(java.lang.Class)>[11@L20] concat\t<resource META-INF/services/r.Plugin>\n\
         \n\
         # resourceTextClass\n\
         text\ttype\n\
         <driver of r/drivers.properties>\tr.Counter\n\
         <driver of r/drivers_de.properties>\tr.Shape\n\
         <editor of r/tools.properties>\tr.Lower\n\
         <keys of r/handlers.properties>\tr.Bag\n\
         <keys of r/handlers.properties>\tr.Sized\n\
         <keys of r/registry.properties>\tr.Lower\n\
         <keys of r/registry.properties>\tr.Upper\n\
         <plugin of plugins.properties>\tr.Lower\n\
         <resource line>\tr.Lower\n\
         <resource line>\tr.Upper\n\
         <resource property key>\tr.Bag\n\
         <resource property key>\tr.Lower\n\
         <resource property key>\tr.Sized\n\
         <resource property key>\tr.Upper\n\
         <resource property>\tr.Counter\n\
         <resource property>\tr.Lower\n\
         <resource property>\tr.Shape\n\
         <resource property>\tr.Upper\n\
         <shape of plugins.properties>\tr.Shape\n\
         <shape of r/shapes.properties>\tr.Shape\n\
         <text of META-INF/services/r.Plugin>\tr.Lower\n\
         <text of META-INF/services/r.Plugin>\tr.Upper\n\
         <text of plugins.properties>\tr.Lower\n\
         <text of plugins.properties>\tr.Shape\n\
         <text of r/drivers.properties>\tr.Counter\n\
         <text of r/drivers_de.properties>\tr.Shape\n\
         <text of r/shapes.properties>\tr.Shape\n\
         <text of r/tools.properties>\tr.Lower\n\
         <text of r/tools.properties>\tr.Upper\n\
         <tool of r/tools.properties>\tr.Upper\n\
         \n\
         # resourceKeys\n\
         stream\tkeys\n\
         <resource r/handlers.properties>\t<keys of r/handlers.properties>\n\
         <resource r/registry.properties>\t<keys of r/registry.properties>\n\
         <resource stream>\t<resource property key>\n\
         \n\
         # bundleNamed\n\
         name\tbundle\n\
         \"r.drivers\"\t<bundle r/drivers.properties>\n\
         \"r.drivers\"\t<bundle r/drivers_de.properties>\n\
         \"r.handlers\"\t<bundle r/handlers.properties>\n\
         <SpecInput: void main(java.lang.String[])>[24@L10] concat\t<bundle r/drivers.properties>\n\
         <SpecInput: void main(java.lang.String[])>[24@L10] concat\t<bundle r/drivers_de.properties>\n\
         <SpecInput: void main(java.lang.String[])>[24@L10] concat\t<bundle r/handlers.properties>\n\
         <SpecInput: void main(java.lang.String[])>[24@L10] concat\t<bundle r/registry.properties>\n\
         <SpecInput: void main(java.lang.String[])>[24@L10] concat\t<bundle r/shapes.properties>\n\
         <SpecInput: void main(java.lang.String[])>[24@L10] concat\t<bundle r/tools.properties>\n\
         \n\
         # resourceProperty\n\
         stream\tkey\tvalue\n\
         <resource plugins.properties>\t\"plugin\"\t<plugin of plugins.properties>\n\
         <resource plugins.properties>\t\"shape\"\t<shape of plugins.properties>\n\
         <resource r/drivers.properties>\t\"driver\"\t<driver of r/drivers.properties>\n\
         <resource r/drivers_de.properties>\t\"driver\"\t<driver of r/drivers_de.properties>\n\
         <resource r/shapes.properties>\t\"shape\"\t<shape of r/shapes.properties>\n\
         <resource r/tools.properties>\t\"editor\"\t<editor of r/tools.properties>\n\
         <resource r/tools.properties>\t\"tool\"\t<tool of r/tools.properties>\n"
    );
}

/// A concatenation known only by its package (`"r." + line`) is told
/// apart from one whose known text says more (`"r." + kind + "er"`): at
/// the library's own sites, which every caller shares, it names no class
/// (`queries/reflection-infer.dl`).
#[test]
fn names_known_only_by_their_package_are_told_apart() {
    let r = refract()
        .args(["facts", &fixture("reflection"), "--jdk", "none", "-q"])
        .args(["--dump", "partialPackage"])
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(
        String::from_utf8(r.stdout).unwrap(),
        "heap\n\
         <SpecInput: void main(java.lang.String[])>[24@L10] concat\n"
    );
}

/// `--no-merge-tables` is an option of the facts (the heap abstraction,
/// `src/facts/heap_abstraction.rs`): `facts` and `analyze` take it, and the
/// database's manifest records it; the default records nothing.
#[test]
fn no_merge_tables_is_recorded_in_the_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let runs: [(&[&str], &str); 3] = [
        (&["facts"], "option\tmerge-tables\tno\n"),
        (
            &["analyze", "--main", "Invoke"],
            "option\tmerge-tables\tno\n",
        ),
        (&["facts"], ""),
    ];
    for (k, (command, want)) in runs.iter().enumerate() {
        let db = dir.path().join(format!("db{k}"));
        let mut args: Vec<&str> = command.to_vec();
        let reflection = fixture("reflection");
        args.extend([reflection.as_str(), "--jdk", "none", "-q"]);
        if !want.is_empty() {
            args.push("--no-merge-tables");
        }
        let r = refract().args(&args).arg("-o").arg(&db).output().unwrap();
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        let manifest = std::fs::read_to_string(db.join("metadata.tsv")).unwrap();
        let recorded: String = (manifest.lines())
            .filter(|l| l.starts_with("option\tmerge-tables"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(&recorded, want, "{args:?}");
    }
}
