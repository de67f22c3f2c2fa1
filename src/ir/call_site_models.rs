//! Library calls answered at each call site rather than in the callee.
//!
//! `System.arraycopy(src, _, dst, _, _)` only moves its caller's own
//! objects around: it copies the elements of one of the caller's arrays
//! into another. Analysed in the callee, context-insensitively, it pools
//! what all its callers pass: the model of `arraycopy` copied the
//! elements of every array ever copied into every array ever copied
//! into. Each caller has the arrays at hand, so this pass does the copy
//! at the call site: `dst[*] = src[*]`, through a fresh variable
//! `copy@bci`; the call stays (its native body is empty).
//!
//! (`AccessController.doPrivileged`, answered here before, is modelled
//! in `queries/models/privileged.dl`.)

use super::{MethodIr, Stmt, Var};

/// The class, name and descriptor of `System.arraycopy`.
const ARRAYCOPY: (&str, &str, &str) = (
    "java.lang.System",
    "arraycopy",
    "(Ljava/lang/Object;ILjava/lang/Object;II)V",
);

/// A copy to add, `dst[*] = src[*]`, found while the call sites are
/// visited.
struct Copy {
    bci: u32,
    src: Var,
    dst: Var,
}

/// Adds, at each call of `System.arraycopy`, the copy that answers it
/// (see the module documentation).
pub fn answer_at_call_sites(ir: &mut MethodIr) {
    let mut answers = Vec::new();
    for s in ir.stmts.iter() {
        let Stmt::Invoke(call) = s else {
            continue;
        };
        let t = &call.target;
        if (t.class.as_str(), t.name.as_str(), t.desc.as_str()) == ARRAYCOPY {
            if let (Some(Some(src)), Some(Some(dst))) = (call.args.first(), call.args.get(2)) {
                answers.push(Copy {
                    bci: call.bci,
                    src: *src,
                    dst: *dst,
                });
            }
        }
    }
    for Copy { bci, src, dst } in answers {
        let elem = ir.new_var(format!("copy@{bci}"), "java.lang.Object");
        ir.stmts.push(Stmt::ArrayLoad {
            dst: elem,
            base: src,
            index: None,
        });
        ir.stmts.push(Stmt::ArrayStore {
            base: dst,
            index: None,
            src: elem,
        });
    }
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
                Stmt::ArrayLoad {
                    dst: elem,
                    base: a,
                    index: None
                },
                Stmt::ArrayStore {
                    base: b,
                    index: None,
                    src: elem
                },
            ]
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
