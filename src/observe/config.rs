//! What the environment asks the observer for: the variables, read once when the library is
//! loaded ([`parse`]), and whether anything is observed at all ([`on`], the shims' one
//! branch).
//!
//! Paths are made absolute when they are read (a program that changes its folder keeps its
//! reports in one place); `%p` in a path is the process id, the id of the process that
//! writes it ([`resolved`]). With `CUDART_RS_RECORD=DIR`, each process keeps its figures in
//! a record in DIR, and the reports' default place (`1`) is that record.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

pub const TRACE_ENV: &str = "CUDART_RS_TRACE";
pub const TRACE_FILE_ENV: &str = "CUDART_RS_TRACE_FILE";
pub const SUMMARY_ENV: &str = "CUDART_RS_SUMMARY";
pub const SUMMARY_DATA_ENV: &str = "CUDART_RS_SUMMARY_DATA";
pub const LEAKS_ENV: &str = "CUDART_RS_LEAKS";
pub const TIMELINE_ENV: &str = "CUDART_RS_TIMELINE";
pub const CHECKED_ENV: &str = "CUDART_RS_CHECKED";
pub const RECORD_ENV: &str = "CUDART_RS_RECORD";

/// Every observation variable.
pub const VARS: [&str; 8] =
    [TRACE_ENV, TRACE_FILE_ENV, SUMMARY_ENV, SUMMARY_DATA_ENV, LEAKS_ENV, TIMELINE_ENV, CHECKED_ENV, RECORD_ENV];

/// Where a report goes.
#[derive(Clone, Debug, PartialEq)]
pub enum Dest {
    Stderr,
    File(PathBuf),
    /// The process's record (`CUDART_RS_RECORD`), for `cudart-rs report` or the command.
    Record,
}

/// What the environment asked for.
#[derive(Debug, Default)]
pub struct Config {
    /// The call trace's filter.
    pub trace: Option<String>,
    pub trace_file: Option<PathBuf>,
    pub summary: Option<Dest>,
    /// Where the summary's figures go as tab-separated lines.
    pub summary_data: Option<PathBuf>,
    pub leaks: Option<Dest>,
    pub backtrace: bool,
    /// The timeline is made.
    pub timeline: bool,
    /// The file this process joins its timeline into at exit (none: its record's part only).
    pub timeline_file: Option<PathBuf>,
    pub gpu: bool,
    pub checked: bool,
    /// The folder of the records.
    pub record: Option<PathBuf>,
}

impl Config {
    /// Anything on.
    pub fn any(&self) -> bool {
        self.trace.is_some() || self.reports_at_exit() || self.checked || self.record.is_some()
    }

    /// A report made at exit is asked for.
    pub fn reports_at_exit(&self) -> bool {
        self.summary.is_some() || self.summary_data.is_some() || self.leaks.is_some() || self.timeline
    }
}

fn yes(v: &str) -> bool {
    matches!(v.to_ascii_lowercase().as_str(), "1" | "on" | "yes" | "true" | "all" | "stderr")
}

fn no(v: &str) -> bool {
    matches!(v.to_ascii_lowercase().as_str(), "" | "0" | "off" | "no" | "false")
}

/// A path from the environment, made absolute against the current folder.
pub fn path_of(v: &str) -> PathBuf {
    let p = PathBuf::from(v);
    if p.is_absolute() {
        return p;
    }
    std::env::current_dir().map(|d| d.join(&p)).unwrap_or(p)
}

/// `p` with `%p` replaced by this process's id.
pub fn resolved(p: &Path) -> PathBuf {
    let s = p.to_string_lossy();
    if !s.contains("%p") {
        return p.to_path_buf();
    }
    PathBuf::from(s.replace("%p", &crate::observe::process::pid().to_string()))
}

/// Reads the configuration from `get` (the environment, or a test's table).
pub fn parse(get: impl Fn(&str) -> Option<String>) -> (Config, Vec<String>) {
    let mut c = Config::default();
    let mut warnings = Vec::new();
    c.record = get(RECORD_ENV).filter(|v| !no(v)).map(|v| path_of(&v));
    let default = |c: &Config| if c.record.is_some() { Dest::Record } else { Dest::Stderr };
    if let Some(v) = get(TRACE_ENV) {
        if !no(&v) {
            c.trace = Some(if yes(&v) { "debug".to_string() } else { v });
        }
    }
    if let Some(v) = get(TRACE_FILE_ENV).filter(|v| !v.is_empty()) {
        c.trace_file = Some(path_of(&v));
    }
    if let Some(v) = get(SUMMARY_ENV) {
        if !no(&v) {
            c.summary = Some(if yes(&v) { default(&c) } else { Dest::File(path_of(&v)) });
        }
    }
    if let Some(v) = get(SUMMARY_DATA_ENV).filter(|v| !no(v)) {
        c.summary_data = Some(path_of(&v));
    }
    if let Some(v) = get(LEAKS_ENV) {
        if !no(&v) {
            let mut dest = default(&c);
            for item in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match item {
                    "backtrace" | "bt" => c.backtrace = true,
                    i if yes(i) => {}
                    i if i.contains('/') || i.contains('.') => dest = Dest::File(path_of(i)),
                    i => warnings.push(format!("{LEAKS_ENV}: unknown item {i:?} (1, backtrace or a path)")),
                }
            }
            c.leaks = Some(dest);
        }
    }
    if let Some(v) = get(TIMELINE_ENV) {
        if !no(&v) {
            c.timeline = true;
            for item in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                match item {
                    "gpu" => c.gpu = true,
                    i if yes(i) => {}
                    i => c.timeline_file = Some(path_of(i)),
                }
            }
            if c.timeline_file.is_none() && c.record.is_none() {
                c.timeline_file = Some(path_of("cudart-rs-timeline.%p.json"));
            }
        }
    }
    if let Some(v) = get(CHECKED_ENV) {
        if yes(&v) {
            c.checked = true;
        } else if !no(&v) {
            warnings.push(format!("{CHECKED_ENV}={v}: expected 1 or 0"));
        }
    }
    (c, warnings)
}

