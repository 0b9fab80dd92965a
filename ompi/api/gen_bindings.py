#!/usr/bin/env python3
"""Generates the MPI bindings and the dispatch table from mpi_api.txt.

Outputs (into --outdir):
  tessera_mpi_dispatch.h  tessera_mpi_dispatch_t: one function pointer per MPI function, filled by the
                          selected translator (native engine, Open MPI, MPICH); the table itself
                          (tessera_mpi_dispatch); the slot list used by `tessera_info --coverage`; the
                          entry points of the library that the bindings call (bootstrap, error raising,
                          handle validity).
  mpi_bindings.c          for every function, PMPI_x calls through the table, and MPI_x is a weak alias
                          of PMPI_x (the profiling interface: a tool's own MPI_x wins at link time).

What each PMPI_x does, in order:
  1. bootstrap: the first MPI call of the process fills the table (tessera_mpi_bootstrap(), one
     predictable branch on tessera_mpi_dispatch_ready afterwards);
  2. an empty slot answers through tessera_mpi_unsupported("MPI_x", object kind, object): the library
     raises MPI_ERR_UNSUPPORTED_OPERATION on the error handler of the object named by errh=, naming the
     function; functions without an error return give their neutral value, MPI_T functions (which
     never call error handlers) return MPI_T_ERR_NOT_SUPPORTED;
  3. argument checks derived from the argument kinds (see checks() below), each raising its error
     class on the same object;
  4. the call through the table.
Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import mpi_api  # noqa: E402

HEADER_GUARD = "TESSERA_MPI_DISPATCH_H_INCLUDED"


def slot(f: mpi_api.Function) -> str:
    """The table member for MPI_x is x: short, and no clash with the MPI_x macros of tools."""
    return f.name[4:]


def null_handle(api: mpi_api.Api, cls: str) -> str:
    """The null constant of a handle class, returned by MPI_<T>_fromint when it has no slot."""
    ctype = api.handle_classes[cls]
    for c in api.constants.values():
        if c.ctype == ctype and c.name.endswith("_NULL"):
            return c.name
    raise mpi_api.ApiError(f"no null constant of type {ctype}")


# The object kinds an error can be raised on; the library (ompi/errhandler) resolves the object to its
# error handler. Kept in step with tessera::ompi::ObjectKind.
OBJECT_KINDS = ["NONE", "COMM", "WIN", "FILE", "SESSION", "REQUEST", "MESSAGE", "ERRHANDLER"]
KIND_OF_CLASS = {"comm": "COMM", "win": "WIN", "file": "FILE", "session": "SESSION", "request": "REQUEST",
                 "message": "MESSAGE", "errhandler": "ERRHANDLER"}


def error_object(f: mpi_api.Function) -> tuple[str, str]:
    """(kind, C expression of the object) for the error handler named by errh=.

    A handle passed by pointer is read only when the pointer is not NULL; arrays (of requests) give no
    single object and the library falls back to MPI_COMM_WORLD's handler."""
    errh = f.attrs["errh"]
    if errh == "none":
        return "NONE", "NULL"
    if errh == "COMM_SELF":
        return "COMM", "(const void *)MPI_COMM_SELF"
    if errh == "FILE_NULL":
        return "FILE", "(const void *)MPI_FILE_NULL"
    a = f.arg(errh)
    kind = KIND_OF_CLASS[a.kind_param]
    if a.is_array:
        return kind, "NULL"
    if a.is_pointer:
        return kind, f"({a.name} != NULL ? (const void *)*{a.name} : NULL)"
    return kind, f"(const void *){a.name}"


def fallback(api: mpi_api.Api, f: mpi_api.Function) -> list[str]:
    """What a function with an empty slot does: report it, and return what its return kind allows."""
    kind, obj = error_object(f)
    call = f'tessera_mpi_unsupported("{f.name}", TESSERA_MPI_OBJ_{kind}, {obj})'
    rk = f.ret_kind
    if rk == "error":
        if f.attrs.get("cat") == "tool":
            # MPI_T functions return MPI_T_ERR_* codes and never invoke an error handler (MPI-4.1 15.3.1).
            return [f"(void){call};", "return MPI_T_ERR_NOT_SUPPORTED;"]
        return [f"return {call};"]
    if rk.startswith("handle:"):
        return [f"(void){call};", f"return {null_handle(api, rk.split(':', 1)[1])};"]
    if rk.startswith("fint:"):
        return [f"(void){call};", "return -1;"]
    return [f"(void){call};", f"return ({f.ret})0;"]


