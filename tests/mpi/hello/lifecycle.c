/* The life cycle as an application sees it: what may be asked before MPI_Init, the thread level
 * MPI_Init_thread provides, MPI_Initialized/MPI_Finalized in each phase, MPI_Alloc_mem, the timers. Prints one line
 * per check; exits 1 on the first failure. */
#include <mpi.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "FAILED: %s\n", what);
        ++failures;
    }
}

int main(int argc, char **argv)
{
    int flag = -1, provided = -1, queried = -1, version = 0, subversion = -1, len = 0, rank = 0;
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    double t0, t1, tick;
    struct timespec pause = {0, 2000000};

    /* Allowed before MPI_Init (MPI-4.1 11.2.1). */
    check(MPI_Initialized(&flag) == MPI_SUCCESS && flag == 0, "MPI_Initialized is false before MPI_Init");
    check(MPI_Finalized(&flag) == MPI_SUCCESS && flag == 0, "MPI_Finalized is false before MPI_Init");
    check(MPI_Get_version(&version, &subversion) == MPI_SUCCESS && version == MPI_VERSION &&
              subversion == MPI_SUBVERSION, "MPI_Get_version gives MPI_VERSION.MPI_SUBVERSION");
    check(MPI_Get_library_version(library, &len) == MPI_SUCCESS && len > 0 && (size_t)len == strlen(library) &&
              strstr(library, "Tessera") != NULL, "MPI_Get_library_version names Tessera");

    check(MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided) == MPI_SUCCESS, "MPI_Init_thread succeeds");
    check(provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE asked and provided");
    check(MPI_Query_thread(&queried) == MPI_SUCCESS && queried == provided, "MPI_Query_thread repeats provided");
    check(MPI_Is_thread_main(&flag) == MPI_SUCCESS && flag == 1, "the initializing thread is the main thread");
    check(MPI_Initialized(&flag) == MPI_SUCCESS && flag == 1, "MPI_Initialized is true after MPI_Init");
    check(MPI_Finalized(&flag) == MPI_SUCCESS && flag == 0, "MPI_Finalized is false before MPI_Finalize");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    check(MPI_Pcontrol(0) == MPI_SUCCESS && MPI_Pcontrol(2, "ignored") == MPI_SUCCESS,
          "MPI_Pcontrol is accepted at any level");
    {
        double pair[2];
        MPI_Aint a0, a1;
        MPI_Get_address(&pair[0], &a0);
        MPI_Get_address(&pair[1], &a1);
        check(MPI_Aint_diff(a1, a0) == (MPI_Aint)sizeof(double) && MPI_Aint_add(a0, sizeof(double)) == a1,
              "MPI_Aint_add and MPI_Aint_diff are byte address arithmetic");
    }

    {
        /* MPI_Alloc_mem (MPI-4.1 8.2): memory to use and give back; the MPI-4.1 alignment hint; an
         * address it did not give is refused, on MPI_COMM_SELF's handler. */
        char *mem = NULL, *none = NULL;
        MPI_Info hint;
        int cls = -1;
        MPI_Info_create(&hint);
        MPI_Info_set(hint, "mpi_minimum_memory_alignment", "4096");
        check(MPI_Alloc_mem(100000, hint, &mem) == MPI_SUCCESS && mem != NULL, "MPI_Alloc_mem gives memory");
        check(((size_t)mem & 4095) == 0, "MPI_Alloc_mem honours mpi_minimum_memory_alignment");
        memset(mem, 7, 100000);
        check(MPI_Free_mem(mem) == MPI_SUCCESS, "MPI_Free_mem gives it back");
        check(MPI_Alloc_mem(0, MPI_INFO_NULL, &none) == MPI_SUCCESS && MPI_Free_mem(none) == MPI_SUCCESS,
              "MPI_Alloc_mem of 0 bytes can be freed");
        MPI_Info_free(&hint);
        /* Translated, the runtimes underneath crash on that (Open MPI frees it, MPICH asserts). */
        if (strstr(library, "Open MPI") == NULL && strstr(library, "MPICH") == NULL) {
            MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
            MPI_Error_class(MPI_Free_mem(&cls), &cls);
            check(cls == MPI_ERR_BASE, "MPI_Free_mem of an address MPI_Alloc_mem did not give is MPI_ERR_BASE");
            MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
        }
    }

    tick = MPI_Wtick();
    check(tick > 0.0 && tick <= 1e-3, "MPI_Wtick is positive and at most a millisecond");
    t0 = MPI_Wtime();
    for (int i = 0; i < 1000; ++i) {
        t1 = MPI_Wtime();
        check(t1 >= t0, "MPI_Wtime never goes back");
        t0 = t1;
    }
    t0 = MPI_Wtime();
    nanosleep(&pause, NULL);
    t1 = MPI_Wtime();
    check(t1 - t0 >= 0.0019 && t1 - t0 < 1.0, "MPI_Wtime measures a 2 ms sleep");

    check(MPI_Finalize() == MPI_SUCCESS, "MPI_Finalize succeeds");
    check(MPI_Initialized(&flag) == MPI_SUCCESS && flag == 1, "MPI_Initialized stays true after MPI_Finalize");
    check(MPI_Finalized(&flag) == MPI_SUCCESS && flag == 1, "MPI_Finalized is true after MPI_Finalize");
    check(MPI_Get_version(&version, &subversion) == MPI_SUCCESS, "MPI_Get_version works after MPI_Finalize");

    if (failures == 0) {
        printf("rank %d: life cycle ok (provided MPI_THREAD_MULTIPLE, tick %g s)\n", rank, tick);
    }
    return failures != 0;
}
