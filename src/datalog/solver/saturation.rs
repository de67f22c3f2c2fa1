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

use super::{accumulate, record_rule, Prepared, Solver};
use crate::bdd::{self, mk_false, partition, Bdd};
use crate::datalog::error::Result;
use crate::datalog::observer::{SaturationEnd, StepEnd, StepKind};
use crate::datalog::planner::{AtomPlan, RulePlan, Source, Step};
use crate::datalog::program::RelId;
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// A subgoal of a rule: the plan's index and the atom's index in it.
type Subgoal = (usize, usize);

/// The state of one saturation, between its steps.
///
/// What the iteration found so far is `new` (the caller's accumulator)
/// plus `recent`: `recent` absorbs each step's tuples and is folded into
/// `new` once it holds a quarter of its size, so that a step costs
/// `recent`'s size, not all of `new`'s.
struct Saturation<'a> {
    /// The rules that saturate.
    saturating: &'a [Saturating],
    /// The relations whose new tuples drive some rule.
    driving: HashSet<RelId>,
    /// The other subgoals of complete rules, which read everything known.
    others: Vec<Subgoal>,
    /// Plans that read an empty relation in full, and so derive nothing.
    empty_full: Vec<bool>,
    /// Driving tuples that no step has joined yet, per relation.
    frontier: HashMap<RelId, Bdd>,
    /// What the last steps found, not yet folded into `new`.
    recent: HashMap<RelId, Bdd>,
    /// `new` prepared as each of `others`, kept until `new` changes.
    /// `None` where preparing changes nothing: the subgoal reads `new`
    /// itself (a copy of it otherwise).
    new_prepared: HashMap<Subgoal, Option<Bdd>>,
    /// `recent` prepared as each of `others`, kept until `recent`
    /// changes, as `new_prepared`; absent where `recent` is empty. The
    /// last fold changed `recent` of the frontier's relations only.
    recent_prepared: HashMap<Subgoal, Option<Bdd>>,
    /// Steps taken, and where the time went.
    profile: SaturationEnd,
}

/// The full versions of the subgoals that saturating rules join in
/// full, prepared in one saturation and kept for the next ones of the
/// stratum until their relation grows: a relation that an iteration did
/// not grow (`assignCall` where the call graph stood still, most of them
/// in the last iterations) is not renamed or restricted again. In the
/// quick start (Invoke against the whole JDK 17, `casts`), 0.973 of the
/// wall time against preparing them in every saturation, for 43 MiB
/// more at the peak (one pair of runs, 2-core EPYC). With the kept
/// copies of `recent` ([`Solver::prepare_recent`]), two pairs of
/// `scripts/bench-compare.sh` against both kinds prepared anew found
/// 1.001 on the quick start and 1.022 on freetts (0.960 on c_pa, 0.962
/// on pa), within that machine's spread of single runs (176-227 s).
#[derive(Default)]
pub(super) struct FullsKept {
    /// Per subgoal, its prepared copy, or `None` where preparing changes
    /// nothing (the subgoal reads the relation itself).
    prepared: HashMap<Subgoal, Option<Bdd>>,
}

impl FullsKept {
    /// Forgets the subgoals over the relations for which `grew` holds.
    pub(super) fn forget(&mut self, plans: &[RulePlan], grew: impl Fn(RelId) -> bool) {
        (self.prepared).retain(|&(pi, atom), _| !grew(plans[pi].atoms[atom].rel));
    }
}

