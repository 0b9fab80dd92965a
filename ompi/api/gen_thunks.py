#!/usr/bin/env python3
"""Generates a runtime translator (Open MPI, MPICH) from mpi_api.txt: the constant extractor, then the thunks.

Two steps, both run by the build (components/translator/<rt>/CMakeLists.txt):

  extractor  writes a C program that is compiled against the RUNTIME's own mpi.h (never ours) and prints
             what the translator must know about that runtime (docs/api-description.md, "Translator
             thunks"):
               const  every constant of constants.tsv the runtime defines: its value, or for an object
                      the runtime reaches through a global (Open MPI's &ompi_mpi_comm_world, MPICH's
                      MPIR_Dup_fn) the symbol's name, or for a runtime that exports a variable holding
                      the value (MPICH's MPI_UNWEIGHTED) the variable's name;
               type   the size of each handle type (4: an int handle, 8: a pointer);
               status sizeof(MPI_Status) and the offsets of its public fields;
               func   for every function of the description the runtime declares, whether its declared
                      prototype is the ABI prototype written with the runtime's types (C11 _Generic), so
                      that a thunk never calls a runtime function through the wrong type.
  thunks     reads that output and writes, into --outdir:
               translator_<rt>_facts.h    the runtime's types, constants and the conversions (handles,
                                          special integers, error codes, sentinels, status);
               translator_<rt>_thunks.cpp one thunk per function the runtime provides, the callback
                                          trampolines, dlsym resolution and the fill of the dispatch and
                                          direct tables.

Everything the runtime's header says is used at build time: values become literals in the thunks; only
what lives at an address (Open MPI's predefined objects and predefined callbacks, MPICH's exported
sentinels) is looked up with dlsym when the component initializes. Python 3 standard library only.

What the thunks do per argument kind, and why, is said where each kind is handled (ThunkWriter.arg and
the functions it calls); the conversions themselves are in gen_facts_header and below it. One file for
one generator, like gen_bindings.py: its sections (header scan, extractor, facts, conversions, thunks,
callbacks, assembly) share the same few data structures and are read together.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import mpi_api  # noqa: E402
from gen_common import null_handle, write_atomically  # noqa: E402
import thunk_synthesis  # noqa: E402

# ABI predefined handles are below this (the ABI chapter); application handles of runtime objects are not.
PREDEFINED_LIMIT = 0x1000

# Where a runtime's prototype differs from the ABI's because the standard changed after its release
# (MPI-4.1 made the partitioned count an int and Pready_list's array const). The thunk calls the runtime
# with these argument types; the extractor checks them like any other prototype.
PROTOTYPE_OVERRIDES = {
    "mpich": {
        "MPI_Psend_init": {"count": "MPI_Count"},
        "MPI_Precv_init": {"count": "MPI_Count"},
        "MPI_Pready_list": {"array_of_partitions": "int []"},
    },
}

# The MPI_T handle classes: not all have a null handle, and MPI_T calls return MPI_T_ERR_* codes.
TOOL_HANDLE_CLASSES = {"t_enum", "t_cvar", "t_pvar", "t_pvar_session", "t_event_reg", "t_event_inst"}

# Functions the translator serves without a runtime function of the same name.
# Functions a runtime exports under another name with the same prototype and meaning: Open MPI 4.1's
# persistent collectives (MPI-4.0) are its "pcollreq" extension, MPIX_<name>_init in mpi-ext.h.
RUNTIME_ALIASES = {
    "ompi": {f"MPI_{c}_init": f"MPIX_{c}_init" for c in (
        "Allgather", "Allgatherv", "Allreduce", "Alltoall", "Alltoallv", "Alltoallw", "Barrier", "Bcast",
        "Exscan", "Gather", "Gatherv", "Neighbor_allgather", "Neighbor_allgatherv", "Neighbor_alltoall",
        "Neighbor_alltoallv", "Neighbor_alltoallw", "Reduce", "Reduce_scatter_block", "Reduce_scatter",
        "Scan", "Scatter", "Scatterv")},
}

STATUS_ACCESSORS = {  # MPI-4.1 accessors of the ABI's own MPI_Status fields
    "MPI_Status_get_source": ("get", "MPI_SOURCE"), "MPI_Status_get_tag": ("get", "MPI_TAG"),
    "MPI_Status_get_error": ("get", "MPI_ERROR"), "MPI_Status_set_source": ("set", "MPI_SOURCE"),
    "MPI_Status_set_tag": ("set", "MPI_TAG"), "MPI_Status_set_error": ("set", "MPI_ERROR"),
}
# MPI_<T>_toint / _fromint: through the runtime's MPI_<T>_c2f / _f2c where it exports them; an int
# handle is its own integer form.
TOINT_CLASSES = {"Comm": "comm", "Errhandler": "errhandler", "File": "file", "Group": "group", "Info": "info",
                 "Message": "message", "Op": "op", "Request": "request", "Session": "session",
                 "Type": "datatype", "Win": "win"}

# Callbacks that take no argument of the application's (no extra_state) are reached through a pool of
# fixed trampolines, one per distinct application function (MPI_Op_create's user function, error
# handlers). A slot is never given back: the runtime may still call an op or error handler the
# application has freed (pending operations, objects that keep it), so a slot is reused only for the
# same function.
POOL_SIZE = 1024

# Converted arrays of up to this many elements (Waitall on a few requests) live in the thunk's frame.
SMALL_ARRAY = 8

# The calls that take a request out of the runtime: a request that has completed (its handle set to
# MPI_REQUEST_NULL) or been freed releases the converted arrays kept for it (KeptArrays).
REQUEST_COMPLETIONS = {"MPI_Wait", "MPI_Test", "MPI_Waitall", "MPI_Testall", "MPI_Waitany", "MPI_Testany",
                       "MPI_Waitsome", "MPI_Testsome", "MPI_Request_free"}

# Callback records freed by the runtime's last call (the standard calls a generalized request's free
# function exactly once, last); other records live until the translator is released.
SELF_FREEING = {("MPI_Grequest_start", "free_fn")}

# Special values of status fields, and of predefined attributes whose value a translator must convert.
STATUS_SOURCE_SPECIALS = ["MPI_ANY_SOURCE", "MPI_PROC_NULL"]
STATUS_TAG_SPECIALS = ["MPI_ANY_TAG"]
ATTR_VALUE_MAPS = {"MPI_HOST": "rank_attr", "MPI_IO": "rank_attr", "MPI_LASTUSEDCODE": "error",
                   "MPI_WIN_CREATE_FLAVOR": "win_flavor", "MPI_WIN_MODEL": "win_model"}


# Optional predefined datatypes (MPI-4.1 3.2.2 and 19.2.5) a runtime may lack: the ABI fixes the size of
# these, named after their width in bytes, so the translator can answer what describes them itself.
OPTIONAL_TYPE_SIZE = re.compile(r"MPI_(?:LOGICAL|INTEGER|REAL|COMPLEX)(\d+)")
# Queries a translator answers itself for such a type (lb 0, extent and true extent its size, its name,
# MPI_COMBINER_NAMED); every other call with it raises MPI_ERR_TYPE naming the type and the runtime.
TYPE_QUERIES = {"MPI_Type_size", "MPI_Type_size_c", "MPI_Type_size_x", "MPI_Type_get_extent",
                "MPI_Type_get_extent_c", "MPI_Type_get_extent_x", "MPI_Type_get_true_extent",
                "MPI_Type_get_true_extent_c", "MPI_Type_get_true_extent_x", "MPI_Type_get_name",
                "MPI_Type_get_envelope", "MPI_Type_get_envelope_c"}
# MPI-4.1 names the null handles of the classes with names; Open MPI 4.1 and MPICH 4.0 refuse them, so
# the translator answers: function -> the null handle whose name it gives.
NULL_NAMES = {"MPI_Comm_get_name": "MPI_COMM_NULL", "MPI_Type_get_name": "MPI_DATATYPE_NULL",
              "MPI_Win_get_name": "MPI_WIN_NULL"}
# Runtimes that name MPI_Comm_idup's communicator when its request completes, over a name the application
# set before (MPI lets it): Open MPI 4.1 writes "MPI COMMUNICATOR <n> DUP FROM <m>". The translator keeps
# the names set on such communicators and puts them back (IDUP_NAMED: the calls involved).
IDUP_NAME_GUARD = {"ompi"}
IDUP_NAMED = {"MPI_Comm_idup", "MPI_Comm_idup_with_info", "MPI_Comm_set_name", "MPI_Comm_get_name", "MPI_Comm_free",
              "MPI_Comm_disconnect"}
# Runtimes whose buffered sends are guarded: Open MPI 4.1's ob1 spends a sequence number on an MPI_Bsend
# before it finds no room for the message in the attached buffer; the refused message is never sent, and
# the receiver waits for that number, holding back every later message from the process on the
# communicator. A message that cannot fit even the empty buffer is refused by the translator instead,
# before the runtime sees it. (One that finds the buffer full of pending messages still meets the bug.)
BSEND_GUARD = {"ompi"}
# MPI_Type_get_contents(_c) hands back the integers a type was built from; those that are constants are
# the runtime's and are converted like the constructor's arguments (constructor, its integer arguments).
CONTENTS_CONSTANTS = {"MPI_COMBINER_DARRAY": ("MPI_Type_create_darray", ("array_of_distribs", "array_of_dargs", "order")),
                      "MPI_COMBINER_SUBARRAY": ("MPI_Type_create_subarray", ("order",))}


class GenError(Exception):
    """A runtime or description fact the generator cannot use; the message says which."""


# --------------------------------------------------------------------------------------------------
# The runtime's header, read as text: which names it defines and how (no compiler needed for this).

@dataclass
class HeaderScan:
    macros: set
    enumerators: set
    externs: set
    functions: set     # MPI_x for every PMPI_x declared as a function (not a macro)
    tokens: set

    @classmethod
    def read(cls, header: Path) -> "HeaderScan":
        # mpi-ext.h: the runtime's extensions (RUNTIME_ALIASES), beside mpi.h where it has one.
        texts, seen, queue = [], set(), [Path(header).parent / "mpi-ext.h", Path(header)]
        while queue:
            p = queue.pop()
            if p in seen or not p.exists():
                continue
            seen.add(p)
            t = p.read_text(errors="replace")
            t = re.sub(r"/\*.*?\*/", " ", t, flags=re.S)
            t = re.sub(r"//[^\n]*", " ", t)
            texts.append(t)
            # Sibling headers (MPICH's mpio.h and mpi_proto.h); not the C++ bindings.
            for inc in re.findall(r'#\s*include\s*[<"]([^>"]+)[>"]', t):
                cand = p.parent / inc
                if "cxx" not in inc and cand.exists():
                    queue.append(cand)
        text = "\n".join(texts)
        macros = set(re.findall(r"^\s*#\s*define\s+(\w+)", text, re.M))
        enumerators = set()
        for body in re.findall(r"\benum\b[^{;]*\{([^}]*)\}", text):
            for item in body.split(","):
                m = re.match(r"\s*([A-Za-z_]\w*)", item)
                if m:
                    enumerators.add(m.group(1))
        code = re.sub(r"^\s*#[^\n]*(\\\n[^\n]*)*", " ", text, flags=re.M)  # without preprocessor lines
        externs = set(re.findall(r"\bextern\b[^;{}()]*?\b(MPI_\w+)\s*(?:[A-Z_]+)?\s*;", code))
        functions = {"MPI_" + n for n in re.findall(r"\bPMPI_(\w+)\s*\(", code) if "PMPI_" + n not in macros}
        functions |= {"MPIX_" + n for n in re.findall(r"\bPMPIX_(\w+)\s*\(", code) if "PMPIX_" + n not in macros}
        tokens = set(re.findall(r"\b(MPI_\w+)\b", code)) | macros
        return cls(macros, enumerators, externs, functions, tokens)

    def defines(self, name: str) -> str | None:
        """How the header defines a constant: "macro", "enum", "extern" or None."""
        if name in self.macros:
            return "macro"
        if name in self.enumerators:
            return "enum"
        if name in self.externs:
            return "extern"
        return None


# --------------------------------------------------------------------------------------------------
# Types

def is_pointer_constant(api: mpi_api.Api, c: mpi_api.Constant) -> bool:
    """Constants whose C type is a pointer or a handle (as opposed to integers and MPI_Offset)."""
    return c.ctype is not None and c.ctype not in api.scalars


def runtime_param_ctype(api: mpi_api.Api, rt: str, f: mpi_api.Function, a: mpi_api.Arg) -> str:
    return PROTOTYPE_OVERRIDES.get(rt, {}).get(f.name, {}).get(a.name, a.ctype)


def abi_function_type(api: mpi_api.Api, rt: str, f: mpi_api.Function) -> str:
    """The function-pointer type of f as the runtime should declare it, in the runtime's own type names."""
    params = ", ".join(mpi_api.Arg(a.name, runtime_param_ctype(api, rt, f, a), a.direction, a.kind).decl("")
                       for a in f.args) or "void"
    return f"{f.ret} (*)({params})"


# --------------------------------------------------------------------------------------------------
# Step 1: the extractor program

def gen_extractor(api: mpi_api.Api, rt: str, scan: HeaderScan) -> str:
    o = [f"/* Constant extractor for the {rt} translator. Generated by ompi/api/gen_thunks.py; do not edit.",
         " * Compiled against the runtime's own mpi.h; prints what gen_thunks.py needs (see its docstring). */",
         "#include <mpi.h>", "#if defined(__has_include)", "#if __has_include(<mpi-ext.h>)", "#include <mpi-ext.h>",
         "#endif", "#endif", "#include <stddef.h>", "#include <stdio.h>", "",
         "#define TESSERA_STR_(x) #x", "#define TESSERA_STR(x) TESSERA_STR_(x)", "",
         "int main(void)", "{"]
    for c in api.constants.values():
        how = scan.defines(c.name)
        if how is None:
            o.append(f'    puts("const\\t{c.name}\\tabsent");')
        elif how == "extern":
            o.append(f'    puts("const\\t{c.name}\\tvar\\t{c.name}");')
        else:
            if is_pointer_constant(api, c):
                # The expansion as text: a literal, a cast literal, or the address of a runtime global.
                line = f'    printf("const\\t%s\\texpr\\t%s\\n", "{c.name}", TESSERA_STR({c.name}));'
            else:
                line = f'    printf("const\\t%s\\tvalue\\t%lld\\n", "{c.name}", (long long)({c.name}));'
            if how == "macro":  # the header may define it only under a condition this build does not meet
                o += [f"#ifdef {c.name}", line, "#else", f'    puts("const\\t{c.name}\\tabsent");', "#endif"]
            else:
                o.append(line)
    for cname in list(api.handles) + ["MPI_Aint", "MPI_Count", "MPI_Offset", "MPI_Fint"]:
        if cname in scan.tokens:
            o.append(f'    printf("type\\t%s\\t%zu\\n", "{cname}", sizeof({cname}));')
    o.append('    printf("status\\tsize\\t%zu\\n", sizeof(MPI_Status));')
    for fld in ("MPI_SOURCE", "MPI_TAG", "MPI_ERROR"):
        o.append(f'    printf("status\\t{fld}\\t%zu\\n", offsetof(MPI_Status, {fld}));')
    checks = [(f.name, abi_function_type(api, rt, f)) for f in api.functions]
    for cls_name, cls in TOINT_CLASSES.items():
        ctype = api.handle_classes[cls]
        checks.append((f"MPI_{cls_name}_c2f", f"MPI_Fint (*)({ctype})"))
        checks.append((f"MPI_{cls_name}_f2c", f"{ctype} (*)(MPI_Fint)"))
    aliases = RUNTIME_ALIASES.get(rt, {})
    for name, ftype in checks:
        symbol = name if name in scan.functions else aliases.get(name, name)
        if symbol in scan.functions:
            o.append(f'    printf("func\\t%s\\t%d\\n", "{name}", _Generic(&P{symbol}, {ftype}: 1, default: 0));')
        else:
            o.append(f'    puts("func\\t{name}\\tabsent");')
    o += ["    return 0;", "}", ""]
    return "\n".join(o)


