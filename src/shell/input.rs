//! Where one statement of typed or piped input ends, so that the shell can
//! read a rule over several lines: a rule ends with `.`, a query with `?`,
//! while a line ending in `\` or `,`, unbalanced parentheses, an open
//! quote or a `:-` without its period ask for more.

/// Whether `text` holds complete statements (or nothing).
pub fn is_complete(text: &str) -> bool {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect();
    let Some(last) = lines.iter().rev().find(|l| !l.trim().is_empty()) else {
        return true;
    };
    let last = last.trim_end();
    if last.ends_with('\\') || last.ends_with(',') || last.ends_with(":-") {
        return false;
    }
    let first = lines
        .iter()
        .find(|l| !l.trim().is_empty())
        .map_or("", |l| l.trim_start());
    if first.starts_with('.') && lines.iter().filter(|l| !l.trim().is_empty()).count() == 1 {
        // A shell command or directive is one line.
        return true;
    }
    let mut depth = 0i64;
    let mut quoted = false;
    let mut rule_open = false;
    let mut prev = ' ';
    let joined = lines.join("\n");
    for c in joined.chars() {
        match c {
            '"' => quoted = !quoted,
            '(' if !quoted => depth += 1,
            ')' if !quoted => depth -= 1,
            '-' if !quoted && prev == ':' => rule_open = true,
            '.' if !quoted && depth == 0 => rule_open = false,
            _ => {}
        }
        prev = c;
    }
    !quoted && depth <= 0 && !rule_open
}

#[cfg(test)]
mod tests {
    use super::is_complete;

    #[test]
    fn statements_end_where_datalog_says() {
        assert!(is_complete(""));
        assert!(is_complete("vP(v, h)?"));
        assert!(is_complete("R(x) :- vP(x, _)."));
        assert!(is_complete("R (x:V)"));
        assert!(is_complete(".count vP"));
        assert!(is_complete("V 16"));
        assert!(!is_complete("R(x) :- vP(x, _),"));
        assert!(!is_complete("R(x) :-"));
        assert!(!is_complete("R(x) :- vP(x,\n  _)"));
        assert!(!is_complete("R(x) :- vP(x, \"a.b"));
        assert!(!is_complete("R(x) :- vP(x, _) \\"));
        assert!(is_complete("R(x) :- vP(x, _),\n  !A(x)."));
        assert!(is_complete("R(x) :- vP(x, \"a.b(c)\")."));
    }
}
