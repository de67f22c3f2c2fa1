//! Turning classes and their IR into tuples over the program domains.

use super::hierarchy::{ClassNode, FieldEntry, Hierarchy, MethodEntry};
use super::intern::Interner;
use super::reflection_api::InputObject;
use super::schema::MODIFIERS;
use crate::classfile::descriptor::{
    element_type, escape_string, field_signature, field_type, is_reference, method_desc,
    method_signature, subsignature, MethodDesc,
};
use crate::classfile::model::{
    access, ClassInfo, Code, FieldDecl, MemberRef, MethodDecl, ModuleDecl,
};
use crate::classpath::{ResourceFile, ResourceKind};
use crate::ir::member_tests::{MemberTest, NameMatch, Passes, TypeMatch};
use crate::ir::parameter_types::{
    filled_arrays, method_types, parameter_list, parameter_lists, MAX_PARAMETERS,
};
use crate::ir::string_builders::{concat_affixes, concat_completions, Affixes, Completion};
use crate::ir::{ConcatPart, Invoke, InvokeKind, MethodIr, Stmt, Var};
use fxhash::{FxHashMap, FxHashSet};

pub use super::schema::R;

/// The primitive types and `void`, whose `Class` objects the JVM makes.
const PRIMITIVE_TYPES: &[&str] = &[
    "boolean", "byte", "char", "short", "int", "long", "float", "double", "void",
];

/// What a method's own constant-length arrays, and the method types it
/// makes from constants, say about the calls they are passed to.
struct ConstantArrays {
    /// The length of each array variable's only array.
    lengths: FxHashMap<Var, u32>,
    /// The parameter list each `Class[]` of constants spells.
    parameter_lists: FxHashMap<Var, String>,
    /// The parameter list each `MethodType` of constants gives.
    method_types: FxHashMap<Var, String>,
    /// The variables stored at each index of each `Class[]` or
    /// `Object[]` that the method fills for calls ([`filled_arrays`]).
    elements: FxHashMap<Var, Vec<Vec<Var>>>,
}

/// A method body whose facts are being emitted: what its statements
/// share.
struct Body<'a> {
    /// The declaring class.
    class: &'a str,
    /// The method.
    method: u32,
    /// Its signature, which names its allocation sites.
    sig: String,
    /// Its first variable in the variable domain.
    base: u32,
    /// Its IR.
    ir: &'a MethodIr,
    /// Its bytecode (none for a native's model).
    code: Option<&'a Code>,
    /// The parameters by variable, for the statically bound calls that
    /// pass them on (`actualParam`).
    param_of: FxHashMap<Var, u32>,
    /// Its constant-length arrays.
    arrays: ConstantArrays,
    /// The known text of each concatenation's result.
    affixes: FxHashMap<Var, Affixes>,
    /// The concatenations that one string completes ([`Completion`]).
    completions: FxHashMap<Var, Completion>,
    /// Each call's null guard, by bytecode index (one block, one guard).
    guard_at: FxHashMap<u32, u32>,
    /// The calls of a body without bytecode numbered so far.
    synthetic_sites: u32,
}

impl Body<'_> {
    /// The source line of a bytecode index (0 when unknown).
    fn line_of(&self, bci: u32) -> u32 {
        self.code.map_or(0, |c| c.line_of(bci))
    }
}

/// The synthetic class of a lambda or method reference site (see
/// [`FactsBuilder::declare_lambda_class`]).
struct LambdaClass {
    /// Its binary name, `C$$Lambda$N`.
    name: String,
    /// The method implementing the functional interface.
    method: u32,
    /// The fields of the captured values, in order.
    fields: Vec<u32>,
}

/// The number of relations.
pub const RELATION_COUNT: usize = super::schema::RELATIONS.len();

/// Where a call statement sits, for [`FactsBuilder::emit_call_stmt`]: its
/// method, the method's first variable, its `thrown` variable, the
/// call's source line, and the variable a null test guards it by.
struct CallContext {
    method: u32,
    base: u32,
    thrown: u32,
    line: u32,
    guard: Option<u32>,
}

/// How an invocation site is named in the `I` map.
struct SiteName {
    method: u32,
    bci: u32,
    line: u32,
    kind: &'static str,
    target: u32,
}

/// Counts of what the translation met, for the summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FactStats {
    /// Classes, by origin: (application, library).
    pub classes: (usize, usize),
    /// Methods translated from bytecode.
    pub methods_with_code: usize,
    /// Natives given a model.
    pub modelled_natives: usize,
    /// Lambdas and method references.
    pub lambdas: usize,
    /// String concatenations.
    pub concats: usize,
    /// Other invokedynamic sites (results unknown).
    pub unknown_dynamic: usize,
    /// Concatenations whose known text fits too many names to name any
    /// (see [`super::partial_names`]).
    pub partial_over_budget: usize,
    /// Method references that resolved to no declared method.
    pub phantom_methods: usize,
    /// Field references that resolved to no declared field.
    pub phantom_fields: usize,
    /// The JDK's tables of data merged into one object each, and the
    /// allocation sites they had (see
    /// [`super::heap_abstraction::table_rows`]).
    pub tables: (usize, usize),
}

/// The domains and relations being built.
pub struct FactsBuilder {
    /// The hierarchy of every declared (and synthesised) class.
    pub hierarchy: Hierarchy,
    /// T
    pub types: Interner,
    /// M
    pub methods: Interner,
    /// F
    pub fields: Interner,
    /// N
    pub names: Interner,
    /// H
    pub heaps: Vec<String>,
    /// MOD
    pub modifiers: Interner,
    /// PKG
    pub packages: Interner,
    /// MODULE
    pub modules: Interner,
    pub(super) string_heaps: FxHashMap<String, u32>,
    pub(super) class_heaps: FxHashMap<u32, u32>,
    /// The input objects (`<input string>`, `<property value>`,
    /// `<manifest value>`), each once a call needs it.
    input_heaps: FxHashMap<InputObject, u32>,
    /// The application's methods (`applicationMethod`), by id.
    application_methods: FxHashSet<u32>,
    /// Whether an application method looks a member up by a name that a
    /// metaobject's `getName()` returned ([`looks_up_by_member_name`]).
    member_name_lookups: bool,
    /// The parameter lists (`N`) whose types are recorded
    /// (`paramsArity`, `paramsType`).
    parameter_lists: FxHashSet<u32>,
    /// The merged object of each exception type, by type (`None`: not an
    /// exception type).
    pub(super) exception_heaps: FxHashMap<u32, Option<u32>>,
    /// V: (method or `u32::MAX` for globals, local name).
    vars: Vec<(u32, Box<str>)>,
    sites: Vec<SiteName>,
    /// Call sites that the analysis's rules name and no class has (the
    /// context of no call site, `<no call site>`), numbered after the
    /// program's own (see [`Self::hold_site`]).
    held_sites: Vec<String>,
    /// The tuples of each relation, flattened.
    pub rels: Vec<Vec<u32>>,
    /// Largest argument position, bytecode index and line seen.
    pub max_z: u32,
    /// Largest bytecode index.
    pub max_bci: u32,
    /// Largest line.
    pub max_line: u32,
    lambda_counter: FxHashMap<u32, u32>,
    /// Each declared class and the top-level class of its nest, by name:
    /// `typeNest` is emitted in [`Self::finish`], so that a host named
    /// before its declaration does not renumber the types.
    nests: Vec<(u32, String)>,
    /// Classes declared, in order, with whether they are library classes.
    pub declared: Vec<(u32, bool)>,
    /// Statistics.
    pub stats: FactStats,
    /// The `SourceFile` of each declared class, by type.
    pub source_files: FxHashMap<u32, String>,
    /// The object of each concatenation.
    pub(super) concat_heaps: Vec<u32>,
    /// The concatenations that one string completes (`completedBy`), by
    /// heap object, for `completesType`, `completesMethod` and
    /// `completesField`.
    pub(super) concat_completions: Vec<(u32, Completion)>,
    /// The concatenations with known text, by object (matched against the
    /// class path's names by [`super::partial_names`]).
    pub(super) concat_texts: Vec<(u32, Affixes)>,
    /// The member filters' objects and their tests of names (matched against the class path's names by
    /// [`super::partial_names`]).
    pub(super) name_filters: Vec<(u32, MemberTest)>,
    /// The class path's resources that name classes, by name, and the
    /// object of their streams (see [`Self::add_resources`]).
    resource_streams: Vec<(String, u32)>,
    /// The properties files of [`Self::add_resources`] as bundles: the
    /// base name that `ResourceBundle.getBundle` takes for each, its
    /// locale (empty for the base bundle), and the object of the bundle
    /// (renumbered with the heap domain, see
    /// [`super::heap_abstraction::merge_heaps`]).
    pub(super) bundle_files: Vec<(String, String, u32)>,
}

/// A call site as [`FactsBuilder::emit_invoke`] emitted it.
struct EmittedCall {
    /// The site.
    site: u32,
    /// The method it calls, when that does not depend on the receiver's
    /// objects: a statically bound call, or a virtual call of a final
    /// class's or a final method.
    bound: Option<u32>,
}

/// The root of the exception types.
const THROWABLE: &str = "java.lang.Throwable";

/// V 0: the base variable of static field accesses.
pub const GLOBAL_VAR: u32 = 0;
/// H 0: the object `<global>` points to.
pub const GLOBAL_HEAP: u32 = 0;
/// F 0: array elements.
pub const ARRAY_FIELD: u32 = 0;

/// The name of the unnamed package in the PKG domain.
pub const UNNAMED_PACKAGE: &str = "<unnamed>";
/// The name of the class path's unnamed module in the MODULE domain
/// (MODULE 0).
pub const UNNAMED_MODULE: &str = "<unnamed>";
/// N 0: calls that are not dispatched.
pub const DIRECT_NAME: u32 = 0;

impl Default for FactsBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl FactsBuilder {
    /// An empty builder with the special elements in place.
    pub fn new() -> Self {
        let mut b = FactsBuilder {
            hierarchy: Hierarchy::default(),
            types: Interner::default(),
            methods: Interner::default(),
            fields: Interner::with(&["[]"]),
            names: Interner::with(&["<direct>"]),
            heaps: vec!["<global>".to_string()],
            modifiers: Interner::with(MODIFIERS),
            packages: Interner::default(),
            modules: Interner::with(&[UNNAMED_MODULE]),
            string_heaps: FxHashMap::default(),
            class_heaps: FxHashMap::default(),
            input_heaps: FxHashMap::default(),
            application_methods: FxHashSet::default(),
            member_name_lookups: false,
            parameter_lists: FxHashSet::default(),
            exception_heaps: FxHashMap::default(),
            vars: vec![(u32::MAX, "<global>".into())],
            sites: Vec::new(),
            held_sites: Vec::new(),
            rels: vec![Vec::new(); RELATION_COUNT],
            max_z: 0,
            max_bci: 0,
            max_line: 0,
            lambda_counter: FxHashMap::default(),
            nests: Vec::new(),
            declared: Vec::new(),
            stats: FactStats::default(),
            source_files: FxHashMap::default(),
            concat_heaps: Vec::new(),
            concat_completions: Vec::new(),
            concat_texts: Vec::new(),
            name_filters: Vec::new(),
            resource_streams: Vec::new(),
            bundle_files: Vec::new(),
        };
        let object = b.types.intern("java.lang.Object");
        b.add(R::VP0, &[GLOBAL_VAR, GLOBAL_HEAP]);
        b.add(R::HT, &[GLOBAL_HEAP, object]);
        b.add(R::VT, &[GLOBAL_VAR, object]);
        b
    }

