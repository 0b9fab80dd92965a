#!/usr/bin/env python3
"""Compares the prototypes of the API description with those of the MPI libraries installed on the
machine (MPICH's mpi_proto.h/mpio.h, Open MPI's mpi.h), function by function, after mapping their
types to the standard ABI's. A difference that is not listed in KNOWN below fails the test, so a
mistake in mpi_api.txt is caught by two independent sources. Exits 77 (skipped) when neither
runtime's headers are installed.
"""

import argparse
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True

RUNTIMES = {
    "MPICH 4.0": ["/usr/include/x86_64-linux-gnu/mpich/mpi_proto.h",
                  "/usr/include/x86_64-linux-gnu/mpich/mpio.h",
                  "/usr/include/x86_64-linux-gnu/mpich/mpi.h"],
    "Open MPI 4.1": ["/usr/lib/x86_64-linux-gnu/openmpi/include/mpi.h"],
}

# Where the standard changed after the runtime's release (MPI-4.1: partitioned count is int with
# a _c variant; MPI_Pready_list takes a const array).
KNOWN = {
    ("MPICH 4.0", "MPI_Psend_init"), ("MPICH 4.0", "MPI_Precv_init"), ("MPICH 4.0", "MPI_Pready_list"),
}


def canon(t):
    t = t.replace("MPIO_Request", "MPI_Request").replace("MPI_Fint", "int")
    t = re.sub(r"\[\s*\]", "*", t, count=1)  # a parameter array is a pointer
    t = " ".join(t.replace("*", " * ").split())
    while "* *" in t:
        t = t.replace("* *", "**")
    return t


def param_types(argstr):
    argstr = " ".join(argstr.split())
    if argstr in ("", "void"):
        return []
    out = []
    for a in argstr.split(","):
        a = a.strip()
        m = re.match(r"^(.*?)([A-Za-z_]\w*)\s*((?:\[[^\]]*\])*)$", a)
        if a != "..." and m and m.group(2) not in ("int", "void", "char", "double") \
                and not m.group(2).startswith("MPI_") and m.group(1).strip():
            a = m.group(1) + m.group(3)
        out.append(canon(a))
    return out


def runtime_prototypes(paths):
    protos = {}
    for p in paths:
        text = Path(p).read_text()
        text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
        for m in re.finditer(r"\b(int|double|MPI_Aint|MPI_\w+)\s+(MPI_\w+)\s*\(([^;{]*?)\)\s*[A-Z_()0-9, ]*;", text):
            protos.setdefault(m.group(2), (m.group(1), param_types(m.group(3))))
    return protos


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--api-dir", required=True, type=Path)
    a = ap.parse_args()
    sys.path.insert(0, str(a.api_dir))
    import mpi_api
    api = mpi_api.load(a.api_dir / "mpi_api.txt", a.api_dir / "constants.tsv")
    failures, compared, present = 0, 0, 0
    for runtime, paths in RUNTIMES.items():
        if not all(Path(p).exists() for p in paths):
            print(f"{runtime}: headers not installed, not compared")
            continue
        present += 1
        theirs = runtime_prototypes(paths)
        n = 0
        for f in api.functions:
            if f.name not in theirs:
                continue
            n += 1
            mine = (f.ret, [canon(x.decl("")) for x in f.args])
            if mine == theirs[f.name] and (runtime, f.name) in KNOWN:
                print(f"{runtime}: {f.name} now agrees; remove it from KNOWN")
            if mine != theirs[f.name] and (runtime, f.name) not in KNOWN:
                failures += 1
                print(f"{runtime}: {f.name} differs\n  description: {mine}\n  {runtime}: {theirs[f.name]}")
        compared += n
        print(f"{runtime}: {n} prototypes compared")
    if not present:
        print("no MPI runtime headers installed: skipped")
        return 77
    print(f"{compared} comparisons, {failures} unexpected differences")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
