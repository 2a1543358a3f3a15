//! The summary: what one process (or several, added up) did with the runtime. Made from a
//! process's record ([`crate::record`]) by the library at exit and by the `cudart-rs` command
//! afterwards; printed as tables ([`Summary::render`], as `nsys --stats` lays them out) or
//! written as tab-separated lines ([`Summary::records`], read back by [`Summary::parse`]);
//! several are added up by [`Summary::add`].

use std::fmt::Write as _;

use crate::kinds::Dir;
use crate::text::{commas, commas_f};

/// The process a summary describes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Proc {
    pub pid: u32,
    /// The host it ran on.
    pub host: String,
    pub exe: String,
    pub rank: Option<String>,
    pub cmd: String,
    /// Seconds from the start of observation to the report.
    pub seconds: f64,
}

/// One function's calls.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    pub name: String,
    pub calls: u64,
    pub errors: u64,
    /// Nanoseconds in all, least, most, and the sum of their squares.
    pub total: u64,
    pub min: u64,
    pub max: u64,
    pub sq: f64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// The processes summed up here (one for a process's own summary).
    pub procs: Vec<Proc>,
    pub rows: Vec<Row>,
    /// Copies and bytes per direction, in [`Dir::ALL`] order.
    pub dirs: [(u64, u64); 5],
    /// (source kind, destination kind) -> copies, bytes; in the order to print.
    pub kinds: Vec<(String, String, u64, u64)>,
    pub memset: (u64, u64),
    /// Memory kind -> bytes held at exit, at the peak.
    pub held: Vec<(String, u64, u64)>,
    /// Kernel -> launches that ran, that failed.
    pub launches: Vec<(String, u64, u64)>,
    pub graph_launches: u64,
}

impl Proc {
    /// `pid 1234, prog, rank 0`.
    pub fn label(&self) -> String {
        let mut s = format!("pid {}, {}", self.pid, if self.exe.is_empty() { "?" } else { &self.exe });
        if let Some(r) = &self.rank {
            let _ = write!(s, ", rank {r}");
        }
        s
    }
}

impl Row {
    pub fn avg(&self) -> f64 {
        if self.calls == 0 {
            0.0
        } else {
            self.total as f64 / self.calls as f64
        }
    }
    /// The sample standard deviation.
    pub fn stddev(&self) -> f64 {
        let avg = self.avg();
        if self.calls > 1 {
            ((self.sq - self.calls as f64 * avg * avg) / (self.calls - 1) as f64).max(0.0).sqrt()
        } else {
            0.0
        }
    }
}

impl Summary {
    /// Calls in all.
    pub fn calls(&self) -> u64 {
        self.rows.iter().map(|r| r.calls).sum()
    }
    pub fn errors(&self) -> u64 {
        self.rows.iter().map(|r| r.errors).sum()
    }
    /// Nanoseconds in calls, in all.
    pub fn time(&self) -> u64 {
        self.rows.iter().map(|r| r.total).sum()
    }
    pub fn bytes_copied(&self) -> u64 {
        self.dirs.iter().map(|d| d.1).sum()
    }
    pub fn kernel_launches(&self) -> u64 {
        self.launches.iter().map(|l| l.1).sum()
    }

