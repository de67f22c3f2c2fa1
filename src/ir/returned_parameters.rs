//! Methods that return a parameter or their receiver, answered call site
//! by call site.
//!
//! `StringBuilder.append` returns `this`, as do `String.toString`,
//! `String.substring(0)` and `trim()` of a trimmed string, `intern()` and
//! `Object.clone()` (as modelled); `Objects.requireNonNull(obj)` returns
//! its argument. In a context-insensitive analysis the return variable of
//! such a method holds everything ever passed in, and every call site
//! receives it all: each `sb.append(x)` returns every string builder of
//! the program, each `s.trim()` every string that is ever trimmed (for
//! jedit against the JDK, every string-returning method ended up holding
//! the same 516 class names). The argument is already at hand at each call
//! site, so this pass takes the copies of the parameter into the return
//! value out of the method and records the parameter instead
//! ([`MethodIr::returned_params`]); the analysis then passes each call's
//! own argument to its result (`returnsParam` in `pointsto.dl`). What else
//! the method returns still flows through its return variable.
//!
//! Only copies that nothing but the return value depends on are taken
//! out: a variable that receives the parameter and is also used otherwise
//! (as a receiver, stored into a field) keeps it, and the return value
//! then still receives the parameter through it.
//!
//! The same holds one call further down. `String.toUpperCase(Locale)`
//! returns what `StringLatin1.toUpperCase(this, value, locale)` returns,
//! which is that argument or a new string: the call's result is only
//! copied on to the return value, so this pass records it
//! ([`MethodIr::returned_results`], the fact `returnedCall`), and the
//! analysis lifts the callee's returned parameter to the caller's own
//! callers when the call passes the caller's parameter there
//! (`returnedParam` in `pointsto.dl`). The new strings still flow through
//! the return variables.

use super::{MethodIr, Stmt, Var};
use fxhash::{FxHashMap, FxHashSet};

/// Takes the copies of parameters (`this` included) that only reach the
/// return value out of the body and records those parameters, by
/// position, in [`MethodIr::returned_params`]; records the calls whose
/// result only reaches the return value in [`MethodIr::returned_results`].
pub fn split_returned_parameters(ir: &mut MethodIr) {
    let Some(ret) = ir.ret else {
        return;
    };
    let params = ir.param_positions();
    // The variables whose objects are copied into the return value, found
    // backwards from it along copies (not through parameters, which have
    // no definitions).
    let mut sources: FxHashMap<Var, Vec<Var>> = FxHashMap::default();
    for s in &ir.stmts {
        if let Stmt::Assign { dst, src } = s {
            sources.entry(*dst).or_default().push(*src);
        }
    }
    let mut feeds: FxHashSet<Var> = FxHashSet::default();
    let mut todo = vec![ret];
    feeds.insert(ret);
    let mut reached_param = false;
    while let Some(v) = todo.pop() {
        for &src in sources.get(&v).into_iter().flatten() {
            if params.contains_key(&src) {
                reached_param = true;
            } else if feeds.insert(src) {
                todo.push(src);
            }
        }
    }
    // Nothing to split or record: no parameter and no call's result is
    // copied into the return value.
    let feeds_result =
        |s: &Stmt| matches!(s, Stmt::Invoke(inv) if inv.result.is_some_and(|r| feeds.contains(&r)));
    if !reached_param && !ir.stmts.iter().any(feeds_result) {
        return;
    }
    // Of those, the ones used only to be copied on towards the return
    // value (the return value itself has no uses): the largest such set.
    let mut only_returned = feeds;
    loop {
        let mut dropped = false;
        for s in &ir.stmts {
            let copy_on = match s {
                Stmt::Assign { dst, src } if only_returned.contains(dst) => Some(*src),
                _ => None,
            };
            for v in s.uses() {
                if Some(v) != copy_on && only_returned.remove(&v) {
                    dropped = true;
                }
            }
        }
        if !dropped {
            break;
        }
    }
    let mut results: Vec<Var> = (ir.stmts.iter())
        .filter_map(|s| match s {
            Stmt::Invoke(inv) => inv.result.filter(|r| only_returned.contains(r)),
            _ => None,
        })
        .collect();
    results.sort_unstable();
    results.dedup();
    ir.returned_results = results;
    let mut returned: Vec<u32> = Vec::new();
    ir.stmts.retain(|s| match s {
        Stmt::Assign { dst, src } if only_returned.contains(dst) => match params.get(src) {
            Some(&k) => {
                returned.push(k);
                false
            }
            None => true,
        },
        _ => true,
    });
    returned.sort_unstable();
    returned.dedup();
    ir.returned_params = returned;
}

