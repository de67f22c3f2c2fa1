//! The shell's dot-commands. Other lines starting with `.` (`.include`,
//! `.bddvarorder`) are Datalog directives and go to the session.

use super::complete::COMMANDS;
use super::Shell;
use crate::export::relation::{write_relation, Format};
use std::io::Write;
use std::path::{Path, PathBuf};
use tabled::builder::Builder;
use tabled::settings::Style;

/// A parsed command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Help,
    Relations,
    /// `.schema`, `.schema R` or `.schema PATTERN` (with `*`).
    Schema(Option<String>),
    Count(String),
    /// `.explain ATOM`: the derivation of a tuple.
    Explain(String),
    Rules,
    /// `.drop N` (a rule of `.rules`) or `.drop R` (a relation the
    /// session declared).
    Drop(String),
    Load(PathBuf),
    Save(String, Option<PathBuf>),
    Export(String, PathBuf, Option<String>),
    Limit(String),
    Timing(String),
    Show,
    /// `.mode table|csv|tsv|json|line`.
    Mode(String),
    /// `.headers on|off`.
    Headers(String),
    /// `.width [N ...]`: column widths (none: no limits).
    Width(Vec<String>),
    /// `.output FILE`, or `.output` back to stdout.
    Output(Option<PathBuf>),
    /// `.once FILE`: the next statement's output only.
    Once(PathBuf),
    Quit,
    /// A known command with wrong arguments: its usage.
    Usage(&'static str),
    /// A word after `.` that is neither a command nor a directive.
    Unknown(String),
}

/// The command on this line, if it is one.
pub fn parse(line: &str) -> Option<Command> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let usage = |name: &str| {
        COMMANDS
            .iter()
            .find(|(c, _)| c.split(' ').next() == Some(name))
            .map_or("", |(c, _)| *c)
    };
    let arg = |k: usize| words.get(k).map(|s| s.to_string());
    let cmd = match (words[0], words.len()) {
        (".help", 1) => Command::Help,
        (".relations" | ".tables", 1) => Command::Relations,
        (".schema", 1) => Command::Schema(None),
        (".schema", 2) => Command::Schema(arg(1)),
        (".count", 2) => Command::Count(arg(1)?),
        (".explain", n) if n > 1 => {
            Command::Explain(line.trim_start()[".explain".len()..].trim().to_string())
        }
        (".rules", 1) => Command::Rules,
        (".drop", 2) => Command::Drop(arg(1)?),
        (".load", 2) => Command::Load(PathBuf::from(arg(1)?)),
        (".save", 2 | 3) => Command::Save(arg(1)?, arg(2).map(PathBuf::from)),
        (".export", 3) => Command::Export(arg(1)?, PathBuf::from(arg(2)?), None),
        (".export", 5) if words[3] == "--format" => {
            Command::Export(arg(1)?, PathBuf::from(arg(2)?), arg(4))
        }
        (".limit", 2) => Command::Limit(arg(1)?),
        (".timing", 2) => Command::Timing(arg(1)?),
        (".show", 1) => Command::Show,
        (".mode", 2) => Command::Mode(arg(1)?),
        (".headers", 2) => Command::Headers(arg(1)?),
        (".width", _) => Command::Width(words[1..].iter().map(|w| w.to_string()).collect()),
        (".output", 1) => Command::Output(None),
        (".output", 2) => Command::Output(arg(1).map(PathBuf::from)),
        (".once", 2) => Command::Once(PathBuf::from(arg(1)?)),
        (".quit" | ".exit" | ".q", 1) => Command::Quit,
        (".tables", _) => Command::Usage(usage(".relations")),
        (".exit" | ".q", _) => Command::Usage(usage(".quit")),
        (
            c @ (".help" | ".relations" | ".schema" | ".count" | ".rules" | ".drop" | ".explain"
            | ".load" | ".save" | ".export" | ".limit" | ".timing" | ".show" | ".mode"
            | ".headers" | ".output" | ".once" | ".quit"),
            _,
        ) => Command::Usage(usage(c)),
        (w, _)
            if w.len() > 1
                && w.starts_with('.')
                && !crate::datalog::parser::is_directive(&w[1..]) =>
        {
            Command::Unknown(w.to_string())
        }
        _ => return None,
    };
    Some(cmd)
}

/// The value of a setting that is `on` or `off`.
fn on_off(command: &str, value: &str) -> Result<bool, String> {
    match value {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("{command} {value}: expected on or off")),
    }
}

/// `.help`: the Datalog forms and every command.
fn help(out: &mut dyn Write) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    writeln!(out, "Datalog: declarations `R (x:V, y:H)`, rules `R(x, y) :- vP(x, y).`, queries `vP(x, \"<class r.Upper>\")?`").map_err(io)?;
    for (c, doc) in COMMANDS {
        writeln!(out, "  {c:<42} {doc}").map_err(io)?;
    }
    Ok(())
}