    /// The tables under the header line: calls per function (as `nsys --stats`' cuda_api_sum
    /// lays them out, plus errors), copies by direction and by memory kind, memory held,
    /// kernel launches.
    pub fn tables(&self, held_title: &str) -> String {
        let mut o = String::new();
        let mut rows: Vec<&Row> = self.rows.iter().filter(|r| r.calls > 0).collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.total));
        let all: u64 = rows.iter().map(|r| r.total).sum();
        let _ = writeln!(o, "\nCUDA API calls:");
        let _ = writeln!(o, " Time (%)  Total Time (ns)  Num Calls  Errors      Avg (ns)      Min (ns)      Max (ns)   StdDev (ns)  Name");
        let _ = writeln!(o, " --------  ---------------  ---------  ------  ------------  ------------  ------------  ------------  ----");
        for r in rows {
            let pct = if all > 0 { 100.0 * r.total as f64 / all as f64 } else { 0.0 };
            let _ = writeln!(
                o,
                " {:>8.1}  {:>15}  {:>9}  {:>6}  {:>12}  {:>12}  {:>12}  {:>12}  {}",
                pct,
                commas(r.total),
                commas(r.calls),
                commas(r.errors),
                commas_f(r.avg()),
                commas(r.min),
                commas(r.max),
                commas_f(r.stddev()),
                r.name
            );
        }
        let _ = writeln!(o, "\nMemory copies by direction:");
        let _ = writeln!(o, " Direction      Copies            Bytes");
        for (d, (n, b)) in Dir::ALL.iter().zip(self.dirs) {
            let _ = writeln!(o, " {:<9}  {:>10}  {:>15}", d.label(), commas(n), commas(b));
        }
        let _ = writeln!(o, "\nMemory copies by memory kind (source -> destination):");
        let _ = writeln!(o, " Kinds                      Copies            Bytes");
        for (s, d, n, b) in &self.kinds {
            let _ = writeln!(o, " {:<25}  {:>6}  {:>15}", format!("{s} -> {d}"), commas(*n), commas(*b));
        }
        let _ = writeln!(o, " memset                     {:>6}  {:>15}", commas(self.memset.0), commas(self.memset.1));
        let _ = writeln!(o, "\nMemory held (bytes):");
        let _ = writeln!(o, " Memory                 At exit{held_title:>17}");
        for (name, now, peak) in &self.held {
            let _ = writeln!(o, " {:<15}  {:>15}  {:>15}", name, commas(*now), commas(*peak));
        }
        let _ = writeln!(o, "\nKernel launches:");
        let _ = writeln!(o, "   Launches    Failed  Kernel");
        let mut ks: Vec<&(String, u64, u64)> = self.launches.iter().collect();
        ks.sort_by(|a, b| (b.1 + b.2).cmp(&(a.1 + a.2)).then(a.0.cmp(&b.0)));
        for (name, ok, failed) in ks {
            let _ = writeln!(o, " {:>10}  {:>8}  {}", commas(*ok), commas(*failed), name);
        }
        let _ = writeln!(o, " graph launches: {}", commas(self.graph_launches));
        o
    }

    /// One process's summary, as text.
    pub fn render(&self) -> String {
        let p = self.procs.first().cloned().unwrap_or_default();
        let mut o = format!("==== cudart-rs summary ({}, {:.3} s) ====\n", p.label(), p.seconds);
        o.push_str(&self.tables("Peak"));
        o
    }

    /// The figures as tab-separated records, a block per process (`process` first, `end`
    /// last), for the `cudart-rs` command to add up.
    pub fn records(&self) -> String {
        let mut o = String::new();
        let p = self.procs.first().cloned().unwrap_or_default();
        let _ = writeln!(
            o,
            "process\t{}\t{}\t{}\t{}\t{}\t{}",
            p.pid,
            clean(&p.exe),
            clean(p.rank.as_deref().unwrap_or("")),
            p.seconds,
            clean(&p.cmd),
            clean(&p.host)
        );
        for r in &self.rows {
            let _ = writeln!(
                o,
                "call\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                clean(&r.name),
                r.calls,
                r.errors,
                r.total,
                r.min,
                r.max,
                r.sq
            );
        }
        for (d, (n, b)) in Dir::ALL.iter().zip(self.dirs) {
            let _ = writeln!(o, "dir\t{}\t{n}\t{b}", d.label());
        }
        for (s, d, n, b) in &self.kinds {
            let _ = writeln!(o, "kind\t{s}\t{d}\t{n}\t{b}");
        }
        let _ = writeln!(o, "memset\t{}\t{}", self.memset.0, self.memset.1);
        for (name, now, peak) in &self.held {
            let _ = writeln!(o, "held\t{}\t{now}\t{peak}", clean(name));
        }
        for (name, ok, failed) in &self.launches {
            let _ = writeln!(o, "launch\t{}\t{ok}\t{failed}", clean(name));
        }
        let _ = writeln!(o, "graph\t{}", self.graph_launches);
        let _ = writeln!(o, "end");
        o
    }

    /// The summaries in a records file: every whole block (one cut short is left out).
    pub fn parse(text: &str) -> Vec<Summary> {
        let mut out = Vec::new();
        let mut cur: Option<Summary> = None;
        for line in text.lines() {
            let f: Vec<&str> = line.split('\t').collect();
            let n = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
            let s = |i: usize| f.get(i).map_or(String::new(), |v| v.to_string());
            match f[0] {
                "process" => {
                    cur = Some(Summary {
                        procs: vec![Proc {
                            pid: n(1) as u32,
                            exe: s(2),
                            rank: Some(s(3)).filter(|r| !r.is_empty()),
                            seconds: f.get(4).and_then(|v| v.parse().ok()).unwrap_or(0.0),
                            cmd: s(5),
                            host: s(6),
                        }],
                        ..Summary::default()
                    })
                }
                "end" => out.extend(cur.take()),
                _ => {
                    let Some(c) = cur.as_mut() else { continue };
                    match f[0] {
                        "call" => c.rows.push(Row {
                            name: s(1),
                            calls: n(2),
                            errors: n(3),
                            total: n(4),
                            min: n(5),
                            max: n(6),
                            sq: f.get(7).and_then(|v| v.parse().ok()).unwrap_or(0.0),
                        }),
                        "dir" => {
                            if let Some(i) = Dir::ALL.iter().position(|d| d.label() == f.get(1).copied().unwrap_or(""))
                            {
                                c.dirs[i] = (n(2), n(3));
                            }
                        }
                        "kind" => c.kinds.push((s(1), s(2), n(3), n(4))),
                        "memset" => c.memset = (n(1), n(2)),
                        "held" => c.held.push((s(1), n(2), n(3))),
                        "launch" => c.launches.push((s(1), n(2), n(3))),
                        "graph" => c.graph_launches = n(1),
                        _ => {}
                    }
                }
            }
        }
        out
    }

    /// Adds another summary's figures to these (its processes to the list; memory held at
    /// exit and peaks are summed over processes).
    pub fn add(&mut self, o: &Summary) {
        self.procs.extend(o.procs.iter().cloned());
        for r in &o.rows {
            match self.rows.iter_mut().find(|x| x.name == r.name) {
                Some(x) => {
                    x.min = if x.calls == 0 { r.min } else { x.min.min(r.min) };
                    x.calls += r.calls;
                    x.errors += r.errors;
                    x.total += r.total;
                    x.max = x.max.max(r.max);
                    x.sq += r.sq;
                }
                None => self.rows.push(r.clone()),
            }
        }
        for i in 0..Dir::ALL.len() {
            self.dirs[i].0 += o.dirs[i].0;
            self.dirs[i].1 += o.dirs[i].1;
        }
        for (s, d, n, b) in &o.kinds {
            match self.kinds.iter_mut().find(|k| &k.0 == s && &k.1 == d) {
                Some(k) => {
                    k.2 += n;
                    k.3 += b;
                }
                None => self.kinds.push((s.clone(), d.clone(), *n, *b)),
            }
        }
        self.memset.0 += o.memset.0;
        self.memset.1 += o.memset.1;
        add_named(&mut self.held, &o.held);
        add_named(&mut self.launches, &o.launches);
        self.graph_launches += o.graph_launches;
    }
}

