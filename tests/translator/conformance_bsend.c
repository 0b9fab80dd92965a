/* Translator conformance: a buffer attached for buffered sends is enough when it holds, for every message
 * pending at once, its MPI_Pack_size + MPI_BSEND_OVERHEAD (MPI-4.1 3.6.1) — at any alignment of the
 * buffer, for one message or several, empty, small, odd-sized, derived-type and rendezvous-sized ones.
 * Rank 0 sends with MPI_ERRORS_RETURN and tells rank 1 how many messages went, so that a refused
 * MPI_Bsend is a failed check, not a hang. A message too large for the buffer is MPI_ERR_BUFFER, and
 * leaves nothing behind: a later MPI_Bsend that fits is delivered, and MPI_Buffer_detach returns. Two ranks
 * (more are fine: ranks 0 and 1 talk). */
#include "conformance.h"

#include <stdlib.h>
#include <string.h>

enum { COUNT_TAG = 999, MAX_MESSAGES = 6 };

static unsigned char pattern(int c, int m, int i)
{
    return (unsigned char)(c * 31 + m * 7 + i);
}

/* One case: `n` messages of sizes[m] elements of `type` (each of `elem` bytes), the buffer attached
 * `misalign` bytes past a 64-byte boundary, exactly sum(pack size + MPI_BSEND_OVERHEAD) long. */
static void one_case(int rank, int c, int n, const int *sizes, MPI_Datatype type, int elem, int misalign)
{
    if (rank > 1) {
        return;
    }
    if (rank == 0) {
        int total = 0;
        for (int m = 0; m < n; ++m) {
            int packed = 0;
            MPI_Pack_size(sizes[m], type, MPI_COMM_WORLD, &packed);
            total += packed + MPI_BSEND_OVERHEAD;
        }
        char *block = malloc((size_t)total + 128);
        char *buffer = block + (64 - (size_t)block % 64) % 64 + (size_t)misalign;
        MPI_Buffer_attach(buffer, total);
        int sent = 0;
        for (int m = 0; m < n; ++m) {
            const size_t bytes = (size_t)sizes[m] * (size_t)elem;
            unsigned char *data = malloc(bytes + 1);
            for (size_t i = 0; i < bytes; ++i) {
                data[i] = pattern(c, m, (int)i);
            }
            const int rc = MPI_Bsend(data, sizes[m], type, 1, c * 16 + m, MPI_COMM_WORLD);
            CHECK(rc == MPI_SUCCESS,
                  "case %d: MPI_Bsend %d of %d (%zu bytes) failed (%d) with a buffer of exactly %d bytes at "
                  "alignment %d",
                  c, m + 1, n, bytes, rc, total, misalign);
            free(data); /* copied into the attached buffer */
            if (rc != MPI_SUCCESS) {
                break;
            }
            ++sent;
        }
        MPI_Send(&sent, 1, MPI_INT, 1, COUNT_TAG, MPI_COMM_WORLD);
        void *back = NULL;
        int back_size = 0;
        MPI_Buffer_detach(&back, &back_size);
        CHECK(back == buffer && back_size == total, "case %d: MPI_Buffer_detach gives back the buffer", c);
        free(block);
    } else {
        int sent = 0;
        MPI_Recv(&sent, 1, MPI_INT, 0, COUNT_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int m = 0; m < sent; ++m) {
            const size_t bytes = (size_t)sizes[m] * (size_t)elem;
            unsigned char *data = malloc(bytes + 1);
            MPI_Status st;
            MPI_Recv(data, sizes[m], type, 0, c * 16 + m, MPI_COMM_WORLD, &st);
            int count = -1;
            MPI_Get_count(&st, type, &count);
            size_t bad = bytes;
            for (size_t i = 0; i < bytes && bad == bytes; ++i) {
                const int gap = elem == 32 && i % 32 >= 24 && i % 32 < 28; /* the struct's hole */
                if (!gap && data[i] != pattern(c, m, (int)i)) {
                    bad = i;
                }
            }
            CHECK(count == sizes[m] && bad == bytes, "case %d: message %d: count %d (expected %d), byte %zu differs", c,
                  m, count, sizes[m], bad);
            free(data);
        }
    }
}

