#!/usr/bin/env python3
"""Reader and validator of the MPI API description (mpi_api.txt) and the ABI constants (constants.tsv).

Every generator imports this module, so that the format is parsed in one place and every generated
file sees the same, checked facts. Python 3 standard library only. The format is described in
docs/api-description.md; `python3 mpi_api.py --check` validates a description and prints a summary,
`--json FILE` writes it as JSON for tools that prefer that.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

DIRECTIONS = ("in", "out", "inout")

# Kinds whose C element type is an integer; the set they may carry values from is in the kind or in
# special=. See docs/api-description.md for what each one means to checks and translators.
INTEGER_KINDS = {"int", "count", "bytes", "disp", "address", "offset", "rank", "tag", "flag", "index",
                 "error", "keyval", "strlen", "argc", "errcodes", "weights", "rank_range"}
PARAM_KINDS = {"handle", "callback", "enum", "bits", "fint"}
VOID_KINDS = {"buffer", "mem", "addr_out", "attr_out", "opaque", "tool_buffer", "tool_object"}
OTHER_KINDS = {"status", "string", "argv", "argv_ptr", "argvs", "varargs"}
VALUE_ATTRS = {"len", "valid", "count", "type", "bytes", "sentinels", "special", "max", "maxlen",
               "keyval", "parts", "sig"}
# sig=: where an input array is significant (read), when not on every process: at the root of a rooted
# collective (root:<rank argument>), or unless a buffer argument is MPI_IN_PLACE (not_in_place:<buffer>).
SIG_CONDITIONS = {"root", "not_in_place"}
FLAG_ATTRS = {"ignorable", "conditional"}
FUNCTION_ATTRS = {"cat", "errh", "large", "ret", "trace"}
CATEGORIES = {"abi", "attr", "coll", "comm", "dpm", "dtype", "env", "errh", "group", "icoll", "info",
              "io", "op", "p2p", "part", "pcoll", "request", "rma", "session", "status", "tool", "topo"}
ERRH_SPECIAL = {"COMM_SELF", "FILE_NULL", "none"}
# trace=: what a call means to the trace framework (docs/trace.md). Point-to-point roles, request roles,
# the life cycle, and coll:<operation> for collectives (blocking, nonblocking and persistent alike).
TRACE_ROLES = {"send", "isend", "send_init", "recv", "irecv", "recv_init", "mprobe", "mrecv", "imrecv",
               "sendrecv", "isendrecv", "start", "complete", "cancel", "free", "init", "finalize", "comm_name"}
TRACE_COLL_OPS = {"barrier", "bcast", "gather", "gatherv", "scatter", "scatterv", "allgather", "allgatherv",
                  "alltoall", "alltoallv", "alltoallw", "allreduce", "reduce", "reduce_scatter",
                  "reduce_scatter_block", "scan", "exscan", "neighbor_allgather", "neighbor_allgatherv",
                  "neighbor_alltoall", "neighbor_alltoallv", "neighbor_alltoallw"}
# Length expressions that depend on the state of a communicator or on another array's contents.
LEN_FUNCS = {"group", "size", "indegree", "outdegree", "cartdim", "sum", "last"}
INTEGER_CTYPES = {"int", "MPI_Aint", "MPI_Count", "MPI_Offset", "MPI_T_cb_safety", "MPI_T_source_order"}


class ApiError(Exception):
    """A description or constants file that does not say what it must; the message names file:line."""


@dataclass
class Arg:
    name: str
    ctype: str           # e.g. "const void *", "int []", "int [][3]", "char ** []"
    direction: str
    kind: str            # e.g. "handle:comm", "buffer", "rank"
    attrs: dict = field(default_factory=dict)   # value attributes, lists already split
    flags: set = field(default_factory=set)
    line: int = 0

    @property
    def kind_base(self) -> str:
        return self.kind.split(":", 1)[0]

    @property
    def kind_param(self) -> str | None:
        return self.kind.split(":", 1)[1] if ":" in self.kind else None

    @property
    def is_varargs(self) -> bool:
        return self.ctype == "..."

    @property
    def is_array(self) -> bool:
        return "[" in self.ctype

    @property
    def is_pointer(self) -> bool:
        return "*" in self.ctype.split("[", 1)[0]

    @property
    def is_const(self) -> bool:
        return self.ctype.startswith("const ")

    @property
    def base_type(self) -> str:
        """The element type with const, pointers and array brackets removed ("MPI_Comm")."""
        t = self.ctype.split("[", 1)[0].replace("const ", "").replace("*", " ")
        return " ".join(t.split())

    def decl(self, name: str | None = None) -> str:
        """C declarator for this argument: "const void *buf", "int ranges[][3]", "char **argv[]"."""
        if self.is_varargs:
            return "..."
        name = self.name if name is None else name
        base, _, suffix = self.ctype.partition("[")
        base = base.strip()
        suffix = "[" + suffix.replace(" ", "") if suffix else ""
        sep = "" if base.endswith("*") else " "
        return f"{base}{sep}{name}{suffix}"

    def list_attr(self, key: str) -> list[str]:
        v = self.attrs.get(key)
        return v.split(",") if v else []


@dataclass
class Function:
    name: str
    ret: str
    attrs: dict
    args: list
    is_callback: bool = False
    line: int = 0

    @property
    def pname(self) -> str:
        """The profiling-interface name (PMPI_x for MPI_x)."""
        return "P" + self.name

    @property
    def ret_kind(self) -> str:
        """What the return value is: "error" (an MPI error code), "void", or the kind in ret=."""
        if "ret" in self.attrs:
            return self.attrs["ret"]
        return {"int": "error", "void": "void"}.get(self.ret, self.ret)

    def params(self, names: bool = True) -> str:
        if not self.args:
            return "void"
        return ", ".join(a.decl() if names else a.decl("") for a in self.args)

    def prototype(self, name: str | None = None) -> str:
        return f"{self.ret} {name or self.name}({self.params()})"

    def arg(self, name: str) -> Arg | None:
        for a in self.args:
            if a.name == name:
                return a
        return None


@dataclass
class Constant:
    name: str
    text: str          # the C expression from constants.tsv, e.g. "((MPI_Comm)0x00000101)"
    ctype: str | None  # the cast type, or None for plain integers
    value: int         # the integer value, aliases resolved
    alias_of: str | None = None


@dataclass
class Api:
    scalars: dict          # C name -> C type
    handles: dict          # C name -> class
    sets: dict             # set name -> list of constant names
    callbacks: list
    functions: list
    constants: dict        # name -> Constant

    @property
    def handle_classes(self) -> dict:
        """class -> C type name."""
        return {v: k for k, v in self.handles.items()}

    def function(self, name: str) -> Function | None:
        for f in self.functions:
            if f.name == name:
                return f
        return None


_CAST_RE = re.compile(r"^\(\((?P<type>[A-Za-z_][\w ]*\**)\)(?P<num>-?(?:0x[0-9a-fA-F]+|\d+))\)$")
_INT_RE = re.compile(r"^-?(?:0x[0-9a-fA-F]+|\d+)$")


def load_constants(path: Path) -> dict:
    consts: dict[str, Constant] = {}
    pending = []
    for lineno, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        if len(parts) != 2:
            raise ApiError(f"{path}:{lineno}: expected 'NAME<TAB>VALUE', got {line!r}")
        name, text = parts[0].strip(), parts[1].strip()
        if name in consts or name in [p[0] for p in pending]:
            raise ApiError(f"{path}:{lineno}: constant {name} defined twice")
        m = _CAST_RE.match(text)
        if m:
            consts[name] = Constant(name, text, m.group("type").strip(), int(m.group("num"), 0))
        elif _INT_RE.match(text):
            consts[name] = Constant(name, text, None, int(text, 0))
        elif re.match(r"^[A-Za-z_]\w*$", text):
            pending.append((name, text, lineno))
        else:
            raise ApiError(f"{path}:{lineno}: cannot read the value of {name}: {text!r} "
                           "(expected an integer, ((type)integer) or another constant's name)")
    for name, text, lineno in pending:
        if text not in consts:
            raise ApiError(f"{path}:{lineno}: {name} is an alias of {text}, which is not defined")
        target = consts[text]
        consts[name] = Constant(name, text, target.ctype, target.value, alias_of=text)
    return consts


def _parse_attrs(tokens, where, allowed_values, allowed_flags):
    attrs, flags = {}, set()
    for tok in tokens:
        if "=" in tok:
            k, v = tok.split("=", 1)
            if k not in allowed_values:
                raise ApiError(f"{where}: unknown attribute {k!r} (known: {', '.join(sorted(allowed_values))})")
            if k in attrs:
                raise ApiError(f"{where}: attribute {k!r} given twice")
            attrs[k] = v
        elif tok in allowed_flags:
            flags.add(tok)
        else:
            raise ApiError(f"{where}: unknown flag {tok!r}")
    return attrs, flags


def load(api_path: Path, constants_path: Path) -> Api:
    api_path = Path(api_path)
    constants = load_constants(constants_path)
    api = Api({}, {}, {}, [], [], constants)
    current: Function | None = None
    for lineno, raw in enumerate(api_path.read_text().splitlines(), 1):
        where = f"{api_path}:{lineno}"
        line = raw.split("#", 1)[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        if line[0].isspace():
            if current is None:
                raise ApiError(f"{where}: argument line outside a function or callback")
            fields = [f.strip() for f in line.split("|")]
            if len(fields) != 4:
                raise ApiError(f"{where}: expected 'name | C type | direction | kind [attrs]', got {line.strip()!r}")
            name, ctype, direction, rest = fields
            toks = rest.split()
            if not toks:
                raise ApiError(f"{where}: argument {name} has no kind")
            attrs, flags = _parse_attrs(toks[1:], where, VALUE_ATTRS, FLAG_ATTRS)
            current.args.append(Arg(name, " ".join(ctype.split()), direction, toks[0], attrs, flags, lineno))
            continue
        toks = line.split()
        word = toks[0]
        if word == "scalar" and len(toks) == 3:
            api.scalars[toks[1]] = toks[2]
        elif word == "handle" and len(toks) == 3:
            api.handles[toks[1]] = toks[2]
        elif word == "set" and len(toks) >= 3:
            members = []
            for pat in toks[2:]:
                hits = [c for c in constants if fnmatch.fnmatchcase(c, pat)] if any(ch in pat for ch in "*?[") \
                    else ([pat] if pat in constants else [])
                if not hits:
                    raise ApiError(f"{where}: set {toks[1]}: {pat} matches no constant of {constants_path}")
                members += [h for h in hits if h not in members]
            api.sets[toks[1]] = members
        elif word in ("function", "callback") and len(toks) >= 4 and toks[2] == "->":
            attrs, _ = _parse_attrs(toks[4:], where, FUNCTION_ATTRS, set())
            current = Function(toks[1], toks[3], attrs, [], word == "callback", lineno)
            (api.callbacks if word == "callback" else api.functions).append(current)
        else:
            raise ApiError(f"{where}: cannot read {line.strip()!r} "
                           "(expected scalar, handle, set, function or callback)")
    problems = validate(api, api_path)
    if problems:
        raise ApiError("\n".join(problems))
    return api


def _ref_ok(f: Function, value: str, api: Api) -> str | None:
    """Checks a length/count reference; returns a problem or None."""
    if re.fullmatch(r"\d+", value) or value == "@begin":
        return None
    if value.startswith("@"):
        fn, _, arg = value[1:].partition(":")
        if fn not in LEN_FUNCS:
            return f"unknown length function @{fn} (known: {', '.join(sorted(LEN_FUNCS))})"
        if f.arg(arg) is None:
            return f"@{fn}:{arg} names no argument of {f.name}"
        return None
    if f.arg(value) is None:
        return f"{value!r} names no argument of {f.name}"
    return None


def validate(api: Api, path) -> list:
    problems = []
    callbacks = {c.name for c in api.callbacks}
    fnames = {f.name for f in api.functions}
    classes = set(api.handles.values())

    def constant(name):
        return ("MPI_" + name) in api.constants

    seen = set()
    for f in api.callbacks + api.functions:
        where = f"{path}:{f.line}: {f.name}"
        if f.name in seen:
            problems.append(f"{where}: described twice")
        seen.add(f.name)
        cat = f.attrs.get("cat")
        if not f.is_callback:
            if cat not in CATEGORIES:
                problems.append(f"{where}: cat={cat} is not one of {', '.join(sorted(CATEGORIES))}")
            errh = f.attrs.get("errh")
            if errh is None or (errh not in ERRH_SPECIAL and f.arg(errh) is None):
                problems.append(f"{where}: errh={errh} is neither an argument nor one of {sorted(ERRH_SPECIAL)}")
            large = f.attrs.get("large")
            if large and large not in fnames:
                problems.append(f"{where}: large={large} names no function")
            trace = f.attrs.get("trace")
            if trace is not None:
                kind, _, op = trace.partition(":")
                if kind == "coll" and op not in TRACE_COLL_OPS:
                    problems.append(f"{where}: trace={trace}: unknown collective (known: {', '.join(sorted(TRACE_COLL_OPS))})")
                elif kind != "coll" and (op or kind not in TRACE_ROLES):
                    problems.append(f"{where}: trace={trace} is neither coll:<operation> nor one of {', '.join(sorted(TRACE_ROLES))}")
        if f.ret not in ("int", "void", "double") and f.ret not in api.handles and f.ret not in api.scalars:
            problems.append(f"{where}: unknown return type {f.ret}")
        if f.ret == "int" and f.ret_kind not in ("error",) and not f.ret_kind.startswith("fint:"):
            problems.append(f"{where}: an int return is an error code unless ret=fint:<class> says otherwise")
        names = [a.name for a in f.args]
        if len(set(names)) != len(names):
            problems.append(f"{where}: duplicate argument names")
        for a in f.args:
            problems += [f"{path}:{a.line}: {f.name}({a.name}): {p}" for p in _check_arg(api, f, a, classes, callbacks, constant)]
    return problems


def _check_arg(api, f, a, classes, callbacks, constant):
    p = []
    if a.direction not in DIRECTIONS:
        p.append(f"direction {a.direction!r} is not in/out/inout")
    kb, kp = a.kind_base, a.kind_param
    base = a.base_type
    if a.is_varargs:
        if a.kind != "varargs":
            p.append("'...' must have kind varargs")
        return p
    if kb in PARAM_KINDS:
        if not kp:
            p.append(f"kind {kb} needs a parameter ({kb}:<name>)")
        elif kb == "handle" and kp not in classes:
            p.append(f"unknown handle class {kp}")
        elif kb == "handle" and api.handle_classes.get(kp) != base:
            p.append(f"kind {a.kind} but C type {a.ctype}")
        elif kb == "callback" and (kp not in callbacks or base != kp):
            p.append(f"kind {a.kind}: no such callback, or C type {a.ctype} differs")
        elif kb in ("enum", "bits") and kp not in api.sets:
            p.append(f"kind {a.kind}: no set {kp}")
        elif kb == "fint" and kp not in classes:
            p.append(f"kind {a.kind}: unknown handle class {kp}")
    elif kb in VOID_KINDS:
        if base != "void":
            p.append(f"kind {kb} needs a void pointer, C type is {a.ctype}")
    elif kb == "status":
        if base != "MPI_Status":
            p.append(f"kind status needs MPI_Status, C type is {a.ctype}")
    elif kb in ("string", "argv", "argv_ptr", "argvs"):
        if base != "char":
            p.append(f"kind {kb} needs char, C type is {a.ctype}")
    elif kb in INTEGER_KINDS:
        if base not in INTEGER_CTYPES:
            p.append(f"integer kind {kb} but C type {a.ctype}")
    else:
        p.append(f"unknown kind {a.kind!r}")
    if kb in ("enum", "bits", "fint") and base not in INTEGER_CTYPES:
        p.append(f"integer kind {a.kind} but C type {a.ctype}")
    if a.direction != "in" and not (a.is_pointer or a.is_array):
        p.append(f"direction {a.direction} needs a pointer or an array")
    if a.is_array and "len" not in a.attrs and kb not in ("argv", "string"):
        p.append("an array needs len=")
    if not a.is_array and "len" in a.attrs:
        p.append("len= on a non-array")
    for key in ("len", "valid", "count", "bytes", "maxlen", "keyval", "parts"):
        if key in a.attrs:
            err = _ref_ok(f, a.attrs[key], api)
            if err:
                p.append(f"{key}={a.attrs[key]}: {err}")
    if "type" in a.attrs and a.attrs["type"] != "@begin":
        t = f.arg(a.attrs["type"])
        if t is None or t.kind != "handle:datatype":
            p.append(f"type={a.attrs['type']} is not a datatype argument")
    for key in ("sentinels", "special"):
        for s in a.list_attr(key):
            if not constant(s):
                p.append(f"{key}: MPI_{s} is not a constant of the ABI")
    if "max" in a.attrs and a.attrs["max"] not in api.constants:
        p.append(f"max={a.attrs['max']} is not a constant of the ABI")
    if kb == "buffer" and "type" not in a.attrs:
        p.append("a buffer needs type=")
    if kb == "string" and a.direction == "out" and not ("max" in a.attrs or "maxlen" in a.attrs):
        p.append("an output string needs max= or maxlen=")
    for cond in a.list_attr("sig"):
        what, _, ref = cond.partition(":")
        target = f.arg(ref)
        if what not in SIG_CONDITIONS:
            p.append(f"sig={cond}: unknown condition {what!r} (known: {', '.join(sorted(SIG_CONDITIONS))})")
        elif target is None:
            p.append(f"sig={cond}: {ref!r} names no argument of {f.name}")
        elif what == "root" and target.kind_base != "rank":
            p.append(f"sig={cond}: {ref} is not a rank")
        elif what == "not_in_place" and "IN_PLACE" not in target.list_attr("sentinels"):
            p.append(f"sig={cond}: {ref} does not allow MPI_IN_PLACE")
        if not a.is_array or a.direction != "in":
            p.append(f"sig={cond} applies to input arrays only")
    if "ignorable" in a.flags and kb != "status":
        p.append("ignorable applies to status only")
    if "conditional" in a.flags and a.direction != "in":
        p.append("conditional applies to inputs only")
    return p


def check_coverage(api: Api, functions_txt: Path) -> list:
    """Names of functions.txt without a description, and descriptions not in functions.txt."""
    wanted = [l.strip() for l in Path(functions_txt).read_text().splitlines() if l.strip() and not l.startswith("#")]
    have = [f.name for f in api.functions]
    problems = [f"{n}: listed in {functions_txt} but not described" for n in wanted if n not in have]
    problems += [f"{n}: described but not in {functions_txt}" for n in have if n not in wanted]
    return problems


def to_json(api: Api) -> dict:
    def fn(f):
        return {"name": f.name, "return": f.ret, "ret_kind": f.ret_kind, "attrs": f.attrs,
                "args": [{"name": a.name, "ctype": a.ctype, "decl": a.decl(), "dir": a.direction,
                          "kind": a.kind, "attrs": a.attrs, "flags": sorted(a.flags)} for a in f.args]}
    return {"scalars": api.scalars, "handles": api.handles, "sets": api.sets,
            "callbacks": [fn(c) for c in api.callbacks], "functions": [fn(f) for f in api.functions],
            "constants": {c.name: {"text": c.text, "type": c.ctype, "value": c.value}
                          for c in api.constants.values()}}


def main(argv=None) -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--api", default=here / "mpi_api.txt", type=Path)
    ap.add_argument("--constants", default=here / "constants.tsv", type=Path)
    ap.add_argument("--functions", type=Path, help="check that exactly these functions are described")
    ap.add_argument("--check", action="store_true", help="validate and print a summary")
    ap.add_argument("--json", type=Path, help="write the description as JSON")
    args = ap.parse_args(argv)
    try:
        api = load(args.api, args.constants)
    except ApiError as e:
        print(f"mpi_api: {e}", file=sys.stderr)
        return 1
    if args.functions:
        problems = check_coverage(api, args.functions)
        if problems:
            print("\n".join(f"mpi_api: {p}" for p in problems), file=sys.stderr)
            return 1
    if args.json:
        args.json.write_text(json.dumps(to_json(api), indent=1) + "\n")
    if args.check or not args.json:
        nargs = sum(len(f.args) for f in api.functions)
        print(f"{len(api.functions)} functions ({nargs} arguments), {len(api.callbacks)} callbacks, "
              f"{len(api.handles)} handle types, {len(api.sets)} constant sets, {len(api.constants)} constants")
    return 0


if __name__ == "__main__":
    sys.exit(main())
