//! The heap abstraction: which allocation sites are one object.
//!
//! Each allocation site is an object of its own, as in Doop, Tai-e and
//! bddbddb, except for the groups that this module merges into one:
//!
//! - the string constants and concatenations that name nothing
//!   ([`super::strings::unnamed_strings`]);
//! - the rows of a JDK method's table of data ([`table_rows`]): the
//!   arrays of one type that one method allocates more than
//!   [`TABLE_ROWS`] times, such as the `new Object[] {key, value}` pairs
//!   of a locale's `getContents()`.
//!
//! Merging is done on the facts, before any relation is encoded, so that
//! the heap domain shrinks with it: the merged sites never reach a
//! relation.

use super::extract::{FactsBuilder, R};
use super::schema::RELATIONS;
use fxhash::{FxHashMap, FxHashSet};

/// The widest input relation (checked by a test).
const MAX_ARITY: usize = 8;

/// What the heap abstraction merges beyond the strings that name nothing.
#[derive(Clone, Debug)]
pub struct HeapOptions {
    /// Whether the rows of the JDK's tables of data are one object per
    /// table ([`table_rows`]).
    pub merge_tables: bool,
}

impl Default for HeapOptions {
    fn default() -> Self {
        HeapOptions { merge_tables: true }
    }
}

/// Merges the strings that name nothing and the groups of allocation
/// sites that `opts` asks for, renumbering the heap domain densely (the
/// last step of [`super::generate`], once every relation is built).
pub fn abstract_heap(b: &mut FactsBuilder, opts: &HeapOptions) {
    let mut groups = super::strings::unnamed_strings(b);
    if opts.merge_tables {
        let tables = table_rows(b);
        b.stats.tables = (tables.len(), tables.iter().map(|(g, _)| g.len()).sum());
        groups.extend(tables);
    }
    merge_heaps(b, groups);
}

/// The least number of arrays of one type above which a JDK method's
/// allocations of them are one object.
pub const TABLE_ROWS: usize = 64;

/// The tables of data of the JDK: for each JDK method that allocates
/// more than [`TABLE_ROWS`] arrays of one type, those allocation sites,
/// with the name of the one object they become
/// (`<method>[table of N] new T`).
///
/// The JDK's locale data are such tables: each `getContents()` of
/// `sun.util.resources.cldr.ext.LocaleNames_sv` and its hundreds of
/// siblings returns an `Object[][]` of a thousand `new Object[] {key,
/// value}` rows, which a program that formats anything reaches through
/// `LocaleDataProvider`'s reflection. Site by site they were 397,629 of
/// the 444,601 objects that the README's quick start (Invoke against JDK
/// 17, `casts`) allocated in reachable methods, each one pointed to by
/// its own variable: a pair that a BDD cannot share with any other. The
/// bundle's lookup keeps no row apart (`OpenListResourceBundle` puts
/// every row's key and value in one map), so one object per table loses
/// nothing there. Measured on that run (2-core Xeon, same exported
/// targets and reached methods): in one traced run each, `vP` 3.04 M
/// nodes became 1.33 M, `hP` 1.85 M became 0.82 M, and the solve's main
/// stratum took 86 s instead of 107 s; in two alternating pairs
/// (`scripts/bench-compare.sh`), the whole run took 128.7 s instead of
/// 167.7 s (medians), with a peak of 3.2 GB instead of 5.3 GB.
///
/// The application's methods keep one object per site: a method that
/// builds many `Class[]` or `Object[]` arrays for reflective calls needs
/// them apart. Only arrays are merged: the rows hold data, where objects
/// of other types (an enum's constants) dispatch.
pub fn table_rows(b: &FactsBuilder) -> Vec<(Vec<u32>, String)> {
    let array_types: FxHashSet<u32> = (b.rels[R::ComponentType as usize].chunks(2))
        .map(|t| t[0])
        .collect();
    let array_type: FxHashMap<u32, u32> = (b.rels[R::HT as usize].chunks(2))
        .filter(|t| array_types.contains(&t[1]))
        .map(|t| (t[0], t[1]))
        .collect();
    let mut sites: FxHashMap<(u32, u32), Vec<u32>> = FxHashMap::default();
    for t in b.rels[R::MH as usize].chunks(2) {
        let (m, h) = (t[0], t[1]);
        if let (false, Some(&ty)) = (b.is_application_method(m), array_type.get(&h)) {
            sites.entry((m, ty)).or_default().push(h);
        }
    }
    let mut tables: Vec<(Vec<u32>, String)> = sites
        .into_iter()
        .filter(|(_, hs)| hs.len() > TABLE_ROWS)
        .map(|((m, ty), hs)| {
            let name = format!(
                "{}[table of {}] new {}",
                b.methods.name(m),
                hs.len(),
                b.types.name(ty)
            );
            (hs, name)
        })
        .collect();
    tables.sort_unstable();
    tables
}

