//! Semi-naive evaluation of a checked program over BDD relations.
//!
//! Strata run in dependency order. A non-recursive stratum evaluates each
//! rule once. A recursive stratum keeps three versions of each of its
//! relations: `full` (all known), `delta` (new in the last iteration) and
//! `old` (`full` before the last iteration). Each iteration runs, for each
//! recursive rule, one variant per recursive subgoal: that subgoal reads
//! `delta`, the recursive subgoals before it read `old` and those after it
//! read `full`, so every derivation is computed once, from its newest tuple.
//! New tuples collect in a small per-relation accumulator; only once per
//! iteration is it diffed against and merged into the full relation, since
//! in biodivine each `or` costs the size of both operands.
//!
//! Between iterations, rules are saturated (Berndl et al.'s inner
//! propagation loop): they run on the new tuples of a subgoal, then on
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
//!
//! Variants and subgoal preparation run in parallel (rayon).

use super::error::{Error, ErrorKind, Result};
use super::planner::{plan_rule, RulePlan, Source, Step};
use super::program::{Literal, Program, RelId};
use super::stratify::{stratify, Stratum};
use crate::bdd::apply;
use crate::bdd::decode::{count, node_count};
use crate::bdd::layout::{DomainSpec, Layout, LayoutBuilder};
use crate::bdd::node_builder::{mk_false, mk_true};
use crate::bdd::partition::partition;
use crate::bdd::relprod::{exists, relprod};
use crate::bdd::rename::rename;
use biodivine_lib_bdd::{Bdd, BddVariable};
use num_bigint::BigUint;
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// Work counters for one rule.
#[derive(Clone, Debug, Default)]
pub struct RuleStats {
    /// Variant evaluations.
    pub evaluations: u64,
    /// Time spent in them (summed over threads).
    pub time: Duration,
    /// The largest result, in BDD nodes.
    pub max_nodes: usize,
}

/// Counters for a whole run.
#[derive(Clone, Debug, Default)]
pub struct SolveStats {
    /// Per rule, indexed like [`Program::rules`].
    pub rules: Vec<RuleStats>,
    /// Iterations per stratum, in evaluation order.
    pub iterations: Vec<u64>,
    /// Wall time of the solve.
    pub time: Duration,
}

/// A program with its relations as BDDs.
pub struct Solver {
    /// The program.
    pub prog: Program,
    /// The BDD variable layout.
    pub layout: Layout,
    /// Each relation's current contents.
    pub rels: Vec<Bdd>,
    strata: Vec<Stratum>,
    /// Work counters of the last solve.
    pub stats: SolveStats,
    /// When set, a running solve stops at the next iteration with a
    /// `Cancelled` error (an interactive user pressed Ctrl-C).
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Under `REFRACT_TRACE`: time and count per (rule, step), printed
    /// after the solve.
    step_profile: std::sync::Mutex<HashMap<(usize, String), (Duration, u64)>>,
}

impl Solver {
    /// Lays out the program's domains and stratifies it. Relations start empty.
    pub fn new(prog: Program) -> Result<Solver> {
        let specs: Vec<DomainSpec> = prog
            .domains
            .iter()
            .map(|d| DomainSpec {
                name: d.name.clone(),
                size: d.size,
            })
            .collect();
        let mut lb = LayoutBuilder::new(specs);
        for &(d, i) in &prog.allocation {
            lb.use_instance(d, i);
        }
        let layout = lb
            .build(prog.var_order.as_deref())
            .map_err(|e| Error::new(ErrorKind::Unsupported, e.to_string()))?;
        let strata = stratify(&prog)?;
        let nv = layout.num_vars();
        let rels = vec![mk_false(nv); prog.relations.len()];
        let stats = SolveStats {
            rules: vec![RuleStats::default(); prog.rules.len()],
            ..SolveStats::default()
        };
        Ok(Solver {
            prog,
            layout,
            rels,
            strata,
            stats,
            cancel: None,
            step_profile: Default::default(),
        })
    }

