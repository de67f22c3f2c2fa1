//! `refract run --explain-plan`: each rule's compiled plan in words, as a
//! database's EXPLAIN prints a query's: the home instance of every
//! variable and what the homes cost in renames (the planner's estimate),
//! how each subgoal is read (constants fixed, bits projected, the rename
//! to the homes and whether it keeps the variable order), and for each
//! variant the joins in order, which version of a relation each reads,
//! and what each projects away.
//!
//! The plans are those of the program as written: when it is solved, a
//! rule also drops its negations of relations of earlier strata that came
//! out empty, and a rule that reads one is not run (`plan_rule`'s `empty`).

use super::planner::{plan_rule, AtomPlan, RulePlan, Source, Step};
use super::program::{Program, RelId};
use super::stratify::stratify;
use crate::bdd::{BddVariable, Layout, VarSet};
use std::collections::HashSet;
use std::fmt::Write;

/// The plans of every rule of `prog`, stratum by stratum.
pub fn explain_plans(prog: &Program, layout: &Layout) -> super::error::Result<String> {
    let mut out = String::new();
    for (k, stratum) in stratify(prog)?.iter().enumerate() {
        let names: Vec<&str> = stratum
            .relations
            .iter()
            .map(|&r| prog.relations[r].name.as_str())
            .collect();
        let kind = if stratum.recursive {
            "recursive"
        } else {
            "not recursive"
        };
        let _ = writeln!(out, "stratum {} ({kind}): {}", k + 1, names.join(" "));
        let dynamic: HashSet<RelId> = stratum.relations.iter().copied().collect();
        for &ri in &stratum.rules {
            let rule = &prog.rules[ri];
            if rule.number {
                let _ = writeln!(
                    out,
                    "  {}:{}: {}\n    numbering: the paths from the first subgoal's roots along the others' edges, cycles collapsed",
                    rule.loc.file.display(),
                    rule.loc.line,
                    rule.text
                );
                continue;
            }
            let plan = plan_rule(prog, layout, ri, &dynamic, &HashSet::new(), &HashSet::new());
            describe(prog, layout, &plan, &mut out);
        }
    }
    Ok(out)
}

/// One rule's plan.
fn describe(prog: &Program, layout: &Layout, plan: &RulePlan, out: &mut String) {
    let rule = &prog.rules[plan.rule];
    let _ = writeln!(
        out,
        "  {}:{}: {}",
        rule.loc.file.display(),
        rule.loc.line,
        rule.text
    );
    if !plan.satisfiable {
        let _ = writeln!(out, "    never holds (its constants contradict)");
        return;
    }
    let homes: Vec<String> = rule
        .vars
        .iter()
        .zip(&plan.homes)
        .filter_map(|(v, h)| h.map(|h| format!("{} in {}", v.name, layout.instance(h).name)))
        .collect();
    if !homes.is_empty() {
        let _ = writeln!(
            out,
            "    homes: {} (rename cost {})",
            homes.join(", "),
            plan.rename_cost
        );
    }
    for (k, a) in plan.atoms.iter().enumerate() {
        let _ = writeln!(out, "    subgoal #{k}: {}", atom_words(prog, a));
    }
    for (k, a) in plan.negs.iter().enumerate() {
        let _ = writeln!(out, "    negation #{k}: !{}", atom_words(prog, a));
    }
    describe_groups(plan, out);
    for (k, v) in plan.variants.iter().enumerate() {
        let title = match v.delta {
            Some(d) => format!("variant {} (new tuples of factor #{d})", k + 1),
            None => "evaluation".to_string(),
        };
        let steps: Vec<String> = (v.steps.iter())
            .map(|s| step_words(prog, layout, plan, s))
            .collect();
        let _ = writeln!(out, "    {title}: {}", steps.join("; "));
    }
    let head = &prog.relations[rule.head.rel];
    let moves = order_words(&plan.head.rename);
    let _ = writeln!(out, "    head: into {}{moves}", head.name);
}

