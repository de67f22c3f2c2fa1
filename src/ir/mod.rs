//! The intermediate representation: each method's stack code translated
//! into statements over variables.
//!
//! Every stack value that can hold a reference gets its own variable, and
//! every definition of a local slot gets its own variable too, so javac's
//! reuse of a slot never merges unrelated objects. Where control flow
//! merges, a φ variable per slot receives an assignment from each reaching
//! definition ("a use sees all reaching definitions"). Only
//! reference-typed values get variables; primitives are tracked by kind.
//!
//! - [`lower`]: the stack-to-variable translation;
//! - [`invokedynamic`]: string concatenation and lambdas;
//! - [`copies`]: removing the variables that only copy another;
//! - [`null_guards`]: the calls that run only where a variable holds an
//!   object;
//! - [`member_tests`]: the members that a test of their name, annotations
//!   or modifiers lets through;
//! - [`returned_parameters`]: methods that return a parameter, answered per call site;
//! - [`parameter_fields`]: stores into and returns of parameters' fields,
//!   answered per call site;
//! - [`parameter_types`]: the `Class[]` arrays that spell a parameter list;
//! - [`string_builders`]: javac's `StringBuilder` chains as concatenations.
//!
//! The JDK's natives and collections are modelled on this IR in
//! [`crate::models`].

pub mod copies;
pub mod flow;
pub mod invokedynamic;
pub mod lower;
pub mod member_tests;
pub mod null_guards;
pub mod parameter_fields;
pub mod parameter_types;
pub mod returned_parameters;
pub mod string_builders;

use crate::classfile::model::MemberRef;
use fxhash::FxHashMap;

/// A variable, numbered within its method.
pub type Var = u32;

/// A variable's readable name (within the method) and declared type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarInfo {
    /// `this`, `p1`, `l3@12` (local 3 defined at bci 12), `s@7` (stack
    /// value produced at bci 7), `phi:l2@30`, `catch@12`, `ret`, `thrown`.
    pub name: String,
    /// The declared type, as a Java type name.
    pub ty: String,
}

/// How a call is dispatched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InvokeKind {
    /// `invokestatic`.
    Static,
    /// `invokespecial`: constructors, `super.m()`, private methods.
    Special,
    /// `invokevirtual`.
    Virtual,
    /// `invokeinterface`.
    Interface,
}

impl InvokeKind {
    /// The bytecode mnemonic.
    pub fn mnemonic(self) -> &'static str {
        match self {
            InvokeKind::Static => "invokestatic",
            InvokeKind::Special => "invokespecial",
            InvokeKind::Virtual => "invokevirtual",
            InvokeKind::Interface => "invokeinterface",
        }
    }
}

/// A call site.
#[derive(Clone, Debug, PartialEq)]
pub struct Invoke {
    /// Bytecode index (synthetic statements use the bci they model).
    pub bci: u32,
    /// Dispatch kind.
    pub kind: InvokeKind,
    /// The referenced method.
    pub target: MemberRef,
    /// The receiver, for non-static calls.
    pub receiver: Option<Var>,
    /// One entry per declared parameter: the variable for a reference
    /// argument, `None` for primitives and `null`.
    pub args: Vec<Option<Var>>,
    /// The variable receiving a reference result.
    pub result: Option<Var>,
    /// The caught-exception variables (`catch@`) of the handlers whose
    /// `try` covers the site: the callee's exceptions reach each of them
    /// through its type, as they reach the method's `thrown` variable
    /// (the facts give the site all of them, `Ithr`). A site outside any
    /// `try` has none. There is no variable of the site's own between
    /// them: one held every exception of the callee (2.6 million of the
    /// quick start's `vP` tuples, forty-sixth session).
    pub handlers: Vec<Var>,
}

