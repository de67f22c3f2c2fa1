//! Compatibility with bddbddb: its C pointer analysis of enscript
//! (`tests/data/bddbddb/c_pa.datalog`) and its Java pointer analysis
//! (`tests/data/bddbddb/pa/pa.datalog`) run unmodified, and every
//! `printsize` figure equals what bddbddb itself computes. The data is
//! bddbddb's public example data (`tests/data/bddbddb/README.md`).

mod common;

use common::copy_tree;

use refract::datalog::parser::parse_file;
use refract::datalog::resolve::resolve;
use refract::datalog::solver::Solver;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn data(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/bddbddb")
        .join(path)
}

/// Relation sizes measured by running bddbddb (tests/data/bddbddb/README.md).
const EXPECTED: &[(&str, u64)] = &[
    ("pointsTo", 1_739_200_389),
    ("assign", 29_053_355),
    ("mergePointsTo", 6_400_764_786),
    ("CONS_subPath", 548_893),
    ("distinctSubPath", 31_197),
    ("usedPointers", 3_220),
    ("callsiteTargets", 3),
    ("calledFromEntry", 1),
    ("stores", 1_080),
    ("loads", 1_249),
    ("fieldAddress", 507),
    ("copySrc", 212),
    ("copyDst", 168),
    ("ptrIncr", 1_571),
    ("ptrDecr", 1_337),
    ("intIncr", 369),
    ("intDecr", 194),
    ("modPtrs", 1_156),
    ("refPtrs", 1_430),
    ("unhandledBinaryOp", 309),
    ("unhandledAddOp", 81),
];

#[test]
fn c_pa_sizes_match_bddbddb_exactly() {
    let program = data("c_pa.datalog");
    let prog = resolve(&parse_file(&program).unwrap()).unwrap();
    let mut solver = Solver::new(prog).unwrap();
    solver.load_inputs(None).unwrap();
    solver.solve().unwrap();

    // Every printsize relation is covered, and each count is exact.
    let printed: Vec<String> = solver
        .prog
        .relations
        .iter()
        .filter(|r| r.options.print_size)
        .map(|r| r.name.clone())
        .collect();
    assert_eq!(printed.len(), EXPECTED.len());
    for (name, want) in EXPECTED {
        assert!(
            printed.contains(&name.to_string()),
            "{name} is not printsize"
        );
        let rel = solver.prog.relation_id(name).unwrap();
        assert_eq!(
            solver.count(rel).to_string(),
            want.to_string(),
            "size of {name}"
        );
    }

    // The printed report carries the same figures.
    let mut out = Vec::new();
    solver.print_results(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("mergePointsTo: 6400764786 tuples\n"),
        "{text}"
    );

    // Saving a result as a JavaBDD dump and loading it back gives the same BDD.
    let dir = tempfile::tempdir().unwrap();
    let rel = solver.prog.relation_id("pointsTo").unwrap();
    solver
        .write_bdd_file(rel, &dir.path().join("pointsTo.bdd"))
        .unwrap();
    solver.write_bddinfo(&dir.path().join("bddinfo")).unwrap();
    let back = solver
        .read_bdd_file(rel, &dir.path().join("pointsTo.bdd"))
        .unwrap();
    assert!(
        back.xor(&solver.rels[rel]).is_false(),
        "pointsTo changed in a .bdd round trip"
    );
}

/// Every file below `dir` with its contents, sorted by path.
fn contents(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<(PathBuf, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| (p.clone(), fs::read(&p).unwrap()))
        .collect();
    out.sort();
    out
}

/// bddbddb's Java points-to analysis, with its results declared `output`
/// as in bddbddb's own copy: run twice from a copy, the sizes are
/// bddbddb's, every input file stays byte for byte what it was (the
/// results' variable numbering goes to `rbddinfo`, not over the inputs'
/// `bddinfo`), and the second run still loads its inputs.
#[test]
fn pa_runs_twice_with_bddbddb_sizes_and_leaves_its_inputs_alone() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("pa");
    copy_tree(&data("pa"), &dir);
    let program = dir.join("pa.datalog");
    let text = fs::read_to_string(&program).unwrap();
    let text = text.replace(") printsize", ") output printsize");
    assert_eq!(text.matches("output printsize").count(), 3);
    fs::write(&program, text).unwrap();
    let inputs = contents(&dir.join("pa.joeq"));
    for run in 0..2 {
        let o = Command::new(env!("CARGO_BIN_EXE_refract"))
            .args(["run", "pa.datalog"])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "run {run}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            String::from_utf8(o.stdout).unwrap(),
            "vP: 4523260 tuples\nhP: 1294129 tuples\nIE: 27453 tuples\n"
        );
        let after = contents(&dir.join("pa.joeq"));
        for (path, bytes) in &inputs {
            let now = after.iter().find(|(p, _)| p == path).map(|(_, b)| b);
            assert!(now == Some(bytes), "run {run} changed {}", path.display());
        }
        for f in ["vP.bdd", "hP.bdd", "IE.bdd", "rbddinfo"] {
            assert!(dir.join("pa.joeq").join(f).is_file(), "{f}");
        }
    }
}

/// An output that would replace the file an input was read from is
/// refused before the solve.
#[test]
fn an_output_over_its_own_input_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    fs::write(d.join("e.tuples"), "# x0:2\n0\n1\n").unwrap();
    fs::write(d.join("p.dl"), "X 4\ne(x:X) inputtuples outputtuples\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_refract"))
        .args(["run", "p.dl"])
        .current_dir(d)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.starts_with("error: p.dl:2:1: ")
            && err.ends_with("e.tuples: the output would replace this input file; write the outputs elsewhere with -D DIR\n"),
        "{err}"
    );
    assert_eq!(
        fs::read_to_string(d.join("e.tuples")).unwrap(),
        "# x0:2\n0\n1\n"
    );
}
