//! Stopping long work promptly: a Ctrl-C, or a memory budget exceeded.
//!
//! One process-wide flag says why work must stop. It is set by a signal
//! handler ([`request_cancel`]) or by the memory watchdog
//! ([`watch_memory`], a thread that samples the resident set size). The BDD
//! kernel polls it every few thousand nodes ([`poll`], from the unique and
//! computed tables) and the front end between batches of classes, so that
//! even a single relational product of minutes stops within milliseconds.
//!
//! A poll that finds the flag set unwinds out of the kernel with an
//! [`Interrupted`] payload (through `resume_unwind`, which prints nothing);
//! [`catch`] turns that unwinding back into a value at the boundary of the
//! work (a stratum, a load, an analysis). Whatever the unwinding leaves
//! behind is dropped: the callers keep their state from before the work,
//! and staged databases remove themselves.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::Once;
use std::time::Duration;

/// Why work was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupted {
    /// The user pressed Ctrl-C (or the process was sent SIGINT).
    Cancelled,
    /// The resident set grew past the budget.
    OutOfMemory {
        /// The budget, in bytes.
        budget: u64,
        /// The resident set size seen, in bytes.
        resident: u64,
        /// The bytes that one allocation was about to add (0 when the
        /// watchdog saw the resident set past the budget).
        wanted: u64,
    },
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Interrupted::Cancelled => write!(f, "cancelled (Ctrl-C)"),
            Interrupted::OutOfMemory {
                budget,
                resident,
                wanted,
            } => {
                write!(
                    f,
                    "memory budget exceeded: {} resident",
                    human_bytes(*resident)
                )?;
                if *wanted > 0 {
                    write!(f, " and {} more wanted", human_bytes(*wanted))?;
                }
                write!(
                    f,
                    ", budget {} (raise it with --max-memory)",
                    human_bytes(*budget)
                )
            }
        }
    }
}

impl std::error::Error for Interrupted {}

const NONE: u8 = 0;
const CANCEL: u8 = 1;
const MEMORY: u8 = 2;

/// Why work must stop, if it must (`NONE`, `CANCEL`, `MEMORY`).
static STATE: AtomicU8 = AtomicU8::new(NONE);
/// The memory budget in bytes (0: none).
static BUDGET: AtomicU64 = AtomicU64::new(0);
/// The resident set size that tripped the budget.
static SEEN: AtomicU64 = AtomicU64::new(0);
/// The allocation that would have tripped it ([`reserve`]; 0 if none).
static WANTED: AtomicU64 = AtomicU64::new(0);

/// Asks running work to stop as cancelled.
pub fn request_cancel() {
    let _ = STATE.compare_exchange(NONE, CANCEL, Ordering::SeqCst, Ordering::SeqCst);
}

/// Forgets an earlier request (a shell starting its next statement).
pub fn clear() {
    STATE.store(NONE, Ordering::SeqCst);
}

/// The pending request, if any.
pub fn pending() -> Option<Interrupted> {
    match STATE.load(Ordering::Relaxed) {
        NONE => None,
        CANCEL => Some(Interrupted::Cancelled),
        _ => Some(Interrupted::OutOfMemory {
            budget: BUDGET.load(Ordering::Relaxed),
            resident: SEEN.load(Ordering::Relaxed),
            wanted: WANTED.load(Ordering::Relaxed),
        }),
    }
}

/// Stops the work in progress (by unwinding to the nearest [`catch`]) if
/// a stop was requested. Cheap: one relaxed load.
#[inline]
pub fn poll() {
    if STATE.load(Ordering::Relaxed) != NONE {
        stop();
    }
}

#[cold]
#[inline(never)]
fn stop() -> ! {
    let why = pending().unwrap_or(Interrupted::Cancelled);
    resume_unwind(Box::new(why))
}

/// Allocations below this size skip [`reserve`]'s check (see there).
const RESERVE_UNCHECKED: u64 = 16 << 20;

/// Stops the work in progress, as over the memory budget, if `bytes` more
/// would take the resident set past it; otherwise polls as [`poll`] does.
///
/// For the few allocations of gigabytes that happen in one step (the BDD
/// unique table doubling, its node vector growing), which the watchdog
/// would only see once they were made: loading jfreechart's `hP` over a
/// 10 GiB budget went on to 11.3 GiB while the unique table, which fills
/// its new slots at once, doubled and rehashed.
///
/// An allocation smaller than a sixteenth of the budget, and than
/// [`RESERVE_UNCHECKED`], is left to the watchdog, which samples every
/// 20 ms: reading `/proc/self/statm` costs a system call, and the BDD
/// kernel's many small arenas grow often (3% of a java.base analysis's
/// time went to these reads, by `perf`).
pub fn reserve(bytes: u64) {
    poll();
    let budget = BUDGET.load(Ordering::Relaxed);
    if budget == 0 || bytes < RESERVE_UNCHECKED.min(budget / 16) {
        return;
    }
    let Some(rss) = resident_bytes() else {
        return;
    };
    if rss.saturating_add(bytes) > budget {
        SEEN.store(rss, Ordering::SeqCst);
        WANTED.store(bytes, Ordering::SeqCst);
        let _ = STATE.compare_exchange(NONE, MEMORY, Ordering::SeqCst, Ordering::SeqCst);
        stop();
    }
}

