//! Why is this tuple there? A derivation tree for one tuple of an
//! analysed database (`refract explain`, the shell's `.explain`).
//!
//! BDDs keep no provenance, so the tree is found top down, as a witness
//! search: for each rule of the database's program (`program.dl`) whose
//! head matches the tuple, the rule's body, with the head's values put
//! in, is asked as a query of the stored relations; a satisfying row gives
//! the body tuples, each explained the same way, down to input facts
//! (whose names carry their class, method, bytecode index and line).
//!
//! The search never builds a tuple from itself: a body tuple that is
//! already on the path from the root is skipped, and another row is tried.
//! It is bounded in depth and in queries, and says where a bound cut a
//! branch. A finite tree whose leaves are input facts is a derivation,
//! whatever the order in which the engine found the tuples.

use super::answer::Value;
use super::{Output, Session};
use crate::datalog::ast::{ArgAst, AtomAst, LiteralAst, RuleAst, Statement, TermAst};
use crate::datalog::error::Loc;
use crate::datalog::parser::parse_str_at;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::rc::Rc;

/// Rows of a body tried per rule before the search moves on.
const ROWS_PER_RULE: usize = 4;

/// The bounds of one search.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Rule applications from the root to a leaf.
    pub depth: usize,
    /// Body queries in all.
    pub queries: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            depth: 40,
            queries: 4000,
        }
    }
}

/// One node of a derivation.
#[derive(Debug)]
pub enum Node {
    /// An input fact.
    Fact(String),
    /// A tuple a rule derived from the tuples below it.
    Derived {
        /// The tuple.
        tuple: String,
        /// Its relation.
        relation: String,
        /// Its values: names (without quotes) or numbers.
        values: Vec<String>,
        /// Where the rule is (`queries/FILE:LINE`).
        rule_at: String,
        /// The body's tuples, negations and comparisons, in order.
        body: Vec<Rc<Node>>,
    },
    /// A negated atom or a comparison that holds.
    Holds(String),
    /// A tuple whose derivation a bound cut.
    Cut(String),
}

/// A rule of the program with where it comes from.
struct ProgramRule {
    at: String,
    rule: RuleAst,
}

/// Why a tuple could not be explained.
#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    /// The goal is not one atom.
    #[error("expected one atom, such as IEr(\"<site>\", \"<method>\"), found {0}")]
    NotAnAtom(String),
    /// The goal's tuple is not in the database.
    #[error("{0} is not in the database")]
    Absent(String),
    /// The database has no program to explain with.
    #[error("the database has no program.dl (it was not written by `refract analyze`)")]
    NoProgram,
    /// A query failed.
    #[error("{0}")]
    Query(String),
}

/// Explains `goal` (an atom; variables in it are bound by its first
/// tuple) from the rules of the database's `program.dl`.
pub fn explain(session: &mut Session, goal: &str, bounds: Bounds) -> Result<Node, ExplainError> {
    let program = std::fs::read_to_string(session.db.dir.join("program.dl"))
        .map_err(|_| ExplainError::NoProgram)?;
    let rules = program_rules(&program)?;
    let atom = parse_goal(goal)?;
    // Ground the goal: its first tuple.
    let ground = first_tuple(session, &atom)?
        .ok_or_else(|| ExplainError::Absent(goal.trim().to_string()))?;
    let mut search = Search {
        session,
        rules,
        bounds,
        queries: 0,
        proved: HashMap::new(),
        failed: HashMap::new(),
        path: HashSet::new(),
    };
    Ok((*search.prove(&ground, 0)).clone_shallow())
}

