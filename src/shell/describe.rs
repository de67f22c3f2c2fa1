//! What `.schema R` says about a relation beyond its declaration: what a
//! tuple means, and the analysis rules that derive it.
//!
//! A fact relation's meaning is its documentation in the front end's
//! schema ([`crate::facts::schema::RELATIONS`]). A derived relation's is
//! the comment right above the first rule that derives it in the program
//! the database was made by (`program.dl`, where each rule file of
//! `queries/` starts with a `# ---- FILE ----` line), and its rules are
//! listed with the file and line they come from.

/// A relation's description.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Description {
    /// What a tuple means, as lines of text.
    pub meaning: Vec<String>,
    /// The rules deriving it: `(file:line, rule)`.
    pub rules: Vec<(String, String)>,
}

/// The description of relation `name`, from the front end's schema and the
/// text of the program that made the database (empty where it says
/// nothing).
pub fn describe(name: &str, program: Option<&str>) -> Description {
    let mut d = Description::default();
    if let Some(r) = crate::facts::schema::RELATIONS
        .iter()
        .find(|r| r.name == name)
    {
        d.meaning.push(r.doc.to_string());
    }
    let Some(text) = program else {
        return d;
    };
    let head = format!("{name}(");
    let mut file = "program.dl".to_string();
    let mut line_in_file = 0usize;
    let mut comment: Vec<String> = Vec::new();
    for line in text.lines() {
        line_in_file += 1;
        let t = line.trim();
        if let Some(f) = t
            .strip_prefix("# ---- ")
            .and_then(|r| r.strip_suffix(" ----"))
        {
            file = format!("queries/{f}");
            line_in_file = 0;
            comment.clear();
            continue;
        }
        if let Some(c) = t.strip_prefix('#') {
            let c = c.strip_prefix(' ').unwrap_or(c);
            // A section banner (`# --- Object creation ---`) names a
            // part of the file, not the relation.
            if c.starts_with("---") {
                comment.clear();
            } else {
                comment.push(c.to_string());
            }
            continue;
        }
        if t.starts_with(&head) && t.contains(":-") {
            if d.rules.is_empty() && d.meaning.is_empty() {
                d.meaning = std::mem::take(&mut comment);
            }
            d.rules
                .push((format!("{file}:{line_in_file}"), t.to_string()));
        }
        comment.clear();
    }
    d
}

/// Whether `name` matches a pattern where `*` stands for any text.
pub fn matches_pattern(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || name.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    if !name.ends_with(last) {
        return false;
    }
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(k) => rest = &rest[k + part.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROGRAM: &str = "V 10\n\n# ---- pointsto.dl ----\n# Reachable methods.\n# From the roots.\nreach(m) :- root(m).\n\nreach(m) :- IE(_, m).\n# ---- models/arrays.dl ----\nx(a) :- reach(a).\n";

    #[test]
    fn a_derived_relation_has_the_comment_above_its_first_rule_and_its_rules() {
        let d = describe("reach", Some(PROGRAM));
        assert_eq!(d.meaning, ["Reachable methods.", "From the roots."]);
        assert_eq!(
            d.rules,
            [
                (
                    "queries/pointsto.dl:3".to_string(),
                    "reach(m) :- root(m).".to_string()
                ),
                (
                    "queries/pointsto.dl:5".to_string(),
                    "reach(m) :- IE(_, m).".to_string()
                ),
            ]
        );
        let x = describe("x", Some(PROGRAM));
        assert!(x.meaning.is_empty());
        assert_eq!(x.rules[0].0, "queries/models/arrays.dl:1");
    }

    #[test]
    fn a_fact_relation_has_the_front_ends_documentation() {
        let d = describe("vP0", None);
        assert_eq!(d.meaning.len(), 1);
        assert!(d.rules.is_empty());
    }

    #[test]
    fn patterns_match_with_stars() {
        assert!(matches_pattern("vP*", "vPfilter"));
        assert!(matches_pattern("*Object*", "unknownClassObject"));
        assert!(matches_pattern("*At", "placeholderAt"));
        assert!(matches_pattern("vP", "vP"));
        assert!(!matches_pattern("vP", "vP0"));
        assert!(!matches_pattern("a*a", "a"));
        assert!(matches_pattern("a*b*c", "axxbyyc"));
        assert!(!matches_pattern("a*b*c", "axxcyyb"));
    }
}
