//! Memory pools and stream-ordered allocation: each device's default pool and the pools of
//! host memory and managed memory by location, the current pool of each, created pools and
//! their properties, attributes (reuse policies, release threshold, the used and reserved
//! counters), access, trimming; `cuMemAllocAsync`, `cuMemAllocFromPoolAsync` and
//! `cuMemFreeAsync` (in stream order: freed blocks are handed out again where the pool's reuse
//! rules allow; on a capturing stream, allocation and free nodes of the capture); pools with
//! POSIX file descriptor handles, whose allocations live in a memory file another process can
//! import, with the pointers exported from it. Batched copies and prefetches are not modelled
//! (`CUDA_ERROR_NOT_SUPPORTED`).

use std::ffi::{c_int, c_void};

use crate::backing::{Backing, PAGE};
use crate::dag::Params;
use crate::mempool::*;
use crate::state::*;
use crate::types::*;
use crate::{export, export_pt, nonnull};

const INVAL: CUresult = CUDA_ERROR_INVALID_VALUE;
const DEVICE: c_int = CU_MEM_LOCATION_TYPE_DEVICE;
const HOST: c_int = CU_MEM_LOCATION_TYPE_HOST;
const HOST_NUMA: c_int = CU_MEM_LOCATION_TYPE_HOST_NUMA;
/// `CU_MEM_ACCESS_FLAGS_PROT_NONE`, `_READ`, `_READWRITE`.
const PROT_NONE: c_int = 0;
const PROT_READ: c_int = 1;
const PROT_READWRITE: c_int = 3;
/// What an exported pointer's data starts with.
const EXPORT_MAGIC: u64 = 0x7374_616e_6469_6e31;

/// The batch entry points the runtime resolves: not modelled.
const ENTRY_POINTS: &[&str] = &[
    "cuMemcpyBatchAsync",
    "cuMemcpy3DBatchAsync",
    "cuMemPrefetchBatchAsync",
    "cuMemDiscardBatchAsync",
    "cuMemDiscardAndPrefetchBatchAsync",
];

/// Whether `name` is one of [`ENTRY_POINTS`] (answered by `crate::unsupported`).
pub(crate) fn is_entry(name: &str) -> bool {
    ENTRY_POINTS.contains(&name)
}

/// Pool properties for a location and allocation type, no handle types.
fn props(loc: CUmemLocation, alloc: c_int) -> CUmemPoolProps {
    CUmemPoolProps {
        allocType: alloc,
        handleTypes: 0,
        location: loc,
        win32SecurityAttributes: std::ptr::null_mut(),
        maxSize: 0,
        usage: 0,
        reserved: [0; 54],
    }
}

impl State {
    /// The key of a location and allocation type's pools, as `cuMemGetDefaultMemPool`
    /// checks them.
    fn pool_key(&self, loc: &CUmemLocation, alloc: c_int) -> Res<(c_int, c_int, c_int)> {
        if !matches!(alloc, PINNED | MANAGED) {
            return Err(INVAL);
        }
        match loc.type_ {
            DEVICE if loc.id >= 0 && loc.id < self.ndev => Ok((DEVICE, loc.id, alloc)),
            DEVICE => Err(INVAL),
            HOST => Ok((HOST, 0, alloc)),
            HOST_NUMA if loc.id == 0 => Ok((HOST_NUMA, 0, alloc)),
            HOST_NUMA => Err(INVAL),
            // No location: managed memory only.
            CU_MEM_LOCATION_TYPE_INVALID if alloc == MANAGED => Ok((0, 0, alloc)),
            CU_MEM_LOCATION_TYPE_INVALID => Err(INVAL),
            _ => Err(CUDA_ERROR_NOT_SUPPORTED),
        }
    }

    /// The default pool of a key, made on first use.
    fn default_pool(&mut self, key: (c_int, c_int, c_int)) -> usize {
        if let Some(&p) = self.default_pools.get(&key) {
            return p;
        }
        let h = new_handle();
        let loc = CUmemLocation { type_: key.0, id: key.1 };
        self.pools.insert(h, Pool::new(props(loc, key.2), true));
        self.default_pools.insert(key, h);
        h
    }

