//! `refract repl`: the interactive shell over a database.
//!
//! Typed at a terminal, input goes through rustyline (history file, tab
//! completion, multi-line statements); piped in, it is read line by line
//! with the same statement boundaries and prints the same output, which
//! is how the tests drive it. Each statement is either a shell command
//! (`.count vP`, see [`complete::COMMANDS`]) or Datalog for the
//! [`Session`]: declarations, rules and queries. An error is printed with
//! its position and the shell goes on; Ctrl-C cancels a running
//! evaluation, Ctrl-D leaves.

mod commands;
pub mod complete;
mod describe;
pub mod input;

use crate::session::answer::Mode;
use crate::session::{Output, Session};
use complete::ShellHelper;
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::Editor;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

/// Rows shown per answer unless `.limit` says otherwise.
pub const DEFAULT_LIMIT: usize = 20;

/// The prompt for a new statement.
const PROMPT: &str = "refract> ";

/// The prompt while a statement goes on over lines (as wide as
/// [`PROMPT`]).
const CONTINUATION_PROMPT: &str = "   ...> ";

/// The shell's settings and state.
pub struct Shell {
    /// The session.
    pub session: Session,
    /// Rows shown per answer (`usize::MAX`: all).
    pub limit: usize,
    /// Print each statement's time.
    pub timing: bool,
    /// How answers print (`.mode`).
    pub mode: Mode,
    /// Whether tables, CSV and TSV start with the column names
    /// (`.headers`).
    pub headers: bool,
    /// The widest each table column may be, in order (`.width`; 0: no
    /// limit); longer cells wrap.
    pub widths: Vec<usize>,
    /// Where output goes instead of stdout (`.output FILE`).
    output: Option<(PathBuf, std::fs::File)>,
    /// Where the next statement's output goes (`.once FILE`).
    once: Option<(PathBuf, std::fs::File)>,
    /// The files this session created, which `.output`, `.once` and
    /// `.export` may write again; any other existing file is refused.
    created: std::collections::HashSet<PathBuf>,
    /// Where input lines are counted from, for error positions.
    source: String,
    /// The files being `.load`ed, innermost last (a file that loads
    /// itself is refused).
    loading: Vec<PathBuf>,
    /// Whether any statement failed.
    pub failed: bool,
    /// Stop at the first error (`--bail`, sqlite3's `-bail`).
    pub bail: bool,
    /// `.quit`, or an error with `bail`: read no more statements.
    quit: bool,
}

impl Shell {
    /// A shell over a session.
    pub fn new(session: Session) -> Shell {
        Shell {
            session,
            limit: DEFAULT_LIMIT,
            timing: false,
            mode: Mode::Table,
            headers: true,
            widths: Vec::new(),
            output: None,
            once: None,
            created: Default::default(),
            source: "<stdin>".into(),
            loading: Vec::new(),
            failed: false,
            bail: false,
            quit: false,
        }
    }

    /// Reads statements from `input` (a pipe, a script, a `.load`ed
    /// file) until its end, `.quit`, or with `bail` the first error.
    /// Error positions are lines of `source`.
    ///
    /// A statement may span lines while a parenthesis or a quote is open,
    /// a rule awaits its period, or a line ends in `,` or `\`. A line that
    /// starts with `.` is a command and ends whatever came before it, so
    /// that an unclosed parenthesis is reported at once instead of
    /// swallowing the commands after it.
    pub fn run_lines(
        &mut self,
        input: impl BufRead,
        source: &str,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let source = std::mem::replace(&mut self.source, source.to_string());
        let mut buf = String::new();
        let mut first = 1;
        for (k, line) in input.lines().enumerate() {
            let line = line?;
            let line_no = k as u32 + 1;
            if !buf.trim().is_empty() && line.trim_start().starts_with('.') {
                let text = std::mem::take(&mut buf);
                self.statement(&text, first, out)?;
            }
            if self.quit {
                break;
            }
            if buf.trim().is_empty() {
                buf.clear();
                first = line_no;
            }
            buf.push_str(&line);
            buf.push('\n');
            if input::is_complete(&buf) {
                let text = std::mem::take(&mut buf);
                self.statement(&text, first, out)?;
            }
            if self.quit {
                break;
            }
        }
        if !self.quit && !buf.trim().is_empty() {
            self.statement(&buf, first, out)?;
        }
        self.source = source;
        Ok(())
    }

    /// Reads statements from a pipe until end of input or `.quit`.
    pub fn run_piped(&mut self, input: impl BufRead, out: &mut dyn Write) -> io::Result<()> {
        self.run_lines(input, "<stdin>", out)
    }

