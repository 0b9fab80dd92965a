/*
 * The error classes of the MPI 5.0 ABI (MPI_SUCCESS, MPI_ERR_*, MPI_T_ERR_*; values from
 * ompi/api/constants.tsv) with a name and a text saying what went wrong. Every error code Tessera
 * returns is one of these classes; the application adds its own above MPI_ERR_LASTCODE
 * (user_errors.h).
 */
#ifndef TESSERA_OMPI_ERRHANDLER_ERROR_CLASSES_H
#define TESSERA_OMPI_ERRHANDLER_ERROR_CLASSES_H

#include <span>
#include <string>

namespace tessera::ompi {

struct ErrorClass {
    int code;
    const char *name; /* "MPI_ERR_COMM" */
    const char *text; /* "invalid communicator: ..." */
};

/* Every class, MPI_SUCCESS first. */
std::span<const ErrorClass> error_classes();

/* The class of a code, or nullptr when the code is no error code of this library. */
const ErrorClass *find_error_class(int code);

/* "MPI_ERR_COMM", "error code 16385 of class 16384 (user-defined)" or "unknown error code 1234". */
std::string error_name(int code);

/* The class of a predefined or user-defined code; an unknown code is its own. */
int error_class_of(int code);

} // namespace tessera::ompi

#endif
