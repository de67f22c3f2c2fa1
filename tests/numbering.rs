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

/// SplitMix64, for the random call graphs below.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

/// A random call graph: `methods` methods, each call site in one of them
/// (`mI0`) with one to three targets (`IE0`); cycles and self-calls occur.
fn random_graph(rng: &mut Rng, methods: u64) -> (Vec<u64>, Vec<(u64, u64)>) {
    let sites = 1 + rng.below(2 * methods);
    let owner: Vec<u64> = (0..sites).map(|_| rng.below(methods)).collect();
    let mut edges = Vec::new();
    for i in 0..sites {
        for _ in 0..1 + rng.below(3) {
            let e = (i, rng.below(methods));
            if !edges.contains(&e) {
                edges.push(e);
            }
        }
    }
    (owner, edges)
}

/// The numbering's defining properties, computed without BDDs: only the
/// calls of the methods that the root reaches are numbered; methods in
/// one strongly connected component share their contexts; a component
/// that no call from outside enters has one context, any other as many as
/// the contexts of the calls from outside that enter it, summed. Each
/// call into another component maps its caller's contexts one to one onto
/// an interval of the callee's, the intervals of a component's incoming
/// calls tile its contexts, and a call inside a component maps each
/// context to itself. Checked on random graphs against `IEnum` as
/// `refract run` prints it (which interval goes to which call is the
/// implementation's choice, and not checked).
#[test]
fn numbering_has_the_defining_properties_on_random_graphs() {
    use std::collections::{BTreeMap, BTreeSet};
    let mut rng = Rng(38);
    // Rounds checked, and calls that entered a component with more than
    // one context (where offsets matter).
    let (mut checked, mut shifted) = (0, 0);
    for round in 0..100 {
        let n = 2 + rng.below(6);
        let (owner, edges) = random_graph(&mut rng, n);
        let n = n as usize;
        // Reachability by calls, then components and their order.
        let mut reach = vec![vec![false; n]; n];
        for &(i, m) in &edges {
            reach[owner[i as usize] as usize][m as usize] = true;
        }
        for k in 0..n {
            for a in 0..n {
                for b in 0..n {
                    if reach[a][k] && reach[k][b] {
                        reach[a][b] = true;
                    }
                }
            }
        }
        // What the root, method 0, reaches; the calls of the rest are not
        // numbered.
        let reached: Vec<bool> = (0..n).map(|a| a == 0 || reach[0][a]).collect();
        let edges: Vec<(u64, u64)> = (edges.into_iter())
            .filter(|&(i, _)| reached[owner[i as usize] as usize])
            .collect();
        let same = |a: usize, b: usize| a == b || (reach[a][b] && reach[b][a]);
        let comp: Vec<usize> = (0..n)
            .map(|a| (0..n).find(|&b| same(a, b)).unwrap())
            .collect();
        // Contexts per component, callers first (a component reaches
        // only components after it in this order).
        let mut order: Vec<usize> = (0..n).filter(|&a| comp[a] == a && reached[a]).collect();
        order.sort_by_key(|&c| {
            (0..n)
                .filter(|&d| comp[d] == d && reach[d][c] && !same(d, c))
                .count()
        });
        let mut contexts = vec![0u64; n];
        for &c in &order {
            let entering: u64 = (edges.iter())
                .filter(|&&(i, m)| comp[m as usize] == c && comp[owner[i as usize] as usize] != c)
                .map(|&(i, _)| contexts[comp[owner[i as usize] as usize]])
                .sum();
            contexts[c] = entering.max(1);
        }
        let vc = 1u64 << 12;
        if contexts.iter().any(|&k| k > vc) {
            continue;
        }
        let facts = [
            ("roots", "0\n".to_string()),
            (
                "mI0",
                (owner.iter().enumerate())
                    .map(|(i, m)| format!("{m}\t{i}\n"))
                    .collect(),
            ),
            (
                "IE0",
                edges.iter().map(|(i, m)| format!("{i}\t{m}\n")).collect(),
            ),
        ];
        let facts: Vec<(&str, &str)> = facts.iter().map(|(r, t)| (*r, t.as_str())).collect();
        let program = NUMBERING.replace(
            "M 4\nI 4\nVC 8",
            &format!("M {n}\nI {}\nVC {vc}", owner.len()),
        );
        let out = run(&program, &facts).unwrap_or_else(|e| panic!("round {round}: {e}"));
        // IEnum's tuples per call edge: caller context -> callee context.
        let mut maps: BTreeMap<(u64, u64), BTreeMap<u64, u64>> = BTreeMap::new();
        for line in out.lines().skip(1) {
            let t: Vec<u64> = line.split('\t').map(|x| x.parse().unwrap()).collect();
            let previous = maps.entry((t[0], t[1])).or_default().insert(t[2], t[3]);
            assert_eq!(
                previous, None,
                "round {round}: two callee contexts for {line}"
            );
        }
        let edge_set: BTreeSet<(u64, u64)> = edges.iter().copied().collect();
        assert_eq!(
            maps.keys().copied().collect::<BTreeSet<_>>(),
            edge_set,
            "round {round}: {owner:?} {edges:?}"
        );
        let mut tiles: BTreeMap<usize, Vec<(u64, u64)>> = BTreeMap::new();
        for (&(i, m), map) in &maps {
            let (from, to) = (comp[owner[i as usize] as usize], comp[m as usize]);
            let caller: Vec<u64> = map.keys().copied().collect();
            assert_eq!(
                caller,
                (0..contexts[from]).collect::<Vec<_>>(),
                "round {round}: {i}->{m}"
            );
            let offset = map[&0];
            for (&c, &d) in map {
                assert_eq!(d, c + offset, "round {round}: {i}->{m} is not a shift");
            }
            if from == to {
                assert_eq!(offset, 0, "round {round}: {i}->{m} inside a component");
            } else {
                shifted += usize::from(offset > 0);
                tiles.entry(to).or_default().push((offset, contexts[from]));
            }
        }
        for (c, mut t) in tiles {
            t.sort_unstable();
            let mut next = 0;
            for (offset, len) in t {
                assert_eq!(offset, next, "round {round}: component {c}'s intervals");
                next += len;
            }
            assert_eq!(next, contexts[c], "round {round}: component {c}'s contexts");
        }
        checked += 1;
    }
    assert!(
        checked >= 90 && shifted >= 60,
        "{checked} rounds, {shifted} shifted calls"
    );
}
