//! Relation files: .tuples, .facts/.csv and .bdd, in and out.

mod common;

use refract::bdd::sorted_tuples;
use refract::datalog::parser::parse_file;
use refract::datalog::resolve::resolve;
use refract::datalog::solver::Solver;
use std::fs;

#[test]
fn inputs_in_every_format_and_outputs_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("n.map"), "alpha\nbeta\ngamma\n").unwrap();
    fs::write(
        d.join("p.dl"),
        "N 3 n.map\nZ 5\n\
         .bddvarorder N0xN1_Z0\n\
         edge(a:N0, b:N1) input\n\
         weight(a:N0, w:Z0) inputtuples\n\
         tagged(a:N0) input\n\
         path(a:N0, b:N1) output outputtuples printsize\n\
         heavy(a:N0, w:Z0) output\n\
         path(a, b) :- edge(a, b).\n\
         path(a, c) :- path(a, b), edge(b, c).\n\
         heavy(a, w) :- weight(a, w), w >= 3, tagged(a).\n",
    )
    .unwrap();
    fs::write(d.join("edge.facts"), "alpha\tbeta\nbeta\tgamma\n").unwrap();
    fs::write(d.join("weight.tuples"), "# N0:2 Z0:3\n0 4\n1 0-2\n2 *\n").unwrap();
    fs::write(d.join("tagged.tuples"), "# N0:2\n0\n2\n").unwrap();

    let prog = resolve(&parse_file(&d.join("p.dl")).unwrap()).unwrap();
    let mut s = Solver::new(prog).unwrap();
    s.load_inputs(None).unwrap();
    s.solve().unwrap();
    let path = s.prog.relation_id("path").unwrap();
    assert_eq!(
        sorted_tuples(&s.rels[path], &s.blocks(path)),
        vec![vec![0, 1], vec![0, 2], vec![1, 2]]
    );
    let heavy = s.prog.relation_id("heavy").unwrap();
    assert_eq!(
        sorted_tuples(&s.rels[heavy], &s.blocks(heavy)),
        vec![vec![0, 4], vec![2, 3], vec![2, 4]]
    );

    let out = d.join("out");
    fs::create_dir(&out).unwrap();
    s.write_outputs(&out, true).unwrap();
    assert_eq!(
        fs::read_to_string(out.join("path.csv")).unwrap(),
        "alpha\tbeta\nalpha\tgamma\nbeta\tgamma\n"
    );
    assert_eq!(
        fs::read_to_string(out.join("path.tuples")).unwrap(),
        "# N0:2 N1:2\n0 1\n0 2\n1 2\n"
    );
    assert_eq!(
        fs::read_to_string(out.join("bddinfo")).unwrap(),
        "N\nN\nZ\nN\n"
    ); // N2: the transitive rule needs a third instance
    assert_eq!(
        fs::read_to_string(out.join("heavy.csv")).unwrap(),
        "alpha\t4\ngamma\t3\ngamma\t4\n"
    );

    // The written .bdd files load back into the same relations, from
    // JavaBDD's text and from the compact form a database stores.
    let back = s.read_bdd_file(path, &out.join("path.bdd")).unwrap();
    assert!(back.xor(&s.rels[path]).is_false());
    let back = s.read_bdd_file(heavy, &out.join("heavy.bdd")).unwrap();
    assert!(back.xor(&s.rels[heavy]).is_false());
    for rel in [path, heavy] {
        let file = out.join("compact.bdd");
        s.write_compact_bdd_file(rel, &file).unwrap();
        assert!(fs::read(&file).unwrap().starts_with(b"refract-bdd 1\n"));
        let back = s.read_bdd_file(rel, &file).unwrap();
        assert!(back.xor(&s.rels[rel]).is_false());
    }

    // Compressed tuples and maps, by their names.
    let z = d.join("z");
    fs::create_dir(&z).unwrap();
    refract::io::map::NameMap::parse("alpha\nbeta\ngamma")
        .write(&z.join("n.map.zst"))
        .unwrap();
    let mut w = refract::io::text_file::TextWriter::create(&z.join("edge.tuples.zst")).unwrap();
    w.line("# N0:2 N1:2\n0 2").unwrap();
    w.finish().unwrap();
    fs::write(z.join("p.dl"), "N 3 n.map.zst\nedge(a:N0, b:N1) input\n").unwrap();
    let prog = resolve(&parse_file(&z.join("p.dl")).unwrap()).unwrap();
    let mut s = Solver::new(prog).unwrap();
    s.load_inputs(None).unwrap();
    let edge = s.prog.relation_id("edge").unwrap();
    assert_eq!(
        sorted_tuples(&s.rels[edge], &s.blocks(edge)),
        vec![vec![0, 2]]
    );
    assert_eq!(
        s.prog.domains[0].names.as_ref().unwrap().name(2),
        Some("gamma")
    );
}

