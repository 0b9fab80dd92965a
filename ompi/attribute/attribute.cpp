#include "ompi/attribute/attribute.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "ompi/attribute/predefined_attributes.h"

namespace tessera::ompi {

namespace {

/* The ABI's predefined callbacks (MPI_COMM_NULL_COPY_FN = 0, MPI_COMM_DUP_FN = 1, ...). */
constexpr std::uintptr_t kNullFn = 0;
constexpr std::uintptr_t kDupFn = 1;
/* Keyvals the application makes start above every predefined one (MPI_WIN_MODEL is 605). */
constexpr int kFirstUserKeyval = 1024;

struct Keyval {
    AttrKind kind;
    void (*copy)();
    void (*del)();
    void *extra_state;
    bool freed = false; /* the application's handle is gone */
    int uses = 0;       /* attributes set under it */
};

struct Entry {
    int keyval;
    void *value;
};

using ObjectKey = std::pair<AttrKind, const void *>;

std::mutex lock;
std::map<int, Keyval> keyvals;
std::map<ObjectKey, std::vector<Entry>> store; /* each object's attributes, in the order they were set */
int next_keyval = kFirstUserKeyval;

std::string key_text(int keyval)
{
    const char *name = predefined_keyval_name(keyval);
    return name != nullptr ? name : "keyval " + std::to_string(keyval);
}

/* Whether a freed keyval may still be named: to set, get and delete attributes while some remain under
 * it (MPI-4.1 7.7.2: the key lives on until its last attribute is deleted; Open MPI and MPICH agree), but
 * never to free it again. */
enum class Freed : bool { Refused, Allowed };

/* The keyval as the application may use it (lock held): it exists, is of `kind`, and is not freed unless
 * `freed` allows it. */
Keyval *usable(AttrKind kind, int keyval, std::string *error, Freed freed = Freed::Allowed)
{
    const auto it = keyvals.find(keyval);
    if (it == keyvals.end() || (it->second.freed && freed == Freed::Refused)) {
        *error = keyval == MPI_KEYVAL_INVALID ? "the keyval is MPI_KEYVAL_INVALID"
                                              : key_text(keyval) + (it == keyvals.end() ? " was never created or is gone"
                                                                                         : " was freed");
        return nullptr;
    }
    if (it->second.kind != kind) {
        *error = key_text(keyval) + " is a " + attr_kind_name(it->second.kind) + " key, not a " +
                 attr_kind_name(kind) + " key";
        return nullptr;
    }
    return &it->second;
}

/* Refuses the predefined keys, which the application may only read. */
bool changeable(int keyval, const char *what, std::string *error)
{
    if (predefined_keyval_name(keyval) != nullptr) {
        *error = key_text(keyval) + " is predefined: it cannot be " + what;
        return false;
    }
    return true;
}

std::vector<Entry> *entries_of(AttrKind kind, const void *object)
{
    const auto it = store.find({kind, object});
    return it != store.end() ? &it->second : nullptr;
}

Entry *find_entry(AttrKind kind, const void *object, int keyval)
{
    std::vector<Entry> *list = entries_of(kind, object);
    if (list == nullptr) {
        return nullptr;
    }
    for (Entry &e : *list) {
        if (e.keyval == keyval) {
            return &e;
        }
    }
    return nullptr;
}

/* Drops one use of a keyval (lock held): a freed key goes with its last attribute. */
void release_use(int keyval)
{
    const auto it = keyvals.find(keyval);
    if (it != keyvals.end() && --it->second.uses == 0 && it->second.freed) {
        keyvals.erase(it);
    }
}

/* Removes the attribute under `keyval` from `object` (lock held), if it is still there. */
void remove_entry(AttrKind kind, const void *object, int keyval)
{
    std::vector<Entry> *list = entries_of(kind, object);
    if (list == nullptr) {
        return;
    }
    for (auto it = list->begin(); it != list->end(); ++it) {
        if (it->keyval == keyval) {
            list->erase(it);
            release_use(keyval);
            break;
        }
    }
    if (list->empty()) {
        store.erase({kind, object});
    }
}

/* Adds or replaces the attribute (lock held), the newest last. */
void put_entry(AttrKind kind, const void *object, int keyval, void *value)
{
    std::vector<Entry> &list = store[{kind, object}];
    for (auto it = list.begin(); it != list.end(); ++it) {
        if (it->keyval == keyval) {
            list.erase(it);
            list.push_back({keyval, value});
            return;
        }
    }
    list.push_back({keyval, value});
    ++keyvals.at(keyval).uses;
}

/* The callbacks, called as their kind's types (MPI-4.1 7.7.2, 7.7.4, 12.2.6), with the object's handle. */
int run_delete(AttrKind kind, const Keyval &k, const void *object, int keyval, void *value)
{
    if (reinterpret_cast<std::uintptr_t>(k.del) == kNullFn) {
        return MPI_SUCCESS;
    }
    switch (kind) {
    case AttrKind::Type:
        return reinterpret_cast<MPI_Type_delete_attr_function *>(k.del)(
            static_cast<MPI_Datatype>(const_cast<void *>(object)), keyval, value, k.extra_state);
    case AttrKind::Win:
        return reinterpret_cast<MPI_Win_delete_attr_function *>(k.del)(static_cast<MPI_Win>(const_cast<void *>(object)),
                                                                        keyval, value, k.extra_state);
    case AttrKind::Comm:
        break;
    }
    return reinterpret_cast<MPI_Comm_delete_attr_function *>(k.del)(static_cast<MPI_Comm>(const_cast<void *>(object)),
                                                                     keyval, value, k.extra_state);
}

int run_copy(AttrKind kind, const Keyval &k, const void *object, int keyval, void *in, void **out, int *flag)
{
    *flag = 0;
    const auto fn = reinterpret_cast<std::uintptr_t>(k.copy);
    if (fn == kNullFn) {
        return MPI_SUCCESS;
    }
    if (fn == kDupFn) {
        *out = in;
        *flag = 1;
        return MPI_SUCCESS;
    }
    switch (kind) {
    case AttrKind::Type:
        return reinterpret_cast<MPI_Type_copy_attr_function *>(k.copy)(
            static_cast<MPI_Datatype>(const_cast<void *>(object)), keyval, k.extra_state, in, out, flag);
    case AttrKind::Win:
        return reinterpret_cast<MPI_Win_copy_attr_function *>(k.copy)(static_cast<MPI_Win>(const_cast<void *>(object)),
                                                                       keyval, k.extra_state, in, out, flag);
    case AttrKind::Comm:
        break;
    }
    return reinterpret_cast<MPI_Comm_copy_attr_function *>(k.copy)(static_cast<MPI_Comm>(const_cast<void *>(object)),
                                                                   keyval, k.extra_state, in, out, flag);
}

std::string callback_failed(const char *which, int keyval, int rc)
{
    return std::string("the ") + which + " callback of " + key_text(keyval) + " returned error code " +
           std::to_string(rc);
}

} // namespace

const char *attr_kind_name(AttrKind kind)
{
    switch (kind) {
    case AttrKind::Type:
        return "datatype";
    case AttrKind::Win:
        return "window";
    case AttrKind::Comm:
        break;
    }
    return "communicator";
}

int keyval_create(AttrKind kind, void (*copy)(), void (*del)(), void *extra_state)
{
    std::lock_guard<std::mutex> g(lock);
    const int id = next_keyval++;
    keyvals.emplace(id, Keyval{kind, copy, del, extra_state});
    return id;
}

int keyval_free(AttrKind kind, int keyval, std::string *error)
{
    std::lock_guard<std::mutex> g(lock);
    if (!changeable(keyval, "freed", error)) {
        return MPI_ERR_KEYVAL;
    }
    Keyval *k = usable(kind, keyval, error, Freed::Refused);
    if (k == nullptr) {
        return MPI_ERR_KEYVAL;
    }
    k->freed = true;
    if (k->uses == 0) {
        keyvals.erase(keyval);
    }
    return MPI_SUCCESS;
}

int attr_set(AttrKind kind, const void *object, int keyval, void *value, std::string *error)
{
    Keyval k{};
    void *old = nullptr;
    bool replacing = false;
    {
        std::lock_guard<std::mutex> g(lock);
        if (!changeable(keyval, "set", error)) {
            return MPI_ERR_KEYVAL;
        }
        const Keyval *found = usable(kind, keyval, error);
        if (found == nullptr) {
            return MPI_ERR_KEYVAL;
        }
        k = *found;
        if (const Entry *e = find_entry(kind, object, keyval)) {
            old = e->value;
            replacing = true;
        }
    }
    /* MPI-4.1 7.7.4: as if the old value were deleted first. */
    if (replacing) {
        if (int rc = run_delete(kind, k, object, keyval, old); rc != MPI_SUCCESS) {
            *error = callback_failed("delete", keyval, rc);
            return rc;
        }
    }
    std::lock_guard<std::mutex> g(lock);
    if (usable(kind, keyval, error) == nullptr) { /* gone while the delete callback ran */
        return MPI_ERR_KEYVAL;
    }
    put_entry(kind, object, keyval, value);
    return MPI_SUCCESS;
}

int attr_get(AttrKind kind, const void *object, int keyval, void **value, int *flag, std::string *error)
{
    *flag = 0;
    if (const char *name = predefined_keyval_name(keyval)) {
        if (predefined_keyval_kind(keyval) != kind) {
            *error = std::string(name) + " is a " + attr_kind_name(predefined_keyval_kind(keyval)) + " key, not a " +
                     attr_kind_name(kind) + " key";
            return MPI_ERR_KEYVAL;
        }
        /* Windows keep their own (with the window calls); no other predefined key lacks a value. */
        const int *v = kind == AttrKind::Comm ? predefined_comm_attribute(keyval) : nullptr;
        if (v != nullptr) {
            *value = const_cast<int *>(v);
            *flag = 1;
        }
        return MPI_SUCCESS;
    }
    std::lock_guard<std::mutex> g(lock);
    if (usable(kind, keyval, error) == nullptr) {
        return MPI_ERR_KEYVAL;
    }
    if (const Entry *e = find_entry(kind, object, keyval)) {
        *value = e->value;
        *flag = 1;
    }
    return MPI_SUCCESS;
}

int attr_delete(AttrKind kind, const void *object, int keyval, std::string *error)
{
    Keyval k{};
    void *value = nullptr;
    {
        std::lock_guard<std::mutex> g(lock);
        if (!changeable(keyval, "deleted", error)) {
            return MPI_ERR_KEYVAL;
        }
        const Keyval *found = usable(kind, keyval, error);
        if (found == nullptr) {
            return MPI_ERR_KEYVAL;
        }
        const Entry *e = find_entry(kind, object, keyval);
        if (e == nullptr) {
            return MPI_SUCCESS; /* nothing to delete */
        }
        k = *found;
        value = e->value;
    }
    if (int rc = run_delete(kind, k, object, keyval, value); rc != MPI_SUCCESS) {
        *error = callback_failed("delete", keyval, rc);
        return rc;
    }
    std::lock_guard<std::mutex> g(lock);
    remove_entry(kind, object, keyval);
    return MPI_SUCCESS;
}

int attr_copy_all(AttrKind kind, const void *from, const void *to, std::string *error)
{
    std::vector<std::pair<Entry, Keyval>> snapshot;
    {
        std::lock_guard<std::mutex> g(lock);
        if (const std::vector<Entry> *list = entries_of(kind, from)) {
            for (const Entry &e : *list) {
                snapshot.emplace_back(e, keyvals.at(e.keyval));
            }
        }
    }
    for (const auto &[e, k] : snapshot) {
        void *copy = nullptr;
        int flag = 0;
        if (int rc = run_copy(kind, k, from, e.keyval, e.value, &copy, &flag); rc != MPI_SUCCESS) {
            *error = callback_failed("copy", e.keyval, rc);
            std::string ignored;
            attr_delete_all(kind, to, &ignored);
            return rc;
        }
        if (flag != 0) {
            std::lock_guard<std::mutex> g(lock);
            if (keyvals.contains(e.keyval)) {
                put_entry(kind, to, e.keyval, copy);
            }
        }
    }
    return MPI_SUCCESS;
}

int attr_delete_all(AttrKind kind, const void *object, std::string *error)
{
    for (;;) {
        Entry last{};
        Keyval k{};
        {
            std::lock_guard<std::mutex> g(lock);
            const std::vector<Entry> *list = entries_of(kind, object);
            if (list == nullptr || list->empty()) {
                return MPI_SUCCESS;
            }
            last = list->back();
            k = keyvals.at(last.keyval);
        }
        if (int rc = run_delete(kind, k, object, last.keyval, last.value); rc != MPI_SUCCESS) {
            *error = callback_failed("delete", last.keyval, rc);
            return rc;
        }
        std::lock_guard<std::mutex> g(lock);
        remove_entry(kind, object, last.keyval);
    }
}

std::size_t keyval_count()
{
    std::lock_guard<std::mutex> g(lock);
    return keyvals.size();
}

} // namespace tessera::ompi
