//! The call trace: one `tracing` event per call, with the call's family as its target and a
//! level from its outcome (a failed call `warn`, a call of the `error` family `debug`, any
//! other `info`; a line as the call starts is `trace`), so that `tracing`'s filter syntax
//! selects families and levels.

use std::fmt::Write as _;
use std::time::Instant;

use super::call::{Call, Family, Status};
use super::config::config;
use super::show::{self, Shown};

#[derive(Copy, Clone, PartialEq, Debug)]
enum Lvl {
    Warn,
    Info,
    Debug,
    Trace,
}

fn level(c: &Call, s: Status) -> Lvl {
    if c.ex.family == Family::Error {
        Lvl::Debug
    } else if c.failed(s) {
        Lvl::Warn
    } else {
        Lvl::Info
    }
}

// `tracing`'s callsites need a constant target and level: one per family and level.
macro_rules! per_level {
    ($t:literal, $lvl:expr, $m:ident $(, $($arg:tt)+)?) => {
        match $lvl {
            Lvl::Warn => tracing::$m!(target: $t, tracing::Level::WARN $(, $($arg)+)?),
            Lvl::Info => tracing::$m!(target: $t, tracing::Level::INFO $(, $($arg)+)?),
            Lvl::Debug => tracing::$m!(target: $t, tracing::Level::DEBUG $(, $($arg)+)?),
            Lvl::Trace => tracing::$m!(target: $t, tracing::Level::TRACE $(, $($arg)+)?),
        }
    };
}

macro_rules! per_target {
    ($f:expr, $lvl:expr, $m:ident $(, $($arg:tt)+)?) => {
        match $f {
            Family::Memory => per_level!("memory", $lvl, $m $(, $($arg)+)?),
            Family::Copy => per_level!("copy", $lvl, $m $(, $($arg)+)?),
            Family::Memset => per_level!("memset", $lvl, $m $(, $($arg)+)?),
            Family::Array => per_level!("array", $lvl, $m $(, $($arg)+)?),
            Family::Launch => per_level!("launch", $lvl, $m $(, $($arg)+)?),
            Family::Module => per_level!("module", $lvl, $m $(, $($arg)+)?),
            Family::Stream => per_level!("stream", $lvl, $m $(, $($arg)+)?),
            Family::Event => per_level!("event", $lvl, $m $(, $($arg)+)?),
            Family::Device => per_level!("device", $lvl, $m $(, $($arg)+)?),
            Family::Graph => per_level!("graph", $lvl, $m $(, $($arg)+)?),
            Family::Texture => per_level!("texture", $lvl, $m $(, $($arg)+)?),
            Family::Interop => per_level!("interop", $lvl, $m $(, $($arg)+)?),
            Family::Error => per_level!("error", $lvl, $m $(, $($arg)+)?),
            Family::Runtime => per_level!("runtime", $lvl, $m $(, $($arg)+)?),
        }
    };
}

fn enabled(f: Family, l: Lvl) -> bool {
    config().trace.is_some() && per_target!(f, l, enabled)
}

/// Whether the trace shows this call.
pub fn wanted(c: &Call, s: Status) -> bool {
    enabled(c.ex.family, level(c, s))
}

fn args(line: &mut String, c: &Call, shown: &[Shown]) {
    let _ = write!(line, "#{} {}(", c.seq, c.ex.name);
    for (i, a) in shown.iter().enumerate() {
        if i > 0 {
            line.push_str(", ");
        }
        let _ = write!(line, "{}{}{}", a.name, if a.through { "->" } else { "=" }, a.text);
    }
    line.push(')');
}

/// A line as a call starts (level `trace`): its arguments as passed.
pub fn enter(c: &Call) {
    if !enabled(c.ex.family, Lvl::Trace) {
        return;
    }
    let shown = show::decode(c, None);
    let mut line = String::from("> ");
    args(&mut line, c, &shown);
    per_target!(c.ex.family, Lvl::Trace, event, "{}", line);
}

/// `12.3 us`, `4.56 ms`.
pub fn duration(t0: Instant, t1: Instant) -> String {
    let ns = (t1 - t0).as_nanos() as f64;
    if ns < 1e6 {
        format!("{:.1} us", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.3} s", ns / 1e9)
    }
}

/// The line of a finished call.
pub fn emit(c: &Call, s: Status, shown: &[Shown], result: &str, t0: Instant, t1: Instant, refused: Option<&str>) {
    let mut line = String::new();
    args(&mut line, c, shown);
    if !result.is_empty() {
        let _ = write!(line, " = {result}");
    }
    if let Some(why) = refused {
        let _ = write!(line, " [checked: {why}]");
    }
    let _ = write!(line, " ({})", duration(t0, t1));
    per_target!(c.ex.family, level(c, s), event, "{}", line);
}

/// A misuse seen at call `c` (level `warn`).
pub fn misuse(c: &Call, what: &str) {
    if enabled(c.ex.family, Lvl::Warn) {
        per_target!(c.ex.family, Lvl::Warn, event, "#{} {}: misuse: {}", c.seq, c.ex.name, what);
    }
}
