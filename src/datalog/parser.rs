//! The parser: bddbddb Datalog text into [`Statement`]s.
//!
//! The language is line oriented. One statement per line; a trailing `\`
//! joins the next line; a line starting with `#` is a comment. A rule whose
//! period has not been seen yet also continues on the next line, so rules
//! may be wrapped freely. `.include` splices another file in place, found in
//! the base directory (`.basedir`) or beside the including file.

use super::ast::*;
use super::error::{Error, ErrorKind, Loc, Result};
use super::lexer::{tokenize_line, Tok, Token};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A parsed program: its statements in order, and where its data lives.
#[derive(Clone, Debug, Default)]
pub struct ParsedProgram {
    /// All statements, includes spliced in.
    pub statements: Vec<Statement>,
    /// The directory relation files and map files are read from: the main
    /// file's directory joined with `.basedir`.
    pub base_dir: PathBuf,
    /// Notes about accepted but ignored directives.
    pub notes: Vec<String>,
}

/// Parses a program file and everything it includes.
pub fn parse_file(path: &Path) -> Result<ParsedProgram> {
    let text = read_source(path, None)?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut p = Parser::new(dir.clone());
    p.parse_text(&text, Arc::new(path.to_path_buf()), &dir, 1)?;
    Ok(p.finish())
}

/// Reads a source file as UTF-8. Invalid UTF-8 is reported at its line
/// and column; a read failure at `included_at`, where given.
fn read_source(path: &Path, included_at: Option<&Loc>) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| match included_at {
        Some(loc) => Error::at(
            loc,
            ErrorKind::Io,
            format!("cannot read {}: {e}", path.display()),
        ),
        None => Error::io(path, &e),
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        let line_start = good.iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1);
        let col = String::from_utf8_lossy(&good[line_start..]).chars().count() as u32 + 1;
        let at = Loc::new(Arc::new(path.to_path_buf()), line, col);
        Error::at(
            &at,
            ErrorKind::Syntax,
            "invalid UTF-8 (a Datalog file is UTF-8 text)",
        )
    })
}

/// Parses program text. `dir` stands in for the file's directory (for
/// `.basedir` and `.include`); `name` labels locations.
pub fn parse_str(text: &str, name: &str, dir: &Path) -> Result<ParsedProgram> {
    parse_str_at(text, name, dir, 1)
}

/// Parses program text whose first line is line `first_line` of `name`
/// (a statement typed into the shell, a chunk of a script).
pub fn parse_str_at(text: &str, name: &str, dir: &Path, first_line: u32) -> Result<ParsedProgram> {
    let mut p = Parser::new(dir.to_path_buf());
    p.parse_text(text, Arc::new(PathBuf::from(name)), dir, first_line)?;
    Ok(p.finish())
}

struct Parser {
    root_dir: PathBuf,
    base_dir: Option<PathBuf>,
    out: ParsedProgram,
    include_stack: Vec<PathBuf>,
}

/// bddbddb's tuning directives, which do not apply to refract's engine:
/// noted and ignored.
const TUNING_DIRECTIVES: &[&str] = &[
    "bddnodes",
    "bddcache",
    "bddminfree",
    "bddmaxincrease",
    "findbestorder",
    "incremental",
    "split_all_rules",
    "report_stats",
    "noisy",
    "trace",
    "strict",
    "singleignore",
    "dot",
    "bddvarbits",
    "bddmaxnodes",
    "gc",
];

/// The interactive shell's commands, which a script may hold: noted and
/// ignored outside the shell.
const SHELL_COMMANDS: &[&str] = &[
    "count",
    "explain",
    "limit",
    "schema",
    "relations",
    "tables",
    "rules",
    "drop",
    "save",
    "export",
    "timing",
    "show",
    "mode",
    "headers",
    "width",
    "output",
    "once",
    "help",
    "load",
    "quit",
    "exit",
    "q",
];

/// Whether `.name` is a directive of the language (acting, or one of
/// bddbddb's tuning directives), not a shell command.
pub fn is_directive(name: &str) -> bool {
    ACTING_DIRECTIVES.contains(&name) || TUNING_DIRECTIVES.contains(&name)
}

