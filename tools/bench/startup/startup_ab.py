#!/usr/bin/env python3
"""Start-up of two Tessera trees, A/B in the same run: `mpirun -np N hello_world N` (or the singleton
with --np 1), interleaved round by round, wall time and the CPU time of mpirun and its ranks (steadier
than wall time on a shared machine). Medians, min-max, ratio B/A.

    startup_ab.py --a /tmp/main-build --b build [--np 4] [--rounds 40]

A tree is a build directory (or a copy of its bin/, lib/ and tests/mpi/hello_world)."""
import argparse, os, resource, statistics as st, subprocess, sys, time

ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
ap.add_argument('--a', required=True)
ap.add_argument('--b', required=True)
ap.add_argument('--np', type=int, default=4)
ap.add_argument('--rounds', type=int, default=40)
args = ap.parse_args()

def command(tree):
    hello = os.path.join(tree, 'tests/mpi/hello_world')
    if args.np == 1:
        return [hello, '1']
    return [os.path.join(tree, 'bin/mpirun'), '-np', str(args.np), '--oversubscribe', hello, str(args.np)]

def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

trees = {'A': command(args.a), 'B': command(args.b)}
wall = {k: [] for k in trees}
cpu = {k: [] for k in trees}
for _ in range(args.rounds):
    for name, cmd in trees.items():
        c0, t0 = children_cpu(), time.perf_counter()
        rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        wall[name].append((time.perf_counter() - t0) * 1e3)
        cpu[name].append((children_cpu() - c0) * 1e3)
        if rc != 0:
            sys.exit(f'{name}: {" ".join(cmd)} exited {rc}')
print(f'load average {os.getloadavg()[0]:.1f}, {args.rounds} rounds, np {args.np}')
for name in trees:
    w, c = wall[name], cpu[name]
    print(f'{name}: wall median {st.median(w):6.1f} ms ({min(w):.1f}-{max(w):.1f}) ratio {st.median(w) / st.median(wall["A"]):.3f}'
          f' | cpu median {st.median(c):6.1f} ms ({min(c):.1f}-{max(c):.1f}) ratio {st.median(c) / st.median(cpu["A"]):.3f}')