    /// The variable blocks of a relation's attributes, in attribute order.
    pub fn blocks(&self, rel: RelId) -> Vec<&[BddVariable]> {
        self.prog.relations[rel]
            .attrs
            .iter()
            .map(|a| {
                let id = self
                    .layout
                    .find_instance(a.domain, a.instance)
                    .expect("allocated");
                self.layout.instance(id).vars.as_slice()
            })
            .collect()
    }

    /// All BDD variables of a relation.
    pub fn rel_vars(&self, rel: RelId) -> Vec<BddVariable> {
        self.blocks(rel).concat()
    }

    /// The exact number of tuples in a relation.
    pub fn count(&self, rel: RelId) -> BigUint {
        count(&self.rels[rel], &self.rel_vars(rel))
    }

    /// The strata, in evaluation order.
    pub fn strata(&self) -> &[Stratum] {
        &self.strata
    }

    /// Evaluates every stratum to its fixpoint.
    pub fn solve(&mut self) -> Result<()> {
        self.solve_only(&|_| true)
    }

    /// Evaluates, in order, only the strata holding a relation for which
    /// `affected` holds (and whose inputs are therefore unchanged
    /// otherwise): an interactive session adding a rule re-runs only what
    /// depends on it.
    pub fn solve_only(&mut self, affected: &dyn Fn(RelId) -> bool) -> Result<()> {
        let start = Instant::now();
        self.stats.iterations.clear();
        let mut si = 0;
        while si < self.strata.len() {
            self.check_cancel()?;
            // Independent non-recursive strata (the per-call copies of the
            // facts, say) run side by side.
            let end = self.independent_run(si);
            if end > si + 1 {
                let group: Vec<Stratum> = self.strata[si..end]
                    .iter()
                    .filter(|st| st.relations.iter().any(|&r| affected(r)))
                    .cloned()
                    .collect();
                let outs = group
                    .par_iter()
                    .map(|st| self.run_exit_rules(st))
                    .collect::<Result<Vec<_>>>()?;
                for (plans, _, results) in outs {
                    for (rel, r) in self.collect_exits(&plans, results) {
                        self.rels[rel] = apply::or(&self.rels[rel], &r);
                    }
                    self.stats.iterations.push(1);
                }
                si = end;
                continue;
            }
            if self.strata[si].relations.iter().any(|&r| affected(r)) {
                let stratum = self.strata[si].clone();
                let iters = self.solve_stratum(&stratum)?;
                self.stats.iterations.push(iters);
            }
            si += 1;
        }
        self.stats.time = start.elapsed();
        if tracing() {
            let mut order: Vec<usize> = (0..self.prog.rules.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(self.stats.rules[i].time));
            for i in order.into_iter().take(12) {
                let s = &self.stats.rules[i];
                eprintln!(
                    "[trace] rule total {:.3}s, {} evaluations, max {}n: {}",
                    s.time.as_secs_f64(),
                    s.evaluations,
                    s.max_nodes,
                    self.prog.rules[i].text
                );
            }
            self.print_step_totals(40);
            self.step_profile
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clear();
        }
        Ok(())
    }

    /// Prints the trace's `top` largest step totals so far.
    fn print_step_totals(&self, top: usize) {
        let profile = self.step_profile.lock().unwrap_or_else(|e| e.into_inner());
        let mut steps: Vec<_> = profile.iter().collect();
        steps.sort_by_key(|(_, (t, _))| std::cmp::Reverse(*t));
        for ((rule, step), (t, n)) in steps.into_iter().take(top) {
            eprintln!(
                "[trace] step total {:.3}s, {n} runs: {step} in {}",
                t.as_secs_f64(),
                self.prog.rules[*rule].text
            );
        }
    }

