/*
 * What the generated int-count forms with arrays need (native_glue.cpp, ompi/api/gen_native.py): how
 * many entries of an array are significant on this process (len= and sig= of mpi_api.txt), and the
 * widened copies of the int arrays their MPI_Count form reads. The MPI_Count form copies what it keeps
 * (a nonblocking collective's counts live in its schedule), so a copy here lives for the call only.
 */
#ifndef TESSERA_OMPI_RUNTIME_INT_FORMS_H
#define TESSERA_OMPI_RUNTIME_INT_FORMS_H

#include <cstddef>
#include <memory>

#include <mpi.h>

#include "tessera_mpi_dispatch.h"

namespace tessera::ompi::int_forms {

/* Entries of an array with one per rank of comm (len=@group:comm): the remote group's size on an
 * intercommunicator, else the communicator's. 0 when comm is no communicator: the MPI_Count form
 * raises that error itself. */
int group_length(MPI_Comm comm);
/* Entries of an array with one per rank of comm's own group, also on an intercommunicator
 * (len=@size:comm: MPI_Reduce_scatter's recvcounts); 0 when comm is no communicator. */
int local_size(MPI_Comm comm);
/* This process's in- and out-degree in comm's topology (len=@indegree:comm, @outdegree:comm); 0
 * without a topology (the MPI_Count form raises MPI_ERR_TOPOLOGY). */
int indegree(MPI_Comm comm);
int outdegree(MPI_Comm comm);
/* sig=root: this process is the root of a rooted collective (root == MPI_ROOT on an intercommunicator). */
bool at_root(MPI_Comm comm, int root);

/* True while the MPI_Count form `function` ("MPI_Type_indexed_c") runs for its int form: a datatype
 * constructor records then that the type was made with int counts (MPI_Type_get_envelope). */
bool running_for_int_form(const char *function);

/* The int form's name for the error handler while its MPI_Count form runs, cleared afterwards so that
 * a later direct call of the MPI_Count form is not taken for it. */
class Scope {
public:
    explicit Scope(const char *int_form) { tessera_mpi_int_form = int_form; }
    ~Scope() { tessera_mpi_int_form = nullptr; }
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;
};

/* A widened copy of the first n entries of an int array; nullptr where the source is NULL or not
 * significant (n < 0), so that the MPI_Count form sees what the application passed. Up to Small
 * entries live on the stack: a stack array's size is fixed when this is compiled, so it is no MCA
 * parameter; larger arrays take the heap. */
template <typename Wide, std::size_t Small = 32>
class Widened {
public:
    template <typename Narrow>
    Widened(const Narrow *src, int n)
    {
        if (src == nullptr || n < 0) {
            return;
        }
        const auto size = static_cast<std::size_t>(n);
        Wide *out = small_;
        if (size > Small) {
            heap_ = std::make_unique<Wide[]>(size);
            out = heap_.get();
        }
        for (std::size_t i = 0; i < size; ++i) {
            out[i] = static_cast<Wide>(src[i]);
        }
        data_ = out;
    }
    Widened(const Widened &) = delete;
    Widened &operator=(const Widened &) = delete;
    const Wide *data() const { return data_; }

private:
    Wide small_[Small];
    std::unique_ptr<Wide[]> heap_;
    const Wide *data_ = nullptr;
};

} // namespace tessera::ompi::int_forms

#endif
