//! Every class of user error gets a clear message with file:line:column,
//! never a panic.

mod common;

use common::error_of;
use refract::datalog::ErrorKind;

const HEADER: &str = "V 4\nH 3\nvP(v:V0, h:H0)\nA(a:V0, b:V1)\n";

fn err(body: &str) -> (ErrorKind, String) {
    let e = error_of(&format!("{HEADER}{body}"));
    (e.kind, e.to_string())
}

#[test]
fn syntax_error() {
    assert_eq!(
        err("A(x, y) :- A(x, y) A(y, x).\n"),
        (
            ErrorKind::Syntax,
            "test.dl:5:20: expected ',' or '.', found 'A'".to_string()
        )
    );
    assert_eq!(err("A(x, y :- A(x, y).\n").0, ErrorKind::Syntax);
    assert_eq!(
        err("A(x, y) :- A(x, y) & A(y, x).\n").1,
        "test.dl:5:20: unexpected character '&'"
    );
}

#[test]
fn unknown_relation_and_domain() {
    assert_eq!(
        err("A(x, y) :- B(x, y).\n").1,
        "test.dl:5:12: unknown relation B"
    );
    // Near names are suggested; the declared ones are not all listed.
    assert_eq!(
        err("A(x, y) :- a(x, y).\n").1,
        "test.dl:5:12: unknown relation a (did you mean A?)"
    );
    assert_eq!(err("B(x:W0)\n").1, "test.dl:5:3: unknown domain 'W0'");
    assert_eq!(
        err("B(x:v0)\n").1,
        "test.dl:5:3: unknown domain 'v0' (did you mean V?)"
    );
}

#[test]
fn arity_and_domain_mismatch() {
    assert_eq!(
        err("A(x, y) :- A(x).\n").1,
        "test.dl:5:12: A has 2 attributes but 1 arguments are given"
    );
    assert_eq!(
        err("A(x, y) :- A(x, y), vP(y, x).\n").1,
        "test.dl:5:27: variable x is used in domain H here but in domain V elsewhere in the rule"
    );
}

#[test]
fn unsafe_rules() {
    assert_eq!(
        err("A(x, z) :- A(x, y).\n"),
        (ErrorKind::Unsafe, "test.dl:5:6: unsafe rule: head variable z does not appear in a positive subgoal of the body".to_string())
    );
    assert_eq!(err("A(x, x) :- A(x, _), !A(x, z).\n").0, ErrorKind::Unsafe);
}

#[test]
fn unstratifiable_negation() {
    let (k, m) = err("B(a:V0)\nC(a:V0)\nB(x) :- A(x, _), !C(x).\nC(x) :- A(x, _), !B(x).\n");
    assert_eq!(k, ErrorKind::Unstratifiable);
    assert!(
        m.starts_with("test.dl:7:19: negation cannot be stratified"),
        "{m}"
    );
}

#[test]
fn constants_missing_or_out_of_domain() {
    assert_eq!(
        err("A(x, 4) :- A(x, _).\n"),
        (
            ErrorKind::OutOfDomain,
            "test.dl:5:6: 4 is outside domain V (size 4)".to_string()
        )
    );
    let (k, m) = err("vP(x, \"o\") :- A(x, _).\n");
    assert_eq!(k, ErrorKind::MissingConstant);
    assert_eq!(
        m,
        "test.dl:5:7: \"o\" cannot be resolved in domain H: it has no map file"
    );
    // A map file that does not exist is an error where it is declared.
    let e = error_of("V 4\nH 3 h.map\n");
    assert_eq!(e.kind, ErrorKind::Io);
    assert_eq!(
        e.to_string(),
        "test.dl:2:1: the map file ./h.map of domain H does not exist"
    );
    let (k, m) = err("vP(x, \"o\") :- A(x, \"p\").\n");
    assert_eq!(k, ErrorKind::MissingConstant);
    assert_eq!(
        m,
        "test.dl:5:20: \"p\" cannot be resolved in domain V: it has no map file"
    );
}

#[test]
fn of_several_missing_inputs_the_first_declared_is_reported() {
    // The inputs are read in parallel; the report must not depend on
    // which thread failed first.
    let body = "Z1(a:V0) input\nZ2(a:V0) input\nZ3(a:V0) input\nZ4(a:V0) input\n";
    for _ in 0..20 {
        let (k, m) = err(body);
        assert_eq!(k, ErrorKind::Io);
        assert!(
            m.starts_with("test.dl:5:1: input relation Z1 has no data file"),
            "{m}"
        );
    }
}

#[test]
fn missing_input_file() {
    let (k, m) = err("Z(a:V0) input\n");
    assert_eq!(k, ErrorKind::Io);
    assert!(
        m.starts_with("test.dl:5:1: input relation Z has no data file"),
        "{m}"
    );
}
