#include "ompi/runtime/native_dispatch.h"

#include "ompi/attribute/attr_functions.h"
#include "ompi/coll/coll_functions.h"
#include "ompi/coll/coll_persistent.h"
#include "ompi/communicator/comm_functions.h"
#include "ompi/datatype/type_functions.h"
#include "ompi/errhandler/errhandler_functions.h"
#include "ompi/group/group_functions.h"
#include "ompi/info/info_functions.h"
#include "ompi/op/op_functions.h"
#include "ompi/pml/p2p_functions.h"
#include "ompi/runtime/native_functions.h"
#include "ompi/runtime/native_translator.h"
#include "ompi/topo/neighbor_functions.h"
#include "ompi/topo/topo_functions.h"
#include "ompi/win/win_functions.h"

namespace tessera::ompi {

void native_fill(tessera_mpi_dispatch_t *t)
{
    /* Life cycle and environment (issue 3) */
    t->Init = native::init;
    t->Init_thread = native::init_thread;
    t->Initialized = native::initialized;
    t->Finalized = native::finalized;
    t->Finalize = native::finalize;
    t->Query_thread = native::query_thread;
    t->Is_thread_main = native::is_thread_main;
    t->Abort = native::abort;
    t->Get_processor_name = native::get_processor_name;
    t->Get_version = native::get_version;
    t->Get_library_version = native::get_library_version;
    t->Wtime = native::wtime;
    t->Wtick = native::wtick;
    t->Pcontrol = native::pcontrol;
    t->Alloc_mem = native::alloc_mem;
    t->Free_mem = native::free_mem;
    /* Integer forms of handles */
    t->Comm_toint = native::comm_toint;
    t->Comm_fromint = native::comm_fromint;
    t->Group_toint = native::group_toint;
    t->Group_fromint = native::group_fromint;
    t->Win_toint = native::win_toint;
    t->Win_fromint = native::win_fromint;
    t->File_toint = native::file_toint;
    t->File_fromint = native::file_fromint;
    t->Session_toint = native::session_toint;
    t->Session_fromint = native::session_fromint;
    t->Message_toint = native::message_toint;
    t->Message_fromint = native::message_fromint;
    t->Info_toint = native::info_toint;
    t->Info_fromint = native::info_fromint;
    t->Errhandler_toint = native::errhandler_toint;
    t->Errhandler_fromint = native::errhandler_fromint;
    t->Request_toint = native::request_toint;
    t->Request_fromint = native::request_fromint;
    t->Type_toint = native::type_toint;
    t->Type_fromint = native::type_fromint;
    t->Op_toint = native::op_toint;
    t->Op_fromint = native::op_fromint;
    /* Communicators */
    t->Comm_rank = native::comm_rank;
    t->Comm_size = native::comm_size;
    t->Comm_get_parent = native::comm_get_parent;
    t->Comm_group = native::comm_group;
    t->Comm_compare = native::comm_compare;
    t->Comm_set_name = native::comm_set_name;
    t->Comm_get_name = native::comm_get_name;
    t->Comm_set_info = native::comm_set_info;
    t->Comm_get_info = native::comm_get_info;
    /* Communicator creation (issue 7) */
    t->Comm_dup = native::comm_dup;
    t->Comm_dup_with_info = native::comm_dup_with_info;
    t->Comm_idup = native::comm_idup;
    t->Comm_idup_with_info = native::comm_idup_with_info;
    t->Comm_split = native::comm_split;
    t->Comm_split_type = native::comm_split_type;
    t->Comm_create = native::comm_create;
    t->Comm_create_group = native::comm_create_group;
    t->Comm_free = native::comm_free;
    t->Comm_test_inter = native::comm_test_inter;
    t->Comm_remote_size = native::comm_remote_size;
    t->Comm_remote_group = native::comm_remote_group;
    t->Intercomm_create = native::intercomm_create;
    t->Intercomm_merge = native::intercomm_merge;
    /* Topologies and neighbourhood collectives (issue 7) */
    t->Dims_create = native::dims_create;
    t->Cart_create = native::cart_create;
    t->Cart_coords = native::cart_coords;
    t->Cart_rank = native::cart_rank;
    t->Cart_shift = native::cart_shift;
    t->Cart_sub = native::cart_sub;
    t->Cart_get = native::cart_get;
    t->Cartdim_get = native::cartdim_get;
    t->Cart_map = native::cart_map;
    t->Graph_create = native::graph_create;
    t->Graph_get = native::graph_get;
    t->Graphdims_get = native::graphdims_get;
    t->Graph_neighbors_count = native::graph_neighbors_count;
    t->Graph_neighbors = native::graph_neighbors;
    t->Graph_map = native::graph_map;
    t->Topo_test = native::topo_test;
    t->Dist_graph_create_adjacent = native::dist_graph_create_adjacent;
    t->Dist_graph_create = native::dist_graph_create;
    t->Dist_graph_neighbors_count = native::dist_graph_neighbors_count;
    t->Dist_graph_neighbors = native::dist_graph_neighbors;
    t->Neighbor_allgather = native::neighbor_allgather;
    t->Neighbor_allgather_c = native::neighbor_allgather_c;
    t->Ineighbor_allgather = native::ineighbor_allgather;
    t->Ineighbor_allgather_c = native::ineighbor_allgather_c;
    t->Neighbor_allgatherv = native::neighbor_allgatherv;
    t->Neighbor_allgatherv_c = native::neighbor_allgatherv_c;
    t->Ineighbor_allgatherv = native::ineighbor_allgatherv;
    t->Ineighbor_allgatherv_c = native::ineighbor_allgatherv_c;
    t->Neighbor_alltoall = native::neighbor_alltoall;
    t->Neighbor_alltoall_c = native::neighbor_alltoall_c;
    t->Ineighbor_alltoall = native::ineighbor_alltoall;
    t->Ineighbor_alltoall_c = native::ineighbor_alltoall_c;
    t->Neighbor_alltoallv = native::neighbor_alltoallv;
    t->Neighbor_alltoallv_c = native::neighbor_alltoallv_c;
    t->Ineighbor_alltoallv = native::ineighbor_alltoallv;
    t->Ineighbor_alltoallv_c = native::ineighbor_alltoallv_c;
    t->Neighbor_alltoallw = native::neighbor_alltoallw;
    t->Neighbor_alltoallw_c = native::neighbor_alltoallw_c;
    t->Ineighbor_alltoallw = native::ineighbor_alltoallw;
    t->Ineighbor_alltoallw_c = native::ineighbor_alltoallw_c;
    /* Groups (issue 7) */
    t->Group_size = native::group_size;
    t->Group_rank = native::group_rank;
    t->Group_translate_ranks = native::group_translate_ranks;
    t->Group_compare = native::group_compare;
    t->Group_union = native::group_union;
    t->Group_intersection = native::group_intersection;
    t->Group_difference = native::group_difference;
    t->Group_incl = native::group_incl;
    t->Group_excl = native::group_excl;
    t->Group_range_incl = native::group_range_incl;
    t->Group_range_excl = native::group_range_excl;
    t->Group_free = native::group_free;
    /* Info objects (issue 7) */
    t->Info_create = native::info_create;
    t->Info_create_env = native::info_create_env;
    t->Info_set = native::info_set;
    t->Info_delete = native::info_delete;
    t->Info_get = native::info_get;
    t->Info_get_valuelen = native::info_get_valuelen;
    t->Info_get_string = native::info_get_string;
    t->Info_get_nkeys = native::info_get_nkeys;
    t->Info_get_nthkey = native::info_get_nthkey;
    t->Info_dup = native::info_dup;
    t->Info_free = native::info_free;
    /* Errors and error handlers (issue 7) */
    t->Comm_create_errhandler = native::comm_create_errhandler;
    t->Comm_set_errhandler = native::comm_set_errhandler;
    t->Comm_get_errhandler = native::comm_get_errhandler;
    t->Comm_call_errhandler = native::comm_call_errhandler;
    t->Win_create_errhandler = native::win_create_errhandler;
    t->Win_set_errhandler = native::win_set_errhandler;
    t->Win_get_errhandler = native::win_get_errhandler;
    t->Win_call_errhandler = native::win_call_errhandler;
    t->File_create_errhandler = native::file_create_errhandler;
    t->File_set_errhandler = native::file_set_errhandler;
    t->File_get_errhandler = native::file_get_errhandler;
    t->File_call_errhandler = native::file_call_errhandler;
    t->Session_create_errhandler = native::session_create_errhandler;
    t->Errhandler_free = native::errhandler_free;
    t->Error_string = native::error_string;
    t->Error_class = native::error_class;
    t->Add_error_class = native::add_error_class;
    t->Add_error_code = native::add_error_code;
    t->Add_error_string = native::add_error_string;
    t->Remove_error_class = native::remove_error_class;
    t->Remove_error_code = native::remove_error_code;
    t->Remove_error_string = native::remove_error_string;
    /* Attributes (issue 7) */
    t->Comm_create_keyval = native::comm_create_keyval;
    t->Comm_free_keyval = native::comm_free_keyval;
    t->Comm_set_attr = native::comm_set_attr;
    t->Comm_get_attr = native::comm_get_attr;
    t->Comm_delete_attr = native::comm_delete_attr;
    t->Keyval_create = native::keyval_create;
    t->Keyval_free = native::keyval_free;
    t->Attr_put = native::attr_put;
    t->Attr_get = native::attr_get;
    t->Attr_delete = native::attr_delete;
    t->Type_create_keyval = native::type_create_keyval;
    t->Type_free_keyval = native::type_free_keyval;
    t->Type_set_attr = native::type_set_attr;
    t->Type_get_attr = native::type_get_attr;
    t->Type_delete_attr = native::type_delete_attr;
    t->Win_create_keyval = native::win_create_keyval;
    t->Win_free_keyval = native::win_free_keyval;
    t->Win_set_attr = native::win_set_attr;
    t->Win_get_attr = native::win_get_attr;
    t->Win_delete_attr = native::win_delete_attr;
    /* Windows and fence-synchronized one-sided operations (ompi/win) */
    t->Win_create = native::win_create;
    t->Win_allocate = native::win_allocate;
    t->Win_free = native::win_free;
    t->Win_get_group = native::win_get_group;
    t->Win_set_name = native::win_set_name;
    t->Win_get_name = native::win_get_name;
    t->Win_set_info = native::win_set_info;
    t->Win_get_info = native::win_get_info;
    t->Win_fence = native::win_fence;
    t->Put = native::put;
    t->Get = native::get;
    t->Accumulate = native::accumulate;
    /* Point-to-point (issue 5) */
    t->Send = native::send;
    t->Ssend = native::ssend;
    t->Rsend = native::rsend;
    t->Recv = native::recv;
    t->Isend = native::isend;
    t->Issend = native::issend;
    t->Irsend = native::irsend;
    t->Irecv = native::irecv;
    t->Send_init = native::send_init;
    t->Ssend_init = native::ssend_init;
    t->Rsend_init = native::rsend_init;
    t->Recv_init = native::recv_init;
    t->Sendrecv = native::sendrecv;
    t->Sendrecv_replace = native::sendrecv_replace;
    t->Isendrecv = native::isendrecv;
    t->Isendrecv_replace = native::isendrecv_replace;
    t->Mprobe = native::mprobe;
    t->Improbe = native::improbe;
    t->Mrecv = native::mrecv;
    t->Imrecv = native::imrecv;
    t->Buffer_attach = native::buffer_attach;
    t->Buffer_detach = native::buffer_detach;
    t->Buffer_flush = native::buffer_flush;
    t->Bsend = native::bsend;
    t->Ibsend = native::ibsend;
    t->Bsend_init = native::bsend_init;
    t->Send_c = native::send_c;
    t->Ssend_c = native::ssend_c;
    t->Rsend_c = native::rsend_c;
    t->Bsend_c = native::bsend_c;
    t->Recv_c = native::recv_c;
    t->Isend_c = native::isend_c;
    t->Issend_c = native::issend_c;
    t->Irsend_c = native::irsend_c;
    t->Ibsend_c = native::ibsend_c;
    t->Irecv_c = native::irecv_c;
    t->Send_init_c = native::send_init_c;
    t->Ssend_init_c = native::ssend_init_c;
    t->Rsend_init_c = native::rsend_init_c;
    t->Bsend_init_c = native::bsend_init_c;
    t->Recv_init_c = native::recv_init_c;
    t->Sendrecv_c = native::sendrecv_c;
    t->Sendrecv_replace_c = native::sendrecv_replace_c;
    t->Isendrecv_c = native::isendrecv_c;
    t->Isendrecv_replace_c = native::isendrecv_replace_c;
    t->Mrecv_c = native::mrecv_c;
    t->Imrecv_c = native::imrecv_c;
    t->Type_get_extent_c = native::type_get_extent_c;
    t->Probe = native::probe;
    t->Iprobe = native::iprobe;
    t->Start = native::start;
    t->Startall = native::startall;
    t->Wait = native::wait;
    t->Test = native::test;
    t->Waitall = native::waitall;
    t->Testall = native::testall;
    t->Waitany = native::waitany;
    t->Testany = native::testany;
    t->Waitsome = native::waitsome;
    t->Testsome = native::testsome;
    t->Request_free = native::request_free;
    t->Request_get_status = native::request_get_status;
    t->Request_get_status_any = native::request_get_status_any;
    t->Request_get_status_all = native::request_get_status_all;
    t->Request_get_status_some = native::request_get_status_some;
    t->Cancel = native::cancel;
    t->Test_cancelled = native::test_cancelled;
    t->Get_count = native::get_count;
    t->Get_count_c = native::get_count_c;
    t->Status_set_cancelled = native::status_set_cancelled;
    t->Grequest_start = native::grequest_start;
    t->Grequest_complete = native::grequest_complete;
    t->Status_set_elements = native::status_set_elements;
    t->Status_set_elements_c = native::status_set_elements_c;
    t->Status_set_elements_x = native::status_set_elements_x;
    t->Status_get_source = native::status_get_source;
    t->Status_get_tag = native::status_get_tag;
    t->Status_get_error = native::status_get_error;
    t->Status_set_source = native::status_set_source;
    t->Status_set_tag = native::status_set_tag;
    t->Status_set_error = native::status_set_error;
    t->Get_elements = native::get_elements;
    t->Get_elements_c = native::get_elements_c;
    /* Datatypes (issue 6) */
    t->Type_size = native::type_size;
    t->Type_size_c = native::type_size_c;
    t->Type_size_x = native::type_size_c;
    t->Type_get_extent = native::type_get_extent;
    t->Type_get_extent_x = native::type_get_extent_c;
    t->Type_get_true_extent = native::type_get_true_extent;
    t->Type_get_true_extent_c = native::type_get_true_extent_c;
    t->Type_get_true_extent_x = native::type_get_true_extent_c;
    t->Get_elements_x = native::get_elements_c;
    t->Get_address = native::get_address;
    t->Aint_add = native::aint_add;
    t->Aint_diff = native::aint_diff;
    t->Type_contiguous = native::type_contiguous;
    t->Type_contiguous_c = native::type_contiguous_c;
    t->Type_vector = native::type_vector;
    t->Type_vector_c = native::type_vector_c;
    t->Type_create_hvector = native::type_create_hvector;
    t->Type_create_hvector_c = native::type_create_hvector_c;
    t->Type_indexed = native::type_indexed;
    t->Type_indexed_c = native::type_indexed_c;
    t->Type_create_hindexed = native::type_create_hindexed;
    t->Type_create_hindexed_c = native::type_create_hindexed_c;
    t->Type_create_indexed_block = native::type_create_indexed_block;
    t->Type_create_indexed_block_c = native::type_create_indexed_block_c;
    t->Type_create_hindexed_block = native::type_create_hindexed_block;
    t->Type_create_hindexed_block_c = native::type_create_hindexed_block_c;
    t->Type_create_struct = native::type_create_struct;
    t->Type_create_struct_c = native::type_create_struct_c;
    t->Type_create_subarray = native::type_create_subarray;
    t->Type_create_subarray_c = native::type_create_subarray_c;
    t->Type_create_darray = native::type_create_darray;
    t->Type_create_darray_c = native::type_create_darray_c;
    t->Type_create_resized = native::type_create_resized;
    t->Type_create_resized_c = native::type_create_resized_c;
    t->Type_dup = native::type_dup;
    t->Type_create_f90_real = native::type_create_f90_real;
    t->Type_create_f90_complex = native::type_create_f90_complex;
    t->Type_create_f90_integer = native::type_create_f90_integer;
    t->Type_get_value_index = native::type_get_value_index;
    t->Type_commit = native::type_commit;
    t->Type_free = native::type_free;
    t->Type_get_envelope = native::type_get_envelope;
    t->Type_get_envelope_c = native::type_get_envelope_c;
    t->Type_get_contents = native::type_get_contents;
    t->Type_get_contents_c = native::type_get_contents_c;
    t->Type_set_name = native::type_set_name;
    t->Type_get_name = native::type_get_name;
    t->Type_match_size = native::type_match_size;
    t->Pack = native::pack;
    t->Pack_c = native::pack_c;
    t->Unpack = native::unpack;
    t->Unpack_c = native::unpack_c;
    t->Pack_size = native::pack_size;
    t->Pack_size_c = native::pack_size_c;
    t->Pack_external = native::pack_external;
    t->Pack_external_c = native::pack_external_c;
    t->Unpack_external = native::unpack_external;
    t->Unpack_external_c = native::unpack_external_c;
    t->Pack_external_size = native::pack_external_size;
    t->Pack_external_size_c = native::pack_external_size_c;
    /* Collectives (issue 7) */
    t->Bcast = native::bcast;
    t->Bcast_c = native::bcast_c;
    t->Ibcast = native::ibcast;
    t->Ibcast_c = native::ibcast_c;
    t->Gather = native::gather;
    t->Gather_c = native::gather_c;
    t->Igather = native::igather;
    t->Igather_c = native::igather_c;
    t->Gatherv = native::gatherv;
    t->Gatherv_c = native::gatherv_c;
    t->Igatherv = native::igatherv;
    t->Igatherv_c = native::igatherv_c;
    t->Scatter = native::scatter;
    t->Scatter_c = native::scatter_c;
    t->Iscatter = native::iscatter;
    t->Iscatter_c = native::iscatter_c;
    t->Scatterv = native::scatterv;
    t->Scatterv_c = native::scatterv_c;
    t->Iscatterv = native::iscatterv;
    t->Iscatterv_c = native::iscatterv_c;
    t->Barrier = native::barrier;
    t->Ibarrier = native::ibarrier;
    t->Allgather = native::allgather;
    t->Allgather_c = native::allgather_c;
    /* Persistent collectives (MPI-4.1 6.13, 7.8) */
    t->Allgather_init = native::allgather_init;
    t->Allgather_init_c = native::allgather_init_c;
    t->Allgatherv_init = native::allgatherv_init;
    t->Allgatherv_init_c = native::allgatherv_init_c;
    t->Allreduce_init = native::allreduce_init;
    t->Allreduce_init_c = native::allreduce_init_c;
    t->Alltoall_init = native::alltoall_init;
    t->Alltoall_init_c = native::alltoall_init_c;
    t->Alltoallv_init = native::alltoallv_init;
    t->Alltoallv_init_c = native::alltoallv_init_c;
    t->Alltoallw_init = native::alltoallw_init;
    t->Alltoallw_init_c = native::alltoallw_init_c;
    t->Barrier_init = native::barrier_init;
    t->Bcast_init = native::bcast_init;
    t->Bcast_init_c = native::bcast_init_c;
    t->Exscan_init = native::exscan_init;
    t->Exscan_init_c = native::exscan_init_c;
    t->Gather_init = native::gather_init;
    t->Gather_init_c = native::gather_init_c;
    t->Gatherv_init = native::gatherv_init;
    t->Gatherv_init_c = native::gatherv_init_c;
    t->Neighbor_allgather_init = native::neighbor_allgather_init;
    t->Neighbor_allgather_init_c = native::neighbor_allgather_init_c;
    t->Neighbor_allgatherv_init = native::neighbor_allgatherv_init;
    t->Neighbor_allgatherv_init_c = native::neighbor_allgatherv_init_c;
    t->Neighbor_alltoall_init = native::neighbor_alltoall_init;
    t->Neighbor_alltoall_init_c = native::neighbor_alltoall_init_c;
    t->Neighbor_alltoallv_init = native::neighbor_alltoallv_init;
    t->Neighbor_alltoallv_init_c = native::neighbor_alltoallv_init_c;
    t->Neighbor_alltoallw_init = native::neighbor_alltoallw_init;
    t->Neighbor_alltoallw_init_c = native::neighbor_alltoallw_init_c;
    t->Reduce_init = native::reduce_init;
    t->Reduce_init_c = native::reduce_init_c;
    t->Reduce_scatter_block_init = native::reduce_scatter_block_init;
    t->Reduce_scatter_block_init_c = native::reduce_scatter_block_init_c;
    t->Reduce_scatter_init = native::reduce_scatter_init;
    t->Reduce_scatter_init_c = native::reduce_scatter_init_c;
    t->Scan_init = native::scan_init;
    t->Scan_init_c = native::scan_init_c;
    t->Scatter_init = native::scatter_init;
    t->Scatter_init_c = native::scatter_init_c;
    t->Scatterv_init = native::scatterv_init;
    t->Scatterv_init_c = native::scatterv_init_c;
    t->Iallgather = native::iallgather;
    t->Iallgather_c = native::iallgather_c;
    t->Allgatherv = native::allgatherv;
    t->Allgatherv_c = native::allgatherv_c;
    t->Iallgatherv = native::iallgatherv;
    t->Iallgatherv_c = native::iallgatherv_c;
    t->Alltoall = native::alltoall;
    t->Alltoall_c = native::alltoall_c;
    t->Ialltoall = native::ialltoall;
    t->Ialltoall_c = native::ialltoall_c;
    t->Alltoallv = native::alltoallv;
    t->Alltoallv_c = native::alltoallv_c;
    t->Ialltoallv = native::ialltoallv;
    t->Ialltoallv_c = native::ialltoallv_c;
    t->Alltoallw = native::alltoallw;
    t->Alltoallw_c = native::alltoallw_c;
    t->Ialltoallw = native::ialltoallw;
    t->Ialltoallw_c = native::ialltoallw_c;
    t->Reduce = native::reduce;
    t->Reduce_c = native::reduce_c;
    t->Ireduce = native::ireduce;
    t->Ireduce_c = native::ireduce_c;
    t->Allreduce = native::allreduce;
    t->Allreduce_c = native::allreduce_c;
    t->Iallreduce = native::iallreduce;
    t->Iallreduce_c = native::iallreduce_c;
    t->Reduce_scatter = native::reduce_scatter;
    t->Reduce_scatter_c = native::reduce_scatter_c;
    t->Ireduce_scatter = native::ireduce_scatter;
    t->Ireduce_scatter_c = native::ireduce_scatter_c;
    t->Reduce_scatter_block = native::reduce_scatter_block;
    t->Reduce_scatter_block_c = native::reduce_scatter_block_c;
    t->Ireduce_scatter_block = native::ireduce_scatter_block;
    t->Ireduce_scatter_block_c = native::ireduce_scatter_block_c;
    t->Scan = native::scan;
    t->Scan_c = native::scan_c;
    t->Iscan = native::iscan;
    t->Iscan_c = native::iscan_c;
    t->Exscan = native::exscan;
    t->Exscan_c = native::exscan_c;
    t->Iexscan = native::iexscan;
    t->Iexscan_c = native::iexscan_c;
    /* Reduction ops (issue 7) */
    t->Op_create = native::op_create;
    t->Op_create_c = native::op_create_c;
    t->Op_free = native::op_free;
    t->Op_commutative = native::op_commutative;
    t->Reduce_local = native::reduce_local;
    t->Reduce_local_c = native::reduce_local_c;
}

} // namespace tessera::ompi

extern "C" {

const char *tessera_ompi_native_layout(void)
{
    return TESSERA_MPI_LAYOUT;
}

int tessera_ompi_native_fill(mca_translator_base_fn_t *table, size_t entries, size_t *filled)
{
    static_assert(sizeof(tessera_mpi_dispatch_t) == TESSERA_MPI_FUNCTION_COUNT * sizeof(mca_translator_base_fn_t),
                  "the dispatch table is an array of function pointers");
    if (table == nullptr || entries != TESSERA_MPI_FUNCTION_COUNT) {
        return TESSERA_ERR_VERSION;
    }
    tessera_mpi_dispatch_t bare{};
    tessera::ompi::native_fill(&bare);
    auto *t = reinterpret_cast<tessera_mpi_dispatch_t *>(table);
    tessera_mpi_install_checked(t, &bare);
    if (filled != nullptr) {
        size_t n = 0;
        for (size_t i = 0; i < TESSERA_MPI_FUNCTION_COUNT; ++i) {
            n += tessera_mpi_slot_filled(&bare, i) != 0;
        }
        *filled = n;
    }
    return TESSERA_SUCCESS;
}

} // extern "C"
