#!/usr/bin/env python3
"""Checks a generated mpi.h against the ABI's own lists, independently of the generator:

  * every function of functions.txt has a prototype and a PMPI_ prototype of the same type;
  * every constant of constants.tsv is a macro with the ABI value and, where the table casts it,
    that C type (checked by a small C11 program that this script writes, compiles and runs).

Usage: check_header.py --header DIR/mpi.h --functions functions.txt --constants constants.tsv
                       --cc gcc --workdir DIR
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

CAST = re.compile(r"^\(\((?P<type>[A-Za-z_][\w ]*\**)\)(?P<num>-?(?:0x[0-9a-fA-F]+|\d+))\)$")
NUMBER = re.compile(r"^-?(?:0x[0-9a-fA-F]+|\d+)$")


def read_constants(path):
    """name -> (C type or None, value), aliases resolved."""
    table, aliases = {}, []
    for line in Path(path).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, text = [x.strip() for x in line.split("\t")]
        m = CAST.match(text)
        if m:
            table[name] = (m.group("type").strip(), int(m.group("num"), 0))
        elif NUMBER.match(text):
            table[name] = (None, int(text, 0))
        else:
            aliases.append((name, text))
    for name, target in aliases:
        table[name] = table[target]
    return table


def run(cmd, what):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(f"check_header: {what} failed: {' '.join(map(str, cmd))}\n{r.stdout}{r.stderr}")
    return r


def check_prototypes(header, functions, cc, workdir, include_dir):
    text = header.read_text()
    missing = []
    for name in functions:
        for n in (name, "P" + name):
            if not re.search(r"^[A-Za-z_][\w ]*\**\s*\b" + n + r"\(", text, re.M):
                missing.append(n)
    for n in missing:
        print(f"missing prototype: {n}")
    src = ["#include <mpi.h>"]
    for name in functions:
        src.append(f"_Static_assert(__builtin_types_compatible_p(__typeof__(&{name}), __typeof__(&P{name})),"
                   f' "{name} and P{name} have different types");')
    c = workdir / "prototypes.c"
    c.write_text("\n".join(src) + "\n")
    r = run([cc, "-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror", "-fsyntax-only",
             f"-I{include_dir}", str(c)], "compiling the prototype check")
    return len(missing) + (r.returncode != 0)


def check_constants(constants, cc, workdir, include_dir):
    src = ["#include <mpi.h>", "#include <stdint.h>", "#include <stdio.h>", "",
           "int main(void)", "{", "    int failures = 0;"]
    for name, (ctype, value) in constants.items():
        src += [f"#ifndef {name}", f'#error "{name} is not defined as a macro"', "#endif"]
        src.append(f"    if ((long long)(intptr_t)({name}) != {value}LL) {{")
        src.append(f'        printf("{name} = %lld, expected {value}\\n", (long long)(intptr_t)({name}));')
        src.append("        ++failures;")
        src.append("    }")
        t = ctype or "int"
        src.append(f"    if (!_Generic(({name}), {t}: 1, default: 0)) {{")
        src.append(f'        printf("{name} does not have type {t}\\n");')
        src.append("        ++failures;")
        src.append("    }")
    src += ["    return failures != 0;", "}"]
    c = workdir / "constants.c"
    exe = workdir / "constants"
    c.write_text("\n".join(src) + "\n")
    r = run([cc, "-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror", f"-I{include_dir}", str(c),
             "-o", str(exe)], "compiling the constant check")
    if r.returncode != 0:
        return 1
    r = subprocess.run([str(exe)], capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    return r.returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--header", required=True, type=Path)
    ap.add_argument("--functions", required=True, type=Path)
    ap.add_argument("--constants", required=True, type=Path)
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--workdir", required=True, type=Path)
    a = ap.parse_args()
    a.workdir.mkdir(parents=True, exist_ok=True)
    functions = [l.strip() for l in a.functions.read_text().splitlines() if l.strip()]
    constants = read_constants(a.constants)
    include_dir = a.header.resolve().parent
    bad_f = check_prototypes(a.header, functions, a.cc, a.workdir, include_dir)
    bad_c = check_constants(constants, a.cc, a.workdir, include_dir)
    print(f"{len(functions)} functions checked for MPI_ and PMPI_ prototypes: "
          f"{'ok' if not bad_f else 'FAILED'}")
    print(f"{len(constants)} constants checked for value and type: {'ok' if not bad_c else 'FAILED'}")
    return 1 if (bad_f or bad_c) else 0


if __name__ == "__main__":
    sys.exit(main())
