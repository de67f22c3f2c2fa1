//! Fact generation: from a class path to the input relations of the
//! program database.
//!
//! [`generate`] reads the class path, parses every class (in parallel),
//! declares them all ([`extract::FactsBuilder::declare_class`]), lowers
//! method bodies to IR in parallel batches and emits their tuples, and
//! finally adds the global relations (subtyping, dispatch, strings that
//! name program elements), and last merges the allocation sites that the
//! heap abstraction makes one object ([`heap_abstraction`]). [`write`]
//! saves the result as a database directory the engine loads.

pub mod extract;
pub mod heap_abstraction;
pub mod hierarchy;
pub mod intern;
pub mod locale_variants;
pub mod partial_names;
pub mod reflection_api;
pub mod schema;
pub mod strings;
pub mod write;

use crate::classfile::descriptor::method_desc;
use crate::classfile::model::{access, read_class, ClassInfo, ModuleDecl};
use crate::classpath::{ClassPath, LoadProblem};
use crate::ir::lower::lower_method;
use crate::ir::parameter_fields::split_parameter_fields;
use crate::ir::returned_parameters::split_returned_parameters;
use crate::ir::string_builders::builder_concats;
use crate::ir::MethodIr;
use crate::models::{containers, natives};
use extract::FactsBuilder;
use fxhash::FxHashMap;
pub use heap_abstraction::HeapOptions;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Progress of a long run, for a progress bar.
#[derive(Clone, Copy, Debug)]
pub enum Progress {
    /// Class files read from the class path.
    Read(usize),
    /// Classes translated so far, of the total.
    Translated(usize, usize),
}

/// The outcome of fact generation.
pub struct ProgramFacts {
    /// The domains and relations.
    pub builder: FactsBuilder,
    /// Classes or methods that could not be read; each was skipped.
    pub problems: Vec<LoadProblem>,
    /// Class files defining a class already defined earlier on the path.
    pub duplicates: usize,
    /// `module-info` classes (they declare no type).
    pub module_infos: usize,
}

/// How many classes to lower in parallel before emitting their tuples.
const BATCH: usize = 512;

/// What the front end does beyond translating the bytecode.
#[derive(Clone, Debug)]
pub struct FactsOptions {
    /// The heap abstraction.
    pub heap: HeapOptions,
    /// Whether the JDK's collections are modelled
    /// ([`crate::models::containers`]; `--no-model containers`).
    pub containers: bool,
    /// Whether the JDK's natives get the bodies of
    /// [`crate::models::natives`] (`--no-model natives`).
    pub natives: bool,
}

impl Default for FactsOptions {
    fn default() -> Self {
        FactsOptions {
            heap: HeapOptions::default(),
            containers: true,
            natives: true,
        }
    }
}

impl FactsOptions {
    /// The default models with those named switched off (`--no-model`
    /// names; the names of other layers' models are left to them).
    pub fn without_models(heap: HeapOptions, off: &[String]) -> Self {
        let mut opts = FactsOptions {
            heap,
            ..FactsOptions::default()
        };
        for (name, on) in opts.switches() {
            *on = !off.iter().any(|o| o == name);
        }
        opts
    }

    /// The front end's models switched off, by their `--no-model` names
    /// ([`crate::models::FRONT_END_MODELS`]).
    pub fn models_off(&self) -> Vec<&'static str> {
        let mut opts = self.clone();
        (opts.switches().into_iter())
            .filter(|(_, on)| !**on)
            .map(|(name, _)| name)
            .collect()
    }

    /// Each front-end model's switch, by its `--no-model` name: the one
    /// place that ties the names to the fields.
    fn switches(&mut self) -> [(&'static str, &mut bool); 2] {
        [
            ("containers", &mut self.containers),
            ("natives", &mut self.natives),
        ]
    }
}

/// Generates the facts of every class on the class path, with the
/// default heap abstraction and models.
pub fn generate(cp: &ClassPath, progress: &(dyn Fn(Progress) + Sync)) -> ProgramFacts {
    generate_with(cp, &FactsOptions::default(), progress)
}