    /// Adds a tuple.
    pub fn add(&mut self, r: R, t: &[u32]) {
        self.rels[r as usize].extend_from_slice(t);
    }

    /// Records a method's number of parameters (as `Z`), its parameter
    /// list (as `N`, `(java.lang.String,int)`) and each parameter's type,
    /// and the first time a list is seen, its count and types.
    fn add_parameters(&mut self, m: u32, params: &[String]) {
        let n = params.len().min(MAX_PARAMETERS as usize) as u32;
        self.max_z = self.max_z.max(n);
        self.add(R::MethodArity, &[m, n]);
        let list = self.names.intern(&parameter_list(params));
        self.add(R::MethodParams, &[m, list]);
        let new_list = self.parameter_lists.insert(list);
        if new_list {
            self.add(R::ParamsArity, &[list, n]);
        }
        for (z, p) in params.iter().take(n as usize).enumerate() {
            let t = self.types.intern(p);
            self.add(R::ParamType, &[m, z as u32, t]);
            if new_list {
                self.add(R::ParamsType, &[list, z as u32, t]);
            }
        }
    }

    fn modifiers_of(&mut self, r: R, x: u32, flags: u16, is_class: bool, is_field: bool) {
        let table: &[(u16, &str)] = &[
            (access::PUBLIC, "public"),
            (access::PRIVATE, "private"),
            (access::PROTECTED, "protected"),
            (access::STATIC, "static"),
            (access::FINAL, "final"),
            (0x1000, "synthetic"),
        ];
        for &(bit, name) in table {
            if flags & bit != 0 {
                let m = self.modifiers.intern(name);
                self.add(r, &[x, m]);
            }
        }
        let extra: &[(u16, &str)] = if is_class {
            &[
                (access::INTERFACE, "interface"),
                (access::ABSTRACT, "abstract"),
                (0x4000, "enum"),
                (0x2000, "annotation"),
            ]
        } else if is_field {
            &[
                (0x0040, "volatile"),
                (0x0080, "transient"),
                (0x4000, "enum"),
            ]
        } else {
            &[
                (0x0020, "synchronized"),
                (access::NATIVE, "native"),
                (access::ABSTRACT, "abstract"),
            ]
        };
        for &(bit, name) in extra {
            if flags & bit != 0 {
                let m = self.modifiers.intern(name);
                self.add(r, &[x, m]);
            }
        }
    }

    /// Declares a named module of the JDK (its `module-info`) and the
    /// classes read from the same jmod: their module (`typeModule`), and
    /// the packages it exports and opens, to every module or to some
    /// (`exportedPackage`, `exportedTo`, `openPackage`, `openTo`). An
    /// open module opens each package of its classes. Classes not
    /// declared (duplicates, or never read) are left out.
    pub fn declare_module(&mut self, module: &ModuleDecl, classes: &[&str]) {
        let x = self.modules.intern(&module.name);
        let mut packages = FxHashSet::default();
        for &c in classes {
            let Some(t) = self.types.get(c) else {
                continue;
            };
            self.add(R::TypeModule, &[t, x]);
            packages.insert(c.rsplit_once('.').map_or(UNNAMED_PACKAGE, |(p, _)| p));
        }
        let grants = [
            (&module.exports, R::ExportedPackage, R::ExportedTo),
            (&module.opens, R::OpenPackage, R::OpenTo),
        ];
        for (clauses, to_all, to_some) in grants {
            for g in clauses {
                let p = self.packages.intern(&g.package);
                if g.to.is_empty() {
                    self.add(to_all, &[p]);
                }
                for m in &g.to {
                    let y = self.modules.intern(m);
                    self.add(to_some, &[p, y]);
                }
            }
        }
        if module.open {
            let mut open: Vec<&str> = packages.into_iter().collect();
            open.sort_unstable();
            for package in open {
                let p = self.packages.intern(package);
                self.add(R::OpenPackage, &[p]);
            }
        }
    }

    /// The scopes of Java's access control that type `t`, named `name`
    /// (its binary name; a lambda's class that of its caller), belongs
    /// to: its package (`typePackage`) and the nest of its top-level
    /// class (`typeNest`).
    fn declare_scopes(&mut self, t: u32, name: &str) {
        let package = name.rsplit_once('.').map_or(UNNAMED_PACKAGE, |(p, _)| p);
        let p = self.packages.intern(package);
        self.add(R::TypePackage, &[t, p]);
        let simple_start = name.len() - name.rsplit('.').next().map_or(0, str::len);
        let top = match name[simple_start..].find('$') {
            // `$Foo` is a name of its own, not a member of ``.
            Some(k) if k > 0 => &name[..simple_start + k],
            _ => name,
        };
        self.nests.push((t, top.to_string()));
    }

    /// Declares a class: its type, members, modifiers and hierarchy
    /// edges. Returns `false` (and does nothing) when a class of that name
    /// was declared before (the first on the class path wins).
    pub fn declare_class(&mut self, c: &ClassInfo, is_library: bool) -> bool {
        if self.hierarchy.get(&c.name).is_some() {
            return false;
        }
        let t = self.types.intern(&c.name);
        self.declared.push((t, is_library));
        if let Some(f) = &c.source_file {
            self.source_files.insert(t, f.clone());
        }
        if is_library {
            self.stats.classes.1 += 1;
        } else {
            self.stats.classes.0 += 1;
        }
        self.modifiers_of(R::ClassModifier, t, c.access, true, false);
        self.declare_scopes(t, &c.name);
        for a in &c.annotations {
            let at = self.types.intern(a);
            self.add(R::ClassAnnotation, &[t, at]);
        }
        let methods: Vec<MethodEntry> = (c.methods.iter())
            .filter_map(|m| self.declare_method(t, &c.name, m, is_library))
            .collect();
        let fields: Vec<FieldEntry> = (c.fields.iter())
            .filter_map(|f| self.declare_field(t, &c.name, f))
            .collect();
        for s in c.super_name.iter().chain(&c.interfaces) {
            let st = self.types.intern(s);
            self.add(R::Subtype, &[t, st]);
        }
        self.hierarchy.add(ClassNode {
            name: c.name.clone(),
            super_name: c.super_name.clone(),
            interfaces: c.interfaces.clone(),
            access: c.access,
            methods,
            fields,
        })
    }

    /// Declares method `m` of class `t` (named `class`): its signature,
    /// sub-signature, return and parameter types, modifiers and
    /// annotations, and whether it is a constructor, a static initialiser,
    /// a `main` or the application's. None for a malformed descriptor.
    fn declare_method(
        &mut self,
        t: u32,
        class: &str,
        m: &MethodDecl,
        is_library: bool,
    ) -> Option<MethodEntry> {
        let desc = method_desc(&m.desc)?;
        let id = self
            .methods
            .intern(&method_signature(class, &m.name, &desc));
        let key = self.names.intern(&subsignature(&m.name, &desc));
        self.add(R::DeclaresMethod, &[t, id]);
        self.add(R::MethodSig, &[id, key]);
        for a in &m.annotations {
            let at = self.types.intern(a);
            self.add(R::MethodAnnotation, &[id, at]);
        }
        let rt = self.types.intern(&desc.ret);
        self.add(R::MethodRet, &[id, rt]);
        self.add_parameters(id, &desc.params);
        // Only the parameters the descriptor declares (the attribute may
        // number fewer, never more, for a well-formed class).
        let arity = desc.params.len().min(MAX_PARAMETERS as usize);
        for (z, a) in &m.parameter_annotations {
            if (*z as usize) < arity {
                let at = self.types.intern(a);
                self.add(R::ParamAnnotation, &[id, u32::from(*z), at]);
            }
        }
        self.modifiers_of(R::MethodModifier, id, m.access, false, false);
        if !is_library {
            self.add_application_method(id);
        }
        match m.name.as_str() {
            "<init>" => {
                self.add(R::Constructor, &[t, id]);
                if desc.params.is_empty() {
                    self.add(R::DefaultConstructor, &[t, id]);
                }
            }
            "<clinit>" => self.add(R::Clinit, &[t, id]),
            "main"
                if m.desc == "([Ljava/lang/String;)V"
                    && m.access & (access::PUBLIC | access::STATIC)
                        == access::PUBLIC | access::STATIC =>
            {
                self.add(R::MainMethod, &[id])
            }
            _ => {}
        }
        Some(MethodEntry {
            name: m.name.clone(),
            desc: m.desc.clone(),
            access: m.access,
            id,
            key,
        })
    }

    /// Declares field `f` of class `t` (named `class`): its signature,
    /// type, modifiers and annotations. None for a malformed descriptor.
    fn declare_field(&mut self, t: u32, class: &str, f: &FieldDecl) -> Option<FieldEntry> {
        let Some((ty, "")) = field_type(&f.desc) else {
            return None;
        };
        let id = self.fields.intern(&field_signature(class, &f.name, &ty));
        self.add(R::DeclaresField, &[t, id]);
        for a in &f.annotations {
            let at = self.types.intern(a);
            self.add(R::FieldAnnotation, &[id, at]);
        }
        let ft = self.types.intern(&ty);
        self.add(R::FieldType, &[id, ft]);
        self.modifiers_of(R::FieldModifier, id, f.access, false, true);
        Some(FieldEntry {
            name: f.name.clone(),
            desc: f.desc.clone(),
            access: f.access,
            id,
        })
    }

    fn new_var(&mut self, m: u32, local: &str, ty: &str) -> u32 {
        let v = self.vars.len() as u32;
        self.vars.push((m, local.into()));
        if is_reference(ty) {
            let t = self.types.intern(ty);
            self.add(R::VT, &[v, t]);
        }
        self.add(R::MV, &[m, v]);
        v
    }

    fn new_heap(&mut self, m: Option<u32>, name: String, ty: &str) -> u32 {
        let h = self.heaps.len() as u32;
        self.heaps.push(name);
        let t = self.types.intern(ty);
        self.add(R::HT, &[h, t]);
        if let Some(m) = m {
            self.add(R::MH, &[m, h]);
        }
        h
    }

    /// The heap object of a string constant (one per distinct text).
    pub fn string_heap(&mut self, text: &str) -> u32 {
        if let Some(&h) = self.string_heaps.get(text) {
            return h;
        }
        let h = self.new_heap(
            None,
            format!("\"{}\"", escape_string(text)),
            "java.lang.String",
        );
        self.string_heaps.insert(text.to_string(), h);
        self.add(R::StringConst, &[h]);
        h
    }

