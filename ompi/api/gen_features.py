#!/usr/bin/env python3
"""Generates the feature macros and pkg-config files from what the built native engine implements.

Every one of the ABI's functions links (an unimplemented one answers MPI_ERR_UNSUPPORTED_OPERATION), so
a configure check that links a function learns nothing. This generator runs the built
`tessera_info --coverage --parsable` with the native translator, the same table an MPI process fills,
and writes (into --outdir, the build tree, which has the install tree's shape):
  include/tessera_features.h  included by mpi.h: TESSERA_HAVE_MPI_<CATEGORY> (1 when every function
                              of that category of mpi_api.txt is implemented), TESSERA_HAVE_<FUNCTION>
                              (TESSERA_HAVE_MPI_FILE_OPEN) for each of the ABI's functions, and counts;
  lib/pkgconfig/tessera.pc, lib/pkgconfig/mpi.pc
                              the compile and link flags, with the same facts as variables
                              (tessera_have_mpi_io=0, tessera_missing=<functions>).
docs/compilers.md says how to use them. Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import mpi_api  # noqa: E402
from gen_common import write_atomically  # noqa: E402


class CoverageError(Exception):
    """tessera_info did not say what the native engine implements."""


def chapter_macro(category: str) -> str:
    return f"TESSERA_HAVE_MPI_{category.upper()}"


def function_macro(name: str) -> str:
    return f"TESSERA_HAVE_{name.upper()}"


def read_coverage(api: mpi_api.Api, text: str) -> dict:
    """{function name: implemented} from `tessera_info --coverage --parsable`, for the native engine,
    naming every function of the description."""
    translator = ""
    done = {}
    for line in text.splitlines():
        parts = line.split(":")
        if parts[:2] == ["coverage", "translator"]:
            translator = parts[2]
        if len(parts) == 4 and parts[:2] == ["coverage", "function"]:
            done[parts[2]] = parts[3] == "implemented"
    if translator != "native":
        raise CoverageError(f"tessera_info reported the coverage of translator {translator!r}, not 'native'")
    missing = [f.name for f in api.functions if f.name not in done]
    if missing:
        raise CoverageError(f"tessera_info said nothing of {len(missing)} functions ({', '.join(missing[:3])}...)")
    return done


def chapters(api: mpi_api.Api, done: dict) -> dict:
    """{category: (implemented, total)} in the description's order."""
    out: dict[str, list] = {}
    for f in api.functions:
        c = out.setdefault(f.attrs["cat"], [0, 0])
        c[0] += done[f.name]
        c[1] += 1
    return {k: tuple(v) for k, v in out.items()}


def gen_header(api: mpi_api.Api, done: dict) -> str:
    version = api.constants["MPI_VERSION"].value
    subversion = api.constants["MPI_SUBVERSION"].value
    implemented = sum(done.values())
    clash = {chapter_macro(c) for c in chapters(api, done)} & {function_macro(f.name) for f in api.functions}
    if clash:
        raise CoverageError(f"a category's macro is also a function's: {', '.join(sorted(clash))}")
    o = ["/* tessera_features.h: what this Tessera MPI library really implements. Included by mpi.h.",
         " * Generated at build time by ompi/api/gen_features.py from `tessera_info --coverage --parsable`",
         " * of the built library; do not edit. See docs/compilers.md.",
         " *",
         " * Every function of mpi.h links, also those the native engine does not implement (they raise",
         " * MPI_ERR_UNSUPPORTED_OPERATION): test these macros, not the link. MPI_VERSION.MPI_SUBVERSION",
         " * is the version of the standard ABI mpi.h declares; TESSERA_MPI_COMPLETE says whether all of",
         " * it is implemented. */",
         "#ifndef TESSERA_FEATURES_H", "#define TESSERA_FEATURES_H", "",
         f"#define TESSERA_MPI_FUNCTIONS_TOTAL {len(done)}",
         f"#define TESSERA_MPI_FUNCTIONS_IMPLEMENTED {implemented}",
         f"/* 1 when every function of MPI {version}.{subversion} is implemented. */",
         f"#define TESSERA_MPI_COMPLETE {int(implemented == len(done))}", "",
         "/* Per category of functions (the API description's cat=): 1 when all of it is implemented. */"]
    for cat, (have, total) in chapters(api, done).items():
        o.append(f"#define {chapter_macro(cat)} {int(have == total)} /* {have} of {total} */")
    o += ["", "/* Per function. */"]
    o += [f"#define {function_macro(f.name)} {int(done[f.name])}" for f in api.functions]
    o += ["", "#endif", ""]
    return "\n".join(o)


