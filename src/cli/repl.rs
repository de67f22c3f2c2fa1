//! `refract repl`, `refract run SCRIPT --db DB`, `refract export relation`
//! and `refract export callgraph`: the commands that open a database and
//! query it through a session.

use anyhow::{Context, Result};
use refract::database::Database;
use refract::export::callgraph::{write_callgraph, GraphFormat};
use refract::export::relation::{write_relation, Format};
use refract::session::Session;
use refract::shell::{history_file, render, Shell};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Statements failed; their errors are already printed.
#[derive(Debug, thiserror::Error)]
#[error("some statements failed")]
pub struct Failed;

fn open_session(db: &Path) -> Result<Session> {
    let db = Database::open(db)?;
    Ok(Session::new(db)?)
}

/// Starts the shell: interactive at a terminal, else reading stdin as a
/// script (exit 1 if any statement failed).
pub fn repl(db: Option<&Path>, history: Option<PathBuf>) -> Result<()> {
    let session = match db {
        Some(d) => open_session(d)?,
        None => Session::new(Database::scratch(&std::env::current_dir()?)?)?,
    };
    let mut shell = Shell::new(session);
    let flag = shell.session.cancel.clone();
    // Ctrl-C during an evaluation cancels it; at the prompt rustyline
    // sees the key itself.
    // The kernel polls the process-wide request, so that even a single
    // long product stops within milliseconds.
    let _ = ctrlc::set_handler(move || {
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
        refract::interrupt::request_cancel();
    });
    if std::io::stdin().is_terminal() {
        shell.run_interactive(history.or_else(history_file))?;
        return Ok(());
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    shell.run_piped(stdin.lock(), &mut stdout.lock())?;
    if shell.failed {
        return Err(Failed.into());
    }
    Ok(())
}

/// Runs a script over a database; the first error stops it.
pub fn run_script(script: &Path, db: &Path, limit: usize, output: Option<&Path>) -> Result<()> {
    let mut session = open_session(db)?;
    let limit = if limit == 0 { usize::MAX } else { limit };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut each = |o: refract::session::Output| render(&o, &mut out);
    session.execute_file(script, limit, &mut each)?;
    out.flush()?;
    if let Some(dir) = output {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        session.db.solver.write_outputs(dir, true)?;
    }
    Ok(())
}

/// `refract query DB STATEMENTS`: the statements of one command line,
/// answered as the shell answers them.
pub fn query(db: &Path, statements: &str, limit: usize) -> Result<()> {
    let mut session = open_session(db)?;
    let limit = if limit == 0 { usize::MAX } else { limit };
    let outputs = session.execute_text(statements, "<query>", 1, limit)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for o in &outputs {
        render(o, &mut out)?;
    }
    out.flush()?;
    Ok(())
}

/// `refract export relation`.
pub fn export_relation(relation: &str, db: &Path, format: Format) -> Result<()> {
    let mut db = Database::open(db)?;
    let rel = db.load(relation)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    write_relation(&db.solver, rel, format, &mut out)?;
    out.flush()?;
    Ok(())
}

/// `refract export callgraph`.
pub fn export_callgraph(db: &Path, format: GraphFormat) -> Result<()> {
    let mut session = open_session(db)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    write_callgraph(&mut session, format, &mut out)?;
    out.flush()?;
    Ok(())
}
