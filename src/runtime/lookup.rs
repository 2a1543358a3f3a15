//! [`AddrMap`]: a map from addresses to addresses that readers search without taking a lock
//! and without writing to memory other threads share, for the launch path (host stub to
//! `CUkernel`), where sixteen threads launching at once must not contend on a lock word.
//!
//! Open addressing with linear probing in a power-of-two table of atomic slots. Writers
//! (first launches of a kernel, registrations, unregistrations: rare) take a mutex; a slot's
//! value is stored before its key is published, so a reader that finds the key finds its
//! value. A full table is replaced by one twice its size; the old tables are kept (their
//! sizes halve, so all of them together take less room than the last), so a reader still in
//! one never sees freed memory. Removing stores 0 as the value in every table: a reader then
//! misses and takes the caller's slow path.

use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

use parking_lot::Mutex;

struct Slot {
    key: AtomicUsize,
    val: AtomicUsize,
}

struct Table {
    mask: usize,
    slots: Box<[Slot]>,
}

impl Table {
    fn new(cap: usize) -> Box<Table> {
        let slots = (0..cap).map(|_| Slot { key: AtomicUsize::new(0), val: AtomicUsize::new(0) }).collect();
        Box::new(Table { mask: cap - 1, slots })
    }

    #[inline(always)]
    fn home(&self, key: usize) -> usize {
        // Fibonacci hashing: code addresses are aligned, their high bits of the product are not.
        (key as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(32) as usize & self.mask
    }

    /// The slot that holds `key`, or the empty one where it would go.
    fn find(&self, key: usize) -> &Slot {
        let mut i = self.home(key);
        loop {
            let s = &self.slots[i];
            let k = s.key.load(Ordering::Relaxed);
            if k == key || k == 0 {
                return s;
            }
            i = (i + 1) & self.mask;
        }
    }
}

struct Writer {
    /// Every table made, the current one last. Boxed: readers hold pointers to the tables,
    /// which must not move when the vector grows.
    #[allow(clippy::vec_box)]
    tables: Vec<Box<Table>>,
    /// Keys in the current table (removed ones included: their slots stay taken).
    used: usize,
}

/// Address to address; 0 is neither a key nor a value.
pub(crate) struct AddrMap {
    current: AtomicPtr<Table>,
    writer: Mutex<Writer>,
}

impl AddrMap {
    pub(crate) const fn new() -> AddrMap {
        AddrMap {
            current: AtomicPtr::new(std::ptr::null_mut()),
            writer: Mutex::new(Writer { tables: Vec::new(), used: 0 }),
        }
    }

    /// The value of `key`, if it has one.
    #[inline(always)]
    pub(crate) fn get(&self, key: usize) -> Option<usize> {
        let t = self.current.load(Ordering::Acquire);
        // SAFETY: tables are never freed while the map lives.
        let t = unsafe { t.as_ref() }?;
        let mut i = t.home(key);
        loop {
            let s = &t.slots[i];
            let k = s.key.load(Ordering::Acquire);
            if k == key {
                let v = s.val.load(Ordering::Acquire);
                return (v != 0).then_some(v);
            }
            if k == 0 {
                return None;
            }
            i = (i + 1) & t.mask;
        }
    }

    /// Sets the value of `key` (neither may be 0).
    pub(crate) fn insert(&self, key: usize, val: usize) {
        debug_assert!(key != 0 && val != 0);
        let mut w = self.writer.lock();
        if let Some(t) = w.tables.last() {
            let s = t.find(key);
            if s.key.load(Ordering::Relaxed) == key {
                s.val.store(val, Ordering::Release);
                return;
            }
        }
        let cap = w.tables.last().map_or(0, |t| t.slots.len());
        if (w.used + 1) * 2 > cap {
            let t = Table::new((cap * 2).max(64));
            let mut used = 0;
            if let Some(old) = w.tables.last() {
                for s in old.slots.iter() {
                    let (k, v) = (s.key.load(Ordering::Relaxed), s.val.load(Ordering::Relaxed));
                    if k != 0 && v != 0 {
                        let n = t.find(k);
                        n.val.store(v, Ordering::Relaxed);
                        n.key.store(k, Ordering::Relaxed);
                        used += 1;
                    }
                }
            }
            w.used = used;
            let p = &*t as *const Table as *mut Table;
            w.tables.push(t);
            self.current.store(p, Ordering::Release);
        }
        let t = w.tables.last().expect("a table");
        let s = t.find(key);
        s.val.store(val, Ordering::Release);
        s.key.store(key, Ordering::Release);
        w.used += 1;
    }

    /// Takes the value of `key` away, in every table a reader may still be in.
    pub(crate) fn remove(&self, key: usize) {
        let w = self.writer.lock();
        for t in &w.tables {
            let s = t.find(key);
            if s.key.load(Ordering::Relaxed) == key {
                s.val.store(0, Ordering::Release);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_get_replace_remove() {
        let m = AddrMap::new();
        assert_eq!(m.get(0x1000), None);
        m.insert(0x1000, 7);
        assert_eq!(m.get(0x1000), Some(7));
        assert_eq!(m.get(0x1010), None);
        m.insert(0x1000, 8);
        assert_eq!(m.get(0x1000), Some(8));
        m.remove(0x1000);
        assert_eq!(m.get(0x1000), None);
        m.insert(0x1000, 9);
        assert_eq!(m.get(0x1000), Some(9));
    }

    #[test]
    fn growth_keeps_every_entry_and_removal_reaches_old_tables() {
        let m = AddrMap::new();
        let keys: Vec<usize> = (1..=5000).map(|i| 0x40_0000 + i * 16).collect();
        for &k in &keys {
            m.insert(k, k ^ 0xabc);
        }
        for &k in &keys {
            assert_eq!(m.get(k), Some(k ^ 0xabc));
        }
        // A reader still in the first table.
        let first = {
            let w = m.writer.lock();
            &*w.tables[0] as *const Table
        };
        m.remove(keys[0]);
        assert_eq!(m.get(keys[0]), None);
        // SAFETY: tables live as long as the map.
        let s = unsafe { &*first }.find(keys[0]);
        assert_eq!(s.val.load(Ordering::Relaxed), 0);
        assert_eq!(m.get(keys[1]), Some(keys[1] ^ 0xabc));
    }

    #[test]
    fn readers_and_a_writer_at_once() {
        static M: AddrMap = AddrMap::new();
        std::thread::scope(|s| {
            s.spawn(|| {
                for i in 1..20_000usize {
                    M.insert(i * 32, i);
                }
            });
            for _ in 0..3 {
                s.spawn(|| {
                    for _ in 0..50 {
                        for i in 1..2000usize {
                            if let Some(v) = M.get(i * 32) {
                                assert_eq!(v, i);
                            }
                        }
                    }
                });
            }
        });
        for i in 1..20_000usize {
            assert_eq!(M.get(i * 32), Some(i));
        }
    }
}
