#!/usr/bin/env python3
"""A/B latency of two Tessera builds in one session, interleaved (A B, B A, A B ...): latency_handles.c
built once with BUILD_B's mpicc (the ABI is the same) and run on 2 ranks bound to separate cores under
each build's mpirun, with that build's libraries first (LD_LIBRARY_PATH). For each figure it prints
each build's median [min-max] over the rounds and the ratio B/A per round (median [min-max]), with
the load average seen before and after.

usage: tools/bench/p2p/ab_latency.py BUILD_A BUILD_B [--rounds 9] [--sizes 8]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def compile_with(build_dir, out):
    subprocess.run([os.path.join(build_dir, "bin", "mpicc"), "-O2", "-o", out,
                    os.path.join(HERE, "latency_handles.c")], check=True)


def run(build_dir, exe, sizes):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               LD_LIBRARY_PATH=os.path.join(build_dir, "lib"))
    p = subprocess.run([os.path.join(build_dir, "bin", "mpirun"), "-np", "2", "--bind-to", "core",
                        "--timeout", "300", exe, *sizes], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=400, check=False)
    if p.returncode != 0:
        sys.exit(f"{exe} under {build_dir} exited {p.returncode}: {p.stderr.decode()[-600:]}")
    out = {}
    for line in p.stdout.decode().splitlines():
        name, size, value = line.split()
        out[f"{name} {size}"] = float(value)
    return out


def spread(values):
    return f"{statistics.median(values):.4f} [{min(values):.4f}-{max(values):.4f}]"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--sizes", default="8")
    args = ap.parse_args()
    sizes = args.sizes.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "latency_handles")
        compile_with(args.b, exe)
        print("load average before:", open("/proc/loadavg").read().split()[:3])
        results = {"a": [], "b": []}
        for r in range(args.rounds):
            order = ("a", "b") if r % 2 == 0 else ("b", "a")
            for k in order:
                results[k].append(run(getattr(args, k), exe, sizes))
        print("load average after:", open("/proc/loadavg").read().split()[:3])
    for figure in results["a"][0]:
        a = [x[figure] for x in results["a"]]
        b = [x[figure] for x in results["b"]]
        ratios = [y / x for x, y in zip(a, b)]
        print(f"{figure} us: A {spread(a)}  B {spread(b)}  B/A {spread(ratios)}")


if __name__ == "__main__":
    main()
