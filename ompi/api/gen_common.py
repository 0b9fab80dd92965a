"""Helpers shared by the generators in this directory (gen_mpi_h.py, ...). Python 3 standard library only."""

from __future__ import annotations

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
