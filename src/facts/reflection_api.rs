//! The Java reflection API and the sources of external strings, by Soot
//! signature: the one place the analyses' knowledge of the JDK's
//! reflective methods is written down.

/// `Class.forName(String)` and friends: a class by name.
pub const CLASS_BY_NAME: &[(&str, &str, u32)] = &[
    // (api label, signature, argument position of the name)
    ("Class.forName", "<java.lang.Class: java.lang.Class forName(java.lang.String)>", 0),
    (
        "Class.forName",
        "<java.lang.Class: java.lang.Class forName(java.lang.String,boolean,java.lang.ClassLoader)>",
        0,
    ),
    (
        "Class.forName",
        "<java.lang.Class: java.lang.Class forName(java.lang.Module,java.lang.String)>",
        1,
    ),
    (
        "ClassLoader.loadClass",
        "<java.lang.ClassLoader: java.lang.Class loadClass(java.lang.String)>",
        1,
    ),
    (
        "ClassLoader.loadClass",
        "<java.lang.ClassLoader: java.lang.Class loadClass(java.lang.String,boolean)>",
        1,
    ),
    (
        "MethodHandles.Lookup.findClass",
        "<java.lang.invoke.MethodHandles$Lookup: java.lang.Class findClass(java.lang.String)>",
        1,
    ),
];

/// `Class.newInstance()`.
pub const CLASS_NEW_INSTANCE: &str = "<java.lang.Class: java.lang.Object newInstance()>";
/// `Constructor.newInstance(Object[])`.
pub const CONSTRUCTOR_NEW_INSTANCE: &str =
    "<java.lang.reflect.Constructor: java.lang.Object newInstance(java.lang.Object[])>";
/// `Method.invoke(Object, Object[])`.
pub const METHOD_INVOKE: &str =
    "<java.lang.reflect.Method: java.lang.Object invoke(java.lang.Object,java.lang.Object[])>";
/// `sun.reflect.misc.MethodUtil.invoke(Method, Object, Object[])`: the
/// JDK's own `Method.invoke` through a trampoline class, its arguments at
/// `Method.invoke`'s positions; `queries/models/method-util.dl` makes each
/// of its calls a `Method.invoke` site, reported as one.
pub const METHOD_UTIL_INVOKE: &str = "<sun.reflect.misc.MethodUtil: java.lang.Object invoke(java.lang.reflect.Method,java.lang.Object,java.lang.Object[])>";
/// `Field.get(Object)`.
pub const FIELD_GET: &str = "<java.lang.reflect.Field: java.lang.Object get(java.lang.Object)>";
/// `Field.set(Object, Object)`.
pub const FIELD_SET: &str =
    "<java.lang.reflect.Field: void set(java.lang.Object,java.lang.Object)>";
/// `Object.getClass()`.
pub const GET_CLASS: &str = "<java.lang.Object: java.lang.Class getClass()>";

/// Members by name: `(signature, declared only?)`.
pub const GET_METHOD: &[(&str, bool)] = &[
    ("<java.lang.Class: java.lang.reflect.Method getMethod(java.lang.String,java.lang.Class[])>", false),
    ("<java.lang.Class: java.lang.reflect.Method getDeclaredMethod(java.lang.String,java.lang.Class[])>", true),
];
/// Fields by name.
pub const GET_FIELD: &[(&str, bool)] = &[
    (
        "<java.lang.Class: java.lang.reflect.Field getField(java.lang.String)>",
        false,
    ),
    (
        "<java.lang.Class: java.lang.reflect.Field getDeclaredField(java.lang.String)>",
        true,
    ),
];
/// Constructors (one, by parameter types we do not track: all of them).
pub const GET_CONSTRUCTOR: &[(&str, bool)] = &[
    ("<java.lang.Class: java.lang.reflect.Constructor getConstructor(java.lang.Class[])>", false),
    ("<java.lang.Class: java.lang.reflect.Constructor getDeclaredConstructor(java.lang.Class[])>", true),
];
/// Array-returning lookups: `(signature, declared only?)`; each call site
/// gets its own array object.
pub const GET_METHODS: &[(&str, bool)] = &[
    (
        "<java.lang.Class: java.lang.reflect.Method[] getMethods()>",
        false,
    ),
    (
        "<java.lang.Class: java.lang.reflect.Method[] getDeclaredMethods()>",
        true,
    ),
];
/// Field arrays.
pub const GET_FIELDS: &[(&str, bool)] = &[
    (
        "<java.lang.Class: java.lang.reflect.Field[] getFields()>",
        false,
    ),
    (
        "<java.lang.Class: java.lang.reflect.Field[] getDeclaredFields()>",
        true,
    ),
];
/// Constructor arrays.
pub const GET_CONSTRUCTORS: &[(&str, bool)] = &[
    (
        "<java.lang.Class: java.lang.reflect.Constructor[] getConstructors()>",
        false,
    ),
    (
        "<java.lang.Class: java.lang.reflect.Constructor[] getDeclaredConstructors()>",
        true,
    ),
];

