//! javac's string concatenation through `StringBuilder`, as concatenations.
//!
//! Before Java 9 (and in `java.base` still), javac compiles `"set" + name`
//! to `new StringBuilder().append("set").append(name).toString()`. The
//! calls pass the text on (`stringFlow`), but not its order: which part
//! comes first is what tells a class name's package or a setter's prefix.
//! This pass recognises a builder that one expression fills and reads,
//! and adds a [`Stmt::Concat`] of its parts at the `toString()` call,
//! beside the calls, as the `invokedynamic` concatenation of newer
//! compilers has it ([`super::invokedynamic`]).
//!
//! A builder counts only when every use of it is a call of its own class
//! that appends, reads or converts it: passed to another method, stored,
//! copied (a φ at a loop or a handler), inserted into or reversed, its
//! text is no longer the sequence of its appends, and it gets no
//! concatenation.
//!
//! Appends on the way from the builder's creation to its `toString()`
//! are in order only where they run on every path and once: an append
//! behind a branch (xalan's `if (ns != null) sb.append("Xml")`) or in a
//! loop that does not create the builder anew (a character at a time)
//! is text at no known place (see [`super::flow`]). Without that, xalan's
//! setter names, `"set"` and then the attribute's letters, read as
//! starting with `"setXml"`.
//!
//! [`concat_affixes`] then reads each concatenation's constant start and
//! end: the prefix and suffix that Doop's substring analysis matches
//! against class and member names.

use super::flow::Flow;
use super::{ConcatPart, MethodIr, Stmt, StringChar, StringPiece, Var};
use fxhash::{FxHashMap, FxHashSet};

/// The builder classes javac uses.
const BUILDERS: [&str; 2] = ["java.lang.StringBuilder", "java.lang.StringBuffer"];

/// The methods that read a builder without changing it.
const READS: [&str; 14] = [
    "length",
    "charAt",
    "indexOf",
    "lastIndexOf",
    "capacity",
    "codePointAt",
    "substring",
    "subSequence",
    "getChars",
    "chars",
    "compareTo",
    "isEmpty",
    "ensureCapacity",
    "trimToSize",
];

/// What an `append` or constructor argument adds: `letter` is the string
/// whose character a `char` argument is ([`MethodIr::letter_args`]).
fn appended(desc: &str, arg: Option<Option<Var>>, letter: Option<StringChar>) -> ConcatPart {
    let whole = desc.starts_with("(Ljava/lang/String;)")
        || desc.starts_with("(Ljava/lang/Object;)")
        || desc.starts_with("(Ljava/lang/CharSequence;)")
        || desc.starts_with("(Ljava/lang/StringBuffer;)");
    match (arg, letter) {
        (Some(Some(v)), _) if whole => ConcatPart::Var(v),
        (_, Some(letter)) if desc.starts_with("(C)") => ConcatPart::Letter {
            letter,
            repeats: false,
        },
        _ => ConcatPart::Unknown,
    }
}

/// Whether a statement makes a builder.
fn is_new_builder(s: &Stmt) -> bool {
    matches!(s, Stmt::New { ty, .. } if BUILDERS.contains(&ty.as_str()))
}

/// Whether the method makes a builder: lowering keeps its [`Flow`] then.
pub fn makes_builder(ir: &MethodIr) -> bool {
    ir.stmts.iter().any(is_new_builder)
}

/// The parts that the text at a `toString()` (bytecode index `read`) of a
/// builder made at `made` holds, in order. An append that may be skipped
/// on the way (it does not dominate the read), or may run more than once
/// (a loop that does not make the builder anew), is text at no known
/// place ([`ConcatPart::Maybe`]); so is what a loop around the read may
/// append after it ([`ConcatPart::Unknown`]). Without a
/// flow (a method built by hand), the appends are taken in their order.
fn settled(
    flow: Option<&Flow>,
    made: u32,
    read: u32,
    parts: &[(u32, ConcatPart)],
    appends: &[u32],
) -> Vec<ConcatPart> {
    let Some(flow) = flow else {
        return parts.iter().map(|(_, p)| p.clone()).collect();
    };
    let (n, t) = (flow.block_at(made), flow.block_at(read));
    let once_on_every_path = |a: usize| flow.dominates(a, t) && !flow.repeats_without(a, n);
    let mut out: Vec<ConcatPart> = (parts.iter())
        .map(|(at, p)| {
            let a = flow.block_at(*at);
            match p {
                _ if a == n && a == t || once_on_every_path(a) => p.clone(),
                ConcatPart::Var(v) | ConcatPart::Maybe(v) => ConcatPart::Maybe(*v),
                // A loop that appends a string's characters one at a
                // time spells (some of) its letters.
                ConcatPart::Letter { letter, .. } => ConcatPart::Letter {
                    letter: *letter,
                    repeats: true,
                },
                _ => ConcatPart::Unknown,
            }
        })
        .collect();
    let looping = |a: usize| flow.repeats_without(a, n);
    if t != n && looping(t) && appends.iter().any(|&at| looping(flow.block_at(at))) {
        out.push(ConcatPart::Unknown);
    }
    out
}