/// Runs `work`; an interruption inside it comes back as `Err`. Any other
/// panic goes on unwinding.
pub fn catch<T>(work: impl FnOnce() -> T) -> Result<T, Interrupted> {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(v) => Ok(v),
        Err(payload) => match payload.downcast::<Interrupted>() {
            Ok(why) => Err(*why),
            Err(other) => resume_unwind(other),
        },
    }
}

/// Starts (once per process) a thread that samples the resident set size
/// every 20 ms and requests a stop when it exceeds `budget` bytes. A later
/// call changes the budget. The set is also sampled at once, so that work
/// that starts over its budget stops at its first poll, however short it
/// is (`refract explain --max-memory 1M` on a fixture finished within the
/// watchdog's first 20 ms on a loaded machine, and exited 0; its search
/// polls at each tuple, since its queries may not reach the kernel's
/// polls). Does nothing where the resident set size cannot be read
/// (outside Linux).
pub fn watch_memory(budget: u64) {
    BUDGET.store(budget, Ordering::SeqCst);
    static START: Once = Once::new();
    START.call_once(|| {
        if resident_bytes().is_none() {
            return;
        }
        let _ = std::thread::Builder::new()
            .name("memory-watch".into())
            .spawn(|| loop {
                std::thread::sleep(Duration::from_millis(20));
                sample();
            });
    });
    sample();
}

/// Requests a stop if the resident set size exceeds the budget (none
/// when the budget is 0).
fn sample() {
    let budget = BUDGET.load(Ordering::Relaxed);
    if budget == 0 {
        return;
    }
    if let Some(rss) = resident_bytes() {
        if rss > budget {
            SEEN.store(rss, Ordering::SeqCst);
            WANTED.store(0, Ordering::SeqCst);
            let _ = STATE.compare_exchange(NONE, MEMORY, Ordering::SeqCst, Ordering::SeqCst);
        }
    }
}

/// The process's resident set size, from `/proc/self/statm`.
pub fn resident_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// The machine's physical memory, from `/proc/meminfo`.
pub fn physical_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The default budget: 85% of physical memory, leaving the rest to the
/// system and to growth between two samples. `None` where it is unknown.
pub fn default_budget() -> Option<u64> {
    physical_memory().map(|m| m / 100 * 85)
}

/// Parses a size such as `512M`, `4G`, `1.5G` or `1000000` (bytes).
/// Suffixes K, M, G and T are powers of 1024; a trailing `B` or `iB` is
/// allowed.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let upper = text.trim().to_ascii_uppercase();
    let t = upper
        .strip_suffix("IB")
        .or_else(|| upper.strip_suffix('B'))
        .unwrap_or(&upper);
    let (num, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((k, _)) => (&t[..k], &t[k..]),
        None => (t, ""),
    };
    let n: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("`{text}`: not a size (such as 512M or 4G)"))?;
    let scale: f64 = match unit.to_ascii_uppercase().as_str() {
        "" => 1.0,
        "K" => 1024.0,
        "M" => 1024.0 * 1024.0,
        "G" => 1024.0 * 1024.0 * 1024.0,
        "T" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => return Err(format!("`{text}`: unknown unit (use K, M, G or T)")),
    };
    if !(n.is_finite() && n > 0.0) {
        return Err(format!("`{text}`: a size must be positive"));
    }
    Ok((n * scale) as u64)
}

/// A size for people: `1.5 GB`, `320 MB`.
pub fn human_bytes(n: u64) -> String {
    const G: f64 = 1024.0 * 1024.0 * 1024.0;
    const M: f64 = 1024.0 * 1024.0;
    let x = n as f64;
    if x >= G {
        format!("{:.1} GB", x / G)
    } else {
        format!("{:.0} MB", x / M)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("2kb"), Ok(2048));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("-1G").is_err());
        assert!(parse_size("3X").is_err());
    }

    #[test]
    fn other_panics_pass_through_catch() {
        let r = std::panic::catch_unwind(|| catch(|| panic!("boom")));
        assert!(r.is_err());
        assert_eq!(catch(|| 7), Ok(7));
    }
}
