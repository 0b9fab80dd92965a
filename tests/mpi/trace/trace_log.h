/*
 * What the traced test programs share: every message event a program causes is done through the
 * helpers below, which also write it to a CSV file per rank in the directory given as the program's
 * first argument, so that tests can compare what the program knows it did with what the trace says:
 *
 *   messages.<rank>.csv   event,peer,tag,bytes,comm,received
 *       event: send (MPI_Send and the other blocking sends), isend (a nonblocking or persistent send,
 *              completed), recv (a blocking receive), irecv (a nonblocking receive, completed),
 *              cancelled (a nonblocking receive cancelled: no message); peer is the MPI_COMM_WORLD
 *              rank of the other side (the actual source for receives), comm the communicator's name;
 *              received (sends) says whether the destination receives the message (0: left unreceived
 *              at exit).
 *   collectives.<rank>.csv   op,root,sent,received,comm   (bytes as the trace framework counts them)
 *   comms.<rank>.csv         name,world ranks of its ranks (space-separated)
 *
 * tests/mpi/trace/trace_check.py reads them; so can the trace analysis tool's tests. Plain MPI C.
 */
#ifndef TESSERA_TESTS_MPI_TRACE_TRACE_LOG_H
#define TESSERA_TESTS_MPI_TRACE_TRACE_LOG_H

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check_report.h"

#define CHECK(cond, ...)                                                                                   \
    do {                                                                                                   \
        if (!(cond)) {                                                                                     \
            CHECK_REPORT(log_rank, __VA_ARGS__);                                                           \
            MPI_Abort(MPI_COMM_WORLD, 1);                                                                  \
        }                                                                                                  \
    } while (0)

static int log_rank = -1, log_size = 0;
static FILE *log_messages, *log_collectives, *log_comms;

static inline FILE *log_create(const char *dir, const char *what, const char *header)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.%d.csv", dir, what, log_rank);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot create %s", path);
    fprintf(f, "%s\n", header);
    return f;
}

/* After MPI_Init: opens the logs in argv[1]. */
static inline void log_open(int argc, char **argv)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &log_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &log_size);
    CHECK(argc > 1, "usage: %s <log directory>", argv[0]);
    log_messages = log_create(argv[1], "messages", "event,peer,tag,bytes,comm,received");
    log_collectives = log_create(argv[1], "collectives", "op,root,sent,received,comm");
    log_comms = log_create(argv[1], "comms", "name,world_ranks");
}

static inline void log_close(void)
{
    fclose(log_messages);
    fclose(log_collectives);
    fclose(log_comms);
}

/* The name the trace gives `comm`: MPI_COMM_WORLD's, or the one log_comm set. */
static inline const char *comm_label(MPI_Comm comm)
{
    static _Thread_local char name[MPI_MAX_OBJECT_NAME]; /* threads log at once (trace_threads) */
    int len = 0;
    if (comm == MPI_COMM_WORLD) {
        return "MPI_COMM_WORLD";
    }
    MPI_Comm_get_name(comm, name, &len);
    return name;
}

/* The MPI_COMM_WORLD rank of `rank` in `comm`. */
static inline int world_of(MPI_Comm comm, int rank)
{
    if (comm == MPI_COMM_WORLD) {
        return rank;
    }
    MPI_Group group, world;
    int out = -1;
    MPI_Comm_group(comm, &group);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_translate_ranks(group, 1, &rank, world, &out);
    MPI_Group_free(&group);
    MPI_Group_free(&world);
    return out;
}

static inline long type_bytes(int count, MPI_Datatype type)
{
    int size = 0;
    MPI_Type_size(type, &size);
    return (long)count * size;
}

static inline void log_message(const char *event, MPI_Comm comm, int peer, int tag, long bytes, int received)
{
    fprintf(log_messages, "%s,%d,%d,%ld,%s,%d\n", event, peer < 0 ? peer : world_of(comm, peer), tag, bytes,
            comm_label(comm), received);
}

/* A communicator the test uses besides MPI_COMM_WORLD, named so that the trace can be checked by name. */
static inline void log_comm(MPI_Comm comm, const char *name)
{
    int size = 0;
    MPI_Comm_set_name(comm, name);
    MPI_Comm_size(comm, &size);
    fprintf(log_comms, "%s,", name);
    for (int i = 0; i < size; ++i) {
        fprintf(log_comms, "%s%d", i ? " " : "", world_of(comm, i));
    }
    fprintf(log_comms, "\n");
}

static inline void log_collective(const char *op, int root, long sent, long received, MPI_Comm comm)
{
    fprintf(log_collectives, "%s,%d,%ld,%ld,%s\n", op, root, sent, received, comm_label(comm));
}

/* --- The operations, done and logged --------------------------------------------------------- */

static inline void t_send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    MPI_Send(buf, count, type, dest, tag, comm);
    log_message("send", comm, dest, tag, type_bytes(count, type), 1);
}

/* A completed receive, from its status. */
static inline void log_received(const char *event, MPI_Comm comm, const MPI_Status *st)
{
    int bytes = 0;
    MPI_Get_count(st, MPI_BYTE, &bytes);
    log_message(event, comm, st->MPI_SOURCE, st->MPI_TAG, bytes, 1);
}

static inline void t_recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm)
{
    MPI_Status st;
    MPI_Recv(buf, count, type, source, tag, comm, &st);
    log_received("recv", comm, &st);
}

/* One message around the ring of `comm`, blocking: rank 0 sends first, the others receive first. */
static inline void t_ring(MPI_Comm comm, int count, int tag)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int *buf = calloc((size_t)count + 1, sizeof(int));
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (rank != 0) {
        t_recv(buf, count, MPI_INT, prev, tag, comm);
    }
    t_send(buf, count, MPI_INT, next, tag, comm);
    if (rank == 0) {
        t_recv(buf, count, MPI_INT, prev, tag, comm);
    }
    free(buf);
}

/* A barrier from logged point-to-point messages (the native engine has no collectives yet). */
static inline void t_p2p_barrier(MPI_Comm comm)
{
    int rank, size, token = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == 0) {
        for (int i = 1; i < size; ++i) {
            t_recv(&token, 1, MPI_INT, i, 32000, comm);
        }
        for (int i = 1; i < size; ++i) {
            t_send(&token, 1, MPI_INT, i, 32001, comm);
        }
    } else if (size > 1) {
        t_send(&token, 1, MPI_INT, 0, 32000, comm);
        t_recv(&token, 1, MPI_INT, 0, 32001, comm);
    }
}

#endif