    /// Plans a stratum's rules, prepares their static parts and runs the
    /// rules without a recursive subgoal (all of them, in a non-recursive
    /// stratum). Returns the plans, the static parts and each such rule's
    /// result (plan index, result, time).
    #[allow(clippy::type_complexity)]
    fn run_exit_rules(
        &self,
        stratum: &Stratum,
    ) -> Result<(Vec<RulePlan>, Vec<Prepared>, Vec<(usize, Bdd, Duration)>)> {
        let dynamic: HashSet<RelId> = stratum.relations.iter().copied().collect();
        let plans: Vec<RulePlan> = stratum
            .rules
            .iter()
            .map(|&ri| plan_rule(&self.prog, &self.layout, ri, &dynamic))
            .filter(|p| p.satisfiable)
            .collect();
        if tracing() {
            let rels: Vec<&str> = stratum
                .relations
                .iter()
                .map(|r| self.prog.relations[*r].name.as_str())
                .collect();
            eprintln!("[trace] stratum {} ({} rules)", rels.join(" "), plans.len());
        }
        // Static factors and negations are prepared once for the stratum.
        let statics: Vec<Prepared> = plans
            .par_iter()
            .map(|p| {
                let t = Instant::now();
                let r = self.prepare_static(p);
                if tracing() {
                    eprintln!(
                        "[trace]   static part {:.3}s: {}",
                        t.elapsed().as_secs_f64(),
                        self.prog.rules[p.rule].text
                    );
                }
                r
            })
            .collect::<Result<_>>()?;

        // Rules with no recursive subgoal run once.
        let exits: Vec<usize> = (0..plans.len())
            .filter(|&i| !plans[i].is_recursive())
            .collect();
        let results: Vec<(usize, Bdd, Duration)> = exits
            .par_iter()
            .map(|&i| {
                let t = Instant::now();
                let r = self.run_variant(&plans[i], 0, &statics[i], &HashMap::new())?;
                Ok((i, r, t.elapsed()))
            })
            .collect::<Result<_>>()?;
        Ok((plans, statics, results))
    }

    /// Records the results of [`Self::run_exit_rules`]: their statistics,
    /// and their union per head relation.
    fn collect_exits(
        &mut self,
        plans: &[RulePlan],
        results: Vec<(usize, Bdd, Duration)>,
    ) -> HashMap<RelId, Bdd> {
        let mut fresh: HashMap<RelId, Bdd> = HashMap::new();
        for (i, r, dt) in results {
            if tracing() {
                eprintln!(
                    "[trace] {:.3}s {}n {}",
                    dt.as_secs_f64(),
                    r.size(),
                    self.prog.rules[plans[i].rule].text
                );
            }
            self.record(&plans[i], &r, dt);
            accumulate(&mut fresh, plans[i].head_rel, r);
        }
        fresh
    }

    /// The end of the run of strata from `start` that are not recursive
    /// and read nothing another of them defines: they can be evaluated
    /// side by side.
    fn independent_run(&self, start: usize) -> usize {
        let mut defined: HashSet<RelId> = HashSet::new();
        let mut end = start;
        while let Some(st) = self.strata.get(end) {
            let reads_group = st.rules.iter().any(|&r| {
                self.prog.rules[r].body.iter().any(|l| match l {
                    Literal::Pos(a) | Literal::Neg(a) => defined.contains(&a.rel),
                    Literal::Cmp { .. } => false,
                })
            });
            if st.recursive || reads_group {
                break;
            }
            defined.extend(st.relations.iter().copied());
            end += 1;
        }
        end
    }

