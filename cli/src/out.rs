//! Where the command writes, claimed when it starts (paths made absolute then: the program
//! may change its folder): the output folder (`-o DIR`) and the timeline (`--timeline
//! FILE`). What exists is refused: a folder that is not empty, a file, a symbolic link;
//! `--force-overwrite` replaces this command's own file names only, a link itself and never
//! what it points to. Files are made new (`O_EXCL`, never through a link), readable by their
//! owner only: reports hold command lines and addresses.

use std::ffi::{CString, OsString};
use std::fs::File;
use std::io::Write;
use std::os::fd::FromRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

use figures::text::shown;

/// The report files this command writes in its output folder (and the folder of the
/// processes' records).
pub const FILES: [&str; 4] = ["summary.txt", "summary.tsv", "leaks.txt", "trace.txt"];
pub const RECORDS: &str = "records";

/// A path made absolute against the current folder.
pub fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir().map(|d| d.join(p)).unwrap_or_else(|_| p.to_path_buf())
    }
}

fn me() -> u32 {
    // SAFETY: plain system call.
    unsafe { libc::geteuid() }
}

/// Makes folder `d`, readable by its owner only.
pub fn make_dir(d: &Path) -> Result<(), String> {
    std::fs::DirBuilder::new().mode(0o700).create(d).map_err(|e| format!("cannot make {}: {e}", shown(d)))
}

/// Claims `-o DIR`: made if missing; an empty folder of this user is taken; anything else is
/// refused, but with `force` a folder of this user whose own reports are replaced (a
/// symbolic link there is removed, not followed), and a link in DIR's place is replaced by
/// a folder. Returns the folder, absolute.
pub fn claim_dir(asked: &Path, force: bool) -> Result<PathBuf, String> {
    let d = absolute(asked);
    let again = "; --force-overwrite replaces this command's reports there";
    match std::fs::symlink_metadata(&d) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("cannot use {}: {e}", shown(&d))),
        Ok(m) if m.file_type().is_symlink() => {
            if !force {
                return Err(format!("{} is a symbolic link (not followed){again}", shown(&d)));
            }
            std::fs::remove_file(&d).map_err(|e| format!("cannot remove the link {}: {e}", shown(&d)))?;
        }
        Ok(m) if m.is_dir() => {
            if m.uid() != me() {
                return Err(format!("{} belongs to another user (uid {})", shown(&d), m.uid()));
            }
            let mut entries = std::fs::read_dir(&d).map_err(|e| format!("cannot read {}: {e}", shown(&d)))?;
            if entries.next().is_none() {
                return Ok(d);
            }
            if !force {
                return Err(format!("{} is not empty{again} ({}, {RECORDS}/)", shown(&d), FILES.join(", ")));
            }
            remove_own(&d)?;
            return Ok(d);
        }
        Ok(_) => return Err(format!("{} is a file, not a folder", shown(&d))),
    }
    make_dir(&d)?;
    Ok(d)
}

/// Removes this command's reports from `d` (with `--force-overwrite`): its file names, each
/// unlinked as it is (a link is not followed), and the records' folder with the records in
/// it.
fn remove_own(d: &Path) -> Result<(), String> {
    for f in FILES {
        let p = d.join(f);
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.is_dir() => return Err(format!("{} is a folder", shown(&p))),
            Ok(_) => std::fs::remove_file(&p).map_err(|e| format!("cannot replace {}: {e}", shown(&p)))?,
            Err(_) => {}
        }
    }
    let r = d.join(RECORDS);
    match std::fs::symlink_metadata(&r) {
        Ok(m) if m.is_dir() => {
            for e in std::fs::read_dir(&r).map_err(|e| format!("cannot read {}: {e}", shown(&r)))?.flatten() {
                let n = e.file_name();
                let n = n.to_string_lossy();
                if n.ends_with(".rec") || n.ends_with(".json") {
                    std::fs::remove_file(e.path()).map_err(|x| format!("cannot replace {}: {x}", shown(&e.path())))?;
                }
            }
            std::fs::remove_dir(&r).map_err(|e| format!("cannot replace {}: {e}", shown(&r)))?;
        }
        Ok(_) => std::fs::remove_file(&r).map_err(|e| format!("cannot replace {}: {e}", shown(&r)))?,
        Err(_) => {}
    }
    Ok(())
}

/// Makes file `p`, new (`O_EXCL`, not through a link), mode 0600.
pub fn create_new(p: &Path) -> std::io::Result<File> {
    let c = CString::new(p.as_os_str().as_bytes())?;
    // SAFETY: a NUL-terminated path; the descriptor is owned by the File.
    let fd = unsafe {
        libc::open(
            c.as_ptr(),
            libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC,
            0o600 as libc::c_uint,
        )
    };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: just opened.
    Ok(unsafe { File::from_raw_fd(fd) })
}

