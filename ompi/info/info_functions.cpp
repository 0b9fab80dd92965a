/* MPI_Info_* (MPI-4.1 10) and MPI_Info_create_env (11.2.3). They name no object, so errors go to
 * MPI_COMM_SELF's handler; none needs MPI_Init (MPI_Info_create_env is meant for before it, and an
 * info object is plain data). */
#include <string>

#include "ompi/errhandler/errhandler.h"
#include "ompi/info/info.h"
#include "ompi/runtime/native_api.h"
#include "ompi/runtime/string_out.h"

namespace tessera::ompi::native {

namespace {

int info_error(const char *function, int code, const std::string &detail)
{
    return raise_on_comm(MPI_COMM_SELF, code, function, detail);
}

/* *out = the object of `handle`; `writable` refuses MPI_INFO_ENV, which the application may read only. */
int info_argument(const char *function, MPI_Info handle, bool writable, Info **out)
{
    *out = info_lookup(handle);
    if (*out == nullptr) {
        return info_error(function, MPI_ERR_INFO,
                          handle == MPI_INFO_NULL ? "the info argument is MPI_INFO_NULL" : "invalid info object");
    }
    if (writable && handle == MPI_INFO_ENV) {
        return info_error(function, MPI_ERR_INFO, "MPI_INFO_ENV is predefined and cannot be changed or freed");
    }
    return MPI_SUCCESS;
}

/* The info object and a valid key: what every lookup by key starts with. */
int info_and_key(const char *function, MPI_Info handle, const char *key, bool writable, Info **out)
{
    if (int rc = info_argument(function, handle, writable, out); rc != MPI_SUCCESS) {
        return rc;
    }
    std::string error;
    if (int rc = info_check_key(key, &error); rc != MPI_SUCCESS) {
        return info_error(function, rc, error);
    }
    return MPI_SUCCESS;
}

} // namespace

int info_create(MPI_Info *info)
{
    *info = tessera::ompi::info_create({});
    return MPI_SUCCESS;
}

int info_create_env(int argc, char *argv[], MPI_Info *info)
{
    (void)argc; /* argv is NULL-terminated, as main's is */
    *info = tessera::ompi::info_create(info_env_entries(argv));
    return MPI_SUCCESS;
}

int info_set(MPI_Info info, const char *key, const char *value)
{
    Info *i = nullptr;
    if (int rc = info_and_key("MPI_Info_set", info, key, true, &i); rc != MPI_SUCCESS) {
        return rc;
    }
    std::string error;
    if (int rc = info_check_value(value, &error); rc != MPI_SUCCESS) {
        return info_error("MPI_Info_set", rc, error + " (key '" + key + "')");
    }
    i->entries.set(key, value);
    return MPI_SUCCESS;
}

int info_delete(MPI_Info info, const char *key)
{
    Info *i = nullptr;
    if (int rc = info_and_key("MPI_Info_delete", info, key, true, &i); rc != MPI_SUCCESS) {
        return rc;
    }
    if (!i->entries.erase(key)) {
        return info_error("MPI_Info_delete", MPI_ERR_INFO_NOKEY, std::string("the info object has no key '") + key + "'");
    }
    return MPI_SUCCESS;
}

/* Deprecated in MPI-4.0: valuelen counts no terminator, so value holds valuelen + 1 bytes. */
int info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    Info *i = nullptr;
    if (int rc = info_and_key("MPI_Info_get", info, key, false, &i); rc != MPI_SUCCESS) {
        return rc;
    }
    if (valuelen < 0) {
        return info_error("MPI_Info_get", MPI_ERR_ARG, "valuelen = " + std::to_string(valuelen) + " is negative");
    }
    const std::string *v = i->entries.find(key);
    *flag = v != nullptr;
    if (v != nullptr) {
        if (value == nullptr) {
            return info_error("MPI_Info_get", MPI_ERR_ARG, "argument 'value' is NULL");
        }
        copy_string_out(*v, value, valuelen + 1);
    }
    return MPI_SUCCESS;
}

int info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    Info *i = nullptr;
    if (int rc = info_and_key("MPI_Info_get_valuelen", info, key, false, &i); rc != MPI_SUCCESS) {
        return rc;
    }
    const std::string *v = i->entries.find(key);
    *flag = v != nullptr;
    if (v != nullptr) {
        *valuelen = static_cast<int>(v->size());
    }
    return MPI_SUCCESS;
}

/* MPI-4.1 10: buflen is the buffer's size on input and the value's size with its terminator on
 * output; a shorter buffer receives the value truncated (and terminated). A missing key changes
 * neither. */
int info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    Info *i = nullptr;
    if (int rc = info_and_key("MPI_Info_get_string", info, key, false, &i); rc != MPI_SUCCESS) {
        return rc;
    }
    if (*buflen < 0) {
        return info_error("MPI_Info_get_string", MPI_ERR_ARG, "*buflen = " + std::to_string(*buflen) + " is negative");
    }
    const std::string *v = i->entries.find(key);
    *flag = v != nullptr;
    if (v == nullptr) {
        return MPI_SUCCESS;
    }
    if (*buflen > 0) {
        if (value == nullptr) {
            return info_error("MPI_Info_get_string", MPI_ERR_ARG,
                              "argument 'value' is NULL with *buflen = " + std::to_string(*buflen));
        }
        copy_string_out(*v, value, *buflen);
    }
    *buflen = static_cast<int>(v->size()) + 1;
    return MPI_SUCCESS;
}

int info_get_nkeys(MPI_Info info, int *nkeys)
{
    Info *i = nullptr;
    if (int rc = info_argument("MPI_Info_get_nkeys", info, false, &i); rc != MPI_SUCCESS) {
        return rc;
    }
    *nkeys = static_cast<int>(i->entries.size());
    return MPI_SUCCESS;
}

int info_get_nthkey(MPI_Info info, int n, char *key)
{
    Info *i = nullptr;
    if (int rc = info_argument("MPI_Info_get_nthkey", info, false, &i); rc != MPI_SUCCESS) {
        return rc;
    }
    if (n < 0 || static_cast<std::size_t>(n) >= i->entries.size()) {
        return info_error("MPI_Info_get_nthkey", MPI_ERR_ARG,
                          "n = " + std::to_string(n) + " is not below the number of keys (" +
                              std::to_string(i->entries.size()) + ")");
    }
    copy_string_out(i->entries.at(static_cast<std::size_t>(n)).first, key, MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
}

int info_dup(MPI_Info info, MPI_Info *newinfo)
{
    Info *i = nullptr;
    if (int rc = info_argument("MPI_Info_dup", info, false, &i); rc != MPI_SUCCESS) {
        return rc;
    }
    *newinfo = tessera::ompi::info_create(i->entries);
    return MPI_SUCCESS;
}

int info_free(MPI_Info *info)
{
    Info *i = nullptr;
    if (int rc = info_argument("MPI_Info_free", *info, true, &i); rc != MPI_SUCCESS) {
        return rc;
    }
    info_destroy(i);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