/// Every directive's name (without its dot).
pub fn directives() -> impl Iterator<Item = &'static str> {
    ACTING_DIRECTIVES.iter().chain(TUNING_DIRECTIVES).copied()
}

/// The directives that act.
const ACTING_DIRECTIVES: &[&str] = &["include", "basedir", "bddvarorder"];

impl Parser {
    fn new(root_dir: PathBuf) -> Self {
        Parser {
            root_dir,
            base_dir: None,
            out: ParsedProgram::default(),
            include_stack: Vec::new(),
        }
    }

    fn finish(mut self) -> ParsedProgram {
        self.out.base_dir = self.base_dir.unwrap_or(self.root_dir);
        self.out
    }

    fn parse_text(
        &mut self,
        text: &str,
        file: Arc<PathBuf>,
        dir: &Path,
        first_line: u32,
    ) -> Result<()> {
        let mut pending: Vec<Token> = Vec::new();
        // A byte-order mark is no part of the text; CR, LF and CRLF all
        // end a line.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = split_lines(text).enumerate().peekable();
        while let Some((i, raw)) = lines.next() {
            let line_no = i as u32 + first_line;
            let trimmed = raw.trim_start();
            if trimmed.starts_with('#') || (pending.is_empty() && trimmed.is_empty()) {
                continue;
            }
            let (body, continued) = match raw.trim_end().strip_suffix('\\') {
                Some(b) => (b, true),
                None => (raw, false),
            };
            pending.extend(tokenize_line(&file, line_no, body)?);
            if continued || pending.is_empty() {
                continue;
            }
            if statement_continues(&pending) && lines.peek().is_some() {
                continue;
            }
            let stmt_tokens = std::mem::take(&mut pending);
            self.statement(stmt_tokens, dir)?;
        }
        if !pending.is_empty() {
            self.statement(pending, dir)?;
        }
        Ok(())
    }

    fn statement(&mut self, toks: Vec<Token>, dir: &Path) -> Result<()> {
        let first = &toks[0];
        match &first.tok {
            Tok::Dot => self.directive(&toks, dir),
            Tok::Ident(name) if matches!(toks.get(1).map(|t| &t.tok), Some(Tok::Int(_))) => {
                let Some(Tok::Int(size)) = toks.get(1).map(|t| &t.tok) else {
                    unreachable!("checked by the guard")
                };
                // The map file's name is one word: its tokens touch (`v.map`,
                // `../maps/v.map`); anything after it is an error, not a
                // longer name.
                let map = if toks.len() > 2 {
                    let mut end = 3;
                    while end < toks.len()
                        && toks[end].loc.line == toks[end - 1].loc.line
                        && toks[end].loc.col == toks[end - 1].end
                    {
                        end += 1;
                    }
                    if let Some(extra) = toks.get(end) {
                        return Err(Error::at(
                            &extra.loc,
                            ErrorKind::Syntax,
                            format!(
                                "unexpected {} after the map file name of domain {} (a domain is `NAME SIZE [mapfile]`, alone on its line)",
                                extra.tok.describe(),
                                super::quote::bounded(name)
                            ),
                        ));
                    }
                    Some(join_tokens(&toks[2..end]))
                } else {
                    None
                };
                self.out.statements.push(Statement::Domain {
                    name: name.clone(),
                    size: *size,
                    map,
                    loc: first.loc.clone(),
                });
                Ok(())
            }
            _ => {
                let mut c = Cursor::new(&toks);
                let stmt = c.statement()?;
                self.out.statements.push(stmt);
                Ok(())
            }
        }
    }

