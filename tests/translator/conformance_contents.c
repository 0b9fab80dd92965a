/* Translator conformance: MPI_Type_get_envelope / MPI_Type_get_contents (and their _c forms) describe a
 * type with the ABI's constants — the combiner, the datatypes, and the integers that are constants (a
 * darray's MPI_DISTRIBUTE_* and MPI_DISTRIBUTE_DFLT_DARG, its and a subarray's MPI_ORDER_*) — so that a
 * type rebuilt from its contents is the same type. Each rank on its own; any number of ranks. */
#include "conformance.h"

#include <stdlib.h>
#include <string.h>

enum { MAXI = 64, MAXA = 8, MAXD = 4 };

/* The same bytes selected by both types from the same buffer: packs both and compares. */
static int same_layout(MPI_Datatype a, MPI_Datatype b)
{
    int sa = -1, sb = -2;
    MPI_Aint lba = -1, lbb = -2, exa = -1, exb = -2;
    MPI_Type_size(a, &sa);
    MPI_Type_size(b, &sb);
    MPI_Type_get_extent(a, &lba, &exa);
    MPI_Type_get_extent(b, &lbb, &exb);
    if (sa != sb || lba != lbb || exa != exb || sa <= 0) {
        return 0;
    }
    const size_t span = (size_t)(lba + exa) + 64;
    unsigned char *in = malloc(span), *pa = malloc((size_t)sa), *pb = malloc((size_t)sb);
    for (size_t i = 0; i < span; ++i) {
        in[i] = (unsigned char)(i * 13 + 5);
    }
    int posa = 0, posb = 0;
    MPI_Pack(in, 1, a, pa, sa, &posa, MPI_COMM_SELF);
    MPI_Pack(in, 1, b, pb, sb, &posb, MPI_COMM_SELF);
    const int same = posa == sa && posb == sb && memcmp(pa, pb, (size_t)sa) == 0;
    free(in);
    free(pa);
    free(pb);
    return same;
}

/* The contents of a type built from a predefined one, through both forms; rebuilt by `rebuild`. */
typedef int (*rebuild_fn)(const int *ints, MPI_Datatype old, MPI_Datatype *out);

static void check_type(const char *what, MPI_Datatype t, int combiner, const int *ints, int ni, MPI_Datatype old,
                       rebuild_fn rebuild)
{
    int n_i = -1, n_a = -1, n_d = -1, comb = -1;
    CHECK(MPI_Type_get_envelope(t, &n_i, &n_a, &n_d, &comb) == MPI_SUCCESS && comb == combiner && n_i == ni &&
              n_a == 0 && n_d == 1,
          "%s: MPI_Type_get_envelope: combiner %d (expected %d), %d integers (expected %d), %d addresses, %d types",
          what, comb, combiner, n_i, ni, n_a, n_d);
    int got[MAXI];
    MPI_Aint addrs[MAXA];
    MPI_Datatype types[MAXD] = {MPI_DATATYPE_NULL};
    memset(got, 0x7f, sizeof got);
    CHECK(MPI_Type_get_contents(t, MAXI, MAXA, MAXD, got, addrs, types) == MPI_SUCCESS,
          "%s: MPI_Type_get_contents", what);
    for (int i = 0; i < ni && i < MAXI; ++i) {
        CHECK(got[i] == ints[i], "%s: MPI_Type_get_contents: integer %d is %d, expected %d", what, i, got[i], ints[i]);
    }
    CHECK(types[0] == old, "%s: MPI_Type_get_contents: the old type is not the ABI's predefined handle", what);
    MPI_Datatype again = MPI_DATATYPE_NULL;
    CHECK(rebuild(got, types[0], &again) == MPI_SUCCESS, "%s: rebuilt from its contents", what);
    if (again != MPI_DATATYPE_NULL) {
        MPI_Type_commit(&again);
        CHECK(same_layout(t, again), "%s: the type rebuilt from its contents differs", what);
        MPI_Type_free(&again);
    }

    /* The MPI_Count forms: the same integers (a type made by the int constructor has no large counts). */
    MPI_Count c_i = -1, c_a = -1, c_c = -1, c_d = -1;
    comb = -1;
    CHECK(MPI_Type_get_envelope_c(t, &c_i, &c_a, &c_c, &c_d, &comb) == MPI_SUCCESS && comb == combiner &&
              c_i == ni && c_c == 0 && c_d == 1,
          "%s: MPI_Type_get_envelope_c: combiner %d, %lld integers, %lld large counts", what, comb, (long long)c_i,
          (long long)c_c);
    MPI_Count counts[MAXA];
    memset(got, 0x7f, sizeof got);
    types[0] = MPI_DATATYPE_NULL;
    CHECK(MPI_Type_get_contents_c(t, MAXI, MAXA, MAXA, MAXD, got, addrs, counts, types) == MPI_SUCCESS,
          "%s: MPI_Type_get_contents_c", what);
    for (int i = 0; i < ni && i < MAXI; ++i) {
        CHECK(got[i] == ints[i], "%s: MPI_Type_get_contents_c: integer %d is %d, expected %d", what, i, got[i],
              ints[i]);
    }
    CHECK(types[0] == old, "%s: MPI_Type_get_contents_c: the old type", what);
}

