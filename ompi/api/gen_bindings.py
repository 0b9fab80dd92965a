#!/usr/bin/env python3
"""Generates the MPI bindings and the dispatch table from mpi_api.txt.

Outputs (into --outdir):
  tessera_mpi_dispatch.h  tessera_mpi_dispatch_t: one function pointer per MPI function, filled by the
                          selected translator (native engine, Open MPI, MPICH); the tables (dispatch,
                          direct, fallbacks); the layout id (TESSERA_MPI_LAYOUT); the slot list used by
                          `tessera_info --coverage`; the entry points of the library that the generated
                          code calls (bootstrap, error raising, handle validity).
  mpi_bindings.c          for every function, PMPI_x calls through the table, and MPI_x is a weak alias
                          of PMPI_x (the profiling interface: a tool's own MPI_x wins at link time); the
                          fallback of each function (what an entry no translator filled does).
  mpi_checked.c           the native engine's argument checks: for every function with checks, a
                          wrapper that checks and calls the native implementation (and for every
                          MPI_Count form with an int-count twin, one that clears the name the twin's
                          generated form leaves in tessera_mpi_int_form, gen_native.py);
                          tessera_mpi_install_checked() puts them (or the bare implementation) into a
                          table. The native translator installs them; a runtime translator does not, so
                          that its calls are never checked against native objects.

What each PMPI_x does: one jump through the table, so that a call costs the binding one load and one
indirect jump, behind one predictable branch: while a trace module is active the call goes
to its traced variant instead (the table tessera_mpi_traced of mpi_trace.c, gen_trace.py), which
reports the call to the trace framework around the same jump. MPI_Init and MPI_Init_thread always take it: tracing
starts when they return.
  - bootstrap: the table starts out holding, in every entry, a boot entry that runs
    tessera_mpi_bootstrap() (the first MPI call of the process fills the table, once) and then calls
    the entry again; the bootstrap publishes each filled entry with one atomic store, so another thread
    sees either the boot entry (and waits for the bootstrap) or the final one;
  - re-entrancy (a runtime calling MPI from inside itself, frameworks/translator/base/reentry.h) is the
    runtime translator's business: its thunks test the depth and pass such a call untouched to the
    runtime's own function (tessera_mpi_direct); the native engine never sets the depth.
Every entry of the table is callable: the bootstrap presets each with its fallback, which answers through
tessera_mpi_unsupported("MPI_x", object kind, object): the library raises MPI_ERR_UNSUPPORTED_OPERATION
on the error handler of the object named by errh=, naming the function and the runtime; functions
without an error return give their neutral value, MPI_T functions (which never call error handlers)
return MPI_T_ERR_NOT_SUPPORTED.
Python 3 standard library only.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import mpi_api  # noqa: E402
from gen_common import null_handle, outdir_main  # noqa: E402
from gen_trace import after_prototype, hooks_after, hooks_before, hooks_needed  # noqa: E402

HEADER_GUARD = "TESSERA_MPI_DISPATCH_H_INCLUDED"


def layout_id(api: mpi_api.Api) -> str:
    """The table layout: what a translator component was built for must equal what the library has.
    Derived from the order and the prototypes of the functions, the only things the layout depends on."""
    h = hashlib.sha256()
    for f in api.functions:
        h.update(f"{f.prototype()};\n".encode())
    return f"tessera-mpi-abi-table/{len(api.functions)}/{h.hexdigest()[:16]}"


def slot(f: mpi_api.Function) -> str:
    """The table member for MPI_x is x: short, and no clash with the MPI_x macros of tools."""
    return f.name[4:]


# The object kinds an error can be raised on; the library (ompi/errhandler) resolves the object to its
# error handler. Kept in step with tessera::ompi::ObjectKind.
# GROUP is never raised on: it is the kind of the group handle checks.
OBJECT_KINDS = ["NONE", "COMM", "WIN", "FILE", "SESSION", "REQUEST", "MESSAGE", "ERRHANDLER", "GROUP"]
KIND_OF_CLASS = {"comm": "COMM", "win": "WIN", "file": "FILE", "session": "SESSION", "request": "REQUEST",
                 "message": "MESSAGE", "errhandler": "ERRHANDLER", "group": "GROUP"}


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


def fallback(api: mpi_api.Api, f: mpi_api.Function, direct: bool = False) -> list[str]:
    """What a function nobody provides does: report it, and return what its return kind allows. A direct
    call (from inside the runtime) has runtime-side arguments: no object of ours to raise on."""
    kind, obj = ("NONE", "NULL") if direct else error_object(f)
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
#   count, in by value            not negative (MPI_ERR_COUNT), unless `conditional`: significant in some
#                                 calls only (at the root, or without MPI_IN_PLACE), left to the library
#   tag, in by value              not negative unless one of its special= values (MPI_ERR_TAG)
#   handle by pointer, in/inout   not NULL (MPI_ERR_ARG): MPI_Wait, MPI_Comm_free, MPI_Type_commit...
#   outputs                       not NULL (MPI_ERR_ARG): scalars and handles by pointer, strings of a
#                                 fixed size (max=), addr_out. A string sized by an argument (maxlen=)
#                                 may be NULL when that size is 0.
# Not yet: ranks against the communicator's size, buffers against counts, committed datatypes (they
# need the objects of issues 5-6). Functions without an error return (errh=none) check nothing.
CHECKED_HANDLE_CLASSES = {"comm": ("MPI_ERR_COMM", "communicator"),
                          "errhandler": ("MPI_ERR_ERRHANDLER", "error handler"),
                          "group": ("MPI_ERR_GROUP", "group")}
# Arguments that the standard lets be a null handle although their kind alone does not say so.
# (Better said in mpi_api.txt one day, e.g. as special=COMM_NULL.)
NULL_HANDLE_ALLOWED = {("MPI_Intercomm_create", "peer_comm"),  # significant only at the leader
                       ("MPI_Comm_get_name", "comm")}  # MPI-4.1 7.8: its name is "MPI_COMM_NULL"
# Handles whose null value is an argument error (MPI_ERR_ARG, as in Open MPI and MPICH) rather than an
# invalid object: setting MPI_ERRHANDLER_NULL as an object's handler.
NULL_HANDLE_IS_ARG_ERROR = {(f"MPI_{o}_set_errhandler", "errhandler"): "MPI_ERRHANDLER_NULL"
                            for o in ("Comm", "File", "Session", "Win")}
# The communicator that MPI_Comm_idup(_with_info) returns before its request completes: as Open MPI and
# MPICH do, its error handler, name and attributes may be set (and read) already (docs/communicators.md).
PENDING_COMM_ALLOWED = {(f, "comm") for f in ("MPI_Comm_set_errhandler", "MPI_Comm_get_errhandler",
                                              "MPI_Comm_set_name", "MPI_Comm_get_name", "MPI_Comm_set_attr",
                                              "MPI_Comm_get_attr", "MPI_Comm_delete_attr", "MPI_Attr_put",
                                              "MPI_Attr_get", "MPI_Attr_delete")}
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
            if (null := NULL_HANDLE_IS_ARG_ERROR.get((f.name, a.name))):
                handles.append((f"{a.name} == {null}", "MPI_ERR_ARG", f"argument '{a.name}' is {null}"))
            if (f.name, a.name) in PENDING_COMM_ALLOWED:
                valid = f"tessera_mpi_comm_settable((const void *){a.name})"
            else:
                valid = f"tessera_mpi_handle_valid(TESSERA_MPI_OBJ_{KIND_OF_CLASS[kp]}, (const void *){a.name})"
            handles.append((f"!{valid}", code, f"invalid {noun} in argument '{a.name}'"))
        elif by_value and kb == "count" and not a.attrs.get("special") and "conditional" not in a.flags:
            out.append((f"{a.name} < 0", "MPI_ERR_COUNT", f"negative count in argument '{a.name}'"))
        elif by_value and kb == "tag":
            specials = [f" && {a.name} != MPI_{s}" for s in a.list_attr("special")]
            out.append((f"{a.name} < 0{''.join(specials)}", "MPI_ERR_TAG", f"negative tag in argument '{a.name}'"))
        elif a.direction in ("in", "inout") and a.is_pointer and kb == "handle":
            # MPI_Wait(NULL), MPI_Comm_free(NULL)...: no handle to read or to write back.
            out.append((f"{a.name} == NULL", "MPI_ERR_ARG", f"argument '{a.name}' is NULL"))
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
         "/* The per-thread \"inside the runtime\" depth the bindings read (docs/translator.md). */",
         '#include "frameworks/trace/base/hook_mask.h"',
         '#include "frameworks/translator/base/reentry.h"', "",
         "#if defined(__cplusplus)", 'extern "C" {', "#endif", "",
         f"#define TESSERA_MPI_FUNCTION_COUNT {len(api.functions)}", "",
         "/* The layout of tessera_mpi_dispatch_t; a translator built for another one refuses to fill it. */",
         f'#define TESSERA_MPI_LAYOUT "{layout_id(api)}"', "",
         "#define TESSERA_MPI_UNLIKELY(x) __builtin_expect(!!(x), 0)", "",
         "/* One entry per MPI function, in the API description's order. */",
         "typedef struct tessera_mpi_dispatch_t {"]
    for f in api.functions:
        o.append(f"    {f.ret} (*{slot(f)})({f.params()});")
    o += ["} tessera_mpi_dispatch_t;", "",
          "/* The table every binding calls through: application-side arguments. Preset with the fallbacks by the",
          " * bootstrap, then filled by the selected translator. */",
          "extern tessera_mpi_dispatch_t tessera_mpi_dispatch;", "",
          "/* The runtime's own functions, for calls made from inside the runtime (arguments untouched);",
          " * filled by a runtime translator, all NULL under the native engine. */",
          "extern tessera_mpi_dispatch_t tessera_mpi_direct;", "",
          "/* Each function's fallback: raises MPI_ERR_UNSUPPORTED_OPERATION through tessera_mpi_unsupported. */",
          "extern const tessera_mpi_dispatch_t tessera_mpi_unsupported_fallbacks;", "",
          "/* Each function's traced variant (mpi_trace.c, gen_trace.py): it reports the call to the trace",
          " * framework around the call through tessera_mpi_dispatch. A binding takes it while",
          " * an active trace module has a hook the call feeds (mca_trace_base_hook_mask, gen_trace.hooks_needed);",
          " * MPI_Init and MPI_Init_thread always do (tracing starts when they return). */",
          "extern const tessera_mpi_dispatch_t tessera_mpi_traced;",
          "/* For a call whose only hooks a module may want are fed after it (gen_trace.hooks_after): what the",
          " * traced variant reports then, called by the binding after the table's entry returned rc_. */"]
    o += [f'__attribute__((visibility("hidden"))) {after_prototype(f)};' for f in api.functions if hooks_after(f)]
    o += ["",
          "/* Non-zero once the table is filled. */",
          "extern int tessera_mpi_dispatch_ready;", "",
          "/* The table's initial content: every entry bootstraps, then calls the filled entry. */",
          "extern const tessera_mpi_dispatch_t tessera_mpi_boot_entries;", "",
          "/* Defined by the library: fills the table (once, whichever thread comes first; each entry published",
          " * with an atomic store) and then sets tessera_mpi_dispatch_ready. Called by the boot entries. */",
          "void tessera_mpi_bootstrap(void);", "",
          "/* What an error is raised on (the errh= of the API description). */",
          "typedef enum tessera_mpi_object_kind {"]
    o += [f"    TESSERA_MPI_OBJ_{k}," for k in OBJECT_KINDS]
    o += ["} tessera_mpi_object_kind_t;", "",
          "/* Defined by the library: raises `code` on the error handler of `object` (a handle of the given",
          " * kind), saying that `function` failed because of `detail`; returns what the handler lets the",
          " * call return. TESSERA_MPI_OBJ_NONE invokes no handler and returns `code`. Under a runtime translator",
          " * the runtime's handler of a communicator is called (the ABI functions every translator shares). */",
          "int tessera_mpi_raise(int kind, const void *object, int code, const char *function, const char *detail);", "",
          "/* The int-count function (\"MPI_Send\") the application called while the native engine runs it as its",
          " * MPI_Count form (ompi/api/gen_native.py), so that an error names the function called; NULL once an",
          " * MPI_Count form is called itself (mpi_checked.c). Native engine only. */",
          "extern __thread const char *tessera_mpi_int_form __attribute__((tls_model(\"initial-exec\")));", "",
          "/* Defined by the library: reports that the selected runtime lacks `name` and returns",
          " * MPI_ERR_UNSUPPORTED_OPERATION (through the error handler of the call's object). */",
          "int tessera_mpi_unsupported(const char *name, int kind, const void *object);", "",
          "/* Defined by the library: whether `handle` names a live native object of the kind (predefined",
          " * or created); null handles are not valid. Used by the checked wrappers only. */",
          "int tessera_mpi_handle_valid(int kind, const void *handle);", "",
          "/* Defined by the library: tessera_mpi_handle_valid for a communicator, or the communicator an",
          " * MPI_Comm_idup has not completed yet (PENDING_COMM_ALLOWED). */",
          "int tessera_mpi_comm_settable(const void *handle);", "",
          "/* mpi_checked.c: sets every entry of `table` that `native` provides, to the checked wrapper when",
          " * the function has argument checks, else to the implementation itself. The wrappers call the",
          " * implementations recorded by the first install. Leaves the other entries as they are. */",
          "void tessera_mpi_install_checked(tessera_mpi_dispatch_t *table, const tessera_mpi_dispatch_t *native);", "",
          "/* How many functions have argument checks (a wrapper in mpi_checked.c). */",
          f"#define TESSERA_MPI_CHECKED_COUNT {sum(1 for f in api.functions if checks(f))}", "",
          "/* The slots by name, in the table's order, for coverage reports. */",
          "typedef struct tessera_mpi_slot_t {",
          "    const char *name;",
          "    const char *category; /* cat= of the API description: \"coll\", \"p2p\", ... */",
          "    size_t offset;",
          "} tessera_mpi_slot_t;",
          f"extern const tessera_mpi_slot_t tessera_mpi_slots[TESSERA_MPI_FUNCTION_COUNT];", "",
          "/* Whether slot i (an index into tessera_mpi_slots) of table t is filled: neither NULL nor the fallback. */",
          "int tessera_mpi_slot_filled(const tessera_mpi_dispatch_t *t, size_t i);", "",
          "#if defined(__cplusplus)", "}", "#endif", "", f"#endif /* {HEADER_GUARD} */", ""]
    return "\n".join(o)


def call_args(f: mpi_api.Function) -> str:
    # MPI_Pcontrol's variadic part has no portable forwarding; the level is what engines use.
    return ", ".join(a.name for a in f.args if not a.is_varargs)


def c_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def unused_args(f: mpi_api.Function) -> list[str]:
    """Casts to void for the arguments a fallback does not read (-Wunused-parameter)."""
    return [f"(void){a.name};" for a in f.args if not a.is_varargs]


def gen_source(api: mpi_api.Api) -> str:
    o = ["/* mpi_bindings.c: the MPI bindings. Generated by ompi/api/gen_bindings.py from",
         " * ompi/api/mpi_api.txt; do not edit. */",
         '#include "tessera_mpi_dispatch.h"', "", "#include <string.h>", "",

         "tessera_mpi_dispatch_t tessera_mpi_direct;",
         "int tessera_mpi_dispatch_ready;", "",
         "const tessera_mpi_slot_t tessera_mpi_slots[TESSERA_MPI_FUNCTION_COUNT] = {"]
    for f in api.functions:
        o.append(f'    {{"{f.name}", "{f.attrs.get("cat", "")}", offsetof(tessera_mpi_dispatch_t, {slot(f)})}},')
    o += ["};", "",
          "int tessera_mpi_slot_filled(const tessera_mpi_dispatch_t *t, size_t i)",
          "{",
          "    static const unsigned char empty[sizeof(void (*)(void))];",
          "    const unsigned char *entry, *fallback;",
          "    if (i >= TESSERA_MPI_FUNCTION_COUNT)",
          "        return 0;",
          "    entry = (const unsigned char *)t + tessera_mpi_slots[i].offset;",
          "    fallback = (const unsigned char *)&tessera_mpi_unsupported_fallbacks + tessera_mpi_slots[i].offset;",
          "    return memcmp(entry, empty, sizeof empty) != 0 && memcmp(entry, fallback, sizeof empty) != 0;",
          "}", "",
          "/* The fallbacks: what a function does when the selected translator does not provide it. */"]
    for f in api.functions:
        o.append(f"static {f.prototype('fallback_' + slot(f))}")
        o.append("{")
        o += ["    " + line for line in unused_args(f)]
        # Called by the runtime itself (a function its translator does not provide): the arguments are
        # the runtime's, so there is no object of ours to raise on.
        o.append("    if (TESSERA_MPI_UNLIKELY(tessera_translator_inside())) {")
        o += ["        " + line for line in fallback(api, f, direct=True)]
        o.append("    }")
        o += ["    " + line for line in fallback(api, f)]
        o.append("}")
    o += ["", "const tessera_mpi_dispatch_t tessera_mpi_unsupported_fallbacks = {"]
    o += [f"    fallback_{slot(f)}," for f in api.functions]
    o += ["};", "",
          "/* The boot entries: the table's first content. Each fills the table (once per process) and calls",
          " * the entry it replaced. */"]
    for f in api.functions:
        o.append(f"static {f.prototype('boot_' + slot(f))}")
        o.append("{")
        o.append("    tessera_mpi_bootstrap();")
        ret = "" if f.ret == "void" else "return "
        o.append(f"    {ret}__atomic_load_n(&tessera_mpi_dispatch.{slot(f)}, __ATOMIC_ACQUIRE)({call_args(f)});")
        o.append("}")
    o += ["", "tessera_mpi_dispatch_t tessera_mpi_dispatch = {"]
    o += [f"    boot_{slot(f)}," for f in api.functions]
    o += ["};", "",
          "const tessera_mpi_dispatch_t tessera_mpi_boot_entries = {"]
    o += [f"    boot_{slot(f)}," for f in api.functions]
    o += ["};", ""]
    for f in api.functions:
        ret = "" if f.ret == "void" else "return "
        traced = f"tessera_mpi_traced.{slot(f)}"
        o.append(f"{f.prototype(f.pname)}")
        o.append("{")
        if f.attrs.get("trace") == "init":
            # Tracing starts when MPI_Init returns, so MPI_Init always takes the traced path.
            o.append(f"    {ret}{traced}({call_args(f)});")
            o.append("}")
        elif hooks_after(f):
            # Only hooks fed after the call: the table's entry straight, then what the traced variant
            # would report after it (gen_trace.hooks_after).
            o.append("    const uint32_t hooks_ = __atomic_load_n(&mca_trace_base_hook_mask, __ATOMIC_RELAXED);")
            o.append(f"    if (TESSERA_MPI_UNLIKELY(hooks_ & ({hooks_before(f)})))")
            o.append(f"        return {traced}({call_args(f)});")
            o.append(f"    const int rc_ = __atomic_load_n(&tessera_mpi_dispatch.{slot(f)}, __ATOMIC_RELAXED)({call_args(f)});")
            o.append(f"    if (TESSERA_MPI_UNLIKELY(hooks_ & ({hooks_after(f)})))")
            o.append(f"        tessera_mpi_traced_after_{slot(f)}({call_args(f)}, rc_);")
            o.append("    return rc_;")
            o.append("}")
        else:
            traced_call = f"{traced}({call_args(f)})"
            o.append(f"    if (TESSERA_MPI_UNLIKELY(__atomic_load_n(&mca_trace_base_hook_mask, __ATOMIC_RELAXED) & "
                     f"({hooks_needed(f)})))")
            o.append(f"        return {traced_call};" if ret else f"        {{ {traced_call}; return; }}")
            o.append(f"    {ret}__atomic_load_n(&tessera_mpi_dispatch.{slot(f)}, __ATOMIC_RELAXED)({call_args(f)});")
            o.append("}")
        o.append(f'extern __typeof__({f.pname}) {f.name} __attribute__((weak, alias("{f.pname}")));')
        o.append("")
    return "\n".join(o)


def new_handles(f: mpi_api.Function) -> list:
    """The handles a call hands out (a new communicator, datatype, request...): set to their null handle
    before the call, so that a call that fails leaves MPI_COMM_NULL and the like rather than whatever
    the variable held (as MPICH does; an application may test for it). Inout handles are left alone."""
    return [a for a in f.args if a.direction == "out" and a.kind_base == "handle" and a.is_pointer
            and not a.is_array]


def gen_checked(api: mpi_api.Api) -> str:
    o = ["/* mpi_checked.c: the native engine's argument checks. Generated by ompi/api/gen_bindings.py from",
         " * ompi/api/mpi_api.txt; do not edit. */",
         '#include "tessera_mpi_dispatch.h"', "",
         "/* The implementations the wrappers call, recorded by the first install. */",
         "static tessera_mpi_dispatch_t checked_target;", "",
         "__thread const char *tessera_mpi_int_form __attribute__((tls_model(\"initial-exec\"))) = NULL;", ""]
    # An MPI_Count form with an int-count twin gets a wrapper even without checks: it clears the name
    # the twin's generated form leaves behind (tessera_mpi_int_form).
    checked = [f for f in api.functions if checks(f) or "large" in f.attrs]
    for f in checked:
        kind, obj = error_object(f)
        o.append(f"static {f.prototype('checked_' + slot(f))}")
        o.append("{")
        for a in new_handles(f):
            o.append(f"    if ({a.name} != NULL)")
            o.append(f"        *{a.name} = {null_handle(api, a.kind_param)};")
        if "large" in f.attrs:
            o.append("    tessera_mpi_int_form = NULL;")
        for cond, code, what in checks(f):
            o.append(f"    if (TESSERA_MPI_UNLIKELY({cond}))")
            o.append(f"        return tessera_mpi_raise(TESSERA_MPI_OBJ_{kind}, {obj}, {code}, "
                     f"{c_string(f.name)}, {c_string(what)});")
        o.append(f"    return checked_target.{slot(f)}({call_args(f)});")
        o.append("}")
        o.append("")
    o += ["void tessera_mpi_install_checked(tessera_mpi_dispatch_t *table, const tessera_mpi_dispatch_t *native)",
          "{"]
    with_checks = {f.name for f in checked}
    for f in api.functions:
        s = slot(f)
        o.append(f"    if (native->{s} != NULL) {{")
        if f.name in with_checks:
            o.append(f"        if (checked_target.{s} == NULL)")
            o.append(f"            checked_target.{s} = native->{s};")
            o.append(f"        table->{s} = checked_{s};")
        else:
            o.append(f"        table->{s} = native->{s};")
        o.append("    }")
    o += ["}", ""]
    return "\n".join(o)


def main(argv=None) -> int:
    return outdir_main(argv, __doc__, lambda api: {
        Path("tessera_mpi_dispatch.h"): gen_header(api),
        Path("mpi_bindings.c"): gen_source(api),
        Path("mpi_checked.c"): gen_checked(api)})


if __name__ == "__main__":
    sys.exit(main())