    /// Reads one directive: `.include`, `.basedir` and `.bddvarorder` act;
    /// bddbddb's tuning directives and the shell's commands are noted and
    /// ignored; any other name is an error.
    fn directive(&mut self, toks: &[Token], dir: &Path) -> Result<()> {
        let Some(Token {
            tok: Tok::Ident(name),
            loc,
            ..
        }) = toks.get(1)
        else {
            return Err(Error::at(
                &toks[0].loc,
                ErrorKind::Syntax,
                "expected a directive name after '.'",
            ));
        };
        let arg = toks.get(2).map(|t| match &t.tok {
            Tok::Str(s) => s.clone(),
            _ => join_tokens(&toks[2..]),
        });
        let arg_str = || {
            arg.clone().ok_or_else(|| {
                Error::at(
                    loc,
                    ErrorKind::Syntax,
                    format!(".{name} expects an argument"),
                )
            })
        };
        match name.as_str() {
            "include" => {
                let file = arg_str()?;
                self.include(&file, loc, dir)
            }
            "basedir" => {
                let b = arg_str()?;
                self.base_dir = Some(self.root_dir.join(b));
                Ok(())
            }
            "bddvarorder" => {
                let order = arg_str()?;
                self.out.statements.push(Statement::VarOrder {
                    order,
                    loc: loc.clone(),
                });
                Ok(())
            }
            n if TUNING_DIRECTIVES.contains(&n) => {
                self.out.notes.push(format!(
                    "{loc}: note: .{name} does not apply to refract's BDD engine and is ignored"
                ));
                Ok(())
            }
            n if SHELL_COMMANDS.contains(&n) => {
                self.out.notes.push(format!(
                    "{loc}: note: .{name} is a command of the interactive shell and is ignored \
                     here (pipe the script into `refract repl DB` to run it, or mark a relation \
                     `printsize`)"
                ));
                Ok(())
            }
            other => {
                let dotted = format!(".{other}");
                let known: Vec<String> = [ACTING_DIRECTIVES, TUNING_DIRECTIVES, SHELL_COMMANDS]
                    .concat()
                    .iter()
                    .map(|d| format!(".{d}"))
                    .collect();
                let hint =
                    crate::datalog::quote::did_you_mean(&dotted, known.iter().map(String::as_str));
                Err(Error::at(
                    loc,
                    ErrorKind::Syntax,
                    format!("unknown directive {dotted}{hint}"),
                ))
            }
        }
    }

    fn include(&mut self, file: &str, loc: &Loc, dir: &Path) -> Result<()> {
        let mut candidates = Vec::new();
        if let Some(b) = &self.base_dir {
            candidates.push(b.join(file));
        }
        candidates.push(dir.join(file));
        // Something there that is not a file (a directory, a device such
        // as /dev/zero, a pipe) is named as what it is, and never read.
        if let Some(p) = candidates.iter().find(|p| p.exists() && !p.is_file()) {
            let what = if p.is_dir() {
                "a directory"
            } else {
                "not a regular file (a device, a pipe or a socket)"
            };
            return Err(Error::at(
                loc,
                ErrorKind::Io,
                format!("cannot include {}: it is {what}", p.display()),
            ));
        }
        let Some(path) = candidates.iter().find(|p| p.is_file()).cloned() else {
            return Err(Error::at(
                loc,
                ErrorKind::Io,
                format!(
                    "cannot find included file \"{file}\" (looked in {})",
                    candidates
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        };
        let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
        if self.include_stack.contains(&canonical) {
            return Err(Error::at(
                loc,
                ErrorKind::Syntax,
                format!("\"{file}\" includes itself"),
            ));
        }
        let text = read_source(&path, Some(loc))?;
        self.include_stack.push(canonical);
        let inc_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let r = self.parse_text(&text, Arc::new(path), &inc_dir, 1);
        self.include_stack.pop();
        r
    }
}

/// The lines of `text`, each ended by LF, CRLF or a lone CR (old Mac
/// files), without their ends.
pub fn split_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match rest.find(['\n', '\r']) {
            Some(k) => {
                let line = &rest[..k];
                let skip = if rest[k..].starts_with("\r\n") { 2 } else { 1 };
                rest = &rest[k + skip..];
                Some(line)
            }
            None => {
                let line = rest;
                rest = "";
                Some(line)
            }
        }
    })
}

/// Whether a statement goes on at the next line: a rule (`:-` seen)
/// whose terminating period has not arrived yet, a parenthesis still open,
/// or a line that ends with a comma. (bddbddb's statements are one line
/// each unless a line ends in `\`.)
fn statement_continues(toks: &[Token]) -> bool {
    let mut depth = 0i32;
    let mut seen_turnstile = false;
    let mut ended = false;
    for t in toks {
        match t.tok {
            Tok::LParen => depth += 1,
            Tok::RParen => depth -= 1,
            Tok::Turnstile if depth == 0 => seen_turnstile = true,
            Tok::Dot | Tok::Question if depth == 0 && seen_turnstile => ended = true,
            _ => {}
        }
    }
    let trailing_comma = matches!(toks.last().map(|t| &t.tok), Some(Tok::Comma));
    depth > 0 || trailing_comma || (seen_turnstile && !ended)
}

