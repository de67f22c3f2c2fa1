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

use super::{InvokeKind, MethodIr, Stmt, Var};
use fxhash::{FxHashMap, FxHashSet};

/// The most parameters a method can declare (JVMS 4.3.3): a longer array
/// names no parameter list, and its length matches no method's arity.
pub const MAX_PARAMETERS: u32 = 255;

/// A parameter list as `methodParams` and `actualArrayTypes` spell it:
/// `(java.lang.String,int[])`. Both sides must use this one spelling.
pub fn parameter_list<S: AsRef<str>>(params: &[S]) -> String {
    let names: Vec<&str> = params.iter().map(AsRef::as_ref).collect();
    format!("({})", names.join(","))
}

/// For each of the `filled` arrays ([`filled_arrays`]) that is a `Class[]`
/// with one class constant at every index: its parameter list, as in
/// Soot's signatures: `(java.lang.String,int[])`.
pub fn parameter_lists(
    ir: &MethodIr,
    filled: &FxHashMap<Var, Vec<Vec<Var>>>,
) -> FxHashMap<Var, String> {
    let is_class_array = |v: Var| {
        ir.vars
            .get(v as usize)
            .is_some_and(|info| info.ty == "java.lang.Class[]")
    };
    if !filled.keys().any(|v| is_class_array(*v)) {
        return FxHashMap::default();
    }
    let defs = definitions(ir);
    let constants = class_constants(ir, &defs);
    filled
        .iter()
        .filter(|(v, _)| is_class_array(**v))
        .filter_map(|(v, elements)| {
            let list: Option<Vec<&str>> = elements
                .iter()
                .map(|stored| match stored.as_slice() {
                    [one] => constants.get(one).copied(),
                    _ => None,
                })
                .collect();
            Some((*v, parameter_list(&list?)))
        })
        .collect()
}

/// For each variable in `lengths` whose type `is_array` accepts, that
/// statements store a variable into at constant indices only, at every
/// index (no `null`, no unknown index), and that is used only as call
/// arguments, of one call or of calls into the reflective API
/// ([`copies_its_arrays`]): the variables stored at each index. Such an
/// array holds one of those values at each index when a call receives it,
/// so a reflective call's `Class[]` or `Object[]` of this kind tells the
/// types of each position. xalan's `XSLTAttributeDef.setAttrValue` passes
/// its `Class[]` to `getMethod` twice, storing a second class into it
/// between the calls.
pub fn filled_arrays(
    ir: &MethodIr,
    lengths: &FxHashMap<Var, u32>,
    is_array: impl Fn(&str) -> bool,
) -> FxHashMap<Var, Vec<Vec<Var>>> {
    let candidates: FxHashMap<Var, u32> = lengths
        .iter()
        .filter(|(v, n)| {
            **n <= MAX_PARAMETERS
                && ir
                    .vars
                    .get(**v as usize)
                    .is_some_and(|info| is_array(&info.ty))
        })
        .map(|(v, n)| (*v, *n))
        .collect();
    if candidates.is_empty() {
        return FxHashMap::default();
    }
    // Each candidate's elements by index; `None` once it is disqualified.
    let mut elements: Elements = candidates
        .iter()
        .map(|(v, n)| (*v, Some(vec![Vec::new(); *n as usize])))
        .collect();
    for v in &ir.null_elements {
        disqualify(*v, &mut elements);
    }
    let read = read_vars(ir);
    // The calls each candidate is passed to, and whether all copy it.
    let mut passed: FxHashMap<Var, (u32, bool)> = FxHashMap::default();
    for s in &ir.stmts {
        match s {
            Stmt::ArrayStore { base, index, src } if candidates.contains_key(base) => {
                let slot = index.and_then(|k| usize::try_from(k).ok());
                match (elements.get_mut(base), slot) {
                    (Some(Some(list)), Some(k)) if k < list.len() => list[k].push(*src),
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
                        let (calls, copied) = passed.entry(*a).or_insert((0, true));
                        *calls += 1;
                        *copied &= copies_its_arrays(&inv.target.class);
                    }
                }
            }
            Stmt::New { .. } => {}
            // A copy that nothing reads (a join's copy past the array's
            // last use) leaves the array as it is.
            Stmt::Assign { dst, .. } if !read.contains(dst) => {}
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
        .filter(|(v, _)| matches!(passed.get(v), Some((1, _)) | Some((_, true))))
        .filter_map(|(v, list)| Some((v, list?)))
        .filter(|(_, list)| list.iter().all(|stored| !stored.is_empty()))
        .collect()
}

/// The variables whose values something reads: any statement but a copy
/// mentions them, the method returns them, or a copy into such a variable
/// reads them.
fn read_vars(ir: &MethodIr) -> FxHashSet<Var> {
    let mut read: FxHashSet<Var> = ir.ret.into_iter().collect();
    // The sources of the copies into each variable.
    let mut sources: FxHashMap<Var, Vec<Var>> = FxHashMap::default();
    for s in &ir.stmts {
        match s {
            Stmt::Assign { dst, src } => sources.entry(*dst).or_default().push(*src),
            other => other.clone().for_each_var_mut(|v| {
                read.insert(*v);
            }),
        }
    }
    let mut work: Vec<Var> = read.iter().copied().collect();
    while let Some(v) = work.pop() {
        for src in sources.get(&v).into_iter().flatten() {
            if read.insert(*src) {
                work.push(*src);
            }
        }
    }
    read
}

/// Whether the methods of `class` leave the arrays they are given as they
/// are: the reflective API (`java.lang.Class`, `java.lang.reflect`,
/// `java.lang.invoke`) copies its `Class[]` and `Object[]` arguments.
fn copies_its_arrays(class: &str) -> bool {
    class == "java.lang.Class"
        || class.starts_with("java.lang.reflect.")
        || class.starts_with("java.lang.invoke.")
}

/// How many statements define each variable.
fn definitions(ir: &MethodIr) -> FxHashMap<Var, u32> {
    let mut defs: FxHashMap<Var, u32> = FxHashMap::default();
    for s in &ir.stmts {
        s.for_each_def(|v| *defs.entry(v).or_default() += 1);
    }
    defs
}

/// The class whose `Class` object each variable holds that one statement
/// defines by a class constant (and no parameter is).
fn class_constants<'a>(ir: &'a MethodIr, defs: &FxHashMap<Var, u32>) -> FxHashMap<Var, &'a str> {
    ir.stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::ClassConst { dst, .. } | Stmt::StaticLoad { dst, .. } => {
                Some((*dst, class_constant(s)?))
            }
            _ => None,
        })
        .filter(|(v, _)| defs.get(v) == Some(&1) && !ir.params.contains(&Some(*v)))
        .collect()
}

