//! Memory: allocation, registration, copies, memsets, unified-memory advice and pointer
//! attributes.

use std::ffi::{c_int, c_uint, c_void};

use crate::mempool::Block;
use crate::state::*;
use crate::types::*;
use crate::{export, nonnull, put};

pub const MAX_PITCH: usize = 2147483647;
/// `cuMemAllocPitch` pitch granularity (H100, H200).
pub const PITCH_ALIGN: usize = 512;

// ---------------------------------------------------------------------------------------------
// Allocation
// ---------------------------------------------------------------------------------------------

impl State {
    /// Allocates `size` bytes of `kind` for the current context's device.
    pub fn alloc(&mut self, size: usize, kind: Kind, flags: u32) -> Res<usize> {
        let dev = self.cur()?;
        if size == 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let counted_dev = kind == Kind::Device;
        if counted_dev && size > TOTAL_MEM - self.used[dev as usize] {
            return Err(CUDA_ERROR_OUT_OF_MEMORY);
        }
        if kind != Kind::Device && size > HOST_LIMIT.saturating_sub(self.host_used) {
            return Err(CUDA_ERROR_OUT_OF_MEMORY);
        }
        let (addr, mem) = self.backing(size).ok_or(CUDA_ERROR_OUT_OF_MEMORY)?;
        let buffer_id = self.buffer_id();
        self.allocs
            .insert(addr, Alloc { size, kind, flags, dev, mem, buffer_id, sync_memops: false, pages: None, pool: 0 });
        if counted_dev {
            self.used[dev as usize] += size;
        } else if kind == Kind::Pinned || kind == Kind::Managed {
            self.host_used += size;
        }
        Ok(addr)
    }

    /// Frees the allocation based at `addr` if its kind is one of `kinds`: at once, or in
    /// stream order on `stream` (memory of a pool goes back to the pool, to be handed out
    /// again when the pool's reuse rules allow).
    pub fn free_on(&mut self, addr: usize, kinds: &[Kind], stream: Option<SKey>) -> Res {
        match self.allocs.get(&addr) {
            Some(a) if kinds.contains(&a.kind) && a.pool != GRAPH_MEMORY => {}
            _ => return Err(CUDA_ERROR_INVALID_VALUE),
        }
        let a = self.allocs.remove(&addr).expect("checked above");
        match a.kind {
            Kind::Device => self.used[a.dev as usize] -= a.size,
            Kind::Pinned | Kind::Managed | Kind::PoolHost => self.host_used -= a.size,
            Kind::Registered => {}
        }
        let (stream, seq, done) = match stream {
            Some(k) => (k, self.bump(k), false),
            None => (SKey::Legacy(a.dev), 0, true),
        };
        if let Some(pool) = self.pools.get_mut(&a.pool) {
            pool.gave_back(a.size);
            // Memory of another process's pool is only unmapped.
            if !pool.imported {
                pool.free.push(Block { addr, size: a.size, mem: a.mem, stream, seq, done });
            }
        }
        Ok(())
    }

    /// Frees at once.
    pub fn free(&mut self, addr: usize, kinds: &[Kind]) -> Res {
        self.free_on(addr, kinds, None)
    }
}