/* A message larger than the attached buffer is refused with MPI_ERR_BUFFER; what fits still goes. */
static void refused_then_fits(int rank)
{
    if (rank > 1) {
        return;
    }
    const int small = 100, large = 100000;
    int sent[2] = {0, 0};
    if (rank == 0) {
        const int total = small + MPI_BSEND_OVERHEAD;
        char *buffer = malloc((size_t)total);
        unsigned char *data = malloc((size_t)large);
        memset(data, 7, (size_t)large);
        MPI_Buffer_attach(buffer, total);
        int cls = -1;
        const int rc = MPI_Bsend(data, large, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
        MPI_Error_class(rc, &cls);
        CHECK(cls == MPI_ERR_BUFFER, "a message larger than the buffer: class %d, expected MPI_ERR_BUFFER", cls);
        sent[0] = rc == MPI_SUCCESS;
        sent[1] = MPI_Bsend(data, small, MPI_BYTE, 1, 2, MPI_COMM_WORLD) == MPI_SUCCESS;
        CHECK(sent[1], "after a refused MPI_Bsend, one that fits the buffer is accepted");
        MPI_Send(sent, 2, MPI_INT, 1, COUNT_TAG, MPI_COMM_WORLD);
        void *back = NULL;
        int back_size = 0;
        MPI_Buffer_detach(&back, &back_size);
        CHECK(back == buffer && back_size == total, "MPI_Buffer_detach after a refused MPI_Bsend");
        free(data);
        free(buffer);
    } else {
        unsigned char *data = malloc((size_t)large);
        MPI_Recv(sent, 2, MPI_INT, 0, COUNT_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (sent[0]) {
            MPI_Recv(data, large, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (sent[1]) {
            data[0] = 0;
            MPI_Recv(data, small, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            CHECK(data[0] == 7 && data[small - 1] == 7, "the message sent after the refused one arrived");
        }
        free(data);
    }
}

int main(int argc, char **argv)
{
    int rank = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    /* Three doubles and an int, 4 bytes of gap between them: packed, 28 bytes. */
    MPI_Datatype mixed = MPI_DATATYPE_NULL, resized = MPI_DATATYPE_NULL;
    const int blocks[2] = {3, 1};
    const MPI_Aint displs[2] = {0, 28};
    const MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT};
    MPI_Type_create_struct(2, blocks, displs, types, &mixed);
    MPI_Type_create_resized(mixed, 0, 32, &resized);
    MPI_Type_commit(&resized);

    static const int one[][MAX_MESSAGES] = {{1}, {0}, {13}, {100}, {4093}, {65537}};
    static const int several[][MAX_MESSAGES] = {{1, 1, 1, 1, 1, 1}, {7, 0, 300, 5, 1021, 3}, {200000, 17, 9}};
    int c = 0;
    for (int misalign = 0; misalign < 16; ++misalign) {
        for (size_t s = 0; s < sizeof one / sizeof one[0]; ++s) {
            one_case(rank, c++, 1, one[s], MPI_BYTE, 1, misalign);
        }
    }
    const int several_n[] = {6, 6, 3};
    for (int misalign = 0; misalign < 16; misalign += 5) {
        for (size_t s = 0; s < sizeof several / sizeof several[0]; ++s) {
            one_case(rank, c++, several_n[s], several[s], MPI_BYTE, 1, misalign);
        }
        /* Sizes from MPI_Pack_size of a derived type (not a multiple of its extent), and of MPI_INT. */
        const int structs[] = {1, 3, 37, 5};
        one_case(rank, c++, 4, structs, resized, 32, misalign);
        const int ints[] = {3, 1, 250};
        one_case(rank, c++, 3, ints, MPI_INT, (int)sizeof(int), misalign);
    }
    refused_then_fits(rank);
    MPI_Type_free(&mixed);
    MPI_Type_free(&resized);
    return conformance_end("conformance_bsend");
}