/// The rules of `program.dl`, each placed at its file of `queries/` (the
/// program marks each file's start with a `# ---- FILE ----` line).
fn program_rules(program: &str) -> Result<Vec<ProgramRule>, ExplainError> {
    let mut place: Vec<(String, u32)> = Vec::new();
    let mut file = "program.dl".to_string();
    let mut line = 0u32;
    for text in program.lines() {
        line += 1;
        if let Some(f) = text
            .trim()
            .strip_prefix("# ---- ")
            .and_then(|r| r.strip_suffix(" ----"))
        {
            file = format!("queries/{f}");
            line = 0;
        }
        place.push((file.clone(), line));
    }
    let parsed = parse_str_at(program, "program.dl", std::path::Path::new("."), 1)
        .map_err(|e| ExplainError::Query(e.to_string()))?;
    let mut rules = Vec::new();
    for stmt in parsed.statements {
        if let Statement::Rule(rule) = stmt {
            {
                let (f, l) = place
                    .get((rule.loc.line as usize).saturating_sub(1))
                    .cloned()
                    .unwrap_or_else(|| ("program.dl".into(), rule.loc.line));
                rules.push(ProgramRule {
                    at: format!("{f}:{l}"),
                    rule,
                });
            }
        }
    }
    Ok(rules)
}

/// The goal's atom.
fn parse_goal(goal: &str) -> Result<AtomAst, ExplainError> {
    let text = format!("{}?", goal.trim().trim_end_matches(['?', '.']));
    let parsed = parse_str_at(&text, "<goal>", std::path::Path::new("."), 1)
        .map_err(|e| ExplainError::Query(e.to_string()))?;
    match parsed.statements.as_slice() {
        [Statement::Query { body, .. }] => match body.as_slice() {
            [LiteralAst::Atom {
                atom,
                negated: false,
            }] => Ok(atom.clone()),
            _ => Err(ExplainError::NotAnAtom(goal.trim().to_string())),
        },
        _ => Err(ExplainError::NotAnAtom(goal.trim().to_string())),
    }
}

/// A ground atom: a relation and constant arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Tuple {
    relation: String,
    args: Vec<TermAst>,
}

impl Tuple {
    /// The tuple as Datalog writes it.
    fn text(&self) -> String {
        let args: Vec<String> = self.args.iter().map(term_text).collect();
        format!("{}({})", self.relation, args.join(", "))
    }
}

/// A term as Datalog writes it.
fn term_text(t: &TermAst) -> String {
    match t {
        TermAst::Var(v) => v.clone(),
        TermAst::Wildcard => "_".into(),
        TermAst::Int(n) => n.to_string(),
        TermAst::Name(s) => crate::datalog::quote::constant(s),
    }
}

/// Whether two constants name the same element: a number written in a
/// rule (`parameterArray(i, 2)`) is the name `"2"` in a domain whose map
/// lists numbers.
fn same_constant(a: &TermAst, b: &TermAst) -> bool {
    match (a, b) {
        (TermAst::Int(n), TermAst::Name(s)) | (TermAst::Name(s), TermAst::Int(n)) => {
            *s == n.to_string()
        }
        _ => a == b,
    }
}

/// A constant's value as text: a name without its quotes, or a number.
fn value_text(t: &TermAst) -> String {
    match t {
        TermAst::Name(s) => s.clone(),
        TermAst::Int(n) => n.to_string(),
        TermAst::Var(v) => v.clone(),
        TermAst::Wildcard => "_".into(),
    }
}

/// A term for a value of an answer.
fn value_term(v: &Value) -> TermAst {
    match v {
        Value::Name(s) => TermAst::Name(s.clone()),
        Value::Number(n) => TermAst::Int(*n),
    }
}

/// A query's variables and rows.
type Rows = (Vec<String>, Vec<Vec<Value>>);

/// Asks `body?`; returns the query's variables and up to `limit` rows.
fn ask(
    session: &mut Session,
    body: Vec<LiteralAst>,
    limit: usize,
) -> Result<Option<Rows>, ExplainError> {
    let loc = Loc::new(std::sync::Arc::new("<explain>".into()), 1, 1);
    // The goal is one line of the user's; its errors need no position.
    let outputs = session
        .execute(vec![Statement::Query { body, loc }], limit)
        .map_err(|e| match e {
            super::SessionError::Datalog(d) => ExplainError::Query(d.message),
            other => ExplainError::Query(other.to_string()),
        })?;
    for o in outputs {
        if let Output::Answer(a) = o {
            if a.total == 0u32.into() {
                return Ok(None);
            }
            // A query without variables that holds has one empty row.
            let rows = match a.columns.is_empty() {
                true => vec![Vec::new()],
                false => a.values(),
            };
            return Ok(Some((a.columns.clone(), rows)));
        }
    }
    Ok(None)
}

