/* Committing, freeing and asking about datatypes (MPI-4.1 5.1.5, 5.1.9-5.1.13, 19.3.5). */
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "ompi/attribute/attribute.h"
#include "ompi/datatype/datatype_derived.h"
#include "ompi/datatype/type_checks.h"
#include "ompi/runtime/native_api.h"
#include "ompi/pml/pml_request.h"

namespace tessera::ompi::native {

namespace {

/* Names given to predefined datatypes with MPI_Type_set_name (rare; their objects are constant). */
std::mutex names_lock;
std::map<const Datatype *, std::string> &predefined_names()
{
    static auto *names = new std::map<const Datatype *, std::string>; /* outlives exit handlers */
    return *names;
}

} // namespace

int type_commit(MPI_Datatype *datatype)
{
    const Datatype *t = nullptr;
    if (int rc = type_argument("MPI_Type_commit", *datatype, "datatype", &t); rc != MPI_SUCCESS) {
        return rc;
    }
    if (t->derived == nullptr) {
        return MPI_SUCCESS; /* predefined types are committed */
    }
    if (derived_commit(t->derived) != MPI_SUCCESS) {
        return type_error("MPI_Type_commit", MPI_ERR_INTERN,
                    "no datatype engine made a plan for this type (is every dte component excluded?)");
    }
    return MPI_SUCCESS;
}

int type_free(MPI_Datatype *datatype)
{
    const Datatype *t = nullptr;
    if (int rc = type_argument("MPI_Type_free", *datatype, "datatype", &t); rc != MPI_SUCCESS) {
        return rc;
    }
    if (t->derived == nullptr || t->derived->contents.combiner == MPI_COMBINER_F90_REAL ||
        t->derived->contents.combiner == MPI_COMBINER_F90_COMPLEX ||
        t->derived->contents.combiner == MPI_COMBINER_F90_INTEGER) {
        return type_error("MPI_Type_free", MPI_ERR_TYPE, std::string("cannot free the predefined datatype ") +
                                                       (t->derived == nullptr ? t->name : "of MPI_Type_create_f90_*"));
    }
    /* MPI-4.1 7.7.5: the handle's attributes go with it; a delete callback's error keeps the type. */
    std::string error;
    if (int rc = attr_delete_all(AttrKind::Type, *datatype, &error); rc != MPI_SUCCESS) {
        return type_error("MPI_Type_free", rc, error);
    }
    /* Operations in flight and parent types hold their own references: the type lives on for them. */
    datatype_release(t);
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

int type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                        MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner)
{
    const Datatype *t = nullptr;
    if (int rc = type_argument("MPI_Type_get_envelope", datatype, "datatype", &t); rc != MPI_SUCCESS) {
        return rc;
    }
    if (t->derived == nullptr) {
        *num_integers = *num_addresses = *num_large_counts = *num_datatypes = 0;
        *combiner = MPI_COMBINER_NAMED;
        return MPI_SUCCESS;
    }
    const TypeContents &c = t->derived->contents;
    *num_integers = static_cast<MPI_Count>(c.ints.size());
    *num_addresses = static_cast<MPI_Count>(c.addresses.size());
    *num_large_counts = static_cast<MPI_Count>(c.counts.size());
    *num_datatypes = static_cast<MPI_Count>(c.types.size());
    *combiner = c.combiner;
    return MPI_SUCCESS;
}

int type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes, int *combiner)
{
    MPI_Count ni = 0, na = 0, nc = 0, nd = 0;
    if (int rc = type_get_envelope_c(datatype, &ni, &na, &nc, &nd, combiner); rc != MPI_SUCCESS) {
        return rc;
    }
    if (nc != 0) {
        return type_error("MPI_Type_get_envelope", MPI_ERR_TYPE,
                    "the datatype was made by a large-count constructor: use MPI_Type_get_envelope_c");
    }
    *num_integers = static_cast<int>(ni);
    *num_addresses = static_cast<int>(na);
    *num_datatypes = static_cast<int>(nd);
    return MPI_SUCCESS;
}

