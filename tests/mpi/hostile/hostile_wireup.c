/*
 * Before MPI_Init, rank 0 attacks mpirun's wire-up port (TESSERA_KV_URI) the way a hostile local user
 * could: garbage, a HELLO with a wrong job key, a header claiming 4 GiB, a truncated frame. Each
 * connection must be refused, and the job (this program's own MPI_Init on every rank) must go on.
 */
#include <arpa/inet.h>
#include <mpi.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int connect_uri(const char *uri)
{
    char host[256];
    const char *colon = strrchr(uri, ':');
    if (colon == NULL || (size_t)(colon - uri) >= sizeof host) {
        return -1;
    }
    memcpy(host, uri, (size_t)(colon - uri));
    host[colon - uri] = '\0';
    struct addrinfo hints = {0}, *res = NULL;
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, colon + 1, &hints, &res) != 0) {
        return -1;
    }
    int fd = socket(res->ai_family, res->ai_socktype, 0);
    if (fd >= 0 && connect(fd, res->ai_addr, res->ai_addrlen) != 0) {
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    return fd;
}

static void put_u32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
    p[3] = (unsigned char)(v >> 24);
}

/* Sends `len` bytes, optionally half-closes, then waits until the server drops us. */
static int attack(const char *uri, const unsigned char *bytes, size_t len, int half_close)
{
    int fd = connect_uri(uri);
    if (fd < 0) {
        fprintf(stderr, "hostile: cannot connect to %s\n", uri);
        return 1;
    }
    if (send(fd, bytes, len, MSG_NOSIGNAL) != (ssize_t)len) {
        /* a server that already dropped us is fine */
    }
    if (half_close) {
        shutdown(fd, SHUT_WR);
    }
    char buf[64];
    ssize_t n;
    while ((n = recv(fd, buf, sizeof buf, 0)) > 0) {
        /* a refused peer must be sent nothing */
        fprintf(stderr, "hostile: server answered a hostile connection with %zd bytes\n", n);
        close(fd);
        return 1;
    }
    close(fd);
    return 0;
}

int main(int argc, char **argv)
{
    const char *uri = getenv("TESSERA_KV_URI");
    const char *rank_env = getenv("TESSERA_RANK");
    int failures = 0;
    if (uri != NULL && rank_env != NULL && strcmp(rank_env, "0") == 0) {
        const char garbage[] = "GET / HTTP/1.0\r\n\r\n";
        failures += attack(uri, (const unsigned char *)garbage, sizeof garbage - 1, 0);

        unsigned char hello[5 + 12 + 64];
        put_u32(hello, 12 + 64);
        hello[4] = 1; /* HELLO */
        put_u32(hello + 5, 1);  /* protocol version */
        put_u32(hello + 9, 1);  /* rank 1: a real rank's slot */
        put_u32(hello + 13, 64);
        memset(hello + 17, 'a', 64); /* not the job key */
        failures += attack(uri, hello, sizeof hello, 0);

        unsigned char huge[5];
        put_u32(huge, 0xffffffffu);
        huge[4] = 1;
        failures += attack(uri, huge, sizeof huge, 0);

        unsigned char truncated[5 + 10];
        put_u32(truncated, 100);
        truncated[4] = 1;
        memset(truncated + 5, 0, 10);
        failures += attack(uri, truncated, sizeof truncated, 1);
    }

    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("rank %d of %d wired up%s\n", rank, size, failures ? " (attack checks FAILED)" : "");
    MPI_Finalize();
    return failures ? 1 : 0;
}