/// Re-joins tokens into text (for file names and options).
fn join_tokens(toks: &[Token]) -> String {
    let mut s = String::new();
    for t in toks {
        match &t.tok {
            Tok::Ident(x) => s.push_str(x),
            Tok::Int(n) => s.push_str(&n.to_string()),
            Tok::Str(x) => s.push_str(x),
            Tok::Dot => s.push('.'),
            Tok::Minus => s.push('-'),
            Tok::Eq => s.push('='),
            Tok::Comma => s.push(','),
            Tok::Colon => s.push(':'),
            other => s.push_str(other.describe().trim_matches('\'')),
        }
    }
    s
}

/// Recursive descent over one statement's tokens.
struct Cursor<'a> {
    toks: &'a [Token],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn new(toks: &'a [Token]) -> Self {
        Cursor { toks, pos: 0 }
    }

    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn peek_at(&self, n: usize) -> Option<&'a Tok> {
        self.toks.get(self.pos + n).map(|t| &t.tok)
    }

    fn loc(&self) -> Loc {
        match self.toks.get(self.pos) {
            Some(t) => t.loc.clone(),
            None => {
                let last = &self.toks[self.toks.len() - 1].loc;
                Loc::new(last.file.clone(), last.line, last.col + 1)
            }
        }
    }

    fn error<T>(&self, what: &str) -> Result<T> {
        let found = match self.peek() {
            Some(t) => t.describe(),
            None => "end of statement".to_string(),
        };
        Err(Error::at(
            &self.loc(),
            ErrorKind::Syntax,
            format!("expected {what}, found {found}"),
        ))
    }

    fn expect(&mut self, tok: Tok, what: &str) -> Result<()> {
        if self.peek() == Some(&tok) {
            self.pos += 1;
            Ok(())
        } else {
            self.error(what)
        }
    }

    fn ident(&mut self, what: &str) -> Result<(String, Loc)> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let loc = self.loc();
                self.pos += 1;
                Ok((s.clone(), loc))
            }
            _ => self.error(what),
        }
    }

    fn statement(&mut self) -> Result<Statement> {
        let loc = self.loc();
        let has_turnstile = self.toks.iter().any(|t| t.tok == Tok::Turnstile);
        let ends_with_question = self.toks.last().map(|t| &t.tok) == Some(&Tok::Question);
        if ends_with_question && !has_turnstile {
            let body = self.body(&[Tok::Question])?;
            self.expect(Tok::Question, "'?'")?;
            self.end()?;
            return Ok(Statement::Query { body, loc });
        }
        let (name, _) = self.ident("a relation name, a domain declaration or a directive")?;
        self.expect(Tok::LParen, "'('")?;
        // A declaration has `name : TYPE` inside the parentheses.
        let typed_attr = self.peek_at(1) == Some(&Tok::Colon);
        let empty_decl = self.peek() == Some(&Tok::RParen) && self.peek_at(1) != Some(&Tok::Dot);
        if !has_turnstile && (typed_attr || empty_decl) {
            return self.declaration(name, loc);
        }
        let args = self.args()?;
        let head = AtomAst {
            relation: name,
            args,
            loc: loc.clone(),
        };
        let body = if self.peek() == Some(&Tok::Turnstile) {
            self.pos += 1;
            self.body(&[Tok::Dot])?
        } else {
            Vec::new()
        };
        self.expect(Tok::Dot, "'.' at the end of the rule")?;
        // What follows the '.' are the rule's options (`split`,
        // `pri=-10`): words, never an atom. A second statement on the line
        // would otherwise be taken for options and lost.
        if let Some(t) = self.toks[self.pos..]
            .iter()
            .find(|t| matches!(t.tok, Tok::LParen | Tok::Dot | Tok::Turnstile))
        {
            return Err(Error::at(
                &t.loc,
                ErrorKind::Syntax,
                "one statement per line: after a rule's '.' only its options may follow (such as `split` or `pri=-10`)",
            ));
        }
        let options = self.options();
        Ok(Statement::Rule(RuleAst {
            head,
            body,
            options,
            loc,
        }))
    }

    fn declaration(&mut self, name: String, loc: Loc) -> Result<Statement> {
        let mut attrs = Vec::new();
        if self.peek() != Some(&Tok::RParen) {
            loop {
                let (aname, aloc) = self.ident("an attribute name")?;
                self.expect(Tok::Colon, "':' and a domain")?;
                let (ty, _) = self.ident("a domain or domain instance (such as V0)")?;
                attrs.push(AttrAst {
                    name: aname,
                    ty,
                    loc: aloc,
                });
                match self.peek() {
                    Some(Tok::Comma) => self.pos += 1,
                    Some(Tok::RParen) => break,
                    _ => return self.error("',' or ')'"),
                }
            }
        }
        self.expect(Tok::RParen, "')'")?;
        let mut options = Vec::new();
        while self.pos < self.toks.len() {
            let (o, oloc) = self.ident("a relation option (input, output, printsize, ...)")?;
            // Allow `option=value` forms without interpreting them.
            if self.peek() == Some(&Tok::Eq) {
                self.pos += 1;
                self.pos += 1;
            }
            options.push((o, oloc));
            if self.peek() == Some(&Tok::Comma) {
                self.pos += 1;
            }
        }
        Ok(Statement::Relation {
            name,
            attrs,
            options,
            loc,
        })
    }

    fn args(&mut self) -> Result<Vec<ArgAst>> {
        let mut args = Vec::new();
        if self.peek() == Some(&Tok::RParen) {
            self.pos += 1;
            return Ok(args);
        }
        loop {
            args.push(self.term()?);
            match self.peek() {
                Some(Tok::Comma) => self.pos += 1,
                Some(Tok::RParen) => {
                    self.pos += 1;
                    return Ok(args);
                }
                _ => return self.error("',' or ')'"),
            }
        }
    }

    fn term(&mut self) -> Result<ArgAst> {
        let loc = self.loc();
        let term = match self.peek() {
            Some(Tok::Ident(s)) if s == "_" => TermAst::Wildcard,
            Some(Tok::Ident(s)) => TermAst::Var(s.clone()),
            Some(Tok::Star) => TermAst::Wildcard,
            Some(Tok::Int(n)) => TermAst::Int(*n),
            Some(Tok::Str(s)) => TermAst::Name(s.clone()),
            Some(Tok::Minus) => {
                return Err(Error::at(
                    &loc,
                    ErrorKind::OutOfDomain,
                    "negative numbers are outside every domain",
                ))
            }
            _ => return self.error("a variable, '_', a number or a quoted name"),
        };
        self.pos += 1;
        Ok(ArgAst { term, loc })
    }

    fn body(&mut self, terminators: &[Tok]) -> Result<Vec<LiteralAst>> {
        let mut lits = Vec::new();
        loop {
            lits.push(self.literal()?);
            match self.peek() {
                Some(Tok::Comma) => self.pos += 1,
                Some(t) if terminators.contains(t) => return Ok(lits),
                _ => {
                    let want = terminators
                        .iter()
                        .map(|t| t.describe())
                        .collect::<Vec<_>>()
                        .join(" or ");
                    return self.error(&format!("',' or {want}"));
                }
            }
        }
    }

    fn literal(&mut self) -> Result<LiteralAst> {
        let loc = self.loc();
        let negated = self.peek() == Some(&Tok::Bang);
        if negated {
            self.pos += 1;
        }
        if let (Some(Tok::Ident(name)), Some(Tok::LParen)) = (self.peek(), self.peek_at(1)) {
            let name = name.clone();
            let aloc = self.loc();
            self.pos += 2;
            let args = self.args()?;
            return Ok(LiteralAst::Atom {
                atom: AtomAst {
                    relation: name,
                    args,
                    loc: aloc,
                },
                negated,
            });
        }
        if negated {
            return self.error("a relation after '!'");
        }
        let lhs = self.term()?;
        let op = match self.peek() {
            Some(Tok::Eq) => CmpOp::Eq,
            Some(Tok::Ne) => CmpOp::Ne,
            Some(Tok::Lt) => CmpOp::Lt,
            Some(Tok::Le) => CmpOp::Le,
            Some(Tok::Gt) => CmpOp::Gt,
            Some(Tok::Ge) => CmpOp::Ge,
            _ => return self.error("a comparison operator or '(' after the name"),
        };
        self.pos += 1;
        let rhs = self.term()?;
        Ok(LiteralAst::Cmp { op, lhs, rhs, loc })
    }

    fn options(&mut self) -> Vec<String> {
        let rest = &self.toks[self.pos..];
        self.pos = self.toks.len();
        if rest.is_empty() {
            return Vec::new();
        }
        join_tokens_spaced(rest)
    }

    fn end(&self) -> Result<()> {
        if self.pos < self.toks.len() {
            return self.error("the end of the statement");
        }
        Ok(())
    }
}

