/*
 * MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate, their request-based forms (MPI_Rput, MPI_Rget,
 * MPI_Raccumulate, MPI_Rget_accumulate), MPI_Fetch_and_op, MPI_Compare_and_swap and MPI_Win_fence
 * (MPI-4.1 12.3, 12.5.1), as their _c forms (the int forms are generated): the arguments are checked
 * here, against what every process exposes (window.h), and the call goes to the window's osc module
 * (frameworks/osc/osc.h), which knows the epochs and moves the data.
 */
#include <initializer_list>
#include <string>

#include "ompi/datatype/datatype.h"
#include "ompi/errhandler/errhandler.h"
#include "ompi/op/op.h"
#include "ompi/pml/pml_request.h"
#include "ompi/runtime/native_api.h"
#include "ompi/win/win_osc.h"
#include "ompi/win/window.h"

namespace tessera::ompi::native {

namespace {

/* An operation's datatype argument: committed. */
const Datatype *type_of(const char *function, MPI_Win win, MPI_Datatype handle, const char *name, int *rc)
{
    const Datatype *t = datatype_lookup(handle);
    if (t == nullptr || !datatype_committed(t)) {
        *rc = raise_on_win(win, MPI_ERR_TYPE, function,
                           std::string(t == nullptr ? "invalid datatype" : "uncommitted datatype") + " in argument '" +
                               name + "'");
        return nullptr;
    }
    return t;
}

/* One operation's arguments, checked. */
struct Operation {
    Window *w = nullptr;
    const Datatype *origin = nullptr;
    const Datatype *target = nullptr;
    std::size_t bytes = 0;
    bool none = false; /* MPI_PROC_NULL or nothing to move */
};

int check(const char *function, MPI_Win win, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
          MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, Operation *op)
{
    int rc = MPI_SUCCESS;
    if ((op->w = win_argument(function, win, &rc)) == nullptr) {
        return rc;
    }
    Window &w = *op->w;
    if (target_rank == MPI_PROC_NULL) {
        op->none = true;
        return MPI_SUCCESS;
    }
    if (target_rank < 0 || target_rank >= w.size) {
        return raise_on_win(win, MPI_ERR_RANK, function,
                            "target rank " + std::to_string(target_rank) + " is not in 0.." + std::to_string(w.size - 1));
    }
    if ((op->origin = type_of(function, win, origin_datatype, "origin_datatype", &rc)) == nullptr ||
        (op->target = type_of(function, win, target_datatype, "target_datatype", &rc)) == nullptr) {
        return rc;
    }
    if (target_disp < 0) {
        return raise_on_win(win, MPI_ERR_DISP, function, "negative target displacement " + std::to_string(target_disp));
    }
    op->bytes = static_cast<std::size_t>(origin_count) * op->origin->size;
    if (op->bytes != static_cast<std::size_t>(target_count) * op->target->size) {
        return raise_on_win(win, MPI_ERR_TRUNCATE, function,
                            "the origin gives " + std::to_string(op->bytes) + " bytes, the target takes " +
                                std::to_string(static_cast<std::size_t>(target_count) * op->target->size));
    }
    if (op->bytes == 0) {
        op->none = true;
        return MPI_SUCCESS;
    }
    if (w.flavor == MPI_WIN_FLAVOR_DYNAMIC) { /* only the target knows what it attached */
        return MPI_SUCCESS;
    }
    const WindowTarget &t = w.targets[static_cast<std::size_t>(target_rank)];
    const MPI_Aint start = target_disp * t.disp_unit;
    const MPI_Aint lowest = start + op->target->true_lb;
    const MPI_Aint end = start + static_cast<MPI_Aint>(target_count - 1) * op->target->extent + op->target->true_ub;
    if (lowest < 0 || end > t.size) {
        return raise_on_win(win, MPI_ERR_RMA_RANGE, function,
                            "bytes " + std::to_string(lowest) + ".." + std::to_string(end) +
                                " of the target's window are outside its " + std::to_string(t.size) + " bytes");
    }
    return MPI_SUCCESS;
}

/* What the module answered, raised on the window. */
int outcome(MPI_Win win, const char *function, int rc)
{
    if (rc == MPI_SUCCESS) {
        return rc;
    }
    Window *w = win_lookup(win);
    const std::string label = w != nullptr ? win_label(*w) : std::string("the window");
    return raise_on_win(win, rc, function,
                        rc == MPI_ERR_RMA_SYNC ? "no epoch open on " + label + " allows this call"
                                               : std::string("the operation could not be carried out"));
}

/* An entry the window's module leaves NULL. */
int unsupported(MPI_Win win, const char *function, const Window &w)
{
    return raise_on_win(win, MPI_ERR_UNSUPPORTED_OPERATION, function,
                        std::string("the osc component ") + w.osc->osc_component->base.mca_component_name +
                            " serving " + win_label(w) + " does not provide it");
}

/* The op of an accumulate: predefined; MPI_NO_OP only where `no_op_ok` (the fetching forms). */
const Op *accumulate_op(MPI_Win win, const char *function, MPI_Op op, bool no_op_ok, int *rc)
{
    const Op *reduction = op_lookup(op);
    if (reduction == nullptr || reduction->kind == OpKind::User || (reduction->kind == OpKind::NoOp && !no_op_ok)) {
        *rc = raise_on_win(win, MPI_ERR_OP, function,
                           reduction == nullptr ? "invalid op in argument 'op'"
                                                : std::string(reduction->name) + " is not a predefined op " + function +
                                                      " takes");
        return nullptr;
    }
    return reduction;
}

/* The datatypes of an accumulate: made of one and the same predefined datatype, which `op` takes. */
int same_basic(MPI_Win win, const char *function, const Op *op, std::initializer_list<const Datatype *> types)
{
    const Datatype *first = nullptr;
    for (const Datatype *t : types) {
        const Datatype *basic = nullptr;
        if (!single_basic(t, &basic) || basic == nullptr || (first != nullptr && basic != first)) {
            return raise_on_win(win, MPI_ERR_TYPE, function,
                                "the origin, result and target datatypes must be made of the same one predefined "
                                "datatype");
        }
        first = basic;
    }
    if (op->kind != OpKind::NoOp) {
        if (std::string why = op_check(op, *types.begin()); !why.empty()) {
            return raise_on_win(win, MPI_ERR_OP, function, why);
        }
    }
    return MPI_SUCCESS;
}

/* Counts for the module: none when nothing moves (the module still checks its epoch). */
std::size_t count_of(const Operation &op, MPI_Count count)
{
    return op.none ? 0 : static_cast<std::size_t>(count);
}

} // namespace

namespace {

/* The request argument of a request-based operation: MPI_REQUEST_NULL until the module gives one. */
bool request_ok(MPI_Win win, const char *function, MPI_Request *request, int *rc)
{
    if (request == nullptr) {
        *rc = raise_on_win(win, MPI_ERR_ARG, function, "argument 'request' is NULL");
        return false;
    }
    *request = MPI_REQUEST_NULL;
    return true;
}

MPI_Request handle_of(tessera_request *r)
{
    return pml::to_handle(reinterpret_cast<pml::Request *>(r));
}

/* MPI_Put and MPI_Rput (`request` non-NULL). */
int put_or_rput(const char *function, const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype,
                MPI_Win win, MPI_Request *request)
{
    Operation op;
    if (int rc = check(function, win, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, &op);
        rc != MPI_SUCCESS) {
        return rc;
    }
    mca_osc_base_module_t *m = op.w->osc;
    if (request == nullptr) {
        return outcome(win, function,
                       m->osc_put(origin_addr, count_of(op, origin_count), osc::to_c(op.origin), target_rank,
                                  target_disp, count_of(op, target_count), osc::to_c(op.target), osc::to_c(op.w), m));
    }
    if (m->osc_rput == nullptr) {
        return unsupported(win, function, *op.w);
    }
    tessera_request *r = nullptr;
    const int rc = outcome(win, function,
                           m->osc_rput(origin_addr, count_of(op, origin_count), osc::to_c(op.origin), target_rank,
                                       target_disp, count_of(op, target_count), osc::to_c(op.target), &r,
                                       osc::to_c(op.w), m));
    if (rc == MPI_SUCCESS) {
        *request = handle_of(r);
    }
    return rc;
}

int get_or_rget(const char *function, void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                int target_rank, MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype,
                MPI_Win win, MPI_Request *request)
{
    Operation op;
    if (int rc = check(function, win, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, &op);
        rc != MPI_SUCCESS) {
        return rc;
    }
    mca_osc_base_module_t *m = op.w->osc;
    if (request == nullptr) {
        return outcome(win, function,
                       m->osc_get(origin_addr, count_of(op, origin_count), osc::to_c(op.origin), target_rank,
                                  target_disp, count_of(op, target_count), osc::to_c(op.target), osc::to_c(op.w), m));
    }
    if (m->osc_rget == nullptr) {
        return unsupported(win, function, *op.w);
    }
    tessera_request *r = nullptr;
    const int rc = outcome(win, function,
                           m->osc_rget(origin_addr, count_of(op, origin_count), osc::to_c(op.origin), target_rank,
                                       target_disp, count_of(op, target_count), osc::to_c(op.target), &r,
                                       osc::to_c(op.w), m));
    if (rc == MPI_SUCCESS) {
        *request = handle_of(r);
    }
    return rc;
}

/* A predefined op only (MPI-4.1 12.3.4), MPI_REPLACE included, on datatypes made of one predefined
 * datatype, the same on both sides. */
int accumulate_or_r(const char *function, const void *origin_addr, MPI_Count origin_count,
                    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    Operation o;
    if (int rc = check(function, win, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, &o);
        rc != MPI_SUCCESS) {
        return rc;
    }
    int rc = MPI_SUCCESS;
    const Op *reduction = accumulate_op(win, function, op, false, &rc);
    if (reduction == nullptr) {
        return rc;
    }
    if (!o.none && (rc = same_basic(win, function, reduction, {o.target, o.origin})) != MPI_SUCCESS) {
        return rc;
    }
    mca_osc_base_module_t *m = o.w->osc;
    if (request == nullptr) {
        return outcome(win, function,
                       m->osc_accumulate(origin_addr, count_of(o, origin_count), osc::to_c(o.origin), target_rank,
                                         target_disp, count_of(o, target_count), osc::to_c(o.target),
                                         osc::to_c(reduction), osc::to_c(o.w), m));
    }
    if (m->osc_raccumulate == nullptr) {
        return unsupported(win, function, *o.w);
    }
    tessera_request *r = nullptr;
    rc = outcome(win, function,
                 m->osc_raccumulate(origin_addr, count_of(o, origin_count), osc::to_c(o.origin), target_rank,
                                    target_disp, count_of(o, target_count), osc::to_c(o.target), osc::to_c(reduction),
                                    &r, osc::to_c(o.w), m));
    if (rc == MPI_SUCCESS) {
        *request = handle_of(r);
    }
    return rc;
}

/* MPI-4.1 12.3.4: the target's old contents come back into the result buffer; MPI_NO_OP reads no
 * origin, MPI_REPLACE stores it. Element-wise atomic with the window's other accumulates. */
int get_accumulate_or_r(const char *function, const void *origin_addr, MPI_Count origin_count,
                        MPI_Datatype origin_datatype, void *result_addr, MPI_Count result_count,
                        MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp, MPI_Count target_count,
                        MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request *request)
{
    Operation o;
    if (int rc = check(function, win, result_count, result_datatype, target_rank, target_disp, target_count,
                       target_datatype, &o);
        rc != MPI_SUCCESS) {
        return rc;
    }
    int rc = MPI_SUCCESS;
    const Op *reduction = accumulate_op(win, function, op, true, &rc);
    if (reduction == nullptr) {
        return rc;
    }
    const Datatype *origin = nullptr;
    if (!o.none && reduction->kind != OpKind::NoOp) {
        if ((origin = type_of(function, win, origin_datatype, "origin_datatype", &rc)) == nullptr) {
            return rc;
        }
        if (static_cast<std::size_t>(origin_count) * origin->size != o.bytes) {
            return raise_on_win(win, MPI_ERR_TRUNCATE, function,
                                "the origin gives " +
                                    std::to_string(static_cast<std::size_t>(origin_count) * origin->size) +
                                    " bytes, the target takes " + std::to_string(o.bytes));
        }
        if ((rc = same_basic(win, function, reduction, {o.target, origin, o.origin})) != MPI_SUCCESS) {
            return rc;
        }
    } else if (!o.none && (rc = same_basic(win, function, reduction, {o.target, o.origin})) != MPI_SUCCESS) {
        return rc;
    }
    mca_osc_base_module_t *m = o.w->osc;
    const std::size_t n_origin = origin == nullptr ? 0 : static_cast<std::size_t>(origin_count);
    if (request == nullptr) {
        if (m->osc_get_accumulate == nullptr) {
            return unsupported(win, function, *o.w);
        }
        return outcome(win, function,
                       m->osc_get_accumulate(origin_addr, n_origin, osc::to_c(origin), result_addr,
                                             count_of(o, result_count), osc::to_c(o.origin), target_rank, target_disp,
                                             count_of(o, target_count), osc::to_c(o.target), osc::to_c(reduction),
                                             osc::to_c(o.w), m));
    }
    if (m->osc_rget_accumulate == nullptr) {
        return unsupported(win, function, *o.w);
    }
    tessera_request *r = nullptr;
    rc = outcome(win, function,
                 m->osc_rget_accumulate(origin_addr, n_origin, osc::to_c(origin), result_addr,
                                        count_of(o, result_count), osc::to_c(o.origin), target_rank, target_disp,
                                        count_of(o, target_count), osc::to_c(o.target), osc::to_c(reduction), &r,
                                        osc::to_c(o.w), m));
    if (rc == MPI_SUCCESS) {
        *request = handle_of(r);
    }
    return rc;
}

} // namespace

int put_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
          MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return put_or_rput("MPI_Put", origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, win, nullptr);
}

