#!/usr/bin/env python3
"""Generates the native engine's glue from mpi_api.txt.

Outputs (into --outdir):
  ompi/runtime/native_api.h   the prototype of every MPI function as the native engine names it
                              (MPI_Comm_rank -> tessera::ompi::native::comm_rank), with the ABI's types:
                              an implementation file includes it, so that a definition that strays from
                              the standard's prototype is a new overload the dispatch table never sees.
  ompi/runtime/native_glue.cpp
                              native_fill(): the dispatch table of the native engine. Every slot takes the
                              function the engine defines; which ones exist is known from the link, not
                              from a list: the glue declares every function weak, so an undefined one is
                              a null address. A slot no file defines is filled, where the description
                              makes it mechanical, by a generated form of another function:
                                - an int-count form (MPI_Send) from its MPI_Count form (MPI_Send_c, the
                                  large= twin): scalar counts widen on the way in, integer outputs narrow on
                                  the way out (a count that does not fit gives its special=UNDEFINED, else
                                  MPI_ERR_VALUE_TOO_LARGE), int input arrays are widened into copies of
                                  their significant entries (len=, sig=: a gatherv's recvcounts at the
                                  root only; ompi/runtime/int_forms.h). The MPI_Count
                                  form names itself in its errors; the int-count form leaves its own
                                  name in tessera_mpi_int_form, by which the error handler names the
                                  function the application called;
                                - an MPI_<T>_x query from its MPI_<T>_c form of the same prototype;
                                - a persistent collective (MPI_Bcast_init) from its nonblocking form
                                  (MPI_Ibcast): the request reruns that form at each MPI_Start.
                              A function written by hand always wins over a generated form.
  ompi/runtime/native_generated.h
                              the generated forms' declarations, for code that calls one directly.
Python 3 standard library only.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import mpi_api  # noqa: E402
from gen_bindings import error_object, slot  # noqa: E402
from gen_common import outdir_main  # noqa: E402

INTEGER_SCALARS = {"int", "MPI_Aint", "MPI_Count"}


def native_name(f: mpi_api.Function) -> str:
    return f.name[4:].lower()


LENGTHS = {"@group": "group_length", "@size": "local_size", "@indegree": "indegree", "@outdegree": "outdegree"}


def array_length(f: mpi_api.Function, a: mpi_api.Arg, facts: dict) -> str | None:
    """The C expression of how many entries of array a are significant on this process, -1 where none
    are (sig=), or None when the description does not make it mechanical. facts collects the
    declarations the expression uses (name -> declaration), one a fact however many arrays use it."""
    fn, _, ref = a.attrs.get("len", "").partition(":")
    if fn in LENGTHS:
        n = LENGTHS[fn].replace("_length", "")
        facts[n] = f"    const int {n} = int_forms::{LENGTHS[fn]}({ref});"
    else:
        arg = f.arg(fn)
        if arg is None or arg.is_array or arg.is_pointer or arg.base_type not in INTEGER_SCALARS:
            return None
        n = fn
    conds = []
    for cond in a.list_attr("sig"):
        what, _, arg = cond.partition(":")
        comm = next((c.name for c in f.args if c.kind == "handle:comm"), None)
        if what == "root" and comm is not None:
            facts["at_root"] = f"    const bool at_root = int_forms::at_root({comm}, {arg});"
            conds.append("at_root")
        elif what == "not_in_place":
            facts["not_in_place"] = f"    const bool not_in_place = {arg} != MPI_IN_PLACE;"
            conds.append("not_in_place")
        else:
            return None
    return f"{' && '.join(conds)} ? {n} : -1" if conds else n


def int_form(f: mpi_api.Function, large: mpi_api.Function) -> list[str] | None:
    """The body of int-count form f as a call of its MPI_Count form, or None when the two differ in more
    than integers (callbacks, extra arguments): those are written by hand. Integer input arrays are
    widened into copies of their significant entries (len=, sig=)."""
    if len(f.args) != len(large.args) or f.ret != large.ret or f.ret_kind != "error":
        return None
    pre, args, post, facts, arrays = [], [], [], {}, []
    for a, b in zip(f.args, large.args):
        if a.name != b.name or a.direction != b.direction:
            return None
        if a.ctype == b.ctype:
            args.append(a.name)
            continue
        if a.base_type not in INTEGER_SCALARS or b.base_type not in INTEGER_SCALARS:
            return None
        if a.is_array or b.is_array:
            n = array_length(f, a, facts) if a.is_array and b.is_array and a.direction == "in" else None
            if n is None:
                return None
            arrays.append(f"    const int_forms::Widened<{b.base_type}> {a.name}_large({a.name}, {n});")
            args.append(f"{a.name}_large.data()")
            continue
        if not a.is_pointer and not b.is_pointer and a.direction == "in":
            args.append(a.name)  # widens
            continue
        if not (a.is_pointer and b.is_pointer) or a.direction not in ("out", "inout"):
            return None
        wide = f"{a.name}_large"
        pre.append(f"    {b.base_type} {wide} = {'*' + a.name if a.direction == 'inout' else '0'};")
        args.append(f"&{wide}")
        if "UNDEFINED" in a.list_attr("special"):
            post.append(f"    *{a.name} = fits<{a.base_type}>({wide}) ? static_cast<{a.base_type}>({wide}) "
                        f": MPI_UNDEFINED;")
        else:
            kind, obj = error_object(f)
            post += [f"    if (!fits<{a.base_type}>({wide})) {{",
                     f"        return tessera_mpi_raise(TESSERA_MPI_OBJ_{kind}, {obj}, MPI_ERR_VALUE_TOO_LARGE, "
                     f"\"{f.name}\",",
                     f"                                 \"the value of '{a.name}' does not fit its type: use "
                     f"{large.name}\");",
                     "    }",
                     f"    *{a.name} = static_cast<{a.base_type}>({wide});"]
    call = f"native::{native_name(large)}({', '.join(args)})"
    pre = list(facts.values()) + arrays + pre
    if arrays:
        # The MPI_Count form raises its errors, and a datatype constructor records its counts, as the
        # int form's while the scope lasts (errhandler.cpp, int_forms.h).
        body = [f"    const int_forms::Scope scope(\"{f.name}\");"]
    else:
        # The MPI_Count form raises its errors under its own name; while it runs for the int form, the
        # error handler names the function the application called (errhandler.cpp). No scope: the
        # call stays a tail call.
        body = [f"    tessera_mpi_int_form = \"{f.name}\";"]
    if not post:
        return body + pre + [f"    return {call};"]
    return body + pre + [f"    if (const int rc = {call}; rc != MPI_SUCCESS) {{", "        return rc;", "    }"] + \
        post + ["    return MPI_SUCCESS;"]


def same_prototype(f: mpi_api.Function, g: mpi_api.Function) -> bool:
    return f.ret == g.ret and [a.ctype for a in f.args] == [a.ctype for a in g.args]


def nonblocking_of(api: mpi_api.Api, f: mpi_api.Function) -> mpi_api.Function | None:
    """MPI_Ibcast(_c) for MPI_Bcast_init(_c): the same arguments but the info before the request."""
    if f.attrs.get("cat") != "pcoll":
        return None
    base = f.name[4:]
    suffix = "_c" if base.endswith("_init_c") else ""
    stem = base[: -len("_init" + suffix)]
    g = api.function(f"MPI_I{stem[0].lower()}{stem[1:]}{suffix}")
    if g is None:
        return None
    names = [a.name for a in f.args]
    if names[-2:] != ["info", "request"] or names[:-2] + ["request"] != [a.name for a in g.args] \
            or not any(a.name == "comm" for a in f.args):
        return None
    return g


def gen_header(api: mpi_api.Api) -> str:
    o = ["/* native_api.h: the MPI functions of the native engine, with the prototypes of the ABI (mpi.h).",
         " * Generated by ompi/api/gen_native.py from ompi/api/mpi_api.txt; do not edit.",
         " *",
         " * A file that implements MPI_x defines tessera::ompi::native::x with this prototype; the generated",
         " * dispatch fill (native_glue.cpp) finds it. The generated bindings have already bootstrapped the table",
         " * and checked what the argument kinds allow, so an implementation checks only what needs the",
         " * library's state. */",
         "#ifndef TESSERA_OMPI_RUNTIME_NATIVE_API_H", "#define TESSERA_OMPI_RUNTIME_NATIVE_API_H", "",
         "#include <mpi.h>", "", "namespace tessera::ompi::native {", ""]
    o += [f"{f.prototype(native_name(f))};" for f in api.functions]
    o += ["", "} // namespace tessera::ompi::native", "", "#endif", ""]
    return "\n".join(o)


def generated_forms(api: mpi_api.Api):
    """The forms generated from others: ({int form: (its MPI_Count form, body)}, {_x query: its _c
    form}, {persistent collective: its nonblocking form})."""
    by_name = {f.name: f for f in api.functions}
    large_of = {f.attrs["large"]: f for f in api.functions if "large" in f.attrs}
    ints, xs, persistents = {}, {}, {}
    for f in api.functions:
        g = nonblocking_of(api, f)
        if g is not None:
            # Before the int-count form: the int-count persistent request reruns the int-count
            # nonblocking form, which widens its arrays again at each start.
            persistents[f.name] = g
            continue
        large = large_of.get(f.name)
        if large is not None:
            body = int_form(f, large)
            if body is not None:
                ints[f.name] = (large, body)
        if f.name.endswith("_x"):
            c = by_name.get(f.name[:-2] + "_c")
            if c is not None and same_prototype(f, c):
                xs[f.name] = c
    return ints, xs, persistents


def gen_generated_header(api: mpi_api.Api) -> str:
    ints, _, persistents = generated_forms(api)
    by_name = {f.name: f for f in api.functions}
    o = ["/* native_generated.h: the forms native_glue.cpp generates from others (int-count forms, persistent",
         " * collectives), for code that calls one directly instead of through MPI (the unit tests): a form is",
         " * only valid where the function it calls is implemented. Generated by ompi/api/gen_native.py from",
         " * ompi/api/mpi_api.txt; do not edit. */",
         "#ifndef TESSERA_OMPI_RUNTIME_NATIVE_GENERATED_H", "#define TESSERA_OMPI_RUNTIME_NATIVE_GENERATED_H", "",
         "#include <mpi.h>", "", "namespace tessera::ompi::native_generated {", ""]
    o += [f"{by_name[n].prototype(native_name(by_name[n]))};" for n in list(ints) + list(persistents)]
    o += ["", "} // namespace tessera::ompi::native_generated", "", "#endif", ""]
    return "\n".join(o)


def gen_glue(api: mpi_api.Api) -> str:
    by_name = {f.name: f for f in api.functions}
    ints, xs, persistents = generated_forms(api)
    o = ["/* native_glue.cpp: the native engine's dispatch fill and the forms generated from others.",
         " * Generated by ompi/api/gen_native.py from ompi/api/mpi_api.txt; do not edit. */",
         '#include "ompi/runtime/native_dispatch.h"', "",
         "#include <limits>", "",
         '#include "ompi/coll/coll_persistent.h"',
         '#include "ompi/runtime/int_forms.h"', "",
         "/* Weak: a function no file defines is a null address, and its slot stays empty or generated. */",
         "namespace tessera::ompi::native {", ""]
    o += [f"[[gnu::weak]] {f.prototype(native_name(f))};" for f in api.functions]
    o += ["", "} // namespace tessera::ompi::native", "",
          "namespace tessera::ompi::native_generated {", "", "namespace {", "",
          "/* The bare table the persistent forms call their nonblocking forms through (hand-written or",
          " * generated alike). */",
          "tessera_mpi_dispatch_t filled;", "",
          "template <typename Narrow>",
          "bool fits(MPI_Count v)",
          "{",
          "    return v >= std::numeric_limits<Narrow>::min() && v <= std::numeric_limits<Narrow>::max();",
          "}", "",
          "} // namespace", ""]
    for name, (large, body) in ints.items():
        f = by_name[name]
        o += [f"{f.prototype(native_name(f))}", "{"] + body + ["}", ""]
    for name, g in persistents.items():
        f = by_name[name]
        o += [f"{f.prototype(native_name(f))}", "{",
              f"    return coll::persistent(\"{f.name}\", comm, info, request, [=](MPI_Request *started) {{",
              f"        return filled.{slot(g)}({', '.join(a.name for a in g.args[:-1])}, started);",
              "    });", "}", ""]
    o += ["} // namespace tessera::ompi::native_generated", "",
          "namespace tessera::ompi {", "",
          "void native_fill(tessera_mpi_dispatch_t *t)",
          "{",
          "    namespace generated = native_generated;",
          "    tessera_mpi_dispatch_t f{};",
          "    /* What the engine defines. */"]
    for f in api.functions:
        o.append(f"    f.{slot(f)} = native::{native_name(f)};")
    o.append("    /* Int-count forms and _x queries of the MPI_Count forms it defines. */")
    for name, (large, _) in ints.items():
        f = by_name[name]
        o.append(f"    if (f.{slot(f)} == nullptr && native::{native_name(large)} != nullptr)")
        o.append(f"        f.{slot(f)} = generated::{native_name(f)};")
    for name, c in xs.items():
        f = by_name[name]
        o.append(f"    if (f.{slot(f)} == nullptr)")
        o.append(f"        f.{slot(f)} = native::{native_name(c)};")
    o.append("    /* Persistent collectives of the nonblocking ones it has now. */")
    for name, g in persistents.items():
        f = by_name[name]
        o.append(f"    if (f.{slot(f)} == nullptr && f.{slot(g)} != nullptr)")
        o.append(f"        f.{slot(f)} = generated::{native_name(f)};")
    # A second fill writes the same values over the table the persistent forms read: never a hole.
    o += ["    generated::filled = f;", "    *t = f;", "}", "", "} // namespace tessera::ompi", ""]
    return "\n".join(o)


def main(argv=None) -> int:
    return outdir_main(argv, __doc__, lambda api: {
        Path("ompi/runtime/native_api.h"): gen_header(api),
        Path("ompi/runtime/native_glue.cpp"): gen_glue(api),
        Path("ompi/runtime/native_generated.h"): gen_generated_header(api)})


if __name__ == "__main__":
    sys.exit(main())
