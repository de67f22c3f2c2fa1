//! Name tests: the code that runs only where a member's name starts
//! with, ends with or equals a constant.
//!
//! Programs that walk `getMethods()` pick the members they use by name:
//! JUnit 3 calls the methods whose name starts with `"test"`, ant's
//! `IntrospectionHelper` makes attribute setters of those that start
//! with `"set"`. A branch on `m.getName().startsWith("set")` tells the
//! code it guards which members `m` may be (issue 34's filters; SOLAR,
//! seed 004, resolves a placeholder by what its uses know).
//!
//! The test is recognised where a block ends with `ifeq`/`ifne` on the
//! result of `String.startsWith`, `endsWith` or `equals`, one of whose
//! strings is a constant and the other the result of `getName()` on a
//! `Method` or a `Field`. The block that the test's true branch
//! enters, when the test is its only predecessor, starts with a fresh
//! variable for every slot that holds the member (a π node, as in
//! e-SSA): [`Stmt::NameFilter`] copies the member's objects into it, and
//! the analysis narrows a placeholder there to the members whose names
//! pass (`nameFilter` in `queries/pointsto.dl` and
//! `queries/reflection-infer.dl`). The blocks that the true branch
//! dominates see the fresh variable, since the translation carries the
//! state of a block into its single successor; where the branches merge
//! again, a φ joins the fresh variable and the old one.

use super::{Invoke, Stmt, Var};

/// How a name must relate to the test's constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameMatch {
    /// `name.startsWith(text)`.
    Prefix,
    /// `name.endsWith(text)`.
    Suffix,
    /// `name.equals(text)` or `text.equals(name)`.
    Exact,
}

impl NameMatch {
    /// Whether `name` passes the test against `text`.
    pub fn passes(self, text: &str, name: &str) -> bool {
        match self {
            NameMatch::Prefix => name.starts_with(text),
            NameMatch::Suffix => name.ends_with(text),
            NameMatch::Exact => name == text,
        }
    }
}

/// A test of a member's name against a constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NameTest {
    /// The member's class: `java.lang.reflect.Method` or
    /// `java.lang.reflect.Field`.
    pub member_class: &'static str,
    /// How the name relates to `text`.
    pub how: NameMatch,
    /// The constant.
    pub text: String,
}

/// The classes whose `getName()` names a member that a name test can
/// narrow. (`Member.getName()` is left out: its object may be a method
/// or a field.)
const MEMBER_CLASSES: [&str; 2] = ["java.lang.reflect.Method", "java.lang.reflect.Field"];

/// The member variable and the test, when `call` (the call whose `int`
/// result a branch tests) compares the name of a member with a constant.
/// `stmts` are the method's statements so far: the definitions of the
/// call's operands, which dominate it, are among them.
pub fn member_name_test(stmts: &[Stmt], call: &Invoke) -> Option<(Var, NameTest)> {
    let t = &call.target;
    if t.class != "java.lang.String" {
        return None;
    }
    let how = match (t.name.as_str(), t.desc.as_str()) {
        ("startsWith", "(Ljava/lang/String;)Z") => NameMatch::Prefix,
        ("endsWith", "(Ljava/lang/String;)Z") => NameMatch::Suffix,
        ("equals", "(Ljava/lang/Object;)Z") => NameMatch::Exact,
        _ => return None,
    };
    let receiver = call.receiver?;
    let arg = (*call.args.first()?)?;
    let (name, text) = match (constant(stmts, arg), constant(stmts, receiver)) {
        (Some(text), _) => (receiver, text),
        (None, Some(text)) if how == NameMatch::Exact => (arg, text),
        _ => return None,
    };
    if text.is_empty() && how != NameMatch::Exact {
        return None; // every name starts and ends with ""
    }
    let (member, member_class) = named_member(stmts, name)?;
    let test = NameTest {
        member_class,
        how,
        text,
    };
    Some((member, test))
}

/// The single definition of `v`, through copies.
fn definition(stmts: &[Stmt], mut v: Var) -> Option<&Stmt> {
    for _ in 0..8 {
        let mut defs = stmts.iter().filter(|s| {
            let mut hit = false;
            s.for_each_def(|d| hit |= d == v);
            hit
        });
        let def = defs.next()?;
        if defs.next().is_some() {
            return None;
        }
        match def {
            Stmt::Assign { src, .. } => v = *src,
            _ => return Some(def),
        }
    }
    None
}