/// Adds a [`Stmt::Concat`] at each `toString()` of a builder whose text is
/// the sequence of its appends.
pub fn builder_concats(ir: &mut MethodIr) {
    if !makes_builder(ir) {
        return;
    }
    let mut defs: FxHashMap<Var, u32> = FxHashMap::default();
    for s in &ir.stmts {
        s.for_each_def(|v| *defs.entry(v).or_default() += 1);
    }
    // A builder stays on the stack across a conditional inside the
    // expression (`sb.append(c ? a : b)`): the merge copies it into a
    // stack φ with that one source. Such a φ is the builder. (A local's φ
    // may join a loop, whose appends repeat; it ends the builder.)
    let alias: FxHashMap<Var, Var> = (ir.stmts.iter())
        .filter_map(|s| match s {
            Stmt::Assign { dst, src }
                if defs.get(dst) == Some(&1)
                    && (ir.vars.get(*dst as usize))
                        .is_some_and(|v| v.name.starts_with("phi:s")) =>
            {
                Some((*dst, *src))
            }
            _ => None,
        })
        .collect();
    // Each variable that holds a builder, by the builder's allocation.
    let mut root: FxHashMap<Var, Var> = FxHashMap::default();
    let find = |root: &FxHashMap<Var, Var>, mut v: Var| -> Option<Var> {
        for _ in 0..8 {
            if let Some(&b) = root.get(&v) {
                return Some(b);
            }
            v = *alias.get(&v)?;
        }
        None
    };
    // The characters of strings that calls pass, by call and position.
    let letters: FxHashMap<(u32, u16), StringChar> = (ir.letter_args.iter())
        .map(|&(bci, k, letter)| ((bci, k), letter))
        .collect();
    // Each builder's parts so far, with the bytecode index that adds each.
    let mut parts: FxHashMap<Var, Vec<(u32, ConcatPart)>> = FxHashMap::default();
    let mut made: FxHashMap<Var, u32> = FxHashMap::default();
    // Every append of each builder, wherever it is.
    let mut appends: FxHashMap<Var, Vec<u32>> = FxHashMap::default();
    let mut broken: FxHashSet<Var> = FxHashSet::default();
    // Each read: its bytecode index, the builder, and the result.
    let mut found: Vec<(u32, Var, Var)> = Vec::new();
    for s in &ir.stmts {
        match s {
            Stmt::New { bci, dst, ty, .. } if BUILDERS.contains(&ty.as_str()) => {
                root.insert(*dst, *dst);
                parts.insert(*dst, Vec::new());
                made.insert(*dst, *bci);
                if defs.get(dst) != Some(&1) {
                    broken.insert(*dst);
                }
                continue;
            }
            Stmt::Invoke(inv) if BUILDERS.contains(&inv.target.class.as_str()) => {
                if let Some(b) = inv.receiver.and_then(|r| find(&root, r)) {
                    // The builder as an argument of its own call
                    // (`sb.append(sb)`) falls to the check below.
                    let own_arg = inv.args.iter().flatten().any(|a| find(&root, *a).is_some());
                    let name = inv.target.name.as_str();
                    let desc = inv.target.desc.as_str();
                    match name {
                        _ if own_arg => {}
                        "<init>" => {
                            if desc != "()V" && desc != "(I)V" {
                                let letter = letters.get(&(inv.bci, 0)).copied();
                                let part = appended(desc, inv.args.first().copied(), letter);
                                if let Some(p) = parts.get_mut(&b) {
                                    p.push((inv.bci, part));
                                }
                            }
                            continue;
                        }
                        "append" => {
                            let part = if inv.args.len() == 1 {
                                let letter = letters.get(&(inv.bci, 0)).copied();
                                appended(desc, inv.args.first().copied(), letter)
                            } else {
                                ConcatPart::Unknown
                            };
                            if let Some(p) = parts.get_mut(&b) {
                                p.push((inv.bci, part));
                            }
                            appends.entry(b).or_default().push(inv.bci);
                            if let Some(r) = inv.result {
                                root.insert(r, b);
                            }
                            continue;
                        }
                        "toString" => {
                            if let Some(r) = inv.result {
                                found.push((inv.bci, b, r));
                            }
                            continue;
                        }
                        _ if READS.contains(&name) => continue,
                        _ => {
                            broken.insert(b);
                            continue;
                        }
                    }
                }
            }
            Stmt::Assign { dst, .. } if alias.contains_key(dst) => continue,
            _ => {}
        }
        // Any other use of a builder: its text is out of sight.
        for u in s.uses() {
            if let Some(b) = find(&root, u) {
                broken.insert(b);
            }
        }
    }
    // The statements come block by block in reverse post-order, which
    // may place a loop's body after the code that follows the loop: a
    // read's parts are the appends before it in the bytecode, in their
    // order there (javac lays an expression out in order, and a loop's
    // body before its exit). An append after the read that a loop brings
    // back before it is text at no known place (`settled`).
    for parts in parts.values_mut() {
        parts.sort_by_key(|(at, _)| *at);
    }
    for (bci, b, dst) in found {
        let parts: Vec<(u32, ConcatPart)> = (parts.get(&b).into_iter().flatten())
            .filter(|(at, _)| *at < bci)
            .cloned()
            .collect();
        if !broken.contains(&b) {
            let all = appends.get(&b).map_or(&[][..], |a| &a[..]);
            let made = made.get(&b).copied().unwrap_or(bci);
            let parts = settled(ir.flow.as_ref(), made, bci, &parts, all);
            ir.stmts.push(Stmt::Concat { bci, dst, parts });
        }
    }
}

