//! Traces of where the time goes, on stderr: each stratum, iteration and
//! slow join of an evaluation, the front end's phases, and per-rule
//! totals. Switched on by `--trace` (any command), or by `REFRACT_TRACE`
//! in the environment; `--trace-ms MS` (or `REFRACT_TRACE_MS`) sets the
//! shortest join step printed, 100 ms by default. `REFRACT_TRACE_JOBS`
//! also prints each saturation job as it starts, which names the rule
//! of a step that never ends.

use crate::datalog::observer::{
    IterationEnd, Observer, RuleTotal, SaturationEnd, StepEnd, StepKind,
};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Duration;

/// The trace settings, fixed at the first use.
#[derive(Clone, Copy, Debug)]
struct Settings {
    on: bool,
    threshold: Duration,
}

static SETTINGS: OnceLock<Settings> = OnceLock::new();

/// The join steps shorter than this are not printed, by default.
const DEFAULT_THRESHOLD_MS: u64 = 100;

/// Sets the trace from the command line; the environment fills in what
/// the flags leave open. Only the first call counts, and only before any
/// evaluation has asked.
pub fn configure(on: bool, threshold_ms: Option<u64>) {
    let _ = SETTINGS.set(Settings {
        on: on || std::env::var_os("REFRACT_TRACE").is_some(),
        threshold: Duration::from_millis(threshold_ms.unwrap_or_else(env_threshold)),
    });
}

/// `REFRACT_TRACE_MS`, or the default.
fn env_threshold() -> u64 {
    std::env::var("REFRACT_TRACE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_THRESHOLD_MS)
}

fn settings() -> Settings {
    *SETTINGS.get_or_init(|| Settings {
        on: std::env::var_os("REFRACT_TRACE").is_some(),
        threshold: Duration::from_millis(env_threshold()),
    })
}

/// Whether a trace is asked for.
pub fn enabled() -> bool {
    settings().on
}

/// With a trace on, prints how long a phase that began at `start` took.
pub fn phase(what: &str, start: std::time::Instant) {
    if enabled() {
        eprintln!("[trace] {what} in {:.3}s", start.elapsed().as_secs_f64());
    }
}

/// Whether each saturation job is printed as it starts
/// (`REFRACT_TRACE_JOBS`, with a trace on).
pub fn job_starts() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    enabled() && *ON.get_or_init(|| std::env::var_os("REFRACT_TRACE_JOBS").is_some())
}

/// The shortest join step the trace prints.
pub fn threshold() -> Duration {
    settings().threshold
}

/// The trace of a solve under `--trace`: each iteration's line (its time,
/// the merge's and the saturation's share, and each relation that grew as
/// `name +new/total` in BDD nodes, in the stratum's order), each step
/// slower than [`threshold`], and at the end the rules and the steps that
/// took longest.
#[derive(Default)]
pub struct TraceObserver {
    /// Per (rule, step): the rule's text, the time and the count.
    steps: Mutex<HashMap<(usize, String), StepTotal>>,
}

/// A step's total: the rule's text, the time and the count.
type StepTotal = (String, Duration, u64);

/// How many rules the totals at the end of a solve list.
const TOP_RULES: usize = 12;
/// How many steps the totals at the end of a solve list.
const TOP_STEPS: usize = 40;
/// How many step totals a long solve prints every 25 iterations, and
/// after each long iteration.
const TOP_STEPS_SO_FAR: usize = 10;
/// An iteration at least this long is followed by the step totals so far:
/// a solve that never ends (jython under `infer`) still shows where its
/// time went.
const LONG_ITERATION: Duration = Duration::from_secs(60);

impl Observer for TraceObserver {
    fn iteration_ended(&self, it: &IterationEnd) {
        let sizes: Vec<String> = (it.growing.iter())
            .map(|g| format!("{} +{}n/{}n", g.relation, g.new_nodes, g.nodes))
            .collect();
        eprintln!(
            "[trace] iteration {} ({:.3}s, merge {:.3}s, saturation {} steps {:.3}s): {}",
            it.iteration,
            it.time.as_secs_f64(),
            it.merge.as_secs_f64(),
            it.saturation_steps,
            it.saturation.as_secs_f64(),
            sizes.join(", ")
        );
        // Long runs show where the time goes as they go.
        if it.iteration.is_multiple_of(25) || it.time >= LONG_ITERATION {
            self.print_steps(TOP_STEPS_SO_FAR);
        }
    }

    fn wants_steps(&self) -> bool {
        true
    }

    fn step_ended(&self, end: &StepEnd) {
        let slow = end.time >= threshold();
        match end.kind {
            StepKind::Join {
                before,
                after,
                operand,
            } if slow => eprintln!(
                "[trace]       step {:.3}s {before}n -> {after}n: {operand} in {}",
                end.time.as_secs_f64(),
                end.rule_text
            ),
            StepKind::Job { parts } if slow => {
                eprintln!("[trace]       job {:.3}s: {parts}", end.time.as_secs_f64())
            }
            _ => {}
        }
        if end.step.is_empty() {
            return;
        }
        let mut steps = self.steps.lock().unwrap_or_else(PoisonError::into_inner);
        let e = (steps.entry((end.rule, end.step.to_string())))
            .or_insert_with(|| (end.rule_text.to_string(), Duration::ZERO, 0));
        e.1 += end.time;
        e.2 += 1;
    }

    fn saturation_ended(&self, s: &SaturationEnd) {
        eprintln!(
            "[trace]   saturation: preparing {:.3}s; joins {:.3}s wall, {:.3}s summed; merging {:.3}s, of which folding {:.3}s",
            s.prepare.as_secs_f64(),
            s.joins_wall.as_secs_f64(),
            s.joins_summed.as_secs_f64(),
            s.merging.as_secs_f64(),
            s.folding.as_secs_f64()
        );
    }

    fn solve_ended(&self, rules: &[RuleTotal]) {
        let mut order: Vec<&RuleTotal> = rules.iter().collect();
        order.sort_by_key(|r| std::cmp::Reverse(r.time));
        for r in order.into_iter().take(TOP_RULES) {
            eprintln!(
                "[trace] rule total {:.3}s, {} evaluations, max {}n: {}",
                r.time.as_secs_f64(),
                r.evaluations,
                r.max_nodes,
                r.rule_text
            );
        }
        self.print_steps(TOP_STEPS);
        self.steps
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }
}

impl TraceObserver {
    /// Prints the `top` largest step totals so far.
    fn print_steps(&self, top: usize) {
        let steps = self.steps.lock().unwrap_or_else(PoisonError::into_inner);
        let mut totals: Vec<_> = steps.iter().collect();
        totals.sort_by_key(|(_, (_, t, _))| std::cmp::Reverse(*t));
        for ((_, step), (rule, t, n)) in totals.into_iter().take(top) {
            eprintln!(
                "[trace] step total {:.3}s, {n} runs: {step} in {rule}",
                t.as_secs_f64()
            );
        }
    }
}