/// The calls that return a metaobject's name, which the JVM keeps in a
/// field of the metaobject it makes (`Method.getName()` reads
/// `Method.name`). The analysis's own metaobjects have no such field, so
/// their results hold nothing in the points-to analysis: a name built
/// from one keeps its known text alone (`completedBy`), as input does.
/// Each is a class and a method name, of descriptor
/// `()Ljava/lang/String;`.
pub const METAOBJECT_NAMES: &[(&str, &str)] = &[
    ("java.lang.reflect.Method", "getName"),
    ("java.lang.reflect.Constructor", "getName"),
    ("java.lang.reflect.Field", "getName"),
    ("java.lang.reflect.Executable", "getName"),
    ("java.lang.reflect.Member", "getName"),
    ("java.lang.reflect.Parameter", "getName"),
];

/// The calls that return a member's name, by signature: at the
/// application's calls, `queries/reflection-infer.dl` (`memberNameApi`)
/// gives them the name of each real metaobject that reaches them, as a
/// string the front end makes for every member's name when an
/// application method looks a member up by such a name (`stringMethod`,
/// `stringField`).
pub const MEMBER_NAME_CALLS: &[&str] = &[
    "<java.lang.reflect.Method: java.lang.String getName()>",
    "<java.lang.reflect.Field: java.lang.String getName()>",
    "<java.lang.reflect.Member: java.lang.String getName()>",
    "<java.lang.reflect.Executable: java.lang.String getName()>",
];

/// The calls that return a class's name: `getName()` and
/// `getTypeName()` its binary name (`a.B$C`; the two differ for arrays
/// only), `getSimpleName()` its simple name (`C`), `getCanonicalName()`
/// its binary name for a top-level class (`a.B.C` for a nested one,
/// which the analysis leaves out). A name built from one
/// (`type.getName() + "BeanInfo"`) is completed by the Class objects
/// that reach the call (`completesTypeByName`,
/// `completesTypeBySimpleName`), whatever the call returns in the
/// points-to analysis. Each is a method of `java.lang.Class` of
/// descriptor `()Ljava/lang/String;`.
pub const CLASS_NAMES: &[&str] = &[
    "getName",
    "getTypeName",
    "getSimpleName",
    "getCanonicalName",
];

/// Where strings from outside the program enter: specification points.
pub const STRING_SOURCES: &[&str] = &[
    "<java.lang.System: java.lang.String getProperty(java.lang.String)>",
    "<java.lang.System: java.lang.String getProperty(java.lang.String,java.lang.String)>",
    "<java.lang.System: java.lang.String getenv(java.lang.String)>",
    "<java.util.Properties: java.lang.String getProperty(java.lang.String)>",
    "<java.util.Properties: java.lang.String getProperty(java.lang.String,java.lang.String)>",
    "<java.io.BufferedReader: java.lang.String readLine()>",
    "<java.io.DataInputStream: java.lang.String readLine()>",
    "<java.io.DataInputStream: java.lang.String readUTF()>",
    "<java.io.ObjectInputStream: java.lang.Object readObject()>",
    "<java.io.RandomAccessFile: java.lang.String readLine()>",
    "<java.util.Scanner: java.lang.String next()>",
    "<java.util.Scanner: java.lang.String nextLine()>",
    "<java.util.ResourceBundle: java.lang.String getString(java.lang.String)>",
    "<java.util.ResourceBundle: java.lang.Object getObject(java.lang.String)>",
    "<java.util.jar.Attributes: java.lang.String getValue(java.lang.String)>",
    "<java.util.jar.Attributes: java.lang.String getValue(java.util.jar.Attributes$Name)>",
    "<java.util.prefs.Preferences: java.lang.String get(java.lang.String,java.lang.String)>",
    "<java.lang.Class: java.lang.String getName()>",
    "<org.w3c.dom.Element: java.lang.String getAttribute(java.lang.String)>",
    "<org.w3c.dom.Node: java.lang.String getNodeValue()>",
    "<javax.servlet.ServletRequest: java.lang.String getParameter(java.lang.String)>",
];

/// The object that stands for what a [`STRING_SOURCES`] call returns,
/// or for the command line. Two kinds of input are kept apart from the
/// rest, so that `queries/models/resources.dl` can give them the values
/// of the class path's own files; the command line, so that `refract
/// report` can name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputObject {
    /// `<input string>`: text from outside the program.
    Input,
    /// `<property value>`: what `Properties.getProperty` returns (the
    /// values of `.properties` files).
    Property,
    /// `<manifest value>`: what `java.util.jar.Attributes.getValue`
    /// returns (the values of the jars' manifests).
    Manifest,
    /// `<command line argument>`: an element of the array that the JVM
    /// passes an application's `main(String[])`.
    CommandLine,
}

impl InputObject {
    /// The object's name in the H domain.
    pub fn heap_name(self) -> &'static str {
        match self {
            InputObject::Input => "<input string>",
            InputObject::Property => "<property value>",
            InputObject::Manifest => "<manifest value>",
            InputObject::CommandLine => "<command line argument>",
        }
    }

    /// The kind of input the source `signature` returns at a call in an
    /// application method (`in_application`) or in the JDK. The JDK's own
    /// manifest reads (Package, URLClassPath) return plain input: their
    /// values flowed into the JDK's string pools, and every application
    /// forName that reads such a pool loaded the classes the manifests
    /// name (hsqldb: its Main-Class, a Swing GUI, and 30,000 more methods
    /// reached).
    pub fn of(signature: &str, in_application: bool) -> InputObject {
        if signature.starts_with("<java.util.Properties: java.lang.String getProperty(") {
            InputObject::Property
        } else if in_application
            && signature.starts_with("<java.util.jar.Attributes: java.lang.String getValue(")
        {
            InputObject::Manifest
        } else {
            InputObject::Input
        }
    }
}

