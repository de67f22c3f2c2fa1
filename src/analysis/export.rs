//! `refract export targets|specpoints`: resolved reflective targets as
//! text, and where user input reaches `Class.forName`.

use super::results::{target_text, Results};
use crate::classfile::descriptor::parse_method_signature;
use crate::database::{Database, DatabaseError};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The header of the TSV export.
pub const HEADER: &str = "caller_class\tcaller_method\tcaller_desc\tbci\tline\tapi\ttarget";

/// One line per (site, target): TSV with [`HEADER`]'s columns.
pub fn targets_tsv(db: &Database, r: &Results) -> Vec<String> {
    let mut out: Vec<(String, String, String, u64, u64, &str, String)> = Vec::new();
    for s in &r.sites {
        let caller = db.name("M", s.caller);
        let Some(sig) = parse_method_signature(&caller) else {
            continue;
        };
        for t in &s.targets {
            out.push((
                sig.class.clone(),
                sig.name.clone(),
                sig.descriptor(),
                s.bci,
                s.line,
                s.api,
                target_text(db, s.api, *t),
            ));
        }
    }
    // By caller, then bytecode index (numerically), then target; once
    // each (a lookup may find two members that read alike, a method and
    // the interface method it implements).
    out.sort();
    out.dedup();
    out.into_iter()
        .map(|(c, m, d, b, l, a, t)| format!("{c}\t{m}\t{d}\t{b}\t{l}\t{a}\t{t}"))
        .collect()
}

/// The source file javac names for a class (`a.B$C` → `B.java`).
fn source_file(class: &str) -> String {
    let simple = class.rsplit('.').next().unwrap_or(class);
    format!("{}.java", simple.split('$').next().unwrap_or(simple))
}

/// The paper's Fig. 3 form: `method() @ bci File.java:line => target`.
pub fn targets_spec(db: &Database, r: &Results) -> Vec<String> {
    let mut out: Vec<(String, u64, String)> = Vec::new();
    for s in &r.sites {
        let caller = db.name("M", s.caller);
        let Some(sig) = parse_method_signature(&caller) else {
            continue;
        };
        for t in &s.targets {
            out.push((
                caller.clone(),
                s.bci,
                format!(
                    "{}() @ {} {}:{} => {}",
                    sig.name,
                    s.bci,
                    source_file(&sig.class),
                    s.line,
                    target_text(db, s.api, *t)
                ),
            ));
        }
    }
    out.sort();
    out.dedup();
    out.into_iter().map(|x| x.2).collect()
}

/// Specification points: `source site \t forName site \t chain`, where
/// the chain lists the variables from the source's result to the name
/// argument.
pub fn spec_points(db: &mut Database, r: &Results) -> Result<Vec<String>, DatabaseError> {
    if r.spec_points.is_empty() {
        return Ok(Vec::new());
    }
    // Value flow edges, source → destination.
    let mut flow: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for rel in ["A", "assignCall", "concat", "stringFlow"] {
        for t in db.tuples_if_present(rel)? {
            flow.entry(t[1]).or_default().push(t[0]);
        }
    }
    let mut ret_var: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for t in db.tuples("Iret")? {
        ret_var.entry(t[0]).or_default().push(t[1]);
    }
    let mut leads: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
    for t in db.tuples("leadsToForName")? {
        leads.entry(t[1]).or_default().insert(t[0]);
    }
    let mut args: BTreeMap<u64, BTreeSet<u64>> = BTreeMap::new();
    for t in db.tuples("classNameArg").unwrap_or_default() {
        args.entry(t[0]).or_default().insert(t[1]);
    }
    let mut out = Vec::new();
    for &(src, site) in &r.spec_points {
        let on_path = leads.get(&site).cloned().unwrap_or_default();
        let starts: BTreeSet<u64> = ret_var.get(&src).into_iter().flatten().copied().collect();
        let goal = args.get(&site).cloned().unwrap_or_default();
        let chain = shortest_chain(&flow, &starts, &goal, &on_path);
        let chain: Vec<String> = chain.iter().map(|v| db.name("V", *v)).collect();
        out.push(format!(
            "{}\t{}\t{}",
            db.name("I", src),
            db.name("I", site),
            chain.join(" -> ")
        ));
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// A shortest path along `flow` from one of `starts` to one of `goal`,
/// through variables in `allowed`. Empty when there is none (the value
/// also moves through fields, which are not followed here).
fn shortest_chain(
    flow: &BTreeMap<u64, Vec<u64>>,
    starts: &BTreeSet<u64>,
    goal: &BTreeSet<u64>,
    allowed: &BTreeSet<u64>,
) -> Vec<u64> {
    let mut prev: BTreeMap<u64, u64> = BTreeMap::new();
    let mut queue: VecDeque<u64> = starts.iter().copied().collect();
    let mut seen: BTreeSet<u64> = starts.clone();
    while let Some(v) = queue.pop_front() {
        if goal.contains(&v) {
            let mut path = vec![v];
            let mut cur = v;
            while let Some(&p) = prev.get(&cur) {
                path.push(p);
                cur = p;
            }
            path.reverse();
            return path;
        }
        for &w in flow.get(&v).into_iter().flatten() {
            if allowed.contains(&w) && seen.insert(w) {
                prev.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    Vec::new()
}
