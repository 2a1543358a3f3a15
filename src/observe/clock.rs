//! The observer's clock: when observation began (on the system's monotonic clock, which the
//! timeline's times are: the same in every process of a host, and on its real-time clock, to
//! put the hosts of a job on one clock), and the time since this process began (a forked
//! child's fork).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// When observation started: that instant, and it on the monotonic clock (µs).
static START: OnceLock<(Instant, f64)> = OnceLock::new();
/// The real-time clock at the start (ns since 1970).
static START_UNIX_NS: AtomicU64 = AtomicU64::new(0);
/// Nanoseconds from [`START`] to when this process began (a forked child's fork).
static ORIGIN: AtomicU64 = AtomicU64::new(0);

fn clock_ns(id: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: valid out pointer.
    unsafe { libc::clock_gettime(id, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

fn base() -> &'static (Instant, f64) {
    START.get_or_init(|| {
        START_UNIX_NS.store(clock_ns(libc::CLOCK_REALTIME), Ordering::Relaxed);
        (Instant::now(), clock_ns(libc::CLOCK_MONOTONIC) as f64 / 1e3)
    })
}

/// Starts the clock (once, when observation starts).
pub fn start() {
    base();
}

/// The time since this process's observation began.
pub fn since_start() -> Duration {
    base().0.elapsed().saturating_sub(Duration::from_nanos(ORIGIN.load(Ordering::Relaxed)))
}

/// `t` on the system's monotonic clock, in microseconds (the timeline's time).
pub fn abs_us(t: Instant) -> f64 {
    let (i, us) = *base();
    match t.checked_duration_since(i) {
        Some(d) => us + d.as_nanos() as f64 / 1e3,
        None => us - (i - t).as_nanos() as f64 / 1e3,
    }
}

/// When this process began, on the monotonic and the real-time clock (ns).
pub fn began_ns() -> (u64, u64) {
    let origin = ORIGIN.load(Ordering::Relaxed);
    ((base().1 * 1e3) as u64 + origin, START_UNIX_NS.load(Ordering::Relaxed) + origin)
}

/// In a forked child: its time starts now.
pub fn forked() {
    ORIGIN.store(base().0.elapsed().as_nanos() as u64, Ordering::Relaxed);
}
