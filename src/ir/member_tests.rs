//! Member tests: the code that runs only where a member's name, an
//! annotation, a modifier or its number of parameters passes a test.
//!
//! Programs that walk `getMethods()` pick the members they use by such
//! tests: JUnit 3 calls the methods whose name starts with `"test"`,
//! JUnit 4 those annotated `@Test`, ant's `IntrospectionHelper` makes
//! attribute setters of those that start with `"set"`, and many loops
//! skip what `Modifier.isStatic` or `isPublic` rules out. A branch on
//! such a test tells the code it guards which members `m` may be (issue
//! 34's filters; SOLAR, seed 004, resolves a placeholder by what its
//! uses know).
//!
//! A test is recognised where a block ends with `ifeq`/`ifne` on the
//! result of a call that is one of:
//! - `String.startsWith`, `endsWith` or `equals`, one of whose strings is
//!   a constant and the other the result of `getName()` on a `Method` or
//!   a `Field`;
//! - `isAnnotationPresent(C.class)` on a `Method` or a `Field`;
//! - `Modifier.isPublic` (`isStatic`, `isFinal`, ...) of the result of
//!   `getModifiers()` on a `Method` or a `Field`, called just before.
//!
//! - `equals` between a class constant (`String.class`, `Void.TYPE`) and
//!   what `getReturnType()` of a `Method`, `getType()` of a `Field`, or
//!   an element of `getParameterTypes()` at a constant index returned
//!   ([`type_test`]).
//!
//! - `isAssignableFrom` on a class constant, of one of those member
//!   types (`EventListener.class.isAssignableFrom(ps[0])`): the type is
//!   the constant's or a subtype's ([`TypeMatch::Below`]).
//!
//! A block that ends with `if_acmpeq`/`if_acmpne` comparing those two
//! tests the same (`m.getReturnType() == void.class`). A block that ends
//! with `if_icmpeq`/`if_icmpne` comparing a constant
//! with `getParameterCount()`, or with the length of what
//! `getParameterTypes()` returned, of a `Method` or a `Constructor`
//! (`ifeq`/`ifne` where the constant is 0) tests its number of
//! parameters ([`arity_test`]).
//!
//! The block that the test's true branch enters, when the test is its
//! only predecessor, starts with a fresh variable for every slot that
//! holds the member (a π node, as in e-SSA): [`Stmt::MemberFilter`]
//! copies the member's objects into it, and the analysis narrows a
//! placeholder there to the members that pass (`memberFilter` in
//! `queries/pointsto.dl` and `queries/reflection-infer.dl`). The blocks
//! that the true branch dominates see the fresh variable, since the
//! translation carries the state of a block into its single successor;
//! where the branches merge again, a φ joins the fresh variable and the
//! old one. A value that a slot holds and that the code computed from
//! the member before the test by a question whose answer depends only on
//! the member ([`PURE_QUERIES`]: `getParameterTypes()`, `getReturnType()`,
//! ...) is asked again of the fresh variable at the branch, so that the
//! parameter types that ant reads at the top of its loop are narrowed
//! with the method. A block that only passed tests of the same member
//! enter (`"add".equals(name) || "addConfigured".equals(name)`) lets
//! through what passes any of them ([`MemberTest::or`]).

use super::parameter_types::class_constant;
use super::{Invoke, Stmt, Var};
use fxhash::FxHashMap;

/// What the translation knows of a method's variables at a branch: the
/// statements so far, and the φ variables that copy a single variable
/// (a merge whose every incoming path brings that variable: javac's
/// `if` statements between a definition and a test leave such φs).
pub struct Known<'a> {
    /// The statements translated so far.
    pub stmts: &'a [Stmt],
    /// φ → the one variable it copies.
    pub aliases: &'a FxHashMap<Var, Var>,
}

/// The variable `v` copies, through the φs that copy one variable
/// (`aliases`, as [`Known`] holds them).
pub fn resolve(aliases: &FxHashMap<Var, Var>, mut v: Var) -> Var {
    for _ in 0..64 {
        match aliases.get(&v) {
            Some(&u) if u != v => v = u,
            _ => break,
        }
    }
    v
}