    fn current_pool(&mut self, key: (c_int, c_int, c_int)) -> usize {
        match self.current_pools.get(&key) {
            Some(&p) => p,
            None => self.default_pool(key),
        }
    }

    fn pool(&self, h: usize) -> Res<&Pool> {
        self.pools.get(&h).ok_or(INVAL)
    }

    /// The key pool `h` serves.
    fn key_of(&self, h: usize) -> Res<(c_int, c_int, c_int)> {
        let p = self.pool(h)?;
        self.pool_key(&p.props.location, p.props.allocType)
    }

    /// Whether freed block `b` of pool `p` may be handed to an allocation on stream `k`.
    fn reusable(&self, p: &Pool, b: &Block, k: SKey) -> bool {
        let waited = self.waited.get(&k).and_then(|w| w.get(&b.stream)).is_some_and(|&s| s >= b.seq);
        // The stand-in's frees are done when made: opportunistic reuse always finds them so.
        b.done || b.stream == k || p.opportunistic || p.internal || (p.follow_events && waited)
    }

    /// `size` bytes from pool `h` for work on stream `k`.
    fn pool_alloc(&mut self, h: usize, size: usize, k: SKey) -> Res<usize> {
        let p = self.pool(h)?;
        if p.imported {
            return Err(INVAL);
        }
        let (loc, alloc) = (p.props.location, p.props.allocType);
        let kind = match (alloc, loc.type_) {
            (MANAGED, _) => Kind::Managed,
            (_, DEVICE) => Kind::Device,
            _ => Kind::PoolHost,
        };
        let dev = if loc.type_ == DEVICE { loc.id } else { self.cur()? };
        let room = if kind == Kind::Device {
            TOTAL_MEM - self.used[dev as usize]
        } else {
            HOST_LIMIT.saturating_sub(self.host_used)
        };
        if size > room {
            return Err(CUDA_ERROR_OUT_OF_MEMORY);
        }
        let reuse = {
            let p = &self.pools[&h];
            p.free
                .iter()
                .enumerate()
                .filter(|(_, b)| b.size >= size && self.reusable(p, b, k))
                .min_by_key(|(_, b)| b.size)
                .map(|(i, _)| i)
        };
        let (addr, mem) = match reuse {
            Some(i) => {
                let b = self.pools.get_mut(&h).expect("checked").free.remove(i);
                (b.addr, b.mem)
            }
            None if self.pools[&h].shm.is_some() => self.shm_alloc(h, size)?,
            None => self.backing(size).ok_or(CUDA_ERROR_OUT_OF_MEMORY)?,
        };
        let buffer_id = self.buffer_id();
        self.allocs.insert(
            addr,
            Alloc { size, kind, flags: 0, dev, mem, buffer_id, sync_memops: false, pages: None, pool: h },
        );
        if kind == Kind::Device {
            self.used[dev as usize] += size;
        } else {
            self.host_used += size;
        }
        self.pools.get_mut(&h).expect("checked").took(size);
        Ok(addr)
    }

    /// Memory for a pool with a memory file: pages of the file mapped at a fresh address.
    fn shm_alloc(&mut self, h: usize, size: usize) -> Res<(usize, Backing)> {
        let len = size.div_ceil(PAGE) * PAGE;
        let shm = self.pools.get_mut(&h).and_then(|p| p.shm.as_mut()).ok_or(INVAL)?;
        let (fd, off) = (shm.fd, shm.len);
        // SAFETY: our own memory file, grown to hold the new pages.
        if unsafe { libc::ftruncate(fd, (off + len) as libc::off_t) } != 0 {
            return Err(CUDA_ERROR_OUT_OF_MEMORY);
        }
        shm.len += len;
        let (addr, mem) = self.map_file(fd, off, len)?;
        self.pools.get_mut(&h).and_then(|p| p.shm.as_mut()).expect("checked").at.insert(addr, off);
        Ok((addr, mem))
    }