/// The message for an unknown command, with the nearest command or
/// directive.
fn unknown(word: &str) -> String {
    let commands = COMMANDS
        .iter()
        .map(|(c, _)| c.split(' ').next().unwrap_or(c).to_string());
    let directives = crate::datalog::parser::directives().map(|d| format!(".{d}"));
    let names: Vec<String> = commands.chain(directives).collect();
    let hint = crate::datalog::quote::did_you_mean(word, names.iter().map(String::as_str));
    format!("unknown command {word}{hint} (.help lists the commands)")
}

impl Shell {
    /// Runs a command; an `Err` is the message to print.
    pub(super) fn command(&mut self, cmd: Command, out: &mut dyn Write) -> Result<(), String> {
        let io = |e: std::io::Error| e.to_string();
        match cmd {
            Command::Help => help(out)?,
            Command::Relations => self.relations(out)?,
            Command::Schema(None) => self.schema_list(|_| true, out)?,
            Command::Schema(Some(p)) if p.contains('*') => {
                self.schema_list(|name| super::describe::matches_pattern(&p, name), out)?
            }
            Command::Schema(Some(name)) => self.schema_of(&name, out)?,
            Command::Count(name) => {
                let rel = self.relation(&name)?;
                let n = self.session.db.solver.count(rel);
                writeln!(out, "{name}: {n} tuples").map_err(io)?;
            }
            Command::Explain(atom) => {
                let tree = crate::session::explain::explain(
                    &mut self.session,
                    &atom,
                    crate::session::explain::Bounds::default(),
                )
                .map_err(|e| e.to_string())?;
                out.write_all(tree.render().as_bytes()).map_err(io)?;
            }
            Command::Rules => {
                let rules = self.session.added_rules();
                if rules.is_empty() {
                    writeln!(out, "(no rules added in this session)").map_err(io)?;
                }
                for (n, r) in rules.iter().enumerate() {
                    writeln!(out, "{:>3}  {r}", n + 1).map_err(io)?;
                }
            }
            Command::Drop(what) => {
                let message = self.session.drop(&what)?;
                writeln!(out, "{message}").map_err(io)?;
            }
            Command::Load(path) => self.run_file(&path, out)?,
            Command::Save(name, file) => self.save(&name, file, out)?,
            Command::Export(name, file, format) => self.export(&name, &file, format, out)?,
            Command::Limit(n) => {
                let n: usize = n
                    .parse()
                    .map_err(|_| format!(".limit {n}: expected a number of rows (0: all)"))?;
                self.limit = if n == 0 { usize::MAX } else { n };
            }
            Command::Timing(v) => self.timing = on_off(".timing", &v)?,
            Command::Show => self.show(out)?,
            Command::Mode(m) => self.mode = m.parse()?,
            Command::Headers(v) => self.headers = on_off(".headers", &v)?,
            Command::Width(ws) => {
                self.widths = ws
                    .iter()
                    .map(|w| {
                        w.parse::<usize>().map_err(|_| {
                            format!(".width {w}: expected a number of characters (0: no limit)")
                        })
                    })
                    .collect::<Result<_, _>>()?;
            }
            Command::Output(None) => self.output = None,
            Command::Output(Some(path)) => {
                let f = self.create_file(&path)?;
                self.output = Some((path, f));
            }
            Command::Once(path) => {
                let f = self.create_file(&path)?;
                self.once = Some((path, f));
            }
            Command::Quit => self.quit = true,
            Command::Usage(u) => return Err(format!("usage: {u}")),
            Command::Unknown(word) => return Err(unknown(&word)),
        }
        Ok(())
    }

    /// `.relations`: every relation with its attributes and size (`-`
    /// for a stored relation not loaded yet).
    fn relations(&self, out: &mut dyn Write) -> Result<(), String> {
        let io = |e: std::io::Error| e.to_string();
        let solver = &self.session.db.solver;
        let mut b = Builder::default();
        b.push_record(["relation", "attributes", "tuples"]);
        for (k, r) in solver.prog.relations.iter().enumerate() {
            if r.name.contains('@') {
                continue;
            }
            let count = if self.session.db.is_loaded(k) {
                solver.count(k).to_string()
            } else {
                "-".to_string()
            };
            b.push_record([r.name.clone(), solver.prog.attributes_text(k), count]);
        }
        let mut t = b.build();
        t.with(Style::psql());
        for line in t.to_string().lines() {
            writeln!(out, "{}", line.trim_end()).map_err(io)?;
        }
        writeln!(out, "(- : stored, not loaded yet; .count R loads it)").map_err(io)
    }

    /// `.schema R`: the declaration, its meaning, where it is stored and
    /// the rules that derive it (the program's and the session's).
    fn schema_of(&mut self, name: &str, out: &mut dyn Write) -> Result<(), String> {
        let io = |e: std::io::Error| e.to_string();
        let rel = self.relation(name)?;
        let solver = &self.session.db.solver;
        writeln!(out, "{name} ({})", solver.prog.attributes_text(rel)).map_err(io)?;
        let program = std::fs::read_to_string(self.session.db.dir.join("program.dl")).ok();
        let described = super::describe::describe(name, program.as_deref());
        for line in &described.meaning {
            writeln!(out, "  {line}").map_err(io)?;
        }
        if let Some(file) = self.session.db.stored_file_of(rel) {
            writeln!(out, "  stored in {file}").map_err(io)?;
        }
        for (at, rule) in &described.rules {
            writeln!(out, "  {at}: {rule}").map_err(io)?;
        }
        let session_rules = solver
            .prog
            .rules
            .iter()
            .enumerate()
            .filter(|&(k, r)| r.head.rel == rel && self.session.is_added_rule(k))
            .map(|(_, r)| r);
        for r in session_rules {
            writeln!(out, "  {}", r.text).map_err(io)?;
        }
        Ok(())
    }

