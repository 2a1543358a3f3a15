//! Numbers, plurals and paths as the reports print them.

use std::fmt::Write as _;
use std::path::Path;

/// `1234567` -> `1,234,567`.
pub fn commas(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `1234.56` -> `1,234.6`.
pub fn commas_f(v: f64) -> String {
    let s = format!("{v:.1}");
    let (whole, frac) = s.split_once('.').unwrap_or((&s, "0"));
    format!("{}.{frac}", commas(whole.parse().unwrap_or(0)))
}

/// `1 process`, `2 processes`: the count and the word, singular or plural.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", commas(n), if n == 1 { one } else { many })
}

/// A path as a message shows it: as it is, but with control characters (a newline, an
/// escape) and backslashes escaped, so that one message stays one line and says what it
/// names.
pub fn shown(p: &Path) -> String {
    let s = p.to_string_lossy();
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            '\r' => o.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(o, "\\u{{{:x}}}", c as u32);
            }
            c => o.push(c),
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_plurals_paths() {
        assert_eq!(commas(0), "0");
        assert_eq!(commas(999), "999");
        assert_eq!(commas(1000), "1,000");
        assert_eq!(commas(1234567), "1,234,567");
        assert_eq!(commas_f(1234.56), "1,234.6");
        assert_eq!(count(1, "process", "processes"), "1 process");
        assert_eq!(count(2, "process", "processes"), "2 processes");
        assert_eq!(count(1000, "call", "calls"), "1,000 calls");
        assert_eq!(shown(Path::new("/tmp/a\nb\x1b[31m")), "/tmp/a\\nb\\u{1b}[31m");
        assert_eq!(shown(Path::new("/tmp/plain")), "/tmp/plain");
    }
}
