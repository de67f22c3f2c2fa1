//! Semi-naive evaluation of a checked program over BDD relations.
//!
//! Strata run in dependency order. A non-recursive stratum evaluates each
//! rule once. A recursive stratum keeps three versions of each of its
//! relations: `full` (all known), `delta` (new in the last iteration) and
//! `old` (`full` before the last iteration). Each iteration runs, for each
//! recursive rule, one variant per recursive subgoal: that subgoal reads
//! `delta`, the recursive subgoals before it read `old` and those after it
//! read `full`, so every derivation is computed once, from its newest tuple.
//! `old` is kept only for relations that a variant still running after
//! saturation reads so (see `reads_old`); the others grow in place.
//! New tuples collect in a small per-relation accumulator; only once per
//! iteration is it diffed against and merged into the full relation, since
//! in biodivine each `or` costs the size of both operands.
//!
//! Between iterations, rules are saturated: an inner loop runs them on
//! their new input until nothing is added ([`saturation`]), so that a
//! chain of copies, calls or hand-offs costs inner steps, not outer
//! iterations.
//!
//! Variants and subgoal preparation run in parallel (rayon).

mod retire;
mod saturation;
mod statics;

use super::error::{Error, ErrorKind, Result};
use super::numbering::{self, NumberingInput};
use super::observer::{Growth, IterationEnd, Observer, RuleTotal, StepEnd, StepKind, StratumStart};
use super::planner::{plan_rule, RulePlan, Source, Step};
use super::program::{Literal, Program, RelId};
use super::stratify::{stratify, Stratum};
use crate::bdd::{
    self, count, exists, mk_false, mk_true, node_count, relprod, rename, rename_owned, Bdd,
    BddVariable, DomainSpec, Layout, LayoutBuilder, MergeTable,
};
use num_bigint::BigUint;
use rayon::prelude::*;
use saturation::{saturating_rules, FullsKept, Saturating};
use statics::{Prepared, PreparedAtoms};
use std::borrow::Cow;
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
    /// Per `number` rule evaluated: the rule, and the largest number of
    /// contexts it gave a node.
    pub numberings: Vec<(usize, u128)>,
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
    /// The files input relations were read from (with the `bddinfo`
    /// files that numbered them), which writing outputs must not replace.
    pub inputs_read: Vec<std::path::PathBuf>,
    /// Under `--trace`, the running solve's trace.
    trace: Option<std::sync::Arc<crate::trace::TraceObserver>>,
    /// Whether an observer of the running solve wants its steps.
    steps_wanted: bool,
    /// Told of each stratum and iteration as the solve goes (the command
    /// line's progress line).
    pub observer: Option<std::sync::Arc<dyn Observer>>,
    /// When the running solve began.
    solve_start: Instant,
    /// The static subgoals prepared so far in the running solve.
    prepared_atoms: PreparedAtoms,
    /// Relations freed once final ([`Self::retire_final_relations`]).
    retiring: Option<retire::Retiring>,
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
        if let Some(r) = (strata.iter().filter(|st| st.recursive))
            .flat_map(|st| &st.rules)
            .find(|&&r| prog.rules[r].number)
        {
            return Err(Error::at(
                &prog.rules[*r].loc,
                ErrorKind::Unsupported,
                "a numbering rule cannot be recursive: the graph it numbers must be complete before it runs",
            ));
        }
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
            inputs_read: Vec::new(),
            trace: None,
            steps_wanted: false,
            observer: None,
            solve_start: Instant::now(),
            prepared_atoms: PreparedAtoms::default(),
            retiring: None,
        })
    }

    /// The variable blocks of a relation's attributes, in attribute order.
    pub fn blocks(&self, rel: RelId) -> Vec<&[BddVariable]> {
        self.prog.relations[rel]
            .attrs
            .iter()
            .map(|a| {
                self.layout
                    .instance(a.instance_in(&self.layout))
                    .vars
                    .as_slice()
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

    /// Evaluates, in order, only the rules whose heads are relations for
    /// which `affected` holds: an interactive session adding a rule re-runs
    /// only what depends on it. In a stratum, the relations that are not
    /// affected are read as they stand, like those of earlier strata: a
    /// relation the database does not store is computed from the stored
    /// ones of its stratum, which are at their fixpoint, without deriving
    /// those again. (When a stored relation is affected, so is everything
    /// of its stratum that depends on it, which is the whole component.)
    pub fn solve_only(&mut self, affected: &dyn Fn(RelId) -> bool) -> Result<()> {
        self.prepared_atoms.clear();
        self.trace = tracing().then(Default::default);
        let steps_wanted = self.observers().any(|o| o.wants_steps());
        self.steps_wanted = steps_wanted;
        let solved = self.solve_strata(affected);
        self.prepared_atoms.clear();
        if solved.is_ok() {
            self.report_solve_end();
        }
        self.trace = None;
        solved
    }

    /// The observers of the running solve: the user's, and the trace's
    /// under `--trace`.
    fn observers(&self) -> impl Iterator<Item = &dyn Observer> {
        let trace = self.trace.as_deref().map(|t| t as &dyn Observer);
        self.observer.as_deref().into_iter().chain(trace)
    }

    /// Tells the observers that want them of a step that ended.
    fn report_step(&self, end: &StepEnd) {
        for o in self.observers().filter(|o| o.wants_steps()) {
            o.step_ended(end);
        }
    }

    /// Tells the observers that the solve ended, with each rule's totals.
    fn report_solve_end(&self) {
        let rules: Vec<RuleTotal> = (self.prog.rules.iter())
            .zip(&self.stats.rules)
            .map(|(rule, s)| RuleTotal {
                rule_text: &rule.text,
                evaluations: s.evaluations,
                time: s.time,
                max_nodes: s.max_nodes,
            })
            .collect();
        for o in self.observers() {
            o.solve_ended(&rules);
        }
    }

    /// The body of [`Self::solve_only`]: every stratum in order.
    fn solve_strata(&mut self, affected: &dyn Fn(RelId) -> bool) -> Result<()> {
        let start = Instant::now();
        self.solve_start = start;
        self.stats.iterations.clear();
        self.stats.numberings.clear();
        // Prepared subgoals are kept until the last stratum that reads
        // their relation has run. Kept to the end of the solve, they were
        // 50.1 million nodes (about 600 MB) at the quick start's end.
        let last_read = self.last_readers();
        let derived_in = self.deriving_strata();
        let mut si = 0;
        while si < self.strata.len() {
            if si > 0 {
                (self.prepared_atoms).forget(|rel| last_read[rel].is_none_or(|last| last < si));
                self.retire_before(si, &derived_in, &last_read)?;
            }
            self.check_cancel()?;
            // Independent non-recursive strata (the per-call copies of the
            // facts, say) run side by side.
            let end = self.independent_run(si);
            if end > si + 1 {
                let group: Vec<Stratum> = self.strata[si..end]
                    .iter()
                    .filter_map(|st| self.restrict(st, affected))
                    .collect();
                if let Some(first) = group.first() {
                    self.report_stratum(si, first);
                }
                let outs = crate::interrupt::catch(|| {
                    group
                        .par_iter()
                        .map(|st| self.run_exit_rules(st))
                        .collect::<Result<Vec<_>>>()
                })
                .map_err(|why| self.interrupted(why, &group))??;
                for (plans, _, results) in outs {
                    for (rel, r) in self.collect_exits(&plans, results) {
                        self.rels[rel] = bdd::or(&self.rels[rel], &r);
                    }
                    self.stats.iterations.push(1);
                }
                for st in &group {
                    self.apply_numbering(st)?;
                }
                si = end;
                continue;
            }
            if let Some(stratum) = self.restrict(&self.strata[si], affected) {
                self.report_stratum(si, &stratum);
                let iters = crate::interrupt::catch(|| self.solve_stratum(&stratum, si))
                    .map_err(|why| self.interrupted(why, std::slice::from_ref(&stratum)))??;
                self.stats.iterations.push(iters);
            }
            si += 1;
        }
        self.stats.time = start.elapsed();
        Ok(())
    }

    /// For each relation, the last stratum (by index) with a rule that
    /// reads it, if any.
    fn last_readers(&self) -> Vec<Option<usize>> {
        let mut last = vec![None; self.prog.relations.len()];
        for (si, st) in self.strata.iter().enumerate() {
            for &ri in &st.rules {
                for l in &self.prog.rules[ri].body {
                    if let Literal::Pos(a) | Literal::Neg(a) = l {
                        last[a.rel] = Some(si);
                    }
                }
            }
        }
        last
    }

    /// Tells the observer that stratum `index` (from 0) begins.
    fn report_stratum(&self, index: usize, stratum: &Stratum) {
        if let Some(observer) = &self.observer {
            let names: Vec<&str> = (stratum.relations.iter())
                .map(|&r| self.prog.relations[r].name.as_str())
                .collect();
            observer.stratum_started(&StratumStart {
                stratum: index + 1,
                strata: self.strata.len(),
                relations: &names,
                recursive: stratum.recursive,
                elapsed: self.solve_start.elapsed(),
            });
        }
    }

    /// Tells the observers (the user's, and the trace's under `--trace`)
    /// that an iteration of stratum `index` ended, with the relations
    /// that grew (of `relations`, those whose `versions` hold a delta;
    /// their full versions are merged) and where its time went.
    fn report_iteration(
        &self,
        index: usize,
        iteration: u64,
        relations: &[RelId],
        versions: &HashMap<RelId, Versions>,
        times: IterationTimes,
    ) {
        let observers: Vec<&dyn Observer> = self.observers().collect();
        if observers.is_empty() {
            return;
        }
        let growing: Vec<Growth> = (relations.iter())
            .filter(|rel| !versions[*rel].delta.is_false())
            .map(|&rel| Growth {
                relation: self.prog.relations[rel].name.as_str(),
                new_nodes: versions[&rel].delta.size(),
                // Without what the merges left behind (see `bdd::MergeTable`).
                nodes: bdd::live_size(&self.rels[rel]),
            })
            .collect();
        let end = IterationEnd {
            stratum: index + 1,
            strata: self.strata.len(),
            iteration,
            growing: &growing,
            time: times.total,
            merge: times.merge,
            saturation: times.saturation,
            saturation_steps: times.saturation_steps,
            elapsed: self.solve_start.elapsed(),
        };
        for observer in observers {
            observer.iteration_ended(&end);
        }
    }

    /// The part of stratum `st` that derives affected relations: their
    /// rules, with the others of the stratum read as static. `None` when
    /// nothing of it is affected.
    fn restrict(&self, st: &Stratum, affected: &dyn Fn(RelId) -> bool) -> Option<Stratum> {
        let relations: Vec<RelId> = st
            .relations
            .iter()
            .copied()
            .filter(|&r| affected(r))
            .collect();
        if relations.is_empty() {
            return None;
        }
        if relations.len() == st.relations.len() {
            return Some(st.clone());
        }
        let rules: Vec<usize> = st
            .rules
            .iter()
            .copied()
            .filter(|&ri| affected(self.prog.rules[ri].head.rel))
            .collect();
        let recursive = rules.iter().any(|&ri| {
            self.prog.rules[ri].body.iter().any(|l| match l {
                Literal::Pos(a) | Literal::Neg(a) => relations.contains(&a.rel),
                Literal::Cmp { .. } => false,
            })
        });
        Some(Stratum {
            relations,
            rules,
            recursive,
        })
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
        // Relations of earlier strata are final here: those that came out
        // empty drop their negations, and the rules that read them; the
        // large ones stay in their layout where they can.
        let complete: HashSet<RelId> = (stratum.rules.iter())
            .flat_map(|&ri| &self.prog.rules[ri].body)
            .filter_map(|l| match l {
                Literal::Pos(a) | Literal::Neg(a) => Some(a.rel),
                Literal::Cmp { .. } => None,
            })
            .filter(|r| !dynamic.contains(r))
            .collect();
        let empty: HashSet<RelId> = (complete.iter().copied())
            .filter(|&r| self.rels[r].is_false())
            .collect();
        let large: HashSet<RelId> = (complete.into_iter())
            .filter(|&r| self.rels[r].size() >= LARGE_STATIC)
            .collect();
        let plans: Vec<RulePlan> = stratum
            .rules
            .iter()
            .filter(|&&ri| !self.prog.rules[ri].number)
            .map(|&ri| plan_rule(&self.prog, &self.layout, ri, &dynamic, &empty, &large))
            .filter(|p| p.satisfiable)
            .collect();
        if tracing() {
            let rels: Vec<&str> = stratum
                .relations
                .iter()
                .map(|r| self.prog.relations[*r].name.as_str())
                .collect();
            let (n, nodes) = self.prepared_atoms.footprint();
            eprintln!(
                "[trace] stratum {} ({} rules; {n} prepared subgoals kept, {nodes}n)",
                rels.join(" "),
                plans.len()
            );
            if !empty.is_empty() {
                let mut names: Vec<&str> = empty
                    .iter()
                    .map(|r| self.prog.relations[*r].name.as_str())
                    .collect();
                names.sort_unstable();
                eprintln!("[trace]   empty, not read: {}", names.join(" "));
            }
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
            record_rule(&mut self.stats, plans[i].rule, &r, dt);
            accumulate(&mut fresh, plans[i].head_rel, r);
        }
        fresh
    }

    /// Evaluates the `number` rules of a (non-recursive) stratum, after
    /// its other rules: each adds the numbering of the paths of its graph
    /// to its head (see `datalog::numbering`).
    fn apply_numbering(&mut self, stratum: &Stratum) -> Result<()> {
        for &ri in &stratum.rules {
            let rule = &self.prog.rules[ri];
            if !rule.number {
                continue;
            }
            let t = Instant::now();
            let head = &self.prog.relations[rule.head.rel];
            let domain_size = self.prog.domains[head.attrs[2].domain].size;
            let blocks = |r: RelId| self.blocks(r);
            let input = NumberingInput {
                rels: &self.rels,
                blocks: &blocks,
                num_vars: self.layout.num_vars(),
                domain_size,
            };
            let (r, contexts) = numbering::evaluate(rule, &input)?;
            self.stats.numberings.push((ri, contexts));
            let (rel, dt) = (rule.head.rel, t.elapsed());
            if tracing() {
                eprintln!(
                    "[trace] {:.3}s {}n {}",
                    dt.as_secs_f64(),
                    r.size(),
                    rule.text
                );
            }
            record_rule(&mut self.stats, ri, &r, dt);
            self.rels[rel] = bdd::or(&self.rels[rel], &r);
        }
        Ok(())
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

    /// Evaluates one stratum: its exit rules once, then, if it is
    /// recursive, semi-naive iterations until no relation grows. Returns
    /// the number of iterations (1 for a stratum that does not recurse).
    fn solve_stratum(&mut self, stratum: &Stratum, index: usize) -> Result<u64> {
        let (plans, statics, results) = self.run_exit_rules(stratum)?;
        let mut fresh = self.collect_exits(&plans, results);
        if !stratum.recursive {
            for (rel, r) in fresh {
                self.rels[rel] = bdd::or(&self.rels[rel], &r);
            }
            self.apply_numbering(stratum)?;
            return Ok(1);
        }
        let nv = self.layout.num_vars();
        let mut versions: HashMap<RelId, Versions> = HashMap::new();
        for &rel in &stratum.relations {
            if let Some(r) = fresh.remove(&rel) {
                self.rels[rel] = bdd::or(&self.rels[rel], &r);
            }
            let first = Versions {
                old: Some(mk_false(nv)),
                delta: self.rels[rel].clone(),
            };
            versions.insert(rel, first);
        }
        let recursive: Vec<usize> = (0..plans.len())
            .filter(|&i| plans[i].is_recursive())
            .collect();
        let saturating = saturating_rules(&plans, &recursive);
        let keep_old = reads_old(&plans, &recursive, &saturating);
        if tracing() {
            let mut names: Vec<&str> = (keep_old.iter())
                .map(|&r| self.prog.relations[r].name.as_str())
                .collect();
            names.sort_unstable();
            eprintln!(
                "[trace]   old versions kept for {} of {} relations: {}",
                names.len(),
                stratum.relations.len(),
                names.join(" ")
            );
        }
        // Each relation's unique table, kept from one merge into it to the
        // next (see `bdd::MergeTable`), and the relations merged so.
        let mut tables: HashMap<RelId, MergeTable> = HashMap::new();
        let mut grown: HashSet<RelId> = HashSet::new();
        let mut fulls_kept = FullsKept::default();
        // Whether the last iteration's new tuples were saturated.
        let mut saturated = false;
        let mut iterations = 0;
        while versions.values().any(|v| !v.delta.is_false()) {
            self.check_cancel()?;
            iterations += 1;
            let iteration_start = Instant::now();
            // After a saturation, the variants of completely saturating
            // rules would only derive again what it derived.
            let redundant = |pi: usize| saturated && saturating.iter().any(|s| s.redundant(pi));
            let jobs = self.live_variants(&plans, &recursive, &versions, redundant);
            let results = self.run_variants(&plans, &statics, &jobs, &versions)?;
            let mut found: HashMap<RelId, Bdd> = HashMap::new();
            for (pi, r, dt) in results {
                record_rule(&mut self.stats, plans[pi].rule, &r, dt);
                accumulate(&mut found, plans[pi].head_rel, r);
            }
            // new = found − full, grown by saturation; then old = full and
            // full = full ∪ new.
            let merge_start = Instant::now();
            let mut new: HashMap<RelId, Bdd> = (found.into_par_iter())
                .map(|(rel, f)| (rel, bdd::and_not(&f, &self.rels[rel])))
                .collect();
            let saturate_start = Instant::now();
            let inner = self.saturate(&plans, &statics, &saturating, &mut new, &mut fulls_kept)?;
            fulls_kept.forget(&plans, |rel| new.get(&rel).is_some_and(|n| !n.is_false()));
            saturated = !saturating.is_empty();
            let saturate_time = saturate_start.elapsed();
            // The relations that grew, each with its table; those whose
            // `old` nothing reads are taken out to grow in place.
            let mut grows: Vec<(RelId, Option<Bdd>, Option<MergeTable>)> = Vec::new();
            for &rel in &stratum.relations {
                if new.get(&rel).is_some_and(|n| !n.is_false()) {
                    let owned = (!keep_old.contains(&rel))
                        .then(|| std::mem::replace(&mut self.rels[rel], mk_false(nv)));
                    grows.push((rel, owned, tables.remove(&rel)));
                }
            }
            let merged: Vec<(RelId, Bdd, Option<MergeTable>, bool)> = (grows.into_par_iter())
                .map(|(rel, owned, table)| {
                    let n = &new[&rel];
                    let kept = owned.is_none();
                    let full = owned.map_or(Cow::Borrowed(&self.rels[rel]), Cow::Owned);
                    let (next, table) = bdd::or_growing(full, n, table);
                    (rel, next, table, kept)
                })
                .collect();
            let times = IterationTimes {
                total: iteration_start.elapsed(),
                merge: merge_start.elapsed() - saturate_time,
                saturation: saturate_time,
                saturation_steps: inner,
            };
            // What did not grow has no delta, and its old version is itself.
            for &rel in &stratum.relations {
                let delta = new.remove(&rel).unwrap_or_else(|| mk_false(nv));
                versions.insert(rel, Versions { old: None, delta });
            }
            for (rel, full, table, kept) in merged {
                let old = std::mem::replace(&mut self.rels[rel], full);
                if let Some(v) = versions.get_mut(&rel) {
                    v.old = kept.then_some(old);
                }
                if let Some(table) = table {
                    tables.insert(rel, table);
                    grown.insert(rel);
                }
            }
            self.report_iteration(index, iterations, &stratum.relations, &versions, times);
        }
        // What the merges replaced and left in the relations goes now.
        drop(versions);
        for rel in grown {
            let full = std::mem::replace(&mut self.rels[rel], mk_false(nv));
            self.rels[rel] = bdd::compact(full);
        }
        Ok(iterations)
    }

    /// The (rule, variant) pairs of the recursive rules that can derive
    /// something: every dynamic subgoal they join is non-empty in the
    /// version they read. Rules for which `redundant` holds are left out.
    fn live_variants(
        &self,
        plans: &[RulePlan],
        recursive: &[usize],
        versions: &HashMap<RelId, Versions>,
        redundant: impl Fn(usize) -> bool,
    ) -> Vec<(usize, usize)> {
        let mut jobs = Vec::new();
        for &pi in recursive.iter().filter(|&&pi| !redundant(pi)) {
            let p = &plans[pi];
            for (vi, v) in p.variants.iter().enumerate() {
                let live = v.steps.iter().all(|s| match s {
                    Step::Join { factor, source, .. }
                        if p.atoms[p.factors[*factor].atom].dynamic =>
                    {
                        let rel = p.atoms[p.factors[*factor].atom].rel;
                        !versions[&rel].read(*source, &self.rels[rel]).is_false()
                    }
                    _ => true,
                });
                if live {
                    jobs.push((pi, vi));
                }
            }
        }
        jobs
    }

    /// Runs the given (rule, variant) pairs in parallel, each dynamic
    /// subgoal version they read prepared once. Returns each result with
    /// its rule's plan and its time.
    fn run_variants(
        &self,
        plans: &[RulePlan],
        statics: &[Prepared],
        jobs: &[(usize, usize)],
        versions: &HashMap<RelId, Versions>,
    ) -> Result<Vec<(usize, Bdd, Duration)>> {
        let mut needed: Vec<(usize, usize, Source)> = Vec::new();
        for &(pi, vi) in jobs {
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
        let prepared: HashMap<(usize, usize, Source), Cow<Bdd>> = needed
            .par_iter()
            .map(|&(pi, atom, source)| {
                let rel = plans[pi].atoms[atom].rel;
                let bdd = versions[&rel].read(source, &self.rels[rel]);
                let b = self.prepare_atom(&plans[pi].atoms[atom], bdd)?;
                Ok(((pi, atom, source), b))
            })
            .collect::<Result<_>>()?;
        let results: Vec<(usize, Bdd, Duration)> = jobs
            .par_iter()
            .map(|&(pi, vi)| {
                let t = Instant::now();
                let dyns: HashMap<(usize, Source), &Bdd> = (prepared.iter())
                    .filter(|((p, _, _), _)| *p == pi)
                    .map(|((_, a, s), b)| ((*a, *s), &**b))
                    .collect();
                let r = self.run_variant(&plans[pi], vi, &statics[pi], &dyns)?;
                Ok((pi, r, t.elapsed()))
            })
            .collect::<Result<_>>()?;
        if tracing() {
            self.trace_slowest(plans, &results);
        }
        Ok(results)
    }

    /// Prints the three slowest of an iteration's variants, if they took
    /// 200 ms or more (`--trace`).
    fn trace_slowest(&self, plans: &[RulePlan], results: &[(usize, Bdd, Duration)]) {
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

    fn check_cancel(&self) -> Result<()> {
        if let Some(why) = crate::interrupt::pending() {
            return Err(self.interrupted(why, &[]));
        }
        match &self.cancel {
            Some(flag) if flag.load(std::sync::atomic::Ordering::Relaxed) => {
                Err(Error::new(ErrorKind::Cancelled, "cancelled (Ctrl-C)"))
            }
            _ => Ok(()),
        }
    }

    /// The error for work stopped by [`crate::interrupt`] while `strata`
    /// ran: it names their relations and the first rule of each.
    pub(crate) fn interrupted(
        &self,
        why: crate::interrupt::Interrupted,
        strata: &[Stratum],
    ) -> Error {
        let kind = match why {
            crate::interrupt::Interrupted::Cancelled => ErrorKind::Cancelled,
            crate::interrupt::Interrupted::OutOfMemory { .. } => ErrorKind::OutOfMemory,
        };
        let mut what = Vec::new();
        for st in strata.iter().take(3) {
            let names: Vec<&str> = st
                .relations
                .iter()
                .take(6)
                .map(|&r| self.prog.relations[r].name.as_str())
                .collect();
            let more = st.relations.len().saturating_sub(names.len());
            let mut text = format!("the stratum of {}", names.join(", "));
            if more > 0 {
                text.push_str(&format!(" and {more} more"));
            }
            if let Some(rule) = st.rules.first().map(|&i| &self.prog.rules[i]) {
                text.push_str(&format!(
                    " (rules from {}:{})",
                    rule.loc.file.display(),
                    rule.loc.line
                ));
            }
            what.push(text);
        }
        if strata.len() > 3 {
            what.push(format!("{} more strata", strata.len() - 3));
        }
        if what.is_empty() {
            Error::new(kind, why.to_string())
        } else {
            Error::new(kind, format!("{why}, while solving {}", what.join("; ")))
        }
    }

    /// A relation version turned into a subgoal over variable homes:
    /// restricted to its constants, projected and renamed. A subgoal that
    /// needs none of these is the relation itself, borrowed: saturation
    /// prepares its operands at every inner step, and a copy of a
    /// million-node relation costs a memory copy and fresh pages each
    /// time.
    fn prepare_atom<'b>(&self, a: &super::planner::AtomPlan, bdd: &'b Bdd) -> Result<Cow<'b, Bdd>> {
        let mut b = Cow::Borrowed(bdd);
        if !a.restrict.is_empty() {
            b = Cow::Owned(b.restrict(&a.restrict));
        }
        if let Some(eq) = &a.equal {
            b = Cow::Owned(relprod(&b, eq, &a.quantify));
        } else if !a.quantify.is_empty() {
            b = Cow::Owned(exists(&b, &a.quantify));
        }
        if a.rename.is_empty() {
            return Ok(b);
        }
        let renamed = match b {
            Cow::Borrowed(x) => rename(x, &a.rename),
            Cow::Owned(x) => rename_owned(x, &a.rename),
        };
        renamed.map(Cow::Owned).map_err(|e| {
            Error::new(
                ErrorKind::Unsupported,
                format!("internal rename error: {e}"),
            )
        })
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
        let operand_of = |factor: usize, source: Source| -> Result<&Bdd> {
            match &statics.factors[factor] {
                Some(b) => Ok(b.bdd(&self.rels)),
                None => dynamics
                    .get(&(p.factors[factor].atom, source))
                    .copied()
                    .ok_or_else(|| {
                        Error::new(
                            ErrorKind::Unsupported,
                            "internal error: missing prepared subgoal",
                        )
                    }),
            }
        };
        // The first join reads its operand as it stands where it projects
        // nothing (a copy of a whole relation otherwise).
        let mut result: Cow<Bdd> = Cow::Owned(mk_true(nv));
        let mut fused = false;
        for (i, step) in steps.iter().enumerate() {
            if std::mem::take(&mut fused) {
                continue;
            }
            let t = Instant::now();
            let before = if self.steps_wanted { result.size() } else { 0 };
            result = match step {
                Step::Join { .. } => {
                    let (r, with_next) =
                        join_step(&result, steps, i, &operand_of, dynamics.is_empty())?;
                    fused = with_next;
                    r
                }
                Step::AndNot(n) => {
                    Cow::Owned(bdd::and_not(&result, statics.negs[*n].bdd(&self.rels)))
                }
                Step::And(c) => Cow::Owned(bdd::and(&result, &p.cmps[*c].bdd)),
                Step::Exists(q) => Cow::Owned(exists(&result, q)),
            };
            if self.steps_wanted {
                self.report_join(
                    p,
                    step,
                    fused,
                    t.elapsed(),
                    (before, result.size()),
                    statics,
                    dynamics,
                );
            }
            if result.is_false() {
                return Ok(result.into_owned());
            }
        }
        let t = Instant::now();
        let out = self.head(p, result.into_owned())?;
        if self.steps_wanted {
            self.report_other(p.rule, "head", t.elapsed());
        }
        Ok(out)
    }

    /// A rule's result, renamed into its head relation's layout and
    /// joined with the head's constants.
    fn head(&self, p: &RulePlan, result: Bdd) -> Result<Bdd> {
        let mut out = rename_owned(result, &p.head.rename).map_err(|e| {
            Error::new(
                ErrorKind::Unsupported,
                format!("internal rename error: {e}"),
            )
        })?;
        for extra in &p.head.extra {
            out = bdd::and(&out, extra);
        }
        Ok(out)
    }

    /// Tells the observers of a step of `p`'s plan that took `time` and
    /// took the result from `sizes.0` to `sizes.1` nodes.
    #[allow(clippy::too_many_arguments)]
    fn report_join(
        &self,
        p: &RulePlan,
        step: &Step,
        fused: bool,
        time: Duration,
        sizes: (usize, usize),
        statics: &Prepared,
        dynamics: &HashMap<(usize, Source), &Bdd>,
    ) {
        let (name, operand) = match step {
            Step::Join { factor, source, .. } => {
                let rel = &self.prog.relations[p.atoms[p.factors[*factor].atom].rel].name;
                let nodes = statics.factors[*factor]
                    .as_ref()
                    .map(|s| s.bdd(&self.rels))
                    .or_else(|| dynamics.get(&(p.factors[*factor].atom, *source)).copied())
                    .map_or(0, |b| b.size());
                (
                    format!(
                        "join {source:?} {rel}{}",
                        if fused { " and the next" } else { "" }
                    ),
                    format!("{source:?} {rel} ({nodes}n)"),
                )
            }
            other => {
                let text = format!("{other:?}");
                (
                    text.chars().take(20).collect(),
                    text.chars().take(40).collect(),
                )
            }
        };
        self.report_step(&StepEnd {
            rule: p.rule,
            rule_text: &self.prog.rules[p.rule].text,
            step: &name,
            kind: StepKind::Join {
                before: sizes.0,
                after: sizes.1,
                operand: &operand,
            },
            time,
        });
    }

    /// Tells the observers of a step of `rule` other than a join.
    fn report_other(&self, rule: usize, step: &str, time: Duration) {
        self.report_step(&StepEnd {
            rule,
            rule_text: &self.prog.rules[rule].text,
            step,
            kind: StepKind::Other,
            time,
        });
    }
}

/// Where an iteration's time went, for its report.
struct IterationTimes {
    total: Duration,
    merge: Duration,
    saturation: Duration,
    saturation_steps: usize,
}

/// How many times the size of the result so far the first of two joins
/// may build before [`join_step`] runs both in one pass instead.
const FIRST_JOIN_GROWTH: usize = 4;

/// The nodes the first of two joins may always build (a small result
/// so far says little about what its join makes).
const FIRST_JOIN_FLOOR: usize = 1 << 12;

/// The join `steps[i]` applied to `result`. A join that another join
/// follows runs with it in one pass, `∃(q₁ ∪ q₂). result ∧ a ∧ b`, and
/// the second value says so (the caller skips the next step). That is
/// the same relation as the two joins one after the other: every
/// variable of a rule has a home of its own, and a variable the first
/// join projects away occurs in no later subgoal, so `b` does not test
/// it.
///
/// The intermediate result is never built. In a context-sensitive store
/// (`hP(h1, f, h2) :- fieldStore(v1, f, v2), cvP(c, v1, h1), cvP(c, v2,
/// h2)`), a delta of `cvP` joined with `fieldStore` made every (context,
/// base object, field, value variable) of its stores, up to 829,100
/// nodes for a 3,363-node delta; in one pass the rule took 1.2 s instead
/// of 40.4 s on xalan's library under `1-call-site` (without a JDK),
/// with the same results. On bddbddb's c_pa it saved a tenth of the
/// CPU time, and it changed nothing measurable on pa or on the quick
/// start's fixture against java.base.
///
/// In a rule that runs once (`run_once`: no subgoal over its own
/// stratum), where the two joins are the rule's last and both project,
/// the first runs alone while its result stays small
/// ([`FIRST_JOIN_GROWTH`] times the result so far, at least
/// [`FIRST_JOIN_FLOOR`] nodes); past that it stops at once and the pair
/// runs in one pass. A small intermediate is cheaper to join than to
/// carry through a three-way pass: pa's `A(v1, v2) :- formal(m, z, v1),
/// IE(i, m), actual(i, z, v2)` takes 0.11 s from `formal ⋈ IE` (44K
/// nodes) against 0.38 s in one pass, whose disjunctions over `m` carry
/// `actual`'s variables as well; pa's static joins took 0.3 s of CPU
/// instead of 0.8 s. In the saturating rules the same split was mixed:
/// pa's field stores took 0.38 s instead of 0.5 s, freetts's 5.9 s
/// instead of 4.5 s (one traced run each), so they keep the one pass.
fn join_step<'a>(
    result: &Bdd,
    steps: &[Step],
    i: usize,
    operand_of: &dyn Fn(usize, Source) -> Result<&'a Bdd>,
    run_once: bool,
) -> Result<(Cow<'a, Bdd>, bool)> {
    let Step::Join {
        factor,
        source,
        quantify,
    } = &steps[i]
    else {
        return Err(Error::new(
            ErrorKind::Unsupported,
            "internal error: a join step expected",
        ));
    };
    let operand = operand_of(*factor, *source)?;
    let next = match steps.get(i + 1) {
        Some(Step::Join {
            factor,
            source,
            quantify: next_quantify,
        }) if !result.is_true() => {
            let mut both = quantify.clone();
            both.union_with(next_quantify);
            Some((
                operand_of(*factor, *source)?,
                both,
                !next_quantify.is_empty(),
            ))
        }
        _ => None,
    };
    if let Some((b, both, projects)) = next {
        // The split of the doc comment. A second join that projects
        // nothing is a filter, and one pass never builds what it drops;
        // where a third join follows, the first two stay one pass (split
        // there, pa's load rule took 0.47 s instead of 0.36 s).
        let last_pair = !matches!(steps.get(i + 2), Some(Step::Join { .. }));
        if run_once && projects && last_pair && !quantify.is_empty() {
            let cap = (result.size() * FIRST_JOIN_GROWTH).max(FIRST_JOIN_FLOOR);
            if let Some(r) = bdd::and_exists_within(result, operand, quantify, cap) {
                return Ok((Cow::Owned(r), false));
            }
        }
        if let Some(r) = bdd::and_exists3(result, operand, b, &both) {
            return Ok((Cow::Owned(r), true));
        }
    }
    let r = if result.is_true() && quantify.is_empty() {
        Cow::Borrowed(operand)
    } else if result.is_true() {
        Cow::Owned(exists(operand, quantify))
    } else {
        Cow::Owned(relprod(result, operand, quantify))
    };
    Ok((r, false))
}

/// Counts one evaluation of `rule` that took `dt` and made `result`.
fn record_rule(stats: &mut SolveStats, rule: usize, result: &Bdd, dt: Duration) {
    let s = &mut stats.rules[rule];
    s.evaluations += 1;
    s.time += dt;
    s.max_nodes = s.max_nodes.max(node_count(result));
}

/// Static relations of at least this many nodes are large to the planner
/// ([`plan_rule`]'s `large`): it renames them into a rule's homes only
/// where renaming the other subgoals and the head would cost more. Their
/// renamed copies are kept while a stratum still reads them
/// (`PreparedAtoms`), where the other renames are of small or passing
/// BDDs. In the quick start
/// (Invoke against the whole JDK 17, `casts`), the copies kept at the end
/// of the main stratum went from 47.4 to 42.1 million nodes, and the peak
/// from 2,667 to 2,590 MiB, at 0.981 of the time (0.955–1.006;
/// `farm-bench -n 2`, 2-core Xeon); the same exports.
const LARGE_STATIC: usize = 1 << 20;

/// The versions of a relation of a recursive stratum that semi-naive
/// evaluation keeps beside the relation itself (`full`, in
/// [`Solver::rels`]): `delta`, what the last iteration added, and `old`,
/// the relation before it. A variant reads its one delta subgoal as
/// `delta`, the recursive subgoals before it as `old` and those after it
/// as `full`, so that every derivation is made once, from its newest
/// tuple.
///
/// `old` is kept only where it differs from `full` and some variant that
/// still runs reads it ([`reads_old`]); elsewhere it is `None` and reads
/// as `full`, which is what it equals where the relation did not grow.
/// Where it did, reading `full` would only repeat derivations, never lose
/// one; but nothing reads it there.
struct Versions {
    /// The relation before the last iteration, where kept.
    old: Option<Bdd>,
    /// What the last iteration added.
    delta: Bdd,
}

impl Versions {
    /// The version `source` names, `full` being the relation itself.
    fn read<'a>(&'a self, source: Source, full: &'a Bdd) -> &'a Bdd {
        match source {
            Source::Full => full,
            Source::Old => self.old.as_ref().unwrap_or(full),
            Source::Delta => &self.delta,
        }
    }
}

/// The relations of a recursive stratum whose `old` version some variant
/// reads once the first iteration has been saturated: the variants of
/// the plans in `recursive` that saturation does not make redundant.
///
/// Every other relation grows in place at each merge, instead of being
/// copied so that its last version stays beside it, and one that did not
/// grow is not copied at all. In the quick start (Invoke against the
/// whole JDK 17, `casts`), the main stratum keeps the old versions of 40
/// of its 219 relations, all small (`apiArg`, `callStore`, ...): its
/// large ones (`vP`, `hP`, `virtualSite`, `assignCall`) are read as `old`
/// only by rules that saturate completely. The run took 0.952 of the time
/// (0.936–0.969) and 2,646 MiB at its peak instead of 2,889 MiB
/// (`farm-bench -n 2`, 2-core Xeon; with the encoder's byte tables, which
/// alone changed neither).
fn reads_old(plans: &[RulePlan], recursive: &[usize], saturating: &[Saturating]) -> HashSet<RelId> {
    let mut out = HashSet::new();
    for &pi in recursive {
        if saturating.iter().any(|s| s.redundant(pi)) {
            continue;
        }
        let p = &plans[pi];
        for v in &p.variants {
            for step in &v.steps {
                if let Step::Join {
                    factor,
                    source: Source::Old,
                    ..
                } = step
                {
                    out.insert(p.atoms[p.factors[*factor].atom].rel);
                }
            }
        }
    }
    out
}

/// Adds `r` to what `acc` holds for `rel`: the larger operand's nodes
/// start the union (see [`bdd::or_owned`]).
fn accumulate(acc: &mut HashMap<RelId, Bdd>, rel: RelId, r: Bdd) {
    if r.is_false() {
        return;
    }
    let merged = match acc.remove(&rel) {
        Some(a) => bdd::or_owned(a, r),
        None => r,
    };
    acc.insert(rel, merged);
}

/// Whether a trace of the evaluation on stderr is asked for (`--trace`).
fn tracing() -> bool {
    crate::trace::enabled()
}