/// One step's work: a saturating rule (its index in the rules that
/// saturate) joined with one part of its driving relation's new tuples.
type Job<'p> = (usize, &'p Bdd);

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
        fulls_kept: &mut FullsKept,
    ) -> Result<usize> {
        if saturating.is_empty() {
            return Ok(0);
        }
        let start = Instant::now();
        let fulls = self.prepare_fulls(&self.rels, plans, saturating, fulls_kept)?;
        let mut run = Saturation::new(plans, saturating, &fulls, new);
        run.profile.prepare += start.elapsed();
        while !run.frontier.is_empty() {
            self.check_cancel()?;
            run.profile.steps += 1;
            let prepare_start = Instant::now();
            // The new tuples of each driving relation are cut once into
            // parts that the threads join independently (one rule's join
            // often dominates a step); each rule prepares a part as its
            // subgoal on the job's thread. (Cut per rule after preparing,
            // the whole-JDK points-to run spent 90 s cutting the same
            // points-to facts for eight rules, one thread at a time.)
            let parts = run.cut_frontier();
            let jobs = run.jobs(plans, &parts);
            self.prepare_new(plans, &mut run, new)?;
            self.prepare_recent(plans, &mut run)?;
            run.profile.prepare += prepare_start.elapsed();
            let jobs_start = Instant::now();
            let known = Known {
                fulls: &fulls,
                new,
                new_prepared: &run.new_prepared,
                recent: &run.recent,
                recent_prepared: &run.recent_prepared,
            };
            let results: Vec<(usize, Bdd, Duration)> = jobs
                .par_iter()
                .map(|&(si, part)| {
                    let t = Instant::now();
                    let r = self.run_job(plans, statics, &saturating[si], part, &known)?;
                    Ok((si, r, t.elapsed()))
                })
                .collect::<Result<_>>()?;
            run.profile.joins_wall += jobs_start.elapsed();
            let post_start = Instant::now();
            for (si, r, dt) in &results {
                run.profile.joins_summed += *dt;
                record_rule(&mut self.stats, plans[saturating[*si].plan].rule, r, *dt);
            }
            run.frontier = next_frontier(plans, saturating, results);
            let fold_start = Instant::now();
            run.fold(plans, new, self.layout.num_vars());
            run.profile.folding += fold_start.elapsed();
            run.profile.merging += post_start.elapsed();
        }
        let fold_start = Instant::now();
        for (rel, r) in std::mem::take(&mut run.recent) {
            if !r.is_false() {
                accumulate(new, rel, r);
            }
        }
        run.profile.merging += fold_start.elapsed();
        for o in self.observers() {
            o.saturation_ended(&run.profile);
        }
        Ok(run.profile.steps)
    }

    /// `bdd` prepared as subgoal `a`, or `None` where preparing changes
    /// nothing (the subgoal reads `bdd` itself).
    fn prepared_copy(&self, a: &AtomPlan, bdd: &Bdd) -> Result<Option<Bdd>> {
        Ok(match self.prepare_atom(a, bdd)? {
            Cow::Borrowed(_) => None,
            Cow::Owned(b) => Some(b),
        })
    }

    /// The full versions of the dynamic subgoals that saturating rules
    /// join in full, prepared once for the whole saturation: taken from
    /// `kept` where their relation has not grown since they were
    /// prepared, and kept there for the next saturation.
    fn prepare_fulls<'r>(
        &self,
        rels: &'r [Bdd],
        plans: &[RulePlan],
        saturating: &[Saturating],
        kept: &'r mut FullsKept,
    ) -> Result<HashMap<Subgoal, &'r Bdd>> {
        let mut needed: Vec<Subgoal> = Vec::new();
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
        let missing: Vec<Subgoal> = (needed.iter().copied())
            .filter(|k| !kept.prepared.contains_key(k))
            .collect();
        let fresh: Vec<(Subgoal, Option<Bdd>)> = missing
            .par_iter()
            .map(|&(pi, atom)| {
                let a = &plans[pi].atoms[atom];
                let t = Instant::now();
                let b = self.prepared_copy(a, &rels[a.rel])?;
                if self.steps_wanted {
                    self.report_other(plans[pi].rule, "prepare full", t.elapsed());
                }
                Ok(((pi, atom), b))
            })
            .collect::<Result<_>>()?;
        kept.prepared.extend(fresh);
        let kept = &*kept;
        Ok((needed.into_iter())
            .map(|(pi, atom)| {
                let rel = plans[pi].atoms[atom].rel;
                let b = kept.prepared.get(&(pi, atom)).and_then(Option::as_ref);
                ((pi, atom), b.unwrap_or(&rels[rel]))
            })
            .collect())
    }

    /// Prepares `new` as each subgoal of `others` that lacks it (after a
    /// fold changed `new`, or at the first step).
    fn prepare_new(
        &self,
        plans: &[RulePlan],
        run: &mut Saturation,
        new: &HashMap<RelId, Bdd>,
    ) -> Result<()> {
        let nv = self.layout.num_vars();
        let missing: Vec<Subgoal> = (run.others.iter().copied())
            .filter(|k| !run.new_prepared.contains_key(k))
            .collect();
        let fresh: Vec<(Subgoal, Option<Bdd>)> = missing
            .par_iter()
            .map(|&(pi, atom)| {
                let a = &plans[pi].atoms[atom];
                let t = Instant::now();
                let b = match new.get(&a.rel) {
                    Some(n) => self.prepared_copy(a, n)?,
                    None => Some(mk_false(nv)),
                };
                if self.steps_wanted {
                    self.report_other(plans[pi].rule, "prepare new", t.elapsed());
                }
                Ok(((pi, atom), b))
            })
            .collect::<Result<_>>()?;
        run.new_prepared.extend(fresh);
        Ok(())
    }

    /// Prepares `recent` as each subgoal of `others` whose relation the
    /// last fold changed. A subgoal's relation is often not among a
    /// step's new tuples (`assignCall` grows only where the call graph
    /// does): its `recent` and the prepared copy stay as they were.
    /// Against preparing them again at every step, the quick start
    /// (Invoke against the whole JDK 17, `casts`) took 0.953 of the wall
    /// time (`farm-bench -n 2`, 2-core EPYC, 0.916–0.990), with the same
    /// results; see [`FullsKept`] for a run that did not show it.
    fn prepare_recent(&self, plans: &[RulePlan], run: &mut Saturation) -> Result<()> {
        // The last fold changed `recent` of the frontier's relations.
        let stale: Vec<Subgoal> = (run.others.iter().copied())
            .filter(|&(pi, atom)| run.frontier.contains_key(&plans[pi].atoms[atom].rel))
            .collect();
        let recent = &run.recent;
        let fresh: Vec<(Subgoal, Option<Option<Bdd>>)> = stale
            .par_iter()
            .map(|&(pi, atom)| {
                let a = &plans[pi].atoms[atom];
                let Some(r) = recent.get(&a.rel).filter(|r| !r.is_false()) else {
                    return Ok(((pi, atom), None));
                };
                let t = Instant::now();
                let b = self.prepared_copy(a, r)?;
                if self.steps_wanted {
                    self.report_other(plans[pi].rule, "prepare recent", t.elapsed());
                }
                Ok(((pi, atom), Some(b)))
            })
            .collect::<Result<_>>()?;
        for (k, b) in fresh {
            match b {
                Some(b) => run.recent_prepared.insert(k, b),
                None => run.recent_prepared.remove(&k),
            };
        }
        Ok(())
    }

    /// One job: the rule's variant on a part of its driving relation's new
    /// tuples, less what is known already (the relation, what the
    /// iteration found, what the last steps found: one pass over the
    /// job's tuples, on the job's thread).
    fn run_job(
        &self,
        plans: &[RulePlan],
        statics: &[Prepared],
        s: &Saturating,
        part: &Bdd,
        known: &Known,
    ) -> Result<Bdd> {
        let p = &plans[s.plan];
        if crate::trace::job_starts() {
            eprintln!(
                "[trace]       job starts: delta {} ({}n) in {}",
                self.prog.relations[p.atoms[s.atom].rel].name,
                part.size(),
                self.prog.rules[p.rule].text
            );
        }
        let t = Instant::now();
        let delta = self.prepare_atom(&p.atoms[s.atom], part)?;
        if self.steps_wanted {
            self.report_other(p.rule, "prepare delta", t.elapsed());
        }
        let mut dyns: HashMap<(usize, Source), &Bdd> = HashMap::new();
        dyns.insert((s.atom, Source::Delta), &delta);
        for ((pi, atom), b) in known.fulls {
            if *pi == s.plan {
                dyns.insert((*atom, Source::Full), *b);
            }
        }
        let r = match s.other {
            None => self.run_steps(p, &s.steps, &statics[s.plan], &dyns)?,
            Some(other) => {
                self.join_everything_known(p, s, other, &statics[s.plan], &delta, dyns, known)?
            }
        };
        let head = p.head_rel;
        let td = Instant::now();
        let seen = [
            Some(&self.rels[head]),
            known.new.get(&head),
            known.recent.get(&head),
        ];
        let seen: Vec<&Bdd> = seen.into_iter().flatten().collect();
        let r = bdd::and_not_all(&r, &seen);
        if self.steps_wanted {
            self.report_other(p.rule, "dedupe", td.elapsed());
        }
        Ok(r)
    }

    /// A complete rule's variant with the other subgoal read as
    /// everything known of it, part by part: the full relation, what the
    /// iteration found, what the last steps found.
    #[allow(clippy::too_many_arguments)]
    fn join_everything_known<'b>(
        &self,
        p: &RulePlan,
        s: &Saturating,
        other: usize,
        statics: &Prepared,
        delta: &Bdd,
        mut dyns: HashMap<(usize, Source), &'b Bdd>,
        known: &'b Known,
    ) -> Result<Bdd> {
        let key = (s.plan, other);
        let parts = [
            known.fulls.get(&key).copied(),
            (known.new_prepared.get(&key))
                .and_then(|b| b.as_ref().or_else(|| known.new.get(&p.atoms[other].rel))),
            (known.recent_prepared.get(&key))
                .and_then(|b| b.as_ref().or_else(|| known.recent.get(&p.atoms[other].rel))),
        ];
        let mut acc = mk_false(self.layout.num_vars());
        for (label, part) in ["full", "new", "recent"].iter().zip(parts) {
            let Some(part) = part.filter(|b| !b.is_false()) else {
                continue;
            };
            dyns.insert((other, Source::Full), part);
            let t = Instant::now();
            let r = self.run_steps(p, &s.steps, statics, &dyns)?;
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
            acc = bdd::or(&acc, &r);
        }
        Ok(acc)
    }
}

