#!/usr/bin/env python3
"""Translator overhead by attribution: what share of a loop's CPU time is spent in Tessera's code.

Wall-clock comparisons of two binaries (translator_bench.py) on these shared 2-core VMs move by +-10 %
between runs, far more than the few nanoseconds translation adds. This script measures the added time
inside one run instead: the Tessera-built translator_bench.c runs one loop at a time (Comm_rank;
Isend+Irecv+Waitall to self; 8-byte ping-pong) over Open MPI and over MPICH, under `perf record`
(cpu-clock sampling, started after MPI_Init with --delay), and the samples that fall in Tessera's objects
(libmpi.so.0: the bindings; mca_translator_*.so: the thunks) give the share of the loop's time spent
translating. Added ns per call = share x the loop's measured ns per call; for the latency the share is
the added fraction directly (a rank spins through the whole ping-pong). Each figure is the median of
--rounds runs, with the spread.

usage: tools/bench/translator/translator_attribution.py [--build build] [--rounds 3]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "translator_bench.c")
# loop, scale (a run of ~4 s here, well past the sampling delay), its figure, MPI calls per figure unit
LOOPS = [("rank", 100, "comm_rank_ns", 1), ("isend", 50, "isend_irecv_ns", 3), ("pingpong", 14, "latency_us", None)]
TESSERA_DSO = re.compile(r"^(libmpi\.so\.0|mca_translator_)")
DELAY_MS = 1500


def perf_shares(path):
    """(samples in Tessera's objects, all samples) of one perf.data file."""
    p = subprocess.run(["perf", "report", "-i", path, "-n", "--no-children", "--sort", "dso", "--stdio"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
    ours = total = 0
    for line in p.stdout.decode().splitlines():
        m = re.match(r"\s+[\d.]+%\s+(\d+)\s+(\S+)", line)
        if m:
            n = int(m.group(1))
            total += n
            ours += n if TESSERA_DSO.match(m.group(2)) else 0
    return ours, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="Tessera build (or install) tree")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if not shutil.which("perf"):
        print("perf is not installed (Debian: linux-perf)", file=sys.stderr)
        return 1
    tbin = os.path.abspath(os.path.join(args.build, "bin"))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_base_warn_component_unused="0")
    launch = {"Open MPI": ["mpirun.openmpi", "-np", "2", "--bind-to", "core"],
              "MPICH": ["mpirun.mpich", "-np", "2", "-bind-to", "core"]}
    work = tempfile.mkdtemp(prefix="tessera-translator-attribution-")
    results = {}
    try:
        exe = f"{work}/tessera"
        subprocess.run([os.path.join(tbin, "mpicc"), "-O2", "-o", exe, SOURCE], check=True, env=env)
        # Each rank records into its own file: the rank comes from the launcher's environment.
        wrapper = f"{work}/profile.sh"
        with open(wrapper, "w") as f:
            f.write("#!/bin/sh\nrank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}\n"
                    f"exec perf record -q -F 20000 -D {DELAY_MS} -o \"$PERF_DIR/perf.$rank.data\" -- \"$@\"\n")
        os.chmod(wrapper, 0o755)
        for rnd in range(args.rounds):
            for runtime, launcher in launch.items():
                if not shutil.which(launcher[0]):
                    continue
                for loop, scale, figure, calls in LOOPS:
                    pdir = f"{work}/{runtime.replace(' ', '')}-{loop}"
                    os.makedirs(pdir, exist_ok=True)
                    p = subprocess.run(launcher + [wrapper, exe, str(scale), loop], env=dict(env, PERF_DIR=pdir),
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
                    if p.returncode != 0:
                        print(f"{runtime} {loop}: failed: {p.stderr.decode()[-400:]}", file=sys.stderr)
                        continue
                    value = float(re.search(rf"^{figure} ([\d.]+)", p.stdout.decode(), re.M).group(1))
                    ours, total = perf_shares(f"{pdir}/perf.0.data")
                    share = ours / total if total else 0.0
                    results.setdefault((runtime, loop), []).append((value, share))
            print(f"round {rnd + 1}/{args.rounds} done", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    print(f"\nTessera's share of each loop's CPU time (rank 0, perf cpu-clock samples after MPI_Init), median of "
          f"{args.rounds} runs [min-max]; added = share x the loop's time per call.")
    print("| figure | runtime | loop time (translated) | Tessera's share | added | target |")
    print("|---|---|---|---|---|---|")
    for loop, _, figure, calls in LOOPS:
        for runtime in launch:
            rows = results.get((runtime, loop))
            if not rows:
                continue
            shares = [s for _, s in rows]
            if calls is None:
                lat = statistics.median(v for v, _ in rows)
                added = [100 * s for s in shares]
                print(f"| 8-byte latency | {runtime} | {lat:.3f} us | {100 * statistics.median(shares):.2f} % | "
                      f"{statistics.median(added):+.2f} % [{min(added):.2f}-{max(added):.2f}] | "
                      f"{'PASS' if statistics.median(added) <= 3 else 'MISS'} (<= 3 %) |")
            else:
                added = [s * v / calls for v, s in rows]
                per_call = statistics.median(v / calls for v, _ in rows)
                name = {"rank": "MPI_Comm_rank", "isend": "Isend+Irecv+Waitall (per call)"}[loop]
                print(f"| {name} | {runtime} | {per_call:.2f} ns/call | {100 * statistics.median(shares):.1f} % | "
                      f"{statistics.median(added):+.2f} ns [{min(added):.2f}-{max(added):.2f}] | "
                      f"{'PASS' if statistics.median(added) <= 5 else 'MISS'} (<= 5 ns) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