int type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                        MPI_Count max_large_counts, MPI_Count max_datatypes, int integers[], MPI_Aint addresses[],
                        MPI_Count large_counts[], MPI_Datatype datatypes[])
{
    const char *fn = "MPI_Type_get_contents";
    const Datatype *t = nullptr;
    if (int rc = type_argument(fn, datatype, "datatype", &t); rc != MPI_SUCCESS) {
        return rc;
    }
    if (t->derived == nullptr) {
        return type_error(fn, MPI_ERR_TYPE, std::string(t->name) + " is a named datatype: it has no contents");
    }
    const TypeContents &c = t->derived->contents;
    if (max_integers < static_cast<MPI_Count>(c.ints.size()) ||
        max_addresses < static_cast<MPI_Count>(c.addresses.size()) ||
        max_large_counts < static_cast<MPI_Count>(c.counts.size()) ||
        max_datatypes < static_cast<MPI_Count>(c.types.size())) {
        return type_error(fn, MPI_ERR_ARG, "the arrays are smaller than MPI_Type_get_envelope says they must be");
    }
    std::copy(c.ints.begin(), c.ints.end(), integers);
    std::copy(c.addresses.begin(), c.addresses.end(), addresses);
    std::copy(c.counts.begin(), c.counts.end(), large_counts);
    for (std::size_t i = 0; i < c.types.size(); ++i) {
        /* derived types come back as new references the application frees (MPI-4.1 5.1.13) */
        datatype_retain(c.types[i]);
        datatypes[i] = datatype_handle(c.types[i]);
    }
    return MPI_SUCCESS;
}

int type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes, int integers[],
                      MPI_Aint addresses[], MPI_Datatype datatypes[])
{
    const Datatype *t = datatype_lookup(datatype);
    if (t != nullptr && t->derived != nullptr && t->derived->contents.large) {
        return type_error("MPI_Type_get_contents", MPI_ERR_TYPE,
                    "the datatype was made by a large-count constructor: use MPI_Type_get_contents_c");
    }
    return type_get_contents_c(datatype, max_integers, max_addresses, 0, max_datatypes, integers, addresses, nullptr,
                               datatypes);
}

int type_size_c(MPI_Datatype datatype, MPI_Count *size)
{
    const Datatype *t = nullptr;
    if (int rc = type_argument("MPI_Type_size", datatype, "datatype", &t); rc != MPI_SUCCESS) {
        return rc;
    }
    *size = static_cast<MPI_Count>(t->size);
    return MPI_SUCCESS;
}

int type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent)
{
    const Datatype *t = nullptr;
    if (int rc = type_argument("MPI_Type_get_extent", datatype, "datatype", &t); rc != MPI_SUCCESS) {
        return rc;
    }
    *lb = t->lb;
    *extent = t->extent;
    return MPI_SUCCESS;
}

int type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent)
{
    const Datatype *t = nullptr;
    if (int rc = type_argument("MPI_Type_get_true_extent", datatype, "datatype", &t); rc != MPI_SUCCESS) {
        return rc;
    }
    *true_lb = t->true_lb;
    *true_extent = t->true_ub - t->true_lb;
    return MPI_SUCCESS;
}

int type_set_name(MPI_Datatype datatype, const char *name)
{
    const Datatype *t = nullptr;
    if (int rc = type_argument("MPI_Type_set_name", datatype, "datatype", &t); rc != MPI_SUCCESS) {
        return rc;
    }
    if (name == nullptr) {
        return type_error("MPI_Type_set_name", MPI_ERR_ARG, "the name is NULL");
    }
    /* names longer than MPI_MAX_OBJECT_NAME - 1 are truncated (MPI-4.1 7.8) */
    const std::string n(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1));
    if (t->derived != nullptr) {
        t->derived->name = n;
        t->derived->type.name = t->derived->name.c_str();
    } else {
        std::lock_guard<std::mutex> g(names_lock);
        predefined_names()[t] = n;
    }
    return MPI_SUCCESS;
}