    /// `len` bytes of memory file `fd` from `off`, mapped at a fresh address of the arena.
    fn map_file(&mut self, fd: c_int, off: usize, len: usize) -> Res<(usize, Backing)> {
        let (addr, mem) = self.backing(len).ok_or(CUDA_ERROR_OUT_OF_MEMORY)?;
        // SAFETY: pages of our own reservation, replaced by the file's.
        let p = unsafe {
            libc::mmap(
                addr as *mut c_void,
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_FIXED,
                fd,
                off as libc::off_t,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(CUDA_ERROR_OUT_OF_MEMORY);
        }
        Ok((addr, mem))
    }

    /// Where in its pool's memory file the allocation at `addr` lives: (offset, size).
    fn shm_offset(&self, addr: usize) -> Option<(usize, usize)> {
        let a = self.allocs.get(&addr)?;
        let off = *self.pools.get(&a.pool)?.shm.as_ref()?.at.get(&addr)?;
        Some((off, a.size))
    }

    /// Allocates `size` bytes on stream `k` from pool `h` (`None`: the device's current pool).
    fn alloc_async(&mut self, out: *mut CUdeviceptr, size: usize, pool: Option<usize>, k: SKey) -> Res {
        nonnull(out)?;
        let h = match pool {
            Some(h) => h,
            None => {
                let dev = self.cur()?;
                self.current_pool((DEVICE, dev, PINNED))
            }
        };
        self.pool(h)?;
        match self.gate(k)? {
            None => {
                let p = self.pool_alloc(h, size, k)?;
                // SAFETY: checked above.
                unsafe { *out = p as CUdeviceptr };
            }
            // In a capture: an allocation node of the capture's graph.
            Some(id) => {
                let pp = self.pools[&h].props;
                let mut a: CUDA_MEM_ALLOC_NODE_PARAMS = unsafe { std::mem::zeroed() };
                a.poolProps = pp;
                a.bytesize = size;
                let (a, d) = match unsafe { self.graph_alloc(&a) } {
                    Ok(x) => x,
                    Err(e) => return Err(self.failed_in(Some(id), e)),
                };
                self.capture_node(k, Params::Alloc(a, d));
                // SAFETY: checked above.
                unsafe { *out = a.dptr };
            }
        }
        Ok(())
    }

    /// An allocation node's memory (for a capture): as `cuGraphAddMemAllocNode` makes it.
    unsafe fn graph_alloc(
        &mut self,
        a: &CUDA_MEM_ALLOC_NODE_PARAMS,
    ) -> Res<(CUDA_MEM_ALLOC_NODE_PARAMS, Vec<CUmemAccessDesc>)> {
        let mut a = *a;
        a.poolProps.handleTypes = 0;
        if a.poolProps.location.type_ != DEVICE {
            a.poolProps.location = CUmemLocation { type_: DEVICE, id: self.cur()? };
        }
        self.alloc_node(&a)
    }

    fn free_async(&mut self, p: usize, k: SKey) -> Res {
        if p == 0 {
            return Ok(());
        }
        match self.gate(k)? {
            None => self.free_on(p, &[Kind::Device, Kind::Managed, Kind::PoolHost], Some(k)),
            // In a capture: a free node of the capture's graph.
            Some(id) => {
                if !self.allocs.contains_key(&p) {
                    return Err(self.failed_in(Some(id), INVAL));
                }
                self.capture_node(k, Params::Free(p));
                Ok(())
            }
        }
    }
}

/// A memory file for a pool shareable by POSIX file descriptor.
fn memory_file() -> Res<Shm> {
    // SAFETY: a NUL-terminated name.
    let fd = unsafe { libc::memfd_create(c"cuda-standin-pool".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(CUDA_ERROR_OUT_OF_MEMORY);
    }
    Ok(Shm { fd, len: 0, at: Default::default() })
}

/// A pool of the location and type `p` describes, as `cuMemPoolCreate` checks them.
fn check_props(s: &State, p: &CUmemPoolProps) -> Res {
    if p.reserved != [0; 54] {
        return Err(INVAL);
    }
    s.pool_key(&p.location, p.allocType).map_err(|_| INVAL)?;
    let host = matches!(p.location.type_, HOST | HOST_NUMA);
    match p.handleTypes {
        0 => Ok(()),
        POSIX_FD if !host && p.allocType == PINNED => Ok(()),
        _ => Err(INVAL),
    }
}

export! {
    fn cuDeviceGetDefaultMemPool(pool_out: *mut CUmemoryPool, dev: CUdevice) {
        with(|s| {
            s.check_dev(dev)?;
            nonnull(pool_out)?;
            *pool_out = s.default_pool((DEVICE, dev, PINNED)) as CUmemoryPool;
            Ok(())
        })
    }

    fn cuDeviceGetMemPool(pool: *mut CUmemoryPool, dev: CUdevice) {
        with(|s| {
            s.check_dev(dev).map_err(|_| INVAL)?;
            nonnull(pool)?;
            *pool = s.current_pool((DEVICE, dev, PINNED)) as CUmemoryPool;
            Ok(())
        })
    }

    fn cuDeviceSetMemPool(dev: CUdevice, pool: CUmemoryPool) {
        with(|s| {
            s.check_dev(dev).map_err(|_| INVAL)?;
            let p = s.pool(pool as usize)?;
            if p.imported || s.key_of(pool as usize)? != (DEVICE, dev, PINNED) {
                return Err(INVAL);
            }
            s.current_pools.insert((DEVICE, dev, PINNED), pool as usize);
            Ok(())
        })
    }

    fn cuMemGetDefaultMemPool(pool_out: *mut CUmemoryPool, location: *mut CUmemLocation, type_: CUmemAllocationType) {
        nonnull(pool_out)?;
        nonnull(location)?;
        with(|s| {
            let key = s.pool_key(&*location, type_)?;
            *pool_out = s.default_pool(key) as CUmemoryPool;
            Ok(())
        })
    }

    fn cuMemGetMemPool(pool: *mut CUmemoryPool, location: *mut CUmemLocation, type_: CUmemAllocationType) {
        nonnull(pool)?;
        nonnull(location)?;
        with(|s| {
            let key = s.pool_key(&*location, type_)?;
            *pool = s.current_pool(key) as CUmemoryPool;
            Ok(())
        })
    }

    fn cuMemSetMemPool(location: *mut CUmemLocation, type_: CUmemAllocationType, pool: CUmemoryPool) {
        nonnull(location)?;
        with(|s| {
            let key = s.pool_key(&*location, type_).map_err(|_| INVAL)?;
            if s.pool(pool as usize)?.imported || s.key_of(pool as usize)? != key {
                return Err(INVAL);
            }
            s.current_pools.insert(key, pool as usize);
            Ok(())
        })
    }

    fn cuMemPoolCreate(pool: *mut CUmemoryPool, poolProps: *const CUmemPoolProps) {
        nonnull(pool)?;
        nonnull(poolProps)?;
        with(|s| {
            let mut p = *poolProps;
            check_props(s, &p)?;
            p.win32SecurityAttributes = std::ptr::null_mut();
            let mut x = Pool::new(p, false);
            if p.handleTypes == POSIX_FD {
                x.shm = Some(memory_file()?);
            }
            let h = new_handle();
            s.pools.insert(h, x);
            *pool = h as CUmemoryPool;
            Ok(())
        })
    }

    fn cuMemPoolDestroy(pool: CUmemoryPool) {
        with(|s| {
            if s.pool(pool as usize)?.default {
                return Err(INVAL);
            }
            let p = s.pools.remove(&(pool as usize)).expect("checked");
            if let Some(shm) = p.shm {
                // SAFETY: the pool's own descriptor.
                unsafe { libc::close(shm.fd) };
            }
            s.current_pools.retain(|_, &mut c| c != pool as usize);
            Ok(())
        })
    }

    fn cuMemPoolSetAttribute(pool: CUmemoryPool, attr: CUmemPool_attribute, value: *mut c_void) {
        with(|s| {
            let p = s.pools.get_mut(&(pool as usize)).ok_or(INVAL)?;
            if p.imported || !(1..=8).contains(&attr) {
                return Err(INVAL);
            }
            nonnull(value)?;
            let int = || *(value as *const c_int) != 0;
            let u = || *(value as *const u64);
            match attr {
                1 => p.follow_events = int(),
                2 => p.opportunistic = int(),
                3 => p.internal = int(),
                4 => p.threshold = u(),
                // The high-water marks only go back to the current values (given as 0).
                6 if u() == 0 => p.reserved_high = p.reserved,
                8 if u() == 0 => p.used_high = p.used,
                _ => return Err(INVAL),
            }
            Ok(())
        })
    }

    fn cuMemPoolGetAttribute(pool: CUmemoryPool, attr: CUmemPool_attribute, value: *mut c_void) {
        with(|s| {
            let p = s.pool(pool as usize)?;
            if p.imported || !(1..=8).contains(&attr) {
                return Err(INVAL);
            }
            nonnull(value)?;
            let int = |v: bool| *(value as *mut c_int) = v as c_int;
            let u = |v: u64| *(value as *mut u64) = v;
            match attr {
                1 => int(p.follow_events),
                2 => int(p.opportunistic),
                3 => int(p.internal),
                4 => u(p.threshold),
                5 => u(p.reserved),
                6 => u(p.reserved_high),
                7 => u(p.used),
                _ => u(p.used_high),
            }
            Ok(())
        })
    }

    fn cuMemPoolSetAccess(pool: CUmemoryPool, map: *const CUmemAccessDesc, count: usize) {
        with(|s| {
            let p = s.pool(pool as usize)?;
            if count == 0 {
                return Ok(());
            }
            nonnull(map)?;
            let own = (p.props.location.type_ == DEVICE).then_some(p.props.location.id);
            for d in std::slice::from_raw_parts(map, count) {
                if d.location.type_ != DEVICE {
                    return Err(CUDA_ERROR_NOT_SUPPORTED);
                }
                s.check_dev(d.location.id)?;
                match d.flags {
                    PROT_READWRITE => {}
                    PROT_READ => return Err(CUDA_ERROR_NOT_SUPPORTED),
                    // A pool's own device cannot be left without access.
                    PROT_NONE if own == Some(d.location.id) => return Err(CUDA_ERROR_INVALID_DEVICE),
                    PROT_NONE => {}
                    _ => return Err(INVAL),
                }
            }
            Ok(())
        })
    }

    fn cuMemPoolGetAccess(flags: *mut CUmemAccess_flags, memPool: CUmemoryPool, location: *mut CUmemLocation) {
        with(|s| {
            let p = s.pool(memPool as usize)?;
            nonnull(location)?;
            nonnull(flags)?;
            let l = *location;
            *flags = match l.type_ {
                DEVICE => {
                    s.check_dev(l.id).map_err(|_| INVAL)?;
                    if p.props.location.type_ == DEVICE && p.props.location.id == l.id {
                        PROT_READWRITE
                    } else {
                        PROT_NONE
                    }
                }
                HOST => PROT_NONE,
                HOST_NUMA if l.id == 0 => PROT_NONE,
                _ => return Err(INVAL),
            };
            Ok(())
        })
    }

    fn cuMemPoolTrimTo(pool: CUmemoryPool, minBytesToKeep: usize) {
        with(|s| {
            s.pools.get_mut(&(pool as usize)).ok_or(INVAL)?.trim(minBytesToKeep as u64);
            Ok(())
        })
    }

    fn cuMemPoolExportToShareableHandle(handle_out: *mut c_void, pool: CUmemoryPool, handleType: CUmemAllocationHandleType, flags: u64) {
        with(|s| {
            let p = s.pool(pool as usize)?;
            nonnull(handle_out)?;
            if flags != 0 || handleType != POSIX_FD || p.props.handleTypes & POSIX_FD == 0 || p.imported {
                return Err(INVAL);
            }
            let fd = p.shm.as_ref().ok_or(INVAL)?.fd;
            // SAFETY: a copy of the pool's descriptor, the caller's to close.
            let dup = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0);
            if dup < 0 {
                return Err(CUDA_ERROR_OUT_OF_MEMORY);
            }
            *(handle_out as *mut c_int) = dup;
            Ok(())
        })
    }

    fn cuMemPoolImportFromShareableHandle(pool_out: *mut CUmemoryPool, handle: *mut c_void, handleType: CUmemAllocationHandleType, flags: u64) {
        nonnull(pool_out)?;
        if handleType != POSIX_FD || flags != 0 {
            return Err(INVAL);
        }
        with(|s| {
            // The device is the current one, if any (the call needs no context).
            let dev = s.cur().unwrap_or(0);
            // The descriptor travels as the handle's value.
            let fd = handle as usize as c_int;
            let dup = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0);
            if dup < 0 {
                return Err(CUDA_ERROR_UNKNOWN);
            }
            let mut p = Pool::new(props(CUmemLocation { type_: DEVICE, id: dev }, PINNED), false);
            p.props.handleTypes = POSIX_FD;
            p.imported = true;
            p.shm = Some(Shm { fd: dup, len: 0, at: Default::default() });
            let h = new_handle();
            s.pools.insert(h, p);
            *pool_out = h as CUmemoryPool;
            Ok(())
        })
    }

