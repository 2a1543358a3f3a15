//! What a process observed by cudart-rs did with the runtime, as figures, shared by the
//! library (which keeps them) and the `cudart-rs` command (which reads and joins them):
//!
//! - [`record`]: the record each process keeps of its figures in a file, as it runs, so that
//!   they outlive it however it ends, and how to read one back;
//! - [`summary`]: the summary made of them (one process's, or several added up);
//! - [`leaks`]: the leak and misuse report;
//! - [`timeline`]: the trace-event lines of the timeline, and how the files of several
//!   processes are joined into one;
//! - [`kinds`]: the kinds of memory and handles, copy directions and memory totals they name;
//! - [`text`]: numbers, plurals and paths as the reports print them.
//!
//! Plain `std`: the library stays one shared object with nothing else to load.

pub mod kinds;
pub mod leaks;
pub mod record;
pub mod summary;
pub mod text;
pub mod timeline;

pub use kinds::{Dir, End, Kind, H};
pub use summary::{Proc, Row, Summary};
