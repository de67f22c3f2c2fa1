//! Models of JDK native methods that move objects between variables or
//! start execution elsewhere. This is the one place they are listed.
//!
//! A model stands in for a method that has no bytecode body (`native`).
//! Methods that the JDK at hand implements in Java keep their own code.
//! (`AccessController.doPrivileged`, native before JDK 17, needs no body:
//! `queries/models/privileged.dl` replaces its calls.)

use crate::classfile::descriptor::MethodDesc;
use crate::classfile::model::MemberRef;
use crate::ir::{Invoke, InvokeKind, MethodIr, Stmt};

/// What a native does, in IR terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NativeModel {
    /// `System.arraycopy`: an empty body. Each call site copies its own
    /// arrays (`queries/models/arraycopy.dl`); copied here, every array
    /// ever copied from would reach every array ever copied into.
    ArrayCopy,
    /// Returns its receiver: `Object.clone` (a shallow copy keeps the
    /// same fields), `String.intern`, `Throwable.fillInStackTrace`.
    ReturnThis,
    /// `Thread.start0`: calls `this.run()`.
    ThreadRun,
}

/// Every modelled native, by Soot signature.
pub const NATIVES: &[(&str, NativeModel)] = &[
    (
        "<java.lang.System: void arraycopy(java.lang.Object,int,java.lang.Object,int,int)>",
        NativeModel::ArrayCopy,
    ),
    (
        "<java.lang.Object: java.lang.Object clone()>",
        NativeModel::ReturnThis,
    ),
    (
        "<java.lang.String: java.lang.String intern()>",
        NativeModel::ReturnThis,
    ),
    (
        "<java.lang.Throwable: java.lang.Throwable fillInStackTrace(int)>",
        NativeModel::ReturnThis,
    ),
    (
        "<java.lang.Throwable: java.lang.Throwable fillInStackTrace()>",
        NativeModel::ReturnThis,
    ),
    ("<java.lang.Thread: void start0()>", NativeModel::ThreadRun),
];

/// The model for a method signature, if it is one of [`NATIVES`].
pub fn model_for(signature: &str) -> Option<NativeModel> {
    NATIVES
        .iter()
        .find(|(s, _)| *s == signature)
        .map(|(_, m)| *m)
}

/// Builds the IR body of a modelled native.
pub fn body(model: NativeModel, class: &str, is_static: bool, desc: &MethodDesc) -> MethodIr {
    let mut ir = MethodIr::skeleton(is_static, class, &desc.params, &desc.ret);
    let param = |ir: &MethodIr, k: usize| ir.params.get(k).copied().flatten();
    match model {
        NativeModel::ArrayCopy => {}
        NativeModel::ReturnThis => {
            if let (Some(this), Some(ret)) = (param(&ir, 0), ir.ret) {
                ir.stmts.push(Stmt::Assign {
                    dst: ret,
                    src: this,
                });
            }
        }
        NativeModel::ThreadRun => {
            if let Some(this) = param(&ir, 0) {
                ir.stmts.push(Stmt::Invoke(Invoke {
                    bci: 0,
                    kind: InvokeKind::Virtual,
                    target: MemberRef {
                        class: "java.lang.Thread".into(),
                        name: "run".into(),
                        desc: "()V".into(),
                        interface: false,
                    },
                    receiver: Some(this),
                    args: Vec::new(),
                    result: None,
                    exception: None,
                }));
            }
        }
    }
    ir
}