impl Invoke {
    /// An `invokeinterface` of `target` (class, name, descriptor) that a
    /// model adds beside this call: at the same bytecode index, with the
    /// same exception handler.
    pub fn interface_call_beside(
        &self,
        target: (&str, &str, &str),
        receiver: Var,
        args: Vec<Option<Var>>,
        result: Option<Var>,
    ) -> Invoke {
        let (class, name, desc) = target;
        Invoke {
            bci: self.bci,
            kind: InvokeKind::Interface,
            target: MemberRef {
                class: class.into(),
                name: name.into(),
                desc: desc.into(),
                interface: true,
            },
            receiver: Some(receiver),
            args,
            result,
            handlers: self.handlers.clone(),
        }
    }
}

/// A piece of a string concatenation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConcatPart {
    /// A reference argument.
    Var(Var),
    /// Constant text from the recipe.
    Const(String),
    /// A primitive or `null` argument: text the analysis does not know.
    Unknown,
    /// A reference argument appended where it may be skipped or repeated
    /// (behind a branch, in a loop): its text is in the result, but not
    /// at a place the analysis knows.
    Maybe(Var),
    /// A character of the text that the variable holds (`s.charAt(i)`,
    /// through `Character.toUpperCase` and the like). `repeats`: the
    /// append runs in a loop, which takes the text a letter at a time
    /// (xalan's setter names, `getSetterMethodName`).
    Letter {
        /// The string the character comes from, and the character's index
        /// where it is a constant (`Character.toLowerCase(name.charAt(3))`).
        letter: StringChar,
        /// Whether the append may run more than once.
        repeats: bool,
    },
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `dst = new ty` (also arrays; `bci` identifies the site, `level`
    /// the nesting for `multianewarray`).
    New {
        /// Site.
        bci: u32,
        /// Nesting level (0 for the outer array or a plain object).
        level: u8,
        /// Result.
        dst: Var,
        /// Allocated type.
        ty: String,
        /// The length of a one-dimensional array whose length is an
        /// integer constant pushed just before the allocation
        /// (`iconst_2; anewarray`, as javac compiles `new T[] {a, b}` and
        /// an empty varargs list).
        length: Option<u32>,
    },
    /// `dst = "text"`.
    StringConst {
        /// Result.
        dst: Var,
        /// The string.
        text: String,
    },
    /// `dst = ty.class`.
    ClassConst {
        /// Result.
        dst: Var,
        /// The class.
        ty: String,
    },
    /// `dst = src`.
    Assign {
        /// Target.
        dst: Var,
        /// Source.
        src: Var,
    },
    /// `dst = (ty) src`.
    Cast {
        /// Site.
        bci: u32,
        /// Result.
        dst: Var,
        /// Target type.
        ty: String,
        /// Source.
        src: Var,
    },
    /// `dst = base.field`.
    Load {
        /// Result.
        dst: Var,
        /// Object.
        base: Var,
        /// Field.
        field: MemberRef,
    },
    /// `base.field = src`.
    Store {
        /// Object.
        base: Var,
        /// Field.
        field: MemberRef,
        /// Value.
        src: Var,
    },
    /// `dst = C.field`.
    StaticLoad {
        /// Result.
        dst: Var,
        /// Field.
        field: MemberRef,
    },
    /// `C.field = src`.
    StaticStore {
        /// Field.
        field: MemberRef,
        /// Value.
        src: Var,
    },
    /// `dst = base[index]` (`base[*]` to the analysis: `index` is the
    /// constant index, when the code gives one; member tests read it, as
    /// in `m.getParameterTypes()[0] == String.class`).
    ArrayLoad {
        /// Result.
        dst: Var,
        /// Array.
        base: Var,
        /// The index, when an integer constant.
        index: Option<i32>,
    },
    /// `base[index] = src` (`base[*]` to the analysis: `index` is the
    /// constant index, when the code gives one).
    ArrayStore {
        /// Array.
        base: Var,
        /// The index, when an integer constant.
        index: Option<i32>,
        /// Value.
        src: Var,
    },
    /// A call.
    Invoke(Invoke),
    /// `dst = a + b + …` by `StringConcatFactory`, or by a `StringBuilder`
    /// chain ([`string_builders`]), which keeps its calls beside it.
    Concat {
        /// Site.
        bci: u32,
        /// Result.
        dst: Var,
        /// The pieces, in order.
        parts: Vec<ConcatPart>,
    },
    /// `dst = <lambda or method reference>` by `LambdaMetafactory`.
    Lambda {
        /// Site.
        bci: u32,
        /// Result.
        dst: Var,
        /// The functional interface.
        iface: String,
        /// The other interfaces the lambda implements (`altMetafactory`'s
        /// markers, `java.io.Serializable`).
        markers: Vec<String>,
        /// Its method's name.
        sam_name: String,
        /// Its method's erased descriptor.
        sam_desc: String,
        /// The method handle kind of the implementation (5..=9).
        impl_kind: u8,
        /// The implementation method.
        implementation: MemberRef,
        /// Captured arguments (`None` for primitives and null).
        captured: Vec<Option<Var>>,
    },
    /// `dst = src` where a test of the member `src` passed: a π node of
    /// [`member_tests`], through which the analysis passes only the
    /// members that pass the test.
    MemberFilter {
        /// The bytecode index of the test's branch.
        bci: u32,
        /// The member, inside the branch.
        dst: Var,
        /// The member tested.
        src: Var,
        /// The test.
        test: member_tests::MemberTest,
    },
    /// An `invokedynamic` with another bootstrap method: the result is
    /// unknown.
    UnknownDynamic {
        /// Site.
        bci: u32,
        /// Result, if a reference.
        dst: Option<Var>,
        /// The bootstrap method, `Owner.name`.
        bootstrap: String,
    },
}

