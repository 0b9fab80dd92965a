/*
 * The MPI layer's side of the osc framework (frameworks/osc/osc.h): its set-up at MPI_Init and
 * MPI_Finalize, and the MPI layer's objects as the framework's C interface names them (struct
 * tessera_win, tessera_datatype, tessera_op, tessera_group, tessera_request are opaque there).
 */
#ifndef TESSERA_OMPI_WIN_WIN_OSC_H
#define TESSERA_OMPI_WIN_WIN_OSC_H

#include <string>
#include <vector>

#include "frameworks/osc/osc.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/datatype.h"
#include "ompi/group/group.h"
#include "ompi/op/op.h"
#include "ompi/win/window.h"

namespace tessera::ompi {

/* MPI_Init, after the pml: the components that take part in windows; "" or the problem. */
std::string osc_init(bool thread_multiple);
void osc_finalize();

namespace osc {

inline tessera_win *to_c(Window *w)
{
    return reinterpret_cast<tessera_win *>(w);
}
inline tessera_comm *to_c(Communicator *c)
{
    return reinterpret_cast<tessera_comm *>(c);
}
inline tessera_datatype *to_c(const Datatype *t)
{
    return reinterpret_cast<tessera_datatype *>(const_cast<Datatype *>(t));
}
inline tessera_op *to_c(const Op *o)
{
    return reinterpret_cast<tessera_op *>(const_cast<Op *>(o));
}

inline tessera_group *to_c(const Group *g)
{
    return reinterpret_cast<tessera_group *>(const_cast<Group *>(g));
}
inline const Group *of(tessera_group *g)
{
    return reinterpret_cast<const Group *>(g);
}

/* The ranks in the window of the members of `group`, in the group's order; false when a member is not a
 * process of the window (nothing is stored then). */
bool window_ranks(const Group *group, const Window &w, std::vector<int> *ranks);

inline Window *of(tessera_win *w)
{
    return reinterpret_cast<Window *>(w);
}
inline Communicator *of(tessera_comm *c)
{
    return reinterpret_cast<Communicator *>(c);
}
inline const Datatype *of(tessera_datatype *t)
{
    return reinterpret_cast<const Datatype *>(t);
}
inline const Op *of(tessera_op *o)
{
    return reinterpret_cast<const Op *>(o);
}

} // namespace osc
} // namespace tessera::ompi

#endif
