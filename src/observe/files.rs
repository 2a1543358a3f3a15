//! Report files, opened safely and shared safely.
//!
//! A report path often lies in a folder others can write to (`/tmp`), and several processes
//! of one command (a wrapper and its program, the ranks of a training job) often name the
//! same path. So a report file is
//!
//! - opened without following a symbolic link (`O_NOFOLLOW`), never truncated, and only if
//!   it is a regular file of this user with one name (a file some other user made, or a
//!   hard link to another file, is left alone);
//! - written whole under an exclusive `flock`, appended to what is there: each process's
//!   report is a block of its own, headed by the process it describes (the timeline is kept
//!   one valid JSON array, see [`append_json_events`]);
//! - not written at all in secure-execution mode ([`crate::driver::env::secure`]).
//!
//! A path that cannot be used so is reported on stderr, once per path, and the report goes
//! to stderr instead (the timeline to a file of this process's own, created anew).

use std::collections::HashSet;
use std::ffi::CString;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use parking_lot::Mutex;

/// Why a report file was not used.
#[derive(Debug)]
pub struct Refused(pub String);

/// Opens `path` for appending a report: created if missing (mode 0644 less the umask),
/// refused if it is a symbolic link, not a regular file, another user's, or has other names.
pub fn open_append(path: &Path) -> Result<File, Refused> {
    open_flags(path, libc::O_CREAT)
}

/// Creates `path`, which must not exist yet (`O_EXCL`).
pub fn create_new(path: &Path) -> Result<File, Refused> {
    open_flags(path, libc::O_CREAT | libc::O_EXCL)
}

fn open_flags(path: &Path, extra: libc::c_int) -> Result<File, Refused> {
    if crate::driver::env::secure() {
        return Err(Refused("the program runs in secure-execution mode (setuid, setgid or file capabilities): no report file is written".into()));
    }
    let c = CString::new(path.as_os_str().as_bytes()).map_err(|_| Refused("the path has a NUL byte".into()))?;
    let flags =
        libc::O_RDWR | libc::O_APPEND | libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NOCTTY | libc::O_NONBLOCK | extra;
    // SAFETY: a NUL-terminated path; the descriptor is owned by the File made of it.
    let fd = unsafe { libc::open(c.as_ptr(), flags, 0o644 as libc::c_uint) };
    if fd < 0 {
        let e = std::io::Error::last_os_error();
        return Err(Refused(match e.raw_os_error() {
            Some(libc::ELOOP) => "it is a symbolic link (not followed)".to_string(),
            Some(libc::EEXIST) => "it exists already".to_string(),
            _ => e.to_string(),
        }));
    }
    // SAFETY: a descriptor just opened, owned from here on.
    let f = unsafe { File::from_raw_fd(fd) };
    // SAFETY: fstat of an open descriptor into a zeroed struct.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd, &mut st) } != 0 {
        return Err(Refused(std::io::Error::last_os_error().to_string()));
    }
    if st.st_mode & libc::S_IFMT != libc::S_IFREG {
        return Err(Refused("it is not a regular file".into()));
    }
    // SAFETY: plain system call.
    if st.st_uid != unsafe { libc::geteuid() } {
        return Err(Refused(format!("it belongs to another user (uid {})", st.st_uid)));
    }
    if st.st_nlink > 1 {
        return Err(Refused("it has other names (hard links)".into()));
    }
    // Blocking writes from here (O_NONBLOCK only kept a FIFO from blocking the open).
    // SAFETY: fcntl on an open descriptor.
    unsafe { libc::fcntl(fd, libc::F_SETFL, libc::O_APPEND) };
    Ok(f)
}

/// An exclusive `flock` on a file, released when dropped.
pub struct Locked<'a>(pub &'a File);

impl<'a> Locked<'a> {
    pub fn new(f: &'a File) -> Locked<'a> {
        // SAFETY: flock on an open descriptor (retried when a signal interrupts it).
        while unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) } != 0 {
            if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                break;
            }
        }
        Locked(f)
    }
}

impl Drop for Locked<'_> {
    fn drop(&mut self) {
        // SAFETY: flock on an open descriptor.
        unsafe { libc::flock(self.0.as_raw_fd(), libc::LOCK_UN) };
    }
}

/// Says on stderr, once per path and process, why a report file was not used.
pub fn refused_once(what: &str, path: &Path, why: &Refused, instead: &str) {
    static SAID: Mutex<Option<HashSet<(String, std::path::PathBuf)>>> = Mutex::new(None);
    let mut g = SAID.lock();
    if g.get_or_insert_with(HashSet::new).insert((what.to_string(), path.to_path_buf())) {
        eprintln!("cudart-rs: the {what} is not written to {}: {}; {instead}", path.display(), why.0);
    }
}

/// Appends `text` to the report file `path` as one block under the file's lock; when the
/// file cannot be used safely, says why (once) and writes the text to stderr.
pub fn append_report(what: &str, path: &Path, text: &str) {
    let written = open_append(path).and_then(|f| {
        let _l = Locked::new(&f);
        (&f).write_all(text.as_bytes()).map_err(|e| Refused(e.to_string()))
    });
    if let Err(why) = written {
        refused_once(what, path, &why, "it goes to stderr");
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }
}

