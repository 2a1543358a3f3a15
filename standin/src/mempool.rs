//! Memory pools as data: a pool's properties, reuse policies and release threshold, what it
//! uses and keeps reserved (in chunks, as the driver reserves), the freed blocks it may hand
//! out again and when it may, and for a pool shareable between processes the memory file its
//! allocations live in.

use std::ffi::c_int;

use crate::backing::Backing;
use crate::ids::SKey;
use crate::types::*;

/// The reservation granularity of a pool (what an H100's driver reserves at a time).
pub const CHUNK: u64 = 32 << 20;

/// `CU_MEM_ALLOCATION_TYPE_PINNED`, `_MANAGED`.
pub const PINNED: c_int = 1;
pub const MANAGED: c_int = 2;
/// `CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR`.
pub const POSIX_FD: c_int = 1;

/// A freed allocation the pool keeps for reuse: where it was freed (a stream and that
/// stream's count of work then), and whether the program has since waited for the free.
pub struct Block {
    pub addr: usize,
    pub size: usize,
    pub mem: Backing,
    pub stream: SKey,
    pub seq: u64,
    pub done: bool,
}

/// The memory file of a pool made with POSIX file descriptor handles: its allocations are
/// mapped from it, so that another process that imports the pool maps the same memory.
pub struct Shm {
    pub fd: c_int,
    pub len: usize,
    /// Where each allocation from it starts in the file.
    pub at: std::collections::HashMap<usize, usize>,
}

pub struct Pool {
    pub props: CUmemPoolProps,
    /// A device's default pool (it cannot be destroyed).
    pub default: bool,
    /// Imported from another process: it only maps what that process exports.
    pub imported: bool,
    pub follow_events: bool,
    pub opportunistic: bool,
    pub internal: bool,
    pub threshold: u64,
    pub used: u64,
    pub used_high: u64,
    pub reserved: u64,
    pub reserved_high: u64,
    pub free: Vec<Block>,
    pub shm: Option<Shm>,
}

impl Pool {
    pub fn new(props: CUmemPoolProps, default: bool) -> Pool {
        Pool {
            props,
            default,
            imported: false,
            follow_events: true,
            opportunistic: true,
            internal: true,
            threshold: 0,
            used: 0,
            used_high: 0,
            reserved: 0,
            reserved_high: 0,
            free: Vec::new(),
            shm: None,
        }
    }

    /// Whole chunks covering what is in use.
    fn floor(&self) -> u64 {
        self.used.div_ceil(CHUNK) * CHUNK
    }

    /// An allocation of `size` bytes handed out.
    pub fn took(&mut self, size: usize) {
        self.used += size as u64;
        self.used_high = self.used_high.max(self.used);
        self.reserved = self.reserved.max(self.floor());
        self.reserved_high = self.reserved_high.max(self.reserved);
    }

    /// An allocation of `size` bytes given back.
    pub fn gave_back(&mut self, size: usize) {
        self.used -= (size as u64).min(self.used);
    }

    /// At a synchronisation: reserved memory beyond the release threshold goes back to the
    /// system (the addresses of freed blocks stay the pool's, to be handed out again).
    pub fn release(&mut self) {
        if self.reserved > self.threshold {
            self.reserved = self.floor().max(self.threshold / CHUNK * CHUNK).min(self.reserved);
        }
    }

    /// `cuMemPoolTrimTo`: keeps at least `keep` bytes (and what is in use) reserved; the freed
    /// blocks are given up.
    pub fn trim(&mut self, keep: u64) {
        self.free.clear();
        self.reserved = self.floor().max(keep.div_ceil(CHUNK).saturating_mul(CHUNK)).min(self.reserved);
    }
}

// SAFETY: the properties' security-attributes pointer is the program's, kept only to be handed
// back; the model's mutex serialises every access.
unsafe impl Send for Pool {}
