#include "ompi/attribute/predefined_attributes.h"

#include <mpi.h>

#include "ompi/errhandler/user_errors.h"
#include "ompi/pml/p2p_checks.h"
#include "ompi/runtime/runtime.h"

namespace tessera::ompi {

namespace {

struct Predefined {
    int keyval;
    const char *name;
    AttrKind kind;
};

constexpr Predefined kKeys[] = {
    {MPI_TAG_UB, "MPI_TAG_UB", AttrKind::Comm},
    {MPI_HOST, "MPI_HOST", AttrKind::Comm},
    {MPI_IO, "MPI_IO", AttrKind::Comm},
    {MPI_WTIME_IS_GLOBAL, "MPI_WTIME_IS_GLOBAL", AttrKind::Comm},
    {MPI_APPNUM, "MPI_APPNUM", AttrKind::Comm},
    {MPI_LASTUSEDCODE, "MPI_LASTUSEDCODE", AttrKind::Comm},
    {MPI_UNIVERSE_SIZE, "MPI_UNIVERSE_SIZE", AttrKind::Comm},
    {MPI_WIN_BASE, "MPI_WIN_BASE", AttrKind::Win},
    {MPI_WIN_DISP_UNIT, "MPI_WIN_DISP_UNIT", AttrKind::Win},
    {MPI_WIN_SIZE, "MPI_WIN_SIZE", AttrKind::Win},
    {MPI_WIN_CREATE_FLAVOR, "MPI_WIN_CREATE_FLAVOR", AttrKind::Win},
    {MPI_WIN_MODEL, "MPI_WIN_MODEL", AttrKind::Win},
};

const Predefined *find(int keyval)
{
    for (const Predefined &p : kKeys) {
        if (p.keyval == keyval) {
            return &p;
        }
    }
    return nullptr;
}

/* The values MPI_Comm_get_attr points to: they must outlive the call. */
int tag_ub = pml::kTagUpperBound;
/* No process is a distinguished host (MPI-4.1 9.1.2). */
int host = MPI_PROC_NULL;
/* Every rank can do language I/O (a rank's stdout and stderr reach mpirun). */
int io = MPI_ANY_SOURCE;
/* MPI_Wtime is CLOCK_MONOTONIC, whose origin differs between hosts (runtime/environment.cpp). */
int wtime_is_global = 0;
int appnum = 0;
int universe_size = 1;

} // namespace

const char *predefined_keyval_name(int keyval)
{
    const Predefined *p = find(keyval);
    return p != nullptr ? p->name : nullptr;
}

AttrKind predefined_keyval_kind(int keyval)
{
    const Predefined *p = find(keyval);
    return p != nullptr ? p->kind : AttrKind::Comm;
}

const int *predefined_comm_attribute(int keyval)
{
    const Runtime &rt = runtime();
    switch (keyval) {
    case MPI_TAG_UB:
        return &tag_ub;
    case MPI_HOST:
        return &host;
    case MPI_IO:
        return &io;
    case MPI_WTIME_IS_GLOBAL:
        return &wtime_is_global;
    case MPI_APPNUM:
        appnum = rt.launch.appnum;
        return &appnum;
    case MPI_UNIVERSE_SIZE:
        universe_size = rt.launch.universe_size;
        return &universe_size;
    case MPI_LASTUSEDCODE:
        return last_used_code();
    default:
        return nullptr;
    }
}

} // namespace tessera::ompi