    /// The one object of an exception type (a subtype of `Throwable`), or
    /// `None` for other types. As in Tai-e (`merge-exception-objects`,
    /// on by default) and Doop, the allocation sites of an exception type
    /// are one object: exceptions propagate to every caller up the call
    /// graph, and one object per `new` made them two fifths of the
    /// points-to tuples of a whole-JDK analysis, for no gain in what the
    /// analysis resolves (a catch and a call on an exception depend on its
    /// type alone).
    pub fn exception_heap(&mut self, ty: &str) -> Option<u32> {
        let t = self.types.intern(ty);
        if let Some(&h) = self.exception_heaps.get(&t) {
            return h;
        }
        let is_exception = ty == THROWABLE
            || !ty.ends_with("[]")
                && self
                    .hierarchy
                    .all_supertypes(ty)
                    .iter()
                    .any(|s| s == THROWABLE);
        let h = is_exception.then(|| self.new_heap(None, format!("<exception {ty}>"), ty));
        self.exception_heaps.insert(t, h);
        h
    }

    /// The one object of a kind of strings that enter from outside the
    /// program (see [`super::reflection_api::string_input`] and
    /// [`InputObject`]).
    fn input_heap(&mut self, kind: InputObject) -> u32 {
        if let Some(&h) = self.input_heaps.get(&kind) {
            return h;
        }
        let h = self.new_heap(None, kind.heap_name().into(), "java.lang.String");
        self.input_heaps.insert(kind, h);
        h
    }

    /// Records the providers declared for a service (`serviceProvider`).
    pub fn add_service_providers(&mut self, service: &str, providers: &[String]) {
        let s = self.types.intern(service);
        for p in providers {
            let p = self.types.intern(p);
            self.add(R::ServiceProvider, &[s, p]);
        }
    }

    /// Records the class path's resources that name classes (the
    /// provider files and properties files of `resources`), for a program
    /// that reads them itself (`queries/models/resources.dl`): per
    /// resource, the object of its streams and of its text
    /// (`resourceFile`), of its URL (`resourceUrl`) and of the
    /// Enumeration of its URLs (`resourceUrls`), and the classes its text
    /// names (`resourceTextClass`); for a properties file, the object of
    /// its keys where they name classes (`resourceKeys`), and the
    /// PropertyResourceBundle that `ResourceBundle.getBundle` makes of it
    /// (`bundleFile`). A resource not known by name has one stream
    /// (`anyResource`), whose lines name every class that a provider file
    /// names (`anyResourceLine`), whose properties every class that a
    /// properties file's values name (`anyProperties`) and whose keys
    /// every class that their keys name. A resource that several jars
    /// hold is one. Which strings name which resource or bundle is found
    /// once every string is known ([`Self::name_resources`]).
    pub fn add_resources(&mut self, mut resources: Vec<ResourceFile>) {
        resources.sort_by(|a, b| a.name.cmp(&b.name));
        let mut lines: Vec<String> = Vec::new();
        let mut values: Vec<String> = Vec::new();
        let mut all_keys: Vec<String> = Vec::new();
        for group in resources.chunk_by(|a, b| a.name == b.name) {
            let name = &group[0].name;
            let properties = group[0].kind == ResourceKind::Properties;
            let held: Vec<String> = group.iter().flat_map(|r| r.names.clone()).collect();
            let keys: Vec<String> = group.iter().flat_map(|r| r.keys.clone()).collect();
            if properties { &mut values } else { &mut lines }.extend(held.iter().cloned());
            all_keys.extend(keys.iter().cloned());
            let classes = self.named_classes(&held);
            let key_classes = self.named_classes(&keys);
            if classes.is_empty() && key_classes.is_empty() {
                continue;
            }
            let stream = self.new_heap(None, format!("<resource {name}>"), "java.io.InputStream");
            let text = self.new_heap(None, format!("<text of {name}>"), "java.lang.String");
            self.add(R::ResourceFile, &[stream, text]);
            let url = self.new_heap(None, format!("<url of {name}>"), "java.net.URL");
            let urls = self.new_heap(None, format!("<urls of {name}>"), "java.util.Enumeration");
            self.add(R::ResourceUrl, &[url, stream]);
            self.add(R::ResourceUrls, &[urls, url]);
            for &t in &classes {
                self.add(R::ResourceTextClass, &[text, t]);
            }
            if properties {
                self.add_property_values(name, stream, group);
            }
            if !key_classes.is_empty() {
                let k = self.new_heap(None, format!("<keys of {name}>"), "java.lang.String");
                self.add(R::ResourceKeys, &[stream, k]);
                for &t in &key_classes {
                    self.add(R::ResourceTextClass, &[k, t]);
                }
            }
            if let Some((base, locale)) = properties.then(|| bundle_base_name(name)).flatten() {
                let ty = "java.util.PropertyResourceBundle";
                let bundle = self.new_heap(None, format!("<bundle {name}>"), ty);
                self.add(R::BundleFile, &[bundle, stream]);
                self.bundle_files.push((base, locale, bundle));
            }
            self.resource_streams.push((name.clone(), stream));
        }
        let any = self.new_heap(None, "<resource stream>".into(), "java.io.InputStream");
        self.add(R::AnyResource, &[any]);
        for (rel, text, names) in [
            (R::AnyResourceLine, "<resource line>", lines),
            (R::AnyProperties, "<resource property>", values),
        ] {
            let h = self.new_heap(None, text.into(), "java.lang.String");
            self.add(rel, &[h]);
            for t in self.named_classes(&names) {
                self.add(R::ResourceTextClass, &[h, t]);
            }
        }
        let key_classes = self.named_classes(&all_keys);
        if !key_classes.is_empty() {
            let k = self.new_heap(None, "<resource property key>".into(), "java.lang.String");
            self.add(R::ResourceKeys, &[any, k]);
            for t in key_classes {
                self.add(R::ResourceTextClass, &[k, t]);
            }
        }
    }

    /// The values of a properties resource (`stream`, read from the files
    /// of `group`) that name classes, each an object of its own under its
    /// key, a string constant (`resourceProperty`): `getProperty("tool")`
    /// returns the class that the key `tool` names, not every class of
    /// the file.
    fn add_property_values(&mut self, name: &str, stream: u32, group: &[ResourceFile]) {
        for r in group {
            for (key, value) in r.keys.iter().zip(&r.names) {
                let classes = self.named_classes(std::slice::from_ref(value));
                if classes.is_empty() {
                    continue;
                }
                let text = format!("<{key} of {name}>");
                let v = self.new_heap(None, text, "java.lang.String");
                let k = self.string_heap(key);
                self.add(R::ResourceProperty, &[stream, k, v]);
                for t in classes {
                    self.add(R::ResourceTextClass, &[v, t]);
                }
            }
        }
    }

    /// The strings that name a resource of [`Self::add_resources`]
    /// (`resourceNamed`): a constant whose text is the resource's name,
    /// with or without a leading `/`, or the end of its name after a `/`
    /// (`Class.getResourceAsStream` resolves a name without a leading `/`
    /// against the class's package, which is not checked); a
    /// concatenation whose known start and end fit the name.
    fn name_resources(&mut self) {
        if self.resource_streams.is_empty() {
            return;
        }
        // By whole name (for an absolute name), and by the name and its
        // ends after a package (for a relative one).
        let whole: FxHashMap<&str, u32> = (self.resource_streams.iter())
            .map(|(name, stream)| (name.as_str(), *stream))
            .collect();
        let mut by_text: FxHashMap<&str, Vec<u32>> = FxHashMap::default();
        for (name, stream) in &self.resource_streams {
            by_text.entry(name.as_str()).or_default().push(*stream);
            // Relative to a package: only where what precedes is one
            // (`META-INF/services/S` is not relative to `META-INF`).
            for (k, _) in name.match_indices('/') {
                if !is_package_path(&name[..k]) {
                    break;
                }
                by_text.entry(&name[k + 1..]).or_default().push(*stream);
            }
        }
        let mut rows: Vec<(u32, u32)> = Vec::new();
        for (text, &h) in &self.string_heaps {
            match text.strip_prefix('/') {
                // An absolute name: the whole name only.
                Some(abs) => rows.extend(whole.get(abs).map(|&s| (h, s))),
                None => {
                    if let Some(streams) = by_text.get(text.as_str()) {
                        rows.extend(streams.iter().map(|&s| (h, s)));
                    }
                }
            }
        }
        for (h, a) in &self.concat_texts {
            let prefix = a.prefix.strip_prefix('/').unwrap_or(&a.prefix);
            for (name, stream) in &self.resource_streams {
                if a.fits(prefix, name) {
                    rows.push((*h, *stream));
                }
            }
        }
        rows.sort_unstable();
        rows.dedup();
        for (h, s) in rows {
            self.add(R::ResourceNamed, &[h, s]);
        }
        self.name_bundles();
    }

    /// The strings that name the base name of a bundle of
    /// [`Self::add_resources`] (`bundleNamed`): a constant whose text is
    /// the base name, or a concatenation whose known start and end fit it.
    fn name_bundles(&mut self) {
        let mut by_base: FxHashMap<&str, Vec<u32>> = FxHashMap::default();
        for (base, _, bundle) in &self.bundle_files {
            by_base.entry(base.as_str()).or_default().push(*bundle);
        }
        let mut rows: Vec<(u32, u32)> = Vec::new();
        for (text, &h) in &self.string_heaps {
            if let Some(bundles) = by_base.get(text.as_str()) {
                rows.extend(bundles.iter().map(|&b| (h, b)));
            }
        }
        for (h, a) in &self.concat_texts {
            for (base, _, bundle) in &self.bundle_files {
                if a.fits(&a.prefix, base) {
                    rows.push((*h, *bundle));
                }
            }
        }
        rows.sort_unstable();
        rows.dedup();
        for (h, b) in rows {
            self.add(R::BundleNamed, &[h, b]);
        }
    }

    /// Records the classes of the class path that the attribute values of
    /// its jars' manifests name (`manifestClass`): `Main-Class`, and any
    /// attribute of the program's own, such as FreeTTS's voice
    /// directories.
    pub fn add_manifest_classes(&mut self, names: &[String]) {
        self.add_named_classes(R::ManifestClass, names);
    }

    /// Records the classes of the class path that the values of the
    /// JDK's configuration files name (`configClass`): the properties
    /// files of a jmod's `conf/` section, such as the handlers and
    /// formatters of `conf/logging.properties`.
    pub fn add_configuration_classes(&mut self, names: &[String]) {
        self.add_named_classes(R::ConfigClass, names);
    }

    /// Adds to the unary relation `rel` each class of the class path that
    /// one of `names` (blanks trimmed) names, once; other names are
    /// dropped.
    fn add_named_classes(&mut self, rel: R, names: &[String]) {
        for t in self.named_classes(names) {
            self.add(rel, &[t]);
        }
    }