# --- Argument checks -----------------------------------------------------------------------------
# Only checks that are cheap and cannot reject a correct program are generated; each raises its error
# class on the object named by errh=. What is checked, by kind:
#   handle:<class>, in by value   the library knows the handle (tessera_mpi_handle_valid), for the
#                                 classes of CHECKED_HANDLE_CLASSES (those the library has objects for)
#   count, in by value            not negative (MPI_ERR_COUNT)
#   tag, in by value              not negative unless one of its special= values (MPI_ERR_TAG)
#   outputs                       not NULL (MPI_ERR_ARG): scalars and handles by pointer, strings of a
#                                 fixed size (max=), addr_out. A string sized by an argument (maxlen=)
#                                 may be NULL when that size is 0.
# Not yet: ranks against the communicator's size, buffers against counts, committed datatypes (they
# need the objects of issues 5-6). Functions without an error return (errh=none) check nothing.
CHECKED_HANDLE_CLASSES = {"comm": ("MPI_ERR_COMM", "communicator"),
                          "errhandler": ("MPI_ERR_ERRHANDLER", "error handler")}
# Arguments that the standard lets be a null handle although their kind alone does not say so.
# (Better said in mpi_api.txt one day, e.g. as special=COMM_NULL.)
NULL_HANDLE_ALLOWED = {("MPI_Intercomm_create", "peer_comm")}  # significant only at the leader
# Output kinds whose pointer must not be NULL.
NONNULL_OUT_KINDS = {"rank", "count", "flag", "int", "strlen", "bytes", "index", "keyval", "error", "enum",
                     "bits", "disp", "offset", "address", "tag", "handle", "string", "addr_out"}
# Outputs the standard lets be NULL although their kind alone does not say so.
NULL_OUT_ALLOWED: set = set()


def checks(f: mpi_api.Function) -> list[tuple[str, str, str]]:
    """(C condition that means "bad", error class, what is wrong) for each check of f: handles first (an
    invalid communicator is the first thing to report), then the other arguments in order."""
    if f.ret_kind != "error" or f.attrs["errh"] == "none":
        return []
    handles, out = [], []
    for a in f.args:
        if a.is_varargs or a.is_array:
            continue
        kb, kp = a.kind_base, a.kind_param
        by_value = a.direction == "in" and not a.is_pointer
        if by_value and kb == "handle" and kp in CHECKED_HANDLE_CLASSES \
                and (f.name, a.name) not in NULL_HANDLE_ALLOWED:
            code, noun = CHECKED_HANDLE_CLASSES[kp]
            handles.append((f"!tessera_mpi_handle_valid(TESSERA_MPI_OBJ_{KIND_OF_CLASS[kp]}, (const void *){a.name})",
                            code, f"invalid {noun} in argument '{a.name}'"))
        elif by_value and kb == "count" and not a.attrs.get("special"):
            out.append((f"{a.name} < 0", "MPI_ERR_COUNT", f"negative count in argument '{a.name}'"))
        elif by_value and kb == "tag":
            specials = [f" && {a.name} != MPI_{s}" for s in a.list_attr("special")]
            out.append((f"{a.name} < 0{''.join(specials)}", "MPI_ERR_TAG", f"negative tag in argument '{a.name}'"))
        elif a.direction == "out" and (a.is_pointer or kb in ("string", "addr_out")) \
                and kb in NONNULL_OUT_KINDS and (f.name, a.name) not in NULL_OUT_ALLOWED \
                and not (kb == "string" and "maxlen" in a.attrs):
            out.append((f"{a.name} == NULL", "MPI_ERR_ARG", f"argument '{a.name}' is NULL"))
    return handles + out


