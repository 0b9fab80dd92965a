/*
 * Events (MPI-4.1 15.3.8): a message that arrives before its receive (pml_unexpected_message) and a
 * datatype compiled by the JIT (dte_jit_compiled), from the one source of mpit_source.cpp.
 *
 * Delivery is immediate, in the thread where the event happens, under one mutex that is also where the
 * timestamp is taken: callbacks see events in the order of their timestamps, one at a time. The engine
 * then holds its own locks (matching) or is the JIT's thread, so the safety the context gives is
 * MPI_T_CB_REQUIRE_MPI_RESTRICTED (THREAD_SAFE when several threads run MPI, and always for the JIT's
 * thread): a registration gets the callback it registered for the least restrictive level the context
 * allows; with none such the event is dropped for it and counted, and its dropped handler hears of the
 * count before its next delivery. In a callback only the MPI_T_event_* calls on the instance are
 * allowed (read, copy, get_timestamp, get_source): they take no lock.
 */
#include <array>
#include <cstring>
#include <list>
#include <memory>

#include "ompi/runtime/native_api.h"
#include "ompi/tool/mpit.h"
#include "ompi/tool/mpit_feed.h"
#include "opal/threads.h"

namespace tessera::ompi::tool {

namespace {

struct EventDef {
    const char *name;
    const char *desc;
    const char *category;
    int level;
    std::vector<MPI_Datatype> types;
    std::vector<MPI_Aint> displacements;
    std::size_t size;
};

struct UnexpectedData {
    int context;
    int source;
    int tag;
    unsigned long bytes;
};

struct JitData {
    double seconds;
    unsigned long bytes;
};

enum EventIndex { kUnexpected, kJitCompiled };

const std::vector<EventDef> &event_defs()
{
    static const std::vector<EventDef> defs = {
        {"pml_unexpected_message",
         "A point-to-point message arrived before a matching receive was posted and went to the unexpected "
         "queue. Elements: the communicator's context id (MPI_INT), the source rank in it (MPI_INT), the tag "
         "(MPI_INT), the message's bytes (MPI_UNSIGNED_LONG)",
         "pml", 4, {MPI_INT, MPI_INT, MPI_INT, MPI_UNSIGNED_LONG},
         {offsetof(UnexpectedData, context), offsetof(UnexpectedData, source), offsetof(UnexpectedData, tag),
          offsetof(UnexpectedData, bytes)},
         sizeof(UnexpectedData)},
        {"dte_jit_compiled",
         "The JIT finished compiling a datatype's pack and unpack. Elements: seconds it took (MPI_DOUBLE), "
         "the bytes of one element of the type (MPI_UNSIGNED_LONG)",
         "dte_jit", 5, {MPI_DOUBLE, MPI_UNSIGNED_LONG}, {offsetof(JitData, seconds), offsetof(JitData, bytes)},
         sizeof(JitData)},
    };
    return defs;
}

constexpr int kSafetyLevels[] = {MPI_T_CB_REQUIRE_NONE, MPI_T_CB_REQUIRE_MPI_RESTRICTED,
                                 MPI_T_CB_REQUIRE_THREAD_SAFE, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE};

int safety_slot(int cb_safety)
{
    for (int i = 0; i < 4; ++i) {
        if (kSafetyLevels[i] == cb_safety) {
            return i;
        }
    }
    return -1;
}

struct Callback {
    MPI_T_event_cb_function *fn = nullptr;
    void *user_data = nullptr;
};

struct Registration {
    int event;
    std::array<Callback, 4> callbacks{};
    MPI_T_event_dropped_cb_function *dropped_fn = nullptr;
    MPI_Count dropped = 0;
    bool freed = false;
};

struct Instance {
    int event;
    MPI_Count timestamp;
    const void *data;
};

struct Events {
    std::recursive_mutex mutex; /* delivery; a callback may free its registration */
    std::list<std::shared_ptr<Registration>> registrations;
};

Events &events()
{
    static Events e;
    return e;
}

/* The instance being delivered in this thread: the only valid MPI_T_event_instance. */
thread_local const Instance *current = nullptr;

Registration *registration_of(MPI_T_event_registration h)
{
    for (auto &r : events().registrations) {
        if (reinterpret_cast<MPI_T_event_registration>(r.get()) == h) {
            return r.get();
        }
    }
    return nullptr;
}

const Instance *instance_of(MPI_T_event_instance h)
{
    return current != nullptr && reinterpret_cast<MPI_T_event_instance>(const_cast<Instance *>(current)) == h
               ? current
               : nullptr;
}

void raise(int event, const void *data, int required_safety)
{
    Events &e = events();
    std::lock_guard lock(e.mutex);
    const Instance instance{event, timestamp_now(), data};
    std::vector<std::shared_ptr<Registration>> targets;
    for (auto &r : e.registrations) {
        if (r->event == event) {
            targets.push_back(r);
        }
    }
    const Instance *outer = current;
    current = &instance;
    const int first = safety_slot(required_safety);
    for (auto &r : targets) {
        if (r->freed) {
            continue;
        }
        const Callback *cb = nullptr;
        int slot = first;
        for (; slot < 4 && cb == nullptr; ++slot) {
            if (r->callbacks[static_cast<size_t>(slot)].fn != nullptr) {
                cb = &r->callbacks[static_cast<size_t>(slot)];
            }
        }
        if (cb == nullptr) {
            ++r->dropped;
            continue;
        }
        const MPI_T_event_registration handle = reinterpret_cast<MPI_T_event_registration>(r.get());
        if (r->dropped > 0 && r->dropped_fn != nullptr) {
            const MPI_Count n = r->dropped;
            r->dropped = 0;
            r->dropped_fn(n, handle, 0, required_safety, cb->user_data);
        }
        cb->fn(reinterpret_cast<MPI_T_event_instance>(const_cast<Instance *>(&instance)), handle, required_safety,
               cb->user_data);
    }
    current = outer;
}

int check_init()
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    return require_init(s);
}

} // namespace

