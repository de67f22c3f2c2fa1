//! Differential testing: the BDD engine against a naive explicit-set
//! evaluator, on randomly generated stratified programs that exercise
//! recursion, negation, constants, comparisons, repeated variables,
//! wildcards, several domain instances and random variable orders.

mod common;

use common::naive;
use refract::bdd::sorted_tuples;
use refract::datalog::parser::parse_str;
use refract::datalog::resolve::resolve;
use refract::datalog::solver::Solver;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::Path;

/// SplitMix64: small, seedable, good enough for generating programs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

struct Rel {
    name: String,
    attrs: Vec<(usize, u32)>, // (domain, instance)
    level: u32,
}

const DOMAINS: [&str; 3] = ["P", "Q", "S"];

/// The bound variables of domain `d`.
fn of_domain(vars: &[(String, usize)], d: usize) -> Vec<String> {
    vars.iter()
        .filter(|(_, vd)| *vd == d)
        .map(|(n, _)| n.clone())
        .collect()
}

fn generate(seed: u64) -> String {
    let mut rng = Rng(seed);
    let nd = 1 + rng.below(3) as usize;
    let sizes: Vec<u64> = (0..nd).map(|_| *rng.pick(&[1, 2, 3, 5, 7, 8])).collect();
    let mut text = String::new();
    for d in 0..nd {
        writeln!(text, "{} {}", DOMAINS[d], sizes[d]).unwrap();
    }
    let nrel = 2 + rng.below(5) as usize;
    let mut rels: Vec<Rel> = Vec::new();
    for r in 0..nrel {
        let arity = 1 + rng.below(3) as usize;
        let mut attrs: Vec<(usize, u32)> = Vec::new();
        while attrs.len() < arity {
            let a = (rng.below(nd as u64) as usize, rng.below(3) as u32);
            if !attrs.contains(&a) {
                attrs.push(a);
            }
        }
        let level = if r < 2 { 0 } else { rng.below(4) as u32 };
        rels.push(Rel {
            name: format!("r{r}"),
            attrs,
            level,
        });
    }
    for r in &rels {
        let attrs: Vec<String> = r
            .attrs
            .iter()
            .enumerate()
            .map(|(k, (d, i))| format!("a{k}:{}{}", DOMAINS[*d], i))
            .collect();
        writeln!(text, "{}({}) printsize", r.name, attrs.join(", ")).unwrap();
    }
    // A random variable order over the instances in use, sometimes.
    if rng.chance(60) {
        let mut insts: Vec<String> = Vec::new();
        for r in &rels {
            for (d, i) in &r.attrs {
                let n = format!("{}{}", DOMAINS[*d], i);
                if !insts.contains(&n) {
                    insts.push(n);
                }
            }
        }
        for i in (1..insts.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            insts.swap(i, j);
        }
        let mut order = String::new();
        for (k, n) in insts.iter().enumerate() {
            if k > 0 {
                order.push(if rng.chance(50) { 'x' } else { '_' });
            }
            order.push_str(n);
        }
        writeln!(text, ".bddvarorder {order}").unwrap();
    }
    // Facts.
    for r in rels.iter() {
        if r.level > 0 && !rng.chance(20) {
            continue;
        }
        for _ in 0..rng.below(7) {
            let args: Vec<String> = r
                .attrs
                .iter()
                .map(|(d, _)| {
                    if rng.chance(8) {
                        "_".to_string()
                    } else {
                        rng.below(sizes[*d]).to_string()
                    }
                })
                .collect();
            writeln!(text, "{}({}).", r.name, args.join(", ")).unwrap();
        }
    }
    // Rules.
    for hi in 0..rels.len() {
        if rels[hi].level == 0 {
            continue;
        }
        for _ in 0..1 + rng.below(3) {
            let mut vars: Vec<(String, usize)> = Vec::new(); // bound variables
            let mut body: Vec<String> = Vec::new();
            let lower_eq: Vec<usize> = (0..rels.len())
                .filter(|&j| rels[j].level <= rels[hi].level)
                .collect();
            let lower: Vec<usize> = (0..rels.len())
                .filter(|&j| rels[j].level < rels[hi].level)
                .collect();
            for _ in 0..1 + rng.below(3) {
                let j = *rng.pick(&lower_eq);
                let mut args = Vec::new();
                for &(d, _) in &rels[j].attrs {
                    let same = of_domain(&vars, d);
                    let roll = rng.below(100);
                    let arg = if roll < 10 {
                        rng.below(sizes[d]).to_string()
                    } else if roll < 22 {
                        "_".to_string()
                    } else if roll < 65 && !same.is_empty() {
                        rng.pick(&same).clone()
                    } else {
                        let n = format!("v{}", vars.len());
                        vars.push((n.clone(), d));
                        n
                    };
                    args.push(arg);
                }
                body.push(format!("{}({})", rels[j].name, args.join(", ")));
            }
            // A comparison, possibly binding a fresh variable.
            if !vars.is_empty() && rng.chance(35) {
                let (x, d) = rng.pick(&vars).clone();
                let op = *rng.pick(&["=", "!=", "<", "<=", ">", ">="]);
                let same = of_domain(&vars, d);
                let rhs = match rng.below(3) {
                    0 => rng.below(sizes[d]).to_string(),
                    1 => rng.pick(&same).clone(),
                    _ => {
                        let n = format!("v{}", vars.len());
                        vars.push((n.clone(), d));
                        n
                    }
                };
                body.push(format!("{x} {op} {rhs}"));
            }
            // A negation of a lower stratum.
            if !lower.is_empty() && rng.chance(40) {
                let j = *rng.pick(&lower);
                let args: Vec<String> = rels[j]
                    .attrs
                    .iter()
                    .map(|&(d, _)| {
                        let same = of_domain(&vars, d);
                        match rng.below(3) {
                            0 if !same.is_empty() => rng.pick(&same).clone(),
                            1 => rng.below(sizes[d]).to_string(),
                            _ => "_".to_string(),
                        }
                    })
                    .collect();
                body.push(format!("!{}({})", rels[j].name, args.join(", ")));
            }
            let head: Vec<String> = rels[hi]
                .attrs
                .iter()
                .map(|&(d, _)| {
                    let same = of_domain(&vars, d);
                    if !same.is_empty() && rng.chance(85) {
                        rng.pick(&same).clone()
                    } else if rng.chance(50) {
                        rng.below(sizes[d]).to_string()
                    } else {
                        "_".to_string()
                    }
                })
                .collect();
            writeln!(
                text,
                "{}({}) :- {}.",
                rels[hi].name,
                head.join(", "),
                body.join(", ")
            )
            .unwrap();
        }
    }
    text
}

