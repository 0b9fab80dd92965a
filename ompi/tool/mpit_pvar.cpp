/*
 * Performance variables (MPI-4.1 15.3.7): sessions, handles, start/stop/read/write/reset. The numbers
 * are in mpit_counters.cpp. A counter handle shows what happened while it was started: at start it
 * notes the counter, at stop it adds the difference to what it has, so sessions and handles are
 * independent of each other and of when the process began. The continuous pvars (queue lengths and
 * high-water marks, states, the JIT's) are read as they are and cannot be started, stopped or written.
 */
#include <algorithm>
#include <cstring>

#include "ompi/runtime/native_api.h"
#include "ompi/tool/mpit.h"
#include "ompi/tool/mpit_feed.h"
#include "ompi/tool/mpit_pvar_defs.h"

namespace tessera::ompi::tool {

namespace {

struct Session;

struct PvarHandle {
    Session *session;
    int pvar;
    int count;
    MPI_Comm comm; /* MPI_COMM_NULL unless bound to a communicator */
    bool started = false;
    std::vector<uint64_t> base;  /* the counter when started */
    std::vector<uint64_t> accum; /* what earlier start..stop spans (or a write) gave */
};

struct Session {
    std::vector<std::unique_ptr<PvarHandle>> handles;
};

std::vector<std::unique_ptr<Session>> &sessions()
{
    static std::vector<std::unique_ptr<Session>> list;
    return list;
}

Session *session_of(MPI_T_pvar_session h)
{
    for (auto &s : sessions()) {
        if (reinterpret_cast<MPI_T_pvar_session>(s.get()) == h) {
            return s.get();
        }
    }
    return nullptr;
}

PvarHandle *handle_of(Session &s, MPI_T_pvar_handle h)
{
    for (auto &p : s.handles) {
        if (reinterpret_cast<MPI_T_pvar_handle>(p.get()) == h) {
            return p.get();
        }
    }
    return nullptr;
}

const PvarDef &def_of(const PvarHandle &h)
{
    return pvar_defs()[static_cast<size_t>(h.pvar)];
}

bool is_timer_ns(const PvarDef &d)
{
    return d.source == Source::MatchTimer || d.source == Source::JitTimer;
}

/* The handle's value now, as numbers of the counter's own unit. */
int value_of(const PvarHandle &h, std::vector<uint64_t> &out)
{
    const PvarDef &d = def_of(h);
    if (int rc = pvar_raw(d, h.comm, out); rc != MPI_SUCCESS) {
        return rc;
    }
    out.resize(static_cast<size_t>(h.count));
    if (!d.continuous) {
        for (size_t i = 0; i < out.size(); ++i) {
            out[i] = h.accum[i] + (h.started ? out[i] - h.base[i] : 0);
        }
    }
    return MPI_SUCCESS;
}

void store_out(const PvarDef &d, const std::vector<uint64_t> &values, void *buf)
{
    for (size_t i = 0; i < values.size(); ++i) {
        if (is_timer_ns(d)) {
            static_cast<double *>(buf)[i] = static_cast<double>(values[i]) / 1e9;
        } else if (d.datatype == MPI_INT) {
            static_cast<int *>(buf)[i] = static_cast<int>(values[i]);
        } else if (d.datatype == MPI_UNSIGNED_LONG) {
            static_cast<unsigned long *>(buf)[i] = static_cast<unsigned long>(values[i]);
        } else {
            static_cast<unsigned long long *>(buf)[i] = values[i];
        }
    }
}

int start(PvarHandle &h)
{
    if (def_of(h).continuous) {
        return MPI_T_ERR_PVAR_NO_STARTSTOP;
    }
    if (h.started) {
        return MPI_SUCCESS;
    }
    if (int rc = pvar_raw(def_of(h), h.comm, h.base); rc != MPI_SUCCESS) {
        return rc;
    }
    h.base.resize(static_cast<size_t>(h.count));
    h.started = true;
    counters_started.fetch_add(1, std::memory_order_relaxed);
    return MPI_SUCCESS;
}

int stop(PvarHandle &h)
{
    if (def_of(h).continuous) {
        return MPI_T_ERR_PVAR_NO_STARTSTOP;
    }
    if (!h.started) {
        return MPI_SUCCESS;
    }
    std::vector<uint64_t> now;
    if (int rc = value_of(h, now); rc != MPI_SUCCESS) {
        return rc;
    }
    h.accum = now;
    h.started = false;
    counters_started.fetch_sub(1, std::memory_order_relaxed);
    return MPI_SUCCESS;
}

/* Sets the handle's value to `values` (a reset: zeros). */
int set_value(PvarHandle &h, const std::vector<uint64_t> &values)
{
    if (def_of(h).readonly) {
        return MPI_T_ERR_PVAR_NO_WRITE;
    }
    if (h.started) {
        if (int rc = pvar_raw(def_of(h), h.comm, h.base); rc != MPI_SUCCESS) {
            return rc;
        }
        h.base.resize(static_cast<size_t>(h.count));
    }
    h.accum = values;
    return MPI_SUCCESS;
}

void free_handle(Session &s, PvarHandle *h)
{
    if (h->started) {
        counters_started.fetch_sub(1, std::memory_order_relaxed);
    }
    std::erase_if(s.handles, [h](const std::unique_ptr<PvarHandle> &p) { return p.get() == h; });
}

/* Under the mutex: the session and handle of a call, or an error code. `all` allows
 * MPI_T_PVAR_ALL_HANDLES (start, stop, reset), for which *handle stays null. */
int lookup(State &st, MPI_T_pvar_session session, MPI_T_pvar_handle handle, bool all, Session **s, PvarHandle **h)
{
    if (int rc = require_init(st); rc != MPI_SUCCESS) {
        return rc;
    }
    *s = session_of(session);
    if (*s == nullptr) {
        return MPI_T_ERR_INVALID_SESSION;
    }
    *h = nullptr;
    if (all && handle == MPI_T_PVAR_ALL_HANDLES) {
        return MPI_SUCCESS;
    }
    *h = handle_of(**s, handle);
    return *h == nullptr ? MPI_T_ERR_INVALID_HANDLE : MPI_SUCCESS;
}

/* `op` on one handle, or on every handle of the session that supports it (15.3.7: ALL_HANDLES skips
 * the continuous ones for start and stop, the read-only ones for reset). */
template <typename Op>
int on_handles(MPI_T_pvar_session session, MPI_T_pvar_handle handle, Op op)
{
    State &st = state();
    std::lock_guard lock(st.mutex);
    Session *s = nullptr;
    PvarHandle *h = nullptr;
    if (int rc = lookup(st, session, handle, true, &s, &h); rc != MPI_SUCCESS) {
        return rc;
    }
    if (h != nullptr) {
        return op(*h);
    }
    for (auto &each : s->handles) {
        const int rc = op(*each);
        if (rc != MPI_SUCCESS && rc != MPI_T_ERR_PVAR_NO_STARTSTOP && rc != MPI_T_ERR_PVAR_NO_WRITE) {
            return rc;
        }
    }
    return MPI_SUCCESS;
}

} // namespace

void release_pvar_sessions()
{
    for (auto &s : sessions()) {
        while (!s->handles.empty()) {
            free_handle(*s, s->handles.back().get());
        }
    }
    sessions().clear();
}

void refresh_pvar_categories(Catalog &c)
{
    static size_t placed = 0;
    std::vector<PvarDef> &defs = pvar_defs();
    for (; placed < defs.size(); ++placed) {
        const std::string &name = defs[placed].category;
        const size_t split = name.find('_');
        const int parent = split == std::string::npos ? -1 : category_for(c, name.substr(0, split), "", -1);
        const int cat = category_for(c, name, "", parent);
        c.categories[static_cast<size_t>(cat)].pvars.push_back(static_cast<int>(placed));
        ++c.changed;
    }
}

} // namespace tessera::ompi::tool

