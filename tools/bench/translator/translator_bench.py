#!/usr/bin/env python3
"""Translator overhead: the same benchmark source (translator_bench.c) built natively with mpicc.openmpi /
mpicc.mpich and against Tessera (build/bin/mpicc), the Tessera binary run over each runtime by that
runtime's own launcher (the translator is chosen from the launcher's environment). All variants run in
one session, interleaved round by round (A B C D A B C D ...), two ranks bound to cores; the table gives
medians over the rounds, the spread, and what translation adds (ns per call; % for the latency).

usage: tools/bench/translator/translator_bench.py [--build build] [--rounds 5] [--scale 1]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "translator_bench.c")
FIGURES = [("comm_rank_ns", "MPI_Comm_rank (ns/call)", 1),
           ("isend_irecv_ns", "Isend+Irecv+Waitall to self (ns/call)", 3),
           ("latency_us", "8-byte ping-pong latency (us)", None)]


def build(compiler, out, env):
    subprocess.run([compiler, "-O2", "-o", out, SOURCE], check=True, env=env)


def run_once(cmd, env):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.decode()[-800:]}")
    values = {}
    for line in p.stdout.decode().splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in {f for f, _, _ in FIGURES}:
            values[parts[0]] = float(parts[1])
    if len(values) != len(FIGURES):
        raise RuntimeError(f"{' '.join(cmd)}: unexpected output {p.stdout.decode()!r}")
    return values


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="Tessera build (or install) tree")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--scale", type=int, default=1, help="loop length multiplier (0: a quick check)")
    args = ap.parse_args()
    tessera_bin = os.path.abspath(os.path.join(args.build, "bin"))
    env = dict(os.environ)
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_base_warn_component_unused="0")
    launch = {"Open MPI": ["mpirun.openmpi", "-np", "2", "--bind-to", "core"],
              "MPICH": ["mpirun.mpich", "-np", "2", "-bind-to", "core"]}
    compilers = {"Open MPI": "mpicc.openmpi", "MPICH": "mpicc.mpich"}
    work = tempfile.mkdtemp(prefix="tessera-translator-bench-")
    try:
        build(os.path.join(tessera_bin, "mpicc"), f"{work}/tessera", env)
        variants = []  # (runtime, label, command)
        for runtime, cc in compilers.items():
            if not (shutil.which(cc) and shutil.which(launch[runtime][0])):
                print(f"({runtime} not installed: skipped)")
                continue
            native = f"{work}/{cc}"
            build(cc, native, env)
            variants.append((runtime, "native", launch[runtime] + [native, str(args.scale)]))
            variants.append((runtime, "Tessera", launch[runtime] + [f"{work}/tessera", str(args.scale)]))
        results = {(r, l): [] for r, l, _ in variants}
        for _, _, cmd in variants:  # warm the page cache and the dynamic loader
            run_once(cmd[:-1] + ["0"], env)
        for rnd in range(args.rounds):
            for runtime, label, cmd in variants:
                results[(runtime, label)].append(run_once(cmd, env))
            print(f"round {rnd + 1}/{args.rounds} done", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def med(runtime, label, fig):
        return statistics.median(v[fig] for v in results[(runtime, label)])

    def spread(runtime, label, fig, scale):
        vals = [v[fig] / scale for v in results[(runtime, label)]]
        return f"[{min(vals):.3g}-{max(vals):.3g}]"

    def best(runtime, label, fig):
        return min(v[fig] for v in results[(runtime, label)])

    runtimes = sorted({r for r, _, _ in variants}, key=list(compilers).index)
    print(f"\nMedians over {args.rounds} interleaved rounds (min-max in brackets), 2 ranks bound to cores; "
          "'added' is Tessera translated minus native, of the medians and (after the slash) of the best runs, "
          "which a busy machine disturbs least.")
    header = "| figure |"
    for r in runtimes:
        header += f" {r} native | Tessera over {r} | added |"
    print(header)
    print("|---|" + "---|---|---|" * len(runtimes))
    for fig, title, calls in FIGURES:
        row = f"| {title} |"
        for r in runtimes:
            n, t = med(r, "native", fig), med(r, "Tessera", fig)
            bn, bt = best(r, "native", fig), best(r, "Tessera", fig)
            if calls is None:
                added = f"{100 * (t - n) / n:+.1f} % / {100 * (bt - bn) / bn:+.1f} %"
            else:
                added = f"{(t - n) / calls:+.2f} / {(bt - bn) / calls:+.2f} ns"
            scale = 1 if calls is None else calls
            row += (f" {n / scale:.2f} {spread(r, 'native', fig, scale)} | {t / scale:.2f} "
                    f"{spread(r, 'Tessera', fig, scale)} |"
                    f" {added} |")
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
