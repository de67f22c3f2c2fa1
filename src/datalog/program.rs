//! A checked program: every name resolved, every term typed.

use super::ast::CmpOp;
use super::error::Loc;
use crate::bdd::{DomainId, OrderGroup};
use crate::io::map::NameMap;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// Index of a relation in [`Program::relations`].
pub type RelId = usize;
/// Index of a variable in [`Rule::vars`].
pub type VarId = usize;

/// A declared domain.
#[derive(Clone, Debug)]
pub struct Domain {
    /// Its name.
    pub name: String,
    /// Its size.
    pub size: u64,
    /// Its map file, if declared.
    pub map_file: Option<PathBuf>,
    /// The element names, when the map file exists.
    pub names: Option<Arc<NameMap>>,
}

/// One attribute of a relation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribute {
    /// Its name.
    pub name: String,
    /// Its domain.
    pub domain: DomainId,
    /// Its domain instance number (1 for `V1`).
    pub instance: u32,
}

impl Attribute {
    /// The block of BDD variables that holds this attribute in `layout`.
    /// The solver allocates every declared attribute's instance before
    /// anything is planned or read, so a missing one is a bug.
    pub fn instance_in(&self, layout: &crate::bdd::Layout) -> crate::bdd::InstanceId {
        layout
            .find_instance(self.domain, self.instance)
            .expect("every attribute's domain instance is allocated")
    }
}

/// What to do with a relation's contents, from its declaration options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RelOptions {
    /// Load from `name.bdd` (or `.tuples`/`.facts` when that is what exists).
    pub input: bool,
    /// Save to `name.bdd`.
    pub output: bool,
    /// Load from `name.tuples`.
    pub input_tuples: bool,
    /// Save to `name.tuples`.
    pub output_tuples: bool,
    /// Print every tuple after solving.
    pub print_tuples: bool,
    /// Print the exact tuple count after solving.
    pub print_size: bool,
}

/// A declared relation.
#[derive(Clone, Debug)]
pub struct Relation {
    /// Its name.
    pub name: String,
    /// Its attributes.
    pub attrs: Vec<Attribute>,
    /// Its options.
    pub options: RelOptions,
    /// Where it was declared (queries point at the query).
    pub loc: Option<Loc>,
}

/// A term of a checked rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// A rule variable.
    Var(VarId),
    /// A constant (map names already resolved).
    Const(u64),
    /// Any value: `_` or `*`.
    Any,
}

/// A checked atom.
#[derive(Clone, Debug)]
pub struct Atom {
    /// The relation.
    pub rel: RelId,
    /// One term per attribute.
    pub args: Vec<Term>,
    /// Where.
    pub loc: Loc,
}

/// A checked body literal.
#[derive(Clone, Debug)]
pub enum Literal {
    /// A positive subgoal.
    Pos(Atom),
    /// A negated subgoal.
    Neg(Atom),
    /// A comparison.
    Cmp {
        /// The operator.
        op: CmpOp,
        /// Left side (a variable or constant).
        lhs: Term,
        /// Right side.
        rhs: Term,
        /// Where.
        loc: Loc,
    },
}

/// A variable of a rule.
#[derive(Clone, Debug)]
pub struct RuleVar {
    /// Its name.
    pub name: String,
    /// Its domain.
    pub domain: DomainId,
}

/// A checked rule.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The head.
    pub head: Atom,
    /// The body.
    pub body: Vec<Literal>,
    /// The variables.
    pub vars: Vec<RuleVar>,
    /// Where the rule starts.
    pub loc: Loc,
    /// The source text of the rule, for reports.
    pub text: String,
    /// A `number` rule: its head numbers the paths of the graph its body
    /// gives (see `datalog::numbering`), instead of joining.
    pub number: bool,
}

/// A query `body?`: answered by a rule into a relation of its own.
#[derive(Clone, Debug)]
pub struct Query {
    /// The relation holding the answer (one attribute per variable).
    pub rel: RelId,
    /// The rule computing it.
    pub rule: usize,
    /// The query's text.
    pub text: String,
}

/// A checked program.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Domains.
    pub domains: Vec<Domain>,
    /// Relations, queries' answer relations included.
    pub relations: Vec<Relation>,
    /// Rules and facts.
    pub rules: Vec<Rule>,
    /// Queries, in order.
    pub queries: Vec<Query>,
    /// The `.bddvarorder`, if given.
    pub var_order: Option<Vec<OrderGroup>>,
    /// Instances in allocation order: those of the variable order first.
    pub allocation: Vec<(DomainId, u32)>,
    /// Where input relations and map files are read from.
    pub base_dir: PathBuf,
    /// Notes for the user (ignored directives and options).
    pub notes: Vec<String>,
    /// Domains by name, kept by [`push_domain`](Self::push_domain).
    domain_index: HashMap<String, DomainId>,
    /// Relations by name, kept by [`push_relation`](Self::push_relation).
    relation_index: HashMap<String, RelId>,
}

impl Program {
    /// Adds a domain; its name must be new.
    pub fn push_domain(&mut self, d: Domain) -> DomainId {
        let id = self.domains.len();
        self.domain_index.insert(d.name.clone(), id);
        self.domains.push(d);
        id
    }

    /// Adds a relation; its name must be new.
    pub fn push_relation(&mut self, r: Relation) -> RelId {
        let id = self.relations.len();
        self.relation_index.insert(r.name.clone(), id);
        self.relations.push(r);
        id
    }

    /// The relation with the given name (a hash lookup: programs with
    /// tens of thousands of declarations resolve in linear time).
    pub fn relation_id(&self, name: &str) -> Option<RelId> {
        match self.relation_index.get(name) {
            Some(&id) if self.relations.get(id).is_some_and(|r| r.name == name) => Some(id),
            _ if self.relation_index.len() == self.relations.len() => None,
            _ => self.relations.iter().position(|r| r.name == name),
        }
    }

    /// The domain with the given name.
    pub fn domain_id(&self, name: &str) -> Option<DomainId> {
        match self.domain_index.get(name) {
            Some(&id) if self.domains.get(id).is_some_and(|d| d.name == name) => Some(id),
            _ if self.domain_index.len() == self.domains.len() => None,
            _ => self.domains.iter().position(|d| d.name == name),
        }
    }

    /// `V1` for instance 1 of domain V.
    pub fn instance_name(&self, domain: DomainId, index: u32) -> String {
        format!("{}{}", self.domains[domain].name, index)
    }

    /// A relation's attributes as declared: `v:V0, h:H0`.
    pub fn attributes_text(&self, rel: RelId) -> String {
        self.relations[rel]
            .attrs
            .iter()
            .map(|a| format!("{}:{}", a.name, self.instance_name(a.domain, a.instance)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}