# --------------------------------------------------------------------------------------------------
# Step 2: what the extractor printed

@dataclass
class RtValue:
    """A runtime constant: an integer known at build time, or a symbol whose address (sym) or whose
    value (var) the component reads with dlsym."""
    kind: str          # "int", "sym", "var"
    value: int = 0
    symbol: str = ""

    def c_expr(self, ctype: str, runtime_global: str) -> str:
        if self.kind == "int":
            return f"(({ctype})(intptr_t){self.value})" if ctype != "int" else str(self.value)
        return runtime_global


@dataclass
class Facts:
    rt: str
    consts: dict = field(default_factory=dict)      # name -> RtValue (absent ones missing)
    type_sizes: dict = field(default_factory=dict)
    status_size: int = 0
    status_offsets: dict = field(default_factory=dict)
    funcs: dict = field(default_factory=dict)       # name -> True (declared and matching) / False

    def int_value(self, name: str) -> int | None:
        v = self.consts.get(name)
        return v.value if v is not None and v.kind == "int" else None


_CAST = re.compile(r"\(\s*(?:const\s+)?(?:struct\s+)?[A-Za-z_]\w*(?:\s+[A-Za-z_]\w*)*\s*\**\s*\)\s*(?=[\w(&+-])")


def parse_expansion(text: str) -> RtValue:
    """Reads a macro's expansion: ((MPI_Comm)0x44000000), ((void *) 1), (void *) -1 are integers;
    ((MPI_Comm) ((void *) &(ompi_mpi_comm_world))), OMPI_C_MPI_COMM_DUP_FN, MPIR_Dup_fn are symbols."""
    t = text
    while True:
        n = _CAST.sub("", t)
        if n == t:
            break
        t = n
    t = t.replace("(", "").replace(")", "").replace(" ", "")
    if re.fullmatch(r"-?(0x[0-9a-fA-F]+|\d+)[uUlL]*", t):
        return RtValue("int", int(t.rstrip("uUlL"), 0))
    m = re.fullmatch(r"&?([A-Za-z_]\w*)", t)
    if m:
        return RtValue("sym", symbol=m.group(1))
    raise GenError(f"cannot read the expansion {text!r}")


def read_facts(path: Path, rt: str) -> Facts:
    facts = Facts(rt)
    for lineno, line in enumerate(Path(path).read_text().splitlines(), 1):
        parts = line.split("\t")
        where = f"{path}:{lineno}"
        if parts[0] == "const":
            name, how = parts[1], parts[2]
            if how == "absent":
                continue
            if how == "value":
                facts.consts[name] = RtValue("int", int(parts[3]))
            elif how == "var":
                facts.consts[name] = RtValue("var", symbol=parts[3])
            elif how == "expr":
                if parts[3] == name:  # declared under a condition the build does not meet
                    continue
                try:
                    facts.consts[name] = parse_expansion(parts[3])
                except GenError as e:
                    raise GenError(f"{where}: {name}: {e}")
            else:
                raise GenError(f"{where}: unknown constant form {how!r}")
        elif parts[0] == "type":
            facts.type_sizes[parts[1]] = int(parts[2])
        elif parts[0] == "status":
            if parts[1] == "size":
                facts.status_size = int(parts[2])
            else:
                facts.status_offsets[parts[1]] = int(parts[2])
        elif parts[0] == "func":
            if parts[2] != "absent":
                facts.funcs[parts[1]] = parts[2] == "1"
        elif line.strip():
            raise GenError(f"{where}: cannot read {line!r}")
    if not facts.status_size or len(facts.status_offsets) != 3:
        raise GenError(f"{path}: the status layout is missing")
    return facts


# --------------------------------------------------------------------------------------------------
# Conversions: integers with special values, handles, sentinels, status

def c_int(v: int) -> str:
    """An int literal that also works for INT_MIN-like values."""
    return f"({v})" if v >= -2**31 + 1 else f"(-{-v - 1} - 1)"


class Conversions:
    """Everything that maps one application value to one runtime value and back. Collects what it
    generates (functions of facts.h, symbols the component must resolve) as the thunks ask for it."""

    def __init__(self, api: mpi_api.Api, facts: Facts):
        self.api, self.facts = api, facts
        self.maps: dict = {}          # tuple of constant names -> (id, a2r dict, r2a dict)
        self.bits: dict = {}          # set name -> (pairs)
        self.dyn_globals: dict = {}   # constant name -> RtValue (sym/var) read at initialization
        self.classes = self._classes()

    # -- special integers: each list of constants becomes a bijection on int --
    def int_map(self, names: list, label: str) -> str | None:
        """The id of the mapping for these constants, None when the runtime uses the same values."""
        key = tuple(names)
        if key in self.maps:
            return self.maps[key][0] if self.maps[key][1] else None
        pairs, seen_a, seen_r = [], set(), set()
        for n in names:
            c, r = self.api.constants.get(n), self.facts.int_value(n)
            if c is None or r is None or c.value in seen_a or r in seen_r:
                continue  # absent from the runtime, an alias, or a value the runtime gives twice
            pairs.append((c.value, r))
            seen_a.add(c.value)
            seen_r.add(r)
        f = dict(pairs)
        # Complete to a permutation of int, so that values outside the list (user error codes and
        # keyvals the runtime hands out) pass both ways unchanged and round trips never lose a value.
        for d, t in zip(sorted(seen_r - seen_a), sorted(seen_a - seen_r)):
            f[d] = t
        f = {k: v for k, v in f.items() if k != v}
        ident = re.sub(r"\W", "_", label)
        while ident in [m[0] for m in self.maps.values()]:
            ident += "_"
        self.maps[key] = (ident, f, {v: k for k, v in f.items()})
        return ident if f else None

    def arg_int_names(self, a: mpi_api.Arg) -> tuple[list, str]:
        kb, kp = a.kind_base, a.kind_param
        names, label = [], ""
        if kb == "error":
            names, label = list(self.api.sets["error"]), "error"
        elif kb == "keyval":
            names, label = list(self.api.sets["keyval"]) + ["MPI_KEYVAL_INVALID"], "keyval"
        elif kb == "enum":
            names, label = list(self.api.sets[kp]), kp
        specials = ["MPI_" + s for s in a.list_attr("special")]
        names += [s for s in specials if s not in names]
        if specials:
            label = (label + "_" if label else "sp_") + "_".join(s[4:] for s in specials)
        return names, label

    def arg_map(self, a: mpi_api.Arg) -> str | None:
        if a.kind_base == "bits":
            return self.bits_map(a.kind_param)
        names, label = self.arg_int_names(a)
        return self.int_map(names, label) if names else None

    def bits_map(self, set_name: str) -> str | None:
        pairs = []
        for n in self.api.sets[set_name]:
            r = self.facts.int_value(n)
            if r is not None:
                pairs.append((self.api.constants[n].value, r))
        if all(a == r for a, r in pairs):
            return None
        self.bits[set_name] = pairs
        return "bits_" + set_name

    # -- handles --
    def _classes(self) -> dict:
        out = {}
        for cname, cls in self.api.handles.items():
            size = self.facts.type_sizes.get(cname)
            entries = []
            for c in self.api.constants.values():
                if c.ctype == cname and c.alias_of is None and c.name in self.facts.consts:
                    v = self.facts.consts[c.name]
                    if size == 4 and v.kind == "int":  # an int handle: 0x8c000000 is negative as int
                        v = RtValue("int", (v.value + 2**31) % 2**32 - 2**31)
                    entries.append((c, v))
            out[cls] = {"cname": cname, "repr": "int" if size == 4 else "ptr", "present": size is not None,
                        "entries": entries, "dynamic": any(v.kind != "int" for _, v in entries)}
        return out

    # -- optional predefined datatypes the runtime lacks --
    def missing_datatypes(self) -> list:
        """(ABI value, name, size or None) of each ABI datatype the runtime does not define, or defines as
        its MPI_DATATYPE_NULL (MPICH 4.0's MPI_INTEGER16): passed down, it would be a null handle."""
        null = self.facts.consts.get("MPI_DATATYPE_NULL")
        out = []
        for c in self.api.constants.values():
            if c.ctype != "MPI_Datatype" or c.alias_of is not None or c.name == "MPI_DATATYPE_NULL":
                continue
            v = self.facts.consts.get(c.name)
            if v is not None and (null is None or (v.kind, v.value, v.symbol) != (null.kind, null.value, null.symbol)):
                continue
            m = OPTIONAL_TYPE_SIZE.fullmatch(c.name)
            out.append((c.value, c.name, int(m.group(1)) if m else None))
        return out

    # -- sentinels --
    def sentinel_pairs(self, names: list, ctype: str) -> list[tuple[str, str]]:
        """(ABI expression, runtime expression) for each sentinel whose runtime value differs."""
        out = []
        for n in names:
            c = self.api.constants[n]
            v = self.facts.consts.get(n)
            if v is None:
                continue  # the runtime lacks it: passes as the application gave it
            if v.kind == "int":
                if v.value == c.value:
                    continue
                out.append((f"({ctype})(intptr_t){c.value}", f"({ctype})(intptr_t){v.value}"))
            else:
                self.dyn_globals[n] = v
                out.append((f"({ctype})(intptr_t){c.value}", f"({ctype})g_sym.s_{n}"))
        return out

    def callback_predefined(self, cb: str) -> list[tuple[int, str]]:
        """(ABI value, runtime expression) of the predefined functions of a callback type (MPI_COMM_DUP_FN)."""
        out = []
        for c in self.api.constants.values():
            if c.ctype == cb + "*" and c.alias_of is None:
                v = self.facts.consts.get(c.name)
                if v is None:
                    continue
                if v.kind == "int":
                    out.append((c.value, f"reinterpret_cast<r_cb_{cb} *>(static_cast<intptr_t>({v.value}))"))
                else:
                    self.dyn_globals[c.name] = v
                    out.append((c.value, f"reinterpret_cast<r_cb_{cb} *>(g_sym.s_{c.name})"))
        return out


# --------------------------------------------------------------------------------------------------
# Runtime-side C types

def runtime_ctype(api: mpi_api.Api, ctype: str) -> str:
    """The same C type with handle, status and callback types replaced by their runtime-side names."""
    for cname, cls in api.handles.items():
        ctype = re.sub(rf"\b{cname}\b", f"r_{cls}", ctype)
    ctype = re.sub(r"\bMPI_Status\b", "r_status", ctype)
    for cb in api.callbacks:
        ctype = re.sub(rf"\b{cb.name}\b", f"r_cb_{cb.name}", ctype)
    return ctype


def runtime_decl(api: mpi_api.Api, ctype: str, name: str = "") -> str:
    return mpi_api.Arg(name, runtime_ctype(api, ctype), "in", "opaque").decl(name)


# --------------------------------------------------------------------------------------------------
# translator_<rt>_facts.h

def gen_facts_header(api: mpi_api.Api, conv: Conversions, ns: str, rt: str) -> str:
    facts = conv.facts
    o = [f"/* translator_{rt}_facts.h: what the {rt} translator knows about its runtime, and the conversions.",
         " * Generated by ompi/api/gen_thunks.py from mpi_api.txt, constants.tsv and what the runtime's own",
         " * mpi.h says (the constant extractor); do not edit. */",
         "#pragma once", "",
         "#include <mpi.h>", "",
         "#include <array>", "#include <cstdint>", "#include <cstring>", "",
         '#include "frameworks/translator/base/reentry.h"', "",
         "#define TESSERA_TR_LIKELY(x) __builtin_expect(!!(x), 1)",
         "#define TESSERA_TR_UNLIKELY(x) __builtin_expect(!!(x), 0)", "",
         f"namespace {ns} {{", "",
         "/* Handle types of the runtime: an int (MPICH) or a pointer (Open MPI, MPICH's MPI_File). */"]
    for cls, info in conv.classes.items():
        o.append(f"using r_{cls} = {'int' if info['repr'] == 'int' else 'void *'};")
    align = 8 if facts.status_size % 8 == 0 else 4
    o += ["", f"/* The runtime's MPI_Status: {facts.status_size} bytes, MPI_SOURCE/TAG/ERROR at "
              f"{facts.status_offsets['MPI_SOURCE']}/{facts.status_offsets['MPI_TAG']}/"
              f"{facts.status_offsets['MPI_ERROR']}. */",
          f"struct alignas({align}) r_status {{", f"    unsigned char bytes[{facts.status_size}];", "};",
          f"static_assert(sizeof(r_status) == {facts.status_size});", "",
          "/* Callback types as the runtime calls them. */"]
    for cb in api.callbacks:
        params = ", ".join(runtime_decl(api, a.ctype) if not a.is_varargs else "..." for a in cb.args)
        o.append(f"using r_cb_{cb.name} = {runtime_ctype(api, cb.ret)}({params or 'void'});")
    o += ["", "/* Runtime values the component reads with dlsym at initialization (addresses of globals, or",
          " * the values of exported variables). */", "struct RuntimeSymbols {"]
    for n in sorted(conv.dyn_globals):
        o.append(f"    void *s_{n}; /* {conv.dyn_globals[n].kind} {conv.dyn_globals[n].symbol} */")
    o += ["    int unused;", "};", "extern RuntimeSymbols g_sym;", ""]
    handles = gen_handle_conversions(api, conv)
    status = gen_status_conversions(api, conv)  # asks for the maps it uses: before they are written
    o += gen_int_maps(conv) + handles + status
    o += [f"}} // namespace {ns}", ""]
    return "\n".join(o)


