/*
 * The error classes and codes the application adds (MPI-4.1 9.5: MPI_Add_error_class/_code/_string,
 * MPI-4.1's MPI_Remove_error_*). They share one numbering above MPI_ERR_LASTCODE, each new value one
 * above the largest in use, which MPI_LASTUSEDCODE (an attribute of MPI_COMM_WORLD) follows. A class is
 * its own class; a code belongs to the class it was added to. Safe to call from any thread.
 */
#ifndef TESSERA_OMPI_ERRHANDLER_USER_ERRORS_H
#define TESSERA_OMPI_ERRHANDLER_USER_ERRORS_H

#include <optional>
#include <string>

namespace tessera::ompi {

struct UserError {
    int error_class; /* the value itself for a class */
    bool is_class;
    std::string text; /* "" until MPI_Add_error_string */
};

/* Each returns MPI_SUCCESS or an error class, with *error saying what is wrong. */
int user_error_add_class(int *errorclass);
int user_error_add_code(int errorclass, int *errorcode, std::string *error);
int user_error_set_string(int code, const char *text, std::string *error);
int user_error_remove_class(int errorclass, std::string *error);
int user_error_remove_code(int errorcode, std::string *error);
int user_error_remove_string(int code, std::string *error);

/* The user class or code `code`, if it is one. */
std::optional<UserError> user_error_find(int code);

/* The largest error code or class in use (MPI_LASTUSEDCODE): where MPI_Comm_get_attr points. */
const int *last_used_code();

} // namespace tessera::ompi

#endif
