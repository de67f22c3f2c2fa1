//! User input inside messages: quoted with a bound, with control
//! characters escaped, and unknown names answered with the nearest known
//! ones instead of a list of all of them.

/// The most characters of user input a message quotes.
pub const QUOTE_LIMIT: usize = 80;

/// `text` for a message: control characters (NUL, CR, ...) escaped, and
/// cut after [`QUOTE_LIMIT`] characters with a note of the full length.
pub fn bounded(text: &str) -> String {
    let mut out = String::new();
    for (k, c) in text.chars().enumerate() {
        if k == QUOTE_LIMIT {
            out.push_str(&format!("... ({} bytes in all)", text.len()));
            return out;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Edit distance of two short strings, a swap of neighbours counting as
/// one edit (optimal string alignment), or `None` past `cap`.
fn distance(a: &str, b: &str, cap: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > cap {
        return None;
    }
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for (j, cell) in d.iter_mut().take(w).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        d[i * w] = i;
        let mut row_min = i;
        for j in 1..w {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
            row_min = row_min.min(v);
        }
        if row_min > cap {
            return None;
        }
    }
    let r = d[a.len() * w + b.len()];
    (r <= cap).then_some(r)
}

/// Up to three of `known` nearest to `name` (by edit distance, ignoring
/// case, at most a third of its length), as a message suffix: ` (did you mean V, H?)`,
/// or `` when none is near. Names longer than [`QUOTE_LIMIT`] are never
/// near.
pub fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    if name.chars().count() > QUOTE_LIMIT {
        return String::new();
    }
    // Case is ignored; a third of the name may differ.
    let cap = name.chars().count() / 3;
    let lower = name.to_lowercase();
    let mut near: Vec<(usize, &str)> = known
        .into_iter()
        .filter_map(|k| distance(&lower, &k.to_lowercase(), cap).map(|d| (d, k)))
        .collect();
    near.sort();
    near.truncate(3);
    if near.is_empty() {
        return String::new();
    }
    let names: Vec<String> = near.iter().map(|(_, k)| bounded(k)).collect();
    format!(" (did you mean {}?)", names.join(", "))
}

/// A name as Datalog writes it between quotes: backslashes and quotes
/// escaped, as the lexer reads them back.
pub fn escape(name: &str) -> String {
    name.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A name as a Datalog constant, with its quotes.
pub fn constant(name: &str) -> String {
    format!("\"{}\"", escape(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_bounded_and_escaped() {
        assert_eq!(bounded("a\0b\r"), "a\\u{0}b\\r");
        let long = "x".repeat(10_000_000);
        let q = bounded(&long);
        assert_eq!(q, format!("{}... (10000000 bytes in all)", "x".repeat(80)));
    }

    #[test]
    fn nearest_names_are_suggested() {
        let known = ["vP", "hP", "IE", "vP0", "reach"];
        assert_eq!(did_you_mean("vp", known), " (did you mean vP?)");
        assert_eq!(did_you_mean("vP1", known), " (did you mean vP, vP0?)");
        assert_eq!(did_you_mean("B", ["A"]), "");
        assert_eq!(did_you_mean("raech", known), " (did you mean reach?)");
        assert_eq!(did_you_mean("zzzzzz", known), "");
    }
}