static int rebuild_darray(const int *i, MPI_Datatype old, MPI_Datatype *out)
{
    const int nd = i[2];
    return MPI_Type_create_darray(i[0], i[1], nd, &i[3], &i[3 + nd], &i[3 + 2 * nd], &i[3 + 3 * nd], i[3 + 4 * nd],
                                  old, out);
}

static int rebuild_subarray(const int *i, MPI_Datatype old, MPI_Datatype *out)
{
    const int nd = i[0];
    return MPI_Type_create_subarray(nd, &i[1], &i[1 + nd], &i[1 + 2 * nd], i[1 + 3 * nd], old, out);
}

static int rebuild_vector(const int *i, MPI_Datatype old, MPI_Datatype *out)
{
    return MPI_Type_vector(i[0], i[1], i[2], old, out);
}

static void darray(int size, int rank, int nd, const int *gsizes, const int *distribs, const int *dargs,
                   const int *psizes, int order, MPI_Datatype old, const char *what)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(MPI_Type_create_darray(size, rank, nd, gsizes, distribs, dargs, psizes, order, old, &t) == MPI_SUCCESS,
          "%s: MPI_Type_create_darray", what);
    MPI_Type_commit(&t);
    int ints[MAXI], n = 0;
    ints[n++] = size;
    ints[n++] = rank;
    ints[n++] = nd;
    for (int k = 0; k < nd; ++k) ints[n++] = gsizes[k];
    for (int k = 0; k < nd; ++k) ints[n++] = distribs[k];
    for (int k = 0; k < nd; ++k) ints[n++] = dargs[k];
    for (int k = 0; k < nd; ++k) ints[n++] = psizes[k];
    ints[n++] = order;
    check_type(what, t, MPI_COMBINER_DARRAY, ints, n, old, rebuild_darray);
    MPI_Type_free(&t);
}

/* A darray made with MPI_Count sizes: its gsizes may come back among the large counts (3 * ndims + 4
 * integers) or, where the type keeps ints, among the integers (4 * ndims + 4); the constants are the
 * ABI's either way. */
