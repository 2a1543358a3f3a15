//! The `tracing` subscriber, installed once when the library is loaded if asked for:
//!
//! - the call trace (`CUDART_RS_TRACE`, see [`crate::observe`]): the events of the call
//!   families' targets (`memory`, `copy`, ...), filtered by that variable's `tracing`
//!   filter, one line each, to stderr or `CUDART_RS_TRACE_FILE`;
//! - the library's own log (`CUDART_RS_LOG`, a filter such as `debug` or
//!   `cudart::api::module=trace`): everything else it logs (driver loading, panics,
//!   internal warnings), to stderr.

use std::fmt;
use std::sync::Once;

use tracing::{Event, Subscriber};
use tracing_subscriber::filter::{filter_fn, EnvFilter, FilterExt};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::writer::BoxMakeWriter;
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::Layer;

use crate::observe::Family;

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
        let t = crate::observe::start().elapsed().as_secs_f64();
        write!(w, "cudart-rs[{}] {:>10.6} {:<7} ", crate::observe::tid(), t, event.metadata().target())?;
        ctx.field_format().format_fields(w.by_ref(), event)?;
        writeln!(w)
    }
}

/// Installs the subscriber if `CUDART_RS_LOG` or `CUDART_RS_TRACE` asks for one. Called
/// once, off the hot path.
pub fn init() {
    INIT.call_once(|| {
        let log = std::env::var(LOG_ENV).ok();
        let cfg = crate::observe::config();
        if log.is_none() && cfg.trace.is_none() {
            return;
        }
        let calls = cfg.trace.as_ref().map(|filter| {
            let writer = match &cfg.trace_file {
                Some(p) => match std::fs::File::create(p) {
                    Ok(f) => BoxMakeWriter::new(std::sync::Mutex::new(f)),
                    Err(e) => {
                        eprintln!("cudart-rs: cannot write the call trace to {}: {e}; using stderr", p.display());
                        BoxMakeWriter::new(std::io::stderr)
                    }
                },
                None => BoxMakeWriter::new(std::io::stderr),
            };
            let env = EnvFilter::builder().parse_lossy(filter);
            tracing_subscriber::fmt::layer()
                .event_format(CallLine)
                .with_writer(writer)
                .with_filter(env.and(filter_fn(|m| is_call_target(m.target()))))
        });
        let own = log.map(|filter| {
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_target(true)
                .with_filter(EnvFilter::builder().parse_lossy(filter).and(filter_fn(|m| !is_call_target(m.target()))))
        });
        let _ = tracing::subscriber::set_global_default(tracing_subscriber::registry().with(calls).with(own));
    });
}
