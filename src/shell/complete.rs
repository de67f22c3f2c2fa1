//! The shell's line editor helper: tab completion of commands, relation
//! names and (inside quotes) names from the maps.

use crate::datalog::quote::escape;
use crate::datalog::solver::Solver;
use crate::io::map::NameMap;
use rustyline::completion::{Completer, Pair};
use rustyline::{Context, Helper, Highlighter, Hinter, Validator};
use std::sync::Arc;

/// The shell's commands, for completion and `.help`.
pub const COMMANDS: &[(&str, &str)] = &[
    (".help", "this list"),
    (
        ".relations",
        "every relation with its attributes and size (also .tables)",
    ),
    (
        ".schema [R|PATTERN]",
        "R's declaration, meaning and rules; with * in PATTERN, or none, a list",
    ),
    (".count R", "the exact number of tuples of R"),
    (
        ".explain ATOM",
        "why a tuple is there: the rules and tuples that derive it",
    ),
    (".rules", "the rules added in this session, numbered"),
    (
        ".drop N|R",
        "undo rule N of .rules, or a relation declared in this session",
    ),
    (".load FILE.dl", "run a Datalog script as if typed"),
    (
        ".save R [FILE]",
        "store R in the database, or write it to FILE (.tuples)",
    ),
    (
        ".export R FILE [--format tsv|csv|json]",
        "write R with names",
    ),
    (".limit N", "rows shown per answer (0: all)"),
    (".timing on|off", "print the time of each statement"),
    (".show", "the current settings"),
    (".mode table|csv|tsv|json|line", "how answers print"),
    (".headers on|off", "column names above tables, CSV and TSV"),
    (
        ".width [N ...]",
        "widest each table column may be; longer names wrap (none: no limits)",
    ),
    (
        ".output [FILE]",
        "send output to FILE (a new file), or back to stdout",
    ),
    (".once FILE", "send the next statement's output to FILE"),
    (".quit", "leave (also .exit, .q, Ctrl-D)"),
];

/// At most this many names are offered for one completion.
const MAX_CANDIDATES: usize = 200;

/// What completion knows about the session.
///
/// Each line is read on its own (the shell joins a statement's lines and
/// shows the continuation prompt), so the validator accepts every line.
#[derive(Default, Helper, Highlighter, Hinter, Validator)]
pub struct ShellHelper {
    /// Relation names with their attributes' maps.
    relations: Vec<(String, Vec<Option<Arc<NameMap>>>)>,
    /// Every map, for a quote whose column is unknown.
    maps: Vec<Arc<NameMap>>,
}

impl ShellHelper {
    /// Takes the relations and maps of the session's current program.
    pub fn update(&mut self, solver: &Solver) {
        let prog = &solver.prog;
        self.relations = prog
            .relations
            .iter()
            .filter(|r| !r.name.contains('@'))
            .map(|r| {
                let maps = r
                    .attrs
                    .iter()
                    .map(|a| prog.domains[a.domain].names.clone())
                    .collect();
                (r.name.clone(), maps)
            })
            .collect();
        self.maps = prog
            .domains
            .iter()
            .filter_map(|d| d.names.clone())
            .collect();
    }