static void darray_c(void)
{
    const MPI_Count g[2] = {9, 4};
    const int d[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_NONE}, a[2] = {2, MPI_DISTRIBUTE_DFLT_DARG};
    const int p[2] = {3, 1};
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (MPI_Type_create_darray_c(3, 2, 2, g, d, a, p, MPI_ORDER_FORTRAN, MPI_INT, &t) != MPI_SUCCESS) {
        CHECK(0, "MPI_Type_create_darray_c");
        return;
    }
    MPI_Count ni = -1, na = -1, nc = -1, nd = -1;
    int comb = -1;
    MPI_Type_get_envelope_c(t, &ni, &na, &nc, &nd, &comb);
    CHECK(comb == MPI_COMBINER_DARRAY && nd == 1 && ((ni == 10 && nc == 2) || (ni == 12 && nc == 0)),
          "darray_c: combiner %d, %lld integers, %lld large counts", comb, (long long)ni, (long long)nc);
    if (!(nd == 1 && ((ni == 10 && nc == 2) || (ni == 12 && nc == 0)))) {
        MPI_Type_free(&t);
        return;
    }
    int ints[MAXI];
    MPI_Aint addrs[MAXA];
    MPI_Count counts[MAXA];
    MPI_Datatype types[MAXD];
    CHECK(MPI_Type_get_contents_c(t, ni, na, nc, nd, ints, addrs, counts, types) == MPI_SUCCESS,
          "darray_c: MPI_Type_get_contents_c");
    const int first = nc == 2 ? 3 : 5; /* the distributions, after the gsizes when those are integers */
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 2 && ints[first] == MPI_DISTRIBUTE_CYCLIC &&
              ints[first + 1] == MPI_DISTRIBUTE_NONE && ints[first + 2] == 2 &&
              ints[first + 3] == MPI_DISTRIBUTE_DFLT_DARG && ints[ni - 1] == MPI_ORDER_FORTRAN,
          "darray_c: the integers' constants are not the ABI's (distribs %d %d, dargs %d %d, order %d)", ints[first],
          ints[first + 1], ints[first + 2], ints[first + 3], ints[ni - 1]);
    CHECK(nc != 2 || (counts[0] == 9 && counts[1] == 4), "darray_c: gsizes %lld %lld", (long long)counts[0],
          (long long)counts[1]);
    CHECK(types[0] == MPI_INT, "darray_c: the old type");
    MPI_Type_free(&t);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    darray_c();

    {
        const int g[2] = {8, 6}, d[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
        const int a[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, p[2] = {2, 2};
        darray(4, 1, 2, g, d, a, p, MPI_ORDER_C, MPI_INT, "darray block/cyclic(2), C order");
        darray(4, 2, 2, g, d, a, p, MPI_ORDER_FORTRAN, MPI_DOUBLE, "darray block/cyclic(2), Fortran order");
    }
    {
        const int g[3] = {5, 9, 4}, d[3] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
        const int a[3] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG, 3}, p[3] = {1, 3, 2};
        darray(6, 5, 3, g, d, a, p, MPI_ORDER_FORTRAN, MPI_SHORT, "darray none/cyclic/block(3)");
    }
    {
        const int sizes[3] = {10, 8, 6}, sub[3] = {3, 4, 2}, starts[3] = {1, 2, 3};
        for (int o = 0; o < 2; ++o) {
            const int order = o == 0 ? MPI_ORDER_C : MPI_ORDER_FORTRAN;
            MPI_Datatype t = MPI_DATATYPE_NULL;
            MPI_Type_create_subarray(3, sizes, sub, starts, order, MPI_DOUBLE, &t);
            MPI_Type_commit(&t);
            const int ints[11] = {3, 10, 8, 6, 3, 4, 2, 1, 2, 3, order};
            check_type(o == 0 ? "subarray, C order" : "subarray, Fortran order", t, MPI_COMBINER_SUBARRAY, ints, 11,
                       MPI_DOUBLE, rebuild_subarray);
            MPI_Type_free(&t);
        }
    }
    {
        MPI_Datatype t = MPI_DATATYPE_NULL;
        MPI_Type_vector(3, 2, 5, MPI_FLOAT, &t);
        MPI_Type_commit(&t);
        const int ints[3] = {3, 2, 5};
        check_type("vector", t, MPI_COMBINER_VECTOR, ints, 3, MPI_FLOAT, rebuild_vector);
        MPI_Type_free(&t);
    }
    {
        /* A derived type inside another: the contents give a handle the envelope can describe. */
        MPI_Datatype inner = MPI_DATATYPE_NULL, outer = MPI_DATATYPE_NULL;
        MPI_Type_contiguous(4, MPI_INT, &inner);
        MPI_Type_create_resized(inner, 0, 32, &outer);
        int ni = -1, na = -1, nd = -1, comb = -1;
        MPI_Type_get_envelope(outer, &ni, &na, &nd, &comb);
        CHECK(comb == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nd == 1, "resized: combiner %d", comb);
        int ints[1];
        MPI_Aint addrs[2] = {-1, -1};
        MPI_Datatype types[1] = {MPI_DATATYPE_NULL};
        MPI_Type_get_contents(outer, 0, 2, 1, ints, addrs, types);
        CHECK(addrs[0] == 0 && addrs[1] == 32, "resized: lb %ld extent %ld", (long)addrs[0], (long)addrs[1]);
        comb = -1;
        MPI_Type_get_envelope(types[0], &ni, &na, &nd, &comb);
        CHECK(comb == MPI_COMBINER_CONTIGUOUS && ni == 1, "the contents' inner type: combiner %d", comb);
        MPI_Type_free(&types[0]);
        MPI_Type_free(&outer);
        MPI_Type_free(&inner);
        comb = -1;
        MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &comb);
        CHECK(comb == MPI_COMBINER_NAMED, "MPI_INT: combiner %d, expected MPI_COMBINER_NAMED", comb);
    }
    return conformance_end("conformance_contents");
}
