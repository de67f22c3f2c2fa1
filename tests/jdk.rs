//! The front end over the local JDK's jmods: every class loads, natives
//! and entry points are modelled. `.ci/run` installs a JDK when missing.

use refract::classpath::jdk::{jmods, JdkChoice};
use refract::classpath::ClassPath;
use refract::facts::{generate, generate_with, write::named_tuples, FactsOptions};

#[test]
fn whole_jdk_loads_without_failures() {
    let mods = jmods(&JdkChoice::Auto).expect("a JDK with jmods (run .ci/run to install one)");
    let mut cp = ClassPath::default();
    for m in &mods {
        cp.push_library(m.clone());
    }
    let f = generate(&cp, &|_| {});
    let shown: Vec<String> = f.problems.iter().take(10).map(|p| p.to_string()).collect();
    assert!(
        f.problems.is_empty(),
        "{} failures: {shown:#?}",
        f.problems.len()
    );
    assert_eq!(f.module_infos, mods.len());
    let (app, lib) = f.builder.stats.classes;
    assert_eq!(app, 0);
    eprintln!(
        "{} jmods: {lib} classes + {} module-info, {} methods with code, 0 failures",
        mods.len(),
        f.module_infos,
        f.builder.stats.methods_with_code
    );
    assert!(lib > 20_000, "only {lib} classes");

    // Modules: each class has its jmod's module, and the packages are
    // exported and opened as the module-infos say.
    let tuples = |r: &str, prefix: &str| -> Vec<String> {
        named_tuples(&f.builder, r)
            .into_iter()
            .filter(|t| t.starts_with(prefix))
            .collect()
    };
    assert_eq!(
        tuples("typeModule", "java.lang.String\t"),
        ["java.lang.String\tjava.base"]
    );
    assert_eq!(
        tuples("typeModule", "com.sun.jmx.mbeanserver.Util\t"),
        ["com.sun.jmx.mbeanserver.Util\tjava.management"]
    );
    assert!(named_tuples(&f.builder, "exportedPackage").contains(&"java.lang".to_string()));
    assert!(!named_tuples(&f.builder, "exportedPackage").contains(&"jdk.internal.misc".to_string()));
    assert!(tuples("exportedTo", "jdk.internal.misc\t")
        .contains(&"jdk.internal.misc\tjava.management".to_string()));
    // jdk.unsupported opens sun.misc and sun.reflect to every module.
    assert_eq!(tuples("openPackage", "sun."), ["sun.misc", "sun.reflect"]);
    assert_eq!(
        tuples("openTo", "java.lang\t"),
        Vec::<String>::new(),
        "java.base opens java.lang to no one"
    );

    // Natives: Thread.start0 calls run(); System.arraycopy copies elements
    // at each call site, not in its own body.
    let start0 = "<java.lang.Thread: void start0()>";
    assert_eq!(
        named_tuples(&f.builder, "mI")
            .into_iter()
            .filter(|t| t.starts_with(&format!("{start0}\t")))
            .collect::<Vec<_>>(),
        vec![format!(
            "{start0}\t{start0}[0@L0] invokevirtual <java.lang.Thread: void run()>\tvoid run()"
        )]
    );
    // Object.clone returns its receiver.
    let clone = "<java.lang.Object: java.lang.Object clone()>";
    assert!(named_tuples(&f.builder, "returnsParam").contains(&format!("{clone}\t0")));
    // The facts hold no copy for it: queries/models/arraycopy.dl makes
    // each call's copy (tests/contexts.rs).
    let copy = "<java.lang.System: void arraycopy(java.lang.Object,int,java.lang.Object,int,int)>";
    let stores = named_tuples(&f.builder, "S");
    assert!(!stores.iter().any(|t| t.starts_with(copy)));
    let to_array = "<java.util.Arrays$ArrayList: java.lang.Object[] toArray(java.lang.Object[])>";
    assert!(!stores.iter().any(|t| t.starts_with(to_array)));
    // Collections: the instance methods of the modelled classes store and
    // load nothing (their call sites are answered instead).
    let put = "<java.util.HashMap: java.lang.Object put(java.lang.Object,java.lang.Object)>";
    assert!(!stores.iter().any(|t| t.starts_with(put)));
    // Services: the modules' `provides` clauses.
    let providers = named_tuples(&f.builder, "serviceProvider");
    for want in [
        "jdk.internal.logger.DefaultLoggerFinder\tsun.util.logging.internal.LoggingProviderImpl",
        "java.nio.file.spi.FileSystemProvider\tjdk.nio.zipfs.ZipFileSystemProvider",
        "javax.sound.sampled.spi.AudioFileWriter\tcom.sun.media.sound.WaveFileWriter",
    ] {
        assert!(
            providers.iter().any(|t| t == want),
            "missing serviceProvider {want}"
        );
    }
    // Dispatch: String.toString runs String's own method; an ArrayList's
    // forEach runs ArrayList.forEach; a HashMap$KeySet's stream() is the
    // default method of Collection.
    let cha = named_tuples(&f.builder, "cha");
    for want in [
        "java.lang.String\tjava.lang.String toString()\t<java.lang.String: java.lang.String toString()>",
        "java.util.ArrayList\tvoid forEach(java.util.function.Consumer)\t<java.util.ArrayList: void forEach(java.util.function.Consumer)>",
        "java.util.HashMap$KeySet\tjava.util.stream.Stream stream()\t<java.util.Collection: java.util.stream.Stream stream()>",
        "java.lang.String[]\tjava.lang.Object clone()\t<java.lang.Object: java.lang.Object clone()>",
    ] {
        assert!(cha.iter().any(|t| t == want), "missing cha tuple {want}");
    }
    // The heap abstraction: one object per exception type, one object for
    // the string constants that name nothing; names stay apart.
    let heaps = &f.builder.heaps;
    let count = |pred: &dyn Fn(&String) -> bool| heaps.iter().filter(|h| pred(h)).count();
    assert_eq!(
        count(&|h| h.ends_with("] new java.lang.IllegalArgumentException")),
        0
    );
    assert_eq!(
        count(&|h| h == "<exception java.lang.IllegalArgumentException>"),
        1
    );
    assert_eq!(count(&|h| h == "<string constant>"), 1);
    for named in ["\"java.lang.String\"", "\"toString\"", "\"java.version\""] {
        assert_eq!(count(&|h| h == named), 1, "{named}");
    }
    assert_eq!(count(&|h| h == "\"null\""), 0);
    // The rows of a locale's table of names are one object; an enum's
    // constants (not arrays) and the arrays of a method with few stay
    // apart.
    let names = "<sun.util.resources.cldr.ext.LocaleNames_sv: java.lang.Object[][] getContents()>";
    let rows: Vec<&String> = heaps.iter().filter(|h| h.starts_with(names)).collect();
    assert_eq!(rows.len(), 2, "{rows:#?}");
    assert!(rows
        .iter()
        .any(|h| h.ends_with("] new java.lang.Object[][]")));
    assert!(
        rows.iter()
            .any(|h| h.starts_with(&format!("{names}[table of "))
                && h.ends_with("] new java.lang.Object[]")),
        "{rows:#?}"
    );
    let (tables, sites) = f.builder.stats.tables;
    assert!(
        tables > 100 && sites > 300_000,
        "{tables} tables, {sites} sites"
    );
    let unit = "<java.util.concurrent.TimeUnit: void <clinit>()>";
    assert_eq!(
        count(&|h| h.starts_with(unit) && h.ends_with("] new java.util.concurrent.TimeUnit")),
        7
    );
    // Names known only by their package or by their end, which `infer`
    // does not read at the library's own sites: InetAddress.loadImpl's
    // `"java.net." + impl`, and ResourceBundle's computed `pkg + ".spi." +
    // name + "Provider"`, which fits javac's, JShell's and JVMCI's
    // providers among the 169 classes whose names end so.
    let load_impl =
        "<java.net.InetAddress: java.net.InetAddressImpl loadImpl(java.lang.String)>[32@L1713] concat";
    let provider_type = "<java.util.ResourceBundle: java.lang.Class getResourceBundleProviderType(java.lang.String,java.lang.ClassLoader)>[70@L1898] concat";
    let package_only = named_tuples(&f.builder, "partialPackage");
    let suffix_only = named_tuples(&f.builder, "partialSuffix");
    assert!(package_only.iter().any(|h| h == load_impl));
    assert!(!suffix_only.iter().any(|h| h == load_impl));
    assert!(suffix_only.iter().any(|h| h == provider_type));
    assert!(!package_only.iter().any(|h| h == provider_type));
    let provider_fits = named_tuples(&f.builder, "partialType")
        .into_iter()
        .filter(|t| t.starts_with(&format!("{provider_type}\t")))
        .map(|t| t[provider_type.len() + 1..].to_string())
        .collect::<Vec<_>>();
    for want in [
        "java.util.spi.ToolProvider",
        "com.sun.tools.javac.platform.PlatformProvider",
        "jdk.jshell.spi.ExecutionControlProvider",
    ] {
        assert!(
            provider_fits.iter().any(|t| t == want),
            "{want} not among {} fits",
            provider_fits.len()
        );
    }
    assert!(provider_fits.iter().all(|t| t.ends_with("Provider")));
    let exceptions = count(&|h| h.starts_with("<exception "));
    let strings = count(&|h| h.starts_with('"'));
    eprintln!(
        "{exceptions} exception types, {strings} distinct strings, {tables} tables of {sites} sites, of {} objects",
        heaps.len()
    );
}

