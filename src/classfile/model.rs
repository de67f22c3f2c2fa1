//! A class as the front end sees it: names resolved, attributes grouped,
//! and a constant pool that answers typed questions.

use super::descriptor::class_to_type;
use super::sanitize::sanitize_keeping_module;
use jclassfile::attributes::Attribute;
use jclassfile::constant_pool::ConstantPool as Cp;

/// Why a class could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ClassError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, ClassError> {
    Err(ClassError(msg.into()))
}

/// Access flag bits shared by classes, fields and methods (JVMS §4).
pub mod access {
    /// `ACC_PUBLIC`
    pub const PUBLIC: u16 = 0x0001;
    /// `ACC_PRIVATE`
    pub const PRIVATE: u16 = 0x0002;
    /// `ACC_PROTECTED`
    pub const PROTECTED: u16 = 0x0004;
    /// `ACC_STATIC`
    pub const STATIC: u16 = 0x0008;
    /// `ACC_FINAL`
    pub const FINAL: u16 = 0x0010;
    /// `ACC_NATIVE`
    pub const NATIVE: u16 = 0x0100;
    /// `ACC_INTERFACE`
    pub const INTERFACE: u16 = 0x0200;
    /// `ACC_ABSTRACT`
    pub const ABSTRACT: u16 = 0x0400;
    /// `ACC_MODULE`
    pub const MODULE: u16 = 0x8000;
}

/// A field or method reference from the constant pool.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MemberRef {
    /// The class named by the reference (binary name or array type).
    pub class: String,
    /// The member name.
    pub name: String,
    /// The JVM descriptor.
    pub desc: String,
    /// Whether it is an `InterfaceMethodref`.
    pub interface: bool,
}

/// A loadable constant (`ldc`, bootstrap arguments).
#[derive(Clone, Debug, PartialEq)]
pub enum Constant {
    /// `int`, `short`, `char`, `byte`, `boolean`.
    Int(i32),
    /// `float`.
    Float(f32),
    /// `long`.
    Long(i64),
    /// `double`.
    Double(f64),
    /// A string literal.
    String(String),
    /// A class literal (`T.class`), as a type name.
    Class(String),
    /// A method handle: its kind (JVMS §5.4.3.5) and member.
    MethodHandle(u8, MemberRef),
    /// A method type descriptor.
    MethodType(String),
    /// A dynamically computed constant (condy), by name and descriptor.
    Dynamic(String, String),
}

/// The constant pool.
#[derive(Debug)]
pub struct Pool(Vec<Cp>);

impl Pool {
    fn get(&self, i: u16) -> Result<&Cp, ClassError> {
        match self.0.get(i as usize) {
            Some(Cp::Empty) | None => err(format!("constant pool index #{i} is invalid")),
            Some(c) => Ok(c),
        }
    }

    /// A `Utf8` entry.
    pub fn utf8(&self, i: u16) -> Result<&str, ClassError> {
        match self.get(i)? {
            Cp::Utf8 { value } => Ok(value),
            _ => err(format!("constant #{i} is not Utf8")),
        }
    }

    /// A `Class` entry as a type name.
    pub fn class(&self, i: u16) -> Result<String, ClassError> {
        match self.get(i)? {
            Cp::Class { name_index } => {
                let n = self.utf8(*name_index)?;
                class_to_type(n).ok_or_else(|| ClassError(format!("bad class name {n:?}")))
            }
            _ => err(format!("constant #{i} is not a Class")),
        }
    }

    /// A `Module` entry's name (`java.base`).
    pub fn module_name(&self, i: u16) -> Result<String, ClassError> {
        match self.get(i)? {
            Cp::Module { name_index } => Ok(self.utf8(*name_index)?.to_string()),
            _ => err(format!("constant #{i} is not a Module")),
        }
    }

    /// A `Package` entry's name as a binary name (`java/lang` is
    /// `java.lang`).
    pub fn package_name(&self, i: u16) -> Result<String, ClassError> {
        match self.get(i)? {
            Cp::Package { name_index } => Ok(self.utf8(*name_index)?.replace('/', ".")),
            _ => err(format!("constant #{i} is not a Package")),
        }
    }

    /// A `NameAndType` entry.
    pub fn name_and_type(&self, i: u16) -> Result<(&str, &str), ClassError> {
        match self.get(i)? {
            Cp::NameAndType {
                name_index,
                descriptor_index,
            } => Ok((self.utf8(*name_index)?, self.utf8(*descriptor_index)?)),
            _ => err(format!("constant #{i} is not a NameAndType")),
        }
    }

