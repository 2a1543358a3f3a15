//! The `tracing` subscriber, installed once when the library is loaded if asked for:
//!
//! - the call trace (`CUDART_RS_TRACE`, see [`crate::observe`]): the events of the call
//!   families' targets (`memory`, `copy`, ...), filtered by that variable's `tracing`
//!   filter, one line each, to stderr or `CUDART_RS_TRACE_FILE`;
//! - the library's own log (`CUDART_RS_LOG`, a filter such as `debug` or
//!   `cudart::api::module=trace`): everything else it logs (driver loading, panics,
//!   internal warnings), to stderr.

use std::fmt;
use std::fs::File;
use std::path::PathBuf;
use std::sync::{MutexGuard, Once};

use tracing::{Event, Subscriber};
use tracing_subscriber::filter::{filter_fn, EnvFilter, FilterExt};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::writer::BoxMakeWriter;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

use super::call::Family;
use super::config::{config, resolved};
use super::lock::Lock;
use super::{clock, files, process};

/// The environment variable with the `tracing` filter for the library's own log.
pub const LOG_ENV: &str = "CUDART_RS_LOG";

static INIT: Once = Once::new();

fn is_call_target(t: &str) -> bool {
    Family::ALL.iter().any(|f| f.target() == t)
}

/// One call-trace line: `cudart-rs[TID] SECONDS FAMILY MESSAGE`.
struct CallLine;

impl<S, N> FormatEvent<S, N> for CallLine
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(&self, ctx: &FmtContext<'_, S, N>, mut w: Writer<'_>, event: &Event<'_>) -> fmt::Result {
        let t = clock::since_start().as_secs_f64();
        write!(w, "cudart-rs[{}] {:>10.6} {:<7} ", process::tid(), t, event.metadata().target())?;
        ctx.field_format().format_fields(w.by_ref(), event)?;
        writeln!(w)
    }
}

/// The call trace's file (`CUDART_RS_TRACE_FILE`): opened at the first line (a process that
/// traces nothing leaves the file as it was), appended to a line at a time (so the lines of
/// several processes sharing it stay whole), never through a symbolic link, into another
/// user's file or into a file that is not a call trace ([`files::open_report`]); stderr when
/// it cannot be used or writing fails (a full disk), said once.
struct TraceFile(PathBuf);

/// The file: not opened yet (`None`), open, or refused (`Some(None)`).
static FILE: Lock<Option<Option<File>>> = Lock::new(None);

struct TraceLine<'a>(&'a TraceFile);

impl std::io::Write for TraceLine<'_> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.write_all(b).map(|_| b.len())
    }
    fn write_all(&mut self, b: &[u8]) -> std::io::Result<()> {
        let path = resolved(&self.0 .0);
        let mut g = FILE.lock();
        let f = g.get_or_insert_with(|| match files::open_report("call trace", &path) {
            Ok(f) => Some(f),
            Err(why) => {
                files::say_once("call trace", &path, &why.0, "it goes to stderr");
                None
            }
        });
        if let Some(file) = f {
            match file.write_all(b) {
                Ok(()) => return Ok(()),
                Err(e) => {
                    files::say_once("call trace", &path, &e.to_string(), "it goes to stderr from here on");
                    *f = None;
                }
            }
        }
        files::say(b);
        Ok(())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for TraceFile {
    type Writer = TraceLine<'a>;
    fn make_writer(&'a self) -> TraceLine<'a> {
        TraceLine(self)
    }
}

/// Standard error, written with `write(2)`: a line each (no lock a forked child could
/// inherit).
struct Stderr;

impl std::io::Write for Stderr {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        files::say(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn stderr() -> Stderr {
    Stderr
}

/// The trace file, held across a fork.
pub struct Held {
    _file: MutexGuard<'static, Option<Option<File>>>,
}

pub fn hold() -> Held {
    Held { _file: FILE.lock() }
}

impl Held {
    /// In the forked child: the file is shared as it was (its lines are appended whole).
    pub fn forked(self) {}
}

/// Installs the subscriber if `CUDART_RS_LOG` or `CUDART_RS_TRACE` asks for one. Called
/// once, off the hot path.
pub fn init() {
    INIT.call_once(|| {
        let log = std::env::var(LOG_ENV).ok();
        let cfg = config();
        if log.is_none() && cfg.trace.is_none() {
            return;
        }
        let calls = cfg.trace.as_ref().map(|filter| {
            let writer = match &cfg.trace_file {
                Some(p) => BoxMakeWriter::new(TraceFile(p.clone())),
                None => BoxMakeWriter::new(stderr),
            };
            let env = EnvFilter::builder().parse_lossy(filter);
            tracing_subscriber::fmt::layer()
                .event_format(CallLine)
                .with_writer(writer)
                .with_filter(env.and(filter_fn(|m| is_call_target(m.target()))))
        });
        let own = log.map(|filter| {
            tracing_subscriber::fmt::layer()
                .with_writer(stderr)
                .with_target(true)
                .with_filter(EnvFilter::builder().parse_lossy(filter).and(filter_fn(|m| !is_call_target(m.target()))))
        });
        let _ = tracing::subscriber::set_global_default(tracing_subscriber::registry().with(calls).with(own));
    });
}
