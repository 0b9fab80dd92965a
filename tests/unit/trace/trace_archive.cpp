#include "trace_archive.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "trace_main.h"

namespace trace_test {

TempDir::TempDir()
{
    char tmpl[] = "/tmp/tessera-trace-test-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) {
        ADD_FAILURE() << "mkdtemp failed";
    }
    path_ = tmpl;
}

TempDir::~TempDir()
{
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

TraceArchive::TraceArchive(Layout layout)
    : writer_(std::make_unique<tessera::trace::synth::ArchiveWriter>(dir_.path() + "/archive", "traces",
                                                                      std::move(layout)))
{
    EXPECT_TRUE(writer_->ok()) << writer_->error();
}

OTF2_EvtWriter *TraceArchive::on(uint32_t rank)
{
    return writer_->events(writer_->location(rank));
}

TraceArchive &TraceArchive::send(uint32_t rank, uint64_t t, uint32_t peer, uint32_t tag, uint64_t bytes,
                                 uint32_t comm)
{
    OTF2_EvtWriter_MpiSend(on(rank), nullptr, t, peer, comm, tag, bytes);
    return *this;
}

TraceArchive &TraceArchive::send_on(uint64_t location, uint64_t t, uint32_t peer, uint32_t tag, uint64_t bytes,
                                    uint32_t comm)
{
    OTF2_EvtWriter_MpiSend(writer_->events(location), nullptr, t, peer, comm, tag, bytes);
    return *this;
}

TraceArchive &TraceArchive::recv(uint32_t rank, uint64_t t, uint32_t peer, uint32_t tag, uint64_t bytes,
                                 uint32_t comm)
{
    OTF2_EvtWriter_MpiRecv(on(rank), nullptr, t, peer, comm, tag, bytes);
    return *this;
}

TraceArchive &TraceArchive::isend(uint32_t rank, uint64_t t, uint32_t peer, uint32_t tag, uint64_t bytes,
                                  uint64_t request, uint32_t comm)
{
    OTF2_EvtWriter_MpiIsend(on(rank), nullptr, t, peer, comm, tag, bytes, request);
    return *this;
}

TraceArchive &TraceArchive::isend_complete(uint32_t rank, uint64_t t, uint64_t request)
{
    OTF2_EvtWriter_MpiIsendComplete(on(rank), nullptr, t, request);
    return *this;
}

TraceArchive &TraceArchive::irecv_request(uint32_t rank, uint64_t t, uint64_t request)
{
    OTF2_EvtWriter_MpiIrecvRequest(on(rank), nullptr, t, request);
    return *this;
}

TraceArchive &TraceArchive::irecv(uint32_t rank, uint64_t t, uint32_t peer, uint32_t tag, uint64_t bytes,
                                  uint64_t request, uint32_t comm)
{
    OTF2_EvtWriter_MpiIrecv(on(rank), nullptr, t, peer, comm, tag, bytes, request);
    return *this;
}

TraceArchive &TraceArchive::cancelled(uint32_t rank, uint64_t t, uint64_t request)
{
    OTF2_EvtWriter_MpiRequestCancelled(on(rank), nullptr, t, request);
    return *this;
}

std::string TraceArchive::anchor()
{
    if (!closed_) {
        closed_ = true;
        EXPECT_TRUE(writer_->close()) << writer_->error();
    }
    return writer_->anchor();
}

namespace {

std::string read_file(const std::string &path)
{
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

} // namespace

ToolRun run_tool(const std::vector<std::string> &args)
{
    ToolRun r;
    char *out_buf = nullptr;
    char *err_buf = nullptr;
    size_t out_len = 0;
    size_t err_len = 0;
    std::FILE *out = open_memstream(&out_buf, &out_len);
    std::FILE *err = open_memstream(&err_buf, &err_len);
    r.status = tessera::trace::trace_main(args, out, err);
    std::fclose(out);
    std::fclose(err);
    r.out.assign(out_buf, out_len);
    r.err.assign(err_buf, err_len);
    free(out_buf);
    free(err_buf);
    return r;
}

ToolRun run_with_csv(TraceArchive &archive, std::vector<std::string> extra)
{
    std::string csv = archive.dir() + "/messages.csv";
    std::vector<std::string> args{"--csv", csv};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(archive.anchor());
    ToolRun r = run_tool(args);
    r.csv = read_file(csv);
    return r;
}

std::map<std::string, uint64_t> warning_counts(const nlohmann::json &report)
{
    std::map<std::string, uint64_t> counts;
    for (const auto &[kind, w] : report.at("warnings").at("kinds").items()) {
        counts[kind] = w.at("count").get<uint64_t>();
    }
    return counts;
}

} // namespace trace_test
