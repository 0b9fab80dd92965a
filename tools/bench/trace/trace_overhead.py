#!/usr/bin/env python3
"""Tracing overhead on the point-to-point latency benchmark (tools/bench/p2p/latency.c).

The same latency binary (built with build/bin/mpicc) runs as p2p_bench.py runs it (2 ranks bound to
cores, shared memory), without tracing, with --mca trace monitor and with --mca trace otf2, interleaved
round after round (A B C A B C ...) because the machine is noisy; the table gives the medians over the
rounds, the spread, and each variant's overhead against the untraced median, with the issue's targets
(monitor under 1 %, otf2 under 5 %). The otf2 archives go to a temporary directory.

usage: tools/bench/trace/trace_overhead.py [--build build] [--rounds 7] [--sizes 8 1024] [--btl self,shm]
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
TARGETS = {"monitor": 1.0, "otf2": 5.0}


def run(cmd, env):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.decode()[-600:]}")
    figures = {}
    for line in p.stdout.decode().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "latency_us":
            figures[int(parts[1])] = float(parts[2])
    return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="Tessera build (or install) tree")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--sizes", type=int, nargs="+", default=[8, 1024])
    ap.add_argument("--btl", default="self,shm")
    args = ap.parse_args()
    tbin = os.path.abspath(os.path.join(args.build, "bin"))
    work = tempfile.mkdtemp(prefix="tessera-trace-overhead-")
    env = dict(os.environ)
    try:
        exe = os.path.join(work, "latency")
        subprocess.run([os.path.join(tbin, "mpicc"), "-O2", "-o", exe, LATENCY], check=True, env=env)
        launcher = [os.path.join(tbin, "mpirun"), "-np", "2", "--bind-to", "core", "--mca", "btl", args.btl]
        variants = [("none", []),
                    ("monitor", ["--mca", "trace", "monitor", "--mca", "trace_monitor_filename",
                                 os.path.join(work, "monitor.%r")]),
                    ("otf2", ["--mca", "trace", "otf2", "--mca", "trace_otf2_dir", os.path.join(work, "otf2")])]
        sizes = [str(s) for s in args.sizes]
        results = {}
        for rnd in range(args.rounds):
            for name, extra in variants:
                for size, value in run(launcher + extra + [exe] + sizes, env).items():
                    results.setdefault((name, size), []).append(value)
            print(f"round {rnd + 1}/{args.rounds} done", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"\n8-byte and larger ping-pong latency (half round trip, us), btl {args.btl}, 2 ranks bound to cores; "
          f"medians over {args.rounds} interleaved rounds [min-max].")
    print("| size (B) | untraced | trace monitor | trace otf2 |")
    print("|---|---|---|---|")
    verdicts = []
    for size in args.sizes:
        base = statistics.median(results[("none", size)])
        cells = []
        for name, _ in variants:
            v = results[(name, size)]
            med = statistics.median(v)
            cell = f"{med:.3f} [{min(v):.3f}-{max(v):.3f}]"
            if name != "none":
                over = 100.0 * (med - base) / base
                cell += f" ({over:+.1f} %)"
                verdicts.append((name, size, over))
            cells.append(cell)
        print(f"| {size} | " + " | ".join(cells) + " |")
    for name, size, over in verdicts:
        target = TARGETS[name]
        print(f"{'PASS' if over < target else 'MISS'}: trace {name}, {size} B: {over:+.1f} % (target < {target:g} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