fn check(seed: u64) {
    let text = generate(seed);
    let parsed = parse_str(&text, "gen.dl", Path::new("."))
        .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
    let prog = resolve(&parsed).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
    let expected = naive::evaluate(&prog, vec![BTreeSet::new(); prog.relations.len()]);
    let mut solver = Solver::new(prog).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
    solver
        .solve()
        .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
    for (rel, want) in expected.iter().enumerate() {
        let got: BTreeSet<Vec<u64>> = sorted_tuples(&solver.rels[rel], &solver.blocks(rel))
            .into_iter()
            .collect();
        assert_eq!(
            &got, want,
            "seed {seed}: relation {} differs\n{text}",
            solver.prog.relations[rel].name
        );
        assert_eq!(
            solver.count(rel),
            num_bigint::BigUint::from(got.len()),
            "seed {seed}: count of {}",
            solver.prog.relations[rel].name
        );
    }
}

#[test]
fn bdd_engine_agrees_with_naive_evaluator() {
    let cases: u64 = std::env::var("REFRACT_DIFF_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    let base: u64 = std::env::var("REFRACT_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed);
    for i in 0..cases {
        check(base.wrapping_add(i));
    }
}

#[test]
fn generated_programs_are_not_trivial() {
    // Guard against a generator that only produces empty relations.
    let (mut nonempty, mut total, mut recursive, mut negations) = (0, 0, 0, 0);
    for seed in 0..200u64 {
        let text = generate(seed);
        negations += usize::from(text.contains('!'));
        let prog = resolve(&parse_str(&text, "gen.dl", Path::new(".")).unwrap()).unwrap();
        let mut solver = Solver::new(prog).unwrap();
        solver.solve().unwrap();
        recursive += usize::from(solver.strata().iter().any(|s| s.recursive));
        for rel in 0..solver.prog.relations.len() {
            total += 1;
            nonempty += usize::from(!solver.rels[rel].is_false());
        }
    }
    assert!(
        nonempty * 2 > total,
        "{nonempty} of {total} relations non-empty"
    );
    assert!(recursive > 40, "{recursive} programs with recursion");
    assert!(negations > 40, "{negations} programs with negation");
}

