/* Info objects as an application uses them (MPI-4.1 10, 11.2.3, 7.4.4): MPI_INFO_ENV describes the
 * launch, info objects keep their keys in order and refuse bad keys, MPI_Info_get_string truncates,
 * MPI_Comm_set_info/get_info keep the application's hints. Plain MPI C; also run over the translators
 * (Open MPI 4.1 has no MPI-4 MPI_Info_get_string; the runtimes fill MPI_INFO_ENV and answer hints
 * their own way, so those checks are Tessera's). */
#include <mpi.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../p2p/p2p_check.h"

/* The value of `key` through the deprecated MPI_Info_get (every runtime has it), "" when absent. */
static const char *value_of(MPI_Info info, const char *key, char *buf, int len)
{
    int flag = 0;
    CHECK(MPI_Info_get(info, key, len - 1, buf, &flag) == MPI_SUCCESS, "MPI_Info_get %s", key);
    if (!flag) {
        buf[0] = '\0';
    }
    return buf;
}

static int error_class(int code)
{
    int cls = -1;
    MPI_Error_class(code, &cls);
    return cls;
}

int main(int argc, char **argv)
{
    int rank, size, nkeys = -1, i, flag = 0, native, ompi;
    char buf[MPI_MAX_INFO_VAL + 1], key[MPI_MAX_INFO_KEY + 1], expect[64];
    MPI_Info info = MPI_INFO_NULL, dup = MPI_INFO_NULL, used = MPI_INFO_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ompi = runtime_is("Open MPI");
    native = !ompi && !runtime_is("MPICH");

    /* MPI_INFO_ENV: readable by every runtime; Tessera fills what it knows. */
    CHECK(MPI_Info_get_nkeys(MPI_INFO_ENV, &nkeys) == MPI_SUCCESS && nkeys >= 0, "MPI_INFO_ENV's keys");
    for (i = 0; i < nkeys; ++i) {
        CHECK(MPI_Info_get_nthkey(MPI_INFO_ENV, i, key) == MPI_SUCCESS && key[0] != '\0', "key %d", i);
    }
    if (native) {
        char cwd[4096];
        CHECK(strstr(value_of(MPI_INFO_ENV, "command", buf, sizeof buf), "objects_info") != NULL,
              "command is this program: '%s'", buf);
        snprintf(expect, sizeof expect, "%d", size);
        CHECK(strcmp(value_of(MPI_INFO_ENV, "maxprocs", buf, sizeof buf), expect) == 0, "maxprocs '%s'", buf);
        CHECK(strcmp(value_of(MPI_INFO_ENV, "thread_level", buf, sizeof buf), "MPI_THREAD_SINGLE") == 0,
              "thread_level '%s'", buf);
        CHECK(getcwd(cwd, sizeof cwd) != NULL && strcmp(value_of(MPI_INFO_ENV, "wdir", buf, sizeof buf), cwd) == 0,
              "wdir '%s'", buf);
        CHECK(value_of(MPI_INFO_ENV, "host", buf, sizeof buf)[0] != '\0', "host");
        CHECK(value_of(MPI_INFO_ENV, "arch", buf, sizeof buf)[0] != '\0', "arch");
    }

    /* Order, replacement, deletion, duplication. */
    MPI_Info_create(&info);
    MPI_Info_set(info, "second", "2");
    MPI_Info_set(info, "first", "1");
    MPI_Info_set(info, "third", "3");
    MPI_Info_set(info, "second", "two");
    CHECK(MPI_Info_get_nkeys(info, &nkeys) == MPI_SUCCESS && nkeys == 3, "three keys");
    CHECK(MPI_Info_get_nthkey(info, 0, key) == MPI_SUCCESS && strcmp(key, "second") == 0, "the first key set is 0th");
    CHECK(MPI_Info_get_nthkey(info, 2, key) == MPI_SUCCESS && strcmp(key, "third") == 0, "the last key set is 2nd");
    CHECK(strcmp(value_of(info, "second", buf, sizeof buf), "two") == 0, "a key set again has the new value");
    CHECK(MPI_Info_get_valuelen(info, "third", &i, &flag) == MPI_SUCCESS && flag && i == 1, "MPI_Info_get_valuelen");
    MPI_Info_dup(info, &dup);
    MPI_Info_delete(info, "first");
    CHECK(MPI_Info_get_nkeys(info, &nkeys) == MPI_SUCCESS && nkeys == 2, "deleted");
    CHECK(strcmp(value_of(dup, "first", buf, sizeof buf), "1") == 0, "the duplicate keeps it");
    if (!ompi) { /* MPI-4.0 */
        char small[4];
        int len = (int)sizeof small;
        CHECK(MPI_Info_get_string(dup, "second", &len, small, &flag) == MPI_SUCCESS && flag && len == 4 &&
                  strcmp(small, "two") == 0,
              "MPI_Info_get_string: exactly fits");
        MPI_Info_set(dup, "long", "0123456789");
        len = (int)sizeof small;
        CHECK(MPI_Info_get_string(dup, "long", &len, small, &flag) == MPI_SUCCESS && flag && len == 11 &&
                  strcmp(small, "012") == 0,
              "MPI_Info_get_string truncates and gives the size needed (%d, '%s')", len, small);
    }

    /* Bad keys, returned. Info calls raise on MPI_COMM_SELF (on MPI_COMM_WORLD before MPI-4.0). */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    {
        char toolong[MPI_MAX_INFO_KEY + 40];
        memset(toolong, 'k', sizeof toolong - 1);
        toolong[sizeof toolong - 1] = '\0';
        CHECK(error_class(MPI_Info_set(info, toolong, "v")) == MPI_ERR_INFO_KEY, "a key longer than MPI_MAX_INFO_KEY");
        CHECK(error_class(MPI_Info_delete(info, "absent")) == MPI_ERR_INFO_NOKEY, "deleting a key that is not there");
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);

    /* Hints on a communicator. */
    MPI_Info_set(info, "tessera_test_hint", "42");
    CHECK(MPI_Comm_set_info(MPI_COMM_WORLD, info) == MPI_SUCCESS, "MPI_Comm_set_info");
    CHECK(MPI_Comm_get_info(MPI_COMM_WORLD, &used) == MPI_SUCCESS && used != MPI_INFO_NULL, "MPI_Comm_get_info");
    if (native) {
        CHECK(strcmp(value_of(used, "tessera_test_hint", buf, sizeof buf), "42") == 0, "the hint is kept");
    }

    MPI_Info_free(&used);
    MPI_Info_free(&dup);
    MPI_Info_free(&info);
    CHECK(info == MPI_INFO_NULL && dup == MPI_INFO_NULL, "MPI_Info_free");
    p2p_barrier();
    MPI_Finalize();
    if (rank == 0) {
        printf("objects_info: all checks passed on %d ranks\n", size);
    }
    return 0;
}