/// The variables a statement reads.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::classfile::model::MemberRef;
    use crate::ir::VarInfo;

    fn ir_with(vars: &[&str], stmts: Vec<Stmt>) -> MethodIr {
        MethodIr {
            vars: vars
                .iter()
                .map(|n| VarInfo {
                    name: n.to_string(),
                    ty: "java.lang.Object".into(),
                })
                .collect(),
            params: vec![Some(0)],
            ret: Some(1),
            thrown: 2,
            stmts,
            ..MethodIr::default()
        }
    }

    fn assign(dst: Var, src: Var) -> Stmt {
        Stmt::Assign { dst, src }
    }

    #[test]
    fn a_returned_receiver_moves_to_the_call_site() {
        // return this;
        let mut ir = ir_with(&["this", "ret", "thrown"], vec![assign(1, 0)]);
        split_returned_parameters(&mut ir);
        assert_eq!(ir.returned_params, [0]);
        assert!(ir.stmts.is_empty());
    }

    #[test]
    fn a_merge_of_the_receiver_and_a_new_object_keeps_the_new_object() {
        // return cond ? this : new T(); as javac compiles it, a stack φ.
        let mut ir = ir_with(
            &["this", "ret", "thrown", "phi", "new"],
            vec![
                Stmt::New {
                    bci: 3,
                    level: 0,
                    dst: 4,
                    ty: "T".into(),
                    length: None,
                },
                assign(3, 0),
                assign(3, 4),
                assign(1, 3),
            ],
        );
        split_returned_parameters(&mut ir);
        assert_eq!(ir.returned_params, [0]);
        assert!(!ir.stmts.contains(&assign(3, 0)));
        assert!(ir.stmts.contains(&assign(3, 4)) && ir.stmts.contains(&assign(1, 3)));
    }

    #[test]
    fn a_receiver_copy_used_otherwise_stays() {
        // x = this; x.f = x; return x;
        let stmts = vec![
            assign(3, 0),
            Stmt::Store {
                base: 3,
                field: MemberRef {
                    class: "C".into(),
                    name: "f".into(),
                    desc: "Ljava/lang/Object;".into(),
                    interface: false,
                },
                src: 3,
            },
            assign(1, 3),
        ];
        let mut ir = ir_with(&["this", "ret", "thrown", "x"], stmts.clone());
        split_returned_parameters(&mut ir);
        assert!(ir.returned_params.is_empty());
        assert_eq!(ir.stmts, stmts);
    }

    #[test]
    fn a_call_result_only_returned_is_recorded_and_stays() {
        // return cond ? helper(this) : other; where other is also stored.
        let call = Stmt::Invoke(crate::ir::Invoke {
            bci: 1,
            kind: crate::ir::InvokeKind::Static,
            target: MemberRef {
                class: "C".into(),
                name: "helper".into(),
                desc: "(LC;)Ljava/lang/Object;".into(),
                interface: false,
            },
            receiver: None,
            args: vec![Some(0)],
            result: Some(3),
            handlers: Vec::new(),
        });
        let stmts = vec![call, assign(1, 3)];
        let mut ir = ir_with(&["this", "ret", "thrown", "r"], stmts.clone());
        split_returned_parameters(&mut ir);
        assert_eq!(ir.returned_results, [3]);
        assert!(ir.returned_params.is_empty());
        assert_eq!(ir.stmts, stmts);
    }

    #[test]
    fn a_returned_argument_moves_to_the_call_site() {
        // static Object requireNonNull(Object a, Object b) { ... return b; }
        let mut ir = ir_with(&["a", "ret", "thrown", "b"], vec![assign(1, 3)]);
        ir.params = vec![Some(0), Some(3)];
        split_returned_parameters(&mut ir);
        assert_eq!(ir.returned_params, [1]);
        assert!(ir.stmts.is_empty());
    }
}