/// Whether `signature` looks a class up by name ([`CLASS_BY_NAME`]): its
/// result is the classes the reflection rules find (the paper's
/// Assumption 2), not what the class loader's code returns.
pub fn is_class_by_name(signature: &str) -> bool {
    CLASS_BY_NAME.iter().any(|c| c.1 == signature)
}

/// The lookups of a class-path resource's URL by name. At the
/// application's calls, their result is the URLs that
/// `queries/models/resources.dl` finds by the name (`resourceUrl`,
/// `resourceUrls`), not what the class loader's code returns: a URL of
/// the JDK's own making opens a resource not known by name, whose stream
/// reads every resource of the class path (`anyResource`), so the JDK's
/// URLs would undo the name's selection. The JDK's own calls keep their
/// callee's result.
pub const RESOURCE_LOOKUPS: [&str; 5] = [
    "<java.lang.Class: java.net.URL getResource(java.lang.String)>",
    "<java.lang.ClassLoader: java.net.URL getResource(java.lang.String)>",
    "<java.lang.ClassLoader: java.net.URL getSystemResource(java.lang.String)>",
    "<java.lang.ClassLoader: java.util.Enumeration getResources(java.lang.String)>",
    "<java.lang.ClassLoader: java.util.Enumeration getSystemResources(java.lang.String)>",
];

/// Whether `signature` is one of [`RESOURCE_LOOKUPS`].
pub fn is_resource_lookup(signature: &str) -> bool {
    RESOURCE_LOOKUPS.contains(&signature)
}

/// Whether the API `label` (`Class.forName`, ...) is one of
/// [`CLASS_BY_NAME`]'s: its targets are classes.
pub fn is_class_by_name_label(label: &str) -> bool {
    CLASS_BY_NAME.iter().any(|c| c.0 == label)
}

/// How the analysis models a call to one of the [`STRING_SOURCES`] that
/// returns a `String`: as input from outside the program. Its result
/// points to the one input object (and to its default argument, where it
/// has one), not to what the callee returns. That is the paper's reading
/// (section 4.2): a provenance chain ends at such a call, a *specification
/// point*, and the constants a program stores into the property table do
/// not count as sources of the name. Followed into the callee, the result
/// was the pool of every string any `Hashtable` or `ConcurrentHashMap`
/// holds, and a `Class.forName` of a property resolved to every class a
/// security provider registers by name.
///
/// `None` for other methods; `Some(None)` for a source without a default,
/// `Some(Some(k))` where argument `k` (0 the first, not counting a
/// receiver) is the default value it returns.
pub fn string_input(signature: &str) -> Option<Option<usize>> {
    match signature {
        "<java.lang.System: java.lang.String getProperty(java.lang.String,java.lang.String)>"
        | "<java.util.Properties: java.lang.String getProperty(java.lang.String,java.lang.String)>"
        | "<java.util.prefs.Preferences: java.lang.String get(java.lang.String,java.lang.String)>" => {
            Some(Some(1))
        }
        s if STRING_SOURCES.contains(&s)
            && s
                .split_once(": ")
                .is_some_and(|(_, rest)| rest.starts_with("java.lang.String ")) =>
        {
            Some(None)
        }
        _ => None,
    }
}