/// The known start and end of a concatenation's text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Affixes {
    /// The text before the first part the analysis does not know.
    pub prefix: String,
    /// The text after the last part the analysis does not know.
    pub suffix: String,
    /// Whether every part is known: the text is then `prefix` alone.
    pub exact: bool,
}

impl Affixes {
    /// Whether `name` may be the concatenation's text, with `prefix` for
    /// its known start: equal to it for an exact concatenation, else
    /// starting with it and ending with the suffix, with room for the
    /// unknown part between them.
    pub fn fits(&self, prefix: &str, name: &str) -> bool {
        if self.exact {
            name == prefix
        } else {
            name.len() >= prefix.len() + self.suffix.len()
                && name.starts_with(prefix)
                && name.ends_with(self.suffix.as_str())
        }
    }
}

/// How deep [`concat_affixes`] follows a part that is itself a
/// concatenation.
const MAX_DEPTH: u32 = 4;

/// The affixes of each concatenation in the method, by its result
/// variable. A part that is a variable defined only by a string constant
/// is that text; one defined only by another concatenation of the method
/// contributes that concatenation's affixes.
pub fn concat_affixes(ir: &MethodIr) -> FxHashMap<Var, Affixes> {
    if !ir.stmts.iter().any(|s| matches!(s, Stmt::Concat { .. })) {
        return FxHashMap::default();
    }
    let defs = definition_counts(ir);
    let texts = constant_texts(ir, &defs);
    let concats: FxHashMap<Var, &[ConcatPart]> = (ir.stmts.iter())
        .filter_map(|s| match s {
            Stmt::Concat { dst, parts, .. } if defs.get(dst) == Some(&1) => {
                Some((*dst, &parts[..]))
            }
            _ => None,
        })
        .collect();
    let mut out = FxHashMap::default();
    for (&dst, parts) in &concats {
        out.insert(dst, affixes_of(parts, &texts, &concats, 0));
    }
    out
}

/// How many definitions each variable has: statements and parameters.
/// The `toString()` call that a builder's concatenation sits beside
/// defines its result too; it does not count.
fn definition_counts(ir: &MethodIr) -> FxHashMap<Var, u32> {
    let built: FxHashSet<Var> = (ir.stmts.iter())
        .filter_map(|s| match s {
            Stmt::Concat { dst, .. } => Some(*dst),
            _ => None,
        })
        .collect();
    let mut defs: FxHashMap<Var, u32> = FxHashMap::default();
    for s in &ir.stmts {
        if let Stmt::Invoke(inv) = s {
            if inv.result.is_some_and(|r| built.contains(&r)) && inv.target.name == "toString" {
                continue;
            }
        }
        s.for_each_def(|v| *defs.entry(v).or_default() += 1);
    }
    for p in ir.params.iter().flatten() {
        *defs.entry(*p).or_default() += 1;
    }
    defs
}

/// The text of each variable that a string constant alone defines.
fn constant_texts<'a>(ir: &'a MethodIr, defs: &FxHashMap<Var, u32>) -> FxHashMap<Var, &'a str> {
    (ir.stmts.iter())
        .filter_map(|s| match s {
            Stmt::StringConst { dst, text } if defs.get(dst) == Some(&1) => {
                Some((*dst, text.as_str()))
            }
            _ => None,
        })
        .collect()
}

/// The affixes of one list of parts.
fn affixes_of(
    parts: &[ConcatPart],
    texts: &FxHashMap<Var, &str>,
    concats: &FxHashMap<Var, &[ConcatPart]>,
    depth: u32,
) -> Affixes {
    let of = |p: &ConcatPart| -> Affixes {
        match p {
            ConcatPart::Const(t) => Affixes {
                prefix: t.clone(),
                suffix: String::new(),
                exact: true,
            },
            ConcatPart::Var(v) => {
                if let Some(t) = texts.get(v) {
                    Affixes {
                        prefix: t.to_string(),
                        suffix: String::new(),
                        exact: true,
                    }
                } else if let (Some(inner), true) = (concats.get(v), depth < MAX_DEPTH) {
                    affixes_of(inner, texts, concats, depth + 1)
                } else {
                    Affixes::default()
                }
            }
            ConcatPart::Unknown | ConcatPart::Maybe(_) | ConcatPart::Letter { .. } => {
                Affixes::default()
            }
        }
    };
    let pieces: Vec<Affixes> = parts.iter().map(of).collect();
    let mut out = Affixes {
        exact: true,
        ..Affixes::default()
    };
    // The prefix runs to the first part not known exactly, and takes that
    // part's own prefix.
    for p in &pieces {
        out.prefix.push_str(&p.prefix);
        if !p.exact {
            out.exact = false;
            break;
        }
    }
    if out.exact {
        return out;
    }
    let mut suffix: Vec<&str> = Vec::new();
    for p in pieces.iter().rev() {
        if p.exact {
            suffix.push(&p.prefix);
        } else {
            suffix.push(&p.suffix);
            break;
        }
    }
    out.suffix = suffix.into_iter().rev().collect();
    out
}