/// For each variable that holds a `MethodType` the method makes from
/// constants, the parameter list it gives, spelled as
/// [`parameter_list`] does. `lists` are the method's `Class[]` of
/// constants ([`parameter_lists`]). javac compiles
/// `MethodType.methodType(String.class, int.class, long.class)` to the
/// varargs form, `methodType(Class, Class, Class[])`, with a `Class[]` of
/// the parameters after the first. The forms read, as JDK 17 declares
/// them, each with a constant for every parameter:
///
/// - `methodType(Class rtype)`: no parameter;
/// - `methodType(Class rtype, Class p0)`;
/// - `methodType(Class rtype, Class[] ptypes)`;
/// - `methodType(Class rtype, Class p0, Class[] ptypes)`;
/// - `methodType(Class rtype, MethodType ptypes)`: the other's parameters.
///
/// The return type is not needed: the lookups take the parameters from
/// it. A variable counts only where one statement defines it, by such a
/// call or as a copy of another such variable. `methodType(Class, List)`,
/// `genericMethodType` and the `MethodType` methods that derive one type
/// from another give none: the lookups they reach admit every list.
pub fn method_types(ir: &MethodIr, lists: &FxHashMap<Var, String>) -> FxHashMap<Var, String> {
    let defs = definitions(ir);
    let constants = class_constants(ir, &defs);
    let once = |v: &Var| defs.get(v) == Some(&1) && !ir.params.contains(&Some(*v));
    let inner = |list: &str| list[1..list.len() - 1].to_string();
    let mut types: FxHashMap<Var, String> = FxHashMap::default();
    for s in &ir.stmts {
        match s {
            Stmt::Invoke(inv)
                if inv.kind == InvokeKind::Static
                    && inv.target.class == "java.lang.invoke.MethodType"
                    && inv.target.name == "methodType" =>
            {
                let Some(r) = inv.result.filter(once) else {
                    continue;
                };
                let class = |k: usize| {
                    inv.args
                        .get(k)
                        .copied()
                        .flatten()
                        .and_then(|v| constants.get(&v))
                };
                let var = |k: usize| inv.args.get(k).copied().flatten();
                let params: Option<String> = match inv.target.desc.as_str() {
                    "(Ljava/lang/Class;)Ljava/lang/invoke/MethodType;" => Some("()".to_string()),
                    "(Ljava/lang/Class;Ljava/lang/Class;)Ljava/lang/invoke/MethodType;" => {
                        class(1).map(|p| parameter_list(&[p]))
                    }
                    "(Ljava/lang/Class;[Ljava/lang/Class;)Ljava/lang/invoke/MethodType;" => {
                        var(1).and_then(|a| lists.get(&a)).cloned()
                    }
                    "(Ljava/lang/Class;Ljava/lang/Class;[Ljava/lang/Class;)Ljava/lang/invoke/MethodType;" => {
                        match (class(1), var(2).and_then(|a| lists.get(&a))) {
                            (Some(p), Some(rest)) if rest == "()" => Some(parameter_list(&[p])),
                            (Some(p), Some(rest)) => Some(format!("({p},{})", inner(rest))),
                            _ => None,
                        }
                    }
                    "(Ljava/lang/Class;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodType;" => {
                        var(1).and_then(|t| types.get(&t)).cloned()
                    }
                    _ => None,
                };
                if let Some(params) = params {
                    types.insert(r, params);
                }
            }
            Stmt::Assign { dst, src } if once(dst) => {
                if let Some(params) = types.get(src).cloned() {
                    types.insert(*dst, params);
                }
            }
            _ => {}
        }
    }
    types
}

