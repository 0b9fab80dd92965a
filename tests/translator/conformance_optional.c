/* Translator conformance: the optional predefined datatypes of fixed width (MPI_LOGICAL1..16,
 * MPI_INTEGER1..16, MPI_REAL2..16, MPI_COMPLEX4..32). Their size, extent, true extent, name and envelope
 * are what the ABI fixes, also where the runtime lacks the type (MPICH 4.0 has no MPI_LOGICAL1..16, no
 * MPI_REAL2 and no MPI_COMPLEX4, and defines MPI_INTEGER16 as MPI_DATATYPE_NULL). Moving data with one
 * either works or is MPI_ERR_TYPE raised on the communicator's error handler — never a crash.
 * With the argument "fatal", sends MPI_INTEGER16 under MPI_ERRORS_ARE_FATAL: where the runtime lacks it,
 * the job must end with a message naming the type. Any number of ranks (each talks to itself). */
#include "conformance.h"

#include <string.h>

static int handler_calls, handler_class;

static void record(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    ++handler_calls;
    MPI_Error_class(*code, &handler_class);
}

struct optional {
    MPI_Datatype type;
    const char *name;
    int size;
};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 1 && strcmp(argv[1], "fatal") == 0) {
        unsigned char out[16] = {1}, in[16];
        MPI_Sendrecv(out, 1, MPI_INTEGER16, rank, 1, in, 1, MPI_INTEGER16, rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("conformance_optional rank %d: MPI_INTEGER16 moved (the runtime has it)\n", rank);
        MPI_Finalize();
        return 0;
    }

    const struct optional types[] = {
        {MPI_LOGICAL1, "MPI_LOGICAL1", 1},   {MPI_LOGICAL2, "MPI_LOGICAL2", 2},   {MPI_LOGICAL4, "MPI_LOGICAL4", 4},
        {MPI_LOGICAL8, "MPI_LOGICAL8", 8},   {MPI_LOGICAL16, "MPI_LOGICAL16", 16}, {MPI_INTEGER1, "MPI_INTEGER1", 1},
        {MPI_INTEGER2, "MPI_INTEGER2", 2},   {MPI_INTEGER4, "MPI_INTEGER4", 4},   {MPI_INTEGER8, "MPI_INTEGER8", 8},
        {MPI_INTEGER16, "MPI_INTEGER16", 16}, {MPI_REAL2, "MPI_REAL2", 2},         {MPI_REAL4, "MPI_REAL4", 4},
        {MPI_REAL8, "MPI_REAL8", 8},         {MPI_COMPLEX4, "MPI_COMPLEX4", 4},   {MPI_COMPLEX8, "MPI_COMPLEX8", 8},
        {MPI_COMPLEX16, "MPI_COMPLEX16", 16},
    };
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    MPI_Comm_create_errhandler(record, &eh);
    MPI_Comm_set_errhandler(comm, eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int moved = 0, refused = 0;
    for (size_t k = 0; k < sizeof types / sizeof types[0]; ++k) {
        const struct optional *o = &types[k];
        int size = -1;
        MPI_Count size_c = -1;
        MPI_Aint lb = -1, extent = -1, tlb = -1, textent = -1;
        MPI_Count lb_c = -1, extent_c = -1, tlb_c = -1, textent_c = -1;
        CHECK(MPI_Type_size(o->type, &size) == MPI_SUCCESS && size == o->size, "MPI_Type_size(%s) = %d, expected %d",
              o->name, size, o->size);
        CHECK(MPI_Type_size_c(o->type, &size_c) == MPI_SUCCESS && size_c == o->size, "MPI_Type_size_c(%s) = %lld",
              o->name, (long long)size_c);
        CHECK(MPI_Type_get_extent(o->type, &lb, &extent) == MPI_SUCCESS && lb == 0 && extent == o->size,
              "MPI_Type_get_extent(%s): lb %ld extent %ld", o->name, (long)lb, (long)extent);
        CHECK(MPI_Type_get_extent_c(o->type, &lb_c, &extent_c) == MPI_SUCCESS && lb_c == 0 && extent_c == o->size,
              "MPI_Type_get_extent_c(%s): lb %lld extent %lld", o->name, (long long)lb_c, (long long)extent_c);
        CHECK(MPI_Type_get_true_extent(o->type, &tlb, &textent) == MPI_SUCCESS && tlb == 0 && textent == o->size,
              "MPI_Type_get_true_extent(%s): lb %ld extent %ld", o->name, (long)tlb, (long)textent);
        CHECK(MPI_Type_get_true_extent_c(o->type, &tlb_c, &textent_c) == MPI_SUCCESS && tlb_c == 0 &&
                  textent_c == o->size,
              "MPI_Type_get_true_extent_c(%s): lb %lld extent %lld", o->name, (long long)tlb_c, (long long)textent_c);
        char name[MPI_MAX_OBJECT_NAME] = "";
        int len = -1;
        CHECK(MPI_Type_get_name(o->type, name, &len) == MPI_SUCCESS && strcmp(name, o->name) == 0 &&
                  len == (int)strlen(o->name),
              "MPI_Type_get_name(%s) = '%s' (%d)", o->name, name, len);
        int ni = -1, na = -1, nd = -1, comb = -1;
        CHECK(MPI_Type_get_envelope(o->type, &ni, &na, &nd, &comb) == MPI_SUCCESS && comb == MPI_COMBINER_NAMED &&
                  ni == 0 && na == 0 && nd == 0,
              "MPI_Type_get_envelope(%s): combiner %d", o->name, comb);
        MPI_Count ni_c = -1, na_c = -1, nc_c = -1, nd_c = -1;
        comb = -1;
        CHECK(MPI_Type_get_envelope_c(o->type, &ni_c, &na_c, &nc_c, &nd_c, &comb) == MPI_SUCCESS &&
                  comb == MPI_COMBINER_NAMED && ni_c == 0 && na_c == 0 && nc_c == 0 && nd_c == 0,
              "MPI_Type_get_envelope_c(%s): combiner %d", o->name, comb);
        MPI_Count size_x = -1, lb_x = -1, extent_x = -1, tlb_x = -1, textent_x = -1;
        CHECK(MPI_Type_size_x(o->type, &size_x) == MPI_SUCCESS && size_x == o->size, "MPI_Type_size_x(%s) = %lld",
              o->name, (long long)size_x);
        CHECK(MPI_Type_get_extent_x(o->type, &lb_x, &extent_x) == MPI_SUCCESS && lb_x == 0 && extent_x == o->size,
              "MPI_Type_get_extent_x(%s): lb %lld extent %lld", o->name, (long long)lb_x, (long long)extent_x);
        CHECK(MPI_Type_get_true_extent_x(o->type, &tlb_x, &textent_x) == MPI_SUCCESS && tlb_x == 0 &&
                  textent_x == o->size,
              "MPI_Type_get_true_extent_x(%s): lb %lld extent %lld", o->name, (long long)tlb_x, (long long)textent_x);

        /* Data: through the runtime where it has the type, MPI_ERR_TYPE on comm's handler where not. */
        unsigned char out[64], in[64];
        for (int i = 0; i < 64; ++i) {
            out[i] = (unsigned char)(i + 1);
            in[i] = 0;
        }
        handler_calls = 0;
        handler_class = -1;
        const int rc = MPI_Sendrecv(out, 2, o->type, rank, 7, in, 2, o->type, rank, 7, comm, MPI_STATUS_IGNORE);
        if (handler_calls == 0) {
            CHECK(rc == MPI_SUCCESS && memcmp(in, out, (size_t)(2 * o->size)) == 0 && in[2 * o->size] == 0,
                  "MPI_Sendrecv of 2 %s: rc %d, or the data differ", o->name, rc);
            ++moved;
        } else {
            int cls = -1;
            MPI_Error_class(rc, &cls);
            CHECK(handler_calls == 1 && handler_class == MPI_ERR_TYPE && cls == MPI_ERR_TYPE,
                  "MPI_Sendrecv of 2 %s refused: %d handler calls with class %d, call's class %d (MPI_ERR_TYPE "
                  "expected)",
                  o->name, handler_calls, handler_class, cls);
            ++refused;
        }
    }
    if (rank == 0) {
        printf("conformance_optional: %d optional types moved, %d refused with MPI_ERR_TYPE\n", moved, refused);
    }
    MPI_Comm_free(&comm);
    MPI_Errhandler_free(&eh);
    return conformance_end("conformance_optional");
}
