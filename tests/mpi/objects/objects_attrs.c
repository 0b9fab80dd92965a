/* Attributes as an application uses them (MPI-4.1 7.7, 9.1.2):
 *   - the predefined attributes of MPI_COMM_WORLD have sensible values and cannot be set or deleted;
 *   - communicator attributes: delete callbacks on replace and delete, with the communicator, key,
 *     value and extra_state; the MPI-1 names;
 *   - datatype attributes: copy callbacks in MPI_Type_dup and delete callbacks in MPI_Type_free with
 *     the right arguments, a key freed while attributes still use it;
 *   - an attribute of MPI_COMM_SELF deleted at the start of MPI_Finalize (MPI-4.1 11.2.2);
 *   - MPI_Comm_set_name/get_name with truncation.
 * Plain MPI C; also run over the translators. */
#include <mpi.h>

#include <stdio.h>
#include <string.h>

#include "../p2p/p2p_check.h"

struct call {
    char what;
    MPI_Comm comm;
    MPI_Datatype type;
    int keyval;
    void *value;
    void *extra;
};
static struct call calls[16];
static int ncalls;
static int extra_state = 42;
static char values[8];
static int self_deleted; /* MPI_COMM_SELF's attribute, at MPI_Finalize */
static int finalized_then;

static void record(char what, MPI_Comm comm, MPI_Datatype type, int keyval, void *value, void *extra)
{
    if (ncalls < 16) {
        struct call c = {what, comm, type, keyval, value, extra};
        calls[ncalls] = c;
    }
    ++ncalls;
}

static int comm_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    record('d', comm, MPI_DATATYPE_NULL, keyval, value, extra);
    return MPI_SUCCESS;
}

static int type_copy(MPI_Datatype old, int keyval, void *extra, void *in, void *out, int *flag)
{
    record('c', MPI_COMM_NULL, old, keyval, in, extra);
    *(void **)out = (char *)in + 1;
    *flag = 1;
    return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    record('d', MPI_COMM_NULL, type, keyval, value, extra);
    return MPI_SUCCESS;
}

static int self_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)keyval;
    (void)extra;
    int flag = 1;
    MPI_Finalized(&flag);
    self_deleted = comm == MPI_COMM_SELF && value == &values[7];
    finalized_then = flag;
    return MPI_SUCCESS;
}

static int *predefined(int keyval, int *flag)
{
    int *value = NULL;
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &value, flag) == MPI_SUCCESS, "get predefined %d", keyval);
    return value;
}

