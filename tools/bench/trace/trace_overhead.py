#!/usr/bin/env python3
"""Tracing overhead on the point-to-point latency benchmark (tools/bench/p2p/latency.c).

The same latency binary (built with build/bin/mpicc) runs as p2p_bench.py runs it (2 ranks bound to
cores, shared memory), without tracing, with --mca trace monitor and with --mca trace otf2, interleaved
round after round (A B C A B C ...) because the machine is noisy; the table gives the medians over the
rounds, the spread, and each variant's overhead against the untraced median, with the issue's targets
(monitor under 1 %, otf2 under 5 %). The otf2 archives go to a temporary directory. A verdict is
INCONCLUSIVE when the untraced runs alone scatter (median absolute deviation) by more than the target.

The "clock floor" column is the untraced benchmark built with LATENCY_CLOCK_READS: it reads the clock
(rdtsc) and keeps the value at each MPI call's begin and end, as any tracer that times every call must
at least do. Its overhead is what such tracing cannot get below on this machine.

With --records SIZE a further variant runs otf2 with trace_otf2_record_buffer_size=SIZE: a buffer large
enough to keep a whole benchmark's records shows the cost on the call path alone, the encoding into OTF2
deferred to MPI_Finalize.

Then, unless --no-per-call, the cost per call in one process (trace_percall.c: MPI_Send + MPI_Recv to
itself, 8 bytes, the best of 25 loops of 10000 pairs, each variant in turn, --rounds times): without the
other rank's latency and the shared machine's noise in the figure, nanoseconds show.

usage: tools/bench/trace/trace_overhead.py [--build build] [--rounds 7] [--sizes 8 1024] [--btl self,shm]
                                           [--records 512M] [--no-per-call]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
LATENCY = os.path.join(HERE, "..", "p2p", "latency.c")
PER_CALL = os.path.join(HERE, "trace_percall.c")
TARGETS = {"monitor": 1.0, "otf2": 5.0}


def run(cmd, env):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.decode()[-600:]}")
    figures = {}
    for line in p.stdout.decode().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] in ("latency_us", "pair_ns"):
            figures[int(parts[1])] = float(parts[2])
    return figures


def label(name):
    return "untraced" if name == "none" else name if name == "clock floor" else "trace " + name


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="Tessera build (or install) tree")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--sizes", type=int, nargs="+", default=[8, 1024])
    ap.add_argument("--btl", default="self,shm")
    ap.add_argument("--records", metavar="SIZE", help="also otf2 with trace_otf2_record_buffer_size=SIZE")
    ap.add_argument("--no-per-call", action="store_true")
    args = ap.parse_args()
    tbin = os.path.abspath(os.path.join(args.build, "bin"))
    work = tempfile.mkdtemp(prefix="tessera-trace-overhead-")
    env = dict(os.environ)
    try:
        exe = os.path.join(work, "latency")
        subprocess.run([os.path.join(tbin, "mpicc"), "-O2", "-o", exe, LATENCY], check=True, env=env)
        floor_exe = os.path.join(work, "latency_clock_reads")
        subprocess.run([os.path.join(tbin, "mpicc"), "-O2", "-DLATENCY_CLOCK_READS", "-o", floor_exe, LATENCY],
                       check=True, env=env)
        launcher = [os.path.join(tbin, "mpirun"), "-np", "2", "--bind-to", "core", "--mca", "btl", args.btl]
        otf2 = ["--mca", "trace", "otf2", "--mca", "trace_otf2_dir", os.path.join(work, "otf2")]
        variants = [("none", [], exe),
                    ("clock floor", [], floor_exe),
                    ("monitor", ["--mca", "trace", "monitor", "--mca", "trace_monitor_filename",
                                 os.path.join(work, "monitor.%r")], exe),
                    ("otf2", otf2, exe)]
        if args.records:
            variants.append((f"otf2, {args.records} records",
                             otf2 + ["--mca", "trace_otf2_record_buffer_size", args.records], exe))
        sizes = [str(s) for s in args.sizes]
        results = {}
        for rnd in range(args.rounds):
            for name, extra, program in variants:
                for size, value in run(launcher + extra + [program] + sizes, env).items():
                    results.setdefault((name, size), []).append(value)
            print(f"round {rnd + 1}/{args.rounds} done", file=sys.stderr)
        per_call = {}
        if not args.no_per_call:
            pexe = os.path.join(work, "trace_percall")
            subprocess.run([os.path.join(tbin, "mpicc"), "-O2", "-o", pexe, PER_CALL], check=True, env=env)
            single = [os.path.join(tbin, "mpirun"), "-np", "1", "--bind-to", "core"]
            for rnd in range(args.rounds):
                for name, extra, program in variants:
                    if program != exe:
                        continue
                    for _, value in run(single + extra + [pexe, "8", "10000"], env).items():
                        per_call.setdefault(name, []).append(value)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"\n8-byte and larger ping-pong latency (half round trip, us), btl {args.btl}, 2 ranks bound to cores; "
          f"medians over {args.rounds} interleaved rounds [min-max].")
    print("| size (B) | " + " | ".join(label(n) for n, _, _ in variants) + " |")
    print("|---" * (len(variants) + 1) + "|")
    verdicts = []
    for size in args.sizes:
        base = statistics.median(results[("none", size)])
        cells = []
        for name, _, _ in variants:
            v = results[(name, size)]
            med = statistics.median(v)
            cell = f"{med:.3f} [{min(v):.3f}-{max(v):.3f}]"
            if name != "none":
                over = 100.0 * (med - base) / base
                cell += f" ({over:+.1f} %)"
                if name.split(",")[0] in TARGETS:
                    verdicts.append((name, size, over))
            cells.append(cell)
        print(f"| {size} | " + " | ".join(cells) + " |")
    if per_call:
        base = statistics.median(per_call["none"])
        print(f"\nPer call in one process (MPI_Send + MPI_Recv to itself, 8 B, ns per pair; medians over "
              f"{args.rounds} runs [min-max]):")
        for name in per_call:
            v = per_call[name]
            med = statistics.median(v)
            extra = "" if name == "none" else f", {med - base:+.1f} ns"
            print(f"  {label(name)}: {med:.1f} [{min(v):.1f}-{max(v):.1f}]{extra}")
    for name, size, over in verdicts:
        target = TARGETS[name.split(",")[0]]
        base = results[("none", size)]
        mid = statistics.median(base)
        scatter = 100.0 * statistics.median(abs(b - mid) for b in base) / mid
        # The untraced runs alone vary more than the target: the medians cannot tell.
        verdict = "INCONCLUSIVE" if scatter > target else "PASS" if over < target else "MISS"
        print(f"{verdict}: trace {name}, {size} B: {over:+.1f} % (target < {target:g} %; "
              f"untraced scatter {scatter:.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
