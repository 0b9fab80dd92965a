#include "ompi/errhandler/user_errors.h"

#include <climits>
#include <cstring>
#include <map>
#include <mutex>

#include <mpi.h>

#include "ompi/errhandler/error_classes.h"

namespace tessera::ompi {

namespace {

std::mutex lock;
std::map<int, UserError> errors; /* by value */
int last_used = MPI_ERR_LASTCODE;

/* The next value, or 0 when the numbering is exhausted. */
int next_value()
{
    return last_used == INT_MAX ? 0 : last_used + 1;
}

void update_last_used()
{
    last_used = errors.empty() ? MPI_ERR_LASTCODE : errors.rbegin()->first;
}

std::string describe(int code)
{
    return std::to_string(code) + (find_error_class(code) != nullptr ? std::string(" (") + find_error_class(code)->name + ")" : "");
}

/* The user entry of `code`, or nullptr with *error saying why it is none. */
UserError *user_entry(int code, const char *what, std::string *error)
{
    const auto it = errors.find(code);
    if (it == errors.end()) {
        *error = std::string(what) + " " + describe(code) +
                 (find_error_class(code) != nullptr ? " is predefined, not added by the application"
                                                    : " is no error code or class added by MPI_Add_error_*");
        return nullptr;
    }
    return &it->second;
}

} // namespace

int user_error_add_class(int *errorclass)
{
    std::lock_guard<std::mutex> g(lock);
    const int v = next_value();
    if (v == 0) {
        return MPI_ERR_OTHER;
    }
    errors[v] = UserError{v, true, ""};
    last_used = v;
    *errorclass = v;
    return MPI_SUCCESS;
}

int user_error_add_code(int errorclass, int *errorcode, std::string *error)
{
    std::lock_guard<std::mutex> g(lock);
    const auto it = errors.find(errorclass);
    const bool user_class = it != errors.end() && it->second.is_class;
    if (!user_class && (find_error_class(errorclass) == nullptr || errorclass == MPI_SUCCESS)) {
        *error = "errorclass " + describe(errorclass) +
                 (it != errors.end() ? " is an error code, not a class"
                  : errorclass == MPI_SUCCESS ? " is no error class" : " is not an error class");
        return MPI_ERR_ARG;
    }
    const int v = next_value();
    if (v == 0) {
        *error = "every error code value is in use";
        return MPI_ERR_OTHER;
    }
    errors[v] = UserError{errorclass, false, ""};
    last_used = v;
    *errorcode = v;
    return MPI_SUCCESS;
}

int user_error_set_string(int code, const char *text, std::string *error)
{
    if (text == nullptr) {
        *error = "the string is NULL";
        return MPI_ERR_ARG;
    }
    const std::size_t n = std::strlen(text);
    if (n > MPI_MAX_ERROR_STRING - 1) {
        *error = "the string has " + std::to_string(n) + " characters; at most MPI_MAX_ERROR_STRING - 1 = " +
                 std::to_string(MPI_MAX_ERROR_STRING - 1) + " are allowed";
        return MPI_ERR_ARG;
    }
    std::lock_guard<std::mutex> g(lock);
    UserError *e = user_entry(code, "errorcode", error);
    if (e == nullptr) {
        return MPI_ERR_ARG;
    }
    e->text.assign(text, n);
    return MPI_SUCCESS;
}

/* MPI-4.1 9.5: a class that still has codes cannot go. */
int user_error_remove_class(int errorclass, std::string *error)
{
    std::lock_guard<std::mutex> g(lock);
    const UserError *e = user_entry(errorclass, "errorclass", error);
    if (e == nullptr) {
        return MPI_ERR_ARG;
    }
    if (!e->is_class) {
        *error = "errorclass " + std::to_string(errorclass) + " is an error code (use MPI_Remove_error_code)";
        return MPI_ERR_ARG;
    }
    int codes = 0;
    for (const auto &[value, other] : errors) {
        codes += !other.is_class && other.error_class == errorclass;
    }
    if (codes > 0) {
        *error = "error class " + std::to_string(errorclass) + " still has " + std::to_string(codes) +
                 " error code" + (codes == 1 ? "" : "s") + " (remove them first)";
        return MPI_ERR_ARG;
    }
    errors.erase(errorclass);
    update_last_used();
    return MPI_SUCCESS;
}

int user_error_remove_code(int errorcode, std::string *error)
{
    std::lock_guard<std::mutex> g(lock);
    const UserError *e = user_entry(errorcode, "errorcode", error);
    if (e == nullptr) {
        return MPI_ERR_ARG;
    }
    if (e->is_class) {
        *error = "errorcode " + std::to_string(errorcode) + " is an error class (use MPI_Remove_error_class)";
        return MPI_ERR_ARG;
    }
    errors.erase(errorcode);
    update_last_used();
    return MPI_SUCCESS;
}

int user_error_remove_string(int code, std::string *error)
{
    std::lock_guard<std::mutex> g(lock);
    UserError *e = user_entry(code, "errorcode", error);
    if (e == nullptr) {
        return MPI_ERR_ARG;
    }
    e->text.clear();
    return MPI_SUCCESS;
}

std::optional<UserError> user_error_find(int code)
{
    if (code <= MPI_ERR_LASTCODE) {
        return std::nullopt;
    }
    std::lock_guard<std::mutex> g(lock);
    const auto it = errors.find(code);
    if (it == errors.end()) {
        return std::nullopt;
    }
    return it->second;
}

const int *last_used_code()
{
    return &last_used;
}

} // namespace tessera::ompi