impl Stmt {
    /// Calls `f` on every variable the statement mentions.
    pub fn for_each_var_mut(&mut self, mut f: impl FnMut(&mut Var)) {
        match self {
            Stmt::New { dst, .. }
            | Stmt::StringConst { dst, .. }
            | Stmt::ClassConst { dst, .. }
            | Stmt::StaticLoad { dst, .. } => f(dst),
            Stmt::Assign { dst, src }
            | Stmt::Cast { dst, src, .. }
            | Stmt::MemberFilter { dst, src, .. } => {
                f(dst);
                f(src);
            }
            Stmt::Load { dst, base, .. } | Stmt::ArrayLoad { dst, base, .. } => {
                f(dst);
                f(base);
            }
            Stmt::Store { base, src, .. } | Stmt::ArrayStore { base, src, .. } => {
                f(base);
                f(src);
            }
            Stmt::StaticStore { src, .. } => f(src),
            Stmt::Invoke(inv) => {
                inv.receiver.iter_mut().for_each(&mut f);
                inv.args.iter_mut().flatten().for_each(&mut f);
                inv.result.iter_mut().for_each(&mut f);
                inv.handlers.iter_mut().for_each(&mut f);
            }
            Stmt::Concat { dst, parts, .. } => {
                f(dst);
                for p in parts {
                    match p {
                        ConcatPart::Var(v) | ConcatPart::Maybe(v) => f(v),
                        ConcatPart::Letter { letter, .. } => f(&mut letter.source),
                        _ => {}
                    }
                }
            }
            Stmt::Lambda { dst, captured, .. } => {
                f(dst);
                captured.iter_mut().flatten().for_each(&mut f);
            }
            Stmt::UnknownDynamic { dst, .. } => dst.iter_mut().for_each(&mut f),
        }
    }

    /// The variables the statement reads (all it mentions but those it
    /// defines).
    pub fn uses(&self) -> Vec<Var> {
        let mut all = Vec::new();
        let mut copy = self.clone();
        copy.for_each_var_mut(|v| all.push(*v));
        let mut defs = Vec::new();
        self.for_each_def(|v| defs.push(v));
        all.retain(|v| !defs.contains(v));
        all
    }

