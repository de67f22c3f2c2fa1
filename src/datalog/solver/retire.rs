//! Relations freed during the solve, once final and read by no stratum
//! still to run.
//!
//! A relation is final once the stratum that derives it has run (facts
//! are final from the start), and no longer needed once the last stratum
//! that reads it has run. The analysis of a program against the whole JDK
//! held such relations to the end: those that only the strata before the
//! main one read (`mI`, `Iret`, `methodSig`, ...) were 10.7 million nodes,
//! about 130 MB, while the main stratum ran to the run's peak (the quick
//! start, `casts`: 10,667,521 nodes freed before it, then 62.2 million as
//! it ends). A relation that the database stores is written first, where
//! the database would write it at the end.

use super::Solver;
use crate::bdd::mk_false;
use crate::datalog::error::Result;
use crate::datalog::program::RelId;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// What [`Solver::retire_final_relations`] asked for, and what the solve
/// did so far.
#[derive(Debug)]
pub(super) struct Retiring {
    /// Where the relations to store are written, as `NAME.bdd`.
    dir: PathBuf,
    /// Per relation: whether it is stored (written before it is freed).
    store: Vec<bool>,
    /// Per relation: whether it was freed.
    freed: Vec<bool>,
}

impl Solver {
    /// Frees each relation during the solve once no stratum still to run
    /// derives or reads it; those for which `store` holds are first
    /// written to `dir` as `NAME.bdd`, in the compact format
    /// ([`Self::write_compact_bdd_file`]). After the solve the freed
    /// relations are empty, and [`Self::retired`] tells which were
    /// written.
    pub fn retire_final_relations(&mut self, dir: &Path, store: impl Fn(RelId) -> bool) {
        let n = self.prog.relations.len();
        self.retiring = Some(Retiring {
            dir: dir.to_path_buf(),
            store: (0..n).map(store).collect(),
            freed: vec![false; n],
        });
    }

    /// Whether the solve wrote relation `rel` to the directory that
    /// [`Self::retire_final_relations`] named, and then freed it.
    pub fn retired(&self, rel: RelId) -> bool {
        (self.retiring.as_ref()).is_some_and(|r| r.freed[rel] && r.store[rel])
    }

    /// Before stratum `next` runs: frees the relations that no stratum
    /// from `next` on derives (`derived_in`) or reads (`last_read`),
    /// writing those to store first.
    pub(super) fn retire_before(
        &mut self,
        next: usize,
        derived_in: &[Option<usize>],
        last_read: &[Option<usize>],
    ) -> Result<()> {
        let Some(retiring) = &self.retiring else {
            return Ok(());
        };
        let done = |at: Option<usize>| at.is_none_or(|s| s < next);
        // An empty relation has nothing to free; written at the end, if
        // stored.
        let due: Vec<RelId> = (0..self.rels.len())
            .filter(|&rel| !retiring.freed[rel] && done(derived_in[rel]) && done(last_read[rel]))
            .filter(|&rel| !self.rels[rel].is_false())
            .collect();
        if due.is_empty() {
            return Ok(());
        }
        // Side by side, as the database writes its relations at the end.
        let stored: Vec<RelId> = due.iter().copied().filter(|&r| retiring.store[r]).collect();
        stored.par_iter().try_for_each(|&rel| {
            let name = &self.prog.relations[rel].name;
            self.write_compact_bdd_file(rel, &retiring.dir.join(format!("{name}.bdd")))
        })?;
        let nodes: usize = due.iter().map(|&rel| self.rels[rel].size()).sum();
        let nv = self.layout.num_vars();
        for &rel in &due {
            self.rels[rel] = mk_false(nv);
        }
        if let Some(retiring) = &mut self.retiring {
            due.iter().for_each(|&rel| retiring.freed[rel] = true);
        }
        if crate::trace::enabled() {
            eprintln!(
                "[trace] freed {} final relations ({nodes}n), {} of them stored",
                due.len(),
                stored.len()
            );
        }
        Ok(())
    }

    /// For each relation, the stratum (by index) that derives it, if any.
    pub(super) fn deriving_strata(&self) -> Vec<Option<usize>> {
        let mut derived = vec![None; self.prog.relations.len()];
        for (si, st) in self.strata.iter().enumerate() {
            for &r in &st.relations {
                derived[r] = Some(si);
            }
        }
        derived
    }
}
