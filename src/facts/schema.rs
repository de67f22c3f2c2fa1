//! The program database schema: domains and input relations, following
//! the bddbddb/Joeq pointer-analysis schema (`pa.datalog`) and adding the
//! members, strings and locations that reflection analysis needs.

/// A domain: name and what it holds.
///
/// The order is the BDD variable order (one interleaved block per domain,
/// top to bottom), after bddbddb's `N_F_Z_I_M_T_V_H` for `pa.datalog`:
/// with `T` above `V` above `H`, the type filter `vT ⋈ aT ⋈ hT` joins on
/// types at the top, and `vP`, `hP` keep heap objects at the bottom.
pub const DOMAINS: &[(&str, &str)] = &[
    (
        "N",
        "names: method sub-signatures used for dispatch (N 0 is <direct>, not dispatched) and parameter lists",
    ),
    ("F", "fields; F 0 is [] (the elements of any array)"),
    (
        "Z",
        "argument positions (0 is the receiver of instance calls)",
    ),
    ("I", "invocation sites"),
    ("M", "methods"),
    ("T", "types: classes, interfaces, arrays and primitives"),
    (
        "V",
        "variables; V 0 is <global>, the base of every static field access",
    ),
    (
        "H",
        "heap objects: allocation sites, string constants, Class objects, lambdas",
    ),
    ("MOD", "modifiers"),
    ("BCI", "bytecode indexes"),
    ("LINE", "source lines (0 when unknown)"),
    (
        "PKG",
        "packages, the scopes of package access (<unnamed> is the unnamed package)",
    ),
    (
        "MODULE",
        "the JDK's named modules, the scopes of strong encapsulation (<unnamed> is the class path's)",
    ),
];

/// An input relation: name, attributes as (name, domain), description.
pub struct RelationSchema {
    /// Relation name.
    pub name: &'static str,
    /// `(attribute, domain)` pairs.
    pub attrs: &'static [(&'static str, &'static str)],
    /// What a tuple means.
    pub doc: &'static str,
}

/// Declares every relation `refract facts` writes once: the variant of
/// [`R`] that the front end emits tuples with, and its entry of
/// [`RELATIONS`] (name, attributes, meaning), in the same order, so that
/// `R::X as usize` is X's index by construction.
macro_rules! relations {
    ($($variant:ident => $name:literal, [$(($a:literal, $d:literal)),* $(,)?], $doc:literal;)*) => {
        /// The relations, in the order of [`RELATIONS`].
        #[allow(missing_docs)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum R {
            $($variant,)*
        }

        /// Every relation `refract facts` writes.
        pub const RELATIONS: &[RelationSchema] = &[
            $(RelationSchema { name: $name, attrs: &[$(($a, $d)),*], doc: $doc },)*
        ];
    };
}

