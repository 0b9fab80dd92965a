"""MPI 4.1 functions a runtime lacks, composed from thunks it has (gen_thunks.py).

Each composition is written on the application's side of the translation: it calls other thunks
(t_<name>, which convert and call the runtime) or works on the ABI's own values alone, so it needs no
conversion of its own. A composition is used only when every thunk it calls exists for the runtime.
Under re-entrancy (the runtime calling the function from inside itself) there is no runtime function
to hand the call to: the direct table keeps NULL there, as for any function the runtime lacks.
"""

# name -> (runtime functions it needs, body lines). The bodies use the ABI prototype's argument names.
COMPOSED = {
    # Open MPI 4.1 defines these as macros only.
    "MPI_Aint_add": ([], ["    return base + disp;"]),
    "MPI_Aint_diff": ([], ["    return addr1 - addr2;"]),
    # The predefined pair types of MINLOC/MAXLOC (MPI-4.1 6.9.4), all ABI handles.
    "MPI_Type_get_value_index": ([], [
        "    if (pair_type == nullptr) return MPI_ERR_ARG;",
        "    *pair_type = MPI_DATATYPE_NULL;",
        "    if (index_type == MPI_INT) {",
        "        if (value_type == MPI_FLOAT) *pair_type = MPI_FLOAT_INT;",
        "        else if (value_type == MPI_DOUBLE) *pair_type = MPI_DOUBLE_INT;",
        "        else if (value_type == MPI_LONG) *pair_type = MPI_LONG_INT;",
        "        else if (value_type == MPI_SHORT) *pair_type = MPI_SHORT_INT;",
        "        else if (value_type == MPI_INT) *pair_type = MPI_2INT;",
        "        else if (value_type == MPI_LONG_DOUBLE) *pair_type = MPI_LONG_DOUBLE_INT;",
        "    } else if (index_type == value_type) {",
        "        if (value_type == MPI_REAL) *pair_type = MPI_2REAL;",
        "        else if (value_type == MPI_DOUBLE_PRECISION) *pair_type = MPI_2DOUBLE_PRECISION;",
        "        else if (value_type == MPI_INTEGER) *pair_type = MPI_2INTEGER;",
        "    }",
        "    return MPI_SUCCESS;"]),
    # MPI-4.0's MPI_Info_get_string from the deprecated pair it replaced.
    "MPI_Info_get_string": (["MPI_Info_get_valuelen", "MPI_Info_get"], [
        "    if (buflen == nullptr || flag == nullptr || *buflen < 0) return MPI_ERR_ARG;",
        "    int len = 0;",
        "    int rc = t_Info_get_valuelen(info, key, &len, flag);",
        "    if (rc != MPI_SUCCESS || !*flag) return rc;",
        "    if (*buflen > 0) {",
        "        if (value == nullptr) return MPI_ERR_ARG;",
        "        if (*buflen == 1) value[0] = '\\0';",
        "        else rc = t_Info_get(info, key, *buflen - 1, value, flag);",
        "    }",
        "    *buflen = len + 1;",
        "    return rc;"]),
    # MPI-4.1: the status of requests without freeing them, from the single-request form. A null
    # request is inactive; the runtime gives no way to tell an inactive persistent request apart, so
    # such a request reads as complete with an empty status, which is what MPI_Request_get_status says
    # of it too.
    "MPI_Request_get_status_any": (["MPI_Request_get_status"], [
        "    if (indx == nullptr || flag == nullptr || (count > 0 && array_of_requests == nullptr)) return MPI_ERR_ARG;",
        "    bool active = false;",
        "    for (int i = 0; i < count; ++i) {",
        "        if (array_of_requests[i] == MPI_REQUEST_NULL) continue;",
        "        active = true;",
        "        int done = 0;",
        "        const int rc = t_Request_get_status(array_of_requests[i], &done, status);",
        "        if (rc != MPI_SUCCESS) { *indx = i; return rc; }",
        "        if (done) { *indx = i; *flag = 1; return MPI_SUCCESS; }",
        "    }",
        "    *indx = MPI_UNDEFINED;",
        "    *flag = active ? 0 : 1;",
        "    if (!active && status != MPI_STATUS_IGNORE) {",
        "        status->MPI_SOURCE = MPI_ANY_SOURCE;",
        "        status->MPI_TAG = MPI_ANY_TAG;",
        "    }",
        "    return MPI_SUCCESS;"]),
    # The statuses are written only once every request is known to be complete: with flag = 0 they
    # stay as the application left them, as with every call that reports through a flag.
    "MPI_Request_get_status_all": (["MPI_Request_get_status"], [
        "    if (flag == nullptr || (count > 0 && array_of_requests == nullptr)) return MPI_ERR_ARG;",
        "    for (int i = 0; i < count; ++i) {",
        "        int done = 0;",
        "        const int rc = t_Request_get_status(array_of_requests[i], &done, MPI_STATUS_IGNORE);",
        "        if (rc != MPI_SUCCESS) return rc;",
        "        if (!done) { *flag = 0; return MPI_SUCCESS; }",
        "    }",
        "    for (int i = 0; array_of_statuses != MPI_STATUSES_IGNORE && i < count; ++i) {",
        "        int done = 0;",
        "        const int rc = t_Request_get_status(array_of_requests[i], &done, &array_of_statuses[i]);",
        "        if (rc != MPI_SUCCESS) return rc;",
        "    }",
        "    *flag = 1;",
        "    return MPI_SUCCESS;"]),
    "MPI_Request_get_status_some": (["MPI_Request_get_status"], [
        "    if (outcount == nullptr || (incount > 0 && (array_of_requests == nullptr || array_of_indices == nullptr)))",
        "        return MPI_ERR_ARG;",
        "    bool active = false;",
        "    int n = 0;",
        "    for (int i = 0; i < incount; ++i) {",
        "        if (array_of_requests[i] == MPI_REQUEST_NULL) continue;",
        "        active = true;",
        "        int done = 0;",
        "        MPI_Status *st = array_of_statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array_of_statuses[n];",
        "        const int rc = t_Request_get_status(array_of_requests[i], &done, st);",
        "        if (rc != MPI_SUCCESS) return rc;",
        "        if (done) array_of_indices[n++] = i;",
        "    }",
        "    *outcount = active ? n : MPI_UNDEFINED;",
        "    return MPI_SUCCESS;"]),
    # MPI-4.1: detaching waits for every buffered message to be delivered; attaching the same buffer
    # again leaves the process as it was.
    "MPI_Buffer_flush": (["MPI_Buffer_detach", "MPI_Buffer_attach"], [
        "    void *addr = nullptr;",
        "    int size = 0;",
        "    int rc = t_Buffer_detach(&addr, &size);",
        "    if (rc == MPI_SUCCESS && addr != nullptr && size > 0) rc = t_Buffer_attach(addr, size);",
        "    return rc;"]),
    # MPI-4.0's MPI_Count forms of the datatype decoding calls, over the int forms: a type the runtime
    # built has no large counts (it has no MPI_Count constructors), and its integers fit an int.
    "MPI_Type_get_envelope_c": (["MPI_Type_get_envelope"], [
        "    int ni = 0, na = 0, nd = 0;",
        "    const int rc = t_Type_get_envelope(datatype, &ni, &na, &nd, combiner);",
        "    if (rc != MPI_SUCCESS) return rc;",
        "    if (num_integers != nullptr) *num_integers = ni;",
        "    if (num_addresses != nullptr) *num_addresses = na;",
        "    if (num_large_counts != nullptr) *num_large_counts = 0;",
        "    if (num_datatypes != nullptr) *num_datatypes = nd;",
        "    return MPI_SUCCESS;"]),
    "MPI_Type_get_contents_c": (["MPI_Type_get_contents"], [
        "    (void)max_large_counts;",
        "    (void)array_of_large_counts;",
        "    const auto fit = [](MPI_Count n) { return n > INT_MAX ? INT_MAX : static_cast<int>(n); };",
        "    return t_Type_get_contents(datatype, fit(max_integers), fit(max_addresses), fit(max_datatypes),",
        "                               array_of_integers, array_of_addresses, array_of_datatypes);"]),
    # Large-count forms over the runtime's int or MPI_Count forms, where the values fit.
    "MPI_Status_set_elements_c": (["MPI_Status_set_elements_x"], [
        "    return t_Status_set_elements_x(status, datatype, count);"]),
    "MPI_Psend_init_c": (["MPI_Psend_init"], [
        "    if (count > INT_MAX) return MPI_ERR_COUNT;",
        "    return t_Psend_init(buf, partitions, static_cast<int>(count), datatype, dest, tag, comm, info, request);"]),
    "MPI_Precv_init_c": (["MPI_Precv_init"], [
        "    if (count > INT_MAX) return MPI_ERR_COUNT;",
        "    return t_Precv_init(buf, partitions, static_cast<int>(count), datatype, source, tag, comm, info, request);"]),
}


