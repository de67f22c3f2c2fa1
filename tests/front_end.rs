//! The Java front end on the committed fixtures: exact facts for small
//! programs, robustness against damaged and unusual class files.

use refract::classfile::read_class;
use refract::classpath::ClassPath;
use refract::facts::{generate, write::named_tuples, ProgramFacts};
use std::path::{Path, PathBuf};

fn fixture(set: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/classes")
        .join(set)
}

fn facts_of(paths: &[PathBuf]) -> ProgramFacts {
    let mut cp = ClassPath::default();
    for p in paths {
        cp.push_application(p.clone());
    }
    generate(&cp, &|_| {})
}

/// The tuples of `rel` whose text contains `filter`.
fn rows(f: &ProgramFacts, rel: &str, filter: &str) -> Vec<String> {
    named_tuples(&f.builder, rel)
        .into_iter()
        .filter(|t| t.contains(filter))
        .collect()
}

const MAIN: &str = "<ForName: void main(java.lang.String[])>";
const FOR_NAME_SITE: &str = "<ForName: void main(java.lang.String[])>[4@L4] invokestatic <java.lang.Class: java.lang.Class forName(java.lang.String)>";

#[test]
fn constant_for_name_chain() {
    let f = facts_of(&[fixture("basic")]);
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    // String s = "a.B";  Class.forName(s): a stored local is the value
    // stored, under the local's name, with no copy between them. The
    // parameter holds the command line, whose elements are input.
    assert_eq!(
        rows(&f, "vP0", MAIN),
        vec![
            format!("{MAIN}/<argument>\t<command line argument>"),
            format!("{MAIN}/l1@2\t\"a.B\""),
            format!("{MAIN}/p0\t{MAIN} <command line>"),
        ]
    );
    assert_eq!(rows(&f, "A", MAIN), Vec::<String>::new());
    assert_eq!(
        rows(&f, "actual", FOR_NAME_SITE),
        vec![format!("{FOR_NAME_SITE}\t0\t{MAIN}/l1@2")]
    );
    assert_eq!(
        rows(&f, "IE0", FOR_NAME_SITE),
        vec![format!(
            "{FOR_NAME_SITE}\t<java.lang.Class: java.lang.Class forName(java.lang.String)>"
        )]
    );
    assert_eq!(
        rows(&f, "Iret", FOR_NAME_SITE),
        vec![format!("{FOR_NAME_SITE}\t{MAIN}/l2@7")]
    );
    assert_eq!(rows(&f, "stringType", ""), vec!["\"a.B\"\ta.B"]);
    assert_eq!(rows(&f, "stringConst", "a.B"), vec!["\"a.B\""]);
    assert_eq!(
        rows(&f, "Iloc", FOR_NAME_SITE),
        vec![format!("{FOR_NAME_SITE}\t{MAIN}\t4\t4")]
    );
    // newInstance is dispatched by name, not bound statically.
    assert_eq!(
        rows(&f, "mI", "newInstance"),
        vec![format!("{MAIN}\t{MAIN}[9@L5] invokevirtual <java.lang.Class: java.lang.Object newInstance()>\tjava.lang.Object newInstance()")]
    );
    assert_eq!(rows(&f, "mainMethod", ""), vec![MAIN]);
    assert_eq!(
        rows(&f, "defaultConstructor", "a.B"),
        vec!["a.B\t<a.B: void <init>()>"]
    );
}

#[test]
fn locals_get_one_variable_per_definition_and_phis_merge_them() {
    let f = facts_of(&[fixture("basic")]);
    let pick = "<Flow: java.lang.Object pick(boolean)>";
    // The φ of `this` at the merge copies `this` alone and is gone.
    assert_eq!(
        rows(&f, "A", pick),
        vec![
            format!("{pick}/phi:l2@23\t{pick}/l2@11"),
            format!("{pick}/phi:l2@23\t{pick}/l2@22"),
            format!("{pick}/ret\t{pick}/phi:l2@23"),
        ]
    );
    // Slot 0 reused: "first" and "second" stay apart; only "second" is returned.
    let reuse = "<Flow: java.lang.Object reuse()>";
    assert_eq!(
        rows(&f, "A", reuse),
        vec![format!("{reuse}/ret\t{reuse}/l0@9"),]
    );
    assert_eq!(
        rows(&f, "S", reuse),
        vec![format!(
            "<global>\t<Flow: java.lang.Object shared>\t{reuse}/l0@2"
        )]
    );
}

