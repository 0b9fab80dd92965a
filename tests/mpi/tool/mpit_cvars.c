/*
 * MPI_T's control variables as a tool meets them: MPI_T before MPI_Init, during, and after
 * MPI_Finalize; every cvar readable through a handle; enumerations, categories and the source; the error
 * codes of misuse; which writes are refused when. With a file name as argument, rank 0 writes every
 * cvar there as "name<TAB>datatype<TAB>verbosity<TAB>scope<TAB>enum items" for mpit_vs_info.py to
 * compare with tessera_info --parsable.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...)                                                                                          \
    do {                                                                                                   \
        fprintf(stderr, "FAILED %s:%d: ", __FILE__, __LINE__);                                             \
        fprintf(stderr, __VA_ARGS__);                                                                      \
        fprintf(stderr, "\n");                                                                             \
        exit(1);                                                                                           \
    } while (0)
#define EXPECT_RC(call, want)                                                                              \
    do {                                                                                                   \
        int rc_ = (call);                                                                                  \
        if (rc_ != (want)) {                                                                               \
            FAIL("%s returned %d, expected %d (%s)", #call, rc_, (int)(want), #want);                      \
        }                                                                                                  \
    } while (0)
#define OK(call) EXPECT_RC(call, MPI_SUCCESS)

static const char *datatype_name(MPI_Datatype t)
{
    if (t == MPI_INT) return "MPI_INT";
    if (t == MPI_UNSIGNED) return "MPI_UNSIGNED";
    if (t == MPI_UNSIGNED_LONG) return "MPI_UNSIGNED_LONG";
    if (t == MPI_DOUBLE) return "MPI_DOUBLE";
    if (t == MPI_CHAR) return "MPI_CHAR";
    return "?";
}

static int find_cvar(const char *name)
{
    int index = -1;
    OK(MPI_T_cvar_get_index(name, &index));
    return index;
}

/* Reads every cvar through a handle and, when out != NULL, writes the listing. */
static int read_all(FILE *out)
{
    int num = 0;
    OK(MPI_T_cvar_get_num(&num));
    if (num < 50) {
        FAIL("only %d cvars: the MCA registry has many more", num);
    }
    for (int i = 0; i < num; ++i) {
        char name[256], desc[2048];
        int name_len = sizeof name, desc_len = sizeof desc, verbosity = 0, bind = 0, scope = 0;
        MPI_Datatype type = MPI_DATATYPE_NULL;
        MPI_T_enum enumtype = MPI_T_ENUM_NULL;
        OK(MPI_T_cvar_get_info(i, name, &name_len, &verbosity, &type, &enumtype, desc, &desc_len, &bind, &scope));
        if (name_len != (int)strlen(name) + 1) {
            FAIL("cvar %d: name_len %d for \"%s\"", i, name_len, name);
        }
        if (bind != MPI_T_BIND_NO_OBJECT) {
            FAIL("cvar %s: bind %d", name, bind);
        }
        int index = -1;
        OK(MPI_T_cvar_get_index(name, &index));
        if (index != i) {
            FAIL("cvar %s: get_index gives %d, not %d", name, index, i);
        }
        MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
        int count = 0;
        OK(MPI_T_cvar_handle_alloc(i, NULL, &h, &count));
        char buf[4096];
        memset(buf, 0, sizeof buf);
        if (count < 1 || (type != MPI_CHAR && count != 1) || count > (int)sizeof buf) {
            FAIL("cvar %s: count %d", name, count);
        }
        OK(MPI_T_cvar_read(h, buf));
        OK(MPI_T_cvar_handle_free(&h));
        if (h != MPI_T_CVAR_HANDLE_NULL) {
            FAIL("cvar %s: handle not set to MPI_T_CVAR_HANDLE_NULL by free", name);
        }
        if (strcmp(datatype_name(type), "?") == 0) {
            FAIL("cvar %s: unexpected datatype", name);
        }
        if (out != NULL) {
            fprintf(out, "%s\t%s\t%d\t%d\t", name, datatype_name(type), verbosity, scope);
        }
        if (enumtype != MPI_T_ENUM_NULL) {
            int items = 0;
            char ename[256];
            int ename_len = sizeof ename;
            OK(MPI_T_enum_get_info(enumtype, &items, ename, &ename_len));
            for (int k = 0; k < items; ++k) {
                int value = 0;
                char iname[256];
                int iname_len = sizeof iname;
                OK(MPI_T_enum_get_item(enumtype, k, &value, iname, &iname_len));
                if (out != NULL) {
                    fprintf(out, "%s%d=%s", k == 0 ? "" : ",", value, iname);
                }
            }
            EXPECT_RC(MPI_T_enum_get_item(enumtype, items, NULL, NULL, NULL), MPI_T_ERR_INVALID_ITEM);
            /* The value read is one of the items. */
            int found = 0;
            for (int k = 0; k < items; ++k) {
                int value = 0;
                OK(MPI_T_enum_get_item(enumtype, k, &value, NULL, NULL));
                found |= value == *(int *)buf;
            }
            if (!found) {
                FAIL("cvar %s: value %d is none of its %d enum items", name, *(int *)buf, items);
            }
        }
        if (out != NULL) {
            fprintf(out, "\n");
        }
    }
    return num;
}