    /// Candidates for the word before `pos`: the start of the word and the
    /// replacements.
    pub fn candidates(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let before = &line[..pos];
        // Inside a quote: names from the map of that column. A name is
        // offered when it starts with the typed text, or is a string
        // constant whose text does (`"r.Up` offers `"\"r.Upper\""`).
        if let Some(start) = open_quote(before) {
            let prefix = unescape(&before[start..]);
            let maps = match self.column_map(&before[..start.saturating_sub(1)]) {
                Some(m) => vec![m],
                None => self.maps.clone(),
            };
            let mut out: Vec<String> = Vec::new();
            for m in &maps {
                for n in m.names() {
                    let text = n.strip_prefix('"').unwrap_or("");
                    if n.starts_with(&prefix) || text.starts_with(&prefix) {
                        out.push(format!("{}\"", escape(n)));
                        if out.len() >= MAX_CANDIDATES {
                            break;
                        }
                    }
                }
            }
            out.sort();
            out.dedup();
            return (start, out);
        }
        let start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
            .map_or(0, |k| k + 1);
        let word = &before[start..];
        if start == 0 && word.starts_with('.') {
            let out = COMMANDS
                .iter()
                .map(|(c, _)| c.split(' ').next().unwrap_or(c).to_string())
                .filter(|c| c.starts_with(word))
                .collect();
            return (0, out);
        }
        let word_start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |k| k + 1);
        let word = &before[word_start..];
        let mut out: Vec<String> = self
            .relations
            .iter()
            .map(|(n, _)| n.clone())
            .filter(|n| n.starts_with(word))
            .collect();
        out.sort();
        (word_start, out)
    }

    /// The map of the column a quote opened at the end of `before` is in:
    /// the relation before the nearest open parenthesis, and the number of
    /// commas since it.
    fn column_map(&self, before: &str) -> Option<Arc<NameMap>> {
        let mut depth = 0;
        let mut commas = 0;
        let mut quoted = false;
        for (k, c) in before.char_indices().rev() {
            match c {
                '"' => quoted = !quoted,
                ')' if !quoted => depth += 1,
                ',' if !quoted && depth == 0 => commas += 1,
                '(' if !quoted => {
                    if depth == 0 {
                        let head = before[..k].trim_end();
                        let start = head
                            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .map_or(0, |p| p + 1);
                        let name = &head[start..];
                        return self
                            .relations
                            .iter()
                            .find(|(n, _)| n == name)
                            .and_then(|(_, maps)| maps.get(commas).cloned().flatten());
                    }
                    depth -= 1;
                }
                _ => {}
            }
        }
        None
    }
}

/// Where the text of a quote still open at the end of `before` starts
/// (after its `"`); a backslash escapes the next character.
fn open_quote(before: &str) -> Option<usize> {
    let mut open = None;
    let mut chars = before.char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            '\\' if open.is_some() => {
                chars.next();
            }
            '"' => open = if open.is_some() { None } else { Some(k + 1) },
            _ => {}
        }
    }
    open
}

/// Quoted text as the lexer reads it: a backslash takes the next
/// character as it is.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}

impl Completer for ShellHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let (start, words) = self.candidates(line, pos);
        Ok((
            start,
            words
                .into_iter()
                .map(|w| Pair {
                    display: w.clone(),
                    replacement: w,
                })
                .collect(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn helper() -> ShellHelper {
        let v = Arc::new(NameMap::from_names(vec![
            "main.args".into(),
            "main.x".into(),
        ]));
        let h = Arc::new(NameMap::from_names(vec![
            "new Foo".into(),
            "\"r.Upper\"".into(),
        ]));
        ShellHelper {
            relations: vec![
                ("vP".into(), vec![Some(v.clone()), Some(h.clone())]),
                ("vT".into(), vec![Some(v.clone()), None]),
            ],
            maps: vec![v, h],
        }
    }

    #[test]
    fn completes_commands_relations_and_quoted_names() {
        let h = helper();
        assert_eq!(h.candidates(".co", 3), (0, vec![".count".to_string()]));
        assert_eq!(
            h.candidates("x :- v", 6),
            (5, vec!["vP".to_string(), "vT".to_string()])
        );
        assert_eq!(
            h.candidates("vP(\"main.a", 10),
            (4, vec!["main.args\"".to_string()])
        );
        // Second column of vP: the heap map.
        assert_eq!(
            h.candidates("vP(v, \"ne", 9),
            (7, vec!["new Foo\"".to_string()])
        );
        // A string constant, from its escaped quote or from its text.
        let want = (7, vec!["\\\"r.Upper\\\"\"".to_string()]);
        assert_eq!(h.candidates("vP(v, \"\\\"r", 10), want);
        assert_eq!(h.candidates("vP(v, \"r.U", 10), want);
    }
}
