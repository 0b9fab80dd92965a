"""Helpers shared by the generators in this directory (gen_mpi_h.py, ...). Python 3 standard library only."""

from __future__ import annotations

from pathlib import Path


def write_atomically(path: Path, text: str) -> None:
    """Writes `text` to `path` through a temporary file and a rename, so that a compiler running in
    parallel never sees a half-written output."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)