/// Appends trace events (`{...}` objects joined by `,\n`) to a JSON array file under its
/// lock, leaving the file one valid array: an empty file gets `[`, events and `]`; a file
/// whose array is closed has its `]` replaced by the new events and a new `]`; a file that
/// a killed process left unclosed is continued and closed. Returns false, writing nothing,
/// when the file's end is not such an array's.
pub fn append_json_events(f: &File, events: &[u8]) -> std::io::Result<bool> {
    let _l = Locked::new(f);
    let mut file = f;
    let len = file.seek(SeekFrom::End(0))?;
    let mut lead: &[u8] = b"[\n";
    if len > 0 {
        let n = len.min(64);
        let mut tail = vec![0u8; n as usize];
        file.seek(SeekFrom::Start(len - n))?;
        file.read_exact(&mut tail)?;
        let end = tail.iter().rposition(|b| !b.is_ascii_whitespace());
        let Some(i) = end else {
            // Only whitespace: start the array.
            return write_events(file, b"[\n", events);
        };
        match tail[i] {
            b']' => {
                // Closed: cut the `]` (and the whitespace before it) and go on.
                let cut = tail[..i].iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |j| j + 1);
                f.set_len(len - n + cut as u64)?;
                lead = if tail[..cut].last() == Some(&b'[') { b"\n" } else { b",\n" };
            }
            b'}' => lead = b",\n",
            b',' | b'[' => lead = b"\n",
            _ => return Ok(false),
        }
    }
    write_events(file, lead, events)
}

fn write_events(mut file: &File, lead: &[u8], events: &[u8]) -> std::io::Result<bool> {
    let mut b = Vec::with_capacity(lead.len() + events.len() + 3);
    b.extend_from_slice(lead);
    b.extend_from_slice(events);
    b.extend_from_slice(b"\n]\n");
    file.write_all(&b)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("cudart-rs-files-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&d);
        d
    }

    fn read(p: &Path) -> String {
        let mut s = String::new();
        File::open(p).unwrap().read_to_string(&mut s).unwrap();
        s
    }

    #[test]
    fn appends_and_never_truncates() {
        let p = tmp("append");
        std::fs::write(&p, "earlier\n").unwrap();
        append_report("summary", &p, "one\n");
        append_report("summary", &p, "two\n");
        assert_eq!(read(&p), "earlier\none\ntwo\n");
        std::fs::remove_file(&p).unwrap();
    }

    #[test]
    fn a_symbolic_link_is_not_followed() {
        let victim = tmp("victim");
        let link = tmp("link");
        std::fs::write(&victim, "precious\n").unwrap();
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let e = open_append(&link).unwrap_err();
        assert!(e.0.contains("symbolic link"), "{}", e.0);
        assert_eq!(read(&victim), "precious\n");
        std::fs::remove_file(&link).unwrap();
        std::fs::remove_file(&victim).unwrap();
    }

    #[test]
    fn a_hard_link_and_a_fifo_are_refused() {
        let a = tmp("hard-a");
        let b = tmp("hard-b");
        std::fs::write(&a, "x").unwrap();
        std::fs::hard_link(&a, &b).unwrap();
        assert!(open_append(&b).unwrap_err().0.contains("hard links"));
        std::fs::remove_file(&a).unwrap();
        std::fs::remove_file(&b).unwrap();
        let f = tmp("fifo");
        let c = CString::new(f.as_os_str().as_bytes()).unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(open_append(&f).unwrap_err().0.contains("not a regular file"));
        std::fs::remove_file(&f).unwrap();
    }

    #[test]
    fn create_new_refuses_an_existing_file() {
        let p = tmp("new");
        assert!(create_new(&p).is_ok());
        assert!(create_new(&p).unwrap_err().0.contains("exists"));
        std::fs::remove_file(&p).unwrap();
    }

    #[test]
    fn json_events_keep_one_valid_array() {
        let p = tmp("json");
        let f = open_append(&p).unwrap();
        assert!(append_json_events(&f, b"{\"a\":1}").unwrap());
        assert_eq!(read(&p), "[\n{\"a\":1}\n]\n");
        assert!(append_json_events(&f, b"{\"b\":2},\n{\"c\":3}").unwrap());
        assert_eq!(read(&p), "[\n{\"a\":1},\n{\"b\":2},\n{\"c\":3}\n]\n");
        // What a process killed half-way leaves: continued and closed.
        std::fs::write(&p, "[\n{\"a\":1},\n").unwrap();
        assert!(append_json_events(&f, b"{\"d\":4}").unwrap());
        assert_eq!(read(&p), "[\n{\"a\":1},\n\n{\"d\":4}\n]\n");
        std::fs::write(&p, "[\n{\"a\":1}").unwrap();
        assert!(append_json_events(&f, b"{\"e\":5}").unwrap());
        assert_eq!(read(&p), "[\n{\"a\":1},\n{\"e\":5}\n]\n");
        std::fs::write(&p, "[\n]\n").unwrap();
        assert!(append_json_events(&f, b"{\"f\":6}").unwrap());
        assert_eq!(read(&p), "[\n{\"f\":6}\n]\n");
        // Not an array's end: left alone.
        std::fs::write(&p, "hello").unwrap();
        assert!(!append_json_events(&f, b"{\"g\":7}").unwrap());
        assert_eq!(read(&p), "hello");
        std::fs::remove_file(&p).unwrap();
    }
}