    /// The classes of the class path that `names` name, each once, in
    /// the order first named (blanks around a name do not count).
    fn named_classes(&mut self, names: &[String]) -> Vec<u32> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for n in names {
            let n = n.trim();
            if self.hierarchy.get(n).is_some() && seen.insert(n) {
                out.push(self.types.intern(n));
            }
        }
        out
    }

    /// The `java.lang.Class` object of a type.
    pub fn class_heap(&mut self, ty: &str) -> u32 {
        let t = self.types.intern(ty);
        if let Some(&h) = self.class_heaps.get(&t) {
            return h;
        }
        let h = self.new_heap(None, format!("<class {ty}>"), "java.lang.Class");
        self.class_heaps.insert(t, h);
        self.add(R::ClassObject, &[h, t]);
        h
    }

    fn method_ref(&mut self, r: &MemberRef) -> Option<(u32, MethodDesc, bool)> {
        let desc = method_desc(&r.desc)?;
        // A signature-polymorphic call names the method the JVM links it
        // to, whatever its descriptor (the descriptor still gives the
        // site's arguments and result).
        if let Some(sig) = super::reflection_api::signature_polymorphic(&r.class, &r.name) {
            let id = self.methods.intern(sig);
            return Some((id, desc, self.hierarchy.get(&r.class).is_some()));
        }
        let resolved = self.hierarchy.resolve_method(&r.class, &r.name, &r.desc);
        let id = match resolved {
            Some(id) => id,
            None => {
                self.stats.phantom_methods += 1;
                self.methods
                    .intern(&method_signature(&r.class, &r.name, &desc))
            }
        };
        Some((id, desc, resolved.is_some()))
    }

    fn field_ref(&mut self, r: &MemberRef) -> u32 {
        match self.hierarchy.resolve_field(&r.class, &r.name, &r.desc) {
            Some(f) => f,
            None => {
                self.stats.phantom_fields += 1;
                let ty = field_type(&r.desc).map_or_else(|| "?".to_string(), |(t, _)| t);
                self.fields.intern(&field_signature(&r.class, &r.name, &ty))
            }
        }
    }

    /// Records `m` as a method of an application class
    /// (`applicationMethod`).
    pub(super) fn add_application_method(&mut self, m: u32) {
        self.add(R::ApplicationMethod, &[m]);
        self.application_methods.insert(m);
    }

    /// Whether `m` is a method of an application class
    /// (`applicationMethod`).
    pub(super) fn is_application_method(&self, m: u32) -> bool {
        self.application_methods.contains(&m)
    }

    /// Whether `v` is the result of a call whose result the points-to
    /// analysis leaves empty: a method that the class path does not have
    /// (every method of the JDK under `--jdk none`), or the name of a
    /// metaobject ([`super::reflection_api::METAOBJECT_NAMES`]). Such a
    /// string cannot complete a name: a concatenation of it keeps its
    /// known text alone (see `completedBy`). The names of methods and
    /// fields are the exception: the analysis gives them at the
    /// application's calls ([`super::reflection_api::MEMBER_NAME_CALLS`]),
    /// and `"set" + getter.getName().substring(3)` names the setter.
    fn opaque_result(&self, ir: &MethodIr, v: Var) -> bool {
        use super::reflection_api as api;
        result_calls(ir, v).any(|t| {
            let named = |&(class, name): &(&str, &str)| {
                t.class == class && t.name == name && t.desc == "()Ljava/lang/String;"
            };
            let sig = format!("<{}: java.lang.String {}()>", t.class, t.name);
            let member_name =
                t.desc == "()Ljava/lang/String;" && api::MEMBER_NAME_CALLS.contains(&sig.as_str());
            !member_name
                && (api::METAOBJECT_NAMES.iter().any(named)
                    || (self.hierarchy.resolve_method(&t.class, &t.name, &t.desc)).is_none())
        })
    }

    /// The command line that the JVM passes an application's `static void
    /// main(String[])`: an array of its own (`<command line>`) whose
    /// elements are text from outside the program (`<command line
    /// argument>`), so that a name built from an argument is input, as a
    /// name read from a file is. Nothing in the program makes that array.
    fn emit_command_line(&mut self, m: u32, ir: &MethodIr, base: u32) {
        let sig = self.methods.name(m);
        let main = ir.params.len() == 1
            && sig.ends_with(": void main(java.lang.String[])>")
            && self.is_application_method(m);
        let Some(Some(p)) = ir.params.first().filter(|_| main) else {
            return;
        };
        let sig = sig.to_string();
        let array = self.new_heap(
            Some(m),
            format!("{sig} <command line>"),
            "java.lang.String[]",
        );
        self.add(R::VP0, &[base + p, array]);
        let argument = self.new_var(m, "<argument>", "java.lang.String");
        let input = self.input_heap(InputObject::CommandLine);
        self.add(R::CommandLineArgument, &[input]);
        self.add(R::VP0, &[argument, input]);
        self.add(R::S, &[base + p, ARRAY_FIELD, argument]);
    }

    /// Emits the facts of one method body.
    pub fn emit_method(&mut self, class: &str, m: u32, ir: &MethodIr, code: Option<&Code>) {
        let base = self.vars.len() as u32;
        for vi in &ir.vars {
            self.new_var(m, &vi.name, &vi.ty);
        }
        self.emit_method_interface(m, ir, base);
        self.emit_command_line(m, ir, base);
        if !self.member_name_lookups && self.is_application_method(m) {
            self.member_name_lookups = looks_up_by_member_name(ir);
        }
        self.add(R::Mthr, &[m, base + ir.thrown]);
        let lengths = ir.array_lengths();
        let mut body = Body {
            class,
            method: m,
            sig: self.methods.name(m).to_string(),
            base,
            ir,
            code,
            param_of: ir.param_positions(),
            arrays: {
                let elements = filled_arrays(ir, &lengths, |ty| {
                    ty == "java.lang.Class[]" || ty == "java.lang.Object[]"
                });
                let parameter_lists = parameter_lists(ir, &elements);
                ConstantArrays {
                    method_types: method_types(ir, &parameter_lists),
                    parameter_lists,
                    lengths,
                    elements,
                }
            },
            affixes: concat_affixes(ir),
            // The application's own names alone: each constant that
            // completes a name stays an object of its own, and the JDK's
            // 22 concatenations that spell a string's letters (escaping
            // and normalising loops) kept 6,398 pairs of concatenation
            // and constant apart that no application site reads.
            completions: if self.is_application_method(m) {
                let mut completions = concat_completions(ir);
                for l in completions.values_mut() {
                    l.class_name = class_name_result(ir, l.source);
                }
                completions.retain(|_, l| l.class_name || !self.opaque_result(ir, l.source));
                completions
            } else {
                FxHashMap::default()
            },
            guard_at: ir.call_guards.iter().copied().collect(),
            synthetic_sites: 0,
        };
        for s in &ir.stmts {
            self.emit_stmt(&mut body, s);
        }
    }

    /// Emits the facts of one statement of `body`.
    fn emit_stmt(&mut self, body: &mut Body, s: &Stmt) {
        let g = |v: Var| body.base + v;
        match s {
            Stmt::New {
                bci,
                level,
                dst,
                ty,
                ..
            } => {
                let h = self.allocation(body, *bci, *level, ty);
                self.add(R::VP0, &[g(*dst), h]);
            }
            Stmt::StringConst { dst, text } => {
                let h = self.string_heap(text);
                self.add(R::VP0, &[g(*dst), h]);
            }
            Stmt::ClassConst { dst, ty } => {
                let h = self.class_heap(ty);
                let t = self.types.intern(ty);
                self.add(R::VP0, &[g(*dst), h]);
                self.add(R::ClassConst, &[g(*dst), t]);
            }
            Stmt::Assign { dst, src } => self.add(R::A, &[g(*dst), g(*src)]),
            Stmt::Cast { dst, ty, src, .. } => {
                let t = self.types.intern(ty);
                self.add(R::A, &[g(*dst), g(*src)]);
                self.add(R::Cast, &[g(*dst), t, g(*src)]);
            }
            Stmt::Load { dst, base, field } => {
                let f = self.field_ref(field);
                self.add(R::L, &[g(*base), f, g(*dst)]);
            }
            Stmt::Store { base, field, src } => {
                let f = self.field_ref(field);
                self.add(R::S, &[g(*base), f, g(*src)]);
            }
            Stmt::StaticLoad { dst, field } => {
                let f = self.field_ref(field);
                self.add(R::L, &[GLOBAL_VAR, f, g(*dst)]);
            }
            Stmt::StaticStore { field, src } => {
                let f = self.field_ref(field);
                self.add(R::S, &[GLOBAL_VAR, f, g(*src)]);
            }
            Stmt::ArrayLoad { dst, base, .. } => self.add(R::L, &[g(*base), ARRAY_FIELD, g(*dst)]),
            Stmt::ArrayStore { base, src, .. } => self.add(R::S, &[g(*base), ARRAY_FIELD, g(*src)]),
            Stmt::Invoke(inv) => self.emit_call_in(body, inv),
            Stmt::Concat { bci, dst, parts } => {
                let known = (body.affixes.get(dst), body.completions.get(dst));
                let (m, line) = (body.method, body.line_of(*bci));
                self.emit_concat(m, &body.sig, *bci, line, g(*dst), parts, known, body.base);
            }
            Stmt::Lambda {
                bci,
                dst,
                iface,
                markers,
                sam_name,
                sam_desc,
                impl_kind,
                implementation,
                captured,
            } => {
                self.stats.lambdas += 1;
                let caps: Vec<Option<u32>> = captured.iter().map(|c| c.map(g)).collect();
                self.emit_lambda(
                    body.class,
                    body.method,
                    *bci,
                    body.line_of(*bci),
                    g(*dst),
                    iface,
                    markers,
                    sam_name,
                    sam_desc,
                    *impl_kind,
                    implementation,
                    &caps,
                );
            }
            Stmt::MemberFilter {
                bci,
                dst,
                src,
                test,
            } => {
                let what: Vec<String> = test.any_of.iter().map(describe_passes).collect();
                let line = body.line_of(*bci);
                let name = format!("{}[{bci}@L{line}] {}", body.sig, what.join(" or "));
                let h = self.new_heap(Some(body.method), name, test.member_class);
                self.add(R::MemberFilter, &[g(*dst), g(*src), h]);
                for passes in &test.any_of {
                    match passes {
                        Passes::Name { .. } => {}
                        Passes::Annotated(t) => {
                            let t = self.types.intern(t);
                            self.add(R::FilterAnnotation, &[h, t]);
                        }
                        Passes::Modifier(m) => {
                            let m = self.modifiers.intern(m);
                            self.add(R::FilterModifier, &[h, m]);
                        }
                        Passes::Arity(n) => {
                            let n = (*n).min(MAX_PARAMETERS);
                            self.max_z = self.max_z.max(n);
                            self.add(R::FilterArity, &[h, n]);
                        }
                        Passes::Type(how, t) => {
                            let t = self.types.intern(t);
                            let r = match how {
                                TypeMatch::Exact => R::FilterType,
                                TypeMatch::Below => R::FilterTypeBelow,
                            };
                            self.add(r, &[h, t]);
                        }
                        Passes::Parameter(k, how, t) => {
                            let k = (*k).min(MAX_PARAMETERS);
                            self.max_z = self.max_z.max(k);
                            let t = self.types.intern(t);
                            let r = match how {
                                TypeMatch::Exact => R::FilterParameter,
                                TypeMatch::Below => R::FilterParameterBelow,
                            };
                            self.add(r, &[h, k, t]);
                        }
                    }
                }
                if test.any_of.iter().any(|p| matches!(p, Passes::Name { .. })) {
                    self.name_filters.push((h, test.clone()));
                }
            }
            Stmt::UnknownDynamic { .. } => self.stats.unknown_dynamic += 1,
        }
    }

    /// The object a `new` of `ty` at `bci` of `body` allocates: the one
    /// object of an exception type, else the site's own
    /// (`<sig>[bci@Lline] new ty`, with `/level` for the inner arrays of
    /// a `multianewarray`).
    fn allocation(&mut self, body: &Body, bci: u32, level: u8, ty: &str) -> u32 {
        if let Some(h) = self.exception_heap(ty) {
            return h;
        }
        let line = body.line_of(bci);
        let lv = if level > 0 {
            format!("/{level}")
        } else {
            String::new()
        };
        let name = format!("{}[{bci}@L{line}{lv}] new {ty}", body.sig);
        self.new_heap(Some(body.method), name, ty)
    }

    /// The facts of a call statement of `body` (see
    /// [`Self::emit_call_stmt`]). A body without bytecode (a native's
    /// model) numbers its calls 0, 1, ... in place of bytecode indexes,
    /// and guards none.
    fn emit_call_in(&mut self, body: &mut Body, inv: &Invoke) {
        let bci = if body.code.is_some() {
            inv.bci
        } else {
            body.synthetic_sites += 1;
            body.synthetic_sites - 1
        };
        let site = CallContext {
            method: body.method,
            base: body.base,
            thrown: body.base + body.ir.thrown,
            line: body.line_of(inv.bci),
            guard: (body.guard_at.get(&inv.bci))
                .filter(|_| body.code.is_some())
                .map(|&v| body.base + v),
        };
        self.emit_call_stmt(body.ir, inv, bci, &site, &body.arrays, &body.param_of);
    }

    /// The facts of a method's interface and summaries: the static fields it
    /// names, its formals and return variable, and the parameters it
    /// returns, stores and loads (`returnsParam`, `paramStore`,
    /// `paramLoad`). `base` is the method's first variable.
    fn emit_method_interface(&mut self, m: u32, ir: &MethodIr, base: u32) {
        let g = |v: u32| base + v;
        for field in &ir.static_fields {
            let f = self.field_ref(field);
            self.add(R::StaticField, &[m, f]);
        }
        for (k, p) in ir.params.iter().enumerate() {
            if let Some(p) = p {
                self.add(R::Formal, &[m, k as u32, g(*p)]);
                self.max_z = self.max_z.max(k as u32);
            }
        }
        if let Some(r) = ir.ret {
            self.add(R::Mret, &[m, g(r)]);
        }
        for &k in &ir.returned_params {
            self.add(R::ReturnsParam, &[m, k]);
        }
        for st in &ir.param_stores {
            let f = st.field.as_ref().map_or(ARRAY_FIELD, |f| self.field_ref(f));
            self.add(R::ParamStore, &[m, st.base, f, st.value]);
        }
        for ld in &ir.param_loads {
            let f = ld.field.as_ref().map_or(ARRAY_FIELD, |f| self.field_ref(f));
            self.add(R::ParamLoad, &[m, ld.base, f]);
        }
    }

    /// The facts of one call statement of a method's body: the call's own
    /// (see [`Self::emit_invoke`]), its null guard, and, where the callee
    /// is known without the receiver's objects, the caller's parameters
    /// it passes on (`actualParam`) and whether the caller only returns
    /// its result (`returnedCall`). `pointsto.dl` lifts the callees'
    /// parameter stores and returned parameters through these.
    fn emit_call_stmt(
        &mut self,
        ir: &MethodIr,
        inv: &Invoke,
        bci: u32,
        cx: &CallContext,
        arrays: &ConstantArrays,
        param_of: &FxHashMap<Var, u32>,
    ) {
        let call = self.emit_invoke(cx.method, inv, bci, cx.line, cx.base, cx.thrown, arrays);
        let Some(call) = call else {
            return;
        };
        if let Some(v) = cx.guard {
            self.add(R::NullGuard, &[call.site, v]);
        }
        let Some(callee) = call.bound else {
            return;
        };
        let shift = u32::from(inv.kind != InvokeKind::Static);
        let passed = (inv.receiver.iter().map(|&r| (0, r)))
            .chain(
                (inv.args.iter().enumerate()).filter_map(|(k, a)| a.map(|a| (k as u32 + shift, a))),
            )
            .filter_map(|(z, a)| param_of.get(&a).map(|&p| (z, p)));
        for (z, p) in passed {
            self.add(R::ActualParam, &[call.site, z, p]);
        }
        if inv.result.is_some_and(|r| ir.returned_results.contains(&r)) {
            self.add(R::ReturnedCall, &[call.site, callee]);
        }
    }

    /// The facts of one string concatenation: its string object (with its
    /// known text, `affixes`, for the partial names), and each part that
    /// flows into it (`concat`), constants through variables of their own.
    /// `dst` is the result's global variable, `base` the method's first.
    #[allow(clippy::too_many_arguments)]
    fn emit_concat(
        &mut self,
        m: u32,
        msig: &str,
        bci: u32,
        line: u32,
        dst: u32,
        parts: &[ConcatPart],
        (affixes, completion): (Option<&Affixes>, Option<&Completion>),
        base: u32,
    ) {
        self.stats.concats += 1;
        let h = self.new_heap(
            Some(m),
            format!("{msig}[{bci}@L{line}] concat"),
            "java.lang.String",
        );
        self.add(R::VP0, &[dst, h]);
        self.concat_heaps.push(h);
        if let Some(a) = affixes {
            if a.exact || !a.prefix.is_empty() || !a.suffix.is_empty() {
                self.concat_texts.push((h, a.clone()));
            }
        }
        if let Some(l) = completion {
            self.add(R::CompletedBy, &[h, base + l.source]);
            self.concat_completions.push((h, l.clone()));
        }
        for (k, p) in parts.iter().enumerate() {
            let src = match p {
                ConcatPart::Unknown | ConcatPart::Letter { .. } => continue,
                ConcatPart::Var(v) | ConcatPart::Maybe(v) => base + *v,
                ConcatPart::Const(text) => {
                    let v = self.new_var(m, &format!("concat@{bci}#{k}"), "java.lang.String");
                    let sh = self.string_heap(text);
                    self.add(R::VP0, &[v, sh]);
                    v
                }
            };
            self.add(R::Concat, &[dst, src]);
        }
    }

    /// Emits the facts of one call; returns the site, and the method it
    /// calls when that is known without the receiver's objects.
    #[allow(clippy::too_many_arguments)]
    fn emit_invoke(
        &mut self,
        m: u32,
        inv: &Invoke,
        bci: u32,
        line: u32,
        base: u32,
        thrown: u32,
        arrays: &ConstantArrays,
    ) -> Option<EmittedCall> {
        let g = |v: u32| base + v;
        let (target, desc, resolved) = self.method_ref(&inv.target)?;
        let i = self.sites.len() as u32;
        let (direct, sealed) = self.binding(inv, target, resolved);
        self.sites.push(SiteName {
            method: m,
            bci,
            line,
            kind: inv.kind.mnemonic(),
            target,
        });
        let name = if direct {
            self.add(R::IE0, &[i, target]);
            DIRECT_NAME
        } else {
            self.names.intern(&subsignature(&inv.target.name, &desc))
        };
        self.add(R::MI, &[m, i, name]);
        self.add(R::Iref, &[i, target]);
        self.emit_string_flow(inv, base);
        self.emit_actuals(i, inv, base, arrays);
        if let Some(r) = inv.result {
            self.emit_result(i, m, target, inv, g(r), base);
        }
        // What the callee throws leaves through the method's `thrown`
        // variable, and reaches the handlers of a `try` around the site
        // (see Invoke::handlers).
        self.add(R::Ithr, &[i, thrown]);
        for &e in &inv.handlers {
            self.add(R::Ithr, &[i, g(e)]);
        }
        self.max_bci = self.max_bci.max(bci);
        self.max_line = self.max_line.max(line);
        self.add(R::Iloc, &[i, m, bci, line]);
        Some(EmittedCall {
            site: i,
            bound: (direct || sealed).then_some(target),
        })
    }

    /// How a call to `target` binds: `direct` for static and special
    /// calls, and for calls of private methods through invokevirtual or
    /// invokeinterface (nestmates, Java 11+); `sealed` for a virtual call
    /// of a final class's method or of a final method, which dispatches to
    /// the method it names whatever the receiver (JVMS 5.4.6).
    fn binding(&self, inv: &Invoke, target: u32, resolved: bool) -> (bool, bool) {
        let class = self.hierarchy.get(&inv.target.class).filter(|_| resolved);
        let has = |flag: u16| {
            class
                .is_some_and(|c| (c.methods.iter()).any(|e| e.id == target && e.access & flag != 0))
        };
        let direct =
            matches!(inv.kind, InvokeKind::Static | InvokeKind::Special) || has(access::PRIVATE);
        let sealed = class.is_some_and(|c| c.access & access::FINAL != 0) || has(access::FINAL);
        (direct, sealed)
    }

    /// The string flows of a call of the String and StringBuilder API
    /// (`stringFlow`, see [`super::reflection_api::string_flow`]): into
    /// the receiver from the arguments, or into the result from the
    /// receiver and the arguments.
    fn emit_string_flow(&mut self, inv: &Invoke, base: u32) {
        let g = |v: u32| base + v;
        let (into_receiver, into_result) =
            super::reflection_api::string_flow(&inv.target.class, &inv.target.name);
        let ref_args: Vec<u32> = inv.args.iter().flatten().map(|a| g(*a)).collect();
        if let (true, Some(r)) = (into_receiver, inv.receiver) {
            for &a in &ref_args {
                self.add(R::StringFlow, &[g(r), a]);
            }
        }
        if let (true, Some(res)) = (into_result, inv.result) {
            for a in inv.receiver.map(g).into_iter().chain(ref_args) {
                self.add(R::StringFlow, &[g(res), a]);
            }
        }
    }

    /// The actual arguments of call `i` (`actual`; the receiver is 0),
    /// and of those that are arrays the caller allocates, the constant
    /// length (`actualArrayLength`), the variable at each index of one
    /// it fills (`actualArrayElement`), or the parameter list a constant
    /// `Class[]` spells (`actualArrayTypes`); of those that are method
    /// types made from constants, their parameter list
    /// (`actualMethodType`).
    fn emit_actuals(&mut self, i: u32, inv: &Invoke, base: u32, arrays: &ConstantArrays) {
        let g = |v: u32| base + v;
        let shift = u32::from(inv.kind != InvokeKind::Static);
        if let Some(r) = inv.receiver {
            self.add(R::Actual, &[i, 0, g(r)]);
        }
        for (k, a) in inv.args.iter().enumerate() {
            if let Some(a) = a {
                let z = k as u32 + shift;
                self.max_z = self.max_z.max(z);
                self.add(R::Actual, &[i, z, g(*a)]);
                if let Some(&n) = arrays.lengths.get(a).filter(|&&n| n <= MAX_PARAMETERS) {
                    self.max_z = self.max_z.max(n);
                    self.add(R::ActualArrayLength, &[i, z, n]);
                }
                for (k, stored) in arrays.elements.get(a).into_iter().flatten().enumerate() {
                    for e in stored {
                        self.add(R::ActualArrayElement, &[i, z, k as u32, g(*e)]);
                    }
                }
                if let Some(list) = arrays.parameter_lists.get(a) {
                    let list = self.names.intern(list);
                    self.add(R::ActualArrayTypes, &[i, z, list]);
                }
                if let Some(list) = arrays.method_types.get(a) {
                    let list = self.names.intern(list);
                    self.add(R::ActualMethodType, &[i, z, list]);
                }
            }
        }
    }

    /// The result variable `r` of call `i` of `target` in method `m`
    /// (`Iret`), and whether the analysis models it instead of the
    /// callee's return (`modelledResult`): a class looked up by name, a
    /// resource's URL looked up by the application, or a string from
    /// outside the program (its input object, and its default argument).
    fn emit_result(&mut self, i: u32, m: u32, target: u32, inv: &Invoke, r: u32, base: u32) {
        self.add(R::Iret, &[i, r]);
        let signature = self.methods.name(target);
        let application = self.application_methods.contains(&m);
        if super::reflection_api::is_class_by_name(signature)
            || (application && super::reflection_api::is_resource_lookup(signature))
        {
            self.add(R::ModelledResult, &[i]);
        } else if let Some(default) = super::reflection_api::string_input(signature) {
            let kind = InputObject::of(signature, application);
            self.add(R::ModelledResult, &[i]);
            let h = self.input_heap(kind);
            self.add(R::VP0, &[r, h]);
            if let Some(Some(d)) = default.map(|k| inv.args.get(k).copied().flatten()) {
                self.add(R::A, &[r, base + d]);
            }
        }
    }

    /// A lambda or method reference: a synthetic class implementing the
    /// functional interface, with one field per captured value and a
    /// method that calls the implementation.
    #[allow(clippy::too_many_arguments)]
    fn emit_lambda(
        &mut self,
        class: &str,
        m: u32,
        bci: u32,
        line: u32,
        dst: u32,
        iface: &str,
        markers: &[String],
        sam_name: &str,
        sam_desc: &str,
        impl_kind: u8,
        implementation: &MemberRef,
        captured: &[Option<u32>],
    ) {
        let Some(sam) = method_desc(sam_desc) else {
            return;
        };
        let lambda = self.declare_lambda_class(
            class,
            iface,
            markers,
            sam_name,
            sam_desc,
            &sam,
            captured.len(),
        );
        let lname = lambda.name;
        // The allocation at the call site, storing captured values.
        let csig = self.methods.name(m).to_string();
        let h = self.new_heap(
            Some(m),
            format!("{csig}[{bci}@L{line}] new {lname}"),
            &lname,
        );
        self.add(R::VP0, &[dst, h]);
        for (k, c) in captured.iter().enumerate() {
            if let Some(v) = c {
                self.add(R::S, &[dst, lambda.fields[k], *v]);
            }
        }
        // The synthetic method's body.
        if let Some(ir) = lambda_body(&lname, &sam, captured, impl_kind, implementation) {
            self.emit_method(&lname, lambda.method, &ir, None);
        }
    }

    /// Declares the class that a lambda or method reference site of
    /// `class` makes (`class$$Lambda$N`, numbered per declaring class):
    /// final and synthetic, a subtype of `iface` and of the `markers`, with
    /// a field `capK` per captured value and the public method `sam_name`
    /// implementing the interface's.
    #[allow(clippy::too_many_arguments)]
    fn declare_lambda_class(
        &mut self,
        class: &str,
        iface: &str,
        markers: &[String],
        sam_name: &str,
        sam_desc: &str,
        sam: &MethodDesc,
        captures: usize,
    ) -> LambdaClass {
        let caller_t = self.types.intern(class);
        let n = self.lambda_counter.entry(caller_t).or_insert(0);
        let lname = format!("{class}$$Lambda${n}");
        *n += 1;
        let lt = self.types.intern(&lname);
        let object = self.types.intern("java.lang.Object");
        let it = self.types.intern(iface);
        self.add(R::Subtype, &[lt, object]);
        self.add(R::Subtype, &[lt, it]);
        for marker in markers {
            let mt = self.types.intern(marker);
            self.add(R::Subtype, &[lt, mt]);
        }
        let flags = access::FINAL | 0x1000;
        self.modifiers_of(R::ClassModifier, lt, flags, true, false);
        // Fields for captured values.
        let mut fields = Vec::new();
        for k in 0..captures {
            let id = self.fields.intern(&field_signature(
                &lname,
                &format!("cap{k}"),
                "java.lang.Object",
            ));
            fields.push(FieldEntry {
                name: format!("cap{k}"),
                desc: "Ljava/lang/Object;".into(),
                access: access::PRIVATE | access::FINAL,
                id,
            });
            self.add(R::DeclaresField, &[lt, id]);
            self.add(R::FieldType, &[id, object]);
        }
        let msig = method_signature(&lname, sam_name, sam);
        let lm = self.methods.intern(&msig);
        let key = self.names.intern(&subsignature(sam_name, sam));
        self.add(R::DeclaresMethod, &[lt, lm]);
        self.add(R::MethodSig, &[lm, key]);
        let rt = self.types.intern(&sam.ret);
        self.add(R::MethodRet, &[lm, rt]);
        self.add_parameters(lm, &sam.params);
        self.modifiers_of(R::MethodModifier, lm, access::PUBLIC | 0x1000, false, false);
        let field_ids = fields.iter().map(|f| f.id).collect();
        self.hierarchy.add(ClassNode {
            name: lname.clone(),
            super_name: Some("java.lang.Object".into()),
            interfaces: std::iter::once(iface.to_string())
                .chain(markers.iter().cloned())
                .collect(),
            access: flags,
            methods: vec![MethodEntry {
                name: sam_name.to_string(),
                desc: sam_desc.to_string(),
                access: access::PUBLIC,
                id: lm,
                key,
            }],
            fields,
        });
        LambdaClass {
            name: lname,
            method: lm,
            fields: field_ids,
        }
    }

    /// Records the element type of every array type (`componentType`),
    /// interning the element types it names. The analysis admits into an
    /// array only objects of its element type, as the JVM does
    /// (`ArrayStoreException`): a `double[]` never holds an object, a
    /// `String[]` only strings.
    fn add_component_types(&mut self) {
        let mut t = 0;
        // Interning a component (`a.B[]` of `a.B[][]`) appends it, so the
        // loop also visits the types it adds.
        while t < self.types.len() as u32 {
            let name = self.types.name(t).to_string();
            if let Some(e) = element_type(&name) {
                let c = self.types.intern(e);
                self.add(R::ComponentType, &[t, c]);
            }
            t += 1;
        }
    }

    /// Adds the global relations once every class is declared: subtyping
    /// (`aT`), dispatch (`cha`), class objects, the strings that name
    /// types, methods and fields.
    pub fn finish(&mut self) {
        for (t, top) in std::mem::take(&mut self.nests) {
            let host = self.types.intern(&top);
            self.add(R::TypeNest, &[t, host]);
        }
        self.add_component_types();
        // Dispatch for every concrete class (and arrays, which dispatch as
        // Object).
        let n_types = self.types.len();
        for t in 0..n_types as u32 {
            let name = self.types.name(t).to_string();
            if !is_reference(&name) {
                continue;
            }
            for s in self.hierarchy.all_supertypes(&name) {
                let st = self.types.intern(&s);
                self.add(R::AT, &[st, t]);
            }
            let concrete = if name.ends_with("[]") {
                true
            } else {
                self.hierarchy
                    .get(&name)
                    .is_some_and(ClassNode::is_concrete)
            };
            if concrete {
                let table_class = if name.ends_with("[]") {
                    "java.lang.Object"
                } else {
                    name.as_str()
                };
                let table = self.hierarchy.dispatch_table(table_class);
                let mut entries: Vec<(u32, u32)> = table.iter().map(|(&k, &v)| (k, v)).collect();
                entries.sort_unstable();
                for (k, mm) in entries {
                    self.add(R::Cha, &[t, k, mm]);
                }
            }
        }
        // Types created while computing supertypes (array supertypes).
        for t in n_types as u32..self.types.len() as u32 {
            let name = self.types.name(t).to_string();
            for s in self.hierarchy.all_supertypes(&name) {
                let st = self.types.intern(&s);
                self.add(R::AT, &[st, t]);
            }
        }
        // Class objects for every declared class.
        for k in 0..self.declared.len() {
            let t = self.declared[k].0;
            let name = self.types.name(t).to_string();
            self.class_heap(&name);
        }
        // Strings that name types, methods and fields.
        let mut by_method_name: FxHashMap<String, Vec<u32>> = FxHashMap::default();
        for c in self.hierarchy.names() {
            if let Some(cn) = self.hierarchy.get(c) {
                for m in &cn.methods {
                    by_method_name.entry(m.name.clone()).or_default().push(m.id);
                }
            }
        }
        let mut by_field_name: FxHashMap<String, Vec<u32>> = FxHashMap::default();
        for c in self.hierarchy.names() {
            if let Some(cn) = self.hierarchy.get(c) {
                for f in &cn.fields {
                    by_field_name.entry(f.name.clone()).or_default().push(f.id);
                }
            }
        }
        if self.member_name_lookups {
            self.member_name_strings(by_method_name.keys().chain(by_field_name.keys()));
        }
        let mut strings: Vec<(String, u32)> = self
            .string_heaps
            .iter()
            .map(|(s, &h)| (s.clone(), h))
            .collect();
        strings.sort_unstable_by_key(|(_, h)| *h);
        for (s, h) in strings {
            if self.hierarchy.get(&s).is_some() {
                if let Some(t) = self.types.get(&s) {
                    self.add(R::StringType, &[h, t]);
                }
            }
            if let Some(ms) = by_method_name.get(&s) {
                let mut ms = ms.clone();
                ms.sort_unstable();
                for m in ms {
                    self.add(R::StringMethod, &[h, m]);
                }
            }
            if let Some(fs) = by_field_name.get(&s) {
                let mut fs = fs.clone();
                fs.sort_unstable();
                for f in fs {
                    self.add(R::StringField, &[h, f]);
                }
            }
        }
        self.reflective_objects();
        // Before the partial names, which take the concatenations' texts.
        self.name_resources();
        super::partial_names::match_partial_names(self);
        super::locale_variants::list_locale_variants(self);
    }

    /// A string for each of `names`, the names of the class path's methods
    /// and fields (but constructors and class initialisers), as the JVM
    /// interns the names that `Method.getName()` and `Field.getName()`
    /// return: the analysis gives them as those calls' results
    /// (`queries/reflection-infer.dl`), and `stringMethod` and
    /// `stringField` say which members each names. Made only where
    /// an application method looks a member up by such a name
    /// ([`looks_up_by_member_name`]): the JDK's 97,000 names of members
    /// cost the quick start (Invoke against JDK 17, `infer`) 3.3% of its
    /// time where they were made whenever the application called
    /// `getName()` (`farm-bench -n 2`, 1.025-1.040), and only the
    /// application's lookups read them. In name order, so that their
    /// numbers do not depend on hashing.
    fn member_name_strings<'a>(&mut self, names: impl Iterator<Item = &'a String>) {
        let mut names: Vec<&String> = names.filter(|n| !n.starts_with('<')).collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            self.string_heap(name);
        }
    }

    /// The objects reflection creates: one per concrete class (what
    /// `newInstance` returns), one `Method`/`Constructor` object per
    /// method and one `Field` object per field, an array per call to
    /// `getMethods()`-like lookups, and an unknown `Class` object per
    /// `Class.forName` site.
    fn reflective_objects(&mut self) {
        use super::reflection_api as api;
        for sig in api::all_signatures() {
            let m = self.methods.intern(sig);
            if !api::STRING_SOURCES.contains(&sig) {
                self.add(R::ReflectionApi, &[m]);
            }
        }
        for sig in api::STRING_SOURCES {
            if let Some(m) = self.methods.get(sig) {
                self.add(R::SpecSource, &[m]);
            }
        }
        self.member_objects();
        self.array_objects();
        self.site_objects();
    }

    /// Per class: the object `newInstance` returns (concrete classes), the
    /// proxy of an interface and its argument array, and one `Method`,
    /// `Constructor` or `Field` object per member.
    fn member_objects(&mut self) {
        let mut classes: Vec<String> = self.hierarchy.names().cloned().collect();
        classes.sort_unstable();
        for c in &classes {
            let Some(node) = self.hierarchy.get(c) else {
                continue;
            };
            let concrete = node.is_concrete();
            let interface = node.is_interface();
            let methods: Vec<u32> = node
                .methods
                .iter()
                .filter(|m| m.name != "<clinit>")
                .map(|m| m.id)
                .collect();
            let fields: Vec<u32> = node.fields.iter().map(|f| f.id).collect();
            if concrete {
                let h = self.new_heap(None, format!("<reflective new {c}>"), c);
                let t = self.types.intern(c);
                self.add(R::ReflectiveObject, &[h, t]);
            }
            // A dynamic proxy (`Proxy.newProxyInstance`) of an interface,
            // typed as the interface, and the Object[] in which its calls
            // pass their arguments to the handler (see
            // queries/models/proxies.dl).
            if interface {
                let t = self.types.intern(c);
                let p = self.new_heap(None, format!("<proxy {c}>"), c);
                self.add(R::ProxyObject, &[p, t]);
                let a = self.new_heap(None, format!("<proxy arguments {c}>"), "java.lang.Object[]");
                self.add(R::ProxyArguments, &[a, t]);
            }
            for m in methods {
                let name = self.methods.name(m).to_string();
                let ty = if name.contains(": void <init>(") {
                    "java.lang.reflect.Constructor"
                } else {
                    "java.lang.reflect.Method"
                };
                let h = self.new_heap(None, format!("<reflective {name}>"), ty);
                self.add(R::MethodObject, &[h, m]);
            }
            for f in fields {
                let name = self.fields.name(f).to_string();
                let h = self.new_heap(
                    None,
                    format!("<reflective {name}>"),
                    "java.lang.reflect.Field",
                );
                self.add(R::FieldObject, &[h, f]);
            }
        }
    }

    /// The `Class` objects of array and primitive types, and one array
    /// object per array type.
    fn array_objects(&mut self) {
        // Array types: their Class objects (what `getClass()` of an array
        // and `getComponentType()` of a nested array type return) and the
        // one array `Array.newInstance` yields for each. Only the array
        // types the class path names exist; an `Array.newInstance` of any
        // other component still reports its target.
        let array_types: Vec<u32> = self.rels[R::ComponentType as usize]
            .chunks_exact(2)
            .map(|t| t[0])
            .collect();
        for t in array_types {
            let name = self.types.name(t).to_string();
            self.class_heap(&name);
            let h = self.new_heap(None, format!("<reflective new {name}>"), &name);
            self.add(R::ArrayObject, &[h, t]);
        }
        // The primitive types' Class objects (`int.class` is
        // `Integer.TYPE`, which the JVM fills in).
        for p in PRIMITIVE_TYPES {
            self.class_heap(p);
        }
    }

    /// Per call site of a reflective lookup: the array a `getMethods()`-like
    /// call returns, the placeholder of an unknown member, the `Class`
    /// object of an unknown class, and the handle a method-handle lookup
    /// returns.
    fn site_objects(&mut self) {
        use super::reflection_api as api;
        let arrays: Vec<(&str, &str)> = api::GET_METHODS
            .iter()
            .map(|x| (x.0, "java.lang.reflect.Method[]"))
            .chain(
                api::GET_FIELDS
                    .iter()
                    .map(|x| (x.0, "java.lang.reflect.Field[]")),
            )
            .chain(
                api::GET_CONSTRUCTORS
                    .iter()
                    .map(|x| (x.0, "java.lang.reflect.Constructor[]")),
            )
            .chain(
                api::METAOBJECT_CLASSES
                    .iter()
                    .filter(|x| x.1)
                    .map(|x| (x.0, "java.lang.Class[]")),
            )
            .collect();
        let array_targets: Vec<(u32, &str)> = arrays
            .iter()
            .filter_map(|(s, t)| self.methods.get(s).map(|m| (m, *t)))
            .collect();
        // Every member lookup, by what its placeholder stands for.
        let lookups: Vec<(u32, &str)> = api::GET_METHOD
            .iter()
            .chain(api::GET_METHODS)
            .map(|x| (x.0, "java.lang.reflect.Method"))
            .chain(
                api::GET_FIELD
                    .iter()
                    .chain(api::GET_FIELDS)
                    .map(|x| (x.0, "java.lang.reflect.Field")),
            )
            .chain(
                api::GET_CONSTRUCTOR
                    .iter()
                    .chain(api::GET_CONSTRUCTORS)
                    .map(|x| (x.0, "java.lang.reflect.Constructor")),
            )
            .filter_map(|(s, t)| self.methods.get(s).map(|m| (m, t)))
            .collect();
        let by_name: Vec<u32> = api::CLASS_BY_NAME
            .iter()
            .filter_map(|x| self.methods.get(x.1))
            .collect();
        // The calls that make a handle, each with what it makes and its type.
        let methods = |sigs: Vec<&str>| -> Vec<u32> {
            sigs.into_iter()
                .filter_map(|x| self.methods.get(x))
                .collect()
        };
        let handles: [(Vec<u32>, &str, &str); 3] = [
            (
                methods(
                    (api::HANDLE_LOOKUPS.iter().map(|x| x.1))
                        .chain([api::HANDLE_BIND_TO, api::HANDLE_INSERT_ARGUMENTS])
                        .collect(),
                ),
                "method handle",
                "java.lang.invoke.MethodHandle",
            ),
            (
                methods(
                    (api::VAR_HANDLE_LOOKUPS.iter().map(|x| x.1))
                        .chain([api::VAR_HANDLE_ARRAY])
                        .collect(),
                ),
                "var handle",
                "java.lang.invoke.VarHandle",
            ),
            (
                methods(vec![api::FIELD_UPDATER_NEW]),
                "field updater",
                "java.util.concurrent.atomic.AtomicReferenceFieldUpdater",
            ),
        ];
        for i in 0..self.sites.len() as u32 {
            let target = self.sites[i as usize].target;
            if let Some((_, ty)) = array_targets.iter().find(|(m, _)| *m == target) {
                let h = self.new_heap(None, format!("{} reflective array", self.site_name(i)), ty);
                self.add(R::ReflectiveArray, &[i, h]);
            }
            if let Some((_, ty)) = lookups.iter().find(|(m, _)| *m == target) {
                let h = self.new_heap(None, format!("{} unknown member", self.site_name(i)), ty);
                self.add(R::MemberPlaceholder, &[i, h]);
            }
            if by_name.contains(&target) {
                let h = self.new_heap(
                    None,
                    format!("{} unknown class", self.site_name(i)),
                    "java.lang.Class",
                );
                self.add(R::UnknownClassObject, &[i, h]);
            }
            for (makers, what, ty) in &handles {
                if makers.contains(&target) {
                    let h = self.new_heap(None, format!("{} {what}", self.site_name(i)), ty);
                    self.add(R::HandleObject, &[i, h]);
                }
            }
        }
    }

    /// The name of variable `v` for the `V` map.
    pub fn var_name(&self, v: u32) -> String {
        let (m, local) = &self.vars[v as usize];
        if *m == u32::MAX {
            local.to_string()
        } else {
            format!("{}/{}", self.methods.name(*m), local)
        }
    }

    /// Number of variables.
    pub fn var_count(&self) -> usize {
        self.vars.len()
    }

    /// Number of invocation sites.
    pub fn site_count(&self) -> usize {
        self.sites.len()
    }

    /// The size of the `I` domain: the invocation sites, then the names
    /// that the rules hold ([`Self::hold_site`]).
    pub fn site_domain_size(&self) -> usize {
        self.sites.len() + self.held_sites.len()
    }

    /// Adds `name` to the `I` domain after the invocation sites, unless it
    /// is there already: a name that the analysis's rules use as a
    /// constant and that no instruction is (`<no call site>`, the context
    /// of the methods that no call site calls). A name of the form of a
    /// real site (`<caller>[bci@Lline] ...`) is not added: the rules never
    /// name one, and it would stand for a second site of that name.
    pub fn hold_site(&mut self, name: &str) {
        if !name.contains('[') && !self.held_sites.iter().any(|n| n == name) {
            self.held_sites.push(name.to_string());
        }
    }

    /// The method, bytecode index and line of invocation site `i`.
    pub fn site_info(&self, i: u32) -> (u32, u32, u32) {
        let s = &self.sites[i as usize];
        (s.method, s.bci, s.line)
    }

    /// The method that invocation site `i` calls (its `M` element).
    pub fn site_target(&self, i: u32) -> u32 {
        self.sites[i as usize].target
    }

    /// The name of invocation site `i` for the `I` map:
    /// `<caller>[bci@Lline] invokekind <target>`, or a held name
    /// ([`Self::hold_site`]).
    pub fn site_name(&self, i: u32) -> String {
        let Some(s) = self.sites.get(i as usize) else {
            return self.held_sites[i as usize - self.sites.len()].clone();
        };
        format!(
            "{}[{}@L{}] {} {}",
            self.methods.name(s.method),
            s.bci,
            s.line,
            s.kind,
            self.methods.name(s.target)
        )
    }
}

