//! Tokens of bddbddb's Datalog, with their positions.

use super::error::{Error, ErrorKind, Loc, Result};
use std::path::PathBuf;
use std::sync::Arc;

/// A token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name: relation, variable, domain, option.
    Ident(String),
    /// A non-negative integer.
    Int(u64),
    /// A double-quoted string.
    Str(String),
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `:-`
    Turnstile,
    /// `.`
    Dot,
    /// `?`
    Question,
    /// `!`
    Bang,
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `*`
    Star,
    /// `-`
    Minus,
}

impl Tok {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("'{}'", super::quote::bounded(s)),
            Tok::Int(n) => format!("'{n}'"),
            Tok::Str(s) => format!("\"{}\"", super::quote::bounded(s)),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::Comma => "','".into(),
            Tok::Colon => "':'".into(),
            Tok::Turnstile => "':-'".into(),
            Tok::Dot => "'.'".into(),
            Tok::Question => "'?'".into(),
            Tok::Bang => "'!'".into(),
            Tok::Eq => "'='".into(),
            Tok::Ne => "'!='".into(),
            Tok::Lt => "'<'".into(),
            Tok::Le => "'<='".into(),
            Tok::Gt => "'>'".into(),
            Tok::Ge => "'>='".into(),
            Tok::Star => "'*'".into(),
            Tok::Minus => "'-'".into(),
        }
    }
}

/// A token and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Its position.
    pub loc: Loc,
    /// The column just after it (tokens that touch form one word, such as
    /// a map file's name `v.map`).
    pub end: u32,
}

/// Splits one physical line into tokens. `//` starts a comment.
pub fn tokenize_line(file: &Arc<PathBuf>, line_no: u32, text: &str) -> Result<Vec<Token>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let loc = Loc::new(file.clone(), line_no, i as u32 + 1);
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            break;
        }
        let (tok, len) = match punctuation(c, chars.get(i + 1).copied()) {
            Some(punct) => punct,
            None if c == '"' => string(&chars, i, &loc)?,
            None if c.is_ascii_digit() => number(&chars, i, &loc)?,
            None if is_ident_start(c) => {
                let j = ident_end(&chars, i);
                (Tok::Ident(chars[i..j].iter().collect()), j - i)
            }
            None => {
                return Err(Error::at(
                    &loc,
                    ErrorKind::Syntax,
                    format!("unexpected character '{c}'"),
                ))
            }
        };
        out.push(Token {
            tok,
            loc,
            end: (i + len) as u32 + 1,
        });
        i += len;
    }
    Ok(out)
}

/// The punctuation token that `c` (followed by `next`) starts, and its
/// length.
fn punctuation(c: char, next: Option<char>) -> Option<(Tok, usize)> {
    let two = |n: char| next == Some(n);
    Some(match c {
        '(' => (Tok::LParen, 1),
        ')' => (Tok::RParen, 1),
        ',' => (Tok::Comma, 1),
        ':' if two('-') => (Tok::Turnstile, 2),
        ':' => (Tok::Colon, 1),
        '.' => (Tok::Dot, 1),
        '?' => (Tok::Question, 1),
        '!' if two('=') => (Tok::Ne, 2),
        '!' => (Tok::Bang, 1),
        '=' => (Tok::Eq, 1),
        '<' if two('=') => (Tok::Le, 2),
        '<' => (Tok::Lt, 1),
        '>' if two('=') => (Tok::Ge, 2),
        '>' => (Tok::Gt, 1),
        '*' => (Tok::Star, 1),
        '-' => (Tok::Minus, 1),
        _ => return None,
    })
}

/// The double-quoted string that starts at `chars[i]`, a backslash
/// escaping the character after it, and its length.
fn string(chars: &[char], i: usize, loc: &Loc) -> Result<(Tok, usize)> {
    let mut j = i + 1;
    let mut s = String::new();
    while j < chars.len() && chars[j] != '"' {
        if chars[j] == '\\' && j + 1 < chars.len() {
            j += 1;
        }
        s.push(chars[j]);
        j += 1;
    }
    if j >= chars.len() {
        return Err(Error::at(loc, ErrorKind::Syntax, "unterminated string"));
    }
    Ok((Tok::Str(s), j + 1 - i))
}

/// The number that starts at `chars[i]`, and its length. A number glued
/// to letters (`0x1`, `3abc`) is a name, e.g. a map file.
fn number(chars: &[char], i: usize, loc: &Loc) -> Result<(Tok, usize)> {
    let mut j = i;
    while j < chars.len() && chars[j].is_ascii_digit() {
        j += 1;
    }
    if j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
        let k = ident_end(chars, j);
        return Ok((Tok::Ident(chars[i..k].iter().collect()), k - i));
    }
    let digits: String = chars[i..j].iter().collect();
    let n = digits.parse::<u64>().map_err(|_| {
        Error::at(
            loc,
            ErrorKind::Syntax,
            format!("number {} is too large", super::quote::bounded(&digits)),
        )
    })?;
    Ok((Tok::Int(n), j - i))
}

/// Where the name characters that start at `chars[i]` end.
fn ident_end(chars: &[char], i: usize) -> usize {
    let mut j = i;
    while j < chars.len() && is_ident_char(chars[j]) {
        j += 1;
    }
    j
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '$'
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$' || c == '\''
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_with_columns() {
        let f = Arc::new(PathBuf::from("t.dl"));
        let toks = tokenize_line(&f, 3, "a(x,\"n m\") :- !b(x, 7), x != _.").unwrap();
        let kinds: Vec<Tok> = toks.iter().map(|t| t.tok.clone()).collect();
        assert_eq!(kinds[0], Tok::Ident("a".into()));
        assert_eq!(kinds[4], Tok::Str("n m".into()));
        assert_eq!(kinds[6], Tok::Turnstile);
        assert!(kinds.contains(&Tok::Ne));
        assert_eq!(toks[6].loc.col, 12);
        assert_eq!(toks[6].loc.line, 3);
        let err = tokenize_line(&f, 1, "a(x) :- b(x) & c(x).").unwrap_err();
        assert_eq!(err.to_string(), "t.dl:1:14: unexpected character '&'");
    }
}
