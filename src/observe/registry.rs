//! What this runtime handed out: live allocations (by address range) and handles, recently
//! freed ones (to name double frees and uses after free), handles the driver vouched for,
//! the misuse seen and kernel names. The memory held of each kind, its peak, the count of
//! misuses and what is live are also kept in the process's record ([`super::record`]).

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::fmt::Write as _;
use std::sync::MutexGuard;

pub use figures::{Kind, H};

use super::demangle::demangle;
use super::lock::Lock;
use super::record;

/// One allocation or handle this runtime made.
#[derive(Clone, Debug)]
pub struct Alloc {
    pub kind: Kind,
    pub addr: usize,
    /// Bytes (0 for handles other than arrays).
    pub size: usize,
    pub device: i32,
    /// The call that made it: its number and export.
    pub call: u64,
    pub func: &'static str,
    pub tid: i32,
    /// Return addresses of the program's frames, when asked for.
    pub backtrace: Option<Vec<usize>>,
    /// Arrays: bytes per element.
    pub elem: usize,
    /// The export that made it (its index in [`crate::EXPORT_INFO`]).
    pub export: usize,
}

/// One allocation or handle freed.
#[derive(Clone, Debug)]
pub struct Freed {
    pub a: Alloc,
    pub free_call: u64,
    pub free_func: &'static str,
}

/// One misuse seen.
#[derive(Clone, Debug)]
pub struct Misuse {
    pub call: u64,
    pub func: &'static str,
    pub what: String,
}

/// How many freed allocations and handles are remembered.
const FREED_KEPT: usize = 1 << 16;
/// How many misuses are listed (the rest are counted).
const MISUSE_KEPT: usize = 1000;

#[derive(Default)]
pub struct State {
    /// Memory: base -> allocation.
    pub mem: BTreeMap<usize, Alloc>,
    /// Handles: value -> allocation.
    pub handles: HashMap<usize, Alloc>,
    freed_mem: BTreeMap<usize, Freed>,
    freed_handles: HashMap<usize, Freed>,
    freed_order: VecDeque<(bool, usize, u64)>,
    /// Handles this runtime did not make that the driver vouched for.
    pub foreign: HashSet<(H, usize)>,
    pub misuse: Vec<Misuse>,
    pub misuse_dropped: u64,
    /// Host stubs and kernel handles -> kernel names.
    pub kernels: HashMap<usize, String>,
    /// The record's slot of each live allocation or handle (memory?, address), and the free
    /// slots.
    slots: HashMap<(bool, usize), usize>,
    free_slots: Vec<usize>,
    next_slot: usize,
}

static STATE: Lock<Option<State>> = Lock::new(None);