    fn cuMemPoolExportPointer(shareData_out: *mut CUmemPoolPtrExportData, ptr: CUdeviceptr) {
        nonnull(shareData_out)?;
        with(|s| {
            let (off, size) = s.shm_offset(ptr as usize).ok_or(INVAL)?;
            let mut d = CUmemPoolPtrExportData { reserved: [0; 64] };
            d.reserved[..8].copy_from_slice(&EXPORT_MAGIC.to_ne_bytes());
            d.reserved[8..16].copy_from_slice(&(off as u64).to_ne_bytes());
            d.reserved[16..24].copy_from_slice(&(size as u64).to_ne_bytes());
            *shareData_out = d;
            Ok(())
        })
    }

    fn cuMemPoolImportPointer(ptr_out: *mut CUdeviceptr, pool: CUmemoryPool, shareData: *mut CUmemPoolPtrExportData) {
        nonnull(ptr_out)?;
        nonnull(shareData)?;
        with(|s| {
            let dev = s.cur().unwrap_or(0);
            let p = s.pool(pool as usize)?;
            let fd = match (&p.shm, p.imported) {
                (Some(shm), true) => shm.fd,
                _ => return Err(INVAL),
            };
            let d = (*shareData).reserved;
            let word = |i: usize| u64::from_ne_bytes(d[i * 8..i * 8 + 8].try_into().expect("8 bytes")) as usize;
            if word(0) as u64 != EXPORT_MAGIC || word(2) == 0 {
                return Err(INVAL);
            }
            let (off, size) = (word(1), word(2));
            let (addr, mem) = s.map_file(fd, off, size.div_ceil(PAGE) * PAGE)?;
            let buffer_id = s.buffer_id();
            s.allocs.insert(addr, Alloc { size, kind: Kind::Device, flags: 0, dev, mem, buffer_id, sync_memops: false, pages: None, pool: pool as usize });
            s.used[dev as usize] += size;
            *ptr_out = addr as CUdeviceptr;
            Ok(())
        })
    }
}

