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
        let types = map_names(&db.join("T.map.zst"));
        let deepest = format!("java.lang.Object{}", "[]".repeat(254));
        if file.starts_with("array-255") {
            assert!(types.contains(&deepest), "no Object[]^254");
        }
    }
}

fn hello() -> Vec<u8> {
    std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/classes/minimal/Hello.class"),
    )
    .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A class directory with links to itself and to its parent: each real
/// directory is read once, each loop skipped with a warning naming it,
/// in the class path and in the manifest's checksums alike.
#[test]
fn symbolic_link_loops_are_skipped_with_a_warning() {
    let t = tempfile::tempdir().unwrap();
    let two = t.path().join("twolinks");
    std::fs::create_dir_all(two.join("p")).unwrap();
    std::os::unix::fs::symlink(".", two.join("p/self")).unwrap();
    std::os::unix::fs::symlink("..", two.join("p/up")).unwrap();
    std::fs::write(two.join("p/Hello.class"), hello()).unwrap();
    let o = facts(&two, &t.path().join("two.db"), Duration::from_secs(60));
    assert!(o.status.success(), "{}", stderr(&o));
    let d = two.display();
    assert_eq!(
        stderr(&o),
        format!(
            "warning: skipped {d}/p/self: symbolic link to ., a directory already read (a loop); not followed\n\
             warning: skipped {d}/p/up: symbolic link to .., a directory already read (a loop); not followed\n"
        )
    );
    let types = map_names(&t.path().join("two.db/T.map.zst"));
    assert!(types.iter().any(|l| l == "Hello"));
}

/// The names of a database's (compressed) map file.
fn map_names(path: &Path) -> Vec<String> {
    let map = refract::io::map::NameMap::read(path).unwrap();
    assert_eq!(map.error(), None);
    map.names().to_vec()
}

/// Writes an entry's contents.
type Contents<'a> = &'a dyn Fn(&mut dyn std::io::Write);

/// Writes a jar of `entries` (name, contents), deflated.
fn jar(path: &Path, entries: &[(&str, Contents)]) {
    let f = std::fs::File::create(path).unwrap();
    let mut z = zip::ZipWriter::new(f);
    for (name, write) in entries {
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .compression_level(Some(1))
            .large_file(true);
        z.start_file(*name, opts).unwrap();
        write(&mut z);
    }
    z.finish().unwrap();
}

fn zeros(w: &mut dyn std::io::Write, mb: usize) {
    let chunk = vec![0u8; 1 << 20];
    for _ in 0..mb {
        w.write_all(&chunk).unwrap();
    }
}

/// A zip bomb: entries of zeros are refused at their first four bytes,
/// and an entry that starts like a class but inflates past 64 MB is cut
/// there; memory stays far below what the entries inflate to.
#[test]
fn zip_bombs_are_refused_without_inflating_them() {
    let t = tempfile::tempdir().unwrap();
    let bomb = t.path().join("bomb.jar");
    let zero = |w: &mut dyn std::io::Write| zeros(w, 256);
    let big_class = |w: &mut dyn std::io::Write| {
        w.write_all(&[0xCA, 0xFE, 0xBA, 0xBE]).unwrap();
        zeros(w, 100);
    };
    let good = |w: &mut dyn std::io::Write| w.write_all(&hello()).unwrap();
    jar(
        &bomb,
        &[
            ("B0.class", &zero),
            ("B1.class", &zero),
            ("Big.class", &big_class),
            ("Hello.class", &good),
        ],
    );
    let child = Command::new(env!("CARGO_BIN_EXE_refract"))
        .arg("facts")
        .arg(&bomb)
        .args(["--jdk", "none", "-q", "--max-memory", "200M", "-o"])
        .arg(t.path().join("b.db"))
        .output()
        .unwrap();
    assert!(child.status.success(), "{}", stderr(&child));
    let b = bomb.display();
    assert_eq!(
        stderr(&child),
        format!(
            "warning: skipped {b}!B0.class: not a class file (it starts with [00, 00, 00, 00], not CAFEBABE)\n\
             warning: skipped {b}!B1.class: not a class file (it starts with [00, 00, 00, 00], not CAFEBABE)\n\
             warning: skipped {b}!Big.class: larger than 64 MB: no class file is that large (a zip bomb?); not read further\n"
        )
    );
}

