//! `refract repl`, `refract run SCRIPT --db DB`, `refract export relation`
//! and `refract export callgraph`: the commands that open a database and
//! query it through a session.

use anyhow::{Context, Result};
use refract::analysis::callgraph::{write_callgraph, GraphFilter, GraphFormat};
use refract::database::Database;
use refract::export::relation::{write_relation, Format};
use refract::session::Session;
use refract::shell::{history_file, Shell};
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
/// script (exit 1 if any statement failed; with `bail`, at the first).
pub fn repl(db: Option<&Path>, history: Option<PathBuf>, bail: bool) -> Result<()> {
    let session = match db {
        Some(d) => open_session(d)?,
        None => Session::new(Database::scratch(&std::env::current_dir()?)?)?,
    };
    let mut shell = Shell::new(session);
    shell.bail = bail;
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
    finished(&shell)
}

/// Exit 1 when a statement failed (its error is printed already).
fn finished(shell: &Shell) -> Result<()> {
    if shell.failed {
        return Err(Failed.into());
    }
    Ok(())
}

/// `refract run SCRIPT --db DB`: the script runs as if piped into the
/// shell, with every row of each answer unless `limit` says otherwise.
pub fn run_script(
    script: &Path,
    db: &Path,
    limit: usize,
    bail: bool,
    output: Option<&Path>,
) -> Result<()> {
    let mut shell = Shell::new(open_session(db)?);
    shell.limit = if limit == 0 { usize::MAX } else { limit };
    shell.bail = bail;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Err(msg) = shell.run_file(script, &mut out) {
        out.flush()?;
        anyhow::bail!(msg);
    }
    out.flush()?;
    if let Some(dir) = output {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        shell.session.db.solver.write_outputs(dir, true)?;
    }
    finished(&shell)
}

/// `refract query DB STATEMENTS`: the statements of one command line,
/// each run as the shell runs a line (commands such as `.count R` too);
/// the first error stops.
pub fn query(db: &Path, statements: &[String], limit: usize) -> Result<()> {
    let mut shell = Shell::new(open_session(db)?);
    shell.limit = if limit == 0 { usize::MAX } else { limit };
    shell.bail = true;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for (k, text) in statements.iter().enumerate() {
        let source = format!("<argument {}>", k + 1);
        shell.run_lines(std::io::Cursor::new(text.as_bytes()), &source, &mut out)?;
        if shell.failed {
            break;
        }
    }
    out.flush()?;
    finished(&shell)
}

/// `refract explain DB ATOM`.
pub fn explain(db: &Path, atom: &str, depth: usize) -> Result<()> {
    use refract::session::explain::{explain, Bounds};
    let mut session = open_session(db)?;
    let bounds = Bounds {
        depth,
        ..Bounds::default()
    };
    let tree = explain(&mut session, atom, bounds)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    out.write_all(tree.render().as_bytes())?;
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
pub fn export_callgraph(db: &Path, format: GraphFormat, filter: &GraphFilter) -> Result<()> {
    let mut session = open_session(db)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    write_callgraph(&mut session, format, filter, &mut out)?;
    out.flush()?;
    Ok(())
}
