//! What a solve reports as it goes: each stratum as it begins, each
//! iteration of a recursive stratum as it ends.
//!
//! The solver calls the [`Observer`] it is given ([`super::solver::Solver::observer`])
//! between iterations, outside the evaluation's own work; the command
//! line draws its progress line from these reports (`src/cli/progress.rs`).

use std::time::Duration;

/// A stratum about to be evaluated.
#[derive(Debug)]
pub struct StratumStart<'a> {
    /// Its number, from 1.
    pub stratum: usize,
    /// How many strata the program has.
    pub strata: usize,
    /// The relations it derives.
    pub relations: &'a [&'a str],
    /// Whether it iterates (some rule reads what the stratum derives).
    pub recursive: bool,
    /// Time since the solve began.
    pub elapsed: Duration,
}

/// An iteration of a recursive stratum, ended.
#[derive(Debug)]
pub struct IterationEnd<'a> {
    /// The stratum's number, from 1.
    pub stratum: usize,
    /// How many strata the program has.
    pub strata: usize,
    /// The iteration's number within its stratum, from 1.
    pub iteration: u64,
    /// The relations that grew in this iteration, in the stratum's order.
    pub growing: &'a [Growth<'a>],
    /// The iteration's own time.
    pub time: Duration,
    /// Of which: the merge of the new tuples into the relations.
    pub merge: Duration,
    /// Of which: the inner saturation loop, and its number of steps.
    pub saturation: Duration,
    /// The saturation's steps.
    pub saturation_steps: usize,
    /// Time since the solve began.
    pub elapsed: Duration,
}

/// A relation that grew in an iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Growth<'a> {
    /// Its name.
    pub relation: &'a str,
    /// The BDD nodes of its new tuples.
    pub new_nodes: usize,
    /// The BDD nodes of the whole relation after the iteration.
    pub nodes: usize,
}

/// What a step of a rule's evaluation did.
#[derive(Debug)]
pub enum StepKind<'a> {
    /// A join, subtraction or filter of the rule's plan: the result's
    /// size in BDD nodes before and after it, and its operand
    /// (`Full vP (263738n)`).
    Join {
        /// The result's nodes before the step.
        before: usize,
        /// The result's nodes after it.
        after: usize,
        /// The operand, with its version and size.
        operand: &'a str,
    },
    /// One job of the inner loop: a subgoal's new tuples against one part
    /// of another subgoal (`delta vP (12n), full assignCall (938972n)`).
    Job {
        /// The two operands, with their versions and sizes.
        parts: &'a str,
    },
    /// Preparing a subgoal, removing what is known, or the head's
    /// renaming.
    Other,
}

/// A step of a rule's evaluation, ended.
#[derive(Debug)]
pub struct StepEnd<'a> {
    /// The rule's index in the program.
    pub rule: usize,
    /// The rule as written.
    pub rule_text: &'a str,
    /// What per-step totals count it as (`join Full vP and the next`,
    /// `prepare delta`, `dedupe`, `head`); empty for a job, whose joins
    /// are counted as steps of their own.
    pub step: &'a str,
    /// What it did.
    pub kind: StepKind<'a>,
    /// How long it took.
    pub time: Duration,
}

/// A saturation (the inner loop between two iterations), ended: its
/// steps and where its time went, wall clock unless said otherwise.
#[derive(Clone, Debug, Default)]
pub struct SaturationEnd {
    /// Its steps.
    pub steps: usize,
    /// Preparing subgoals: the full relations once, then each step's
    /// driving tuples and what is known.
    pub prepare: Duration,
    /// The steps' joins.
    pub joins_wall: Duration,
    /// The same, summed over the threads.
    pub joins_summed: Duration,
    /// Uniting each step's results and keeping them.
    pub merging: Duration,
    /// Of which: folding them into what the iteration found.
    pub folding: Duration,
}

/// A rule's work over a whole solve.
#[derive(Debug)]
pub struct RuleTotal<'a> {
    /// The rule as written.
    pub rule_text: &'a str,
    /// Its evaluations.
    pub evaluations: u64,
    /// Their time, summed over threads.
    pub time: Duration,
    /// Its largest result, in BDD nodes.
    pub max_nodes: usize,
}

/// Receives a solve's reports. Every method does nothing by default.
pub trait Observer: Send + Sync {
    /// A stratum begins.
    fn stratum_started(&self, _start: &StratumStart) {}
    /// An iteration of a recursive stratum ended.
    fn iteration_ended(&self, _end: &IterationEnd) {}
    /// Whether the observer wants [`Observer::step_ended`]: steps are
    /// many (thousands a second), and describing one costs.
    fn wants_steps(&self) -> bool {
        false
    }
    /// A step of a rule ended (only when [`Observer::wants_steps`]).
    fn step_ended(&self, _end: &StepEnd) {}
    /// A saturation ended (before the merge that ends its iteration).
    fn saturation_ended(&self, _end: &SaturationEnd) {}
    /// The solve ended, with each rule's totals in the program's order.
    fn solve_ended(&self, _rules: &[RuleTotal]) {}
}

/// An observer to hand on, or none: what options that are cloned and
/// printed hold.
#[derive(Clone, Default)]
pub struct SharedObserver(pub Option<std::sync::Arc<dyn Observer>>);

impl std::fmt::Debug for SharedObserver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.0.is_some() { "some" } else { "none" };
        write!(f, "SharedObserver({what})")
    }
}
