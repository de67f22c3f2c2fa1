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

macro_rules! rel {
    ($name:literal, [$(($a:literal, $d:literal)),*], $doc:literal) => {
        RelationSchema { name: $name, attrs: &[$(($a, $d)),*], doc: $doc }
    };
}

/// Every relation `refract facts` writes.
pub const RELATIONS: &[RelationSchema] = &[
    rel!(
        "vP0",
        [("variable", "V"), ("heap", "H")],
        "variable = new/constant heap object"
    ),
    rel!(
        "A",
        [("dest", "V"), ("source", "V")],
        "dest = source (assignments, casts, phis)"
    ),
    rel!(
        "L",
        [("base", "V"), ("field", "F"), ("dest", "V")],
        "dest = base.field (statics: base <global>; arrays: field [])"
    ),
    rel!(
        "S",
        [("base", "V"), ("field", "F"), ("source", "V")],
        "base.field = source"
    ),
    rel!(
        "vT",
        [("variable", "V"), ("type", "T")],
        "declared type of a variable"
    ),
    rel!(
        "hT",
        [("heap", "H"), ("type", "T")],
        "type of a heap object"
    ),
    rel!(
        "aT",
        [("type", "T"), ("subtype", "T")],
        "subtype may be assigned to type (reflexive, transitive)"
    ),
    rel!(
        "subtype",
        [("sub", "T"), ("super", "T")],
        "direct supertypes (extends, implements)"
    ),
    rel!(
        "componentType",
        [("array", "T"), ("component", "T")],
        "the element type of an array type"
    ),
    rel!(
        "cha",
        [("type", "T"), ("name", "N"), ("target", "M")],
        "dispatching name on an object of type runs target"
    ),
    rel!(
        "actual",
        [("invoke", "I"), ("num", "Z"), ("variable", "V")],
        "actual argument num of a call"
    ),
    rel!(
        "actualArrayLength",
        [("invoke", "I"), ("num", "Z"), ("length", "Z")],
        "argument num of a call is an array the caller allocates with a constant length"
    ),
    rel!(
        "actualArrayTypes",
        [("invoke", "I"), ("num", "Z"), ("params", "N")],
        "argument num of a call is a Class[] the caller fills with constants: the parameter list it spells"
    ),
    rel!(
        "formal",
        [("method", "M"), ("num", "Z"), ("variable", "V")],
        "formal parameter num of a method"
    ),
    rel!(
        "Iret",
        [("invoke", "I"), ("variable", "V")],
        "variable receiving a call's result"
    ),
    rel!(
        "modelledResult",
        [("invoke", "I")],
        "a call whose result the analysis models instead of the callee's return: a string from outside the program, or a class by name"
    ),
    rel!(
        "Mret",
        [("method", "M"), ("variable", "V")],
        "variable holding a method's return value"
    ),
    rel!(
        "returnsParam",
        [("method", "M"), ("num", "Z")],
        "a method that returns its parameter num (0 is this for instance methods): each call's result receives the call's own argument, and the copies of the parameter into the return value are not in A"
    ),
    rel!(
        "paramStore",
        [("method", "M"), ("base", "Z"), ("field", "F"), ("value", "Z")],
        "the method stores its parameter value into field of its parameter base (F 0: the elements of an array), itself or through a statically bound call it passes both parameters to; the store is not in S but made at each call"
    ),
    rel!(
        "paramLoad",
        [("method", "M"), ("base", "Z"), ("field", "F")],
        "the method returns only what it loads from field of its parameter base: each call loads from its own argument instead of receiving the return value"
    ),
    rel!(
        "reflFormal",
        [("method", "M"), ("num", "Z"), ("variable", "V")],
        "a copy of formal parameter num of a method with parameter stores (paramStore) that receives only what reflective calls pass: the method's parameter stores are made on these (in S)"
    ),
    rel!(
        "actualParam",
        [("invoke", "I"), ("num", "Z"), ("param", "Z")],
        "argument num of a statically bound call is parameter param of the calling method"
    ),
    rel!(
        "liftedReturn",
        [("invoke", "I"), ("num", "Z")],
        "the callee returns argument num, which is a parameter of the calling method that the calling method returns in its place"
    ),
    rel!(
        "Ithr",
        [("invoke", "I"), ("variable", "V")],
        "variable receiving exceptions from a call"
    ),
    rel!(
        "Mthr",
        [("method", "M"), ("variable", "V")],
        "variable holding exceptions a method throws"
    ),
    rel!(
        "IE0",
        [("invoke", "I"), ("target", "M")],
        "statically bound call (static, special)"
    ),
    rel!(
        "mI",
        [("method", "M"), ("invoke", "I"), ("name", "N")],
        "call site in a method, with its dispatch name"
    ),
    rel!(
        "mV",
        [("method", "M"), ("variable", "V")],
        "variable of a method"
    ),
    rel!(
        "mH",
        [("method", "M"), ("heap", "H")],
        "allocation site in a method"
    ),
    rel!(
        "cast",
        [("dest", "V"), ("type", "T"), ("source", "V")],
        "dest = (type) source"
    ),
    rel!(
        "concat",
        [("dest", "V"), ("source", "V")],
        "string concatenation: source flows into dest"
    ),
    rel!(
        "stringConst",
        [("heap", "H")],
        "the heap object is a string constant (its name is its text)"
    ),
    rel!(
        "stringType",
        [("heap", "H"), ("type", "T")],
        "string constant that names a type"
    ),
    rel!(
        "stringMethod",
        [("heap", "H"), ("method", "M")],
        "string constant that names a method"
    ),
    rel!(
        "stringField",
        [("heap", "H"), ("field", "F")],
        "string constant that names a field"
    ),
    rel!(
        "partialType",
        [("heap", "H"), ("type", "T")],
        "a concatenation whose known prefix and suffix fit the type's name"
    ),
    rel!(
        "partialMethod",
        [("heap", "H"), ("method", "M")],
        "a concatenation whose known prefix and suffix fit the method's name"
    ),
    rel!(
        "partialField",
        [("heap", "H"), ("field", "F")],
        "a concatenation whose known prefix and suffix fit the field's name"
    ),
    rel!(
        "classObject",
        [("heap", "H"), ("type", "T")],
        "the java.lang.Class object of a type"
    ),
    rel!(
        "classConst",
        [("variable", "V"), ("type", "T")],
        "variable = type.class"
    ),
    rel!(
        "declaresMethod",
        [("type", "T"), ("method", "M")],
        "method declared by a type"
    ),
    rel!(
        "declaresField",
        [("type", "T"), ("field", "F")],
        "field declared by a type"
    ),
    rel!(
        "methodSig",
        [("method", "M"), ("name", "N")],
        "sub-signature of a method"
    ),
    rel!(
        "methodModifier",
        [("method", "M"), ("mod", "MOD")],
        "method modifier"
    ),
    rel!(
        "fieldModifier",
        [("field", "F"), ("mod", "MOD")],
        "field modifier"
    ),
    rel!(
        "classModifier",
        [("type", "T"), ("mod", "MOD")],
        "class modifier (interface, abstract, ...)"
    ),
    rel!(
        "fieldType",
        [("field", "F"), ("type", "T")],
        "declared type of a field"
    ),
    rel!(
        "methodRet",
        [("method", "M"), ("type", "T")],
        "declared return type"
    ),
    rel!(
        "methodArity",
        [("method", "M"), ("count", "Z")],
        "number of declared parameters (the receiver not counted)"
    ),
    rel!(
        "methodParams",
        [("method", "M"), ("params", "N")],
        "declared parameter types, as a list: (java.lang.String,int)"
    ),
    rel!(
        "constructor",
        [("type", "T"), ("method", "M")],
        "constructor (<init>) of a type"
    ),
    rel!(
        "defaultConstructor",
        [("type", "T"), ("method", "M")],
        "no-argument constructor"
    ),
    rel!(
        "clinit",
        [("type", "T"), ("method", "M")],
        "static initialiser"
    ),
    rel!(
        "mainMethod",
        [("method", "M")],
        "public static void main(java.lang.String[])"
    ),
    rel!(
        "entryPoint",
        [("method", "M")],
        "methods the JVM calls during start-up and shutdown"
    ),
    rel!(
        "applicationMethod",
        [("method", "M")],
        "method of an application (non-JDK) class"
    ),
    rel!(
        "reflectiveObject",
        [("heap", "H"), ("type", "T")],
        "the object a reflective creation of a type yields"
    ),
    rel!(
        "methodObject",
        [("heap", "H"), ("method", "M")],
        "the java.lang.reflect.Method/Constructor object of a method"
    ),
    rel!(
        "fieldObject",
        [("heap", "H"), ("field", "F")],
        "the java.lang.reflect.Field object of a field"
    ),
    rel!(
        "reflectiveArray",
        [("invoke", "I"), ("heap", "H")],
        "the array a getMethods()-like call returns"
    ),
    rel!(
        "unknownClassObject",
        [("invoke", "I"), ("heap", "H")],
        "a Class.forName call's result when its name is unknown"
    ),
    rel!(
        "memberPlaceholder",
        [("invoke", "I"), ("heap", "H")],
        "the Method, Field or Constructor a member lookup returns when the member is unknown"
    ),
    rel!(
        "arrayObject",
        [("heap", "H"), ("type", "T")],
        "the array of an array type that Array.newInstance yields"
    ),
    rel!(
        "proxyObject",
        [("heap", "H"), ("type", "T")],
        "the dynamic proxy of an interface that Proxy.newProxyInstance yields, typed as the interface"
    ),
    rel!(
        "proxyArguments",
        [("heap", "H"), ("type", "T")],
        "the Object[] in which a call on the proxy of an interface passes its arguments to the handler"
    ),
    rel!(
        "handleObject",
        [("invoke", "I"), ("heap", "H")],
        "the MethodHandle a MethodHandles.Lookup find*/unreflect* call returns"
    ),
    rel!(
        "classAnnotation",
        [("type", "T"), ("annotation", "T")],
        "the class carries a runtime-visible annotation of that type"
    ),
    rel!(
        "methodAnnotation",
        [("method", "M"), ("annotation", "T")],
        "the method carries a runtime-visible annotation of that type"
    ),
    rel!(
        "fieldAnnotation",
        [("field", "F"), ("annotation", "T")],
        "the field carries a runtime-visible annotation of that type"
    ),
    rel!(
        "serviceProvider",
        [("service", "T"), ("provider", "T")],
        "a provider a META-INF/services file or a module's `provides` declares for a service"
    ),
    rel!(
        "propertyClass",
        [("type", "T")],
        "a class that a value of a .properties file of the class path's jars and directories names"
    ),
    rel!(
        "resourceLineClass",
        [("type", "T")],
        "a class that a line of a META-INF/services file of the class path's jars and directories names"
    ),
    rel!(
        "resourceStream",
        [("heap", "H")],
        "the object of the streams that read the class path's resources (see queries/models/resources.dl)"
    ),
    rel!(
        "resourceLine",
        [("heap", "H")],
        "the object of the lines read from the class path's resources (see queries/models/resources.dl)"
    ),
    rel!(
        "staticField",
        [("method", "M"), ("field", "F")],
        "the method reads or writes the static field (getstatic, putstatic; any type)"
    ),
    rel!(
        "Iref",
        [("invoke", "I"), ("method", "M")],
        "the method a call site names (resolved, before dispatch)"
    ),
    rel!(
        "stringFlow",
        [("dest", "V"), ("source", "V")],
        "string value flow through StringBuilder/StringBuffer/String methods"
    ),
    rel!(
        "reflectionApi",
        [("method", "M")],
        "a method of the reflection API (see reflection_api.rs)"
    ),
    rel!(
        "specSource",
        [("method", "M")],
        "a method returning strings from outside the program"
    ),
    rel!(
        "Iloc",
        [
            ("invoke", "I"),
            ("method", "M"),
            ("bci", "BCI"),
            ("line", "LINE")
        ],
        "source location of a call"
    ),
];

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