int type_get_name(MPI_Datatype datatype, char *name, int *resultlen)
{
    if (datatype == MPI_DATATYPE_NULL) { /* MPI-4.1: the null handle has a name too */
        constexpr char kNull[] = "MPI_DATATYPE_NULL";
        std::memcpy(name, kNull, sizeof kNull);
        *resultlen = static_cast<int>(sizeof kNull - 1);
        return MPI_SUCCESS;
    }
    const Datatype *t = nullptr;
    if (int rc = type_argument("MPI_Type_get_name", datatype, "datatype", &t); rc != MPI_SUCCESS) {
        return rc;
    }
    std::string n;
    if (t->derived != nullptr) {
        n = t->derived->name;
    } else {
        std::lock_guard<std::mutex> g(names_lock);
        auto it = predefined_names().find(t);
        n = it != predefined_names().end() ? it->second : t->name;
    }
    std::memcpy(name, n.c_str(), n.size() + 1);
    *resultlen = static_cast<int>(n.size());
    return MPI_SUCCESS;
}

/* MPI-4.1 19.3.5: the Fortran-kind type of a class and a size. */
int type_match_size(int typeclass, int size, MPI_Datatype *datatype)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    switch (typeclass) {
    case MPI_TYPECLASS_REAL:
        t = size == 2 ? MPI_REAL2 : size == 4 ? MPI_REAL4 : size == 8 ? MPI_REAL8 : size == 16 ? MPI_REAL16
                                                                                                : MPI_DATATYPE_NULL;
        break;
    case MPI_TYPECLASS_INTEGER:
        t = size == 1 ? MPI_INTEGER1 : size == 2 ? MPI_INTEGER2 : size == 4 ? MPI_INTEGER4
            : size == 8 ? MPI_INTEGER8 : size == 16 ? MPI_INTEGER16 : MPI_DATATYPE_NULL;
        break;
    case MPI_TYPECLASS_COMPLEX:
        t = size == 4 ? MPI_COMPLEX4 : size == 8 ? MPI_COMPLEX8 : size == 16 ? MPI_COMPLEX16
            : size == 32 ? MPI_COMPLEX32 : MPI_DATATYPE_NULL;
        break;
    default:
        return type_error("MPI_Type_match_size", MPI_ERR_ARG, "typeclass " + std::to_string(typeclass) +
                                                            " is none of MPI_TYPECLASS_REAL, _INTEGER, _COMPLEX");
    }
    if (t == MPI_DATATYPE_NULL) {
        return type_error("MPI_Type_match_size", MPI_ERR_ARG, "no type of that class has " + std::to_string(size) + " bytes");
    }
    *datatype = t;
    return MPI_SUCCESS;
}

int get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    const Datatype *t = nullptr;
    if (int rc = type_argument("MPI_Get_elements", datatype, "datatype", &t); rc != MPI_SUCCESS) {
        return rc;
    }
    const std::size_t bytes = pml::status_count(status);
    if (datatype_elements(t) == 0) { /* a type without data: no element can be counted */
        *count = bytes == 0 ? 0 : MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    const MPI_Count n = datatype_elements_in(t, bytes);
    *count = n < 0 ? MPI_UNDEFINED : n;
    return MPI_SUCCESS;
}

int get_address(const void *location, MPI_Aint *address)
{
    *address = reinterpret_cast<MPI_Aint>(location);
    return MPI_SUCCESS;
}

/* Addresses are plain byte addresses here (get_address): the arithmetic the standard defines is the
 * machine's, done unsigned so that it wraps instead of overflowing. */
MPI_Aint aint_add(MPI_Aint base, MPI_Aint disp)
{
    return static_cast<MPI_Aint>(static_cast<uint64_t>(base) + static_cast<uint64_t>(disp));
}

MPI_Aint aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
    return static_cast<MPI_Aint>(static_cast<uint64_t>(addr1) - static_cast<uint64_t>(addr2));
}

} // namespace tessera::ompi::native
