"""Helpers shared by the generators in this directory (gen_mpi_h.py, ...). Python 3 standard library only."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import mpi_api


def write_atomically(path: Path, text: str) -> None:
    """Writes `text` to `path` through a temporary file and a rename, so that a compiler running in
    parallel never sees a half-written output."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def null_handle(api, cls: str) -> str:
    """The null constant of a handle class (MPI_COMM_NULL for "comm"): what MPI_<T>_fromint returns when
    it has no slot, and what a failed call hands out for a new object."""
    ctype = api.handle_classes[cls]
    for c in api.constants.values():
        if c.ctype == ctype and c.name.endswith("_NULL"):
            return c.name
    raise mpi_api.ApiError(f"no null constant of type {ctype}")


def outdir_main(argv, doc: str, generate, errors=(mpi_api.ApiError,)) -> int:
    """The command line of a generator that writes into --outdir: loads the description (--api,
    --constants), calls generate(api), which returns {path relative to --outdir: text}, and writes
    nothing unless all of it was generated. `doc` is the generator's docstring, whose first line is the
    help; `errors` are the exceptions that mean a description it cannot generate from."""
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--api", default=here / "mpi_api.txt", type=Path)
    ap.add_argument("--constants", default=here / "constants.tsv", type=Path)
    ap.add_argument("--outdir", required=True, type=Path)
    args = ap.parse_args(argv)
    try:
        outputs = generate(mpi_api.load(args.api, args.constants))
    except errors as e:
        print(f"{Path(sys.argv[0]).stem}: {e}", file=sys.stderr)
        return 1
    for rel, text in outputs.items():
        write_atomically(args.outdir / rel, text)
    return 0
