//! A query session over an open database: what the shell (`refract repl`)
//! and batch scripts (`refract run SCRIPT --db DB`) share.
//!
//! The session's program is the database's schema, the rules of the
//! analysis that made it (`program.dl`), and every declaration and rule
//! the user has added. Each new piece of text is parsed, checked together
//! with everything before it, and solved incrementally: relations that no
//! new rule reaches keep their contents; those it reaches start from their
//! stored tuples (or from nothing, below a negation of a changed relation)
//! and only their strata re-run; the analysis's intermediate relations,
//! which the database does not store, are computed when first needed.
//! `docs/architecture.md` ("Sessions") gives the reasoning.
//! Queries (`vP(v, h)?`) are answered and then forgotten; their answers
//! come back as [`Answer`]s. A statement that fails (a syntax error, an
//! unknown relation, a cancelled evaluation) leaves the session as it was.

pub mod answer;
pub mod explain;

use crate::database::{Database, DatabaseError};
use crate::datalog::ast::Statement;
use crate::datalog::error::Error;
use crate::datalog::parser::{parse_file, parse_str_at, ParsedProgram};
use crate::datalog::program::{Literal, Program, RelId};
use crate::datalog::resolve::{resolve_with_maps, MapCache};
pub use answer::Answer;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Why a statement failed.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The text or the program is wrong (with its location).
    #[error(transparent)]
    Datalog(#[from] Error),
    /// A stored relation could not be read.
    #[error(transparent)]
    Database(#[from] DatabaseError),
}

/// What a statement produced.
#[derive(Debug)]
pub enum Output {
    /// The answer to a query.
    Answer(Answer),
    /// A `printsize` relation's count.
    Size {
        /// The relation.
        relation: String,
        /// Its tuple count.
        count: num_bigint::BigUint,
    },
    /// A `printtuples` relation, as an answer with every row.
    Tuples(Answer),
    /// A note about the input, such as an ignored directive (printed on
    /// stderr).
    Note(String),
}

/// An interactive or batch session.
pub struct Session {
    /// The database, holding the engine with all relations.
    pub db: Database,
    /// The schema's statements, then the rules of the analysis that made
    /// the database (`program.dl`) with the declarations of the relations
    /// it derives but does not store.
    base: ParsedProgram,
    /// How many rules `base` has (they come first in the program).
    base_rules: usize,
    /// Declarations and rules the user added, in order.
    added: Vec<Statement>,
    maps: MapCache,
    /// Relations of the analysis the database does not store and this
    /// session has not computed yet: computed when a statement needs them.
    lazy: HashSet<String>,
    /// Set by Ctrl-C to stop a running evaluation.
    pub cancel: Arc<AtomicBool>,
}

/// What a statement's evaluation must re-solve.
struct Plan {
    /// Relations to solve again (emptied first).
    affected: HashSet<RelId>,
    /// Those among them that start empty even where the database stores
    /// them: what a negation of a changed relation derives, and what
    /// depends on that. The others start from their stored tuples, which
    /// the monotone rules can only add to.
    fresh: HashSet<RelId>,
}

impl Session {
    /// A session over `db`.
    pub fn new(db: Database) -> Result<Session, SessionError> {
        let mut base = match db.schema_path() {
            Some(p) => parse_file(&p)?,
            None => ParsedProgram {
                base_dir: db.dir.clone(),
                ..ParsedProgram::default()
            },
        };
        let stored: HashSet<String> = base
            .statements
            .iter()
            .filter_map(|s| match s {
                Statement::Relation { name, .. } => Some(name.clone()),
                _ => None,
            })
            .collect();
        // The analysis's rules, so that a rule the user adds re-derives
        // what the analysis derives from its head, and its intermediate
        // relations can be asked for.
        let mut lazy = HashSet::new();
        let program = db.dir.join("program.dl");
        if !db.is_scratch() && program.is_file() {
            for stmt in parse_file(&program)?.statements {
                match stmt {
                    Statement::Relation {
                        name, attrs, loc, ..
                    } if !stored.contains(&name) => {
                        lazy.insert(name.clone());
                        base.statements.push(Statement::Relation {
                            name,
                            attrs,
                            options: Vec::new(),
                            loc,
                        });
                    }
                    rule @ Statement::Rule(_) => base.statements.push(rule),
                    _ => {}
                }
            }
        }
        let base_rules = base
            .statements
            .iter()
            .filter(|s| matches!(s, Statement::Rule(_)))
            .count();
        let mut maps = MapCache::new();
        for d in &db.solver.prog.domains {
            if let (Some(f), Some(m)) = (&d.map_file, &d.names) {
                maps.insert(f.clone(), m.clone());
            }
        }
        let cancel = Arc::new(AtomicBool::new(false));
        let mut s = Session {
            db,
            base,
            base_rules,
            added: Vec::new(),
            maps,
            lazy,
            cancel,
        };
        s.db.solver.cancel = Some(s.cancel.clone());
        if s.base_rules > 0 {
            // The analysis's relations are known from the start; nothing
            // is solved until a statement needs it.
            let prog = resolve_with_maps(&s.base, &mut s.maps)?;
            s.db.replace_program(prog, &|_| false)?;
        }
        Ok(s)
    }

    /// A relation by name, with its tuples: loaded from the database, or,
    /// for one the analysis derives but the database does not store,
    /// computed (with what it needs) the first time.
    pub fn load(&mut self, name: &str) -> Result<RelId, SessionError> {
        if self.lazy.contains(name) {
            let mut all = self.base.clone();
            all.statements.extend(self.added.iter().cloned());
            let prog = resolve_with_maps(&all, &mut self.maps)?;
            if let Some(rel) = prog.relation_id(name) {
                let plan = self.plan_lazy(&prog, HashSet::new(), vec![rel]);
                self.apply(prog, &plan)?;
            }
        }
        Ok(self.db.load(name)?)
    }

    /// The rules added so far, as text. (They follow the analysis's
    /// rules in the program.)
    pub fn added_rules(&self) -> Vec<String> {
        let prog = &self.db.solver.prog;
        let query_rules: HashSet<usize> = prog.queries.iter().map(|q| q.rule).collect();
        let count = self.added_rule_count();
        prog.rules
            .iter()
            .enumerate()
            .skip(self.base_rules)
            .filter(|(k, _)| !query_rules.contains(k))
            .map(|(_, r)| r.text.clone())
            .take(count)
            .collect()
    }

    /// Whether rule `k` of the current program is one the user added.
    pub fn is_added_rule(&self, k: usize) -> bool {
        k >= self.base_rules && k < self.base_rules + self.added_rule_count()
    }

    /// How many rules the user added.
    fn added_rule_count(&self) -> usize {
        self.added
            .iter()
            .filter(|s| matches!(s, Statement::Rule(_)))
            .count()
    }

    /// What re-solving `seeds` (relations whose rules changed, and the
    /// queries) involves: everything derived from them; the relations of
    /// the analysis not computed yet that those rules read; and which of
    /// them must start empty.
    fn plan(&self, prog: &Program, seeds: HashSet<RelId>) -> Plan {
        let affected = dependents(prog, seeds);
        // A negation of a changed relation may now fail where it held:
        // its rule's head, and what depends on it, start empty.
        let negating: HashSet<RelId> = prog
            .rules
            .iter()
            .filter(|r| {
                r.body
                    .iter()
                    .any(|l| matches!(l, Literal::Neg(a) if affected.contains(&a.rel)))
            })
            .map(|r| r.head.rel)
            .collect();
        let fresh: HashSet<RelId> = dependents(prog, negating)
            .intersection(&affected)
            .copied()
            .collect();
        let mut plan = self.plan_lazy(prog, affected, Vec::new());
        plan.fresh = fresh;
        plan
    }

    /// `affected` with the relations not computed yet that its rules, or
    /// `wanted`, need: those of `wanted` that are lazy, and transitively
    /// the lazy relations their rules read.
    fn plan_lazy(&self, prog: &Program, mut affected: HashSet<RelId>, wanted: Vec<RelId>) -> Plan {
        let mut stack: Vec<RelId> = wanted;
        let reads = |head: RelId, stack: &mut Vec<RelId>| {
            for r in prog.rules.iter().filter(|r| r.head.rel == head) {
                for l in &r.body {
                    if let Literal::Pos(a) | Literal::Neg(a) = l {
                        stack.push(a.rel);
                    }
                }
            }
        };
        for &h in &affected {
            reads(h, &mut stack);
        }
        while let Some(r) = stack.pop() {
            if affected.contains(&r) || !self.lazy.contains(&prog.relations[r].name) {
                continue;
            }
            affected.insert(r);
            reads(r, &mut stack);
        }
        Plan {
            affected,
            fresh: HashSet::new(),
        }
    }

    /// Puts `prog` in place, with the relations `plan` solves emptied,
    /// and solves them; on failure the session stays as it was.
    fn apply(&mut self, prog: Program, plan: &Plan) -> Result<(), SessionError> {
        let names: HashSet<String> = plan
            .affected
            .iter()
            .map(|&r| prog.relations[r].name.clone())
            .collect();
        // A Ctrl-C from before this statement does not cancel it.
        self.cancel.store(false, Ordering::Relaxed);
        crate::interrupt::clear();
        let previous = self.db.replace_program(prog, &|n| names.contains(n))?;
        self.run_plan(plan, previous)
    }

    /// Solves `plan` in the program just put in place; on failure the
    /// database goes back to `previous`. Relations computed now are no
    /// longer lazy.
    fn run_plan(
        &mut self,
        plan: &Plan,
        previous: crate::database::Snapshot,
    ) -> Result<(), SessionError> {
        if let Err(e) = self.solve_affected(plan) {
            self.db.restore(previous);
            return Err(e);
        }
        let prog = &self.db.solver.prog;
        for &r in &plan.affected {
            self.lazy.remove(&prog.relations[r].name);
        }
        Ok(())
    }

    /// Undoes what the session added: rule `N` as `.rules` numbers them
    /// (from 1), or a relation the session declared, with its rules. The
    /// relations the removed rules fed, and those derived from them, are
    /// computed again (a stored relation goes back to its stored tuples).
    /// Returns what was dropped, as a message.
    pub fn drop(&mut self, what: &str) -> Result<String, String> {
        let rules: Vec<usize> = (0..self.added.len())
            .filter(|&k| matches!(self.added[k], Statement::Rule(_)))
            .collect();
        let texts = self.added_rules();
        let mut remove: Vec<usize> = Vec::new();
        let mut heads: HashSet<String> = HashSet::new();
        let message;
        if let Ok(n) = what.parse::<usize>() {
            let Some(&k) = n.checked_sub(1).and_then(|i| rules.get(i)) else {
                return Err(match rules.len() {
                    0 => format!("no rule {n}: this session added none"),
                    len => format!("no rule {n} (.rules numbers them from 1 to {len})"),
                });
            };
            if let Statement::Rule(r) = &self.added[k] {
                heads.insert(r.head.relation.clone());
            }
            remove.push(k);
            let text = texts.get(n - 1).cloned().unwrap_or_default();
            message = format!("dropped rule {n}: {text}");
        } else {
            let declared = self
                .added
                .iter()
                .position(|s| matches!(s, Statement::Relation { name, .. } if name == what));
            let Some(d) = declared else {
                return Err(if self.db.has(what) {
                    format!(
                        "{what} is in the database; .drop removes only rules and relations \
                         that this session added (.rules lists them)"
                    )
                } else {
                    format!("unknown relation {what} (.relations lists them)")
                });
            };
            remove.push(d);
            remove.extend(rules.iter().copied().filter(
                |&k| matches!(&self.added[k], Statement::Rule(r) if r.head.relation == what),
            ));
            for (n, &k) in rules.iter().enumerate() {
                let Statement::Rule(r) = &self.added[k] else {
                    continue;
                };
                let reads = r.body.iter().any(|l| {
                    matches!(l, crate::datalog::ast::LiteralAst::Atom { atom, .. } if atom.relation == what)
                });
                if reads && r.head.relation != what {
                    return Err(format!(
                        "rule {} reads {what}: drop it first (.drop {})",
                        n + 1,
                        n + 1
                    ));
                }
            }
            message = format!(
                "dropped {what} and {} rule{}",
                remove.len() - 1,
                if remove.len() == 2 { "" } else { "s" }
            );
        }
        let kept: Vec<Statement> = (0..self.added.len())
            .filter(|k| !remove.contains(k))
            .map(|k| self.added[k].clone())
            .collect();
        let mut all = self.base.clone();
        all.statements.extend(kept.iter().cloned());
        let prog = resolve_with_maps(&all, &mut self.maps).map_err(|e| e.to_string())?;
        let seeds: HashSet<RelId> = heads.iter().filter_map(|h| prog.relation_id(h)).collect();
        let plan = self.plan(&prog, seeds);
        self.apply(prog, &plan).map_err(|e| e.to_string())?;
        self.added = kept;
        Ok(message)
    }

    /// Runs program text typed or read by the user. `name` and
    /// `first_line` place it for error messages.
    pub fn execute_text(
        &mut self,
        text: &str,
        name: &str,
        first_line: u32,
        limit: usize,
    ) -> Result<Vec<Output>, SessionError> {
        let dir = std::env::current_dir().unwrap_or_default();
        let parsed = parse_str_at(text, name, &dir, first_line)?;
        let notes = parsed.notes.into_iter().map(Output::Note);
        let mut out: Vec<Output> = notes.collect();
        out.extend(self.execute(parsed.statements, limit)?);
        Ok(out)
    }

    /// Adds statements, solves what they affect and answers their queries.
    pub fn execute(
        &mut self,
        stmts: Vec<Statement>,
        limit: usize,
    ) -> Result<Vec<Output>, SessionError> {
        if stmts.is_empty() {
            return Ok(Vec::new());
        }
        let stmts = self.declare_implicitly(stmts);
        let kept: Vec<Statement> = stmts
            .iter()
            .filter(|s| !matches!(s, Statement::Query { .. }))
            .cloned()
            .collect();
        let mut all = self.base.clone();
        all.statements.extend(self.added.iter().cloned());
        all.statements.extend(stmts.iter().cloned());
        let prog = resolve_with_maps(&all, &mut self.maps)?;
        let first_new = self.base_rules + self.added_rule_count();
        let plan = self.plan(&prog, new_heads(&prog, first_new));
        let printing: Vec<RelId> = (0..prog.relations.len())
            .filter(|&r| {
                let o = &prog.relations[r].options;
                (o.print_size || o.print_tuples) && plan.affected.contains(&r)
            })
            .collect();
        let queries = prog.queries.clone();
        self.apply(prog, &plan)?;
        self.added.extend(kept);
        let mut out = Vec::new();
        for r in printing {
            let rel = &self.db.solver.prog.relations[r];
            if rel.options.print_size {
                out.push(Output::Size {
                    relation: rel.name.clone(),
                    count: self.db.solver.count(r),
                });
            }
            if rel.options.print_tuples {
                out.push(Output::Tuples(Answer::of_relation(
                    &self.db.solver,
                    r,
                    rel.name.clone(),
                    usize::MAX,
                )));
            }
        }
        for q in &queries {
            out.push(Output::Answer(Answer::of_relation(
                &self.db.solver,
                q.rel,
                format!("{}?", q.text),
                limit,
            )));
        }
        Ok(out)
    }

    /// A rule whose head relation nobody declared declares it, as Soufflé's
    /// shell users expect: one attribute per head variable, in the domain
    /// the body gives it. (Heads with constants still need a declaration.)
    fn declare_implicitly(&self, stmts: Vec<Statement>) -> Vec<Statement> {
        let prog = &self.db.solver.prog;
        // Relation name -> attribute domain names, as known so far.
        let mut known: std::collections::HashMap<String, Vec<String>> = prog
            .relations
            .iter()
            .map(|r| {
                let doms = r
                    .attrs
                    .iter()
                    .map(|a| prog.domains[a.domain].name.clone())
                    .collect();
                (r.name.clone(), doms)
            })
            .collect();
        for s in &stmts {
            if let Statement::Relation { name, attrs, .. } = s {
                let doms = attrs
                    .iter()
                    .map(|a| {
                        a.ty.trim_end_matches(|c: char| c.is_ascii_digit())
                            .to_string()
                    })
                    .collect();
                known.insert(name.clone(), doms);
            }
        }
        let mut out = Vec::with_capacity(stmts.len());
        for s in stmts {
            if let Statement::Rule(rule) = &s {
                if !known.contains_key(&rule.head.relation) {
                    if let Some(decl) = infer_declaration(rule, &known) {
                        if let Statement::Relation { name, attrs, .. } = &decl {
                            known
                                .insert(name.clone(), attrs.iter().map(|a| a.ty.clone()).collect());
                        }
                        out.push(decl);
                    }
                }
            }
            out.push(s);
        }
        out
    }

    /// Solves the plan's relations: those that start empty are marked
    /// loaded as they are; stored relations the rules read (or extend) are
    /// loaded.
    fn solve_affected(&mut self, plan: &Plan) -> Result<(), SessionError> {
        let affected = &plan.affected;
        for &rel in &plan.fresh {
            self.db.start_empty(rel);
        }
        // The relations the rules to run read (and those they extend) are
        // at their full value before they run: the solver runs only the
        // rules of affected relations (see `Solver::solve_only`).
        let prog = &self.db.solver.prog;
        let mut needed: Vec<RelId> = affected.iter().copied().collect();
        for rule in &prog.rules {
            if !affected.contains(&rule.head.rel) {
                continue;
            }
            for lit in &rule.body {
                if let Literal::Pos(a) | Literal::Neg(a) = lit {
                    needed.push(a.rel);
                }
            }
        }
        needed.sort_unstable();
        needed.dedup();
        for rel in needed {
            self.db.ensure_loaded(rel)?;
        }
        self.db.solver.solve_only(&|r| affected.contains(&r))?;
        Ok(())
    }
}

/// The declaration a rule implies for its head: each head argument must
/// be a distinct variable whose domain a body atom tells.
fn infer_declaration(
    rule: &crate::datalog::ast::RuleAst,
    known: &std::collections::HashMap<String, Vec<String>>,
) -> Option<Statement> {
    use crate::datalog::ast::{AttrAst, LiteralAst, TermAst};
    let mut domain_of: std::collections::HashMap<&str, &str> = Default::default();
    for lit in &rule.body {
        if let LiteralAst::Atom { atom, .. } = lit {
            let doms = known.get(&atom.relation)?;
            for (arg, d) in atom.args.iter().zip(doms) {
                if let TermAst::Var(v) = &arg.term {
                    domain_of.entry(v.as_str()).or_insert(d.as_str());
                }
            }
        }
    }
    let mut attrs: Vec<AttrAst> = Vec::new();
    for arg in &rule.head.args {
        let TermAst::Var(v) = &arg.term else {
            return None;
        };
        if attrs.iter().any(|a| &a.name == v) {
            return None;
        }
        attrs.push(AttrAst {
            name: v.clone(),
            ty: domain_of.get(v.as_str())?.to_string(),
            loc: arg.loc.clone(),
        });
    }
    Some(Statement::Relation {
        name: rule.head.relation.clone(),
        attrs,
        options: Vec::new(),
        loc: rule.loc.clone(),
    })
}

/// The relations that rules from `first_new` on define, and the queries'.
fn new_heads(prog: &Program, first_new: usize) -> HashSet<RelId> {
    let mut heads: HashSet<RelId> = prog.rules[first_new.min(prog.rules.len())..]
        .iter()
        .map(|r| r.head.rel)
        .collect();
    for q in &prog.queries {
        heads.insert(q.rel);
    }
    heads
}

/// `affected` with every relation that a rule derives from one of them,
/// transitively.
fn dependents(prog: &Program, mut affected: HashSet<RelId>) -> HashSet<RelId> {
    loop {
        let before = affected.len();
        for r in &prog.rules {
            let reads_affected = r.body.iter().any(|l| match l {
                Literal::Pos(a) | Literal::Neg(a) => affected.contains(&a.rel),
                Literal::Cmp { .. } => false,
            });
            if reads_affected {
                affected.insert(r.head.rel);
            }
        }
        if affected.len() == before {
            return affected;
        }
    }
}
