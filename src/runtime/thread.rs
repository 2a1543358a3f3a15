//! The runtime's per-thread state, in one block of thread-local storage: the last error, the
//! chosen device, the default-stream mode of the running export, and the stack of `<<<...>>>`
//! launch configurations.
//!
//! Every export reads this block, so reaching it must cost next to nothing. Rust's
//! `thread_local!` in a shared library goes through glibc's `__tls_get_addr`, which before
//! glibc 2.39 takes a slow path on every call once a library with thread-local storage has
//! been loaded after the thread's first access (glibc bug 19924), and the CUDA driver loads
//! several: it cost about 35 ns a call on the H100 machine. On x86-64 Linux the block is
//! therefore declared in assembly and reached through a TLS descriptor (`@TLSDESC`,
//! `@TLSCALL`): for a library loaded at program start, and for one loaded later while the
//! static TLS area has room, the dynamic linker resolves the descriptor to a function that
//! returns a constant offset (two instructions), and otherwise to its dynamic path, which
//! stays correct. Elsewhere the block is an ordinary `thread_local!`.
//!
//! The block is zero-filled when a thread starts, so every field is a type for which all
//! zero bytes are a valid value, and the zero value is each field's initial state.

use std::cell::Cell;
use std::ffi::c_int;

use crate::types::cudaError;
use crate::types::{cudaStream_t, dim3};

/// A `<<<grid, block, shared, stream>>>` launch configuration.
#[derive(Copy, Clone)]
#[repr(C)]
pub(crate) struct CallConfig {
    pub grid: dim3,
    pub block: dim3,
    pub shared: usize,
    pub stream: cudaStream_t,
}

/// How many pushed launch configurations fit in the block; deeper nesting (a kernel argument
/// whose evaluation launches a kernel, and so on) spills into a heap stack.
pub(crate) const CONFIGS: usize = 3;

/// One thread's state. All zero bytes is the initial state.
#[repr(C)]
pub(crate) struct Thread {
    /// The thread's last error (`cudaSuccess`, 0, for none).
    pub last_error: Cell<cudaError>,
    /// The device `cudaSetDevice` chose for this thread plus one; 0 until it chooses.
    pub device: Cell<c_int>,
    /// True while a `_ptds`/`_ptsz` export runs: the null stream is the per-thread stream.
    pub per_thread_stream: Cell<bool>,
    /// How many launch configurations are pushed (those beyond [`CONFIGS`] are in the heap
    /// stack).
    pub configs_len: Cell<u32>,
    pub configs: [Cell<CallConfig>; CONFIGS],
}

/// Bytes reserved for the block (it must fit).
#[allow(dead_code)]
const BLOCK: usize = 192;
const _: () = assert!(std::mem::size_of::<Thread>() <= BLOCK && std::mem::align_of::<Thread>() <= 64);

#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
mod imp {
    use super::Thread;

    // The block: BLOCK (192) zero bytes of thread-local storage, a hidden symbol of this library.
    std::arch::global_asm!(
        ".pushsection .tbss.cudart_rs_thread,\"awT\",@nobits",
        ".p2align 6",
        ".globl cudart_rs_thread",
        ".hidden cudart_rs_thread",
        ".type cudart_rs_thread,@object",
        ".size cudart_rs_thread, 192",
        "cudart_rs_thread:",
        ".zero 192",
        ".popsection",
    );

    /// This thread's block.
    #[inline(always)]
    pub(super) fn block() -> *const Thread {
        let offset: usize;
        let tp: usize;
        // SAFETY: the x86-64 TLS descriptor sequence for `cudart_rs_thread`: `rax` gets the
        // block's offset from the thread pointer. The resolver may be the dynamic linker's
        // general one, which older glibc versions let clobber vector registers: every
        // caller-saved register is declared clobbered. Then the thread pointer, which the
        // x86-64 ABI keeps at `%fs:0`.
        unsafe {
            std::arch::asm!(
                "lea rax, [rip + cudart_rs_thread@TLSDESC]",
                "call qword ptr [rax + cudart_rs_thread@TLSCALL]",
                out("rax") offset,
                clobber_abi("C"),
            );
            std::arch::asm!("mov {}, qword ptr fs:[0]", out(reg) tp, options(nostack, preserves_flags, readonly, pure));
        }
        tp.wrapping_add(offset) as *const Thread
    }
}

#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
mod imp {
    use super::Thread;

    thread_local! {
        // SAFETY: all zero bytes is a valid `Thread` (see the module documentation).
        static BLOCK: Thread = const { unsafe { std::mem::zeroed() } };
    }

    #[inline(always)]
    pub(super) fn block() -> *const Thread {
        BLOCK.with(|t| t as *const Thread)
    }
}

/// This thread's state. The reference must not leave the thread (`Thread` is not `Sync`, so
/// it cannot be sent) nor be kept past the export that took it.
#[inline(always)]
pub(crate) fn me() -> &'static Thread {
    // SAFETY: the block is this thread's, zero-filled at thread start, which is a valid
    // `Thread`; it lives as long as the thread.
    unsafe { &*imp::block() }
}

thread_local! {
    /// Launch configurations pushed beyond the [`CONFIGS`] the block holds.
    static SPILLED: std::cell::RefCell<Vec<CallConfig>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Pushes a launch configuration (`__cudaPushCallConfiguration`).
#[inline]
pub(crate) fn push_config(c: CallConfig) {
    let t = me();
    let n = t.configs_len.get() as usize;
    if n < CONFIGS {
        t.configs[n].set(c);
    } else {
        SPILLED.with(|s| s.borrow_mut().push(c));
    }
    t.configs_len.set(n as u32 + 1);
}

/// Pops the last pushed launch configuration (`__cudaPopCallConfiguration`).
#[inline]
pub(crate) fn pop_config() -> Option<CallConfig> {
    let t = me();
    let n = t.configs_len.get() as usize;
    if n == 0 {
        return None;
    }
    t.configs_len.set(n as u32 - 1);
    if n <= CONFIGS {
        Some(t.configs[n - 1].get())
    } else {
        SPILLED.with(|s| s.borrow_mut().pop())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(x: u32) -> CallConfig {
        CallConfig {
            grid: dim3 { x, y: 1, z: 1 },
            block: dim3 { x: 1, y: 1, z: 1 },
            shared: x as usize,
            stream: std::ptr::null_mut(),
        }
    }

    #[test]
    fn the_block_starts_zeroed_in_every_thread() {
        let t = std::thread::spawn(|| {
            let t = me();
            (t.last_error.get(), t.device.get(), t.per_thread_stream.get(), t.configs_len.get())
        });
        assert_eq!(t.join().unwrap(), (cudaError::cudaSuccess, 0, false, 0));
    }

    #[test]
    fn the_block_is_per_thread() {
        me().device.set(7);
        let other = std::thread::spawn(|| me().device.get()).join().unwrap();
        assert_eq!(other, 0);
        assert_eq!(me().device.get(), 7);
        me().device.set(0);
    }

    #[test]
    fn configurations_pop_in_reverse_order_past_the_block() {
        std::thread::spawn(|| {
            assert!(pop_config().is_none());
            for i in 0..10 {
                push_config(cfg(i));
            }
            for i in (0..10).rev() {
                let c = pop_config().unwrap();
                assert_eq!((c.grid.x, c.shared), (i, i as usize));
            }
            assert!(pop_config().is_none());
            push_config(cfg(42));
            assert_eq!(pop_config().unwrap().grid.x, 42);
        })
        .join()
        .unwrap();
    }
}