/// The methods whose calls define `v` (their result).
fn result_calls(ir: &MethodIr, v: Var) -> impl Iterator<Item = &MemberRef> {
    ir.stmts.iter().filter_map(move |s| match s {
        Stmt::Invoke(inv) if inv.result == Some(v) => Some(&inv.target),
        _ => None,
    })
}

/// Whether `ir` looks a member up by name (`Class.getMethod`,
/// `getField`, `Lookup.findVirtual`, `findVarHandle`,
/// `AtomicReferenceFieldUpdater.newUpdater` and the like: the lookup's
/// first `String` parameter is the name) with a name that a metaobject's
/// `getName()` returned in it
/// ([`super::reflection_api::MEMBER_NAME_CALLS`]), directly or through
/// copies, pieces and concatenations: `target.getClass().getMethod(
/// m.getName(), m.getParameterTypes())`, `c.getMethod("set" +
/// getter.getName().substring(3), ...)`.
fn looks_up_by_member_name(ir: &MethodIr) -> bool {
    use super::reflection_api as api;
    // The calls, each with its signature and descriptor, parsed once.
    let calls: Vec<(&Invoke, String, MethodDesc)> = (ir.stmts.iter())
        .filter_map(|s| match s {
            Stmt::Invoke(inv) => {
                let t = &inv.target;
                let desc = method_desc(&t.desc)?;
                Some((inv, method_signature(&t.class, &t.name, &desc), desc))
            }
            _ => None,
        })
        .collect();
    let mut names: FxHashSet<Var> = (calls.iter())
        .filter(|(_, sig, _)| api::MEMBER_NAME_CALLS.contains(&sig.as_str()))
        .filter_map(|(inv, _, _)| inv.result)
        .collect();
    if names.is_empty() {
        return false;
    }
    // Through copies, and into pieces and concatenations of the name
    // (`"set" + getter.getName().substring(3)`).
    loop {
        let before = names.len();
        for s in &ir.stmts {
            match s {
                Stmt::Assign { dst, src } if names.contains(src) => {
                    names.insert(*dst);
                }
                Stmt::Concat { dst, parts, .. }
                    if parts.iter().any(|p| {
                        matches!(p, ConcatPart::Var(v) | ConcatPart::Maybe(v) if names.contains(v))
                    }) =>
                {
                    names.insert(*dst);
                }
                _ => {}
            }
        }
        for p in &ir.string_pieces {
            if names.contains(&p.source) {
                names.insert(p.piece);
            }
        }
        if names.len() == before {
            break;
        }
    }
    let lookups: Vec<&str> = (api::GET_METHOD.iter().chain(api::GET_FIELD))
        .map(|x| x.0)
        .chain(
            api::HANDLE_LOOKUPS
                .iter()
                .chain(api::VAR_HANDLE_LOOKUPS)
                .map(|x| x.1),
        )
        .chain([api::FIELD_UPDATER_NEW])
        .collect();
    calls.iter().any(|(inv, sig, desc)| {
        let name = desc.params.iter().position(|p| p == "java.lang.String");
        lookups.contains(&sig.as_str())
            && name
                .and_then(|k| inv.args.get(k).copied().flatten())
                .is_some_and(|v| names.contains(&v))
    })
}