#[test]
fn fields_arrays_statics_casts_and_exceptions() {
    let f = facts_of(&[fixture("basic")]);
    let arrays = "<Flow: void arrays()>";
    assert_eq!(
        rows(&f, "S", arrays),
        vec![
            format!("{arrays}/l0@4\t[]\t{arrays}/s@7"),
            // new int[3][4]: the inner arrays are stored in the outer one.
            format!("{arrays}/l2@20\t[]\t{arrays}/s@16.1"),
            format!("<global>\t<Flow: java.lang.Object shared>\t{arrays}/l1@13"),
            format!("<global>\t<Flow: java.lang.Object shared>\t{arrays}/l2@20"),
        ]
    );
    assert_eq!(
        rows(&f, "L", arrays),
        vec![format!("{arrays}/l0@4\t[]\t{arrays}/l1@13")]
    );
    assert_eq!(
        rows(&f, "hT", &format!("{arrays}[")),
        vec![
            format!("{arrays}[16@L22/1] new int[]\tint[]"),
            format!("{arrays}[16@L22] new int[][]\tint[][]"),
            format!("{arrays}[1@L19] new java.lang.Object[]\tjava.lang.Object[]"),
        ]
    );
    let fields = "<Flow: void fields()>";
    assert_eq!(
        rows(&f, "cast", fields),
        vec![format!("{fields}/l2@20\tjava.util.List\t{fields}/l1@15")]
    );
    assert_eq!(
        rows(&f, "L", fields),
        vec![format!(
            "{fields}/this\t<Flow: java.lang.Object field>\t{fields}/l1@15"
        )]
    );
    // try { r = Class.forName("a.B"); } catch (ClassNotFoundException e) { r = e; }
    let tc = "<Flow: java.lang.Object tryCatch()>";
    assert_eq!(
        rows(&f, "A", tc),
        vec![
            format!("{tc}/phi:l0@14\t{tc}/catch@11"),
            format!("{tc}/phi:l0@14\t{tc}/l0@7"),
            format!("{tc}/ret\t{tc}/phi:l0@14"),
        ]
    );
    // The call's exceptions go to the handler's caught-exception
    // variable (typed as it catches) and to the method's `thrown`
    // variable; no variable of the call's own stands between.
    assert_eq!(
        rows(&f, "Ithr", &format!("{tc}[4@")),
        vec![
            format!("{tc}[4@L44] invokestatic <java.lang.Class: java.lang.Class forName(java.lang.String)>\t{tc}/catch@11"),
            format!("{tc}[4@L44] invokestatic <java.lang.Class: java.lang.Class forName(java.lang.String)>\t{tc}/thrown"),
        ]
    );
    assert_eq!(
        rows(&f, "vT", &format!("{tc}/catch")),
        vec![format!("{tc}/catch@11\tjava.lang.ClassNotFoundException")]
    );
}

#[test]
fn string_concatenation_and_lambdas() {
    let f = facts_of(&[fixture("basic")]);
    let c = "<Dynamic: java.lang.String concat(java.lang.String,int)>";
    assert_eq!(
        rows(&f, "concat", c),
        vec![
            format!("{c}/s@2\t{c}/concat@2#1"),
            format!("{c}/s@2\t{c}/p0")
        ]
    );
    assert_eq!(
        rows(&f, "vP0", &format!("{c}/concat")),
        vec![format!("{c}/concat@2#1\t<string constant>")]
    );
    // s -> prefix + s: a synthetic class capturing `prefix`, whose apply
    // calls the lambda body.
    let l0 = "Dynamic$$Lambda$0";
    assert_eq!(
        rows(&f, "cha", &format!("{l0}\tjava.lang.Object apply")),
        vec![format!("{l0}\tjava.lang.Object apply(java.lang.Object)\t<{l0}: java.lang.Object apply(java.lang.Object)>")]
    );
    assert_eq!(
        rows(&f, "subtype", l0),
        vec![
            format!("{l0}\tjava.lang.Object"),
            format!("{l0}\tjava.util.function.Function")
        ]
    );
    let lambdas = "<Dynamic: java.lang.Object lambdas(java.lang.String)>";
    assert_eq!(
        rows(&f, "S", lambdas),
        vec![format!(
            "{lambdas}/l1@6\t<{l0}: java.lang.Object cap0>\t{lambdas}/p0"
        )]
    );
    let apply = format!("<{l0}: java.lang.Object apply(java.lang.Object)>");
    assert_eq!(
        rows(&f, "actual", &apply),
        vec![
            format!("{apply}[0@L0] invokestatic <Dynamic: java.lang.String lambda$lambdas$0(java.lang.String,java.lang.String)>\t0\t{apply}/cap0"),
            format!("{apply}[0@L0] invokestatic <Dynamic: java.lang.String lambda$lambdas$0(java.lang.String,java.lang.String)>\t1\t{apply}/p0"),
        ]
    );
    // Object::new allocates and returns the new object.
    let get = "<Dynamic$$Lambda$1: java.lang.Object get()>";
    assert_eq!(
        rows(&f, "vP0", get),
        vec![format!("{get}/new\t{get}[0@L0] new java.lang.Object")]
    );
    assert_eq!(rows(&f, "IE0", get), vec![format!("{get}[0@L0] invokespecial <java.lang.Object: void <init>()>\t<java.lang.Object: void <init>()>")]);
    // The StringBuilder chain stays visible as calls.
    let b = "<Dynamic: java.lang.String builder(java.lang.String)>";
    assert_eq!(rows(&f, "mI", &format!("{b}\t")).len(), 4);
}