static void check_categories(void)
{
    int num = 0, changed = 0;
    OK(MPI_T_category_get_num(&num));
    OK(MPI_T_category_changed(&changed));
    int cvars_seen = 0;
    int have_btl = 0, have_btl_shm = 0;
    for (int i = 0; i < num; ++i) {
        char name[256];
        int name_len = sizeof name, ncvars = 0, npvars = 0, ncats = 0, nevents = 0;
        OK(MPI_T_category_get_info(i, name, &name_len, NULL, NULL, &ncvars, &npvars, &ncats));
        OK(MPI_T_category_get_num_events(i, &nevents));
        int index = -1;
        OK(MPI_T_category_get_index(name, &index));
        if (index != i) {
            FAIL("category %s: index %d, not %d", name, index, i);
        }
        int ids[4096];
        if (ncvars > 4096 || ncats > 4096) {
            FAIL("category %s too large", name);
        }
        OK(MPI_T_category_get_cvars(i, ncvars, ids));
        cvars_seen += ncvars;
        OK(MPI_T_category_get_categories(i, ncats, ids));
        for (int k = 0; k < ncats; ++k) {
            if (ids[k] <= i || ids[k] >= num) {
                FAIL("category %s: child %d out of order or range", name, ids[k]);
            }
        }
        have_btl |= strcmp(name, "btl") == 0 && ncats > 0;
        have_btl_shm |= strcmp(name, "btl_shm") == 0 && ncvars > 0;
    }
    int ncvar = 0;
    OK(MPI_T_cvar_get_num(&ncvar));
    if (cvars_seen != ncvar) {
        FAIL("categories hold %d cvars, there are %d", cvars_seen, ncvar);
    }
    if (!have_btl || !have_btl_shm) {
        FAIL("no category btl with components, or btl_shm without its parameters");
    }
    EXPECT_RC(MPI_T_category_get_info(num, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_category_get_index("no_such_category", &num), MPI_T_ERR_INVALID_NAME);
}

static void check_source(void)
{
    int num = 0;
    OK(MPI_T_source_get_num(&num));
    if (num != 1) {
        FAIL("%d sources", num);
    }
    MPI_T_source_order order = 0;
    MPI_Count ticks = 0, max_ticks = 0, t1 = 0, t2 = 0;
    char name[64];
    int name_len = sizeof name;
    OK(MPI_T_source_get_info(0, name, &name_len, NULL, NULL, &order, &ticks, &max_ticks, NULL));
    OK(MPI_T_source_get_timestamp(0, &t1));
    OK(MPI_T_source_get_timestamp(0, &t2));
    if (order != MPI_T_SOURCE_ORDERED || ticks != 1000000000 || t2 < t1) {
        FAIL("source %s: order %d, %lld ticks/s, %lld then %lld", name, order, (long long)ticks, (long long)t1,
             (long long)t2);
    }
    EXPECT_RC(MPI_T_source_get_timestamp(1, &t1), MPI_T_ERR_INVALID_INDEX);
}

static void check_misuse(void)
{
    int num = 0, index = 0;
    OK(MPI_T_cvar_get_num(&num));
    EXPECT_RC(MPI_T_cvar_get_info(num, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_cvar_get_info(-1, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    EXPECT_RC(MPI_T_cvar_get_index("btl_shm_no_such_thing", &index), MPI_T_ERR_INVALID_NAME);
    MPI_T_cvar_handle h = MPI_T_CVAR_HANDLE_NULL;
    int count = 0;
    EXPECT_RC(MPI_T_cvar_handle_alloc(num, NULL, &h, &count), MPI_T_ERR_INVALID_INDEX);
    int buf[64];
    EXPECT_RC(MPI_T_cvar_read(h, buf), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_cvar_handle_free(&h), MPI_T_ERR_INVALID_HANDLE);
    EXPECT_RC(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &num, NULL, NULL), MPI_T_ERR_INVALID_HANDLE);
    /* Lengths: 0 asks for the length; a short buffer gets what fits, terminated. */
    char name[4];
    int len = 0;
    OK(MPI_T_cvar_get_info(find_cvar("pml_eager_limit"), name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    if (len != (int)strlen("pml_eager_limit") + 1) {
        FAIL("length asked with 0: %d", len);
    }
    len = sizeof name;
    OK(MPI_T_cvar_get_info(find_cvar("pml_eager_limit"), name, &len, NULL, NULL, NULL, NULL, NULL, NULL, NULL));
    if (len != 4 || strcmp(name, "pml") != 0) {
        FAIL("a 4-byte buffer got \"%s\", length %d", name, len);
    }
}

static int write_cvar_int(const char *name, unsigned long value, int is_size)
{
    MPI_T_cvar_handle h;
    int count = 0;
    OK(MPI_T_cvar_handle_alloc(find_cvar(name), NULL, &h, &count));
    int v = (int)value;
    int rc = MPI_T_cvar_write(h, is_size ? (const void *)&value : (const void *)&v);
    OK(MPI_T_cvar_handle_free(&h));
    return rc;
}

static unsigned long read_size(const char *name)
{
    MPI_T_cvar_handle h;
    int count = 0;
    unsigned long v = 0;
    OK(MPI_T_cvar_handle_alloc(find_cvar(name), NULL, &h, &count));
    OK(MPI_T_cvar_read(h, &v));
    OK(MPI_T_cvar_handle_free(&h));
    return v;
}

int main(int argc, char **argv)
{
    int provided = -1, num = 0;
    /* Before anything: not initialized. */
    EXPECT_RC(MPI_T_cvar_get_num(&num), MPI_T_ERR_NOT_INITIALIZED);
    EXPECT_RC(MPI_T_finalize(), MPI_T_ERR_NOT_INITIALIZED);

    /* Before MPI_Init: the whole registry, twice initialized (reference counted). */
    OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    OK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided));
    if (provided != MPI_THREAD_MULTIPLE) {
        FAIL("provided %d", provided);
    }
    const int before = read_all(NULL);
    check_categories();
    check_source();
    check_misuse();
    /* Before MPI_Init an init-time parameter may be set: MPI_Init then opens with it. */
    OK(write_cvar_int("btl_tcp_eager_limit", 32768, 1));
    if (read_size("btl_tcp_eager_limit") != 32768) {
        FAIL("btl_tcp_eager_limit written before MPI_Init reads back %lu", read_size("btl_tcp_eager_limit"));
    }
    /* A value outside its range changes nothing. */
    EXPECT_RC(write_cvar_int("btl_tcp_eager_limit", 1, 1), MPI_T_ERR_INVALID);
    OK(MPI_T_finalize());

    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    /* Still initialized once: the count went 2 -> 1. */
    const int during = read_all(NULL);
    if (during < before) {
        FAIL("%d cvars after MPI_Init, %d before: indices must never go away", during, before);
    }
    if (read_size("btl_tcp_eager_limit") != 32768) {
        FAIL("btl_tcp_eager_limit set before MPI_Init is %lu after it", read_size("btl_tcp_eager_limit"));
    }
    /* Read when the btl opened: never again while MPI runs. Runtime ones may be set. */
    EXPECT_RC(write_cvar_int("btl_tcp_eager_limit", 65536, 1), MPI_T_ERR_CVAR_SET_NEVER);
    OK(write_cvar_int("pml_eager_limit", 4096, 1));
    EXPECT_RC(write_cvar_int("pml_eager_limit", 8, 1), MPI_T_ERR_INVALID); /* not above the header */
    if (read_size("pml_eager_limit") != 4096) {
        FAIL("pml_eager_limit is %lu after a refused write", read_size("pml_eager_limit"));
    }
    OK(write_cvar_int("btl_base_verbose", 0, 0));
    check_categories();
    if (rank == 0 && argc > 1) {
        FILE *out = fopen(argv[1], "w");
        if (out == NULL) {
            FAIL("cannot write %s", argv[1]);
        }
        read_all(out);
        fclose(out);
    }
    OK(MPI_T_finalize());
    EXPECT_RC(MPI_T_cvar_get_num(&num), MPI_T_ERR_NOT_INITIALIZED);
    MPI_Finalize();

    /* After MPI_Finalize: still every parameter, still readable. */
    OK(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided));
    const int after = read_all(NULL);
    if (after < during) {
        FAIL("%d cvars after MPI_Finalize, %d during", after, during);
    }
    check_categories();
    EXPECT_RC(write_cvar_int("btl_tcp_eager_limit", 65536, 1), MPI_T_ERR_CVAR_SET_NEVER);
    OK(MPI_T_finalize());
    if (rank == 0) {
        printf("mpit_cvars: %d cvars before MPI_Init, %d during, %d after: all readable\n", before, during, after);
    }
    return 0;
}