/// An entry whose compression refract cannot read is named by its name.
#[test]
fn unreadable_entries_are_named() {
    let t = tempfile::tempdir().unwrap();
    let path = t.path().join("odd.jar");
    let good = |w: &mut dyn std::io::Write| w.write_all(&hello()).unwrap();
    jar(&path, &[("Odd.class", &good), ("Hello.class", &good)]);
    // Mark the first entry as compressed with method 12 (bzip2), in its
    // local header and in the central directory.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[8] = 12;
    let central = bytes.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
    bytes[central + 10] = 12;
    std::fs::write(&path, &bytes).unwrap();
    let o = facts(&path, &t.path().join("o.db"), Duration::from_secs(60));
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with(&format!(
            "warning: skipped {}!Odd.class: cannot open the entry: ",
            path.display()
        )),
        "{err}"
    );
}

fn run_dl(dir: &Path, text: &[u8]) -> Output {
    std::fs::write(dir.join("p.dl"), text).unwrap();
    Command::new(env!("CARGO_BIN_EXE_refract"))
        .args(["run", "p.dl"])
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn datalog_text_is_read_as_written_or_refused() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let program = "V 4\nR(a:V0) printsize\nR(1).\n";
    // CR, LF and CRLF all end lines; a byte-order mark is skipped.
    for text in [
        program.to_string(),
        program.replace('\n', "\r"),
        program.replace('\n', "\r\n"),
        format!("\u{feff}{program}"),
    ] {
        let o = run_dl(d, text.as_bytes());
        assert!(o.status.success(), "{text:?}: {}", stderr(&o));
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "R: 1 tuples\n",
            "{text:?}"
        );
    }
    let cases: &[(&[u8], &str)] = &[
        (
            b"V 4 h.map R(a:V0) printsize\n",
            "error: p.dl:1:11: unexpected 'R' after the map file name of domain V (a domain is `NAME SIZE [mapfile]`, alone on its line)\n",
        ),
        (
            b"V 4 h.map\nR(a:V0) printsize\n",
            "error: p.dl:1:1: the map file h.map of domain V does not exist\n",
        ),
        (
            b"V 4\n# caf\xe9\nR(a:V0)\n",
            "error: p.dl:2:6: invalid UTF-8 (a Datalog file is UTF-8 text)\n",
        ),
        (
            b"V 4\nR(a:V0)\nR(x) :- S\x00(x).\n",
            "error: p.dl:3:10: unexpected character '\\u{0}'\n",
        ),
        (
            b".include \"/dev/zero\"\n",
            "error: p.dl:1:2: cannot include /dev/zero: it is not a regular file (a device, a pipe or a socket)\n",
        ),
        (
            b".include \"sub\"\n",
            "error: p.dl:1:2: cannot include sub: it is a directory\n",
        ),
        (
            b".include \"fifo\"\n",
            "error: p.dl:1:2: cannot include fifo: it is not a regular file (a device, a pipe or a socket)\n",
        ),
    ];
    std::fs::create_dir(d.join("sub")).unwrap();
    let made = Command::new("mkfifo").arg(d.join("fifo")).status();
    for (text, want) in cases {
        if want.contains("fifo") && !made.as_ref().is_ok_and(|s| s.success()) {
            continue;
        }
        let o = run_dl(d, text);
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(stderr(&o), *want, "{:?}", String::from_utf8_lossy(text));
    }
}

/// Messages quote a bounded part of the input and suggest near names,
/// and 70,000 domains resolve in linear time.
#[test]
fn messages_are_bounded_and_lookups_are_linear() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let long = "x".repeat(10_000_000);
    let o = run_dl(d, format!("V 4\nR(a:V0)\nR(x) :- {long}(x).\n").as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!(
            "error: p.dl:3:9: unknown relation {}... (10000000 bytes in all)\n",
            "x".repeat(80)
        )
    );
    let mut text = String::new();
    for k in 0..70_000 {
        text.push_str(&format!("D{k} 4\n"));
    }
    text.push_str("R(a:D69999) printsize\nS(a:Dx69999) printsize\n");
    let start = Instant::now();
    let o = run_dl(d, text.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error: p.dl:70002:3: unknown domain 'Dx69999' (did you mean D69999, D16999, D19999?)\n"
    );
    // Generous: a quadratic lookup took 5.7 s here; a linear one, 0.05 s.
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
}