    /// Runs a script file as if its lines were typed; its errors are
    /// placed by the file's lines.
    pub fn run_file(&mut self, path: &Path, out: &mut dyn Write) -> Result<(), String> {
        let canonical = path
            .canonicalize()
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if self.loading.contains(&canonical) {
            return Err(format!("{} loads itself", path.display()));
        }
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        if !file.metadata().map(|m| m.is_file()).unwrap_or(false) {
            return Err(format!(
                "cannot read {}: not a regular file",
                path.display()
            ));
        }
        self.loading.push(canonical);
        let r = self.run_lines(io::BufReader::new(file), &path.display().to_string(), out);
        self.loading.pop();
        r.map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The interactive loop. A statement that is not complete at the end
    /// of a line goes on at a `...>` prompt; Ctrl-C there drops it.
    /// Error positions count the lines of each statement.
    pub fn run_interactive(&mut self, history: Option<PathBuf>) -> anyhow::Result<()> {
        self.source = "<input>".into();
        let mut ed: Editor<ShellHelper, FileHistory> = Editor::new()?;
        let mut helper = ShellHelper::default();
        helper.update(&self.session.db.solver);
        ed.set_helper(Some(helper));
        if let Some(h) = &history {
            let _ = ed.load_history(h);
        }
        let out = io::stdout();
        println!(
            "refract {} shell; .help for commands, Ctrl-D to leave",
            env!("CARGO_PKG_VERSION")
        );
        let mut pending = String::new();
        loop {
            let prompt = if pending.is_empty() {
                PROMPT
            } else {
                CONTINUATION_PROMPT
            };
            match ed.readline(prompt) {
                Ok(line) => {
                    if pending.is_empty() && line.trim().is_empty() {
                        continue;
                    }
                    let _ = ed.add_history_entry(line.as_str());
                    if !pending.is_empty() && line.trim_start().starts_with('.') {
                        let text = std::mem::take(&mut pending);
                        self.statement(&text, 1, &mut out.lock())?;
                    }
                    pending.push_str(&line);
                    pending.push('\n');
                    if input::is_complete(&pending) {
                        let text = std::mem::take(&mut pending);
                        self.statement(&text, 1, &mut out.lock())?;
                    }
                    if let Some(h) = ed.helper_mut() {
                        h.update(&self.session.db.solver);
                    }
                    if self.quit {
                        break;
                    }
                }
                Err(ReadlineError::Interrupted) => {
                    if !pending.is_empty() {
                        pending.clear();
                        eprintln!("(statement dropped)");
                    }
                }
                Err(ReadlineError::Eof) => {
                    if !pending.trim().is_empty() {
                        self.statement(&pending, 1, &mut out.lock())?;
                    }
                    break;
                }
                Err(e) => return Err(e.into()),
            }
        }
        if let Some(h) = &history {
            if let Some(dir) = h.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = ed.save_history(h);
        }
        Ok(())
    }

    /// Runs one statement (a command or Datalog) and prints its output;
    /// errors go to stderr and the shell goes on.
    fn statement(&mut self, text: &str, first_line: u32, out: &mut dyn Write) -> io::Result<()> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Ok(());
        }
        let start = std::time::Instant::now();
        let cmd = commands::parse(trimmed);
        // `.output` and `.once` choose where later output goes; any other
        // statement writes there.
        let redirects = matches!(
            cmd,
            Some(commands::Command::Output(_) | commands::Command::Once(_))
        );
        let mut once = if redirects { None } else { self.once.take() };
        let mut output = if redirects { None } else { self.output.take() };
        let sink: &mut dyn Write = match (&mut once, &mut output) {
            (Some((_, f)), _) | (None, Some((_, f))) => f,
            (None, None) => out,
        };
        let is_command = cmd.is_some();
        let result = match cmd {
            Some(cmd) => self.command(cmd, sink),
            None => match self
                .session
                .execute_text(text, &self.source, first_line, self.limit)
            {
                Ok(outputs) => {
                    let mut left_out = num_bigint::BigUint::from(0u32);
                    for o in outputs {
                        left_out += render_with(&o, self.mode, self.headers, &self.widths, sink)?;
                    }
                    if left_out > num_bigint::BigUint::from(0u32) {
                        sink.flush()?;
                        eprintln!("note: {left_out} more rows left out (.limit 0 for all)");
                    }
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            },
        };
        sink.flush()?;
        if !redirects {
            self.output = output;
        }
        if let Err(msg) = result {
            self.failed = true;
            self.quit |= self.bail;
            out.flush()?;
            if is_command && self.source != "<input>" {
                // A command's error, placed as Datalog errors are.
                eprintln!("error: {}:{first_line}: {msg}", self.source);
            } else {
                eprintln!("error: {msg}");
            }
        }
        if self.timing {
            writeln!(out, "time: {:.3}s", start.elapsed().as_secs_f64())?;
        }
        out.flush()
    }
}

/// Prints one output of a statement in `mode`; returns how many rows of
/// an answer `.limit` left out where the mode has no room to say so.
pub fn render_with(
    o: &Output,
    mode: Mode,
    headers: bool,
    widths: &[usize],
    out: &mut dyn Write,
) -> io::Result<num_bigint::BigUint> {
    match o {
        Output::Answer(a) => a.render_in(mode, headers, widths, out),
        Output::Tuples(a) if mode != Mode::Table => a.render_in(mode, headers, widths, out),
        _ => render(o, out).map(|()| num_bigint::BigUint::from(0u32)),
    }
}

/// Prints one output of a statement.
pub fn render(o: &Output, out: &mut dyn Write) -> io::Result<()> {
    match o {
        Output::Answer(a) => a.render(out),
        Output::Size { relation, count } => writeln!(out, "{relation}: {count} tuples"),
        Output::Tuples(a) => {
            writeln!(out, "{}:", a.title)?;
            a.render(out)
        }
        Output::Note(note) => {
            out.flush()?;
            eprintln!("{note}");
            Ok(())
        }
    }
}

/// The default history file: `$REFRACT_HISTORY`, else
/// `~/.refract_history`.
pub fn history_file() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("REFRACT_HISTORY") {
        return Some(PathBuf::from(p));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".refract_history"))
}
