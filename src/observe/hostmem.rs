//! Checked mode's test of host memory: whether the bytes a call will read or write are mapped
//! and accessible, found without touching them (the kernel reads one byte of each page into a
//! buffer of ours with `process_vm_readv` on this process, and for memory to be written puts
//! the same byte back with `process_vm_writev`; a page that is not there is `EFAULT`, not a
//! fault), and whether the extent's row or slice stride wraps around the address space.

/// The page size the probes step by (the smallest a Linux host uses).
const PAGE: usize = 4096;

/// Probes per system call (the kernel's `IOV_MAX`).
const BATCH: usize = 1024;

/// The bytes one side of a call touches: `slices` slices of `rows` rows of `width` bytes, rows
/// `pitch` bytes apart and slices `pitch` x `slice_rows` bytes apart, from `base`. `host`: memory the CPU
/// must be able to reach (else only the strides are checked); `write`: the call writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub name: &'static str,
    pub base: usize,
    pub width: usize,
    pub rows: usize,
    pub pitch: usize,
    pub slices: usize,
    pub slice_rows: usize,
    pub host: bool,
    pub write: bool,
}

impl Region {
    /// One row of `width` bytes.
    pub fn linear(name: &'static str, base: usize, width: usize, host: bool, write: bool) -> Region {
        Region { name, base, width, rows: 1, pitch: width, slices: 1, slice_rows: 1, host, write }
    }
}

/// Why the call must be refused, if it must: a stride that wraps, or host memory that is not
/// mapped (readable, or writable where the call writes it).
pub fn refuse(regions: &[Region]) -> Option<String> {
    regions.iter().find_map(|r| check(r).err())
}

fn check(r: &Region) -> Result<(), String> {
    if r.width == 0 || r.rows == 0 || r.slices == 0 {
        return Ok(());
    }
    let wraps = |what: String| Err(format!("{} = {:#x}: {what} wraps around the address space", r.name, r.base));
    let Some(rows) = (r.rows - 1).checked_mul(r.pitch) else {
        return wraps(format!("a row stride of {} bytes over {} rows", r.pitch, r.rows));
    };
    let slice = if r.slices == 1 { Some(0) } else { r.pitch.checked_mul(r.slice_rows) };
    let Some((slice, slices)) = slice.and_then(|s| Some((s, (r.slices - 1).checked_mul(s)?))) else {
        return wraps(format!("a slice stride of {} x {} bytes over {} slices", r.pitch, r.slice_rows, r.slices));
    };
    let Some(span) = rows.checked_add(slices).and_then(|s| s.checked_add(r.width)) else {
        return wraps(format!("an extent of {} x {} x {} bytes", r.width, r.rows, r.slices));
    };
    if r.base.checked_add(span).is_none() {
        return wraps(format!("a range of {span} bytes"));
    }
    if !r.host {
        return Ok(());
    }
    // Page by page, a batch of probes at a time, up to the first page that is not there (a
    // huge range stops there; only what is mapped is walked).
    let mut batch = Vec::with_capacity(BATCH);
    let mut pages = pages(r, slice).peekable();
    while pages.peek().is_some() {
        batch.clear();
        batch.extend(pages.by_ref().take(BATCH));
        if let Some(bad) = first_bad(&batch, r.write) {
            let how = if r.write { "writable" } else { "readable" };
            return Err(format!(
                "{} = {:#x}: the {span} bytes it spans are not all {how} host memory (nothing {how} at {bad:#x})",
                r.name, r.base
            ));
        }
    }
    Ok(())
}

/// The pages of `[from, from + len)`: one address in each, ascending, each inside the range.
fn range_pages(from: usize, len: usize) -> impl Iterator<Item = usize> {
    let last = from + len - 1;
    std::iter::successors(Some(from), move |&p| (p / PAGE + 1).checked_mul(PAGE).filter(|&n| n <= last))
}

/// One address in each page the region touches, ascending, each inside the region (so that
/// putting back what was read there changes nothing the call does not overwrite); a page two
/// rows in a row share is named once.
fn pages(r: &Region, slice: usize) -> Box<dyn Iterator<Item = usize>> {
    // Rows with less than a page between them touch every page from the first to the last.
    let dense_rows = r.rows == 1 || r.pitch.saturating_sub(r.width) < PAGE;
    let slice_len = (r.rows - 1) * r.pitch + r.width;
    let dense_slices = r.slices == 1 || slice.saturating_sub(slice_len) < PAGE;
    if dense_rows && dense_slices {
        return Box::new(range_pages(r.base, (r.slices - 1) * slice + slice_len));
    }
    let (base, rows, pitch, width) = (r.base, r.rows, r.pitch, r.width);
    let runs: Box<dyn Iterator<Item = (usize, usize)>> = if dense_rows {
        Box::new((0..r.slices).map(move |z| (base + z * slice, slice_len)))
    } else {
        Box::new((0..r.slices).flat_map(move |z| (0..rows).map(move |y| (base + z * slice + y * pitch, width))))
    };
    let mut last_page = usize::MAX;
    Box::new(runs.flat_map(|(s, l)| range_pages(s, l)).filter(move |&p| {
        let new = p / PAGE != last_page;
        last_page = p / PAGE;
        new
    }))
}

