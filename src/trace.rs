//! Traces of where the time goes, on stderr: each stratum, iteration and
//! slow join of an evaluation, the front end's phases, and per-rule
//! totals. Switched on by `--trace` (any command), or by `REFRACT_TRACE`
//! in the environment; `--trace-ms MS` (or `REFRACT_TRACE_MS`) sets the
//! shortest join step printed, 100 ms by default.

use std::sync::OnceLock;
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

/// The shortest join step the trace prints.
pub fn threshold() -> Duration {
    settings().threshold
}

/// Prints each iteration's line under `--trace`: its time, the merge's
/// and the saturation's share, and each relation that grew as
/// `name +new/total` in BDD nodes, in the stratum's order.
pub struct TraceObserver;

impl crate::datalog::observer::Observer for TraceObserver {
    fn iteration_ended(&self, it: &crate::datalog::observer::IterationEnd) {
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
    }
}