/// Whether `v` is the result of a call that returns a class's name
/// ([`super::reflection_api::CLASS_NAMES`]).
fn class_name_result(ir: &MethodIr, v: Var) -> bool {
    result_calls(ir, v).any(|t| {
        t.class == "java.lang.Class"
            && t.desc == "()Ljava/lang/String;"
            && super::reflection_api::CLASS_NAMES.contains(&t.name.as_str())
    })
}

/// The body of a lambda's synthetic method: load the captured values
/// from the lambda's fields, then call the implementation (`impl_kind` is
/// the method handle's reference kind: 6 static, 7 special, 8 a
/// constructor, whose new object is the result, 9 interface, else
/// virtual) with them and the method's own parameters, and return its
/// result. `None` for a malformed implementation descriptor.
fn lambda_body(
    lname: &str,
    sam: &MethodDesc,
    captured: &[Option<u32>],
    impl_kind: u8,
    implementation: &MemberRef,
) -> Option<MethodIr> {
    let mut ir = MethodIr::skeleton(false, lname, &sam.params, &sam.ret);
    let this = ir.params[0].unwrap_or(0);
    let mut args: Vec<Option<u32>> = Vec::new();
    for (k, c) in captured.iter().enumerate() {
        args.push(c.map(|_| {
            let v = ir.new_var(format!("cap{k}"), "java.lang.Object");
            ir.stmts.push(Stmt::Load {
                dst: v,
                base: this,
                field: MemberRef {
                    class: lname.to_string(),
                    name: format!("cap{k}"),
                    desc: "Ljava/lang/Object;".into(),
                    interface: false,
                },
            });
            v
        }));
    }
    args.extend(ir.params[1..].iter().copied());
    let idesc = method_desc(&implementation.desc)?;
    let (kind, receiver, rest): (InvokeKind, Option<u32>, Vec<Option<u32>>) = match impl_kind {
        6 => (InvokeKind::Static, None, args),
        8 => {
            let obj = ir.new_var("new", implementation.class.clone());
            ir.stmts.push(Stmt::New {
                bci: 0,
                level: 0,
                dst: obj,
                ty: implementation.class.clone(),
                length: None,
            });
            if let Some(r) = ir.ret {
                ir.stmts.push(Stmt::Assign { dst: r, src: obj });
            }
            (InvokeKind::Special, Some(obj), args)
        }
        k => {
            let kind = match k {
                7 => InvokeKind::Special,
                9 => InvokeKind::Interface,
                _ => InvokeKind::Virtual,
            };
            let recv = args.first().copied().flatten();
            (kind, recv, args.into_iter().skip(1).collect())
        }
    };
    let mut rest = rest;
    rest.resize(idesc.params.len(), None);
    for (a, p) in rest.iter_mut().zip(&idesc.params) {
        if !is_reference(p) {
            *a = None;
        }
    }
    let result = if impl_kind != 8 && is_reference(&idesc.ret) {
        let r = ir.new_var("result", idesc.ret.clone());
        if let Some(ret) = ir.ret {
            ir.stmts.push(Stmt::Assign { dst: ret, src: r });
        }
        Some(r)
    } else {
        None
    };
    ir.stmts.push(Stmt::Invoke(Invoke {
        bci: 0,
        kind,
        target: implementation.clone(),
        receiver,
        args: rest,
        result,
        handlers: Vec::new(),
    }));
    Some(ir)
}