/// The first tuple of `atom`, with its variables bound.
fn first_tuple(session: &mut Session, atom: &AtomAst) -> Result<Option<Tuple>, ExplainError> {
    let body = vec![LiteralAst::Atom {
        atom: atom.clone(),
        negated: false,
    }];
    let Some((columns, rows)) = ask(session, body, 1)? else {
        return Ok(None);
    };
    let row = rows.first().cloned().unwrap_or_default();
    let args = atom
        .args
        .iter()
        .map(|a| match &a.term {
            TermAst::Var(v) => columns
                .iter()
                .position(|c| c == v)
                .and_then(|k| row.get(k))
                .map_or(TermAst::Wildcard, value_term),
            t => t.clone(),
        })
        .collect();
    Ok(Some(Tuple {
        relation: atom.relation.clone(),
        args,
    }))
}

/// One search's state.
struct Search<'s> {
    session: &'s mut Session,
    rules: Vec<ProgramRule>,
    bounds: Bounds,
    queries: usize,
    /// Tuples explained so far.
    proved: HashMap<Tuple, Rc<Node>>,
    /// Tuples that failed with this much depth left.
    failed: HashMap<Tuple, usize>,
    /// The tuples from the root to here.
    path: HashSet<Tuple>,
}

impl Search<'_> {
    /// The derivation of `t`, found at `depth` rule applications below the
    /// root.
    fn prove(&mut self, t: &Tuple, depth: usize) -> Rc<Node> {
        // The search's own stop (Ctrl-C, the memory budget): its queries
        // are small, and on a small database no BDD operation of theirs
        // may reach the kernel's next poll (`explain --max-memory 1M` on
        // a fixture finished and exited 0 in a loaded test run).
        crate::interrupt::poll();
        if let Some(n) = self.proved.get(t) {
            return n.clone();
        }
        let derived_by: Vec<usize> = (0..self.rules.len())
            .filter(|&k| self.rules[k].rule.head.relation == t.relation)
            .collect();
        if derived_by.is_empty() {
            let n = Rc::new(Node::Fact(t.text()));
            self.proved.insert(t.clone(), n.clone());
            return n;
        }
        let left = self.bounds.depth.saturating_sub(depth);
        if left == 0
            || self.queries >= self.bounds.queries
            || self.failed.get(t).is_some_and(|&d| d >= left)
        {
            return Rc::new(Node::Cut(t.text()));
        }
        self.path.insert(t.clone());
        let mut found = None;
        let mut partial = None;
        for k in derived_by {
            match self.by_rule(t, k, depth) {
                Some((n, true)) => {
                    found = Some(n);
                    break;
                }
                Some((n, false)) => {
                    partial = partial.or(Some(n));
                }
                None => {}
            }
        }
        self.path.remove(t);
        if let Some(n) = found {
            let n = Rc::new(n);
            self.proved.insert(t.clone(), n.clone());
            return n;
        }
        self.failed.insert(t.clone(), left);
        // A derivation with branches the bounds cut says more than none.
        Rc::new(partial.unwrap_or_else(|| Node::Cut(t.text())))
    }

    /// `t` derived by rule `k`, if a row of its body holds: with whether
    /// every branch reaches facts (else the first row's, with the branches
    /// the bounds cut).
    fn by_rule(&mut self, t: &Tuple, k: usize, depth: usize) -> Option<(Node, bool)> {
        let rule = self.rules[k].rule.clone();
        let at = self.rules[k].at.clone();
        // The head's values for its variables.
        let mut bound: HashMap<String, TermAst> = HashMap::new();
        for (arg, value) in rule.head.args.iter().zip(&t.args) {
            match &arg.term {
                TermAst::Var(v) => match bound.get(v) {
                    Some(b) if b != value => return None,
                    _ => {
                        bound.insert(v.clone(), value.clone());
                    }
                },
                TermAst::Wildcard => {}
                c => {
                    if !same_constant(c, value) {
                        return None;
                    }
                }
            }
        }
        // The body with those values; a wildcard of a positive atom
        // becomes a variable, so that the row names its value.
        let mut fresh = 0;
        let subst = |a: &ArgAst, positive: bool, fresh: &mut usize| -> ArgAst {
            let term = match &a.term {
                TermAst::Var(v) => bound.get(v).cloned().unwrap_or(TermAst::Var(v.clone())),
                TermAst::Wildcard if positive => {
                    *fresh += 1;
                    TermAst::Var(format!("explain_any_{fresh}"))
                }
                other => other.clone(),
            };
            ArgAst {
                term,
                loc: a.loc.clone(),
            }
        };
        let body: Vec<LiteralAst> = rule
            .body
            .iter()
            .map(|l| match l {
                LiteralAst::Atom { atom, negated } => LiteralAst::Atom {
                    atom: AtomAst {
                        relation: atom.relation.clone(),
                        args: atom
                            .args
                            .iter()
                            .map(|a| subst(a, !negated, &mut fresh))
                            .collect(),
                        loc: atom.loc.clone(),
                    },
                    negated: *negated,
                },
                LiteralAst::Cmp { op, lhs, rhs, loc } => LiteralAst::Cmp {
                    op: *op,
                    lhs: subst(lhs, false, &mut fresh),
                    rhs: subst(rhs, false, &mut fresh),
                    loc: loc.clone(),
                },
            })
            .collect();
        self.queries += 1;
        let (columns, rows) = match ask(self.session, body.clone(), ROWS_PER_RULE) {
            Ok(Some(answer)) => answer,
            _ => return None,
        };
        let mut partial = None;
        'rows: for row in rows {
            let value_of = |term: &TermAst| -> TermAst {
                match term {
                    TermAst::Var(v) => columns
                        .iter()
                        .position(|c| c == v)
                        .and_then(|k| row.get(k))
                        .map_or(TermAst::Wildcard, value_term),
                    other => other.clone(),
                }
            };
            let mut children = Vec::new();
            for lit in &body {
                match lit {
                    LiteralAst::Atom {
                        atom,
                        negated: false,
                    } => {
                        let sub = Tuple {
                            relation: atom.relation.clone(),
                            args: atom.args.iter().map(|a| value_of(&a.term)).collect(),
                        };
                        if self.path.contains(&sub) {
                            continue 'rows;
                        }
                        children.push(self.prove(&sub, depth + 1));
                    }
                    LiteralAst::Atom {
                        atom,
                        negated: true,
                    } => {
                        let args: Vec<String> = atom
                            .args
                            .iter()
                            .map(|a| term_text(&value_of(&a.term)))
                            .collect();
                        children.push(Rc::new(Node::Holds(format!(
                            "!{}({})",
                            atom.relation,
                            args.join(", ")
                        ))));
                    }
                    LiteralAst::Cmp { op, lhs, rhs, .. } => {
                        children.push(Rc::new(Node::Holds(format!(
                            "{} {} {}",
                            term_text(&value_of(&lhs.term)),
                            op.symbol(),
                            term_text(&value_of(&rhs.term))
                        ))));
                    }
                }
            }
            let complete = children.iter().all(|c| c.complete());
            let node = Node::Derived {
                tuple: t.text(),
                relation: t.relation.clone(),
                values: t.args.iter().map(value_text).collect(),
                rule_at: at.clone(),
                body: children,
            };
            if complete {
                return Some((node, true));
            }
            partial = partial.or(Some(node));
        }
        partial.map(|n| (n, false))
    }
}