/// `cuMemAllocAsync` (`pool` `None`) and `cuMemAllocFromPoolAsync`: the pointer is NULL for
/// 0 bytes and after any failure.
unsafe fn alloc_async(
    dptr: *mut CUdeviceptr,
    size: usize,
    pool: Option<CUmemoryPool>,
    stream: CUstream,
    pt: bool,
) -> Res {
    nonnull(dptr)?;
    *dptr = 0;
    with(|s| {
        if let Some(p) = pool {
            s.pool(p as usize)?;
        }
        let k = s.skey(stream as usize, pt)?;
        if size == 0 {
            return Ok(());
        }
        let r = s.alloc_async(dptr, size, pool.map(|p| p as usize), k);
        if r.is_err() {
            *dptr = 0;
        }
        r
    })
}

export_pt! {
    fn cuMemAllocAsync / cuMemAllocAsync_ptsz(dptr: *mut CUdeviceptr, bytesize: usize, hStream: CUstream) |pt| {
        alloc_async(dptr, bytesize, None, hStream, pt)
    }
    fn cuMemAllocFromPoolAsync / cuMemAllocFromPoolAsync_ptsz(dptr: *mut CUdeviceptr, bytesize: usize, pool: CUmemoryPool, hStream: CUstream) |pt| {
        alloc_async(dptr, bytesize, Some(pool), hStream, pt)
    }
    fn cuMemFreeAsync / cuMemFreeAsync_ptsz(dptr: CUdeviceptr, hStream: CUstream) |pt| {
        with(|s| {
            let k = s.skey(hStream as usize, pt)?;
            s.free_async(dptr as usize, k)
        })
    }
}