/// Saturation between iterations: a copy chain of 60 links, a linear
/// hand-off (`reach`) and a store meeting a load (rules with two subgoals
/// over the stratum) settle in the first outer iteration's inner loop,
/// with exactly the tuples of the naive fixpoint.
#[test]
fn saturation_settles_chains_in_few_iterations() {
    let n = 60;
    let mut text = String::from(
        "V 64\nH 8\nF 4\n\
         A (dest:V0, source:V1) input\n\
         new (var:V, heap:H) input\n\
         S (base:V, field:F, source:V1) input\n\
         L (base:V, field:F, dest:V1) input\n\
         vP (var:V, heap:H) output\n\
         hP (base:H0, field:F, target:H1) output\n\
         reach (var:V) output\n\
         vP(v, h) :- new(v, h).\n\
         vP(v1, h) :- A(v1, v2), vP(v2, h).\n\
         hP(b, f, h) :- S(x, f, y), vP(x, b), vP(y, h).\n\
         vP(d, h) :- L(x, f, d), vP(x, b), hP(b, f, h).\n\
         reach(v) :- vP(v, _).\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let a: String = (1..n).map(|i| format!("{i} {}\n", i - 1)).collect();
    std::fs::write(dir.path().join("A.tuples"), a).unwrap();
    std::fs::write(dir.path().join("new.tuples"), "0 1\n61 2\n").unwrap();
    // Objects of variable 59 flow into field 3 of object 2 (via variable
    // 61) and out into variable 62.
    std::fs::write(dir.path().join("S.tuples"), "61 3 59\n").unwrap();
    std::fs::write(dir.path().join("L.tuples"), "61 3 62\n").unwrap();
    text.push('\n');
    let prog = resolve(&parse_str(&text, "chain.dl", dir.path()).unwrap()).unwrap();
    let mut solver = Solver::new(prog).unwrap();
    solver.load_inputs(Some(dir.path())).unwrap();
    solver.solve().unwrap();
    let rel = |name: &str| solver.prog.relation_id(name).unwrap();
    let vp: BTreeSet<Vec<u64>> = sorted_tuples(&solver.rels[rel("vP")], &solver.blocks(rel("vP")))
        .into_iter()
        .collect();
    let mut expected: BTreeSet<Vec<u64>> = (0..n).map(|v| vec![v, 1]).collect();
    expected.insert(vec![61, 2]);
    expected.insert(vec![62, 1]);
    assert_eq!(vp, expected);
    assert_eq!(solver.count(rel("reach")), 62u32.into());
    let iterations: u64 = solver.stats.iterations.iter().sum();
    assert!(
        iterations <= 3,
        "{iterations} iterations for a chain of {n}"
    );
}

/// A recursive stratum keeps the last version of a relation only where a
/// variant that still runs after saturation reads it: `path`'s rule of
/// three subgoals over the stratum does not saturate and reads its `old`,
/// while `reach` and `mark` grow in place. Both give the naive fixpoint,
/// over several iterations.
#[test]
fn relations_whose_old_version_nothing_reads_grow_in_place() {
    let mut text = String::from(
        "N 32\n\
         e (a:N0, b:N1) input\n\
         path (a:N0, b:N1) output\n\
         reach (a:N0) output\n\
         mark (a:N0, b:N1) output\n\
         reach(0).\n\
         path(x, y) :- reach(x), e(x, y).\n\
         path(x, z) :- path(x, y), path(y, w), path(w, z).\n\
         reach(y) :- reach(x), path(x, y).\n\
         mark(x, y) :- mark(y, x), path(x, y).\n\
         mark(x, x) :- reach(x), e(x, x).\n",
    );
    // A chain with a few shortcuts and loops.
    for i in 0..30u32 {
        writeln!(text, "e({i}, {}).", i + 1).unwrap();
        if i % 7 == 3 {
            writeln!(text, "e({}, {i}).", i + 2).unwrap();
            writeln!(text, "e({i}, {i}).").unwrap();
        }
    }
    let prog = resolve(&parse_str(&text, "old.dl", Path::new(".")).unwrap()).unwrap();
    let expected = naive::evaluate(&prog, vec![BTreeSet::new(); prog.relations.len()]);
    let mut solver = Solver::new(prog).unwrap();
    solver.solve().unwrap();
    assert!(solver.stats.iterations.iter().sum::<u64>() > 2);
    for (rel, want) in expected.iter().enumerate() {
        let got: BTreeSet<Vec<u64>> = sorted_tuples(&solver.rels[rel], &solver.blocks(rel))
            .into_iter()
            .collect();
        assert_eq!(&got, want, "{}", solver.prog.relations[rel].name);
    }
    // Every node of the chain reaches every later one.
    let path = solver.prog.relation_id("path").unwrap();
    let path_size = expected[path].len();
    assert!(path_size > 31 * 30 / 2, "{path_size}");
    assert_eq!(solver.count(path), num_bigint::BigUint::from(path_size));
}

/// The solver tells its observer of each stratum as it begins and of each
/// iteration as it ends, with the relations that grew, largest first.
#[test]
fn the_observer_hears_each_stratum_and_iteration() {
    use refract::datalog::observer::{IterationEnd, Observer, StratumStart};
    use std::sync::{Arc, Mutex};

    #[derive(Default)]
    struct Recorder(Mutex<Vec<String>>);
    impl Observer for Recorder {
        fn stratum_started(&self, s: &StratumStart) {
            let line = format!(
                "stratum {}/{} {} {}",
                s.stratum,
                s.strata,
                s.relations.join(" "),
                if s.recursive { "recursive" } else { "once" }
            );
            self.0.lock().unwrap().push(line);
        }
        fn iteration_ended(&self, it: &IterationEnd) {
            let sizes: Vec<String> = (it.growing.iter())
                .map(|g| format!("{} {}", g.relation, g.nodes))
                .collect();
            let line = format!(
                "stratum {}/{} iteration {}: {}",
                it.stratum,
                it.strata,
                it.iteration,
                sizes.join(", ")
            );
            self.0.lock().unwrap().push(line);
        }
    }

    let text = "N 16\n\
                e (a:N0, b:N1) input\n\
                path (a:N0, b:N1) output\n\
                ends (a:N0, b:N1) output\n\
                start (a:N0) output\n\
                path(a, b) :- e(a, b).\n\
                path(a, c) :- path(a, b), ends(b, c).\n\
                ends(b, c) :- path(b, c), e(b, c).\n\
                start(a) :- path(a, _).\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("e.tuples"), "0 1\n1 2\n2 3\n3 4\n").unwrap();
    let prog = resolve(&parse_str(text, "tc.dl", dir.path()).unwrap()).unwrap();
    let mut solver = Solver::new(prog).unwrap();
    solver.load_inputs(Some(dir.path())).unwrap();
    let recorder = Arc::new(Recorder::default());
    solver.observer = Some(recorder.clone());
    solver.solve().unwrap();
    let heard = recorder.0.lock().unwrap().join("\n");
    // The closure settles in the first iteration's saturation; the second
    // finds nothing new.
    assert_eq!(
        heard,
        "stratum 1/2 path ends recursive\n\
         stratum 1/2 iteration 1: path 13, ends 15\n\
         stratum 1/2 iteration 2: \n\
         stratum 2/2 start once"
    );
}

/// A non-recursive subgoal that meets the rest of a rule only through
/// negations (c_pa's `mergePointsTo`) takes them into its static group,
/// built once per stratum, and the rule derives exactly the tuples of the
/// rule's meaning, counted here by brute force.
#[test]
fn negations_fold_into_a_subgoal_that_only_they_join() {
    let text = "N 8\n\
                seed (a:N0, b:N1) input\n\
                near (a:N0, b:N1) input\n\
                canon (a:N0) input\n\
                pt (o:N0, p:N1) output\n\
                merged (o:N0, p:N1) output\n\
                pt(o, p) :- seed(o, p).\n\
                merged(o, p1) :- pt(o, p2), !near(p1, p2), !near(p2, p1), canon(p1).\n\
                pt(o, p) :- merged(o, q), seed(q, p).\n";
    let dir = tempfile::tempdir().unwrap();
    let seed = [(0u64, 1u64), (1, 2), (2, 3), (5, 6)];
    let near = [(1u64, 2u64), (3, 4), (6, 6)];
    let canon = [1u64, 2, 4, 6];
    let lines = |rows: &[(u64, u64)]| -> String {
        rows.iter().map(|(a, b)| format!("{a} {b}\n")).collect()
    };
    std::fs::write(dir.path().join("seed.tuples"), lines(&seed)).unwrap();
    std::fs::write(dir.path().join("near.tuples"), lines(&near)).unwrap();
    let canon_text: String = canon.iter().map(|c| format!("{c}\n")).collect();
    std::fs::write(dir.path().join("canon.tuples"), canon_text).unwrap();
    let prog = resolve(&parse_str(text, "fold.dl", dir.path()).unwrap()).unwrap();
    let mut solver = Solver::new(prog).unwrap();
    let plan = refract::datalog::explain_plan::explain_plans(&solver.prog, &solver.layout).unwrap();
    assert!(
        plan.contains("factor #1: subgoal #1 with negation #0, negation #1"),
        "{plan}"
    );
    solver.load_inputs(Some(dir.path())).unwrap();
    solver.solve().unwrap();
    // The fixpoint by brute force.
    let mut pt: BTreeSet<(u64, u64)> = seed.iter().copied().collect();
    let mut merged: BTreeSet<(u64, u64)> = BTreeSet::new();
    loop {
        let before = (pt.len(), merged.len());
        for &(o, p2) in &pt {
            for &p1 in &canon {
                if !near.contains(&(p1, p2)) && !near.contains(&(p2, p1)) {
                    merged.insert((o, p1));
                }
            }
        }
        for &(o, q) in &merged {
            for &(s, p) in &seed {
                if s == q {
                    pt.insert((o, p));
                }
            }
        }
        if (pt.len(), merged.len()) == before {
            break;
        }
    }
    let rel = |name: &str| solver.prog.relation_id(name).unwrap();
    let got: BTreeSet<(u64, u64)> =
        sorted_tuples(&solver.rels[rel("merged")], &solver.blocks(rel("merged")))
            .into_iter()
            .map(|t| (t[0], t[1]))
            .collect();
    assert_eq!(got, merged);
    assert!(!merged.is_empty());
}

/// Relations of earlier strata that come out empty: their negations are
/// dropped and a rule that reads one is not run, with the same fixpoint.
#[test]
fn subgoals_of_relations_that_come_out_empty_are_dropped_or_end_the_rule() {
    // `later` and the input `nothing` are empty when the rules that read
    // them run: their negations hold for every binding and are dropped
    // from the plans, and a rule with a positive subgoal of one derives
    // nothing. `blocked`, from an earlier stratum too, is not empty and
    // its negations stay.
    let text = "N 8\n\
                nothing (x:N0) input\n\
                a (x:N0)\n\
                b (x:N0)\n\
                edge (x:N0, y:N1)\n\
                later (x:N0)\n\
                blocked (x:N0)\n\
                kept (x:N0) output\n\
                dropped (x:N0) output\n\
                reach (x:N0) output\n\
                a(1).\na(2).\na(3).\nb(2).\nb(5).\n\
                edge(1, 4).\nedge(4, 5).\nedge(4, 6).\nedge(6, 7).\n\
                later(x) :- nothing(x), b(x).\n\
                blocked(x) :- b(x).\n\
                kept(x) :- a(x), !later(x), !nothing(x), !blocked(x).\n\
                dropped(x) :- a(x), later(x).\n\
                reach(x) :- a(x), !later(x).\n\
                reach(y) :- reach(x), edge(x, y), !nothing(y), !blocked(y).\n";
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("nothing.tuples"), "").unwrap();
    let prog = resolve(&parse_str(text, "empty.dl", dir.path()).unwrap()).unwrap();
    let expected = naive::evaluate(&prog, vec![BTreeSet::new(); prog.relations.len()]);
    let mut solver = Solver::new(prog).unwrap();
    solver.load_inputs(Some(dir.path())).unwrap();
    solver.solve().unwrap();
    let read = |name: &str| -> BTreeSet<u64> {
        let rid = solver.prog.relation_id(name).unwrap();
        let got: BTreeSet<Vec<u64>> = sorted_tuples(&solver.rels[rid], &solver.blocks(rid))
            .into_iter()
            .collect();
        assert_eq!(got, expected[rid], "{name}");
        got.into_iter().map(|t| t[0]).collect()
    };
    assert_eq!(read("kept"), BTreeSet::from([1, 3]));
    assert_eq!(read("dropped"), BTreeSet::new());
    assert_eq!(read("reach"), BTreeSet::from([1, 2, 3, 4, 6, 7]));
    assert_eq!(read("later"), BTreeSet::new());
    // The rule that reads the empty `later` was not run at all.
    let dropped_rule = solver
        .prog
        .rules
        .iter()
        .position(|r| r.text.starts_with("dropped(x)"))
        .unwrap();
    assert_eq!(solver.stats.rules[dropped_rule].evaluations, 0);
}

