//! The parameter lists a method spells out for a reflective lookup.
//!
//! javac compiles `c.getMethod("scale", double.class, String.class)` to a
//! `Class[]` of constant length filled with constants at constant indices:
//!
//! ```text
//! iconst_2; anewarray Class
//! dup; iconst_0; getstatic Double.TYPE; aastore
//! dup; iconst_1; ldc String;            aastore
//! ```
//!
//! Such an array names exactly one parameter list, `(double,java.lang.String)`,
//! and the lookup returns only the members declared with it. An array
//! that is anything else (an element stored at an unknown index or from
//! an unknown class, an array passed on, stored or returned) names none,
//! and the lookup admits every list of the right length.

use super::{MethodIr, Stmt, Var};
use fxhash::FxHashMap;

/// The most parameters a method can declare (JVMS 4.3.3): a longer array
/// names no parameter list, and its length matches no method's arity.
pub const MAX_PARAMETERS: u32 = 255;

/// A parameter list as `methodParams` and `actualArrayTypes` spell it:
/// `(java.lang.String,int[])`. Both sides must use this one spelling.
pub fn parameter_list<S: AsRef<str>>(params: &[S]) -> String {
    let names: Vec<&str> = params.iter().map(AsRef::as_ref).collect();
    format!("({})", names.join(","))
}

/// For each variable in `lengths` (the method's constant-length arrays,
/// from [`MethodIr::array_lengths`]) that is a `Class[]` filled with class
/// constants at every index and used only as one call argument: its
/// parameter list, as in Soot's signatures: `(java.lang.String,int[])`.
pub fn parameter_lists(ir: &MethodIr, lengths: &FxHashMap<Var, u32>) -> FxHashMap<Var, String> {
    let candidates: FxHashMap<Var, u32> = lengths
        .iter()
        .filter(|(v, n)| {
            **n <= MAX_PARAMETERS
                && ir
                    .vars
                    .get(**v as usize)
                    .is_some_and(|info| info.ty == "java.lang.Class[]")
        })
        .map(|(v, n)| (*v, *n))
        .collect();
    if candidates.is_empty() {
        return FxHashMap::default();
    }
    // The class each variable defined once by a class constant holds.
    let mut defs: FxHashMap<Var, u32> = FxHashMap::default();
    for s in &ir.stmts {
        s.for_each_def(|v| *defs.entry(v).or_default() += 1);
    }
    let constants: FxHashMap<Var, &str> = ir
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::ClassConst { dst, .. } | Stmt::StaticLoad { dst, .. } => {
                Some((*dst, class_constant(s)?))
            }
            _ => None,
        })
        .filter(|(v, _)| defs.get(v) == Some(&1) && !ir.params.contains(&Some(*v)))
        .collect();
    // Each candidate's elements by index; `None` once it is disqualified.
    let mut elements: Elements = candidates
        .iter()
        .map(|(v, n)| (*v, Some(vec![None; *n as usize])))
        .collect();
    let mut passed: FxHashMap<Var, u32> = FxHashMap::default();
    for s in &ir.stmts {
        match s {
            Stmt::ArrayStore { base, index, src } if candidates.contains_key(base) => {
                let slot = index.and_then(|k| usize::try_from(k).ok());
                let class = constants.get(src);
                match (elements.get_mut(base), slot, class) {
                    (Some(Some(list)), Some(k), Some(class))
                        if k < list.len() && list[k].is_none() =>
                    {
                        list[k] = Some(class.to_string());
                    }
                    _ => disqualify(*base, &mut elements),
                }
                // The array itself stored into another array escapes.
                if candidates.contains_key(src) {
                    disqualify(*src, &mut elements);
                }
            }
            Stmt::Invoke(inv) => {
                for a in inv.args.iter().flatten().chain(&inv.receiver) {
                    if candidates.contains_key(a) {
                        *passed.entry(*a).or_default() += 1;
                    }
                }
            }
            Stmt::New { .. } => {}
            other => {
                let mut mentioned = Vec::new();
                other.clone().for_each_var_mut(|v| mentioned.push(*v));
                for v in mentioned {
                    if candidates.contains_key(&v) {
                        disqualify(v, &mut elements);
                    }
                }
            }
        }
    }
    if let Some(r) = ir.ret {
        disqualify(r, &mut elements);
    }
    elements
        .into_iter()
        .filter(|(v, _)| passed.get(v) == Some(&1))
        .filter_map(|(v, list)| {
            let list: Option<Vec<String>> = list?.into_iter().collect();
            Some((v, parameter_list(&list?)))
        })
        .collect()
}

/// Each candidate array's element classes by index, as far as known;
/// `None` for an array that spells no list.
type Elements = FxHashMap<Var, Option<Vec<Option<String>>>>;