pub struct Guard(MutexGuard<'static, Option<State>>);

impl std::ops::Deref for Guard {
    type Target = State;
    fn deref(&self) -> &State {
        self.0.as_ref().unwrap()
    }
}
impl std::ops::DerefMut for Guard {
    fn deref_mut(&mut self) -> &mut State {
        self.0.as_mut().unwrap()
    }
}

pub fn lock() -> Guard {
    let mut g = STATE.lock();
    if g.is_none() {
        *g = Some(State::default());
    }
    Guard(g)
}

/// The registry, held across a fork.
pub struct Held(MutexGuard<'static, Option<State>>);

pub fn hold() -> Held {
    Held(STATE.lock())
}

impl Held {
    /// In the forked child: what the parent handed out is not the child's to free or leak.
    pub fn forked(mut self) {
        *self.0 = None;
    }
}

/// The registry, unless another thread holds it (for reports made at exit).
pub fn try_lock() -> Option<Guard> {
    let mut g = STATE.within(std::time::Duration::from_secs(2))?;
    if g.is_none() {
        *g = Some(State::default());
    }
    Some(Guard(g))
}

impl State {
    /// Records an allocation or handle; an address handed out again is no longer "freed".
    pub fn add(&mut self, a: Alloc) {
        if let Some(i) = a.kind.held() {
            record::held(i, a.size as u64, true);
        }
        // A range registered again (or a driver that hands out an address twice) replaces
        // the old entry.
        let old = if a.kind.is_memory() { self.mem.remove(&a.addr) } else { self.handles.remove(&a.addr) };
        if let Some(old) = old {
            self.unhold(&old);
        }
        self.keep(&a);
        if a.kind.is_memory() {
            let end = a.addr + a.size.max(1);
            let stale: Vec<usize> = self
                .freed_mem
                .range(..end)
                .rev()
                .take_while(|(_, f)| f.a.addr + f.a.size.max(1) > a.addr)
                .map(|(&k, _)| k)
                .collect();
            for k in stale {
                self.freed_mem.remove(&k);
            }
            self.mem.insert(a.addr, a);
        } else {
            self.freed_handles.remove(&a.addr);
            if let Some(h) = a.kind.handle() {
                self.foreign.remove(&(h, a.addr));
            }
            self.handles.insert(a.addr, a);
        }
    }

    fn unhold(&mut self, a: &Alloc) {
        if let Some(i) = a.kind.held() {
            record::held(i, a.size as u64, false);
        }
        if let Some(slot) = self.slots.remove(&(a.kind.is_memory(), a.addr)) {
            record::live_clear(slot);
            self.free_slots.push(slot);
        }
    }

    /// Puts a live allocation or handle in the record's table (the one it replaces is
    /// forgotten by [`State::unhold`]).
    fn keep(&mut self, a: &Alloc) {
        let key = (a.kind.is_memory(), a.addr);
        let slot = match self.slots.get(&key) {
            Some(&s) => Some(s),
            None => self.free_slots.pop().or_else(|| {
                (self.next_slot < figures::record::LIVE_SLOTS).then(|| {
                    self.next_slot += 1;
                    self.next_slot - 1
                })
            }),
        };
        match slot {
            Some(s) => {
                let w = figures::record::live_words(a.addr, a.size as u64, a.call, a.tid, a.kind, a.device, a.export);
                record::live_set(s, w);
                self.slots.insert(key, s);
            }
            None => record::live_lost(),
        }
    }

    /// The live allocation that starts at `p`.
    pub fn mem_at(&self, p: usize) -> Option<&Alloc> {
        self.mem.get(&p)
    }

    /// The live allocation that holds `p`.
    pub fn mem_holding(&self, p: usize) -> Option<&Alloc> {
        let (_, a) = self.mem.range(..=p).next_back()?;
        (p < a.addr + a.size.max(1)).then_some(a)
    }

    /// The freed allocation (not handed out again since) that held `p`.
    pub fn freed_holding(&self, p: usize) -> Option<&Freed> {
        let (_, f) = self.freed_mem.range(..=p).next_back()?;
        (p < f.a.addr + f.a.size.max(1)).then_some(f)
    }

    pub fn freed_handle(&self, h: usize) -> Option<&Freed> {
        self.freed_handles.get(&h)
    }

    /// Forgets a live allocation or handle (freed by `call`), and remembers it as freed.
    pub fn remove(&mut self, addr: usize, memory: bool, call: u64, func: &'static str) -> Option<Alloc> {
        let a = if memory { self.mem.remove(&addr) } else { self.handles.remove(&addr) }?;
        self.unhold(&a);
        let f = Freed { a: a.clone(), free_call: call, free_func: func };
        if memory {
            self.freed_mem.insert(addr, f);
        } else {
            self.freed_handles.insert(addr, f);
        }
        self.freed_order.push_back((memory, addr, call));
        while self.freed_order.len() > FREED_KEPT {
            let (m, k, c) = self.freed_order.pop_front().unwrap();
            let map_call = if m {
                self.freed_mem.get(&k).map(|f| f.free_call)
            } else {
                self.freed_handles.get(&k).map(|f| f.free_call)
            };
            if map_call == Some(c) {
                if m {
                    self.freed_mem.remove(&k);
                } else {
                    self.freed_handles.remove(&k);
                }
            }
        }
        Some(a)
    }

    /// `cudaDeviceReset` of `device`: its context's objects are gone (not leaked).
    pub fn reset(&mut self, device: i32, call: u64, func: &'static str) {
        let mem: Vec<usize> =
            self.mem.values().filter(|a| a.device == device && a.kind.dies_with_context()).map(|a| a.addr).collect();
        for p in mem {
            self.remove(p, true, call, func);
        }
        let hs: Vec<usize> = self
            .handles
            .values()
            .filter(|a| a.device == device && a.kind.dies_with_context())
            .map(|a| a.addr)
            .collect();
        for h in hs {
            self.remove(h, false, call, func);
        }
        self.foreign.clear();
    }

    pub fn misuse(&mut self, call: u64, func: &'static str, what: String) {
        record::misused();
        if self.misuse.len() < MISUSE_KEPT {
            self.misuse.push(Misuse { call, func, what });
        } else {
            self.misuse_dropped += 1;
        }
    }

    /// What `p` points into, for the trace of call `seq`: `device 0 alloc 0x..+4096 from #5,
    /// offset 16` (an allocation `seq` freed is shown as it was when it was called).
    pub fn describe(&self, p: usize, seq: u64) -> Option<String> {
        if let Some(a) = self.mem_holding(p) {
            let mut s = format!("{} {:#x}+{} from #{}", short(a), a.addr, a.size, a.call);
            if p != a.addr {
                let _ = write!(s, ", offset {}", p - a.addr);
            }
            return Some(s);
        }
        if let Some(f) = self.freed_holding(p) {
            if f.free_call == seq {
                let mut s = format!("{} {:#x}+{} from #{}", short(&f.a), f.a.addr, f.a.size, f.a.call);
                if p != f.a.addr {
                    let _ = write!(s, ", offset {}", p - f.a.addr);
                }
                return Some(s);
            }
            return Some(format!(
                "freed {} {:#x}+{} from #{}, freed by #{}",
                short(&f.a),
                f.a.addr,
                f.a.size,
                f.a.call,
                f.free_call
            ));
        }
        if let Some(k) = self.kernels.get(&p) {
            return Some(format!("kernel {}", demangle(k)));
        }
        None
    }

    /// What handle `h` is, for the trace of call `seq`.
    pub fn describe_handle(&self, h: usize, seq: u64) -> Option<String> {
        if let Some(a) = self.handles.get(&h) {
            return Some(format!("{} from #{}", a.kind.label(), a.call));
        }
        if let Some(f) = self.freed_handles.get(&h) {
            if f.free_call == seq {
                return Some(format!("{} from #{}", f.a.kind.label(), f.a.call));
            }
            return Some(format!("destroyed {} from #{}, destroyed by #{}", f.a.kind.label(), f.a.call, f.free_call));
        }
        if let Some(k) = self.kernels.get(&h) {
            return Some(format!("kernel {}", demangle(k)));
        }
        None
    }

    pub fn kernel_name(&self, f: usize) -> Option<String> {
        self.kernels.get(&f).cloned()
    }
}

/// `device 0 alloc`, `pinned`, `managed (device 0)`.
fn short(a: &Alloc) -> String {
    match a.kind {
        Kind::Device => format!("device {} alloc", a.device),
        Kind::Pitched => format!("device {} pitched alloc", a.device),
        Kind::Device3D => format!("device {} 3D alloc", a.device),
        Kind::Async => format!("device {} stream-ordered alloc", a.device),
        Kind::Managed => "managed alloc".to_string(),
        Kind::Pinned => "pinned alloc".to_string(),
        Kind::Registered => "registered range".to_string(),
        k => k.label().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alloc(kind: Kind, addr: usize, size: usize, call: u64) -> Alloc {
        Alloc { kind, addr, size, device: 0, call, func: "cudaMalloc", tid: 1, backtrace: None, elem: 0, export: 0 }
    }

    #[test]
    fn ranges_freed_ranges_and_peaks() {
        let mut s = State::default();
        s.add(alloc(Kind::Device, 0x1000, 0x100, 1));
        s.add(alloc(Kind::Device, 0x2000, 0x100, 2));
        assert_eq!(s.mem_holding(0x1010).unwrap().call, 1);
        assert!(s.mem_holding(0x1100).is_none());
        assert_eq!(s.describe(0x1010, 9).unwrap(), "device 0 alloc 0x1000+256 from #1, offset 16");
        assert_eq!(s.slots.len(), 2);
        s.remove(0x1000, true, 3, "cudaFree");
        assert_eq!((s.slots.len(), s.free_slots.len()), (1, 1));
        assert_eq!(s.freed_holding(0x1020).unwrap().free_call, 3);
        assert!(s.describe(0x1020, 9).unwrap().starts_with("freed device 0 alloc"));
        assert!(s.describe(0x1020, 3).unwrap().starts_with("device 0 alloc"));
        // Handed out again: no longer freed.
        s.add(alloc(Kind::Device, 0x1000, 0x80, 4));
        assert!(s.freed_holding(0x1020).is_none());
        s.add(alloc(Kind::Stream, 0x5000, 0, 5));
        s.reset(0, 6, "cudaDeviceReset");
        assert!(s.mem.is_empty() && s.handles.is_empty());
        assert_eq!(s.freed_handle(0x5000).unwrap().free_call, 6);
    }
}