/// A negation that the delta alone makes ready waits for the static
/// guard joined after the delta (`elementNotClass`'s shape: a few guarded
/// variables, a large recursive relation, a negated class test), and the
/// rule still derives exactly the tuples of its meaning, counted here by
/// brute force.
#[test]
fn a_negation_ready_after_the_delta_waits_for_its_static_guard() {
    let text = "N 16\n\
                guard (i:N0, v:N1) input\n\
                edge (a:N1, b:N2) input\n\
                classy (c:N2) input\n\
                pt (v:N1, c:N2) output\n\
                hit (i:N0, c:N2) output\n\
                pt(v, c) :- edge(v, c).\n\
                hit(i, c) :- guard(i, v), pt(v, c), !classy(c).\n\
                pt(v, c) :- hit(i, c), guard(i, v).\n";
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0xdefe_0001);
    let mut rows =
        |n: usize| -> Vec<(u64, u64)> { (0..n).map(|_| (rng.below(16), rng.below(16))).collect() };
    let (guard, edge) = (rows(12), rows(30));
    let classy: Vec<u64> = (0..16).filter(|c| c % 3 == 0).collect();
    for (name, rel) in [("guard", &guard), ("edge", &edge)] {
        let text: String = rel.iter().map(|(x, y)| format!("{x} {y}\n")).collect();
        std::fs::write(dir.path().join(format!("{name}.tuples")), text).unwrap();
    }
    let classy_text: String = classy.iter().map(|c| format!("{c}\n")).collect();
    std::fs::write(dir.path().join("classy.tuples"), classy_text).unwrap();
    let prog = resolve(&parse_str(text, "guard.dl", dir.path()).unwrap()).unwrap();
    let mut solver = Solver::new(prog).unwrap();
    let plan = refract::datalog::explain_plan::explain_plans(&solver.prog, &solver.layout).unwrap();
    assert!(
        plan.contains(
            "join factor #1 (new tuples); join factor #0, projecting v; subtract negation #0"
        ),
        "{plan}"
    );
    solver.load_inputs(Some(dir.path())).unwrap();
    solver.solve().unwrap();
    // The fixpoint by brute force.
    let mut pt: BTreeSet<(u64, u64)> = edge.iter().copied().collect();
    let mut hit: BTreeSet<(u64, u64)> = BTreeSet::new();
    loop {
        let before = (pt.len(), hit.len());
        for &(i, v) in &guard {
            for &(w, c) in &pt.clone() {
                if w == v && !classy.contains(&c) {
                    hit.insert((i, c));
                }
            }
        }
        for &(i, c) in &hit.clone() {
            for &(j, v) in &guard {
                if j == i {
                    pt.insert((v, c));
                }
            }
        }
        if (pt.len(), hit.len()) == before {
            break;
        }
    }
    let rel = |name: &str| solver.prog.relation_id(name).unwrap();
    let got: BTreeSet<(u64, u64)> =
        sorted_tuples(&solver.rels[rel("hit")], &solver.blocks(rel("hit")))
            .into_iter()
            .map(|t| (t[0], t[1]))
            .collect();
    assert_eq!(got, hit);
    assert!(!hit.is_empty());
}

