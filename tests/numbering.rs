//! bddbddb's `number` rules: the paths of a call graph numbered as
//! contexts (Whaley and Lam's cloning), and a context-sensitive
//! points-to analysis over them.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

fn refract(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_refract"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// Runs `program` (with `facts` as `NAME.facts` files) in a fresh
/// directory; its stdout, or its stderr when it fails.
fn run(program: &str, facts: &[(&str, &str)]) -> Result<String, String> {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("p.dl"), program).unwrap();
    fs::create_dir(d.join("facts")).unwrap();
    for (name, rows) in facts {
        fs::write(d.join("facts").join(format!("{name}.facts")), rows).unwrap();
    }
    let out = refract(d, &["run", "p.dl", "-F", "facts"]);
    if out.status.success() {
        Ok(String::from_utf8(out.stdout).unwrap())
    } else {
        Err(String::from_utf8(out.stderr).unwrap())
    }
}

/// A call graph: `main` (0) calls `a` (1) at sites 0 and 1; `a` calls
/// `b` (2) at site 2; `b` calls itself at site 3.
const CALLS: &[(&str, &str)] = &[
    ("roots", "0\n"),
    ("mI0", "0\t0\n0\t1\n1\t2\n2\t3\n"),
    ("IE0", "0\t1\n1\t1\n2\t2\n3\t2\n"),
];

/// The declarations of [`CALLS`] and the numbering rule of bddbddb's
/// `pacs2.datalog`.
const NUMBERING: &str = "M 4\nI 4\nVC 8\n\
    roots (m:M0) input\n\
    mI0 (m:M0, i:I0) input\n\
    IE0 (i:I0, m:M0) input\n\
    IEnum (i:I0, m:M0, vc2:VC1, vc1:VC0) printtuples\n\
    .bddvarorder I0_M0_VC1xVC0\n\
    IEnum(i,m,vc2,vc1) :- roots(m), mI0(m,i), IE0(i,m). number\n";

/// `a` has two contexts (one per call site of `main`), and `b` the two
/// of `a`, which its recursive call maps to themselves.
#[test]
fn call_sites_number_the_contexts_of_their_targets() {
    assert_eq!(
        run(NUMBERING, CALLS).unwrap(),
        "IEnum(i:I0, m:M0, vc2:VC1, vc1:VC0): 6 tuples\n\
         0\t1\t0\t0\n\
         1\t1\t0\t1\n\
         2\t2\t0\t0\n\
         2\t2\t1\t1\n\
         3\t2\t0\t0\n\
         3\t2\t1\t1\n"
    );
}

/// A method that returns its parameter, called from two sites with two
/// objects: with the numbering, each call's result points to its own
/// object only (`cvP` in the caller's context 0), and so does the
/// projection `vP`; only the method's own parameter holds both, one per
/// context. (A context-insensitive analysis gives each result both.)
#[test]
fn cloning_separates_the_two_calls_of_an_identity_method() {
    // main (0): v0 = new h0; v1 = id(v0) at site 0; v2 = new h1;
    // v3 = id(v2) at site 1. id (1): formal v4, returns v4.
    let program = "M 2\nI 2\nV 5\nH 2\nZ 1\nVC 4\n\
        roots (m:M0) input\n\
        mI0 (m:M0, i:I0) input\n\
        IE0 (i:I0, m:M0) input\n\
        vP0 (v:V0, h:H0) input\n\
        actual (i:I0, z:Z0, v:V1) input\n\
        formal (m:M0, z:Z0, v:V0) input\n\
        Mret (m:M0, v:V1) input\n\
        Iret (i:I0, v:V0) input\n\
        IEnum (i:I0, m:M0, vc2:VC1, vc1:VC0)\n\
        cA (vcd:VC0, d:V0, vcs:VC1, s:V1)\n\
        cvP (vc:VC0, v:V0, h:H0) printtuples\n\
        vP (v:V0, h:H0) printtuples\n\
        .bddvarorder I0_M0_V1xV0_VC1xVC0_Z0_H0\n\
        IEnum(i,m,vc2,vc1) :- roots(m), mI0(m,i), IE0(i,m). number\n\
        cvP(_,v,h) :- vP0(v,h).\n\
        cA(vc1,v1,vc2,v2) :- formal(m,z,v1), IEnum(i,m,vc2,vc1), actual(i,z,v2).\n\
        cA(vc2,v2,vc1,v1) :- Mret(m,v1), IEnum(i,m,vc2,vc1), Iret(i,v2).\n\
        cvP(vc1,v1,h) :- cA(vc1,v1,vc2,v2), cvP(vc2,v2,h).\n\
        vP(v,h) :- cvP(_,v,h).\n";
    let facts: &[(&str, &str)] = &[
        ("roots", "0\n"),
        ("mI0", "0\t0\n0\t1\n"),
        ("IE0", "0\t1\n1\t1\n"),
        ("vP0", "0\t0\n2\t1\n"),
        ("actual", "0\t0\t0\n1\t0\t2\n"),
        ("formal", "1\t0\t4\n"),
        ("Mret", "1\t4\n"),
        ("Iret", "0\t1\n1\t3\n"),
    ];
    let out = run(program, facts).unwrap();
    // vP0's objects hold in every context; the call results only in
    // main's context 0, each its own object; id's formal holds each
    // object in the context of its call.
    let cvp = out
        .split("vP(v:V0, h:H0)")
        .next()
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("cvP") && !l.contains("vc:VC0, v:V0"))
        .filter(|l| {
            l.split('\t')
                .nth(1)
                .is_some_and(|v| v == "1" || v == "3" || v == "4")
        })
        .collect::<Vec<_>>();
    assert_eq!(cvp, ["0\t1\t0", "0\t3\t1", "0\t4\t0", "1\t4\t1"], "{out}");
    assert!(
        out.ends_with("vP(v:V0, h:H0): 6 tuples\n0\t0\n1\t0\n2\t1\n3\t1\n4\t0\n4\t1\n"),
        "{out}"
    );
}

