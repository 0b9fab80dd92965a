/* Translator conformance: four threads call MPI at the same time under MPI_THREAD_MULTIPLE — each on
 * its own duplicate of MPI_COMM_WORLD (duplicated by the main thread), a Sendrecv with itself, an
 * Allreduce with a user op (the op's trampoline and the handle conversions run on four threads at
 * once), nonblocking sends to itself with Waitall, and its own MPI_Comm_dup/free. Checks the values and
 * that no call fails. Two ranks (more are fine). */
#include "conformance.h"

#include <pthread.h>
#include <stdatomic.h>

enum { THREADS = 4, ROUNDS = 300 };

static MPI_Comm comms[THREADS];
static MPI_Op user_sum;
static atomic_int errors;
static atomic_int op_wrong_type;
static int world_rank, world_size;

static void add_longs(void *in, void *inout, int *len, MPI_Datatype *type)
{
    if (*type != MPI_LONG) {
        atomic_fetch_add(&op_wrong_type, 1);
        return;
    }
    for (int i = 0; i < *len; ++i) {
        ((long *)inout)[i] += ((long *)in)[i];
    }
}

static void *worker(void *arg)
{
    const int t = (int)(long)arg;
    MPI_Comm comm = comms[t];
    for (int round = 0; round < ROUNDS; ++round) {
        int out = 1000 * t + round, in = -1;
        MPI_Status status;
        if (MPI_Sendrecv(&out, 1, MPI_INT, world_rank, t, &in, 1, MPI_INT, world_rank, t, comm, &status) !=
                MPI_SUCCESS || in != out || status.MPI_SOURCE != world_rank || status.MPI_TAG != t) {
            atomic_fetch_add(&errors, 1);
        }
        long v[2] = {world_rank + 1, t}, r[2] = {0, 0};
        if (MPI_Allreduce(v, r, 2, MPI_LONG, round % 2 ? user_sum : MPI_SUM, comm) != MPI_SUCCESS ||
            r[0] != (long)world_size * (world_size + 1) / 2 || r[1] != (long)t * world_size) {
            atomic_fetch_add(&errors, 1);
        }
        MPI_Request reqs[4];
        int a[2] = {round, -round}, b[2] = {0, 0};
        MPI_Irecv(&b[0], 1, MPI_INT, world_rank, 100, comm, &reqs[0]);
        MPI_Irecv(&b[1], 1, MPI_INT, world_rank, 101, comm, &reqs[1]);
        MPI_Isend(&a[1], 1, MPI_INT, world_rank, 101, comm, &reqs[2]);
        MPI_Isend(&a[0], 1, MPI_INT, world_rank, 100, comm, &reqs[3]);
        if (MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE) != MPI_SUCCESS || b[0] != a[0] || b[1] != a[1] ||
            reqs[0] != MPI_REQUEST_NULL) {
            atomic_fetch_add(&errors, 1);
        }
        if (round % 50 == 0) {
            MPI_Comm mine = MPI_COMM_NULL;
            if (MPI_Comm_dup(MPI_COMM_SELF, &mine) != MPI_SUCCESS || mine == MPI_COMM_NULL ||
                MPI_Comm_free(&mine) != MPI_SUCCESS || mine != MPI_COMM_NULL) {
                atomic_fetch_add(&errors, 1);
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided = -1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE asked, %d provided", provided);
    if (provided != MPI_THREAD_MULTIPLE) {
        return conformance_end("conformance_threads");
    }
    MPI_Op_create(add_longs, 1, &user_sum);
    for (int t = 0; t < THREADS; ++t) {
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    }
    pthread_t threads[THREADS];
    for (int t = 0; t < THREADS; ++t) {
        pthread_create(&threads[t], NULL, worker, (void *)(long)t);
    }
    for (int t = 0; t < THREADS; ++t) {
        pthread_join(threads[t], NULL);
    }
    CHECK(atomic_load(&errors) == 0, "%d failed calls or wrong values on %d threads", atomic_load(&errors), THREADS);
    CHECK(atomic_load(&op_wrong_type) == 0, "the user op saw another datatype %d times", atomic_load(&op_wrong_type));
    for (int t = 0; t < THREADS; ++t) {
        MPI_Comm_free(&comms[t]);
    }
    MPI_Op_free(&user_sum);
    MPI_Barrier(MPI_COMM_WORLD);
    return conformance_end("conformance_threads");
}
