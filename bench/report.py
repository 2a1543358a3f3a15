#!/usr/bin/env python3
"""The benchmark's table: medians of every row per runtime, with spreads and ratios.

    python3 bench/report.py --kind nvidia RUN... --kind ours RUN... [--kind driver RUN...]
                            [--kind LABEL RUN...]...

Each RUN is one output of `bench runtime|driver` (lines `name<TAB>unit<TAB>value` or
`...<TAB>ERR code`). `nvidia` is NVIDIA's runtime, `ours` this build, `driver` the raw driver
API; any other label is another build of ours (bench/run.sh --against). Per row: the median of
the runs, ours/NVIDIA, ours minus the driver, and for each other build its median,
ours/other and other/NVIDIA; then each runtime's spread ((max - min) / median of its runs).
In brackets after a ratio, the same ratio of the best runs (the fastest run of each, for a
latency row): on a machine whose whole processes run in a fast or a slow state (seen on
H200 machines: the same library 1.3-1.6x apart from one run to the next) the best runs
compare the builds in the same state.

Marks: ✗ ours behind NVIDIA's beyond the spread (ours' best run worse than NVIDIA's worst);
⚠ ours worse than NVIDIA's by more than 2% within the spread; ▼ ours behind the other build
beyond the spread (ours' best run worse than the other's worst). Latency rows (ns) are better
low, the others (GB/s, Mcalls/s) high. The last lines count each mark; the exit status is 0.
"""
import statistics
import sys


def parse(argv):
    kinds, cur = {}, None
    it = iter(argv)
    for a in it:
        if a == "--kind":
            cur = next(it)
            kinds.setdefault(cur, [])
        elif cur is None:
            sys.exit("report: RUN before any --kind")
        else:
            kinds[cur].append(a)
    return kinds


def read(paths):
    rows = {}
    for p in paths:
        try:
            f = open(p)
        except OSError as e:
            print(f"report: cannot read {p}: {e}", file=sys.stderr)
            continue
        with f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                parts = line.rstrip("\n").split("\t")
                if len(parts) != 3:
                    continue
                name, unit, val = parts
                r = rows.setdefault(name, {"unit": unit, "v": [], "err": None})
                if val.startswith("ERR"):
                    r["err"] = val
                else:
                    r["v"].append(float(val))
    return rows


def fmt(v, unit):
    if unit == "ns":
        return f"{v:.1f} ns" if v < 100 else f"{v:.0f} ns"
    return f"{v:.2f} {unit}" if v < 10 else f"{v:.1f} {unit}"


def main():
    kinds = parse(sys.argv[1:])
    if "nvidia" not in kinds or "ours" not in kinds:
        sys.exit("report: needs --kind nvidia and --kind ours")
    data = {k: read(v) for k, v in kinds.items()}
    others = [k for k in kinds if k not in ("nvidia", "ours", "driver")]
    names = []
    for k in kinds:
        for n in data[k]:
            if n not in names:
                names.append(n)

    head = ["Row", "NVIDIA", "ours", "ours/NVIDIA (best runs)"]
    if "driver" in kinds:
        head += ["driver", "ours − driver"]
    for o in others:
        head += [o, f"ours/{o} (best runs)", f"{o}/NVIDIA"]
    spread_kinds = ["nvidia", "ours"] + (["driver"] if "driver" in kinds else []) + others
    head.append("spread " + " / ".join("NVIDIA" if k == "nvidia" else k for k in spread_kinds))
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))

    behind = slower = 0
    behind_other = {o: 0 for o in others}
    for name in names:
        unit = next(data[k][name]["unit"] for k in kinds if name in data[k])
        low = unit == "ns"
        cell, med, lo, hi = {}, {}, {}, {}
        for k in kinds:
            r = data[k].get(name)
            if r is None:
                cell[k] = "—"
            elif r["v"]:
                med[k] = statistics.median(r["v"])
                lo[k], hi[k] = min(r["v"]), max(r["v"])
                cell[k] = fmt(med[k], unit)
            else:
                cell[k] = "error" if r["err"] else "—"

        # best and worst of a runtime's runs, in the row's sense
        best = lambda k: lo[k] if low else hi[k]  # noqa: E731
        worst = lambda k: hi[k] if low else lo[k]  # noqa: E731
        worse = lambda a, b: a > b if low else a < b  # noqa: E731

        line = [name, cell["nvidia"], cell["ours"]]
        if "nvidia" in med and "ours" in med and med["nvidia"] > 0:
            mark = ""
            if worse(best("ours"), worst("nvidia")):
                mark, behind = " ✗", behind + 1
            elif worse(med["ours"], med["nvidia"] * (1.02 if low else 0.98)):
                mark, slower = " ⚠", slower + 1
            line.append(f"{med['ours'] / med['nvidia']:.2f}{mark} ({best('ours') / best('nvidia'):.2f})")
        else:
            line.append("—")
        if "driver" in kinds:
            line.append(cell["driver"])
            if "ours" in med and "driver" in med:
                d = med["ours"] - med["driver"]
                line.append(f"{d:+.1f} ns" if low else f"{d:+.2f} {unit}")
            else:
                line.append("—")
        for o in others:
            line.append(cell[o])
            if "ours" in med and o in med and med[o] > 0:
                mark = ""
                if worse(best("ours"), worst(o)):
                    mark = " ▼"
                    behind_other[o] += 1
                line.append(f"{med['ours'] / med[o]:.2f}{mark} ({best('ours') / best(o):.2f})")
            else:
                line.append("—")
            line.append(f"{med[o] / med['nvidia']:.2f}" if o in med and med.get("nvidia") else "—")
        spreads = []
        for k in spread_kinds:
            r = data[k].get(name)
            if k in med and len(r["v"]) > 1 and med[k] > 0:
                spreads.append(f"{100 * (hi[k] - lo[k]) / med[k]:.0f}%")
            else:
                spreads.append("—")
        line.append(" / ".join(spreads))
        print("| " + " | ".join(line) + " |")

    print()
    print(f"Rows where ours is behind NVIDIA's beyond the spread of the runs (ours' best run worse than NVIDIA's "
          f"worst, ✗): {behind}; worse by more than 2% within the spread (⚠): {slower}.")
    for o in others:
        print(f"Rows where ours is behind {o} beyond the spread (ours' best run worse than {o}'s worst, ▼): "
              f"{behind_other[o]}.")


if __name__ == "__main__":
    main()