/// Everything known during a step, as the jobs read it.
struct Known<'a, 'r> {
    /// The full relations of subgoals joined in full, prepared.
    fulls: &'a HashMap<Subgoal, &'r Bdd>,
    /// What the iteration found before the last fold.
    new: &'a HashMap<RelId, Bdd>,
    /// `new` prepared as the other subgoals of complete rules.
    new_prepared: &'a HashMap<Subgoal, Option<Bdd>>,
    /// What the steps since the last fold found.
    recent: &'a HashMap<RelId, Bdd>,
    /// `recent` prepared as the other subgoals of complete rules.
    recent_prepared: &'a HashMap<Subgoal, Option<Bdd>>,
}

impl<'a> Saturation<'a> {
    /// The state before the first step: the frontier is what the
    /// iteration found of each driving relation.
    fn new(
        plans: &[RulePlan],
        saturating: &'a [Saturating],
        fulls: &HashMap<Subgoal, &Bdd>,
        new: &HashMap<RelId, Bdd>,
    ) -> Self {
        // A rule that reads an empty relation in full derives nothing: it
        // is skipped before its first join (which may be the costly one).
        // (A complete rule also reads what the iteration found.)
        let mut empty_full = vec![false; plans.len()];
        for ((pi, _), b) in fulls {
            if b.is_false() && !saturating.iter().any(|s| s.plan == *pi && s.complete) {
                empty_full[*pi] = true;
            }
        }
        let mut others: Vec<Subgoal> = (saturating.iter())
            .filter_map(|s| s.other.map(|a| (s.plan, a)))
            .collect();
        others.sort_unstable();
        others.dedup();
        let driving: HashSet<RelId> = (saturating.iter())
            .map(|s| plans[s.plan].atoms[s.atom].rel)
            .collect();
        let frontier = (driving.iter())
            .filter_map(|rel| {
                (new.get(rel))
                    .filter(|n| !n.is_false())
                    .map(|n| (*rel, n.clone()))
            })
            .collect();
        Saturation {
            saturating,
            driving,
            others,
            empty_full,
            frontier,
            recent: HashMap::new(),
            new_prepared: HashMap::new(),
            recent_prepared: HashMap::new(),
            profile: SaturationEnd::default(),
        }
    }

