/* The point-to-point MPI functions of the native engine (MPI-4.1 chapter 3), registered in
 * ompi/runtime/native_dispatch.cpp. */
#ifndef TESSERA_OMPI_PML_P2P_FUNCTIONS_H
#define TESSERA_OMPI_PML_P2P_FUNCTIONS_H

#include <mpi.h>

#include "ompi/pml/pml_request.h"

namespace tessera::ompi::native {

/* p2p_send_recv.cpp */
int send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status);
int isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
int send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request);
int sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
                     MPI_Comm comm, MPI_Status *status);
int probe(int source, int tag, MPI_Comm comm, MPI_Status *status);
int iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status);

int isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Request *request);
int isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag,
                      MPI_Comm comm, MPI_Request *request);

/* p2p_send_recv.cpp: the MPI_Count forms */
int send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int ssend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int rsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status);
int isend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
            MPI_Request *request);
int issend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
             MPI_Request *request);
int irsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
             MPI_Request *request);
int irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
            MPI_Request *request);
int send_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request *request);
int ssend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request *request);
int rsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request *request);
int recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Request *request);
int sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
               MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status);
int sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                       int recvtag, MPI_Comm comm, MPI_Status *status);
int isendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf,
                MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                MPI_Request *request);
int isendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                        int recvtag, MPI_Comm comm, MPI_Request *request);

/* p2p_matched.cpp */
int improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status);
int mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status);
int mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status);
int imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request);
int mrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Status *status);
int imrecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, MPI_Message *message, MPI_Request *request);

/* p2p_buffered.cpp */
int buffer_attach(void *buffer, int size);
int buffer_detach(void *buffer_addr, int *size);
int buffer_flush();
int bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request);
int bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request *request);
int bsend_init_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request *request);
/* MPI_Start of a persistent buffered send: copies the message into the buffer and sends it from there;
 * the request is complete at once. */
int start_bsend(pml::Request *r);
int bsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int ibsend_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
             MPI_Request *request);

/* p2p_completion.cpp */
int start(MPI_Request *request);
int startall(int count, MPI_Request array_of_requests[]);
int wait(MPI_Request *request, MPI_Status *status);
int test(MPI_Request *request, int *flag, MPI_Status *status);
int waitall(int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]);
int testall(int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]);
int waitany(int count, MPI_Request array_of_requests[], int *indx, MPI_Status *status);
int testany(int count, MPI_Request array_of_requests[], int *indx, int *flag, MPI_Status *status);
int waitsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
             MPI_Status array_of_statuses[]);
int testsome(int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[],
             MPI_Status array_of_statuses[]);
int request_free(MPI_Request *request);
int request_get_status(MPI_Request request, int *flag, MPI_Status *status);
int request_get_status_any(int count, const MPI_Request array_of_requests[], int *indx, int *flag,
                           MPI_Status *status);
int request_get_status_all(int count, const MPI_Request array_of_requests[], int *flag,
                           MPI_Status array_of_statuses[]);
int request_get_status_some(int incount, const MPI_Request array_of_requests[], int *outcount,
                            int array_of_indices[], MPI_Status array_of_statuses[]);
int cancel(MPI_Request *request);

/* p2p_status.cpp */
int test_cancelled(const MPI_Status *status, int *flag);
int get_count(const MPI_Status *status, MPI_Datatype datatype, int *count);
int get_count_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
int status_set_cancelled(MPI_Status *status, int flag);
/* ompi/pml/p2p_generalized.cpp */
int grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                   MPI_Grequest_cancel_function *cancel_fn, void *extra_state, MPI_Request *request);
int grequest_complete(MPI_Request request);
int status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count);
int status_set_elements_c(MPI_Status *status, MPI_Datatype datatype, MPI_Count count);
int status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count);
int status_get_source(const MPI_Status *status, int *source);
int status_get_tag(const MPI_Status *status, int *tag);
int status_get_error(const MPI_Status *status, int *error);
int status_set_source(MPI_Status *status, int source);
int status_set_tag(MPI_Status *status, int tag);
int status_set_error(MPI_Status *status, int error);

} // namespace tessera::ompi::native

#endif