impl Known<'_> {
    /// The variable `v` copies, through the φs that copy one variable.
    pub fn resolve(&self, v: Var) -> Var {
        resolve(self.aliases, v)
    }

    /// The single definition of `v`, through copies and such φs.
    fn definition(&self, v: Var) -> Option<&Stmt> {
        let mut v = self.resolve(v);
        for _ in 0..8 {
            let mut defs = self.stmts.iter().filter(|s| {
                let mut hit = false;
                s.for_each_def(|d| hit |= d == v);
                hit
            });
            let def = defs.next()?;
            if defs.next().is_some() {
                return None;
            }
            match def {
                Stmt::Assign { src, .. } => v = self.resolve(*src),
                _ => return Some(def),
            }
        }
        None
    }
}

/// How a name must relate to a test's constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameMatch {
    /// `name.startsWith(text)`.
    Prefix,
    /// `name.endsWith(text)`.
    Suffix,
    /// `name.equals(text)` or `text.equals(name)`.
    Exact,
}

/// What a member must have to pass a test.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Passes {
    /// A name that relates so to the text.
    Name {
        /// How the name relates to `text`.
        how: NameMatch,
        /// The constant.
        text: String,
    },
    /// A runtime-visible annotation of this type (binary name).
    Annotated(String),
    /// This modifier (one of the names of `methodModifier`).
    Modifier(&'static str),
    /// This many parameters (a method or a constructor).
    Arity(u32),
    /// A return type (a method) or type (a field) that relates so to this
    /// type, by binary name (`void`, `int`, `java.lang.String`).
    Type(TypeMatch, String),
    /// A type of the parameter at this index (a method or a constructor;
    /// 0 the first) that relates so to this type, by binary name.
    Parameter(u32, TypeMatch, String),
}

/// How a member's type relates to a class constant that tests it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TypeMatch {
    /// The same type (`equals`, `==`).
    Exact,
    /// The type or a subtype (`C.class.isAssignableFrom(type)`).
    Below,
}

/// A test of a member.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MemberTest {
    /// The member's class: `java.lang.reflect.Method`,
    /// `java.lang.reflect.Constructor` or `java.lang.reflect.Field`.
    pub member_class: &'static str,
    /// What passes: a member that passes any of these (more than one
    /// where tests joined by `||` all lead to the block).
    pub any_of: Vec<Passes>,
}

impl MemberTest {
    /// The test that one condition makes.
    pub fn new(member_class: &'static str, passes: Passes) -> Self {
        MemberTest {
            member_class,
            any_of: vec![passes],
        }
    }

    /// The test that either `self` or `other` passes, if both test
    /// members of one class.
    pub fn or(mut self, other: &MemberTest) -> Option<MemberTest> {
        if self.member_class != other.member_class {
            return None;
        }
        for p in &other.any_of {
            if !self.any_of.contains(p) {
                self.any_of.push(p.clone());
            }
        }
        Some(self)
    }
}

/// The classes whose members a test can narrow. (`Member` and
/// `Executable` are left out: their object may be of more than one of
/// these.)
const MEMBER_CLASSES: [&str; 3] = [
    "java.lang.reflect.Method",
    "java.lang.reflect.Field",
    "java.lang.reflect.Constructor",
];

/// The classes whose members have a name of their own (a constructor's
/// `getName()` is its class's).
const NAMED_CLASSES: [&str; 2] = ["java.lang.reflect.Method", "java.lang.reflect.Field"];

/// `java.lang.reflect.Modifier`'s tests, and the modifier each asks for.
const MODIFIER_TESTS: [(&str, &str); 5] = [
    ("isPublic", "public"),
    ("isPrivate", "private"),
    ("isProtected", "protected"),
    ("isStatic", "static"),
    ("isFinal", "final"),
];