    /// Calls `f` on every variable the statement defines.
    pub fn for_each_def(&self, mut f: impl FnMut(Var)) {
        match self {
            Stmt::New { dst, .. }
            | Stmt::StringConst { dst, .. }
            | Stmt::ClassConst { dst, .. }
            | Stmt::StaticLoad { dst, .. }
            | Stmt::Assign { dst, .. }
            | Stmt::Cast { dst, .. }
            | Stmt::MemberFilter { dst, .. }
            | Stmt::Load { dst, .. }
            | Stmt::ArrayLoad { dst, .. }
            | Stmt::Concat { dst, .. }
            | Stmt::Lambda { dst, .. } => f(*dst),
            Stmt::Invoke(inv) => {
                inv.result.iter().copied().for_each(&mut f);
                inv.handlers.iter().copied().for_each(&mut f);
            }
            Stmt::UnknownDynamic { dst, .. } => dst.iter().copied().for_each(&mut f),
            Stmt::Store { .. } | Stmt::ArrayStore { .. } | Stmt::StaticStore { .. } => {}
        }
    }
}

/// A method body in IR.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MethodIr {
    /// All variables; `Var` indexes this.
    pub vars: Vec<VarInfo>,
    /// Formal parameters by position (`this` first for instance methods):
    /// `Some` for reference parameters.
    pub params: Vec<Option<Var>>,
    /// The returned value, for reference-returning methods.
    pub ret: Option<Var>,
    /// Exceptions leaving the method.
    pub thrown: Var,
    /// The statements (flow-insensitive: their order carries no meaning).
    pub stmts: Vec<Stmt>,
    /// The parameters (by position, `this` first) the method returns, with
    /// their copies into the return value taken out (see
    /// [`returned_parameters`]).
    pub returned_params: Vec<u32>,
    /// The variables receiving a call's result that is only copied on to
    /// the return value (see [`returned_parameters`]).
    pub returned_results: Vec<Var>,
    /// The stores of a parameter into a parameter's field, taken out of
    /// the body (see [`parameter_fields`]).
    pub param_stores: Vec<parameter_fields::ParamStore>,
    /// The loads from parameters' fields that are all the method returns
    /// (see [`parameter_fields`]); the body keeps them.
    pub param_loads: Vec<parameter_fields::ParamLoad>,
    /// The static fields the method reads or writes (`getstatic`,
    /// `putstatic`), of any type: the first such access initialises the
    /// class that declares the field (JLS 12.4.1).
    pub static_fields: Vec<MemberRef>,
    /// The calls (by bytecode index) that run only where a variable holds
    /// an object: each is dominated by the non-null branch of a null test
    /// of the variable (see [`null_guards`]).
    pub call_guards: Vec<(u32, Var)>,
    /// The method's blocks, for the methods that make a string builder
    /// (see [`flow`] and [`string_builders`]).
    pub flow: Option<flow::Flow>,
    /// The arrays into which an `aastore` stores the constant `null`
    /// (`aconst_null`), which no statement carries: as a reflective
    /// call's argument array, such an array passes `null`, which any
    /// reference parameter takes.
    pub null_elements: Vec<Var>,
    /// The `char` arguments of calls that are characters of a string
    /// (`s.charAt(i)`, through `Character.toUpperCase` and the like), by
    /// the call's bytecode index and the argument's position, with the
    /// string's variable: the letters a builder appends
    /// ([`string_builders`]). The string is named by its first variable
    /// where several loads read one field of one object.
    pub letter_args: Vec<(u32, u16, StringChar)>,
    /// The results of `substring`, `toUpperCase`, `toLowerCase` and `trim`
    /// calls on a string: pieces of its text, with their case changed.
    pub string_pieces: Vec<StringPiece>,
}

