/*
 * The point-to-point engine's fragments (btl tag MCA_BTL_TAG_PML). Every fragment starts with its
 * type byte. Matching fragments (EAGER: the whole message follows; RTS: a rendezvous request) go over
 * the peer's first module, in order, and carry a per-(communicator, sender) sequence number so that a
 * receiver can hold one that overtook another. CTS answers an RTS once matched; DATA fragments carry
 * the receiver's request and their offset, over any module of the peer (striping), in any order. FIN
 * says the sender has entered MPI_Finalize.
 */
#ifndef TESSERA_OMPI_PML_PML_WIRE_H
#define TESSERA_OMPI_PML_PML_WIRE_H

#include <cstdint>

namespace tessera::ompi::pml {

enum class FragType : uint8_t { Eager = 1, Rts = 2, Cts = 3, Data = 4, Fin = 5 };

/* MatchHeader::flags */
inline constexpr uint8_t kRtsAddress = 0x1; /* an RTS followed by the sender's buffer address (8 bytes): the
                                              * receiver may read the data itself (btl_get, single copy) */
inline constexpr uint8_t kRtsContended = 0x2; /* with kRtsAddress under pml_single_copy=auto: the sender waits
                                                * for its CPU, so the receiver should read rather than stream */

struct MatchHeader {
    FragType type;
    uint8_t flags;
    uint8_t reserved[2];
    uint32_t context;  /* the communicator's context id */
    int32_t source;    /* the sender's rank in that communicator */
    int32_t tag;
    uint32_t seq;      /* per (communicator, sender -> receiver) */
    uint32_t generation; /* the communicator's, agreed with its context id (comm_context.h) */
    uint64_t length;   /* bytes of the whole message */
    uint64_t sender;   /* RTS: the sender's request, for the CTS */
};

struct CtsHeader {
    FragType type;
    uint8_t reserved[7];
    uint64_t sender;   /* the sender's request */
    uint64_t receiver; /* the receiver's request, for the DATA fragments */
};

/* FIN: the sender is in MPI_Finalize and posts no receive any more, so an RTS it has not answered never
 * will be (an erroneous program: a freed send nobody receives). */
struct FinHeader {
    FragType type;
    uint8_t reserved[7];
};

struct DataHeader {
    FragType type;
    uint8_t reserved[7];
    uint64_t receiver;
    uint64_t offset;   /* of this fragment's bytes in the packed message */
};

} // namespace tessera::ompi::pml

#endif