#[test]
fn module_info_and_unknown_attributes_are_tolerated() {
    let bytes = std::fs::read(fixture("module").join("module-info.class")).unwrap();
    let c = read_class(&bytes).unwrap();
    assert!(c.is_module_info());
    let bytes = std::fs::read(fixture("basic").join("ForName.class")).unwrap();
    let plain = read_class(&bytes).unwrap();
    let patched = add_unknown_attributes(&bytes);
    let c = read_class(&patched).expect("unknown attributes are ignored");
    assert_eq!(c.methods.len(), plain.methods.len());
    assert_eq!(
        c.methods[1].code.as_ref().unwrap().bytes,
        plain.methods[1].code.as_ref().unwrap().bytes
    );
}

/// Appends a CLDC-style `StackMap` attribute to the class and a deeply
/// nested `RuntimeVisibleAnnotations` (100,000 levels) as well, reusing
/// Utf8 constants added to the pool.
fn add_unknown_attributes(bytes: &[u8]) -> Vec<u8> {
    // Add two Utf8 constants at the end of the pool.
    let count = u16::from_be_bytes([bytes[8], bytes[9]]);
    let pool_end = pool_end(bytes);
    let mut out = bytes[..8].to_vec();
    out.extend_from_slice(&(count + 2).to_be_bytes());
    out.extend_from_slice(&bytes[10..pool_end]);
    for name in ["StackMap", "RuntimeVisibleAnnotations"] {
        out.push(1);
        out.extend_from_slice(&(name.len() as u16).to_be_bytes());
        out.extend_from_slice(name.as_bytes());
    }
    let stack_map = count;
    let annotations = count + 1;
    // The class's attribute count is the last attribute list; rebuild it.
    let rest = &bytes[pool_end..];
    let class_attrs_at = class_attributes_offset(rest);
    out.extend_from_slice(&rest[..class_attrs_at]);
    let n = u16::from_be_bytes([rest[class_attrs_at], rest[class_attrs_at + 1]]);
    out.extend_from_slice(&(n + 2).to_be_bytes());
    out.extend_from_slice(&rest[class_attrs_at + 2..]);
    out.extend_from_slice(&stack_map.to_be_bytes());
    out.extend_from_slice(&5u32.to_be_bytes());
    out.extend_from_slice(&[0, 1, 2, 3, 4]);
    // annotation { type_index, 1 pair { name, value '@' annotation ... } }
    let depth = 100_000usize;
    let mut body = vec![0, 1];
    for _ in 0..depth {
        body.extend_from_slice(&stack_map.to_be_bytes()); // type_index (any Utf8)
        body.extend_from_slice(&[0, 1]);
        body.extend_from_slice(&stack_map.to_be_bytes()); // element name
        body.push(b'@');
    }
    body.extend_from_slice(&stack_map.to_be_bytes());
    body.extend_from_slice(&[0, 0]);
    out.extend_from_slice(&annotations.to_be_bytes());
    out.extend_from_slice(&(body.len() as u32).to_be_bytes());
    out.extend_from_slice(&body);
    out
}

fn pool_end(b: &[u8]) -> usize {
    let count = u16::from_be_bytes([b[8], b[9]]) as usize;
    let mut pos = 10;
    let mut i = 1;
    while i < count {
        let tag = b[pos];
        pos += 1 + match tag {
            1 => 2 + u16::from_be_bytes([b[pos + 1], b[pos + 2]]) as usize,
            3 | 4 => 4,
            5 | 6 => {
                i += 1;
                8
            }
            7 | 8 | 16 | 19 | 20 => 2,
            15 => 3,
            _ => 4,
        };
        i += 1;
    }
    pos
}

/// Offset (within the bytes after the pool) of the class attribute count.
fn class_attributes_offset(b: &[u8]) -> usize {
    let u16_at = |p: usize| u16::from_be_bytes([b[p], b[p + 1]]) as usize;
    let u32_at = |p: usize| u32::from_be_bytes([b[p], b[p + 1], b[p + 2], b[p + 3]]) as usize;
    let mut pos = 6;
    let n_if = u16_at(pos);
    pos += 2 + 2 * n_if;
    for _ in 0..2 {
        let n = u16_at(pos);
        pos += 2;
        for _ in 0..n {
            pos += 6;
            let na = u16_at(pos);
            pos += 2;
            for _ in 0..na {
                pos += 6 + u32_at(pos + 2);
            }
        }
    }
    pos
}