/// The static groups of a plan (the factors with filters folded in), and
/// the factors read in place.
fn describe_groups(plan: &RulePlan, out: &mut String) {
    for (k, f) in plan.factors.iter().enumerate() {
        if f.in_place.is_some() {
            let _ = writeln!(
                out,
                "    factor #{k}: subgoal #{} read in place, its constants and wildcards dropped by its joins",
                f.atom
            );
            continue;
        }
        if f.negs.is_empty() && f.cmps.is_empty() && f.extra_range.is_none() {
            continue;
        }
        let mut with: Vec<String> = Vec::new();
        with.extend(f.negs.iter().map(|n| format!("negation #{n}")));
        with.extend(f.cmps.iter().map(|c| format!("comparison #{c}")));
        if f.extra_range.is_some() {
            with.push("the ranges of variables it adds".into());
        }
        let _ = writeln!(
            out,
            "    factor #{k}: subgoal #{} with {}, once per stratum",
            f.atom,
            with.join(", ")
        );
    }
}

/// One operation of a variant, in words.
fn step_words(prog: &Program, layout: &Layout, plan: &RulePlan, step: &Step) -> String {
    let var_names = |set: &VarSet| -> String { names_in(prog, layout, plan, set) };
    match step {
        Step::Join {
            factor,
            source,
            quantify,
        } => {
            let version = match source {
                Source::Full => "all",
                Source::Old => "old",
                Source::Delta => "new",
            };
            let dynamic = plan.atoms[plan.factors[*factor].atom].dynamic;
            let read = if dynamic {
                format!("join factor #{factor} ({version} tuples)")
            } else {
                format!("join factor #{factor}")
            };
            // The bits of a subgoal read in place are no variable's.
            match var_names(quantify) {
                names if names.is_empty() => read,
                names => format!("{read}, projecting {names}"),
            }
        }
        Step::AndNot(n) => format!("subtract negation #{n}"),
        Step::And(c) => format!("keep comparison #{c}"),
        Step::Exists(q) => format!("project {}", var_names(q)),
    }
}

/// How a subgoal is read. (What it projects are bits of its attributes,
/// before the rename to the homes: wildcards and variables used nowhere
/// else.)
fn atom_words(prog: &Program, a: &AtomPlan) -> String {
    let mut name = prog.relations[a.rel].name.clone();
    if a.dynamic {
        name.push_str(" (this stratum)");
    }
    let mut words = vec![name];
    if !a.restrict.is_empty() {
        words.push(format!("{} bits fixed by constants", a.restrict.len()));
    }
    if a.equal.is_some() {
        words.push("repeated variables equal".into());
    }
    if !a.quantify.is_empty() {
        words.push(format!(
            "projecting {} bits of wildcards and unused variables",
            a.quantify.len()
        ));
    }
    let moves = order_words(&a.rename);
    words.join(", ") + &moves
}

/// Whether a rename keeps the variable order (a relabelling) or rebuilds
/// the relation.
fn order_words(rename: &[(BddVariable, BddVariable)]) -> String {
    if rename.iter().all(|(a, b)| a == b) {
        return String::new();
    }
    let mut pairs: Vec<(usize, usize)> = rename
        .iter()
        .map(|(a, b)| (a.to_index(), b.to_index()))
        .collect();
    pairs.sort_unstable();
    let keeps = pairs.windows(2).all(|w| w[0].1 < w[1].1);
    if keeps {
        ", renamed keeping the order".into()
    } else {
        ", renamed with reordering (rebuilt)".into()
    }
}

/// The rule variables whose home bits are in `set`, by name.
fn names_in(prog: &Program, layout: &Layout, plan: &RulePlan, set: &VarSet) -> String {
    let rule = &prog.rules[plan.rule];
    let names: Vec<&str> = rule
        .vars
        .iter()
        .zip(&plan.homes)
        .filter(|(_, h)| {
            h.is_some_and(|h| layout.instance(h).vars.iter().any(|v| set.contains(*v)))
        })
        .map(|(v, _)| v.name.as_str())
        .collect();
    names.join(", ")
}