void raise_unexpected(int context, int source, int tag, std::size_t bytes)
{
    const UnexpectedData data{context, source, tag, bytes};
    raise(kUnexpected, &data, opal::using_threads() ? MPI_T_CB_REQUIRE_THREAD_SAFE : MPI_T_CB_REQUIRE_MPI_RESTRICTED);
}

void raise_jit_compiled(double seconds, std::size_t bytes)
{
    const JitData data{seconds, bytes};
    raise(kJitCompiled, &data, MPI_T_CB_REQUIRE_THREAD_SAFE);
}

void release_event_registrations()
{
    Events &e = events();
    std::lock_guard lock(e.mutex);
    for (auto &r : e.registrations) {
        r->freed = true;
        event_handles.fetch_sub(1, std::memory_order_relaxed);
    }
    e.registrations.clear();
}

/* Under state().mutex, from refresh_catalog. */
void refresh_event_categories(Catalog &c)
{
    static size_t placed = 0;
    const std::vector<EventDef> &defs = event_defs();
    for (; placed < defs.size(); ++placed) {
        const std::string name = defs[placed].category;
        const size_t split = name.find('_');
        const int parent = split == std::string::npos ? -1 : category_for(c, name.substr(0, split), "", -1);
        const int cat = category_for(c, name, "", parent);
        c.categories[static_cast<size_t>(cat)].events.push_back(static_cast<int>(placed));
        ++c.changed;
    }
}

} // namespace tessera::ompi::tool

