//! The subcommands of the `refract` binary.

pub mod analyze;
pub mod facts;
pub mod progress;
pub mod repl;
pub mod run;

use anyhow::Result;
use refract::database::staged::{check_destination, Destination};
use std::path::{Path, PathBuf};

/// Checks, before any work, that a database may be written to `output`
/// (see [`refract::database::staged`]); `inputs` are every file or
/// directory the run reads.
pub fn prepare_output(output: &Path, inputs: &[PathBuf], force: bool) -> Result<Destination> {
    Ok(check_destination(output, inputs, force)?)
}

/// Sets the memory budget: `--max-memory`, else 85% of physical memory.
pub fn set_memory_budget(max_memory: Option<u64>) {
    if let Some(b) = max_memory.or_else(refract::interrupt::default_budget) {
        refract::interrupt::watch_memory(b);
    }
}

/// Ctrl-C for the batch commands: the first asks the work in progress to
/// stop (the BDD kernel and the front end poll for it, and the staged
/// database is removed as the work unwinds); a second ends the process at
/// once, removing the staged database first.
pub fn handle_interrupts() {
    let _ = ctrlc::set_handler(|| {
        if refract::interrupt::pending().is_some() {
            refract::database::staged::remove_live();
            std::process::exit(130);
        }
        refract::interrupt::request_cancel();
        eprintln!("\ninterrupted: stopping (Ctrl-C again to quit at once)");
    });
}

/// SIGTERM and SIGHUP, for every command: the process ends at once (exit
/// 128 + the signal, as a shell reports it), removing the database it was
/// staging first, so that `timeout` or a closed terminal leaves nothing
/// behind. A database being moved into place finishes its move first
/// ([`refract::database::staged::remove_live`]).
#[cfg(unix)]
pub fn handle_termination() {
    use signal_hook::consts::{SIGHUP, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            refract::database::staged::remove_live();
            std::process::exit(128 + signal);
        }
    });
}

/// Termination signals keep their default action where there are none.
#[cfg(not(unix))]
pub fn handle_termination() {}