/// Two joins that both project run as one three-way product (the
/// intermediate join is never built); the result is the chain's.
#[test]
fn two_projecting_joins_in_one_pass_give_the_chain() {
    let text = "N 16\n\
                a (x:N0, y:N1) input\n\
                b (y:N1, w:N2) input\n\
                c (w:N2, z:N3) input\n\
                r (x:N0, z:N3) output\n\
                r(x, z) :- a(x, y), b(y, w), c(w, z).\n";
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x5eed_cafe);
    let mut rows =
        || -> Vec<(u64, u64)> { (0..40).map(|_| (rng.below(16), rng.below(16))).collect() };
    let (a, b, c) = (rows(), rows(), rows());
    for (name, rel) in [("a", &a), ("b", &b), ("c", &c)] {
        let text: String = rel.iter().map(|(x, y)| format!("{x} {y}\n")).collect();
        std::fs::write(dir.path().join(format!("{name}.tuples")), text).unwrap();
    }
    let prog = resolve(&parse_str(text, "chain.dl", dir.path()).unwrap()).unwrap();
    let mut solver = Solver::new(prog).unwrap();
    solver.load_inputs(Some(dir.path())).unwrap();
    solver.solve().unwrap();
    let mut expected: BTreeSet<(u64, u64)> = BTreeSet::new();
    for &(x, y) in &a {
        for &(y2, w) in &b {
            for &(w2, z) in &c {
                if y == y2 && w == w2 {
                    expected.insert((x, z));
                }
            }
        }
    }
    let r = solver.prog.relation_id("r").unwrap();
    let got: BTreeSet<(u64, u64)> = sorted_tuples(&solver.rels[r], &solver.blocks(r))
        .into_iter()
        .map(|t| (t[0], t[1]))
        .collect();
    assert_eq!(got, expected);
    assert!(expected.len() > 20, "{}", expected.len());
}

/// Static subgoals that only fix constants and project wildcards are
/// read in place (`planner::in_place`): `arg(i, 1, v)` and `param(m2, _,
/// p)` are joined as their relations stand, in a recursive rule whose
/// delta binds the variable above their dropped bits, both after a join
/// (fused into one pass) and as the last join. (Two such subgoals drop
/// distinct bits: `Z0` and `Z1`.) The fixpoint is the brute force one.
#[test]
fn subgoals_read_in_place_fix_their_constants_in_the_join() {
    let text = "I 16\nM 16\nZ 4\nV 16\n\
                call (i:I0, m:M0) input\n\
                target (i:I0, m:M1) input\n\
                arg (i:I0, z:Z0, v:V0) input\n\
                param (m:M1, z:Z1, p:V1) input\n\
                seed (v:V0, m:M0) input\n\
                flows (v:V0, m:M0) output\n\
                flows(v, m) :- seed(v, m).\n\
                flows(p, m2) :- flows(v, m), call(i, m), arg(i, 1, v), target(i, m2), param(m2, _, p).\n";
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x1a_91ace);
    let call: Vec<(u64, u64)> = (0..24).map(|_| (rng.below(8), rng.below(8))).collect();
    let target: Vec<(u64, u64)> = (0..24).map(|_| (rng.below(8), rng.below(8))).collect();
    let arg: Vec<(u64, u64, u64)> = (0..20)
        .map(|_| (rng.below(8), rng.below(3), rng.below(8)))
        .collect();
    let param: Vec<(u64, u64, u64)> = (0..20)
        .map(|_| (rng.below(8), rng.below(3), rng.below(8)))
        .collect();
    let seed: Vec<(u64, u64)> = (0..6).map(|_| (rng.below(8), rng.below(8))).collect();
    let pairs = |rows: &[(u64, u64)]| -> String {
        rows.iter().map(|(a, b)| format!("{a} {b}\n")).collect()
    };
    let triples = |rows: &[(u64, u64, u64)]| -> String {
        rows.iter()
            .map(|(a, b, c)| format!("{a} {b} {c}\n"))
            .collect()
    };
    std::fs::write(dir.path().join("call.tuples"), pairs(&call)).unwrap();
    std::fs::write(dir.path().join("target.tuples"), pairs(&target)).unwrap();
    std::fs::write(dir.path().join("seed.tuples"), pairs(&seed)).unwrap();
    std::fs::write(dir.path().join("arg.tuples"), triples(&arg)).unwrap();
    std::fs::write(dir.path().join("param.tuples"), triples(&param)).unwrap();
    let prog = resolve(&parse_str(text, "in_place.dl", dir.path()).unwrap()).unwrap();
    let mut solver = Solver::new(prog).unwrap();
    let plan = refract::datalog::explain_plan::explain_plans(&solver.prog, &solver.layout).unwrap();
    for factor in ["factor #2: subgoal #2", "factor #4: subgoal #4"] {
        assert!(
            plan.contains(&format!("{factor} read in place")),
            "{factor} not read in place:\n{plan}"
        );
    }
    solver.load_inputs(Some(dir.path())).unwrap();
    solver.solve().unwrap();
    let mut expected: BTreeSet<(u64, u64)> = seed.iter().copied().collect();
    loop {
        let before = expected.len();
        for &(v, m) in &expected.clone() {
            for &(i, m1) in &call {
                if m1 != m || !arg.contains(&(i, 1, v)) {
                    continue;
                }
                for &(i2, m2) in &target {
                    for &(m3, _, p) in &param {
                        if i2 == i && m3 == m2 {
                            expected.insert((p, m2));
                        }
                    }
                }
            }
        }
        if expected.len() == before {
            break;
        }
    }
    let r = solver.prog.relation_id("flows").unwrap();
    let got: BTreeSet<(u64, u64)> = sorted_tuples(&solver.rels[r], &solver.blocks(r))
        .into_iter()
        .map(|t| (t[0], t[1]))
        .collect();
    assert_eq!(got, expected);
    assert!(expected.len() > seed.len() + 10, "{}", expected.len());
}