#[test]
fn damaged_inputs_are_reported_with_their_location() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("p.dl"), "N 3\nedge(a:N0, b:N1) input\n").unwrap();
    let run = || {
        let prog = resolve(&parse_file(&d.join("p.dl")).unwrap()).unwrap();
        let mut s = Solver::new(prog).unwrap();
        s.load_inputs(None).unwrap_err().to_string()
    };
    fs::write(d.join("edge.tuples"), "0 1\n2 7\n").unwrap();
    assert!(
        run().ends_with("edge.tuples: line 2: 7 is outside domain N (size 3)"),
        "{}",
        run()
    );
    fs::write(d.join("edge.tuples"), "0 1 2\n").unwrap();
    assert!(
        run().ends_with("edge.tuples: line 1: expected 2 fields, found 3"),
        "{}",
        run()
    );
    fs::write(d.join("edge.bdd"), "3 4\n0 1 2 3\n5 0 0 1\n").unwrap();
    assert!(
        run().ends_with("edge.bdd: line 1: the header promises 3 nodes but the file has 1"),
        "{}",
        run()
    );
    fs::write(d.join("edge.bdd"), "1 4\n0 1 2 3\n5 0 0 9\n").unwrap();
    assert!(
        run().ends_with("edge.bdd: node 5 refers to node 9 before defining it"),
        "{}",
        run()
    );
}

/// A bare domain means its lowest free instance wherever the order puts
/// it (`edge (a:N, b:N)` is N0, N1 even with N2 first), and `.bdd` files
/// written under such an order load back into a program with another.
#[test]
fn bare_domains_and_bdd_files_do_not_depend_on_the_variable_order() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let program = |order: &str| {
        format!(
            "N 4\n.bddvarorder {order}\n\
             edge (a:N, b:N) input\n\
             mid (m:N2) input\n\
             path (a:N, b:N) output\n\
             path(a, b) :- edge(a, b).\n\
             path(a, c) :- path(a, b), edge(b, c), mid(b).\n"
        )
    };
    fs::write(d.join("edge.tuples"), "0 1\n1 2\n2 3\n").unwrap();
    fs::write(d.join("mid.tuples"), "1\n2\n").unwrap();
    fs::write(d.join("p.dl"), program("N2_N0xN1")).unwrap();
    let prog = resolve(&parse_file(&d.join("p.dl")).unwrap()).unwrap();
    let edge = prog.relation_id("edge").unwrap();
    let names: Vec<String> = prog.relations[edge]
        .attrs
        .iter()
        .map(|a| prog.instance_name(a.domain, a.instance))
        .collect();
    assert_eq!(names, ["N0", "N1"]);
    let mut s = Solver::new(prog).unwrap();
    s.load_inputs(None).unwrap();
    s.solve().unwrap();
    let out = d.join("out");
    fs::create_dir(&out).unwrap();
    s.write_outputs(&out, false).unwrap();
    // N0 first: the k-th N in bddinfo is N k, as bddbddb reads it.
    assert_eq!(
        fs::read_to_string(out.join("bddinfo")).unwrap(),
        "N\nN\nN\n"
    );

    fs::write(d.join("q.dl"), program("N0_N1_N2")).unwrap();
    let prog = resolve(&parse_file(&d.join("q.dl")).unwrap()).unwrap();
    let t = Solver::new(prog).unwrap();
    let path = t.prog.relation_id("path").unwrap();
    let back = t.read_bdd_file(path, &out.join("path.bdd")).unwrap();
    assert_eq!(
        sorted_tuples(&back, &t.blocks(path)),
        vec![
            vec![0, 1],
            vec![0, 2],
            vec![0, 3],
            vec![1, 2],
            vec![1, 3],
            vec![2, 3]
        ]
    );
}

