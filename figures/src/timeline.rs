//! The timeline: a Chrome trace-event JSON array (Perfetto, `chrome://tracing`), one event
//! per line. Each process writes its events, as it runs, to a part of its own: lines
//! `{"pid":P,"tid":T,...},` that stay readable however the process ends (a last line cut
//! short is left out, [`part_events`]); the parts are joined into one array
//! ([`write_array`]), by the process at exit or by the `cudart-rs` command, with a named
//! track per process ([`process_meta`]). Parts of several hosts are put on one clock and
//! given pids of their own ([`rebase`]).

use std::fmt::Write as _;
use std::io::Write;

/// JSON string contents.
pub fn esc(s: &str, o: &mut String) {
    for ch in s.chars() {
        match ch {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
}

/// The metadata events that name process `pid`'s track (`label (cudart-rs)`) and place it
/// (`sort`: its rank, tracks in rank order).
pub fn process_meta(pid: u64, label: &str, sort: Option<i64>) -> Vec<String> {
    let mut name = String::new();
    esc(&format!("{label} (cudart-rs)"), &mut name);
    let mut v = vec![format!(
        "{{\"pid\":{pid},\"tid\":0,\"name\":\"process_name\",\"ph\":\"M\",\"args\":{{\"name\":\"{name}\"}}}}"
    )];
    if let Some(r) = sort {
        v.push(format!(
            "{{\"pid\":{pid},\"tid\":0,\"name\":\"process_sort_index\",\"ph\":\"M\",\"args\":{{\"sort_index\":{r}}}}}"
        ));
    }
    v
}

/// The metadata event that names track `tid` of process `pid`.
pub fn thread_meta(pid: u64, tid: i64, name: &str) -> String {
    let mut n = String::new();
    esc(name, &mut n);
    format!("{{\"pid\":{pid},\"tid\":{tid},\"name\":\"thread_name\",\"ph\":\"M\",\"args\":{{\"name\":\"{n}\"}}}}")
}

/// The events of a part: its whole lines (each ends `},`), without their commas. What a
/// process killed while writing left (a line cut short, the zeros of space not written yet)
/// is left out.
pub fn part_events(bytes: &[u8]) -> Vec<&str> {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let text = String::from_utf8_lossy(&bytes[..end]);
    let whole = match &text {
        std::borrow::Cow::Borrowed(t) => *t,
        std::borrow::Cow::Owned(_) => return Vec::new(),
    };
    let mut out = Vec::new();
    let mut rest = whole;
    while let Some(i) = rest.find('\n') {
        let line = &rest[..i];
        rest = &rest[i + 1..];
        if let Some(e) = line.strip_suffix(',') {
            if e.starts_with("{\"pid\":") && e.ends_with('}') {
                out.push(e);
            }
        }
    }
    out
}

/// The events of a timeline this module wrote (`[`, one event a line, `]`), or `None` when
/// `text` is not one (an empty text has none).
pub fn array_events(text: &str) -> Option<Vec<&str>> {
    if text.trim().is_empty() {
        return Some(Vec::new());
    }
    let mut lines = text.lines();
    if lines.next()? != "[" {
        return None;
    }
    let mut out = Vec::new();
    let mut closed = false;
    for l in lines {
        if closed {
            if !l.trim().is_empty() {
                return None;
            }
            continue;
        }
        if l == "]" {
            closed = true;
            continue;
        }
        let e = l.strip_suffix(',').unwrap_or(l);
        if !(e.starts_with("{\"pid\":") && e.ends_with('}')) {
            return None;
        }
        out.push(e);
    }
    closed.then_some(out)
}

/// Writes `events` as one array, an event a line.
pub fn write_array<'a>(out: &mut impl Write, events: impl Iterator<Item = &'a str>) -> std::io::Result<()> {
    out.write_all(b"[\n")?;
    let mut first = true;
    for e in events {
        if !first {
            out.write_all(b",\n")?;
        }
        out.write_all(e.as_bytes())?;
        first = false;
    }
    out.write_all(b"\n]\n")
}

/// Event `line` of a process given pid `pid` in the joined timeline, its time moved by
/// `shift` microseconds (events of several hosts, put on one clock).
pub fn rebase(line: &str, pid: u64, shift: f64) -> String {
    let Some(rest) = line.strip_prefix("{\"pid\":") else { return line.to_string() };
    let rest = &rest[rest.find(',').unwrap_or(rest.len())..];
    let mut o = format!("{{\"pid\":{pid}{rest}");
    if shift != 0.0 {
        if let Some(i) = o.find(",\"ts\":") {
            let from = i + 6;
            let to = o[from..].find([',', '}']).map_or(o.len(), |j| from + j);
            if let Ok(ts) = o[from..to].parse::<f64>() {
                o.replace_range(from..to, &format!("{:.3}", ts + shift));
            }
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_arrays_and_rebasing() {
        let part = b"{\"pid\":7,\"tid\":7,\"name\":\"thread_name\",\"ph\":\"M\",\"args\":{\"name\":\"t\"}},\n{\"pid\":7,\"tid\":7,\"name\":\"cudaMalloc\",\"ts\":10.500,\"dur\":1.000},\n{\"pid\":7,\"tid\":7,\"na\0\0\0";
        let ev = part_events(part);
        assert_eq!(ev.len(), 2);
        let mut out = Vec::new();
        let meta = process_meta(7, "pid 7, prog", Some(1));
        write_array(&mut out, meta.iter().map(String::as_str).chain(ev.iter().copied())).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("[\n{\"pid\":7,\"tid\":0,\"name\":\"process_name\""));
        assert!(text.ends_with("\"dur\":1.000}\n]\n"));
        assert_eq!(array_events(&text).unwrap().len(), 4);
        assert_eq!(array_events("").unwrap().len(), 0);
        assert!(array_events("{\"a\":1}").is_none());
        assert!(array_events("[1,2,3]").is_none());
        assert!(array_events("[\n{\"pid\":1}\n").is_none());
        assert_eq!(
            rebase(ev[1], 10000007, 100.0),
            "{\"pid\":10000007,\"tid\":7,\"name\":\"cudaMalloc\",\"ts\":110.500,\"dur\":1.000}"
        );
        assert_eq!(
            rebase(ev[0], 3, 5.0),
            "{\"pid\":3,\"tid\":7,\"name\":\"thread_name\",\"ph\":\"M\",\"args\":{\"name\":\"t\"}}"
        );
        let mut s = String::new();
        esc("a\"b\\c\nd\u{1}", &mut s);
        assert_eq!(s, "a\\\"b\\\\c\\nd\\u0001");
    }
}