/// A member filter's condition as its object's name gives it
/// (`name startsWith "set"`, `annotated a.Test`, `parameters 1`).
fn describe_passes(passes: &Passes) -> String {
    match passes {
        Passes::Name { how, text } => {
            let how = match how {
                NameMatch::Prefix => "startsWith",
                NameMatch::Suffix => "endsWith",
                NameMatch::Exact => "equals",
            };
            format!("name {how} {text:?}")
        }
        Passes::Annotated(t) => format!("annotated {t}"),
        Passes::Modifier(m) => format!("modifier {m}"),
        Passes::Arity(n) => format!("parameters {n}"),
        Passes::Type(how, t) => format!("type {}{t}", below(*how)),
        Passes::Parameter(k, how, t) => format!("parameter {k} {}{t}", below(*how)),
    }
}

/// The word a filter's name puts before a type that a member's type may
/// be a subtype of.
fn below(how: TypeMatch) -> &'static str {
    match how {
        TypeMatch::Exact => "",
        TypeMatch::Below => "below ",
    }
}

/// Whether `path` (`a/b/c`) is a package's path: `/`-separated Java
/// identifiers.
fn is_package_path(path: &str) -> bool {
    path.split('/').all(super::strings::is_identifier)
}

/// The base name that `ResourceBundle.getBundle` takes for the properties
/// file `name`, and the file's locale (`a/b/Messages_en_US.properties` ->
/// `a.b.Messages`, `en_US`; empty for the base bundle): its path without
/// `.properties` and without a locale suffix (see
/// [`super::locale_variants::is_locale`]), with dots for slashes, as
/// `ResourceBundle.Control.toBundleName` and `toResourceName` build the
/// file's name from them (JDK 17).
fn bundle_base_name(name: &str) -> Option<(String, String)> {
    let stem = name.strip_suffix(".properties")?;
    let file_start = stem.rfind('/').map_or(0, |k| k + 1);
    let file = &stem[file_start..];
    let base_len = (file.match_indices('_'))
        .map(|(k, _)| k)
        .find(|&k| k > 0 && super::locale_variants::is_locale(&file[k + 1..]))
        .unwrap_or(file.len());
    let base = &stem[..file_start + base_len];
    let locale = file.get(base_len + 1..).unwrap_or_default();
    (!base.is_empty()).then(|| (base.replace('/', "."), locale.to_string()))
}