#[test]
fn damaged_inputs_are_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let good = std::fs::read(fixture("basic").join("ForName.class")).unwrap();
    std::fs::write(dir.path().join("Truncated.class"), &good[..good.len() / 2]).unwrap();
    std::fs::write(dir.path().join("Garbage.class"), b"\xCA\xFE\xBA\xBEgarbage").unwrap();
    std::fs::write(
        dir.path().join("broken.jar"),
        b"PK\x03\x04 this is not a zip",
    )
    .unwrap();
    std::fs::write(dir.path().join("ForName.class"), &good).unwrap();
    let f = facts_of(&[
        dir.path().join("Truncated.class"),
        dir.path().join("Garbage.class"),
        dir.path().join("broken.jar"),
        dir.path().join("ForName.class"),
    ]);
    let problems: Vec<String> = f
        .problems
        .iter()
        .map(|p| {
            let file = p.file.file_name().unwrap().to_string_lossy().to_string();
            let reason: String = p.reason.chars().take(40).collect();
            format!("{file}: {reason}")
        })
        .collect();
    assert_eq!(
        problems,
        vec![
            "broken.jar: broken archive: invalid Zip archive: Cou",
            "Truncated.class: at byte 443: truncated: 2 more bytes exp",
            "Garbage.class: at byte 11: constant pool entry #1 has u",
        ]
    );
    assert_eq!(f.builder.stats.classes, (1, 0));
}

#[test]
fn first_definition_on_the_class_path_wins() {
    let f = facts_of(&[fixture("basic"), fixture("basic")]);
    assert_eq!(f.duplicates, 4);
    assert_eq!(f.builder.stats.classes, (4, 0));
}

/// Random byte mutations of every fixture class: reading and translating
/// must report errors, never panic (a stable stand-in for the cargo-fuzz
/// target in `fuzz/`).
#[test]
fn mutated_class_files_never_panic() {
    let mut seeds = Vec::new();
    for set in ["basic", "module"] {
        for e in walk(&fixture(set)) {
            seeds.push(std::fs::read(e).unwrap());
        }
    }
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..3000 {
        let mut b = seeds[round % seeds.len()].clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() as usize) % b.len();
            match next() % 3 {
                0 => b[at] = next() as u8,
                1 => b[at] ^= 1 << (next() % 8),
                _ => b.truncate(at.max(1)),
            }
        }
        refract::facts::fuzz_one(&b);
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[test]
fn arrays_of_constant_length_passed_to_calls_and_method_arities() {
    let f = facts_of(&[fixture("reflection")]);
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    let main = "<Arity: void main(java.lang.String[])>";
    let site = |bci: u32, line: u32, kind: &str, target: &str| {
        format!("{main}[{bci}@L{line}] {kind} <{target}>")
    };
    let get_ctor = "java.lang.Class: java.lang.reflect.Constructor";
    let new_instance =
        "java.lang.reflect.Constructor: java.lang.Object newInstance(java.lang.Object[])";
    let invoke =
        "java.lang.reflect.Method: java.lang.Object invoke(java.lang.Object,java.lang.Object[])";
    // iconst_n; anewarray: getDeclaredConstructor(), newInstance(),
    // getConstructor(int.class), newInstance(1), m.invoke(o, "x"),
    // getMethod("add", Object.class, Object.class) and invoke(o, "x", "y").
    // The arrays that parameters()/arguments() return (a φ of two
    // allocations, through a call) have no known length.
    let mut want: Vec<String> = [
        (site(11, 12, "invokevirtual", &format!("{get_ctor} getDeclaredConstructor(java.lang.Class[])")), 1, 0),
        (site(18, 12, "invokevirtual", new_instance), 1, 0),
        (site(33, 14, "invokevirtual", &format!("{get_ctor} getConstructor(java.lang.Class[])")), 1, 1),
        (site(49, 15, "invokevirtual", new_instance), 1, 1),
        (site(115, 21, "invokevirtual", invoke), 2, 1),
        (site(142, 24, "invokevirtual", "java.lang.Class: java.lang.reflect.Method getMethod(java.lang.String,java.lang.Class[])"), 2, 2),
        (site(160, 24, "invokevirtual", invoke), 2, 2),
    ]
    .iter()
    .map(|(s, z, n)| format!("{s}\t{z}\t{n}"))
    .collect();
    want.sort();
    assert_eq!(rows(&f, "actualArrayLength", main), want);
    assert_eq!(
        rows(&f, "methodArity", "<r.Counter:"),
        vec![
            "<r.Counter: int get()>\t0",
            "<r.Counter: void <init>()>\t0",
            "<r.Counter: void <init>(int)>\t1",
            "<r.Counter: void <init>(int,int)>\t2",
            "<r.Counter: void add(java.lang.Object)>\t1",
            "<r.Counter: void add(java.lang.Object,java.lang.Object)>\t2",
        ]
    );
}