    /// The frontier of each driving relation, cut into parts.
    fn cut_frontier(&self) -> HashMap<RelId, Vec<Bdd>> {
        (self.frontier.par_iter())
            .filter(|(rel, _)| self.driving.contains(rel))
            .map(|(rel, d)| (*rel, partition(d, PARALLEL_PARTS, PARALLEL_MIN_NODES)))
            .collect()
    }

    /// The step's jobs: each saturating rule that can derive something,
    /// with each part of its driving relation's frontier.
    fn jobs<'p>(&self, plans: &[RulePlan], parts: &'p HashMap<RelId, Vec<Bdd>>) -> Vec<Job<'p>> {
        (self.saturating.iter().enumerate())
            .filter(|(_, s)| !self.empty_full[s.plan])
            .flat_map(|(si, s)| {
                let rel = plans[s.plan].atoms[s.atom].rel;
                (parts.get(&rel).into_iter().flatten()).map(move |part| (si, part))
            })
            .collect()
    }

    /// Adds the step's frontier to `recent`, and folds `recent` into
    /// `new` where it has grown to a quarter of `new`'s size. Both are
    /// taken out of their maps, so that each `or` grows the larger
    /// operand's own nodes.
    fn fold(&mut self, plans: &[RulePlan], new: &mut HashMap<RelId, Bdd>, num_vars: u16) {
        let work: Vec<(RelId, &Bdd, Option<Bdd>, Option<Bdd>)> = (self.frontier.iter())
            .map(|(rel, x)| (*rel, x, self.recent.remove(rel), new.remove(rel)))
            .collect();
        let folds: Vec<(RelId, Bdd, Option<Bdd>, bool)> = work
            .into_par_iter()
            .map(|(rel, x, recent, base)| {
                let r = match recent {
                    Some(r) => bdd::or_into(r, x),
                    None => x.clone(),
                };
                if r.size() * 4 > base.as_ref().map_or(0, Bdd::size) {
                    let merged = match base {
                        Some(b) => bdd::or_into(b, &r),
                        None => r,
                    };
                    (rel, mk_false(num_vars), Some(merged), true)
                } else {
                    (rel, r, base, false)
                }
            })
            .collect();
        for (rel, r, base, folded) in folds {
            self.recent.insert(rel, r);
            if let Some(b) = base {
                new.insert(rel, b);
            }
            if folded {
                (self.new_prepared).retain(|&(pi, atom), _| plans[pi].atoms[atom].rel != rel);
            }
        }
    }
}

/// The next frontier: the step's results, united per head relation.
fn next_frontier(
    plans: &[RulePlan],
    saturating: &[Saturating],
    results: Vec<(usize, Bdd, Duration)>,
) -> HashMap<RelId, Bdd> {
    let mut parts: HashMap<RelId, Vec<Bdd>> = HashMap::new();
    for (si, r, _) in results {
        if !r.is_false() {
            let head = plans[saturating[si].plan].head_rel;
            parts.entry(head).or_default().push(r);
        }
    }
    (parts.into_par_iter())
        .filter_map(|(rel, parts)| {
            let union = parts.into_par_iter().reduce_with(bdd::or_owned)?;
            Some((rel, union))
        })
        .collect()
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
