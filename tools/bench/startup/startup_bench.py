#!/usr/bin/env python3
"""Start-up benchmark: wall time of `mpirun -np N ./init_finalize` under Tessera, Open MPI and MPICH,
measured in the same run, interleaved (A B C A B C ...), reported as medians with spread and ratios.

usage: tools/bench/startup/startup_bench.py [--build build] [--rounds 7] [--np 1,2,4]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def build(compiler, out, env=None):
    subprocess.run([compiler, "-O2", "-o", out, os.path.join(HERE, "init_finalize.c")], check=True, env=env)


def run_once(cmd, env):
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.decode()[-500:]}")
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="Tessera build (or install) tree")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--np", default="1,2,4")
    args = ap.parse_args()
    tessera_bin = os.path.abspath(os.path.join(args.build, "bin"))
    nps = [int(x) for x in args.np.split(",")]

    env = dict(os.environ)
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_base_warn_component_unused="0")
    work = tempfile.mkdtemp(prefix="tessera-startup-")
    try:
        runtimes = []
        build(os.path.join(tessera_bin, "mpicc"), f"{work}/tessera", env)
        runtimes.append(("Tessera", lambda n: [f"{tessera_bin}/mpirun", "-np", str(n), "--oversubscribe",
                                               f"{work}/tessera"]))
        if shutil.which("mpicc.openmpi") and shutil.which("mpirun.openmpi"):
            build("mpicc.openmpi", f"{work}/openmpi", env)
            runtimes.append(("Open MPI", lambda n: ["mpirun.openmpi", "--oversubscribe", "-np", str(n),
                                                    f"{work}/openmpi"]))
        if shutil.which("mpicc.mpich") and shutil.which("mpirun.mpich"):
            build("mpicc.mpich", f"{work}/mpich", env)
            runtimes.append(("MPICH", lambda n: ["mpirun.mpich", "-np", str(n), f"{work}/mpich"]))

        times = {(name, n): [] for name, _ in runtimes for n in nps}
        for name, cmd in runtimes:  # warm the page cache and the dynamic loader
            for n in nps:
                run_once(cmd(n), env)
        for _ in range(args.rounds):
            for n in nps:
                for name, cmd in runtimes:
                    times[(name, n)].append(run_once(cmd(n), env))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    names = [name for name, _ in runtimes]
    print(f"mpirun -np N of MPI_Init+MPI_Finalize: median wall time over {args.rounds} interleaved rounds "
          f"(min-max in brackets)")
    header = "| np | " + " | ".join(f"{n} (ms)" for n in names)
    header += "".join(f" | Tessera/{n}" for n in names[1:]) + " |"
    print(header)
    print("|" + "---|" * (1 + len(names) + len(names) - 1))
    for n in nps:
        med = {name: statistics.median(times[(name, n)]) for name in names}
        cells = [f"{med[name]*1e3:.1f} [{min(times[(name, n)])*1e3:.0f}-{max(times[(name, n)])*1e3:.0f}]"
                 for name in names]
        ratios = [f"{med['Tessera'] / med[name]:.2f}" for name in names[1:]]
        print(f"| {n} | " + " | ".join(cells) + "".join(f" | {r}" for r in ratios) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