/// The member variable and the test, when `call` (the call whose `int`
/// result a branch tests) tests a member. `before` is the call just
/// before it, if the bytecode has one there (`getModifiers()` before
/// `Modifier.isStatic`). `known` holds the method's statements so far:
/// the definitions of the calls' operands, which dominate them, are
/// among them. The member is given resolved ([`Known::resolve`]).
pub fn member_test(
    known: &Known,
    call: &Invoke,
    before: Option<&Invoke>,
) -> Option<(Var, MemberTest)> {
    let t = &call.target;
    let (class, name, desc) = (t.class.as_str(), t.name.as_str(), t.desc.as_str());
    match (class, name, desc) {
        ("java.lang.String", _, _) => name_test(known, call),
        ("java.lang.Class" | "java.lang.Object", "equals", "(Ljava/lang/Object;)Z") => {
            type_test(known, call.receiver?, (*call.args.first()?)?)
        }
        ("java.lang.Class", "isAssignableFrom", "(Ljava/lang/Class;)Z") => {
            assignable_test(known, call.receiver?, (*call.args.first()?)?)
        }
        (_, "isAnnotationPresent", "(Ljava/lang/Class;)Z") => {
            let member_class = member_class(class)?;
            let annotation = match known.definition((*call.args.first()?)?)? {
                Stmt::ClassConst { ty, .. } => ty.clone(),
                _ => return None,
            };
            let test = MemberTest::new(member_class, Passes::Annotated(annotation));
            Some((known.resolve(call.receiver?), test))
        }
        ("java.lang.reflect.Modifier", _, "(I)Z") => {
            let modifier = MODIFIER_TESTS.iter().find(|m| m.0 == name)?.1;
            let get = before?;
            if get.target.name != "getModifiers" || get.target.desc != "()I" {
                return None;
            }
            let test =
                MemberTest::new(member_class(&get.target.class)?, Passes::Modifier(modifier));
            Some((known.resolve(get.receiver?), test))
        }
        _ => None,
    }
}

/// What a branch compares with a constant, as far as [`arity_test`]
/// cares.
#[derive(Clone, Copy, Debug)]
pub enum Count<'a> {
    /// The `int` that this call returned.
    Call(&'a Invoke),
    /// The length of the array that this variable holds.
    Length(Var),
}

/// The member variable and the test, when a branch that passes where
/// `count` equals `n` tests the number of parameters of a method or a
/// constructor: `count` is `m.getParameterCount()` or the length of
/// `m.getParameterTypes()`. The member is given resolved.
pub fn arity_test(known: &Known, count: Count, n: i32) -> Option<(Var, MemberTest)> {
    let n = u32::try_from(n).ok()?;
    let (call, name, desc) = match count {
        Count::Call(call) => (call, "getParameterCount", "()I"),
        Count::Length(v) => match known.definition(v)? {
            Stmt::Invoke(call) => (call, "getParameterTypes", "()[Ljava/lang/Class;"),
            _ => return None,
        },
    };
    if call.target.name != name || call.target.desc != desc {
        return None;
    }
    let class = member_class(&call.target.class).filter(|c| !c.ends_with("Field"))?;
    let test = MemberTest::new(class, Passes::Arity(n));
    Some((known.resolve(call.receiver?), test))
}

/// The metaobject questions whose answers depend only on the member
/// asked: a value computed by one of them before a test
/// (`Class<?>[] args = m.getParameterTypes()` at the top of ant's loop)
/// is asked again of the narrowed member inside the branch, which is
/// exact, since asking again gives the same answer.
const PURE_QUERIES: [(&str, &str); 4] = [
    ("getParameterTypes", "()[Ljava/lang/Class;"),
    ("getReturnType", "()Ljava/lang/Class;"),
    ("getType", "()Ljava/lang/Class;"),
    ("getDeclaringClass", "()Ljava/lang/Class;"),
];

/// The call that computed `v` by asking `member` (a resolved variable)
/// one of the [`PURE_QUERIES`], if that is `v`'s single definition.
pub fn pure_query_of<'a>(known: &'a Known, v: Var, member: Var) -> Option<&'a Invoke> {
    match known.definition(v)? {
        Stmt::Invoke(inv)
            if inv.receiver.map(|r| known.resolve(r)) == Some(member)
                && member_class(&inv.target.class).is_some()
                && PURE_QUERIES.contains(&(inv.target.name.as_str(), inv.target.desc.as_str())) =>
        {
            Some(inv)
        }
        _ => None,
    }
}