/// A call site in words: `Class.forName at Invoke.main, line 6`, from
/// its name `<Invoke: void main(...)>[2@L6] invokestatic <java.lang.Class:
/// java.lang.Class forName(java.lang.String)>`.
fn site_words(site: &str) -> String {
    let Some((caller, rest)) = site.split_once(">[") else {
        return site.to_string();
    };
    let caller = member_words(&format!("{caller}>"));
    let line = rest
        .split_once('@')
        .and_then(|(_, r)| r.split_once(']'))
        .map(|(l, _)| l.trim_start_matches('L'))
        .filter(|l| *l != "0")
        .map(|l| format!(", line {l}"))
        .unwrap_or_default();
    // The API as reftrace labels it (`Class.forName`), else the callee's
    // class without its package and its name.
    let api = rest
        .find('<')
        .map(|k| &rest[k..])
        .map(
            |callee| match crate::facts::reflection_api::label_of(callee) {
                Some(label) => label.to_string(),
                None => {
                    let m = member_words(callee);
                    let (class, name) = m.rsplit_once('.').unwrap_or(("", &m));
                    let simple = class.rsplit('.').next().unwrap_or(class);
                    format!("{simple}.{name}")
                }
            },
        )
        .unwrap_or_else(|| "the call".to_string());
    format!("{api} at {caller}{line}")
}