namespace tessera::ompi::native {

using namespace tool;

int t_event_get_num(int *num_events)
{
    if (int rc = check_init(); rc != MPI_SUCCESS) {
        return rc;
    }
    if (num_events == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    *num_events = static_cast<int>(event_defs().size());
    return MPI_SUCCESS;
}

int t_event_get_info(int event_index, char *name, int *name_len, int *verbosity, MPI_Datatype array_of_datatypes[],
                     MPI_Aint array_of_displacements[], int *num_elements, MPI_T_enum *enumtype, MPI_Info *info,
                     char *desc, int *desc_len, int *bind)
{
    if (int rc = check_init(); rc != MPI_SUCCESS) {
        return rc;
    }
    if (event_index < 0 || static_cast<size_t>(event_index) >= event_defs().size()) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    const EventDef &d = event_defs()[static_cast<size_t>(event_index)];
    string_out(d.name, name, name_len);
    string_out(d.desc, desc, desc_len);
    if (verbosity != nullptr) {
        *verbosity = verbosity_of_level(d.level);
    }
    if (num_elements != nullptr) {
        /* In: room in the arrays (15.3.8); out: how many elements the event has. */
        const size_t room = std::min(static_cast<size_t>(std::max(*num_elements, 0)), d.types.size());
        for (size_t i = 0; i < room; ++i) {
            if (array_of_datatypes != nullptr) {
                array_of_datatypes[i] = d.types[i];
            }
            if (array_of_displacements != nullptr) {
                array_of_displacements[i] = d.displacements[i];
            }
        }
        *num_elements = static_cast<int>(d.types.size());
    }
    if (enumtype != nullptr) {
        *enumtype = MPI_T_ENUM_NULL;
    }
    if (info != nullptr) {
        *info = MPI_INFO_NULL;
    }
    if (bind != nullptr) {
        *bind = MPI_T_BIND_NO_OBJECT;
    }
    return MPI_SUCCESS;
}

int t_event_get_index(const char *name, int *event_index)
{
    if (int rc = check_init(); rc != MPI_SUCCESS) {
        return rc;
    }
    if (name == nullptr || event_index == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    const std::vector<EventDef> &defs = event_defs();
    for (size_t i = 0; i < defs.size(); ++i) {
        if (std::strcmp(defs[i].name, name) == 0) {
            *event_index = static_cast<int>(i);
            return MPI_SUCCESS;
        }
    }
    return MPI_T_ERR_INVALID_NAME;
}

int t_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info, MPI_T_event_registration *event_registration)
{
    (void)obj_handle; /* MPI_T_BIND_NO_OBJECT */
    (void)info;       /* no info keys are defined for these events */
    if (int rc = check_init(); rc != MPI_SUCCESS) {
        return rc;
    }
    if (event_registration == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    if (event_index < 0 || static_cast<size_t>(event_index) >= event_defs().size()) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    Events &e = events();
    std::lock_guard lock(e.mutex);
    e.registrations.push_back(std::make_shared<Registration>(Registration{event_index, {}, nullptr, 0, false}));
    *event_registration = reinterpret_cast<MPI_T_event_registration>(e.registrations.back().get());
    event_handles.fetch_add(1, std::memory_order_relaxed);
    return MPI_SUCCESS;
}

int t_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                        MPI_T_event_free_cb_function free_cb_function)
{
    if (int rc = check_init(); rc != MPI_SUCCESS) {
        return rc;
    }
    Events &e = events();
    std::lock_guard lock(e.mutex);
    Registration *r = registration_of(event_registration);
    if (r == nullptr) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    r->freed = true;
    e.registrations.remove_if([r](const std::shared_ptr<Registration> &p) { return p.get() == r; });
    event_handles.fetch_sub(1, std::memory_order_relaxed);
    if (free_cb_function != nullptr) {
        /* Called here, in the application's thread, outside the engine: nothing is restricted. */
        free_cb_function(event_registration, MPI_T_CB_REQUIRE_NONE, user_data);
    }
    return MPI_SUCCESS;
}

int t_event_register_callback(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info,
                              void *user_data, MPI_T_event_cb_function event_cb_function)
{
    (void)info;
    if (int rc = check_init(); rc != MPI_SUCCESS) {
        return rc;
    }
    const int slot = safety_slot(cb_safety);
    if (slot < 0) {
        return MPI_T_ERR_INVALID;
    }
    Events &e = events();
    std::lock_guard lock(e.mutex);
    Registration *r = registration_of(event_registration);
    if (r == nullptr) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    /* A null function removes the callback of that level (15.3.8). */
    r->callbacks[static_cast<size_t>(slot)] = Callback{event_cb_function, user_data};
    return MPI_SUCCESS;
}

int t_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                MPI_T_event_dropped_cb_function dropped_cb_function)
{
    if (int rc = check_init(); rc != MPI_SUCCESS) {
        return rc;
    }
    Events &e = events();
    std::lock_guard lock(e.mutex);
    Registration *r = registration_of(event_registration);
    if (r == nullptr) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    r->dropped_fn = dropped_cb_function;
    return MPI_SUCCESS;
}

namespace {

/* No info keys are defined: what is used is an empty info object. */
int registration_info(MPI_T_event_registration event_registration, MPI_Info *info_used)
{
    if (int rc = check_init(); rc != MPI_SUCCESS) {
        return rc;
    }
    {
        Events &e = events();
        std::lock_guard lock(e.mutex);
        if (registration_of(event_registration) == nullptr) {
            return MPI_T_ERR_INVALID_HANDLE;
        }
    }
    if (info_used == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    return info_create(info_used) == MPI_SUCCESS ? MPI_SUCCESS : MPI_T_ERR_MEMORY;
}

int registration_exists(MPI_T_event_registration event_registration)
{
    if (int rc = check_init(); rc != MPI_SUCCESS) {
        return rc;
    }
    Events &e = events();
    std::lock_guard lock(e.mutex);
    return registration_of(event_registration) != nullptr ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

} // namespace

int t_event_handle_get_info(MPI_T_event_registration event_registration, MPI_Info *info_used)
{
    return registration_info(event_registration, info_used);
}

int t_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    (void)info;
    return registration_exists(event_registration);
}

int t_event_callback_get_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
                              MPI_Info *info_used)
{
    if (safety_slot(cb_safety) < 0) {
        return MPI_T_ERR_INVALID;
    }
    return registration_info(event_registration, info_used);
}

int t_event_callback_set_info(MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety, MPI_Info info)
{
    (void)info;
    if (safety_slot(cb_safety) < 0) {
        return MPI_T_ERR_INVALID;
    }
    return registration_exists(event_registration);
}

int t_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    const Instance *i = instance_of(event_instance);
    if (i == nullptr) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    const EventDef &d = event_defs()[static_cast<size_t>(i->event)];
    if (element_index < 0 || static_cast<size_t>(element_index) >= d.types.size()) {
        return MPI_T_ERR_INVALID_INDEX;
    }
    if (buffer == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    const size_t k = static_cast<size_t>(element_index);
    const size_t end = k + 1 < d.types.size() ? static_cast<size_t>(d.displacements[k + 1]) : d.size;
    const MPI_Datatype t = d.types[k];
    const size_t len = t == MPI_INT ? sizeof(int) : t == MPI_DOUBLE ? sizeof(double) : sizeof(unsigned long);
    std::memcpy(buffer, static_cast<const char *>(i->data) + d.displacements[k],
                std::min(len, end - static_cast<size_t>(d.displacements[k])));
    return MPI_SUCCESS;
}

int t_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    const Instance *i = instance_of(event_instance);
    if (i == nullptr) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (buffer == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    std::memcpy(buffer, i->data, event_defs()[static_cast<size_t>(i->event)].size);
    return MPI_SUCCESS;
}

int t_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    const Instance *i = instance_of(event_instance);
    if (i == nullptr) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (event_timestamp == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    *event_timestamp = i->timestamp;
    return MPI_SUCCESS;
}

int t_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    const Instance *i = instance_of(event_instance);
    if (i == nullptr) {
        return MPI_T_ERR_INVALID_HANDLE;
    }
    if (source_index == nullptr) {
        return MPI_T_ERR_INVALID;
    }
    *source_index = 0;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