    /// A `Fieldref`, `Methodref` or `InterfaceMethodref` entry.
    pub fn member(&self, i: u16) -> Result<MemberRef, ClassError> {
        let (class_index, nat, interface) = match self.get(i)? {
            Cp::Fieldref {
                class_index,
                name_and_type_index,
            }
            | Cp::Methodref {
                class_index,
                name_and_type_index,
            } => (*class_index, *name_and_type_index, false),
            Cp::InterfaceMethodref {
                class_index,
                name_and_type_index,
            } => (*class_index, *name_and_type_index, true),
            _ => return err(format!("constant #{i} is not a member reference")),
        };
        let (name, desc) = self.name_and_type(nat)?;
        Ok(MemberRef {
            class: self.class(class_index)?,
            name: name.to_string(),
            desc: desc.to_string(),
            interface,
        })
    }

    /// An `InvokeDynamic` entry: bootstrap index, name and descriptor.
    pub fn invoke_dynamic(&self, i: u16) -> Result<(u16, &str, &str), ClassError> {
        match self.get(i)? {
            Cp::InvokeDynamic {
                bootstrap_method_attr_index,
                name_and_type_index,
            } => {
                let (n, d) = self.name_and_type(*name_and_type_index)?;
                Ok((*bootstrap_method_attr_index, n, d))
            }
            _ => err(format!("constant #{i} is not InvokeDynamic")),
        }
    }

    /// A loadable constant.
    pub fn constant(&self, i: u16) -> Result<Constant, ClassError> {
        Ok(match self.get(i)? {
            Cp::Integer { value } => Constant::Int(*value),
            Cp::Float { value } => Constant::Float(*value),
            Cp::Long { value } => Constant::Long(*value),
            Cp::Double { value } => Constant::Double(*value),
            Cp::String { string_index } => Constant::String(self.utf8(*string_index)?.to_string()),
            Cp::Class { .. } => Constant::Class(self.class(i)?),
            Cp::MethodHandle {
                reference_kind,
                reference_index,
            } => Constant::MethodHandle(*reference_kind, self.member(*reference_index)?),
            Cp::MethodType { descriptor_index } => {
                Constant::MethodType(self.utf8(*descriptor_index)?.to_string())
            }
            Cp::Dynamic {
                name_and_type_index,
                ..
            } => {
                let (n, d) = self.name_and_type(*name_and_type_index)?;
                Constant::Dynamic(n.to_string(), d.to_string())
            }
            _ => return err(format!("constant #{i} is not loadable")),
        })
    }
}

/// An exception handler of a method body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handler {
    /// First protected bytecode index.
    pub start: u32,
    /// One past the last protected bytecode index.
    pub end: u32,
    /// The handler's bytecode index.
    pub handler: u32,
    /// The caught type (`None` catches everything, as `finally` does).
    pub catch_type: Option<String>,
}

/// A method body.
#[derive(Clone, Debug)]
pub struct Code {
    /// Number of local variable slots.
    pub max_locals: u16,
    /// The bytecode.
    pub bytes: Vec<u8>,
    /// Exception handlers, in table order.
    pub handlers: Vec<Handler>,
    /// `(start bci, line)` pairs, sorted by bci.
    pub lines: Vec<(u32, u32)>,
}

impl Code {
    /// The source line of a bytecode index (0 if unknown).
    pub fn line_of(&self, bci: u32) -> u32 {
        match self.lines.partition_point(|&(pc, _)| pc <= bci) {
            0 => 0,
            k => self.lines[k - 1].1,
        }
    }
}

/// A declared method.
#[derive(Clone, Debug)]
pub struct MethodDecl {
    /// Name (`<init>`, `<clinit>` included).
    pub name: String,
    /// JVM descriptor.
    pub desc: String,
    /// Access flags.
    pub access: u16,
    /// The body, if the method is neither abstract nor native.
    pub code: Option<Code>,
    /// The types of its runtime-visible annotations (binary names).
    pub annotations: Vec<String>,
    /// The types of its parameters' runtime-visible annotations (binary
    /// names), each with its parameter's index as the class file numbers
    /// them (`RuntimeVisibleParameterAnnotations`).
    pub parameter_annotations: Vec<(u8, String)>,
}

/// A declared field.
#[derive(Clone, Debug)]
pub struct FieldDecl {
    /// Name.
    pub name: String,
    /// JVM descriptor.
    pub desc: String,
    /// Access flags.
    pub access: u16,
    /// The types of its runtime-visible annotations (binary names).
    pub annotations: Vec<String>,
}