def gen_int_maps(conv: Conversions) -> list[str]:
    o = ["/* Integers with special values: each is a permutation of int (values outside the list pass",
         " * unchanged both ways). */"]
    for _, (ident, f, inv) in sorted(conv.maps.items(), key=lambda kv: kv[1][0]):
        if not f:
            continue
        for direction, table in (("a2r", f), ("r2a", inv)):
            # The common values without the switch, inlined into every thunk: ranks, tags and counts
            # are not negative, and most calls return MPI_SUCCESS. The switch stays out of line.
            fast = "x >= 0" if all(k < 0 for k in table) else ("x == 0" if 0 not in table else None)
            name = f"map_{ident}_{direction}"
            o.append(f"[[gnu::noinline]] inline int {name}_switch(int x)" if fast else f"inline int {name}(int x)")
            o.append("{")
            o.append("    switch (x) {")
            for k in sorted(table):
                o.append(f"    case {c_int(k)}: return {c_int(table[k])};")
            o.append("    default: return x;")
            o.append("    }")
            o.append("}")
            if fast:
                o += [f"inline int {name}(int x)", "{",
                      f"    return TESSERA_TR_LIKELY({fast}) ? x : {name}_switch(x);", "}"]
    for set_name, pairs in sorted(conv.bits.items()):
        for direction in ("a2r", "r2a"):
            src = [a if direction == "a2r" else r for a, r in pairs]
            dst = [r if direction == "a2r" else a for a, r in pairs]
            mask = 0
            for s in src:
                mask |= s
            o.append(f"inline int bits_{set_name}_{direction}(int x)")
            o.append("{")
            o.append(f"    int out = x & ~{c_int(mask)};")
            for s, d in zip(src, dst):
                o.append(f"    if (x & {c_int(s)}) out |= {c_int(d)};")
            o.append("    return out;")
            o.append("}")
    o.append("")
    return o


def gen_handle_conversions(api: mpi_api.Api, conv: Conversions) -> list[str]:
    o = ["/* Handles. Application handles of predefined objects are below 0x1000 (the ABI); a runtime object",
         " * gets the application handle that encodes it directly: an Open MPI pointer as it is, an MPICH",
         " * int zero-extended (its user handles are negative as int), so the same object always gives the",
         " * same handle. Predefined handles: a table indexed by the ABI value one way, and constants",
         " * known at build time (a switch) or a sorted table of the runtime's addresses the other way. */"]
    int_entries = [(c.value, v.value) for info in conv.classes.values() if info["repr"] == "int"
                   for c, v in info["entries"]]
    if int_entries:
        o.append(f"inline constexpr std::array<int, {PREDEFINED_LIMIT}> kPredefIntA2R = [] {{")
        o.append(f"    std::array<int, {PREDEFINED_LIMIT}> t{{}};")
        for a, r in int_entries:
            o.append(f"    t[{a:#x}] = {c_int(r)};")
        o.append("    return t;")
        o.append("}();")
    any_dynamic = any(i["dynamic"] for i in conv.classes.values())
    o += ["/* Pointer-class predefined handles, filled at initialization (dlsym of the runtime's globals). */",
          f"extern void *g_predef_ptr[{PREDEFINED_LIMIT}];"]
    if any_dynamic:
        o += ["/* [lo, lo + span): where the runtime's predefined objects are; a pointer outside is a user object. */",
              "extern uintptr_t g_predef_lo, g_predef_span;",
              "/* Indexed by (address - lo) / 8 when every object is 8-byte aligned and the range is small (the",
              " * objects are a library's globals): the ABI value, 0 for an address that is none. */",
              "extern const uint16_t *g_predef_index;",
              "uintptr_t predef_r2a_search(uintptr_t r);",
              "inline uintptr_t predef_r2a(uintptr_t r)",
              "{",
              "    const uintptr_t off = r - g_predef_lo;",
              "    if (TESSERA_TR_LIKELY(off >= g_predef_span)) return r;",
              "    if (TESSERA_TR_LIKELY(g_predef_index != nullptr)) {",
              "        const uint16_t abi = (off & 7) == 0 ? g_predef_index[off >> 3] : 0;",
              "        return abi != 0 ? abi : r;",
              "    }",
              "    return predef_r2a_search(r);",
              "}"]
    for cls, info in conv.classes.items():
        cname = info["cname"]
        o.append(f"inline r_{cls} h_a2r_{cls}({cname} a)")
        o.append("{")
        o.append("    const uintptr_t v = reinterpret_cast<uintptr_t>(a);")
        if info["repr"] == "int":
            o.append(f"    return TESSERA_TR_LIKELY(v >= {PREDEFINED_LIMIT:#x}) ? static_cast<int>(static_cast<uint32_t>(v)) "
                     ": kPredefIntA2R[v];")
        elif info["entries"]:
            o.append(f"    return TESSERA_TR_LIKELY(v >= {PREDEFINED_LIMIT:#x}) ? reinterpret_cast<void *>(v) : g_predef_ptr[v];")
        else:
            o.append("    return reinterpret_cast<void *>(v);")
        o.append("}")
        o.append(f"inline {cname} h_r2a_{cls}(r_{cls} r)")
        o.append("{")
        static = [(c.value, v.value) for c, v in info["entries"] if v.kind == "int"]
        if info["repr"] == "int":
            o.append("    switch (r) {")
            seen = set()
            for a, r in static:
                if r not in seen:
                    seen.add(r)
                    o.append(f"    case {c_int(r)}: return reinterpret_cast<{cname}>(static_cast<uintptr_t>({a:#x}));")
            o.append(f"    default: return reinterpret_cast<{cname}>(static_cast<uintptr_t>(static_cast<uint32_t>(r)));")
            o.append("    }")
        else:
            o.append("    uintptr_t v = reinterpret_cast<uintptr_t>(r);")
            moved = [(a, r) for a, r in static if a != (r & (2**64 - 1))]
            if moved:
                o.append("    switch (v) {")
                seen = set()
                for a, r in moved:
                    rv = r & (2**64 - 1)
                    if rv not in seen:
                        seen.add(rv)
                        o.append(f"    case {rv:#x}u: return reinterpret_cast<{cname}>(static_cast<uintptr_t>({a:#x}));")
                o.append("    default: break;")
                o.append("    }")
            if info["dynamic"]:
                dyn = [c for c, v in info["entries"] if v.kind != "int"]
                # A class with a predefined object or two (requests: MPI_REQUEST_NULL; messages) is
                # compared with them; others go through the address table. The null handle, what a
                # completed request or freed object gives back, is compared first either way.
                explicit = dyn if len(dyn) <= 2 else [c for c in dyn if c.name.endswith("_NULL")][:1]
                explicit.sort(key=lambda c: not c.name.endswith("_NULL"))
                for c in explicit:
                    o.append(f"    if (v == reinterpret_cast<uintptr_t>(g_predef_ptr[{c.value:#x}])) "
                             f"return reinterpret_cast<{cname}>(static_cast<uintptr_t>({c.value:#x}));")
                if len(dyn) > 2:
                    o.append("    v = predef_r2a(v);")
            o.append(f"    return reinterpret_cast<{cname}>(v);")
        o.append("}")
    o.append("")
    return o


def gen_status_conversions(api: mpi_api.Api, conv: Conversions) -> list[str]:
    facts = conv.facts
    offs = facts.status_offsets
    public = {offs[k]: k for k in offs}
    hidden, pos = [], 0
    while pos < facts.status_size:  # byte ranges of the runtime status other than the public fields
        if pos in public:
            pos += 4
            continue
        start = pos
        while pos < facts.status_size and pos not in public:
            pos += 1
        hidden.append((start, pos - start))
    if sum(n for _, n in hidden) > 20:
        raise GenError(f"{facts.rt}: the runtime's MPI_Status hides {sum(n for _, n in hidden)} bytes, "
                       "more than the ABI's MPI_internal (20)")
    src_map = conv.int_map(STATUS_SOURCE_SPECIALS, "status_source")
    tag_map = conv.int_map(STATUS_TAG_SPECIALS, "status_tag")
    err_map = conv.int_map(list(api.sets["error"]), "error")
    field_maps = {"MPI_SOURCE": src_map, "MPI_TAG": tag_map, "MPI_ERROR": err_map}

    def r2a(name: str, fields: tuple) -> list:
        body = [f"inline void {name}(const r_status *r, MPI_Status *a)", "{", "    int v;"]
        for fld in fields:
            m = field_maps[fld]
            body.append(f"    std::memcpy(&v, r->bytes + {offs[fld]}, sizeof v);")
            body.append(f"    a->{fld} = {f'map_{m}_r2a(v)' if m else 'v'};")
        body.append("    unsigned char *h = reinterpret_cast<unsigned char *>(a->MPI_internal);")
        at = 0
        for start, n in hidden:
            body.append(f"    std::memcpy(h + {at}, r->bytes + {start}, {n});")
            at += n
        return body + ["}"]

    o = ["/* MPI_Status: the public fields converted, the runtime's own fields (count, cancelled) kept",
         " * byte for byte in MPI_internal, so that a status given back to the runtime (MPI_Get_count,",
         " * MPI_Test_cancelled) is the runtime's status again. */"]
    o += r2a("status_r2a", ("MPI_SOURCE", "MPI_TAG", "MPI_ERROR"))
    o += ["/* The status of a call that completes one operation (MPI_Recv, MPI_Wait, MPI_Probe, ...): MPI sets",
          " * MPI_ERROR only in the arrays of the calls that complete several (MPI-4.1 3.2.5), and a runtime may",
          " * write it anyway (MPICH 4.0's MPI_Probe, MPI_Iprobe, MPI_Sendrecv_replace do): the application's",
          " * value stays. */"]
    o += r2a("status_r2a_single", ("MPI_SOURCE", "MPI_TAG"))
    o += ["inline void status_a2r(const MPI_Status *a, r_status *r)", "{", "    int v;"]
    for fld in ("MPI_SOURCE", "MPI_TAG", "MPI_ERROR"):
        m = field_maps[fld]
        o.append(f"    v = {f'map_{m}_a2r(a->{fld})' if m else f'a->{fld}'};")
        o.append(f"    std::memcpy(r->bytes + {offs[fld]}, &v, sizeof v);")
    o.append("    const unsigned char *h = reinterpret_cast<const unsigned char *>(a->MPI_internal);")
    at = 0
    for start, n in hidden:
        o.append(f"    std::memcpy(r->bytes + {start}, h + {at}, {n});")
        at += n
    o += ["}",
          "/* Before a call that may not set MPI_ERROR: the runtime's status starts with the application's. */",
          "inline void status_keep_error(const MPI_Status *a, r_status *r)", "{",
          f"    const int v = {f'map_{err_map}_a2r(a->MPI_ERROR)' if err_map else 'a->MPI_ERROR'};",
          f"    std::memcpy(r->bytes + {offs['MPI_ERROR']}, &v, sizeof v);", "}", ""]
    return o


# --------------------------------------------------------------------------------------------------
# translator_<rt>_thunks.cpp

@dataclass
class Body:
    """The pieces of one thunk: conversions before the call, the call's arguments, conversions after."""
    pre1: list = field(default_factory=list)   # by-value conversions (array lengths may use them)
    pre2: list = field(default_factory=list)   # pointers and arrays
    post_arrays: list = field(default_factory=list)   # (when, line): before the scalars they may read
    post_scalars: list = field(default_factory=list)
    override: dict = field(default_factory=dict)      # argument -> expression (callback records)
    post_call: list = field(default_factory=list)     # right after the call, before any conversion back
    kept: bool = False                                # converted arrays live on with the request


