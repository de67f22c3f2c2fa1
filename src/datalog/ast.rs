//! The syntax tree of a bddbddb Datalog program, before name resolution.

use super::error::Loc;

/// A term in an atom or comparison.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TermAst {
    /// A variable.
    Var(String),
    /// `_` or `*`: any value.
    Wildcard,
    /// An integer constant.
    Int(u64),
    /// A quoted name, resolved through the domain's map file.
    Name(String),
}

/// A term with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgAst {
    /// The term.
    pub term: TermAst,
    /// Where it is.
    pub loc: Loc,
}

/// `name(arg, ...)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtomAst {
    /// The relation's name.
    pub relation: String,
    /// The arguments.
    pub args: Vec<ArgAst>,
    /// Where the atom starts.
    pub loc: Loc,
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl CmpOp {
    /// The operator's symbol.
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// One subgoal of a rule body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiteralAst {
    /// `r(...)` or `!r(...)`.
    Atom {
        /// The atom.
        atom: AtomAst,
        /// Whether it is negated.
        negated: bool,
    },
    /// `x op y`.
    Cmp {
        /// The operator.
        op: CmpOp,
        /// Left side.
        lhs: ArgAst,
        /// Right side.
        rhs: ArgAst,
        /// Where the comparison starts.
        loc: Loc,
    },
}

/// `head :- body.` (a fact has an empty body).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleAst {
    /// The head.
    pub head: AtomAst,
    /// The subgoals.
    pub body: Vec<LiteralAst>,
    /// Options after the period (`split`, `pri=-10`), accepted and kept.
    pub options: Vec<String>,
    /// Where the rule starts.
    pub loc: Loc,
}

/// `name : TYPE` in a relation declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttrAst {
    /// The attribute's name.
    pub name: String,
    /// `V1` (an instance) or `V` (any free instance of the domain).
    pub ty: String,
    /// Where it is.
    pub loc: Loc,
}

/// One statement of a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// `NAME SIZE [mapfile]`.
    Domain {
        /// Its name.
        name: String,
        /// Its size.
        size: u64,
        /// The map file, relative to the base directory.
        map: Option<String>,
        /// Where.
        loc: Loc,
    },
    /// `name(attr:DOM, ...) options`.
    Relation {
        /// Its name.
        name: String,
        /// Its attributes.
        attrs: Vec<AttrAst>,
        /// Options such as `input`, `printsize`.
        options: Vec<(String, Loc)>,
        /// Where.
        loc: Loc,
    },
    /// A rule or fact.
    Rule(RuleAst),
    /// `body?`.
    Query {
        /// The subgoals.
        body: Vec<LiteralAst>,
        /// Where.
        loc: Loc,
    },
    /// `.bddvarorder ORDER`.
    VarOrder {
        /// The order string.
        order: String,
        /// Where.
        loc: Loc,
    },
}