/// A bootstrap method entry: the method handle and its static arguments
/// (constant pool indexes).
#[derive(Clone, Debug)]
pub struct Bootstrap {
    /// The bootstrap method handle's constant pool index.
    pub method: u16,
    /// Static arguments' constant pool indexes.
    pub args: Vec<u16>,
}

/// A parsed class.
#[derive(Debug)]
pub struct ClassInfo {
    /// Binary name, `a.B$C`.
    pub name: String,
    /// Superclass (`None` for java.lang.Object and module-info).
    pub super_name: Option<String>,
    /// Direct superinterfaces.
    pub interfaces: Vec<String>,
    /// Access flags.
    pub access: u16,
    /// Class file major version.
    pub major: u16,
    /// The `SourceFile` attribute.
    pub source_file: Option<String>,
    /// Declared fields.
    pub fields: Vec<FieldDecl>,
    /// Declared methods.
    pub methods: Vec<MethodDecl>,
    /// Bootstrap methods for `invokedynamic` and condy.
    pub bootstrap: Vec<Bootstrap>,
    /// The constant pool.
    pub pool: Pool,
    /// A module-info's `Module` attribute: its name, what it exports and
    /// opens, and what it provides.
    pub module: Option<ModuleDecl>,
    /// The types of the class's runtime-visible annotations (binary
    /// names).
    pub annotations: Vec<String>,
}

/// The binary names of annotation type descriptors (`Lp/Ann;` is
/// `p.Ann`); anything that is not a class descriptor is left out.
fn annotation_names(descriptors: &[String]) -> Vec<String> {
    descriptors
        .iter()
        .filter_map(|d| annotation_name(d))
        .collect()
}

/// The binary name of one annotation type descriptor, if it is a class
/// descriptor.
fn annotation_name(descriptor: &str) -> Option<String> {
    let name = descriptor.strip_prefix('L')?.strip_suffix(';')?;
    Some(name.replace('/', "."))
}

impl ClassInfo {
    /// Whether this is `module-info` (no code, not a type).
    pub fn is_module_info(&self) -> bool {
        self.access & access::MODULE != 0
    }
}

/// Reads a class file. Unknown and unused attributes are ignored (see
/// [`sanitize`](super::sanitize)); structural damage is an error.
pub fn read_class(bytes: &[u8]) -> Result<ClassInfo, ClassError> {
    let (clean, extracted) =
        sanitize_keeping_module(bytes).map_err(|e| ClassError(e.to_string()))?;
    let module = extracted.module;
    let cf = jclassfile::class_file::parse(&clean).map_err(|e| ClassError(e.to_string()))?;
    let pool = Pool(cf.constant_pool().clone());
    let access = cf.access_flags().bits();
    let name = if access & access::MODULE != 0 {
        "module-info".to_string()
    } else {
        pool.class(cf.this_class())?
    };
    let super_name = match cf.super_class() {
        0 => None,
        i => Some(pool.class(i)?),
    };
    let interfaces = cf
        .interfaces()
        .iter()
        .map(|&i| pool.class(i))
        .collect::<Result<_, _>>()?;
    let mut source_file = None;
    let mut bootstrap = Vec::new();
    for a in cf.attributes() {
        match a {
            Attribute::SourceFile { sourcefile_index } => {
                source_file = Some(pool.utf8(*sourcefile_index)?.to_string())
            }
            Attribute::BootstrapMethods { bootstrap_methods } => {
                bootstrap = bootstrap_methods
                    .iter()
                    .map(|b| Bootstrap {
                        method: b.bootstrap_method_ref(),
                        args: b.bootstrap_arguments().clone(),
                    })
                    .collect()
            }
            _ => {}
        }
    }
    let fields = cf
        .fields()
        .iter()
        .enumerate()
        .map(|(k, f)| {
            Ok(FieldDecl {
                name: pool.utf8(f.name_index())?.to_string(),
                desc: pool.utf8(f.descriptor_index())?.to_string(),
                access: f.access_flags().bits(),
                annotations: extracted
                    .field_annotations
                    .get(k)
                    .map_or_else(Vec::new, |a| annotation_names(a)),
            })
        })
        .collect::<Result<_, ClassError>>()?;
    let mut methods = Vec::with_capacity(cf.methods().len());
    for (k, m) in cf.methods().iter().enumerate() {
        let mut code = None;
        for a in m.attributes() {
            if let Attribute::Code {
                max_locals,
                code: bytes,
                exception_table,
                attributes,
                ..
            } = a
            {
                let mut handlers = Vec::with_capacity(exception_table.len());
                for h in exception_table {
                    handlers.push(Handler {
                        start: h.start_pc() as u32,
                        end: h.end_pc() as u32,
                        handler: h.handler_pc() as u32,
                        catch_type: match h.catch_type() {
                            0 => None,
                            i => Some(pool.class(i)?),
                        },
                    });
                }
                let mut lines = Vec::new();
                for a in attributes {
                    if let Attribute::LineNumberTable { line_number_table } = a {
                        lines.extend(
                            line_number_table
                                .iter()
                                .map(|r| (r.start_pc() as u32, r.line_number() as u32)),
                        );
                    }
                }
                lines.sort_unstable();
                code = Some(Code {
                    max_locals: *max_locals,
                    bytes: bytes.clone(),
                    handlers,
                    lines,
                });
            }
        }
        methods.push(MethodDecl {
            name: pool.utf8(m.name_index())?.to_string(),
            desc: pool.utf8(m.descriptor_index())?.to_string(),
            access: m.access_flags().bits(),
            code,
            annotations: extracted
                .method_annotations
                .get(k)
                .map_or_else(Vec::new, |a| annotation_names(a)),
            parameter_annotations: extracted.parameter_annotations.get(k).map_or_else(
                Vec::new,
                |a| {
                    a.iter()
                        .filter_map(|(p, d)| Some((*p, annotation_name(d)?)))
                        .collect()
                },
            ),
        });
    }
    let module = match &module {
        Some(body) => Some(module_decl(body, &pool)?),
        None => None,
    };
    Ok(ClassInfo {
        name,
        super_name,
        interfaces,
        access,
        major: cf.major_version(),
        source_file,
        fields,
        methods,
        bootstrap,
        pool,
        module,
        annotations: annotation_names(&extracted.class_annotations),
    })
}