/// A head that repeats two variables, each into a block far from its
/// first one, and nested in the order (`q(x, y, y, x)` with N0 above N1
/// above N2 above N3): the two equalities built as one BDD had 2^(2w)
/// nodes for w-bit blocks (2^28 here, more than memory allows; 2-object's
/// `cvP(h, g, this, g, h)` took 53 s and 3 GB on serializer.jar). Joined
/// with the result one after the other, they are quick, and the tuples
/// are the copies of the input.
#[test]
fn a_head_that_repeats_two_variables_far_apart_is_quick() {
    let text = "N 16384\n\
                p (x:N0, y:N1) input\n\
                q (x:N0, y:N1, y2:N2, x2:N3) output\n\
                .bddvarorder N0_N1_N2_N3\n\
                q(x, y, y, x) :- p(x, y).\n";
    let dir = tempfile::tempdir().unwrap();
    let rows = [(0u64, 16383u64), (5, 7), (9000, 12), (16383, 0)];
    let tuples: String = rows.iter().map(|(x, y)| format!("{x} {y}\n")).collect();
    std::fs::write(dir.path().join("p.tuples"), tuples).unwrap();
    let prog = resolve(&parse_str(text, "repeat.dl", dir.path()).unwrap()).unwrap();
    let mut solver = Solver::new(prog).unwrap();
    solver.load_inputs(Some(dir.path())).unwrap();
    solver.solve().unwrap();
    let q = solver.prog.relation_id("q").unwrap();
    let got: BTreeSet<Vec<u64>> = sorted_tuples(&solver.rels[q], &solver.blocks(q))
        .into_iter()
        .collect();
    let expected: BTreeSet<Vec<u64>> = rows.iter().map(|&(x, y)| vec![x, y, y, x]).collect();
    assert_eq!(got, expected);
}

/// A relation's tuples.
type Tuples = BTreeSet<Vec<u64>>;