/// Merges each group of heap objects into its first (lowest) object,
/// renamed as given, and renumbers the heap domain densely in every
/// relation.
pub(super) fn merge_heaps(b: &mut FactsBuilder, groups: Vec<(Vec<u32>, String)>) {
    let mut is_merged = vec![false; b.heaps.len()];
    let mut is_representative = vec![false; b.heaps.len()];
    let mut representatives = Vec::new();
    for (mut group, name) in groups {
        if group.len() < 2 {
            continue;
        }
        group.sort_unstable();
        is_representative[group[0] as usize] = true;
        for &h in &group[1..] {
            is_merged[h as usize] = true;
        }
        representatives.push((group, name));
    }
    if representatives.is_empty() {
        return;
    }
    let mut new_id = vec![0u32; b.heaps.len()];
    let mut next = 0u32;
    for (h, id) in new_id.iter_mut().enumerate() {
        if !is_merged[h] {
            *id = next;
            next += 1;
        }
    }
    for (group, _) in &representatives {
        let merged_id = new_id[group[0] as usize];
        for &h in &group[1..] {
            new_id[h as usize] = merged_id;
        }
    }
    let heaps = std::mem::take(&mut b.heaps);
    b.heaps = heaps
        .into_iter()
        .enumerate()
        .filter(|&(h, _)| !is_merged[h])
        .map(|(_, name)| name)
        .collect();
    for (group, name) in &representatives {
        b.heaps[new_id[group[0] as usize] as usize] = name.clone();
    }
    let exceptions = b.exception_heaps.values_mut().flatten();
    for h in (b
        .string_heaps
        .values_mut()
        .chain(b.class_heaps.values_mut()))
    .chain(exceptions)
    .chain(b.concat_heaps.iter_mut())
    .chain(b.bundle_files.iter_mut().map(|(_, _, h)| h))
    {
        *h = new_id[*h as usize];
    }
    for (schema, tuples) in RELATIONS.iter().zip(b.rels.iter_mut()) {
        let heap_columns: Vec<usize> = (schema.attrs.iter().enumerate())
            .filter(|(_, (_, d))| *d == "H")
            .map(|(k, _)| k)
            .collect();
        if heap_columns.is_empty() {
            continue;
        }
        let arity = schema.attrs.len();
        let mut seen: FxHashSet<[u32; MAX_ARITY]> = FxHashSet::default();
        let mut kept = Vec::with_capacity(tuples.len());
        for t in tuples.chunks(arity) {
            let mut buf = [0u32; MAX_ARITY];
            buf[..arity].copy_from_slice(t);
            let mut touched = false;
            for &k in &heap_columns {
                let h = buf[k] as usize;
                touched |= is_merged[h] || is_representative[h];
                buf[k] = new_id[h];
            }
            // Only tuples of the merged objects can repeat.
            if !touched || seen.insert(buf) {
                kept.extend_from_slice(&buf[..arity]);
            }
        }
        *tuples = kept;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_relation_fits_the_tuple_buffer() {
        assert!(RELATIONS.iter().all(|r| r.attrs.len() <= MAX_ARITY));
    }

    /// Allocates `n` objects of `ty` in `m`, each with a variable of its
    /// own pointing to it; returns the objects.
    fn allocate(b: &mut FactsBuilder, m: u32, ty: u32, n: usize) -> Vec<u32> {
        (0..n)
            .map(|k| {
                let h = b.heaps.len() as u32;
                let name = format!("{}[{k}@L1] new {}", b.methods.name(m), b.types.name(ty));
                b.heaps.push(name);
                b.add(R::MH, &[m, h]);
                b.add(R::HT, &[h, ty]);
                b.add(R::VP0, &[h, h]);
                h
            })
            .collect()
    }

    /// A JDK method with 65 `Object[]` rows, 64 `String[]` rows and 65
    /// `Thread`s, and an application method with 65 `Object[]` rows.
    fn tables() -> (FactsBuilder, [Vec<u32>; 4]) {
        let mut b = FactsBuilder::new();
        let jdk = b.methods.intern("<a.Table: void <clinit>()>");
        let app = b
            .methods
            .intern("<app.Main: void main(java.lang.String[])>");
        b.add_application_method(app);
        let object = b.types.intern("java.lang.Object");
        let string = b.types.intern("java.lang.String");
        let thread = b.types.intern("java.lang.Thread");
        let objects = b.types.intern("java.lang.Object[]");
        let strings = b.types.intern("java.lang.String[]");
        b.add(R::ComponentType, &[objects, object]);
        b.add(R::ComponentType, &[strings, string]);
        let rows = allocate(&mut b, jdk, objects, 65);
        let names = allocate(&mut b, jdk, strings, 64);
        let threads = allocate(&mut b, jdk, thread, 65);
        let own = allocate(&mut b, app, objects, 65);
        (b, [rows, names, threads, own])
    }

    #[test]
    fn a_jdk_method_with_more_than_64_arrays_of_a_type_allocates_one() {
        let (b, [rows, ..]) = tables();
        assert_eq!(
            table_rows(&b),
            vec![(
                rows,
                "<a.Table: void <clinit>()>[table of 65] new java.lang.Object[]".to_string()
            )]
        );
    }

    #[test]
    fn merged_rows_are_one_object_in_every_relation() {
        let (mut b, [rows, names, threads, own]) = tables();
        let before = b.heaps.len();
        let types_before = b.rels[R::HT as usize].len() / 2;
        abstract_heap(&mut b, &HeapOptions::default());
        assert_eq!(b.stats.tables, (1, 65));
        assert_eq!(b.heaps.len(), before - 64);
        // The table is its first row; every later object moves down by 64.
        let table = rows[0];
        assert_eq!(
            b.heaps[table as usize],
            "<a.Table: void <clinit>()>[table of 65] new java.lang.Object[]"
        );
        let vp0: Vec<&[u32]> = b.rels[R::VP0 as usize].chunks(2).collect();
        for (v, _) in rows.iter().enumerate() {
            assert!(vp0.contains(&&[rows[v], table][..]));
        }
        for h in names.iter().chain(&threads).chain(&own) {
            assert!(vp0.contains(&&[*h, h - 64][..]), "{h}");
        }
        let ht = &b.rels[R::HT as usize];
        assert_eq!(
            ht.len() / 2,
            types_before - 64,
            "one hT tuple for the table"
        );
    }

    #[test]
    fn without_merge_tables_every_row_stays() {
        let (mut b, _) = tables();
        let before = b.heaps.len();
        abstract_heap(
            &mut b,
            &HeapOptions {
                merge_tables: false,
            },
        );
        assert_eq!(b.heaps.len(), before);
        assert_eq!(b.stats.tables, (0, 0));
    }
}
