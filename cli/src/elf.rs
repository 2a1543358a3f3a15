//! What `doctor` reads of an ELF file: its interpreter, the libraries it needs and where it
//! asks the loader to look for them (64-bit little-endian files, as x86-64 and AArch64
//! Linux use).

use std::path::Path;

#[derive(Debug, Default, PartialEq)]
pub struct Elf {
    /// `PT_INTERP`: the dynamic loader (executables only).
    pub interp: Option<String>,
    pub needed: Vec<String>,
    pub soname: Option<String>,
    /// `DT_RPATH`: searched before `LD_LIBRARY_PATH`.
    pub rpath: Option<String>,
    /// `DT_RUNPATH`: searched after it.
    pub runpath: Option<String>,
}

fn u16_at(b: &[u8], o: usize) -> Option<u64> {
    Some(u16::from_le_bytes(b.get(o..o + 2)?.try_into().ok()?) as u64)
}
fn u32_at(b: &[u8], o: usize) -> Option<u64> {
    Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?) as u64)
}
fn u64_at(b: &[u8], o: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?))
}
fn cstr(b: &[u8], o: usize) -> Option<String> {
    let s = b.get(o..)?;
    let n = s.iter().position(|&c| c == 0)?;
    Some(String::from_utf8_lossy(&s[..n]).into_owned())
}

/// Reads `path`; `None` when it is not a 64-bit little-endian ELF file.
pub fn read(path: &Path) -> Option<Elf> {
    let b = std::fs::read(path).ok()?;
    parse(&b)
}

pub fn parse(b: &[u8]) -> Option<Elf> {
    if b.get(..4)? != b"\x7fELF" || *b.get(4)? != 2 || *b.get(5)? != 1 {
        return None;
    }
    let phoff = u64_at(b, 0x20)? as usize;
    let phentsize = u16_at(b, 0x36)? as usize;
    let phnum = u16_at(b, 0x38)? as usize;
    let mut e = Elf::default();
    // (vaddr, offset, filesz) of each PT_LOAD, to find the string table in the file.
    let mut loads = Vec::new();
    let mut dynamic = None;
    for i in 0..phnum {
        let p = phoff + i * phentsize;
        let (ty, off, vaddr, filesz) = (u32_at(b, p)?, u64_at(b, p + 8)?, u64_at(b, p + 16)?, u64_at(b, p + 32)?);
        match ty {
            1 => loads.push((vaddr, off, filesz)),
            2 => dynamic = Some((off as usize, filesz as usize)),
            3 => e.interp = cstr(b, off as usize),
            _ => {}
        }
    }
    let (doff, dsz) = dynamic?;
    let mut entries = Vec::new();
    let mut strtab = None;
    for i in 0..dsz / 16 {
        let (tag, val) = (u64_at(b, doff + i * 16)?, u64_at(b, doff + i * 16 + 8)?);
        match tag {
            0 => break,
            5 => strtab = Some(val),
            1 | 14 | 15 | 29 => entries.push((tag, val)),
            _ => {}
        }
    }
    let strtab = strtab?;
    let base =
        loads.iter().find(|(v, _, sz)| strtab >= *v && strtab < v + sz).map(|(v, o, _)| strtab - v + o)? as usize;
    for (tag, val) in entries {
        let s = cstr(b, base + val as usize)?;
        match tag {
            1 => e.needed.push(s),
            14 => e.soname = Some(s),
            15 => e.rpath = Some(s),
            _ => e.runpath = Some(s),
        }
    }
    Some(e)
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_this_program() {
        let e = super::read(&std::env::current_exe().unwrap()).expect("the test program is an ELF file");
        assert!(e.needed.iter().any(|n| n.starts_with("libc.so")), "{e:?}");
        assert!(e.interp.as_deref().is_some_and(|i| i.contains("ld-linux")), "{e:?}");
        assert_eq!(super::parse(b"#!/bin/sh\n"), None);
    }
}