/// The points-to analysis itself (`queries/pointsto.dl` with the flow
/// rules of `queries/contexts/`), on random small programs: methods
/// with allocations, copies, field and array accesses, element copies,
/// static and virtual calls. Checks every relation of `names` that the kind has
/// against the naive evaluator, and returns them for each context kind
/// (`Context::ALL`, in its order; None where the kind has no such
/// relation).
fn points_to_on_random_program(
    seed: u64,
    names: &[&str],
) -> Vec<(&'static str, Vec<Option<Tuples>>)> {
    use refract::analysis::context::{Context, ContextScope};
    use refract::facts::schema::DOMAINS;
    use refract::facts::write::schema_text;
    let mut rng = Rng(seed);
    let dir = tempfile::tempdir().unwrap();
    let size = |d: &str| -> u64 {
        match d {
            "V" => 12,
            "H" => 7,
            "I" => 7,
            "M" => 5,
            "T" => 5,
            "F" => 3,
            "N" => 3,
            "Z" => 3,
            "MOD" => 2,
            _ => 1,
        }
    };
    // The names the rules use as constants; the rest are numbered.
    let constant = |d: &str, k: u64| -> Option<&'static str> {
        match (d, k) {
            ("F", 0) => Some("[]"),
            ("N", 0) => Some("<direct>"),
            ("M", 4) => Some("<java.lang.System: void setJavaLangAccess()>"),
            ("I", 6) => Some("<no call site>"),
            ("T", 4) => Some("<no type>"),
            ("MOD", 0) => Some("static"),
            ("MOD", 1) => Some("native"),
            _ => None,
        }
    };
    let sizes: Vec<(&str, u64)> = DOMAINS.iter().map(|(d, _)| (*d, size(d))).collect();
    for &(d, n) in &sizes {
        let names: String = (0..n)
            .map(|k| {
                format!(
                    "{}\n",
                    constant(d, k).map_or(format!("{d}{k}"), str::to_string)
                )
            })
            .collect();
        std::fs::write(dir.path().join(format!("{d}.map")), names).unwrap();
    }
    // Facts: method m owns sites 1+m.. and variables 2m+1, 2m+2 (V 0 is
    // <global>); types 0..3 with 3 a subtype of 2 of 1 of 0.
    let mut facts: Vec<(&str, Vec<Vec<u64>>)> = Vec::new();
    let mut add = |rel: &'static str, t: Vec<u64>| match facts.iter_mut().find(|(r, _)| *r == rel) {
        Some((_, rows)) => rows.push(t),
        None => facts.push((rel, vec![t])),
    };
    add("root", vec![0]);
    for t in 0..4u64 {
        for s in 0..=t {
            add("aT", vec![s, t]);
        }
        add("subtype", vec![t, t.saturating_sub(1)]);
    }
    // As the verifier admits them: `this` has its class's type (here the
    // top type, 0), and calls dispatch only to instance methods.
    let var_of = |m: u64, k: u64| 1 + 2 * m + k;
    for m in 0..4u64 {
        add("declaresMethod", vec![m % 4, m]);
        add("mV", vec![m, var_of(m, 0)]);
        add("mV", vec![m, var_of(m, 1)]);
        add("vT", vec![var_of(m, 0), 0]);
        add("vT", vec![var_of(m, 1), rng.below(2)]);
        // formal 0 and 1, and the return variable.
        add("formal", vec![m, 0, var_of(m, 0)]);
        add("formal", vec![m, 1, var_of(m, 1)]);
        add("Mret", vec![m, var_of(m, rng.below(2))]);
        if rng.chance(30) {
            add("methodModifier", vec![m, 0]);
            continue;
        }
        for n in 1..3u64 {
            if rng.chance(50) {
                add("cha", vec![rng.below(4), n, m]);
            }
        }
    }
    for v in 9..12u64 {
        add("vT", vec![v, rng.below(2)]);
    }
    for h in 1..6u64 {
        add("hT", vec![h, 1 + rng.below(3)]);
        let m = rng.below(4);
        add("vP0", vec![var_of(m, rng.below(2)), h]);
        // Objects 4 and 5 come from no method's code (constants of the
        // class files, say).
        if h < 4 {
            add("mH", vec![m, h]);
        }
    }
    // Methods 0 and 1 are the application's: under `--context-scope
    // application` their objects alone are contexts.
    add("applicationMethod", vec![0]);
    add("applicationMethod", vec![1]);
    for i in 0..6u64 {
        let m = rng.below(4);
        let n = rng.below(3);
        add("mI", vec![m, i, n]);
        add("actual", vec![i, 0, var_of(m, rng.below(2))]);
        add("actual", vec![i, 1, var_of(m, rng.below(2))]);
        add("Iret", vec![i, var_of(m, rng.below(2))]);
        if n == 0 {
            add("IE0", vec![i, rng.below(4)]);
        }
    }
    for _ in 0..6 {
        let m = rng.below(4);
        let (a, b) = (var_of(m, rng.below(2)), var_of(m, rng.below(2)));
        match rng.below(3) {
            0 => add("A", vec![a, b]),
            1 => add("S", vec![a, rng.below(3), b]),
            _ => add("L", vec![a, rng.below(3), b]),
        }
    }
    // Element copies (`System.arraycopy`'s, made by a model in the
    // analysis), drawn after the rest so that the other facts of a seed
    // stay as they were.
    for _ in 0..2 {
        let m = rng.below(4);
        add(
            "copyAt",
            vec![var_of(m, rng.below(2)), var_of(m, rng.below(2))],
        );
    }
    // Each method body's own parameter stores and returned parameter, and
    // the calls that pass the caller's parameters on (`actualParam`) or
    // whose result the caller returns (`returnedCall`): the rules lift
    // the stores and returns through them. Drawn last, as the copies.
    for _ in 0..2 {
        add(
            "paramStore",
            vec![rng.below(4), rng.below(2), rng.below(3), rng.below(2)],
        );
    }
    add("returnsParam", vec![rng.below(4), rng.below(2)]);
    for i in 0..6u64 {
        for z in 0..2 {
            if rng.chance(70) {
                add("actualParam", vec![i, z, rng.below(2)]);
            }
        }
        if rng.chance(40) {
            add("returnedCall", vec![i, rng.below(4)]);
        }
    }
    // Objects that a reflective call creates (reflection.dl's newCall,
    // newThis and vPnew): at a site, an object that no method's code
    // allocates, on which a method runs as its constructor, and which
    // the call returns. Drawn last, as the copies.
    for _ in 0..2 {
        add("newAt", vec![rng.below(6), 4 + rng.below(2), rng.below(4)]);
    }
    // A metaobject that a reflective lookup returns (reflection.dl's vPr
    // of a methodObject; freshObject in pointsto.dl): object 6, a Method
    // object, held by variables of random methods. Drawn last, as the
    // copies.
    add("methodObject", vec![6, rng.below(4)]);
    add("hT", vec![6, 1 + rng.below(3)]);
    for _ in 0..2 {
        let m = rng.below(4);
        add("lookupAt", vec![var_of(m, rng.below(2)), 6]);
    }
    let schema = schema_text(&sizes).replace(".map.zst", ".map");
    let pointsto = include_str!("../queries/pointsto.dl");
    let copies = "copyAt (source:V0, dest:V1) input\nelementCopy(s, d) :- copyAt(s, d).\n\
                  newAt (invoke:I0, object:H0, constructor:M0) input\n\
                  newCall(i, o, m) :- newAt(i, o, m).\nIEr(i, m) :- newAt(i, _, m).\n\
                  vPnew(v, o) :- newAt(i, o, _), Iret(i, v).\n\
                  lookupAt (variable:V0, heap:H0) input\nvPr(v, h) :- lookupAt(v, h).\n";
    // `cloning` numbers the paths of the insensitive run's call graph,
    // which `cloning-graph.dl` reads off (as the driver does): its edges
    // and entries become cloning's inputs. The naive evaluator has no
    // `number` rule: it reads the numbering the engine made (IEc, whose
    // properties tests/numbering.rs checks) as an input.
    let graph = refract::analysis::context::CLONING_GRAPH.1;
    let (mut calls, mut entries) = (Vec::new(), Vec::new());
    let mut out = Vec::new();
    // Each kind with every object a context, then the object and type
    // kinds with the application's objects alone.
    let runs = Context::ALL
        .into_iter()
        .map(|c| (c, ContextScope::All, c.name()))
        .chain([
            (
                Context::OneObject,
                ContextScope::Application,
                "1-object application",
            ),
            (
                Context::TwoObject,
                ContextScope::Application,
                "2-object application",
            ),
            (
                Context::TwoType,
                ContextScope::Application,
                "2-type application",
            ),
        ]);
    for (context, scope, kind) in runs {
        let flow = context.rule_file().1;
        let scoped: String = (scope.rule_files(context).iter())
            .map(|(_, text)| format!("\n{text}"))
            .collect();
        let flow = format!("{flow}{scoped}");
        let text = match context {
            Context::Insensitive => format!("{schema}\n{pointsto}\n{flow}\n{graph}\n{copies}"),
            Context::Cloning => format!("{schema}\nC 64\n{pointsto}\n{flow}\n{copies}"),
            _ => format!("{schema}\n{pointsto}\n{flow}\n{copies}"),
        };
        let parsed = parse_str(&text, "p.dl", dir.path()).unwrap();
        let mut prog = resolve(&parsed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut initial = vec![BTreeSet::new(); prog.relations.len()];
        let mut solver = Solver::new(prog.clone()).unwrap();
        let nv = solver.layout.num_vars();
        let cloning_inputs = [("IEci", calls.clone()), ("entryci", entries.clone())];
        let inputs = (facts.iter()).map(|(r, rows)| (*r, rows.clone())).chain(
            cloning_inputs
                .into_iter()
                .filter(|_| context == Context::Cloning),
        );
        for (rel, rows) in inputs {
            let rid = solver.prog.relation_id(rel).unwrap();
            initial[rid] = rows.iter().cloned().collect();
            solver.rels[rid] = refract::bdd::relation_from_tuples(nv, &solver.blocks(rid), &rows);
        }
        solver.solve().unwrap();
        if context == Context::Cloning {
            // The numbering, as the engine made it, is the naive run's input.
            let rid = prog.relation_id("IEc").unwrap();
            initial[rid] = sorted_tuples(&solver.rels[rid], &solver.blocks(rid))
                .into_iter()
                .collect();
            prog.rules.retain(|r| !r.number);
        }
        let expected = naive::evaluate(&prog, initial);
        if context == Context::Insensitive {
            let read = |name: &str| {
                let rid = solver.prog.relation_id(name).unwrap();
                sorted_tuples(&solver.rels[rid], &solver.blocks(rid))
            };
            calls = read("cloningCall")
                .into_iter()
                .map(|t| vec![t[1], t[2]])
                .collect();
            entries = read("cloningEntry");
        }
        let mut found = Vec::new();
        for name in names {
            let Some(rid) = solver.prog.relation_id(name) else {
                found.push(None);
                continue;
            };
            let got: BTreeSet<Vec<u64>> = sorted_tuples(&solver.rels[rid], &solver.blocks(rid))
                .into_iter()
                .collect();
            assert_eq!(got, expected[rid], "seed {seed}, {kind}: {name}");
            found.push(Some(got));
        }
        out.push((kind, found));
    }
    out
}