int rput_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
           MPI_Request *request)
{
    int rc = MPI_SUCCESS;
    if (!request_ok(win, "MPI_Rput", request, &rc)) {
        return rc;
    }
    return put_or_rput("MPI_Rput", origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, win, request);
}

int get_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
          MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win)
{
    return get_or_rget("MPI_Get", origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, win, nullptr);
}

int rget_c(void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
           MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Win win,
           MPI_Request *request)
{
    int rc = MPI_SUCCESS;
    if (!request_ok(win, "MPI_Rget", request, &rc)) {
        return rc;
    }
    return get_or_rget("MPI_Rget", origin_addr, origin_count, origin_datatype, target_rank, target_disp, target_count,
                       target_datatype, win, request);
}

int accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                 MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return accumulate_or_r("MPI_Accumulate", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                           target_count, target_datatype, op, win, nullptr);
}

int raccumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype, int target_rank,
                  MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                  MPI_Request *request)
{
    int rc = MPI_SUCCESS;
    if (!request_ok(win, "MPI_Raccumulate", request, &rc)) {
        return rc;
    }
    return accumulate_or_r("MPI_Raccumulate", origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                           target_count, target_datatype, op, win, request);
}

int get_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                     void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                     MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                     MPI_Win win)
{
    return get_accumulate_or_r("MPI_Get_accumulate", origin_addr, origin_count, origin_datatype, result_addr,
                               result_count, result_datatype, target_rank, target_disp, target_count,
                               target_datatype, op, win, nullptr);
}

