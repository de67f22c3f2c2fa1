//! Name resolution and checking: a parsed program into a [`Program`].
//!
//! Checks, each reported with its location: unknown relations, domains and
//! instances; arity and domain mismatches; quoted constants missing from a
//! map; numbers outside their domain; unsafe rules (a head or negated
//! variable that nothing in the body binds).

use super::ast::{self, CmpOp, LiteralAst, Statement, TermAst};
use super::error::{Error, ErrorKind, Loc, Result};
use super::parser::ParsedProgram;
use super::program::*;
use super::quote::{bounded, did_you_mean};
use crate::bdd::{parse_var_order, DomainId};
use crate::io::map::NameMap;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Resolves and checks a parsed program.
pub fn resolve(parsed: &ParsedProgram) -> Result<Program> {
    resolve_with_maps(parsed, &mut MapCache::new())
}

/// Map files already read, by path: a session that re-resolves its
/// program after every statement reads each map once.
pub type MapCache = HashMap<std::path::PathBuf, Arc<NameMap>>;

/// Resolves and checks a parsed program, reading map files through `maps`.
pub fn resolve_with_maps(parsed: &ParsedProgram, maps: &mut MapCache) -> Result<Program> {
    let mut r = Resolver {
        prog: {
            let mut p = Program::default();
            p.base_dir = parsed.base_dir.clone();
            p.notes = parsed.notes.clone();
            p
        },
        maps,
    };
    r.domains(&parsed.statements)?;
    r.var_order(&parsed.statements)?;
    r.relations(&parsed.statements)?;
    for stmt in &parsed.statements {
        match stmt {
            Statement::Rule(rule) => {
                let number = rule.options.iter().any(|o| o == "number");
                let text = rule_text(rule);
                let checked = r.rule(&rule.head, &rule.body, &rule.loc, text, number)?;
                r.prog.rules.push(checked);
            }
            Statement::Query { body, loc } => r.query(body, loc)?,
            _ => {}
        }
    }
    r.reserve_rule_instances();
    Ok(r.prog)
}

struct Resolver<'m> {
    prog: Program,
    maps: &'m mut MapCache,
}