#[test]
fn calls_behind_a_null_test_are_guarded_by_the_tested_variable() {
    let f = facts_of(&[fixture("basic")]);
    let m = "<Flow: void guarded(java.lang.Object,java.lang.Object)>";
    // `if (a != null) { a.toString(); if (b == null) return;
    // b.hashCode(); String.valueOf(a); } String.valueOf(b);`: each call
    // is guarded by the closest null test that dominates it; the call
    // after the `if`, reached either way, by none.
    // (Rows sort as text: bci 17 and 22 before 5.)
    let guards = rows(&f, "nullGuard", &format!("{m}["));
    let site = |bci: u32, line: u32, call: &str| format!("{m}[{bci}@L{line}] {call}");
    assert_eq!(
        guards,
        vec![
            format!(
                "{}\t{m}/p1",
                site(17, 66, "invokevirtual <java.lang.Object: int hashCode()>")
            ),
            format!(
                "{}\t{m}/p1",
                site(
                    22,
                    67,
                    "invokestatic <java.lang.String: java.lang.String valueOf(java.lang.Object)>"
                )
            ),
            format!(
                "{}\t{m}/p0",
                site(
                    5,
                    62,
                    "invokevirtual <java.lang.Object: java.lang.String toString()>"
                )
            ),
        ]
    );
}

/// A count of parameters read into a local before the tests of the name
/// and compared after them, past the merge that `||` leaves (jython's
/// PyJavaType.checkBeanMethod; fixture `Beans`), tests the member's
/// arity: the length of `getParameterTypes()` is kept in the `int` local
/// while every path into the merge brings the same one.
#[test]
fn a_count_of_parameters_kept_in_a_local_tests_the_members_arity() {
    let f = facts_of(&[fixture("reflection")]);
    let main = "<Beans: void main(java.lang.String[])>";
    let name = format!("{main}[64@L38] name startsWith \"add\" or name startsWith \"put\"");
    let one = format!("{main}[70@L38] parameters 1");
    assert_eq!(
        rows(&f, "memberFilter", main),
        [
            format!("{main}/l5@30|64\t{main}/l5@30\t{name}"),
            format!("{main}/l5@30|70\t{main}/l5@30|64\t{one}"),
        ]
    );
    assert_eq!(rows(&f, "filterArity", &one), [format!("{one}\t1")]);
}

/// `EventListener.class.isAssignableFrom(types[0])` (fixture
/// `Listeners`, jython's test of a bean event's adder) tests the type of
/// the member's first parameter: it is `EventListener` or a subtype.
#[test]
fn a_class_assignable_from_a_parameter_type_tests_the_member() {
    let f = facts_of(&[fixture("reflection")]);
    let main = "<Listeners: void main(java.lang.String[])>";
    let one = format!("{main}[65@L38] parameters 1");
    let below = format!("{main}[77@L38] parameter 0 below java.util.EventListener");
    assert_eq!(
        rows(&f, "memberFilter", main),
        [
            format!("{main}/l6@52|65\t{main}/l6@52\t{one}"),
            format!("{main}/l6@52|77\t{main}/l6@52|65\t{below}"),
        ]
    );
    assert_eq!(
        rows(&f, "filterParameterBelow", &below),
        [format!("{below}\t0\tjava.util.EventListener")]
    );
    assert!(rows(&f, "filterParameter", &below).is_empty());
}

