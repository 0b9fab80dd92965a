/*
 * The MPI layer's objects as the coll framework's C interface names them (frameworks/coll/coll.h:
 * struct tessera_comm, tessera_datatype, tessera_op, tessera_request are opaque there): one place for
 * the conversions, used by the MPI functions and by the components.
 */
#ifndef TESSERA_OMPI_COLL_COLL_OBJECTS_H
#define TESSERA_OMPI_COLL_COLL_OBJECTS_H

#include "frameworks/coll/coll.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/datatype.h"
#include "ompi/op/op.h"
#include "ompi/pml/pml_request.h"

namespace tessera::ompi::coll {

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

/* A collective's request (Kind::Coll) as the framework hands it out, and back. */
inline tessera_request *to_c(pml::Request *r)
{
    return reinterpret_cast<tessera_request *>(r);
}
inline pml::Request *of(tessera_request *r)
{
    return reinterpret_cast<pml::Request *>(r);
}

} // namespace tessera::ompi::coll

#endif
