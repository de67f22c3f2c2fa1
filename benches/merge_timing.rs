//! Times merging a small set of new tuples into a large relation, as each
//! semi-naive iteration does: `vP` of a solved database cut into parts,
//! the last part merged into the union of the others, by `bdd::or`
//! (which merges into the large operand) and by biodivine's `or`; and the
//! last part checked against the others and against the whole relation
//! by `bdd::and_not` and by biodivine's.
//! `cargo bench --bench merge_timing -- DB [RELATION] [PARTS]
//! [RATIO]` (the small side grows to 1/RATIO of the relation).
use refract::bdd::{self, partition};
use refract::database::Database;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let dir = args
        .next()
        .ok_or("usage: merge_timing DB [RELATION] [PARTS]")?;
    let name = args.next().unwrap_or_else(|| "vP".to_string());
    let parts: usize = args.next().map_or(Ok(32), |s| s.parse())?;
    let mut db = Database::open(std::path::Path::new(&dir))?;
    let rel = db.relation(&name)?.clone();
    // The small side: the smallest parts, until it is at least 1/RATIO of
    // the relation's size.
    let ratio: usize = args.next().map_or(Ok(usize::MAX), |s| s.parse())?;
    let mut cut = partition(&rel, parts, 1);
    cut.sort_by_key(|p| p.size());
    let mut small = cut.remove(0);
    while small.size().saturating_mul(ratio) < rel.size() && cut.len() > 1 {
        small = bdd::or(&small, &cut.remove(0));
    }
    let big = cut
        .iter()
        .fold(refract::bdd::mk_false(rel.num_vars()), |a, b| {
            bdd::or(&a, b)
        });
    println!(
        "{name}: {}n = {}n + {}n",
        rel.size(),
        big.size(),
        small.size()
    );
    for _ in 0..3 {
        // New tuples checked against what is known: none known, all known.
        for (label, known) in [("new", &big), ("known", &rel)] {
            let t = Instant::now();
            let ours = bdd::and_not(&small, known);
            let ours_t = t.elapsed();
            let t = Instant::now();
            let theirs = small.and_not(known);
            let theirs_t = t.elapsed();
            assert!(ours.xor(&theirs).is_false());
            println!(
                "bdd::and_not ({label}) {:.1} ms, biodivine {:.1} ms ({}n)",
                ours_t.as_secs_f64() * 1e3,
                theirs_t.as_secs_f64() * 1e3,
                ours.size()
            );
        }
        let t = Instant::now();
        let ours = bdd::or(&big, &small);
        let ours_t = t.elapsed();
        let t = Instant::now();
        let theirs = big.or(&small);
        let theirs_t = t.elapsed();
        assert!(ours.xor(&theirs).is_false());
        println!(
            "bdd::or {:.1} ms, biodivine {:.1} ms ({}n)",
            ours_t.as_secs_f64() * 1e3,
            theirs_t.as_secs_f64() * 1e3,
            ours.size()
        );
    }
    Ok(())
}