/// `--no-model natives`: java.base's natives keep their formals but get
/// no body, so `Thread.start0` calls nothing and `Object.clone` returns
/// nothing of its receiver.
#[test]
fn the_natives_model_switches_off() {
    let mods = jmods(&JdkChoice::Auto).expect("a JDK with jmods (run .ci/run to install one)");
    let base = mods
        .iter()
        .find(|m| m.file_name().is_some_and(|n| n == "java.base.jmod"))
        .expect("java.base.jmod");
    let mut cp = ClassPath::default();
    cp.push_library(base.clone());
    let opts = FactsOptions {
        natives: false,
        ..FactsOptions::default()
    };
    let f = generate_with(&cp, &opts, &|_| {});
    assert!(f.problems.is_empty());
    let start0 = "<java.lang.Thread: void start0()>";
    assert!(named_tuples(&f.builder, "Iloc")
        .iter()
        .all(|t| !t.starts_with(start0)));
    assert!(named_tuples(&f.builder, "formal").contains(&format!("{start0}\t0\t{start0}/this")));
    let clone = "<java.lang.Object: java.lang.Object clone()>";
    assert!(named_tuples(&f.builder, "returnsParam")
        .iter()
        .all(|t| !t.starts_with(clone)));
    assert_eq!(f.builder.stats.modelled_natives, 0);
}

/// Debian's jython 2.7.3: 563 of its 4,697 classes carry the CLDC
/// `StackMap` attribute, which jclassfile alone rejects. All must load.
#[test]
fn jython_classes_with_cldc_stack_maps_all_load() {
    let jar = std::path::Path::new("/usr/share/java/jython-2.7.3.jar");
    assert!(
        jar.is_file(),
        "run scripts/install-test-deps.sh to install jython"
    );
    let mut cp = ClassPath::default();
    cp.push_application(jar);
    let read = cp.read();
    let with_stack_map = read
        .classes
        .iter()
        .filter(|c| c.bytes.windows(10).any(|w| w == b"\x00\x08StackMap"))
        .count();
    assert_eq!((read.classes.len(), with_stack_map), (4697, 563));
    let f = generate(&cp, &|_| {});
    assert!(
        f.problems.is_empty(),
        "{:?}",
        &f.problems[..f.problems.len().min(5)]
    );
    assert_eq!(f.builder.stats.classes, (4697, 0));
}
