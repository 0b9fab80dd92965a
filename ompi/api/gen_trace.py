#!/usr/bin/env python3
"""Generates the traced variant of every MPI binding from mpi_api.txt (docs/trace.md).

Output (into --outdir):
  mpi_trace.c   for every function, its traced variant: the call through the dispatch table wrapped in
                what the trace framework must see; the table tessera_mpi_traced lists them in the
                dispatch table's layout. PMPI_x (mpi_bindings.c) calls through it instead of the
                dispatch table when a trace module is active, so the traced path costs nothing
                otherwise; the events reach the modules through the feed (ompi/trace/trace_feed.h).

What each call reports comes from the description: every function is a region (enter before the call,
leave after it); trace= says what the call means (send, isend, recv, complete, coll:<operation>, ...);
the argument kinds say where the facts are: the buffer's count= and type= give the message size, the
rank without MPI_ANY_SOURCE is the destination and the one with it the source, the tag without
MPI_ANY_TAG the send tag, handle:comm the communicator, an out handle:request the request that a later
complete call (Wait/Test and their any/some/all forms, told apart by their index, flag and valid=
arguments) finishes. An out handle:comm is a new communicator announced when the call returns, an
inout one (MPI_Comm_free, MPI_Comm_disconnect) one that ends. A call a runtime translator's library
makes from inside itself is passed on untraced. Python 3 standard library only.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))
import mpi_api  # noqa: E402
from gen_common import outdir_main  # noqa: E402

# mca_trace_base_collective_t (frameworks/trace/trace.h) for each trace=coll:<operation>. A
# neighbourhood collective is reported as the operation it performs on its neighbours.
COLL_OPS = {"barrier": "BARRIER", "bcast": "BCAST", "gather": "GATHER", "gatherv": "GATHERV", "scatter": "SCATTER",
            "scatterv": "SCATTERV", "allgather": "ALLGATHER", "allgatherv": "ALLGATHERV", "alltoall": "ALLTOALL",
            "alltoallv": "ALLTOALLV", "alltoallw": "ALLTOALLW", "allreduce": "ALLREDUCE", "reduce": "REDUCE",
            "reduce_scatter": "REDUCE_SCATTER", "scan": "SCAN", "exscan": "EXSCAN",
            "reduce_scatter_block": "REDUCE_SCATTER_BLOCK", "neighbor_allgather": "ALLGATHER",
            "neighbor_allgatherv": "ALLGATHERV", "neighbor_alltoall": "ALLTOALL", "neighbor_alltoallv": "ALLTOALLV",
            "neighbor_alltoallw": "ALLTOALLW"}


class GenError(Exception):
    pass


def slot(f: mpi_api.Function) -> str:
    return f.name[4:]


def call_args(f: mpi_api.Function) -> str:
    return ", ".join(a.name for a in f.args if not a.is_varargs)


def table_call(f: mpi_api.Function) -> str:
    return f"__atomic_load_n(&tessera_mpi_dispatch.{slot(f)}, __ATOMIC_RELAXED)({call_args(f)})"


def one(f: mpi_api.Function, what: str, pred) -> mpi_api.Arg:
    found = [a for a in f.args if pred(a)]
    if len(found) != 1:
        raise GenError(f"{f.name} (trace={f.attrs['trace']}): expected one {what}, found {len(found)}")
    return found[0]


def maybe(f: mpi_api.Function, pred) -> mpi_api.Arg | None:
    found = [a for a in f.args if pred(a)]
    return found[0] if found else None


def comm_arg(f):
    return one(f, "communicator", lambda a: a.kind == "handle:comm" and a.direction == "in" and not a.is_pointer)


def dest_arg(f):
    return one(f, "destination rank", lambda a: a.kind_base == "rank" and "ANY_SOURCE" not in a.list_attr("special"))


def source_arg(f):
    return one(f, "source rank", lambda a: a.kind_base == "rank" and "ANY_SOURCE" in a.list_attr("special"))


def send_tag(f):
    return one(f, "send tag", lambda a: a.kind_base == "tag" and "ANY_TAG" not in a.list_attr("special"))


def send_buffer(f):
    """The buffer a send reads: direction in, or the inout buffer of MPI_Sendrecv_replace."""
    return one(f, "send buffer", lambda a: a.kind_base == "buffer" and a.direction in ("in", "inout"))


def request_out(f):
    return one(f, "request output", lambda a: a.kind == "handle:request" and a.direction == "out")


def status_arg(f):
    return one(f, "status", lambda a: a.kind_base == "status" and not a.is_array)


def message_arg(f):
    return one(f, "message", lambda a: a.kind == "handle:message")


def flag_out(f):
    return maybe(f, lambda a: a.kind_base == "flag" and a.direction == "out")


def send_call(f, fn: str, prefix: str = "", suffix: str = "") -> str:
    buf = send_buffer(f)
    return (f"{fn}({prefix}{comm_arg(f).name}, {dest_arg(f).name}, {send_tag(f).name}, "
            f"(MPI_Count){buf.attrs['count']}, {buf.attrs['type']}{suffix});")


class Body:
    """The statements around the call: locals, before, after (the call's result is rc_)."""

    def __init__(self):
        self.locals, self.before, self.after = [], [], []


def p2p_role(f, role: str, b: Body):
    ok = "rc_ == MPI_SUCCESS"
    if role == "send":
        b.before.append(send_call(f, "tessera_trace_send"))
        b.after.append(send_call(f, "tessera_trace_send_done", suffix=", rc_"))
    elif role in ("recv", "sendrecv"):
        st = status_arg(f)
        b.locals += ["MPI_Status status_;"]
        if role == "sendrecv":
            b.before.append(send_call(f, "tessera_trace_send"))
            b.after.append(send_call(f, "tessera_trace_send_done", suffix=", rc_"))
        b.before.append(f"{st.name} = tessera_trace_status({st.name}, &status_);")
        b.after.append(f"tessera_trace_recv({comm_arg(f).name}, rc_, {st.name});")
    elif role in ("isend", "irecv", "isendrecv", "send_init", "recv_init", "imrecv"):
        b.locals.append("tessera_trace_op_t op_ = {0};")
        if role in ("isend", "isendrecv"):
            b.before.append(send_call(f, "tessera_trace_op_isend", "&op_, "))
        if role in ("irecv", "isendrecv"):
            b.before.append(f"tessera_trace_op_irecv(&op_, {comm_arg(f).name}, {source_arg(f).name});")
        if role == "send_init":
            b.before.append(send_call(f, "tessera_trace_op_send_init", "&op_, "))
        if role == "recv_init":
            b.before.append(f"tessera_trace_op_recv_init(&op_, {comm_arg(f).name}, {source_arg(f).name});")
        if role == "imrecv":
            b.before.append(f"tessera_trace_op_imrecv(&op_, *{message_arg(f).name});")
        b.after.append(f"tessera_trace_op_started(&op_, rc_, *{request_out(f).name});")
    elif role == "mprobe":
        flag = flag_out(f)
        cond = f"{ok} && *{flag.name}" if flag else ok
        b.after.append(f"if ({cond})")
        b.after.append(f"    tessera_trace_message({comm_arg(f).name}, *{message_arg(f).name});")
    elif role == "mrecv":
        st = status_arg(f)
        b.locals += ["MPI_Status status_;", "uint64_t comm_;"]
        b.before.append(f"comm_ = tessera_trace_message_comm(*{message_arg(f).name});")
        b.before.append(f"{st.name} = tessera_trace_status({st.name}, &status_);")
        b.after.append(f"tessera_trace_recv_on(comm_, rc_, {st.name});")
    else:
        raise GenError(f"{f.name}: trace={role} is not a point-to-point role")


def request_role(f, role: str, b: Body):
    reqs = one(f, "request argument", lambda a: a.kind == "handle:request")
    if role == "start":
        n = reqs.attrs["len"] if reqs.is_array else "1"
        b.before.append(f"tessera_trace_start({reqs.name}, {n});")
    elif role == "cancel":
        b.before.append(f"tessera_trace_cancel(*{reqs.name});")
    elif role == "free":
        b.before.append(f"tessera_trace_free(*{reqs.name});")
    elif role == "complete":
        complete_role(f, reqs, b)
    else:
        raise GenError(f"{f.name}: trace={role} is not a request role")


def complete_role(f, reqs, b: Body):
    """Wait/Test and their any/some/all forms, told apart by their arguments: a single request (ONE),
    an index out (ANY), indices with valid= (SOME), or none of these (ALL); a flag out makes it a test."""
    st = one(f, "status argument", lambda a: a.kind_base == "status")
    flag = flag_out(f)
    index = maybe(f, lambda a: a.kind_base == "index" and a.direction == "out" and not a.is_array)
    indices = maybe(f, lambda a: a.kind_base == "index" and a.direction == "out" and a.is_array and "valid" in a.attrs)
    count = reqs.attrs["len"] if reqs.is_array else "1"
    how, index_p, outcount_p, indices_p = "ALL", "NULL", "NULL", "NULL"
    if not reqs.is_array:
        how = "ONE"
    elif index is not None:
        how, index_p = "ANY", index.name
    elif indices is not None:
        how, outcount_p, indices_p = "SOME", indices.attrs["valid"], indices.name
    b.locals.append("tessera_trace_wait_t wait_;")
    b.before.append(f"{st.name} = tessera_trace_wait_begin(&wait_, TESSERA_TRACE_WAIT_{how}, {reqs.name}, {count}, "
                    f"{st.name});")
    b.after.append(f"tessera_trace_wait_end(&wait_, rc_, {flag.name if flag else 'NULL'}, {index_p}, {outcount_p}, "
                   f"{indices_p});")


def coll_args(f, op: str) -> list[str]:
    """Fills tessera_trace_coll_args_t a_ from the buffers (in: send side, out: receive side, inout:
    both, as MPI_Bcast's), their count= (a count or an array of counts) and type= (a datatype or an
    array of datatypes), the root and the communicator."""
    lines = [f"a_.op = MCA_TRACE_COLL_{COLL_OPS[op]};",
             f"a_.neighbor = {1 if op.startswith('neighbor_') else 0};",
             f"a_.comm = {comm_arg(f).name};"]
    root = maybe(f, lambda a: a.kind_base == "rank")
    lines.append(f"a_.root = {root.name if root else -1};")
    for buf in (a for a in f.args if a.kind_base == "buffer"):
        sides = {"in": ["send"], "out": ["recv"], "inout": ["send", "recv"]}[buf.direction]
        for side in sides:
            lines.append(f"a_.{side}buf = {buf.name};")
            count = f.arg(buf.attrs["count"])
            if count.is_array:
                field = "counts_c" if count.base_type == "MPI_Count" else "counts"
                lines.append(f"a_.{side}{field} = {count.name};")
            else:
                lines.append(f"a_.{side}count = (MPI_Count){count.name};")
            dtype = f.arg(buf.attrs["type"])
            lines.append(f"a_.{side}type{'s' if dtype.is_array else ''} = {dtype.name};")
    return lines


def coll_role(f, op: str, b: Body):
    if op not in COLL_OPS:
        raise GenError(f"{f.name}: trace=coll:{op}: no trace operation for it")
    b.locals.append("tessera_trace_coll_args_t a_ = {0};")
    b.before += coll_args(f, op)
    if f.attrs.get("cat") == "pcoll":
        # Persistent: the operation runs at each MPI_Start; the request remembers it.
        b.locals.append("tessera_trace_op_t op_ = {0};")
        b.before.append("tessera_trace_op_coll(&op_, &a_);")
        b.after.append(f"tessera_trace_op_started(&op_, rc_, *{request_out(f).name});")
    else:
        b.before.append("tessera_trace_coll_begin();")
        b.after.append("tessera_trace_coll_end(&a_, rc_);")


def comm_lifetime(f, b: Body):
    """A new communicator is announced when the call returns (a nonblocking one such as MPI_Comm_idup's
    only at its first use: it is not usable before the request completes); an ended one is forgotten."""
    makes_request = maybe(f, lambda a: a.kind == "handle:request" and a.direction == "out") is not None
    for a in f.args:
        if a.kind != "handle:comm" or not a.is_pointer or a.is_array:
            continue
        if a.direction == "out" and not makes_request:
            b.after.append(f"tessera_trace_comm_created(rc_, *{a.name});")
        elif a.direction == "inout":
            b.locals.append(f"MPI_Comm ended_{a.name} = *{a.name};")
            b.after.append(f"tessera_trace_comm_ended(rc_, ended_{a.name});")


def hooks_needed(f: mpi_api.Function) -> str:
    """The hooks (frameworks/trace/base/hook_mask.h) whose modules need the traced variant of f: PMPI_x
    takes it only while an active module has one of them. Every call is a region; what it feeds besides
    follows from its role; a call that makes, ends or renames a communicator keeps the feed's table of
    communicators right for every event, and a request's records serve all the request hooks."""
    role = f.attrs.get("trace", "")
    kind, _, op = role.partition(":")
    makes_request = maybe(f, lambda a: a.kind == "handle:request" and a.direction == "out") is not None
    comm_lifetime_arg = any(a.kind == "handle:comm" and a.is_pointer and not a.is_array and
                            a.direction in ("out", "inout") for a in f.args)
    if role == "comm_name" or comm_lifetime_arg:
        return "MCA_TRACE_HOOK_ALL"
    needed = ["MCA_TRACE_HOOK_REGION"]
    if kind == "coll":
        needed.append("MCA_TRACE_HOOK_COLLECTIVE")
        if makes_request:
            needed.append("MCA_TRACE_HOOK_REQUESTS")
    elif role == "send":
        needed += ["MCA_TRACE_HOOK_SEND", "MCA_TRACE_HOOK_SEND_DONE"]
    elif role == "recv":
        needed.append("MCA_TRACE_HOOK_RECV")
    elif role == "sendrecv":
        needed += ["MCA_TRACE_HOOK_SEND", "MCA_TRACE_HOOK_SEND_DONE", "MCA_TRACE_HOOK_RECV"]
    elif role in ("mprobe", "mrecv"):
        # The probe remembers the message's communicator for the receive that takes it.
        needed += ["MCA_TRACE_HOOK_RECV", "MCA_TRACE_HOOK_REQUESTS"]
    elif role:
        needed.append("MCA_TRACE_HOOK_REQUESTS")
    return " | ".join(needed)


def hooks_after(f: mpi_api.Function) -> str:
    """Hooks of hooks_needed(f) that are fed only after the call returned, from its arguments and result
    alone, and so without the traced variant: PMPI_x calls the table itself and then
    tessera_mpi_traced_after_x (gen_after). A blocking send's send_done: a module that only counts
    sends then costs the send nothing before it is handed over. Empty when there are none."""
    return "MCA_TRACE_HOOK_SEND_DONE" if f.attrs.get("trace", "") == "send" else ""


def hooks_before(f: mpi_api.Function) -> str:
    """The hooks of hooks_needed(f) that need the traced variant: all but hooks_after(f)."""
    after = hooks_after(f)
    return " | ".join(h for h in hooks_needed(f).split(" | ") if h != after)


def after_prototype(f: mpi_api.Function) -> str:
    return f"void tessera_mpi_traced_after_{slot(f)}({f.params()}, int rc_)"


def gen_after(f: mpi_api.Function) -> list[str]:
    """tessera_mpi_traced_after_x: what the traced variant reports after the call for hooks_after(f)."""
    b = Body()
    p2p_role(f, f.attrs.get("trace", ""), b)
    said = " ".join(b.after)
    unused = [f"(void){a.name};" for a in f.args if not re.search(rf"\b{a.name}\b", said)]
    return [f"{after_prototype(f)}", "{"] + ["    " + line for line in unused] + \
           ["    if (TESSERA_MPI_UNLIKELY(tessera_translator_inside()))",
            "        return; /* the runtime calling itself: see traced() */"] + \
           ["    " + line for line in b.after] + ["}", ""]


def traced(f: mpi_api.Function, index: int) -> list[str]:
    role = f.attrs.get("trace", "")
    ret = f.ret != "void"
    o = [f"static {f.prototype('traced_' + slot(f))}", "{"]
    if role == "finalize":
        # Modules write their output while the library can still communicate; MPI_Finalize itself is
        # not a region (nothing is recorded after the modules let go).
        o += ["    tessera_trace_before_finalize();", f"    return {table_call(f)};", "}", ""]
        return o
    if role == "init":
        o += [f"    int rc_ = {table_call(f)};", "    tessera_trace_after_init(rc_);", "    return rc_;", "}", ""]
        return o
    b = Body()
    kind, _, op = role.partition(":")
    if kind == "coll":
        coll_role(f, op, b)
    elif role in ("start", "cancel", "free", "complete"):
        request_role(f, role, b)
    elif role == "comm_name":
        b.after.append(f"tessera_trace_comm_renamed(rc_, {comm_arg(f).name});")
    elif role:
        p2p_role(f, role, b)
    comm_lifetime(f, b)
    if ret:
        b.locals.insert(0, f"{f.ret} rc_;")
    # A runtime translator's library calling MPI from inside itself (Open MPI's MPI_Sendrecv_replace
    # calls MPI_Sendrecv) lands here with the runtime's own handles: not the application's call, and
    # not ours to look at (frameworks/translator/base/reentry.h).
    o.append("    if (TESSERA_MPI_UNLIKELY(tessera_translator_inside()))")
    o.append(f"        return {table_call(f)};" if ret else f"        {{ {table_call(f)}; return; }}")
    o += ["    " + line for line in b.locals]
    o.append(f"    tessera_trace_enter({index});")
    o += ["    " + line for line in b.before]
    o.append(f"    {'rc_ = ' if ret else ''}{table_call(f)};")
    o += ["    " + line for line in b.after]
    o.append(f"    tessera_trace_leave({index});")
    if ret:
        o.append("    return rc_;")
    o += ["}", ""]
    return o


def gen_trace(api: mpi_api.Api) -> str:
    o = ["/* mpi_trace.c: the traced MPI bindings. Generated by ompi/api/gen_trace.py from",
         " * ompi/api/mpi_api.txt; do not edit. */",
         '#include "tessera_mpi_dispatch.h"',
         '#include "ompi/trace/trace_feed.h"', "",
         "/* The region names, by the index tessera_trace_enter/leave pass. */",
         f"TESSERA_TRACE_INTERNAL const char *const tessera_trace_function_names[{len(api.functions)}] = {{"]
    o += [f'    "{f.name}",' for f in api.functions]
    o += ["};", ""]
    for i, f in enumerate(api.functions):
        o += traced(f, i)
        if hooks_after(f):
            o += gen_after(f)
    o += ["/* What PMPI_x calls while a trace module is active. */",
          "const tessera_mpi_dispatch_t tessera_mpi_traced = {"]
    o += [f"    traced_{slot(f)}," for f in api.functions]
    o += ["};", ""]
    return "\n".join(o)


def main(argv=None) -> int:
    return outdir_main(argv, __doc__, lambda api: {Path("mpi_trace.c"): gen_trace(api)},
                       errors=(mpi_api.ApiError, GenError))


if __name__ == "__main__":
    sys.exit(main())