/// The flow rules of each context kind, run by the BDD engine, give the
/// naive evaluator's relations exactly; and the projections of every
/// kind with contexts (vP, IE, hP, reach) lie within the insensitive
/// ones, and each two-level kind's within its one-level kind's
/// (2-object's within 1-object's, 2-call-site's within 1-call-site's). `cloning` numbers the
/// insensitive run's call graph, as `refract analyze` does.
#[test]
fn points_to_with_and_without_contexts_agrees_with_naive_evaluator() {
    let names = [
        "vP",
        "IE",
        "hP",
        "reach",
        "cvP",
        "cIE",
        "copiedElement",
        "paramStoreOfM",
        "liftedReturn",
        "chP",
    ];
    // Per kind: programs where it narrows vP, and cvP tuples in a context
    // other than the entries' (object 0; `<no call site>`, I 6; `<no
    // type>`, T 4).
    let mut narrower: BTreeMap<&str, usize> = BTreeMap::new();
    let mut contexts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut created: BTreeMap<&str, usize> = BTreeMap::new();
    let mut fresh: BTreeMap<&str, usize> = BTreeMap::new();
    let mut copying = 0;
    let (mut lifted_stores, mut lifted_returns) = (0, 0);
    for seed in 0..40 {
        let runs = points_to_on_random_program(seed, &names);
        let ins = &runs[0].1;
        copying += usize::from(ins[6].as_ref().is_some_and(|c| !c.is_empty()));
        // Two stores are drawn: a third is a lifted one.
        lifted_stores += usize::from(ins[7].as_ref().is_some_and(|s| s.len() > 2));
        lifted_returns += usize::from(ins[8].as_ref().is_some_and(|r| !r.is_empty()));
        for (kind, found) in &runs[1..] {
            for (k, name) in names[..4].iter().enumerate() {
                let (ins, found) = (ins[k].as_ref().unwrap(), found[k].as_ref().unwrap());
                assert!(
                    found.is_subset(ins),
                    "seed {seed}: {kind}'s {name} is not within the insensitive one"
                );
            }
            // The application scope's runs are checked against the naive
            // evaluator and the insensitive run alone.
            if kind.ends_with(" application") {
                continue;
            }
            // A second element of context and a heap context refine
            // the one-level kind's contexts: each derivation drops to
            // one there.
            if let Some(first) = kind.strip_prefix("2-").filter(|k| *k != "type") {
                let one_level = format!("1-{first}");
                let one = &runs.iter().find(|(k, _)| *k == one_level).unwrap().1;
                for (k, name) in names[..4].iter().enumerate() {
                    let (one, found) = (one[k].as_ref().unwrap(), found[k].as_ref().unwrap());
                    assert!(
                        found.is_subset(one),
                        "seed {seed}: {kind}'s {name} is not within {one_level}'s"
                    );
                }
            }
            let vp = |r: &Vec<Option<Tuples>>| r[0].as_ref().unwrap().len();
            *narrower.entry(kind).or_default() += usize::from(vp(found) < vp(ins));
            let entry = match *kind {
                "2-type" => 4,
                "cloning" => 0,
                k if k.ends_with("-object") => 0,
                _ => 6,
            };
            *contexts.entry(kind).or_default() += (found[4].iter().flatten())
                .filter(|t| t[0] != entry)
                .count();
            // Objects that a reflective call creates (4 and 5) in a heap
            // context of the kinds that have one (cvP's fourth column).
            if kind.starts_with("2-") {
                *created.entry(kind).or_default() += (found[4].iter().flatten())
                    .filter(|t| (4..6).contains(&t[4]) && t[3] != entry)
                    .count();
                // The looked-up Method object (6), likewise.
                *fresh.entry(kind).or_default() += (found[4].iter().flatten())
                    .filter(|t| t[4] == 6 && t[3] != entry)
                    .count();
            }
        }
    }
    assert_eq!(
        (narrower.keys().copied()).collect::<Vec<_>>(),
        [
            "1-call-site",
            "1-object",
            "2-call-site",
            "2-object",
            "2-type",
            "cloning"
        ]
    );
    // A method has a second cloning context only where two acyclic
    // paths reach it, rarer in these graphs than a second call site.
    for (kind, c) in &contexts {
        let least = if *kind == "cloning" { 20 } else { 40 };
        assert!(*c >= least, "{c} cvP tuples in a context of {kind}");
    }
    for (kind, c) in &created {
        assert!(
            *c >= 20,
            "{c} cvP tuples of created objects in a heap context of {kind}"
        );
    }
    assert_eq!(created.len(), 3, "{created:?}");
    for (kind, c) in &fresh {
        assert!(
            *c >= 20,
            "{c} cvP tuples of a looked-up metaobject in a heap context of {kind}"
        );
    }
    assert_eq!(fresh.len(), 3, "{fresh:?}");
    // A random method returns one of its two formals, and its callers'
    // variables are their own formals: what a call site gets back in its
    // own context is what it passed, which its variable holds already, so
    // call-site contexts narrow no projection here (`CallSites` in
    // tests/contexts.rs shows what they separate). Receiver objects do.
    let n = narrower["1-object"];
    assert!(n >= 5, "{n} programs where 1-object narrows vP");
    assert!(
        copying >= 5,
        "{copying} programs where an element copy copies"
    );
    assert!(
        lifted_stores >= 5 && lifted_returns >= 5,
        "{lifted_stores} programs lift a store, {lifted_returns} a return"
    );
}