impl Resolver<'_> {
    fn domains(&mut self, stmts: &[Statement]) -> Result<()> {
        for s in stmts {
            if let Statement::Domain {
                name,
                size,
                map,
                loc,
            } = s
            {
                if self.prog.domain_id(name).is_some() {
                    return Err(Error::at(
                        loc,
                        ErrorKind::Mismatch,
                        format!("domain {} is declared twice", bounded(name)),
                    ));
                }
                if *size == 0 {
                    return Err(Error::at(
                        loc,
                        ErrorKind::OutOfDomain,
                        format!("domain {} has size 0", bounded(name)),
                    ));
                }
                // bddbddb looks in the base directory; a map beside the
                // file that declares the domain (an included schema) is
                // found too.
                let map_file = map.as_ref().map(|m| {
                    let in_base = self.prog.base_dir.join(m);
                    let beside = loc.file.parent().map(|d| d.join(m));
                    match beside {
                        Some(b) if !in_base.is_file() && b.is_file() => b,
                        _ => in_base,
                    }
                });
                if let Some(p) = map_file.as_ref().filter(|p| !self.maps.contains_key(*p)) {
                    if !p.is_file() {
                        let what = if p.exists() {
                            "is not a regular file"
                        } else {
                            "does not exist"
                        };
                        return Err(Error::at(
                            loc,
                            ErrorKind::Io,
                            format!(
                                "the map file {} of domain {} {what}",
                                p.display(),
                                bounded(name)
                            ),
                        ));
                    }
                }
                let names = match &map_file {
                    Some(p) if self.maps.contains_key(p) => self.maps.get(p).cloned(),
                    Some(p) if p.is_file() => {
                        let m = Arc::new(NameMap::read(p).map_err(|e| {
                            Error::at(
                                loc,
                                ErrorKind::Io,
                                format!("cannot read map file {}: {e}", p.display()),
                            )
                        })?);
                        self.maps.insert(p.clone(), m.clone());
                        Some(m)
                    }
                    _ => None,
                };
                self.prog.push_domain(Domain {
                    name: name.clone(),
                    size: *size,
                    map_file,
                    names,
                });
            }
        }
        Ok(())
    }

    fn var_order(&mut self, stmts: &[Statement]) -> Result<()> {
        let names: Vec<String> = self.prog.domains.iter().map(|d| d.name.clone()).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        for s in stmts {
            if let Statement::VarOrder { order, loc } = s {
                let groups = parse_var_order(order, &refs)
                    .map_err(|e| Error::at(loc, ErrorKind::Unknown, e.to_string()))?;
                if self.prog.var_order.is_some() {
                    self.prog.notes.push(format!(
                        "{loc}: note: a later .bddvarorder replaces the earlier one"
                    ));
                }
                self.prog.allocation.clear();
                for g in &groups {
                    for inst in g {
                        let (d, i) = self.split_instance(inst).ok_or_else(|| {
                            Error::at(
                                loc,
                                ErrorKind::Unknown,
                                format!("'{inst}' is not a domain instance"),
                            )
                        })?;
                        self.allocate(d, i);
                    }
                }
                self.prog.var_order = Some(groups);
            }
        }
        Ok(())
    }

    fn allocate(&mut self, d: DomainId, i: u32) {
        if !self.prog.allocation.contains(&(d, i)) {
            self.prog.allocation.push((d, i));
        }
    }

    fn split_instance(&self, name: &str) -> Option<(DomainId, u32)> {
        let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return None;
        }
        let (d, n) = name.split_at(name.len() - digits);
        Some((self.prog.domain_id(d)?, n.parse().ok()?))
    }

    fn relations(&mut self, stmts: &[Statement]) -> Result<()> {
        for s in stmts {
            let Statement::Relation {
                name,
                attrs,
                options,
                loc,
            } = s
            else {
                continue;
            };
            if self.prog.relation_id(name).is_some() {
                return Err(Error::at(
                    loc,
                    ErrorKind::Mismatch,
                    format!("relation {} is declared twice", bounded(name)),
                ));
            }
            let mut resolved: Vec<Attribute> = Vec::new();
            for a in attrs {
                let attr = self.attribute(name, a, &resolved)?;
                self.allocate(attr.domain, attr.instance);
                resolved.push(attr);
            }
            let options = self.relation_options(options);
            self.prog.push_relation(Relation {
                name: name.clone(),
                attrs: resolved,
                options,
                loc: Some(loc.clone()),
            });
        }
        Ok(())
    }

    /// Attribute `a` of relation `rel`, whose earlier attributes are
    /// `earlier`: its domain and instance.
    fn attribute(&self, rel: &str, a: &ast::AttrAst, earlier: &[Attribute]) -> Result<Attribute> {
        let (domain, instance) = if let Some(d) = self.prog.domain_id(&a.ty) {
            // As in bddbddb, a bare domain is its lowest-numbered
            // instance this relation does not use yet (H0, then H1),
            // wherever the variable order puts that instance.
            let used: Vec<u32> = earlier
                .iter()
                .filter(|x| x.domain == d)
                .map(|x| x.instance)
                .collect();
            let idx = (0..u32::MAX).find(|i| !used.contains(i)).unwrap_or(0);
            (d, idx)
        } else if let Some(di) = self.split_instance(&a.ty) {
            di
        } else {
            return Err(Error::at(
                &a.loc,
                ErrorKind::Unknown,
                format!(
                    "unknown domain '{}'{}",
                    bounded(&a.ty),
                    self.domain_suggestion(&a.ty)
                ),
            ));
        };
        if earlier
            .iter()
            .any(|x| x.domain == domain && x.instance == instance)
        {
            return Err(Error::at(
                &a.loc,
                ErrorKind::Mismatch,
                format!(
                    "relation {rel} uses instance {} for two attributes; give each attribute its own instance",
                    self.prog.instance_name(domain, instance)
                ),
            ));
        }
        Ok(Attribute {
            name: a.name.clone(),
            domain,
            instance,
        })
    }

    /// A "did you mean" for an unknown domain `ty`.
    fn domain_suggestion(&self, ty: &str) -> String {
        let names = || self.prog.domains.iter().map(|d| d.name.as_str());
        let near = did_you_mean(ty, names());
        if near.is_empty() {
            // `v0` is instance 0 of a domain like `V`.
            did_you_mean(ty.trim_end_matches(|c: char| c.is_ascii_digit()), names())
        } else {
            near
        }
    }

    /// A relation's options; unknown ones are noted and ignored.
    fn relation_options(&mut self, options: &[(String, Loc)]) -> RelOptions {
        let mut opts = RelOptions::default();
        for (o, oloc) in options {
            match o.as_str() {
                "input" => opts.input = true,
                "output" => opts.output = true,
                "inputtuples" => opts.input_tuples = true,
                "outputtuples" => opts.output_tuples = true,
                "printtuples" => opts.print_tuples = true,
                "printsize" => opts.print_size = true,
                other => self.prog.notes.push(format!(
                    "{oloc}: note: relation option '{other}' is accepted and ignored"
                )),
            }
        }
        opts
    }

    fn query(&mut self, body: &[LiteralAst], loc: &Loc) -> Result<()> {
        // The answer relation has one attribute per named variable, in order.
        let mut names: Vec<String> = Vec::new();
        let mut push = |t: &TermAst| {
            if let TermAst::Var(v) = t {
                if !names.contains(v) {
                    names.push(v.clone());
                }
            }
        };
        for lit in body {
            match lit {
                LiteralAst::Atom { atom, .. } => atom.args.iter().for_each(|a| push(&a.term)),
                LiteralAst::Cmp { lhs, rhs, .. } => {
                    push(&lhs.term);
                    push(&rhs.term)
                }
            }
        }
        let rel_name = format!("query@{}:{}", loc.line, loc.col);
        let head = ast::AtomAst {
            relation: rel_name.clone(),
            args: names
                .iter()
                .map(|n| ast::ArgAst {
                    term: TermAst::Var(n.clone()),
                    loc: loc.clone(),
                })
                .collect(),
            loc: loc.clone(),
        };
        // Domains come from checking the body with a provisional head.
        let domains = self.var_domains(body)?;
        let mut per_domain: HashMap<DomainId, u32> = HashMap::new();
        let attrs = names
            .iter()
            .map(|n| {
                let d = *domains.get(n).ok_or_else(|| {
                    Error::at(
                        loc,
                        ErrorKind::Mismatch,
                        format!("cannot tell the domain of variable {n}"),
                    )
                })?;
                let k = per_domain.entry(d).or_insert(0);
                *k += 1;
                Ok(Attribute {
                    name: n.clone(),
                    domain: d,
                    instance: *k - 1,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        for a in &attrs {
            self.allocate(a.domain, a.instance);
        }
        self.prog.push_relation(Relation {
            name: rel_name,
            attrs,
            options: RelOptions::default(),
            loc: Some(loc.clone()),
        });
        let text = query_text(body);
        let rule = self.rule(&head, body, loc, text.clone(), false)?;
        self.prog.rules.push(rule);
        self.prog.queries.push(Query {
            rel: self.prog.relations.len() - 1,
            rule: self.prog.rules.len() - 1,
            text,
        });
        Ok(())
    }

    fn atom_rel(&self, atom: &ast::AtomAst) -> Result<RelId> {
        let rel = self.prog.relation_id(&atom.relation).ok_or_else(|| {
            Error::at(
                &atom.loc,
                ErrorKind::Unknown,
                format!(
                    "unknown relation {}{}",
                    bounded(&atom.relation),
                    did_you_mean(
                        &atom.relation,
                        self.prog.relations.iter().map(|r| r.name.as_str())
                    )
                ),
            )
        })?;
        let arity = self.prog.relations[rel].attrs.len();
        if atom.args.len() != arity {
            return Err(Error::at(
                &atom.loc,
                ErrorKind::Mismatch,
                format!(
                    "{} has {} attributes but {} arguments are given",
                    atom.relation,
                    arity,
                    atom.args.len()
                ),
            ));
        }
        Ok(rel)
    }

    /// The domain of every variable in a body, checking that uses agree.
    fn var_domains(&self, body: &[LiteralAst]) -> Result<HashMap<String, DomainId>> {
        let mut doms: HashMap<String, DomainId> = HashMap::new();
        for lit in body {
            if let LiteralAst::Atom { atom, .. } = lit {
                let rel = self.atom_rel(atom)?;
                for (arg, attr) in atom.args.iter().zip(&self.prog.relations[rel].attrs) {
                    if let TermAst::Var(v) = &arg.term {
                        self.unify(&mut doms, v, attr.domain, &arg.loc)?;
                    }
                }
            }
        }
        // Comparisons propagate domains between variables until nothing changes.
        loop {
            let mut changed = false;
            for lit in body {
                if let LiteralAst::Cmp { lhs, rhs, .. } = lit {
                    if let (TermAst::Var(a), TermAst::Var(b)) = (&lhs.term, &rhs.term) {
                        match (doms.get(a).copied(), doms.get(b).copied()) {
                            (Some(da), None) => {
                                doms.insert(b.clone(), da);
                                changed = true;
                            }
                            (None, Some(db)) => {
                                doms.insert(a.clone(), db);
                                changed = true;
                            }
                            (Some(da), Some(db)) if da != db => {
                                return Err(Error::at(
                                    &lhs.loc,
                                    ErrorKind::Mismatch,
                                    format!(
                                        "cannot compare {a} (domain {}) with {b} (domain {})",
                                        self.prog.domains[da].name, self.prog.domains[db].name
                                    ),
                                ));
                            }
                            _ => {}
                        }
                    }
                }
            }
            if !changed {
                return Ok(doms);
            }
        }
    }

    fn unify(
        &self,
        doms: &mut HashMap<String, DomainId>,
        v: &str,
        d: DomainId,
        loc: &Loc,
    ) -> Result<()> {
        match doms.get(v) {
            Some(&prev) if prev != d => Err(Error::at(
                loc,
                ErrorKind::Mismatch,
                format!(
                    "variable {} is used in domain {} here but in domain {} elsewhere in the rule",
                    bounded(v),
                    self.prog.domains[d].name,
                    self.prog.domains[prev].name
                ),
            )),
            _ => {
                doms.insert(v.to_string(), d);
                Ok(())
            }
        }
    }

    fn constant(&self, t: &TermAst, domain: DomainId, loc: &Loc) -> Result<u64> {
        let dom = &self.prog.domains[domain];
        match t {
            TermAst::Int(n) => {
                if *n >= dom.size {
                    return Err(Error::at(
                        loc,
                        ErrorKind::OutOfDomain,
                        format!("{n} is outside domain {} (size {})", dom.name, dom.size),
                    ));
                }
                Ok(*n)
            }
            TermAst::Name(s) => {
                let Some(map) = &dom.names else {
                    let why = match &dom.map_file {
                        Some(p) => format!("its map file {} does not exist", p.display()),
                        None => "it has no map file".to_string(),
                    };
                    return Err(Error::at(
                        loc,
                        ErrorKind::MissingConstant,
                        format!(
                            "\"{}\" cannot be resolved in domain {}: {why}",
                            bounded(s),
                            dom.name
                        ),
                    ));
                };
                let id = match map.id(s) {
                    Some(id) => id,
                    None => {
                        if let Some(why) = map.error() {
                            return Err(Error::at(loc, ErrorKind::Io, why.to_string()));
                        }
                        plain_name(map, s).map_err(|why| {
                            Error::at(
                                loc,
                                ErrorKind::MissingConstant,
                                format!(
                                    "\"{}\" is not in the map of domain {}{why}",
                                    bounded(s),
                                    dom.name
                                ),
                            )
                        })?
                    }
                };
                if id >= dom.size {
                    return Err(Error::at(
                        loc,
                        ErrorKind::OutOfDomain,
                        format!(
                            "\"{}\" is element {id}, outside domain {} (size {})",
                            bounded(s),
                            dom.name,
                            dom.size
                        ),
                    ));
                }
                Ok(id)
            }
            _ => unreachable!("only constants reach here"),
        }
    }

    fn rule(
        &mut self,
        head: &ast::AtomAst,
        body: &[LiteralAst],
        loc: &Loc,
        text: String,
        number: bool,
    ) -> Result<Rule> {
        if number {
            check_numbering(head, body, loc)?;
        }
        let mut doms = self.var_domains(body)?;
        let head_rel = self.atom_rel(head)?;
        let mut vars = RuleVars::default();
        let mut lits = Vec::new();
        for lit in body {
            lits.push(match lit {
                LiteralAst::Atom { atom, negated } => {
                    let a = self.body_atom(atom, !negated, &mut vars)?;
                    if *negated {
                        Literal::Neg(a)
                    } else {
                        Literal::Pos(a)
                    }
                }
                LiteralAst::Cmp { op, lhs, rhs, loc } => {
                    self.comparison(*op, lhs, rhs, loc, &doms, &mut vars)?
                }
            });
        }
        check_negations_bound(body, &vars.bound)?;
        let mut head_args = Vec::new();
        let head_attrs = self.prog.relations[head_rel].attrs.clone();
        for (k, (arg, attr)) in head.args.iter().zip(&head_attrs).enumerate() {
            head_args.push(match &arg.term {
                // A numbering rule's last two head variables are the
                // contexts it numbers.
                TermAst::Var(v) if number && k >= 2 => Term::Var(vars.id(v, attr.domain)),
                TermAst::Var(v) => {
                    if !vars.bound.contains(v) {
                        return Err(Error::at(
                            &arg.loc,
                            ErrorKind::Unsafe,
                            format!("unsafe rule: head variable {} does not appear in a positive subgoal of the body", bounded(v)),
                        ));
                    }
                    self.unify(&mut doms, v, attr.domain, &arg.loc)?;
                    Term::Var(vars.id(v, attr.domain))
                }
                TermAst::Wildcard => Term::Any,
                c => Term::Const(self.constant(c, attr.domain, &arg.loc)?),
            });
        }
        let head = Atom {
            rel: head_rel,
            args: head_args,
            loc: head.loc.clone(),
        };
        Ok(Rule {
            head,
            body: lits,
            vars: vars.vars,
            loc: loc.clone(),
            text,
            number,
        })
    }

    /// A subgoal of a rule's body; the variables of a `positive` one are
    /// bound.
    fn body_atom(&self, atom: &ast::AtomAst, positive: bool, vars: &mut RuleVars) -> Result<Atom> {
        let rel = self.atom_rel(atom)?;
        let mut args = Vec::new();
        for (arg, attr) in atom.args.iter().zip(&self.prog.relations[rel].attrs) {
            args.push(match &arg.term {
                TermAst::Var(v) => {
                    if positive {
                        vars.bound.insert(v.clone());
                    }
                    Term::Var(vars.id(v, attr.domain))
                }
                TermAst::Wildcard => Term::Any,
                c => Term::Const(self.constant(c, attr.domain, &arg.loc)?),
            });
        }
        Ok(Atom {
            rel,
            args,
            loc: atom.loc.clone(),
        })
    }

    /// A comparison of a rule's body, in the domain of its variables (as
    /// the subgoals give them, `doms`); its variables are bound.
    fn comparison(
        &self,
        op: CmpOp,
        lhs: &ast::ArgAst,
        rhs: &ast::ArgAst,
        loc: &Loc,
        doms: &HashMap<String, DomainId>,
        vars: &mut RuleVars,
    ) -> Result<Literal> {
        let var_name = |t: &&ast::ArgAst| match &t.term {
            TermAst::Var(v) => Some(v.clone()),
            _ => None,
        };
        let dom = [lhs, rhs]
            .iter()
            .filter_map(var_name)
            .find_map(|v| doms.get(&v).copied());
        let Some(dom) = dom else {
            return Err(Error::at(
                loc,
                ErrorKind::Mismatch,
                match [lhs, rhs].iter().find_map(var_name) {
                    Some(v) => format!(
                        "cannot tell the domain of variable {}: it appears in no relation",
                        bounded(&v)
                    ),
                    None => "a comparison needs at least one variable".to_string(),
                },
            ));
        };
        let mut term = |t: &ast::ArgAst| -> Result<Term> {
            Ok(match &t.term {
                TermAst::Var(v) => {
                    vars.bound.insert(v.clone());
                    Term::Var(vars.id(v, dom))
                }
                TermAst::Wildcard => {
                    return Err(Error::at(
                        &t.loc,
                        ErrorKind::Syntax,
                        "'_' cannot be compared",
                    ))
                }
                c => Term::Const(self.constant(c, dom, &t.loc)?),
            })
        };
        let (lhs, rhs) = (term(lhs)?, term(rhs)?);
        Ok(Literal::Cmp {
            op,
            lhs,
            rhs,
            loc: loc.clone(),
        })
    }

    /// A rule with k variables of a domain needs k instances of it; allocate
    /// the missing ones (they go after the declared variable order).
    fn reserve_rule_instances(&mut self) {
        for ri in 0..self.prog.rules.len() {
            let mut need: HashMap<DomainId, u32> = HashMap::new();
            for v in &self.prog.rules[ri].vars {
                *need.entry(v.domain).or_insert(0) += 1;
            }
            for (d, k) in need {
                let mut have = self
                    .prog
                    .allocation
                    .iter()
                    .filter(|(dd, _)| *dd == d)
                    .count() as u32;
                let mut next = 0;
                while have < k {
                    if !self.prog.allocation.contains(&(d, next)) {
                        self.allocate(d, next);
                        have += 1;
                    }
                    next += 1;
                }
            }
        }
    }
}

fn term_text(t: &TermAst) -> String {
    match t {
        TermAst::Var(v) => v.clone(),
        TermAst::Wildcard => "_".into(),
        TermAst::Int(n) => n.to_string(),
        TermAst::Name(s) => format!("\"{}\"", bounded(s)),
    }
}

fn atom_text(a: &ast::AtomAst) -> String {
    let args: Vec<String> = a.args.iter().map(|x| term_text(&x.term)).collect();
    format!("{}({})", a.relation, args.join(", "))
}

fn query_text(body: &[LiteralAst]) -> String {
    let parts: Vec<String> = body
        .iter()
        .map(|l| match l {
            LiteralAst::Atom { atom, negated } => {
                format!("{}{}", if *negated { "!" } else { "" }, atom_text(atom))
            }
            LiteralAst::Cmp { op, lhs, rhs, .. } => {
                format!(
                    "{} {} {}",
                    term_text(&lhs.term),
                    CmpOp::symbol(*op),
                    term_text(&rhs.term)
                )
            }
        })
        .collect();
    parts.join(", ")
}

/// The variables of a rule being resolved: their ids in order of first
/// use, and those that a positive subgoal or a comparison binds.
#[derive(Default)]
struct RuleVars {
    ids: HashMap<String, VarId>,
    vars: Vec<RuleVar>,
    bound: HashSet<String>,
}

impl RuleVars {
    /// The id of variable `name`, numbered at its first use, in domain `d`.
    fn id(&mut self, name: &str, d: DomainId) -> VarId {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        self.vars.push(RuleVar {
            name: name.to_string(),
            domain: d,
        });
        self.ids.insert(name.to_string(), self.vars.len() - 1);
        self.vars.len() - 1
    }
}

/// Checks the shape of a `number` rule (see `datalog::numbering`): a
/// head of four distinct variables, the last two not in the body; a body
/// of positive subgoals, the first with one variable (the roots), the
/// others with two (the edges, from the first to the second), and no
/// constants; the head's first two variables are those of an edge.
fn check_numbering(head: &ast::AtomAst, body: &[LiteralAst], loc: &Loc) -> Result<()> {
    let bad = |what: &str| {
        Err(Error::at(
            loc,
            ErrorKind::Syntax,
            format!("a numbering rule {what}; write it as `N(a, b, ca, cb) :- roots(r), E(a, b), ... . number`"),
        ))
    };
    let var = |t: &ast::ArgAst| match &t.term {
        TermAst::Var(v) => Some(v.clone()),
        _ => None,
    };
    let head_vars: Vec<String> = head.args.iter().filter_map(var).collect();
    let distinct: HashSet<&String> = head_vars.iter().collect();
    if head.args.len() != 4 || head_vars.len() != 4 || distinct.len() != 4 {
        return bad("needs a head of four distinct variables");
    }
    let mut edges: Vec<Vec<String>> = Vec::new();
    for (k, lit) in body.iter().enumerate() {
        let LiteralAst::Atom {
            atom,
            negated: false,
        } = lit
        else {
            return bad("has only positive subgoals");
        };
        if (atom.args.iter()).any(|a| !matches!(a.term, TermAst::Var(_) | TermAst::Wildcard)) {
            return bad("has no constants");
        }
        let vars: Vec<String> = atom.args.iter().filter_map(var).collect();
        let unique: HashSet<&String> = vars.iter().collect();
        let want = if k == 0 { 1 } else { 2 };
        if vars.len() != want || unique.len() != want {
            return bad(
                "has a first subgoal of one variable (the roots) and others of two (the edges)",
            );
        }
        if head_vars[2..].iter().any(|h| vars.contains(h)) {
            return bad("numbers with head variables that the body does not use");
        }
        if k > 0 {
            edges.push(vars);
        }
    }
    if !edges.iter().any(|e| e[..] == head_vars[..2]) {
        return bad("numbers an edge: its head's first two variables are an edge subgoal's");
    }
    Ok(())
}

/// Checks that the negated subgoals of `body` only use variables that
/// the rule binds elsewhere.
fn check_negations_bound(body: &[LiteralAst], bound: &HashSet<String>) -> Result<()> {
    for lit in body {
        let LiteralAst::Atom {
            atom,
            negated: true,
        } = lit
        else {
            continue;
        };
        for arg in &atom.args {
            if let TermAst::Var(v) = &arg.term {
                if !bound.contains(v) {
                    return Err(Error::at(
                        &arg.loc,
                        ErrorKind::Unsafe,
                        format!("unsafe rule: variable {} appears only in a negated subgoal; bind it in a positive subgoal or use '_'", bounded(v)),
                    ));
                }
            }
        }
    }
    Ok(())
}

fn rule_text(r: &ast::RuleAst) -> String {
    if r.body.is_empty() {
        format!("{}.", atom_text(&r.head))
    } else {
        format!("{} :- {}.", atom_text(&r.head), query_text(&r.body))
    }
}

/// The element that a name missing from a map stands for, when its
/// plain form is unambiguous: `r.Upper` for the string constant
/// `"r.Upper"` (which the maps store with its quotes) or for the class
/// object `<class r.Upper>`. Otherwise the reason, to append to the error:
/// the forms it may mean, or the nearest names.
fn plain_name(map: &crate::io::map::NameMap, s: &str) -> std::result::Result<u64, String> {
    let forms = [
        (
            format!("\"{}\"", crate::classfile::descriptor::escape_string(s)),
            "the string constant",
        ),
        (format!("<class {s}>"), "the class object"),
    ];
    let found: Vec<(u64, &str, &str)> = forms
        .iter()
        .filter_map(|(form, what)| map.id(form).map(|id| (id, form.as_str(), *what)))
        .collect();
    match found.as_slice() {
        [(id, _, _)] => Ok(*id),
        [] => {
            let names = map.names();
            let hint = crate::datalog::quote::did_you_mean(s, names.iter().map(String::as_str));
            if !hint.is_empty() {
                return Err(hint);
            }
            // Names that contain it, shortest first.
            let mut near: Vec<&str> = names
                .iter()
                .map(String::as_str)
                .filter(|n| n.contains(s))
                .collect();
            near.sort_by_key(|n| (n.len(), *n));
            near.truncate(3);
            if near.is_empty() || s.is_empty() {
                return Err(String::new());
            }
            let quoted: Vec<String> = near.iter().map(|n| bounded(n)).collect();
            Err(format!(" (names that contain it: {})", quoted.join(", ")))
        }
        several => {
            let forms: Vec<String> = several
                .iter()
                .map(|(_, form, what)| format!("{what} {}", crate::datalog::quote::constant(form)))
                .collect();
            Err(format!(
                ": it may mean {}; write one of them",
                forms.join(" or ")
            ))
        }
    }
}
