//! Call tracing through `tracing`. Off unless `CUDART_RS_LOG` is set (an `EnvFilter`
//! directive such as `cudart=trace` or `debug`); read once, when the driver is loaded.

use std::sync::Once;

/// The environment variable with the `tracing` filter for the library's own log.
pub const LOG_ENV: &str = "CUDART_RS_LOG";

static INIT: Once = Once::new();

/// Installs the log subscriber if `CUDART_RS_LOG` asks for one. Called once, off the hot path.
pub fn init() {
    INIT.call_once(|| {
        let Ok(filter) = std::env::var(LOG_ENV) else { return };
        let filter = tracing_subscriber::EnvFilter::new(filter);
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_target(false)
            .try_init();
    });
}