export! {
    fn cuMemAlloc(dptr: *mut CUdeviceptr, bytesize: usize) {
        nonnull(dptr)?;
        with(|s| {
            s.cur()?;
            s.unsafe_call()?;
            *dptr = s.alloc(bytesize, Kind::Device, 0)? as CUdeviceptr;
            Ok(())
        })
    }

    fn cuMemFree(dptr: CUdeviceptr) {
        with(|s| {
            s.cur()?;
            s.unsafe_call()?;
            if dptr == 0 {
                return Ok(());
            }
            s.free(dptr as usize, &[Kind::Device, Kind::Managed, Kind::PoolHost])
        })
    }

    fn cuMemAllocPitch(dptr: *mut CUdeviceptr, pPitch: *mut usize, widthInBytes: usize, height: usize, elementSizeBytes: c_uint) {
        nonnull(dptr)?;
        nonnull(pPitch)?;
        with(|s| {
            s.cur()?;
            s.unsafe_call()?;
            if widthInBytes == 0 || height == 0 || !matches!(elementSizeBytes, 4 | 8 | 16) {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            // As the driver: the pitch (the width rounded up, wrapping) is written first, also
            // when the allocation then fails; a size (wrapping too) of 0 is an invalid value,
            // one too large for memory is out of memory.
            let pitch = widthInBytes.wrapping_add(PITCH_ALIGN - 1) & !(PITCH_ALIGN - 1);
            *pPitch = pitch;
            let size = pitch.wrapping_mul(height);
            if size == 0 {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            *dptr = s.alloc(size, Kind::Device, 0)? as CUdeviceptr;
            Ok(())
        })
    }

    fn cuMemAllocManaged(dptr: *mut CUdeviceptr, bytesize: usize, flags: c_uint) {
        nonnull(dptr)?;
        with(|s| {
            s.cur()?;
            s.unsafe_call()?;
            // CU_MEM_ATTACH_GLOBAL 1 or CU_MEM_ATTACH_HOST 2.
            if !matches!(flags, 1 | 2) || bytesize == 0 {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            if bytesize > TOTAL_MEM {
                return Err(CUDA_ERROR_OUT_OF_MEMORY);
            }
            *dptr = s.alloc(bytesize, Kind::Managed, flags)? as CUdeviceptr;
            Ok(())
        })
    }

    fn cuMemAllocHost(pp: *mut *mut c_void, bytesize: usize) {
        nonnull(pp)?;
        with(|s| {
            s.cur()?;
            s.unsafe_call()?;
            *pp = s.alloc(bytesize, Kind::Pinned, 0)? as *mut c_void;
            Ok(())
        })
    }

    fn cuMemHostAlloc(pp: *mut *mut c_void, bytesize: usize, flags: c_uint) {
        nonnull(pp)?;
        with(|s| {
            s.cur()?;
            s.unsafe_call()?;
            // PORTABLE 1, DEVICEMAP 2, WRITECOMBINED 4.
            if flags & !7 != 0 {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            *pp = s.alloc(bytesize, Kind::Pinned, flags)? as *mut c_void;
            Ok(())
        })
    }

    fn cuMemFreeHost(p: *mut c_void) {
        with(|s| {
            s.cur()?;
            s.unsafe_call()?;
            if p.is_null() {
                return Ok(());
            }
            s.free(p as usize, &[Kind::Pinned])
        })
    }

    fn cuMemGetInfo(free: *mut usize, total: *mut usize) {
        // Either may be NULL: only the ones given are written.
        with(|s| {
            let d = s.cur()?;
            if !free.is_null() {
                *free = TOTAL_MEM - s.used[d as usize];
            }
            if !total.is_null() {
                *total = TOTAL_MEM;
            }
            Ok(())
        })
    }

    fn cuMemGetAddressRange(pbase: *mut CUdeviceptr, psize: *mut usize, dptr: CUdeviceptr) {
        with(|s| {
            s.cur()?;
            let (base, a) = s.find(dptr as usize).ok_or(CUDA_ERROR_NOT_FOUND)?;
            if !pbase.is_null() {
                *pbase = base as CUdeviceptr;
            }
            if !psize.is_null() {
                *psize = a.size;
            }
            Ok(())
        })
    }

    fn cuStreamAttachMemAsync(hStream: CUstream, dptr: CUdeviceptr, length: usize, flags: c_uint) {
        with(|s| {
            s.cur()?;
            s.check_stream(hStream as usize)?;
            // GLOBAL 1, HOST 2, SINGLE 4; SINGLE needs a real stream.
            if !matches!(flags, 1 | 2 | 4) || (flags == 4 && (hStream as usize) <= 2) {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            match s.allocs.get(&(dptr as usize)) {
                Some(a) if a.kind == Kind::Managed && (length == 0 || length == a.size) => Ok(()),
                _ => Err(CUDA_ERROR_INVALID_VALUE),
            }
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Unified memory
// ---------------------------------------------------------------------------------------------

/// A location for advice or prefetch, from the CUDA 12.2 `CUmemLocation` form.
fn loc_v2(s: &State, l: CUmemLocation) -> Res<Loc> {
    match l.type_ {
        CU_MEM_LOCATION_TYPE_DEVICE => Ok(Loc::Dev(s.check_dev(l.id)?)),
        CU_MEM_LOCATION_TYPE_HOST => Ok(Loc::Host),
        CU_MEM_LOCATION_TYPE_HOST_NUMA if l.id == 0 => Ok(Loc::HostNuma(0)),
        CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT => Ok(Loc::HostNuma(0)),
        _ => Err(CUDA_ERROR_INVALID_VALUE),
    }
}

/// A location from the CUDA 8 device-ordinal form (`CU_DEVICE_CPU` = host).
fn loc_v1(s: &State, dev: c_int) -> Res<Loc> {
    if dev == CU_DEVICE_CPU {
        Ok(Loc::Host)
    } else {
        Ok(Loc::Dev(s.check_dev(dev)?))
    }
}

impl State {
    /// The managed allocation holding `[p, p + count)` and the page indices it covers.
    fn managed_pages(&mut self, p: usize, count: usize) -> Res<(&mut Alloc, usize, usize)> {
        if count == 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let (base, a) = self.find_mut(p).ok_or(CUDA_ERROR_INVALID_VALUE)?;
        let end = p.checked_add(count).ok_or(CUDA_ERROR_INVALID_VALUE)?;
        if a.kind != Kind::Managed || end > base + a.size {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let npages = a.size.div_ceil(PAGE);
        if a.pages.is_none() {
            a.pages = Some(vec![Page::default(); npages]);
        }
        let first = (p - base) / PAGE;
        let last = (end - base).div_ceil(PAGE).min(npages);
        Ok((a, first, last))
    }

    pub fn advise(&mut self, p: usize, count: usize, advice: c_int, loc: Res<Loc>) -> Res {
        if !(1..=6).contains(&advice) {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        // No range is an invalid value before the location is looked at (measured on the
        // H100: cudaMemAdvise(managed, 0, UnsetAccessedBy, -3) is cudaErrorInvalidValue).
        if p == 0 || count == 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        // The location matters only to SET_PREFERRED_LOCATION and (UN)SET_ACCESSED_BY.
        let loc = if matches!(advice, 3 | 5 | 6) { loc? } else { Loc::None };
        let (a, first, last) = self.managed_pages(p, count)?;
        let pages = a.pages.as_mut().expect("created by managed_pages");
        let bit = match loc {
            Loc::Dev(d) => 1u8 << d,
            Loc::Host | Loc::HostNuma(_) => ACCESS_CPU_BIT,
            Loc::None => 0,
        };
        for pg in &mut pages[first..last] {
            match advice {
                1 => pg.read_mostly = true,
                2 => pg.read_mostly = false,
                3 => pg.preferred = loc,
                4 => pg.preferred = Loc::None,
                5 => pg.accessed_by |= bit,
                _ => pg.accessed_by &= !bit,
            }
        }
        Ok(())
    }

    pub fn prefetch(&mut self, p: usize, count: usize, loc: Loc, stream: usize) -> Res {
        self.check_stream(stream)?;
        let (a, first, last) = self.managed_pages(p, count)?;
        let pages = a.pages.as_mut().expect("created by managed_pages");
        for pg in &mut pages[first..last] {
            pg.prefetch = loc;
        }
        Ok(())
    }

    /// `cuMemRangeGetAttribute`, writing into `out` (`dataSize` bytes).
    pub fn range_attr(&mut self, out: &mut [u8], attr: c_int, p: usize, count: usize) -> Res {
        let size = out.len();
        let ndev = self.ndev;
        let (a, first, last) = self.managed_pages(p, count)?;
        let pages = &a.pages.as_ref().expect("created by managed_pages")[first..last];
        let common = |f: &dyn Fn(&Page) -> Loc| -> Loc {
            let l = f(&pages[0]);
            if pages.iter().all(|pg| f(pg) == l) {
                l
            } else {
                Loc::None
            }
        };
        let legacy = |l: Loc| match l {
            Loc::Dev(d) => d,
            Loc::Host | Loc::HostNuma(_) => CU_DEVICE_CPU,
            Loc::None => CU_DEVICE_INVALID,
        };
        let ltype = |l: Loc| match l {
            Loc::Dev(_) => CU_MEM_LOCATION_TYPE_DEVICE,
            Loc::Host => CU_MEM_LOCATION_TYPE_HOST,
            Loc::HostNuma(_) => CU_MEM_LOCATION_TYPE_HOST_NUMA,
            Loc::None => CU_MEM_LOCATION_TYPE_INVALID,
        };
        let lid = |l: Loc| match l {
            Loc::Dev(d) | Loc::HostNuma(d) => d,
            Loc::Host => CU_DEVICE_CPU,
            Loc::None => CU_DEVICE_INVALID,
        };
        let v: c_int = match attr {
            1 => pages.iter().all(|pg| pg.read_mostly) as c_int,
            2 => legacy(common(&|pg| pg.preferred)),
            3 => {
                if size == 0 || size % 4 != 0 {
                    return Err(CUDA_ERROR_INVALID_VALUE);
                }
                let all = pages.iter().fold(0xffu8, |m, pg| m & pg.accessed_by);
                let mut ids: Vec<c_int> = (0..ndev).filter(|d| all & (1 << d) != 0).collect();
                if all & ACCESS_CPU_BIT != 0 {
                    ids.push(CU_DEVICE_CPU);
                }
                for (i, chunk) in out.chunks_exact_mut(4).enumerate() {
                    chunk.copy_from_slice(&ids.get(i).copied().unwrap_or(CU_DEVICE_INVALID).to_ne_bytes());
                }
                return Ok(());
            }
            4 => legacy(common(&|pg| pg.prefetch)),
            5 => ltype(common(&|pg| pg.preferred)),
            6 => lid(common(&|pg| pg.preferred)),
            7 => ltype(common(&|pg| pg.prefetch)),
            8 => lid(common(&|pg| pg.prefetch)),
            _ => return Err(CUDA_ERROR_INVALID_VALUE),
        };
        if size != 4 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        out.copy_from_slice(&v.to_ne_bytes());
        Ok(())
    }
}

export! {
    fn cuMemAdvise(devPtr: CUdeviceptr, count: usize, advice: CUmem_advise, device: CUdevice) {
        with(|s| {
            let loc = loc_v1(s, device);
            s.advise(devPtr as usize, count, advice, loc)
        })
    }

    fn cuMemAdvise_v2(devPtr: CUdeviceptr, count: usize, advice: CUmem_advise, location: CUmemLocation) {
        with(|s| {
            // A device location naming no device is an invalid value here (prefetch says
            // invalid device).
            let loc = loc_v2(s, location).map_err(|e| if e == CUDA_ERROR_INVALID_DEVICE { CUDA_ERROR_INVALID_VALUE } else { e });
            s.advise(devPtr as usize, count, advice, loc)
        })
    }

    fn cuMemPrefetchAsync(devPtr: CUdeviceptr, count: usize, dstDevice: CUdevice, hStream: CUstream) {
        with(|s| {
            s.cur()?;
            // No range is an invalid value before the device is looked at (measured on the
            // H100: cudaMemPrefetchAsync(NULL, 4109, 99, 0) is cudaErrorInvalidValue).
            if devPtr == 0 || count == 0 {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            let loc = loc_v1(s, dstDevice)?;
            s.prefetch(devPtr as usize, count, loc, hStream as usize)
        })
    }

    fn cuMemPrefetchAsync_v2(devPtr: CUdeviceptr, count: usize, location: CUmemLocation, flags: c_uint, hStream: CUstream) {
        with(|s| {
            s.cur()?;
            if flags != 0 || devPtr == 0 || count == 0 {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            let loc = loc_v2(s, location)?;
            s.prefetch(devPtr as usize, count, loc, hStream as usize)
        })
    }

    fn cuMemRangeGetAttribute(data: *mut c_void, dataSize: usize, attribute: CUmem_range_attribute, devPtr: CUdeviceptr, count: usize) {
        // A current context first, whatever the arguments (the H100's driver, as NVIDIA's
        // runtime, which makes none current for this call, shows: `ctest/reset_current.c`).
        with(|s| s.cur().map(|_| ()))?;
        nonnull(data)?;
        with(|s| {
            let mut buf = vec![0u8; dataSize.min(1 << 20)];
            if dataSize > buf.len() {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            s.range_attr(&mut buf, attribute, devPtr as usize, count)?;
            std::ptr::copy_nonoverlapping(buf.as_ptr(), data as *mut u8, dataSize);
            Ok(())
        })
    }

    fn cuMemRangeGetAttributes(data: *mut *mut c_void, dataSizes: *mut usize, attributes: *mut CUmem_range_attribute, numAttributes: usize, devPtr: CUdeviceptr, count: usize) {
        with(|s| s.cur().map(|_| ()))?;
        nonnull(data)?;
        nonnull(dataSizes)?;
        nonnull(attributes)?;
        if numAttributes == 0 {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        for i in 0..numAttributes {
            let r = cuMemRangeGetAttribute(*data.add(i), *dataSizes.add(i), *attributes.add(i), devPtr, count);
            if r != CUDA_SUCCESS {
                return Err(r);
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Pointer attributes
// ---------------------------------------------------------------------------------------------

/// Writes pointer attribute `attr` of `ptr` to `data`. `lenient` is `cuPointerGetAttributes`:
/// an unknown pointer gets default (zero/NULL) values instead of `CUDA_ERROR_INVALID_VALUE`.
unsafe fn pointer_attr(s: &State, attr: c_int, ptr: usize, data: *mut c_void, lenient: bool) -> Res {
    nonnull(data)?;
    let found = s.find(ptr);
    let w32 = |v: u32| put(data as *mut u32, v);
    let w64 = |v: u64| put(data as *mut u64, v);
    let Some((base, a)) = found else {
        if !lenient {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        return match attr {
            // The H100's driver reports an unknown pointer as its own host address.
            4 => w64(ptr as u64),
            1 | 3 | 7 | 11 | 12 | 14 | 17..=20 => w64(0),
            2 | 6 | 8 | 10 | 13 | 15 | 16 | 21 => w32(0),
            9 => w32(CU_DEVICE_INVALID as u32),
            _ => Err(CUDA_ERROR_INVALID_VALUE),
        };
    };
    let is_host = matches!(a.kind, Kind::Pinned | Kind::Registered | Kind::PoolHost);
    match attr {
        1 => w64(s.ctxs[a.dev as usize].handle as u64),
        2 => w32(if is_host { CU_MEMORYTYPE_HOST } else { CU_MEMORYTYPE_DEVICE } as u32),
        // Host memory of a pool has no device address (the devices get no access to it).
        3 if a.kind == Kind::PoolHost && lenient => w64(0),
        3 if a.kind == Kind::PoolHost => Err(CUDA_ERROR_INVALID_VALUE),
        3 => {
            s.cur()?;
            w64(ptr as u64)
        }
        4 => {
            if a.kind == Kind::Device {
                if lenient {
                    return w64(0);
                }
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            w64(ptr as u64)
        }
        6 => w32(a.sync_memops as u32),
        7 | 20 => w64(a.buffer_id),
        8 => w32((a.kind == Kind::Managed) as u32),
        9 => w32(a.dev as u32),
        10 => w32((a.kind == Kind::Device) as u32),
        11 | 19 => w64(base as u64),
        12 | 18 => w64(a.size as u64),
        13 => w32(1),
        14 => w64(0),
        15 => w32((a.kind == Kind::Device) as u32),
        16 => w32(3), // CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE
        17 => w64(0),
        21 => w32(0),
        _ => Err(CUDA_ERROR_INVALID_VALUE),
    }
}

export! {
    fn cuPointerGetAttribute(data: *mut c_void, attribute: CUpointer_attribute, ptr: CUdeviceptr) {
        with(|s| pointer_attr(s, attribute, ptr as usize, data, false))
    }

    fn cuPointerGetAttributes(numAttributes: c_uint, attributes: *mut CUpointer_attribute, data: *mut *mut c_void, ptr: CUdeviceptr) {
        nonnull(attributes)?;
        nonnull(data)?;
        with(|s| {
            for i in 0..numAttributes as usize {
                pointer_attr(s, *attributes.add(i), ptr as usize, *data.add(i), true)?;
            }
            Ok(())
        })
    }

    fn cuPointerSetAttribute(value: *const c_void, attribute: CUpointer_attribute, ptr: CUdeviceptr) {
        nonnull(value)?;
        with(|s| {
            s.cur()?;
            if attribute != 6 {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            let v = *(value as *const c_uint) != 0;
            let (_, a) = s.find_mut(ptr as usize).ok_or(CUDA_ERROR_INVALID_VALUE)?;
            a.sync_memops = v;
            Ok(())
        })
    }
}
