/* dte interp: the interpreter engine. Its plan is the base program (frameworks/dte/base) behind the
 * plan's function table; it serves every type it is offered, at a priority below compiled engines. */
#ifndef TESSERA_COMPONENTS_DTE_INTERP_DTE_INTERP_H
#define TESSERA_COMPONENTS_DTE_INTERP_DTE_INTERP_H

#include "frameworks/dte/dte.h"

extern "C" mca_dte_base_component_t mca_dte_interp_component;

namespace tessera::ompi::dte_interp {

/* dte_interp_priority: the priority of every plan this component makes. */
extern int priority;

/* The component's dte_plan_create. */
int plan_create(const mca_dte_type_desc_t *type, mca_dte_plan_t **plan);

} // namespace tessera::ompi::dte_interp

#endif