def gen_pc(api: mpi_api.Api, done: dict, name: str, description: str, version: str, prefix: str) -> str:
    o = [f"# {name}.pc: generated at build time by ompi/api/gen_features.py; see docs/compilers.md.",
         f"prefix={prefix}",
         "includedir=${prefix}/include",
         "libdir=${prefix}/lib",
         f"mpi_version={api.constants['MPI_VERSION'].value}",
         f"mpi_subversion={api.constants['MPI_SUBVERSION'].value}",
         f"tessera_functions_total={len(done)}",
         f"tessera_functions_implemented={sum(done.values())}",
         f"tessera_mpi_complete={int(all(done.values()))}"]
    for cat, (have, total) in chapters(api, done).items():
        o.append(f"{chapter_macro(cat).lower()}={int(have == total)}")
    o.append(f"tessera_missing={' '.join(f.name for f in api.functions if not done[f.name])}")
    o += ["", f"Name: {name}", f"Description: {description}", f"Version: {version}",
          "Cflags: -I${includedir}", "Libs: -L${libdir} -Wl,-rpath,${libdir} -lmpi", ""]
    return "\n".join(o)


def main(argv=None) -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--api", default=here / "mpi_api.txt", type=Path)
    ap.add_argument("--constants", default=here / "constants.tsv", type=Path)
    ap.add_argument("--tessera-info", required=True, type=Path, help="the built tessera_info")
    ap.add_argument("--version", required=True, help="Tessera's version, for the .pc files")
    ap.add_argument("--outdir", required=True, type=Path)
    args = ap.parse_args(argv)
    # The native engine, whatever the environment of the build says (a launcher's variables, a
    # parameter file): the library's own engine is what the header describes.
    env = dict(os.environ, TESSERA_MCA_translator="native")
    try:
        api = mpi_api.load(args.api, args.constants)
        run = subprocess.run([str(args.tessera_info), "--coverage", "--parsable"], env=env, capture_output=True,
                             text=True, check=False)
        if run.returncode != 0:
            raise CoverageError(f"{args.tessera_info} --coverage --parsable failed ({run.returncode}): "
                                f"{run.stderr.strip()}")
        done = read_coverage(api, run.stdout)
    except (mpi_api.ApiError, CoverageError, OSError) as e:
        print(f"gen_features: {e}", file=sys.stderr)
        return 1
    try:
        header = gen_header(api, done)
    except CoverageError as e:
        print(f"gen_features: {e}", file=sys.stderr)
        return 1
    # pkg-config resolves ${pcfiledir}: the files work in the build tree and in any install prefix.
    prefix = "${pcfiledir}/../.."
    write_atomically(args.outdir / "include/tessera_features.h", header)
    write_atomically(args.outdir / "lib/pkgconfig/tessera.pc",
                     gen_pc(api, done, "tessera", "Tessera MPI", args.version, prefix))
    write_atomically(args.outdir / "lib/pkgconfig/mpi.pc",
                     gen_pc(api, done, "mpi", "Tessera MPI (the MPI library, as MPICH's and Open MPI's mpi.pc)",
                            args.version, prefix))
    return 0


if __name__ == "__main__":
    sys.exit(main())