/// The typed forms of `Field.get` (`getInt`, ...), reported as `Field.get`.
pub const FIELD_TYPED_GETS: &[&str] = &[
    "<java.lang.reflect.Field: boolean getBoolean(java.lang.Object)>",
    "<java.lang.reflect.Field: byte getByte(java.lang.Object)>",
    "<java.lang.reflect.Field: char getChar(java.lang.Object)>",
    "<java.lang.reflect.Field: short getShort(java.lang.Object)>",
    "<java.lang.reflect.Field: int getInt(java.lang.Object)>",
    "<java.lang.reflect.Field: long getLong(java.lang.Object)>",
    "<java.lang.reflect.Field: float getFloat(java.lang.Object)>",
    "<java.lang.reflect.Field: double getDouble(java.lang.Object)>",
];
/// The typed forms of `Field.set` (`setInt`, ...), reported as `Field.set`.
pub const FIELD_TYPED_SETS: &[&str] = &[
    "<java.lang.reflect.Field: void setBoolean(java.lang.Object,boolean)>",
    "<java.lang.reflect.Field: void setByte(java.lang.Object,byte)>",
    "<java.lang.reflect.Field: void setChar(java.lang.Object,char)>",
    "<java.lang.reflect.Field: void setShort(java.lang.Object,short)>",
    "<java.lang.reflect.Field: void setInt(java.lang.Object,int)>",
    "<java.lang.reflect.Field: void setLong(java.lang.Object,long)>",
    "<java.lang.reflect.Field: void setFloat(java.lang.Object,float)>",
    "<java.lang.reflect.Field: void setDouble(java.lang.Object,double)>",
];
/// `Array.newInstance`, one dimension and several.
pub const ARRAY_NEW_INSTANCE: &[&str] = &[
    "<java.lang.reflect.Array: java.lang.Object newInstance(java.lang.Class,int)>",
    "<java.lang.reflect.Array: java.lang.Object newInstance(java.lang.Class,int[])>",
];
/// `Proxy.newProxyInstance(ClassLoader, Class[], InvocationHandler)`.
pub const PROXY_NEW_INSTANCE: &str = "<java.lang.reflect.Proxy: java.lang.Object newProxyInstance(java.lang.ClassLoader,java.lang.Class[],java.lang.reflect.InvocationHandler)>";
/// The `java.lang.invoke.MethodHandles.Lookup` methods that find a
/// method handle, with their API labels (see
/// `queries/models/method-handles.dl`).
pub const HANDLE_LOOKUPS: &[(&str, &str)] = &[
    ("MethodHandles.Lookup.findVirtual", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandle findVirtual(java.lang.Class,java.lang.String,java.lang.invoke.MethodType)>"),
    ("MethodHandles.Lookup.findStatic", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandle findStatic(java.lang.Class,java.lang.String,java.lang.invoke.MethodType)>"),
    ("MethodHandles.Lookup.findSpecial", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandle findSpecial(java.lang.Class,java.lang.String,java.lang.invoke.MethodType,java.lang.Class)>"),
    ("MethodHandles.Lookup.findConstructor", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandle findConstructor(java.lang.Class,java.lang.invoke.MethodType)>"),
    ("MethodHandles.Lookup.unreflect", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandle unreflect(java.lang.reflect.Method)>"),
    ("MethodHandles.Lookup.unreflectSpecial", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandle unreflectSpecial(java.lang.reflect.Method,java.lang.Class)>"),
    ("MethodHandles.Lookup.unreflectConstructor", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandle unreflectConstructor(java.lang.reflect.Constructor)>"),
    ("MethodHandles.Lookup.findGetter", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandle findGetter(java.lang.Class,java.lang.String,java.lang.Class)>"),
    ("MethodHandles.Lookup.findSetter", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandle findSetter(java.lang.Class,java.lang.String,java.lang.Class)>"),
    ("MethodHandles.Lookup.findStaticGetter", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandle findStaticGetter(java.lang.Class,java.lang.String,java.lang.Class)>"),
    ("MethodHandles.Lookup.findStaticSetter", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandle findStaticSetter(java.lang.Class,java.lang.String,java.lang.Class)>"),
    ("MethodHandles.Lookup.unreflectGetter", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandle unreflectGetter(java.lang.reflect.Field)>"),
    ("MethodHandles.Lookup.unreflectSetter", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandle unreflectSetter(java.lang.reflect.Field)>"),
];
/// `MethodHandle.bindTo(Object)`: a new handle whose target receives the
/// argument first. Each call site's handle is an object of its own
/// (`handleObject`, as a lookup's).
pub const HANDLE_BIND_TO: &str =
    "<java.lang.invoke.MethodHandle: java.lang.invoke.MethodHandle bindTo(java.lang.Object)>";
/// `MethodHandles.insertArguments(MethodHandle, int, Object...)`: a new
/// handle with the given one's target and some of its arguments fixed;
/// each call site's handle is an object of its own.
pub const HANDLE_INSERT_ARGUMENTS: &str = "<java.lang.invoke.MethodHandles: java.lang.invoke.MethodHandle insertArguments(java.lang.invoke.MethodHandle,int,java.lang.Object[])>";
/// `MethodHandle.invokeWithArguments`, with its label: a call of the
/// handle's target with the elements of an array or a list as its
/// arguments (not signature-polymorphic).
pub const HANDLE_WITH_ARGUMENTS: &[(&str, &str)] = &[
    (
        "MethodHandle.invokeWithArguments",
        "<java.lang.invoke.MethodHandle: java.lang.Object invokeWithArguments(java.lang.Object[])>",
    ),
    (
        "MethodHandle.invokeWithArguments",
        "<java.lang.invoke.MethodHandle: java.lang.Object invokeWithArguments(java.util.List)>",
    ),
];
/// The signature-polymorphic invokers of `java.lang.invoke.MethodHandle`,
/// with their labels, as the JVM resolves any call of them (JVMS 2.9.3):
/// to the one native varargs method that the class declares, whatever
/// descriptor the call site gives.
pub const HANDLE_INVOKES: &[(&str, &str)] = &[
    (
        "MethodHandle.invoke",
        "<java.lang.invoke.MethodHandle: java.lang.Object invoke(java.lang.Object[])>",
    ),
    (
        "MethodHandle.invokeExact",
        "<java.lang.invoke.MethodHandle: java.lang.Object invokeExact(java.lang.Object[])>",
    ),
];
/// The lookups that make a `VarHandle` on a field (`findVarHandle`,
/// `findStaticVarHandle`, `unreflectVarHandle`), with their labels: each
/// call site's handle is an object of its own (`handleObject`, of type
/// `VarHandle`; see `queries/models/var-handles.dl`), and the site is
/// reported with the field it finds.
pub const VAR_HANDLE_LOOKUPS: &[(&str, &str)] = &[
    ("MethodHandles.Lookup.findVarHandle", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.VarHandle findVarHandle(java.lang.Class,java.lang.String,java.lang.Class)>"),
    ("MethodHandles.Lookup.findStaticVarHandle", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.VarHandle findStaticVarHandle(java.lang.Class,java.lang.String,java.lang.Class)>"),
    ("MethodHandles.Lookup.unreflectVarHandle", "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.VarHandle unreflectVarHandle(java.lang.reflect.Field)>"),
];
/// `MethodHandles.arrayElementVarHandle(Class)`: a `VarHandle` on the
/// elements of an array type, one object per call site as the lookups'
/// (not reported: it finds no member).
pub const VAR_HANDLE_ARRAY: &str = "<java.lang.invoke.MethodHandles: java.lang.invoke.VarHandle arrayElementVarHandle(java.lang.Class)>";
/// `AtomicReferenceFieldUpdater.newUpdater(Class, Class, String)`: an
/// updater of the named field, one object per call site as the
/// `VarHandle` lookups' (its accesses are [`FIELD_UPDATER_ACCESSES`]; not
/// reported: reftrace sees the `getDeclaredField` its constructor makes).
pub const FIELD_UPDATER_NEW: &str = "<java.util.concurrent.atomic.AtomicReferenceFieldUpdater: java.util.concurrent.atomic.AtomicReferenceFieldUpdater newUpdater(java.lang.Class,java.lang.Class,java.lang.String)>";
/// The methods of `AtomicReferenceFieldUpdater` that read or write its
/// field, which `queries/models/var-handles.dl` models as a `VarHandle`'s
/// access modes (the JDK's implementation writes through `Unsafe`).
pub const FIELD_UPDATER_ACCESSES: &[&str] = &[
    "<java.util.concurrent.atomic.AtomicReferenceFieldUpdater: java.lang.Object get(java.lang.Object)>",
    "<java.util.concurrent.atomic.AtomicReferenceFieldUpdater: void set(java.lang.Object,java.lang.Object)>",
    "<java.util.concurrent.atomic.AtomicReferenceFieldUpdater: void lazySet(java.lang.Object,java.lang.Object)>",
    "<java.util.concurrent.atomic.AtomicReferenceFieldUpdater: boolean compareAndSet(java.lang.Object,java.lang.Object,java.lang.Object)>",
    "<java.util.concurrent.atomic.AtomicReferenceFieldUpdater: boolean weakCompareAndSet(java.lang.Object,java.lang.Object,java.lang.Object)>",
    "<java.util.concurrent.atomic.AtomicReferenceFieldUpdater: java.lang.Object getAndSet(java.lang.Object,java.lang.Object)>",
];
/// The access modes of `java.lang.invoke.VarHandle` (JDK 9-21) that move
/// references: signature-polymorphic, as the invokers of `MethodHandle`
/// are, each a native varargs method of the class (see
/// [`signature_polymorphic`]). The numeric modes (`getAndAdd`,
/// `getAndBitwiseOr`, ...) apply to primitive fields only.
pub const VAR_HANDLE_ACCESSES: &[&str] = &[
    "<java.lang.invoke.VarHandle: java.lang.Object get(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: void set(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: java.lang.Object getVolatile(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: void setVolatile(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: java.lang.Object getOpaque(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: void setOpaque(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: java.lang.Object getAcquire(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: void setRelease(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: boolean compareAndSet(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: java.lang.Object compareAndExchange(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: java.lang.Object compareAndExchangeAcquire(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: java.lang.Object compareAndExchangeRelease(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: boolean weakCompareAndSetPlain(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: boolean weakCompareAndSet(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: boolean weakCompareAndSetAcquire(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: boolean weakCompareAndSetRelease(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: java.lang.Object getAndSet(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: java.lang.Object getAndSetAcquire(java.lang.Object[])>",
    "<java.lang.invoke.VarHandle: java.lang.Object getAndSetRelease(java.lang.Object[])>",
];
/// The calls that read the runtime-visible annotations of a class, a
/// member or a method's parameters (see `queries/models/annotations.dl`).
pub const ANNOTATION_READS: &[&str] = &[
    "<java.lang.Class: java.lang.annotation.Annotation getAnnotation(java.lang.Class)>",
    "<java.lang.Class: java.lang.annotation.Annotation getDeclaredAnnotation(java.lang.Class)>",
    "<java.lang.Class: boolean isAnnotationPresent(java.lang.Class)>",
    "<java.lang.Class: java.lang.annotation.Annotation[] getAnnotations()>",
    "<java.lang.Class: java.lang.annotation.Annotation[] getDeclaredAnnotations()>",
    "<java.lang.reflect.Method: java.lang.annotation.Annotation getAnnotation(java.lang.Class)>",
    "<java.lang.reflect.Constructor: java.lang.annotation.Annotation getAnnotation(java.lang.Class)>",
    "<java.lang.reflect.Executable: java.lang.annotation.Annotation[] getDeclaredAnnotations()>",
    "<java.lang.reflect.Method: java.lang.annotation.Annotation[] getDeclaredAnnotations()>",
    "<java.lang.reflect.Constructor: java.lang.annotation.Annotation[] getDeclaredAnnotations()>",
    "<java.lang.reflect.Method: java.lang.annotation.Annotation[][] getParameterAnnotations()>",
    "<java.lang.reflect.Constructor: java.lang.annotation.Annotation[][] getParameterAnnotations()>",
    "<java.lang.reflect.Executable: java.lang.annotation.Annotation[][] getParameterAnnotations()>",
    "<java.lang.reflect.Field: java.lang.annotation.Annotation getAnnotation(java.lang.Class)>",
    "<java.lang.reflect.Field: java.lang.annotation.Annotation[] getDeclaredAnnotations()>",
    "<java.lang.reflect.AccessibleObject: boolean isAnnotationPresent(java.lang.Class)>",
    "<java.lang.reflect.AccessibleObject: java.lang.annotation.Annotation getDeclaredAnnotation(java.lang.Class)>",
    "<java.lang.reflect.AccessibleObject: java.lang.annotation.Annotation[] getAnnotations()>",
];

/// The methods that define a class from bytes, with the label the report
/// gives them. A class made at run time is invisible to a static
/// analysis: these sites are unsound by nature, and `refract report
/// --unsound` lists those of the application. (The JDK's own, for
/// proxies, lambdas and reflection accessors, are covered by the models
/// of those APIs.)
pub const CLASS_DEFINITIONS: &[(&str, &str)] = &[
    (
        "ClassLoader.defineClass",
        "<java.lang.ClassLoader: java.lang.Class defineClass(byte[],int,int)>",
    ),
    (
        "ClassLoader.defineClass",
        "<java.lang.ClassLoader: java.lang.Class defineClass(java.lang.String,byte[],int,int)>",
    ),
    (
        "ClassLoader.defineClass",
        "<java.lang.ClassLoader: java.lang.Class defineClass(java.lang.String,byte[],int,int,java.security.ProtectionDomain)>",
    ),
    (
        "ClassLoader.defineClass",
        "<java.lang.ClassLoader: java.lang.Class defineClass(java.lang.String,java.nio.ByteBuffer,java.security.ProtectionDomain)>",
    ),
    (
        "ClassLoader.defineClass",
        "<java.security.SecureClassLoader: java.lang.Class defineClass(java.lang.String,byte[],int,int,java.security.CodeSource)>",
    ),
    (
        "ClassLoader.defineClass",
        "<java.security.SecureClassLoader: java.lang.Class defineClass(java.lang.String,java.nio.ByteBuffer,java.security.CodeSource)>",
    ),
    (
        "MethodHandles.Lookup.defineClass",
        "<java.lang.invoke.MethodHandles$Lookup: java.lang.Class defineClass(byte[])>",
    ),
    (
        "MethodHandles.Lookup.defineHiddenClass",
        "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandles$Lookup defineHiddenClass(byte[],boolean,java.lang.invoke.MethodHandles$Lookup$ClassOption[])>",
    ),
    (
        "MethodHandles.Lookup.defineHiddenClass",
        "<java.lang.invoke.MethodHandles$Lookup: java.lang.invoke.MethodHandles$Lookup defineHiddenClassWithClassData(byte[],java.lang.Object,boolean,java.lang.invoke.MethodHandles$Lookup$ClassOption[])>",
    ),
];

/// The label of a method of [`CLASS_DEFINITIONS`].
pub fn definition_label(signature: &str) -> Option<&'static str> {
    CLASS_DEFINITIONS
        .iter()
        .find(|x| x.1 == signature)
        .map(|x| x.0)
}

/// `MethodHandle.asType(MethodType)`: the same target, adapted.
pub const HANDLE_AS_TYPE: &str =
    "<java.lang.invoke.MethodHandle: java.lang.invoke.MethodHandle asType(java.lang.invoke.MethodType)>";

/// The signature a call of `class.name` resolves to when the method is
/// signature-polymorphic (`MethodHandle.invoke` and `invokeExact`, the
/// access modes of `VarHandle` that move references), for any
/// descriptor the call site spells.
pub fn signature_polymorphic(class: &str, name: &str) -> Option<&'static str> {
    match class {
        "java.lang.invoke.MethodHandle" => HANDLE_INVOKES
            .iter()
            .find(|(label, _)| label.rsplit('.').next() == Some(name))
            .map(|x| x.1),
        "java.lang.invoke.VarHandle" => VAR_HANDLE_ACCESSES
            .iter()
            .find(|sig| method_name(sig) == Some(name))
            .copied(),
        _ => None,
    }
}

/// The method's name in a Soot signature (`get` in
/// `<C: java.lang.Object get(java.lang.Object[])>`).
fn method_name(signature: &str) -> Option<&str> {
    let (_, rest) = signature.split_once(": ")?;
    let (_, name_and_params) = rest.split_once(' ')?;
    name_and_params.split_once('(').map(|x| x.0)
}

/// Methods of `java.lang.Class` that the models of `queries/models/`
/// give results (the JVM fills in what their code reads).
pub const CLASS_MODELS: &[&str] = &[
    "<java.lang.Class: java.lang.Class getComponentType()>",
    "<java.lang.Class: java.lang.Class componentType()>",
    "<java.lang.Class: java.lang.Class arrayType()>",
];
/// Methods of the metaobjects and of `java.lang.Class` that return the
/// Class objects of what a member or a class declares: a method's
/// parameter and result types, a field's type, a member's declaring
/// class, a class's superclass and interfaces
/// (`queries/models/metaobjects.dl`; the JVM fills in the fields their
/// code reads). `true` where the result is a `Class[]`: each such site's
/// array is an object of its own (`reflectiveArray`).
pub const METAOBJECT_CLASSES: &[(&str, bool)] = &[
    (
        "<java.lang.reflect.Method: java.lang.Class[] getParameterTypes()>",
        true,
    ),
    (
        "<java.lang.reflect.Constructor: java.lang.Class[] getParameterTypes()>",
        true,
    ),
    (
        "<java.lang.reflect.Executable: java.lang.Class[] getParameterTypes()>",
        true,
    ),
    (
        "<java.lang.reflect.Method: java.lang.Class getReturnType()>",
        false,
    ),
    (
        "<java.lang.reflect.Field: java.lang.Class getType()>",
        false,
    ),
    (
        "<java.lang.reflect.Method: java.lang.Class getDeclaringClass()>",
        false,
    ),
    (
        "<java.lang.reflect.Constructor: java.lang.Class getDeclaringClass()>",
        false,
    ),
    (
        "<java.lang.reflect.Executable: java.lang.Class getDeclaringClass()>",
        false,
    ),
    (
        "<java.lang.reflect.Member: java.lang.Class getDeclaringClass()>",
        false,
    ),
    (
        "<java.lang.reflect.Field: java.lang.Class getDeclaringClass()>",
        false,
    ),
    ("<java.lang.Class: java.lang.Class getSuperclass()>", false),
    ("<java.lang.Class: java.lang.Class[] getInterfaces()>", true),
];
/// The reflective methods besides [`CLASS_BY_NAME`] whose sites are
/// reported, with the API label that reftrace and the exports use.
pub const LABELS: &[(&str, &str)] = &[
    ("Class.newInstance", CLASS_NEW_INSTANCE),
    ("Constructor.newInstance", CONSTRUCTOR_NEW_INSTANCE),
    ("Method.invoke", METHOD_INVOKE),
    ("Method.invoke", METHOD_UTIL_INVOKE),
    ("Field.get", FIELD_GET),
    ("Field.set", FIELD_SET),
    ("Class.getMethod", GET_METHOD[0].0),
    ("Class.getDeclaredMethod", GET_METHOD[1].0),
    ("Class.getField", GET_FIELD[0].0),
    ("Class.getDeclaredField", GET_FIELD[1].0),
    ("Class.getConstructor", GET_CONSTRUCTOR[0].0),
    ("Class.getDeclaredConstructor", GET_CONSTRUCTOR[1].0),
    ("Class.getMethods", GET_METHODS[0].0),
    ("Class.getDeclaredMethods", GET_METHODS[1].0),
    ("Class.getFields", GET_FIELDS[0].0),
    ("Class.getDeclaredFields", GET_FIELDS[1].0),
    ("Class.getConstructors", GET_CONSTRUCTORS[0].0),
    ("Class.getDeclaredConstructors", GET_CONSTRUCTORS[1].0),
    ("Array.newInstance", ARRAY_NEW_INSTANCE[0]),
    ("Array.newInstance", ARRAY_NEW_INSTANCE[1]),
    ("Proxy.newProxyInstance", PROXY_NEW_INSTANCE),
];

/// Every label and signature: [`CLASS_BY_NAME`], [`LABELS`] and the
/// method handles'.
fn labelled() -> impl Iterator<Item = (&'static str, &'static str)> {
    CLASS_BY_NAME
        .iter()
        .map(|x| (x.0, x.1))
        .chain(LABELS.iter().copied())
        .chain(HANDLE_LOOKUPS.iter().copied())
        .chain(HANDLE_INVOKES.iter().copied())
        .chain(HANDLE_WITH_ARGUMENTS.iter().copied())
        .chain(VAR_HANDLE_LOOKUPS.iter().copied())
}

/// The API label of a reported reflective method.
pub fn label_of(signature: &str) -> Option<&'static str> {
    labelled()
        .find(|x| x.1 == signature)
        .map(|x| x.0)
        .or_else(|| {
            if FIELD_TYPED_GETS.contains(&signature) {
                Some("Field.get")
            } else if FIELD_TYPED_SETS.contains(&signature) {
                Some("Field.set")
            } else {
                None
            }
        })
}

/// Every signature above (so that they exist in the `M` map, which lets
/// analyses name them even when the JDK is not loaded).
pub fn all_signatures() -> Vec<&'static str> {
    let mut v: Vec<&str> = CLASS_BY_NAME.iter().map(|x| x.1).collect();
    v.extend([
        CLASS_NEW_INSTANCE,
        CONSTRUCTOR_NEW_INSTANCE,
        METHOD_INVOKE,
        METHOD_UTIL_INVOKE,
        FIELD_GET,
        FIELD_SET,
        GET_CLASS,
    ]);
    for t in [
        GET_METHOD,
        GET_FIELD,
        GET_CONSTRUCTOR,
        GET_METHODS,
        GET_FIELDS,
        GET_CONSTRUCTORS,
    ] {
        v.extend(t.iter().map(|x| x.0));
    }
    v.extend(FIELD_TYPED_GETS);
    v.extend(FIELD_TYPED_SETS);
    v.extend(ARRAY_NEW_INSTANCE);
    v.push(PROXY_NEW_INSTANCE);
    v.extend(HANDLE_LOOKUPS.iter().map(|x| x.1));
    v.extend(HANDLE_INVOKES.iter().map(|x| x.1));
    v.extend(HANDLE_WITH_ARGUMENTS.iter().map(|x| x.1));
    v.push(HANDLE_AS_TYPE);
    v.push(HANDLE_BIND_TO);
    v.push(HANDLE_INSERT_ARGUMENTS);
    v.extend(VAR_HANDLE_LOOKUPS.iter().map(|x| x.1));
    v.push(VAR_HANDLE_ARRAY);
    v.extend(VAR_HANDLE_ACCESSES);
    v.push(FIELD_UPDATER_NEW);
    v.extend(FIELD_UPDATER_ACCESSES);
    v.extend(ANNOTATION_READS);
    v.extend(CLASS_MODELS);
    v.extend(METAOBJECT_CLASSES.iter().map(|x| x.0));
    v.extend(CLASS_DEFINITIONS.iter().map(|x| x.1));
    v.extend(STRING_SOURCES);
    v
}

/// Classes whose methods carry string values from their receiver and
/// arguments to their result (the `StringBuilder.append(…).toString()`
/// chain, `String.valueOf`, `concat`, ...); see [`string_flow`].
pub const STRING_CLASSES: &[&str] = &[
    "java.lang.StringBuilder",
    "java.lang.StringBuffer",
    "java.lang.AbstractStringBuilder",
    "java.lang.String",
];

/// How a call on one of [`STRING_CLASSES`] moves string values:
/// `(into receiver from arguments, into result from receiver and arguments)`.
pub fn string_flow(class: &str, name: &str) -> (bool, bool) {
    if !STRING_CLASSES.contains(&class) {
        return (false, false);
    }
    let builder = class != "java.lang.String";
    match name {
        "<init>" | "append" | "insert" if builder => (true, name != "<init>"),
        "<init>" => (true, false),
        "toString" | "substring" | "subSequence" => (false, true),
        "valueOf" | "copyValueOf" | "concat" | "trim" | "strip" | "intern" | "replace"
        | "toLowerCase" | "toUpperCase" | "format" | "join" => (false, !builder),
        _ => (false, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_sources_returning_strings_are_input() {
        let get = "<java.lang.System: java.lang.String getProperty(java.lang.String)>";
        let get_default =
            "<java.lang.System: java.lang.String getProperty(java.lang.String,java.lang.String)>";
        let read_object = "<java.io.ObjectInputStream: java.lang.Object readObject()>";
        assert_eq!(string_input(get), Some(None));
        assert_eq!(string_input(get_default), Some(Some(1)));
        // A source of objects, not strings: its callee's return stands.
        assert_eq!(string_input(read_object), None);
        assert_eq!(
            string_input("<java.lang.String: java.lang.String trim()>"),
            None
        );
    }

    #[test]
    fn method_handle_invokers_are_signature_polymorphic() {
        let h = "java.lang.invoke.MethodHandle";
        assert_eq!(
            signature_polymorphic(h, "invokeExact"),
            Some(HANDLE_INVOKES[1].1)
        );
        assert_eq!(
            signature_polymorphic(h, "invoke"),
            Some(HANDLE_INVOKES[0].1)
        );
        assert_eq!(signature_polymorphic(h, "bindTo"), None);
        let v = "java.lang.invoke.VarHandle";
        assert_eq!(
            signature_polymorphic(v, "compareAndSet"),
            Some("<java.lang.invoke.VarHandle: boolean compareAndSet(java.lang.Object[])>")
        );
        assert_eq!(
            signature_polymorphic(v, "get"),
            Some("<java.lang.invoke.VarHandle: java.lang.Object get(java.lang.Object[])>")
        );
        assert_eq!(signature_polymorphic(v, "getAndAdd"), None);
        assert_eq!(signature_polymorphic(v, "accessModeType"), None);
        assert_eq!(signature_polymorphic("a.MethodHandle", "invoke"), None);
        assert_eq!(
            label_of(HANDLE_INVOKES[1].1),
            Some("MethodHandle.invokeExact")
        );
    }

    #[test]
    fn lookups_by_name_are_classes_by_name() {
        for (_, signature, _) in CLASS_BY_NAME {
            assert!(is_class_by_name(signature));
        }
        assert!(!is_class_by_name(GET_CLASS));
    }

    #[test]
    fn labels_follow_reftrace() {
        assert_eq!(label_of(FIELD_TYPED_SETS[4]), Some("Field.set"));
        assert_eq!(label_of(FIELD_TYPED_GETS[0]), Some("Field.get"));
        assert_eq!(
            label_of(GET_CONSTRUCTOR[1].0),
            Some("Class.getDeclaredConstructor")
        );
        assert_eq!(label_of(CLASS_BY_NAME[3].1), Some("ClassLoader.loadClass"));
        assert_eq!(label_of(GET_CLASS), None);
        for sig in all_signatures() {
            assert!(
                label_of(sig).is_some()
                    || sig == GET_CLASS
                    || STRING_SOURCES.contains(&sig)
                    || CLASS_MODELS.contains(&sig)
                    || sig == HANDLE_AS_TYPE
                    || sig == HANDLE_BIND_TO
                    || sig == HANDLE_INSERT_ARGUMENTS
                    || sig == VAR_HANDLE_ARRAY
                    || VAR_HANDLE_ACCESSES.contains(&sig)
                    || sig == FIELD_UPDATER_NEW
                    || FIELD_UPDATER_ACCESSES.contains(&sig)
                    || ANNOTATION_READS.contains(&sig)
                    || definition_label(sig).is_some()
                    || METAOBJECT_CLASSES.iter().any(|x| x.0 == sig)
                    || GET_METHODS
                        .iter()
                        .chain(GET_FIELDS)
                        .chain(GET_CONSTRUCTORS)
                        .any(|x| x.0 == sig),
                "{sig}"
            );
        }
    }
}
