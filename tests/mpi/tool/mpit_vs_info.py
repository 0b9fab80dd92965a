#!/usr/bin/env python3
"""What MPI_T enumerates equals what tessera_info lists: the same parameters (names), with the same
types, levels (as MPI_T verbosities), scopes and enumerations. Runs the mpit_cvars program, which
writes its listing, and tessera_info --param all all --level 9 --parsable, and compares them.

usage: mpit_vs_info.py <mpirun> <mpit_cvars> <tessera_info> <scratch dir>"""
import os
import subprocess
import sys

DATATYPE = {"bool": "MPI_INT", "int": "MPI_INT", "enum": "MPI_INT", "unsigned": "MPI_UNSIGNED",
            "size": "MPI_UNSIGNED_LONG", "double": "MPI_DOUBLE", "string": "MPI_CHAR", "list": "MPI_CHAR"}
VERBOSITY = [0x09, 0x0a, 0x0c, 0x11, 0x12, 0x14, 0x21, 0x22, 0x24]
SCOPE = {"constant": 1, "readonly": 2, "local": 3, "group": 5, "all": 7}


def from_info(tessera_info):
    out = subprocess.run([tessera_info, "--param", "all", "all", "--level", "9", "--parsable"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    params = {}
    for line in out.splitlines():
        parts = line.split(":", 6)
        if len(parts) < 6 or parts[0] != "mca" or parts[3] != "param":
            continue
        name, key = parts[4], parts[5]
        p = params.setdefault(name, {"enum": {}})
        if key in ("type", "level", "status"):
            p[key] = parts[6] if len(parts) > 6 else ""
        elif key == "enumerator" and len(parts) > 6:
            sub = parts[6].split(":", 2)  # value:N:name
            if sub[0] == "value":
                p["enum"][int(sub[1])] = sub[2]
    return params


def from_mpit(path):
    params = {}
    with open(path) as f:
        for line in f:
            name, datatype, verbosity, scope, items = line.rstrip("\n").split("\t")
            enum = {}
            for item in filter(None, items.split(",")):
                value, label = item.split("=", 1)
                enum[int(value)] = label
            params[name] = {"datatype": datatype, "verbosity": int(verbosity), "scope": int(scope), "enum": enum}
    return params


def main():
    mpirun, program, tessera_info, scratch = sys.argv[1:5]
    listing = os.path.join(scratch, "mpit_cvars.txt")
    subprocess.run([mpirun, "-np", "1", "--timeout", "60", program, listing], check=True, timeout=120)
    mpit = from_mpit(listing)
    info = from_info(tessera_info)
    problems = []
    for name in sorted(set(info) - set(mpit)):
        problems.append(f"{name}: listed by tessera_info, not enumerated by MPI_T")
    for name in sorted(set(mpit) - set(info)):
        problems.append(f"{name}: enumerated by MPI_T, not listed by tessera_info")
    for name in sorted(set(info) & set(mpit)):
        i, m = info[name], mpit[name]
        if DATATYPE[i["type"]] != m["datatype"]:
            problems.append(f"{name}: type {i['type']} but MPI_T datatype {m['datatype']}")
        if VERBOSITY[int(i["level"]) - 1] != m["verbosity"]:
            problems.append(f"{name}: level {i['level']} but MPI_T verbosity {m['verbosity']:#x}")
        if SCOPE[i["status"]] != m["scope"]:
            problems.append(f"{name}: scope {i['status']} but MPI_T scope {m['scope']}")
        if i["enum"] != m["enum"]:
            problems.append(f"{name}: enumerators {i['enum']} but MPI_T {m['enum']}")
    for p in problems:
        print("MISMATCH", p)
    print(f"{len(info)} parameters in tessera_info, {len(mpit)} cvars in MPI_T, {len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
