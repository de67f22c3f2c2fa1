//! Removing the variables that only copy another.
//!
//! The translation gives every reference slot of a merge block a φ
//! variable before it knows what reaches the block (loop headers are
//! translated before their back edges), and every stored local a variable
//! of its own, copied from the stack value stored. Many of them hold
//! exactly one other variable's objects: a local that a loop never writes
//! has a φ at the loop header fed by its value before the loop and by the
//! φ itself along the back edge; `astore` copies a value into a variable
//! of the same type. Such a variable — defined only by copies from exactly
//! one variable other than itself — is replaced by its source everywhere
//! (Braun et al., "Simple and Efficient Construction of Static Single
//! Assignment Form", CC 2013, remove trivial φs the same way). Replacing
//! one can make another trivial (φ1 = φ2, φ2 = x), so the check runs to a
//! fixpoint.
//!
//! This is exact for the points-to analysis as long as the candidate's
//! type admits everything its source holds: φs are typed
//! `java.lang.Object` and stored locals take the type of the value
//! stored. Exception φs (the handler's caught value) filter the thrown
//! objects by the handler's type and are not candidates. For java.base,
//! the pass removes 69% of the copies (386,625 -> 118,706) and 29% of the
//! variables (707,718 -> 500,923), copies the points-to analysis no
//! longer propagates along.
//!
//! A stack value that replaces a stored local's variable takes the
//! local's name (`l1@8` rather than `s@7`), the name a reader looks for.

use super::{MethodIr, Stmt, Var};
use fxhash::{FxHashMap, FxHashSet};