    /// `.save R [FILE]`: the tuples into FILE, or the relation into the
    /// database.
    fn save(
        &mut self,
        name: &str,
        file: Option<PathBuf>,
        out: &mut dyn Write,
    ) -> Result<(), String> {
        let io = |e: std::io::Error| e.to_string();
        let rel = self.relation(name)?;
        match file {
            Some(f) => {
                self.session
                    .db
                    .solver
                    .write_tuples_file(rel, &f)
                    .map_err(|e| e.to_string())?;
                writeln!(out, "wrote {}", f.display()).map_err(io)
            }
            None => {
                let path = self.session.db.store(rel).map_err(|e| e.to_string())?;
                writeln!(out, "stored {name} in {}", path.display()).map_err(io)
            }
        }
    }

    /// `.export R FILE [FORMAT]`: the relation with names, in FORMAT or
    /// the one FILE's extension names (TSV otherwise).
    fn export(
        &mut self,
        name: &str,
        file: &Path,
        format: Option<String>,
        out: &mut dyn Write,
    ) -> Result<(), String> {
        let format: Format = match format {
            Some(f) => f.parse()?,
            None => match file.extension().and_then(|e| e.to_str()) {
                Some("csv") => Format::Csv,
                Some("json") => Format::Json,
                _ => Format::Tsv,
            },
        };
        let rel = self.relation(name)?;
        let f = self.create_file(file)?;
        let mut w = std::io::BufWriter::new(f);
        let n = write_relation(&self.session.db.solver, rel, format, &mut w)
            .and_then(|n| w.flush().map(|_| n))
            .map_err(|e| format!("{}: {e}", file.display()))?;
        writeln!(out, "wrote {n} tuples to {}", file.display()).map_err(|e| e.to_string())
    }

    /// `.show`: the shell's settings.
    fn show(&self, out: &mut dyn Write) -> Result<(), String> {
        // `.limit 0` is stored as no limit.
        let limit = match self.limit {
            usize::MAX => "0 (all rows)".to_string(),
            n => n.to_string(),
        };
        let on_off = |b: bool| if b { "on" } else { "off" };
        let output = match &self.output {
            Some((path, _)) => path.display().to_string(),
            None => "stdout".to_string(),
        };
        let widths = match self.widths.is_empty() {
            true => "no limits".to_string(),
            false => {
                let ws: Vec<String> = self.widths.iter().map(usize::to_string).collect();
                ws.join(" ")
            }
        };
        writeln!(
            out,
            "limit: {limit}\ntiming: {}\nmode: {}\nheaders: {}\nwidth: {widths}\noutput: {output}",
            on_off(self.timing),
            self.mode.name(),
            on_off(self.headers)
        )
        .map_err(|e| e.to_string())
    }

    /// `.schema` over several relations: one declaration per line, for
    /// the relations whose names `keep` accepts.
    fn schema_list(&self, keep: impl Fn(&str) -> bool, out: &mut dyn Write) -> Result<(), String> {
        let io = |e: std::io::Error| e.to_string();
        let prog = &self.session.db.solver.prog;
        let mut shown = 0;
        for (k, r) in prog.relations.iter().enumerate() {
            if r.name.contains('@') || !keep(&r.name) {
                continue;
            }
            writeln!(out, "{} ({})", r.name, prog.attributes_text(k)).map_err(io)?;
            shown += 1;
        }
        if shown == 0 {
            return Err("no relation matches (.tables lists them)".to_string());
        }
        Ok(())
    }

    /// Creates `path` for writing. A file that exists is written again
    /// only if this session created it: the shell never overwrites what
    /// it did not make.
    fn create_file(&mut self, path: &std::path::Path) -> Result<std::fs::File, String> {
        let ours = self.created.contains(path);
        let file = if ours {
            std::fs::File::create(path)
        } else {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(path)
        };
        let file = file.map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => format!(
                "{} exists: the shell writes only files it created (remove it or choose another name)",
                path.display()
            ),
            _ => format!("{}: {e}", path.display()),
        })?;
        self.created.insert(path.to_path_buf());
        Ok(file)
    }

    /// A relation by name, loaded (or computed, for one the analysis
    /// derives but the database does not store).
    fn relation(&mut self, name: &str) -> Result<usize, String> {
        if !self.session.db.has(name) {
            return Err(format!("unknown relation {name} (.relations lists them)"));
        }
        self.session.load(name).map_err(|e| e.to_string())
    }
}