/// A package that a module exports or opens, and to whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageGrant {
    /// The package, as a binary name (`java.lang`).
    pub package: String,
    /// The modules it is exported or opened to; empty for every module.
    pub to: Vec<String>,
}

/// What a `Module` attribute (JVMS §4.7.25) declares, as far as the
/// analysis needs it: the module's name, whether it is an `open` module,
/// its `exports` and `opens` (which decide what reflection from other
/// modules may use), and its `provides` (the services its classes
/// implement).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModuleDecl {
    /// The module's name (`java.base`).
    pub name: String,
    /// An `open module`: every package is open to every module.
    pub open: bool,
    /// The `exports` clauses.
    pub exports: Vec<PackageGrant>,
    /// The `opens` clauses.
    pub opens: Vec<PackageGrant>,
    /// The `provides S with P1, P2` clauses: (service, providers), binary
    /// names.
    pub provides: Vec<(String, Vec<String>)>,
}

/// `ACC_OPEN` in a `Module` attribute's `module_flags`.
const MODULE_OPEN: u16 = 0x0020;

/// Reads a `Module` attribute body (JVMS §4.7.25).
fn module_decl(body: &[u8], pool: &Pool) -> Result<ModuleDecl, ClassError> {
    let mut at = 0usize;
    let mut u16_at = || -> Result<u16, ClassError> {
        let b = body
            .get(at..at + 2)
            .ok_or_else(|| ClassError("the Module attribute is truncated".into()))?;
        at += 2;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    };
    let name = pool.module_name(u16_at()?)?;
    let flags = u16_at()?;
    let _version = u16_at()?;
    let requires = u16_at()?;
    for _ in 0..requires {
        // requires_index, requires_flags, requires_version_index
        for _ in 0..3 {
            u16_at()?;
        }
    }
    let mut grants = [Vec::new(), Vec::new()];
    for clauses in &mut grants {
        let n = u16_at()?;
        for _ in 0..n {
            let package = pool.package_name(u16_at()?)?;
            let _flags = u16_at()?;
            let k = u16_at()?;
            let mut to = Vec::with_capacity(k as usize);
            for _ in 0..k {
                to.push(pool.module_name(u16_at()?)?);
            }
            clauses.push(PackageGrant { package, to });
        }
    }
    let uses = u16_at()?;
    for _ in 0..uses {
        u16_at()?;
    }
    let n = u16_at()?;
    let mut provides = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let service = pool.class(u16_at()?)?;
        let k = u16_at()?;
        let mut providers = Vec::with_capacity(k as usize);
        for _ in 0..k {
            providers.push(pool.class(u16_at()?)?);
        }
        provides.push((service, providers));
    }
    let [exports, opens] = grants;
    Ok(ModuleDecl {
        name,
        open: flags & MODULE_OPEN != 0,
        exports,
        opens,
        provides,
    })
}