/// The first of `addrs` (at most [`BATCH`]) whose byte cannot be read (or, with `write`,
/// written back).
fn first_bad(addrs: &[usize], write: bool) -> Option<usize> {
    let mut buf = [0u8; BATCH];
    let remote: Vec<libc::iovec> =
        addrs.iter().map(|&a| libc::iovec { iov_base: a as *mut libc::c_void, iov_len: 1 }).collect();
    let local = libc::iovec { iov_base: buf.as_mut_ptr().cast(), iov_len: addrs.len() };
    // SAFETY: the kernel reads the remote bytes of this process into `buf`, or reports EFAULT.
    let pid = unsafe { libc::getpid() };
    // SAFETY: as above; `local` covers `addrs.len()` bytes of `buf`.
    let n = unsafe { libc::process_vm_readv(pid, &local, 1, remote.as_ptr(), remote.len() as _, 0) };
    if n < 0 {
        let e = std::io::Error::last_os_error().raw_os_error();
        if e != Some(libc::EFAULT) {
            // No process_vm_readv here (a seccomp filter, an old kernel): the pipe probe.
            return addrs.iter().copied().find(|&a| !super::probe::readable(a, 1));
        }
        return addrs.first().copied();
    }
    if (n as usize) < addrs.len() {
        return Some(addrs[n as usize]);
    }
    if !write {
        return None;
    }
    // SAFETY: writes back into this process exactly the bytes just read from there.
    let n = unsafe { libc::process_vm_writev(pid, &local, 1, remote.as_ptr(), remote.len() as _, 0) };
    match n {
        n if n < 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::EFAULT) => addrs.first().copied(),
        // Cannot tell: readable is taken as enough.
        n if n < 0 => None,
        n if (n as usize) < addrs.len() => Some(addrs[n as usize]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pages: usize) -> usize {
        // SAFETY: a fresh private mapping of our own.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                pages * PAGE,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(p, libc::MAP_FAILED);
        p as usize
    }

    #[test]
    fn mapped_unmapped_read_only() {
        let p = map(3);
        // SAFETY: pages of the mapping above.
        unsafe {
            libc::mprotect((p + PAGE) as *mut libc::c_void, PAGE, libc::PROT_NONE);
            libc::mprotect((p + 2 * PAGE) as *mut libc::c_void, PAGE, libc::PROT_READ);
            *(p as *mut u8) = 7;
        }
        let r = |base, width, write| Region::linear("p", base, width, true, write);
        assert_eq!(refuse(&[r(p, PAGE, true)]), None);
        // SAFETY: still mapped; the probe put back what it read.
        assert_eq!(unsafe { *(p as *const u8) }, 7);
        assert!(refuse(&[r(p + PAGE - 8, 16, false)]).is_some());
        assert_eq!(refuse(&[r(p + 2 * PAGE, 64, false)]), None);
        assert!(refuse(&[r(p + 2 * PAGE, 64, true)]).unwrap().contains("writable"));
        assert!(refuse(&[r(0x1000, 16, false)]).is_some());
        assert!(refuse(&[r(1 << 63, 16, false)]).is_some());
        // Rows a page apart: row 1 in the PROT_NONE page.
        let rows = Region { rows: 2, pitch: PAGE, ..r(p, 16, false) };
        assert!(refuse(&[rows]).is_some());
        assert_eq!(refuse(&[Region { rows: 1, ..rows }]), None);
    }

    #[test]
    fn strides_that_wrap() {
        let rows = Region { rows: 3, pitch: 1 << 63, ..Region::linear("src", 0x1000, 16, false, false) };
        assert!(refuse(&[rows]).unwrap().contains("row stride"));
        let slices = Region {
            slices: usize::MAX,
            pitch: 1 << 32,
            slice_rows: 1 << 32,
            ..Region::linear("dst", 0x1000, 1, false, true)
        };
        assert!(refuse(&[slices]).unwrap().contains("slice stride"));
        assert!(refuse(&[Region::linear("src", usize::MAX - 7, 16, true, false)]).unwrap().contains("wraps"));
        assert_eq!(refuse(&[Region::linear("dst", 0x1000, 0, true, true)]), None);
    }

    #[test]
    fn pages_touched() {
        let r = Region { rows: 3, pitch: 3 * PAGE, ..Region::linear("p", 100, 16, true, false) };
        assert_eq!(pages(&r, 0).collect::<Vec<_>>(), vec![100, 100 + 3 * PAGE, 100 + 6 * PAGE]);
        assert_eq!(pages(&Region::linear("p", PAGE - 1, 2, true, false), 0).collect::<Vec<_>>(), vec![PAGE - 1, PAGE]);
    }
}
