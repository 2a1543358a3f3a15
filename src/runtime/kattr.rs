//! [`FixedAttrs`]: the attributes of a kernel on a device that nothing can change while the
//! kernel lives, kept once read, for `cudaFuncGetAttributes` (which CUB, Thrust and the
//! occupancy calculator of NVIDIA's header ask on every dispatch).
//!
//! What is kept, per (`CUkernel`, device): the driver's function attributes 0 to 7 (maximum
//! threads per block, static shared, constant and local memory sizes, registers, PTX and
//! binary versions, whether compiled with `-Xptxas --dlcm=ca`), which come from the code the
//! driver loaded for that device. The attributes a program can set (8 to 15: maximum dynamic
//! shared memory, carveout, cluster dimensions and policy; and CUDA 13.5's 16 and 17) are
//! read from the driver on every call, as NVIDIA's runtime reads all of them (13.0.96 and
//! 12.9.79 make one `cuKernelGetAttribute` / `cuFuncGetAttribute` per field each call): a
//! program may set them through the driver API as well (`cuKernelSetAttribute` on the handle
//! `cudaGetKernel` gave, `cuFuncSetAttribute` on `cudaGetFuncBySymbol`'s), where no cache of
//! the runtime's could follow.
//!
//! Readers take no lock and write no shared memory: the per-kernel block is found in an
//! [`AddrMap`], each device's slot is a sequence lock (a reader that sees the sequence move
//! while it copies, or odd, misses and asks the driver). A slot is filled under a mutex and
//! stamped with the generation it was read in; [`FixedAttrs::forget_all`] starts a new
//! generation, and every slot of an older one is a miss from then on. It is called where a
//! kernel handle may stop naming the same code: a library unloaded (the driver may hand the
//! same address to another library's kernel), a fat binary unregistered, a device reset. A
//! fill that read the driver in an older generation is not stored, so a handle read before an
//! unload cannot be kept after it. Blocks are never freed (a reader may still hold one):
//! there is one per kernel handle ever asked about.

use std::sync::atomic::{fence, AtomicI32, AtomicU32, AtomicU64, Ordering};

use parking_lot::Mutex;

use crate::runtime::lookup::AddrMap;

/// How many attributes are kept: the driver's `CUfunction_attribute` 0 to 7.
pub(crate) const FIXED: usize = 8;

struct Slot {
    /// Even when the slot is stable; odd while it is written.
    seq: AtomicU32,
    /// The generation the values were read in; 0 for none.
    gen: AtomicU64,
    vals: [AtomicI32; FIXED],
}

/// One kernel's slots, one per device.
struct Block {
    slots: Box<[Slot]>,
}

/// Kernel handle -> its fixed attributes on each device.
pub(crate) struct FixedAttrs {
    blocks: AddrMap,
    /// The current generation (from 1).
    gen: AtomicU64,
    fill: Mutex<()>,
}

impl FixedAttrs {
    pub(crate) const fn new() -> FixedAttrs {
        FixedAttrs { blocks: AddrMap::new(), gen: AtomicU64::new(1), fill: Mutex::new(()) }
    }

    /// The generation to pass to [`FixedAttrs::put`]: taken before the driver is asked.
    #[inline]
    pub(crate) fn ticket(&self) -> u64 {
        self.gen.load(Ordering::Acquire)
    }

    /// The kept attributes of `kernel` on `dev`, if they are of the current generation.
    #[inline]
    pub(crate) fn get(&self, kernel: usize, dev: usize) -> Option<[i32; FIXED]> {
        let b = self.blocks.get(kernel)?;
        // SAFETY: blocks are leaked, never freed.
        let s = unsafe { &*(b as *const Block) }.slots.get(dev)?;
        let s1 = s.seq.load(Ordering::Acquire);
        if s1 & 1 != 0 {
            return None;
        }
        let g = s.gen.load(Ordering::Relaxed);
        let v = std::array::from_fn(|i| s.vals[i].load(Ordering::Relaxed));
        fence(Ordering::Acquire);
        if s.seq.load(Ordering::Relaxed) != s1 || g != self.gen.load(Ordering::Acquire) {
            return None;
        }
        Some(v)
    }