/// A name completed by one string: known text, text that may be skipped,
/// then that string's text, then known text, with some known text before
/// or after it. The string stands whole (`"r." + kind + "Impl"`, `"get" +
/// property`), or is spelled from its characters (`charAt`, in a loop or
/// beside a piece of the same string): xalan's `getSetterMethodName`
/// gives `"set"`, `"Xml"` behind a branch, and the attribute's
/// characters, capitalised first and after each `'-'`:
/// `setUseAttributeSets`. `"set" + Character.toUpperCase(s.charAt(0)) +
/// s.substring(1)` spells `s` capitalised, behind `"set"`.
///
/// The analysis names the classes and members whose name, past a head
/// and before the tail, is a value of the source: the same text where it
/// stands whole, and where it is spelled, the same letters with their
/// case and separators set aside ([`fold_letters`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Completion {
    /// The variable holding the string that completes the name.
    pub source: Var,
    /// Each way the text before the source may read: the known text,
    /// with and without each part that may be skipped.
    pub heads: Vec<String>,
    /// The known text after the source.
    pub tail: String,
    /// Whether the source's text stands whole in the name; otherwise the
    /// name spells its letters.
    pub whole: bool,
    /// How many characters of the source's text come before the part
    /// that stands whole in the name (`"set" +
    /// getter.getName().substring(3)`): 0 but for a `substring(k)` of it.
    pub skip: u32,
    /// Whether the first character of that part has its case changed:
    /// `Character.toLowerCase(name.charAt(3)) + name.substring(4)`, a
    /// getter's property. Names match it with their first letter's case
    /// set aside.
    pub recased: bool,
    /// Whether the source is what `Class.getName()`, `getTypeName()`,
    /// `getSimpleName()` or `getCanonicalName()` returns: set by the
    /// facts' extraction, which knows those calls
    /// (`reflection_api::CLASS_NAMES`).
    pub class_name: bool,
}

/// The most ways a name's head may read: three parts that may be
/// skipped.
const MAX_HEADS: usize = 8;

