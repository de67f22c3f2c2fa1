//! The inner loop between semi-naive iterations (Berndl et al.'s inner
//! propagation loop).
//!
//! Rules are saturated: they run on the new tuples of a subgoal, then on
//! what they add, until nothing is added. A rule with one or two subgoals
//! over the stratum (`reach(m) :- IE(_, m)`, `vP(v1, h) :- assignCall(v1,
//! v2), vP(v2, h)`, virtual dispatch, a store meeting a load) saturates
//! on each, reading everything known of the other: the full relation,
//! and what the inner loop found so far, as separate joins. Its outer
//! variants are then redundant and skipped. A rule with more such
//! subgoals saturates only on its one subgoal over its own head relation,
//! reading the others as they stood. A chain of copies, calls or
//! hand-offs then costs inner steps, not outer iterations. The inner loop
//! only diffs small sets against the full relation (`and_not` of a small
//! BDD visits only its own paths) and merges nothing into it: what it
//! finds joins the iteration's new tuples, and every other rule sees them
//! as delta in the next iteration, so the fixpoint is the same.

use super::{accumulate, record_rule, tracing, Prepared, Solver};
use crate::bdd::apply;
use crate::bdd::node_builder::mk_false;
use crate::bdd::partition::partition;
use crate::datalog::error::Result;
use crate::datalog::observer::{StepEnd, StepKind};
use crate::datalog::planner::{RulePlan, Source, Step};
use crate::datalog::program::RelId;
use biodivine_lib_bdd::Bdd;
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

