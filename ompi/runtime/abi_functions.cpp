/*
 * MPI_Abi_get_version, MPI_Abi_get_info and the Fortran facts (MPI 5.0, the ABI chapter). A loader
 * probes a library with MPI_Abi_get_version before anything else, so these work before MPI_Init and
 * after MPI_Finalize. The Fortran facts are what a Fortran binding layer on the C ABI tells the library
 * (the sizes of its types, the bit patterns of .TRUE. and .FALSE.): kept here as plain values, each
 * settable once, and handed out as new info objects made through the dispatch table.
 */
#include "ompi/runtime/abi_functions.h"

#include <array>
#include <cstring>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

namespace tessera::ompi {

namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

/* The largest Fortran LOGICAL kind there is (LOGICAL*16), and the sizes a LOGICAL may have. */
constexpr int kMaxLogicalSize = 16;

struct Booleans {
    std::array<unsigned char, kMaxLogicalSize> true_bits{};
    std::array<unsigned char, kMaxLogicalSize> false_bits{};
};

struct FortranFacts {
    std::mutex mutex;
    std::optional<Pairs> info;                  /* MPI_Abi_set_fortran_info's keys, once set */
    std::array<std::optional<Booleans>, 5> booleans; /* by log2 of the LOGICAL's size: 1, 2, 4, 8, 16 */
};

FortranFacts &fortran()
{
    static FortranFacts facts;
    return facts;
}

int raise(int code, const char *function, const std::string &detail)
{
    return tessera_mpi_raise(TESSERA_MPI_OBJ_COMM, MPI_COMM_SELF, code, function, detail.c_str());
}

/* log2 of a LOGICAL size the standard allows, or -1. */
int logical_index(int size)
{
    for (int i = 0; i < 5; ++i) {
        if (size == 1 << i) {
            return i;
        }
    }
    return -1;
}

int bad_logical_size(const char *function, int size)
{
    return raise(MPI_ERR_ARG, function,
                 "logical_size " + std::to_string(size) + " is not the size of a Fortran LOGICAL (1, 2, 4, 8 or 16 bytes)");
}

/* A new info object holding `pairs`, made by whatever runtime serves the process. */
int new_info(const char *function, const Pairs &pairs, MPI_Info *info)
{
    *info = MPI_INFO_NULL;
    MPI_Info made = MPI_INFO_NULL;
    if (int rc = PMPI_Info_create(&made); rc != MPI_SUCCESS) {
        return raise(rc, function, "could not create the info object");
    }
    for (const auto &[key, value] : pairs) {
        if (int rc = PMPI_Info_set(made, key.c_str(), value.c_str()); rc != MPI_SUCCESS) {
            (void)PMPI_Info_free(&made);
            return raise(rc, function, "could not set key " + key + " in the info object");
        }
    }
    *info = made;
    return MPI_SUCCESS;
}

int abi_get_version(int *abi_major, int *abi_minor)
{
    if (abi_major == nullptr || abi_minor == nullptr) {
        return raise(MPI_ERR_ARG, "MPI_Abi_get_version", "abi_major and abi_minor must not be NULL");
    }
    *abi_major = MPI_ABI_VERSION;
    *abi_minor = MPI_ABI_SUBVERSION;
    return MPI_SUCCESS;
}

int abi_get_info(MPI_Info *info)
{
    if (info == nullptr) {
        return raise(MPI_ERR_ARG, "MPI_Abi_get_info", "info must not be NULL");
    }
    return new_info("MPI_Abi_get_info", {{"mpi_aint_size", std::to_string(sizeof(MPI_Aint))},
                                         {"mpi_count_size", std::to_string(sizeof(MPI_Count))},
                                         {"mpi_offset_size", std::to_string(sizeof(MPI_Offset))}},
                    info);
}

int abi_get_fortran_info(MPI_Info *info)
{
    if (info == nullptr) {
        return raise(MPI_ERR_ARG, "MPI_Abi_get_fortran_info", "info must not be NULL");
    }
    std::optional<Pairs> pairs;
    {
        const std::lock_guard lock(fortran().mutex);
        pairs = fortran().info;
    }
    if (!pairs) {
        /* No Fortran layer has described itself: the standard's answer is MPI_INFO_NULL. */
        *info = MPI_INFO_NULL;
        return MPI_SUCCESS;
    }
    return new_info("MPI_Abi_get_fortran_info", *pairs, info);
}

int abi_set_fortran_info(MPI_Info info)
{
    const char *function = "MPI_Abi_set_fortran_info";
    if (info == MPI_INFO_NULL) {
        return raise(MPI_ERR_INFO, function, "info is MPI_INFO_NULL");
    }
    int nkeys = 0;
    if (int rc = PMPI_Info_get_nkeys(info, &nkeys); rc != MPI_SUCCESS) {
        return raise(rc, function, "info is not a valid info object");
    }
    Pairs pairs;
    for (int i = 0; i < nkeys; ++i) {
        char key[MPI_MAX_INFO_KEY + 1] = {};
        char value[MPI_MAX_INFO_VAL + 1] = {};
        int length = sizeof value;
        int flag = 0;
        if (int rc = PMPI_Info_get_nthkey(info, i, key); rc != MPI_SUCCESS) {
            return raise(rc, function, "could not read key " + std::to_string(i) + " of info");
        }
        if (int rc = PMPI_Info_get_string(info, key, &length, value, &flag); rc != MPI_SUCCESS || flag == 0) {
            return raise(rc != MPI_SUCCESS ? rc : MPI_ERR_INFO, function, std::string("could not read the value of key ") + key);
        }
        pairs.emplace_back(key, value);
    }
    const std::lock_guard lock(fortran().mutex);
    if (fortran().info) {
        return raise(MPI_ERR_ABI, function, "the Fortran ABI information was set already; it may be set once");
    }
    fortran().info = std::move(pairs);
    return MPI_SUCCESS;
}

int abi_get_fortran_booleans(int logical_size, void *logical_true, void *logical_false, int *is_set)
{
    const char *function = "MPI_Abi_get_fortran_booleans";
    const int at = logical_index(logical_size);
    if (at < 0) {
        return bad_logical_size(function, logical_size);
    }
    if (logical_true == nullptr || logical_false == nullptr || is_set == nullptr) {
        return raise(MPI_ERR_ARG, function, "logical_true, logical_false and is_set must not be NULL");
    }
    const std::lock_guard lock(fortran().mutex);
    const std::optional<Booleans> &b = fortran().booleans[at];
    *is_set = b.has_value();
    if (b) {
        std::memcpy(logical_true, b->true_bits.data(), logical_size);
        std::memcpy(logical_false, b->false_bits.data(), logical_size);
    }
    return MPI_SUCCESS;
}

int abi_set_fortran_booleans(int logical_size, void *logical_true, void *logical_false)
{
    const char *function = "MPI_Abi_set_fortran_booleans";
    const int at = logical_index(logical_size);
    if (at < 0) {
        return bad_logical_size(function, logical_size);
    }
    if (logical_true == nullptr || logical_false == nullptr) {
        return raise(MPI_ERR_ARG, function, "logical_true and logical_false must not be NULL");
    }
    Booleans given;
    std::memcpy(given.true_bits.data(), logical_true, logical_size);
    std::memcpy(given.false_bits.data(), logical_false, logical_size);
    if (given.true_bits == given.false_bits) {
        return raise(MPI_ERR_ARG, function, ".TRUE. and .FALSE. must differ");
    }
    const std::lock_guard lock(fortran().mutex);
    std::optional<Booleans> &b = fortran().booleans[at];
    /* The same values again are harmless (a Fortran layer and its application may both set them);
     * other values would change the meaning of LOGICALs already passed. */
    if (b && (b->true_bits != given.true_bits || b->false_bits != given.false_bits)) {
        return raise(MPI_ERR_ABI, function,
                     "the booleans of LOGICAL*" + std::to_string(logical_size) + " were set already, to other values");
    }
    b = given;
    return MPI_SUCCESS;
}

} // namespace

void install_abi_functions(tessera_mpi_dispatch_t *table)
{
    table->Abi_get_version = abi_get_version;
    table->Abi_get_info = abi_get_info;
    table->Abi_get_fortran_info = abi_get_fortran_info;
    table->Abi_set_fortran_info = abi_set_fortran_info;
    table->Abi_get_fortran_booleans = abi_get_fortran_booleans;
    table->Abi_set_fortran_booleans = abi_set_fortran_booleans;
}

} // namespace tessera::ompi
