/* An MPI rank reports where MPI_Init bound it: "rank R bind=<TESSERA_BIND> cpus_allowed=<list> ok" when
 * the kernel's Cpus_allowed_list holds exactly the PUs mpirun chose (lists compared as sets, since
 * mpirun writes "0,1" where the kernel writes "0-1"), "... MISMATCH" otherwise. */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxPu = 4096 };

/* "0,2-3" -> set[0] = set[2] = set[3] = 1; returns 0 for a malformed list. */
static int parse_list(const char *text, unsigned char *set)
{
    memset(set, 0, kMaxPu);
    while (*text != '\0' && *text != '\n') {
        char *end = NULL;
        long lo = strtol(text, &end, 10), hi = lo;
        if (end == text || lo < 0 || lo >= kMaxPu) {
            return 0;
        }
        if (*end == '-') {
            text = end + 1;
            hi = strtol(text, &end, 10);
            if (end == text || hi < lo || hi >= kMaxPu) {
                return 0;
            }
        }
        for (long i = lo; i <= hi; ++i) {
            set[i] = 1;
        }
        text = *end == ',' ? end + 1 : end;
    }
    return 1;
}

int main(int argc, char **argv)
{
    static unsigned char want[kMaxPu], have[kMaxPu];
    char line[512], allowed[512] = "";
    int rank = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    FILE *f = fopen("/proc/self/status", "r");
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "Cpus_allowed_list:", 18) == 0) {
            const char *v = line + 18;
            v += strspn(v, " \t");
            snprintf(allowed, sizeof allowed, "%.*s", (int)strcspn(v, "\n"), v);
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    const char *bind = getenv("TESSERA_BIND");
    int ok = bind != NULL && strcmp(bind, "none") != 0 && parse_list(bind, want) && parse_list(allowed, have) &&
             memcmp(want, have, kMaxPu) == 0;
    printf("rank %d bind=%s cpus_allowed=%s %s\n", rank, bind != NULL ? bind : "(unset)", allowed,
           ok ? "ok" : "MISMATCH");
    MPI_Finalize();
    return 0;
}