class ThunkWriter:
    def __init__(self, api: mpi_api.Api, conv: Conversions, rt: str, ns: str, version: str):
        self.api, self.conv, self.rt, self.ns, self.version = api, conv, rt, ns, version
        self.facts = conv.facts
        self.pools: list = []        # callback types reached through a pool of trampolines
        self.records: list = []      # lines: record structs and their trampolines
        self.helpers: set = set()
        self.attr_fix = False
        self.statuses_ignored = False  # generating the MPI_STATUSES_IGNORE twin of a thunk
        self.missing_types = conv.missing_datatypes()

    # -- small helpers --
    def cname_of(self, cls: str) -> str:
        return self.api.handle_classes[cls]

    def rt_pointer(self, name: str, ctype: str) -> str | None:
        """The runtime's value of a pointer sentinel, as an expression of type ctype."""
        v = self.facts.consts.get(name)
        if v is None:
            return None
        if v.kind == "int":
            return f"reinterpret_cast<{ctype}>(static_cast<intptr_t>({v.value}))"
        self.conv.dyn_globals[name] = v
        return f"static_cast<{ctype}>(g_sym.s_{name})"

    def len_expr(self, f: mpi_api.Function, a: mpi_api.Arg, key: str = "len") -> str:
        v = a.attrs[key]
        if re.fullmatch(r"\d+", v):
            return v
        if v.startswith("@"):
            fn, _, comm = v[1:].partition(":")
            if fn == "group":
                self.helpers.add("group")
                return f"len_group(c_{comm})"
            if fn in ("indegree", "outdegree"):
                self.helpers.add("degree")
                return f"len_degree(c_{comm}, {1 if fn == 'indegree' else 0})"
            if fn in ("sum", "last"):
                ref = f.arg(comm)
                n = self.len_expr(f, ref)
                return f"sum_ints({comm}, {n})" if fn == "sum" else f"({n} > 0 ? {comm}[{n} - 1] : 0)"
            raise GenError(f"{f.name}({a.name}): cannot compute len={v} for a converted array")
        if f.name in ("MPI_Type_get_contents", "MPI_Type_get_contents_c") and v == "max_datatypes":
            return "static_cast<int>(shape_.ok && shape_.n[3] < max_datatypes ? shape_.n[3] : max_datatypes)"
        ref = f.arg(v)
        return f"({v} != nullptr ? *{v} : 0)" if ref.is_pointer else v

    def map_prefix(self, a: mpi_api.Arg) -> str | None:
        if a.kind_base == "bits":
            m = self.conv.bits_map(a.kind_param)
            return m
        if a.kind_base == "errcodes":
            m = self.conv.int_map(list(self.api.sets["error"]), "error")
            return f"map_{m}" if m else None
        names, label = self.conv.arg_int_names(a)
        if not names:
            return None
        m = self.conv.int_map(names, label)
        return f"map_{m}" if m else None

    def error_r2a(self, expr: str) -> str:
        m = self.conv.int_map(list(self.api.sets["error"]), "error")
        return f"map_{m}_r2a({expr})" if m else expr

    def error_a2r(self, expr: str) -> str:
        m = self.conv.int_map(list(self.api.sets["error"]), "error")
        return f"map_{m}_a2r({expr})" if m else expr

    # -- converted arrays, and those kept until the request that may read them leaves the runtime --
    @staticmethod
    def request_arg(f: mpi_api.Function, direction: str | None = None):
        return next((a for a in f.args if a.kind_base == "handle" and a.kind_param == "request"
                     and (direction is None or a.direction == direction)), None)

    def temp_array(self, f: mpi_api.Function, b: Body, ctype: str, var: str, length: str):
        """A converted array for the call: in the thunk's frame, or, when the call makes a request (a
        non-blocking or persistent operation may read it later), kept with that request."""
        req = self.request_arg(f, "out")
        if req is None or req.is_array:
            b.pre2.append(f"TR_TEMP_ARRAY({ctype}, {var}, {length});")
            return
        if not b.kept:
            b.kept = True
            b.pre2.append("KeptArrays::Batch kept_;")
            b.post_arrays.insert(0, ("success", f"if ({req.name} != nullptr) "
                                                f"g_kept.attach(kept_key({self.request_value(req)}), std::move(kept_));"))
        b.pre2.append(f"{ctype} *const {var} = kept_.alloc<{ctype}>({length});")

    def request_value(self, a: mpi_api.Arg, index: str | None = None) -> str:
        """The runtime's request, while the call has it: converted in place in the application's
        variable (pointer handles) or in c_<name>."""
        at = f"[{index}]" if index is not None else ""
        if self.conv.classes["request"]["repr"] == "ptr":
            return f"reinterpret_cast<r_request>({a.name}{at})" if index is not None else \
                f"reinterpret_cast<r_request>(*{a.name})"
        return f"c_{a.name}{at}"

    def release_kept(self, f: mpi_api.Function, b: Body):
        """A completion call: the requests it completed or freed release their kept arrays."""
        a = self.request_arg(f)
        n, null = a.name, "kept_key(h_a2r_request(MPI_REQUEST_NULL))"
        b.pre2.append("const bool kept_any_ = g_kept.any();")
        freeing = f.name == "MPI_Request_free"
        if a.is_array:
            b.pre2 += [f"TR_TEMP_ARRAY(uintptr_t, kept_before_, kept_any_ ? len_{n} : 0);",
                       f"if (kept_any_) for (int i_ = 0; i_ < len_{n}; ++i_) "
                       f"kept_before_[i_] = kept_key({self.request_value(a, 'i_')});"]
            b.post_call.append(f"if (kept_any_) for (int i_ = 0; i_ < len_{n}; ++i_) "
                               f"g_kept.completed(kept_before_[i_], kept_key({self.request_value(a, 'i_')}), {null});")
            return
        b.pre2.append(f"const uintptr_t kept_before_ = kept_any_ && {n} != nullptr ? "
                      f"kept_key({self.request_value(a)}) : 0;")
        if freeing:
            b.post_call.append("if (kept_any_ && rc_ == 0) g_kept.release(kept_before_);")
        else:
            b.post_call.append(f"if (kept_any_ && {n} != nullptr) "
                               f"g_kept.completed(kept_before_, kept_key({self.request_value(a)}), {null});")

    # -- one argument of a thunk --
    def arg(self, f: mpi_api.Function, a: mpi_api.Arg, b: Body) -> str:
        n, kb = a.name, a.kind_base
        if n in b.override:
            return b.override[n]
        if kb == "handle":
            return self.handle_arg(f, a, b)
        if kb == "status":
            return self.status_arg(f, a, b)
        if kb == "tool_object":
            return self.tool_object_arg(f, a, b)
        expr = n
        sentinels = ["MPI_" + s for s in a.list_attr("sentinels")]
        if sentinels and (a.is_pointer or a.is_array):
            ctype = runtime_ctype(self.api, a.ctype.replace("[]", "*").replace("[ ]", "*").strip())
            for abi_expr, rt_expr in self.conv.sentinel_pairs(sentinels, ctype):
                expr = f"({n} == {abi_expr} ? {rt_expr} : {expr})"
        pfx = self.map_prefix(a) if kb in mpi_api.INTEGER_KINDS | {"enum", "bits"} else None
        if pfx:
            return self.int_arg(f, a, b, pfx, expr)
        if kb == "string" and a.direction == "out" and "max" in a.attrs:
            return self.string_arg(f, a, b, expr)
        if kb == "attr_out" and "keyval" in a.attrs:
            flag = next((x.name for x in f.args if x.kind_base == "flag" and x.direction == "out"), None)
            if flag:
                self.attr_fix = True
                b.post_scalars.append(("success", f"if ({flag} != nullptr && *{flag} && {n} != nullptr) "
                                                  f"attr_value_r2a({a.attrs['keyval']}, {n});"))
        return expr

    def tool_object_arg(self, f, a, b: Body) -> str:
        """MPI_T_{c,p}var_handle_alloc: obj_handle points to an application handle whose class the
        variable's binding says; the runtime gets a pointer to its own handle of that object."""
        n = a.name
        var = next(v for v in ("cvar", "pvar", "event") if f"_{v}_" in f.name)
        index = next(x.name for x in f.args if x.name == f"{var}_index")
        self.helpers.update({"tool_object", f"tool_bind_{var}"})
        b.pre2.append(f"tool_object_t o_{n};")
        b.pre2.append(f"void *const c_{n} = tool_object_a2r(tool_bind_{var}({index}), {n}, &o_{n});")
        return f"c_{n}"

    def tool_object_code(self) -> list:
        binds = []
        for cls in self.api.handle_classes:
            value = self.facts.int_value(f"MPI_T_BIND_MPI_{cls.upper()}")
            if value is not None and cls in self.conv.classes:
                binds.append((cls, value))
        o = ["/* An application handle an MPI_T variable is bound to, converted: one slot per class. */",
             "union tool_object_t {"]
        o += [f"    r_{cls} {cls};" for cls, _ in binds]
        o += ["};", "",
              "/* The binding (runtime value) of an MPI_T variable, -1 when unknown. */"]
        getters = {
            "cvar": ["    int verbosity = 0, bind = -1, scope = 0;", "    r_datatype type{};", "    r_t_enum enumtype{};",
                     "    tessera_translator_enter();",
                     "    const int rc = fn.T_cvar_get_info(index, nullptr, nullptr, &verbosity, &type, &enumtype, nullptr,",
                     "                                      nullptr, &bind, &scope);"],
            "pvar": ["    int verbosity = 0, var_class = 0, bind = -1, readonly = 0, continuous = 0, atomic = 0;",
                     "    r_datatype type{};", "    r_t_enum enumtype{};",
                     "    tessera_translator_enter();",
                     "    const int rc = fn.T_pvar_get_info(index, nullptr, nullptr, &verbosity, &var_class, &type, &enumtype,",
                     "                                      nullptr, nullptr, &bind, &readonly, &continuous, &atomic);"],
            "event": ["    int verbosity = 0, count = 0, bind = -1;", "    r_t_enum enumtype{};", "    r_info info{};",
                      "    tessera_translator_enter();",
                      "    const int rc = fn.T_event_get_info(index, nullptr, nullptr, &verbosity, nullptr, nullptr, &count,",
                      "                                       &enumtype, &info, nullptr, nullptr, &bind);",
                      "    if (rc == 0 && info != h_a2r_info(MPI_INFO_NULL)) fn.Info_free(&info);"]}
        for var, body in getters.items():
            if f"tool_bind_{var}" in self.helpers:
                o += [f"int tool_bind_{var}(int index)", "{"] + body + \
                     ["    tessera_translator_leave();", "    return rc == 0 ? bind : -1;", "}", ""]
        o += [
              "/* obj points to an application handle of the class `bind` names; returns a pointer to the runtime's",
              " * handle of the same object (in *slot), or obj itself for unbound variables. */",
              "void *tool_object_a2r(int bind, void *obj, tool_object_t *slot)", "{",
              "    if (obj == nullptr) return obj;", "    switch (bind) {"]
        for cls, value in binds:
            cname = self.cname_of(cls)
            o += [f"    case {value}:",
                  f"        slot->{cls} = h_a2r_{cls}(*static_cast<const {cname} *>(obj));",
                  f"        return &slot->{cls};"]
        o += ["    default:", "        return obj;", "    }", "}", ""]
        return o

    def handle_arg(self, f, a, b: Body) -> str:
        n, cls = a.name, a.kind_param
        rt, a2r, r2a = f"r_{cls}", f"h_a2r_{cls}", f"h_r2a_{cls}"
        if cls == "datatype" and self.missing_types and a.direction in ("in", "inout") and f.name not in TYPE_QUERIES:
            self.missing_type_check(f, a, b)
        if a.is_array and not a.is_const and self.conv.classes[cls]["repr"] == "ptr":
            # A runtime handle is as wide as ours: converted in the application's own array (which
            # MPI owns during the call) and back, without a copy.
            length = self.len_expr(f, a)
            b.pre2.append(f"const int len_{n} = {n} != nullptr ? {length} : 0;")
            # Every access here is through the application's type; the runtime reads its own.
            cname = self.cname_of(cls)
            if a.direction in ("in", "inout"):
                b.pre2.append(f"for (int i_ = 0; i_ < len_{n}; ++i_)")
                b.pre2.append(f"    {n}[i_] = reinterpret_cast<{cname}>({a2r}({n}[i_]));")
            b.post_arrays.append(("always" if a.direction == "inout" else "success",
                                  f"for (int i_ = 0; i_ < len_{n}; ++i_) "
                                  f"{n}[i_] = {r2a}(reinterpret_cast<{rt}>({n}[i_]));"))
            return f"reinterpret_cast<{rt} *>({n})"
        if a.is_array:
            length = self.len_expr(f, a)
            b.pre2.append(f"const int len_{n} = {n} != nullptr ? {length} : 0;")
            self.temp_array(f, b, rt, f"c_{n}", f"len_{n}")
            if a.direction in ("in", "inout"):
                b.pre2.append(f"for (int i_ = 0; i_ < len_{n}; ++i_)")
                b.pre2.append(f"    c_{n}[i_] = {a2r}({n}[i_]);")
            if a.direction in ("out", "inout"):
                b.post_arrays.append(("always" if a.direction == "inout" else "success",
                                      f"for (int i_ = 0; i_ < len_{n}; ++i_) {n}[i_] = {r2a}(c_{n}[i_]);"))
            return f"{n} != nullptr ? c_{n} : nullptr"
        if not a.is_pointer:
            b.pre1.append(f"const {rt} c_{n} = {a2r}({n});")
            return f"c_{n}"
        if a.direction == "out" and cls not in TOOL_HANDLE_CLASSES:
            # A call that fails hands out the null handle, as on the native engine (the runtime may
            # have left the variable alone, or written its own handle there).
            b.post_scalars.append(("failure", f"if ({n} != nullptr) *{n} = {null_handle(self.api, cls)};"))
        if self.conv.classes[cls]["repr"] == "ptr":
            # As wide as ours: the runtime reads and writes the application's variable, converted in
            # place (and back, also for an `in` handle such as MPI_Cancel's request).
            cname = self.cname_of(cls)
            if a.direction in ("in", "inout"):
                b.pre2.append(f"if ({n} != nullptr) *{n} = reinterpret_cast<{cname}>({a2r}(*{n}));")
            b.post_scalars.append(("success" if a.direction == "out" else "always",
                                   f"if ({n} != nullptr) *{n} = {r2a}(reinterpret_cast<{rt}>(*{n}));"))
            return f"reinterpret_cast<{rt} *>({n})"
        b.pre2.append(f"{rt} c_{n}{{}};")
        if a.direction in ("in", "inout"):
            b.pre2.append(f"if ({n} != nullptr) c_{n} = {a2r}(*{n});")
        if a.direction in ("out", "inout"):
            b.post_scalars.append(("always" if a.direction == "inout" else "success",
                                   f"if ({n} != nullptr) *{n} = {r2a}(c_{n});"))
        return f"{n} != nullptr ? &c_{n} : nullptr"

    @staticmethod
    def found_flag(f: mpi_api.Function) -> str | None:
        """The condition under which a call with a `flag` output wrote its status: the runtime (like the
        native engine) leaves the status alone when the flag says nothing was found or completed
        (MPI_Iprobe, MPI_Test, ...), and applications keep values there across such calls."""
        flag = next((x.name for x in f.args if x.kind_base == "flag" and x.direction == "out"), None)
        return f"{flag} != nullptr && *{flag}" if flag else None

    # -- optional predefined datatypes the runtime lacks --
    def errh_object(self, f: mpi_api.Function) -> tuple[str, str]:
        """The class (comm, win, file, or "" for none) and ABI expression of the object whose error handler
        an error of f is raised on (errh= in the API description)."""
        errh = f.attrs.get("errh", "none")
        if errh == "COMM_SELF":
            return "comm", "MPI_COMM_SELF"
        a = next((x for x in f.args if x.name == errh), None)
        if a is None or a.is_array or a.kind_param not in ("comm", "win", "file"):
            return "", "nullptr"
        return a.kind_param, f"({a.name} != nullptr ? *{a.name} : nullptr)" if a.is_pointer else a.name

    def missing_type_check(self, f: mpi_api.Function, a: mpi_api.Arg, b: Body):
        """A datatype the runtime lacks never goes down as its null handle: the call raises MPI_ERR_TYPE."""
        self.helpers.add("missing_type")
        cls, obj = self.errh_object(f)
        raise_ = f'return missing_type_raise("{f.name}", {{}}, "{cls}", {obj});'
        n = a.name
        if a.is_array:
            length = self.len_expr(f, a)
            b.pre2.append(f"for (int i_ = 0, l_ = {n} != nullptr ? {length} : 0; i_ < l_; ++i_)")
            b.pre2.append(f"    if (TESSERA_TR_UNLIKELY(missing_type({n}[i_]))) " + raise_.format(f"{n}[i_]"))
        elif a.is_pointer:
            b.pre1.append(f"if (TESSERA_TR_UNLIKELY({n} != nullptr && missing_type(*{n}))) " + raise_.format(f"*{n}"))
        else:
            b.pre1.append(f"if (TESSERA_TR_UNLIKELY(missing_type({n}))) " + raise_.format(n))

    def missing_type_answer(self, f: mpi_api.Function, b: Body):
        """The queries whose answers the ABI fixes for an optional type, answered without the runtime."""
        self.helpers.add("missing_type")
        t = f.args[0].name
        lines = []
        for a in f.args[1:]:
            if a.kind_base == "bytes":
                lines.append(f"if ({a.name} != nullptr) *{a.name} = size_;")
            elif a.kind_base in ("disp", "count"):
                lines.append(f"if ({a.name} != nullptr) *{a.name} = 0;")
            elif a.kind_base == "enum" and a.kind_param == "combiner":
                lines.append(f"if ({a.name} != nullptr) *{a.name} = MPI_COMBINER_NAMED;")
            elif a.kind_base == "string":
                strlen = next((x.name for x in f.args if x.kind_base == "strlen"), "nullptr")
                lines.append(f"if ({a.name} != nullptr) copy_string({a.name}, {a.attrs['max']}, missing_type_name({t}), {strlen});")
            elif a.kind_base == "strlen":
                continue
            else:
                raise GenError(f"{f.name}({a.name}): no answer for an optional datatype")
        sized = any(a.kind_base == "bytes" for a in f.args)
        b.pre1.append(f"if (TESSERA_TR_UNLIKELY(missing_type({t}))) {{")
        if sized:
            cls, obj = self.errh_object(f)
            b.pre1.append(f"    const int size_ = missing_type_size({t});")
            b.pre1.append(f'    if (size_ < 0) return missing_type_raise("{f.name}", {t}, "{cls}", {obj});')
        b.pre1 += ["    " + ln for ln in lines] + ["    return MPI_SUCCESS;", "}"]

    def missing_type_code(self) -> list[str]:
        label = {"ompi": "Open MPI", "mpich": "MPICH"}.get(self.rt, self.rt)
        values = sorted(v for v, _, _ in self.missing_types)
        o = [f"/* ABI datatypes {label} lacks (or defines as its MPI_DATATYPE_NULL): "
             + ", ".join(n for _, n, _ in self.missing_types) + ". */",
             "inline bool missing_type(MPI_Datatype t)", "{",
             "    const uintptr_t v = reinterpret_cast<uintptr_t>(t);",
             f"    if (TESSERA_TR_LIKELY(v - {values[0]:#x}u > {values[-1] - values[0]:#x}u)) return false;",
             "    switch (v) {"]
        o += [f"    case {v:#x}:" for v in values]
        o += ["        return true;", "    default:", "        return false;", "    }", "}",
              "const char *missing_type_name(MPI_Datatype t)", "{", "    switch (reinterpret_cast<uintptr_t>(t)) {"]
        o += [f'    case {v:#x}: return "{n}";' for v, n, _ in self.missing_types]
        o += ['    default: return "?";', "    }", "}",
              "/* The size the ABI gives it; -1 when it fixes none. */",
              "int missing_type_size(MPI_Datatype t)", "{", "    switch (reinterpret_cast<uintptr_t>(t)) {"]
        o += [f"    case {v:#x}: return {size};" for v, _, size in self.missing_types if size is not None]
        o += ["    default: return -1;", "    }", "}",
              "[[gnu::cold, gnu::noinline]] int missing_type_raise(const char *function, MPI_Datatype type,",
              "                                                    const char *cls, void *object)",
              "{",
              "    const std::string text = std::string(function) + \": MPI_ERR_TYPE: \" + missing_type_name(type) +",
              "                             \" is not provided by \" + mca_translator_base_runtime_name();",
              "    return raise_through_table(MPI_ERR_TYPE, cls, object, text.c_str());",
              "}", ""]
        return o

    def raise_code(self) -> list[str]:
        return ["/* An error the translator finds itself, raised on the error handler of the call's object (cls",
                " * 'c'omm, 'w'in, 'f'ile; none else) through the dispatch table: the runtime owns the handlers.",
                " * The text is printed first when the handler ends the job, whose own message would not say it. */",
                "[[gnu::cold, gnu::noinline]] int raise_through_table(int code, const char *cls, void *object,",
                "                                                     const char *text)",
                "{",
                "    const tessera_mpi_dispatch_t &t = tessera_mpi_dispatch;",
                "    MPI_Errhandler h = MPI_ERRHANDLER_NULL;",
                "    int got = MPI_ERR_OTHER;",
                "    const char c = cls[0];",
                "    if (c == 'c') got = t.Comm_get_errhandler(static_cast<MPI_Comm>(object), &h);",
                "    else if (c == 'w') got = t.Win_get_errhandler(static_cast<MPI_Win>(object), &h);",
                "    else if (c == 'f') got = t.File_get_errhandler(static_cast<MPI_File>(object), &h);",
                "    const bool fatal = got != MPI_SUCCESS || h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_ABORT;",
                "    if (fatal) std::fprintf(stderr, \"%s\\n\", text);",
                "    if (got != MPI_SUCCESS) return code;",
                "    if (!fatal && h != MPI_ERRORS_RETURN) (void)t.Errhandler_free(&h);",
                "    if (c == 'c') (void)t.Comm_call_errhandler(static_cast<MPI_Comm>(object), code);",
                "    else if (c == 'w') (void)t.Win_call_errhandler(static_cast<MPI_Win>(object), code);",
                "    else (void)t.File_call_errhandler(static_cast<MPI_File>(object), code);",
                "    return code;",
                "}", ""]

    # -- buffered sends the runtime would lose --
    def bsend_guard(self, f: mpi_api.Function, b: Body):
        """MPI_Bsend/MPI_Ibsend of a message that cannot fit the attached buffer: refused here (BSEND_GUARD)."""
        self.helpers.add("bsend_guard")
        req = next((a.name for a in f.args if a.kind == "handle:request"), None)
        b.pre2.append(f"if (TESSERA_TR_UNLIKELY(dest != MPI_PROC_NULL && !bsend_fits(count, c_datatype, c_comm))) {{")
        if req:
            b.pre2.append(f"    if ({req} != nullptr) *{req} = MPI_REQUEST_NULL;")
        b.pre2 += [f'    return bsend_refused("{f.name}", count, comm);', "}"]

    def idup_name_guard(self, f: mpi_api.Function, b: Body):
        """The calls that track the names set on MPI_Comm_idup's communicators (IDUP_NAME_GUARD)."""
        self.helpers.add("idup_names")
        if f.name.startswith("MPI_Comm_idup"):
            b.post_call.append("if (rc_ == 0 && newcomm != nullptr) idup_name_track(reinterpret_cast<r_comm>(*newcomm));")
        elif f.name == "MPI_Comm_set_name":
            b.post_scalars.append(("success", "idup_name_set(c_comm, comm_name);"))
        elif f.name == "MPI_Comm_get_name":
            b.post_scalars.append(("success", "idup_name_restore(c_comm, comm_name, resultlen);"))
        else:
            b.pre1.append("if (comm != nullptr) idup_name_forget(h_a2r_comm(*comm));")

    @staticmethod
    def idup_names_code() -> list[str]:
        return ["/* The names the application set on MPI_Comm_idup's communicators (IDUP_NAME_GUARD), kept until",
                " * they are freed; `any` spares the other communicators' calls the lock. */",
                "struct IdupNames {",
                "    std::mutex lock;",
                "    std::unordered_set<r_comm> tracked;",
                "    std::unordered_map<r_comm, std::string> names;",
                "    std::atomic<bool> any{false};",
                "};",
                "IdupNames idup_names;",
                "void idup_name_track(r_comm c)", "{",
                "    const std::lock_guard<std::mutex> g(idup_names.lock);",
                "    idup_names.tracked.insert(c);",
                "    idup_names.any.store(true, std::memory_order_relaxed);", "}",
                "void idup_name_set(r_comm c, const char *name)", "{",
                "    if (!idup_names.any.load(std::memory_order_relaxed) || name == nullptr) return;",
                "    const std::lock_guard<std::mutex> g(idup_names.lock);",
                "    if (idup_names.tracked.count(c) != 0)",
                "        idup_names.names[c].assign(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));", "}",
                "/* After the runtime's MPI_Comm_get_name: the name set, put back if the runtime replaced it. */",
                "void idup_name_restore(r_comm c, char *name, int *resultlen)", "{",
                "    if (!idup_names.any.load(std::memory_order_relaxed) || name == nullptr) return;",
                "    std::string set;",
                "    {",
                "        const std::lock_guard<std::mutex> g(idup_names.lock);",
                "        const auto it = idup_names.names.find(c);",
                "        if (it == idup_names.names.end()) return;",
                "        set = it->second;",
                "    }",
                "    if (set == name) return;",
                "    tessera_translator_enter();",
                "    (void)fn.Comm_set_name(c, set.c_str());",
                "    tessera_translator_leave();",
                "    copy_string(name, MPI_MAX_OBJECT_NAME, set.c_str(), resultlen);", "}",
                "void idup_name_forget(r_comm c)", "{",
                "    if (!idup_names.any.load(std::memory_order_relaxed)) return;",
                "    const std::lock_guard<std::mutex> g(idup_names.lock);",
                "    idup_names.tracked.erase(c);",
                "    idup_names.names.erase(c);", "}", ""]

    def bsend_guard_code(self) -> list[str]:
        overhead = self.facts.int_value("MPI_BSEND_OVERHEAD") or 0
        return ["/* The size of the buffer attached for buffered sends (0: none). */",
                "std::atomic<long long> bsend_attached{0};",
                "/* Whether a buffered send of count elements can fit the attached buffer at all: its packed size",
                f" * and the runtime's MPI_BSEND_OVERHEAD ({overhead}) within the size attached. */",
                "bool bsend_fits(int count, r_datatype type, r_comm comm)", "{",
                "    int packed = 0;", "    tessera_translator_enter();",
                "    const int rc = fn.Pack_size(count, type, comm, &packed);", "    tessera_translator_leave();",
                f"    return rc != 0 || packed == 0 || packed + {overhead}LL <= bsend_attached.load(std::memory_order_relaxed);",
                "}",
                "[[gnu::cold, gnu::noinline]] int bsend_refused(const char *function, int count, MPI_Comm comm)", "{",
                "    const std::string text = std::string(function) + \": MPI_ERR_BUFFER: \" + std::to_string(count) +",
                "        \" elements do not fit the attached buffer of \" + std::to_string(bsend_attached.load()) +",
                "        \" bytes (each pending message needs its MPI_Pack_size + MPI_BSEND_OVERHEAD)\";",
                "    return raise_through_table(MPI_ERR_BUFFER, \"comm\", comm, text.c_str());",
                "}", ""]

    # -- MPI_Type_get_contents: the integers that are constants --
    def contents_code(self) -> list[str]:
        o = ["/* A runtime type's envelope: its combiner and the numbers of integers, addresses, large counts and",
             " * datatypes its contents have (ok false when the runtime refused). */",
             "struct ContentsShape {", "    bool ok;", "    int combiner;", "    long long n[4];", "};",
             "ContentsShape contents_shape(r_datatype t, bool large)", "{",
             "    ContentsShape s{false, 0, {0, 0, 0, 0}};", "    int rc = -1;", "    tessera_translator_enter();",
             "    if (large) {", "        MPI_Count n[4] = {0, 0, 0, 0};"]
        if self.facts.funcs.get("MPI_Type_get_envelope_c"):
            o += ["        rc = fn.Type_get_envelope_c(t, &n[0], &n[1], &n[2], &n[3], &s.combiner);",
                  "        for (int i = 0; i < 4; ++i) s.n[i] = n[i];"]
        else:
            o.append("        (void)n;")
        o += ["    } else {", "        int n[3] = {0, 0, 0};",
              "        rc = fn.Type_get_envelope(t, &n[0], &n[1], &n[2], &s.combiner);",
              "        s.n[0] = n[0];", "        s.n[1] = n[1];", "        s.n[3] = n[2];", "    }",
              "    tessera_translator_leave();", "    s.ok = rc == 0;", "    return s;", "}", "",
              "/* The integers MPI_Type_get_contents(_c) gave, those that are constants (a darray's distributions,",
              " * default dargs and order, a subarray's order) converted to the ABI's. The order is the last",
              " * integer of both; a darray made with MPI_Count sizes has its gsizes among the large counts",
              " * (3 * ndims + 4 integers instead of 4 * ndims + 4). */",
              "void contents_constants_r2a(const ContentsShape &s, int *ints, long long max)", "{",
              "    if (!s.ok || ints == nullptr) return;",
              "    const long long ni = s.n[0];",
              "    const long long end = ni < max ? ni : max;",
              "    const auto conv = [&](long long i, int (*f)(int)) {",
              "        if (i >= 0 && i < end) ints[i] = f(ints[i]);",
              "    };"]
        for comb, (ctor, names) in CONTENTS_CONSTANTS.items():
            rv = self.facts.int_value(comb)
            if rv is None or not self.facts.funcs.get(ctor):
                continue
            f = self.api.function(ctor)
            maps = {}
            for n in names:
                pfx = self.map_prefix(f.arg(n))
                maps[n] = f"{pfx}_r2a" if pfx else "[](int x) { return x; }"
            o.append(f"    if (s.combiner == {c_int(rv)}) {{ /* {comb} */")
            if comb == "MPI_COMBINER_DARRAY":
                o += ["        if (end < 3) return;",
                      "        const long long nd = ints[2];",
                      "        const long long first = ni == 4 * nd + 4 ? 3 + nd : 3; /* after the gsizes, if here */",
                      "        for (long long k = 0; k < nd; ++k) {",
                      f"            conv(first + k, {maps['array_of_distribs']});",
                      f"            conv(first + nd + k, {maps['array_of_dargs']});",
                      "        }"]
            o.append(f"        conv(ni - 1, {maps['order']});")
            o.append("    }")
        o += ["}", ""]
        return o

    def status_arg(self, f, a, b: Body) -> str:
        n = a.name
        if a.is_array:
            ign = self.rt_pointer("MPI_STATUSES_IGNORE", "r_status *")
            if self.statuses_ignored:
                return ign
            length = self.len_expr(f, a)
            b.pre2.append(f"const int len_{n} = {n} != MPI_STATUSES_IGNORE ? {length} : 0;")
            b.pre2.append(f"TR_TEMP_ARRAY(r_status, c_{n}, len_{n});")
            valid = f"len_{n}"
            if "valid" in a.attrs:
                v = a.attrs["valid"]
                valid = f"({v} != nullptr ? *{v} : 0)" if f.arg(v).is_pointer else v
            # A runtime may leave MPI_ERROR alone (the standard sets it only with MPI_ERR_IN_STATUS): the
            # application then finds the value it had, as it would without translation.
            b.pre2.append(f"for (int i_ = 0; i_ < len_{n}; ++i_) status_keep_error(&{n}[i_], &c_{n}[i_]);")
            found = self.found_flag(f)
            if found:  # an error (MPI_ERR_IN_STATUS) also reports in the statuses
                valid = f"(rc_ != 0 || ({found}) ? {valid} : 0)"
            b.post_arrays.append(("always", f"for (int i_ = 0, v_ = {valid}; i_ < v_ && i_ < len_{n}; ++i_) "
                                            f"status_r2a(&c_{n}[i_], &{n}[i_]);"))
            return f"{n} != MPI_STATUSES_IGNORE ? c_{n} : {ign}"
        b.pre2.append(f"r_status c_{n};")
        if a.direction in ("in", "inout"):
            b.pre2.append(f"if ({n} != nullptr) status_a2r({n}, &c_{n});")
        if a.direction == "inout":  # MPI_Status_set_*: the application's own status, MPI_ERROR included
            b.post_scalars.append(("always", f"if ({n} != nullptr) status_r2a(&c_{n}, {n});"))
        elif a.direction == "out":
            found = self.found_flag(f)
            b.post_scalars.append(("success", f"if ({n} != nullptr{f' && {found}' if found else ''}) "
                                              f"status_r2a_single(&c_{n}, {n});"))
        if "ignorable" in a.flags:
            ign = self.rt_pointer("MPI_STATUS_IGNORE", "r_status *")
            return f"{n} != MPI_STATUS_IGNORE ? &c_{n} : {ign}"
        return f"{n} != nullptr ? &c_{n} : nullptr"

    def int_arg(self, f, a, b: Body, pfx: str, expr: str) -> str:
        n = a.name
        base = a.base_type
        if a.is_array:
            length = self.len_expr(f, a)
            if a.direction == "in":
                b.pre2.append(f"const int len_{n} = {n} != nullptr ? {length} : 0;")
                self.temp_array(f, b, base, f"c_{n}", f"len_{n}")
                b.pre2.append(f"for (int i_ = 0; i_ < len_{n}; ++i_)")
                b.pre2.append(f"    c_{n}[i_] = {pfx}_a2r({n}[i_]);")
                return f"{n} != nullptr ? c_{n} : nullptr"
            when = "always" if a.kind_base == "errcodes" else "success"
            b.post_arrays.append((when, f"if ({n} != nullptr) for (int i_ = 0, l_ = {length}; i_ < l_; ++i_) "
                                        f"{n}[i_] = {pfx}_r2a({n}[i_]);"))
            return expr
        if not a.is_pointer:
            return f"{pfx}_a2r({n})"
        if a.direction == "out":
            b.post_scalars.append(("success", f"if ({n} != nullptr) *{n} = {pfx}_r2a(*{n});"))
            return expr
        if a.direction == "inout":
            b.pre2.append(f"{base} c_{n} = {n} != nullptr ? {pfx}_a2r(*{n}) : 0;")
            b.post_scalars.append(("always", f"if ({n} != nullptr) *{n} = {pfx}_r2a(c_{n});"))
            return f"{n} != nullptr ? &c_{n} : nullptr"
        return expr

    def string_arg(self, f, a, b: Body, expr: str) -> str:
        n, limit = a.name, a.attrs["max"]
        abi_max = self.api.constants[limit].value
        rt_max = self.facts.int_value(limit)
        if rt_max is None or rt_max <= abi_max:
            return expr  # the runtime never writes more than the application's buffer holds
        length = next((x.name for x in f.args if x.kind_base == "strlen" and x.direction == "out"), None)
        b.pre2.append(f"char c_{n}[{rt_max}]; /* {limit}: {rt_max} in the runtime, {abi_max} here */")
        b.post_scalars.append(("success", f"if ({n} != nullptr) copy_string({n}, {abi_max}, c_{n}, "
                                          f"{length or 'nullptr'});"))
        return f"{n} != nullptr ? c_{n} : nullptr"

    # -- callbacks: records (the runtime passes our extra_state back) or pools --
    def callback_args(self, f: mpi_api.Function, b: Body) -> list[str]:
        """Conversions of f's callback arguments; sets b.override for them (and for the record's
        extra_state). Returns the statements run after a successful call."""
        cbs = [a for a in f.args if a.kind_base == "callback"]
        if not cbs:
            return []
        opaques = {a.name for a in f.args if a.kind_base == "opaque"}
        defs = {a.name: next(c for c in self.api.callbacks if c.name == a.kind_param) for a in cbs}
        rec_opaque = {a.name: next((x.name for x in defs[a.name].args
                                    if x.kind_base == "opaque" and x.name in opaques), None) for a in cbs}
        record = [a for a in cbs if rec_opaque[a.name]]
        post = []
        if record:
            b.pre1.append("bool need_record_ = false;")
        for a in cbs:
            cb = defs[a.name]
            n = a.name
            b.pre1.append(f"r_cb_{cb.name} *c_{n} = nullptr;")
            chain = "if"
            for value, rexpr in self.conv.callback_predefined(cb.name):
                b.pre1.append(f"{chain} (reinterpret_cast<uintptr_t>({n}) == {value}) c_{n} = {rexpr};")
                chain = "else if"
            if rec_opaque[n]:
                tramp = f"tramp_{f.name[4:]}_{n}"
                self.record_trampoline(f, a, cb, rec_opaque[n], tramp)
                b.pre1.append(f"{chain} ({n} != nullptr) {{ c_{n} = {tramp}; need_record_ = true; }}")
            else:
                self.use_pool(cb)
                b.pre1.append(f"{chain} ({n} != nullptr) {{")
                b.pre1.append(f"    c_{n} = pool_{cb.name}_acquire({n});")
                b.pre1.append(f"    if (c_{n} == nullptr) return pool_exhausted(\"{f.name}\");")
                b.pre1.append("}")
            b.override[n] = f"c_{n}"
        if record:
            opaque = rec_opaque[record[0].name]
            rec = f"Rec_{f.name[4:]}"
            b.pre1.append(f"std::unique_ptr<{rec}> record_;")
            b.pre1.append(f"void *c_{opaque} = {opaque};")
            b.pre1.append("if (need_record_) {")
            b.pre1.append(f"    record_ = std::make_unique<{rec}>();")
            for a in record:
                b.pre1.append(f"    record_->{a.name} = {a.name};")
            b.pre1.append(f"    record_->{opaque} = {opaque};")
            b.pre1.append(f"    c_{opaque} = record_.get();")
            b.pre1.append("}")
            b.override[opaque] = f"c_{opaque}"
            fields = [f"    {x.kind_param} *{x.name} = nullptr;" for x in record]
            self.records[0:0] = [f"/* What the runtime hands back to {'/'.join(x.name for x in record)} of {f.name}: the",
                                 " * application's functions and its own extra state. */",
                                 f"struct {rec} : RecordBase {{"] + fields + [f"    void *{opaque} = nullptr;", "};", ""]
            if any((f.name, a.name) in SELF_FREEING for a in record):
                post.append("(void)record_.release(); /* freed by the free trampoline */")
            else:
                post.append("if (record_) keep_record(std::move(record_));")
        return post

    def callback_call(self, cb: mpi_api.Function, fn_expr: str, opaque: str | None, opaque_expr: str) -> list[str]:
        """Calls the application's function with the callback's arguments converted back to the
        application's side; converts outputs and the returned error code for the runtime."""
        pre, args, post = [], [], []
        for x in cb.args:
            if x.is_varargs:
                continue
            n, kb = x.name, x.kind_base
            if opaque and n == opaque:
                args.append(opaque_expr)
            elif kb == "handle":
                cname = self.cname_of(x.kind_param)
                if x.is_pointer:
                    pre.append(f"{cname} a_{n} = h_r2a_{x.kind_param}(*{n});")
                    args.append(f"&a_{n}")
                else:
                    args.append(f"h_r2a_{x.kind_param}({n})")
            elif kb == "status":
                pre += [f"MPI_Status a_{n};", f"status_r2a({n}, &a_{n});"]
                args.append(f"&a_{n}")
                post.append(f"status_a2r(&a_{n}, {n});")
            else:
                pfx = self.map_prefix(x) if kb in mpi_api.INTEGER_KINDS | {"enum", "bits"} else None
                if pfx and x.is_pointer:
                    pre.append(f"{x.base_type} a_{n} = {pfx}_r2a(*{n});")
                    args.append(f"&a_{n}")
                elif pfx:
                    args.append(f"{pfx}_r2a({n})")
                else:
                    args.append(n)
        call = f"{fn_expr}({', '.join(args)})"
        o = pre + ["const int saved_ = tessera_translator_suspend();"]
        if cb.ret == "int":
            o += [f"const int rc_ = {call};", "tessera_translator_resume(saved_);"] + post
            o.append(f"return {self.error_a2r('rc_')};")
        else:
            o += [f"{call};", "tessera_translator_resume(saved_);"] + post
        return o

    def cb_params(self, cb: mpi_api.Function) -> str:
        return ", ".join("..." if x.is_varargs else runtime_decl(self.api, x.ctype, x.name) for x in cb.args)

    def record_trampoline(self, f, a, cb, opaque: str, name: str) -> None:
        rec = f"Rec_{f.name[4:]}"
        o = [f"/* The runtime calls this for {f.name}'s {a.name}; {opaque} is our record. */",
             f"{runtime_ctype(self.api, cb.ret)} {name}({self.cb_params(cb)})", "{",
             f"    auto *record = static_cast<{rec} *>({opaque});"]
        body = self.callback_call(cb, f"record->{a.name}", opaque, f"record->{opaque}")
        if (f.name, a.name) in SELF_FREEING:
            body = [ln.replace("return ", "const int out_ = ", 1) if ln.startswith("return ") else ln for ln in body]
            body += [f"std::unique_ptr<{rec}>{{record}}.reset(); /* the runtime's last call for it */",
                     "return out_;"]
        o += ["    " + ln for ln in body] + ["}", ""]
        self.records += o

    def use_pool(self, cb) -> None:
        if cb.name not in [c.name for c in self.pools]:
            self.pools.append(cb)

    def pool_code(self, cb) -> list[str]:
        n = cb.name
        o = [f"/* {n}: {POOL_SIZE} fixed trampolines, slot i calling the i-th distinct application function. */",
             f"std::atomic<void *> pool_{n}_fns[{POOL_SIZE}];",
             "template <size_t I>",
             f"{runtime_ctype(self.api, cb.ret)} pool_{n}_tramp({self.cb_params(cb)})", "{",
             f"    auto *const fn_ = reinterpret_cast<{n} *>(pool_{n}_fns[I].load(std::memory_order_acquire));"]
        o += ["    " + ln for ln in self.callback_call(cb, "fn_", None, "")]
        o += ["}",
              "template <size_t... I>",
              f"constexpr std::array<r_cb_{n} *, sizeof...(I)> pool_{n}_make(std::index_sequence<I...>)",
              "{", f"    return {{{{&pool_{n}_tramp<I>...}}}};", "}",
              f"constexpr auto pool_{n}_tramps = pool_{n}_make(std::make_index_sequence<{POOL_SIZE}>{{}});",
              f"r_cb_{n} *pool_{n}_acquire({n} *fn)", "{",
              f"    const int slot = pool_acquire(pool_{n}_fns, {POOL_SIZE}, reinterpret_cast<void *>(fn));",
              f"    return slot < 0 ? nullptr : pool_{n}_tramps[static_cast<size_t>(slot)];", "}", ""]
        return o

    # -- whole thunks --
    @staticmethod
    def null_name_answer(f: mpi_api.Function, b: Body) -> None:
        """MPI_<Class>_get_name of the null handle: its name, without asking the runtime."""
        null = NULL_NAMES[f.name]
        handle, name, length = (a.name for a in f.args)
        b.pre1.append(f"if (TESSERA_TR_UNLIKELY({handle} == {null})) {{")
        b.pre1.append(f'    if ({name} != nullptr) copy_string({name}, MPI_MAX_OBJECT_NAME, "{null}", {length});')
        b.pre1 += ["    return MPI_SUCCESS;", "}"]

    def error_class_shortcut(self, f: mpi_api.Function, b: Body) -> None:
        """MPI_Error_class / MPI_Error_string of an ABI error class: a class is its own class whether or
        not the runtime has it, and one the runtime lacks gets a string that says so (the runtime would
        answer for whatever value the class maps to)."""
        code = f.args[0].name
        classes = [n for n in self.api.sets["error"] if n != "MPI_ERR_LASTCODE"]
        if f.name == "MPI_Error_class":
            out = f.args[1].name
            b.pre1.append(f"switch ({code}) {{")
            b.pre1 += [f"case {n}:" for n in classes]
            b.pre1 += [f"    if ({out} == nullptr) break;", f"    *{out} = {code};", "    return MPI_SUCCESS;",
                       "default: break;", "}"]
            return
        missing = [n for n in classes if n not in self.facts.consts]
        if not missing:
            return
        text, length = f.args[1].name, f.args[2].name
        label = {"ompi": "Open MPI", "mpich": "MPICH"}.get(self.rt, self.rt)
        b.pre1.append(f"switch ({code}) {{")
        for n in missing:
            msg = f"{n}: an error class of the MPI ABI that {label} does not have"
            b.pre1.append(f'case {n}: if ({text} == nullptr) break; '
                          f'copy_string({text}, MPI_MAX_ERROR_STRING, "{msg}", {length}); return MPI_SUCCESS;')
        b.pre1 += ["default: break;", "}"]

    def forward(self, f: mpi_api.Function) -> list[str]:
        """The thunk of f. One with an array of statuses (MPI_Waitall, MPI_Testsome, ...) gets a twin for
        MPI_STATUSES_IGNORE, the common case, without the status buffer and its conversions."""
        statuses = next((a for a in f.args if a.kind_base == "status" and a.is_array), None)
        if statuses is None:
            return self.forward_one(f, f"t_{f.name[4:]}", None)
        self.statuses_ignored = True
        twin = self.forward_one(f, f"t_{f.name[4:]}_statuses_ignored", None)
        self.statuses_ignored = False
        return twin + self.forward_one(f, f"t_{f.name[4:]}", (statuses.name, f"t_{f.name[4:]}_statuses_ignored"))

    def forward_one(self, f: mpi_api.Function, name: str, ignored_twin) -> list[str]:
        b = Body()
        if f.name in ("MPI_Error_class", "MPI_Error_string"):
            self.error_class_shortcut(f, b)
        if f.name in TYPE_QUERIES and self.missing_types:
            self.missing_type_answer(f, b)
        if f.name in NULL_NAMES:
            self.null_name_answer(f, b)
        if self.rt in IDUP_NAME_GUARD and f.name in IDUP_NAMED:
            self.idup_name_guard(f, b)
        if self.rt in BSEND_GUARD and f.name in ("MPI_Bsend", "MPI_Ibsend"):
            self.bsend_guard(f, b)
        if self.rt in BSEND_GUARD and f.name in ("MPI_Buffer_attach", "MPI_Buffer_detach"):
            self.helpers.add("bsend_guard")
            b.post_scalars.append(("success", "bsend_attached.store(size, std::memory_order_relaxed);"
                                   if f.name == "MPI_Buffer_attach" else "bsend_attached.store(0, std::memory_order_relaxed);"))
        if f.name in ("MPI_Type_get_contents", "MPI_Type_get_contents_c"):
            # The envelope first: where the integers that are constants are, and how many entries the
            # runtime will really write (Open MPI 4.1 walks all max_datatypes entries of the array as
            # handles it returned: garbage past the last one crashes it).
            self.helpers.add("contents")
            large = f.name.endswith("_c")
            b.pre2.append(f"const ContentsShape shape_ = contents_shape(c_datatype, {'true' if large else 'false'});")
            for a, k in (("max_integers", 0), ("max_addresses", 1), ("max_large_counts", 2), ("max_datatypes", 3)):
                if any(x.name == a for x in f.args):
                    b.override[a] = f"shape_.ok && shape_.n[{k}] < {a} ? static_cast<decltype({a})>(shape_.n[{k}]) : {a}"
            b.post_scalars.append(("success", "contents_constants_r2a(shape_, array_of_integers, max_integers);"))
        post_cb = self.callback_args(f, b)
        overrides = PROTOTYPE_OVERRIDES.get(self.rt, {}).get(f.name, {})
        args = []
        for a in f.args:
            if a.is_varargs:
                continue
            expr = self.arg(f, a, b)
            if a.name in overrides:  # the runtime's older prototype: an explicit conversion
                ctype = runtime_ctype(self.api, overrides[a.name]).replace("[]", "*").strip()
                expr = f"({ctype})({expr})"
            args.append(expr)
        if f.name in REQUEST_COMPLETIONS:
            self.release_kept(f, b)
        slot = f.name[4:]
        rk = f.ret_kind
        o = [f"static {f.prototype(name)}", "{"]
        untouched = ", ".join(a.name for a in f.args if not a.is_varargs)
        if self.statuses_ignored:
            o += [f"    (void){a.name}; /* MPI_STATUSES_IGNORE */" for a in f.args
                  if a.kind_base == "status" and a.is_array]
        else:
            # The runtime calling MPI from inside itself: its own arguments, to its own function.
            o += ["    if (TESSERA_TR_UNLIKELY(tessera_translator_inside()))",
                  f"        return tessera_mpi_direct.{slot}({untouched});"]
        if ignored_twin is not None:
            o += [f"    if ({ignored_twin[0]} == MPI_STATUSES_IGNORE)", f"        return {ignored_twin[1]}({untouched});"]
        o += ["    " + ln for ln in b.pre1 + b.pre2]
        call = f"fn.{slot}({', '.join(args)})"
        o.append("    tessera_translator_enter();")
        if rk == "error":
            o.append(f"    const int rc_ = {call};")
        else:
            o.append(f"    const auto rv_ = {call};")
        o.append("    tessera_translator_leave();")
        o += ["    " + ln for ln in b.post_call]
        ok = "rc_ == 0" if rk == "error" else "true"
        for when, ln in b.post_arrays + b.post_scalars:
            if when == "failure":
                if ok != "true":
                    o.append(f"    if (!({ok})) {ln}")
                continue
            o.append(f"    {ln}" if when == "always" or ok == "true" else f"    if ({ok}) {ln}")
        if f.name == "MPI_Get_library_version":
            o.append("    if (rc_ == 0) decorate_library_version(version, resultlen);")
        for ln in post_cb:
            o.append(f"    if ({ok}) {ln}")
        if rk == "error":
            o.append(f"    return {self.error_r2a('rc_')};")
        elif rk.startswith("handle:"):
            o.append(f"    return h_r2a_{rk.split(':')[1]}(rv_);")
        else:
            o.append("    return rv_;")
        o += ["}", ""]
        return o

    def synthetic(self, f: mpi_api.Function) -> list[str] | None:
        """Functions served without a runtime function of their own name; None when not possible."""
        slot = f.name[4:]
        if f.name in STATUS_ACCESSORS:
            op, fld = STATUS_ACCESSORS[f.name]
            st, val = f.args[0].name, f.args[1].name
            body = ([f"    if ({st} == nullptr || {val} == nullptr) return MPI_ERR_ARG;", f"    *{val} = {st}->{fld};"]
                    if op == "get" else [f"    if ({st} == nullptr) return MPI_ERR_ARG;", f"    {st}->{fld} = {val};"])
            return [f"/* The ABI's own MPI_Status field. */", f"static {f.prototype('t_' + slot)}", "{"] + body + \
                ["    return MPI_SUCCESS;", "}", ""]
        if f.name == "MPI_Abi_get_version":
            x, y = f.args[0].name, f.args[1].name
            return [f"static {f.prototype('t_' + slot)}", "{",
                    f"    if ({x} == nullptr || {y} == nullptr) return MPI_ERR_ARG;",
                    f"    *{x} = MPI_ABI_VERSION;", f"    *{y} = MPI_ABI_SUBVERSION;", "    return MPI_SUCCESS;", "}", ""]
        m = re.fullmatch(r"MPI_(\w+)_(toint|fromint)", f.name)
        if m and m.group(1) in TOINT_CLASSES:
            cls = TOINT_CLASSES[m.group(1)]
            info = self.conv.classes[cls]
            to = m.group(2) == "toint"
            rt_fn = f"MPI_{m.group(1)}_{'c2f' if to else 'f2c'}"
            x = f.args[0].name
            if not info["present"]:  # only the predefined handles of a class the runtime lacks exist
                body = ([f"    return handle_ints::predefined({x}) ? static_cast<int>(reinterpret_cast<uintptr_t>({x})) : -1;"]
                        if to else [f"    return handle_ints::predefined_from_int({x}, {null_handle(self.api, cls)});"])
                return [f"static {f.prototype('t_' + slot)}", "{"] + body + ["}", ""]
            # Predefined handles are their own ABI values, whatever the runtime; a created object's
            # integer is the runtime's own, moved past them (ompi/runtime/handle_int_blocks.h).
            if to:
                rt_int = f"h_a2r_{cls}({x})"
                body = [f"    if (handle_ints::predefined({x})) return static_cast<int>(reinterpret_cast<uintptr_t>({x}));"]
            else:
                rt_int = f"handle_ints::to_runtime_int({x})"
                body = [f"    if ({x} >= 0 && static_cast<uint32_t>({x}) < handle_ints::kFirstCreated)",
                        f"        return handle_ints::predefined_from_int({x}, {null_handle(self.api, cls)});"]
            if self.facts.funcs.get(rt_fn):
                body += ["    tessera_translator_enter();", f"    const auto rv_ = fn.{rt_fn[4:]}({rt_int});",
                         "    tessera_translator_leave();"]
            elif info["repr"] == "int":  # an MPICH handle is its own Fortran integer
                body += [f"    const auto rv_ = {rt_int};"]
            else:
                return None
            body += ["    return handle_ints::from_runtime_int(rv_);" if to else f"    return h_r2a_{cls}(rv_);"]
            return [f"static {f.prototype('t_' + slot)}", "{"] + body + ["}", ""]
        return None

    def runtime_functions(self) -> list:
        """(name, runtime function type) of every runtime function a thunk calls."""
        out = []
        for f in self.api.functions:
            if self.facts.funcs.get(f.name):
                params = ", ".join("..." if a.is_varargs else
                                   runtime_decl(self.api, runtime_param_ctype(self.api, self.rt, f, a))
                                   for a in f.args) or "void"
                out.append((f.name, f"{runtime_ctype(self.api, f.ret)} (*)({params})"))
        for cls_name, cls in TOINT_CLASSES.items():
            for suffix in ("c2f", "f2c"):
                name = f"MPI_{cls_name}_{suffix}"
                if self.facts.funcs.get(name):
                    r = f"r_{cls}"
                    out.append((name, f"int (*)({r})" if suffix == "c2f" else f"{r} (*)(int)"))
        return out

    # -- the file --
    def helpers_code(self) -> list[str]:
        facts, conv = self.facts, self.conv
        o = ["/* A temporary array of n runtime-side elements: a few in the thunk's frame, up to array_stack_max",
             " * (the component's parameter) on the stack, more on the heap, freed when the thunk returns. */",
             "struct HeapBuffer {",
             "    void *p = nullptr;",
             "    HeapBuffer() = default;",
             "    HeapBuffer(const HeapBuffer &) = delete;",
             "    HeapBuffer &operator=(const HeapBuffer &) = delete;",
             "    ~HeapBuffer()",
             "    {",
             "        if (p != nullptr) std::free(p);",
             "    }",
             "    void *get(size_t n)",
             "    {",
             "        p = std::malloc(n);",
             "        return p;",
             "    }",
             "};",
             f"constexpr int kSmallArray = {SMALL_ARRAY};",
             "#define TR_TEMP_ARRAY(type, var, n)                                                              \\",
             "    type var##_small_[kSmallArray];                                                              \\",
             "    HeapBuffer var##_heap_;                                                                       \\",
             "    type *const var = (n) <= kSmallArray ? var##_small_                                          \\",
             "        : static_cast<type *>(static_cast<size_t>(n) <= array_stack_max                           \\",
             "                                  ? __builtin_alloca(sizeof(type) * static_cast<size_t>(n))       \\",
             "                                  : var##_heap_.get(sizeof(type) * static_cast<size_t>(n)))",
             "",
             "/* A string the runtime may write longer than the application's buffer: truncated to cap - 1. */",
             "[[maybe_unused]] void copy_string(char *dst, size_t cap, const char *src, int *len)",
             "{",
             "    const size_t n = strnlen(src, cap - 1);",
             "    std::memcpy(dst, src, n);",
             "    dst[n] = '\\0';",
             "    if (len != nullptr) *len = static_cast<int>(n);",
             "}",
             "",
             "/* The sum of an array's elements (an array whose length is another's total). */",
             "[[maybe_unused]] int sum_ints(const int *v, int n)",
             "{",
             "    int s = 0;",
             "    for (int i = 0; v != nullptr && i < n; ++i) s += v[i];",
             "    return s;",
             "}",
             "",
             "/* Records handed to the runtime as a callback's extra state, kept until the translator is released",
             " * (the runtime may call a keyval's delete function long after the keyval was freed). */",
             "struct RecordBase {",
             "    virtual ~RecordBase() = default;",
             "};",
             "std::mutex records_mutex;",
             "std::vector<std::unique_ptr<RecordBase>> records;",
             "[[maybe_unused]] void keep_record(std::unique_ptr<RecordBase> record)",
             "{",
             "    const std::lock_guard<std::mutex> lock(records_mutex);",
             "    records.push_back(std::move(record));",
             "}",
             "",
             "using tessera::ompi::translator::KeptArrays;",
             "KeptArrays g_kept;",
             "/* A runtime request as the key of its kept arrays. */",
             "[[maybe_unused]] inline uintptr_t kept_key(r_request r)",
             "{",
             "    return reinterpret_cast<uintptr_t>(r);" if conv.classes["request"]["repr"] == "ptr" else
             "    return static_cast<uintptr_t>(static_cast<unsigned>(r));",
             "}",
             "",
             "/* The slot of `fn` in a pool, claiming a free one the first time; -1 when the pool is full. Lookups",
             " * are lock-free; claiming is serialized. */",
             "std::mutex pool_mutex;",
             "[[maybe_unused]] int pool_acquire(std::atomic<void *> *slots, int n, void *fn)",
             "{",
             "    for (int i = 0; i < n; ++i) {",
             "        void *s = slots[i].load(std::memory_order_acquire);",
             "        if (s == fn) return i;",
             "        if (s == nullptr) break;",
             "    }",
             "    const std::lock_guard<std::mutex> lock(pool_mutex);",
             "    for (int i = 0; i < n; ++i) {",
             "        void *s = slots[i].load(std::memory_order_relaxed);",
             "        if (s == fn) return i;",
             "        if (s == nullptr) {",
             "            slots[i].store(fn, std::memory_order_release);",
             "            return i;",
             "        }",
             "    }",
             "    return -1;",
             "}",
             "[[maybe_unused]] int pool_exhausted(const char *function)",
             "{",
             f'    std::fprintf(stderr, "Tessera translator {self.rt}: %s: more than {POOL_SIZE} distinct callback "',
             '                 "functions of this kind; the trampoline pool is full\\n", function);',
             "    return MPI_ERR_INTERN;",
             "}",
             ""]
        if self.helpers & {"missing_type", "bsend_guard"}:
            o += self.raise_code()
        if "missing_type" in self.helpers:
            o += self.missing_type_code()
        if "bsend_guard" in self.helpers:
            o += self.bsend_guard_code()
        if "idup_names" in self.helpers:
            o += self.idup_names_code()
        if "contents" in self.helpers:
            o += self.contents_code()
        if "group" in self.helpers:
            o += ["/* The length of an array indexed by the ranks of a communicator's (remote) group. */",
                  "int len_group(r_comm c)", "{", "    int inter = 0, n = 0;", "    tessera_translator_enter();",
                  "    if (fn.Comm_test_inter(c, &inter) == 0 && inter) fn.Comm_remote_size(c, &n);",
                  "    else fn.Comm_size(c, &n);", "    tessera_translator_leave();", "    return n;", "}", ""]
        if "degree" in self.helpers:
            cart, graph, dist = (facts.int_value(x) for x in ("MPI_CART", "MPI_GRAPH", "MPI_DIST_GRAPH"))
            o += ["/* The in- or out-degree of a communicator's topology, for neighbourhood collectives. */",
                  "int len_degree(r_comm c, int in)", "{",
                  "    int topo = 0, n = 0, out = 0, weighted = 0, rank = 0;", "    tessera_translator_enter();",
                  "    fn.Topo_test(c, &topo);",
                  f"    if (topo == {dist}) {{",
                  "        fn.Dist_graph_neighbors_count(c, &n, &out, &weighted);",
                  "        if (!in) n = out;",
                  f"    }} else if (topo == {cart}) {{",
                  "        fn.Cartdim_get(c, &n);",
                  "        n *= 2;",
                  f"    }} else if (topo == {graph}) {{",
                  "        fn.Comm_rank(c, &rank);",
                  "        fn.Graph_neighbors_count(c, rank, &n);",
                  "    }",
                  "    tessera_translator_leave();", "    return n;", "}", ""]
        if "tool_object" in self.helpers:
            o += self.tool_object_code()
        if self.attr_fix:
            o += self.attr_code()
        label = {"ompi": "Open MPI", "mpich": "MPICH"}.get(self.rt, self.rt)
        o += ["/* MPI_Get_library_version says that Tessera translates, and to what. */",
              "[[maybe_unused]] void decorate_library_version(char *version, int *resultlen)", "{",
              "    if (version == nullptr) return;",
              f'    static const char prefix[] = "Tessera {self.version} (translator {self.rt}) over ";',
              "    const size_t cap = MPI_MAX_LIBRARY_VERSION_STRING - 1, plen = sizeof prefix - 1;",
              "    size_t len = strnlen(version, cap);",
              "    if (plen + len > cap) len = cap - plen;",
              "    std::memmove(version + plen, version, len);",
              "    std::memcpy(version, prefix, plen);",
              "    version[plen + len] = '\\0';",
              "    if (resultlen != nullptr) *resultlen = static_cast<int>(plen + len);",
              "}", f"/* {label} */", ""]
        return o

    def attr_code(self) -> list[str]:
        cases, values = [], set()
        for key, what in ATTR_VALUE_MAPS.items():
            if key not in self.api.constants:
                continue
            if what == "rank_attr":
                names, label = ["MPI_PROC_NULL", "MPI_ANY_SOURCE"], "attr_rank"
            elif what == "error":
                names, label = list(self.api.sets["error"]), "error"
            else:
                names, label = list(self.api.sets[what]), what
            m = self.conv.int_map(names, label)
            if not m:
                continue
            values |= set(self.conv.maps[tuple(names)][2].values()) | set(self.conv.maps[tuple(names)][1].values())
            cases.append(f"    case {key}: m = map_{m}_r2a(v()); break;")
        o = ["/* The value of a predefined attribute (MPI_HOST, MPI_WIN_MODEL...) is a pointer to the runtime's int:",
             " * when its value differs here, the application gets a pointer to a constant of ours instead. */",
             "void attr_value_r2a(int keyval, void *attribute_val)", "{"]
        if not cases:
            return o + ["    (void)keyval;", "    (void)attribute_val;", "}", ""]
        o += [f"    static const int values[] = {{{', '.join(c_int(v) for v in sorted(values))}}};",
              "    void **slot = static_cast<void **>(attribute_val);",
              "    if (*slot == nullptr) return;",
              "    /* Only a predefined keyval's value points to an int: a user's attribute value is any",
              "     * value the application stored (MPI-4.1 7.7.2), read only after the keyval says which. */",
              "    const auto v = [slot] { return *static_cast<const int *>(*slot); };",
              "    int m;",
              "    switch (keyval) {"] + cases + ["    default: return;", "    }",
                                                "    if (m == v()) return;",
                                                "    for (const int &x : values)",
                                                "        if (x == m) *slot = const_cast<int *>(&x);",
                                                "}", ""]
        return o

    def predefined_code(self) -> list[str]:
        o = ["/* Predefined handles of the pointer classes: (ABI value, how the runtime gives it). */",
             "struct PredefEntry {", "    uintptr_t abi;", "    int how; /* 0: value, 1: address of symbol, 2: value of variable */",
             "    intptr_t value;", "    const char *symbol;", "};",
             "const PredefEntry kPredef[] = {"]
        for cls, info in self.conv.classes.items():
            if info["repr"] != "ptr":
                continue
            for c, v in info["entries"]:
                how = {"int": 0, "sym": 1, "var": 2}[v.kind]
                o.append(f'    {{{c.value:#x}, {how}, {v.value if how == 0 else 0}, '
                         f'{"nullptr" if how == 0 else chr(34) + v.symbol + chr(34)}}}, /* {c.name} */')
        o += ["    {0, -1, 0, nullptr},", "};", ""]
        return o

    def write(self) -> str:
        thunks, table, late, large_helpers = [], [], [], set()
        for f in self.api.functions:
            slot = f.name[4:]
            has = lambda name: bool(self.facts.funcs.get(name))  # noqa: E731
            code = thunk_synthesis.composed(f, has)
            if code is None and "large" in f.attrs:
                code = thunk_synthesis.large_count(f, self.api.function(f.attrs["large"]), has, large_helpers)
            if code is not None:
                late += code  # after the thunks it calls
                table.append((slot, None, False))
                continue
            code = self.synthetic(f)
            if code is not None:
                thunks += code
                m = re.fullmatch(r"MPI_(\w+)_(toint|fromint)", f.name)
                rt_fn = None
                if m:
                    rt_fn = f"MPI_{m.group(1)}_{'c2f' if m.group(2) == 'toint' else 'f2c'}"
                    rt_fn = rt_fn[4:] if self.facts.funcs.get(rt_fn) else None
                table.append((slot, rt_fn, False))
            elif self.facts.funcs.get(f.name):
                thunks += self.forward(f)
                table.append((slot, slot, True))
        for h in sorted(large_helpers):
            thunks += thunk_synthesis.LARGE_COUNT_HELPERS[h]
        thunks += late
        fns = self.runtime_functions()
        ns, rt = self.ns, self.rt
        o = [f"/* translator_{rt}_thunks.cpp: the {rt} translator's thunks. Generated by ompi/api/gen_thunks.py",
             " * from mpi_api.txt and the runtime's own mpi.h; do not edit. Each thunk converts the application's",
             " * arguments to the runtime's, calls the runtime's function (raising the re-entrancy depth around",
             " * the call), converts the results back. */",
             f'#include "translator_{rt}_facts.h"', "",
             "#include <dlfcn.h>", "", "#include <algorithm>", "#include <atomic>", "#include <cstdio>",
             "#include <cstdlib>", "#include <memory>", "#include <mutex>", "#include <string>",
             "#include <unordered_map>", "#include <unordered_set>", "#include <utility>", "#include <vector>", "",
             '#include "frameworks/translator/base/base.h"',
             '#include "ompi/runtime/handle_int_blocks.h"', '#include "translator_kept_arrays.h"', "",
             f"namespace {ns} {{", "",
             f"size_t array_stack_max = 256;", "RuntimeSymbols g_sym;", f"void *g_predef_ptr[{PREDEFINED_LIMIT}];",
             "uintptr_t g_predef_lo, g_predef_span;", "const uint16_t *g_predef_index;", "",
             "namespace {", "",
             "/* The runtime's functions, resolved with dlsym (PMPI_x, else MPI_x); NULL when it lacks one. */",
             "struct RuntimeFunctions {"]
        o += [f"    {ftype.replace('(*)', '(*' + name[4:] + ')')};" for name, ftype in fns]
        o += ["};", "RuntimeFunctions fn;", "struct RuntimeRaw {"]
        o += [f"    void *{name[4:]};" for name, _ in fns]
        o += ["};", "RuntimeRaw raw;", "",
              "std::vector<std::pair<uintptr_t, uintptr_t>> predef_sorted; /* (runtime address, ABI value) */",
              "std::vector<uint16_t> predef_index;", ""]
        o += self.helpers_code()
        for cb in self.pools:
            o += self.pool_code(cb)
        o += self.records
        o += thunks
        o += self.predefined_code()
        o += ["void *lookup(void *lib, const char *pname, const char *name)", "{",
              "    void *s = dlsym(lib, pname);", "    return s != nullptr ? s : dlsym(lib, name);", "}", "",
              "} // namespace", "",
              "uintptr_t predef_r2a_search(uintptr_t r)", "{",
              "    const auto it = std::lower_bound(predef_sorted.begin(), predef_sorted.end(), std::make_pair(r, uintptr_t{0}));",
              "    return it != predef_sorted.end() && it->first == r ? it->second : r;", "}", "",
              "bool runtime_resolve(void *lib, std::string *why)", "{"]
        for name, _ in fns:
            s = name[4:]
            sym = RUNTIME_ALIASES.get(self.rt, {}).get(name, name)
            o.append(f'    fn.{s} = reinterpret_cast<decltype(fn.{s})>(raw.{s} = lookup(lib, "P{sym}", "{sym}"));')
        o += ["    for (const PredefEntry *e = kPredef; e->how >= 0; ++e) {",
              "        void *v = reinterpret_cast<void *>(e->value);",
              "        if (e->how != 0) {",
              "            v = dlsym(lib, e->symbol);",
              "            if (v != nullptr && e->how == 2) v = *static_cast<void **>(v);",
              "        }",
              "        g_predef_ptr[e->abi] = v;",
              "        if (e->how != 0 && v != nullptr) predef_sorted.emplace_back(reinterpret_cast<uintptr_t>(v), e->abi);",
              "    }",
              "    /* The first ABI constant naming a runtime object wins (MPI_DATATYPE_NULL before the optional",
              "     * types a runtime maps to it). */",
              "    std::stable_sort(predef_sorted.begin(), predef_sorted.end(),",
              "                     [](const auto &x, const auto &y) { return x.first < y.first; });",
              "    predef_sorted.erase(std::unique(predef_sorted.begin(), predef_sorted.end(),",
              "                                    [](const auto &x, const auto &y) { return x.first == y.first; }),",
              "                        predef_sorted.end());",
              "    if (!predef_sorted.empty()) {",
              "        g_predef_lo = predef_sorted.front().first;",
              "        g_predef_span = predef_sorted.back().first - g_predef_lo + 1;",
              "        const bool aligned = std::all_of(predef_sorted.begin(), predef_sorted.end(),",
              "                                         [](const auto &e) { return (e.first & 7) == 0; });",
              "        if (aligned && g_predef_span / 8 < (1u << 20)) {",
              "            predef_index.assign(g_predef_span / 8 + 1, 0);",
              "            for (const auto &e : predef_sorted)",
              "                predef_index[(e.first - g_predef_lo) >> 3] = static_cast<uint16_t>(e.second);",
              "            g_predef_index = predef_index.data();",
              "        }",
              "    }"]
        for n, v in sorted(self.conv.dyn_globals.items()):
            o.append(f'    g_sym.s_{n} = dlsym(lib, "{v.symbol}");')
            if v.kind == "var":
                o.append(f"    if (g_sym.s_{n} != nullptr) g_sym.s_{n} = *static_cast<void **>(g_sym.s_{n});")
        o += ["    if (fn.Init == nullptr || fn.Finalize == nullptr || fn.Get_library_version == nullptr) {",
              '        *why = "the library lacks MPI_Init, MPI_Finalize or MPI_Get_library_version";',
              "        return false;", "    }", "    return true;", "}", "",
              "size_t runtime_fill(tessera_mpi_dispatch_t *table, tessera_mpi_dispatch_t *direct)", "{",
              "    size_t n = 0;"]
        for slot, rt_fn, forwards in table:
            cond = f"raw.{rt_fn} != nullptr" if rt_fn else "true"
            o.append(f"    if ({cond}) {{")
            o.append(f"        table->{slot} = t_{slot};")
            if forwards:
                o.append(f"        if (direct != nullptr) direct->{slot} = reinterpret_cast<decltype(direct->{slot})>(raw.{slot});")
            o.append("        ++n;")
            o.append("    }")
        o += ["    return n;", "}", "",
              "int runtime_library_version(char *version, int *resultlen)", "{",
              "    tessera_translator_enter();", "    const int rc = fn.Get_library_version(version, resultlen);",
              "    tessera_translator_leave();", "    return rc;", "}", "",
              "void runtime_release()", "{",
              "    const std::lock_guard<std::mutex> lock(records_mutex);", "    records.clear();", "}", "",
              f"}} // namespace {ns}", ""]
        return "\n".join(o)