def gen_header(api: mpi_api.Api) -> str:
    o = ["/* tessera_mpi_dispatch.h: the MPI dispatch table. Generated by ompi/api/gen_bindings.py from",
         " * ompi/api/mpi_api.txt; do not edit. */",
         f"#ifndef {HEADER_GUARD}", f"#define {HEADER_GUARD}", "",
         "#include <stddef.h>", "#include <mpi.h>", "",
         "#if defined(__cplusplus)", 'extern "C" {', "#endif", "",
         f"#define TESSERA_MPI_FUNCTION_COUNT {len(api.functions)}", "",
         "#define TESSERA_MPI_UNLIKELY(x) __builtin_expect(!!(x), 0)", "",
         "/* One slot per MPI function; NULL means not provided by the selected engine. */",
         "typedef struct tessera_mpi_dispatch_t {"]
    for f in api.functions:
        o.append(f"    {f.ret} (*{slot(f)})({f.params()});")
    o += ["} tessera_mpi_dispatch_t;", "",
          "/* The table every binding calls through. */",
          "extern tessera_mpi_dispatch_t tessera_mpi_dispatch;", "",
          "/* Non-zero once the table is filled; read with acquire ordering by every binding. */",
          "extern int tessera_mpi_dispatch_ready;", "",
          "/* Defined by the library: fills the table (once, whichever thread comes first) and then sets",
          " * tessera_mpi_dispatch_ready. Called by the first MPI call of the process. */",
          "void tessera_mpi_bootstrap(void);", "",
          "/* What an error is raised on (the errh= of the API description). */",
          "typedef enum tessera_mpi_object_kind {"]
    o += [f"    TESSERA_MPI_OBJ_{k}," for k in OBJECT_KINDS]
    o += ["} tessera_mpi_object_kind_t;", "",
          "/* Defined by the library: raises `code` on the error handler of `object` (a handle of the given",
          " * kind), saying that `function` failed because of `detail`; returns what the handler lets the",
          " * call return. TESSERA_MPI_OBJ_NONE invokes no handler and returns `code`. */",
          "int tessera_mpi_raise(int kind, const void *object, int code, const char *function, const char *detail);", "",
          "/* Defined by the library: reports that the engine lacks `name` and returns",
          " * MPI_ERR_UNSUPPORTED_OPERATION (through the error handler of the call's object). */",
          "int tessera_mpi_unsupported(const char *name, int kind, const void *object);", "",
          "/* Defined by the library: whether `handle` names a live object of the kind (predefined or",
          " * created); null handles are not valid. */",
          "int tessera_mpi_handle_valid(int kind, const void *handle);", "",
          "/* The slots by name, in the table's order, for coverage reports. */",
          "typedef struct tessera_mpi_slot_t {",
          "    const char *name;",
          "    size_t offset;",
          "} tessera_mpi_slot_t;",
          f"extern const tessera_mpi_slot_t tessera_mpi_slots[TESSERA_MPI_FUNCTION_COUNT];", "",
          "/* Whether slot i (an index into tessera_mpi_slots) of table t is filled. */",
          "int tessera_mpi_slot_filled(const tessera_mpi_dispatch_t *t, size_t i);", "",
          "#if defined(__cplusplus)", "}", "#endif", "", f"#endif /* {HEADER_GUARD} */", ""]
    return "\n".join(o)


def call_args(f: mpi_api.Function) -> str:
    # MPI_Pcontrol's variadic part has no portable forwarding; the level is what engines use.
    return ", ".join(a.name for a in f.args if not a.is_varargs)


def c_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gen_source(api: mpi_api.Api) -> str:
    o = ["/* mpi_bindings.c: the MPI bindings. Generated by ompi/api/gen_bindings.py from",
         " * ompi/api/mpi_api.txt; do not edit. */",
         '#include "tessera_mpi_dispatch.h"', "", "#include <string.h>", "",
         "tessera_mpi_dispatch_t tessera_mpi_dispatch;",
         "int tessera_mpi_dispatch_ready;", "",
         "const tessera_mpi_slot_t tessera_mpi_slots[TESSERA_MPI_FUNCTION_COUNT] = {"]
    for f in api.functions:
        o.append(f'    {{"{f.name}", offsetof(tessera_mpi_dispatch_t, {slot(f)})}},')
    o += ["};", "",
          "int tessera_mpi_slot_filled(const tessera_mpi_dispatch_t *t, size_t i)",
          "{",
          "    static const unsigned char empty[sizeof(void (*)(void))];",
          "    if (i >= TESSERA_MPI_FUNCTION_COUNT)",
          "        return 0;",
          "    return memcmp((const unsigned char *)t + tessera_mpi_slots[i].offset, empty, sizeof empty) != 0;",
          "}", ""]
    for f in api.functions:
        kind, obj = error_object(f)
        o.append(f"{f.prototype(f.pname)}")
        o.append("{")
        o.append("    if (TESSERA_MPI_UNLIKELY(!__atomic_load_n(&tessera_mpi_dispatch_ready, __ATOMIC_ACQUIRE)))")
        o.append("        tessera_mpi_bootstrap();")
        o.append(f"    if (tessera_mpi_dispatch.{slot(f)} == NULL) {{")
        o += ["        " + line for line in fallback(api, f)]
        o.append("    }")
        for cond, code, what in checks(f):
            o.append(f"    if (TESSERA_MPI_UNLIKELY({cond}))")
            o.append(f"        return tessera_mpi_raise(TESSERA_MPI_OBJ_{kind}, {obj}, {code}, "
                     f"{c_string(f.name)}, {c_string(what)});")
        o.append(f"    return tessera_mpi_dispatch.{slot(f)}({call_args(f)});")
        o.append("}")
        o.append(f'extern __typeof__({f.pname}) {f.name} __attribute__((weak, alias("{f.pname}")));')
        o.append("")
    return "\n".join(o)


def write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)


def main(argv=None) -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--api", default=here / "mpi_api.txt", type=Path)
    ap.add_argument("--constants", default=here / "constants.tsv", type=Path)
    ap.add_argument("--outdir", required=True, type=Path)
    args = ap.parse_args(argv)
    try:
        api = mpi_api.load(args.api, args.constants)
        header, source = gen_header(api), gen_source(api)
    except mpi_api.ApiError as e:
        print(f"gen_bindings: {e}", file=sys.stderr)
        return 1
    write_atomically(args.outdir / "tessera_mpi_dispatch.h", header)
    write_atomically(args.outdir / "mpi_bindings.c", source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
