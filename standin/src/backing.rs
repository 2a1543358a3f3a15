//! Host memory the stand-in hands out: one reserved address range that allocations are
//! carved from (never reused), pages of it mapped for an allocation, heap buffers where the
//! range is used up, and what backs each allocation.

use std::alloc::Layout;

/// Alignment of every allocation (the real driver's `cuMemAlloc` gives 512 bytes; we give pages).
pub const ALIGN: usize = 4096;
/// The page size allocations are mapped at.
pub const PAGE: usize = 4096;

/// Memory owned by the stand-in: a raw, aligned host allocation freed on drop.
pub struct Buf {
    pub ptr: *mut u8,
    layout: Layout,
}
// SAFETY: a plain owned allocation; access is synchronised by the state mutex.
unsafe impl Send for Buf {}

impl Buf {
    /// Allocates `size` bytes (at least one), aligned to [`ALIGN`]; `None` when the host has none.
    pub fn new(size: usize, zeroed: bool) -> Option<Buf> {
        let layout = Layout::from_size_align(size.max(1), ALIGN).ok()?;
        // SAFETY: non-zero size layout.
        let ptr = unsafe {
            if zeroed {
                std::alloc::alloc_zeroed(layout)
            } else {
                std::alloc::alloc(layout)
            }
        };
        if ptr.is_null() {
            None
        } else {
            Some(Buf { ptr, layout })
        }
    }
}

impl Drop for Buf {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr, self.layout) }
    }
}

/// The address range every allocation a caller sees (device, managed, pinned host) is carved
/// from: reserved once, handed out front to back and never reused, so a freed or made-up
/// pointer inside it is recognised as invalid instead of being read as host memory.
pub struct Arena {
    pub base: usize,
    pub len: usize,
    next: usize,
}

/// Reserved address space: 1 TiB (less if the system refuses), no memory behind it until used.
const ARENA_SIZES: [usize; 4] = [1 << 40, 1 << 38, 1 << 36, 1 << 34];

impl Arena {
    pub fn reserve() -> Option<Arena> {
        for len in ARENA_SIZES {
            // SAFETY: an anonymous, inaccessible reservation; nothing else refers to it.
            let p = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_NONE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                    -1,
                    0,
                )
            };
            if p != libc::MAP_FAILED {
                return Some(Arena { base: p as usize, len, next: p as usize });
            }
        }
        None
    }

    pub fn contains(&self, addr: usize) -> bool {
        addr >= self.base && addr < self.base + self.len
    }

    /// Maps `size` bytes (page-rounded) at the next free address, a guard page after it.
    pub fn take(&mut self, size: usize) -> Option<Mapped> {
        let len = size.max(1).checked_add(PAGE - 1)? / PAGE * PAGE;
        let end = self.next.checked_add(len)?.checked_add(PAGE)?;
        if end > self.base + self.len {
            return None;
        }
        let addr = self.next;
        // SAFETY: a page-aligned range inside our own reservation.
        let r = unsafe { libc::mprotect(addr as *mut libc::c_void, len, libc::PROT_READ | libc::PROT_WRITE) };
        if r != 0 {
            return None;
        }
        self.next = end;
        Some(Mapped { addr, len })
    }
}

/// Pages of the arena backing one allocation; returned to the system (and made inaccessible)
/// on drop. The addresses are not handed out again.
pub struct Mapped {
    pub addr: usize,
    len: usize,
}

impl Drop for Mapped {
    fn drop(&mut self) {
        // SAFETY: pages of our reservation that nothing refers to any more.
        unsafe {
            libc::madvise(self.addr as *mut libc::c_void, self.len, libc::MADV_DONTNEED);
            libc::mprotect(self.addr as *mut libc::c_void, self.len, libc::PROT_NONE);
        }
    }
}

/// The memory behind an allocation.
pub enum Backing {
    Arena(#[allow(dead_code)] Mapped),
    Heap(#[allow(dead_code)] Buf),
    /// Registered host memory: the caller's.
    None,
}
