#!/usr/bin/env python3
"""Datatype engine benchmark side by side: Tessera (interpreter and JIT), Open MPI and MPICH.

ddt_bench.c (with ddt_parse.c) is built with build/bin/mpicc, mpicc.openmpi and mpicc.mpich, and run
with 1 rank bound to a core, variant after variant, round after round (A B C D A B C D ...):
  Tessera-interp  build/bin/mpirun -np 1 --bind-to core --mca dte interp
  Tessera-jit     build/bin/mpirun -np 1 --bind-to core --mca dte jit --mca dte_jit_verbose 1
                  (its stderr lines "dte jit: type <hash> ready <ms> ms (compile <ms> ms, ...)" give the
                  time from commit to compiled code, attributed to the type ddt_bench announced last)
  Open MPI        mpirun.openmpi -np 1 --bind-to core
  MPICH           mpirun.mpich -np 1 -bind-to core
on the built-in layouts and the corpus files (default: every .ddt in the corpus directory). It prints
a Markdown table of the built-in layouts (pack and unpack GB/s, medians over the rounds with min-max,
the hand-written loop, memcpy, commit time, ratios), a summary over the MILC and NAS LU corpus (median
and worst ratio of Tessera-jit to Open MPI and to MPICH), and PASS/MISS for the issue's targets:
  JIT pack >= 0.9 x the hand-written loop on the simple layouts (the built-ins that have one);
  JIT pack >= 5 x Open MPI's MPI_Pack on the strided vectors (vec_*);
  JIT >= MPICH on every layout (pack and unpack), and >= 2 x MPICH on the nested corpus types (median;
  nested: two or more constructors deep and not contiguous);
  MPI_Type_commit < 2 us for every corpus type (Tessera-jit).
A variant that cannot build or run (or whose runtime lacks a datatype call) is reported as n/a with
the reason. Duplicated corpus types are measured once (ddt_bench prints them as "dup").

usage: tools/bench/ddt/ddt_bench.py [--build build] [--rounds 3] [--skip-tessera] [--variants A,B] [--check]
                                    [--corpus DIR | --files F.ddt ...] [--filter S] [--quick]
                                    [--baseline-build DIR] [--timeline TYPE,...]
--baseline-build DIR adds Tessera-jit-base and Tessera-interp-base, the same launchers from another build
(the code before a change), interleaved with the rest. --timeline runs, per round and variant, one process
per named type that commits it and packs it back to back (ddt_bench --timeline-ms), and prints the GB/s
over time (buckets of --bucket-ms) and the time until the rate first reaches 80 % of its last 100 ms:
how soon compiled code arrives for the first type a process commits.
"""
import argparse
import glob
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPUS = os.environ.get("TESSERA_DDT_CORPUS",
                                os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tests", "data", "ddt-corpus"))
JIT_RE = re.compile(r"dte jit: type (\S+) ready ([0-9.eE+-]+) ms \(compile ([0-9.eE+-]+) ms")
SIMPLE = ("contig", "vec_b1_s2", "vec_b1_s16", "vec_b8_s16", "vec_b8_s128", "indexed_block", "struct",
          "subarray2d", "subarray3d_z", "subarray3d_y")
SUBJECT = "Tessera-jit"
JIT_WAIT_MS = 200  # MPI_Pack calls before a type's first figure under Tessera-jit, for a compile in the background


class Variant:
    def __init__(self, name, compiler, launcher, extra_args=(), env=None):
        self.name, self.compiler, self.launcher = name, compiler, launcher
        self.extra_args, self.env = list(extra_args), env or {}
        self.exe = None
        self.na = None          # reason the variant has no figures at all
        self.notes = []         # problems of single runs or types
        self.runs = 0
        self.rc = 0             # exit status of the last run


def tail(text, n=3):
    lines = [l for l in text.splitlines() if l.strip()]
    return " | ".join(lines[-n:])[-400:]


def build(v, work, env):
    if v.compiler is None:
        return
    exe = os.path.join(work, "ddt_bench_" + re.sub(r"[^a-z]", "", v.name.lower()))
    cmd = [v.compiler, "-O3", "-o", exe, os.path.join(HERE, "ddt_bench.c"), os.path.join(HERE, "ddt_parse.c")]
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as err:
        v.na = f"cannot build: {err}"
        return
    if p.returncode != 0:
        v.na = f"does not build with {v.compiler}: {tail(p.stderr.decode(errors='replace'))}"
        return
    v.exe = exe


def run_variant(v, args, env, timeout):
    """Runs v once; returns (figures {type: {figure: value}}, info {type: {...}}, errors {type: msg}, jit)."""
    cmd = v.launcher + [v.exe] + args + v.extra_args
    try:
        p = subprocess.run(cmd, env=dict(env, **v.env), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as err:
        return None, f"{err}"
    out, errtext = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    figures, info, errors, jit = {}, {}, {}, {}
    for line in out.splitlines():
        parts = line.split(None, 2)
        if len(parts) < 3:
            continue
        name, fig, val = parts
        if fig == "error":
            errors[name] = val
            continue
        try:
            figures.setdefault(name, {})[fig] = float(val)
        except ValueError:
            info.setdefault(name, {})[fig] = val
    current = None
    for line in errtext.splitlines():
        if line.startswith("ddt_bench: type "):
            current = line.split()[2]
            continue
        m = JIT_RE.search(line)
        if m and current and current not in jit:
            jit[current] = (float(m.group(2)), float(m.group(3)))
    measured = [n for n, f in figures.items()
                if "pack_gbs" in f or any(k.startswith("window_") for k in f) or "check" in info.get(n, {})]
    if not measured and not any("check" in i for i in info.values()):
        reason = next(iter(errors.values()), None) if errors else None
        if reason is None:
            reason = f"exited {p.returncode}: {tail(errtext)}" if p.returncode else "printed no figures"
        return None, reason
    return (figures, info, errors, jit, p.returncode), None


def med(vals):
    return statistics.median(vals) if vals else None


def fmt(x, digits=3):
    if x is None:
        return "n/a"
    return f"{x:.{digits}g}"


def timeline(args, variants, env, rounds, files):
    """--timeline: GB/s of MPI_Pack over time from the commit, one fresh process per type, variant and round."""
    types = [t.strip() for t in args.timeline.split(",") if t.strip()]
    windows = {}   # (variant, type) -> [[GB/s per window] per round]
    ready = {}     # (variant, type) -> [ms]
    work = tempfile.mkdtemp(prefix="tessera-ddt-timeline-")
    try:
        for v in variants:
            if v.na is None:
                build(v, work, env)
            v.extra_args = []  # the first-warmup of the tables means nothing here
        for rnd in range(rounds):
            for t in types:
                for v in variants:
                    if v.na is not None:
                        continue
                    got, reason = run_variant(v, ["--type", t, "--timeline-ms", str(args.timeline_ms), "--window-ms",
                                                  str(args.window_ms)] + files, env, args.timeout)
                    if got is None:
                        v.notes.append(f"round {rnd + 1} {t}: {reason}")
                        continue
                    figures, _, errs, jl, _ = got
                    if t in errs:
                        v.notes.append(f"round {rnd + 1} {t}: {errs[t]}")
                    figs = figures.get(t, {})
                    keys = sorted((float(k[len("window_"):]), val) for k, val in figs.items() if k.startswith("window_"))
                    if keys:
                        windows.setdefault((v.name, t), []).append([val for _, val in keys])
                    if t in jl:
                        ready.setdefault((v.name, t), []).append(jl[t][0])
            print(f"round {rnd + 1}/{rounds} done", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for v in variants:
        if v.na is not None:
            print(f"{v.name}: n/a: {v.na}")
        for n in v.notes[:5]:
            print(f"{v.name}: {n}")
    live = [v.name for v in variants if v.na is None]
    per_bucket = max(1, int(round(args.bucket_ms / args.window_ms)))
    tail_windows = max(1, int(round(100.0 / args.window_ms)))

    def reach_ms(series):
        """When the rate first reaches 80 % of its last 100 ms (the end of the first such window)."""
        goal = 0.8 * statistics.mean(series[-tail_windows:])
        return next(((i + 1) * args.window_ms for i, x in enumerate(series) if x >= goal), None)

    def cell(vals, digits=3):
        vals = [x for x in vals if x is not None]
        if not vals:
            return "n/a"
        return fmt(med(vals), digits) + (f" [{min(vals):.{digits}g}-{max(vals):.{digits}g}]" if len(vals) > 1 else "")

    for t in types:
        print(f"\n**{t}**: MPI_Pack GB/s from the commit on, medians over {rounds} interleaved rounds (min-max); "
              f"a fresh process per run, 1 rank bound to a core, about 1 MiB per call\n")
        print("| ms | " + " | ".join(live) + " |")
        print("|---" * (len(live) + 1) + "|")
        n = min((len(r) for name in live for r in windows.get((name, t), [])), default=0)
        for b in range(0, n, per_bucket):
            row = [cell([statistics.mean(r[b:b + per_bucket]) for r in windows.get((name, t), [])]) for name in live]
            print(f"| {b * args.window_ms:.0f}-{min(n, b + per_bucket) * args.window_ms:.0f} | " + " | ".join(row) + " |")
        print("| 80 % of the last 100 ms reached at (ms) | "
              + " | ".join(cell([reach_ms(r) for r in windows.get((name, t), [])], 4) for name in live) + " |")
        print("| compiled code ready (ms after the commit) | "
              + " | ".join(cell(ready.get((name, t), []), 4) for name in live) + " |")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="Tessera build (or install) tree (build/bin/mpicc, mpirun)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--skip-tessera", action="store_true", help="Open MPI and MPICH only")
    ap.add_argument("--variants", help="comma-separated subset, e.g. Tessera-jit,MPICH")
    ap.add_argument("--check", action="store_true",
                    help="no timing: every type (duplicates too) must build, commit and round-trip byte for byte")
    ap.add_argument("--corpus", default=DEFAULT_CORPUS, help="directory of .ddt files (all of them are used)")
    ap.add_argument("--files", nargs="*", help="these .ddt files instead of the corpus directory")
    ap.add_argument("--filter", help="only types whose name contains this")
    ap.add_argument("--time-ms", type=float, default=50.0, help="duration of one timed measurement")
    ap.add_argument("--reps", type=int, default=3, help="measurements per figure within a run (median)")
    ap.add_argument("--quick", action="store_true", help="1 round, 10 ms measurements: checks the script runs")
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per run")
    ap.add_argument("--baseline-build", help="another Tessera build to compare with (Tessera-*-base variants)")
    ap.add_argument("--timeline", help="comma-separated built-in or corpus type names: throughput over time "
                    "from the commit instead of the tables")
    ap.add_argument("--timeline-ms", type=float, default=500.0, help="--timeline: how long each process packs")
    ap.add_argument("--window-ms", type=float, default=10.0, help="--timeline: ddt_bench's measuring window")
    ap.add_argument("--bucket-ms", type=float, default=50.0, help="--timeline: rows of the printed table")
    ap.add_argument("--per-type", action="store_true",
                    help="also a table of every corpus type: GB/s and the ratio to MPICH (nested ones marked)")
    args = ap.parse_args()
    rounds = 1 if args.quick else max(1, args.rounds)
    time_ms = 10.0 if args.quick else args.time_ms
    reps = 1 if args.quick else args.reps
    files = args.files if args.files is not None else sorted(glob.glob(os.path.join(args.corpus, "*.ddt")))
    if not files:
        print(f"(no .ddt files in {args.corpus}: built-in layouts only)")

    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_base_warn_component_unused="0")
    tbin = os.path.abspath(os.path.join(args.build, "bin"))
    variants = []
    builds = [("", tbin)]
    if args.baseline_build:
        builds.append(("-base", os.path.abspath(os.path.join(args.baseline_build, "bin"))))
    for suffix, bindir in builds if not args.skip_tessera else []:
        tcc, trun = os.path.join(bindir, "mpicc"), os.path.join(bindir, "mpirun")
        tl = [trun, "-np", "1", "--bind-to", "core", "--mca", "dte"]
        pair = [Variant("Tessera-interp" + suffix, tcc, tl + ["interp"]),
                Variant("Tessera-jit" + suffix, tcc, tl + ["jit", "--mca", "dte_jit_verbose", "1"],
                        extra_args=["--first-warmup-ms", str(JIT_WAIT_MS)])]
        for v in pair:
            if not (os.access(tcc, os.X_OK) and os.access(trun, os.X_OK)):
                v.compiler, v.na = None, f"{tcc} or {trun} not found (build Tessera or pass --build)"
        variants += pair
    for name, c, l, launcher in (("Open MPI", "mpicc.openmpi", "mpirun.openmpi", ["mpirun.openmpi", "-np", "1",
                                                                                   "--bind-to", "core"]),
                                 ("MPICH", "mpicc.mpich", "mpirun.mpich", ["mpirun.mpich", "-np", "1",
                                                                           "-bind-to", "core"])):
        v = Variant(name, c, launcher)
        if not (shutil.which(c) and shutil.which(l)):
            v.compiler, v.na = None, f"{c} or {l} not installed"
        variants.append(v)

    if args.variants:
        keep = [x.strip() for x in args.variants.split(",")]
        unknown = [k for k in keep if k not in [v.name for v in variants]]
        if unknown:
            ap.error(f"unknown variant(s) {', '.join(unknown)}: the variants are "
                     + ", ".join(v.name for v in variants))
        variants = [v for v in variants if v.name in keep]

    if args.timeline:
        return timeline(args, variants, env, rounds, files)

    prog_args = ["--check", "--all"] if args.check else ["--time-ms", str(time_ms), "--reps", str(reps)]
    if args.filter:
        prog_args += ["--filter", args.filter]
    prog_args += files

    work = tempfile.mkdtemp(prefix="tessera-ddt-bench-")
    # results[variant][type][figure] = [values over rounds]
    results = {v.name: {} for v in variants}
    jit = {}          # type -> [(ready_ms, compile_ms)]
    meta = {}         # type -> {size, count, depth, dense, source, dup}
    errors = {v.name: {} for v in variants}
    anchor = []
    try:
        for v in variants:
            if v.na is None:
                build(v, work, env)
        for rnd in range(1 if args.check else rounds):
            for v in variants:
                if v.na is not None:
                    continue
                got, reason = run_variant(v, prog_args, env, args.timeout)
                if got is None:
                    if v.runs == 0:
                        v.na = reason
                    else:
                        v.notes.append(f"round {rnd + 1}: {reason}")
                    continue
                figures, info, errs, jl, rc = got
                v.runs += 1
                v.rc = rc
                for t, figs in figures.items():
                    if t == "anchor":
                        anchor.extend([figs["memcpy_gbs"]] if "memcpy_gbs" in figs else [])
                        continue
                    m = meta.setdefault(t, {})
                    for k in ("size", "count", "depth", "dense", "extent"):
                        if k in figs:
                            m[k] = figs[k]
                    for f, val in figs.items():
                        results[v.name].setdefault(t, {}).setdefault(f, []).append(val)
                for t, inf in info.items():
                    m = meta.setdefault(t, {})
                    m.update({k: val for k, val in inf.items() if k in ("source", "dup")})
                    if "check" in inf:
                        results[v.name].setdefault(t, {}).setdefault("check", []).append(inf["check"])
                for t, msg in errs.items():
                    errors[v.name][t] = msg
                if rc != 0 and not errs:
                    v.notes.append(f"round {rnd + 1}: exited {rc} (figures of the types after it are missing)")
                if v.name == SUBJECT:
                    for t, pair in jl.items():
                        jit.setdefault(t, []).append(pair)
            print(f"round {rnd + 1}/{1 if args.check else rounds} done", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    for v in variants:
        if v.na is not None:
            print(f"{v.name}: n/a: {v.na}")
        for n in v.notes:
            print(f"{v.name}: {n}")
        errs = errors[v.name]
        if errs:
            shown = list(errs.items())[:5]
            print(f"{v.name}: {len(errs)} type(s) failed: " + "; ".join(f"{t}: {m}" for t, m in shown)
                  + (" ..." if len(errs) > 5 else ""))

    if args.check:
        status = 0
        for v in variants:
            if v.na is not None:
                continue
            ok = [t for t, f in results[v.name].items() if f.get("check") == ["ok"]]
            bad = errors[v.name]
            fine = not bad and v.rc == 0
            print(f"{'PASS' if fine else 'FAIL'}: {v.name}: {len(ok)} types build, commit and round-trip"
                  + (f", {len(bad)} failed" if bad else "") + (f", exit status {v.rc}" if v.rc else ""))
            status |= 0 if fine else 1
        return status

    def fig(vname, t, f):
        return med(results.get(vname, {}).get(t, {}).get(f, []))

    def spread(vname, t, f):
        vals = results.get(vname, {}).get(t, {}).get(f, [])
        return f" [{min(vals):.3g}-{max(vals):.3g}]" if len(vals) > 1 else ""

    def hand(t, f):
        vals = [x for v in variants for x in results[v.name].get(t, {}).get(f, [])]
        return med(vals)

    live = [v.name for v in variants if v.na is None]
    subject = next((n for n in (SUBJECT, "Tessera-interp", "MPICH") if n in live), live[0] if live else None)
    memcpy = med(anchor)
    builtins = [t for t in meta if ":" not in t and not meta[t].get("dup")]
    corpus = [t for t in meta if ":" in t and not meta[t].get("dup")]

    def is_nested(t):
        return meta[t].get("depth", 0) >= 2 and not meta[t].get("dense", 0)

    def ratio(a, b):
        return a / b if a is not None and b not in (None, 0) else None

    def other_ratio(s, other, t, f):
        return "–" if other == subject else fmt(ratio(s, fig(other, t, f)), 2)

    print(f"\nMedians over {rounds} interleaved rounds (min-max), 1 rank bound to a core, payload about 1 MiB "
          f"per call; GB/s of payload. Anchor: memcpy of 1 MiB {fmt(memcpy)} GB/s"
          f"{' [%.3g-%.3g]' % (min(anchor), max(anchor)) if len(anchor) > 1 else ''}; the hand-written loop is "
          f"the median over every variant's runs (same C code, same compiler). Ratios are of {subject}"
          f"{'' if subject == SUBJECT else ' (' + SUBJECT + ' n/a)'}.")
    for direction in ("pack", "unpack"):
        f = f"{direction}_gbs"
        print(f"\n**MPI_{direction.capitalize()}** (GB/s)\n")
        cols = [v.name for v in variants]
        print("| layout | " + " | ".join(cols) + f" | hand loop | memcpy | {subject}/hand | {subject}/Open MPI | "
              f"{subject}/MPICH |")
        print("|---" * (len(cols) + 6) + "|")
        for t in builtins:
            cells = []
            for v in variants:
                if v.na is not None:
                    cells.append("n/a")
                elif t in errors[v.name]:
                    cells.append("error")
                else:
                    cells.append(fmt(fig(v.name, t, f)) + spread(v.name, t, f))
            h = hand(t, f"hand_{f}")
            s = fig(subject, t, f) if subject else None
            print(f"| {t} | " + " | ".join(cells) + f" | {fmt(h) if h else '–'} | {fmt(memcpy)} | "
                  f"{fmt(ratio(s, h), 2) if h else '–'} | {other_ratio(s, 'Open MPI', t, f)} | "
                  f"{other_ratio(s, 'MPICH', t, f)} |")
    print("\n**MPI_Type_commit** (us, median of fresh commits; in parentheses the first commit of the type, "
          "and the median time of the constructor calls that built it)"
          + (f"; {SUBJECT} commit to compiled code (ms) from dte_jit_verbose" if SUBJECT in live else "") + "\n")
    print("| layout | " + " | ".join(v.name for v in variants) + (" | jit ready (compile) ms |" if SUBJECT in live
                                                                   else " |"))
    print("|---" * (len(variants) + 1 + (SUBJECT in live)) + "|")
    for t in builtins:
        cells = []
        for v in variants:
            c, c1, b = fig(v.name, t, "commit_us"), fig(v.name, t, "commit_first_us"), fig(v.name, t, "build_us")
            cells.append("n/a" if v.na else ("error" if t in errors[v.name] else f"{fmt(c)} ({fmt(c1)}; {fmt(b)})"))
        extra = ""
        if SUBJECT in live:
            j = jit.get(t, [])
            extra = f" {fmt(med([x[0] for x in j]))} ({fmt(med([x[1] for x in j]))}) |" if j else " – |"
        print(f"| {t} | " + " | ".join(cells) + " |" + extra)

    # corpus summary
    groups = [("MILC", [t for t in corpus if t.startswith("milc")]),
              ("NAS LU", [t for t in corpus if t.startswith("npb-lu")]),
              ("all corpus files", corpus)]
    print(f"\n**Corpus** ({subject} / anchor: median and worst over the distinct types; commit: worst)\n")
    print("| types | n | pack/Open MPI | pack/MPICH | unpack/Open MPI | unpack/MPICH | "
          + " | ".join(f"worst commit {v.name} (us)" for v in variants) + " |")
    print("|---" * (6 + len(variants)) + "|")
    for label, ts in groups:
        if not ts:
            continue
        cells = []
        for direction in ("pack_gbs", "unpack_gbs"):
            for other in ("Open MPI", "MPICH"):
                rs = [ratio(fig(subject, t, direction), fig(other, t, direction)) for t in ts]
                rs = [r for r in rs if r is not None]
                cells.append(f"{min(rs):.2f}x worst, {statistics.median(rs):.2f}x median" if rs and subject != other
                             else "n/a")
        commits = []
        for v in variants:
            cs = [fig(v.name, t, "commit_us") for t in ts]
            cs = [c for c in cs if c is not None]
            commits.append(f"{max(cs):.3g}" if cs and v.na is None else "n/a")
        print(f"| {label} | {len(ts)} | " + " | ".join(cells) + " | " + " | ".join(commits) + " |")

    if args.per_type:
        print("\n**Corpus types** (GB/s; * nested: counted in the 2 x MPICH target)\n")
        print(f"| type | pack {subject} | pack MPICH | ratio | unpack {subject} | unpack MPICH | ratio |")
        print("|---" * 7 + "|")
        for t in corpus:
            cells = []
            for direction in ("pack_gbs", "unpack_gbs"):
                mine, theirs = fig(subject, t, direction), fig("MPICH", t, direction)
                cells += [fmt(mine), fmt(theirs), fmt(ratio(mine, theirs), 2)]
            mark = "*" if is_nested(t) else ""
            print(f"| {t}{mark} | " + " | ".join(cells) + " |")

    # targets
    print()

    if SUBJECT not in live:
        reason = next((v.na for v in variants if v.name == SUBJECT), "skipped (--skip-tessera)")
        print(f"{SUBJECT} n/a, so the targets are: {reason[:200]}")
        for text in ("JIT pack >= 0.9 x hand-written loop on the simple layouts",
                     "JIT pack >= 5 x Open MPI's MPI_Pack on strided vectors",
                     "JIT >= MPICH on every layout", "JIT >= 2 x MPICH on the nested corpus types (median)",
                     "MPI_Type_commit < 2 us for every corpus type"):
            print(f"n/a: {text}")
        if subject is None or not subject.startswith("Tessera"):
            return 0
        print(f"For reference, the same targets applied to {subject} (lower case: not the issue's verdicts):")

    def target(text, ok):
        if subject == SUBJECT:
            print(f"{'PASS' if ok else 'MISS'}: {text}")
        else:
            print(f"  {'pass' if ok else 'miss'}: {text.replace('JIT', subject)}")

    def ratios(ts, f, other_fn):
        out = []
        for t in ts:
            r = ratio(fig(subject, t, f), other_fn(t))
            if r is not None:
                out.append((r, t))
        return out

    failed = set(errors.get(subject, {}))  # types the subject could not build, commit or pack: misses

    def failed_note(ts):
        bad = sorted(t for t in ts if t in failed)
        return (f"; failed: {', '.join(bad)}", False) if bad else ("", True)

    def no_figures(text, ok, note):
        if ok:
            print(f"n/a: {text} (no figures)")
        else:
            target(f"{text} (no figures{note})", False)

    simple = [t for t in builtins if t in SIMPLE]
    rs = ratios(simple, "pack_gbs", lambda t: hand(t, "hand_pack_gbs"))
    note, ok = failed_note(simple)
    if rs:
        worst = min(rs)
        target(f"JIT pack >= 0.9 x hand loop on {len(rs)} simple layouts (worst {worst[0]:.2f} on {worst[1]}; "
               f"misses: {', '.join(t for r, t in rs if r < 0.9) or 'none'}{note})", worst[0] >= 0.9 and ok)
    else:
        no_figures("JIT pack >= 0.9 x hand loop on the simple layouts", ok, note)
    vecs = [t for t in builtins if t.startswith("vec_b")]
    rs = ratios(vecs, "pack_gbs", lambda t: fig("Open MPI", t, "pack_gbs"))
    note, ok = failed_note(vecs)
    if rs:
        worst = min(rs)
        target(f"JIT pack >= 5 x Open MPI on strided vectors (worst {worst[0]:.2f} on {worst[1]}{note})",
               worst[0] >= 5 and ok)
    else:
        no_figures("JIT pack >= 5 x Open MPI on strided vectors", ok, note)
    allt = builtins + corpus
    rs = [(r, t + " pack") for r, t in ratios(allt, "pack_gbs", lambda t: fig("MPICH", t, "pack_gbs"))] + \
        [(r, t + " unpack") for r, t in ratios(allt, "unpack_gbs", lambda t: fig("MPICH", t, "unpack_gbs"))]
    note, ok = failed_note(allt)
    if rs:
        worst = min(rs)
        misses = [t for r, t in sorted(rs) if r < 1]  # worst first

        def clearly_below(label):
            """Below in every round: the subject's best run slower than MPICH's worst."""
            t, direction = label.rsplit(" ", 1)
            mine = results.get(subject, {}).get(t, {}).get(f"{direction}_gbs", [])
            theirs = results.get("MPICH", {}).get(t, {}).get(f"{direction}_gbs", [])
            return len(mine) > 1 and len(theirs) > 1 and max(mine) < min(theirs)

        clear = [t for t in misses if clearly_below(t)]
        target(f"JIT >= MPICH on every layout, pack and unpack ({len(rs)} figures, worst {worst[0]:.2f} on "
               f"{worst[1]}; {len(misses)} below: {', '.join(misses[:8]) or 'none'}{' ...' if len(misses) > 8 else ''}"
               f"{note})", worst[0] >= 1 and ok)
        if misses and rounds > 1:
            print(f"  of those, below in every round (best run under MPICH's worst): {len(clear)}"
                  f"{': ' + ', '.join(clear) if clear else ''}")
    else:
        no_figures("JIT >= MPICH on every layout", ok, note)
    nested = [t for t in corpus if is_nested(t)]
    for f in ("pack_gbs", "unpack_gbs"):
        rs = ratios(nested, f, lambda t, f=f: fig("MPICH", t, f))
        note, ok = failed_note(nested)
        if rs:
            m = statistics.median(r for r, _ in rs)
            target(f"JIT {f[:-4]} >= 2 x MPICH on the {len(rs)} nested corpus types (median {m:.2f}{note})",
                   m >= 2 and ok)
        else:
            no_figures(f"JIT {f[:-4]} >= 2 x MPICH on the nested corpus types", ok, note)
    cs = [(fig(subject, t, "commit_us"), t) for t in corpus if fig(subject, t, "commit_us") is not None]
    note, ok = failed_note(corpus)
    if cs:
        worst = max(cs)
        target(f"MPI_Type_commit < 2 us for every corpus type ({len(cs)} types, worst {worst[0]:.3g} us on "
               f"{worst[1]}{note})", worst[0] < 2 and ok)
    else:
        no_figures("MPI_Type_commit < 2 us for every corpus type", ok, note)
    if jit:
        ready = [x[0] for v in jit.values() for x in v]
        late = sorted(t for t, v in jit.items() if max(x[0] for x in v) > JIT_WAIT_MS)
        print(f"info: JIT commit to compiled code: median {statistics.median(ready):.3g} ms, worst {max(ready):.3g} ms "
              f"over {len(jit)} types" + (f"; later than the {JIT_WAIT_MS} ms warm-up (the first pack figure may "
                                          f"include interpreted calls): {', '.join(late)}" if late else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