relations! {
    VP0 => "vP0",
        [("variable", "V"), ("heap", "H")],
        "variable = new/constant heap object";
    A => "A",
        [("dest", "V"), ("source", "V")],
        "dest = source (assignments, casts, phis)";
    L => "L",
        [("base", "V"), ("field", "F"), ("dest", "V")],
        "dest = base.field (statics: base <global>; arrays: field [])";
    S => "S",
        [("base", "V"), ("field", "F"), ("source", "V")],
        "base.field = source";
    VT => "vT",
        [("variable", "V"), ("type", "T")],
        "declared type of a variable";
    HT => "hT",
        [("heap", "H"), ("type", "T")],
        "type of a heap object";
    AT => "aT",
        [("type", "T"), ("subtype", "T")],
        "subtype may be assigned to type (reflexive, transitive)";
    Subtype => "subtype",
        [("sub", "T"), ("super", "T")],
        "direct supertypes (extends, implements)";
    ComponentType => "componentType",
        [("array", "T"), ("component", "T")],
        "the element type of an array type";
    Cha => "cha",
        [("type", "T"), ("name", "N"), ("target", "M")],
        "dispatching name on an object of type runs target";
    Actual => "actual",
        [("invoke", "I"), ("num", "Z"), ("variable", "V")],
        "actual argument num of a call";
    ActualArrayLength => "actualArrayLength",
        [("invoke", "I"), ("num", "Z"), ("length", "Z")],
        "argument num of a call is an array the caller allocates with a constant length";
    ActualArrayElement => "actualArrayElement",
        [("invoke", "I"), ("num", "Z"), ("index", "Z"), ("variable", "V")],
        "argument num of a call is a Class[] or Object[] the caller allocates and fills: a variable stored at index";
    ActualArrayTypes => "actualArrayTypes",
        [("invoke", "I"), ("num", "Z"), ("params", "N")],
        "argument num of a call is a Class[] the caller fills with constants: the parameter list it spells";
    ActualMethodType => "actualMethodType",
        [("invoke", "I"), ("num", "Z"), ("params", "N")],
        "argument num of a call is a MethodType the caller makes from constant classes: its parameter list";
    Formal => "formal",
        [("method", "M"), ("num", "Z"), ("variable", "V")],
        "formal parameter num of a method";
    Iret => "Iret",
        [("invoke", "I"), ("variable", "V")],
        "variable receiving a call's result";
    ModelledResult => "modelledResult",
        [("invoke", "I")],
        "a call whose result the analysis models instead of the callee's return: a string from outside the program, or a class by name";
    Mret => "Mret",
        [("method", "M"), ("variable", "V")],
        "variable holding a method's return value";
    ReturnsParam => "returnsParam",
        [("method", "M"), ("num", "Z")],
        "a method whose body returns its parameter num (0 is this for instance methods): each call's result receives the call's own argument, and the copies of the parameter into the return value are not in A (returnedParam adds those returned through calls)";
    ParamStore => "paramStore",
        [("method", "M"), ("base", "Z"), ("field", "F"), ("value", "Z")],
        "the method's body stores its parameter value into field of its parameter base (F 0: the elements of an array); the store is not in S but made at each call (paramStoreOfM adds the stores of the statically bound calls it passes both parameters to)";
    ParamLoad => "paramLoad",
        [("method", "M"), ("base", "Z"), ("field", "F")],
        "the method returns only what it loads from field of its parameter base: each call loads from its own argument instead of receiving the return value";
    ActualParam => "actualParam",
        [("invoke", "I"), ("num", "Z"), ("param", "Z")],
        "argument num of a call whose callee is known without the receiver's objects (statically bound, or a final method) is parameter param of the calling method";
    ReturnedCall => "returnedCall",
        [("invoke", "I"), ("callee", "M")],
        "the calling method only returns the call's result (nothing else reads it), and the call runs callee, known without the receiver's objects";
    Ithr => "Ithr",
        [("invoke", "I"), ("variable", "V")],
        "variable receiving exceptions from a call: the method's thrown variable, and inside a try also each covering handler's caught-exception variable (typed as it catches)";
    Mthr => "Mthr",
        [("method", "M"), ("variable", "V")],
        "variable holding exceptions a method throws";
    IE0 => "IE0",
        [("invoke", "I"), ("target", "M")],
        "statically bound call (static, special)";
    MI => "mI",
        [("method", "M"), ("invoke", "I"), ("name", "N")],
        "call site in a method, with its dispatch name";
    MV => "mV",
        [("method", "M"), ("variable", "V")],
        "variable of a method";
    MH => "mH",
        [("method", "M"), ("heap", "H")],
        "allocation site in a method";
    Cast => "cast",
        [("dest", "V"), ("type", "T"), ("source", "V")],
        "dest = (type) source";
    Concat => "concat",
        [("dest", "V"), ("source", "V")],
        "string concatenation: source flows into dest";
    StringConst => "stringConst",
        [("heap", "H")],
        "the heap object is a string constant (its name is its text)";
    StringType => "stringType",
        [("heap", "H"), ("type", "T")],
        "string constant that names a type";
    StringMethod => "stringMethod",
        [("heap", "H"), ("method", "M")],
        "string constant that names a method";
    StringField => "stringField",
        [("heap", "H"), ("field", "F")],
        "string constant that names a field";
    PartialType => "partialType",
        [("heap", "H"), ("type", "T")],
        "a concatenation whose known prefix and suffix fit the type's name";
    PartialPackage => "partialPackage",
        [("heap", "H")],
        "a concatenation known only by the package its text starts with (\"java.net.\" + impl)";
    PartialSuffix => "partialSuffix",
        [("heap", "H")],
        "a concatenation known only by how its text ends, within a simple name (name + \"Provider\")";
    PartialMethod => "partialMethod",
        [("heap", "H"), ("method", "M")],
        "a concatenation whose known prefix and suffix fit the method's name";
    PartialField => "partialField",
        [("heap", "H"), ("field", "F")],
        "a concatenation whose known prefix and suffix fit the field's name";
    CommandLineArgument => "commandLineArgument",
        [("heap", "H")],
        "the object of the command line's arguments, the elements of the array that the JVM passes an application's main(String[])";
    PartialOverBudget => "partialOverBudget",
        [("heap", "H")],
        "a concatenation whose known text fits more classes, methods or fields than the budget allows (partial_names.rs): it names none of them";
    CompletedBy => "completedBy",
        [("heap", "H"), ("source", "V")],
        "a concatenation whose one unknown part is the string the variable holds, whole (`\"r.\" + kind + \"Impl\"`) or spelled a letter at a time (a capitalised name, xalan's setter names)";
    CompletesType => "completesType",
        [("heap", "H"), ("text", "H"), ("type", "T")],
        "a class the concatenation names where its source holds the constant string";
    CompletesMethod => "completesMethod",
        [("heap", "H"), ("text", "H"), ("method", "M")],
        "a method the concatenation names where its source holds the constant string";
    CompletesField => "completesField",
        [("heap", "H"), ("text", "H"), ("field", "F")],
        "a field the concatenation names where its source holds the constant string";
    CompletesMethodByField => "completesMethodByField",
        [("heap", "H"), ("field", "F"), ("method", "M")],
        "a method the concatenation names where its source holds the field's name (`\"set\" + capitalize(f.getName())`)";
    CompletesTypeByName => "completesTypeByName",
        [("heap", "H"), ("class", "T"), ("type", "T")],
        "a class the concatenation names where its source holds the class's name (`type.getName() + \"BeanInfo\"`)";
    CompletesTypeBySimpleName => "completesTypeBySimpleName",
        [("heap", "H"), ("class", "T"), ("type", "T")],
        "a class the concatenation names where its source holds the class's simple name (`\"impl.\" + type.getSimpleName() + \"Impl\"`)";
    ClassObject => "classObject",
        [("heap", "H"), ("type", "T")],
        "the java.lang.Class object of a type";
    ClassConst => "classConst",
        [("variable", "V"), ("type", "T")],
        "variable = type.class";
    DeclaresMethod => "declaresMethod",
        [("type", "T"), ("method", "M")],
        "method declared by a type";
    DeclaresField => "declaresField",
        [("type", "T"), ("field", "F")],
        "field declared by a type";
    MethodSig => "methodSig",
        [("method", "M"), ("name", "N")],
        "sub-signature of a method";
    MethodModifier => "methodModifier",
        [("method", "M"), ("mod", "MOD")],
        "method modifier";
    FieldModifier => "fieldModifier",
        [("field", "F"), ("mod", "MOD")],
        "field modifier";
    ClassModifier => "classModifier",
        [("type", "T"), ("mod", "MOD")],
        "class modifier (interface, abstract, ...)";
    TypePackage => "typePackage",
        [("type", "T"), ("package", "PKG")],
        "a declared class or interface and its package";
    TypeModule => "typeModule",
        [("type", "T"), ("module", "MODULE")],
        "a class of a named module (the JDK's jmods) and its module; the class path's classes have none";
    ExportedPackage => "exportedPackage",
        [("package", "PKG")],
        "a package of a named module that it exports to every module";
    ExportedTo => "exportedTo",
        [("package", "PKG"), ("module", "MODULE")],
        "a package of a named module that it exports to that module only (exports ... to)";
    OpenPackage => "openPackage",
        [("package", "PKG")],
        "a package of a named module that it opens to every module (opens, or an open module)";
    OpenTo => "openTo",
        [("package", "PKG"), ("module", "MODULE")],
        "a package of a named module that it opens to that module only (opens ... to)";
    TypeNest => "typeNest",
        [("type", "T"), ("host", "T")],
        "a declared class and the top-level class of its nest, by binary name (a.B$C and a.B$C$D are in a.B's; a top-level class is its own)";
    FieldType => "fieldType",
        [("field", "F"), ("type", "T")],
        "declared type of a field";
    MethodRet => "methodRet",
        [("method", "M"), ("type", "T")],
        "declared return type";
    MethodArity => "methodArity",
        [("method", "M"), ("count", "Z")],
        "number of declared parameters (the receiver not counted)";
    MethodParams => "methodParams",
        [("method", "M"), ("params", "N")],
        "declared parameter types, as a list: (java.lang.String,int)";
    ParamsArity => "paramsArity",
        [("params", "N"), ("count", "Z")],
        "number of types in a parameter list";
    ParamsType => "paramsType",
        [("params", "N"), ("num", "Z"), ("type", "T")],
        "type num of a parameter list (0 the first)";
    ParamType => "paramType",
        [("method", "M"), ("num", "Z"), ("type", "T")],
        "declared type of a parameter (0 the first; the receiver not counted)";
    Constructor => "constructor",
        [("type", "T"), ("method", "M")],
        "constructor (<init>) of a type";
    DefaultConstructor => "defaultConstructor",
        [("type", "T"), ("method", "M")],
        "no-argument constructor";
    Clinit => "clinit",
        [("type", "T"), ("method", "M")],
        "static initialiser";
    MainMethod => "mainMethod",
        [("method", "M")],
        "public static void main(java.lang.String[])";
    ApplicationMethod => "applicationMethod",
        [("method", "M")],
        "method of an application (non-JDK) class";
    ReflectiveObject => "reflectiveObject",
        [("heap", "H"), ("type", "T")],
        "the object a reflective creation of a type yields";
    MethodObject => "methodObject",
        [("heap", "H"), ("method", "M")],
        "the java.lang.reflect.Method/Constructor object of a method";
    FieldObject => "fieldObject",
        [("heap", "H"), ("field", "F")],
        "the java.lang.reflect.Field object of a field";
    ReflectiveArray => "reflectiveArray",
        [("invoke", "I"), ("heap", "H")],
        "the array a getMethods()-like or getParameterTypes()-like call returns";
    UnknownClassObject => "unknownClassObject",
        [("invoke", "I"), ("heap", "H")],
        "a Class.forName call's result when its name is unknown";
    MemberPlaceholder => "memberPlaceholder",
        [("invoke", "I"), ("heap", "H")],
        "the Method, Field or Constructor a member lookup returns when the member is unknown";
    ArrayObject => "arrayObject",
        [("heap", "H"), ("type", "T")],
        "the array of an array type that Array.newInstance yields";
    ProxyObject => "proxyObject",
        [("heap", "H"), ("type", "T")],
        "the dynamic proxy of an interface that Proxy.newProxyInstance yields, typed as the interface";
    ProxyArguments => "proxyArguments",
        [("heap", "H"), ("type", "T")],
        "the Object[] in which a call on the proxy of an interface passes its arguments to the handler";
    HandleObject => "handleObject",
        [("invoke", "I"), ("heap", "H")],
        "the handle a call returns that makes one: a MethodHandles.Lookup find*/unreflect* call, bindTo, insertArguments, or a VarHandle lookup";
    ClassAnnotation => "classAnnotation",
        [("type", "T"), ("annotation", "T")],
        "the class carries a runtime-visible annotation of that type";
    MethodAnnotation => "methodAnnotation",
        [("method", "M"), ("annotation", "T")],
        "the method carries a runtime-visible annotation of that type";
    ParamAnnotation => "paramAnnotation",
        [("method", "M"), ("num", "Z"), ("annotation", "T")],
        "a parameter of the method carries a runtime-visible annotation of that type (0 the first parameter the class file's RuntimeVisibleParameterAnnotations lists; the receiver not counted)";
    FieldAnnotation => "fieldAnnotation",
        [("field", "F"), ("annotation", "T")],
        "the field carries a runtime-visible annotation of that type";
    ServiceProvider => "serviceProvider",
        [("service", "T"), ("provider", "T")],
        "a provider a META-INF/services file or a module's `provides` declares for a service";
    ManifestClass => "manifestClass",
        [("type", "T")],
        "a class that an attribute value of the class path's jars' manifests (META-INF/MANIFEST.MF) names";
    ResourceFile => "resourceFile",
        [("stream", "H"), ("text", "H")],
        "a resource of the class path that names classes (a .properties or META-INF/services file): the object of the streams that read it, and the object of the text read from them (see queries/models/resources.dl)";
    ResourceUrl => "resourceUrl",
        [("url", "H"), ("stream", "H")],
        "the URL of a resource of resourceFile (what getResource returns for its name), and the stream its openStream() returns";
    ResourceUrls => "resourceUrls",
        [("urls", "H"), ("url", "H")],
        "the Enumeration that getResources returns for a resource's name, and the URL its nextElement() returns";
    AnyResource => "anyResource",
        [("stream", "H")],
        "the stream of a resource not known by name (what URL.openStream returns on a URL the analysis does not know)";
    AnyResourceLine => "anyResourceLine",
        [("text", "H")],
        "a line read from a resource not known by name: it names the classes of every META-INF/services file";
    AnyProperties => "anyProperties",
        [("text", "H")],
        "a property loaded from a resource not known by name: it names the classes of every .properties file's values";
    ResourceTextClass => "resourceTextClass",
        [("text", "H"), ("type", "T")],
        "a class that the text of a resource names: a value of a .properties file, a line of a META-INF/services file (or, for the text of resourceKeys, a key of a .properties file)";
    ResourceKeys => "resourceKeys",
        [("stream", "H"), ("keys", "H")],
        "the object of the keys of the .properties file that the stream reads, for a program that enumerates them (Properties.stringPropertyNames, propertyNames, keySet)";
    ResourceProperty => "resourceProperty",
        [("stream", "H"), ("key", "H"), ("value", "H")],
        "a key of a properties resource (a string constant) and the text of its value, where that names classes";
    BundleFile => "bundleFile",
        [("bundle", "H"), ("stream", "H")],
        "a .properties file of the class path as the PropertyResourceBundle that ResourceBundle.getBundle makes of it, and the stream that reads it";
    BundleNamed => "bundleNamed",
        [("name", "H"), ("bundle", "H")],
        "a string (a constant, or a concatenation whose known text fits) names the base name of the bundle: its file's path without `.properties` and without a locale suffix, with dots for slashes";
    ResourceNamed => "resourceNamed",
        [("name", "H"), ("stream", "H")],
        "a string (a constant, or a concatenation whose known text fits) names the resource: its path, with or without a leading slash, or its path's end after a slash (relative to a class's package)";
    StaticField => "staticField",
        [("method", "M"), ("field", "F")],
        "the method reads or writes the static field (getstatic, putstatic; any type)";
    Iref => "Iref",
        [("invoke", "I"), ("method", "M")],
        "the method a call site names (resolved, before dispatch)";
    StringFlow => "stringFlow",
        [("dest", "V"), ("source", "V")],
        "string value flow through StringBuilder/StringBuffer/String methods";
    ReflectionApi => "reflectionApi",
        [("method", "M")],
        "a method of the reflection API (see reflection_api.rs)";
    SpecSource => "specSource",
        [("method", "M")],
        "a method returning strings from outside the program";
    Iloc => "Iloc",
        [
            ("invoke", "I"),
            ("method", "M"),
            ("bci", "BCI"),
            ("line", "LINE")
        ],
        "source location of a call";
    NullGuard => "nullGuard",
        [("invoke", "I"), ("variable", "V")],
        "the call runs only where the variable holds an object: the non-null branch of a null test of it dominates the call";
    MemberFilter => "memberFilter",
        [("dst", "V"), ("src", "V"), ("filter", "H")],
        "dst holds src's member where a test of the member (its name, an annotation, a modifier, its number of parameters) passed; the filter object stands for the test";
    FilterMethod => "filterMethod",
        [("filter", "H"), ("method", "M")],
        "a method whose name passes the member filter's test of names";
    FilterField => "filterField",
        [("filter", "H"), ("field", "F")],
        "a field whose name passes the member filter's test of names";
    FilterAnnotation => "filterAnnotation",
        [("filter", "H"), ("annotation", "T")],
        "the member filter lets through the members annotated with that type";
    FilterModifier => "filterModifier",
        [("filter", "H"), ("mod", "MOD")],
        "the member filter lets through the members with that modifier";
    FilterArity => "filterArity",
        [("filter", "H"), ("count", "Z")],
        "the member filter lets through the methods and constructors with that many parameters";
    FilterType => "filterType",
        [("filter", "H"), ("type", "T")],
        "the member filter lets through the methods with that return type and the fields of that type";
    FilterParameter => "filterParameter",
        [("filter", "H"), ("num", "Z"), ("type", "T")],
        "the member filter lets through the methods and constructors whose parameter at that index has that type";
    FilterTypeBelow => "filterTypeBelow",
        [("filter", "H"), ("type", "T")],
        "the member filter lets through the methods whose return type, and the fields whose type, is that type or a subtype (`isAssignableFrom`)";
    FilterParameterBelow => "filterParameterBelow",
        [("filter", "H"), ("num", "Z"), ("type", "T")],
        "the member filter lets through the methods and constructors whose parameter at that index has that type or a subtype (`isAssignableFrom`)";
    LocaleVariant => "localeVariant",
        [("base", "T"), ("variant", "T")],
        "the variant's name is the base's, `_` and a locale (a resource bundle's name for that locale)";
    ConfigClass => "configClass",
        [("type", "T")],
        "a class that a value of the JDK's configuration (a jmod's conf/*.properties, installed as ${java.home}/conf) names";
}

/// The modifiers of the `MOD` domain, in order.
pub const MODIFIERS: &[&str] = &[
    "public",
    "private",
    "protected",
    "static",
    "final",
    "synchronized",
    "volatile",
    "transient",
    "native",
    "interface",
    "abstract",
    "synthetic",
    "enum",
    "annotation",
];

/// Index of a relation in [`RELATIONS`].
pub fn relation_index(name: &str) -> Option<usize> {
    RELATIONS.iter().position(|r| r.name == name)
}
