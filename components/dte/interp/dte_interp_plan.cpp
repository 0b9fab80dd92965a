/* dte interp: plans. A plan owns one base program; pack and unpack go straight to it. */
#include <memory>
#include <new>

#include "components/dte/interp/dte_interp.h"
#include "frameworks/dte/base/dte_base_program.h"

namespace tessera::ompi::dte_interp {
namespace {

const mca_dte_base_program_t *program_of(const mca_dte_plan_t *plan)
{
    return static_cast<const mca_dte_base_program_t *>(plan->plan_state);
}

int pack(const mca_dte_plan_t *plan, const void *buf, size_t count, size_t offset, void *out, size_t length)
{
    return mca_dte_base_program_pack(program_of(plan), buf, count, offset, out, length);
}

int unpack(const mca_dte_plan_t *plan, void *buf, size_t count, size_t offset, const void *in, size_t length)
{
    return mca_dte_base_program_unpack(program_of(plan), buf, count, offset, in, length);
}

void release(mca_dte_plan_t *plan)
{
    std::unique_ptr<mca_dte_plan_t> owned(plan);
    mca_dte_base_program_free(static_cast<mca_dte_base_program_t *>(plan->plan_state));
}

} // namespace

int plan_create(const mca_dte_type_desc_t *type, mca_dte_plan_t **plan)
{
    if (type == nullptr || plan == nullptr) {
        return TESSERA_ERR_BAD_PARAM;
    }
    auto p = std::unique_ptr<mca_dte_plan_t>(new (std::nothrow) mca_dte_plan_t{});
    if (p == nullptr) {
        return TESSERA_ERR_OUT_OF_RESOURCE;
    }
    mca_dte_base_program_t *program = nullptr;
    if (const int rc = mca_dte_base_program_create(type, &program); rc != TESSERA_SUCCESS) {
        return rc;
    }
    p->plan_component = &mca_dte_interp_component;
    p->plan_priority = priority;
    p->plan_pack = pack;
    p->plan_unpack = unpack;
    p->plan_release = release;
    p->plan_state = program;
    *plan = p.release();
    return TESSERA_SUCCESS;
}

} // namespace tessera::ompi::dte_interp