def composed(f, runtime_has) -> list | None:
    """The code of f composed from thunks the runtime has, or None. runtime_has(name) -> bool."""
    entry = COMPOSED.get(f.name)
    if entry is None or runtime_has(f.name):
        return None
    needs, body = entry
    if not all(runtime_has(n) for n in needs):
        return None
    return [f"/* {f.name}: composed on the application's side (the runtime lacks it). */",
            f"static {f.prototype('t_' + f.name[4:])}", "{"] + body + ["}", ""]


# --- Large-count forms (MPI_x_c) over the runtime's int forms --------------------------------------
# Open MPI 4.1 has none of MPI-4.0's _c functions. Where the runtime has MPI_x, MPI_x_c is served by it
# when every count, displacement and size fits the int form: a value that does not fit answers
# MPI_ERR_COUNT (the standard's class for counts an implementation cannot represent), never a
# truncated value. Outputs come back widened. Functions whose _c form differs in more than integer
# widths (callbacks taking MPI_Count, extra arguments) are not composed.

WIDE = {"MPI_Count", "MPI_Aint", "MPI_Offset"}


def _length(f, a, helpers: set, has) -> str | None:
    """C expression for an array argument's length, on the application's side; None if unknown."""
    v = a.attrs.get("len")
    if v is None:
        return None
    if v.isdigit():
        return v
    if v.startswith("@group:"):
        if not all(has(x) for x in ("MPI_Comm_test_inter", "MPI_Comm_size", "MPI_Comm_remote_size")):
            return None
        helpers.add("app_group_size")
        return f"app_group_size({v.split(':', 1)[1]})"
    if v.startswith("@"):
        return None
    ref = next((x for x in f.args if x.name == v), None)
    if ref is None:
        return None
    return f"({v} != nullptr ? static_cast<long long>(*{v}) : 0)" if ref.is_pointer else f"static_cast<long long>({v})"