fn disqualify(v: Var, elements: &mut Elements) {
    if let Some(e) = elements.get_mut(&v) {
        *e = None;
    }
}

/// The type whose `Class` object a statement puts in its variable when a
/// constant gives it: `String.class` (`ldc`), or a wrapper's `TYPE`
/// (`void.class` and `int.class` compile to `Void.TYPE` and
/// `Integer.TYPE`).
pub(super) fn class_constant(s: &Stmt) -> Option<&str> {
    match s {
        Stmt::ClassConst { ty, .. } => Some(ty),
        Stmt::StaticLoad { field, .. } if field.name == "TYPE" => {
            primitive_of_wrapper(&field.class)
        }
        _ => None,
    }
}

/// The primitive type whose `Class` object a wrapper's `TYPE` field holds.
fn primitive_of_wrapper(class: &str) -> Option<&'static str> {
    Some(match class {
        "java.lang.Boolean" => "boolean",
        "java.lang.Byte" => "byte",
        "java.lang.Character" => "char",
        "java.lang.Short" => "short",
        "java.lang.Integer" => "int",
        "java.lang.Long" => "long",
        "java.lang.Float" => "float",
        "java.lang.Double" => "double",
        "java.lang.Void" => "void",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classfile::model::MemberRef;
    use crate::ir::{Invoke, InvokeKind};

    fn lookup(ir: &mut MethodIr, array: Var) {
        let target = MemberRef {
            class: "java.lang.Class".into(),
            name: "getMethod".into(),
            desc: "(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;".into(),
            interface: false,
        };
        ir.stmts.push(Stmt::Invoke(Invoke {
            bci: 20,
            kind: InvokeKind::Virtual,
            target,
            receiver: None,
            args: vec![None, Some(array)],
            result: None,
            exception: None,
        }));
    }

    /// `new Class[] {double.class, String.class}` with its elements.
    fn two_types() -> (MethodIr, Var, Var) {
        let mut ir = MethodIr::default();
        let a = ir.new_var("s@0", "java.lang.Class[]");
        let d = ir.new_var("s@5", "java.lang.Class");
        let s = ir.new_var("s@9", "java.lang.Class");
        ir.stmts.push(Stmt::New {
            bci: 0,
            level: 0,
            dst: a,
            ty: "java.lang.Class[]".into(),
            length: Some(2),
        });
        ir.stmts.push(Stmt::StaticLoad {
            dst: d,
            field: MemberRef {
                class: "java.lang.Double".into(),
                name: "TYPE".into(),
                desc: "Ljava/lang/Class;".into(),
                interface: false,
            },
        });
        ir.stmts.push(Stmt::ClassConst {
            dst: s,
            ty: "java.lang.String".into(),
        });
        (ir, a, s)
    }

    fn store(ir: &mut MethodIr, base: Var, index: Option<i32>, src: Var) {
        ir.stmts.push(Stmt::ArrayStore { base, index, src });
    }

    #[test]
    fn constant_elements_spell_a_parameter_list() {
        let (mut ir, a, s) = two_types();
        store(&mut ir, a, Some(0), 1);
        store(&mut ir, a, Some(1), s);
        lookup(&mut ir, a);
        let lists = parameter_lists(&ir, &ir.array_lengths());
        assert_eq!(
            lists.get(&a).map(String::as_str),
            Some("(double,java.lang.String)")
        );
    }

    #[test]
    fn an_unknown_index_a_missing_element_or_a_second_use_names_no_list() {
        let (mut ir, a, s) = two_types();
        store(&mut ir, a, Some(0), 1);
        store(&mut ir, a, None, s);
        lookup(&mut ir, a);
        assert!(parameter_lists(&ir, &ir.array_lengths()).is_empty());

        let (mut ir, a, _) = two_types();
        store(&mut ir, a, Some(0), 1);
        lookup(&mut ir, a);
        assert!(parameter_lists(&ir, &ir.array_lengths()).is_empty());

        let (mut ir, a, s) = two_types();
        store(&mut ir, a, Some(0), 1);
        store(&mut ir, a, Some(1), s);
        lookup(&mut ir, a);
        lookup(&mut ir, a);
        assert!(parameter_lists(&ir, &ir.array_lengths()).is_empty());

        let (mut ir, a, s) = two_types();
        store(&mut ir, a, Some(0), 1);
        store(&mut ir, a, Some(1), s);
        let copy = ir.new_var("l1", "java.lang.Object");
        ir.stmts.push(Stmt::Assign { dst: copy, src: a });
        lookup(&mut ir, a);
        assert!(parameter_lists(&ir, &ir.array_lengths()).is_empty());
    }
}
