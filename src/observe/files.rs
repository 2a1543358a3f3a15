//! Report files, opened safely and shared safely.
//!
//! A report path often lies in a folder others can write to (`/tmp`), and several processes
//! of one command (a wrapper and its program, the ranks of a training job) often name the
//! same path. So a report file is
//!
//! - opened without following a symbolic link (`O_NOFOLLOW`), never truncated, and only if
//!   it is a regular file of this user with one name (a file some other user made, or a
//!   hard link to another file, is left alone);
//! - written whole under an exclusive `flock`, appended to what is there, and only when what
//!   is there is a report of the same kind ([`append_report`]): each process's report is a
//!   block of its own, headed by the process it describes;
//! - created readable by its owner only (0600: reports hold command lines and addresses);
//! - not written at all in secure-execution mode ([`crate::driver::env::secure`]).
//!
//! A path that cannot be used so, and an error while writing (a full disk), is said on
//! stderr, once per report and path ([`say_once`]), and the report goes to stderr instead.
//! Messages are written with `write(2)`, which takes no lock a forked child could inherit.

use std::collections::HashSet;
use std::ffi::CString;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::MutexGuard;

use figures::text::shown;

use super::lock::Lock;

/// Why a report file was not used.
#[derive(Debug)]
pub struct Refused(pub String);

/// Opens `path` for appending a report: created if missing (mode 0600), refused if it is a
/// symbolic link, not a regular file, another user's, or has other names.
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
    let fd = unsafe { libc::open(c.as_ptr(), flags, 0o600 as libc::c_uint) };
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

/// Writes `text` to stderr with `write(2)` (whole, unless stderr is gone).
pub fn say(text: impl AsRef<[u8]>) {
    let mut b = text.as_ref();
    while !b.is_empty() {
        // SAFETY: write(2) of a live buffer.
        let n = unsafe { libc::write(2, b.as_ptr().cast(), b.len()) };
        if n < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
            continue;
        }
        if n <= 0 {
            return;
        }
        b = &b[n as usize..];
    }
}

/// Whether `f` is still the file at `path` (not replaced since it was opened).
pub fn same_file(f: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (f.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

static SAID: Lock<Option<HashSet<(String, PathBuf)>>> = Lock::new(None);

/// Says on stderr, once per report and path in a process, why the report is not written
/// to `path` (`why`) and where it goes (`instead`).
pub fn say_once(what: &str, path: &Path, why: &str, instead: &str) {
    let mut g = SAID.lock();
    if g.get_or_insert_with(HashSet::new).insert((what.to_string(), path.to_path_buf())) {
        drop(g);
        let to = if path.as_os_str().is_empty() { String::new() } else { format!(" to {}", shown(path)) };
        say(format!("cudart-rs: the {what} is not written{to}: {why}; {instead}\n"));
    }
}

/// What a report file of each kind begins with: an existing file is appended to only when
/// it is one.
pub fn begins(what: &str) -> &'static str {
    match what {
        "summary" => "==== cudart-rs summary",
        "summary data" => "process\t",
        "leak report" => figures::leaks::HEAD,
        "call trace" => "cudart-rs[",
        _ => "",
    }
}

/// Opens report file `path` of kind `what` for appending ([`open_append`]), refused when it
/// holds something that is not such a report.
pub fn open_report(what: &str, path: &Path) -> Result<File, Refused> {
    let f = open_append(path)?;
    let want = begins(what).as_bytes();
    let mut head = vec![0u8; want.len()];
    let mut have = 0;
    while have < head.len() {
        match (&f).read(&mut head[have..]) {
            Ok(0) => break,
            Ok(n) => have += n,
            Err(e) => return Err(Refused(e.to_string())),
        }
    }
    if have > 0 && (have < want.len() || head != want) {
        return Err(Refused(format!("it holds something else than a cudart-rs {what}")));
    }
    Ok(f)
}

/// Appends `text` to the report file `path` as one block under the file's lock; when the
/// file cannot be used safely, or writing fails, says why (once) and writes the text to
/// stderr.
pub fn append_report(what: &str, path: &Path, text: &str) {
    let written = open_report(what, path).and_then(|f| {
        let _l = Locked::new(&f);
        (&f).write_all(text.as_bytes()).map_err(|e| Refused(e.to_string()))
    });
    if let Err(why) = written {
        say_once(what, path, &why.0, "it goes to stderr");
        say(text);
    }
}

/// The messages said, held across a fork.
pub struct Held(MutexGuard<'static, Option<HashSet<(String, PathBuf)>>>);

pub fn hold() -> Held {
    Held(SAID.lock())
}

impl Held {
    /// In the forked child: it says what it finds for itself.
    pub fn forked(mut self) {
        *self.0 = None;
    }
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
        std::fs::write(&p, "cudart-rs[1] earlier\n").unwrap();
        append_report("call trace", &p, "cudart-rs[2] one\n");
        append_report("call trace", &p, "cudart-rs[3] two\n");
        assert_eq!(read(&p), "cudart-rs[1] earlier\ncudart-rs[2] one\ncudart-rs[3] two\n");
        std::fs::remove_file(&p).unwrap();
    }

    /// A file `victim` that `link` makes a second name for: a report opened through that name
    /// is refused (the error says `says`), and the file is as it was.
    fn refused_through(victim: &str, name: &str, link: fn(&Path, &Path) -> std::io::Result<()>, says: &str) {
        let (victim, name) = (tmp(victim), tmp(name));
        std::fs::write(&victim, "precious\n").unwrap();
        link(&victim, &name).unwrap();
        let e = open_append(&name).unwrap_err();
        assert!(e.0.contains(says), "{}", e.0);
        assert_eq!(read(&victim), "precious\n");
        std::fs::remove_file(&name).unwrap();
        std::fs::remove_file(&victim).unwrap();
    }

    #[test]
    fn a_symbolic_link_is_not_followed() {
        refused_through("victim", "link", |a, b| std::os::unix::fs::symlink(a, b), "symbolic link");
    }

    #[test]
    fn a_hard_link_and_a_fifo_are_refused() {
        refused_through("hard-a", "hard-b", |a, b| std::fs::hard_link(a, b), "hard links");
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
    fn created_private_and_only_appended_to_a_report_of_its_kind() {
        use std::os::unix::fs::PermissionsExt;
        let p = tmp("kinds");
        append_report("summary", &p, "==== cudart-rs summary (pid 1, a)\n");
        assert_eq!(std::fs::metadata(&p).unwrap().permissions().mode() & 0o777, 0o600);
        append_report("summary", &p, "==== cudart-rs summary (pid 2, b)\n");
        assert_eq!(read(&p).lines().count(), 2);
        std::fs::write(&p, "{\"a\": 1}\n").unwrap();
        assert!(open_report("summary", &p).unwrap_err().0.contains("something else"));
        append_report("summary", &p, "==== cudart-rs summary (pid 3, c)\n");
        assert_eq!(read(&p), "{\"a\": 1}\n");
        std::fs::write(&p, "==").unwrap();
        assert!(open_report("summary", &p).is_err());
        std::fs::remove_file(&p).unwrap();
    }
}