/// A name's letters with their case and separators set aside: what
/// spelling a string a letter at a time, capitalised first and after each
/// `'-'` or `'_'`, keeps of it (`"use-attribute-sets"` and
/// `"UseAttributeSets"` both give `"useattributesets"`).
pub fn fold_letters(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The concatenations of the method that one string completes
/// ([`Completion`]), by result variable.
pub fn concat_completions(ir: &MethodIr) -> FxHashMap<Var, Completion> {
    if !ir.stmts.iter().any(|s| matches!(s, Stmt::Concat { .. })) {
        return FxHashMap::default();
    }
    let defs = definition_counts(ir);
    let texts = constant_texts(ir, &defs);
    let pieces: FxHashMap<Var, StringPiece> = (ir.string_pieces.iter())
        .filter(|p| defs.get(&p.piece) == Some(&1))
        .map(|p| (p.piece, *p))
        .collect();
    let concats: FxHashSet<Var> = (ir.stmts.iter())
        .filter_map(|s| match s {
            Stmt::Concat { dst, .. } => Some(*dst),
            _ => None,
        })
        .collect();
    let mut out = FxHashMap::default();
    for s in &ir.stmts {
        if let Stmt::Concat { dst, parts, .. } = s {
            if let Some(l) = completion_of(parts, &texts, &pieces, &concats) {
                out.insert(*dst, l);
            }
        }
    }
    out
}

/// The [`Completion`] of one list of parts, if it has that shape. A part
/// that is a variable of the method's own concatenations is not a
/// source: its points-to object is the concatenation, not a text.
fn completion_of(
    parts: &[ConcatPart],
    texts: &FxHashMap<Var, &str>,
    pieces: &FxHashMap<Var, StringPiece>,
    concats: &FxHashSet<Var>,
) -> Option<Completion> {
    let mut heads = vec![String::new()];
    let mut source: Option<Var> = None;
    // Characters and pieces of the source, whether a loop spells it, and
    // whether it stands whole (past its first `skip` characters, the
    // first of them recased).
    let (mut count, mut looped, mut whole, mut skip) = (0, false, false, 0);
    let mut recased = false;
    // The source's first part where it is its character at a constant
    // index past the first (`name.charAt(3)`).
    let mut first_letter: Option<(Var, u32)> = None;
    let mut tail = String::new();
    for p in parts {
        let text = match p {
            ConcatPart::Var(v) | ConcatPart::Maybe(v) => texts.get(v).copied(),
            ConcatPart::Const(t) => Some(t.as_str()),
            _ => None,
        };
        let piece = match p {
            ConcatPart::Var(v) => pieces.get(v),
            _ => None,
        };
        let letter = match p {
            ConcatPart::Letter { letter, repeats } => Some((letter.source, *repeats)),
            _ => piece.map(|s| (s.source, false)),
        };
        // A string's character at index k, recased, then its text past
        // k + 1: the text past k stands whole, its first letter recased.
        if let (Some((s0, k0)), Some(&StringPiece { source, from, .. })) = (first_letter, piece) {
            if source == s0 && from == Some(k0 + 1) && count == 1 && tail.is_empty() && !whole {
                (whole, skip, recased) = (true, k0, true);
                continue;
            }
        }
        // A string's text past its first characters, first of the
        // source's parts, stands whole from there.
        if let (
            None,
            None,
            Some(&StringPiece {
                source: s,
                from: Some(k),
                ..
            }),
        ) = (text, source, piece)
        {
            if k > 0 {
                (source, skip, whole) = (Some(s), k, true);
                continue;
            }
        }
        match (p, text, letter, source) {
            (ConcatPart::Var(_) | ConcatPart::Const(_), Some(t), _, None) => {
                heads.iter_mut().for_each(|h| h.push_str(t))
            }
            (ConcatPart::Maybe(_), Some(t), _, None) if heads.len() < MAX_HEADS => {
                let with: Vec<String> = heads.iter().map(|h| format!("{h}{t}")).collect();
                heads.extend(with);
            }
            (_, _, Some((s, repeats)), None) => {
                source = Some(s);
                count = 1;
                looped = repeats;
                if let ConcatPart::Letter {
                    letter: StringChar { at: Some(k), .. },
                    repeats: false,
                } = p
                {
                    first_letter = (*k > 0).then_some((s, *k));
                }
            }
            (_, _, Some((s, repeats)), Some(first)) if s == first && tail.is_empty() && !whole => {
                count += 1;
                looped |= repeats;
            }
            (ConcatPart::Var(v), None, None, None) if !concats.contains(v) => {
                source = Some(*v);
                whole = true;
            }
            (ConcatPart::Var(_) | ConcatPart::Const(_), Some(t), _, Some(_)) => tail.push_str(t),
            _ => return None,
        }
    }
    heads.sort();
    heads.dedup();
    let source = source?;
    // A source with no known text around it would name every class or
    // member whose name is some constant; past its first characters, it
    // names those whose name is the rest of one (a getter's property).
    let known = !tail.is_empty() || heads.iter().any(|h| !h.is_empty()) || skip > 0;
    (known && (whole || count >= 2 || looped)).then_some(Completion {
        source,
        heads,
        tail,
        whole,
        skip,
        recased,
        class_name: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{test_call, InvokeKind};

    const SB: &str = "java.lang.StringBuilder";

    /// Adds a call at the next bytecode index (its statement's number),
    /// since a read's parts are the appends before it in the bytecode.
    fn call(ir: &mut MethodIr, mut stmt: Stmt) {
        if let Stmt::Invoke(inv) = &mut stmt {
            inv.bci = ir.stmts.len() as u32;
        }
        ir.stmts.push(stmt);
    }

    /// `v = new StringBuilder()` and its constructor.
    fn builder(ir: &mut MethodIr, init: Option<Var>) -> Var {
        let b = ir.new_var("sb", SB);
        ir.stmts.push(Stmt::New {
            bci: 0,
            level: 0,
            dst: b,
            ty: SB.into(),
            length: None,
        });
        let desc = if init.is_some() {
            "(Ljava/lang/String;)V"
        } else {
            "()V"
        };
        call(
            ir,
            test_call(
                InvokeKind::Special,
                Some(b),
                (SB, "<init>", desc),
                vec![init],
                None,
            ),
        );
        b
    }

    fn append(ir: &mut MethodIr, recv: Var, desc: &str, arg: Option<Var>) -> Var {
        let r = ir.new_var("r", SB);
        call(
            ir,
            test_call(
                InvokeKind::Virtual,
                Some(recv),
                (SB, "append", desc),
                vec![arg],
                Some(r),
            ),
        );
        r
    }

    fn constant(ir: &mut MethodIr, text: &str) -> Var {
        let v = ir.new_var("c", "java.lang.String");
        ir.stmts.push(Stmt::StringConst {
            dst: v,
            text: text.into(),
        });
        v
    }

    fn to_string(ir: &mut MethodIr, recv: Var) -> Var {
        let s = ir.new_var("s", "java.lang.String");
        call(
            ir,
            test_call(
                InvokeKind::Virtual,
                Some(recv),
                (SB, "toString", "()Ljava/lang/String;"),
                vec![],
                Some(s),
            ),
        );
        s
    }

    const STR: &str = "(Ljava/lang/String;)Ljava/lang/StringBuilder;";

    #[test]
    fn a_chain_becomes_a_concatenation_with_its_affixes() {
        // new StringBuilder("org.").append(name).append('.').append("Impl").toString()
        let mut ir = MethodIr::default();
        let name = ir.new_var("p0", "java.lang.String");
        ir.params.push(Some(name));
        let org = constant(&mut ir, "org.");
        let b = builder(&mut ir, Some(org));
        let r1 = append(&mut ir, b, STR, Some(name));
        let r2 = append(&mut ir, r1, "(C)Ljava/lang/StringBuilder;", None);
        let imp = constant(&mut ir, "Impl");
        let r3 = append(&mut ir, r2, STR, Some(imp));
        let s = to_string(&mut ir, r3);
        builder_concats(&mut ir);
        let Some(Stmt::Concat { dst, parts, .. }) = ir.stmts.last() else {
            panic!("no concatenation: {:?}", ir.stmts);
        };
        assert_eq!(*dst, s);
        assert_eq!(
            parts,
            &vec![
                ConcatPart::Var(org),
                ConcatPart::Var(name),
                ConcatPart::Unknown,
                ConcatPart::Var(imp)
            ]
        );
        let a = &concat_affixes(&ir)[&s];
        assert_eq!(
            (a.prefix.as_str(), a.suffix.as_str(), a.exact),
            ("org.", "Impl", false)
        );
    }

    /// Blocks: 0 makes the builder and appends; 1 appends behind a branch
    /// (0 -> 1 -> 2, 0 -> 2); 2 and 3 are a loop (2 -> 3 -> 2) that 3
    /// appends in; 4 reads (2 -> 4).
    fn branchy() -> Flow {
        let succs = vec![vec![1, 2], vec![2], vec![3, 4], vec![2], vec![]];
        let mut preds = vec![Vec::new(); 5];
        for (b, ss) in succs.iter().enumerate() {
            for &s in ss {
                preds[s].push(b);
            }
        }
        let idom =
            super::super::flow::immediate_dominators(5, &[0, 1, 2, 3, 4], &preds, |b| b == 0);
        Flow::new(vec![0, 10, 20, 30, 40], succs, idom)
    }

    #[test]
    fn appends_that_may_be_skipped_or_repeated_have_no_place() {
        let f = branchy();
        let parts = [
            (5, ConcatPart::Var(1)),
            (15, ConcatPart::Var(2)),
            (35, ConcatPart::Var(3)),
            (36, ConcatPart::Unknown),
        ];
        let unplaced = vec![
            ConcatPart::Var(1),
            ConcatPart::Maybe(2),
            ConcatPart::Maybe(3),
            ConcatPart::Unknown,
        ];
        assert_eq!(settled(Some(&f), 0, 45, &parts, &[5, 15, 35, 36]), unplaced);
        // A read inside the loop may follow the loop's own appends: the
        // same parts, the last unknown being what the loop appends after.
        assert_eq!(
            settled(Some(&f), 0, 37, &parts[..3], &[5, 15, 35]),
            unplaced
        );
        // A builder made in the loop's body starts afresh each time.
        assert_eq!(
            settled(Some(&f), 30, 38, &parts[2..3], &[35]),
            vec![ConcatPart::Var(3)]
        );
    }

    #[test]
    fn a_builder_passed_elsewhere_gets_no_concatenation() {
        let mut ir = MethodIr::default();
        let c = constant(&mut ir, "set");
        let b = builder(&mut ir, None);
        append(&mut ir, b, STR, Some(c));
        ir.stmts.push(test_call(
            InvokeKind::Static,
            None,
            ("a.B", "fill", "(Ljava/lang/StringBuilder;)V"),
            vec![Some(b)],
            None,
        ));
        to_string(&mut ir, b);
        let before = ir.stmts.len();
        builder_concats(&mut ir);
        assert_eq!(ir.stmts.len(), before);
    }

    #[test]
    fn a_conditional_inside_the_chain_keeps_the_builder() {
        // new StringBuilder("r.").append(c ? a : b).append("er").toString():
        // the builder crosses the branch on the stack, as a φ.
        let mut ir = MethodIr::default();
        let org = constant(&mut ir, "r.");
        let b = builder(&mut ir, Some(org));
        let phi = ir.new_var("phi:s1@9", "java.lang.Object");
        let x = ir.new_var("phi:s2@9", "java.lang.Object");
        let r1 = append(&mut ir, phi, STR, Some(x));
        let er = constant(&mut ir, "er");
        let r2 = append(&mut ir, r1, STR, Some(er));
        let s = to_string(&mut ir, r2);
        // The merge's copies come last, as lowering adds them.
        ir.stmts.push(Stmt::Assign { dst: phi, src: b });
        builder_concats(&mut ir);
        let a = &concat_affixes(&ir)[&s];
        assert_eq!((a.prefix.as_str(), a.suffix.as_str()), ("r.", "er"));
        // A local's φ (a loop) ends the builder.
        let mut ir = MethodIr::default();
        let b = builder(&mut ir, Some(org));
        let phi = ir.new_var("phi:l1@9", "java.lang.Object");
        append(&mut ir, phi, STR, Some(org));
        to_string(&mut ir, phi);
        ir.stmts.push(Stmt::Assign { dst: phi, src: b });
        builder_concats(&mut ir);
        assert!(!ir.stmts.iter().any(|s| matches!(s, Stmt::Concat { .. })));
    }

    #[test]
    fn nested_concatenations_and_constants_give_their_text() {
        // inner = "get" + x; outer = inner + "Name"
        let mut ir = MethodIr::default();
        let x = ir.new_var("p0", "java.lang.String");
        ir.params.push(Some(x));
        let inner = ir.new_var("i", "java.lang.String");
        ir.stmts.push(Stmt::Concat {
            bci: 1,
            dst: inner,
            parts: vec![ConcatPart::Const("get".into()), ConcatPart::Var(x)],
        });
        let name = constant(&mut ir, "Name");
        let outer = ir.new_var("o", "java.lang.String");
        ir.stmts.push(Stmt::Concat {
            bci: 2,
            dst: outer,
            parts: vec![ConcatPart::Var(inner), ConcatPart::Var(name)],
        });
        let whole = ir.new_var("w", "java.lang.String");
        ir.stmts.push(Stmt::Concat {
            bci: 3,
            dst: whole,
            parts: vec![ConcatPart::Const("a.".into()), ConcatPart::Var(name)],
        });
        let a = concat_affixes(&ir);
        assert_eq!(
            a[&outer],
            Affixes {
                prefix: "get".into(),
                suffix: "Name".into(),
                exact: false
            }
        );
        assert_eq!(
            a[&whole],
            Affixes {
                prefix: "a.Name".into(),
                suffix: String::new(),
                exact: true
            }
        );
    }

    /// The [`Completion`] of a concatenation of `parts`, if it has that
    /// shape.
    fn completed(ir: &mut MethodIr, parts: Vec<ConcatPart>) -> Option<Completion> {
        let dst = ir.new_var("n", "java.lang.String");
        ir.stmts.push(Stmt::Concat { bci: 9, dst, parts });
        concat_completions(ir).remove(&dst)
    }

    #[test]
    fn a_loop_of_a_strings_characters_spells_its_letters() {
        // "set", "Xml" behind a branch, then name's characters in a loop.
        let mut ir = MethodIr::default();
        let name = ir.new_var("name", "java.lang.String");
        let set = constant(&mut ir, "set");
        let xml = constant(&mut ir, "Xml");
        let loop_letter = ConcatPart::Letter {
            letter: StringChar {
                source: name,
                at: None,
            },
            repeats: true,
        };
        let parts = vec![
            ConcatPart::Var(set),
            ConcatPart::Maybe(xml),
            loop_letter.clone(),
        ];
        assert_eq!(
            completed(&mut ir, parts),
            Some(Completion {
                source: name,
                heads: vec!["set".into(), "setXml".into()],
                tail: String::new(),
                whole: false,
                skip: 0,
                recased: false,
                class_name: false,
            })
        );
        // One character, not in a loop, spells one letter only.
        let one = ConcatPart::Letter {
            letter: StringChar {
                source: name,
                at: None,
            },
            repeats: false,
        };
        assert_eq!(
            completed(&mut ir, vec![ConcatPart::Var(set), one.clone()]),
            None
        );
        // A character beside a piece of the same string: capitalize(s),
        // `toUpperCase(s.charAt(0)) + s.substring(1)`.
        let tail = substring(&mut ir, name, 1);
        let impl_ = constant(&mut ir, "Impl");
        assert_eq!(
            completed(
                &mut ir,
                vec![one.clone(), ConcatPart::Var(tail), ConcatPart::Var(impl_)]
            ),
            Some(Completion {
                source: name,
                heads: vec![String::new()],
                tail: "Impl".into(),
                whole: false,
                skip: 0,
                recased: false,
                class_name: false,
            })
        );
        // Text the analysis does not know, or the letters of another
        // string, end the shape.
        let other = ir.new_var("other", "java.lang.String");
        let other_letter = ConcatPart::Letter {
            letter: StringChar {
                source: other,
                at: None,
            },
            repeats: true,
        };
        assert_eq!(
            completed(&mut ir, vec![loop_letter.clone(), ConcatPart::Unknown]),
            None
        );
        assert_eq!(completed(&mut ir, vec![loop_letter, other_letter]), None);
    }

    #[test]
    fn a_string_between_known_text_completes_the_name_whole() {
        // "r." + kind + "er", the recipe's text as invokedynamic gives it.
        let mut ir = MethodIr::default();
        let kind = ir.new_var("kind", "java.lang.String");
        let parts = vec![
            ConcatPart::Const("r.".into()),
            ConcatPart::Var(kind),
            ConcatPart::Const("er".into()),
        ];
        assert_eq!(
            completed(&mut ir, parts),
            Some(Completion {
                source: kind,
                heads: vec!["r.".into()],
                tail: "er".into(),
                whole: true,
                skip: 0,
                recased: false,
                class_name: false,
            })
        );
        // Alone, the string is only itself; two strings, or a string and
        // a character of another, are not one source.
        assert_eq!(completed(&mut ir, vec![ConcatPart::Var(kind)]), None);
        let other = ir.new_var("other", "java.lang.String");
        let get = ConcatPart::Const("get".into());
        let two = vec![get.clone(), ConcatPart::Var(kind), ConcatPart::Var(other)];
        assert_eq!(completed(&mut ir, two), None);
        let letter = ConcatPart::Letter {
            letter: StringChar {
                source: other,
                at: None,
            },
            repeats: true,
        };
        let mixed = vec![get.clone(), ConcatPart::Var(kind), letter];
        assert_eq!(completed(&mut ir, mixed), None);
        // The method's own concatenation is not a source: its object is
        // the concatenation's.
        let inner = ir.new_var("inner", "java.lang.String");
        ir.stmts.push(Stmt::Concat {
            bci: 1,
            dst: inner,
            parts: vec![ConcatPart::Var(kind), ConcatPart::Unknown],
        });
        assert_eq!(completed(&mut ir, vec![get, ConcatPart::Var(inner)]), None);
    }

    /// `piece = source.substring(from)`, as lowering records it.
    fn substring(ir: &mut MethodIr, source: Var, from: u32) -> Var {
        let piece = ir.new_var("t", "java.lang.String");
        ir.stmts.push(test_call(
            InvokeKind::Virtual,
            Some(source),
            ("java.lang.String", "substring", "(I)Ljava/lang/String;"),
            vec![None],
            Some(piece),
        ));
        ir.string_pieces.push(StringPiece {
            piece,
            source,
            from: Some(from),
        });
        piece
    }

    #[test]
    fn a_strings_text_past_its_first_letters_completes_the_name_whole() {
        // "set" + getter.getName().substring(3): the getter's setter.
        let mut ir = MethodIr::default();
        let name = ir.new_var("name", "java.lang.String");
        let rest = substring(&mut ir, name, 3);
        let set = ConcatPart::Const("set".into());
        assert_eq!(
            completed(&mut ir, vec![set.clone(), ConcatPart::Var(rest)]),
            Some(Completion {
                source: name,
                heads: vec!["set".into()],
                tail: String::new(),
                whole: true,
                skip: 3,
                recased: false,
                class_name: false,
            })
        );
        // substring(0) is the whole text, which alone is no name; a piece
        // of no known start (`substring(i)`, a case changed) spells
        // nothing alone.
        let all = substring(&mut ir, name, 0);
        assert_eq!(
            completed(&mut ir, vec![set.clone(), ConcatPart::Var(all)]),
            None
        );
        let upper = ir.new_var("u", "java.lang.String");
        ir.stmts.push(test_call(
            InvokeKind::Virtual,
            Some(name),
            ("java.lang.String", "toUpperCase", "()Ljava/lang/String;"),
            vec![],
            Some(upper),
        ));
        ir.string_pieces.push(StringPiece {
            piece: upper,
            source: name,
            from: None,
        });
        assert_eq!(
            completed(&mut ir, vec![set.clone(), ConcatPart::Var(upper)]),
            None
        );
        // A second part of the same string after the piece ends the shape.
        let two = vec![set, ConcatPart::Var(rest), ConcatPart::Var(rest)];
        assert_eq!(completed(&mut ir, two), None);
    }

    #[test]
    fn a_recased_letter_and_the_text_past_it_stand_whole_past_the_letters() {
        // Character.toLowerCase(name.charAt(3)) + name.substring(4): the
        // getter's property, with no known text around it.
        let mut ir = MethodIr::default();
        let name = ir.new_var("name", "java.lang.String");
        let rest = substring(&mut ir, name, 4);
        let letter = |at| ConcatPart::Letter {
            letter: StringChar {
                source: name,
                at: Some(at),
            },
            repeats: false,
        };
        let property = Completion {
            source: name,
            heads: vec![String::new()],
            tail: String::new(),
            whole: true,
            skip: 3,
            recased: true,
            class_name: false,
        };
        assert_eq!(
            completed(&mut ir, vec![letter(3), ConcatPart::Var(rest)]),
            Some(property.clone())
        );
        // With known text around it.
        let field = ConcatPart::Const("m_".into());
        assert_eq!(
            completed(&mut ir, vec![field, letter(3), ConcatPart::Var(rest)]),
            Some(Completion {
                heads: vec!["m_".into()],
                ..property
            })
        );
        // A letter that is not the one before the piece, or that a loop
        // appends, leaves the letters spelled, which alone name nothing.
        assert_eq!(
            completed(&mut ir, vec![letter(2), ConcatPart::Var(rest)]),
            None
        );
        let looped = ConcatPart::Letter {
            letter: StringChar {
                source: name,
                at: Some(3),
            },
            repeats: true,
        };
        assert_eq!(
            completed(&mut ir, vec![looped, ConcatPart::Var(rest)]),
            None
        );
    }

    #[test]
    fn folding_sets_case_and_separators_aside() {
        assert_eq!(fold_letters("use-attribute-sets"), "useattributesets");
        assert_eq!(fold_letters("UseAttributeSets"), "useattributesets");
        assert_eq!(fold_letters("max_size"), fold_letters("MaxSize"));
        assert_eq!(fold_letters("-"), "");
    }
}
