//! `invokedynamic`: the bootstrap methods javac emits, modelled.
//!
//! - `StringConcatFactory.makeConcatWithConstants` / `makeConcat`
//!   (Java 9+ string `+`): the result is a new string, and the
//!   arguments and the recipe's constant text flow into it
//!   ([`Stmt::Concat`]), so provenance analyses see through it.
//! - `LambdaMetafactory.metafactory` / `altMetafactory` (lambdas and
//!   method references): an object of the functional interface whose
//!   method calls the implementation ([`Stmt::Lambda`]); the fact
//!   generator synthesises that class as the JVM's
//!   `InnerClassLambdaMetafactory` does.
//!
//! Any other bootstrap method yields [`Stmt::UnknownDynamic`].

use super::{ConcatPart, Stmt, StringChar, Var};
use crate::classfile::descriptor::MethodDesc;
use crate::classfile::model::{ClassInfo, Constant};

const TAG_ARG: char = '\u{1}';
const TAG_CONST: char = '\u{2}';

/// An argument of an `invokedynamic`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Arg {
    /// The variable of a reference; `None` for primitives and null.
    pub var: Option<Var>,
    /// For a `char` that is a character of a string, the string's
    /// variable and the character's index ([`ConcatPart::Letter`]).
    pub letter: Option<StringChar>,
}

/// A concatenation's argument: the reference, the character of a string,
/// or text the analysis does not know.
fn concat_arg(arg: Option<&Arg>) -> ConcatPart {
    match arg {
        Some(Arg { var: Some(v), .. }) => ConcatPart::Var(*v),
        Some(Arg {
            letter: Some(letter),
            ..
        }) => ConcatPart::Letter {
            letter: *letter,
            repeats: false,
        },
        _ => ConcatPart::Unknown,
    }
}

/// Translates one `invokedynamic` whose arguments are `args` (one per
/// descriptor parameter).
pub fn translate(
    class: &ClassInfo,
    bci: u32,
    bootstrap_index: u16,
    name: &str,
    desc: &MethodDesc,
    args: &[Arg],
    dst: Option<Var>,
) -> Result<Stmt, String> {
    let bsm = class
        .bootstrap
        .get(bootstrap_index as usize)
        .ok_or_else(|| format!("bootstrap method #{bootstrap_index} does not exist"))?;
    let handle = match class.pool.constant(bsm.method).map_err(|e| e.0)? {
        Constant::MethodHandle(_, m) => m,
        _ => return Err("bootstrap method is not a method handle".into()),
    };
    let static_arg = |k: usize| -> Result<Constant, String> {
        let i = *bsm
            .args
            .get(k)
            .ok_or_else(|| format!("bootstrap argument {k} missing"))?;
        class.pool.constant(i).map_err(|e| e.0)
    };
    match (handle.class.as_str(), handle.name.as_str(), dst) {
        ("java.lang.invoke.StringConcatFactory", "makeConcatWithConstants", Some(dst)) => {
            let Constant::String(recipe) = static_arg(0)? else {
                return Err("string concatenation recipe is not a string".into());
            };
            let mut parts = Vec::new();
            let mut text = String::new();
            let mut next_arg = 0usize;
            let mut next_const = 1usize;
            for c in recipe.chars() {
                match c {
                    TAG_ARG => {
                        flush(&mut text, &mut parts);
                        parts.push(concat_arg(args.get(next_arg)));
                        next_arg += 1;
                    }
                    TAG_CONST => {
                        match static_arg(next_const)? {
                            Constant::String(s) => text.push_str(&s),
                            Constant::Int(i) => text.push_str(&i.to_string()),
                            Constant::Long(i) => text.push_str(&i.to_string()),
                            Constant::Float(f) => text.push_str(&f.to_string()),
                            Constant::Double(f) => text.push_str(&f.to_string()),
                            Constant::Class(t) => text.push_str(&format!("class {t}")),
                            _ => {}
                        }
                        next_const += 1;
                    }
                    c => text.push(c),
                }
            }
            flush(&mut text, &mut parts);
            Ok(Stmt::Concat { bci, dst, parts })
        }
        ("java.lang.invoke.StringConcatFactory", "makeConcat", Some(dst)) => Ok(Stmt::Concat {
            bci,
            dst,
            parts: args.iter().map(|a| concat_arg(Some(a))).collect(),
        }),
        ("java.lang.invoke.LambdaMetafactory", "metafactory" | "altMetafactory", Some(dst)) => {
            let Constant::MethodType(sam_desc) = static_arg(0)? else {
                return Err("lambda: first bootstrap argument is not a method type".into());
            };
            let Constant::MethodHandle(impl_kind, implementation) = static_arg(1)? else {
                return Err("lambda: second bootstrap argument is not a method handle".into());
            };
            // altMetafactory(..., flags, [markerCount, markers...], ...):
            // FLAG_SERIALIZABLE (1) makes the lambda Serializable, and
            // FLAG_MARKERS (2) adds the marker interfaces listed
            // (`(Runnable & Marker) () -> ...`), which casts then admit.
            let mut markers = Vec::new();
            if handle.name == "altMetafactory" {
                if let Ok(Constant::Int(flags)) = static_arg(3) {
                    if flags & 1 != 0 {
                        markers.push("java.io.Serializable".to_string());
                    }
                    if flags & 2 != 0 {
                        if let Ok(Constant::Int(count)) = static_arg(4) {
                            for k in 0..count.max(0) as usize {
                                if let Ok(Constant::Class(t)) = static_arg(5 + k) {
                                    markers.push(t);
                                }
                            }
                        }
                    }
                }
            }
            Ok(Stmt::Lambda {
                bci,
                dst,
                iface: desc.ret.clone(),
                markers,
                sam_name: name.to_string(),
                sam_desc,
                impl_kind,
                implementation,
                captured: args.iter().map(|a| a.var).collect(),
            })
        }
        (owner, bname, dst) => Ok(Stmt::UnknownDynamic {
            bci,
            dst,
            bootstrap: format!("{owner}.{bname}"),
        }),
    }
}

fn flush(text: &mut String, parts: &mut Vec<ConcatPart>) {
    if !text.is_empty() {
        parts.push(ConcatPart::Const(std::mem::take(text)));
    }
}