/// In secure-execution mode (a setuid, setgid or capability-raising program): nothing is
/// observed, as glibc keeps `LD_DEBUG` from such a program's caller; the note names the
/// variables that were set.
pub fn secure_note(get: impl Fn(&str) -> Option<String>) -> Option<String> {
    let set: Vec<&str> = VARS.iter().copied().filter(|v| get(v).is_some_and(|x| !no(&x))).collect();
    (!set.is_empty()).then(|| {
        format!(
            "{} ignored: the program runs in secure-execution mode (setuid, setgid or file capabilities); nothing is observed",
            set.join(", ")
        )
    })
}

/// Whether anything is observed: the shims' one branch (they read it as a byte).
pub(crate) static ON: AtomicBool = AtomicBool::new(false);
static CONFIG: OnceLock<Config> = OnceLock::new();

/// Whether observation is on. Read by every shim: one relaxed load of a flag set once at load.
#[inline(always)]
pub fn on() -> bool {
    ON.load(Ordering::Relaxed)
}

/// The configuration (only meaningful when [`on`]).
pub fn config() -> &'static Config {
    CONFIG.get_or_init(Config::default)
}

/// Sets the configuration (once, when the library is loaded).
pub fn set(c: Config) {
    let _ = CONFIG.set(c);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| pairs.iter().find(|p| p.0 == k).map(|p| p.1.to_string())
    }

    #[test]
    fn nothing_set_is_off() {
        let (c, w) = parse(env(&[]));
        assert!(!c.any());
        assert!(w.is_empty());
        let (c, _) = parse(env(&[(TRACE_ENV, "0"), (SUMMARY_ENV, "off"), (CHECKED_ENV, "0")]));
        assert!(!c.any());
    }

    #[test]
    fn values_are_read() {
        let (c, w) = parse(env(&[
            (TRACE_ENV, "1"),
            (SUMMARY_ENV, "/tmp/s-%p.txt"),
            (LEAKS_ENV, "backtrace"),
            (TIMELINE_ENV, "/tmp/t.json,gpu"),
            (CHECKED_ENV, "1"),
        ]));
        assert!(w.is_empty());
        assert_eq!(c.trace.as_deref(), Some("debug"));
        assert_eq!(c.summary, Some(Dest::File(PathBuf::from("/tmp/s-%p.txt"))));
        assert_eq!(resolved(Path::new("/tmp/s-%p.txt")), PathBuf::from(format!("/tmp/s-{}.txt", std::process::id())));
        assert_eq!(c.leaks, Some(Dest::Stderr));
        assert!(c.backtrace);
        assert!(c.timeline);
        assert_eq!(c.timeline_file, Some(PathBuf::from("/tmp/t.json")));
        assert!(c.gpu && c.checked);
        let (c, _) = parse(env(&[(TRACE_ENV, "copy,launch=warn"), (LEAKS_ENV, "1,./leaks.txt")]));
        assert_eq!(c.trace.as_deref(), Some("copy,launch=warn"));
        // Relative paths are made absolute when read.
        assert_eq!(c.leaks, Some(Dest::File(std::env::current_dir().unwrap().join("./leaks.txt"))));
        let (_, w) = parse(env(&[(LEAKS_ENV, "sometimes"), (CHECKED_ENV, "maybe")]));
        assert_eq!(w.len(), 2);
    }

    #[test]
    fn a_record_is_the_default_place() {
        let (c, _) =
            parse(env(&[(RECORD_ENV, "/tmp/r"), (SUMMARY_ENV, "1"), (LEAKS_ENV, "1"), (TIMELINE_ENV, "1,gpu")]));
        assert_eq!(c.record, Some(PathBuf::from("/tmp/r")));
        assert_eq!((c.summary, c.leaks), (Some(Dest::Record), Some(Dest::Record)));
        assert!(c.timeline && c.gpu && c.timeline_file.is_none());
        let (c, _) = parse(env(&[(TIMELINE_ENV, "1")]));
        assert!(c.timeline_file.unwrap().ends_with("cudart-rs-timeline.%p.json"));
        assert!(secure_note(env(&[])).is_none());
        let n = secure_note(env(&[(TRACE_ENV, "1"), (SUMMARY_ENV, "0"), (RECORD_ENV, "/tmp/r")])).unwrap();
        assert!(n.starts_with("CUDART_RS_TRACE, CUDART_RS_RECORD ignored: "), "{n}");
    }
}
