#include "ompi/info/info.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>

#include "ompi/runtime/user_handle.h"

namespace tessera::ompi {

namespace {

Info env_info;
std::once_flag env_filled;

} // namespace

void InfoEntries::set(std::string_view key, std::string_view value)
{
    for (auto &[k, v] : entries_) {
        if (k == key) {
            v = value;
            return;
        }
    }
    entries_.emplace_back(key, value);
}

void InfoEntries::merge(const InfoEntries &other)
{
    for (const auto &[key, value] : other.entries_) {
        set(key, value);
    }
}

bool InfoEntries::erase(std::string_view key)
{
    const auto it = std::find_if(entries_.begin(), entries_.end(), [&](const auto &e) { return e.first == key; });
    if (it == entries_.end()) {
        return false;
    }
    entries_.erase(it);
    return true;
}

const std::string *InfoEntries::find(std::string_view key) const
{
    for (const auto &[k, v] : entries_) {
        if (k == key) {
            return &v;
        }
    }
    return nullptr;
}

Info *info_env()
{
    std::call_once(env_filled, [] { env_info.entries = info_env_entries(nullptr); });
    return &env_info;
}

void info_env_refresh()
{
    info_env();
    env_info.entries = info_env_entries(nullptr);
}

Info *info_lookup(MPI_Info handle)
{
    if (handle == MPI_INFO_ENV) {
        return info_env();
    }
    return user_object<Info>(handle);
}

MPI_Info info_handle(const Info *info)
{
    if (info == &env_info) {
        return MPI_INFO_ENV;
    }
    return user_handle<MPI_Info>(info);
}

MPI_Info info_create(InfoEntries entries)
{
    auto info = std::make_unique<Info>();
    info->entries = std::move(entries);
    return info_handle(info.release());
}

void info_destroy(Info *info)
{
    if (info == &env_info) {
        return;
    }
    delete info;
}

int info_check_key(const char *key, std::string *error)
{
    if (key == nullptr) {
        *error = "the key is NULL";
        return MPI_ERR_INFO_KEY;
    }
    const std::size_t n = std::strlen(key);
    if (n == 0) {
        *error = "the key is empty";
        return MPI_ERR_INFO_KEY;
    }
    if (n > MPI_MAX_INFO_KEY - 1) {
        *error = "the key '" + std::string(key, 40) + "...' has " + std::to_string(n) +
                 " characters; at most MPI_MAX_INFO_KEY - 1 = " + std::to_string(MPI_MAX_INFO_KEY - 1) + " are allowed";
        return MPI_ERR_INFO_KEY;
    }
    return MPI_SUCCESS;
}

int info_check_value(const char *value, std::string *error)
{
    if (value == nullptr) {
        *error = "the value is NULL";
        return MPI_ERR_INFO_VALUE;
    }
    const std::size_t n = std::strlen(value);
    if (n > MPI_MAX_INFO_VAL) {
        *error = "the value '" + std::string(value, 40) + "...' has " + std::to_string(n) +
                 " characters; at most MPI_MAX_INFO_VAL = " + std::to_string(MPI_MAX_INFO_VAL) + " are allowed";
        return MPI_ERR_INFO_VALUE;
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi
