//! The pipeline's chunking and ordering against a copy engine that runs its DMAs late (as a
//! GPU does), the threaded host copy, and the configuration.

use super::*;

#[test]
fn configuration() {
    let d = Config::parse(None, 16);
    assert_eq!(d, Config { threads: 8, staging: 32 << 20, min: 4 << 20 });
    assert_eq!(Config::parse(None, 2).threads, 1);
    assert_eq!(Config::parse(None, 64).threads, 8);
    assert!(d.on());
    assert!(!Config::parse(Some("0"), 16).on());
    assert!(!Config::parse(Some("off"), 16).on());
    assert!(!Config::parse(Some("threads=0"), 16).on());
    assert!(!Config::parse(Some("staging=0"), 16).on());
    // Less staging than four minimal chunks is off.
    assert!(!Config::parse(Some("staging=512k"), 16).on());
    let c = Config::parse(Some(" threads=4, staging=16M ,min=1m"), 16);
    assert_eq!(c, Config { threads: 4, staging: 16 << 20, min: 1 << 20 });
    // Unknown or malformed items are ignored.
    let c = Config::parse(Some("speed=max,threads=x,min=300000"), 16);
    assert_eq!(c, Config { threads: 8, staging: 32 << 20, min: 300000 });
    // The smallest minimum is one chunk.
    assert_eq!(Config::parse(Some("min=1"), 16).min, MIN_CHUNK);
    assert_eq!(size("3G"), Some(3 << 30));
    assert_eq!(size("12"), Some(12));
    assert_eq!(size("k"), None);
    assert_eq!(size(""), None);
    assert_eq!(size("99999999999999999999G"), None);
}

#[test]
fn chunks_are_a_sixteenth_within_bounds() {
    let buf = 8 << 20;
    assert_eq!(chunk(1, buf), MIN_CHUNK);
    assert_eq!(chunk(4 << 20, buf), MIN_CHUNK);
    assert_eq!(chunk(64 << 20, buf), 4 << 20);
    assert_eq!(chunk(1 << 30, buf), buf);
    assert_eq!(chunk((64 << 20) + (1 << 20), buf), (4 << 20) + (64 << 10));
    assert_eq!(chunk((64 << 20) + 1, buf), 4 << 20);
    assert_eq!(chunk(100, 1000), MIN_CHUNK);
}

/// A DMA that has been started and not yet run.
enum Dma {
    ToDevice { b: usize, off: usize, n: usize },
    FromDevice { b: usize, off: usize, n: usize },
}

/// A copy engine whose DMAs run only when waited for (or at `finish`), so a pipeline that
/// touches a staging buffer before its DMA is done copies the wrong bytes, and one that
/// starts a DMA on a busy buffer fails the test.
struct LateEngine {
    device: Vec<u8>,
    staging: Vec<Vec<u8>>,
    pending: Vec<Option<Dma>>,
    dmas: usize,
}

impl LateEngine {
    fn new(device: Vec<u8>, nbuf: usize, buf: usize) -> LateEngine {
        LateEngine {
            device,
            staging: (0..nbuf).map(|_| vec![0xee; buf]).collect(),
            pending: (0..nbuf).map(|_| None).collect(),
            dmas: 0,
        }
    }

    fn run(&mut self, b: usize) {
        match self.pending[b].take() {
            Some(Dma::ToDevice { b, off, n }) => self.device[off..off + n].copy_from_slice(&self.staging[b][..n]),
            Some(Dma::FromDevice { b, off, n }) => self.staging[b][..n].copy_from_slice(&self.device[off..off + n]),
            None => {}
        }
    }

    /// The DMAs still pending complete (later, on the GPU).
    fn finish(&mut self) {
        for b in 0..self.pending.len() {
            self.run(b);
        }
    }

    fn start(&mut self, b: usize, dma: Dma) -> Res {
        assert!(self.pending[b].is_none(), "a DMA started on buffer {b} while its last one runs");
        self.pending[b] = Some(dma);
        self.dmas += 1;
        Ok(())
    }
}

impl Engine for LateEngine {
    fn staging(&self, b: usize) -> *mut u8 {
        self.staging[b].as_ptr() as *mut u8
    }
    fn to_device(&mut self, b: usize, off: usize, n: usize) -> Res {
        assert!(off + n <= self.device.len() && n <= self.staging[b].len());
        self.start(b, Dma::ToDevice { b, off, n })
    }
    fn from_device(&mut self, b: usize, off: usize, n: usize) -> Res {
        assert!(off + n <= self.device.len() && n <= self.staging[b].len());
        self.start(b, Dma::FromDevice { b, off, n })
    }
    fn wait(&mut self, b: usize) -> Res {
        self.run(b);
        Ok(())
    }
}

fn pattern(n: usize, seed: u8) -> Vec<u8> {
    (0..n).map(|i| (i as u32).wrapping_mul(2654435761).rotate_left(7) as u8 ^ seed).collect()
}

fn plain(d: *mut u8, s: *const u8, n: usize) {
    // SAFETY: the pipeline's ranges.
    unsafe { std::ptr::copy_nonoverlapping(s, d, n) }
}

const SIZES: &[usize] =
    &[1, 3, 4095, 4096, 4097, 65535, MIN_CHUNK - 1, MIN_CHUNK, MIN_CHUNK + 1, 3 * MIN_CHUNK + 17, 10 * MIN_CHUNK + 3];

