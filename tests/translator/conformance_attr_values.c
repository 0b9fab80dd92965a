/* Translator conformance: an attribute's value is whatever the application stored (MPI-4.1 7.7.2), not
 * necessarily a pointer: MPI_Comm_get_attr, MPI_Attr_get, MPI_Type_get_attr and MPI_Win_get_attr give
 * back (void *)2 and NULL unchanged, while a predefined attribute (MPI_TAG_UB, MPI_WIN_MODEL) is still a
 * pointer to its value. Any number of ranks. */
#include "conformance.h"

#include <stdint.h>

static void *const kValues[] = {(void *)(MPI_Aint)2, NULL, (void *)(MPI_Aint)-1, (void *)(MPI_Aint)0x1001};
enum { NVALUES = sizeof kValues / sizeof kValues[0] };

typedef int (*setter)(void *object, int keyval, void *value);
typedef int (*getter)(void *object, int keyval, void *value, int *flag);

static int comm_set(void *o, int k, void *v)
{
    return MPI_Comm_set_attr(*(MPI_Comm *)o, k, v);
}
static int comm_get(void *o, int k, void *v, int *f)
{
    return MPI_Comm_get_attr(*(MPI_Comm *)o, k, v, f);
}
static int attr_put(void *o, int k, void *v)
{
    return MPI_Attr_put(*(MPI_Comm *)o, k, v);
}
static int attr_get(void *o, int k, void *v, int *f)
{
    return MPI_Attr_get(*(MPI_Comm *)o, k, v, f);
}
static int type_set(void *o, int k, void *v)
{
    return MPI_Type_set_attr(*(MPI_Datatype *)o, k, v);
}
static int type_get(void *o, int k, void *v, int *f)
{
    return MPI_Type_get_attr(*(MPI_Datatype *)o, k, v, f);
}
static int win_set(void *o, int k, void *v)
{
    return MPI_Win_set_attr(*(MPI_Win *)o, k, v);
}
static int win_get(void *o, int k, void *v, int *f)
{
    return MPI_Win_get_attr(*(MPI_Win *)o, k, v, f);
}

static void round_trips(const char *what, void *object, int keyval, setter set, getter get)
{
    for (int i = 0; i < NVALUES; ++i) {
        CHECK(set(object, keyval, kValues[i]) == MPI_SUCCESS, "%s: set %p", what, kValues[i]);
        void *got = (void *)(MPI_Aint)0x5a5a;
        int flag = 0;
        CHECK(get(object, keyval, &got, &flag) == MPI_SUCCESS && flag == 1 && got == kValues[i],
              "%s: value %p read back as %p (flag %d)", what, kValues[i], got, flag);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);

    int ck = MPI_KEYVAL_INVALID, kk = MPI_KEYVAL_INVALID, tk = MPI_KEYVAL_INVALID, wk = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &ck, NULL);
    MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &kk, NULL);
    round_trips("MPI_Comm_set_attr/get_attr", &comm, ck, comm_set, comm_get);
    round_trips("MPI_Attr_put/get", &comm, kk, attr_put, attr_get);

    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(2, MPI_INT, &type);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tk, NULL);
    round_trips("MPI_Type_set_attr/get_attr", &type, tk, type_set, type_get);

    int *tag_ub = NULL, flag = 0;
    CHECK(MPI_Comm_get_attr(comm, MPI_TAG_UB, &tag_ub, &flag) == MPI_SUCCESS && flag && tag_ub != NULL &&
              *tag_ub >= 32767,
          "MPI_TAG_UB is a pointer to at least 32767");

    int buf[4];
    MPI_Win win = MPI_WIN_NULL;
    if (MPI_Win_create(buf, sizeof buf, sizeof buf[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win) == MPI_SUCCESS) {
        MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &wk, NULL);
        round_trips("MPI_Win_set_attr/get_attr", &win, wk, win_set, win_get);
        int *model = NULL;
        flag = 0;
        CHECK(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag) == MPI_SUCCESS && flag && model != NULL &&
                  (*model == MPI_WIN_SEPARATE || *model == MPI_WIN_UNIFIED),
              "MPI_WIN_MODEL is a pointer to MPI_WIN_SEPARATE or MPI_WIN_UNIFIED");
        MPI_Win_free_keyval(&wk);
        MPI_Win_free(&win);
    } else {
        CHECK(0, "MPI_Win_create on MPI_COMM_WORLD failed");
    }

    MPI_Type_free(&type);
    MPI_Type_free_keyval(&tk);
    MPI_Comm_free(&comm);
    MPI_Comm_free_keyval(&ck);
    MPI_Keyval_free(&kk);
    return conformance_end("conformance_attr_values");
}
