//! The locks of the observer's state: a lock whose holder panicked is taken as it is (the
//! state is figures, still usable), a report made at exit waits a while only ([`Lock::within`]:
//! another thread may be stopped holding it), and a forked child is handed its locks by the
//! fork handlers, which hold them across the fork (`std`'s mutex, released in the child
//! without touching anything of the threads the child does not have).

use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

pub struct Lock<T>(Mutex<T>);

impl<T> Lock<T> {
    pub const fn new(v: T) -> Lock<T> {
        Lock(Mutex::new(v))
    }

    pub fn lock(&self) -> MutexGuard<'_, T> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn try_lock(&self) -> Option<MutexGuard<'_, T>> {
        match self.0.try_lock() {
            Ok(g) => Some(g),
            Err(TryLockError::Poisoned(e)) => Some(e.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        }
    }

    /// The lock, if it can be had within `d`.
    pub fn within(&self, d: Duration) -> Option<MutexGuard<'_, T>> {
        let until = Instant::now() + d;
        loop {
            if let Some(g) = self.try_lock() {
                return Some(g);
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}