/// With `retire_final_relations`, a relation is freed once no stratum
/// still to run derives or reads it, and written first if it is stored:
/// the facts `edge` after `path`'s stratum, `path` after `scratch`'s;
/// `scratch`, which is not stored, is freed unwritten; `reach` and `twice`,
/// read by no later stratum or derived by the last, stay. What was
/// written reads back as the relation was.
#[test]
fn final_relations_are_written_and_freed_once_nothing_reads_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("p.dl"),
        "N 4\n\
         edge(a:N0, b:N1) inputtuples\n\
         path(a:N0, b:N1) output\n\
         scratch(a:N0, b:N1)\n\
         reach(a:N0) output\n\
         twice(a:N0) output\n\
         path(a, b) :- edge(a, b).\n\
         path(a, c) :- path(a, b), edge(b, c).\n\
         scratch(a, b) :- path(a, b), a != b.\n\
         reach(b) :- scratch(0, b).\n\
         twice(a) :- reach(a).\n",
    )
    .unwrap();
    fs::write(d.join("edge.tuples"), "0 1\n1 2\n2 3\n").unwrap();
    let prog = resolve(&parse_file(&d.join("p.dl")).unwrap()).unwrap();
    let mut s = Solver::new(prog).unwrap();
    s.load_inputs(None).unwrap();
    let out = d.join("out");
    fs::create_dir(&out).unwrap();
    let id = |s: &Solver, name: &str| s.prog.relation_id(name).unwrap();
    let stored = [
        id(&s, "edge"),
        id(&s, "path"),
        id(&s, "reach"),
        id(&s, "twice"),
    ];
    s.retire_final_relations(&out, |rel| stored.contains(&rel));
    s.solve().unwrap();
    let tuples = |s: &Solver, name: &str| {
        let rel = id(s, name);
        sorted_tuples(&s.rels[rel], &s.blocks(rel))
    };
    for name in ["edge", "path", "scratch"] {
        assert!(tuples(&s, name).is_empty(), "{name} is freed");
    }
    assert_eq!(tuples(&s, "reach"), vec![vec![1], vec![2], vec![3]]);
    assert_eq!(tuples(&s, "twice"), vec![vec![1], vec![2], vec![3]]);
    let retired: Vec<&str> = ["edge", "path", "scratch", "reach", "twice"]
        .into_iter()
        .filter(|name| s.retired(id(&s, name)))
        .collect();
    assert_eq!(retired, ["edge", "path"]);
    let mut files: Vec<String> = (fs::read_dir(&out).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["edge.bdd", "path.bdd"]);
    let read = |name: &str| {
        let rel = id(&s, name);
        let bdd = s
            .read_bdd_file(rel, &out.join(format!("{name}.bdd")))
            .unwrap();
        sorted_tuples(&bdd, &s.blocks(rel))
    };
    assert_eq!(read("edge"), vec![vec![0, 1], vec![1, 2], vec![2, 3]]);
    let path = read("path");
    assert_eq!(path.len(), 6);
    assert!(path.contains(&vec![0, 3]));
}
