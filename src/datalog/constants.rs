//! The constants a program's rules and queries use, per domain: what a
//! database must hold for the program to resolve.
//!
//! A program written against a generated schema (the analyses in
//! `queries/` against the facts of one class path) uses constants that
//! the class path may not: `parameterArray(i, 2)` where no method has
//! three parameters, `hT(h, "java.lang.String")` where no class mentions
//! String. The writer of the facts asks for this list first and sizes its
//! domains and maps to hold every constant (see
//! `analysis::driver::analyze`), so that every valid class path can be
//! analysed.
//!
//! A constant's domain is its attribute's in an atom, or for a comparison
//! `x = c` the domain of the variable it is compared with.

use super::ast::{ArgAst, AtomAst, LiteralAst, Statement, TermAst};
use super::parser::ParsedProgram;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The constants used, by domain name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Constants {
    /// The largest integer constant used in each domain.
    pub max_int: BTreeMap<String, u64>,
    /// The quoted names used in each domain.
    pub names: BTreeMap<String, BTreeSet<String>>,
}

impl Constants {
    fn add(&mut self, domain: &str, term: &TermAst) {
        match term {
            TermAst::Int(n) => {
                let m = self.max_int.entry(domain.to_string()).or_insert(*n);
                *m = (*m).max(*n);
            }
            TermAst::Name(s) => {
                self.names
                    .entry(domain.to_string())
                    .or_default()
                    .insert(s.clone());
            }
            TermAst::Var(_) | TermAst::Wildcard => {}
        }
    }
}

/// Collects the constants of every rule and query of `prog`. Atoms of
/// undeclared relations, and comparisons whose domain no atom gives, are
/// passed over: the resolver reports them.
pub fn collect(prog: &ParsedProgram) -> Constants {
    let declared: BTreeSet<&str> = prog
        .statements
        .iter()
        .filter_map(|s| match s {
            Statement::Domain { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    // Attribute types (`V1`, or `V`) to domain names.
    let domain_of = |ty: &str| -> String {
        if declared.contains(ty) {
            return ty.to_string();
        }
        ty.trim_end_matches(|c: char| c.is_ascii_digit())
            .to_string()
    };
    let mut attrs: HashMap<&str, Vec<String>> = HashMap::new();
    for s in &prog.statements {
        if let Statement::Relation { name, attrs: a, .. } = s {
            attrs.insert(name, a.iter().map(|a| domain_of(&a.ty)).collect());
        }
    }
    let mut out = Constants::default();
    for s in &prog.statements {
        let (head, body): (Option<&AtomAst>, &[LiteralAst]) = match s {
            Statement::Rule(r) => (Some(&r.head), &r.body),
            Statement::Query { body, .. } => (None, body),
            _ => continue,
        };
        let atoms = head.into_iter().chain(body.iter().filter_map(|l| match l {
            LiteralAst::Atom { atom, .. } => Some(atom),
            LiteralAst::Cmp { .. } => None,
        }));
        // Each variable's domain, from the atoms that bind it.
        let mut var_domain: HashMap<&str, &str> = HashMap::new();
        for atom in atoms {
            let Some(doms) = attrs.get(atom.relation.as_str()) else {
                continue;
            };
            for (arg, dom) in atom.args.iter().zip(doms) {
                if let TermAst::Var(v) = &arg.term {
                    var_domain.insert(v, dom);
                }
                out.add(dom, &arg.term);
            }
        }
        for lit in body {
            if let LiteralAst::Cmp { lhs, rhs, .. } = lit {
                let side = |var: &ArgAst, c: &ArgAst, out: &mut Constants| {
                    if let TermAst::Var(v) = &var.term {
                        if let Some(d) = var_domain.get(v.as_str()) {
                            out.add(d, &c.term);
                        }
                    }
                };
                side(lhs, rhs, &mut out);
                side(rhs, lhs, &mut out);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datalog::parser::parse_str;
    use std::path::Path;

    #[test]
    fn constants_are_found_in_atoms_heads_queries_and_comparisons() {
        let text = "Z 2\nT 4\nV 4\n\
                    p(i:V0, z:Z0) input\n\
                    t(v:V0, t:T0) input\n\
                    q(v:V0) output\n\
                    q(v) :- p(v, 2), t(v, \"java.lang.String\").\n\
                    q(v) :- t(v, x), x != \"a.B\", p(v, z), z = 5.\n\
                    t(v, \"c.D\")?\n";
        let parsed = parse_str(text, "t.dl", Path::new(".")).unwrap();
        let c = collect(&parsed);
        assert_eq!(c.max_int.get("Z"), Some(&5));
        let t: Vec<&str> = c.names["T"].iter().map(String::as_str).collect();
        assert_eq!(t, ["a.B", "c.D", "java.lang.String"]);
    }
}