/// Adds `o`'s named pairs of figures (memory held and its peak, launches and failures) to
/// `v`'s of the same name.
fn add_named(v: &mut Vec<(String, u64, u64)>, o: &[(String, u64, u64)]) {
    for (name, a, b) in o {
        match v.iter_mut().find(|x| &x.0 == name) {
            Some(x) => {
                x.1 += a;
                x.2 += b;
            }
            None => v.push((name.clone(), *a, *b)),
        }
    }
}

/// A field without tabs or line breaks.
fn clean(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(pid: u32, calls: u64, total: u64) -> Summary {
        Summary {
            procs: vec![Proc {
                pid,
                host: "node1".into(),
                exe: "prog".into(),
                rank: Some(pid.to_string()),
                cmd: "prog\targ".into(),
                seconds: 1.5,
            }],
            rows: vec![Row {
                name: "cudaMalloc".into(),
                calls,
                errors: 1,
                total,
                min: 10,
                max: total,
                sq: (total * total) as f64,
            }],
            dirs: [(1, 100), (0, 0), (0, 0), (0, 0), (0, 0)],
            kinds: vec![("pageable".into(), "device".into(), 1, 100)],
            memset: (2, 64),
            held: vec![("device".into(), 4096, 8192)],
            launches: vec![("_Z1kv".into(), 3, 1)],
            graph_launches: 1,
        }
    }

    #[test]
    fn records_read_back() {
        let a = one(7, 2, 50);
        let text = a.records();
        let back = Summary::parse(&text);
        assert_eq!(back.len(), 1);
        let mut want = a.clone();
        want.procs[0].cmd = "prog arg".into();
        assert_eq!(back[0], want);
        // A block cut short (a process killed while writing) is left out.
        let two = format!("{text}{}", &one(8, 1, 5).records()[..40]);
        assert_eq!(Summary::parse(&two).len(), 1);
    }

    #[test]
    fn summaries_add_up() {
        let mut t = Summary::default();
        t.add(&one(7, 2, 50));
        t.add(&one(8, 3, 70));
        assert_eq!(t.procs.len(), 2);
        assert_eq!(t.rows.len(), 1);
        let r = &t.rows[0];
        assert_eq!((r.calls, r.errors, r.total, r.min, r.max), (5, 2, 120, 10, 70));
        assert_eq!(t.dirs[0], (2, 200));
        assert_eq!(t.kinds, vec![("pageable".into(), "device".into(), 2, 200)]);
        assert_eq!(t.memset, (4, 128));
        assert_eq!(t.held, vec![("device".into(), 8192, 16384)]);
        assert_eq!(t.launches, vec![("_Z1kv".into(), 6, 2)]);
        assert_eq!(t.graph_launches, 2);
        assert_eq!((t.calls(), t.errors(), t.time(), t.bytes_copied(), t.kernel_launches()), (5, 2, 120, 200, 6));
        assert!(t.tables("Peak (sum)").contains("cudaMalloc"));
    }
}