/// A variable in words: `<Invoke: void main(java.lang.String[])>/name`
/// is `name (in Invoke.main)`.
fn variable_words(var: &str) -> String {
    match var.rsplit_once(">/") {
        Some((method, name)) => format!("{name} (in {})", member_words(&format!("{method}>"))),
        None => var.to_string(),
    }
}

/// A member in words: `<r.Upper: java.lang.String run(java.lang.String)>`
/// is `r.Upper.run`; a field `<r.Bean: int size>` is `r.Bean.size`.
fn member_words(sig: &str) -> String {
    use crate::classfile::descriptor::{parse_field_signature, parse_method_signature};
    match parse_method_signature(sig) {
        Some(m) => format!("{}.{}", m.class, m.name),
        None => match parse_field_signature(sig) {
            Some((class, _, name)) => format!("{class}.{name}"),
            None => sig.to_string(),
        },
    }
}

impl Node {
    /// Whether every branch below reaches input facts.
    pub fn complete(&self) -> bool {
        match self {
            Node::Cut(_) => false,
            Node::Derived { body, .. } => body.iter().all(|c| c.complete()),
            Node::Fact(_) | Node::Holds(_) => true,
        }
    }

    /// A copy of the root (its children stay shared).
    fn clone_shallow(&self) -> Node {
        match self {
            Node::Fact(s) => Node::Fact(s.clone()),
            Node::Holds(s) => Node::Holds(s.clone()),
            Node::Cut(s) => Node::Cut(s.clone()),
            Node::Derived {
                tuple,
                relation,
                values,
                rule_at,
                body,
            } => Node::Derived {
                tuple: tuple.clone(),
                relation: relation.clone(),
                values: values.clone(),
                rule_at: rule_at.clone(),
                body: body.clone(),
            },
        }
    }