#[test]
fn to_device_with_late_dmas_and_a_source_reused_at_once() {
    for nbuf in 1..=4 {
        for &n in SIZES {
            for skew in [0usize, 1, 7] {
                let mut host = pattern(n + skew, nbuf as u8);
                let want = host[skew..].to_vec();
                let mut e = LateEngine::new(vec![0; n], nbuf, MIN_CHUNK);
                to_device(&mut e, &plain, host[skew..].as_ptr(), n, MIN_CHUNK, nbuf).unwrap();
                // The caller reuses its buffer as soon as the call returns.
                host.iter_mut().for_each(|b| *b = !*b);
                e.finish();
                assert!(e.device == want, "size {n}, skew {skew}, {nbuf} buffers");
                assert_eq!(e.dmas, n.div_ceil(MIN_CHUNK));
            }
        }
    }
}

#[test]
fn from_device_with_late_dmas() {
    for nbuf in 1..=4 {
        for &n in SIZES {
            for skew in [0usize, 3] {
                let dev = pattern(n, 0x5a ^ nbuf as u8);
                let mut host = vec![0x11u8; n + skew + 5];
                let mut e = LateEngine::new(dev.clone(), nbuf, MIN_CHUNK);
                from_device(&mut e, &plain, host[skew..].as_mut_ptr(), n, MIN_CHUNK, nbuf).unwrap();
                assert!(host[skew..skew + n] == dev[..], "size {n}, skew {skew}, {nbuf} buffers");
                assert!(
                    host[..skew].iter().chain(&host[skew + n..]).all(|&b| b == 0x11),
                    "bytes around the copy are untouched"
                );
                assert_eq!(e.dmas, n.div_ceil(MIN_CHUNK));
            }
        }
    }
}

#[test]
fn an_engine_error_stops_the_pipeline() {
    struct Failing(LateEngine, usize);
    impl Engine for Failing {
        fn staging(&self, b: usize) -> *mut u8 {
            self.0.staging(b)
        }
        fn to_device(&mut self, b: usize, off: usize, n: usize) -> Res {
            if self.0.dmas == self.1 {
                return Err(crate::types::cudaError::cudaErrorIllegalAddress);
            }
            self.0.to_device(b, off, n)
        }
        fn from_device(&mut self, b: usize, off: usize, n: usize) -> Res {
            if self.0.dmas == self.1 {
                return Err(crate::types::cudaError::cudaErrorIllegalAddress);
            }
            self.0.from_device(b, off, n)
        }
        fn wait(&mut self, b: usize) -> Res {
            self.0.wait(b)
        }
    }
    let n = 5 * MIN_CHUNK;
    let host = pattern(n, 1);
    let mut e = Failing(LateEngine::new(vec![0; n], 2, MIN_CHUNK), 3);
    assert_eq!(
        to_device(&mut e, &plain, host.as_ptr(), n, MIN_CHUNK, 2),
        Err(crate::types::cudaError::cudaErrorIllegalAddress)
    );
    let mut out = vec![0u8; n];
    let mut e = Failing(LateEngine::new(host.clone(), 2, MIN_CHUNK), 3);
    assert_eq!(
        from_device(&mut e, &plain, out.as_mut_ptr(), n, MIN_CHUNK, 2),
        Err(crate::types::cudaError::cudaErrorIllegalAddress)
    );
}

#[test]
fn the_threaded_host_copy_copies_every_byte() {
    let c = Copier::start(3);
    c.begin();
    for &n in &[0usize, 1, 4095, MIN_PIECE, MIN_PIECE + 1, 4 * MIN_PIECE - 3, 37 * MIN_PIECE + 4093] {
        for skew in [0usize, 1, 13] {
            let src = pattern(n + skew, 9);
            let mut dst = vec![0u8; n + 2 * skew + 1];
            c.copy(dst[skew..].as_mut_ptr(), src[skew..].as_ptr(), n);
            assert!(dst[skew..skew + n] == src[skew..], "size {n}, skew {skew}");
            assert!(dst[..skew].iter().chain(&dst[skew + n..]).all(|&b| b == 0), "bytes around the copy are untouched");
        }
    }
    c.end();
    // Outside a pipelined copy the caller copies alone.
    let src = pattern(8 * MIN_PIECE, 3);
    let mut dst = vec![0u8; src.len()];
    c.copy(dst.as_mut_ptr(), src.as_ptr(), src.len());
    assert_eq!(dst, src);
}

#[test]
fn the_pipeline_with_the_threaded_copy() {
    let c = Copier::start(2);
    let copy = |d: *mut u8, s: *const u8, n: usize| c.copy(d, s, n);
    c.begin();
    for &n in &[MIN_CHUNK * 7 + 11, 3 * 1024 * 1024 + 5] {
        let ch = chunk(n, 1 << 20);
        let host = pattern(n, 4);
        let mut e = LateEngine::new(vec![0; n], 4, 1 << 20);
        to_device(&mut e, &copy, host.as_ptr(), n, ch, 4).unwrap();
        e.finish();
        assert!(e.device == host);
        let mut back = vec![0u8; n];
        from_device(&mut e, &copy, back.as_mut_ptr(), n, ch, 4).unwrap();
        assert!(back == host);
    }
    c.end();
}
