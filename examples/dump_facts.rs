//! Prints named tuples of relations for a class path (no JDK):
//! `cargo run --example dump_facts -- CLASSPATH REL...`
use refract::classpath::ClassPath;
use refract::facts::{generate, write::named_tuples};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: dump_facts CLASSPATH REL...");
        std::process::exit(2);
    };
    let mut cp = ClassPath::default();
    cp.push_application(path);
    let facts = generate(&cp, &|_| {});
    for p in &facts.problems {
        eprintln!("problem: {p}");
    }
    for rel in args {
        println!("== {rel}");
        for t in named_tuples(&facts.builder, &rel) {
            println!("{t}");
        }
    }
}