    /// The tree as indented text: each derived tuple with the rule that
    /// made it, each input fact marked, and where a bound cut the search.
    /// A tuple shown earlier in the tree is referred to, not repeated.
    /// The reflective steps follow in words.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let mut shown = HashSet::new();
        self.render_at(0, &mut shown, &mut out);
        let story = self.story();
        if !story.is_empty() {
            out.push_str("\nIn words:\n");
            for line in story {
                let _ = writeln!(out, "- {line}");
            }
        }
        out
    }

    /// The reflective steps of the derivation as sentences, causes first
    /// (children before the tuples they derive): where a reflective call
    /// resolves, and the string or Class object that made it so.
    pub fn story(&self) -> Vec<String> {
        let mut lines: Vec<String> = Vec::new();
        self.walk_post(&mut |n| {
            let Node::Derived {
                relation, values, ..
            } = n
            else {
                return;
            };
            // A class found by a name: the name is the tuple's own.
            if let ("classByName", [site, name, target]) = (relation.as_str(), values.as_slice()) {
                let through = n.flow_of(name);
                let line = format!(
                    "{} resolves to class {target}, because the string {name} reaches its argument{through}.",
                    site_words(site)
                );
                if !lines.contains(&line) {
                    lines.push(line);
                }
                return;
            }
            let [site, target] = values.as_slice() else {
                return;
            };
            let at = site_words(site);
            let line = match relation.as_str() {
                "classObjects" => {
                    let why = n
                        .first_heap(|h| h.starts_with('"'))
                        .map(|h| {
                            let through = n.flow_of(&h);
                            format!(", because the string {h} reaches its argument{through}")
                        })
                        .unwrap_or_default();
                    format!("{at} resolves to class {target}{why}.")
                }
                "newInstanceTargets" => {
                    let why = n
                        .first_heap(|h| h.starts_with("<class "))
                        .map(|h| format!(", because {h} reaches its receiver"))
                        .unwrap_or_default();
                    format!("{at} creates a new {target}{why}.")
                }
                "methodLookup" | "constructorLookup" | "fieldLookup" => {
                    // The name comes through the site's `...Named` step.
                    let Node::Derived { body, .. } = n else {
                        return;
                    };
                    let named = body.iter().find(|c| {
                        matches!(&***c, Node::Derived { relation, .. } if relation.ends_with("Named"))
                    });
                    let why = named
                        .and_then(|c| c.first_heap(|h| h.starts_with('"')))
                        .map(|h| format!(" by the name {h}"))
                        .unwrap_or_default();
                    format!("{at} finds {}{why}.", member_words(target))
                }
                "IEr" => format!("{at} calls {}.", member_words(target)),
                _ => return,
            };
            if !lines.contains(&line) {
                lines.push(line);
            }
        });
        lines
    }

    /// Calls `each` on every node below this one and then on it.
    fn walk_post(&self, each: &mut dyn FnMut(&Node)) {
        if let Node::Derived { body, .. } = self {
            for c in body {
                c.walk_post(each);
            }
        }
        each(self);
    }

    /// Calls `each` on this node and every node below it, in preorder.
    fn walk(&self, each: &mut dyn FnMut(&Node)) {
        each(self);
        if let Node::Derived { body, .. } = self {
            for c in body {
                c.walk(each);
            }
        }
    }

    /// How `heap` travels in this subtree: `, through x (in C.m) and y
    /// (in D.n)`, from where it is created to where it is used (empty when
    /// it goes through one variable only).
    fn flow_of(&self, heap: &str) -> String {
        let mut vars: Vec<String> = Vec::new();
        self.walk(&mut |n| {
            if let Node::Derived {
                relation, values, ..
            } = n
            {
                if relation == "vP" && values.len() == 2 && values[1] == heap {
                    let v = variable_words(&values[0]);
                    if !vars.contains(&v) {
                        vars.push(v);
                    }
                }
            }
        });
        if vars.len() < 2 {
            return String::new();
        }
        vars.reverse();
        let last = vars.pop().unwrap_or_default();
        format!(", through {} and {last}", vars.join(", "))
    }

    /// The first heap object of a `vP` tuple below this node that `keep`
    /// accepts.
    fn first_heap(&self, keep: impl Fn(&str) -> bool) -> Option<String> {
        let mut found = None;
        self.walk(&mut |n| {
            if found.is_some() {
                return;
            }
            if let Node::Derived {
                relation, values, ..
            } = n
            {
                if relation == "vP" && values.len() == 2 && keep(&values[1]) {
                    found = Some(values[1].clone());
                }
            }
        });
        found
    }

    fn render_at(&self, indent: usize, shown: &mut HashSet<String>, out: &mut String) {
        let pad = "  ".repeat(indent);
        match self {
            Node::Fact(t) => {
                let _ = writeln!(out, "{pad}{t}  [fact]");
            }
            Node::Holds(t) => {
                let _ = writeln!(out, "{pad}{t}  [holds]");
            }
            Node::Cut(t) => {
                let _ = writeln!(out, "{pad}{t}  [not explained within the search's bounds]");
            }
            Node::Derived {
                tuple,
                rule_at,
                body,
                ..
            } => {
                if !shown.insert(tuple.clone()) {
                    let _ = writeln!(out, "{pad}{tuple}  [as above]");
                    return;
                }
                let _ = writeln!(out, "{pad}{tuple}  [{rule_at}]");
                for c in body {
                    c.render_at(indent + 1, shown, out);
                }
            }
        }
    }
}
