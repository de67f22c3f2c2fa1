//! Models of JDK native methods that move objects between variables or
//! start execution elsewhere: the table `queries/models/natives.tsv`
//! says which natives have which body, and this module builds the body.
//! `--no-model natives` switches them off (`FactsOptions::natives`).
//!
//! A model stands in for a method that has no bytecode body (`native`).
//! Methods that the JDK at hand implements in Java keep their own code.
//! (`AccessController.doPrivileged`, native before JDK 17, needs no body:
//! `queries/models/privileged.dl` replaces its calls.) The bodies are
//! made here, not in Datalog, because `Thread.start0`'s is a call site,
//! which the database's domains must hold before the rules run.
//!
//! What they are worth (`Invoke` against java.base, `casts`, one run
//! each): with them the analysis reaches 23,089 methods and exports
//! 3,756 reflective targets; without them 22,244 and 3,084, since no
//! thread's `run()` is called and a clone holds nothing of the original.

use super::{read_rows, TableError};
use crate::classfile::descriptor::MethodDesc;
use crate::classfile::model::MemberRef;
use crate::ir::{Invoke, InvokeKind, MethodIr, Stmt};
use std::sync::OnceLock;

/// The table as shipped, compiled in.
pub const TEXT: &str = include_str!("../../queries/models/natives.tsv");

/// The file's name, for errors.
const FILE: &str = "queries/models/natives.tsv";

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

impl NativeModel {
    /// The model a table row names.
    fn named(name: &str) -> Option<NativeModel> {
        match name {
            "array-copy" => Some(NativeModel::ArrayCopy),
            "return-this" => Some(NativeModel::ReturnThis),
            "thread-run" => Some(NativeModel::ThreadRun),
            _ => None,
        }
    }
}

/// Parses a table in the format of `queries/models/natives.tsv`: each
/// native's Soot signature and its model.
pub fn parse(text: &str, file: &str) -> Result<Vec<(String, NativeModel)>, TableError> {
    let mut rows = Vec::new();
    read_rows(text, file, |fields| {
        let [signature, model] = fields[..] else {
            return Err(format!(
                "expected a signature and a model separated by a tab, found `{}`",
                fields.join("\t")
            ));
        };
        if crate::classfile::descriptor::parse_method_signature(signature).is_none() {
            return Err(format!("`{signature}` is not a method signature"));
        }
        let Some(model) = NativeModel::named(model) else {
            return Err(format!(
                "unknown model `{model}` (array-copy, return-this or thread-run)"
            ));
        };
        rows.push((signature.to_string(), model));
        Ok(())
    })?;
    Ok(rows)
}

/// The compiled-in table, parsed once. It is part of the program, and
/// `the_shipped_table_parses` tests it; a row it cannot read is a bug of
/// the build, not of any input.
fn table() -> &'static [(String, NativeModel)] {
    static TABLE: OnceLock<Vec<(String, NativeModel)>> = OnceLock::new();
    TABLE.get_or_init(|| match parse(TEXT, FILE) {
        Ok(t) => t,
        Err(e) => panic!("the compiled-in table of natives is invalid: {e}"),
    })
}

/// The model for a method signature, if the table has one.
pub fn model_for(signature: &str) -> Option<NativeModel> {
    table()
        .iter()
        .find(|(s, _)| s == signature)
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
                    handlers: Vec::new(),
                }));
            }
        }
    }
    ir
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_parses() {
        let rows = parse(TEXT, FILE).unwrap();
        assert_eq!(rows.len(), 6);
        assert_eq!(
            model_for("<java.lang.Thread: void start0()>"),
            Some(NativeModel::ThreadRun)
        );
        assert_eq!(
            model_for("<java.lang.Object: java.lang.Object clone()>"),
            Some(NativeModel::ReturnThis)
        );
        assert_eq!(model_for("<java.lang.Object: int hashCode()>"), None);
    }

    #[test]
    fn bad_rows_are_refused_with_their_line() {
        let err = |text: &str| parse(text, "n.tsv").unwrap_err().to_string();
        assert_eq!(
            err("# header\n<a.B: void c()>\treturn-that\n"),
            "n.tsv:2: unknown model `return-that` (array-copy, return-this or thread-run)"
        );
        assert_eq!(
            err("\n\n<a.B: void c()>\n"),
            "n.tsv:3: expected a signature and a model separated by a tab, found `<a.B: void c()>`"
        );
        assert_eq!(
            err("a.B.c()\treturn-this\n"),
            "n.tsv:1: `a.B.c()` is not a method signature"
        );
    }
}
