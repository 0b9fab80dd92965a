#!/usr/bin/env python3
"""Point-to-point benchmarks side by side: Tessera, Open MPI and MPICH in one session.

latency.c (ping-pong) and bandwidth.c (windowed streaming) are built with build/bin/mpicc,
mpicc.openmpi and mpicc.mpich; every variant runs 2 ranks bound to separate cores, round after round
(A B C ... A B C ...), with the anchors measured in the same rounds: memcpy of 4 MiB (memcpy_bw.c) for
shared memory, a raw C TCP ping-pong (raw_socket_pingpong.c) for tcp. The table gives medians, the
spread (min-max), ratios, and the issue's targets (PASS/MISS):
  shm 8 B latency <= Open MPI's and MPICH's;  shm 4 MiB bandwidth >= 0.8 x memcpy 4 MiB;
  tcp 8 B latency <= 1.2 x raw socket;         tcp 4 MiB bandwidth with 2 links >= with 1 link.

With --ddt, ddt_pingpong.c also runs in each round: a ping-pong of 16 MiB of data in vectors of
doubles (every other one; 64-byte blocks 128 bytes apart; 512-byte blocks 1 KiB apart), typed on both
sides, GB/s one way (no target: how derived datatypes cross each transport).

--sizes 64K,256K,1M,4M,16M measures the streaming bandwidth at each size (the same bandwidth.c run,
all sizes in one launch) and prints one more table: per size, each runtime's median [min-max] and
Tessera's ratio to the better of Open MPI and MPICH, with PASS/MISS for "at least the better of the
two". --shm-only leaves out the tcp rows. --load runs the whole benchmark with a competing CPU-bound
process (a busy loop) pinned to each core: started before the first round, and killed when the
benchmark ends, fails or is interrupted. --budget BYTES sets the bytes per bandwidth repetition
(bandwidth.c -b), which keeps loaded runs short.

usage: tools/bench/p2p/p2p_bench.py [--build build] [--rounds 5] [--quick] [--tessera-only] [--ddt]
                                    [--sizes LIST] [--shm-only] [--load] [--budget BYTES]
"""
import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MiB4 = 4 << 20
MiB16 = 16 << 20
DDT_LAYOUTS = ((1, 2), (8, 16), (64, 128))  # (blocklen, stride) in doubles