/// Rule options as words, with `pri = -10` glued into `pri=-10`.
fn join_tokens_spaced(toks: &[Token]) -> Vec<String> {
    let glue = |t: &Token| matches!(t.tok, Tok::Eq | Tok::Minus);
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=toks.len() {
        let boundary = i == toks.len() || !(glue(&toks[i]) || glue(&toks[i - 1]));
        if boundary {
            out.push(join_tokens(&toks[start..i]));
            start = i;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Vec<Statement>> {
        parse_str(text, "t.dl", Path::new(".")).map(|p| p.statements)
    }

    #[test]
    fn statements_of_each_kind() {
        let s = parse(
            "V 16 v.map\n\
             # a comment\n\
             vP(v:V0, h:H) input printsize\n\
             A(a,b) :- B(a,_), !C(b, 3), a != b, D(\"x\"). pri=-10 split\n\
             F(1,2).\n\
             vP(x, _)?\n\
             .bddvarorder V0xV1_H0\n",
        )
        .unwrap();
        assert_eq!(s.len(), 6);
        assert!(
            matches!(&s[0], Statement::Domain { name, size: 16, map: Some(m), .. } if name == "V" && m == "v.map")
        );
        match &s[1] {
            Statement::Relation { attrs, options, .. } => {
                assert_eq!(attrs[1].ty, "H");
                assert_eq!(options.len(), 2);
            }
            other => panic!("{other:?}"),
        }
        match &s[2] {
            Statement::Rule(r) => {
                assert_eq!(r.body.len(), 4);
                assert_eq!(r.options, vec!["pri=-10".to_string(), "split".to_string()]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(&s[3], Statement::Rule(r) if r.body.is_empty()));
        assert!(matches!(&s[4], Statement::Query { .. }));
        assert!(matches!(&s[5], Statement::VarOrder { order, .. } if order == "V0xV1_H0"));
    }

    #[test]
    fn a_second_statement_on_a_line_is_an_error() {
        let err = parse("A(1). A(2).\n").unwrap_err();
        assert_eq!(err.loc.as_ref().map(|l| (l.line, l.col)), Some((1, 8)));
        assert!(err.to_string().contains("one statement per line"), "{err}");
        let err = parse("A(a) :- B(a). C(a) :- B(a).\n").unwrap_err();
        assert!(err.to_string().contains("one statement per line"), "{err}");
    }

    #[test]
    fn continuation_and_wrapped_rules() {
        let s = parse("A(a) :- \\\n  B(a).\nC(a) :-\n  B(a),\n  A(a).\n").unwrap();
        assert_eq!(s.len(), 2);
        // A query or a declaration goes on while a parenthesis is open.
        let s = parse("B(a,\n  \"x\")?\nR (a:V,\n   b:H)\nC(a)?\n").unwrap();
        assert_eq!(s.len(), 3);
        // An unclosed parenthesis is reported where the text stops making
        // sense, not silently joined to the end of the file.
        let e = parse("B(a, h\nC(a)?\n").unwrap_err();
        assert_eq!(e.to_string(), "t.dl:2:1: expected ',' or ')', found 'C'");
    }

    #[test]
    fn syntax_errors_have_positions() {
        let e = parse("A(a) :- B(a) C(a).").unwrap_err();
        assert_eq!(e.to_string(), "t.dl:1:14: expected ',' or '.', found 'C'");
        let e = parse("A(a :- B(a).").unwrap_err();
        assert_eq!(e.kind, ErrorKind::Syntax);
        assert_eq!(e.loc.unwrap().col, 5);
    }
}