/// The member variable and the test, when `a` and `b` (the operands of
/// `equals` or of `if_acmpeq`, in either order) are a class constant and
/// a member's type: a method's return type (`getReturnType()`), a
/// field's type (`getType()`), or a parameter's type (an element of
/// `getParameterTypes()` at a constant index). The member is given
/// resolved.
pub fn type_test(known: &Known, a: Var, b: Var) -> Option<(Var, MemberTest)> {
    let constant = |v| class_constant(known.definition(v)?);
    let (ty, typed) = match (constant(a), constant(b)) {
        (Some(ty), None) => (ty.to_string(), b),
        (None, Some(ty)) => (ty.to_string(), a),
        _ => return None,
    };
    typed_member(known, typed, ty, TypeMatch::Exact)
}

/// The member variable and the test, when `C.class.isAssignableFrom(x)`
/// asks whether `x`, a member's type as [`type_test`] reads it, is `C`
/// or a subtype of `C`. The member is given resolved.
pub fn assignable_test(known: &Known, class: Var, typed: Var) -> Option<(Var, MemberTest)> {
    let ty = class_constant(known.definition(class)?)?.to_string();
    if class_constant(known.definition(typed)?).is_some() {
        return None;
    }
    typed_member(known, typed, ty, TypeMatch::Below)
}

/// The member whose type `typed` holds (its return type, its field
/// type, or a parameter's type at a constant index) and the test that
/// the type relates to `ty` as `how` says.
fn typed_member(
    known: &Known,
    typed: Var,
    ty: String,
    how: TypeMatch,
) -> Option<(Var, MemberTest)> {
    // The member a call without arguments asked, and its class.
    let asker = |inv: &Invoke| {
        let member = known.resolve(inv.receiver?);
        Some((member, member_class(&inv.target.class)?))
    };
    let (query, passes) = match known.definition(typed)? {
        Stmt::ArrayLoad {
            base,
            index: Some(k),
            ..
        } => match known.definition(*base)? {
            Stmt::Invoke(inv) if inv.target.name == "getParameterTypes" => {
                (inv, Passes::Parameter(u32::try_from(*k).ok()?, how, ty))
            }
            _ => return None,
        },
        Stmt::Invoke(inv) => (inv, Passes::Type(how, ty)),
        _ => return None,
    };
    let (member, class) = asker(query)?;
    let asks_type = match &passes {
        Passes::Parameter(..) => query.target.desc == "()[Ljava/lang/Class;",
        _ => {
            matches!(
                (query.target.name.as_str(), class),
                ("getReturnType", "java.lang.reflect.Method")
                    | ("getType", "java.lang.reflect.Field")
            ) && query.target.desc == "()Ljava/lang/Class;"
        }
    };
    asks_type.then(|| (member, MemberTest::new(class, passes)))
}

/// The member class among [`MEMBER_CLASSES`].
fn member_class(class: &str) -> Option<&'static str> {
    MEMBER_CLASSES.iter().find(|c| **c == class).copied()
}

/// A test of a member's name against a constant string.
fn name_test(known: &Known, call: &Invoke) -> Option<(Var, MemberTest)> {
    let how = match (call.target.name.as_str(), call.target.desc.as_str()) {
        ("startsWith", "(Ljava/lang/String;)Z") => NameMatch::Prefix,
        ("endsWith", "(Ljava/lang/String;)Z") => NameMatch::Suffix,
        ("equals", "(Ljava/lang/Object;)Z") => NameMatch::Exact,
        _ => return None,
    };
    let receiver = call.receiver?;
    let arg = (*call.args.first()?)?;
    let (name, text) = match (constant(known, arg), constant(known, receiver)) {
        (Some(text), _) => (receiver, text),
        (None, Some(text)) if how == NameMatch::Exact => (arg, text),
        _ => return None,
    };
    if text.is_empty() && how != NameMatch::Exact {
        return None; // every name starts and ends with ""
    }
    let (member, member_class) = named_member(known, name)?;
    Some((
        member,
        MemberTest::new(member_class, Passes::Name { how, text }),
    ))
}

/// The text of a string constant.
fn constant(known: &Known, v: Var) -> Option<String> {
    match known.definition(v)? {
        Stmt::StringConst { text, .. } => Some(text.clone()),
        _ => None,
    }
}