/// Generates the facts of every class on the class path, as `opts`
/// asks, in four phases: read and parse the class path
/// ([`read_class_path`]), declare every class, translate the method
/// bodies ([`translate`]), then add what the class path's files say and
/// the global relations, and abstract the heap.
pub fn generate_with(
    cp: &ClassPath,
    opts: &FactsOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> ProgramFacts {
    let t = Instant::now();
    let parsed = read_class_path(cp, progress);
    crate::trace::phase("class path read and parsed", t);
    let t = Instant::now();
    let mut problems = parsed.problems;
    let classes = without_circular_classes(parsed.classes, &mut problems);
    let mut b = FactsBuilder::new();
    let mut duplicates = 0;
    let mut kept = Vec::with_capacity(classes.len());
    let mut module_classes: FxHashMap<&Path, Vec<String>> = FxHashMap::default();
    let modules = &parsed.modules;
    for (c, lib, loc, file) in classes {
        if b.declare_class(&c, lib) {
            if let Some((path, _)) = modules.get_key_value(file.as_path()) {
                module_classes
                    .entry(path.as_path())
                    .or_default()
                    .push(c.name.clone());
            }
            kept.push((c, loc));
        } else {
            duplicates += 1;
        }
    }
    let mut named: Vec<_> = modules.iter().collect();
    named.sort_by(|a, b| a.1.name.cmp(&b.1.name));
    for (file, module) in named {
        let classes = module_classes
            .get(file.as_path())
            .map_or(&[][..], Vec::as_slice);
        let classes: Vec<&str> = classes.iter().map(String::as_str).collect();
        b.declare_module(module, &classes);
    }
    crate::trace::phase("classes declared", t);
    let t = Instant::now();
    translate(&mut b, &kept, opts, &mut problems, progress);
    crate::trace::phase("methods translated", t);
    let t = Instant::now();
    let files = parsed.files;
    for (service, providers) in &files.services {
        b.add_service_providers(service, providers);
    }
    b.add_manifest_classes(&files.manifest_values);
    b.add_configuration_classes(&files.configuration_values);
    b.add_resources(files.resources);
    b.finish();
    crate::trace::phase("files and global relations added", t);
    let t = Instant::now();
    heap_abstraction::abstract_heap(&mut b, &opts.heap);
    crate::trace::phase("heap abstracted", t);
    ProgramFacts {
        builder: b,
        problems,
        duplicates,
        module_infos: parsed.module_infos,
    }
}

/// A parsed class: its contents, whether it is the JDK's (a library
/// class), where it was read from (`file!entry`), and the class-path
/// entry (the file) it was read from.
type ParsedClass = (ClassInfo, bool, String, PathBuf);

/// What reading the class path gives: the parsed classes, and the files
/// beside them that name classes.
struct ParsedClassPath {
    /// Every class that parsed, in class-path order.
    classes: Vec<ParsedClass>,
    /// Files that could not be read or parsed.
    problems: Vec<LoadProblem>,
    /// `module-info` classes (they declare no type).
    module_infos: usize,
    /// The JDK's named modules, by the file (jmod) their `module-info`
    /// was read from. A modular jar on the class path is in the unnamed
    /// module, as the JVM loads it, and is not here.
    modules: FxHashMap<PathBuf, ModuleDecl>,
    /// The class path's files that name classes.
    files: ClassPathFiles,
}

/// The class path's files, other than classes, that name classes.
#[derive(Default)]
struct ClassPathFiles {
    /// Services and their providers: module-info's `provides`, then the
    /// provider-configuration files of jars and directories.
    services: Vec<(String, Vec<String>)>,
    /// Properties files (their keys and values) and provider files (their
    /// lines); see `resourceFile`.
    resources: Vec<crate::classpath::ResourceFile>,
    /// The values of the jars' manifests (see `manifestClass`).
    manifest_values: Vec<String>,
    /// The values of the JDK's configuration files (see `configClass`).
    configuration_values: Vec<String>,
}

/// Reads the class path and parses every class file. Each batch of class
/// files is parsed in parallel as soon as it is read, and its bytes
/// dropped: memory follows the parsed classes, not the class path's
/// inflated size.
fn read_class_path(cp: &ClassPath, progress: &(dyn Fn(Progress) + Sync)) -> ParsedClassPath {
    let mut problems = Vec::new();
    let mut classes: Vec<ParsedClass> = Vec::new();
    let mut module_infos = 0;
    let mut modules = FxHashMap::default();
    let mut read = 0;
    let mut bad: Vec<LoadProblem> = Vec::new();
    let mut out = ClassPathFiles::default();
    let files = cp.read_batches(
        &mut |batch| {
            if crate::interrupt::pending().is_some() {
                return;
            }
            read += batch.len();
            progress(Progress::Read(read));
            let parsed: Vec<_> = batch
                .par_iter()
                .map(|cb| (read_class(&cb.bytes), cb))
                .collect();
            for (r, cb) in parsed {
                match r {
                    Ok(c) if c.is_module_info() => {
                        module_infos += 1;
                        if let Some(m) = c.module {
                            out.services.extend(m.provides.iter().cloned());
                            if cb.is_library {
                                modules.insert(cb.file.clone(), m);
                            }
                        }
                    }
                    Ok(c) => classes.push((c, cb.is_library, cb.location(), cb.file.clone())),
                    Err(e) => bad.push(LoadProblem {
                        file: cb.file.clone(),
                        entry: cb.entry.clone(),
                        reason: e.0,
                    }),
                }
            }
        },
        &mut problems,
    );
    for f in files {
        match f.kind {
            crate::classpath::ResourceKind::Services(ref service) => {
                out.services.push((service.clone(), f.names.clone()));
                out.resources.push(f);
            }
            crate::classpath::ResourceKind::Properties => out.resources.push(f),
            crate::classpath::ResourceKind::Manifest => out.manifest_values.extend(f.names),
            crate::classpath::ResourceKind::JdkConfiguration => {
                out.configuration_values.extend(f.names)
            }
        }
    }
    problems.extend(bad);
    ParsedClassPath {
        classes,
        problems,
        module_infos,
        modules,
        files: out,
    }
}

/// Lowers the declared classes' methods to IR in parallel batches of
/// [`BATCH`] classes, and emits each batch's tuples in class-path order.
/// A batch is emitted (one thread: emission interns into the builder)
/// while the next one is lowered (the others): lowered first and emitted
/// after, batch by batch, the whole JDK's 231,573 methods took 4.9 s of
/// the quick start's wall time, of which emission was about 2 s; this
/// way, 3.7 s (one traced run each, 2 cores), with the same facts.
fn translate(
    b: &mut FactsBuilder,
    kept: &[KeptClass],
    opts: &FactsOptions,
    problems: &mut Vec<LoadProblem>,
    progress: &(dyn Fn(Progress) + Sync),
) {
    let total = kept.len();
    let mut done = 0;
    let mut pending: Option<(&[KeptClass], Vec<LoweredClass>)> = None;
    let mut batches = kept.chunks(BATCH);
    loop {
        // A Ctrl-C (or the memory budget) stops here; the caller sees
        // the request and does not use the partial facts.
        if crate::interrupt::pending().is_some() {
            break;
        }
        let next = batches.next();
        let previous = pending.take();
        let (emitted, lowered) = rayon::join(
            || {
                previous.map(|(batch, lowered)| {
                    emit_batch(b, batch, lowered, opts, problems);
                    batch.len()
                })
            },
            || next.map(|batch| (batch, lower_batch(batch, opts))),
        );
        if let Some(n) = emitted {
            done += n;
            progress(Progress::Translated(done, total));
        }
        match lowered {
            Some(l) => pending = Some(l),
            None => break,
        }
    }
}

/// A declared class to translate, and where it was read from.
type KeptClass = (ClassInfo, String);

/// The methods of one class lowered to IR, by their index in the class.
type LoweredClass = Vec<(usize, Result<MethodIr, String>)>;

/// Lowers the methods of a batch of classes, in parallel.
fn lower_batch(batch: &[KeptClass], opts: &FactsOptions) -> Vec<LoweredClass> {
    batch
        .par_iter()
        .map(|(c, _)| lower_class(c, opts))
        .collect()
}

/// Emits the tuples of a lowered batch, in class-path order; a method
/// that could not be lowered is a problem.
fn emit_batch(
    b: &mut FactsBuilder,
    batch: &[KeptClass],
    lowered: Vec<LoweredClass>,
    opts: &FactsOptions,
    problems: &mut Vec<LoadProblem>,
) {
    for ((c, loc), methods) in batch.iter().zip(lowered) {
        for (k, r) in methods {
            let decl = &c.methods[k];
            let Some(desc) = method_desc(&decl.desc) else {
                continue;
            };
            let sig = crate::classfile::descriptor::method_signature(&c.name, &decl.name, &desc);
            let Some(m) = b.methods.get(&sig) else {
                continue;
            };
            match r {
                Ok(ir) => {
                    if decl.code.is_some() {
                        b.stats.methods_with_code += 1;
                    } else if opts.natives && natives::model_for(&sig).is_some() {
                        b.stats.modelled_natives += 1;
                    }
                    b.emit_method(&c.name, m, &ir, decl.code.as_ref());
                }
                Err(reason) => problems.push(LoadProblem {
                    file: loc.into(),
                    entry: Some(sig),
                    reason,
                }),
            }
        }
    }
}

/// Takes out the classes the JVM would refuse with
/// `ClassCircularityError` (see [`hierarchy::circular_classes`]), each
/// reported as a problem: every walk of the hierarchy assumes it has no
/// cycle.
fn without_circular_classes(
    classes: Vec<ParsedClass>,
    problems: &mut Vec<LoadProblem>,
) -> Vec<ParsedClass> {
    let mut supers: fxhash::FxHashMap<&str, Vec<&str>> = fxhash::FxHashMap::default();
    for (c, _, _, _) in &classes {
        supers.entry(c.name.as_str()).or_insert_with(|| {
            c.super_name
                .iter()
                .chain(&c.interfaces)
                .map(String::as_str)
                .collect()
        });
    }
    let refused: fxhash::FxHashMap<String, String> =
        hierarchy::circular_classes(&supers).into_iter().collect();
    if refused.is_empty() {
        return classes;
    }
    let mut kept = Vec::with_capacity(classes.len());
    for (c, lib, loc, file) in classes {
        match refused.get(&c.name) {
            Some(reason) => problems.push(LoadProblem {
                file: loc.into(),
                entry: None,
                reason: reason.clone(),
            }),
            None => kept.push((c, lib, loc, file)),
        }
    }
    kept
}

/// Lowers every method of a class that has a body or a native model
/// (unless `opts.natives` is false), with the calls of collections
/// answered at the call site (see [`containers`], unless
/// `opts.containers` is false) and returned parameters taken
/// out of the bodies (see [`split_returned_parameters`]), as are the
/// stores of parameters into parameters' fields
/// ([`split_parameter_fields`]). The instance methods of the modelled
/// collections are summaries ([`containers::summary_body`]).
fn lower_class(c: &ClassInfo, opts: &FactsOptions) -> LoweredClass {
    let collections = opts.containers;
    let mut out = Vec::new();
    let summarised = collections && containers::is_modelled(&c.name);
    for (k, m) in c.methods.iter().enumerate() {
        match &m.code {
            Some(code) if summarised && m.access & access::STATIC == 0 => out.push((
                k,
                lower_method(c, m, code)
                    .map(containers::summary_body)
                    .map_err(|e| e.to_string()),
            )),
            Some(code) => out.push((k, lower_method(c, m, code).map_err(|e| e.to_string()))),
            None if m.access & access::NATIVE != 0 => {
                let Some(desc) = method_desc(&m.desc) else {
                    continue;
                };
                let sig = crate::classfile::descriptor::method_signature(&c.name, &m.name, &desc);
                let is_static = m.access & access::STATIC != 0;
                let ir = match natives::model_for(&sig).filter(|_| opts.natives) {
                    Some(model) => natives::body(model, &c.name, is_static, &desc),
                    // An unmodelled native still has formals, so calls bind.
                    None => MethodIr::skeleton(is_static, &c.name, &desc.params, &desc.ret),
                };
                out.push((k, Ok(ir)));
            }
            None => {}
        }
    }
    for (k, r) in out.iter_mut() {
        let Ok(ir) = r else {
            continue;
        };
        let is_static = c.methods[*k].access & access::STATIC != 0;
        if collections && (!summarised || is_static) {
            containers::answer_container_calls(ir, &c.name);
        }
        builder_concats(ir);
        split_returned_parameters(ir);
        split_parameter_fields(ir);
    }
    out
}

/// Reads one class file and translates all its methods, discarding the
/// result: the entry point of the fuzz target and of the mutation test.
/// Errors are expected; panics are bugs.
pub fn fuzz_one(bytes: &[u8]) {
    if let Ok(c) = read_class(bytes) {
        // As `generate` does: a class that is its own supertype is refused.
        let mut problems = Vec::new();
        let Some((c, _, _, _)) = without_circular_classes(
            vec![(c, false, String::new(), PathBuf::new())],
            &mut problems,
        )
        .pop() else {
            return;
        };
        let mut b = FactsBuilder::new();
        if b.declare_class(&c, false) {
            for (k, r) in lower_class(&c, &FactsOptions::default()) {
                let decl = &c.methods[k];
                if let (Ok(ir), Some(desc)) = (r, method_desc(&decl.desc)) {
                    let sig =
                        crate::classfile::descriptor::method_signature(&c.name, &decl.name, &desc);
                    if let Some(m) = b.methods.get(&sig) {
                        b.emit_method(&c.name, m, &ir, decl.code.as_ref());
                    }
                }
            }
            b.finish();
            heap_abstraction::abstract_heap(&mut b, &HeapOptions::default());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn front_end_models_switch_off_by_name_and_say_so() {
        let off = ["natives".to_string(), "proxies".to_string()];
        let opts = FactsOptions::without_models(HeapOptions::default(), &off);
        assert!(opts.containers && !opts.natives);
        assert_eq!(opts.models_off(), ["natives"]);
        assert!(FactsOptions::default().models_off().is_empty());
    }
}
