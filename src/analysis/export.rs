//! `refract export targets|specpoints`: resolved reflective targets as
//! text, and where user input reaches `Class.forName`.

use super::results::{target_text, Results};
use crate::classfile::descriptor::parse_method_signature;
use crate::database::{Database, DatabaseError};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The header of the TSV export.
pub const HEADER: &str = "caller_class\tcaller_method\tcaller_desc\tbci\tline\tapi\ttarget";

/// The targets as a JSON array of objects keyed by [`HEADER`]'s columns,
/// `bci` and `line` as numbers: one object per line of
/// [`targets_tsv`].
pub fn targets_json(lines: &[String]) -> String {
    use crate::export::relation::json_string;
    let columns: Vec<&str> = HEADER.split('\t').collect();
    let objects: Vec<String> = lines
        .iter()
        .map(|l| {
            let fields: Vec<String> = (columns.iter().zip(l.split('\t')))
                .map(|(c, v)| {
                    let value = match (*c, v.parse::<u64>()) {
                        ("bci" | "line", Ok(n)) => n.to_string(),
                        _ => json_string(v),
                    };
                    format!("{}: {value}", json_string(c))
                })
                .collect();
            format!("  {{{}}}", fields.join(", "))
        })
        .collect();
    if objects.is_empty() {
        "[]\n".to_string()
    } else {
        format!("[\n{}\n]\n", objects.join(",\n"))
    }
}

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
                target_text(db, *t),
            ));
        }
    }
    // By caller, then bytecode index (numerically), then target; once
    // each (a lookup may find two members that read alike, a method and
    // the interface method it implements).
    out.sort();
    out.dedup();
    out.into_iter()
        .map(|(c, m, d, b, l, a, t)| tsv_line(&c, &m, &d, b, l, a, &t))
        .collect()
}

/// One line of [`HEADER`]'s columns.
pub fn tsv_line(
    class: &str,
    method: &str,
    desc: &str,
    bci: u64,
    line: u64,
    api: &str,
    target: &str,
) -> String {
    format!("{class}\t{method}\t{desc}\t{bci}\t{line}\t{api}\t{target}")
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
                    target_text(db, *t)
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
    // Value flow edges, by destination (destination → sources), with the
    // steps through a field (fieldHop: from a store to a load of the same
    // field of an object both bases may point to).
    let mut back: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for rel in ["A", "assignCall", "concat", "stringFlow", "fieldHop"] {
        for t in db.tuples_if_present(rel)? {
            back.entry(t[0]).or_default().push(t[1]);
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
    let mut sources_of: BTreeMap<u64, Vec<u64>> = BTreeMap::new();
    for &(src, site) in &r.spec_points {
        sources_of.entry(site).or_default().push(src);
    }
    let empty = BTreeSet::new();
    let mut out = Vec::new();
    // One search per site, backwards from its name argument: a site has
    // hundreds of sources in the JDK, and a search per (source, site)
    // pair took more than ten minutes on the quick-start fixture.
    for (site, sources) in sources_of {
        let on_path = leads.get(&site).unwrap_or(&empty);
        let goal = args.get(&site).unwrap_or(&empty);
        let toward_goal = paths_to(&back, goal, on_path);
        for src in sources {
            let chain = ret_var
                .get(&src)
                .into_iter()
                .flatten()
                .filter_map(|v| toward_goal.get(v).map(|&(d, _)| (d, *v)))
                .min()
                .map(|(_, start)| chain_from(start, &toward_goal))
                .unwrap_or_default();
            let chain: Vec<String> = chain.iter().map(|v| db.name("V", *v)).collect();
            out.push(format!(
                "{}\t{}\t{}",
                db.name("I", src),
                db.name("I", site),
                chain.join(" -> ")
            ));
        }
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// For each variable in `allowed` from which a value flows to one of
/// `goal` (along `back`, the flow edges by destination): its distance to
/// the goal and the next variable on a shortest way there (itself for a
/// goal). Breadth first from the goal, against the flow.
fn paths_to(
    back: &BTreeMap<u64, Vec<u64>>,
    goal: &BTreeSet<u64>,
    allowed: &BTreeSet<u64>,
) -> BTreeMap<u64, (usize, u64)> {
    let mut next: BTreeMap<u64, (usize, u64)> = goal.iter().map(|&g| (g, (0, g))).collect();
    let mut queue: VecDeque<u64> = goal.iter().copied().collect();
    while let Some(v) = queue.pop_front() {
        let d = next[&v].0;
        for &w in back.get(&v).into_iter().flatten() {
            if allowed.contains(&w) && !next.contains_key(&w) {
                next.insert(w, (d + 1, v));
                queue.push_back(w);
            }
        }
    }
    next
}

/// The variables from `start` to the goal of [`paths_to`]'s result.
fn chain_from(start: u64, toward_goal: &BTreeMap<u64, (usize, u64)>) -> Vec<u64> {
    let mut chain = vec![start];
    let mut cur = start;
    while let Some(&(d, n)) = toward_goal.get(&cur) {
        if d == 0 {
            break;
        }
        chain.push(n);
        cur = n;
    }
    chain
}
