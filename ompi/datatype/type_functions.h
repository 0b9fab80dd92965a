/* The datatype functions of the native engine (MPI-4.1 chapter 5), registered in
 * ompi/runtime/native_dispatch.cpp. */
#ifndef TESSERA_OMPI_DATATYPE_TYPE_FUNCTIONS_H
#define TESSERA_OMPI_DATATYPE_TYPE_FUNCTIONS_H

#include <mpi.h>

namespace tessera::ompi::native {

/* type_constructors.cpp */
int type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                          MPI_Datatype *newtype);
int type_indexed(int count, const int blocklengths[], const int displacements[], MPI_Datatype oldtype,
                 MPI_Datatype *newtype);
int type_indexed_c(MPI_Count count, const MPI_Count blocklengths[], const MPI_Count displacements[],
                   MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_create_hindexed(int count, const int blocklengths[], const MPI_Aint displacements[], MPI_Datatype oldtype,
                         MPI_Datatype *newtype);
int type_create_hindexed_c(MPI_Count count, const MPI_Count blocklengths[], const MPI_Count displacements[],
                           MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_create_indexed_block(int count, int blocklength, const int displacements[], MPI_Datatype oldtype,
                              MPI_Datatype *newtype);
int type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count displacements[],
                                MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_create_hindexed_block(int count, int blocklength, const MPI_Aint displacements[], MPI_Datatype oldtype,
                               MPI_Datatype *newtype);
int type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count displacements[],
                                 MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_create_struct(int count, const int blocklengths[], const MPI_Aint displacements[], const MPI_Datatype types[],
                       MPI_Datatype *newtype);
int type_create_struct_c(MPI_Count count, const MPI_Count blocklengths[], const MPI_Count displacements[],
                         const MPI_Datatype types[], MPI_Datatype *newtype);
int type_create_subarray(int ndims, const int sizes[], const int subsizes[], const int starts[], int order,
                         MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_create_subarray_c(int ndims, const MPI_Count sizes[], const MPI_Count subsizes[], const MPI_Count starts[],
                           int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_create_darray(int size, int rank, int ndims, const int gsizes[], const int distribs[], const int dargs[],
                       const int psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_create_darray_c(int size, int rank, int ndims, const MPI_Count gsizes[], const int distribs[],
                         const int dargs[], const int psizes[], int order, MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype);
int type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype *newtype);
int type_dup(MPI_Datatype oldtype, MPI_Datatype *newtype);
int type_create_f90_real(int p, int r, MPI_Datatype *newtype);
int type_create_f90_complex(int p, int r, MPI_Datatype *newtype);
int type_create_f90_integer(int r, MPI_Datatype *newtype);
int type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type);

/* type_queries.cpp */
int type_commit(MPI_Datatype *datatype);
int type_free(MPI_Datatype *datatype);
int type_get_envelope(MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes, int *combiner);
int type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                        MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner);
int type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes, int integers[],
                      MPI_Aint addresses[], MPI_Datatype datatypes[]);
int type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                        MPI_Count max_large_counts, MPI_Count max_datatypes, int integers[], MPI_Aint addresses[],
                        MPI_Count large_counts[], MPI_Datatype datatypes[]);
int type_size(MPI_Datatype datatype, int *size);
int type_size_c(MPI_Datatype datatype, MPI_Count *size);
int type_get_extent(MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent);
int type_get_extent_c(MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent);
int type_get_true_extent(MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent);
int type_get_true_extent_c(MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent);
int type_set_name(MPI_Datatype datatype, const char *name);
int type_get_name(MPI_Datatype datatype, char *name, int *resultlen);
int type_match_size(int typeclass, int size, MPI_Datatype *datatype);
int get_elements(const MPI_Status *status, MPI_Datatype datatype, int *count);
int get_elements_c(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count);
int get_address(const void *location, MPI_Aint *address);
MPI_Aint aint_add(MPI_Aint base, MPI_Aint disp);
MPI_Aint aint_diff(MPI_Aint addr1, MPI_Aint addr2);

/* type_pack.cpp */
int pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position,
         MPI_Comm comm);
int pack_c(const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf, MPI_Count outsize,
           MPI_Count *position, MPI_Comm comm);
int unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype,
           MPI_Comm comm);
int unpack_c(const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf, MPI_Count outcount,
             MPI_Datatype datatype, MPI_Comm comm);
int pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size);
int pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count *size);

/* type_external32.cpp */
int pack_external(const char *datarep, const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf,
                  MPI_Aint outsize, MPI_Aint *position);
int pack_external_c(const char *datarep, const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                    MPI_Count outsize, MPI_Count *position);
int unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position, void *outbuf,
                    int outcount, MPI_Datatype datatype);
int unpack_external_c(const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                      MPI_Count outcount, MPI_Datatype datatype);
int pack_external_size(const char *datarep, int incount, MPI_Datatype datatype, MPI_Aint *size);
int pack_external_size_c(const char *datarep, MPI_Count incount, MPI_Datatype datatype, MPI_Count *size);

} // namespace tessera::ompi::native

#endif
