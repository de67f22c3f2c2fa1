//! Times merging a small set of new tuples into a large relation, as each
//! semi-naive iteration does: `vP` of a solved database cut into parts,
//! the last part merged into the union of the others, by `apply::or`
//! (which merges into the large operand) and by biodivine's `or`.
//! `cargo run --release --example merge_timing -- DB [RELATION] [PARTS]`
use refract::bdd::apply;
use refract::bdd::partition::partition;
use refract::database::Database;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .ok_or("usage: merge_timing DB [RELATION] [PARTS]")?;
    let name = args.next().unwrap_or_else(|| "vP".to_string());
    let parts: usize = args.next().map_or(Ok(32), |s| s.parse())?;
    let mut db = Database::open(std::path::Path::new(&dir))?;
    let rel = db.relation(&name)?.clone();
    let mut cut = partition(&rel, parts, 1);
    cut.sort_by_key(|p| p.size());
    let small = cut.remove(0);
    let big = cut.iter().fold(
        refract::bdd::node_builder::mk_false(rel.num_vars()),
        |a, b| apply::or(&a, b),
    );
    println!(
        "{name}: {}n = {}n + {}n",
        rel.size(),
        big.size(),
        small.size()
    );
    for _ in 0..3 {
        let t = Instant::now();
        let ours = apply::or(&big, &small);
        let ours_t = t.elapsed();
        let t = Instant::now();
        let theirs = big.or(&small);
        let theirs_t = t.elapsed();
        assert!(ours.xor(&theirs).is_false());
        println!(
            "apply::or {:.1} ms, biodivine {:.1} ms ({}n)",
            ours_t.as_secs_f64() * 1e3,
            theirs_t.as_secs_f64() * 1e3,
            ours.size()
        );
    }
    Ok(())
}