    fn solve_stratum(&mut self, stratum: &Stratum) -> Result<u64> {
        let (plans, statics, results) = self.run_exit_rules(stratum)?;
        let mut fresh = self.collect_exits(&plans, results);
        if !stratum.recursive {
            for (rel, r) in fresh {
                self.rels[rel] = apply::or(&self.rels[rel], &r);
            }
            return Ok(1);
        }

        // Semi-naive iteration.
        let nv = self.layout.num_vars();
        let mut old: HashMap<RelId, Bdd> = HashMap::new();
        let mut delta: HashMap<RelId, Bdd> = HashMap::new();
        for &rel in &stratum.relations {
            if let Some(r) = fresh.remove(&rel) {
                self.rels[rel] = apply::or(&self.rels[rel], &r);
            }
            old.insert(rel, mk_false(nv));
            delta.insert(rel, self.rels[rel].clone());
        }
        let recursive: Vec<usize> = (0..plans.len())
            .filter(|&i| plans[i].is_recursive())
            .collect();
        let saturating = saturating_rules(&plans, &recursive);
        // Whether the last iteration's new tuples were saturated.
        let mut saturated = false;
        let mut iterations = 0;
        while delta.values().any(|d| !d.is_false()) {
            self.check_cancel()?;
            iterations += 1;
            let iteration_start = Instant::now();
            // Which (rule, variant) pairs can produce anything.
            let mut jobs: Vec<(usize, usize)> = Vec::new();
            for &pi in &recursive {
                let p = &plans[pi];
                for (vi, v) in p.variants.iter().enumerate() {
                    if saturated && saturating.iter().any(|s| s.redundant(pi)) {
                        continue;
                    }
                    let live = v.steps.iter().all(|s| match s {
                        Step::Join { factor, source, .. }
                            if p.atoms[p.factors[*factor].atom].dynamic =>
                        {
                            let rel = p.atoms[p.factors[*factor].atom].rel;
                            match source {
                                Source::Delta => !delta[&rel].is_false(),
                                Source::Old => !old[&rel].is_false(),
                                Source::Full => !self.rels[rel].is_false(),
                            }
                        }
                        _ => true,
                    });
                    if live {
                        jobs.push((pi, vi));
                    }
                }
            }
            // Prepare every dynamic subgoal version the jobs read, once.
            let mut needed: Vec<(usize, usize, Source)> = Vec::new();
            for &(pi, vi) in &jobs {
                let p = &plans[pi];
                for s in &p.variants[vi].steps {
                    if let Step::Join { factor, source, .. } = s {
                        let atom = p.factors[*factor].atom;
                        if p.atoms[atom].dynamic && !needed.contains(&(pi, atom, *source)) {
                            needed.push((pi, atom, *source));
                        }
                    }
                }
            }
            let prepared: Vec<((usize, usize, Source), Bdd)> = needed
                .par_iter()
                .map(|&(pi, atom, source)| {
                    let rel = plans[pi].atoms[atom].rel;
                    let bdd = match source {
                        Source::Full => &self.rels[rel],
                        Source::Old => &old[&rel],
                        Source::Delta => &delta[&rel],
                    };
                    Ok((
                        (pi, atom, source),
                        self.prepare_atom(&plans[pi].atoms[atom], bdd)?,
                    ))
                })
                .collect::<Result<_>>()?;
            let prepared: HashMap<(usize, usize, Source), Bdd> = prepared.into_iter().collect();
            let results: Vec<(usize, Bdd, Duration)> = jobs
                .par_iter()
                .map(|&(pi, vi)| {
                    let t = Instant::now();
                    let dyns: HashMap<(usize, Source), &Bdd> = prepared
                        .iter()
                        .filter(|((p, _, _), _)| *p == pi)
                        .map(|((_, a, s), b)| ((*a, *s), b))
                        .collect();
                    let r = self.run_variant(&plans[pi], vi, &statics[pi], &dyns)?;
                    Ok((pi, r, t.elapsed()))
                })
                .collect::<Result<_>>()?;
            if tracing() {
                let mut slow: Vec<&(usize, Bdd, Duration)> = results.iter().collect();
                slow.sort_by_key(|(_, _, dt)| std::cmp::Reverse(*dt));
                for (pi, r, dt) in slow.into_iter().take(3) {
                    if dt.as_millis() >= 200 {
                        eprintln!(
                            "[trace]     {:.3}s {}n {}",
                            dt.as_secs_f64(),
                            r.size(),
                            self.prog.rules[plans[*pi].rule].text
                        );
                    }
                }
            }
            let mut acc: HashMap<RelId, Bdd> = HashMap::new();
            for (pi, r, dt) in results {
                self.record(&plans[pi], &r, dt);
                accumulate(&mut acc, plans[pi].head_rel, r);
            }
            // new = acc − full, grown by saturation; then old = full and
            // full = full ∪ new.
            let merge_start = Instant::now();
            let mut new: HashMap<RelId, Bdd> = acc
                .into_par_iter()
                .map(|(rel, a)| {
                    let n = apply::and_not(&a, &self.rels[rel]);
                    (rel, n)
                })
                .collect();
            let saturate_start = Instant::now();
            let inner = self.saturate(&plans, &statics, &saturating, &mut new)?;
            saturated = !saturating.is_empty();
            let saturate_time = saturate_start.elapsed();
            let merged: Vec<(RelId, Bdd, Bdd)> = stratum
                .relations
                .par_iter()
                .map(|&rel| {
                    let full = &self.rels[rel];
                    match new.get(&rel) {
                        Some(n) if !n.is_false() => (rel, n.clone(), apply::or(full, n)),
                        _ => (rel, mk_false(nv), full.clone()),
                    }
                })
                .collect();
            if tracing() {
                let sizes: Vec<String> = merged
                    .iter()
                    .filter(|(_, new, _)| !new.is_false())
                    .map(|(rel, new, next)| {
                        format!(
                            "{} +{}n/{}n",
                            self.prog.relations[*rel].name,
                            new.size(),
                            next.size()
                        )
                    })
                    .collect();
                eprintln!(
                    "[trace] iteration {iterations} ({:.3}s, merge {:.3}s, saturation {inner} steps {:.3}s): {}",
                    iteration_start.elapsed().as_secs_f64(),
                    (merge_start.elapsed() - saturate_time).as_secs_f64(),
                    saturate_time.as_secs_f64(),
                    sizes.join(", ")
                );
            }
            // Long runs show where the time goes as they go.
            if tracing() && iterations % 25 == 0 {
                self.print_step_totals(10);
            }
            for (rel, new, next) in merged {
                let prev = std::mem::replace(&mut self.rels[rel], next);
                old.insert(rel, prev);
                delta.insert(rel, new);
            }
        }
        Ok(iterations)
    }

