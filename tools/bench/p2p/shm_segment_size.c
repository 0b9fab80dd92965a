/*
 * How much memory btl shm takes on a host: every rank initialises and waits at a barrier; rank 0 then
 * prints the size of its mapping of the host segment (unnamed, memfd:tessera-btl-shm, by default; named
 * /dev/shm/tessera-<jobid>-shm-<node> with btl_shm_unnamed false, already unlinked once every rank mapped
 * it: either way /proc/self/maps is where it can still be seen) and the bytes used in /dev/shm, while
 * every rank still holds the segment. docs/btl-shm.md, "Memory per host":
 *   build/bin/mpicc -O2 -o /tmp/shm_segment_size tools/bench/p2p/shm_segment_size.c
 *   build/bin/mpirun -np 64 --oversubscribe /tmp/shm_segment_size
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        FILE *f = fopen("/proc/self/maps", "r");
        char line[512];
        while (f != NULL && fgets(line, sizeof line, f) != NULL) {
            unsigned long from, to;
            const int named = strstr(line, "/dev/shm/tessera-") != NULL && strstr(line, "-shm-") != NULL;
            if ((named || strstr(line, "memfd:tessera-btl-shm") != NULL) && sscanf(line, "%lx-%lx", &from, &to) == 2) {
                printf("mapped %lu bytes: %s", to - from, strchr(line, '/'));
            }
        }
        if (f != NULL) {
            fclose(f);
        }
        struct statvfs v;
        if (statvfs("/dev/shm", &v) == 0) {
            printf("/dev/shm used %llu bytes\n", (unsigned long long)(v.f_blocks - v.f_bfree) * v.f_frsize);
        }
        fflush(stdout);
        sleep(1); /* the others hold the segment meanwhile */
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
