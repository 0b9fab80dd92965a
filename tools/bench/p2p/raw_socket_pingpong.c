/* The tcp anchor: a plain C ping-pong of 8 bytes over a loopback TCP connection between two processes,
 * spinning on non-blocking reads as an MPI library's progress loop does. Half the round trip in
 * microseconds, best of 5 runs. Prints "raw_tcp_latency_us 8 <value>". Pin with taskset as the MPI runs. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void read_spin(int fd, char *buf, size_t n)
{
    size_t have = 0;
    while (have < n) {
        const ssize_t r = recv(fd, buf + have, n - have, MSG_DONTWAIT);
        if (r > 0) {
            have += (size_t)r;
        } else if (r == 0) {
            exit(1);
        }
    }
}

int main(void)
{
    const long iters = 20000;
    int lfd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in sa = {0};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    bind(lfd, (struct sockaddr *)&sa, sizeof sa);
    listen(lfd, 1);
    getsockname(lfd, (struct sockaddr *)&sa, &len);
    char buf[8] = {0};
    const pid_t child = fork();
    if (child == 0) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        connect(fd, (struct sockaddr *)&sa, sizeof sa);
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        for (long i = 0; i < (iters + 1000) * 6; ++i) {
            read_spin(fd, buf, sizeof buf);
            send(fd, buf, sizeof buf, 0);
        }
        _exit(0);
    }
    int fd = accept(lfd, NULL, NULL);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    for (long i = 0; i < 1000; ++i) {
        send(fd, buf, sizeof buf, 0);
        read_spin(fd, buf, sizeof buf);
    }
    double best = 1e30;
    for (int r = 0; r < 6; ++r) {
        const double t0 = now();
        for (long i = 0; i < iters; ++i) {
            send(fd, buf, sizeof buf, 0);
            read_spin(fd, buf, sizeof buf);
        }
        const double t = (now() - t0) / (2.0 * (double)iters);
        best = r > 0 && t < best ? t : best;
    }
    close(fd);
    waitpid(child, NULL, 0);
    printf("raw_tcp_latency_us 8 %.4f\n", best * 1e6);
    return 0;
}
