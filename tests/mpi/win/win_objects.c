/* The window as an object: predefined and user attributes (delete callbacks on delete, replace and
 * free), name, hints, group, error handlers (predefined and user, MPI_Win_call_errhandler), and the
 * errors the window calls raise on the window's handler. */
#include "../mpi_check.h"

static int deleted = 0;
static int last_code = MPI_SUCCESS;
static MPI_Win last_win = MPI_WIN_NULL;

static int count_delete(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)win, (void)keyval, (void)extra;
    deleted += *(int *)value;
    return MPI_SUCCESS;
}

static void on_error(MPI_Win *win, int *code, ...)
{
    last_win = *win;
    last_code = *code;
}

static int error_class(int code)
{
    int c = -1;
    MPI_Error_class(code, &c);
    return c;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int mem[16];
    MPI_Info hints;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "no_locks", "true");
    MPI_Win win;
    MPI_Win_create(mem, sizeof mem, 4, hints, MPI_COMM_WORLD, &win);
    MPI_Info_free(&hints);

    /* Predefined attributes. */
    void *base = NULL;
    MPI_Aint *wsize = NULL;
    int *unit = NULL, *flavor = NULL, *model = NULL, flag = 0;
    MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
    CHECK(flag && base == mem, "MPI_WIN_BASE %p, expected %p", base, (void *)mem);
    MPI_Win_get_attr(win, MPI_WIN_SIZE, &wsize, &flag);
    CHECK(flag && *wsize == (MPI_Aint)sizeof mem, "MPI_WIN_SIZE %ld", (long)*wsize);
    MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag);
    CHECK(flag && *unit == 4, "MPI_WIN_DISP_UNIT %d", *unit);
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_CREATE, "MPI_WIN_CREATE_FLAVOR %d", *flavor);
    MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag);
    CHECK(flag && (*model == MPI_WIN_UNIFIED || *model == MPI_WIN_SEPARATE), "MPI_WIN_MODEL %d", *model);

    /* User attributes: the delete callback runs on delete, on replacement and at MPI_Win_free. */
    int key = MPI_KEYVAL_INVALID, one = 1, ten = 10, hundred = 100;
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, count_delete, &key, NULL);
    MPI_Win_set_attr(win, key, &one);
    int *got = NULL;
    MPI_Win_get_attr(win, key, &got, &flag);
    CHECK(flag && got == &one, "user attribute not found");
    MPI_Win_set_attr(win, key, &ten);
    CHECK(deleted == 1, "replacing did not delete the old value (%d)", deleted);
    MPI_Win_delete_attr(win, key);
    CHECK(deleted == 11, "deleting did not call back (%d)", deleted);
    MPI_Win_get_attr(win, key, &got, &flag);
    CHECK(!flag, "a deleted attribute is still there");
    MPI_Win_set_attr(win, key, &hundred);

    /* Name, hints, group. */
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Win_get_name(win, name, &len);
    CHECK(len == 0 && name[0] == '\0', "a new window is named '%s'", name);
    MPI_Win_set_name(win, "halo");
    MPI_Win_get_name(win, name, &len);
    CHECK(len == 4 && strcmp(name, "halo") == 0, "name '%s'", name);
    MPI_Info used;
    MPI_Win_get_info(win, &used);
    char value[MPI_MAX_INFO_VAL];
    MPI_Info_get(used, "no_locks", MPI_MAX_INFO_VAL - 1, value, &flag);
    CHECK(flag && strcmp(value, "true") == 0, "hint no_locks not given back");
    MPI_Info_free(&used);
    MPI_Group wg, cg;
    int cmp = -1;
    MPI_Win_get_group(win, &wg);
    MPI_Comm_group(MPI_COMM_WORLD, &cg);
    MPI_Group_compare(wg, cg, &cmp);
    CHECK(cmp == MPI_IDENT, "the window's group is not the communicator's (%d)", cmp);
    MPI_Group_free(&wg);
    MPI_Group_free(&cg);

    /* Error handlers: MPI_ERRORS_ARE_FATAL at first, then the errors go where they are set. */
    MPI_Errhandler eh;
    MPI_Win_get_errhandler(win, &eh);
    CHECK(eh == MPI_ERRORS_ARE_FATAL, "a new window's handler is not MPI_ERRORS_ARE_FATAL");
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
    int rc = MPI_Put(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    CHECK(error_class(rc) == MPI_ERR_RMA_SYNC, "a put outside an epoch gave %d", rc);
    rc = MPI_Win_set_attr(win, MPI_WIN_BASE, &one);
    CHECK(error_class(rc) == MPI_ERR_KEYVAL, "setting MPI_WIN_BASE gave %d", rc);
    MPI_Win_fence(0, win);
    rc = MPI_Put(&one, 1, MPI_INT, size, 0, 1, MPI_INT, win);
    CHECK(error_class(rc) == MPI_ERR_RANK, "a put to rank %d gave %d", size, rc);
    rc = MPI_Put(&one, 1, MPI_INT, 0, 16, 1, MPI_INT, win);
    CHECK(error_class(rc) == MPI_ERR_RMA_RANGE, "a put past the window gave %d", rc);
    rc = MPI_Put(&one, 1, MPI_INT, 0, -1, 1, MPI_INT, win);
    CHECK(error_class(rc) == MPI_ERR_DISP, "a negative displacement gave %d", rc);
    rc = MPI_Put(&one, 2, MPI_INT, 0, 0, 1, MPI_INT, win);
    CHECK(error_class(rc) == MPI_ERR_TRUNCATE, "mismatched sizes gave %d", rc);
    rc = MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_FLOAT, MPI_SUM, win);
    CHECK(error_class(rc) != MPI_SUCCESS, "accumulating int into float succeeded");
    char text[MPI_MAX_ERROR_STRING];
    MPI_Error_string(MPI_ERR_RMA_SYNC, text, &len);
    CHECK(len > 0, "no text for MPI_ERR_RMA_SYNC");

    MPI_Errhandler mine;
    MPI_Win_create_errhandler(on_error, &mine);
    MPI_Win_set_errhandler(win, mine);
    MPI_Errhandler_free(&mine);
    MPI_Win_call_errhandler(win, MPI_ERR_OTHER);
    CHECK(last_win == win && last_code == MPI_ERR_OTHER, "the user handler was not called by MPI_Win_call_errhandler");
    last_code = MPI_SUCCESS;
    MPI_Get(mem, 1, MPI_INT, -5, 0, 1, MPI_INT, win);
    CHECK(error_class(last_code) == MPI_ERR_RANK, "the user handler got %d for a bad rank", last_code);
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);

    /* Bad windows and bad creation arguments. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc = MPI_Win_set_name(MPI_WIN_NULL, "x");
    CHECK(error_class(rc) == MPI_ERR_WIN, "MPI_WIN_NULL gave %d", rc);
    MPI_Win bad;
    rc = MPI_Win_create(mem, -1, 4, MPI_INFO_NULL, MPI_COMM_WORLD, &bad);
    CHECK(error_class(rc) == MPI_ERR_SIZE && bad == MPI_WIN_NULL, "a negative size gave %d", rc);
    rc = MPI_Win_create(mem, sizeof mem, 0, MPI_INFO_NULL, MPI_COMM_WORLD, &bad);
    CHECK(error_class(rc) == MPI_ERR_DISP, "a zero displacement unit gave %d", rc);

    MPI_Win_free(&win);
    CHECK(deleted == 111, "MPI_Win_free did not delete the attribute (%d)", deleted);
    MPI_Win_free_keyval(&key);

    /* MPI_Win_allocate's flavor. */
    int *amem = NULL;
    MPI_Win_allocate(8 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &amem, &win);
    MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag);
    CHECK(flag && *flavor == MPI_WIN_FLAVOR_ALLOCATE, "allocated window's flavor %d", *flavor);
    MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag);
    CHECK(base == amem, "allocated window's base");
    MPI_Win_free(&win);

    if (rank == 0) {
        printf("win_objects: all checks passed on %d ranks\n", size);
    }
    MPI_Finalize();
    return 0;
}