/// The text of a string constant.
fn constant(stmts: &[Stmt], v: Var) -> Option<String> {
    match definition(stmts, v)? {
        Stmt::StringConst { text, .. } => Some(text.clone()),
        _ => None,
    }
}

/// The member whose `getName()` `v` holds, and its class.
fn named_member(stmts: &[Stmt], v: Var) -> Option<(Var, &'static str)> {
    match definition(stmts, v)? {
        Stmt::Invoke(inv)
            if inv.target.name == "getName" && inv.target.desc == "()Ljava/lang/String;" =>
        {
            let class = MEMBER_CLASSES.iter().find(|c| **c == inv.target.class)?;
            Some((inv.receiver?, *class))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classfile::model::MemberRef;
    use crate::ir::InvokeKind;

    const METHOD: &str = "java.lang.reflect.Method";
    const FIELD: &str = "java.lang.reflect.Field";

    fn call(class: &str, name: &str, desc: &str, receiver: Var, args: Vec<Option<Var>>) -> Invoke {
        Invoke {
            bci: 0,
            kind: InvokeKind::Virtual,
            target: MemberRef {
                class: class.into(),
                name: name.into(),
                desc: desc.into(),
                interface: false,
            },
            receiver: Some(receiver),
            args,
            result: None,
            exception: None,
        }
    }

    /// `v1 = m.getName(); v2 = v1; v3 = "set"` for the member `m` = 0.
    fn body(member_class: &str) -> Vec<Stmt> {
        let mut get = call(member_class, "getName", "()Ljava/lang/String;", 0, vec![]);
        get.result = Some(1);
        vec![
            Stmt::Invoke(get),
            Stmt::Assign { dst: 2, src: 1 },
            Stmt::StringConst {
                dst: 3,
                text: "set".into(),
            },
        ]
    }

    fn test(member_class: &'static str, how: NameMatch, text: &str) -> NameTest {
        NameTest {
            member_class,
            how,
            text: text.into(),
        }
    }

    #[test]
    fn a_prefix_test_of_a_methods_name_narrows_the_method() {
        let stmts = body(METHOD);
        let starts = call(
            "java.lang.String",
            "startsWith",
            "(Ljava/lang/String;)Z",
            2,
            vec![Some(3)],
        );
        assert_eq!(
            member_name_test(&stmts, &starts),
            Some((0, test(METHOD, NameMatch::Prefix, "set")))
        );
        let ends = call(
            "java.lang.String",
            "endsWith",
            "(Ljava/lang/String;)Z",
            2,
            vec![Some(3)],
        );
        assert_eq!(
            member_name_test(&stmts, &ends),
            Some((0, test(METHOD, NameMatch::Suffix, "set")))
        );
    }

    #[test]
    fn equals_narrows_with_the_constant_on_either_side() {
        let stmts = body(FIELD);
        let eq = "(Ljava/lang/Object;)Z";
        let constant_first = call("java.lang.String", "equals", eq, 3, vec![Some(2)]);
        let name_first = call("java.lang.String", "equals", eq, 2, vec![Some(3)]);
        for c in [constant_first, name_first] {
            assert_eq!(
                member_name_test(&stmts, &c),
                Some((0, test(FIELD, NameMatch::Exact, "set")))
            );
        }
    }

    #[test]
    fn other_strings_and_other_names_narrow_nothing() {
        let desc = "(Ljava/lang/String;)Z";
        // A class's name is not a member's, and a Member may be either.
        let starts = call("java.lang.String", "startsWith", desc, 2, vec![Some(3)]);
        for class in ["java.lang.Class", "java.lang.reflect.Member"] {
            assert_eq!(member_name_test(&body(class), &starts), None);
        }
        // The constant as the receiver of startsWith tests the constant.
        let stmts = body(METHOD);
        let reversed = call("java.lang.String", "startsWith", desc, 3, vec![Some(2)]);
        assert_eq!(member_name_test(&stmts, &reversed), None);
        // A name with two definitions (a φ) is not known.
        let mut stmts = body(METHOD);
        stmts.push(Stmt::Assign { dst: 2, src: 3 });
        assert_eq!(member_name_test(&stmts, &starts), None);
        // Every name starts with "".
        let mut stmts = body(METHOD);
        stmts[2] = Stmt::StringConst {
            dst: 3,
            text: String::new(),
        };
        assert_eq!(member_name_test(&stmts, &starts), None);
    }
}
