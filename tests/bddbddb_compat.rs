//! Compatibility with bddbddb: its C pointer analysis of enscript
//! (`../shared/bddbddb/c_pa.datalog`) runs unmodified and every `printsize`
//! figure equals what bddbddb itself computes.

mod common;

use refract::datalog::parser::parse_file;
use refract::datalog::resolve::resolve;
use refract::datalog::solver::Solver;
use std::path::PathBuf;

fn shared(path: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/bddbddb")
        .join(path)
}

/// Relation sizes measured by running bddbddb (shared/bddbddb/README.md).
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
    let program = shared("c_pa.datalog");
    assert!(
        program.is_file(),
        "{} is missing: the compatibility data ships in shared/",
        program.display()
    );
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