impl Solver {
    /// Runs the saturating rules on the iteration's `new` tuples of their
    /// driving relations, then on what that adds, until nothing is added;
    /// everything found joins `new`. Other subgoals read the full
    /// relations as they stand (the pre-merge state the next iteration
    /// calls `old`), and those of complete rules also what saturation
    /// found so far. Returns the number of inner steps.
    pub(super) fn saturate(
        &mut self,
        plans: &[RulePlan],
        statics: &[Prepared],
        saturating: &[Saturating],
        new: &mut HashMap<RelId, Bdd>,
    ) -> Result<usize> {
        if saturating.is_empty() {
            return Ok(0);
        }
        // The full versions of the other dynamic subgoals, prepared once.
        let mut needed: Vec<(usize, usize)> = Vec::new();
        for s in saturating {
            let p = &plans[s.plan];
            for step in &s.steps {
                if let Step::Join {
                    factor,
                    source: Source::Full,
                    ..
                } = step
                {
                    let atom = p.factors[*factor].atom;
                    if p.atoms[atom].dynamic && !needed.contains(&(s.plan, atom)) {
                        needed.push((s.plan, atom));
                    }
                }
            }
        }
        let fulls_start = Instant::now();
        let rels = &self.rels;
        let fulls: HashMap<(usize, usize), Cow<Bdd>> = needed
            .par_iter()
            .map(|&(pi, atom)| {
                let a = &plans[pi].atoms[atom];
                let t = Instant::now();
                let b = self.prepare_atom(a, &rels[a.rel])?;
                if self.steps_wanted {
                    self.report_other(plans[pi].rule, "prepare full", t.elapsed());
                }
                Ok(((pi, atom), b))
            })
            .collect::<Result<_>>()?;
        // A rule that reads an empty relation in full derives nothing: it
        // is skipped before its first join (which may be the costly one).
        // (A complete rule also reads what the iteration found.)
        let mut empty_full = vec![false; plans.len()];
        for ((pi, _), b) in &fulls {
            if b.is_false() && !saturating.iter().any(|s| s.plan == *pi && s.complete) {
                empty_full[*pi] = true;
            }
        }
        // The other subgoals of complete rules, read in parts: what the
        // iteration found (`new`, prepared again when it changes) and the
        // last steps' additions (`recent`, prepared each step).
        let others: Vec<(usize, usize)> = {
            let mut v: Vec<(usize, usize)> = saturating
                .iter()
                .filter_map(|s| s.other.map(|a| (s.plan, a)))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let mut new_prepared: HashMap<(usize, usize), Bdd> = HashMap::new();
        let driving: HashSet<RelId> = saturating
            .iter()
            .map(|s| plans[s.plan].atoms[s.atom].rel)
            .collect();
        let mut frontier: HashMap<RelId, Bdd> = driving
            .iter()
            .filter_map(|rel| {
                new.get(rel)
                    .filter(|n| !n.is_false())
                    .map(|n| (*rel, n.clone()))
            })
            .collect();
        let mut steps = 0;
        #[derive(Default)]
        struct Profile {
            jobs_wall: Duration,
            jobs_cpu: Duration,
            post_wall: Duration,
            fold_wall: Duration,
            prepare_wall: Duration,
        }
        let mut profile = Profile {
            prepare_wall: fulls_start.elapsed(),
            ..Profile::default()
        };
        let nv = self.layout.num_vars();
        let mut recent: HashMap<RelId, Bdd> = HashMap::new();
        while !frontier.is_empty() {
            self.check_cancel()?;
            steps += 1;
            // The new tuples of each driving relation are cut once into
            // parts that the threads join independently (one rule's join
            // often dominates a step); each rule prepares a part as its
            // subgoal on the job's thread. (Cut per rule after preparing,
            // the whole-JDK points-to run spent 90 s cutting the same
            // points-to facts for eight rules, one thread at a time.)
            let prepare_start = Instant::now();
            let parts: HashMap<RelId, Vec<Bdd>> = frontier
                .par_iter()
                .filter(|(rel, _)| driving.contains(rel))
                .map(|(rel, d)| (*rel, partition(d, PARALLEL_PARTS, PARALLEL_MIN_NODES)))
                .collect();
            let jobs: Vec<(usize, &Bdd)> = saturating
                .iter()
                .enumerate()
                .filter(|(_, s)| !empty_full[s.plan])
                .flat_map(|(si, s)| {
                    let rel = plans[s.plan].atoms[s.atom].rel;
                    parts
                        .get(&rel)
                        .into_iter()
                        .flatten()
                        .map(move |part| (si, part))
                })
                .collect();
            let missing: Vec<(usize, usize)> = others
                .iter()
                .copied()
                .filter(|k| !new_prepared.contains_key(k))
                .collect();
            let known_now = &*new;
            let fresh: Vec<((usize, usize), Bdd)> = missing
                .par_iter()
                .map(|&(pi, atom)| {
                    let a = &plans[pi].atoms[atom];
                    let b = match known_now.get(&a.rel) {
                        Some(n) => self.prepare_atom(a, n)?.into_owned(),
                        None => mk_false(nv),
                    };
                    Ok(((pi, atom), b))
                })
                .collect::<Result<_>>()?;
            new_prepared.extend(fresh);
            let recent_prepared: HashMap<(usize, usize), Cow<Bdd>> = others
                .par_iter()
                .filter_map(|&(pi, atom)| {
                    let a = &plans[pi].atoms[atom];
                    let r = recent.get(&a.rel).filter(|r| !r.is_false())?;
                    Some(self.prepare_atom(a, r).map(|b| ((pi, atom), b)))
                })
                .collect::<Result<_>>()?;
            profile.prepare_wall += prepare_start.elapsed();
            let jobs_start = Instant::now();
            let (known, recent_now) = (&*new, &recent);
            let (new_prepared_now, recent_prepared_now) = (&new_prepared, &recent_prepared);
            let results: Vec<(usize, Bdd, Duration)> = jobs
                .par_iter()
                .map(|&(si, part)| {
                    let s = &saturating[si];
                    let p = &plans[s.plan];
                    let t = Instant::now();
                    let delta = self.prepare_atom(&p.atoms[s.atom], part)?;
                    if self.steps_wanted {
                        self.report_other(p.rule, "prepare delta", t.elapsed());
                    }
                    let mut dyns: HashMap<(usize, Source), &Bdd> = HashMap::new();
                    dyns.insert((s.atom, Source::Delta), &delta);
                    for ((pi, atom), b) in &fulls {
                        if *pi == s.plan {
                            dyns.insert((*atom, Source::Full), b);
                        }
                    }
                    let mut r = match s.other {
                        None => self.run_steps(p, &s.steps, &statics[s.plan], &dyns)?,
                        Some(other) => {
                            // Everything known of the other subgoal, part
                            // by part.
                            let key = (s.plan, other);
                            let parts = [
                                fulls.get(&key).map(|b| &**b),
                                new_prepared_now.get(&key),
                                recent_prepared_now.get(&key).map(|b| &**b),
                            ];
                            let mut acc = mk_false(nv);
                            for (label, part) in ["full", "new", "recent"].iter().zip(parts) {
                                let Some(part) = part.filter(|b| !b.is_false()) else {
                                    continue;
                                };
                                dyns.insert((other, Source::Full), part);
                                let t = Instant::now();
                                let r = self.run_steps(p, &s.steps, &statics[s.plan], &dyns)?;
                                if self.steps_wanted {
                                    let parts = format!(
                                        "delta {} ({}n), {label} {} ({}n)",
                                        self.prog.relations[p.atoms[s.atom].rel].name,
                                        delta.size(),
                                        self.prog.relations[p.atoms[other].rel].name,
                                        part.size()
                                    );
                                    self.report_step(&StepEnd {
                                        rule: p.rule,
                                        rule_text: &self.prog.rules[p.rule].text,
                                        step: "",
                                        kind: StepKind::Job { parts: &parts },
                                        time: t.elapsed(),
                                    });
                                }
                                acc = apply::or(&acc, &r);
                            }
                            acc
                        }
                    };
                    // What is known already goes here, on the job's thread.
                    let head = p.head_rel;
                    let td = Instant::now();
                    // (The relation, what the iteration found, what the
                    // last steps found: one pass over the job's tuples.)
                    let seen = [
                        Some(&self.rels[head]),
                        known.get(&head),
                        recent_now.get(&head),
                    ];
                    let seen: Vec<&Bdd> = seen.into_iter().flatten().collect();
                    r = apply::and_not_all(&r, &seen);
                    if self.steps_wanted {
                        self.report_other(p.rule, "dedupe", td.elapsed());
                    }
                    Ok((si, r, t.elapsed()))
                })
                .collect::<Result<_>>()?;
            profile.jobs_wall += jobs_start.elapsed();
            let post_start = Instant::now();
            let mut parts: HashMap<RelId, Vec<Bdd>> = HashMap::new();
            for (si, r, dt) in results {
                profile.jobs_cpu += dt;
                record_rule(&mut self.stats, plans[saturating[si].plan].rule, &r, dt);
                if !r.is_false() {
                    parts
                        .entry(plans[saturating[si].plan].head_rel)
                        .or_default()
                        .push(r);
                }
            }
            frontier = parts
                .into_par_iter()
                .filter_map(|(rel, parts)| {
                    let union = parts.into_par_iter().reduce_with(apply::or_owned)?;
                    Some((rel, union))
                })
                .collect();
            let fold_start = Instant::now();
            // `new` is kept as a base and a recent part, which absorbs each
            // step's tuples and is folded into the base once it holds a
            // quarter of its size: a step costs the recent part's size,
            // not all of `new`'s.
            // Both parts are taken out of their maps, so that each `or`
            // grows the larger operand's own nodes.
            let work: Vec<(RelId, &Bdd, Option<Bdd>, Option<Bdd>)> = frontier
                .iter()
                .map(|(rel, x)| (*rel, x, recent.remove(rel), new.remove(rel)))
                .collect();
            let folds: Vec<(RelId, Bdd, Option<Bdd>, bool)> = work
                .into_par_iter()
                .map(|(rel, x, recent, base)| {
                    let r = match recent {
                        Some(r) => apply::or_into(r, x),
                        None => x.clone(),
                    };
                    if r.size() * 4 > base.as_ref().map_or(0, Bdd::size) {
                        let merged = match base {
                            Some(b) => apply::or_into(b, &r),
                            None => r,
                        };
                        (rel, mk_false(nv), Some(merged), true)
                    } else {
                        (rel, r, base, false)
                    }
                })
                .collect();
            for (rel, r, base, folded) in folds {
                recent.insert(rel, r);
                if let Some(b) = base {
                    new.insert(rel, b);
                }
                if folded {
                    new_prepared.retain(|&(pi, atom), _| plans[pi].atoms[atom].rel != rel);
                }
            }
            profile.fold_wall += fold_start.elapsed();
            profile.post_wall += post_start.elapsed();
        }
        let fold_start = Instant::now();
        for (rel, r) in recent {
            if !r.is_false() {
                accumulate(new, rel, r);
            }
        }
        profile.post_wall += fold_start.elapsed();
        if tracing() {
            eprintln!(
                "[trace]   saturation: preparing {:.3}s; joins {:.3}s wall, {:.3}s summed; merging {:.3}s, of which folding {:.3}s",
                profile.prepare_wall.as_secs_f64(),
                profile.jobs_wall.as_secs_f64(),
                profile.jobs_cpu.as_secs_f64(),
                profile.post_wall.as_secs_f64(),
                profile.fold_wall.as_secs_f64()
            );
        }
        Ok(steps)
    }
}

/// A saturation step's driving tuples are cut into at most this many
/// parts, joined in parallel…
const PARALLEL_PARTS: usize = 4;
/// …when they have at least this many nodes (smaller joins are cheaper
/// than the cut).
const PARALLEL_MIN_NODES: usize = 2048;

/// A rule variant run to saturation between iterations, driven by one
/// subgoal over a relation of the stratum.
///
/// A rule with at most [`COMPLETE_MAX_DYNAMIC`] subgoals over the stratum
/// saturates *completely*: each such subgoal drives one variant, and the
/// other subgoal reads everything known (the full relation, then what
/// this iteration found so far, as separate joins). Every new tuple of a
/// driving relation passes through the inner loop once, so every
/// derivation from a new tuple is made there and the rule's outer
/// variants are redundant. This makes the call graph's discovery (a new
/// receiver type meeting a new call site) and heap flows (a store meeting
/// a load) one inner step each, not one outer iteration each.
///
/// A rule with more such subgoals saturates only on its subgoal over its
/// own head relation (`vP(r, h) :- fieldGet(i, f), apiArg(...), vP(o, oh),
/// hP(oh, f, h), ...`), reading the others as they stood before the
/// iteration; its outer variants still run.
pub(super) struct Saturating {
    /// Index into the stratum's plans.
    plan: usize,
    /// The driving subgoal.
    atom: usize,
    /// The steps of the outer variant reading that subgoal's delta, its
    /// joins with `old` read as `full`.
    steps: Vec<Step>,
    /// Whether the rule saturates completely; then `other`, if any, is its
    /// other subgoal over the stratum.
    complete: bool,
    /// The other dynamic subgoal of a complete rule.
    other: Option<usize>,
}

impl Saturating {
    /// Whether the outer variants of plan `pi` only repeat what
    /// saturation derived.
    pub(super) fn redundant(&self, pi: usize) -> bool {
        self.complete && self.plan == pi
    }
}

/// Rules with at most this many subgoals over the stratum saturate
/// completely (see [`Saturating`]); each other subgoal costs a join per
/// part of what is known (full, found this iteration, found last step).
const COMPLETE_MAX_DYNAMIC: usize = 2;

/// The stratum's rules that saturate (see [`Saturating`]).
pub(super) fn saturating_rules(plans: &[RulePlan], recursive: &[usize]) -> Vec<Saturating> {
    let mut out = Vec::new();
    for &pi in recursive {
        let p = &plans[pi];
        let dynamic: Vec<usize> = (0..p.atoms.len()).filter(|&a| p.atoms[a].dynamic).collect();
        let own: Vec<usize> = dynamic
            .iter()
            .copied()
            .filter(|&a| p.atoms[a].rel == p.head_rel)
            .collect();
        if dynamic.len() <= COMPLETE_MAX_DYNAMIC {
            let variants: Option<Vec<Saturating>> = dynamic
                .iter()
                .map(|&atom| {
                    Some(Saturating {
                        plan: pi,
                        atom,
                        steps: saturating_steps(p, atom)?,
                        complete: true,
                        other: dynamic.iter().copied().find(|&a| a != atom),
                    })
                })
                .collect();
            if let Some(v) = variants {
                out.extend(v);
                continue;
            }
        }
        let [atom] = own[..] else { continue };
        let Some(steps) = saturating_steps(p, atom) else {
            continue;
        };
        out.push(Saturating {
            plan: pi,
            atom,
            steps,
            complete: false,
            other: None,
        });
    }
    out
}

/// The steps of the variant of `p` that reads `atom`'s delta, with its
/// joins with `old` read as `full`.
fn saturating_steps(p: &RulePlan, atom: usize) -> Option<Vec<Step>> {
    let variant = p
        .variants
        .iter()
        .position(|v| v.delta.map(|f| p.factors[f].atom) == Some(atom))?;
    let mut steps = p.variants[variant].steps.clone();
    for step in &mut steps {
        if let Step::Join { factor, source, .. } = step {
            if p.atoms[p.factors[*factor].atom].dynamic && *source == Source::Old {
                *source = Source::Full;
            }
        }
    }
    Some(steps)
}