def _raise(f, runtime_has) -> str:
    """The statement that reports MPI_ERR_COUNT for f: on the error handler of the object its errh=
    names, through the runtime (which owns the handlers), then returned."""
    errh = f.attrs.get("errh", "none")
    classes = {"comm": "Comm", "win": "Win", "file": "File"}
    obj = None
    if errh == "COMM_SELF":
        obj, cls = "MPI_COMM_SELF", "Comm"
    else:
        a = next((x for x in f.args if x.name == errh and not x.is_pointer and not x.is_array), None)
        if a is not None and a.kind_param in classes:
            obj, cls = a.name, classes[a.kind_param]
    if obj is None or not runtime_has(f"MPI_{cls}_call_errhandler"):
        return "return MPI_ERR_COUNT;"
    return f"return t_{cls}_call_errhandler({obj}, MPI_ERR_COUNT), MPI_ERR_COUNT;"


def large_count(f, base, runtime_has, helpers: set) -> list | None:
    """MPI_x_c composed from the thunk of MPI_x; None when not possible. `helpers` collects the names of
    helper functions the code calls (see LARGE_COUNT_HELPERS)."""
    if runtime_has(f.name) or not runtime_has(base.name) or len(f.args) != len(base.args):
        return None
    if f.ret != base.ret:
        return None
    pre, post, call = [], [], []
    used = set()
    for a, b in zip(f.args, base.args):
        if a.name != b.name or a.is_varargs:
            return None
        if a.ctype == b.ctype:
            call.append(a.name)
            continue
        at, bt = a.base_type, b.base_type
        if at not in WIDE or bt not in WIDE | {"int"} or a.direction != b.direction:
            return None
        n = a.name
        if not a.is_pointer and not a.is_array:  # a scalar input
            if bt == "int":
                pre.append(f"if ({n} < INT_MIN || {n} > INT_MAX) return MPI_ERR_COUNT;")
                call.append(f"static_cast<int>({n})")
            else:
                call.append(f"static_cast<{bt}>({n})")
        elif a.is_pointer and not a.is_array:  # one output (or inout) value
            init = f"{n} != nullptr ? static_cast<{bt}>(*{n}) : 0" if a.direction == "inout" else "0"
            if a.direction == "inout" and bt == "int":
                pre.append(f"if ({n} != nullptr && (*{n} < INT_MIN || *{n} > INT_MAX)) return MPI_ERR_COUNT;")
            pre.append(f"{bt} n_{n} = {init};")
            call.append(f"{n} != nullptr ? &n_{n} : nullptr")
            post.append(f"if ({n} != nullptr) *{n} = n_{n};")
        elif a.is_array and a.is_const and a.direction == "in":  # an array of inputs
            length = _length(f, a, helpers, runtime_has)
            if length is None:
                return None
            pre.append(f"const long long len_{n} = {n} != nullptr ? {length} : 0;")
            pre.append(f"TR_TEMP_ARRAY({bt}, n_{n}, len_{n});")
            pre.append(f"for (long long i_ = 0; i_ < len_{n}; ++i_) {{")
            if bt == "int":
                pre.append(f"    if ({n}[i_] < INT_MIN || {n}[i_] > INT_MAX) return MPI_ERR_COUNT;")
            pre.append(f"    n_{n}[i_] = static_cast<{bt}>({n}[i_]);")
            pre.append("}")
            call.append(f"{n} != nullptr ? n_{n} : nullptr")
        elif a.is_array and a.direction == "out":  # an array of outputs
            length = _length(f, a, helpers, runtime_has)
            if length is None:
                return None
            pre.append(f"const long long len_{n} = {n} != nullptr ? {length} : 0;")
            pre.append(f"TR_TEMP_ARRAY({bt}, n_{n}, len_{n});")
            call.append(f"{n} != nullptr ? n_{n} : nullptr")
            post.append(f"for (long long i_ = 0; i_ < len_{n}; ++i_) {n}[i_] = n_{n}[i_];")
        else:
            return None
        used.add(n)
    # A non-blocking or persistent operation may read its count arrays until it completes, long after
    # the temporaries here are gone: such functions are left missing rather than composed.
    converted_arrays = any(a.is_array and a.ctype != b.ctype for a, b in zip(f.args, base.args))
    if converted_arrays and any(a.kind == "handle:request" and a.direction == "out" for a in f.args):
        return None
    raise_count = _raise(f, runtime_has)
    pre = [ln.replace("return MPI_ERR_COUNT;", raise_count) for ln in pre]
    ret = "const int rc_ = " if f.ret == "int" else "const auto rv_ = "
    body = [f"/* {f.name}: the runtime's {base.name}, when every value fits (else MPI_ERR_COUNT). */",
            f"static {f.prototype('t_' + f.name[4:])}", "{"]
    body += ["    " + ln for ln in pre]
    body.append(f"    {ret}t_{base.name[4:]}({', '.join(call)});")
    if f.ret == "int":
        body += [f"    if (rc_ == MPI_SUCCESS) {ln}" for ln in post]
        body.append("    return rc_;")
    else:
        body += ["    " + ln for ln in post]
        body.append("    return rv_;")
    body += ["}", ""]
    return body


# Helpers the large-count compositions may call, on the application's side.
LARGE_COUNT_HELPERS = {
    "app_group_size": [
        "/* The size of a communicator's (remote) group, for arrays indexed by its ranks. */",
        "[[maybe_unused]] long long app_group_size(MPI_Comm comm)",
        "{",
        "    int inter = 0, n = 0;",
        "    if (t_Comm_test_inter(comm, &inter) == MPI_SUCCESS && inter) t_Comm_remote_size(comm, &n);",
        "    else t_Comm_size(comm, &n);",
        "    return n;",
        "}", ""],
}
