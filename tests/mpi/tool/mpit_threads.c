/*
 * MPI_T from several threads at once: each initializes MPI_T (counted), enumerates and reads every
 * cvar, and runs a pvar session, before MPI_Init and again while the main thread exchanges messages
 * under MPI_THREAD_MULTIPLE. Every call must succeed and the counts agree between threads.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kThreads = 4, kRounds = 3 };

static int failures;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, int rc)
{
    pthread_mutex_lock(&lock);
    fprintf(stderr, "FAILED: %s returned %d\n", what, rc);
    ++failures;
    pthread_mutex_unlock(&lock);
}

#define OK(call)                                                                                           \
    do {                                                                                                   \
        int rc_ = (call);                                                                                  \
        if (rc_ != MPI_SUCCESS) {                                                                          \
            fail(#call, rc_);                                                                              \
            return NULL;                                                                                   \
        }                                                                                                  \
    } while (0)

static void *worker(void *arg)
{
    int *num_out = arg;
    int provided;
    OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    for (int round = 0; round < kRounds; ++round) {
        int num = 0, ncat = 0;
        OK(MPI_T_cvar_get_num(&num));
        OK(MPI_T_category_get_num(&ncat));
        for (int i = 0; i < num; ++i) {
            char name[256], value[4096];
            int len = sizeof name, count = 0;
            MPI_Datatype type;
            MPI_T_cvar_handle h;
            OK(MPI_T_cvar_get_info(i, name, &len, NULL, &type, NULL, NULL, NULL, NULL, NULL));
            OK(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
            if (count <= (int)sizeof value) {
                OK(MPI_T_cvar_read(h, value));
            }
            OK(MPI_T_cvar_handle_free(&h));
        }
        MPI_T_pvar_session session;
        MPI_T_pvar_handle h;
        int index = -1, count = 0;
        double seconds = 0;
        OK(MPI_T_pvar_session_create(&session));
        OK(MPI_T_pvar_get_index("pml_match_time", MPI_T_PVAR_CLASS_TIMER, &index));
        OK(MPI_T_pvar_handle_alloc(session, index, NULL, &h, &count));
        OK(MPI_T_pvar_start(session, h));
        OK(MPI_T_pvar_read(session, h, &seconds));
        OK(MPI_T_pvar_stop(session, h));
        OK(MPI_T_pvar_handle_free(session, &h));
        OK(MPI_T_pvar_session_free(&session));
        *num_out = num;
    }
    OK(MPI_T_finalize());
    return NULL;
}

static int run_threads(void)
{
    pthread_t t[kThreads];
    int num[kThreads] = {0};
    for (int i = 0; i < kThreads; ++i) {
        pthread_create(&t[i], NULL, worker, &num[i]);
    }
    for (int i = 0; i < kThreads; ++i) {
        pthread_join(t[i], NULL);
    }
    for (int i = 1; i < kThreads; ++i) {
        if (num[i] != num[0]) {
            fail("threads saw different numbers of cvars", num[i]);
        }
    }
    return num[0];
}

/* With "during-init": the first MPI_T_init_thread races MPI_Init's own registration of every
 * framework (nothing registered before). */
int main(int argc, char **argv)
{
    const int during_init = argc > 1 && strcmp(argv[1], "during-init") == 0;
    const int before = during_init ? 1 : run_threads();
    int provided = 0, rank = 0;
    pthread_t t[kThreads];
    int num[kThreads] = {0};
    if (during_init) {
        for (int i = 0; i < kThreads; ++i) {
            pthread_create(&t[i], NULL, worker, &num[i]);
        }
    }
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (!during_init) {
        for (int i = 0; i < kThreads; ++i) {
            pthread_create(&t[i], NULL, worker, &num[i]);
        }
    }
    for (int i = 0; i < 200; ++i) { /* traffic meanwhile */
        int v = i;
        MPI_Sendrecv_replace(&v, 1, MPI_INT, 1 - rank, 0, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < kThreads; ++i) {
        pthread_join(t[i], NULL);
    }
    if (failures != 0 || before == 0 || num[0] < before) {
        fprintf(stderr, "rank %d: FAILED: %d failures; %d cvars before MPI_Init, %d after\n", rank, failures, before,
                num[0]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("mpit_threads: %d threads used MPI_T at once before MPI_Init (%d cvars) and during it\n", kThreads,
               before);
    }
    MPI_Finalize();
    return 0;
}
