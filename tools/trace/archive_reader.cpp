#include "archive_reader.h"

#include <otf2/otf2.h>

#include <cstdarg>
#include <cstdio>
#include <unordered_map>
#include <vector>

namespace tessera::trace {

namespace {

/*
 * OTF2 prints its errors to stderr unless given a handler, one per level of its call stack. Keep the
 * first (the cause: "File or directory does not exist: POSIX: 'x.otf2'") for the tool's own message.
 */
thread_local std::string otf2_first_error;

OTF2_ErrorCode keep_otf2_error(void *, const char *, uint64_t, const char *, OTF2_ErrorCode code,
                               const char *format, va_list args)
{
    if (!otf2_first_error.empty()) {
        return code;
    }
    char text[512];
    std::vsnprintf(text, sizeof text, format, args);
    otf2_first_error = std::string(OTF2_Error_GetDescription(code)) + (text[0] ? ": " : "") + text;
    return code;
}

std::string otf2_error(const char *what, OTF2_ErrorCode code)
{
    std::string reason = otf2_first_error.empty() ? OTF2_Error_GetDescription(code) : otf2_first_error;
    otf2_first_error.clear();
    return std::string(what) + ": " + reason;
}

/* Strings may be defined after the definitions naming them: names resolve at the end. */
struct DefState {
    Definitions *defs;
    std::unordered_map<uint32_t, std::string> strings;
    std::unordered_map<uint32_t, uint32_t> comm_name;
};

OTF2_CallbackCode on_clock(void *user, uint64_t resolution, uint64_t offset, uint64_t, uint64_t)
{
    static_cast<DefState *>(user)->defs->clock = Clock{resolution == 0 ? 1 : resolution, offset};
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_string(void *user, OTF2_StringRef ref, const char *text)
{
    static_cast<DefState *>(user)->strings[ref] = text;
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_location(void *user, OTF2_LocationRef ref, OTF2_StringRef, OTF2_LocationType type,
                              uint64_t events, OTF2_LocationGroupRef group)
{
    static_cast<DefState *>(user)->defs->locations.push_back(LocationDef{ref, type, events, group});
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_group(void *user, OTF2_GroupRef ref, OTF2_StringRef, OTF2_GroupType type,
                           OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t count, const uint64_t *members)
{
    auto &s = *static_cast<DefState *>(user);
    s.defs->groups[ref] = GroupDef{type, paradigm, flags, std::vector<uint64_t>(members, members + count)};
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_comm(void *user, OTF2_CommRef ref, OTF2_StringRef name, OTF2_GroupRef group, OTF2_CommRef,
                          OTF2_CommFlag)
{
    auto &s = *static_cast<DefState *>(user);
    s.defs->comms[ref] = CommDef{{}, group, 0, false};
    s.comm_name[ref] = name;
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_inter_comm(void *user, OTF2_CommRef ref, OTF2_StringRef name, OTF2_GroupRef a,
                                OTF2_GroupRef b, OTF2_CommRef, OTF2_CommFlag)
{
    auto &s = *static_cast<DefState *>(user);
    s.defs->comms[ref] = CommDef{{}, a, b, true};
    s.comm_name[ref] = name;
    return OTF2_CALLBACK_SUCCESS;
}

RecordSink &sink_of(void *user)
{
    return *static_cast<RecordSink *>(user);
}

OTF2_CallbackCode on_send(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user, OTF2_AttributeList *,
                          uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
    sink_of(user).mpi_send(loc, t, peer, comm, tag, bytes);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_isend(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user, OTF2_AttributeList *,
                           uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t request)
{
    sink_of(user).mpi_isend(loc, t, peer, comm, tag, bytes, request);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_isend_complete(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user, OTF2_AttributeList *,
                                    uint64_t request)
{
    sink_of(user).mpi_isend_complete(loc, t, request);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_irecv_request(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user, OTF2_AttributeList *,
                                   uint64_t request)
{
    sink_of(user).mpi_irecv_request(loc, t, request);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_recv(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user, OTF2_AttributeList *,
                          uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t bytes)
{
    sink_of(user).mpi_recv(loc, t, peer, comm, tag, bytes);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_irecv(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user, OTF2_AttributeList *,
                           uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t bytes, uint64_t request)
{
    sink_of(user).mpi_irecv(loc, t, peer, comm, tag, bytes, request);
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode on_cancelled(OTF2_LocationRef loc, OTF2_TimeStamp t, void *user, OTF2_AttributeList *,
                               uint64_t request)
{
    sink_of(user).mpi_request_cancelled(loc, t, request);
    return OTF2_CALLBACK_SUCCESS;
}

} // namespace

std::unique_ptr<ArchiveReader> ArchiveReader::open(const std::string &anchor_path, std::string &error)
{
    OTF2_Error_RegisterCallback(keep_otf2_error, nullptr);
    otf2_first_error.clear();
    OTF2_Reader *reader = OTF2_Reader_Open(anchor_path.c_str());
    if (reader == nullptr) {
        error = "cannot open OTF2 archive '" + anchor_path + "'" +
                (otf2_first_error.empty() ? "" : ": " + otf2_first_error);
        otf2_first_error.clear();
        return nullptr;
    }
    std::unique_ptr<ArchiveReader> r(new ArchiveReader(reader));
    if (OTF2_ErrorCode rc = OTF2_Reader_SetSerialCollectiveCallbacks(reader); rc != OTF2_SUCCESS) {
        error = otf2_error("cannot set up the OTF2 reader", rc);
        return nullptr;
    }
    /* Only the global reader is used, which lets substrates such as SIONlib share their handles. */
    OTF2_Boolean yes = OTF2_TRUE;
    OTF2_Reader_SetHint(reader, OTF2_HINT_GLOBAL_READER, &yes);
    return r;
}

ArchiveReader::~ArchiveReader()
{
    OTF2_Reader_Close(reader_);
}

bool ArchiveReader::read_definitions(Definitions &defs, std::string &error)
{
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(reader_);
    if (gdr == nullptr) {
        error = otf2_error("cannot read the global definitions", OTF2_ERROR_INVALID);
        return false;
    }
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, on_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, on_string);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, on_location);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, on_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, on_comm);
    OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(cb, on_inter_comm);
    DefState state{&defs, {}, {}};
    OTF2_Reader_RegisterGlobalDefCallbacks(reader_, gdr, cb, &state);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    uint64_t count = 0;
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalDefinitions(reader_, gdr, &count);
    OTF2_Reader_CloseGlobalDefReader(reader_, gdr);
    if (rc != OTF2_SUCCESS) {
        error = otf2_error("cannot read the global definitions", rc);
        return false;
    }
    auto name = [&](uint32_t ref) {
        auto it = state.strings.find(ref);
        return it == state.strings.end() ? std::string() : it->second;
    };
    /*
     * Locations that recorded nothing may have no event file at all (then OTF2 cannot make the
     * global reader). Trust the counts, unless the writer left them all zero.
     */
    for (const LocationDef &l : defs.locations) {
        if (l.events > 0) {
            locations_.push_back(l.ref);
        }
    }
    if (locations_.empty()) {
        for (const LocationDef &l : defs.locations) {
            locations_.push_back(l.ref);
        }
    }
    for (auto &[ref, c] : defs.comms) {
        c.name = name(state.comm_name[ref]);
    }
    return true;
}

bool ArchiveReader::read_events(RecordSink &sink, uint64_t &events, std::string &error)
{
    events = 0;
    if (locations_.empty()) {
        return true;
    }
    for (uint64_t loc : locations_) {
        OTF2_Reader_SelectLocation(reader_, loc);
    }
    /*
     * Local definitions hold the id mappings of archives written without unification; reading them
     * makes the event reader translate local ids to global ones. Archives without them are fine.
     */
    if (OTF2_Reader_OpenDefFiles(reader_) == OTF2_SUCCESS) {
        for (uint64_t loc : locations_) {
            if (OTF2_DefReader *dr = OTF2_Reader_GetDefReader(reader_, loc); dr != nullptr) {
                uint64_t n = 0;
                OTF2_Reader_ReadAllLocalDefinitions(reader_, dr, &n);
                OTF2_Reader_CloseDefReader(reader_, dr);
            }
        }
        OTF2_Reader_CloseDefFiles(reader_);
    }
    otf2_first_error.clear();
    if (OTF2_ErrorCode rc = OTF2_Reader_OpenEvtFiles(reader_); rc != OTF2_SUCCESS) {
        error = otf2_error("cannot open the event files", rc);
        return false;
    }
    for (uint64_t loc : locations_) {
        /* The global reader below takes over the local readers made here. */
        if (OTF2_Reader_GetEvtReader(reader_, loc) == nullptr) {
            error = otf2_error(("cannot read the events of location " + std::to_string(loc)).c_str(),
                               OTF2_ERROR_INVALID);
            OTF2_Reader_CloseEvtFiles(reader_);
            return false;
        }
    }
    OTF2_GlobalEvtReader *ger = OTF2_Reader_GetGlobalEvtReader(reader_);
    if (ger == nullptr) {
        error = otf2_error("cannot read the events", OTF2_ERROR_INVALID);
        OTF2_Reader_CloseEvtFiles(reader_);
        return false;
    }
    OTF2_GlobalEvtReaderCallbacks *cb = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
    OTF2_GlobalEvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, on_cancelled);
    OTF2_Reader_RegisterGlobalEvtCallbacks(reader_, ger, cb, &sink);
    OTF2_GlobalEvtReaderCallbacks_Delete(cb);
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalEvents(reader_, ger, &events);
    OTF2_Reader_CloseGlobalEvtReader(reader_, ger);
    OTF2_Reader_CloseEvtFiles(reader_);
    if (rc != OTF2_SUCCESS) {
        error = otf2_error("cannot read the events", rc);
        return false;
    }
    return true;
}

} // namespace tessera::trace
