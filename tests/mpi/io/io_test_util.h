/* What the io tests share: a file name unique to the job (rank 0's pid, under TMPDIR or /tmp, told to
 * every rank), plain POSIX reads of a file for reference, and error classes. */
#ifndef TESSERA_TESTS_MPI_IO_IO_TEST_UTIL_H
#define TESSERA_TESTS_MPI_IO_IO_TEST_UTIL_H

#include "../mpi_check.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

static inline void job_path(char *out, size_t len, const char *what)
{
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long pid = (long)getpid();
    MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    const char *dir = getenv("TMPDIR");
    snprintf(out, len, "%s/tessera-io-test-%ld-%s", dir != NULL && *dir ? dir : "/tmp", pid, what);
}

static inline int error_class(int code)
{
    int c = -1;
    MPI_Error_class(code, &c);
    return c;
}

/* The file's bytes through POSIX, into buf (at most len); returns how many. */
static inline long posix_read_all(const char *path, void *buf, size_t len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        return -1;
    }
    long got = 0;
    for (;;) {
        ssize_t n = pread(fd, (char *)buf + got, len - (size_t)got, got);
        if (n <= 0) {
            break;
        }
        got += n;
    }
    close(fd);
    return got;
}

static inline int file_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

#endif