/// A numbering rule must see its whole graph: in a recursive stratum it
/// is refused, with its place.
#[test]
fn a_recursive_numbering_rule_is_refused() {
    let program = "M 4\nI 4\nVC 8\n\
        roots (m:M0) input\n\
        mI0 (m:M0, i:I0) input\n\
        IE0 (i:I0, m:M0) input\n\
        IEnum (i:I0, m:M0, vc2:VC1, vc1:VC0)\n\
        IE0(i,m) :- IEnum(i,m,_,_).\n\
        IEnum(i,m,vc2,vc1) :- roots(m), mI0(m,i), IE0(i,m). number\n";
    let err = run(program, CALLS).unwrap_err();
    assert!(
        err.contains("p.dl:9:1") && err.contains("a numbering rule cannot be recursive"),
        "{err}"
    );
}

/// A numbering rule of the wrong shape, or whose contexts do not fit
/// their domain, gets an error that says how to write it.
#[test]
fn numbering_rules_of_the_wrong_shape_or_size_are_refused() {
    let bad = NUMBERING.replace("mI0(m,i), IE0(i,m)", "mI0(m,i), IE0(i,3)");
    let err = run(&bad, CALLS).unwrap_err();
    assert!(
        err.contains("p.dl:9:1") && err.contains("a numbering rule has no constants"),
        "{err}"
    );
    let bad = NUMBERING.replace("IEnum(i,m,vc2,vc1) :-", "IEnum(i,m,vc2,vc2) :-");
    let err = run(&bad, CALLS).unwrap_err();
    assert!(
        err.contains("needs a head of four distinct variables"),
        "{err}"
    );
    // `a` has two contexts, and VC holds one.
    let small = NUMBERING.replace("VC 8", "VC 1");
    let err = run(&small, CALLS).unwrap_err();
    assert!(
        err.contains("p.dl:9:1")
            && err.contains("the numbering rule gives a node 2 contexts, more than its context domain holds (1)"),
        "{err}"
    );
}

/// Whaley and Lam's cloning on bddbddb's Java example (pa): every acyclic
/// path of its call graph is a context, up to 37,396,112,036,813,043 per
/// method (bddbddb's `SCCPathNumbering` counts the same), and the
/// context-sensitive points-to relation, projected, lies within the
/// context-insensitive one (`outsideCI` is empty), which has pa's
/// 4,523,260 tuples.
#[test]
fn cloning_numbers_pa_s_call_graph_as_bddbddb_does_and_stays_within_its_points_to() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bddbddb/pa");
    let out = refract(&dir, &["run", "cloning.datalog", "--stats"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "IEnum: 669491214080089066 tuples\n\
         cvP: 74661491839394014209577 tuples\n\
         hP: 66844 tuples\n\
         vP: 1963850 tuples\n\
         vPci: 4523260 tuples\n\
         outsideCI: 0 tuples\n"
    );
    let stats = String::from_utf8(out.stderr).unwrap();
    assert!(
        stats.contains(
            "numbered cloning.datalog:56: at most 37396112036813043 contexts per node (56 bits)"
        ),
        "{stats}"
    );
}