/// Inside `if (m.getName().startsWith("test"))` the member is a fresh
/// variable that a member filter defines from it
/// (src/ir/member_tests.rs); the filter lets through every method, of
/// the application or the library, whose name passes the test. Tests of
/// annotations, modifiers and counts of parameters make filters too, and
/// tests joined by `||` one filter.
#[test]
fn a_test_of_a_members_name_gives_it_a_filtered_variable_inside_the_branch() {
    let f = facts_of(&[fixture("reflection")]);
    let main = "<Inferred: void main(java.lang.String[])>";
    let filter = format!("{main}[52@L19] name startsWith \"test\"");
    assert_eq!(
        rows(&f, "memberFilter", main),
        [format!("{main}/l6@40|52\t{main}/l6@40\t{filter}")]
    );
    assert_eq!(
        rows(&f, "filterMethod", &filter),
        [
            "<r.Checks: void testFirst()>",
            "<r.Checks: void testSecond()>"
        ]
        .map(|m| format!("{filter}\t{m}"))
    );
    // `m.invoke(checks)` inside the branch passes the filtered variable.
    let invoke = format!(
        "{main}[62@L20] invokevirtual <java.lang.reflect.Method: java.lang.Object invoke(java.lang.Object,java.lang.Object[])>"
    );
    assert_eq!(
        rows(&f, "actual", &format!("{invoke}\t0\t")),
        [format!("{invoke}\t0\t{main}/l6@40|52")]
    );
    // ant's `name.startsWith("set") && params.length == 1`: the whole
    // condition and the body see the filtered setter, which the count of
    // parameters filters again. The adders' `"add".equals(name) ||
    // "addConfigured".equals(name)` make one filter that lets through
    // either name, and the last loop's `params.length == 1` one of its
    // own.
    let main = "<Introspection: void main(java.lang.String[])>";
    let l = |at: &str| format!("{main}/l5@{at}");
    let either = format!("{main}[167@L81] name equals \"add\" or name equals \"addConfigured\"");
    let one = format!("{main}[234@L87] parameters 1");
    assert_eq!(
        rows(&f, "memberFilter", main),
        [
            format!("{}\t{}\t{either}", l("141|167"), l("141")),
            format!("{}\t{}\t{one}", l("221|234"), l("221")),
            format!(
                "{}\t{}\t{main}[53@L73] name startsWith \"set\"",
                l("30|53"),
                l("30")
            ),
            format!(
                "{}\t{}\t{main}[60@L73] parameters 1",
                l("30|60"),
                l("30|53")
            ),
        ]
    );
    assert_eq!(
        rows(&f, "filterMethod", &either),
        [
            "<Introspection$Task: void add(Introspection$Item)>",
            "<Introspection$Task: void addConfigured(Introspection$Item)>",
            "<r.Bag: void add(java.lang.Object)>",
            "<r.Counter: void add(java.lang.Object)>",
            "<r.Counter: void add(java.lang.Object,java.lang.Object)>",
        ]
        .map(|m| format!("{either}\t{m}"))
    );
    assert_eq!(rows(&f, "filterArity", &one), [format!("{one}\t1")]);
    // The parameter types read before the test are asked again of the
    // filtered setter, at the branch.
    let again = format!(
        "{main}[53@L73] invokevirtual <java.lang.reflect.Method: java.lang.Class[] getParameterTypes()>"
    );
    assert_eq!(
        rows(&f, "actual", &again),
        [format!("{again}\t0\t{main}/l5@30|53")]
    );
    assert_eq!(rows(&f, "filterField", main), Vec::<String>::new());
    // JUnit 4's `m.isAnnotationPresent(Check.class)` and a registry's
    // `Modifier.isStatic(f.getModifiers())`: the filters name the
    // annotation and the modifier, which the analysis matches.
    let main = "<Selected: void main(java.lang.String[])>";
    let annotated = format!("{main}[48@L18] annotated r.Check");
    let modifier = format!("{main}[100@L23] modifier static");
    assert_eq!(
        rows(&f, "memberFilter", main),
        [
            format!("{main}/l5@39|48\t{main}/l5@39\t{annotated}"),
            format!("{main}/l5@90|100\t{main}/l5@90\t{modifier}"),
        ]
    );
    assert_eq!(
        rows(&f, "filterAnnotation", main),
        [format!("{annotated}\tr.Check")]
    );
    assert_eq!(
        rows(&f, "filterModifier", main),
        [format!("{modifier}\tstatic")]
    );
    // Types: `m.getReturnType() == void.class` and `params[0] ==
    // String.class` (if_acmpne, each after the count of parameters),
    // `String.class.equals(f.getType())` and `String.class.equals(
    // c.getParameterTypes()[0])` (Class.equals).
    let main = "<Signatures: void main(java.lang.String[])>";
    let l = |at: &str| format!("{main}/l5@{at}");
    let filter = |at: &str, what: &str| format!("{main}[{at}] {what}");
    let returns_void = filter("54@L63", "type void");
    let handler = filter("63@L63", "parameter 0 java.lang.String");
    let text = filter("122@L68", "type java.lang.String");
    let from_text = filter("188@L73", "parameter 0 java.lang.String");
    assert_eq!(
        rows(&f, "memberFilter", main),
        [
            format!("{}\t{}\t{text}", l("110|122"), l("110")),
            format!(
                "{}\t{}\t{}",
                l("165|173"),
                l("165"),
                filter("173@L73", "parameters 1")
            ),
            format!("{}\t{}\t{from_text}", l("165|188"), l("165|173")),
            format!(
                "{}\t{}\t{}",
                l("30|43"),
                l("30"),
                filter("43@L63", "parameters 1")
            ),
            format!("{}\t{}\t{returns_void}", l("30|54"), l("30|43")),
            format!("{}\t{}\t{handler}", l("30|63"), l("30|54")),
        ]
    );
    assert_eq!(
        rows(&f, "filterType", main),
        [
            format!("{text}\tjava.lang.String"),
            format!("{returns_void}\tvoid"),
        ]
    );
    assert_eq!(
        rows(&f, "filterParameter", main),
        [
            format!("{from_text}\t0\tjava.lang.String"),
            format!("{handler}\t0\tjava.lang.String"),
        ]
    );
}