/// Claims `--timeline FILE`: a new file holding an empty array until the timeline replaces
/// it; an existing one is refused, but with `force` a file or link there is removed (not
/// followed). A folder is refused.
pub fn claim_file(asked: &Path, force: bool) -> Result<PathBuf, String> {
    let f = absolute(asked);
    match std::fs::symlink_metadata(&f) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(format!("cannot use {}: {e}", shown(&f))),
        Ok(m) if m.is_dir() => return Err(format!("{} is a folder", shown(&f))),
        Ok(m) => {
            if !force {
                let what = if m.file_type().is_symlink() { "is a symbolic link (not followed)" } else { "exists" };
                return Err(format!("{} {what}; --force-overwrite replaces it", shown(&f)));
            }
            std::fs::remove_file(&f).map_err(|e| format!("cannot replace {}: {e}", shown(&f)))?;
        }
    }
    let mut file = create_new(&f).map_err(|e| format!("cannot make {}: {e}", shown(&f)))?;
    file.write_all(b"[]\n").map_err(|e| format!("cannot write {}: {e}", shown(&f)))?;
    Ok(f)
}

/// Writes `file` (claimed, or in a folder claimed) whole: to a new file beside it, renamed
/// over it, so that it is never seen half written (a link put there meanwhile is replaced,
/// not followed).
pub fn replace(file: &Path, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), String> {
    let mut tmp: OsString = file.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let f = create_new(&tmp).map_err(|e| format!("cannot write {}: {e}", shown(&tmp)))?;
    let mut w = std::io::BufWriter::new(f);
    let done = write(&mut w).and_then(|_| w.flush()).and_then(|_| std::fs::rename(&tmp, file));
    if let Err(e) = done {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("cannot write {}: {e}", shown(file)));
    }
    Ok(())
}

/// Writes a new file `p` in a folder this command claimed (refused, not replaced, if
/// something was put there meanwhile).
pub fn write_new(p: &Path, text: &str) -> Result<(), String> {
    let mut f = create_new(p).map_err(|e| format!("cannot write {}: {e}", shown(p)))?;
    f.write_all(text.as_bytes()).map_err(|e| format!("cannot write {}: {e}", shown(p)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("cudart-rs-out-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir(&d).unwrap();
        d
    }

    #[test]
    fn folders_are_refused_unless_forced_and_then_only_ours_go() {
        let s = scratch("dir");
        let d = s.join("out");
        assert_eq!(claim_dir(&d, false).unwrap(), d);
        assert!(claim_dir(&d, false).is_ok(), "an empty folder is taken");
        std::fs::write(d.join("summary.txt"), "old").unwrap();
        std::fs::write(d.join("mine.txt"), "keep").unwrap();
        let victim = s.join("victim");
        std::fs::write(&victim, "precious").unwrap();
        std::os::unix::fs::symlink(&victim, d.join("leaks.txt")).unwrap();
        let e = claim_dir(&d, false).unwrap_err();
        assert!(e.contains("is not empty") && e.contains("--force-overwrite"), "{e}");
        assert_eq!(std::fs::read_to_string(d.join("summary.txt")).unwrap(), "old");
        claim_dir(&d, true).unwrap();
        assert!(!d.join("summary.txt").exists() && std::fs::symlink_metadata(d.join("leaks.txt")).is_err());
        assert_eq!(std::fs::read_to_string(d.join("mine.txt")).unwrap(), "keep");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        // A link in the folder's place.
        let l = s.join("link");
        std::os::unix::fs::symlink(&d, &l).unwrap();
        assert!(claim_dir(&l, false).unwrap_err().contains("symbolic link"));
        assert!(claim_dir(&s.join("victim"), true).unwrap_err().contains("a file, not a folder"));
        std::fs::remove_dir_all(&s).unwrap();
    }

    #[test]
    fn files_are_refused_unless_forced_and_made_private() {
        let s = scratch("file");
        let f = s.join("t.json");
        claim_file(&f, false).unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "[]\n");
        assert_eq!(std::fs::metadata(&f).unwrap().mode() & 0o777, 0o600);
        assert!(claim_file(&f, false).unwrap_err().contains("exists"));
        let victim = s.join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let l = s.join("l.json");
        std::os::unix::fs::symlink(&victim, &l).unwrap();
        assert!(claim_file(&l, false).unwrap_err().contains("symbolic link"));
        claim_file(&l, true).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(!std::fs::symlink_metadata(&l).unwrap().file_type().is_symlink());
        replace(&f, |w: &mut dyn Write| w.write_all(b"[\n]\n")).unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "[\n]\n");
        let e = claim_file(Path::new(&format!("{}/a\nb", s.display())), false);
        assert!(e.is_ok());
        assert!(claim_file(Path::new(&format!("{}/a\nb", s.display())), false).unwrap_err().contains("a\\nb"));
        std::fs::remove_dir_all(&s).unwrap();
    }
}