int rget_accumulate_c(const void *origin_addr, MPI_Count origin_count, MPI_Datatype origin_datatype,
                      void *result_addr, MPI_Count result_count, MPI_Datatype result_datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Count target_count, MPI_Datatype target_datatype, MPI_Op op,
                      MPI_Win win, MPI_Request *request)
{
    int rc = MPI_SUCCESS;
    if (!request_ok(win, "MPI_Rget_accumulate", request, &rc)) {
        return rc;
    }
    return get_accumulate_or_r("MPI_Rget_accumulate", origin_addr, origin_count, origin_datatype, result_addr,
                               result_count, result_datatype, target_rank, target_disp, target_count,
                               target_datatype, op, win, request);
}

/* One element of a predefined datatype (MPI-4.1 12.3.4). */
int fetch_and_op(const void *origin_addr, void *result_addr, MPI_Datatype datatype, int target_rank,
                 MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    const char *function = "MPI_Fetch_and_op";
    Operation o;
    if (int rc = check(function, win, 1, datatype, target_rank, target_disp, 1, datatype, &o); rc != MPI_SUCCESS) {
        return rc;
    }
    int rc = MPI_SUCCESS;
    const Op *reduction = accumulate_op(win, function, op, true, &rc);
    if (reduction == nullptr) {
        return rc;
    }
    if (!o.none && datatype_lookup(datatype)->derived != nullptr) {
        return raise_on_win(win, MPI_ERR_TYPE, function, "the datatype must be predefined");
    }
    if (!o.none && (rc = same_basic(win, function, reduction, {o.target})) != MPI_SUCCESS) {
        return rc;
    }
    mca_osc_base_module_t *m = o.w->osc;
    if (m->osc_fetch_and_op == nullptr) {
        return unsupported(win, function, *o.w);
    }
    return outcome(win, function,
                   m->osc_fetch_and_op(origin_addr, result_addr, osc::to_c(o.target), o.none ? MPI_PROC_NULL : target_rank,
                                       target_disp, osc::to_c(reduction), osc::to_c(o.w), m));
}