/// A character of a string ([`MethodIr::letter_args`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StringChar {
    /// The string's variable.
    pub source: Var,
    /// The character's index, where it is a constant (`s.charAt(3)`).
    pub at: Option<u32>,
}

/// A piece of a string's text ([`MethodIr::string_pieces`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StringPiece {
    /// The variable that holds the piece.
    pub piece: Var,
    /// The string's variable (named as in [`MethodIr::letter_args`]).
    pub source: Var,
    /// Where the piece is the string's text from this index to its end,
    /// in the same case (`substring(k)` with a constant `k`): `"set" +
    /// getter.getName().substring(3)` names a getter's setter.
    pub from: Option<u32>,
}

impl MethodIr {
    /// Adds a variable.
    pub fn new_var(&mut self, name: impl Into<String>, ty: impl Into<String>) -> Var {
        self.vars.push(VarInfo {
            name: name.into(),
            ty: ty.into(),
        });
        (self.vars.len() - 1) as Var
    }

    /// The reference parameters by variable, with their positions (`this`
    /// is 0 for instance methods).
    pub fn param_positions(&self) -> FxHashMap<Var, u32> {
        self.params
            .iter()
            .enumerate()
            .filter_map(|(k, p)| p.map(|p| (p, k as u32)))
            .collect()
    }

    /// The variables that only ever hold one array of a known constant
    /// length: defined by a single allocation with a `length` and by
    /// nothing else (not a parameter, no copy into them).
    pub fn array_lengths(&self) -> FxHashMap<Var, u32> {
        let sized = |s: &Stmt| {
            matches!(
                s,
                Stmt::New {
                    length: Some(_),
                    ..
                }
            )
        };
        if !self.stmts.iter().any(sized) {
            return FxHashMap::default();
        }
        let mut defs: FxHashMap<Var, u32> = FxHashMap::default();
        for s in &self.stmts {
            s.for_each_def(|v| *defs.entry(v).or_default() += 1);
        }
        for p in self.params.iter().flatten() {
            *defs.entry(*p).or_default() += 1;
        }
        self.stmts
            .iter()
            .filter_map(|s| match s {
                Stmt::New {
                    dst,
                    length: Some(n),
                    ..
                } if defs.get(dst) == Some(&1) => Some((*dst, *n)),
                _ => None,
            })
            .collect()
    }

    /// An empty body with parameters, return and thrown variables for a
    /// method of the given (static-ness, parameter types, return type).
    pub fn skeleton(is_static: bool, class: &str, params: &[String], ret: &str) -> MethodIr {
        let mut ir = MethodIr::default();
        if !is_static {
            let v = ir.new_var("this", class);
            ir.params.push(Some(v));
        }
        for (k, p) in params.iter().enumerate() {
            let v = crate::classfile::descriptor::is_reference(p)
                .then(|| ir.new_var(format!("p{k}"), p.clone()));
            ir.params.push(v);
        }
        if crate::classfile::descriptor::is_reference(ret) {
            ir.ret = Some(ir.new_var("ret", ret));
        }
        ir.thrown = ir.new_var("thrown", "java.lang.Throwable");
        ir
    }
}

/// A call statement for unit tests: `result = receiver.name(args)` at
/// bytecode index 7, through a method of `class`.
#[cfg(test)]
pub(crate) fn test_call(
    kind: InvokeKind,
    receiver: Option<Var>,
    target: (&str, &str, &str),
    args: Vec<Option<Var>>,
    result: Option<Var>,
) -> Stmt {
    let (class, name, desc) = target;
    Stmt::Invoke(Invoke {
        bci: 7,
        kind,
        target: MemberRef {
            class: class.into(),
            name: name.into(),
            desc: desc.into(),
            interface: kind == InvokeKind::Interface,
        },
        receiver,
        args,
        result,
        handlers: Vec::new(),
    })
}