/// A name spelled from a string's letters (xalan's setter names): the
/// attribute's field read anew for each character, capitalised first and
/// after each '-', behind "set" and "Xml" behind a branch. The
/// concatenation is `completedBy` the field's first load, and each
/// method whose name it spells from a constant is listed with that
/// constant: `setFontSize` from "font-size", `setXmlSpace` from "space"
/// with "Xml", and nothing from `setHeight`, whose letters no constant
/// or member name of the program has.
#[test]
fn a_name_spelled_a_letter_at_a_time_names_the_members_of_constants() {
    let f = facts_of(&[fixture("reflection")]);
    let setter = "<Concatenated$Attribute: java.lang.String setterName()>";
    let site = format!("{setter}[97@L109] concat");
    assert_eq!(
        rows(&f, "completedBy", &site),
        [format!("{site}\t{setter}/s@33")]
    );
    // A capitalised parameter alone, with no known text around its
    // letters, spells no member's name of its own.
    let capitalize = "<Concatenated: java.lang.String capitalize(java.lang.String)>";
    assert!(rows(&f, "completedBy", capitalize).is_empty());
    let spelled: Vec<String> = rows(&f, "completesMethod", &site)
        .into_iter()
        .filter(|r| r.contains("Concatenated$Style"))
        .collect();
    // The names of Style's fields are strings too (SameNames, in the same
    // directory, looks members up by their metaobjects' names), and
    // spell their setters as the constants do.
    assert_eq!(
        spelled,
        [
            format!("{site}\t\"font-size\"\t<Concatenated$Style: void setFontSize(int)>"),
            format!("{site}\t\"fontSize\"\t<Concatenated$Style: void setFontSize(int)>"),
            format!("{site}\t\"space\"\t<Concatenated$Style: void setXmlSpace(int)>"),
            format!("{site}\t\"xmlSpace\"\t<Concatenated$Style: void setXmlSpace(int)>"),
        ]
    );
}

/// A name completed by one string between known text (`Completed`):
/// `"r." + kind(n) + "er"` is `completedBy` the helper's result, and
/// names r.Upper with "Upp" and r.Lower with "Low", the constants that
/// complete it (not r.Counter or r.MessagesHelper, which no constant
/// completes); `"get" + property` names r.Bean's getName with "Name", not
/// its getSize. A string
/// that a method absent from the class path returns (`part.name()`, with
/// no JDK) completes nothing: its concatenation keeps its known text.
#[test]
fn a_string_between_known_text_completes_the_names_of_constants() {
    let f = facts_of(&[fixture("reflection")]);
    let main = "<Completed: void main(java.lang.String[])>";
    let kind = format!("{main}[5@L28] concat");
    assert_eq!(
        rows(&f, "completesType", &kind),
        [
            format!("{kind}\t\"Low\"\tr.Lower"),
            format!("{kind}\t\"Upp\"\tr.Upper"),
        ]
    );
    // (The empty string completes it into every `get` method.)
    let getter = format!("{main}[52@L33] concat");
    let of_bean: Vec<String> = rows(&f, "completesMethod", &getter)
        .into_iter()
        .filter(|r| r.contains("<r.Bean: "))
        .collect();
    assert_eq!(
        of_bean,
        [format!(
            "{getter}\t\"Name\"\t<r.Bean: java.lang.String getName()>"
        )]
    );
    assert!(rows(&f, "completedBy", &format!("{main}[98@L38] concat")).is_empty());
    assert_eq!(
        rows(&f, "completedBy", &format!("{main}[132@L41] concat")).len(),
        1
    );
}

/// A builder's appends are in order only where they run on every path,
/// once: xalan's setter names append "set", then "Xml" behind a branch,
/// then the attribute's letters in a loop. The name starts with "set"
/// alone, and fits the methods named so (before, the branch's "Xml" was
/// read as part of the start, and no method fit).
#[test]
fn appends_behind_a_branch_or_in_a_loop_leave_only_the_known_start() {
    let f = facts_of(&[fixture("reflection")]);
    let setter = "<Concatenated: java.lang.String setterName(java.lang.String,java.lang.String)>";
    let site = format!("{setter}[100@L37] concat");
    assert_eq!(
        rows(&f, "partialMethod", &site),
        [
            "<Concatenated$Attribute: java.lang.String setterName()>",
            "<Concatenated$Style: void setFontSize(int)>",
            "<Concatenated$Style: void setHeight(int)>",
            "<Concatenated$Style: void setXmlSpace(int)>",
            setter,
            "<FieldSetters$Settings: void setHost(java.lang.String)>",
            "<FieldSetters$Settings: void setPort(java.lang.String)>",
            "<FieldSetters$Settings: void setUser(java.lang.String)>",
            "<FieldSetters$Settings: void setup(java.lang.String)>",
            "<Holders$Box: void set(java.lang.Object)>",
            "<Introspection$Task: void setLevel(Introspection$Level)>",
            "<Introspection$Task: void setPath(Introspection$Path)>",
            "<Listeners$Button: void setLabel(java.lang.Object)>",
            "<SameNames$Pair: void setLabel(java.lang.String)>",
            "<SameNames$Pair: void setOther(java.lang.String)>",
            "<r.Bean: void setName(java.lang.String)>",
            "<r.Bean: void setSize(int)>",
            "<r.Checks: void setUp()>",
            "<r.Sized: void setSize(int)>",
        ]
        .map(|m| format!("{site}\t{m}"))
    );
    // "Xml" may be in the name, somewhere: its text still flows into it.
    assert_eq!(
        rows(&f, "concat", &format!("{setter}/s@100")),
        [
            format!("{setter}/s@100\t{setter}/s@29"),
            format!("{setter}/s@100\t{setter}/s@9"),
        ]
    );
}

