#!/usr/bin/env python3
"""Multi-threaded point-to-point and overlap: Tessera against Open MPI and MPICH, interleaved rounds.

Builds mt_latency.c, mt_msgrate.c and overlap.c with Tessera's mpicc, mpicc.openmpi and mpicc.mpich and
runs them round after round on 2 ranks bound to separate cores (shm: Tessera `--mca btl self,shm`, Open
MPI `--mca btl self,vader`, MPICH's default):
- latency with 1, 2 and 4 threads per rank (thread t ping-pongs with its peer thread on its own tag),
  8 B to 64 KiB, all three initialised with MPI_THREAD_MULTIPLE;
- message rate, windows of 64 non-blocking 8-byte messages, 1 and 2 threads per rank;
- overlap of a 4 MiB exchange and a 1 MiB MPI_Iallreduce with computation (the OSU definition), also for
  MPICH with its progress thread (MPIR_CVAR_ASYNC_PROGRESS=1) and, with --async-param NAME, for Tessera
  with `--mca NAME 1`.
A runtime that does not provide MPI_THREAD_MULTIPLE is reported so in the threaded tables. Prints medians
[min-max] and Tessera's ratio to the better anchor.
Usage: threads_bench.py [--build build] [--rounds 3] [--threads 1,2,4] [--sizes 8,64,512,4096,65536]
                        [--async-param NAME] [--tessera-only]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "p2p"))
from p2p_bench import run  # noqa: E402  (one launcher and "name size value" parser for both benchmarks)


def ints(text):
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a comma-separated list of integers")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="Tessera build (or install) tree")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=ints, default=[1, 2, 4], help="threads per rank for the latency table")
    ap.add_argument("--sizes", type=ints, default=[8, 64, 512, 4096, 65536], help="latency message sizes (bytes)")
    ap.add_argument("--async-param", help="Tessera's asynchronous progress parameter: adds an overlap row with it set to 1")
    ap.add_argument("--tessera-only", action="store_true")
    args = ap.parse_args()
    tbin = os.path.abspath(os.path.join(args.build, "bin"))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_base_warn_component_unused="0")
    runtimes = [("Tessera", os.path.join(tbin, "mpicc"), [os.path.join(tbin, "mpirun"), "-np", "2", "--bind-to", "core",
                                                         "--mca", "btl", "self,shm"])]
    if not args.tessera_only:
        for name, cc, launcher in (("Open MPI", "mpicc.openmpi", ["mpirun.openmpi", "-np", "2", "--bind-to", "core",
                                                                  "--mca", "btl", "self,vader"]),
                                   ("MPICH", "mpicc.mpich", ["mpirun.mpich", "-np", "2", "-bind-to", "core"])):
            if shutil.which(cc) and shutil.which(launcher[0]):
                runtimes.append((name, cc, launcher))
            else:
                print(f"({name} not installed: skipped)")
    work = tempfile.mkdtemp(prefix="tessera-threads-bench-")
    lat, rate, overlap = {}, {}, {}  # (runtime, threads, size) / (runtime, threads) / row -> values per round
    refused = set()  # runtimes without MPI_THREAD_MULTIPLE
    try:
        exe = {}
        for name, cc, _ in runtimes:
            tag = name.replace(" ", "").lower()
            for prog in ("mt_latency", "mt_msgrate", "overlap"):
                out = f"{work}/{prog}_{tag}"
                subprocess.run([cc, "-O2", "-pthread", "-o", out, os.path.join(HERE, f"{prog}.c")], check=True, env=env,
                               stderr=subprocess.DEVNULL)
                exe[(name, prog)] = out
        rows = [(name, launcher, name) for name, _, launcher in runtimes]
        if args.async_param:
            rows.insert(1, ("Tessera", runtimes[0][2] + ["--mca", args.async_param, "1"],
                            f"Tessera, {args.async_param} 1"))
        # MPICH's own progress thread (Open MPI 4.1 has none for its shared-memory transport).
        rows += [(name, launcher[:1] + ["-genv", "MPIR_CVAR_ASYNC_PROGRESS", "1"] + launcher[1:],
                  "MPICH, MPIR_CVAR_ASYNC_PROGRESS=1") for name, _, launcher in runtimes if name == "MPICH"]
        for rnd in range(args.rounds):
            for name, _, launcher in runtimes:
                for t in args.threads:
                    got = run(launcher + [exe[(name, "mt_latency")], str(t)] + [str(s) for s in args.sizes], env)
                    if any(k[0] == "thread_level" for k in got):
                        refused.add(name)
                        break
                    for s in args.sizes:
                        lat.setdefault((name, t, s), []).append(got[("mt_latency_us", s)])
                if name in refused:
                    continue
                for t in (1, 2):
                    got = run(launcher + [exe[(name, "mt_msgrate")], str(t)], env)
                    rate.setdefault((name, t), []).append(got[("mt_msgrate_mps", t)])
            for name, launcher, label in rows:
                got = run(launcher + [exe[(name, "overlap")]], env)
                overlap.setdefault(label, []).append((got[("overlap_pct", 0)], got[("pure_us", 0)], got[("overall_us", 0)]))
            print(f"round {rnd + 1}/{args.rounds} done", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    names = [n for n, _, _ in runtimes]
    anchors = [n for n in names if n != "Tessera" and n not in refused]

    def cell(v, fmt):
        return f"{format(statistics.median(v), fmt)} [{format(min(v), fmt)}-{format(max(v), fmt)}]" if v else "–"

    def ratio(key_of, better):
        t = key_of("Tessera")
        if "Tessera" in refused or not t:
            return "–"
        vals = [statistics.median(key_of(a)) for a in anchors if key_of(a)]
        return f"{statistics.median(t) / better(vals):.2f}" if vals else "–"

    note = "; ".join(f"{n} does not provide MPI_THREAD_MULTIPLE" for n in names if n in refused)
    print(f"\nMulti-threaded latency, us, half the round trip averaged over the threads (medians [min-max] over "
          f"{args.rounds} rounds){': ' + note if note else ''}:")
    print("| threads | size | " + " | ".join(names) + " | Tessera / better anchor |")
    print("|---|---|" + "---|" * (len(names) + 1))
    for t in args.threads:
        for s in args.sizes:
            cells = [("not provided" if n in refused else cell(lat.get((n, t, s)), ".3f")) for n in names]
            print(f"| {t} | {s} | " + " | ".join(cells) + f" | {ratio(lambda n: lat.get((n, t, s)), min)} |")
    print(f"\nMessage rate, million 8-byte messages per second, windows of 64:")
    print("| threads | " + " | ".join(names) + " | Tessera / better anchor |")
    print("|---|" + "---|" * (len(names) + 1))
    for t in (1, 2):
        cells = [("not provided" if n in refused else cell([x / 1e6 for x in rate.get((n, t), [])], ".2f")) for n in names]
        print(f"| {t} | " + " | ".join(cells) + f" | {ratio(lambda n: rate.get((n, t)), max)} |")
    print("\nOverlap of a 4 MiB exchange and a 1 MiB MPI_Iallreduce with computation (OSU definition), 2 ranks:")
    print("| runtime | overlap % | communication alone (us) | with computation (us) |")
    print("|---|---|---|---|")
    for _, _, label in rows:
        v = overlap.get(label, [])
        print(f"| {label} | {cell([x[0] for x in v], '.1f')} | {cell([x[1] for x in v], '.0f')} | "
              f"{cell([x[2] for x in v], '.0f')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