/// Each candidate array's stored variables by index; `None` for an array
/// that is not filled as [`filled_arrays`] asks.
type Elements = FxHashMap<Var, Option<Vec<Vec<Var>>>>;

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
        call(ir, array, "java.lang.Class");
    }

    /// The parameter lists of `ir`'s filled arrays.
    fn lists_of(ir: &MethodIr) -> FxHashMap<Var, String> {
        parameter_lists(ir, &filled_arrays(ir, &ir.array_lengths(), |_| true))
    }

    /// A call of `class`'s `getMethod(String, Class[])` with `array`.
    fn call(ir: &mut MethodIr, array: Var, class: &str) {
        let target = MemberRef {
            class: class.into(),
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
            handlers: Vec::new(),
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
        let lists = lists_of(&ir);
        assert_eq!(
            lists.get(&a).map(String::as_str),
            Some("(double,java.lang.String)")
        );
    }

    #[test]
    fn an_array_passed_to_two_lookups_names_its_list_for_both() {
        let (mut ir, a, s) = two_types();
        store(&mut ir, a, Some(0), 1);
        store(&mut ir, a, Some(1), s);
        lookup(&mut ir, a);
        lookup(&mut ir, a);
        let lists = lists_of(&ir);
        assert_eq!(
            lists.get(&a).map(String::as_str),
            Some("(double,java.lang.String)")
        );
        let filled = filled_arrays(&ir, &ir.array_lengths(), |_| true);
        assert_eq!(filled.get(&a), Some(&vec![vec![1], vec![s]]));
    }

    #[test]
    fn an_unknown_index_a_missing_element_or_a_second_use_names_no_list() {
        let (mut ir, a, s) = two_types();
        store(&mut ir, a, Some(0), 1);
        store(&mut ir, a, None, s);
        lookup(&mut ir, a);
        assert!(lists_of(&ir).is_empty());

        let (mut ir, a, _) = two_types();
        store(&mut ir, a, Some(0), 1);
        lookup(&mut ir, a);
        assert!(lists_of(&ir).is_empty());

        // A second use by a call that may store into the array.
        let (mut ir, a, s) = two_types();
        store(&mut ir, a, Some(0), 1);
        store(&mut ir, a, Some(1), s);
        call(&mut ir, a, "app.Helper");
        lookup(&mut ir, a);
        assert!(lists_of(&ir).is_empty());
        assert!(filled_arrays(&ir, &ir.array_lengths(), |_| true).is_empty());

        // Two classes stored at one index: no list, both elements.
        let (mut ir, a, s) = two_types();
        store(&mut ir, a, Some(0), 1);
        store(&mut ir, a, Some(1), s);
        store(&mut ir, a, Some(1), 1);
        lookup(&mut ir, a);
        assert!(lists_of(&ir).is_empty());
        let filled = filled_arrays(&ir, &ir.array_lengths(), |_| true);
        assert_eq!(filled.get(&a), Some(&vec![vec![1], vec![s, 1]]));

        let (mut ir, a, s) = two_types();
        store(&mut ir, a, Some(0), 1);
        store(&mut ir, a, Some(1), s);
        let copy = ir.new_var("l1", "java.lang.Object");
        ir.stmts.push(Stmt::Assign { dst: copy, src: a });
        lookup(&mut ir, a);
        // A copy that nothing reads leaves the array as it is ...
        assert_eq!(lists_of(&ir).len(), 1);
        // ... and one that a call reads lets it escape.
        call(&mut ir, copy, "app.Helper");
        assert!(lists_of(&ir).is_empty());
    }

    /// A static call of `MethodType.methodType` with descriptor `desc`.
    fn method_type(ir: &mut MethodIr, desc: &str, args: Vec<Option<Var>>) -> Var {
        let r = ir.new_var("s@40", "java.lang.invoke.MethodType");
        ir.stmts.push(Stmt::Invoke(Invoke {
            bci: 40,
            kind: InvokeKind::Static,
            target: MemberRef {
                class: "java.lang.invoke.MethodType".into(),
                name: "methodType".into(),
                desc: desc.into(),
                interface: false,
            },
            receiver: None,
            args,
            result: Some(r),
            handlers: Vec::new(),
        }));
        r
    }

    #[test]
    fn each_form_of_method_type_with_constants_gives_its_parameter_list() {
        const RTYPE: &str = "(Ljava/lang/Class;)Ljava/lang/invoke/MethodType;";
        const ONE: &str = "(Ljava/lang/Class;Ljava/lang/Class;)Ljava/lang/invoke/MethodType;";
        const ARRAY: &str = "(Ljava/lang/Class;[Ljava/lang/Class;)Ljava/lang/invoke/MethodType;";
        const VARARGS: &str =
            "(Ljava/lang/Class;Ljava/lang/Class;[Ljava/lang/Class;)Ljava/lang/invoke/MethodType;";
        const OTHER: &str =
            "(Ljava/lang/Class;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodType;";
        // The array {double, String}; s is String.class, var 1 Double.TYPE.
        let (mut ir, a, s) = two_types();
        store(&mut ir, a, Some(0), 1);
        store(&mut ir, a, Some(1), s);
        let none = method_type(&mut ir, RTYPE, vec![Some(s)]);
        let one = method_type(&mut ir, ONE, vec![Some(s), Some(1)]);
        let array = method_type(&mut ir, ARRAY, vec![Some(s), Some(a)]);
        let other = method_type(&mut ir, OTHER, vec![None, Some(one)]);
        let copy = ir.new_var("l3", "java.lang.invoke.MethodType");
        ir.stmts.push(Stmt::Assign {
            dst: copy,
            src: array,
        });
        let types = method_types(&ir, &lists_of(&ir));
        let list = |v: Var| types.get(&v).map(String::as_str);
        assert_eq!(list(none), Some("()"));
        assert_eq!(list(one), Some("(double)"));
        assert_eq!(list(array), Some("(double,java.lang.String)"));
        assert_eq!(list(other), Some("(double)"));
        assert_eq!(list(copy), Some("(double,java.lang.String)"));

        // The varargs form: a first parameter, then the array.
        let (mut ir, a, s) = two_types();
        store(&mut ir, a, Some(0), 1);
        store(&mut ir, a, Some(1), s);
        let three = method_type(&mut ir, VARARGS, vec![Some(s), Some(s), Some(a)]);
        let types = method_types(&ir, &lists_of(&ir));
        assert_eq!(
            types.get(&three).map(String::as_str),
            Some("(java.lang.String,double,java.lang.String)")
        );
    }

    #[test]
    fn a_method_type_from_unknown_classes_or_defined_twice_gives_none() {
        const ONE: &str = "(Ljava/lang/Class;Ljava/lang/Class;)Ljava/lang/invoke/MethodType;";
        // The parameter class is a method's parameter.
        let mut ir = MethodIr::default();
        let p = ir.new_var("p0", "java.lang.Class");
        ir.params.push(Some(p));
        let t = method_type(&mut ir, ONE, vec![None, Some(p)]);
        assert!(!method_types(&ir, &FxHashMap::default()).contains_key(&t));

        // The result variable is defined twice (two branches).
        let (mut ir, _, s) = two_types();
        let t = method_type(&mut ir, ONE, vec![Some(s), Some(s)]);
        ir.stmts.push(Stmt::Assign { dst: t, src: s });
        assert!(method_types(&ir, &FxHashMap::default()).is_empty());
    }
}