/// Replaces each trivial copy among `candidates` (variables defined only
/// by [`Stmt::Assign`], whose type admits their sources') by its single
/// source, drops the copies that become `v = v` or repeat, and renumbers
/// the remaining variables densely (in their original order).
pub fn remove_trivial(ir: &mut MethodIr, candidates: &[Var]) {
    if candidates.is_empty() {
        return;
    }
    let mut sources: FxHashMap<Var, Vec<Var>> = FxHashMap::default();
    let is_candidate: FxHashSet<Var> = candidates.iter().copied().collect();
    for s in &ir.stmts {
        if let Stmt::Assign { dst, src } = s {
            if is_candidate.contains(dst) {
                sources.entry(*dst).or_default().push(*src);
            }
        }
    }
    // rep[v]: what v stands for (a chain ending at a variable that stays).
    let mut rep: Vec<Var> = (0..ir.vars.len() as Var).collect();
    let find = |rep: &mut Vec<Var>, mut v: Var| {
        let mut root = v;
        while rep[root as usize] != root {
            root = rep[root as usize];
        }
        while rep[v as usize] != root {
            let next = rep[v as usize];
            rep[v as usize] = root;
            v = next;
        }
        root
    };
    // A worklist: when a candidate is replaced, the candidates it feeds
    // (and those fed by what was replaced by it) are checked again, so a
    // chain of φs costs its length, not its length squared.
    let mut users: FxHashMap<Var, Vec<Var>> = FxHashMap::default();
    for (&p, srcs) in &sources {
        for &s in srcs {
            users.entry(s).or_default().push(p);
        }
    }
    let mut work: Vec<Var> = candidates.iter().rev().copied().collect();
    while let Some(p) = work.pop() {
        if find(&mut rep, p) != p {
            continue;
        }
        let mut single = None;
        let mut trivial = true;
        for &s in sources.get(&p).map_or(&[][..], Vec::as_slice) {
            let s = find(&mut rep, s);
            if s == p || single == Some(s) {
                continue;
            }
            if single.is_some() {
                trivial = false;
                break;
            }
            single = Some(s);
        }
        if let (true, Some(s)) = (trivial, single) {
            rep[p as usize] = s;
            let fed = users.remove(&p).unwrap_or_default();
            work.extend(fed.iter().copied());
            users.entry(s).or_default().extend(fed);
        }
    }
    let removed = (0..ir.vars.len() as Var)
        .filter(|&v| find(&mut rep, v) != v)
        .count();
    if removed == 0 {
        return;
    }

    // A stack value takes the name of the first local stored from it.
    for &c in candidates {
        let r = find(&mut rep, c);
        if r != c
            && ir.vars[r as usize].name.starts_with("s@")
            && ir.vars[c as usize].name.starts_with('l')
        {
            ir.vars[r as usize].name = ir.vars[c as usize].name.clone();
        }
    }
    // Dense numbering of the variables that stay.
    let mut new_number = vec![0 as Var; ir.vars.len()];
    let mut kept = Vec::with_capacity(ir.vars.len() - removed);
    for (v, info) in std::mem::take(&mut ir.vars).into_iter().enumerate() {
        if rep[v] == v as Var {
            new_number[v] = kept.len() as Var;
            kept.push(info);
        }
    }
    ir.vars = kept;
    let mut map = |v: &mut Var| *v = new_number[find(&mut rep, *v) as usize];

    let mut copies = FxHashSet::default();
    ir.stmts.retain_mut(|s| {
        s.for_each_var_mut(&mut map);
        match s {
            Stmt::Assign { dst, src } => dst != src && copies.insert((*dst, *src)),
            _ => true,
        }
    });
    for p in ir.params.iter_mut().flatten() {
        map(p);
    }
    for (_, g) in ir.call_guards.iter_mut() {
        map(g);
    }
    for a in ir.null_elements.iter_mut() {
        map(a);
    }
    for (_, _, c) in ir.letter_args.iter_mut() {
        map(&mut c.source);
    }
    for p in ir.string_pieces.iter_mut() {
        map(&mut p.piece);
        map(&mut p.source);
    }
    if let Some(r) = &mut ir.ret {
        map(r);
    }
    map(&mut ir.thrown);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ir_with(vars: &[&str], stmts: Vec<Stmt>) -> MethodIr {
        let mut ir = MethodIr::default();
        for v in vars {
            ir.new_var(*v, "java.lang.Object");
        }
        ir.stmts = stmts;
        ir
    }

    fn assign(dst: Var, src: Var) -> Stmt {
        Stmt::Assign { dst, src }
    }

    fn names_of(ir: &MethodIr) -> Vec<&str> {
        ir.vars.iter().map(|v| v.name.as_str()).collect()
    }

    #[test]
    fn a_loop_invariant_local_is_its_value_before_the_loop() {
        // x; loop: phi = x, phi = phi (back edge, not emitted), ret = phi.
        let mut ir = ir_with(&["x", "phi", "ret"], vec![assign(1, 0), assign(2, 1)]);
        ir.ret = Some(2);
        remove_trivial(&mut ir, &[1]);
        assert_eq!(names_of(&ir), ["x", "ret"]);
        assert_eq!(ir.stmts, vec![assign(1, 0)]);
        assert_eq!(ir.ret, Some(1));
    }

    #[test]
    fn nested_loop_phis_collapse_through_each_other() {
        // phi1 = x, phi1 = phi2; phi2 = phi1: both are x.
        let mut ir = ir_with(
            &["x", "phi1", "phi2", "y"],
            vec![assign(1, 0), assign(1, 2), assign(2, 1), assign(3, 2)],
        );
        remove_trivial(&mut ir, &[1, 2]);
        assert_eq!(names_of(&ir), ["x", "y"]);
        assert_eq!(ir.stmts, vec![assign(1, 0)]);
    }

    #[test]
    fn a_stored_local_is_the_value_stored_under_the_locals_name() {
        // s@3 = new; l1@4 = s@3; l2@5 = s@3; y = l1@4.
        let mut ir = ir_with(
            &["s@3", "l1@4", "l2@5", "y"],
            vec![assign(1, 0), assign(2, 0), assign(3, 1)],
        );
        remove_trivial(&mut ir, &[1, 2]);
        assert_eq!(names_of(&ir), ["l1@4", "y"]);
        assert_eq!(ir.stmts, vec![assign(1, 0)]);
    }

    #[test]
    fn a_long_chain_collapses_in_one_pass() {
        // phi_i = phi_{i+1} (i < n), phi_n = x: every φ is x.
        let n = 2000;
        let mut names = vec!["x".to_string()];
        names.extend((1..=n).map(|i| format!("phi{i}")));
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut stmts: Vec<Stmt> = (1..n).map(|i| assign(i, i + 1)).collect();
        stmts.push(assign(n, 0));
        let mut ir = ir_with(&refs, stmts);
        let candidates: Vec<Var> = (1..=n).collect();
        remove_trivial(&mut ir, &candidates);
        assert_eq!(names_of(&ir), ["x"]);
        assert!(ir.stmts.is_empty());
    }

    #[test]
    fn a_real_merge_stays() {
        let mut ir = ir_with(
            &["a", "b", "phi", "y"],
            vec![assign(2, 0), assign(2, 1), assign(3, 2)],
        );
        let before = ir.clone();
        remove_trivial(&mut ir, &[2]);
        assert_eq!(ir, before);
    }

    #[test]
    fn a_merge_of_a_value_and_a_trivial_phi_of_the_same_value_is_trivial() {
        // phi1 = a; phi2 = a, phi2 = phi1: both are a.
        let mut ir = ir_with(
            &["a", "phi1", "phi2"],
            vec![assign(1, 0), assign(2, 0), assign(2, 1)],
        );
        remove_trivial(&mut ir, &[1, 2]);
        assert_eq!(names_of(&ir), ["a"]);
        assert!(ir.stmts.is_empty());
    }
}
