//! Hostile inputs end, with a reason: class files that made `refract
//! facts` run for ever or for minutes (`tests/data/hangs/README.md`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/hangs")
        .join(name)
}

/// Runs `refract facts` on `input`; a run past `limit` is killed and
/// fails the test (each of these inputs once ran for ever).
fn facts(input: &Path, out: &Path, limit: Duration) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_refract"))
        .arg("facts")
        .arg(input)
        .args(["--jdk", "none", "-q", "-o"])
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let id = child.id();
    let start = Instant::now();
    let waiter = std::thread::spawn(move || child.wait_with_output().unwrap());
    while !waiter.is_finished() {
        if start.elapsed() > limit {
            let _ = Command::new("kill").args(["-9", &id.to_string()]).status();
            panic!("{} still ran after {limit:?}", input.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    waiter.join().unwrap()
}

#[test]
fn circular_hierarchies_are_skipped_with_the_jvms_reason() {
    let t = tempfile::tempdir().unwrap();
    let cases = [
        (
            "self-super.class",
            "self-super.class: ClassCircularityError: A is its own supertype",
        ),
        (
            "super-cycle-2classes.jar",
            "super-cycle-2classes.jar!A.class: ClassCircularityError: A extends or implements B, whose supertypes lead back in a cycle",
        ),
        (
            "fuzz-1.class",
            "fuzz-1.class: ClassCircularityError: org.objectweb.asm.tree.TryCatchBlockNode is its own supertype",
        ),
        (
            "fuzz-2.class",
            "fuzz-2.class: ClassCircularityError: com.sun.tools.javac.tree.DCTree$DCSince is its own supertype",
        ),
        (
            "fuzz-3.class",
            "fuzz-3.class: ClassCircularityError: com.kenai.jffi.NativeMethod is its own supertype",
        ),
    ];
    for (file, reason) in cases {
        let o = facts(&data(file), &t.path().join("d.db"), Duration::from_secs(60));
        let err = String::from_utf8_lossy(&o.stderr);
        // Nothing else was on the class path, so nothing could be read.
        assert_eq!(o.status.code(), Some(1), "{file}: {err}");
        let skipped = if file.ends_with(".jar") { 2 } else { 1 };
        let want = format!(
            "error: no class could be read from the application class path ({skipped} skipped): {}",
            data("").display()
        );
        assert!(
            err.starts_with(&want) && err.ends_with(&format!("{reason}\n")),
            "{file}: {err}"
        );
        assert!(!t.path().join("d.db").exists());
    }
}

/// A valid class whose code uses a type of 255 dimensions, the JVM's
/// limit, took 571 s: the supertypes of arrays were built one dimension
/// at a time, for every dimension of every type.
#[test]
fn arrays_of_255_dimensions_are_cheap() {
    let t = tempfile::tempdir().unwrap();
    for file in ["array-50-dims.class", "array-255-dims.class"] {
        let db = t.path().join(format!("{file}.db"));
        let o = facts(&data(file), &db, Duration::from_secs(60));
        assert!(
            o.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let types = std::fs::read_to_string(db.join("T.map")).unwrap();
        let deepest = format!("java.lang.Object{}", "[]".repeat(254));
        if file.starts_with("array-255") {
            assert!(types.lines().any(|l| l == deepest), "no Object[]^254");
        }
    }
}