/* One element of a predefined datatype, replaced when it equals the compare value (MPI-4.1 12.3.4). */
int compare_and_swap(const void *origin_addr, const void *compare_addr, void *result_addr, MPI_Datatype datatype,
                     int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    const char *function = "MPI_Compare_and_swap";
    Operation o;
    if (int rc = check(function, win, 1, datatype, target_rank, target_disp, 1, datatype, &o); rc != MPI_SUCCESS) {
        return rc;
    }
    if (!o.none && datatype_lookup(datatype)->derived != nullptr) {
        return raise_on_win(win, MPI_ERR_TYPE, function, "the datatype must be predefined");
    }
    mca_osc_base_module_t *m = o.w->osc;
    if (m->osc_compare_and_swap == nullptr) {
        return unsupported(win, function, *o.w);
    }
    return outcome(win, function,
                   m->osc_compare_and_swap(origin_addr, compare_addr, result_addr, osc::to_c(o.target),
                                           o.none ? MPI_PROC_NULL : target_rank, target_disp, osc::to_c(o.w), m));
}

int win_fence(int assert, MPI_Win win)
{
    int rc = MPI_SUCCESS;
    Window *w = win_argument("MPI_Win_fence", win, &rc);
    if (w == nullptr) {
        return rc;
    }
    if (rc = w->osc->osc_fence(assert, osc::to_c(w), w->osc); rc != MPI_SUCCESS) {
        return raise_on_win(win, rc, "MPI_Win_fence", rma_failure(rc, "completing the epoch's operations failed"));
    }
    return MPI_SUCCESS;
}

} // namespace tessera::ompi::native