    /// Runs the saturating rules on the iteration's `new` tuples of their
    /// driving relations, then on what that adds, until nothing is added;
    /// everything found joins `new`. Other subgoals read the full
    /// relations as they stand (the pre-merge state the next iteration
    /// calls `old`), and those of complete rules also what saturation
    /// found so far. Returns the number of inner steps.
    fn saturate(
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
        let fulls: HashMap<(usize, usize), Bdd> = needed
            .par_iter()
            .map(|&(pi, atom)| {
                let a = &plans[pi].atoms[atom];
                let t = Instant::now();
                let b = self.prepare_atom(a, &self.rels[a.rel])?;
                if tracing() {
                    self.note_step(plans[pi].rule, "prepare full".into(), t.elapsed());
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
                        Some(n) => self.prepare_atom(a, n)?,
                        None => mk_false(nv),
                    };
                    Ok(((pi, atom), b))
                })
                .collect::<Result<_>>()?;
            new_prepared.extend(fresh);
            let recent_prepared: HashMap<(usize, usize), Bdd> = others
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
                    if tracing() {
                        self.note_step(p.rule, "prepare delta".into(), t.elapsed());
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
                                fulls.get(&key),
                                new_prepared_now.get(&key),
                                recent_prepared_now.get(&key),
                            ];
                            let mut acc = mk_false(nv);
                            for (label, part) in ["full", "new", "recent"].iter().zip(parts) {
                                let Some(part) = part.filter(|b| !b.is_false()) else {
                                    continue;
                                };
                                dyns.insert((other, Source::Full), part);
                                let t = Instant::now();
                                let r = self.run_steps(p, &s.steps, &statics[s.plan], &dyns)?;
                                if tracing() && t.elapsed() >= trace_threshold() {
                                    eprintln!(
                                        "[trace]       job {:.3}s: delta {} ({}n), {label} {} ({}n)",
                                        t.elapsed().as_secs_f64(),
                                        self.prog.relations[p.atoms[s.atom].rel].name,
                                        delta.size(),
                                        self.prog.relations[p.atoms[other].rel].name,
                                        part.size()
                                    );
                                }
                                acc = apply::or(&acc, &r);
                            }
                            acc
                        }
                    };
                    // What is known already goes here, on the job's thread.
                    let head = p.head_rel;
                    r = apply::and_not(&r, &self.rels[head]);
                    for known in [known.get(&head), recent_now.get(&head)]
                        .into_iter()
                        .flatten()
                    {
                        r = apply::and_not(&r, known);
                    }
                    Ok((si, r, t.elapsed()))
                })
                .collect::<Result<_>>()?;
            profile.jobs_wall += jobs_start.elapsed();
            let post_start = Instant::now();
            let mut parts: HashMap<RelId, Vec<Bdd>> = HashMap::new();
            for (si, r, dt) in results {
                profile.jobs_cpu += dt;
                self.record_rule(plans[saturating[si].plan].rule, &r, dt);
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
                    let union = parts
                        .into_par_iter()
                        .reduce_with(|a, b| apply::or(&a, &b))?;
                    Some((rel, union))
                })
                .collect();
            // `new` is kept as a base and a recent part, which absorbs each
            // step's tuples and is folded into the base once it holds a
            // quarter of its size: a step costs the recent part's size,
            // not all of `new`'s.
            let folds: Vec<(RelId, Bdd, Option<Bdd>)> = frontier
                .par_iter()
                .map(|(rel, x)| {
                    let r = recent
                        .get(rel)
                        .map_or_else(|| x.clone(), |r| apply::or(r, x));
                    let base = new.get(rel).map_or(0, |b| b.size());
                    if r.size() * 4 > base {
                        let merged = new.get(rel).map_or_else(|| r.clone(), |b| apply::or(b, &r));
                        (*rel, mk_false(nv), Some(merged))
                    } else {
                        (*rel, r, None)
                    }
                })
                .collect();
            for (rel, r, merged) in folds {
                recent.insert(rel, r);
                if let Some(m) = merged {
                    new.insert(rel, m);
                    new_prepared.retain(|&(pi, atom), _| plans[pi].atoms[atom].rel != rel);
                }
            }
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
                "[trace]   saturation: preparing {:.3}s; joins {:.3}s wall, {:.3}s summed; merging {:.3}s",
                profile.prepare_wall.as_secs_f64(),
                profile.jobs_wall.as_secs_f64(),
                profile.jobs_cpu.as_secs_f64(),
                profile.post_wall.as_secs_f64()
            );
        }
        Ok(steps)
    }

    fn check_cancel(&self) -> Result<()> {
        match &self.cancel {
            Some(flag) if flag.load(std::sync::atomic::Ordering::Relaxed) => {
                Err(Error::new(ErrorKind::Cancelled, "cancelled (Ctrl-C)"))
            }
            _ => Ok(()),
        }
    }

    fn record(&mut self, plan: &RulePlan, result: &Bdd, dt: Duration) {
        self.record_rule(plan.rule, result, dt);
    }

    fn record_rule(&mut self, rule: usize, result: &Bdd, dt: Duration) {
        let s = &mut self.stats.rules[rule];
        s.evaluations += 1;
        s.time += dt;
        s.max_nodes = s.max_nodes.max(node_count(result));
    }

    /// A relation version turned into a subgoal over variable homes.
    fn prepare_atom(&self, a: &super::planner::AtomPlan, bdd: &Bdd) -> Result<Bdd> {
        let mut b = if a.restrict.is_empty() {
            bdd.clone()
        } else {
            bdd.restrict(&a.restrict)
        };
        b = match &a.equal {
            Some(eq) => relprod(&b, eq, &a.quantify),
            None => exists(&b, &a.quantify),
        };
        rename(&b, &a.rename).map_err(|e| {
            Error::new(
                ErrorKind::Unsupported,
                format!("internal rename error: {e}"),
            )
        })
    }

    fn prepare_static(&self, p: &RulePlan) -> Result<Prepared> {
        let mut negs = Vec::new();
        for n in &p.negs {
            negs.push(self.prepare_atom(n, &self.rels[n.rel])?);
        }
        let mut factors = Vec::new();
        for f in &p.factors {
            let a = &p.atoms[f.atom];
            if a.dynamic {
                factors.push(None);
                continue;
            }
            let mut b = self.prepare_atom(a, &self.rels[a.rel])?;
            if tracing() && !a.rename.is_empty() {
                let moves: Vec<String> = self.prog.relations[a.rel]
                    .attrs
                    .iter()
                    .filter_map(|at| {
                        let id = self.layout.find_instance(at.domain, at.instance)?;
                        let first = self.layout.instance(id).vars.first()?;
                        let to = a.rename.iter().find(|(from, _)| from == first)?.1;
                        let home = self
                            .layout
                            .instances()
                            .iter()
                            .find(|i| i.vars.first() == Some(&to))?;
                        Some(format!(
                            "{}{} -> {}",
                            self.prog.domains[at.domain].name, at.instance, home.name
                        ))
                    })
                    .collect();
                eprintln!(
                    "[trace]     renames {} ({}) in {}",
                    self.prog.relations[a.rel].name,
                    moves.join(", "),
                    self.prog.rules[p.rule].text
                );
            }
            if let Some(r) = &f.extra_range {
                b = apply::and(&b, r);
            }
            for &c in &f.cmps {
                b = apply::and(&b, &p.cmps[c].bdd);
            }
            for &n in &f.negs {
                b = apply::and_not(&b, &negs[n]);
            }
            factors.push(Some(b));
        }
        Ok(Prepared { factors, negs })
    }

    /// Runs one variant and maps its result into the head relation.
    fn run_variant(
        &self,
        p: &RulePlan,
        vi: usize,
        statics: &Prepared,
        dynamics: &HashMap<(usize, Source), &Bdd>,
    ) -> Result<Bdd> {
        self.run_steps(p, &p.variants[vi].steps, statics, dynamics)
    }

    /// Runs a rule's joins and maps the result into the head relation.
    fn run_steps(
        &self,
        p: &RulePlan,
        steps: &[Step],
        statics: &Prepared,
        dynamics: &HashMap<(usize, Source), &Bdd>,
    ) -> Result<Bdd> {
        let nv = self.layout.num_vars();
        let mut result = mk_true(nv);
        for step in steps {
            let t = Instant::now();
            let before = if tracing() { result.size() } else { 0 };
            result = match step {
                Step::Join {
                    factor,
                    source,
                    quantify,
                } => {
                    let f = &p.factors[*factor];
                    let operand: &Bdd = match &statics.factors[*factor] {
                        Some(b) => b,
                        None => dynamics.get(&(f.atom, *source)).copied().ok_or_else(|| {
                            Error::new(
                                ErrorKind::Unsupported,
                                "internal error: missing prepared subgoal",
                            )
                        })?,
                    };
                    if result.is_true() {
                        exists(operand, quantify)
                    } else {
                        relprod(&result, operand, quantify)
                    }
                }
                Step::AndNot(n) => apply::and_not(&result, &statics.negs[*n]),
                Step::And(c) => apply::and(&result, &p.cmps[*c].bdd),
                Step::Exists(q) => exists(&result, q),
            };
            if tracing() {
                let name = match step {
                    Step::Join { factor, source, .. } => format!(
                        "join {:?} {}",
                        source, self.prog.relations[p.atoms[p.factors[*factor].atom].rel].name
                    ),
                    other => format!("{other:?}").chars().take(20).collect(),
                };
                self.note_step(p.rule, name, t.elapsed());
            }
            if tracing() && t.elapsed() >= trace_threshold() {
                let operand = match step {
                    Step::Join { factor, source, .. } => format!(
                        "{:?} {} ({}n)",
                        source,
                        self.prog.relations[p.atoms[p.factors[*factor].atom].rel].name,
                        statics.factors[*factor]
                            .as_ref()
                            .or_else(|| dynamics.get(&(p.factors[*factor].atom, *source)).copied())
                            .map_or(0, |b| b.size())
                    ),
                    other => format!("{other:?}").chars().take(40).collect(),
                };
                eprintln!(
                    "[trace]       step {:.3}s {}n -> {}n: {operand} in {}",
                    t.elapsed().as_secs_f64(),
                    before,
                    result.size(),
                    self.prog.rules[p.rule].text
                );
            }
            if result.is_false() {
                return Ok(result);
            }
        }
        let t = Instant::now();
        let mut out = rename(&result, &p.head.rename).map_err(|e| {
            Error::new(
                ErrorKind::Unsupported,
                format!("internal rename error: {e}"),
            )
        })?;
        if let Some(extra) = &p.head.extra {
            out = apply::and(&out, extra);
        }
        if tracing() {
            self.note_step(p.rule, "head".into(), t.elapsed());
        }
        Ok(out)
    }

    /// Adds `dt` to the trace's total for `step` of `rule`.
    fn note_step(&self, rule: usize, step: String, dt: Duration) {
        let mut profile = self.step_profile.lock().unwrap_or_else(|e| e.into_inner());
        let e = profile.entry((rule, step)).or_default();
        e.0 += dt;
        e.1 += 1;
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
struct Saturating {
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
    fn redundant(&self, pi: usize) -> bool {
        self.complete && self.plan == pi
    }
}

/// Rules with at most this many subgoals over the stratum saturate
/// completely (see [`Saturating`]); each other subgoal costs a join per
/// part of what is known (full, found this iteration, found last step).
const COMPLETE_MAX_DYNAMIC: usize = 2;

/// The stratum's rules that saturate (see [`Saturating`]).
fn saturating_rules(plans: &[RulePlan], recursive: &[usize]) -> Vec<Saturating> {
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

/// Subgoals of one rule prepared once per stratum.
struct Prepared {
    /// Per factor: its BDD if static (dynamic ones are prepared per iteration).
    factors: Vec<Option<Bdd>>,
    /// Negated subgoals.
    negs: Vec<Bdd>,
}

fn accumulate(acc: &mut HashMap<RelId, Bdd>, rel: RelId, r: Bdd) {
    if r.is_false() {
        return;
    }
    match acc.get_mut(&rel) {
        Some(a) => *a = apply::or(a, &r),
        None => {
            acc.insert(rel, r);
        }
    }
}

/// The shortest join step the trace prints: `REFRACT_TRACE_MS`
/// milliseconds, 100 by default.
fn trace_threshold() -> Duration {
    static MS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    Duration::from_millis(*MS.get_or_init(|| {
        std::env::var("REFRACT_TRACE_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(100)
    }))
}

/// Whether `REFRACT_TRACE` asks for a trace of the evaluation on stderr.
fn tracing() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("REFRACT_TRACE").is_some())
}