/// A directory holding the classes of the `reflection` fixtures whose
/// file names start with `prefix` (a fixture and its nested classes).
fn reflection_classes(prefix: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(fixture("reflection")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with(prefix) && name.ends_with(".class") {
            std::fs::copy(&path, dir.path().join(&name)).unwrap();
        }
    }
    dir
}

/// The names of members are strings (`stringMethod`, `stringField`) where
/// an application method looks a member up by a name that a metaobject's
/// `getName()` returned (`SameNames`): `"part"` and `"port"` name Impl's
/// method and Copy's field though no constant holds them, and so does a
/// handle's lookup by such a name (`SameHandles`), and `"set" +
/// getter.getName().substring(3)` names the getter's setter, and its
/// property the getter's field. A program that
/// asks metaobjects for their names only to test them (`Beans`) gets no
/// such strings: its `putPart` is no string.
#[test]
fn member_names_are_strings_where_a_lookup_takes_a_metaobjects_name() {
    let same = reflection_classes("SameNames");
    let f = facts_of(&[same.path().to_path_buf()]);
    assert_eq!(
        rows(&f, "stringMethod", "\"part\""),
        ["\"part\"\t<SameNames$Impl: java.lang.String part(int)>"]
    );
    assert_eq!(
        rows(&f, "stringField", "\"port\""),
        ["\"port\"\t<SameNames$Copy: java.lang.String port>"]
    );
    assert!(rows(&f, "stringMethod", "<init>").is_empty());
    // A name past its first three letters completes `"set" + ...` into a
    // setter: `getLabel` (and `setLabel` itself) into `setLabel`, and
    // `getOther` into `setOther`. The analysis joins the rows with the
    // names that reach the call.
    let concat = "<SameNames: void main(java.lang.String[])>[255@L110] concat";
    assert_eq!(
        rows(&f, "completesMethod", concat),
        [
            format!("{concat}\t\"getLabel\"\t<SameNames$Pair: void setLabel(java.lang.String)>"),
            format!("{concat}\t\"getOther\"\t<SameNames$Pair: void setOther(java.lang.String)>"),
            format!("{concat}\t\"setLabel\"\t<SameNames$Pair: void setLabel(java.lang.String)>"),
            format!("{concat}\t\"setOther\"\t<SameNames$Pair: void setOther(java.lang.String)>"),
        ]
    );
    // A name past its first three letters, the first of them in lower
    // case (`Character.toLowerCase(name.charAt(3)) + name.substring(4)`),
    // is a property: `getLabel` (and `setLabel`) names the field `label`,
    // with no known text around it. The analysis joins the rows with the
    // names that reach the call.
    let property = "<SameNames: void main(java.lang.String[])>[452@L128] concat";
    let pair: Vec<String> = (rows(&f, "completesField", property).into_iter())
        .filter(|r| r.contains("SameNames$Pair"))
        .collect();
    assert_eq!(
        pair,
        [
            format!("{property}\t\"getLabel\"\t<SameNames$Pair: java.lang.String label>"),
            format!("{property}\t\"getOther\"\t<SameNames$Pair: java.lang.String other>"),
            format!("{property}\t\"setLabel\"\t<SameNames$Pair: java.lang.String label>"),
            format!("{property}\t\"setOther\"\t<SameNames$Pair: java.lang.String other>"),
        ]
    );
    // A handle found by a metaobject's name (`SameHandles`:
    // `findVirtual(Target.class, named.getName(), type)`) makes them too.
    let handles = reflection_classes("SameHandles");
    let f = facts_of(&[handles.path().to_path_buf()]);
    assert_eq!(
        rows(&f, "stringMethod", "\"title\""),
        ["\"title\"\t<SameHandles$Target: java.lang.String title()>"]
    );
    let beans = reflection_classes("Beans");
    let f = facts_of(&[beans.path().to_path_buf()]);
    assert!(rows(&f, "stringMethod", "putPart").is_empty());
}