#[cfg(test)]
mod tests {
    use super::{bundle_base_name, looks_up_by_member_name};
    use crate::ir::{test_call, ConcatPart, InvokeKind, MethodIr, Stmt, StringPiece};

    /// A method that looks a method of `Class` up by `name`, which
    /// `parts` (a concatenation, or the single variable itself) make of
    /// `getter.getName()` (variable 1) and its `substring(3)` (variable 2).
    fn lookup_by(parts: Option<Vec<ConcatPart>>) -> MethodIr {
        let mut ir = MethodIr::default();
        let method = ir.new_var("getter", "java.lang.reflect.Method");
        let got = ir.new_var("got", "java.lang.String");
        let rest = ir.new_var("rest", "java.lang.String");
        let class = ir.new_var("c", "java.lang.Class");
        let types = ir.new_var("types", "java.lang.Class[]");
        let string = "()Ljava/lang/String;";
        let get_name = ("java.lang.reflect.Method", "getName", string);
        ir.stmts.push(test_call(
            InvokeKind::Virtual,
            Some(method),
            get_name,
            vec![],
            Some(got),
        ));
        let substring = ("java.lang.String", "substring", "(I)Ljava/lang/String;");
        ir.stmts.push(test_call(
            InvokeKind::Virtual,
            Some(got),
            substring,
            vec![None],
            Some(rest),
        ));
        ir.string_pieces.push(StringPiece {
            piece: rest,
            source: got,
            from: Some(3),
        });
        let name = match parts {
            Some(parts) => {
                let dst = ir.new_var("name", "java.lang.String");
                ir.stmts.push(Stmt::Concat { bci: 9, dst, parts });
                dst
            }
            None => rest,
        };
        let get_method = (
            "java.lang.Class",
            "getMethod",
            "(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;",
        );
        let args = vec![Some(name), Some(types)];
        ir.stmts.push(test_call(
            InvokeKind::Virtual,
            Some(class),
            get_method,
            args,
            None,
        ));
        ir
    }

    /// A lookup by a name made of a metaobject's name, through a piece
    /// of it and a concatenation (`"set" + getter.getName().substring(3)`),
    /// looks a member up by a member's name; a lookup by a constant does
    /// not.
    #[test]
    fn names_made_of_a_metaobjects_name_look_members_up_by_name() {
        let set = || ConcatPart::Const("set".into());
        let setter = vec![set(), ConcatPart::Var(2)];
        assert!(looks_up_by_member_name(&lookup_by(Some(setter))));
        assert!(looks_up_by_member_name(&lookup_by(None)));
        assert!(!looks_up_by_member_name(&lookup_by(Some(vec![set()]))));
    }

    #[test]
    fn a_properties_file_s_bundle_base_name_drops_its_locale() {
        let base = |name| bundle_base_name(name);
        let named = |base: &str, locale: &str| Some((base.to_string(), locale.to_string()));
        assert_eq!(base("a/b/Messages.properties"), named("a.b.Messages", ""));
        assert_eq!(
            base("a/b/Messages_en_US.properties"),
            named("a.b.Messages", "en_US")
        );
        assert_eq!(
            base("My_Messages_de.properties"),
            named("My_Messages", "de")
        );
        assert_eq!(
            base("r/drivers_zh_Hant_TW.properties"),
            named("r.drivers", "zh_Hant_TW")
        );
        assert_eq!(base("a/_en.properties"), named("a._en", ""));
        assert_eq!(base("a/b/notes.txt"), None);
    }
}
