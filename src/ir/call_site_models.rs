//! Library calls answered at each call site rather than in the callee.
//!
//! Some library methods only move their caller's own objects around:
//! `System.arraycopy(src, _, dst, _, _)` copies the elements of one of
//! the caller's arrays into another, and `AccessController.doPrivileged`
//! returns what its action's `run()` returns. Analysed in the callee,
//! context-insensitively, each pools what all its callers pass: the
//! model of `arraycopy` copied the elements of every array ever copied
//! into every array ever copied into, and the return variable of
//! `doPrivileged` held the result of every privileged action of the JDK.
//! Each caller has the objects at hand, so this pass does the work at
//! the call site:
//!
//! - `System.arraycopy(src, _, dst, _, _)`: `dst[*] = src[*]`, through a
//!   fresh variable `copy@bci`; the call stays (its native body is empty);
//! - `r = AccessController.doPrivileged(action, …)`: `r = action.run()`,
//!   a call of the action's interface method at the same bytecode index;
//!   the original call stays for the call graph but no longer returns
//!   into `r`.

use super::{Invoke, MethodIr, Stmt, Var};
use crate::classfile::model::MemberRef;

/// The class, name and descriptor of `System.arraycopy`.
const ARRAYCOPY: (&str, &str, &str) = (
    "java.lang.System",
    "arraycopy",
    "(Ljava/lang/Object;ILjava/lang/Object;II)V",
);

/// The action interfaces of `doPrivileged`, as the first parameter of its
/// descriptor spells them, with their binary names.
const PRIVILEGED_ACTIONS: &[(&str, &str)] = &[
    (
        "(Ljava/security/PrivilegedAction;",
        "java.security.PrivilegedAction",
    ),
    (
        "(Ljava/security/PrivilegedExceptionAction;",
        "java.security.PrivilegedExceptionAction",
    ),
];

/// A statement to add, found while the call sites are visited.
enum Answer {
    /// `dst[*] = src[*]`.
    Copy { bci: u32, src: Var, dst: Var },
    /// `result = action.run()`.
    Run {
        call: Invoke,
        action: Var,
        iface: &'static str,
    },
}

/// Adds, at each call of `System.arraycopy` and
/// `AccessController.doPrivileged*`, the statements that answer it (see
/// the module documentation).
pub fn answer_at_call_sites(ir: &mut MethodIr) {
    let mut answers = Vec::new();
    for s in ir.stmts.iter_mut() {
        let Stmt::Invoke(call) = s else {
            continue;
        };
        let t = &call.target;
        if (t.class.as_str(), t.name.as_str(), t.desc.as_str()) == ARRAYCOPY {
            if let (Some(Some(src)), Some(Some(dst))) = (call.args.first(), call.args.get(2)) {
                answers.push(Answer::Copy {
                    bci: call.bci,
                    src: *src,
                    dst: *dst,
                });
            }
        } else if let Some(iface) = privileged_action(t) {
            if let (Some(Some(action)), Some(_)) = (call.args.first(), call.result) {
                let action = *action;
                let answered = call.clone();
                call.result = None;
                answers.push(Answer::Run {
                    call: answered,
                    action,
                    iface,
                });
            }
        }
    }
    for answer in answers {
        match answer {
            Answer::Copy { bci, src, dst } => {
                let elem = ir.new_var(format!("copy@{bci}"), "java.lang.Object");
                ir.stmts.push(Stmt::ArrayLoad {
                    dst: elem,
                    base: src,
                });
                ir.stmts.push(Stmt::ArrayStore {
                    base: dst,
                    index: None,
                    src: elem,
                });
            }
            Answer::Run {
                call,
                action,
                iface,
            } => {
                let target = (iface, "run", "()Ljava/lang/Object;");
                let run = call.interface_call_beside(target, action, Vec::new(), call.result);
                ir.stmts.push(Stmt::Invoke(run));
            }
        }
    }
}

/// The action interface of a `doPrivileged` variant of
/// `AccessController`, if `target` is one.
fn privileged_action(target: &MemberRef) -> Option<&'static str> {
    if target.class != "java.security.AccessController" || !target.name.starts_with("doPrivileged")
    {
        return None;
    }
    PRIVILEGED_ACTIONS
        .iter()
        .find(|(prefix, _)| target.desc.starts_with(prefix))
        .map(|(_, iface)| *iface)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::InvokeKind;

    fn call(
        class: &str,
        name: &str,
        desc: &str,
        args: Vec<Option<Var>>,
        result: Option<Var>,
    ) -> Stmt {
        crate::ir::test_call(InvokeKind::Static, None, (class, name, desc), args, result)
    }

    #[test]
    fn arraycopy_copies_the_callers_elements() {
        let mut ir = MethodIr::skeleton(
            true,
            "C",
            &["java.lang.Object[]".into(), "java.lang.Object[]".into()],
            "void",
        );
        let (a, b) = (ir.params[0].unwrap(), ir.params[1].unwrap());
        ir.stmts.push(call(
            ARRAYCOPY.0,
            ARRAYCOPY.1,
            ARRAYCOPY.2,
            vec![Some(a), None, Some(b), None, None],
            None,
        ));
        answer_at_call_sites(&mut ir);
        let elem = (ir.vars.len() - 1) as Var;
        assert_eq!(ir.vars[elem as usize].name, "copy@7");
        assert_eq!(
            ir.stmts[1..],
            [
                Stmt::ArrayLoad { dst: elem, base: a },
                Stmt::ArrayStore {
                    base: b,
                    index: None,
                    src: elem
                },
            ]
        );
    }

    #[test]
    fn do_privileged_returns_its_actions_run_at_the_call_site() {
        let mut ir = MethodIr::skeleton(
            true,
            "C",
            &["java.security.PrivilegedExceptionAction".into()],
            "java.lang.Object",
        );
        let (action, r) = (ir.params[0].unwrap(), ir.ret.unwrap());
        let desc = "(Ljava/security/PrivilegedExceptionAction;)Ljava/lang/Object;";
        ir.stmts.push(call(
            "java.security.AccessController",
            "doPrivileged",
            desc,
            vec![Some(action)],
            Some(r),
        ));
        answer_at_call_sites(&mut ir);
        let Stmt::Invoke(original) = &ir.stmts[0] else {
            panic!()
        };
        assert_eq!(original.result, None);
        let Stmt::Invoke(run) = &ir.stmts[1] else {
            panic!()
        };
        assert_eq!(run.target.class, "java.security.PrivilegedExceptionAction");
        assert_eq!(
            (run.target.name.as_str(), run.kind),
            ("run", InvokeKind::Interface)
        );
        assert_eq!(
            (run.receiver, run.result, run.bci),
            (Some(action), Some(r), 7)
        );
    }

    #[test]
    fn other_calls_are_left_alone() {
        let mut ir =
            MethodIr::skeleton(true, "C", &["java.lang.Object".into()], "java.lang.Object");
        let (p, r) = (ir.params[0].unwrap(), ir.ret.unwrap());
        ir.stmts.push(call(
            "java.util.Objects",
            "requireNonNull",
            "(Ljava/lang/Object;)Ljava/lang/Object;",
            vec![Some(p)],
            Some(r),
        ));
        let before = ir.clone();
        answer_at_call_sites(&mut ir);
        assert_eq!(ir, before);
    }
}
