//! The runtime core: what every export stands on. The current context and device, the
//! primary contexts and their retention (`rt`), the thread's state (`thread`), the mapping
//! from driver results to runtime errors (`error`), the panic boundary and the last-error
//! rules (`boundary`), what destroyed green contexts leave behind (`green`), the lock-free
//! tables the hot calls read (`lookup`, `kattr`), and the runtime's own export tables
//! (`export_table`).

pub mod boundary;
pub mod error;
pub mod export_table;
pub(crate) mod green;
pub(crate) mod kattr;
pub(crate) mod lookup;
pub mod rt;
pub(crate) mod thread;
