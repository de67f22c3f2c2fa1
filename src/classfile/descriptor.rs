//! JVM descriptors and names, converted to the Soot/Doop/Tai-e spelling.
//!
//! Types are written as Java source names: `int`, `java.lang.String`,
//! `java.lang.String[]`; classes by binary name (`a.B$C`).

/// Converts an internal class name (`a/B$C`) or an array descriptor
/// (`[Ljava/lang/String;`, as found in `CONSTANT_Class`) to a type name.
pub fn class_to_type(internal: &str) -> Option<String> {
    if internal.starts_with('[') {
        let (t, rest) = field_type(internal)?;
        rest.is_empty().then_some(t)
    } else if internal.is_empty() {
        None
    } else {
        Some(internal.replace('/', "."))
    }
}

/// Parses one field type at the start of `s`, returning it and the rest.
pub fn field_type(s: &str) -> Option<(String, &str)> {
    let mut dims = 0;
    let mut rest = s;
    while let Some(r) = rest.strip_prefix('[') {
        dims += 1;
        rest = r;
        if dims > 255 {
            return None;
        }
    }
    let first = rest.chars().next()?;
    let (base, rest) = match first {
        'B' => ("byte".to_string(), &rest[1..]),
        'C' => ("char".to_string(), &rest[1..]),
        'D' => ("double".to_string(), &rest[1..]),
        'F' => ("float".to_string(), &rest[1..]),
        'I' => ("int".to_string(), &rest[1..]),
        'J' => ("long".to_string(), &rest[1..]),
        'S' => ("short".to_string(), &rest[1..]),
        'Z' => ("boolean".to_string(), &rest[1..]),
        'V' if dims == 0 => ("void".to_string(), &rest[1..]),
        'L' => {
            let end = rest.find(';')?;
            if end < 2 {
                return None;
            }
            (rest[1..end].replace('/', "."), &rest[end + 1..])
        }
        _ => return None,
    };
    let mut t = base;
    for _ in 0..dims {
        t.push_str("[]");
    }
    Some((t, rest))
}

/// A parsed method descriptor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodDesc {
    /// Parameter types.
    pub params: Vec<String>,
    /// Return type (`void` for none).
    pub ret: String,
}

/// Parses a method descriptor such as `(ILjava/lang/String;)V`.
pub fn method_desc(s: &str) -> Option<MethodDesc> {
    let mut rest = s.strip_prefix('(')?;
    let mut params = Vec::new();
    while !rest.starts_with(')') {
        let (t, r) = field_type(rest)?;
        if t == "void" {
            return None;
        }
        params.push(t);
        rest = r;
    }
    let (ret, r) = field_type(&rest[1..])?;
    r.is_empty().then_some(MethodDesc { params, ret })
}

/// Whether a type name denotes a reference (class or array) type.
pub fn is_reference(t: &str) -> bool {
    !matches!(
        t,
        "byte" | "char" | "double" | "float" | "int" | "long" | "short" | "boolean" | "void"
    )
}

/// Whether a type takes two stack/local slots.
pub fn is_wide(t: &str) -> bool {
    t == "long" || t == "double"
}

/// The element type of an array type (`a.B[][]` → `a.B[]`).
pub fn element_type(t: &str) -> Option<&str> {
    t.strip_suffix("[]")
}

/// The Soot sub-signature of a method: `java.lang.String toString()`.
pub fn subsignature(name: &str, desc: &MethodDesc) -> String {
    format!("{} {}({})", desc.ret, name, desc.params.join(","))
}

/// The Soot signature of a method:
/// `<java.lang.Class: java.lang.Class forName(java.lang.String)>`.
pub fn method_signature(class: &str, name: &str, desc: &MethodDesc) -> String {
    format!("<{}: {}>", class, subsignature(name, desc))
}

/// The Soot signature of a field: `<a.B: java.lang.String name>`.
pub fn field_signature(class: &str, name: &str, ty: &str) -> String {
    format!("<{class}: {ty} {name}>")
}

/// Escapes a string constant for a one-line map entry (Java escapes).
pub fn escape_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_descriptors() {
        assert_eq!(class_to_type("a/B$C").unwrap(), "a.B$C");
        assert_eq!(
            class_to_type("[[Ljava/lang/String;").unwrap(),
            "java.lang.String[][]"
        );
        let d = method_desc("(I[JLjava/lang/Object;)Ljava/lang/String;").unwrap();
        assert_eq!(d.params, vec!["int", "long[]", "java.lang.Object"]);
        assert_eq!(
            method_signature("a.B", "m", &d),
            "<a.B: java.lang.String m(int,long[],java.lang.Object)>"
        );
        assert!(method_desc("(V)V").is_none());
        assert!(method_desc("(L;)V").is_none());
        assert!(method_desc("()V;").is_none());
        assert_eq!(escape_string("a\"b\n"), "a\\\"b\\n");
    }
}

/// The JVM descriptor of a type name (`java.lang.String[]` →
/// `[Ljava/lang/String;`).
pub fn type_descriptor(t: &str) -> String {
    let mut dims = 0;
    let mut base = t;
    while let Some(b) = base.strip_suffix("[]") {
        dims += 1;
        base = b;
    }
    let mut out = "[".repeat(dims);
    match base {
        "byte" => out.push('B'),
        "char" => out.push('C'),
        "double" => out.push('D'),
        "float" => out.push('F'),
        "int" => out.push('I'),
        "long" => out.push('J'),
        "short" => out.push('S'),
        "boolean" => out.push('Z'),
        "void" => out.push('V'),
        _ => {
            out.push('L');
            out.push_str(&base.replace('.', "/"));
            out.push(';');
        }
    }
    out
}

/// A method signature taken apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodSig {
    /// Declaring class.
    pub class: String,
    /// Name.
    pub name: String,
    /// Parameter types.
    pub params: Vec<String>,
    /// Return type.
    pub ret: String,
}

impl MethodSig {
    /// The JVM descriptor, `(Ljava/lang/String;)V`.
    pub fn descriptor(&self) -> String {
        let params: String = self.params.iter().map(|p| type_descriptor(p)).collect();
        format!("({params}){}", type_descriptor(&self.ret))
    }
}

/// Parses a Soot method signature `<a.B: void m(int,java.lang.String)>`.
pub fn parse_method_signature(sig: &str) -> Option<MethodSig> {
    let inner = sig.strip_prefix('<')?.strip_suffix('>')?;
    let (class, rest) = inner.split_once(": ")?;
    let (ret, rest) = rest.split_once(' ')?;
    let (name, params) = rest.split_once('(')?;
    let params = params.strip_suffix(')')?;
    let params = if params.is_empty() {
        Vec::new()
    } else {
        params.split(',').map(str::to_string).collect()
    };
    Some(MethodSig {
        class: class.to_string(),
        name: name.to_string(),
        params,
        ret: ret.to_string(),
    })
}

/// Parses a Soot field signature `<a.B: java.lang.String name>` into
/// (class, type, name).
pub fn parse_field_signature(sig: &str) -> Option<(String, String, String)> {
    let inner = sig.strip_prefix('<')?.strip_suffix('>')?;
    let (class, rest) = inner.split_once(": ")?;
    let (ty, name) = rest.rsplit_once(' ')?;
    Some((class.to_string(), ty.to_string(), name.to_string()))
}