namespace tessera::ompi::native {

using namespace tool;

int t_pvar_get_num(int *num_pvar)
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    if (int rc = require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    if (num_pvar == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    refresh_catalog(s);
    *num_pvar = static_cast<int>(pvar_defs().size());
    return MPI_SUCCESS;
}

int t_pvar_get_info(int pvar_index, char *name, int *name_len, int *verbosity, int *var_class, MPI_Datatype *datatype,
                    MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *readonly, int *continuous,
                    int *atomic)
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    if (int rc = require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    refresh_catalog(s);
    if (pvar_index < 0 || static_cast<size_t>(pvar_index) >= pvar_defs().size()) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    const PvarDef &d = pvar_defs()[static_cast<size_t>(pvar_index)];
    string_out(d.name, name, name_len);
    string_out(d.desc, desc, desc_len);
    const std::pair<int *, int> ints[] = {{verbosity, d.verbosity},  {var_class, d.var_class},
                                          {bind, d.bind},            {readonly, d.readonly ? 1 : 0},
                                          {continuous, d.continuous ? 1 : 0}, {atomic, 0}};
    for (const auto &[out, value] : ints) {
        if (out != nullptr) {
            *out = value;
        }
    }
    if (datatype != nullptr) {
        *datatype = d.datatype;
    }
    if (enumtype != nullptr) {
        *enumtype = d.enumtype != nullptr ? reinterpret_cast<MPI_T_enum>(d.enumtype) : MPI_T_ENUM_NULL;
    }
    return MPI_SUCCESS;
}

int t_pvar_get_index(const char *name, int var_class, int *pvar_index)
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    if (int rc = require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    if (name == nullptr || pvar_index == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    refresh_catalog(s);
    const std::vector<PvarDef> &defs = pvar_defs();
    for (size_t i = 0; i < defs.size(); ++i) {
        if (defs[i].name == name && defs[i].var_class == var_class) {
            *pvar_index = static_cast<int>(i);
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}

int t_pvar_session_create(MPI_T_pvar_session *session)
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    if (int rc = require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    if (session == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    try {
        sessions().push_back(std::make_unique<Session>());
    } catch (const std::bad_alloc &) {
        return MPI_T_ERR_OUT_OF_SESSIONS;
    }
    *session = reinterpret_cast<MPI_T_pvar_session>(sessions().back().get());
    return MPI_SUCCESS;
}

int t_pvar_session_free(MPI_T_pvar_session *session)
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    if (int rc = require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    if (session == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    Session *ses = session_of(*session);
    if (ses == nullptr) {
        return MPI_T_ERR_INVALID_SESSION;
    }
    while (!ses->handles.empty()) {
        free_handle(*ses, ses->handles.back().get());
    }
    std::erase_if(sessions(), [ses](const std::unique_ptr<Session> &p) { return p.get() == ses; });
    *session = MPI_T_PVAR_SESSION_NULL;
    return MPI_SUCCESS;
}

int t_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void *obj_handle, MPI_T_pvar_handle *handle,
                        int *count)
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    if (int rc = require_init(s); rc != MPI_SUCCESS) {
        return rc;
    }
    Session *ses = session_of(session);
    if (ses == nullptr) {
        return MPI_T_ERR_INVALID_SESSION;
    }
    if (handle == nullptr || count == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    refresh_catalog(s);
    if (pvar_index < 0 || static_cast<size_t>(pvar_index) >= pvar_defs().size()) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    const PvarDef &d = pvar_defs()[static_cast<size_t>(pvar_index)];
    MPI_Comm comm = MPI_COMM_NULL;
    if (d.bind == MPI_T_BIND_MPI_COMM) {
        if (obj_handle == nullptr || *static_cast<MPI_Comm *>(obj_handle) == MPI_COMM_NULL) {
            return MPI_T_ERR_INVALID;
        }
        comm = *static_cast<MPI_Comm *>(obj_handle);
    }
    const int n = pvar_count(d);
    if (n <= 0) {
        return MPI_T_ERR_NOT_ACCESSIBLE; /* a per-rank pvar before MPI_Init: no ranks yet */
    }
    auto h = std::make_unique<PvarHandle>(PvarHandle{ses, pvar_index, n, comm, false, {}, {}});
    h->accum.assign(static_cast<size_t>(n), 0);
    std::vector<uint64_t> probe;
    if (int rc = pvar_raw(d, comm, probe); rc != MPI_SUCCESS) {
        return rc == MPI_T_ERR_INVALID_HANDLE ? MPI_T_ERR_INVALID : rc; /* not a communicator */
    }
    ses->handles.push_back(std::move(h));
    *handle = reinterpret_cast<MPI_T_pvar_handle>(ses->handles.back().get());
    *count = n;
    return MPI_SUCCESS;
}

int t_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle *handle)
{
    State &st = state();
    std::lock_guard lock(st.mutex);
    if (handle == nullptr) {
        return require_init(st) != MPI_SUCCESS ? MPI_T_ERR_NOT_INITIALIZED : MPI_T_ERR_INVALID;
    }
    Session *s = nullptr;
    PvarHandle *h = nullptr;
    if (int rc = lookup(st, session, *handle, false, &s, &h); rc != MPI_SUCCESS) {
        return rc;
    }
    free_handle(*s, h);
    *handle = MPI_T_PVAR_HANDLE_NULL;
    return MPI_SUCCESS;
}

int t_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return on_handles(session, handle, [](PvarHandle &h) { return start(h); });
}

int t_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return on_handles(session, handle, [](PvarHandle &h) { return stop(h); });
}

int t_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle)
{
    return on_handles(session, handle, [](PvarHandle &h) {
        return set_value(h, std::vector<uint64_t>(static_cast<size_t>(h.count), 0));
    });
}

int t_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    State &st = state();
    std::lock_guard lock(st.mutex);
    Session *s = nullptr;
    PvarHandle *h = nullptr;
    if (int rc = lookup(st, session, handle, false, &s, &h); rc != MPI_SUCCESS) {
        return rc;
    }
    if (buf == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    std::vector<uint64_t> values;
    if (int rc = value_of(*h, values); rc != MPI_SUCCESS) {
        return rc;
    }
    store_out(def_of(*h), values, buf);
    return MPI_SUCCESS;
}

int t_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void *buf)
{
    State &st = state();
    std::lock_guard lock(st.mutex);
    Session *s = nullptr;
    PvarHandle *h = nullptr;
    if (int rc = lookup(st, session, handle, false, &s, &h); rc != MPI_SUCCESS) {
        return rc;
    }
    if (buf == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    if (def_of(*h).readonly) {
        return MPI_T_ERR_PVAR_NO_WRITE;
    }
    std::vector<uint64_t> values;
    if (int rc = value_of(*h, values); rc != MPI_SUCCESS) {
        return rc;
    }
    store_out(def_of(*h), values, buf);
    return set_value(*h, std::vector<uint64_t>(static_cast<size_t>(h->count), 0));
}

int t_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void *buf)
{
    State &st = state();
    std::lock_guard lock(st.mutex);
    Session *s = nullptr;
    PvarHandle *h = nullptr;
    if (int rc = lookup(st, session, handle, false, &s, &h); rc != MPI_SUCCESS) {
        return rc;
    }
    if (buf == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    const PvarDef &d = def_of(*h);
    std::vector<uint64_t> values(static_cast<size_t>(h->count));
    for (size_t i = 0; i < values.size(); ++i) {
        values[i] = is_timer_ns(d) ? static_cast<uint64_t>(static_cast<const double *>(buf)[i] * 1e9)
                                   : static_cast<const unsigned long long *>(buf)[i];
    }
    return set_value(*h, values);
}

} // namespace tessera::ompi::native