def gen_api_decls(conv: Conversions, rt: str) -> list[str]:
    lv = conv.facts.int_value("MPI_MAX_LIBRARY_VERSION_STRING") or 8192
    return ["/* translator_<rt>_thunks.cpp: what the component calls. */",
            "/* Resolves the runtime's functions and globals in `lib` (dlopen'ed); false with *why if unusable. */",
            "bool runtime_resolve(void *lib, std::string *why);",
            "/* Sets every entry the runtime provides (thunks into `table`, the runtime's own functions into",
            " * `direct` when not NULL); returns how many. */",
            "size_t runtime_fill(tessera_mpi_dispatch_t *table, tessera_mpi_dispatch_t *direct);",
            "/* The runtime's MPI_Get_library_version (allowed before MPI_Init); the buffer holds",
            " * kRuntimeLibraryVersionMax bytes. */",
            f"inline constexpr int kRuntimeLibraryVersionMax = {lv};",
            "int runtime_library_version(char *version, int *resultlen);",
            "/* Frees the callback records (after the runtime's MPI_Finalize). */",
            "void runtime_release();",
            "/* Converted arrays up to this many elements live on the stack. */",
            "extern size_t array_stack_max;", ""]


# --------------------------------------------------------------------------------------------------

def main(argv=None) -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("step", choices=("extractor", "thunks"))
    ap.add_argument("--runtime", required=True, help="ompi or mpich: names the generated files and namespace")
    ap.add_argument("--api", default=here / "mpi_api.txt", type=Path)
    ap.add_argument("--constants", default=here / "constants.tsv", type=Path)
    ap.add_argument("--header", type=Path, help="extractor: the runtime's mpi.h")
    ap.add_argument("--extracted", type=Path, help="thunks: what the extractor printed")
    ap.add_argument("--tessera-version", default="0.0.0")
    ap.add_argument("--output", type=Path, help="extractor: the C file to write")
    ap.add_argument("--outdir", type=Path, help="thunks: where to write the header and the source")
    args = ap.parse_args(argv)
    rt = args.runtime
    ns = f"tessera::ompi::translator_{rt}"
    try:
        api = mpi_api.load(args.api, args.constants)
        if args.step == "extractor":
            if not args.header or not args.output:
                ap.error("extractor needs --header and --output")
            write_atomically(args.output, gen_extractor(api, rt, HeaderScan.read(args.header)))
            return 0
        if not args.extracted or not args.outdir:
            ap.error("thunks needs --extracted and --outdir")
        facts = read_facts(args.extracted, rt)
        conv = Conversions(api, facts)
        writer = ThunkWriter(api, conv, rt, ns, args.tessera_version)
        source = writer.write()
        header = gen_facts_header(api, conv, ns, rt)
        header = header.replace(f"}} // namespace {ns}\n",
                                "\n".join(gen_api_decls(conv, rt)) + f"\n}} // namespace {ns}\n")
        header = header.replace('#include <array>\n', '#include <array>\n#include <string>\n', 1)
        header = header.replace('#include "frameworks/translator/base/reentry.h"\n',
                                '#include "frameworks/translator/base/reentry.h"\n#include "tessera_mpi_dispatch.h"\n', 1)
    except (mpi_api.ApiError, GenError) as e:
        print(f"gen_thunks: {e}", file=sys.stderr)
        return 1
    write_atomically(args.outdir / f"translator_{rt}_facts.h", header)
    write_atomically(args.outdir / f"translator_{rt}_thunks.cpp", source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