/// The member whose `getName()` `v` holds, and its class.
fn named_member(known: &Known, v: Var) -> Option<(Var, &'static str)> {
    match known.definition(v)? {
        Stmt::Invoke(inv)
            if inv.target.name == "getName" && inv.target.desc == "()Ljava/lang/String;" =>
        {
            let class = NAMED_CLASSES.iter().find(|c| **c == inv.target.class)?;
            Some((known.resolve(inv.receiver?), *class))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classfile::model::MemberRef;
    use crate::ir::InvokeKind;

    fn test_of(
        stmts: &[Stmt],
        call: &Invoke,
        before: Option<&Invoke>,
    ) -> Option<(Var, MemberTest)> {
        let aliases = FxHashMap::default();
        member_test(
            &Known {
                stmts,
                aliases: &aliases,
            },
            call,
            before,
        )
    }

    const METHOD: &str = "java.lang.reflect.Method";
    const FIELD: &str = "java.lang.reflect.Field";

    fn call(class: &str, name: &str, desc: &str, receiver: Var, args: Vec<Option<Var>>) -> Invoke {
        Invoke {
            bci: 0,
            kind: InvokeKind::Virtual,
            target: MemberRef {
                class: class.into(),
                name: name.into(),
                desc: desc.into(),
                interface: false,
            },
            receiver: Some(receiver),
            args,
            result: None,
            handlers: Vec::new(),
        }
    }

    /// `v1 = m.getName(); v2 = v1; v3 = "set"` for the member `m` = 0.
    fn body(member_class: &str) -> Vec<Stmt> {
        let mut get = call(member_class, "getName", "()Ljava/lang/String;", 0, vec![]);
        get.result = Some(1);
        vec![
            Stmt::Invoke(get),
            Stmt::Assign { dst: 2, src: 1 },
            Stmt::StringConst {
                dst: 3,
                text: "set".into(),
            },
        ]
    }

    fn test(member_class: &'static str, how: NameMatch, text: &str) -> MemberTest {
        let text = text.into();
        MemberTest::new(member_class, Passes::Name { how, text })
    }

    #[test]
    fn a_prefix_test_of_a_methods_name_narrows_the_method() {
        let stmts = body(METHOD);
        let desc = "(Ljava/lang/String;)Z";
        let starts = call("java.lang.String", "startsWith", desc, 2, vec![Some(3)]);
        assert_eq!(
            test_of(&stmts, &starts, None),
            Some((0, test(METHOD, NameMatch::Prefix, "set")))
        );
        let ends = call("java.lang.String", "endsWith", desc, 2, vec![Some(3)]);
        assert_eq!(
            test_of(&stmts, &ends, None),
            Some((0, test(METHOD, NameMatch::Suffix, "set")))
        );
    }

    #[test]
    fn a_name_and_a_member_behind_phis_that_copy_one_variable_are_known() {
        // v5 = φ(v2) and v6 = φ(v0) at a merge between the definitions
        // and the test: the test is of v0's name.
        let stmts = body(METHOD);
        let aliases: FxHashMap<Var, Var> = [(5, 2), (6, 0)].into_iter().collect();
        let known = Known {
            stmts: &stmts,
            aliases: &aliases,
        };
        let desc = "(Ljava/lang/String;)Z";
        let starts = call("java.lang.String", "startsWith", desc, 5, vec![Some(3)]);
        assert_eq!(
            member_test(&known, &starts, None),
            Some((0, test(METHOD, NameMatch::Prefix, "set")))
        );
        assert_eq!(known.resolve(6), 0);
    }

    #[test]
    fn equals_narrows_with_the_constant_on_either_side() {
        let stmts = body(FIELD);
        let eq = "(Ljava/lang/Object;)Z";
        let constant_first = call("java.lang.String", "equals", eq, 3, vec![Some(2)]);
        let name_first = call("java.lang.String", "equals", eq, 2, vec![Some(3)]);
        for c in [constant_first, name_first] {
            assert_eq!(
                test_of(&stmts, &c, None),
                Some((0, test(FIELD, NameMatch::Exact, "set")))
            );
        }
    }

    #[test]
    fn other_strings_and_other_names_narrow_nothing() {
        let desc = "(Ljava/lang/String;)Z";
        // A class's name is not a member's, and a Member may be either.
        let starts = call("java.lang.String", "startsWith", desc, 2, vec![Some(3)]);
        let classes = [
            "java.lang.Class",
            "java.lang.reflect.Member",
            "java.lang.reflect.Constructor",
        ];
        for class in classes {
            assert_eq!(test_of(&body(class), &starts, None), None);
        }
        // The constant as the receiver of startsWith tests the constant.
        let stmts = body(METHOD);
        let reversed = call("java.lang.String", "startsWith", desc, 3, vec![Some(2)]);
        assert_eq!(test_of(&stmts, &reversed, None), None);
        // A name with two definitions (a φ) is not known.
        let mut stmts = body(METHOD);
        stmts.push(Stmt::Assign { dst: 2, src: 3 });
        assert_eq!(test_of(&stmts, &starts, None), None);
        // Every name starts with "".
        let mut stmts = body(METHOD);
        stmts[2] = Stmt::StringConst {
            dst: 3,
            text: String::new(),
        };
        assert_eq!(test_of(&stmts, &starts, None), None);
    }

    #[test]
    fn an_annotation_test_narrows_the_member_to_the_annotated() {
        let stmts = vec![Stmt::ClassConst {
            dst: 4,
            ty: "org.junit.Test".into(),
        }];
        let present = "(Ljava/lang/Class;)Z";
        let c = call(METHOD, "isAnnotationPresent", present, 0, vec![Some(4)]);
        let want = MemberTest::new(METHOD, Passes::Annotated("org.junit.Test".into()));
        assert_eq!(test_of(&stmts, &c, None), Some((0, want)));
        // An annotation class that is not a constant says nothing.
        let c = call(METHOD, "isAnnotationPresent", present, 0, vec![Some(5)]);
        assert_eq!(test_of(&stmts, &c, None), None);
    }

    #[test]
    fn a_modifier_test_narrows_the_member_whose_modifiers_were_just_read() {
        let get = call(FIELD, "getModifiers", "()I", 0, vec![]);
        let mut is_static = call(
            "java.lang.reflect.Modifier",
            "isStatic",
            "(I)Z",
            0,
            vec![None],
        );
        is_static.receiver = None;
        let want = MemberTest::new(FIELD, Passes::Modifier("static"));
        assert_eq!(test_of(&[], &is_static, Some(&get)), Some((0, want)));
        // Without the getModifiers() call right before, the int is unknown.
        assert_eq!(test_of(&[], &is_static, None), None);
        let other = call(FIELD, "hashCode", "()I", 0, vec![]);
        assert_eq!(test_of(&[], &is_static, Some(&other)), None);
    }
    #[test]
    fn a_count_of_parameters_narrows_methods_and_constructors() {
        const CTOR: &str = "java.lang.reflect.Constructor";
        // v1 = m.getParameterTypes(), v2 = v1.
        let mut types = call(
            METHOD,
            "getParameterTypes",
            "()[Ljava/lang/Class;",
            0,
            vec![],
        );
        types.result = Some(1);
        let stmts = vec![Stmt::Invoke(types), Stmt::Assign { dst: 2, src: 1 }];
        let aliases = FxHashMap::default();
        let known = Known {
            stmts: &stmts,
            aliases: &aliases,
        };
        let want = Some((0, MemberTest::new(METHOD, Passes::Arity(1))));
        assert_eq!(arity_test(&known, Count::Length(2), 1), want);
        let count = call(CTOR, "getParameterCount", "()I", 0, vec![]);
        let want = Some((0, MemberTest::new(CTOR, Passes::Arity(0))));
        assert_eq!(arity_test(&known, Count::Call(&count), 0), want);
        // A negative count, another array, another int, a field: nothing.
        assert_eq!(arity_test(&known, Count::Length(2), -1), None);
        assert_eq!(arity_test(&known, Count::Length(7), 1), None);
        let other = call(METHOD, "getModifiers", "()I", 0, vec![]);
        assert_eq!(arity_test(&known, Count::Call(&other), 1), None);
        let field = call(FIELD, "getParameterCount", "()I", 0, vec![]);
        assert_eq!(arity_test(&known, Count::Call(&field), 1), None);
    }

    #[test]
    fn a_type_compared_with_a_class_constant_narrows_by_return_field_or_parameter_type() {
        const CTOR: &str = "java.lang.reflect.Constructor";
        let void = MemberRef {
            class: "java.lang.Void".into(),
            name: "TYPE".into(),
            desc: "Ljava/lang/Class;".into(),
            interface: false,
        };
        let types = "()[Ljava/lang/Class;";
        let mut returns = call(METHOD, "getReturnType", "()Ljava/lang/Class;", 0, vec![]);
        returns.result = Some(1);
        let mut field_type = call(FIELD, "getType", "()Ljava/lang/Class;", 5, vec![]);
        field_type.result = Some(6);
        let mut params = call(CTOR, "getParameterTypes", types, 7, vec![]);
        params.result = Some(8);
        let element = |dst, index| Stmt::ArrayLoad {
            dst,
            base: 8,
            index,
        };
        let stmts = vec![
            Stmt::Invoke(returns),
            Stmt::StaticLoad {
                dst: 2,
                field: void,
            },
            Stmt::ClassConst {
                dst: 3,
                ty: "java.lang.String".into(),
            },
            Stmt::Invoke(field_type),
            Stmt::Invoke(params),
            element(9, Some(1)),
            element(10, None),
        ];
        let aliases = FxHashMap::default();
        let known = Known {
            stmts: &stmts,
            aliases: &aliases,
        };
        let typed = |class, passes| Some((0, MemberTest::new(class, passes)));
        // `m.getReturnType() == void.class`, in either order.
        let want = typed(METHOD, Passes::Type(TypeMatch::Exact, "void".into()));
        assert_eq!(type_test(&known, 1, 2), want);
        assert_eq!(type_test(&known, 2, 1), want);
        // `String.class.equals(f.getType())`, through `equals`.
        let eq = "(Ljava/lang/Object;)Z";
        let equals = call("java.lang.Class", "equals", eq, 3, vec![Some(6)]);
        let want = Some((
            5,
            MemberTest::new(
                FIELD,
                Passes::Type(TypeMatch::Exact, "java.lang.String".into()),
            ),
        ));
        assert_eq!(test_of(&stmts, &equals, None), want);
        // `c.getParameterTypes()[1] == String.class`.
        let want = Passes::Parameter(1, TypeMatch::Exact, "java.lang.String".into());
        assert_eq!(
            type_test(&known, 9, 3),
            Some((7, MemberTest::new(CTOR, want)))
        );
        // `String.class.isAssignableFrom(c.getParameterTypes()[1])`, and of
        // `m.getReturnType()`; a constant's own question is no test.
        let below = Passes::Parameter(1, TypeMatch::Below, "java.lang.String".into());
        assert_eq!(
            assignable_test(&known, 3, 9),
            Some((7, MemberTest::new(CTOR, below)))
        );
        let below = Passes::Type(TypeMatch::Below, "java.lang.String".into());
        assert_eq!(
            assignable_test(&known, 3, 1),
            Some((0, MemberTest::new(METHOD, below)))
        );
        let assignable = "(Ljava/lang/Class;)Z";
        let from = call(
            "java.lang.Class",
            "isAssignableFrom",
            assignable,
            3,
            vec![Some(6)],
        );
        let below = Passes::Type(TypeMatch::Below, "java.lang.String".into());
        assert_eq!(
            test_of(&stmts, &from, None),
            Some((5, MemberTest::new(FIELD, below)))
        );
        assert_eq!(assignable_test(&known, 9, 3), None);
        assert_eq!(assignable_test(&known, 3, 2), None);
        // An element at an unknown index, two constants, two types: nothing.
        assert_eq!(type_test(&known, 10, 3), None);
        assert_eq!(type_test(&known, 2, 3), None);
        assert_eq!(type_test(&known, 1, 6), None);
    }

    #[test]
    fn tests_joined_by_or_let_through_what_passes_either() {
        let add = test(METHOD, NameMatch::Exact, "add");
        let configured = test(METHOD, NameMatch::Exact, "addConfigured");
        let either = add.clone().or(&configured).expect("one class");
        assert_eq!(either.any_of.len(), 2);
        assert_eq!(either.clone().or(&add), Some(either));
        assert_eq!(add.or(&test(FIELD, NameMatch::Exact, "x")), None);
    }
}
