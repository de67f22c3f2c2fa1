//! Times the copy rules' join on a solved database: a slice of `vP` (the
//! tuples of every `k`-th variable, like a saturation step's new tuples)
//! joined with `assignCall` and with `A`, each in its own layout and with
//! source and destination swapped, then again with the variables
//! renumbered in depth-first order of the call graph (callers beside
//! their callees).
//! `cargo bench --bench copy_join -- DB [EVERY_KTH]`
use biodivine_lib_bdd::{Bdd, BddVariable};
use refract::bdd::{and_exists, relation_from_tuples, rename, VarSet};
use refract::database::Database;
use std::collections::{HashMap, HashSet};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let dir = args.next().ok_or("usage: copy_join DB [EVERY_KTH]")?;
    let every: u64 = args.next().map_or(Ok(50), |s| s.parse())?;
    let mut db = Database::open(std::path::Path::new(&dir))?;
    let vp = db.relation("vP")?.clone();
    let ac = db.relation("assignCall")?.clone();
    let a = db.relation("A")?.clone();
    let nv = db.solver.layout.num_vars();
    let inst = |name: &str| -> Vec<BddVariable> {
        let id = db.solver.layout.instance_by_name(name).expect("instance");
        db.solver.layout.instance(id).vars.clone()
    };
    let (v0, v1) = (inst("V0"), inst("V1"));
    let vars: Vec<Vec<u64>> = db
        .tuples("vP")?
        .into_iter()
        .map(|t| vec![t[0]])
        .filter(|t| t[0] % every == 3)
        .collect();
    let pick = relation_from_tuples(nv, &[&v0], &vars);
    let frontier = refract::bdd::and(&vp, &pick);
    println!(
        "vP {}n, frontier {}n, assignCall {}n, A {}n",
        vp.size(),
        frontier.size(),
        ac.size(),
        a.size()
    );
    let swap: Vec<(BddVariable, BddVariable)> = v0
        .iter()
        .zip(&v1)
        .flat_map(|(&x, &y)| [(x, y), (y, x)])
        .collect();
    let to_v1: Vec<(BddVariable, BddVariable)> =
        v0.iter().zip(&v1).map(|(&x, &y)| (x, y)).collect();
    let q0 = VarSet::of(nv, v0.iter().copied());
    let q1 = VarSet::of(nv, v1.iter().copied());
    let f1 = rename(&frontier, &to_v1)?;
    let time = |label: &str, f: &Bdd, r: &Bdd, q: &VarSet| {
        let mut best = f64::MAX;
        let mut out = 0;
        for _ in 0..3 {
            let t = Instant::now();
            out = and_exists(f, r, q).size();
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!("{label}: {:.1} ms, result {out}n", best * 1e3);
    };
    // assignCall(dest V1, source V0): the frontier joins in place.
    time("assignCall (dest V1, source V0)", &frontier, &ac, &q0);
    let ac_swapped = rename(&ac, &swap)?;
    println!("assignCall swapped {}n", ac_swapped.size());
    time("assignCall (dest V0, source V1)", &f1, &ac_swapped, &q1);
    // A(dest V0, source V1).
    time("A (dest V0, source V1)", &f1, &a, &q1);
    let a_swapped = rename(&a, &swap)?;
    time("A (dest V1, source V0)", &frontier, &a_swapped, &q0);

    // Variables renumbered method by method in depth-first order of the
    // call graph from the roots, so that callers and callees sit close.
    let mv = db.tuples("mV")?;
    let mi = db.tuples("mI")?;
    let ie = db.tuples("IE")?;
    let mut roots = db.tuples("entryPoint")?;
    roots.extend(db.tuples("reach")?);
    let mut vars_of: HashMap<u64, Vec<u64>> = HashMap::new();
    for t in &mv {
        vars_of.entry(t[0]).or_default().push(t[1]);
    }
    let mut sites_of: HashMap<u64, Vec<u64>> = HashMap::new();
    for t in &mi {
        sites_of.entry(t[0]).or_default().push(t[1]);
    }
    let mut targets_of: HashMap<u64, Vec<u64>> = HashMap::new();
    for t in &ie {
        targets_of.entry(t[0]).or_default().push(t[1]);
    }
    let mut seen: HashSet<u64> = HashSet::new();
    let mut order: Vec<u64> = Vec::new();
    let mut stack: Vec<u64> = roots.iter().rev().map(|t| t[0]).collect();
    while let Some(m) = stack.pop() {
        if !seen.insert(m) {
            continue;
        }
        order.push(m);
        let mut next = Vec::new();
        for i in sites_of.get(&m).into_iter().flatten() {
            next.extend(targets_of.get(i).into_iter().flatten().copied());
        }
        stack.extend(next.into_iter().rev());
    }
    let mut perm: HashMap<u64, u64> = HashMap::new();
    perm.insert(0, 0);
    let mut nextid = 1u64;
    let mut all: Vec<u64> = mv.iter().map(|t| t[1]).collect();
    all.sort_unstable();
    for m in &order {
        let mut vs = vars_of.get(m).cloned().unwrap_or_default();
        vs.sort_unstable();
        for v in vs {
            if let std::collections::hash_map::Entry::Vacant(e) = perm.entry(v) {
                e.insert(nextid);
                nextid += 1;
            }
        }
    }
    for v in all {
        if let std::collections::hash_map::Entry::Vacant(e) = perm.entry(v) {
            e.insert(nextid);
            nextid += 1;
        }
    }
    let p = |v: u64| *perm.get(&v).unwrap_or(&v);
    println!(
        "{} methods in depth-first order, {} variables renumbered",
        order.len(),
        perm.len()
    );
    let hb = {
        let id = db.solver.layout.instance_by_name("H0").expect("H0");
        db.solver.layout.instance(id).vars.clone()
    };
    let rebuild =
        |rows: Vec<Vec<u64>>, blocks: &[&[BddVariable]], f: &dyn Fn(&[u64]) -> Vec<u64>| {
            let rows: Vec<Vec<u64>> = rows.iter().map(|r| f(r)).collect();
            relation_from_tuples(nv, blocks, &rows)
        };
    let vp_rows = db.tuples("vP")?;
    let chosen: HashSet<u64> = vars.iter().map(|t| t[0]).collect();
    let front2 = rebuild(
        vp_rows
            .into_iter()
            .filter(|t| chosen.contains(&t[0]))
            .collect(),
        &[&v0, &hb],
        &|t| vec![p(t[0]), t[1]],
    );
    let ac2 = rebuild(db.tuples("assignCall")?, &[&v1, &v0], &|t| {
        vec![p(t[0]), p(t[1])]
    });
    let a2 = rebuild(db.tuples("A")?, &[&v0, &v1], &|t| vec![p(t[0]), p(t[1])]);
    println!(
        "renumbered: frontier {}n (was {}n), assignCall {}n (was {}n), A {}n (was {}n)",
        front2.size(),
        frontier.size(),
        ac2.size(),
        ac.size(),
        a2.size(),
        a.size()
    );
    time(
        "renumbered assignCall (dest V1, source V0)",
        &front2,
        &ac2,
        &q0,
    );
    let f2_1 = rename(&front2, &to_v1)?;
    time("renumbered A (dest V0, source V1)", &f2_1, &a2, &q1);
    Ok(())
}