def run(cmd, env, timeout=600):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr.decode()[-600:]}")
    out = {}
    for line in p.stdout.decode().splitlines():
        parts = line.split()
        if len(parts) == 3:
            out[(parts[0], int(parts[1]))] = float(parts[2])
    return out


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    t = text.strip().upper().removesuffix("IB").removesuffix("B")
    try:
        return int(t[:-1]) * units[t[-1]] if t and t[-1] in units else int(t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--sizes: '{text}' is not a size (bytes, or a number with K, M or G)")


class BusyLoops:
    """One CPU-bound process pinned to each core this process may run on, for the loaded condition.
    Each loop is its own session, killed by its pid when the benchmark leaves (normally, on an
    exception, on Ctrl-C or on SIGTERM)."""

    def __init__(self):
        self.procs = []

    def __enter__(self):
        for cpu in sorted(os.sched_getaffinity(0)):
            self.procs.append(subprocess.Popen(["taskset", "-c", str(cpu), sys.executable, "-c", "while True: pass"],
                                               start_new_session=True))
        print(f"(load: busy loops on cores {sorted(os.sched_getaffinity(0))}, pids "
              f"{[p.pid for p in self.procs]})", file=sys.stderr)
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait()
        print(f"(load: {len(self.procs)} busy loops stopped)", file=sys.stderr)
        return False


def sigterm_exits(signum, frame):
    raise SystemExit(128 + signum)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build", help="Tessera build (or install) tree")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="one round, Tessera only: checks the programs run")
    ap.add_argument("--tessera-only", action="store_true")
    ap.add_argument("--ddt", action="store_true", help="also the derived-datatype ping-pong (ddt_pingpong.c)")
    ap.add_argument("--sizes", type=lambda t: [parse_size(x) for x in t.split(",")], default=None,
                    help="streaming bandwidth at each of these sizes, e.g. 64K,256K,1M,4M,16M")
    ap.add_argument("--shm-only", action="store_true", help="only the shared-memory rows")
    ap.add_argument("--load", action="store_true", help="a busy loop pinned to each core while it runs")
    ap.add_argument("--budget", type=float, default=None, help="bytes per bandwidth repetition (bandwidth.c -b)")
    args = ap.parse_args()
    signal.signal(signal.SIGTERM, sigterm_exits)
    if args.load:
        with BusyLoops():
            return measure(args)
    return measure(args)


def measure(args):
    rounds = 1 if args.quick else args.rounds
    only_tessera = args.quick or args.tessera_only
    tbin = os.path.abspath(os.path.join(args.build, "bin"))
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_base_warn_component_unused="0")
    work = tempfile.mkdtemp(prefix="tessera-p2p-bench-")
    try:
        cc = {"Tessera": os.path.join(tbin, "mpicc")}
        if not only_tessera:
            for name, c, l in (("Open MPI", "mpicc.openmpi", "mpirun.openmpi"), ("MPICH", "mpicc.mpich", "mpirun.mpich")):
                if shutil.which(c) and shutil.which(l):
                    cc[name] = c
                else:
                    print(f"({name} not installed: skipped)")
        exe = {}
        for name, compiler in cc.items():
            tag = name.replace(" ", "").lower()
            for prog in ("latency", "bandwidth") + (("ddt_pingpong",) if args.ddt else ()):
                out = f"{work}/{prog}_{tag}"
                subprocess.run([compiler, "-O2", "-o", out, os.path.join(HERE, f"{prog}.c")], check=True, env=env,
                               stderr=subprocess.DEVNULL)
                exe[(name, prog)] = out
        for prog in ("memcpy_bw", "raw_socket_pingpong"):
            subprocess.run(["cc", "-O2", "-o", f"{work}/{prog}", os.path.join(HERE, f"{prog}.c")], check=True)

        tess = [os.path.join(tbin, "mpirun"), "-np", "2", "--bind-to", "core"]
        ompi = ["mpirun.openmpi", "-np", "2", "--bind-to", "core"]
        mpich = ["mpirun.mpich", "-np", "2", "-bind-to", "core"]
        # (figure row, transport, runtime, launcher prefix, extra env)
        variants = [("shm", "Tessera", tess + ["--mca", "btl", "self,shm"], {}),
                    ("tcp", "Tessera", tess + ["--mca", "btl", "self,tcp"], {}),
                    ("tcp2", "Tessera", tess + ["--mca", "btl", "self,tcp", "--mca", "btl_tcp_links", "2"], {})]
        if "Open MPI" in cc:
            variants += [("shm", "Open MPI", ompi + ["--mca", "btl", "self,vader"], {}),
                         ("tcp", "Open MPI", ompi + ["--mca", "pml", "ob1", "--mca", "btl", "self,tcp"], {})]
        if "MPICH" in cc:
            variants += [("shm", "MPICH", mpich, {}),
                         ("tcp", "MPICH", mpich, {"UCX_TLS": "self,tcp"})]
        if args.shm_only:
            variants = [v for v in variants if v[0] == "shm"]
        sizes = args.sizes or [MiB4]
        # 4 MiB always runs: the first table and its target use it.
        bw_args = (["-b", str(int(args.budget))] if args.budget else []) + \
            [str(n) for n in sizes + ([] if MiB4 in sizes else [MiB4])]
        stream = {}  # (row, runtime) -> size -> GB/s per round
        results = {}
        ddt = {}  # (row, runtime): per round, GB/s per DDT_LAYOUTS entry
        failed = set()
        for rnd in range(rounds):
            for row, name, launcher, extra in variants:
                key = (row, name)
                if key in failed:
                    continue
                e = dict(env, **extra)
                try:
                    lat = run(launcher + [exe[(name, "latency")], "8"], e)
                    bw = run(launcher + [exe[(name, "bandwidth")]] + bw_args, e)
                    results.setdefault(key, []).append((lat[("latency_us", 8)], bw[("bandwidth_gbs", MiB4)]))
                    for n in sizes:
                        stream.setdefault(key, {}).setdefault(n, []).append(bw[("bandwidth_gbs", n)])
                    if args.ddt:
                        layouts = [str(x) for b, st in DDT_LAYOUTS for x in (MiB16, b, st)]
                        dd = run(launcher + [exe[(name, "ddt_pingpong")]] + layouts, e)
                        ddt.setdefault(key, []).append(
                            [dd[(f"ddt_vector_{b}_{st}_gbs", MiB16)] for b, st in DDT_LAYOUTS])
                except (RuntimeError, subprocess.TimeoutExpired, KeyError) as err:
                    print(f"{name} {row}: failed: {err}", file=sys.stderr)
                    failed.add(key)
            mc = run(["taskset", "-c", "0", f"{work}/memcpy_bw", str(MiB4)], env)
            raw = run(["taskset", "-c", ",".join(str(c) for c in sorted(os.sched_getaffinity(0))[:2]),
                       f"{work}/raw_socket_pingpong"], env)
            results.setdefault(("anchor", "memcpy"), []).append((0.0, mc[("memcpy_gbs", MiB4)]))
            results.setdefault(("anchor", "raw"), []).append((raw[("raw_tcp_latency_us", 8)], 0.0))
            print(f"round {rnd + 1}/{rounds} done", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def med(key, i):
        v = [x[i] for x in results.get(key, [])]
        return statistics.median(v) if v else None

    def spread(key, i):
        v = [x[i] for x in results.get(key, [])]
        return f"[{min(v):.3g}-{max(v):.3g}]" if v else ""

    memcpy = med(("anchor", "memcpy"), 1)
    raw = med(("anchor", "raw"), 0)
    condition = "a busy loop pinned to each core" if args.load else "no competing load started"
    print(f"\nMedians over {rounds} interleaved rounds (min-max), 2 ranks bound to cores, {condition}. "
          f"Anchors: memcpy 4 MiB "
          f"{memcpy:.2f} GB/s {spread(('anchor', 'memcpy'), 1)}; raw TCP ping-pong 8 B {raw:.2f} us "
          f"{spread(('anchor', 'raw'), 0)}.")
    print("| transport | runtime | 8 B latency (us) | 4 MiB bandwidth (GB/s) |")
    print("|---|---|---|---|")
    for row, name, _, _ in variants:
        key = (row, name)
        if key in failed or key not in results:
            print(f"| {row} | {name} | failed | failed |")
            continue
        print(f"| {row} | {name} | {med(key, 0):.3f} {spread(key, 0)} | {med(key, 1):.2f} {spread(key, 1)} |")

    if ddt:
        print("\nDerived datatypes: ping-pong of 16 MiB of data, vector of doubles typed on both sides, GB/s one way "
              "(medians, min-max):")
        print("| transport | runtime | " + " | ".join(f"blocklen {b}, stride {st}" for b, st in DDT_LAYOUTS) + " |")
        print("|---|---|" + "---|" * len(DDT_LAYOUTS))
        for row, name, _, _ in variants:
            rows = ddt.get((row, name))
            if rows:
                cells = [f"{statistics.median(r[i] for r in rows):.2f} [{min(r[i] for r in rows):.3g}-"
                         f"{max(r[i] for r in rows):.3g}]" for i in range(len(DDT_LAYOUTS))]
                print(f"| {row} | {name} | " + " | ".join(cells) + " |")

    def target(text, ok):
        print(f"{'PASS' if ok else 'MISS'}: {text}")

    if args.sizes:
        anchors = [n for n in ("Open MPI", "MPICH") if ("shm", n) in stream]
        print(f"\nshm streaming bandwidth, GB/s, windows of 64 (medians [min-max] over {rounds} rounds, {condition}):")
        print("| size | " + " | ".join(n for n in ("Tessera", *anchors)) + " | Tessera / best anchor |")
        print("|---|" + "---|" * (len(anchors) + 2))
        verdicts = []
        for n in sizes:
            cells, meds = [], {}
            for name in ("Tessera", *anchors):
                v = stream.get(("shm", name), {}).get(n)
                if v:
                    meds[name] = statistics.median(v)
                    cells.append(f"{meds[name]:.2f} [{min(v):.3g}-{max(v):.3g}]")
                else:
                    cells.append("failed")
            best = max((meds[a] for a in anchors if a in meds), default=None)
            ratio = f"{meds['Tessera'] / best:.2f}" if best and "Tessera" in meds else "–"
            label = f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB" if n >= 1 << 10 else f"{n} B"
            print(f"| {label} | " + " | ".join(cells) + f" | {ratio} |")
            if best and "Tessera" in meds:
                verdicts.append((label, meds["Tessera"], best))
        for label, t, best in verdicts:
            target(f"shm streaming {label} {t:.2f} GB/s >= the better anchor's {best:.2f} GB/s "
                   f"(ratio {t / best:.2f})", t >= best)

    t_shm = med(("shm", "Tessera"), 0)
    if t_shm is not None:
        for other in ("Open MPI", "MPICH"):
            o = med(("shm", other), 0)
            if o is not None:
                target(f"shm 8 B latency {t_shm:.3f} us <= {other}'s {o:.3f} us (ratio {t_shm / o:.2f})", t_shm <= o)
        bw = med(("shm", "Tessera"), 1)
        target(f"shm 4 MiB bandwidth {bw:.2f} GB/s >= 0.8 x memcpy {memcpy:.2f} GB/s (ratio {bw / memcpy:.2f})",
               bw >= 0.8 * memcpy)
    t_tcp = med(("tcp", "Tessera"), 0)
    if t_tcp is not None:
        target(f"tcp 8 B latency {t_tcp:.2f} us <= 1.2 x raw socket {raw:.2f} us (ratio {t_tcp / raw:.2f})",
               t_tcp <= 1.2 * raw)
        b1, b2 = med(("tcp", "Tessera"), 1), med(("tcp2", "Tessera"), 1)
        if b2 is not None:
            target(f"tcp 4 MiB bandwidth with 2 links {b2:.2f} GB/s >= 1 link {b1:.2f} GB/s (ratio {b2 / b1:.2f})",
                   b2 >= b1)
    return 1 if any(k[1] == "Tessera" for k in failed) else 0


if __name__ == "__main__":
    sys.exit(main())