    /// Keeps `vals`, read from the driver for `kernel` on `dev` after [`FixedAttrs::ticket`]
    /// gave `ticket`, unless a new generation began since. `devices`: how many slots a new
    /// block gets (the device count).
    pub(crate) fn put(&self, kernel: usize, dev: usize, devices: usize, ticket: u64, vals: [i32; FIXED]) {
        if kernel == 0 || dev >= devices {
            return;
        }
        let _g = self.fill.lock();
        if self.gen.load(Ordering::Acquire) != ticket {
            return;
        }
        let b = match self.blocks.get(kernel) {
            Some(b) => b as *const Block,
            None => {
                let slots = (0..devices)
                    .map(|_| Slot {
                        seq: AtomicU32::new(0),
                        gen: AtomicU64::new(0),
                        vals: std::array::from_fn(|_| AtomicI32::new(0)),
                    })
                    .collect();
                let b: &'static Block = Box::leak(Box::new(Block { slots }));
                self.blocks.insert(kernel, b as *const Block as usize);
                b as *const Block
            }
        };
        // SAFETY: blocks are leaked, never freed.
        let Some(s) = unsafe { &*b }.slots.get(dev) else { return };
        let q = s.seq.load(Ordering::Relaxed);
        s.seq.store(q.wrapping_add(1), Ordering::Relaxed);
        fence(Ordering::Release);
        for (slot, v) in s.vals.iter().zip(vals) {
            slot.store(v, Ordering::Relaxed);
        }
        s.gen.store(ticket, Ordering::Relaxed);
        s.seq.store(q.wrapping_add(2), Ordering::Release);
    }

    /// Starts a new generation: nothing kept before is answered again. Called after the
    /// driver call that may have changed what a handle names.
    pub(crate) fn forget_all(&self) {
        self.gen.fetch_add(1, Ordering::AcqRel);
    }
}

/// The runtime's cache (see the module documentation).
pub(crate) static KERNEL_ATTRS: FixedAttrs = FixedAttrs::new();

/// [`FixedAttrs::forget_all`] on the runtime's cache: a library unloaded, a fat binary
/// unregistered, a device reset.
pub(crate) fn forget_all() {
    KERNEL_ATTRS.forget_all();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vals(x: i32) -> [i32; FIXED] {
        std::array::from_fn(|i| x + i as i32)
    }

    #[test]
    fn a_fill_is_answered_per_kernel_and_device() {
        let c = FixedAttrs::new();
        assert_eq!(c.get(0x1000, 0), None);
        let t = c.ticket();
        c.put(0x1000, 1, 2, t, vals(10));
        assert_eq!(c.get(0x1000, 1), Some(vals(10)));
        assert_eq!(c.get(0x1000, 0), None, "another device of the same kernel");
        assert_eq!(c.get(0x2000, 1), None, "another kernel");
        c.put(0x1000, 0, 2, t, vals(20));
        assert_eq!(c.get(0x1000, 0), Some(vals(20)));
        assert_eq!(c.get(0x1000, 1), Some(vals(10)));
        // A device past the block's slots is never kept.
        c.put(0x1000, 5, 2, t, vals(30));
        assert_eq!(c.get(0x1000, 5), None);
    }

    #[test]
    fn a_new_generation_forgets_every_entry_and_refills_in_place() {
        let c = FixedAttrs::new();
        let t = c.ticket();
        c.put(0x1000, 0, 1, t, vals(1));
        c.put(0x3000, 0, 1, t, vals(3));
        c.forget_all();
        assert_eq!(c.get(0x1000, 0), None);
        assert_eq!(c.get(0x3000, 0), None);
        // The same handle naming other code (a library unloaded, another loaded there).
        c.put(0x1000, 0, 1, c.ticket(), vals(100));
        assert_eq!(c.get(0x1000, 0), Some(vals(100)));
        assert_eq!(c.get(0x3000, 0), None);
    }

    #[test]
    fn a_fill_read_before_a_new_generation_is_not_kept() {
        let c = FixedAttrs::new();
        let before = c.ticket();
        // Another thread unloads (or resets) between this thread's driver reads and its put.
        c.forget_all();
        c.put(0x1000, 0, 1, before, vals(7));
        assert_eq!(c.get(0x1000, 0), None);
        c.put(0x1000, 0, 1, c.ticket(), vals(8));
        assert_eq!(c.get(0x1000, 0), Some(vals(8)));
    }

    #[test]
    fn readers_on_other_threads_see_a_fill_whole() {
        static C: FixedAttrs = FixedAttrs::new();
        // Every value a reader gets is one that was put whole: all fields x + i for one x.
        std::thread::scope(|s| {
            s.spawn(|| {
                for round in 0..20_000 {
                    if round % 1000 == 999 {
                        C.forget_all();
                    }
                    let t = C.ticket();
                    C.put(0x4000 + (round % 4) * 16, round % 2, 2, t, vals((round as i32) * 16));
                }
            });
            for _ in 0..3 {
                s.spawn(|| {
                    let mut hits = 0;
                    for i in 0..200_000usize {
                        if let Some(v) = C.get(0x4000 + (i % 4) * 16, i % 2) {
                            assert!(v.iter().enumerate().all(|(j, &x)| x == v[0] + j as i32), "torn read {v:?}");
                            hits += 1;
                        }
                    }
                    hits
                });
            }
        });
        let t = C.ticket();
        C.put(0x4000, 0, 2, t, vals(5));
        let other = std::thread::spawn(|| C.get(0x4000, 0)).join().unwrap();
        assert_eq!(other, Some(vals(5)));
    }
}