int main(int argc, char **argv)
{
    int rank, size, flag = 0, native, key = MPI_KEYVAL_INVALID, old_key = MPI_KEYVAL_INVALID, selfkey;
    int *v;
    void *got = NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    native = !runtime_is("Open MPI") && !runtime_is("MPICH");

    /* Predefined attributes (MPI-4.1 9.1.2). */
    v = predefined(MPI_TAG_UB, &flag);
    CHECK(flag && *v >= 32767, "MPI_TAG_UB is at least 32767");
    v = predefined(MPI_HOST, &flag);
    CHECK(flag && (*v == MPI_PROC_NULL || (*v >= 0 && *v < size)), "MPI_HOST is MPI_PROC_NULL or a rank");
    v = predefined(MPI_IO, &flag);
    CHECK(flag && (*v == MPI_ANY_SOURCE || *v == MPI_PROC_NULL || (*v >= 0 && *v < size)), "MPI_IO");
    v = predefined(MPI_WTIME_IS_GLOBAL, &flag);
    CHECK(!flag || *v == 0 || *v == 1, "MPI_WTIME_IS_GLOBAL is a logical");
    v = predefined(MPI_UNIVERSE_SIZE, &flag);
    CHECK((!native || flag) && (!flag || *v >= size), "MPI_UNIVERSE_SIZE is at least the job's size");
    v = predefined(MPI_APPNUM, &flag);
    CHECK((!native || flag) && (!flag || *v == 0), "MPI_APPNUM of a single application is 0");
    if (native) {
        v = predefined(MPI_TAG_UB, &flag);
        CHECK(*v == 0x7fffffff, "Tessera's tag bound");
        v = predefined(MPI_HOST, &flag);
        CHECK(*v == MPI_PROC_NULL, "no host process");
        v = predefined(MPI_IO, &flag);
        CHECK(*v == MPI_ANY_SOURCE, "every rank can do I/O");
        CHECK(MPI_Comm_get_attr(MPI_COMM_SELF, MPI_TAG_UB, &v, &flag) == MPI_SUCCESS && flag && *v == 0x7fffffff,
              "every communicator answers MPI_TAG_UB");
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    {
        int mine = 5, rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &mine);
        CHECK(rc != MPI_SUCCESS, "MPI_TAG_UB cannot be set");
        int cls = -1;
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_KEYVAL || !native, "setting MPI_TAG_UB is MPI_ERR_KEYVAL");
        CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE) != MPI_SUCCESS, "nor deleted");
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

    /* Communicator attributes. */
    CHECK(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, comm_delete, &key, &extra_state) == MPI_SUCCESS, "create a key");
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &values[0]) == MPI_SUCCESS, "set");
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag) == MPI_SUCCESS && flag && got == &values[0], "get");
    CHECK(MPI_Comm_set_attr(MPI_COMM_WORLD, key, &values[1]) == MPI_SUCCESS && ncalls == 1, "replace");
    CHECK(calls[0].what == 'd' && calls[0].comm == MPI_COMM_WORLD && calls[0].keyval == key &&
              calls[0].value == &values[0] && calls[0].extra == &extra_state,
          "the old value's delete callback, with its arguments");
    CHECK(MPI_Comm_delete_attr(MPI_COMM_WORLD, key) == MPI_SUCCESS && ncalls == 2 && calls[1].value == &values[1],
          "MPI_Comm_delete_attr runs the delete callback");
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, key, &got, &flag) == MPI_SUCCESS && !flag, "deleted");
    CHECK(MPI_Comm_free_keyval(&key) == MPI_SUCCESS && key == MPI_KEYVAL_INVALID, "MPI_Comm_free_keyval");

    /* The MPI-1 names. */
    CHECK(MPI_Keyval_create(MPI_NULL_COPY_FN, comm_delete, &old_key, &extra_state) == MPI_SUCCESS, "MPI_Keyval_create");
    CHECK(MPI_Attr_put(MPI_COMM_WORLD, old_key, &values[2]) == MPI_SUCCESS, "MPI_Attr_put");
    CHECK(MPI_Attr_get(MPI_COMM_WORLD, old_key, &got, &flag) == MPI_SUCCESS && flag && got == &values[2],
          "MPI_Attr_get");
    CHECK(MPI_Attr_delete(MPI_COMM_WORLD, old_key) == MPI_SUCCESS && ncalls == 3 && calls[2].value == &values[2],
          "MPI_Attr_delete");
    CHECK(MPI_Keyval_free(&old_key) == MPI_SUCCESS && old_key == MPI_KEYVAL_INVALID, "MPI_Keyval_free");

    /* Datatype attributes through MPI_Type_dup and MPI_Type_free. */
    {
        MPI_Datatype t, dup, dup_handle;
        int tkey = MPI_KEYVAL_INVALID;
        ncalls = 0;
        MPI_Type_vector(3, 1, 2, MPI_INT, &t);
        CHECK(MPI_Type_create_keyval(type_copy, type_delete, &tkey, &extra_state) == MPI_SUCCESS, "type key");
        CHECK(MPI_Type_set_attr(t, tkey, &values[3]) == MPI_SUCCESS, "MPI_Type_set_attr");
        CHECK(MPI_Type_dup(t, &dup) == MPI_SUCCESS && ncalls == 1, "MPI_Type_dup calls the copy callback once");
        CHECK(calls[0].what == 'c' && calls[0].type == t && calls[0].keyval == tkey && calls[0].value == &values[3] &&
                  calls[0].extra == &extra_state,
              "the copy callback's arguments");
        CHECK(MPI_Type_get_attr(dup, tkey, &got, &flag) == MPI_SUCCESS && flag && got == &values[4],
              "the duplicate has the value the copy callback made");
        /* The key goes away for the application, not for the attributes that use it. */
        CHECK(MPI_Type_free_keyval(&tkey) == MPI_SUCCESS && tkey == MPI_KEYVAL_INVALID, "MPI_Type_free_keyval");
        dup_handle = dup;
        CHECK(MPI_Type_free(&dup) == MPI_SUCCESS && ncalls == 2, "MPI_Type_free calls the delete callback");
        CHECK(calls[1].what == 'd' && calls[1].type == dup_handle && calls[1].value == &values[4] &&
                  calls[1].extra == &extra_state,
              "the delete callback's arguments");
        CHECK(MPI_Type_free(&t) == MPI_SUCCESS && ncalls == 3 && calls[2].type != dup_handle &&
                  calls[2].value == &values[3],
              "the original's attribute is deleted with it");
    }

    /* Names. */
    {
        char name[MPI_MAX_OBJECT_NAME], longname[300];
        int len = 0;
        CHECK(MPI_Comm_get_name(MPI_COMM_WORLD, name, &len) == MPI_SUCCESS && strcmp(name, "MPI_COMM_WORLD") == 0 &&
                  len == 14,
              "MPI_COMM_WORLD's name: '%s'", name);
        CHECK(MPI_Comm_set_name(MPI_COMM_SELF, "my self") == MPI_SUCCESS, "MPI_Comm_set_name");
        CHECK(MPI_Comm_get_name(MPI_COMM_SELF, name, &len) == MPI_SUCCESS && strcmp(name, "my self") == 0 && len == 7,
              "the new name: '%s'", name);
        memset(longname, 'n', sizeof longname - 1);
        longname[sizeof longname - 1] = '\0';
        CHECK(MPI_Comm_set_name(MPI_COMM_SELF, longname) == MPI_SUCCESS, "a name longer than MPI_MAX_OBJECT_NAME");
        CHECK(MPI_Comm_get_name(MPI_COMM_SELF, name, &len) == MPI_SUCCESS && len == (int)strlen(name) &&
                  len <= MPI_MAX_OBJECT_NAME - 1 && len > 0 && strncmp(name, longname, (size_t)len) == 0,
              "is truncated (%d characters)", len);
        CHECK(!native || len == MPI_MAX_OBJECT_NAME - 1, "to MPI_MAX_OBJECT_NAME - 1 characters");
    }

    /* An attribute on MPI_COMM_SELF: deleted first thing in MPI_Finalize. */
    CHECK(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, self_delete, &selfkey, NULL) == MPI_SUCCESS, "self key");
    CHECK(MPI_Comm_set_attr(MPI_COMM_SELF, selfkey, &values[7]) == MPI_SUCCESS, "set on MPI_COMM_SELF");
    p2p_barrier();
    MPI_Finalize();
    if (!self_deleted || finalized_then) {
        fprintf(stderr, "rank %d: FAILED: MPI_COMM_SELF's attribute was %s\n", rank,
                !self_deleted ? "not deleted by MPI_Finalize" : "deleted after MPI_Finalize had finished");
        return 1;
    }
    if (rank == 0) {
        printf("objects_attrs: all checks passed on %d ranks\n", size);
    }
    return 0;
}
